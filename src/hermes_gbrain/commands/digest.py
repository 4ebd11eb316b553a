"""``hermes-gbrain digest``: build the digest, schedule it, or send it to Mnemosyne.

Kept out of ``main.py`` so that the command's logic lives with the feature. A
progress bar goes to stderr only on a terminal, for brains larger than
``PROGRESS_MIN_PAGES``; ``--quiet`` (what the cron script passes) prints nothing
on success.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from ..recall.digest import MAX_MAX_CHARS, MIN_MAX_CHARS
from ..settings import cli_lookup, default_hermes_home, load_settings

__all__ = ["PROGRESS_MIN_PAGES", "TerminalProgress", "add_arguments", "run"]

PROGRESS_MIN_PAGES = 500
BAR_WIDTH = 30


class TerminalProgress:
    """A one-line ``\\r`` progress bar for large brains; silent for small ones."""

    def __init__(self, stream: TextIO, min_pages: int = PROGRESS_MIN_PAGES) -> None:
        self.stream = stream
        self.min_pages = min_pages
        self.shown = False

    def __call__(self, done: int, total: int | None) -> None:
        if (total or done) < self.min_pages:
            return
        self.shown = True
        if total:
            filled = min(BAR_WIDTH, BAR_WIDTH * done // max(1, total))
            bar = "#" * filled + "-" * (BAR_WIDTH - filled)
            self.stream.write(f"\rlisting pages [{bar}] {done}/{total}")
        else:
            self.stream.write(f"\rlisting pages: {done}")
        self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


def _max_chars(value: str) -> int:
    """``--max-chars``: refused outside the range rather than silently clamped."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
    if not MIN_MAX_CHARS <= number <= MAX_MAX_CHARS:
        raise argparse.ArgumentTypeError(
            f"must be from {MIN_MAX_CHARS} to {MAX_MAX_CHARS}, not {number}"
        )
    return number


def add_arguments(cmd: argparse.ArgumentParser) -> None:
    """The ``digest`` command's flags."""
    cmd.add_argument(
        "--hermes-home", help="profile directory (default $HERMES_HOME, else ~/.hermes)"
    )
    cmd.add_argument(
        "--max-chars",
        type=_max_chars,
        help=f"character budget of the line, {MIN_MAX_CHARS}-{MAX_MAX_CHARS} "
        "(default GBRAIN_DIGEST_MAX_CHARS, else 400)",
    )
    cmd.add_argument(
        "--install-cron", action="store_true", help="refresh it from a Hermes cron job"
    )
    cmd.add_argument("--every", help="cron interval with --install-cron (default 6h)")
    cmd.add_argument("--remove-cron", action="store_true", help="remove that cron job")
    cmd.add_argument(
        "--to",
        choices=("file", "mnemosyne"),
        default="file",
        help="file: $HERMES_HOME/gbrain/digest.json (default); mnemosyne: that file and "
        "one Mnemosyne entry in the database the profile's Mnemosyne provider reads",
    )
    cmd.add_argument(
        "--mnemosyne-db",
        metavar="PATH",
        help="with --to mnemosyne: this database instead of the one worked out for the profile",
    )
    cmd.add_argument("--quiet", action="store_true", help="print nothing on success (cron)")


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run the command; errors are ``GBrainError`` (the CLI prints them in one line)."""
    out = out or sys.stdout
    err = err or sys.stderr
    home = Path(args.hermes_home).expanduser() if args.hermes_home else default_hermes_home()
    if args.install_cron and args.remove_cron:
        print("hermes-gbrain digest: choose --install-cron or --remove-cron", file=err)
        return 2
    if args.mnemosyne_db and (args.to != "mnemosyne" or args.install_cron or args.remove_cron):
        print("hermes-gbrain digest: --mnemosyne-db goes with --to mnemosyne, not cron", file=err)
        return 2
    if args.every is not None and not args.install_cron:
        print("hermes-gbrain digest: --every only applies with --install-cron", file=err)
        return 2
    if args.install_cron or args.remove_cron:
        from .cron import install_cron, remove_cron  # noqa: PLC0415 - keep --help fast

        if args.remove_cron:
            result = remove_cron(home)
            if not args.quiet:
                if result.removed or result.script_removed:
                    print(
                        f"removed {result.removed} cron job(s)"
                        + (f" and scripts/{result.script.name}" if result.script_removed else ""),
                        file=out,
                    )
                else:
                    print("no digest cron job or script was installed: nothing removed", file=out)
            return 0
        if args.to == "mnemosyne":  # the job would fail on every run: say so now
            from .mnemosyne_sink import plan_mnemosyne  # noqa: PLC0415

            plan_mnemosyne(home, lookup=cli_lookup(home))
        result = install_cron(home, args.every or "6h", to=args.to)
        if not args.quiet:
            print(
                f"cron job {result.job_id} ({result.schedule}, no agent) runs "
                f"scripts/{result.script.name}; the gateway ticks cron every minute "
                "(or run `hermes cron tick`)",
                file=out,
            )
        return 0

    from ..connect import open_brain  # noqa: PLC0415
    from ..recall.digest import (  # noqa: PLC0415
        DIGEST_SCOPE,
        build_digest,
        load_digest_config,
        write_digest,
    )

    lookup = cli_lookup(home)
    settings = load_settings(lookup, hermes_home=home)
    plan = None
    if args.to == "mnemosyne":  # before any GBrain call: a bad Mnemosyne setup fails fast
        from .mnemosyne_sink import plan_mnemosyne, store_in_mnemosyne  # noqa: PLC0415

        plan = plan_mnemosyne(home, db_path=args.mnemosyne_db, lookup=lookup)
    max_chars = args.max_chars or load_digest_config(lookup).max_chars
    interactive = not args.quiet and err.isatty()
    progress = TerminalProgress(err) if interactive else None
    try:
        brain = open_brain(settings, scope=DIGEST_SCOPE)
        digest = build_digest(brain, max_chars=max_chars, progress=progress, hermes_home=home)
    finally:
        if progress is not None:
            progress.close()
    path = write_digest(home, digest)  # the provider and the hook read this file
    if plan is not None:
        stored = store_in_mnemosyne(home, digest.line, plan=plan)
        if not args.quiet:
            state = "refreshed" if stored.replaced else "stored"
            print(
                f"{digest.line}\nwritten to {path}\nMnemosyne entry {stored.memory_id} "
                f"{state} in {stored.db_path} ({stored.how})",
                file=out,
            )
        return 0
    if not args.quiet:
        print(f"{digest.line}\nwritten to {path}", file=out)
    return 0
