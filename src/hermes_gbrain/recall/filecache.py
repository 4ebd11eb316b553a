"""Objects built from a profile's data file, rebuilt only when the file changes.

The gate reads the title vocabulary and the title index on every turn; parsing them
each time would cost more than the search. Each is kept per path with the file's
modification time and size, and built again when either moves.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Generic, TypeVar

__all__ = ["FileCache"]

T = TypeVar("T")


class FileCache(Generic[T]):
    """``get(path)``: what ``build(path, size)`` made of the file as it is now (None when
    the file is missing or ``build`` gave nothing); at most ``keep`` paths are held."""

    def __init__(self, build: Callable[[Path, int], T | None], keep: int = 64) -> None:
        self._build = build
        self._keep = keep
        self._lock = threading.Lock()
        self._held: dict[str, tuple[float, int, T | None]] = {}

    def get(self, path: str | os.PathLike[str]) -> T | None:
        """Never raises for a missing or unreadable file (``build`` must not either)."""
        path = Path(path)
        try:
            stat = path.stat()
        except OSError:
            return None
        key = str(path)
        with self._lock:
            hit = self._held.get(key)
            if hit is not None and hit[0] == stat.st_mtime and hit[1] == stat.st_size:
                return hit[2]
        value = self._build(path, stat.st_size)
        with self._lock:
            if len(self._held) >= self._keep:
                self._held.clear()
            self._held[key] = (stat.st_mtime, stat.st_size, value)
        return value
