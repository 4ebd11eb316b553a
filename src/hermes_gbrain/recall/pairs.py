"""A second search per turn, for paraphrases a keyword-only GBrain does not find.

Without an embedding provider GBrain's search ANDs every word of the message, and only when
no chunk holds them all does it OR them, where pages whose titles share one ordinary word
lead. A paraphrase shares two or three distinctive words with its page, rarely all of
them, so its page is often in neither list. Each turn therefore also searches pairs of the
message's first :data:`PAIR_WORDS` distinctive words, joined by the ``or`` that Postgres'
``websearch_to_tsquery`` reads (``a b or a c or b c``: a chunk holding any two), and the
gate reads those rows after the message's own (``GBrain.recall_rows(also=…)``).

A hybrid GBrain finds paraphrases through its vector arm: its rows carry a ``cosine``.
``recall_rows`` then leaves the pairs' rows out, and once an endpoint answered so, this
process stops sending the pairs search to it (a one-shot process sends it once).
Measured in ``bench/relevance.py``; the message text is never logged or stored.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterable

from ..api import SearchRow
from .vocabulary import TitleVocabulary, is_distinctive
from .words import GENERIC_STEMS, STOP_STEMS, stem, words

__all__ = ["PAIR_WORDS", "note_rows", "pair_query", "pair_words", "wants_pairs"]

PAIR_WORDS = 5
"""Distinctive words paired (5 words: 10 pairs). More words pair generic ones too."""

_STOPS = STOP_STEMS | GENERIC_STEMS
_lock = threading.Lock()
_with_vectors: set[str] = set()


def pair_words(message: str, vocabulary: TitleVocabulary | None = None) -> list[str]:
    """The message's first distinctive words of spaced scripts, one per stem, in order."""
    chosen: list[str] = []
    stems: set[str] = set()
    for word in words(message):
        root = stem(word)
        if len(word) < 3 or root in _STOPS or root in stems or not word.isascii():
            continue
        if is_distinctive(root, vocabulary):
            chosen.append(word)
            stems.add(root)
            if len(chosen) == PAIR_WORDS:
                break
    return chosen


def pair_query(message: str, vocabulary: TitleVocabulary | None = None) -> str | None:
    """``a b or a c or b c`` over :func:`pair_words`; None under two words."""
    chosen = pair_words(message, vocabulary)
    if len(chosen) < 2:
        return None
    return " or ".join(f"{a} {b}" for a, b in itertools.combinations(chosen, 2))


def wants_pairs(endpoint: str) -> bool:
    """False once ``endpoint`` answered with vector rows in this process."""
    return endpoint not in _with_vectors


def note_rows(endpoint: str, rows: Iterable[SearchRow]) -> None:
    """Remember an endpoint whose search rows carry a cosine (a hybrid GBrain)."""
    if any(row.cosine is not None for row in rows):
        with _lock:
            _with_vectors.add(endpoint)
