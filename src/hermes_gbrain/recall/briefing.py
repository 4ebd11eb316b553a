"""Level 2 recall: a short briefing on the first non-trivial message of a session.

The message is looked up once (``GBrain.recall_rows``: ``volunteer_context`` then
``search``, or ``query`` without expansion where the server has no ``search``) within
a budget (default 2.5 s). At most three rows that
pass the **relevance gate** are shown as title, ``[source:slug]`` and a summary of
at most ~160 characters (from ``snippet_chars``), under the same "fallible background
context, not instructions" header as pointers. Later turns of the session get
nothing from here.

The relevance gate (``GBRAIN_BRIEFING_GATE``: ``anchored`` (default), ``evidence``
or ``off``; ``GBRAIN_BRIEFING_MIN_RATIO``, default 0.3) lives in :mod:`.gate`, shared
with the pointers of the full provider; measured by ``bench/relevance.py``.

Nothing here logs or stores message text.
"""

from __future__ import annotations

import contextvars
import os
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Collection, Hashable, Sequence
from dataclasses import dataclass, field

from ..api import HotFact, SearchRow
from ..settings import Lookup, clamped_float, clamped_int, flag_not_off
from ..transport import Bulkhead
from .config import PointerConfig
from .facts import (
    DEFAULT_FACTS,
    MAX_FACTS,
    format_fact_lines,
    select_facts,
    without_own_entries,
)
from .gate import DEFAULT_COSINE_MARGIN, DEFAULT_MIN_RATIO, GATES, Gate, gate_rows
from .judge import THRESHOLD as JUDGE_THRESHOLD
from .pointers import HEADER, QUERY_CHARS, TITLE_CAP
from .screen import prompt_line, prompt_ref
from .sharedcall import SNIPPET_REQUEST, SharedRecall
from .title_index import load_matcher
from .vocabulary import TitleVocabulary, load_vocabulary
from .words import content_stems

__all__ = [
    "DEFAULT_BUDGET_MS",
    "GATES",
    "SEARCH_ROWS",
    "SNIPPET_REQUEST",
    "SUMMARY_CHARS",
    "BriefingConfig",
    "BriefingDesk",
    "BriefingSearch",
    "Found",
    "Gate",
    "content_stems",
    "format_briefing",
    "load_briefing_config",
    "select_rows",
    "summary_of",
]

DEFAULT_BUDGET_MS = 2_500
MAX_BUDGET_MS = 7_000  # Hermes 0.19.0 drops a prefetch after 8 s
DEFAULT_LIMIT = 3
MAX_LIMIT = 5
SUMMARY_CHARS = 160
SEARCH_ROWS = 8
"""Rows a briefing search asks for (pointer searches ask for ``SPARE_ROWS`` more): measured
by ``bench/relevance.py``, 12 rows found a few more paraphrases on a keyword-only brain but
tripled no-answer injections on a hybrid one (3% -> 9% of the held-out set)."""
_MARKER = re.compile(r"\s*…?\s*\[truncated \d+ chars[^\]]*\]\s*$")
_HEADING = re.compile(r"^\s*#+\s+[^\n]*\n")
DEFAULT_GATE = Gate()


# -- configuration ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BriefingConfig:
    """Frozen briefing settings, read where the profile's scope is bound."""

    enabled: bool = True
    budget_ms: int = DEFAULT_BUDGET_MS
    limit: int = DEFAULT_LIMIT
    gate: Gate = field(default_factory=Gate)
    facts: int = DEFAULT_FACTS
    """Hot-memory facts the briefing may carry (``GBRAIN_BRIEFING_FACTS``, 0 = none)."""


def _cosine_margin(raw: str | None) -> float | None:
    """``off`` (or 0/false/no) turns the cosine rule off; junk is the default."""
    if not flag_not_off(raw):
        return None
    return clamped_float(raw, DEFAULT_COSINE_MARGIN, 0.0, 1.0)


MIN_JUDGE = 0.5


def _judge(raw: str | None) -> float | None:
    """``off`` (or 0/false/no) turns the judge off; junk is the default; below 0.5 the
    model would admit rows it thinks more likely wrong than right."""
    if not flag_not_off(raw):
        return None
    return clamped_float(raw, JUDGE_THRESHOLD, MIN_JUDGE, 1.0)


def load_briefing_config(
    lookup: Lookup, *, hermes_home: str | os.PathLike[str] | None = None
) -> BriefingConfig:
    """``GBRAIN_BRIEFING`` (on unless 0/false/no/off), ``GBRAIN_BRIEFING_BUDGET_MS``
    (default 2500, 0-7000; 0 = off), ``GBRAIN_BRIEFING_LIMIT`` (default 3, 1-5),
    ``GBRAIN_BRIEFING_GATE`` (anchored|evidence|off), ``GBRAIN_BRIEFING_MIN_RATIO``
    (default 0.3, 0-1), ``GBRAIN_BRIEFING_COSINE_MARGIN`` (default 0.25, 0-1; off = none),
    ``GBRAIN_BRIEFING_JUDGE`` (the judge's threshold, 0.5-1; off = none),
    ``GBRAIN_BRIEFING_FACTS`` (default 2, 0-3). Junk falls back to
    the default. With ``hermes_home``, the
    gate carries the profile's title vocabulary (if the digest wrote one)."""
    mode = (lookup("GBRAIN_BRIEFING_GATE") or "").strip().lower()
    budget = clamped_int(lookup("GBRAIN_BRIEFING_BUDGET_MS"), DEFAULT_BUDGET_MS, 0, MAX_BUDGET_MS)
    return BriefingConfig(
        enabled=flag_not_off(lookup("GBRAIN_BRIEFING")) and budget > 0,
        budget_ms=budget,
        limit=clamped_int(lookup("GBRAIN_BRIEFING_LIMIT"), DEFAULT_LIMIT, 1, MAX_LIMIT),
        facts=clamped_int(lookup("GBRAIN_BRIEFING_FACTS"), DEFAULT_FACTS, 0, MAX_FACTS),
        gate=Gate(
            mode=mode if mode in GATES else "anchored",
            min_ratio=clamped_float(
                lookup("GBRAIN_BRIEFING_MIN_RATIO"), DEFAULT_MIN_RATIO, 0.0, 1.0
            ),
            cosine_margin=_cosine_margin(lookup("GBRAIN_BRIEFING_COSINE_MARGIN")),
            judge=_judge(lookup("GBRAIN_BRIEFING_JUDGE")),
            vocabulary=load_vocabulary(hermes_home) if hermes_home is not None else None,
            titles=load_matcher(hermes_home) if hermes_home is not None else None,
        ),
    )


# -- the gate and the block ---------------------------------------------------------------


def summary_of(row: SearchRow, cap: int = SUMMARY_CHARS) -> str | None:
    """The row's snippet as one plain line: no truncation marker, no leading heading, no
    markup (links become their text); None when it reads like instructions."""
    text = _MARKER.sub("", row.snippet)
    text = _HEADING.sub("", text, count=1)
    return prompt_line(text, cap)


def select_rows(
    rows: Sequence[SearchRow],
    message: str,
    *,
    gate: Gate = DEFAULT_GATE,
    limit: int = DEFAULT_LIMIT,
    skip: Collection[str] = (),
    vocabulary: TitleVocabulary | None = None,
    subject: Collection[str] = (),
    slots: int | None = None,
) -> list[SearchRow]:
    """The rows a briefing (or a gated pointer block) shows, best first.

    Delegates to :func:`.gate.gate_rows`: ``skip`` holds ``source:slug`` keys already
    shown, ``vocabulary`` the profile's title-word counts (:func:`.gate.load_vocabulary`),
    ``subject`` the keys of the pages the last turn showed, ``slots`` how many rows the
    caller will show of the ``limit`` it asks for.
    """
    return gate_rows(
        rows,
        message,
        gate=gate,
        limit=limit,
        skip=skip,
        vocabulary=vocabulary,
        subject=subject,
        slots=slots,
    )


_CITE = re.compile(r"\[[a-z0-9][a-z0-9-]{0,31}:[^\]\s:]+\]")


def cited_pages(text: str) -> list[str]:
    """Every ``[source:slug]`` citation in a briefing or pointer block, in order."""
    return _CITE.findall(text)


def _texts(row: SearchRow) -> tuple[str | None, str | None]:
    return prompt_line(row.title, TITLE_CAP), summary_of(row)


def format_briefing(rows: Sequence[SearchRow], facts: Sequence[HotFact] = ()) -> str:
    """Header plus one line per row: ``- Title [source:slug] — summary``, then one line per
    fact (``recall.facts``); ``""`` if there is neither."""
    lines = []
    for row in rows:
        ref, title, summary = prompt_ref(row.source_id, row.slug), *_texts(row)
        if ref is None or title is None or summary is None:
            continue  # the gate drops these; a caller that skipped it still gets none
        line = f"- {title or row.slug} {ref}"
        lines.append(f"{line} — {summary}" if summary else line)
    lines.extend(format_fact_lines(facts))
    return HEADER + "\n" + "\n".join(lines) if lines else ""


class Found(list[SearchRow]):
    """A briefing search's rows, with the hot-memory facts its reply carried."""

    facts: tuple[HotFact, ...] = ()


class BriefingSearch:
    """The rows a briefing gates: ``GBrain.recall_rows`` (``volunteer_context``, then
    ``search`` with full rows, as summaries need ``chunk_text``), capped snippets, the
    source filter kept. A ``SearchFn`` bound to one frozen config; ``share`` names its
    credential for the desk's bulkhead. With ``recall`` (the turn's pointer search of
    the same message) the briefing reads that one call's rows instead of its own."""

    __slots__ = ("_config", "_recall", "share")

    def __init__(self, config: PointerConfig, recall: SharedRecall | None = None) -> None:
        self._config = config
        self._recall = recall
        self.share = config.cache_key

    def __call__(self, message: str, rows: int) -> Sequence[SearchRow]:
        recall = self._recall
        if recall is None or not recall.serves(message):
            recall = SharedRecall(self._config, message, limit=rows)
        result = recall.result()
        found = Found(result.rows)
        found.facts = without_own_entries(result.facts, self._config.settings.hermes_home)
        return found


# -- the desk: one briefing per session, searched in the background within a budget --------

SearchFn = Callable[[str, int], Sequence[SearchRow]]
"""``(message, rows) -> rows``; raises on failure (the briefing then fails open)."""


@dataclass(slots=True)
class _Pending:
    done: threading.Event
    deadline: float
    text: str = ""


_DONE = "done"


@dataclass(frozen=True, slots=True)
class _Handed:
    """A session whose briefing was handed out: the pages it cited, so later pointer
    blocks need not repeat them."""

    cited: frozenset[str]


MAX_SESSIONS = 16_384
MAX_RUNNING = 8
PER_SHARE = 2
"""Briefing searches one credential may run at once (of ``MAX_RUNNING``)."""
SESSION_TTL_S = 1_800.0
_EVICT_SCAN = 64


class BriefingDesk:
    """Per-session briefing state, shared by every provider instance and the hook.

    ``start`` begins the search for a session's first non-trivial message (once);
    ``take`` waits at most until that search's deadline and hands the block out
    once. A session that got its briefing, or whose search failed or ran out of
    time, never gets another: later turns add nothing.

    Searches run on their own daemon threads, at most ``max_running`` at once and
    ``per_share`` for one credential (the search's ``share``), so a hung brain cannot
    take a healthy profile's briefings. The desk remembers ``max_sessions`` sessions
    and forgets one untouched for ``ttl_s``; when full, a new session displaces the
    oldest whose briefing is settled, never one still waiting within its budget, and
    is refused a briefing (fails open) when every remembered session is.
    """

    def __init__(
        self,
        *,
        max_sessions: int = MAX_SESSIONS,
        max_running: int = MAX_RUNNING,
        per_share: int = PER_SHARE,
        ttl_s: float = SESSION_TTL_S,
        clock: Callable[[], float] = time.monotonic,
    ):
        self._lock = threading.Lock()
        self._state: OrderedDict[Hashable, _Pending | _Handed | str] = OrderedDict()
        self._stamps: dict[Hashable, float] = {}
        self._max_sessions = max(1, max_sessions)
        self._ttl = ttl_s
        self._clock = clock
        self.slots = Bulkhead(per_key=per_share, ceiling=max_running)
        self.searches = 0
        self.refused = 0

    def __repr__(self) -> str:
        return f"BriefingDesk(sessions={len(self._state)})"

    def _expire(self, now: float) -> None:
        horizon = now - self._ttl
        while self._state:
            key = next(iter(self._state))
            if self._stamps.get(key, now) > horizon:
                return
            del self._state[key]
            self._stamps.pop(key, None)

    def _room(self, key: Hashable) -> bool:
        """Make room for ``key``; False when every remembered session is still live."""
        now = self._clock()
        self._expire(now)
        if key in self._state or len(self._state) < self._max_sessions:
            return True
        for index, (old, state) in enumerate(self._state.items()):
            if index >= _EVICT_SCAN:
                break
            if isinstance(state, _Pending) and not state.done.is_set() and now < state.deadline:
                continue  # still within its budget: its session is about to take it
            del self._state[old]
            self._stamps.pop(old, None)
            return True
        return False

    def _remember(self, key: Hashable, value: _Pending | _Handed | str) -> None:
        if not self._room(key):
            self.refused += 1  # full of sessions mid-briefing: this note is not kept
            return
        self._state[key] = value
        self._state.move_to_end(key)
        self._stamps[key] = self._clock()

    def started(self, key: Hashable) -> bool:
        """True once a briefing search began (or finished) for ``key``."""
        with self._lock:
            return key in self._state

    def start(
        self,
        key: Hashable,
        message: str,
        search: SearchFn,
        config: BriefingConfig,
        *,
        context: contextvars.Context | None = None,
    ) -> bool:
        """Begin the search for ``key`` unless one already began; never blocks."""
        share = getattr(search, "share", "")
        with self._lock:
            if key in self._state or not config.enabled:
                return False
            if not self._room(key):
                self.refused += 1
                return False  # every remembered session is mid-briefing: fail open
            if not self.slots.try_acquire(share):
                return False  # too many briefings in flight: fail open, try next session
            pending = _Pending(threading.Event(), time.monotonic() + config.budget_ms / 1000.0)
            self._remember(key, pending)
            self.searches += 1

        def run() -> None:
            try:
                rows = search(message[:QUERY_CHARS], SEARCH_ROWS)
                facts = select_facts(
                    getattr(rows, "facts", ()),
                    message,
                    limit=config.facts,
                    vocabulary=config.gate.vocabulary,
                    anchored=config.gate.mode != "off",
                )
                pending.text = format_briefing(
                    select_rows(rows, message, gate=config.gate, limit=config.limit), facts
                )
            except Exception:  # fail open: no briefing, no message text anywhere
                pending.text = ""
            finally:
                self.slots.release(share)
                pending.done.set()

        target = (lambda: context.copy().run(run)) if context is not None else run
        thread = threading.Thread(target=target, name="gbrain-briefing", daemon=True)
        try:
            thread.start()
        except RuntimeError:  # interpreter shutting down
            self.slots.release(share)
            pending.done.set()
        return True

    def take(self, key: Hashable) -> str:
        """The briefing for ``key`` (waiting until its deadline at most), once; else ``""``."""
        with self._lock:
            state = self._state.get(key)
        if not isinstance(state, _Pending):
            return ""
        state.done.wait(max(0.0, state.deadline - time.monotonic()))
        text = state.text if state.done.is_set() else ""
        with self._lock:
            if self._state.get(key) is not state:
                return ""
            self._remember(key, _Handed(frozenset(cited_pages(text))))
        return text

    def cited(self, key: Hashable) -> frozenset[str]:
        """The ``[source:slug]`` pages the session's briefing showed (empty if none)."""
        with self._lock:
            state = self._state.get(key)
        return state.cited if isinstance(state, _Handed) else frozenset()

    def mark_done(self, key: Hashable) -> None:
        """No briefing for ``key`` from now on (e.g. a resumed or compressed session)."""
        with self._lock:
            self._remember(key, _DONE)

    def forget(self, key: Hashable) -> None:
        """``key`` may be briefed again (a brand-new session under a reused id)."""
        with self._lock:
            self._state.pop(key, None)
            self._stamps.pop(key, None)


_shared_lock = threading.Lock()
_shared: BriefingDesk | None = None


def shared_desk() -> BriefingDesk:
    """The process-wide desk (made on first use)."""
    global _shared  # noqa: PLW0603 - one desk per process, like the pointer engine
    with _shared_lock:
        if _shared is None:
            _shared = BriefingDesk()
        return _shared
