"""How the message stands to one row: whether it uses the row's title about something else,
as a common noun or as someone else's name, and which of its words back the row.

The gate (:mod:`.gate`) reads each row once per turn into a :class:`Reading`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from ..api import SearchRow
from .dates import agree, date_marks, is_date_stem
from .kin import kin_in
from .message import INFLECTED_ENDING, Message, plain_title
from .named import NAME_TYPES
from .naming import (
    THEIRS,
    WHOLE_TITLE_WORDS,
    after_another_thing,
    designated,
    explained,
    held_by_name,
    identified,
    is_lettered,
    kind_said,
    label_and_part_set_apart,
    label_and_rest_said,
    numbered,
    opened,
    opened_for_ours,
    page_asked,
    phrase_in,
    quoted_from,
    spelt_otherwise,
    status_asked,
    summarised,
    unexplained,
    used_by_us,
    words_before,
    written_about,
)
from .rowwords import RowWords, is_person, slug_words, summary_text
from .vocabulary import TitleVocabulary, is_distinctive
from .words import (
    GENERIC_STEMS,
    STOP_WORDS,
    content_stem,
    content_stems,
    in_latin_script,
    initials_in,
    is_unspaced,
    mended,
    near,
    spelt_out,
    stem,
    words,
)

__all__ = [
    "ELSEWHERE_WORDS",
    "Reading",
    "backing_words",
    "count_backing",
    "reading_of",
    "spent_words",
    "support_of",
]

ELSEWHERE_WORDS = 2
"""Distinctive message words a title match may leave unexplained before it stops naming
the page (:func:`_elsewhere`)."""
COMMON_UNLESS = 2
"""Distinctive words of the message beyond a name's own that the name's page must hold to be
meant though the message reads the name as a common noun or as someone else's ("when does
marulas contract renew": the conservancy's summary has its contract and its renewal)."""
_VERB_LIKE = re.compile(r"[a-z]+(?:ed|ly|[^s]s)")
"""A word that reads as a verb or an adverb after a name ("maya wants", "elena asked")."""


def _borne_by_another(
    read: RowWords,
    message: Message,
    vocabulary: TitleVocabulary | None,
    wanted: set[str],
    name: tuple[str, ...],
) -> bool:
    """The message has a person's first name right before a word that may be a surname,
    and no other word of the name: someone else of that name ("maya angelou quote" beside
    *Maya Okafor*; "sam smith concert" beside GBrain's "Sam", volunteered for *Samuel
    Mwangi*: :func:`_name_of`). A word the row holds, a verb or a word of other titles is no
    surname ("maya runway numbers", "what did elena suggest", "elena board ask")."""
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
        if message.other_language and (first, after) in message.cased:
            continue  # "Elena chcela …", "de la Priya per a …": a verb or a word, no surname
        if how == "initial" or not (
            _VERB_LIKE.fullmatch(after) or (vocabulary and root in vocabulary.df)
        ):
            return True
    return False


def _volunteered_person(row: SearchRow) -> bool:
    """A row GBrain volunteers for a word of a person's name (``alias_hit``), which comes
    untyped: a person's page by its slug's folder (``people/``, where the brain files them)."""
    return row.type is None and row.evidence == "alias_hit" and row.slug.startswith("people/")


def _name_of(row: SearchRow, read: RowWords) -> tuple[str, ...]:
    """A person's name as the message may say it: the title's words, or, for a row GBrain
    volunteers under the one word that matched (``alias_hit``: "Sam"), that word and the rest
    of the name its slug gives ("sam", "mwangi" for ``people/samuel-mwangi``)."""
    if row.evidence == "alias_hit" and len(read.sequence) == 1:
        return (read.sequence[0], *slug_words(row.slug).split()[1:])
    return read.sequence


_ARTICLES = frozenset("a an un une ein eine einen einem einer uno una uma".split())  # noqa: SIM905
"""Indefinite articles of English, French, German, Spanish, Italian and Portuguese ("a" is
no indefinite article in a message in another language: "a camila souza é responsável")."""
_OURS = frozenset({"our", "my"})
"""Words before a title that make it the brain's own."""


_WRITING = frozenset(
    {"page", "pages", "doc", "docs", "wiki", "writeup", "writeups", "note", "notes", "written"}
)
"""Words for something written down: beside a question whether we have it, the message asks
for the brain's page."""


def _asks_for_writing(message: Message) -> bool:
    """The message asks whether the brain holds a page, a note or a writeup ("is there a
    page", "do we have anything written on"): a title it says whole is that page's, whatever
    else it says it is for."""
    return message.asks_held and bool(message.said & _WRITING)


def _after_article(said: Sequence[str], start: int, articles: frozenset[str]) -> bool:
    """An indefinite article right before ``said[start]``, or before one word between that
    says what kind ("an american kestrel"; not a word that goes with anything, nor a letter
    left of an elided article: Luxembourgish "an d'Olga", and Olga)."""
    if start and said[start - 1] in articles:
        return True
    between = said[start - 1] if start else ""
    return (
        start >= 2
        and said[start - 2] in articles
        and between.isalpha()
        and len(between) > 1
        and between not in STOP_WORDS
        and stem(between) not in GENERIC_STEMS
    )


def _common_noun(
    title: tuple[str, ...], message: Message, *, plural: tuple[str, ...] = ("s", "es")
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


def _as_common_noun(row: SearchRow, read: RowWords, message: Message) -> bool:
    """:func:`_common_noun` for a person's or company's title, and for a project's after an
    article only: a project's words in the plural are often its subject ("who puts the
    collars on the rhinos" is about *Solar Collar*; "un cóndor andino" is a bird). Never a
    company's name of two words or more said whole ("a northwind capital call")."""
    kind = row.type or ""
    if kind == "person":  # "hiroshis board" is his, unmarked; "grid lines" still a plural
        return _common_noun(read.sequence, message, plural=("es",))
    if kind == "company" and phrase_in(row.title, message.sequence):
        return False  # "a northwind capital call": its whole name, before what it sent
    if kind in NAME_TYPES:
        return _common_noun(read.sequence, message)
    return kind == "project" and _common_noun(read.sequence, message, plural=())


def _slips_between(run: Sequence[str], other: Sequence[str]) -> int | None:
    """How many words of two runs of the same length differ by a slip (:func:`.words.near`),
    every other word the same; None when they differ otherwise."""
    if len(run) != len(other):
        return None
    pairs = list(zip(run, other, strict=True))
    if not all(a == b or near(a, b) for a, b in pairs):
        return None
    return sum(a != b for a, b in pairs)


def _set_apart(headings: Iterable[tuple[str, ...]], titles: Iterable[tuple[str, ...]]) -> bool:
    """A heading of the message is one of ``titles`` word for word, or but for one word a
    slip off ("Occupancy modeling — relevant to the camera trap counts?")."""
    heads = set(headings)
    return any(
        (n := _slips_between(h, t)) is not None and n <= 1 for t in titles if t for h in heads
    )


_OWN_TYPES = frozenset({"project", "meeting"})
"""Pages whose titles name the brain's own work: a message that opens with one is about it."""


def _elsewhere(
    row: SearchRow,
    read: RowWords,
    wanted: set[str],
    asked: set[str],
    message: Message,
    *,
    vocabulary: TitleVocabulary | None = None,
) -> bool:
    """The message uses the row's title as ordinary words about something else: it names
    nothing (no capitalised word inside the sentence), the row is no person's or company's
    page, and :data:`ELSEWHERE_WORDS` or more distinctive words of the message, in Latin
    script and not generic (``GENERIC_WORDS``: "actually", "next"), appear nowhere in the
    row ("write a remote work policy for my cousin's bakery"), read in the sentences that hold a
    word of the title (:meth:`.message.Message.stems_near`: "what terms does the glossary
    define? adding it to the welcome pack"), a capitalised one counting twice ("plan a hiking
    trip to the Dolomites next weekend"). One such word is enough when
    the message gives the title as any one's or another's ("a", "their": "write a remote
    work policy for a bakery"; "the" and a word the row never holds,
    :func:`.naming.after_another_thing`: "is the jaguar brand refresh working?") and does not
    ask whether the brain has it ("is there a
    remote work policy?"), and none when it gives a thing as the writer's own or as what it
    is for that neither the row nor any of the brain's titles holds (:func:`_beyond`), in a
    sentence that holds a word of the title
    (:meth:`.message.Message.outside_near`: "for a five-person bakery";
    :attr:`.message.Message.purposes`, unless it asks whether the brain holds it: "drone
    survey rules for wedding photographers"), or a note's title "… notes" without
    "notes" after "my" (:func:`_mine_without_notes`: "my book club"), whatever else it says.
    Not when the message names something the brain knows
    (:attr:`.message.Message.known`: "Driftwood"; "our PTA" names nothing here; a name in
    lowercase whose page the message names, :func:`.gate._met`) or two of the rows' titles
    whole (:attr:`.message.Message.titles_said`: "occupancy modelling vs raw counts for camera
    grid") or says the title
    is ours ("does our expense policy cover taxis?", "my weekly planning notes"), asks what we
    did about a decision (:attr:`.message.Message.we_did`: "why did we go with kotlin for the
    android app?"), asks what a title it says whole is "for us"
    (:attr:`.message.Message.for_us`: "what does active learning mean for us?") or
    gives it as the page's owner's ("tamsin's field handbook", :func:`.naming.held_by_name`) or
    is written in another language, whose own words explain nothing (but a concept after that
    language's "a" is any one: "trà un circuit breaker è un fusibile"), nor,
    whatever the message wants it for ("annual report 2025, need the headline numbers for an
    LP intro"), for a meeting on a date the message gives ("the sync design review on march
    2nd"), a page of its day or ISO week ("standup notes w14 - did anyone flag a
    regression") or of its month said with every other word of its title ("the investor
    update for april, I want to reuse the runway paragraph"), a title the message or one of its
    sentences opens with, set apart
    (:attr:`.message.Message.headings`, one word a slip off or none: "hiring plan 2026 — which
    roles first?", "Occupancy modeling — relevant to the camera trap counts?"; "weekly
    release train — when does a fix go out" beside *Decision: Weekly release train*, its title
    after a label; "Travel notes: Okavango visit — …", with its label), a title of
    :data:`.naming.WHOLE_TITLE_WORDS` words or more said whole, with its label or without
    ("collar battery drain incident report"; "open-source the field handbook" for *Decision:
    Open-source the field handbook*), a lettered title's word and letter
    (:func:`.naming.designated`), a title asked for as a page
    (:func:`.naming.page_asked`: "low-power radio page: anything on duty cycles? they're killing
    my battery"), a project's title right after "explain" (:func:`.naming.explained`: "explain
    poacher alerts in two sentences for a donor") or any title right after "summarise"
    (:func:`.naming.summarised`: "can u summarise offline-first design in 2 lines for a
    customer deck"), a project whose status it asks (:func:`.naming.status_asked`), a title
    that ends "is that …" (:func:`.naming.identified`: "… locked out of the apps — is that
    keystone auth?"), a title as what a piece of writing is on
    (:func:`.naming.written_about`: "needs a para on driftwood sync", "annual report 2025
    one-liner for my intro slide"), a title right before a verb
    of what a text says or asked about with one after "does the" (:func:`.naming.quoted_from`:
    "working capital review mentions 90 day receivables", "what does the remote work policy
    actually say?"), a concept's title said whole beside whether we do it
    (:attr:`.message.Message.we_use`) or right after "we use" (:func:`.naming.used_by_us`: "do
    we actually use differential privacy anywhere"), a labelled title's label and rest said in
    the writer's order (:func:`.naming.label_and_rest_said`: "the mom test reading notes")
    or a title in another script than Latin quoted whole among Latin words
    (:func:`_quoted_in_its_script`: "what does the 环境监测平台 collect? I am collecting examples")
    or said whole in Latin letters (:func:`_romanised_whole`: "huanjing jiance - water quality?");
    nor, when
    it gives nothing the row never mentions as what the title is for, for a title it opens
    with for things the brain holds (:func:`.naming.opened_for_ours`: "launch checklist for
    the next beacon release? want to add a cost sign-off line"), for a title with a figure
    in it said whole, naming nothing the row never mentions (:func:`.naming.numbered`: "hiring
    plan 2026 which roles are we opening"), for a title right before
    the word for its page's kind (:func:`.naming.kind_said`: "the wasserstandsmonitor project -
    does it report droughts?"), for a title said whole
    in a question whether the brain holds it written ("idempotency keys for photo uploads, do
    we have a writeup"), a project's title it opens with or a title given after "the" that
    no longer title goes on from, of no concept, when the message names nothing the row never
    mentions and gives no other date (:attr:`.message.Message.definite`: "does the remote
    work policy allow working from abroad?", not "the circuit breaker in our hallway")."""
    before = words_before(read.sequence, message.sequence)
    if _mine_without_notes(read, message):
        return True  # "my book club picked…": the writer's club, not our notes on ours
    if message.known or (row.type or "") in NAME_TYPES:
        return False  # about this brain
    if message.titles_said >= 2:
        return False  # "occupancy modelling vs raw counts for camera grid": two of its titles
    if before & _OURS and (row.type or "") != "concept":
        return False  # "my weekly planning notes"; "my circuit breaker" is no concept of ours
    if (row.type or "") == "decision" and message.we_did:
        return False  # "why did we go with kotlin for the android app? i came from react"
    if held_by_name(read, message):
        return False  # "tamsin's field handbook": the page says whose it is
    if message.for_us and set(words(read.unlabelled or row.title)) <= message.said:
        return False  # "what does active learning mean for us specifically?": said whole
    if message.other_language or _in_no_english(read, message):
        # its own words ("¿cuántos … lleva rastreados") explain nothing
        # but a concept after its "a" is any one: "trà un circuit breaker è un fusibile"
        return (row.type or "") == "concept" and bool(before & _ANY_ONE)
    dated = date_marks(row.title)
    undated = {s for s in read.title if not is_date_stem(s) and not s.isdigit()}
    if (
        message.dates
        and agree(dated, message.dates)
        and (
            row.type == "meeting"
            or any(m[0] in "dw" for m in dated & message.dates)
            or (
                len(undated) >= 2
                and undated <= message.wanted
                and any(m[0] == "m" for m in dated & message.dates)
            )
        )
    ):
        return False  # "the sync design review on march 2nd", "standup notes w14": its date
        # ("the investor update for april": its month and every other word of its title)
    if _set_apart(message.headings, (read.sequence, tuple(words(read.unlabelled)))):
        return False  # "hiring plan 2026 - which roles first?": the title set apart, whole
        # (a slip too: "Occupancy modeling — …" for *Occupancy Modelling*)
    if label_and_rest_said(row.title, read.unlabelled, message):
        return False  # "gonna reread the mom test reading notes before the ranger interviews"
    if label_and_part_set_apart(row.title, read.unlabelled, message):
        return False  # "okavango travel notes — what's the route, via joburg?"
    if len(read.title) >= 2 and read.title == message.set_apart and not before & THEIRS:
        return False  # "the mom test reading notes, what was the main takeaway": its words
    if is_lettered(read) and designated(read, message):
        return False  # "series a: target amount?"
    for title in (read.title, content_stems(read.unlabelled) if read.unlabelled else ()):
        whole = {s for s in title if not s.isdigit() and not is_date_stem(s)}
        if len(whole) >= WHOLE_TITLE_WORDS and whole <= message.wanted:
            return False  # "collar battery drain incident report - what was the root cause"
    if page_asked(read.sequence, message) or opened(read.sequence, message):
        return False  # "zero trust networking page — anything concrete in there?"
    if (row.type or "") == "project" and explained(read.sequence, message):
        return False  # "explain poacher alerts in two sentences for a donor who isn't technical"
    if summarised(read.sequence, message):
        return False  # "can u summarise offline-first design in 2 lines for a customer deck"
    if (row.type or "") == "project" and status_asked(read.sequence, message):
        return False  # "whats the status of conservancy pilots, need it for my pipeline review"
    if identified(read.sequence, message):
        return False  # "volunteers keep getting locked out of the apps — is that keystone auth?"
    if written_about(read.sequence, message):
        return False  # "the tech annex needs a para on driftwood sync"
    if quoted_from(read.sequence, message):
        return False  # "working capital review mentions 90 day receivables — …"
    if (
        (row.type or "") == "concept"
        and message.we_use
        and len(read.sequence) >= 2
        and set(read.sequence) <= message.said
    ):
        return False  # "due diligence asks about zero trust networking — do we actually do that?"
    if (row.type or "") == "concept" and used_by_us(read.sequence, message):
        return False  # "do we actually use differential privacy anywhere or is it aspirational"
    if _quoted_in_its_script(read, wanted):
        return False  # "a project called مشروع الواحة in the wiki": its name, as written
    if _romanised_whole(read, message):
        return False  # "and mashrou alwaha is desert water sources right?": its name too
    if _beyond(message.outside_near(read.sequence), read, vocabulary):
        return True  # "an expense policy for a five-person bakery"
    if _beyond(message.purposes_near(read.sequence), read, vocabulary) and not message.asks_held:
        return True  # "drone survey rules for wedding photographers"; not "is there a page"
    if numbered(read.sequence, message) and not unmentioned(message.names, row, read, message):
        return False  # "hiring plan 2026 which roles are we opening"
    if kind_said(read, row.type or "", message):
        return False  # "the wasserstandsmonitor project - does it report droughts?"
    if opened_for_ours(read, message, vocabulary):
        return False  # "launch checklist for the next beacon release? want to add a line"
    if read.title and read.title <= message.wanted and _asks_for_writing(message):
        return False  # "idempotency keys for photo uploads, do we have a writeup"
    if (row.type or "") in _OWN_TYPES and plain_title(read.sequence) in message.opened:
        return False  # "ledger lake nightly job - when does it kick off?"
    if (
        (row.type or "") != "concept"
        and plain_title(read.sequence) in message.definite
        and not unmentioned(message.names, row, read, message)
        and not (dated and message.dates and not agree(dated, message.dates))
    ):
        return False  # "does the remote work policy allow working from abroad?"
    foreign = unexplained(asked & message.stems_near(read.sequence), read, message)
    anyones = (before and before <= THEIRS) or after_another_thing(read, message)
    if anyones and not message.asks_held:
        return len(foreign) >= 1
    return len(foreign) + len(foreign & message.capitalised) >= ELSEWHERE_WORDS


NO_ENGLISH_WORDS = 3
"""Words of its own, beside a title, that a message in a language :func:`.words.other_language`
does not know needs, none of them English, before its words explain nothing."""


def _in_no_english(read: RowWords, message: Message) -> bool:
    """The message, in Latin letters, says a title's words and :data:`NO_ENGLISH_WORDS` or more
    others, and no English function word but the title's own (:attr:`.message.Message.english`:
    "work" of *Remote work policy*): written in a language the gate has no words of ("Annual
    report 2025 dehan saida kona-ba ita-nia tinan primeiru?", Tetum; "hiring plan 2027 quanti
    posti novi xe previsti?", Venetian; "nanu ya ing makasulat keng remote work policy?",
    Kapampangan), whose words say nothing of whether the title is used about something else."""
    title = set(read.sequence)
    if not message.english <= title:
        return False
    own = [w for w in message.sequence if w not in title and not w.isdigit()]
    return len(own) >= NO_ENGLISH_WORDS and all(w.isascii() for w in own)


def _beyond(things: frozenset[str], read: RowWords, vocabulary: TitleVocabulary | None) -> bool:
    """A thing the message gives as the writer's own or as what a title is for that neither
    the row nor any of this brain's titles (its vocabulary) holds: a thing the titles hold is
    no thing outside the brain ("fernseed classifier accuracy + latency numbers, for a grant
    report", in a brain with grant reports), as a word common in any brain's titles is none
    (:mod:`.outside`)."""
    return any(
        t not in read.body and (vocabulary is None or t not in vocabulary.df) for t in things
    )


_ANY_ONE = frozenset("un una une uno ein eine einen einem einer een um uma ett egy".split())  # noqa: SIM905
"""The indefinite articles of other languages in Latin letters, which give a thing as any one."""


def _mine_without_notes(read: RowWords, message: Message) -> bool:
    """The words of a title "... notes", but "notes", right after "my": the writer's own
    thing the notes are about ("my book club", "my office move"), not this brain's notes."""
    t = read.sequence
    if len(t) < 3 or t[-1] != "notes" or set(t) <= message.said:
        return False
    return "my" in words_before(t[:-1], message.sequence)


def _quoted_in_its_script(read: RowWords, wanted: set[str]) -> bool:
    """A title written wholly in a script other than Latin, said whole in a message whose
    other words (``wanted``: :meth:`.message.Message.wanted_by` the row) are all in Latin
    letters, accented or not ("Hvað stendur á 野生动物走廊 síðunni?"): the
    page's name quoted as it is written ("what does the 环境监测平台 collect"), never words of
    the writer's own language used about something else."""
    title = read.title
    if not title or any(s.isascii() for s in title):
        return False
    return title <= wanted and all(in_latin_script(s) for s in wanted - title)


def _romanised_whole(read: RowWords, message: Message) -> bool:
    """A title written wholly in another script than Latin, said in Latin letters (its
    slug's, or its Cyrillic and Greek words retyped: :func:`.rowwords.latin_form`), two words
    or more side by side ("huanjing jiance - water quality?" for *环境监测平台*): a name as
    people type it, never words used about something else."""
    if not read.latin or any(s.isascii() for s in read.title):
        return False
    return phrase_in(read.latin, message.sequence)


def unmentioned(names: set[str], row: SearchRow, read: RowWords, message: Message) -> set[str]:
    """The names of the message the row never mentions, but for an acronym its summary
    writes out ("PRs": "pull request"), the people the message is addressed to ("@Tomas") and,
    in a message in another language, a capitalised name that is a word the row holds with an
    ending of that language (:func:`_inflected`: "Beaconas", Karelian, for *Beacon*)."""
    unsaid = names - read.body - message.mentioned
    if unsaid and (message.other_language or not message.english):
        unsaid = {u for u in unsaid if u not in message.capitalised or not _inflected(u, read.body)}
    if not unsaid:
        return unsaid
    written = initials_in(message.text)
    forms = {u: {u, u.removesuffix("s")} & written for u in unsaid}
    out = spelt_out(set().union(*forms.values()), summary_text(row))
    return {u for u, f in forms.items() if not f & out}


def _inflected(name: str, body: set[str] | frozenset[str]) -> bool:
    """The name is a word of the row's, four letters or more, with up to
    :data:`.message.INFLECTED_ENDING` letters of an ending after it."""
    return any(
        len(b) >= 4 and 0 < len(name) - len(b) <= INFLECTED_ENDING and name.startswith(b)
        for b in body
    )


class Reading(NamedTuple):
    """What the gate reads of one row against this message."""

    wanted: set[str]
    """The message's stems for this row."""
    asked: set[str]
    """The distinctive ones."""
    row: RowWords
    elsewhere: bool
    """Whether the message uses the row's title about something else."""
    spelt: set[str]
    """``wanted`` with a slip of the title mended (:func:`_mended`)."""
    common: bool
    """The message has the words of the row's name only as a common noun, or gives the
    person's first name to someone else: they name nothing here and back no row."""


def reading_of(
    row: SearchRow,
    message: Message,
    vocabulary: TitleVocabulary | None,
    row_words: RowWords | None = None,
) -> Reading:
    words_ = row_words or RowWords.of(row)
    wanted = message.wanted_by(row, words_)
    asked = {s for s in wanted if is_distinctive(s, vocabulary)}
    elsewhere = _elsewhere(row, words_, wanted, asked, message, vocabulary=vocabulary)
    spelt = _mended(row, wanted, message, words_)
    common = _as_common_noun(row, words_, message) or (
        (is_person(row) or _volunteered_person(row))
        and _borne_by_another(words_, message, vocabulary, spelt, _name_of(row, words_))
    )
    if common and len((asked - GENERIC_STEMS - words_.title) & words_.body) >= COMMON_UNLESS:
        common = False  # "when does marulas contract renew", "¿Lucía sigue coordinando…?"
    return Reading(wanted, asked, words_, elsewhere, spelt, common)


def spent_words(readings: Iterable[Reading], message: Message) -> frozenset[str]:
    """Words of titles the message holds whole but uses about something else or opens with set apart
    (:attr:`.message.Message.set_apart`), two or more of a title it uses about something else when
    only they tie its row to the message ("data retention for whatsapp backups" is not about the
    person whose page says she audits data retention), of a name's title it uses as a common noun,
    of a lettered title it gives as any one's ("how much did mistral raise in their series A") or,
    in English, spells as another language does ("who won serie a last season":
    :func:`.naming.spelt_otherwise`), and a first name it gives to someone else: they back no row
    ("a field handbook for the camping trip" names neither *Field Handbook* nor the writer whose
    page says she writes it; "a haiku about a kestrel" is not about the founder whose page names
    *Kestrel Works*; "samuel l jackson's first big movie" is not about the conservancy whose head
    ranger is *Samuel Mwangi*)."""
    spent: set[str] = set()
    for reading in readings:
        title = reading.row.title
        if (reading.elsewhere or title == message.set_apart) and title and title <= reading.wanted:
            spent |= title
        elif (
            reading.common
            or _tied_by_title_alone(reading)
            or (
                is_lettered(reading.row)
                and (
                    designated(reading.row, message, anyones=True)
                    or spelt_otherwise(reading.row, message)
                )
            )
        ):
            spent |= title & reading.wanted
    return frozenset(spent)


def _tied_by_title_alone(reading: Reading) -> bool:
    """The message uses the row's title about something else, and two or more of the title's
    words are all that tie the row to it (the same reading keeps the row itself from being named
    by its title's words or backed by them: :func:`.gate._tier`)."""
    title = reading.row.title
    return (
        reading.elsewhere
        and len(title & reading.wanted) >= 2
        and not (reading.row.body & reading.asked) - title - GENERIC_STEMS
    )


def _mended(row: SearchRow, wanted: set[str], message: Message, read: RowWords) -> set[str]:
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


def _slipped_in_place(read: RowWords, message: Message, dated: set[str]) -> bool:
    """The title's words but its date's, side by side in the message as in the title, one
    of them a slip off."""
    t = tuple(w for w in read.sequence if stem(w) not in dated and not w.isdigit())
    m = message.sequence
    return any(_slips_between(t, m[i : i + len(t)]) == 1 for i in range(len(m) - len(t) + 1))


def count_backing(backing: set[str]) -> int:
    """Supporting words, counted. Words that go with anything (``GENERIC_WORDS``: "keep",
    "last", "two") back a row only beside one that does not: "undo my last commit but keep
    the changes" is not about a design review that decided "to keep per-field
    last-writer-wins"."""
    return len(backing) if backing - GENERIC_STEMS else min(len(backing), 1)


def backing_words(held: set[str], wanted: set[str], vocabulary: TitleVocabulary | None) -> set[str]:
    """The message's distinctive words the row holds (``held``), and those whose kin it holds
    when the word or its kin is distinctive (:mod:`.kin`: "phone builds" for "mobile builds",
    "work from home" for "remotely")."""
    found = {s for s in held & wanted if is_distinctive(s, vocabulary)}
    found.update(
        s
        for s, kin in kin_in(wanted, held).items()
        if any(is_distinctive(k, vocabulary) for k in (s, *kin))
    )
    return found


def support_of(read: RowWords, wanted: set[str], vocabulary: TitleVocabulary | None) -> int:
    """The message's words backing the row's title and summary (:func:`backing_words`), counted."""
    return count_backing(backing_words(read.backing, wanted, vocabulary))
