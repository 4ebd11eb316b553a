"""A stand-in for Mnemosyne, for tests that run without it installed.

Real Mnemosyne (``mnemosyne-hermes`` 0.7.6 with ``mnemosyne-memory`` 4.0.0b6) pulls
in about 500 MB (onnxruntime, fastembed), so the default suite uses this stand-in and
``make test-mnemosyne`` runs the same cases against the real package
(``tests/mnemosyne/``). What the stand-in copies, and from where:

* **Database path** — ``mnemosyne_hermes/__init__.py`` (mnemosyne-hermes 0.7.6),
  ``MnemosyneMemoryProvider._initialize_locked``: with ``hermes_home`` the database
  is ``<home>/mnemosyne/data/mnemosyne.db``, or with profile isolation
  ``<home resolved>/mnemosyne/data/banks/<bank>/mnemosyne.db``;
  ``MNEMOSYNE_DATA_DIR`` plays no part once ``hermes_home`` is given. The bank comes from
  ``_resolve_profile_bank``/``_sanitize_bank_name``; the isolation flag from
  ``_resolve_profile_isolation`` (kwargs, then ``memory.mnemosyne.profile_isolation``
  in the profile's ``config.yaml``).
* **Recency scoring** — ``mnemosyne/core/beam.py`` (mnemosyne-memory 4.0.0b6):
  ``BeamMemory.recall``'s working-memory score, ``_recency_decay`` (168 h half-life)
  and ``_temporal_boost`` (the provider passes ``temporal_weight=0.2``,
  ``temporal_halflife=48``); and ``MnemosyneMemoryProvider.prefetch``'s rule that
  drops a row with ``score < 0.20 and importance < 0.65``.
* **Lexical gate** — ``_prefetch_has_distinctive_lexical_evidence``: at least two
  shared tokens (three letters or more) covering 30% of the query's tokens.
  Relevance itself is simplified to the share of query tokens the row contains
  (Mnemosyne ranks with SQLite FTS5).

The ``Mnemosyne`` class keeps the Python API the sink uses (``remember``, ``get``,
``update``, ``forget``, ``beam.update_working``) over a real SQLite file.
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
import types
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from hermes_gbrain.commands.mnemosyne_path import sanitize_bank_name

RECENCY_HALFLIFE_HOURS = 168.0  # beam.py RECENCY_HALFLIFE_HOURS default
PREFETCH_TEMPORAL_WEIGHT = 0.2  # MnemosyneMemoryProvider.prefetch
PREFETCH_TEMPORAL_HALFLIFE = 48.0
IMPORTANCE_WEIGHT = 0.2  # beam.py default importance weight
SCORE_FLOOR = 0.20
IMPORTANCE_FLOOR = 0.65
_TOKEN = re.compile(r"[a-z0-9][a-z0-9_\-./]*")

CLOCK: Any = None
"""Tests may set a callable returning an aware ``datetime``: when ``remember`` stamps."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS working_memory (
    id TEXT PRIMARY KEY, content TEXT, source TEXT, timestamp TEXT, session_id TEXT,
    importance REAL, scope TEXT, pinned INTEGER DEFAULT 0, metadata_json TEXT
)
"""


def _naive_utc(when: datetime | str) -> str:
    """beam.py stores naive UTC ISO timestamps."""
    moment = datetime.fromisoformat(when) if isinstance(when, str) else when
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment.isoformat()


def _parse(timestamp: str) -> datetime:
    moment = datetime.fromisoformat(timestamp)
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def recency_decay(timestamp: str, now: datetime) -> float:
    """beam.py ``_recency_decay``."""
    age_hours = (now - _parse(timestamp)).total_seconds() / 3600.0
    return math.exp(-age_hours / RECENCY_HALFLIFE_HOURS)


def temporal_boost(timestamp: str, now: datetime, halflife: float) -> float:
    """beam.py ``_temporal_boost`` (future timestamps clamp to now)."""
    moment = min(_parse(timestamp), now)
    return math.exp(-((now - moment).total_seconds() / 3600.0) / halflife)


def working_score(relevance: float, importance: float, timestamp: str, now: datetime) -> float:
    """``BeamMemory.recall``'s working-memory score as the provider's prefetch calls it."""
    iw = IMPORTANCE_WEIGHT
    kw_share, rc_share = (1.0 - iw) * 0.6, (1.0 - iw) * 0.4
    base = relevance * kw_share + importance * iw + (relevance**2) * 0.08
    score = base * (rc_share + (1.0 - rc_share) * recency_decay(timestamp, now))
    boost = temporal_boost(timestamp, now, PREFETCH_TEMPORAL_HALFLIFE)
    return score * (1.0 + PREFETCH_TEMPORAL_WEIGHT * boost)


def prefetch_keeps(score: float, importance: float) -> bool:
    """``MnemosyneMemoryProvider.prefetch``: ``score < 0.20 and importance < 0.65`` drops."""
    return not (score < SCORE_FLOOR and importance < IMPORTANCE_FLOOR)


def _tokens(text: str) -> set[str]:
    found = (t.strip(".,;!?()[]{}\"'") for t in _TOKEN.findall(text.lower()))
    return {t for t in found if len(t) > 2}


def lexical_gate(query: str, content: str) -> bool:
    """``_prefetch_has_distinctive_lexical_evidence`` (defaults 2 tokens, 30% coverage)."""
    wanted = _tokens(query)
    overlap = wanted & _tokens(content)
    return len(overlap) >= 2 and len(overlap) / max(len(wanted), 1) >= 0.30


# -- the Python API the sink uses --------------------------------------------------------


class _Beam:
    def __init__(self, conn: sqlite3.Connection, session_id: str) -> None:
        self.conn = conn
        self.session_id = session_id

    def update_working(
        self,
        memory_id: str,
        content: str | None = None,
        importance: float | None = None,
        pinned: int | None = None,
        timestamp: str | None = None,
    ) -> bool:
        """beam.py ``BeamMemory.update_working``: global rows update across sessions."""
        sets: list[str] = []
        params: list[Any] = []
        for column, value in (("content", content), ("importance", importance)):
            if value is not None:
                sets.append(f"{column} = ?")
                params.append(value)
        if pinned is not None:
            sets.append("pinned = ?")
            params.append(1 if pinned else 0)
        if timestamp is not None:
            sets.append("timestamp = ?")
            params.append(_naive_utc(timestamp))
        if not sets:
            return False
        cursor = self.conn.execute(
            f"UPDATE working_memory SET {', '.join(sets)} "
            "WHERE id = ? AND (session_id = ? OR scope = 'global')",
            (*params, memory_id, self.session_id),
        )
        self.conn.commit()
        return cursor.rowcount > 0


class Mnemosyne:
    """``mnemosyne.Mnemosyne`` (memory.py): the subset the sink calls."""

    def __init__(self, session_id: str = "default", db_path: Path | None = None, **_: Any):
        if db_path is None:  # the sink always names the file
            raise NotImplementedError("the stand-in needs db_path")
        self.session_id = session_id
        self.db_path = Path(db_path)
        self.db_path.parent.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(self.db_path)
        self.conn.row_factory = sqlite3.Row
        self.conn.execute(_SCHEMA)
        self.beam = _Beam(self.conn, session_id)

    def _now(self) -> datetime:
        return CLOCK() if CLOCK is not None else datetime.now(UTC)

    def remember(
        self,
        content: str,
        source: str = "conversation",
        importance: float = 0.5,
        metadata: dict[str, Any] | None = None,
        scope: str = "session",
        **_: Any,
    ) -> str:
        memory_id = uuid.uuid4().hex[:16]
        self.conn.execute(
            "INSERT INTO working_memory VALUES (?,?,?,?,?,?,?,0,?)",
            (
                memory_id,
                content,
                source,
                _naive_utc(self._now()),
                self.session_id,
                importance,
                scope,
                json.dumps(metadata or {}),
            ),
        )
        self.conn.commit()
        return memory_id

    def get(self, memory_id: str) -> dict[str, Any] | None:
        row = self.conn.execute(
            "SELECT * FROM working_memory WHERE id = ? AND (session_id = ? OR scope = 'global')",
            (memory_id, self.session_id),
        ).fetchone()
        return dict(row) if row is not None else None

    def update(
        self, memory_id: str, content: str | None = None, importance: float | None = None
    ) -> bool:
        """memory.py ``Mnemosyne.update``: content and importance; the timestamp stays."""
        return self.beam.update_working(memory_id, content=content, importance=importance)

    def forget(self, memory_id: str) -> bool:
        cursor = self.conn.execute(
            "DELETE FROM working_memory WHERE id = ? AND (session_id = ? OR scope = 'global')",
            (memory_id, self.session_id),
        )
        self.conn.commit()
        return cursor.rowcount > 0

    def rows(self) -> list[dict[str, Any]]:
        return [dict(r) for r in self.conn.execute("SELECT * FROM working_memory")]


def module() -> types.ModuleType:
    """A ``mnemosyne`` module to put in ``sys.modules``."""
    stand_in = types.ModuleType("mnemosyne")
    stand_in.Mnemosyne = Mnemosyne  # type: ignore[attr-defined]
    return stand_in


# -- the provider's side --------------------------------------------------------------------


def provider_isolation(kwargs: dict[str, Any], home: str) -> bool:
    """``_resolve_profile_isolation``: kwargs, then the profile's ``config.yaml``."""
    value = kwargs.get("profile_isolation")
    if value is None and home:
        try:
            config = yaml.safe_load(Path(home, "config.yaml").read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError):
            config = None
        memory = config.get("memory") if isinstance(config, dict) else None
        section = memory.get("mnemosyne") if isinstance(memory, dict) else None
        value = section.get("profile_isolation") if isinstance(section, dict) else None
    if isinstance(value, str):
        return value.lower() in ("true", "1", "yes", "on")
    return bool(value)


def provider_bank(identity: str, home: str) -> str:
    """``_resolve_profile_bank``."""
    if identity and identity.lower() not in ("primary", "default", "none", ""):
        bank = sanitize_bank_name(identity)
        if bank != "default":
            return bank
    basename = Path(home).name if home else ""
    if basename and basename.lower() not in (".hermes", "hermes", "default", ""):
        bank = sanitize_bank_name(basename)
        if bank != "default":
            return bank
    return "default"


def provider_db_path(**kwargs: Any) -> Path:
    """The database ``MnemosyneMemoryProvider.initialize(**kwargs)`` opens."""
    home = str(kwargs.get("hermes_home") or "")
    if not home:  # Hermes 0.19.0 always passes it; Mnemosyne then asks its BankManager
        raise NotImplementedError("the stand-in follows the hermes_home branch only")
    if provider_isolation(kwargs, home):
        bank = provider_bank(str(kwargs.get("agent_identity") or ""), home)
        data = Path(home).expanduser().resolve() / "mnemosyne" / "data"
        return (data if bank == "default" else data / "banks" / bank) / "mnemosyne.db"
    return Path(home) / "mnemosyne" / "data" / "mnemosyne.db"


def prefetch(db_path: Path, query: str, session: str, now: datetime | None = None) -> str:
    """``MnemosyneMemoryProvider.prefetch`` over the stand-in table (see the module doc)."""
    if not db_path.is_file():
        return ""
    now = now or datetime.now(UTC)
    conn = sqlite3.connect(db_path)
    conn.row_factory = sqlite3.Row
    try:
        rows = conn.execute(
            "SELECT * FROM working_memory WHERE session_id = ? OR scope = 'global'", (session,)
        ).fetchall()
    finally:
        conn.close()
    wanted = _tokens(query)
    lines = []
    for row in rows:
        if not lexical_gate(query, row["content"]):
            continue
        relevance = len(wanted & _tokens(row["content"])) / max(len(wanted), 1)
        score = working_score(relevance, row["importance"], row["timestamp"], now)
        if prefetch_keeps(score, row["importance"]):
            lines.append(f"  [{row['timestamp'][:16]}] (importance {row['importance']:.2f}) ")
            lines[-1] += row["content"]
    return "## Mnemosyne Context\n" + "\n".join(lines) if lines else ""


PROVIDER_SOURCE = '''
"""Stand-in Mnemosyne memory provider (see tests/support/mnemosyne_standin.py)."""
from agent.memory_provider import MemoryProvider

from support import mnemosyne_standin as standin


class StandInMnemosyneProvider(MemoryProvider):
    @property
    def name(self):
        return "mnemosyne"

    def is_available(self):
        return True

    def initialize(self, session_id, **kwargs):
        self.db_path = standin.provider_db_path(**kwargs)
        self.session = "hermes_" + session_id
        standin.OPENED.append(self.db_path)

    def system_prompt_block(self):
        return "# Mnemosyne Memory\\nLocal memory is active (stand-in)."

    def get_tool_schemas(self):
        return []

    def prefetch(self, query, *, session_id="", **kwargs):
        return standin.prefetch(self.db_path, query, self.session)


def register(ctx):
    ctx.register_memory_provider(StandInMnemosyneProvider())
'''
"""``__init__.py`` of a ``plugins/mnemosyne`` folder that loads the stand-in provider."""

OPENED: list[Path] = []
"""Databases the stand-in provider opened, in order."""
