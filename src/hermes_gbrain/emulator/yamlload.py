"""Frontmatter read as GBrain reads it: js-yaml 3's ``safeLoad`` behind gray-matter.

Block mappings and sequences by indentation (sequences of mappings too), flow ``[..]`` and
``{..}``, plain, single- and double-quoted scalars (plain ones folded over continuation lines,
ended by `` #`` comments), ``|`` and ``>`` block scalars with their chomping, and js-yaml's
type resolution: null, booleans, integers (``0x``, ``0o``-style ``0755``, ``_`` separators),
floats, and timestamps, kept as the ISO text ``JSON.stringify`` gives the ``Date``. Before
parsing, GBrain's ``quoteAmbiguousFrontmatterScalars`` (``src/core/markdown.ts``) turns a
top-level ``key: value`` whose value holds ``": "`` or ends with ``:`` into a string; other such
values, unterminated quotes and repeated keys are errors, as in js-yaml, and ``put_page`` then
answers ``status: "error"``. Anchors, tags and explicit keys are not read (rare in frontmatter).
"""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime, timedelta
from typing import Any

__all__ = ["JsDate", "YamlError", "implicit", "load"]


class JsDate(str):
    """A YAML date or timestamp: the ISO text ``JSON.stringify`` gives the ``Date`` js-yaml
    makes, still known as a date (GBrain coerces a date title to its ``YYYY-MM-DD``)."""

    __slots__ = ()


class YamlError(ValueError):
    """Frontmatter js-yaml would refuse; the message is ours, never the page's text."""


# quoteAmbiguousFrontmatterScalars: JavaScript's "." stops at CR, so a CRLF line never matches.
_PREQUOTE_RE = re.compile(r"^([a-zA-Z_][a-zA-Z0-9_]*):[ \t]+([^\r\n\u2028\u2029]+)$")
_KEY_RE = re.compile(
    r"""^('(?:[^']|'')*'|"(?:[^"\\]|\\.)*"|[^\s#'"\[\]{},:-][^#]*?|-[^\s#]*?)\s*:(?:[ \t]+|$)"""
)
_DATE_RE = re.compile(r"^(\d{4})-(\d\d)-(\d\d)$")
_TIMESTAMP_RE = re.compile(
    r"^(\d{4})-(\d\d?)-(\d\d?)(?:[Tt]|[ \t]+)(\d\d?):(\d\d):(\d\d)(?:\.(\d*))?"
    r"(?:[ \t]*(Z|([-+])(\d\d?)(?::(\d\d))?))?$"
)
_FLOAT_RE = re.compile(
    r"^(?:[-+]?(?:0|[1-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?"
    r"|\.[0-9_]+(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*"
    r"|[-+]?\.(?:inf|Inf|INF)"
    r"|\.(?:nan|NaN|NAN))$"
)
_INT_RE = re.compile(
    r"^[-+]?(?:0b[01_]+|0x[0-9a-fA-F_]+|0[0-7_]+|[1-9][0-9_]*(?::[0-5]?[0-9])+|0|[1-9][0-9_]*)$"
)
_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f",
    "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85",
    "_": "\xa0", "L": "\u2028", "P": "\u2029",
}  # fmt: skip
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}


def load(block: str) -> dict[str, Any]:
    """The frontmatter block (between the fences) as js-yaml's ``safeLoad`` gives it."""
    lines = []
    for raw in block.split("\n"):
        prequoted = _PREQUOTE_RE.match(raw)
        if prequoted and not re.match(r"""['"\[{|>]""", prequoted.group(2)):
            value = prequoted.group(2)
            if ": " in value or value.endswith(":"):
                # Taken as a double-quoted string of exactly this text.
                lines.append(_Line(0, f"{prequoted.group(1)}:", verbatim=value))
                continue
        text = raw.removesuffix("\r")
        body = text.lstrip(" ")
        lines.append(_Line(len(text) - len(body), body))
    parser = _Parser(lines)
    start = parser.skip(0)
    if start >= len(lines):
        return {}
    value, end = parser.node(start, lines[start].indent, -1)
    if parser.skip(end) < len(lines):
        raise YamlError("unexpected content after the frontmatter's top level")
    if isinstance(value, dict):
        return value
    # parseMarkdown spreads whatever gray-matter returned into an object: a string or a list
    # becomes its items keyed "0", "1", ...; anything else nothing.
    if isinstance(value, (str, list)):
        return {str(index): item for index, item in enumerate(value)}
    return {}


class _Line:
    __slots__ = ("indent", "text", "verbatim")

    def __init__(self, indent: int, text: str, verbatim: str | None = None) -> None:
        self.indent = indent
        self.text = text
        self.verbatim = verbatim

    @property
    def blank(self) -> bool:
        return not self.text.strip() or self.text.lstrip().startswith("#")


class _Parser:
    def __init__(self, lines: list[_Line]) -> None:
        self.lines = lines

    def skip(self, i: int) -> int:
        while i < len(self.lines) and self.lines[i].blank:
            i += 1
        return i

    def node(self, i: int, indent: int, parent: int) -> tuple[Any, int]:
        """The block node starting at content line ``i`` (indented ``indent``)."""
        line = self.lines[i]
        if line.text == "-" or line.text.startswith("- "):
            return self.sequence(i, indent)
        if line.verbatim is not None or _KEY_RE.match(line.text):
            return self.mapping(i, indent)
        return self.inline(line.text, i, parent)

    def mapping(self, i: int, indent: int) -> tuple[dict[str, Any], int]:
        out: dict[str, Any] = {}
        while (i := self.skip(i)) < len(self.lines):
            line = self.lines[i]
            if line.indent != indent:
                if line.indent > indent:
                    raise YamlError("bad indentation of a mapping entry")
                break
            if line.verbatim is not None:
                key, rest = line.text[:-1], None
            else:
                match = _KEY_RE.match(line.text)
                if match is None:
                    raise YamlError("a line in a mapping is not a key: value entry")
                key = _key(match.group(1))
                rest = line.text[match.end() :]
            if key in out:
                raise YamlError("duplicated mapping key")
            if rest is None:
                out[key], i = line.verbatim, self.skip(i + 1)
            else:
                out[key], i = self.value(rest, i, indent)
        return out, i

    def sequence(self, i: int, indent: int) -> tuple[list[Any], int]:
        out: list[Any] = []
        while (i := self.skip(i)) < len(self.lines):
            line = self.lines[i]
            if line.indent != indent or not (line.text == "-" or line.text.startswith("- ")):
                if line.indent > indent:
                    raise YamlError("bad indentation of a sequence entry")
                break
            rest = line.text[1:]
            body = rest.lstrip(" ")
            if not body or body.startswith("#"):
                item, i = self.value("", i, indent)
            else:
                # The item's text is a node of its own, indented where it starts.
                column = indent + 1 + len(rest) - len(body)
                self.lines[i] = _Line(column, body)
                item, i = self.node(i, column, indent)
            out.append(item)
        return out, i

    def value(self, rest: str, i: int, indent: int) -> tuple[Any, int]:
        """A mapping value (or a bare ``-`` item) whose text after the indicator is ``rest``."""
        stripped = rest.strip()
        if stripped[:1] in ("|", ">"):
            return self.block_scalar(stripped, i, indent)
        if not stripped or stripped.startswith("#"):
            nxt = self.skip(i + 1)
            if nxt < len(self.lines):
                line = self.lines[nxt]
                nested = line.indent > indent
                same_level_list = line.indent == indent and (
                    line.text == "-" or line.text.startswith("- ")
                )
                if nested or same_level_list:
                    return self.node(nxt, line.indent, indent)
            return None, nxt
        return self.inline(stripped, i, indent)

    def inline(self, text: str, i: int, parent: int) -> tuple[Any, int]:
        """A scalar or flow collection starting on line ``i``, continued on deeper lines."""
        j = i + 1
        if text[0] in "[{":
            while _unbalanced(text) and j < len(self.lines):
                text += " " + self.lines[j].text.strip()
                j += 1
            value, end = _flow(text, 0)
            if _comment_or_end(text, end) is None:
                raise YamlError("unexpected text after a flow collection")
            return value, self.skip(j)
        if text[0] in "'\"":
            quote, pieces = text[0], [text]
            while _closing_quote("\n".join(pieces), quote) is None and j < len(self.lines):
                pieces.append(self.lines[j].text.strip())
                j += 1
            joined = "\n".join(pieces)
            close = _closing_quote(joined, quote)
            if close is None:
                raise YamlError("unterminated quoted scalar")
            if _comment_or_end(joined, close + 1) is None:
                raise YamlError("unexpected text after a quoted scalar")
            raw = _fold_lines(joined[1:close].split("\n"))
            value = raw.replace("''", "'") if quote == "'" else _unescape(raw)
            return value, self.skip(j)
        head, commented = _plain_line(text)
        parts = [head]
        while not commented and j < len(self.lines):
            line = self.lines[j]
            if not line.text.strip():
                parts.append("")
            elif line.indent <= parent or line.text.startswith("#"):
                break
            else:
                piece, commented = _plain_line(line.text)
                parts.append(piece)
            j += 1
        value = _fold_lines(parts)
        if ": " in value or value.endswith(":"):
            raise YamlError("a plain value holds ': ' (quote it)")
        return _resolve(value), self.skip(j)

    def block_scalar(self, header: str, i: int, indent: int) -> tuple[str, int]:
        """js-yaml's ``readBlockScalar`` for ``|`` (literal) and ``>`` (folded)."""
        folding = header[0] == ">"
        chomp, explicit = "clip", 0
        for ch in header[1:].split("#", maxsplit=1)[0].strip():
            if ch in "+-":
                chomp = "keep" if ch == "+" else "strip"
            elif ch.isdigit() and ch != "0":
                explicit = int(ch)
            else:
                raise YamlError("bad block scalar header")
        text_indent = indent + explicit if explicit else 0
        raw: list[str] = []
        j = i + 1
        while j < len(self.lines):
            line = self.lines[j]
            if line.text.strip():
                if not text_indent:
                    text_indent = line.indent
                    if text_indent <= indent:
                        break
                if line.indent < text_indent:
                    break
                raw.append(" " * (line.indent - text_indent) + line.text)
            else:
                raw.append("")
            j += 1
        if not text_indent:
            text_indent = indent + 1
        trailing = 0
        while raw and not raw[-1].strip():
            raw.pop()
            trailing += 1
        j -= trailing
        out, empty, did_read, more = "", 0, False, False
        for row in raw:
            if not row.strip():
                empty += 1
                continue
            if folding:
                if row[0] in " \t":
                    more = True
                    out += "\n" * (1 + empty if did_read else empty)
                elif more:
                    more = False
                    out += "\n" * (empty + 1)
                elif empty == 0:
                    out += " " if did_read else ""
                else:
                    out += "\n" * empty
            else:
                out += "\n" * (1 + empty if did_read else empty)
            out += row
            did_read, empty = True, 0
        empty += trailing
        if chomp == "keep":
            out += "\n" * (1 + empty if did_read else empty)
        elif chomp == "clip" and did_read:
            out += "\n"
        return out, self.skip(j)


def _key(raw: str) -> str:
    if raw[:1] == "'":
        return raw[1:-1].replace("''", "'")
    if raw[:1] == '"':
        return _unescape(raw[1:-1])
    value = _resolve(raw.strip())
    return _js_string(value)


def _js_string(value: Any) -> str:
    """``String(value)`` for a resolved key."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _plain_line(text: str) -> tuple[str, bool]:
    """One line of a plain scalar up to a `` #`` comment, and whether a comment ended it."""
    cut = re.search(r"[ \t]#", text)
    return (text[: cut.start()] if cut else text).strip(), cut is not None


def _fold_lines(lines: list[str]) -> str:
    """Line folding of a multi-line flow scalar: a break is a space, a blank line a newline."""
    lines = [lines[0], *(line.strip() for line in lines[1:])]
    while len(lines) > 1 and not lines[-1]:
        lines.pop()
    out, empties = lines[0], 0
    for line in lines[1:]:
        if not line:
            empties += 1
            continue
        out += ("\n" * empties if empties else " ") + line
        empties = 0
    return out


def _closing_quote(text: str, quote: str) -> int | None:
    i = 1
    while i < len(text):
        ch = text[i]
        if quote == "'" and ch == "'":
            if text[i + 1 : i + 2] == "'":
                i += 2
                continue
            return i
        if quote == '"':
            if ch == "\\":
                i += 2
                continue
            if ch == '"':
                return i
        i += 1
    return None


def _comment_or_end(text: str, at: int) -> int | None:
    rest = text[at:]
    if not rest.strip():
        return len(text)
    stripped = rest.lstrip(" \t")
    if stripped.startswith("#") and len(stripped) < len(rest):
        return len(text)
    return None


def _unescape(raw: str) -> str:
    out, i = [], 0
    while i < len(raw):
        ch = raw[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        code = raw[i + 1 : i + 2]
        if code in _ESCAPES:
            out.append(_ESCAPES[code])
            i += 2
        elif code in _HEX_ESCAPES:
            size = _HEX_ESCAPES[code]
            digits = raw[i + 2 : i + 2 + size]
            if len(digits) != size or not all(c in "0123456789abcdefABCDEF" for c in digits):
                raise YamlError("bad escape in a double-quoted scalar")
            out.append(chr(int(digits, 16)))
            i += 2 + size
        else:
            raise YamlError("unknown escape in a double-quoted scalar")
    return "".join(out)


def _unbalanced(text: str) -> bool:
    depth, quote = 0, ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
    return depth > 0


def _flow(text: str, i: int) -> tuple[Any, int]:
    """A flow node at ``text[i]``; returns it and the index after it."""
    while i < len(text) and text[i] in " \t":
        i += 1
    if i >= len(text):
        raise YamlError("unexpected end of a flow collection")
    opener = text[i]
    if opener in "[{":
        closer = "]" if opener == "[" else "}"
        items: list[Any] = []
        mapping: dict[str, Any] = {}
        i += 1
        while True:
            while i < len(text) and text[i] in " \t":
                i += 1
            if i >= len(text):
                raise YamlError("unterminated flow collection")
            if text[i] == closer:
                return (items if opener == "[" else mapping), i + 1
            key, i = _flow(text, i)
            while i < len(text) and text[i] in " \t":
                i += 1
            if opener == "{" or text[i : i + 1] == ":":
                value: Any = None
                if text[i : i + 1] == ":":
                    value, i = _flow(text, i + 1)
                name = _js_string(key)
                if opener == "{":
                    if name in mapping:
                        raise YamlError("duplicated mapping key")
                    mapping[name] = value
                else:
                    items.append({name: value})
            else:
                items.append(key)
            while i < len(text) and text[i] in " \t":
                i += 1
            if text[i : i + 1] == ",":
                i += 1
            elif text[i : i + 1] != closer:
                raise YamlError("missed comma between flow collection entries")
    if opener in "'\"":
        close = _closing_quote(text[i:], opener)
        if close is None:
            raise YamlError("unterminated quoted scalar")
        raw = text[i + 1 : i + close]
        value = raw.replace("''", "'") if opener == "'" else _unescape(raw)
        return value, i + close + 1
    end = i
    while end < len(text) and text[end] not in ",]}" and text[end : end + 2] != ": ":
        if text[end] == ":" and end + 1 == len(text):
            break
        end += 1
    return _resolve(text[i:end].strip()), end


def implicit(text: str) -> bool:
    """Whether js-yaml reads this plain text as something other than a string (or a merge
    key): what makes its dumper quote a string."""
    return (
        text in ("", "~", "null", "Null", "NULL", "<<")
        or text in ("true", "True", "TRUE", "false", "False", "FALSE")
        or (_INT_RE.match(text) is not None and not text.endswith("_"))
        or (_FLOAT_RE.match(text) is not None and not text.endswith("_"))
        or _DATE_RE.match(text) is not None
        or _TIMESTAMP_RE.match(text) is not None
    )


def _resolve(text: str) -> Any:
    """js-yaml's implicit types for a plain scalar (DEFAULT_SAFE_SCHEMA)."""
    if text in ("", "~", "null", "Null", "NULL"):
        return None
    if text in ("true", "True", "TRUE"):
        return True
    if text in ("false", "False", "FALSE"):
        return False
    if _INT_RE.match(text) and not text.endswith("_"):
        return _integer(text)
    if _FLOAT_RE.match(text) and not text.endswith("_"):
        return _float(text)
    date = _DATE_RE.match(text)
    if date:
        year, month, day = (int(p) for p in date.groups())
        try:
            return _iso(datetime(year, month, day, tzinfo=UTC))
        except ValueError:
            return text
    stamp = _TIMESTAMP_RE.match(text)
    if stamp:
        return _timestamp(stamp) or text
    return text


def _integer(text: str) -> int:
    value = text.replace("_", "")
    sign = -1 if value[0] == "-" else 1
    value = value.lstrip("+-")
    if value == "0":
        return 0
    if value.startswith("0b"):
        return sign * int(value[2:], 2)
    if value.startswith("0x"):
        return sign * int(value[2:], 16)
    if value.startswith("0"):
        return sign * int(value, 8)
    if ":" in value:
        total = 0
        for part in value.split(":"):
            total = total * 60 + int(part)
        return sign * total
    return sign * int(value)


def _float(text: str) -> float | None:
    value = text.replace("_", "").lower()
    sign = -1.0 if value[0] == "-" else 1.0
    value = value.lstrip("+-")
    if value in (".inf", ".nan"):
        return None  # JSON.stringify writes Infinity and NaN as null
    if ":" in value:
        total = 0.0
        for part in value.split(":"):
            total = total * 60 + float(part)
        return sign * total
    number = sign * float(value)
    return number if math.isfinite(number) else None


def _timestamp(match: re.Match[str]) -> JsDate | None:
    y, mo, d, h, mi, s = (int(match.group(n)) for n in range(1, 7))
    fraction = (match.group(7) or "")[:3].ljust(3, "0")
    offset = timedelta(0)
    if match.group(9):
        sign = -1 if match.group(9) == "-" else 1
        offset = sign * timedelta(hours=int(match.group(10)), minutes=int(match.group(11) or 0))
    try:
        moment = datetime(y, mo, d, h, mi, s, int(fraction) * 1000, tzinfo=UTC) - offset
    except ValueError:
        return None
    return _iso(moment)


def _iso(moment: datetime) -> JsDate:
    """JavaScript's ``toISOString``: milliseconds and ``Z``."""
    return JsDate(moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z")
