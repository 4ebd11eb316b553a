"""Relevance of the first-turn briefing and of pointers, measured on a labelled query set.

The queries (written by us over the emulator's sample brain, the fictional startup
Kestrel Works) come in three kinds:

* ``named``: the message names a page (title, alias or a close variant);
* ``paraphrase``: it asks about a page's subject without naming it;
* ``none``: nothing in the brain answers it (chit-chat, other domains, near misses).

Each query lists the pages a careful human would accept as relevant. For the
briefing (with each gate) and for pointers, it prints precision@3 (relevant share of
what was injected, averaged over the queries that got an injection), hit rate (the
query's first labelled page was injected), the share of ``none`` queries that still
got an injection, and injected tokens per turn (characters / 4, averaged over every
query, zeros included). Target: no-answer injections <= 10% while precision@3 on the
named queries stays >= 0.8.

    .venv/bin/python bench/relevance.py [--sweep] [--check]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hermes_gbrain.api import SearchRow
from hermes_gbrain.emulator import Emulator
from hermes_gbrain.recall.briefing import (
    SEARCH_ROWS,
    BriefingSearch,
    Gate,
    format_briefing,
    select_rows,
)
from hermes_gbrain.recall.config import PointerConfig, PointerSearch
from hermes_gbrain.recall.pointers import format_block, pointer_lines
from hermes_gbrain.settings import load_settings
from targets import Targets, add_check_flag

Q = tuple[str, str, tuple[str, ...]]

# (kind, message, relevant slugs: the first is the page the message is about)
QUERIES: tuple[Q, ...] = (
    # -- named pages -----------------------------------------------------------------
    ("named", "Who is Maya Okafor?", ("people/maya-okafor", "facts/maya-okafor-preferences")),
    ("named", "What does Tomas Lindqvist do?", ("people/tomas-lindqvist",)),
    ("named", "Tell me about Priya Raman", ("people/priya-raman",)),
    ("named", "What is Jonah Reyes working on these days?", ("people/jonah-reyes",)),
    ("named", "Is Lin Chen the right person to ask about reports?", ("people/lin-chen",)),
    ("named", "What did Elena Vasquez ask for at the board?", (
        "people/elena-vasquez", "meetings/2026-03-09-board-update")),
    ("named", "Samuel Mwangi sent feedback again", ("people/samuel-mwangi",)),
    ("named", "Give me a summary of Kestrel Works", ("companies/kestrel-works",)),
    ("named", "How did we meet Brightwater Ventures?", ("companies/brightwater-ventures",)),
    ("named", "When does the Marula Conservancy contract renew?", (
        "companies/marula-conservancy",)),
    ("named", "How is the Beacon App doing?", ("projects/beacon-app",)),
    ("named", "Status of Driftwood Sync please", ("projects/driftwood-sync",)),
    ("named", "How accurate is the Fernseed Classifier now?", ("projects/fernseed-classifier",)),
    ("named", "Where are we with the Series A fundraise?", ("projects/series-a-fundraise",)),
    ("named", "Remind me what Ledger Lake does", ("projects/ledger-lake",)),
    ("named", "What does offline-first design mean for us?", ("concepts/offline-first",)),
    ("named", "Explain CRDT in two sentences", ("concepts/crdt",)),
    ("named", "What is our data retention policy?", ("concepts/data-retention-policy",)),
    ("named", "Summarise the sync design review", ("meetings/2026-03-02-sync-design-review",)),
    ("named", "What happened at the board update?", ("meetings/2026-03-09-board-update",)),
    ("named", "What's in the hiring plan for 2026?", ("notes/hiring-plan-2026",)),
    ("named", "How do I run the Ledger Lake backfill?", (
        "runbooks/ledger-lake-backfill", "projects/ledger-lake")),
    # -- paraphrases (no page named) -------------------------------------------------
    ("paraphrase", "Who leads our fundraising?", (
        "people/maya-okafor", "projects/series-a-fundraise")),
    ("paraphrase", "Which investor sits on our board?", (
        "people/elena-vasquez", "companies/brightwater-ventures")),
    ("paraphrase", "How do phones merge conflicting edits?", (
        "projects/driftwood-sync", "concepts/crdt")),
    ("paraphrase", "How long do we keep ranger observations?", (
        "concepts/data-retention-policy",)),
    ("paraphrase", "Why did we pick SQLite for the phone?", ("decisions/sqlite-on-device",)),
    ("paraphrase", "Which species can the model recognise on the phone?", (
        "projects/fernseed-classifier", "concepts/on-device-inference")),
    ("paraphrase", "What did rangers complain about during the field visit?", (
        "meetings/2026-03-16-marula-field-debrief", "people/samuel-mwangi")),
    ("paraphrase", "Why did the nightly pipeline job fail?", (
        "meetings/2026-03-12-oncall-retro", "projects/ledger-lake")),
    ("paraphrase", "How many images do the motion cameras produce?", (
        "concepts/camera-trap-images",)),
    ("paraphrase", "What is our monthly revenue?", (
        "facts/kestrel-key-numbers", "meetings/2026-03-09-board-update")),
    ("paraphrase", "Who is our first paying customer?", (
        "companies/marula-conservancy", "companies/kestrel-works")),
    ("paraphrase", "Who designed the glove-friendly capture screen?", (
        "people/jonah-reyes", "projects/beacon-app")),
    # -- nothing relevant ------------------------------------------------------------
    ("none", "What's the weather like today?", ()),
    ("none", "Can you write me a poem about the sea?", ()),
    ("none", "Fix this python traceback please", ()),
    ("none", "What is the capital of Australia?", ()),
    ("none", "Recommend a good pasta recipe for dinner", ()),
    ("none", "How do I center a div in CSS?", ()),
    ("none", "Translate 'good morning' into Spanish", ()),
    ("none", "What time is it in Tokyo right now?", ()),
    ("none", "Explain how a binary search tree works", ()),
    ("none", "Summarise the plot of Hamlet", ()),
    ("none", "What are the rules of chess castling?", ()),
    ("none", "Help me plan a birthday party for my son", ()),
    ("none", "Which phone should I buy this year?", ()),
    ("none", "How do I reset my router password?", ()),
    ("none", "Draft an email declining a wedding invitation", ()),
    ("none", "What is the best way to learn the guitar?", ()),
)  # fmt: skip


@dataclass
class Figures:
    """One layer's (or gate's) measurements."""

    name: str
    precision: dict[str, float]
    hit_rate: dict[str, float]
    none_injected: float
    tokens_per_turn: float
    tokens_when_injected: float


def _precision(injected: Sequence[str], relevant: Sequence[str]) -> float | None:
    if not injected:
        return None
    return sum(1 for slug in injected if slug in relevant) / len(injected)


def measure(
    name: str,
    run: Callable[[str], tuple[list[str], str]],
    queries: Sequence[Q] = QUERIES,
) -> Figures:
    """``run(message) -> (injected slugs, injected text)`` over every query."""
    per_kind: dict[str, list[float]] = {}
    hits: dict[str, list[float]] = {}
    none_hits = 0
    none_total = 0
    tokens: list[float] = []
    for kind, message, relevant in queries:
        slugs, text = run(message)
        tokens.append(len(text) / 4)
        if kind == "none":
            none_total += 1
            none_hits += bool(slugs)
            continue
        hits.setdefault(kind, []).append(float(relevant[0] in slugs))
        p = _precision(slugs, relevant)
        if p is not None:
            per_kind.setdefault(kind, []).append(p)
    injected = [t for t in tokens if t > 0]
    return Figures(
        name=name,
        precision={k: statistics.fmean(v) for k, v in per_kind.items()},
        hit_rate={k: statistics.fmean(v) for k, v in hits.items()},
        none_injected=none_hits / max(1, none_total),
        tokens_per_turn=statistics.fmean(tokens),
        tokens_when_injected=statistics.fmean(injected) if injected else 0.0,
    )


def _row(f: Figures) -> str:
    def pct(d: dict[str, float], k: str) -> str:
        return f"{d[k]:5.2f}" if k in d else "   - "

    return (
        f"{f.name:<34} {pct(f.precision, 'named')}  {pct(f.hit_rate, 'named')}   "
        f"{pct(f.precision, 'paraphrase')}  {pct(f.hit_rate, 'paraphrase')}   "
        f"{f.none_injected:6.0%}   {f.tokens_per_turn:6.1f} ({f.tokens_when_injected:5.1f})"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sweep", action="store_true", help="also try other gates and ratios")
    add_check_flag(parser)
    args = parser.parse_args(argv)
    kinds = {k for k, _, _ in QUERIES}
    counts = {k: sum(1 for q in QUERIES if q[0] == k) for k in sorted(kinds)}
    with Emulator() as emu:
        env = emu.client_env("bench-reader", scopes="read")
        config = PointerConfig(settings=load_settings(env.get, hermes_home="bench-home"))
        briefing_search = BriefingSearch(config)
        pointer_search = PointerSearch(config)
        rows_cache: dict[str, Sequence[SearchRow]] = {}

        def briefing(gate: Gate) -> Callable[[str], tuple[list[str], str]]:
            def run(message: str) -> tuple[list[str], str]:
                if message not in rows_cache:
                    rows_cache[message] = briefing_search(message, SEARCH_ROWS)
                chosen = select_rows(rows_cache[message], message, gate=gate, limit=3)
                return [r.slug for r in chosen], format_briefing(chosen)

            return run

        def pointers(message: str) -> tuple[list[str], str]:
            lines = pointer_lines(pointer_search(message, 3))[:3]
            slugs = [line.split("]", 1)[0].split(":", 1)[1] for line in lines]
            return slugs, format_block(lines, 3)

        results = [measure("briefing, gate=anchored (default)", briefing(Gate()))]
        if args.sweep:
            for mode in ("anchored", "evidence", "off"):
                for ratio in (0.0, 0.3, 0.5, 0.6, 0.7, 0.8):
                    if mode == "off" and ratio:
                        continue
                    gate = Gate(mode=mode, min_ratio=ratio)
                    results.append(measure(f"  briefing, {mode} ratio={ratio}", briefing(gate)))
        results.append(measure("pointers (no gate, 3 per turn)", pointers))
    print(
        f"Relevance on the sample brain: {len(QUERIES)} labelled queries "
        + ", ".join(f"{n} {k}" for k, n in counts.items())
    )
    print(
        f"{'layer':<34} {'named':^12}   {'paraphrase':^12}   {'none':>6}   {'tokens/turn':>13}\n"
        f"{'':<34} {'P@3':>5}  {'hit':>5}   {'P@3':>5}  {'hit':>5}   {'inj.':>6}   "
        f"{'all (inj.)':>13}"
    )
    for figures in results:
        print(_row(figures))
    default = results[0]
    targets = Targets()
    print("\ntargets (briefing default):")
    none = default.none_injected
    targets.record("no-answer injections", f"{none:.0%}", "<= 10%", none <= 0.10)
    named = default.precision.get("named", 0.0)
    targets.record("named P@3", f"{named:.2f}", ">= 0.8", named >= 0.8)
    return targets.finish(args.check)


if __name__ == "__main__":
    sys.exit(main())
