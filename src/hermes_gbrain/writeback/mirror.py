"""Hermes memory-tool writes → GBrain facts, queued in the ledger and sent in the background.

``Mirror.record`` runs on Hermes' agent thread inside ``on_memory_write``: it only commits
ledger rows (a local SQLite transaction) and wakes the worker, so the turn never waits on
GBrain. The worker sends the rows in order:

* ``remember`` — ``fact`` is the entry text, ``kind`` is ``preference`` for the ``user``
  target and ``fact`` for ``memory``, ``entity`` is the configured user entity for ``user``
  entries, ``provenance`` names the profile, the session and the operation id (never any
  other text). Before sending, it looks for the fact (``recall`` with the entry text as
  ``grep``): a fact whose provenance carries this operation id is the earlier attempt of
  this very row, and one with this profile's and target's provenance and the same text was
  stored by this profile before (an earlier ``import-memory``, a lost ledger) — either is
  adopted, nothing is sent. For a ``replace``, with retiring allowed, a server that declares
  ``remember``'s ``replaces`` argument supersedes the old fact in the same call.
* ``forget`` — only when the user allowed retiring (``GBRAIN_WRITEBACK_RETIRE``), only a
  fact this profile created, never one it merely found; an unknown id counts as done.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..api import GBrain, UnsupportedError
from ..errors import AuthError, ConfigError, GBrainError, ToolError
from ..rowqueue import QueueWorker, RowQueue, Spawn, may_still_land
from .ledger import Ledger, Op

__all__ = [
    "MAX_ATTEMPTS",
    "NO_WRITE_CONTEXTS",
    "Mirror",
    "MirrorPolicy",
    "kind_for",
    "profile_label",
    "provenance_prefix",
]

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
BASE_BACKOFF_S = 1.0
MAX_BACKOFF_S = 300.0
LOOKUP_LIMIT = 100
NO_WRITE_CONTEXTS = frozenset({"subagent", "cron", "flush"})
_ACTIONS = frozenset({"add", "replace", "remove"})
_TARGETS = frozenset({"memory", "user"})
_PERMANENT = frozenset(
    {
        "invalid_params",
        "insufficient_scope",
        "permission_denied",
        "scope_denied",
        "unknown_operation",
        "provenance_required",
    }
)
_LABEL = re.compile(r"[^A-Za-z0-9._:-]")


def _label(value: str, limit: int = 64) -> str:
    """Visible, delimiter-free and short: ids and names only ever go into provenance this way."""
    return _LABEL.sub("_", value.strip())[:limit] or "unknown"


def profile_label(hermes_home: str) -> str:
    """Hermes' name for a profile: ``default`` for the main home, else its folder under
    ``profiles/``."""
    path = Path(hermes_home)
    return _label(path.name) if path.parent.name == "profiles" else "default"


def kind_for(target: str) -> str:
    """What a Hermes entry is to GBrain: about the user → ``preference``, else ``fact``."""
    return "preference" if target == "user" else "fact"


def provenance_prefix(target: str, profile: str) -> str:
    return f"Hermes memory ({target} entry), profile {_label(profile)}"


def provenance(target: str, profile: str, session: str, op_id: str) -> str:
    """At most ~200 characters: profile, session and operation id, nothing else."""
    return f"{provenance_prefix(target, profile)}, session {_label(session)}, op {op_id}"


@dataclass(frozen=True, slots=True)
class MirrorPolicy:
    """Frozen where the profile's scope is bound (``initialize`` or the command)."""

    endpoint: str
    profile: str
    retire: bool = False
    user_entity: str | None = None
    session: str = ""


def _classify(exc: BaseException) -> tuple[bool, str]:
    """``(permanent, reason)``; reasons carry codes, never text."""
    if isinstance(exc, ToolError):
        code = exc.code or "unknown_error"
        safe = code if code.replace("_", "").isalpha() and len(code) <= 40 else "unknown_error"
        return code in _PERMANENT, f"server refused ({safe})"
    if isinstance(exc, UnsupportedError):
        return True, "the server offers no fact tools to this credential (read-only?)"
    if isinstance(exc, ConfigError | AuthError | GBrainError):
        return isinstance(exc, ConfigError), str(exc)
    return False, f"unexpected {type(exc).__name__}"


class Mirror(QueueWorker):
    """The producer (``record``) and the one worker thread for one profile and endpoint."""

    thread_name = "gbrain-memory-facts"

    def __init__(
        self,
        ledger: Ledger,
        policy: MirrorPolicy,
        brain: Callable[[], GBrain],
        *,
        spawn: Spawn | None = None,
        max_wait_s: float = 30.0,
    ) -> None:
        super().__init__(spawn=spawn, max_wait_s=max_wait_s)
        self.ledger = ledger
        self.policy = policy
        self._brain = brain
        self._sending = False  # the worker thread's current row went out (or was about to)

    def __repr__(self) -> str:
        return f"Mirror(profile={self.policy.profile!r}, retire={self.policy.retire})"

    # -- producer ----------------------------------------------------------------------------

    def record(
        self,
        action: str,
        target: str,
        content: str,
        metadata: Mapping[str, Any] | None = None,
    ) -> list[str]:
        """Queue what one committed memory-tool write means for GBrain (never sends)."""
        meta = metadata or {}
        if action not in _ACTIONS or target not in _TARGETS:
            return []
        for key in ("execution_context", "write_origin"):
            if str(meta.get(key) or "").strip().lower() in NO_WRITE_CONTEXTS:
                return []
        session = str(meta.get("session_id") or self.policy.session or "")
        old_text = meta.get("old_text")
        ops = self.ledger.record(
            self.policy.endpoint,
            action,
            target,
            content=content if isinstance(content, str) else "",
            old_text=old_text if isinstance(old_text, str) else "",
            retire=self.policy.retire,
            provenance=lambda op_id: provenance(target, self.policy.profile, session, op_id),
            kind=kind_for(target),
            entity=self.policy.user_entity if target == "user" else None,
        )
        if ops:
            self.wake()
        return ops

    # -- worker -----------------------------------------------------------------------------

    def drain(self, timeout: float) -> None:
        """Try every queued row once more, then stop; rows left stay queued for next time."""
        self.drain_within(timeout)

    def close(self) -> None:
        """Stop and close the ledger once the worker is out of it."""
        self.close_when_done()

    def _rows(self) -> RowQueue:
        return self.ledger.rows

    def _recover(self) -> None:
        self.ledger.rows.recover()

    def _close_store(self) -> None:
        self.ledger.close()

    def _loop(self) -> None:
        tried: set[str] = set()
        while not self._stop.is_set():
            self._maybe_recover()
            draining = self._draining.is_set()
            op = self.ledger.head(self.policy.endpoint)
            if op is not None and draining and op.op_id in tried:
                op = None
            wait = 0.0
            if op is not None:  # draining ignores backoff, never a send that may still land
                due = op.settle_at if draining else max(op.next_at, op.settle_at)
                wait = max(0.0, due - self.ledger.clock())
            if op is None or wait > 0:
                self._idle.set()
                if draining:
                    return
                self._sleep(min(self._max_wait, wait or self._max_wait))
                continue
            tried.add(op.op_id)
            self._one(op)

    def _one(self, op: Op) -> None:
        if not self.ledger.claim(op.op_id):
            return
        self._sending = False
        try:
            state, note = self._send(op)
        except Exception as exc:
            permanent, reason = _classify(exc)
            settled = not (self._sending and may_still_land(exc))
            if permanent:
                self.ledger.finish(op.op_id, "failed", reason, settled=settled)
                return
            self.ledger.retry_later(
                op.op_id,
                op.attempts + 1,
                reason,
                settled=settled,
                max_attempts=MAX_ATTEMPTS,
                base_s=BASE_BACKOFF_S,
                cap_s=MAX_BACKOFF_S,
            )
            return
        self.ledger.finish(op.op_id, state, note)

    def _about_to_send(self, op: Op, brain: GBrain) -> None:
        """The settle mark goes to disk before the request leaves (``rowqueue``)."""
        if not self.ledger.sending(op.op_id, brain.mcp.deadline_s):
            raise GBrainError("the row was taken over by another process")
        self._sending = True

    def _send(self, op: Op) -> tuple[str, str | None]:
        if op.action == "remember":
            return self._remember(op)
        return self._forget(op)

    def _find(self, brain: GBrain, op: Op) -> tuple[str, bool] | None:
        """An active fact this row (or this profile) already stored for the same text."""
        try:
            rows = brain.recall_facts(grep=op.text, limit=LOOKUP_LIMIT)
        except UnsupportedError:
            return None  # no recall: nothing to look in (a replay may then duplicate)
        prefix = provenance_prefix(op.target, self.policy.profile)
        for row in rows:
            source = str(row.get("provenance") or row.get("source") or "")
            fact_id = row.get("fact_id") if row.get("fact_id") is not None else row.get("id")
            if fact_id is None or str(row.get("fact") or "").strip() != op.text:
                continue
            if f"op {op.op_id}" in source or source.startswith(prefix):
                return str(fact_id), True
        return None

    def _remember(self, op: Op) -> tuple[str, str | None]:
        brain = self._brain()
        found = self._find(brain, op)
        if found is not None:
            self.ledger.set_fact(op.entry_id, found[0], owned=found[1])
            return "delivered", "already in GBrain"
        replaces = None
        if (
            op.prior_entry is not None
            and op.prior_fact_id
            and op.prior_owned
            and not op.prior_retired
            and brain.declares("remember", "replaces")
        ):
            replaces = op.prior_fact_id
        self._about_to_send(op, brain)
        result = brain.remember(
            op.text,
            op.provenance,
            entity=op.entity,
            kind=op.kind,
            replaces=replaces,
        )
        fact_id = result.get("id")
        if fact_id is None:
            raise GBrainError("remember answered without a fact id")
        status = str(result.get("status") or "")
        self.ledger.set_fact(op.entry_id, str(fact_id), owned=status in ("inserted", "superseded"))
        if replaces is not None and status == "superseded" and op.prior_entry is not None:
            self.ledger.set_retired(op.prior_entry)
        return "delivered", None

    def _forget(self, op: Op) -> tuple[str, str | None]:
        if not op.fact_id:
            return "skipped", "the entry never reached GBrain"
        if not op.owned:
            return "skipped", "the fact was not created by this profile; left alone"
        if op.retired:
            return "delivered", "already retired"
        brain = self._brain()
        self._about_to_send(op, brain)
        try:
            brain.forget(op.fact_id, reason=f"removed or replaced in Hermes memory ({op.target})")
        except ToolError as exc:
            if exc.code != "not_found":
                raise
        self.ledger.set_retired(op.entry_id)
        return "delivered", None
