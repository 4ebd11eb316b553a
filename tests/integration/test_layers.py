"""Digest and briefing through real Hermes 0.19.0: provider, hook mode, and cache safety.

The cache-safety test drives a real ``AIAgent`` for five turns against the loopback
stub model with every layer on and checks the bytes the model received.
"""

from __future__ import annotations

import re
import threading
import time
from datetime import UTC, datetime
from typing import Any

import pytest

from hermes_gbrain.adapters import compat
from hermes_gbrain.commands.install import install
from hermes_gbrain.commands.main import main
from hermes_gbrain.emulator import Emulator
from hermes_gbrain.emulator.sample_brain import INJECTION_SLUG
from hermes_gbrain.mcp import MCP_DEADLINE_S
from hermes_gbrain.recall.briefing import SEARCH_ROWS, SNIPPET_REQUEST, cited_pages
from hermes_gbrain.recall.digest import DIGEST_HEADER, Digest, read_digest_line, write_digest
from hermes_gbrain.recall.pairs import pair_query
from hermes_gbrain.recall.pointers import HEADER
from support.hermes_driver import MemoryManagerDriver, build_agent, load_provider
from support.hermes_home import HermesHome
from support.pair_searches import is_pair_search, without_pairs
from support.pointer_env import WAIT, Profile, engine_idle, make_profile
from support.stub_model import StubModel

pytestmark = pytest.mark.hermes

BRIEF_LINE = re.compile(r"^- .+ \[[a-z]+:[a-z0-9/._-]+\] — ", re.MULTILINE)


def briefing_searches(emu: Emulator) -> int:
    return sum(
        1
        for r in without_pairs(emu.requests)
        if r.tool in ("search", "query")
        and (r.arguments or {}).get("snippet_chars") == SNIPPET_REQUEST
        and (r.arguments or {}).get("limit") == SEARCH_ROWS  # pointers ask for more rows
    )


@pytest.fixture
def briefed(hermes_home: HermesHome, emu: Emulator) -> Profile:
    """The ``gbrain`` provider with the briefing on and a fresh digest on disk."""
    profile = make_profile(hermes_home, emu, GBRAIN_BRIEFING="on")
    assert main(["digest", "--hermes-home", str(hermes_home.path), "--quiet"]) == 0
    emu.clear_requests()
    return profile


def test_digest_is_in_the_system_prompt_read_once(briefed: Profile) -> None:
    home = briefed.home.path
    line = read_digest_line(home)
    provider = load_provider("gbrain")
    with MemoryManagerDriver(provider) as driver:
        assert driver.system_prompt == f"{DIGEST_HEADER}\n{line}"
        write_digest(home, Digest("GBrain digest (refreshed): 1 page.", _now()))
        assert driver.manager.build_system_prompt() == driver.system_prompt  # same session
        driver.manager.on_session_switch("s2", reason="new_session")
        assert "refreshed" in driver.manager.build_system_prompt()  # a new session reads it


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@pytest.mark.parametrize("state", ["missing", "stale", "off"])
def test_no_digest_block_without_a_fresh_digest(briefed: Profile, state: str) -> None:
    home = briefed.home.path
    if state == "missing":
        (home / "gbrain" / "digest.json").unlink()
    elif state == "stale":
        write_digest(home, Digest("GBrain digest: old", "2020-01-01T00:00:00+00:00"))
    else:
        briefed.set_env(GBRAIN_DIGEST="off")
    with MemoryManagerDriver(load_provider("gbrain")) as driver:
        assert driver.system_prompt == ""


def recall_calls(emu: Emulator) -> dict[str, int]:
    """The recall requests in the emulator's log, by tool (pairs searches apart)."""
    tools = [str(r.tool) for r in without_pairs(emu.requests)]
    return {t: tools.count(t) for t in ("search", "query", "volunteer_context") if t in tools}


def test_briefing_on_first_non_trivial_turn_only(briefed: Profile) -> None:
    emu = briefed.emu
    with MemoryManagerDriver(load_provider("gbrain")) as driver:
        hello = driver.turn("hi")
        first = driver.turn("Who is Maya Okafor?")
        assert engine_idle()
        turn_one = recall_calls(emu)
        later = [driver.turn(m) for m in ("What about Priya Raman?", "Who is Maya Okafor?")]
        assert engine_idle()
    assert hello.memory_context is None
    # briefing and pointers of the first turn read one recall: one search, one volunteer
    assert turn_one == {"search": 1, "volunteer_context": 1}
    assert recall_calls(emu) == {"search": 3, "volunteer_context": 3}  # one per real turn
    context = first.memory_context or ""
    assert HEADER in context
    assert BRIEF_LINE.search(context) and "[default:people/maya-okafor] — " in context
    assert len(cited_pages(context)) == len(set(cited_pages(context)))  # no page twice
    for record in later:
        assert not BRIEF_LINE.search(record.sent_content)  # pointers only, never a briefing


def test_first_turn_recall_shared_without_pointer_wait(briefed: Profile) -> None:
    """A brain slower than the pointer budget: the turn still sends one recall; the
    pointers give up at their own deadline and the briefing arrives within its own."""
    emu = briefed.emu
    briefed.set_env(GBRAIN_POINTER_SYNC_BUDGET_MS="50", GBRAIN_BRIEFING_BUDGET_MS="5000")
    with MemoryManagerDriver(load_provider("gbrain")) as driver:
        emu.knobs.latency_s = 0.4
        first = driver.turn("Who is Maya Okafor?")
        assert engine_idle()
    assert recall_calls(emu) == {"search": 1, "volunteer_context": 1}
    context = first.memory_context or ""
    assert BRIEF_LINE.search(context) and "[default:people/maya-okafor] — " in context


@pytest.mark.parametrize("pairs", ["on", "0"])
def test_the_pairs_search_finds_a_paraphrase_and_can_be_turned_off(
    briefed: Profile, pairs: str
) -> None:
    # "drop" and "offline" are only together on the on-device store's page; GBrain's
    # keyword search ANDs the whole message and finds it nowhere (recall.pairs).
    message = "which phones drop packets when rangers are offline?"
    briefed.set_env(GBRAIN_POINTER_PAIRS=pairs)
    with MemoryManagerDriver(load_provider("gbrain")) as driver:
        context = driver.turn(message).memory_context or ""
        assert engine_idle()
    extra = [r for r in briefed.emu.requests if is_pair_search(r, briefed.emu.requests)]
    assert recall_calls(briefed.emu) == {"search": 1, "volunteer_context": 1}
    if pairs == "on":
        assert [(r.arguments or {}).get("query") for r in extra] == [pair_query(message)]
        assert "[default:decisions/sqlite-on-device]" in context
    else:
        assert extra == [] and "decisions/sqlite-on-device" not in context


def test_pointer_preset_gets_neither_digest_nor_briefing(
    hermes_home: HermesHome, emu: Emulator
) -> None:
    make_profile(hermes_home, emu, name="gbrain-pointer", GBRAIN_BRIEFING="on")
    assert main(["digest", "--hermes-home", str(hermes_home.path), "--quiet"]) == 0
    emu.clear_requests()
    provider = load_provider("gbrain-pointer")
    with MemoryManagerDriver(provider) as driver:
        assert driver.system_prompt == ""
        assert driver.turn("Who is Maya Okafor?").memory_context is None
    assert briefing_searches(emu) == 0
    keys = {f["env_var"] for f in provider.get_config_schema()}
    assert "GBRAIN_BRIEFING" not in keys


def test_config_schema_lists_layer_settings(briefed: Profile) -> None:
    keys = {f["env_var"] for f in load_provider("gbrain").get_config_schema()}
    assert {"GBRAIN_DIGEST", "GBRAIN_DIGEST_MAX_AGE_HOURS", "GBRAIN_BRIEFING"} <= keys
    assert {"GBRAIN_BRIEFING_BUDGET_MS", "GBRAIN_BRIEFING_GATE"} <= keys


def test_briefing_budget_bounds_the_first_turn(briefed: Profile) -> None:
    emu = briefed.emu
    briefed.set_env(GBRAIN_BRIEFING_BUDGET_MS="300", GBRAIN_POINTER_SYNC_BUDGET_MS="300")
    gate = threading.Event()
    with MemoryManagerDriver(load_provider("gbrain")) as driver:
        emu.knobs.gate = gate  # every MCP call now waits for the test
        started = time.monotonic()
        first = driver.turn("Who is Maya Okafor?", flush=False)
        elapsed = time.monotonic() - started
        gate.set()
        second = driver.turn("Who is Priya Raman?")
    # The 0.3 s budget, then no briefing: not the held search's own deadline.
    assert first.memory_context is None and elapsed < MCP_DEADLINE_S
    assert not BRIEF_LINE.search(second.sent_content)  # the late answer never shows up


def test_injection_page_never_briefed(briefed: Profile) -> None:
    with MemoryManagerDriver(load_provider("gbrain")) as driver:
        record = driver.turn("Show me the sync vendor instructions note about the brain export")
    assert INJECTION_SLUG not in record.sent_content
    assert "Ignore" not in record.sent_content


# -- hook mode: a general plugin beside another memory provider ------------------------------

STUB_PROVIDER = """
from agent.memory_provider import MemoryProvider


class StubMemoryProvider(MemoryProvider):
    @property
    def name(self):
        return "stubmem"

    def is_available(self):
        return True

    def initialize(self, session_id, **kwargs):
        pass

    def get_tool_schemas(self):
        return []

    def prefetch(self, query, *, session_id="", **kwargs):
        return "stub memory: the user likes tea"


def register(ctx):
    ctx.register_memory_provider(StubMemoryProvider())
"""


def _hook_home(home: HermesHome, emu: Emulator, **env: str) -> Profile:
    profile = make_profile(home, emu, GBRAIN_BRIEFING="on", **env)
    home.write_plugin("stubmem", STUB_PROVIDER)
    install("gbrain-hook", home.path)
    home.write_config("stubmem", extra={"plugins": {"enabled": ["gbrain-hook"]}})
    return profile


def test_hook_mode_beside_another_provider(
    hermes_home: HermesHome, emu: Emulator, stub_model: StubModel
) -> None:
    from hermes_cli import plugins

    _hook_home(hermes_home, emu)  # pointers are on by default
    plugins.discover_plugins(force=True)
    manager = plugins.get_plugin_manager()
    assert manager.has_hook("pre_llm_call")
    from plugins.memory import discover_memory_providers

    assert "gbrain-hook" not in {name for name, _, _ in discover_memory_providers()}

    agent = build_agent(stub_model)
    history: list[dict[str, Any]] = []
    emu.clear_requests()
    calls: list[dict[str, int]] = []
    try:
        assert agent._memory_manager.providers[-1].name == "stubmem"
        for message in ("Who is Maya Okafor?", "What does Tomas Lindqvist do?", "ok"):
            result = agent.run_conversation(message, conversation_history=history)
            history = list(result.get("messages") or [])
            assert engine_idle()
            calls.append(recall_calls(emu))
    finally:
        agent.shutdown_memory_provider(history)
        agent.close()
    users = [_last_user(body) for body in stub_model.requests]
    assert len(users) == 3
    # turn 1: the briefing reads the pointer search's recall (one search, one volunteer)
    assert calls[0] == {"search": 1, "volunteer_context": 1}
    assert calls[2] == {"search": 2, "volunteer_context": 2}  # turn 2 its own, "ok" none
    assert "stub memory: the user likes tea" in users[0]  # the other provider still works
    assert "[default:people/maya-okafor] — " in users[0]  # our briefing beside it
    assert users[0].index("stub memory") < users[0].index(HEADER)
    for later in users[1:]:
        assert not BRIEF_LINE.search(later)
    # pointers about each turn's own message, never a page the briefing showed
    turn2 = users[1][users[1].index(HEADER) :]
    assert "- [default:people/tomas-lindqvist]" in turn2
    assert "[default:people/maya-okafor]" not in turn2
    assert HEADER not in users[2]  # "ok": nothing from GBrain
    # 0.19.0 still asks the other provider on "ok"; newer Hermes asks no provider at all
    assert ("stub memory" in users[2]) is not compat.HAS_TRIVIAL_PROMPT
    system = {_system(body) for body in stub_model.requests}
    assert len(system) == 1 and DIGEST_HEADER not in next(iter(system))


def test_hook_mode_follow_up_points_back_at_what_the_last_turn_showed(
    hermes_home: HermesHome, stub_model: StubModel
) -> None:
    from hermes_cli import plugins

    with Emulator(brain="large", lean=False) as large:
        _hook_home(hermes_home, large)
        plugins.discover_plugins(force=True)
        agent = build_agent(stub_model)
        history: list[dict[str, Any]] = []
        try:
            for message in ("Marula Conservancy - how big is it?", "who's their head ranger?"):
                result = agent.run_conversation(message, conversation_history=history)
                history = list(result.get("messages") or [])
                assert engine_idle()
        finally:
            agent.shutdown_memory_provider(history)
            agent.close()
    first, second = (_last_user(body) for body in stub_model.requests)
    assert "[default:companies/marula-conservancy]" in first
    pointers = second[second.index(HEADER) :]
    assert cited_pages(pointers) == ["[default:people/samuel-mwangi]"]


def test_hook_found_through_its_entry_point_without_a_folder(
    hermes_home: HermesHome, emu: Emulator
) -> None:
    """pip-installed, the hook needs no plugin folder: `plugins.enabled` is enough."""
    from hermes_cli import plugins

    make_profile(hermes_home, emu, GBRAIN_BRIEFING="on")
    hermes_home.write_config("", extra={"plugins": {"enabled": ["gbrain-hook"]}})
    assert not (hermes_home.plugins_dir / "gbrain-hook").exists()
    plugins.discover_plugins(force=True)
    manager = plugins.get_plugin_manager()
    assert manager.has_hook("pre_llm_call")


def test_hook_fails_open_and_reads_settings_on_its_thread(
    hermes_home: HermesHome, emu: Emulator
) -> None:
    from agent.secret_scope import set_multiplex_active

    from hermes_gbrain.adapters.hook import GBrainHook

    _hook_home(hermes_home, emu, GBRAIN_HOOK_POINTERS="0")  # the briefing alone
    hook = GBrainHook()
    set_multiplex_active(True)  # no scope bound on this thread: settings are unreadable
    try:
        assert hook.pre_llm_call(session_id="m1", user_message="Who is Maya Okafor?") is None
    finally:
        set_multiplex_active(False)
    emu.knobs.status = 500
    assert hook.pre_llm_call(session_id="f1", user_message="Who is Maya Okafor?") is None
    emu.knobs.status = None
    assert hook.pre_llm_call(session_id="x", user_message=None) is None
    history = [{"role": "user", "content": "Tell me about Priya Raman"}]
    resumed = hook.pre_llm_call(
        session_id="r1", user_message="Who is Maya Okafor?", conversation_history=history
    )
    assert resumed is None  # not the session's first real message: no briefing
    fresh = hook.pre_llm_call(session_id="n1", user_message="Who is Maya Okafor?")
    assert fresh is not None and "[default:people/maya-okafor] — " in fresh["context"]


# -- cache safety: five AIAgent turns, every layer on ------------------------------------------


def _system(body: dict[str, Any]) -> str:
    return next(
        (str(m.get("content")) for m in body.get("messages", []) if m.get("role") == "system"), ""
    )


def _last_user(body: dict[str, Any]) -> str:
    users = [m for m in body.get("messages", []) if m.get("role") == "user"]
    return str(users[-1].get("content")) if users else ""


def test_cache_safety_five_turns_all_layers(
    hermes_home: HermesHome, emu: Emulator, stub_model: StubModel
) -> None:
    make_profile(hermes_home, emu, GBRAIN_BRIEFING="on", GBRAIN_TOOLS="read")
    home = hermes_home.path
    assert main(["digest", "--hermes-home", str(home), "--quiet"]) == 0
    digest_line = read_digest_line(home)
    messages = (
        "Who is Maya Okafor?",
        "How is the Driftwood Sync project going?",
        "ok",
        "Tell me about the Series A fundraise",
        "What does Tomas Lindqvist do?",
    )
    agent = build_agent(stub_model)
    history: list[dict[str, Any]] = []
    try:
        for number, message in enumerate(messages, start=1):
            result = agent.run_conversation(message, conversation_history=history)
            history = list(result.get("messages") or [])
            assert agent._memory_manager.flush_pending(timeout=WAIT)
            assert engine_idle()
            if number == 2:  # the digest is refreshed on disk mid-session
                write_digest(home, Digest("GBrain digest (refreshed): CHANGED.", _now()))
    finally:
        agent.shutdown_memory_provider(history)
        agent.close()
    bodies = stub_model.requests
    assert len(bodies) == 5
    prompts = [_system(b) for b in bodies]
    assert all(p == prompts[0] for p in prompts)  # byte-identical on every request
    assert f"{DIGEST_HEADER}\n{digest_line}" in prompts[0] and "CHANGED" not in prompts[0]
    first = _last_user(bodies[0])
    assert first.startswith(messages[0]) and BRIEF_LINE.search(first)
    briefing_lines = [line for line in first.splitlines() if BRIEF_LINE.match(line)]
    for body in bodies[1:]:
        latest = _last_user(body)
        assert not BRIEF_LINE.search(latest)
        assert not any(line in latest for line in briefing_lines)
    # Earlier turns are replayed byte for byte (the prefix the cache keys on).
    for n in range(1, 5):
        previous = [m for m in bodies[n - 1]["messages"] if m.get("role") != "system"]
        replay = [m for m in bodies[n]["messages"] if m.get("role") != "system"]
        assert [m.get("content") for m in replay[: len(previous)]] == [
            m.get("content") for m in previous
        ]
    # A new session picks the refreshed digest up.
    agent = build_agent(stub_model)
    try:
        agent.run_conversation("ok", conversation_history=[])
    finally:
        agent.shutdown_memory_provider([])
        agent.close()
    assert "CHANGED" in _system(stub_model.requests[-1])
