"""``hermes-gbrain setup``: from a fresh profile to a Hermes turn that carries the brain."""

from __future__ import annotations

import argparse
import contextlib
import json
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
from hermes_gbrain.settings import read_dotenv
from support.hermes_home import HermesHome

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


@pytest.mark.xdist_group("default-port")  # takes the emulator's default port
def test_setup_emulator_wires_a_fresh_profile_and_rerunning_changes_nothing(
    hermes_home: HermesHome, capsys: pytest.CaptureFixture[str]
) -> None:
    """The real ``hermes -z`` turn after this very command is in ``tests/test_docs.py``
    (the README walk-through), which checks the digest and the briefing reach the model."""
    home = hermes_home.path
    with _stops_its_emulator(home):
        args = ["setup", "--emulator", "--non-interactive", "--hermes-home", str(home)]
        assert main(args) == 0, capsys.readouterr().out
        out = capsys.readouterr().out
        assert "emulator: started at http://127.0.0.1:" in out
        assert "doctor: all good" in out
        assert stat.S_IMODE((home / ".env").stat().st_mode) == 0o600
        assert read_digest(home) is not None
        env_before = (home / ".env").read_text()
        assert main(["doctor", "--json", "--hermes-home", str(home)]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["ok"] and not [c for c in report["checks"] if c["status"] == "fail"]

        assert main(args) == 0
        again = capsys.readouterr().out
        assert "emulator: using the one already serving" in again
        assert ".env unchanged" in again and "memory.provider: gbrain already set" in again
        assert "cron: the digest refresh job is already installed" in again
        assert (home / ".env").read_text() == env_before
        secret = read_dotenv(home / ".env")["GBRAIN_MCP_CLIENT_SECRET"]
        assert secret.startswith("gbrain_cs_") and secret not in out + again

        # asking for writes replaces this emulator with one that has a read+write client
        assert main([*args, "--tools", "write"]) == 0
        written = capsys.readouterr().out
        assert "emulator: started at" in written and "doctor: all good" in written
        profile = read_dotenv(home / ".env")
        assert profile["GBRAIN_TOOLS"] == "write" and profile["GBRAIN_MCP_CLIENT_SECRET"] != secret
        assert "granted: read write; needed: read write" in written


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


def test_interactive_setup_asks_for_the_url_and_the_client(
    hermes_home: HermesHome,
    emu: Emulator,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from hermes_gbrain.commands import setup

    env = emu.client_env("setup-asked", scopes="read")
    answers = iter([env["GBRAIN_MCP_URL"], env["GBRAIN_MCP_CLIENT_ID"], "n"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    monkeypatch.setattr(setup.getpass, "getpass", lambda prompt: env["GBRAIN_MCP_CLIENT_SECRET"])
    args = setup.add_arguments  # the parser the command uses
    parser = argparse.ArgumentParser()
    args(parser)
    parsed = parser.parse_args(["--hermes-home", str(hermes_home.path)])
    assert setup.run_setup(parsed, hermes_home.path, interactive=True) == 0
    assert read_dotenv(hermes_home.path / ".env") == env
    out = capsys.readouterr().out
    assert "cron: skipped" in out and env["GBRAIN_MCP_CLIENT_SECRET"] not in out


def test_status_and_grant_help_describe_the_profile(
    hermes_home: HermesHome,
    emu: Emulator,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    home = hermes_home.path
    env = emu.client_env("setup-status", scopes="read")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert main(["setup", "--non-interactive", "--no-cron", "--hermes-home", str(home)]) == 0
    for name in env:
        monkeypatch.delenv(name)
    capsys.readouterr()
    assert main(["status", "--hermes-home", str(home)]) == 0
    out = capsys.readouterr().out
    assert "mode      gbrain" in out
    assert "digest on  briefing on  pointers on  tools read  writeback off" in out
    assert "digest    built 0.0 h ago: GBrain digest (" in out
    assert "search    answered just now in" in out and "outbox    empty" in out
    assert env["GBRAIN_MCP_CLIENT_SECRET"] not in out

    assert main(["grant-help", "--hermes-home", str(home)]) == 0
    text = capsys.readouterr().out
    assert "gbrain auth register-client hermes-hermes-home --scopes read\n" in text
    assert 'register-client hermes-hermes-home-writer --scopes "read write"' in text
    assert f"GBRAIN_MCP_URL={env['GBRAIN_MCP_URL']}" in text
    assert f"{home / '.env'}" in text
