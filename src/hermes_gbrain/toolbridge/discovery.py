"""The last ``tools/list`` (and the scopes behind it), cached on disk per profile.

Hermes asks a memory provider for its tool schemas inside ``add_provider``, before
``initialize`` and without ever asking again, so the schemas must come from disk:
``$HERMES_HOME/gbrain/discovery.json``. It is refreshed in the background after
``initialize`` and by ``hermes-gbrain doctor``, written atomically (temporary file,
fsync, rename) so a crash never leaves half a file, and tagged with a keyed hash of
endpoint and credential so a changed credential never inherits another's scopes.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import jsontext
from ..api import GBrain
from ..catalogfile import MAX_AGE_S
from ..errors import GBrainError
from ..files import data_dir, profile_hmac, read_state, write_atomic
from ..mcp import ToolCatalog, ToolSpec
from ..settings import Settings

__all__ = [
    "CACHE_NAME",
    "Discovery",
    "credential_key",
    "discover",
    "load_discovery",
    "save_discovery",
]

CACHE_NAME = "discovery.json"
FORMAT = 1
MAX_CACHE_BYTES = 4 * 1024 * 1024
_WRITE_HINTS = ("put_page", "delete_page", "capture")
_ADMIN_HINTS = ("get_stats", "get_health")


def credential_key(settings: Settings) -> str:
    """Names endpoint and credential without revealing either, stable across restarts.

    An HMAC under a random per-profile key, so the file holds nothing that helps
    guess a secret, and a rotated secret or another URL gives another key.
    """
    return profile_hmac(
        settings.hermes_home,
        settings.mcp_url,
        settings.client_id or "",
        settings.client_secret or "",
        settings.access_token or "",
    )[:32]


@dataclass(frozen=True, slots=True)
class Discovery:
    """What one credential may call on one server, and when that was learned."""

    key: str
    tools: tuple[ToolSpec, ...]
    scopes: tuple[str, ...] = ()
    fetched_at: float = 0.0
    server: Mapping[str, Any] = field(default_factory=dict)

    def catalog(self) -> ToolCatalog:
        return ToolCatalog(tools={t.name: t for t in self.tools})

    def fresh(self, now: float | None = None, max_age_s: float = MAX_AGE_S) -> bool:
        """Learned lately enough that a session start need not ask again (see
        ``catalogfile.MAX_AGE_S``): one ``whoami`` and ``tools/list`` per credential
        per hour, whatever the number of sessions and processes."""
        age = (time.time() if now is None else now) - self.fetched_at
        return 0.0 <= age <= max_age_s

    @property
    def can_write(self) -> bool:
        return any(s in ("write", "admin") for s in self.scopes) or any(
            t.name in _WRITE_HINTS for t in self.tools
        )


def _scopes_from(whoami: Mapping[str, Any] | None, catalog: ToolCatalog) -> tuple[str, ...]:
    """``whoami``'s scopes when it answers, else what the catalog implies."""
    raw = whoami.get("scopes") if whoami else None
    if isinstance(raw, list) and all(isinstance(s, str) for s in raw):
        return tuple(raw)
    if isinstance(raw, str):
        return tuple(raw.split())
    scopes = ["read"] if catalog.tools else []
    if any(catalog.has(name) for name in _WRITE_HINTS):
        scopes.append("write")
    if any(catalog.has(name) for name in _ADMIN_HINTS):
        scopes.append("admin")
    return tuple(scopes)


def discover(
    brain: GBrain,
    settings: Settings,
    *,
    clock: Callable[[], float] = time.time,
    refresh: bool = True,
) -> Discovery:
    """Ask the server (``tools/list``, then ``whoami`` when offered). Raises ``GBrainError``.

    ``refresh=False`` takes a catalog this process or profile fetched lately instead of
    asking again (a session start; ``doctor`` asks afresh)."""
    catalog = brain.catalog(refresh=refresh)
    whoami: dict[str, Any] | None = None
    if catalog.has("whoami"):
        try:
            whoami = brain.whoami()
        except GBrainError:
            whoami = None
    return Discovery(
        key=credential_key(settings),
        tools=tuple(catalog.tools.values()),
        scopes=_scopes_from(whoami, catalog),
        fetched_at=clock(),
    )


def _encode(discovery: Discovery) -> bytes:
    payload = {
        "format": FORMAT,
        "key": discovery.key,
        "fetched_at": discovery.fetched_at,
        "scopes": list(discovery.scopes),
        "tools": [
            {"name": t.name, "description": t.description, "inputSchema": dict(t.input_schema)}
            for t in discovery.tools
        ],
    }
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def save_discovery(hermes_home: str | os.PathLike[str], discovery: Discovery) -> Path:
    """Write the cache atomically; readers see the old file or the new one, never a mix."""
    target = data_dir(hermes_home) / CACHE_NAME
    write_atomic(target, _encode(discovery))
    return target


def load_discovery(hermes_home: str | os.PathLike[str], key: str | None = None) -> Discovery | None:
    """The cached discovery, or ``None`` when missing, unreadable or for another key.

    Never raises: Hermes asks for schemas once, and an error there leaves the session
    with no tools at all. A tool whose schema nests too deeply is dropped on its own.
    """
    try:
        return _load(hermes_home, key)
    except Exception:  # a damaged or hostile file is a cache miss, never a crash
        return None


def _load(hermes_home: str | os.PathLike[str], key: str | None) -> Discovery | None:
    path = data_dir(hermes_home) / CACHE_NAME
    try:
        raw = read_state(path, MAX_CACHE_BYTES)
    except OSError:
        return None
    if len(raw) > MAX_CACHE_BYTES:
        return None
    try:
        data = jsontext.loads(raw)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    if key is not None and data.get("key") != key:
        return None
    try:
        catalog = ToolCatalog.parse({"tools": data.get("tools")})
    except GBrainError:
        return None
    scopes = data.get("scopes")
    fetched = data.get("fetched_at")
    return Discovery(
        key=str(data.get("key")),
        tools=tuple(catalog.tools.values()),
        scopes=tuple(s for s in scopes if isinstance(s, str)) if isinstance(scopes, list) else (),
        fetched_at=float(fetched) if isinstance(fetched, int | float) else 0.0,
    )
