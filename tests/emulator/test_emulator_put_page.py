"""What a put_page leaves on the page, as GBrain 0.46.28 stores it and get_page returns it.

Provenance columns (recordings 40 and 101), CRLF line ends kept as sent, and the parts of a
rewrite that come from the stored page: its type, its tags, its date.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from emu_client import Mcp

from hermes_gbrain.api import GBrain
from hermes_gbrain.auth import StaticToken
from hermes_gbrain.emulator import Emulator, markdown
from hermes_gbrain.emulator.store import Database, PageStore, Provenance
from hermes_gbrain.errors import ToolError
from hermes_gbrain.mcp import MCPClient
from hermes_gbrain.transport import Transport

ISO_MS = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")
PROVENANCE = ("source_kind", "source_uri", "ingested_via", "ingested_at")

CRLF = (
    "---\r\ntype: note\r\ntitle: Crlf Probe\r\ntags: [a, b]\r\n---\r\n"
    "# Crlf Probe\r\n\r\nLine one.\r\nLine two.\r\n\r\n<!-- timeline -->\r\n"
    "- 2026-01-01: x\r\n- 2026-01-02: y\r\n"
)
# The content_hash GBrain 0.46.28 gives these two pages: the CRLF one is hashed with its CR bytes.
CRLF_HASH = "6a7af515221537e2dc0294de8bd4e83f39008b3d329cddd4bf033b5027b3be4c"
LF_HASH = "d1617d9f7a9ca04534e47a6ae0649ea80a42ec80e1f5a3621f52b82ab352d0d2"


def _provenance(page: dict[str, object]) -> tuple[object, ...]:
    return tuple(page[k] for k in PROVENANCE)


def test_put_page_over_mcp_stamps_provenance(writer: Mcp) -> None:
    slug = "notes/provenance-probe"
    seeded = writer.data("get_page", {"slug": "people/maya-okafor"})
    assert _provenance(seeded) == (None, None, None, None)  # imported, not put: recording 40

    # A remote caller's own values are ignored: the server stamps mcp:put_page (recording 101).
    args = {"slug": slug, "content": "---\ntitle: P\n---\nFirst text.\n"}
    spoof = {"source_kind": "capture-cli", "source_uri": "x:y", "ingested_via": "capture-cli"}
    writer.data("put_page", {**args, **spoof})
    first = writer.data("get_page", {"slug": slug})
    kind, uri, via, at = _provenance(first)
    assert (kind, uri, via) == ("mcp:put_page", None, "mcp:put_page")
    assert isinstance(at, str) and ISO_MS.fullmatch(at) and at >= first["created_at"]

    assert writer.data("put_page", args)["status"] == "skipped"
    assert writer.data("get_page", {"slug": slug})["ingested_at"] == at  # nothing written

    writer.data("put_page", {"slug": slug, "content": "---\ntitle: P\n---\nSecond text.\n"})
    second = writer.data("get_page", {"slug": slug})
    assert second["ingested_at"] > at  # each write stamps it anew (recording 104)


def test_capture_goes_through_put_page_provenance(writer: Mcp) -> None:
    reply = writer.data("capture", {"content": "A thought worth keeping for later."})
    page = writer.data("get_page", {"slug": reply["slug"]})
    assert (page["source_kind"], page["ingested_via"]) == ("mcp:put_page", "mcp:put_page")


def test_store_keeps_provenance_a_later_import_leaves_unset() -> None:
    store = PageStore(Database(None))
    stamp = Provenance(source_kind="mcp:put_page", ingested_via="mcp:put_page")
    first = store.put_page("notes/p", "One.", provenance=stamp, now="2026-01-01T00:00:00.000Z")
    later = store.put_page("notes/p", "Two.", now="2026-01-02T00:00:00.000Z")
    assert first.page.ingested_at == later.page.ingested_at == "2026-01-01T00:00:00.000Z"
    assert (later.page.source_kind, later.page.ingested_via) == ("mcp:put_page", "mcp:put_page")
    reread = PageStore(store.db).get("notes/p")
    assert reread is not None and reread.ingested_at == "2026-01-01T00:00:00.000Z"


def test_old_data_directory_gains_the_provenance_columns(tmp_path: Path) -> None:
    path = tmp_path / "brain.sqlite3"
    with sqlite3.connect(path) as conn:  # a pages table as written before the columns existed
        conn.execute(
            "CREATE TABLE pages (id INTEGER PRIMARY KEY AUTOINCREMENT, source_id TEXT NOT NULL,"
            " slug TEXT NOT NULL, type TEXT NOT NULL, title TEXT NOT NULL,"
            " compiled_truth TEXT NOT NULL, timeline TEXT NOT NULL, frontmatter TEXT NOT NULL,"
            " tags TEXT NOT NULL, links TEXT NOT NULL, content_hash TEXT NOT NULL,"
            " created_at TEXT NOT NULL, updated_at TEXT NOT NULL, deleted_at TEXT,"
            " effective_date TEXT NOT NULL, effective_date_source TEXT NOT NULL,"
            " UNIQUE (source_id, slug))"
        )
    conn.close()
    db = Database(tmp_path)
    put = PageStore(db).put_page("notes/old", "Body.", provenance=Provenance(ingested_via="v"))
    assert put.page.ingested_via == "v"
    db.close()


def test_crlf_is_kept_and_hashed_as_sent(writer: Mcp) -> None:
    parsed = markdown.parse_page("notes/crlf-probe", CRLF)
    assert parsed.content_hash == CRLF_HASH
    assert markdown.parse_page("notes/crlf-probe", CRLF.replace("\r\n", "\n")).content_hash == (
        LF_HASH
    )

    writer.data("put_page", {"slug": "notes/crlf-probe", "content": CRLF})
    page = writer.data("get_page", {"slug": "notes/crlf-probe"})
    assert (page["title"], page["tags"], page["frontmatter"]) == ("Crlf Probe", ["a", "b"], {})
    assert page["compiled_truth"] == "# Crlf Probe\r\n\r\nLine one.\r\nLine two."
    assert page["timeline"] == "- 2026-01-01: x\r\n- 2026-01-02: y"
    assert page["content_hash"] == CRLF_HASH

    # The same page with LF line ends is a different page: written, the CRLF one kept as a version.
    lf_text = CRLF.replace("\r\n", "\n")
    lf = writer.data("put_page", {"slug": "notes/crlf-probe", "content": lf_text})
    assert lf["status"] == "created_or_updated"
    assert writer.data("get_page", {"slug": "notes/crlf-probe"})["content_hash"] == LF_HASH
    versions = writer.data("get_versions", {"slug": "notes/crlf-probe"})
    assert [v["compiled_truth"] for v in versions] == ["# Crlf Probe\r\n\r\nLine one.\r\nLine two."]


def test_rewrite_keeps_stored_type_tags_and_date(writer: Mcp) -> None:
    slug = "notes/rewrite-probe"
    writer.data(
        "put_page", {"slug": slug, "content": "---\ntype: person\ntags: [one, two]\n---\nBody.\n"}
    )
    first = writer.data("get_page", {"slug": slug})
    assert (first["type"], first["tags"]) == ("person", ["one", "two"])
    assert first["effective_date_source"] == "fallback"

    # No type: the stored one stays (GBrain #1035); tags are only ever added (GBrain #1621).
    writer.data("put_page", {"slug": slug, "content": "---\ntags: [three]\n---\nChanged.\n"})
    second = writer.data("get_page", {"slug": slug})
    assert (second["type"], second["tags"]) == ("person", ["one", "three", "two"])
    stored = markdown.parse_page(slug, "---\ntags: [three]\n---\nChanged.\n", stored_type="person")
    assert second["content_hash"] == stored.content_hash  # the hash sees the kept type
    # The date falls back to the stored page's updated_at, not the rewrite's (recording 104).
    assert second["effective_date"] == first["updated_at"] < second["updated_at"]

    # An explicit type still wins.
    writer.data("put_page", {"slug": slug, "content": "---\ntype: note\n---\nAgain.\n"})
    assert writer.data("get_page", {"slug": slug})["type"] == "note"


def test_rewrite_of_a_deleted_page_starts_afresh(writer: Mcp) -> None:
    slug = "notes/deleted-probe"
    writer.data("put_page", {"slug": slug, "content": "---\ntype: person\ntags: [x]\n---\nB.\n"})
    writer.data("delete_page", {"slug": slug})
    writer.data("put_page", {"slug": slug, "content": "Body again.\n"})
    page = writer.data("get_page", {"slug": slug})
    # importFromContent cannot see a soft-deleted page: no kept type, no version of it.
    assert page["type"] == "note" and page["deleted_at"] is None
    assert page["tags"] == ["x"]  # the row's tags outlive the delete
    assert writer.data("get_versions", {"slug": slug}) == []


def test_frontmatter_comes_back_in_jsonb_key_order(writer: Mcp) -> None:
    content = (
        "---\ntitle: Keys\nstatus: active\ndate: 2024-05-01\nflag: true\ncount: 3\n"
        "aliases: [K, L]\nnum_str: '123'\n---\nBody.\n"
    )
    writer.data("put_page", {"slug": "notes/keys-probe", "content": content})
    page = writer.data("get_page", {"slug": "notes/keys-probe"})
    # Postgres jsonb orders object keys by byte length, then bytes.
    assert list(page["frontmatter"]) == ["date", "flag", "count", "status", "aliases", "num_str"]
    # The hash was taken in the written order: the same page written in another order differs.
    assert page["content_hash"] == markdown.parse_page("notes/keys-probe", content).content_hash


def test_crlf_page_is_its_own_chunk_verbatim(writer: Mcp) -> None:
    content = (
        "---\r\ntitle: Zebra Chunk\r\n---\r\n# Zebra Chunk\r\n\r\nZebra para one.\r\n"
        "Second line.\r\n\r\n\r\nZebra para two.\r\n"
    )
    writer.data("put_page", {"slug": "notes/zebra-chunk", "content": content})
    rows = writer.data("search", {"query": "zebra"})
    assert [r["chunk_text"] for r in rows if r["slug"] == "notes/zebra-chunk"] == [
        "# Zebra Chunk\r\n\r\nZebra para one.\r\nSecond line.\r\n\r\n\r\nZebra para two."
    ]


def _error(result: dict[str, Any]) -> str:
    assert result["isError"] is True
    return str(json.loads(result["content"][0]["text"])["error"])


def test_empty_pages_as_gbrain_guards_them(writer: Mcp) -> None:
    # A new slug may start empty: written, with no chunks and the reason said (#2822).
    empty = writer.data("put_page", {"slug": "notes/empty-new", "content": ""})
    assert (empty["status"], empty["chunks"], empty["chunk_skip_reason"]) == (
        "created_or_updated",
        0,
        "empty_body",
    )
    assert list(empty)[:4] == ["slug", "status", "chunks", "chunk_skip_reason"]
    assert writer.data("get_page", {"slug": "notes/empty-new"})["title"] == "Empty New"

    slug = "notes/empty-old"
    writer.data("put_page", {"slug": slug, "content": "Some body.\n"})
    # Blank content over a page with a body: refused by the operation...
    assert _error(writer.call("put_page", {"slug": slug, "content": "  \n"})) == "invalid_params"
    # ...and frontmatter alone (a blank parsed body) by the engine's guard.
    only_meta = {"slug": slug, "content": "---\ntitle: X\n---\n"}
    assert _error(writer.call("put_page", only_meta)) == "internal_error"
    assert writer.data("get_page", {"slug": slug})["compiled_truth"] == "Some body."
    assert writer.data("get_versions", {"slug": slug}) == []  # nothing was written

    blank = writer.data("put_page", {"slug": slug, "content": "", "allow_empty": True})
    assert blank["chunk_skip_reason"] == "empty_body"
    assert writer.data("get_page", {"slug": slug})["compiled_truth"] == ""


def test_oversized_content_is_skipped_with_its_reason(writer: Mcp) -> None:
    slug = "notes/too-large"
    content = "x" * 5_000_001  # one byte over GBrain's 5 MB limit
    reply = writer.data("put_page", {"slug": slug, "content": content})
    assert (reply["status"], reply["chunks"], reply["chunk_skip_reason"]) == (
        "skipped",
        0,
        "write_skipped",
    )
    assert "5000001 bytes" in reply["error"]
    assert list(reply) == [
        "slug",
        "status",
        "chunks",
        "error",
        "chunk_skip_reason",
        "auto_links",
        "auto_timeline",
        "facts_backstop",
        "chronicle_backstop",
        "write_through",
    ]
    assert reply["facts_backstop"] == {"skipped": "backstop_error"}
    assert _error(writer.call("get_page", {"slug": slug})) == "page_not_found"


def test_get_versions_as_gbrain_joins_them(writer: Mcp) -> None:
    assert writer.data("get_versions", {"slug": "notes/never-written"}) == []  # not an error
    slug = "notes/versions-deleted"
    writer.data("put_page", {"slug": slug, "content": "One.\n"})
    writer.data("put_page", {"slug": slug, "content": "Two.\n"})
    writer.data("delete_page", {"slug": slug})
    kept = writer.data("get_versions", {"slug": slug})  # a soft-deleted page keeps its history
    assert [v["compiled_truth"] for v in kept] == ["One."]
    private = "notes/versions-private"
    for text in ("One.", "Two."):
        content = f"---\nvisibility: private\n---\n{text}\n"
        writer.data("put_page", {"slug": private, "content": content})
    assert writer.data("get_versions", {"slug": private}) == []  # reads like a missing page


def test_same_frontmatter_id_on_another_slug_is_skipped(writer: Mcp) -> None:
    writer.data("put_page", {"slug": "notes/ext-a", "content": "---\nid: ext-1\n---\nFirst.\n"})
    other = {"slug": "notes/ext-b", "content": "---\nid: ext-1\n---\nOther text.\n"}
    reply = writer.data("put_page", other)
    # The page that already has the id answers; nothing is written under the new slug.
    assert (reply["slug"], reply["status"], reply["chunk_skip_reason"]) == (
        "notes/ext-a",
        "skipped",
        "write_skipped",
    )
    assert writer.call("get_page", {"slug": "notes/ext-b"})["isError"] is True
    # The same text without an id is another page (GBrain only warns about the shared hash).
    same_text = writer.data("put_page", {"slug": "notes/ext-d", "content": "First.\n"})
    assert (same_text["slug"], same_text["status"]) == ("notes/ext-d", "created_or_updated")


def test_client_reads_a_skip_under_another_slug_as_not_written(emu: Emulator) -> None:
    client_id, secret = emu.register_client("twin-writer", "read write")
    token = StaticToken(emu.mint_token(client_id, secret))
    brain = GBrain(MCPClient(url=emu.mcp_url, credential=token, transport=Transport()))
    assert brain.put_page("notes/ext-x", "---\nid: ext-9\n---\nOne.\n")["status"] == (
        "created_or_updated"
    )
    with pytest.raises(ToolError) as caught:
        brain.put_page("notes/ext-y", "---\nid: ext-9\n---\nTwo.\n")
    assert caught.value.code == "invalid_params"
    with pytest.raises(ToolError):  # frontmatter GBrain cannot parse: status "error"
        brain.put_page("notes/ext-z", "---\na: 1\na: 2\n---\nThree.\n")
    assert brain.put_page("notes/ext-x", "---\nid: ext-9\n---\nOne.\n")["status"] == "skipped"
