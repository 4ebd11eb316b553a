"""Writes as GBrain 0.46.28 answers them: its content hash, skipped identical puts, versions.

The page text and the expected hashes are those of the recorded exchanges 100-105 (the contract
tests replay the recordings themselves); here they are literals so the emulator is held to them.
"""

from __future__ import annotations

import hashlib

from emu_client import Mcp

from hermes_gbrain.emulator import markdown

SLUG = "notes/contract-hash-probe"
FIRST = (
    "---\ntype: note\ntitle: Contract Hash Probe\ntags: [probe, contract]\n---\n"
    "# Contract Hash Probe\n\nA page written to record how GBrain hashes what it stores.\n\n"
    "---\n\n- 2026-11-30: first version written.\n"
)
SECOND = FIRST.replace("first version", "second version")
FIRST_HASH = "4a2aebe34363addc6948e6b2534b486cf9254eaa4f9a39fa21dedd59e48a54c5"  # recording 101
SECOND_HASH = "a0719e30ff64f1c5ce981d5da5a31dad75ee1830e84a707c750bf44b7525295b"  # recording 104


def test_parse_matches_gbrain() -> None:
    page = markdown.parse_page(SLUG, FIRST)
    assert (page.title, page.type, page.tags, page.frontmatter) == (
        "Contract Hash Probe",
        "note",
        ["contract", "probe"],
        {},
    )
    # A bare "---" is a horizontal rule, not a timeline split.
    assert page.compiled_truth.endswith("---\n\n- 2026-11-30: first version written.")
    assert page.timeline == ""
    assert page.content_hash == FIRST_HASH
    assert page.content_hash != hashlib.sha256(FIRST.encode()).hexdigest()


def test_timeline_sentinels_and_title_inference() -> None:
    for sentinel in ("<!-- timeline -->", "--- timeline ---", "---\n\n## Timeline"):
        body = f"Intro.\n\n{sentinel}\n- 2026-01-01: x"
        page = markdown.parse_page("notes/a-b_c", body)
        assert page.compiled_truth == "Intro."
        assert page.timeline.endswith("- 2026-01-01: x")
    page = markdown.parse_page("notes/a-b_c", "# Heading\n\n## Timeline\n- x")
    assert page.title == "Heading"  # no frontmatter title: the first "# " heading (GBrain #2446)
    assert page.timeline == ""  # a bare "## Timeline" moves only over dated bullets (#2225)
    assert markdown.parse_page("notes/a-b_c", "Text.\n\n## History\nprose").title == "A B C"


def test_put_get_skip_versions(writer: Mcp) -> None:
    put = writer.data("put_page", {"slug": SLUG, "content": FIRST})
    assert put["status"] == "created_or_updated"
    # A note with 80+ characters of text would be queued for facts; no chat model: recording 100.
    assert put["facts_backstop"] == {"skipped": "extraction_unavailable"}
    first = writer.data("get_page", {"slug": SLUG})
    assert first["content_hash"] == FIRST_HASH
    assert first["compiled_truth"].startswith("# Contract Hash Probe\n\n")
    assert (first["timeline"], first["frontmatter"], first["tags"]) == (
        "",
        {},
        ["contract", "probe"],
    )

    again = writer.data("put_page", {"slug": SLUG, "content": FIRST})
    assert again["status"] == "skipped"
    assert (again["chunks"], again["chunk_skip_reason"]) == (0, "write_skipped")
    assert again["facts_backstop"] == {"skipped": "extraction_unavailable"}  # recording 102
    assert writer.data("get_page", {"slug": SLUG})["updated_at"] == first["updated_at"]
    assert writer.data("get_versions", {"slug": SLUG}) == []

    changed = writer.data("put_page", {"slug": SLUG, "content": SECOND})
    assert changed["status"] == "created_or_updated"
    second = writer.data("get_page", {"slug": SLUG})
    assert second["content_hash"] == SECOND_HASH
    assert second["updated_at"] >= first["updated_at"]
    versions = writer.data("get_versions", {"slug": SLUG})
    assert [v["compiled_truth"] for v in versions] == [first["compiled_truth"]]
    assert list(versions[0]) == ["id", "page_id", "compiled_truth", "frontmatter", "snapshot_at"]
    assert versions[0]["snapshot_at"] == second["updated_at"]
