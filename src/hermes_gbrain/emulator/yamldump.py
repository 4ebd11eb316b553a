"""Frontmatter as GBrain writes it back out: js-yaml 3's ``safeDump`` with its defaults.

GBrain's ``serializeMarkdown`` (``src/core/markdown.ts``) renders a page's frontmatter with
gray-matter's ``stringify``, which is js-yaml's ``safeDump``: block style, two-space indent,
lines folded at 80 columns, strings quoted only when they would read back as something else.
``get_page`` with ``include_content`` and ``fetch`` return that text. This follows js-yaml's
``dumper.js`` for the values a page's frontmatter holds (strings, numbers, booleans, null,
lists and mappings). JavaScript strings are UTF-16, and js-yaml judges them code unit by code
unit (a character outside the BMP is two unprintable halves, so it is double-quoted); the
functions below work on such a string (:func:`_units`) and join the halves back at the end.

Why not PyYAML's ``SafeDumper`` (the loader uses PyYAML): even given js-yaml's choice of style
per string through a representer, its emitter writes other bytes than js-yaml's, and no
setting changes these:

* non-ASCII text: ``allow_unicode=True`` leaves a no-break space raw inside double quotes
  where js-yaml writes ``"a\\_b"``; ``allow_unicode=False`` escapes every non-ASCII character
  (``"Caf\\xE9"`` where js-yaml writes ``Café`` plain);
* folding (``>``): PyYAML breaks at the first space after its column passes the width, so a
  line runs over by a word; js-yaml's ``foldLine`` breaks at the last space that keeps the line
  within it. At width 80 a long description folds as ``... the eighty column`` / ``limit ...``
  under PyYAML and ``... the eighty`` / ``column limit ...`` under js-yaml, and no one width
  matches on every line;
* a key longer than 128 characters becomes a ``? `` complex key in PyYAML; js-yaml keeps
  ``'long key': value`` up to 1024;
* a keep-chomped block (``|+``) last in the mapping gets a ``...`` document end line after it.
"""

from __future__ import annotations

import math
import re
from typing import Any

from hermes_gbrain.emulator import yamlload

__all__ = ["dump_mapping"]

INDENT = 2
LINE_WIDTH = 80

_ESCAPES = {
    0x00: "\\0",
    0x07: "\\a",
    0x08: "\\b",
    0x09: "\\t",
    0x0A: "\\n",
    0x0B: "\\v",
    0x0C: "\\f",
    0x0D: "\\r",
    0x1B: "\\e",
    0x22: '\\"',
    0x5C: "\\\\",
    0x85: "\\N",
    0xA0: "\\_",
    0x2028: "\\L",
    0x2029: "\\P",
}
# YAML 1.1 booleans js-yaml single-quotes in its compatibility mode (the default).
_DEPRECATED_BOOLEANS = frozenset(
    {
        "y",
        "Y",
        "yes",
        "Yes",
        "YES",
        "on",
        "On",
        "ON",
        "n",
        "N",
        "no",
        "No",
        "NO",
        "off",
        "Off",
        "OFF",
    }
)
_NOT_FIRST = frozenset("-?:,[]{}#&*!|=>'\"%@`")
_FLOW = frozenset(",[]{}")
_INDEX_KEY_RE = re.compile(r"^(?:0|[1-9][0-9]*)$")


def _units(text: str) -> str:
    """``text`` as JavaScript sees it: characters outside the BMP as surrogate pairs."""
    out = []
    for ch in text:
        code = ord(ch)
        if code > 0xFFFF:
            code -= 0x10000
            out.append(chr(0xD800 + (code >> 10)) + chr(0xDC00 + (code & 0x3FF)))
        else:
            out.append(ch)
    return "".join(out)


def _printable(c: int) -> bool:
    return (
        0x20 <= c <= 0x7E
        or (0xA1 <= c <= 0xD7FF and c not in (0x2028, 0x2029))
        or (0xE000 <= c <= 0xFFFD and c != 0xFEFF)
        or 0x10000 <= c <= 0x10FFFF
    )


def _white(c: int) -> bool:
    return c in (0x20, 0x09)


def _ns_char(c: int) -> bool:
    return _printable(c) and not _white(c) and c not in (0xFEFF, 0x0D, 0x0A)


def _plain_safe(c: int, prev: int | None) -> bool:
    return (
        _printable(c)
        and c != 0xFEFF
        and chr(c) not in _FLOW
        and c != 0x3A  # ":"
        and (c != 0x23 or (prev is not None and _ns_char(prev)))  # "#" after an ns-char
    )


def _plain_safe_first(c: int) -> bool:
    return _printable(c) and c != 0xFEFF and not _white(c) and chr(c) not in _NOT_FIRST


_PLAIN, _SINGLE, _LITERAL, _FOLDED, _DOUBLE = range(1, 6)


def _foldable(text: str, previous_break: int, end: int, width: int) -> bool:
    """A line longer than ``width`` that does not start with a space (more-indented)."""
    return end - previous_break - 1 > width and text[previous_break + 1 : previous_break + 2] != " "


def _style(text: str, single_line: bool, width: int) -> int:
    """js-yaml's ``chooseScalarStyle`` (``text`` in UTF-16 units, never empty)."""
    codes = [ord(c) for c in text]
    plain = _plain_safe_first(codes[0]) and not _white(codes[-1])
    line_break = foldable = False
    previous_break = -1
    for i, c in enumerate(codes):
        if c == 0x0A and not single_line:
            line_break = True
            foldable = foldable or _foldable(text, previous_break, i, width)
            previous_break = i
            continue
        if not _printable(c):
            return _DOUBLE
        plain = plain and _plain_safe(c, codes[i - 1] if i else None)
    if not single_line:
        foldable = foldable or _foldable(text, previous_break, len(codes), width)
    if not line_break and not foldable:
        return _PLAIN if plain and not yamlload.implicit(text) else _SINGLE
    return _FOLDED if foldable else _LITERAL


def _block_header(text: str) -> str:
    indicator = str(INDENT) if re.match(r"^\n* ", text) else ""
    clip = text.endswith("\n")
    keep = clip and (text.endswith("\n\n") or text == "\n")
    return indicator + ("+" if keep else "" if clip else "-") + "\n"


def _indent(text: str, spaces: int) -> str:
    pad = " " * spaces
    return "".join(pad + line if line not in ("", "\n") else line for line in _lines(text))


def _lines(text: str) -> list[str]:
    return re.findall(r"[^\n]*\n|[^\n]+$", text)


def _drop_newline(text: str) -> str:
    return text[:-1] if text.endswith("\n") else text


def _fold_line(line: str, width: int) -> str:
    """js-yaml's ``foldLine``: greedy breaks at single spaces, never before another space."""
    if not line or line[0] == " ":
        return line
    start = curr = 0
    out = ""
    for match in re.finditer(r" [^ ]", line):
        nxt = match.start()
        if nxt - start > width:
            end = curr if curr > start else nxt
            out += "\n" + line[start:end]
            start = end + 1
        curr = nxt
    out += "\n"
    if len(line) - start > width and curr > start:
        out += line[start:curr] + "\n" + line[curr + 1 :]
    else:
        out += line[start:]
    return out[1:]


def _fold(text: str, width: int) -> str:
    """js-yaml's ``foldString``."""
    first = text.find("\n")
    first = len(text) if first == -1 else first
    out = _fold_line(text[:first], width)
    prev_more = text[:1] in ("\n", " ")
    for match in re.finditer(r"(\n+)([^\n]*)", text[first:]):
        prefix, line = match.group(1), match.group(2)
        more = line[:1] == " "
        joiner = "\n" if not prev_more and not more and line else ""
        out += prefix + joiner + _fold_line(line, width)
        prev_more = more
    return out


def _escape(text: str) -> str:
    out = []
    i = 0
    while i < len(text):
        c = ord(text[i])
        if 0xD800 <= c <= 0xDBFF and i + 1 < len(text) and 0xDC00 <= ord(text[i + 1]) <= 0xDFFF:
            out.append(_hex((c - 0xD800) * 0x400 + ord(text[i + 1]) - 0xDC00 + 0x10000))
            i += 2
            continue
        seq = _ESCAPES.get(c)
        out.append(text[i] if seq is None and _printable(c) else seq or _hex(c))
        i += 1
    return "".join(out)


def _hex(code: int) -> str:
    handle, size = ("x", 2) if code <= 0xFF else ("u", 4) if code <= 0xFFFF else ("U", 8)
    return "\\" + handle + format(code, "X").rjust(size, "0")


def _scalar(value: str, level: int, *, key: bool) -> str:
    """js-yaml's ``writeScalar``."""
    if not value:
        return "''"
    if value in _DEPRECATED_BOOLEANS:
        return f"'{value}'"
    text = _units(value)
    indent = INDENT * max(1, level)
    width = max(min(LINE_WIDTH, 40), LINE_WIDTH - indent)
    style = _style(text, key, width)
    if style == _PLAIN:
        out = text
    elif style == _SINGLE:
        out = "'" + text.replace("'", "''") + "'"
    elif style == _LITERAL:
        out = "|" + _block_header(text) + _drop_newline(_indent(text, indent))
    elif style == _FOLDED:
        out = ">" + _block_header(text) + _drop_newline(_indent(_fold(text, width), indent))
    else:
        out = '"' + _escape(text) + '"'
    return out.encode("utf-16-le", "surrogatepass").decode("utf-16-le")


def _number(value: float) -> str:
    if isinstance(value, int) or (math.isfinite(value) and value.is_integer() and value != 0):
        return str(int(value))
    if math.isnan(value):
        return ".nan"
    if math.isinf(value):
        return ".inf" if value > 0 else "-.inf"
    if value == 0:
        return "-0.0" if math.copysign(1, value) < 0 else "0"
    text = repr(value).replace("e-0", "e-").replace("e+0", "e+")
    if "e" in text and "e-" not in text and "e+" not in text:
        text = text.replace("e", "e+")
    return text.replace("e", ".e") if re.fullmatch(r"[-+]?[0-9]+e.*", text) else text


def _js_keys(mapping: dict[str, Any]) -> list[str]:
    """JavaScript's own-key order: array-index keys first, ascending, then insertion order."""
    index = sorted((k for k in mapping if _INDEX_KEY_RE.match(k) and int(k) < 2**32 - 1), key=int)
    return index + [k for k in mapping if k not in index]


def _node(value: Any, level: int, *, compact: bool) -> str:
    """js-yaml's ``writeNode`` in block context."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return _number(value)
    if isinstance(value, dict):
        return _mapping(value, level, compact=compact) if value else "{}"
    if isinstance(value, list):
        return _sequence(value, level, compact=compact) if value else "[]"
    return _scalar(str(value), level, key=False)


def _mapping(mapping: dict[str, Any], level: int, *, compact: bool) -> str:
    out = ""
    for index, key in enumerate(_js_keys(mapping)):
        pair = "" if compact and index == 0 else "\n" + " " * (INDENT * level)
        pair += _scalar(key, level + 1, key=True)
        value = _node(mapping[key], level + 1, compact=False)
        pair += (":" if value.startswith("\n") else ": ") + value
        out += pair
    return out


def _sequence(items: list[Any], level: int, *, compact: bool) -> str:
    out = ""
    for index, item in enumerate(items):
        if not compact or index != 0:
            out += "\n" + " " * (INDENT * level)
        value = _node(item, level + 1, compact=True)
        out += ("-" if value.startswith("\n") else "- ") + value
    return out


def dump_mapping(mapping: dict[str, Any]) -> str:
    """``safeDump(mapping)`` without its final newline (gray-matter trims it)."""
    return _mapping(mapping, 0, compact=True) if mapping else "{}"
