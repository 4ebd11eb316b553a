"""The prompt policy against a hostile and a benign corpus, and what the screen costs.

The corpora are ``tests/support/screen_corpus.py``: hostile variants (instructions a page
author could plant, in over 20 families of disguise, in titles, summaries, slugs, source
ids, facts and server errors, warnings and notes) and benign items (titles including
"System Design Review", "Ignore list", "Override policy", "Note to self", names in 24
languages, slugs). Each is run through the pointers, the briefing (rows and facts), the
digest and the ``gbrain_*`` tools' answers (the real bridge, over a fake MCP server).

Figures and targets:

1. hostile variants that reach the prompt on any path: 0 (of at least 500, 20 families);
2. benign items dropped on any path: at most 0.5% (of at least 2,000);
3. every ordered pair of two disguises stacked on every base payload (about 6,500 texts,
   none of them in the corpus as such), caught by the screen: at least 99%;
4. the cost of one pointer block (10 rows: references and titles through the policy, none
   screened before: the screen remembers what it read) beside the same rows only
   flattened to one line, measured in the same run: at most 5 ms a block (pointers wait
   at most 250 ms for their search).

Run: ``python bench/screen.py [--check]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from hermes_gbrain.api import SearchRow
from hermes_gbrain.recall.pointers import pointer_lines
from hermes_gbrain.recall.screen import _screened, looks_like_instructions
from hermes_gbrain.text import one_line
from support.screen_corpus import (
    Harness,
    benign_items,
    dropped,
    hostile_variants,
    reached,
    stacked_disguises,
)
from targets import Targets, add_check_flag

MAX_DROPPED = 0.005
MAX_BLOCK_MS = 5.0
MIN_STACKED = 0.99


def _rows() -> list[SearchRow]:
    titles = [b.text for b in benign_items() if b.kind in ("title", "name")][:10]
    return [
        SearchRow(slug=f"people/row-{i}", title=t, source_id="default", score=1.0)
        for i, t in enumerate(titles)
    ]


def _per_block_ms(fn: object, rounds: int = 300) -> float:
    started = time.perf_counter()
    for _ in range(rounds):
        fn()  # type: ignore[operator]
    return (time.perf_counter() - started) * 1000 / rounds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_check_flag(parser)
    args = parser.parse_args()
    targets = Targets()
    with tempfile.TemporaryDirectory(prefix="bench-screen-") as home:
        harness = Harness(Path(home))
        hostile = hostile_variants()
        families = Counter(v.family for v in hostile)
        paths: Counter[str] = Counter()
        reached_by_family: Counter[str] = Counter()
        for number, variant in enumerate(hostile):
            hits = reached(harness, variant, f"zq{number:04d}")
            paths.update(hits)
            reached_by_family[variant.family] += bool(hits)
        count = sum(reached_by_family.values())
        print(f"hostile corpus: {len(hostile)} variants in {len(families)} families")
        for family, total in sorted(families.items()):
            print(f"  {family:<32} {total:>4} variants, {reached_by_family[family]} reached")
        print(f"  reached per path: {dict(paths) or 'none'}")
        targets.record(
            "hostile variants reaching the prompt",
            f"{count} of {len(hostile)}",
            "0 of >= 500 in >= 20 families",
            count == 0 and len(hostile) >= 500 and len(families) >= 20,
        )
        benign = benign_items()
        lost = []
        for number, item in enumerate(benign):
            if dropped(harness, item, f"zq{number:04d}"):
                lost.append(f"{item.kind}: {item.text}")
        share = len(lost) / len(benign)
        print(f"benign corpus: {len(benign)} items; dropped: {lost or 'none'}")
        targets.record(
            "benign items dropped",
            f"{len(lost)} of {len(benign)} ({share:.2%})",
            f"<= {MAX_DROPPED:.1%} of >= 2,000",
            share <= MAX_DROPPED and len(benign) >= 2_000,
        )
    stacked = stacked_disguises()
    caught = sum(looks_like_instructions(text) for text in stacked)
    targets.record(
        "stacked disguises caught",
        f"{caught} of {len(stacked)} ({caught / len(stacked):.2%})",
        f">= {MIN_STACKED:.0%}",
        caught / len(stacked) >= MIN_STACKED,
    )
    rows = _rows()
    baseline = _per_block_ms(lambda: [one_line(r.title, 160) for r in rows])
    warm = _per_block_ms(lambda: pointer_lines(rows))
    cold = _per_block_ms(lambda: (_screened.cache_clear(), pointer_lines(rows)))
    print(
        f"one pointer block of {len(rows)} rows: flattening only {baseline:.3f} ms; "
        f"rows screened before (the same pages again) {warm:.3f} ms"
    )
    targets.record(
        "pointer block through the policy, rows never screened before",
        f"{cold:.2f} ms ({cold / baseline:.0f}x flattening only)",
        f"<= {MAX_BLOCK_MS:g} ms",
        cold <= MAX_BLOCK_MS,
    )
    return targets.finish(args.check)


if __name__ == "__main__":
    sys.exit(main())
