"""Targets beside figures: every benchmark reports met/missed, and ``--check`` fails a miss.

A benchmark calls ``targets.record(name, figure, target, ok)`` for each figure it
holds a target for; the line prints at once, and ``targets.finish(check)`` prints the
summary and returns the exit status (non-zero on a miss only with ``--check``, so a
plain run on a busy laptop still prints everything).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field


def add_check_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--check", action="store_true", help="exit non-zero when any target is missed"
    )


@dataclass
class Targets:
    """The figures of one benchmark run that have a target."""

    results: list[tuple[str, bool]] = field(default_factory=list)

    def record(self, name: str, figure: str, target: str, ok: bool) -> bool:
        self.results.append((name, ok))
        print(f"  [{'met' if ok else 'MISSED'}] {name}: {figure}   (target {target})")
        return ok

    def finish(self, check: bool) -> int:
        missed = [name for name, ok in self.results if not ok]
        met = len(self.results) - len(missed)
        print(
            f"targets: {met}/{len(self.results)} met"
            + (f"; missed: {', '.join(missed)}" if missed else "")
        )
        return 1 if check and missed else 0
