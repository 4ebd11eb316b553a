"""``recall.health``: the state file is written on a change (not every turn), the
session is told once each way, and the last-turn record keeps citations, never text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hermes_gbrain.advice import Advice
from hermes_gbrain.recall import health
from hermes_gbrain.recall.briefing import format_briefing
from hermes_gbrain.recall.pointers import format_block

DOWN = Advice("cannot reach GBrain at http://127.0.0.1:9/mcp (connection failed)", "start it")


@pytest.fixture(autouse=True)
def _fresh() -> None:
    health.forget_cache()


def _file(home: Path) -> dict[str, object]:
    return json.loads((home / "gbrain" / health.HEALTH_FILE).read_text())


def test_a_change_is_written_at_once_and_a_steady_state_once_a_minute(tmp_path: Path) -> None:
    health.record_outcome(tmp_path, None, now=1000.0)
    assert _file(tmp_path) == {"state": "ok", "last_success": 1000.0}
    health.record_outcome(tmp_path, None, now=1030.0)  # same state, within a minute
    assert _file(tmp_path)["last_success"] == 1000.0
    health.record_outcome(tmp_path, None, now=1061.0)
    assert _file(tmp_path)["last_success"] == 1061.0
    before = health.record_outcome(tmp_path, DOWN, now=1062.0)
    assert not before.failing
    data = _file(tmp_path)
    assert data["state"] == "failing" and data["last_success"] == 1061.0
    assert data["last_failure"] == {"at": 1062.0, "what": DOWN.what, "fix": DOWN.fix}
    assert oct((tmp_path / "gbrain" / health.HEALTH_FILE).stat().st_mode & 0o777) == "0o600"
    health.forget_cache()  # a new process reads what the last one left
    state = health.read_health(tmp_path)
    assert state is not None and state.failing and state.what == DOWN.what


def test_the_session_is_told_once_down_and_once_back(tmp_path: Path) -> None:
    tracker = health.Tracker()
    tracker.outcome(None)
    assert tracker.take() is None  # working from the start: nothing to say
    tracker.outcome(DOWN)
    tracker.outcome(DOWN)
    notice = tracker.take()
    assert notice is not None and notice[0] == "down" and DOWN.fix in notice[1]
    tracker.outcome(DOWN)
    assert tracker.take() is None
    assert not (tmp_path / "gbrain").exists()  # nothing on disk while a turn may wait
    tracker.outcome(None)
    assert tracker.take() == ("back", "GBrain memory is back")
    tracker.save(tmp_path)  # after the turn: the failure, then the success after it
    data = _file(tmp_path)
    assert data["state"] == "ok" and data["last_failure"]["what"] == DOWN.what
    tracker.outcome(None)
    assert tracker.take() is None
    # a session that starts where an earlier process left memory failing says "back" too
    later = health.Tracker(was_failing=True)
    later.outcome(None)
    assert later.take() == ("back", "GBrain memory is back")


def test_the_last_turn_keeps_titles_and_slugs_never_summaries(tmp_path: Path) -> None:
    from hermes_gbrain.api import SearchRow

    rows = [
        SearchRow(
            slug="people/maya-okafor",
            title="Maya Okafor",
            source_id="default",
            snippet="CEO who prefers secret plans",
        )
    ]
    briefing = format_briefing(rows)
    assert "secret plans" in briefing  # the summary the record must leave out
    pointers = format_block(["- [default:companies/kestrel-works] Kestrel Works"], 3)
    turn = health.turn_record(briefing + "\n" + pointers, session="s1")
    assert turn.briefing == (("default", "people/maya-okafor", "Maya Okafor"),)
    assert turn.pointers == (("default", "companies/kestrel-works", "Kestrel Works"),)
    health.write_last_turn(tmp_path, turn)
    raw = (tmp_path / "gbrain" / health.LAST_TURN_FILE).read_text()
    assert "secret plans" not in raw and "Maya Okafor" in raw
    again = health.read_last_turn(tmp_path)
    assert again is not None and again.pointers == turn.pointers and again.session == "s1"


def test_broken_files_read_as_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "gbrain"
    folder.mkdir()
    (folder / health.HEALTH_FILE).write_text("{not json")
    (folder / health.LAST_TURN_FILE).write_text("[1, 2]")
    assert health.read_health(tmp_path) is None and health.read_last_turn(tmp_path) is None


def test_a_late_failure_of_a_search_older_than_a_success_counts_for_nothing() -> None:
    tracker = health.Tracker()
    tracker.outcome(None, started=10.0)  # a newer search answered
    tracker.outcome(DOWN, started=5.0)  # an older, orphaned one failed afterwards
    assert tracker.take() is None
    tracker.outcome(DOWN, started=11.0)
    notice = tracker.take()
    assert notice is not None and notice[0] == "down"
