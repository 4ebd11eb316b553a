"""``GBrain.recall_rows``, ``query`` and ``volunteer_context`` over HTTP, then the gate."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hermes_gbrain.api import GBrain
from hermes_gbrain.connect import open_brain
from hermes_gbrain.emulator import Emulator
from hermes_gbrain.recall.briefing import select_rows
from hermes_gbrain.recall.pairs import pair_query
from hermes_gbrain.recall.vocabulary import TitleVocabulary
from hermes_gbrain.settings import load_settings


@pytest.fixture(scope="module")
def large() -> Iterator[Emulator]:
    with Emulator(brain="large") as emulator:
        yield emulator


@pytest.fixture
def brain(large: Emulator, tmp_path: object) -> GBrain:
    env = large.client_env(f"recall-{id(tmp_path)}", scopes="read")
    return open_brain(load_settings(env.get, hermes_home=str(tmp_path)), scope="read")


def test_recall_rows_puts_volunteered_pages_first(brain: GBrain, large: Emulator) -> None:
    message = "Has Halvorsen seen the status update notes?"
    searched = [r.slug for r in brain.search(message, limit=8, lean=False).rows]
    assert (
        "people/bjorn-halvorsen" not in searched
    )  # "status update notes" fill the keyword ranking
    rows = brain.recall_rows(message).rows
    assert rows[0].slug == "people/bjorn-halvorsen" and rows[0].snippet
    assert [r.slug for r in rows[1:]] == searched  # then the search rows, none repeated
    assert [r.slug for r in select_rows(rows, message)] == ["people/bjorn-halvorsen"]
    tools = [r.tool for r in large.requests if r.tool]
    assert sorted(tools[-2:]) == ["search", "volunteer_context"]  # both, sent at once


def test_recall_rows_skips_pages_named_in_prior_context(brain: GBrain) -> None:
    window = "user: What does Kestrel Works sell?\nuser: And did Nwosu finish the sketches?"
    rows = brain.recall_rows("And did Nwosu finish the sketches?", window=window).rows
    assert [r.slug for r in rows[:2]] == ["companies/kestrel-works", "people/amara-nwosu"]
    again = brain.recall_rows(
        "And did Nwosu finish the sketches?",
        window=window,
        prior_context="- [default:companies/kestrel-works] Kestrel Works",
    ).rows
    assert again[0].slug == "people/amara-nwosu"


def test_query_and_volunteer_context_are_typed(brain: GBrain) -> None:
    query = brain.query("Osprey Tracker", limit=3, snippet_chars=80)
    assert query.tool == "query" and query.rows[0].slug == "projects/osprey-tracker"
    offered = brain.volunteer_context("user: who is Maya Okafor?").rows
    assert [(r.slug, r.evidence) for r in offered] == [("people/maya-okafor", "exact_title_match")]


def test_the_gate_on_the_large_brain_with_its_vocabulary(brain: GBrain) -> None:
    vocabulary = TitleVocabulary.build(r.title for r in brain.list_pages())
    assert vocabulary.pages >= 300 and vocabulary.common("review")
    for trap in (
        "Can you help me plan a hiking trip in the mountains next month?",
        "What is the capital of Australia?",
        "Write a review of the movie Dune",
    ):
        rows = brain.recall_rows(trap).rows
        assert rows and rows[0].evidence == "keyword_exact"  # GBrain would brief it
        assert select_rows(rows, trap, vocabulary=vocabulary) == []
    named = "What did the working capital review say?"
    chosen = select_rows(brain.recall_rows(named).rows, named, vocabulary=vocabulary)
    assert [r.slug for r in chosen] == ["notes/working-capital-review"]


def test_recall_rows_adds_the_pairs_rows_last_on_a_keyword_only_brain(
    brain: GBrain, large: Emulator
) -> None:
    message = "Which of our investors insists on cohort retention charts with every update?"
    also = pair_query(message)
    assert also is not None and also.startswith("investors insists or investors cohort or ")
    plain = [r.slug for r in brain.recall_rows(message).rows]
    large.clear_requests()
    rows = [r.slug for r in brain.recall_rows(message, also=also).rows]
    assert rows[: len(plain)] == plain  # after the message's own rows
    assert "people/greta-holm" in rows[len(plain) :] and len(set(rows)) == len(rows)
    searched = [(r.arguments or {}).get("query") for r in large.requests if r.tool == "search"]
    assert sorted(searched) == sorted([message, also])


def test_recall_rows_leaves_the_pairs_rows_out_on_a_hybrid_brain(tmp_path: object) -> None:
    message = "which phones drop packets when rangers are offline?"
    with Emulator(hybrid=True) as hybrid:
        env = hybrid.client_env("recall-hybrid", scopes="read")
        brain = open_brain(load_settings(env.get, hermes_home=str(tmp_path)), scope="read")
        plain = brain.recall_rows(message).rows
        paired = brain.recall_rows(message, also=pair_query(message)).rows
        assert plain and all(r.cosine is not None for r in plain)
        assert [r.slug for r in paired] == [r.slug for r in plain]
        assert [r.tool for r in hybrid.requests].count("search") == 3  # sent, not read
