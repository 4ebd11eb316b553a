"""``update_dotenv``: setup's writer for a profile's ``.env`` keeps everything else."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from hermes_gbrain.commands.setup import update_dotenv
from hermes_gbrain.errors import ConfigError
from hermes_gbrain.settings import read_dotenv


def test_sets_and_removes_only_its_keys_and_keeps_the_rest(tmp_path: Path) -> None:
    path = tmp_path / ".env"
    path.write_text(
        "# my keys\nOPENAI_API_KEY=sk-1\nexport GBRAIN_MCP_URL=http://old/mcp\n"
        "GBRAIN_MCP_ACCESS_TOKEN=stale\nGBRAIN_MCP_URL=http://dup/mcp\n",
        encoding="utf-8",
    )
    path.chmod(0o644)
    values = {"GBRAIN_MCP_URL": "http://127.0.0.1:3131/mcp", "GBRAIN_MCP_CLIENT_ID": "id1"}
    assert update_dotenv(path, values, ("GBRAIN_MCP_ACCESS_TOKEN",))
    assert path.read_text(encoding="utf-8") == (
        "# my keys\nOPENAI_API_KEY=sk-1\nGBRAIN_MCP_URL=http://127.0.0.1:3131/mcp\n"
        "GBRAIN_MCP_CLIENT_ID=id1\n"
    )
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert not update_dotenv(path, values, ("GBRAIN_MCP_ACCESS_TOKEN",))  # nothing to do
    assert read_dotenv(path)["OPENAI_API_KEY"] == "sk-1"


@pytest.mark.parametrize("value", ["", "a b", "a#b", 'a"b', "a\nB=c", "$(x)"])
def test_refuses_values_a_dotenv_cannot_hold_plainly(tmp_path: Path, value: str) -> None:
    path = tmp_path / ".env"
    with pytest.raises(ConfigError) as info:
        update_dotenv(path, {"GBRAIN_MCP_CLIENT_SECRET": value})
    assert "GBRAIN_MCP_CLIENT_SECRET" in str(info.value)
    assert value not in str(info.value) or not value
    assert not path.exists()


def test_leaves_a_file_it_cannot_read_as_text_alone(tmp_path: Path) -> None:
    path = tmp_path / ".env"
    path.write_bytes(b"KEY=\xff\xfe\n")
    with pytest.raises(ConfigError):
        update_dotenv(path, {"GBRAIN_MCP_URL": "http://127.0.0.1:3131/mcp"})
    assert path.read_bytes() == b"KEY=\xff\xfe\n"
