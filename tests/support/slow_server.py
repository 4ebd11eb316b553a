"""A tiny loopback TCP server that misbehaves on purpose, for real-socket transport tests.

Each accepted connection reads one HTTP/1.1 request (headers and a Content-Length body)
and hands the socket to a *script*: a function that writes whatever bytes it likes,
as slowly as it likes. A script returns True to keep the connection open for another
request (keep-alive), False to close it. Misbehaviour that no library server offers
(dripping the status line, lying about Content-Length, gzip bombs) takes three lines.

The server is bounded (at most ``max_connections`` handler threads at once, a hard
lifetime after which it stops itself), sets ``TCP_NODELAY`` so small writes are not
held back by delayed ACKs, and every wait inside a script is ``stop.wait(...)`` so
stopping the server ends all drips at once.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass

__all__ = [
    "Request",
    "Script",
    "SlowServer",
    "drip",
    "keep_alive_ok",
    "slow_server",
]

_MAX_HEAD = 65_536
_MAX_BODY = 4_194_304


@dataclass(frozen=True)
class Request:
    """One request as the server received it (raw head, parsed path and headers, body)."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes


Script = Callable[[socket.socket, Request, threading.Event], bool]
"""Writes a response on the socket; returns True to keep the connection for another request."""


def drip(sock: socket.socket, data: bytes, interval: float, stop: threading.Event) -> bool:
    """Send ``data`` one byte every ``interval`` seconds; False once the peer or stop ends it."""
    for i in range(len(data)):
        if stop.wait(interval):
            return False
        try:
            sock.sendall(data[i : i + 1])
        except OSError:
            return False
    return True


def keep_alive_ok(sock: socket.socket, request: Request, stop: threading.Event) -> bool:
    """A plain, fast ``200`` with a small JSON body, connection kept open."""
    body = b'{"ok":true}'
    head = (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n"
    )
    sock.sendall(head + body)
    return True


class SlowServer:
    """A scripted loopback server; use as a context manager or through ``slow_server``."""

    def __init__(
        self, script: Script, *, max_connections: int = 32, lifetime_s: float = 30.0
    ) -> None:
        self.script = script
        self.stop_event = threading.Event()
        self._slots = threading.BoundedSemaphore(max_connections)
        self._lock = threading.Lock()
        self._accepted = 0
        self._requests: list[Request] = []
        self._threads: list[threading.Thread] = []
        self._conns: list[socket.socket] = []
        self._listener = socket.create_server(("127.0.0.1", 0), backlog=64)
        self._listener.settimeout(0.05)
        self.port: int = self._listener.getsockname()[1]
        self._lifetime = threading.Timer(lifetime_s, self.stop)
        self._lifetime.daemon = True
        self._acceptor = threading.Thread(target=self._accept_loop, daemon=True)

    @property
    def url(self) -> str:
        """Base URL, e.g. ``http://127.0.0.1:PORT``; append a path."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def accepted(self) -> int:
        """How many TCP connections were accepted so far."""
        with self._lock:
            return self._accepted

    @property
    def requests(self) -> list[Request]:
        """Every request received so far, in arrival order."""
        with self._lock:
            return list(self._requests)

    def start(self) -> SlowServer:
        self._acceptor.start()
        self._lifetime.start()
        return self

    def stop(self) -> None:
        """Ends every drip and connection; safe to call twice and from any thread."""
        self.stop_event.set()
        self._lifetime.cancel()
        if threading.current_thread() is not self._acceptor:
            self._acceptor.join(timeout=2.0)
        with self._lock:
            threads = list(self._threads)
            conns = list(self._conns)
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)  # wakes a handler blocked in recv()
        for thread in threads:
            if thread is not threading.current_thread():
                thread.join(timeout=2.0)
        with contextlib.suppress(OSError):
            self._listener.close()

    def __enter__(self) -> SlowServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _accept_loop(self) -> None:
        while not self.stop_event.is_set():
            try:
                conn, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            if not self._slots.acquire(timeout=1.0):
                conn.close()
                continue
            with self._lock:
                self._accepted += 1
                self._conns.append(conn)
                thread = threading.Thread(target=self._serve, args=(conn,), daemon=True)
                self._threads.append(thread)
            thread.start()

    def _serve(self, conn: socket.socket) -> None:
        try:
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            conn.settimeout(5.0)
            buffer = b""
            while not self.stop_event.is_set():
                request, buffer = _read_request(conn, buffer)
                if request is None:
                    return
                with self._lock:
                    self._requests.append(request)
                if not self.script(conn, request, self.stop_event):
                    return
        except OSError:
            return
        finally:
            with contextlib.suppress(OSError):
                conn.close()
            self._slots.release()


def _read_request(conn: socket.socket, buffer: bytes) -> tuple[Request | None, bytes]:
    while b"\r\n\r\n" not in buffer:
        if len(buffer) > _MAX_HEAD:
            return None, b""
        data = conn.recv(65_536)
        if not data:
            return None, b""
        buffer += data
    head, _, rest = buffer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    method, path, _ = [*lines[0].split(" ", 2), "", ""][:3]
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = min(int(headers.get("content-length", "0") or 0), _MAX_BODY)
    while len(rest) < length:
        data = conn.recv(65_536)
        if not data:
            return None, b""
        rest += data
    return Request(method, path, headers, rest[:length]), rest[length:]


@contextlib.contextmanager
def slow_server(
    script: Script, *, max_connections: int = 32, lifetime_s: float = 30.0
) -> Iterator[SlowServer]:
    """Run a ``SlowServer`` for the duration of a ``with`` block."""
    with SlowServer(script, max_connections=max_connections, lifetime_s=lifetime_s) as server:
        yield server
