"""Which words a turn's pairs search pairs, and when it is sent (``recall.pairs``)."""

from __future__ import annotations

from hermes_gbrain.api import SearchRow
from hermes_gbrain.recall import pairs
from hermes_gbrain.recall.pairs import PAIR_WORDS, note_rows, pair_query, pair_words, wants_pairs
from hermes_gbrain.recall.vocabulary import TitleVocabulary


def test_only_distinctive_words_are_paired_once_each_in_order() -> None:
    message = "Who flies the thermal UAV counts at night, and who flew them last month?"
    # stopwords, generic words ("night", "last", "month"), a repeated stem ("flies" / "flew"
    # differ; "counts" once) and words under three letters are left out
    assert pair_words(message) == ["flies", "thermal", "uav", "counts", "flew"]
    assert pair_query("thermal UAV") == "thermal uav"
    assert pair_query("thermal cameras and thermal UAVs") == (
        "thermal cameras or thermal uavs or cameras uavs"
    )


def test_at_most_five_words_and_none_under_two() -> None:
    message = "alpha bravo charlie delta echo foxtrot golf"
    assert pair_words(message) == ["alpha", "bravo", "charlie", "delta", "echo"][:PAIR_WORDS]
    assert pair_query(message) is not None and pair_query(message).count(" or ") == 9
    assert pair_query("help me plan a trip next month") is None  # ordinary and generic words
    assert pair_query("Maya?") is None
    assert pair_query("王芳负责什么工作") is None  # unspaced scripts: GBrain matches their runs


def test_words_common_in_the_brains_titles_are_not_paired() -> None:
    titles = [f"Falcon {i}" for i in range(30)] + [f"Page {i}" for i in range(70)]
    vocabulary = TitleVocabulary.build(titles)
    assert pair_words("falcon telemetry gaps", vocabulary) == ["telemetry", "gaps"]
    assert pair_words("falcon telemetry gaps") == ["falcon", "telemetry", "gaps"]


def test_an_endpoint_whose_rows_carry_a_cosine_gets_no_more_pairs(monkeypatch) -> None:
    monkeypatch.setattr(pairs, "_with_vectors", set())
    keyword = SearchRow(slug="a", title="A", source_id="default")
    hybrid = SearchRow(slug="b", title="B", source_id="default", cosine=0.31)
    note_rows("https://brain.example/mcp", [keyword])
    assert wants_pairs("https://brain.example/mcp")
    note_rows("https://brain.example/mcp", [keyword, hybrid])
    assert not wants_pairs("https://brain.example/mcp")
    assert wants_pairs("https://other.example/mcp")
