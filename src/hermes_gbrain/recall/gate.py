"""The relevance gate: which search rows may reach the model on this turn.

One gate for everything injected per turn (the first-turn briefing and the pointers
of the full provider and of hook mode; the ``gbrain-pointer`` preset stays ungated).
GBrain's own signals do not tell a trap from a named page: a real 0.46.28 server
ranks *Hiring plan 2027* first, ``keyword_exact``, for "help me plan a hiking
trip", and *Harbor Vale Capital* (score 2.16) for "what is the capital of
Australia". So the gate reads the words themselves.

Every row must first be *clean*: not auto-generated (facts, digests, inbox — the
digest's rule, :mod:`.generated`), not flagged ``injection_suspected``, no title or
summary that reads like instructions, not a page already shown (``skip``). Then, in
the default ``anchored`` mode, a row needs an anchor in the message, in tiers:

0. **named by GBrain** — ``evidence`` ``alias_hit`` or ``exact_title_match``, or an
   ``exact_lookup`` of the title or slug;
1. **named in the message** — every word of its title is in the message (with at least one
   *distinctive* word, or three words, or nothing else asked: "whats on the launch checklist";
   a one-word title only as a name: capitalised inside the sentence, not spelt like an
   ordinary word, or the whole question), or the title is a phrase of
   the message, or a title's words after a label of ordinary words and a colon are, two or more
   and one of them in no other title ("das Backfill für Ledger Lake" for *Runbook: Ledger Lake
   Backfill*), or the message holds its acronym ("CRDTs"), or its version number beside one of its
   distinctive words ("why did beacon 2.4 slip?" for *Retro notes: Beacon 2.4*), or a capitalised
   name in the message ("Mwangi") is a word of the title of a person or company page, or a
   person's, company's or project's Latin name is written in Arabic letters, in katakana or, in
   any case, in Cyrillic (:mod:`.skeletons`: "من هي ليلى فراهاني؟" for *Leila Farahani*,
   "Расскажи про Надю Петрову" for *Nadia Petrova*, "كيستريل ووركس" for *Kestrel Works*; from
   the title index), or a listed Japanese surname in kanji or a name
   in katakana before an honorific is a word of one person's name only ("森さん" for *Kaito
   Mori*: :mod:`.honorifics`), and a title's Latin words written in katakana are read as
   those words ("ソーラーカラー" for *Solar Collar*). Words are those of any script
   (:mod:`.words`): a title in a script written without spaces counts when its runs are inside
   the message's text.
   With the title index (``Gate.titles``) pages named this way are found even when search did not
   return them (:mod:`.named`). A title of ordinary words and a date is named by its words and a
   date of the message that agrees (:mod:`.dates`: "the on-call retro from march", "standup notes
   week 17"), or on the title's very day by one word of it ("what did maya present to the board on
   9 march"; from the title index too), and a meeting's by its words alone when the message gives
   no date and no other meeting's title has them ("pull up the on-call retro"; from the title
   index), or, for a title of four words or more, with one word between its first and last left out
   ("the marula field debrief"). A title that opens with a word and a letter is named by the two
   side by side ("series a: target?"), never by the word alone ("¿alguna serie buena?"). Not when
   the message uses the title about something else: it names nothing the brain knows, is not in
   German, Spanish, French or Portuguese (whose own words the row would not explain), the row is no
   person's or company's page, no meeting on a date the message gives, no title the message opens
   with set apart ("hiring plan 2026 — which roles?"), no title of four words or more said whole,
   and two distinctive, not generic words of the message appear nowhere in the row ("write a remote
   work policy for my cousin's bakery", "my garage circuit breaker won't reset"); one is enough
   after "a" or "their" ("a remote work policy for a 5-person bakery"), none after "our" or "my"
   (but a concept's title after "my" is the writer's own thing: "my circuit breaker"). Such a
   title's words then anchor nothing and back no other row (the writer of the *Field Handbook*, for
   "a field handbook for the camping trip"); only words of the message beyond the title's, not
   generic, in its summary can (tiers 2 and 3);
2. **a distinctive title word, supported** — the message shares a distinctive word
   with the title or slug, and that word is a capitalised name in the message, or a
   second distinctive message word appears in the row's title or summary, or the
   message has no other distinctive word ("Maya?");
3. **content** — no title anchor, but at least two distinctive message words appear
   in the row's title and summary (a paraphrase); on a hybrid GBrain, one word is enough
   for a row among its first three whose ``cosine`` is ``Gate.cosine_margin`` above the
   median cosine of the rows returned (:func:`cosine_floor`).

A message that gives a thing as the writer's own or as what it is for ("my son", "my
laptop", "for a five-person bakery": :mod:`.outside`) is about that thing. A row that never
mentions it passes only when every word of its title is in the message (GBrain's alias
evidence for "Tomas" in "my neighbour Tomas" is not enough), and a title it holds whole is
used about something else ("write a simple expense policy for a five-person bakery"), with
the same exemptions as above.

A person's or company's page is not named by a message that has its title's words only as a
common noun: after "a" or "an", or in the plural where the title is not, never capitalised
inside the sentence ("how does a kestrel hover?", "do kestrels hover?" are about birds, not
*Kestrel Works*), whatever GBrain's evidence. Nor is a person's page named by their first
name right before a word that may be another surname ("maya angelou quote" beside *Maya
Okafor*: not a word of the page or of other titles, not a verb, not in a script written
without spaces). Either reading gives way when the page holds two more distinctive words of
the message ("when does marulas contract renew"). A message asking how to
do something ("how do I cache npm deps in github actions?") is answered by no person's page
that it does not name. A word of a person's, company's or project's title that no other
title holds names the page when the message's other distinctive words are all in it, or all
but one that does not stand beside the name's word, no determiner follows that word and the
message asks no how-to ("whos our contact at brightwater", not "how old can baobab trees
get" or "can you replay the last song"), when
the message opens with it set apart by punctuation ("halvorsen.. which fund is he
with?"), or in another language, whose own words say nothing, when the message names
nothing the row never mentions ("wie funktioniert der wasserstandsmonitor genau"); not in
the possessive before a word of the brain's titles ("katja's dashboard" is about the
dashboard; "Katja's role?" about her). A word of a person's name after a form of address
("Herr Müller", "dr okafor") names them. A name's word the message uses as a common noun
backs no other row ("a haiku about a kestrel" is not about the founder of *Kestrel Works*); an
article may stand one word of its kind before it ("an american kestrel", "a blue heron"), and a
project's title is read the same way after an article, not in the plural ("un cóndor andino";
"who puts the collars on the rhinos" is about *Solar Collar*). A first name given to someone
else backs no row either, and a person's name counts only as written ("grid lines" is not *Lin
Chen*). A person's or company's page backed only by its title's words is not named when two
distinctive words of the message are nowhere in it ("blue heron vs great egret"). A capitalised
word a row never mentions still rules it out, unless it is an acronym the row writes out
("DPAs": "data processing agreements"). "My" before a concept's title makes it the writer's own
thing, not the brain's ("my circuit breaker keeps tripping").

A row of tier 2 or 3 is dropped when the message names something (a capitalised word
inside a sentence: "Paris", "Dune") that the row never mentions, unless three distinctive
words of the message back it (its summary may stop before the name). When any row is
named (tiers 0 and 1) named rows are kept, with at most one tier 2 or 3 row that GBrain
ranks above all of them and two distinctive message words back (the person who closed the
contract the message names; it takes the last slot); otherwise tier 2 and 3 rows scoring
at least ``min_ratio`` of the best of them are kept, those with more supporting words first.
A question asking *who* is answered by a person's page: such a row comes first among rows
backed by as many words, and may take the last slot beside named rows wherever GBrain ranks
it, when two distinctive words of the message beyond the named titles' back it ("who places
camera traps along the elephant corridors at Marula?" names the conservancy, and the page
of the ecologist who does leads), or one such word and every distinctive word of a named
title that is no name ("who writes the grant applications?" names the project, and the page
of the person who writes them says so).

On a message that points back at the conversation ("who's their head ranger?", "when did it
kick off?"), the loose rows that mention what the last turn showed (``subject``: *Marula
Conservancy*) are kept and the others dropped, when the best-backed row is one of them: the
head ranger of another trust is about another subject.

Supporting words are counted as one while all of them are generic (``GENERIC_WORDS``:
"keep", "last", "two"): such words go with anything ("undo my last commit but keep the
changes" is not about a review that decided "to keep per-field last-writer-wins").

A word is *distinctive* when it is not filler, not a number, not on the list of
ordinary title words ("plan", "capital", "review", "update", "notes", "report",
"trip", …) and — when the profile has a title vocabulary (built with the digest, see
:class:`TitleVocabulary`) — not in more than 3% of the brain's titles. A single
ordinary word therefore never anchors a row, however GBrain scores it.

``evidence`` mode keeps the older rule (no ``weak_semantic`` rows, score at least
``min_ratio`` of the top); ``off`` keeps every clean row. Nothing here logs or
stores message text.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

from ..api import SearchRow
from ..files import data_dir, read_state, write_atomic
from ..text import one_line
from .dates import agree, date_marks, is_date_stem, is_periodic
from .filecache import FileCache
from .generated import is_generated
from .glosses import kind_words
from .kin import kin_in
from .named import HOLDS_WORDS, LONE_TYPES, NAME_TYPES, TitleMatcher
from .outside import outside_things
from .screen import prompt_line, prompt_ref
from .words import (
    FORMS_OF_ADDRESS,
    GENERIC_STEMS,
    STEMS_VERSION,
    STOP_WORDS,
    acronyms,
    compact,
    content_stem,
    content_stems,
    fold,
    in_latin_letters,
    is_unspaced,
    latin_among_others,
    mended,
    message_acronyms,
    message_names,
    near,
    other_language,
    run_in,
    spelt_out,
    stem,
    umlauts_typed,
    unspaced_runs,
    versions,
    words,
    words_and_marks,
)

__all__ = [
    "DEFAULT_COSINE_MARGIN",
    "DEFAULT_MIN_RATIO",
    "GATES",
    "ORDINARY_TITLE_WORDS",
    "Gate",
    "TitleVocabulary",
    "content_stems",
    "cosine_floor",
    "gate_rows",
    "is_distinctive",
    "load_vocabulary",
    "row_key",
    "vocabulary_path",
    "write_vocabulary",
]

GATES = ("anchored", "evidence", "off")
DEFAULT_MIN_RATIO = 0.3
DEFAULT_COSINE_MARGIN = 0.25
COSINE_TOP = 3
COSINE_MIN_ROWS = 5
"""The median is read only from this many rows with a cosine or more (a hybrid GBrain
returns 20)."""
ELSEWHERE_WORDS = 2
"""Distinctive message words a title match may leave unexplained before it stops naming
the page (:func:`_elsewhere`)."""
WHOLE_TITLE_WORDS = 4
"""Words a title needs (its date's and numbers aside) before, said whole, it is too
particular to be ordinary words about something else ("incident report on the collar
battery drain - what was the root cause?")."""
NAME_OVERRIDE = 3
"""Distinctive words of the message a row's title and summary must hold to pass though it
never mentions a name the message gives (its summary may stop before the name)."""
COMMON_UNLESS = 2
"""Distinctive words of the message beyond a name's own that the name's page must hold to be
meant though the message reads the name as a common noun or as someone else's ("when does
marulas contract renew": the conservancy's summary has its contract and its renewal)."""
DATED_PRESENT = 2
"""Words of a dated title (besides the date) the message must hold before the title's word
for what the page holds ("meeting", "notes") may be left out (:func:`_dated`)."""
_SPARABLE = frozenset(stem(w) for w in HOLDS_WORDS)
"""What a dated page holds, said or not: "feb monthly planning" is the meeting."""
STRONG_EVIDENCE = frozenset({"exact_title_match", "alias_hit"})
WEAK_EVIDENCE = frozenset({"weak_semantic"})
TITLE_CAP = 80
SUMMARY_CAP = 160
_MARKER = re.compile(r"\s*…?\s*\[truncated \d+ chars[^\]]*\]\s*$")

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


_ORDINARY_STEMS = frozenset(stem(w) for w in ORDINARY_TITLE_WORDS)


# -- the title vocabulary -----------------------------------------------------------------


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


# -- the gate -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Gate:
    """The relevance gate's knobs (see the module docstring)."""

    mode: str = "anchored"
    min_ratio: float = DEFAULT_MIN_RATIO
    vocabulary: TitleVocabulary | None = field(default=None, compare=False, repr=False)
    """The profile's title vocabulary, read with the settings (used when the caller
    passes none)."""
    cosine_margin: float | None = DEFAULT_COSINE_MARGIN
    """A row of a hybrid GBrain among its first ``COSINE_TOP`` with one distinctive
    supporting word passes when its ``cosine`` is this much above the median cosine of
    the rows returned (``GBRAIN_BRIEFING_COSINE_MARGIN``; None: off). Relative, so it
    holds across embedding models whose cosines sit at different heights."""
    min_cosine: float | None = None
    """An absolute floor for the same rule (None: none). The benchmark measures floors
    alone with the margin off (README, "Relevance"): they inject on no-answer messages."""
    titles: TitleMatcher | None = field(default=None, compare=False, repr=False)
    """Every title of the brain (the digest's title index), for pages the message names
    that search did not return."""


def row_key(row: SearchRow) -> str:
    """``source:slug``, the form pages are cited and skipped by."""
    return f"{row.source_id}:{row.slug}"


def _summary_text(row: SearchRow) -> str:
    return one_line(_MARKER.sub("", row.snippet), 4 * SUMMARY_CAP)


def _clean(row: SearchRow) -> bool:
    if not row.slug or row.injection_suspected or is_generated(row.slug, row.type):
        return False
    if prompt_ref(row.source_id, row.slug) is None:
        return False  # a slug or source id that may not be printed
    if prompt_line(row.title, TITLE_CAP) is None:
        return False  # reads like instructions (``screen.prompt_line``)
    return prompt_line(_MARKER.sub("", row.snippet), SUMMARY_CAP) is not None


def _distinctive(stem: str, vocabulary: TitleVocabulary | None) -> bool:
    if is_unspaced(stem[:1]):
        long_enough = len(stem) >= 2  # a run of an unspaced script: a word or more
    else:
        long_enough = len(stem) >= 3 and not stem.isdigit() and stem not in _ORDINARY_STEMS
    return long_enough and (vocabulary is None or not vocabulary.common(stem))


def is_distinctive(stem: str, vocabulary: TitleVocabulary | None = None) -> bool:
    """Whether a word stem can anchor a match: not a number, not ordinary, not common here."""
    return _distinctive(stem, vocabulary)


@dataclass(frozen=True, slots=True)
class _Message:
    """What the gate reads of the message, computed once per message."""

    text: str
    wanted: set[str]
    names: set[str]
    compact: str
    acronyms: set[str]
    dates: frozenset[str]
    known: set[str]
    """The names the brain knows: those some row returned for the message mentions, and
    those of a person's or a company's page it names in lowercase (:func:`_met`)."""
    sequence: tuple[str, ...]
    """Its words in order (a title's place in it is read on them)."""
    said: frozenset[str]
    """Its words, whole, and those of :attr:`retyped` (slips of names are read on them)."""
    other_language: bool
    """Written in German, Spanish, French or Portuguese (:func:`.words.other_language`)."""
    outside: frozenset[str]
    """What it gives as the writer's own or as what it is for ("my son", "for a bakery":
    :func:`.outside.outside_things`)."""

    retyped: str
    """Its words as another hand may have typed the titles: umlauts typed out, Greek and
    Cyrillic in Latin letters (``""`` when nothing differs)."""
    retyped_only: frozenset[str]
    """Stems only :attr:`retyped` gives: they may name a title, never say the message is
    about something else ("kogo tam otslezhivayut")."""
    who: bool
    """It asks who: a person's page answers it."""
    versions: frozenset[str]
    """Its version numbers ("2.4")."""
    opened: frozenset[tuple[str, ...]] = frozenset()
    """Titles of the rows it opens with (:func:`_opened`; set by :meth:`knowing`)."""
    phrases: frozenset[tuple[str, str]] = frozenset()
    """Its pairs of words side by side (:func:`_phrases`)."""
    topic: str = ""
    """Its first word when punctuation follows it ("halvorsen.. which fund?")."""
    heading: tuple[str, ...] = ()
    """Its words before the first mark that sets them apart, when more words follow
    (:func:`_opening`: "budget summary 2026: what's the biggest chunk?")."""
    set_apart: frozenset[str] = frozenset()
    """The stems of those words, in any order (:func:`_opening`)."""
    how_to: bool = False
    """It asks how to do something (:data:`_HOW_TO`)."""
    adjacent: frozenset[tuple[str, str, str]] = frozenset()
    """Words side by side with only spaces between (:func:`_adjacent`)."""

    @classmethod
    def of(cls, message: str) -> _Message:
        names = message_names(message) | latin_among_others(message)
        glossed = (umlauts_typed(message), in_latin_letters(message), kind_words(message))
        retyped = " ".join(filter(None, glossed))
        own = content_stems(message)
        also = content_stems(retyped) - own
        sequence = tuple(words(message))
        spoken = words_and_marks(message)
        opening = _opening(message)
        return cls(
            message,
            own | also,
            names,
            compact(message),
            message_acronyms(message),
            date_marks(message),
            names,
            sequence,
            frozenset(sequence) | frozenset(words(retyped)),
            other_language(message),
            outside_things(message, _ORDINARY_STEMS),
            retyped,
            frozenset(also),
            bool(_WHO.intersection(sequence)),
            frozenset(versions(message)),
            phrases=_phrases(sequence),
            how_to=bool(_HOW_TO.search(fold(message))),
            adjacent=_adjacent(spoken),
            topic=_topic(spoken),
            heading=tuple(words(opening)),
            set_apart=frozenset(content_stems(opening)),
        )

    def knowing(self, rows: Iterable[_RowWords]) -> _Message:
        """This message with :attr:`known` narrowed to names the rows mention, and the
        rows' titles it opens with."""
        rows = list(rows)
        seen: set[str] = set()
        for row in rows:
            seen |= row.body & self.names
        opened = _opened(self.sequence, (row.sequence for row in rows))
        return replace(self, known=seen, opened=opened)

    def reading(self, also: str) -> _Message:
        """This message with ``also`` read as more of its words, as :attr:`retyped` is:
        they may name a title, never say the message is about something else."""
        if not also:
            return self
        more = content_stems(also) - self.wanted
        return replace(
            self,
            wanted=self.wanted | more,
            said=self.said | frozenset(words(also)),
            retyped=f"{self.retyped} {also}".strip(),
            retyped_only=self.retyped_only | more,
        )

    def wanted_by(self, row: SearchRow) -> set[str]:
        """The message's stems, plus the row title's unspaced runs found in its text."""
        runs = {r for r in unspaced_runs(row.title) if len(r) >= 2 and run_in(r, self.compact)}
        return self.wanted | runs if runs else self.wanted


_HOW_TO = re.compile(r"\bhow (?:to|(?:do|does|can|could|should|would) (?:i|we|you|one)) ")
"""A message asking how to do something: a page of the person who did it elsewhere does not
answer it unless it names them."""
_AUXILIARIES = frozenset("do does did will would can could should might must".split())  # noqa: SIM905
_VERB_LIKE = re.compile(r"[a-z]+(?:ed|ly|[^s]s)")
"""A word that reads as a verb or an adverb after a name ("maya wants", "elena asked")."""


def _adjacent(tokens: Sequence[str]) -> frozenset[tuple[str, str, str]]:
    """Each word, the word right after it with only spaces between (an initial skipped),
    and how they stand: "initial" when one was skipped, "asked" when an auxiliary comes
    before the first ("did maya agree": the second is a verb), else ""."""
    pairs = set()
    for i, token in enumerate(tokens[:-1]):
        j, how = i + 1, ""
        if len(tokens[j]) == 1 and tokens[j].isalpha() and tokens[j] not in "ai":
            j, how = j + (2 if tokens[j + 1 : j + 2] == ["."] else 1), "initial"
        if j < len(tokens) and token[0].isalnum() and tokens[j][0].isalnum():
            if not how and i and tokens[i - 1] in _AUXILIARIES:
                how = "asked"
            pairs.add((token, tokens[j], how))
    return frozenset(pairs)


def _addressed(read: _RowWords, message: _Message) -> bool:
    """A word of a person's name right after a form of address ("Herr Müller", "dr
    okafor"): the message names them, whatever else it asks."""
    return any(
        first in FORMS_OF_ADDRESS and after in read.sequence
        for first, after, how in message.adjacent
        if how != "initial"
    )  # both read folded (:func:`.words.words`, :func:`.words.words_and_marks`)


def _topic(tokens: Sequence[str]) -> str:
    """The first word when punctuation follows it, else ``""``."""
    if len(tokens) > 1 and tokens[0].isalnum() and not tokens[1][0].isalnum():
        return tokens[0]
    return ""


_SET_APART = re.compile(r"[,;:?!]|\s[-\u2013\u2014]|[\u2013\u2014]|\.(?:\s|$)")
"""What sets an opening apart from the rest: a comma, colon, question mark, a dash after a
space, a full stop; not an apostrophe or a hyphen inside a word ("i'm", "5-person")."""


def _opening(message: str) -> str:
    """The text before the first :data:`_SET_APART` mark, when words follow it, else ``""``."""
    mark = _SET_APART.search(message)
    if mark is None or not words(message[mark.end() :]):
        return ""
    return message[: mark.start()]


def _borne_by_another(
    read: _RowWords, message: _Message, vocabulary: TitleVocabulary | None, wanted: set[str]
) -> bool:
    """The message has a person's first name right before a word that may be a surname,
    and no other word of the name: someone else of that name ("maya angelou quote" beside
    *Maya Okafor*). A word the row holds, a verb or a word of other titles is no surname
    ("maya runway numbers", "what did elena suggest", "elena board ask")."""
    name = read.sequence
    if len(name) < 2 or read.title & (wanted - {stem(name[0])}):
        return False
    for first, after, how in message.adjacent:
        if first != name[0] or how == "asked":
            continue
        root = content_stem(after)
        if not root or root in read.body or root in GENERIC_STEMS or is_date_stem(root):
            continue
        if is_unspaced(after[:1]):
            continue  # "Priya 的分类器…": a word of another script is no surname
        if how == "initial" or not (
            _VERB_LIKE.fullmatch(after) or (vocabulary and root in vocabulary.df)
        ):
            return True
    return False


def _places(run: Sequence[str | None], said: Sequence[str | None]) -> list[int]:
    """Where ``run`` stands in ``said``, whole and in order: the index of its first word at
    each place (none for an empty ``run``)."""
    run, said = tuple(run), tuple(said)
    if not run:
        return []
    return [i for i in range(len(said) - len(run) + 1) if said[i : i + len(run)] == run]


def _phrase_in(title: str, m: tuple[str, ...]) -> bool:
    """The title's words, in order and contiguous, inside the message's (``m``)."""
    t = tuple(words(title))
    return len(t) >= 2 and bool(_places(t, m))


def _name_like(title: str, word: str, message: _Message, asked: set[str]) -> bool:
    """A one-word title is named by itself only as a name: capitalised inside the
    message's sentence, written as no ordinary word is ("DuckDB", "iOS", a run of an
    unspaced script), the only thing the message asks about ("Geofencing?"), or set apart
    at its opening ("backpressure - where do we apply it?")."""
    if word in message.names or is_unspaced(word[:1]) or asked <= {word}:
        return True
    if message.heading == tuple(words(title)):
        return True
    surface = title.strip(" \t\"'.,:;!?()[]")
    return not (surface.isalpha() and surface[1:].islower())


def _before(t: tuple[str, ...], m: tuple[str, ...]) -> set[str]:
    """The words right before each place the title's words (``t``) stand in the message's
    (``m``)."""
    return {m[i - 1] for i in _places(t, m) if i}


def _held_by_name(read: _RowWords, message: _Message) -> bool:
    """The title's words stand after a name the row holds, written as its owner's ("tamsin's
    field handbook", "camila's brand refresh" for a page that names Tamsin or Camila): one
    of this brain's own pages, whatever else the message says."""
    t, m = read.sequence, message.sequence
    if len(t) < 2:
        return False
    return any(
        i >= 2
        and m[i - 1] == "s"
        and (owner := content_stem(m[i - 2])) is not None
        and owner in read.body
        for i in _places(t, m)
    )


_ARTICLES = frozenset("a an un une ein eine einen einem einer uno una uma".split())  # noqa: SIM905
"""Indefinite articles of English, French, German, Spanish, Italian and Portuguese ("a" is
no indefinite article in a message in another language: "a camila souza é responsável")."""
_BACK = frozenset(
    "it its he him his she her they them their those these that this there".split()  # noqa: SIM905
)
"""Words that point back at what the conversation was about ("who leads their rangers?")."""
_WHO = frozenset({"who", "whom", "whos"})
"""Words that ask for a person (:func:`_leader`, the order of loose rows)."""
_OURS = frozenset({"our", "my"})
"""Words before a title that make it the brain's own."""
_THEIRS = frozenset({"a", "an", "their", "his", "her", "your"})
"""Words before a title that make it any one's or another's."""
_EXISTS = re.compile(r"\b(?:do|did) (?:we|i) (?:have|keep|write)|\bis there\b|\bhave we got\b")
"""A question whether the brain holds such a page ("do we have a hiring plan for 2027?")."""


def _after_article(said: Sequence[str], start: int, articles: frozenset[str]) -> bool:
    """An indefinite article right before ``said[start]``, or before one word between that
    says what kind ("an american kestrel"; not a word that goes with anything)."""
    if start and said[start - 1] in articles:
        return True
    between = said[start - 1] if start else ""
    return (
        start >= 2
        and said[start - 2] in articles
        and between.isalpha()
        and between not in STOP_WORDS
        and stem(between) not in GENERIC_STEMS
    )


def _common_noun(
    title: tuple[str, ...], message: _Message, *, plural: tuple[str, ...] = ("s", "es")
) -> bool:
    """The message has the words of a name's title only as a common noun: after "a" or
    "an", or in the plural where the title is not, and never capitalised inside the
    sentence ("how does a kestrel hover?", "do kestrels hover?" beside *Kestrel Works*;
    "a marula fruit" beside *Marula Conservancy*, "a blue heron at dawn" beside *Blue Heron
    Logistics*: an article before the first of the title's words side by side). ``plural``:
    the endings read as a plural."""
    said, common = message.sequence, False
    articles = _ARTICLES - {"a"} if message.other_language else _ARTICLES  # "a camila souza"
    words_of = set(title)
    for word in words_of:
        if len(word) < 3 or word in STOP_WORDS or stem(word) in message.names:
            continue
        for i, token in enumerate(said):
            start = i
            while start and said[start - 1] in words_of:
                start -= 1
            if token == word and _after_article(said, start, articles):
                common = True
            elif token == word:
                return False  # the name as it is written
            elif token in {word + end for end in plural} and not word.endswith("s"):
                common = True  # "kestrels", "cóndores"
    return common


def _as_common_noun(row: SearchRow, read: _RowWords, message: _Message) -> bool:
    """:func:`_common_noun` for a person's or company's title, and for a project's after an
    article only: a project's words in the plural are often its subject ("who puts the
    collars on the rhinos" is about *Solar Collar*; "un cóndor andino" is a bird)."""
    kind = row.type or ""
    if kind == "person":  # "hiroshis board" is his, unmarked; "grid lines" still a plural
        return _common_noun(read.sequence, message, plural=("es",))
    if kind in NAME_TYPES:
        return _common_noun(read.sequence, message)
    return kind == "project" and _common_noun(read.sequence, message, plural=())


_OWN_TYPES = frozenset({"project", "meeting"})
"""Pages whose titles name the brain's own work: a message that opens with one is about it."""


def _plain(title: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(w for w in title if not w.isdigit())


def _opened(said: tuple[str, ...], titles: Iterable[tuple[str, ...]]) -> frozenset[tuple[str, ...]]:
    """The titles (numbers left out) the message opens with ("ledger lake nightly job - when
    does it run?" opens with *Ledger Lake*), save one a longer title goes on from with the
    message's next word ("ledger lake backfill steps" may mean *Runbook: Ledger Lake Backfill*;
    "osprey tracker kick off" the *Osprey Tracker kickoff* meeting)."""
    plain = {_plain(t) for t in titles}
    opening = {t for t in plain if len(t) >= 2 and said[: len(t)] == t}

    def longer(t: tuple[str, ...]) -> bool:
        if len(said) <= len(t):
            return False
        after, n = said[len(t)], len(t)
        return any(
            o[i : i + n] == t and (o[i + n].startswith(after) or after.startswith(o[i + n]))
            for o in plain
            for i in range(len(o) - n)
        )

    return frozenset(t for t in opening if not longer(t))


def _lettered(read: _RowWords) -> bool:
    """The title opens with a word and a letter (*Series A Fundraise*)."""
    seq = read.sequence
    return len(seq) >= 2 and len(seq[1]) == 1 and seq[1].isalpha()


def _designated(read: _RowWords, message: _Message, *, anyones: bool = False) -> bool:
    """The message has a lettered title's word and letter side by side, in any language's
    spelling of the word ("Series A target?", "la serie A"): together they name the page,
    whatever else the message asks, and the word alone does not ("¿alguna serie buena?").
    Not after a word that makes them any one's ("dilution in a series A", "their series A"):
    with ``anyones``, whether the message has them so."""
    head, letter = stem(read.sequence[0]), read.sequence[1]
    said = message.sequence
    return any(
        said[i + 1] == letter
        and stem(fold(said[i])) == head
        and anyones == bool(i and said[i - 1] in _THEIRS)
        for i in range(len(said) - 1)
    )


def _lone_name(
    row: SearchRow,
    read: _RowWords,
    asked: set[str],
    message: _Message,
    vocabulary: TitleVocabulary | None,
) -> bool:
    """A project's, person's or company's title opens with a word no other title holds,
    and the message has that word and no distinctive word the row lacks: it names the
    page by that word ("remind me what fernseed does" for *Fernseed Classifier*). Not by
    a later word of the title ("the wildlife foundation grant"), save a person's surname
    ("wojcik runs the regression suite?"), nor in the possessive. A name the message opens
    with, set apart by punctuation, names the page whatever else it asks ("halvorsen..
    which fund is he with again")."""
    kind = row.type or ""
    if vocabulary is None or kind not in LONE_TYPES:
        return False
    if kind != "person" and _lettered(read):
        return _designated(read, message)
    for word in read.sequence if kind == "person" else read.sequence[:1]:
        head = stem(word)
        if head not in asked or not _distinctive(head, vocabulary) or head in vocabulary.df:
            continue
        if _possessed(word, message, vocabulary):
            continue  # "katja's dashboard project": hers, not her
        if word == message.topic:
            return True
        # a Latin name among words of another script: "Fernseed 分类器是谁负责的"
        rest = _unexplained(asked, read, message, other_scripts=not head.isascii())
        if not rest or (message.other_language and not message.names - read.body):
            return True  # another language's own words say nothing of what it is about
        if len(rest) == 1 and _stands_alone(word, rest, message):
            return True  # "whos our contact at brightwater", not "baobab trees"
    return False


_DETERMINERS = frozenset("the a an this that these those my your our his her their its".split())  # noqa: SIM905
"""Words that open what a verb acts on ("replay the last song")."""


def _stands_alone(word: str, rest: set[str], message: _Message) -> bool:
    """The name's word is a thing the message asks about, with one word besides that its
    page lacks ("did meadowlark send their final invoice"): not when that word stands right
    beside it, which makes the two one thing of another kind ("baobab trees", "driftwood
    craft", "the sky blue"), nor when a determiner follows it, which makes it a verb ("can
    you replay the last song"), nor in a question of how to do something ("how to turn on
    session replay in sentry")."""
    if message.how_to:
        return False
    said = (*message.sequence, "")
    places = [i for i, w in enumerate(said) if w == word]
    for i in places:
        beside = {content_stem(said[j]) for j in (i - 1, i + 1) if j >= 0}
        if beside & rest or said[i + 1] in _DETERMINERS:
            return False
    return bool(places)


def _possessed(word: str, message: _Message, vocabulary: TitleVocabulary) -> bool:
    """The message has ``word`` in the possessive before a word of the brain's titles or one
    that goes with anything: it asks about that thing of theirs ("katja's dashboard
    project", "katja's last one"), not about them ("Katja's role?")."""
    said = (*message.sequence, "")
    for i in range(len(said) - 2):
        if said[i] == word and said[i + 1] == "s":
            after = content_stem(said[i + 2])
            if not after or after in vocabulary.df or after in GENERIC_STEMS:
                return True
    return False


def _unexplained(
    asked: set[str], read: _RowWords, message: _Message, *, other_scripts: bool = False
) -> set[str]:
    """The message's distinctive words the row never holds, nor their kin (:mod:`.kin`:
    "pentest" is explained by a page that says "penetration"), that say what the message is
    about: not generic, no date, not only the Latin-letter reading of another script's
    words, and in Latin script unless ``other_scripts``."""
    return {
        s
        for s in asked - read.body - message.retyped_only - kin_in(asked, read.body).keys()
        if (other_scripts or s.isascii()) and s not in GENERIC_STEMS and not is_date_stem(s)
    }


def _elsewhere(row: SearchRow, read: _RowWords, asked: set[str], message: _Message) -> bool:
    """The message uses the row's title as ordinary words about something else: it names
    nothing (no capitalised word inside the sentence), the row is no person's or company's
    page, and :data:`ELSEWHERE_WORDS` or more distinctive words of the message, in Latin
    script and not generic (``GENERIC_WORDS``: "actually", "next"), appear nowhere in the
    row ("write a remote work policy for my cousin's bakery"). One such word is enough when
    the message gives the title as any one's or another's ("a", "their": "write a remote
    work policy for a bakery") and does not ask whether the brain has it ("is there a
    remote work policy?"), and none when it gives a thing as the writer's own or as what it
    is for that the row never mentions (:attr:`_Message.outside`: "for a five-person
    bakery"). Not when the message names something the brain knows
    (:attr:`_Message.known`: "Driftwood"; "our PTA" names nothing here; a name in
    lowercase whose page the message names, :func:`_met`) or says the title
    is ours ("does our expense policy cover taxis?", "my weekly planning notes") or gives it
    as the page's owner's ("tamsin's field handbook", :func:`_held_by_name`), nor for a
    meeting on a date the message gives ("the sync design review on march 2nd"), a title the
    message opens with, set apart ("hiring plan 2026 — which roles first?"), a title of
    :data:`WHOLE_TITLE_WORDS` words or more said whole ("collar battery drain incident
    report"), or a lettered title's word and letter (:func:`_designated`)."""
    before = _before(read.sequence, message.sequence)
    if message.known or (row.type or "") in NAME_TYPES:
        return False  # about this brain
    if before & _OURS and (row.type or "") != "concept":
        return False  # "my weekly planning notes"; "my circuit breaker" is no concept of ours
    if _held_by_name(read, message):
        return False  # "tamsin's field handbook": the page says whose it is
    if message.other_language:
        return False  # the message's own words ("¿cuántos … lleva rastreados") explain nothing
    if message.outside - read.body:
        return True  # "an expense policy for a five-person bakery"
    if (row.type or "") in _OWN_TYPES and _plain(read.sequence) in message.opened:
        return False  # "ledger lake nightly job - when does it kick off?"
    if row.type == "meeting" and message.dates and agree(date_marks(row.title), message.dates):
        return False  # "the sync design review on march 2nd": a meeting on its own date
    if read.sequence == message.heading:
        return False  # "hiring plan 2026 - which roles first?": the title set apart, whole
    if len(read.title) >= 2 and read.title == message.set_apart and not before & _THEIRS:
        return False  # "the mom test reading notes, what was the main takeaway": its words
    if _lettered(read) and _designated(read, message):
        return False  # "series a: target amount?"
    whole = {s for s in read.title if not s.isdigit() and not is_date_stem(s)}
    if len(whole) >= WHOLE_TITLE_WORDS and whole <= message.wanted:
        return False  # "collar battery drain incident report - what was the root cause"
    foreign = _unexplained(asked, read, message)
    if before and before <= _THEIRS and not _EXISTS.search(message.text.lower()):
        return len(foreign) >= 1
    return len(foreign) >= ELSEWHERE_WORDS


def _names(
    text: str,
    message: _Message,
    wanted: set[str],
    asked: set[str],
    vocabulary: TitleVocabulary | None,
) -> bool:
    """Tier 1 by the title's words: the message holds them all, or they are a phrase of it."""
    title = content_stems(text)
    named = {s for s in title if not s.isdigit()}
    distinctive = sum(1 for s in named if _distinctive(s, vocabulary))
    if (
        len(title) >= 2
        and title <= wanted  # the whole title, numbers included ("Hiring plan 2026")
        and (distinctive >= 1 or len(title) >= 3 or not wanted - title - GENERIC_STEMS)
    ):
        return True  # or, of ordinary words, and nothing else: "whats on the launch checklist"
    single = distinctive == 1 and len(named) == 1
    whole = distinctive >= 2 or len(named) >= 3 or single
    if single and named <= wanted and len(words(text)) == 1:
        whole = _name_like(text, next(iter(named)), message, asked)
    if named and named <= wanted and whole:
        return True
    # the title as a phrase of the message ("the working capital review")
    if _phrase_in(text, message.sequence) and (distinctive >= 1 or len(words(text)) >= 3):
        return True
    own = {s for s in named if len(s) >= 3 and not is_date_stem(s)} - GENERIC_STEMS
    return _dated(text, title, message, wanted, own)


def _named(
    title: str,
    read: _RowWords,
    message: _Message,
    wanted: set[str],
    asked: set[str],
    *,
    vocabulary: TitleVocabulary | None,
) -> bool:
    """:func:`_names` by the row's title, by its hyphenated words written as one ("oncall
    retro" for *On-Call Retro*), or by its Greek and Cyrillic words in Latin letters ("olga
    smirnova" for *Ольга Смирнова*)."""
    unlabelled = read.unlabelled if _has_own_word(read.unlabelled, vocabulary) else ""
    return any(
        _names(form, message, wanted, asked, vocabulary)
        for form in (title, read.joined, read.latin, unlabelled)
        if form
    )


def _unlabelled(title: str) -> str:
    """The title after a label of ordinary words and a colon, when what follows has two
    words or more that anchor: people name *Runbook: Ledger Lake Backfill* by "the ledger
    lake backfill", not by the kind of page it is (``""`` when it has no such label; "Thinking
    in Systems" anchors by one word, "system")."""
    label, colon, rest = title.partition(":")
    labelled = content_stems(label)
    if not colon or not labelled or not labelled <= _ORDINARY_STEMS:
        return ""
    return rest.strip() if len(content_stems(rest)) >= 2 else ""


def _has_own_word(text: str, vocabulary: TitleVocabulary | None) -> bool:
    """``text`` holds a word no other title holds: what follows a label names the page only
    then, not when it is another page's name too ("Status update: Solar Collar")."""
    if not text or vocabulary is None:
        return False
    return any(s not in vocabulary.df and not s.isdigit() for s in content_stems(text))


_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")
"""A hyphen between letters ("On-Call"), not one of a date."""


def _dated(
    text: str, title: set[str], message: _Message, wanted: set[str], distinctive: set[str]
) -> bool:
    """Ordinary words and a date: named by its words and a date that agrees ("the
    on-call retro from march" for *On-Call Retro (2026-03-12)*, "week 17" for 2026-W17).
    Its word for what the page holds may be left out beside two others ("feb monthly
    planning" for *Monthly planning meeting, February 2026*); on the title's very day, one
    ``distinctive`` word of it is enough."""
    marks = date_marks(text)
    if not marks:
        return False
    rest = {s for s in title if not is_date_stem(s)}
    missing = rest - wanted
    present = {s for s in title if s in rest or is_periodic(s)} & wanted
    spared = len(missing) == 1 and missing <= _SPARABLE and len(present) >= DATED_PRESENT
    if _on_the_day(marks, message.dates) and present & distinctive:
        return True  # "what did maya present on 9 march" for *Board Update (2026-03-09)*
    if len(missing) == 1 and not message.dates and _inner_left_out(text, missing, message):
        return True  # "the marula field debrief" for *Marula Field Visit Debrief (2026-03-16)*
    return bool(rest) and (not missing or spared) and agree(marks, message.dates)


def _inner_left_out(text: str, missing: set[str], message: _Message) -> bool:
    """The title's words, its date's aside, side by side in the message from its first to
    its last with one word between left out: the title said short, not a part of it that
    names something else ("data retention audit" is the project, not its kickoff)."""
    title = [
        s for w in words(text) if (s := content_stem(w)) and not is_date_stem(s) and not s.isdigit()
    ]
    if len(title) < WHOLE_TITLE_WORDS or title[0] in missing or title[-1] in missing:
        return False
    run = tuple(s for s in title if s not in missing)
    return bool(_places(run, [content_stem(w) for w in message.sequence]))


def _on_the_day(title: frozenset[str], message: frozenset[str]) -> bool:
    """The message gives the day of the title's date, and no year that contradicts it."""
    days = {m for m in title if m[0] == "d"}
    return bool(days & message) and agree(title, message)


def _phrases(sequence: Sequence[str]) -> frozenset[tuple[str, str]]:
    """Pairs of words side by side, as stems, neither filler ("charging board")."""
    stems = [content_stem(w) for w in sequence]
    return frozenset((a, b) for a, b in itertools.pairwise(stems) if a and b)


def _slug_words(slug: str) -> str:
    """The last part of a slug (or a ``source:slug`` key) as words: how a page is written
    in a ``[[link]]`` and often in text ("marula-conservancy" -> "marula conservancy")."""
    return slug.rsplit("/", 1)[-1].replace("-", " ").replace("_", " ")


class _RowWords(NamedTuple):
    """A row's words, read once per turn: its title's, its slug's last part's, and all of
    them with its summary's; its title's words in order, and the title in Latin letters."""

    title: set[str]
    tail: set[str]
    body: set[str]
    backing: set[str]
    """Its title's and its summary's: where the message's supporting words are counted."""
    sequence: tuple[str, ...]
    latin: str
    """:func:`.words.in_latin_letters` of the title (``""`` when it has no Greek or
    Cyrillic word)."""
    versions: frozenset[str]
    """The title's version numbers."""
    joined: str
    """The title with its hyphenated words written as one ("OnCall Retro"; ``""`` when it
    has none)."""
    phrases: frozenset[tuple[str, str]] = frozenset()
    """Two words side by side in its summary, as stems, not both of its title
    (:func:`_phrases`): a title's words together are read by the naming rules."""
    unlabelled: str = ""
    """The title after a label of ordinary words (:func:`_unlabelled`)."""

    @classmethod
    def of(cls, row: SearchRow) -> _RowWords:
        tail = content_stems(_slug_words(row.slug))
        title = content_stems(row.title)
        summary = _summary_text(row)
        backing = title | content_stems(summary)
        return cls(
            title,
            tail,
            backing | tail,
            backing,
            tuple(words(row.title)),
            in_latin_letters(row.title),
            frozenset(versions(row.title)),
            joined if (joined := _HYPHEN.sub("", row.title)) != row.title else "",
            frozenset(p for p in _phrases(words(summary)) if not set(p) <= title),
            _unlabelled(row.title),
        )


class _Reading(NamedTuple):
    """What the gate reads of one row against this message."""

    wanted: set[str]
    """The message's stems for this row."""
    asked: set[str]
    """The distinctive ones."""
    row: _RowWords
    elsewhere: bool
    """Whether the message uses the row's title about something else."""
    spelt: set[str]
    """``wanted`` with a slip of the title mended (:func:`_mended`)."""
    common: bool
    """The message has the words of the row's name only as a common noun, or gives the
    person's first name to someone else: they name nothing here and back no row."""


def _reading(
    row: SearchRow,
    message: _Message,
    vocabulary: TitleVocabulary | None,
    row_words: _RowWords | None = None,
) -> _Reading:
    wanted = message.wanted_by(row)
    asked = {s for s in wanted if _distinctive(s, vocabulary)}
    words_ = row_words or _RowWords.of(row)
    elsewhere = _elsewhere(row, words_, asked, message)
    spelt = _mended(row, wanted, message, words_)
    common = _as_common_noun(row, words_, message) or (
        _person(row) and _borne_by_another(words_, message, vocabulary, spelt)
    )
    if common and len((asked - GENERIC_STEMS - words_.title) & words_.body) >= COMMON_UNLESS:
        common = False  # "when does marulas contract renew", "¿Lucía sigue coordinando…?"
    return _Reading(wanted, asked, words_, elsewhere, spelt, common)


def _met(
    rows: Sequence[SearchRow],
    readings: Sequence[_Reading],
    message: _Message,
    vocabulary: TitleVocabulary | None,
) -> set[str]:
    """Words of a person's or a company's name the message gives in lowercase, whose page
    it names: like a capitalised name (:attr:`_Message.known`), they say the message is
    about this brain ("brand refresh status, did valentina finish the new logo")."""
    met: set[str] = set()
    for row, reading in zip(rows, readings, strict=True):
        if (row.type or "") not in NAME_TYPES or reading.common:
            continue
        if _tier(row, message, vocabulary, reading=reading) in (0, 1, 2):
            met |= {
                s
                for w in reading.row.sequence
                if w in message.said
                and (s := content_stem(w)) is not None
                and _distinctive(s, vocabulary)
            }
    return met


def _spent(readings: Iterable[_Reading], message: _Message) -> frozenset[str]:
    """Words of titles the message holds whole but uses about something else or opens with
    set apart (:attr:`_Message.set_apart`), of a name's title it uses as a common noun, of a
    lettered title it gives as any one's ("how much did mistral raise in their series A"), and
    a first name it gives to someone else: they back no row ("a field handbook for the camping
    trip" names neither *Field Handbook* nor the writer whose page says she writes it; "a haiku
    about a kestrel" is not about the founder whose page names *Kestrel Works*; "samuel l
    jackson's first big movie" is not about the conservancy whose head ranger is *Samuel
    Mwangi*)."""
    spent: set[str] = set()
    for reading in readings:
        title = reading.row.title
        if (reading.elsewhere or title == message.set_apart) and title and title <= reading.wanted:
            spent |= title
        elif reading.common or (
            _lettered(reading.row) and _designated(reading.row, message, anyones=True)
        ):
            spent |= title & reading.wanted
    return frozenset(spent)


def _mended(row: SearchRow, wanted: set[str], message: _Message, read: _RowWords) -> set[str]:
    """``wanted`` with the word of the row's title the message misspelt by one slip
    (:func:`.words.mended`): anywhere in the message for a person's or company's name
    ("Tomas Lindquist" for *Tomas Lindqvist*), in place among the title's other words, in
    order, for any other title, whose date need not be said ("tidepool dashbaord kickoff"
    for *Tidepool Dashboard Kickoff (2026-04-07)*; "plan a hiking trip, any notes?" is not
    *Hiring plan notes*)."""
    dated = {s for s in read.title if is_date_stem(s)}
    found = mended(row.title, message.said, wanted | dated)
    if found is None:
        return wanted
    if (row.type or "") not in NAME_TYPES and not _slipped_in_place(read, message, dated):
        return wanted
    return wanted | {found}


def _slipped_in_place(read: _RowWords, message: _Message, dated: set[str]) -> bool:
    """The title's words but its date's, side by side in the message as in the title, one
    of them a slip off."""
    t = tuple(w for w in read.sequence if stem(w) not in dated and not w.isdigit())
    m = message.sequence
    for i in range(len(m) - len(t) + 1):
        pairs = list(zip(t, m[i : i + len(t)], strict=True))
        if all(a == b or near(a, b) for a, b in pairs) and sum(a != b for a, b in pairs) == 1:
            return True
    return False


def _count(backing: set[str]) -> int:
    """Supporting words, counted. Words that go with anything (``GENERIC_WORDS``: "keep",
    "last", "two") back a row only beside one that does not: "undo my last commit but keep
    the changes" is not about a design review that decided "to keep per-field
    last-writer-wins"."""
    return len(backing) if backing - GENERIC_STEMS else min(len(backing), 1)


def _tier(
    row: SearchRow,
    message: _Message,
    vocabulary: TitleVocabulary | None,
    min_cosine: float | None = None,
    spent: frozenset[str] = frozenset(),
    *,
    reading: _Reading | None = None,
) -> int | None:
    """0-3 as in the module docstring (lower is stronger); None when unanchored.
    ``reading``: :func:`_reading` of the row, when the caller has it already."""
    if row.exact_lookup in ("title", "slug"):
        return 0
    wanted, asked, words_, elsewhere, spelt, common = reading or _reading(row, message, vocabulary)
    title, body = words_.title, words_.body
    apart = bool(message.outside - body)
    if apart and not set(words_.sequence) <= message.said:
        return None  # "my neighbour Tomas", "my son wants to dress up as a kestrel"
    if common:
        return None  # "how does a kestrel hover?", "maya angelou quote": not these pages
    if message.how_to and not message.who and _person(row) and not title & wanted:
        return None  # "how do I cache npm deps in github actions?" asks no one who set it up
    if row.evidence in STRONG_EVIDENCE:
        return 0
    if _person(row) and _addressed(words_, message):
        return 1  # "Wofür ist Herr Müller zuständig?"
    if message.acronyms and message.acronyms & acronyms(row.title):
        return 1  # "CRDTs" for Conflict-free Replicated Data Types
    if message.versions & words_.versions and any(
        _distinctive(s, vocabulary) for s in title & wanted
    ):
        return 1  # "beacon 2.4" for Retro notes: Beacon 2.4, about it or not
    if elsewhere and not (body & asked) - title - GENERIC_STEMS:
        return None  # only the title's own words tie it to a message about something else
    if not elsewhere and _named(row.title, words_, message, spelt, asked, vocabulary=vocabulary):
        return 1
    if not elsewhere and _lone_name(row, words_, asked, message, vocabulary):
        return 1  # "how much did brightwater put in" for *Brightwater Ventures*
    names, wanted = message.names, wanted - spent
    backing = _backing(body, wanted, vocabulary)
    support = _count(backing)
    if support == 1 and message.phrases & words_.phrases:
        support = 2  # "who's building the charging board?": a phrase of the page's summary
    if names - body and support < NAME_OVERRIDE:
        unsaid = names - body
        if not unsaid <= spelt_out(unsaid & message.acronyms, _summary_text(row)):
            return None  # the message names something this row never mentions
    anchors = {s for s in (title | words_.tail) & wanted if _distinctive(s, vocabulary)}
    if (row.type or "") in NAME_TYPES:  # a name as written: "grid lines" is not *Lin Chen*
        anchors &= {content_stem(w) for w in words_.sequence if w in message.said} | spelt - wanted
    if anchors & names and (row.type or "") in NAME_TYPES:
        return 1  # a capitalised name in the message is a word of a person's title ("Mwangi")
    if (
        (row.type or "") in NAME_TYPES
        and not anchors & names
        and _beside_another(words_, backing, asked, message)
    ):
        return None  # "blue heron vs great egret": the name's words and others it never holds
    if anchors and (anchors & names or support >= 2 or asked <= anchors):
        return 2  # backed by a name, a second word, or the message is just the name
    if support >= 2:
        return 3
    if min_cosine is not None and support == 1 and (row.cosine or 0.0) >= min_cosine:
        return 3  # one supporting word and a close embedding (a lexical or a vector row)
    return None


def _beside_another(read: _RowWords, backing: set[str], asked: set[str], message: _Message) -> bool:
    """Only words of the name's title back the row (``backing``, :func:`_backing` of its
    body), and two distinctive words of the message, not generic, are nowhere in it: the
    words name something else."""
    rest = _unexplained(asked, read, message)
    return bool(backing) and backing <= read.title and len(rest) >= ELSEWHERE_WORDS


def cosine_floor(rows: Sequence[SearchRow], gate: Gate) -> float | None:
    """The cosine a one-word row must reach this turn; None when the rule is off or the
    rows carry no cosines (a keyword-only GBrain)."""
    floors = [] if gate.min_cosine is None else [gate.min_cosine]
    cosines = sorted(r.cosine for r in rows if r.cosine is not None)
    if gate.cosine_margin is not None and len(cosines) >= COSINE_MIN_ROWS:
        floors.append(cosines[len(cosines) // 2] + gate.cosine_margin)
    return max(floors) if floors and cosines else None


def _backing(held: set[str], wanted: set[str], vocabulary: TitleVocabulary | None) -> set[str]:
    """The message's distinctive words the row holds (``held``), and those whose kin it holds
    when the word or its kin is distinctive (:mod:`.kin`: "phone builds" for "mobile builds",
    "work from home" for "remotely")."""
    found = {s for s in held & wanted if _distinctive(s, vocabulary)}
    found.update(
        s
        for s, kin in kin_in(wanted, held).items()
        if any(_distinctive(k, vocabulary) for k in (s, *kin))
    )
    return found


def _support(read: _RowWords, wanted: set[str], vocabulary: TitleVocabulary | None) -> int:
    """The message's words backing the row's title and summary (:func:`_backing`), counted."""
    return _count(_backing(read.backing, wanted, vocabulary))


def _person(row: SearchRow) -> bool:
    return (row.type or "") == "person"


def _leader(
    clean: Sequence[SearchRow],
    named: Sequence[SearchRow],
    loose: Sequence[SearchRow],
    *,
    read: Mapping[str, _RowWords],
    said: _Message,
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
    works there has its name on their page."""
    if not named:
        return None
    order = {row_key(r): i for i, r in enumerate(clean)}
    first = min(order.get(row_key(r), len(clean)) for r in named)
    ahead = [
        r
        for r in loose
        if order[row_key(r)] < first and _support(read[row_key(r)], said.wanted, vocabulary) >= 2
    ]
    if not ahead and said.who:
        titled = [(r, content_stems(r.title)) for r in named]
        beyond = said.wanted - set().union(*(stems for _, stems in titled))
        things = [  # a company's name is on the page of everyone who works there
            {s for s in stems if _distinctive(s, vocabulary)}
            for r, stems in titled
            if (r.type or "") not in NAME_TYPES
        ]
        ahead = [
            r
            for r in loose
            if _person(r)
            and (
                (backing := _support(read[row_key(r)], beyond, vocabulary)) >= 2
                or (backing and any(thing and thing <= read[row_key(r)].body for thing in things))
            )
        ]
    return min(ahead, key=lambda r: order[row_key(r)], default=None)


def _companion(
    named: Sequence[SearchRow],
    loose: Sequence[SearchRow],
    picked: Collection[SearchRow],
    *,
    read: Mapping[str, _RowWords],
    said: _Message,
    vocabulary: TitleVocabulary | None,
) -> SearchRow | None:
    """The first loose row a named row's own page points at, by a word of the message
    that names no named row: "whats the latest on fernseed, did priya retrain it" names
    *Priya Raman*, whose summary holds *Fernseed Classifier*; GBrain ranks the project
    below her, where only a leader would join. A named title's own word brings nothing
    ("the tidepool dashboard" does not bring its design review)."""
    taken = {row_key(r) for r in picked}
    words = [read.get(row_key(r)) or _RowWords.of(r) for r in named]
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
            s for s in content_stems(_slug_words(key.strip("[]"))) if _distinctive(s, vocabulary)
        }:
            found.append(stems)
    return found


def _tied(
    kept: list[SearchRow],
    read: Mapping[str, _RowWords],
    said: _Message,
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
    best = _support(read[row_key(kept[0])], said.wanted, vocabulary)
    if not tied or _support(read[row_key(tied[0])], said.wanted, vocabulary) < best:
        return kept
    return tied


def _named_by_index(
    rows: Iterable[SearchRow],
    said: _Message,
    vocabulary: TitleVocabulary | None,
    tiers: dict[int, list[SearchRow]],
    shown: set[str],
) -> bool:
    """Dated pages the title index names outright (:meth:`.TitleMatcher.undated`, by their
    title's other words; :meth:`.TitleMatcher.in_month`, by a month and a word), unless the
    message uses their title's words about something else. Whether any was named."""
    kept = [r for r in rows if not _reading(r, said, vocabulary).elsewhere]
    return _promote(kept, tiers, shown)


def _promote(rows: Iterable[SearchRow], tiers: dict[int, list[SearchRow]], shown: set[str]) -> bool:
    """``rows`` named outright: moved to tier 1 (left out when already shown). Whether any
    was clean."""
    named = {row_key(r) for tier in (0, 1) for r in tiers.get(tier, [])}
    found = False
    for row in rows:
        key = row_key(row)
        if key in named or not _clean(row):
            continue
        found = True
        for tier in (2, 3):
            tiers[tier] = [r for r in tiers.get(tier, []) if row_key(r) != key]
        if key not in shown:
            tiers.setdefault(1, []).append(row)
    return found


def gate_rows(
    rows: Sequence[SearchRow],
    message: str,
    *,
    gate: Gate = Gate(),
    limit: int = 3,
    skip: Collection[str] = (),
    vocabulary: TitleVocabulary | None = None,
    max_tier: int = 3,
    subject: Collection[str] = (),
) -> list[SearchRow]:
    """The rows that may reach the model, strongest first, at most ``limit``.

    ``skip`` holds ``source:slug`` keys already shown (left out, the limit is filled
    with other rows or left short); ``vocabulary`` weighs title words by how common
    they are in this brain (optional). With the gate's title index, pages the message
    names are added after the named rows search returned. ``max_tier`` 2 keeps only rows
    with a title anchor (no content-only paraphrase match). ``subject``: the keys of the
    pages the conversation's last turn showed (what a follow-up's "it" points back at).
    """
    if vocabulary is None:
        vocabulary = gate.vocabulary
    seen: set[str] = set()
    clean: list[SearchRow] = []
    for row in rows:
        key = row_key(row)
        if key in seen or not _clean(row):
            continue
        seen.add(key)
        clean.append(row)
    shown = set(skip)
    if gate.mode != "anchored":
        clean = [r for r in clean if row_key(r) not in shown]
    if gate.mode == "off":
        return clean[:limit]
    if gate.mode == "evidence":
        top = max((r.score for r in clean if r.score is not None), default=None)
        kept = [
            r
            for r in clean
            if r.evidence not in WEAK_EVIDENCE
            and not (top and r.score is not None and r.score < gate.min_ratio * top)
        ]
        return kept[:limit]
    row_words = [_RowWords.of(row) for row in clean]
    read = {row_key(row): w for row, w in zip(clean, row_words, strict=True)}
    said = _Message.of(message).knowing(row_words)
    if gate.titles is not None:  # "ソーラーカラー" for *Solar Collar*
        said = said.reading(gate.titles.in_katakana(message))
    tiers: dict[int, list[SearchRow]] = {}
    any_named = False
    floor = cosine_floor(rows, gate)
    readings = [_reading(row, said, vocabulary, w) for row, w in zip(clean, row_words, strict=True)]
    if met := _met(clean, readings, said, vocabulary) - said.known:
        said = replace(said, known=said.known | met)  # "did valentina finish the new logo"
        readings = [
            _reading(row, said, vocabulary, w) for row, w in zip(clean, row_words, strict=True)
        ]
    spent = _spent(readings, said)
    for position, row in enumerate(clean):
        near_top = floor if position < COSINE_TOP else None
        tier = _tier(row, said, vocabulary, near_top, spent, reading=readings[position])
        if tier is None or tier > max_tier:
            continue
        any_named = any_named or tier <= 1
        if row_key(row) not in shown:  # decided before the skip: a named page already
            tiers.setdefault(tier, []).append(row)  # shown still rules out loose rows
    if gate.titles is not None:
        seen_as = f"{message}\n{said.retyped}" if said.retyped else message
        written = said.wanted - said.retyped_only
        for row in (
            *gate.titles.candidates(seen_as, said.wanted),
            *gate.titles.lone(written),
            *gate.titles.on_days(said.dates),
        ):
            key = row_key(row)
            if key in seen or not _clean(row):
                continue
            seen.add(key)
            tier = _tier(row, said, vocabulary)
            if tier is not None and tier <= 1:
                any_named = True
                if key not in shown:
                    tiers.setdefault(1, []).append(row)
    if gate.titles is not None:
        dated = (  # "feb planning mtg notes pls"; "pull up the on-call retro"; a kind glossed
            [
                r
                for r in gate.titles.in_month(said.dates, said.said)
                if agree(date_marks(r.title), said.dates)
            ]
            if said.dates
            else gate.titles.undated(said.wanted)
        )
        any_named = _named_by_index(dated, said, vocabulary, tiers, shown) or any_named
    if gate.titles is not None and (honoured := gate.titles.honoured(message)):
        any_named = _promote(honoured, tiers, shown) or any_named  # "森さんってどの…"
    if gate.titles is not None and (across := gate.titles.across_scripts(message)):
        any_named = _promote(across, tiers, shown) or any_named  # "من هي ليلى فراهاني؟"
    if any_named:  # something is named: named pages, and at most one loose row ahead of them
        named = tiers.get(0, []) + tiers.get(1, [])
        loose = tiers.get(2, []) + tiers.get(3, [])
        leader = _leader(clean, named, loose, read=read, said=said, vocabulary=vocabulary)
        picked = [*named[: limit - 1], leader] if leader and limit > 1 else named[:limit]
        if len(picked) < limit and (
            joined := _companion(
                named, tiers.get(2, []), picked, read=read, said=said, vocabulary=vocabulary
            )
        ):
            picked.append(joined)
        return picked
    loose = tiers.get(2, []) + tiers.get(3, [])
    top = max((r.score for r in loose if r.score is not None), default=0.0)
    kept = [r for r in loose if not top or r.score is None or r.score >= gate.min_ratio * top]
    # more supporting words first, a person's page first for "who"; stable: GBrain order next
    kept.sort(
        key=lambda r: (
            -_support(read[row_key(r)], said.wanted, vocabulary),
            not (said.who and _person(r)),
        )
    )
    return _tied(kept, read, said, subject, vocabulary)[:limit]
