"""Bearer credentials: a static token, or OAuth client_credentials minted at ``/token``.

Minted tokens live in one process-wide cache keyed by the token URL, the client id,
the profile they belong to and an HMAC of the secret under a key made fresh for each
process: the secret itself is never a key, never logged. With a profile home
(``cache_home``) the token is also kept in the profile's token file (``tokenfile``),
so every process of the profile reuses it until shortly before it expires: GBrain
allows 50 mints per 15 minutes per client address, and one-shot processes would
spend them fast. One mint is in flight per key, within a process (a lock) and across
processes (a file lock); whoever waits for it waits no longer than its caller's
deadline (``transport.call_deadline``). A 429 blocks further mints for that key, in
every process of the profile, until the server's reset time.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import os
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import urlencode

from . import jsontext
from .errors import (
    AuthError,
    DeadlineError,
    GBrainError,
    HTTPStatusError,
    ProtocolError,
    RateLimitedError,
)
from .tokenfile import TokenFile, TokenRecord, is_token_text
from .transport import Transport, deadline_left

__all__ = [
    "ClientCredentials",
    "Credential",
    "StaticToken",
    "clear_token_cache",
    "keyed_hash",
    "share_key_of",
]

TOKEN_CAP = 16_384
TOKEN_DEADLINE_S = 3.0
_DEFAULT_BACKOFF_S = 60.0
_MAX_BACKOFF_S = 900.0

_HASH_KEY = secrets.token_bytes(32)


def keyed_hash(*parts: str) -> str:
    """A short HMAC of ``parts``: stable within this process, useless outside it."""
    mac = hmac.new(_HASH_KEY, digestmod=hashlib.sha256)
    for part in parts:
        data = part.encode("utf-8", "surrogatepass")
        # Length-prefixed, so no choice of parts can shift bytes from one to the next.
        mac.update(len(data).to_bytes(8, "big"))
        mac.update(data)
    return mac.hexdigest()[:32]


class Credential(Protocol):
    """What the MCP layer needs from a credential."""

    @property
    def cache_key(self) -> str:
        """Identifies this credential in caches without revealing it."""
        ...

    def bearer(self) -> str:
        """A token to send now (may mint one)."""
        ...

    def rejected(self, token: str) -> bool:
        """The server said 401 to ``token``; True if a fresh one is worth a retry."""
        ...


def share_key_of(credential: object) -> str:
    """The transport budget a credential's requests use (see ``Transport.post``).

    One per credential whatever the profile or scope asked for, so a profile's read
    and write clients share one budget; a credential without one uses its cache key.
    """
    share = getattr(credential, "share_key", None)
    if isinstance(share, str):
        return share
    key = getattr(credential, "cache_key", "")
    return key if isinstance(key, str) else ""


class StaticToken:
    """A bearer given by the user: used as is, never refreshed or replaced."""

    def __init__(self, token: str, *, namespace: str = "") -> None:
        self._token = token
        self._key = keyed_hash("static", namespace, token)
        self.share_key = keyed_hash("share", "static", token)

    def __repr__(self) -> str:
        return "StaticToken(<hidden>)"

    @property
    def cache_key(self) -> str:
        return self._key

    def bearer(self) -> str:
        return self._token

    def rejected(self, token: str) -> bool:
        return False


@dataclass(slots=True)
class _Minted:
    token: str
    refresh_at: float
    """``time.monotonic()`` reading after which a new token is minted."""
    scope: str
    expires_wall: float = 0.0
    refresh_wall: float = 0.0
    """The same moments on the wall clock, which the token file shares across processes."""

    def __repr__(self) -> str:
        return f"_Minted(scope={self.scope!r})"


@dataclass(slots=True)
class _Slot:
    """Cache entry and the lock that lets only one thread mint for this key."""

    lock: threading.Lock
    minted: _Minted | None = None
    blocked_until: float = 0.0
    mints: int = 0
    rejected: str | None = None
    """The last token the server refused: never taken from the token file again."""


_slots_lock = threading.Lock()
_slots: dict[str, _Slot] = {}


def clear_token_cache() -> None:
    """Forget every minted token (tests; also used when a profile is torn down)."""
    with _slots_lock:
        _slots.clear()


def _slot(key: str) -> _Slot:
    with _slots_lock:
        slot = _slots.get(key)
        if slot is None:
            slot = _slots[key] = _Slot(lock=threading.Lock())
        return slot


def _refresh_margin(expires_in: float) -> float:
    """Re-mint a little before expiry: 10% of the lifetime, between 5 and 60 seconds."""
    return max(min(expires_in * 0.1, 60.0), min(5.0, expires_in / 2))


class ClientCredentials:
    """OAuth ``client_credentials`` at the token URL beside the MCP endpoint.

    GBrain accepts the client id and secret only in a form body (not JSON, not Basic).
    ``cache_home`` (the profile's Hermes home) shares tokens with the profile's other
    processes through its token file; without it tokens stay in this process.
    """

    def __init__(
        self,
        *,
        token_url: str,
        client_id: str,
        client_secret: str,
        transport: Transport,
        scope: str | None = None,
        namespace: str = "",
        cap: int = TOKEN_CAP,
        deadline_s: float = TOKEN_DEADLINE_S,
        cache_home: str | os.PathLike[str] | None = None,
    ) -> None:
        self._token_url = token_url
        self._client_id = client_id
        self._secret = client_secret
        self._transport = transport
        self._scope = scope
        self._cap = cap
        self._deadline_s = deadline_s
        self._key = keyed_hash("oauth", namespace, token_url, client_id, client_secret, scope or "")
        self.share_key = keyed_hash("share", "oauth", token_url, client_id, client_secret)
        self._file = (
            TokenFile(
                cache_home,
                token_url=token_url,
                client_id=client_id,
                client_secret=client_secret,
                scope=scope or "",
            )
            if cache_home
            else None
        )

    def __repr__(self) -> str:
        return f"ClientCredentials(token_url={self._token_url!r}, secret=<hidden>)"

    @property
    def cache_key(self) -> str:
        return self._key

    @property
    def token_file(self) -> TokenFile | None:
        """Where this credential's token is shared with the profile's other processes."""
        return self._file

    @property
    def mints(self) -> int:
        """How many tokens this key has minted in this process (diagnostics, tests)."""
        return _slot(self._key).mints

    @property
    def granted_scope(self) -> str | None:
        """The scope string of the cached token, if one is cached."""
        minted = _slot(self._key).minted
        return None if minted is None else minted.scope

    def bearer(self) -> str:
        slot = _slot(self._key)
        minted = slot.minted
        if minted is not None and time.monotonic() < minted.refresh_at:
            return minted.token
        # A mint may be in flight in another thread: wait for it no longer than the
        # caller's deadline (a mint's own bound when there is none).
        wait = deadline_left(self._deadline_s + 1.0)
        if not slot.lock.acquire(timeout=wait):
            raise DeadlineError(wait)
        try:
            minted = slot.minted  # another thread may have minted while we waited
            now = time.monotonic()
            if minted is not None and now < minted.refresh_at:
                return minted.token
            if now < slot.blocked_until:
                raise RateLimitedError(slot.blocked_until - now)
            slot.minted = self._shared_or_minted(slot)
            return slot.minted.token
        finally:
            slot.lock.release()

    def _shared_or_minted(self, slot: _Slot) -> _Minted:
        """The profile's shared token when it is good, else a fresh one (then shared)."""
        file = self._file
        if file is None:
            return self._mint_counted(slot)
        shared = self._from_file(file, slot)
        if shared is not None:
            return shared
        wait = deadline_left(self._deadline_s + 1.0)
        with file.lock(wait) as held:
            if not held:
                raise DeadlineError(wait)  # another process is still minting
            shared = self._from_file(file, slot)  # it may have minted while we waited
            if shared is not None:
                return shared
            try:
                minted = self._mint_counted(slot)
            except RateLimitedError:
                wall = time.time() + max(0.0, slot.blocked_until - time.monotonic())
                file.save(TokenRecord("", "", 0.0, 0.0, blocked_until=wall))
                raise
            file.save(
                TokenRecord(minted.token, minted.scope, minted.expires_wall, minted.refresh_wall)
            )
            return minted

    def _from_file(self, file: TokenFile, slot: _Slot) -> _Minted | None:
        """The token file's token, if still good and not the one the server refused;
        a rate-limit block written there by another process applies here too."""
        try:
            record = file.load()
        except OSError:
            return None
        if record is None:
            return None
        wall, mono = time.time(), time.monotonic()
        if record.blocked_until > wall:
            slot.blocked_until = max(slot.blocked_until, mono + record.blocked_until - wall)
            raise RateLimitedError(record.blocked_until - wall)
        if not record.token or record.token == slot.rejected or record.refresh_at <= wall:
            return None
        return _Minted(
            token=record.token,
            refresh_at=mono + (record.refresh_at - wall),
            scope=record.scope,
            expires_wall=record.expires_at,
            refresh_wall=record.refresh_at,
        )

    def _mint_counted(self, slot: _Slot) -> _Minted:
        try:
            minted = self._mint()
        except RateLimitedError as exc:
            wait = exc.retry_after
            if wait is None or not math.isfinite(wait):
                wait = _DEFAULT_BACKOFF_S
            slot.blocked_until = time.monotonic() + min(max(wait, 1.0), _MAX_BACKOFF_S)
            raise
        except GBrainError:
            raise
        except Exception as exc:  # only typed errors leave the client API
            raise ProtocolError(
                f"token response could not be handled ({type(exc).__name__})"
            ) from None
        slot.mints += 1
        return minted

    def rejected(self, token: str) -> bool:
        slot = _slot(self._key)
        # Never waits: a thread minting holds the lock, and its token is a new one anyway.
        if slot.lock.acquire(timeout=0.0):
            try:
                if slot.minted is not None and slot.minted.token == token:
                    slot.minted = None
                slot.rejected = token
            finally:
                slot.lock.release()
        return True

    def _mint(self) -> _Minted:
        form = {
            "grant_type": "client_credentials",
            "client_id": self._client_id,
            "client_secret": self._secret,
        }
        if self._scope:
            form["scope"] = self._scope
        started, started_wall = time.monotonic(), time.time()
        response = self._transport.post(
            self._token_url,
            content=urlencode(form).encode("ascii"),
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Accept": "application/json",
            },
            cap=self._cap,
            deadline_s=self._deadline_s,
            share=self.share_key,
        )
        if response.status == 429:
            raise RateLimitedError(_retry_after(response.headers))
        if response.status in (400, 401):
            # The status decides; the body only adds a code, if it is JSON (a proxy's
            # HTML error page is still a rejection, not a protocol error).
            try:
                code = _json_object(response.body).get("error")
            except ProtocolError:
                code = None
            raise AuthError(
                response.status, code if isinstance(code, str) else None, "token request"
            )
        if response.status != 200:
            raise HTTPStatusError(response.status, "token request")
        payload = _json_object(response.body)
        token = payload.get("access_token")
        if not isinstance(token, str) or not is_token_text(token):
            raise ProtocolError("token response has no usable access_token")
        token_type = payload.get("token_type", "bearer")
        if not isinstance(token_type, str) or token_type.lower() != "bearer":
            raise ProtocolError("token response is not a bearer token")
        expires_in = payload.get("expires_in", 3600)
        if (
            isinstance(expires_in, bool)
            or not isinstance(expires_in, int | float)
            or not math.isfinite(expires_in)
        ):
            # NaN would make every call mint; Infinity would cache the token forever.
            raise ProtocolError("token response has a non-numeric expires_in")
        expires_in = max(float(expires_in), 1.0)
        scope = payload.get("scope", "")
        scope = scope if isinstance(scope, str) else ""
        if "scope" in payload and not scope.strip():
            # GBrain filters requested scopes silently; an empty grant can call nothing.
            raise AuthError(200, "invalid_scope", "token grant")
        reuse_for = expires_in - _refresh_margin(expires_in)
        return _Minted(
            token=token,
            refresh_at=started + reuse_for,
            scope=scope,
            expires_wall=started_wall + expires_in,
            refresh_wall=started_wall + reuse_for,
        )


def _json_object(body: bytes) -> dict[str, object]:
    try:
        value = jsontext.loads(body)
    except ValueError:
        raise ProtocolError("token response is not JSON") from None
    if not isinstance(value, dict):
        raise ProtocolError("token response is not a JSON object")
    return value


def _retry_after(headers: object) -> float | None:
    """Seconds until minting may resume, from ``RateLimit-Reset`` or ``Retry-After``.

    Seconds only (an HTTP date counts as absent). Junk such as ``nan``, ``inf`` or
    text is absent too, so the default back-off applies rather than none at all.
    """
    get = getattr(headers, "get", None)
    if get is None:
        return None
    for name in ("ratelimit-reset", "retry-after"):
        value = get(name)
        if not isinstance(value, str):
            continue
        try:
            number = float(value)
        except ValueError:
            continue
        if math.isfinite(number):
            return max(number, 0.0)
    return None
