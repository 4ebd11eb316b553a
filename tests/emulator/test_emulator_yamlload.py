"""Frontmatter read as GBrain 0.46.28 reads it (gray-matter over js-yaml 3 ``safeLoad``).

The expected values and content hashes are what GBrain stored for the same page text.
"""

from __future__ import annotations

import json

import pytest
from emu_client import Mcp

from hermes_gbrain.emulator import markdown, yamlload
from hermes_gbrain.emulator.store import jsonb

PARSE_PROBE = """---
title: Parse Probe
f1: 1.5
f2: 0755
f3: 0x1F
f4: +12
f5: 1_000
f6: .5
f7: 1e3
c1: value # a comment
c2: "quoted" # comment
c3: a#b
n1:
  a: 1
  b: two
  deep:
    c: x
l1:
  - name: A
    role: r
  - name: B
b1: |
  line one
  line two
b2: >
  folded one
  folded two
fm: {a: 1, b: x}
e1:
e2: ''
ml: first
  second
dt: 2024-05-01 10:00:00
---
Body.
"""
PARSE_PROBE_FRONTMATTER = {
    "b1": "line one\nline two\n",
    "b2": "folded one folded two\n",
    "c1": "value",
    "c2": "quoted",
    "c3": "a#b",
    "dt": "2024-05-01T10:00:00.000Z",
    "e1": None,
    "e2": "",
    "f1": 1.5,
    "f2": 493,
    "f3": 31,
    "f4": 12,
    "f5": 1000,
    "f6": 0.5,
    "f7": 1000,
    "fm": {"a": 1, "b": "x"},
    "l1": [{"name": "A", "role": "r"}, {"name": "B"}],
    "ml": "first second",
    "n1": {"a": 1, "b": "two", "deep": {"c": "x"}},
}
HASHES = [
    (
        "notes/parse-probe",
        PARSE_PROBE,
        "17e7490d1a38d7b312e1087657e634993d7cb2c50cdeca627ad4196219234dc4",
    ),
    (
        "notes/list-same",
        "---\ntitle: L\nitems:\n- a\n- 2\n- 'c'\nx: [1, two, {k: v}]\n---\nBody.\n",
        "1b944e1bdd3020fb5463e6e4b5e4dde1acfef7068e98ee6025738420868133d1",
    ),
    (  # a date title and type are their YYYY-MM-DD; tags are String() of each item
        "notes/date-title",
        "---\ntitle: 2024-05-01\ntags: [1, true, x, 2.50]\ntype: 2024-06-01 10:00:00\n---\nBody.\n",
        "b5560b2b69e446e0dccd4b669bef50540c621b193b6cfdec1a46af809efdb9d0",
    ),
    (  # not a mapping: parseMarkdown spreads the string into "0", "1", ... keys
        "notes/epigraph",
        "---\nJust a quote here\n---\nBody text.\n",
        "85cedc3679ad076b30e72b1973fd7f5d89dc60cbf0db1d0668ae3eee3110d6d1",
    ),
]


def test_values_typed_as_js_yaml_types_them() -> None:
    parsed = markdown.parse_page("notes/parse-probe", PARSE_PROBE)
    assert parsed.title == "Parse Probe"
    # Whole floats are JSON integers, as JSON.stringify prints them.
    assert json.dumps(jsonb(parsed.frontmatter)) == json.dumps(PARSE_PROBE_FRONTMATTER)


@pytest.mark.parametrize(("slug", "content", "digest"), HASHES)
def test_content_hash_as_gbrain_stored_it(slug: str, content: str, digest: str) -> None:
    assert markdown.parse_page(slug, content).content_hash == digest


def test_dates_and_numbers_in_title_type_and_tags() -> None:
    _, content, _ = HASHES[2]
    page = markdown.parse_page("notes/date-title", content)
    assert (page.title, page.type, page.tags) == (
        "2024-05-01",
        "2024-06-01",
        ["1", "2.5", "true", "x"],
    )


@pytest.mark.parametrize(
    "block",
    [
        "title: D\na: 1\na: 2",  # a repeated key
        "title: T\nsrc:\n  note: a: b",  # ": " inside a nested plain value
        'title: "open',  # an unterminated quote
        "title: Re: hello\r",  # a CRLF line escapes the pre-quoting
    ],
)
def test_frontmatter_js_yaml_refuses(block: str) -> None:
    with pytest.raises(yamlload.YamlError):
        yamlload.load(block)


def test_top_level_colon_value_is_prequoted() -> None:
    # quoteAmbiguousFrontmatterScalars quotes it first (LF lines only), so it reads as text.
    assert yamlload.load("title: Re: hello  # kept\nend: x:") == {
        "title": "Re: hello  # kept",
        "end": "x:",
    }


def test_put_page_answers_status_error_and_writes_nothing(writer: Mcp) -> None:
    slug = "notes/dup-key"
    reply = writer.data("put_page", {"slug": slug, "content": "---\na: 1\na: 2\n---\nBody.\n"})
    assert list(reply) == [
        "slug",
        "status",
        "chunks",
        "error",
        "auto_links",
        "auto_timeline",
        "facts_backstop",
        "chronicle_backstop",
    ]
    assert (reply["status"], reply["chunks"]) == ("error", 0)
    assert reply["error"].startswith("Invalid YAML frontmatter: ")
    assert writer.call("get_page", {"slug": slug})["isError"] is True
