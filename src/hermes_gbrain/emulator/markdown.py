"""Page markdown: YAML-ish frontmatter, timeline split, wiki links, chunks.

GBrain stores a page as columns (title, type, tags) plus the body split into "compiled truth" and a
timeline; this module does that split for the emulator without a YAML dependency.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

# Slug prefix -> page type, as a schema pack would infer it; unmatched pages default to "concept".
PREFIX_TYPES: tuple[tuple[str, str], ...] = (
    ("people/", "person"),
    ("person/", "person"),
    ("projects/", "project"),
    ("companies/", "company"),
    ("company/", "company"),
    ("orgs/", "company"),
    ("concepts/", "concept"),
    ("meetings/", "meeting"),
    ("meeting/", "meeting"),
    ("notes/", "note"),
    ("facts/", "fact"),
    ("digests/", "digest"),
    ("runbooks/", "runbook"),
    ("decisions/", "decision"),
    ("inbox/", "note"),
    ("sources/", "source"),
    ("media/", "media"),
    ("articles/", "media"),
    ("emails/", "email"),
    ("deals/", "deal"),
)

SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9._-]*(/[a-z0-9][a-z0-9._-]*)*$")
WIKI_LINK_RE = re.compile(r"\[\[([^\]|#]+)(?:#[^\]|]*)?(?:\|[^\]]*)?\]\]")
_TIMELINE_RE = re.compile(r"^##\s+Timeline\s*$", re.MULTILINE)
_H1_RE = re.compile(r"^#\s+(.+?)\s*$", re.MULTILINE)
CHUNK_CHARS = 1200


@dataclass
class ParsedPage:
    """What ``put_page`` extracts from markdown content."""

    title: str
    type: str
    tags: list[str]
    frontmatter: dict[str, Any]
    compiled_truth: str
    timeline: str
    links: list[str] = field(default_factory=list)


def infer_type(slug: str) -> str:
    """Type from the slug prefix; GBrain's default for anything unmatched is ``concept``."""
    for prefix, kind in PREFIX_TYPES:
        if slug.startswith(prefix):
            return kind
    return "concept"


def _scalar(raw: str) -> Any:
    text = raw.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    if text.startswith("[") and text.endswith("]"):
        inner = text[1:-1].strip()
        return [_scalar(p) for p in inner.split(",")] if inner else []
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("null", "~", ""):
        return None
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    return text


def split_frontmatter(content: str) -> tuple[dict[str, Any], str]:
    """Split ``---`` frontmatter from the body (scalars, ``[a, b]`` and ``- item`` lists)."""
    text = content.replace("\r\n", "\n")
    if not text.startswith("---\n"):
        return {}, text
    end = text.find("\n---", 4)
    if end < 0:
        return {}, text
    block = text[4:end]
    rest = text[end + 4 :]
    rest = rest[1:] if rest.startswith("\n") else rest
    data: dict[str, Any] = {}
    current: str | None = None
    for line in block.split("\n"):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        stripped = line.strip()
        if stripped.startswith("- ") and current is not None:
            existing = data.get(current)
            items = existing if isinstance(existing, list) else []
            items.append(_scalar(stripped[2:]))
            data[current] = items
            continue
        key, sep, value = line.partition(":")
        if not sep:
            continue
        current = key.strip()
        data[current] = _scalar(value) if value.strip() else []
    return data, rest


def parse_page(slug: str, content: str) -> ParsedPage:
    """Parse markdown with frontmatter into the columns GBrain keeps."""
    meta, body = split_frontmatter(content)
    body = body.strip("\n")
    match = _TIMELINE_RE.search(body)
    if match:
        compiled, timeline = body[: match.start()].rstrip(), body[match.start() :].strip()
    else:
        compiled, timeline = body.rstrip(), ""
    title_raw = meta.pop("title", None)
    h1 = _H1_RE.search(compiled)
    if isinstance(title_raw, str) and title_raw.strip():
        title = title_raw.strip()
    elif h1:
        title = h1.group(1)
    else:
        title = slug.rsplit("/", 1)[-1].replace("-", " ").title()
    type_raw = meta.pop("type", None)
    kind = type_raw.strip() if isinstance(type_raw, str) and type_raw.strip() else infer_type(slug)
    tags_raw = meta.pop("tags", None)
    if isinstance(tags_raw, list):
        tags = sorted({str(t).strip() for t in tags_raw if str(t).strip()})
    elif isinstance(tags_raw, str) and tags_raw.strip():
        tags = sorted({t.strip() for t in tags_raw.split(",") if t.strip()})
    else:
        tags = []
    links: list[str] = []
    for m in WIKI_LINK_RE.finditer(compiled + "\n" + timeline):
        target = m.group(1).strip().lower()
        if target and target != slug and target not in links:
            links.append(target)
    return ParsedPage(title, kind, tags, meta, compiled, timeline, links)


def _fm_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, list):
        return "[" + ", ".join(_fm_value(v) for v in value) + "]"
    return str(value)


def serialize(
    *,
    kind: str,
    title: str,
    tags: list[str],
    frontmatter: dict[str, Any],
    compiled: str,
    timeline: str,
) -> str:
    """Canonical markdown (frontmatter, body, timeline), as ``fetch`` returns it."""
    lines = ["---", f"type: {kind}", f"title: {title}"]
    if tags:
        lines.append(f"tags: {_fm_value(tags)}")
    lines.extend(f"{k}: {_fm_value(v)}" for k, v in frontmatter.items())
    lines.append("---")
    text = "\n".join(lines) + "\n\n" + compiled + "\n"
    if timeline:
        text += "\n" + timeline + "\n"
    return text


def chunk_body(compiled: str, timeline: str) -> list[tuple[str, str]]:
    """Split into ``(chunk_source, text)`` pieces: paragraphs packed up to ``CHUNK_CHARS``."""
    chunks: list[tuple[str, str]] = []
    if compiled.strip():
        current = ""
        for para in re.split(r"\n\s*\n", compiled):
            candidate = f"{current}\n\n{para}" if current else para
            if current and len(candidate) > CHUNK_CHARS:
                chunks.append(("compiled_truth", current))
                current = para
            else:
                current = candidate
        if current.strip():
            chunks.append(("compiled_truth", current))
    if timeline.strip():
        chunks.append(("timeline", timeline))
    return chunks


def summary_of(compiled: str) -> str:
    """First sentence of the first prose paragraph (entity cards use it)."""
    for para in re.split(r"\n\s*\n", compiled):
        text = para.strip()
        if not text or text.startswith("#"):
            continue
        flat = " ".join(text.split())
        m = re.search(r"^(.+?[.!?])(\s|$)", flat)
        return m.group(1) if m else flat[:200]
    return ""


def flatten(text: str, limit: int = 400) -> str:
    """Whitespace-collapsed text, as link ``context`` shows it."""
    flat = " ".join(text.split())
    return flat[:limit]
