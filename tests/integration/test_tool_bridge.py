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
    # No frontmatter title: GBrain 0.46.28 titles the page by its first "# " heading.
    assert preview["preview"]["title"] == "Bridge"
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
    """A new Hermes start once the dead worker's lease and its send's settle time have run
    out (``test_write_safety`` covers the start that comes sooner): it replays the row."""
    path = data_dir(hermes_home.path) / DB_NAME
    box = Outbox(path, lease_s=0.0)  # its recovery, as if the dead worker's lease ran out
    box._db.execute("UPDATE outbox SET settle_until=NULL")  # ... and the send had settled
    box.close()
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


# -- destructive tools: two steps, the user asked where Hermes can ask ----------------------


def _dummy(schema: dict[str, Any], name: str) -> Any:
    """A value of the declared type, enough for our own argument checks to pass."""
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "array":
        return [_dummy(schema.get("items") or {"type": "string"}, name)]
    if kind == "object":
        return {}
    if kind in {"number", "integer"}:
        return 1
    if kind == "boolean":
        return False
    return "notes/two-step" if name == "slug" else "x"


def _arguments_for(spec: Any) -> dict[str, Any]:
    schema = spec.schema(False)["inputSchema"]
    props = schema.get("properties", {})
    return {n: _dummy(props[n], n) for n in schema.get("required", [])}


def test_every_destructive_tool_reaches_the_server_only_after_a_confirm(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    from hermes_gbrain.emulator.catalog import tool_specs
    from hermes_gbrain.toolbridge.schemas import DESTRUCTIVE_TOOLS, is_destructive

    _profile(hermes_home, emu, scopes="read write admin", GBRAIN_TOOLS="admin")
    s = session_factory()
    catalog = tool_specs(lean=False)
    destructive = [spec for spec in catalog if is_destructive(spec.name)]
    hinted = {spec.name for spec in catalog if (spec.annotations or {}).get("destructiveHint")}
    assert hinted <= {spec.name for spec in destructive}
    assert {spec.name for spec in catalog} >= DESTRUCTIVE_TOOLS
    assert len(destructive) >= 11
    for spec in destructive:
        arguments = _arguments_for(spec)
        emu.clear_requests()
        preview = s.call("gbrain_call", tool=spec.name, arguments=arguments)
        assert preview["preview"]["tool"] == spec.name, (spec.name, preview)
        assert spec.name not in tools_sent(emu), spec.name
        forged = s.call("gbrain_call", tool=spec.name, arguments=arguments, confirm="cfm_forged")
        assert forged["code"] == "unknown_token" and spec.name not in tools_sent(emu)
        if arguments:  # other arguments than previewed: refused, and the token survives
            key = next(k for k in arguments if k != "slug") if len(arguments) > 1 else None
            if key is not None and isinstance(arguments[key], str | int):
                value = arguments[key]
                changed = {**arguments, key: value + 1 if isinstance(value, int) else value + "y"}
                other = s.call(
                    "gbrain_call", tool=spec.name, arguments=changed, confirm=preview["confirm"]
                )
                assert other["code"] == "arguments_changed", (spec.name, other)
                assert spec.name not in tools_sent(emu), spec.name
        done = s.call(
            "gbrain_call", tool=spec.name, arguments=arguments, confirm=preview["confirm"]
        )
        assert tools_sent(emu).count(spec.name) == 1, (spec.name, done)
        again = s.call(
            "gbrain_call", tool=spec.name, arguments=arguments, confirm=preview["confirm"]
        )
        assert again["code"] == "unknown_token" and tools_sent(emu).count(spec.name) == 1


def test_delete_through_gbrain_call_is_bound_to_the_page_revision(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    _profile(hermes_home, emu)
    s = session_factory()
    emu.store.put_page("notes/bound", "# Bound\n\nfirst\n")
    args = {"slug": "notes/bound"}
    preview = s.call("gbrain_call", tool="delete_page", arguments=args)
    assert preview["preview"]["page"]["exists"] is True
    emu.store.put_page("notes/bound", "# Bound\n\nchanged since the preview\n")
    stale = s.call("gbrain_call", tool="delete_page", arguments=args, confirm=preview["confirm"])
    assert stale["code"] == "page_changed" and "delete_page" not in tools_sent(emu)
    preview = s.call("gbrain_call", tool="delete_page", arguments=args)
    done = s.call("gbrain_call", tool="delete_page", arguments=args, confirm=preview["confirm"])
    assert done["confirmed"] is True and done["result"]["status"] == "soft_deleted"
    # restore_page is bound to the page being absent, as previewed.
    preview = s.call("gbrain_call", tool="restore_page", arguments=args)
    assert preview["preview"]["page"]["exists"] is False
    back = s.call("gbrain_call", tool="restore_page", arguments=args, confirm=preview["confirm"])
    assert back["result"]["status"] == "restored"


@pytest.mark.parametrize(("answer", "sent"), [("deny", 0), ("once", 1)])
def test_the_confirm_step_asks_the_user_through_hermes_approval_prompt(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any, answer: str, sent: int
) -> None:
    from tools.terminal_tool import set_approval_callback

    from hermes_gbrain.adapters import compat

    assert compat.HAS_APPROVAL_PROMPT  # hermes-agent 0.19.0 has it
    _profile(hermes_home, emu)
    s = session_factory()
    emu.store.put_page("notes/asked", "# Asked\n")
    asked: list[tuple[str, str]] = []

    def prompt(command: str, description: str, allow_permanent: bool = True) -> str:
        asked.append((command, description))
        assert allow_permanent is False
        return answer

    preview = s.call("gbrain_delete_page", slug="notes/asked")
    set_approval_callback(prompt)  # what Hermes' interactive CLI does on its agent thread
    try:
        out = s.call("gbrain_delete_page", slug="notes/asked", confirm=preview["confirm"])
    finally:
        set_approval_callback(None)
    assert len(asked) == 1 and "notes/asked" in asked[0][0]
    assert tools_sent(emu).count("delete_page") == sent
    assert out["deleted"] is bool(sent)
    if not sent:
        assert out["code"] == "declined"


def test_admin_tools_need_admin_mode(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    _profile(hermes_home, emu, scopes="read write admin")  # an admin client, GBRAIN_TOOLS=write
    s = session_factory()
    emu.clear_requests()
    out = s.call("gbrain_call", tool="get_stats", arguments={})
    assert out["code"] == "admin_only" and tools_sent(emu) == []
    listed = {t["name"] for t in s.call("gbrain_tools")["tools"]}
    assert "get_stats" not in listed and "put_page" in listed


def test_admin_mode_reaches_admin_tools(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    _profile(hermes_home, emu, scopes="read write admin", GBRAIN_TOOLS="admin")
    s = session_factory()
    assert s.names() == READ_NAMES + WRITE_NAMES
    out = s.call("gbrain_call", tool="get_stats", arguments={})
    assert out["tool"] == "get_stats" and "page_count" in json.dumps(out["result"])
    listed = {t["name"]: t for t in s.call("gbrain_tools", filter="source")["tools"]}
    assert listed["sources_remove"].get("two_step") is True


# -- strict arguments and server notes -----------------------------------------------------

VALID = {
    "gbrain_search": {"query": "Kestrel"},
    "gbrain_get_page": {"slug": "people/maya-okafor"},
    "gbrain_tools": {},
    "gbrain_call": {"tool": "list_pages", "arguments": {"limit": 1}},
    "gbrain_put_page": {"slug": "notes/strict", "content": "# Strict\n"},
    "gbrain_delete_page": {"slug": "notes/strict"},
}


def test_an_unknown_argument_to_each_compact_tool_is_refused(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    _profile(hermes_home, emu)
    s = session_factory()
    schemas = {x["name"]: x for x in s.manager.get_all_tool_schemas()}
    assert set(schemas) == set(VALID)
    emu.clear_requests()
    for name, args in VALID.items():
        assert schemas[name]["parameters"]["additionalProperties"] is False
        out = s.call(name, **args, content_extra="stray")
        assert out["error"] == f"invalid arguments for {name}; nothing was sent", name
        assert any("'content_extra'" in p for p in out["problems"]), name
    # the case from the field: a put meant for gbrain_put_page, auto-repaired to get_page
    out = s.call("gbrain_get_page", slug="notes/x", content="# X\n")
    assert "unknown argument 'content'" in out["problems"][0]
    nested = s.call("gbrain_call", tool="search", arguments={"query": "x", "fields": "lean"})
    assert "unknown argument 'fields'" in nested["problems"][0]
    assert tools_sent(emu) == []


def test_server_notes_reach_the_model(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    _profile(hermes_home, emu, GBRAIN_TOOLS="read")
    s = session_factory()
    emu.knobs.extra_content_blocks = True
    out = s.call("gbrain_call", tool="list_pages", arguments={"limit": 1})
    assert out["server_notes"] == ["note: an extra block from the emulator"]


# -- files: owner-only, whatever the umask; connections closed -----------------------------


def test_every_file_under_the_data_folder_is_owner_only(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os
    import stat

    from hermes_gbrain.recall.digest import Digest, write_digest

    _profile(hermes_home, emu)
    monkeypatch.setenv("HERMES_HOME_MODE", "0701")  # Hermes' documented option
    os.chmod(hermes_home.path, 0o701)
    folder = data_dir(hermes_home.path)
    folder.mkdir(mode=0o755)
    for name, data in ((DB_NAME, b""), (f"{DB_NAME}-wal", b""), (".salt", os.urandom(32))):
        (folder / name).write_bytes(data)  # left world-readable by an older version
        os.chmod(folder / name, 0o644)
    old = os.umask(0o000)  # the most permissive umask
    try:
        s = session_factory()
        s.call("gbrain_put_page", slug="notes/private", content="# Private\n\nqueued text\n")
        assert s.tools.session.bridge.worker.wait_idle(WAIT)
        write_digest(hermes_home.path, Digest("GBrain digest: 1 page.", "t", {}, {}))
        while_open = {p.name: stat.S_IMODE(p.stat().st_mode) for p in folder.rglob("*")}
        s.close()
    finally:
        os.umask(old)
    found = {p.name: stat.S_IMODE(p.stat().st_mode) for p in folder.rglob("*")}
    expected = {".salt", "discovery.json", "digest.json", DB_NAME}
    assert expected | {f"{DB_NAME}-wal", f"{DB_NAME}-shm"} <= set(while_open), while_open
    assert expected <= set(found), found
    assert {n: m for n, m in {**while_open, **found}.items() if m != 0o600} == {}
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(hermes_home.path.stat().st_mode) == 0o701  # the profile's, untouched


def test_write_mode_sessions_leave_no_open_files(hermes_home: HermesHome, emu: Emulator) -> None:
    import os

    _profile(hermes_home, emu)
    Session().close()  # first session: caches, shared transport and pools warmed up

    def open_fds() -> int:
        return len(os.listdir("/proc/self/fd"))

    before = open_fds()
    for _ in range(20):
        Session().close()
    assert open_fds() - before < 5  # was 2 per session (the outbox database and its WAL)


def test_scopes_learned_after_initialize_leave_the_offer_unchanged(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hermes_gbrain.toolbridge import session as session_module

    monkeypatch.setattr(session_module, "SCOPE_WAIT_S", 0.2)
    _profile(hermes_home, emu)
    slow = threading.Event()
    emu.knobs.gate = slow  # GBrain answers only after initialize gave up waiting
    s = session_factory(initialize=False)
    s.manager.initialize_all(session_id="s1", **PRIMARY_INIT_KWARGS)
    assert s.names() == READ_NAMES
    slow.set()
    assert s.tools.session.refreshed.wait(WAIT)
    assert s.tools.session.writes_usable  # learned now ...
    assert s.names() == READ_NAMES  # ... but the model's tool list stays as it was
    out = s.call("gbrain_call", tool="capture", arguments={"content": "a late note"})
    assert out["result"]["status"] == "created_or_updated", out
    assert session_factory(initialize=False).names() == READ_NAMES + WRITE_NAMES  # next time


@pytest.mark.parametrize(("scopes", "offered"), [("read", False), ("read write", True)])
def test_a_real_agent_offers_write_tools_only_to_a_credential_that_can_write(
    hermes_home: HermesHome, emu: Emulator, stub_model: Any, scopes: str, offered: bool
) -> None:
    from support.hermes_driver import build_agent

    _profile(hermes_home, emu, scopes=scopes)  # GBRAIN_TOOLS=write, nothing cached yet
    agent = build_agent(stub_model)
    try:
        agent.run_conversation("hello there", conversation_history=[])
        assert agent._memory_manager.has_tool("gbrain_put_page")  # routed since add_provider
    finally:
        agent.shutdown_memory_provider([])
        agent.close()
    sent = {t["function"]["name"] for t in stub_model.requests[-1].get("tools", [])}
    assert {"gbrain_search", "gbrain_call"} <= sent
    assert ("gbrain_put_page" in sent) is offered
    assert ("gbrain_delete_page" in sent) is offered
