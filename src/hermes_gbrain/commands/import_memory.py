"""``hermes-gbrain import-memory``: bring a profile's existing Hermes memory into GBrain once.

Reads ``MEMORY.md`` and ``USER.md`` under ``$HERMES_HOME/memories/`` exactly as Hermes'
memory tool does (``writeback.entries``) and queues one ``remember`` per entry in the same
ledger the provider's write-back uses, so an entry is never remembered twice: entries the
ledger already maps are skipped, and before each send the worker looks for a fact this
profile stored earlier for the same text (``writeback.mirror``). Writes that cannot be
sent now stay queued; the next run, or the next Hermes session with write-back on, sends
them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from ..advice import command
from ..connect import open_brain
from ..errors import ConfigError
from ..files import data_dir
from ..settings import Settings, cli_lookup, default_hermes_home, load_settings
from ..urls import shown_url
from ..writeback.entries import TARGET_FILES, read_entries
from ..writeback.ledger import DB_NAME, Ledger
from ..writeback.mirror import Mirror, MirrorPolicy, kind_for, profile_label, provenance

__all__ = ["SEND_TIMEOUT_S", "add_arguments", "run", "run_import"]

SEND_TIMEOUT_S = 60.0
"""How long one run keeps sending before it leaves the rest queued."""
_HOME = "profile directory (default $HERMES_HOME, else ~/.hermes)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hermes-home", help=_HOME)
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="show what would be sent; send nothing and write nothing",
    )


def run(args: argparse.Namespace) -> int:
    home = Path(args.hermes_home).expanduser() if args.hermes_home else default_hermes_home()
    settings = load_settings(cli_lookup(home), hermes_home=home)
    return run_import(settings, dry_run=bool(args.dry_run), out=sys.stdout)


def run_import(
    settings: Settings,
    *,
    dry_run: bool = False,
    out: TextIO = sys.stdout,
    timeout_s: float = SEND_TIMEOUT_S,
) -> int:
    """Queue and send every entry not yet mirrored; 0 when nothing is left unsent."""
    problem = settings.problem()
    if problem:
        raise ConfigError(problem)
    home = settings.hermes_home
    entries = {target: read_entries(home, target) for target in TARGET_FILES}
    profile = profile_label(home)
    path = data_dir(home) / DB_NAME
    if dry_run:
        known: dict[str, set[str]] = {t: set() for t in TARGET_FILES}
        if path.exists():
            ledger = Ledger(path)
            try:
                known = {t: ledger.live_texts(settings.mcp_url, t) for t in TARGET_FILES}
            finally:
                ledger.close()
        for target, texts in entries.items():
            new = [t for t in texts if t not in known[target]]
            out.write(
                f"{TARGET_FILES[target]}: {len(texts)} entries, {len(new)} to remember "
                f"(kind {kind_for(target)}), {len(texts) - len(new)} already mirrored\n"
            )
        out.write("dry run: nothing sent\n")
        return 0
    ledger = Ledger(path)
    queued: dict[str, list[str]] = {t: [] for t in TARGET_FILES}
    for target, texts in entries.items():

        def stamp(op_id: str, target: str = target) -> str:
            return provenance(target, profile, "import", op_id)

        for text in texts:
            op_id = ledger.import_entry(
                settings.mcp_url,
                target,
                text,
                provenance=stamp,
                kind=kind_for(target),
                entity=settings.writeback_user_entity if target == "user" else None,
            )
            if op_id is not None:
                queued[target].append(op_id)
            else:  # queued by an earlier run or session, not sent yet: sent now, counted here
                queued[target] += ledger.queued_for(settings.mcp_url, target, text)[:1]
    policy = MirrorPolicy(endpoint=settings.mcp_url, profile=profile, session="import")
    mirror = Mirror(ledger, policy, lambda: open_brain(settings, scope="read write"))
    try:
        mirror.start()  # also sends anything an earlier run or session left queued
        mirror.drain(timeout_s)
        states = ledger.op_states([op for ops in queued.values() for op in ops])
    finally:
        mirror.close()
    unsent = 0
    for target, texts in entries.items():
        ops = queued[target]
        done = sum(1 for op in ops if states.get(op, ("",))[0] == "delivered")
        left = len(ops) - done
        unsent += left
        line = (
            f"{TARGET_FILES[target]}: {len(texts)} entries, {done} remembered, "
            f"{len(texts) - len(ops)} already mirrored"
        )
        if left:
            reasons = {states[op][1] for op in ops if op in states and states[op][0] != "delivered"}
            why = "; ".join(sorted(r for r in reasons if r)) or "not sent in time"
            line += f", {left} not sent ({why}; the next run sends them again)"
            if any(word in why for word in ("scope", "read-only", "fact tools")):
                fix = command(home, "grant-help")
                line += (
                    '; fix: use a client with --scopes "read write" in '
                    f"{Path(home) / '.env'} ({fix} shows how)"
                )
        out.write(line + "\n")
    if unsent:
        out.write(
            f"not sent to GBrain at {shown_url(settings.mcp_url)}: "
            f"{command(home, 'doctor')} shows why, with the fix\n"
        )
    if settings.writeback != "memory":
        out.write(
            "note: GBRAIN_WRITEBACK is not 'memory', so later memory-tool writes are not mirrored\n"
        )
    return 0 if unsent == 0 else 1
