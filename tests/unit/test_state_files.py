"""State files cannot be redirected, temporary files do not pile up, a damaged key is
replaced: ``files.py`` and the code that keeps state through it."""

from __future__ import annotations

import io
import json
import os
import sqlite3
import stat
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from hermes_gbrain.commands.doctor import DoctorReport, _state
from hermes_gbrain.files import (
    STALE_TEMP_S,
    RedirectedError,
    data_dir,
    open_private_sqlite,
    private_key,
    redirected,
    write_atomic,
)
from hermes_gbrain.recall.shown import prune
from hermes_gbrain.settings import Settings
from hermes_gbrain.toolbridge.discovery import credential_key
from hermes_gbrain.toolbridge.outbox import Outbox

SCHEMA = "CREATE TABLE IF NOT EXISTS outbox (id INTEGER PRIMARY KEY);"


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_linked_data_folder_is_neither_written_into_nor_re_moded(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o755)
    os.chmod(elsewhere, 0o755)
    home = tmp_path / "home"
    home.mkdir()
    (home / "gbrain").symlink_to(elsewhere)
    with pytest.raises(RedirectedError):
        write_atomic(data_dir(home) / "digest.json", "{}")
    with pytest.raises(RedirectedError):
        private_key(data_dir(home) / ".salt")
    assert list(elsewhere.iterdir()) == [] and _mode(elsewhere) == 0o755
    assert redirected(home) == [home / "gbrain"]


def test_a_linked_state_file_is_refused_and_its_target_untouched(tmp_path: Path) -> None:
    target = tmp_path / "precious.json"
    target.write_text("mine")
    os.chmod(target, 0o644)
    folder = data_dir(tmp_path / "home")
    folder.mkdir(parents=True)
    (folder / "digest.json").symlink_to(target)
    with pytest.raises(RedirectedError):
        write_atomic(folder / "digest.json", "{}")
    assert target.read_text() == "mine" and _mode(target) == 0o644
    assert redirected(folder.parent) == [folder / "digest.json"]


def test_a_linked_outbox_never_reaches_the_other_database(tmp_path: Path) -> None:
    """An outbox file linked to another SQLite database once got an ``outbox`` table,
    WAL mode and mode 0600."""
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).close()
    os.chmod(other, 0o644)
    folder = data_dir(tmp_path / "home")
    folder.mkdir(parents=True)
    (folder / "outbox.sqlite").symlink_to(other)
    with pytest.raises(RedirectedError):
        open_private_sqlite(folder / "outbox.sqlite", SCHEMA)
    with pytest.raises(RedirectedError):
        Outbox(folder / "outbox.sqlite")
    db = sqlite3.connect(other)
    tables = db.execute("SELECT name FROM sqlite_master").fetchall()
    mode = db.execute("PRAGMA journal_mode").fetchone()[0]
    db.close()
    assert tables == [] and mode == "delete" and _mode(other) == 0o644


def test_a_linked_sqlite_sidecar_is_refused(tmp_path: Path) -> None:
    folder = data_dir(tmp_path)
    folder.mkdir()
    decoy = tmp_path / "decoy"
    decoy.write_bytes(b"")
    (folder / "outbox.sqlite-wal").symlink_to(decoy)
    with pytest.raises(RedirectedError):
        open_private_sqlite(folder / "outbox.sqlite", SCHEMA)
    assert decoy.read_bytes() == b""


def test_opening_a_second_connection_keeps_the_first_ones_locks(tmp_path: Path) -> None:
    """Opening the outbox again in a process that has it open once closed a descriptor of
    the database and its ``-shm``, which dropped the first connection's POSIX locks: another
    process then took itself for the last user, deleted the ``-wal`` and ``-shm`` under the
    open connections (or reset the mapped ``-shm``: a bus error) and lost their writes."""
    path = data_dir(tmp_path) / "outbox.sqlite3"
    first = open_private_sqlite(path, SCHEMA)
    first.execute("INSERT INTO outbox DEFAULT VALUES")
    wal, shm = (path.with_name(path.name + s) for s in ("-wal", "-shm"))
    os.chmod(shm, 0o644)  # left readable by an older version: narrowed by name
    second = open_private_sqlite(path, SCHEMA)
    assert _mode(shm) == 0o600
    other = (
        "import sqlite3, sys\n"
        "db = sqlite3.connect(sys.argv[1])\n"
        "db.execute('SELECT count(*) FROM outbox').fetchone()\n"
        "db.close()\n"
    )
    subprocess.run([sys.executable, "-c", other, str(path)], check=True, timeout=30)
    # Still two connections here: the other process was not the last and removed nothing.
    assert wal.exists() and shm.exists()
    second.execute("INSERT INTO outbox DEFAULT VALUES")
    first.close()
    second.close()
    check = sqlite3.connect(path)
    assert check.execute("SELECT count(*) FROM outbox").fetchone() == (2,)
    check.close()


def test_links_outside_the_data_folder_are_the_users(tmp_path: Path) -> None:
    """A profile's ``.env`` kept in a dotfiles repository stays allowed (and is replaced
    by the new file, never written through)."""
    real = tmp_path / "dotfiles.env"
    real.write_text("A=1\n")
    (tmp_path / ".env").symlink_to(real)
    write_atomic(tmp_path / ".env", "A=2\n")
    assert real.read_text() == "A=1\n" and (tmp_path / ".env").read_text() == "A=2\n"


def _aged(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def test_temporary_files_left_by_killed_writes_are_swept(tmp_path: Path) -> None:
    folder = data_dir(tmp_path / "fresh-process")
    folder.mkdir(parents=True)
    stale = [folder / f".s{n}.json-abcd{n}xyz.tmp" for n in range(5)]
    for path in stale:
        path.write_text("half")
        _aged(path, STALE_TEMP_S + 60)
    busy = folder / ".digest.json-k2j4h5g6.tmp"  # a write still in progress
    busy.write_text("half")
    other = folder / ".notes.tmp"  # not one of ours
    other.write_text("x")
    _aged(other, STALE_TEMP_S + 60)
    write_atomic(folder / "digest.json", "{}")
    assert [p for p in stale if p.exists()] == []
    assert busy.exists() and other.exists()


def test_session_pruning_sweeps_temporary_files(tmp_path: Path) -> None:
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    left = [sessions / f".{n:032x}.json-{n:08d}.tmp" for n in range(23)]
    for path in left:
        path.write_text("{")
        _aged(path, STALE_TEMP_S + 1)
    assert prune(sessions) == 23
    assert list(sessions.iterdir()) == []


@pytest.mark.parametrize("damage", ["folder", "short", "long", "link"])
def test_a_damaged_key_is_replaced_like_a_damaged_cache(tmp_path: Path, damage: str) -> None:
    """A ``gbrain/.salt`` that is a folder once stopped ``doctor`` and the tools."""
    salt = data_dir(tmp_path) / ".salt"
    salt.parent.mkdir()
    decoy = tmp_path / "decoy"
    decoy.write_bytes(b"k" * 32)
    if damage == "folder":
        salt.mkdir()
        (salt / "junk").write_text("x")
    elif damage == "link":
        salt.symlink_to(decoy)
    else:
        salt.write_bytes(b"x" * (5 if damage == "short" else 64))
    settings = Settings(hermes_home=str(tmp_path), access_token="t")
    key = credential_key(settings)
    assert salt.is_file() and not salt.is_symlink() and len(salt.read_bytes()) == 32
    assert _mode(salt) == 0o600 and decoy.read_bytes() == b"k" * 32
    assert credential_key(settings) == key  # stable once repaired


def test_doctor_names_links_and_sweeps_temporary_files(tmp_path: Path) -> None:
    folder = data_dir(tmp_path)
    folder.mkdir()
    left = folder / ".digest.json-abcdefgh.tmp"
    left.write_text("{")
    _aged(left, STALE_TEMP_S + 1)
    (folder / ".salt").mkdir()
    report = DoctorReport()
    _state(tmp_path, report)
    (check,) = report.checks
    assert check.status == "pass" and "removed 1" in check.detail and "damaged key" in check.detail
    assert not left.exists() and (folder / ".salt").is_file()
    (folder / "outbox.sqlite").symlink_to(tmp_path / "elsewhere.sqlite")
    report = DoctorReport()
    _state(tmp_path, report)
    (check,) = report.checks
    assert check.status == "fail" and "outbox.sqlite" in check.detail and "rm " in check.fix
    out = io.StringIO()
    report.print(out)
    assert "symbolic link" in out.getvalue()
    assert json.dumps(report.to_json())


def test_state_is_never_read_through_a_link_or_from_a_fifo(tmp_path: Path) -> None:
    """A digest linked to a file elsewhere would put that file's text in the system
    prompt; a FIFO in its place would block the turn."""
    from hermes_gbrain.recall.digest import Digest, read_digest_line, write_digest
    from hermes_gbrain.recall.vocabulary import load_vocabulary
    from hermes_gbrain.toolbridge.discovery import load_discovery

    elsewhere = tmp_path / "elsewhere"
    now = datetime.now(UTC).isoformat(timespec="seconds")
    write_digest(elsewhere, Digest("GBrain digest: planted elsewhere.", now))
    home = tmp_path / "home"
    folder = data_dir(home)
    folder.mkdir(parents=True)
    (folder / "digest.json").symlink_to(data_dir(elsewhere) / "digest.json")
    assert read_digest_line(elsewhere) == "GBrain digest: planted elsewhere."
    assert read_digest_line(home) == ""
    (folder / "title_vocab.json").symlink_to("/dev/zero")
    assert load_vocabulary(home) is None
    os.mkfifo(folder / "discovery.json")
    started = time.monotonic()
    assert load_discovery(home, None) is None
    assert time.monotonic() - started < 5  # returned at once, did not wait for a writer
