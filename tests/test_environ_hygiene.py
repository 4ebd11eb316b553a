"""One test's profile settings never reach the next through ``os.environ``.

Hermes loads a profile's ``.env`` into the process environment (with override); the
autouse fixture in ``conftest.py`` clears ``GBRAIN_*``/``MCP_GBRAIN_*`` before and after
every test. The tests in this module run in order: the later ones check what the
earlier ones left behind.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from support.hermes_home import HermesHome, profile_settings_in_environ

LEAKED = {
    "GBRAIN_MCP_URL": "https://profile-a.invalid/mcp",
    "GBRAIN_TOKEN_URL": "https://profile-a.invalid/token",
    "MCP_GBRAIN_API_KEY": "profile-a-secret",
}
OUTSIDE = "https://from-the-shell.invalid/mcp"


@pytest.fixture(scope="module")
def set_outside_the_test() -> Iterator[None]:
    """A setting present before the test starts (a shell export, an enclosing fixture)."""
    before = os.environ.get("GBRAIN_MCP_URL")
    os.environ["GBRAIN_MCP_URL"] = OUTSIDE
    yield
    if before is None:
        os.environ.pop("GBRAIN_MCP_URL", None)
    else:
        os.environ["GBRAIN_MCP_URL"] = before


def test_a_setting_from_outside_is_not_seen_inside(set_outside_the_test: None) -> None:
    assert os.environ.get("GBRAIN_MCP_URL") != OUTSIDE
    assert profile_settings_in_environ() == []


def test_hermes_loads_a_profile_env_into_os_environ(hermes_home: HermesHome) -> None:
    """The leak is real: Hermes' own loader puts a profile's settings in the environment."""
    from hermes_cli.env_loader import load_hermes_dotenv

    hermes_home.write_env(LEAKED)
    load_hermes_dotenv(hermes_home=hermes_home.path)
    assert {name: os.environ.get(name) for name in LEAKED} == LEAKED


@pytest.fixture(scope="module")
def between_tests() -> dict[str, str]:
    """Taken after the previous test's teardown, before this test's own fixtures run."""
    return {name: os.environ[name] for name in profile_settings_in_environ()}


def test_the_next_test_starts_without_them(between_tests: dict[str, str]) -> None:
    # gone after the test, not just hidden from the next one (the shell's value is back)
    assert between_tests == {"GBRAIN_MCP_URL": OUTSIDE}
    assert profile_settings_in_environ() == []
    assert not set(LEAKED) & set(os.environ)
