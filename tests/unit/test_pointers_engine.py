"""PointerEngine races driven by a fake search function and Events (no network, no sleeps)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence

import pytest

from hermes_gbrain.api import SearchRow
from hermes_gbrain.recall.pointers import HEADER, Owner, PointerEngine, StoreKey

WAIT = 5.0


class FakeSearch:
    """Records calls; each call can be held on a gate until the test releases it."""

    def __init__(self, rows: Sequence[SearchRow] | None = None, *, hold: bool = False) -> None:
        self.rows = list(rows or [SearchRow("people/alice", "Alice", "default")])
        self.calls: list[tuple[str, int]] = []
        self.started = threading.Event()
        self.entered = threading.Semaphore(0)  # released once per call that has begun
        self.gate = threading.Event()
        if not hold:
            self.gate.set()
        self.fail: Exception | None = None
        self._lock = threading.Lock()

    def __call__(self, query: str, limit: int) -> Sequence[SearchRow]:
        with self._lock:
            self.calls.append((query, limit))
        self.started.set()
        self.entered.release()
        assert self.gate.wait(WAIT)
        if self.fail is not None:
            raise self.fail
        return self.rows


@pytest.fixture
def engine() -> Iterator[PointerEngine]:
    eng = PointerEngine(max_workers=4)
    yield eng
    eng.shutdown(1.0)


KEY = StoreKey("/home/a", "cred", "s1")


def run(engine: PointerEngine, key: StoreKey, search: FakeSearch, owner: Owner, **kw: object):
    ticket = engine.submit(key, "who is alice", 3, search, owner=owner, **kw)  # type: ignore[arg-type]
    assert ticket is not None
    return ticket


def test_result_handed_out_once(engine: PointerEngine) -> None:
    owner, search = Owner(), FakeSearch()
    assert run(engine, KEY, search, owner).done.wait(WAIT)
    assert engine.take(KEY, 3) == HEADER + "\n- [default:people/alice] Alice"
    assert engine.take(KEY, 3) == ""
    assert search.calls == [("who is alice", 3)]


def test_other_session_or_credential_sees_nothing(engine: PointerEngine) -> None:
    owner = Owner()
    assert run(engine, KEY, FakeSearch(), owner).done.wait(WAIT)
    assert engine.take(StoreKey("/home/a", "cred", "s2"), 3) == ""
    assert engine.take(StoreKey("/home/a", "other", "s1"), 3) == ""
    assert engine.take(StoreKey("/home/b", "cred", "s1"), 3) == ""
    assert engine.take(KEY, 3) != ""


def test_limit_at_hand_out_time(engine: PointerEngine) -> None:
    rows = [SearchRow(f"p{i}", f"P{i}", "default") for i in range(5)]
    assert run(engine, KEY, FakeSearch(rows), Owner()).done.wait(WAIT)
    assert len(engine.take(KEY, 2).splitlines()) == 3  # header + 2


def test_query_capped_at_500_chars(engine: PointerEngine) -> None:
    search = FakeSearch()
    ticket = engine.submit(KEY, "x" * 2000, 3, search, owner=Owner())
    assert ticket is not None and ticket.done.wait(WAIT)
    assert len(search.calls[0][0]) == 500


def test_invalidate_in_flight_never_publishes_and_new_search_starts(
    engine: PointerEngine,
) -> None:
    owner, slow = Owner(), FakeSearch(hold=True)
    first = run(engine, KEY, slow, owner)
    assert slow.started.wait(WAIT)
    engine.invalidate(KEY)  # /new, /reset, /undo
    fast = FakeSearch([SearchRow("fresh", "Fresh", "default")])
    second = run(engine, KEY, fast, owner)
    assert second.done.wait(WAIT)  # started at once, while the first is still held
    assert not first.done.is_set()
    assert engine.take(KEY, 3).endswith("[default:fresh] Fresh")
    slow.gate.set()
    assert first.done.wait(WAIT)
    assert engine.take(KEY, 3) == ""


def test_invalidate_alone_drops_in_flight(engine: PointerEngine) -> None:
    slow = FakeSearch(hold=True)
    ticket = run(engine, KEY, slow, Owner())
    assert slow.started.wait(WAIT)
    engine.invalidate(KEY)
    slow.gate.set()
    assert ticket.done.wait(WAIT)
    assert engine.take(KEY, 3) == ""


def test_newer_submit_supersedes_older(engine: PointerEngine) -> None:
    owner, old = Owner(), FakeSearch([SearchRow("old", "Old", "default")], hold=True)
    first = run(engine, KEY, old, owner)
    assert old.started.wait(WAIT)
    second = run(engine, KEY, FakeSearch([SearchRow("new", "New", "default")]), owner)
    assert second.done.wait(WAIT)
    old.gate.set()
    assert first.done.wait(WAIT)
    assert "new" in engine.take(KEY, 3)


def test_close_owner_is_final(engine: PointerEngine) -> None:
    owner, slow = Owner(), FakeSearch(hold=True)
    ticket = run(engine, KEY, slow, owner)
    assert slow.started.wait(WAIT)
    engine.close_owner(owner)
    slow.gate.set()
    assert ticket.done.wait(WAIT)
    assert engine.take(KEY, 3) == ""
    assert engine.submit(KEY, "q", 3, FakeSearch(), owner=owner) is None
    # another owner (a new provider instance) is unaffected
    assert run(engine, KEY, FakeSearch(), Owner()).done.wait(WAIT)
    assert engine.take(KEY, 3) != ""


def test_shutdown_is_bounded_and_final() -> None:
    engine = PointerEngine(max_workers=2)
    slow = FakeSearch(hold=True)
    ticket = run(engine, KEY, slow, Owner())
    assert slow.started.wait(WAIT)
    queued = run(engine, StoreKey("/h", "c", "other"), FakeSearch(), Owner())
    queued2 = run(engine, StoreKey("/h", "c", "other2"), FakeSearch(), Owner())
    started = time.monotonic()
    engine.shutdown(0.2)
    assert time.monotonic() - started < 1.0
    assert queued.done.is_set() or queued2.done.is_set()
    slow.gate.set()
    assert ticket.done.wait(WAIT)
    assert engine.take(KEY, 3) == ""
    assert engine.submit(KEY, "q", 3, FakeSearch(), owner=Owner()) is None


def test_failure_fails_open_and_next_try_works(engine: PointerEngine) -> None:
    search, errors = FakeSearch(), []
    search.fail = RuntimeError("boom")
    owner = Owner()
    ticket = run(engine, KEY, search, owner, outcome=errors.append)
    assert ticket.done.wait(WAIT)
    assert engine.take(KEY, 3) == ""
    assert [type(e) for e in errors] == [RuntimeError]
    search.fail = None
    assert run(engine, KEY, search, owner).done.wait(WAIT)
    assert engine.take(KEY, 3) != ""


def test_failure_log_is_class_name_only(
    engine: PointerEngine, caplog: pytest.LogCaptureFixture
) -> None:
    search = FakeSearch()
    search.fail = RuntimeError("secret-token-xyz who is alice")
    caplog.set_level("DEBUG", logger="hermes_gbrain")
    assert run(engine, KEY, search, Owner()).done.wait(WAIT)
    messages = [r.getMessage() for r in caplog.records]
    assert messages == ["pointer search failed: RuntimeError"]


def test_bounded_pool_under_burst() -> None:
    engine = PointerEngine(max_workers=8)
    gate = FakeSearch(hold=True)
    owner = Owner()
    tickets = [
        engine.submit(StoreKey("/h", "c", f"s{i}"), "q", 3, gate, owner=owner) for i in range(200)
    ]
    gate.gate.set()
    assert all(t is not None and t.done.wait(WAIT) for t in tickets)
    delivered = sum(bool(engine.take(StoreKey("/h", "c", f"s{i}"), 3)) for i in range(200))
    assert delivered == 200
    assert engine.peak_workers <= 8
    engine.shutdown(1.0)


def test_context_is_used_for_each_job(engine: PointerEngine) -> None:
    import contextvars

    var: contextvars.ContextVar[str] = contextvars.ContextVar("var", default="unset")
    var.set("profile-a")
    ctx = contextvars.copy_context()
    var.set("other")
    seen: list[str] = []

    def search(query: str, limit: int) -> Sequence[SearchRow]:
        seen.append(var.get())
        return []

    ticket = engine.submit(KEY, "q", 3, search, owner=Owner(), context=ctx)
    assert ticket is not None and ticket.done.wait(WAIT)
    assert seen == ["profile-a"]
    assert engine.take(KEY, 3) == ""  # empty answer: no block


# -- bulkheads and capacity ----------------------------------------------------------------


def test_a_hung_share_ties_up_only_its_own_workers() -> None:
    """Share "a" hangs: it runs at most per_share searches; share "b" still gets its pointers."""
    engine = PointerEngine(max_workers=4, per_share=2)
    hung = FakeSearch(hold=True)
    owner = Owner()
    try:
        tickets = [
            engine.submit(StoreKey("/a", "a", f"s{i}"), "q", 3, hung, owner=owner) for i in range(8)
        ]
        # both of a's workers are inside the hung search (the second may start a moment later)
        assert hung.entered.acquire(timeout=WAIT) and hung.entered.acquire(timeout=WAIT)
        for i in range(5):  # a healthy profile keeps getting its pointers, one after another
            b_key = StoreKey("/b", "b", f"s{i}")
            assert run(engine, b_key, FakeSearch(), owner).done.wait(WAIT)
            assert engine.take(b_key, 3) != ""
        assert engine.running("a") == 2
        assert len(hung.calls) == 2  # the rest of a's work waits in a's own queue
        assert engine.workers <= 4
    finally:
        hung.gate.set()
    assert all(t is not None and t.done.wait(WAIT) for t in tickets)
    assert engine.wait_idle(WAIT)
    engine.shutdown(1.0)


def _rotate(engine: PointerEngine, sessions: int, rounds: int) -> int:
    """Sessions taking turns in order: take the waiting result, then submit the next search."""
    owner, search, hits = Owner(), FakeSearch(), 0
    for turn in range(rounds):
        for i in range(sessions):
            key = StoreKey("/h", "c", f"s{i}")
            hits += bool(engine.take(key, 3)) if turn else 0
            engine.submit(key, "q", 3, search, owner=owner)
        assert engine.wait_idle(WAIT)
    return hits


def test_more_sessions_than_room_degrades_gracefully() -> None:
    """The cliff: 5 sessions in rotation through room for 4 got 0 hits under LRU eviction."""
    engine = PointerEngine(max_sessions=4)
    hits = _rotate(engine, sessions=5, rounds=4)
    assert hits == 4 * 3  # the four that hold a place keep their results; one waits
    assert engine.refused == 5 * 4 - 4 * 4
    engine.shutdown(1.0)
    roomy = PointerEngine(max_sessions=8)
    assert _rotate(roomy, sessions=5, rounds=4) == 5 * 3
    roomy.shutdown(1.0)


def test_a_taken_slot_makes_room_and_abandoned_results_expire() -> None:
    now = [0.0]
    engine = PointerEngine(max_sessions=2, ttl_s=60.0, clock=lambda: now[0])
    owner = Owner()
    first, second, third = (StoreKey("/h", "c", name) for name in ("one", "two", "three"))
    for key in (first, second):
        assert run(engine, key, FakeSearch(), owner).done.wait(WAIT)
    assert engine.submit(third, "q", 3, FakeSearch(), owner=owner) is None  # both wait
    assert engine.take(first, 3) != ""  # "one" took its result: its place is spare
    assert run(engine, third, FakeSearch(), owner).done.wait(WAIT)
    assert engine.take(third, 3) != ""
    now[0] += 61.0  # "two" never came back for its result
    assert engine.take(second, 3) == ""
    assert engine.expired == 2 and engine.sessions == 0
