"""Handling of untrusted brain text: titles, slugs and summaries from the server.

Everything GBrain returns may have been written by anyone who could put a page in the
brain, so text that reaches a prompt is first reduced to one line of printable
characters and capped. Fence-like tags are defused so recalled text cannot close or
open the ``<memory-context>`` block Hermes wraps it in. Markup goes too
(:func:`plain_line`): a link becomes its text, an image, an HTML comment or tag
disappears, a bare URL shrinks to its host, so nothing in a title can make a client
render a link or fetch a URL that carries data out.

Identifiers are checked against GBrain's own grammar: :func:`safe_slug` (lower-case
letters of any script, digits, marks, ``.``, ``_`` and ``-`` in ``/``-separated
segments) and :func:`safe_source_id` (1-32 lower-case ASCII letters, digits and
inner hyphens).
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["one_line", "plain_line", "safe_slug", "safe_source_id", "strip_markup", "visible"]

_SPACE = re.compile(r"\s+")
_TAG = re.compile(r"</?\s*[A-Za-z][\w:-]*\s*/?>")
_MAX_SLUG = 255
_SOURCE_ID = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?")
"""GBrain's canonical source id (``src/core/source-id.ts``): 1-32 characters."""


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


_SLUG_PUNCT = frozenset("._-")


def _slug_char(ch: str, lead: bool) -> bool:
    """GBrain's slug alphabet (``src/core/cjk.ts``, ``slugifySegment``): lower-case and
    caseless letters of any script, modifier letters, digits, marks, and ``._-`` (after
    the first character of a segment). Upper-case letters never occur: GBrain lowers."""
    if ch.isascii():
        return ch.islower() or ch.isdigit() or (not lead and ch in _SLUG_PUNCT)
    if ch in _IGNORABLE:
        return False  # Hangul fillers are "letters" that show nothing
    category = unicodedata.category(ch)
    if category in ("Ll", "Lm", "Lo") or category[0] == "N":
        return True
    return not lead and category[0] == "M"


def safe_slug(value: object) -> str | None:
    """A GBrain slug or None: ``/``-separated segments of GBrain's alphabet, each
    starting with a letter or digit (so no ``..``, empty or trailing segments), at
    most 255 characters."""
    if not isinstance(value, str):
        return None
    value = value.strip()
    if not value or len(value) > _MAX_SLUG:
        return None
    for segment in value.split("/"):
        if not segment or not _slug_char(segment[0], True):
            return None
        if not all(_slug_char(ch, False) for ch in segment[1:]):
            return None
    return value


def safe_source_id(value: object) -> str | None:
    """A GBrain source id as GBrain itself validates one, else None."""
    if isinstance(value, str) and _SOURCE_ID.fullmatch(value):
        return value
    return None


# -- markup ------------------------------------------------------------------------------

_HTML_NAMES = (
    "a|abbr|audio|b|big|blockquote|body|br|button|center|code|del|details|div|em|embed|font|"
    "form|h[1-6]|head|hr|html|i|iframe|img|input|ins|kbd|li|link|mark|meta|object|ol|p|"
    "picture|pre|q|s|script|small|source|span|strike|strong|style|sub|summary|sup|svg|table|"
    "tbody|td|th|thead|title|tr|track|u|ul|video"
)
_MARKUP = (
    (re.compile(r"<!--.*?(?:-->|$)", re.DOTALL), " "),  # comments: hidden text
    (re.compile(r"!\[[^\]\n]*\]\s?(?:\([^)\n]*\)|\[[^\]\n]*\])"), " "),  # images go
    (re.compile(r"\[([^\]\n]*)\]\s?(?:\([^)\n]*\)|\[[^\]\n]*\])"), r"\1"),  # link -> text
    (re.compile(r"^\s{0,3}\[[^\]\n]+\]:\s*\S+.*$", re.MULTILINE), " "),  # link definitions
    (re.compile(r"<(?:https?|ftp|mailto|file|data|javascript):[^>\s]*>", re.IGNORECASE), " "),
    (re.compile(rf"</?(?:{_HTML_NAMES})(?:\s[^<>]*)?/?>", re.IGNORECASE), " "),  # HTML tags
    (re.compile(r"\b(?:data|javascript|vbscript):\S+", re.IGNORECASE), " "),
    (re.compile(r"^\s{0,3}#{1,6}(?=\s|$)|^\s{0,3}>+", re.MULTILINE), " "),  # heading, quote
    (re.compile(r"\*\*|__|~~|`+"), ""),  # emphasis and code marks
    (re.compile(r"(?<![\w*])[*_]+(?=\w)|(?<=\w)[*_]+(?![\w*])"), ""),  # _word_, *word*
)
_URL = re.compile(
    r"(?:https?|ftp|file)://(?:[^\s/?#@<>()\[\]]*@)?([^\s/?#:<>()\[\]]*)[^\s<>()\[\]]*",
    re.IGNORECASE,
)


def strip_markup(text: str) -> str:
    """``text`` without markdown and HTML markup: a link becomes its text, images, HTML
    comments and tags go, headings and quotes lose their marks, a bare URL keeps only
    its host (no path or query string to carry anything out)."""
    while True:  # until stable: "[[a](x)](y)" leaves "[a](y)" after one pass
        before = text
        for pattern, replacement in _MARKUP:
            text = pattern.sub(replacement, text)
        text = _URL.sub(lambda m: m.group(1).lower(), text)
        if text == before:
            return text


def plain_line(text: object, cap: int = 160) -> str:
    """:func:`one_line` of ``text`` with its markup removed first (:func:`strip_markup`):
    the form every title, summary and server message takes in a prompt."""
    if not isinstance(text, str) or cap <= 0:
        return ""
    lines = "\n".join(visible(line) for line in text.splitlines())  # markup is line-based
    return one_line(strip_markup(lines), cap)
