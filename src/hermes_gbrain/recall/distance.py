"""How far away the brain is, measured, so a turn waits as long as its search needs.

A fixed wait (250 ms) suits a brain on loopback or the LAN; a brain 100-200 ms away
(a hosted pod, a VPN) needs a new connection and a request per turn, 300-450 ms, and
would miss every turn. So the turn's wait follows the time recent successful turn
searches took: ``budget = max(default, 1.25 x slowest of the last few + 50 ms)``,
capped at ``MAX_MEASURED_BUDGET_MS``. A fast brain answers long before the budget
ends, so a larger budget costs it nothing; failed searches are not samples, so a
hung brain never stretches the wait. ``GBRAIN_POINTER_SYNC_BUDGET_MS`` fixes the
budget instead.

The estimate is per endpoint and kept in ``$HERMES_HOME/gbrain/distance.json``
(0600; a number and an HMAC of the endpoint, nothing else), so a one-shot process
(``hermes -z``) starts with what the profile's earlier processes measured.
"""

from __future__ import annotations

import hmac
import json
import logging
import math
import threading
import time
from collections import deque
from dataclasses import dataclass, field

from ..files import data_dir, profile_hmac, read_owned, write_atomic

__all__ = [
    "MAX_MEASURED_BUDGET_MS",
    "measured_budget_ms",
    "record_search",
    "reset_distance",
]

log = logging.getLogger(__name__)

MAX_MEASURED_BUDGET_MS = 1_000
"""The longest a measured budget may make a turn wait (set a fixed budget for more)."""
SAMPLES = 8
SAMPLE_TTL_S = 900.0
HEADROOM = 1.25
MARGIN_MS = 50.0
FILE_NAME = "distance.json"
_REWRITE_RATIO = 1.25


@dataclass(slots=True)
class _Endpoint:
    samples: deque[tuple[float, float]] = field(default_factory=lambda: deque(maxlen=SAMPLES))
    """(monotonic time, milliseconds) of recent successful turn searches."""
    stored_ms: float = 0.0
    """What the profile's file said (or this process last wrote) for this endpoint."""
    budget_ms: int = 0
    """The measured budget before the default's floor, 0 when nothing is known."""


_lock = threading.Lock()
_endpoints: dict[tuple[str, str], _Endpoint] = {}


def reset_distance() -> None:
    """Forget every measurement in memory (tests, benchmarks: a new process)."""
    with _lock:
        _endpoints.clear()


def _budget_for(estimate_ms: float) -> int:
    if estimate_ms <= 0 or not math.isfinite(estimate_ms):
        return 0
    return min(MAX_MEASURED_BUDGET_MS, math.ceil(estimate_ms * HEADROOM + MARGIN_MS))


def measured_budget_ms(home: str, endpoint: str, default: int) -> int:
    """The turn's wait: ``default`` raised to what the brain's distance needs, capped."""
    entry = _endpoints.get((home, endpoint))  # no lock: a read of a dict on the hot path
    if entry is None:
        entry = _load(home, endpoint)
    return max(default, entry.budget_ms)


def record_search(home: str, endpoint: str, elapsed_s: float) -> None:
    """A turn search succeeded in ``elapsed_s``: update the estimate (and the file when
    the estimate moved by a quarter or more)."""
    now = time.monotonic()
    entry = _endpoints.get((home, endpoint)) or _load(home, endpoint)
    with _lock:
        entry.samples.append((now, elapsed_s * 1000.0))
        recent = [ms for at, ms in entry.samples if now - at <= SAMPLE_TTL_S]
        estimate = max(recent) if recent else 0.0
        entry.budget_ms = _budget_for(estimate)
        stored = entry.stored_ms
        moved = (
            stored <= 0 or estimate > stored * _REWRITE_RATIO or estimate * _REWRITE_RATIO < stored
        )
        if moved:
            entry.stored_ms = estimate
    if moved:
        _save(home, endpoint, estimate)


def _key(home: str, endpoint: str) -> str:
    return profile_hmac(home, "distance", endpoint)[:32]


def _load(home: str, endpoint: str) -> _Endpoint:
    """The profile's last measurement for this endpoint (once per process)."""
    entry = _Endpoint()
    raw = read_owned(data_dir(home) / FILE_NAME, 4096) if home else None
    if raw is not None:
        try:
            data = json.loads(raw)
            key, ms = data.get("key"), data.get("ms")
            if (
                isinstance(key, str)
                and hmac.compare_digest(key, _key(home, endpoint))
                and isinstance(ms, int | float)
                and not isinstance(ms, bool)
                and 0 < ms < 60_000
            ):
                entry.stored_ms = float(ms)
                entry.budget_ms = _budget_for(float(ms))
        except (ValueError, TypeError, AttributeError, OSError):
            pass
    with _lock:
        return _endpoints.setdefault((home, endpoint), entry)


def _save(home: str, endpoint: str, estimate_ms: float) -> None:
    if not home:
        return
    try:
        payload = {"key": _key(home, endpoint), "ms": round(estimate_ms, 1)}
        write_atomic(data_dir(home) / FILE_NAME, json.dumps(payload))
    except OSError as exc:
        log.debug("distance not written: %s", type(exc).__name__)
