"""Strict JSON for untrusted replies: valid JSON only, finite numbers, bounded nesting.

Python's ``json`` accepts ``NaN`` and ``Infinity`` (not JSON), turns ``1e400`` into
``inf``, and raises ``RecursionError`` (not ``ValueError``) on deeply nested input.
Any of these from a server would escape as an untyped error or poison later output
(a tool result holding ``Infinity`` is not JSON). ``loads`` turns all of them into
``ValueError``, which every caller already maps to its typed error.
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["MAX_DEPTH", "depth_over", "loads"]

MAX_DEPTH = 200
"""Deepest nesting accepted from a server (GBrain's replies are under 20 levels)."""


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError("number out of range")
    return value


def depth_over(value: Any, limit: int) -> bool:
    """True when ``value`` nests lists/objects deeper than ``limit`` (no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if level > limit:
            return True
        stack.extend((child, level + 1) for child in children if isinstance(child, dict | list))
    return False


def loads(data: str | bytes | bytearray, *, max_depth: int = MAX_DEPTH) -> Any:
    """Parse strict JSON; raise ``ValueError`` for anything else (never another error)."""
    try:
        value = json.loads(data, parse_constant=_no_constant, parse_float=_finite)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    except (TypeError, OverflowError) as exc:
        raise ValueError(f"JSON could not be read ({type(exc).__name__})") from None
    if depth_over(value, max_depth):
        raise ValueError("JSON nested too deeply")
    return value
