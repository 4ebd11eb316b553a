"""Fixtures for the emulator tests: a running in-process emulator and MCP clients."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from emu_client import Mcp, mint

from hermes_gbrain.emulator import Emulator


@pytest.fixture
def emu() -> Iterator[Emulator]:
    with Emulator() as emulator:
        yield emulator


@pytest.fixture
def http() -> Iterator[httpx.Client]:
    with httpx.Client(trust_env=False, timeout=10.0) as client:
        yield client


@pytest.fixture
def mcp(emu: Emulator, http: httpx.Client) -> Mcp:
    """A client holding a read token."""
    return Mcp(emu, http, mint(emu, "read"))


@pytest.fixture
def writer(emu: Emulator, http: httpx.Client) -> Mcp:
    return Mcp(emu, http, mint(emu, "read write"))


@pytest.fixture
def admin(emu: Emulator, http: httpx.Client) -> Mcp:
    return Mcp(emu, http, mint(emu, "admin"))
