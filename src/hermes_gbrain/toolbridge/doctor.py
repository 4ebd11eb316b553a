"""``hermes-gbrain doctor``: is this profile's brain reachable, and what may it do?

Checks in order, each one line (``ok``, ``warn`` or ``FAIL``): configuration,
connectivity and credential (``tools/list``), identity and scopes (``whoami``), the
discovery cache (refreshed here, so the next Hermes session offers the right
schemas), the write outbox (queued, in flight, failed, with recent failures), and
search degradation (keyword-only when the server has no embedding provider).
Exit status is non-zero when any check fails. Never prints a secret or page text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from ..api import GBrain
from ..connect import open_brain
from ..errors import GBrainError
from ..files import data_dir
from ..settings import Settings, read_legacy_json
from .discovery import CACHE_NAME, discover, save_discovery
from .outbox import DB_NAME, Outbox

__all__ = ["Check", "Report", "run_doctor"]


@dataclass(frozen=True, slots=True)
class Check:
    """One line of the report."""

    name: str
    status: str  # ok | warn | FAIL
    detail: str


@dataclass
class Report:
    checks: list[Check] = field(default_factory=list)

    def add(self, name: str, status: str, detail: str) -> None:
        self.checks.append(Check(name, status, detail))

    @property
    def failed(self) -> bool:
        return any(c.status == "FAIL" for c in self.checks)

    def print(self, out: TextIO) -> None:
        for check in self.checks:
            out.write(f"{check.status:>4}  {check.name:<11} {check.detail}\n")
        out.write("doctor: problems found\n" if self.failed else "doctor: all good\n")


def _config(settings: Settings, report: Report) -> bool:
    _, legacy_problem = read_legacy_json(settings.hermes_home)
    if legacy_problem:
        report.add("config", "warn", f"{legacy_problem}; ignored")
    problem = settings.problem()
    if problem:
        report.add("config", "FAIL", problem)
        return False
    report.add(
        "config",
        "ok",
        f"{settings.mcp_url} (auth {settings.auth_mode}; tools {settings.tools}, "
        f"expose {settings.tools_expose})",
    )
    return True


def _outbox(settings: Settings, report: Report) -> None:
    path = data_dir(settings.hermes_home) / DB_NAME
    if not path.exists():
        report.add("outbox", "ok", "no queued writes (no outbox yet)")
        return
    try:
        outbox = Outbox(path)
    except Exception as exc:
        report.add("outbox", "FAIL", f"cannot open the write outbox ({type(exc).__name__})")
        return
    try:
        status = outbox.status()
    finally:
        outbox.close()
    line = (
        f"{status.pending} queued, {status.inflight} in flight, "
        f"{status.delivered} delivered, {status.failed} failed, "
        f"{status.superseded} superseded"
    )
    report.add("outbox", "warn" if status.failed or status.superseded else "ok", line)
    for op_id, slug, error in status.recent_failures:
        report.add("outbox", "warn", f"failed {op_id} {slug}: {error}")
    for op_id, slug, _ in status.recent_superseded:
        report.add(
            "outbox",
            "warn",
            f"superseded {op_id} {slug}: not written, the page changed after it was queued "
            "(the newer version was kept)",
        )


def _degradation(brain: GBrain, report: Report) -> None:
    try:
        result = brain.search("gbrain doctor probe", limit=1, snippet_chars=1)
    except GBrainError as exc:
        report.add("search", "FAIL", str(exc))
        return
    stages = [s for s in result.degraded if s != "keyword_zero"]
    if stages:
        report.add("search", "warn", "degraded: " + ", ".join(stages[:5]))
    else:
        report.add("search", "ok", "no degradation reported")


def run_doctor(
    settings: Settings,
    out: TextIO,
    *,
    brain_factory: Callable[[Settings], GBrain] | None = None,
) -> int:
    """Run every check, print the report, return the exit status (0 = all good)."""
    report = Report()
    if not _config(settings, report):
        _outbox(settings, report)
        report.print(out)
        return 1
    write = settings.tools == "write"
    try:
        brain = (
            brain_factory or (lambda s: open_brain(s, scope="read write" if write else "read"))
        )(settings)
        found = discover(brain, settings)
    except GBrainError as exc:
        report.add("connect", "FAIL", str(exc))
        _outbox(settings, report)
        report.print(out)
        return 1
    report.add("connect", "ok", f"{len(found.tools)} tools offered to this credential")
    scopes = " ".join(found.scopes) or "none"
    if write and not found.can_write:
        report.add("scopes", "FAIL", f"{scopes}: GBRAIN_TOOLS=write needs a write scope")
    else:
        report.add("scopes", "ok", scopes)
    try:
        path = save_discovery(settings.hermes_home, found)
        report.add("discovery", "ok", f"refreshed {path.parent.name}/{CACHE_NAME}")
    except OSError as exc:
        report.add("discovery", "FAIL", f"cannot write the cache ({type(exc).__name__})")
    _outbox(settings, report)
    if found.catalog().has("search"):
        _degradation(brain, report)
    report.print(out)
    return 1 if report.failed else 0
