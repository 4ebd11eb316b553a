"""Property tests over hostile input: every parser either answers or raises its typed error.

Each test is bounded (``max_examples``, small sizes), so the whole file runs in seconds.
"""

from __future__ import annotations

import contextlib
import json
import math
import unicodedata
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from hermes_gbrain.api import _page_refs, parse_search_rows
from hermes_gbrain.errors import GBrainError, ProtocolError
from hermes_gbrain.jsontext import MAX_DEPTH, depth_over, loads
from hermes_gbrain.mcp import ToolCatalog, parse_rpc_reply, parse_tool_result
from hermes_gbrain.recall.digest import _names, compose_line
from hermes_gbrain.settings import load_settings, read_dotenv
from hermes_gbrain.toolbridge.schemas import function_schema
from hermes_gbrain.toolbridge.validate import MAX_ERRORS, validate

FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=40),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=12), children, max_size=5)
    ),
    max_leaves=30,
)
FORBIDDEN = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


def clean_line(line: str) -> bool:
    return not any(unicodedata.category(ch) in FORBIDDEN for ch in line)


# -- JSON ------------------------------------------------------------------------------------


@FAST
@given(text=st.text(max_size=300) | st.binary(max_size=300))
def test_strict_json_only_raises_value_error(text: str | bytes) -> None:
    try:
        value = loads(text)
    except ValueError:
        return
    json.dumps(value, allow_nan=False)  # whatever parses can be written back as JSON


@FAST
@given(value=JSON)
def test_strict_json_round_trips_valid_json(value: Any) -> None:
    assert loads(json.dumps(value)) == value


@FAST
@given(depth=st.integers(1, 3000), opener=st.sampled_from(["[", '{"a":']))
def test_nesting_is_bounded(depth: int, opener: str) -> None:
    closer = "]" if opener == "[" else "}"
    text = opener * depth + "0" + closer * depth
    if depth <= MAX_DEPTH:
        assert not depth_over(loads(text), MAX_DEPTH)
    else:
        with pytest.raises(ValueError):
            loads(text)


# -- replies -----------------------------------------------------------------------------------


@FAST
@given(
    body=st.binary(max_size=400)
    | st.lists(JSON, max_size=3).map(
        lambda items: "".join(f"event: message\ndata: {json.dumps(i)}\n\n" for i in items).encode()
    ),
    media=st.sampled_from(["text/event-stream", "application/json", "text/html"]),
)
def test_reply_parsing_answers_or_raises_protocol_error(body: bytes, media: str) -> None:
    try:
        reply = parse_rpc_reply(media, body, 1)
    except ProtocolError:
        return
    assert reply.get("id") == 1


@FAST
@given(result=st.dictionaries(st.sampled_from(["content", "isError", "_meta"]), JSON))
def test_tool_result_parsing_is_typed(result: dict[str, Any]) -> None:
    with contextlib.suppress(GBrainError):
        parse_tool_result("t", result)


@FAST
@given(tools=JSON)
def test_catalog_parsing_is_typed(tools: Any) -> None:
    try:
        catalog = ToolCatalog.parse({"tools": tools})
    except ProtocolError:
        return
    for spec in catalog.tools.values():
        json.dumps(function_schema(spec), allow_nan=False)


# -- rows -----------------------------------------------------------------------------------


ROW = st.dictionaries(
    st.sampled_from(["slug", "title", "source_id", "type", "score", "updated_at", "evidence"]),
    JSON | st.text(max_size=60),
    max_size=7,
)


@SLOW
@given(data=JSON | st.lists(ROW, max_size=8))
def test_row_parsing_keeps_only_well_formed_rows(data: Any) -> None:
    try:
        rows = parse_search_rows(data)
        refs = _page_refs(data)
    except ProtocolError:
        assert not isinstance(data, list)
        return
    for row in rows:
        assert row.slug and "\n" not in row.slug
        assert row.score is None or math.isfinite(row.score)
    assert all(ref.slug for ref in refs)


@SLOW
@given(rows=st.lists(ROW, max_size=12), budget=st.integers(80, 600))
def test_digest_line_is_one_clean_line_within_budget(
    rows: list[dict[str, Any]], budget: int
) -> None:
    for index, row in enumerate(rows):
        row["slug"] = f"people/p{index}"
        row["type"] = ("person", "project", "company", "concept")[index % 4]
    names = _names(_page_refs(rows))
    line = compose_line("2026-11-30 00:00 UTC", len(rows), None, {}, names, budget)
    assert len(line) <= budget and "\n" not in line and clean_line(line)


# -- settings ---------------------------------------------------------------------------------

NAMES = [
    "GBRAIN_MCP_URL",
    "GBRAIN_MCP_CLIENT_ID",
    "GBRAIN_MCP_CLIENT_SECRET",
    "GBRAIN_MCP_ACCESS_TOKEN",
    "MCP_GBRAIN_API_KEY",
    "GBRAIN_POINTER_ALLOW_HTTP",
    "GBRAIN_POINTER_LIMIT",
    "GBRAIN_TOOLS",
    "GBRAIN_TOOLS_EXPOSE",
]


@FAST
@given(env=st.dictionaries(st.sampled_from(NAMES), st.text(max_size=60), max_size=len(NAMES)))
@example(env={"GBRAIN_MCP_URL": "x", "GBRAIN_MCP_ACCESS_TOKEN": "GBra"})  # in the fixed text
def test_settings_never_raise_and_problem_guards_the_headers(env: dict[str, str]) -> None:
    config = load_settings(env.get, hermes_home="/nonexistent-profile")
    problem = config.problem()
    if problem is None:
        for value in (config.access_token, config.client_id, config.client_secret):
            assert value is None or (value.isascii() and value.isprintable() and " " not in value)
    else:
        assert "\n" not in problem
        # The message never depends on a secret's text: the same secrets with every visible
        # character changed give the same message. (A check that the secret is not *in* the
        # message fails by chance when a short one, "GBra", is part of the fixed text.)
        changed = {k: _other_visible(v) if k in SECRET_NAMES else v for k, v in env.items()}
        assert load_settings(changed.get, hermes_home="/nonexistent-profile").problem() == problem


SECRET_NAMES = {"GBRAIN_MCP_CLIENT_SECRET", "GBRAIN_MCP_ACCESS_TOKEN", "MCP_GBRAIN_API_KEY"}


def _other_visible(value: str) -> str:
    """``value`` with each visible ASCII character replaced by a different one (shifted by
    half the range); spaces, controls and non-ASCII stay, so the value stays the same kind."""
    return "".join(chr((ord(c) - 0x21 + 47) % 94 + 0x21) if "!" <= c <= "~" else c for c in value)


@FAST
@given(raw=st.binary(max_size=500))
def test_dotenv_parsing_never_raises(raw: bytes, tmp_path_factory: pytest.TempPathFactory) -> None:
    path = tmp_path_factory.mktemp("env") / ".env"
    path.write_bytes(raw)
    for key, value in read_dotenv(path).items():
        assert "\n" not in key and "\r" not in value


# -- tool arguments ------------------------------------------------------------------------

SCHEMA = st.recursive(
    st.fixed_dictionaries(
        {},
        optional={
            "type": st.sampled_from(
                ["string", "number", "integer", "boolean", "array", "object", "null", "odd"]
            )
            | st.lists(st.sampled_from(["string", "number", "null"]), max_size=2),
            "enum": st.lists(JSON, max_size=3),
            "minimum": st.integers(-5, 5) | st.text(max_size=3),
            "maxLength": st.integers(0, 5),
            "required": st.lists(st.text(max_size=5), max_size=3) | JSON,
        },
    ),
    lambda children: st.fixed_dictionaries(
        {"type": st.just("object")},
        optional={
            "properties": st.dictionaries(st.text(max_size=5), children, max_size=3),
            "additionalProperties": st.booleans() | children,
            "items": children,
        },
    ),
    max_leaves=12,
)


@FAST
@given(schema=SCHEMA, arguments=JSON)
def test_validation_answers_with_a_short_list_of_problems(schema: Any, arguments: Any) -> None:
    problems = validate(schema, arguments)
    assert len(problems) <= MAX_ERRORS and all(isinstance(p, str) for p in problems)
