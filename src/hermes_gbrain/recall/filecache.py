"""Objects built from a profile's data file, rebuilt only when the file changes.

The gate reads the title vocabulary and the title index on every turn; parsing them
each time would cost more than the search. Each is kept per path with the file's
modification time and size, and built again when either moves. A large one (the title
index of a 50,000-page brain takes about a second to read and file) is built on a
background thread with :meth:`FileCache.peek`, so no turn waits for it: until it is
ready the turn gets what was built before (or None).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Generic, TypeVar

__all__ = ["FileCache"]

T = TypeVar("T")
log = logging.getLogger(__name__)


class FileCache(Generic[T]):
    """``get(path)``: what ``build(path, size)`` made of the file as it is now (None when
    the file is missing or ``build`` gave nothing); at most ``keep`` paths are held."""

    def __init__(self, build: Callable[[Path, int], T | None], keep: int = 64) -> None:
        self._build = build
        self._keep = keep
        self._lock = threading.Lock()
        self._held: dict[str, tuple[float, int, T | None]] = {}
        self._building: set[str] = set()

    def get(self, path: str | os.PathLike[str]) -> T | None:
        """Never raises for a missing or unreadable file (``build`` must not either)."""
        return self._read(Path(path), wait=True)

    def peek(self, path: str | os.PathLike[str]) -> T | None:
        """What was built for ``path`` (None before the first build); when the file has
        changed since, a build starts on a daemon thread (one per path at a time)."""
        return self._read(Path(path), wait=False)

    def _read(self, path: Path, *, wait: bool) -> T | None:
        try:
            stat = path.stat()
        except OSError:
            return None
        key = str(path)
        with self._lock:
            hit = self._held.get(key)
            if hit is not None and hit[0] == stat.st_mtime and hit[1] == stat.st_size:
                return hit[2]
            if not wait and key not in self._building:
                self._building.add(key)
                worker = threading.Thread(
                    target=self._background, args=(key, path, stat), daemon=True
                )
                worker.start()
        if wait:
            return self._store(key, path, stat)
        return hit[2] if hit is not None else None

    def _store(self, key: str, path: Path, stat: os.stat_result) -> T | None:
        value = self._build(path, stat.st_size)
        with self._lock:
            if len(self._held) >= self._keep:
                self._held.clear()
            self._held[key] = (stat.st_mtime, stat.st_size, value)
        return value

    def _background(self, key: str, path: Path, stat: os.stat_result) -> None:
        try:
            self._store(key, path, stat)
        except Exception as exc:  # build must not raise; a stray fault keeps the old value
            log.debug("background build failed: %s", type(exc).__name__)
        finally:
            with self._lock:
                self._building.discard(key)
