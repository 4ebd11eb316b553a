"""The hardened transport: every rule in ``transport.py``'s docstring, proven.

MockTransport tests pin the policy (redirects, encodings, caps, error mapping) without a
network; real-socket tests against ``support.slow_server`` prove the parts only a socket
can show: dripping servers cut off at the deadline, gzip bombs refused unread, one TCP
connection reused, and the pool race (httpcore#1110) kept away by the semaphore.
"""

from __future__ import annotations

import gzip
import socket
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator

import httpx
import pytest

from hermes_gbrain import transport as transport_module
from hermes_gbrain.errors import (
    DeadlineError,
    GBrainError,
    RedirectError,
    RefusedError,
    TooLargeError,
    TransportError,
)
from hermes_gbrain.transport import Response, Transport, UntilFactory, shared_transport
from support.slow_server import Request, drip, keep_alive_ok, slow_server

URL = "http://127.0.0.1:9/mcp"
SLACK_S = 1.0

Handler = Callable[[httpx.Request], httpx.Response]


class Recorder:
    """Wraps a handler: counts calls and keeps the requests it saw."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        request.read()
        self.requests.append(request)
        return self.handler(request)

    @property
    def calls(self) -> int:
        return len(self.requests)


class Pulls:
    """A response body generator that counts how many chunks were pulled from it."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks
        self.pulled = 0

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self.chunks:
            self.pulled += 1
            yield chunk


def mock(
    handler: Handler, *, max_connections: int = 4, max_request_bytes: int = 1_048_576
) -> tuple[Transport, Recorder]:
    recorder = Recorder(handler)
    transport = Transport(
        transport=httpx.MockTransport(recorder),
        max_connections=max_connections,
        max_request_bytes=max_request_bytes,
    )
    return transport, recorder


def post(
    t: Transport, *, cap: int = 1024, deadline_s: float = 2.0, until: UntilFactory | None = None
) -> Response:
    return t.post(URL, content=b"{}", headers={}, cap=cap, deadline_s=deadline_s, until=until)


# --- policy, with MockTransport ---------------------------------------------------------


def test_plain_200_returns_body_status_and_content_type() -> None:
    t, rec = mock(
        lambda r: httpx.Response(
            200, content=b"hello", headers={"Content-Type": "Text/Plain; charset=utf-8"}
        )
    )
    response = post(t)
    assert (response.status, response.body, response.content_type) == (200, b"hello", "text/plain")
    assert repr(response) == "Response(status=200, bytes=5)"
    assert rec.calls == 1


def test_client_headers_ask_for_identity_and_name_the_agent() -> None:
    """Compression is declined up front; caller headers are sent as given."""
    t, rec = mock(lambda r: httpx.Response(200))
    t.post(URL, content=b"abc", headers={"X-Test": "1"}, cap=10, deadline_s=1.0)
    sent = rec.requests[0]
    assert sent.headers["accept-encoding"] == "identity"
    assert sent.headers["user-agent"] == "hermes-gbrain"
    assert sent.headers["x-test"] == "1"
    assert sent.method == "POST"
    assert sent.content == b"abc"


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_redirect_is_refused_unread_and_not_followed(status: int) -> None:
    """A 3xx must never re-send the body (a token request carries the secret) anywhere."""
    body = Pulls([b"moved"])
    t, rec = mock(
        lambda r: httpx.Response(
            status, headers={"Location": "http://evil.example/x"}, content=body
        )
    )
    with pytest.raises(RedirectError) as info:
        post(t)
    assert info.value.status == status
    assert isinstance(info.value, RefusedError)
    assert rec.calls == 1
    assert body.pulled == 0


@pytest.mark.parametrize("encoding", ["gzip", "br", "deflate", "zstd", "GZIP", "gzip, identity"])
def test_compressed_response_is_refused_unread(encoding: str) -> None:
    body = Pulls([gzip.compress(b"x" * 1000)])
    t, _ = mock(lambda r: httpx.Response(200, headers={"Content-Encoding": encoding}, content=body))
    with pytest.raises(RefusedError, match="compressed"):
        post(t)
    assert body.pulled == 0


@pytest.mark.parametrize("encoding", ["identity", " Identity ", ""])
def test_identity_encoding_is_accepted(encoding: str) -> None:
    t, _ = mock(
        lambda r: httpx.Response(200, headers={"Content-Encoding": encoding}, content=b"ok")
    )
    assert post(t).body == b"ok"


def test_declared_content_length_over_cap_is_refused_before_reading() -> None:
    body = Pulls([b"x"])
    t, _ = mock(lambda r: httpx.Response(200, headers={"Content-Length": "100000"}, content=body))
    with pytest.raises(TooLargeError) as info:
        post(t, cap=1000)
    assert (info.value.cap, info.value.declared) == (1000, 100_000)
    assert body.pulled == 0


def test_body_exactly_at_cap_passes() -> None:
    t, _ = mock(lambda r: httpx.Response(200, content=b"x" * 100))
    assert len(post(t, cap=100).body) == 100


def test_body_one_over_cap_fails() -> None:
    t, _ = mock(lambda r: httpx.Response(200, content=b"x" * 101))
    with pytest.raises(TooLargeError) as info:
        post(t, cap=100)
    assert info.value.declared == 101


@pytest.mark.parametrize(("size", "ok"), [(100, True), (101, False)])
def test_chunked_body_is_capped_at_cap_plus_one(size: int, ok: bool) -> None:
    """No Content-Length: the +1-byte read detects overflow, whatever the chunking."""
    chunks = [b"y" * 7] * (size // 7) + [b"y" * (size % 7)]
    body = Pulls(chunks)
    t, _ = mock(lambda r: httpx.Response(200, content=body))
    if ok:
        assert post(t, cap=100).body == b"y" * 100
    else:
        with pytest.raises(TooLargeError) as info:
            post(t, cap=100)
        assert info.value.declared is None


def test_chunked_overflow_stops_pulling_the_stream() -> None:
    """An endless body is cut off after cap+1 bytes, not read to the end."""

    def endless() -> Iterator[bytes]:
        while True:
            yield b"z" * 1000

    t, _ = mock(lambda r: httpx.Response(200, content=endless()))
    with pytest.raises(TooLargeError):
        post(t, cap=5000)


def test_request_body_over_limit_is_refused_and_not_sent() -> None:
    t, rec = mock(lambda r: httpx.Response(200), max_request_bytes=10)
    with pytest.raises(RefusedError, match="request body of 11 bytes"):
        t.post(URL, content=b"x" * 11, headers={}, cap=10, deadline_s=1.0)
    assert rec.calls == 0
    t.post(URL, content=b"x" * 10, headers={}, cap=10, deadline_s=1.0)
    assert rec.calls == 1


@pytest.mark.parametrize(
    "exc",
    [
        httpx.ConnectError("refused"),
        httpx.ReadError("reset"),
        httpx.RemoteProtocolError("bad framing"),
        httpx.UnsupportedProtocol("ftp"),
    ],
)
def test_network_failures_become_transport_error_with_class_name(exc: Exception) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise exc

    t, _ = mock(handler)
    with pytest.raises(TransportError) as info:
        post(t)
    assert info.value.kind == type(exc).__name__
    assert info.value.__cause__ is None  # the httpx exception (and its request) is not chained


@pytest.mark.parametrize(
    "exc", [httpx.ConnectTimeout("t"), httpx.ReadTimeout("t"), httpx.PoolTimeout("t")]
)
def test_httpx_timeouts_become_deadline_error(exc: Exception) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise exc

    t, _ = mock(handler)
    with pytest.raises(DeadlineError) as info:
        post(t, deadline_s=1.5)
    assert info.value.seconds == 1.5


class FakeClock:
    """Stands in for the transport's ``time`` module so a test can jump past a deadline."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_network_error_after_the_deadline_is_reported_as_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A reset that ends a stalled read past the deadline is the deadline's doing."""
    clock = FakeClock()
    monkeypatch.setattr(transport_module, "time", clock)

    def handler(request: httpx.Request) -> httpx.Response:
        clock.now += 10
        raise httpx.ReadError("reset")

    t, _ = mock(handler)
    with pytest.raises(DeadlineError):
        post(t, deadline_s=1.0)


def test_body_finishing_after_the_deadline_is_a_deadline_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = FakeClock()
    monkeypatch.setattr(transport_module, "time", clock)

    def slow_body() -> Iterator[bytes]:
        yield b"a"
        clock.now += 10
        yield b"b"

    t, _ = mock(lambda r: httpx.Response(200, content=slow_body()))
    with pytest.raises(DeadlineError):
        post(t, deadline_s=1.0)


def test_until_stops_reading_an_open_stream_after_a_short_grace(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Once the caller has its reply, a stream that never ends is read only for a short
    grace (so one that does end leaves its connection reusable), then cut."""
    clock = FakeClock()
    monkeypatch.setattr(transport_module, "time", clock)
    pulled: list[bytes] = []

    def stream() -> Iterator[bytes]:
        for chunk in (b"first", b"second"):
            pulled.append(chunk)
            yield chunk
        while True:
            if len(pulled) > 50:
                raise AssertionError("read far past the grace after until said stop")
            clock.now += 0.1
            pulled.append(b"more")
            yield b"more"

    seen: list[tuple[int, str]] = []

    def until(status: int, media: str) -> Callable[[bytes], bool]:
        seen.append((status, media))
        return lambda chunk: chunk == b"second"

    t, _ = mock(
        lambda r: httpx.Response(
            200, headers={"Content-Type": "text/event-stream; charset=utf-8"}, content=stream()
        )
    )
    response = post(t, until=until)
    assert response.body == b"firstsecond"
    assert seen == [(200, "text/event-stream")]
    assert pulled[:2] == [b"first", b"second"]
    assert len(pulled) <= 2 + round(transport_module.DRAIN_GRACE_S / 0.1) + 1


def test_until_returning_none_reads_the_whole_body() -> None:
    t, _ = mock(lambda r: httpx.Response(401, content=Pulls([b"a", b"b", b"c"])))
    response = post(t, until=lambda status, media: None)
    assert (response.status, response.body) == (401, b"abc")


def test_closed_client_refuses_to_send() -> None:
    t, rec = mock(lambda r: httpx.Response(200))
    t.close()
    with pytest.raises(TransportError, match="client closed"):
        post(t)
    assert rec.calls == 0
    assert repr(t) == "Transport(closed=True)"


def test_max_connections_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        Transport(max_connections=0, transport=httpx.MockTransport(lambda r: httpx.Response(200)))


def test_waiting_for_a_pool_slot_counts_against_the_deadline() -> None:
    """With every slot busy, a caller gives up at its deadline instead of queueing forever."""
    entered = threading.Event()
    release = threading.Event()

    def handler(request: httpx.Request) -> httpx.Response:
        entered.set()
        release.wait(10)
        return httpx.Response(200)

    t, _ = mock(handler, max_connections=1)
    holder = threading.Thread(target=post, args=(t,), kwargs={"deadline_s": 10.0})
    holder.start()
    try:
        assert entered.wait(5)
        started = time.monotonic()
        with pytest.raises(DeadlineError):
            post(t, deadline_s=0.3)
        elapsed = time.monotonic() - started
        assert 0.25 <= elapsed < 0.3 + SLACK_S
    finally:
        release.set()
        holder.join(5)
    assert post(t).status == 200  # the slot was given back


def test_shared_transport_is_one_instance_until_closed() -> None:
    first = shared_transport()
    assert shared_transport() is first
    first.close()
    second = shared_transport()
    assert second is not first
    assert shared_transport() is second


def test_every_failure_is_a_gbrain_error() -> None:
    """The provider fails open on GBrainError: nothing else may escape ``post``."""
    for error in (RedirectError, RefusedError, TooLargeError, TransportError, DeadlineError):
        assert issubclass(error, GBrainError)


# --- real sockets ------------------------------------------------------------------------


@pytest.fixture
def real() -> Iterator[Transport]:
    t = Transport(max_connections=4)
    yield t
    t.close()


def _head(extra: bytes = b"", length: int | None = None) -> bytes:
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + extra
    if length is not None:
        head += b"Content-Length: " + str(length).encode() + b"\r\n"
    return head + b"\r\n"


def _timed(fn: Callable[[], object]) -> tuple[BaseException | None, float]:
    started = time.monotonic()
    try:
        fn()
    except BaseException as exc:
        return exc, time.monotonic() - started
    return None, time.monotonic() - started


def test_body_drip_is_cut_off_at_the_deadline(real: Transport) -> None:
    """1 byte every 50 ms never trips a per-read timeout; the wall-clock deadline does."""

    def script(sock: socket.socket, request: Request, stop: threading.Event) -> bool:
        sock.sendall(_head(length=1000))
        drip(sock, b"x" * 1000, 0.05, stop)
        return False

    with slow_server(script) as server:
        exc, elapsed = _timed(
            lambda: real.post(
                server.url + "/mcp", content=b"{}", headers={}, cap=10_000, deadline_s=0.5
            )
        )
    assert isinstance(exc, DeadlineError), exc
    assert 0.45 <= elapsed < 0.5 + SLACK_S


def test_header_drip_is_cut_off_at_the_deadline(real: Transport) -> None:
    """The status line and headers dripped: httpx timeouts alone would wait for all of them."""
    head = _head(b"X-Pad: " + b"p" * 200 + b"\r\n", length=2) + b"ok"

    def script(sock: socket.socket, request: Request, stop: threading.Event) -> bool:
        drip(sock, head, 0.05, stop)
        return False

    with slow_server(script) as server:
        exc, elapsed = _timed(
            lambda: real.post(
                server.url + "/mcp", content=b"{}", headers={}, cap=10_000, deadline_s=0.5
            )
        )
    assert isinstance(exc, DeadlineError), exc
    assert 0.45 <= elapsed < 0.5 + SLACK_S


def test_gzip_bomb_is_refused_without_inflating(real: Transport) -> None:
    """64 MiB of zeros gzipped to ~64 KiB: refused on the header, memory stays small."""
    bomb = gzip.compress(b"\0" * (64 * 1024 * 1024), compresslevel=9)

    def script(sock: socket.socket, request: Request, stop: threading.Event) -> bool:
        sock.sendall(_head(b"Content-Encoding: gzip\r\n", length=len(bomb)) + bomb)
        return False

    with slow_server(script) as server:
        tracemalloc.start()
        try:
            with pytest.raises(RefusedError, match="compressed"):
                real.post(
                    server.url + "/mcp",
                    content=b"{}",
                    headers={},
                    cap=len(bomb) * 2,
                    deadline_s=5.0,
                )
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert peak < 8 * 1024 * 1024


def test_declared_huge_body_then_stall_is_refused_at_once(real: Transport) -> None:
    def script(sock: socket.socket, request: Request, stop: threading.Event) -> bool:
        sock.sendall(_head(length=100_000_000) + b"x" * 10)
        stop.wait(20)
        return False

    with slow_server(script) as server:
        exc, elapsed = _timed(
            lambda: real.post(
                server.url + "/mcp", content=b"{}", headers={}, cap=262_144, deadline_s=5.0
            )
        )
    assert isinstance(exc, TooLargeError), exc
    assert elapsed < 5.0  # before the deadline: it did not wait for the rest of the body


def test_until_returns_while_the_server_keeps_the_stream_open(real: Transport) -> None:
    """An SSE reply left open must not be waited on once the reply has arrived."""
    event = b"event: message\ndata: {}\n\n"

    def script(sock: socket.socket, request: Request, stop: threading.Event) -> bool:
        sock.sendall(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n" + f"{len(event):x}\r\n".encode() + event + b"\r\n"
        )
        stop.wait(20)
        return False

    with slow_server(script) as server:
        exc, elapsed = _timed(
            lambda: real.post(
                server.url + "/mcp",
                content=b"{}",
                headers={},
                cap=10_000,
                deadline_s=5.0,
                until=lambda status, media: lambda chunk: b"\n\n" in chunk,
            )
        )
    assert exc is None, exc
    assert elapsed < 5.0  # before the deadline: it did not wait for the stream to close


def test_sequential_posts_reuse_one_connection(real: Transport) -> None:
    with slow_server(keep_alive_ok) as server:
        for i in range(20):
            response = real.post(
                server.url + "/mcp", content=b'{"n":%d}' % i, headers={}, cap=100, deadline_s=2.0
            )
            assert response.body == b'{"ok":true}'
        assert server.accepted == 1
        assert len(server.requests) == 20


def test_many_threads_share_a_small_pool_without_errors() -> None:
    """16 threads x 25 posts x 3 rounds on 4 connections: the httpcore#1110 race must not
    appear. Without the semaphore the pool churns connections and sometimes hands one
    out that another thread is closing (``ReadError: Bad file descriptor``)."""
    t = Transport(max_connections=4)
    errors: list[BaseException] = []
    ok = [0]
    lock = threading.Lock()

    def worker(url: str, go: threading.Event) -> None:
        go.wait(5)
        for _ in range(25):
            try:
                t.post(url, content=b"{}", headers={}, cap=100, deadline_s=5.0)
            except BaseException as exc:
                with lock:
                    errors.append(exc)
            else:
                with lock:
                    ok[0] += 1

    try:
        with slow_server(keep_alive_ok, max_connections=64) as server:
            for _ in range(3):
                go = threading.Event()
                threads = [
                    threading.Thread(target=worker, args=(server.url + "/mcp", go))
                    for _ in range(16)
                ]
                for thread in threads:
                    thread.start()
                go.set()
                for thread in threads:
                    thread.join(20)
            accepted = server.accepted
    finally:
        t.close()
    assert errors == []
    assert ok[0] == 1200
    assert accepted <= 4  # the pool never opened more than its size, nor churned


def test_proxy_environment_is_ignored(real: Transport, monkeypatch: pytest.MonkeyPatch) -> None:
    """Proxy variables would send traffic (and tokens) elsewhere; they must have no effect."""
    with slow_server(keep_alive_ok) as proxy, slow_server(keep_alive_ok) as server:
        for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "all_proxy"):
            monkeypatch.setenv(name, proxy.url)
        monkeypatch.delenv("NO_PROXY", raising=False)
        monkeypatch.delenv("no_proxy", raising=False)
        fresh = Transport()
        try:
            for t in (real, fresh):
                t.post(server.url + "/mcp", content=b"{}", headers={}, cap=100, deadline_s=2.0)
        finally:
            fresh.close()
        assert proxy.accepted == 0
        assert len(server.requests) == 2


def test_connection_refused_is_a_transport_error(real: Transport) -> None:
    with socket.create_server(("127.0.0.1", 0)) as placeholder:
        port = placeholder.getsockname()[1]
    exc, elapsed = _timed(
        lambda: real.post(
            f"http://127.0.0.1:{port}/mcp", content=b"{}", headers={}, cap=100, deadline_s=30.0
        )
    )
    assert isinstance(exc, TransportError), exc
    assert exc.kind == "ConnectError"
    assert elapsed < 30.0  # a refusal ends the call: it is not retried until the deadline
