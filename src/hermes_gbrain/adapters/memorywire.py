"""Hermes-facing glue for memory write-back: ``on_memory_write`` → the ledger → GBrain facts.

Hermes 0.19.0 calls a provider's ``on_memory_write(action, target, content, metadata)`` on
the agent thread after its built-in ``memory`` tool committed an ``add``, ``replace`` or
``remove`` (``MemoryManager.notify_memory_tool_write``: only successful, non-staged
writes; a batch of ``operations`` arrives one call per operation, with ``old_text`` in
the metadata for ``replace``/``remove``). Nothing happens unless the profile set
``GBRAIN_WRITEBACK=memory``; never in a ``subagent``, ``cron`` or ``flush`` agent or on
the cron platform. The hook only commits to the local ledger; a worker thread sends.
"""

from __future__ import annotations

import logging
from typing import Any

from ..api import GBrain
from ..connect import open_brain
from ..files import data_dir
from ..settings import Settings
from ..toolbridge.session import write_gate
from ..writeback.ledger import DB_NAME, Ledger
from ..writeback.mirror import Mirror, MirrorPolicy, profile_label
from . import compat
from .toolwire import read_settings

__all__ = ["DRAIN_TIMEOUT_S", "MemoryWriteBack", "writeback_schema"]

log = logging.getLogger(__name__)

DRAIN_TIMEOUT_S = 1.5
"""Shutdown's bound for queued facts (the page outbox has 3 s; Hermes allows ~5 s in all)."""


class MemoryWriteBack:
    """One provider instance's write-back; inert unless enabled and allowed."""

    def __init__(self) -> None:
        self.mirror: Mirror | None = None
        self.reason = "write-back is off (GBRAIN_WRITEBACK)"
        self._brain: GBrain | None = None

    def __repr__(self) -> str:
        return f"MemoryWriteBack(active={self.mirror is not None})"

    def start(self, home: str, session_id: str, kwargs: dict[str, Any]) -> None:
        settings = read_settings(home)
        if settings is None or settings.writeback != "memory":
            return
        if settings.problem() is not None:
            self.reason = "GBrain is not configured for this profile"
            return
        gate = write_gate("write", kwargs.get("agent_context"), kwargs.get("platform"))
        if not gate.allowed:
            self.reason = gate.reason or "writes are not allowed here"
            return
        try:
            ledger = Ledger(data_dir(settings.hermes_home) / DB_NAME)
        except Exception as exc:  # sqlite3.Error, OSError
            log.warning("gbrain memory write-back unavailable (%s)", type(exc).__name__)
            self.reason = "the write-back ledger could not be opened"
            return
        policy = MirrorPolicy(
            endpoint=settings.mcp_url,
            profile=profile_label(home),
            retire=settings.writeback_retire,
            user_entity=settings.writeback_user_entity,
            session=session_id,
        )
        self.mirror = Mirror(
            ledger, policy, lambda: self._open(settings), spawn=compat.spawn_thread
        )
        self.mirror.start()  # also replays what a crash left queued
        self.reason = ""

    def _open(self, settings: Settings) -> GBrain:
        if self._brain is None:
            self._brain = open_brain(settings, scope="read write")
        return self._brain

    def on_write(
        self, action: Any, target: Any, content: Any, metadata: dict[str, Any] | None
    ) -> None:
        mirror = self.mirror
        if mirror is None or not isinstance(action, str) or not isinstance(target, str):
            return
        try:
            mirror.record(action, target, content if isinstance(content, str) else "", metadata)
        except Exception as exc:  # never into Hermes; never the entry text
            log.warning("gbrain memory write-back could not queue a write (%s)", type(exc).__name__)

    def shutdown(self, timeout: float = DRAIN_TIMEOUT_S) -> None:
        mirror, self.mirror = self.mirror, None
        if mirror is None:
            return
        try:
            mirror.drain(timeout)
        finally:
            mirror.close()


def writeback_schema() -> list[dict[str, Any]]:
    """The ``hermes memory setup`` fields for write-back (they land in ``.env``)."""
    return [
        {
            "key": "writeback",
            "description": "Also store Hermes' own memory-tool writes as GBrain facts"
            " (memory; needs a read write client) or not (off)",
            "env_var": "GBRAIN_WRITEBACK",
            "default": "off",
            "choices": ["off", "memory"],
        },
        {
            "key": "writeback_retire",
            "description": "Retire the GBrain fact of an entry Hermes replaced or removed"
            " (1 = yes; default: keep it)",
            "env_var": "GBRAIN_WRITEBACK_RETIRE",
            "default": "0",
            "choices": ["0", "1"],
        },
    ]
