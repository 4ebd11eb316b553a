"""The write-back ledger: Hermes memory entries, their GBrain fact ids, and the queue of fact
operations still to send — one SQLite file, ``$HERMES_HOME/gbrain/memory_facts.sqlite3``.

Two tables:

* ``entries`` — one row per Hermes memory entry this profile mirrored: its target
  (``memory``/``user``), its text (the same text Hermes keeps in ``MEMORY.md``/``USER.md``),
  the GBrain fact id once known, whether *we* created that fact (``owned``: a ``remember``
  that answered ``inserted`` or ``superseded``; a fact we merely found is never retired by
  us), and whether the entry is still ``live`` in Hermes or was ``replaced``/``removed``.
* ``ops`` — ``remember`` and ``forget`` operations in the order Hermes committed them.
  The worker sends them strictly in that order (a later operation never overtakes an
  earlier one, so a ``forget`` always finds the fact id its ``remember`` recorded).

Exactly once: a row is claimed (``pending`` → ``inflight``, with the claiming process's
token) before it is sent, and marked *maybe sent* with a settle mark just before the send
(``rowqueue``: the claim, lease, settle and retry rules it shares with the page outbox). A
row a dead process left ``inflight``, or whose send ended without a clear answer, is not
tried again until that send can no longer land; then the worker looks for the fact it may
already have stored (its provenance carries the operation id) and adopts it instead of
sending twice. ``forget`` is idempotent on the server.

Created 0600 in a 0700 folder (``files.private_file``), like the page outbox.
"""

from __future__ import annotations

import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..files import open_private_sqlite
from ..rowqueue import LAND_MARGIN_S, LEASE_S, RowQueue

__all__ = ["DB_NAME", "Ledger", "LedgerStatus", "Op"]

DB_NAME = "memory_facts.sqlite3"
KEEP_DONE_S = 30 * 86_400.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    endpoint TEXT NOT NULL,
    target TEXT NOT NULL,
    text TEXT NOT NULL,
    fact_id TEXT,
    owned INTEGER NOT NULL DEFAULT 0,
    retired INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_live ON entries(endpoint, target, state);
CREATE TABLE IF NOT EXISTS ops (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    op_id TEXT NOT NULL UNIQUE,
    endpoint TEXT NOT NULL,
    action TEXT NOT NULL,
    entry_id INTEGER NOT NULL,
    prior_entry INTEGER,
    provenance TEXT NOT NULL DEFAULT '',
    kind TEXT,
    entity TEXT,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    maybe_sent INTEGER NOT NULL DEFAULT 0,
    next_at REAL NOT NULL,
    owner TEXT,
    claimed_at REAL,
    last_error TEXT,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    settle_until REAL  -- a send may still land until then (rowqueue)
);
CREATE INDEX IF NOT EXISTS ops_state ON ops(endpoint, state, id);
"""


@dataclass(frozen=True, slots=True)
class Op:
    """One queued fact operation, with what the worker needs about its entries."""

    op_id: str
    action: str  # remember | forget
    entry_id: int
    target: str
    text: str
    provenance: str
    kind: str | None
    entity: str | None
    attempts: int
    maybe_sent: bool
    next_at: float
    fact_id: str | None
    owned: bool
    retired: bool
    prior_entry: int | None = None
    prior_fact_id: str | None = None
    prior_owned: bool = False
    prior_retired: bool = False
    settle_at: float = 0.0
    """Not before then, even in a drain: a send of this row or an earlier one may still land."""

    def __repr__(self) -> str:  # never the entry text
        return f"Op(op_id={self.op_id!r}, action={self.action!r}, target={self.target!r})"


@dataclass(frozen=True, slots=True)
class LedgerStatus:
    """Counts for ``doctor``: operations by state, and facts left active on purpose."""

    pending: int
    inflight: int
    delivered: int
    failed: int
    skipped: int
    mirrored: int
    """Live Hermes entries with a GBrain fact."""
    kept_active: int
    """Entries replaced or removed in Hermes whose fact is still active (retiring is off)."""
    recent_failures: tuple[tuple[str, str, str], ...] = ()


class Ledger:
    """Thread-safe; one connection per instance, closed by ``close``."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        clock: Callable[[], float] = time.time,
        lease_s: float = LEASE_S,
        land_margin_s: float = LAND_MARGIN_S,
    ) -> None:
        self.path = Path(path)
        self.clock = clock
        self._lock = threading.Lock()
        self._db = open_private_sqlite(self.path, _SCHEMA)
        self.rows = RowQueue(
            self._db,
            self._lock,
            "ops",
            ("endpoint",),
            clock=clock,
            lease_s=lease_s,
            land_margin_s=land_margin_s,
        )
        self.owner = self.rows.owner
        try:
            self.rows.add_settle_column()
            self.recover()
            self._prune()
        except BaseException:
            self._db.close()
            raise
        self._closed = False

    def __repr__(self) -> str:
        return f"Ledger({self.path.name!r})"

    def close(self) -> None:
        self.rows.retire()  # nothing of this ledger finishes a row any more
        with self._lock:
            if not self._closed:
                self._closed = True
                self._db.close()

    # -- producer side: what Hermes committed ---------------------------------------------

    def _x(self, sql: str, args: tuple[Any, ...] = ()) -> sqlite3.Cursor:
        return self._db.execute(sql, args)

    def _live(self, endpoint: str, target: str) -> list[tuple[int, str]]:
        return [
            (int(r[0]), str(r[1]))
            for r in self._x(
                "SELECT id, text FROM entries WHERE endpoint=? AND target=? AND state='live'"
                " ORDER BY id",
                (endpoint, target),
            )
        ]

    def _match(self, endpoint: str, target: str, old_text: str) -> int | None:
        """The live entry ``old_text`` names, by Hermes' own rule: a substring of exactly one
        distinct entry text (identical duplicates count as one, the first is taken)."""
        needle = old_text.strip()
        if not needle:
            return None
        hits = [(i, t) for i, t in self._live(endpoint, target) if needle in t]
        if not hits or len({t for _, t in hits}) > 1:
            return None
        return hits[0][0]

    def _text(self, entry_id: int) -> str:
        row = self._x("SELECT text FROM entries WHERE id=?", (entry_id,)).fetchone()
        return str(row[0]) if row else ""

    def _new_entry(self, endpoint: str, target: str, text: str) -> int:
        now = self.clock()
        cur = self._x(
            "INSERT INTO entries (endpoint, target, text, state, created_at, updated_at)"
            " VALUES (?,?,?,'live',?,?)",
            (endpoint, target, text, now, now),
        )
        return int(cur.lastrowid or 0)

    def _new_op(
        self,
        endpoint: str,
        action: str,
        entry_id: int,
        *,
        provenance: Callable[[str], str] | None = None,
        kind: str | None = None,
        entity: str | None = None,
        prior: int | None = None,
    ) -> str:
        op_id = "m_" + secrets.token_hex(6)
        now = self.clock()
        self._x(
            "INSERT INTO ops (op_id, endpoint, action, entry_id, prior_entry, provenance, kind,"
            " entity, state, next_at, created_at, updated_at)"
            " VALUES (?,?,?,?,?,?,?,?,'pending',?,?,?)",
            (
                op_id,
                endpoint,
                action,
                entry_id,
                prior,
                provenance(op_id) if provenance else "",
                kind,
                entity,
                now,
                now,
                now,
            ),
        )
        return op_id

    def _tx(self, body: Callable[[], list[str]]) -> list[str]:
        with self._lock:
            self._x("BEGIN IMMEDIATE")
            try:
                result = body()
                self._x("COMMIT")
            except BaseException:
                self._x("ROLLBACK")
                raise
        return result

    def record(
        self,
        endpoint: str,
        action: str,
        target: str,
        *,
        content: str = "",
        old_text: str = "",
        retire: bool,
        provenance: Callable[[str], str],
        kind: str,
        entity: str | None,
    ) -> list[str]:
        """Commit what one memory-tool write means for GBrain; returns the queued op ids.

        ``add`` remembers a new entry (nothing when the same text is already live);
        ``replace`` remembers the new text and, when ``retire``, retires the fact of the
        entry it replaced; ``remove`` retires the entry's fact only when ``retire``.
        """
        text = content.strip()

        def body() -> list[str]:
            ops: list[str] = []
            prior = self._match(endpoint, target, old_text) if action != "add" else None
            if prior is not None and action == "replace" and self._text(prior) == text:
                return ops  # replaced by the same text: nothing changed
            if prior is not None:
                state = "replaced" if action == "replace" else "removed"
                self._x(
                    "UPDATE entries SET state=?, updated_at=? WHERE id=?",
                    (state, self.clock(), prior),
                )
            live = {t for _, t in self._live(endpoint, target)}
            if action in ("add", "replace") and text and text not in live:
                entry = self._new_entry(endpoint, target, text)
                ops.append(
                    self._new_op(
                        endpoint,
                        "remember",
                        entry,
                        provenance=provenance,
                        kind=kind,
                        entity=entity,
                        prior=prior if retire else None,
                    )
                )
            if prior is not None and retire:
                ops.append(self._new_op(endpoint, "forget", prior))
            return ops

        return self._tx(body)

    def import_entry(
        self,
        endpoint: str,
        target: str,
        text: str,
        *,
        provenance: Callable[[str], str],
        kind: str,
        entity: str | None,
    ) -> str | None:
        """Queue one existing entry unless this profile already mirrors it (live).

        An entry whose ``remember`` failed for good (a read-only client, say) and that has
        no fact is queued again, and its failed operation is marked ``retried``: it no
        longer counts as failed, so ``status`` and ``doctor`` agree with what was sent."""
        clean = text.strip()

        def body() -> list[str]:
            if not clean:
                return []
            same = [i for i, t in self._live(endpoint, target) if t == clean]
            if same and not self._failed_without_fact(same[0]):
                return []
            entry = same[0] if same else self._new_entry(endpoint, target, clean)
            if same:
                self._x(
                    "UPDATE ops SET state='retried', updated_at=? WHERE entry_id=?"
                    " AND action='remember' AND state='failed'",
                    (self.clock(), entry),
                )
            return [
                self._new_op(
                    endpoint, "remember", entry, provenance=provenance, kind=kind, entity=entity
                )
            ]

        ops = self._tx(body)
        return ops[0] if ops else None

    def queued_for(self, endpoint: str, target: str, text: str) -> list[str]:
        """The ``remember`` operations still to send for the live entry with this text
        (queued by an earlier run or session)."""
        with self._lock:
            rows = self._x(
                "SELECT o.op_id FROM ops o JOIN entries e ON e.id=o.entry_id"
                " WHERE e.endpoint=? AND e.target=? AND e.text=? AND e.state='live'"
                " AND o.action='remember' AND o.state IN ('pending','inflight') ORDER BY o.id",
                (endpoint, target, text.strip()),
            ).fetchall()
        return [str(r[0]) for r in rows]

    def _failed_without_fact(self, entry_id: int) -> bool:
        """No fact, nothing queued or in flight, and a ``remember`` that failed."""
        row = self._x(
            "SELECT e.fact_id IS NULL,"
            " (SELECT COUNT(*) FROM ops WHERE entry_id=e.id AND state IN ('pending','inflight')),"
            " (SELECT COUNT(*) FROM ops WHERE entry_id=e.id AND action='remember'"
            "  AND state='failed')"
            " FROM entries e WHERE e.id=?",
            (entry_id,),
        ).fetchone()
        return row is not None and bool(row[0]) and row[1] == 0 and row[2] > 0

    def op_states(self, op_ids: list[str]) -> dict[str, tuple[str, str | None]]:
        """``op_id -> (state, last note)`` for the given operations."""
        with self._lock:
            out = {}
            for op_id in op_ids:
                row = self._x(
                    "SELECT state, last_error FROM ops WHERE op_id=?", (op_id,)
                ).fetchone()
                if row is not None:
                    out[op_id] = (str(row[0]), row[1])
        return out

    def live_texts(self, endpoint: str, target: str) -> set[str]:
        with self._lock:
            return {t for _, t in self._live(endpoint, target)}

    # -- worker side ----------------------------------------------------------------------

    def recover(self) -> int:
        """Rows left ``inflight`` by a dead process (or past their lease) go back, maybe sent;
        rows waiting out a backoff from an earlier run are due at once (a new start tries
        each once more) — though never before their settle mark."""
        now = self.clock()
        with self._lock:
            self._x("UPDATE ops SET next_at=? WHERE state='pending' AND next_at>?", (now, now))
        return self.rows.recover()

    def head(self, endpoint: str) -> Op | None:
        """The oldest operation not finished yet (pending or in flight), due or not."""
        with self._lock:
            row = self._x(
                "SELECT o.op_id, o.action, o.entry_id, e.target, e.text, o.provenance, o.kind,"
                " o.entity, o.attempts, o.maybe_sent, o.next_at, e.fact_id, e.owned, e.retired,"
                " o.prior_entry, p.fact_id, p.owned, p.retired, o.state,"
                " MAX(COALESCE(o.settle_until,0), COALESCE((SELECT MAX(b.settle_until) FROM ops b"
                " WHERE b.endpoint=o.endpoint AND b.id<>o.id),0))"
                " FROM ops o JOIN entries e ON e.id=o.entry_id"
                " LEFT JOIN entries p ON p.id=o.prior_entry"
                " WHERE o.endpoint=? AND o.state IN ('pending','inflight') ORDER BY o.id LIMIT 1",
                (endpoint,),
            ).fetchone()
        if row is None or row[18] != "pending":
            return None
        return Op(
            op_id=row[0],
            action=row[1],
            entry_id=int(row[2]),
            target=row[3],
            text=row[4],
            provenance=row[5],
            kind=row[6],
            entity=row[7],
            attempts=int(row[8]),
            maybe_sent=bool(row[9]),
            next_at=float(row[10]),
            fact_id=row[11],
            owned=bool(row[12]),
            retired=bool(row[13]),
            prior_entry=row[14],
            prior_fact_id=row[15],
            prior_owned=bool(row[16]),
            prior_retired=bool(row[17]),
            settle_at=float(row[19]),
        )

    def claim(self, op_id: str) -> bool:
        return self.rows.claim(op_id)

    def sending(self, op_id: str, deadline_s: float) -> bool:
        """Mark the row as being sent (on disk before the send; see ``rowqueue``)."""
        return self.rows.sending(op_id, deadline_s)

    def finish(
        self, op_id: str, state: str, error: str | None = None, *, settled: bool = True
    ) -> None:
        self.rows.finish(op_id, state, error, settled=settled)

    def retry_later(
        self,
        op_id: str,
        attempts: int,
        error: str,
        *,
        settled: bool,
        max_attempts: int,
        base_s: float,
        cap_s: float,
    ) -> float:
        """Back to ``pending`` after a backoff (never before an unsettled send can no longer
        land), or ``failed`` once the attempts are spent."""
        return self.rows.retry_later(
            op_id,
            attempts,
            error,
            settled=settled,
            max_attempts=max_attempts,
            base_s=base_s,
            cap_s=cap_s,
        )

    def set_fact(self, entry_id: int, fact_id: str, *, owned: bool) -> None:
        with self._lock:
            self._x(
                "UPDATE entries SET fact_id=?, owned=?, updated_at=? WHERE id=?",
                (fact_id, int(owned), self.clock(), entry_id),
            )

    def set_retired(self, entry_id: int) -> None:
        with self._lock:
            self._x(
                "UPDATE entries SET retired=1, updated_at=? WHERE id=?", (self.clock(), entry_id)
            )

    # -- reporting ------------------------------------------------------------------------

    def status(self) -> LedgerStatus:
        with self._lock:
            counts = dict(self._x("SELECT state, COUNT(*) FROM ops GROUP BY state").fetchall())
            mirrored = self._x(
                "SELECT COUNT(*) FROM entries WHERE state='live' AND fact_id IS NOT NULL"
            ).fetchone()[0]
            kept = self._x(
                "SELECT COUNT(*) FROM entries WHERE state!='live' AND fact_id IS NOT NULL"
                " AND retired=0"
            ).fetchone()[0]
            fails = self._x(
                "SELECT op_id, action, last_error FROM ops WHERE state='failed'"
                " ORDER BY id DESC LIMIT 5"
            ).fetchall()
        return LedgerStatus(
            pending=int(counts.get("pending", 0)),
            inflight=int(counts.get("inflight", 0)),
            delivered=int(counts.get("delivered", 0)),
            failed=int(counts.get("failed", 0)),
            skipped=int(counts.get("skipped", 0)),
            mirrored=int(mirrored),
            kept_active=int(kept),
            recent_failures=tuple((a, b, c or "") for a, b, c in fails),
        )

    def facts(self, endpoint: str) -> list[tuple[str, str, str | None, str]]:
        """``(target, text, fact_id, state)`` of every entry (tests and ``doctor``)."""
        with self._lock:
            rows = self._x(
                "SELECT target, text, fact_id, state FROM entries WHERE endpoint=? ORDER BY id",
                (endpoint,),
            ).fetchall()
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    def _prune(self) -> None:
        cutoff = self.clock() - KEEP_DONE_S
        with self._lock:
            self._x(
                "DELETE FROM ops WHERE state IN ('delivered','skipped','retried') AND updated_at<?",
                (cutoff,),
            )
