"""What the gate reads of the message, once per turn (:class:`Message`).

Nothing here keeps or logs the message: it is read into sets of stems and marks that the
rules of :mod:`.naming`, :mod:`.readings` and :mod:`.gate` test rows against.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, replace

from ..api import SearchRow
from .dates import date_marks, said_in_figures
from .glosses import kind_words
from .outside import a_child, outside_things, owners, purposes, relatives
from .rowwords import RowWords, side_by_side
from .trivial import TRIVIAL_WORDS
from .vocabulary import ORDINARY_STEMS
from .words import (
    GENERIC_WORDS,
    SENTENCE_END,
    STOP_WORDS,
    compact,
    content_stem,
    content_stems,
    english_words,
    fold,
    in_latin_letters,
    in_latin_script,
    latin_among_others,
    mentions,
    message_acronyms,
    message_names,
    other_language,
    run_in,
    umlauts_typed,
    unspaced_runs,
    versions,
    words,
    words_and_marks,
    written_capitalised,
)

__all__ = [
    "SENTENCE_END",
    "Message",
    "plain_title",
]


@dataclass(frozen=True, slots=True)
class Message:
    """What the gate reads of the message, computed once per message."""

    text: str
    wanted: set[str]
    names: set[str]
    compact: str
    acronyms: set[str]
    dates: frozenset[str]
    known: set[str]
    """The names the brain knows: those some row returned for the message mentions, and
    those of a person's or a company's page it names in lowercase (:func:`.gate._met`)."""
    sequence: tuple[str, ...]
    """Its words in order (a title's place in it is read on them)."""
    said: frozenset[str]
    """Its words, whole, and those of :attr:`retyped` (slips of names are read on them)."""
    other_language: bool
    """Written in another language in Latin letters: German, Spanish, French, Portuguese,
    Italian, Dutch, Polish, Turkish, Vietnamese, Indonesian or Swahili
    (:func:`.words.other_language`)."""
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
    owners: tuple[tuple[int, str], ...] = ()
    """Whose a thing is, said right after it (:func:`.outside.owners`)."""
    definite: frozenset[tuple[str, ...]] = frozenset()
    """Titles of the rows it gives after "the", or right after an opening "does", "is" and
    the like (:func:`_after_the`; set by :meth:`knowing`)."""
    titles_said: int = 0
    """How many of the rows' titles it says whole, apart from one another: of two words or
    more, or of one compared with another (:func:`_titles_said`; set by :meth:`knowing`)."""
    compared: frozenset[tuple[str, ...]] = frozenset()
    """Titles (as :func:`plain_title`) it compares with another of the rows' titles ("model
    distillation vs quantization"; set by :meth:`knowing`), each named, when it gives no thing
    of the writer's own (:attr:`outside`)."""
    phrases: frozenset[tuple[str, str]] = frozenset()
    """Its pairs of words side by side (:func:`.rowwords.side_by_side`)."""
    topic: str = ""
    """Its first word when punctuation follows it ("halvorsen.. which fund?")."""
    who_of: frozenset[str] = frozenset()
    """The words it asks who they are ("who's ugo?", "remind me who wilhelmina is":
    :func:`_asked_who`)."""
    heading: tuple[str, ...] = ()
    """Its words before the first mark that sets them apart, when more words follow
    (:func:`_opening`: "budget summary 2026: what's the biggest chunk?")."""
    headline: tuple[str, ...] = ()
    """:attr:`heading` when a dash or a colon sets it apart, as a title is written before
    what is asked about it ("launch checklist — pls list all items"; not "launch checklist,
    we ship thursday")."""
    set_apart: frozenset[str] = frozenset()
    """The stems of those words, in any order (:func:`_opening`)."""
    headings: frozenset[tuple[str, ...]] = frozenset()
    """Every sentence's :attr:`heading`, also without the words that go with anything it ends
    with, and, where a colon sets it apart, the words up to the next mark too
    (:func:`_headings`: "back to work. remote work policy: how many days?"; "Travel notes:
    Okavango visit — did they fly?"; "expense policy question - …")."""
    how_to: bool = False
    """It asks how to do something (:data:`_HOW_TO`)."""
    shopping: bool = False
    """It asks for a thing of the world to pick (:data:`_SHOPPING`: "recommend a good ledger app
    for budgeting", "any good audiobook app for android?", "best R package for camera traps"):
    the brain's pages answer it only when it names them."""
    we_use: bool = False
    """It asks whether the writer's team does or uses what it has named (:data:`_WE_USE`:
    "zero trust networking — do we actually do that?")."""
    we_did: bool = False
    """It asks what the writer's team did or decided (:data:`_WE_DID`: "why did we go with
    kotlin for the android app?"): a decision's title it says is the brain's own."""
    purposes: frozenset[str] = frozenset()
    """What a bare "for" gives a thing for (:func:`.outside.purposes`)."""
    purposes_by_sentence: tuple[tuple[frozenset[str], frozenset[str]], ...] = ()
    """Each sentence's words and :attr:`purposes` (empty for one sentence or none given)."""
    other_script: bool = False
    """It has words in another script than Latin (:func:`.words.in_latin_script`)."""
    language_named: bool = False
    """It names a language a word is in, or asks how a word is said (:data:`_LANGUAGE_NAMED`:
    "kestrel en anglais", "how do you say kestrel in portuguese")."""
    for_us: bool = False
    """It asks what something is or means for the writer's team (:data:`_FOR_US`: "what
    does active learning mean for us?"): a title it says is the brain's own."""
    asks_held: bool = False
    """It asks whether the brain holds such a thing (:data:`_HELD`: "do we have a hiring plan
    for 2027?"): a title it says after "a" may still be the brain's own, and one it says
    beside "page" or "notes" is that page's."""
    adjacent: frozenset[tuple[str, str, str]] = frozenset()
    """Words side by side with only spaces between (:func:`_adjacent`)."""
    cased: frozenset[tuple[str, str]] = frozenset()
    """Words side by side, the first capitalised and the second not (:func:`_cased`: "Elena
    chcela", "Priya per"): folded, as :attr:`adjacent` holds them."""
    relatives: frozenset[str] = frozenset()
    """Words given to a relative or friend of the writer's, right after the word for them
    (:func:`.outside.relatives`: "friend Maya turns 30"): a name there is no one of the
    brain's unless the message says the whole of it."""
    child: bool = False
    """It gives someone an age under 18 (:func:`.outside.a_child`: "sam turns 10 next week"):
    a first name there is a child's, no one of the brain's unless the message says the whole
    of it."""
    someone: bool = False
    """It speaks of someone as "he" or "she" (:data:`_THIRD_PERSON`): a word of a person's
    name in it, written in lowercase, is that person's ("okafor's prefs — she's not into
    status meetings")."""
    mentioned: frozenset[str] = frozenset()
    """The people it mentions as a chat does ("@Nadia"; :func:`.words.mentions`): names
    of this brain's people, in :attr:`names` too, but the ones it is addressed to, not
    what it asks about, so a page need not mention them."""
    outside_by_sentence: tuple[tuple[frozenset[str], frozenset[str]], ...] = ()
    """Each sentence's words and what it gives as the writer's own or as what it is for,
    when the message has two sentences or more and one of them gives such a thing
    (:meth:`outside_near`)."""
    capitalised: frozenset[str] = frozenset()
    """The stems of its capitalised words inside a sentence (:func:`.words.message_names`):
    of :attr:`names`, those it writes as names are written, not Latin words among another
    script's or mentions."""
    written_capitalised: frozenset[str] = frozenset()
    """The stems of every word it writes with a capital, a sentence's first word too
    (:func:`.words.written_capitalised`)."""
    english: frozenset[str] = frozenset()
    """Its words that are English function words (:func:`.words.english_words`)."""
    latin: frozenset[str] = frozenset()
    """In a message written mostly in another script, the stems of its words in Latin letters
    (:func:`_latin_stems`); empty otherwise."""
    latin_capitalised: frozenset[str] = frozenset()
    """Of those, the words written capitalised, first in a sentence or not."""
    made_by: tuple[tuple[str, str], ...] = ()
    """Each capitalised word right after another capitalised word, as ``(maker, word)`` stems
    (:func:`_made_by`: "Ford Ranger")."""
    by_sentence: tuple[tuple[frozenset[str], frozenset[str]], ...] = ()
    """Each sentence's words and stems, when the message has two sentences or more
    (:meth:`stems_near`)."""

    @classmethod
    def of(cls, message: str) -> Message:
        mentioned = frozenset(mentions(message))
        capitalised = message_names(message)
        among_others = latin_among_others(message)
        names = capitalised | among_others | mentioned
        figures = said_in_figures(message)  # "q two twenty twenty six": dictated
        glossed = (umlauts_typed(message), in_latin_letters(message), kind_words(message), figures)
        retyped = " ".join(filter(None, glossed))
        own = content_stems(message)
        also = content_stems(retyped) - own
        sequence = tuple(words(message))
        spoken = words_and_marks(message)
        opening = _opening(message)
        heading = tuple(words(opening))
        folded = fold(message)
        return cls(
            message,
            own | also,
            names,
            compact(message),
            message_acronyms(message),
            date_marks(f"{message}\n{figures}" if figures else message),
            names,
            sequence,
            frozenset(sequence) | frozenset(words(retyped)),
            other_language(message),
            outside_things(message, ORDINARY_STEMS, capitalised),
            retyped,
            frozenset(also),
            bool(_WHO.intersection(sequence)),
            frozenset(versions(message)),
            phrases=side_by_side(sequence),
            how_to=bool(_HOW_TO.search(folded)),
            shopping=bool(_SHOPPING.search(folded)),
            we_did=bool(_WE_DID.search(folded)),
            we_use=bool(_WE_USE.search(folded)),
            other_script=not all(in_latin_script(w) for w in sequence),
            language_named=bool(_LANGUAGE_NAMED.search(message)),
            for_us=bool(_FOR_US.search(message)),
            purposes=purposes(message, ORDINARY_STEMS, capitalised),
            owners=owners(message, ORDINARY_STEMS, capitalised),
            asks_held=bool(_HELD.search(folded)),
            adjacent=_adjacent(spoken),
            cased=_cased(message),
            topic=_topic(spoken),
            who_of=_asked_who(sequence),
            heading=heading,
            headline=heading if _HEADLINE.match(message, len(opening)) else (),
            set_apart=frozenset(content_stems(opening)),
            headings=_headings(message),
            mentioned=mentioned,
            relatives=relatives(message),
            child=a_child(message),
            someone=not _THIRD_PERSON.isdisjoint(sequence),
            outside_by_sentence=_things_by_sentence(message, capitalised, outside_things),
            purposes_by_sentence=_things_by_sentence(message, capitalised, purposes),
            capitalised=frozenset(capitalised),
            written_capitalised=frozenset(written_capitalised(message)),
            english=english_words(sequence),
            latin=_latin_stems(message) if among_others else frozenset(),
            latin_capitalised=(
                _latin_stems(message, capitalised=True) if among_others else frozenset()
            ),
            made_by=_made_by(message),
            by_sentence=_by_sentence(message),
        )

    def outside_near(self, title: Sequence[str]) -> frozenset[str]:
        """:attr:`outside`, read only in the sentences that hold a word of ``title``: "my
        jacket" in a sentence of its own says what that sentence is about, not what the title
        is for ("is there a page on idempotency keys? my upload script should send one")."""
        return _near(self.outside_by_sentence, title, self.outside)

    def purposes_near(self, title: Sequence[str]) -> frozenset[str]:
        """:attr:`purposes`, read only in the sentences that hold a word of ``title``: "who's
        on the mesh radio project? they asked for roof access" gives no purpose of the
        project."""
        return _near(self.purposes_by_sentence, title, self.purposes)

    def stems_near(self, title: Sequence[str]) -> frozenset[str]:
        """The stems of the sentences that hold a word of ``title`` (all of the message's
        when none or every one does): what another sentence says is its own business
        ("what terms does the glossary define? adding it to the welcome pack")."""
        return _near(self.by_sentence, title, frozenset(self.wanted))

    def knowing(self, rows: Iterable[RowWords]) -> Message:
        """This message with :attr:`known` narrowed to names the rows mention, and the
        rows' titles it opens with."""
        rows = list(rows)
        seen: set[str] = set()
        for row in rows:
            seen |= row.body & self.names
        plain = {plain_title(row.sequence) for row in rows}
        # "for my ML homework: explain model distillation vs quantization": the writer's own
        spans = _title_spans(self.sequence, plain)
        compared = frozenset() if self.outside else _compared(self.sequence, spans)
        return replace(
            self,
            known=seen,
            opened=_opened(self.sequence, plain) | _opened_after_a_mark(self.text, plain),
            definite=_after_the(self.sequence, plain),
            titles_said=_titles_said(self.sequence, spans, compared),
            compared=compared,
        )

    def reading(self, also: str) -> Message:
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

    def wanted_by(self, row: SearchRow, read: RowWords) -> set[str]:
        """The message's stems, plus the row title's unspaced runs found in its text and, in
        another language, the title's words it gives with an ending of its own
        (:meth:`inflected`)."""
        runs = {r for r in unspaced_runs(row.title) if len(r) >= 2 and run_in(r, self.compact)}
        person = (row.type or "") == "person"
        return self.wanted | runs | self.inflected(read.sequence, capitalised=person)

    def inflected(self, title: Sequence[str], *, capitalised: bool = False) -> set[str]:
        """The stems of the title's words of four letters or more that a message in another
        language gives with an ending of its own: "warum hosten wir die Reports in Frankfurt?"
        for *Decision: Host reports in Frankfurt*. English endings are the stemmer's; this one
        is read only when the message is not English (:attr:`other_language`) or, with
        ``capitalised`` (a person's name), in a capitalised word of any message ("Stefan
        Novakek instalatzen…", in a language the gate does not tell from English)."""
        if not self.other_language and not capitalised:
            return set()
        said = [m for m in self.sequence if self.other_language or m in self.names]
        return {
            s
            for w in title
            if len(w) >= 4
            and w.isalpha()
            and (s := content_stem(w)) is not None
            and any(m.startswith(w) and 0 < len(m) - len(w) <= INFLECTED_ENDING for m in said)
        }


INFLECTED_ENDING = 3
"""Letters another language may add to a title's word (:meth:`Message.inflected`)."""


_LATIN_WORD = re.compile(r"[A-Za-z][\w'-]*")
_MAKE_AND_WORD = re.compile(r"\b([A-Z][a-z]{2,})\s+([A-Z][a-z]+)\b")
"""Two capitalised words side by side, the first a maker's name ("Ford Ranger")."""


def _latin_stems(message: str, *, capitalised: bool = False) -> frozenset[str]:
    """:attr:`Message.latin` (or, ``capitalised``, :attr:`Message.latin_capitalised`)."""
    return frozenset(
        s
        for w in _LATIN_WORD.findall(message)
        if w.isascii()
        and (not capitalised or w[0].isupper())
        and (s := content_stem(w.lower())) is not None
    )


def _made_by(message: str) -> tuple[tuple[str, str], ...]:
    """:attr:`Message.made_by`."""
    return tuple(
        (maker, thing)
        for first, second in _MAKE_AND_WORD.findall(message)
        if (maker := content_stem(first.lower())) is not None
        and (thing := content_stem(second.lower())) is not None
    )


def _things_by_sentence(
    message: str,
    capitalised: set[str],
    things: Callable[[str, Collection[str], Collection[str]], frozenset[str]],
) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """Each sentence's words and what ``things`` (:func:`.outside.outside_things`,
    :func:`.outside.purposes`) reads in it: empty for one sentence or nothing read."""
    read = tuple(
        (frozenset(words(part)), things(part, ORDINARY_STEMS, capitalised))
        for part in _sentences(message)
    )
    return read if any(found for _, found in read) else ()


def _by_sentence(message: str) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """:attr:`Message.by_sentence`: empty for one sentence."""
    return tuple(
        (frozenset(words(part)), frozenset(content_stems(part))) for part in _sentences(message)
    )


def _sentences(message: str) -> list[str]:
    """The message's sentences, when it has two or more (none otherwise)."""
    parts = [part for part in SENTENCE_END.split(message) if part.strip()]
    return parts if len(parts) >= 2 else []


def _near(
    by_sentence: Sequence[tuple[frozenset[str], frozenset[str]]],
    title: Sequence[str],
    whole: frozenset[str],
) -> frozenset[str]:
    """What the sentences holding a word of ``title`` give (``by_sentence``: each sentence's
    words and what is read of it), or ``whole``, the message's, when none or every one does."""
    held = set(title)
    near = [read for said, read in by_sentence if said & held]
    if not near or len(near) == len(by_sentence):
        return whole
    return frozenset().union(*near)


_WE_DID = re.compile(
    r"\b(?:why|when|what)(?: did| do| does| have| had|['\u2019]d) we\b"
    r"|\bwe (?:decided|chose|picked|went with|stuck with|agreed|settled on|moved to)\b"
    r"|\bdid we (?:decide|choose|pick|agree|settle)\b"
)
"""A question what the writer's team did or decided ("why did we go with kotlin for the
android app?", "what we decided about open-sourcing the field handbook", "did we decide to
delete raw audio after 30 days?")."""
_WE_USE = re.compile(
    r"\b(?:do|did|does) we (?:actually |really |already |even |ever )?"
    r"(?:do|use|follow|apply|practi[cs]e|try) (?:that|it|this|those|them)\b"
)
"""A question whether the writer's team does, or ever tried, what the message has just named
("model distillation for fernseed, did we ever try it")."""
_LANGUAGE_NAMED = re.compile(
    r"\b(?:in|en|auf|em|na|w|по) (?:english|anglais|englisch|ingl[eéê]se?s?|engels|angielsku"
    r"|portuguese|portugais|spanish|espagnol|french|fran[cç]ais|german|allemand|italian"
    r"|chinese|chinois|japanese|japonais|russian|russe|arabic|arabe|swahili|hindi|korean"
    r"|английском|английски)\b"
    r"|\bhow do you say\b|\bwie sagt man\b|\bcomment (?:dit-on|on dit)\b|\bc[oó]mo se dice\b"
    r"|\bcomo se diz\b|中文|英文|英语|英語|日本語で|بالإنجليزية",
    re.IGNORECASE,
)
"""A language named as the one a word is in, or a question how a word is said in one."""
_FOR_US = re.compile(r"\b(?:[Ff]or|[Tt]o) us\b(?! dollars?\b)")
"""The writer's team as the one a thing is for ("what does it mean for us"), not the
country ("to us dollars", "for US markets")."""
_HELD = re.compile(
    r"\b(?:do|did) (?:we|i) (?:have|keep|write)|\bis there\b|\bhave we got\b"
    r"|\b(?:our|my) (?:page|doc|wiki|writeup|notes?) (?:on|about) (?:it|that|this|them)\b"
    r"|\bwhat do(?:es)? (?:our|my) (?:page|doc|wiki|writeup|notes?) say\b"
)
"""A question whether the brain holds such a page ("do we have a hiring plan for 2027?"), or
a call for the brain's page on what it has just named ("delta encoding for the sync
payloads, pls summarise our page on it", "a half day on offline-first design, what does our
page say")."""
_HOW_TO = re.compile(r"\bhow (?:to|(?:do|does|can|could|should|would) (?:i|we|you|one)) ")
"""A message asking how to do something: a page of the person who did it elsewhere does not
answer it unless it names them."""
_AUXILIARIES = frozenset(
    "do does did will would can could should might must is was has".split()  # noqa: SIM905
)
"""Words before a subject whose next word is a verb ("did maya agree", "has lin seen it")."""
_KINDS_TO_PICK = (
    r"(?:app|apps|tool|tools|book|books|course|courses|package|packages|plugin|plugins|kit|kits"
    r"|software|brand|brands|library|libraries|podcast|podcasts|way to learn)"
)
_OURS_TO_READ = (
    r"(?:a |the |any |some )?(?:docs?|notes?|pages?|write-?ups?|runbooks?|wiki|summar(?:y|ies))\b"
)
_SHOPPING = re.compile(
    r"\brecommend (?!(?:some|any)?(?:one|body)\b|(?:a |the )?(?:person|people|who)\b"
    rf"|{_OURS_TO_READ})"
    rf"|\bany good\b(?! {_OURS_TO_READ})"
    rf"|\ba good (?:\w+ )?{_KINDS_TO_PICK}\b"
    rf"|\bbest (?:\w+ ){{0,2}}{_KINDS_TO_PICK}\b"
    rf"|(?:^|[.!?]\s+)good (?!{_OURS_TO_READ})\w+ (?:for|to)\b"
)
"""A request to pick a thing of the world: "recommend" (not a person: "recommend someone to
review it"), "any good", "a good … app", "the best … book", a sentence opening "good … for"
("good roadmap for learning rust in 2026?"); not one to read what the brain holds ("any good
notes on the backfill?", "recommend a doc on it", "good notes for the sync review?")."""


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


_SPACED_WORD = re.compile(r"[^\W_]+")


def _cased(text: str) -> frozenset[tuple[str, str]]:
    """Pairs of words with only spaces between, the first capitalised and the second in
    lowercase, folded, where the first opens a clause or follows a function word ("Elena
    chcela", "de la Priya per"; not "Minha neta Camila faz", where the word before the name
    says who she is)."""
    found = list(re.finditer(_SPACED_WORD, text))
    pairs = set()
    for i, (first, second) in enumerate(itertools.pairwise(found)):
        if not (
            first.group()[0].isupper()
            and second.group()[0].islower()
            and text[first.end() : second.start()].isspace()
        ):
            continue
        before = found[i - 1] if i else None
        if (
            before is not None
            and text[before.end() : first.start()].isspace()
            and fold(before.group()) not in STOP_WORDS
        ):
            continue
        pairs.add((fold(first.group()), fold(second.group())))
    return frozenset(pairs)


def _asked_who(said: Sequence[str]) -> frozenset[str]:
    """The word right after "who's", "who is" or "who was", and the one word between "who"
    and "is" or "was" ("remind me who wilhelmina is")."""
    found = set()
    for i, word in enumerate(said):
        if word not in _WHO_IS:
            continue
        after = said[i + 1 : i + 3]
        if word != "whos" and after[:1] and after[0] in _IS:
            after = after[1:]
        elif word != "whos" and len(after) == 2 and after[1] in _IS - {"s"}:
            found.add(after[0])
            continue
        found.update(after[:1])
    return frozenset(found)


def _topic(tokens: Sequence[str]) -> str:
    """The first word when punctuation follows it, else ``""``."""
    if len(tokens) > 1 and tokens[0].isalnum() and not tokens[1][0].isalnum():
        return tokens[0]
    return ""


_THIRD_PERSON = frozenset("he she him her his hers himself herself".split())  # noqa: SIM905
"""English words for someone spoken of (:attr:`Message.someone`)."""
_WHO_IS = frozenset({"who", "whos"})
"""Words that open a question who someone is ("who's" is read as "who", "s")."""
_IS = frozenset({"s", "is", "was"})
"""What follows "who" in such a question, or the name ("who wilhelmina is")."""
_SET_APART = re.compile(r"[,;:?!]|\s[-\u2013\u2014]|[\u2013\u2014]|\.(?:\s|$)")
"""What sets an opening apart from the rest: a comma, colon, question mark, a dash after a
space, a full stop; not an apostrophe or a hyphen inside a word ("i'm", "5-person")."""


_HEADLINE = re.compile(r"\s*(?:[-\u2013\u2014]|:)")
"""A dash or a colon at the end of an opening."""


_ASIDE = GENERIC_WORDS | {"q", "pls", "plz", "please", "thx"}
"""Words that go with anything, the "q" of "weekly release train q: …", a question, and the
"pls" of "launch checklist pls, need it for …", a request."""


def _headings(message: str) -> frozenset[tuple[str, ...]]:
    """:attr:`Message.headings`: the opening of each sentence (after a lead-in of
    :data:`_LEAD_IN` words set apart: "ok different thing, keystone auth — …", or one back to
    the work: "ok back to work: expense policy, …", or of
    :data:`_MOVING_ON` words not set apart: "oh and geofencing — …"), also without the
    words that go with anything it ends with ("expense policy question - someone's asking …",
    "weekly release train q: …"),
    and of each one whose opening a colon ends, the words up to the mark after it (a title with
    a label: "Travel notes: Okavango visit — …")."""
    found: set[tuple[str, ...]] = set()
    starts = [0, *(m.end() for m in SENTENCE_END.finditer(message))]
    for start in starts:
        rest = message[start:]
        opening = _opening(rest)
        said = words(opening)
        if said and _led_in(said) and (later := _opening(rest[len(opening) + 1 :])):
            rest = rest[len(opening) + 1 :]  # "ok different thing, keystone auth — can drivers…"
            opening = later
        if not opening:
            continue
        heading = tuple(words(opening))
        found.add(heading)
        while len(heading) > 1 and heading[0] in _MOVING_ON:  # "oh and geofencing — …"
            heading = heading[1:]
            found.add(heading)
        while heading and heading[-1] in _ASIDE:  # "expense policy question - …"
            heading = heading[:-1]
            found.add(heading)
        if rest[len(opening)] == ":":
            after = rest[len(opening) + 1 :]
            if more := _opening(after):
                found.add(tuple(words(f"{opening} {more}")))
    return frozenset(h for h in found if h)


_LEAD_IN = frozenset(w for w in TRIVIAL_WORDS if " " not in w) | frozenset(
    """
    so also and btw by the way different another thing one quick question q now right then
    anyway oh thx cheers
    """.split()  # noqa: SIM905 - a word list reads better as text
)
"""Words of a lead-in set apart before what a sentence is about ("ok different thing, keystone
auth — …"): the title after it opens the sentence. The words of a trivial reply
(:data:`.trivial.TRIVIAL_WORDS`: "ok", "thanks", "hi") and of moving on; not "unrelated" or
"random", which say what follows is no work of the brain's."""


_BACK_TO = frozenset({("back", "to", "work"), ("back", "to", "it")})
"""A lead-in that returns to the work after an aside ("ok back to work: expense policy, …")."""


def _led_in(said: list[str]) -> bool:
    """The words set apart are a lead-in (:data:`_LEAD_IN`), or one that returns to the work
    (:data:`_BACK_TO`), after words a sentence may open with or none."""
    while said[:1] and said[0] in _MOVING_ON:
        said = said[1:]
    return set(said) <= _LEAD_IN or tuple(said) in _BACK_TO


_MOVING_ON = frozenset(
    "so also and btw oh ok okay now then anyway yeah yes yep hi hey hello thanks thx cheers"  # noqa: SIM905
    " cool great nice sure right k".split()
)
"""Words a sentence may open with before what it is about, not set apart ("oh and geofencing —
…"): those of :data:`_LEAD_IN` that stand alone, not "the" or "one" of "by the way", "one
more thing"."""


def _opening(message: str) -> str:
    """The text before the first :data:`_SET_APART` mark, when words follow it, else ``""``."""
    mark = _SET_APART.search(message)
    if mark is None or not words(message[mark.end() :]):
        return ""
    return message[: mark.start()]


_WHO = frozenset({"who", "whom", "whos"})
"""Words that ask for a person (:func:`.loose.leading_row`, the order of loose rows)."""


def plain_title(title: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(w for w in title if not w.isdigit())


def _opened(said: tuple[str, ...], plain: set[tuple[str, ...]]) -> frozenset[tuple[str, ...]]:
    """The titles (``plain``: numbers left out) the message opens with ("ledger lake nightly
    job - when does it run?" opens with *Ledger Lake*), save one a longer title goes on from
    with the message's next word ("ledger lake backfill steps" may mean *Runbook: Ledger Lake
    Backfill*; "osprey tracker kick off" the *Osprey Tracker kickoff* meeting)."""
    return frozenset(t for t in plain if len(t) >= 2 and _stands(said, t, 0, plain))


_CLAUSE_MARK = re.compile(r"[;:]|\s[-\u2013\u2014]|[\u2013\u2014]|[.?!](?:\s|$)")
"""What opens a new clause: a colon, semicolon or dash, or a sentence's end; not a comma
("tips for camera grid overlay settings, camera grid lines too")."""


def _opened_after_a_mark(text: str, plain: set[tuple[str, ...]]) -> frozenset[tuple[str, ...]]:
    """The titles a clause after a :data:`_CLAUSE_MARK` opens with, as :func:`_opened` reads
    the message's opening ("paged at 03:12 … — ledger lake nightly. who owns it?")."""
    clauses = [tuple(words(part)) for part in _CLAUSE_MARK.split(text)[1:]]
    return frozenset(
        t for t in plain if len(t) >= 2 and any(_stands(c, t, 0, plain) for c in clauses if c)
    )


_YES_NO_OPENERS = frozenset({"does", "did", "is", "was", "will", "can", "has", "should"})
"""A yes-or-no question's first word: a title right after it, with no article, is a name."""


def _after_the(said: tuple[str, ...], plain: set[tuple[str, ...]]) -> frozenset[tuple[str, ...]]:
    """The titles (``plain``: numbers left out) the message gives after "the" ("does the remote work
    policy allow…", "what's the osprey tracker project about") or as the subject of a question
    it opens with :data:`_YES_NO_OPENERS` ("does tidepool dashboard read straight from postgres?"),
    save one a longer title goes on from, as in :func:`_opened` ("the ledger lake backfill
    steps")."""
    return frozenset(
        t
        for t in plain
        if len(t) >= 2
        and any(
            (said[i - 1] == "the" or (i == 1 and said[0] in _YES_NO_OPENERS))
            and _stands(said, t, i, plain)
            for i in range(1, len(said))
        )
    )


_VERSUS = frozenset({"vs", "versus"})
"""Words that set two things side by side to be compared."""


def _title_spans(said: tuple[str, ...], plain: set[tuple[str, ...]]) -> set[tuple[int, int]]:
    """Where the message says titles whole, each where no longer one holds it."""
    spans = {
        (i, i + len(t))
        for t in plain
        if t
        for i in range(len(said) - len(t) + 1)
        if said[i : i + len(t)] == t
    }
    inside = {(i, j) for i, j in spans for a, b in spans if a <= i and j <= b and (a, b) != (i, j)}
    return spans - inside


def _compared(said: tuple[str, ...], spans: set[tuple[int, int]]) -> frozenset[tuple[str, ...]]:
    """Titles said whole (at ``spans``, :func:`_title_spans`) on either side of "vs" with
    another title on the other ("backpressure vs circuit breaker, quick difference?")."""
    return frozenset(
        said[i:j]
        for i, j in spans
        for a, b in spans
        if (b + 1 == i and said[b] in _VERSUS) or (j + 1 == a and said[j] in _VERSUS)
    )


def _titles_said(
    said: tuple[str, ...], spans: set[tuple[int, int]], compared: frozenset[tuple[str, ...]]
) -> int:
    """How many titles the message says whole (at ``spans``, :func:`_title_spans`), each
    where no longer one holds it ("osprey tracker kickoff" says one, not two; one said twice
    is one): of two words or more, or of one word among ``compared`` (:func:`_compared`; a
    one-word title alone is often an ordinary word)."""
    return len({said[i:j] for i, j in spans if j - i >= 2 or said[i:j] in compared})


def _stands(
    said: tuple[str, ...], t: tuple[str, ...], at: int, plain: set[tuple[str, ...]]
) -> bool:
    """The title's words stand at ``at`` in the message and no longer title goes on from
    them with the message's next word."""
    n = len(t)
    if said[at : at + n] != t:
        return False
    if len(said) <= at + n:
        return True
    after = said[at + n]
    return not any(
        o[i : i + n] == t and (o[i + n].startswith(after) or after.startswith(o[i + n]))
        for o in plain
        for i in range(len(o) - n)
    )
