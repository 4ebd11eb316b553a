"""Hook mode: the digest, the briefing (and, optionally, pointers) beside another provider.

Hermes allows one external memory provider. Users whose provider is Mnemosyne,
Honcho or anything else can still get GBrain's first-turn briefing through this
general plugin: a ``pre_llm_call`` hook whose ``{"context": …}`` Hermes appends to
the API copy of the user message (never to the system prompt, so the prompt cache
is untouched). Install with ``hermes-gbrain install --name gbrain-hook`` and enable
with ``hermes plugins enable gbrain-hook``. The digest comes with the session's first
turn (see :func:`~.layers.first_turn_digest`), ahead of anything else the hook adds.

Same settings as the provider (``GBRAIN_*`` in the profile's ``.env``), read on
the hook's thread, which is the profile-scoped agent thread. Same fail-open rule:
any fault means the hook adds nothing. It also adds gated pointers about the current
message, searched here and waited for within the same budget as the provider's
(``recall.turns``), unless ``GBRAIN_HOOK_POINTERS=0`` (on by default: measured by
``bench/relevance.py``); trivial turns get nothing. A search that misses its turn (a far
or slow brain) offers the session's next turn what the gate passes for that message. All state
lives in this installed module (shared engine, desk and session record), never in
the plugin folder, which Hermes may import twice.
"""

from __future__ import annotations

import contextvars
import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from ..recall import turns
from ..recall.config import PointerConfig, load_pointer_config
from ..recall.pointers import MAX_LIMIT, Owner, StoreKey, shared_engine
from . import compat
from .healthwire import HookHealth
from .layers import (
    begin_briefing,
    compose_turn,
    first_turn_digest,
    join_context,
    last_pages,
    read_layers,
    recent_pages,
    take_briefing,
)

__all__ = ["GBrainHook", "register"]

log = logging.getLogger(__name__)
HOOK_NAME = "gbrain-hook"
MAX_LATE = 256
"""Sessions whose last search missed its turn, remembered for their next turn (oldest
dropped first: a gateway's hook serves many sessions)."""


def _earlier_user_texts(history: object, current: object) -> list[str]:
    """User messages before the current one (the history may already hold it)."""
    if not isinstance(history, Sequence):
        return []
    texts = [
        m.get("content")
        for m in history
        if isinstance(m, dict) and m.get("role") == "user" and isinstance(m.get("content"), str)
    ]
    if texts and texts[-1] == current:
        texts.pop()
    return [t for t in texts if isinstance(t, str)]


class GBrainHook:
    """The ``pre_llm_call`` callback; one per process, safe across profiles and sessions."""

    def __init__(self) -> None:
        self._owner = Owner()
        self._late: OrderedDict[StoreKey, turns.TurnSearch] = OrderedDict()
        self._late_lock = threading.Lock()

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def _config(self, home: str) -> PointerConfig | None:
        try:
            config = load_pointer_config(compat.profile_lookup(home), hermes_home=home)
        except Exception:  # unscoped in a multiplexed gateway, or an unreadable .env
            return None
        return None if config.problem() else config

    def pre_llm_call(self, **kwargs: Any) -> dict[str, str] | None:
        """Hermes calls this once per turn on the agent thread; never raises."""
        try:
            text = self._context(kwargs)
        except Exception as exc:  # fail open; never message text in logs
            log.debug("gbrain hook failed: %s", type(exc).__name__)
            return None
        return {"context": text} if text else None

    def _context(self, kwargs: dict[str, Any]) -> str:
        session = str(kwargs.get("session_id") or "")
        message = kwargs.get("user_message")
        if not session or not isinstance(message, str):
            return ""
        home = compat.current_hermes_home()
        config = self._config(home)
        layers = read_layers(home) if config is not None else None
        if config is None or layers is None:
            return ""
        earlier = _earlier_user_texts(kwargs.get("conversation_history"), message)
        opening = kwargs.get("is_first_turn")  # Hermes: no history before this turn
        opening = opening if isinstance(opening, bool) else not earlier
        digest = first_turn_digest(home, layers) if opening else ""
        message = compat.user_instruction(message)
        if not message or compat.is_trivial_prompt(message):
            return digest  # no search; a result still waiting stays for the next real turn
        turn = len(earlier) + 1
        first = not any(not compat.is_trivial_prompt(t) for t in earlier)
        context = contextvars.copy_context()
        current: turns.TurnSearch | None = None
        engine = shared_engine(compat.spawn_thread)
        key = StoreKey(config.home, config.cache_key, session)
        budget = turns.budget_ms(config)
        recent = recent_pages(config, session, turn)
        rows = turns.rows_wanted(config.limit, recent)
        window = turns.window_of(earlier, message)
        subject = last_pages(config, session, turn)
        search = turns.GatedSearch(
            config, layers.briefing.gate, window=window, recent=recent, subject=subject
        )
        if first:  # with pointers on, the briefing reads the pointer search's own call
            shared = search.share(message, rows) if layers.hook_pointers else None
            begin_briefing(config, layers, session, message, context=context, recall=shared)
        if layers.hook_pointers and budget > 0:
            current = turns.start(
                engine, key, message, rows=rows, search=search, owner=self._owner,
                budget_ms=budget, screen=config.screen, context=context,
                outcome=_HEALTH.outcome_for(config),
            )  # fmt: skip
        briefing = take_briefing(config, session)
        pointers = ""
        if current is not None:
            pointers = turns.collect(engine, current)
            late = self._swap_late(key, current if current.missed else None)
            if late is not None:  # what the previous turn's late search found, if it fits
                extra = turns.late_pointers(
                    late, key, message, layers.briefing.gate, skip=recent,
                    screen=config.screen, current=current,
                )  # fmt: skip
                pointers = turns.merge_blocks(pointers, extra)
        elif layers.hook_pointers:  # background only: last turn's search, then this one's
            pointers = engine.take(key, MAX_LIMIT)
            engine.submit(
                key, message, rows, search, owner=self._owner, screen=config.screen,
                context=context, outcome=_HEALTH.outcome_for(config),
            )  # fmt: skip
        recalled = compose_turn(config, session, turn, briefing=briefing, pointers=pointers)
        _HEALTH.after_turn(home, recalled, session=session, spawn=compat.spawn_thread)
        return join_context(digest, recalled)

    def _swap_late(self, key: StoreKey, missed: turns.TurnSearch | None) -> turns.TurnSearch | None:
        """The session's search that missed the previous turn, replaced by this turn's
        when it missed too (as the provider keeps ``_late``, but one hook serves every
        session of the process)."""
        with self._late_lock:
            late = self._late.pop(key, None)
            if missed is not None:
                self._late[key] = missed
                while len(self._late) > MAX_LATE:
                    self._late.popitem(last=False)
        return late


_HOOK = GBrainHook()
_HEALTH = HookHealth()  # memory-off notices and the last turn, per profile


def register(ctx: Any) -> None:
    """General-plugin entry: ``ctx.register_hook("pre_llm_call", …)``."""
    ctx.register_hook("pre_llm_call", _HOOK.pre_llm_call)
