"""``hermes-gbrain setup``: from a fresh profile to a Hermes turn that carries the brain."""

from __future__ import annotations

import contextlib
import os
import signal
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from hermes_gbrain.commands.main import main
from hermes_gbrain.commands.setup import EMULATOR_DIR, EMULATOR_PID
from hermes_gbrain.emulator import Emulator
from hermes_gbrain.files import data_dir
from hermes_gbrain.recall.digest import read_digest
from support.hermes_cli import model_config, oneshot
from support.hermes_home import HermesHome
from support.stub_model import StubModel

_CONNECTION = (
    "GBRAIN_MCP_URL",
    "GBRAIN_MCP_CLIENT_ID",
    "GBRAIN_MCP_CLIENT_SECRET",
    "GBRAIN_MCP_ACCESS_TOKEN",
)


@pytest.fixture(autouse=True)
def _no_connection_in_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in _CONNECTION:
        monkeypatch.delenv(name, raising=False)


@contextlib.contextmanager
def _stops_its_emulator(home: Path) -> Iterator[None]:
    """Setup leaves the emulator it started serving: stop it by its recorded pid."""
    try:
        yield
    finally:
        pid_file = data_dir(home) / EMULATOR_DIR / EMULATOR_PID
        if pid_file.is_file():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid_file.read_text().strip()), signal.SIGTERM)


@pytest.mark.hermes
def test_setup_emulator_then_a_real_hermes_turn_carries_digest_and_briefing(
    hermes_home: HermesHome, stub_model: StubModel, capsys: pytest.CaptureFixture[str]
) -> None:
    home = hermes_home.path
    # "your Hermes": a model is configured, nothing about GBrain yet
    hermes_home.write_config("", extra={"model": model_config(stub_model)})
    with _stops_its_emulator(home):
        args = ["setup", "--emulator", "--non-interactive", "--hermes-home", str(home)]
        assert main(args) == 0, capsys.readouterr().out
        out = capsys.readouterr().out
        assert "emulator: started at http://127.0.0.1:" in out
        assert "doctor: all good" in out
        assert stat.S_IMODE((home / ".env").stat().st_mode) == 0o600
        digest = read_digest(home)
        assert digest is not None

        turn = oneshot(home, stub_model, "What do we know about Maya Okafor?")
        assert turn.returncode == 0, turn.stderr
        assert digest["line"] in turn.system_prompt()
        assert "[default:people/maya-okafor]" in turn.last_user_message()
        assert "Maya Okafor is the CEO" in turn.last_user_message()  # the briefing's summary

        # re-running is harmless: the same emulator, nothing rewritten, still all good
        assert main(args) == 0
        again = capsys.readouterr().out
        assert "emulator: using the one already serving" in again
        assert ".env unchanged" in again and "memory.provider: gbrain already set" in again


def test_setup_keeps_other_lines_and_beside_another_provider_enables_the_hook(
    hermes_home: HermesHome,
    emu: Emulator,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    home = hermes_home.path
    hermes_home.write_config("mnemosyne")
    (home / ".env").write_text("OPENAI_API_KEY=sk-keep\nGBRAIN_MCP_ACCESS_TOKEN=stale\n")
    env = emu.client_env("setup-hook", scopes="read")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert main(["setup", "--non-interactive", "--hermes-home", str(home)]) == 0
    out = capsys.readouterr().out
    assert "GBrain joins it as the gbrain-hook plugin" in out
    text = (home / ".env").read_text()
    assert "OPENAI_API_KEY=sk-keep\n" in text
    assert "GBRAIN_MCP_ACCESS_TOKEN" not in text  # would have won over the client pair
    assert f"GBRAIN_MCP_CLIENT_ID={env['GBRAIN_MCP_CLIENT_ID']}\n" in text
    config = yaml.safe_load(hermes_home.config_path.read_text())
    assert config["memory"]["provider"] == "mnemosyne"
    assert "gbrain-hook" in config["plugins"]["enabled"]
    assert (home / "plugins" / "gbrain-hook" / "__init__.py").is_file()
    assert env["GBRAIN_MCP_CLIENT_SECRET"] not in out


def test_setup_writes_nothing_when_the_credential_does_not_work(
    hermes_home: HermesHome, emu: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    home = hermes_home.path
    args = ["setup", "--non-interactive", "--hermes-home", str(home), "--url", emu.mcp_url]
    wrong = "gbrain_cs_" + "1" * 64
    assert main([*args, "--client-id", "gbrain_cl_nobody", "--client-secret", wrong]) == 1
    err = capsys.readouterr().err
    assert "nothing was written" in err and wrong not in err
    assert not (home / ".env").exists()
    assert main(args) == 1
    assert "no GBrain credential" in capsys.readouterr().err
