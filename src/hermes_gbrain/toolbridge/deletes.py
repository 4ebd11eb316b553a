"""Two-step destructive calls: a preview hands out a token bound to the call and page revision.

Every tool that deletes, rolls back, hides or replaces stored data (``delete_page``,
``revert_version``, ``forget``, ``remove_tag``, ``restore_page``, ``sources_remove``, …;
see ``schemas.is_destructive``) takes two calls, through ``gbrain_delete_page`` and
``gbrain_call`` alike. The first returns a preview and a token; only a second call
presenting that token for the same tool and the same arguments goes to the server, and
only while the page it names is still the revision that was previewed (same
``content_hash`` and ``updated_at``, or still absent when it was absent) and the token
is fresh (``TOKEN_TTL_S``) and unused. Tokens are random, held in memory for this
provider instance only, and single-use.

What this protects against, and what it does not:

* It stops a *mistaken* call — a misread slug, the wrong version id, a page that
  changed since the model looked at it — and it forces the model to look at what it is
  about to destroy before it does.
* It does **not** stop the model itself, or an instruction injected into what it reads
  (a page, a search result, a web page), from calling the preview and then the confirm:
  the model holds both halves. Only a person can break that loop. When Hermes offers a
  way to ask the user at the moment of the call (``adapters/compat.ask_user``; the
  interactive CLI's approval prompt in hermes-agent 0.19.0), the confirm step asks the
  user and a refusal destroys nothing. Elsewhere (gateways, API servers, scripts) the
  confirmation is the model's own; keep ``GBRAIN_TOOLS=read`` where that is not enough.
* GBrain soft-deletes pages (``restore_page`` within 72 hours) and keeps earlier page
  versions (``get_versions``), which limits the damage of a delete or an overwrite;
  ``forget`` and source removal have no such net.
"""

from __future__ import annotations

import hmac
import json
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["TOKEN_TTL_S", "ConfirmTokens", "DeleteTokens", "Refusal", "Revision", "call_key"]

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
    tool: str
    slug: str
    call: str
    bound: bool
    revision: Revision | None
    expires_at: float


class Refusal(Exception):
    """Why a confirmation was refused; ``code`` is stable, the message is for the model."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def call_key(tool: str, arguments: Mapping[str, Any]) -> str:
    """The call as canonical JSON: the same tool with the same arguments, key order aside."""
    return json.dumps(
        {"tool": tool, "arguments": arguments},
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
        default=str,
    )


class ConfirmTokens:
    """Issues and redeems confirmation tokens; thread-safe."""

    def __init__(
        self, *, ttl_s: float = TOKEN_TTL_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.ttl_s = ttl_s
        self._clock = clock
        self._grants: dict[str, _Grant] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"ConfirmTokens(outstanding={len(self._grants)})"

    def issue(
        self,
        slug: str,
        revision: Revision | None,
        *,
        tool: str = "delete_page",
        arguments: Mapping[str, Any] | None = None,
        bound: bool = True,
    ) -> str:
        """A fresh token for exactly this call on this revision of ``slug``.

        ``bound`` says the call names a page (``slug``); ``revision`` is ``None`` when
        that page did not exist at preview time (``restore_page``).
        """
        token = ("del_" if tool == "delete_page" else "cfm_") + secrets.token_urlsafe(12)
        now = self._clock()
        call = call_key(tool, arguments if arguments is not None else {"slug": slug})
        with self._lock:
            self._grants = {k: g for k, g in self._grants.items() if g.expires_at > now}
            while len(self._grants) >= MAX_TOKENS:
                self._grants.pop(next(iter(self._grants)))
            self._grants[token] = _Grant(tool, slug, call, bound, revision, now + self.ttl_s)
        return token

    def _find(self, token: str) -> tuple[str, _Grant] | None:
        for key, grant in self._grants.items():
            if hmac.compare_digest(key.encode(), token.encode()):
                return key, grant
        return None

    def redeem(
        self,
        token: str,
        slug: str,
        current: Revision | None,
        *,
        tool: str = "delete_page",
        arguments: Mapping[str, Any] | None = None,
    ) -> Revision | None:
        """Consume the token if it matches the call and ``current``; else raise ``Refusal``.

        The token is used up by any attempt that names its tool, slug and arguments (a
        stale revision needs a new preview); a token presented for another page or call
        stays valid for its own, so a mistyped slug cannot burn it.
        """
        now = self._clock()
        call = call_key(tool, arguments if arguments is not None else {"slug": slug})
        with self._lock:
            found = self._find(token) if token.isascii() else None
            if found is None:
                raise Refusal("unknown_token", "unknown or already used confirmation token")
            key, grant = found
            if grant.tool != tool or grant.slug != slug:
                raise Refusal(
                    "slug_mismatch",
                    "this token was issued for a different page or tool; nothing done",
                )
            if grant.call != call:
                raise Refusal(
                    "arguments_changed",
                    "the arguments differ from the previewed call; nothing done "
                    "(confirm with exactly the previewed arguments, or preview again)",
                )
            del self._grants[key]
        if grant.expires_at <= now:
            raise Refusal("expired", "the confirmation token has expired; preview again")
        if grant.bound and grant.revision is not None and current is None:
            raise Refusal("page_gone", "the page no longer exists; nothing done")
        if grant.bound and current != grant.revision:
            raise Refusal(
                "page_changed",
                "the page changed since the preview; nothing done (preview again)",
            )
        return grant.revision


DeleteTokens = ConfirmTokens
"""The earlier name, kept for callers that only delete pages."""
