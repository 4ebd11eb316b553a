"""Which SQLite file the Mnemosyne provider of a Hermes profile reads.

The digest sink must write where the provider reads, or the entry is never seen.
This module works that out from files only (no Hermes, no Mnemosyne import), by
following the installed provider's own rules, checked against **mnemosyne-hermes
0.7.6** (``mnemosyne_hermes/__init__.py``) on **hermes-agent 0.19.0**:

1. Hermes 0.19.0 always passes ``hermes_home`` (``str(get_hermes_home())``) and
   ``agent_identity`` (``hermes_cli.profiles.get_active_profile_name()``) to
   ``initialize`` (``agent/agent_init.py``). With a ``hermes_home`` the provider
   never looks at ``MNEMOSYNE_DATA_DIR`` for its database
   (``MnemosyneMemoryProvider._initialize_locked``).
2. Profile isolation (``MnemosyneMemoryProvider._resolve_profile_isolation``):
   ``memory.mnemosyne.profile_isolation`` in the profile's ``config.yaml``, else
   ``profile_isolation`` in Mnemosyne's own ``config.yaml``
   (``mnemosyne.core.config._default_config_path``: ``$MNEMOSYNE_DATA_DIR/
   config.yaml``, else ``$HERMES_HOME/mnemosyne/config.yaml``), else off.
3. Off: ``<hermes_home>/mnemosyne/data/mnemosyne.db``. On: the bank is the profile
   name, else the home folder's name, else ``default``
   (``_resolve_profile_bank``, ``_sanitize_bank_name``), and the database is
   ``<hermes_home>/mnemosyne/data/banks/<bank>/mnemosyne.db`` (``default`` keeps
   the shared file).

When the answer is not certain (another provider version, or two Mnemosyne config
files that disagree), :class:`UncertainPath` names both candidate files.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..settings import Lookup

__all__ = [
    "CHECKED_PROVIDER",
    "MnemosyneTarget",
    "UncertainPath",
    "bank_for",
    "hermes_profile_name",
    "installed_provider_version",
    "resolve_mnemosyne_db",
    "sanitize_bank_name",
]

CHECKED_PROVIDER = ("0", "7")
"""mnemosyne-hermes major.minor whose rules this module follows (checked on 0.7.6)."""

# hermes_cli/profiles.py (hermes-agent 0.19.0): _PROFILE_ID_RE
_PROFILE_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
_TRUE = ("true", "1", "yes", "on")


class UncertainPath(ConfigError):
    """The provider's database cannot be known for sure; names both candidates."""


@dataclass(frozen=True, slots=True)
class MnemosyneTarget:
    """Where the entry goes, and why."""

    db_path: Path
    isolation: bool
    bank: str
    shared_path: Path

    def describe(self) -> str:
        if not self.isolation:
            return "profile isolation off"
        return f"profile isolation on, bank {self.bank}"


def _platform_home() -> Path:
    # hermes_constants._get_platform_default_hermes_home (hermes-agent 0.19.0)
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA", "").strip()
        return (Path(local) if local else Path.home() / "AppData" / "Local") / "hermes"
    return Path.home() / ".hermes"


def hermes_profile_name(home: Path, *, native_home: Path | None = None) -> str:
    """The ``agent_identity`` Hermes passes for a process whose ``HERMES_HOME`` is ``home``.

    hermes-agent 0.19.0: ``hermes_cli.profiles.get_active_profile_name`` with the root
    from ``hermes_constants.get_default_hermes_root``.
    """
    native = native_home or _platform_home()
    resolved = home.resolve()
    try:
        resolved.relative_to(native.resolve())
        root = native
    except ValueError:  # a Docker or custom home: itself, or <root>/profiles/<name>
        root = home.parent.parent if home.parent.name == "profiles" else home
    if resolved == root.resolve():
        return "default"
    try:
        parts = resolved.relative_to((root / "profiles").resolve()).parts
    except ValueError:
        return "custom"
    return parts[0] if len(parts) == 1 and _PROFILE_ID.match(parts[0]) else "custom"


def sanitize_bank_name(raw: str) -> str:
    """mnemosyne-hermes 0.7.6 ``MnemosyneMemoryProvider._sanitize_bank_name``."""
    if not raw:
        return "default"
    cleaned = "".join(c if c.isalnum() or c in "_-" else "_" for c in raw.lower().strip())
    while "__" in cleaned:
        cleaned = cleaned.replace("__", "_")
    cleaned = cleaned.strip("_-")
    if not cleaned or not cleaned[0].isalnum():
        cleaned = "b_" + cleaned if cleaned else "default"
    if len(cleaned) > 64:
        cleaned = cleaned[:64].rstrip("_-")
    if ".." in cleaned or "/" in cleaned:
        return "default"
    return cleaned or "default"


def bank_for(identity: str, home: Path) -> str:
    """mnemosyne-hermes 0.7.6 ``MnemosyneMemoryProvider._resolve_profile_bank``."""
    if identity and identity.lower() not in ("primary", "default", "none", ""):
        bank = sanitize_bank_name(identity)
        if bank != "default":
            return bank
    basename = home.name
    if basename and basename.lower() not in (".hermes", "hermes", "default", ""):
        bank = sanitize_bank_name(basename)
        if bank != "default":
            return bank
    return "default"


def _yaml_load(path: Path) -> Any:
    """Parsed YAML, or None when the file is missing or unreadable (as Mnemosyne does)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return None
    try:
        yaml: Any = importlib.import_module("yaml")  # PyYAML: a dependency of Mnemosyne
    except ImportError:
        raise ConfigError("PyYAML is needed to read the Mnemosyne settings") from None
    try:
        return yaml.safe_load(text)
    except Exception:  # a broken file reads as unset, like Mnemosyne's loader
        return None


def _flatten(data: dict[Any, Any], prefix: str = "") -> dict[str, Any]:
    """mnemosyne-memory 4.0.0b6 ``MnemosyneConfig._flatten_yaml``: dotted keys plus leaves."""
    flat: dict[str, Any] = {}
    for key, value in data.items():
        full = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict):
            flat.update(_flatten(value, full))
        else:
            flat[full] = value
            flat.setdefault(str(key), value)
    return flat


def _hermes_setting(home: Path) -> Any:
    """``memory.mnemosyne.profile_isolation`` from the profile's ``config.yaml``
    (mnemosyne-memory 4.0.0b6 ``mnemosyne.hermes_config.read_hermes_config_key``)."""
    data = _yaml_load(home / "config.yaml")
    memory = data.get("memory") if isinstance(data, dict) else None
    section = memory.get("mnemosyne") if isinstance(memory, dict) else None
    return section.get("profile_isolation") if isinstance(section, dict) else None


def _mnemosyne_setting(path: Path) -> Any:
    data = _yaml_load(path)
    return _flatten(data).get("profile_isolation") if isinstance(data, dict) else None


def _as_flag(value: Any) -> bool:
    # _resolve_profile_isolation: strings by word, anything else by truth
    return value.lower() in _TRUE if isinstance(value, str) else bool(value)


def installed_provider_version() -> str | None:
    """The installed ``mnemosyne-hermes`` version, or None."""
    try:
        return importlib.metadata.version("mnemosyne-hermes")
    except importlib.metadata.PackageNotFoundError:
        return None


def _paths(home: Path, bank: str) -> tuple[Path, Path]:
    """(without isolation, with it): ``_initialize_locked``'s two branches."""
    shared = home / "mnemosyne" / "data" / "mnemosyne.db"
    data = home.expanduser().resolve() / "mnemosyne" / "data"
    isolated = data if bank == "default" else data / "banks" / bank
    return shared, isolated / "mnemosyne.db"


def resolve_mnemosyne_db(
    hermes_home: str | os.PathLike[str],
    lookup: Lookup,
    *,
    provider_version: Callable[[], str | None] | None = None,
    native_home: Path | None = None,
) -> MnemosyneTarget:
    """The database the profile's Mnemosyne provider reads; raises :class:`UncertainPath`."""
    home = Path(hermes_home).expanduser()
    bank = bank_for(hermes_profile_name(home, native_home=native_home), home)
    shared, isolated = _paths(home, bank)
    both = f"{shared} (profile isolation off) or {isolated} (on, bank {bank})"
    version = (provider_version or installed_provider_version)()
    if version is None or tuple(version.split(".")[:2]) != CHECKED_PROVIDER:
        found = f"mnemosyne-hermes {version}" if version else "no mnemosyne-hermes package"
        raise UncertainPath(
            f"cannot tell which Mnemosyne database this profile reads ({found} here; this "
            f"release follows mnemosyne-hermes {'.'.join(CHECKED_PROVIDER)}.x): {both}. "
            "Pass --mnemosyne-db PATH to choose"
        )
    setting = _hermes_setting(home)
    if setting is None:
        own = home / "mnemosyne" / "config.yaml"
        data_dir = (lookup("MNEMOSYNE_DATA_DIR") or "").strip()
        setting = _mnemosyne_setting(own)
        if data_dir:
            elsewhere = Path(data_dir).expanduser() / "config.yaml"
            other = _mnemosyne_setting(elsewhere)
            if _as_flag(other) != _as_flag(setting):
                raise UncertainPath(
                    f"cannot tell which Mnemosyne database this profile reads: {elsewhere} "
                    f"and {own} disagree on profile_isolation, and which one Mnemosyne reads "
                    f"depends on MNEMOSYNE_DATA_DIR in Hermes' environment: {both}. Set "
                    "memory.mnemosyne.profile_isolation in the profile's config.yaml, or "
                    "pass --mnemosyne-db PATH"
                )
    isolation = setting is not None and _as_flag(setting)
    return MnemosyneTarget(
        db_path=isolated if isolation else shared,
        isolation=isolation,
        bank=bank if isolation else "default",
        shared_path=shared,
    )
