"""Builds the client stack (transport → credential → MCP → GBrain) from ``Settings``."""

from __future__ import annotations

from .api import GBrain
from .auth import ClientCredentials, Credential, StaticToken
from .catalogfile import CatalogFile
from .errors import ConfigError
from .mcp import MCP_CAP, MCP_DEADLINE_S, MCPClient
from .settings import Settings
from .transport import Transport, shared_transport

__all__ = ["credential_for", "open_brain"]


def credential_for(
    settings: Settings, transport: Transport, *, scope: str | None = None, shared: bool = True
) -> Credential:
    """The configured credential. A static token wins and is never refreshed; a
    minted one is shared by the profile's processes through its token file (unless
    ``shared`` is false: ``doctor`` mints afresh, since the mint is what it checks)."""
    endpoint = settings.endpoint
    if settings.access_token:
        return StaticToken(settings.access_token, namespace=settings.hermes_home)
    if settings.client_id and settings.client_secret:
        return ClientCredentials(
            token_url=endpoint.token_url,
            client_id=settings.client_id,
            client_secret=settings.client_secret,
            transport=transport,
            scope=scope,
            namespace=settings.hermes_home,
            cache_home=(settings.hermes_home or None) if shared else None,
        )
    raise ConfigError(settings.problem() or "no GBrain credential configured")


def open_brain(
    settings: Settings,
    *,
    transport: Transport | None = None,
    scope: str | None = None,
    deadline_s: float | None = None,
    cap: int = MCP_CAP,
) -> GBrain:
    """A ``GBrain`` for these settings; raises ``ConfigError`` when they cannot work.

    The deadline is ``deadline_s`` when given, else the legacy ``timeout`` setting,
    else ``MCP_DEADLINE_S``. The token and the tool catalog are shared with the
    profile's other processes (``tokenfile``, ``catalogfile``).
    """
    problem = settings.problem()
    if problem:
        raise ConfigError(problem)
    transport = transport or shared_transport()
    credential = credential_for(settings, transport, scope=scope)
    shared = (
        CatalogFile(
            settings.hermes_home,
            settings.endpoint.mcp_url,
            settings.client_id or "",
            settings.client_secret or "",
            settings.access_token or "",
            scope or "",
        )
        if settings.hermes_home
        else None
    )
    mcp = MCPClient(
        url=settings.endpoint.mcp_url,
        credential=credential,
        transport=transport,
        cap=cap,
        deadline_s=deadline_s if deadline_s is not None else settings.timeout_s or MCP_DEADLINE_S,
        catalog_file=shared,
    )
    return GBrain(mcp)
