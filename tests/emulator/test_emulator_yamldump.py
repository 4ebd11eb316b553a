"""Frontmatter dumped as GBrain's serializeMarkdown dumps it (js-yaml 3 ``safeDump``).

Each expected text is what gray-matter's ``stringify`` (js-yaml 3) printed for the mapping
beside it: quoting of ambiguous and indicator-led strings, escapes, block literals with their
chomping, folding at 80 columns, JavaScript's key order, nested lists and mappings.
"""

from __future__ import annotations

from typing import Any

import pytest
from emu_client import Mcp

from hermes_gbrain.emulator import yamldump

LONG_WORD = "a" + "very" * 19 + "longwordwithoutspaces"  # no space to fold at
CASES: list[tuple[dict[str, Any], str]] = [
    (
        {
            "type": "note",
            "title": "Decision: SQLite",
            "date": "2024-05-01T00:00:00.000Z",
            "flag": True,
            "none": None,
            "count": 3,
            "empty": [],
            "multi": "a\nb",
            "nested": {"a": 1, "b": [1, "x"]},
            "aliases": ["Kestrel", "K W"],
            "num_str": "123",
            "unicode": "Café",
            "tags": ["a", "b"],
        },
        "type: note\n"
        "title: 'Decision: SQLite'\n"
        "date: '2024-05-01T00:00:00.000Z'\n"
        "flag: true\n"
        "none: null\n"
        "count: 3\n"
        "empty: []\n"
        "multi: |-\n"
        "  a\n"
        "  b\n"
        "nested:\n"
        "  a: 1\n"
        "  b:\n"
        "    - 1\n"
        "    - x\n"
        "aliases:\n"
        "  - Kestrel\n"
        "  - K W\n"
        "num_str: '123'\n"
        "unicode: Café\n"
        "tags:\n"
        "  - a\n"
        "  - b",
    ),
    (
        {
            "type": "person",
            "title": "Emoji 😀 name",
            "yes": "yes",
            "on": "On",
            "hex": "0x1F",
            "oct": "0755",
            "float": "1.5",
            "exp": "1e3",
            "inf": ".inf",
            "tilde": "~",
            "ts": "2024-05-01 10:00:00",
            "sexa": "1:30",
            "under": "1_000",
            "trail": "ends with space ",
            "lead": " leads",
            "hash": "a #b",
            "hash2": "a#b",
            "colon": "a:b",
            "comma": "a, b",
            "quote": "it's",
            "dq": 'say "hi"',
            "bang": "!x",
            "pct": "%x",
            "at": "@x",
            "tick": "`x",
            "amp": "&x",
            "star": "*x",
            "pipe": "|x",
            "gt": ">x",
            "eq": "=x",
            "q": "?x",
            "dash": "- x",
            "dash2": "-x",
            "brack": "[x]",
            "brace": "{x}",
            "tab": "a\tb",
            "cr": "a\rb",
            "nbsp": "a\xa0b",
            "ls": "a\u2028b",
            "bom": "\ufeffx",
            "ctrl": "a\x01b",
            "merge": "<<",
            "empty": "",
            "null_str": "null",
            "true_str": "True",
        },
        "type: person\n"
        'title: "Emoji \\U0001F600 name"\n'
        "'yes': 'yes'\n"
        "'on': 'On'\n"
        "hex: '0x1F'\n"
        "oct: '0755'\n"
        "float: '1.5'\n"
        "exp: '1e3'\n"
        "inf: '.inf'\n"
        "tilde: '~'\n"
        "ts: '2024-05-01 10:00:00'\n"
        "sexa: '1:30'\n"
        "under: '1_000'\n"
        "trail: 'ends with space '\n"
        "lead: ' leads'\n"
        "hash: 'a #b'\n"
        "hash2: a#b\n"
        "colon: 'a:b'\n"
        "comma: 'a, b'\n"
        "quote: it's\n"
        'dq: say "hi"\n'
        "bang: '!x'\n"
        "pct: '%x'\n"
        "at: '@x'\n"
        "tick: '`x'\n"
        "amp: '&x'\n"
        "star: '*x'\n"
        "pipe: '|x'\n"
        "gt: '>x'\n"
        "eq: '=x'\n"
        "q: '?x'\n"
        "dash: '- x'\n"
        "dash2: '-x'\n"
        "brack: '[x]'\n"
        "brace: '{x}'\n"
        'tab: "a\\tb"\n'
        'cr: "a\\rb"\n'
        'nbsp: "a\\_b"\n'
        'ls: "a\\Lb"\n'
        'bom: "\\uFEFFx"\n'
        'ctrl: "a\\x01b"\n'
        "merge: '<<'\n"
        "empty: ''\n"
        "null_str: 'null'\n"
        "true_str: 'True'",
    ),
    (
        {
            "type": "note",
            "title": "Long",
            "desc": "This is a fairly long description that goes on and on well past the eighty"
            " column limit of js-yaml folding so it folds.",
            "desc2": "Short first line\n"
            "and then a second line that is very long indeed, longer than eighty columns for "
            "sure, yes it is really.",
            "keep": "line\n\n",
            "clip": "line\n",
            "lead_nl": "\nx",
            "sp_first": " a\nb",
            "nolong": LONG_WORD,
            "list_of_maps": [{"a": 1, "b": "x y"}, {"c": []}],
            "nested_list": [[1, 2], ["a"]],
            "deep": {"x": {"y": {"z": "w: v"}}},
            "2024": "index key",
            "10": "ten",
            "key with: colon": "v",
            "": "empty key",
        },
        "'10': ten\n"
        "'2024': index key\n"
        "type: note\n"
        "title: Long\n"
        "desc: >-\n"
        "  This is a fairly long description that goes on and on well past the eighty\n"
        "  column limit of js-yaml folding so it folds.\n"
        "desc2: >-\n"
        "  Short first line\n"
        "\n"
        "  and then a second line that is very long indeed, longer than eighty columns\n"
        "  for sure, yes it is really.\n"
        "keep: |+\n"
        "  line\n"
        "\n"
        "clip: |\n"
        "  line\n"
        "lead_nl: |-\n"
        "\n"
        "  x\n"
        "sp_first: |2-\n"
        "   a\n"
        "  b\n"
        "nolong: >-\n"
        "  " + LONG_WORD + "\n"
        "list_of_maps:\n"
        "  - a: 1\n"
        "    b: x y\n"
        "  - c: []\n"
        "nested_list:\n"
        "  - - 1\n"
        "    - 2\n"
        "  - - a\n"
        "deep:\n"
        "  x:\n"
        "    'y':\n"
        "      z: 'w: v'\n"
        "'key with: colon': v\n"
        "'': empty key",
    ),
    (
        {"type": "note", "title": "Zebra Chunk", "status": "active", "tags": ["a", "b"]},
        "type: note\ntitle: Zebra Chunk\nstatus: active\ntags:\n  - a\n  - b",
    ),
]


@pytest.mark.parametrize(("mapping", "expected"), CASES)
def test_dump_matches_js_yaml(mapping: dict[str, Any], expected: str) -> None:
    assert yamldump.dump_mapping(mapping) == expected


def test_get_page_content_is_gbrains_canonical_markdown(writer: Mcp) -> None:
    content = (
        "---\r\ntitle: Zebra Chunk\r\ntags: [b, a]\r\nstatus: active\r\n---\r\n"
        "# Zebra Chunk\r\n\r\nZebra para one.\r\nSecond line.\r\n\r\n\r\nZebra para two.\r\n"
        "\r\n<!-- timeline -->\r\n- 2026-01-01: zebra x\r\n"
    )
    writer.data("put_page", {"slug": "notes/zebra-chunk", "content": content})
    page = writer.data("get_page", {"slug": "notes/zebra-chunk", "include_content": True})
    # Tags last, as a block list; the body's CRLF kept; the joins GBrain adds are LF.
    canonical = (
        "---\ntype: note\ntitle: Zebra Chunk\nstatus: active\ntags:\n  - a\n  - b\n---\n\n"
        "# Zebra Chunk\r\n\r\nZebra para one.\r\nSecond line.\r\n\r\n\r\nZebra para two."
        "\n\n<!-- timeline -->\n\n- 2026-01-01: zebra x\n"
    )
    assert page["content"] == canonical
    assert writer.data("fetch", {"id": "notes/zebra-chunk"})["text"] == canonical
