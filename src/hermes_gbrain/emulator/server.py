"""The HTTP layer: routes, GBrain's status codes and headers, and the fault knobs.

Responses are written as raw bytes (status line, headers, body) rather than through
``send_response`` so that every knob (dripping, lying lengths, chunking) controls the exact wire
format. Nothing here logs: request lines carry client ids and bodies carry secrets.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import socket
import sys
import threading
import time
from datetime import datetime
from email.utils import formatdate
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit

from hermes_gbrain.emulator import rpc
from hermes_gbrain.emulator.faults import Knobs, RecordedRequest
from hermes_gbrain.emulator.hybrid import Embedder
from hermes_gbrain.emulator.oauth import (
    SCOPES_SUPPORTED,
    BearerError,
    OAuth,
    OAuthError,
    RateLimiter,
)
from hermes_gbrain.emulator.operations import ENGINE, Context
from hermes_gbrain.emulator.store import PageStore
from hermes_gbrain.emulator.tools import Dispatcher, compact

MAX_BODY = 8 * 1024 * 1024
GATE_BOUND_S = 30.0
CHUNK_THRESHOLD = 512
JSON_EXPRESS = "application/json; charset=utf-8"
JSON_SDK = "application/json"
_STATUS_ERRORS = {
    500: "internal_error",
    502: "bad_gateway",
    503: "service_unavailable",
    504: "gateway_timeout",
}


class App(Protocol):
    """What the HTTP layer needs from the emulator (``app.Emulator`` provides it).

    Declared here so that ``server`` depends on nothing above it: ``app`` imports
    ``server``, never the other way round.
    """

    knobs: Knobs
    lean: bool
    hybrid: bool
    embedder: Embedder
    clock: datetime | None
    store: PageStore
    oauth: OAuth
    rate_limiter: RateLimiter
    dispatcher: Dispatcher

    @property
    def base_url(self) -> str: ...

    @property
    def server_version(self) -> str: ...

    def record(self, request: RecordedRequest) -> None: ...


class _Abort(Exception):
    """The emulator is stopping: drop the connection without answering."""


class _BadBody(Exception):
    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class EmulatorHTTPServer(ThreadingHTTPServer):
    """Threaded server that can cut its open connections when the emulator stops."""

    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], app: App) -> None:
        self.app = app
        self.stopping = threading.Event()
        self._connections: set[socket.socket] = set()
        self._conn_lock = threading.Lock()
        super().__init__(address, _Handler)

    def track(self, sock: socket.socket) -> None:
        with self._conn_lock:
            self._connections.add(sock)

    def untrack(self, sock: socket.socket) -> None:
        with self._conn_lock:
            self._connections.discard(sock)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hangs up mid-request is normal under fault tests: stay quiet.

        Anything else is reported in one line on stderr, without request data.
        """
        error = sys.exc_info()[1]
        if isinstance(error, OSError):
            return
        print(f"gbrain emulator: handler failed ({type(error).__name__})", file=sys.stderr)

    def close_connections(self) -> None:
        with self._conn_lock:
            open_now = list(self._connections)
        for sock in open_now:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


def _sse_event(message: dict[str, Any]) -> str:
    return "event: message\ndata: " + compact(message) + "\n\n"


def _extra_event(index: int) -> str:
    """Events a compliant MCP server may send before the answer; clients must skip them."""
    kind = index % 4
    if kind == 0:
        note = {
            "jsonrpc": "2.0",
            "method": "notifications/progress",
            "params": {"progressToken": f"emu-{index}", "progress": index, "message": "working"},
        }
        return _sse_event(note)
    if kind == 1:
        return ": emulator keep-alive comment\n\n"
    if kind == 2:
        return f"id: emu-prime-{index}\ndata: \n\n"
    return (
        'event: message\ndata: {"jsonrpc":"2.0",\n'
        'data: "method":"notifications/message",\n'
        'data: "params":{"level":"info","data":"emulator notice"}}\n\n'
    )


def _other_id(msg_id: Any) -> Any:
    if isinstance(msg_id, bool) or msg_id is None:
        return "wrong-id"
    if isinstance(msg_id, int | float):
        return msg_id + 1000
    return f"{msg_id}-wrong"


def _called_tool(message: dict[str, Any]) -> str:
    """The tool a ``tools/call`` names, else the JSON-RPC method (``tools/list``, …)."""
    params = message.get("params")
    method = message.get("method")
    if method == "tools/call" and isinstance(params, dict):
        name = params.get("name")
        return name if isinstance(name, str) else ""
    return method if isinstance(method, str) else ""


def _apply_reply_faults(replies: list[dict[str, Any]], knobs: Knobs) -> None:
    for reply in replies:
        result = reply.get("result")
        content = result.get("content") if isinstance(result, dict) else None
        if isinstance(content, list) and content:
            if knobs.malformed_tool_text:
                content[0] = {"type": "text", "text": "<<this text is not JSON>>"}
            if knobs.extra_content_blocks:
                content.append({"type": "text", "text": "note: an extra block from the emulator"})
        if knobs.wrong_rpc_id:
            reply["id"] = _other_id(reply.get("id"))


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "gbrain-emulator"
    sys_version = ""
    timeout = 120
    server: EmulatorHTTPServer

    _rec: RecordedRequest | None = None

    # plumbing ---------------------------------------------------------------------------------
    def setup(self) -> None:
        super().setup()
        with contextlib.suppress(OSError):
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.server.track(self.connection)
        distance = self.app.knobs.distance_s
        if distance > 0:  # a far brain's handshake: once per connection
            self.server.stopping.wait(distance)

    def finish(self) -> None:
        try:
            super().finish()
        except OSError:
            pass
        finally:
            self.server.untrack(self.connection)

    def log_message(self, format: str, *args: Any) -> None:
        """Silenced: request lines and headers must never reach a log."""

    def do_any(self) -> None:
        """Every method goes through ``_handle``, which routes and answers as GBrain does."""
        self._handle()

    do_GET = do_POST = do_DELETE = do_PUT = do_PATCH = do_OPTIONS = do_any

    @property
    def app(self) -> App:
        return self.server.app

    def _read_body(self) -> bytes:
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            parts: list[bytes] = []
            total = 0
            while True:
                size_line = self.rfile.readline(1024)
                size = int(size_line.split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline(1024) not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(parts)
                total += size
                if total > MAX_BODY:
                    raise _BadBody(413)
                parts.append(self.rfile.read(size))
                self.rfile.readline(16)
        raw = self.headers.get("Content-Length")
        if not raw:
            return b""
        try:
            length = int(raw)
        except ValueError:
            raise _BadBody(400) from None
        if length < 0:
            raise _BadBody(400)
        if length > MAX_BODY:
            raise _BadBody(413)
        return self.rfile.read(length)

    def _send(
        self,
        status: int,
        headers: list[tuple[str, str]],
        body: bytes = b"",
        *,
        chunked: bool = False,
        declared_length: int | None = None,
        drip_s: float = 0.0,
        drip_headers: bool = False,
    ) -> None:
        try:
            reason = HTTPStatus(status).phrase
        except ValueError:
            reason = "Status"
        lines = [f"HTTP/1.1 {status} {reason}"]
        lines += [f"{k}: {v}" for k, v in headers]
        lines.append(f"Date: {formatdate(usegmt=True)}")
        if chunked:
            lines.append("Transfer-Encoding: chunked")
            payload = b"".join(
                f"{len(body[i : i + 4096]):x}\r\n".encode() + body[i : i + 4096] + b"\r\n"
                for i in range(0, len(body), 4096)
            )
            payload += b"0\r\n\r\n"
        else:
            lines.append(
                f"Content-Length: {declared_length if declared_length is not None else len(body)}"
            )
            payload = body
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        if self._rec is not None:
            self._rec.status = status
        if declared_length is not None:
            self.close_connection = True
        try:
            if drip_s > 0:
                if not drip_headers:
                    self.wfile.write(head)
                    self.wfile.flush()
                    head = b""
                for i, byte in enumerate(head + payload):
                    if i and self.server.stopping.wait(drip_s):
                        raise _Abort
                    self.wfile.write(bytes((byte,)))
                    self.wfile.flush()
            else:
                self.wfile.write(head + payload)
                self.wfile.flush()
        except OSError:
            self.close_connection = True

    def _json(
        self,
        status: int,
        value: Any,
        *,
        content_type: str = JSON_EXPRESS,
        extra: list[tuple[str, str]] | None = None,
    ) -> None:
        body = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        self._send(status, [("Content-Type", content_type), *(extra or [])], body)

    def _html_404(self, method: str, path: str) -> None:
        text = (
            '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>Error</title>\n</head>\n<body>\n<pre>Cannot {method} {path}</pre>\n"
            "</body>\n</html>\n"
        )
        self._send(
            404,
            [
                ("Content-Security-Policy", "default-src 'none'"),
                ("X-Content-Type-Options", "nosniff"),
                ("Content-Type", "text/html; charset=utf-8"),
            ],
            text.encode("utf-8"),
        )

    def _far(self, seconds: float) -> None:
        """Wait out the ``distance_s`` knob (cut short when the emulator stops)."""
        if seconds > 0 and self.server.stopping.wait(seconds):
            raise _Abort

    def _wait_gate(self, gate: threading.Event | None) -> None:
        if gate is None:
            return
        deadline = time.monotonic() + GATE_BOUND_S
        while not gate.is_set():
            if self.server.stopping.is_set():
                raise _Abort
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            gate.wait(min(0.05, remaining))

    # dispatch -------------------------------------------------------------------------------
    def _handle(self) -> None:
        method = self.command
        path = urlsplit(self.path).path
        headers: dict[str, str] = {}
        for key, value in self.headers.items():
            name = key.lower()
            headers[name] = f"{headers[name]}, {value}" if name in headers else value
        rec = RecordedRequest(method=method, path=path, headers=headers, body=b"")
        self._rec = rec
        try:
            try:
                rec.body = self._read_body()
            except (_BadBody, ValueError) as err:
                self.app.record(rec)
                self.close_connection = True
                status = err.status if isinstance(err, _BadBody) else 400
                self._json(status, {"error": "invalid_request", "error_description": "Bad body"})
                return
            _describe(rec)
            self.app.record(rec)
            callback = self.app.knobs.on_request
            if callback is not None:
                callback(rec)
            self._far(self.app.knobs.distance_s)
            self._route(method, path, rec)
        except _Abort:
            self.close_connection = True
        finally:
            self._rec = None

    def _route(self, method: str, path: str, rec: RecordedRequest) -> None:
        if path == "/mcp":
            if method == "POST":
                self._mcp(rec)
            elif method == "GET":
                self._json(
                    405,
                    {
                        "jsonrpc": "2.0",
                        "error": {"code": -32000, "message": "Method not allowed"},
                        "id": None,
                    },
                    extra=[("Allow", "POST, DELETE")],
                )
            elif method == "OPTIONS":
                self._send(
                    200,
                    [
                        ("Content-Type", "text/plain"),
                        ("X-Content-Type-Options", "nosniff"),
                        ("Allow", "GET, HEAD, POST"),
                    ],
                    b"GET, HEAD, POST",
                )
            else:
                self._html_404(method, path)
        elif path == "/health" and method == "GET":
            self._json(200, {"status": "ok", "version": self.app.server_version, "engine": ENGINE})
        elif path == "/.well-known/oauth-authorization-server" and method == "GET":
            self._json(200, self._as_metadata(), extra=[("Access-Control-Allow-Origin", "*")])
        elif path == "/.well-known/oauth-protected-resource" and method == "GET":
            base = self.app.base_url + "/"
            self._json(
                200,
                {
                    "resource": base,
                    "authorization_servers": [base],
                    "scopes_supported": sorted(SCOPES_SUPPORTED),
                    "resource_name": "GBrain MCP Server",
                },
                extra=[("Access-Control-Allow-Origin", "*")],
            )
        elif path == "/token" and method == "POST":
            self._token(rec)
        elif path == "/revoke" and method == "POST":
            self._revoke(rec)
        else:
            self._html_404(method, path)

    def _as_metadata(self) -> dict[str, Any]:
        base = self.app.base_url
        return {
            "issuer": base + "/",
            "authorization_endpoint": base + "/authorize",
            "response_types_supported": ["code"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint": base + "/token",
            "token_endpoint_auth_methods_supported": [
                "client_secret_post",
                "none",
                "client_secret_basic",
            ],
            "grant_types_supported": ["authorization_code", "refresh_token", "client_credentials"],
            "scopes_supported": sorted(SCOPES_SUPPORTED),
            "revocation_endpoint": base + "/revoke",
            "revocation_endpoint_auth_methods_supported": [
                "client_secret_post",
                "client_secret_basic",
            ],
        }

    # /token and /revoke ---------------------------------------------------------------------
    def _rate_headers(self, limit: int, remaining: int, reset: int) -> list[tuple[str, str]]:
        return [
            ("RateLimit-Policy", f"{limit};w=900"),
            ("RateLimit-Limit", str(limit)),
            ("RateLimit-Remaining", str(remaining)),
            ("RateLimit-Reset", str(reset)),
        ]

    def _limited(self) -> list[tuple[str, str]] | None:
        """Count this request; answer 429 and return None when over the limit.

        GBrain's ``/token`` limiter (``src/commands/serve-http.ts``: ``ccRateLimiter``, an
        ``express-rate-limit`` with ``resolveOAuthTokenRateLimit()``'s default of 50
        requests per 15-minute window per client address, ``standardHeaders: true``), on by
        default; recording 04 shows the ``RateLimit-*`` headers of a counted request.
        """
        limit = self.app.knobs.token_rate_limit
        allowed, remaining, reset = self.app.rate_limiter.hit(self.client_address[0], limit)
        headers = self._rate_headers(limit, remaining, reset)
        if not allowed:
            self._json(
                429,
                {
                    "error": "too_many_requests",
                    "error_description": "Rate limit exceeded. Try again later.",
                },
                extra=[*headers, ("Retry-After", str(reset))],
            )
            return None
        return headers

    def _form(self, rec: RecordedRequest, headers: list[tuple[str, str]]) -> dict[str, str] | None:
        ctype = rec.headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype != "application/x-www-form-urlencoded":
            self._json(
                400,
                {
                    "error": "invalid_request",
                    "error_description": "Expected an application/x-www-form-urlencoded body",
                },
                extra=headers,
            )
            return None
        parsed = parse_qs(rec.body.decode("utf-8", "replace"), keep_blank_values=True)
        return {k: v[0] for k, v in parsed.items()}

    def _token(self, rec: RecordedRequest) -> None:
        app = self.app
        knobs = app.knobs
        self._wait_gate(knobs.token_gate)
        headers = self._limited()
        if headers is None:
            return
        if knobs.token_status is not None:
            code = knobs.token_status
            self._json(
                code,
                {
                    "error": _STATUS_ERRORS.get(code, "server_error"),
                    "error_description": f"Injected HTTP {code}",
                },
                extra=headers,
            )
            return
        form = self._form(rec, headers)
        if form is None:
            return
        grant = form.get("grant_type", "")
        if not grant:
            self._oauth_error(OAuthError(400, "invalid_request", "grant_type required"), headers)
            return
        if grant != "client_credentials":
            self._oauth_error(
                OAuthError(400, "unsupported_grant_type", f"Unsupported grant type: {grant}"),
                headers,
            )
            return
        client_id, secret = form.get("client_id", ""), form.get("client_secret", "")
        if not client_id or not secret:
            self._oauth_error(
                OAuthError(400, "invalid_request", "client_id and client_secret required"), headers
            )
            return
        try:
            answer = app.oauth.issue(client_id, secret, form.get("scope"))
        except OAuthError as err:
            self._oauth_error(err, headers)
            return
        self._json(200, answer, extra=headers)

    def _oauth_error(self, err: OAuthError, headers: list[tuple[str, str]]) -> None:
        self._json(
            err.status, {"error": err.error, "error_description": err.description}, extra=headers
        )

    def _revoke(self, rec: RecordedRequest) -> None:
        headers = self._limited()
        if headers is None:
            return
        form = self._form(rec, headers)
        if form is None:
            return
        client_id, secret = form.get("client_id", ""), form.get("client_secret", "")
        if not client_id or not secret or not form.get("token"):
            self._oauth_error(
                OAuthError(400, "invalid_request", "client_id, client_secret and token required"),
                headers,
            )
            return
        try:
            self.app.oauth.revoke(client_id, secret, form["token"])
        except OAuthError as err:
            self._oauth_error(err, headers)
            return
        self._send(200, [("Cache-Control", "no-store"), *headers])

    # /mcp -----------------------------------------------------------------------------------
    def _unauthorized(self, description: str) -> None:
        meta = self.app.base_url + "/.well-known/oauth-protected-resource"
        challenge = (
            f'Bearer error="invalid_token", error_description="{description}", '
            f'resource_metadata="{meta}"'
        )
        self._json(
            401,
            {"error": "invalid_token", "error_description": description},
            extra=[("WWW-Authenticate", challenge)],
        )

    def _transport_error(self, status: int, code: int, message: str) -> None:
        self._json(
            status,
            {"jsonrpc": "2.0", "error": {"code": code, "message": message}, "id": None},
            content_type=JSON_SDK,
        )

    def _mcp(self, rec: RecordedRequest) -> None:
        app = self.app
        knobs = app.knobs
        self._wait_gate(knobs.gate)
        if knobs.latency_s > 0 and self.server.stopping.wait(knobs.latency_s):
            raise _Abort
        if knobs.redirect_to:
            self._send(knobs.redirect_status, [("Location", knobs.redirect_to)])
            return
        if knobs.status is not None:
            code = knobs.status
            self._json(
                code,
                {
                    "error": _STATUS_ERRORS.get(code, "server_error"),
                    "error_description": f"Injected HTTP {code}",
                },
            )
            return
        if knobs.take_forced_401():
            self._unauthorized("Invalid token")
            return
        try:
            principal = app.oauth.authenticate(rec.headers.get("authorization"))
        except BearerError as err:
            self._unauthorized(str(err))
            return
        accept = rec.headers.get("accept", "")
        if "application/json" not in accept or "text/event-stream" not in accept:
            self._transport_error(
                406,
                -32000,
                "Not Acceptable: Client must accept both application/json and text/event-stream",
            )
            return
        if not rec.headers.get("content-type", "").lower().startswith("application/json"):
            self._transport_error(
                415, -32000, "Unsupported Media Type: Content-Type must be application/json"
            )
            return
        if rec.json is None:
            self._transport_error(400, -32700, "Parse error: Invalid JSON")
            return
        messages = rec.json if isinstance(rec.json, list) else [rec.json]
        if not messages or not all(rpc.is_message(m) for m in messages):
            self._transport_error(400, -32700, "Parse error: Invalid JSON-RPC message")
            return
        has_init = any(m.get("method") == "initialize" for m in messages)
        version = rec.headers.get("mcp-protocol-version")
        if version and not has_init and version not in rpc.SUPPORTED_VERSIONS:
            supported = ", ".join(rpc.SUPPORTED_VERSIONS)
            self._transport_error(
                400,
                -32000,
                f"Bad Request: Unsupported protocol version: {version} "
                f"(supported versions: {supported})",
            )
            return
        session_headers: list[tuple[str, str]] = []
        if knobs.session_id:
            session_headers.append(("Mcp-Session-Id", knobs.session_id))
            if not has_init and rec.headers.get("mcp-session-id") != knobs.session_id:
                self._json(
                    404,
                    {
                        "jsonrpc": "2.0",
                        "error": {"code": -32001, "message": "Session not found"},
                        "id": None,
                    },
                    content_type=JSON_SDK,
                )
                return
        requests = [m for m in messages if rpc.is_request(m)]
        if not requests:
            self._send(202, session_headers)
            return
        hold = max((knobs.apply_delay_s.get(_called_tool(m), 0.0) for m in requests), default=0.0)
        if hold > 0 and self.server.stopping.wait(hold):
            raise _Abort
        ctx = Context(
            app.store,
            principal,
            lean=app.lean,
            hybrid=app.hybrid,
            embedder=app.embedder,
            clock=app.clock,
        )
        replies = [rpc.handle(m, ctx, app.dispatcher) for m in requests]
        _apply_reply_faults(replies, knobs)
        self._reply(replies, batch=isinstance(rec.json, list), knobs=knobs, headers=session_headers)

    def _reply(
        self,
        replies: list[dict[str, Any]],
        *,
        batch: bool,
        knobs: Knobs,
        headers: list[tuple[str, str]],
    ) -> None:
        if knobs.json_response:
            text = compact(replies if batch else replies[0])
            if knobs.malformed_json:
                text = text[: max(1, len(text) // 2)]
            body = text.encode("utf-8")
            headers = [("Content-Type", "application/json"), *headers]
            pad = b" "
        else:
            events = [_extra_event(i) for i in range(knobs.extra_sse_events)]
            if knobs.malformed_json:
                events += ["event: message\ndata: {this is not json\n\n" for _ in replies]
            else:
                events += [_sse_event(r) for r in replies]
            body = "".join(events).encode("utf-8")
            headers = [
                ("Cache-Control", "no-cache"),
                ("Connection", "keep-alive"),
                ("Content-Type", "text/event-stream"),
                *headers,
            ]
            pad = b""
        if knobs.oversized_bytes > len(body):
            missing = knobs.oversized_bytes - len(body)
            if pad:
                body += pad * missing
            else:
                body = b": " + b"x" * max(0, missing - 4) + b"\n\n" + body
        if knobs.gzip:
            body = gzip.compress(body)
            headers.append(("Content-Encoding", "gzip"))
        declared = knobs.lying_content_length
        if declared is not None and declared <= len(body):
            declared = len(body) + 1
        self._send(
            200,
            headers,
            body,
            chunked=declared is None and not knobs.oversized_bytes and len(body) > CHUNK_THRESHOLD,
            declared_length=declared,
            drip_s=knobs.drip_interval_s,
            drip_headers=knobs.drip_headers,
        )


def _describe(rec: RecordedRequest) -> None:
    """Fill the JSON-RPC fields of a request record (first message of a batch)."""
    if not rec.body:
        return
    try:
        rec.json = json.loads(rec.body, parse_constant=_reject_constant)
    except (ValueError, UnicodeDecodeError):
        rec.json = None
        return
    first = rec.json[0] if isinstance(rec.json, list) and rec.json else rec.json
    if not isinstance(first, dict):
        return
    method = first.get("method")
    rec.rpc_method = method if isinstance(method, str) else None
    params = first.get("params")
    if rec.rpc_method == "tools/call" and isinstance(params, dict):
        name = params.get("name")
        rec.tool = name if isinstance(name, str) else None
        arguments = params.get("arguments")
        rec.arguments = arguments if isinstance(arguments, dict) else None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")
