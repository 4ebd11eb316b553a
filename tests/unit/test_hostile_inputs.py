"""Hostile replies and odd settings: only ``GBrainError`` ever leaves the client API.

Each case here once escaped as ``RecursionError``, ``UnicodeEncodeError`` or invalid
JSON output: deep JSON, non-finite numbers, header values that are not ASCII.
"""

from __future__ import annotations

import json
import threading
from typing import Any

import httpx
import pytest

from hermes_gbrain.api import GBrain, parse_search_rows
from hermes_gbrain.auth import ClientCredentials, StaticToken
from hermes_gbrain.errors import GBrainError, ProtocolError, RefusedError
from hermes_gbrain.jsontext import loads
from hermes_gbrain.mcp import MCPClient, ToolCatalog
from hermes_gbrain.transport import Transport
from support.fake_mcp import (
    MCP_URL,
    TOKEN_URL,
    FakeMCP,
    json_response,
    sse_response,
    tool_result,
    tool_spec,
)

DEEP = "[" * 10_000 + "]" * 10_000
DEEP_SMALL = "[" * 5_000 + "]" * 5_000
"""Under the 16 KiB /token cap, still far past the interpreter's recursion limit."""


def deep_schema(levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"x": schema}}
    return schema


# -- deep JSON ---------------------------------------------------------------------------


def test_deep_json_in_an_sse_reply_is_a_protocol_error() -> None:
    body = f'event: message\ndata: {{"jsonrpc":"2.0","id":1,"result":{DEEP}}}\n\n'.encode()
    fake = FakeMCP(
        script=[httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)]
    )
    with pytest.raises(ProtocolError):
        fake.static_client().request("ping")


def test_deep_json_in_a_json_reply_and_a_401_body_is_a_protocol_or_auth_error() -> None:
    body = f'{{"jsonrpc":"2.0","id":1,"result":{DEEP}}}'.encode()
    fake = FakeMCP(
        script=[
            httpx.Response(200, headers={"content-type": "application/json"}, content=body),
            httpx.Response(
                401, headers={"content-type": "application/json"}, content=DEEP.encode()
            ),
        ]
    )
    client = fake.static_client()
    with pytest.raises(ProtocolError):
        client.request("ping")
    with pytest.raises(GBrainError):
        client.request("ping")


def test_deep_json_in_tool_text_is_a_protocol_error() -> None:
    fake = FakeMCP(tools=[tool_spec("get_page", "slug")])
    fake.calls["get_page"] = lambda args: tool_result(DEEP)
    with pytest.raises(ProtocolError):
        GBrain(fake.static_client()).get_page("a")


def test_deep_json_from_the_token_endpoint_is_a_protocol_error() -> None:
    fake = FakeMCP(
        token_script=[
            httpx.Response(
                200, headers={"content-type": "application/json"}, content=DEEP_SMALL.encode()
            )
        ]
    )
    with pytest.raises(ProtocolError):
        fake.oauth_client().request("ping")


@pytest.mark.parametrize("status", [200, 400])
def test_deep_error_body_from_the_token_endpoint_stays_typed(status: int) -> None:
    transport = Transport(
        transport=httpx.MockTransport(lambda r: httpx.Response(status, content=DEEP_SMALL.encode()))
    )
    credential = ClientCredentials(
        token_url=TOKEN_URL, client_id="c", client_secret="s", transport=transport
    )
    with pytest.raises(GBrainError):
        credential.bearer()


# -- non-finite numbers --------------------------------------------------------------------


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_non_finite_numbers_in_tool_text_are_refused(number: str) -> None:
    fake = FakeMCP(tools=[tool_spec("search", "query")])
    text = f'[{{"slug":"a","title":"A","score":{number}}}]'
    fake.calls["search"] = lambda args: tool_result(text)
    with pytest.raises(ProtocolError):
        GBrain(fake.static_client()).search("a")


def test_non_finite_scores_built_in_python_are_treated_as_absent() -> None:
    rows = parse_search_rows(
        [
            {"slug": "a", "score": float("nan")},
            {"slug": "b", "score": float("inf")},
            {"slug": "c", "score": 10**400},
            {"slug": "d", "score": 0.5},
        ]
    )
    assert [r.score for r in rows] == [None, None, None, 0.5]


def test_strict_loads_keeps_valid_json() -> None:
    assert loads('{"a":[1,2.5,-3e10,null,true,"x"]}') == {"a": [1, 2.5, -3e10, None, True, "x"]}
    for bad in ("NaN", "[Infinity]", "1e999", DEEP, b"\xff", "9" * 5000):
        with pytest.raises(ValueError):
            loads(bad)


# -- headers ---------------------------------------------------------------------------------


def _session_reply(session: bytes) -> httpx.Response:
    return httpx.Response(
        200,
        headers=[(b"content-type", b"text/event-stream"), (b"mcp-session-id", session)],
        content=b'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n',
    )


@pytest.mark.parametrize(
    "session", ["sess-\u00e9".encode("latin-1"), b"a b", b"tab\there", b"\x7f", b""]
)
def test_session_id_that_is_not_visible_ascii_is_dropped(session: bytes) -> None:
    """Kept, it broke every later request of the profile with ``UnicodeEncodeError``."""
    fake = FakeMCP(script=[_session_reply(session)])
    client = fake.static_client()
    client.request("ping")
    assert client.request("ping") == {}
    assert "mcp-session-id" not in fake.mcp_requests[-1].headers


def test_dropped_session_id_re_initialises_when_the_server_wants_a_session() -> None:
    fake = FakeMCP(
        script=[
            _session_reply("s-\u00e9".encode("latin-1")),
            json_response(400, {"jsonrpc": "2.0", "error": {"code": -32000}, "id": None}),
        ]
    )
    fake.on_rpc["initialize"] = lambda m, s: sse_response(
        {"jsonrpc": "2.0", "id": m["id"], "result": {"protocolVersion": "2025-06-18"}},
        headers={"mcp-session-id": "good-session"},
    )
    client = fake.static_client()
    client.request("ping")
    assert client.request("ping") == {}
    methods = [m.get("method") for m in fake.rpc()]
    assert methods == ["ping", "ping", "initialize", "notifications/initialized", "ping"]
    assert fake.mcp_requests[-1].headers["mcp-session-id"] == "good-session"


@pytest.mark.parametrize("token", ["tok\u00e9n", "tok\r\nX-Injected: 1", "t\x00k"])
def test_static_token_that_cannot_be_a_header_is_refused_typed(token: str) -> None:
    """``Settings.problem()`` refuses these first; the transport refuses them anyway."""
    fake = FakeMCP()
    client = MCPClient(url=MCP_URL, credential=StaticToken(token), transport=fake.transport())
    with pytest.raises(RefusedError) as info:
        client.request("ping")
    assert token not in str(info.value) and "authorization" in str(info.value).lower()
    assert fake.log == []


# -- catalog ---------------------------------------------------------------------------------


def test_catalog_drops_only_the_tool_with_a_deep_schema() -> None:
    tools = [tool_spec("search", "query"), {**tool_spec("deep"), "inputSchema": deep_schema(40)}]
    catalog = ToolCatalog.parse({"tools": tools})
    assert set(catalog.tools) == {"search"}
    shallow = {**tool_spec("ok"), "inputSchema": deep_schema(10)}
    assert ToolCatalog.parse({"tools": [shallow]}).has("ok")


def test_cold_burst_fetches_tools_list_once_per_credential() -> None:
    """Workers starting together share one ``tools/list`` (it was one per worker)."""
    release = threading.Event()
    entered = threading.Semaphore(0)
    fake = FakeMCP(tools=[tool_spec("search", "query")])

    def slow_list(message: dict[str, Any], sent: object) -> dict[str, Any]:
        entered.release()
        release.wait(5)
        return {"tools": fake.tools}

    fake.on_rpc["tools/list"] = slow_list
    transport = fake.transport()
    credential = StaticToken("tok")
    clients = [MCPClient(url=MCP_URL, credential=credential, transport=transport) for _ in range(4)]
    results: list[ToolCatalog] = []
    threads = [threading.Thread(target=lambda c=c: results.append(c.catalog())) for c in clients]
    for thread in threads:
        thread.start()
    assert entered.acquire(timeout=5)  # one fetch is in flight
    # Without single flight every worker would be inside tools/list by now.
    assert not entered.acquire(timeout=0.3)
    release.set()
    for thread in threads:
        thread.join(5)
    assert len(fake.rpc("tools/list")) == 1
    assert len(results) == 4 and all(r.has("search") for r in results)


def test_tool_output_is_always_json() -> None:
    """No reply can make the parsed data hold a value ``json.dumps`` writes as invalid JSON."""
    fake = FakeMCP(tools=[tool_spec("search", "query")])
    fake.calls["search"] = lambda args: tool_result([{"slug": "a", "score": 1e308}])
    result = GBrain(fake.static_client()).search("a")
    json.loads(json.dumps([r.score for r in result.rows], allow_nan=False))


def test_an_unexpected_error_below_the_client_api_is_still_typed() -> None:
    """Whatever a credential or parser raises by mistake leaves as a ``GBrainError``."""

    class Broken:
        cache_key = "broken"

        def bearer(self) -> str:
            raise RuntimeError("secret-ish detail")

        def rejected(self, token: str) -> bool:
            return False

    client = MCPClient(url=MCP_URL, credential=Broken(), transport=FakeMCP().transport())
    with pytest.raises(ProtocolError) as info:
        client.request("ping")
    assert "secret-ish" not in str(info.value) and "RuntimeError" in str(info.value)
    with pytest.raises(ProtocolError):
        client.notify("notifications/initialized")


def test_the_bridge_retry_shares_the_call_deadline(tmp_path: Any) -> None:
    """A read retried after a connection failure gets only what is left of the deadline."""
    from hermes_gbrain.settings import Settings
    from hermes_gbrain.toolbridge.bridge import ToolBridge
    from hermes_gbrain.toolbridge.session import write_gate

    # the deadline leaves the retry half its latency: room for a loaded machine's own delays
    # before the retry is sent, never enough for the retry to finish
    latency_s, deadline_s = 1.0, 1.5
    fake = FakeMCP(tools=[tool_spec("get_brain_identity")])
    attempts: list[int] = []

    def slow_then_fail(message: dict[str, Any], sent: object) -> httpx.Response:
        attempts.append(1)
        threading.Event().wait(latency_s)  # the server's latency, as the emulator's knob does it
        if len(attempts) == 1:
            raise httpx.ReadError("connection reset")
        return sse_response({"jsonrpc": "2.0", "id": message["id"], "result": tool_result({})})

    fake.on_rpc["tools/call"] = slow_then_fail
    transport = fake.transport()
    client = MCPClient(
        url=MCP_URL, credential=StaticToken("t"), transport=transport, deadline_s=deadline_s
    )
    brain = GBrain(client)
    brain.catalog()
    bridge = ToolBridge(
        settings=Settings(hermes_home=str(tmp_path), access_token="t"),
        gate=write_gate("read", None, None),
        brain=lambda write: brain,
    )
    answer = json.loads(
        bridge.handle("gbrain_call", {"tool": "get_brain_identity", "arguments": {}})
    )
    assert len(attempts) == 2
    assert "deadline" in answer.get("error", ""), answer
