"""Bulkheads: a hung brain must not starve another profile (issue: "one slow brain").

Two profiles in one multiplexed gateway process, each on its own emulator, both driven
through real hermes-agent 0.19.0 ``MemoryManager``s. Profile B (healthy) runs the same
workload three times: with A idle, with A's server dripping 1 byte/s to 8 busy
sessions (turns and ``gbrain_search`` calls that hang until the deadline), and, as the
baseline in the same run, A hanging again with every budget process-wide (one share
for all: the design before the bulkheads). B's figures: turns that got memory (a
briefing or pointers) and ``gbrain_search`` latency.

Target: with A hanging, B's figures within 1.2x of A-idle.

    .venv/bin/python bench/bulkheads.py [--sessions 6] [--check]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from support.hermes_home import install_bootstrap_home, preload_hermes
from targets import Targets, add_check_flag

TOPICS = (
    "Who is Maya Okafor?",
    "Tell me about Tomas Lindqvist",
    "What is the Driftwood Sync project?",
)
RATIO = 1.2
A_SESSIONS = 8


def _setup(root: Path) -> tuple[Any, Any]:
    from hermes_gbrain.emulator import Emulator
    from support.hermes_home import make_hermes_home
    from support.pointer_env import make_profile
    from support.soak import SoakProfile

    profiles = []
    for name in ("a", "b"):
        emu = Emulator().start()
        home = make_hermes_home(root / f"profile-{name}")
        made = make_profile(home, emu, GBRAIN_TOOLS="read", GBRAIN_BRIEFING="on")
        profiles.append(SoakProfile(name, home, emu, made.env, "gbrain", False))
    return profiles[0], profiles[1]


def _driver(profile: Any, session: str) -> Any:
    from support.hermes_driver import MemoryManagerDriver, load_provider
    from support.soak import profile_scope

    with profile_scope(profile):
        return MemoryManagerDriver(
            load_provider("gbrain"),
            session_id=session,
            init_kwargs={"hermes_home": str(profile.home.path), "platform": "telegram"},
        )


def _pause(driver: Any) -> None:
    """A user's pause between turns: B's pointer search for the next turn ends first
    (at most 3 s), so the figures measure starvation, not a race with the next turn."""
    from hermes_gbrain.recall.pointers import shared_engine

    config = getattr(driver.provider, "_config", None)
    if config is None:
        return
    engine, until = shared_engine(), time.monotonic() + 3.0
    while engine.pending(config.cache_key) and time.monotonic() < until:
        time.sleep(0.01)


def _b_workload(b: Any, sessions: int, label: str) -> tuple[float, float]:
    """(share of B's turns that got memory, median gbrain_search seconds)."""
    from support.soak import profile_scope

    with_memory, turns, searches = 0, 0, []
    for index in range(sessions):
        driver = _driver(b, f"b-{label}-{index}")
        try:
            with profile_scope(b):
                for topic in TOPICS:
                    record = driver.turn(topic)
                    turns += 1
                    with_memory += bool(record.prefetch)
                    _pause(driver)
                began = time.monotonic()
                answer = driver.manager.handle_tool_call(
                    "gbrain_search", {"query": TOPICS[index % 3]}
                )
                searches.append(time.monotonic() - began)
                if '"error"' in answer[:20]:
                    searches[-1] = float("inf")
        finally:
            with profile_scope(b):
                driver.close()
    return with_memory / max(1, turns), statistics.median(searches)


def _hang_a(a: Any, stop: threading.Event) -> list[threading.Thread]:
    """8 busy A sessions against a server dripping 1 byte/s."""
    from support.soak import profile_scope

    drivers = [_driver(a, f"a-busy-{i}-{time.monotonic_ns()}") for i in range(A_SESSIONS)]
    with profile_scope(a):  # A was healthy until now: its token and tool list are cached
        drivers[0].manager.handle_tool_call("gbrain_search", {"query": "Maya"})
    a.emu.knobs.drip_interval_s = 1.0
    a.emu.knobs.drip_headers = True

    def busy(index: int) -> None:
        driver = drivers[index]
        with profile_scope(a):
            while not stop.is_set():
                driver.turn(TOPICS[index % 3], flush=False)
                driver.manager.handle_tool_call("gbrain_search", {"query": "Maya"})

    threads = [threading.Thread(target=busy, args=(i,), daemon=True) for i in range(A_SESSIONS)]
    for thread in threads:
        thread.start()
    return threads


def _fresh(shared: bool) -> None:
    """Fresh process-wide pools: per-credential budgets, or one budget for all (baseline)."""
    from hermes_gbrain import transport
    from hermes_gbrain.recall import briefing, pointers
    from support.pointer_env import fresh_process_state

    fresh_process_state()
    if transport._shared is not None:
        transport._shared.close()
    if shared:
        transport._shared = transport.Transport(max_connections=4, per_share=4)
        pointers._shared = pointers.PointerEngine(max_workers=4, per_share=4)
        briefing._shared = briefing.BriefingDesk(max_running=8, per_share=8)
    else:
        transport._shared = transport.Transport()
        pointers._shared = pointers.PointerEngine()
        briefing._shared = briefing.BriefingDesk()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=6)
    add_check_flag(parser)
    args = parser.parse_args()
    install_bootstrap_home()
    preload_hermes()
    from agent.secret_scope import set_multiplex_active

    set_multiplex_active(True)
    rows: dict[str, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory(prefix="gbrain-bulkheads-") as root:
        a, b = _setup(Path(root))
        try:
            for label, shared, hang in (
                ("A idle", False, False),
                ("A hung (bulkheads)", False, True),
                ("A hung (one budget, baseline)", True, True),
            ):
                _fresh(shared)
                a.emu.reset_knobs()
                stop = threading.Event()
                if hang:
                    _hang_a(a, stop)
                    time.sleep(1.0)  # let A's sessions fill whatever budget they can reach
                rows[label] = _b_workload(b, args.sessions, label.split()[1])
                stop.set()
                a.emu.stop()  # cuts A's dripping connections: its threads end at once
                a.emu.start()
                print(
                    f"  {label:<32} B turns with memory {rows[label][0]:5.0%}   "
                    f"B gbrain_search p50 {rows[label][1] * 1000:8.1f} ms",
                    flush=True,
                )
        finally:
            set_multiplex_active(False)
            a.emu.stop()
            b.emu.stop()
    idle, hung = rows["A idle"], rows["A hung (bulkheads)"]
    t = Targets()
    t.record(
        "B turns with memory, A hung / A idle",
        f"{hung[0]:.0%} / {idle[0]:.0%}",
        f">= 1/{RATIO}",
        hung[0] * RATIO >= idle[0],
    )
    t.record(
        "B gbrain_search p50, A hung / A idle",
        f"{hung[1] * 1000:.1f} / {idle[1] * 1000:.1f} ms",
        f"<= x{RATIO} (+5 ms)",
        hung[1] <= idle[1] * RATIO + 0.005,
    )
    return t.finish(args.check)


if __name__ == "__main__":
    sys.exit(main())
