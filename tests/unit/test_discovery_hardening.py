"""The discovery refresh and cache against hostile schemas, and what its cache key covers."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from hermes_gbrain.api import GBrain
from hermes_gbrain.settings import Settings
from hermes_gbrain.toolbridge import session as session_module
from hermes_gbrain.toolbridge.discovery import (
    CACHE_NAME,
    credential_key,
    data_dir,
    load_discovery,
    save_discovery,
)
from hermes_gbrain.toolbridge.session import ToolSession, write_gate
from support.fake_mcp import FakeMCP, tool_spec


def deep_schema(levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"x": schema}}
    return schema


def settings(home: Path, **kw: Any) -> Settings:
    return Settings(hermes_home=str(home), access_token="t0ken", tools_expose="all", **kw)


@pytest.fixture
def thread_errors(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[BaseException]]:
    """Exceptions that kill a thread (Hermes would print their traceback on the terminal)."""
    seen: list[BaseException] = []
    monkeypatch.setattr(
        threading, "excepthook", lambda args: seen.append(args.exc_value or Exception())
    )
    yield seen


def refreshed_session(home: Path, fake: FakeMCP) -> ToolSession:
    session = ToolSession()
    brain = GBrain(fake.static_client())
    session._brain = lambda settings, write: brain  # type: ignore[method-assign]
    session.start(settings(home), write_gate("read", None, None))
    assert session.refreshed.wait(10), "the refresh never finished"
    return session


def test_refresh_drops_only_the_deep_tool(tmp_path: Path, thread_errors: list[Any]) -> None:
    deep = {**tool_spec("deep_tool"), "inputSchema": deep_schema(60)}
    fake = FakeMCP(tools=[tool_spec("search", "query"), tool_spec("list_pages"), deep])
    session = refreshed_session(tmp_path, fake)
    assert session.refresh_error is None and thread_errors == []
    cached = load_discovery(tmp_path, credential_key(settings(tmp_path)))
    assert cached is not None and {t.name for t in cached.tools} == {"search", "list_pages"}
    names = {s["name"] for s in ToolSession().schemas(settings(tmp_path))}
    assert "gbrain_search" in names and "gbrain_list_pages" in names


def test_refresh_survives_a_reply_too_deep_to_parse(
    tmp_path: Path, thread_errors: list[Any]
) -> None:
    schema = "{" + '"a":{' * 10_000 + "}" * 10_000 + "}"
    body = (
        'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"x",'
        f'"inputSchema":{schema}}}]}}}}\n\n'
    )
    fake = FakeMCP(
        script=[httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)]
    )
    session = refreshed_session(tmp_path, fake)
    assert session.refresh_error is not None and thread_errors == []


def test_refresh_thread_never_dies(
    tmp_path: Path, thread_errors: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode(*args: object, **kwargs: object) -> None:
        raise RecursionError("deep")

    monkeypatch.setattr(session_module, "discover", explode)
    session = refreshed_session(tmp_path, FakeMCP())
    assert session.refresh_error == "RecursionError" and thread_errors == []


@pytest.mark.parametrize("levels", [60, 10_000])
def test_a_cached_deep_schema_never_leaves_a_session_without_tools(
    tmp_path: Path, levels: int
) -> None:
    config = settings(tmp_path)
    deep = '{"type":"object","properties":{"x":' * levels + "{}" + "}}" * levels
    search = json.dumps(tool_spec("search", "query"))
    path = data_dir(tmp_path) / CACHE_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f'{{"format":1,"key":"{credential_key(config)}","scopes":["read"],"tools":'
        f'[{search},{{"name":"deep_tool","description":"d","inputSchema":{deep}}}]}}'
    )
    names = {s["name"] for s in ToolSession().schemas(config)}
    assert {"gbrain_search", "gbrain_tools", "gbrain_call"} <= names
    assert "gbrain_deep_tool" not in names


def test_discovery_key_covers_every_part_of_the_credential(tmp_path: Path) -> None:
    """A rotated secret (or id, or token) must not inherit the old credential's scopes."""
    oauth = Settings(hermes_home=str(tmp_path), client_id="cl-a", client_secret="cs-a")
    base = credential_key(oauth)
    variants = [
        Settings(hermes_home=str(tmp_path), client_id="cl-a", client_secret="cs-b"),
        Settings(hermes_home=str(tmp_path), client_id="cl-b", client_secret="cs-a"),
        Settings(hermes_home=str(tmp_path), access_token="tok-a"),
        Settings(hermes_home=str(tmp_path), access_token="tok-b"),
        Settings(
            hermes_home=str(tmp_path),
            client_id="cl-a",
            client_secret="cs-a",
            mcp_url="http://127.0.0.1:9/mcp",
        ),
    ]
    keys = {base, *(credential_key(v) for v in variants)}
    assert len(keys) == 1 + len(variants)
    assert credential_key(oauth) == base


def test_a_cache_file_with_odd_values_is_a_miss_not_a_crash(tmp_path: Path) -> None:
    """``fetched_at`` of 10**400 is valid JSON but no float: the cache is simply missed."""
    config = settings(tmp_path)
    path = data_dir(tmp_path) / CACHE_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    search = json.dumps(tool_spec("search", "query"))
    path.write_text(
        f'{{"format":1,"key":"{credential_key(config)}","fetched_at":1{"0" * 400},'
        f'"tools":[{search}]}}'
    )
    assert load_discovery(tmp_path, credential_key(config)) is None
    assert {s["name"] for s in ToolSession().schemas(config)} >= {"gbrain_search", "gbrain_call"}


def test_a_burst_of_sessions_shares_one_refresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sessions starting while a refresh runs follow it: one thread and one tools/list per
    credential, however many sessions (a hung brain would otherwise hold one per session)."""
    gate, calls, spawned = threading.Event(), [], []
    real = session_module.discover

    def held(brain: GBrain, s: Settings, **kwargs: Any) -> Any:
        calls.append(s)
        assert gate.wait(10)
        return real(brain, s, **kwargs)

    def spawn(fn: Any, name: str) -> threading.Thread:
        spawned.append(name)
        return threading.Thread(target=fn, name=name, daemon=True)

    monkeypatch.setattr(session_module, "discover", held)
    brain = GBrain(FakeMCP(tools=[tool_spec("search", "query")]).static_client())
    sessions = []
    for _ in range(5):
        session = ToolSession(spawn=spawn)
        session._brain = lambda settings, write: brain  # type: ignore[method-assign]
        session.start(settings(tmp_path), write_gate("read", None, None))
        sessions.append(session)
    assert not any(s.refreshed.is_set() for s in sessions)
    gate.set()
    for session in sessions:
        assert session.refreshed.wait(10)
        assert session.refresh_error is None
        assert session.bridge is not None and session.bridge.discovery is not None
    assert len(calls) == 1 and spawned == ["gbrain-discovery"]
    # Once it is over, a session starting within the hour takes what it learned.
    late = ToolSession(spawn=spawn)
    late._brain = lambda settings, write: brain  # type: ignore[method-assign]
    late.start(settings(tmp_path), write_gate("read", None, None))
    assert late.refreshed.is_set() and late.discovered is not None and len(calls) == 1
    # An older discovery is refreshed again (nothing is left in flight).
    found = load_discovery(tmp_path, credential_key(settings(tmp_path)))
    assert found is not None
    save_discovery(tmp_path, replace(found, fetched_at=found.fetched_at - 2 * 3600))
    later = ToolSession(spawn=spawn)
    later._brain = lambda settings, write: brain  # type: ignore[method-assign]
    later.start(settings(tmp_path), write_gate("read", None, None))
    assert later.refreshed.wait(10) and len(calls) == 2
