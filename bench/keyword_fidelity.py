"""How closely the emulator's keyword-only search ranks like a real keyword-only GBrain 0.46.28.

The keyword-only twin of ``hybrid_fidelity.py``: both brains hold the large benchmark brain
(here written as ``gbrain import`` writes them, there imported into a GBrain without an
embedding provider), every distinct message of ``bench/data/relevance.json`` and the pairs
search a turn sends beside it (``recall.pairs``) go to ``search`` (no limit) on each, and the
rows are compared: the same first row (top-1), the same first three rows in order (top-3), the
share of the real first ten pages the emulator also returns among its first ten (top-10
overlap), and, for the rows both return, a score within 0.001 (and a ``base_score``, the score
before the backlink and recency boosts). The figures are given for every search, for the
first two sets (tune, holdout), the later ones (fresh, then sealed and on) and the
pairs searches apart; a search in several groups counts in each.

The real side is read from ``bench/data/keyword_real.json`` (slug, chunk source, score and
base_score of each row a real server returned), so the comparison runs without a server. To
take those rows again::

    .venv/bin/python bench/hybrid_fidelity.py --seed DIR      # the pages, one file each
    GBRAIN_SEED_DIR=DIR build.sh WORKDIR 3151                 # a real keyword-only GBrain
    .venv/bin/python bench/keyword_fidelity.py --record WORKDIR/env/read.env
    stop.sh WORKDIR

GBrain breaks score ties by page id, which follows the import order (``gbrain import`` takes
the folder's files in reverse path order), so record from a brain that imported exactly the
folder ``--seed`` writes and nothing else.

Targets: top-1 >= 95%, top-3 in order >= 80%.

    .venv/bin/python bench/keyword_fidelity.py [--check] [--real FILE] [--show N]
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from hermes_gbrain.emulator import Emulator
from hermes_gbrain.recall.pairs import pair_query
from hybrid_fidelity import (
    DATA,
    TOP1_TARGET,
    TOP3_TARGET,
    Client,
    _slugs,
    fidelity_parser,
    messages,
    record,
    seed_as_imported,
)
from relevance import SPLITS
from targets import Targets

REAL = DATA / "keyword_real.json"
FIELDS = ("slug", "chunk_source", "score", "base_score")
FIRST_SETS = SPLITS[:2]
"""The sets written with the gate (tune, holdout); the rest were written without sight of it."""
LATER_SETS = SPLITS[2:]


class Tally:
    """The agreement figures over one group of searches."""

    def __init__(self) -> None:
        self.searches = self.top1 = self.top3 = 0
        self.real10 = self.both10 = 0  # pages among the real first ten, and of those ours too
        self.shared = self.score_same = self.base_same = 0  # rows both return

    def add(self, theirs: list[dict[str, Any]], ours: list[dict[str, Any]]) -> None:
        self.searches += 1
        self.top1 += _slugs(ours, 1) == _slugs(theirs, 1)
        self.top3 += _slugs(ours, 3) == _slugs(theirs, 3)
        real10 = set(_slugs(theirs, 10))
        self.real10 += len(real10)
        self.both10 += len(real10 & set(_slugs(ours, 10)))
        by_key = {(r["slug"], r["chunk_source"]): r for r in theirs}
        for row in ours:
            other = by_key.get((row["slug"], row["chunk_source"]))
            if other is not None:
                self.shared += 1
                self.score_same += abs(row["score"] - other["score"]) <= 0.001
                self.base_same += abs(row["base_score"] - other["base_score"]) <= 0.001

    def line(self, name: str) -> str:
        n = max(self.searches, 1)
        return (
            f"  {name}: {self.searches} searches; top-1 {self.top1 / n:.1%}, "
            f"top-3 in order {self.top3 / n:.1%}, "
            f"top-10 overlap {self.both10 / max(self.real10, 1):.1%}, "
            f"of {self.shared} rows both return, score within 0.001 "
            f"{self.score_same / max(self.shared, 1):.1%} (base_score "
            f"{self.base_same / max(self.shared, 1):.1%})"
        )


def emulator_rows(queries: Sequence[str]) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    with Emulator(seed=False) as emu:
        seed_as_imported(emu)
        client = Client(emu.client_env("fidelity", scopes="read"), FIELDS)
        try:
            for query in queries:
                yield query, client.search(query)
        finally:
            client.close()


def _badness(theirs: list[dict[str, Any]], ours: list[dict[str, Any]]) -> tuple[int, ...]:
    """Worst first: a different first row, then how far down (or whether) the emulator has the
    real first row, then how many of the real first three and first ten it lacks."""
    mine = _slugs(ours, len(ours))
    first = _slugs(theirs, 1)
    return (
        mine[:1] != first,
        (mine.index(first[0]) if first[0] in mine else len(mine) + 100) if first else 0,
        len(set(_slugs(theirs, 3)) - set(mine[:3])),
        len(set(_slugs(theirs, 10)) - set(mine[:10])),
    )


def compare(real: dict[str, list[dict[str, Any]]], show: int, check: bool) -> int:
    groups = {
        name: set(messages(sets=sets))
        for name, sets in (
            ("first two sets", FIRST_SETS),
            (f"later {len(LATER_SETS)} sets", LATER_SETS),
        )
    }
    groups["pairs searches"] = set(pair_queries(messages()))
    tallies = {"all": Tally(), **{name: Tally() for name in groups}}
    misses: list[tuple[tuple[int, ...], str, list[str], list[str]]] = []
    for query, ours in emulator_rows(list(real)):
        theirs = real[query]
        tallies["all"].add(theirs, ours)
        for name, members in groups.items():
            if query in members:
                tallies[name].add(theirs, ours)
        if _slugs(ours, 3) != _slugs(theirs, 3):
            misses.append((_badness(theirs, ours), query, _slugs(theirs, 3), _slugs(ours, 3)))
    misses.sort(key=lambda m: m[0], reverse=True)
    print(f"Keyword-only ranking, emulator against a real GBrain 0.46.28: {len(real)} searches")
    for name, tally in tallies.items():
        if tally.searches:
            print(tally.line(name))
    for _, query, want, got in misses[:show]:
        print(f"  differs: {query[:60]!r}\n    real     {want}\n    emulator {got}")
    total = tallies["all"]
    n = max(total.searches, 1)
    targets = Targets()
    targets.record(
        "same first row",
        f"{total.top1 / n:.1%}",
        f">= {TOP1_TARGET:.0%}",
        total.top1 / n >= TOP1_TARGET,
    )
    targets.record(
        "same first three rows in order",
        f"{total.top3 / n:.1%}",
        f">= {TOP3_TARGET:.0%}",
        total.top3 / n >= TOP3_TARGET,
    )
    return targets.finish(check)


def pair_queries(said: Sequence[str]) -> list[str]:
    """The pairs searches (``recall.pairs``) a turn sends beside these messages."""
    return list(dict.fromkeys(q for m in said if (q := pair_query(m)) is not None))


def main(argv: Sequence[str] | None = None) -> int:
    args = fidelity_parser(__doc__, REAL, 5).parse_args(argv)
    if args.record:
        return record(args.record, args.real, FIELDS, extra=pair_queries(messages()))
    real = json.loads(args.real.read_text(encoding="utf-8"))
    return compare(real, args.show, args.check)


if __name__ == "__main__":
    sys.exit(main())
