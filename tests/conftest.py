"""Shared fixtures. Hermes reads ``HERMES_HOME`` at import time, so it is set first."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from hermes_gbrain.auth import clear_token_cache
from hermes_gbrain.mcp import clear_catalog_cache
from support.hermes_flavor import PINNED, installed_hermes
from support.hermes_home import (
    HermesHome,
    hermes_home_fixture,
    install_bootstrap_home,
    isolated_profile_environ,
)
from support.stub_model import StubModel, stub_model_fixture

_bootstrap_home: Path | None = None

# No example database: a run here checks exactly what a clean clone checks. A falsifying
# example a property test finds is kept as an ``@example`` beside the test, never only in
# a local ``.hypothesis/`` folder; ``print_blob`` prints how to replay a failure exactly.
settings.register_profile("suite", database=None, print_blob=True)
settings.load_profile("suite")


def pytest_configure(config: pytest.Config) -> None:
    """Keep every Hermes import away from the real ``~/.hermes`` (see support.hermes_home)."""
    global _bootstrap_home
    config.addinivalue_line(
        "markers", "mnemosyne: needs the real Mnemosyne (make test-mnemosyne installs it)"
    )
    config.addinivalue_line(
        "markers",
        "hermes019: only meaningful on the pinned hermes-agent 0.19.0 (skipped on newer Hermes)",
    )
    _bootstrap_home = install_bootstrap_home()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    installed = installed_hermes()
    if installed == PINNED:
        return
    shown = " ".join(installed) if installed else "no Hermes"
    skip = pytest.mark.skip(reason=f"needs hermes-agent {PINNED[1]}; this run has {shown}")
    for item in items:
        if item.get_closest_marker("hermes019") is not None:
            item.add_marker(skip)


def pytest_unconfigure(config: pytest.Config) -> None:
    if _bootstrap_home is not None:
        shutil.rmtree(_bootstrap_home, ignore_errors=True)


@pytest.fixture
def hermes_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[HermesHome]:
    """An isolated ``$HERMES_HOME`` (config.yaml, no provider selected) with caches cleared."""
    yield from hermes_home_fixture(tmp_path, monkeypatch)


@pytest.fixture
def stub_model() -> Iterator[StubModel]:
    """A running loopback OpenAI-compatible model; ``stub_model.base_url`` ends in ``/v1``."""
    yield from stub_model_fixture()


@pytest.fixture(autouse=True)
def _no_profile_settings_in_environ(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test starts and ends with no ``GBRAIN_*``/``MCP_GBRAIN_*`` in ``os.environ``."""
    yield from isolated_profile_environ(monkeypatch)


@pytest.fixture(autouse=True)
def _cold_process_caches() -> Iterator[None]:
    """Minted tokens and tools/list catalogs are process-wide: every test starts cold."""
    clear_token_cache()
    clear_catalog_cache()
    yield
    clear_token_cache()
    clear_catalog_cache()
