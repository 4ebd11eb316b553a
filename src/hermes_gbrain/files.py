"""The few files this package keeps in a profile, how they are written, and who may read them.

Everything lives under ``$HERMES_HOME/gbrain/`` (the profile's own home, never a
hard-coded ``~/.hermes``). That folder holds page text waiting to be sent, tool lists
and a per-profile key, so it is the owner's alone: the folder is 0700 and every file in
it 0600, whatever the umask (Hermes documents ``HERMES_HOME_MODE=0701`` for a home that
other local users can traverse). SQLite's ``-wal`` and ``-shm`` files take the mode of
their database file, so a database created here 0600 keeps its sidecars 0600 too.

Files are replaced atomically — a temporary file in the same folder, flushed to disk,
then renamed over the old one — so a reader or a crash sees the old content or the new,
never a mix, and a failed write leaves the old file. A temporary file that a killed
process left behind (``.<name>-<random>.tmp``) is removed by the next write in its folder
once it is older than :data:`STALE_TEMP_S`.

State cannot be redirected: from the ``gbrain`` folder down, a folder or file that is a
symbolic link is refused (:class:`RedirectedError`) rather than written through, read,
re-moded or opened by SQLite, so a link planted in the profile cannot make this package write, or
create tables in, a file elsewhere. ``doctor`` names such links (:func:`redirected`).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import shutil
import sqlite3
import stat
import tempfile
import threading
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
    "STALE_TEMP_S",
    "KeyedFile",
    "RedirectedError",
    "data_dir",
    "file_lock",
    "private_dir",
    "private_file",
    "private_key",
    "profile_hmac",
    "profile_salt",
    "read_owned",
    "read_state",
    "redirected",
    "refuse_redirect",
    "stale_temp_files",
    "sweep_temp_files",
    "write_atomic",
]

DIR_MODE = 0o700
FILE_MODE = 0o600
DATA_DIR_NAME = "gbrain"
STALE_TEMP_S = 300.0
"""A temporary file older than this was left by a write that never finished."""
_TEMP = re.compile(r"\..+-[a-z0-9_]{8}\.tmp")
"""``tempfile.mkstemp(prefix=".<name>-", suffix=".tmp")``: eight random characters."""


class RedirectedError(OSError):
    """A state folder or file is a symbolic link: nothing is written or opened through it."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"{path} is a symbolic link; state files are never used through links")
        self.path = path


def _state_chain(path: Path) -> list[Path]:
    """``path`` and its parents up to the ``gbrain`` data folder; empty when ``path`` is
    not inside one (a profile's ``.env`` or plugin folder: links there are the user's)."""
    chain = []
    for candidate in (path, *path.parents):
        chain.append(candidate)
        if candidate.name == DATA_DIR_NAME:
            return chain
    return []


def refuse_redirect(path: str | os.PathLike[str]) -> None:
    """Raise :class:`RedirectedError` when ``path``, or a folder between it and the
    ``gbrain`` data folder (that folder included), is a symbolic link."""
    for candidate in _state_chain(Path(path)):
        if candidate.is_symlink():
            raise RedirectedError(candidate)


def redirected(hermes_home: str | os.PathLike[str]) -> list[Path]:
    """Every symbolic link among the data folder and what it holds (two levels deep)."""
    root = data_dir(hermes_home)
    if root.is_symlink():
        return [root]
    found: list[Path] = []
    try:
        for entry in os.scandir(root):
            if entry.is_symlink():
                found.append(Path(entry.path))
            elif entry.is_dir(follow_symlinks=False):
                found.extend(Path(e.path) for e in os.scandir(entry.path) if e.is_symlink())
    except OSError:
        pass  # no folder yet, or unreadable: nothing redirected that we could use
    return sorted(found)


def data_dir(hermes_home: str | os.PathLike[str]) -> Path:
    """``$HERMES_HOME/gbrain``: digest, discovery cache, outbox, sink state (not created)."""
    return Path(hermes_home) / "gbrain"


def private_dir(path: str | os.PathLike[str]) -> Path:
    """Create ``path`` (and missing parents) and make ``path`` itself 0700.

    Parents are created with the default mode: they are the profile's, not ours.
    An existing folder made more permissive by an older version is narrowed. A state
    folder that is a symbolic link is refused (:func:`refuse_redirect`), never re-moded.
    """
    folder = Path(path)
    refuse_redirect(folder)
    folder.mkdir(parents=True, exist_ok=True)
    if stat.S_IMODE(folder.stat().st_mode) != DIR_MODE:
        os.chmod(folder, DIR_MODE)
    return folder


def private_file(path: str | os.PathLike[str]) -> Path:
    """Make sure ``path`` exists and is 0600, creating it empty (and its folder 0700).

    Used before SQLite opens a database, so the file and the sidecars SQLite derives
    from its mode are never readable by others, even for an instant. A file that exists
    already is never opened here, only re-moded by name (:func:`_narrow`): see there.
    """
    target = Path(path)
    private_dir(target.parent)
    refuse_redirect(target)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    with _creating:
        try:
            fd = os.open(target, flags, FILE_MODE)
        except FileExistsError:
            _narrow(target)
            return target
        try:
            if stat.S_IMODE(os.fstat(fd).st_mode) != FILE_MODE:
                os.fchmod(fd, FILE_MODE)
        finally:
            os.close(fd)
    return target


_creating = threading.Lock()
"""Held from creating a file to closing it, so no other thread of this process has
SQLite open that file meanwhile (whose locks that ``close`` would drop: :func:`_narrow`)."""


def _narrow(path: Path, *, missing_ok: bool = False) -> None:
    """Make an existing state file 0600 by name, without opening it.

    Closing any descriptor of a file drops every POSIX lock this process holds on it,
    SQLite's included (its connections share one lock set per process). Opening and
    closing a database, or its ``-shm``, that another connection of this process has open
    would let a connection in another process believe it is alone: it then deletes the
    ``-wal`` and ``-shm`` on close, or resets the ``-shm`` on open while we have it mapped
    (``SIGBUS``), and writes go to files nobody else reads. So a file that may be open is
    only ever ``chmod``-ed by name; a link is refused (the folder is the owner's alone,
    so nobody else can swap one in between the check and the ``chmod``).
    """
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        if missing_ok:
            return
        raise
    if stat.S_ISLNK(info.st_mode):
        raise RedirectedError(path)
    if not stat.S_ISREG(info.st_mode):
        raise OSError(f"{path} is not a regular file")
    if stat.S_IMODE(info.st_mode) != FILE_MODE:
        os.chmod(path, FILE_MODE)


def write_atomic(path: str | os.PathLike[str], data: bytes | str, *, mode: int = FILE_MODE) -> Path:
    """Replace ``path`` with ``data`` atomically; the folder is created if needed.

    ``mode`` defaults to owner-only: these files hold brain text and tool lists, and
    their folder is then made owner-only too. A shared ``mode`` (the plugin shim) leaves
    the folder as it is. A state file that is a symbolic link is refused, not replaced.
    """
    target = Path(path)
    if mode & 0o077:
        target.parent.mkdir(parents=True, exist_ok=True)
    else:
        private_dir(target.parent)
        refuse_redirect(target)
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
    _sweep_now_and_then(target.parent)
    return target


def read_state(path: str | os.PathLike[str], max_bytes: int) -> bytes:
    """At most ``max_bytes + 1`` bytes of a state file (one more than allowed tells the
    caller it is too large). Never through a link, and only from a regular file: a FIFO
    or a device in its place would block or never end. Raises ``OSError``."""
    target = Path(path)
    refuse_redirect(target)
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(target, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{target} is not a regular file")
        chunks: list[bytes] = []
        left = max_bytes + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def stale_temp_files(
    folder: str | os.PathLike[str], *, older_than_s: float = STALE_TEMP_S
) -> list[Path]:
    """Temporary files of :func:`write_atomic` in ``folder`` that no write will finish."""
    horizon = time.time() - older_than_s
    found = []
    try:
        for entry in os.scandir(folder):
            if _TEMP.fullmatch(entry.name) and entry.stat(follow_symlinks=False).st_mtime < horizon:
                found.append(Path(entry.path))
    except OSError:
        pass
    return found


def sweep_temp_files(folder: str | os.PathLike[str], *, older_than_s: float = STALE_TEMP_S) -> int:
    """Remove the stale temporary files in ``folder``; returns how many went."""
    removed = 0
    for path in stale_temp_files(folder, older_than_s=older_than_s):
        try:
            path.unlink()
            removed += 1
        except OSError:
            continue  # gone already (another process swept it) or not ours to remove
    return removed


_swept: dict[str, float] = {}
_swept_lock = threading.Lock()


def _sweep_now_and_then(folder: Path) -> None:
    """Sweep a folder at most once per :data:`STALE_TEMP_S` per process, after a write."""
    now = time.monotonic()
    key = os.fspath(folder)
    with _swept_lock:
        if now - _swept.get(key, -STALE_TEMP_S) < STALE_TEMP_S:
            return
        if len(_swept) > 256:
            _swept.clear()
        _swept[key] = now
    sweep_temp_files(folder)


def private_key(path: str | os.PathLike[str], size: int = 32) -> bytes:
    """A random key of ``size`` bytes kept at ``path`` (0600), made on first use.

    A damaged key is treated like a damaged cache: a file of the wrong size, a folder
    or a link where the key should be is replaced by a fresh key (whatever was keyed
    by the old one simply misses once). Raises ``OSError`` only when the folder cannot
    be written at all (or is itself a link).
    """
    target = Path(path)
    private_dir(target.parent)
    try:
        info = target.lstat()
    except FileNotFoundError:
        info = None
    if info is not None and stat.S_ISREG(info.st_mode) and info.st_size == size:
        data = target.read_bytes()
        if len(data) == size:
            if stat.S_IMODE(info.st_mode) != FILE_MODE:
                os.chmod(target, FILE_MODE)  # narrow a key an older version left readable
            return data
    if info is not None and stat.S_ISDIR(info.st_mode):
        shutil.rmtree(target)  # a folder where our key belongs: ours, and damaged
    elif info is not None and not stat.S_ISREG(info.st_mode):
        target.unlink()  # a link or a special file: never read through
    data = secrets.token_bytes(size)
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:  # another process made one meanwhile, or a damaged file
        existing = target.read_bytes() if target.is_file() and not target.is_symlink() else b""
        if len(existing) == size:
            return existing
        write_atomic(target, data)  # replace the damaged one
        return data
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    return data


def open_private_sqlite(path: str | os.PathLike[str], schema: str) -> sqlite3.Connection:
    """A durable SQLite file (WAL, full sync) that only the owner can read.

    The file is made 0600 before SQLite opens it, because SQLite gives its ``-wal`` and
    ``-shm`` sidecars the main file's mode; sidecars an older version left readable are
    narrowed too. Autocommit (``isolation_level=None``): callers issue their own
    ``BEGIN IMMEDIATE`` where they need a transaction.
    """
    target = Path(path)
    private_file(target)
    for suffix in ("-wal", "-shm", "-journal"):
        sidecar = target.with_name(target.name + suffix)
        refuse_redirect(sidecar)  # SQLite would follow a planted link
        _narrow(sidecar, missing_ok=True)  # never opened: another connection may use it
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
    """A random per-profile key (``gbrain/.salt``, 0600, see :func:`private_key`).

    What keys the profile's caches (discovery, tokens, catalog) is an HMAC under it:
    stable across the profile's processes, useless anywhere else, and it never holds a
    secret. An unwritable (or redirected) home gets a key stable for this process only.
    """
    try:
        return private_key(data_dir(hermes_home) / SALT_NAME)
    except OSError:
        return _PROCESS_SALT


_PROCESS_SALT = secrets.token_bytes(32)


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


class KeyedFile:
    """A private file of the profile named by an HMAC of what it is kept for
    (``<prefix><hmac>.json`` in the data folder): a credential's token, its tool catalog.
    The name reveals nothing and differs for every credential; the HMAC is computed on
    first use, since it reads the profile's key."""

    prefix = "keyed-"

    def __init__(self, hermes_home: str | os.PathLike[str], *parts: str) -> None:
        self._home = Path(hermes_home)
        self._parts = parts
        self._key: str | None = None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(home={os.fspath(self._home)!r})"

    @property
    def key(self) -> str:
        """The HMAC naming what this file is kept for."""
        if self._key is None:
            self._key = profile_hmac(self._home, *self._parts)
        return self._key

    @property
    def path(self) -> Path:
        return data_dir(self._home) / f"{self.prefix}{self.key[:32]}.json"


def read_owned(path: str | os.PathLike[str], cap: int) -> bytes | None:
    """The bytes of a private file, or None when it is missing, too large, not a regular
    file (a symlink is not followed), not the owner's, or readable by anyone else.

    For files holding a credential: one that others could have read or replaced is
    not trusted, it is made again.
    """
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        refuse_redirect(path)
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
