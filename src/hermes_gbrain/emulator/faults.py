"""Fault-injection knobs and the request log entry.

Tests flip these attributes on a running emulator to provoke exactly one failure mode at a time;
every knob defaults to "off", so an untouched emulator behaves like a healthy GBrain 0.46.28.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class RecordedRequest:
    """One HTTP request as the emulator saw it, so tests can assert what a client *sent*."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    json: Any = None
    rpc_method: str | None = None
    tool: str | None = None
    arguments: dict[str, Any] | None = None
    status: int = 0


@dataclass
class Knobs:
    """Fault injection for ``/mcp`` (and, where the name says so, ``/token``).

    Plain attribute writes from a test thread are enough: handlers read each knob once per request.
    """

    # timing
    latency_s: float = 0.0
    distance_s: float = 0.0
    """A brain far away: every request, on any path, waits this long before it is handled,
    and a new connection waits as long once more (its handshake). One way only: the
    reply is not delayed again. ``latency_s`` is the brain's own work, on ``/mcp`` only."""
    gate: threading.Event | None = None
    token_gate: threading.Event | None = None
    on_request: Callable[[RecordedRequest], None] | None = None
    drip_interval_s: float = 0.0
    drip_headers: bool = False
    apply_delay_s: dict[str, float] = field(default_factory=dict)
    """Per tool (or other JSON-RPC method, e.g. ``tools/list``): hold a request this long after
    receiving it, then apply it and answer (a server slower than the client's deadline: the
    client gives up, the write still lands)."""
    # whole-reply replacements
    status: int | None = None
    force_401: int = 0
    redirect_to: str | None = None
    redirect_status: int = 307
    # body shape
    oversized_bytes: int = 0
    lying_content_length: int | None = None
    gzip: bool = False
    malformed_json: bool = False
    malformed_tool_text: bool = False
    wrong_rpc_id: bool = False
    extra_sse_events: int = 0
    json_response: bool = False
    session_id: str | None = None
    extra_content_blocks: bool = False
    # /token
    token_status: int | None = None
    token_rate_limit: int = 50
    # bookkeeping for force_401 (decremented under a lock by the server)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def take_forced_401(self) -> bool:
        """Consume one forced 401, if any are left."""
        with self._lock:
            if self.force_401 > 0:
                self.force_401 -= 1
                return True
            return False
