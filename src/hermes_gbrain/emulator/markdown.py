"""Page markdown: frontmatter, timeline split, wiki links, chunks, content hash.

GBrain stores a page as columns (title, type, tags) plus the body split into "compiled truth" and a
timeline; this module does that split for the emulator (the frontmatter read by :mod:`.yamlload`,
written back by :mod:`.yamldump`), following
GBrain's ``parseMarkdown`` (``src/core/markdown.ts``) as ``put_page`` calls it
(``importFromContent`` in ``src/core/import-file.ts`` passes ``slug + ".md"`` as the file path):

* the body is split at a timeline sentinel (``<!-- timeline -->``, ``--- timeline ---``, or a
  ``---`` line whose next non-empty line is a ``## Timeline``/``## History`` heading); a bare
  ``---`` is a horizontal rule (``splitBody``, ``findTimelineSplitIndex``). With no sentinel, a
  ``## Timeline``/``## History`` section of dated bullets after some text moves to the timeline,
  heading included (``findBareTimelineSection``);
* the title is the frontmatter ``title``, else the body's first ``# `` heading outside code
  fences (``inferTitleFromBody``), else the file name with dashes and underscores as spaces and
  each word capitalised (``inferTitle``);
* CRLF line ends are kept: GBrain stores, hashes and returns the body as it was sent;
* ``type``, ``title``, ``tags`` and ``slug`` leave the frontmatter; tags keep their order and
  duplicates (``extractTags``); both body parts are trimmed.

``content_hash`` is GBrain's ``contentHash`` (``src/core/utils.ts``): sha256 of
``JSON.stringify({title, type, compiled_truth, timeline, frontmatter, tags})`` in that key order,
with the hash-ephemeral frontmatter keys removed and the tags sorted. Recording 101 pins it.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

from hermes_gbrain.emulator import yamldump, yamlload

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
_TIMELINE_HEADING_RE = re.compile(r"^##\s+(timeline|history)\b", re.IGNORECASE)
_DECORATED_RE = re.compile(r"^---\s+timeline\s+---$", re.IGNORECASE)
_FENCE_RE = re.compile(r"^\s*(`{3,}|~{3,})")
# JavaScript's "." stops at CR, LF, U+2028 and U+2029; "$" (no m flag) is the end of the line.
_H1_RE = re.compile(r"^#(?!#)\s+([^\r\n\u2028\u2029]+?)\s*$")
_H1_CLOSING_RE = re.compile(r"\s+#+\s*$")
_DATED_BULLET_RE = re.compile(r"^\s*[-*+]\s+\**\d{4}\b", re.ASCII)
_H2_RE = re.compile(r"^##\s+\S")
# hasFrontmatterFieldSyntax: a line that starts like a "key:" entry.
_FIELD_RE = re.compile(r"""^(?:['"][^'"]+['"]|[A-Za-z_][\w.-]*)\s*:""")
CHUNK_CHARS = 1200

# GBrain's HASH_EPHEMERAL_FRONTMATTER_KEYS (src/core/utils.ts): stamped per write or re-derived by
# its gates, so left out of the hash.
HASH_EPHEMERAL_KEYS = (
    "captured_at",
    "ingested_at",
    "quarantine",
    "content_flag",
    "embed_skip",
    "atoms_scan_hash",
)
# Markers a remote put_page may not plant (import-file.ts strips them when ``remote``).
REMOTE_STRIPPED_KEYS = ("quarantine", "content_flag", "embed_skip")


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
    content_hash: str = ""


def infer_type(slug: str) -> str:
    """Type from the slug prefix; GBrain's default for anything unmatched is ``concept``."""
    for prefix, kind in PREFIX_TYPES:
        if slug.startswith(prefix):
            return kind
    return "concept"


def split_frontmatter(content: str) -> tuple[dict[str, Any], str]:
    """Split ``---`` frontmatter from the body, the block read as js-yaml reads it.

    As gray-matter does it (``parseMatter``): the block ends at the first ``\n---``, one ``\r``
    and one ``\n`` after that fence are dropped, and the body is kept byte for byte, CRLF line
    ends included (GBrain stores and returns them: ``importFromContent`` never normalizes).
    Raises :class:`~.yamlload.YamlError` for a block that looks like frontmatter but is not
    YAML (GBrain's put_page then answers ``status: "error"``); a block that does not look like
    frontmatter at all leaves the whole text as the body.
    """
    opener = re.match(r"---\r?\n", content)
    if opener is None:
        return {}, content
    end = content.find("\n---", opener.end() - 1)
    if end < 0:
        return {}, content
    block = content[opener.end() : end]
    rest = content[end + 4 :]
    rest = rest.removeprefix("\r")
    rest = rest.removeprefix("\n")
    try:
        return _js(yamlload.load(block)), rest
    except yamlload.YamlError:
        # collectValidationErrors reports YAML_PARSE only for a block with a "key:" line.
        if any(_FIELD_RE.match(line.strip()) for line in block.split("\n")):
            raise
        return {}, content


def split_body(body: str) -> tuple[str, str]:
    """GBrain's ``splitBody``: compiled truth and timeline, split at the first sentinel line,
    else around a bare timeline section."""
    lines = body.split("\n")
    for index, line in enumerate(lines):
        trimmed = line.strip()
        sentinel = trimmed in ("<!-- timeline -->", "<!--timeline-->") or bool(
            _DECORATED_RE.match(trimmed)
        )
        if not sentinel and trimmed == "---" and "\n".join(lines[:index]).strip():
            following = next((n.strip() for n in lines[index + 1 :] if n.strip()), "")
            sentinel = bool(_TIMELINE_HEADING_RE.match(following))
        if sentinel:
            return "\n".join(lines[:index]), "\n".join(lines[index + 1 :])
    section = _bare_timeline_section(lines)
    if section is not None:
        start, end = section
        return "\n".join(lines[:start] + lines[end:]), "\n".join(lines[start:end])
    return body, ""


def _bare_timeline_section(lines: list[str]) -> tuple[int, int] | None:
    """``findBareTimelineSection`` (GBrain #2225): the first ``## Timeline``/``## History``
    heading outside code fences, after some text, whose section (to the next ``## `` heading)
    is dated bullets only; its ``[start, end)`` line range, heading included."""
    in_fence = False
    for index, line in enumerate(lines):
        if _FENCE_RE.match(line):
            in_fence = not in_fence
            continue
        if in_fence or not _TIMELINE_HEADING_RE.match(line.strip()):
            continue
        if not "\n".join(lines[:index]).strip():
            continue
        end, dated, shaped = len(lines), 0, True
        for at in range(index + 1, len(lines)):
            trimmed = lines[at].strip()
            if _H2_RE.match(trimmed):
                end = at
                break
            if not trimmed:
                continue
            if _DATED_BULLET_RE.match(lines[at]):
                dated += 1
                continue
            if dated and re.match(r"^\s{2,}\S", lines[at]):
                continue  # a wrapped bullet
            shaped = False
            break
        if shaped and dated:
            return index, end
    return None


def title_from_body(body: str) -> str:
    """GBrain's ``inferTitleFromBody``: the first ``# `` heading outside code fences."""
    in_fence = False
    for line in body.split("\n"):
        if _FENCE_RE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        heading = _H1_RE.match(line)
        if heading:
            return _H1_CLOSING_RE.sub("", heading.group(1)).strip()
    return ""


def infer_title(slug: str) -> str:
    """GBrain's ``inferTitle`` for ``<slug>.md``: ``notes/my-idea`` -> ``My Idea``."""
    name = slug.rsplit("/", 1)[-1] or "Untitled"
    words = re.sub(r"[-_]", " ", name)
    return re.sub(r"\b\w", lambda m: m.group(0).upper(), words, flags=re.ASCII)


def _string(value: Any) -> str:
    """``coerceFrontmatterString``: ``None`` is empty, a date its ``YYYY-MM-DD``, else
    ``String(value)``."""
    if value is None:
        return ""
    if isinstance(value, yamlload.JsDate):
        return value[:10]
    return yamlload.js_text(value)


def _tags(raw: Any) -> list[str]:
    """GBrain's ``extractTags``: a list as strings, or a comma-separated string."""
    if isinstance(raw, list):
        return [yamlload.js_text(t) for t in raw]
    if isinstance(raw, str) and raw:
        return [t.strip() for t in raw.split(",") if t.strip()]
    return []


def _js(value: Any) -> Any:
    """Whole floats as ints, as ``JSON.stringify`` prints them."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _js(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_js(v) for v in value]
    return value


def content_hash(
    *,
    title: str,
    kind: str,
    compiled_truth: str,
    timeline: str,
    frontmatter: dict[str, Any],
    tags: list[str],
) -> str:
    """GBrain's ``contentHash`` (``src/core/utils.ts``); field order is part of the hash."""
    meta = {k: v for k, v in frontmatter.items() if k not in HASH_EPHEMERAL_KEYS and k != "tags"}
    shape = {
        "title": title,
        "type": kind,
        "compiled_truth": compiled_truth,
        "timeline": timeline or "",
        "frontmatter": _js(meta),
        "tags": sorted(str(t) for t in tags),
    }
    text = json.dumps(shape, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def parse_page(
    slug: str, content: str, *, remote: bool = True, stored_type: str | None = None
) -> ParsedPage:
    """Parse markdown with frontmatter into the columns GBrain keeps, and its content hash.

    ``stored_type`` is the type of the page being rewritten: without an explicit ``type:`` it is
    kept rather than inferred again (``importFromContent``, GBrain #1035)."""
    meta, body = split_frontmatter(content)
    compiled, timeline = split_body(body)
    compiled, timeline = compiled.strip(), timeline.strip()
    kind = _string(meta.get("type")) or stored_type or infer_type(slug)
    title = _string(meta.get("title")).strip() or title_from_body(body) or infer_title(slug)
    tags = _tags(meta.get("tags"))
    for key in ("type", "title", "tags", "slug"):
        meta.pop(key, None)
    if remote:
        for key in REMOTE_STRIPPED_KEYS:
            meta.pop(key, None)
    links: list[str] = []
    for m in WIKI_LINK_RE.finditer(compiled + "\n" + timeline):
        target = m.group(1).strip().lower()
        if target and target != slug and target not in links:
            links.append(target)
    digest = content_hash(
        title=title,
        kind=kind,
        compiled_truth=compiled,
        timeline=timeline,
        frontmatter=meta,
        tags=tags,
    )
    stored_tags = sorted(set(tags))  # one row per tag in GBrain's tags table, listed sorted
    return ParsedPage(title, kind, stored_tags, meta, compiled, timeline, links, digest)


def serialize(
    *,
    kind: str,
    title: str,
    tags: list[str],
    frontmatter: dict[str, Any],
    compiled: str,
    timeline: str,
) -> str:
    """Canonical markdown, as ``get_page`` (``include_content``) and ``fetch`` return it.

    GBrain's ``serializeMarkdown``: ``type``, ``title``, the stored frontmatter, then ``tags``
    when there are any, dumped as js-yaml does (:mod:`.yamldump`); the body, and the timeline
    after the ``<!-- timeline -->`` sentinel."""
    meta: dict[str, Any] = {"type": kind, "title": title, **frontmatter}
    if tags:
        meta["tags"] = list(tags)
    body = compiled
    if timeline:
        body += "\n\n<!-- timeline -->\n\n" + timeline
    return "---\n" + yamldump.dump_mapping(meta) + "\n---\n\n" + body + "\n"


def chunk_body(compiled: str, timeline: str) -> list[tuple[str, str]]:
    """Split into ``(chunk_source, text)`` pieces: paragraphs packed up to ``CHUNK_CHARS``."""
    chunks: list[tuple[str, str]] = []
    if compiled.strip():
        # Paragraphs keep the line breaks between them as written (CRLF ones too): a page
        # that fits one chunk is that chunk verbatim, as GBrain's chunk_text shows it.
        pieces = re.split(r"(\n\s*\n)", compiled)
        current = pieces[0]
        for gap, para in zip(pieces[1::2], pieces[2::2], strict=True):
            candidate = current + gap + para
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
