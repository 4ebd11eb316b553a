"""The relevance benchmark's report of named misses the model already has in its history."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from hermes_gbrain.api import SearchRow
from hermes_gbrain.recall.gate import Gate

sys.path.append(str(Path(__file__).resolve().parents[2] / "bench"))
import relevance  # a script beside its siblings (bench/), not a package

MAYA = SearchRow(slug="people/maya-okafor", title="Maya Okafor", source_id="default", type="person")


def _retrieve(message: str, history: Sequence[str], shown: Sequence[str]) -> list[SearchRow]:
    return [MAYA] if "okafor" in message.lower() else []


def _session(*turns: tuple[str, str]) -> relevance.Session:
    return relevance.Session(
        ident="c1",
        split="tune",
        turns=tuple(
            relevance.Turn(kind=kind, message=message, relevant=(MAYA.slug,), number=n)
            for n, (kind, message) in enumerate(turns)
        ),
    )


def test_a_page_shown_within_the_window_is_reported_apart_from_other_misses() -> None:
    session = _session(
        ("named", "Who is Maya Okafor?"),
        ("named", "and what does Maya Okafor run these days?"),
        ("named", "the founder, what is her name again"),
    )
    layers = relevance.run_provider([session], _retrieve, Gate())
    assert [slugs for _, (slugs, _) in layers["all"]] == [[MAYA.slug], [], []]
    assert [slugs for _, (slugs, _) in layers["window"]] == [[], [MAYA.slug], [MAYA.slug]]
    line = relevance.named_in_context(layers["all"], layers["window"])
    assert "2 of 2 were shown in the last 5 turns" in line
    assert "named hit counting them: 1.000" in line


def test_a_miss_never_shown_counts_only_as_a_miss() -> None:
    session = _session(("named", "the founder, what is her name again"))
    layers = relevance.run_provider([session], _retrieve, Gate())
    line = relevance.named_in_context(layers["all"], layers["window"])
    assert "0 of 1 were shown" in line
    assert "named hit counting them: 0.000" in line
    assert relevance.named_in_context(layers["all"][:0], layers["window"][:0]) == ""
