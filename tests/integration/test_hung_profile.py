"""One hung brain, one healthy profile, one gateway process (real MemoryManagers).

Profile A's server holds every ``/mcp`` request on a gate while 8 of A's sessions keep
calling it; profile B, on its own server, must still get its briefing, its pointers and
a prompt ``gbrain_search``. Before the bulkheads, A's calls took every connection slot,
pointer worker and briefing slot in the process (``bench/bulkheads.py`` measures both).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hermes_gbrain import transport
from hermes_gbrain.emulator import Emulator
from hermes_gbrain.recall.pointers import shared_engine
from support.hermes_driver import MemoryManagerDriver, load_provider
from support.hermes_home import make_hermes_home
from support.pointer_env import fresh_process_state, make_profile
from support.soak import SoakProfile, profile_scope

WAIT = 10.0


@pytest.fixture
def two_profiles(tmp_path: Path) -> Iterator[tuple[SoakProfile, SoakProfile]]:
    from agent.secret_scope import set_multiplex_active

    fresh_process_state()
    emus = [Emulator().start(), Emulator().start()]
    profiles = []
    for name, emu in zip("ab", emus, strict=True):
        home = make_hermes_home(tmp_path / f"profile-{name}")
        made = make_profile(home, emu, GBRAIN_TOOLS="read", GBRAIN_BRIEFING="on")
        profiles.append(SoakProfile(name, home, emu, made.env, "gbrain", False))
    set_multiplex_active(True)
    try:
        yield profiles[0], profiles[1]
    finally:
        set_multiplex_active(False)
        for emu in emus:
            emu.knobs.gate = None
            emu.stop()
        fresh_process_state()


def _driver(profile: SoakProfile, session: str) -> MemoryManagerDriver:
    with profile_scope(profile):
        return MemoryManagerDriver(
            load_provider("gbrain"),
            session_id=session,
            init_kwargs={"hermes_home": str(profile.home.path), "platform": "telegram"},
        )


def _until(condition: Callable[[], bool]) -> None:
    """Wait for ``condition`` (a state other threads reach), failing after ``WAIT``."""
    tick = threading.Event()
    for _ in range(int(WAIT / 0.01)):
        if condition():
            return
        tick.wait(0.01)
    raise AssertionError("condition not reached in time")


def _full_share(shared: transport.Transport) -> object:
    found: list[object] = []

    def full() -> bool:
        found[:] = [
            key
            for key in list(shared.slots._held)
            if shared.slots.held(key) >= transport.DEFAULT_PER_SHARE
        ]
        return bool(found)

    _until(full)
    return found[0]


def test_a_hung_profile_leaves_the_other_its_memory_and_tools(
    two_profiles: tuple[SoakProfile, SoakProfile],
) -> None:
    a, b = two_profiles
    hung_a = [_driver(a, f"a{i}") for i in range(8)]
    with profile_scope(a):  # A was healthy until now: token and tool list cached
        hung_a[0].manager.handle_tool_call("gbrain_search", {"query": "Maya"})
    gate = threading.Event()
    a.emu.knobs.gate = gate
    callers = []
    try:
        for index, driver in enumerate(hung_a):

            def busy(driver: MemoryManagerDriver = driver, index: int = index) -> None:
                with profile_scope(a):
                    driver.turn("Who is Maya Okafor?" if index % 2 else "Tomas Lindqvist?")
                    driver.manager.handle_tool_call("gbrain_search", {"query": "Maya"})

            callers.append(threading.Thread(target=busy, daemon=True))
        for caller in callers:
            caller.start()
        shared = transport.shared_transport()
        # A's budget fills (4 connections) and stays full while its server holds them.
        a_share = _full_share(shared)
        driver = _driver(b, "b1")
        with profile_scope(b):
            first = driver.turn("Who is Maya Okafor?")
            answer = json.loads(
                driver.manager.handle_tool_call("gbrain_search", {"query": "Driftwood Sync"})
            )
            config = driver.provider._config  # type: ignore[attr-defined]
            _until(lambda: not shared_engine().pending(config.cache_key))
            second = driver.turn("Tell me about Tomas Lindqvist")
        assert "maya-okafor" in first.prefetch  # B's briefing
        assert "error" not in answer and "driftwood" in json.dumps(answer)  # B's tool call
        assert second.prefetch  # B's pointers
        assert shared.slots.held(a_share) == transport.DEFAULT_PER_SHARE  # A still hung
        with profile_scope(b):
            driver.close()
    finally:
        gate.set()
        for caller in callers:
            caller.join(WAIT)
        with profile_scope(a):
            for hung in hung_a:
                hung.close()
