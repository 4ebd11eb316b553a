"""Things a message places outside the brain: "my son", "my laptop", "for a bakery".

A message that gives a thing as the writer's own ("my bluetooth earbuds won't pair"), as
what it is for ("an expense policy for a five-person bakery") or whose a title is ("the annual
report 2025 of the hospital foundation") says what it is about. A page
that never mentions that thing is not about it, however many other words it shares with the
message: the gate (:mod:`.gate`) then keeps such a page only when the message names it whole,
or by its initials in capitals ("HLC timestamps … for a diel activity analysis").
Words common in page titles ("my notes", "my weekly plan", "for a work trip") are no such
thing: the brain may hold them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection

from .dates import said_in_figures
from .words import (
    ENGLISH_STOP_WORDS,
    GENERIC_STEMS,
    SENTENCE_END,
    message_names,
    stem,
    words,
)

__all__ = ["LOOK_AHEAD", "a_child", "outside_things", "owners", "purposes", "relatives"]

LOOK_AHEAD = 3
"""Words after "my" or "for a" read for the thing (past "own", "very", "personal", numbers and
generic words: "for a 50 person law firm" gives "law", "my personal pixel 7" "pixel")."""
_FOR = frozenset({"a", "an", "my"})
_MADE = frozenset(
    stem(w)
    for w in "deck slide sheet memo newsletter presentation handout debrief pitch".split()  # noqa: SIM905
)
"""What a writer makes or holds out of what they ask ("for my research deck", "for a spec
sheet", "came up in my interview debrief"): the thing is theirs, but what they put in it is
the message's subject, so it places nothing outside the brain."""
_PASSED = ENGLISH_STOP_WORDS | {"personal", "private"}
"""Read past: function words and what only says whose the thing is ("my personal pixel")."""


def _thing(after: list[str], ordinary: Collection[str], names: Collection[str] = ()) -> str | None:
    """The stem of the first word that can name a thing, or None when that word is one
    a title commonly holds. A name (``names``: capitalised stems) followed by such a word
    is its make or maker, and the word after it the thing ("my Osprey backpack")."""
    for i, word in enumerate(after[:LOOK_AHEAD]):
        if len(word) < 3 or any(c.isdigit() for c in word) or word in _PASSED:
            continue
        found = stem(word)
        if found in GENERIC_STEMS:
            continue
        if {found, *(stem(w) for w in after[i + 1 : i + 2])} & _MADE:
            return None  # "my intro slide", "a spec sheet": a piece of the writer's own work
        if found in names and (made := _thing(after[i + 1 : i + 2], ordinary)):
            return made
        return None if found in ordinary else found
    return None


def _things(
    message: str,
    ordinary: Collection[str],
    names: Collection[str] | None,
    after: Callable[[list[str], int], list[str] | None],
) -> list[tuple[int, str]]:
    """The things (:func:`_thing`) read in the words ``after`` gives for each place of the
    message's words, where it gives any, with that place. Each sentence is read alone: "what
    did the money pay for. a donor asked" gives no donor anything."""
    if names is None:
        names = message_names(message)
    found: list[tuple[int, str]] = []
    start = 0
    for said in _sentence_words(message):
        for i in range(len(said)):
            following = after(said, i)
            if following and (thing := _thing(following, ordinary, names)):
                found.append((start + i, thing))
        start += len(said)
    return found


def _sentence_words(message: str) -> list[list[str]]:
    """The words of each sentence, in order; the message's words as one sentence when the
    sentences' words do not add up to them (a mark inside a word)."""
    said = words(message)
    parts = [words(part) for part in SENTENCE_END.split(message)]
    if [w for part in parts for w in part] != said:
        return [said]
    return [part for part in parts if part]


_FAMILY = frozenset(
    """
    niece nephew daughter sister brother cousin aunt uncle mum mom dad wife husband
    grandma grandpa grandson granddaughter stepson stepdaughter
    friend buddy bestie bff neighbour neighbor roommate flatmate girlfriend boyfriend fiance
    fiancee
    amigo amiga hermano hermana sobrino sobrina tia tio abuela abuelo hija hijo esposa esposo
    novia novio vecino vecina
    irma irmao sobrinho sobrinha filha filho namorada namorado vizinho vizinha
    amico amica fratello sorella cugino cugina zia nonna nonno figlia figlio moglie marito
    fidanzata fidanzato cucinu cucina cuxin cuxina cusin cusina
    amie frere soeur cousine neveu tante oncle fils copain copine voisin voisine
    freund freundin bruder schwester neffe nichte onkel oma opa tochter sohn nachbar nachbarin
    vriend vriendin broer zus dochter zoon
    przyjaciel przyjaciolka brat siostra kuzyn kuzynka corka syn ciocia wujek babcia dziadek
    sestra bratr sotra kamarad
    teman kawan sobat sahabat adik kakak sepupu paman istri suami embaz embaza thian
    rafiki binamu mjomba shangazi kaibigan kapatid pinsan tita tito
    owadwa nyamera osiepna nera wuod
    друг подруга брат сестра племянник племянница дочь сын
    दोस्त मित्र साथी भाई बहन
    বন্ধু ভাই বোন
    """.split()  # noqa: SIM905 - a word list reads better as text
)
"""Words for a relative or a friend, in English and in the languages writers most often use:
right before a name, they give it to someone of the writer's own, with "my" or without
("niece maya turns 7 next week, gift ideas?", "friend Maya turns 30", "A mo amica Maya si
marita"). Not English "son": French and Catalan say "his", Spanish "they are" ("¿son los
mismos collares?"); nor words other languages use otherwise ("prima" is "first", "Frau" is
"Mrs", "mae" is Welsh "is"). Dholuo "wuod" is "son of", "nera" "my mother's brother": the
word after them is the writer's own ("Sam, wuod nera, biro limowa Sabato", my cousin Sam)."""


def _owned(said: list[str], i: int) -> list[str] | None:
    """The words after "my", "for a", "for an" or "for my", and the one word after a family
    word without "my" (:data:`_FAMILY`)."""
    if said[i] == "my":
        return said[i + 1 :]
    if said[i] in _FAMILY and (not i or said[i - 1] != "my"):  # "my son wants": "my" reads it
        return said[i + 1 : i + 2]
    if said[i] == "for" and i + 1 < len(said) and said[i + 1] in _FOR:
        return said[i + 2 :]
    return None


_SOMEONE = frozenset(
    """
    someone somebody guy girl boy woman man lady bloke dude kid person kitten puppy dog cat
    """.split()  # noqa: SIM905 - a word list reads better as text
)
"""Words for someone or some animal the writer does not place, before "called" or "named"
("meeting someone called Farid next week", "a kitten named Olga")."""
_CALLED = frozenset({"called", "named"})
_MINE_AFTER = frozenset({"mi", "mia", "mio"})
""""My" written after the word for the relative ("embaza mi Olga", Zazaki; "l'amica mia
Olga"): the name comes after it."""


def relatives(message: str) -> frozenset[str]:
    """The words right after a word for a relative or a friend (:data:`_FAMILY`), "my" before
    it or not, or after someone unplaced "called" or "named" (:data:`_SOMEONE`): names the
    message gives to someone of the writer's own or to a stranger ("friend Maya turns 30",
    "Moja sotra Maya ma w sobotu narodniny", "meeting someone called Farid next week"), as
    written, folded."""
    said = words(message)
    given = {
        i + 2 if said[i + 1] in _MINE_AFTER and i + 2 < len(said) else i + 1
        for i in range(len(said) - 1)
        if said[i] in _FAMILY or (said[i] in _CALLED and i and said[i - 1] in _SOMEONE)
    }
    return frozenset(said[i] for i in given)


def _meant_for(said: list[str], i: int) -> list[str] | None:
    """The word right after a bare "for", but after "up" ("up for debate") or before a year
    said in words ("for twenty twenty six")."""
    if said[i] != "for" or i + 1 >= len(said) or (i and said[i - 1] == "up"):
        return None
    if said_in_figures(" ".join(said[i + 1 : i + 4])):
        return None
    return said[i + 1 : i + 2]


def outside_things(
    message: str, ordinary: Collection[str], names: Collection[str] | None = None
) -> frozenset[str]:
    """Stems of what follows "my", "for a", "for an" or "for my" in ``message``, when it
    can name a thing: not a function word, number or generic word, and not in
    ``ordinary`` (stems of words common in titles). ``names``: the message's capitalised stems
    (:func:`.words.message_names`), when the caller has them already."""
    return frozenset(thing for _, thing in _things(message, ordinary, names, _owned))


def purposes(
    message: str, ordinary: Collection[str], names: Collection[str] | None = None
) -> frozenset[str]:
    """Stems of what a bare "for" gives a thing for, the word right after it ("drone survey
    rules for wedding photographers", "mesh radio for home wifi"): as :func:`outside_things`,
    but no year said in words ("for twenty twenty six") and not "up for" ("up for debate")."""
    return frozenset(thing for _, thing in _things(message, ordinary, names, _meant_for))


_OWNER = frozenset({"the", "my", "a", "an", "his", "her", "their", "your"})
"""What may stand between "of" or "from" and the thing a title is given as belonging to."""


def _owned_by(said: list[str], i: int) -> list[str] | None:
    """The words after "of" or "from" and one of :data:`_OWNER`."""
    if said[i] in ("of", "from") and i + 1 < len(said) and said[i + 1] in _OWNER:
        return said[i + 2 :]
    return None


def owners(
    message: str, ordinary: Collection[str], names: Collection[str] | None = None
) -> tuple[tuple[int, str], ...]:
    """Where the message says whose or what's a thing is, right after it ("the annual report
    2025 of the hospital foundation", "the quarterly report from my pension fund"): the place
    of "of" or "from" among its words, and the stem of that owner, read as
    :func:`outside_things` reads a thing."""
    return tuple(_things(message, ordinary, names, _owned_by))


_AGE = re.compile(
    r"\bturns? (\d{1,2})\b|\b(\d{1,2})(?:[- ]?(?:years?|yrs?)[- ]old|[- ]?yo)\b"
    r"|\b(\d{1,2})(?:st|nd|rd|th) (?:birthday|bday)\b",
    re.IGNORECASE,
)
CHILD_AGE = 18
"""Below this age, someone a message gives an age is a child: no one who works here."""


def a_child(message: str) -> bool:
    """The message gives someone an age under :data:`CHILD_AGE` ("sam turns 10 next week",
    "gift ideas for a 6 year old", "her 7th birthday"): the first name it says is a child's,
    the writer's own, not this brain's person of that name."""
    return any(int(age) < CHILD_AGE for m in _AGE.finditer(message) for age in m.groups() if age)
