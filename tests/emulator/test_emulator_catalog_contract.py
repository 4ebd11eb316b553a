"""Compare the emulator's ``tools/list`` per scope with GBrain 0.46.28's recorded lists.

Names, order, parameter names, types, enums, required lists and annotation hints must match
``tools-list-read.json`` (read token) and ``tools-list-admin.json`` (admin token); descriptions
are our own and must differ from GBrain's. The recordings live beside the repository
(``../shared/gbrain-contract``, or wherever ``GBRAIN_CONTRACT_DIR`` points); without them this
module is skipped.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import httpx
import pytest
from emu_client import Mcp, mint

from hermes_gbrain.emulator import Emulator

pytestmark = pytest.mark.contract

_DIR = Path(
    os.environ.get("GBRAIN_CONTRACT_DIR")
    or Path(__file__).resolve().parents[3] / "shared" / "gbrain-contract"
)
if not (_DIR / "tools-list-admin.json").exists():
    pytest.skip(
        f"recorded GBrain tools/list files not found at {_DIR}; set GBRAIN_CONTRACT_DIR",
        allow_module_level=True,
    )


def _recorded(scope: str) -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = json.loads(
        (_DIR / f"tools-list-{scope}.json").read_text(encoding="utf-8")
    )
    return tools


def _facts(tool: dict[str, Any]) -> dict[str, Any]:
    """A tools/list entry without its prose: descriptions and annotation titles dropped."""
    schema = tool["inputSchema"]
    properties = {}
    for name, prop in schema["properties"].items():
        fact = {k: v for k, v in prop.items() if k != "description"}
        if "items" in fact:
            fact["items"] = {k: v for k, v in fact["items"].items() if k != "description"}
        properties[name] = fact
    hints = {k: v for k, v in (tool.get("annotations") or {}).items() if k != "title"}
    return {
        "name": tool["name"],
        "properties": properties,
        "property_order": list(properties),
        "required": schema.get("required", []),
        "hints": hints,
    }


@pytest.mark.parametrize("scope", ["read", "admin"])
def test_catalog_matches_recording(emu: Emulator, http: httpx.Client, scope: str) -> None:
    recorded = _recorded(scope)
    ours = Mcp(emu, http, mint(emu, scope)).rpc("tools/list")["result"]["tools"]
    assert [t["name"] for t in ours] == [t["name"] for t in recorded]
    for mine, theirs in zip(ours, recorded, strict=True):
        assert _facts(mine) == _facts(theirs)
        assert list(mine) == list(theirs)  # name, description, inputSchema[, annotations]


@pytest.mark.parametrize("scope", ["read", "admin"])
def test_descriptions_are_our_own(emu: Emulator, http: httpx.Client, scope: str) -> None:
    recorded = {t["name"]: t for t in _recorded(scope)}
    ours = Mcp(emu, http, mint(emu, scope)).rpc("tools/list")["result"]["tools"]
    for mine in ours:
        theirs = recorded[mine["name"]]
        assert mine["description"] != theirs["description"], mine["name"]
        if "annotations" in mine:
            assert mine["annotations"]["title"] != theirs["annotations"]["title"]
        for name, prop in mine["inputSchema"]["properties"].items():
            other = theirs["inputSchema"]["properties"][name].get("description")
            assert prop["description"] != other, (mine["name"], name)


def test_write_token_sees_read_plus_write_tools(emu: Emulator, http: httpx.Client) -> None:
    admin = [t["name"] for t in _recorded("admin")]
    read = {t["name"] for t in _recorded("read")}
    write = Mcp(emu, http, mint(emu, "read write")).rpc("tools/list")["result"]["tools"]
    names = [t["name"] for t in write]
    assert read <= set(names) and len(names) == 89
    assert names == [n for n in admin if n in set(names)]
