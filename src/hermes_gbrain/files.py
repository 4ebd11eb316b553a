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

import hashlib
import hmac
import os
import secrets
import sqlite3
import stat
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

fcntl: ModuleType | None
try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: locks are per process there
    fcntl = None

__all__ = [
    "DIR_MODE",
    "FILE_MODE",
    "data_dir",
    "file_lock",
    "private_dir",
    "private_file",
    "profile_hmac",
    "profile_salt",
    "read_owned",
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


SALT_NAME = ".salt"


def profile_salt(hermes_home: str | os.PathLike[str]) -> bytes:
    """A random per-profile key (``gbrain/.salt``, 0600), made on first use.

    What keys the profile's caches (discovery, tokens) is an HMAC under it: stable
    across the profile's processes, useless anywhere else, and it never holds a secret.
    """
    path = data_dir(hermes_home) / SALT_NAME
    try:
        data = path.read_bytes()
        if len(data) == 32:
            private_file(path)  # narrow a key an older version left readable
            return data
    except OSError:
        pass
    data = secrets.token_bytes(32)
    try:
        private_dir(path.parent)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
    except FileExistsError:  # another process won the race (or left a bad file): use theirs
        existing = path.read_bytes()
        return existing if len(existing) == 32 else data
    except OSError:
        pass  # an unwritable home: the key is then stable for this process only
    return data


def profile_hmac(hermes_home: str | os.PathLike[str], *parts: str) -> str:
    """An HMAC of ``parts`` under the profile's key (hex): names a credential's cache
    files without revealing it, the same in every process of the profile."""
    mac = hmac.new(profile_salt(hermes_home), digestmod=hashlib.sha256)
    for part in parts:
        data = part.encode("utf-8", "surrogatepass")
        # Length-prefixed, so no choice of parts can shift bytes from one to the next.
        mac.update(len(data).to_bytes(8, "big"))
        mac.update(data)
    return mac.hexdigest()


def read_owned(path: str | os.PathLike[str], cap: int) -> bytes | None:
    """The bytes of a private file, or None when it is missing, too large, not a regular
    file (a symlink is not followed), not the owner's, or readable by anyone else.

    For files holding a credential: one that others could have read or replaced is
    not trusted, it is made again.
    """
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if (
            not stat.S_ISREG(info.st_mode)
            or stat.S_IMODE(info.st_mode) & 0o077
            or (hasattr(os, "geteuid") and info.st_uid != os.geteuid())
            or info.st_size > cap
        ):
            return None
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(cap + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data if len(data) <= cap else None


LOCK_POLL_S = 0.005
LOCK_POLL_MAX_S = 0.05


@contextmanager
def file_lock(path: str | os.PathLike[str], timeout: float) -> Iterator[bool]:
    """Hold an exclusive lock on ``path`` (made 0600 if missing) across processes.

    Yields True once held, False when ``timeout`` seconds passed first (the caller then
    decides: wait no longer, or go on unlocked). The lock dies with its process, so a
    crashed holder never blocks anyone. Without ``fcntl`` (Windows) it yields True at
    once: the lock is then per process only.
    """
    if fcntl is None:  # pragma: no cover - POSIX everywhere Hermes runs natively
        yield True
        return
    target = Path(path)
    try:
        private_dir(target.parent)
        fd = os.open(target, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), FILE_MODE)
    except OSError:
        yield True  # an unwritable home: nothing to share, so nothing to wait for
        return
    try:
        end = time.monotonic() + max(0.0, timeout)
        pause = LOCK_POLL_S
        held = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                held = True
                break
            except BlockingIOError:
                left = end - time.monotonic()
                if left <= 0:
                    break
                # flock has no timeout: poll, backing off, never past the deadline.
                time.sleep(min(pause, left))
                pause = min(pause * 2, LOCK_POLL_MAX_S)
            except OSError:
                held = True  # a filesystem without locks: go on as the only process
                break
        yield held
    finally:
        os.close(fd)  # closing releases the lock
