"""Fixtures for the provider through real hermes-agent 0.19.0 and the emulator over HTTP."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hermes_gbrain.emulator import Emulator
from hermes_gbrain.emulator.oauth import RateLimiter
from support.hermes_home import HermesHome
from support.pointer_env import Profile, fresh_process_state, make_profile


@pytest.fixture(autouse=True)
def _isolated_process_state() -> Iterator[None]:
    fresh_process_state()
    yield
    fresh_process_state()


@pytest.fixture(scope="module")
def module_emulator() -> Iterator[Emulator]:
    with Emulator(lean=False, strict_params="warn") as emu:
        yield emu


@pytest.fixture
def emu(module_emulator: Emulator) -> Iterator[Emulator]:
    """The module's emulator with knobs reset, an empty request log and a fresh ``/token``
    limit window (GBrain's 50 per 15 minutes counts a whole module's mints otherwise)."""
    module_emulator.reset_knobs()
    module_emulator.clear_requests()
    module_emulator.rate_limiter = RateLimiter()
    yield module_emulator
    module_emulator.reset_knobs()


@pytest.fixture
def profile(hermes_home: HermesHome, emu: Emulator) -> Profile:
    return make_profile(hermes_home, emu)
