"""A profile's ``config.yaml``, read and written through Hermes' own config code.

``setup`` selects the memory provider (``memory.provider``) or enables the hook
plugin (``plugins.enabled``); ``doctor`` and ``status`` read them back, with the
profile's ``mcp_servers``. Hermes resolves the config path from its home on every
call, so each call here binds the profile home for its duration (the same
override the multiplexed gateway uses) and Hermes' cache, keyed by path, stays
correct. Hermes is imported lazily, inside the functions, and each function Hermes
may lack is feature-detected: a missing one raises ``HermesMissing`` with the fix.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
from collections.abc import Iterator, Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

from ..errors import ConfigError

__all__ = [
    "HermesMissing",
    "enable_plugin",
    "enabled_plugins",
    "hermes_distribution",
    "hermes_features",
    "hermes_version",
    "mcp_servers",
    "memory_provider",
    "set_memory_provider",
]


class HermesMissing(ConfigError):
    """This Python cannot import the Hermes code a step needs."""


def _module(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        raise HermesMissing(
            "hermes-agent is not installed in this Python: install hermes-gbrain into "
            "the Python that runs Hermes"
        ) from None


def _function(module: Any, name: str) -> Any:
    found = getattr(module, name, None)
    if not callable(found):
        raise HermesMissing(f"this Hermes has no {module.__name__}.{name}")
    return found


@contextlib.contextmanager
def _home(hermes_home: str | os.PathLike[str]) -> Iterator[Any]:
    """Bind ``hermes_home`` as Hermes' home for the block; yields ``hermes_cli.config``."""
    constants = _module("hermes_constants")
    config = _module("hermes_cli.config")
    home = os.fspath(Path(hermes_home).expanduser())
    setter = getattr(constants, "set_hermes_home_override", None)
    if callable(setter):
        token = setter(home)
        try:
            yield config
        finally:
            constants.reset_hermes_home_override(token)
        return
    previous = os.environ.get("HERMES_HOME")  # older Hermes: the environment only
    os.environ["HERMES_HOME"] = home
    try:
        yield config
    finally:
        if previous is None:
            os.environ.pop("HERMES_HOME", None)
        else:
            os.environ["HERMES_HOME"] = previous


def _raw(config: Any) -> dict[str, Any]:
    reader = getattr(config, "read_raw_config", None) or _function(config, "load_config")
    data = reader()
    return data if isinstance(data, dict) else {}


def _section(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key)
    return value if isinstance(value, Mapping) else {}


def memory_provider(hermes_home: str | os.PathLike[str]) -> str:
    """``memory.provider`` (``""`` when none is selected)."""
    with _home(hermes_home) as config:
        value = _section(_raw(config), "memory").get("provider")
    return value.strip() if isinstance(value, str) else ""


def set_memory_provider(hermes_home: str | os.PathLike[str], name: str) -> bool:
    """What ``hermes config set memory.provider NAME`` does; False when already set."""
    if memory_provider(hermes_home) == name:
        return False
    with _home(hermes_home) as config:
        setter = _function(config, "set_config_value")
        with contextlib.redirect_stdout(io.StringIO()):  # Hermes prints a confirmation
            setter("memory.provider", name)
    return True


def enabled_plugins(hermes_home: str | os.PathLike[str]) -> list[str]:
    """``plugins.enabled``: general plugins Hermes loads."""
    with _home(hermes_home) as config:
        value = _section(_raw(config), "plugins").get("enabled")
    return [str(v) for v in value] if isinstance(value, list) else []


def enable_plugin(hermes_home: str | os.PathLike[str], name: str) -> bool:
    """What ``hermes plugins enable NAME`` writes; False when already enabled."""
    with _home(hermes_home) as config:
        data = _raw(config)
        plugins = data.get("plugins")
        plugins = dict(plugins) if isinstance(plugins, Mapping) else {}
        enabled = [str(v) for v in plugins.get("enabled") or [] if isinstance(v, str)]
        disabled = [str(v) for v in plugins.get("disabled") or [] if isinstance(v, str)]
        if name in enabled and name not in disabled:
            return False
        plugins["enabled"] = sorted({*enabled, name})
        if name in disabled:
            plugins["disabled"] = [v for v in disabled if v != name]
        data["plugins"] = plugins
        saver = _function(config, "save_config")
        saver(data)
    return True


def mcp_servers(hermes_home: str | os.PathLike[str]) -> dict[str, Mapping[str, Any]]:
    """The profile's ``mcp_servers`` entries (name → settings)."""
    with _home(hermes_home) as config:
        value = _raw(config).get("mcp_servers")
    if not isinstance(value, Mapping):
        return {}
    return {str(k): v for k, v in value.items() if isinstance(v, Mapping)}


HERMES_DISTRIBUTION = "hermes-agent"
_HERMES_TOP_MODULE = "run_agent"  # installed by Hermes and by its native-compatible forks


def hermes_distribution() -> tuple[str, str] | None:
    """``(name, version)`` of the installed Hermes, or None when there is none.

    ``hermes-agent`` itself, else whichever distribution installs Hermes' modules (a
    native-compatible fork is published under another name): asking only for
    ``hermes-agent`` would call a working fork "not installed".
    """
    try:
        return HERMES_DISTRIBUTION, metadata.version(HERMES_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        pass
    for name in sorted(set(metadata.packages_distributions().get(_HERMES_TOP_MODULE, ()))):
        try:
            return name, metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return None


def hermes_version() -> str | None:
    """The installed Hermes version (see ``hermes_distribution``), or None."""
    found = hermes_distribution()
    return found[1] if found else None


def hermes_features() -> dict[str, bool]:
    """Which newer-Hermes features this Hermes has (see ``compat``)."""
    from . import compat  # noqa: PLC0415 - imports Hermes

    return {
        "is_trivial_prompt": compat.HAS_TRIVIAL_PROMPT,
        "RecallStatus": compat.HAS_RECALL_STATUS,
        "spawn_context_thread": compat.HAS_SPAWN_CONTEXT_THREAD,
        "secret_scope": compat.HAS_SECRET_SCOPE,
    }
