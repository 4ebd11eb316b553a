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


# Each expected value is JSON.stringify of what js-yaml 3.15.1's safeLoad (the version GBrain
# 0.46.28 locks) returned for the block after GBrain's pre-quoting.
JS_YAML_READS: list[tuple[str, dict[str, object]]] = [
    ("a:\tb", {"a": "b"}),  # a tab separates as a space does
    ("a: x\ty", {"a": "x\ty"}),
    ("a: b\n\tc: d", {"a": "b", "c": "d"}),  # a tab in the indentation is not counted
    ("a: yes\nb: on\nc: y", {"a": "yes", "b": "on", "c": "y"}),  # no YAML 1.1 booleans
    ("f: 1e3\no: 0o17\ns: 1:30\nu: 1_", {"f": 1000, "o": "0o17", "s": 90, "u": "1_"}),
    (
        "d: 2024-02-30\ne: 0050-01-01",  # Date.UTC rolls days over, reads 50 as 1950
        {"d": "2024-03-01T00:00:00.000Z", "e": "1950-01-01T00:00:00.000Z"},
    ),
    ('t: a\u2028b\nn: "a\x85b"', {"t": "a\u2028b", "n": "a\x85b"}),  # LS, NEL are text
    ("a: 1\n<<: {a: 9, b: 2}\nc: 3", {"a": 1, "b": 2, "c": 3}),
    ("<<: {a: 1}\na: 2", {"a": 2}),  # a merged key may be overridden once
    (
        "b: !!binary aGVsbG8=\ns: !!set {x, y}\n"
        "o: !!omap\n  - x: 1\np: !!pairs\n  - x: 1\n  - x: 2",
        {
            "b": {"type": "Buffer", "data": [104, 101, 108, 108, 111]},
            "s": {"x": None, "y": None},
            "o": [{"x": 1}],
            "p": [["x", 1], ["x", 2]],
        },
    ),
    ("[a, b]: c\n1: a\nnull: b", {"a,b": "c", "1": "a", "null": "b"}),  # String(key)
    ("a: &x [1]\nb: *x", {"a": [1], "b": [1]}),
    ("a: |\n  x", {"a": "x\n"}),  # the block's end is a line break
    ("2024-05-01", {}),  # a Date spreads into no keys
]


@pytest.mark.parametrize(("block", "expected"), JS_YAML_READS)
def test_read_as_js_yaml_reads(block: str, expected: dict[str, object]) -> None:
    assert jsonb(yamlload.load(block)) == expected


@pytest.mark.parametrize(
    "block",
    [
        "a: !!int abc",  # an explicit tag its type does not resolve
        "a: !foo x",  # an unknown tag
        "true: x\nTrue: y",  # both keys are String(true)
        "<<: {a: 1}\na: 2\na: 3",
        "o: !!omap\n  - x: 1\n  - x: 2",
        "s: !!set\n  x: 1",  # a set member with a value
    ],
)
def test_more_frontmatter_js_yaml_refuses(block: str) -> None:
    with pytest.raises(yamlload.YamlError):
        yamlload.load(block)


def test_an_alias_bomb_is_refused_not_expanded() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{n}: &a{n} [{', '.join([f'*a{n - 1}'] * 10)}]" for n in range(1, 8)]
    with pytest.raises(yamlload.YamlError, match="too many values"):
        yamlload.load("\n".join(lines))


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
