"""A second look at the rows the gate's rules leave out: a small logistic model.

The rules name what they can explain ("every word of the title", "a name and a second word
of its page"); a row they leave out may still be the page the message is about, and what
gives it away is how much of the message it holds beside how GBrain ranked it. The model
reads only what the gate has read already (:class:`.readings.Reading`, the row's place and
evidence) and admits a row when its probability of being a page the message is about is at
least ``Gate.judge`` (default :data:`THRESHOLD`). It never looks at a row the rules ruled
out as unclean or already shown, and it only fills slots the rules left empty.

The weights (:mod:`.judge_weights`) are fitted by ``bench/judge_fit.py`` on the labelled
sets of ``bench/relevance.py`` over a keyword-only brain; a vector-only row of a hybrid brain
(no ``keyword_hit``) is never judged, as the model has not seen one. The threshold was chosen
on the sets up to ``sealed75`` with the weights fitted on them and checked on the sets after
them (``bench/RELEVANCE.md``). Pure arithmetic: no text is logged or kept.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

from ..api import SearchRow
from .judge_weights import BIAS, WEIGHTS
from .message import Message
from .named import NAME_TYPES
from .readings import Reading
from .rowwords import is_person, row_key

__all__ = ["FEATURES", "THRESHOLD", "admitted", "features", "judgeable", "probability"]

THRESHOLD = 0.8
"""Admit a row at this probability or more: fitted on the sets up to ``sealed75``, the lowest
threshold that injected no more no-answer turns there and on the sets after them
(``bench/RELEVANCE.md``)."""
EVIDENCE = ("keyword_exact", "weak_semantic", "alias_hit", "exact_title_match")
FEATURES = (
    "rank",
    "first",
    "score_share",
    "wanted",
    "asked",
    "asked_in_body",
    "wanted_in_body",
    "asked_in_backing",
    "asked_in_title",
    "wanted_in_title",
    "title_words",
    "title_share",
    "asked_missing",
    "asked_share",
    "elsewhere",
    "common",
    "names",
    "names_in_body",
    "latin",
    "length",
    *(f"evidence_{kind}" for kind in EVIDENCE),
    "name_page",
    "person",
    "tier_none",
    "tier_named",
    "tier_title_word",
    "tier_content",
    "picked",
)


def features(  # noqa: PLR0917 - the gate's readings, passed as they are
    row: SearchRow,
    reading: Reading,
    said: Message,
    position: int,
    top: float,
    tier: int | None,
    picked: int,
) -> tuple[float, ...]:
    """The row's values in :data:`FEATURES` order; ``top``: the best score of the turn's rows,
    ``tier``: the rules' tier for it, ``picked``: how many rows the rules picked."""
    wanted, asked, words = reading.wanted, reading.asked, reading.row
    asked_in_body = len(asked & words.body)
    wanted_in_title = len(wanted & words.title)
    values = (
        min(position, 10),
        position == 0,
        (row.score or 0.0) / top if top > 0 else 0.0,
        len(wanted),
        len(asked),
        asked_in_body,
        len(wanted & words.body),
        len(asked & words.backing),
        len(asked & words.title),
        wanted_in_title,
        len(words.title),
        wanted_in_title / max(len(words.title), 1),
        len(asked) - asked_in_body,
        asked_in_body / max(len(asked), 1),
        reading.elsewhere,
        reading.common,
        len(said.names),
        len(said.names & words.body),
        said.text.isascii(),
        min(len(said.text.split()), 30),
        *(row.evidence == kind for kind in EVIDENCE),
        (row.type or "") in NAME_TYPES,
        is_person(row),
        tier is None,
        tier is not None and tier <= 1,
        tier == 2,
        tier == 3,
        picked,
    )
    return tuple(float(v) for v in values)


def probability(values: Sequence[float]) -> float:
    """The model's probability that the row is a page the message is about."""
    z = BIAS + sum(w * v for w, v in zip(WEIGHTS, values, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def judgeable(
    candidates: Sequence[tuple[SearchRow, Reading, int, int | None]],
) -> list[tuple[SearchRow, Reading, int, int | None]]:
    """The candidates the model may score: a vector-only row is left out, as the model was
    fitted on lexical rows (``bench/judge_fit.py`` reads the same ones)."""
    return [c for c in candidates if c[0].cosine is None or c[0].keyword_hit]


def admitted(
    candidates: Sequence[tuple[SearchRow, Reading, int, int | None]],
    taken: Collection[str],
    said: Message,
    top: float,
    *,
    threshold: float,
    room: int,
) -> list[SearchRow]:
    """Up to ``room`` of ``candidates`` (row, its reading, its place among the clean rows, its tier)
    not in ``taken`` (``source:slug`` keys the rules picked), most probable first, whose
    probability reaches ``threshold``. With no room nothing is scored: the turn's hot path
    pays for the model only when it can add a row."""
    if room <= 0:
        return []
    scored = []
    for row, reading, position, tier in judgeable(candidates):
        if row_key(row) in taken:
            continue
        p = probability(features(row, reading, said, position, top, tier, len(taken)))
        if p >= threshold:
            scored.append((-p, position, row))
    scored.sort(key=lambda item: (item[0], item[1]))
    return [row for _, _, row in scored[:room]]
