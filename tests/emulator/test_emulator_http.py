"""HTTP-level behaviour: routes, OAuth, bearer checks, transport errors, JSON-RPC framing."""

from __future__ import annotations

import json
import re

import httpx
from emu_client import MCP_HEADERS, Mcp, mint, sse_messages

from hermes_gbrain.emulator import Emulator

HEX64 = re.compile(r"^[0-9a-f]{64}$")


def _form(emu: Emulator, http: httpx.Client, **fields: str) -> httpx.Response:
    return http.post(emu.token_url, data=fields)


# discovery ------------------------------------------------------------------------------------
def test_health(emu: Emulator, http: httpx.Client) -> None:
    r = http.get(emu.base_url + "/health")
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/json; charset=utf-8"
    assert list(r.json()) == ["status", "version", "engine"]
    assert r.json()["status"] == "ok"


def test_oauth_metadata_documents(emu: Emulator, http: httpx.Client) -> None:
    r = http.get(emu.base_url + "/.well-known/oauth-authorization-server")
    doc = r.json()
    assert doc["issuer"] == emu.base_url + "/"
    assert doc["token_endpoint"] == emu.token_url
    assert doc["revocation_endpoint"] == emu.base_url + "/revoke"
    assert "client_credentials" in doc["grant_types_supported"]
    assert doc["scopes_supported"] == [
        "admin",
        "agent",
        "read",
        "sources_admin",
        "users_admin",
        "write",
    ]
    r = http.get(emu.base_url + "/.well-known/oauth-protected-resource")
    assert list(r.json()) == [
        "resource",
        "authorization_servers",
        "scopes_supported",
        "resource_name",
    ]
    assert http.get(emu.base_url + "/.well-known/oauth-protected-resource/mcp").status_code == 404


# /token ---------------------------------------------------------------------------------------
def test_token_success_shape_and_rate_headers(emu: Emulator, http: httpx.Client) -> None:
    cid, secret = emu.register_client("reader")
    assert cid.startswith("gbrain_cl_") and HEX64.match(cid[10:])
    assert secret.startswith("gbrain_cs_") and HEX64.match(secret[10:])
    r = _form(
        emu,
        http,
        grant_type="client_credentials",
        client_id=cid,
        client_secret=secret,
        scope="read",
    )
    assert r.status_code == 200
    body = r.json()
    assert list(body) == ["access_token", "token_type", "expires_in", "scope"]
    assert body["access_token"].startswith("gbrain_at_") and HEX64.match(body["access_token"][10:])
    assert body["token_type"] == "bearer" and body["expires_in"] == 3600 and body["scope"] == "read"
    assert r.headers["ratelimit-policy"] == "50;w=900"
    assert r.headers["ratelimit-limit"] == "50"
    assert r.headers["ratelimit-remaining"] == "49"
    assert emu.token_requests == 1


def test_token_secrets_are_stored_hashed(emu: Emulator) -> None:
    cid, secret = emu.register_client("reader")
    token = emu.mint_token(cid, secret)
    dump = "\n".join(emu.db.conn.iterdump())
    assert secret not in dump and token not in dump
    assert emu.token_requests == 0  # mint_token does not go through HTTP


def test_token_errors(emu: Emulator, http: httpx.Client) -> None:
    cid, secret = emu.register_client("reader")
    bad = _form(emu, http, grant_type="client_credentials", client_id=cid, client_secret="nope")
    assert (bad.status_code, bad.json()) == (
        400,
        {"error": "invalid_grant", "error_description": "Invalid client secret"},
    )
    unknown = _form(
        emu, http, grant_type="client_credentials", client_id="gbrain_cl_x", client_secret="x"
    )
    assert unknown.json() == {"error": "invalid_grant", "error_description": "Client not found"}
    as_json = http.post(
        emu.token_url,
        json={"grant_type": "client_credentials", "client_id": cid, "client_secret": secret},
    )
    assert as_json.status_code == 400 and as_json.json()["error"] == "invalid_request"
    basic = http.post(emu.token_url, data={"grant_type": "client_credentials"}, auth=(cid, secret))
    assert basic.status_code == 400
    assert basic.json() == {
        "error": "invalid_request",
        "error_description": "client_id and client_secret required",
    }


def test_token_scope_is_filtered_silently(emu: Emulator, http: httpx.Client) -> None:
    cid, secret = emu.register_client("reader", "read")
    r = _form(
        emu,
        http,
        grant_type="client_credentials",
        client_id=cid,
        client_secret=secret,
        scope="write",
    )
    assert r.status_code == 200 and r.json()["scope"] == ""
    wid, wsecret = emu.register_client("writer", "read write")
    r = _form(emu, http, grant_type="client_credentials", client_id=wid, client_secret=wsecret)
    assert r.json()["scope"] == "read write"
    # Implied scopes are granted (GBrain's hasScope): admin implies read and write.
    aid, asecret = emu.register_client("admin", "admin")
    r = _form(
        emu,
        http,
        grant_type="client_credentials",
        client_id=aid,
        client_secret=asecret,
        scope="read write",
    )
    assert r.status_code == 200 and r.json()["scope"] == "read write"


def test_client_token_ttl(emu: Emulator, http: httpx.Client) -> None:
    cid, secret = emu.register_client("short", token_ttl=60)
    r = _form(emu, http, grant_type="client_credentials", client_id=cid, client_secret=secret)
    assert r.json()["expires_in"] == 60


def test_revoke_then_invalid_token(emu: Emulator, http: httpx.Client) -> None:
    cid, secret = emu.register_client("reader")
    token = emu.mint_token(cid, secret)
    mcp = Mcp(emu, http, token)
    assert mcp.rpc("ping")["result"] == {}
    r = http.post(
        emu.base_url + "/revoke", data={"client_id": cid, "client_secret": secret, "token": token}
    )
    assert r.status_code == 200 and r.content == b""
    assert r.headers["cache-control"] == "no-store"
    denied = mcp.post({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    assert denied.status_code == 401
    assert denied.json() == {"error": "invalid_token", "error_description": "Invalid token"}


# bearer failures ------------------------------------------------------------------------------
def _assert_401(r: httpx.Response, emu: Emulator, description: str) -> None:
    assert r.status_code == 401
    assert r.headers["content-type"] == "application/json; charset=utf-8"
    assert r.json() == {"error": "invalid_token", "error_description": description}
    assert r.headers["www-authenticate"] == (
        f'Bearer error="invalid_token", error_description="{description}", '
        f'resource_metadata="{emu.base_url}/.well-known/oauth-protected-resource"'
    )


def test_401_variants(emu: Emulator, http: httpx.Client) -> None:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    missing = http.post(emu.mcp_url, headers=MCP_HEADERS, content=body)
    _assert_401(missing, emu, "Missing Authorization header")
    basic = http.post(
        emu.mcp_url, headers={**MCP_HEADERS, "Authorization": "Basic Zm9vOmJhcg=="}, content=body
    )
    _assert_401(basic, emu, "Invalid Authorization header format, expected 'Bearer TOKEN'")
    made_up = http.post(
        emu.mcp_url, headers={**MCP_HEADERS, "Authorization": "Bearer gbrain_at_x"}, content=body
    )
    _assert_401(made_up, emu, "Invalid token")
    token = mint(emu)
    emu.expire_all_tokens()
    expired = http.post(
        emu.mcp_url, headers={**MCP_HEADERS, "Authorization": f"Bearer {token}"}, content=body
    )
    _assert_401(expired, emu, "Token expired")


def test_revoke_all_tokens(emu: Emulator, mcp: Mcp) -> None:
    emu.revoke_all_tokens()
    assert mcp.post({"jsonrpc": "2.0", "id": 1, "method": "ping"}).status_code == 401


def test_bearer_scheme_is_case_insensitive(mcp: Mcp) -> None:
    r = mcp.post(
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        headers={"Authorization": f"bearer {mcp.token}"},
    )
    assert r.status_code == 200


def test_legacy_key(emu: Emulator, http: httpx.Client) -> None:
    key = emu.create_legacy_key("old-key")
    assert key.startswith("gbrain_") and HEX64.match(key[7:])
    legacy = Mcp(emu, http, key)
    assert legacy.data("whoami") == {
        "transport": "legacy",
        "token_name": "old-key",
        "scopes": ["read"],
        "expires_at": None,
    }
    emu.expire_all_tokens()  # legacy keys never expire
    assert legacy.data("search", {"query": "Beacon", "limit": 1})[0]["slug"]


# transport errors -----------------------------------------------------------------------------
def _sdk_error(r: httpx.Response, status: int, code: int) -> str:
    assert r.status_code == status
    assert r.headers["content-type"] == "application/json"
    body = r.json()
    assert list(body) == ["jsonrpc", "error", "id"] and body["id"] is None
    assert body["error"]["code"] == code
    return str(body["error"]["message"])


def test_406_415_400(mcp: Mcp) -> None:
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    msg = _sdk_error(mcp.post(ping, headers={"Accept": "application/json"}), 406, -32000)
    assert msg == "Not Acceptable: Client must accept both application/json and text/event-stream"
    msg = _sdk_error(mcp.post(ping, headers={"Accept": "*/*"}), 406, -32000)
    msg = _sdk_error(mcp.post(ping, headers={"Content-Type": "text/plain"}), 415, -32000)
    assert msg == "Unsupported Media Type: Content-Type must be application/json"
    bad = mcp.http.post(
        mcp.emu.mcp_url,
        content=b"{not json",
        headers={**MCP_HEADERS, "Authorization": f"Bearer {mcp.token}"},
    )
    assert _sdk_error(bad, 400, -32700) == "Parse error: Invalid JSON"
    msg = _sdk_error(mcp.post(ping, headers={"MCP-Protocol-Version": "1999-01-01"}), 400, -32000)
    assert "Unsupported protocol version: 1999-01-01" in msg and "2025-06-18" in msg
    assert mcp.post(ping, headers={"MCP-Protocol-Version": "2025-06-18"}).status_code == 200


def test_get_delete_options_and_unknown_paths(emu: Emulator, http: httpx.Client) -> None:
    r = http.get(emu.mcp_url)
    assert r.status_code == 405 and r.headers["allow"] == "POST, DELETE"
    assert r.json() == {
        "jsonrpc": "2.0",
        "error": {"code": -32000, "message": "Method not allowed"},
        "id": None,
    }
    r = http.delete(emu.mcp_url)
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert "Cannot DELETE /mcp" in r.text
    assert http.options(emu.mcp_url).text == "GET, HEAD, POST"
    assert http.get(emu.base_url + "/nope").status_code == 404


# JSON-RPC framing -----------------------------------------------------------------------------
def test_sse_framing_and_key_order(mcp: Mcp) -> None:
    r = mcp.post({"jsonrpc": "2.0", "id": 7, "method": "ping"})
    assert r.status_code == 200
    assert r.headers["content-type"] == "text/event-stream"
    assert r.headers["cache-control"] == "no-cache"
    assert "mcp-session-id" not in r.headers
    assert r.text == 'event: message\ndata: {"result":{},"jsonrpc":"2.0","id":7}\n\n'


def test_initialize(mcp: Mcp) -> None:
    msg = mcp.rpc(
        "initialize",
        {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "0"},
        },
    )
    assert msg["result"]["protocolVersion"] == "2025-06-18"
    assert msg["result"]["capabilities"] == {"tools": {}}
    assert msg["result"]["serverInfo"]["name"] == "gbrain"
    assert "instructions" not in msg["result"]
    newer = mcp.rpc("initialize", {"protocolVersion": "2099-01-01", "capabilities": {}})
    assert newer["result"]["protocolVersion"] == "2025-11-25"


def test_notification_is_202_empty(mcp: Mcp) -> None:
    r = mcp.post({"jsonrpc": "2.0", "method": "notifications/initialized"})
    assert r.status_code == 202 and r.content == b""


def test_batch_answers_in_one_stream(mcp: Mcp) -> None:
    r = mcp.post(
        [
            {
                "jsonrpc": "2.0",
                "id": "a",
                "method": "tools/call",
                "params": {"name": "whoami", "arguments": {}},
            },
            {
                "jsonrpc": "2.0",
                "id": "b",
                "method": "tools/call",
                "params": {"name": "get_brain_identity", "arguments": {}},
            },
        ]
    )
    assert r.status_code == 200
    assert r.text.count("event: message\n") == 2
    assert [m["id"] for m in sse_messages(r.text)] == ["a", "b"]


def test_unknown_method(mcp: Mcp) -> None:
    r = mcp.post({"jsonrpc": "2.0", "id": 9, "method": "resources/list"})
    assert r.status_code == 200
    assert sse_messages(r.text) == [
        {"jsonrpc": "2.0", "id": 9, "error": {"code": -32601, "message": "Method not found"}}
    ]


def test_session_id_is_ignored(mcp: Mcp) -> None:
    r = mcp.post(
        {"jsonrpc": "2.0", "id": 1, "method": "ping"}, headers={"Mcp-Session-Id": "made-up-session"}
    )
    assert r.status_code == 200 and "mcp-session-id" not in r.headers


def test_request_log(emu: Emulator, mcp: Mcp) -> None:
    emu.clear_requests()
    mcp.call("search", {"query": "Beacon"})
    (rec,) = emu.requests
    assert (rec.method, rec.path, rec.status) == ("POST", "/mcp", 200)
    assert rec.headers["authorization"] == f"Bearer {mcp.token}"
    assert rec.rpc_method == "tools/call" and rec.tool == "search"
    assert rec.arguments == {"query": "Beacon"}
    assert rec.json["params"]["name"] == "search"
