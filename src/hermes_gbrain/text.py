"""Handling of untrusted brain text: titles, slugs and summaries from the server.

Everything GBrain returns may have been written by anyone who could put a page in the
brain, so text that reaches a prompt is first reduced to one line of printable
characters and capped. Fence-like tags are defused so recalled text cannot close or
open the ``<memory-context>`` block Hermes wraps it in.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["one_line", "safe_slug"]

_SPACE = re.compile(r"\s+")
_TAG = re.compile(r"</?\s*[A-Za-z][\w:-]*\s*/?>")
_SEGMENT = r"[a-z0-9][a-z0-9._-]*"
_SLUG = re.compile(rf"{_SEGMENT}(?:/{_SEGMENT})*")
_MAX_SLUG = 255


def one_line(text: object, cap: int = 160) -> str:
    """Collapse ``text`` to one printable line of at most ``cap`` characters.

    Control and format characters (bidi overrides, zero-width) are removed, all
    whitespace (including U+2028) becomes one space, angle-bracket tags lose their
    brackets, and an over-long line ends with an ellipsis.
    """
    if not isinstance(text, str) or cap <= 0:
        return ""
    cleaned = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in text)
    while True:  # until stable: removing "<x>" from "<<x>>" leaves a new "<x>"
        defused = _TAG.sub(lambda m: m.group(0).strip("<>/ "), cleaned)
        if defused == cleaned:
            break
        cleaned = defused
    cleaned = _SPACE.sub(" ", cleaned).strip()
    if len(cleaned) > cap:
        cleaned = cleaned[: cap - 1].rstrip() + "…"
    return cleaned


def safe_slug(value: object) -> str | None:
    """A GBrain slug or None: lower-case ``/``-separated segments, each starting with a
    letter or digit (so no ``..``, empty or trailing segments), at most 255 chars."""
    if not isinstance(value, str):
        return None
    value = value.strip()
    if len(value) > _MAX_SLUG or not _SLUG.fullmatch(value):
        return None
    return value
