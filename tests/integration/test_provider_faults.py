"""Fail-open faults, session-boundary races, profiles in multiplex mode, log hygiene.

Most tests drive the ``gbrain-pointer`` preset: the pointer engine behind it is the one
the full provider uses, and the preset's background hand-out (a search after each
turn, taken by the next) makes every step of a race observable. The full provider's
own current-turn behaviour is tested in ``test_current_turn.py``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from hermes_gbrain.emulator import Emulator, RecordedRequest
from hermes_gbrain.recall.pointers import HEADER
from support.hermes_driver import MemoryManagerDriver, load_provider
from support.hermes_home import HermesHome, make_hermes_home
from support.pointer_env import WAIT, Profile, engine_idle, make_profile

pytestmark = pytest.mark.hermes

ASK = "Who is Maya Okafor?"
NEXT = "What else should I know?"
PRESET = "gbrain-pointer"


@pytest.fixture
def profile(hermes_home: HermesHome, emu: Emulator) -> Profile:
    return make_profile(hermes_home, emu, name=PRESET)


def turn(driver: MemoryManagerDriver, user: str) -> str:
    prefetch = driver.turn(user).prefetch
    assert engine_idle()
    return prefetch


def later(provider: Any) -> str:
    """What the next real turn's ``prefetch`` takes, without starting another search
    (``on_turn_start`` re-reads the settings, as Hermes' next turn would)."""
    provider.on_turn_start(99, NEXT)
    return str(provider.prefetch(NEXT))


FAULTS: dict[str, dict[str, Any]] = {
    "5xx": {"status": 500},
    "503": {"status": 503},
    "401-after-remint": {"force_401": 2},
    "redirect": {"redirect_to": "http://127.0.0.1:9/mcp"},
    "oversized": {"oversized_bytes": 600_000},
    "lying-length": {"lying_content_length": 5_000_000},
    "gzip": {"gzip": True},
    "malformed-json": {"malformed_json": True},
    "malformed-tool-text": {"malformed_tool_text": True},
    "wrong-rpc-id": {"wrong_rpc_id": True},
    "token-5xx": {"token_status": 500},
    # a stateful server that demands a session before any initialize: the client does not
    # handshake first (GBrain is stateless), so this is one more way to get no pointers
    "stateful-404": {"session_id": "sess-1"},
}


@pytest.mark.parametrize("knobs", FAULTS.values(), ids=FAULTS.keys())
def test_fault_means_no_pointers_then_recovery(profile: Profile, knobs: dict[str, Any]) -> None:
    for name, value in knobs.items():
        setattr(profile.emu.knobs, name, value)
    with MemoryManagerDriver(load_provider(PRESET)) as driver:
        assert turn(driver, ASK) == ""
        profile.emu.reset_knobs()
        assert turn(driver, ASK) == ""  # turn 1's search failed: nothing for turn 2
        assert later(driver.provider).startswith(HEADER)  # turn 2's search worked


BENIGN: dict[str, dict[str, Any]] = {
    "extra-sse-events": {"extra_sse_events": 3},
    "extra-content-blocks": {"extra_content_blocks": True},
    "json-response": {"json_response": True},
}


@pytest.mark.parametrize("knobs", BENIGN.values(), ids=BENIGN.keys())
def test_benign_variations_still_deliver(profile: Profile, knobs: dict[str, Any]) -> None:
    for name, value in knobs.items():
        setattr(profile.emu.knobs, name, value)
    with MemoryManagerDriver(load_provider(PRESET)) as driver:
        turn(driver, ASK)
        assert later(driver.provider).startswith(HEADER + "\n- [default:people/maya-okafor]")


def test_server_down_means_no_pointers(profile: Profile) -> None:
    profile.set_env(GBRAIN_MCP_URL="http://127.0.0.1:9/mcp")
    with MemoryManagerDriver(load_provider(PRESET)) as driver:
        turn(driver, ASK)
        assert later(driver.provider) == ""


def test_is_error_result_means_no_pointers(profile: Profile) -> None:
    profile.set_env(GBRAIN_POINTER_SOURCE="no-such-source")
    with MemoryManagerDriver(load_provider(PRESET)) as driver:
        turn(driver, ASK)
        assert later(driver.provider) == ""
    assert [r.tool for r in profile.emu.requests if r.tool] == ["query"]


def test_unfilterable_source_searches_nothing_and_says_why(profile: Profile) -> None:
    from hermes_gbrain.mcp import ToolCatalog, _catalog_lock, _catalogs

    profile.set_env(GBRAIN_POINTER_SOURCE="work")
    provider = load_provider(PRESET)
    with MemoryManagerDriver(provider) as driver:
        turn(driver, ASK)  # learns the catalog
        with _catalog_lock:  # a server whose `query` cannot filter either
            for key, catalog in list(_catalogs.items()):
                tools = {n: s for n, s in catalog.tools.items() if n != "query"}
                _catalogs[key] = ToolCatalog(tools)
        before = len([r for r in profile.emu.requests if r.tool])
        turn(driver, "what about ledger lake")
        assert later(driver.provider) == ""
        assert len([r for r in profile.emu.requests if r.tool]) == before
        assert "source" in provider.unavailable_reason()  # type: ignore[attr-defined]


# -- races on session boundaries ---------------------------------------------------------


class Hold:
    """Holds the first ``tools/call`` at the server until released; flags later ones."""

    def __init__(self, emu: Emulator) -> None:
        self.first = threading.Event()
        self.later = threading.Event()
        self.release = threading.Event()
        self._seen = 0
        self._lock = threading.Lock()
        emu.knobs.on_request = self

    def __call__(self, rec: RecordedRequest) -> None:
        if not rec.tool:
            return
        with self._lock:
            self._seen += 1
            seen = self._seen
        if seen == 1:
            self.first.set()
            self.release.wait(WAIT)
        else:
            self.later.set()


@pytest.fixture
def hold(profile: Profile) -> Iterator[Hold]:
    h = Hold(profile.emu)
    yield h
    h.release.set()


Switch = Callable[[MemoryManagerDriver], None]


def _new(driver: MemoryManagerDriver) -> None:
    driver.manager.commit_session_boundary_async(
        driver.history, new_session_id="s2", parent_session_id="s1", reason="new_session"
    )
    assert driver.manager.flush_pending(timeout=WAIT)
    driver.session_id = "s2"


def _reset_inline(driver: MemoryManagerDriver) -> None:
    driver.manager.on_session_switch("s2", parent_session_id="s1", reset=True)
    driver.session_id = "s2"


def _undo(driver: MemoryManagerDriver) -> None:
    driver.manager.on_session_switch("s1", rewound=True)


@pytest.mark.parametrize("switch", [_new, _reset_inline, _undo], ids=["new", "reset", "undo"])
def test_switch_orphans_search_in_flight(profile: Profile, hold: Hold, switch: Switch) -> None:
    with MemoryManagerDriver(load_provider(PRESET)) as driver:
        driver.turn(ASK)
        assert hold.first.wait(WAIT)  # turn 1's search is at the server
        switch(driver)
        driver.turn("Tell me about Tomas Lindqvist")  # a new search starts at once
        assert hold.later.wait(WAIT)
        hold.release.set()
        assert engine_idle()
        block = later(driver.provider)
        assert "tomas-lindqvist" in block and "maya-okafor]" not in block
        # the orphaned result was published nowhere
        other = load_provider(PRESET)
        other.initialize("s1", hermes_home=str(profile.home.path))
        assert later(other) == ""


def test_shutdown_is_final_and_bounded(profile: Profile, hold: Hold) -> None:
    driver = MemoryManagerDriver(load_provider(PRESET))
    driver.turn(ASK)
    assert hold.first.wait(WAIT)
    started = time.monotonic()
    driver.close()  # on_session_end + shutdown_all
    assert time.monotonic() - started < 1.0
    provider = driver.provider
    provider.queue_prefetch("Tell me about Tomas Lindqvist", session_id="s1")
    hold.release.set()
    assert engine_idle()
    assert later(provider) == ""
    fresh = load_provider(PRESET)
    fresh.initialize("s1", hermes_home=str(profile.home.path))
    assert later(fresh) == ""  # nothing was published after shutdown
    assert not hold.later.is_set()  # and nothing was sent after it


# -- profiles in a multiplexed gateway ------------------------------------------------------


def test_two_profiles_multiplexed(
    tmp_path: Any, hermes_home: HermesHome, emu: Emulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agent.secret_scope import (
        build_profile_secret_scope,
        reset_secret_scope,
        set_multiplex_active,
        set_secret_scope,
    )
    from hermes_constants import reset_hermes_home_override, set_hermes_home_override

    with Emulator() as other_emu:
        a = make_profile(hermes_home, emu, name=PRESET)
        b = make_profile(make_hermes_home(tmp_path / "profile-b"), other_emu, name=PRESET)
        for key, value in a.env.items():  # the launch profile's env: must never be used
            monkeypatch.setenv(key, value)
        set_multiplex_active(True)
        drivers: dict[str, MemoryManagerDriver] = {}

        def scoped(p: Profile, fn: Callable[[], Any]) -> Any:
            home_token = set_hermes_home_override(str(p.home.path))
            scope_token = set_secret_scope(build_profile_secret_scope(p.home.path))
            try:
                return fn()
            finally:
                reset_secret_scope(scope_token)
                reset_hermes_home_override(home_token)

        try:
            for label, p in (("a", a), ("b", b)):
                drivers[label] = scoped(
                    p,
                    lambda p=p: MemoryManagerDriver(
                        load_provider(PRESET), init_kwargs={"hermes_home": str(p.home.path)}
                    ),
                )
            scoped(a, lambda: turn(drivers["a"], ASK))
            scoped(b, lambda: turn(drivers["b"], "Tell me about Tomas Lindqvist"))
            got_a = scoped(a, lambda: later(drivers["a"].provider))
            got_b = scoped(b, lambda: later(drivers["b"].provider))
            assert "maya-okafor" in got_a and "tomas" not in got_a
            assert "tomas-lindqvist" in got_b and "maya" not in got_b
            assert [r.arguments["query"] for r in emu.requests if r.tool] == [ASK]  # type: ignore[index]
            assert [r.arguments["query"] for r in other_emu.requests if r.tool] == [  # type: ignore[index]
                "Tell me about Tomas Lindqvist"
            ]
            assert emu.token_requests == 1 and other_emu.token_requests == 1

            # a routed call with no bound scope reads nothing: unavailable, no requests
            before = len(emu.requests) + len(other_emu.requests)
            provider = drivers["a"].provider
            provider.on_turn_start(3, ASK)
            assert "scope" in provider.unavailable_reason()  # type: ignore[attr-defined]
            assert provider.prefetch(ASK) == ""
            provider.queue_prefetch(ASK, session_id="s1")
            assert engine_idle()
            assert len(emu.requests) + len(other_emu.requests) == before
            assert provider.is_available() is False
        finally:
            set_multiplex_active(False)
            for d in drivers.values():
                d.close()


def test_changed_secret_cannot_reuse_pointers(profile: Profile) -> None:
    with MemoryManagerDriver(load_provider(PRESET)) as driver:
        turn(driver, ASK)
        client_id, secret = profile.emu.register_client("rotated")
        profile.set_env(GBRAIN_MCP_CLIENT_ID=client_id, GBRAIN_MCP_CLIENT_SECRET=secret)
        assert later(driver.provider) == ""  # waiting result belonged to the old credential
        turn(driver, ASK)
        assert later(driver.provider).startswith(HEADER)
    assert profile.emu.token_requests == 2


# -- log hygiene -----------------------------------------------------------------------------


def test_no_secret_or_text_in_any_log(
    hermes_home: HermesHome, emu: Emulator, caplog: pytest.LogCaptureFixture
) -> None:
    profile = make_profile(hermes_home, emu, GBRAIN_BRIEFING="on")  # the full provider
    caplog.set_level(logging.DEBUG)
    with MemoryManagerDriver(load_provider("gbrain")) as driver:
        turn(driver, ASK)
        turn(driver, "ok")
        profile.emu.knobs.status = 500
        turn(driver, "Tell me about Tomas Lindqvist")
        profile.emu.knobs.status = None
        profile.emu.knobs.malformed_json = True
        turn(driver, "What is the Driftwood Sync project")
        profile.emu.reset_knobs()
    tokens = {
        r.headers.get("authorization", "").removeprefix("Bearer ")
        for r in profile.emu.requests
        if r.path == "/mcp"
    } - {""}
    assert tokens
    forbidden = [
        *tokens,
        profile.env["GBRAIN_MCP_CLIENT_SECRET"],
        "Maya",
        "Tomas",
        "Driftwood",
        "Kestrel",
    ]
    texts = [r.getMessage() for r in caplog.records]
    texts += [repr(r.args) for r in caplog.records]
    logs_dir = profile.home.path / "logs"
    if logs_dir.is_dir():
        texts += [p.read_text(errors="replace") for p in logs_dir.glob("*.log")]
    for text in texts:
        for secret in forbidden:
            assert secret not in text
    ours = [r for r in caplog.records if r.name.startswith("hermes_gbrain")]
    # memory going off is said once, at WARNING (what failed and the fix, no text)
    notices = [r for r in ours if r.name.endswith(".healthwire")]
    assert [r.levelno for r in notices] == [logging.WARNING]
    assert notices[0].getMessage().startswith("GBrain memory is off: GBrain at ")
    ours = [r for r in ours if r not in notices]
    assert ours and all(r.levelno == logging.DEBUG for r in ours)
    assert {r.getMessage() for r in ours} <= {
        "pointer search failed: HTTPStatusError",
        "pointer search failed: ProtocolError",
    }
