"""Which loose rows (tiers 2 and 3 of :mod:`.gate`) go beside named ones, and which stay
when a follow-up points back at what the last turn showed.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from ..api import SearchRow
from .message import Message
from .named import NAME_TYPES
from .readings import support_of
from .rowwords import RowWords, is_person, row_key, slug_words
from .vocabulary import TitleVocabulary, is_distinctive
from .words import (
    content_stems,
)

__all__ = [
    "JOIN_WORDS",
    "companion_row",
    "leading_row",
    "tied_rows",
]

_BACK = frozenset(
    "it its he him his she her they them their those these that this there".split()  # noqa: SIM905
)
"""Words that point back at what the conversation was about ("who leads their rangers?")."""


JOIN_WORDS = 4
"""Distinctive words of the message, beyond the named titles', that let a loose row GBrain
ranks below the named ones join them (measured: with 3, more such rows came in than were
wanted)."""


def leading_row(
    clean: Sequence[SearchRow],
    named: Sequence[SearchRow],
    loose: Sequence[SearchRow],
    *,
    read: Mapping[str, RowWords],
    said: Message,
    vocabulary: TitleVocabulary | None,
) -> SearchRow | None:
    """The loose row that may join named ones: GBrain ranks it above every named row
    and two distinctive words of the message back it ("Who closed the Okavango pilot
    contract?" names the foundation, and the page of the person who closed it leads).
    Else, when the message asks who, the first person's row that two distinctive words
    of the message beyond the named titles' back, wherever GBrain ranks it ("who wrote
    the radio firmware, the low power stuff?" names *Low-Power Radio*; its writer's page
    holds "wrote" and "firmware"), or one such word and every distinctive word of a named
    title that is no name ("Who built single sign-on for conservancy staff?" names the
    decision; the page of the engineer who built it says so). Not a company's: everyone who
    works there has its name on their page. Else the first row that :data:`JOIN_WORDS`
    distinctive words of the message beyond the named titles' back, wherever GBrain ranks it
    ("how many pictures a month do the motion cameras at marula produce" names the
    conservancy; the page on camera-trap images holds the rest)."""
    if not named:
        return None
    order = {row_key(r): i for i, r in enumerate(clean)}
    first = min(order.get(row_key(r), len(clean)) for r in named)
    ahead = [
        r
        for r in loose
        if order[row_key(r)] < first and support_of(read[row_key(r)], said.wanted, vocabulary) >= 2
    ]
    if not ahead and said.who:
        titled = [(r, content_stems(r.title)) for r in named]
        beyond = said.wanted - set().union(*(stems for _, stems in titled))
        things = [  # a company's name is on the page of everyone who works there
            {s for s in stems if is_distinctive(s, vocabulary)}
            for r, stems in titled
            if (r.type or "") not in NAME_TYPES
        ]
        ahead = [
            r
            for r in loose
            if is_person(r)
            and (
                (backing := support_of(read[row_key(r)], beyond, vocabulary)) >= 2
                or (backing and any(thing and thing <= read[row_key(r)].body for thing in things))
            )
        ]
    if not ahead:  # "how many pictures a month do the motion cameras at marula produce"
        beyond = said.wanted - set().union(*(content_stems(r.title) for r in named))
        ahead = [r for r in loose if support_of(read[row_key(r)], beyond, vocabulary) >= JOIN_WORDS]
    return min(ahead, key=lambda r: order[row_key(r)], default=None)


def companion_row(
    named: Sequence[SearchRow],
    loose: Sequence[SearchRow],
    picked: Collection[SearchRow],
    *,
    read: Mapping[str, RowWords],
    said: Message,
    vocabulary: TitleVocabulary | None,
) -> SearchRow | None:
    """The first loose row a named row's own page points at, by a word of the message
    that names no named row: "whats the latest on fernseed, did priya retrain it" names
    *Priya Raman*, whose summary holds *Fernseed Classifier*; GBrain ranks the project
    below her, where only a leader would join. A named title's own word brings nothing
    ("the tidepool dashboard" does not bring its design review)."""
    taken = {row_key(r) for r in picked}
    words = [read.get(row_key(r)) or RowWords.of(r) for r in named]
    titled = set().union(*(w.title for w in words))
    for row in loose:
        if row_key(row) in taken:
            continue
        for page in _subject_words([row_key(row)], vocabulary):
            if (page & said.wanted) - titled and any(page <= w.body for w in words):
                return row
    return None


def _subject_words(subject: Iterable[str], vocabulary: TitleVocabulary | None) -> list[set[str]]:
    """The distinctive words of each page of ``subject`` (``source:slug`` keys), read off
    its slug: a page is mentioned by its slug's words, in a summary's ``[[link]]`` too."""
    found = []
    for key in subject:
        if stems := {
            s for s in content_stems(slug_words(key.strip("[]"))) if is_distinctive(s, vocabulary)
        }:
            found.append(stems)
    return found


def tied_rows(
    kept: list[SearchRow],
    read: Mapping[str, RowWords],
    said: Message,
    subject: Collection[str],
    vocabulary: TitleVocabulary | None,
) -> list[SearchRow]:
    """``kept`` (loose rows, best-backed first) narrowed to those that mention the
    ``subject``, when the message points back at it and the best-backed row does:
    "who's their head ranger?" after *Marula Conservancy* is not about another trust's head
    ranger. Unchanged otherwise."""
    if not subject or not kept or not _BACK.intersection(said.sequence):
        return kept
    pages = _subject_words(subject, vocabulary)
    tied = [r for r in kept if any(p <= read[row_key(r)].body for p in pages)]
    best = support_of(read[row_key(kept[0])], said.wanted, vocabulary)
    if not tied or support_of(read[row_key(tied[0])], said.wanted, vocabulary) < best:
        return kept
    return tied
