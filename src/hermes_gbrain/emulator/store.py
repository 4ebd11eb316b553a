"""SQLite persistence: the page store (and the shared connection the OAuth tables live in).

One connection guarded by one lock: the emulator serves a handful of concurrent test requests, so
simplicity beats throughput. ``data_dir=None`` keeps everything in memory.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import re
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from hermes_gbrain.emulator import markdown
from hermes_gbrain.emulator.pages import Chunk, Page
from hermes_gbrain.emulator.search import SearchIndex

__all__ = [
    "Chunk",
    "Database",
    "EmptyOverwrite",
    "Page",
    "PageStore",
    "Provenance",
    "PutResult",
    "iso_now",
    "iso_of",
]

DB_FILENAME = "brain.sqlite3"
# Columns added after the first release, for data directories written before them.
_ADDED_PAGE_COLUMNS = ("source_kind", "source_uri", "ingested_via", "ingested_at")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sources (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS pages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  source_id TEXT NOT NULL, slug TEXT NOT NULL, type TEXT NOT NULL, title TEXT NOT NULL,
  compiled_truth TEXT NOT NULL, timeline TEXT NOT NULL, frontmatter TEXT NOT NULL,
  tags TEXT NOT NULL, links TEXT NOT NULL, content_hash TEXT NOT NULL,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL, deleted_at TEXT,
  effective_date TEXT NOT NULL, effective_date_source TEXT NOT NULL,
  source_kind TEXT, source_uri TEXT, ingested_via TEXT, ingested_at TEXT,
  UNIQUE (source_id, slug)
);
CREATE TABLE IF NOT EXISTS page_versions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  page_id INTEGER NOT NULL, compiled_truth TEXT NOT NULL, frontmatter TEXT NOT NULL,
  snapshot_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS chunks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  page_id INTEGER NOT NULL, chunk_index INTEGER NOT NULL, chunk_source TEXT NOT NULL,
  text TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS clients (
  client_id TEXT PRIMARY KEY, name TEXT NOT NULL, secret_hash TEXT NOT NULL,
  scopes TEXT NOT NULL, token_ttl INTEGER, source_id TEXT NOT NULL,
  federated_read TEXT NOT NULL, grant_types TEXT NOT NULL, revoked INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tokens (
  token_hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, scopes TEXT NOT NULL,
  expires_at INTEGER NOT NULL, revoked INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS legacy_keys (
  key_hash TEXT PRIMARY KEY, name TEXT NOT NULL, scopes TEXT NOT NULL, created_at TEXT NOT NULL
);
"""


def iso_now() -> str:
    """UTC timestamp with milliseconds and ``Z``, the format GBrain returns."""
    return iso_of(datetime.now(UTC))


def iso_of(moment: datetime) -> str:
    return (
        moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
    )


# GBrain's computeEffectiveDate (src/core/effective-date.ts): the first date in range from
# frontmatter event_date, date, published, then a YYYY-MM-DD at the start of the slug's last
# segment (first of all under daily/ and meetings/), else the write time.
_EFFECTIVE_KEYS = ("event_date", "date", "published")
_FILENAME_FIRST = ("daily/", "meetings/")
_FILENAME_DATE_RE = re.compile(r"^(\d{4}-\d{2}-\d{2})")
_MIN_EFFECTIVE = datetime(1990, 1, 1, tzinfo=UTC)


def _loose_date(value: Any) -> datetime | None:
    """A frontmatter value as a date in [1990, now + 1 year], or ``None``."""
    moment: datetime | None = None
    if isinstance(value, str) and value.strip():
        try:
            moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            return None
    elif isinstance(value, int) and not isinstance(value, bool):
        moment = datetime.fromtimestamp(value / 1000, UTC)  # JS reads a number as epoch ms
    if moment is None:
        return None
    moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    latest = datetime.now(UTC) + timedelta(days=365)
    return moment if _MIN_EFFECTIVE <= moment <= latest else None


def effective_date(slug: str, frontmatter: dict[str, Any], fallback: str) -> tuple[str, str]:
    """``(effective_date, effective_date_source)`` of a page written at ``fallback``."""
    named = _FILENAME_DATE_RE.match(slug.rsplit("/", 1)[-1])
    candidates = [(frontmatter.get(key), key) for key in _EFFECTIVE_KEYS]
    filename = (named.group(1) if named else None, "filename")
    if slug.startswith(_FILENAME_FIRST):
        candidates.insert(0, filename)
    else:
        candidates.append(filename)
    for value, source in candidates:
        moment = _loose_date(value)
        if moment is not None:
            return iso_of(moment), source
    return fallback, "fallback"


def jsonb(value: Any) -> Any:
    """``value`` as Postgres ``jsonb`` keeps it: object keys ordered by byte length, then bytes.

    GBrain stores frontmatter in a ``jsonb`` column, so get_page returns its keys in that
    order, not as written (the content hash is taken before, in the written order)."""
    if isinstance(value, dict):
        keys = sorted(value, key=lambda k: (len(k.encode("utf-8")), k.encode("utf-8")))
        return {k: jsonb(value[k]) for k in keys}
    if isinstance(value, list):
        return [jsonb(v) for v in value]
    return value


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Database:
    """The single SQLite connection and the lock every caller takes around it."""

    def __init__(self, data_dir: str | Path | None) -> None:
        if data_dir is None:
            target = ":memory:"
            self.path: Path | None = None
        else:
            directory = Path(data_dir)
            directory.mkdir(parents=True, exist_ok=True)
            self.path = directory / DB_FILENAME
            target = str(self.path)
        self.lock = threading.RLock()
        self.conn = sqlite3.connect(target, check_same_thread=False, isolation_level=None)
        self.conn.row_factory = sqlite3.Row
        with self.lock:
            self.conn.executescript(_SCHEMA)
            known = {r["name"] for r in self.conn.execute("PRAGMA table_info(pages)")}
            for column in _ADDED_PAGE_COLUMNS:
                if column not in known:
                    self.conn.execute(f"ALTER TABLE pages ADD COLUMN {column} TEXT")

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        with self.lock:
            return self.conn.execute(sql, params).fetchall()

    def close(self) -> None:
        with self.lock:
            self.conn.close()


@dataclass(frozen=True)
class Provenance:
    """Who wrote a page: GBrain's ``source_kind``, ``source_uri`` and ``ingested_via``."""

    source_kind: str | None = None
    source_uri: str | None = None
    ingested_via: str | None = None


class EmptyOverwrite(Exception):
    """A write would blank the body of a live page (GBrain's putPage refuses it)."""


@dataclass
class PutResult:
    page: Page
    """The page as stored after the call (for a skip, the page that made it one)."""
    created: bool
    parsed: markdown.ParsedPage
    """What the content parsed to (put_page's post-write hooks read it)."""
    skipped: bool = False
    """Nothing was written: the parsed page hashed as stored (recording 102), or another page
    carries the same frontmatter ``id``."""


def _row_to_page(row: sqlite3.Row) -> Page:
    return Page(
        id=row["id"],
        source_id=row["source_id"],
        slug=row["slug"],
        type=row["type"],
        title=row["title"],
        compiled_truth=row["compiled_truth"],
        timeline=row["timeline"],
        frontmatter=json.loads(row["frontmatter"]),
        tags=json.loads(row["tags"]),
        links=json.loads(row["links"]),
        content_hash=row["content_hash"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        deleted_at=row["deleted_at"],
        effective_date=row["effective_date"],
        effective_date_source=row["effective_date_source"],
        source_kind=row["source_kind"],
        source_uri=row["source_uri"],
        ingested_via=row["ingested_via"],
        ingested_at=row["ingested_at"],
    )


class PageStore:
    """Pages, their chunks and sources. Reads share cached ``Page`` objects: do not mutate.

    A write replaces the page's object, so a caller holding an older list keeps a
    consistent (older) view."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._generation = 0
        # Pages by id (id order: ids only grow), loaded from SQLite once, then kept in step
        # with every write, so a write costs O(page), not a re-read of the store.
        self._by_id: dict[int, Page] | None = None
        self._by_key: dict[tuple[str, str], int] = {}
        self._by_time: list[tuple[str, int]] = []
        """``(updated_at, id)`` of every page, sorted: ``list_pages`` walks it by recency."""
        self._index = SearchIndex()
        self._unindexed: set[int] = set()

    # sources -------------------------------------------------------------------------------
    def add_source(self, source_id: str, name: str | None = None) -> None:
        self.db.execute(
            "INSERT OR IGNORE INTO sources (id, name, created_at) VALUES (?, ?, ?)",
            (source_id, name or source_id, iso_now()),
        )

    def source_ids(self) -> list[str]:
        return [r["id"] for r in self.db.execute("SELECT id FROM sources ORDER BY created_at, id")]

    def sources(self) -> list[tuple[str, str]]:
        rows = self.db.execute("SELECT id, name FROM sources ORDER BY created_at, id")
        return [(r["id"], r["name"]) for r in rows]

    # writes --------------------------------------------------------------------------------
    def put_page(
        self,
        slug: str,
        content: str,
        *,
        source_id: str = "default",
        now: str | None = None,
        created_at: str | None = None,
        provenance: Provenance | None = None,
        allow_empty: bool = False,
    ) -> PutResult:
        """Create or replace a page (reviving it if soft-deleted) and rebuild its chunks.

        As GBrain's ``importFromContent`` (``src/core/import-file.ts``) and the engine's
        ``putPage`` (``src/core/pglite-engine.ts``) write it; ``provenance`` is what the caller
        may stamp (``None``: an import, which leaves the columns as they are). Raises
        :class:`EmptyOverwrite` when the new compiled truth is blank and the live page's is not,
        unless ``allow_empty``."""
        stamp = now or iso_now()
        self.add_source(source_id)
        with self.db.lock:
            rows = self.db.execute(
                "SELECT * FROM pages WHERE source_id = ? AND slug = ?", (source_id, slug)
            )
            row = rows[0] if rows else None
            # importFromContent reads the page with getPage, which hides a soft-deleted one: such
            # a page keeps no type, version or date, though its row (and tags) is reused.
            live = _row_to_page(row) if row is not None and row["deleted_at"] is None else None
            # #1035: without an explicit ``type:`` a rewrite keeps the stored type (in the hash).
            parsed = markdown.parse_page(slug, content, stored_type=live.type if live else None)
            if live is not None and live.content_hash == parsed.content_hash:
                # GBrain's importer compares the new hash with the stored one and skips an
                # identical page: no write, no new updated_at (recordings 102 and 104).
                same = self.get(slug, [source_id])
                if same is not None:
                    return PutResult(same, created=False, parsed=parsed, skipped=True)
            twin = self._same_external_id(source_id, slug, parsed)
            if twin is not None:
                # importFromContent's dedup pre-check (#1309): another live page of the source
                # with this frontmatter id (found first by hash or id) takes the write: skipped.
                return PutResult(twin, created=False, parsed=parsed, skipped=True)
            if (
                not allow_empty
                and live is not None
                and not parsed.compiled_truth.strip()
                and live.compiled_truth.strip()
            ):
                # putPage's guard against a read-modify-write that read nothing (isBlankBody).
                raise EmptyOverwrite(slug)
            # computeEffectiveDate falls back to the stored page's updated_at, else the write
            # time (recording 104: the rewrite's effective_date is the first write's time).
            fallback = live.updated_at if live else stamp
            effective, effective_source = effective_date(slug, parsed.frontmatter, fallback)
            # Tags are reconciled add-only (import-file.ts, #1621): a tag dropped from the
            # frontmatter stays on the page; the hash still uses the frontmatter's tags.
            old_tags = json.loads(row["tags"]) if row is not None else []
            tags = sorted(set(old_tags) | set(parsed.tags))
            # putPage stamps ingested_at when any provenance field is written, and keeps each
            # stored column the write leaves null (COALESCE(EXCLUDED.x, pages.x)).
            given = provenance or Provenance()
            stamped = any((given.source_kind, given.source_uri, given.ingested_via))
            kept = {k: row[k] if row is not None else None for k in _ADDED_PAGE_COLUMNS}
            fresh = {
                "source_kind": given.source_kind,
                "source_uri": given.source_uri,
                "ingested_via": given.ingested_via,
                "ingested_at": stamp if stamped else None,
            }
            marks = {k: kept[k] if v is None else v for k, v in fresh.items()}
            values = (
                parsed.type,
                parsed.title,
                parsed.compiled_truth,
                parsed.timeline,
                json.dumps(jsonb(parsed.frontmatter)),
                json.dumps(tags),
                json.dumps(parsed.links),
                parsed.content_hash,
                stamp,
                effective,
                effective_source,
                *marks.values(),
            )
            if row is not None:
                page_id = int(row["id"])
                if live is not None:
                    # createVersion snapshots the live page before the write (recording 105:
                    # the earlier compiled truth, stamped with the new write's time).
                    self.db.execute(
                        "INSERT INTO page_versions"
                        " (page_id, compiled_truth, frontmatter, snapshot_at) VALUES (?,?,?,?)",
                        (page_id, row["compiled_truth"], row["frontmatter"], stamp),
                    )
                self.db.execute(
                    "UPDATE pages SET type=?, title=?, compiled_truth=?, timeline=?, frontmatter=?,"
                    " tags=?, links=?, content_hash=?, updated_at=?, effective_date=?,"
                    " effective_date_source=?, source_kind=?, source_uri=?, ingested_via=?,"
                    " ingested_at=?, deleted_at=NULL WHERE id=?",
                    (*values, page_id),
                )
                self.db.execute("DELETE FROM chunks WHERE page_id = ?", (page_id,))
            else:
                cur = self.db.conn.execute(
                    "INSERT INTO pages (type, title, compiled_truth, timeline, frontmatter,"
                    " tags, links, content_hash, updated_at, effective_date,"
                    " effective_date_source, source_kind, source_uri, ingested_via, ingested_at,"
                    " source_id, slug, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (*values, source_id, slug, created_at or stamp),
                )
                page_id = int(cur.lastrowid or 0)
            chunks = []
            for index, (kind, text) in enumerate(
                markdown.chunk_body(parsed.compiled_truth, parsed.timeline)
            ):
                cur = self.db.conn.execute(
                    "INSERT INTO chunks (page_id, chunk_index, chunk_source, text)"
                    " VALUES (?,?,?,?)",
                    (page_id, index, kind, text),
                )
                chunks.append(Chunk(int(cur.lastrowid or 0), page_id, index, kind, text))
            page = Page(
                id=page_id,
                source_id=source_id,
                slug=slug,
                type=parsed.type,
                title=parsed.title,
                compiled_truth=parsed.compiled_truth,
                timeline=parsed.timeline,
                frontmatter=jsonb(parsed.frontmatter),
                tags=tags,
                links=list(parsed.links),
                content_hash=parsed.content_hash,
                created_at=row["created_at"] if row is not None else created_at or stamp,
                updated_at=stamp,
                deleted_at=None,
                effective_date=effective,
                effective_date_source=effective_source,
                chunks=chunks,
                **marks,
            )
            self._keep(page)
        return PutResult(page, created=row is None, parsed=parsed)

    def _same_external_id(
        self, source_id: str, slug: str, parsed: markdown.ParsedPage
    ) -> Page | None:
        """``findDuplicatePage``'s first live page (by id) with the parsed page's hash or its
        frontmatter ``id``, when that is another page carrying the same ``id``."""
        wanted = parsed.frontmatter.get("id")
        if not isinstance(wanted, str) or not wanted:
            return None  # without an id GBrain only warns about a shared hash, and writes
        for page in self._loaded().values():
            if page.source_id != source_id or page.deleted_at is not None:
                continue
            if page.content_hash == parsed.content_hash or page.frontmatter.get("id") == wanted:
                same = page.slug != slug and page.frontmatter.get("id") == wanted
                return page if same else None
        return None

    def versions(self, page_id: int) -> list[dict[str, Any]]:
        """Every earlier version of a page, newest first, shaped like ``get_versions`` rows
        (GBrain's getVersions has no limit)."""
        rows = self.db.execute(
            "SELECT id, page_id, compiled_truth, frontmatter, snapshot_at FROM page_versions"
            " WHERE page_id = ? ORDER BY id DESC",
            (page_id,),
        )
        return [
            {
                "id": r["id"],
                "page_id": r["page_id"],
                "compiled_truth": r["compiled_truth"],
                "frontmatter": json.loads(r["frontmatter"]),
                "snapshot_at": r["snapshot_at"],
            }
            for r in rows
        ]

    def soft_delete(self, slug: str, source_id: str, now: str | None = None) -> Page | None:
        with self.db.lock:
            page = self.get(slug, [source_id])
            if page is None:
                return None
            stamp = now or iso_now()
            self.db.execute("UPDATE pages SET deleted_at = ? WHERE id = ?", (stamp, page.id))
            gone = replace(page, deleted_at=stamp)
            self._keep(gone)
            return gone

    def restore(self, slug: str, source_id: str) -> Page | None:
        with self.db.lock:
            page = self.get(slug, [source_id], include_deleted=True)
            if page is None or page.deleted_at is None:
                return None
            self.db.execute("UPDATE pages SET deleted_at = NULL WHERE id = ?", (page.id,))
            back = replace(page, deleted_at=None)
            self._keep(back)
            return back

    def _keep(self, page: Page) -> None:
        """Put ``page`` (a new object) in the in-memory view; call with the lock held."""
        by_id = self._loaded()
        old = by_id.get(page.id)
        if old is None or old.updated_at != page.updated_at:
            if old is not None:
                at = bisect.bisect_left(self._by_time, (old.updated_at, old.id))
                if at < len(self._by_time) and self._by_time[at] == (old.updated_at, old.id):
                    del self._by_time[at]
            bisect.insort(self._by_time, (page.updated_at, page.id))
        by_id[page.id] = page
        self._by_key[(page.source_id, page.slug)] = page.id
        self._unindexed.add(page.id)
        self._generation += 1

    def _loaded(self) -> dict[int, Page]:
        with self.db.lock:
            if self._by_id is not None:
                return self._by_id
            pages = [_row_to_page(r) for r in self.db.execute("SELECT * FROM pages ORDER BY id")]
            by_id = {p.id: p for p in pages}
            for r in self.db.execute("SELECT * FROM chunks ORDER BY page_id, chunk_index"):
                owner = by_id.get(r["page_id"])
                if owner is not None:
                    owner.chunks.append(
                        Chunk(r["id"], r["page_id"], r["chunk_index"], r["chunk_source"], r["text"])
                    )
            self._by_key = {(p.source_id, p.slug): p.id for p in pages}
            self._by_time = sorted((p.updated_at, p.id) for p in pages)
            self._unindexed = set(by_id)
            self._by_id = by_id
            return by_id

    # reads ---------------------------------------------------------------------------------
    def get(
        self, slug: str, sources: Iterable[str] | None = None, *, include_deleted: bool = False
    ) -> Page | None:
        """The page with this slug in the first matching source (``None`` = any source)."""
        with self.db.lock:
            by_id = self._loaded()
            wanted = self.source_ids() if sources is None else list(sources)
            found = [by_id[i] for s in wanted if (i := self._by_key.get((s, slug))) is not None]
        live = [p for p in found if include_deleted or p.deleted_at is None]
        return min(live, key=lambda p: p.id) if live else None

    def pages(
        self, sources: Iterable[str] | None = None, *, include_deleted: bool = False
    ) -> list[Page]:
        """All pages (with chunks) in id order, optionally limited to some sources."""
        allowed = None if sources is None else set(sources)
        with self.db.lock:
            snapshot = list(self._loaded().values())
        return [
            page
            for page in snapshot
            if (allowed is None or page.source_id in allowed)
            and (include_deleted or page.deleted_at is None)
        ]

    def by_update(self, *, descending: bool, after: str | None = None) -> Iterator[Page]:
        """Pages (deleted ones too) in ``(updated_at, id)`` order, only those updated after
        ``after``; lazily, so a caller wanting 24 rows looks at about 24 pages."""
        with self.db.lock:
            by_id = self._loaded()
            order = list(self._by_time)  # a snapshot of the order (pointers only)
        pages = by_id  # looked up, never iterated: safe beside a concurrent write
        start = 0 if after is None else bisect.bisect_right(order, (after, 1 << 62))
        if descending:
            for index in range(len(order) - 1, start - 1, -1):
                page = pages.get(order[index][1])
                if page is not None:
                    yield page
        else:
            for index in range(start, len(order)):
                page = pages.get(order[index][1])
                if page is not None:
                    yield page

    def search_index(self) -> SearchIndex:
        """The inverted index over every page, brought up to date with the writes since the
        last search (indexing is deferred to the first search after a write)."""
        with self.db.lock:
            by_id = self._loaded()
            for page_id in self._unindexed:
                self._index.add(by_id[page_id])
            self._unindexed.clear()
            return self._index

    def backlinks(self, slug: str, sources: Iterable[str] | None = None) -> list[Page]:
        """Live pages that link to ``slug``."""
        return [p for p in self.pages(sources) if slug in p.links]

    def page_count(self) -> int:
        return len(self.pages())
