"""The one report shape ``doctor`` and ``status`` share: named lines, each with a
status (``pass``, ``warn``, ``fail``), a detail and, short of a pass, the fix.

``doctor`` prints the status column and ends with its verdict; ``status`` prints the
same lines without it. Findings both commands show (how the last searches went, what
reached the model on the last turn) are built here once.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from ..recall import health

__all__ = ["FAIL", "PASS", "WARN", "Check", "Report", "add_health", "add_last_turn"]

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
