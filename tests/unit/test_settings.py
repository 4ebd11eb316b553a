"""Settings: read through a lookup, frozen, clamped, explained by ``problem()``, and quiet
about secrets. Nothing here may read ``os.environ`` behind the caller's back."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from hermes_gbrain.errors import ConfigError
from hermes_gbrain.settings import (
    DEFAULT_MCP_URL,
    MAX_DOTENV_BYTES,
    Settings,
    cli_lookup,
    default_hermes_home,
    load_settings,
    read_dotenv,
    read_legacy_json,
)

SECRET = "s3cr3t-client-secret"
TOKEN = "gbrain_" + "f" * 64


def load(values: dict[str, str], home: str = "/h") -> Settings:
    return load_settings(values.get, hermes_home=home)


def test_defaults_when_nothing_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GBRAIN_MCP_ACCESS_TOKEN", TOKEN)  # must be ignored: lookup only
    settings = load({})
    assert settings.mcp_url == DEFAULT_MCP_URL
    assert settings.hermes_home == "/h"
    assert (settings.client_id, settings.client_secret, settings.access_token) == (None,) * 3
    assert settings.allow_http is False
    assert settings.source is None
    assert settings.pointer_limit == 3
    assert settings.auth_mode == "none"


def test_values_are_read_and_trimmed(tmp_path: Path) -> None:
    settings = load_settings(
        {
            "GBRAIN_MCP_URL": "  https://brain.example.com/mcp ",
            "GBRAIN_MCP_CLIENT_ID": " id ",
            "GBRAIN_MCP_CLIENT_SECRET": f" {SECRET}\n",
            "GBRAIN_POINTER_SOURCE": " notes ",
            "GBRAIN_POINTER_ALLOW_HTTP": "yes",
            "GBRAIN_POINTER_LIMIT": " 5 ",
        }.get,
        hermes_home=tmp_path,
    )
    assert settings.hermes_home == str(tmp_path)
    assert settings.mcp_url == "https://brain.example.com/mcp"
    assert (settings.client_id, settings.client_secret) == ("id", SECRET)
    assert settings.source == "notes"
    assert settings.allow_http is True
    assert settings.pointer_limit == 5
    assert settings.auth_mode == "oauth"
    assert settings.problem() is None


def test_blank_values_count_as_unset() -> None:
    settings = load(
        {"GBRAIN_MCP_URL": "  ", "GBRAIN_MCP_ACCESS_TOKEN": "", "GBRAIN_POINTER_SOURCE": " "}
    )
    assert settings.mcp_url == DEFAULT_MCP_URL
    assert settings.access_token is None
    assert settings.source is None


@pytest.mark.parametrize(
    ("raw", "limit"),
    [
        (None, 3),
        ("", 3),
        ("junk", 3),
        ("2.5", 3),
        ("0", 1),
        ("-4", 1),
        ("1", 1),
        ("10", 10),
        ("99", 10),
        ("7", 7),
    ],
)
def test_pointer_limit_junk_falls_back_and_numbers_clamp(raw: str | None, limit: int) -> None:
    values = {} if raw is None else {"GBRAIN_POINTER_LIMIT": raw}
    assert load(values).pointer_limit == limit


@pytest.mark.parametrize(
    ("raw", "allowed"),
    [
        ("1", True),
        ("TRUE", True),
        (" on ", True),
        ("yes", True),
        ("0", False),
        ("no", False),
        ("", False),
        ("maybe", False),
    ],
)
def test_allow_http_flag(raw: str, allowed: bool) -> None:
    assert load({"GBRAIN_POINTER_ALLOW_HTTP": raw}).allow_http is allowed


def test_static_token_wins_over_client_credentials() -> None:
    settings = load(
        {
            "GBRAIN_MCP_ACCESS_TOKEN": TOKEN,
            "GBRAIN_MCP_CLIENT_ID": "id",
            "GBRAIN_MCP_CLIENT_SECRET": SECRET,
        }
    )
    assert settings.auth_mode == "token"
    assert settings.problem() is None


def test_problem_missing_credentials() -> None:
    problem = load({}).problem()
    assert problem is not None
    assert "GBRAIN_MCP_CLIENT_ID" in problem and "GBRAIN_MCP_ACCESS_TOKEN" in problem


@pytest.mark.parametrize(
    "values",
    [{"GBRAIN_MCP_CLIENT_ID": "id"}, {"GBRAIN_MCP_CLIENT_SECRET": SECRET}],
)
def test_problem_half_credentials(values: dict[str, str]) -> None:
    problem = load(values).problem()
    assert problem == "GBRAIN_MCP_CLIENT_ID and GBRAIN_MCP_CLIENT_SECRET must be set together"
    assert SECRET not in problem


@pytest.mark.parametrize(
    ("url", "fragment"),
    [
        ("http://brain.example.com/mcp", "loopback"),
        ("https://brain.example.com/", "must end with /mcp"),
        ("https://u:p@brain.example.com/mcp", "credentials"),
        ("gopher://x/mcp", "http or https"),
    ],
)
def test_problem_bad_url_comes_first(url: str, fragment: str) -> None:
    settings = load({"GBRAIN_MCP_URL": url, "GBRAIN_MCP_ACCESS_TOKEN": TOKEN})
    problem = settings.problem()
    assert problem is not None and fragment in problem
    with pytest.raises(ConfigError):
        settings.endpoint  # noqa: B018


def test_allow_http_makes_a_remote_http_url_acceptable() -> None:
    settings = load(
        {
            "GBRAIN_MCP_URL": "http://brain.lan/mcp",
            "GBRAIN_POINTER_ALLOW_HTTP": "1",
            "GBRAIN_MCP_ACCESS_TOKEN": TOKEN,
        }
    )
    assert settings.problem() is None
    assert settings.endpoint.token_url == "http://brain.lan/token"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("GBRAIN_MCP_ACCESS_TOKEN", "abc\x07def"),
        ("GBRAIN_MCP_ACCESS_TOKEN", "gbrain_at_caf\u00e9"),
        ("GBRAIN_MCP_ACCESS_TOKEN", "gbrain_at_\u201cquoted\u201d"),
        ("GBRAIN_MCP_ACCESS_TOKEN", "two words"),
        ("MCP_GBRAIN_API_KEY", "key\u00a0nbsp"),
        ("GBRAIN_MCP_CLIENT_SECRET", "gbrain_cs_\u00ff"),
        ("GBRAIN_MCP_CLIENT_ID", "gbrain_cl_\u200bzw"),
    ],
)
def test_problem_credential_that_is_not_visible_ascii(name: str, value: str) -> None:
    """A header cannot carry it: refused up front, in words that never show the value."""
    env = {name: value}
    if name == "GBRAIN_MCP_CLIENT_SECRET":
        env["GBRAIN_MCP_CLIENT_ID"] = "gbrain_cl_ok"
    if name == "GBRAIN_MCP_CLIENT_ID":
        env["GBRAIN_MCP_CLIENT_SECRET"] = "gbrain_cs_ok"
    problem = load(env).problem()
    assert problem is not None and "not visible ASCII" in problem
    assert value not in problem
    assert not any(ch in problem for ch in value if not ch.isascii())
    assert name in problem  # says which setting to fix


def test_repr_hides_secrets_and_shows_what_helps() -> None:
    settings = load({"GBRAIN_MCP_CLIENT_ID": "my-client", "GBRAIN_MCP_CLIENT_SECRET": SECRET})
    text = repr(settings)
    assert SECRET not in text
    assert "auth='oauth'" in text and DEFAULT_MCP_URL in text
    token_settings = load({"GBRAIN_MCP_ACCESS_TOKEN": TOKEN})
    assert TOKEN not in repr(token_settings)
    assert TOKEN not in str(token_settings)
    assert TOKEN not in f"{token_settings!r} {[token_settings]}"


def test_settings_are_frozen() -> None:
    settings = load({})
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.mcp_url = "http://evil/mcp"  # type: ignore[misc]


# --- .env --------------------------------------------------------------------------------


def write(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / ".env"
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    return path


def test_read_dotenv_missing_file_is_empty(tmp_path: Path) -> None:
    assert read_dotenv(tmp_path / "nope.env") == {}


def test_read_dotenv_syntax(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "# a comment\n"
        "\n"
        "PLAIN=value\n"
        "export EXPORTED=yes\n"
        "  SPACED  =  padded  \n"
        'DOUBLE="with spaces # not a comment"\n'
        "SINGLE='single quoted'\n"
        "INLINE=value # trailing comment\n"
        "HASH=abc#def\n"
        "EQUALS=a=b=c\n"
        "EMPTY=\n"
        'EMPTY_QUOTED=""\n'
        "no equals sign here\n"
        "BAD KEY=x\n"
        "=novalue\n"
        "VAR=$HOME/$(whoami)\n"
        "CRLF=windows\r\n"
        "DUP=first\n"
        "DUP=second\n",
    )
    assert read_dotenv(path) == {
        "PLAIN": "value",
        "EXPORTED": "yes",
        "SPACED": "padded",
        "DOUBLE": "with spaces # not a comment",
        "SINGLE": "single quoted",
        "INLINE": "value",
        "HASH": "abc#def",
        "EQUALS": "a=b=c",
        "EMPTY": "",
        "EMPTY_QUOTED": "",
        "VAR": "$HOME/$(whoami)",
        "CRLF": "windows",
        "DUP": "second",
    }


def test_read_dotenv_quoted_value_with_trailing_comment(tmp_path: Path) -> None:
    """``KEY="v" # note`` is common in hand-written .env files; the quotes are not the value."""
    path = write(tmp_path, 'A="quoted" # note\nB=\'single\'   # note\nC="keep # this"  # note\n')
    assert read_dotenv(path) == {"A": "quoted", "B": "single", "C": "keep # this"}


def test_read_dotenv_only_cr_and_lf_end_lines(tmp_path: Path) -> None:
    """A value with U+2028 or U+0085 in it is one value, not two lines."""
    path = write(tmp_path, "A=left\u2028right\nB=x\x85y\rC=z\n")
    assert read_dotenv(path) == {"A": "left\u2028right", "B": "x\x85y", "C": "z"}


def test_read_dotenv_bad_utf8_is_replaced(tmp_path: Path) -> None:
    assert read_dotenv(write(tmp_path, b"A=\xff\n")) == {"A": "\ufffd"}


def test_read_dotenv_over_the_size_limit_is_a_config_error(tmp_path: Path) -> None:
    path = write(tmp_path, b"A=" + b"x" * MAX_DOTENV_BYTES)
    with pytest.raises(ConfigError, match="larger than 1 MiB"):
        read_dotenv(path)


def test_cli_lookup_prefers_the_environment_then_the_dotenv(tmp_path: Path) -> None:
    write(
        tmp_path,
        "GBRAIN_MCP_URL=https://from-dotenv/mcp\nGBRAIN_POINTER_SOURCE=dotenv\n"
        "GBRAIN_MCP_CLIENT_ID=dotenv-id\n",
    )
    lookup = cli_lookup(
        tmp_path,
        {"GBRAIN_MCP_URL": "https://from-env/mcp", "GBRAIN_MCP_CLIENT_ID": "   "},
    )
    assert lookup("GBRAIN_MCP_URL") == "https://from-env/mcp"
    assert lookup("GBRAIN_POINTER_SOURCE") == "dotenv"
    assert lookup("GBRAIN_MCP_CLIENT_ID") == "dotenv-id"  # a blank env value does not hide it
    assert lookup("GBRAIN_MCP_ACCESS_TOKEN") is None


def test_cli_lookup_uses_os_environ_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GBRAIN_POINTER_SOURCE", "from-os")
    assert cli_lookup(tmp_path)("GBRAIN_POINTER_SOURCE") == "from-os"


def test_cli_lookup_snapshot_is_taken_once(tmp_path: Path) -> None:
    """Later changes to the environment mapping do not leak into a lookup already made."""
    env = {"GBRAIN_POINTER_SOURCE": "before"}
    lookup = cli_lookup(tmp_path, env)
    env["GBRAIN_POINTER_SOURCE"] = "after"
    assert lookup("GBRAIN_POINTER_SOURCE") == "before"


def test_load_settings_through_cli_lookup(tmp_path: Path) -> None:
    write(tmp_path, f"GBRAIN_MCP_CLIENT_ID=id\nGBRAIN_MCP_CLIENT_SECRET='{SECRET}'\n")
    settings = load_settings(cli_lookup(tmp_path, {}), hermes_home=tmp_path)
    assert settings.client_secret == SECRET
    assert settings.problem() is None


def test_default_hermes_home(tmp_path: Path) -> None:
    assert default_hermes_home({"HERMES_HOME": str(tmp_path)}) == tmp_path
    assert default_hermes_home({"HERMES_HOME": "  "}) == Path.home() / ".hermes"
    assert default_hermes_home({}) == Path.home() / ".hermes"
    assert default_hermes_home({"HERMES_HOME": "~/x"}) == Path.home() / "x"


# -- tools and legacy settings ----------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "mode"), [(None, "read"), ("WRITE", "write"), (" off ", "off"), ("junk", "read")]
)
def test_tools_mode_defaults_to_read(raw: str | None, mode: str) -> None:
    values = {"GBRAIN_TOOLS": raw} if raw is not None else {}
    assert load(values).tools == mode
    assert load({"GBRAIN_TOOLS_EXPOSE": "ALL"}).tools_expose == "all"
    assert load({"GBRAIN_TOOLS_EXPOSE": "some"}).tools_expose == "compact"


def test_legacy_env_names_are_lower_precedence(tmp_path: Path) -> None:
    legacy = {"MCP_GBRAIN_URL": "https://old.example.com/mcp", "MCP_GBRAIN_API_KEY": TOKEN}
    old = load_settings(legacy.get, hermes_home=tmp_path)
    assert (old.mcp_url, old.access_token, old.auth_mode) == (
        legacy["MCP_GBRAIN_URL"],
        TOKEN,
        "token",
    )
    new = load_settings(
        {
            **legacy,
            "GBRAIN_MCP_URL": "https://new.example.com/mcp",
            "GBRAIN_MCP_CLIENT_ID": "cid",
            "GBRAIN_MCP_CLIENT_SECRET": "secret",
        }.get,
        hermes_home=tmp_path,
    )
    assert new.mcp_url == "https://new.example.com/mcp"
    assert (new.access_token, new.auth_mode) == (None, "oauth")  # the old key never wins


def test_legacy_json_file(tmp_path: Path) -> None:
    (tmp_path / "gbrain_memory.json").write_text(
        '{"url": "https://file.example.com/mcp", "api_token": "from-file", "timeout": 7}'
    )
    settings = load_settings({}.get, hermes_home=tmp_path)
    assert settings.mcp_url == "https://file.example.com/mcp"
    assert settings.access_token == "from-file" and settings.timeout_s == 7.0
    assert "from-file" not in repr(settings)
    env = load_settings({"MCP_GBRAIN_URL": "https://env.example.com/mcp"}.get, hermes_home=tmp_path)
    assert env.mcp_url == "https://env.example.com/mcp"
    (tmp_path / "gbrain_memory.json").write_text("{broken")
    broken = load_settings({}.get, hermes_home=tmp_path)
    assert broken.mcp_url == DEFAULT_MCP_URL and broken.access_token is None
    assert read_legacy_json(tmp_path)[1] == "gbrain_memory.json is not valid JSON"
    (tmp_path / "gbrain_memory.json").write_text('{"timeout": true}')
    assert load_settings({}.get, hermes_home=tmp_path).timeout_s is None
