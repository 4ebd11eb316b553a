"""The gate's judge: a logistic model over what the gate read, filling only empty slots."""

from __future__ import annotations

from dataclasses import replace

from hermes_gbrain.api import SearchRow
from hermes_gbrain.recall import judge, judge_weights
from hermes_gbrain.recall.briefing import load_briefing_config
from hermes_gbrain.recall.gate import Gate, gate_rows
from hermes_gbrain.recall.message import Message
from hermes_gbrain.recall.readings import reading_of


def row(slug: str, title: str, score: float, snippet: str = "", **extra: object) -> SearchRow:
    return SearchRow(
        slug=slug,
        title=title,
        source_id="default",
        type="note",
        score=score,
        evidence="keyword_exact",
        snippet=snippet,
        **extra,  # type: ignore[arg-type]
    )


BUSES = row(
    "notes/offsite-trip-plan",
    "Offsite trip plan",
    1.0,
    "The whole team goes to Sintra in June; buses leave the office at 8:00.",
)
OTHER = row("notes/team-party-notes", "Team party notes", 0.9, "Drinks on the roof terrace.")
MESSAGE = "where's the team away-trip this year and what time do the buses go"
EVERY = Gate(judge=0.0)  # admits every row the rules leave out: the plumbing, not the model


def test_the_weights_match_the_features() -> None:
    assert len(judge_weights.WEIGHTS) == len(judge.FEATURES)
    said = Message.of(MESSAGE)
    values = judge.features(BUSES, reading_of(BUSES, said, None), said, 0, 1.0, None, 0)
    assert len(values) == len(judge.FEATURES)
    assert 0.0 <= judge.probability(values) <= 1.0


def test_a_row_holding_more_of_the_message_is_more_probable() -> None:
    said = Message.of(MESSAGE)
    holds = judge.features(BUSES, reading_of(BUSES, said, None), said, 0, 1.0, None, 0)
    lacks = judge.features(OTHER, reading_of(OTHER, said, None), said, 1, 1.0, None, 0)
    assert judge.probability(holds) > judge.probability(lacks)


def test_the_judge_fills_only_the_slots_the_rules_left_empty() -> None:
    off = gate_rows([BUSES, OTHER], MESSAGE, gate=Gate(judge=None))
    on = gate_rows([BUSES, OTHER], MESSAGE, gate=EVERY, limit=3)
    assert [r.slug for r in on[: len(off)]] == [r.slug for r in off]
    assert {r.slug for r in on} == {BUSES.slug, OTHER.slug}
    assert len(gate_rows([BUSES, OTHER], MESSAGE, gate=EVERY, limit=1)) == 1
    # a pointer search asks for more rows than it shows: the judge fills only what it shows
    assert len(gate_rows([BUSES, OTHER], MESSAGE, gate=EVERY, limit=10, slots=1)) == 1
    shown = {"default:notes/team-party-notes"}  # a page shown before holds its slot
    assert gate_rows([BUSES, OTHER], MESSAGE, gate=EVERY, limit=1, skip=shown) == []
    assert len(gate_rows([BUSES, OTHER], MESSAGE, gate=EVERY, limit=2, skip=shown)) == 1
    assert gate_rows([BUSES, OTHER], MESSAGE, gate=EVERY, limit=3, max_tier=2) == off


def test_the_judge_never_takes_a_shown_an_unclean_or_a_vector_only_row() -> None:
    shown = gate_rows([BUSES], MESSAGE, gate=EVERY, skip={"default:notes/offsite-trip-plan"})
    assert shown == []
    flagged = replace(BUSES, injection_suspected=True)
    assert gate_rows([flagged], MESSAGE, gate=EVERY) == []
    vector = replace(BUSES, cosine=0.9, keyword_hit=False)
    assert gate_rows([vector], MESSAGE, gate=EVERY) == []
    lexical = replace(BUSES, cosine=0.9, keyword_hit=True)
    assert [r.slug for r in gate_rows([lexical], MESSAGE, gate=EVERY)] == [BUSES.slug]


def test_a_threshold_above_one_admits_nothing() -> None:
    assert gate_rows([BUSES, OTHER], MESSAGE, gate=Gate(judge=1.01)) == gate_rows(
        [BUSES, OTHER], MESSAGE, gate=Gate(judge=None)
    )


def test_the_judges_threshold_is_read_from_the_environment() -> None:
    def threshold(value: str | None) -> float | None:
        env = {} if value is None else {"GBRAIN_BRIEFING_JUDGE": value}
        return load_briefing_config(env.get).gate.judge

    assert threshold(None) == judge.THRESHOLD
    assert threshold("off") is None
    assert threshold("0") is None
    assert threshold("0.9") == 0.9
    assert threshold("0.2") == 0.5  # below even odds the model would admit its doubts
    assert threshold("lots") == judge.THRESHOLD
