"""The write soak: 10,000 page writes through the outbox while GBrain is slow and crashes.

Eight writer threads, four outbox workers sharing one profile's queue file, forty pages,
another client editing those pages every 20 ms, and faults switched on at random for half
a second every second: writes applied after the client gave up on them, slow answers,
slow page reads, 502s, and worker crashes at a random step of a write (2% of sends). The
harness is ``tests/support/write_soak.py`` (the suite runs a few-second version of it).

Prints each figure beside its target (met/missed); ``--check`` exits 1 on a miss.

    .venv/bin/python bench/write_soak.py [--writes 10000] [--seed 1] [--check]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from support.write_soak import WriteSoakConfig, run_write_soak
from targets import Targets, add_check_flag


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--writes", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    add_check_flag(parser)
    args = parser.parse_args()
    config = WriteSoakConfig(writes=args.writes, seed=args.seed)
    print(
        f"write soak: {config.writes} writes, {config.writers} writers, {config.workers}"
        f" workers, {config.pages} pages, seed {config.seed}; deadline {config.deadline_s} s,"
        f" settle margin {config.margin_s} s, backoff cap {config.max_backoff_s} s"
    )
    r = run_write_soak(config)
    print(f"ran in {r.seconds:.1f} s; faults {dict(sorted(r.faults.items()))}, crashes {r.crashes}")
    print(f"rows by final state: {dict(sorted(r.states.items()))}")
    print(f"our writes applied by the server: {r.applied}; the other client's edits: {r.edits}")
    print(
        f"edits that landed between a write's last page check and its arrival (the one window"
        f" a server without conditional writes leaves): {r.raced}"
    )
    if r.refused:
        print(f"enqueues refused (queue file busy past SQLite's timeout), tried again: {r.refused}")
    if r.lost_states:
        print(f"lost writes, by outbox state: {r.lost_states[:20]}")
    for line in r.stuck[:20]:
        print(f"stuck: {line}")
    t = Targets()
    t.record("writes queued", str(r.writes), f"= {config.writes}", r.writes == config.writes)
    t.record("rows stuck after the last start", str(len(r.stuck)), "0", not r.stuck)
    t.record("writes lost", str(r.lost), "0", not r.lost)
    t.record("writes applied twice", str(r.applied_twice), "0", not r.applied_twice)
    t.record("writes over a newer edit they had seen", str(r.clobbered), "0", not r.clobbered)
    t.record("writes out of order per page", str(r.out_of_order), "0", not r.out_of_order)
    t.record("crashes injected", str(r.crashes), ">= 1", r.crashes >= 1)
    t.record(
        "slow-apply faults injected",
        str(r.faults["slow-apply"]),
        ">= 1",
        r.faults["slow-apply"] >= 1,
    )
    return t.finish(args.check)


if __name__ == "__main__":
    sys.exit(main())
