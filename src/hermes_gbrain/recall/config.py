"""Recall settings on top of the connection ``Settings``, and the search they lead to.

Read where the profile's secret scope is bound, frozen, and handed to background
work. ``cache_key`` names the credential, endpoint and source filter without
revealing them, so a profile whose secret, token, URL or filter changed can never
reuse pointers or a connection made for the old ones.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..api import GBrain, SearchRow
from ..auth import keyed_hash
from ..connect import open_brain
from ..settings import Lookup, Settings, clamped_int, flag_not_off, load_settings

__all__ = [
    "PointerConfig",
    "PointerSearch",
    "brain_for",
    "clear_brain_cache",
    "load_pointer_config",
]

MAX_SYNC_BUDGET_MS = 5_000
SPARE_ROWS = 2
"""Rows asked for beyond the pointer limit, so that flagged, screened or duplicate rows
dropped on our side still leave enough clean rows to fill it (a lean row costs ~15
tokens of response, nothing in the prompt)."""


@dataclass(frozen=True, slots=True)
class PointerConfig:
    """Frozen pointer settings: connection, limit, screen, synchronous budget.

    ``sync_budget_ms`` is None when ``GBRAIN_POINTER_SYNC_BUDGET_MS`` is unset: each
    adapter then applies its own default (see ``turns.DEFAULT_BUDGET_MS``).
    """

    settings: Settings
    screen: bool = True
    sync_budget_ms: int | None = None
    pairs: bool = True
    """Gated recalls also search pairs of the message's words (:mod:`.pairs`) unless
    ``GBRAIN_POINTER_PAIRS=0``."""
    cache_key: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Computed once: prefetch() keys the store with it on every call.
        s = self.settings
        key = keyed_hash(
            "pointers",
            s.mcp_url,
            "http" if s.allow_http else "https",
            s.client_id or "",
            s.client_secret or "",
            s.access_token or "",
            s.source or "",
        )
        object.__setattr__(self, "cache_key", key)

    @property
    def limit(self) -> int:
        return self.settings.pointer_limit

    @property
    def home(self) -> str:
        return self.settings.hermes_home

    def problem(self) -> str | None:
        return self.settings.problem()


def load_pointer_config(lookup: Lookup, *, hermes_home: str | os.PathLike[str]) -> PointerConfig:
    """Never raises; ``problem()`` explains bad configuration."""
    return PointerConfig(
        settings=load_settings(lookup, hermes_home=hermes_home),
        screen=flag_not_off(lookup("GBRAIN_POINTER_SCREEN")),
        sync_budget_ms=_budget(lookup("GBRAIN_POINTER_SYNC_BUDGET_MS")),
        pairs=flag_not_off(lookup("GBRAIN_POINTER_PAIRS")),
    )


def _budget(raw: str | None) -> int | None:
    """Unset, blank or junk: None (the adapter's default); else clamped 0-5000."""
    try:
        number = int((raw or "").strip())
    except ValueError:
        return None
    return clamped_int(str(number), 0, 0, MAX_SYNC_BUDGET_MS)


_brains_lock = threading.Lock()
_brains: OrderedDict[tuple[str, str], GBrain] = OrderedDict()
_MAX_BRAINS = 256


def clear_brain_cache() -> None:
    """Forget every cached connection (tests; a changed profile never needs it)."""
    with _brains_lock:
        _brains.clear()


def brain_for(config: PointerConfig) -> GBrain:
    """A read-scoped ``GBrain`` per (home, credential key), shared by every instance.

    Raises ``ConfigError`` when the settings cannot work.
    """
    key = (config.home, config.cache_key)
    with _brains_lock:
        brain = _brains.get(key)
        if brain is not None:
            return brain
    brain = open_brain(config.settings, scope="read")
    with _brains_lock:
        brain = _brains.setdefault(key, brain)
        while len(_brains) > _MAX_BRAINS:
            _brains.popitem(last=False)
    return brain


class PointerSearch:
    """The search a pointer job runs: lean rows, 1-char snippets, the source filter kept.

    A callable ``(query, limit) -> rows`` bound to one frozen config. It asks the
    server for ``limit + SPARE_ROWS`` rows; the block never shows more than ``limit``.
    """

    __slots__ = ("_config",)

    def __init__(self, config: PointerConfig) -> None:
        self._config = config

    def __call__(self, query: str, limit: int) -> Sequence[SearchRow]:
        brain = brain_for(self._config)
        result = brain.search(
            query,
            limit=limit + SPARE_ROWS,
            snippet_chars=1,
            source_id=self._config.settings.source,
            lean=True,
        )
        return result.rows
