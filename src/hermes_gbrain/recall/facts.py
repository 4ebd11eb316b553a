"""Facts in the briefing: a few of GBrain's hot-memory facts relevant to the first message.

GBrain attaches ``_meta.brain_hot_memory`` (recent facts: the session's, else the last
24 hours', at most 10) to every successful call (``src/core/facts/meta-hook.ts``), so the
briefing's own search brings them at no extra request and within the same budget. A fact
reaches the model only when it is not one of this profile's own Hermes memory entries
(Hermes already shows those in its system prompt), passes a relevance gate like the
pages' (it shares a capitalised name, or two distinctive words, with the message, or
every distinctive word of a short message), is not screened out like a title
(``screen.looks_like_instructions``), and fits the size cap. Each line says it is a fact
and where it comes from: GBrain's fact id, its kind, its subject and the day it was
recorded (hot memory carries no provenance text; ``recall`` shows it for that id).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence

from ..api import HotFact
from ..text import one_line
from ..writeback.entries import TARGET_FILES, read_entries
from .screen import prompt_line, prompt_slug
from .vocabulary import TitleVocabulary, is_distinctive
from .words import content_stems, message_names

__all__ = [
    "DEFAULT_FACTS",
    "FACT_CHARS",
    "MAX_FACTS",
    "format_fact_lines",
    "select_facts",
    "without_own_entries",
]

DEFAULT_FACTS = 2
MAX_FACTS = 3
FACT_CHARS = 200
_ENTITY_CHARS = 60
_FACT_ID = re.compile(r"[0-9A-Fa-f-]{1,40}")
"""GBrain's fact ids are integers; a UUID-shaped id is accepted too, words are not."""
_KIND = re.compile(r"[a-z][a-z_]{0,19}")
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def without_own_entries(
    facts: Sequence[HotFact], hermes_home: str | os.PathLike[str]
) -> tuple[HotFact, ...]:
    """Facts whose text is not already an entry of this profile's ``MEMORY.md``/``USER.md``:
    Hermes puts those in its own system prompt, so the model would read them twice."""
    own: set[str] = set()
    for target in TARGET_FILES:
        try:
            own.update(read_entries(hermes_home, target))
        except ValueError:  # not a Hermes memory file: nothing to compare with
            continue
    return tuple(f for f in facts if f.fact.strip() not in own)


def _anchored(
    fact: HotFact, wanted: set[str], names: set[str], vocabulary: TitleVocabulary | None
) -> int:
    """How strongly the fact is about the message: 0 = not at all."""
    stems = content_stems(fact.fact + " " + (fact.entity_slug or "").replace("-", " "))
    shared = {s for s in stems & wanted if is_distinctive(s, vocabulary)}
    if names & stems:
        return 2 + len(shared)
    asked = {s for s in wanted if is_distinctive(s, vocabulary)}
    if len(shared) >= 2 or (shared and asked <= shared):
        return len(shared)
    return 0


def select_facts(
    facts: Sequence[HotFact],
    message: str,
    *,
    limit: int = DEFAULT_FACTS,
    vocabulary: TitleVocabulary | None = None,
    anchored: bool = True,
) -> list[HotFact]:
    """The facts to show, strongest first (GBrain's order among equals), at most ``limit``;
    ``anchored=False`` (the gate turned off) keeps every clean fact."""
    if limit <= 0:
        return []
    wanted, names = content_stems(message), message_names(message)
    scored: list[tuple[int, int, HotFact]] = []
    seen: set[str] = set()
    for index, fact in enumerate(facts):
        text = prompt_line(fact.fact, FACT_CHARS)
        if fact.id in seen or not text:
            continue  # screened (None), empty, or shown already
        if _FACT_ID.fullmatch(fact.id) is None:
            continue  # GBrain gives a number (or a UUID); words are not an id
        if fact.entity_slug and prompt_slug(fact.entity_slug) is None:
            continue  # its subject may not be printed: the fact is suspect too
        seen.add(fact.id)
        strength = _anchored(fact, wanted, names, vocabulary) if anchored else 1
        if strength:
            scored.append((-strength, index, fact))
    scored.sort(key=lambda t: (t[0], t[1]))
    return [fact for _, _, fact in scored[:limit]]


def format_fact_lines(facts: Sequence[HotFact]) -> list[str]:
    """``- Fact (kind; about entity; GBrain fact #N, recorded YYYY-MM-DD): text``."""
    lines = []
    for fact in facts:
        entity = prompt_slug(fact.entity_slug) if fact.entity_slug else None
        if _FACT_ID.fullmatch(fact.id) is None or (fact.entity_slug and entity is None):
            continue  # select_facts drops these; a caller that skipped it still gets none
        marks = [fact.kind if _KIND.fullmatch(fact.kind) else "fact"]
        if entity:
            marks.append(f"about {one_line(entity, _ENTITY_CHARS)}")
        origin = f"GBrain fact #{fact.id}"
        if _DAY.fullmatch(fact.created_at[:10]):
            origin += f", recorded {fact.created_at[:10]}"
        marks.append(origin)
        text = prompt_line(fact.fact, FACT_CHARS)
        if text:
            lines.append(f"- Fact ({'; '.join(marks)}): {text}")
    return lines
