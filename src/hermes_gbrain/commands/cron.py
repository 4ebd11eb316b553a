"""Schedule the digest refresh as a Hermes cron job (``hermes-gbrain digest --install-cron``).

Hermes cron agents run with ``skip_memory=True``, so a memory provider is never
active in a cron job: the refresh is a **no-agent script** (``no_agent=True``) that
calls this package directly. The script lives in ``$HERMES_HOME/scripts/`` (Hermes
refuses scripts anywhere else) and finds its profile from its own location, so no
path of the machine is written into it. It prints nothing on success (Hermes then
delivers nothing) and one line on stderr with a non-zero exit on failure, which
leaves the previous digest in place.

Hermes is imported here only, lazily, inside the functions.
"""

from __future__ import annotations

import importlib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import __version__
from ..errors import ConfigError
from ..files import write_atomic

__all__ = [
    "JOB_NAME",
    "SCRIPT_NAME",
    "CronResult",
    "cron_installed",
    "install_cron",
    "remove_cron",
    "script_text",
]

JOB_NAME = "hermes-gbrain digest"
SCRIPT_NAME = "hermes_gbrain_digest.py"
_EVERY = re.compile(r"[1-9][0-9]{0,3}[mhd]")


def script_text(to: str = "file") -> str:
    """The cron script: the profile is the folder above ``scripts/``; ``to`` is
    ``file`` or ``mnemosyne`` (``hermes-gbrain digest --to``)."""
    if to not in ("file", "mnemosyne"):
        raise ConfigError(f"--to must be file or mnemosyne, not {to!r}")
    extra = ', "--to", "mnemosyne"' if to == "mnemosyne" else ""
    return (
        f'"""Refresh the GBrain digest for this Hermes profile (hermes-gbrain {__version__}).\n\n'
        "Written by `hermes-gbrain digest --install-cron`; removed by `--remove-cron`.\n"
        'Quiet on success; one line on stderr and a non-zero exit on failure."""\n\n'
        "import sys\n"
        "from pathlib import Path\n\n"
        "from hermes_gbrain.commands.main import main\n\n"
        "home = Path(__file__).resolve().parent.parent\n"
        f'sys.exit(main(["digest", "--quiet", "--hermes-home", str(home){extra}]))\n'
    )


@dataclass(frozen=True, slots=True)
class CronResult:
    """What an install or removal did, for the CLI to print."""

    script: Path
    job_id: str | None
    removed: int
    schedule: str = ""
    script_removed: bool = False


class _Store:
    """Route Hermes' cron storage to one profile home for the duration of a block."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self._cm: Any = None
        self._token: Any = None

    def __enter__(self) -> Any:
        # Hermes is optional for the rest of the package, and ships no type information.
        jobs: Any = importlib.import_module("cron.jobs")

        if hasattr(jobs, "use_cron_store"):
            self._cm = jobs.use_cron_store(self.home)
            self._cm.__enter__()
        else:  # older Hermes: the profile override
            from hermes_constants import set_hermes_home_override  # noqa: PLC0415

            self._token = set_hermes_home_override(str(self.home))
        return jobs

    def __exit__(self, *exc: object) -> None:
        if self._cm is not None:
            self._cm.__exit__(None, None, None)
        elif self._token is not None:
            from hermes_constants import reset_hermes_home_override  # noqa: PLC0415

            reset_hermes_home_override(self._token)


def _ours(job: dict[str, Any]) -> bool:
    return job.get("name") == JOB_NAME and str(job.get("script") or "").endswith(SCRIPT_NAME)


def _remove_jobs(jobs: Any) -> int:
    removed = 0
    for job in jobs.list_jobs(include_disabled=True):
        if _ours(job) and jobs.remove_job(job["id"]):
            removed += 1
    return removed


def install_cron(
    hermes_home: str | os.PathLike[str], every: str = "6h", *, to: str = "file"
) -> CronResult:
    """Write the script and (re)register the job; idempotent (one job per profile)."""
    if not _EVERY.fullmatch(every):
        raise ConfigError(f"--every must look like 30m, 6h or 1d, not {every!r}")
    home = Path(hermes_home).expanduser()
    scripts = home / "scripts"
    scripts.mkdir(parents=True, exist_ok=True)
    script = scripts / SCRIPT_NAME
    write_atomic(script, script_text(to), mode=0o644)
    schedule = f"every {every}"
    with _Store(home) as jobs:
        removed = _remove_jobs(jobs)
        job = jobs.create_job(
            prompt=None,
            schedule=schedule,
            name=JOB_NAME,
            script=SCRIPT_NAME,
            no_agent=True,
            deliver="local",
        )
    return CronResult(script, str(job.get("id")), removed, schedule)


def remove_cron(hermes_home: str | os.PathLike[str]) -> CronResult:
    """Remove our job(s) and the script; harmless when nothing is installed."""
    home = Path(hermes_home).expanduser()
    script = home / "scripts" / SCRIPT_NAME
    with _Store(home) as jobs:
        removed = _remove_jobs(jobs)
    existed = script.is_file()
    script.unlink(missing_ok=True)
    return CronResult(script, None, removed, script_removed=existed)


def cron_installed(hermes_home: str | os.PathLike[str]) -> tuple[bool, bool]:
    """(our job is registered, our script is on disk) for ``doctor`` and ``status``."""
    home = Path(hermes_home).expanduser()
    script = (home / "scripts" / SCRIPT_NAME).is_file()
    if not (home / "cron" / "jobs.json").is_file():
        return False, script  # no job store yet: Hermes' would create its folders
    with _Store(home) as jobs:
        job = any(_ours(j) for j in jobs.list_jobs(include_disabled=True))
    return job, script
