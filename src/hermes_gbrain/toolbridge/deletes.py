"""Two-step deletes: a preview hands out a token bound to the slug and page revision.

A model can misread a slug or act on an injected instruction, so a delete never
happens in one call. The first call returns a preview (title, size, links) and a
token; only a second call presenting that token for the same slug deletes, and only
while the page is still the revision that was previewed (same ``content_hash`` and
``updated_at``) and the token is fresh (``TOKEN_TTL_S``) and unused. Tokens are
random, held in memory for this provider instance only, and single-use: a stale or
mismatched token deletes nothing.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["TOKEN_TTL_S", "DeleteTokens", "Refusal", "Revision"]

TOKEN_TTL_S = 120.0
MAX_TOKENS = 64


@dataclass(frozen=True, slots=True)
class Revision:
    """What identifies one version of a page."""

    source_id: str
    content_hash: str
    updated_at: str


@dataclass(frozen=True, slots=True)
class _Grant:
    slug: str
    revision: Revision
    expires_at: float


class Refusal(Exception):
    """Why a confirmation was refused; ``code`` is stable, the message is for the model."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class DeleteTokens:
    """Issues and redeems confirmation tokens; thread-safe."""

    def __init__(
        self, *, ttl_s: float = TOKEN_TTL_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._ttl = ttl_s
        self._clock = clock
        self._grants: dict[str, _Grant] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"DeleteTokens(outstanding={len(self._grants)})"

    def issue(self, slug: str, revision: Revision) -> str:
        """A fresh token for deleting exactly this revision of ``slug``."""
        token = "del_" + secrets.token_urlsafe(12)
        now = self._clock()
        with self._lock:
            self._grants = {k: g for k, g in self._grants.items() if g.expires_at > now}
            while len(self._grants) >= MAX_TOKENS:
                self._grants.pop(next(iter(self._grants)))
            self._grants[token] = _Grant(slug, revision, now + self._ttl)
        return token

    def _find(self, token: str) -> tuple[str, _Grant] | None:
        for key, grant in self._grants.items():
            if hmac.compare_digest(key.encode(), token.encode()):
                return key, grant
        return None

    def redeem(self, token: str, slug: str, current: Revision | None) -> Revision:
        """Consume the token if it matches ``slug`` and ``current``; else raise ``Refusal``.

        The token is used up by any attempt that names its slug (a stale revision
        needs a new preview); a token presented for another slug stays valid for its
        own slug, so a mistyped slug cannot burn it.
        """
        now = self._clock()
        with self._lock:
            found = self._find(token) if token.isascii() else None
            if found is None:
                raise Refusal("unknown_token", "unknown or already used confirmation token")
            key, grant = found
            if grant.slug != slug:
                raise Refusal(
                    "slug_mismatch", "this token was issued for a different page; nothing deleted"
                )
            del self._grants[key]
        if grant.expires_at <= now:
            raise Refusal("expired", "the confirmation token has expired; preview again")
        if current is None:
            raise Refusal("page_gone", "the page no longer exists; nothing deleted")
        if current != grant.revision:
            raise Refusal(
                "page_changed",
                "the page changed since the preview; nothing deleted (preview again)",
            )
        return grant.revision
