"""Replay: compare emulator reply shapes with the recorded GBrain 0.46.28 exchanges.

The recordings live beside the repository (``../shared/gbrain-contract``, or wherever
``GBRAIN_CONTRACT_DIR`` points); without them this module is skipped.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from emu_client import Mcp, sse_messages

pytestmark = pytest.mark.contract

_DIR = Path(
    os.environ.get("GBRAIN_CONTRACT_DIR")
    or Path(__file__).resolve().parents[3] / "shared" / "gbrain-contract"
)
if not (_DIR / "INDEX.md").exists():
    pytest.skip(f"GBrain contract recordings not found at {_DIR}", allow_module_level=True)


def _recorded(name: str) -> tuple[int, dict[str, str], str]:
    raw = (_DIR / name).read_text(encoding="utf-8")
    response = raw.split("\n", 2)[2].lstrip("\n")
    head, _, body = response.partition("\r\n\r\n")
    if not body and "\n\n" in response:
        head, _, body = response.partition("\n\n")
    lines = head.replace("\r\n", "\n").split("\n")
    status = int(lines[0].split()[1])
    headers = {k.lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines[1:])}
    return status, headers, body


def _tool_value(body: str) -> tuple[dict[str, Any], Any]:
    (message,) = sse_messages(body)
    result = message["result"]
    return result, json.loads(result["content"][0]["text"])


@pytest.mark.parametrize(
    ("recording", "tool", "arguments"),
    [
        ("30-search-snippet1.http", "search", {"query": "Driftwood Sync", "snippet_chars": 1}),
        ("39-query-keyword-only.http", "query", {"query": "clock skew", "snippet_chars": 80}),
        ("40-get-page.http", "get_page", {"slug": "people/maya-okafor"}),
        ("43-list-pages.http", "list_pages", {}),
        ("45-get-brain-identity.http", "get_brain_identity", {}),
        ("46-whoami.http", "whoami", {}),
        ("47-sources-list.http", "sources_list", {}),
        ("50-fetch.http", "fetch", {"id": "concepts/crdt"}),
        ("51-entity.http", "entity", {"name": "Maya Okafor"}),
        ("55-get-backlinks.http", "get_backlinks", {"slug": "concepts/crdt"}),
        ("57-get-tags.http", "get_tags", {"slug": "concepts/crdt"}),
    ],
)
def test_tool_result_keys_match(
    mcp: Mcp, recording: str, tool: str, arguments: dict[str, Any]
) -> None:
    status, headers, body = _recorded(recording)
    recorded_result, recorded_value = _tool_value(body)
    response = mcp.post(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": tool, "arguments": arguments},
        }
    )
    assert response.status_code == status
    assert response.headers["content-type"] == headers["content-type"]
    ours, value = _tool_value(response.text)
    assert list(ours) == list(recorded_result)
    if isinstance(recorded_value, dict):
        assert set(recorded_value) <= set(value) | {"resolved_slug"}
    elif recorded_value and isinstance(recorded_value[0], dict):
        assert value
        required = set(recorded_value[0]) - {"title_match_boost", "exact_lookup", "backlink_boost"}
        assert required <= set(value[0])
    else:
        assert isinstance(value, list)


@pytest.mark.parametrize(
    ("recording", "payload", "headers"),
    [
        ("71-unknown-method.http", {"jsonrpc": "2.0", "id": 9, "method": "resources/list"}, {}),
        ("24-mcp-ping.http", {"jsonrpc": "2.0", "id": 3, "method": "ping"}, {}),
        (
            "83-406-accept-json-only.http",
            {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            {"Accept": "application/json"},
        ),
        (
            "84-415-wrong-content-type.http",
            {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            {"Content-Type": "text/plain"},
        ),
        (
            "86-400-bad-protocol-version.http",
            {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            {"MCP-Protocol-Version": "1999-01-01"},
        ),
    ],
)
def test_exact_bodies_match(
    mcp: Mcp, recording: str, payload: Any, headers: dict[str, str]
) -> None:
    status, recorded_headers, body = _recorded(recording)
    response = mcp.post(payload, headers=headers)
    assert response.status_code == status
    assert response.headers["content-type"] == recorded_headers["content-type"]
    assert response.text.strip() == body.strip()
