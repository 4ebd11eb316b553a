"""``ToolSession``: the tool bridge's life in one provider instance, without Hermes.

Three phases, matching when Hermes calls what:

1. ``schemas(settings)`` — inside ``add_provider``, before ``initialize`` and with no
   network: from the discovery cached under ``$HERMES_HOME/gbrain/`` for this
   credential, else the built-in compact set. Computed once and kept, because
   Hermes builds its routing table from it and never asks again.
2. ``start(settings, gate)`` — from ``initialize``: the bridge, the outbox worker
   (only when this session may write; it also replays writes a crash left behind)
   and one background refresh of the discovery cache.
3. ``shutdown(timeout)`` — drains the outbox within the bound.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from typing import Any

from ..api import GBrain
from ..connect import open_brain
from ..errors import GBrainError
from ..files import data_dir
from ..settings import Settings
from .bridge import ToolBridge, WriteGate
from .discovery import Discovery, credential_key, discover, load_discovery, save_discovery
from .outbox import DB_NAME, Entry, Outbox, OutboxStatus, OutboxWorker
from .schemas import offered_schemas

__all__ = ["DRAIN_TIMEOUT_S", "ToolSession", "write_gate"]

log = logging.getLogger(__name__)

DRAIN_TIMEOUT_S = 3.0
"""Shutdown's bound for sending queued writes (Hermes gives all providers ~5 s)."""

Spawn = Callable[[Callable[[], None], str], threading.Thread]
_NO_WRITE_CONTEXTS = {"subagent", "cron", "flush"}
_NO_WRITE_PLATFORMS = {"cron"}


def write_gate(mode: str, agent_context: str | None, platform: str | None) -> WriteGate:
    """Writes only from a primary agent, never from cron, subagent or flush contexts."""
    if mode != "write":
        return WriteGate(False, "writes are disabled for this profile (GBRAIN_TOOLS=read)")
    context = (agent_context or "primary").strip().lower()
    if context != "primary" or context in _NO_WRITE_CONTEXTS:
        return WriteGate(False, f"writes are never made from a {context!r} agent session")
    if (platform or "").strip().lower() in _NO_WRITE_PLATFORMS:
        return WriteGate(False, "writes are never made from cron jobs")
    return WriteGate(True)


class ToolSession:
    """Owns the schemas, bridge, outbox and refresh for one provider instance."""

    def __init__(self, *, spawn: Spawn | None = None) -> None:
        self._spawn: Spawn = spawn or (
            lambda fn, name: threading.Thread(target=fn, name=name, daemon=True)
        )
        self._schemas: list[dict[str, Any]] | None = None
        self._bridge: ToolBridge | None = None
        self._brains: dict[bool, GBrain] = {}
        self._lock = threading.Lock()
        self.refreshed = threading.Event()
        self.refresh_error: str | None = None
        self._closed = False

    def __repr__(self) -> str:
        return f"ToolSession(started={self._bridge is not None})"

    # -- phase 1: schemas, no network ------------------------------------------------------

    def schemas(self, settings: Settings | None) -> list[dict[str, Any]]:
        """The same list on every call (Hermes routes by the first answer)."""
        with self._lock:
            if self._schemas is None:
                self._schemas = self._compute(settings)
            return [dict(s) for s in self._schemas]

    @staticmethod
    def _compute(settings: Settings | None) -> list[dict[str, Any]]:
        if settings is None:
            return offered_schemas(mode="read", expose="compact", tools=None)
        cached = None
        if settings.tools != "off" and settings.problem() is None:
            try:
                cached = load_discovery(settings.hermes_home, credential_key(settings))
            except OSError:
                cached = None
        return offered_schemas(
            mode=settings.tools,
            expose=settings.tools_expose,
            tools=cached.tools if cached is not None else None,
            writes_allowed=cached.can_write if cached is not None else True,
        )

    # -- phase 2: start -------------------------------------------------------------------

    def _brain(self, settings: Settings, write: bool) -> GBrain:
        with self._lock:
            brain = self._brains.get(write)
        if brain is None:
            brain = open_brain(settings, scope="read write" if write else "read")
            with self._lock:
                brain = self._brains.setdefault(write, brain)
        return brain

    def start(self, settings: Settings, gate: WriteGate, *, refresh: bool = True) -> None:
        """Build the bridge; start the outbox worker and a cache refresh in the background."""
        if settings.tools == "off" or settings.problem() is not None:
            self._bridge = None
            self.refreshed.set()  # nothing to refresh
            return
        key = credential_key(settings)
        discovery = load_discovery(settings.hermes_home, key)
        outbox: Outbox | None = None
        worker: OutboxWorker | None = None
        if settings.tools == "write" and gate.allowed:
            try:
                outbox = Outbox(data_dir(settings.hermes_home) / DB_NAME)
            except Exception as exc:  # sqlite3.Error, OSError
                log.warning("gbrain write queue unavailable (%s)", type(exc).__name__)
                outbox = None
            if outbox is not None:
                worker = OutboxWorker(
                    outbox,
                    settings.mcp_url,
                    lambda entry: self._send(settings, entry),
                    probe=lambda entry: self._landed(settings, entry),
                    spawn=self._spawn,
                )
                worker.start()
        self._bridge = ToolBridge(
            settings=settings,
            gate=gate,
            brain=lambda write: self._brain(settings, write),
            discovery=discovery,
            outbox=outbox,
            worker=worker,
        )
        if refresh:
            self._spawn(lambda: self._refresh_quietly(settings), "gbrain-discovery").start()
        else:
            self.refreshed.set()

    def _refresh_quietly(self, settings: Settings) -> None:
        try:
            self.refresh(settings)
        except Exception as exc:  # a background thread must never print a traceback
            self.refresh_error = type(exc).__name__
            self.refreshed.set()

    def _send(self, settings: Settings, entry: Entry) -> None:
        self._brain(settings, True).put_page(entry.slug, entry.content)

    def _landed(self, settings: Settings, entry: Entry) -> bool:
        page = self._brain(settings, False).get_page(entry.slug)
        return page.raw.get("content_hash") == entry.content_hash

    def refresh(self, settings: Settings) -> Discovery | None:
        """Ask the server what this credential may call, and cache it (never raises)."""
        if self._closed:
            return None
        try:
            write = settings.tools == "write"
            found = discover(self._brain(settings, write), settings)
            save_discovery(settings.hermes_home, found)
        except (GBrainError, OSError) as exc:
            self.refresh_error = str(exc) if isinstance(exc, GBrainError) else type(exc).__name__
            self.refreshed.set()
            return None
        bridge = self._bridge
        if bridge is not None:
            bridge.discovery = found
        self.refresh_error = None
        self.refreshed.set()
        return found

    # -- calls and shutdown -------------------------------------------------------------

    @property
    def bridge(self) -> ToolBridge | None:
        return self._bridge

    def handle(self, name: str, args: Any) -> str:
        bridge = self._bridge
        if bridge is None:
            return json.dumps(
                {"error": "GBrain tools are not available (not configured, or GBRAIN_TOOLS=off)"}
            )
        return bridge.handle(name, args)

    def shutdown(self, timeout: float = DRAIN_TIMEOUT_S) -> OutboxStatus | None:
        """Send what is queued within ``timeout``; the rest stays queued for next time."""
        self._closed = True
        bridge = self._bridge
        if bridge is None or bridge.worker is None:
            return None
        return bridge.worker.drain(timeout)
