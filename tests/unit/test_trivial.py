"""The fallback trivial-prompt rule is Hermes' rule: same verdict on every text.

Where Hermes ships ``is_trivial_prompt`` (newer Hermes, ``make test-newer``) the fallback
is compared with it directly; the fixed tables hold on every Hermes.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from hermes_gbrain.recall.trivial import TRAILING_PUNCTUATION, TRIVIAL_WORDS, is_trivial

try:
    from agent.memory_provider import is_trivial_prompt as hermes_is_trivial  # type: ignore[attr-defined]
except ImportError:  # hermes-agent 0.19.0 has no public rule
    hermes_is_trivial = None

needs_hermes_rule = pytest.mark.skipif(
    hermes_is_trivial is None, reason="this Hermes has no is_trivial_prompt to compare with"
)

TRIVIAL = [
    "", "  ", "\n\t", "/help", "/new foo", "ok", "OK", "Ok.", "thanks!", "Thank you.",
    "THANK YOU!!", "hi", "Hello!", "hey :)", "lgtm", "go ahead", "k", "yes?!", "sure…",
    "nope — ", "ok (", "done\u00a0", "ok”", "yo ~", "\u212a",  # Kelvin sign: "k" to re
]  # fmt: skip

SEARCHED = [
    "ok 👍", "👍", "!!!", "...", "k8s", "note", "okk", "ok so what about project falcon",
    "who is alice?", "yes please", "thank  you", "go-ahead", "ok/", "ok_", "ok|", "ok\\",
    "ok -> next", "hi there", "ok✓", "“ok”",
]  # fmt: skip


@pytest.mark.parametrize("text", TRIVIAL)
def test_trivial(text: str) -> None:
    assert is_trivial(text)


@pytest.mark.parametrize("text", SEARCHED)
def test_searched(text: str) -> None:
    assert not is_trivial(text)


def test_not_text_is_not_searched() -> None:
    assert is_trivial(None) and is_trivial(["ok"])


@needs_hermes_rule
def test_tables_agree_with_hermes() -> None:
    assert hermes_is_trivial is not None
    assert [hermes_is_trivial(text) for text in TRIVIAL] == [True] * len(TRIVIAL)
    assert [hermes_is_trivial(text) for text in SEARCHED] == [False] * len(SEARCHED)


_PIECES = st.sampled_from(
    [*TRIVIAL_WORDS, *TRAILING_PUNCTUATION, " ", "\t", "\n", "/", "👍", "✓", "\u200d", "\ufe0f"]
)


@needs_hermes_rule
@given(st.lists(st.one_of(_PIECES, st.text(max_size=3)), max_size=6).map("".join))
@example("OK!! 👍")
@example("Thank You ...")
def test_agrees_with_hermes_on_any_text(text: str) -> None:
    assert hermes_is_trivial is not None
    assert is_trivial(text) == hermes_is_trivial(text)
