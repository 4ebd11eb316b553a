"""Bulkheads: a share (origin, credential) that hangs holds only its own slots.

The transport's connection slots are budgeted per (origin, share) under a process-wide
ceiling; these tests hold one share's requests open on an event and show that another
share (another credential, or another server) still sends at once, that the hung share
waits only for itself, and that the ceiling still bounds the whole process.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import httpx
import pytest

from hermes_gbrain.auth import ClientCredentials, StaticToken, share_key_of
from hermes_gbrain.errors import DeadlineError
from hermes_gbrain.transport import Bulkhead, Transport

SLOW = "http://slow.test:1/mcp"
FAST = "http://fast.test:1/mcp"


class Held:
    """A MockTransport handler that holds requests to ``slow.test`` until released."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.entered = threading.Semaphore(0)
        self.lock = threading.Lock()
        self.in_slow = 0

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if request.url.host == "slow.test" or request.headers.get("x-share") == "slow":
            with self.lock:
                self.in_slow += 1
            self.entered.release()
            self.release.wait(10)
        return httpx.Response(200, content=b"ok")


@pytest.fixture
def held() -> Iterator[tuple[Transport, Held]]:
    handler = Held()
    t = Transport(transport=httpx.MockTransport(handler), max_connections=6, per_share=2)
    yield t, handler
    handler.release.set()
    t.close()


def _send(t: Transport, url: str, share: str, deadline_s: float = 5.0, hold: bool = False) -> int:
    headers = {"X-Share": "slow"} if hold else {}
    return t.post(
        url, content=b"{}", headers=headers, cap=64, deadline_s=deadline_s, share=share
    ).status


def _hold(t: Transport, handler: Held, url: str, share: str, count: int) -> list[threading.Thread]:
    threads = [
        threading.Thread(target=_send, args=(t, url, share), kwargs={"hold": True})
        for _ in range(count)
    ]
    for thread in threads:
        thread.start()
    for _ in range(count):
        assert handler.entered.acquire(timeout=5)
    return threads


def test_a_hung_share_leaves_other_shares_their_slots(held: tuple[Transport, Held]) -> None:
    t, handler = held
    threads = _hold(t, handler, SLOW, "a", 2)
    try:
        assert t.slots.held(("http://slow.test:1", "a")) == 2
        # Same hung server, another credential: its own share, sent at once.
        assert _send(t, FAST, "b") == 200
        # The hung share's third request waits for its own share only, and gives up
        # at its deadline (nothing queued behind the hung brain but its own work).
        with pytest.raises(DeadlineError):
            _send(t, SLOW, "a", deadline_s=0.2)
        assert handler.in_slow == 2
    finally:
        handler.release.set()
        for thread in threads:
            thread.join(5)
    assert t.slots.total == 0
    assert _send(t, SLOW, "a") == 200  # the slots came back


def test_the_ceiling_bounds_every_share_together(held: tuple[Transport, Held]) -> None:
    t, handler = held
    threads = [*_hold(t, handler, SLOW, "a", 2), *_hold(t, handler, SLOW, "b", 2)]
    threads += _hold(t, handler, FAST, "c", 2)
    try:
        assert t.slots.total == 6 == t.slots.ceiling
        with pytest.raises(DeadlineError):
            _send(t, FAST, "d", deadline_s=0.2)
    finally:
        handler.release.set()
        for thread in threads:
            thread.join(5)
    assert t.slots.peak == 6
    assert _send(t, FAST, "d") == 200


def test_bulkhead_forgets_idle_keys_and_refuses_extra_releases() -> None:
    bulkhead = Bulkhead(per_key=2, ceiling=3)
    assert bulkhead.try_acquire("a") and bulkhead.try_acquire("a")
    assert not bulkhead.try_acquire("a")
    assert bulkhead.try_acquire("b")
    assert not bulkhead.try_acquire("c")  # the ceiling
    for key in ("a", "a", "b"):
        bulkhead.release(key)
    assert bulkhead.total == 0 and "keys=0" in repr(bulkhead)
    with pytest.raises(ValueError):
        bulkhead.release("a")
    with pytest.raises(ValueError):
        Bulkhead(per_key=0, ceiling=1)


def test_share_keys_name_the_credential_not_the_profile_or_scope() -> None:
    """A profile's read and write clients share one budget; another secret has its own."""
    transport = Transport(transport=httpx.MockTransport(lambda r: httpx.Response(200)))

    def oauth(secret: str, scope: str, home: str) -> ClientCredentials:
        return ClientCredentials(
            token_url="http://b.test/token",
            client_id="id",
            client_secret=secret,
            transport=transport,
            scope=scope,
            namespace=home,
        )

    read, write = oauth("s1", "read", "/h1"), oauth("s1", "read write", "/h2")
    assert read.cache_key != write.cache_key
    assert share_key_of(read) == share_key_of(write)
    assert share_key_of(oauth("s2", "read", "/h1")) != share_key_of(read)
    static = StaticToken("tok", namespace="/h1")
    assert share_key_of(static) == share_key_of(StaticToken("tok", namespace="/h2"))
    assert "s1" not in share_key_of(read) and "tok" not in share_key_of(static)
    transport.close()
