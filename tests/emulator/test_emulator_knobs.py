"""Each fault knob does what it says (no sleeps: gates and events hold requests open)."""

from __future__ import annotations

import json
import socket
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from urllib.parse import urlsplit

import httpx
import pytest
from emu_client import MCP_HEADERS, Mcp, mint, sse_messages

from hermes_gbrain.emulator import Emulator, RecordedRequest

PING = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
SEARCH = {
    "jsonrpc": "2.0",
    "id": 5,
    "method": "tools/call",
    "params": {"name": "search", "arguments": {"query": "Beacon", "limit": 1}},
}


def _arrival(emu: Emulator) -> threading.Event:
    arrived = threading.Event()

    def on_request(rec: RecordedRequest) -> None:
        arrived.set()

    emu.knobs.on_request = on_request
    return arrived


def test_gate_holds_reply_until_released(emu: Emulator, mcp: Mcp) -> None:
    arrived = _arrival(emu)
    emu.knobs.gate = threading.Event()
    with ThreadPoolExecutor(1) as pool:
        future: Future[httpx.Response] = pool.submit(mcp.post, PING)
        assert arrived.wait(5)
        assert not future.done()
        emu.knobs.gate.set()
        assert future.result(5).status_code == 200


def test_stop_is_prompt_while_a_handler_is_gated(http: httpx.Client) -> None:
    emu = Emulator().start()
    mcp = Mcp(emu, http, emu.mint_token(*emu.register_client("r")))
    arrived = _arrival(emu)
    emu.knobs.gate = threading.Event()  # never set
    with ThreadPoolExecutor(1) as pool:
        future = pool.submit(mcp.post, PING)
        assert arrived.wait(5)
        started = time.monotonic()
        emu.stop()
        assert time.monotonic() - started < 3
        with pytest.raises(httpx.TransportError):
            future.result(5)
    emu.stop()  # idempotent


def test_latency(emu: Emulator, mcp: Mcp) -> None:
    emu.knobs.latency_s = 0.2
    started = time.monotonic()
    assert mcp.post(PING).status_code == 200
    assert time.monotonic() - started >= 0.2


def test_drip_body(emu: Emulator, mcp: Mcp) -> None:
    emu.knobs.drip_interval_s = 0.002
    headers = {**MCP_HEADERS, "Authorization": f"Bearer {mcp.token}"}
    with mcp.http.stream("POST", emu.mcp_url, headers=headers, content=json.dumps(PING)) as r:
        assert r.status_code == 200
        pieces = list(r.iter_raw())
    assert len(pieces) > 5
    assert sse_messages(b"".join(pieces).decode()) == [{"result": {}, "jsonrpc": "2.0", "id": 1}]


def _raw_request(emu: Emulator, token: str, body: bytes) -> socket.socket:
    url = urlsplit(emu.mcp_url)
    sock = socket.create_connection((url.hostname or "127.0.0.1", url.port or 80), timeout=5)
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: {url.netloc}\r\nAuthorization: Bearer {token}\r\n"
        "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    sock.sendall(head.encode() + body)
    return sock


def test_drip_headers(emu: Emulator, mcp: Mcp) -> None:
    emu.knobs.drip_interval_s = 0.05
    emu.knobs.drip_headers = True
    with _raw_request(emu, mcp.token, json.dumps(PING).encode()) as sock:
        first = sock.recv(100)
    assert first == b"H"  # the status line itself arrives one byte at a time


def test_status(emu: Emulator, mcp: Mcp) -> None:
    for code in (500, 502, 503):
        emu.knobs.status = code
        r = mcp.post(PING)
        assert r.status_code == code and "error" in r.json()
    assert emu.requests[-1].status == 503


def test_force_401(emu: Emulator, mcp: Mcp) -> None:
    emu.knobs.force_401 = 2
    for _ in range(2):
        r = mcp.post(PING)
        assert r.status_code == 401
        assert r.json() == {"error": "invalid_token", "error_description": "Invalid token"}
        assert 'error="invalid_token"' in r.headers["www-authenticate"]
    assert mcp.post(PING).status_code == 200
    assert emu.knobs.force_401 == 0


def test_redirect(emu: Emulator, mcp: Mcp) -> None:
    emu.knobs.redirect_to = "http://127.0.0.1:9/elsewhere"
    r = mcp.post(PING)
    assert r.status_code == 307 and r.headers["location"] == "http://127.0.0.1:9/elsewhere"
    emu.knobs.redirect_status = 302
    assert mcp.post(PING).status_code == 302


def test_oversized_body_keeps_valid_framing(emu: Emulator, mcp: Mcp) -> None:
    emu.knobs.oversized_bytes = 200_000
    r = mcp.post(PING)
    assert len(r.content) >= 200_000
    assert int(r.headers["content-length"]) == len(r.content)
    assert sse_messages(r.text) == [{"result": {}, "jsonrpc": "2.0", "id": 1}]


def test_lying_content_length(emu: Emulator, mcp: Mcp) -> None:
    emu.knobs.lying_content_length = 10_000
    with pytest.raises(httpx.RemoteProtocolError):
        mcp.post(PING)


def test_gzip(emu: Emulator, mcp: Mcp) -> None:
    emu.knobs.gzip = True
    headers = {**MCP_HEADERS, "Authorization": f"Bearer {mcp.token}"}
    with mcp.http.stream("POST", emu.mcp_url, headers=headers, content=json.dumps(PING)) as r:
        raw = b"".join(r.iter_raw())
    assert r.headers["content-encoding"] == "gzip"
    assert raw[:2] == b"\x1f\x8b"
    assert sse_messages(mcp.post(PING).text)[0]["id"] == 1  # httpx inflates it


def test_malformed_json(emu: Emulator, mcp: Mcp) -> None:
    emu.knobs.malformed_json = True
    r = mcp.post(PING)
    assert r.status_code == 200 and r.text.startswith("event: message\ndata: ")
    with pytest.raises(json.JSONDecodeError):
        sse_messages(r.text)


def test_malformed_tool_text(emu: Emulator, mcp: Mcp) -> None:
    emu.knobs.malformed_tool_text = True
    (message,) = sse_messages(mcp.post(SEARCH).text)
    with pytest.raises(json.JSONDecodeError):
        json.loads(message["result"]["content"][0]["text"])


def test_wrong_rpc_id(emu: Emulator, mcp: Mcp) -> None:
    emu.knobs.wrong_rpc_id = True
    (message,) = sse_messages(mcp.post(SEARCH).text)
    assert message["id"] != 5


def test_extra_sse_events(emu: Emulator, mcp: Mcp) -> None:
    emu.knobs.extra_sse_events = 4
    text = mcp.post(SEARCH).text
    assert "\n: " in "\n" + text  # a comment line
    assert "\ndata: \n" in text  # an empty-data priming event
    messages = sse_messages(text)
    methods = [m.get("method") for m in messages]
    assert methods[:2] == ["notifications/progress", "notifications/message"]  # multi-line data
    assert messages[-1]["id"] == 5 and "result" in messages[-1]


def test_json_response(emu: Emulator, mcp: Mcp) -> None:
    emu.knobs.json_response = True
    r = mcp.post(SEARCH)
    assert r.headers["content-type"] == "application/json"
    assert r.json()["id"] == 5 and r.json()["result"]["content"]


def test_session_id(emu: Emulator, mcp: Mcp) -> None:
    emu.knobs.session_id = "sess-123"
    init = mcp.post(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {}},
        }
    )
    assert init.headers["mcp-session-id"] == "sess-123"
    assert mcp.post(PING).status_code == 404
    assert mcp.post(PING, headers={"Mcp-Session-Id": "other"}).status_code == 404
    ok = mcp.post(PING, headers={"Mcp-Session-Id": "sess-123"})
    assert ok.status_code == 200 and ok.headers["mcp-session-id"] == "sess-123"


def test_extra_content_blocks(emu: Emulator, mcp: Mcp) -> None:
    emu.knobs.extra_content_blocks = True
    result = mcp.call("search", {"query": "Beacon", "limit": 1})
    assert len(result["content"]) == 2
    assert json.loads(result["content"][0]["text"])[0]["slug"]


def _token_form(emu: Emulator, http: httpx.Client) -> httpx.Response:
    cid, secret = emu.register_client("t")
    return http.post(
        emu.token_url,
        data={"grant_type": "client_credentials", "client_id": cid, "client_secret": secret},
    )


def test_token_status(emu: Emulator, http: httpx.Client) -> None:
    emu.knobs.token_status = 503
    r = _token_form(emu, http)
    assert r.status_code == 503 and "error" in r.json()


def test_token_rate_limit(emu: Emulator, http: httpx.Client) -> None:
    emu.knobs.token_rate_limit = 2
    assert _token_form(emu, http).status_code == 200
    assert _token_form(emu, http).headers["ratelimit-remaining"] == "0"
    limited = _token_form(emu, http)
    assert limited.status_code == 429
    assert limited.json()["error"] == "too_many_requests"
    assert limited.headers["ratelimit-limit"] == "2"
    assert emu.token_requests == 3


def test_token_gate(emu: Emulator, http: httpx.Client) -> None:
    arrived = _arrival(emu)
    emu.knobs.token_gate = threading.Event()
    with ThreadPoolExecutor(1) as pool:
        future = pool.submit(_token_form, emu, http)
        assert arrived.wait(5)
        assert not future.done()
        emu.knobs.token_gate.set()
        assert future.result(5).status_code == 200


def test_reset_knobs(emu: Emulator, mcp: Mcp) -> None:
    emu.knobs.status = 500
    emu.reset_knobs()
    assert mcp.post(PING).status_code == 200


def test_apply_delay_lands_a_write_after_the_client_gave_up(
    emu: Emulator, http: httpx.Client
) -> None:
    """A write held past the client's deadline is still applied; other tools are not held."""
    writer = Mcp(emu, http, mint(emu, "read write"))
    emu.knobs.apply_delay_s = {"put_page": 0.5}
    landed = threading.Event()
    put_page = emu.store.put_page

    def watched(*args: object, **kwargs: object) -> object:
        result = put_page(*args, **kwargs)  # type: ignore[arg-type]
        landed.set()
        return result

    emu.store.put_page = watched  # type: ignore[method-assign]
    try:
        page = {"slug": "notes/slow-apply", "content": "# Slow\n\nLanded late.\n"}
        with pytest.raises(httpx.ReadTimeout):
            writer.http.post(
                emu.mcp_url,
                headers={**MCP_HEADERS, "Authorization": f"Bearer {writer.token}"},
                content=json.dumps(
                    {
                        "jsonrpc": "2.0",
                        "id": 9,
                        "method": "tools/call",
                        "params": {"name": "put_page", "arguments": page},
                    }
                ),
                timeout=0.1,
            )
        assert emu.store.get("notes/slow-apply", ["default"]) is None  # not yet
        assert writer.data("search", {"query": "Beacon", "limit": 1}) is not None  # not held
        assert landed.wait(5)
        stored = emu.store.get("notes/slow-apply", ["default"])
        assert stored is not None and "Landed late." in stored.compiled_truth
    finally:
        del emu.store.put_page
