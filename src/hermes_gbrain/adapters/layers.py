"""Digest and briefing settings for the provider and the hook, read where the scope is bound.

Both adapters call :func:`read_layers` on a profile-scoped thread (``initialize``,
``on_turn_start``, the ``pre_llm_call`` hook) and hand the frozen result on. The
briefing itself lives on the process-wide :class:`~..recall.briefing.BriefingDesk`,
keyed by (profile home, credential key, session id), so a provider rebuilt between
turns, or the hook in a multiplexed gateway, still briefs each session once; the
session record (:mod:`~..recall.shown`) carries that across processes, with the pages
each turn showed, so :func:`compose_turn` never points at them again too soon.
"""

from __future__ import annotations

import contextvars
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..recall.briefing import (
    BriefingConfig,
    BriefingSearch,
    cited_pages,
    load_briefing_config,
    shared_desk,
)
from ..recall.config import PointerConfig
from ..recall.digest import DigestConfig, format_digest_block, load_digest_config, read_digest_line
from ..recall.pointers import format_block
from ..recall.sharedcall import SharedRecall
from ..recall.shown import shared_log
from ..settings import flag_not_off
from ..text import one_line
from . import compat

__all__ = [
    "FIRST_TURNS",
    "Layers",
    "begin_briefing",
    "combine",
    "compose_turn",
    "digest_block",
    "end_briefing",
    "first_turn_digest",
    "join_context",
    "last_pages",
    "layer_schema",
    "read_layers",
    "recent_pages",
    "take_briefing",
]

FIRST_TURNS = 3
"""A briefing starts only within a session's first turns: a session resumed later
(after a restart, say) is never briefed mid-conversation."""


@dataclass(frozen=True, slots=True)
class Layers:
    """Frozen digest, briefing and hook settings for one profile."""

    digest: DigestConfig = field(default_factory=DigestConfig)
    briefing: BriefingConfig = field(default_factory=BriefingConfig)
    hook_pointers: bool = True
    """Hook mode adds gated pointers every turn unless ``GBRAIN_HOOK_POINTERS=0``: by
    ``bench/relevance.py`` they lift named hit from 0.89 to 0.99 and later-turn
    paraphrase hit from 0 to 0.90 at the same no-answer rate (README, hook mode)."""


def read_layers(home: str) -> Layers | None:
    """Read on the calling (scoped) thread; None when the settings cannot be read."""
    try:
        lookup = compat.profile_lookup(home)
        return Layers(
            digest=load_digest_config(lookup),
            briefing=load_briefing_config(lookup, hermes_home=home),
            hook_pointers=flag_not_off(lookup("GBRAIN_HOOK_POINTERS")),
        )
    except Exception:  # unscoped in a multiplexed gateway, or an unreadable .env
        return None


def digest_block(home: str, layers: Layers | None) -> str:
    """The system-prompt block from ``digest.json``; ``""`` if off, missing or stale."""
    if layers is None or not layers.digest.enabled:
        return ""
    return format_digest_block(read_digest_line(home, max_age_hours=layers.digest.max_age_hours))


def first_turn_digest(home: str, layers: Layers | None) -> str:
    """Hook mode's digest: the same block and file as the provider's system prompt, for
    the session's first turn only, its line held to the digest's character budget
    (``GBRAIN_DIGEST_MAX_CHARS``). That turn's message, digest included, is then part of
    the history Hermes replays byte for byte, so the cached prefix never changes."""
    if layers is None or not layers.digest.enabled:
        return ""
    line = read_digest_line(home, max_age_hours=layers.digest.max_age_hours)
    return format_digest_block(one_line(line, layers.digest.max_chars)) if line else ""


def join_context(*blocks: str) -> str:
    """Non-empty blocks, a blank line apart (digest first, then the turn's own recall)."""
    return "\n\n".join(block for block in blocks if block)


def _key(config: PointerConfig, session: str) -> Hashable:
    return ("briefing", config.home, config.cache_key, session)


def begin_briefing(
    config: PointerConfig,
    layers: Layers | None,
    session: str,
    message: object,
    *,
    turn: int = 1,
    context: contextvars.Context | None = None,
    recall: SharedRecall | None = None,
) -> bool:
    """Start the session's briefing search if this is its first non-trivial message
    (in this process or, per the session record, any earlier one). ``recall`` is the
    turn's pointer search of the same message: the briefing then reads its rows, and the
    brain sees one recall for the turn."""
    if layers is None or not layers.briefing.enabled or not isinstance(message, str):
        return False
    desk = shared_desk()
    key = _key(config, session)
    if desk.started(key):
        return False
    if turn > FIRST_TURNS or shared_log().briefed(config.home, session):
        desk.mark_done(key)
        return False
    if compat.is_trivial_prompt(message):
        return False
    if not shared_log().claim_briefing(config.home, session):
        desk.mark_done(key)  # another process briefs (or briefed) this session
        return False
    search = BriefingSearch(config, recall)
    return desk.start(key, message, search, layers.briefing, context=context)


def take_briefing(config: PointerConfig, session: str) -> str:
    """The session's briefing, once (waits at most until its search deadline)."""
    return shared_desk().take(_key(config, session))


def end_briefing(config: PointerConfig, session: str) -> None:
    """No briefing for this session from now on (resumed, branched or compressed)."""
    shared_desk().mark_done(_key(config, session))
    shared_log().record(config.home, session, turn=0, briefed=True)


def last_pages(config: PointerConfig, session: str, turn: int) -> frozenset[str]:
    """The pages the session's latest turn before ``turn`` showed (within the window)."""
    return shared_log().last(config.home, session, turn)


def recent_pages(config: PointerConfig, session: str, turn: int) -> frozenset[str]:
    """Pages the session was shown within the repeat window before ``turn``."""
    return shared_log().recent(config.home, session, turn)


def compose_turn(
    config: PointerConfig, session: str, turn: int, *, briefing: str, pointers: str
) -> str:
    """The turn's block (briefing, then pointers the session was not shown lately), and
    a note in the session record of what it showed and whether the briefing is settled."""
    log = shared_log()
    block = combine(
        briefing, pointers, limit=config.limit, already=log.recent(config.home, session, turn)
    )
    settled = shared_desk().started(_key(config, session))
    log.record(config.home, session, turn=turn, pages=cited_pages(block), briefed=settled)
    return block


def combine(
    briefing: str, pointers: str, *, limit: int, already: frozenset[str] = frozenset()
) -> str:
    """Briefing first, then at most ``limit`` pointer lines citing no page the briefing
    (this turn's, or ``already`` from an earlier turn) showed."""
    cited = already | set(cited_pages(briefing))
    lines = pointers.split("\n")[1:] if pointers else []  # after the header
    kept = [line for line in lines if not set(cited_pages(line)) & cited][:limit]
    if briefing:
        return briefing if not kept else briefing + "\n" + "\n".join(kept)
    return format_block(kept, limit)


def layer_schema() -> Sequence[dict[str, Any]]:
    """``get_config_schema()`` fields for the digest and the briefing."""
    return (
        {
            "key": "digest",
            "description": "Show the brain digest: system prompt (hook mode: first turn)",
            "env_var": "GBRAIN_DIGEST",
            "default": "on",
            "choices": ["on", "off"],
        },
        {
            "key": "digest_max_age_hours",
            "description": "Ignore a digest older than this many hours",
            "env_var": "GBRAIN_DIGEST_MAX_AGE_HOURS",
            "default": "48",
        },
        {
            "key": "digest_max_chars",
            "description": "Character budget of the digest line (hermes-gbrain digest)",
            "env_var": "GBRAIN_DIGEST_MAX_CHARS",
            "default": "400",
        },
        {
            "key": "briefing",
            "description": "Brief the first non-trivial message of a session (on/off)",
            "env_var": "GBRAIN_BRIEFING",
            "default": "on",
            "choices": ["on", "off"],
        },
        {
            "key": "briefing_budget_ms",
            "description": "How long the first turn may wait for its briefing (ms)",
            "env_var": "GBRAIN_BRIEFING_BUDGET_MS",
            "default": "2500",
        },
        {
            "key": "briefing_gate",
            "description": "Relevance gate: anchored (default), evidence, or off",
            "env_var": "GBRAIN_BRIEFING_GATE",
            "default": "anchored",
            "choices": ["anchored", "evidence", "off"],
        },
    )
