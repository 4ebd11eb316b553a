"""``hermes-gbrain doctor`` against the emulator: a wired profile passes; each broken link
fails on its own line, with its fix, and no secret is ever printed."""

from __future__ import annotations

import json
import shutil
import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from hermes_gbrain.commands.main import main
from hermes_gbrain.emulator import Emulator
from hermes_gbrain.files import data_dir
from hermes_gbrain.recall.digest import digest_path
from hermes_gbrain.toolbridge.discovery import load_discovery
from hermes_gbrain.toolbridge.outbox import DB_NAME, Outbox
from support.hermes_flavor import installed_hermes
from support.hermes_home import HermesHome

_CONNECTION = ("GBRAIN_MCP_URL", "GBRAIN_MCP_CLIENT_ID", "GBRAIN_MCP_CLIENT_SECRET")


@pytest.fixture(scope="module")
def wired_template(
    module_emulator: Emulator, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, dict[str, str]]:
    """One profile taken through ``setup --non-interactive`` from the environment; each
    test gets a copy (setup's own behaviour is tested in test_setup.py)."""
    home = tmp_path_factory.mktemp("wired") / "hermes-home"
    home.mkdir()
    env = module_emulator.client_env("doctor-wired", scopes="read")
    with pytest.MonkeyPatch.context() as patch:
        for name, value in env.items():
            patch.setenv(name, value)
        args = ["setup", "--non-interactive", "--hermes-home", str(home)]
        assert main(args) == 0
    return home, env


@pytest.fixture
def wired(
    hermes_home: HermesHome,
    wired_template: tuple[Path, dict[str, str]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> dict[str, str]:
    """A copy of the wired profile; only its ``.env`` configures it."""
    template, env = wired_template
    shutil.copytree(template, hermes_home.path, dirs_exist_ok=True)
    for name in _CONNECTION:
        monkeypatch.delenv(name, raising=False)
    capsys.readouterr()
    return env


def _doctor(home: HermesHome, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, list]]:
    code = main(["doctor", "--json", "--hermes-home", str(home.path)])
    report = json.loads(capsys.readouterr().out)
    by_name: dict[str, list] = {}
    for check in report["checks"]:
        by_name.setdefault(check["name"], []).append(check)
    assert report["ok"] is (code == 0)
    return code, by_name


def test_a_wired_profile_passes_and_the_cache_is_refreshed(
    hermes_home: HermesHome, wired: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, checks = _doctor(hermes_home, capsys)
    assert code == 0
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    documented = readme.split("each with `name` (", 1)[1].split(")", 1)[0]
    assert [f"`{name}`" for name in checks] == documented.split(", ")  # same names, same order
    statuses = {name: {c["status"] for c in found} for name, found in checks.items()}
    for name in ("settings", "url", "server", "token", "scopes", "tools", "memory", "plugin"):
        assert statuses[name] == {"pass"}, name
    for name in ("import", "digest", "cron", "outbox", "hermes", "mcp"):
        assert statuses[name] == {"pass"}, name
    assert statuses["search"] <= {"pass", "warn"}
    assert "GBRAIN_MCP_CLIENT_ID from .env" in checks["settings"][0]["detail"]
    installed = installed_hermes()
    assert installed is not None
    assert checks["hermes"][0]["detail"].startswith(" ".join(installed) + ";")
    cached = load_discovery(hermes_home.path)
    assert cached is not None and cached.scopes == ("read",)


def test_doctor_mints_afresh_even_when_the_profile_holds_a_shared_token(
    hermes_home: HermesHome,
    wired: dict[str, str],
    emu: Emulator,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Reaching /token and the secret being accepted are what the token step reports, so
    it never answers from the token file the profile's processes share."""
    assert list(data_dir(hermes_home.path).glob("token-*.json"))  # setup left one behind
    emu.clear_requests()
    code, checks = _doctor(hermes_home, capsys)
    assert code == 0
    assert emu.token_requests >= 1
    assert checks["token"][0]["detail"].startswith("minted")


def _set_env(home: HermesHome, **changes: str) -> None:
    env = home.read_env()
    env.update(changes)
    home.write_env(env)


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


BREAKAGES: dict[str, tuple[str, Callable[[HermesHome, Emulator], None], str]] = {
    "wrong secret": (
        "token",
        lambda home, emu: _set_env(home, GBRAIN_MCP_CLIENT_SECRET="gbrain_cs_" + "0" * 64),
        "grant-help",
    ),
    "read-only client with GBRAIN_TOOLS=write": (
        "scopes",
        lambda home, emu: _set_env(home, GBRAIN_TOOLS="write"),
        "--scopes read write",
    ),
    "missing plugin folder": (
        "plugin",
        lambda home, emu: shutil.rmtree(home.plugin_dir("gbrain")),
        "hermes-gbrain install --name gbrain",
    ),
    "memory.provider unset": (
        "memory",
        lambda home, emu: home.write_config(""),
        "hermes config set memory.provider gbrain",
    ),
    "missing digest": (
        "digest",
        lambda home, emu: digest_path(home.path).unlink(),
        "hermes-gbrain digest",
    ),
    "server down": (
        "server",
        lambda home, emu: _set_env(home, GBRAIN_MCP_URL=f"http://127.0.0.1:{_closed_port()}/mcp"),
        "gbrain serve --http",
    ),
    "http to a remote host": (
        "url",
        lambda home, emu: _set_env(home, GBRAIN_MCP_URL="http://brain.example.com/mcp"),
        "GBRAIN_POINTER_ALLOW_HTTP=1",
    ),
}


@pytest.mark.parametrize("breakage", list(BREAKAGES))
def test_each_broken_link_fails_with_its_fix_and_no_secret(
    breakage: str,
    hermes_home: HermesHome,
    emu: Emulator,
    wired: dict[str, str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    check, breaks, fix = BREAKAGES[breakage]
    breaks(hermes_home, emu)
    code, checks = _doctor(hermes_home, capsys)
    assert code == 1
    failed = [c for c in checks[check] if c["status"] == "fail"]
    assert failed, checks[check]
    assert fix in failed[0]["fix"]
    assert wired["GBRAIN_MCP_CLIENT_SECRET"] not in json.dumps(checks)
    if breakage == "wrong secret":  # the text report names the same fix, and no secret
        assert main(["doctor", "--hermes-home", str(hermes_home.path)]) == 1
        text = capsys.readouterr().out
        assert f"fail  {check}" in text and fix in text
        assert "gbrain_cs_" not in text


def test_outbox_failures_and_gbrain_as_an_mcp_server_are_shown(
    hermes_home: HermesHome,
    emu: Emulator,
    wired: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    outbox = Outbox(data_dir(hermes_home.path) / DB_NAME)
    entry, _ = outbox.enqueue(emu.mcp_url, "notes/x", "# X\n")
    assert outbox.claim(entry.op_id)
    outbox.failed(entry.op_id, "server refused the write (insufficient_scope)")
    outbox.enqueue(emu.mcp_url, "notes/y", "# Y\n")
    kept, _ = outbox.enqueue(emu.mcp_url, "notes/z", "# Z\n")
    assert outbox.claim(kept.op_id)
    outbox.superseded(kept.op_id, "the page changed after this write was queued")
    outbox.close()
    hermes_home.write_config(
        "gbrain", extra={"mcp_servers": {"brain": {"url": wired["GBRAIN_MCP_URL"]}}}
    )
    _set_env(hermes_home, GBRAIN_TOOLS="read")
    hermes_home.env_path.chmod(0o644)
    monkeypatch.setenv("GBRAIN_TOOLS", "off")  # Hermes would use the .env value instead
    code, checks = _doctor(hermes_home, capsys)
    assert code == 0  # warnings only
    warned = [c for c in checks["settings"] if c["status"] == "warn"]
    assert any("chmod 600" in c["fix"] for c in warned)
    assert any(c["detail"].startswith("GBRAIN_TOOLS differ") for c in warned)
    lines = [c["detail"] for c in checks["outbox"]]
    assert "1 pending, 0 inflight, 0 delivered, 1 failed, 1 superseded" in lines[0]
    assert any(f"failed {entry.op_id} notes/x" in line for line in lines)
    assert any(f"superseded {kept.op_id} notes/z" in line for line in lines)
    assert not any("# X" in line or "# Z" in line for line in lines)
    assert checks["mcp"][0]["status"] == "warn"
    assert checks["mcp"][0]["fix"] == "`hermes mcp remove brain`"


def test_a_credential_that_cannot_be_sent_fails_at_settings_without_echoing_it(
    hermes_home: HermesHome, wired: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    bad = "gbrain_cs_\u201cquoted\u201d"
    _set_env(hermes_home, GBRAIN_MCP_CLIENT_SECRET=bad)
    code, checks = _doctor(hermes_home, capsys)
    assert code == 1
    failed = [c for c in checks["settings"] if c["status"] == "fail"]
    assert "GBRAIN_MCP_CLIENT_SECRET" in failed[0]["detail"] and "server" not in checks
    assert "quoted" not in json.dumps(checks)
