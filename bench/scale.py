"""Scale: the digest build and the emulator on generated brains of 100 to 50,000 pages.

Digest (each size): the build as it was (list every page, names from the full list;
the baseline, run in the same process tree), the first build (no title index yet: a
full keyset listing of titles) and the next build after 20 edits (incremental). Each
runs in a child process against the emulator in this one, so time and peak memory
(tracemalloc) are the client's alone; requests are counted in the emulator's log.

Emulator (each size): ``search`` p50 over HTTP, and the cost of one ``put_page``.

    python bench/scale.py            # 1k and 10k digests; emulator at 100, 1k, 10k (~15 s)
    python bench/scale.py --large    # adds the 50k digest (~1 min more)
    python bench/scale.py --check    # exit 1 on a missed target
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from hermes_gbrain.connect import open_brain
from hermes_gbrain.emulator import Emulator
from hermes_gbrain.settings import load_settings
from targets import Targets, add_check_flag

QUERIES = ("pricing review", "Ada Abbott", "amber falcon", "security beacon team", "hiring")
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def child(mode: str, home: str) -> None:
    """Run one digest build (``baseline``/``build``) here and print its figures as JSON."""
    from hermes_gbrain.recall.digest import (
        _names,
        build_digest,
        compose_line,
        write_digest,
    )
    from hermes_gbrain.recall.vocabulary import TitleVocabulary

    brain = open_brain(load_settings(os.environ.get, hermes_home=Path(home)))
    brain.catalog()  # discovery is not what is measured
    when = NOW + timedelta(hours=float(os.environ.get("BENCH_HOURS", "0")))
    tracemalloc.start()
    started = time.perf_counter()
    if mode == "baseline":
        refs = brain.list_pages(sort="updated_desc")
        counts: dict[str, int] = {}
        for ref in refs:
            counts[ref.type or "concept"] = counts.get(ref.type or "concept", 0) + 1
        stamp = when.strftime("%Y-%m-%d %H:%M UTC")
        line = compose_line(stamp, len(refs), None, counts, _names(refs), 400)
        TitleVocabulary.build(r.title or r.slug.rsplit("/", 1)[-1] for r in refs)
        how = "full listing"
    else:
        digest = build_digest(brain, now=when, hermes_home=home)
        write_digest(home, digest)
        line, how = digest.line, str(digest.counts["titles"])
    seconds = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    print(json.dumps({"seconds": seconds, "peak_mb": peak / 2**20, "line": line, "how": how}))


def run_child(emu: Emulator, mode: str, home: str, hours: float = 0) -> dict[str, Any]:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("GBRAIN_")},
        **emu.client_env(f"bench-{mode}"),
        "BENCH_HOURS": str(hours),
        "HERMES_HOME": home,
    }
    emu.clear_requests()
    out = subprocess.run(
        [sys.executable, __file__, "--child", mode, home],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    result["requests"] = sum(1 for r in emu.requests if r.tool == "list_pages")
    return result


def digest_at(size: int, targets: Targets) -> None:
    print(f"digest, {size:,} pages:")
    with Emulator(brain=f"generated:{size}") as emu, tempfile.TemporaryDirectory() as home:
        base = run_child(emu, "baseline", home)
        first = run_child(emu, "build", home)
        for i in range(20):  # a day of edits: 10 new pages, 10 changed
            emu.store.put_page(f"notes/new-{i}", f"---\ntitle: New note {i}\n---\nbody {i}\n")
            old = emu.store.pages()[i * 7]
            emu.store.put_page(old.slug, f"---\ntype: {old.type}\ntitle: Renamed {i}\n---\nx\n")
        again = run_child(emu, "build", home, hours=6)
        for name, r in (("as before", base), ("first build", first), ("next build", again)):
            print(
                f"  {name:12} {r['how']:13} {r['seconds']:7.2f} s  {r['requests']:4} list_pages"
                f"  peak {r['peak_mb']:6.1f} MB"
            )
        targets.record(
            f"digest {size:,}: line unchanged",
            str(first["line"] == base["line"]),
            "True",
            first["line"] == base["line"],
        )
        cap = 4 + 1 + 1
        targets.record(
            f"digest {size:,}: next build requests",
            str(again["requests"]),
            f"<= {cap}",
            again["requests"] <= cap,
        )
        targets.record(
            f"digest {size:,}: next build time",
            f"{again['seconds']:.2f} s",
            f"<= 0.5 x as before ({base['seconds'] * 0.5:.2f} s) or <= 0.5 s",
            again["seconds"] <= max(0.5, base["seconds"] * 0.5),
        )
        targets.record(
            f"digest {size:,}: first build peak memory",
            f"{first['peak_mb']:.1f} MB",
            f"<= 2 x as before ({2 * base['peak_mb']:.1f} MB)",
            first["peak_mb"] <= 2 * base["peak_mb"],
        )


def emulator_at(size: int, reference: dict[str, float]) -> dict[str, float]:
    with Emulator(brain=f"generated:{size}") as emu, tempfile.TemporaryDirectory() as home:
        brain = open_brain(load_settings(emu.client_env("bench").get, hermes_home=Path(home)))
        brain.search("warm up", limit=10)
        times = []
        for _ in range(3):
            for query in QUERIES:
                started = time.perf_counter()
                brain.search(query, limit=10)
                times.append(time.perf_counter() - started)
        writes = []
        for i in range(200):
            started = time.perf_counter()
            emu.store.put_page(f"notes/bench-{i}", f"---\ntitle: Bench {i}\n---\nA body {i}.\n")
            writes.append(time.perf_counter() - started)
    figures = {"search_p50": statistics.median(times), "put": statistics.mean(writes)}
    print(
        f"  {size:>6,} pages: search p50 {figures['search_p50'] * 1000:7.1f} ms,"
        f" put_page {figures['put'] * 1000:6.2f} ms"
    )
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--large", action="store_true", help="add the 50k-page digest")
    parser.add_argument("--child", nargs=2, metavar=("MODE", "HOME"), help=argparse.SUPPRESS)
    add_check_flag(parser)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return 0
    targets = Targets()
    for size in (1_000, 10_000, *((50_000,) if args.large else ())):
        digest_at(size, targets)
    print("emulator:")
    small = emulator_at(100, {})
    for size in (1_000, 10_000):
        big = emulator_at(size, small)
        ratio = big["search_p50"] / small["search_p50"]
        targets.record(
            f"emulator {size:,}: search p50",
            f"{big['search_p50'] * 1000:.1f} ms ({ratio:.1f}x the 100-page figure)",
            "<= 250 ms (the unindexed 10k figure was 3.2 s)",
            big["search_p50"] <= 0.25,
        )
        grow = big["put"] / small["put"]
        targets.record(
            f"emulator {size:,}: put_page",
            f"{big['put'] * 1000:.2f} ms ({grow:.1f}x)",
            "<= 3x the 100-page figure (was 7-11x by 1,500)",
            grow <= 3.0,
        )
    return targets.finish(args.check)


if __name__ == "__main__":
    sys.exit(main())
