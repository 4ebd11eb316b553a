"""The emulator's ranking signals, ``volunteer_context`` and the large benchmark brain."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import httpx
import pytest
from emu_client import Mcp, mint

from hermes_gbrain.emulator import Emulator, large_brain, sample_brain
from hermes_gbrain.emulator.hybrid import rank_keyword


@pytest.fixture(scope="module")
def large() -> Iterator[Emulator]:
    with Emulator(brain="large") as emulator:
        yield emulator


@pytest.fixture
def big(large: Emulator) -> Iterator[Mcp]:
    with httpx.Client(trust_env=False, timeout=10.0) as http:
        yield Mcp(large, http, mint(large, "read"))


def test_large_brain_is_big_deterministic_and_keeps_the_sample() -> None:
    pages = large_brain.pages()
    slugs = [slug for _, slug, _ in pages]
    assert len(pages) >= 300 and len(set(slugs)) == len(slugs)
    assert pages == large_brain.pages()
    assert pages[: len(sample_brain.PAGES)] == sample_brain.PAGES
    titles = " ".join(
        content.split("\n# ", 1)[1].split("\n", 1)[0].lower() for *_, content in pages
    )
    words = Counter(titles.split())
    for ordinary in ("plan", "review", "update", "capital", "notes", "report"):
        assert words[ordinary] >= 3, ordinary
    with pytest.raises(ValueError, match="brain must be one of"):
        Emulator(brain="huge")  # type: ignore[arg-type]


def test_an_ordinary_title_word_ranks_first_as_an_exact_keyword_hit(big: Mcp) -> None:
    # Recordings 106 and 107: a real GBrain answers such messages with a title that shares one
    # ordinary word, first, evidence keyword_exact, a top score; the tails are weak.
    plan = big.data("search", {"query": "Can you help me plan a hiking trip next month?"})
    assert "plan" in plan[0]["title"].lower() or "trip" in plan[0]["title"].lower()
    assert plan[0]["evidence"] == "keyword_exact"
    assert plan[0]["score"] == max(r["score"] for r in plan)
    capital = big.data("search", {"query": "What is the capital of Australia?", "limit": 5})
    assert "Capital" in capital[0]["title"] and capital[0]["evidence"] == "keyword_exact"
    assert all("australia" not in r["chunk_text"].lower() for r in capital)


def test_keyword_only_scores_follow_hybrid_search_without_its_vector_arm() -> None:
    # hybrid.ts, no embedding provider: the chunk and title lists fused at k = 60, divided
    # by the best; x2 for compiled truth on an entity question (detail low, recording 108:
    # base 2); the title-phrase boost after; without title rows, ts_rank as it is.
    with Emulator() as emu:
        pages = emu.store.pages()
    named = rank_keyword(pages, "Driftwood Sync", {})
    assert named[0].page.slug == "projects/driftwood-sync" and named[0].base_score == 1.0
    assert named[0].evidence == "exact_title_match" and named[0].score > 1.25
    assert named[1].base_score == pytest.approx((1 / 61) / (2 / 60))
    entity = rank_keyword(pages, "Who is Maya Okafor?", {})
    assert entity[0].page.slug == "people/maya-okafor" and entity[0].base_score == 2.0
    assert entity[0].evidence == "keyword_exact"
    untitled = rank_keyword(pages, "which phones drop packets", {})
    assert untitled and all(h.base_score < 0.2 for h in untitled)  # ts_rank, unfused
    assert {h.evidence for h in untitled} == {"weak_semantic"}
    assert rank_keyword(pages, "the and of", {}) == []


def test_volunteer_context_offers_named_pages_only(big: Mcp) -> None:
    window = (
        "user: What does Kestrel Works sell?\n"
        "assistant: Software for rangers.\n"
        "user: And did Nwosu finish the capture screen?"
    )
    result = big.data("volunteer_context", {"window": window})
    assert result["window_turns"] == 3
    arms = {p["slug"]: p["arm"] for p in result["pages"]}
    assert arms == {"companies/kestrel-works": "title", "people/amara-nwosu": "title-surname"}
    newest = next(p for p in result["pages"] if p["slug"] == "people/amara-nwosu")
    assert newest["confidence"] == pytest.approx(0.77)
    assert "newest turn" in newest["rationale"] and newest["synopsis"].startswith("Amara Nwosu")
    again = big.data(
        "volunteer_context",
        {"window": window, "prior_context": "- [default:companies/kestrel-works] Kestrel Works"},
    )
    assert [p["slug"] for p in again["pages"]] == ["people/amara-nwosu"]
    trap = big.data("volunteer_context", {"window": "help me plan a hiking trip"})
    assert trap == {"pages": [], "count": 0, "window_turns": 1}
    missing = big.call("volunteer_context", {})
    assert missing["isError"] is True and "window is required" in missing["content"][0]["text"]


def test_cli_brain_flag() -> None:
    from hermes_gbrain.emulator.cli import _parser

    assert _parser().parse_args([]).brain == "sample"
    assert _parser().parse_args(["--brain", "large"]).brain == "large"
