"""Argument checks against a tool's declared JSON schema, before anything is sent.

GBrain's own checks are strict (``"5"`` is not a number) and a ``strict_params:
reject`` server fails any undeclared argument, so ``gbrain_call`` validates first
and gives the model a precise, local error it can fix in one retry. No JSON-schema
library ships with Hermes 0.19.0, and GBrain's schemas use a small subset, so this
is a hand-written checker for that subset: ``type`` (one or a list), ``required``,
``properties``, ``additionalProperties`` (bool or schema), ``enum``, ``items``,
``minimum``/``maximum``, ``minLength``/``maxLength``, ``minItems``/``maxItems``.
Unknown keywords are ignored (the server remains the final judge).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["MAX_ERRORS", "validate"]

MAX_ERRORS = 5
_DEPTH = 16


def _type_ok(kind: str, value: Any) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "array":
        return isinstance(value, list)
    if kind == "object":
        return isinstance(value, dict)
    if kind == "null":
        return value is None
    return True  # an unknown type name: leave it to the server


def _where(path: str) -> str:
    return path or "arguments"


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _check(schema: Mapping[str, Any], value: Any, path: str, out: list[str], depth: int) -> None:
    if len(out) >= MAX_ERRORS or depth > _DEPTH:
        return
    declared = schema.get("type")
    kinds = [declared] if isinstance(declared, str) else declared
    if (
        isinstance(kinds, list)
        and kinds
        and not any(isinstance(k, str) and _type_ok(k, value) for k in kinds)
    ):
        out.append(f"{_where(path)} must be {' or '.join(str(k) for k in kinds)}")
        return
    enum = schema.get("enum")
    if isinstance(enum, list) and value not in enum:
        shown = ", ".join(repr(e) for e in enum[:12])
        out.append(f"{_where(path)} must be one of: {shown}")
        return
    if isinstance(value, str):
        _bounds(schema, len(value), ("minLength", "maxLength"), f"{_where(path)} length", out)
    elif isinstance(value, list):
        _bounds(schema, len(value), ("minItems", "maxItems"), f"{_where(path)} item count", out)
        items = schema.get("items")
        if isinstance(items, dict):
            for index, item in enumerate(value):
                _check(items, item, f"{path}[{index}]", out, depth + 1)
    elif isinstance(value, dict):
        _object(schema, value, path, out, depth)
    elif (number := _number(value)) is not None:
        low, high = _number(schema.get("minimum")), _number(schema.get("maximum"))
        if low is not None and number < low:
            out.append(f"{_where(path)} must be at least {low:g}")
        if high is not None and number > high:
            out.append(f"{_where(path)} must be at most {high:g}")


def _bounds(
    schema: Mapping[str, Any], size: int, keys: tuple[str, str], what: str, out: list[str]
) -> None:
    low_key, high_key = keys
    low, high = _number(schema.get(low_key)), _number(schema.get(high_key))
    if low is not None and size < low:
        out.append(f"{what} must be at least {low:g}")
    if high is not None and size > high:
        out.append(f"{what} must be at most {high:g}")


def _object(
    schema: Mapping[str, Any], value: Mapping[str, Any], path: str, out: list[str], depth: int
) -> None:
    props = schema.get("properties")
    props = props if isinstance(props, dict) else {}
    required = schema.get("required")
    for name in required if isinstance(required, list) else []:
        if isinstance(name, str) and value.get(name) is None:
            out.append(f"missing required argument {_join(path, name)!r}")
    extra = schema.get("additionalProperties", True)
    for name, item in value.items():
        sub = props.get(name)
        if isinstance(sub, dict):
            _check(sub, item, _join(path, name), out, depth + 1)
        elif extra is False:
            known = ", ".join(sorted(props)[:20]) or "(none)"
            out.append(f"unknown argument {_join(path, name)!r} (known: {known})")
        elif isinstance(extra, dict):
            _check(extra, item, _join(path, name), out, depth + 1)


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def validate(schema: Mapping[str, Any], arguments: Any) -> list[str]:
    """Problems with ``arguments`` (at most ``MAX_ERRORS``), empty when they conform.

    The top level must be an object. ``None`` values count as missing for
    ``required`` (GBrain treats them so) and are otherwise checked by type.
    """
    if not isinstance(arguments, dict):
        return ["arguments must be a JSON object"]
    errors: list[str] = []
    top = dict(schema)
    top.setdefault("type", "object")
    _check(top, arguments, "", errors, 0)
    return errors[:MAX_ERRORS]
