"""Whether memory works for a profile, and what reached the model on the last turn.

Two small private files in the profile's data folder (``files.write_atomic``: 0600,
replaced atomically), read by ``hermes-gbrain status`` and ``doctor``:

* ``health.json`` — the last failure (when, what failed, the fix: words from
  ``advice``, never a secret or a message) and the last success of the profile's
  recall searches. Written after the turn (never while one waits for its search): when
  the state changes, else at most once a minute.
* ``last_turn.json`` — what the last turn's block cited: the source, slug and title of
  each briefing line and pointer, and how many facts; never the user's message, never a
  summary or a fact's text.

A :class:`Tracker` per session decides when the user is told: once when memory stops,
once when it comes back (also when an earlier process left the profile failing).
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..advice import Advice
from ..files import data_dir, write_atomic
from ..text import one_line

__all__ = [
    "HEALTH_FILE",
    "LAST_TURN_FILE",
    "Health",
    "LastTurn",
    "Tracker",
    "ago",
    "read_health",
    "read_last_turn",
    "record_outcome",
    "turn_record",
    "write_last_turn",
]

log = logging.getLogger(__name__)

HEALTH_FILE = "health.json"
LAST_TURN_FILE = "last_turn.json"
REWRITE_S = 60.0
"""An unchanged state is written again at most this often (to refresh its time)."""
MAX_FILE_BYTES = 65_536
_TEXT_CAP = 600
_TITLE_CAP = 120
_MAX_LINES = 40


@dataclass(frozen=True, slots=True)
class Health:
    """The profile's last failure and last success (epoch seconds), as on disk."""

    failing: bool
    failed_at: float | None = None
    what: str = ""
    fix: str = ""
    succeeded_at: float | None = None


def _path(home: str | os.PathLike[str], name: str) -> Path:
    return data_dir(home) / name


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
        data = json.loads(raw) if len(raw) <= MAX_FILE_BYTES else None
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def read_health(home: str | os.PathLike[str]) -> Health | None:
    """The state on disk; None when no search was ever recorded (or the file is broken)."""
    data = _read_json(_path(home, HEALTH_FILE))
    if data is None:
        return None
    failure = data.get("last_failure")
    failure = failure if isinstance(failure, dict) else {}
    return Health(
        failing=data.get("state") == "failing",
        failed_at=_number(failure.get("at")),
        what=one_line(str(failure.get("what") or ""), _TEXT_CAP),
        fix=one_line(str(failure.get("fix") or ""), _TEXT_CAP),
        succeeded_at=_number(data.get("last_success")),
    )


_lock = threading.Lock()
_known: dict[str, tuple[Health, float]] = {}  # home -> (state, when it was written)


def record_outcome(
    home: str | os.PathLike[str], failure: Advice | None, *, now: float | None = None
) -> Health:
    """Record one search's outcome for the profile; returns the state before it.

    The file is written when the state (or what failed) changes, else at most once
    every ``REWRITE_S``; a write that fails costs nothing but a log line.
    """
    key = os.fspath(home)
    now = time.time() if now is None else now
    with _lock:
        cached = _known.get(key)
        before = cached[0] if cached is not None else read_health(key) or Health(failing=False)
        if failure is None:
            after = Health(False, before.failed_at, before.what, before.fix, now)
            same = not before.failing
        else:
            what, fix = one_line(failure.what, _TEXT_CAP), one_line(failure.fix, _TEXT_CAP)
            after = Health(True, now, what, fix, before.succeeded_at)
            same = before.failing and before.what == what
        written = cached[1] if cached is not None else 0.0
        if same and now - written < REWRITE_S:
            _known[key] = (before if failure is None else after, written)
            return before
        try:
            write_atomic(_path(key, HEALTH_FILE), json.dumps(_health_json(after)) + "\n")
            _known[key] = (after, now)
        except OSError as exc:
            log.debug("health file not written: %s", type(exc).__name__)
            _known[key] = (after, written)
        return before


def _health_json(state: Health) -> dict[str, Any]:
    data: dict[str, Any] = {"state": "failing" if state.failing else "ok"}
    if state.failed_at is not None:
        data["last_failure"] = {"at": state.failed_at, "what": state.what, "fix": state.fix}
    if state.succeeded_at is not None:
        data["last_success"] = state.succeeded_at
    return data


def forget_cache() -> None:
    """Tests: the next outcome reads the file again."""
    with _lock:
        _known.clear()


class Tracker:
    """One session's view: tell the user once when memory stops, once when it is back.

    ``outcome`` runs on search threads (a turn may be waiting for it, so it never touches
    the disk); ``take`` hands the notice to whoever can show it; ``due`` hands the
    outcomes to write (``record_outcome``) once the turn is over.
    """

    def __init__(self, *, was_failing: bool = False) -> None:
        self._lock = threading.Lock()
        self._told_down = False
        self._back_due = was_failing
        self._notice: tuple[str, str] | None = None  # (kind, line)
        self._due: list[tuple[float, Advice | None]] = []  # the last failure, the last outcome
        self._ok_since = float("-inf")  # when the latest successful search started

    def outcome(self, failure: Advice | None, *, started: float | None = None) -> None:
        """One search's outcome; ``started`` (``time.monotonic()`` when it was sent) lets
        a late failure of a search older than a later success count for nothing."""
        now = time.time()
        began = time.monotonic() if started is None else started
        with self._lock:
            if failure is None:
                self._ok_since = max(self._ok_since, began)
            elif began < self._ok_since:
                return
            kept = [entry for entry in self._due[-2:] if entry[1] is not None][-1:]
            self._due = [(now, failure)] if failure is not None else [*kept, (now, None)]
            if failure is not None and not self._told_down:
                self._told_down, self._back_due = True, True
                self._notice = (
                    "down",
                    f"GBrain memory is off: {failure.what}. Fix: {failure.fix}",
                )
            elif failure is None and self._back_due:
                self._told_down, self._back_due = False, False
                self._notice = ("back", "GBrain memory is back")

    def take(self) -> tuple[str, str] | None:
        """The notice not shown yet (``("down" | "back", line)``), once."""
        with self._lock:
            notice, self._notice = self._notice, None
        return notice

    def save(self, home: str | os.PathLike[str]) -> None:
        """Write the outcomes since the last save (the last failure first)."""
        with self._lock:
            due, self._due = self._due, []
        for at, failure in due:
            record_outcome(home, failure, now=at)


def ago(at: float | None, now: float | None = None) -> str:
    """``"3 min ago (2026-12-01 12:03 UTC)"``; ``"never"`` for None."""
    if at is None:
        return "never"
    seconds = max(0.0, (time.time() if now is None else now) - at)
    if seconds < 90:
        rel = f"{seconds:.0f} s ago"
    elif seconds < 5400:
        rel = f"{seconds / 60:.0f} min ago"
    elif seconds < 172_800:
        rel = f"{seconds / 3600:.0f} h ago"
    else:
        rel = f"{seconds / 86400:.0f} days ago"
    stamp = datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M UTC")
    return f"{rel} ({stamp})"


# -- the last turn -------------------------------------------------------------------------

_BRIEF = re.compile(r"^- (?P<title>.*?) \[(?P<source>[A-Za-z0-9._-]+):(?P<slug>[^\]\s]+)\]")
_POINTER = re.compile(r"^- \[(?P<source>[A-Za-z0-9._-]+):(?P<slug>[^\]\s]+)\] (?P<title>.*)$")
_FACT = re.compile(r"^- Fact \(")


@dataclass(frozen=True, slots=True)
class LastTurn:
    at: float
    session: str
    briefing: tuple[tuple[str, str, str], ...]  # (source, slug, title)
    pointers: tuple[tuple[str, str, str], ...]
    facts: int
    note: str  # why nothing reached the model, when nothing did


def turn_record(block: str, *, session: str, note: str = "", at: float | None = None) -> LastTurn:
    """What a turn's block cited (at ``at``, default now), without any summary or fact text."""
    briefing: list[tuple[str, str, str]] = []
    pointers: list[tuple[str, str, str]] = []
    facts = 0
    for line in block.split("\n")[:200]:
        if _FACT.match(line):
            facts += 1
        elif found := _POINTER.match(line):
            pointers.append(_cite(found))
        elif found := _BRIEF.match(line):
            briefing.append(_cite(found))
    return LastTurn(
        time.time() if at is None else at,
        one_line(session, 80),
        tuple(briefing[:_MAX_LINES]),
        tuple(pointers[:_MAX_LINES]),
        facts,
        one_line(note, _TEXT_CAP),
    )


def _cite(found: re.Match[str]) -> tuple[str, str, str]:
    return (
        one_line(found["source"], 60),
        one_line(found["slug"], 200),
        one_line(found["title"], _TITLE_CAP),
    )


def write_last_turn(home: str | os.PathLike[str], turn: LastTurn) -> None:
    """Replace ``last_turn.json``; a failure is logged and otherwise ignored."""
    data = {
        "at": turn.at,
        "session": turn.session,
        "briefing": [dict(zip(("source", "slug", "title"), c, strict=True)) for c in turn.briefing],
        "pointers": [dict(zip(("source", "slug", "title"), c, strict=True)) for c in turn.pointers],
        "facts": turn.facts,
        "note": turn.note,
    }
    try:
        write_atomic(_path(home, LAST_TURN_FILE), json.dumps(data, ensure_ascii=False) + "\n")
    except OSError as exc:
        log.debug("last-turn file not written: %s", type(exc).__name__)


def _cites(value: object) -> tuple[tuple[str, str, str], ...]:
    if not isinstance(value, list):
        return ()
    out = []
    for item in value[:_MAX_LINES]:
        if isinstance(item, dict):
            out.append(
                (
                    one_line(str(item.get("source") or ""), 60),
                    one_line(str(item.get("slug") or ""), 200),
                    one_line(str(item.get("title") or ""), _TITLE_CAP),
                )
            )
    return tuple(out)


def read_last_turn(home: str | os.PathLike[str]) -> LastTurn | None:
    data = _read_json(_path(home, LAST_TURN_FILE))
    if data is None:
        return None
    facts = data.get("facts")
    return LastTurn(
        at=_number(data.get("at")) or 0.0,
        session=one_line(str(data.get("session") or ""), 80),
        briefing=_cites(data.get("briefing")),
        pointers=_cites(data.get("pointers")),
        facts=facts if isinstance(facts, int) and not isinstance(facts, bool) else 0,
        note=one_line(str(data.get("note") or ""), _TEXT_CAP),
    )
