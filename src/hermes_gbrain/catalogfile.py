"""The last ``tools/list`` of one credential and scope, shared by a profile's processes.

A new process would otherwise ask for the catalog (~58 KB for a read token, ~93 KB
for admin) before its first call, on the first turn's clock. The file
(``$HERMES_HOME/gbrain/catalog-<key>.json``, 0600, written atomically) is named by an
HMAC under the profile's key of endpoint, credential and requested scope (GBrain lists
only what a token's scopes allow), and is used for ``MAX_AGE_S`` after it was fetched:
a token's default lifetime, so a server upgrade shows within the hour, and at once
after ``hermes-gbrain doctor``, which fetches afresh. A damaged, foreign or stale file
is a miss; it never raises.
"""

from __future__ import annotations

import hmac
import json
import logging
import os
import time
from collections.abc import Mapping
from typing import Any

from . import jsontext
from .files import KeyedFile, read_owned, write_atomic

__all__ = ["MAX_AGE_S", "CatalogFile"]

log = logging.getLogger(__name__)

FORMAT = 1
MAX_AGE_S = 3_600.0
MAX_BYTES = 4 * 1024 * 1024
_SKEW_S = 300.0


class CatalogFile(KeyedFile):
    """One credential's cached ``tools/list`` result in one profile."""

    prefix = "catalog-"

    def __init__(self, hermes_home: str | os.PathLike[str], *parts: str) -> None:
        super().__init__(hermes_home, "catalog", *parts)

    def load(self, *, max_age_s: float = MAX_AGE_S) -> Mapping[str, Any] | None:
        """The cached ``tools/list`` result (``{"tools": [...]}``), or None."""
        raw = read_owned(self.path, MAX_BYTES)
        if raw is None:
            return None
        try:
            data = jsontext.loads(raw)
        except ValueError:
            return None
        if not isinstance(data, dict) or data.get("v") != FORMAT:
            return None
        key, fetched = data.get("key"), data.get("fetched_at")
        if not isinstance(key, str) or not hmac.compare_digest(key, self.key):
            return None
        if isinstance(fetched, bool) or not isinstance(fetched, int | float):
            return None
        age = time.time() - fetched
        if not -_SKEW_S <= age <= max_age_s:
            return None
        tools = data.get("tools")
        return {"tools": tools} if isinstance(tools, list) else None

    def save(self, tools: list[dict[str, Any]]) -> None:
        """Replace the file atomically; a failure is logged at debug level, never raised."""
        payload = {"v": FORMAT, "key": self.key, "fetched_at": time.time(), "tools": tools}
        try:
            write_atomic(self.path, json.dumps(payload, ensure_ascii=False, separators=(",", ":")))
        except (OSError, ValueError) as exc:
            log.debug("catalog file not written: %s", type(exc).__name__)
