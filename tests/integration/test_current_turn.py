"""The full provider's per-turn memory through real hermes-agent 0.19.0 and the emulator.

Pointers are about the message being answered (searched in ``on_turn_start``, waited
for by ``prefetch`` within a budget), trivial turns get nothing and cost no search, a
page the session saw within five turns is not pointed at again, and the briefing
happens once per session even when every turn is a new process.
"""

from __future__ import annotations

import re
import stat
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from hermes_gbrain.commands.main import main
from hermes_gbrain.emulator import Emulator
from hermes_gbrain.mcp import MCP_DEADLINE_S
from hermes_gbrain.recall import briefing as briefing_module
from hermes_gbrain.recall.briefing import SEARCH_ROWS, cited_pages
from hermes_gbrain.recall.pointers import HEADER, StoreKey, shared_engine
from hermes_gbrain.recall.shown import REPEAT_TURNS, reset_shared_log, sessions_dir, shared_log
from support.hermes_driver import MemoryManagerDriver, load_provider
from support.hermes_home import HermesHome
from support.pair_searches import without_pairs
from support.pointer_env import Profile, engine_idle, fresh_process_state, make_profile

pytestmark = pytest.mark.hermes

BRIEF_LINE = re.compile(r"^- .+ \[[a-z]+:[a-z0-9/._-]+\] — ", re.MULTILINE)
MAYA = "[default:people/maya-okafor]"
TOMAS = "[default:people/tomas-lindqvist]"


def pointer_searches(emu: Emulator) -> list[dict[str, Any]]:
    """Pointer searches (a briefing of its own asks for exactly ``SEARCH_ROWS`` rows, pointers
    more; on the first turn the briefing reads the pointer search's rows)."""
    return [
        dict(r.arguments or {})
        for r in without_pairs(emu.requests)
        if r.tool in ("search", "query") and (r.arguments or {}).get("limit") != SEARCH_ROWS
    ]


def new_process() -> None:
    """Forget everything a Hermes process keeps in memory (engine, desk, session log)."""
    fresh_process_state()
    briefing_module._shared = None
    reset_shared_log()


@pytest.fixture
def briefed(hermes_home: HermesHome, emu: Emulator) -> Profile:
    profile = make_profile(hermes_home, emu, GBRAIN_BRIEFING="on")
    assert main(["digest", "--hermes-home", str(hermes_home.path), "--quiet"]) == 0
    emu.clear_requests()
    return profile


def test_each_turn_gets_pointers_about_its_own_message(profile: Profile) -> None:
    emu = profile.emu
    with MemoryManagerDriver(load_provider("gbrain")) as driver:
        first = driver.turn("Who is Maya Okafor?")
        trivial = [driver.turn(m) for m in ("ok", "thanks!", "/help")]
        third = driver.turn("What does Tomas Lindqvist do?")
        assert engine_idle()
    assert first.prefetch.startswith(f"{HEADER}\n- {MAYA} Maya Okafor")
    assert all(t.memory_context is None for t in trivial)
    assert TOMAS in third.prefetch and MAYA not in third.prefetch
    # one search per real message, started at the turn; none after it, none for "ok"
    assert [s["query"] for s in pointer_searches(emu)] == [
        "Who is Maya Okafor?",
        "What does Tomas Lindqvist do?",
    ]


def test_a_page_is_not_pointed_at_again_within_five_turns(briefed: Profile) -> None:
    messages = [
        "Who is Maya Okafor?",
        "What is Maya Okafor working on?",
        "Tell me about Tomas Lindqvist",
        "How is the Driftwood Sync project going?",
        "What is Ledger Lake?",
        "Who is Priya Raman?",
        "Who is Maya Okafor again?",
    ]
    with MemoryManagerDriver(load_provider("gbrain")) as driver:
        records = [driver.turn(m) for m in messages]
        assert engine_idle()
    shown = [set(cited_pages(r.prefetch)) for r in records]
    assert BRIEF_LINE.search(records[0].prefetch) and MAYA in shown[0]
    for n, pages in enumerate(shown):
        for earlier in shown[max(0, n - REPEAT_TURNS) : n]:
            assert not pages & earlier, (n + 1, pages & earlier)
    assert MAYA not in shown[1]  # briefed on turn 1: the model has it
    assert MAYA in shown[6]  # six turns later it may be pointed at again
    assert not BRIEF_LINE.search("".join(r.prefetch for r in records[1:]))  # briefed once
    # the search for a turn with recent pages asks for more rows, to fill the limit
    limits = [s["limit"] for s in pointer_searches(briefed.emu)]
    assert limits[1] > limits[0]


def test_briefed_once_per_session_across_processes(briefed: Profile) -> None:
    home = briefed.home.path
    with MemoryManagerDriver(load_provider("gbrain"), session_id="cli-1") as driver:
        first = driver.turn("Who is Maya Okafor?")
    assert BRIEF_LINE.search(first.prefetch)
    new_process()  # `hermes chat -q … --resume cli-1`: a new process, turn 2
    with MemoryManagerDriver(load_provider("gbrain"), session_id="cli-1", first_turn=2) as d2:
        second = d2.turn("And what is Maya Okafor working on these days?")
    new_process()
    with MemoryManagerDriver(load_provider("gbrain"), session_id="cli-1", first_turn=3) as d3:
        third = d3.turn("Tell me about Tomas Lindqvist")
    # one recall per turn (the briefing reads turn 1's), and no second briefing
    assert [str(r.tool) for r in without_pairs(briefed.emu.requests)].count("search") == 3
    assert not BRIEF_LINE.search(second.prefetch + third.prefetch)
    assert MAYA not in second.prefetch  # shown on turn 1, in another process
    assert TOMAS in third.prefetch  # about its own message
    # a brand-new session in a new process is briefed
    new_process()
    with MemoryManagerDriver(load_provider("gbrain"), session_id="cli-2") as other:
        assert BRIEF_LINE.search(other.turn("Who is Maya Okafor?").prefetch)
    # the record: one small owner-only file per session, slugs and turns, no message text
    files = sorted(sessions_dir(home).glob("*.json"))
    assert len(files) == 2
    for path in files:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        text = path.read_text(encoding="utf-8")
        assert "Who is" not in text and "working on" not in text and "cli-" not in text
        assert len(text) < 1_000


def test_past_the_budget_the_turn_gets_nothing_and_the_late_result_never_shows(
    profile: Profile,
) -> None:
    profile.set_env(GBRAIN_POINTER_SYNC_BUDGET_MS="100")
    emu = profile.emu
    gate = threading.Event()
    emu.knobs.gate = gate
    try:
        with MemoryManagerDriver(load_provider("gbrain")) as driver:
            provider: Any = driver.provider
            key = StoreKey(str(profile.home.path), provider._config.cache_key, "s1")
            started = time.monotonic()
            late = driver.turn("Who is Maya Okafor?", flush=False)
            # The server still holds the search: the turn ended on its budget, not on the
            # search's own deadline (a loaded machine may stretch 0.1 s, never to 12 s).
            assert time.monotonic() - started < MCP_DEADLINE_S
            gate.set()
            assert engine_idle()  # the late answer has arrived...
            assert not shared_engine().waiting(key)  # ...and was published nowhere
            ack = driver.turn("ok")
            profile.set_env(GBRAIN_POINTER_SYNC_BUDGET_MS="5000")
            next_real = driver.turn("Tell me about Tomas Lindqvist")
    finally:
        gate.set()
    assert late.memory_context is None and ack.memory_context is None
    assert TOMAS in next_real.prefetch  # its own search, in time


def test_budget_zero_restores_background_pointers(profile: Profile) -> None:
    profile.set_env(GBRAIN_POINTER_SYNC_BUDGET_MS="0")
    with MemoryManagerDriver(load_provider("gbrain")) as driver:
        first = driver.turn("Who is Maya Okafor?")
        assert engine_idle()
        ack = driver.turn("ok")  # trivial: the waiting result stays
        real = driver.turn("How is the Driftwood Sync project going?")
    assert first.memory_context is None and ack.memory_context is None
    assert MAYA in real.prefetch  # turn 1's search, one turn late


def test_default_budget_applies_when_unset(profile: Profile) -> None:
    profile.set_env(GBRAIN_POINTER_SYNC_BUDGET_MS=None)
    gate = threading.Event()
    profile.emu.knobs.gate = gate
    try:
        with MemoryManagerDriver(load_provider("gbrain")) as driver:
            started = time.monotonic()
            record = driver.turn("Who is Maya Okafor?", flush=False)
            elapsed = time.monotonic() - started
            gate.set()
    finally:
        gate.set()
    # The default budget (at most 1 s), not the held search's own deadline.
    assert record.memory_context is None and elapsed < MCP_DEADLINE_S


def test_one_session_key_for_briefing_pointers_and_record(briefed: Profile) -> None:
    """Hermes' ``session_id`` argument, when given, keys everything of that turn."""
    provider: Any = load_provider("gbrain")
    provider.initialize("instance-session", hermes_home=str(briefed.home.path))
    message = "Who is Maya Okafor?"
    provider.on_turn_start(1, message, session_id="hermes-session")
    block = provider.prefetch(message, session_id="hermes-session")
    assert BRIEF_LINE.search(block)
    provider.on_turn_start(2, message, session_id="hermes-session")
    again = provider.prefetch(message, session_id="hermes-session")
    assert not BRIEF_LINE.search(again) and MAYA not in again  # same session: no repeat
    provider.shutdown()
    log = shared_log()
    home = str(briefed.home.path)
    assert log.briefed(home, "hermes-session") and MAYA in log.recent(home, "hermes-session", 3)
    assert not log.briefed(home, "instance-session")
    assert log.recent(home, "instance-session", 3) == frozenset()


def test_prefetch_searches_a_message_it_was_not_told_about(profile: Profile) -> None:
    """A skill turn hands ``prefetch`` only the user's instruction: it searches that."""
    provider: Any = load_provider("gbrain")
    provider.initialize("s1", hermes_home=str(profile.home.path))
    provider.on_turn_start(1, "Who is Maya Okafor?")
    block = provider.prefetch("Tell me about Tomas Lindqvist")
    assert TOMAS in block and MAYA not in block
    provider.shutdown()


@pytest.fixture(scope="module")
def large_brain() -> Iterator[Emulator]:
    with Emulator(brain="large", lean=False) as emulator:
        yield emulator


def test_a_follow_up_points_back_at_what_the_last_turn_showed(
    hermes_home: HermesHome, large_brain: Emulator
) -> None:
    make_profile(hermes_home, large_brain)
    messages = ["Marula Conservancy - how big is it?", "who's their head ranger?"]
    with MemoryManagerDriver(load_provider("gbrain")) as driver:
        first, second = (driver.turn(m) for m in messages)
        assert engine_idle()
    assert "[default:companies/marula-conservancy]" in cited_pages(first.prefetch)
    # the head ranger of Marula, not the Savanna Trust's
    assert cited_pages(second.prefetch) == ["[default:people/samuel-mwangi]"]
    with MemoryManagerDriver(load_provider("gbrain")) as driver:  # a new session: no subject
        alone = driver.turn(messages[1])
        assert engine_idle()
    assert "[default:people/jomo-otieno]" in cited_pages(alone.prefetch)
