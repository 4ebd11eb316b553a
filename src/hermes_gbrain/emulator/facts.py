"""Hot-memory facts: ``remember``, ``forget``/``forget_fact``, ``recall``'s facts arm, and the
``_meta.brain_hot_memory`` block GBrain attaches to successful calls.

Behaviour and shapes follow GBrain's source and recordings ``99a``/``99b``:

* ``remember`` (``src/core/verbs.ts``): ``fact`` is trimmed and must be non-empty
  (``invalid_params``); a missing ``provenance`` is ``invalid_params``, an empty one
  ``provenance_required``, over 500 characters ``invalid_params``; ``kind`` defaults to
  ``fact`` and ``visibility`` to ``world``. The answer is ``{id (a string), status,
  status_text, entity_slug, valid_until, degraded_dedup, protocol_version}`` (``99a``).
* Dedup (``src/core/facts/write-single.ts``) needs an embedding provider; without one (the
  emulator, like the recorded server) it is skipped and ``degraded_dedup: true`` says so,
  so the same text remembered twice is stored twice. A declared ``replaces`` (newer GBrain
  only; 0.46.28 does not list it) expires the named fact and links ``superseded_by``
  (status ``superseded``, ``superseded_fact_id``).
* ``forget`` (``verbs.ts`` output schema): ``{id, expired, reason, protocol_version}``;
  ``expired: false`` for an already expired fact, ``not_found`` for an unknown id.
  ``forget_fact`` is idempotent on unknown ids too (its 0.46.28 description).
* ``recall`` fact rows (``src/core/ops/facts.ts``): active ``world`` facts for remote
  callers, newest first, ``grep`` a case-insensitive substring of the fact text, each row
  with ``id``, ``fact_id`` (string), ``provenance`` (= ``source``) and the other columns.
* Hot memory (``src/core/facts/meta-hook.ts``): not on ``recall``, ``extract_facts`` or
  ``forget_fact``; the session's active facts when ``arguments._meta.session_id`` names one
  that has any, else active facts created in the last 24 h; world-only for remote callers;
  at most 10; each ``{id, fact, kind, notability, entity_slug, valid_from, created_at,
  context, confidence}``; nothing when there are none. GBrain caches it for 30 s and drops
  the cache on every mutating call; the emulator always answers from the table, which is
  what a caller sees right after its own write.
"""

from __future__ import annotations

import re
import threading
import weakref
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from hermes_gbrain.emulator.store import Database, iso_now, iso_of

__all__ = ["FactStore", "facts_for", "hot_memory"]

PROVENANCE_MAX = 500
HOT_TOP_K = 10
HOT_WINDOW = timedelta(hours=24)
NO_HOT_MEMORY = frozenset({"recall", "extract_facts", "forget_fact"})
FACT_KINDS = ("event", "preference", "commitment", "belief", "fact")
_TTL = re.compile(r"^(\d+)([dhm])$")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS facts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  source_id TEXT NOT NULL, fact TEXT NOT NULL, kind TEXT NOT NULL,
  entity_slug TEXT, visibility TEXT NOT NULL, source TEXT NOT NULL,
  source_session TEXT, notability TEXT NOT NULL DEFAULT 'medium',
  valid_from TEXT NOT NULL, valid_until TEXT, expired_at TEXT, superseded_by INTEGER,
  created_at TEXT NOT NULL, forget_reason TEXT
);
"""


class FactError(Exception):
    """An operation error; ``operations.ToolError`` carries it to the caller."""

    def __init__(self, code: str, message: str, suggestion: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.suggestion = suggestion


@dataclass(frozen=True)
class Fact:
    id: int
    source_id: str
    fact: str
    kind: str
    entity_slug: str | None
    visibility: str
    source: str
    source_session: str | None
    notability: str
    valid_from: str
    valid_until: str | None
    expired_at: str | None
    superseded_by: int | None
    created_at: str

    def active(self, now: str) -> bool:
        lapsed = self.valid_until is not None and self.valid_until <= now
        return self.expired_at is None and not lapsed


def _ttl(value: str | None) -> str | None:
    """``30d``/``12h``/``45m`` or an ISO timestamp; ISO durations are refused (catalog text)."""
    if value is None:
        return None
    match = _TTL.match(value.strip())
    if match:
        amount, unit = int(match.group(1)), match.group(2)
        delta = {"d": timedelta(days=amount), "h": timedelta(hours=amount)}.get(
            unit, timedelta(minutes=amount)
        )
        return iso_of(datetime.now(UTC) + delta)
    try:
        moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise FactError(
            "invalid_params",
            f'ttl "{value}" is not a duration or an ISO 8601 timestamp',
            'Use "30d", "12h", "45m" or an ISO 8601 timestamp; "P30D" is not accepted.',
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return iso_of(moment)


class FactStore:
    """The ``facts`` table beside the pages, on the emulator's one connection."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._lock = threading.Lock()
        with db.lock:
            db.conn.executescript(_SCHEMA)

    @staticmethod
    def _fact(row: Any) -> Fact:
        return Fact(
            id=int(row["id"]),
            source_id=row["source_id"],
            fact=row["fact"],
            kind=row["kind"],
            entity_slug=row["entity_slug"],
            visibility=row["visibility"],
            source=row["source"],
            source_session=row["source_session"],
            notability=row["notability"],
            valid_from=row["valid_from"],
            valid_until=row["valid_until"],
            expired_at=row["expired_at"],
            superseded_by=row["superseded_by"],
            created_at=row["created_at"],
        )

    def get(self, fact_id: int, source_id: str) -> Fact | None:
        rows = self.db.execute(
            "SELECT * FROM facts WHERE id=? AND source_id=?", (fact_id, source_id)
        )
        return self._fact(rows[0]) if rows else None

    def all(self, source_id: str) -> list[Fact]:
        rows = self.db.execute(
            "SELECT * FROM facts WHERE source_id=? ORDER BY created_at DESC, id DESC", (source_id,)
        )
        return [self._fact(r) for r in rows]

    def remember(
        self, args: dict[str, Any], *, source_id: str, session: str | None
    ) -> dict[str, Any]:
        fact = args.get("fact")
        fact = fact.strip() if isinstance(fact, str) else ""
        if not fact:
            raise FactError("invalid_params", "fact must be a non-empty string.")
        if args.get("provenance") is None:
            raise FactError("invalid_params", "Missing required parameter: provenance")
        provenance = str(args["provenance"]).strip()
        if not provenance:
            raise FactError("provenance_required", "provenance is required and must be non-empty.")
        if len(provenance) > PROVENANCE_MAX:
            raise FactError(
                "invalid_params",
                f"provenance exceeds {PROVENANCE_MAX} chars (got {len(provenance)}).",
            )
        kind = args.get("kind") or "fact"
        visibility = args.get("visibility") or "world"
        entity = args.get("entity")
        entity_slug = entity.strip() if isinstance(entity, str) and entity.strip() else None
        valid_until = _ttl(args.get("ttl"))
        replaces = args.get("replaces")
        now = iso_now()
        with self._lock:
            old: Fact | None = None
            if replaces is not None:
                text = str(replaces).strip()
                old = self.get(int(text), source_id) if text.isdigit() else None
                if old is None:
                    raise FactError("not_found", f'No fact with id "{replaces}" to replace.')
            with self.db.lock:
                cur = self.db.conn.execute(
                    "INSERT INTO facts (source_id, fact, kind, entity_slug, visibility, source,"
                    " source_session, valid_from, valid_until, created_at)"
                    " VALUES (?,?,?,?,?,?,?,?,?,?)",
                    (
                        source_id,
                        fact,
                        kind,
                        entity_slug,
                        visibility,
                        provenance,
                        session,
                        now,
                        valid_until,
                        now,
                    ),
                )
                new_id = int(cur.lastrowid or 0)
                if old is not None:
                    self.db.conn.execute(
                        "UPDATE facts SET expired_at=?, superseded_by=? WHERE id=?",
                        (now, new_id, old.id),
                    )
        result: dict[str, Any] = {
            "id": str(new_id),
            "status": "superseded" if old is not None else "inserted",
            "status_text": f"remembered as fact #{new_id}",
            "entity_slug": entity_slug,
            "valid_until": valid_until,
            "degraded_dedup": True,
            "protocol_version": 1,
        }
        if old is not None:
            result["superseded_fact_id"] = str(old.id)
            result["replaced_by_caller"] = True
        return result

    def forget(self, raw_id: Any, reason: Any, *, source_id: str, strict: bool) -> dict[str, Any]:
        text = str(raw_id).strip()
        if isinstance(raw_id, float) and raw_id.is_integer():
            text = str(int(raw_id))
        fact = self.get(int(text), source_id) if text.isdigit() else None
        why = reason if isinstance(reason, str) and reason.strip() else "forgotten"
        if fact is None:
            if strict:
                raise FactError(
                    "not_found",
                    f'No fact with id "{text}".',
                    "Pass the opaque fact_id from remember or recall (facts[].fact_id).",
                )
            return {"id": text, "expired": False, "reason": why, "protocol_version": 1}
        expired = fact.expired_at is None
        if expired:
            self.db.execute(
                "UPDATE facts SET expired_at=?, forget_reason=? WHERE id=?",
                (iso_now(), why, fact.id),
            )
        return {"id": str(fact.id), "expired": expired, "reason": why, "protocol_version": 1}

    def recall_rows(self, args: dict[str, Any], *, source_id: str) -> list[dict[str, Any]]:
        now = iso_now()
        grep = args.get("grep")
        needle = grep.lower() if isinstance(grep, str) else None
        entity = args.get("entity")
        session = args.get("session_id")
        limit = args.get("limit")
        cap = max(1, min(int(limit), 100)) if isinstance(limit, int | float) and limit > 0 else 50
        rows = []
        for fact in self.all(source_id):
            if fact.visibility != "world":
                continue  # remote callers see world facts only
            if not args.get("include_expired") and not fact.active(now):
                continue
            if needle is not None and needle not in fact.fact.lower():
                continue
            if isinstance(entity, str) and entity and fact.entity_slug != entity:
                continue
            if isinstance(session, str) and session and fact.source_session != session:
                continue
            rows.append(_recall_row(fact))
            if len(rows) >= cap:
                break
        return rows

    def hot(self, source_id: str, session: str | None) -> dict[str, Any] | None:
        now_dt = datetime.now(UTC)
        now = iso_of(now_dt)
        live = [f for f in self.all(source_id) if f.visibility == "world" and f.active(now)]
        rows = [f for f in live if session and f.source_session == session][:HOT_TOP_K]
        if not rows:
            floor = iso_of(now_dt - HOT_WINDOW)
            rows = [f for f in live if f.created_at >= floor][:HOT_TOP_K]
        if not rows:
            return None
        return {
            "source_id": source_id,
            "session_id": session,
            "facts": [
                {
                    "id": f.id,
                    "fact": f.fact,
                    "kind": f.kind,
                    "notability": f.notability,
                    "entity_slug": f.entity_slug,
                    "valid_from": f.valid_from,
                    "created_at": f.created_at,
                    "context": None,
                    "confidence": 1,
                }
                for f in rows
            ],
        }


def _recall_row(fact: Fact) -> dict[str, Any]:
    return {
        "id": fact.id,
        "fact": fact.fact,
        "kind": fact.kind,
        "entity_slug": fact.entity_slug,
        "source_id": fact.source_id,
        "visibility": fact.visibility,
        "notability": fact.notability,
        "valid_from": fact.valid_from,
        "valid_until": fact.valid_until,
        "expired_at": fact.expired_at,
        "superseded_by": fact.superseded_by,
        "consolidated_at": None,
        "consolidated_into": None,
        "source": fact.source,
        "source_session": fact.source_session,
        "context": None,
        "confidence": 1,
        "created_at": fact.created_at,
        "fact_id": str(fact.id),
        "provenance": fact.source,
    }


_STORES: weakref.WeakKeyDictionary[Database, FactStore] = weakref.WeakKeyDictionary()
_STORES_LOCK = threading.Lock()


def facts_for(db: Database) -> FactStore:
    """The one ``FactStore`` of an emulator database (created with its table on first use)."""
    with _STORES_LOCK:
        store = _STORES.get(db)
        if store is None:
            store = _STORES[db] = FactStore(db)
        return store


def hot_memory(db: Database, tool: str, source_id: str, arguments: Any) -> dict[str, Any] | None:
    """The ``brain_hot_memory`` value for a successful call, or None (``meta-hook.ts``)."""
    if tool in NO_HOT_MEMORY:
        return None
    session: str | None = None
    if isinstance(arguments, dict):
        meta = arguments.get("_meta")
        if isinstance(meta, dict) and isinstance(meta.get("session_id"), str):
            session = meta["session_id"][:256] or None
    return facts_for(db).hot(source_id, session)
