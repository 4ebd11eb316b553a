"""Everything this package takes from Hermes, feature-detected once at import.

hermes-agent 0.19.0 is the tested floor; newer Hermes adds ``is_trivial_prompt``,
``RecallStatus`` and ``spawn_context_thread``. ``ask_user`` reaches the interactive
approval prompt that 0.19.0 already has (see there). Each name falls back to a local
equivalent, and the fallbacks are public (``fallback_*``) so tests exercise them on
any Hermes. Never branch on version strings.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent.memory_provider import MemoryProvider

from ..recall.trivial import is_trivial as fallback_is_trivial_prompt
from ..settings import Lookup, read_dotenv

__all__ = [
    "HAS_APPROVAL_PROMPT",
    "HAS_RECALL_STATUS",
    "HAS_SECRET_SCOPE",
    "HAS_SPAWN_CONTEXT_THREAD",
    "HAS_TRIVIAL_PROMPT",
    "MemoryProvider",
    "RecallStatus",
    "UnscopedSecretError",
    "ask_user",
    "current_hermes_home",
    "fallback_get_secret",
    "fallback_is_trivial_prompt",
    "fallback_spawn_context_thread",
    "get_secret",
    "is_multiplex_active",
    "is_trivial_prompt",
    "profile_lookup",
    "spawn_thread",
    "user_instruction",
]


# -- trivial prompts -------------------------------------------------------------------

try:
    from agent.memory_provider import is_trivial_prompt as _hermes_is_trivial  # type: ignore[attr-defined]

    HAS_TRIVIAL_PROMPT = True
except ImportError:
    _hermes_is_trivial = None
    HAS_TRIVIAL_PROMPT = False


def is_trivial_prompt(text: str) -> bool:
    """Hermes' rule when it has one, else the same word list locally."""
    if _hermes_is_trivial is not None:
        return bool(_hermes_is_trivial(text))
    return fallback_is_trivial_prompt(text)


# -- skill turns -------------------------------------------------------------------------

try:
    from agent.skill_commands import (
        extract_user_instruction_from_skill_message as _hermes_instruction,
    )
except ImportError:
    _hermes_instruction = None  # type: ignore[assignment]


def user_instruction(text: str) -> str:
    """What Hermes hands ``prefetch`` for this message: a ``/skill`` turn reduced to the
    user's own instruction (``""`` for a bare skill), anything else unchanged."""
    if _hermes_instruction is None:
        return text
    try:
        found = _hermes_instruction(text)
    except Exception:  # a helper that fails must not cost the turn its memory
        return text
    return found if isinstance(found, str) else ""


# -- recall status -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _FallbackRecallStatus:
    """Same fields as newer Hermes' ``RecallStatus``; 0.19.0 never asks for it."""

    provider_label: str
    count: int
    glyph: str = "🧠"


try:
    from agent.memory_provider import RecallStatus as _HermesRecallStatus  # type: ignore[attr-defined]

    RecallStatus: Any = _HermesRecallStatus
    HAS_RECALL_STATUS = True
except ImportError:
    RecallStatus = _FallbackRecallStatus
    HAS_RECALL_STATUS = False


# -- threads ---------------------------------------------------------------------------


def fallback_spawn_context_thread(target: Callable[[], None], name: str) -> threading.Thread:
    """An unstarted daemon thread (the pool runs each job in a captured context)."""
    return threading.Thread(target=target, name=name, daemon=True)


try:
    from agent.memory_provider import spawn_context_thread as _hermes_spawn  # type: ignore[attr-defined]

    HAS_SPAWN_CONTEXT_THREAD = True
except ImportError:
    _hermes_spawn = None
    HAS_SPAWN_CONTEXT_THREAD = False


def spawn_thread(target: Callable[[], None], name: str) -> threading.Thread:
    """Hermes' ``spawn_context_thread`` when present (it copies contextvars), else ours."""
    if _hermes_spawn is not None:
        thread = _hermes_spawn(target, name=name, daemon=True)
        if isinstance(thread, threading.Thread):
            return thread
    return fallback_spawn_context_thread(target, name)


# -- asking the user --------------------------------------------------------------------

# hermes-agent 0.19.0 keeps the interactive CLI's approval prompt (the one it shows before a
# dangerous shell command, and before a memory write when write_approval is on) as a
# per-thread callback in ``tools.terminal_tool``: the CLI sets it on the thread that runs
# the conversation, which is where Hermes calls a memory provider's tools. Gateways, the API
# server and scripts set none (they approve through their own queues), so there it is None.
# The callback takes ``(command, description, allow_permanent=...)`` and answers "once",
# "session", "always" or "deny" (``tools/write_approval.py`` calls it the same way). Same
# names and shape in hermes-agent 0.13.0 through 0.19.0 (checked); detected, not assumed.
try:
    from tools.terminal_tool import _get_approval_callback as _hermes_approval  # type: ignore[import-untyped]

    HAS_APPROVAL_PROMPT = True
except ImportError:
    _hermes_approval = None
    HAS_APPROVAL_PROMPT = False

_APPROVED = frozenset({"once", "session", "always"})


def ask_user(what: str, why: str) -> bool | None:
    """Ask the person at the terminal: True (approved), False (refused), None (nobody to ask).

    Only on the calling thread's own prompt; never falls back to ``input()``.
    """
    if _hermes_approval is None:
        return None
    try:
        callback = _hermes_approval()
    except Exception:
        return None
    if callback is None:
        return None
    choice = callback(what, why, allow_permanent=False)
    return isinstance(choice, str) and choice.strip().lower() in _APPROVED


# -- secrets and the profile home --------------------------------------------------------


class _FallbackUnscopedSecretError(RuntimeError):
    """Stands in for Hermes' error where ``agent.secret_scope`` is missing."""


def fallback_get_secret(name: str, default: str | None = None) -> str | None:
    """Without a secret scope module, the process environment is the profile's."""
    value = os.environ.get(name)
    return value if value is not None else default


def _fallback_is_multiplex_active() -> bool:
    return False


try:
    from agent.secret_scope import (
        UnscopedSecretError as _HermesUnscoped,
    )
    from agent.secret_scope import (
        get_secret as _hermes_get_secret,
    )
    from agent.secret_scope import (
        is_multiplex_active as _hermes_multiplex,
    )

    UnscopedSecretError: type[Exception] = _HermesUnscoped
    get_secret: Callable[..., str | None] = _hermes_get_secret
    is_multiplex_active: Callable[[], bool] = _hermes_multiplex
    HAS_SECRET_SCOPE = True
except ImportError:
    UnscopedSecretError = _FallbackUnscopedSecretError
    get_secret = fallback_get_secret
    is_multiplex_active = _fallback_is_multiplex_active
    HAS_SECRET_SCOPE = False


try:
    from hermes_constants import get_hermes_home as _hermes_home
except ImportError:
    _hermes_home = None  # type: ignore[assignment]


def current_hermes_home() -> str:
    """The home Hermes resolves on this thread (override, then env, then default)."""
    if _hermes_home is None:
        home = os.environ.get("HERMES_HOME", "").strip()
        return os.fspath(Path(home).expanduser() if home else Path.home() / ".hermes")
    return os.fspath(_hermes_home())


def profile_lookup(hermes_home: str, secret: Callable[..., str | None] | None = None) -> Lookup:
    """Settings for the profile at ``hermes_home``, read on the calling thread.

    ``get_secret`` first (the bound scope, or the environment when not multiplexed),
    then the profile's own ``.env`` — never another profile's. In a multiplexed
    gateway with no scope bound, ``get_secret`` raises ``UnscopedSecretError``: the
    first read raises it to the caller, which must treat the call as unavailable.
    """
    read = secret or get_secret
    read("GBRAIN_MCP_URL")  # raises here, before anything is half-read
    dotenv: dict[str, str] | None = None

    def lookup(name: str) -> str | None:
        nonlocal dotenv
        value = read(name)
        if value is not None and value.strip():
            return value
        if dotenv is None:
            dotenv = read_dotenv(Path(hermes_home) / ".env")
        return dotenv.get(name)

    return lookup
