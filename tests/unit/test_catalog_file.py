"""The tool catalog shared by a profile's processes: one ``tools/list`` per credential,
scope and hour, whatever the number of processes."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

from hermes_gbrain.catalogfile import MAX_AGE_S, CatalogFile
from hermes_gbrain.mcp import MCPClient, clear_catalog_cache
from support.fake_mcp import MCP_URL, STATIC_TOKEN, FakeMCP, tool_spec


def client(fake: FakeMCP, home: Path, scope: str = "read") -> MCPClient:
    return MCPClient(
        url=MCP_URL,
        credential=fake.static(),
        transport=fake.transport(),
        catalog_file=CatalogFile(home, MCP_URL, "", "", STATIC_TOKEN, scope),
    )


def new_process() -> None:
    clear_catalog_cache()


def lists(fake: FakeMCP) -> int:
    return len(fake.rpc("tools/list"))


def fake_server() -> FakeMCP:
    return FakeMCP(tools=[tool_spec("search", "query", "limit"), tool_spec("whoami")])


def test_a_new_process_takes_the_catalog_from_the_profile(tmp_path: Path) -> None:
    fake = fake_server()
    assert client(fake, tmp_path).catalog().has("search")
    for _ in range(3):
        new_process()
        catalog = client(fake, tmp_path).catalog()
        assert catalog.has("search") and catalog.declares("search", "limit")
    assert lists(fake) == 1


def test_the_file_is_private_and_names_no_credential(tmp_path: Path) -> None:
    fake = fake_server()
    made = client(fake, tmp_path)
    made.catalog()
    [path] = (tmp_path / "gbrain").glob("catalog-*.json")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert STATIC_TOKEN not in path.name
    assert STATIC_TOKEN.encode() not in path.read_bytes()


def test_another_scope_has_its_own_catalog(tmp_path: Path) -> None:
    """GBrain lists only what a token's scopes allow: a read catalog never serves admin."""
    fake = fake_server()
    client(fake, tmp_path, "read").catalog()
    new_process()
    client(fake, tmp_path, "admin").catalog()
    assert lists(fake) == 2


def test_an_old_catalog_is_fetched_again(tmp_path: Path) -> None:
    fake = fake_server()
    client(fake, tmp_path).catalog()
    [path] = (tmp_path / "gbrain").glob("catalog-*.json")
    data = json.loads(path.read_bytes())
    data["fetched_at"] = time.time() - MAX_AGE_S - 1
    path.write_text(json.dumps(data))
    os.chmod(path, 0o600)
    new_process()
    client(fake, tmp_path).catalog()
    assert lists(fake) == 2


def test_a_damaged_or_foreign_file_is_a_miss(tmp_path: Path) -> None:
    fake = fake_server()
    client(fake, tmp_path).catalog()
    [path] = (tmp_path / "gbrain").glob("catalog-*.json")
    for content in (b"{broken", b'{"v":1,"key":"someone-else","fetched_at":1,"tools":[]}'):
        path.write_bytes(content)
        new_process()
        assert client(fake, tmp_path).catalog().has("search")
    assert lists(fake) == 3


def test_refresh_asks_the_server_and_rewrites_the_file(tmp_path: Path) -> None:
    fake = fake_server()
    client(fake, tmp_path).catalog()
    fake.tools.append(tool_spec("get_page", "slug"))
    new_process()
    assert client(fake, tmp_path).catalog(refresh=True).has("get_page")
    new_process()
    assert client(fake, tmp_path).catalog().has("get_page")
    assert lists(fake) == 2
