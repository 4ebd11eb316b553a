"""Helpers for provider tests: process-state reset, profiles with the shim installed."""

from __future__ import annotations

from dataclasses import dataclass

from hermes_gbrain.auth import clear_token_cache
from hermes_gbrain.commands.install import install
from hermes_gbrain.emulator import Emulator
from hermes_gbrain.mcp import clear_catalog_cache
from hermes_gbrain.recall import pointers
from hermes_gbrain.recall.config import clear_brain_cache
from support.hermes_home import HermesHome

WAIT = 5.0


def fresh_process_state() -> None:
    """Process-wide caches (tokens, catalogs, connections, the pointer engine)."""
    clear_token_cache()
    clear_catalog_cache()
    clear_brain_cache()
    engine = pointers._shared
    if engine is not None:
        engine.shutdown(1.0)


@dataclass
class Profile:
    """A Hermes home with the shim installed and GBrain settings in its ``.env``."""

    home: HermesHome
    emu: Emulator
    env: dict[str, str]

    def set_env(self, **changes: str | None) -> None:
        for key, value in changes.items():
            if value is None:
                self.env.pop(key, None)
            else:
                self.env[key] = value
        self.home.write_env(self.env)


TEST_BUDGET_MS = "5000"
"""The full provider's wait for a turn's own pointers in tests: generous, so that a busy
machine cannot make a result miss its turn; tests of the bound set their own budget."""


def make_profile(home: HermesHome, emu: Emulator, name: str = "gbrain", **extra: str) -> Profile:
    env = {
        **emu.client_env(f"reader-{home.path.name}", scopes="read"),
        "GBRAIN_POINTER_ALLOW_HTTP": "1",
        "GBRAIN_TOOLS": "off",  # no discovery refresh traffic in pointer tests
        "GBRAIN_BRIEFING": "off",  # pointer tests see pointers only; briefing tests turn it on
        # the preset keeps its background hand-out (no budget unless a test sets one)
        **({} if name == "gbrain-pointer" else {"GBRAIN_POINTER_SYNC_BUDGET_MS": TEST_BUDGET_MS}),
        **extra,
    }
    home.write_env(env)
    install(name, home.path)
    home.write_config(name)
    return Profile(home, emu, env)


def engine_idle() -> bool:
    """Wait for the shared engine to finish every queued search."""
    engine = pointers._shared
    return engine is None or engine.wait_idle(WAIT)
