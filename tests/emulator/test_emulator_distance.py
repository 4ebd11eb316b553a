"""A brain far away (the ``distance_s`` knob) and GBrain's default ``/token`` limit."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import httpx

from hermes_gbrain.emulator import Emulator


def _timed_get(http: httpx.Client, url: str) -> float:
    started = time.monotonic()
    assert http.get(url).status_code == 200
    return time.monotonic() - started


def test_distance_delays_every_request_and_each_new_connection(emu: Emulator) -> None:
    emu.knobs.distance_s = 0.1
    with httpx.Client(trust_env=False, timeout=10.0) as http:
        first = _timed_get(http, emu.base_url + "/health")  # new connection: twice
        again = _timed_get(http, emu.base_url + "/health")  # kept alive: once
    assert first >= 0.2
    assert again >= 0.1


def test_distance_applies_to_token_requests(emu: Emulator) -> None:
    client_id, secret = emu.register_client("far", scopes="read")
    emu.knobs.distance_s = 0.05
    with httpx.Client(trust_env=False, timeout=10.0) as http:
        started = time.monotonic()
        response = http.post(
            emu.base_url + "/token",
            data={"grant_type": "client_credentials", "client_id": client_id,
                  "client_secret": secret},
        )  # fmt: skip
    assert response.status_code == 200
    assert time.monotonic() - started >= 0.05


def test_the_token_limit_is_on_by_default_as_gbrain_sets_it(emu: Emulator) -> None:
    """GBrain's default: 50 requests per 15 minutes per client address, then 429."""
    client_id, secret = emu.register_client("busy", scopes="read")
    form = {"grant_type": "client_credentials", "client_id": client_id, "client_secret": secret}
    with httpx.Client(trust_env=False, timeout=10.0) as http:
        answers = [http.post(emu.base_url + "/token", data=form) for _ in range(51)]
    assert [a.status_code for a in answers[:50]] == [200] * 50
    assert answers[0].headers["ratelimit-policy"] == "50;w=900"
    assert answers[49].headers["ratelimit-remaining"] == "0"
    limited = answers[50]
    assert limited.status_code == 429
    assert limited.json() == {
        "error": "too_many_requests",
        "error_description": "Rate limit exceeded. Try again later.",
    }
    assert 0 < int(limited.headers["retry-after"]) <= 900


def test_the_command_puts_the_brain_far_away() -> None:
    """``hermes-gbrain emulator --distance-ms 150``: every request waits 150 ms."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "hermes_gbrain.emulator", "--port", "0", "--distance-ms", "150"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip().partition("=")[2]
        assert url.endswith("/mcp")
        with httpx.Client(trust_env=False, timeout=10.0) as http:
            _timed_get(http, url.removesuffix("/mcp") + "/health")
            assert _timed_get(http, url.removesuffix("/mcp") + "/health") >= 0.15
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(10)


def test_the_command_refuses_a_bad_distance() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "hermes_gbrain.emulator", "--distance-ms", "far"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 2 and "milliseconds" in done.stderr
