"""The emulator's vector arm against the hybrid recordings (112-115).

The recorded brain is not the emulator's, so rankings are not compared; what must hold
is what GBrain's code makes true of any hybrid answer, checked on the recordings and on
the emulator alike: the row fields, 20 rows without a ``limit``, no degraded stage,
``evidence`` as ``evidence.ts`` classifies it, a base score that is
``0.7 * normalised RRF + 0.3 * cosine``, boosts that only raise it, and title matches
first for a title.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from hermes_gbrain.emulator import Emulator
from support.recordings import load_recording, require_contract_dir

pytestmark = pytest.mark.contract

CONTRACT = require_contract_dir(Path(__file__))

HYBRID = (
    "112-search-named-hybrid.http",
    "113-search-paraphrase-hybrid.http",
    "114-search-no-answer-hybrid.http",
    "115-query-paraphrase-hybrid-noexpand.http",
)
OPTIONAL = {
    "id",  # search only, not query
    "modality",
    "exact_lookup",
    "keyword_hit",
    "title_match_boost",
    "backlink_boost",
    "recency_boost",
}


def _result(body: bytes) -> dict[str, Any]:
    for line in body.decode("utf-8").splitlines():
        if line.startswith("data:"):
            result: dict[str, Any] = json.loads(line[5:])["result"]
            return result
    raise AssertionError("no data line")


def recorded(name: str) -> tuple[str, dict[str, Any], dict[str, Any]]:
    rec = load_recording(CONTRACT / name)
    params = rec.rpc_request["params"]
    return params["name"], params["arguments"], _result(rec.body)


@pytest.fixture(scope="module")
def emulated() -> Iterator[dict[str, dict[str, Any]]]:
    with Emulator(hybrid=True) as emu, httpx.Client(trust_env=False, timeout=10) as http:
        client_id, secret = emu.register_client("hybrid-contract", "read")
        token = emu.mint_token(client_id, secret)
        out = {}
        for name in HYBRID:
            tool, arguments, _ = recorded(name)
            response = http.post(
                emu.mcp_url,
                headers={
                    "Authorization": f"Bearer {token}",
                    "Content-Type": "application/json",
                    "Accept": "application/json, text/event-stream",
                },
                json={
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "tools/call",
                    "params": {"name": tool, "arguments": arguments},
                },
            )
            assert response.status_code == 200
            out[name] = _result(response.content)
        yield out


def rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(result["content"][0]["text"])
    return data


def classify(row: dict[str, Any]) -> str:
    """``evidence.ts`` ``classifyEvidence`` (0.46.28), restated."""
    if (row.get("title_match_boost") or 0) > 1:
        return "exact_title_match"
    if row.get("cosine", 0) >= 0.8:
        return "high_vector_match"
    if row.get("keyword_hit") is True and row["base_score"] >= 0.6:
        return "keyword_exact"
    return "weak_semantic"


def answers(name: str, emulated: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    return [recorded(name)[2], emulated[name]]


@pytest.mark.parametrize("name", HYBRID)
def test_rows_and_meta_are_shaped_like_the_recording(
    name: str, emulated: dict[str, dict[str, Any]]
) -> None:
    want, got = answers(name, emulated)
    assert len(rows(got)) == len(rows(want)) == 20  # no limit sent: 20 rows, no floor
    for result in (want, got):
        retrieval = result["_meta"]["retrieval"]
        assert retrieval["vector_enabled"] is True and retrieval["degraded"] == []
    required = set.intersection(*(set(r) for r in rows(want))) - OPTIONAL
    allowed = set.union(*(set(r) for r in rows(want)))
    for row in rows(got):
        assert required <= set(row) <= allowed
        assert row.get("keyword_hit", True) is True  # present only when true


@pytest.mark.parametrize("name", HYBRID)
def test_evidence_and_scores_follow_gbrains_rules(
    name: str, emulated: dict[str, dict[str, Any]]
) -> None:
    for result in answers(name, emulated):
        for row in rows(result):
            assert row["evidence"] == classify(row), row["slug"]
            normalised = (row["base_score"] - 0.3 * row["cosine"]) / 0.7
            assert -1e-9 <= normalised <= 1 + 1e-9, row["slug"]
            assert row["score"] >= row["base_score"] - 1e-9
            if "keyword_hit" not in row:
                assert row["evidence"] == "weak_semantic"  # the vector arm alone


def test_a_title_puts_its_pages_first(emulated: dict[str, dict[str, Any]]) -> None:
    for result in answers(HYBRID[0], emulated):
        evidence = [r["evidence"] for r in rows(result)]
        titled = evidence.count("exact_title_match")
        assert titled >= 1 and evidence[:titled] == ["exact_title_match"] * titled
        assert "exact_title_match" not in evidence[titled:]
