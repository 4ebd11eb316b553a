"""A loopback OpenAI-compatible model endpoint, so real ``AIAgent`` runs need no LLM.

Serves ``POST /v1/chat/completions`` (and ``/chat/completions``) on 127.0.0.1 with
an ephemeral port. Each call pops the next queued :class:`StubReply` (or uses the
default) and answers as a JSON ``chat.completion`` or, when the body has
``"stream": true``, as SSE ``chat.completion.chunk`` events ending in
``data: [DONE]``. Everything else is 404 (Hermes 0.19.0 probes e.g. ``/api/show``
and ``/v1/models`` for local endpoints and copes with 404). Every request is
logged; chat bodies are parsed JSON, so tests assert on what the agent *sent*.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CHAT_PATHS = frozenset({"/v1/chat/completions", "/chat/completions"})
DEFAULT_TEXT = "stub reply"


@dataclass(frozen=True)
class StubToolCall:
    """A function call the stub model asks the agent to make."""

    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)
    call_id: str = ""


@dataclass(frozen=True)
class StubReply:
    """One assistant message: text, tool calls, or both."""

    content: str | None = DEFAULT_TEXT
    tool_calls: tuple[StubToolCall, ...] = ()
    delay_s: float = 0.0
    """A slow model: the reply is sent this long after the request arrived (or when the
    stub stops, whichever comes first)."""


@dataclass(frozen=True)
class StubRequest:
    """One HTTP request the stub received (any path)."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any  # parsed JSON, raw text when it was not JSON, None when empty


def _tool_calls_json(reply: StubReply, *, with_index: bool) -> list[dict[str, Any]]:
    calls = []
    for i, call in enumerate(reply.tool_calls):
        item: dict[str, Any] = {
            "id": call.call_id or f"call_stub_{i}",
            "type": "function",
            "function": {"name": call.name, "arguments": json.dumps(dict(call.arguments))},
        }
        if with_index:
            item["index"] = i
        calls.append(item)
    return calls


def _finish_reason(reply: StubReply) -> str:
    return "tool_calls" if reply.tool_calls else "stop"


def _usage() -> dict[str, int]:
    return {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


def completion_json(reply: StubReply, *, model: str, seq: int) -> dict[str, Any]:
    """The non-streaming ``chat.completion`` object for *reply*."""
    message: dict[str, Any] = {"role": "assistant", "content": reply.content}
    if reply.tool_calls:
        message["tool_calls"] = _tool_calls_json(reply, with_index=False)
    return {
        "id": f"chatcmpl-stub-{seq}",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": _finish_reason(reply)}],
        "usage": _usage(),
    }


def completion_chunks(
    reply: StubReply, *, model: str, seq: int, include_usage: bool
) -> list[dict[str, Any]]:
    """The SSE ``chat.completion.chunk`` objects for *reply*, in order."""
    base = {"id": f"chatcmpl-stub-{seq}", "object": "chat.completion.chunk", "created": 0}
    base["model"] = model
    delta: dict[str, Any] = {"role": "assistant"}
    if reply.content is not None:
        delta["content"] = reply.content
    if reply.tool_calls:
        delta["tool_calls"] = _tool_calls_json(reply, with_index=True)
    chunks = [
        {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
        {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": _finish_reason(reply)}]},
    ]
    if include_usage:
        chunks.append({**base, "choices": [], "usage": _usage()})
    return chunks


class StubModel:
    """The server object: queue replies, start, point an agent at :attr:`base_url`, read the log."""

    def __init__(self, default: StubReply | str = DEFAULT_TEXT) -> None:
        self.default = default if isinstance(default, StubReply) else StubReply(default)
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._queue: deque[StubReply] = deque()
        self._log: list[StubRequest] = []
        self._seq = 0
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.stopping = threading.Event()

    # -- configuration -----------------------------------------------------
    def enqueue(self, *replies: StubReply | str) -> None:
        """Queue replies for the next chat calls, in order (then the default)."""
        with self._lock:
            for reply in replies:
                self._queue.append(reply if isinstance(reply, StubReply) else StubReply(reply))

    # -- observation -------------------------------------------------------
    @property
    def log(self) -> list[StubRequest]:
        """Every request received, any path, oldest first (a copy)."""
        with self._lock:
            return list(self._log)

    @property
    def requests(self) -> list[dict[str, Any]]:
        """Parsed JSON bodies of the chat-completion calls, oldest first (a copy)."""
        with self._lock:
            return [r.body for r in self._log if r.method == "POST" and r.path in CHAT_PATHS]

    def wait_for_requests(self, count: int, timeout: float = 5.0) -> list[dict[str, Any]]:
        """Block until *count* chat calls arrived; raise ``TimeoutError`` after *timeout* s."""

        def enough() -> bool:
            return sum(1 for r in self._log if r.path in CHAT_PATHS) >= count

        with self._changed:
            if not self._changed.wait_for(enough, timeout=timeout):
                raise TimeoutError(f"stub model saw fewer than {count} chat requests")
        return self.requests

    # -- lifecycle ---------------------------------------------------------
    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("stub model is not running")
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        """OpenAI-style base URL (``…/v1``) for ``AIAgent(base_url=…)``."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> StubModel:
        if self._server is not None:
            return self
        server = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        server.daemon_threads = True
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="stub-model",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self.stopping.set()  # a reply held by ``delay_s`` is sent at once
        server, thread = self._server, self._thread
        self._server = self._thread = None
        if server is None:
            return
        server.shutdown()
        server.server_close()
        if thread is not None:
            thread.join(timeout)

    def __enter__(self) -> StubModel:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- used by the handler -----------------------------------------------
    def _record(self, request: StubRequest) -> tuple[StubReply, int] | None:
        with self._changed:
            self._log.append(request)
            reply = None
            if request.method == "POST" and request.path in CHAT_PATHS:
                self._seq += 1
                reply = (self._queue.popleft() if self._queue else self.default, self._seq)
            self._changed.notify_all()
            return reply


def _make_handler(stub: StubModel) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        # HTTP/1.0: one request per connection, so SSE ends by closing; no keep-alive races.
        protocol_version = "HTTP/1.0"

        def log_message(self, format: str, *args: Any) -> None:
            """Keep test output quiet."""

        def _handle(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            body: Any = None
            if raw:
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = raw.decode("utf-8", "replace")
            path = self.path.split("?", 1)[0]
            request = StubRequest(self.command, path, dict(self.headers.items()), body)
            picked = stub._record(request)
            if picked is None:
                self._send(404, b'{"error": {"message": "not found"}}', "application/json")
                return
            reply, seq = picked
            if reply.delay_s:  # the scenario: a model that takes this long; stop() ends it
                stub.stopping.wait(reply.delay_s)
            data = body if isinstance(body, dict) else {}
            model = str(data.get("model") or "stub-model")
            if data.get("stream"):
                options = data.get("stream_options") or {}
                chunks = completion_chunks(
                    reply, model=model, seq=seq, include_usage=bool(options.get("include_usage"))
                )
                payload = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks)
                payload += "data: [DONE]\n\n"
                self._send(200, payload.encode(), "text/event-stream")
            else:
                encoded = json.dumps(completion_json(reply, model=model, seq=seq)).encode()
                self._send(200, encoded, "application/json")

        def _send(self, status: int, payload: bytes, content_type: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        do_GET = do_POST = do_PUT = do_DELETE = _handle

    return Handler


def stub_model_fixture() -> Iterator[StubModel]:
    """Body of the ``stub_model`` fixture: a started server, stopped at teardown."""
    stub = StubModel().start()
    try:
        yield stub
    finally:
        stub.stop()
