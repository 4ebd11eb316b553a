"""The gbrain provider through real hermes-agent 0.19.0 (MemoryManager) and the emulator."""

from __future__ import annotations

import threading
import time

import pytest

from hermes_gbrain.emulator import Emulator
from hermes_gbrain.recall.config import SPARE_ROWS
from hermes_gbrain.recall.pointers import HEADER
from support.hermes_driver import (
    MemoryManagerDriver,
    TurnRecord,
    discovered_providers,
    load_provider,
)
from support.hermes_home import HermesHome
from support.pointer_env import WAIT, Profile, engine_idle, make_profile

pytestmark = pytest.mark.hermes

MAYA = (
    f"{HEADER}\n"
    "- [default:people/maya-okafor] Maya Okafor\n"
    "- [default:facts/maya-okafor-preferences] Maya Okafor Preferences\n"
    "- [default:companies/kestrel-works] Kestrel Works"
)


def turn(driver: MemoryManagerDriver, user: str) -> TurnRecord:
    record = driver.turn(user)
    assert engine_idle()
    return record


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


def test_turns_pointers_lag_one_turn_trivial_skipped(profile: Profile) -> None:
    emu = profile.emu
    with MemoryManagerDriver(load_provider("gbrain")) as driver:
        first = turn(driver, "Who is Maya Okafor?")
        second = turn(driver, "ok")
        third = turn(driver, "thanks!")
        fourth = turn(driver, "/help")
    assert first.memory_context is None  # nothing was queued before turn 1
    assert second.prefetch == MAYA
    assert second.memory_context is not None and MAYA in second.memory_context
    assert second.sent_content.startswith("ok\n\n")
    assert third.memory_context is None and fourth.memory_context is None
    assert searches(emu) == [
        {"query": "Who is Maya Okafor?", "limit": 3 + SPARE_ROWS, "snippet_chars": 1}
    ]
    assert driver.turns[0].user == "Who is Maya Okafor?"  # transcript copy stays clean
    assert all("Retrieved reference" not in m["content"] for m in driver.history)


def test_lean_server_gets_fields_lean(hermes_home: HermesHome) -> None:
    with Emulator(lean=True) as lean:
        make_profile(hermes_home, lean)
        with MemoryManagerDriver(load_provider("gbrain")) as driver:
            turn(driver, "sync api key")
            second = turn(driver, "ok")
        (args,) = searches(lean)
        assert args["fields"] == "lean"
        # the emulator flags the injection page; it is dropped, clean rows remain
        assert "notes/sync-vendor-instructions" not in second.prefetch
        assert second.prefetch.startswith(HEADER + "\n- [default:projects/driftwood-sync]")
        # spare rows let clean rows behind the flagged one still fill the limit
        assert second.prefetch.count("\n- [") == 3


def test_screen_on_by_default_and_can_be_turned_off(profile: Profile) -> None:
    with MemoryManagerDriver(load_provider("gbrain")) as driver:
        turn(driver, "sync api key")
        screened = turn(driver, "ok").prefetch
    assert "sync-vendor-instructions" not in screened and screened
    profile.set_env(GBRAIN_POINTER_SCREEN="0")
    with MemoryManagerDriver(load_provider("gbrain"), session_id="s9") as driver:
        turn(driver, "sync api key")
        unscreened = turn(driver, "ok").prefetch
    assert "[default:notes/sync-vendor-instructions]" in unscreened


def test_handed_out_once_and_only_to_its_session(profile: Profile) -> None:
    a = MemoryManagerDriver(load_provider("gbrain"), session_id="chat-a")
    b = MemoryManagerDriver(load_provider("gbrain"), session_id="chat-b")
    try:
        turn(a, "Who is Maya Okafor?")
        assert turn(b, "what is new").prefetch == ""  # chat-a's result is not chat-b's
        assert turn(a, "ok").prefetch == MAYA
        assert turn(a, "ok").prefetch == ""  # never re-emitted
    finally:
        a.close()
        b.close()


def test_new_provider_instance_picks_up_waiting_result(profile: Profile) -> None:
    """The gateway may rebuild the agent between turns: the store outlives the instance."""
    first = MemoryManagerDriver(load_provider("gbrain"), session_id="gw-1")
    turn(first, "Who is Maya Okafor?")
    second = MemoryManagerDriver(load_provider("gbrain"), session_id="gw-1")
    try:
        assert turn(second, "ok").prefetch == MAYA
    finally:
        first.close()
        second.close()


def test_limit_change_applies_at_hand_out(profile: Profile) -> None:
    profile.set_env(GBRAIN_POINTER_LIMIT="5")
    with MemoryManagerDriver(load_provider("gbrain")) as driver:
        turn(driver, "Who is Maya Okafor?")
        profile.set_env(GBRAIN_POINTER_LIMIT="1")
        block = turn(driver, "ok").prefetch
    assert block == f"{HEADER}\n- [default:people/maya-okafor] Maya Okafor"
    assert searches(profile.emu)[0]["limit"] == 5 + SPARE_ROWS


@pytest.mark.parametrize("value", ["junk", "0", "99"])
def test_limit_junk_and_clamp(profile: Profile, value: str) -> None:
    profile.set_env(GBRAIN_POINTER_LIMIT=value)
    with MemoryManagerDriver(load_provider("gbrain")) as driver:
        turn(driver, "Who is Maya Okafor?")
    expected = {"junk": 3, "0": 1, "99": 10}[value]
    assert searches(profile.emu)[0]["limit"] == expected + SPARE_ROWS


def test_source_filter_uses_query_without_expansion(profile: Profile) -> None:
    profile.set_env(GBRAIN_POINTER_SOURCE="work")
    with MemoryManagerDriver(load_provider("gbrain")) as driver:
        turn(driver, "ledger lake backfill")
        block = turn(driver, "ok").prefetch
    (req,) = [r for r in profile.emu.requests if r.tool]
    assert req.tool == "query"
    assert req.arguments == {
        "query": "ledger lake backfill",
        "limit": 3 + SPARE_ROWS,
        "snippet_chars": 1,
        "source_id": "work",
        "expand": False,
    }
    lines = block.splitlines()[1:]
    assert lines and all(line.startswith("- [work:") for line in lines)


def test_sync_budget_serves_the_current_turn(profile: Profile) -> None:
    profile.set_env(GBRAIN_POINTER_SYNC_BUDGET_MS="3000")
    with MemoryManagerDriver(load_provider("gbrain")) as driver:
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


def test_prefetch_never_waits_for_a_slow_server(profile: Profile) -> None:
    gate = threading.Event()
    arrived = threading.Event()
    profile.emu.knobs.gate = gate
    profile.emu.knobs.on_request = lambda rec: arrived.set() if rec.path == "/mcp" else None
    try:
        with MemoryManagerDriver(load_provider("gbrain")) as driver:
            driver.turn("Who is Maya Okafor?")
            assert arrived.wait(WAIT)
            started = time.monotonic()
            assert driver.turn("ok", flush=False).prefetch == ""
            assert time.monotonic() - started < 1.0
            gate.set()
            assert engine_idle()
    finally:
        gate.set()


def test_on_session_end_repeated_is_harmless(profile: Profile) -> None:
    with MemoryManagerDriver(load_provider("gbrain")) as driver:
        turn(driver, "Who is Maya Okafor?")
        for _ in range(3):
            driver.manager.on_session_end(driver.history)
        assert turn(driver, "ok").prefetch == MAYA
