"""Every page's title, kept between digest builds so the title vocabulary stays cheap.

The relevance gate weighs title words by how many of the brain's titles hold them
(:class:`~hermes_gbrain.recall.vocabulary.TitleVocabulary`). Counting that needs every
title; listing a 50,000-page brain takes 500 ``list_pages`` requests (GBrain caps a
remote listing at 100 rows). So the titles are kept in ``title_index.json`` (private,
0600) and refreshed from what changed since the last build:

* **Incremental refresh**: ``list_pages {sort: "updated_asc", updated_after}`` keyset
  paging from the newest ``updated_at`` seen (GBrain's own advice for exhaustive
  listing, in its ``list_pages`` description), starting :data:`OVERLAP` earlier so a
  write committed late with an older stamp is still seen. Rows seen twice are the same
  key, so the overlap costs nothing but a few rows. ``include_deleted`` brings soft-
  deleted rows, which are dropped from the index.
* **Full rebuild** when there is no index, it is older than :data:`FULL_REBUILD_HOURS`,
  its schema is not ours, the server cannot page by ``updated_after``, or the page
  count disagrees: ``schema_stats``' total must have moved by exactly as much as the
  index did since the last build (a deletion that left ``updated_at`` alone shows up
  here). Without ``schema_stats`` every build is a full one.

Measured with ``bench/scale.py`` (``docs/reliability.md``, "Scale"): at 50,000 pages a
full rebuild is ~500 requests, an incremental refresh after a day of edits a handful.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from ..api import LIST_PAGE_SIZE, GBrain, PageRef
from ..files import data_dir, read_state, write_atomic
from .filecache import FileCache
from .named import TitleMatcher
from .vocabulary import TitleVocabulary
from .words import STEMS_VERSION, content_stems

__all__ = [
    "FULL_REBUILD_HOURS",
    "INDEX_FILE",
    "MAX_INDEXED",
    "OVERLAP",
    "TitleIndex",
    "index_path",
    "load_index",
    "load_matcher",
    "refresh_index",
    "write_index",
]

INDEX_FILE = "title_index.json"
INDEX_SCHEMA = STEMS_VERSION
"""The stems' version (:data:`.words.STEMS_VERSION`): the file's other fields have not
changed since the first schema."""
_OLD_SCHEMAS = frozenset(range(1, INDEX_SCHEMA))
"""Schemas whose stem counts were made by an older stemmer: read, their counts made again."""
FULL_REBUILD_HOURS = 168.0
"""A week: deletions and renames GBrain did not stamp are caught by then at the latest."""
OVERLAP = timedelta(minutes=5)
MAX_INDEXED = 250_000
"""Pages kept at most (a full listing stops here; ~25 MB of titles)."""
MAX_INDEX_BYTES = 64 * 1024 * 1024
TITLE_KEEP = 200

Progress = Callable[[int, int | None], None]


@dataclass(slots=True)
class TitleIndex:
    """``(source_id, slug) -> (title, type)`` of the live pages, and where the listing got to.

    ``cursor`` is the newest ``updated_at`` seen; ``built_at`` the last full rebuild;
    ``server_total`` what ``schema_stats`` said at the last build (or None)."""

    pages: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)
    cursor: str | None = None
    built_at: str | None = None
    server_total: int | None = None
    refreshed: str = "full"
    """How the last refresh went: ``full`` or ``incremental``."""
    listed: int = 0
    """Rows received in the last refresh."""
    requests: int = 0
    """``list_pages`` requests of the last refresh."""
    df: dict[str, int] = field(default_factory=dict)
    """Stem -> how many indexed titles hold it, kept in step with ``pages``."""

    def titles(self) -> Iterator[str]:
        for (_, slug), (title, _) in self.pages.items():
            yield title or slug.rsplit("/", 1)[-1]

    def vocabulary(self) -> TitleVocabulary:
        """The gate's vocabulary: what ``TitleVocabulary.build(self.titles())`` gives,
        from the kept counts (no title is re-read)."""
        return TitleVocabulary.from_counts(len(self.pages), self.df)

    def _count(self, key: tuple[str, str], title: str, step: int) -> None:
        for stem in content_stems(title or key[1].rsplit("/", 1)[-1]):
            held = self.df.get(stem, 0) + step
            if held > 0:
                self.df[stem] = held
            else:
                self.df.pop(stem, None)

    def type_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for _, kind in self.pages.values():
            counts[kind] = counts.get(kind, 0) + 1
        return counts

    def apply(self, refs: Iterable[PageRef]) -> None:
        for ref in refs:
            key = (ref.source_id, ref.slug)
            old = self.pages.get(key)
            if ref.deleted_at:
                if old is not None:
                    del self.pages[key]
                    self._count(key, old[0], -1)
            elif old is not None or len(self.pages) < MAX_INDEXED:
                title = (ref.title or "")[:TITLE_KEEP]
                if old is None or old[0] != title:
                    if old is not None:
                        self._count(key, old[0], -1)
                    self._count(key, title, +1)
                self.pages[key] = (title, ref.type or "concept")
            if ref.updated_at and (self.cursor is None or ref.updated_at > self.cursor):
                self.cursor = ref.updated_at

    def to_json(self) -> dict[str, Any]:
        nested: dict[str, dict[str, list[str]]] = {}
        for (source, slug), (title, kind) in self.pages.items():
            nested.setdefault(source, {})[slug] = [title, kind]
        return {
            "schema": INDEX_SCHEMA,
            "cursor": self.cursor,
            "built_at": self.built_at,
            "server_total": self.server_total,
            "pages": nested,
            "df": self.df,
        }

    @classmethod
    def from_json(cls, data: Any) -> TitleIndex | None:
        schema = data.get("schema") if isinstance(data, dict) else None
        if schema != INDEX_SCHEMA and schema not in _OLD_SCHEMAS:
            return None
        cursor, built, total = data.get("cursor"), data.get("built_at"), data.get("server_total")
        nested = data.get("pages")
        if not isinstance(nested, dict) or not isinstance(built, str):
            return None
        pages: dict[tuple[str, str], tuple[str, str]] = {}
        for source, rows in nested.items():
            if not isinstance(source, str) or not isinstance(rows, dict):
                return None
            for slug, row in rows.items():
                if not (
                    isinstance(row, list) and len(row) == 2 and all(isinstance(v, str) for v in row)
                ):
                    return None
                pages[(source, slug)] = (row[0], row[1])
        df = data.get("df")
        if not isinstance(df, dict) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in df.values()
        ):
            return None
        index = cls(
            pages,
            cursor if isinstance(cursor, str) else None,
            built,
            total if isinstance(total, int) and not isinstance(total, bool) else None,
            df=df,
        )
        if schema != INDEX_SCHEMA:  # the titles are good; their stems are counted again
            index.df = {}
            for key, (title, _) in pages.items():
                index._count(key, title, +1)
        return index


def index_path(hermes_home: str | os.PathLike[str]) -> Path:
    """``$HERMES_HOME/gbrain/title_index.json``."""
    return data_dir(hermes_home) / INDEX_FILE


def load_index(hermes_home: str | os.PathLike[str]) -> TitleIndex | None:
    """The saved index, or None (missing, too large, malformed). Never raises."""
    path = index_path(hermes_home)
    try:
        size = path.stat().st_size
    except OSError:
        return None
    return _read_index(path, size)


def _read_index(path: Path, size: int) -> TitleIndex | None:
    if size > MAX_INDEX_BYTES:
        return None
    try:
        return TitleIndex.from_json(json.loads(read_state(path, MAX_INDEX_BYTES)))
    except (OSError, ValueError, RecursionError):
        return None


def _read_matcher(path: Path, size: int) -> TitleMatcher | None:
    index = _read_index(path, size)
    if index is None:
        return None
    entries = ((src, slug, title, kind) for (src, slug), (title, kind) in index.pages.items())
    return TitleMatcher(entries, index.df)


_matchers = FileCache(_read_matcher, keep=16)


def load_matcher(hermes_home: str | os.PathLike[str], *, wait: bool = False) -> TitleMatcher | None:
    """The saved index as a :class:`~.named.TitleMatcher`, or None. Built again only when
    the file changes, on a background thread unless ``wait`` (a turn never waits: until
    the new one is ready it gets the previous one). Never raises."""
    path = index_path(hermes_home)
    return _matchers.get(path) if wait else _matchers.peek(path)


def write_index(hermes_home: str | os.PathLike[str], index: TitleIndex) -> Path:
    """Replace the saved index atomically (0600: it holds page titles)."""
    text = json.dumps(index.to_json(), ensure_ascii=False, separators=(",", ":"))
    return write_atomic(index_path(hermes_home), text + "\n")


def _earlier(stamp: str, by: timedelta) -> str | None:
    """``stamp`` moved back by ``by``, in GBrain's millisecond ``Z`` form (None if unreadable)."""
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    moment = moment.astimezone(UTC) - by
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def _keyset(
    brain: GBrain,
    index: TitleIndex,
    after: str | None,
    progress: Progress | None,
    total: int | None,
) -> None:
    """Page ``updated_asc`` from ``after`` into ``index`` until a short batch.

    ``updated_after`` is strict, and many pages can share one stamp (a bulk import), so
    the next batch starts one millisecond before the last row's stamp, with ``offset``
    stepping past the rows of that stamp already seen: nothing skipped, nothing twice."""
    offset = 0
    last: str | None = None
    at_last = 0  # rows seen so far stamped ``last``
    while index.listed < MAX_INDEXED + LIST_PAGE_SIZE:
        refs, sent = brain.list_page_batch(
            sort="updated_asc",
            updated_after=after,
            include_deleted=True,
            limit=LIST_PAGE_SIZE,
            offset=offset,
        )
        index.requests += 1
        index.listed += sent
        index.apply(refs)
        if progress is not None:
            progress(index.listed, total)
        if sent < LIST_PAGE_SIZE:
            return
        for ref in refs:
            if ref.updated_at is None:
                continue
            if ref.updated_at == last:
                at_last += 1
            else:
                last, at_last = ref.updated_at, 1
        following = _earlier(last, timedelta(milliseconds=1)) if last else None
        if following is None:
            return  # rows without stamps: nothing to page by
        after, offset = following, at_last


def _full(brain: GBrain, total: int | None, now: datetime, progress: Progress | None) -> TitleIndex:
    index = TitleIndex(built_at=now.isoformat(timespec="seconds"), server_total=total)
    catalog = brain.catalog()
    if catalog.declares("list_pages", "updated_after") and catalog.declares("list_pages", "sort"):
        _keyset(brain, index, None, progress, total)
        return index

    def listed(count: int) -> None:
        index.requests += 1
        if progress is not None:
            progress(count, total)

    refs = brain.list_pages(sort="updated_desc", max_rows=MAX_INDEXED, progress=listed)
    index.listed = len(refs)
    index.apply(r for r in refs if not r.deleted_at)
    return index


def refresh_index(
    brain: GBrain,
    previous: TitleIndex | None,
    *,
    server_total: int | None,
    now: datetime | None = None,
    progress: Progress | None = None,
) -> TitleIndex:
    """The index brought up to date: incrementally from ``previous`` when it can be
    trusted, else rebuilt. ``server_total`` is ``schema_stats``' page count (or None)."""
    now = (now or datetime.now(UTC)).astimezone(UTC)
    if previous is None or previous.cursor is None or server_total is None:
        return _full(brain, server_total, now, progress)
    try:
        built = datetime.fromisoformat(previous.built_at or "")
    except ValueError:
        return _full(brain, server_total, now, progress)
    if built.tzinfo is None or not timedelta(0) <= now - built <= timedelta(
        hours=FULL_REBUILD_HOURS
    ):
        return _full(brain, server_total, now, progress)
    catalog = brain.catalog()
    if not (
        catalog.declares("list_pages", "updated_after") and catalog.declares("list_pages", "sort")
    ):
        return _full(brain, server_total, now, progress)
    start = _earlier(previous.cursor, OVERLAP)
    if start is None:
        return _full(brain, server_total, now, progress)
    before = len(previous.pages)
    index = TitleIndex(
        dict(previous.pages),
        previous.cursor,
        previous.built_at,
        server_total,
        "incremental",
        df=dict(previous.df),
    )
    _keyset(brain, index, start, progress, None)
    moved = (
        server_total - (previous.server_total or 0) if previous.server_total is not None else None
    )
    if moved is None or moved != len(index.pages) - before:
        rebuilt = _full(brain, server_total, now, progress)
        rebuilt.requests += index.requests
        return rebuilt
    return index
