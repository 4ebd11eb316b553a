"""The providers through real hermes-agent 0.19.0 (MemoryManager) and the emulator.

Tests of the engine's hand-out rules (once, per session, the limit, the screen) drive
the ``gbrain-pointer`` preset, whose background search after each turn is taken by
the next turn; the full provider's current-turn pointers are in ``test_current_turn.py``.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from hermes_gbrain.emulator import Emulator
from hermes_gbrain.recall.briefing import SEARCH_ROWS, SNIPPET_REQUEST
from hermes_gbrain.recall.config import SPARE_ROWS
from hermes_gbrain.recall.pointers import HEADER
from support.hermes_driver import (
    MemoryManagerDriver,
    TurnRecord,
    discovered_providers,
    load_provider,
)
from support.hermes_home import HermesHome
from support.pair_searches import without_pairs
from support.pointer_env import WAIT, Profile, engine_idle, make_profile

pytestmark = pytest.mark.hermes

MAYA = (
    f"{HEADER}\n"
    "- [default:people/maya-okafor] Maya Okafor\n"
    "- [default:facts/maya-okafor-preferences] Maya Okafor Preferences"
)  # the two pages whose text says "Maya Okafor" (a link to her page is no word of the text)


PRESET = "gbrain-pointer"
NEXT = "What else should I know?"


@pytest.fixture
def preset(hermes_home: HermesHome, emu: Emulator) -> Profile:
    return make_profile(hermes_home, emu, name=PRESET)


def turn(driver: MemoryManagerDriver, user: str) -> TurnRecord:
    record = driver.turn(user)
    assert engine_idle()
    return record


def later(provider: Any) -> str:
    """What the next real turn's ``prefetch`` takes, without starting another search."""
    provider.on_turn_start(99, NEXT)
    return str(provider.prefetch(NEXT))


def searches(emu: Emulator) -> list[dict[str, object]]:
    return [dict(r.arguments or {}) for r in emu.requests if r.tool in ("search", "query")]


def test_discovered_from_plugins_dir(profile: Profile) -> None:
    found = discovered_providers()
    assert found["gbrain"][1] is True
    provider = load_provider("gbrain")
    assert provider.name == "gbrain"
    assert type(provider).__name__ == "GBrainMemoryProvider"


def test_pointer_preset_discovered(hermes_home: HermesHome, emu: Emulator) -> None:
    make_profile(hermes_home, emu, name="gbrain-pointer")
    provider = load_provider("gbrain-pointer")
    assert provider.name == "gbrain-pointer"
    assert provider.get_tool_schemas() == []


def test_unconfigured_is_unavailable_with_reason(hermes_home: HermesHome, emu: Emulator) -> None:
    from hermes_gbrain.commands.install import install

    install("gbrain", hermes_home.path)
    hermes_home.write_env({"GBRAIN_MCP_URL": emu.mcp_url, "GBRAIN_POINTER_ALLOW_HTTP": "1"})
    assert discovered_providers()["gbrain"][1] is False
    provider = load_provider("gbrain", require_available=False)
    provider.initialize("s1", hermes_home=str(hermes_home.path))
    assert "no GBrain credential" in provider.unavailable_reason()
    assert provider.prefetch("who is maya okafor") == ""
    provider.queue_prefetch("who is maya okafor", session_id="s1")
    assert engine_idle()
    assert emu.requests == []


def test_plain_http_refused_without_opt_in(profile: Profile) -> None:
    profile.set_env(GBRAIN_POINTER_ALLOW_HTTP=None, GBRAIN_MCP_URL="http://brain.example.com/mcp")
    provider = load_provider("gbrain", require_available=False)
    assert provider.is_available() is False
    provider.initialize("s1", hermes_home=str(profile.home.path))
    assert "GBRAIN_POINTER_ALLOW_HTTP" in provider.unavailable_reason()


def test_preset_lags_one_turn_and_trivial_turns_keep_the_result(preset: Profile) -> None:
    emu = preset.emu
    with MemoryManagerDriver(load_provider(PRESET)) as driver:
        first = turn(driver, "Who is Maya Okafor?")
        trivial = [turn(driver, m) for m in ("ok", "thanks!", "/help")]
        real = turn(driver, "How is the Driftwood Sync project going?")
    assert first.memory_context is None  # nothing was queued before turn 1
    assert all(t.memory_context is None for t in trivial)  # and "ok" does not eat it
    assert real.prefetch == MAYA  # turn 1's search, one turn late (the drop-in behaviour)
    assert real.memory_context is not None and MAYA in real.memory_context
    assert [s["query"] for s in searches(emu)] == [
        "Who is Maya Okafor?",
        "How is the Driftwood Sync project going?",
    ]
    assert searches(emu)[0] == {
        "query": "Who is Maya Okafor?",
        "limit": 3 + SPARE_ROWS,
        "snippet_chars": 1,
    }
    assert driver.turns[0].user == "Who is Maya Okafor?"  # transcript copy stays clean
    assert all("Retrieved reference" not in m["content"] for m in driver.history)


def test_lean_server_gets_fields_lean(hermes_home: HermesHome) -> None:
    with Emulator(lean=True) as lean:
        make_profile(hermes_home, lean, name=PRESET)
        with MemoryManagerDriver(load_provider(PRESET)) as driver:
            turn(driver, "sync api key")
            block = later(driver.provider)
        args = searches(lean)[0]
        assert args["fields"] == "lean"
        # the emulator flags the injection page; it is dropped, clean rows remain
        assert "notes/sync-vendor-instructions" not in block
        assert block.startswith(HEADER + "\n- [default:projects/driftwood-sync]")
        # spare rows let clean rows behind the flagged one still fill the limit
        assert block.count("\n- [") == 3


def test_screen_on_by_default_and_can_be_turned_off(preset: Profile) -> None:
    preset.set_env(GBRAIN_POINTER_LIMIT="5")  # the page's backlink-less score puts it fifth
    with MemoryManagerDriver(load_provider(PRESET)) as driver:
        turn(driver, "sync api key")
        screened = later(driver.provider)
    assert "sync-vendor-instructions" not in screened and screened
    preset.set_env(GBRAIN_POINTER_SCREEN="0")
    with MemoryManagerDriver(load_provider(PRESET), session_id="s9") as driver:
        turn(driver, "sync api key")
        unscreened = later(driver.provider)
    assert "[default:notes/sync-vendor-instructions]" in unscreened


def test_handed_out_once_and_only_to_its_session(preset: Profile) -> None:
    a = MemoryManagerDriver(load_provider(PRESET), session_id="chat-a")
    b = MemoryManagerDriver(load_provider(PRESET), session_id="chat-b")
    try:
        turn(a, "Who is Maya Okafor?")
        assert later(b.provider) == ""  # chat-a's result is not chat-b's
        assert later(a.provider) == MAYA
        assert later(a.provider) == ""  # never re-emitted
    finally:
        a.close()
        b.close()


def test_new_provider_instance_picks_up_waiting_result(preset: Profile) -> None:
    """The gateway may rebuild the agent between turns: the store outlives the instance."""
    first = MemoryManagerDriver(load_provider(PRESET), session_id="gw-1")
    turn(first, "Who is Maya Okafor?")
    second = MemoryManagerDriver(load_provider(PRESET), session_id="gw-1")
    try:
        assert later(second.provider) == MAYA
    finally:
        first.close()
        second.close()


def test_limit_change_applies_at_hand_out(preset: Profile) -> None:
    preset.set_env(GBRAIN_POINTER_LIMIT="5")
    with MemoryManagerDriver(load_provider(PRESET)) as driver:
        turn(driver, "Who is Maya Okafor?")
        preset.set_env(GBRAIN_POINTER_LIMIT="1")
        block = later(driver.provider)
    assert block == f"{HEADER}\n- [default:people/maya-okafor] Maya Okafor"
    assert searches(preset.emu)[0]["limit"] == 5 + SPARE_ROWS


@pytest.mark.parametrize("value", ["junk", "0", "99"])
def test_limit_junk_and_clamp(preset: Profile, value: str) -> None:
    preset.set_env(GBRAIN_POINTER_LIMIT=value)
    with MemoryManagerDriver(load_provider(PRESET)) as driver:
        turn(driver, "Who is Maya Okafor?")
    expected = {"junk": 3, "0": 1, "99": 10}[value]
    assert searches(preset.emu)[0]["limit"] == expected + SPARE_ROWS


def test_source_filter_uses_query_without_expansion(profile: Profile) -> None:
    profile.set_env(GBRAIN_POINTER_SOURCE="work")
    with MemoryManagerDriver(load_provider("gbrain")) as driver:
        block = turn(driver, "ledger lake backfill").prefetch
    (req,) = without_pairs(r for r in profile.emu.requests if r.tool)
    assert req.tool == "query"
    assert req.arguments == {
        "query": "ledger lake backfill",
        "limit": SEARCH_ROWS + SPARE_ROWS,  # gated: the gate picks from more rows
        "snippet_chars": SNIPPET_REQUEST,  # and reads their summaries
        "source_id": "work",
        "expand": False,
    }
    lines = block.splitlines()[1:]
    assert lines and all(line.startswith("- [work:") for line in lines)


def test_preset_sync_budget_serves_the_current_turn(preset: Profile) -> None:
    preset.set_env(GBRAIN_POINTER_SYNC_BUDGET_MS="3000")
    with MemoryManagerDriver(load_provider(PRESET)) as driver:
        first = turn(driver, "Who is Maya Okafor?")
    assert first.prefetch == MAYA


def test_sync_budget_is_a_bound(profile: Profile) -> None:
    profile.set_env(GBRAIN_POINTER_SYNC_BUDGET_MS="50")
    gate = threading.Event()
    profile.emu.knobs.gate = gate
    try:
        with MemoryManagerDriver(load_provider("gbrain")) as driver:
            started = time.monotonic()
            first = driver.turn("Who is Maya Okafor?", flush=False)
            assert time.monotonic() - started < 2.0
            assert first.prefetch == ""
            gate.set()
    finally:
        gate.set()


def test_preset_prefetch_never_waits_for_a_slow_server(preset: Profile) -> None:
    gate = threading.Event()
    arrived = threading.Event()
    preset.emu.knobs.gate = gate
    preset.emu.knobs.on_request = lambda rec: arrived.set() if rec.path == "/mcp" else None
    try:
        with MemoryManagerDriver(load_provider(PRESET)) as driver:
            driver.turn("Who is Maya Okafor?")
            assert arrived.wait(WAIT)
            started = time.monotonic()
            assert driver.turn(NEXT, flush=False).prefetch == ""
            assert time.monotonic() - started < 1.0
            gate.set()
            assert engine_idle()
    finally:
        gate.set()


def test_on_session_end_repeated_is_harmless(preset: Profile) -> None:
    with MemoryManagerDriver(load_provider(PRESET)) as driver:
        turn(driver, "Who is Maya Okafor?")
        for _ in range(3):
            driver.manager.on_session_end(driver.history)
        assert later(driver.provider) == MAYA
