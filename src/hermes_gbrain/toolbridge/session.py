"""``ToolSession``: the tool bridge's life in one provider instance, without Hermes.

Three phases, matching when Hermes calls what:

1. ``schemas(settings)`` — inside ``add_provider``, before ``initialize`` and with no
   network: from the discovery cached under ``$HERMES_HOME/gbrain/`` for this
   credential, else the built-in compact set. This first answer is Hermes' routing
   table: a tool missing from it can never be called, so it is computed once and
   later answers only ever *remove* tools from it.
2. ``start(settings, gate)`` — from ``initialize``: the bridge, the outbox worker
   (only when this session may write; it also replays writes a crash left behind)
   and one refresh of the discovery cache, unless it was refreshed within the hour
   (``Discovery.fresh``) by this or another process of the profile. When writes are
   wanted and nothing is cached, ``initialize`` waits up to ``SCOPE_WAIT_S`` for that refresh (one
   ``tools/list`` and one ``whoami``) to learn the credential's scopes. From then on
   ``schemas`` leaves out every write tool unless this session may write *and* the
   scopes are known to allow it: Hermes 0.19.0 asks again after ``initialize`` to
   inject the schemas into the model's tool list (``inject_memory_provider_tools``),
   so a tool dropped then is simply not offered. That answer is fixed for the session
   (scopes learned later serve ``gbrain_call`` and the next session), so the tool list,
   and the prompt prefix with it, never changes mid-session.
3. ``shutdown(timeout)`` — drains the outbox within the bound, then closes it.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from typing import Any

from ..api import GBrain
from ..connect import open_brain
from ..errors import GBrainError, ToolError
from ..files import data_dir
from ..settings import Settings
from . import schemas as schema_sets
from .bridge import Approver, ToolBridge, WriteGate
from .discovery import Discovery, credential_key, discover, load_discovery, save_discovery
from .outbox import ABSENT, DB_NAME, Entry, Observed, Outbox, OutboxStatus, OutboxWorker, PageState
from .schemas import offered_schemas

__all__ = ["DRAIN_TIMEOUT_S", "SCOPE_WAIT_S", "ToolSession", "observe_page", "write_gate"]

log = logging.getLogger(__name__)

DRAIN_TIMEOUT_S = 3.0
"""Shutdown's bound for sending queued writes (Hermes gives all providers ~5 s)."""
SCOPE_WAIT_S = 2.0
"""How long ``initialize`` waits to learn a credential's scopes when nothing is cached."""

Spawn = Callable[[Callable[[], None], str], threading.Thread]
_NO_WRITE_CONTEXTS = {"subagent", "cron", "flush"}
_NO_WRITE_PLATFORMS = {"cron"}
_WRITE_MODES = ("write", "admin")
_COMPACT_WRITES = frozenset(s["name"] for s in schema_sets.WRITE_COMPACT)

_refresh_lock = threading.Lock()
_refreshing: dict[tuple[str, str, str], list[ToolSession]] = {}
"""Refreshes in flight, by (home, credential key, mode): sessions starting meanwhile wait
for that one instead of starting their own, so a burst of sessions (or a hung brain)
costs one discovery thread per credential, not one per session."""


def write_gate(mode: str, agent_context: str | None, platform: str | None) -> WriteGate:
    """Writes only from a primary agent, never from cron, subagent or flush contexts."""
    if mode not in _WRITE_MODES:
        return WriteGate(False, "writes are disabled for this profile (GBRAIN_TOOLS=read)")
    context = (agent_context or "primary").strip().lower()
    if context != "primary" or context in _NO_WRITE_CONTEXTS:
        return WriteGate(False, f"writes are never made from a {context!r} agent session")
    if (platform or "").strip().lower() in _NO_WRITE_PLATFORMS:
        return WriteGate(False, "writes are never made from cron jobs")
    return WriteGate(True)


def _writes_schema(schema: dict[str, Any]) -> bool:
    """Whether an offered schema can change the brain (``gbrain_call`` checks per call)."""
    name = str(schema.get("name", ""))
    if name in _COMPACT_WRITES:
        return True
    if name in {s["name"] for s in schema_sets.COMPACT}:
        return False
    return schema_sets.tool_class(name[len(schema_sets.PREFIX) :]) != "read"


class ToolSession:
    """Owns the schemas, bridge, outbox and refresh for one provider instance."""

    def __init__(self, *, spawn: Spawn | None = None, approve: Approver | None = None) -> None:
        self._spawn: Spawn = spawn or (
            lambda fn, name: threading.Thread(target=fn, name=name, daemon=True)
        )
        self._approve = approve
        self._schemas: list[dict[str, Any]] | None = None
        self._offered: list[dict[str, Any]] | None = None
        self._bridge: ToolBridge | None = None
        self._brains: dict[bool, GBrain] = {}
        self._lock = threading.Lock()
        self.refreshed = threading.Event()
        self.refresh_error: str | None = None
        self.discovered: Discovery | None = None
        self._closed = False

    def __repr__(self) -> str:
        return f"ToolSession(started={self._bridge is not None})"

    # -- phase 1: schemas, no network ------------------------------------------------------

    def schemas(self, settings: Settings | None) -> list[dict[str, Any]]:
        """The routing set on the first call; after ``start``, only what can succeed."""
        with self._lock:
            if self._schemas is None:
                self._schemas = self._compute(settings)
            offered = self._offered if self._offered is not None else self._schemas
            return [dict(s) for s in offered]

    def _settle_offer(self) -> None:
        """Fix what the model is offered for the rest of the session (a stable tool list)."""
        with self._lock:
            routed = self._schemas if self._schemas is not None else []
            usable = self.writes_usable
            self._offered = [s for s in routed if usable or not _writes_schema(s)]

    @property
    def writes_usable(self) -> bool:
        """This session may write and the credential is known to be able to."""
        bridge = self._bridge
        if bridge is None or not bridge.gate.allowed:
            return False
        discovery = bridge.discovery
        return discovery is not None and discovery.can_write

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
            scope: str | None = "read"
            if write:
                # admin mode: every scope the client has (no narrowing); write: read write.
                scope = None if settings.tools == "admin" else "read write"
            brain = open_brain(settings, scope=scope)
            with self._lock:
                brain = self._brains.setdefault(write, brain)
        return brain

    def start(
        self,
        settings: Settings,
        gate: WriteGate,
        *,
        refresh: bool = True,
        scope_wait_s: float | None = None,
    ) -> None:
        """Build the bridge; start the outbox worker and a cache refresh in the background."""
        if settings.tools == "off" or settings.problem() is not None:
            self._bridge = None
            self.refreshed.set()  # nothing to refresh
            self._settle_offer()
            return
        key = credential_key(settings)
        discovery = load_discovery(settings.hermes_home, key)
        outbox: Outbox | None = None
        worker: OutboxWorker | None = None
        if settings.tools in _WRITE_MODES and gate.allowed:
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
                    observe=lambda entry: self._observe(settings, entry),
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
            approve=self._approve,
        )
        if refresh and discovery is not None and discovery.fresh():
            # Learned lately by this or another process of the profile: no whoami and no
            # tools/list for this session (a gateway starting fifty sessions asks once).
            self.discovered = discovery
            self.refreshed.set()
        elif refresh:
            self._start_refresh(settings, key)
            if discovery is None and settings.tools in _WRITE_MODES and gate.allowed:
                # Scopes unknown: learn them now, within a bound, so that write tools are
                # offered only to a credential that can write.
                wait = SCOPE_WAIT_S if scope_wait_s is None else scope_wait_s
                self.refreshed.wait(max(0.0, wait))
        else:
            self.refreshed.set()
        self._settle_offer()

    def start_unavailable(self) -> None:
        """``initialize`` could not read this profile's settings: offer no write tool."""
        self._bridge = None
        self.refreshed.set()
        self._settle_offer()

    def _start_refresh(self, settings: Settings, key: str) -> None:
        """Refresh in the background, or follow the refresh already running for this key."""
        flight = (settings.hermes_home, key, settings.tools)
        with _refresh_lock:
            followers = _refreshing.get(flight)
            if followers is not None:
                followers.append(self)
                return
            _refreshing[flight] = []

        def run() -> None:
            try:
                self._refresh_quietly(settings)
            finally:
                with _refresh_lock:
                    waiting = _refreshing.pop(flight, [])
                for other in waiting:
                    other._follow(self)

        try:
            self._spawn(run, "gbrain-discovery").start()
        except RuntimeError:  # interpreter shutting down: nothing will refresh
            with _refresh_lock:
                waiting = _refreshing.pop(flight, [])
            for session in (self, *waiting):
                session.refresh_error = "RuntimeError"
                session.refreshed.set()

    def _follow(self, leader: ToolSession) -> None:
        """Take the result of the refresh this session waited for."""
        found = leader.discovered
        bridge = self._bridge
        if found is not None and bridge is not None and not self._closed:
            bridge.discovery = found
        self.discovered = found
        self.refresh_error = leader.refresh_error
        self.refreshed.set()

    def _refresh_quietly(self, settings: Settings) -> None:
        try:
            self.refresh(settings)
        except Exception as exc:  # a background thread must never print a traceback
            self.refresh_error = type(exc).__name__
            self.refreshed.set()

    def _send(self, settings: Settings, entry: Entry) -> None:
        self._brain(settings, True).put_page(entry.slug, entry.content)

    def _observe(self, settings: Settings, entry: Entry) -> Observed:
        return observe_page(self._brain(settings, True), entry.slug)

    def refresh(self, settings: Settings) -> Discovery | None:
        """Ask the server what this credential may call, and cache it (never raises)."""
        if self._closed:
            return None
        try:
            write = settings.tools in _WRITE_MODES
            found = discover(self._brain(settings, write), settings, refresh=False)
            save_discovery(settings.hermes_home, found)
        except (GBrainError, OSError) as exc:
            self.refresh_error = str(exc) if isinstance(exc, GBrainError) else type(exc).__name__
            self.refreshed.set()
            return None
        bridge = self._bridge
        if bridge is not None:
            bridge.discovery = found
        self.discovered = found
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
        """Send what is queued within ``timeout`` (the rest stays queued), then close the file."""
        self._closed = True
        bridge = self._bridge
        if bridge is None or bridge.outbox is None:
            return None
        status: OutboxStatus | None = None
        try:
            if bridge.worker is not None:
                status = bridge.worker.drain(timeout)
        finally:
            if bridge.worker is None or not bridge.worker.alive:
                bridge.outbox.close()
            else:  # still sending past the bound: the worker closes it when it stops
                bridge.worker.close_when_done()
        return status


def observe_page(brain: GBrain, slug: str) -> Observed:
    """The page as the server holds it now (the outbox never hashes our own text)."""
    try:
        page = brain.get_page(slug)
    except ToolError as exc:
        if exc.code == "page_not_found":
            return Observed(ABSENT)
        raise
    raw = page.raw
    return Observed(
        PageState(
            exists=True,
            updated_at=str(raw.get("updated_at") or ""),
            content_hash=str(raw.get("content_hash") or ""),
        ),
        compiled_truth=page.compiled_truth,
        timeline=page.timeline,
    )
