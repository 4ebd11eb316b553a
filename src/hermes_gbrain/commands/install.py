"""Writes (or removes) the plugin directory Hermes 0.19.0 discovers.

0.19.0 finds user memory providers only as ``$HERMES_HOME/plugins/<name>/`` whose
``__init__.py`` mentions ``MemoryProvider`` in its first 8 KiB, and it executes every
top-level ``.py`` there. So the shim is two files, all code stays in this package,
and a marker file records what we wrote: re-running is harmless, and ``--uninstall``
removes only our files (and the directory only if nothing else is left in it).
Newer Hermes also finds the ``hermes_agent.memory_providers`` entry points.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .. import __version__
from ..errors import ConfigError
from ..files import write_atomic

__all__ = ["HOOK_NAME", "MARKER", "NAMES", "InstallResult", "install", "plugin_files", "uninstall"]

MARKER = ".hermes-gbrain-install"
HOOK_NAME = "gbrain-hook"
"""A general plugin (pre_llm_call hook), enabled with ``hermes plugins enable gbrain-hook``."""
NAMES = {
    "gbrain": (
        "GBrainMemoryProvider",
        "register",
        "GBrain long-term memory: brain digest, first-turn briefing, pointers and gbrain_* tools",
    ),
    "gbrain-pointer": (
        "GBrainPointerProvider",
        "register_pointer",
        "GBrain pointers only (read-only preset)",
    ),
    HOOK_NAME: ("", "register", "GBrain first-turn briefing beside another memory provider"),
}
_FILES = ("plugin.yaml", "__init__.py", MARKER)


@dataclass(frozen=True, slots=True)
class InstallResult:
    """What a run did, for the CLI to print."""

    directory: Path
    changed: tuple[str, ...]


def _hook_files() -> dict[str, str]:
    """The general-plugin shim: an explicit ``kind`` and no provider class name, so
    Hermes' memory discovery ignores it and the plugin manager loads it when enabled."""
    description = NAMES[HOOK_NAME][2]
    manifest = (
        f"name: {HOOK_NAME}\n"
        f"version: {__version__}\n"
        f'description: "{description}"\n'
        "author: hermes-gbrain\n"
        "kind: standalone\n"
        "provides_hooks:\n"
        "  - pre_llm_call\n"
    )
    init = (
        f'"""Hermes general plugin {HOOK_NAME!r}: a shim written by `hermes-gbrain install`.\n\n'
        "All code and state live in the hermes-gbrain package. Remove with\n"
        f'`hermes-gbrain install --name {HOOK_NAME} --uninstall`."""\n\n'
        "from hermes_gbrain.adapters.hook import register as register\n\n"
        '__all__ = ["register"]\n'
    )
    return {"plugin.yaml": manifest, "__init__.py": init, MARKER: f"{HOOK_NAME} {__version__}\n"}


def plugin_files(name: str) -> dict[str, str]:
    """The files of the plugin folder ``name``, by file name (what ``install`` writes)."""
    return _files(name)


def _files(name: str) -> dict[str, str]:
    if name == HOOK_NAME:
        return _hook_files()
    cls, hook, description = NAMES[name]
    manifest = (
        f"name: {name}\n"
        f"version: {__version__}\n"
        f'description: "{description}"\n'
        "author: hermes-gbrain\n"
        # A bare name: Hermes 0.19.0 probes `import hermes_gbrain` from it and does not
        # strip version specifiers (`hermes-gbrain>=0.1` would always look missing).
        "pip_dependencies:\n"
        "  - hermes-gbrain\n"
    )
    init = (
        f'"""Hermes memory provider {name!r}: a shim written by `hermes-gbrain install`.\n\n'
        "All code lives in the hermes-gbrain package; this file only hands Hermes the\n"
        f"MemoryProvider class ({cls}). Remove with `hermes-gbrain install --name {name} "
        '--uninstall`.\n"""\n\n'
        f"from hermes_gbrain.adapters.provider import {cls} as {cls}\n"
        f"from hermes_gbrain.adapters.provider import {hook} as register\n\n"
        f'__all__ = ["{cls}", "register"]\n'
    )
    return {"plugin.yaml": manifest, "__init__.py": init, MARKER: f"{name} {__version__}\n"}


def _directory(name: str, hermes_home: str | os.PathLike[str]) -> Path:
    if name not in NAMES:
        raise ConfigError(f"unknown provider name {name!r} (choose from {', '.join(NAMES)})")
    return Path(hermes_home).expanduser() / "plugins" / name


def install(name: str, hermes_home: str | os.PathLike[str]) -> InstallResult:
    """Write the shim; idempotent. Refuses to overwrite a directory we did not write."""
    directory = _directory(name, hermes_home)
    ours = (directory / MARKER).is_file()
    if directory.exists() and not ours and any(directory.iterdir()):
        raise ConfigError(
            f"{directory} exists and was not written by hermes-gbrain; not touching it"
        )
    directory.mkdir(parents=True, exist_ok=True)
    changed = []
    for filename, text in _files(name).items():
        path = directory / filename
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            continue
        write_atomic(path, text, mode=0o644)
        changed.append(filename)
    return InstallResult(directory, tuple(changed))


def uninstall(name: str, hermes_home: str | os.PathLike[str]) -> InstallResult:
    """Remove only what ``install`` wrote; keep the directory if anything else is in it."""
    directory = _directory(name, hermes_home)
    if not (directory / MARKER).is_file():
        return InstallResult(directory, ())
    removed = []
    for filename in _files(name):
        path = directory / filename
        if path.is_file():
            path.unlink()
            removed.append(filename)
    cache = directory / "__pycache__"
    if cache.is_dir():
        for item in cache.glob("__init__.*.pyc"):
            item.unlink()
        if not any(cache.iterdir()):
            cache.rmdir()
    if not any(directory.iterdir()):
        directory.rmdir()
    return InstallResult(directory, tuple(removed))
