"""The page and chunk records the store keeps and search ranks (no storage, no ranking)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hermes_gbrain.emulator import markdown

__all__ = ["Chunk", "Page"]


@dataclass
class Chunk:
    id: int
    page_id: int
    chunk_index: int
    chunk_source: str
    text: str


@dataclass
class Page:
    """A page row with its decoded JSON columns."""

    id: int
    source_id: str
    slug: str
    type: str
    title: str
    compiled_truth: str
    timeline: str
    frontmatter: dict[str, Any]
    tags: list[str]
    links: list[str]
    content_hash: str
    created_at: str
    updated_at: str
    deleted_at: str | None
    effective_date: str
    effective_date_source: str
    chunks: list[Chunk] = field(default_factory=list)
    # Provenance columns (GBrain's pages.source_kind/source_uri/ingested_via/ingested_at): null
    # on imported pages (recording 40), stamped by a put_page over MCP (recording 101).
    source_kind: str | None = None
    source_uri: str | None = None
    ingested_via: str | None = None
    ingested_at: str | None = None

    @property
    def content(self) -> str:
        return markdown.serialize(
            kind=self.type,
            title=self.title,
            tags=self.tags,
            frontmatter=self.frontmatter,
            compiled=self.compiled_truth,
            timeline=self.timeline,
        )
