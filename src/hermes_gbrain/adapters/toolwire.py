"""Hermes-facing glue for the tool bridge: where settings come from at each hook.

``get_tool_schemas`` runs inside ``MemoryManager.add_provider``, before
``initialize`` hands over ``hermes_home``. The profile home is then taken from
``compat.current_hermes_home()``: Hermes' own ``get_hermes_home()`` on the calling
(agent) thread, which honours a multiplexed gateway's per-profile override, so the
cached discovery read is this profile's. Settings are read the same way; if the
secret scope is unbound the built-in compact read set is offered (no network either
way). ``initialize`` then re-reads settings with the ``hermes_home`` kwarg and the
``agent_context``/``platform`` that decide whether this session may write; Hermes asks
for the schemas once more after ``initialize`` (to inject them), and that answer leaves
out the write tools this session cannot use. The confirm step of a destructive call asks
the user through ``compat.ask_user`` where Hermes has a prompt on the calling thread.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from ..settings import Settings, load_settings
from ..toolbridge.session import DRAIN_TIMEOUT_S, ToolSession, write_gate
from . import compat

__all__ = ["ProviderTools", "read_settings", "tools_schema"]

log = logging.getLogger(__name__)


def read_settings(home: str) -> Settings | None:
    """This profile's settings on the calling thread, or ``None`` when unreadable."""
    try:
        return load_settings(compat.profile_lookup(home), hermes_home=home)
    except compat.UnscopedSecretError:
        return None
    except Exception as exc:  # a broken .env must not break Hermes
        log.warning("gbrain tool settings unreadable (%s)", type(exc).__name__)
        return None


class ProviderTools:
    """The provider's tool surface; ``enabled=False`` (the pointer preset) offers none."""

    def __init__(self, *, enabled: bool = True) -> None:
        self.enabled = enabled
        self.session = ToolSession(spawn=compat.spawn_thread, approve=compat.ask_user)

    def __repr__(self) -> str:
        return f"ProviderTools(enabled={self.enabled})"

    def schemas(self, home: str | None) -> list[dict[str, Any]]:
        if not self.enabled:
            return []
        try:
            settings = read_settings(home or compat.current_hermes_home())
            return self.session.schemas(settings)
        except Exception as exc:  # schemas are asked for inside add_provider: never raise
            log.warning("gbrain tool schemas fell back to none (%s)", type(exc).__name__)
            return []

    def start(self, home: str, kwargs: dict[str, Any]) -> None:
        if not self.enabled:
            return
        settings = read_settings(home)
        if settings is None:
            self.session.start_unavailable()
            return
        gate = write_gate(settings.tools, kwargs.get("agent_context"), kwargs.get("platform"))
        try:
            self.session.start(settings, gate)
        except Exception as exc:
            log.warning("gbrain tools did not start (%s)", type(exc).__name__)
            self.session.start_unavailable()

    def handle(self, tool_name: str, args: Any) -> str:
        if not self.enabled:
            return json.dumps({"error": "this provider offers no tools"})
        return self.session.handle(tool_name, args)

    def shutdown(self, timeout: float = DRAIN_TIMEOUT_S) -> None:
        try:
            self.session.shutdown(timeout)
        except Exception as exc:
            log.warning("gbrain write queue drain failed (%s)", type(exc).__name__)


def tools_schema() -> list[dict[str, Any]]:
    """The ``hermes memory setup`` fields for the tool bridge (both land in ``.env``)."""
    return [
        {
            "key": "tools",
            "description": "Brain tools for the model: read (search, pages, every read tool),"
            " write (also queued page writes and two-step deletes), admin (also GBrain's"
            " administrative tools; see the README's risks), or off",
            "env_var": "GBRAIN_TOOLS",
            "default": "read",
            "choices": ["read", "write", "admin", "off"],
        },
        {
            "key": "tools_expose",
            "description": "compact: a few gbrain_* tools that reach every server tool;"
            " all: also one schema per server tool (many more tokens per session)",
            "env_var": "GBRAIN_TOOLS_EXPOSE",
            "default": "compact",
            "choices": ["compact", "all"],
        },
    ]
