"""A new conversation starts with an empty conversation window (real MemoryManager).

``volunteer_context`` reads the last few user messages. After Hermes' ``/new``
(``on_session_switch(..., reset=True)``) or a new ``initialize`` none of them may be
from the conversation before: its pages would be volunteered to the new one.
"""

from __future__ import annotations

import pytest

from hermes_gbrain.emulator import Emulator
from support.hermes_driver import PRIMARY_INIT_KWARGS, MemoryManagerDriver, load_provider
from support.hermes_home import HermesHome
from support.pointer_env import Profile, engine_idle, make_profile

pytestmark = pytest.mark.hermes

OLD = ("Remind me what Ledger Lake does", "And how is Driftwood Sync doing?")
NEW = "Who is Priya Raman?"


@pytest.fixture
def profile(hermes_home: HermesHome, emu: Emulator) -> Profile:
    return make_profile(hermes_home, emu)


def windows(emu: Emulator) -> list[str]:
    return [
        str((r.arguments or {}).get("window"))
        for r in emu.requests
        if r.tool == "volunteer_context"
    ]


def _old_conversation(driver: MemoryManagerDriver, emu: Emulator) -> None:
    for message in OLD:
        driver.turn(message)
    assert engine_idle()
    assert "Ledger Lake" in windows(emu)[-1]  # the window does carry earlier turns


@pytest.mark.parametrize("how", ["reset", "initialize"])
def test_a_new_conversation_has_a_clean_window(profile: Profile, how: str) -> None:
    emu = profile.emu
    with MemoryManagerDriver(load_provider("gbrain")) as driver:
        _old_conversation(driver, emu)
        if how == "reset":  # what 0.19.0's /new sends
            driver.manager.on_session_switch("s2", parent_session_id="s1", reset=True)
        else:
            driver.manager.initialize_all(session_id="s2", **PRIMARY_INIT_KWARGS)
        emu.clear_requests()
        record = driver.turn(NEW)
        assert engine_idle()
    assert windows(emu) == [f"user: {NEW}"]
    context = record.memory_context or ""
    assert "people/priya-raman" in context
    assert "ledger-lake" not in context and "driftwood" not in context


def test_a_branch_keeps_the_conversation_window(profile: Profile) -> None:
    emu = profile.emu
    with MemoryManagerDriver(load_provider("gbrain")) as driver:
        _old_conversation(driver, emu)
        driver.manager.on_session_switch("s2", parent_session_id="s1", reason="branch")
        emu.clear_requests()
        driver.turn(NEW)
        assert engine_idle()
    assert windows(emu) == ["\n".join(f"user: {m}" for m in (*OLD, NEW))]
