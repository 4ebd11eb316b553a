"""What memory write-back adds to a turn, beside Hermes' own memory write, in one run.

Hermes' ``memory`` tool writes ``MEMORY.md`` (locked, fsynced, atomically replaced) and then
calls ``on_memory_write``; our hook only commits ledger rows (SQLite, WAL, synchronous FULL)
and wakes the worker. N interleaved adds: Hermes' ``MemoryStore.add`` (the baseline the
turn already pays) and ``Mirror.record`` (what write-back adds), medians and p95. Then the
background delivery: time from ``record`` to the fact stored on the bundled emulator.
Targets: the hook's p95 <= 25 ms and its median <= 2x Hermes' own write; delivery median
<= 100 ms on loopback.

    .venv/bin/python bench/writeback.py [--n 200] [--check]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from targets import Targets, add_check_flag


def _p95(values: list[float]) -> float:
    return sorted(values)[max(0, int(len(values) * 0.95) - 1)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200, help="writes of each kind (default 200)")
    add_check_flag(parser)
    args = parser.parse_args()
    n = args.n
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "hermes"
        (home / "memories").mkdir(parents=True)
        os.environ["HERMES_HOME"] = str(home)  # before Hermes resolves its memory folder
        from tools.memory_tool import MemoryStore

        from hermes_gbrain.connect import open_brain
        from hermes_gbrain.emulator import Emulator
        from hermes_gbrain.emulator.facts import facts_for
        from hermes_gbrain.files import data_dir
        from hermes_gbrain.settings import load_settings
        from hermes_gbrain.writeback.ledger import DB_NAME, Ledger
        from hermes_gbrain.writeback.mirror import Mirror, MirrorPolicy

        store = MemoryStore(memory_char_limit=10_000_000, user_char_limit=10_000_000)
        store.load_from_disk()
        with Emulator() as emu:
            settings = load_settings(
                {
                    **emu.client_env("bench", scopes="read write"),
                    "GBRAIN_POINTER_ALLOW_HTTP": "1",
                }.get,
                hermes_home=home,
            )
            ledger = Ledger(data_dir(home) / DB_NAME)
            policy = MirrorPolicy(endpoint=settings.mcp_url, profile="default", session="bench")
            brain = open_brain(settings, scope="read write")
            mirror = Mirror(ledger, policy, lambda: brain)
            meta = {"execution_context": "foreground", "session_id": "bench"}
            hermes: list[float] = []
            ours: list[float] = []
            for i in range(n):
                text = f"Bench entry number {i} about the quarterly plan"
                started = time.perf_counter()
                store.add("memory", text)
                hermes.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                mirror.record("add", "memory", text, meta)
                ours.append((time.perf_counter() - started) * 1000)
            # Delivery: the worker sends what is queued; then one write at a time, timed.
            mirror.start()
            mirror.wait_idle(120)
            facts = facts_for(emu.store.db)
            delivery: list[float] = []
            for i in range(min(n, 50)):
                text = f"Delivered entry {i}"
                stored = threading.Event()
                started = time.perf_counter()
                mirror.record("add", "memory", text, meta)
                deadline = time.monotonic() + 10
                while not stored.is_set() and time.monotonic() < deadline:
                    if any(f.fact == text for f in facts.all("default")[:3]):
                        stored.set()
                    else:
                        stored.wait(0.002)
                delivery.append((time.perf_counter() - started) * 1000)
            mirror.drain(5)
            mirror.close()
            sent = len(facts.all("default"))
    h_med, o_med, d_med = (statistics.median(v) for v in (hermes, ours, delivery))
    print(f"memory write-back, {n} adds each, interleaved")
    print(f"  Hermes' own write (baseline): median {h_med:.2f} ms, p95 {_p95(hermes):.2f} ms")
    print(f"  write-back hook:              median {o_med:.2f} ms, p95 {_p95(ours):.2f} ms")
    print(f"  delivery to GBrain (loopback, {len(delivery)} single writes): median {d_med:.1f} ms")
    print(f"  facts stored: {sent} (expected {n + len(delivery)})")
    targets = Targets()
    targets.record("hook p95", f"{_p95(ours):.2f} ms", "<= 25 ms", _p95(ours) <= 25)
    ratio = o_med / h_med if h_med else float("inf")
    targets.record("hook / Hermes write (median)", f"{ratio:.2f}x", "<= 2x", ratio <= 2)
    targets.record("delivery median", f"{d_med:.1f} ms", "<= 100 ms", d_med <= 100)
    targets.record(
        "each write stored once", str(sent), str(n + len(delivery)), sent == n + len(delivery)
    )
    return targets.finish(args.check)


if __name__ == "__main__":
    sys.exit(main())
