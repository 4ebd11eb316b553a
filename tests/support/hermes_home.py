"""Isolated ``$HERMES_HOME`` directories for tests that drive real hermes-agent 0.19.0.

Findings (read from the 0.19.0 source and checked by experiment):

* ``hermes_constants.get_hermes_home()`` reads ``HERMES_HOME`` on *every* call
  (after the contextvar override), so memory-provider discovery
  (``plugins.memory._get_user_plugins_dir``), ``load_config()`` and
  ``MemoryManager.initialize_all`` follow a per-test ``monkeypatch.setenv``.
* But many modules freeze the home **at import time**: ``run_agent._hermes_home``
  (which also loads ``<home>/.env`` into ``os.environ`` with override, and is
  where ``AIAgent`` sends ``logs/agent.log``), ``hermes_state.DEFAULT_DB_PATH``,
  ``tools.skills_tool.HERMES_HOME``, ``agent.auxiliary_client._AUTH_JSON_PATH`` and
  more. :func:`install_bootstrap_home` therefore points ``HERMES_HOME`` at a
  throw-away directory before anything imports Hermes (from ``pytest_configure``),
  so the real ``~/.hermes`` is never read or written, and the fixture imports
  ``run_agent`` (:func:`preload_hermes`) *before* switching to the per-test home:
  otherwise the first test to import it would freeze its own tmp home into those
  constants and leak its ``.env`` into ``os.environ`` for the rest of the session
  (observed). Per-test homes only affect code that resolves the home at call
  time, which is everything memory providers see.
* ``.env`` is applied to ``os.environ`` only when ``run_agent`` is first imported:
  a per-test ``.env`` is *not* loaded by ``AIAgent``. Use :meth:`HermesHome.apply_env`
  (monkeypatched, undone after the test), or ``agent.secret_scope`` helpers.
* Caches that leak between homes: ``sys.modules["_hermes_user_memory.<name>"]``
  (a loaded user provider module is reused by name even if a later home has a
  different directory of that name); ``hermes_cli.config._LOAD_CONFIG_CACHE``
  (keyed by path and (mtime_ns, size): a same-size rewrite within one timestamp
  tick is served stale); ``hermes_cli.plugins._plugin_manager`` (general plugins,
  discovered once when ``model_tools`` is imported) and its ``hermes_plugins.*``
  modules. :func:`clear_hermes_caches` drops them; the ``hermes_home`` fixture
  calls it before and after each test. ``plugins.memory`` itself keeps no
  discovery cache.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

USER_MEMORY_NAMESPACE = "_hermes_user_memory"
# This package's settings. Hermes loads a profile's ``.env`` into ``os.environ`` (with
# override), so without clearing them one test's profile configures the next.
PROFILE_SETTING_PREFIXES = ("GBRAIN_", "MCP_GBRAIN_")
GENERAL_PLUGIN_NAMESPACE = "hermes_plugins"
_DROP_PREFIXES = (USER_MEMORY_NAMESPACE + ".", GENERAL_PLUGIN_NAMESPACE + ".")


def install_bootstrap_home() -> Path:
    """Point ``HERMES_HOME`` at a fresh temp dir; call before any Hermes import.

    Import-time constants in Hermes capture this directory for the whole
    process; it keeps them (and ``run_agent``'s ``.env`` load) away from the
    real ``~/.hermes``.
    """
    path = Path(tempfile.mkdtemp(prefix="hermes-bootstrap-home-"))
    os.environ["HERMES_HOME"] = str(path)
    return path


def preload_hermes() -> None:
    """Import the Hermes modules that freeze ``HERMES_HOME`` at import, under the current one.

    Call while ``HERMES_HOME`` is still the bootstrap home. About 0.6 s, once per
    process; a no-op when hermes-agent is not installed.
    """
    with contextlib.suppress(ImportError):  # Hermes missing: nothing to freeze
        import run_agent  # noqa: F401  (also imports model_tools, hermes_state, tools.*)


def profile_settings_in_environ() -> list[str]:
    """Names of this package's settings present in ``os.environ``."""
    return sorted(name for name in os.environ if name.startswith(PROFILE_SETTING_PREFIXES))


def isolated_profile_environ(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No ``GBRAIN_*``/``MCP_GBRAIN_*`` in ``os.environ`` during or after a test.

    Before: removed through ``monkeypatch`` (what the shell or an enclosing fixture set
    comes back after the test). After: whatever appeared during the test is dropped, even
    when Hermes put it there itself (a profile ``.env`` loaded into the environment), which
    ``monkeypatch`` does not know about.
    """
    for name in profile_settings_in_environ():
        monkeypatch.delenv(name)
    try:
        yield
    finally:
        for name in profile_settings_in_environ():
            os.environ.pop(name, None)


def clear_hermes_caches() -> None:
    """Forget module-level Hermes state that is keyed by name rather than by home."""
    for mod_name in list(sys.modules):
        if mod_name == USER_MEMORY_NAMESPACE or mod_name.startswith(_DROP_PREFIXES):
            del sys.modules[mod_name]
    config_mod = sys.modules.get("hermes_cli.config")
    if config_mod is not None:
        cache = getattr(config_mod, "_LOAD_CONFIG_CACHE", None)
        if isinstance(cache, dict):
            cache.clear()
        invalidate = getattr(config_mod, "invalidate_env_cache", None)
        if callable(invalidate):
            invalidate()
    plugins_mod = sys.modules.get("hermes_cli.plugins")
    if plugins_mod is not None and hasattr(plugins_mod, "_plugin_manager"):
        plugins_mod._plugin_manager = None


def default_config(provider: str = "") -> dict[str, Any]:
    """The minimal config: one external provider, built-in MEMORY.md/USER.md off."""
    return {
        "memory": {
            "provider": provider,
            "memory_enabled": False,
            "user_profile_enabled": False,
        }
    }


def _parse_env(text: str) -> dict[str, str]:
    values: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key] = value
    return values


@dataclass(frozen=True)
class HermesHome:
    """A temporary ``$HERMES_HOME`` and writers for the files Hermes reads there."""

    path: Path

    @property
    def config_path(self) -> Path:
        return self.path / "config.yaml"

    @property
    def env_path(self) -> Path:
        return self.path / ".env"

    @property
    def plugins_dir(self) -> Path:
        return self.path / "plugins"

    def plugin_dir(self, name: str) -> Path:
        return self.plugins_dir / name

    def write_config(self, provider: str = "", *, extra: Mapping[str, Any] | None = None) -> Path:
        """Write ``config.yaml`` selecting *provider*; *extra* top-level keys merge in.

        A ``memory`` mapping in *extra* is merged into the default one, so
        ``extra={"memory": {"gbrain": {...}}}`` keeps the provider selection.
        """
        config = default_config(provider)
        for key, value in (extra or {}).items():
            if key == "memory" and isinstance(value, Mapping):
                config["memory"].update(value)
            else:
                config[key] = value
        self.config_path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
        clear_hermes_caches()  # defeat load_config's (mtime_ns, size) cache
        return self.config_path

    def write_env(self, values: Mapping[str, str] | str) -> Path:
        """Write ``.env`` (mode 0600) from a mapping or raw text."""
        if isinstance(values, str):
            text = values
        else:
            text = "".join(f"{key}={value}\n" for key, value in values.items())
        self.env_path.write_text(text, encoding="utf-8")
        self.env_path.chmod(0o600)
        return self.env_path

    def read_env(self) -> dict[str, str]:
        """Parse ``.env`` the simple way (KEY=VALUE, optional quotes, comments)."""
        if not self.env_path.exists():
            return {}
        return _parse_env(self.env_path.read_text(encoding="utf-8"))

    def apply_env(self, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
        """Put ``.env`` into ``os.environ`` as ``run_agent`` would at import, undone at teardown."""
        values = self.read_env()
        for key, value in values.items():
            monkeypatch.setenv(key, value)
        return values

    def write_plugin(
        self,
        name: str,
        init_source: str,
        *,
        manifest: Mapping[str, Any] | None = None,
        extra_files: Mapping[str, str] | None = None,
    ) -> Path:
        """Write ``plugins/<name>/`` with ``plugin.yaml`` and ``__init__.py``.

        0.19.0 only discovers the directory if ``__init__.py`` mentions
        ``MemoryProvider`` or ``register_memory_provider`` in its first 8 KiB.
        Note that *extra_files* ending in ``.py`` are all executed by the loader.
        """
        directory = self.plugin_dir(name)
        directory.mkdir(parents=True, exist_ok=True)
        meta: dict[str, Any] = {
            "name": name,
            "version": "0.0.0",
            "description": f"test plugin {name}",
        }
        meta.update(manifest or {})
        (directory / "plugin.yaml").write_text(
            yaml.safe_dump(meta, sort_keys=False), encoding="utf-8"
        )
        (directory / "__init__.py").write_text(init_source, encoding="utf-8")
        for rel, text in (extra_files or {}).items():
            target = directory / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        # A same-named module loaded from another home must not be reused.
        for mod_name in list(sys.modules):
            prefix = f"{USER_MEMORY_NAMESPACE}.{name}"
            if mod_name == prefix or mod_name.startswith(prefix + "."):
                del sys.modules[mod_name]
        return directory


def make_hermes_home(
    root: Path, *, provider: str = "", env: Mapping[str, str] | None = None
) -> HermesHome:
    """Create a home under *root* with ``config.yaml`` (and ``.env`` when given)."""
    root.mkdir(parents=True, exist_ok=True)
    home = HermesHome(root)
    home.plugins_dir.mkdir(exist_ok=True)
    home.write_config(provider)
    if env is not None:
        home.write_env(env)
    return home


def hermes_home_fixture(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[HermesHome]:
    """Body of the ``hermes_home`` fixture: isolated home, caches cleared around the test."""
    preload_hermes()
    home = make_hermes_home(tmp_path / "hermes-home")
    monkeypatch.setenv("HERMES_HOME", str(home.path))
    clear_hermes_caches()
    try:
        from hermes_constants import get_hermes_home_override
    except ImportError:  # pragma: no cover - Hermes missing
        get_hermes_home_override = None
    if get_hermes_home_override is not None:
        assert get_hermes_home_override() is None, "a previous test leaked a home override"
    try:
        yield home
    finally:
        clear_hermes_caches()
