"""A durable SQLite outbox for ``put_page``: queued at once, sent in the background.

The model's ``gbrain_put_page`` returns as soon as the row is committed (an id it can
quote); a worker thread sends rows in order with retries and exponential backoff;
rows survive a crash or restart and are replayed; ``drain`` bounds shutdown and
leaves whatever did not go out queued for the next start.

Delivered once, and never over someone else's edit. GBrain has no conditional write
(no expected-version argument to ``put_page``) and its ``content_hash`` is a hash of
the page *as it parsed it*, which a client cannot reproduce, so the outbox never
compares hashes with its own text. Instead it remembers what the page looked like
before our write:

* Just before the first send of a row, the worker reads the page (``get_page``) and
  commits its ``updated_at`` and ``content_hash`` as the row's *before* state (a
  missing page is a state too). Only then is ``put_page`` sent.
* Any later attempt at that row (a retry after an error, or a replay after a crash
  at any point: after the send, before the reply, before the row was marked) reads
  the page again. If it still looks exactly like *before*, our write did not land
  and is sent again. If it changed, the row is never sent again: when the page now
  holds the text we sent (its compiled truth and timeline appear verbatim in our
  content) the row is *delivered*; when it holds a newer write of ours, *replaced*;
  otherwise someone else wrote the page since, and the row is marked *superseded* —
  their edit is kept, and the model and ``doctor`` are told. That containment check
  only chooses a label; none resends.
* Rows are claimed atomically (``pending`` → ``inflight``, with the claiming
  process's token), so two Hermes processes sharing a profile never send one row
  twice concurrently. Rows left ``inflight`` by a dead process (or past their lease)
  are re-queued on the next start, or by a running worker within
  ``RECOVER_EVERY_S`` (``rowqueue``); so are rows whose holder in this process is gone
  for good (its worker thread ended, its store closed). A worker whose bookkeeping
  fails (SQLite busy past its timeout) gives its row back and carries on.
* One page, one writer at a time, in order: a row is never started while an older
  row for the same page is pending or in flight, in this process or another, nor
  while any row for that page was sent without a clear answer and may still land
  (its deadline plus ``rowqueue.LAND_MARGIN_S``; the mark is on disk before the send,
  so it holds across a crash). A retry of such a row waits as long, then reads the
  page first, as above.
* Enqueueing the same slug and text while an identical row is still pending returns
  that row's id; a newer write to a slug *replaces* older pending rows for it (last
  write wins, without sending stale versions first; a replaced row that may still
  land keeps the newer one waiting until it has settled).
The database and its ``-wal``/``-shm`` files are created 0600 in a 0700 folder
(``files.private_file``); ``close`` releases the connection (and its file handles).
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..api import UnsupportedError
from ..errors import AuthError, ConfigError, GBrainError, ToolError
from ..files import open_private_sqlite
from ..mcp import MCP_DEADLINE_S
from ..rowqueue import (
    LAND_MARGIN_S,
    LEASE_S,
    RECOVER_EVERY_S,
    QueueWorker,
    RowQueue,
    Spawn,
    may_still_land,
)

__all__ = [
    "ABSENT",
    "Entry",
    "Outbox",
    "OutboxStatus",
    "OutboxWorker",
    "PageState",
    "text_digest",
]

DB_NAME = "outbox.sqlite3"
MAX_ATTEMPTS = 8
BASE_BACKOFF_S = 1.0
MAX_BACKOFF_S = 300.0
POLL_S = 1.0
"""How often a worker looks again at rows waiting on a row another worker holds."""
OTHER_ROWS = 20
"""How many other rows of ours for a page are compared with it, to label a changed page."""
KEEP_DONE_S = 7 * 86_400.0
MAX_CONTENT_BYTES = 1_000_000
PERMANENT_CODES = frozenset(
    {
        "invalid_params",
        "insufficient_scope",
        "permission_denied",
        "scope_denied",
        "unknown_operation",
        "provenance_required",
    }
)

_SELECT = (
    "SELECT op_id, endpoint, slug, content, content_hash, state, attempts, maybe_sent,"
    " last_error, before_state FROM outbox WHERE "
)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    op_id TEXT NOT NULL UNIQUE,
    endpoint TEXT NOT NULL,
    slug TEXT NOT NULL,
    content TEXT NOT NULL,
    content_hash TEXT NOT NULL,  -- text_digest of our own text (never GBrain's hash)
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    maybe_sent INTEGER NOT NULL DEFAULT 0,
    next_at REAL NOT NULL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    claimed_at REAL,
    owner TEXT,
    last_error TEXT,
    reported INTEGER NOT NULL DEFAULT 0,
    before_state TEXT,
    settle_until REAL  -- a send may still land until then (rowqueue)
);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox(state, next_at);
CREATE INDEX IF NOT EXISTS outbox_slug ON outbox(endpoint, slug, state);
"""


def text_digest(content: str) -> str:
    """SHA-256 of our own text, to spot a duplicate in our own queue.

    Never compared with GBrain's ``content_hash``, which hashes the parsed page.
    """
    return hashlib.sha256(content.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, slots=True)
class PageState:
    """What a page looked like at one moment: enough to tell whether anyone wrote it since."""

    exists: bool
    updated_at: str = ""
    content_hash: str = ""

    def encode(self) -> str:
        return json.dumps(
            {"exists": self.exists, "updated_at": self.updated_at, "hash": self.content_hash},
            separators=(",", ":"),
        )

    @classmethod
    def decode(cls, text: str | None) -> PageState | None:
        if not text:
            return None
        try:
            data = json.loads(text)
        except ValueError:
            return None
        if not isinstance(data, dict):
            return None
        return cls(
            exists=bool(data.get("exists")),
            updated_at=str(data.get("updated_at") or ""),
            content_hash=str(data.get("hash") or ""),
        )


ABSENT = PageState(False)
"""No such page (or only a soft-deleted one)."""


def _lf(text: str) -> str:
    return text.replace("\r\n", "\n")


@dataclass(frozen=True, slots=True)
class Observed:
    """A page read back by the worker: its state, and its text to recognise our own write."""

    state: PageState
    compiled_truth: str = ""
    timeline: str = ""

    def holds(self, content: str) -> bool:
        """Whether the page's text is ours: both stored parts appear verbatim in ``content``.

        Not a reproduction of GBrain's parser: it only labels a row that will not be
        sent again as delivered rather than superseded. GBrain stores CRLF line ends as
        sent, so both sides are compared with LF line ends.
        """
        text = _lf(content)
        body = _lf(self.compiled_truth).strip()
        timeline = _lf(self.timeline).strip()
        return self.state.exists and bool(body) and body in text and timeline in text


@dataclass(frozen=True, slots=True)
class Entry:
    """One queued write."""

    op_id: str
    endpoint: str
    slug: str
    content: str
    content_hash: str
    state: str
    attempts: int
    maybe_sent: bool
    last_error: str | None = None
    before: PageState | None = None
    """The page before our first send (``None`` until the worker looked)."""

    @property
    def digest(self) -> str:
        return self.content_hash

    def __repr__(self) -> str:  # never the page text
        return f"Entry(op_id={self.op_id!r}, slug={self.slug!r}, state={self.state!r})"


@dataclass(frozen=True, slots=True)
class OutboxStatus:
    """Counts by state, and the most recent failures (id, slug, error)."""

    pending: int
    inflight: int
    delivered: int
    failed: int
    recent_failures: tuple[tuple[str, str, str], ...] = ()
    superseded: int = 0
    """Writes not sent because someone else changed the page after our first look (kept)."""
    recent_superseded: tuple[tuple[str, str, str], ...] = ()
    replaced: int = 0
    """Writes not sent because a newer write of ours to the same page replaced them."""


class Outbox:
    """The queue itself: a SQLite file under ``$HERMES_HOME/gbrain/``; thread-safe."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        clock: Callable[[], float] = time.time,
        max_attempts: int = MAX_ATTEMPTS,
        base_backoff_s: float = BASE_BACKOFF_S,
        max_backoff_s: float = MAX_BACKOFF_S,
        lease_s: float = LEASE_S,
        land_margin_s: float = LAND_MARGIN_S,
    ) -> None:
        self.path = Path(path)
        self.clock = clock
        self.max_attempts = max_attempts
        self._base = base_backoff_s
        self._cap = max_backoff_s
        self._lock = threading.Lock()
        self._db = open_private_sqlite(self.path, _SCHEMA)
        self.rows = RowQueue(
            self._db,
            self._lock,
            "outbox",
            ("endpoint", "slug"),
            clock=clock,
            lease_s=lease_s,
            land_margin_s=land_margin_s,
        )
        self.owner = self.rows.owner
        try:
            self._migrate()
            self.recover()
            self._prune()
        except BaseException:
            self._db.close()
            raise
        self._closed = False

    def _migrate(self) -> None:
        """Files from before the *before* state: add it; their ``superseded`` meant replaced."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(outbox)")}
        if "before_state" not in columns:
            self._db.execute("ALTER TABLE outbox ADD COLUMN before_state TEXT")
            self._db.execute("UPDATE outbox SET state='replaced' WHERE state='superseded'")
        self.rows.add_settle_column()

    def __repr__(self) -> str:
        return f"Outbox({self.path.name!r})"

    def close(self) -> None:
        """Release the connection (idempotent); the queue stays on disk."""
        self.rows.retire()
        with self._lock:
            if not self._closed:
                self._closed = True
                self._db.close()

    def _tx(self, sql: str, args: tuple[Any, ...] = ()) -> sqlite3.Cursor:
        return self._db.execute(sql, args)

    @staticmethod
    def _entry(row: tuple[Any, ...]) -> Entry:
        return Entry(
            op_id=row[0],
            endpoint=row[1],
            slug=row[2],
            content=row[3],
            content_hash=row[4],
            state=row[5],
            attempts=int(row[6]),
            maybe_sent=bool(row[7]),
            last_error=row[8],
            before=PageState.decode(row[9]),
        )

    # -- producer side --------------------------------------------------------------------

    def enqueue(self, endpoint: str, slug: str, content: str) -> tuple[Entry, bool]:
        """Queue a write; returns the row and whether it is new (``False`` = de-duplicated)."""
        if len(content.encode("utf-8", "surrogatepass")) > MAX_CONTENT_BYTES:
            raise ConfigError(f"page content is over {MAX_CONTENT_BYTES} bytes")
        digest = text_digest(content)
        now = self.clock()
        with self._lock:
            self._tx("BEGIN IMMEDIATE")
            try:
                same = self._tx(
                    _SELECT + "endpoint=? AND slug=? "
                    "AND state='pending' AND content_hash=? ORDER BY id DESC LIMIT 1",
                    (endpoint, slug, digest),
                ).fetchone()
                if same is not None:
                    self._tx("COMMIT")
                    return self._entry(same), False
                self._tx(
                    "UPDATE outbox SET state='replaced', updated_at=? "
                    "WHERE endpoint=? AND slug=? AND state='pending'",
                    (now, endpoint, slug),
                )
                op_id = "w_" + secrets.token_hex(8)
                self._tx(
                    "INSERT INTO outbox (op_id, endpoint, slug, content, content_hash, state,"
                    " next_at, created_at, updated_at) VALUES (?,?,?,?,?,'pending',?,?,?)",
                    (op_id, endpoint, slug, content, digest, now, now, now),
                )
                self._tx("COMMIT")
            except BaseException:
                self._tx("ROLLBACK")
                raise
        return Entry(op_id, endpoint, slug, content, digest, "pending", 0, False), True

    # -- worker side ----------------------------------------------------------------------

    def recover(self) -> int:
        """Re-queue rows left ``inflight`` by a dead process or past their lease."""
        return self.rows.recover()

    def due(
        self,
        endpoint: str,
        *,
        now: float | None = None,
        limit: int = 20,
        ignore_backoff: bool = False,
    ) -> list[Entry]:
        """Pending rows for ``endpoint`` that may start now, oldest first.

        ``ignore_backoff`` (the shutdown drain) skips retry delays, never the per-page
        order or a settle mark.
        """
        when = self.clock() if now is None else now
        ready, args = self.rows.ready_sql()
        with self._lock:
            rows = self._tx(
                _SELECT + f"endpoint=? AND state='pending' AND next_at<=? AND {ready}"
                " ORDER BY id LIMIT ?",
                (endpoint, float("inf") if ignore_backoff else when, *args(), limit),
            ).fetchall()
        return [self._entry(r) for r in rows]

    def next_due_at(self, endpoint: str) -> float | None:
        """When the earliest pending row is past its backoff and settled (order aside)."""
        return self.rows.next_wake("endpoint=?", (endpoint,))

    def claim(self, op_id: str) -> Entry | None:
        """``pending`` → ``inflight`` for this process: the row as claimed, or None if it is
        someone else's, or its page is busy with an older or unsettled row."""
        if not self.rows.claim(op_id):
            return None
        return self.get(op_id)

    def sending(self, op_id: str, deadline_s: float) -> bool:
        """Mark the row as being sent (on disk before the send; see ``rowqueue``)."""
        return self.rows.sending(op_id, deadline_s)

    def others(self, entry: Entry) -> list[str]:
        """The text of this profile's other recent rows for the same page."""
        with self._lock:
            rows = self._tx(
                "SELECT content FROM outbox WHERE endpoint=? AND slug=? AND op_id<>?"
                " ORDER BY id DESC LIMIT ?",
                (entry.endpoint, entry.slug, entry.op_id, OTHER_ROWS),
            ).fetchall()
        return [str(r[0]) for r in rows]

    def record_before(self, op_id: str, state: PageState) -> bool:
        """Commit what the page looked like before our first send (only while we hold it)."""
        with self._lock:
            cur = self._tx(
                "UPDATE outbox SET before_state=? WHERE op_id=? AND state='inflight' AND owner=?"
                " AND before_state IS NULL",
                (state.encode(), op_id, self.owner),
            )
        return cur.rowcount == 1

    def delivered(self, op_id: str) -> None:
        self.rows.finish(op_id, "delivered")

    def superseded(self, op_id: str, reason: str) -> None:
        """Not sent (again): someone else changed the page since our first look; kept."""
        self.rows.finish(op_id, "superseded", reason)

    def replaced(self, op_id: str, reason: str) -> None:
        """Not sent (again): the page holds a newer write of ours."""
        self.rows.finish(op_id, "replaced", reason)

    def failed(self, op_id: str, error: str, *, settled: bool = True) -> None:
        self.rows.finish(op_id, "failed", error, settled=settled)

    def retry_later(self, op_id: str, attempts: int, error: str, *, settled: bool = True) -> float:
        """Back to ``pending`` after an exponential, jittered delay (or ``failed`` when spent);
        an unsettled send (``settled=False``) is not retried before its settle mark."""
        return self.rows.retry_later(
            op_id,
            attempts,
            error,
            settled=settled,
            max_attempts=self.max_attempts,
            base_s=self._base,
            cap_s=self._cap,
        )

    # -- reporting ------------------------------------------------------------------------

    def take_failures(self, limit: int = 5) -> list[Entry]:
        """Failed and superseded writes not yet reported to the model; each handed out once."""
        with self._lock:
            rows = self._tx(
                _SELECT + "state IN ('failed','superseded') AND reported=0 ORDER BY id LIMIT ?",
                (limit,),
            ).fetchall()
            for row in rows:
                self._tx("UPDATE outbox SET reported=1 WHERE op_id=?", (row[0],))
        return [self._entry(r) for r in rows]

    def get(self, op_id: str) -> Entry | None:
        with self._lock:
            row = self._tx(_SELECT + "op_id=?", (op_id,)).fetchone()
        return None if row is None else self._entry(row)

    def status(self) -> OutboxStatus:
        with self._lock:
            counts = dict(self._tx("SELECT state, COUNT(*) FROM outbox GROUP BY state").fetchall())
            fails = self._tx(
                "SELECT op_id, slug, last_error FROM outbox WHERE state='failed' "
                "ORDER BY id DESC LIMIT 5"
            ).fetchall()
            kept = self._tx(
                "SELECT op_id, slug, last_error FROM outbox WHERE state='superseded' "
                "ORDER BY id DESC LIMIT 5"
            ).fetchall()
        return OutboxStatus(
            pending=int(counts.get("pending", 0)),
            inflight=int(counts.get("inflight", 0)),
            delivered=int(counts.get("delivered", 0)),
            failed=int(counts.get("failed", 0)),
            recent_failures=tuple((a, b, c or "") for a, b, c in fails),
            superseded=int(counts.get("superseded", 0)),
            recent_superseded=tuple((a, b, c or "") for a, b, c in kept),
            replaced=int(counts.get("replaced", 0)),
        )

    def _prune(self) -> None:
        cutoff = self.clock() - KEEP_DONE_S
        with self._lock:
            self._tx(
                "DELETE FROM outbox WHERE state IN ('delivered','replaced') AND updated_at<?",
                (cutoff,),
            )
            self._tx(
                "DELETE FROM outbox WHERE state IN ('failed','superseded') AND reported=1"
                " AND id NOT IN (SELECT id FROM outbox WHERE state IN ('failed','superseded')"
                " ORDER BY id DESC LIMIT 200)"
            )


def classify(exc: BaseException) -> tuple[bool, str]:
    """``(permanent, short reason)`` for a failed send; reasons carry codes, never text."""
    if isinstance(exc, ToolError):
        code = exc.code or "unknown_error"
        safe = code if code.replace("_", "").isalpha() and len(code) <= 40 else "unknown_error"
        return code in PERMANENT_CODES, f"server refused the write ({safe})"
    if isinstance(exc, UnsupportedError):
        return True, "the server offers no put_page to this credential (read-only?)"
    if isinstance(exc, AuthError):
        return False, str(exc)
    if isinstance(exc, GBrainError):
        return False, str(exc)
    return False, f"unexpected {type(exc).__name__}"


Sender = Callable[[Entry], None]
"""Sends one row (raises on failure)."""
Observer = Callable[[Entry], Observed]
"""Reads the row's page from the server as it is now (raises on failure)."""


class OutboxWorker(QueueWorker):
    """One background thread sending one endpoint's rows, oldest first, one per page at a time."""

    thread_name = "gbrain-outbox"

    def __init__(
        self,
        outbox: Outbox,
        endpoint: str,
        send: Sender,
        *,
        observe: Observer,
        spawn: Spawn | None = None,
        max_wait_s: float = 30.0,
        send_deadline_s: float = MCP_DEADLINE_S,
        poll_s: float = POLL_S,
        recover_every_s: float = RECOVER_EVERY_S,
    ) -> None:
        super().__init__(spawn=spawn, max_wait_s=max_wait_s, recover_every_s=recover_every_s)
        self.outbox = outbox
        self.endpoint = endpoint
        self._send = send
        self._observe = observe
        self._deadline_s = send_deadline_s
        self._poll_s = poll_s

    def drain(self, timeout: float) -> OutboxStatus:
        """Try every pending row once more (backoff ignored), then stop; bounded by ``timeout``.

        Rows still pending or in flight at the deadline stay queued for the next start,
        and so do rows whose last send may still land (their settle mark holds).
        """
        self.drain_within(timeout)
        return self.outbox.status()

    def _rows(self) -> RowQueue:
        return self.outbox.rows

    def _recover(self) -> None:
        self.outbox.recover()

    def _close_store(self) -> None:
        self.outbox.close()

    def _pause(self) -> float:
        """How long to sleep with nothing startable: until the next row is due and settled,
        or a short poll when one is due but waits on a row someone else holds."""
        at = self.outbox.next_due_at(self.endpoint)
        if at is None:
            return self._max_wait
        left = at - self.outbox.clock()
        return min(self._max_wait, left + 0.01 if left > 0 else self._poll_s)

    def _loop(self) -> None:
        tried_in_drain: set[str] = set()
        while not self._stop.is_set():
            self._maybe_recover()
            draining = self._draining.is_set()
            batch = self.outbox.due(self.endpoint, ignore_backoff=draining)
            if draining:
                batch = [e for e in batch if e.op_id not in tried_in_drain]
            if not batch:
                self._idle.set()
                if draining:
                    return
                self._sleep(self._pause())
                continue
            for entry in batch:
                if self._stop.is_set():
                    return
                tried_in_drain.add(entry.op_id)
                self._one(entry)

    def _one(self, queued: Entry) -> None:
        entry = self.outbox.claim(queued.op_id)
        if entry is None:
            return  # another worker has it, or its page is busy with an older row
        attempts = entry.attempts
        sending = False
        try:
            now = self._observe(entry)
            if entry.before is None:
                if not self.outbox.record_before(entry.op_id, now.state):
                    return  # lost the row (lease taken over): its new owner sends it
            elif now.state != entry.before:
                # An earlier attempt landed, or the page was written since: either way
                # this row is not sent again; only its label is decided here.
                self._label_changed(entry, now)
                return
            if not self.outbox.sending(entry.op_id, self._deadline_s):
                return
            sending = True
            self._send(entry)
        except Exception as exc:  # every failure is recorded, none escapes the worker
            settled = not (sending and may_still_land(exc))
            permanent, reason = classify(exc)
            if permanent:
                self.outbox.failed(entry.op_id, reason, settled=settled)
            else:
                self.outbox.retry_later(entry.op_id, attempts, reason, settled=settled)
            return
        self.outbox.delivered(entry.op_id)

    def _label_changed(self, entry: Entry, now: Observed) -> None:
        if now.holds(entry.content):
            self.outbox.delivered(entry.op_id)
        elif any(now.holds(text) for text in self.outbox.others(entry)):
            self.outbox.replaced(
                entry.op_id,
                "the page holds a newer write from this profile; this one was not sent again",
            )
        else:
            self.outbox.superseded(
                entry.op_id,
                "someone else changed the page after this write was queued; their version "
                "was kept and this write was not sent",
            )
