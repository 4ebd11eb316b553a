"""The write soak: thousands of page writes through the outbox while GBrain is slow and crashes.

One profile's outbox file, shared by several outbox connections and workers (sessions of a
gateway), against the emulator over HTTP. Writer threads queue writes to a few dozen pages;
another client keeps editing the same pages; faults come and go at random: writes applied
after the client gave up on them (``apply_delay_s`` past the deadline), slow but answered
writes, slow reads, 5xx answers, and crashes of a worker at a random step of a write (the
row is left as a ``kill -9`` leaves it: in flight, owned by a process that is gone).

What is checked, from the server's own log of every write it applied and the workers' log
of every page check and send:

* **lost** — a write the model was told was queued that neither landed nor was honestly
  not sent (replaced by a newer write of ours, superseded by someone else's edit, or
  failed and reported);
* **applied twice** — one queued write applied more than once;
* **clobbered** — a write applied over another client's edit that one of its own page
  checks had already seen, or that came after the write's first look at the page and
  before the check that let it be sent (the outbox must not send then); an edit that
  lands between the last check and the send's arrival is the one window a server without
  conditional writes leaves, counted apart as ``raced``;
* **out of order** — two writes of ours to one page applied in another order than queued.

After the writers, a last start (two fresh workers) runs until nothing is pending or in
flight, within ``finish_s``. A row still open then is *stuck*: the result says, for each,
its state, holder (running, crashed, thread ended; whether ``rowqueue`` counts it gone),
lease, settle mark, backoff and the older or unsettled row of its page it waits on.
"""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hermes_gbrain.connect import open_brain
from hermes_gbrain.emulator import Emulator
from hermes_gbrain.rowqueue import holder_gone
from hermes_gbrain.settings import load_settings
from hermes_gbrain.toolbridge.outbox import Entry, Observed, Outbox, OutboxWorker
from hermes_gbrain.toolbridge.session import observe_page

FAULTS = ("slow-apply", "slow-answer", "latency", "5xx", "crash")
ENQUEUE_TRIES = 5


@dataclass
class WriteSoakConfig:
    writes: int = 10_000
    pages: int = 40
    writers: int = 8
    workers: int = 4
    seed: int = 1
    deadline_s: float = 0.4
    margin_s: float = 1.5
    """The settle margin. A slow-apply fault holds a write ``deadline_s + 0.8 * margin_s``:
    past the deadline and the first retry's backoff (about 1 s), inside the margin."""
    edit_every_s: float = 0.02
    fault_every_s: float = 1.0
    fault_s: float = 0.5
    crash_rate: float = 0.02
    """Of sends, the share whose worker dies at a random step of it."""
    max_backoff_s: float = 4.0
    """The retry backoff's cap (300 s in production). The soak shrinks time (its deadline
    and margin are 1/30 and 1/20 of production's), so a write that failed a few times
    waits seconds, not minutes: the base stays 1 s, the doubling stops at this."""
    finish_s: float = 20.0
    """How long the last start may take to empty the queue (every legitimate wait, a
    backoff and a settle mark, is a few seconds): past it, the open rows are *stuck*."""


@dataclass
class WriteSoakResult:
    writes: int = 0
    seconds: float = 0.0
    states: Counter[str] = field(default_factory=Counter)
    applied: int = 0
    edits: int = 0
    lost: int = 0
    applied_twice: int = 0
    clobbered: int = 0
    raced: int = 0
    out_of_order: int = 0
    crashes: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    lost_states: list[str] = field(default_factory=list)
    stuck: list[str] = field(default_factory=list)
    """Rows still pending or in flight when the last start gave up, each explained."""
    refused: int = 0
    """Enqueues the outbox refused (SQLite busy past its timeout); the writer tried again."""


class _Crash(BaseException):
    """Ends a worker's step as ``kill -9`` would: no bookkeeping after it."""


class _Log:
    """The server's applies and the workers' checks and sends, with their times."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        # (began, ended, slug, content): the server's store call, before and after
        self.applies: list[tuple[float, float, str, str]] = []
        # op id -> its page checks (began, ended), and its sends (the check before, start)
        self.checks: dict[str, list[tuple[float, float]]] = defaultdict(list)
        self.sends: dict[str, list[tuple[float, float]]] = defaultdict(list)

    def apply(self, began: float, slug: str, content: str) -> None:
        with self.lock:
            self.applies.append((began, time.monotonic(), slug, content))


def _dead_pid() -> int:
    """The id of a process that has exited: rows it "owns" belong to a dead process."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


class _Workers:
    """Outbox connections and their workers; a crashed one is replaced by a fresh start."""

    def __init__(self, db: Path, env: dict[str, str], config: WriteSoakConfig, log: _Log) -> None:
        self.db = db
        self.config = config
        self.log = log
        self.rng = random.Random(config.seed + 7)
        self.rng_lock = threading.Lock()
        settings = load_settings(env.get, hermes_home=str(db.parent.parent))
        self.brain = open_brain(settings, scope="read write", deadline_s=config.deadline_s)
        self.endpoint = self.brain.mcp.url
        self.dead = f"{_dead_pid()}:crashed"
        self.crashes = 0
        self.lock = threading.Lock()
        self.stopping = False
        self.every: dict[str, tuple[int, Outbox, OutboxWorker]] = {}  # owner -> every start
        self.crashed: set[str] = set()
        self.problems: list[str] = []  # the harness's own faults, reported as stuck rows are
        self.live: list[tuple[Outbox, OutboxWorker]] = []
        for _ in range(config.workers):
            self.live.append(self._start())

    def _start(self) -> tuple[Outbox, OutboxWorker]:
        box = Outbox(
            self.db, land_margin_s=self.config.margin_s, max_backoff_s=self.config.max_backoff_s
        )
        last_check: dict[str, float] = {}

        def observe(entry: Entry) -> Observed:
            began = time.monotonic()
            seen = observe_page(self.brain, entry.slug)
            last_check[entry.op_id] = began
            with self.log.lock:
                self.log.checks[entry.op_id].append((began, time.monotonic()))
            return seen

        def send(entry: Entry) -> None:
            with self.rng_lock:
                crash = self.rng.random() < self.config.crash_rate
                step = self.rng.choice(("before", "after", "answered"))
            with self.log.lock:
                self.log.sends[entry.op_id].append((last_check[entry.op_id], time.monotonic()))
            if crash and step == "before":
                self._crash(box)
            try:
                self.brain.put_page(entry.slug, entry.content)
            except Exception:
                if crash and step == "after":
                    self._crash(box)
                raise
            if crash:
                self._crash(box)

        worker = OutboxWorker(
            box,
            self.endpoint,
            send,
            observe=observe,
            send_deadline_s=self.config.deadline_s,
            max_wait_s=0.2,
            poll_s=0.05,
            recover_every_s=0.2,
        )
        self.every[box.owner] = (len(self.every) + 1, box, worker)
        worker.start()
        return box, worker

    def _crash(self, box: Outbox) -> None:
        """This worker's process dies: its rows in flight now belong to a dead process.

        The row is moved under the connection's lock, as every other use of it is (a
        connection used from two threads at once is not safe); a crash that moves no row
        would leave it with a live-looking owner, so that is reported with the result.
        """
        with self.lock:
            with box._lock:
                moved = box._db.execute(
                    "UPDATE outbox SET owner=? WHERE owner=? AND state='inflight'",
                    (self.dead, box.owner),
                ).rowcount
            if moved != 1:  # the worker would swallow an error: reported with the result
                self.problems.append(f"a crash moved {moved} rows in flight, not the one sent")
            self.crashes += 1
            self.crashed.add(box.owner)
            self.live = [(b, w) for b, w in self.live if b is not box]
            if not self.stopping:
                self.live.append(self._start())
        raise _Crash

    def pick(self, i: int) -> tuple[Outbox, OutboxWorker]:
        with self.lock:
            return self.live[i % len(self.live)]

    def restart(self, count: int) -> None:
        """The last start: the running workers stop after their row, ``count`` fresh ones run."""
        with self.lock:
            old, self.live = self.live, [self._start() for _ in range(count)]
        for _, worker in old:
            worker.stop()

    def shutdown(self, timeout: float = 10.0) -> None:
        """Stop every worker ever started (no more replacements), wait for their threads,
        close every connection."""
        with self.lock:
            self.stopping = True
            every = list(self.every.values())
        for _, _, worker in every:
            worker.stop()
        end = time.monotonic() + timeout
        for _, _, worker in every:
            thread = worker._thread
            if thread is not None:
                thread.join(max(0.0, end - time.monotonic()))
        for _, box, worker in every:
            if not worker.alive:
                box.close()

    def holder(self, owner: str | None) -> str:
        """Who holds a row, in words: which start, running or not, crashed or not."""
        if owner is None:
            return "nobody"
        if owner == self.dead:
            return "a crashed worker (its process is gone)"
        known = self.every.get(owner)
        if known is None:
            return f"an unknown owner {owner}"
        number, _, worker = known
        running = "running" if worker.alive else "thread ended"
        crashed = ", crashed" if owner in self.crashed else ""
        return f"worker {number} ({running}{crashed})"


def _fault(emu: Emulator, kind: str, config: WriteSoakConfig) -> None:
    knobs = emu.knobs
    if kind == "slow-apply":  # the client gives up; the write lands later anyway
        knobs.apply_delay_s = {"put_page": config.deadline_s + 0.8 * config.margin_s}
    elif kind == "slow-answer":
        knobs.apply_delay_s = {"put_page": config.deadline_s / 2}
    elif kind == "latency":
        knobs.apply_delay_s = {"get_page": config.deadline_s * 1.5}
    elif kind == "5xx":
        knobs.status = 502


def run_write_soak(config: WriteSoakConfig) -> WriteSoakResult:
    """Run the write soak on a fresh emulator; the figures are in the result."""
    result = WriteSoakResult()
    rng = random.Random(config.seed)
    log = _Log()
    threading.excepthook, saved_hook = _quiet_crashes, threading.excepthook
    with tempfile.TemporaryDirectory() as tmp, Emulator() as emu:
        original_put = emu.store.put_page

        def put_page(slug: str, content: str, *args: Any, **kwargs: Any) -> Any:
            began = time.monotonic()
            out = original_put(slug, content, *args, **kwargs)
            log.apply(began, slug, content)
            return out

        emu.store.put_page = put_page  # type: ignore[method-assign]
        env = {
            **emu.client_env("write-soak", scopes="read write"),
            "GBRAIN_POINTER_ALLOW_HTTP": "1",
        }
        db = Path(tmp) / "home" / "gbrain" / "outbox.sqlite3"
        workers = _Workers(db, env, config, log)
        pages = [f"soak/page-{n:03d}" for n in range(config.pages)]
        stop = threading.Event()
        started = time.monotonic()
        try:
            queued = _write_all(workers, emu, pages=pages, rng=rng, stop=stop, result=result)
            result.stuck = workers.problems + _finish(workers, config)
        finally:
            workers.shutdown()
        result.seconds = time.monotonic() - started
        result.crashes = workers.crashes
        rows = Outbox(db)
        table = rows._db.execute("SELECT op_id, slug, content, state, id FROM outbox").fetchall()
        rows.close()
        emu.store.put_page = original_put  # type: ignore[method-assign]
        _account(result, queued, table, log)
    threading.excepthook = saved_hook
    return result


def _quiet_crashes(args: threading.ExceptHookArgs) -> None:
    if not isinstance(args.exc_value, _Crash):
        sys.__excepthook__(args.exc_type, args.exc_value, args.exc_traceback)


def _write_all(
    workers: _Workers,
    emu: Emulator,
    *,
    pages: list[str],
    rng: random.Random,
    stop: threading.Event,
    result: WriteSoakResult,
) -> set[str]:
    """Writers, the other client and the fault switch run until every write is queued."""
    config = workers.config
    queued: set[str] = set()
    counter = iter(range(config.writes))
    counter_lock = threading.Lock()

    def writer(i: int) -> None:
        local = random.Random(config.seed * 1000 + i)
        while True:
            with counter_lock:
                n = next(counter, None)
            if n is None:
                return
            box, worker = workers.pick(i)
            slug = local.choice(pages)
            content = f"# {slug}\n\nWrite {n} from writer {i}.\n"
            entry = _enqueue(box, workers.endpoint, slug, content, result=result, lock=counter_lock)
            with counter_lock:
                queued.add(content)
            worker.wake()
            _until_not_pending(box, entry.op_id, 5.0)

    def other_client() -> None:
        n = 0
        while not stop.wait(config.edit_every_s):
            slug = rng.choice(pages)
            n += 1
            emu.store.put_page(slug, f"# {slug}\n\nSomeone else's edit {n}.\n")
        result.edits = n

    def faults() -> None:
        while not stop.wait(config.fault_every_s):
            kind = rng.choice([f for f in FAULTS if f != "crash"])
            result.faults[kind] += 1
            _fault(emu, kind, config)
            stop.wait(config.fault_s)
            emu.reset_knobs()

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(config.writers)]
    side = [threading.Thread(target=other_client), threading.Thread(target=faults)]
    for t in (*threads, *side):
        t.start()
    for t in threads:
        t.join()
    stop.set()
    for t in side:
        t.join()
    emu.reset_knobs()
    return queued


def _enqueue(
    box: Outbox,
    endpoint: str,
    slug: str,
    content: str,
    *,
    result: WriteSoakResult,
    lock: threading.Lock,
) -> Entry:
    """Queue one write as the model would: a refusal (the file busy past SQLite's timeout;
    nothing was queued, and the model is told so) is tried again, a few times."""
    for _ in range(ENQUEUE_TRIES - 1):
        try:
            return box.enqueue(endpoint, slug, content)[0]
        except sqlite3.OperationalError:
            with lock:
                result.refused += 1
    return box.enqueue(endpoint, slug, content)[0]


def _until_not_pending(box: Outbox, op_id: str, timeout: float) -> None:
    """Pace a writer: its next write once this one was taken up (or replaced)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        row = box.get(op_id)
        if row is None or row.state != "pending":
            return
        threading.Event().wait(0.005)


def _finish(workers: _Workers, config: WriteSoakConfig) -> list[str]:
    """A last start after the run: workers until nothing is pending or in flight, within
    ``finish_s``; then each row still open, explained (empty when the queue emptied)."""
    workers.restart(2)
    watch = Outbox(workers.db)
    try:
        end = time.monotonic() + config.finish_s
        while time.monotonic() < end:
            status = watch.status()
            if status.pending + status.inflight == 0:
                return []
            threading.Event().wait(0.05)
        return _open_rows(watch, workers)
    finally:
        watch.close()


def _open_rows(watch: Outbox, workers: _Workers) -> list[str]:
    """Why each row still pending or in flight is: its holder, lease, settle mark, backoff,
    and what of its page comes first (an older open row, another row's settle mark)."""
    now = watch.clock()
    with watch._lock:
        rows = watch._db.execute(
            "SELECT id, slug, state, attempts, maybe_sent, next_at, settle_until, owner,"
            " claimed_at, last_error FROM outbox ORDER BY id"
        ).fetchall()
    lines = []
    for row_id, slug, state, attempts, maybe_sent, next_at, settle, owner, claimed, error in rows:
        if state not in ("pending", "inflight"):
            continue
        parts = [
            f"row {row_id} {slug} {state}, {attempts} attempts, maybe sent: {bool(maybe_sent)}"
        ]
        if state == "inflight":
            held = now - claimed if claimed is not None else float("nan")
            parts.append(
                f"held by {workers.holder(owner)} for {held:.1f} s (lease"
                f" {watch.rows.lease_s - held:.1f} s left; holder gone: {holder_gone(owner)})"
            )
        else:
            parts.append(f"next try in {max(0.0, next_at - now):.1f} s")
        parts.append(f"settles in {max(0.0, (settle or 0.0) - now):.1f} s")
        before = [
            f"row {r[0]} ({r[2]})"
            for r in rows
            if r[1] == slug and r[0] < row_id and r[2] in ("pending", "inflight")
        ]
        settling = [
            f"row {r[0]}" for r in rows if r[1] == slug and r[0] != row_id and (r[6] or 0) > now
        ]
        if before:
            parts.append("after " + ", ".join(before))
        if settling:
            parts.append("page settling for " + ", ".join(settling))
        parts.append(f"last error: {error or '-'}")
        lines.append("; ".join(parts))
    return lines


def _account(
    result: WriteSoakResult,
    queued: set[str],
    table: list[tuple[str, str, str, str, int]],
    log: _Log,
) -> None:
    result.writes = len(queued)
    row_of = {
        content: (op_id, slug, state, row_id) for op_id, slug, content, state, row_id in table
    }
    result.states = Counter(state for *_, state, _ in table)
    ours = Counter(content for *_, content in log.applies if content in row_of)
    result.applied = sum(ours.values())
    result.applied_twice = sum(1 for count in ours.values() if count > 1)
    for content in queued:
        if content not in row_of:
            result.lost += 1
            result.lost_states.append("absent")
            continue
        _, _, state, _ = row_of[content]
        landed = ours[content] > 0
        if (state == "delivered" and not landed) or state in ("pending", "inflight"):
            result.lost += 1
            result.lost_states.append(state)
    by_page: dict[str, list[tuple[float, float, str]]] = defaultdict(list)
    for began, ended, slug, content in log.applies:
        by_page[slug].append((began, ended, content))
    for events in by_page.values():
        last_row = -1
        for index, (_, ended, content) in enumerate(events):
            if content not in row_of:
                continue
            op_id, _, _, row_id = row_of[content]
            if row_id < last_row:
                result.out_of_order += 1
            last_row = max(last_row, row_id)
            clobbered, raced = _over_edit(events[:index], ended, log, op_id, row_of)
            result.clobbered += clobbered
            result.raced += raced


def _over_edit(
    earlier: list[tuple[float, float, str]],
    at: float,
    log: _Log,
    op_id: str,
    row_of: dict[str, tuple[str, str, str, int]],
) -> tuple[int, int]:
    """Whether this apply of ``op_id`` went over an edit it should have seen, or raced one.

    An edit begun after the write's first look ended, and finished before the check that
    let this send go began, was on the page for that check to see: going over it is a
    clobber. One finished after that check began raced the send (no conditional write).
    """
    sends = [s for s in log.sends.get(op_id, []) if s[1] <= at]
    checks = log.checks.get(op_id, [])
    if not sends or not checks:
        return 0, 0
    first_look_ended = min(checks)[1]
    last_check_began, _ = sends[-1]
    edits = [(b, e) for b, e, content in earlier if content not in row_of and b > first_look_ended]
    clobbered = any(e < last_check_began for _, e in edits)
    raced = not clobbered and any(e >= last_check_began for _, e in edits)
    return int(clobbered), int(raced)
