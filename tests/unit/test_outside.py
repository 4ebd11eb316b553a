"""What a message gives as the writer's own or as what it is for."""

from __future__ import annotations

import pytest

from hermes_gbrain.recall.outside import outside_things
from hermes_gbrain.recall.vocabulary import ORDINARY_TITLE_WORDS
from hermes_gbrain.recall.words import stem

ORDINARY = frozenset(stem(w) for w in ORDINARY_TITLE_WORDS)


@pytest.mark.parametrize(
    ("message", "things"),
    [
        ("my son wants to dress up as a kestrel", {"son"}),
        ("my bluetooth earbuds won't pair with my laptop", {"bluetooth", "laptop"}),
        ("my own little rescue dog", {"rescue"}),
        ("my garden shed", set()),
        ("write a simple expense policy for a five-person bakery", {"bakery"}),
        ("an expense policy template for a 50 person law firm", {"law"}),
        ("what's the pattern where you stop for a while", set()),
        ("did Tomas read my notes?", set()),
        ("my weekly planning notes", set()),
        ("for a work trip", set()),
        ("for my sister's bakery", {"sister"}),
        ("who leads our fundraising?", set()),
        # a name before it is the thing's make or maker: the thing is what follows
        ("zip on my Osprey backpack broke", {"backpack"}),
        ("can my Sony camera shoot at night", {"camera"}),
        # a family word gives the name after it to a relative, "my" or not ...
        ("niece maya turns 7 next week", {"maya"}),
        ("my niece maya turns 7 next week", {"niece"}),  # "my" reads the niece
        # ... but "son" is "his" or "they are" in other languages
        ("¿son los mismos collares solares?", set()),
        # a piece of the writer's own work places nothing outside
        ("need a one-liner for my research deck", set()),
        ("need it for a spec sheet", set()),
        # each sentence is read alone
        ("what did the money pay for. a donor asked", set()),
        ("what did the money pay for a donor", {"donor"}),
    ],
)
def test_the_thing_after_my_or_for_a(message: str, things: set[str]) -> None:
    assert outside_things(message, ORDINARY) == {stem(t) for t in things}
