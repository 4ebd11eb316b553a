"""``hermes-gbrain digest --to mnemosyne``: the digest line as one Mnemosyne memory.

For users whose Hermes memory provider is Mnemosyne (``mnemosyne-hermes``, which
installs ``mnemosyne-memory``): Hermes allows one external provider, so the digest
reaches the model through Mnemosyne instead of our ``system_prompt_block``. Uses
Mnemosyne's published Python API (``mnemosyne.Mnemosyne`` with ``remember``,
``update`` and ``get``; checked against mnemosyne-memory 4.0.0b6) and stores one
``scope="global"`` entry that later runs **replace in place** (``update`` on the id
remembered in ``$HERMES_HOME/gbrain/mnemosyne.json``); if that entry is gone, a new
one is made.

Database: ``$MNEMOSYNE_DATA_DIR/mnemosyne.db`` when that is set, else the profile's
``$HERMES_HOME/mnemosyne/data/mnemosyne.db`` (Mnemosyne's default without profile
isolation). Mnemosyne is imported lazily; it is not a dependency of this package.
"""

from __future__ import annotations

import importlib
import json
import os
from pathlib import Path
from typing import Any

from ..errors import ConfigError, GBrainError
from ..files import data_dir, write_atomic

__all__ = ["SESSION_ID", "mnemosyne_db_path", "store_in_mnemosyne"]

SESSION_ID = "hermes_gbrain_digest"
SOURCE = "hermes-gbrain-digest"


def _state_path(home: Path) -> Path:
    return data_dir(home) / "mnemosyne.json"


def mnemosyne_db_path(hermes_home: str | os.PathLike[str]) -> Path:
    """Where the entry goes (see the module docstring)."""
    data_dir = os.environ.get("MNEMOSYNE_DATA_DIR", "").strip()
    base = Path(data_dir) if data_dir else Path(hermes_home) / "mnemosyne" / "data"
    return base / "mnemosyne.db"


def _load_id(home: Path) -> str | None:
    try:
        data = json.loads(_state_path(home).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    memory_id = data.get("memory_id") if isinstance(data, dict) else None
    return memory_id if isinstance(memory_id, str) and memory_id else None


def _save_id(home: Path, memory_id: str) -> None:
    write_atomic(_state_path(home), json.dumps({"memory_id": memory_id}) + "\n")


def store_in_mnemosyne(hermes_home: str | os.PathLike[str], line: str) -> tuple[str, bool]:
    """Store ``line``; returns ``(memory id, replaced in place)``. Raises ``GBrainError``."""
    try:
        module: Any = importlib.import_module("mnemosyne")
        memory_class = module.Mnemosyne
    except (ImportError, AttributeError):
        raise ConfigError(
            "Mnemosyne is not installed in this Python "
            "(pip install mnemosyne-hermes, or mnemosyne-memory)"
        ) from None
    home = Path(hermes_home).expanduser()
    db_path = mnemosyne_db_path(home)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    try:
        memory = memory_class(session_id=SESSION_ID, db_path=db_path)
        previous = _load_id(home)
        if previous is not None and memory.get(previous):
            if memory.update(previous, content=line) is None:
                raise GBrainError("Mnemosyne's write filter refused the digest line")
            return previous, True
        memory_id = memory.remember(
            line,
            source=SOURCE,
            importance=0.6,
            scope="global",
            metadata={"kind": "gbrain-digest"},
        )
    except GBrainError:
        raise
    except Exception as exc:  # Mnemosyne's own errors: one line, no text from it
        raise GBrainError(f"Mnemosyne failed: {type(exc).__name__}") from None
    if not isinstance(memory_id, str) or not memory_id:
        raise GBrainError("Mnemosyne's write filter refused the digest line")
    _save_id(home, memory_id)
    return memory_id, False
