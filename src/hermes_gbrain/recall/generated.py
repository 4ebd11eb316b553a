"""Which pages the brain wrote for itself: fact, digest and inbox pages.

One rule for every layer: the digest leaves such pages out of its names, and the
relevance gate never briefs or points at them (they restate other pages, often
about the user, and read as noise to the model).
"""

from __future__ import annotations

__all__ = ["GENERATED_PREFIXES", "GENERATED_TYPES", "is_generated"]

GENERATED_TYPES = frozenset({"fact", "digest", "inbox", "log"})
GENERATED_PREFIXES = ("facts/", "digests/", "inbox/")


def is_generated(slug: str, page_type: str | None) -> bool:
    """True for an auto-generated page (by its ``type`` or its slug's folder)."""
    return (page_type or "") in GENERATED_TYPES or slug.startswith(GENERATED_PREFIXES)
