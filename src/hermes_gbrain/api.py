"""Typed GBrain calls over MCP, sending only the arguments the server declares.

GBrain versions differ (0.46.28 has no ``fields`` and no ``source_id`` on ``search``;
newer ones add them), and a server in ``strict_params: reject`` mode fails any call
carrying an undeclared argument. So optional arguments go through ``_declared``,
which drops what ``tools/list`` does not show. Rows are filtered at parse time to the
few fields we use: everything else the server returns is untrusted and unneeded.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .errors import GBrainError, ProtocolError, ToolError
from .mcp import MCPClient, ToolCatalog, ToolResult
from .text import safe_slug
from .transport import call_deadline

__all__ = [
    "LIST_PAGE_SIZE",
    "GBrain",
    "HotFact",
    "Page",
    "PageRef",
    "SearchResult",
    "SearchRow",
    "UnsupportedError",
    "parse_hot_facts",
]

LIST_PAGE_SIZE = 100
"""GBrain caps ``list_pages`` at 100 rows for remote callers, with no 'more' flag."""
MAX_LISTED = 50_000
SNIPPET_KEEP = 2_000
"""At most this much of a row's ``chunk_text`` is kept (briefings use ~160 chars)."""
BACKLINK_COEF = 0.05
"""GBrain's backlink boost is ``1 + 0.05 ln(1 + links)`` (``hybrid.ts``
``BACKLINK_BOOST_COEF``, ``applyBacklinkBoost``)."""


class UnsupportedError(GBrainError):
    """The server does not offer what the call needs (a tool or an argument)."""


@dataclass(frozen=True, slots=True)
class SearchRow:
    """One search hit, reduced to what recall uses. ``title`` is untrusted text."""

    slug: str
    title: str
    source_id: str
    type: str | None = None
    score: float | None = None
    injection_suspected: bool = False
    evidence: str | None = None
    snippet: str = field(default="", compare=False, repr=False)
    """The row's ``chunk_text`` as the server sent it (capped by ``snippet_chars``);
    untrusted, kept out of ``repr`` and equality."""
    exact_lookup: str | None = field(default=None, compare=False)
    """``title`` or ``slug`` when GBrain matched the whole query to the page's title or
    slug (absent otherwise)."""
    cosine: float | None = field(default=None, compare=False)
    """Query-to-chunk cosine on a hybrid brain (absent on a keyword-only one)."""
    keyword_hit: bool = field(default=False, compare=False)
    """A lexical arm (keyword or title search) found the row; on a hybrid brain a row
    without it came from the vector arm alone."""
    base_score: float | None = field(default=None, compare=False)
    """The score before GBrain's boosts (title, backlinks, recency)."""
    backlink_boost: float | None = field(default=None, compare=False)
    """GBrain's factor for the pages linking to this one, ``1 + 0.05 ln(1 + links)``
    (``hybrid.ts`` ``applyBacklinkBoost``; absent when none does)."""

    @property
    def linked_from(self) -> int:
        """How many pages link to this one, read back from :attr:`backlink_boost` (0 when
        GBrain sent none, or a factor past any brain's)."""
        boost = self.backlink_boost
        if boost is None or not 1.0 < boost < 2.0:
            return 0
        return round(math.expm1((boost - 1.0) / BACKLINK_COEF))


@dataclass(frozen=True, slots=True)
class HotFact:
    """One fact of ``_meta.brain_hot_memory`` (GBrain's ``src/core/facts/meta-hook.ts``):
    recent facts the server attaches to successful calls. Untrusted text."""

    id: str
    fact: str = field(repr=False)
    kind: str = "fact"
    entity_slug: str | None = None
    created_at: str = ""
    context: str | None = field(default=None, repr=False)


MAX_HOT_FACTS = 25  # GBrain caps hot memory at 25 (meta-hook.ts); more is not its answer
MAX_FACT_CHARS = 2_000


def parse_hot_facts(meta: Mapping[str, Any]) -> tuple[HotFact, ...]:
    """The facts of ``result._meta.brain_hot_memory`` (recording 99b), malformed ones skipped."""
    hot = meta.get("brain_hot_memory") if isinstance(meta, Mapping) else None
    facts = hot.get("facts") if isinstance(hot, Mapping) else None
    if not isinstance(facts, list):
        return ()
    out = []
    for item in facts[:MAX_HOT_FACTS]:
        if not isinstance(item, Mapping):
            continue
        fact_id, text = item.get("id"), _str(item.get("fact"))
        if isinstance(fact_id, bool) or not isinstance(fact_id, int | str) or not text:
            continue
        out.append(
            HotFact(
                id=str(fact_id)[:40],
                fact=text[:MAX_FACT_CHARS],
                kind=(_str(item.get("kind")) or "fact")[:40],
                entity_slug=_str(item.get("entity_slug")),
                created_at=(_str(item.get("created_at")) or "")[:40],
                context=_str(item.get("context")),
            )
        )
    return tuple(out)


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Rows plus what the server said about the search (degraded stages, notes, and the
    hot-memory facts it attached)."""

    rows: tuple[SearchRow, ...]
    tool: str = "search"
    degraded: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    facts: tuple[HotFact, ...] = ()


@dataclass(frozen=True, slots=True)
class PageRef:
    """A ``list_pages`` row."""

    slug: str
    title: str
    source_id: str
    type: str | None = None
    updated_at: str | None = None
    deleted_at: str | None = None


@dataclass(frozen=True, slots=True)
class Page:
    """A whole page from ``get_page``; every text field is untrusted."""

    slug: str
    title: str
    source_id: str
    type: str | None
    compiled_truth: str
    timeline: str
    tags: tuple[str, ...] = ()
    updated_at: str | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _number(value: Any) -> float | None:
    """A finite number, else None: NaN or infinity would break JSON output and gates."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:  # an int too large for a float
        return None
    return number if math.isfinite(number) else None


def _rows(
    data: Any, tool: str, *, title: str = "title"
) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """Each object row with a valid slug, as (``slug``/``title``/``source_id``/``type``
    read the one way every row type shares, the row); anything else is skipped."""
    if not isinstance(data, list):
        raise ProtocolError(f"{tool} returned something other than a list of rows")
    for item in data:
        if isinstance(item, dict):
            slug = safe_slug(item.get("slug"))
            if slug is not None:
                common = {
                    "slug": slug,
                    "title": _str(item.get(title)) or "",
                    "source_id": _str(item.get("source_id")) or "default",
                    "type": _str(item.get("type")),
                }
                yield common, item


def parse_search_rows(data: Any) -> tuple[SearchRow, ...]:
    """Keep what recall reads: names, score, evidence, the flags and the hybrid signals."""
    return tuple(
        SearchRow(
            **common,
            score=_number(item.get("score")),
            injection_suspected=item.get("injection_suspected") is True,
            evidence=_str(item.get("evidence")),
            snippet=(_str(item.get("chunk_text")) or "")[:SNIPPET_KEEP],
            exact_lookup=_str(item.get("exact_lookup")),
            cosine=_number(item.get("cosine")),
            keyword_hit=item.get("keyword_hit") is True,
            base_score=_number(item.get("base_score")),
            backlink_boost=_number(item.get("backlink_boost")),
        )
        for common, item in _rows(data, "search")
    )


def _search_result(result: ToolResult, tool: str) -> SearchResult:
    return SearchResult(
        rows=parse_search_rows(result.data),
        tool=tool,
        degraded=_degraded(result),
        notes=result.notes,
        facts=parse_hot_facts(result.meta),
    )


def _degraded(result: ToolResult) -> tuple[str, ...]:
    retrieval = result.meta.get("retrieval")
    stages = retrieval.get("degraded") if isinstance(retrieval, dict) else None
    if not isinstance(stages, list):
        return ()
    return tuple(
        s["stage"] for s in stages if isinstance(s, dict) and isinstance(s.get("stage"), str)
    )


def _page_refs(data: Any) -> list[PageRef]:
    return [
        PageRef(
            **common,
            updated_at=_str(item.get("updated_at")),
            deleted_at=_str(item.get("deleted_at")),
        )
        for common, item in _rows(data, "list_pages")
    ]


class GBrain:
    """The GBrain operations this package uses, over one ``MCPClient``."""

    def __init__(self, mcp: MCPClient) -> None:
        self.mcp = mcp

    def __repr__(self) -> str:
        return f"GBrain({self.mcp.url!r})"

    # -- capability checks --------------------------------------------------------------

    def catalog(self, *, refresh: bool = False) -> ToolCatalog:
        return self.mcp.catalog(refresh=refresh)

    def _declared(
        self, tool: str, required: Mapping[str, Any], optional: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Required arguments always; optional ones only when set and declared."""
        catalog = self.catalog()
        if not catalog.has(tool):
            raise UnsupportedError(f"the server offers no {tool!r} tool to this credential")
        args = dict(required)
        for name, value in optional.items():
            if value is not None and catalog.declares(tool, name):
                args[name] = value
        return args

    def _call(self, tool: str, required: Mapping[str, Any], **optional: Any) -> ToolResult:
        # A cold catalog fetch and the call itself share one deadline.
        with call_deadline(self.mcp.deadline_s):
            return self.mcp.call_tool(tool, self._declared(tool, required, optional))

    # -- reads ------------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        limit: int = 10,
        snippet_chars: int | None = None,
        source_id: str | None = None,
        types: list[str] | None = None,
        lean: bool = True,
    ) -> SearchResult:
        """Keyword/hybrid search. A source filter is never dropped silently.

        ``search`` on GBrain 0.46.28 has no ``source_id``; ``query`` does. With a filter
        set, we use whichever declares it (``query`` without LLM expansion), and raise
        ``UnsupportedError`` when neither does.
        """
        with call_deadline(self.mcp.deadline_s):
            catalog = self.catalog()
            tool = "search"
            extra: dict[str, Any] = {}
            if not catalog.has("search") and catalog.has("query"):
                tool = "query"  # a surface without search: the same rows, no LLM expansion
                extra["expand"] = False
            if source_id is not None and not catalog.declares("search", "source_id"):
                if not catalog.declares("query", "source_id"):
                    raise UnsupportedError("the server cannot filter searches by source")
                tool = "query"
                extra["expand"] = False
            result = self._call(
                tool,
                {"query": query},
                limit=limit,
                snippet_chars=snippet_chars,
                source_id=source_id,
                types=types,
                fields="lean" if lean else None,
                **extra,
            )
        return _search_result(result, tool)

    def query(
        self,
        query: str,
        *,
        limit: int = 10,
        snippet_chars: int | None = None,
        source_id: str | None = None,
        types: list[str] | None = None,
        expand: bool = False,
    ) -> SearchResult:
        """GBrain's ``query`` (hybrid; ``expand`` asks for LLM query expansion where the
        server has an LLM). Rows have the shape of ``search`` rows."""
        result = self._call(
            "query",
            {"query": query},
            limit=limit,
            snippet_chars=snippet_chars,
            source_id=source_id,
            types=types,
            expand=expand,
        )
        return _search_result(result, "query")

    def volunteer_context(
        self,
        window: str,
        *,
        prior_context: str | None = None,
        max_pages: int | None = None,
        min_confidence: float | None = None,
    ) -> SearchResult:
        """GBrain's ``volunteer_context``: pages *named* in a conversation window
        (``user:``/``assistant:`` lines), confidence-gated, no search.

        Rows carry the page's synopsis as ``snippet``, its confidence as ``score`` and
        an ``evidence`` of ``alias_hit`` / ``exact_title_match`` for alias and title
        matches (``None`` for surname and slug matches)."""
        result = self._call(
            "volunteer_context",
            {"window": window},
            prior_context=prior_context,
            max_pages=max_pages,
            min_confidence=min_confidence,
        )
        data = result.data
        pages = data.get("pages") if isinstance(data, dict) else None
        if not isinstance(pages, list):
            raise ProtocolError("volunteer_context returned no list of pages")
        evidence = {"alias": "alias_hit", "title": "exact_title_match"}
        rows = tuple(
            SearchRow(
                **common,
                score=_number(item.get("confidence")),
                evidence=evidence.get(_str(item.get("arm")) or ""),
                snippet=(_str(item.get("synopsis")) or "")[:SNIPPET_KEEP],
            )
            for common, item in _rows(pages, "volunteer_context", title="display")
        )
        return SearchResult(rows=rows, tool="volunteer_context", notes=result.notes)

    def recall_rows(
        self,
        message: str,
        *,
        window: str | None = None,
        prior_context: str | None = None,
        limit: int = 8,
        snippet_chars: int | None = 240,
        source_id: str | None = None,
        also: str | None = None,
    ) -> SearchResult:
        """The rows to gate for one turn: ``volunteer_context`` first, then ``search``.

        Chosen by measurement (``bench/relevance.py``): under the relevance gate the union
        finds more named pages than ``search`` alone (a surname or an alias GBrain's
        keyword ranking leaves below the cut) at the same precision and no-answer rate;
        ``query`` adds nothing without an LLM, and ``volunteer_context`` alone misses
        every paraphrase. ``window`` is the conversation as ``user:``/``assistant:`` lines
        (default: the message alone); ``prior_context`` text naming pages already shown
        (as ``[source:slug]``) keeps them out of the volunteered rows. Without a
        ``volunteer_context`` tool, or with a source filter (it has none), only the
        searches run. ``also`` is a second search query (``recall.pairs``): its rows come
        last, and only when the message's own rows carry no ``cosine`` (a keyword-only
        brain). Every call runs at once; a page volunteered or searched is not added again,
        and a volunteered row takes the searched twin's title and text.
        """
        volunteered: list[SearchRow] = []
        extra: list[SearchRow] = []
        helpers: list[threading.Thread] = []

        def beside(into: list[SearchRow], call: Callable[[], SearchResult], name: str) -> None:
            """A side channel, run at once: its failure leaves the search rows the turn."""

            def run() -> None:
                try:
                    into.extend(call().rows)
                except Exception:  # quiet: no traceback from the helper thread
                    into.clear()

            helpers.append(threading.Thread(target=run, name=name, daemon=True))

        if source_id is None and self.catalog().has("volunteer_context"):
            window_text = window or f"user: {message}"
            beside(
                volunteered,
                lambda: self.volunteer_context(
                    window_text, prior_context=prior_context, max_pages=5
                ),
                "gbrain-volunteer",
            )
        if also:
            pairs_query = also
            beside(
                extra,
                lambda: self.search(
                    pairs_query,
                    limit=limit,
                    snippet_chars=snippet_chars,
                    source_id=source_id,
                    lean=False,
                ),
                "gbrain-search-also",
            )
        for helper in helpers:
            helper.start()
        try:
            found = self.search(
                message, limit=limit, snippet_chars=snippet_chars, source_id=source_id, lean=False
            )
        finally:
            for helper in helpers:
                helper.join()  # bounded: every request has its own deadline
        searched = {(r.source_id, r.slug): r for r in found.rows}
        merged = []
        for row in volunteered:  # the searched row has the page title and text; keep the evidence
            twin = searched.get((row.source_id, row.slug))
            merged.append(replace(twin, evidence=row.evidence or twin.evidence) if twin else row)
        seen = {(r.source_id, r.slug) for r in merged}
        rows = [*merged, *(r for r in found.rows if (r.source_id, r.slug) not in seen)]
        if all(r.cosine is None for r in found.rows):  # a hybrid brain's vectors do better
            seen.update((r.source_id, r.slug) for r in found.rows)
            for row in extra:  # its evidence is about the pairs, not the message: dropped
                if (row.source_id, row.slug) not in seen:
                    seen.add((row.source_id, row.slug))
                    rows.append(replace(row, evidence=None))
        return SearchResult(
            rows=tuple(rows),
            tool=found.tool,
            degraded=found.degraded,
            notes=found.notes,
            facts=found.facts,
        )

    def list_pages(
        self,
        *,
        type: str | None = None,
        tag: str | None = None,
        sort: str | None = None,
        source_id: str | None = None,
        updated_after: str | None = None,
        include_deleted: bool | None = None,
        max_rows: int = MAX_LISTED,
        progress: Callable[[int], None] | None = None,
    ) -> list[PageRef]:
        """Every matching page, paging past the 100-row cap with ``offset``.

        Stops at a short page, at ``max_rows``, or when a server ignores ``offset``
        (the same first slug comes back twice). ``progress`` is told the running
        count after each batch (a progress bar for large brains).
        """
        refs: list[PageRef] = []
        seen_first: set[tuple[str, str]] = set()
        offset = 0
        while len(refs) < max_rows:
            result = self._call(
                "list_pages",
                {},
                type=type,
                tag=tag,
                sort=sort,
                source_id=source_id,
                updated_after=updated_after,
                include_deleted=include_deleted,
                limit=LIST_PAGE_SIZE,
                offset=offset or None,
            )
            batch = _page_refs(result.data)
            if not batch:
                break
            first = (batch[0].source_id, batch[0].slug)
            if first in seen_first:
                break
            seen_first.add(first)
            refs.extend(batch[: max_rows - len(refs)])
            if progress is not None:
                progress(len(refs))
            if len(result.data) < LIST_PAGE_SIZE:
                break
            offset += len(result.data)
        return refs

    def list_page_batch(
        self,
        *,
        type: str | None = None,
        sort: str | None = None,
        updated_after: str | None = None,
        include_deleted: bool | None = None,
        limit: int = LIST_PAGE_SIZE,
        offset: int = 0,
    ) -> tuple[list[PageRef], int]:
        """One ``list_pages`` request: its usable rows and how many rows the server sent.

        For callers that page themselves (a few recent rows per type, or keyset paging
        with ``updated_after``): a batch shorter than ``limit`` (by the server's count,
        before unusable rows are dropped) is the last one."""
        result = self._call(
            "list_pages",
            {},
            type=type,
            sort=sort,
            updated_after=updated_after,
            include_deleted=include_deleted,
            limit=max(1, min(LIST_PAGE_SIZE, limit)),
            offset=offset or None,
        )
        sent = len(result.data) if isinstance(result.data, list) else 0
        return _page_refs(result.data), sent

    def get_page(
        self, slug: str, *, fuzzy: bool | None = None, source_id: str | None = None
    ) -> Page:
        data = self._object("get_page", {"slug": slug}, fuzzy=fuzzy, source_id=source_id)
        tags = data.get("tags")
        return Page(
            slug=safe_slug(data.get("slug")) or slug,
            title=_str(data.get("title")) or "",
            source_id=_str(data.get("source_id")) or "default",
            type=_str(data.get("type")),
            compiled_truth=_str(data.get("compiled_truth")) or "",
            timeline=_str(data.get("timeline")) or "",
            tags=tuple(t for t in tags if isinstance(t, str)) if isinstance(tags, list) else (),
            updated_at=_str(data.get("updated_at")),
            raw=data,
        )

    def schema_stats(self) -> dict[str, Any]:
        return self._object("schema_stats", {})

    def get_brain_identity(self) -> dict[str, Any]:
        return self._object("get_brain_identity", {})

    def whoami(self) -> dict[str, Any]:
        return self._object("whoami", {})

    # -- writes -----------------------------------------------------------------------

    def put_page(self, slug: str, content: str) -> dict[str, Any]:
        """Create or replace a page from markdown (frontmatter included).

        GBrain refuses some pages without ``isError``: ``status: "error"`` for frontmatter it
        cannot parse, ``status: "skipped"`` with an ``error`` for content over its 5 MB limit,
        and ``status: "skipped"`` under another slug when another page already carries the
        content's frontmatter ``id`` (``importFromContent``, ``src/core/import-file.ts``).
        Nothing was written at ``slug``, so these raise :class:`ToolError` (``invalid_params``:
        sending the same text again cannot help).
        """
        data = self._object("put_page", {"slug": slug, "content": content})
        status, error, answered = data.get("status"), data.get("error"), data.get("slug")
        if status == "error" or (status == "skipped" and error):
            raise ToolError("put_page", "invalid_params", detail=str(error or ""))
        if status == "skipped" and isinstance(answered, str) and answered != slug.lower():
            raise ToolError(
                "put_page",
                "invalid_params",
                detail="not written: another page already carries this frontmatter id",
            )
        return data

    def delete_page(self, slug: str, *, source_id: str | None = None) -> dict[str, Any]:
        """Soft-delete a page (GBrain keeps it recoverable for a while)."""
        return self._object("delete_page", {"slug": slug}, source_id=source_id)

    # -- facts (hot memory) -------------------------------------------------------------

    def remember(
        self,
        fact: str,
        provenance: str,
        *,
        entity: str | None = None,
        kind: str | None = None,
        visibility: str | None = None,
        replaces: str | None = None,
    ) -> dict[str, Any]:
        """Store one fact. ``replaces`` is sent only where the server declares it (newer GBrain)."""
        return self._object(
            "remember",
            {"fact": fact, "provenance": provenance},
            entity=entity,
            kind=kind,
            visibility=visibility,
            replaces=replaces,
        )

    def declares(self, tool: str, argument: str) -> bool:
        catalog = self.catalog()
        return catalog.has(tool) and catalog.declares(tool, argument)

    def forget(self, fact_id: str, *, reason: str | None = None) -> dict[str, Any]:
        """Expire a fact: the ``forget`` verb, else the older ``forget_fact`` (a numeric id)."""
        if self.catalog().has("forget") or not self.catalog().has("forget_fact"):
            return self._object("forget", {"id": str(fact_id)}, reason=reason)
        if not str(fact_id).isdigit():
            raise UnsupportedError("forget_fact takes a numeric fact id")
        return self._object("forget_fact", {"id": int(fact_id)}, reason=reason)

    def recall_facts(
        self, *, grep: str | None = None, limit: int | None = None, query: str | None = None
    ) -> list[dict[str, Any]]:
        """Active facts (newest first), as ``recall`` returns them; no page search unless asked."""
        data = self._call("recall", {}, grep=grep, limit=limit, query=query).data
        facts = data.get("facts") if isinstance(data, dict) else None
        return [f for f in facts if isinstance(f, dict)] if isinstance(facts, list) else []

    def _object(self, tool: str, required: Mapping[str, Any], **optional: Any) -> dict[str, Any]:
        data = self._call(tool, required, **optional).data
        if not isinstance(data, dict):
            raise ProtocolError(f"{tool} returned something other than an object")
        return data
