"""``hermes-gbrain emulator``: prints credentials, serves, exits 0 on SIGTERM, persists clients."""

from __future__ import annotations

import os
import signal
import socket
import stat
import subprocess
import sys
from pathlib import Path

import httpx

from hermes_gbrain.emulator.cli import DEFAULT_PORT, choose_port
from hermes_gbrain.settings import read_dotenv


def _start(*args: str) -> tuple[subprocess.Popen[str], dict[str, str]]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "hermes_gbrain.emulator", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    values: dict[str, str] = {}
    while "GBRAIN_MCP_CLIENT_SECRET" not in values:
        line = proc.stdout.readline()
        assert line, proc.stderr.read() if proc.stderr else "emulator exited"
        key, _, value = line.strip().partition("=")
        values[key] = value
    if "--write-client" in args:
        while "GBRAIN_MCP_WRITE_CLIENT_SECRET" not in values:
            key, _, value = proc.stdout.readline().strip().partition("=")
            values[key] = value
    return proc, values


def _token(values: dict[str, str], prefix: str = "GBRAIN_MCP_") -> httpx.Response:
    base = values["GBRAIN_MCP_URL"].removesuffix("/mcp")
    with httpx.Client(trust_env=False, timeout=5) as http:
        return http.post(
            base + "/token",
            data={
                "grant_type": "client_credentials",
                "client_id": values[prefix + "CLIENT_ID"],
                "client_secret": values[prefix + "CLIENT_SECRET"],
            },
        )


def _stop(proc: subprocess.Popen[str]) -> int:
    proc.send_signal(signal.SIGTERM)
    return proc.wait(10)


def test_cli_prints_working_credentials_and_keeps_them_across_restarts(tmp_path: Path) -> None:
    env_file = tmp_path / "profile.env"
    proc, values = _start("--write-client", "--data", str(tmp_path), "--env-file", str(env_file))
    try:
        assert values["GBRAIN_MCP_URL"].startswith("http://127.0.0.1:")
        assert values["GBRAIN_MCP_URL"].endswith("/mcp")
        assert _token(values).json()["scope"] == "read"
        assert _token(values, "GBRAIN_MCP_WRITE_").json()["scope"] == "read write"
        # the env file holds the write pair under the names a profile reads
        profile = read_dotenv(env_file)
        assert profile["GBRAIN_MCP_CLIENT_ID"] == values["GBRAIN_MCP_WRITE_CLIENT_ID"]
        assert profile["GBRAIN_MCP_CLIENT_SECRET"] == values["GBRAIN_MCP_WRITE_CLIENT_SECRET"]
        assert profile["GBRAIN_TOOLS"] == "write"
        assert "GBRAIN_MCP_WRITE_CLIENT_ID" not in profile
        assert stat.S_IMODE(env_file.stat().st_mode) == 0o600
    finally:
        assert _stop(proc) == 0
    assert (tmp_path / "brain.sqlite3").exists()
    # a restart on the same data directory prints the same clients: none pile up
    proc2, again = _start("--write-client", "--data", str(tmp_path))
    try:
        for name in ("CLIENT_ID", "CLIENT_SECRET", "WRITE_CLIENT_ID", "WRITE_CLIENT_SECRET"):
            assert again["GBRAIN_MCP_" + name] == values["GBRAIN_MCP_" + name]
        assert _token(again).status_code == 200
    finally:
        assert _stop(proc2) == 0


def test_read_only_env_file_is_ready_for_a_profile(tmp_path: Path) -> None:
    env_file = tmp_path / "read.env"
    proc, values = _start("--env-file", str(env_file))
    try:
        assert read_dotenv(env_file) == {
            k: values[k]
            for k in ("GBRAIN_MCP_URL", "GBRAIN_MCP_CLIENT_ID", "GBRAIN_MCP_CLIENT_SECRET")
        }
    finally:
        assert _stop(proc) == 0


def test_default_port_is_the_default_url_port_when_free() -> None:
    assert DEFAULT_PORT == 3131
    assert choose_port("127.0.0.1", 4567) == 4567
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen(1)
        taken = held.getsockname()[1]
        assert choose_port("127.0.0.1", None, default=taken) == 0
    assert choose_port("127.0.0.1", None, default=taken) == taken


def test_a_taken_port_is_one_line_and_exit_1() -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen(1)
        port = held.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "hermes_gbrain.emulator", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"hermes-gbrain emulator: cannot listen on 127.0.0.1:{port} (Address already in use)"
    )
