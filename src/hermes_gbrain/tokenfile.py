"""A minted bearer kept on disk, so every process of a profile shares one token.

GBrain allows 50 ``/token`` requests per 15 minutes per client address, and Hermes
is often run as one short process per turn (``hermes -z``, cron, scripts): a token
kept in memory only would cost a mint per process and switch memory off after a few
dozen. So a token is kept in ``$HERMES_HOME/gbrain/token-<key>.json`` (0600, in the
0700 folder, written atomically) until shortly before it expires. ``<key>`` is an
HMAC, under the profile's random key, of the token URL, client id, client secret and
requested scope: the secret is never in the file or its name, and a rotated secret
or another URL names another file. The file holds a bearer, like the ``.env`` beside
it holds the secret that mints one.

A file that is not a regular file of ours, is readable by others, does not parse, or
names another key is ignored (and replaced by the next mint). A lock file beside it
lets one process mint while the others wait for its token; a 429 is written down too,
so no process of the profile asks again before the server's reset time.
"""

from __future__ import annotations

import hmac
import json
import logging
import math
import os
import time
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path

from .files import KeyedFile, data_dir, file_lock, read_owned, write_atomic

__all__ = ["TokenFile", "TokenRecord", "is_token_text"]

log = logging.getLogger(__name__)

FORMAT = 1
MAX_BYTES = 16_384
MAX_LIFETIME_S = 7_776_000.0
"""GBrain's longest client token TTL (90 days): a file claiming more is not trusted."""
CLOCK_SKEW_S = 300.0
PREFIX = "token-"


@dataclass(frozen=True, slots=True)
class TokenRecord:
    """What the file holds: a token and its wall-clock times, or a rate-limit block."""

    token: str
    scope: str
    expires_at: float
    refresh_at: float
    blocked_until: float = 0.0

    def __repr__(self) -> str:
        return f"TokenRecord(scope={self.scope!r}, expires_at={self.expires_at:.0f})"


class TokenFile(KeyedFile):
    """One credential's token file in one profile (thread-safe: every call is atomic)."""

    prefix = PREFIX

    def __init__(
        self, hermes_home: str | os.PathLike[str], *, token_url: str, client_id: str,
        client_secret: str, scope: str,
    ) -> None:  # fmt: skip
        super().__init__(hermes_home, "token", token_url, client_id, client_secret, scope)

    def lock(self, timeout: float) -> AbstractContextManager[bool]:
        """The cross-process mint lock (yields False when ``timeout`` passed first)."""
        return file_lock(self.path.with_suffix(".lock"), timeout)

    def load(self, now: float | None = None) -> TokenRecord | None:
        """The record, or None when missing, untrusted, unreadable or for another key."""
        raw = read_owned(self.path, MAX_BYTES)
        if raw is None:
            return None
        try:
            return self._parse(raw, time.time() if now is None else now)
        except (ValueError, TypeError, OverflowError):
            return None

    def _parse(self, raw: bytes, now: float) -> TokenRecord | None:
        data = json.loads(raw)
        if not isinstance(data, dict) or data.get("v") != FORMAT:
            return None
        key = data.get("key")
        if not isinstance(key, str) or not hmac.compare_digest(key, self.key):
            return None  # a file copied from another profile or credential
        times = [data.get(name, 0.0) for name in ("expires_at", "refresh_at", "blocked_until")]
        if any(isinstance(t, bool) or not isinstance(t, int | float) for t in times):
            return None
        expires_at, refresh_at, blocked = (float(t) for t in times)
        if not all(math.isfinite(t) for t in (expires_at, refresh_at, blocked)):
            return None
        token, scope = data.get("access_token", ""), data.get("scope", "")
        if not isinstance(token, str) or not isinstance(scope, str):
            return None
        blocked = blocked if now < blocked <= now + 900.0 + CLOCK_SKEW_S else 0.0
        if token and not (
            is_token_text(token) and refresh_at <= expires_at <= now + MAX_LIFETIME_S + CLOCK_SKEW_S
        ):
            return None
        return TokenRecord(token, scope, expires_at, refresh_at, blocked)

    def save(self, record: TokenRecord) -> bool:
        """Replace the file atomically; False (logged, never raised) when it cannot be."""
        payload = {
            "v": FORMAT,
            "key": self.key,
            "access_token": record.token,
            "token_type": "bearer",
            "scope": record.scope,
            "expires_at": record.expires_at,
            "refresh_at": record.refresh_at,
            "blocked_until": record.blocked_until,
        }
        try:
            write_atomic(self.path, json.dumps(payload, separators=(",", ":")))
        except OSError as exc:  # a read-only home: the token stays in this process
            log.debug("token file not written: %s", type(exc).__name__)
            return False
        self._prune()
        return True

    def _prune(self) -> None:
        """Remove token files of this profile that expired (an old secret's, say)."""
        now = time.time()
        try:
            entries = list(os.scandir(data_dir(self._home)))
        except OSError:
            return
        mine = self.path.name
        for entry in entries:
            if not (entry.name.startswith(PREFIX) and entry.name.endswith(".json")):
                continue
            if entry.name == mine:
                continue
            raw = read_owned(entry.path, MAX_BYTES)
            if raw is None:
                continue  # not a file of ours to judge (a symlink, another owner's)
            try:
                data = json.loads(raw)
                expires = data.get("expires_at") if isinstance(data, dict) else None
                if isinstance(expires, int | float) and expires > now:
                    continue
                os.unlink(entry.path)
                Path(entry.path).with_suffix(".lock").unlink(missing_ok=True)
            except (OSError, ValueError):
                continue


def is_token_text(token: str) -> bool:
    """Visible ASCII only: anything else cannot go into an HTTP header as is."""
    return bool(token) and token.isascii() and token.isprintable() and " " not in token
