"""Handling of untrusted brain text: titles, slugs and summaries from the server.

Everything GBrain returns may have been written by anyone who could put a page in the
brain, so text that reaches a prompt is first reduced to one line of printable
characters and capped. Fence-like tags are defused so recalled text cannot close or
open the ``<memory-context>`` block Hermes wraps it in.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["one_line", "safe_slug", "visible"]

_SPACE = re.compile(r"\s+")
_TAG = re.compile(r"</?\s*[A-Za-z][\w:-]*\s*/?>")
_SEGMENT = r"[a-z0-9][a-z0-9._-]*"
_SLUG = re.compile(rf"{_SEGMENT}(?:/{_SEGMENT})*")
_MAX_SLUG = 255


_IGNORABLE = frozenset(
    chr(code)
    for code in (
        0x034F,  # combining grapheme joiner
        0x115F,  # Hangul fillers
        0x1160,
        0x3164,
        0xFFA0,
        0x17B4,  # Khmer inherent vowels
        0x17B5,
        *range(0x180B, 0x1810),  # Mongolian variation selectors and vowel separator
        *range(0xFE00, 0xFE10),  # variation selectors
        *range(0xE0100, 0xE01F0),
    )
)
"""Invisible characters outside category C (Unicode's default-ignorable set)."""


def _keep(ch: str) -> str:
    if ch in _IGNORABLE:
        return ""
    category = unicodedata.category(ch)
    if category == "Cc":
        return " "  # tabs, line breaks and other controls separate words
    if category[0] == "C":
        return ""  # format (zero-width, bidi), surrogate, private, unassigned: nothing
    return ch


def visible(text: str) -> str:
    """``text`` without invisible characters; control characters become spaces.

    Zero-width and bidi characters are *removed*, not spaced: "Ig\u200bnore" must read
    "Ignore" to the injection screen, as it does to a model.
    """
    if text.isascii():
        return "".join(" " if ch < " " or ch == "\x7f" else ch for ch in text)
    return "".join(_keep(ch) for ch in text)


def one_line(text: object, cap: int = 160) -> str:
    """Collapse ``text`` to one printable line of at most ``cap`` characters.

    Format characters (bidi overrides, zero-width) and other invisible ones are
    removed, controls and all whitespace (including U+2028) become one space,
    angle-bracket tags lose their brackets, and an over-long line ends with an
    ellipsis.
    """
    if not isinstance(text, str) or cap <= 0:
        return ""
    cleaned = visible(text)
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
