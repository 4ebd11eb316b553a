"""The full GBrain 0.46.28 tool catalog: counts per scope, schema style, unimplemented tools."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from emu_client import Mcp, mint

from hermes_gbrain.emulator import Emulator
from hermes_gbrain.emulator.catalog import CATALOG, tool_specs
from hermes_gbrain.emulator.tools import HANDLERS, build_catalog


def _names(client: Mcp) -> list[str]:
    return [t["name"] for t in client.rpc("tools/list")["result"]["tools"]]


def _envelope(result: dict[str, Any]) -> dict[str, Any]:
    assert result["isError"] is True
    assert len(result["content"]) == 1
    value: dict[str, Any] = json.loads(result["content"][0]["text"])
    return value


@pytest.mark.parametrize(
    ("scopes", "count"),
    [("read", 67), ("write", 89), ("read write", 89), ("admin", 115), ("sources_admin", 2)],
)
def test_tool_counts_per_scope(emu: Emulator, http: httpx.Client, scopes: str, count: int) -> None:
    names = _names(Mcp(emu, http, mint(emu, scopes)))
    assert len(names) == len(set(names)) == count
    admin_order = [spec.name for spec in CATALOG]
    assert names == [n for n in admin_order if n in names]  # same relative order as admin


def test_sources_admin_sees_only_source_management(emu: Emulator, http: httpx.Client) -> None:
    assert _names(Mcp(emu, http, mint(emu, "sources_admin"))) == ["sources_add", "sources_remove"]


def test_every_implemented_tool_is_in_the_catalog() -> None:
    catalog = build_catalog(lean=False)
    assert set(HANDLERS) <= set(catalog)
    assert sum(t.implemented for t in catalog.values()) == len(HANDLERS)


def test_descriptions_are_short_single_sentences() -> None:
    for spec in CATALOG:
        texts = [spec.description] + [p.description for p in spec.params]
        for text in texts:
            assert text.endswith("."), (spec.name, text)
            assert not re.search(r"[.;!?] [A-Z]", text), (spec.name, text)
            assert len(text) <= 140, (spec.name, text)


def test_lean_catalog_adds_fields_to_search_only() -> None:
    plain = {s.name: s for s in tool_specs(lean=False)}
    lean = {s.name: s for s in tool_specs(lean=True)}
    assert list(plain) == list(lean)
    assert [p.name for p in lean["search"].params][-1] == "fields"
    assert all(plain[n] == lean[n] for n in plain if n != "search")


def test_extended_schemas(mcp: Mcp) -> None:
    tools = {t["name"]: t for t in mcp.rpc("tools/list")["result"]["tools"]}
    request = tools["request_tools"]["inputSchema"]["properties"]
    assert request["tools"]["items"]["type"] == "string"
    assert "description" in request["tools"]["items"]
    assert request["surface"]["enum"] == ["verbs", "starter", "full"]
    assert tools["synthesize"]["annotations"]["readOnlyHint"] is True
    assert "include_expired" in tools["recall"]["inputSchema"]["properties"]
    assert tools["get_timeline"]["inputSchema"]["required"] == ["slug"]


def test_unimplemented_tool_answers_unavailable(mcp: Mcp, admin: Mcp) -> None:
    assert _envelope(mcp.call("get_timeline", {"slug": "concepts/crdt"})) == {
        "error": "unavailable",
        "message": "get_timeline is listed but not implemented by the hermes-gbrain emulator",
    }
    assert _envelope(admin.call("get_job", {"id": 7}))["error"] == "unavailable"
    assert _envelope(admin.call("sources_add", {"id": "wiki"}))["error"] == "unavailable"


def test_unimplemented_tool_checks_scope_first(mcp: Mcp, writer: Mcp) -> None:
    denied = mcp.call("submit_job", {"name": "sync"})
    assert denied["content"][0]["text"] == (
        '{"error":"insufficient_scope","message":"Operation submit_job requires \'admin\' scope",'
        '"your_scopes":["read"]}'
    )
    assert denied["isError"] is True
    assert _envelope(mcp.call("add_tag", {"slug": "x", "tag": "y"}))["message"] == (
        "Operation add_tag requires 'write' scope"
    )
    assert _envelope(writer.call("sources_remove", {"id": "wiki"}))["message"] == (
        "Operation sources_remove requires 'sources_admin' scope"
    )


def test_unimplemented_tool_checks_parameters(writer: Mcp, admin: Mcp) -> None:
    missing = _envelope(writer.call("takes_add", {"slug": "concepts/crdt"}))
    assert missing == {"error": "invalid_params", "message": "Missing required parameter: claim"}
    ingest = {"source_type": "a", "source_ref": "b", "pages_updated": [1], "summary": "c"}
    cases = [
        (admin, "get_job", {"id": "7"}, 'Parameter "id" must be a number'),
        (writer, "put_raw_data", {"slug": "a", "source": "b", "data": "c"}, "must be an object"),
        (admin, "schema_apply_mutations", {"pack": "p", "mutations": ["x"]}, "array of objects"),
        (writer, "log_ingest", ingest, "must be an array of strings"),
        (writer, "add_link", {"from": "a", "to": "b", "link_type": 3}, '"link_type" must be'),
    ]
    for client, tool, args, message in cases:
        envelope = _envelope(client.call(tool, args))
        assert envelope["error"] == "invalid_params" and message in envelope["message"], tool
    take = {"slug": "a", "claim": "b", "kind": "guess", "holder": "world"}
    bad_enum = _envelope(writer.call("takes_add", take))
    assert bad_enum["message"] == 'Parameter "kind" must be one of: fact, take, bet, hunch'


def test_unimplemented_tool_unknown_argument_warn_and_reject(mcp: Mcp, http: httpx.Client) -> None:
    warned = _envelope(mcp.call("get_timeline", {"slug": "concepts/crdt", "bogus": 1}))
    assert warned["error"] == "unavailable"
    with Emulator(strict_params="reject") as emu:
        strict = Mcp(emu, http, mint(emu))
        rejected = _envelope(strict.call("get_timeline", {"slug": "concepts/crdt", "bogus": 1}))
        assert rejected["error"] == "invalid_params"
        assert rejected["message"] == 'Unknown parameter "bogus" for get_timeline'
        schemas = strict.rpc("tools/list")["result"]["tools"]
        assert all(t["inputSchema"]["additionalProperties"] is False for t in schemas)
