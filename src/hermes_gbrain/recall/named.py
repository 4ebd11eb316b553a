"""Pages whose whole title is in the message, found in the title index.

A keyword-only GBrain finds a page titled in Chinese or Japanese only when the query
*is* its title (its parser keeps a run of those scripts as one word), and any search
can rank a named page below its cut. The title index the digest keeps
(:mod:`.title_index`) knows every title, so a page the message names is found there
too. Each title is filed under one key — its rarest word, or the first two characters
of its first unspaced run — that any message naming it must hold, so a message costs a
few dictionary look-ups, however large the brain. A person's or company's name with one
word misspelt by a slip ("Tomas Lindquist") is found through the words each name word
becomes with a letter left out. An acronym in the message ("RRF") names the one page
whose title has those initials, if only one has. A word of a name no other title holds
(a person's any word, a project's or company's first) finds its page when the message holds
it as written: "Driftwoodの同期…" gets no row from a keyword-only search, whose parser
reads the Japanese run as one word no page has. A person's, company's or project's Latin
name written in Arabic or Hebrew letters, in katakana or in Cyrillic is read by its consonants
(:mod:`.skeletons`); the page is named when no other name reads the same. Any title's Latin
words written in katakana ("ソーラーカラーのキックオフ") are read back as those words, for
the gate to name titles by.
A month the message gives names the one meeting of
that month whose title has a word of the message, as written near the month's name ("feb
planning mtg") or as the gate glosses it (a meeting's kind in another language). Other candidates
are only candidates: the
gate decides with the same rules as for search rows (:func:`.gate.gate_rows`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..api import SearchRow
from .brahmic import brahmic_runs, title_brahmic
from .dates import date_marks, is_date_stem
from .honorifics import honoured
from .rowwords import latin_form
from .skeletons import as_kana, kana_runs, latin_skeletons, message_skeletons, title_kana
from .words import (
    SLIP_MIN,
    acronyms,
    compact,
    content_stems,
    is_unspaced,
    mended,
    message_acronyms,
    near,
    run_in,
    slips,
    stem,
    words,
)

__all__ = ["HOLDS_WORDS", "LONE_TYPES", "MAX_CANDIDATES", "NAME_TYPES", "TitleMatcher"]

MAX_CANDIDATES = 64
"""Candidates checked per message at most (a message naming more is not a question)."""
UNDATED_WORDS = 2
"""Words besides its date a dated title needs to be named without it."""
JOINED_MIN = 3
"""Letters each of two words written apart needs before the gate reads them as one word of a
name ("fern seed" for *Fernseed*; "la mesa" is no *Lamesa*)."""
JOINED_SLIP_MIN = 4
"""Letters each of them needs before the word they make may be a slip off a name's word
("tomas lind quist" for *Tomas Lindqvist*; "chi era" is no *Chiara*)."""
NAME_TYPES = frozenset({"person", "company", "organization"})
"""Pages whose titles are names: found too when the message misspells one of their words."""


MONTH_WORD_MIN = 4
"""Letters a word of a meeting's title needs to name it beside a month ("call" of On-Call)."""
HOLDS_WORDS = frozenset({"meeting", "notes", "summary", "minutes"})
"""Words for what a dated page holds: any meeting's, so they name none, and a title may go
without them (:func:`.naming._dated`)."""

LONE_TYPES = NAME_TYPES | {"project"}
"""Pages a word of their own name may name alone (:func:`.naming.lone_name`)."""


def _own_words(title: str, kind: str, counts: Mapping[str, int], *, held: int = 1) -> set[str]:
    """The stems of a name's words that no other title holds, in Latin letters: a person's
    every word, the first word of a project's or company's title. ``held``: how many titles
    hold the word when only its own does (0 for a title's Latin reading, which ``counts``,
    kept as titles are written, never holds)."""
    said = [w for w in words(title) if w.isascii() and w.isalpha()]
    stems = {s for w in (said if kind == "person" else said[:1]) for s in content_stems(w)}
    return {s for s in stems if counts.get(s, 0) <= held}


def _month_keys(title: str, marks: frozenset[str]) -> set[tuple[str, str]]:
    """A meeting's month beside each word of its title as written, but for its date's words
    and the words for what a page holds ("meeting", "notes"): "planning" names the
    planning meeting of a month, "planned" does not."""
    months = {m for m in marks if m[0] == "m"}
    said = {w for w in words(title) if w.isalpha() and len(w) >= MONTH_WORD_MIN}
    said = {w for w in said - HOLDS_WORDS if not is_date_stem(stem(w))}
    return {(month, word) for month in months for word in said}


@dataclass(frozen=True, slots=True)
class _Entry:
    row: SearchRow
    stems: frozenset[str]


def _key(stems: frozenset[str], counts: Mapping[str, int]) -> str:
    """The first two characters of the first unspaced run, else the rarest stem."""
    runs = sorted(s for s in stems if is_unspaced(s[0]))
    if runs:
        return runs[0][:2]
    return min(stems, key=lambda s: (counts.get(s, 0), -len(s), s))


class TitleMatcher:
    """Every indexed title, filed for :meth:`candidates`. Holds titles only, no text."""

    __slots__ = (
        *("_days", "_initials", "_keys", "_lone", "_name_words", "_skeletons", "_slipped"),
        *("_brahmic", "_kana", "_months", "_name_parts", "_people", "_undated", "_pages", "pages"),
        "_handles",
    )

    def __init__(
        self,
        pages: Iterable[tuple[str, str, str, str]],
        df: Mapping[str, int] | None = None,
    ) -> None:
        """``pages``: ``(source_id, slug, title, type)``; ``df``: stem -> titles holding it."""
        counts = df or {}
        self._keys: dict[str, list[_Entry]] = {}
        self._initials: dict[str, list[SearchRow]] = {}
        self._slipped: dict[str, set[str]] = {}
        self._name_words: dict[str, list[SearchRow]] = {}
        self._lone: dict[str, list[SearchRow]] = {}
        self._days: dict[str, list[SearchRow]] = {}
        self._skeletons: dict[tuple[str, tuple[str, ...]], list[SearchRow]] = {}
        self._kana: dict[str, set[str]] = {}
        self._brahmic: dict[str, set[str]] = {}
        self._people: dict[tuple[str, str], list[SearchRow]] = {}
        self._name_parts: set[str] = set()
        meetings: dict[frozenset[str], list[SearchRow]] = {}
        self._months: dict[tuple[str, str], list[SearchRow]] = {}
        self._pages: dict[tuple[str, str], SearchRow] = {}
        self._handles: dict[str, list[tuple[tuple[str, ...], SearchRow]]] = {}
        handles: list[tuple[tuple[str, ...], SearchRow]] = []
        titled: set[str] = set()
        self.pages = 0
        for source, slug, title, kind in pages:
            stems = frozenset(content_stems(title))
            if not stems:
                continue
            row = SearchRow(slug=slug, title=title, source_id=source, type=kind or None)
            title_words = words(title)
            self._pages[(source, slug)] = row
            self._keys.setdefault(_key(stems, counts), []).append(_Entry(row, stems))
            titled.update(title_words)
            if handle := _handle(slug, title_words):
                handles.append((handle, row))
            in_latin = latin_form(title, slug)
            latin = frozenset(content_stems(in_latin))
            if latin and latin != stems:  # "Olga Smirnova" for *Ольга Смирнова*, "sato yuki"
                self._keys.setdefault(_key(latin, counts), []).append(_Entry(row, latin))
            for initials in acronyms(title):
                self._initials.setdefault(initials, []).append(row)
            marks = date_marks(title)
            for day in (m for m in marks if m[0] in "dw"):  # a day, or an ISO week
                self._days.setdefault(day, []).append(row)
            undated = frozenset(s for s in stems if not is_date_stem(s))
            if kind == "meeting":
                for month_word in _month_keys(title, marks):
                    self._months.setdefault(month_word, []).append(row)
            if kind == "meeting" and marks and len(undated) >= UNDATED_WORDS:
                meetings.setdefault(undated, []).append(row)
            if kind in LONE_TYPES and counts:
                for word in _own_words(title, kind, counts):
                    self._lone.setdefault(word, []).append(row)
                if latin and latin != stems:  # "Smirnova" for *Ольга Смирнова*
                    for word in _own_words(in_latin, kind, counts, held=0):
                        self._lone.setdefault(word, []).append(row)
            for kana, said in title_kana(title_words):
                self._kana.setdefault(kana, set()).add(said)
            # a title in another script is written by its Latin form too ("లైలా హసన్" for
            # *ليلى حسن* at ``people/layla-hassan``)
            for form in (title, in_latin if latin != stems else ""):
                for sounds, said in title_brahmic(words(form)):
                    self._brahmic.setdefault(sounds, set()).add(said)
            if kind in LONE_TYPES:
                for skeleton in latin_skeletons(title_words):
                    self._skeletons.setdefault(skeleton, []).append(row)
                for word in title_words:
                    if not (word.isascii() and word.isalpha()):
                        continue
                    self._name_parts.add(word)
                    if kind == "person":  # an honorific follows a person's name only
                        self._people.setdefault(("word", word), []).append(row)
                        self._people.setdefault(("kana", as_kana(word)), []).append(row)
            if kind in NAME_TYPES and len(stems) >= 2:
                for word in {w for w in title_words if len(w) >= SLIP_MIN}:
                    self._name_words.setdefault(word, []).append(row)
                    for key in {word} | slips(word):
                        self._slipped.setdefault(key, set()).add(word)
            self.pages += 1
        for handle, row in handles:  # a word of its own, that no title holds: "postgres"
            if not set(handle) <= titled:
                self._handles.setdefault(handle[0], []).append((handle, row))
        # a meeting's words besides its date, filed like a title under its rarest word,
        # when no other meeting has the same: a message costs a few look-ups here too
        self._undated: dict[str, list[_Entry]] = {}
        for undated, rows in meetings.items():
            if len(rows) == 1:
                rarest = min(undated, key=lambda s: (counts.get(s, 0), -len(s), s))
                self._undated.setdefault(rarest, []).append(_Entry(rows[0], undated))

    def __repr__(self) -> str:
        return f"TitleMatcher(pages={self.pages})"

    def page(self, source_id: str, slug: str) -> SearchRow | None:
        """The indexed title and type of one page (``None`` when not indexed)."""
        return self._pages.get((source_id, slug))

    def _misspelt(self, message: str, wanted: set[str]) -> list[SearchRow]:
        """Names of two or more words the message holds with one of them a slip off. Each
        name word is compared once, however many pages carry it ("Tomas" spelt right
        finds no one here)."""
        said = set(words(message))
        found: list[SearchRow] = []
        for word in sorted(w for w in said if len(w) >= SLIP_MIN - 1):
            keys = {word} | slips(word)
            near_words = {t for key in keys for t in self._slipped.get(key, ()) if near(t, word)}
            for name_word in sorted(near_words):
                for row in self._name_words[name_word]:
                    if row not in found and mended(row.title, said, wanted) is not None:
                        found.append(row)
        return found

    def undated(self, wanted: set[str]) -> list[SearchRow]:
        """Meetings whose title's words besides its date are all in ``wanted`` and belong to no
        other meeting's title: "pull up the on-call retro" for *On-Call Retro (2026-03-12)*,
        not "the monthly planning" when there is one a month."""
        return [
            entry.row
            for key in sorted(wanted)
            for entry in self._undated.get(key, ())
            if entry.stems <= wanted
        ]

    def lone(self, written: set[str]) -> list[SearchRow]:
        """Pages a word of their name no other title holds may name alone, for the words
        the message holds as written (``written``: stems, not their Latin-letter reading):
        "Driftwoodの同期…", for which a keyword-only search finds nothing at all."""
        return [row for key in sorted(written & self._lone.keys()) for row in self._lone[key]][
            :MAX_CANDIDATES
        ]

    def across_scripts(self, message: str) -> list[SearchRow]:
        """People, companies and projects whose Latin name the message writes in Arabic
        or Hebrew letters, in katakana or in Cyrillic (:mod:`.skeletons`: "رانيا صالح",
        "マヤ・オカフォー", "Надю Петрову"), when only one name reads so."""
        found: list[SearchRow] = []
        for skeleton in message_skeletons(message):
            owners = self._skeletons.get(skeleton, ())
            if len(owners) == 1 and owners[0] not in found:
                found.append(owners[0])
        return found[:MAX_CANDIDATES]

    def in_katakana(self, message: str) -> str:
        """The titles' Latin words the message writes in katakana, when only one word (or
        two side by side) of any title reads so: "ソーラーカラー" -> "solar collar",
        "バックフィル" -> "backfill"; ``""`` when none."""
        return _only_readings(kana_runs(message), self._kana)

    def in_brahmic(self, message: str) -> str:
        """The titles' Latin words the message writes in a script of South Asia, when only
        one word (or two side by side) of any title reads so (:mod:`.brahmic`): "બીકન" ->
        "beacon", "ਸੈਮੂਅਲ ਮਵਾਂਗੀ" -> "samuel mwangi"; ``""`` when none."""
        return _only_readings(brahmic_runs(message), self._brahmic)

    def joined(self, message: str) -> tuple[str, str]:
        """Words of a person's, company's or project's title the message writes as two
        ("bright water ventures", "fern seed", "tomas lind quist": dictated, or typed apart),
        exactly or a slip off, and the words they were written as; ``("", "")`` when none."""
        said = [w for w in words(message) if w.isascii() and w.isalpha()]
        found: list[str] = []
        parts: list[str] = []
        for first, second in itertools.pairwise(said):
            if len(first) < JOINED_MIN or len(second) < JOINED_MIN:
                continue
            word = first + second
            if word in self._name_parts:
                known = [word]
            elif min(len(first), len(second)) < JOINED_SLIP_MIN:
                continue  # "chi era" is no slip of *Chiara*
            else:
                near_words = {t for key in {word} | slips(word) for t in self._slipped.get(key, ())}
                known = sorted(t for t in near_words if near(t, word))
            if known:
                found.extend(known)
                parts.extend((first, second))
        return " ".join(found), " ".join(parts)

    def honoured(self, message: str) -> list[SearchRow]:
        """People the message names the Japanese way, before an honorific (:mod:`.honorifics`:
        "田中さん", "プリヤさん"), each by a word of their name no other person has."""
        readings, skeletons = honoured(message)
        keys = [*(("word", r) for r in sorted(readings)), *(("kana", s) for s in sorted(skeletons))]
        found: list[SearchRow] = []
        for key in keys:
            owners = {row.slug: row for row in self._people.get(key, ())}
            if len(owners) == 1 and (row := next(iter(owners.values()))) not in found:
                found.append(row)
        return found[:MAX_CANDIDATES]

    def on_days(self, marks: frozenset[str]) -> list[SearchRow]:
        """Pages whose title's date falls on a day or in an ISO week the message gives ("9
        march", "week 14", "wk17"): the gate names one when the message holds a word of its
        title too, not one that goes with anything (the day's), or every other word of it
        (the week's: "standup notes w14" for *Standup notes 2026-W14*)."""
        days = sorted(m for m in marks if m[0] in "dw")
        return [row for day in days for row in self._days.get(day, ())][:MAX_CANDIDATES]

    def in_month(self, marks: frozenset[str], said: Iterable[str]) -> list[SearchRow]:
        """Meetings of a month the message gives (``marks``) that a word of their title,
        as the message writes it (``said``), names because no other meeting of that month
        has it: "feb planning mtg notes" for *Monthly Planning (2026-02-28)*, not "the
        kickoff in april" when April had several."""
        months = sorted(m for m in marks if m[0] == "m")
        found: list[SearchRow] = []
        for key in ((month, word) for month in months for word in sorted(set(said))):
            owners = self._months.get(key, ())
            if len(owners) == 1 and owners[0] not in found:
                found.append(owners[0])
        return found[:MAX_CANDIDATES]

    def by_slug(self, said: Sequence[str]) -> list[SearchRow]:
        """Pages whose slug's words the message says in order, one word between at most,
        where the slug is no spelling of the title and has a word no title holds ("the
        postgres for reporting decision" for *Decision: PostgreSQL for the reporting store* at
        ``decisions/postgres-reporting``; not "our team plan" for ``notes/team-plan`` in a brain
        with a *Hiring plan*): the pointers show the model every page by its slug, and people
        take it up. ``said``: the message's words (:func:`.words.words`)."""
        found: list[SearchRow] = []
        for place, word in enumerate(said):
            for handle, row in self._handles.get(word, ()):
                if row not in found and _follows(handle[1:], said, place):
                    found.append(row)
        return found[:MAX_CANDIDATES]

    def candidates(self, message: str, wanted: set[str]) -> list[SearchRow]:
        """Pages every title word of which is in ``wanted`` (the message's stems) and every
        unspaced run of which is in the message's text, in index order; then the page
        whose initials are an acronym of the message, when no other title has them."""
        text = compact(message)
        keys = set(wanted)
        keys.update(text[i : i + 2] for i in range(len(text) - 1) if is_unspaced(text[i]))
        found: list[SearchRow] = []
        for key in sorted(keys):
            for entry in self._keys.get(key, ()):
                if all(s in wanted or (is_unspaced(s[0]) and run_in(s, text)) for s in entry.stems):
                    found.append(entry.row)
                    if len(found) >= MAX_CANDIDATES:
                        return found
        for row in self._misspelt(message, wanted):
            if len(found) >= MAX_CANDIDATES:
                return found
            if row not in found:
                found.append(row)
        for initials in sorted(message_acronyms(message)):
            owners = self._initials.get(initials, ())
            if len(owners) == 1 and len(found) < MAX_CANDIDATES:
                found.append(owners[0])
        return found


def _handle(slug: str, title_words: Iterable[str]) -> tuple[str, ...]:
    """The words of a slug's last part when they are all in Latin letters or figures, not
    all the title's words, and share one with the title (so two words or more; a title in
    another script is read by its Latin form: :func:`.rowwords.latin_form`); ``()``
    otherwise."""
    handle = tuple(slug.rpartition("/")[2].split("-"))
    titled = set(title_words)
    if not all(w.isascii() and w.isalnum() for w in handle):
        return ()
    return handle if titled & set(handle) and not set(handle) <= titled else ()


def _follows(rest: tuple[str, ...], said: Sequence[str], place: int) -> bool:
    """``rest`` stands after ``said[place]`` in order, each word one or two places after the
    one before it."""
    for word in rest:
        nxt = next((k for k in (place + 1, place + 2) if k < len(said) and said[k] == word), None)
        if nxt is None:
            return False
        place = nxt
    return True


def _only_readings(skeletons: set[str], filed: dict[str, set[str]]) -> str:
    """The title words each skeleton reads as, where only one reading has it."""
    found: list[str] = []
    for skeleton in sorted(skeletons):
        readings = filed.get(skeleton, set())
        if len(readings) == 1:
            found.append(next(iter(readings)))
    return " ".join(found)
