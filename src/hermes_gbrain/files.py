"""The few files this package keeps in a profile, how they are written, and who may read them.

Everything lives under ``$HERMES_HOME/gbrain/`` (the profile's own home, never a
hard-coded ``~/.hermes``). That folder holds page text waiting to be sent, tool lists
and a per-profile key, so it is the owner's alone: the folder is 0700 and every file in
it 0600, whatever the umask (Hermes documents ``HERMES_HOME_MODE=0701`` for a home that
other local users can traverse). SQLite's ``-wal`` and ``-shm`` files take the mode of
their database file, so a database created here 0600 keeps its sidecars 0600 too.

Files are replaced atomically — a temporary file in the same folder, flushed to disk,
then renamed over the old one — so a reader or a crash sees the old content or the new,
never a mix, and a failed write leaves the old file.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import tempfile
from pathlib import Path

__all__ = [
    "DIR_MODE",
    "FILE_MODE",
    "data_dir",
    "private_dir",
    "private_file",
    "write_atomic",
]

DIR_MODE = 0o700
FILE_MODE = 0o600


def data_dir(hermes_home: str | os.PathLike[str]) -> Path:
    """``$HERMES_HOME/gbrain``: digest, discovery cache, outbox, sink state (not created)."""
    return Path(hermes_home) / "gbrain"


def private_dir(path: str | os.PathLike[str]) -> Path:
    """Create ``path`` (and missing parents) and make ``path`` itself 0700.

    Parents are created with the default mode: they are the profile's, not ours.
    An existing folder made more permissive by an older version is narrowed.
    """
    folder = Path(path)
    folder.mkdir(parents=True, exist_ok=True)
    if stat.S_IMODE(folder.stat().st_mode) != DIR_MODE:
        os.chmod(folder, DIR_MODE)
    return folder


def private_file(path: str | os.PathLike[str]) -> Path:
    """Make sure ``path`` exists and is 0600, creating it empty (and its folder 0700).

    Used before SQLite opens a database, so the file and the sidecars SQLite derives
    from its mode are never readable by others, even for an instant.
    """
    target = Path(path)
    private_dir(target.parent)
    fd = os.open(target, os.O_RDWR | os.O_CREAT, FILE_MODE)
    try:
        if stat.S_IMODE(os.fstat(fd).st_mode) != FILE_MODE:
            os.fchmod(fd, FILE_MODE)
    finally:
        os.close(fd)
    return target


def write_atomic(path: str | os.PathLike[str], data: bytes | str, *, mode: int = FILE_MODE) -> Path:
    """Replace ``path`` with ``data`` atomically; the folder is created if needed.

    ``mode`` defaults to owner-only: these files hold brain text and tool lists, and
    their folder is then made owner-only too. A shared ``mode`` (the plugin shim) leaves
    the folder as it is.
    """
    target = Path(path)
    if mode & 0o077:
        target.parent.mkdir(parents=True, exist_ok=True)
    else:
        private_dir(target.parent)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}-", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def open_private_sqlite(path: str | os.PathLike[str], schema: str) -> sqlite3.Connection:
    """A durable SQLite file (WAL, full sync) that only the owner can read.

    The file is made 0600 before SQLite opens it, because SQLite gives its ``-wal`` and
    ``-shm`` sidecars the main file's mode; sidecars an older version left readable are
    narrowed too. Autocommit (``isolation_level=None``): callers issue their own
    ``BEGIN IMMEDIATE`` where they need a transaction.
    """
    target = Path(path)
    private_file(target)
    for suffix in ("-wal", "-shm"):
        sidecar = target.with_name(target.name + suffix)
        if sidecar.exists():
            private_file(sidecar)
    db = sqlite3.connect(
        os.fspath(target), timeout=5.0, check_same_thread=False, isolation_level=None
    )
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.executescript(schema)
    except BaseException:
        db.close()
        raise
    return db


def process_alive(pid: int) -> bool:
    """Whether a process with this id exists (a lease held by a dead process is free)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, not ours to signal
    return True
