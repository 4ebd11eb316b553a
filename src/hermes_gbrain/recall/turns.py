"""Pointers about the message being answered, within a small budget.

The full provider and the hook search a message as soon as Hermes shows it
(``on_turn_start`` on hermes-agent 0.19.0, before ``prefetch``; the hook's own call
otherwise) and wait for the answer only until a deadline set when the search was
started. A search that misses its deadline is orphaned: it may finish its request,
but its rows answer a message already sent to the model, so they are never handed out
(the next non-trivial turn searches its own message instead).

Rows pass the same relevance gate as the briefing (``briefing.select_rows``) before
they become pointer lines, and the caller drops pages the session was shown within the
last few turns (``shown.REPEAT_TURNS``); :func:`rows_wanted` asks the server for a few
more rows so that the limit can still be filled with other relevant pages.
"""

from __future__ import annotations

import contextvars
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..api import SearchRow
from .briefing import Gate, select_rows
from .config import PointerConfig, PointerSearch
from .pointers import MAX_LIMIT, QUERY_CHARS, Outcome, Owner, PointerEngine, StoreKey, Ticket

__all__ = [
    "DEFAULT_BUDGET_MS",
    "GatedSearch",
    "TurnSearch",
    "budget_ms",
    "collect",
    "rows_wanted",
    "start",
]

DEFAULT_BUDGET_MS = 250
"""How long a turn may wait for its own pointers by default (see README, "Pointer
recall in Hermes": a keyword search on loopback answers in ~30 ms, hybrid search with
embeddings in ~150 ms; ``bench/turn_latency.py`` measures both)."""
REPEAT_SPARE_MAX = 5
"""At most this many rows are asked for beyond the limit to replace recent pages."""


def budget_ms(config: PointerConfig, default: int = DEFAULT_BUDGET_MS) -> int:
    """``GBRAIN_POINTER_SYNC_BUDGET_MS`` when set (0 = background only), else ``default``."""
    return default if config.sync_budget_ms is None else config.sync_budget_ms


def rows_wanted(limit: int, recent: frozenset[str]) -> int:
    """The pointer limit plus room for the recently shown pages the block will drop."""
    return min(MAX_LIMIT, limit + min(len(recent), REPEAT_SPARE_MAX))


class GatedSearch:
    """A pointer search whose rows pass the relevance gate for the message searched."""

    __slots__ = ("_gate", "_search")

    def __init__(self, config: PointerConfig, gate: Gate) -> None:
        self._search = PointerSearch(config)
        self._gate = gate

    def __call__(self, query: str, limit: int) -> Sequence[SearchRow]:
        rows = self._search(query, limit)
        return select_rows(rows, query, gate=self._gate, limit=MAX_LIMIT)


@dataclass(frozen=True, slots=True)
class TurnSearch:
    """The search for one turn's message and the moment its turn stops waiting."""

    key: StoreKey
    query: str
    ticket: Ticket
    deadline: float

    def answers(self, key: StoreKey, query: str) -> bool:
        """True when this search is for ``query`` in the session ``key``."""
        return self.key == key and self.query == query[:QUERY_CHARS]


def start(
    engine: PointerEngine,
    key: StoreKey,
    query: str,
    *,
    rows: int,
    search: GatedSearch,
    owner: Owner,
    budget_ms: int,
    screen: bool = True,
    context: contextvars.Context | None = None,
    outcome: Outcome | None = None,
    since: float | None = None,
) -> TurnSearch | None:
    """Start the search for this turn's message; never blocks. None if the engine is closed.

    The deadline is ``budget_ms`` after ``since`` (a ``time.monotonic()`` reading taken
    when Hermes showed the message), else after now."""
    deadline = (time.monotonic() if since is None else since) + max(0, budget_ms) / 1000.0
    ticket = engine.submit(
        key, query, rows, search, owner=owner, screen=screen, context=context, outcome=outcome
    )
    if ticket is None:
        return None
    return TurnSearch(key, query[:QUERY_CHARS], ticket, deadline)


def collect(engine: PointerEngine, turn: TurnSearch) -> str:
    """The turn's pointer block (up to ``MAX_LIMIT`` lines), waiting until its deadline
    at most; ``""`` when nothing relevant was found or the search is late (then orphaned)."""
    turn.ticket.done.wait(max(0.0, turn.deadline - time.monotonic()))
    if not turn.ticket.done.is_set():
        engine.invalidate(turn.key)
        return ""
    return engine.take(turn.key, MAX_LIMIT)
