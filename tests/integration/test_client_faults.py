"""Fault matrix: every emulator knob against the real client stack over loopback HTTP.

Each fault must end in a typed ``GBrainError`` (or, for benign variations a compliant
server may produce, a normal result) within the deadline, and no secret may appear in
any exception text or in any log record captured at DEBUG.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from hermes_gbrain.api import GBrain
from hermes_gbrain.auth import clear_token_cache
from hermes_gbrain.connect import open_brain
from hermes_gbrain.emulator import Emulator, Knobs
from hermes_gbrain.errors import (
    AuthError,
    DeadlineError,
    GBrainError,
    HTTPStatusError,
    ProtocolError,
    RateLimitedError,
    RedirectError,
    RefusedError,
    TooLargeError,
)
from hermes_gbrain.files import data_dir
from hermes_gbrain.settings import load_settings
from hermes_gbrain.transport import Transport

DEADLINE_S = 1.0
SLACK_S = 1.5


@dataclass
class Rig:
    emu: Emulator
    brain: GBrain
    secrets: tuple[str, ...]

    def catalog_warm(self) -> None:
        self.brain.catalog()


@pytest.fixture
def rig(tmp_path: object) -> Iterator[Rig]:
    with Emulator() as emu:
        env = emu.client_env("faults", scopes="read")
        transport = Transport()
        brain = open_brain(
            load_settings(env.get, hermes_home=str(tmp_path)),
            transport=transport,
            deadline_s=DEADLINE_S,
        )
        brain.catalog()  # mint + tools/list before the fault is switched on
        secret = env["GBRAIN_MCP_CLIENT_SECRET"]
        token = emu.mint_token(env["GBRAIN_MCP_CLIENT_ID"], secret)
        try:
            yield Rig(emu=emu, brain=brain, secrets=(secret, token))
        finally:
            emu.reset_knobs()
            transport.close()


Setup = Callable[[Knobs, Emulator], None]


def _set(**values: object) -> Setup:
    def apply(knobs: Knobs, _emu: Emulator) -> None:
        for name, value in values.items():
            setattr(knobs, name, value)

    return apply


def _redirect(knobs: Knobs, emu: Emulator) -> None:
    knobs.redirect_to = emu.base_url + "/elsewhere"


def _redirect_with(knobs: Knobs, emu: Emulator, status: int) -> None:
    _redirect(knobs, emu)
    knobs.redirect_status = status


def _expire_tokens(knobs: Knobs, emu: Emulator) -> None:
    emu.expire_all_tokens()
    knobs.token_status = 500


# (name, setup, expected error class or None for "still succeeds")
MATRIX: list[tuple[str, Setup, type[GBrainError] | None]] = [
    ("latency over deadline", _set(latency_s=DEADLINE_S + 1.0), DeadlineError),
    ("body drip", _set(drip_interval_s=0.05, oversized_bytes=4096), DeadlineError),
    ("header drip", _set(drip_interval_s=0.05, drip_headers=True), DeadlineError),
    ("status 500", _set(status=500), HTTPStatusError),
    ("status 502", _set(status=502), HTTPStatusError),
    ("status 503", _set(status=503), HTTPStatusError),
    ("forced 401 twice", _set(force_401=2), AuthError),
    ("redirect 307", _redirect, RedirectError),
    ("redirect 302", lambda k, e: _redirect_with(k, e, 302), RedirectError),
    ("oversized body", _set(oversized_bytes=400_000), TooLargeError),
    ("lying content-length", _set(lying_content_length=10_000_000), TooLargeError),
    ("gzip body", _set(gzip=True), RefusedError),
    ("malformed JSON", _set(malformed_json=True), ProtocolError),
    ("tool text not JSON", _set(malformed_tool_text=True), ProtocolError),
    ("wrong JSON-RPC id", _set(wrong_rpc_id=True), ProtocolError),
    ("expired token, mint fails", _expire_tokens, HTTPStatusError),
    # Variations a compliant server may produce: the call must still succeed.
    ("forced 401 once (re-mint)", _set(force_401=1), None),
    ("extra SSE events", _set(extra_sse_events=4), None),
    ("JSON instead of SSE", _set(json_response=True), None),
    ("extra content blocks", _set(extra_content_blocks=True), None),
    ("small latency", _set(latency_s=0.05), None),
]


@pytest.mark.parametrize(("name", "setup", "expected"), MATRIX, ids=[m[0] for m in MATRIX])
def test_fault_matrix(
    rig: Rig,
    caplog: pytest.LogCaptureFixture,
    name: str,
    setup: Setup,
    expected: type[GBrainError] | None,
) -> None:
    caplog.set_level(logging.DEBUG)
    setup(rig.emu.knobs, rig.emu)
    started = time.monotonic()
    error: GBrainError | None = None
    try:
        result = rig.brain.search("Driftwood Sync", limit=3, snippet_chars=1)
    except GBrainError as exc:
        error = exc
    elapsed = time.monotonic() - started

    if expected is None:
        assert error is None, f"{name}: unexpected {error!r}"
        assert [r.slug for r in result.rows][:1] == ["projects/driftwood-sync"]
    else:
        assert isinstance(error, expected), f"{name}: got {error!r}"
    # Each attempt is bounded by the deadline; a 401 retry or a re-initialize may add one more.
    assert elapsed < 2 * DEADLINE_S + SLACK_S, f"{name}: took {elapsed:.2f}s"
    texts = [str(error), repr(error)] if error else []
    texts += [record.getMessage() for record in caplog.records]
    texts += [str(record.args) for record in caplog.records]
    for secret in rig.secrets:
        assert all(secret not in text for text in texts), f"{name}: a secret leaked"


def test_stateful_server_session_is_sent_back_and_renewed(rig: Rig) -> None:
    """GBrain is stateless, but a server that issues a session id gets it back, and a
    lost session (404) leads to one re-initialize and a retry."""
    rig.emu.knobs.session_id = "emu-session-1"
    rig.brain.mcp.initialize()
    rig.emu.clear_requests()
    assert rig.brain.search("Driftwood Sync", limit=1).rows
    assert rig.emu.requests[-1].headers.get("mcp-session-id") == "emu-session-1"

    rig.emu.knobs.session_id = "emu-session-2"  # the server forgot session 1
    rig.emu.clear_requests()
    assert rig.brain.search("Driftwood Sync", limit=1).rows
    methods = [r.rpc_method for r in rig.emu.requests]
    assert methods == ["tools/call", "initialize", "notifications/initialized", "tools/call"]
    assert rig.emu.requests[-1].headers.get("mcp-session-id") == "emu-session-2"


def test_redirect_never_resends(rig: Rig) -> None:
    rig.emu.knobs.redirect_to = rig.emu.base_url + "/elsewhere"
    rig.emu.clear_requests()
    with pytest.raises(RedirectError):
        rig.brain.search("Driftwood", limit=1)
    paths = [r.path for r in rig.emu.requests]
    assert paths == ["/mcp"], "the redirect target must never be requested"


def test_token_endpoint_rate_limit_backs_off(rig: Rig, tmp_path: Path) -> None:
    clear_token_cache()
    for shared in data_dir(tmp_path).glob("token-*.json"):
        shared.unlink()  # no token in this process nor in the profile's file: a mint
    rig.emu.knobs.token_status = 429
    before = rig.emu.token_requests
    for _ in range(5):
        with pytest.raises(RateLimitedError):
            rig.brain.search("Driftwood", limit=1)
    assert rig.emu.token_requests == before + 1, "a 429 must stop further mints until reset"


def test_many_threads_cold_mint_once(tmp_path: object) -> None:
    with Emulator() as emu:
        env = emu.client_env("cold", scopes="read")
        settings = load_settings(env.get, hermes_home=str(tmp_path))
        gate = threading.Event()
        minting = threading.Event()
        emu.knobs.token_gate = gate
        emu.knobs.on_request = lambda rec: minting.set() if rec.path == "/token" else None
        errors: list[BaseException] = []
        barrier = threading.Barrier(32)

        def worker() -> None:
            try:
                barrier.wait(timeout=10)
                open_brain(settings).search("Beacon", limit=1)
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=worker) for _ in range(32)]
        for thread in threads:
            thread.start()
        # Hold the one mint open while the other threads pile up behind it.
        assert minting.wait(timeout=10)
        gate.set()
        for thread in threads:
            thread.join(timeout=20)
        assert not errors
        assert emu.token_requests == 1
