"""What both durable write queues share (the page outbox, the memory write-back ledger): the
row rules, and the worker thread's start, wake, drain and close.

A queued row moves ``pending`` → ``inflight`` (claimed by one process, with its token)
→ a final state, or back to ``pending`` to be retried. What these rules guarantee:

* **One sender per row.** A claim is one SQLite ``UPDATE`` guarded by the row's state,
  so two threads or two Hermes processes sharing a profile never both hold a row.
  A row a dead process left ``inflight`` (or one held past its lease) goes back to
  ``pending``, marked *maybe sent*. So does one whose holder in *this* process is gone
  for good (its worker thread ended, its store was closed or collected): a gateway's
  other sessions, or the next start in the same process, take it back without waiting
  out the lease, which is only for a live holder that never finishes.
* **A store error never strands a row.** A worker whose bookkeeping fails (SQLite busy
  past its timeout, a full disk) gives back the row it holds and keeps running; the
  row keeps its *maybe sent* flag and settle mark, so nothing is sent twice.
* **Order per group.** A row is never claimed while an older row of its group (the
  same page for the outbox, the same endpoint for the ledger) is still pending or in
  flight, nor while any other row of its group *may still land* (below).
* **No re-send while a send may still land.** Just before a row is sent, it records
  ``settle_until`` = now + the send's deadline + ``LAND_MARGIN_S``. A server may hold
  a request past our deadline and apply it later, so a send that ended without a
  clear answer (a deadline, a dropped connection, a proxy's 5xx) leaves that mark in
  place: the row, and every row of its group, waits until it has passed — even across
  a crash, since the mark is on disk before the bytes leave. A clear answer (success,
  a tool error, a refusal) clears it: nothing of that send is still on its way.

The margin is a bet on how long a server keeps a request it has stopped answering;
``docs/reliability.md`` gives the figures the soak measures with writes applied after
the client has given up.
"""

from __future__ import annotations

import logging
import os
import random
import secrets
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from .api import UnsupportedError
from .errors import (
    AuthError,
    ConfigError,
    HTTPStatusError,
    RefusedError,
    RPCError,
    ToolError,
    TransportError,
)
from .files import process_alive

__all__ = [
    "LAND_MARGIN_S",
    "LEASE_S",
    "RECOVER_EVERY_S",
    "QueueWorker",
    "RowQueue",
    "Spawn",
    "may_still_land",
]

log = logging.getLogger(__name__)

LEASE_S = 120.0
"""How long a claim holds against a live process that never finishes the row."""
RECOVER_EVERY_S = 30.0
"""How often a running worker takes back rows a process that died since left in flight."""
FAILED_PASS_PAUSE_S = 0.5
"""The first pause after a worker's pass failed; it doubles while passes keep failing."""
LAND_MARGIN_S = 30.0
"""After a send's deadline, how much longer it may still be applied by the server."""
_OLD_DEADLINE_S = 12.0
"""The send deadline assumed for rows a version without settle marks left maybe sent."""
_NOT_SENT_KINDS = frozenset({"ConnectError", "client closed", "InvalidURL", "UnsupportedProtocol"})
"""Transport failures (httpx names) that happen before a request is written."""


def may_still_land(exc: BaseException) -> bool:
    """Whether a send that raised ``exc`` may still be applied by the server later.

    A reply from the server itself (a tool error, a refusal, a 4xx) or a connection
    that never opened means nothing is on its way; a deadline, a dropped or garbled
    reply, or a 5xx (a proxy in front may still be waiting on GBrain) means it may be.
    """
    if isinstance(exc, ToolError | AuthError | ConfigError | RefusedError | RPCError):
        return False
    if isinstance(exc, UnsupportedError):  # raised before any request (the tool list)
        return False
    if isinstance(exc, HTTPStatusError):
        return exc.status >= 500
    if isinstance(exc, TransportError):
        return exc.kind not in _NOT_SENT_KINDS
    return True  # a deadline, a garbled or cut reply, anything unexpected


def _owner_pid(owner: str | None) -> int | None:
    try:
        return int((owner or "").split(":", 1)[0])
    except ValueError:
        return None


_live_owners: set[str] = set()
"""Claim tokens of this process whose holder may still finish a row it claimed."""
_live_lock = threading.Lock()


def _mark_live(owner: str) -> None:
    with _live_lock:
        _live_owners.add(owner)


def _retire_owner(owner: str) -> None:
    with _live_lock:
        _live_owners.discard(owner)


def holder_gone(owner: str | None) -> bool:
    """Whether nothing will ever finish a row claimed under ``owner``.

    Another process: it has exited. This process: the token was retired (its worker
    thread ended, its store closed) — a live pid says nothing about a thread.
    """
    pid = _owner_pid(owner)
    if pid is None:
        return False
    if pid == os.getpid():
        with _live_lock:
            return owner not in _live_owners
    return not process_alive(pid)


class RowQueue:
    """Claims, leases, settle marks and retries on one table of queued rows.

    The table has ``id`` (order), ``op_id``, ``state``, ``attempts``, ``maybe_sent``,
    ``next_at``, ``owner``, ``claimed_at``, ``last_error``, ``updated_at``,
    ``settle_until`` and the ``group`` columns. Every method takes ``lock`` (the
    owner's connection lock) itself.
    """

    def __init__(
        self,
        db: sqlite3.Connection,
        lock: threading.Lock,
        table: str,
        group: Sequence[str],
        *,
        clock: Callable[[], float],
        lease_s: float = LEASE_S,
        land_margin_s: float = LAND_MARGIN_S,
    ) -> None:
        if not table.isidentifier() or not all(c.isidentifier() for c in group):
            raise ValueError("table and group must be plain SQL names")
        self._db = db
        self._lock = lock
        self.table = table
        self.clock = clock
        self.lease_s = lease_s
        self.land_margin_s = land_margin_s
        self.owner = f"{os.getpid()}:{secrets.token_hex(8)}"
        self._held: set[str] = set()  # rows this queue claimed and has not let go of
        _mark_live(self.owner)
        weakref.finalize(self, _retire_owner, self.owner)
        same = " AND ".join(f"b.{c}={table}.{c}" for c in group)
        self._same = same
        # Any row of the group that must finish (older, not done) or settle first.
        self._blocker = (
            f"EXISTS (SELECT 1 FROM {table} b WHERE {same} AND b.id<>{table}.id AND"  # noqa: S608 - fixed table and column names
            f" ((b.id<{table}.id AND b.state IN ('pending','inflight'))"
            f" OR COALESCE(b.settle_until,0)>?))"
        )

    def add_settle_column(self) -> None:
        """Files from before the settle mark: add it; rows maybe sent settle from now."""
        columns = {row[1] for row in self._db.execute(f"PRAGMA table_info({self.table})")}
        if "settle_until" not in columns:
            self._db.execute(f"ALTER TABLE {self.table} ADD COLUMN settle_until REAL")
            self._db.execute(
                f"UPDATE {self.table} SET settle_until=? WHERE maybe_sent=1"  # noqa: S608 - fixed table and column names
                " AND state IN ('pending','inflight')",
                (self.clock() + _OLD_DEADLINE_S + self.land_margin_s,),
            )

    def ready_sql(self) -> tuple[str, Callable[[], tuple[Any, ...]]]:
        """A ``WHERE`` fragment for pending rows that may be claimed now, and its arguments."""

        def args() -> tuple[Any, ...]:
            now = self.clock()
            return (now, now)

        sql = f"COALESCE({self.table}.settle_until,0)<=? AND NOT {self._blocker}"
        return sql, args

    def retire(self) -> None:
        """Nothing of this queue will finish a row any more (its worker ended, or its store
        closed): rows it still holds are free for this process's other queues to take back."""
        _retire_owner(self.owner)

    def recover(self) -> int:
        """Rows left ``inflight`` by a holder that is gone (a dead process, a retired queue of
        this process) or past their lease go back, maybe sent.

        Their settle mark stays: a send the gone holder began may still land.
        """
        now = self.clock()
        count = 0
        with self._lock:
            rows = self._db.execute(
                f"SELECT op_id, owner, claimed_at FROM {self.table} WHERE state='inflight'"  # noqa: S608 - fixed table and column names
            ).fetchall()
            for op_id, owner, claimed_at in rows:
                if owner == self.owner:
                    continue
                expired = claimed_at is None or claimed_at + self.lease_s <= now
                if expired or holder_gone(owner):
                    cur = self._db.execute(
                        f"UPDATE {self.table} SET state='pending', maybe_sent=1, owner=NULL,"  # noqa: S608 - fixed table and column names
                        " next_at=?, updated_at=? WHERE op_id=? AND state='inflight'"
                        " AND owner IS ?",
                        (now, now, op_id, owner),
                    )
                    count += cur.rowcount
        return count

    def claim(self, op_id: str) -> bool:
        """``pending`` → ``inflight`` for this process, unless its group is not ready."""
        ready, args = self.ready_sql()
        now = self.clock()
        _mark_live(self.owner)  # a queue used again after its worker ended holds rows again
        with self._lock:
            cur = self._db.execute(
                f"UPDATE {self.table} SET state='inflight', owner=?, claimed_at=?,"  # noqa: S608 - fixed table and column names
                f" attempts=attempts+1, updated_at=? WHERE op_id=? AND state='pending' AND {ready}",
                (self.owner, now, now, op_id, *args()),
            )
            if cur.rowcount == 1:
                self._held.add(op_id)
        return cur.rowcount == 1

    def release(self, op_id: str) -> bool:
        """``inflight`` → ``pending`` now, for a row this queue holds but cannot finish (its
        bookkeeping failed). *Maybe sent* and the settle mark stay as the send left them."""
        now = self.clock()
        with self._lock:
            cur = self._db.execute(
                f"UPDATE {self.table} SET state='pending', owner=NULL, next_at=?,"  # noqa: S608 - fixed table and column names
                " updated_at=? WHERE op_id=? AND state='inflight' AND owner=?",
                (now, now, op_id, self.owner),
            )
            self._held.discard(op_id)
        return cur.rowcount == 1

    def release_held(self) -> int:
        """Give back every row this queue claimed and never finished; raises if the store
        still fails (the rows stay held, to be given back on the next try)."""
        with self._lock:
            held = sorted(self._held)
        return sum(self.release(op_id) for op_id in held)

    def sending(self, op_id: str, deadline_s: float) -> bool:
        """Commit that a send is about to start: maybe sent, and settling until its end."""
        now = self.clock()
        with self._lock:
            cur = self._db.execute(
                f"UPDATE {self.table} SET maybe_sent=1, settle_until=?, updated_at=?"  # noqa: S608 - fixed table and column names
                " WHERE op_id=? AND state='inflight' AND owner=?",
                (now + deadline_s + self.land_margin_s, now, op_id, self.owner),
            )
            if cur.rowcount != 1:
                self._held.discard(op_id)  # taken back by another process: not ours
        return cur.rowcount == 1

    def finish(
        self,
        op_id: str,
        state: str,
        error: str | None = None,
        *,
        settled: bool = True,
        next_at: float | None = None,
    ) -> bool:
        """Leave ``inflight`` for ``state``; ``settled=False`` keeps the settle mark."""
        now = self.clock()
        settle = "NULL" if settled else "settle_until"
        with self._lock:
            cur = self._db.execute(
                f"UPDATE {self.table} SET state=?, last_error=?, next_at=?, updated_at=?,"  # noqa: S608 - fixed table and column names
                f" owner=NULL, settle_until={settle}"
                " WHERE op_id=? AND state='inflight' AND owner=?",
                (state, error, now if next_at is None else next_at, now, op_id, self.owner),
            )
            self._held.discard(op_id)
        return cur.rowcount == 1

    def settle_of(self, op_id: str) -> float:
        with self._lock:
            row = self._db.execute(
                f"SELECT settle_until FROM {self.table} WHERE op_id=?",  # noqa: S608 - fixed names
                (op_id,),
            ).fetchone()
        return float(row[0]) if row is not None and row[0] is not None else 0.0

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
        """Back to ``pending`` after a jittered exponential delay, never before the row settles
        (``failed`` once ``max_attempts`` are spent); returns the delay."""
        if attempts >= max_attempts:
            note = "" if settled else " (the last send may still have landed)"
            self.finish(
                op_id,
                "failed",
                f"{error}; gave up after {attempts} attempts{note}",
                settled=settled,
            )
            return 0.0
        delay = float(min(cap_s, base_s * (2 ** max(0, attempts - 1))))
        delay *= 0.75 + random.random() / 2  # noqa: S311 - jitter, not security
        at = self.clock() + delay
        if not settled:
            at = max(at, self.settle_of(op_id))
        self.finish(op_id, "pending", error, settled=settled, next_at=at)
        return at - self.clock()

    def next_wake(self, where: str, args: tuple[Any, ...]) -> float | None:
        """When the earliest pending row matching ``where`` is past its backoff and every
        settle mark of its group (rows behind an older unfinished row count as due now)."""
        same = self._same
        with self._lock:
            row = self._db.execute(
                f"SELECT MIN(MAX(next_at, COALESCE(settle_until,0), COALESCE((SELECT"  # noqa: S608 - fixed names
                f" MAX(b.settle_until) FROM {self.table} b WHERE {same}"
                f" AND b.id<>{self.table}.id),0))) FROM {self.table}"
                f" WHERE state='pending' AND {where}",
                args,
            ).fetchone()
        return None if row is None or row[0] is None else float(row[0])


Spawn = Callable[[Callable[[], None], str], threading.Thread]


def _daemon(fn: Callable[[], None], name: str) -> threading.Thread:
    return threading.Thread(target=fn, name=name, daemon=True)


class QueueWorker:
    """The one background thread of a durable queue: started once, woken on new rows, a
    drain bounded in time at shutdown, and the store closed once the thread is out of it.

    A pass that fails (the store busy past its timeout, a full disk) never ends the
    thread: the row it held goes back to ``pending`` and the loop starts again after a
    pause. When the thread does end, its claim token is retired, so a row it still held
    does not wait for the lease.

    Subclasses give ``_loop`` (call ``_maybe_recover`` each pass; return when
    ``_draining`` is set and nothing is left to try), ``_rows``, ``_recover`` and
    ``_close_store``.
    """

    thread_name = "gbrain-queue"

    def __init__(
        self,
        *,
        spawn: Spawn | None = None,
        max_wait_s: float = 30.0,
        recover_every_s: float = RECOVER_EVERY_S,
    ) -> None:
        self._spawn: Spawn = spawn or _daemon
        self._max_wait = min(max_wait_s, recover_every_s)
        self._recover_every = recover_every_s
        self._recovered_at = time.monotonic()  # the store recovered when it was opened
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._draining = threading.Event()
        self._idle = threading.Event()
        self._drained = threading.Event()  # set only when a drain pass (or the thread) is over
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._close_after = False

    def start(self) -> None:
        with self._lock:
            if self._thread is None and not self._stop.is_set():
                self._thread = self._spawn(self._run, self.thread_name)
                self._thread.start()

    def wake(self) -> None:
        self._idle.clear()
        self._wake.set()

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def wait_idle(self, timeout: float) -> bool:
        """Until nothing is due now (tests, commands)."""
        return self._idle.wait(timeout)

    def drain_within(self, timeout: float) -> None:
        """Try every queued row once more (backoff ignored, never a settle mark), then stop;
        bounded by ``timeout``. Rows left stay queued for the next start."""
        deadline = time.monotonic() + max(0.0, timeout)
        self._draining.set()
        self.wake()
        thread = self._thread
        if thread is not None and thread.is_alive():
            # Not ``_idle``: a pass that began before the drain may set that one, and
            # the drain would end before trying anything.
            self._drained.wait(max(0.0, deadline - time.monotonic()))
        self._stop.set()
        self._wake.set()
        if thread is not None:
            thread.join(max(0.0, deadline - time.monotonic()))

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()

    def close_when_done(self) -> None:
        """Stop, and close the store once the thread is out of it (now, if it already is)."""
        with self._lock:
            self._close_after = True
        self.stop()
        thread = self._thread
        if thread is None or not thread.is_alive():
            self._close_store()

    def _maybe_recover(self) -> None:
        """Take back rows another process sharing the profile left in flight when it died."""
        if time.monotonic() - self._recovered_at >= self._recover_every:
            self._recovered_at = time.monotonic()
            self._recover()

    def _sleep(self, seconds: float) -> None:
        self._wake.wait(max(0.01, seconds))
        self._wake.clear()

    def _run(self) -> None:
        streak, failed_at = 0, 0.0
        try:
            while True:
                if streak:
                    self._give_back()  # again, if the store refused it after the failure
                try:
                    self._loop()
                    return
                except Exception as exc:  # the worker never prints a traceback into Hermes
                    now = time.monotonic()
                    streak = streak + 1 if now - failed_at < 2 * self._max_wait else 1
                    failed_at = now
                    log.log(
                        logging.WARNING if streak == 1 else logging.DEBUG,  # once a streak
                        "gbrain %s: a pass failed (%s); its row goes back to the queue",
                        self.thread_name,
                        type(exc).__name__,
                    )
                    self._give_back()
                    if self._stop.is_set():
                        return
                    self._sleep(min(self._max_wait, FAILED_PASS_PAUSE_S * 2 ** (streak - 1)))
        finally:
            # However the thread ends (a kill-like BaseException included, which leaves
            # the rows as they are), nothing of it finishes a row any more.
            self._rows().retire()
            self._idle.set()
            self._drained.set()  # however the loop ended, a drain has nothing to wait for
            with self._lock:
                close = self._close_after
            if close:
                self._close_store()

    def _give_back(self) -> None:
        """Rows a failed pass left claimed go back now (a store that still fails keeps them
        held until the next try; the thread's end frees them all the same)."""
        try:
            self._rows().release_held()
        except Exception as exc:
            log.warning(
                "gbrain %s: could not give a row back (%s)", self.thread_name, type(exc).__name__
            )

    def _loop(self) -> None:
        raise NotImplementedError

    def _rows(self) -> RowQueue:
        raise NotImplementedError

    def _recover(self) -> None:
        raise NotImplementedError

    def _close_store(self) -> None:
        raise NotImplementedError
