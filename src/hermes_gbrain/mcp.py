"""MCP over Streamable HTTP: JSON-RPC 2.0 requests, SSE or JSON replies, typed errors.

GBrain is stateless (no session id, ``initialize`` optional), answers requests with
``text/event-stream`` and transport or auth errors with ``application/json``. We stay
tolerant of stateful servers: a returned ``Mcp-Session-Id`` is sent back, and a
404/400 on a request that carried one re-initializes once. A session id that is not
visible ASCII (MCP allows nothing else) is dropped, never sent; a 400/404 after that
re-initializes too. Only ``GBrainError`` subclasses leave this module.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from . import jsontext
from .auth import Credential, share_key_of
from .catalogfile import CatalogFile
from .errors import (
    AuthError,
    DeadlineError,
    GBrainError,
    HTTPStatusError,
    ProtocolError,
    RPCError,
    ToolError,
)
from .sse import SSEDecoder
from .transport import Response, Transport, call_deadline, deadline_left

__all__ = [
    "MCP_CAP",
    "MCP_DEADLINE_S",
    "PROTOCOL_VERSION",
    "MCPClient",
    "ToolCatalog",
    "ToolResult",
    "ToolSpec",
    "parse_rpc_reply",
    "parse_tool_result",
]

MCP_CAP = 262_144
MCP_DEADLINE_S = 12.0
MAX_SCHEMA_DEPTH = 32
"""A tool whose ``inputSchema`` nests deeper is dropped from the catalog (GBrain's: 4)."""
MAX_SESSION_ID = 256
PROTOCOL_VERSION = "2025-06-18"
_ACCEPT = "application/json, text/event-stream"
_CLIENT_INFO = {"name": "hermes-gbrain", "version": "0.1.0"}


class _ReplyWatcher:
    """Feeds SSE bytes as they arrive and notices when the wanted reply is complete."""

    def __init__(self, request_id: int) -> None:
        self._decoder = SSEDecoder()
        self._id = request_id
        self.reply: dict[str, Any] | None = None

    def __call__(self, chunk: bytes) -> bool:
        for event in self._decoder.feed(chunk):
            self._consider(event.event, event.data)
        return self.reply is not None

    def finish(self) -> None:
        for event in self._decoder.finish():
            self._consider(event.event, event.data)

    def _consider(self, event: str, data: str) -> None:
        if self.reply is not None or event != "message":
            return
        message = _loads(data)
        for candidate in message if isinstance(message, list) else [message]:
            if _is_reply_to(candidate, self._id):
                self.reply = candidate
                return


def _loads(text: str | bytes) -> Any:
    try:
        return jsontext.loads(text)
    except ValueError:
        raise ProtocolError("reply is not valid JSON") from None


def _is_reply_to(message: Any, request_id: int) -> bool:
    return (
        isinstance(message, dict)
        and message.get("id") == request_id
        and not isinstance(message.get("id"), bool)
        and ("result" in message or "error" in message)
    )


def parse_rpc_reply(content_type: str, body: bytes, request_id: int) -> dict[str, Any]:
    """Return the JSON-RPC message answering ``request_id`` from a whole body.

    Server notifications and requests before the reply are skipped; a body with no
    reply for our id is a ``ProtocolError``.
    """
    if content_type == "text/event-stream":
        watcher = _ReplyWatcher(request_id)
        watcher(body)
        watcher.finish()
        if watcher.reply is None:
            raise ProtocolError("event stream ended without a reply to the request")
        return watcher.reply
    if content_type == "application/json":
        message = _loads(body)
        for candidate in message if isinstance(message, list) else [message]:
            if _is_reply_to(candidate, request_id):
                return dict(candidate)
        raise ProtocolError("JSON body holds no reply to the request")
    raise ProtocolError("reply has an unexpected content type")


@contextmanager
def _typed() -> Iterator[None]:
    """The client API raises ``GBrainError`` only: anything else a hostile reply might
    still provoke (a bug's ``TypeError``, an exhausted stack) becomes a
    ``ProtocolError`` naming only the exception class."""
    try:
        yield
    except GBrainError:
        raise
    except Exception as exc:
        raise ProtocolError(f"reply could not be handled ({type(exc).__name__})") from None


def _result_of(reply: Mapping[str, Any]) -> dict[str, Any]:
    if "error" in reply:
        error = reply["error"]
        code = error.get("code") if isinstance(error, dict) else None
        raise RPCError(code if isinstance(code, int) and not isinstance(code, bool) else 0)
    result = reply.get("result")
    if not isinstance(result, dict):
        raise ProtocolError("JSON-RPC result is not an object")
    return result


@dataclass(frozen=True, slots=True)
class ToolResult:
    """A tool's data (the JSON in ``content[0].text``) and what came with it.

    ``notes`` are the extra text blocks and ``meta`` is ``result._meta``: diagnostics
    (warnings, retrieval status, hot memory), all untrusted.
    """

    data: Any
    notes: tuple[str, ...] = ()
    meta: Mapping[str, Any] = field(default_factory=dict)

    @property
    def warnings(self) -> list[Mapping[str, Any]]:
        value = self.meta.get("warnings")
        return [w for w in value if isinstance(w, Mapping)] if isinstance(value, list) else []


def _texts(result: Mapping[str, Any]) -> list[str]:
    content = result.get("content")
    if not isinstance(content, list):
        raise ProtocolError("tool result has no content list")
    return [
        block["text"]
        for block in content
        if isinstance(block, dict)
        and block.get("type") == "text"
        and isinstance(block.get("text"), str)
    ]


def parse_tool_result(tool: str, result: Mapping[str, Any]) -> ToolResult:
    """Turn a ``tools/call`` result into data, or raise ``ToolError``/``ProtocolError``."""
    texts = _texts(result)
    meta = result.get("_meta")
    meta = meta if isinstance(meta, dict) else {}
    if result.get("isError") is True:
        code: str | None = None
        detail = texts[0] if texts else ""
        hint = ""
        try:
            envelope = jsontext.loads(detail)
        except ValueError:
            envelope = None
        if isinstance(envelope, dict):
            raw = envelope.get("error")
            code = raw if isinstance(raw, str) else None
            message = envelope.get("message")
            detail = message if isinstance(message, str) else detail
            suggestion = envelope.get("suggestion")
            hint = suggestion if isinstance(suggestion, str) else ""
        raise ToolError(tool, code, detail, hint)
    if not texts:
        raise ProtocolError("tool result has no text content")
    try:
        data = jsontext.loads(texts[0])
    except ValueError:
        raise ProtocolError(f"tool {tool!r} returned text that is not JSON") from None
    return ToolResult(data=data, notes=tuple(texts[1:]), meta=meta)


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One tool from ``tools/list``: its name, description and input schema."""

    name: str
    description: str
    input_schema: Mapping[str, Any]

    @property
    def arguments(self) -> frozenset[str]:
        props = self.input_schema.get("properties")
        return frozenset(props) if isinstance(props, dict) else frozenset()

    @property
    def required(self) -> frozenset[str]:
        req = self.input_schema.get("required")
        return (
            frozenset(r for r in req if isinstance(r, str))
            if isinstance(req, list)
            else frozenset()
        )


@dataclass(frozen=True, slots=True)
class ToolCatalog:
    """What the server offers this credential, so callers send only declared arguments."""

    tools: Mapping[str, ToolSpec]

    def has(self, tool: str) -> bool:
        return tool in self.tools

    def declares(self, tool: str, argument: str) -> bool:
        spec = self.tools.get(tool)
        return spec is not None and argument in spec.arguments

    @classmethod
    def parse(cls, result: Mapping[str, Any]) -> ToolCatalog:
        raw = result.get("tools")
        if not isinstance(raw, list):
            raise ProtocolError("tools/list result has no tools array")
        tools: dict[str, ToolSpec] = {}
        for item in raw:
            if not isinstance(item, dict) or not isinstance(item.get("name"), str):
                continue
            schema = item.get("inputSchema")
            if isinstance(schema, dict) and jsontext.depth_over(schema, MAX_SCHEMA_DEPTH):
                continue  # no real schema nests this deep; every walk over it stays bounded
            desc = item.get("description")
            tools[item["name"]] = ToolSpec(
                name=item["name"],
                description=desc if isinstance(desc, str) else "",
                input_schema=schema if isinstance(schema, dict) else {},
            )
        return cls(tools=tools)


_catalog_lock = threading.Lock()
_catalogs: dict[str, ToolCatalog] = {}
_fetching: dict[str, threading.Lock] = {}
"""One lock per catalog key, so a cold burst fetches ``tools/list`` once per credential."""


def clear_catalog_cache() -> None:
    """Forget every cached ``tools/list`` (tests, and ``doctor`` forcing a refresh)."""
    with _catalog_lock:
        _catalogs.clear()


def _fetch_lock(key: str) -> threading.Lock:
    with _catalog_lock:
        lock = _fetching.get(key)
        if lock is None:
            lock = _fetching[key] = threading.Lock()
        return lock


def _visible_ascii(value: str) -> bool:
    """0x21-0x7E only: what MCP allows in a session id, and safe in any header."""
    return value.isascii() and value.isprintable() and " " not in value


class MCPClient:
    """Sends JSON-RPC requests to one MCP endpoint with one credential.

    Thread-safe: ids come from a shared counter, the session id (if a server issues
    one) is guarded by a lock, and the ``tools/list`` cache is shared process-wide per
    endpoint and credential.
    """

    def __init__(
        self,
        *,
        url: str,
        credential: Credential,
        transport: Transport,
        cap: int = MCP_CAP,
        deadline_s: float = MCP_DEADLINE_S,
        catalog_file: CatalogFile | None = None,
    ) -> None:
        self._url = url
        self._catalog_file = catalog_file
        self._credential = credential
        self._transport = transport
        self._cap = cap
        self._deadline_s = deadline_s
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._session_id: str | None = None
        self._session_dropped = False
        self._catalog_key = f"{url}\x00{credential.cache_key}"

    def __repr__(self) -> str:
        return f"MCPClient(url={self._url!r})"

    @property
    def url(self) -> str:
        return self._url

    @property
    def deadline_s(self) -> float:
        """The wall-clock bound of one call, everything it needs included."""
        return self._deadline_s

    # -- requests ---------------------------------------------------------------------

    def request(self, method: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Send one request and return its ``result`` object.

        One deadline bounds the whole call: token mint, the request, a re-mint after a
        401 and its retry, and a re-initialisation all share it.
        """
        with call_deadline(self._deadline_s), _typed():
            reply = self._exchange(method, params, allow_reinit=True)
            return _result_of(reply)

    def notify(self, method: str, params: Mapping[str, Any] | None = None) -> None:
        """Send a notification (no reply expected; servers answer 202)."""
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = dict(params)
        with call_deadline(self._deadline_s), _typed():
            response = self._post(message, None)
            if response.status not in (200, 202, 204):
                self._raise_for_status(response)

    def initialize(self) -> dict[str, Any]:
        """Run the MCP handshake; optional for GBrain, needed by stateful servers."""
        result = self.request(
            "initialize",
            {
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": _CLIENT_INFO,
            },
        )
        self.notify("notifications/initialized")
        return result

    def call_tool(self, name: str, arguments: Mapping[str, Any]) -> ToolResult:
        """Call a tool and return its parsed data (see ``parse_tool_result``)."""
        result = self.request("tools/call", {"name": name, "arguments": dict(arguments)})
        return parse_tool_result(name, result)

    def catalog(self, *, refresh: bool = False) -> ToolCatalog:
        """The server's ``tools/list`` for this credential, cached per process and, with a
        ``catalog_file``, shared with the profile's other processes for a while."""
        if not refresh:
            with _catalog_lock:
                cached = _catalogs.get(self._catalog_key)
            if cached is not None:
                return cached
        # Single flight: threads arriving while one fetches wait for its answer.
        with call_deadline(self._deadline_s), _typed():
            lock = _fetch_lock(self._catalog_key)
            if not lock.acquire(timeout=deadline_left(self._deadline_s)):
                raise DeadlineError(self._deadline_s)
            try:
                if not refresh:
                    with _catalog_lock:
                        cached = _catalogs.get(self._catalog_key)
                    if cached is None:
                        cached = self._shared_catalog()
                    if cached is not None:
                        return cached
                catalog = ToolCatalog.parse(self.request("tools/list"))
                with _catalog_lock:
                    _catalogs[self._catalog_key] = catalog
                if self._catalog_file is not None:
                    self._catalog_file.save(
                        [
                            {"name": t.name, "description": t.description,
                             "inputSchema": dict(t.input_schema)}
                            for t in catalog.tools.values()
                        ]
                    )  # fmt: skip
                return catalog
            finally:
                lock.release()

    def warm(self) -> None:
        """Have a token and the catalog ready before the first call: from the profile's
        files when they hold them (no request at all), else fetched now."""
        with call_deadline(self._deadline_s), _typed():
            self._credential.bearer()
        self.catalog()

    def _shared_catalog(self) -> ToolCatalog | None:
        """The catalog another process of the profile fetched lately, if any."""
        if self._catalog_file is None:
            return None
        cached = self._catalog_file.load()
        if cached is None:
            return None
        try:
            catalog = ToolCatalog.parse(cached)
        except GBrainError:
            return None
        with _catalog_lock:
            _catalogs[self._catalog_key] = catalog
        return catalog

    # -- plumbing ---------------------------------------------------------------------

    def _exchange(
        self, method: str, params: Mapping[str, Any] | None, *, allow_reinit: bool
    ) -> dict[str, Any]:
        request_id = next(self._ids)
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = dict(params)
        watcher = _ReplyWatcher(request_id)
        with self._lock:
            sent_session = self._session_id
        response = self._post(message, watcher)
        with self._lock:
            lost_session = self._session_dropped
        if (
            (sent_session is not None or lost_session)
            and response.status in (400, 404)
            and allow_reinit
            and method != "initialize"
        ):
            with self._lock:
                if self._session_id == sent_session:
                    self._session_id = None
                self._session_dropped = False
            self.initialize()
            return self._exchange(method, params, allow_reinit=False)
        if response.status != 200:
            self._raise_for_status(response)
        self._remember_session(response)
        if response.content_type == "text/event-stream":
            if watcher.reply is None:
                watcher.finish()
            if watcher.reply is None:
                raise ProtocolError("event stream ended without a reply to the request")
            return watcher.reply
        return parse_rpc_reply(response.content_type, response.body, request_id)

    def _post(self, message: Mapping[str, Any], watcher: _ReplyWatcher | None) -> Response:
        body = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        token = self._credential.bearer()
        response = self._send(body, token, watcher)
        if response.status == 401 and self._credential.rejected(token):
            fresh = self._credential.bearer()
            # The caller's watcher saw nothing of the 401 (only a 200 event stream is
            # fed to it), so the retry reuses it: the caller reads its reply from it.
            response = self._send(body, fresh, watcher)
        return response

    def _send(self, body: bytes, token: str, watcher: _ReplyWatcher | None) -> Response:
        headers = {
            "Authorization": f"Bearer {token}",
            "Content-Type": "application/json",
            "Accept": _ACCEPT,
        }
        with self._lock:
            if self._session_id is not None:
                headers["Mcp-Session-Id"] = self._session_id
                headers["MCP-Protocol-Version"] = PROTOCOL_VERSION

        def until(status: int, media: str) -> Callable[[bytes], bool] | None:
            # Only a 200 event stream is decoded as it arrives; other bodies are read whole.
            return watcher if status == 200 and media == "text/event-stream" else None

        return self._transport.post(
            self._url,
            content=body,
            headers=headers,
            cap=self._cap,
            deadline_s=self._deadline_s,
            until=until if watcher is not None else None,
            share=share_key_of(self._credential),
        )

    def _remember_session(self, response: Response) -> None:
        session = response.headers.get("mcp-session-id")
        if session is None:
            return
        with self._lock:
            if session and len(session) <= MAX_SESSION_ID and _visible_ascii(session):
                self._session_id = session
                self._session_dropped = False
            else:
                # An id we could not send back (it would break every later request's
                # headers) is dropped; a 400/404 for the missing session re-initialises.
                self._session_id = None
                self._session_dropped = True

    @staticmethod
    def _raise_for_status(response: Response) -> None:
        if response.status == 401:
            code = None
            if response.content_type == "application/json":
                try:
                    payload = jsontext.loads(response.body)
                except ValueError:
                    payload = None
                if isinstance(payload, dict) and isinstance(payload.get("error"), str):
                    code = payload["error"]
            raise AuthError(401, code, "MCP request")
        raise HTTPStatusError(response.status, "MCP request")
