"""Memory that stops working is visible: through the real ``hermes`` command line, a
wrong secret, a dead server and a 401 each give one line on stderr (never stdout) that
names what to fix; ``hermes-gbrain status`` and ``hermes memory status`` show it too;
the next working run says memory is back once. Never the secret, never the message."""

from __future__ import annotations

import io
import json
import socket
import threading
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from hermes_gbrain.adapters.provider import UNANSWERED_S
from hermes_gbrain.commands.main import main
from hermes_gbrain.recall import health
from support.hermes_cli import (
    CLI_TEST_TIMEOUT_S,
    CliRun,
    chat_query,
    model_config,
    oneshot,
    run_hermes,
)
from support.pointer_env import Profile
from support.stub_model import StubModel, StubReply

pytestmark = [pytest.mark.hermes, pytest.mark.timeout(CLI_TEST_TIMEOUT_S)]

MESSAGE = "What do we know about Maya Okafor?"
OFF = "GBrain memory is off"
BACK = "GBrain memory is back"


def _status(home: Path, *args: str) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["status", "--hermes-home", str(home), *args]) == 0
    return out.getvalue()


def _notices(run: CliRun) -> list[str]:
    return [line for line in run.stderr.splitlines() if "GBrain memory" in line]


def _run(profile: Profile, stub: StubModel) -> CliRun:
    run = oneshot(profile.home.path, stub, MESSAGE)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "GBrain memory" not in run.stdout  # stdout is the answer alone
    assert MESSAGE not in run.stderr
    return run


def _dead_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def cli_profile(profile: Profile, stub_model: StubModel) -> Profile:
    profile.home.write_config("gbrain", extra={"model": model_config(stub_model)})
    return profile


def test_wrong_secret_is_named_then_memory_comes_back(
    cli_profile: Profile, stub_model: StubModel
) -> None:
    home = cli_profile.home.path
    secret = cli_profile.env["GBRAIN_MCP_CLIENT_SECRET"]
    cli_profile.set_env(GBRAIN_MCP_CLIENT_SECRET="gbrain_cs_not-the-right-one")

    failed = _run(cli_profile, stub_model)
    notices = _notices(failed)
    assert len(notices) == 1 and OFF in notices[0], failed.stderr[-2000:]
    assert "GBRAIN_MCP_CLIENT_SECRET is wrong" in notices[0]
    assert cli_profile.emu.mcp_url in notices[0]
    assert "hermes-gbrain setup" in notices[0]
    assert "not-the-right-one" not in failed.stderr
    assert "<memory-context>" not in failed.last_user_message()

    shown = _status(home)
    assert "recall    OFF" in shown and "GBRAIN_MCP_CLIENT_SECRET is wrong" in shown
    assert "fix: " in shown and "not-the-right-one" not in shown
    hermes_status = run_hermes(home, stub_model, ["memory", "status"])
    assert "memory: OFF" in hermes_status.stdout and "fix: " in hermes_status.stdout

    cli_profile.set_env(GBRAIN_MCP_CLIENT_SECRET=secret)
    back = _run(cli_profile, stub_model)
    assert [n for n in _notices(back) if BACK in n] and not [n for n in _notices(back) if OFF in n]
    assert "[default:people/maya-okafor]" in back.last_user_message()
    assert "recall    working" in _status(home)
    assert not _notices(_run(cli_profile, stub_model))  # back is said once

    state = json.loads((home / "gbrain" / health.HEALTH_FILE).read_text())
    assert state["state"] == "ok" and "GBRAIN_MCP_CLIENT_SECRET" in state["last_failure"]["what"]
    assert oct((home / "gbrain" / health.HEALTH_FILE).stat().st_mode & 0o777) == "0o600"


def test_dead_server_names_the_url_and_how_to_start_it(
    cli_profile: Profile, stub_model: StubModel
) -> None:
    url = f"http://127.0.0.1:{_dead_port()}/mcp"
    cli_profile.set_env(GBRAIN_MCP_URL=url)
    notices = _notices(_run(cli_profile, stub_model))
    assert len(notices) == 1 and f"cannot reach GBrain at {url}" in notices[0]
    assert "gbrain serve --http" in notices[0]
    shown = _status(cli_profile.home.path)
    assert f"cannot reach GBrain at {url}" in shown
    # `hermes chat -q` keeps stdout for the answer too: the notice is on stderr
    query = chat_query(cli_profile.home.path, stub_model, MESSAGE)
    assert query.returncode == 0 and "GBrain memory" not in query.stdout
    assert len(_notices(query)) == 1 and f"cannot reach GBrain at {url}" in query.stderr


def test_a_hung_server_is_named_when_a_one_shot_run_ends(
    cli_profile: Profile, stub_model: StubModel
) -> None:
    gate = threading.Event()  # every MCP request is held: the search never answers
    cli_profile.emu.knobs.gate = gate
    stub_model.enqueue(StubReply(delay_s=UNANSWERED_S + 0.5))  # the run outlives the limit
    try:
        run = _run(cli_profile, stub_model)
    finally:
        gate.set()
    notices = _notices(run)
    assert len(notices) == 1 and OFF in notices[0], run.stderr[-2000:]
    assert "did not answer a search within" in notices[0]
    assert cli_profile.emu.mcp_url in notices[0]
    shown = _status(cli_profile.home.path)
    assert "recall    OFF" in shown and "did not answer a search" in shown
    assert "<memory-context>" not in run.last_user_message()


def test_a_401_names_the_credential(cli_profile: Profile, stub_model: StubModel) -> None:
    cli_profile.emu.knobs.force_401 = 1_000
    notices = _notices(_run(cli_profile, stub_model))
    assert len(notices) == 1 and "refused the profile's credential" in notices[0]
    assert "HTTP 401" in notices[0]


def test_last_turn_shows_titles_and_slugs_only(cli_profile: Profile, stub_model: StubModel) -> None:
    cli_profile.set_env(GBRAIN_BRIEFING="on")
    home = cli_profile.home.path
    run = _run(cli_profile, stub_model)
    assert "[default:people/maya-okafor]" in run.last_user_message()
    shown = _status(home, "--last-turn")
    assert "people/maya-okafor" in shown and "Maya Okafor" in shown
    assert MESSAGE not in shown
    raw = (home / "gbrain" / health.LAST_TURN_FILE).read_text()
    assert "Maya" in raw and MESSAGE not in raw
    # the briefing's summaries stay out of the record
    summaries = [
        line.split(" — ", 1)[1]
        for line in run.last_user_message().splitlines()
        if " — " in line and "[default:" in line
    ]
    assert summaries and not any(summary in raw for summary in summaries)


def test_one_session_hears_once_when_memory_stops_and_once_when_it_is_back(
    profile: Profile,
) -> None:
    """The interactive CLI's callbacks (0.19.0 passes ``warning_callback`` and
    ``status_callback`` to ``initialize``): three failing turns, one warning; two working
    turns after, one "back"."""
    from support.hermes_driver import MemoryManagerDriver, load_provider

    warnings: list[str] = []
    statuses: list[str] = []
    kwargs = {"warning_callback": warnings.append, "status_callback": statuses.append}
    with MemoryManagerDriver(load_provider("gbrain"), init_kwargs=kwargs) as driver:
        profile.emu.knobs.status = 503
        for message in ("Who is Maya Okafor?", "What is Kestrel Works?", "Driftwood Sync?"):
            assert driver.turn(message).memory_context is None
        assert len(warnings) == 1 and OFF in warnings[0] and "HTTP 503" in warnings[0]
        assert profile.emu.mcp_url in warnings[0] and "doctor" in warnings[0]
        reason = driver.provider.unavailable_reason()  # newer Hermes asks for it
        assert "HTTP 503" in reason and "Fix: " in reason
        profile.emu.reset_knobs()
        driver.turn("Tell me about Tomas Lindqvist")
        driver.turn("And the Series A fundraise?")
        assert driver.provider.unavailable_reason() == ""
    assert [s for s in statuses if BACK in s] == [f"🧠 {BACK}"]
    assert len(warnings) == 1


def test_a_hung_server_is_named_at_the_next_turn(profile: Profile) -> None:
    """The turn stops waiting at its budget and gets nothing; the search it gave up on
    fails at its deadline, and that failure is said (once) at the next turn."""
    import threading

    from support.hermes_driver import MemoryManagerDriver, load_provider
    from support.pointer_env import engine_idle

    (profile.home.path / "gbrain_memory.json").write_text('{"timeout": 0.3}')  # MCP deadline
    profile.set_env(GBRAIN_POINTER_SYNC_BUDGET_MS="50")
    warnings: list[str] = []
    kwargs = {"warning_callback": warnings.append, "status_callback": lambda _: None}
    held = threading.Event()
    try:
        with MemoryManagerDriver(load_provider("gbrain"), init_kwargs=kwargs) as driver:
            driver.turn("Who is Maya Okafor?")  # mints its token, answers: memory works
            profile.emu.knobs.gate = held  # from now on every request hangs
            assert driver.turn("What is Kestrel Works?").memory_context is None
            assert engine_idle()  # the orphaned search ended at its deadline
            driver.turn("And Driftwood Sync?")
            assert len(warnings) == 1 and "did not answer in time" in warnings[0]
            assert profile.emu.mcp_url in warnings[0]
    finally:
        held.set()


def test_hook_mode_says_so_on_stderr_and_status_shows_it(
    profile: Profile, stub_model: StubModel
) -> None:
    """Beside another provider (here: none but Hermes' own), the gbrain-hook plugin
    has no status line; a one-shot run still gets the line on stderr."""
    from hermes_gbrain.commands.install import install

    home = profile.home
    install("gbrain-hook", home.path)
    home.write_config(
        "", extra={"model": model_config(stub_model), "plugins": {"enabled": ["gbrain-hook"]}}
    )
    profile.set_env(GBRAIN_MCP_CLIENT_SECRET="gbrain_cs_not-the-right-one")
    run = _run(profile, stub_model)
    notices = _notices(run)
    assert len(notices) == 1 and "GBRAIN_MCP_CLIENT_SECRET is wrong" in notices[0]
    assert "not-the-right-one" not in run.stderr
    assert "recall    OFF" in _status(home.path)
