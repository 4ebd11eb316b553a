"""The session record: what each session was shown, across processes, bounded."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

from hermes_gbrain.recall.shown import (
    MAX_FILE_BYTES,
    REPEAT_TURNS,
    Shown,
    ShownLog,
    prune,
    sessions_dir,
)

PAGE = "[default:people/maya-okafor]"


def test_recent_pages_within_the_window_only(tmp_path: Path) -> None:
    home = str(tmp_path)
    log = ShownLog()
    log.record(home, "s1", turn=1, pages=[PAGE])
    assert PAGE in log.recent(home, "s1", 1 + REPEAT_TURNS)
    assert PAGE not in log.recent(home, "s1", 2 + REPEAT_TURNS)
    assert log.recent(home, "s2", 2) == frozenset()  # another session saw nothing


def test_the_last_turn_that_showed_pages_is_the_subject(tmp_path: Path) -> None:
    home = str(tmp_path)
    other = "[default:companies/marula-conservancy]"
    log = ShownLog()
    assert log.last(home, "s1", 1) == frozenset()
    log.record(home, "s1", turn=1, pages=[PAGE])
    log.record(home, "s1", turn=2, pages=[other, PAGE])
    log.record(home, "s1", turn=3, pages=[])  # a turn that showed nothing
    assert log.last(home, "s1", 4) == {other, PAGE}
    assert ShownLog().last(home, "s1", 4) == {other, PAGE}  # another process
    assert log.last(home, "s1", 3 + REPEAT_TURNS) == frozenset()  # out of the window


def test_a_new_process_reads_the_record_back(tmp_path: Path) -> None:
    home = str(tmp_path)
    ShownLog().record(home, "s1", turn=1, pages=[PAGE], briefed=True)
    later = ShownLog()  # another process
    assert later.briefed(home, "s1") and PAGE in later.recent(home, "s1", 2)
    assert not later.briefed(home, "s2")
    (path,) = sessions_dir(home).iterdir()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(sessions_dir(home).stat().st_mode) == 0o700
    assert stat.S_IMODE(sessions_dir(home).parent.stat().st_mode) == 0o700
    assert "s1" not in path.name


def test_written_only_when_something_changed(tmp_path: Path) -> None:
    home = str(tmp_path)
    log = ShownLog()
    log.record(home, "s1", turn=1, pages=[PAGE])
    log.record(home, "s1", turn=1, pages=[PAGE])
    log.record(home, "s1", turn=2, pages=[])
    assert log.writes == 1


def test_old_pages_are_dropped_and_pages_bounded(tmp_path: Path) -> None:
    home = str(tmp_path)
    log = ShownLog()
    log.record(home, "s1", turn=1, pages=[PAGE])
    log.record(home, "s1", turn=20, pages=[f"[default:notes/n{i}]" for i in range(200)])
    record = ShownLog().get(home, "s1")
    assert PAGE not in record.pages and len(record.pages) == 64
    assert len((sessions_dir(home) / next(iter(os.listdir(sessions_dir(home))))).read_bytes()) < (
        MAX_FILE_BYTES
    )


def test_empty_session_id_is_never_written(tmp_path: Path) -> None:
    home = str(tmp_path)
    log = ShownLog()
    log.record(home, "", turn=1, pages=[PAGE], briefed=True)
    assert log.briefed(home, "") and not sessions_dir(home).exists()


def test_broken_or_foreign_files_read_as_nothing(tmp_path: Path) -> None:
    assert Shown.from_json("not json") == Shown()
    assert Shown.from_json('{"v": 2, "briefed": true}') == Shown()
    odd = Shown.from_json('{"v": 1, "briefed": "yes", "turn": "3", "pages": {"a": "1", "b": 2}}')
    assert odd == Shown(briefed=False, turn=0, pages={"b": 2})
    home = str(tmp_path)
    log = ShownLog()
    log.record(home, "s1", turn=1, pages=[PAGE], briefed=True)
    (path,) = sessions_dir(home).iterdir()
    path.write_bytes(b" " * (MAX_FILE_BYTES + 1))
    assert not ShownLog().briefed(home, "s1")


def test_prune_by_age_and_count(tmp_path: Path) -> None:
    folder = tmp_path / "sessions"
    folder.mkdir()
    now = time.time()
    for i in range(6):
        path = folder / f"{i}.json"
        path.write_text("{}")
        os.utime(path, (now - i * 86_400, now - i * 86_400))
    (folder / "keep.txt").write_text("not ours")
    assert prune(folder, max_age_days=3.5, max_files=3) == 3
    assert sorted(p.name for p in folder.iterdir()) == ["0.json", "1.json", "2.json", "keep.txt"]
    assert prune(folder, max_age_days=30, max_files=1) == 2
    assert prune(tmp_path / "missing") == 0
