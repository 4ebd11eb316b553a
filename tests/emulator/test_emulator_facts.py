"""Facts: ``remember``/``forget``/``recall`` and ``_meta.brain_hot_memory`` (recordings 99a/99b)."""

from __future__ import annotations

import json

from emu_client import Mcp

REMEMBER_KEYS = [
    "id",
    "status",
    "status_text",
    "entity_slug",
    "valid_until",
    "degraded_dedup",
    "protocol_version",
]
HOT_FACT_KEYS = [
    "id",
    "fact",
    "kind",
    "notability",
    "entity_slug",
    "valid_from",
    "created_at",
    "context",
    "confidence",
]


def test_remember_answers_like_99a_and_hot_memory_follows(writer: Mcp, mcp: Mcp) -> None:
    assert "brain_hot_memory" not in mcp.call("search", {"query": "falcon"}).get("_meta", {})
    result = writer.call(
        "remember",
        {
            "fact": "Alice prefers keyword search over vector search",
            "provenance": "seed fixture",
            "entity": "people/alice-example",
        },
    )
    body = json.loads(result["content"][0]["text"])
    assert list(body) == REMEMBER_KEYS
    assert body["id"] == "1" and body["status"] == "inserted"
    assert body["status_text"] == "remembered as fact #1"
    hot = result["_meta"]["brain_hot_memory"]
    assert hot["source_id"] == "default" and hot["session_id"] is None
    assert list(hot["facts"][0]) == HOT_FACT_KEYS
    assert hot["facts"][0]["id"] == 1 and hot["facts"][0]["kind"] == "fact"
    # A plain read now carries it too, after the retrieval block (99b).
    meta = mcp.call("search", {"query": "falcon", "limit": 1})["_meta"]
    assert list(meta) == ["retrieval", "brain_hot_memory"]
    # ...but never on recall (meta-hook.ts).
    assert "_meta" not in mcp.call("recall", {})


def test_remember_refusals(writer: Mcp) -> None:
    def error(args: dict[str, object]) -> str:
        result = writer.call("remember", args)
        assert result["isError"] is True
        return str(json.loads(result["content"][0]["text"])["error"])

    assert error({"fact": "x"}) == "invalid_params"
    assert error({"fact": "x", "provenance": "  "}) == "provenance_required"
    assert error({"fact": "x", "provenance": "p" * 501}) == "invalid_params"
    assert error({"fact": "  ", "provenance": "p"}) == "invalid_params"
    assert error({"fact": "x", "provenance": "p", "ttl": "P30D"}) == "invalid_params"


def test_no_dedup_without_embeddings_then_forget(writer: Mcp, mcp: Mcp) -> None:
    one = writer.data("remember", {"fact": "Tea, not coffee", "provenance": "a"})
    two = writer.data("remember", {"fact": "Tea, not coffee", "provenance": "b"})
    assert one["id"] != two["id"] and two["degraded_dedup"] is True
    rows = mcp.data("recall", {"grep": "TEA"})["facts"]
    assert [r["fact_id"] for r in rows] == [two["id"], one["id"]]  # newest first
    assert rows[0]["provenance"] == "b" and rows[0]["id"] == int(two["id"])
    gone = writer.data("forget", {"id": one["id"], "reason": "replaced"})
    assert gone == {"id": one["id"], "expired": True, "reason": "replaced", "protocol_version": 1}
    again = writer.data("forget", {"id": one["id"]})
    assert again["expired"] is False
    assert [r["fact_id"] for r in mcp.data("recall", {"grep": "tea"})["facts"]] == [two["id"]]
    missing = writer.call("forget", {"id": "999"})
    assert json.loads(missing["content"][0]["text"])["error"] == "not_found"
    assert writer.data("forget_fact", {"id": 999})["expired"] is False
    assert mcp.call("remember", {"fact": "x", "provenance": "p"})["isError"] is True  # read token


def test_hot_memory_prefers_the_session(writer: Mcp, mcp: Mcp) -> None:
    writer.data("remember", {"fact": "Other session fact", "provenance": "p"})
    writer.data(
        "remember",
        {"fact": "This session fact", "provenance": "p", "_meta": {"session_id": "s-1"}},
    )
    hot = mcp.call("search", {"query": "falcon", "_meta": {"session_id": "s-1"}})["_meta"]
    facts = hot["brain_hot_memory"]["facts"]
    assert hot["brain_hot_memory"]["session_id"] == "s-1"
    assert [f["fact"] for f in facts] == ["This session fact"]
    anywhere = mcp.call("search", {"query": "falcon"})["_meta"]["brain_hot_memory"]["facts"]
    assert {f["fact"] for f in anywhere} == {"Other session fact", "This session fact"}
