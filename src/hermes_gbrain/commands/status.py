"""``hermes-gbrain status``: one screen about a profile — which layers are on, the
digest, one search timed now, and the write outbox. ``doctor`` says what is wrong;
this says what is there."""

from __future__ import annotations

import dataclasses
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from ..connect import open_brain
from ..errors import GBrainError
from ..files import data_dir
from ..recall.digest import read_digest
from ..settings import Lookup, cli_lookup, flag_not_off, load_settings
from ..text import one_line
from ..toolbridge.outbox import DB_NAME, Outbox
from ..urls import shown_url
from ..writeback.ledger import DB_NAME as LEDGER_NAME
from ..writeback.ledger import Ledger
from .install import HOOK_NAME

__all__ = ["run_status"]


def _mode(home: Path) -> str:
    from ..adapters.profile_config import (  # noqa: PLC0415 - imports Hermes
        HermesMissing,
        enabled_plugins,
        memory_provider,
    )

    try:
        provider = memory_provider(home)
        hook = HOOK_NAME in enabled_plugins(home)
    except HermesMissing:
        return "unknown (Hermes is not importable here)"
    if provider in ("gbrain", "gbrain-pointer"):
        return provider
    return "hook" if hook else "off"


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
    data = read_digest(home)
    if data is None:
        return "none (build it with `hermes-gbrain digest`)"
    try:
        built = datetime.fromisoformat(str(data["built_at"]))
        hours = (datetime.now(UTC) - built).total_seconds() / 3600
        age = f"{hours:.1f} h ago"
    except (TypeError, ValueError):
        age = "unknown time"
    return f"built {age}: {one_line(data['line'], 100)}"


def _outbox_line(home: Path) -> str:
    path = data_dir(home) / DB_NAME
    if not path.exists():
        return "empty"
    try:
        outbox = Outbox(path)
    except Exception as exc:  # a broken file is shown, not raised
        return f"unreadable ({type(exc).__name__})"
    try:
        status = outbox.status()
    finally:
        outbox.close()
    counts = [
        f"{getattr(status, f.name)} {f.name}"
        for f in dataclasses.fields(status)
        if isinstance(getattr(status, f.name), int)
    ]
    return ", ".join(counts)


def _ledger_line(home: Path) -> str:
    """Hermes memory write-back: entries mirrored and operations still to send."""
    path = data_dir(home) / LEDGER_NAME
    if not path.exists():
        return "nothing mirrored"
    try:
        ledger = Ledger(path)
    except Exception as exc:  # a broken file is shown, not raised
        return f"unreadable ({type(exc).__name__})"
    try:
        status = ledger.status()
    finally:
        ledger.close()
    return f"{status.mirrored} entries mirrored; {status.pending} pending, {status.failed} failed"


def run_status(home: Path, out: TextIO) -> int:
    lookup = cli_lookup(home)
    settings = load_settings(lookup, hermes_home=home)
    mode = _mode(home)
    lines = [f"profile   {home}", f"mode      {mode}"]
    lines.append(
        "layers    "
        + "  ".join(
            f"{name} {state}"
            for name, state in _layers(mode, lookup, settings.tools, settings.writeback)
        )
    )
    lines.append(f"brain     {shown_url(settings.mcp_url)} (auth {settings.auth_mode})")
    lines.append(f"digest    {_digest_line(home)}")
    started = time.perf_counter()
    try:
        rows = open_brain(settings, scope="read").search("status", limit=1, snippet_chars=1).rows
        elapsed = (time.perf_counter() - started) * 1000
        lines.append(f"search    answered just now in {elapsed:.0f} ms ({len(rows)} row)")
    except GBrainError as exc:
        lines.append(f"search    failed just now: {exc} (run `hermes-gbrain doctor`)")
    lines.append(f"outbox    {_outbox_line(home)}")
    lines.append(f"memory    {_ledger_line(home)}")
    out.write("\n".join(lines) + "\n")
    return 0
