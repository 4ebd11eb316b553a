"""A scriptable in-process MCP server for unit tests, behind ``httpx.MockTransport``.

``FakeMCP`` answers ``POST /mcp`` like GBrain 0.46.28 does (SSE replies, 202 for
notifications) and ``POST /token`` with fresh opaque tokens. Tests replace pieces with
``on_rpc`` (per JSON-RPC method) or ``script``/``token_script`` (queues of raw
responses served first at ``/mcp`` and ``/token``),
and read ``log`` to assert what the client *sent*.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

import httpx

from hermes_gbrain.auth import ClientCredentials, Credential, StaticToken
from hermes_gbrain.mcp import MCPClient
from hermes_gbrain.transport import Transport

__all__ = [
    "MCP_URL",
    "TOKEN_URL",
    "FakeMCP",
    "Sent",
    "sse",
    "sse_response",
    "tool_result",
]

MCP_URL = "http://gbrain.test/mcp"
TOKEN_URL = "http://gbrain.test/token"
CLIENT_SECRET = "cs-TOPSECRET-client-secret"
STATIC_TOKEN = "st-TOPSECRET-static-token"


def sse(*messages: Any, prefix: str = "") -> bytes:
    """An SSE body: ``prefix`` (raw noise), then one ``event: message`` per message."""
    body = prefix
    for message in messages:
        body += f"event: message\ndata: {json.dumps(message)}\n\n"
    return body.encode("utf-8")


def sse_response(*messages: Any, headers: Mapping[str, str] | None = None) -> httpx.Response:
    return httpx.Response(
        200,
        headers={"content-type": "text/event-stream", **(headers or {})},
        content=sse(*messages),
    )


def json_response(
    status: int, payload: Any, headers: Mapping[str, str] | None = None
) -> httpx.Response:
    return httpx.Response(
        status, headers={"content-type": "application/json", **(headers or {})}, json=payload
    )


def tool_result(
    data: Any,
    *,
    notes: Iterable[str] = (),
    meta: Mapping[str, Any] | None = None,
    is_error: bool = False,
    indent: int | None = 2,
) -> dict[str, Any]:
    """A ``tools/call`` result the way GBrain shapes it (JSON text in ``content[0]``)."""
    text = data if isinstance(data, str) else json.dumps(data, indent=indent)
    result: dict[str, Any] = {
        "content": [{"type": "text", "text": text}] + [{"type": "text", "text": n} for n in notes]
    }
    if meta is not None:
        result["_meta"] = dict(meta)
    if is_error:
        result["isError"] = True
    return result


@dataclass
class Sent:
    """One request the fake received."""

    path: str
    headers: httpx.Headers
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def form(self) -> dict[str, str]:
        return dict(parse_qsl(self.body.decode("ascii")))

    @property
    def bearer(self) -> str | None:
        value = self.headers.get("authorization")
        return value.removeprefix("Bearer ") if value else None


RpcHandler = Callable[[dict[str, Any], Sent], "httpx.Response | dict[str, Any]"]


@dataclass
class FakeMCP:
    """The server. ``tools`` is the catalog; ``calls`` maps a tool name to a function of
    its arguments returning the tool's ``result`` (see ``tool_result``)."""

    tools: list[dict[str, Any]] = field(default_factory=list)
    calls: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = field(default_factory=dict)
    on_rpc: dict[str, RpcHandler] = field(default_factory=dict)
    script: list[httpx.Response] = field(default_factory=list)
    token_script: list[httpx.Response] = field(default_factory=list)
    log: list[Sent] = field(default_factory=list)
    token_expires_in: int = 3600

    def __post_init__(self) -> None:
        self._tokens = itertools.count(1)

    # -- wiring -----------------------------------------------------------------------

    def transport(self) -> Transport:
        return Transport(transport=httpx.MockTransport(self.handle))

    def static_client(self, token: str = STATIC_TOKEN, url: str = MCP_URL) -> MCPClient:
        return MCPClient(url=url, credential=StaticToken(token), transport=self.transport())

    def oauth_client(self, secret: str = CLIENT_SECRET, url: str = MCP_URL) -> MCPClient:
        transport = self.transport()
        credential = self.oauth_credential(transport, secret)
        return MCPClient(url=url, credential=credential, transport=transport)

    def oauth_credential(self, transport: Transport, secret: str = CLIENT_SECRET) -> Credential:
        return ClientCredentials(
            token_url=TOKEN_URL,
            client_id="gbrain_cl_test",
            client_secret=secret,
            transport=transport,
        )

    def client(self, credential: Credential, transport: Transport, url: str = MCP_URL) -> MCPClient:
        return MCPClient(url=url, credential=credential, transport=transport)

    @staticmethod
    def static(token: str = STATIC_TOKEN) -> StaticToken:
        return StaticToken(token)

    # -- what was sent ------------------------------------------------------------------

    def rpc(self, method: str | None = None) -> list[dict[str, Any]]:
        """JSON-RPC messages sent to /mcp (optionally only one method)."""
        out = [s.json for s in self.log if s.path.endswith("/mcp")]
        return [m for m in out if method is None or m.get("method") == method]

    def tool_calls(self, name: str | None = None) -> list[dict[str, Any]]:
        """``arguments`` of each ``tools/call`` sent (optionally for one tool)."""
        return [
            m["params"]["arguments"]
            for m in self.rpc("tools/call")
            if name is None or m["params"]["name"] == name
        ]

    @property
    def mcp_requests(self) -> list[Sent]:
        return [s for s in self.log if s.path.endswith("/mcp")]

    @property
    def token_requests(self) -> list[Sent]:
        return [s for s in self.log if s.path.endswith("/token")]

    # -- serving ----------------------------------------------------------------------

    def handle(self, request: httpx.Request) -> httpx.Response:
        sent = Sent(path=request.url.path, headers=request.headers, body=request.read())
        self.log.append(sent)
        if sent.path.endswith("/token"):
            if self.token_script:
                return self.token_script.pop(0)
            number = next(self._tokens)
            return json_response(
                200,
                {
                    "access_token": f"at-TOPSECRET-{number}",
                    "token_type": "bearer",
                    "expires_in": self.token_expires_in,
                    "scope": sent.form.get("scope", "read"),
                },
            )
        if self.script:
            return self.script.pop(0)
        message = sent.json
        method = message.get("method")
        if "id" not in message:
            return httpx.Response(202)
        handler = self.on_rpc.get(method)
        if handler is not None:
            answer = handler(message, sent)
            if isinstance(answer, httpx.Response):
                return answer
            return sse_response({"jsonrpc": "2.0", "id": message["id"], "result": answer})
        if method == "tools/list":
            result: dict[str, Any] = {"tools": self.tools}
        elif method == "initialize":
            result = {
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "fake", "version": "0"},
            }
        elif method == "ping":
            result = {}
        elif method == "tools/call":
            name = message["params"]["name"]
            call = self.calls.get(name)
            if call is None:
                result = tool_result(
                    {"error": "unknown_operation", "message": f"Unknown: {name}"},
                    is_error=True,
                    indent=None,
                )
            else:
                result = call(message["params"].get("arguments", {}))
        else:
            return sse_response(
                {
                    "jsonrpc": "2.0",
                    "id": message["id"],
                    "error": {"code": -32601, "message": "Method not found"},
                }
            )
        return sse_response({"jsonrpc": "2.0", "id": message["id"], "result": result})


def tool_spec(name: str, *arguments: str, required: Iterable[str] = ()) -> dict[str, Any]:
    """A ``tools/list`` entry declaring ``arguments``."""
    return {
        "name": name,
        "description": f"{name} (test)",
        "inputSchema": {
            "type": "object",
            "properties": {a: {"type": "string"} for a in arguments},
            "required": list(required),
        },
    }
