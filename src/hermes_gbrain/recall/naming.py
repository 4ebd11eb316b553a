"""Whether the message names a row's page: tier 1 of the gate (:mod:`.gate`).

By its title's words (whole, as a phrase, after a label, dated), by a word of a name that no
other title holds, by a word and a letter, or by a form of address.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..api import SearchRow
from .dates import agree, date_marks, is_date_stem, is_periodic
from .kin import kin_in
from .message import Message
from .named import HOLDS_WORDS, LONE_TYPES
from .rowwords import RowWords, is_person
from .vocabulary import TitleVocabulary, is_distinctive
from .words import (
    FORMS_OF_ADDRESS,
    GENERIC_STEMS,
    STOP_WORDS,
    content_stem,
    content_stems,
    fold,
    is_unspaced,
    stem,
    words,
)

__all__ = [
    "THEIRS",
    "WHOLE_TITLE_WORDS",
    "addressed",
    "after_another_thing",
    "designated",
    "explained",
    "held_by_another",
    "held_by_name",
    "identified",
    "is_lettered",
    "kind_said",
    "label_and_part_set_apart",
    "label_and_rest_said",
    "lone_name",
    "names_said_whole",
    "opened",
    "opened_for_ours",
    "quoted_from",
    "spelt_otherwise",
    "status_asked",
    "summarised",
    "title_named",
    "unexplained",
    "words_before",
    "written_about",
]

WHOLE_TITLE_WORDS = 4
"""Words a title needs (its date's and numbers aside) before, said whole, it is too
particular to be ordinary words about something else ("incident report on the collar
battery drain - what was the root cause?")."""
DATED_PRESENT = 2
"""Words of a dated title (besides the date) the message must hold before the title's word
for what the page holds ("meeting", "notes") may be left out (:func:`_dated`)."""
_SPARABLE = frozenset(stem(w) for w in HOLDS_WORDS)
"""What a dated page holds, said or not: "feb monthly planning" is the meeting."""


def addressed(read: RowWords, message: Message) -> bool:
    """A word of a person's name right after a form of address ("Herr Müller", "dr
    okafor"): the message names them, whatever else it asks."""
    return any(
        first in FORMS_OF_ADDRESS and after in read.sequence
        for first, after, how in message.adjacent
        if how != "initial"
    )  # both read folded (:func:`.words.words`, :func:`.words.words_and_marks`)


def _places(run: Sequence[str | None], said: Sequence[str | None]) -> list[int]:
    """Where ``run`` stands in ``said``, whole and in order: the index of its first word at
    each place (none for an empty ``run``)."""
    run, said = tuple(run), tuple(said)
    if not run:
        return []
    return [i for i in range(len(said) - len(run) + 1) if said[i : i + len(run)] == run]


class _Place(NamedTuple):
    """One place a run of words stands in the message: the three words before it, nearest
    first, and the four after it ("" past either end), which the rules below read."""

    before: tuple[str, str, str]
    after: tuple[str, str, str, str]


def _placed(run: Sequence[str], said: Sequence[str]) -> list[_Place]:
    """Each place ``run`` stands in ``said`` (:func:`_places`), with the words around it."""
    n, m = len(run), ("", "", "", *said, "", "", "", "")
    return [
        _Place(
            (m[i + 2], m[i + 1], m[i]),
            (m[i + n + 3], m[i + n + 4], m[i + n + 5], m[i + n + 6]),
        )
        for i in _places(run, said)
    ]


def phrase_in(title: str, m: tuple[str, ...]) -> bool:
    """The title's words, in order and contiguous, inside the message's (``m``)."""
    t = tuple(words(title))
    return len(t) >= 2 and bool(_places(t, m))


_PIECES = frozenset(
    "para paras paragraph paragraphs section blurb slide sentence sentences writeup liner post"  # noqa: SIM905
    " posts article articles explainer explainers primer".split()
)
"""Pieces of writing a message asks for on a subject ("a para on driftwood sync", "a
one-liner on …", "a blog post on offline first design", "occupancy modelling explainer for
the citizen science group")."""
_ASPECTS = frozenset({"basics", "tradeoffs"})
"""What of a subject a message asks for, right after its title ("low-power radio basics for a
community explainer", "on-device inference tradeoffs in 2-3 bullets"): the subject itself."""


_ONE_PIECES = frozenset({("one", "liner"), ("one", "pager")})
"""Pieces of writing said in two words ("… one-liner", "architecture overview one-pager")."""


def written_about(title: tuple[str, ...], message: Message) -> bool:
    """The title, two words or more, stands right after a piece of writing and "on" or
    "about" ("the tech annex needs a para on driftwood sync"), or right before a piece or
    what of it is asked (:data:`_ASPECTS`) but not after "a" ("annual report 2025 one-liner
    for my intro slide", "low-power radio basics for a community explainer"; "a zero trust
    networking writeup for my blog" is one of the writer's own): the writer asks for text
    on the thing the page is about, whatever the text is for."""
    return len(title) >= 2 and any(
        (b[0] in ("on", "about") and b[1] in _PIECES)
        or (_piece_after(a) and b[0] not in ("a", "an"))
        for b, a in _placed(title, message.sequence)
    )


def _piece_after(after: Sequence[str]) -> bool:
    """A piece of writing, or what of the subject is asked, right after the title ("…
    blurb", "… one-liner", "… basics")."""
    return after[0] in _PIECES or after[0] in _ASPECTS or tuple(after[:2]) in _ONE_PIECES


def label_and_rest_said(title: str, unlabelled: str, message: Message) -> bool:
    """A labelled title's label and what follows it both stand whole in the message, each in
    its order, in either order ("the mom test reading notes", "my reading notes on the mom
    test" for *Reading notes: The Mom Test*): the page, named in the writer's own order."""
    if not unlabelled:
        return False
    label = tuple(words(title.partition(":")[0]))
    return bool(_places(label, message.sequence)) and phrase_in(unlabelled, message.sequence)


def label_and_part_set_apart(title: str, unlabelled: str, message: Message) -> bool:
    """A sentence of the message opens, set apart, with a labelled title's label whole and
    a word of what follows it, and nothing else ("okavango travel notes — what's the
    route?" for *Travel notes: Okavango visit*): the page, named short."""
    if not unlabelled:
        return False
    label = set(words(title.partition(":")[0]))
    rest = set(words(unlabelled))
    return any(
        label <= set(heading) <= label | rest
        and len(set(heading)) == len(heading)
        and bool(set(heading) - label - STOP_WORDS)  # "the reading notes —" names no book
        for heading in message.headings
    )


def _name_like(title: str, word: str, message: Message, asked: set[str]) -> bool:
    """A one-word title is named by itself only as a name: capitalised inside the
    message's sentence, written as no ordinary word is ("DuckDB", "iOS", a run of an
    unspaced script), the only thing the message asks about ("Geofencing?"), set apart at
    the opening of a sentence (:attr:`.message.Message.headings`: "backpressure - where do we
    apply it?"), or asked for as a page ("open the
    glossary page": :func:`paged`)."""
    if word in message.names or is_unspaced(word[:1]) or asked <= {word}:
        return True
    if tuple(words(title)) in message.headings or paged(tuple(words(title)), message):
        return True  # "oh and geofencing — …": a sentence's opening, past its lead-in
    surface = title.strip(" \t\"'.,:;!?()[]")
    return not (surface.isalpha() and surface[1:].islower())


_DEFINITE = frozenset({"the", "our"})
"""Words that, right before a title of two words or more, say it is one thing the writer and
the brain both know; whether the message uses it about something else is read before
(:func:`.readings.reading_of`)."""
_BELONGS = frozenset({"of", "for"})
"""Words that, right after "page", say whose page it is: someone else's ("the keystone auth
page of my blog host")."""
_PAGE_WORDS = frozenset({"page", "doc", "wiki", "writeup"})
"""Words that, right after a title, say the message asks for the brain's page of that title."""
_SAYS = frozenset(
    """
    says said mentions mentioned lists covers recommends suggests claims states describes
    explains
    """.split()  # noqa: SIM905 - a word list reads better as text
)
"""Verbs of what a text says, right after a title: the message speaks of the page's words."""


def paged(title: tuple[str, ...], message: Message) -> bool:
    """The title's words stand right before "page", "doc", "wiki" or "writeup" ("open the
    glossary page pls"): the message asks for the page by its title, whatever its words are."""
    return any(a[0] in _PAGE_WORDS for _, a in _placed(title, message.sequence))


def page_asked(title: tuple[str, ...], message: Message) -> bool:
    """:func:`paged`, and the page is no one else's: not followed by "of" or "for" ("the
    keystone auth page of my blog host")."""
    return any(
        a[0] in _PAGE_WORDS and a[1] not in _BELONGS for _, a in _placed(title, message.sequence)
    )


def opened(title: tuple[str, ...], message: Message) -> bool:
    """The title, two words or more, stands right after "open" (or "open the", "open our",
    "open up"): "can u open weekly planning notes, monday meeting in 10 min" asks for the
    page, whatever the rest is about."""
    return _right_after(title, message, frozenset({"open"}))


def explained(title: tuple[str, ...], message: Message) -> bool:
    """The title, two words or more, stands right after "explain" or "describe" (or "explain
    the", "explain our"): "explain poacher alerts in two sentences for a donor who isn't
    technical" asks what that is, whoever the answer is for. Read for the brain's projects
    only: a concept is explained for homework too ("explain vector clocks to me like i'm
    cramming"); "summarise" is read for any title (:func:`summarised`)."""
    return _right_after(title, message, _EXPLAIN)


def summarised(title: tuple[str, ...], message: Message) -> bool:
    """The title, two words or more, stands right after "summarise" (or "summarise the",
    "summarise our"): one summarises a text, so "can u summarise offline-first design in 2
    lines for a customer deck" asks for the brain's page, a concept's too, whoever the summary
    is for; so does a title right before how short to put it (:data:`_BRIEF`: "roadmap 2026 in
    one line for the newsletter"), "explained" between them or not ("offline first design
    explained in 3 sentences for a reel voiceover")."""
    return _right_after(title, message, _SUMMARISE) or (
        len(title) >= 2
        and any(
            b[0] not in _EXPLAIN and _brief(a[1:] if a[0] == "explained" else a)
            for b, a in _placed(title, message.sequence)
        )
    )


def _brief(after: Sequence[str]) -> bool:
    """How short to put it, first of ``after`` ("in one line", "in 2 sentences")."""
    return after[0] == "in" and after[1] in _FEW and after[2] in _BRIEF


_FEW = frozenset("a one two three few 1 2 3".split())  # noqa: SIM905
_BRIEF = frozenset("line lines sentence sentences para paragraph".split())  # noqa: SIM905
"""How long a summary a message asks for right after the title ("roadmap 2026 in one line for
the newsletter", "hybrid logical clocks in 2 sentences"): the page, put short; not after
"explain", which asks about the thing, not the page ("explain vector clocks in 2 lines")."""


def numbered(title: tuple[str, ...], message: Message) -> bool:
    """The title, two words or more and one of them a figure ("hiring plan 2026", "quarterly
    report q2 2026", "release plan for beacon 3.0"), said whole and in order, not after "a",
    another's possessive or "my" and not followed by "of" or "for" ("holiday schedule 2026 for
    uk schools"): a numbered title is one document, so "hiring plan 2026 which roles are we
    opening" asks for the page, whatever else the message wants it for."""
    return (
        len(title) >= 2
        and any(any(c.isdigit() for c in w) for w in title)
        and any(
            b[0] not in _NOT_OURS and a[0] not in _BELONGS
            for b, a in _placed(title, message.sequence)
        )
    )


def status_asked(title: tuple[str, ...], message: Message) -> bool:
    """The title, two words or more, stands right after "status of", "update on", "progress on"
    and the like (or "status of the"): "whats the status of conservancy pilots, need it for my
    pipeline review" asks where the brain's project stands, whatever the answer is for."""
    return len(title) >= 2 and any(
        (b[0] in _OF and b[1] in _STATUS) or (b[0] == "the" and b[1] in _OF and b[2] in _STATUS)
        for b, _ in _placed(title, message.sequence)
    )


_STATUS = frozenset({"status", "update", "progress"})
_OF = frozenset({"of", "on"})


def used_by_us(title: tuple[str, ...], message: Message) -> bool:
    """The title stands right after "we use" (or "we do", "we apply", "we actually use" and
    the like): "do we actually use differential privacy anywhere" asks about the writer's
    team's own practice, which the brain's page on it answers; "how does apple use
    differential privacy" asks about someone else's."""
    return any(
        b[0] in _PRACTISE and (b[1] == "we" or (b[1] in _HEDGES and b[2] == "we"))
        for b, _ in _placed(title, message.sequence)
    )


_PRACTISE = frozenset({"use", "do", "apply", "follow", "practise", "practice", "run"})
_HEDGES = frozenset({"actually", "really", "already", "even", "still", "currently"})


def identified(title: tuple[str, ...], message: Message) -> bool:
    """The title, two words or more, ends the message (or stands before "or") right after "is
    that", "is this" or "is it" ("was" too): "volunteers keep getting locked out of the apps —
    is that keystone auth?" asks whether what it tells of is the brain's thing."""
    return len(title) >= 2 and any(
        b[1] in {"is", "was"} and b[0] in {"that", "this", "it"} and a[0] in {"", "or"}
        for b, a in _placed(title, message.sequence)
    )


_SUMMARISE = frozenset({"summarise", "summarize"})
_EXPLAIN = frozenset({"explain", "describe"})


def _right_after(title: tuple[str, ...], message: Message, verbs: frozenset[str]) -> bool:
    return len(title) >= 2 and any(
        b[0] in verbs or (b[1] in verbs and b[0] in _BETWEEN)
        for b, _ in _placed(title, message.sequence)
    )


_BETWEEN = frozenset({"the", "our", "up"})
"""Words that may stand between such a verb and the title ("open the", "explain our", "open
up")."""


def quoted_from(title: tuple[str, ...], message: Message) -> bool:
    """The title, two words or more, stands right before a verb of what a text says
    (:data:`_SAYS`: "working capital review mentions 90 day receivables — does that matter
    for our retries?"), not after "a", another's possessive or "their" ("the school's
    expense policy says…"), or is asked about with one after "does the" (:data:`_SAY`: "what
    does the remote work policy actually say? … for fire warden cover"): the message speaks of
    what the page says, whatever it asks of it."""
    for b, a in _placed(title, message.sequence):
        if a[0] in _SAYS and b[0] not in {*THEIRS, "s"}:
            return True
        verb = a[1] if a[0] in _HEDGES else a[0]
        if verb in _SAY and b[0] == "the" and b[1] in _DOES:
            return True
    return False


_SAY = frozenset({"say", "mention", "list", "cover", "recommend", "suggest", "state", "describe"})
"""The verbs of :data:`_SAYS` as a question asks with them ("what does the … say")."""
_HEDGES = frozenset({"actually", "really", "even", "still", "exactly"})
"""Words that may stand between the title and such a verb ("does the policy actually say")."""
_DOES = frozenset({"does", "do", "did"})


_KIND_WORDS = {
    "project": frozenset({"project", "projects", "thing"}),
    "decision": frozenset({"decision", "rule"}),
    "runbook": frozenset({"runbook"}),
    "concept": frozenset({"concept", "pattern", "principle", "principles"}),
}
"""The word a writer puts after a page's title to say what kind of page it is, by its type."""


def kind_said(read: RowWords, kind: str, message: Message) -> bool:
    """The title stands right before the word for its page's kind (:data:`_KIND_WORDS`: "the
    wasserstandsmonitor project - does it report droughts?"), or a labelled title's rest
    before that word or a word of its label ("four-day field trips rule, does
    that count travel days?" for *Decision: Four-day field trips*; "collar battery drain
    incident — root cause?" for *Incident report: collar battery drain*), not after "a" or
    another's possessive and not followed by "of" or "for" ("a garden project for my kids"):
    the message names the brain's page of that kind, whatever it wants it for."""
    kinds = _KIND_WORDS.get(kind, frozenset())
    runs = [(read.sequence, kinds), *([(read.rest, kinds | read.label)] if read.rest else [])]
    return any(
        a[0] in said_kind and a[1] not in _BELONGS and b[0] not in _NOT_OURS
        for run, said_kind in runs
        for b, a in _placed(run, message.sequence)
    )


def words_before(t: tuple[str, ...], m: tuple[str, ...]) -> set[str]:
    """The words right before each place the title's words (``t``) stand in the message's
    (``m``)."""
    return {b[0] for b, _ in _placed(t, m) if b[0]}


def names_said_whole(
    rows: Sequence[SearchRow], read: Sequence[RowWords], message: Message
) -> list[set[str]]:
    """The words of each person's name of two words or more that the message holds whole, in
    order ("mei lin wrote the dedup step"): the message names that person."""
    return [
        set(r.sequence)
        for row, r in zip(rows, read, strict=True)
        if is_person(row) and len(r.sequence) >= 2 and _places(r.sequence, message.sequence)
    ]


def held_by_name(read: RowWords, message: Message) -> bool:
    """The title's words stand after a name the row holds, written as its owner's ("tamsin's
    field handbook", "camila's brand refresh" for a page that names Tamsin or Camila): one
    of this brain's own pages, whatever else the message says."""
    t, m = read.sequence, message.sequence
    if len(t) < 2:
        return False
    return any(
        b[0] == "s"
        and bool(b[1])
        and (owner := content_stem(b[1])) is not None
        and owner in read.body
        for b, _ in _placed(t, m)
    )


def held_by_another(read: RowWords, message: Message, *, concept: bool = False) -> bool:
    """The title's words, two or more, stand right before "of" or "from" a thing the row never
    mentions (:attr:`.message.Message.owners`): another's, as :func:`held_by_name` reads this
    brain's own ("the annual report 2025 of the hospital foundation where I am a trustee").
    A ``concept`` is no one's: "from" gives what it is worked out of ("home range estimation
    from the collar fixes"), only "of" whose it is ("the circuit breaker of the building")."""
    t = read.sequence
    if len(t) < 2:
        return False
    ends = {i + len(t) for i in _places(t, message.sequence)}
    return any(
        i in ends and thing not in read.body and not (concept and message.sequence[i] == "from")
        for i, thing in message.owners
    )


def after_another_thing(read: RowWords, message: Message) -> bool:
    """The title's words, two or more, stand right after "the" and a word that can say whose
    or which the thing is and that the row never holds (no function word, number, date or word
    that goes with anything): another's, as after "their" ("is the jaguar brand refresh
    working?"; not "the new brand refresh", "the kestrel brand refresh" beside a page that
    names Kestrel)."""
    t, said = read.sequence, message.sequence
    if len(t) < 2:
        return False
    for b, _ in _placed(t, said):
        if b[1] != "the" or not b[0].isalpha():
            continue
        root = content_stem(b[0])
        if root and root not in GENERIC_STEMS and not is_date_stem(root) and root not in read.body:
            return True
    return False


THEIRS = frozenset({"a", "an", "their", "his", "her", "your"})
"""Words before a title that make it any one's or another's."""
_NOT_OURS = frozenset({*THEIRS, "s", "my"})
"""Words before a title that make it anyone's, another's or the writer's own ("a", "their",
"maya's", "my"), not the brain's page of its kind (:func:`kind_said`)."""


def is_lettered(read: RowWords) -> bool:
    """The title opens with a word and a letter (*Series A Fundraise*)."""
    seq = read.sequence
    return len(seq) >= 2 and len(seq[1]) == 1 and seq[1].isalpha()


def _lettered(read: RowWords, message: Message) -> list[int]:
    """Where the message has a lettered title's word, in any language's spelling of it, right
    before its letter ("Series A", "la serie A", "serie a"): the word's places."""
    head, letter = stem(read.sequence[0]), read.sequence[1]
    said = message.sequence
    return [
        i for i in range(len(said) - 1) if said[i + 1] == letter and stem(fold(said[i])) == head
    ]


def designated(read: RowWords, message: Message, *, anyones: bool = False) -> bool:
    """The message has a lettered title's word and letter side by side, in any language's
    spelling of the word ("Series A target?", "la serie A"): together they name the page,
    whatever else the message asks, and the word alone does not ("¿alguna serie buena?").
    Not after a word that makes them any one's ("dilution in a series A", "their series A"):
    with ``anyones``, whether the message has them so. In English only as the title spells
    the word (:func:`spelt_otherwise`)."""
    said = message.sequence
    return any(
        (message.other_language or said[i] == read.sequence[0])
        and anyones == bool(i and said[i - 1] in THEIRS)
        for i in _lettered(read, message)
    )


def spelt_otherwise(read: RowWords, message: Message) -> bool:
    """A lettered title's word and letter side by side in an English message, the word spelt
    as another language spells it ("who won serie a last season" beside *Series A
    Fundraise*): a thing of the world, not the page."""
    said = message.sequence
    return not message.other_language and any(
        said[i] != read.sequence[0] for i in _lettered(read, message)
    )


def lone_name(
    row: SearchRow,
    read: RowWords,
    asked: set[str],
    message: Message,
    vocabulary: TitleVocabulary | None,
) -> bool:
    """A project's, person's or company's title opens with a word no other title holds,
    and the message has that word and no distinctive word the row lacks: it names the
    page by that word ("remind me what fernseed does" for *Fernseed Classifier*). Not by
    a later word of the title ("the wildlife foundation grant"), save a person's surname
    ("wojcik runs the regression suite?"), nor in the possessive. A name the message opens
    with, set apart by punctuation, names the page whatever else it asks ("halvorsen..
    which fund is he with again"). The word counts as written, with an ending or without
    ("Wojciks Team"), not by its stem alone."""
    kind = row.type or ""
    if vocabulary is None or kind not in LONE_TYPES:
        return False
    if kind != "person" and is_lettered(read):
        return designated(read, message)
    for word in read.sequence if kind == "person" else read.sequence[:1]:
        head = stem(word)
        if head not in asked or not is_distinctive(head, vocabulary) or head in vocabulary.df:
            continue
        if not any(w.startswith(word) for w in message.said if stem(w) == head):
            continue  # a name as written, an ending or not: Kurdish "înê" (Friday) is no *Ines*
        if _possessed(word, message, vocabulary):
            continue  # "katja's dashboard project": hers, not her
        if word == message.topic or (kind == "person" and word in message.who_of):
            return True
        # a Latin name among words of another script: "Fernseed 分类器是谁负责的"
        rest = unexplained(asked, read, message, other_scripts=not head.isascii())
        if not rest or (message.other_language and not message.names - read.body):
            return True  # another language's own words say nothing of what it is about
        if len(rest) == 1 and _stands_alone(word, rest, message, person=kind == "person"):
            return True  # "whos our contact at brightwater", not "baobab trees"
    return False


_DETERMINERS = frozenset("the a an this that these those my your our his her their its".split())  # noqa: SIM905
"""Words that open what a verb acts on ("replay the last song")."""


def _stands_alone(word: str, rest: set[str], message: Message, *, person: bool = False) -> bool:
    """The name's word is a thing the message asks about, with one word besides that its
    page lacks ("did meadowlark send their final invoice"): not when that word stands right
    beside it, which makes the two one thing of another kind ("baobab trees", "driftwood
    craft", "the sky blue"), nor when a determiner follows it, which makes it a verb ("can
    you replay the last song"), nor in a question of how to do something ("how to turn on
    session replay in sentry"). A person's first name makes one thing only with the word
    after it ("maya angelou"): the word before is what the message does with them ("should
    i just ping paulina about it?")."""
    if message.how_to:
        return False
    said = (*message.sequence, "")
    places = [i for i, w in enumerate(said) if w == word]
    for i in places:
        around = (i + 1,) if person else (i - 1, i + 1)
        beside = {content_stem(said[j]) for j in around if j >= 0}
        if beside & rest or said[i + 1] in _DETERMINERS:
            return False
    return bool(places)


def _possessed(word: str, message: Message, vocabulary: TitleVocabulary) -> bool:
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


def unexplained(
    asked: set[str], read: RowWords, message: Message, *, other_scripts: bool = False
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


def _names(
    text: str,
    message: Message,
    wanted: set[str],
    asked: set[str],
    vocabulary: TitleVocabulary | None,
) -> bool:
    """Tier 1 by the title's words: the message holds them all, or they are a phrase of it."""
    title = content_stems(text)
    named = {s for s in title if not s.isdigit()}
    distinctive = sum(1 for s in named if is_distinctive(s, vocabulary))
    if (
        len(title) >= 2
        and title <= wanted  # the whole title, numbers included ("Hiring plan 2026")
        and (distinctive >= 1 or len(title) >= 3 or _nothing_else(title, wanted, message))
    ):
        return True  # or, of ordinary words, and nothing else: "whats on the launch checklist"
    single = distinctive == 1 and len(named) == 1
    whole = distinctive >= 2 or len(named) >= 3 or single
    if single and named <= wanted and len(words(text)) == 1:
        whole = _name_like(text, next(iter(named)), message, asked)
    if named and named <= wanted and whole:
        return True
    # the title as a phrase of the message ("the working capital review")
    if phrase_in(text, message.sequence) and (
        distinctive >= 1 or len(words(text)) >= 3 or message.other_language or message.other_script
    ):
        return True  # or, in another language, a phrase of ours: "launch checklist buat rilis"
        # or borrowed among another script's words: "Ideas list-ын мый эм?" (Komi-Permyak)
    if paged(tuple(words(text)), message):
        return True  # "open the launch checklist page"
    if len(words(text)) >= 2 and message.headline == tuple(words(text)):
        return True  # "launch checklist — pls list all items": the title set apart, whole
    if len(words(text)) >= 2 and words_before(tuple(words(text)), message.sequence) & _DEFINITE:
        return True  # "whats on the launch checklist before we ship": that one, the brain's
    own = {s for s in named if len(s) >= 3 and not is_date_stem(s)} - GENERIC_STEMS
    return _dated(text, title, message, wanted, own)


def _nothing_else(title: set[str], wanted: set[str], message: Message) -> bool:
    """The message asks nothing beside the title: no other word, not generic, in the title's
    script (a writer who changes script gives a name: "Roadmap 2026에서 상반기 주요 항목이
    뭐였죠?"), glossed words aside."""
    latin = all(s.isascii() for s in title)
    rest = wanted - title - GENERIC_STEMS - message.retyped_only
    return not any(s.isascii() == latin for s in rest)


_SOMEONE_ELSES = frozenset({"a", "an", "my", "his", "her", "their", "your", "someone"})
"""Words right after "for" that give a thing to anyone or to someone of the writer's own."""
FOR_LOOK_AHEAD = 3
"""Words after "for" read for what a title is for (:func:`opened_for_ours`)."""


def opened_for_ours(read: RowWords, message: Message, vocabulary: TitleVocabulary | None) -> bool:
    """The message opens with the title, then "for" and things the brain holds: each of the
    :data:`FOR_LOOK_AHEAD` words after it, up to the mark that ends the opening (past
    function words and numbers), that is no generic word is in the page or in two of the
    brain's titles ("launch checklist for the next beacon release?", "geofencing for the
    collars, how does it work"): the page for a thing of this brain, not one for anyone's
    ("launch checklist for a kickstarter campaign", "… for the boat at the river crossing")."""
    title = read.sequence
    said = message.heading if message.heading[: len(title)] == title else message.sequence
    if vocabulary is None or not title or said[: len(title)] != title:
        return False
    after = said[len(title) :]
    if after[:1] != ("for",) or set(after[1:2]) & _SOMEONE_ELSES:
        return False
    own = [w for w in after[1:] if len(w) >= 3 and w not in STOP_WORDS and not w.isdigit()]
    own = own[:FOR_LOOK_AHEAD]
    stems = {content_stem(w) for w in own} - GENERIC_STEMS
    return bool(stems) and all(s in read.body or s in vocabulary.df for s in stems)


def title_named(
    title: str,
    read: RowWords,
    message: Message,
    wanted: set[str],
    asked: set[str],
    *,
    vocabulary: TitleVocabulary | None,
) -> bool:
    """:func:`_names` by the row's title, by its hyphenated words written as one ("oncall
    retro" for *On-Call Retro*), or in Latin letters (:func:`.rowwords.latin_form`: "olga
    smirnova" for *Ольга Смирнова*, "sato yuki" for *佐藤由紀* at ``people/sato-yuki``), or
    by its label and a word of the rest set apart (:func:`label_and_part_set_apart`), or
    opening the message for things the brain holds (:func:`opened_for_ours`)."""
    unlabelled = read.unlabelled if _has_own_word(read.unlabelled, vocabulary) else ""
    return (
        any(
            _names(form, message, wanted, asked, vocabulary)
            for form in (title, read.joined, read.latin, unlabelled)
            if form
        )
        or label_and_part_set_apart(title, read.unlabelled, message)
        or opened_for_ours(read, message, vocabulary)
    )


def _has_own_word(text: str, vocabulary: TitleVocabulary | None) -> bool:
    """``text`` holds a word no other title holds: what follows a label names the page only
    then, not when it is another page's name too ("Status update: Solar Collar")."""
    if not text or vocabulary is None:
        return False
    return any(s not in vocabulary.df and not s.isdigit() for s in content_stems(text))


def _dated(
    text: str, title: set[str], message: Message, wanted: set[str], distinctive: set[str]
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


def _inner_left_out(text: str, missing: set[str], message: Message) -> bool:
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
