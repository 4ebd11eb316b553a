"""The one report shape ``doctor`` and ``status`` share: named lines, each with a
status (``pass``, ``warn``, ``fail``), a detail and, short of a pass, the fix.

``doctor`` prints the status column and ends with its verdict; ``status`` prints the
same lines without it. Findings both commands show (how the last searches went, what
reached the model on the last turn) are built here once.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from ..files import data_dir
from ..recall import health
from ..recall.digest import read_digest
from ..toolbridge.outbox import DB_NAME, Outbox, OutboxStatus
from ..writeback.ledger import DB_NAME as LEDGER_NAME
from ..writeback.ledger import Ledger, LedgerStatus
from .install import HOOK_NAME, NAMES

__all__ = [
    "FAIL",
    "PASS",
    "WARN",
    "Check",
    "Report",
    "Wiring",
    "add_health",
    "add_last_turn",
    "digest_age",
    "ledger_status",
    "outbox_counts",
    "wiring",
]

PASS, WARN, FAIL = "pass", "warn", "fail"
_NAME_WIDTH = 9


@dataclass(frozen=True, slots=True)
class Check:
    """One line of the report; ``fix`` says what to do when it is not a pass."""

    name: str
    status: str
    detail: str
    fix: str = ""


@dataclass
class Report:
    checks: list[Check] = dataclasses.field(default_factory=list)

    def add(self, name: str, status: str, detail: str, fix: str = "") -> None:
        self.checks.append(Check(name, status, detail, fix if status != PASS else ""))

    def has(self, name: str) -> bool:
        return any(c.name == name for c in self.checks)

    @property
    def failed(self) -> bool:
        return any(c.status == FAIL for c in self.checks)

    def to_json(self) -> dict[str, Any]:
        return {"ok": not self.failed, "checks": [dataclasses.asdict(c) for c in self.checks]}

    def print(self, out: TextIO, *, verdict: bool = True) -> None:
        """``doctor``'s form (status column and verdict), or with ``verdict=False``
        ``status``'s (names and details only; fixes still shown)."""
        indent = 15 if verdict else _NAME_WIDTH + 1
        for check in self.checks:
            if verdict:
                out.write(f"{check.status:>4}  {check.name:<{_NAME_WIDTH}} {check.detail}\n")
            else:
                out.write(f"{check.name:<{_NAME_WIDTH}} {check.detail}\n")
            if check.fix:
                out.write(f"{'':>{indent}} fix: {check.fix}\n")
        if verdict:
            out.write("doctor: problems found\n" if self.failed else "doctor: all good\n")


def add_health(home: Path, report: Report, *, answers_now: bool = False) -> None:
    """``recall``: how the provider's last searches went (``recall.health``);
    ``answers_now`` when this command's own search just worked."""
    state = health.read_health(home)
    if state is None:
        report.add("recall", PASS, "no search recorded by Hermes yet")
    elif state.failing:
        detail = f"OFF in Hermes since a search failed {health.ago(state.failed_at)}: {state.what}"
        if answers_now:
            detail += " (a search from here answers now: the next Hermes turn should work)"
        report.add("recall", WARN, detail, state.fix)
    else:
        line = f"working in Hermes: last search answered {health.ago(state.succeeded_at)}"
        if state.failed_at is not None:
            line += f"; last failure {health.ago(state.failed_at)}: {state.what}"
        report.add("recall", PASS, line)


def add_last_turn(home: Path, report: Report) -> None:
    """``turn``: what reached the model on the last turn: titles and slugs, never text."""
    turn = health.read_last_turn(home)
    if turn is None:
        report.add("turn", PASS, "no turn recorded yet (run Hermes with the gbrain provider)")
        return
    head = f"last turn {health.ago(turn.at)}, session {turn.session or '?'}"
    if not (turn.briefing or turn.pointers or turn.facts):
        report.add("turn", PASS, f"{head}: nothing reached the model ({turn.note or 'empty'})")
        return
    report.add(
        "turn",
        PASS,
        f"{head}: {len(turn.briefing)} briefing lines, {len(turn.pointers)} pointers, "
        f"{turn.facts} facts",
    )
    for source, slug, title in turn.briefing:
        report.add("briefing", PASS, f"[{source}:{slug}] {title}")
    for source, slug, title in turn.pointers:
        report.add("pointer", PASS, f"[{source}:{slug}] {title}")


# -- facts about the profile both commands read ---------------------------------------------


@dataclass(frozen=True, slots=True)
class Wiring:
    """How Hermes reaches GBrain: ``mode`` is ``gbrain``/``gbrain-pointer`` (provider),
    ``hook``, or ``""`` (not wired); ``provider`` is ``memory.provider`` as set."""

    mode: str
    provider: str


def wiring(home: Path) -> Wiring:
    """Read through Hermes' config code (raises ``HermesMissing`` without Hermes)."""
    from ..adapters.profile_config import (  # noqa: PLC0415 - imports Hermes
        enabled_plugins,
        memory_provider,
    )

    provider = memory_provider(home)
    if provider in NAMES and provider != HOOK_NAME:
        return Wiring(provider, provider)
    return Wiring("hook" if HOOK_NAME in enabled_plugins(home) else "", provider)


def digest_age(home: Path) -> tuple[str, float | None] | None:
    """The digest line and its age in hours (None when the build time is unreadable);
    None when there is no digest."""
    data = read_digest(home)
    if data is None:
        return None
    try:
        built = datetime.fromisoformat(str(data["built_at"]))
        hours: float | None = (datetime.now(UTC) - built).total_seconds() / 3600
    except (TypeError, ValueError):
        hours = None
    return str(data["line"]), hours


def outbox_counts(home: Path) -> tuple[dict[str, int], OutboxStatus] | None:
    """Every count the write outbox reports (a new state shows up on its own), or None
    when there is no outbox; a file that cannot be opened raises."""
    path = data_dir(home) / DB_NAME
    if not path.exists():
        return None
    outbox = Outbox(path)
    try:
        status = outbox.status()
    finally:
        outbox.close()
    counts = {
        f.name: getattr(status, f.name)
        for f in dataclasses.fields(status)
        if isinstance(getattr(status, f.name), int)
    }
    return counts, status


def ledger_status(home: Path) -> LedgerStatus | None:
    """The write-back ledger's counts, or None when nothing was mirrored; raises when the
    file cannot be opened."""
    path = data_dir(home) / LEDGER_NAME
    if not path.exists():
        return None
    ledger = Ledger(path)
    try:
        return ledger.status()
    finally:
        ledger.close()
