"""``hermes-gbrain status``: one screen about a profile — which layers are on, whether
memory worked in Hermes lately (and the fix when it did not), the digest, one search
timed now, and the write outbox; ``--last-turn`` adds what reached the model on the last
turn (titles and slugs only). ``doctor`` checks every link; this says what is there."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TextIO

from ..advice import explain
from ..connect import open_brain
from ..errors import GBrainError
from ..settings import Lookup, Settings, cli_lookup, flag_not_off, load_settings
from ..text import one_line
from ..urls import shown_url
from .report import (
    PASS,
    WARN,
    Report,
    add_health,
    add_last_turn,
    digest_age,
    ledger_status,
    outbox_counts,
    wiring,
)

__all__ = ["PROBE_QUERY", "run_status"]


def _mode(home: Path) -> str:
    from ..adapters.profile_config import HermesMissing  # noqa: PLC0415 - imports Hermes

    try:
        return wiring(home).mode or "off"
    except HermesMissing:
        return "unknown (Hermes is not importable here)"


def _layers(mode: str, lookup: Lookup, tools: str, writeback: str = "off") -> list[tuple[str, str]]:
    full = mode == "gbrain"
    digest = mode in ("gbrain", "hook") and flag_not_off(lookup("GBRAIN_DIGEST"))
    briefing = mode in ("gbrain", "hook") and flag_not_off(lookup("GBRAIN_BRIEFING"))
    pointers = mode in ("gbrain", "gbrain-pointer") or (
        mode == "hook" and flag_not_off(lookup("GBRAIN_HOOK_POINTERS"))
    )
    return [
        ("digest", "on" if digest else "off"),
        ("briefing", "on" if briefing else "off"),
        ("pointers", "on" if pointers else "off"),
        ("tools", tools if full else "off"),
        ("writeback", writeback if full else "off"),
    ]


def _digest_line(home: Path) -> str:
    found = digest_age(home)
    if found is None:
        return "none (build it with `hermes-gbrain digest`)"
    line, hours = found
    age = "unknown time" if hours is None else f"{hours:.1f} h ago"
    return f"built {age}: {one_line(line, 100)}"


def _outbox_line(home: Path) -> str:
    try:
        found = outbox_counts(home)
    except Exception as exc:  # a broken file is shown, not raised
        return f"unreadable ({type(exc).__name__})"
    return "empty" if found is None else ", ".join(f"{n} {k}" for k, n in found[0].items())


def _ledger_line(home: Path) -> str:
    """Hermes memory write-back: entries mirrored and operations still to send."""
    try:
        status = ledger_status(home)
    except Exception as exc:  # a broken file is shown, not raised
        return f"unreadable ({type(exc).__name__})"
    if status is None:
        return "nothing mirrored"
    return f"{status.mirrored} entries mirrored; {status.pending} pending, {status.failed} failed"


PROBE_QUERY = "hermes-gbrain probe"
"""What ``status`` and ``doctor`` time: a search that stands for no user question."""


def _search(settings: Settings, report: Report) -> None:
    started = time.perf_counter()
    try:
        brain = open_brain(settings, scope="read")
        rows = brain.search(PROBE_QUERY, limit=1, snippet_chars=1).rows
    except GBrainError as exc:
        advice = explain(exc, settings)
        report.add("search", WARN, f"failed just now: {advice.what}", advice.fix)
        return
    elapsed = (time.perf_counter() - started) * 1000
    rows_word = "row" if len(rows) == 1 else "rows"
    report.add("search", PASS, f"answered just now in {elapsed:.0f} ms ({len(rows)} {rows_word})")


def run_status(home: Path, out: TextIO, *, last_turn: bool = False) -> int:
    lookup = cli_lookup(home)
    settings = load_settings(lookup, hermes_home=home)
    mode = _mode(home)
    report = Report()
    report.add("profile", PASS, str(home))
    report.add("mode", PASS, mode)
    layers = _layers(mode, lookup, settings.tools, settings.writeback)
    report.add("layers", PASS, "  ".join(f"{name} {state}" for name, state in layers))
    report.add("brain", PASS, f"{shown_url(settings.mcp_url)} (auth {settings.auth_mode})")
    searched = Report()
    _search(settings, searched)
    add_health(home, report, answers_now=searched.checks[0].status == PASS)
    report.add("digest", PASS, _digest_line(home))
    report.checks += searched.checks
    report.add("outbox", PASS, _outbox_line(home))
    report.add("memory", PASS, _ledger_line(home))
    if last_turn:
        add_last_turn(home, report)
    report.print(out, verdict=False)
    return 0
