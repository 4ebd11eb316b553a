"""``hermes-gbrain emulator``: prints credentials, serves, exits 0 on SIGTERM, persists clients."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx


def _start(*args: str) -> tuple[subprocess.Popen[str], dict[str, str]]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "hermes_gbrain.emulator", *args],
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


def test_cli_prints_working_credentials_and_exits_cleanly(tmp_path: Path) -> None:
    proc, values = _start("--write-client", "--data", str(tmp_path))
    try:
        assert values["GBRAIN_MCP_URL"].startswith("http://127.0.0.1:")
        assert values["GBRAIN_MCP_URL"].endswith("/mcp")
        assert _token(values).json()["scope"] == "read"
        assert _token(values, "GBRAIN_MCP_WRITE_").json()["scope"] == "read write"
    finally:
        assert _stop(proc) == 0
    assert (tmp_path / "brain.sqlite3").exists()
    # a restart on the same data directory keeps the earlier client registrations
    proc2, _ = _start("--data", str(tmp_path))
    try:
        base = {**values, "GBRAIN_MCP_URL": _.get("GBRAIN_MCP_URL", "")}
        assert _token(base).status_code == 200
    finally:
        assert _stop(proc2) == 0
