"""What each session has already been shown, kept across processes.

Hermes may run every turn of a session in a new process (``hermes -z``, ``hermes chat
-q … --resume``, a gateway restart), so "brief a session once" and "do not point at a
page again within five turns" cannot live in memory alone. Each session has one small
JSON file under ``$HERMES_HOME/gbrain/sessions/``, named by a hash of the session id,
holding whether the session's briefing is settled and which pages (``[source:slug]``
citations, never message text) it was shown at which turn (and an empty ``.brief``
file beside it once a process has claimed the briefing, see ``claim_briefing``):

    {"v": 1, "briefed": true, "turn": 4, "pages": {"[default:people/maya-okafor]": 1}}

Turn numbers are Hermes' user-turn counts, which a resumed session re-seeds from its
history, so they agree across processes. A file is rewritten atomically (mode 0600)
only when something changed; pages older than the repeat window are dropped at each
write, so a file stays under a few kilobytes. The folder is pruned by age and count
once per process and profile. Every failure to read or write means "nothing known":
the worst case is a page pointed at again, or a briefing on a resumed early turn.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..files import data_dir, private_dir, read_state, sweep_temp_files, write_atomic

__all__ = [
    "MAX_AGE_DAYS",
    "MAX_FILES",
    "REPEAT_TURNS",
    "Shown",
    "ShownLog",
    "prune",
    "reset_shared_log",
    "sessions_dir",
    "shared_log",
]

log = logging.getLogger(__name__)

REPEAT_TURNS = 5
"""A page shown at turn ``t`` is not pointed at again before turn ``t + REPEAT_TURNS + 1``."""
MAX_AGE_DAYS = 30
MAX_FILES = 1_000
MAX_PAGES = 64
MAX_FILE_BYTES = 16_384
MAX_CACHED = 4_096
CLAIM_SUFFIX = ".brief"
"""The empty file that says one process has claimed a session's briefing."""
_VERSION = 1


def sessions_dir(hermes_home: str | os.PathLike[str]) -> Path:
    """``$HERMES_HOME/gbrain/sessions``: one small file per recent session."""
    return data_dir(hermes_home) / "sessions"


def _file_for(home: str, session: str) -> Path:
    digest = hashlib.sha256(session.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return sessions_dir(home) / f"{digest}.json"


@dataclass(slots=True)
class Shown:
    """One session's record: briefing settled, and page citation -> last turn shown."""

    briefed: bool = False
    turn: int = 0
    pages: dict[str, int] = field(default_factory=dict)

    def recent(self, turn: int, window: int = REPEAT_TURNS) -> frozenset[str]:
        """Pages shown within ``window`` turns before ``turn`` (or later, after an undo)."""
        return frozenset(page for page, at in self.pages.items() if turn - at <= window)

    def last(self, turn: int, window: int = REPEAT_TURNS) -> frozenset[str]:
        """The pages of the latest turn within ``window`` before ``turn`` that showed any:
        what a follow-up's "it" or "their" points back at."""
        within = {page: at for page, at in self.pages.items() if turn - at <= window}
        latest = max(within.values(), default=None)
        return frozenset(page for page, at in within.items() if at == latest)

    def to_json(self) -> str:
        return json.dumps(
            {"v": _VERSION, "briefed": self.briefed, "turn": self.turn, "pages": self.pages},
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str) -> Shown:
        """Anything unexpected is dropped; a broken file reads as an empty record."""
        try:
            data = json.loads(text)
        except ValueError:
            return cls()
        if not isinstance(data, dict) or data.get("v") != _VERSION:
            return cls()
        raw_pages = data.get("pages")
        pages: dict[str, int] = {}
        if isinstance(raw_pages, dict):
            for page, at in list(raw_pages.items())[:MAX_PAGES]:
                if isinstance(page, str) and len(page) <= 300 and type(at) is int:
                    pages[page] = at
        turn = data.get("turn")
        return cls(
            briefed=data.get("briefed") is True,
            turn=turn if type(turn) is int else 0,
            pages=pages,
        )


class ShownLog:
    """Per-session records, cached in memory and mirrored to the profile's folder.

    Process-wide (like the pointer engine and the briefing desk): the provider, a
    provider rebuilt between turns and the hook all see the same record. Keyed by
    (profile home, session id); the empty session id is kept in memory only.
    """

    def __init__(self, *, max_cached: int = MAX_CACHED, persist: bool = True) -> None:
        self._lock = threading.Lock()
        self._records: OrderedDict[tuple[str, str], Shown] = OrderedDict()
        self._max_cached = max_cached
        self._persist = persist
        self._pruned: set[str] = set()
        self.writes = 0

    def __repr__(self) -> str:
        return f"ShownLog(sessions={len(self._records)})"

    # -- reading -------------------------------------------------------------------------

    def get(self, home: str, session: str) -> Shown:
        """The session's record (read from disk the first time this process asks)."""
        key = (home, session)
        with self._lock:
            record = self._records.get(key)
            if record is not None:
                self._records.move_to_end(key)
                return record
        record = self._load(home, session)
        with self._lock:
            record = self._records.setdefault(key, record)
            while len(self._records) > self._max_cached:
                self._records.popitem(last=False)
        return record

    def briefed(self, home: str, session: str) -> bool:
        """True once the session's briefing was handed out (or given up on)."""
        return self.get(home, session).briefed

    def recent(self, home: str, session: str, turn: int) -> frozenset[str]:
        """Pages the session was shown within the repeat window before ``turn``."""
        record = self.get(home, session)
        with self._lock:
            return record.recent(turn)

    def last(self, home: str, session: str, turn: int) -> frozenset[str]:
        """The pages of the latest turn before ``turn`` that showed any (within the window)."""
        record = self.get(home, session)
        with self._lock:
            return record.last(turn)

    def _load(self, home: str, session: str) -> Shown:
        if not self._persist or not session:
            return Shown()
        path = _file_for(home, session)
        try:
            data = read_state(path, MAX_FILE_BYTES)
        except OSError:
            return Shown()
        if len(data) > MAX_FILE_BYTES:
            return Shown()
        return Shown.from_json(data.decode("utf-8", "replace"))

    # -- writing -------------------------------------------------------------------------

    def record(
        self,
        home: str,
        session: str,
        *,
        turn: int,
        pages: Iterable[str] = (),
        briefed: bool = False,
    ) -> None:
        """Note what ``turn`` showed; the file is rewritten only when something changed."""
        record = self.get(home, session)
        with self._lock:
            changed = briefed and not record.briefed
            record.briefed = record.briefed or briefed
            for page in pages:
                if record.pages.get(page) != turn:
                    record.pages[page] = turn
                    changed = True
            if not changed:
                return
            record.turn = max(record.turn, turn)
            keep = sorted(
                (p for p in record.pages.items() if record.turn - p[1] <= REPEAT_TURNS),
                key=lambda item: item[1],
            )[-MAX_PAGES:]
            record.pages = dict(keep)
            text = record.to_json()
        self._write(home, session, text)

    def _write(self, home: str, session: str, text: str) -> None:
        if not self._persist or not session:
            return
        try:
            private_dir(data_dir(home))  # ours, like the sessions folder: owner-only
            write_atomic(_file_for(home, session), text)
            self.writes += 1
        except OSError as exc:  # a read-only or full disk costs repeats, never the turn
            log.debug("session record not written: %s", type(exc).__name__)
        self._prune_once(home)

    def _prune_once(self, home: str) -> None:
        with self._lock:
            if home in self._pruned:
                return
            self._pruned.add(home)
        prune(sessions_dir(home))

    def claim_briefing(self, home: str, session: str) -> bool:
        """True for the one process that may brief this session, False for all others.

        Processes started together on one session (``hermes -z --resume`` from a script,
        a gateway and a CLI) all read "not briefed" before any of them shows it; the
        claim is a file created with ``O_EXCL`` beside the session's record, which only
        one of them can create. A home where it cannot be created claims nothing: the
        session is then briefed as before (at worst twice), never not at all.
        """
        if not self._persist or not session:
            return True
        path = _file_for(home, session).with_suffix(CLAIM_SUFFIX)
        try:
            private_dir(path.parent)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            return False
        except OSError as exc:
            log.debug("briefing claim not made: %s", type(exc).__name__)
            return True
        os.close(fd)
        self._prune_once(home)
        return True

    def forget(self, home: str, session: str) -> None:
        """Drop the in-memory copy (tests; a process that must re-read the file)."""
        with self._lock:
            self._records.pop((home, session), None)


def prune(folder: Path, *, max_age_days: float = MAX_AGE_DAYS, max_files: int = MAX_FILES) -> int:
    """Remove records older than ``max_age_days`` and all but the newest ``max_files``,
    and the temporary files of writes a killed process never finished."""
    removed = sweep_temp_files(folder)
    try:
        entries = []
        for entry in os.scandir(folder):
            if entry.name.endswith((".json", CLAIM_SUFFIX)) and entry.is_file(
                follow_symlinks=False
            ):
                entries.append((entry.stat(follow_symlinks=False).st_mtime, entry.path))
    except OSError:
        return removed
    entries.sort(reverse=True)
    cutoff = time.time() - max_age_days * 86_400
    for index, (mtime, path) in enumerate(entries):
        if index >= max_files or mtime < cutoff:
            try:
                os.unlink(path)
                removed += 1
            except OSError:
                pass
    return removed


_shared_lock = threading.Lock()
_shared: ShownLog | None = None


def shared_log() -> ShownLog:
    """The process-wide log (made on first use)."""
    global _shared  # noqa: PLW0603 - one record cache per process, like the engine
    with _shared_lock:
        if _shared is None:
            _shared = ShownLog()
        return _shared


def reset_shared_log() -> None:
    """Forget every cached record (tests: the next read comes from disk)."""
    global _shared  # noqa: PLW0603
    with _shared_lock:
        _shared = None
