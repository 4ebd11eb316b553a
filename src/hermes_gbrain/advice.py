"""What a failure means for the user: the thing to fix and the command that fixes it.

One place for the words, so the provider's notice in Hermes, ``status``, ``doctor`` and
``setup`` say the same about the same failure. Every explanation names the setting,
file or URL involved and a command to run; none quotes a secret or a message (our
errors never carry either, and URLs pass through ``shown_url``).

A profile wired to its own emulator by ``hermes-gbrain setup --emulator`` gets that
command as its fix: a new ``hermes-gbrain emulator`` would issue new credentials,
while ``setup --emulator`` restarts the profile's own with the clients it had.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .api import UnsupportedError
from .errors import (
    AuthError,
    ConfigError,
    DeadlineError,
    GBrainError,
    HTTPStatusError,
    RateLimitedError,
    RefusedError,
    TooLargeError,
    ToolError,
    TransportError,
)
from .files import data_dir
from .settings import Settings, read_dotenv
from .urls import is_loopback_host, shown_url

__all__ = [
    "EMULATOR_ENV",
    "Advice",
    "command",
    "credential_fix",
    "emulator_url",
    "explain",
    "on_own_emulator",
    "server_fix",
    "unanswered",
]

EMULATOR_ENV = ("emulator", "profile.env")
"""Where ``setup --emulator`` keeps the lines of the profile's own emulator."""
_CLIENT_CODES = frozenset({"invalid_grant", "invalid_client", "unauthorized_client"})


@dataclass(frozen=True, slots=True)
class Advice:
    """``what`` failed (names the URL, setting or file) and the ``fix`` (a command)."""

    what: str
    fix: str


def command(home: str | os.PathLike[str], words: str) -> str:
    """``hermes-gbrain WORDS``, with ``--hermes-home`` unless the profile is ``~/.hermes``."""
    folder = Path(home).expanduser()
    flag = "" if folder == Path.home() / ".hermes" else f" --hermes-home {folder}"
    return f"`hermes-gbrain {words}{flag}`"


def emulator_url(home: str | os.PathLike[str]) -> str | None:
    """The URL of the emulator ``setup --emulator`` started for this profile, if any."""
    try:
        values = read_dotenv(data_dir(home).joinpath(*EMULATOR_ENV))
    except (OSError, GBrainError):
        return None
    return values.get("GBRAIN_MCP_URL") or None


def on_own_emulator(settings: Settings) -> bool:
    """Whether the profile talks to the emulator ``setup --emulator`` started for it."""
    url = emulator_url(settings.hermes_home)
    return url is not None and url.rstrip("/") == settings.mcp_url.rstrip("/")


def _loopback(url: str) -> bool:
    from urllib.parse import urlsplit  # noqa: PLC0415

    try:
        return is_loopback_host(urlsplit(url).hostname or "")
    except ValueError:
        return False


def _env(settings: Settings) -> str:
    return str(Path(settings.hermes_home) / ".env")


def server_fix(settings: Settings) -> str:
    """How to make the server at ``GBRAIN_MCP_URL`` answer."""
    if on_own_emulator(settings):
        return "restart the profile's emulator: " + command(
            settings.hermes_home, "setup --emulator"
        )
    url = shown_url(settings.mcp_url)
    if _loopback(settings.mcp_url):
        return (
            f"start GBrain at {url} (`gbrain serve --http`), or correct GBRAIN_MCP_URL in "
            f"{_env(settings)}; to try things out, "
            + command(settings.hermes_home, "setup --emulator")
        )
    return (
        f"check that GBrain runs at {url} and is reachable from this machine, or correct "
        f"GBRAIN_MCP_URL in {_env(settings)}"
    )


def credential_fix(settings: Settings) -> str:
    """How to give the profile a credential the server accepts."""
    if on_own_emulator(settings):
        return "wire the profile to its emulator again: " + command(
            settings.hermes_home, "setup --emulator"
        )
    return (
        f"put a valid client id and secret into {_env(settings)}: "
        + command(settings.hermes_home, "setup")
        + " asks for them; "
        + command(settings.hermes_home, "grant-help")
        + " shows how to create a client"
    )


def unanswered(settings: Settings, seconds: float) -> Advice:
    """A search still unanswered when the process ended (a hung or overloaded server)."""
    url = shown_url(settings.mcp_url)
    return Advice(
        f"GBrain at {url} did not answer a search within {seconds:.0f} s",
        server_fix(settings) + "; " + command(settings.hermes_home, "doctor"),
    )


def explain(exc: BaseException, settings: Settings) -> Advice:
    """The user's view of a failure talking to the brain configured by ``settings``."""
    url = shown_url(settings.mcp_url)
    if isinstance(exc, RateLimitedError):
        return Advice(
            f"GBrain at {url} refuses more token requests for now ({exc})",
            "wait a few minutes: GBrain allows 50 tokens per 15 minutes per address",
        )
    if isinstance(exc, AuthError):
        if settings.auth_mode == "token":
            what = f"GBrain at {url} refused GBRAIN_MCP_ACCESS_TOKEN ({exc})"
        elif exc.code in _CLIENT_CODES or exc.status == 400:
            what = (
                f"GBrain at {url} refused the client: GBRAIN_MCP_CLIENT_ID or "
                f"GBRAIN_MCP_CLIENT_SECRET is wrong, or the client was revoked ({exc})"
            )
        else:
            what = f"GBrain at {url} refused the profile's credential ({exc})"
        return Advice(what, credential_fix(settings))
    if isinstance(exc, DeadlineError):
        return Advice(f"GBrain at {url} did not answer in time ({exc})", server_fix(settings))
    if isinstance(exc, TransportError):
        return Advice(f"cannot reach GBrain at {url} ({exc})", server_fix(settings))
    if isinstance(exc, ConfigError):
        return Advice(
            str(exc),
            f"correct it in {_env(settings)}, or " + command(settings.hermes_home, "setup"),
        )
    if isinstance(exc, UnsupportedError):
        return Advice(
            f"GBrain at {url} cannot run this search: {exc}",
            f"unset GBRAIN_POINTER_SOURCE in {_env(settings)}, or upgrade GBrain",
        )
    if isinstance(exc, ToolError) and exc.code in ("insufficient_scope", "forbidden"):
        return Advice(
            f"GBrain at {url} refused a call for lack of scope ({exc})",
            "register a client with the scopes it needs and use its pair: "
            + command(settings.hermes_home, "grant-help"),
        )
    if isinstance(exc, HTTPStatusError) and exc.status >= 500:
        return Advice(
            f"GBrain at {url} failed ({exc})",
            "see GBrain's log (and restart it if it stays so); "
            + command(settings.hermes_home, "doctor"),
        )
    if isinstance(exc, RefusedError | TooLargeError | HTTPStatusError):
        return Advice(
            f"GBrain at {url} answered in a way this client refuses ({exc})",
            "check GBRAIN_MCP_URL (it must be GBrain's /mcp endpoint, with no proxy or "
            "redirect in between) and GBrain's log; " + command(settings.hermes_home, "doctor"),
        )
    if isinstance(exc, GBrainError):
        return Advice(
            f"GBrain at {url}: {exc}",
            "see GBrain's log; " + command(settings.hermes_home, "doctor"),
        )
    return Advice(
        f"an unexpected error searching GBrain at {url} ({type(exc).__name__})",
        "run " + command(settings.hermes_home, "doctor --debug"),
    )
