"""The recorded real rows the fidelity benchmarks compare against stay in step with the
labelled set and the large brain: a stale recording would silently measure fewer messages."""

from __future__ import annotations

import json
from pathlib import Path

from hermes_gbrain.emulator import large_brain
from hermes_gbrain.recall.pairs import pair_query

DATA = Path(__file__).resolve().parents[2] / "bench" / "data"


def _labelled_messages() -> set[str]:
    items = json.loads((DATA / "relevance.json").read_text(encoding="utf-8"))["items"]
    return {
        turn["message"]
        for item in items
        for turn in (item["turns"] if item["kind"] == "conversation" else [item])
    }


def test_keyword_recording_covers_every_message_with_real_pages_only() -> None:
    real = json.loads((DATA / "keyword_real.json").read_text(encoding="utf-8"))
    # every message, and the pairs search a turn sends beside it (recall.pairs)
    labelled = _labelled_messages()
    assert set(real) == labelled | {q for m in labelled if (q := pair_query(m)) is not None}
    slugs = {slug for _, slug, _ in large_brain.pages()}
    for rows in real.values():
        assert len(rows) <= 20
        for row in rows:
            assert set(row) == {"slug", "chunk_source", "score", "base_score"}
            assert row["slug"] in slugs
