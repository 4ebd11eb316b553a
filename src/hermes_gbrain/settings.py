"""Profile-scoped configuration, read once on the caller's thread and then frozen.

In a multiplexed Hermes gateway a profile's secrets live in a context variable that
background threads do not see, so settings are read where the scope is bound (the
provider's ``initialize``, a hook, a CLI command) into an immutable ``Settings`` that
everything else receives. Nothing here reads ``os.environ`` on its own: the caller
passes the lookup function that is right for its thread.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .errors import ConfigError
from .urls import Endpoint, parse_endpoint

__all__ = [
    "DEFAULT_MCP_URL",
    "HOME_FIX",
    "LEGACY_JSON",
    "TOOL_MODES",
    "Lookup",
    "Settings",
    "UnreadableSettings",
    "clamped_float",
    "clamped_int",
    "cli_lookup",
    "default_hermes_home",
    "flag_not_off",
    "flag_on",
    "home_problem",
    "load_settings",
    "read_dotenv",
    "read_legacy_json",
]

DEFAULT_MCP_URL = "http://127.0.0.1:3131/mcp"
DEFAULT_POINTER_LIMIT = 3
MAX_DOTENV_BYTES = 1_048_576
LEGACY_JSON = "gbrain_memory.json"
"""Older plugin config in the profile home: ``url``, ``api_token``, ``timeout``."""
MAX_LEGACY_JSON_BYTES = 65_536
TOOL_MODES = ("read", "write", "admin", "off")
TOOL_EXPOSURES = ("compact", "all")
WRITEBACK_MODES = ("off", "memory")

Lookup = Callable[[str], str | None]
"""Returns the value of a setting by name, or None when it is not set."""

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


def flag_on(value: str | None) -> bool:
    """An opt-in switch: on only for 1/true/yes/on (any case)."""
    return value is not None and value.strip().lower() in _TRUE


def flag_not_off(value: str | None) -> bool:
    """A default-on switch: off only for 0/false/no/off (any case); unset means on."""
    return (value or "").strip().lower() not in _FALSE


def clamped_int(value: str | None, default: int, low: int, high: int) -> int:
    """Junk falls back to the default; numbers outside the range are clamped."""
    try:
        number = int((value or "").strip())
    except ValueError:
        return default
    return max(low, min(high, number))


def clamped_float(value: str | None, default: float, low: float, high: float) -> float:
    """Like ``clamped_int`` for decimals; NaN is junk too."""
    try:
        number = float((value or "").strip())
    except ValueError:
        return default
    return default if math.isnan(number) else max(low, min(high, number))


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything a connection needs, validated; secrets hidden from ``repr``."""

    hermes_home: str
    mcp_url: str = DEFAULT_MCP_URL
    client_id: str | None = None
    client_secret: str | None = field(default=None, repr=False)
    access_token: str | None = field(default=None, repr=False)
    allow_http: bool = False
    source: str | None = None
    pointer_limit: int = DEFAULT_POINTER_LIMIT
    tools: str = "read"
    tools_expose: str = "compact"
    timeout_s: float | None = None
    writeback: str = "off"
    """``memory``: Hermes' memory-tool writes become GBrain facts (``GBRAIN_WRITEBACK``)."""
    writeback_retire: bool = False
    """Retire (``forget``) the fact of a replaced or removed entry (``GBRAIN_WRITEBACK_RETIRE``)."""
    writeback_user_entity: str | None = None
    """The GBrain entity facts about the user are filed under (``GBRAIN_WRITEBACK_USER_ENTITY``)."""

    def __repr__(self) -> str:
        return (
            f"Settings(hermes_home={self.hermes_home!r}, mcp_url={self.mcp_url!r}, "
            f"auth={self.auth_mode!r}, source={self.source!r}, "
            f"pointer_limit={self.pointer_limit}, tools={self.tools!r}, "
            f"writeback={self.writeback!r})"
        )

    @property
    def auth_mode(self) -> str:
        """``token`` (static bearer), ``oauth`` (client credentials) or ``none``."""
        if self.access_token:
            return "token"
        if self.client_id and self.client_secret:
            return "oauth"
        return "none"

    @property
    def endpoint(self) -> Endpoint:
        """The validated MCP and token URLs (raises ``ConfigError``)."""
        return parse_endpoint(self.mcp_url, allow_http=self.allow_http)

    def problem(self) -> str | None:
        """Why these settings cannot work, in one line, or None when they can."""
        try:
            self.endpoint  # noqa: B018 - validation happens in the property
        except ConfigError as exc:
            return str(exc)
        if self.auth_mode == "none":
            if self.client_id or self.client_secret:
                return "GBRAIN_MCP_CLIENT_ID and GBRAIN_MCP_CLIENT_SECRET must be set together"
            return (
                "no GBrain credential: set GBRAIN_MCP_CLIENT_ID and GBRAIN_MCP_CLIENT_SECRET, "
                "or GBRAIN_MCP_ACCESS_TOKEN"
            )
        for label, value in (
            ("the client id (GBRAIN_MCP_CLIENT_ID)", self.client_id),
            ("the client secret (GBRAIN_MCP_CLIENT_SECRET)", self.client_secret),
            ("the access token (GBRAIN_MCP_ACCESS_TOKEN or MCP_GBRAIN_API_KEY)", self.access_token),
        ):
            if value is not None and not _visible_ascii(value):
                # Never the value, nor where in it the odd character sits.
                return (
                    f"{label} has a character that is not visible ASCII (a space, control "
                    "character, smart quote or other non-ASCII letter); copy it again"
                )
        return None


def _visible_ascii(value: str) -> bool:
    """0x21-0x7E only: GBrain's credentials are, and a header cannot carry more."""
    return value.isascii() and value.isprintable() and " " not in value


def _clean(value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip()
    return value or None


def _choice(value: str | None, choices: tuple[str, ...]) -> str:
    """A known choice, case-insensitive; junk falls back to the first (safest) one."""
    value = (value or "").strip().lower()
    return value if value in choices else choices[0]


def read_legacy_json(hermes_home: str | os.PathLike[str]) -> tuple[dict[str, object], str | None]:
    """``$HERMES_HOME/gbrain_memory.json`` as a dict, and why it was ignored (if it was).

    Missing file → ``({}, None)``. A broken file is ignored rather than fatal: the
    newer variables may configure everything, and ``doctor`` shows the reason.
    """
    path = Path(hermes_home) / LEGACY_JSON
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_LEGACY_JSON_BYTES + 1)
    except FileNotFoundError:
        return {}, None
    except OSError as exc:
        return {}, f"{LEGACY_JSON} could not be read ({type(exc).__name__})"
    if len(raw) > MAX_LEGACY_JSON_BYTES:
        return {}, f"{LEGACY_JSON} is larger than 64 KiB"
    try:
        data = json.loads(raw)
    except ValueError:
        return {}, f"{LEGACY_JSON} is not valid JSON"
    if not isinstance(data, dict):
        return {}, f"{LEGACY_JSON} is not a JSON object"
    return data, None


def _legacy_str(data: Mapping[str, object], key: str) -> str | None:
    value = data.get(key)
    return _clean(value) if isinstance(value, str) else None


def _legacy_timeout(data: Mapping[str, object]) -> float | None:
    value = data.get("timeout")
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        return None
    return float(min(value, 60.0))


def load_settings(lookup: Lookup, *, hermes_home: str | os.PathLike[str]) -> Settings:
    """Build ``Settings`` from ``lookup``. Never raises: ``problem()`` says what is wrong.

    Precedence: ``GBRAIN_MCP_*`` first, then the older ``MCP_GBRAIN_URL`` /
    ``MCP_GBRAIN_API_KEY`` (a static bearer), then ``gbrain_memory.json`` in the
    profile home, then the loopback default. An older static key is used only when
    no ``GBRAIN_MCP_*`` credential is configured.
    """
    legacy, _ = read_legacy_json(hermes_home)
    client_id = _clean(lookup("GBRAIN_MCP_CLIENT_ID"))
    client_secret = _clean(lookup("GBRAIN_MCP_CLIENT_SECRET"))
    token = _clean(lookup("GBRAIN_MCP_ACCESS_TOKEN"))
    if token is None and client_id is None and client_secret is None:
        token = _clean(lookup("MCP_GBRAIN_API_KEY")) or _legacy_str(legacy, "api_token")
    return Settings(
        hermes_home=os.fspath(hermes_home),
        mcp_url=_clean(lookup("GBRAIN_MCP_URL"))
        or _clean(lookup("MCP_GBRAIN_URL"))
        or _legacy_str(legacy, "url")
        or DEFAULT_MCP_URL,
        client_id=client_id,
        client_secret=client_secret,
        access_token=token,
        allow_http=flag_on(lookup("GBRAIN_POINTER_ALLOW_HTTP")),
        source=_clean(lookup("GBRAIN_POINTER_SOURCE")),
        pointer_limit=clamped_int(lookup("GBRAIN_POINTER_LIMIT"), DEFAULT_POINTER_LIMIT, 1, 10),
        tools=_choice(lookup("GBRAIN_TOOLS"), TOOL_MODES),
        tools_expose=_choice(lookup("GBRAIN_TOOLS_EXPOSE"), TOOL_EXPOSURES),
        timeout_s=_legacy_timeout(legacy),
        writeback=_choice(lookup("GBRAIN_WRITEBACK"), WRITEBACK_MODES),
        writeback_retire=flag_on(lookup("GBRAIN_WRITEBACK_RETIRE")),
        writeback_user_entity=_clean(lookup("GBRAIN_WRITEBACK_USER_ENTITY")),
    )


def default_hermes_home(environ: Mapping[str, str] | None = None) -> Path:
    """``$HERMES_HOME``, else ``~/.hermes`` (Hermes' own rule for the process home)."""
    env = os.environ if environ is None else environ
    home = env.get("HERMES_HOME", "").strip()
    return Path(home).expanduser() if home else Path.home() / ".hermes"


def read_dotenv(path: str | os.PathLike[str]) -> dict[str, str]:
    """Parse a Hermes profile ``.env`` (``KEY=VALUE``, optional ``export``, quotes).

    Missing file → empty. Values are never expanded or executed.
    """
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_DOTENV_BYTES + 1)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise _unreadable(Path(path), exc) from None
    if len(raw) > MAX_DOTENV_BYTES:
        raise ConfigError(f"{path} is larger than 1 MiB: trim it to the KEY=VALUE lines")
    values: dict[str, str] = {}
    # Only CR, LF and CRLF end lines: ``str.splitlines`` would also split a value at
    # U+2028, U+0085 and other separators.
    for raw_line in _LINE_BREAK.split(raw.decode("utf-8", errors="replace")):
        line = raw_line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("export "):
            line = line[len("export ") :].lstrip()
        key, sep, value = line.partition("=")
        key = key.strip()
        if not sep or not key.replace("_", "").isalnum():
            continue
        value = value.strip()
        quote = value[:1]
        end = value.find(quote, 1) if quote in ("'", '"') else -1
        if end != -1 and value[end + 1 :].strip()[:1] in ("", "#"):
            value = value[1:end]  # a quoted value, maybe followed by a comment
        elif len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        elif " #" in value:
            value = value.split(" #", 1)[0].rstrip()
        values[key] = value
    return values


class UnreadableSettings(ConfigError):
    """A settings file that exists but cannot be read: ``what`` and ``fix`` name the path."""

    def __init__(self, what: str, fix: str) -> None:
        super().__init__(f"{what}; fix: {fix}")
        self.what = what
        self.fix = fix


def _unreadable(path: Path, exc: OSError) -> UnreadableSettings:
    """Why a settings file cannot be read, with the path and the fix (never its text)."""
    if isinstance(exc, IsADirectoryError):
        return UnreadableSettings(
            f"{path} is a folder, not a file",
            f"move it aside (`mv {path} {path}.folder`), then `hermes-gbrain setup` "
            "writes the settings again",
        )
    if isinstance(exc, PermissionError):
        return UnreadableSettings(
            f"cannot read {path} (permission denied)", f"as its owner, `chmod 600 {path}`"
        )
    if isinstance(exc, NotADirectoryError):
        problem = home_problem(path.parent)
        if problem:
            return UnreadableSettings(problem, HOME_FIX)
    return UnreadableSettings(
        f"cannot read {path} ({exc.strerror or type(exc).__name__})",
        "make it a readable file of KEY=VALUE lines",
    )


HOME_FIX = "pass --hermes-home (or set HERMES_HOME to) a folder"


def home_problem(home: str | os.PathLike[str]) -> str | None:
    """Why ``home`` cannot be a profile folder (a file is in the way), or None."""
    folder = Path(home)
    for candidate in (folder, *folder.parents):
        try:
            if candidate.is_dir():
                return None
            if candidate.exists():
                return f"{folder} cannot be a profile folder: {candidate} is a file"
        except OSError:
            return None
    return None


def cli_lookup(
    hermes_home: str | os.PathLike[str],
    environ: Mapping[str, str] | None = None,
    *,
    dotenv: Mapping[str, str] | None = None,
) -> Lookup:
    """The CLI's rule: the process environment first, then the profile's ``.env``
    (``dotenv`` instead of reading it, e.g. ``{}`` when it cannot be read)."""
    env = dict(os.environ if environ is None else environ)
    if dotenv is None:
        dotenv = read_dotenv(Path(hermes_home) / ".env")

    def lookup(name: str) -> str | None:
        value = env.get(name)
        if value is not None and value.strip():
            return value
        return dotenv.get(name)

    return lookup
