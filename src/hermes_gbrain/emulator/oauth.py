"""OAuth 2.0 client credentials, bearer checks and legacy keys, as GBrain 0.46.28 does them.

Only SHA-256 hashes of secrets, access tokens and legacy keys are stored, so a persistent emulator
keeps tokens valid across restarts without ever writing a usable secret to disk.
"""

from __future__ import annotations

import hmac
import json
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hermes_gbrain.emulator.store import Database, iso_now, sha256_hex

SCOPES_SUPPORTED = ("admin", "agent", "read", "sources_admin", "users_admin", "write")
RATE_WINDOW_S = 900
MIN_TTL_S = 1

MSG_MISSING_HEADER = "Missing Authorization header"
MSG_BAD_FORMAT = "Invalid Authorization header format, expected 'Bearer TOKEN'"
MSG_INVALID_TOKEN = "Invalid token"  # noqa: S105 - an error message, not a secret
MSG_TOKEN_EXPIRED = "Token expired"  # noqa: S105


class OAuthError(Exception):
    """A ``/token`` or ``/revoke`` failure: HTTP status, OAuth error code, description."""

    def __init__(self, status: int, error: str, description: str) -> None:
        super().__init__(description)
        self.status = status
        self.error = error
        self.description = description


class BearerError(Exception):
    """A rejected ``Authorization`` header on ``/mcp``; the message is the ``error_description``."""


@dataclass(frozen=True)
class Principal:
    """Who is calling ``/mcp``, as ``whoami`` reports it."""

    transport: str  # "oauth" | "legacy"
    scopes: tuple[str, ...]
    name: str
    client_id: str | None = None
    expires_at: int | None = None
    source_id: str = "default"
    federated_read: tuple[str, ...] = ("default",)


def parse_scopes(scopes: str) -> list[str]:
    """Space-separated scope list, validated against the scopes GBrain knows."""
    result: list[str] = []
    for scope in scopes.split():
        if scope not in SCOPES_SUPPORTED:
            raise ValueError(f"unknown scope {scope!r}; expected one of {SCOPES_SUPPORTED}")
        if scope not in result:
            result.append(scope)
    return result


def has_scope(granted: Sequence[str], required: str) -> bool:
    """``write`` implies ``read``; ``admin`` implies everything except ``agent``."""
    if required in granted:
        return True
    if "admin" in granted and required != "agent":
        return True
    return required == "read" and "write" in granted


class RateLimiter:
    """Fixed 15-minute windows per client address, like express-rate-limit's default store."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._windows: dict[str, tuple[float, int]] = {}

    def hit(self, key: str, limit: int) -> tuple[bool, int, int]:
        """Count one request; return (allowed, remaining, seconds until the window resets)."""
        now = self._clock()
        with self._lock:
            start, count = self._windows.get(key, (now, 0))
            if now - start >= RATE_WINDOW_S:
                start, count = now, 0
            count += 1
            self._windows[key] = (start, count)
        reset = max(0, int(RATE_WINDOW_S - (now - start)))
        return count <= limit, max(0, limit - count), reset


class OAuth:
    """Clients, access tokens and legacy keys over the shared database."""

    def __init__(
        self, db: Database, default_ttl: int, clock: Callable[[], float] = time.time
    ) -> None:
        self.db = db
        self.default_ttl = default_ttl
        self.clock = clock

    # registration ---------------------------------------------------------------------------
    def register_client(
        self,
        name: str,
        scopes: str = "read",
        token_ttl: int | None = None,
        *,
        source_id: str = "default",
        federated_read: Sequence[str] | None = None,
    ) -> tuple[str, str]:
        """Register a client_credentials client; return ``(client_id, client_secret)``."""
        scope_list = parse_scopes(scopes)
        if token_ttl is not None and token_ttl < MIN_TTL_S:
            raise ValueError("token_ttl must be a positive number of seconds")
        client_id = "gbrain_cl_" + secrets.token_hex(32)
        secret = "gbrain_cs_" + secrets.token_hex(32)
        reads = list(federated_read) if federated_read is not None else [source_id]
        self.db.execute(
            "INSERT INTO clients (client_id, name, secret_hash, scopes, token_ttl, source_id,"
            " federated_read, grant_types, created_at) VALUES (?,?,?,?,?,?,?,?,?)",
            (
                client_id,
                name,
                sha256_hex(secret),
                " ".join(scope_list),
                token_ttl,
                source_id,
                json.dumps(reads),
                "client_credentials",
                iso_now(),
            ),
        )
        return client_id, secret

    def create_legacy_key(self, name: str, scopes: str = "read") -> str:
        """A static ``gbrain_<64 hex>`` bearer that never expires."""
        scope_list = parse_scopes(scopes)
        key = "gbrain_" + secrets.token_hex(32)
        self.db.execute(
            "INSERT INTO legacy_keys (key_hash, name, scopes, created_at) VALUES (?,?,?,?)",
            (sha256_hex(key), name, " ".join(scope_list), iso_now()),
        )
        return key

    def client_names(self) -> list[str]:
        return [r["name"] for r in self.db.execute("SELECT name FROM clients ORDER BY created_at")]

    # token endpoint -------------------------------------------------------------------------
    def _check_client(self, client_id: str, client_secret: str) -> dict[str, object]:
        rows = self.db.execute("SELECT * FROM clients WHERE client_id = ?", (client_id,))
        if not rows:
            raise OAuthError(400, "invalid_grant", "Client not found")
        row = rows[0]
        if row["revoked"]:
            raise OAuthError(400, "invalid_grant", "Client has been revoked")
        if not hmac.compare_digest(row["secret_hash"], sha256_hex(client_secret)):
            raise OAuthError(400, "invalid_grant", "Invalid client secret")
        return dict(row)

    def issue(self, client_id: str, client_secret: str, scope: str | None) -> dict[str, object]:
        """The client_credentials grant: returns the JSON body ``/token`` answers with."""
        client = self._check_client(client_id, client_secret)
        if "client_credentials" not in str(client["grant_types"]).split():
            raise OAuthError(
                400, "invalid_grant", "Client credentials grant not authorized for this client"
            )
        # GBrain's exchangeClientCredentials (src/core/oauth-provider.ts): no scope asks for
        # every registered scope; otherwise each requested scope is kept when the client's
        # registration implies it (hasScope: an admin client asking for "read" gets
        # "read"), and the rest are dropped silently (recording 09: "scope":"").
        registered = str(client["scopes"]).split()
        if scope is None or not scope.strip():
            granted = registered
        else:
            granted = list(dict.fromkeys(s for s in scope.split() if has_scope(registered, s)))
        ttl_raw = client["token_ttl"]
        ttl = int(ttl_raw) if isinstance(ttl_raw, int) else self.default_ttl
        token = "gbrain_at_" + secrets.token_hex(32)
        self.db.execute(
            "INSERT INTO tokens (token_hash, client_id, scopes, expires_at) VALUES (?,?,?,?)",
            (sha256_hex(token), client_id, " ".join(granted), int(self.clock()) + ttl),
        )
        return {
            "access_token": token,
            "token_type": "bearer",
            "expires_in": ttl,
            "scope": " ".join(granted),
        }

    def revoke(self, client_id: str, client_secret: str, token: str) -> None:
        """RFC 7009: revoke one of the caller's own tokens; unknown tokens are not an error."""
        self._check_client(client_id, client_secret)
        self.db.execute(
            "UPDATE tokens SET revoked = 1 WHERE token_hash = ? AND client_id = ?",
            (sha256_hex(token), client_id),
        )

    def revoke_all(self) -> None:
        self.db.execute("UPDATE tokens SET revoked = 1")

    def expire_all(self) -> None:
        self.db.execute("UPDATE tokens SET expires_at = ?", (int(self.clock()) - 1,))

    # bearer check ---------------------------------------------------------------------------
    def authenticate(self, header: str | None) -> Principal:
        """Validate an ``Authorization`` header; raise ``BearerError`` with GBrain's message."""
        if header is None or not header.strip():
            raise BearerError(MSG_MISSING_HEADER)
        scheme, _, token = header.strip().partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token or " " in token:
            raise BearerError(MSG_BAD_FORMAT)
        digest = sha256_hex(token)
        rows = self.db.execute(
            "SELECT t.scopes, t.expires_at, t.revoked, c.client_id, c.name, c.source_id,"
            " c.federated_read, c.revoked AS client_revoked FROM tokens t"
            " JOIN clients c ON c.client_id = t.client_id WHERE t.token_hash = ?",
            (digest,),
        )
        if rows:
            row = rows[0]
            if row["revoked"] or row["client_revoked"]:
                raise BearerError(MSG_INVALID_TOKEN)
            if int(row["expires_at"]) <= int(self.clock()):
                raise BearerError(MSG_TOKEN_EXPIRED)
            return Principal(
                transport="oauth",
                scopes=tuple(str(row["scopes"]).split()),
                name=row["name"],
                client_id=row["client_id"],
                expires_at=int(row["expires_at"]),
                source_id=row["source_id"],
                federated_read=tuple(json.loads(row["federated_read"])),
            )
        legacy = self.db.execute(
            "SELECT name, scopes FROM legacy_keys WHERE key_hash = ?", (digest,)
        )
        if legacy:
            sources = tuple(r["id"] for r in self.db.execute("SELECT id FROM sources ORDER BY id"))
            return Principal(
                transport="legacy",
                scopes=tuple(str(legacy[0]["scopes"]).split()),
                name=legacy[0]["name"],
                federated_read=sources or ("default",),
            )
        raise BearerError(MSG_INVALID_TOKEN)
