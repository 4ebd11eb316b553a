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
   ``exact_lookup`` of the title or slug. The evidence counts only when the message has a word
   of the page (``volunteer_context`` reads the conversation window: its match may be an
   earlier message's), and an alias match on a person's or company's page not when the
   message, in English, gives the name in lowercase, not whole, not as theirs ("kestrel's") and
   not set apart at its opening ("Marula - kedy…"), beside two distinctive words the page never
   holds ("kestrel vs peregrine falcon, which dives faster?", "is amarula made from marula
   fruit?": the bird, the fruit);
1. **named in the message** — every word of its title is in the message (with at least one
   *distinctive* word, or three words, or nothing else asked: "whats on the launch checklist";
   a one-word title only as a name: capitalised inside the sentence, not spelt like an
   ordinary word, or the whole question), or a title of two words or more stands right after
   "the" or "our" ("whats on the launch checklist before we ship"), or the title is a phrase of
   the message, or its words stand right before "page", "doc", "wiki" or "writeup" ("open the
   glossary page pls") or the word for its page's kind ("the wasserstandsmonitor project"), or a
   title's words after a label of ordinary words and a colon are, two
   or more and one of them in no other title ("das Backfill für Ledger Lake" for *Runbook:
   Ledger Lake Backfill*), or the message holds its acronym ("CRDTs"; in lowercase only when
   no word is spelt so: "rrf", not "rag") or the acronym of some of its words beside the others
   ("SSO for conservancy staff"), or its version number beside one of its
   distinctive words ("why did beacon 2.4 slip?" for *Retro notes: Beacon 2.4*), or a capitalised
   name in the message ("Mwangi") is a word of the title of a person or company page (not when
   all the words of a person's name the message holds are of another's it holds whole: "mei lin
   wrote the dedup step" names *Mei Lin*, not *Lin Chen*, by the rules or the judge), or a
   person's, company's or project's Latin name is written in Arabic (Sindhi's letters too) or
   Hebrew letters, in katakana
   or, in any case, in Cyrillic (:mod:`.skeletons`: "من هي ليلى فراهاني؟" for *Leila Farahani*,
   "Расскажи про Надю Петрову" for *Nadia Petrova*, "كيستريل ووركس" for *Kestrel Works*; from
   the title index), or a capitalised word of a Cyrillic title's Latin reading that no other
   title holds ("who is Smirnova again?" for *Ольга Смирнова*; from the title index too), or a
   listed Japanese surname in kanji or a name in katakana before an honorific is a word of one
   person's name only ("森さん" for *Kaito Mori*: :mod:`.honorifics`), and a title's Latin words
   written in katakana or, as they sound, in a script of South Asia are read as those words
   ("ソーラーカラー" for *Solar Collar*, "બીકન એપમાં" for *Beacon App*: :mod:`.brahmic`), and a
   word of a person's, company's or project's name written as two words as that word ("bright
   water ventures", "tomas lind quist"; from the title index). Words are those of any script
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
   the message uses the title about something else: it names nothing the brain knows nor two of
   the rows' titles whole ("occupancy modelling vs raw counts for camera grid"), is not in
   another language in Latin letters (whose own words the row would not explain), the row is no
   person's or company's page, no meeting on a date the message gives nor page of its day or
   week ("standup notes week 14") nor of its month with every other word of its title ("the
   investor update for april"), no project the message asks to have explained ("explain
   poacher alerts in two sentences for a donor"), no decision the message asks whether we took
   ("did we decide to delete raw audio after 30 days?"), no title asked for as a page ("zero trust
   networking page — anything concrete?", not "the … page of my blog host") or said whole in a
   question whether we have it written ("idempotency keys for photo uploads, do we have a writeup"),
   no title right before a verb of what a text says ("working capital review mentions 90 day
   receivables — does that matter for our retries?"), no title the message or one of its sentences
   opens with set apart ("hiring plan 2026 — which roles?"; "weekly release train — …" for
   *Decision: Weekly release train*; "back to work. remote work policy: how many days?"), with its
   label too ("Travel notes: Okavango visit — did they fly?"), no title of four words or more said
   whole (these whatever the message wants the page for: "annual report 2025, need the headline
   numbers for an LP intro"), no title with a figure in it said whole, not another's nor for
   something right after it ("hiring plan 2026 which roles are we opening"), no title but a
   concept's given after "the" when the message names
   nothing the row never mentions ("does the remote work policy allow working from abroad?"), and
   two distinctive, not generic words of the message appear nowhere in the row ("write a remote work
   policy for my cousin's bakery", "my garage circuit breaker won't reset"); one is enough after "a"
   or "their" ("a remote work policy for a 5-person bakery"), none after "our" or "my" (but a
   concept's title after "my" is the writer's own thing: "my circuit breaker"). Such a title's words
   then anchor nothing and back no other row (the writer of the *Field Handbook*, for "a field
   handbook for the camping trip"), nor do two or more words of a title the message uses about
   something else when nothing but the title's words ties the row to it (for "data retention for
   whatsapp backups", the audit owner's page that mentions data retention); only words of the
   message beyond the title's, not generic, in its summary can (tiers 2 and 3);
2. **a distinctive title word, supported** — the message shares a distinctive word
   with the title or slug, and that word is a capitalised name in the message (not a word of
   a title of two or more in another script than Latin, or one its summary writes after an
   article, said without the others: the thing of the world the page is about, "Северному
   морскому пути" beside *Северный маршрут*, "la Patagonia" beside *Informe de campo
   Patagonia*), or a
   second distinctive message word appears in the row's title or summary, or the
   message has no other distinctive word ("Maya?");
3. **content** — no title anchor, but at least two distinctive message words appear
   in the row's title and summary (a paraphrase; three for a page one in twenty of the
   brain's pages links to, :func:`.vocabulary.is_hub`: the brain's own company shares two
   words with any message about work), not only names of the world it mentions
   when the message is wholly in Latin letters (places and things it capitalises, the words
   of the pages it links to: "what time is it in nairobi when it's 3pm in lisbon" is not
   about the freight company that ships between them); on a hybrid GBrain, one word is enough
   for a row among its first three whose ``cosine`` is ``Gate.cosine_margin`` above the
   median cosine of the rows returned (:func:`cosine_floor`), unless it is such a word of
   its title written after an article (the place is close in meaning to any page on it).

A message that gives a thing as the writer's own or as what it is for ("my son", "my
laptop", "for a five-person bakery": :mod:`.outside`) is about that thing. A row that never
mentions it passes only when every word of its title is in the message or the message writes
the title's initials in capitals ("HLC timestamps … for a diel activity analysis"; GBrain's
alias evidence for "Tomas" in "my neighbour Tomas" is not enough), and a title it holds whole is
used about something else ("write a simple expense policy for a five-person bakery"), with
the same exemptions as above. A title of two words or more, but a person's or a company's, said
whole and then given as another's, "of" or "from" one the row never mentions, names nothing
("comments on the annual report 2025 of the hospital foundation where I am a trustee").

A person's or company's page is not named by a message that has its title's words only as a
common noun: after "a" or "an", or in the plural where the title is not, never capitalised
inside the sentence ("how does a kestrel hover?", "do kestrels hover?" are about birds, not
*Kestrel Works*), whatever GBrain's evidence; a company's name of two words or more said whole
is the company's, after "a" too ("a northwind capital call"). Nor is a person's page named by
their first name right before a word that may be another surname ("maya angelou quote" beside *Maya
Okafor*: not a word of the page or of other titles, not a verb, not in a script written
without spaces). Either reading gives way when the page holds two more distinctive words of
the message ("when does marulas contract renew"). A message asking how to
do something ("how do I cache npm deps in github actions?") is answered by no person's page
that it does not name. A message asking for a thing of the world to pick ("recommend a good
ledger app for budgeting", "any good audiobook app for android?":
:attr:`.message.Message.shopping`) is answered only by pages it names (tiers 0 and 1), and the
judge adds none. A word of a person's, company's or project's title that no other
title holds, written as the title writes it (with an ending or not; Kurdish "înê", Friday,
has the stem of *Ines* and is not her name), names the page when the message's other
distinctive words are all in it, or all but one that does not stand beside the name's word,
no determiner follows that word and the message asks no how-to ("whos our contact at
brightwater", not "how old can baobab trees get" or "can you replay the last song"), when
the message opens with it set apart by punctuation ("halvorsen.. which fund is he
with?"), when the message asks who a person is by it ("who's ugo?", "remind me who
wilhelmina is"), or in another language, whose own words say nothing, when the message names
nothing the row never mentions ("wie funktioniert der wasserstandsmonitor genau"); not in
the possessive before a word of the brain's titles ("katja's dashboard" is about the
dashboard; "Katja's role?" about her). A word of a person's name after a form of address
("Herr Müller", "dr okafor") names them. A name's word the message uses as a common noun
backs no other row ("a haiku about a kestrel" is not about the founder of *Kestrel Works*); an
article may stand one word of its kind before it ("an american kestrel", "a blue heron"), and a
project's title is read the same way after an article, not in the plural ("un cóndor andino";
"who puts the collars on the rhinos" is about *Solar Collar*). A first name given to someone
else backs no row either, and a person's name counts only as written ("grid lines" is not *Lin
Chen*). A message that gives someone an age under 18 names no person by a first name or an
alias alone ("sam turns 10 next week, gift ideas?": a child, not *Samuel Mwangi*). A person's
or company's page backed only by its title's words is not named when two
distinctive words of the message are nowhere in it ("blue heron vs great egret"). A capitalised
word a row never mentions still rules it out, unless it is an acronym the row writes out,
however short ("DPAs": "data processing agreements"; "PRs": "pull request"), a person the
message is addressed to ("@Tomas how do the tags merge?") or, in another language, a word of
the row's with an ending of that language ("Beaconas", Karelian, for *Beacon*). "My" before a
concept's title makes it the writer's own thing, not the brain's ("my circuit breaker keeps
tripping").

A message that says one of the brain's titles whole but uses it about something else is about
that thing: no other row passes on its content words alone (tier 3) beside it ("circuit breaker
keeps tripping at the field station when the fridge runs" is not about the engineer whose
page mentions field stations).

A person mentioned as a chat does ("@Nadia", :func:`.words.mentions`) is a name, wherever the
mention stands and however it is written: it says the message is about this brain.

A title in one script inside a message written in another is the page's name, quoted: a title
of a script other than Latin said whole among Latin words is never used about something else,
whatever the writer wants the page for ("a project called مشروع الواحة in the wiki … for one of
my chapters", "what does the 环境监测平台 collect"), and a title in Latin letters among words of
another script is named by its words alone, the others asking nothing beside it ("Roadmap
2026에서 상반기 주요 항목이 뭐였죠?"). Korean joins its particles to the word before, Latin names
too, and they are cut off (:mod:`.words`). Initials a title gives in parentheses are its own
words' ("RAG" names *Retrieval-Augmented Generation (RAG)* beside "my supervisor"). One word of a
note's or a meeting's title, the message's only distinctive word, is chat, not the page's name
("ugh ok, lunch" beside *Recipe notes: team lunch*), unless two of the title's words are said
("tidepool kickoff, when was that?") or the word is capitalised inside the sentence.

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
of the person who writes them says so), and any row may take it wherever GBrain ranks it when
four distinctive words of the message beyond the named titles' back it ("how many pictures a
month do the motion cameras at marula produce" names the conservancy; the page on camera-trap
images holds the rest).

On a message that points back at the conversation ("who's their head ranger?", "when did it
kick off?"), the loose rows that mention what the last turn showed (``subject``: *Marula
Conservancy*) are kept and the others dropped, when the best-backed row is one of them: the
head ranger of another trust is about another subject.

The brain's own company (a company's page much of the brain links to,
:func:`.vocabulary.is_hub`) named beside another page that is named is only where that page is
("What is Ines Carvalho's role at Kestrel?" is about her): it is not shown, by the rules or the
judge, even when that page was shown already.

Supporting words are counted as one while all of them are generic (``GENERIC_WORDS``:
"keep", "last", "two"): such words go with anything ("undo my last commit but keep the
changes" is not about a review that decided "to keep per-field last-writer-wins"). A thing
of the writer's own ("my partner's office") backs no row, whatever the row says of it.

A word is *distinctive* when it is not filler, not a number, not on the list of
ordinary title words ("plan", "capital", "review", "update", "notes", "report",
"trip", …) and — when the profile has a title vocabulary (built with the digest, see
:class:`.vocabulary.TitleVocabulary`) — not in more than 3% of the brain's titles. A single
ordinary word therefore never anchors a row, however GBrain scores it.

Slots the rules leave empty may then be filled by the judge (:mod:`.judge`): a logistic model
over what the gate read of each clean row not yet shown (how many of the message's words its
title and summary hold, GBrain's rank, score and evidence, the rules' tier for it) admits a row
at ``Gate.judge`` probability or more (``GBRAIN_BRIEFING_JUDGE``; the weights are fitted on the
labelled sets by ``bench/judge_fit.py``). It only adds: what the rules picked stays first, and
pages already shown that search returned again count against the slots it may fill.

``evidence`` mode keeps the older rule (no ``weak_semantic`` rows, score at least
``min_ratio`` of the top); ``off`` keeps every clean row. Nothing here logs or
stores message text.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace

from ..api import SearchRow
from .brahmic import in_brahmic_script
from .dates import agree, beside_a_month, date_marks, is_date_stem
from .judge import THRESHOLD as JUDGE_THRESHOLD
from .judge import admitted
from .loose import companion_row, leading_row, tied_rows
from .message import SENTENCE_END, Message, plain_title
from .named import NAME_TYPES, TitleMatcher
from .naming import (
    addressed,
    held_by_another,
    kind_said,
    lone_name,
    names_said_whole,
    phrase_in,
    title_named,
    unexplained,
)
from .readings import (
    ELSEWHERE_WORDS,
    Reading,
    backing_words,
    count_backing,
    reading_of,
    spent_words,
    support_of,
    unmentioned,
)
from .rowwords import RowWords, is_clean, is_person, row_key, slug_words
from .vocabulary import (
    TitleVocabulary,
    is_distinctive,
    is_hub,
)
from .words import (
    ENGLISH_STOP_WORDS,
    GENERIC_STEMS,
    STOP_WORDS,
    abbreviated,
    acronyms,
    content_stem,
    content_stems,
    initials_written,
    prefixes_parted,
    words,
)

__all__ = [
    "DEFAULT_COSINE_MARGIN",
    "DEFAULT_MIN_RATIO",
    "GATES",
    "Gate",
    "cosine_floor",
    "gate_rows",
]


GATES = ("anchored", "evidence", "off")
DEFAULT_MIN_RATIO = 0.3
DEFAULT_COSINE_MARGIN = 0.25
COSINE_TOP = 3
COSINE_MIN_ROWS = 5
"""The median is read only from this many rows with a cosine or more (a hybrid GBrain
returns 20)."""
NAME_OVERRIDE = 3
"""Distinctive words of the message a row's title and summary must hold to pass though it
never mentions a name the message gives (its summary may stop before the name)."""
STRONG_EVIDENCE = frozenset({"exact_title_match", "alias_hit"})
WEAK_EVIDENCE = frozenset({"weak_semantic"})


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
    alone with the margin off (bench/RELEVANCE.md): they inject on no-answer messages."""
    titles: TitleMatcher | None = field(default=None, compare=False, repr=False)
    """Every title of the brain (the digest's title index), for pages the message names
    that search did not return."""
    judge: float | None = JUDGE_THRESHOLD
    """Rows the rules leave out are admitted into empty slots when :mod:`.judge`'s model
    gives them this probability or more (None: off)."""


def _inside_another_name(
    row: SearchRow, read: RowWords, whole: Sequence[set[str]], message: Message
) -> bool:
    """A person's page whose words in the message are all words of another person's name the
    message holds whole (:func:`.naming.names_said_whole`): "mei lin wrote the dedup step"
    names *Mei Lin*, not *Lin Chen*; "Stefan Novak is installing…" names him, not *Olga
    Novak*. Her own name said whole, or the surname alone, still names her."""
    if not whole or not is_person(row):
        return False
    own = set(read.sequence)
    used = own & message.said
    return bool(used) and own not in whole and any(used <= name for name in whole)


def _met(
    rows: Sequence[SearchRow],
    readings: Sequence[Reading],
    message: Message,
    vocabulary: TitleVocabulary | None,
) -> set[str]:
    """Words of a person's or a company's name the message gives in lowercase, whose page
    it names: like a capitalised name (:attr:`.message.Message.known`), they say the message is
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
                and is_distinctive(s, vocabulary)
            }
    return met


def _outside_for(row: SearchRow, words_: RowWords, message: Message) -> frozenset[str]:
    """What the message gives as the writer's own, read against ``row``: for a person's or
    company's name written as a name, only in the sentences that say it ("Oakmoor audit
    prep — who's coming? it's for my AP aging pack"); a thing of the writer's own in another
    sentence is not what the name is. Written in lowercase, a name's word may be an ordinary
    one ("the party at the conservancy … my daughter"), and the whole message counts."""
    if not message.outside_by_sentence:  # one sentence, or no such thing: nothing to narrow
        return message.outside
    said = words_.title & message.wanted
    if (
        said
        and ((row.type or "") in NAME_TYPES or row.evidence == "alias_hit")
        and said <= message.written_capitalised
    ):
        return message.outside_near(words_.sequence)
    return message.outside


def _tier(
    row: SearchRow,
    message: Message,
    vocabulary: TitleVocabulary | None,
    min_cosine: float | None = None,
    spent: frozenset[str] = frozenset(),
    *,
    reading: Reading | None = None,
) -> int | None:
    """0-3 as in the module docstring (lower is stronger); None when unanchored.
    ``reading``: :func:`.readings.reading_of` of the row, when the caller has it already."""
    if row.exact_lookup in ("title", "slug"):
        return 0
    reading = reading or reading_of(row, message, vocabulary)
    wanted, asked, words_, elsewhere, spelt, common = reading
    title, body = words_.title, words_.body
    apart = bool(_outside_for(row, words_, message) - body)
    seq = words_.sequence
    alias = row.evidence == "alias_hit" and len(seq) < 2 and not row.title.isupper()
    whole = (_said_whole(reading, message) and not alias) or (alias and _slug_said(row, message))
    if apart and not (whole or initials_written(message.text, row.title)):
        return None  # "my neighbour Tomas"; "my brother sam": a one-word alias is no name,
        # but for an acronym ("Need our CRDT notes for a blog post")
    if is_person(row) and message.relatives & set(words_.sequence) and not whole:
        return None  # "friend Maya turns 30", "Moja sotra Maya": the writer's own Maya
    if message.child and (
        (alias and row.type in (None, "person"))
        or (is_person(row) and not set(seq) <= message.said)
    ):
        return None  # "sam turns 10 next week, gift ideas?": a child, not *Samuel Mwangi*
        # (a volunteered alias hit carries only the alias, "sam", and no type)
    if (row.type or "") not in NAME_TYPES and held_by_another(
        words_, message, concept=row.type == "concept"
    ):
        return None  # "the annual report 2025 of the hospital foundation where I am a trustee"
    if common:
        return None  # "how does a kestrel hover?", "maya angelou quote": not these pages
    if _glossed(words_, message):
        return None  # "Родезиялық риджбек (ridgeback) күшігі": the word, glossed
    if _a_company_word_abroad(row, words_, message):
        return None  # "ગુજરાતમાં બગલા અને heron પક્ષીઓ": birds, not *Blue Heron Logistics*
    if (
        message.how_to
        and not message.who
        and is_person(row)
        and not (title | content_stems(words_.latin)) & wanted
    ):
        return None  # "how do I cache npm deps in github actions?" asks no one who set it up
        # ("olga smirnova … how do i reach her?" names *Ольга Смирнова* in Latin letters)
    if row.evidence == "alias_hit" and _another_thing(row, reading, message, vocabulary):
        return None  # "kestrel vs peregrine falcon, which dives faster?": the bird
    if row.evidence in STRONG_EVIDENCE and body & message.wanted:
        return 0  # not when no word of the message is the page's: an earlier turn's match
    if is_person(row) and addressed(words_, message):
        return 1  # "Wofür ist Herr Müller zuständig?"
    if message.acronyms and message.acronyms & acronyms(row.title):
        return 1  # "CRDTs" for Conflict-free Replicated Data Types
    if message.acronyms and any(
        rest <= message.wanted for rest in abbreviated(row.title, message.acronyms)
    ):
        return 1  # "SSO for conservancy staff" for Single sign-on for conservancy staff
    if message.versions & words_.versions and any(
        is_distinctive(s, vocabulary) for s in title & wanted
    ):
        return 1  # "beacon 2.4" for Retro notes: Beacon 2.4, about it or not
    if elsewhere and not (body & asked) - title - GENERIC_STEMS:
        return None  # only the title's own words tie it to a message about something else
    if not elsewhere and title_named(
        row.title, words_, message, spelt, asked, vocabulary=vocabulary
    ):
        return 1
    if not elsewhere and plain_title(seq) in message.compared:
        return 1  # "backpressure vs circuit breaker, quick difference?"
    if not elsewhere and lone_name(row, words_, asked, message, vocabulary):
        return 1  # "how much did brightwater put in" for *Brightwater Ventures*
    if not elsewhere and kind_said(words_, row.type or "", message):
        return 1  # "the wasserstandsmonitor project - does it report droughts?"
    names, wanted = message.names, wanted - spent
    backing = backing_words(body, wanted, vocabulary)
    support = count_backing(backing - message.outside)  # "my phone", "my partner": not ours
    if support == 1 and message.phrases & words_.phrases:
        support = 2  # "who's building the charging board?": a phrase of the page's summary
    if support < NAME_OVERRIDE and unmentioned(names, row, words_, message):
        return None  # the message names something this row never mentions
    said_of_title = (title | words_.tail) & wanted
    anchors = {s for s in said_of_title if is_distinctive(s, vocabulary)}
    anchors -= _month_alone(said_of_title, asked)
    if (row.type or "") in NAME_TYPES:  # a name as written: "grid lines" is not *Lin Chen*
        written = (*words_.sequence, *words(words_.latin))  # "Smirnova" for *Ольга Смирнова*
        anchors &= {content_stem(w) for w in written if w in message.said} | spelt - wanted
    if anchors & names and (row.type or "") in NAME_TYPES:
        return 1  # a capitalised name in the message is a word of a person's title ("Mwangi")
    if (
        (row.type or "") in NAME_TYPES
        and not anchors & names
        and not (is_person(row) and message.someone)  # "okafor's prefs — she's not into …"
        and _beside_another(words_, backing, asked, message)
    ):
        return None  # "blue heron vs great egret": the name's words and others it never holds
    if not whole and _anothers_make(words_, message, vocabulary):
        return None  # "Ford Ranger tu elok …", "Cary Grant ka filimu": another maker's, another's
    if anchors & names and _part_of_a_place(row, words_, anchors & names, message):
        names = set()  # "Сколько дней идёт судно по Северному морскому пути?"
    if _a_word_among_another_script(row, title, anchors & names, message):
        names = set()  # "Гунибалде ине ккола — hiking ботинкаби …": boots, not the hike notes
    alone = asked <= anchors and (
        (row.type or "") not in _NOTE_TYPES
        or _two_words_said(words_, message)
        or bool(anchors & names)
    )
    if anchors and (anchors & names or support >= 2 or alone):
        return 2  # backed by a name, a second word, or the message is just the name
    needed = 3 if is_hub(row.linked_from, vocabulary) else 2  # a hub: the brain's own company
    if support >= needed and not _only_names(backing, words_, message):
        return 3
    if (
        min_cosine is not None
        and support == 1
        and (row.cosine or 0.0) >= min_cosine
        and not backing <= words_.placed  # "la Patagonia": the place, close to any page on it
    ):
        return 3  # one supporting word and a close embedding (a lexical or a vector row)
    return None


def _anothers_make(read: RowWords, message: Message, vocabulary: TitleVocabulary | None) -> bool:
    """Every word of the title the message says stands capitalised right after a capitalised
    word that neither the row nor any of the brain's titles holds (:attr:`.message.Message.
    made_by`): the product of another maker ("Ford Ranger tu elok untuak jalan tanah?" beside
    *Ranger roster*, in Minangkabau; "Cary Grant ka filimu" beside *Grant Applications*), not a
    word of the brain's."""
    if not message.made_by:
        return False
    said = {s for s in read.title & message.wanted if not s.isdigit() and not is_date_stem(s)}
    made = {
        thing
        for maker, thing in message.made_by
        if maker not in read.body
        and maker not in read.title
        and (vocabulary is None or maker not in vocabulary.df)
    }
    return bool(said) and said <= made


def _a_word_among_another_script(
    row: SearchRow, title: set[str], named: set[str], message: Message
) -> bool:
    """The one word of a title of two words or more that a message in another script writes in
    Latin letters, all in lowercase, and no other word of that title: a word of English among
    its own ("विवाहसमारोहे drone …", "… किं app श्रेष्ठम्?"), not the name a capitalised word
    is ("Beacon 3.0的发布计划…"), nor the title's words ("field trip တစ်ခါ…"), when the row
    names no one."""
    if len(named) != 1 or (row.type or "") in NAME_TYPES:
        return False
    undated = {s for s in title if not s.isdigit() and not is_date_stem(s)}
    if len(undated) < 2 or named & (message.capitalised | message.mentioned):
        return False
    if named & message.latin_capitalised:
        return False  # "Tidepool 仪表盘…": written as a name is, if at the sentence's start
    return len(undated & message.latin) < 2


def _month_alone(said_of_title: set[str], asked: set[str]) -> set[str]:
    """The title's month (or other date word) when the message gives none of the title's own
    words beside it and asks about more than the month: "who led the bridge note in January?"
    is not about *Monthly planning meeting, January 2026*; "may's monthly planning" and, after
    one, "and the May one?" are."""
    months = {s for s in said_of_title if is_date_stem(s)}
    if not months or _own_words(said_of_title) or not _own_words(asked):
        return set()
    return months


def _own_words(stems: set[str]) -> set[str]:
    """Stems that are no date, number or word that goes with anything (``GENERIC_WORDS``)."""
    return {s for s in stems if s not in GENERIC_STEMS and not is_date_stem(s) and not s.isdigit()}


def _own_company(row: SearchRow, vocabulary: TitleVocabulary | None) -> bool:
    """The brain's own company: named beside another page, it is only where that page is."""
    return (row.type or "") == "company" and is_hub(row.linked_from, vocabulary)


_NOTE_TYPES = frozenset({"note", "meeting"})
"""Pages titled in ordinary words ("Recipe notes: team lunch"): one word of their title alone
is chat ("ugh ok, lunch"), not their name, unless capitalised inside the sentence or said beside
another word of the title."""


def _two_words_said(read: RowWords, message: Message) -> bool:
    """Two of the title's words, not function words, are in the message ("tidepool kickoff,
    when was that?", "thinking in systems notes"), not one ("ugh ok, lunch")."""
    return len({w for w in read.sequence if w in message.said and w not in STOP_WORDS}) >= 2


def _part_of_a_place(row: SearchRow, read: RowWords, named: set[str], message: Message) -> bool:
    """A capitalised word of a title of two words or more, not a person's or company's,
    without the title's other words, written in another script than Latin or after an
    article in the page's own summary: a place or a thing of the world the page is about,
    said of itself ("Северному морскому пути", the Northern Sea Route, beside *Северный
    маршрут*; "la Patagonia" beside *Informe de campo Patagonia*)."""
    return (
        (row.type or "") not in NAME_TYPES
        and len(read.title) >= 2
        and not read.title <= message.wanted
        and (named <= read.placed or not any(s.isascii() for s in named))
    )


def _only_names(backing: set[str], read: RowWords, message: Message) -> bool:
    """Only names of the world the row mentions back it ("Lisbon", "Nairobi"), two of
    them, in a message wholly in Latin letters: "what time is it in nairobi when it's 3pm
    in lisbon" is about the cities, not about the freight company that ships between them."""
    named = backing & read.names
    return 0 < len(named) < 3 and backing <= named and all(s.isascii() for s in message.wanted)


def _said_whole(reading: Reading, message: Message) -> bool:
    """Every word of the row's title is in the message, as written or misspelt by a slip
    (:attr:`.readings.Reading.spelt`: "tomas lindqvst bio pls, … for the conference
    programme" says *Tomas Lindqvist* whole), but for its English function words, which a
    writer drops ("mom test reading notes, main takeaway? reworking my interview guide" says
    *Reading notes: The Mom Test* whole)."""
    mended = reading.spelt - reading.wanted
    seq = reading.row.sequence
    meant = [w for w in seq if w not in ENGLISH_STOP_WORDS] or seq  # a title of them all: all
    return all(w in message.said or content_stem(w) in mended for w in meant)


def _slug_said(row: SearchRow, message: Message) -> bool:
    """The words of the row's slug, two or more, stand whole and in order in the message: a
    volunteered row GBrain labels by one word of its page ("Samuel") named whole ("samuel
    mwangi asked for something about photos at dawn? context for a ticket")."""
    return phrase_in(slug_words(row.slug), message.sequence)


def _another_thing(
    row: SearchRow, reading: Reading, message: Message, vocabulary: TitleVocabulary | None
) -> bool:
    """GBrain matched a word of a person's or company's name (``alias_hit``) that the
    message gives in lowercase, not whole, not as theirs ("kestrel's") and not set apart at
    its opening (:attr:`.message.Message.heading`: "Marula - kedy sa obnovuje zmluva?"), in
    English, beside two distinctive words the page never holds: the word names something
    else ("kestrel vs peregrine falcon", "is amarula made from marula fruit?")."""
    if (row.type or "") in NAME_TYPES and _a_word_to_translate(reading.row, message):
        return True  # "faucon crécerelle (kestrel en anglais)": the word, not the company
    if vocabulary is None or (row.type or "") not in NAME_TYPES or message.other_language:
        return False  # without the brain's titles, no telling which words are distinctive
    read = reading.row
    if read.title & (message.names | message.known) or _said_whole(reading, message):
        return False
    if message.heading and set(message.heading) <= set(read.sequence):
        return False  # "Marula - kedy sa obnovuje zmluva?": the name set apart, the subject
    pairs = zip(message.sequence, message.sequence[1:], strict=False)
    if any(a in read.sequence and b == "s" for a, b in pairs):
        return False
    backing = backing_words(read.body, reading.wanted, vocabulary)
    return _beside_another(read, backing, reading.asked, message)


def _other_things(
    rows: Sequence[SearchRow],
    readings: Sequence[Reading],
    message: Message,
    vocabulary: TitleVocabulary | None,
) -> frozenset[str]:
    """Words of a company's name GBrain matched that the message uses for something else
    (:func:`_another_thing`): they back no other row either ("kestrel vs falcon, how do u tell
    them apart? saw one hovering over the field" is about the bird, not the founder whose page
    names *Kestrel Works* and the field; "recipe for marula jam?" is no campaign's). Not a
    person's first name, whose message may still be about what he did ("did tomas ever finish
    the HLC prototype" beside the meeting that gave it him)."""
    return frozenset(
        word
        for row, reading in zip(rows, readings, strict=True)
        if row.evidence == "alias_hit"
        and (row.type or "") in {"company", "organization"}
        and _another_thing(row, reading, message, vocabulary)
        for word in reading.row.title & reading.wanted
    )


def _a_word_to_translate(read: RowWords, message: Message) -> bool:
    """A word of a name of two words or more, in lowercase and not the whole name, in a
    message that names a language (:attr:`.message.Message.language_named`): the word
    itself, asked about or translated ("kestrel en anglais", "how do you say kestrel in
    portuguese")."""
    t = read.sequence
    if not message.language_named or len(t) < 2 or set(t) <= message.said:
        return False
    return any(_in_lowercase(w, message.text) for w in t if len(w) > 2 and w.isalpha())


def _in_lowercase(word: str, text: str) -> bool:
    """The word stands in the text as a word of its own, in lowercase as ``word`` is."""
    return re.search(rf"(?<![^\W_]){re.escape(word)}(?![^\W_])", text) is not None


def _glossed(read: RowWords, message: Message) -> bool:
    """A word of a title of two words or more, in lowercase and alone in brackets, the
    title not said whole, in a message in another language or script: the word glosses the
    one before it ("Куду (kudu) антилопалары", "lemun kuka (baobab)"), it names no page; in
    English it says whose a name is ("wilhelmina fox (oakmoor)")."""
    t = read.sequence
    if len(t) < 2 or "(" not in message.text or set(t) <= message.said:
        return False
    if not message.other_language and not message.other_script:
        return False
    return any(
        re.search(rf"\(\s*{re.escape(w)}\s*\)", message.text) is not None
        for w in t
        if len(w) > 2 and w.isalpha()
    )


def _a_company_word_abroad(row: SearchRow, read: RowWords, message: Message) -> bool:
    """One word of a company's name of two words or more, in lowercase Latin letters, in a
    message in another language: written in a script of South or Southeast Asia
    (:func:`.brahmic.in_brahmic_script`), whose writers write the brain's names in their own script,
    as they sound ("બ્લૂ હેરોન લોજિસ્ટિક્સ"), and keep in Latin letters the English words they
    use as such ("બગલા અને heron પક્ષીઓ", herons to watch; Lao "ໂຄມໄຟ 800 lumen", an
    800-lumen lamp), or read as another language in Latin letters
    (:attr:`.message.Message.other_language`), where the word is the thing, named as that
    language names it ("feoil kudu", kudu meat; "baobab-ka", the baobab's fruit). A project's
    word so written still counts: it is often the thing the project is about ("rangers app",
    "camera trap photos")."""
    t = read.sequence
    if (row.type or "") not in {"company", "organization"} or len(t) < 2:
        return False
    if not (in_brahmic_script(message.text) or message.other_language) or set(t) <= message.said:
        return False
    latin = [w for w in t if w in message.said and w.isascii() and w.isalpha()]
    return bool(latin) and all(_in_lowercase(w, message.text) for w in latin)


def _beside_another(read: RowWords, backing: set[str], asked: set[str], message: Message) -> bool:
    """Only words of the name's title back the row (``backing``,
    :func:`.readings.backing_words` of its body), and two distinctive words of the message,
    not generic, are nowhere in it: the words name something else."""
    rest = unexplained(asked, read, message)
    return bool(backing) and backing <= read.title and len(rest) >= ELSEWHERE_WORDS


def cosine_floor(rows: Sequence[SearchRow], gate: Gate) -> float | None:
    """The cosine a one-word row must reach this turn; None when the rule is off or the
    rows carry no cosines (a keyword-only GBrain)."""
    floors = [] if gate.min_cosine is None else [gate.min_cosine]
    cosines = sorted(r.cosine for r in rows if r.cosine is not None)
    if gate.cosine_margin is not None and len(cosines) >= COSINE_MIN_ROWS:
        floors.append(cosines[len(cosines) // 2] + gate.cosine_margin)
    return max(floors) if floors and cosines else None


def _month_words(said: Message) -> frozenset[str]:
    """The words that may name a meeting beside the month the message gives: those near
    its name (:func:`.dates.beside_a_month`), and the words glossed from it (a meeting's
    kind in another language)."""
    near = beside_a_month([words(part) for part in SENTENCE_END.split(said.text)])
    if near is None:
        return said.said
    return frozenset(near) | (said.said - frozenset(said.sequence))


def _named_by_index(
    rows: Iterable[SearchRow],
    said: Message,
    vocabulary: TitleVocabulary | None,
    tiers: dict[int, list[SearchRow]],
    shown: set[str],
) -> bool:
    """Dated pages the title index names outright (:meth:`.TitleMatcher.undated`, by their
    title's other words; :meth:`.TitleMatcher.in_month`, by a month and a word), unless the
    message uses their title's words about something else. Whether any was named."""
    kept = [r for r in rows if not reading_of(r, said, vocabulary).elsewhere]
    return _promote(kept, tiers, shown)


def _promote(rows: Iterable[SearchRow], tiers: dict[int, list[SearchRow]], shown: set[str]) -> bool:
    """``rows`` named outright: moved to tier 1 (left out when already shown). Whether any
    was clean."""
    named = {row_key(r) for tier in (0, 1) for r in tiers.get(tier, [])}
    found = False
    for row in rows:
        key = row_key(row)
        if key in named or not is_clean(row):
            continue
        found = True
        for tier in (2, 3):
            tiers[tier] = [r for r in tiers.get(tier, []) if row_key(r) != key]
        if key not in shown:
            tiers.setdefault(1, []).append(row)
    return found


def _shown_as(rows: list[SearchRow], gate: Gate) -> list[SearchRow]:
    """The rows the gate lets through, each as :func:`_titled` shows it."""
    return [_titled(row, gate.titles) for row in rows]


def _titled(row: SearchRow, titles: TitleMatcher | None) -> SearchRow:
    """A row sent without its page's type takes the title and type the index holds.

    ``volunteer_context`` labels a page by the words of the conversation that matched it
    (``display``: a surname, a first name, an alias; GBrain's ``entity-salience.ts``), which
    is evidence the gate reads as it came, but no title to show the model."""
    if row.type is not None or titles is None:
        return row
    page = titles.page(row.source_id, row.slug)
    return replace(row, title=page.title, type=page.type) if page else row


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
    slots: int | None = None,
) -> list[SearchRow]:
    """The rows that may reach the model, strongest first, at most ``limit``.

    ``skip`` holds ``source:slug`` keys already shown (left out, the limit is filled
    with other rows or left short); ``vocabulary`` weighs title words by how common
    they are in this brain (optional). With the gate's title index, pages the message
    names are added after the named rows search returned. ``max_tier`` 2 keeps only rows
    with a title anchor (no content-only paraphrase match). ``subject``: the keys of the
    pages the conversation's last turn showed (what a follow-up's "it" points back at).
    ``slots``: how many of them the caller shows (default ``limit``); the judge fills no more.
    """
    if vocabulary is None:
        vocabulary = gate.vocabulary
    seen: set[str] = set()
    clean: list[SearchRow] = []
    for row in rows:
        key = row_key(row)
        if key in seen or not is_clean(row):
            continue
        seen.add(key)
        clean.append(row)
    shown = set(skip)
    if gate.mode != "anchored":
        clean = [r for r in clean if row_key(r) not in shown]
    if gate.mode == "off":
        return _shown_as(clean[:limit], gate)
    if gate.mode == "evidence":
        top = max((r.score for r in clean if r.score is not None), default=None)
        kept = [
            r
            for r in clean
            if r.evidence not in WEAK_EVIDENCE
            and not (top and r.score is not None and r.score < gate.min_ratio * top)
        ]
        return _shown_as(kept[:limit], gate)
    message = prefixes_parted(message)  # "muOffice move notes": in the *Office move notes*
    row_words = [RowWords.of(row) for row in clean]
    read = {row_key(row): w for row, w in zip(clean, row_words, strict=True)}
    said = Message.of(message).knowing(row_words)
    if said.shopping:
        max_tier = min(max_tier, 1)  # "recommend a good ledger app": only what it names
    apart = ""
    if gate.titles is not None:  # "ソーラーカラー" for *Solar Collar*; "fern seed" for *Fernseed*
        apart, parts = gate.titles.joined(message)
        spelt = (gate.titles.in_katakana(message), gate.titles.in_brahmic(message), apart)
        said = said.reading(" ".join(filter(None, spelt)))
        if parts:  # the halves of a name say nothing of their own ("fern", "seed")
            said = replace(said, retyped_only=said.retyped_only | content_stems(parts))
    tiers: dict[int, list[SearchRow]] = {}
    any_named = another_named = False
    floor = cosine_floor(rows, gate)
    readings = [
        reading_of(row, said, vocabulary, w) for row, w in zip(clean, row_words, strict=True)
    ]
    if met := _met(clean, readings, said, vocabulary) - said.known:
        said = replace(said, known=said.known | met)  # "did valentina finish the new logo"
        readings = [
            reading_of(row, said, vocabulary, w) for row, w in zip(clean, row_words, strict=True)
        ]
    spent = spent_words(readings, said) | _other_things(clean, readings, said, vocabulary)
    # a title said whole about something else says what the message is about
    aside = {
        i
        for i, r in enumerate(readings)
        if r.elsewhere and r.row.sequence and set(r.row.sequence) <= said.said
    }
    whole = names_said_whole(clean, row_words, said)
    inside: set[str] = set()  # people the message names only by another's whole name
    ranked: list[int | None] = []
    for position, row in enumerate(clean):
        near_top = floor if position < COSINE_TOP else None
        tier = _tier(row, said, vocabulary, near_top, spent, reading=readings[position])
        ranked.append(tier)
        if tier == 3 and aside - {position}:
            continue  # "circuit breaker keeps tripping at the field station": not the brain's
        if _inside_another_name(row, row_words[position], whole, said):
            inside.add(row_key(row))  # "mei lin wrote the dedup step": not *Lin Chen*
            continue
        if tier is None or tier > max_tier:
            continue
        any_named = any_named or tier <= 1
        another_named = another_named or (tier <= 1 and not _own_company(row, vocabulary))
        if row_key(row) not in shown:  # decided before the skip: a named page already
            tiers.setdefault(tier, []).append(row)  # shown still rules out loose rows
    if gate.titles is not None:
        seen_as = f"{message}\n{said.retyped}" if said.retyped else message
        written = said.wanted - said.retyped_only | content_stems(apart)
        for row in (
            *gate.titles.candidates(seen_as, said.wanted),
            *gate.titles.lone(written),
            *gate.titles.on_days(said.dates),
        ):
            key = row_key(row)
            if key in seen or not is_clean(row):
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
                for r in gate.titles.in_month(said.dates, _month_words(said))
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
    if gate.titles is not None and not said.outside:  # "postgres for reporting"
        any_named = _promote(gate.titles.by_slug(said.sequence), tiers, shown) or any_named
    if any_named:  # something is named: named pages, and at most one loose row ahead of them
        named = tiers.get(0, []) + tiers.get(1, [])
        loose = tiers.get(2, []) + tiers.get(3, [])
        leader = leading_row(clean, named, loose, read=read, said=said, vocabulary=vocabulary)
        picked = [*named[: limit - 1], leader] if leader and limit > 1 else named[:limit]
        if len(picked) < limit and (
            joined := companion_row(
                named, tiers.get(2, []), picked, read=read, said=said, vocabulary=vocabulary
            )
        ):
            picked.append(joined)
    else:
        loose = tiers.get(2, []) + tiers.get(3, [])
        top = max((r.score for r in loose if r.score is not None), default=0.0)
        kept = [r for r in loose if not top or r.score is None or r.score >= gate.min_ratio * top]
        # more supporting words first, a person's page first for "who"; stable: GBrain order
        kept.sort(
            key=lambda r: (
                -support_of(read[row_key(r)], said.wanted, vocabulary),
                not (said.who and is_person(r)),
            )
        )
        picked = tied_rows(kept, read, said, subject, vocabulary)[:limit]
    # the brain's own company, named beside another page, is where that page is, not the subject
    beside = another_named or any(
        not _own_company(r, vocabulary) for r in tiers.get(0, []) + tiers.get(1, [])
    )
    if beside:
        picked = [r for r in picked if not _own_company(r, vocabulary)]
    if gate.judge is None or max_tier < 3:
        return _shown_as(picked, gate)
    best = max((r.score for r in clean if r.score is not None), default=0.0)
    judged = [
        (row, reading, position, tier)
        for position, (row, reading, tier) in enumerate(zip(clean, readings, ranked, strict=True))
        if row_key(row) not in shown
        and row_key(row) not in inside
        and not (beside and _own_company(row, vocabulary))
    ]
    taken = {row_key(r) for r in picked}
    # pages already shown that search returned again hold their slots: the first turn's
    # pointers do not add to what its briefing showed, a later turn to what it already has
    shows = limit if slots is None else min(slots, limit)
    room = shows - len(picked) - sum(row_key(r) in shown for r in clean)
    admit = admitted(judged, taken, said, best, threshold=gate.judge, room=room)
    return _shown_as(picked + admit, gate)
