"""What the ``capture`` tool adds before it hands the page to ``put_page``.

GBrain 0.46.28's ``capture`` operation (``src/core/ops/pages.ts``) is a thin layer over
``put_page``; its helpers live in ``src/core/capture-content.ts`` and the hash in
``src/core/ingestion/types.ts`` (``computeContentHash``). This module follows them:

* the hash is sha256 (hex) of the *normalized* text: a leading BOM dropped, CRLF as LF, trimmed
  of JavaScript whitespace, then NFKC (``normalizeForHash``); the stored body keeps the caller's
  bytes;
* the default slug is ``<prefix>/YYYY-MM-DD-<first 8 hex of that hash>`` (UTC date), the prefix
  ``life/diary`` for type ``diary``, ``life/events`` for ``event``, else ``inbox``
  (``defaultSlug``, ``slugPrefixForType``);
* the title is the first line that is neither blank nor ``---``, leading ``#`` marks removed,
  cut to 79 code points plus an ellipsis when longer than 80, ``Capture`` when nothing is left
  (``deriveTitle``);
* the frontmatter merge (``mergeCaptureFrontmatter``): text without frontmatter gets ``type``,
  ``title``, ``captured_via`` and ``captured_at`` and, unless it already opens with a markdown
  heading, a ``# <title>`` line above it; text with frontmatter keeps the caller's keys in place,
  where the caller's ``title``, ``captured_via`` and ``captured_at`` win, but ``type`` is the
  tool's (its ``type`` argument, default ``note``), because the operation always passes one.

``captured_at`` is one of the hash-ephemeral keys (:mod:`.markdown`), so the same text captured
twice hashes the same in ``put_page`` and the second write is skipped.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from datetime import datetime
from typing import Any

from hermes_gbrain.emulator import markdown

# ECMAScript WhiteSpace and LineTerminator: what String.prototype.trim removes.
JS_SPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_HEADING_RE = re.compile(rf"^#{{1,6}}[{JS_SPACE}]")
_HEADING_MARKS_RE = re.compile(r"^#+\s*")
_FRONTMATTER_RE = re.compile(r"^---\r?\n")
TITLE_CODEPOINTS = 80
REMOTE_CHANNEL = "capture-mcp"
"""``captured_via`` for a capture over MCP (GBrain stamps it for every remote caller)."""
NUL_SCAN_BYTES = 8 * 1024
"""GBrain looks for a NUL byte in the first 8 KiB of the UTF-8 text only."""


def js_trim(text: str) -> str:
    return text.strip(JS_SPACE)


def normalize_for_hash(text: str) -> str:
    """The text as GBrain hashes it for dedupe; the stored body is not normalized."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n")
    return unicodedata.normalize("NFKC", js_trim(text))


def content_hash(normalized: str) -> str:
    return hashlib.sha256(normalized.encode("utf-8", "surrogatepass")).hexdigest()


def nul_offset(text: str) -> int:
    """Byte offset of the first NUL in the first 8 KiB of the UTF-8 text, or -1."""
    return text.encode("utf-8", "surrogatepass")[:NUL_SCAN_BYTES].find(b"\0")


def slug_prefix(kind: str) -> str:
    return {"diary": "life/diary", "event": "life/events"}.get(kind, "inbox")


def default_slug(normalized: str, now: datetime, kind: str) -> str:
    return f"{slug_prefix(kind)}/{now:%Y-%m-%d}-{content_hash(normalized)[:8]}"


def derive_title(body: str) -> str:
    line = next(
        (x for x in body.split("\n") if js_trim(x) and js_trim(x) != "---"),
        "",
    )
    title = _HEADING_MARKS_RE.sub("", line, count=1)
    if len(title) > TITLE_CODEPOINTS:
        title = title[: TITLE_CODEPOINTS - 1] + "…"
    return title or "Capture"


def _yaml_block(meta: dict[str, Any]) -> str:
    """Frontmatter lines whose values are JSON, which YAML reads as flow scalars and lists."""
    return "".join(
        f"{key}: {json.dumps(value, ensure_ascii=False)}\n" for key, value in meta.items()
    )


def with_frontmatter(content: str, *, kind: str, captured_at: str) -> str:
    """The page ``capture`` writes: the caller's text under the merged frontmatter."""
    if not _FRONTMATTER_RE.match(content.removeprefix("\ufeff")):
        title = derive_title(content)
        meta: dict[str, Any] = {
            "type": kind,
            "title": title,
            "captured_via": REMOTE_CHANNEL,
            "captured_at": captured_at,
        }
        looks_markdown = bool(_HEADING_RE.match(content.lstrip(JS_SPACE)))
        body = content if looks_markdown else f"# {title}\n\n{content}"
    else:
        user, body = markdown.split_frontmatter(content.removeprefix("\ufeff"))
        meta = dict(user)  # the caller's keys keep their places; new ones follow
        meta["type"] = kind
        meta["title"] = user.get("title") if user.get("title") is not None else derive_title(body)
        for key, stamp in (("captured_via", REMOTE_CHANNEL), ("captured_at", captured_at)):
            meta[key] = user[key] if user.get(key) is not None else stamp
    return "---\n" + _yaml_block(meta) + "---\n" + (body if body.endswith("\n") else body + "\n")
