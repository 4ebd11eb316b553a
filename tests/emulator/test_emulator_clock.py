"""The emulator's clock: search's recency boost dates pages from it, so a pinned clock ranks
the same on any day (what ``bench/judge_fit.py`` needs to be deterministic)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import httpx
from emu_client import Mcp, mint

from hermes_gbrain.emulator import Emulator

TEMPORAL = "what's new with the beacon app today"  # a temporal query: recency applies


def _scores(clock: datetime | None) -> list[tuple[str, Any]]:
    with Emulator(clock=clock) as emu, httpx.Client(trust_env=False, timeout=10.0) as http:
        result = Mcp(emu, http, mint(emu, "read")).call("search", {"query": TEMPORAL})
    return [(row["slug"], row["score"]) for row in json.loads(result["content"][0]["text"])]


def test_a_pinned_clock_ranks_the_same_and_another_moment_otherwise() -> None:
    pinned = datetime(2026, 12, 4, tzinfo=UTC)
    first = _scores(pinned)
    assert first and first == _scores(pinned)
    # a year later the same pages have aged: the recency boost scores them lower
    later = dict(_scores(datetime(2027, 12, 4, tzinfo=UTC)))
    assert any(later.get(slug, 0.0) < score for slug, score in first)
