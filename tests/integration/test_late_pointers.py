"""A search that misses its turn (a slow or far brain) serves the next turn, but only with
rows the relevance gate passes for that next message: real Hermes 0.19.0, the emulator."""

from __future__ import annotations

import pytest

from hermes_gbrain.emulator import Emulator
from support.hermes_driver import MemoryManagerDriver, load_provider
from support.hermes_home import HermesHome
from support.pointer_env import engine_idle, make_profile

pytestmark = pytest.mark.hermes

MAYA = "[default:people/maya-okafor]"
SLOW_S = 0.4  # every MCP call: well past the 100 ms budget set below


def _driver(hermes_home: HermesHome, emu: Emulator) -> MemoryManagerDriver:
    make_profile(hermes_home, emu, GBRAIN_POINTER_SYNC_BUDGET_MS="100")
    driver = MemoryManagerDriver(load_provider("gbrain"), session_id="late")
    driver.turn("hello there, how are things today?")  # token and catalog, on loopback time
    assert engine_idle()
    emu.knobs.latency_s = SLOW_S
    return driver


def test_a_late_answer_serves_a_follow_up_on_the_same_subject(
    hermes_home: HermesHome, emu: Emulator
) -> None:
    with _driver(hermes_home, emu) as driver:
        first = driver.turn("Who is Maya Okafor?")
        assert MAYA not in first.prefetch  # too late for its own turn
        assert engine_idle()
        follow_up = driver.turn("And what is Maya Okafor's background?")
    assert MAYA in follow_up.prefetch


def test_a_late_answer_never_reaches_a_turn_about_something_else(
    hermes_home: HermesHome, emu: Emulator
) -> None:
    with _driver(hermes_home, emu) as driver:
        first = driver.turn("Who is Maya Okafor?")
        assert MAYA not in first.prefetch
        assert engine_idle()
        other = driver.turn("What is the Beacon app?")
    assert MAYA not in other.prefetch, other.prefetch
    assert "kestrel-works" not in other.prefetch


def test_hook_mode_offers_a_late_answer_to_the_next_turn_of_its_own_session(
    hermes_home: HermesHome, emu: Emulator
) -> None:
    from hermes_gbrain.adapters.hook import GBrainHook

    make_profile(hermes_home, emu, GBRAIN_POINTER_SYNC_BUDGET_MS="100")
    hook = GBrainHook()
    hook.pre_llm_call(session_id="h1", user_message="hello there, how are things today?")
    assert engine_idle()
    emu.knobs.latency_s = SLOW_S
    history = [{"role": "user", "content": "hello there, how are things today?"}]
    first = hook.pre_llm_call(session_id="h1", user_message="Who is Maya Okafor?",
                              conversation_history=history)  # fmt: skip
    assert first is None or MAYA not in first["context"]  # too late for its own turn
    assert engine_idle()
    history.append({"role": "user", "content": "Who is Maya Okafor?"})
    other = hook.pre_llm_call(session_id="h2", user_message="And Maya Okafor's background?")
    assert other is None or MAYA not in other["context"]  # another session: not its answer
    follow_up = hook.pre_llm_call(session_id="h1", user_message="And Maya Okafor's background?",
                                  conversation_history=history)  # fmt: skip
    assert follow_up is not None and MAYA in follow_up["context"]
