"""Frontmatter read as GBrain reads it: js-yaml 3's ``safeLoad`` behind gray-matter.

PyYAML parses; :class:`_Loader` makes it type values as js-yaml's ``DEFAULT_SAFE_SCHEMA`` does
(``lib/js-yaml/type/*.js`` in js-yaml 3.15.1, the version GBrain 0.46.28 locks):

* plain scalars resolve in js-yaml's order and by its rules: null (``~``, ``null``, empty),
  booleans (``true``/``True``/``TRUE`` and the ``false`` spellings only, not YAML 1.1's
  ``yes``/``on``), integers (``0b``, ``0x``, ``0755`` octal, ``_`` separators, ``1:30``
  sexagesimal), floats (``1e3`` too, which PyYAML leaves a string), timestamps, the ``<<`` merge;
* a timestamp is the :class:`JsDate` text ``JSON.stringify`` gives the ``Date`` js-yaml builds,
  out-of-range fields rolling over as ``Date.UTC`` rolls them (``2024-02-30`` is March 1st);
* a key is ``String(key)``; a key repeated in one mapping is an error (PyYAML keeps the last),
  except over one a ``<<`` merge brought in; ``!!binary``, ``!!set``, ``!!omap`` and ``!!pairs``
  build what JSON makes of js-yaml's Buffer, object and arrays.

Two shims cover what PyYAML cannot be configured for: js-yaml skips a tab wherever it skips a
space (``key:<TAB>value``; in a line's indentation only the spaces before a tab count) where
PyYAML refuses (:class:`_Loader` overrides three reader and scanner methods), and it breaks
lines only at LF and CR where PyYAML also breaks at NEL, LS and PS (:func:`load` hides those
three from PyYAML and puts them back).

Before parsing, GBrain's ``quoteAmbiguousFrontmatterScalars`` (``src/core/markdown.ts``) turns a
top-level ``key: value`` whose value holds ``": "`` or ends with ``:`` into a double-quoted string
(:func:`_prequote`). What js-yaml refuses raises :class:`YamlError`, and ``put_page`` then answers
``status: "error"``.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import yaml
from yaml.constructor import ConstructorError
from yaml.error import Mark
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

__all__ = ["JsDate", "YamlError", "implicit", "js_text", "load"]

# An alias may repeat a subtree; past this many values after expansion the block is refused
# rather than copied (a "billion laughs" block is a few hundred bytes).
MAX_NODES = 100_000


class JsDate(str):
    """A YAML date or timestamp: the ISO text ``JSON.stringify`` gives the ``Date`` js-yaml
    makes, still known as a date (GBrain coerces a date title to its ``YYYY-MM-DD``)."""

    __slots__ = ()


class YamlError(ValueError):
    """Frontmatter js-yaml would refuse; the message is ours, never the page's text."""


# quoteAmbiguousFrontmatterScalars: JavaScript's "." stops at CR, so a CRLF line never matches.
_PREQUOTE_RE = re.compile(r"^([a-zA-Z_][a-zA-Z0-9_]*):[ \t]+([^\r\n\u2028\u2029]+)$")

# js-yaml's implicit types (type/null.js, bool.js, int.js, float.js, timestamp.js, merge.js);
# int.js's hand-written resolver is the regex below (no trailing "_", at least one digit).
_TAG = "tag:yaml.org,2002:"
_NULL_RE = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL_RE = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
_INT_RE = re.compile(
    r"^[-+]?(?:0b[01_]*[01]|0x[0-9a-fA-F_]*[0-9a-fA-F]|0[0-7_]*[0-7]|0"
    r"|[1-9](?:[0-9_]*[0-9])?|[1-9][0-9_]*(?::[0-5]?[0-9])+)$"
)
_FLOAT_RE = re.compile(
    r"^(?!.*_$)(?:[-+]?(?:0|[1-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?"
    r"|\.[0-9_]+(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*"
    r"|[-+]?\.(?:inf|Inf|INF)"
    r"|\.(?:nan|NaN|NAN))$"
)
_TIMESTAMP_RE = re.compile(
    r"^(\d{4})-(\d\d)-(\d\d)$"
    r"|^(\d{4})-(\d\d?)-(\d\d?)(?:[Tt]|[ \t]+)(\d\d?):(\d\d):(\d\d)(?:\.(\d*))?"
    r"(?:[ \t]*(Z|([-+])(\d\d?)(?::(\d\d))?))?$"
)
_MERGE_RE = re.compile(r"^<<$")
_DIGITS = list("0123456789")
_IMPLICIT: tuple[tuple[str, re.Pattern[str], list[str]], ...] = (
    ("null", _NULL_RE, ["~", "n", "N", ""]),
    ("bool", _BOOL_RE, list("tTfF")),
    ("int", _INT_RE, ["-", "+", *_DIGITS]),
    ("float", _FLOAT_RE, ["-", "+", ".", *_DIGITS]),
    ("timestamp", _TIMESTAMP_RE, _DIGITS),
    ("merge", _MERGE_RE, ["<"]),
)
_HIDDEN_BREAKS = "\x85\u2028\u2029"  # line breaks to PyYAML, text to js-yaml


def load(block: str) -> dict[str, Any]:
    """The frontmatter block (between the fences) as js-yaml's ``safeLoad`` gives it."""
    text = "\n".join(_prequote(line) for line in block.split("\n"))
    if text and text[-1] not in "\r\n":
        text += "\n"  # js-yaml ends the input with a line break (a block scalar's last one)
    stand_ins = _stand_ins(text)
    for char, stand_in in stand_ins.items():
        text = text.replace(char, stand_in)
    try:
        loaded = yaml.load(text, Loader=_Loader)  # noqa: S506 - _Loader is a SafeLoader
        value = _Copy({v: k for k, v in stand_ins.items()}).value(loaded)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        raise YamlError(f"{_describe(exc)}{where}") from None
    except (yaml.YAMLError, RecursionError):
        raise YamlError("the block does not parse as YAML") from None
    if isinstance(value, dict):
        return value
    # parseMarkdown spreads whatever gray-matter returned into an object: a string or a list
    # becomes its items keyed "0", "1", ...; anything else (a Date too) nothing.
    if isinstance(value, list) or (isinstance(value, str) and not isinstance(value, JsDate)):
        return {str(index): item for index, item in enumerate(value)}
    return {}


def _prequote(line: str) -> str:
    """``quoteAmbiguousFrontmatterScalars`` for one line of the block."""
    match = _PREQUOTE_RE.match(line)
    if match is None or re.match(r"""['"\[{|>]""", match.group(2)):
        return line
    value = match.group(2)
    if ": " not in value and not value.endswith(":"):
        return line
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'{match.group(1)}: "{escaped}"'


def _stand_ins(text: str) -> dict[str, str]:
    """A private-use character absent from ``text`` for each of NEL, LS and PS it holds."""
    out: dict[str, str] = {}
    free = (chr(c) for c in range(0xE000, 0xF900) if chr(c) not in text)
    for char in _HIDDEN_BREAKS:
        if char in text:
            out[char] = next(free)
    return out


def _describe(exc: yaml.MarkedYAMLError) -> str:
    if isinstance(exc, _DuplicateKeyError):
        return "duplicated mapping key"
    if isinstance(exc, ConstructorError):
        return "a value js-yaml cannot build"
    return "not YAML js-yaml reads"


class _DuplicateKeyError(ConstructorError):
    pass


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader with js-yaml 3's schema, key rules and tab handling."""

    yaml_implicit_resolvers: dict[Any, list[tuple[str, re.Pattern[str]]]] = {}  # noqa: RUF012
    _in_indent = True  # only spaces and tabs so far on this line
    _frozen = False  # a tab was met in this line's indentation

    # Shim: js-yaml skips tabs as separation space; a tab in a line's leading whitespace ends
    # its indentation (js-yaml counts only the spaces before it), elsewhere it is a column.
    def scan_to_next_token(self) -> None:
        if self.index == 0 and self.peek() == "\ufeff":
            self.forward()
        while True:
            while self.peek() in " \t":
                self.forward()
            if self.peek() == "#":
                while self.peek() not in "\0\r\n":
                    self.forward()
            if not self._line_break():
                return
            if not self.flow_level:
                self.allow_simple_key = True

    def forward(self, length: int = 1) -> None:
        for _ in range(length):
            char = self.peek()
            self._frozen = self._frozen or (self._in_indent and char == "\t")
            if self._frozen and char in " \t":
                column = self.column
                super().forward()
                self.column = column
                continue
            super().forward()
            if char not in " \t":
                self._in_indent, self._frozen = self.column == 0, False

    def scan_plain_spaces(self, indent: int, start_mark: Mark) -> list[str]:
        """PyYAML's, with a tab as a blank: js-yaml keeps one between words and drops one at a
        line's end or start."""
        length = 0
        while self.peek(length) in " \t":
            length += 1
        blanks = self.prefix(length)
        self.forward(length)
        if self.peek() not in "\r\n":
            return [blanks] if blanks else []
        self._line_break()
        self.allow_simple_key = True
        breaks: list[str] = []
        while not self._at_document_marker():  # only ever checked at a line's start
            while self.peek() in " \t":
                self.forward()
            if self.peek() not in "\r\n":
                return breaks or [" "]
            self._line_break()
            breaks.append("\n")
        return []

    def _line_break(self) -> bool:
        """Takes a CRLF, CR or LF: the only line breaks left (:func:`load` hides the others)."""
        if self.peek() not in "\r\n":
            return False
        self.forward(2 if self.prefix(2) == "\r\n" else 1)
        return True

    def _at_document_marker(self) -> bool:
        return self.prefix(3) in ("---", "...") and self.peek(3) in "\0 \t\r\n"

    def construct_mapping(  # type: ignore[override]
        self, node: MappingNode, deep: bool = False
    ) -> dict[str, Any]:
        """js-yaml's ``storeMappingPair``: string keys, merges, no repeated key."""
        if not isinstance(node, MappingNode):
            raise ConstructorError(None, None, "expected a mapping", node.start_mark)
        out: dict[str, Any] = {}
        overridable: set[str] = set()
        for key_node, value_node in node.value:
            if key_node.tag == _TAG + "merge":
                for source in self._merge_sources(value_node):
                    for key, value in source.items():
                        if key not in out:
                            out[key] = value
                            overridable.add(key)
                continue
            key = _js_string(self.construct_object(key_node, deep=True))
            if key in out and key not in overridable:
                raise _DuplicateKeyError(None, None, "duplicated key", key_node.start_mark)
            out[key] = self.construct_object(value_node, deep=True)
            overridable.discard(key)
        return out

    def _merge_sources(self, node: Node) -> Iterator[dict[str, Any]]:
        items = node.value if isinstance(node, SequenceNode) else [node]
        for item in items:
            source = self.construct_object(item, deep=True)
            if not isinstance(source, dict):
                raise ConstructorError(None, None, "cannot merge", item.start_mark)
            yield source

    def construct_sequence(self, node: SequenceNode, deep: bool = False) -> list[Any]:
        return [self.construct_object(child, deep=True) for child in node.value]

    def construct_js_set(self, node: MappingNode) -> dict[str, Any]:
        """An object whose values are all null, as js-yaml's ``type/set.js`` checks."""
        items = self.construct_mapping(node)
        if any(value is not None for value in items.values()):
            raise ConstructorError(None, None, "not a set", node.start_mark)
        return items

    def construct_js_omap(self, node: SequenceNode) -> list[Any]:
        """An array of one-key objects, as js-yaml's ``type/omap.js`` keeps them."""
        items = self.construct_sequence(node)
        keys = [next(iter(item)) for item in items if isinstance(item, dict) and len(item) == 1]
        if len(keys) != len(items) or len(set(keys)) != len(keys):
            raise ConstructorError(None, None, "not an ordered map", node.start_mark)
        return items

    def construct_js_pairs(self, node: SequenceNode) -> list[Any]:
        """``[key, value]`` arrays, as js-yaml's ``type/pairs.js`` builds them."""
        items = self.construct_sequence(node)
        if not all(isinstance(item, dict) and len(item) == 1 for item in items):
            raise ConstructorError(None, None, "not a list of pairs", node.start_mark)
        return [list(next(iter(item.items()))) for item in items]

    def construct_js_binary(self, node: ScalarNode) -> dict[str, Any]:
        """What ``JSON.stringify`` makes of the Node ``Buffer`` js-yaml builds."""
        text = re.sub(r"[\r\n= \t]", "", self.construct_scalar(node))
        try:
            data = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
        except (binascii.Error, ValueError):
            raise ConstructorError(None, None, "bad base64", node.start_mark) from None
        return {"type": "Buffer", "data": list(data)}


def _scalar_type(
    name: str, pattern: re.Pattern[str], build: Callable[[str], Any]
) -> Callable[[_Loader, ScalarNode], Any]:
    """A constructor that, as js-yaml does for an explicit tag, refuses text its type would
    not resolve (``!!int abc``)."""

    def construct(loader: _Loader, node: ScalarNode) -> Any:
        text = loader.construct_scalar(node)
        if not pattern.match(text):
            raise ConstructorError(None, None, f"not a {name}", node.start_mark)
        return build(text)

    return construct


def _integer(text: str) -> int:
    """``constructYamlInteger``."""
    value = text.replace("_", "")
    sign = -1 if value[0] == "-" else 1
    value = value.lstrip("+-")
    if value.startswith("0b"):
        return sign * int(value[2:], 2)
    if value.startswith("0x"):
        return sign * int(value[2:], 16)
    if value.startswith("0"):
        return sign * int(value, 8)
    total = 0
    for part in value.split(":"):
        total = total * 60 + int(part)
    return sign * total


def _float(text: str) -> float | None:
    """``constructYamlFloat``; Infinity and NaN are ``None``, as ``JSON.stringify`` writes them."""
    value = text.replace("_", "").lower().lstrip("+-")
    if value in (".inf", ".nan"):
        return None
    number = 0.0
    for part in value.split(":"):
        number = number * 60 + float(part)
    number = -number if text[0] == "-" else number
    return number if math.isfinite(number) else None


def _timestamp(text: str) -> JsDate | str:
    """``constructYamlTimestamp``: ``Date.UTC`` rolls out-of-range fields over and reads a
    year below 100 as 19xx; a date past year 9999 stays text."""
    match = _TIMESTAMP_RE.match(text)
    assert match is not None
    date = match.group(1, 2, 3) if match.group(1) else match.group(4, 5, 6)
    year, month, day = (int(part) for part in date)
    hour, minute, second = (int(part or 0) for part in match.group(7, 8, 9))
    millis = int((match.group(10) or "")[:3].ljust(3, "0"))
    offset = 0
    if match.group(12):
        sign = -1 if match.group(12) == "-" else 1
        offset = sign * (int(match.group(13)) * 60 + int(match.group(14) or 0))
    year = year + 1900 if year < 100 else year  # Date.UTC's two-digit years
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    try:
        moment = datetime(year, month, 1, tzinfo=UTC) + timedelta(
            days=day - 1,
            hours=hour,
            minutes=minute - offset,
            seconds=second,
            milliseconds=millis,
        )
    except (OverflowError, ValueError):
        return text
    return JsDate(moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z")


_BUILDERS: dict[str, Callable[[str], Any]] = {
    "null": lambda _: None,
    "bool": lambda text: text in ("true", "True", "TRUE"),
    "int": _integer,
    "float": _float,
    "timestamp": _timestamp,
}
for _name, _pattern, _first in _IMPLICIT:
    _Loader.add_implicit_resolver(_TAG + _name, _pattern, _first)
    if _name in _BUILDERS:
        _Loader.add_constructor(_TAG + _name, _scalar_type(_name, _pattern, _BUILDERS[_name]))
_Loader.add_constructor(_TAG + "map", _Loader.construct_mapping)
_Loader.add_constructor(_TAG + "seq", _Loader.construct_sequence)
_Loader.add_constructor(_TAG + "set", _Loader.construct_js_set)
_Loader.add_constructor(_TAG + "omap", _Loader.construct_js_omap)
_Loader.add_constructor(_TAG + "pairs", _Loader.construct_js_pairs)
_Loader.add_constructor(_TAG + "binary", _Loader.construct_js_binary)


def js_text(value: Any) -> str:
    """JavaScript's ``String(value)`` for a value js-yaml produced."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dict):
        return "[object Object]"
    if isinstance(value, list):  # Array.prototype.toString: null items are empty
        return ",".join("" if item is None else js_text(item) for item in value)
    return str(value)


def _js_string(value: Any) -> str:
    """``String(value)`` for a key js-yaml built (it refuses a key of nested arrays)."""
    if isinstance(value, list) and any(isinstance(item, list) for item in value):
        raise ConstructorError(None, None, "nested arrays in a key", None)
    return js_text(value)


class _Copy:
    """The loaded value with aliased subtrees copied apart, stand-ins put back, and at most
    :data:`MAX_NODES` values."""

    def __init__(self, restore: dict[str, str]) -> None:
        self.restore = restore
        self.count = 0

    def value(self, value: Any) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            raise YamlError("the block expands to too many values")
        if isinstance(value, dict):
            return {self.text(k): self.value(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, str):
            return self.text(value)
        return value

    def text(self, text: str) -> str:
        kind, plain = type(text), str(text)
        for stand_in, char in self.restore.items():
            plain = plain.replace(stand_in, char)
        return plain if kind is str else kind(plain)


def implicit(text: str) -> bool:
    """Whether js-yaml reads this plain text as something other than a string (or a merge
    key): what makes its dumper quote a string."""
    return any(pattern.match(text) for _, pattern, _ in _IMPLICIT)
