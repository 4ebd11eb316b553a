"""Pointers about the message being answered, within a small budget.

The full provider and the hook search a message as soon as Hermes shows it
(``on_turn_start`` on hermes-agent 0.19.0, before ``prefetch``; the hook's own call
otherwise) and wait for the answer only until a deadline set when the search was
started. A search that misses its deadline is orphaned: it may finish its request,
but its rows answer a message already sent to the model, so its block is never handed
out. The next non-trivial turn searches its own message, and the late rows join that
turn's pointers only as far as the gate passes them for the new message
(:func:`late_pointers`). The deadline follows the brain's measured distance
(``distance``).

Rows come from the same call as the briefing's (``GBrain.recall_rows``: GBrain's
``volunteer_context`` over the last few user messages, then ``search``, with short
summaries the gate reads) and pass the same relevance gate (``briefing.select_rows``)
before they become pointer lines. On the turn that starts the briefing it *is* the same
call (:meth:`GatedSearch.share`, :mod:`.sharedcall`): one ``volunteer_context`` and one
``search`` serve both, each layer waiting within its own budget. Pages the session was
shown within the last few turns (``shown.REPEAT_TURNS``) are named to GBrain as prior
context and skipped by the gate; :func:`rows_wanted` asks for a few more rows so that the
limit can still be filled with other relevant pages. This is the configuration
``bench/relevance.py`` measures.
"""

from __future__ import annotations

import contextvars
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..api import SearchRow
from .briefing import SEARCH_ROWS, Gate, cited_pages, select_rows
from .config import SPARE_ROWS, PointerConfig, brain_for
from .distance import measured_budget_ms, record_search
from .gate import gate_rows
from .pointers import (
    MAX_LIMIT,
    QUERY_CHARS,
    Outcome,
    Owner,
    PointerEngine,
    StoreKey,
    Ticket,
    format_block,
    pointer_lines,
)
from .rowwords import row_key
from .sharedcall import SharedRecall

__all__ = [
    "DEFAULT_BUDGET_MS",
    "GatedSearch",
    "TurnSearch",
    "budget_ms",
    "collect",
    "late_pointers",
    "merge_blocks",
    "rows_wanted",
    "start",
    "warm",
    "window_of",
]

log = logging.getLogger(__name__)

DEFAULT_BUDGET_MS = 250
"""How long a turn may wait for its own pointers by default (see README, "Pointer
recall in Hermes": a keyword search on loopback answers in ~30 ms, hybrid search with
embeddings in ~150 ms; ``bench/turn_latency.py`` measures both). A brain farther away
raises it to what its measured searches need, up to ``distance.MAX_MEASURED_BUDGET_MS``
(``bench/distance.py``)."""
REPEAT_SPARE_MAX = 5
"""At most this many rows are asked for beyond the limit to replace recent pages."""
WINDOW_TURNS = 4
"""User messages (the current one included) ``volunteer_context`` reads."""


def budget_ms(config: PointerConfig, default: int = DEFAULT_BUDGET_MS) -> int:
    """``GBRAIN_POINTER_SYNC_BUDGET_MS`` when set (0 = background only); else ``default``
    (0 stays 0), raised to what the brain's measured distance needs (``distance``)."""
    if config.sync_budget_ms is not None:
        return config.sync_budget_ms
    if default <= 0:
        return default
    return measured_budget_ms(config.home, config.settings.mcp_url, default)


def warm(config: PointerConfig) -> None:
    """What the first turn needs (token, catalog, the read connection's client), made
    ready off the turn's clock; every failure is left for the turn to meet. Never raises."""
    try:
        brain_for(config).mcp.warm()
    except Exception as exc:  # the turn will fail open on its own, with its own outcome
        log.debug("warm start failed: %s", type(exc).__name__)


def rows_wanted(limit: int, recent: frozenset[str]) -> int:
    """The pointer limit plus room for the recently shown pages the block will drop."""
    return min(MAX_LIMIT, limit + min(len(recent), REPEAT_SPARE_MAX))


def window_of(earlier: Sequence[str], message: str) -> str:
    """The conversation window ``volunteer_context`` reads: the last user messages."""
    recent = [*earlier[-(WINDOW_TURNS - 1) :], message]
    return "\n".join(f"user: {text[:QUERY_CHARS]}" for text in recent)


class GatedSearch:
    """A pointer search whose rows pass the relevance gate for the message searched.

    Asks ``recall_rows`` for ``SEARCH_ROWS + SPARE_ROWS`` rows and more when recent
    pages are to be skipped (so never the briefing's ``SEARCH_ROWS``), with the
    briefing's summary length: the gate anchors paraphrases on the summary.
    """

    __slots__ = ("_config", "_gate", "_recent", "_shared", "_subject", "_window", "found")

    def __init__(
        self,
        config: PointerConfig,
        gate: Gate,
        *,
        window: str | None = None,
        recent: frozenset[str] = frozenset(),
        subject: frozenset[str] = frozenset(),
    ) -> None:
        self._config = config
        self._gate = gate
        self._window = window
        self._recent = recent
        self._subject = subject
        """The pages the last turn showed: what a follow-up points back at (the gate)."""
        self._shared: SharedRecall | None = None
        self.found: tuple[SearchRow, ...] = ()
        """The rows the server sent, before the gate: a late answer's second chance."""

    def share(self, query: str, limit: int) -> SharedRecall:
        """The call this search will make for ``query`` (asking for ``limit`` pointers),
        made once and handed to the briefing, so that the turn sends one recall."""
        if self._shared is None or not self._shared.serves(query):
            prior = "\n".join(f"- {page}" for page in sorted(self._recent))
            self._shared = SharedRecall(
                self._config,
                query,
                window=self._window,
                prior_context=prior or None,
                limit=SEARCH_ROWS + SPARE_ROWS + max(0, limit - self._config.limit),
            )
        return self._shared

    def __call__(self, query: str, limit: int) -> Sequence[SearchRow]:
        recall = self.share(query, limit)
        started = time.monotonic()
        rows = recall.result().rows
        # Only successes measure the distance: a failing brain must not stretch the wait.
        record_search(self._config.home, self._config.settings.mcp_url, time.monotonic() - started)
        self.found = tuple(rows)
        skip = {page.strip("[]") for page in self._recent}
        return select_rows(
            rows,
            query,
            gate=self._gate,
            limit=MAX_LIMIT,
            skip=skip,
            subject=self._subject,
            slots=limit,
        )


@dataclass(frozen=True, slots=True)
class TurnSearch:
    """The search for one turn's message and the moment its turn stops waiting."""

    key: StoreKey
    query: str
    ticket: Ticket
    deadline: float
    search: GatedSearch | None = None
    sent: float = field(default_factory=time.monotonic)
    """When it was submitted (``time.monotonic()``)."""

    @property
    def missed(self) -> bool:
        """Still running at its deadline: its rows may yet serve the next turn."""
        return not self.ticket.done.is_set() and time.monotonic() >= self.deadline

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
    return TurnSearch(key, query[:QUERY_CHARS], ticket, deadline, search)


def collect(engine: PointerEngine, turn: TurnSearch) -> str:
    """The turn's pointer block (up to ``MAX_LIMIT`` lines), waiting until its deadline
    at most; ``""`` when nothing relevant was found or the search is late (then orphaned)."""
    turn.ticket.done.wait(max(0.0, turn.deadline - time.monotonic()))
    if not turn.ticket.done.is_set():
        engine.invalidate(turn.key)
        return ""
    return engine.take(turn.key, MAX_LIMIT)


def late_pointers(
    late: TurnSearch | None,
    key: StoreKey,
    message: str,
    gate: Gate,
    *,
    skip: frozenset[str] = frozenset(),
    screen: bool = True,
    current: TurnSearch | None = None,
) -> str:
    """The rows of the previous turn's search that came too late for it, offered to this
    turn only as far as the gate passes them for *this* message (a follow-up on the same
    subject); never the previous message's own selection. ``""`` when there is nothing.

    GBrain's own judgments of a row (``evidence``, ``exact_lookup``, ``cosine``) were about
    the previous message, so they are dropped: only the anchored gate's reading of this
    message against the row's title and summary decides (no other gate mode reads the
    message, so none offers late rows), and a row needs a title anchor in this message:
    found for another message, a match on its summary's words alone is too loose. When
    this turn's own search (``current``) has answered, its rows are gated together with
    the late ones, ahead of them, so its verdicts hold for both (a page this message
    names keeps loose late rows out); only late rows that its own search did not return
    are offered here."""
    if late is None or late.key != key or late.search is None or not late.ticket.done.is_set():
        return ""
    if gate.mode != "anchored" or not late.search.found:
        return ""
    own: tuple[SearchRow, ...] = ()
    if current is not None and current.search is not None and current.ticket.done.is_set():
        own = current.search.found
    known = {row_key(row) for row in own}
    rows = [*own] + [
        replace(row, evidence=None, exact_lookup=None, cosine=None)
        for row in late.search.found
        if row_key(row) not in known
    ]
    skipped = {page.strip("[]") for page in skip}
    chosen = gate_rows(rows, message, gate=gate, limit=MAX_LIMIT, skip=skipped, max_tier=2)
    offered = [row for row in chosen if row_key(row) not in known]
    return format_block(pointer_lines(offered, screen=screen), MAX_LIMIT)


def merge_blocks(first: str, second: str) -> str:
    """One pointer block: ``first``'s lines, then ``second``'s that cite other pages."""
    if not second:
        return first
    if not first:
        return second
    lines = first.split("\n")[1:]
    cited = set(cited_pages(first))
    lines += [line for line in second.split("\n")[1:] if not set(cited_pages(line)) & cited]
    return format_block(lines, MAX_LIMIT)
