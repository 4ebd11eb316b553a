"""``hermes-gbrain doctor`` against the emulator: every check, exit status, no secrets."""

from __future__ import annotations

import pytest

from hermes_gbrain.commands.main import main
from hermes_gbrain.emulator import Emulator
from hermes_gbrain.files import data_dir
from hermes_gbrain.toolbridge.discovery import load_discovery
from hermes_gbrain.toolbridge.outbox import DB_NAME, Outbox
from support.hermes_home import HermesHome


def _env(home: HermesHome, emu: Emulator, scopes: str, **extra: str) -> str:
    env = emu.client_env(f"doctor-{home.path.name}-{scopes}", scopes=scopes)
    home.write_env({**env, "GBRAIN_POINTER_ALLOW_HTTP": "1", **extra})
    return env["GBRAIN_MCP_CLIENT_SECRET"]


def test_doctor_all_good_refreshes_the_cache(
    hermes_home: HermesHome, emu: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = _env(hermes_home, emu, "read")
    assert main(["doctor", "--hermes-home", str(hermes_home.path)]) == 0
    out = capsys.readouterr().out
    assert "ok  connect" in out and "ok  scopes      read" in out
    assert "refreshed gbrain/discovery.json" in out
    assert "search" in out and "degraded: embed_unavailable" in out
    assert "doctor: all good" in out and secret not in out
    cached = load_discovery(hermes_home.path)
    assert cached is not None and cached.scopes == ("read",)


def test_doctor_fails_on_write_mode_with_a_read_token_and_shows_outbox_failures(
    hermes_home: HermesHome, emu: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    _env(hermes_home, emu, "read", GBRAIN_TOOLS="write")
    outbox = Outbox(data_dir(hermes_home.path) / DB_NAME)
    entry, _ = outbox.enqueue(emu.mcp_url, "notes/x", "# X\n")
    assert outbox.claim(entry.op_id)
    outbox.failed(entry.op_id, "server refused the write (insufficient_scope)")
    outbox.enqueue(emu.mcp_url, "notes/y", "# Y\n")
    kept, _ = outbox.enqueue(emu.mcp_url, "notes/z", "# Z\n")
    assert outbox.claim(kept.op_id)
    outbox.superseded(kept.op_id, "the page changed after this write was queued")
    outbox.close()
    assert main(["doctor", "--hermes-home", str(hermes_home.path)]) == 1
    out = capsys.readouterr().out
    assert "FAIL  scopes" in out
    assert "1 queued, 0 in flight, 0 delivered, 1 failed, 1 superseded" in out
    assert f"failed {entry.op_id} notes/x" in out
    assert f"superseded {kept.op_id} notes/z" in out
    assert "# X" not in out and "# Z" not in out


def test_doctor_fails_without_config_or_connection(
    hermes_home: HermesHome, emu: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    hermes_home.write_env({"GBRAIN_MCP_URL": "http://203.0.113.9/mcp"})
    assert main(["doctor", "--hermes-home", str(hermes_home.path)]) == 1
    assert "FAIL  config" in capsys.readouterr().out
    _env(hermes_home, emu, "read")
    emu.knobs.status = 503
    assert main(["doctor", "--hermes-home", str(hermes_home.path)]) == 1
    assert "FAIL  connect     MCP request failed with HTTP 503" in capsys.readouterr().out
