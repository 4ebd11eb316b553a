"""Added turn latency of the full ``gbrain`` provider, measured in one run.

Hermes waits for ``prefetch`` before it calls the model, so the time the provider
takes between ``on_turn_start`` and the end of ``prefetch_all`` is added to every
turn. This drives hermes-agent's real ``MemoryManager`` (its prefetch thread
included) against the bundled emulator answering every MCP call in 30 ms (a keyword
search on loopback) and in 150 ms (hybrid search with embeddings), and prints, per
server latency:

* baseline: one bare keep-alive ``httpx`` POST of the same search (what waiting for a
  search cannot beat), and the provider with ``GBRAIN_POINTER_SYNC_BUDGET_MS=0``
  (background only: pointers one turn late, nothing about the current message);
* the provider with each budget in ``--budgets`` (default: 100, 250 = the default, 400):
  added latency p50/p99 beside the target (p99 within the budget) and the share of
  turns whose pointers arrived in time (turns with pointers, against a reference run
  with a 5 s budget, since some messages have no relevant page not shown lately);
* the first turn of a new process (``hermes -z``, a resumed chat) at the default
  budget: token mint and ``tools/list`` come before the search. The emulator delays
  ``tools/list`` as much as a search, which a real GBrain answers without embeddings,
  so at 150 ms this row is the pessimistic case.

Only the default budget carries a target (p99 of warm turns within it); the other rows
are for comparison.

The briefing is off here (it is a first-turn wait with its own budget).

    .venv/bin/python bench/turn_latency.py [--turns 100] [--budgets 100,250,400] [--check]

``--check`` exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import environment, fresh_state, pct

MESSAGES = (
    "Who is Maya Okafor?",
    "How is the Driftwood Sync project going?",
    "What does Tomas Lindqvist do?",
    "Tell me about the Series A fundraise",
    "What is Ledger Lake?",
    "Who is Priya Raman?",
    "What did we decide about the on-device store?",
    "Where does the Fernseed classifier stand?",
    "What is the Beacon app?",
    "Who is Elena Vasquez?",
)
LATENCIES_MS = (30, 150)


def provider_turns(
    home: Path,
    env: dict[str, str],
    budget: int,
    turns: int,
    *,
    cold: bool = False,
) -> dict[str, Any]:
    """Added latency (ms) per turn and how many turns got pointers about their message;
    ``cold``: one turn per fresh process state instead of one long session."""
    if cold:
        runs = [provider_turns_warm(home, env, budget, 1, warm=0) for _ in range(turns)]
        return {
            "added": [r["added"][0] for r in runs],
            "current": sum(r["current"] for r in runs),
        }
    return provider_turns_warm(home, env, budget, turns)


def provider_turns_warm(
    home: Path,
    env: dict[str, str],
    budget: int,
    turns: int,
    *,
    warm: int = 3,
) -> dict[str, Any]:
    from agent.memory_manager import MemoryManager

    from hermes_gbrain.adapters.provider import GBrainMemoryProvider
    from hermes_gbrain.recall.pointers import shared_engine

    fresh_state()
    with environment({**env, "GBRAIN_POINTER_SYNC_BUDGET_MS": str(budget)}):
        manager = MemoryManager()
        manager.add_provider(GBrainMemoryProvider())
        session = f"bench-{budget}-{time.monotonic_ns()}"
        manager.initialize_all(session_id=session, platform="cli", hermes_home=str(home))
        added: list[float] = []
        current = 0
        for n in range(turns + warm):  # warm-up turns: token, catalog, connection
            message = MESSAGES[n % len(MESSAGES)]
            start = time.perf_counter()
            manager.on_turn_start(n + 1, message)
            block = manager.prefetch_all(message) or ""
            took = (time.perf_counter() - start) * 1000
            manager.queue_prefetch_all(message, session_id=session)
            manager.flush_pending(timeout=5)
            shared_engine().wait_idle(5)
            if n >= warm:
                added.append(took)
                current += budget > 0 and "[default:" in block
        manager.shutdown_all()
    return {"added": added, "current": current}


def row(
    label: str,
    budget: int,
    default: int,
    result: dict[str, Any],
    reference: float,
    *,
    target: bool,
) -> int:
    """Print one measured row; 1 when it carries a target and misses it."""
    added = result["added"]
    p99 = pct(added, 0.99)
    ok = p99 <= budget
    share = 100.0 * result["current"] / reference if reference else 0.0
    mark = " (default)" if budget == default and label.startswith("budget") else ""
    verdict = (
        f"target p99 <= {budget}: {'met' if ok else 'MISSED'}"
        if target
        else (f"(no target; p99 {'within' if ok else 'over'} {budget})")
    )
    print(
        f"  {label + mark:38} p50 {pct(added, 0.5):7.1f}  p99 {p99:7.1f}   "
        f"in time: {min(share, 100):3.0f}%   {verdict}"
    )
    return 0 if ok or not target else 1


def bare_search(emu: Any, client: tuple[str, str], turns: int) -> list[float]:
    token = emu.mint_token(*client, scope="read")
    headers = {
        "Authorization": f"Bearer {token}",
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
    }
    out: list[float] = []
    with httpx.Client() as http:
        for n in range(turns + 3):
            body = {
                "jsonrpc": "2.0",
                "id": n,
                "method": "tools/call",
                "params": {
                    "name": "search",
                    "arguments": {"query": MESSAGES[n % len(MESSAGES)], "limit": 5},
                },
            }
            start = time.perf_counter()
            response = http.post(emu.mcp_url, content=json.dumps(body), headers=headers)
            response.read()
            if n >= 3:
                out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--budgets", default="100,250,400")
    parser.add_argument("--check", action="store_true", help="exit 1 on a missed target")
    args = parser.parse_args()
    budgets = [int(b) for b in args.budgets.split(",") if b.strip()]

    bootstrap = tempfile.mkdtemp(prefix="hermes-gbrain-bench-home-")
    os.environ["HERMES_HOME"] = bootstrap  # before any Hermes import
    from hermes_gbrain.emulator import Emulator
    from hermes_gbrain.recall.turns import DEFAULT_BUDGET_MS

    missed = 0
    with tempfile.TemporaryDirectory(prefix="hermes-gbrain-bench-") as tmp, Emulator() as emu:
        home = Path(tmp)
        client = emu.register_client("bench-reader", scopes="read")
        env = {
            **emu.client_env("bench-turns", scopes="read"),
            "GBRAIN_BRIEFING": "off",
            "GBRAIN_TOOLS": "off",
            "GBRAIN_DIGEST": "off",
        }
        print(f"added turn latency, {args.turns} turns each, through Hermes' MemoryManager (ms)")
        print(f"default budget: {DEFAULT_BUDGET_MS} ms")
        for latency in LATENCIES_MS:
            emu.reset_knobs()
            emu.knobs.latency_s = latency / 1000.0
            print(f"\nemulator answering every MCP call in {latency} ms")
            bare = bare_search(emu, client, args.turns)
            print(
                f"  baseline: bare search POST             p50 {pct(bare, 0.5):7.1f}  "
                f"p99 {pct(bare, 0.99):7.1f}"
            )
            background = provider_turns(home, env, 0, args.turns)["added"]
            print(
                f"  baseline: budget 0 (background)        p50 {pct(background, 0.5):7.1f}  "
                f"p99 {pct(background, 0.99):7.1f}   (pointers one turn late, never in time)"
            )
            reference = provider_turns(home, env, 5_000, args.turns)["current"]
            for budget in budgets:
                result = provider_turns(home, env, budget, args.turns)
                missed += row(
                    f"budget {budget:4d}",
                    budget,
                    DEFAULT_BUDGET_MS,
                    result,
                    reference,
                    target=budget == DEFAULT_BUDGET_MS,
                )
            cold = max(10, args.turns // 5)
            row(
                f"first turn of a process ({cold}x)",
                DEFAULT_BUDGET_MS,
                DEFAULT_BUDGET_MS,
                provider_turns(home, env, DEFAULT_BUDGET_MS, cold, cold=True),
                reference * cold / args.turns,
                target=False,
            )
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
