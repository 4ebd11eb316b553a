"""Memory health in Hermes: say once when GBrain memory stops and once when it is back,
and keep what reached the model on the last turn.

The provider hands every search outcome here (``outcome``, from search threads) and
shows what is pending at points Hermes lets it speak (``show``: ``prefetch``, the next
turn, ``shutdown``). Where the words go:

* the interactive CLI (0.19.0 and newer): Hermes' ``warning_callback`` for "memory is
  off" and its ``status_callback`` — the line that already shows recall — for "back";
* runs that keep stdout for the answer (``hermes -z``, ``hermes chat -q``: the agent
  suppresses status output, and ``-z`` points ``sys.stderr`` at the null device): one
  line on the process's real stderr, never stdout;
* everywhere, one WARNING log line (Hermes writes those to ``errors.log``).

Hook mode (``HookHealth``) keeps the same records per profile; a general plugin gets no
callbacks, so its line goes to stderr in a ``hermes -z`` run and to the log otherwise.
The state itself is in ``recall.health`` (``status`` and ``doctor`` read it).
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, TextIO

from ..advice import Advice, explain, unanswered
from ..recall import health
from ..recall.config import PointerConfig

__all__ = ["HealthWire", "HookHealth", "status_config"]

log = logging.getLogger(__name__)

GLYPH = "🧠"


def _real_stderr() -> TextIO | None:
    stream = sys.stderr
    if getattr(stream, "name", None) == os.devnull:
        return sys.__stderr__
    return stream


def _quiet_agent(callback: Callable[..., object] | None) -> bool:
    """True when the callback belongs to an agent that keeps stdout for the answer."""
    agent = getattr(callback, "__self__", None)
    return bool(getattr(agent, "suppress_status_output", False))


def _say(notice: tuple[str, str], callback: Callable[..., object] | None) -> None:
    """Log the notice and show it where the user looks (see the module docstring)."""
    kind, line = notice
    if kind == "down":
        log.warning("%s", line)
    else:
        log.info("%s", line)
    text = f"{GLYPH} {line}"
    try:
        if callback is not None and not _quiet_agent(callback):
            callback(text)
        elif callback is not None or getattr(sys.stderr, "name", None) == os.devnull:
            # the CLI in a run that keeps stdout for the answer (`-z` nulls sys.stderr)
            stream = _real_stderr()
            if stream is not None:
                stream.write(text + "\n")
                stream.flush()
    except Exception as exc:  # a broken callback or closed stream costs nothing
        log.debug("memory notice not shown: %s", type(exc).__name__)


class HealthWire:
    """One provider instance's notices and last-turn record."""

    def __init__(self) -> None:
        self._tracker = health.Tracker()
        self._home: str | None = None
        self._warn: Callable[..., object] | None = None
        self._status: Callable[..., object] | None = None
        self._lock = threading.Lock()
        self._turn: tuple[float, str, str, str] | None = None  # when, block, session, note
        self._failure: Advice | None = None  # the latest search's, if it failed

    def start(self, home: str, kwargs: dict[str, Any]) -> None:
        """``initialize``: the profile, Hermes' callbacks, and whether it was failing."""
        self._home = home
        warn, status = kwargs.get("warning_callback"), kwargs.get("status_callback")
        self._warn = warn if callable(warn) else None
        self._status = status if callable(status) else None
        state = health.read_health(home)
        self._tracker = health.Tracker(was_failing=state is not None and state.failing)

    def outcome_for(self, config: PointerConfig) -> Callable[[BaseException | None], None]:
        """The search outcome, in the words of ``advice`` (never a secret or message)."""

        started = time.monotonic()  # made when the search is submitted

        def outcome(error: BaseException | None) -> None:
            failure = None if error is None else explain(error, config.settings)
            self._failure = failure
            self._tracker.outcome(failure, started=started)

        return outcome

    def unanswered(self, config: PointerConfig, waited: float, *, started: float) -> None:
        """A search still unanswered as the process ends: a hung or overloaded server (a
        one-shot run would otherwise end in silence; a later success outranks it)."""
        failure = unanswered(config.settings, waited)
        self._failure = failure
        self._tracker.outcome(failure, started=started)

    def reason(self) -> str:
        """Why the latest search failed, with the fix; ``""`` when it answered."""
        failure = self._failure
        return "" if failure is None else f"{failure.what}. Fix: {failure.fix}"

    def show(self) -> None:
        """Say what is pending (at most one line); never raises."""
        notice = self._tracker.take()
        if notice is not None:
            _say(notice, self._warn if notice[0] == "down" else self._status)

    # -- the last turn -----------------------------------------------------------------

    def turn(self, block: str, *, session: str, note: str = "") -> None:
        """Remember what this turn's block cited (written after the turn, off its path)."""
        failure = self._failure
        if not block and not note:
            note = (
                f"memory off: {failure.what}"
                if failure is not None
                else "no page passed the relevance gate in time"
            )
        with self._lock:  # read later, off the turn's path (``prefetch`` is a lookup)
            self._turn = (time.time(), block, session, note)

    def save_turn(self) -> None:
        """Write the remembered turn and the searches' outcomes, off the turn's path
        (``sync_turn`` runs after the turn, then ``shutdown``)."""
        with self._lock:
            turn, self._turn = self._turn, None
        if self._home is None:
            return
        self._tracker.save(self._home)
        if turn is not None:
            at, block, session, note = turn
            record = health.turn_record(block, session=session, note=note, at=at)
            health.write_last_turn(self._home, record)


class HookHealth:
    """Hook mode: one hook per process, serving many profiles and sessions. The same
    records per profile; the notice once per process and profile, on stderr in a
    ``hermes -z`` run, else in the log only (a general plugin gets no status line)."""

    MAX_PROFILES = 64

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._trackers: dict[str, health.Tracker] = {}

    def _tracker(self, home: str) -> health.Tracker:
        with self._lock:
            found = self._trackers.get(home)
        if found is not None:
            return found
        state = health.read_health(home)
        made = health.Tracker(was_failing=state is not None and state.failing)
        with self._lock:
            found = self._trackers.setdefault(home, made)
            while len(self._trackers) > self.MAX_PROFILES:
                self._trackers.pop(next(iter(self._trackers)))
        return found

    def outcome_for(self, config: PointerConfig) -> Callable[[BaseException | None], None]:
        tracker = self._tracker(config.home)
        started = time.monotonic()

        def outcome(error: BaseException | None) -> None:
            failure = None if error is None else explain(error, config.settings)
            tracker.outcome(failure, started=started)

        return outcome

    def after_turn(self, home: str, block: str, *, session: str, spawn: Callable[..., Any]) -> None:
        """Say what is pending, then write the outcomes and the turn on a thread of
        their own (the hook returns to Hermes first)."""
        tracker = self._tracker(home)
        notice = tracker.take()
        if notice is not None:
            _say(notice, None)
        at = time.time()

        def save() -> None:
            tracker.save(home)
            health.write_last_turn(home, health.turn_record(block, session=session, at=at))

        try:
            spawn(save, "gbrain-hook-health").start()
        except Exception as exc:  # no thread: the record waits for the next turn
            log.debug("hook health not saved: %s", type(exc).__name__)


def status_config(home: str, provider_config: object) -> dict[str, object]:
    """``hermes memory status`` lines: Hermes' own config for the provider, then how the
    last searches went (a local file: no network, as that command expects)."""
    lines: dict[str, object] = dict(provider_config) if isinstance(provider_config, dict) else {}
    state = health.read_health(home)
    if state is None:
        lines["memory"] = "no search recorded yet (`hermes-gbrain status` checks now)"
    elif state.failing:
        lines["memory"] = f"OFF since the last search failed {health.ago(state.failed_at)}"
        lines["failed"] = state.what
        lines["fix"] = state.fix
    else:
        lines["memory"] = f"working: last search answered {health.ago(state.succeeded_at)}"
    return lines
