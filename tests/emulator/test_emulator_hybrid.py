"""The emulator's vector arm (``Emulator(hybrid=True)``, ``--hybrid``) and words of other
scripts in its keyword arm, over HTTP."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from emu_client import Mcp, mint

from hermes_gbrain.emulator import Emulator
from hermes_gbrain.emulator.cli import _parser


@pytest.fixture(scope="module")
def brains() -> Iterator[tuple[Mcp, Mcp]]:
    with (
        Emulator(brain="large") as keyword,
        Emulator(brain="large", hybrid=True) as hybrid,
        httpx.Client(trust_env=False, timeout=10.0) as http,
    ):
        yield Mcp(keyword, http, mint(keyword)), Mcp(hybrid, http, mint(hybrid))


def test_hybrid_search_has_no_floor_and_labels_vector_rows(brains: tuple[Mcp, Mcp]) -> None:
    _, hybrid = brains
    result = hybrid.call("search", {"query": "what is the capital of Australia"})
    assert result["_meta"]["retrieval"]["vector_enabled"] is True
    rows = hybrid.data("search", {"query": "what is the capital of Australia"})
    assert len(rows) == 20  # the recordings' default: the vector arm always answers
    assert all("cosine" in r and "base_score" in r for r in rows)
    vector_only = [r for r in rows if "keyword_hit" not in r]
    assert vector_only and {r["evidence"] for r in vector_only} == {"weak_semantic"}
    assert len(hybrid.data("search", {"query": "Ledger Lake", "limit": 5})) == 5


def test_a_title_ranks_first_and_a_paraphrase_finds_its_page(brains: tuple[Mcp, Mcp]) -> None:
    _, hybrid = brains
    named = hybrid.data("search", {"query": "Ledger Lake"})
    assert named[0]["slug"] == "projects/ledger-lake"
    assert named[0]["evidence"] == "exact_title_match"
    asked = hybrid.data("search", {"query": "which project syncs phones without a network"})
    assert "projects/driftwood-sync" in [r["slug"] for r in asked[:5]]


def test_keyword_search_finds_an_unspaced_title_only_whole(brains: tuple[Mcp, Mcp]) -> None:
    keyword, hybrid = brains
    exact = keyword.data("search", {"query": "环境监测平台"})
    assert [r["slug"] for r in exact] == ["projects/huanjing-jiance"]
    assert keyword.data("search", {"query": "环境监测平台最近同步正常吗"}) == []
    in_sentence = hybrid.data("search", {"query": "环境监测平台最近同步正常吗"})
    assert in_sentence[0]["slug"] == "projects/huanjing-jiance"  # character pairs meet
    accented = keyword.data("search", {"query": "Jürgen Müller"})
    assert accented[0]["slug"] == "people/jurgen-muller"


def test_the_cli_takes_hybrid() -> None:
    assert _parser().parse_args(["--hybrid"]).hybrid is True
    assert _parser().parse_args([]).hybrid is False


def test_a_plugged_embedder_drives_the_vector_arm() -> None:
    """``embedder`` replaces the hashed features (and implies ``hybrid``): a toy model that
    puts one page next to every query makes that page the vector arm's closest row."""
    target = "Ledger Lake"
    texts: list[str] = []

    def toward_one_page(text: str) -> dict[int, float]:
        texts.append(text)
        first = len(texts) == 1  # the query is embedded before any chunk
        return {0: 1.0} if first or target in text else {1: 1.0}

    with (
        Emulator(embedder=toward_one_page) as emu,
        httpx.Client(trust_env=False, timeout=10.0) as http,
    ):
        assert emu.hybrid
        mcp = Mcp(emu, http, mint(emu))
        rows = mcp.data("search", {"query": "which project syncs phones without a network"})
    by_slug = {r["slug"]: r for r in rows}
    assert by_slug["projects/ledger-lake"]["cosine"] == 1.0  # the embedder's, not the hash's
    assert all(r["cosine"] in (0.0, 1.0) for r in rows)
    assert len(texts) > 1  # the query and the chunks went through it


def test_a_query_with_cjk_takes_gbrains_substring_branch_with_no_or_fallback(
    brains: tuple[Mcp, Mcp],
) -> None:
    """pglite-engine.ts ``searchKeyword``: a query with Han, kana or Hangul in it (cjk.ts
    ``hasCJK``) matches its whitespace-split terms as substrings, all of them, and returns
    before the OR fallback; its title list is full-text search with the fallback, as for any
    query. The rows are what a real keyword-only GBrain 0.46.28 returned for these messages
    over the same pages (``bench/data/keyword_real.json``)."""
    keyword, _ = brains

    def slugs(query: str) -> list[str]:
        return [r["slug"] for r in keyword.data("search", {"query": query})]

    # no chunk holds every term, no title a word of it: nothing, not the page on "vacuum"
    assert slugs("谁在维护那个集群和夜间 vacuum？") == []  # noqa: RUF001 - as written
    # Korean takes the branch too: "CRDT" alone would find the page on CRDTs
    asked = "CRDT 관련 문서 있어요? Driftwood에서 어떤 타입을 쓰는지 스펙에 적어야 해서요."
    assert slugs(asked) == []
    # the title list still relaxes to OR over the Latin words
    assert slugs("Tidepool Dashboard 的 kickoff 是哪天开的")[:2] == [
        "projects/tidepool-dashboard",
        "meetings/2026-04-07-tidepool-dashboard-kickoff",
    ]
