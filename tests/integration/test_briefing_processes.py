"""Processes started together on one session id: exactly one of them briefs it.

Each process is a real Python process driving the ``gbrain`` provider through real
Hermes 0.19.0 (``MemoryManager``) for one turn of the same session, as ``hermes -z``
runs started together by a script would.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hermes_gbrain.commands.main import main
from hermes_gbrain.emulator import Emulator
from support.children import python_child
from support.hermes_cli import CLI_TEST_TIMEOUT_S
from support.hermes_home import HermesHome
from support.pointer_env import make_profile

pytestmark = [pytest.mark.hermes, pytest.mark.timeout(CLI_TEST_TIMEOUT_S)]

PROCESSES = 4
TESTS_DIR = Path(__file__).resolve().parents[1]
ONE_TURN = """
import re
import sys
from support.hermes_driver import MemoryManagerDriver, load_provider
print("ready", flush=True)
sys.stdin.readline()  # all processes start their turn together
with MemoryManagerDriver(load_provider("gbrain"), session_id="one-session") as driver:
    record = driver.turn("Who is Maya Okafor?")
briefing = re.search(r"^- .+ \\[[a-z]+:[a-z0-9/._-]+\\] \u2014 ", record.memory_context or "", re.M)
print("BRIEFED" if briefing else "NOT-BRIEFED", flush=True)
"""


def test_one_briefing_for_processes_started_together(
    hermes_home: HermesHome, emu: Emulator
) -> None:
    make_profile(hermes_home, emu, GBRAIN_BRIEFING="on")
    assert main(["digest", "--hermes-home", str(hermes_home.path), "--quiet"]) == 0
    # The brain answers a second late, well inside the briefing's budget: no process can
    # finish its briefing (and record the session as briefed) before the others decide,
    # so only the claim can keep them from briefing it too.
    emu.knobs.apply_delay_s = {"search": 1.0, "volunteer_context": 1.0}
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GBRAIN_", "MCP_GBRAIN"))}
    env["HERMES_HOME"] = str(hermes_home.path)
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS_DIR), env.get("PYTHONPATH", "")])
    processes = [python_child(ONE_TURN, env) for _ in range(PROCESSES)]
    outputs = []
    try:
        for process in processes:
            assert process.stdout is not None
            assert process.stdout.readline().strip() == "ready"
        for process in processes:
            assert process.stdin is not None
            process.stdin.write("go\n")
            process.stdin.flush()
        for process in processes:
            out, err = process.communicate(timeout=60)
            assert process.returncode == 0, err
            outputs.append(out.strip().splitlines()[-1])
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
    assert sorted(outputs) == ["BRIEFED"] + ["NOT-BRIEFED"] * (PROCESSES - 1)
