"""The gbrain_* tool bridge through real hermes-agent 0.19.0 MemoryManager and the emulator."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from hermes_gbrain.adapters.provider import GBrainMemoryProvider
from hermes_gbrain.commands.install import install
from hermes_gbrain.connect import open_brain
from hermes_gbrain.emulator import Emulator
from hermes_gbrain.emulator.faults import RecordedRequest
from hermes_gbrain.errors import DeadlineError, TransportError
from hermes_gbrain.files import data_dir
from hermes_gbrain.toolbridge.bridge import MAX_CALL_CHARS, MAX_PAGE_CHARS
from hermes_gbrain.toolbridge.deletes import DeleteTokens
from hermes_gbrain.toolbridge.outbox import DB_NAME, Entry, Outbox, OutboxWorker
from hermes_gbrain.toolbridge.schemas import COMPACT, WRITE_COMPACT
from support.hermes_driver import PRIMARY_INIT_KWARGS, load_provider
from support.hermes_home import HermesHome

WAIT = 5.0
READ_NAMES = [s["name"] for s in COMPACT]
WRITE_NAMES = [s["name"] for s in WRITE_COMPACT]


def _profile(
    home: HermesHome, emu: Emulator, scopes: str = "read write", **env: str
) -> dict[str, str]:
    values = {
        **emu.client_env(f"tools-{home.path.name}-{scopes}", scopes=scopes),
        "GBRAIN_POINTER_ALLOW_HTTP": "1",
        "GBRAIN_TOOLS": "write",
        **env,
    }
    home.write_env(values)
    install("gbrain", home.path)
    home.write_config("gbrain")
    return values


class Session:
    """A real MemoryManager holding the gbrain provider (initialized unless told not to)."""

    def __init__(self, *, initialize: bool = True, **init: Any) -> None:
        from agent.memory_manager import MemoryManager

        self.provider = load_provider("gbrain")
        assert isinstance(self.provider, GBrainMemoryProvider)
        self.manager = MemoryManager()
        self.manager.add_provider(self.provider)
        if initialize:
            self.manager.initialize_all(session_id="s1", **{**PRIMARY_INIT_KWARGS, **init})
            assert self.tools.session.refreshed.wait(WAIT)

    @property
    def tools(self) -> Any:
        return self.provider._tools

    def names(self) -> list[str]:
        return [s["name"] for s in self.manager.get_all_tool_schemas()]

    def call(self, name: str, **args: Any) -> dict[str, Any]:
        raw = self.manager.handle_tool_call(name, args)
        assert isinstance(raw, str)
        out = json.loads(raw)
        assert isinstance(out, dict)
        return out

    def close(self) -> None:
        self.manager.shutdown_all()


@pytest.fixture
def session_factory() -> Iterator[Any]:
    made: list[Session] = []

    def make(**kwargs: Any) -> Session:
        made.append(Session(**kwargs))
        return made[-1]

    yield make
    for s in made:
        s.close()


def tools_sent(emu: Emulator) -> list[str]:
    return [r.tool for r in emu.requests if r.tool]


# -- schemas before initialize, scope-based offering, collisions -------------------------


def test_schemas_are_offered_before_initialize_without_network(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    _profile(hermes_home, emu, GBRAIN_TOOLS="read")
    emu.clear_requests()
    s = session_factory(initialize=False)
    assert s.names() == READ_NAMES
    assert emu.requests == []  # add_provider asked for schemas: nothing was sent
    # Hermes routes by what it saw at add_provider: every name reaches the provider.
    assert set(s.manager._tool_to_provider) == set(READ_NAMES)


def test_write_mode_without_cache_learns_the_scopes_at_initialize(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    _profile(hermes_home, emu, scopes="read")  # GBRAIN_TOOLS=write, but a read-only client
    first = session_factory(initialize=False)
    assert first.names() == READ_NAMES + WRITE_NAMES  # nothing cached: the routing set
    first.manager.initialize_all(session_id="s1", **PRIMARY_INIT_KWARGS)
    # initialize asked the server (tools/list, whoami): the model is offered no write tool.
    assert {"tools/list"} <= {r.rpc_method for r in emu.requests}
    assert "whoami" in tools_sent(emu)
    assert first.names() == READ_NAMES
    out = first.call("gbrain_put_page", slug="notes/x", content="# X\n")  # still routed
    assert "read-only" in out["error"]
    assert "put_page" not in tools_sent(emu)
    second = session_factory(initialize=False)  # the discovery is cached now
    assert second.names() == READ_NAMES


def test_write_tools_only_where_writes_can_succeed(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    _profile(hermes_home, emu)  # a read+write client
    assert session_factory().names() == READ_NAMES + WRITE_NAMES
    for context in ({"agent_context": "subagent"}, {"platform": "cron"}):
        s = session_factory(initialize=False)
        assert s.names() == READ_NAMES + WRITE_NAMES  # routed before initialize ...
        s.manager.initialize_all(session_id="s2", **{**PRIMARY_INIT_KWARGS, **context})
        assert s.names() == READ_NAMES  # ... but not offered to the model


def test_write_tools_are_not_offered_while_the_scopes_are_unknown(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    _profile(hermes_home, emu)
    emu.knobs.status = 503  # GBrain is down when the session starts: scopes unknown
    s = session_factory()
    assert s.names() == READ_NAMES
    emu.knobs.status = None  # back, but this session never learned the scopes
    emu.clear_requests()
    out = s.call("gbrain_call", tool="add_tag", arguments={"slug": "a/b", "tag": "x"})
    assert "not known yet" in out["error"]
    assert "add_tag" not in tools_sent(emu)


def test_tools_off_offers_nothing(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    _profile(hermes_home, emu, GBRAIN_TOOLS="off")
    assert session_factory().names() == []


def test_expose_all_offers_every_discovered_tool_after_a_refresh(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    _profile(hermes_home, emu, scopes="read", GBRAIN_TOOLS="read", GBRAIN_TOOLS_EXPOSE="all")
    session_factory()  # refresh writes the cache
    names = session_factory(initialize=False).names()
    assert "gbrain_list_pages" in names and "gbrain_get_backlinks" in names
    assert "gbrain_put_page" not in names and "gbrain_delete_page" not in names
    out = session_factory().call("gbrain_list_pages", limit=2)
    assert out["tool"] == "list_pages" and len(out["result"]) == 2


def test_no_name_collides_with_hermes_core_tools_and_hermes_rejects_collisions(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    from agent.memory_manager import MemoryManager
    from agent.memory_provider import MemoryProvider
    from toolsets import _HERMES_CORE_TOOLS

    _profile(hermes_home, emu, GBRAIN_TOOLS_EXPOSE="all")
    session_factory()
    names = session_factory(initialize=False).names()
    assert len(names) > 20
    assert not set(names) & set(_HERMES_CORE_TOOLS)
    assert all(n.startswith("gbrain_") for n in names)

    class Colliding(MemoryProvider):
        name = "colliding"

        def is_available(self) -> bool:
            return True

        def initialize(self, session_id: str, **kwargs: Any) -> None:
            pass

        def get_tool_schemas(self) -> list[dict[str, Any]]:
            return [{"name": "terminal", "description": "x", "parameters": {"type": "object"}}]

    mgr = MemoryManager()
    mgr.add_provider(Colliding())
    assert "terminal" not in mgr._tool_to_provider
    assert mgr.get_all_tool_schemas() == []


# -- routing of every tool -------------------------------------------------------------


def test_every_tool_routes_through_the_manager(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    _profile(hermes_home, emu)
    s = session_factory()
    assert s.names() == READ_NAMES + WRITE_NAMES

    found = s.call("gbrain_search", query="Maya Okafor", limit=3)
    assert 1 <= len(found["rows"]) <= 3
    assert found["rows"][0]["ref"].startswith("[default:")
    assert all(len(r.get("snippet", "")) <= 240 for r in found["rows"])

    page = s.call("gbrain_get_page", slug="people/maya-okafor")
    assert page["title"] and page["text"] and "truncated" not in page

    listed = s.call("gbrain_tools")
    assert {"search", "list_pages", "get_backlinks"} <= {t["name"] for t in listed["tools"]}
    assert s.call("gbrain_tools", filter="backlink")["count"] >= 1

    # gbrain_call reaches a tool outside the compact set.
    emu.clear_requests()
    back = s.call("gbrain_call", tool="get_backlinks", arguments={"slug": "people/maya-okafor"})
    assert back["tool"] == "get_backlinks" and isinstance(back["result"], list)
    assert tools_sent(emu) == ["get_backlinks"]

    queued = s.call("gbrain_put_page", slug="notes/bridge-test", content="# Bridge\n\nHello.\n")
    assert queued["queued"] is True and queued["id"].startswith("w_")
    assert s.tools.session.bridge.worker.wait_idle(WAIT)
    assert emu.store.get("notes/bridge-test", ["default"]) is not None

    preview = s.call("gbrain_delete_page", slug="notes/bridge-test")
    assert (
        preview["preview"]["title"] == "Bridge Test"
    )  # GBrain titles from the slug, not the heading
    done = s.call("gbrain_delete_page", slug="notes/bridge-test", confirm=preview["confirm"])
    assert done["deleted"] is True
    assert emu.store.get("notes/bridge-test", ["default"]) is None


def test_progress_events_before_the_result_are_handled(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    _profile(hermes_home, emu, GBRAIN_TOOLS="read")
    s = session_factory()
    emu.knobs.extra_sse_events = 3
    assert s.call("gbrain_search", query="Kestrel")["rows"]


# -- validation and errors ------------------------------------------------------------------


def test_argument_validation_errors_send_nothing(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    _profile(hermes_home, emu, GBRAIN_TOOLS="read")
    s = session_factory()
    emu.clear_requests()
    out = s.call("gbrain_search", limit=3)
    assert out["error"] == "invalid arguments for gbrain_search; nothing was sent"
    assert "missing required argument 'query'" in out["problems"]
    bad = s.call("gbrain_call", tool="list_pages", arguments={"limit": "5"})
    assert bad["problems"] == ["limit must be number"]
    assert "limit" in bad["parameters"]
    unknown = s.call("gbrain_call", tool="list_page", arguments={})
    assert "list_pages" in unknown["did_you_mean"]
    assert tools_sent(emu) == []


def test_is_error_results_become_clear_error_strings(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    _profile(hermes_home, emu, scopes="read", GBRAIN_TOOLS="read")
    s = session_factory()
    missing = s.call("gbrain_get_page", slug="people/nobody-at-all")
    assert missing["error"] == "GBrain get_page failed (page_not_found)"
    # A write tool through gbrain_call in read mode: refused locally.
    refused = s.call("gbrain_call", tool="put_page", arguments={"slug": "a/b", "content": "x"})
    assert "GBRAIN_TOOLS=read" in refused["error"]
    emu.knobs.status = 503
    down = s.call("gbrain_search", query="Kestrel")
    assert down["error"].startswith("GBrain is unavailable")


def test_writes_never_from_subagent_or_cron(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    _profile(hermes_home, emu)
    sub = session_factory(agent_context="subagent")
    assert "subagent" in sub.call("gbrain_put_page", slug="a/b", content="x")["error"]
    cron = session_factory(platform="cron")
    assert "cron" in cron.call("gbrain_delete_page", slug="a/b")["error"]
    assert sub.tools.session.bridge.outbox is None  # no worker, no replay from there
    assert "put_page" not in tools_sent(emu)


# -- bounded outputs --------------------------------------------------------------------------


def test_outputs_are_bounded(hermes_home: HermesHome, emu: Emulator, session_factory: Any) -> None:
    _profile(hermes_home, emu)
    big = "# Big\n\n" + ("lorem ipsum dolor sit amet " * 2000)
    emu.store.put_page("notes/big-page", big)
    s = session_factory()
    page = s.call("gbrain_get_page", slug="notes/big-page")
    assert page["truncated"] is True and len(page["text"]) == 4000
    assert "max_chars" in page["note"]
    capped = s.call("gbrain_get_page", slug="notes/big-page", max_chars=10**9)
    assert len(capped["text"]) == MAX_PAGE_CHARS
    raw = s.call("gbrain_call", tool="get_page", arguments={"slug": "notes/big-page"})
    assert raw["truncated"] is True and len(raw["result_text"]) == MAX_CALL_CHARS
    rows = s.call("gbrain_search", query="lorem", limit=500)["rows"]
    assert len(rows) <= 20


# -- two-step delete ----------------------------------------------------------------------


def test_two_step_delete_refusals(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    _profile(hermes_home, emu)
    s = session_factory()
    now = [0.0]
    s.tools.session.bridge.deletes = DeleteTokens(ttl_s=60.0, clock=lambda: now[0])
    for slug in ("notes/del-a", "notes/del-b"):
        emu.store.put_page(slug, f"# {slug}\n\nbody\n")

    def preview(slug: str) -> str:
        out = s.call("gbrain_delete_page", slug=slug)
        assert out["preview"]["slug"] == slug and out["expires_in_s"] == 60
        return str(out["confirm"])

    def refused(slug: str, token: str) -> str:
        out = s.call("gbrain_delete_page", slug=slug, confirm=token)
        assert out["deleted"] is False
        return str(out["code"])

    emu.clear_requests()
    assert refused("notes/del-a", "del_forged") == "unknown_token"
    token = preview("notes/del-a")
    assert refused("notes/del-b", token) == "slug_mismatch"  # and the token survives
    now[0] = 61.0
    assert refused("notes/del-a", token) == "expired"
    now[0] = 0.0
    token = preview("notes/del-a")
    emu.store.put_page("notes/del-a", "# del-a\n\nedited since the preview\n")
    assert refused("notes/del-a", token) == "page_changed"
    token = preview("notes/del-a")
    emu.store.soft_delete("notes/del-a", "default")
    assert refused("notes/del-a", token) == "page_gone"
    assert refused("notes/del-a", token) == "unknown_token"  # used up
    assert "delete_page" not in tools_sent(emu)
    # Happy path, and a replayed token does nothing more.
    token = preview("notes/del-b")
    assert s.call("gbrain_delete_page", slug="notes/del-b", confirm=token)["deleted"] is True
    assert refused("notes/del-b", token) == "unknown_token"
    assert tools_sent(emu).count("delete_page") == 1


# -- the outbox: durability, crash replay, exactly-once -------------------------------------


class _Crash(BaseException):
    """Ends the worker thread the way a killed process would: no bookkeeping after it."""


def _puts(emu: Emulator, slug: str) -> list[RecordedRequest]:
    return [
        r for r in emu.requests if r.tool == "put_page" and (r.arguments or {}).get("slug") == slug
    ]


def _crash_once(s: Session, crash: str, emu: Emulator) -> dict[str, Any]:
    """Queue a write and kill its worker at ``crash``; returns the queued reply."""
    session = s.tools.session
    bridge = session.bridge
    bridge.worker.stop()
    settings = bridge.settings
    died = threading.Event()

    def send(entry: Entry) -> None:
        if crash == "before_send":
            died.set()
            raise _Crash
        if crash == "after_send_before_reply":
            # The server applies the write but is slow to answer; the process dies waiting.
            emu.knobs.drip_interval_s = 0.3
            slow = open_brain(settings, scope="read write", deadline_s=0.2)
            with pytest.raises((DeadlineError, TransportError)):
                slow.put_page(entry.slug, entry.content)
            emu.knobs.drip_interval_s = 0.0
            died.set()
            raise _Crash
        session._send(settings, entry)  # answered; the process dies before marking the row
        died.set()
        raise _Crash

    worker = OutboxWorker(
        bridge.outbox, settings.mcp_url, send, observe=lambda e: session._observe(settings, e)
    )
    bridge.worker = worker
    threading.excepthook, saved = (lambda args: None), threading.excepthook
    try:
        out = s.call("gbrain_put_page", slug=SLUG, content=CONTENT)
        worker.start()
        assert died.wait(WAIT)
        worker._thread.join(WAIT)  # type: ignore[union-attr]
    finally:
        threading.excepthook = saved
    assert bridge.outbox.get(out["id"]).state == "inflight"  # no bookkeeping after the crash
    return out


def _restart(hermes_home: HermesHome, session_factory: Any) -> Session:
    """A new Hermes start once the dead worker's lease has run out: it replays the row."""
    path = data_dir(hermes_home.path) / DB_NAME
    Outbox(path, lease_s=0.0).close()  # its recovery, as if the dead worker's lease ran out
    again: Session = session_factory()
    assert again.tools.session.bridge.worker.wait_idle(WAIT)
    return again


SLUG = "notes/crash-probe"
CONTENT = "---\ntype: note\ntags: [probe]\n---\n# Crash probe\n\nWritten once.\n"
CRASH_POINTS = ["before_send", "after_send_before_reply", "after_reply_before_update"]


@pytest.mark.parametrize("crash", CRASH_POINTS)
def test_a_write_is_delivered_exactly_once_whatever_the_crash_point(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any, crash: str
) -> None:
    _profile(hermes_home, emu)
    emu.store.put_page(SLUG, "# Crash probe\n\nThe version before our write.\n")
    out = _crash_once(session_factory(), crash, emu)
    applied = 0 if crash == "before_send" else 1
    assert len(_puts(emu, SLUG)) == applied
    again = _restart(hermes_home, session_factory)
    assert len(_puts(emu, SLUG)) == 1  # sent exactly once in all
    assert again.tools.session.bridge.outbox.get(out["id"]).state == "delivered"
    page = emu.store.get(SLUG, ["default"])
    assert page is not None and page.compiled_truth.endswith("Written once.")


@pytest.mark.parametrize("crash", CRASH_POINTS)
def test_an_edit_after_our_first_send_is_kept_and_the_write_reported_superseded(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any, crash: str
) -> None:
    _profile(hermes_home, emu)
    out = _crash_once(session_factory(), crash, emu)  # the page did not exist: a state too
    emu.store.put_page(SLUG, "# Crash probe\n\nSomeone else's newer text.\n")
    puts = len(_puts(emu, SLUG))
    again = _restart(hermes_home, session_factory)
    assert len(_puts(emu, SLUG)) == puts  # nothing resent over the edit
    page = emu.store.get(SLUG, ["default"])
    assert page is not None and "newer text" in page.compiled_truth
    assert again.tools.session.bridge.outbox.get(out["id"]).state == "superseded"
    told = again.call("gbrain_search", query="Kestrel")["outbox_superseded"]
    assert [(t["id"], t["slug"]) for t in told] == [(out["id"], SLUG)]
    assert "outbox_superseded" not in again.call("gbrain_search", query="Kestrel")  # once
    status = again.tools.session.bridge.outbox.status()
    assert status.superseded == 1 and status.recent_superseded[0][0] == out["id"]


def test_failures_are_reported_on_the_next_call_and_shutdown_drains(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    _profile(hermes_home, emu)
    s = session_factory()
    worker = s.tools.session.bridge.worker
    s.tools.session.bridge.outbox.max_attempts = 1
    emu.knobs.status = 500
    out = s.call("gbrain_put_page", slug="notes/fails", content="# Fails\n")
    assert worker.wait_idle(WAIT)
    emu.knobs.status = None
    report = s.call("gbrain_search", query="Kestrel")
    assert report["outbox_failures"][0]["id"] == out["id"]
    assert "HTTP 500" in report["outbox_failures"][0]["error"]
    assert "outbox_failures" not in s.call("gbrain_search", query="Kestrel")  # told once

    gate = threading.Event()
    emu.knobs.gate = gate
    s.call("gbrain_put_page", slug="notes/at-shutdown", content="# Late\n")
    gate.set()
    s.close()  # shutdown() drains within its bound
    assert len(_puts(emu, "notes/at-shutdown")) == 1


def test_a_deduplicated_and_superseded_queue(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    _profile(hermes_home, emu)
    s = session_factory()
    gate = threading.Event()
    arrived = threading.Event()

    def on_request(rec: RecordedRequest) -> None:
        if (rec.arguments or {}).get("slug") == "notes/first":
            arrived.set()  # the worker's look at the page, before its put

    emu.knobs.on_request, emu.knobs.gate = on_request, gate
    s.call("gbrain_put_page", slug="notes/first", content="# hold the worker\n")
    assert arrived.wait(WAIT)  # the worker is busy with this one
    a = s.call("gbrain_put_page", slug="notes/dup", content="# v1\n")
    b = s.call("gbrain_put_page", slug="notes/dup", content="# v1\n")
    assert (b["id"], b["status"]) == (a["id"], "already queued")
    c = s.call("gbrain_put_page", slug="notes/dup", content="# v2\n")
    gate.set()
    assert s.tools.session.bridge.worker.wait_idle(WAIT)
    sent = _puts(emu, "notes/dup")
    assert [r.arguments["content"] for r in sent] == ["# v2\n"]  # type: ignore[index]
    outbox = s.tools.session.bridge.outbox
    assert outbox.get(a["id"]).state == "replaced"
    assert outbox.get(c["id"]).state == "delivered"


def test_setup_schema_has_the_tools_mode_and_the_pointer_preset_has_no_tools(
    hermes_home: HermesHome, emu: Emulator
) -> None:
    from hermes_gbrain.adapters.provider import GBrainPointerProvider

    _profile(hermes_home, emu)
    fields = {f["key"]: f for f in GBrainMemoryProvider().get_config_schema()}
    assert fields["tools"]["choices"] == ["read", "write", "admin", "off"]
    assert fields["tools"]["env_var"] == "GBRAIN_TOOLS" and fields["tools"]["default"] == "read"
    pointer = GBrainPointerProvider()
    assert pointer.get_tool_schemas() == []
    assert "tools" not in {f["key"] for f in pointer.get_config_schema()}
    assert "error" in json.loads(pointer.handle_tool_call("gbrain_search", {"query": "x"}))
