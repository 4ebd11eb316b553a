"""Tool behaviour: catalog by scope, result envelopes, search rows, pages, writes, strictness."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from emu_client import Mcp, mint

from hermes_gbrain.emulator import Emulator
from hermes_gbrain.emulator.sample_brain import INJECTION_SLUG, PAGES

SEARCH_ROW_KEYS = [
    "slug",
    "page_id",
    "title",
    "type",
    "chunk_text",
    "chunk_source",
    "chunk_id",
    "chunk_index",
    "score",
    "stale",
    "source_id",
    "effective_date",
    "effective_date_source",
    "keyword_hit",
    "base_score",
    "evidence",
    "create_safety",
    "id",
]
OPTIONAL_ROW_KEYS = {"title_match_boost", "exact_lookup", "backlink_boost"}
RETRIEVAL_KEYS = [
    "returned_count",
    "retrieved_count",
    "vector_enabled",
    "expansion_applied",
    "cache",
    "token_budget",
    "degraded",
]


def _names(result: dict[str, Any]) -> list[str]:
    return [t["name"] for t in result["result"]["tools"]]


def test_tools_list_depends_on_scope(emu: Emulator, http: httpx.Client, mcp: Mcp) -> None:
    read = _names(mcp.rpc("tools/list"))
    assert {"search", "query", "get_page", "list_pages", "whoami", "schema_stats"} <= set(read)
    assert not {"put_page", "delete_page", "get_stats", "get_health"} & set(read)
    write = _names(Mcp(emu, http, mint(emu, "write")).rpc("tools/list"))
    assert {"put_page", "delete_page", "restore_page", "capture", "search"} <= set(write)
    assert "get_stats" not in write
    admin = _names(Mcp(emu, http, mint(emu, "admin")).rpc("tools/list"))
    assert {"get_stats", "get_health", "put_page", "search"} <= set(admin)
    assert (len(read), len(write), len(admin)) == (67, 89, 115)  # GBrain 0.46.28's counts
    cid, secret = emu.register_client("escalator", "read")
    nothing = Mcp(emu, http, emu.mint_token(cid, secret, scope="write"))
    assert _names(nothing.rpc("tools/list")) == []


def test_tool_schemas_match_gbrain_parameters(mcp: Mcp) -> None:
    tools = {t["name"]: t for t in mcp.rpc("tools/list")["result"]["tools"]}
    search = tools["search"]
    assert list(search) == ["name", "description", "inputSchema"]
    schema = search["inputSchema"]
    assert schema["type"] == "object" and schema["required"] == ["query"]
    assert list(schema["properties"]) == [
        "query",
        "limit",
        "offset",
        "mode",
        "types",
        "snippet_chars",
    ]
    assert schema["properties"]["types"]["items"] == {"type": "string"}
    assert "additionalProperties" not in schema
    assert tools["whoami"]["inputSchema"] == {"type": "object", "properties": {}, "required": []}
    assert tools["list_pages"]["inputSchema"]["properties"]["sort"]["enum"] == [
        "updated_desc",
        "updated_asc",
        "created_desc",
        "slug",
    ]
    assert tools["entity"]["annotations"]["readOnlyHint"] is True


def test_ping(mcp: Mcp) -> None:
    assert mcp.rpc("ping") == {"result": {}, "jsonrpc": "2.0", "id": 1}


# search ---------------------------------------------------------------------------------------
def test_search_row_shape_and_meta(mcp: Mcp) -> None:
    result = mcp.call("search", {"query": "Driftwood Sync", "snippet_chars": 1})
    assert list(result) == ["_meta", "content"]
    retrieval = result["_meta"]["retrieval"]
    assert list(retrieval) == RETRIEVAL_KEYS
    assert retrieval["degraded"] == [{"stage": "embed_unavailable", "reason": "no_provider"}]
    assert retrieval["vector_enabled"] is False and retrieval["cache"] == "disabled"
    assert list(retrieval["token_budget"]) == ["budget", "used", "dropped", "kept"]
    text = result["content"][0]["text"]
    assert text.startswith('[\n  {\n    "slug": ')  # JSON.stringify(value, null, 2)
    rows = json.loads(text)
    assert retrieval["returned_count"] == len(rows) > 1
    for row in rows:
        assert [k for k in row if k not in OPTIONAL_ROW_KEYS] == SEARCH_ROW_KEYS
        assert row["id"] == row["slug"]
        assert row["chunk_source"] in ("compiled_truth", "timeline")
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", row["effective_date"])
    top = rows[0]
    assert top["slug"] == "projects/driftwood-sync"
    assert (top["evidence"], top["create_safety"]) == ("exact_title_match", "exists")
    assert top["title_match_boost"] == 1.25 and top["exact_lookup"] == "title"
    keys = list(top)
    assert keys.index("base_score") < keys.index("title_match_boost") < keys.index("evidence")
    # A bare title is no entity question (no compiled-truth x2), so a tail found by one list
    # scores (1 / (60 + rank)) / (2 / 60) < 0.6: weak, though it holds both words.
    assert {r["evidence"] for r in rows[1:]} == {"weak_semantic"}
    assert rows[1]["base_score"] == pytest.approx((1 / 61) / (2 / 60))
    assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)


def test_or_relaxed_tails_are_weak_and_scale_like_gbrain(mcp: Mcp) -> None:
    # No page holds every word: both arms fall back to OR. A general question (no
    # compiled-truth x2): the title hit scores 1, a tail in one list (1 / (60 + rank)) /
    # (2 / 60), 0.4918 for the first (recording 106).
    rows = mcp.data("search", {"query": "help me plan a hiking trip with Samuel"})
    assert rows[0]["slug"] == "people/samuel-mwangi" and rows[0]["base_score"] == 1
    assert rows[0]["evidence"] == "keyword_exact"
    assert rows[-1]["evidence"] == "weak_semantic" and rows[-1]["create_safety"] == "unknown"
    assert rows[-1]["base_score"] == pytest.approx((1 / 61) / (2 / 60))


def test_snippet_marker(mcp: Mcp) -> None:
    full = mcp.data("search", {"query": "Fernseed Classifier", "limit": 1})[0]
    cut = mcp.data("search", {"query": "Fernseed Classifier", "limit": 1, "snippet_chars": 40})[0]
    text = full["chunk_text"]
    assert cut["chunk_text"] == (
        text[:40] + f"… [truncated {len(text) - 40} chars — get_page {full['slug']} for full text]"
    )
    zero = mcp.data("search", {"query": "Fernseed Classifier", "limit": 1, "snippet_chars": 0})[0]
    assert zero["chunk_text"] == text


@pytest.mark.parametrize(
    "query",
    [
        "what's the weather like today",
        "can you write me a poem about the sea",
        "fix this python traceback please",
        "the",
        "zzzqqqxxnotfound",
    ],
)
def test_off_topic_search_is_empty(mcp: Mcp, query: str) -> None:
    result = mcp.call("search", {"query": query})
    assert result["content"][0]["text"] == "[]"
    assert result["content"][1]["text"] == (
        "0 results. retrieved 0 before trimming. degraded: embed_unavailable, keyword_zero."
    )
    assert result["_meta"]["retrieval"]["degraded"] == [
        {"stage": "embed_unavailable", "reason": "no_provider"},
        {"stage": "keyword_zero"},
    ]


def test_search_is_deterministic_and_relative(mcp: Mcp) -> None:
    first = mcp.data("search", {"query": "tell me about Samuel the head ranger"})
    again = mcp.data("search", {"query": "tell me about Samuel the head ranger"})
    assert first == again
    # "tell me about" makes it an entity question: compiled truth x2 (recording 108)
    assert first[0]["slug"] == "people/samuel-mwangi" and first[0]["base_score"] == 2


def test_search_types_offset_limit(mcp: Mcp) -> None:
    rows = mcp.data("search", {"query": "ranger", "types": ["person", "project"]})
    assert rows and {r["type"] for r in rows} <= {"person", "project"}
    everything = mcp.data("search", {"query": "ranger", "limit": 5})
    assert len(everything) == 5
    second = mcp.data("search", {"query": "ranger", "limit": 1, "offset": 1})
    assert [r["slug"] for r in second] == [everything[1]["slug"]]


def test_search_parameter_errors(mcp: Mcp) -> None:
    missing = mcp.call("search", {})
    assert missing == {
        "content": [
            {
                "type": "text",
                "text": json.dumps(
                    {"error": "invalid_params", "message": "Missing required parameter: query"},
                    indent=2,
                ),
            }
        ],
        "isError": True,
    }
    wrong = mcp.call("search", {"query": "x", "limit": "5"})
    assert wrong["isError"] is True
    assert json.loads(wrong["content"][0]["text"]) == {
        "error": "invalid_params",
        "message": 'Parameter "limit" must be a number',
    }
    bad_types = mcp.call("search", {"query": "x", "types": [1]})
    assert json.loads(bad_types["content"][0]["text"])["error"] == "invalid_params"


def test_injection_page_is_returned_verbatim_without_flag(mcp: Mcp) -> None:
    rows = mcp.data("search", {"query": "ignore all previous instructions"})
    assert rows[0]["slug"] == INJECTION_SLUG
    assert "Ignore all previous instructions" in rows[0]["chunk_text"]
    assert "injection_suspected" not in rows[0]


def test_query_rows_have_no_id_and_carry_crag(mcp: Mcp) -> None:
    result = mcp.call("query", {"query": "clock skew", "limit": 5, "snippet_chars": 80})
    rows = json.loads(result["content"][0]["text"])
    assert rows and all("id" not in r for r in rows)
    assert list(result["_meta"]["retrieval"])[-1] == "crag"
    assert set(result["_meta"]["retrieval"]["crag"]) == {"confidence", "reason", "query_shape"}


def test_source_filter(mcp: Mcp) -> None:
    work = mcp.data("query", {"query": "Ledger Lake", "source_id": "work"})
    assert work and {r["source_id"] for r in work} == {"work"}
    default = mcp.data("query", {"query": "pipeline", "source_id": "default"})
    assert {r["source_id"] for r in default} == {"default"}
    both = mcp.data("search", {"query": "pipeline"})
    assert {r["source_id"] for r in both} == {"default", "work"}
    assert {p["source_id"] for p in mcp.data("list_pages", {"source_id": "work"})} == {"work"}


# pages ----------------------------------------------------------------------------------------
PAGE_KEYS = [
    "id",
    "slug",
    "type",
    "title",
    "compiled_truth",
    "timeline",
    "frontmatter",
    "content_hash",
    "created_at",
    "updated_at",
    "deleted_at",
    "effective_date",
    "effective_date_source",
    "source_kind",
    "source_uri",
    "ingested_via",
    "ingested_at",
    "contextual_retrieval_mode",
    "source_id",
    "tags",
]


def test_get_page(mcp: Mcp) -> None:
    page = mcp.data("get_page", {"slug": "people/maya-okafor"})
    assert list(page) == PAGE_KEYS
    assert page["title"] == "Maya Okafor" and page["type"] == "person"
    assert page["tags"] == ["founder", "leadership"]
    assert page["compiled_truth"].startswith("# Maya Okafor\n\n")
    assert page["timeline"].startswith("## Timeline\n- 2024-05-14")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", page["updated_at"])
    fuzzy = mcp.data("get_page", {"slug": "maya", "fuzzy": True})
    assert fuzzy["resolved_slug"] == "people/maya-okafor"
    content = mcp.data("get_page", {"slug": "people/maya-okafor", "include_content": True})
    assert content["content"].startswith("---\ntype: person\ntitle: Maya Okafor\n")


def test_get_page_missing(mcp: Mcp) -> None:
    result = mcp.call("get_page", {"slug": "people/nobody"})
    assert result["isError"] is True
    assert json.loads(result["content"][0]["text"]) == {
        "error": "page_not_found",
        "message": "Page not found: people/nobody",
        "suggestion": "Page may be soft-deleted; pass include_deleted: true to verify",
    }


def test_list_pages(mcp: Mcp) -> None:
    rows = mcp.data("list_pages", {})
    assert len(rows) == len(PAGES)
    assert list(rows[0]) == ["slug", "source_id", "type", "title", "updated_at"]
    stamps = [r["updated_at"] for r in rows]
    assert stamps == sorted(stamps, reverse=True)
    concepts = mcp.data("list_pages", {"type": "concept", "sort": "slug"})
    assert [r["slug"] for r in concepts] == sorted(r["slug"] for r in concepts)
    assert {r["type"] for r in concepts} == {"concept"}
    tagged = mcp.data("list_pages", {"tag": "founder"})
    assert {r["slug"] for r in tagged} == {"people/maya-okafor", "people/tomas-lindqvist"}
    assert len(mcp.data("list_pages", {"limit": 1000})) == len(PAGES)  # capped at 100
    assert len(mcp.data("list_pages", {"limit": 3, "offset": 2})) == 3
    asc = mcp.data("list_pages", {"sort": "updated_asc", "updated_after": stamps[3]})
    assert [r["updated_at"] for r in asc] == sorted(stamps[:3])


def test_links_tags_and_cards(mcp: Mcp) -> None:
    assert mcp.data("get_tags", {"slug": "concepts/crdt"}) == ["architecture", "sync"]
    links = mcp.data("get_links", {"slug": "projects/driftwood-sync"})
    assert list(links[0]) == [
        "from_slug",
        "from_source_id",
        "to_slug",
        "to_source_id",
        "link_type",
        "context",
        "link_source",
        "origin_slug",
        "origin_source_id",
        "origin_field",
    ]
    assert {link["to_slug"] for link in links} >= {"concepts/crdt", "people/tomas-lindqvist"}
    backlinks = mcp.data("get_backlinks", {"slug": "concepts/crdt"})
    assert {b["from_slug"] for b in backlinks} == {"projects/driftwood-sync"}
    card = mcp.data("entity", {"name": "Tomas Lindqvist"})
    assert card["found"] is True and card["card"]["entity"]["slug"] == "people/tomas-lindqvist"
    assert card["card"]["summary"].startswith("Tomas Lindqvist is the CTO")
    miss = mcp.data("entity", {"name": "Nobody Atall"})
    assert miss["found"] is False and "suggestions" in miss
    fetched = mcp.data("fetch", {"id": "concepts/crdt"})
    assert list(fetched) == ["id", "title", "text", "url", "metadata"]
    assert fetched["url"] == "gbrain://page/default/concepts/crdt"
    assert mcp.data("resolve_slugs", {"partial": "lindqvist"}) == ["people/tomas-lindqvist"]


def test_identity_and_stats(emu: Emulator, mcp: Mcp, admin: Mcp) -> None:
    who = mcp.data("whoami")
    assert list(who) == [
        "transport",
        "client_id",
        "client_name",
        "scopes",
        "expires_at",
        "source_id",
        "federated_read",
    ]
    assert who["transport"] == "oauth" and who["scopes"] == ["read"]
    assert who["federated_read"] == ["default", "work"]
    ident = mcp.data("get_brain_identity")
    assert list(ident) == [
        "version",
        "engine",
        "page_count",
        "chunk_count",
        "last_sync_iso",
        "update_available",
        "latest_version",
    ]
    assert ident["page_count"] == len(PAGES)
    stats = mcp.data("schema_stats")
    assert stats["aggregate"]["total_pages"] == len(PAGES)
    assert [s["source_id"] for s in stats["per_source"]] == ["default", "work"]
    sources = mcp.data("sources_list")["sources"]
    assert [s["id"] for s in sources] == ["default", "work"]
    assert list(sources[0]) == [
        "id",
        "name",
        "local_path",
        "remote_url",
        "federated",
        "page_count",
        "last_sync_at",
    ]
    assert mcp.data("search_modes")["active_mode"] == "conservative"
    admin_stats = admin.data("get_stats")
    assert list(admin_stats) == [
        "page_count",
        "chunk_count",
        "embedded_count",
        "link_count",
        "tag_count",
        "timeline_entry_count",
        "pages_by_type",
    ]
    health = admin.data("get_health")
    assert health["page_count"] == len(PAGES) and "migrations" in health
    assert mcp.data("delta", {"since": "2000-01-01T00:00:00Z"})["has_more"] is False
    pack = mcp.data("context_pack", {"entities": "Maya Okafor,projects/beacon-app"})
    assert [c["slug"] for c in pack["cards"]] == ["people/maya-okafor", "projects/beacon-app"]


# errors from the HTTP layer -------------------------------------------------------------------
def test_scope_and_unknown_tool_envelopes(mcp: Mcp) -> None:
    stats = mcp.call("get_stats")
    assert stats == {
        "content": [
            {
                "type": "text",
                "text": (
                    '{"error":"insufficient_scope",'
                    '"message":"Operation get_stats requires \'admin\' scope",'
                    '"your_scopes":["read"]}'
                ),
            }
        ],
        "isError": True,
    }
    put = mcp.call("put_page", {"slug": "concepts/x", "content": "# x"})
    assert json.loads(put["content"][0]["text"])["message"] == (
        "Operation put_page requires 'write' scope"
    )
    unknown = mcp.call("serch", {"query": "x"})
    assert (
        unknown["content"][0]["text"] == '{"error":"unknown_operation","message":"Unknown: serch"}'
    )


# writes ---------------------------------------------------------------------------------------
def test_put_delete_restore(writer: Mcp, mcp: Mcp) -> None:
    content = (
        "---\ntype: concept\ntitle: Patrol Heatmaps\ntags: [maps]\n---\n"
        "# Patrol Heatmaps\n\nHeatmaps show where [[people/samuel-mwangi]]'s teams walk.\n"
    )
    put = writer.data("put_page", {"slug": "concepts/patrol-heatmaps", "content": content})
    assert put == {
        "slug": "concepts/patrol-heatmaps",
        "status": "created_or_updated",
        "chunks": 1,
        "auto_links": {"skipped": "remote"},
        "auto_timeline": {"skipped": "remote"},
        "facts_backstop": {"skipped": "too_short"},  # under 80 characters of text
        "chronicle_backstop": {"skipped": "remote"},
        "write_through": {"written": False, "skipped": "no_repo_configured"},
    }
    page = mcp.data("get_page", {"slug": "concepts/patrol-heatmaps"})
    assert (page["title"], page["type"], page["tags"]) == ("Patrol Heatmaps", "concept", ["maps"])
    assert mcp.data("search", {"query": "heatmaps"})[0]["slug"] == "concepts/patrol-heatmaps"
    backlinks = mcp.data("get_backlinks", {"slug": "people/samuel-mwangi"})
    assert "concepts/patrol-heatmaps" in {b["from_slug"] for b in backlinks}
    deleted = writer.data("delete_page", {"slug": "concepts/patrol-heatmaps"})
    assert deleted == {
        "status": "soft_deleted",
        "slug": "concepts/patrol-heatmaps",
        "source_id": "default",
        "recoverable_until": "now + 72h via restore_page",
    }
    assert mcp.call("get_page", {"slug": "concepts/patrol-heatmaps"})["isError"] is True
    listed = mcp.data("list_pages", {"include_deleted": True, "type": "concept"})
    assert listed[0]["slug"] == "concepts/patrol-heatmaps" and listed[0]["deleted_at"]
    assert mcp.data("search", {"query": "heatmaps"}) == []
    restored = writer.data("restore_page", {"slug": "concepts/patrol-heatmaps"})
    assert restored["status"] == "restored"
    assert mcp.data("get_page", {"slug": "concepts/patrol-heatmaps"})["deleted_at"] is None


def test_write_validation(writer: Mcp) -> None:
    bad = writer.call("put_page", {"slug": "Not A Slug", "content": "x"})
    assert json.loads(bad["content"][0]["text"])["error"] == "invalid_params"
    gone = writer.call("delete_page", {"slug": "concepts/never-existed"})
    assert json.loads(gone["content"][0]["text"])["error"] == "page_not_found"
    captured = writer.data("capture", {"content": "Call Samuel about dawn photos."})
    assert captured["slug"].startswith("inbox/") and captured["status"] == "created_or_updated"
    again = writer.data("capture", {"content": "Call Samuel about dawn photos."})
    assert again["status"] == "skipped" and again["slug"] == captured["slug"]


def test_store_api_for_tests(emu: Emulator, mcp: Mcp) -> None:
    emu.store.put_page("notes/from-test", "# From Test\n\nAdded through emu.store.")
    assert mcp.data("get_page", {"slug": "notes/from-test"})["title"] == "From Test"


# strict_params and lean mode ------------------------------------------------------------------
def test_unknown_param_warn(mcp: Mcp) -> None:
    result = mcp.call("search", {"query": "Beacon", "fields": "lean", "snippet_chars": 1})
    assert list(result["_meta"]) == ["warnings", "retrieval"]
    assert result["_meta"]["warnings"] == [{"code": "unknown_param", "param": "fields"}]
    assert len(result["content"]) == 2
    assert result["content"][1]["text"].startswith('warning: unknown parameter "fields" ignored')
    assert "chunk_text" in json.loads(result["content"][0]["text"])[0]


@pytest.mark.parametrize("mode", ["ignore", "reject"])
def test_unknown_param_ignore_and_reject(http: httpx.Client, mode: str) -> None:
    with Emulator(strict_params=mode) as emu:  # type: ignore[arg-type]
        mcp = Mcp(emu, http, mint(emu))
        result = mcp.call("search", {"query": "Beacon", "fields": "lean"})
        schema = mcp.rpc("tools/list")["result"]["tools"][0]["inputSchema"]
        if mode == "ignore":
            assert "_meta" not in result or "warnings" not in result["_meta"]
            assert len(result["content"]) == 1 and "isError" not in result
            assert "additionalProperties" not in schema
        else:
            assert result["isError"] is True
            envelope = json.loads(result["content"][0]["text"])
            assert envelope["error"] == "invalid_params" and "suggestion" in envelope
            assert schema["additionalProperties"] is False


def test_lean_mode(http: httpx.Client) -> None:
    with Emulator(lean=True) as emu:
        mcp = Mcp(emu, http, mint(emu))
        tools = {t["name"]: t for t in mcp.rpc("tools/list")["result"]["tools"]}
        assert "fields" in tools["search"]["inputSchema"]["properties"]
        lean = mcp.data("search", {"query": "ignore previous instructions sync", "fields": "lean"})
        assert all(
            list(r)
            == ["slug", "title", "type", "source_id", "score", "evidence", "injection_suspected"]
            for r in lean
        )
        flags = {r["slug"]: r["injection_suspected"] for r in lean}
        assert flags[INJECTION_SLUG] is True
        assert not any(v for k, v in flags.items() if k != INJECTION_SLUG)
        full = mcp.data("search", {"query": "Driftwood"})
        assert all("injection_suspected" in r and "chunk_text" in r for r in full)
