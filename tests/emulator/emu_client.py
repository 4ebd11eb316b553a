"""A small MCP test client for the emulator tests (imported by name; conftest holds fixtures)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import httpx

from hermes_gbrain.emulator import Emulator

MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def sse_messages(text: str) -> list[dict[str, Any]]:
    """Decode an SSE body into its JSON messages (comments and empty data skipped)."""
    messages = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        data = [line[5:].lstrip(" ") for line in block.split("\n") if line.startswith("data:")]
        joined = "\n".join(data)
        if joined.strip():
            messages.append(json.loads(joined))
    return messages


@dataclass
class Mcp:
    """A thin MCP client over httpx for assertions on raw replies."""

    emu: Emulator
    http: httpx.Client
    token: str

    def post(
        self, payload: Any, *, token: str | None = None, headers: dict[str, str] | None = None
    ) -> httpx.Response:
        all_headers = {**MCP_HEADERS, "Authorization": f"Bearer {token or self.token}"}
        all_headers.update(headers or {})
        return self.http.post(self.emu.mcp_url, headers=all_headers, content=json.dumps(payload))

    def rpc(self, method: str, params: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
        payload: dict[str, Any] = {"jsonrpc": "2.0", "id": 1, "method": method}
        if params is not None:
            payload["params"] = params
        response = self.post(payload, **kw)
        assert response.status_code == 200, response.text
        assert response.headers["content-type"] == "text/event-stream"
        (message,) = sse_messages(response.text)
        return message

    def call(self, tool: str, arguments: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
        """``tools/call`` and return ``result``."""
        message = self.rpc("tools/call", {"name": tool, "arguments": arguments or {}}, **kw)
        result: dict[str, Any] = message["result"]
        return result

    def data(self, tool: str, arguments: dict[str, Any] | None = None, **kw: Any) -> Any:
        """``tools/call`` and return the parsed ``content[0].text`` of a successful call."""
        result = self.call(tool, arguments, **kw)
        assert not result.get("isError"), result
        return json.loads(result["content"][0]["text"])


def mint(emu: Emulator, scopes: str = "read", **kw: Any) -> str:
    client_id, secret = emu.register_client(f"test-{scopes.replace(' ', '-')}", scopes, **kw)
    return emu.mint_token(client_id, secret)
