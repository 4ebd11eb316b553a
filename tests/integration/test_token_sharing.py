"""One token and one catalog per profile and credential, whatever the number of processes
and sessions: real ``hermes-gbrain`` processes and real Hermes sessions, the emulator
over HTTP with GBrain's default ``/token`` limit."""

from __future__ import annotations

import os
import selectors
import threading
import time
from pathlib import Path

import pytest

from hermes_gbrain.auth import TOKEN_DEADLINE_S
from hermes_gbrain.emulator import Emulator, RecordedRequest
from support.children import python_child
from support.hermes_driver import MemoryManagerDriver, load_provider
from support.hermes_home import HermesHome
from support.pair_searches import without_pairs
from support.pointer_env import Profile, fresh_process_state, make_profile

QUESTION = "Driftwood Sync"
PROCESS_TIMEOUT_S = 60


class _Search:
    """``hermes-gbrain search`` in a process of its own (a cron job, a script), imported
    and waiting: it says ``ready`` and runs once told to (:meth:`go`), so that a slow
    interpreter start never eats into the search's own deadlines. It writes a byte to
    :attr:`at_lock` as it comes to the profile's token lock (to take it, or to wait for
    it); the lock itself is the real one."""

    def __init__(self, home: Path) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GBRAIN_", "MCP_GBRAIN"))}
        env["HERMES_HOME"] = str(home)
        self.at_lock, signal = os.pipe()
        code = (
            "import contextlib, os, sys\n"
            "import hermes_gbrain.connect, hermes_gbrain.errors, hermes_gbrain.text\n"
            "import hermes_gbrain.tokenfile as tokenfile\n"
            "from hermes_gbrain.commands.main import main\n"
            "real = tokenfile.file_lock\n"
            "@contextlib.contextmanager\n"
            "def file_lock(path, timeout):\n"
            f"    os.write({signal}, b'.')\n"
            "    with real(path, timeout) as held:\n"
            "        yield held\n"
            "tokenfile.file_lock = file_lock\n"
            "print('ready', flush=True)\n"
            "sys.stdin.readline()\n"
            f"sys.exit(main(['search', {QUESTION!r}, '--limit', '1']))\n"
        )
        self.process = python_child(code, env, pass_fds=(signal,))
        os.close(signal)
        assert self.process.stdout is not None
        assert self.process.stdout.readline().strip() == "ready"

    def go(self) -> _Search:
        assert self.process.stdin is not None
        self.process.stdin.write("go\n")
        self.process.stdin.flush()
        return self

    def finish(self) -> str:
        try:
            out, err = self.process.communicate(timeout=PROCESS_TIMEOUT_S)
        finally:
            os.close(self.at_lock)
        assert self.process.returncode == 0, err
        return out


def _wait_at_lock(searches: list[_Search], timeout: float) -> None:
    """Until every one has come to the lock (read from their pipes), or ``timeout`` seconds."""
    waiting = {s.at_lock for s in searches}
    deadline = time.monotonic() + timeout
    with selectors.DefaultSelector() as selector:
        for fd in waiting:
            selector.register(fd, selectors.EVENT_READ)
        while waiting and (left := deadline - time.monotonic()) > 0:
            for key, _ in selector.select(left):
                os.read(key.fd, 1)
                selector.unregister(key.fd)
                waiting.discard(key.fd)


def _dotenv(home: Path, emu: Emulator) -> None:
    values = {**emu.client_env(f"cli-{home.name}", scopes="read"), "GBRAIN_POINTER_ALLOW_HTTP": "1"}
    home.mkdir(parents=True, exist_ok=True)
    (home / ".env").write_text("".join(f"{k}={v}\n" for k, v in values.items()))


def _count(
    emu: Emulator, *, path: str = "/mcp", rpc: str | None = None, tool: str | None = None
) -> int:
    return sum(
        1
        for r in emu.requests
        if r.path == path
        and (rpc is None or r.rpc_method == rpc)
        and (tool is None or r.tool == tool)
    )


def test_two_processes_racing_for_the_token_mint_once(tmp_path: Path) -> None:
    with Emulator() as emu:
        home = tmp_path / "profile"
        _dotenv(home, emu)
        gate, minting = threading.Event(), threading.Event()

        def seen(request: RecordedRequest) -> None:
            if request.path == "/token":
                minting.set()

        # The first mint waits at the server until the other process waits for it too, but
        # never as long as the mint's own deadline: held past it, the first process would give
        # the mint up, and the second would rightly make its own.
        emu.knobs.token_gate = gate
        emu.knobs.on_request = seen
        first, second = _Search(home), _Search(home)
        try:
            first.go(), second.go()
            assert minting.wait(PROCESS_TIMEOUT_S)
            _wait_at_lock([first, second], TOKEN_DEADLINE_S / 2)
        finally:
            gate.set()
        outputs = [first.finish(), second.finish()]
        assert all("[default:projects/driftwood-sync]" in out for out in outputs)
        assert emu.token_requests == 1
        # Later processes take the token and the catalog from the profile's files.
        before = _count(emu, rpc="tools/list")
        for _ in range(3):
            assert "[default:projects/driftwood-sync]" in _Search(home).go().finish()
        assert emu.token_requests == 1
        assert _count(emu, rpc="tools/list") == before


@pytest.mark.hermes
def test_a_gateway_starting_fifty_sessions_asks_whoami_and_tools_list_once(
    hermes_home: HermesHome, emu: Emulator
) -> None:
    """Fifty sessions, each with the tool bridge and a turn with pointers: one whoami,
    one tools/list and one token for the credential, not fifty of each."""
    profile: Profile = make_profile(hermes_home, emu, GBRAIN_TOOLS="read")
    assert profile.env["GBRAIN_TOOLS"] == "read"
    with_pointers = 0
    for n in range(50):
        driver = MemoryManagerDriver(load_provider("gbrain"), session_id=f"gateway-{n}")
        tools = driver.provider._tools.session  # type: ignore[attr-defined]
        assert tools.refreshed.wait(10)
        record = driver.turn("Who is Maya Okafor?")
        with_pointers += "[default:people/maya-okafor]" in record.prefetch
        driver.close()
    assert with_pointers == 50
    assert _count(emu, tool="whoami") == 1
    assert _count(emu, rpc="tools/list") == 1
    assert emu.token_requests == 1


@pytest.mark.hermes
def test_a_new_process_of_the_gateway_asks_nothing_again(
    hermes_home: HermesHome, emu: Emulator
) -> None:
    make_profile(hermes_home, emu, GBRAIN_TOOLS="read")
    first = MemoryManagerDriver(load_provider("gbrain"), session_id="before-restart")
    assert first.provider._tools.session.refreshed.wait(10)  # type: ignore[attr-defined]
    first.turn("Who is Maya Okafor?")
    first.close()
    fresh_process_state()  # a restart: nothing left in memory
    emu.clear_requests()
    after = MemoryManagerDriver(load_provider("gbrain"), session_id="after-restart")
    assert after.provider._tools.session.refreshed.wait(10)  # type: ignore[attr-defined]
    record = after.turn("Who is Maya Okafor?")
    after.close()
    assert "[default:people/maya-okafor]" in record.prefetch
    # Only the turn's own calls: no token, whoami or tools/list before them.
    assert sorted(str(r.tool) for r in without_pairs(emu.requests)) == [
        "search",
        "volunteer_context",
    ]
    assert emu.token_requests == 0
