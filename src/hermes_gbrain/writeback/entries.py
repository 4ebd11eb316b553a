"""Hermes' built-in memory files, read as ``tools/memory_tool.py`` (hermes-agent 0.19.0) reads them.

``$HERMES_HOME/memories/MEMORY.md`` (target ``memory``) and ``USER.md`` (target ``user``)
hold entries joined by a line holding only ``§`` (``ENTRY_DELIMITER = "\\n§\\n"``). Hermes
splits on that exact delimiter (never on a bare ``§``, which an entry may contain),
strips each entry, drops empty ones and keeps the first of exact duplicates.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["ENTRY_DELIMITER", "MAX_FILE_BYTES", "TARGET_FILES", "memory_file", "read_entries"]

ENTRY_DELIMITER = "\n§\n"
TARGET_FILES = {"memory": "MEMORY.md", "user": "USER.md"}
MAX_FILE_BYTES = 1_048_576
"""Hermes caps both files at a few thousand characters; anything larger is not its file."""


def memory_file(hermes_home: str | os.PathLike[str], target: str) -> Path:
    return Path(hermes_home) / "memories" / TARGET_FILES[target]


def read_entries(hermes_home: str | os.PathLike[str], target: str) -> list[str]:
    """The entries of one target, in file order; a missing or unreadable file has none."""
    path = memory_file(hermes_home, target)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError:
        return []
    if len(raw) > MAX_FILE_BYTES:
        raise ValueError(f"{path.name} is larger than 1 MiB; not a Hermes memory file")
    text = raw.decode("utf-8", errors="replace")
    if not text.strip():
        return []
    entries = [e.strip() for e in text.split(ENTRY_DELIMITER)]
    return list(dict.fromkeys(e for e in entries if e))
