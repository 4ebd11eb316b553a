"""What the turn benchmarks share: a percentile, a scoped environment, and a fresh
process's in-memory state (the profile's files stay, as they would between processes)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank); NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@contextmanager
def environment(values: dict[str, str]) -> Iterator[None]:
    """``os.environ`` with ``values`` set inside the block, restored after."""
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def fresh_state() -> None:
    """A new process: nothing in memory (tokens, catalogs, brains, the shown log, the
    briefing desk, the distance estimate, the pointer engine)."""
    from hermes_gbrain.auth import clear_token_cache
    from hermes_gbrain.mcp import clear_catalog_cache
    from hermes_gbrain.recall import pointers
    from hermes_gbrain.recall.briefing import shared_desk
    from hermes_gbrain.recall.config import clear_brain_cache
    from hermes_gbrain.recall.distance import reset_distance
    from hermes_gbrain.recall.shown import reset_shared_log

    clear_token_cache()
    clear_catalog_cache()
    clear_brain_cache()
    reset_shared_log()
    shared_desk()._state.clear()
    reset_distance()
    if pointers._shared is not None:
        pointers._shared.shutdown(1.0)
