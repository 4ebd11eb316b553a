"""``capture`` as GBrain 0.46.28 answers it: put_page's reply plus a receipt, never a status of
its own.

The slugs, hashes, titles and reply fields below were observed on a real GBrain 0.46.28 (built
from its source, PGLite, no embedding or chat model) for the same calls; dates and timestamps
aside, the emulator must answer the same.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

import pytest
from emu_client import Mcp

from hermes_gbrain.emulator import capture, markdown
from hermes_gbrain.emulator.store import effective_date

TEXT = "Call Samuel about dawn photos r1."
TEXT_HASH = "52f1b872a9deb922b7edd4d37fdb3c4841f7420ad2aedb6614c711d472802866"
PUT_KEYS = [
    "slug",
    "status",
    "chunks",
    "auto_links",
    "auto_timeline",
    "facts_backstop",
    "chronicle_backstop",
    "write_through",
]
RECEIPT_KEYS = ["channel", "content_hash", "dedupe"]


def _today() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d")


def _dated(slug: str, prefix: str, short_hash: str, before: str) -> None:
    """``slug`` is ``prefix/<a UTC date of this call>-<short_hash>``."""
    match = re.fullmatch(rf"{re.escape(prefix)}/(\d{{4}}-\d\d-\d\d)-{short_hash}", slug)
    assert match is not None, slug
    assert match.group(1) in {before, _today()}


def _error(result: dict[str, Any]) -> dict[str, Any]:
    assert result["isError"] is True
    body: dict[str, Any] = json.loads(result["content"][0]["text"])
    return body


def test_new_text_lands_under_a_hash_slug_with_put_pages_reply(writer: Mcp) -> None:
    day = _today()
    reply = writer.data("capture", {"content": TEXT})
    assert list(reply) == PUT_KEYS + RECEIPT_KEYS
    _dated(reply["slug"], "inbox", TEXT_HASH[:8], day)
    assert {k: v for k, v in reply.items() if k not in ("slug", "dedupe")} == {
        "status": "created_or_updated",
        "chunks": 1,
        "auto_links": {"skipped": "remote"},
        "auto_timeline": {"skipped": "remote"},
        "facts_backstop": {"skipped": "too_short"},
        "chronicle_backstop": {"skipped": "remote"},
        "write_through": {"written": False, "skipped": "no_repo_configured"},
        "channel": "capture",
        "content_hash": TEXT_HASH,
    }
    page = writer.data("get_page", {"slug": reply["slug"]})
    assert (page["type"], page["title"]) == ("note", TEXT)
    assert page["compiled_truth"] == f"# {TEXT}\n\n{TEXT}"  # plain text gets a heading
    assert page["frontmatter"]["captured_via"] == "capture-mcp"
    assert re.fullmatch(
        r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", page["frontmatter"]["captured_at"]
    )
    assert (
        page["content_hash"] == "85e8da79028bae7e73b024cb3141abae8499f6cbecebc11ce403ee8ede6666cc"
    )
    assert page["effective_date_source"] == "filename"  # the date at the start of the slug's tail
    assert page["effective_date"] == reply["slug"][6:16] + "T00:00:00.000Z"


def test_the_same_text_again_is_put_pages_skip(writer: Mcp) -> None:
    first = writer.data("capture", {"content": TEXT})
    stored = writer.data("get_page", {"slug": first["slug"]})
    again = writer.data("capture", {"content": TEXT})  # a new captured_at, left out of the hash
    assert list(again) == [*PUT_KEYS[:3], "chunk_skip_reason", *PUT_KEYS[3:], *RECEIPT_KEYS]
    assert (again["slug"], again["content_hash"]) == (first["slug"], first["content_hash"])
    assert (again["status"], again["chunks"], again["chunk_skip_reason"]) == (
        "skipped",
        0,
        "write_skipped",
    )
    assert again["chronicle_backstop"] == {"skipped": "not_imported"}
    assert writer.data("get_page", {"slug": first["slug"]}) == stored
    assert writer.data("get_versions", {"slug": first["slug"]}) == []
    # Whitespace, line endings and a BOM do not change the hash or the slug; the stored text
    # keeps the caller's bytes, so this one is a new version of the same page.
    spaced = writer.data("capture", {"content": "\ufeff\r\n  " + TEXT + "  \r\n"})
    assert (spaced["slug"], spaced["content_hash"]) == (first["slug"], TEXT_HASH)
    assert spaced["status"] == "created_or_updated"


def test_an_existing_slug_is_replaced_through_put_page(writer: Mcp) -> None:
    writer.data(
        "put_page", {"slug": "notes/cap-r1", "content": "# Existing\n\nThe owner's text.\n"}
    )
    reply = writer.data(
        "capture", {"content": "Replacement text for the page.", "slug": "notes/cap-r1"}
    )
    assert reply["slug"] == "notes/cap-r1" and reply["status"] == "created_or_updated"
    assert reply["content_hash"] == (
        "e057b9c2c1daba1657cf64a70d0168d9995c23190828a10946cf344157da36f0"
    )
    page = writer.data("get_page", {"slug": "notes/cap-r1"})
    assert page["content_hash"] == (
        "d78ec14580fc9d1ec4046245bad6e3b3e47c6c3816ecd928242b4099ff8a8556"
    )
    assert page["title"] == "Replacement text for the page."
    versions = writer.data("get_versions", {"slug": "notes/cap-r1"})
    assert [v["compiled_truth"] for v in versions] == ["# Existing\n\nThe owner's text."]


@pytest.mark.parametrize(
    ("args", "prefix", "content_hash", "page"),
    [
        pytest.param(
            {
                "content": "---\ntitle: My Own Title\ntype: person\ncaptured_via: phone\n"
                "tags: [a, b]\n---\nBody with frontmatter r1.\n"
            },
            "inbox",
            "aebd2cd454605270618cc0e4646538a3170705f1517b7cabf12a3abc254c2054",
            {
                "type": "note",  # the tool's type wins over the caller's frontmatter
                "title": "My Own Title",
                "compiled_truth": "Body with frontmatter r1.",
                "tags": ["a", "b"],
                "captured_via": "phone",
                "content_hash": "1046ca26cbd960b3eeeb5c6b305612ec236a6ced722a9ac5cba1ef3d14830ee8",
            },
            id="caller-frontmatter",
        ),
        pytest.param(
            {"content": "## Heading line: colon r1\n\nmore", "type": "diary"},
            "life/diary",
            "95ebd1d228a7faf44cce30da0d13a38e6ebc1c488558edc4537e1fd26443013d",
            {
                "type": "diary",
                "title": "Heading line: colon r1",
                "compiled_truth": "## Heading line: colon r1\n\nmore",  # no second heading
                "tags": [],
                "captured_via": "capture-mcp",
                "content_hash": "52f2d4a0717e4a25cc38c706561e80accaa1ed6387f002dac2d30c62ae75866d",
            },
            id="diary",
        ),
        pytest.param(
            {"content": "It's 'quoted': yes #r1"},
            "inbox",
            "1696c396d028e4462add1e1246cbbb856fcd5ffa998fc80799e7ea2b75c2ffb4",
            {
                "type": "note",
                "title": "It's 'quoted': yes #r1",
                "compiled_truth": "# It's 'quoted': yes #r1\n\nIt's 'quoted': yes #r1",
                "tags": [],
                "captured_via": "capture-mcp",
                "content_hash": "25cf72e55539433e98d35b585f1e5b31434cce3bff40a6509d80ef931acb5b11",
            },
            id="quotes",
        ),
        pytest.param(
            {"content": "---\ntype: person\n---\nBody two r1\n", "type": "meeting"},
            "inbox",
            "e287afbacf544e33142ff864c2ccf32c148817b27b479b1c8a929e52754b5b40",
            {
                "type": "meeting",
                "title": "Body two r1",
                "compiled_truth": "Body two r1",
                "tags": [],
                "captured_via": "capture-mcp",
                "content_hash": "a77963367e5e54d15ea98423155209bc71ed6570637f385e734a27a9fe31926a",
            },
            id="type-argument",
        ),
        pytest.param(
            {"content": "\ufb01le \uff21 r2"},  # NFKC for the hash only; the page keeps the text
            "inbox",
            "43dbcab2d0077929fc7447f1e6b7d85b3c42a9e01cebff89f884964a247fbf89",
            {
                "type": "note",
                "title": "\ufb01le \uff21 r2",
                "compiled_truth": "# \ufb01le \uff21 r2\n\n\ufb01le \uff21 r2",
                "tags": [],
                "captured_via": "capture-mcp",
                "content_hash": "37fe568c36a2b0e2362f546519c37182a425e1a2f9308020d41197093f06dbf7",
            },
            id="compatibility-characters",
        ),
    ],
)
def test_frontmatter_merge_title_and_type_prefix(
    writer: Mcp, args: dict[str, str], prefix: str, content_hash: str, page: dict[str, Any]
) -> None:
    day = _today()
    reply = writer.data("capture", args)
    _dated(reply["slug"], prefix, content_hash[:8], day)
    assert reply["content_hash"] == content_hash
    stored = writer.data("get_page", {"slug": reply["slug"]})
    got = {k: stored[k] for k in ("type", "title", "compiled_truth", "tags", "content_hash")}
    got["captured_via"] = stored["frontmatter"]["captured_via"]
    assert got == page
    assert "captured_at" in stored["frontmatter"]


def test_the_callers_stamps_and_dates_win_and_read_as_gbrain_reads_them(writer: Mcp) -> None:
    content = (
        "---\ndate: 2026-01-05\nsource: phone\naliases: [x, y]\n"
        "captured_at: 2025-12-31T10:00:00Z\n---\n# Dated r2\n\nText.\n"
    )
    reply = writer.data("capture", {"content": content})
    assert reply["content_hash"].startswith("3ecab770")
    page = writer.data("get_page", {"slug": reply["slug"]})
    assert page["frontmatter"] == {
        "date": "2026-01-05T00:00:00.000Z",
        "source": "phone",
        "aliases": ["x", "y"],
        "captured_at": "2025-12-31T10:00:00.000Z",
        "captured_via": "capture-mcp",
    }
    assert (page["title"], page["compiled_truth"]) == ("Dated r2", "# Dated r2\n\nText.")
    assert (page["effective_date"], page["effective_date_source"]) == (
        "2026-01-05T00:00:00.000Z",
        "date",
    )
    assert page["content_hash"] == (
        "157a7941157b7af95949c791128eb0e0cf4a71f0ad8890365b88342f92bd9746"
    )


def test_event_slug_and_a_long_title(writer: Mcp) -> None:
    day = _today()
    event = writer.data("capture", {"content": "Dinner r1", "type": "event"})
    _dated(event["slug"], "life/events", "03790de5", day)
    long = writer.data("capture", {"content": "x" * 100 + " r1"})
    assert long["content_hash"].startswith("02f79bc2")
    assert long["facts_backstop"] == {"skipped": "extraction_unavailable"}  # 80+ chars of a note
    page = writer.data("get_page", {"slug": long["slug"]})
    assert page["title"] == "x" * 79 + "…"
    assert page["content_hash"] == (
        "c6247f6dfca1e95c5e2e905171652cd1f76c6efb0b1cb15b6eeead5487228e50"
    )


def test_binary_empty_and_bad_slug_are_refused_before_any_write(writer: Mcp) -> None:
    before = len(writer.data("list_pages", {"limit": 100}))
    empty = _error(writer.call("capture", {"content": "  \n\t \u3000"}))
    assert empty["error"] == "invalid_params"
    nul = _error(writer.call("capture", {"content": "ab\x00cd"}))
    assert nul["error"] == "invalid_params" and "offset 2" in nul["message"]
    assert "suggestion" in nul
    bad = _error(writer.call("capture", {"content": "x", "slug": "Bad Slug!"}))
    assert bad["error"] == "invalid_params"
    assert len(writer.data("list_pages", {"limit": 100})) == before
    # GBrain looks for a NUL in the first 8 KiB only.
    late = writer.data("capture", {"content": "y" * 9000 + "\x00"})
    assert late["status"] == "created_or_updated"


def test_hash_normalization_and_title_rules() -> None:
    norm = capture.normalize_for_hash
    assert norm("\ufeff\r\n a\r\nb \u00a0\n") == "a\nb"
    assert norm("\ufb01le \uff21") == "file A"  # NFKC
    assert capture.content_hash(norm(TEXT)) == TEXT_HASH
    assert capture.derive_title("\n---\n### Plan\nmore") == "Plan"
    assert capture.derive_title("---\n\n---\n") == "Capture"
    assert capture.derive_title("\U0001f600" * 81) == "\U0001f600" * 79 + "…"
    assert capture.nul_offset("é\x00") == 2  # a byte offset in UTF-8


def test_frontmatter_quotes_and_timestamps_read_as_yaml() -> None:
    meta, _ = markdown.split_frontmatter(
        "---\na: 'It''s'\nb: \"say \\\"hi\\\"\\u00e9\"\nc: [\"x\", 'y']\n"
        "d: 2001-12-14t21:59:43.10 -5\ne: 2001-12-14T21:59:43-0500\n---\nbody"
    )
    assert meta == {
        "a": "It's",
        "b": 'say "hi"é',
        "c": ["x", "y"],
        "d": "2001-12-15T02:59:43.100Z",  # a Date to js-yaml, printed in UTC
        "e": "2001-12-14T21:59:43-0500",  # not a YAML timestamp: a string
    }


@pytest.mark.parametrize(
    ("slug", "frontmatter", "expected"),
    [
        ("inbox/2026-03-02-ab", {}, ("2026-03-02T00:00:00.000Z", "filename")),
        ("notes/2026-03-02-ab", {"date": "2026-03-05"}, ("2026-03-05T00:00:00.000Z", "date")),
        (
            "meetings/2026-03-02-ab",
            {"date": "2026-03-05"},
            ("2026-03-02T00:00:00.000Z", "filename"),
        ),
        (
            "notes/x",
            {"published": "2026-01-01", "event_date": "2026-02-01T10:30:00Z"},
            ("2026-02-01T10:30:00.000Z", "event_date"),
        ),
        ("notes/1980-01-01-x", {"date": "someday"}, ("NOW", "fallback")),
    ],
)
def test_effective_date_chain(
    slug: str, frontmatter: dict[str, Any], expected: tuple[str, str]
) -> None:
    assert effective_date(slug, frontmatter, "NOW") == expected
