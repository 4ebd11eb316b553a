"""Which Mnemosyne database a profile's provider reads (rules of mnemosyne-hermes 0.7.6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hermes_gbrain.commands.mnemosyne_path import (
    UncertainPath,
    bank_for,
    hermes_profile_name,
    resolve_mnemosyne_db,
    sanitize_bank_name,
)
from support import mnemosyne_standin as standin


def _resolve(home: Path, env: dict[str, str] | None = None, version: str = "0.7.6") -> Path:
    target = resolve_mnemosyne_db(
        home, (env or {}).get, provider_version=lambda: version, native_home=home.parent / "nh"
    )
    return target.db_path


def _config(home: Path, text: str) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.yaml").write_text(text, encoding="utf-8")


ISOLATED = "memory:\n  provider: mnemosyne\n  mnemosyne:\n    profile_isolation: true\n"


@pytest.mark.parametrize(
    ("relative", "expected"),
    [
        (".hermes", "default"),
        (".hermes/profiles/coder", "coder"),
        (".hermes/profiles/Bad Name", "custom"),
        (".hermes/elsewhere", "custom"),
        ("opt/data", "default"),
        ("opt/data/profiles/writer", "writer"),
    ],
)
def test_profile_name_follows_hermes(tmp_path: Path, relative: str, expected: str) -> None:
    assert hermes_profile_name(tmp_path / relative, native_home=tmp_path / ".hermes") == expected


def test_bank_names() -> None:
    assert sanitize_bank_name("My Profile!") == "my_profile"
    assert sanitize_bank_name("-x-") == "x" and sanitize_bank_name("__") == "default"
    assert bank_for("coder", Path("/h/profiles/coder")) == "coder"
    assert bank_for("default", Path("/opt/data")) == "data"  # the folder's name, as Mnemosyne
    assert bank_for("default", Path("/var/lib/example/.hermes")) == "default"


def test_default_profile_without_isolation(tmp_path: Path) -> None:
    home = tmp_path / "hermes-home"
    _config(home, "memory:\n  provider: mnemosyne\n")
    assert _resolve(home) == home / "mnemosyne" / "data" / "mnemosyne.db"


def test_named_profile_with_isolation_uses_its_bank(tmp_path: Path) -> None:
    home = tmp_path / "profiles" / "coder"
    _config(home, ISOLATED)
    expected = home.resolve() / "mnemosyne" / "data" / "banks" / "coder" / "mnemosyne.db"
    assert _resolve(home) == expected
    kwargs = {"hermes_home": str(home), "agent_identity": "coder"}
    assert standin.provider_db_path(**kwargs) == expected  # the stand-in provider agrees


def test_mnemosyne_data_dir_does_not_move_the_database(tmp_path: Path) -> None:
    home = tmp_path / "hermes-home"
    _config(home, "memory:\n  provider: mnemosyne\n")
    env = {"MNEMOSYNE_DATA_DIR": str(tmp_path / "elsewhere")}
    assert _resolve(home, env) == home / "mnemosyne" / "data" / "mnemosyne.db"


def test_isolation_from_mnemosyne_config_and_disagreement(tmp_path: Path) -> None:
    home = tmp_path / "profiles" / "coder"
    _config(home, "memory:\n  provider: mnemosyne\n")
    (home / "mnemosyne").mkdir()
    (home / "mnemosyne" / "config.yaml").write_text("profile_isolation: 'on'\n", "utf-8")
    assert "banks" in _resolve(home).parts
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "config.yaml").write_text("profile_isolation: false\n", "utf-8")
    with pytest.raises(UncertainPath) as caught:
        _resolve(home, {"MNEMOSYNE_DATA_DIR": str(elsewhere)})
    message = str(caught.value)
    assert str(home / "mnemosyne" / "data" / "mnemosyne.db") in message
    assert str(home.resolve() / "mnemosyne" / "data" / "banks" / "coder") in message
    _config(home, ISOLATED)  # the profile's own setting settles it
    assert "banks" in _resolve(home, {"MNEMOSYNE_DATA_DIR": str(elsewhere)}).parts


@pytest.mark.parametrize("version", [None, "0.8.0", "1.0"])
def test_an_unchecked_provider_is_not_guessed(tmp_path: Path, version: str | None) -> None:
    home = tmp_path / "hermes-home"
    _config(home, ISOLATED)
    with pytest.raises(UncertainPath, match="--mnemosyne-db") as caught:
        resolve_mnemosyne_db(home, {}.get, provider_version=lambda: version)
    assert "(profile isolation off)" in str(caught.value) and "bank hermes-home" in str(
        caught.value
    )
