"""One recall for a session's first turn, shared by the briefing and the pointers.

On the first non-trivial message both layers want the same rows (``GBrain.recall_rows``
for that message). :class:`SharedRecall` holds the call's arguments; the first layer to
ask runs it, the other waits for the same answer, so the brain sees one
``volunteer_context`` and one ``search`` (and, on a keyword-only brain, one search of the
message's word pairs, :mod:`.pairs`). Each layer still waits only as long as its own
budget allows: the briefing desk and the turn's deadline stop waiting on their own, and
the call itself is bounded by every request's deadline.
"""

from __future__ import annotations

import threading

from ..api import SearchResult
from .config import PointerConfig, brain_for
from .pairs import note_rows, pair_query, wants_pairs
from .pointers import QUERY_CHARS
from .vocabulary import load_vocabulary

__all__ = ["SNIPPET_REQUEST", "SharedRecall"]

SNIPPET_REQUEST = 480
"""Summary characters asked for: the briefing shows 160, the gate reads up to 640 for the
words that back a paraphrase (240 -> 480 found more paraphrases at the same no-answer rate,
keyword-only and hybrid: ``bench/relevance.py``)."""


class SharedRecall:
    """``recall_rows`` for one message, run once by whichever of its users asks first."""

    __slots__ = (
        "_claimed",
        "_config",
        "_done",
        "_error",
        "_lock",
        "_prior",
        "_result",
        "_window",
        "limit",
        "message",
    )

    def __init__(
        self,
        config: PointerConfig,
        message: str,
        *,
        window: str | None = None,
        prior_context: str | None = None,
        limit: int = 8,
    ) -> None:
        self._config = config
        self.message = message[:QUERY_CHARS]
        self._window = window
        self._prior = prior_context
        self.limit = limit
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._claimed = False
        self._result: SearchResult | None = None
        self._error: BaseException | None = None

    def __repr__(self) -> str:  # never the message
        return f"SharedRecall(claimed={self._claimed}, done={self._done.is_set()})"

    def serves(self, message: str) -> bool:
        """True when this call is for ``message`` (as searched: cut to ``QUERY_CHARS``)."""
        return self.message == message[:QUERY_CHARS]

    def result(self) -> SearchResult:
        """The call's answer (or its error, raised again for every user)."""
        with self._lock:
            mine, self._claimed = not self._claimed, True
        if mine:
            endpoint = self._config.settings.mcp_url
            also = None
            if self._config.pairs and wants_pairs(endpoint):
                also = pair_query(self.message, load_vocabulary(self._config.home))
            try:
                self._result = brain_for(self._config).recall_rows(
                    self.message,
                    window=self._window,
                    prior_context=self._prior,
                    limit=self.limit,
                    snippet_chars=SNIPPET_REQUEST,
                    source_id=self._config.settings.source,
                    also=also,
                )
                note_rows(endpoint, self._result.rows)
            except BaseException as exc:
                self._error = exc
                raise
            finally:
                self._done.set()
            return self._result
        self._done.wait()  # bounded: the running call has every request's own deadline
        if self._error is not None:
            raise self._error
        assert self._result is not None  # set before done, when no error
        return self._result
