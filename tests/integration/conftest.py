"""Fixtures for the provider through real hermes-agent 0.19.0 and the emulator over HTTP."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hermes_gbrain.emulator import Emulator
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
    """The module's emulator with knobs reset and an empty request log."""
    module_emulator.reset_knobs()
    module_emulator.clear_requests()
    yield module_emulator
    module_emulator.reset_knobs()


@pytest.fixture
def profile(hermes_home: HermesHome, emu: Emulator) -> Profile:
    return make_profile(hermes_home, emu)
