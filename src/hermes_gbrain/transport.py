"""One hardened HTTP client for every request this package sends.

Every request goes through ``Transport.post`` so a reader can check the rules in one
place (``reference/http-client.md`` in the design notes has the measurements):

* no proxies from the environment (``trust_env=False``) and no redirects: a 3xx fails
  before its body is read, and nothing is re-sent anywhere;
* ``Accept-Encoding: identity``, and a compressed answer is refused unread, because
  httpx inflates gzip with no output limit;
* a byte cap per request: a declared Content-Length over the cap is refused before
  reading, otherwise at most cap+1 bytes are read;
* a wall-clock deadline that also bounds a server dripping one byte at a time, in the
  body *and* in the status line and headers. httpx timeouts are per socket operation,
  so each socket operation here gets at most the time left before the deadline;
* one shared pool, guarded by slots no more numerous than the pool (httpcore#1110),
  budgeted per *share*: a request names its share (the credential), and each
  (origin, share) pair holds at most ``per_share`` slots of the process-wide
  ``max_connections``. A brain that hangs or drips fills only its own share; other
  profiles keep sending (the bulkhead of ``docs/reliability.md``).
"""

from __future__ import annotations

import ssl
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

import httpcore
import httpx

from .errors import (
    DeadlineError,
    GBrainError,
    RedirectError,
    RefusedError,
    TooLargeError,
    TransportError,
)

__all__ = [
    "DEFAULT_MAX_CONNECTIONS",
    "DEFAULT_MAX_REQUEST_BYTES",
    "DEFAULT_PER_SHARE",
    "Bulkhead",
    "Response",
    "Transport",
    "UntilFactory",
    "call_deadline",
    "deadline_left",
    "shared_transport",
]

DEFAULT_MAX_CONNECTIONS = 16
"""Connections the whole process may hold at once, whatever the number of profiles."""
DEFAULT_PER_SHARE = 4
"""Connections one (origin, credential) may hold at once: a hung brain's whole budget."""
DEFAULT_MAX_REQUEST_BYTES = 1_048_576
DRAIN_GRACE_S = 0.25
"""After the awaited reply, how long to wait for the stream's end before cutting it."""
_IDENTITY = frozenset({"", "identity"})

_deadline = threading.local()
_outer = threading.local()
"""The enclosing call's deadline (``call_deadline``): (monotonic end, seconds)."""


@contextmanager
def call_deadline(seconds: float, *, fresh: bool = False) -> Iterator[None]:
    """Bound every request this thread sends inside the block by one shared deadline.

    A tool call may mint a token, send, re-mint after a 401 and send again; each
    request has its own deadline, and this one caps their sum. Nested blocks keep
    the earlier end, unless ``fresh`` (a new bound after waiting on a person, whose
    time is not the server's).
    """
    previous: tuple[float, float] | None = getattr(_outer, "at", None)
    end = time.monotonic() + seconds
    if fresh or previous is None or end < previous[0]:
        _outer.at = (end, seconds)
    try:
        yield
    finally:
        _outer.at = previous


def deadline_left(default: float) -> float:
    """Seconds left of the enclosing ``call_deadline`` (``default`` outside any), never < 0."""
    outer: tuple[float, float] | None = getattr(_outer, "at", None)
    if outer is None:
        return default
    return max(0.0, min(default, outer[0] - time.monotonic()))


def _header_ok(value: str) -> bool:
    """Printable ASCII only: anything else fails to encode, or splits the header."""
    return value.isascii() and value.isprintable()


class Bulkhead:
    """Slots per key under a process-wide ceiling; a full key never blocks another.

    Waiters for a key at its limit wait on that key alone; every other key may take a
    slot while the ceiling has room. Keys with nothing held or awaited are forgotten,
    so the table never grows past the keys in use.
    """

    def __init__(self, *, per_key: int, ceiling: int) -> None:
        if per_key < 1 or ceiling < 1:
            raise ValueError("bulkhead limits must be at least 1")
        self.per_key = min(per_key, ceiling)
        self.ceiling = ceiling
        self._cond = threading.Condition(threading.Lock())
        self._held: dict[object, int] = {}
        self._total = 0
        self.peak = 0

    def __repr__(self) -> str:
        return f"Bulkhead(held={self._total}/{self.ceiling}, keys={len(self._held)})"

    def held(self, key: object) -> int:
        """Slots ``key`` holds now (tests, benchmarks)."""
        with self._cond:
            return self._held.get(key, 0)

    @property
    def total(self) -> int:
        return self._total

    def _free(self, key: object) -> bool:
        return self._total < self.ceiling and self._held.get(key, 0) < self.per_key

    def acquire(self, key: object, timeout: float | None = None) -> bool:
        """Take a slot for ``key``; False when none came free within ``timeout``."""
        with self._cond:
            if not self._cond.wait_for(lambda: self._free(key), timeout):
                return False
            self._held[key] = self._held.get(key, 0) + 1
            self._total += 1
            self.peak = max(self.peak, self._total)
            return True

    def try_acquire(self, key: object) -> bool:
        """Take a slot for ``key`` only if one is free now."""
        return self.acquire(key, 0)

    def release(self, key: object) -> None:
        with self._cond:
            count = self._held.get(key, 0)
            if count <= 0:
                raise ValueError("bulkhead released more often than acquired")
            if count == 1:
                del self._held[key]
            else:
                self._held[key] = count - 1
            self._total -= 1
            self._cond.notify_all()


@lru_cache(maxsize=256)
def _origin(url: str) -> str:
    """Scheme, host and port: the server a request goes to (its bulkhead's first half)."""
    try:
        parts = urlsplit(url)
        return f"{parts.scheme.lower()}://{(parts.hostname or '').lower()}:{parts.port or ''}"
    except ValueError:
        return url


UntilFactory = Callable[[int, str], Callable[[bytes], bool] | None]
"""Given (status, media type), a chunk callback that says when reading may stop."""


def _time_left(exc: type[Exception], timeout: float | None) -> float | None:
    """The socket timeout to use now: the smaller of httpx's and the deadline's."""
    deadline: float | None = getattr(_deadline, "at", None)
    if deadline is None:
        return timeout
    left = deadline - time.monotonic()
    if left <= 0:
        raise exc("request deadline passed")
    return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    """A socket stream whose every read and write ends by the request's deadline."""

    def __init__(self, inner: httpcore.NetworkStream) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _time_left(httpcore.ReadTimeout, timeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, _time_left(httpcore.WriteTimeout, timeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        inner = self._inner.start_tls(
            ssl_context, server_hostname, _time_left(httpcore.ConnectTimeout, timeout)
        )
        return _DeadlineStream(inner)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _DeadlineBackend(httpcore.NetworkBackend):
    """Wraps httpcore's sync backend so connects and streams obey the deadline."""

    def __init__(self) -> None:
        self._inner = httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        stream = self._inner.connect_tcp(
            host,
            port,
            _time_left(httpcore.ConnectTimeout, timeout),
            local_address,
            socket_options,
        )
        return _DeadlineStream(stream)

    def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:  # pragma: no cover - we never dial unix sockets
        raise httpcore.ConnectError("unix sockets are not used")

    def sleep(self, seconds: float) -> None:  # pragma: no cover - retries are off
        self._inner.sleep(seconds)


_ssl_lock = threading.Lock()
_ssl_default: ssl.SSLContext | None = None


def _default_ssl_context() -> ssl.SSLContext:
    """Build the certifi-backed context once: building it costs ~10 ms each time."""
    global _ssl_default  # noqa: PLW0603 - a process-wide cache by design
    with _ssl_lock:
        if _ssl_default is None:
            _ssl_default = httpx.create_ssl_context()
        return _ssl_default


def _http_transport(max_connections: int, ssl_context: ssl.SSLContext) -> httpx.HTTPTransport:
    transport = httpx.HTTPTransport(
        verify=ssl_context,
        trust_env=False,
        limits=httpx.Limits(
            max_connections=max_connections, max_keepalive_connections=max_connections
        ),
    )
    # httpx offers no public hook for httpcore's network backend; the pool it builds
    # is replaced by an identical one that uses the deadline-aware backend.
    transport._pool = httpcore.ConnectionPool(
        ssl_context=ssl_context,
        max_connections=max_connections,
        max_keepalive_connections=max_connections,
        keepalive_expiry=5.0,
        network_backend=_DeadlineBackend(),
    )
    return transport


@dataclass(frozen=True, slots=True)
class Response:
    """A fully read, size-checked response. The body is raw bytes, not yet decoded."""

    status: int
    headers: Mapping[str, str]
    """Lower-case names; repeated headers joined with ", "."""
    body: bytes
    content_type: str = ""
    """The media type, lower-case, without parameters."""

    def __repr__(self) -> str:
        return f"Response(status={self.status}, bytes={len(self.body)})"


class Transport:
    """A thread-safe POST client: capped, deadlined, never redirected, never proxied.

    ``transport`` replaces the network for unit tests (``httpx.MockTransport``).
    At most ``max_connections`` requests are in flight, ``per_share`` of them for one
    (origin, share) pair.
    """

    def __init__(
        self,
        *,
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
        per_share: int = DEFAULT_PER_SHARE,
        ssl_context: ssl.SSLContext | None = None,
        transport: httpx.BaseTransport | None = None,
        max_request_bytes: int = DEFAULT_MAX_REQUEST_BYTES,
        user_agent: str = "hermes-gbrain",
    ) -> None:
        if max_connections < 1:
            raise ValueError("max_connections must be at least 1")
        self._max_request_bytes = max_request_bytes
        self.slots = Bulkhead(per_key=per_share, ceiling=max_connections)
        if transport is None:
            transport = _http_transport(max_connections, ssl_context or _default_ssl_context())
        self._client = httpx.Client(
            transport=transport,
            trust_env=False,
            follow_redirects=False,
            headers={"Accept-Encoding": "identity", "User-Agent": user_agent},
        )
        self._closed = False

    def __repr__(self) -> str:
        return f"Transport(closed={self._closed})"

    def close(self) -> None:
        """Close the pool; later calls fail with ``TransportError``."""
        self._closed = True
        self._client.close()

    def post(
        self,
        url: str,
        *,
        content: bytes,
        headers: Mapping[str, str],
        cap: int,
        deadline_s: float,
        until: UntilFactory | None = None,
        share: str = "",
    ) -> Response:
        """POST ``content`` and return the capped body, or raise a ``GBrainError``.

        ``share`` names whose budget the request uses (a credential's key, never the
        secret): requests of one share to one origin wait only for each other, and for
        the process-wide ceiling.

        ``until``, given the status and media type, may return a callback that sees
        each chunk as it arrives and returns True once the caller has what it needs
        (an SSE reply whose id matched), so a stream left open is not waited on.
        """
        if self._closed:
            raise TransportError("client closed")
        if len(content) > self._max_request_bytes:
            raise RefusedError(
                f"request body of {len(content)} bytes is over the "
                f"{self._max_request_bytes}-byte limit"
            )
        for name, value in headers.items():
            if not _header_ok(value):
                raise RefusedError(f"the {name} header value is not printable ASCII")
        started = time.monotonic()
        deadline = started + deadline_s
        outer: tuple[float, float] | None = getattr(_outer, "at", None)
        if outer is not None and outer[0] < deadline:
            deadline, deadline_s = outer
            if deadline <= started:
                raise DeadlineError(deadline_s)
        bulkhead = (_origin(url), share)
        if not self.slots.acquire(bulkhead, timeout=deadline - started):
            raise DeadlineError(deadline_s)
        previous = getattr(_deadline, "at", None)
        _deadline.at = deadline
        try:
            return self._send(
                url, content, headers, cap=cap, deadline=deadline, budget_s=deadline_s, until=until
            )
        except httpx.TimeoutException:
            raise DeadlineError(deadline_s) from None
        except httpx.TransportError as exc:
            if time.monotonic() >= deadline:
                raise DeadlineError(deadline_s) from None
            raise TransportError(type(exc).__name__) from None
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            raise TransportError(type(exc).__name__) from None
        except GBrainError:
            raise
        except Exception as exc:  # an odd header or URL httpx could not encode, …
            raise TransportError(type(exc).__name__) from None
        finally:
            _deadline.at = previous
            self.slots.release(bulkhead)

    def _send(
        self,
        url: str,
        content: bytes,
        headers: Mapping[str, str],
        *,
        cap: int,
        deadline: float,
        budget_s: float,
        until: UntilFactory | None,
    ) -> Response:
        timeout = httpx.Timeout(max(deadline - time.monotonic(), 0.001))
        with self._client.stream(
            "POST", url, content=content, headers=headers, timeout=timeout
        ) as response:
            status = response.status_code
            if 300 <= status < 400:
                raise RedirectError(status)
            # One pass over the raw headers: httpx's per-lookup cost adds up on a hot path.
            heads: dict[str, str] = {}
            for raw_name, raw_value in response.headers.raw:
                name = raw_name.decode("latin-1").lower()
                value = raw_value.decode("latin-1")
                heads[name] = f"{heads[name]}, {value}" if name in heads else value
            encoding = heads.get("content-encoding", "").strip().lower()
            if encoding not in _IDENTITY:
                raise RefusedError("response is compressed; only identity encoding is accepted")
            declared = heads.get("content-length")
            if declared is not None:
                try:
                    size = int(declared)
                except ValueError:
                    size = -1
                if size > cap:
                    raise TooLargeError(cap, declared=size)
            media = heads.get("content-type", "").split(";", 1)[0].strip().lower()
            watch = until(status, media) if until is not None else None
            body = bytearray()
            # No chunk_size: httpx would hold bytes back until a whole chunk arrived, so
            # ``until`` could not stop on a short reply left open. Network reads are at
            # most 64 KiB each, so the unkept part of one read is bounded anyway.
            done_at: float | None = None
            chunks = response.iter_bytes()
            while True:
                try:
                    chunk = next(chunks)
                except StopIteration:
                    break
                except httpx.TimeoutException:
                    if done_at is not None:
                        break  # the reply is in hand; the server merely kept the stream open
                    raise
                now = time.monotonic()
                if done_at is not None:
                    # Past the awaited reply: nothing more is kept, only the end is awaited.
                    if now >= done_at + DRAIN_GRACE_S:
                        break
                    continue
                if now >= deadline:
                    raise DeadlineError(budget_s)
                body += chunk[: cap + 1 - len(body)]
                if len(body) > cap:
                    raise TooLargeError(cap)
                if watch is not None and watch(chunk):
                    # Read on briefly so a stream that ends now (as GBrain's does) leaves
                    # the connection reusable; one left open is cut after the grace.
                    done_at = now
                    _deadline.at = min(deadline, now + DRAIN_GRACE_S)
            if done_at is None and time.monotonic() >= deadline:
                raise DeadlineError(budget_s)
            return Response(status=status, headers=heads, body=bytes(body), content_type=media)


_shared_lock = threading.Lock()
_shared: Transport | None = None


def shared_transport() -> Transport:
    """The process-wide transport: one pool, reused by every profile and thread."""
    global _shared  # noqa: PLW0603 - one pool per process is the point
    with _shared_lock:
        if _shared is None or _shared._closed:
            _shared = Transport()
        return _shared
