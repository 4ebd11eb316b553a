"""JSON-RPC 2.0 over MCP: ``initialize``, ``ping``, ``tools/list``, ``tools/call``.

Stateless like GBrain: every message is answered on its own, with no session and no prior
``initialize`` required. Replies keep GBrain's key order (``result`` first, errors last).
"""

from __future__ import annotations

from typing import Any

from hermes_gbrain.emulator.operations import Context
from hermes_gbrain.emulator.tools import Dispatcher

SUPPORTED_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07")
LATEST_VERSION = SUPPORTED_VERSIONS[0]


def is_message(value: Any) -> bool:
    """A structurally valid JSON-RPC 2.0 request, notification or response."""
    if not isinstance(value, dict) or value.get("jsonrpc") != "2.0":
        return False
    if "method" in value:
        return isinstance(value["method"], str)
    return "id" in value and ("result" in value or "error" in value)


def is_request(message: dict[str, Any]) -> bool:
    """Requests carry a method and an id; notifications and responses need no reply."""
    return "method" in message and "id" in message


def error_reply(msg_id: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}}


def handle(message: dict[str, Any], ctx: Context, dispatcher: Dispatcher) -> dict[str, Any]:
    """Answer one request (the caller has already checked ``is_request``)."""
    msg_id = message["id"]
    method = message["method"]
    params = message.get("params")
    if params is not None and not isinstance(params, dict):
        return error_reply(msg_id, -32602, "Invalid params")
    params = params or {}
    result: dict[str, Any]
    if method == "initialize":
        asked = params.get("protocolVersion")
        result = {
            "protocolVersion": asked if asked in SUPPORTED_VERSIONS else LATEST_VERSION,
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "gbrain", "version": ctx.version},
        }
    elif method == "ping":
        result = {}
    elif method == "tools/list":
        result = {"tools": dispatcher.list_tools(ctx.principal.scopes)}
    elif method == "tools/call":
        result = dispatcher.call(ctx, params.get("name"), params.get("arguments"))
    else:
        return error_reply(msg_id, -32601, "Method not found")
    return {"result": result, "jsonrpc": "2.0", "id": msg_id}
