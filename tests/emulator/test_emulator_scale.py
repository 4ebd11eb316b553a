"""The emulator at scale: the indexed search ranks exactly like scoring every page, the
request log stays bounded, and a generated brain is what it says."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import httpx
from emu_client import Mcp, mint

from hermes_gbrain.emulator import Emulator
from hermes_gbrain.emulator.app import RequestLog
from hermes_gbrain.emulator.faults import RecordedRequest
from hermes_gbrain.emulator.hybrid import rank_keyword
from hermes_gbrain.emulator.operations import _backlink_counts

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
QUERIES = (
    "pricing",
    "Ada Abbott",
    "amber falcon project",
    "reviewed the security beacon",
    "Notes on hiring",
    "kestrel orbit launch with warm team",
    "zzz nothing matches this",
)


def _facts(hits: list) -> list[tuple]:
    return [
        (h.page.id, h.chunk.id, h.score, h.base_score, h.evidence, h.exact_lookup, h.relaxed)
        for h in hits
    ]


def test_indexed_search_equals_brute_force_after_writes() -> None:
    emu = Emulator(brain="generated:1500")
    store = emu.store
    first = store.pages()[3]
    store.put_page(first.slug, "---\ntype: note\ntitle: Amber Falcon pricing\n---\nNew body.\n")
    store.soft_delete(store.pages()[10].slug, "default")
    pages = store.pages()
    links = _backlink_counts(pages)
    index = store.search_index()
    for query in QUERIES:  # the store's index, kept up to date by the writes, and a fresh one
        kept = rank_keyword(pages, query, links, index, now=NOW)
        assert _facts(kept) == _facts(rank_keyword(pages, query, links, now=NOW))
    assert _facts(rank_keyword(pages, "amber falcon pricing", links, index))[0][0] == first.id


def test_search_over_http_matches_brute_force_with_backlinks(http: httpx.Client) -> None:
    with Emulator(brain="generated:600") as emu:
        pages = emu.store.pages()
        brute = rank_keyword(pages, "security beacon", _backlink_counts(pages))
        mcp = Mcp(emu, http, mint(emu, "read"))
        rows = mcp.data("search", {"query": "security beacon", "limit": 20})
    assert [r["slug"] for r in rows] == [h.page.slug for h in brute[:20]]
    assert [r["score"] for r in rows] == [h.score for h in brute[:20]]
    assert any(h.backlink_boost for h in brute[:20])  # the link postings were exercised


def test_request_log_is_a_bounded_list() -> None:
    log = RequestLog(50)
    for i in range(500):
        log.append(RecordedRequest("POST", f"/mcp/{i}", {}, b"", None, None, None))
        assert len(log) <= 50
    assert log[-1].path == "/mcp/499" and log != []
    assert RequestLog() == []


def test_counters_outlive_the_ring(http: httpx.Client) -> None:
    with Emulator(request_log_size=5) as emu:
        mcp = Mcp(emu, http, mint(emu, "read"))
        for _ in range(12):
            mcp.data("get_brain_identity", {})
        assert len(emu.requests) <= 5 and emu.request_count >= 12


def test_generated_brain_is_deterministic() -> None:
    one = [(p.slug, p.title, p.updated_at) for p in Emulator(brain="generated:300").store.pages()]
    two = [(p.slug, p.title, p.updated_at) for p in Emulator(brain="generated:300").store.pages()]
    assert one == two and len(one) == 300
    assert {p.type for p in Emulator(brain="generated:300").store.pages()} >= {
        "person",
        "project",
        "company",
        "concept",
        "fact",
    }


def test_list_pages_by_recency_equals_sorting_every_page(http: httpx.Client) -> None:
    with Emulator(brain="generated:700") as emu:
        store = emu.store
        store.soft_delete(store.pages()[3].slug, "default")
        store.put_page(store.pages()[0].slug, "---\ntype: person\n---\n# Moved To The Top\n")
        mcp = Mcp(emu, http, mint(emu, "read"))
        floor = store.pages()[400].updated_at
        for args in (
            {"sort": "updated_desc", "type": "person", "limit": 24},
            {"sort": "updated_desc", "type": "concept", "limit": 100, "offset": 100},
            {"sort": "updated_asc", "updated_after": floor, "limit": 100},
            {"sort": "updated_asc", "updated_after": floor, "include_deleted": True, "limit": 50},
            {"sort": "updated_desc", "include_deleted": True, "limit": 100},
        ):
            everything = store.pages(include_deleted=bool(args.get("include_deleted")))
            if "type" in args:
                everything = [p for p in everything if p.type == args["type"]]
            if "updated_after" in args:
                everything = [p for p in everything if p.updated_at > args["updated_after"]]
            everything.sort(
                key=lambda p: (p.updated_at, p.id), reverse=args["sort"] == "updated_desc"
            )
            start = int(args.get("offset", 0))
            expected = [p.slug for p in everything[start : start + int(args["limit"])]]
            assert [r["slug"] for r in mcp.data("list_pages", args)] == expected, args


def test_parallel_searches_share_the_lazily_built_index() -> None:
    # The lexeme postings fill on first use; the server answers requests on many threads
    # (a turn sends its own search and its pairs search at once).
    emu = Emulator(brain="generated:800")
    pages = emu.store.pages()
    links = _backlink_counts(pages)
    expected = {q: _facts(rank_keyword(pages, q, links, now=NOW)) for q in QUERIES}
    index = emu.store.search_index()
    start = threading.Barrier(len(QUERIES))
    found: dict[str, list[tuple]] = {}

    def search(query: str) -> None:
        start.wait(timeout=10)
        found[query] = _facts(rank_keyword(pages, query, links, index, now=NOW))

    workers = [threading.Thread(target=search, args=(q,)) for q in QUERIES]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    assert found == expected
