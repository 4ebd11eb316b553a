"""Every failure names the thing to fix (URL, file, setting) and the command that fixes it.

Setup's refusals (a dead port, a wrong secret, plain http), a ``.env`` that cannot be
read, a profile folder under a file, ``doctor`` on a profile that does not exist (it
creates nothing), and the profile's own emulator: stopped, then brought back by
``setup --emulator`` on its port with its clients.
"""

from __future__ import annotations

import builtins
import contextlib
import json
import os
import signal
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from hermes_gbrain.commands.main import main
from hermes_gbrain.commands.setup import EMULATOR_DIR, EMULATOR_PID
from hermes_gbrain.emulator import Emulator
from hermes_gbrain.files import data_dir
from hermes_gbrain.settings import UnreadableSettings, read_dotenv
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


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _doctor_json(home: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, list]]:
    code = main(["doctor", "--json", "--hermes-home", str(home)])
    by_name: dict[str, list] = {}
    for check in json.loads(capsys.readouterr().out)["checks"]:
        by_name.setdefault(check["name"], []).append(check)
    return code, by_name


# -- setup's refusals -------------------------------------------------------------------------


def test_setup_on_a_dead_port_names_the_url_and_the_fix(
    hermes_home: HermesHome, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/mcp"
    args = ["setup", "--non-interactive", "--hermes-home", str(hermes_home.path), "--url", url]
    assert main([*args, "--client-id", "gbrain_cl_x", "--client-secret", "gbrain_cs_y"]) == 1
    err = capsys.readouterr().err
    assert f"cannot reach GBrain at {url}" in err and "nothing was written" in err
    assert "gbrain serve --http" in err and "--url" in err
    assert "doctor" not in err  # doctor would check the unwritten profile, not this URL
    assert "gbrain_cs_y" not in err


def test_setup_with_a_wrong_secret_says_the_secret_or_id_is_wrong(
    hermes_home: HermesHome, emu: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    client_id, _ = emu.register_client("reader", "read")
    wrong = "gbrain_cs_" + "2" * 64
    args = ["setup", "--non-interactive", "--hermes-home", str(hermes_home.path)]
    args += ["--url", emu.mcp_url, "--client-id", client_id, "--client-secret", wrong]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "invalid_grant" in err and "the client id or the secret" in err
    assert emu.mcp_url in err and "grant-help" in err and wrong not in err
    assert not hermes_home.env_path.exists()


def test_setup_refusing_plain_http_names_its_own_flag(
    hermes_home: HermesHome, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["setup", "--non-interactive", "--hermes-home", str(hermes_home.path)]
    args += ["--url", "http://brain.example.com/mcp", "--access-token", "t0ken"]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "--allow-http" in err and "GBRAIN_POINTER_ALLOW_HTTP" not in err


# -- files in the way ---------------------------------------------------------------------


def test_a_env_folder_is_named_with_its_fix_and_doctor_still_checks_the_profile(
    hermes_home: HermesHome, capsys: pytest.CaptureFixture[str]
) -> None:
    hermes_home.write_config("gbrain")
    env = hermes_home.env_path
    env.mkdir()
    assert main(["status", "--hermes-home", str(hermes_home.path)]) == 1
    err = capsys.readouterr().err
    assert f"{env} is a folder, not a file" in err and f"mv {env}" in err
    assert "IsADirectoryError" not in err
    code, checks = _doctor_json(hermes_home.path, capsys)
    assert code == 1
    assert checks["settings"][0]["status"] == "fail" and f"mv {env}" in checks["settings"][0]["fix"]
    assert checks["memory"][0]["status"] == "pass"  # the rest of the profile is checked


def test_an_unreadable_env_names_the_path_and_chmod(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = tmp_path / ".env"
    env.write_text("GBRAIN_MCP_URL=http://127.0.0.1:1/mcp\n")
    real_open = builtins.open

    def no_read(file: object, *args: object, **kwargs: object) -> object:
        if file == env:
            raise PermissionError(13, "Permission denied", str(env))
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(builtins, "open", no_read)  # root reads any mode, so no chmod here
    with pytest.raises(UnreadableSettings) as raised:
        read_dotenv(env)
    assert raised.value.what == f"cannot read {env} (permission denied)"
    assert raised.value.fix == f"as its owner, `chmod 600 {env}`"


@pytest.mark.parametrize("command", ["status", "doctor", "setup", "search", "import-memory"])
def test_a_profile_under_a_file_is_named(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("")
    home = blocker / "profile"
    args = [command, "--hermes-home", str(home)] + (["q"] if command == "search" else [])
    assert main(args) == 1
    err = capsys.readouterr().err
    assert f"{home} cannot be a profile folder: {blocker} is a file" in err
    assert "--hermes-home" in err and "NotADirectoryError" not in err


def test_doctor_creates_nothing_it_checks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nowhere" / "x" / "y"
    code, checks = _doctor_json(missing, capsys)
    assert code == 1 and checks["profile"][0]["status"] == "fail"
    assert "hermes-gbrain setup --hermes-home" in checks["profile"][0]["fix"]
    assert not (tmp_path / "nowhere").exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    _doctor_json(empty, capsys)
    assert sorted(p.name for p in empty.iterdir()) == []  # no cron/output either


# -- the profile's own emulator ---------------------------------------------------------------


@contextlib.contextmanager
def _stops_its_emulator(home: Path) -> Iterator[None]:
    try:
        yield
    finally:
        pid = _emulator_pid(home)
        if pid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)


def _emulator_pid(home: Path) -> int:
    pid_file = data_dir(home) / EMULATOR_DIR / EMULATOR_PID
    return int(pid_file.read_text().strip()) if pid_file.is_file() else 0


def _stop(pid: int) -> None:
    """Stop the emulator setup started (a child of this test process) and reap it."""
    os.kill(pid, signal.SIGTERM)
    os.waitpid(pid, 0)


@pytest.mark.xdist_group("default-port")  # takes the emulator's default port
def test_a_stopped_emulator_comes_back_with_setup_on_its_port_with_its_clients(
    hermes_home: HermesHome, capsys: pytest.CaptureFixture[str]
) -> None:
    home = hermes_home.path
    args = ["setup", "--emulator", "--non-interactive", "--no-cron", "--hermes-home", str(home)]
    with _stops_its_emulator(home):
        assert main(args) == 0, capsys.readouterr().out
        capsys.readouterr()
        env_before = hermes_home.env_path.read_text()
        url = read_dotenv(hermes_home.env_path)["GBRAIN_MCP_URL"]
        # a request leaves a connection in TIME_WAIT on the server's side after it stops
        assert main(["search", "Maya", "--hermes-home", str(home)]) == 0
        capsys.readouterr()
        _stop(_emulator_pid(home))

        code, checks = _doctor_json(home, capsys)
        assert code == 1
        failed = next(c for c in checks["server"] if c["status"] == "fail")
        assert url.rsplit("/", 1)[0] in failed["detail"]
        assert f"hermes-gbrain setup --emulator --hermes-home {home}" in failed["fix"]

        assert main(args) == 0
        out = capsys.readouterr().out
        assert f"emulator: started at {url}" in out and "port 3131 is taken" not in out
        assert hermes_home.env_path.read_text() == env_before  # same URL, same client
        assert "doctor: all good" in out
        # the emulator has no embeddings to give: no warning asks for them
        assert "pass  search    answered in" in out and "keyword search only" in out
        assert "embedding provider" not in out


# -- smaller things ---------------------------------------------------------------------------


def test_client_names_say_which_profile() -> None:
    from hermes_gbrain.commands.grant_help import client_name

    assert client_name(Path.home() / ".hermes") == "hermes-default"
    assert client_name(Path.home() / ".hermes" / "profiles" / "work") == "hermes-work"


def test_status_searches_for_a_probe_not_a_word_of_its_own(
    hermes_home: HermesHome, emu: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    from hermes_gbrain.commands.status import PROBE_QUERY

    hermes_home.write_env({**emu.client_env("status-reader"), "GBRAIN_POINTER_ALLOW_HTTP": "1"})
    emu.clear_requests()
    assert main(["status", "--hermes-home", str(hermes_home.path)]) == 0
    assert "search    answered just now" in capsys.readouterr().out
    queries = [r.arguments.get("query") for r in emu.requests if r.tool == "search" and r.arguments]
    assert queries == [PROBE_QUERY]


@pytest.mark.parametrize("command", [["search", "Maya"], ["digest"]])
def test_commands_that_cannot_reach_the_brain_name_the_url_and_the_fix(
    command: list[str], hermes_home: HermesHome, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/mcp"
    hermes_home.write_env(
        {
            "GBRAIN_MCP_URL": url,
            "GBRAIN_MCP_CLIENT_ID": "gbrain_cl_x",
            "GBRAIN_MCP_CLIENT_SECRET": "gbrain_cs_y",
        }
    )
    assert main([*command, "--hermes-home", str(hermes_home.path)]) == 1
    err = capsys.readouterr().err
    assert f"cannot reach GBrain at {url}" in err and "fix: " in err
    assert "gbrain serve --http" in err and "gbrain_cs_y" not in err


def test_a_half_credential_names_the_file_to_correct(
    hermes_home: HermesHome, capsys: pytest.CaptureFixture[str]
) -> None:
    hermes_home.write_env({"GBRAIN_MCP_CLIENT_ID": "gbrain_cl_x"})
    assert main(["search", "Maya", "--hermes-home", str(hermes_home.path)]) == 1
    err = capsys.readouterr().err
    assert "must be set together" in err and f"{hermes_home.env_path}" in err
    assert "hermes-gbrain setup" in err
