"""``hermes-gbrain`` commands read settings like the provider: environment, then ``.env``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from hermes_gbrain.commands.main import main
from hermes_gbrain.emulator import Emulator

_SETTINGS = (
    "GBRAIN_MCP_URL",
    "GBRAIN_MCP_CLIENT_ID",
    "GBRAIN_MCP_CLIENT_SECRET",
    "GBRAIN_MCP_ACCESS_TOKEN",
    "GBRAIN_POINTER_SOURCE",
    "HERMES_HOME",
)


@pytest.fixture
def emu(monkeypatch: pytest.MonkeyPatch) -> Iterator[Emulator]:
    for name in _SETTINGS:
        monkeypatch.delenv(name, raising=False)
    with Emulator() as server:
        yield server


def _dotenv(home: Path, emu: Emulator, **extra: str) -> str:
    values = {
        **emu.client_env("cli", scopes="read"),
        **extra,
    }
    home.mkdir(parents=True, exist_ok=True)
    (home / ".env").write_text("".join(f"{k}={v}\n" for k, v in values.items()))
    return values["GBRAIN_MCP_CLIENT_SECRET"]


def test_search_reads_the_profile_dotenv(
    emu: Emulator, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = _dotenv(tmp_path, emu)
    assert main(["search", "Driftwood Sync", "--hermes-home", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert "[default:projects/driftwood-sync] Driftwood Sync" in out
    assert secret not in out + err


def test_search_defaults_to_hermes_home(
    emu: Emulator,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _dotenv(tmp_path, emu)
    monkeypatch.setenv("HERMES_HOME", str(tmp_path))
    assert main(["search", "Driftwood Sync", "--limit", "1"]) == 0
    assert capsys.readouterr().out.count("\n") == 1


def test_environment_wins_over_dotenv(
    emu: Emulator,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _dotenv(tmp_path, emu)
    with Emulator(seed=False) as empty:
        monkeypatch.setenv("GBRAIN_MCP_URL", empty.mcp_url)
        # the .env client is unknown to the empty emulator: the environment's URL was used
        assert main(["search", "Driftwood", "--hermes-home", str(tmp_path)]) == 1
        assert [r.path for r in empty.requests] == ["/token"]
    assert "token request failed with HTTP 400 (invalid_grant)" in capsys.readouterr().err
    assert emu.requests == []


def test_bad_configuration_is_one_line_and_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in _SETTINGS:
        monkeypatch.delenv(name, raising=False)
    (tmp_path / ".env").write_text("GBRAIN_MCP_URL=http://brain.example.com/mcp\n")
    assert main(["search", "x", "--hermes-home", str(tmp_path)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("hermes-gbrain search: plain http is allowed only to loopback")
    assert "\n" not in err


def test_emulator_command_hands_its_flags_over(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["emulator", "--help"])
    assert info.value.code == 0
    assert "--write-client" in capsys.readouterr().out


@pytest.mark.parametrize("limit", ["0", "-3", "51", "x"])
def test_search_limit_is_validated(
    limit: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(["search", "x", "--limit", limit, "--hermes-home", str(tmp_path)])
    assert info.value.code == 2
    assert "--limit" in capsys.readouterr().err


def test_search_unknown_source_keeps_the_servers_hint_sanitised(
    emu: Emulator, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _dotenv(tmp_path, emu)
    args = ["search", "Maya", "--source", "nope", "--hermes-home", str(tmp_path)]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "permission_denied" in err
    assert "server says: Readable sources: default" in err
    # server text is untrusted: shown as printable single lines only
    assert all(line.isprintable() for line in err.splitlines())


def test_digest_flags_that_would_be_ignored_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(["digest", "--max-chars", "10", "--hermes-home", str(tmp_path)])
    assert info.value.code == 2
    assert "--max-chars: must be from 80 to 2000, not 10" in capsys.readouterr().err
    assert main(["digest", "--every", "1h", "--hermes-home", str(tmp_path)]) == 2
    assert "--every only applies with --install-cron" in capsys.readouterr().err
