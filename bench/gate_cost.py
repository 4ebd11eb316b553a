"""The relevance gate's own work per message: what it adds to a turn once the rows are in.

Messages are the first turns of the labelled sets (``bench/data/relevance.json``), a fixed
sample of 2,000 drawn with a fixed seed. Each is searched once through the provider's
retrieval (``relevance.PROVIDER_RETRIEVAL``) on the keyword-only emulator with the large
brain; then only the gate is timed, each message three times, its fastest run kept (the
others hold a garbage collection or a scheduler pause, which is not the gate's work):

* ``evidence`` mode (the baseline, in the same run): the older rule of GBrain's own
  signals, which reads no words;
* ``anchored`` (the default) with the profile's title vocabulary and title index, as a
  profile with a fresh digest gates;
* the same with the second reading of the rows off, which a lowercase name whose page the
  message names sets off (:func:`hermes_gbrain.recall.gate._met`): what that second
  reading costs, and on how many messages.

Target: the default gate's p99 within 25 ms a message (a tenth of the default turn budget,
250 ms). Figures depend on the machine: the ratios to the baseline travel better.

    .venv/bin/python bench/gate_cost.py [--check] [--messages N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hermes_gbrain.api import SearchRow
from hermes_gbrain.recall import gate as gate_module
from hermes_gbrain.recall.gate import Gate, gate_rows
from relevance import load_sessions, provider_on_large_brain
from targets import Targets, add_check_flag

SEED = 20261204
MESSAGES = 2000
REPEATS = 3
TARGET_P99_MS = 25.0

Sample = list[tuple[str, Sequence[SearchRow]]]


def _per_message(sample: Sample, rules: Gate) -> list[float]:
    """The fastest of :data:`REPEATS` runs of the gate per message, in ms."""
    taken = []
    for message, rows in sample:
        best = float("inf")
        for _ in range(REPEATS):
            start = time.perf_counter()
            gate_rows(rows, message, gate=rules, limit=3)
            best = min(best, time.perf_counter() - start)
        taken.append(best * 1000)
    return taken


def _line(label: str, taken: list[float], baseline: float | None = None) -> str:
    p50 = statistics.median(taken)
    p99 = statistics.quantiles(taken, n=100)[98]
    mean = statistics.fmean(taken)
    ratio = f"   x{mean / baseline:.1f} the baseline's mean" if baseline else ""
    return f"  {label:<44} p50 {p50:6.2f}  p99 {p99:6.2f}  mean {mean:6.2f} ms{ratio}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    add_check_flag(parser)
    parser.add_argument("--messages", type=int, default=MESSAGES, help="how many to sample")
    args = parser.parse_args(argv)
    firsts = [s.turns[0].message for s in load_sessions()]
    chosen = random.Random(SEED).sample(firsts, min(args.messages, len(firsts)))
    with provider_on_large_brain() as (retrieve, rules):
        sample: Sample = [(m, retrieve(m, [], [])) for m in chosen]
    evidence = _per_message(sample, Gate(mode="evidence"))
    anchored = _per_message(sample, rules)
    met: Callable[..., set[str]] = gate_module._met
    reread = 0

    def counting(rows: Any, readings: Any, message: Any, vocabulary: Any) -> set[str]:
        """The second reading's trigger, counted; the rows are then read once only."""
        nonlocal reread
        reread += bool(met(rows, readings, message, vocabulary) - message.known)
        return set()

    with mock.patch.object(gate_module, "_met", counting):
        once = _per_message(sample, rules)
    rows = statistics.fmean(len(r) for _, r in sample)
    print(
        f"The gate's own work on {len(sample)} first turns of the labelled sets "
        f"(large brain, keyword-only; {rows:.1f} rows a message; fastest of {REPEATS} runs)"
    )
    base = statistics.fmean(evidence)
    print(_line("baseline: evidence mode (reads no words)", evidence))
    print(_line("anchored, default", anchored, base))
    print(_line("anchored, rows read once (no second reading)", once, base))
    print(f"  messages whose rows the gate read a second time: {reread // REPEATS}/{len(sample)}")
    targets = Targets()
    p99 = statistics.quantiles(anchored, n=100)[98]
    targets.record(
        "default gate p99 a message", f"{p99:.1f} ms", f"<= {TARGET_P99_MS:.0f} ms", p99 <= 25
    )
    return targets.finish(args.check)


if __name__ == "__main__":
    sys.exit(main())
