"""URL rules, checked once when settings are read, before any request.

No HTTP library refuses plain http to a remote host, and a bearer token sent that way
is readable by anyone on the path; so we refuse it unless the user says otherwise.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from .errors import ConfigError
from .text import one_line

__all__ = ["Endpoint", "is_loopback_host", "parse_endpoint", "shown_url"]

MAX_SHOWN_URL = 200


def shown_url(url: str) -> str:
    """A URL fit for a terminal or a report: one printable line, without any
    ``user:password@``, query or fragment (which may carry credentials)."""
    try:
        parts = urlsplit(url.strip())
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return "(an unreadable URL)"
    if ":" in host:
        host = f"[{host}]"
    rest = urlunsplit((parts.scheme, host + port, parts.path, "", ""))
    dropped = parts.username is not None or parts.password is not None
    dropped = dropped or bool(parts.query) or bool(parts.fragment)
    return one_line(
        rest + (" (credentials, query or fragment not shown)" if dropped else ""), MAX_SHOWN_URL
    )


def is_loopback_host(host: str) -> bool:
    """True for ``localhost`` and any loopback address (127.0.0.0/8, ::1).

    Subdomains of ``localhost`` are not included: whether ``x.localhost`` resolves to
    loopback depends on the resolver (plain glibc asks DNS), and plain http carries
    the bearer token.
    """
    host = host.strip("[]").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True, slots=True)
class Endpoint:
    """A validated MCP URL and the token URL at the same origin."""

    mcp_url: str
    token_url: str
    origin: str

    def __str__(self) -> str:
        return self.mcp_url


def parse_endpoint(url: str, *, allow_http: bool = False) -> Endpoint:
    """Validate an MCP URL and derive ``/token`` beside it.

    The trailing ``/mcp`` segment becomes ``/token`` and any path prefix is kept, so a
    server mounted under ``/brain/mcp`` mints at ``/brain/token``.
    """
    if not isinstance(url, str) or not url.strip():
        raise ConfigError("GBrain MCP URL is empty")
    url = url.strip()
    if any(c.isspace() or not c.isprintable() for c in url):
        raise ConfigError("GBrain MCP URL contains whitespace or control characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise ConfigError("GBrain MCP URL is not a valid URL") from exc
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise ConfigError("GBrain MCP URL must use http or https")
    if not parts.hostname:
        raise ConfigError("GBrain MCP URL has no host")
    if parts.username is not None or parts.password is not None:
        raise ConfigError("GBrain MCP URL must not carry credentials (user:password@)")
    if parts.fragment or "#" in url:
        raise ConfigError("GBrain MCP URL must not have a fragment")
    if parts.query:
        raise ConfigError("GBrain MCP URL must not have a query string")
    if scheme == "http" and not allow_http and not is_loopback_host(parts.hostname):
        raise ConfigError(
            "plain http is allowed only to loopback hosts; use https, "
            "or set GBRAIN_POINTER_ALLOW_HTTP=1 to accept the risk"
        )
    path = parts.path.rstrip("/")
    if not path.endswith("/mcp"):
        raise ConfigError(
            "GBrain MCP URL must end with /mcp (for example http://127.0.0.1:3131/mcp)"
        )
    prefix = path[: -len("/mcp")]
    netloc = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
    if port is not None:
        netloc = f"{netloc}:{port}"
    origin = urlunsplit((scheme, netloc, "", "", ""))
    return Endpoint(
        mcp_url=urlunsplit((scheme, netloc, f"{prefix}/mcp", "", "")),
        token_url=urlunsplit((scheme, netloc, f"{prefix}/token", "", "")),
        origin=origin,
    )
