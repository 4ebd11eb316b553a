"""A Python program run in a process of its own, talked to over its standard streams.

Tests that need a second process (a cron job, another profile's turn racing this one) run
a short program with ``python -c``: its stdin to tell it when to go, its stdout and stderr
to read what it did.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Collection, Mapping


def python_child(
    code: str, env: Mapping[str, str], *, pass_fds: Collection[int] = ()
) -> subprocess.Popen[str]:
    """``python -c code`` with text pipes on stdin, stdout and stderr; ``pass_fds`` stay
    open in the child."""
    return subprocess.Popen(
        [sys.executable, "-c", code],
        env=dict(env),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        pass_fds=tuple(pass_fds),
    )
