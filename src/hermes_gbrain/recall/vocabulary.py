"""How common each word is among the brain's titles, and which words may anchor a match.

A word in many titles ("plan", "notes", or a team's own everyday word) names no page by
itself: the gate (:mod:`.gate`) needs its stems to be *distinctive*. The counts are built
with the digest and kept in the profile's data folder.
"""

from __future__ import annotations

import json
import math
import os
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..files import data_dir, read_state, write_atomic
from .filecache import FileCache
from .words import (
    STEMS_VERSION,
    content_stems,
    is_unspaced,
    stem,
)

__all__ = [
    "MAX_VOCABULARY",
    "ORDINARY_STEMS",
    "ORDINARY_TITLE_WORDS",
    "VOCABULARY_FILE",
    "TitleVocabulary",
    "is_distinctive",
    "is_hub",
    "load_vocabulary",
    "vocabulary_path",
    "write_vocabulary",
]

ORDINARY_TITLE_WORDS = frozenset(
    """
    plan plans planning review reviews update updates note notes capital meeting meetings report
    reports summary summaries weekly monthly daily quarterly annual notes draft drafts budget
    budgets project projects team teams design designs roadmap strategy status goals goal
    retro retrospective kickoff sync standup checklist guide overview ideas idea list lists
    log logs journal agenda minutes call calls memo proposal proposals policy policies process
    template templates playbook runbook decision decisions research notes question questions
    trip travel party dinner event events launch board session sessions workshop offsite
    planning schedule calendar tasks task todo inbox feedback
    training recap recaps digest general misc personal home house health book books
    reading learning course courses class lesson lessons recipe recipes garden budget finance
    """.split()  # noqa: SIM905 - a word list reads better as text
)
"""Words common in page titles that never anchor a match on their own."""
COMMON_SHARE = 0.03
"""With a vocabulary, a word in more than this share of titles (and in 5 or more) is
ordinary."""
COMMON_MIN_TITLES = 5
VOCABULARY_FILE = "title_vocab.json"
VOCABULARY_SCHEMA = STEMS_VERSION
"""The stems' version (:data:`.words.STEMS_VERSION`): an older file counts other stems, so
it is ignored until the next digest build writes it again."""
MAX_VOCABULARY = 20_000
MAX_VOCABULARY_BYTES = 2 * 1024 * 1024
ORDINARY_STEMS = frozenset(stem(w) for w in ORDINARY_TITLE_WORDS)


@dataclass(frozen=True, slots=True)
class TitleVocabulary:
    """How many of the brain's titles hold each word (stems seen in 2+ titles only).

    Built from ``list_pages`` with the digest and kept in the profile's data folder:
    counts of title words, no page text, no message text, no secret.
    """

    pages: int
    df: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def build(cls, titles: Iterable[str]) -> TitleVocabulary:
        counts: Counter[str] = Counter()
        pages = 0
        for title in titles:
            pages += 1
            counts.update(content_stems(title))
        return cls.from_counts(pages, counts)

    @classmethod
    def from_counts(cls, pages: int, counts: Mapping[str, int]) -> TitleVocabulary:
        """From stem -> titles-holding-it counts: the :data:`MAX_VOCABULARY` most common
        stems seen in 2+ titles (ties by stem, so the same counts give the same words)."""
        kept = sorted(((w, n) for w, n in counts.items() if n >= 2), key=lambda e: (-e[1], e[0]))
        return cls(pages, dict(sorted(kept[:MAX_VOCABULARY])))

    def common(self, stem: str) -> bool:
        """True when ``stem`` is in more than ``COMMON_SHARE`` of titles (5 or more)."""
        n = self.df.get(stem, 0)
        return n >= COMMON_MIN_TITLES and n > COMMON_SHARE * self.pages

    def idf(self, stem: str) -> float:
        """``log(pages / titles holding stem)``; high for rare words."""
        return math.log((self.pages + 1) / (self.df.get(stem, 0) + 1))

    def to_json(self) -> dict[str, Any]:
        return {"schema": VOCABULARY_SCHEMA, "pages": self.pages, "df": dict(self.df)}

    @classmethod
    def from_json(cls, data: Any) -> TitleVocabulary | None:
        if not isinstance(data, dict) or data.get("schema") != VOCABULARY_SCHEMA:
            return None
        pages, df = data.get("pages"), data.get("df")
        if not isinstance(pages, int) or pages < 0 or not isinstance(df, dict):
            return None
        clean = {
            k: v
            for k, v in df.items()
            if isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and v > 0
        }
        return cls(pages, clean)


def vocabulary_path(hermes_home: str | os.PathLike[str]) -> Path:
    """``$HERMES_HOME/gbrain/title_vocab.json``."""
    return data_dir(hermes_home) / VOCABULARY_FILE


def write_vocabulary(hermes_home: str | os.PathLike[str], vocabulary: TitleVocabulary) -> Path:
    """Replace the profile's vocabulary atomically."""
    text = json.dumps(vocabulary.to_json(), ensure_ascii=False, separators=(",", ":"))
    return write_atomic(vocabulary_path(hermes_home), text + "\n")


def _read_vocabulary(path: Path, size: int) -> TitleVocabulary | None:
    if size > MAX_VOCABULARY_BYTES:
        return None
    try:
        return TitleVocabulary.from_json(json.loads(read_state(path, MAX_VOCABULARY_BYTES)))
    except (OSError, ValueError):
        return None


_vocabularies = FileCache(_read_vocabulary)


def load_vocabulary(hermes_home: str | os.PathLike[str]) -> TitleVocabulary | None:
    """The profile's vocabulary (re-read when the file changes), or None. Never raises."""
    return _vocabularies.get(vocabulary_path(hermes_home))


def is_distinctive(stem: str, vocabulary: TitleVocabulary | None = None) -> bool:
    """Whether a word stem can anchor a match: not a number, not ordinary, not common here."""
    if is_unspaced(stem[:1]):
        long_enough = len(stem) >= 2  # a run of an unspaced script: a word or more
    else:
        long_enough = len(stem) >= 3 and not stem.isdigit() and stem not in ORDINARY_STEMS
    return long_enough and (vocabulary is None or not vocabulary.common(stem))


HUB_SHARE = 20
"""A page linked from one page in this many of the brain's is a hub (:func:`is_hub`)."""
HUB_MIN = 10
"""Nor from fewer pages than this: in a small brain a few links make no hub."""


def is_hub(links: int, vocabulary: TitleVocabulary | None) -> bool:
    """Whether a page ``links`` pages link to (:attr:`.api.SearchRow.linked_from`) is one
    much of the brain links to (its own company, its main product): such a page's summary
    shares words with any message about work, so two of them tell nothing. Needs the
    vocabulary's page count; without it, no page is."""
    if vocabulary is None or vocabulary.pages <= 0:
        return False
    return links >= max(HUB_MIN, vocabulary.pages / HUB_SHARE)
