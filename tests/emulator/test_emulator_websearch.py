"""``websearch_to_tsquery``'s operators (``or``, ``-``, ``"…"``) in both lexical paths.

Every expected tsquery, match and rank below is what PGLite (Postgres 17, the engine inside
GBrain 0.46.28) answered for ``websearch_to_tsquery('english', q)::text``,
``to_tsvector('english', d) @@ q``, ``ts_rank(setweight(to_tsvector('english', d), 'B'), q)``
and ``ts_rank_cd(setweight(to_tsvector('english', d), 'A'), q)``."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from hermes_gbrain.emulator import hybrid, tsearch, tsquery
from hermes_gbrain.emulator.hybrid import rank_keyword
from hermes_gbrain.emulator.pages import Chunk, Page
from hermes_gbrain.emulator.search import SearchIndex

PARSED = [
    ("should we use Postgres or DuckDB?", "'use' & 'postgr' | 'duckdb'"),
    ("a b or c dd", "'b' | 'c' & 'dd'"),
    ("OR postgres", "'postgr'"),
    ("postgres or", "'postgr'"),
    ("postgres or or duckdb", "'postgr' | 'duckdb'"),
    ("postgres OR -duckdb", "'postgr' | !'duckdb'"),
    ("postgres -duckdb", "'postgr' & !'duckdb'"),
    ("- postgres", "!'postgr'"),
    ("--postgres", "!!'postgr'"),
    ('"the quick the brown"', "'quick' <2> 'brown'"),
    ('fox "quick brown', "'fox' & 'quick' <-> 'brown'"),
    ('postgres -"quick brown"', "'postgr' & !( 'quick' <-> 'brown' )"),
    ("postgres or-duckdb", "'postgr' & 'or-duckdb' <2> 'duckdb'"),
    ('postgres or"duckdb"', "'postgr' | 'duckdb'"),
    ("postgres,duckdb", "'postgr' <-> 'duckdb'"),
    ("foo-bar baz", "'foo-bar' <-> 'foo' <-> 'bar' & 'baz'"),
    ("cats or dogs -birds", "'cat' | 'dog' & !'bird'"),
    ("x or !z", "'x' | 'z'"),
    ("mixed Or case", "'mix' | 'case'"),
    ("postgres or -", "'postgr'"),
    ('a "" b', "'b'"),
    ("postgres (duckdb)", "'postgr' & 'duckdb'"),
    ("-the postgres", "'postgr'"),
    ("or", ""),
]


def _text(node: tsquery.Node | None, nested: bool = False) -> str:
    """Postgres' text form of a tsquery (``tsqueryout``)."""
    if node is None:
        return ""
    if isinstance(node, tsquery.Term):
        out, previous = f"'{node.items[0][1]}'", 0
        for offset, lex in node.items[1:]:
            gap = offset - previous
            out += (" <-> " if gap == 1 else f" <{gap}> ") + f"'{lex}'"
            previous = offset
        return f"( {out} )" if nested and len(node.items) > 1 else out
    if isinstance(node, tsquery.Not):
        return "!" + _text(node.arg, nested=True)
    joiner = " & " if isinstance(node, tsquery.And) else " | "
    return joiner.join(_text(arg, nested=isinstance(arg, tsquery.Not)) for arg in node.args)


@pytest.mark.parametrize(("query", "expected"), PARSED)
def test_websearch_to_tsquery_reads_operators_as_postgres(query: str, expected: str) -> None:
    assert _text(tsearch.websearch(query).node) == expected


LEDGER = "We chose Postgres over DuckDB for the ledger because Postgres has replication."
FOX = "The lazy dog watched the quick brown fox; the fox ran. Brown fox, quick fox."
# (query, document, matches, ts_rank at weight B, ts_rank_cd at weight A)
RANKED = [
    ("postgres or duckdb", LEDGER, True, 0.2735672, 3),
    ("postgres or duckdb", FOX, False, 0, 0),
    ("postgres duckdb or fox", LEDGER, True, 0.18237813, 0.7),
    ("postgres duckdb or fox", FOX, True, 0.11539357, 4),
    ("postgres -replication", LEDGER, False, 0.5194302, 2),
    ("duckdb or -postgres", LEDGER, True, 0.2735672, 1),
    ("duckdb or -postgres", FOX, True, 0, 0),
    ('"postgres or duckdb"', LEDGER, True, 0.6157739, 0.5),
    ('"postgres or duckdb"', FOX, False, 1e-20, 0),
    ('"over duckdb"', LEDGER, True, 0.24317084, 1),
    ("ledger or -ledger", FOX, True, 0, 0),
    ("--postgres", LEDGER, True, 0.30396354, 2),
    ("fox or quick brown", LEDGER, False, 0, 0),
    ("fox or quick brown", FOX, True, 0.31803593, 5),
    ('"brown fox" quick', FOX, True, 0.9998717, 2),
    ('"quick fox" or lazy', FOX, True, 0.2977717, 2),
]


@pytest.mark.parametrize(("query", "doc", "matches", "ts_rank", "ts_rank_cd"), RANKED)
def test_match_and_ranks_follow_postgres(
    query: str, doc: str, matches: bool, ts_rank: float, ts_rank_cd: float
) -> None:
    parsed = tsearch.websearch(query)
    assert parsed.matches(tsearch.to_tsvector(doc, "B")) is matches
    assert tsearch.rank(tsearch.to_tsvector(doc, "B"), parsed) == pytest.approx(ts_rank, rel=1e-6)
    if matches:  # a cover is only looked for in a matching title
        cd = tsearch.rank_cd(tsearch.to_tsvector(doc, "A"), parsed)
        assert cd == pytest.approx(ts_rank_cd, rel=1e-6)


@pytest.mark.parametrize(
    ("query", "relaxed"),
    [("postgres or duckdb", True), ("postgres -duckdb", False), ('"quick brown" fox', False)],
)
def test_operator_queries_get_no_or_fallback(query: str, relaxed: bool) -> None:
    assert (tsearch.or_fallback(query) is not None) is relaxed


def _page(pid: int, slug: str, title: str, text: str) -> Page:
    chunk = Chunk(pid * 10, pid, 0, "compiled_truth", text)
    stamp = "2026-12-01T00:00:00+00:00"
    return Page(
        pid, "default", slug, "note", title, text, "", {}, [], [], "", stamp, stamp, None,
        stamp, "fallback", [chunk],
    )  # fmt: skip


NOW = datetime(2026, 12, 1, tzinfo=UTC)
PAGES = [
    _page(1, "notes/pg", "Storage notes", "We run Postgres for the ledger."),
    _page(2, "notes/duck", "Analytics notes", "DuckDB reads the parquet exports."),
    _page(3, "notes/both", "Comparison", "Postgres and DuckDB side by side."),
    _page(4, "notes/fox", "Fox", "The brown quick fox, then the quick brown dog."),
]


@pytest.mark.parametrize("index", [None, SearchIndex()])
@pytest.mark.parametrize(
    ("query", "slugs"),
    [
        # ('use' & 'postgr') | 'duckdb': no page says "use", so only the DuckDB side matches.
        ("should we use postgres or duckdb", {"notes/duck", "notes/both"}),
        ("postgres duckdb", {"notes/both"}),
        ("postgres -duckdb", {"notes/pg"}),
        ("-postgres exports", {"notes/duck"}),
        ('"quick brown" dog', {"notes/fox"}),
        ('"fox brown"', set()),
        ("ledger or parquet", {"notes/pg", "notes/duck"}),
    ],
)
def test_keyword_only_search_reads_operators(
    index: SearchIndex | None, query: str, slugs: set[str]
) -> None:
    if index is not None:
        for page in PAGES:
            index.add(page)
    hits = rank_keyword(PAGES, query, {}, index)
    assert {h.page.slug for h in hits} == slugs
    assert not any(h.relaxed for h in hits)


def test_keyword_only_negation_is_never_relaxed_away() -> None:
    """``postgres -ledger``: no page matches, and with a ``-`` term GBrain makes no OR
    fallback, so nothing comes back rather than the ledger page."""
    assert rank_keyword(PAGES, "postgres -ledger -duckdb", {}) == []


@pytest.mark.parametrize(
    ("query", "slugs"),
    [
        ("postgres or duckdb", {"notes/pg", "notes/duck", "notes/both"}),
        ("postgres -duckdb", {"notes/pg"}),
        ('"quick brown" dog', {"notes/fox"}),
    ],
)
def test_hybrid_lexical_arms_read_operators(query: str, slugs: set[str]) -> None:
    hits = hybrid.rank_hybrid(PAGES, query, {}, SearchIndex(), lambda text: {}, now=NOW)
    assert {h.page.slug for h in hits if h.keyword_hit} == slugs
