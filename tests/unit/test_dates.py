"""The date marks titles and messages give (years, months, ISO weeks)."""

from __future__ import annotations

import pytest

from hermes_gbrain.recall.dates import agree, date_marks, is_date_stem, is_periodic, said_in_figures


@pytest.mark.parametrize(
    ("text", "marks"),
    [
        ("On-Call Retro (2026-03-12)", {"y2026", "m3", "d3-12"}),
        ("Standup notes 2026-W17", {"y2026", "w17"}),
        ("Monthly planning meeting, June 2026", {"y2026", "m6"}),
        ("standup notes week 9", {"w9"}),
        ("notes from wk 12 and W05", {"w12", "w5"}),
        ("the june planning session", {"m6"}),
        ("Mar 12 and Sept", {"m3", "m9", "d3-12"}),
        ("may I see the mar notes", set()),  # a verb and a word, not months
        ("jan said feb or sept", {"m2", "m9"}),  # "jan" is a name too; Jan is the month
        ("the Jan report", {"m1"}),
        ("the retro in May", {"m5"}),
        ("we 12 people and version 3000", set()),
        ("Quarterly report Q2 2026", {"q2", "y2026"}),
        ("the q3 numbers", {"q3"}),
        # beside a day, a short month is one however typed
        ("oncall retro 12 mar", {"m3", "d3-12"}),
        ("may 3rd or jan 5", {"m5", "m1", "d5-3", "d1-5"}),
        ("i may go 2 days", set()),
        ("on-call retro 12/3", {"m3", "m12", "d3-12", "d12-3"}),  # day first or month first
        # months in other languages; those that are also words or names only beside a day
        ("le Board Update du 9 mars", {"m3", "d3-9"}),
        ("am 9. März", {"m3", "d3-9"}),
        ("el 9 de marzo y en abril", {"m3", "m4", "d3-9"}),
        ("notas de agosto", {"m8"}),
        ("im Januar", {"m1"}),
        ("встреча 9 марта", {"m3", "d3-9"}),
        ("debriefing vizit teren Marula a (16 mas)", {"m3", "d3-16"}),  # Haitian Creole
        ("reyinyon oktòb la", {"m10"}),
        ("3 out of 5, give it 2 me", set()),  # Haitian's "out" and "me" are English words
        ("ny fivoriana tamin'ny 12 Martsa", {"m3", "d3-12"}),  # Malagasy
        ("mas o menos", set()),  # "mas" only beside a day
        ("on-call retro han Marso", {"m3"}),  # Waray, with Tagalog's months
        ("de board meeting summary van maart", {"m3"}),  # Dutch
        ("laporan bulan Agustus", {"m8"}),  # Indonesian
        ("what did Mei Lin say", set()),  # "mei" only beside a day ...
        ("vergadering van 12 mei", {"m5", "d5-12"}),  # ... as Dutch dates it
        ("в марте", {"m3"}),
        ("3月9日の会議", {"m3", "d3-9"}),
        ("5월 30일 회의에서", {"m5", "d5-30"}),  # Korean, the day apart or not
        ("12월에 보고한", {"m12"}),
        ("월요일에", set()),  # Monday: no figure, no month
        ("十一月に", {"m11"}),
        ("the mars rover and Marco's notes", set()),
        ("ask Julio about mayo", set()),
        ("12/3/2026", {"m3", "m12", "y2026", "d3-12", "d12-3"}),
        ("1/13", {"m1", "d1-13"}),  # only one way round is a date
        ("40/50 and 1/2/3", set()),
        ("2026/12", {"y2026"}),
        # a day beside its month, however it is written
        ("the 12th of march", {"m3", "d3-12"}),
        ("planning mtg (28.02.)", {"m2", "d2-28"}),
        ("top 10 of may", set()),
        ("version 1.2.10", set()),
    ],
)
def test_marks(text: str, marks: set[str]) -> None:
    assert date_marks(text) == marks


def test_agree_needs_a_shared_date_and_no_contradiction() -> None:
    title = date_marks("Board Update (2026-03-09)")
    assert agree(title, date_marks("march"))
    assert agree(title, date_marks("march 2026"))
    assert not agree(title, date_marks("march 2025"))  # the year contradicts
    assert not agree(title, date_marks("june"))
    assert not agree(title, frozenset())
    assert agree(title, date_marks("9/3"))  # either reading may be the title's
    assert not agree(title, date_marks("9/4"))
    assert agree(title, date_marks("march 9th"))
    assert not agree(title, date_marks("march 10th"))  # the month agrees, the day does not


def test_date_stems() -> None:
    assert all(is_date_stem(s) for s in ("2026", "w17", "q2", "june", "march", "quarterly"))
    assert not any(is_date_stem(s) for s in ("retro", "week", "w", "wiki"))


def test_date_words_are_read_as_the_gate_stems_them() -> None:
    from hermes_gbrain.recall.words import stem

    assert all(is_date_stem(stem(w)) for w in ("february", "january", "monthly", "quarterly"))
    assert is_periodic(stem("yearly")) and is_periodic(stem("daily"))


@pytest.mark.parametrize(
    ("said", "figures"),
    [
        ("need the q two twenty twenty six quarterly report", "q2 2026"),
        ("hiring plan twenty twenty seven what roles", "2027"),
        ("two thousand and twenty six budget", "2026"),
        ("standup notes week fourteen", "week 14 w14"),
        ("quarter three numbers", "q3"),
        # numbers that say no year, quarter or week stay words
        ("twenty six people signed up", ""),
        ("two weeks ago, q five", ""),
        ("week sixty", ""),
    ],
)
def test_years_quarters_and_weeks_said_in_words_are_read_in_figures(
    said: str, figures: str
) -> None:
    assert said_in_figures(said) == figures


def test_a_dictated_year_and_quarter_name_a_periodic_page() -> None:
    from hermes_gbrain.api import SearchRow
    from hermes_gbrain.recall.gate import gate_rows

    report = SearchRow(
        slug="notes/quarterly-report-q2-2026", title="Quarterly report Q2 2026",
        source_id="default", type="note", score=1.0, evidence="keyword_exact",
        snippet="Revenue and runway for Q2.",
    )  # fmt: skip
    other = SearchRow(
        slug="notes/quarterly-report-q1-2026", title="Quarterly report Q1 2026",
        source_id="default", type="note", score=1.0, evidence="keyword_exact",
        snippet="Revenue and runway for Q1.",
    )  # fmt: skip
    asked = "need the q two twenty twenty six quarterly report"
    assert [r.slug for r in gate_rows([other, report], asked)] == [report.slug]
