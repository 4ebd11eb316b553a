"""``hermes-gbrain digest --to mnemosyne``: the digest line as one Mnemosyne memory.

For profiles whose memory provider is Mnemosyne (``mnemosyne-hermes``, which
installs ``mnemosyne-memory``). The entry goes into the database that profile's
provider reads (:mod:`.mnemosyne_path`), as one ``scope="global"`` memory that every
later run **refreshes in place**: same id, new text, and a new timestamp, so it is
always as recent as the last build. Checked against mnemosyne-memory 4.0.0b6:

* Mnemosyne's automatic recall (``MnemosyneMemoryProvider.prefetch`` in
  mnemosyne-hermes 0.7.6) weighs recency with a 48 h half-life and drops a row whose
  score is under 0.20 *and* whose importance is under 0.65; the entry is stored with
  importance :data:`IMPORTANCE`, so age alone never drops it.
* ``Mnemosyne.update`` keeps the first timestamp; ``BeamMemory.update_working``
  takes ``timestamp`` and ``pinned``, so a refresh re-dates the row and pins it
  (pinned rows are exempt from Mnemosyne's trim and sleep consolidation).
* Mnemosyne has no memory shown on every turn: its ``system_prompt_block`` is fixed
  text, and recall only injects rows that share words with the message. Hook mode
  (``gbrain-hook``) is what puts the digest in front of the model each session.

The entry id and the database it lives in are kept in
``$HERMES_HOME/gbrain/mnemosyne.json``. Mnemosyne is imported lazily; it is not a
dependency of this package.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..errors import ConfigError, GBrainError
from ..files import data_dir, read_state, write_atomic
from ..settings import Lookup, cli_lookup
from .mnemosyne_path import MnemosyneTarget, resolve_mnemosyne_db

__all__ = [
    "IMPORTANCE",
    "SESSION_ID",
    "SinkPlan",
    "SinkResult",
    "plan_mnemosyne",
    "store_in_mnemosyne",
]

SESSION_ID = "hermes_gbrain_digest"
SOURCE = "hermes-gbrain-digest"
IMPORTANCE = 0.7
"""Above the 0.65 under which Mnemosyne's recall drops a low-scoring (old) row."""


@dataclass(frozen=True, slots=True)
class SinkResult:
    """What the sink did, for the CLI to print."""

    memory_id: str
    replaced: bool
    db_path: Path
    how: str


def _state_path(home: Path) -> Path:
    return data_dir(home) / "mnemosyne.json"


def _load_state(home: Path) -> tuple[str | None, str | None]:
    try:
        data = json.loads(read_state(_state_path(home), 64 * 1024).decode("utf-8"))
    except (OSError, ValueError):
        return None, None
    if not isinstance(data, dict):
        return None, None
    memory_id, db = data.get("memory_id"), data.get("db_path")
    return (
        memory_id if isinstance(memory_id, str) and memory_id else None,
        db if isinstance(db, str) and db else None,
    )


def _save_state(home: Path, memory_id: str, db_path: Path) -> None:
    state = {"memory_id": memory_id, "db_path": str(db_path)}
    write_atomic(_state_path(home), json.dumps(state) + "\n")


def _mnemosyne_class() -> Any:
    try:
        return importlib.import_module("mnemosyne").Mnemosyne
    except (ImportError, AttributeError):
        raise ConfigError(
            "Mnemosyne is not installed in this Python "
            "(pip install mnemosyne-hermes, or mnemosyne-memory)"
        ) from None


def _restamp(memory: Any, memory_id: str, stamp: str) -> bool:
    """Re-date and pin the row; False when this Mnemosyne cannot."""
    update = getattr(getattr(memory, "beam", None), "update_working", None)
    if update is None:
        return False
    try:
        params = inspect.signature(update).parameters
    except (TypeError, ValueError):
        return False
    if "timestamp" not in params or "pinned" not in params:
        return False
    return bool(update(memory_id, pinned=1, timestamp=stamp))


def _remember(memory: Any, line: str) -> str:
    memory_id = memory.remember(
        line,
        source=SOURCE,
        importance=IMPORTANCE,
        scope="global",
        metadata={"kind": "gbrain-digest"},
    )
    if not isinstance(memory_id, str) or not memory_id:
        raise GBrainError("Mnemosyne's write filter refused the digest line")
    return memory_id


def _forget_elsewhere(memory_class: Any, db: str, memory_id: str) -> None:
    """Remove the entry an earlier run left in another database (best effort)."""
    if not Path(db).is_file():
        return
    try:
        memory_class(session_id=SESSION_ID, db_path=Path(db)).forget(memory_id)
    except Exception:  # the old file is not ours to repair
        return


def _write(memory_class: Any, home: Path, db_path: Path, line: str, stamp: str) -> tuple[str, bool]:
    previous, previous_db = _load_state(home)
    memory = memory_class(session_id=SESSION_ID, db_path=db_path)
    same_db = previous_db is None or Path(previous_db) == db_path
    if previous is not None and same_db and memory.get(previous):
        updated = memory.update(previous, content=line, importance=IMPORTANCE)
        if updated is None:
            raise GBrainError("Mnemosyne's write filter refused the digest line")
        if updated and _restamp(memory, previous, stamp):
            return previous, True
        fresh = _remember(memory, line)  # cannot re-date: a new row, then drop the old one
        if fresh != previous:
            memory.forget(previous)
        _restamp(memory, fresh, stamp)
        return fresh, True
    memory_id = _remember(memory, line)
    _restamp(memory, memory_id, stamp)
    if previous is not None and previous_db is not None and not same_db:
        _forget_elsewhere(memory_class, previous_db, previous)
    return memory_id, False


@dataclass(frozen=True, slots=True)
class SinkPlan:
    """The database to write, found before any GBrain call so a bad setup fails fast."""

    memory_class: Any
    db_path: Path
    how: str


def plan_mnemosyne(
    hermes_home: str | os.PathLike[str],
    *,
    db_path: str | os.PathLike[str] | None = None,
    lookup: Lookup | None = None,
    resolve: Callable[..., MnemosyneTarget] = resolve_mnemosyne_db,
) -> SinkPlan:
    """Check Mnemosyne is importable and find the database (``db_path`` overrides);
    raises ``ConfigError`` (naming both candidates when the database is uncertain)."""
    memory_class = _mnemosyne_class()
    home = Path(hermes_home).expanduser()
    if db_path is not None:
        return SinkPlan(memory_class, Path(db_path).expanduser(), "chosen with --mnemosyne-db")
    target = resolve(home, lookup or cli_lookup(home))
    return SinkPlan(memory_class, target.db_path, target.describe())


def store_in_mnemosyne(
    hermes_home: str | os.PathLike[str],
    line: str,
    *,
    plan: SinkPlan | None = None,
    now: datetime | None = None,
) -> SinkResult:
    """Store or refresh the digest entry; raises ``GBrainError``."""
    home = Path(hermes_home).expanduser()
    plan = plan or plan_mnemosyne(home)
    stamp = (now or datetime.now(UTC)).astimezone(UTC).isoformat(timespec="seconds")
    try:
        plan.db_path.parent.mkdir(parents=True, exist_ok=True)
        memory_id, replaced = _write(plan.memory_class, home, plan.db_path, line, stamp)
    except GBrainError:
        raise
    except Exception as exc:  # Mnemosyne's own errors: one line, no text from it
        raise GBrainError(f"Mnemosyne failed: {type(exc).__name__}") from None
    _save_state(home, memory_id, plan.db_path)
    return SinkResult(memory_id, replaced, plan.db_path, plan.how)
