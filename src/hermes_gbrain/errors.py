"""Every failure the client can raise, as one small typed hierarchy.

Callers above the transport decide what to do by class, never by parsing messages:
the provider fails open on any ``GBrainError``; the tool bridge turns a ``ToolError``
into text for the model; ``doctor`` prints the message. Messages carry status codes,
sizes, error codes and limits only: never a token, a secret, a request body or text
the server sent back (it is untrusted and may echo what we sent).

    GBrainError
    ├── ConfigError          bad or missing configuration, found before any request
    ├── RefusedError         a policy said no (URL rules, redirect, compression)
    │   └── RedirectError    the server answered 3xx; nothing is re-sent
    ├── DeadlineError        the wall-clock deadline passed (also covers dripping servers)
    ├── TooLargeError        the body is over the byte cap (declared or read)
    ├── TransportError       connection refused, reset, TLS failure
    ├── HTTPStatusError      an unexpected status code
    │   ├── AuthError        401 from /mcp, or a rejected credential at /token
    │   └── RateLimitedError 429 from /token
    ├── ProtocolError        the bytes are not what the protocol promises
    │   └── RPCError         a JSON-RPC ``error`` object
    └── ToolError            ``result.isError`` from a tool, with the server's error code
"""

from __future__ import annotations

import re

__all__ = [
    "AuthError",
    "ConfigError",
    "DeadlineError",
    "GBrainError",
    "HTTPStatusError",
    "ProtocolError",
    "RPCError",
    "RateLimitedError",
    "RedirectError",
    "RefusedError",
    "TooLargeError",
    "ToolError",
    "TransportError",
]


class GBrainError(Exception):
    """Base of every error this package raises on purpose."""


class ConfigError(GBrainError):
    """Configuration is missing or invalid; nothing was sent."""


class RefusedError(GBrainError):
    """A safety policy refused the request or the response."""


class RedirectError(RefusedError):
    """The server answered with a redirect; redirects are never followed."""

    def __init__(self, status: int) -> None:
        super().__init__(f"server answered a redirect (HTTP {status}); redirects are not followed")
        self.status = status


class DeadlineError(GBrainError):
    """The request did not finish inside its wall-clock deadline."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"request exceeded its {seconds:g} s deadline")
        self.seconds = seconds


class TooLargeError(GBrainError):
    """The response body is larger than the cap for this kind of request."""

    def __init__(self, cap: int, declared: int | None = None) -> None:
        if declared is not None:
            msg = f"response declares {declared} bytes, over the {cap}-byte cap"
        else:
            msg = f"response body exceeds the {cap}-byte cap"
        super().__init__(msg)
        self.cap = cap
        self.declared = declared


class TransportError(GBrainError):
    """The connection failed (refused, reset, TLS); the exception class name is kept."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"connection failed ({kind})")
        self.kind = kind


class HTTPStatusError(GBrainError):
    """The server answered a status the caller did not expect."""

    def __init__(self, status: int, what: str = "request") -> None:
        super().__init__(f"{what} failed with HTTP {status}")
        self.status = status


_OAUTH_CODES = frozenset(
    {
        "invalid_token",
        "invalid_grant",
        "invalid_client",
        "invalid_request",
        "invalid_scope",
        "unauthorized_client",
        "unsupported_grant_type",
        "insufficient_scope",
    }
)


class AuthError(HTTPStatusError):
    """The credential was rejected (401 at /mcp, or 400/401 at /token).

    ``code`` is the OAuth error code the server gave, kept only when it is one of the
    known short codes, so untrusted server text never reaches a message.
    """

    def __init__(self, status: int, code: str | None = None, what: str = "authentication") -> None:
        super().__init__(status, what)
        code = code if code in _OAUTH_CODES else None
        self.code = code
        if code:
            self.args = (f"{what} failed with HTTP {status} ({code})",)


class RateLimitedError(HTTPStatusError):
    """The token endpoint said 429; ``retry_after`` is seconds to wait, if known."""

    def __init__(self, retry_after: float | None) -> None:
        super().__init__(429, "token request")
        self.retry_after = retry_after


class ProtocolError(GBrainError):
    """The response broke the protocol: bad framing, bad JSON, wrong id, wrong shape."""


class RPCError(ProtocolError):
    """A JSON-RPC error object; ``code`` is the JSON-RPC error code."""

    def __init__(self, code: int) -> None:
        super().__init__(f"JSON-RPC error {code}")
        self.code = code


_SAFE_CODE = re.compile(r"[a-z_]{1,40}")


class ToolError(GBrainError):
    """A tool answered ``isError: true``; ``code`` is GBrain's error code if it gave one.

    ``detail`` holds the server's own message and ``hint`` its ``suggestion`` (e.g.
    "Readable sources: …"), for callers that show them as untrusted text (one line,
    sanitised); they are deliberately not part of ``str(exc)``.
    """

    def __init__(self, tool: str, code: str | None, detail: str = "", hint: str = "") -> None:
        safe = code if code and _SAFE_CODE.fullmatch(code) else None
        super().__init__(f"tool {tool!r} failed ({safe or 'unknown error'})")
        self.tool = tool
        self.code = code
        self.detail = detail
        self.hint = hint
