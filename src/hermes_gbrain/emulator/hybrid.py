"""The optional vector arm: hybrid search shaped like a GBrain with an embedding provider.

Recordings 111-115 come from a GBrain 0.46.28 whose pages were embedded by a local
384-dimension model. What this module imitates, and where it is read:

* **The vector arm has no floor** (recordings 112-114): every search returns up to 20
  rows, the tail found by the vector arm alone; a page may come back twice, once per
  chunk (*Maya Okafor* in 112, compiled truth and timeline). Default limit 20.
* **Fusion** (``hybrid/rank.ts`` ``fuseArms``): reciprocal rank fusion, k = 60, of the
  lexical lists (chunk and title arms, as in :mod:`.search`) and the vector list; lexical
  membership is stamped before fusion and survives it (``keyword_hit``, OR-propagated).
  In 0.46.28 OR-relaxed lexical rows still vote with a healthy vector arm: recording 113
  carries ``keyword_hit`` on 15 rows of a seven-word paraphrase.
* **Cosine re-score** (``hybrid.ts`` ``cosineReScore``): ``base_score = 0.7 * rrf / max(rrf)
  + 0.3 * cosine`` (recording 114: *Harbor Vale Capital*, base 0.719 = 0.7 + 0.3 x 0.063),
  then the title-phrase boost and the backlink boost on top (112: 0.886 x 1.25 x 1.0896).
* **Evidence** (``evidence.ts``): ``high_vector_match`` needs a cosine of at least 0.8;
  ``keyword_exact`` needs ``keyword_hit`` and a base score of at least 0.6; every other
  row is ``weak_semantic`` (:attr:`.search.Hit.evidence`).

The embedding is ours, small and deterministic: hashed word stems, their character
trigrams (so "syncing" and "sync" meet) and character pairs of unspaced scripts, in
384 buckets. It knows no synonyms, so it finds paraphrases only through shared word
forms; its cosines fall in the same low range as the recorded model's (0-0.6). Any other
``Embedder`` (text to unit vector) may be plugged in: ``bench/relevance.py --embedder minilm``
runs the recorded brain's own model, so that the gate is measured on real semantics.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Mapping, Sequence

from hermes_gbrain.emulator.pages import Chunk, Page
from hermes_gbrain.emulator.search import (
    RRF_K,
    STOPWORDS,
    Hit,
    SearchIndex,
    apply_boosts,
    lexical_hits,
    stem,
    words,
)

__all__ = ["DEFAULT_LIMIT", "DIMENSIONS", "Embedder", "cosine", "embed", "rank_hybrid"]

DIMENSIONS = 384  # the recorded brain's model (INDEX.md, "a hybrid brain")
DEFAULT_LIMIT = 20  # recordings 112-115: sent without ``limit``, 20 rows back
VECTOR_POOL = 40
"""Chunks the vector arm hands to fusion (it has no floor: always this many, or all)."""
MAX_PER_PAGE = 2  # recording 112: a page twice at most, by two chunks
RRF_BLEND = 0.7  # hybrid.ts cosineReScore: 0.7 * normalised RRF + 0.3 * cosine
COSINE_BLEND = 0.3
TRIGRAM_WEIGHT = 0.25

Vector = dict[int, float]
Embedder = Callable[[str], Vector]
"""Text to a unit vector (dimension -> value); :func:`embed` unless one is plugged in."""


def _unspaced(ch: str) -> bool:
    code = ord(ch)
    return 0x3040 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF or 0x0E00 <= code <= 0x0EFF


def _features(text: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for word in words(text):
        if word in STOPWORDS:
            continue
        if any(_unspaced(ch) for ch in word):
            for i in range(max(1, len(word) - 1)):
                pair = "p:" + word[i : i + 2]
                out[pair] = out.get(pair, 0.0) + 1.0
            continue
        key = "w:" + stem(word)
        out[key] = out.get(key, 0.0) + 1.0
        padded = f"^{word}$"
        for i in range(len(padded) - 2):
            gram = "t:" + padded[i : i + 3]
            out[gram] = out.get(gram, 0.0) + TRIGRAM_WEIGHT
    return out


def embed(text: str) -> Vector:
    """A unit vector of ``text`` (empty when it has no content word)."""
    vector: Vector = {}
    for feature, weight in _features(text).items():
        bucket = zlib.crc32(feature.encode("utf-8")) % DIMENSIONS
        vector[bucket] = vector.get(bucket, 0.0) + weight
    norm = math.sqrt(sum(v * v for v in vector.values()))
    return {k: v / norm for k, v in vector.items()} if norm else {}


def cosine(a: Vector, b: Vector) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(v * b.get(k, 0.0) for k, v in a.items())


def _chunk_vector(index: SearchIndex, chunk: Chunk, embedder: Embedder) -> Vector:
    vector = index.vectors.get(chunk.id)
    if vector is None:
        vector = index.vectors[chunk.id] = embedder(chunk.text)
    return vector


def _page_chunks(page: Page) -> list[Chunk]:
    return page.chunks or [Chunk(0, page.id, 0, "compiled_truth", page.compiled_truth)]


def rank_hybrid(
    pages: Sequence[Page],
    query: str,
    backlink_counts: Mapping[str, int],
    index: SearchIndex,
    embedder: Embedder = embed,
) -> list[Hit]:
    """Rank ``pages`` with the lexical arms and the vector arm fused; best first. The
    index caches chunk vectors, so one index serves one ``embedder``."""
    wanted = embedder(query)
    lexical = lexical_hits(pages, query, index)
    scored: list[tuple[float, str, int, Page, Chunk]] = []
    for page in pages:
        for chunk in _page_chunks(page):
            similarity = cosine(wanted, _chunk_vector(index, chunk, embedder)) if wanted else 0.0
            scored.append((similarity, page.slug, chunk.chunk_index, page, chunk))
    scored.sort(key=lambda s: (-s[0], s[1], s[2]))
    entries: dict[tuple[int, int], Hit] = {}
    for hit in lexical.values():
        entries[(hit.page.id, hit.chunk.chunk_index)] = hit
    for position, (_, _, _, page, chunk) in enumerate(scored[:VECTOR_POOL]):
        key = (page.id, chunk.chunk_index)
        if key not in entries:
            entries[key] = Hit(page, chunk, keyword_hit=False)
        entries[key].raw += RRF_K / (RRF_K + position)
    top = max((e.raw for e in entries.values()), default=0.0)
    for hit in entries.values():
        hit.cosine = cosine(wanted, _chunk_vector(index, hit.chunk, embedder)) if wanted else 0.0
        normalised = hit.raw / top if top > 0 else 0.0
        base = RRF_BLEND * normalised + COSINE_BLEND * hit.cosine
        apply_boosts(hit, query, backlink_counts, base=base)
    ordered = sorted(entries.values(), key=lambda h: (-h.score, h.page.slug, h.chunk.chunk_index))
    per_page: dict[int, int] = {}
    kept: list[Hit] = []
    for hit in ordered:
        seen = per_page.get(hit.page.id, 0)
        if seen < MAX_PER_PAGE:
            per_page[hit.page.id] = seen + 1
            kept.append(hit)
    return kept
