"""The compact ``gbrain_*`` tool schemas, and MCP ``inputSchema`` → OpenAI function schemas.

Loading GBrain's MCP server straight into Hermes costs every session some 10,000
tokens of schemas. The compact set is six short schemas; ``gbrain_tools`` lists the
rest by name and ``gbrain_call`` reaches any of them, so nothing becomes unreachable.
Which schemas are offered depends on the tools mode, the exposure and, when a
discovery is cached, on what the server offers this credential (its scope).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..mcp import ToolSpec

__all__ = [
    "COMPACT",
    "CORE_TOOL_FOR",
    "KNOWN_READ_TOOLS",
    "PREFIX",
    "WRITE_COMPACT",
    "compact_schemas",
    "exposed_name",
    "function_schema",
    "offered_schemas",
    "purpose",
]

PREFIX = "gbrain_"
MAX_NAME = 64
PURPOSE_CHARS = 100
_NAME_OK = re.compile(r"[^A-Za-z0-9_-]")

# GBrain 0.46.28 tools a ``read`` token may call (its read ``tools/list``). Anything
# else is treated as a write: ``gbrain_call`` refuses it unless writes are enabled.
KNOWN_READ_TOOLS = frozenset(
    {
        "chronicle_day",
        "chronicle_last_seen",
        "chronicle_on_this_day",
        "chronicle_since",
        "code_blast",
        "code_callees",
        "code_callers",
        "code_def",
        "code_flow",
        "code_refs",
        "context_pack",
        "delta",
        "entity",
        "entity_identity_list",
        "extraction_pending",
        "fetch",
        "find_anomalies",
        "find_contradictions",
        "find_experts",
        "find_orphans",
        "find_trajectory",
        "get_active_schema_pack",
        "get_backlinks",
        "get_brain_identity",
        "get_calibration_profile",
        "get_chunks",
        "get_ingest_log",
        "get_links",
        "get_page",
        "get_raw_data",
        "get_recent_salience",
        "get_skill",
        "get_tags",
        "get_timeline",
        "get_versions",
        "list_brain_skillpack",
        "list_link_sources",
        "list_pages",
        "list_schema_packs",
        "list_skills",
        "ontology_conflicts",
        "ontology_dimensions",
        "ontology_get",
        "query",
        "recall",
        "request_tools",
        "resolve_slugs",
        "schema_explain_type",
        "schema_graph",
        "schema_lint",
        "schema_review_orphans",
        "schema_stats",
        "search",
        "search_by_image",
        "search_modes",
        "sources_list",
        "sources_status",
        "synthesize",
        "takes_calibration",
        "takes_list",
        "takes_scorecard",
        "takes_search",
        "think",
        "traverse_graph",
        "volunteer_chronicle",
        "volunteer_context",
        "whoami",
    }
)

_STR = {"type": "string"}

COMPACT: tuple[dict[str, Any], ...] = (
    {
        "name": "gbrain_search",
        "description": "Search the long-term memory brain. Returns rows: title, [source:slug],"
        " score, short snippet.",
        "parameters": {
            "type": "object",
            "properties": {
                "query": {**_STR, "description": "Names or exact words work best."},
                "limit": {"type": "integer", "description": "Rows, 1-20 (default 5)."},
                "type": {**_STR, "description": "Only pages of this type, e.g. person."},
                "source": {**_STR, "description": "Only this source id."},
            },
            "required": ["query"],
        },
    },
    {
        "name": "gbrain_get_page",
        "description": "Read one brain page by slug. Text is bounded; a note says when cut.",
        "parameters": {
            "type": "object",
            "properties": {
                "slug": {**_STR, "description": "e.g. people/jane-doe"},
                "max_chars": {"type": "integer", "description": "Default 4000, max 16000."},
            },
            "required": ["slug"],
        },
    },
    {
        "name": "gbrain_tools",
        "description": "List every other brain tool (name and purpose); call one with gbrain_call.",
        "parameters": {
            "type": "object",
            "properties": {"filter": {**_STR, "description": "Words in the name or purpose."}},
        },
    },
    {
        "name": "gbrain_call",
        "description": "Call any brain tool listed by gbrain_tools. Arguments are checked against"
        " its schema; errors say what to fix.",
        "parameters": {
            "type": "object",
            "properties": {
                "tool": {**_STR, "description": "Tool name from gbrain_tools."},
                "arguments": {"type": "object", "description": "The tool's arguments."},
            },
            "required": ["tool"],
        },
    },
)

WRITE_COMPACT: tuple[dict[str, Any], ...] = (
    {
        "name": "gbrain_put_page",
        "description": "Create or replace a brain page (markdown, optional YAML frontmatter)."
        " Queued and sent in the background; returns an id at once.",
        "parameters": {
            "type": "object",
            "properties": {
                "slug": {**_STR, "description": "Lower-case, / separated, e.g. notes/idea"},
                "content": {**_STR, "description": "The whole page."},
            },
            "required": ["slug", "content"],
        },
    },
    {
        "name": "gbrain_delete_page",
        "description": "Delete a brain page in two steps: without confirm you get a preview and"
        " a token; call again with confirm=token to delete.",
        "parameters": {
            "type": "object",
            "properties": {
                "slug": _STR,
                "confirm": {**_STR, "description": "Token from the preview."},
            },
            "required": ["slug"],
        },
    },
)

CORE_TOOL_FOR: Mapping[str, str] = {
    "gbrain_search": "search",
    "gbrain_get_page": "get_page",
    "gbrain_put_page": "put_page",
    "gbrain_delete_page": "delete_page",
}
"""The server tool each compact tool needs; not offered when the server lacks it."""


def compact_schemas(*, writes: bool) -> list[dict[str, Any]]:
    """The built-in compact set (the fallback when nothing is cached)."""
    return [dict(s) for s in (*COMPACT, *(WRITE_COMPACT if writes else ()))]


def purpose(description: str, cap: int = PURPOSE_CHARS) -> str:
    """The first sentence of a description, on one line, at most ``cap`` characters."""
    text = " ".join(description.split())
    for stop in (". ", "; ", " — "):
        head, sep, _ = text.partition(stop)
        if sep and len(head) >= 12:
            text = head
            break
    text = text.rstrip(".")
    return text if len(text) <= cap else text[: cap - 1].rstrip() + "…"


def exposed_name(tool: str) -> str:
    """``gbrain_<tool>``, with characters OpenAI function names forbid replaced."""
    return (PREFIX + _NAME_OK.sub("_", tool))[:MAX_NAME]


_KEEP = frozenset(
    {
        "type",
        "description",
        "properties",
        "required",
        "enum",
        "items",
        "additionalProperties",
        "minimum",
        "maximum",
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "default",
    }
)


def _clean_schema(schema: Any, depth: int = 0) -> Any:
    """Keep the keywords function-calling APIs accept; descriptions shortened."""
    if not isinstance(schema, dict) or depth > 8:
        return {}
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key not in _KEEP:
            continue
        if key == "properties" and isinstance(value, dict):
            out[key] = {
                str(name): _clean_schema(sub, depth + 1)
                for name, sub in value.items()
                if isinstance(sub, dict)
            }
        elif key in ("items", "additionalProperties") and isinstance(value, dict):
            out[key] = _clean_schema(value, depth + 1)
        elif key == "description" and isinstance(value, str):
            out[key] = purpose(value, 80)
        else:
            out[key] = value
    return out


def function_schema(spec: ToolSpec) -> dict[str, Any]:
    """One MCP tool as an OpenAI function schema named ``gbrain_<name>``."""
    params = _clean_schema(spec.input_schema)
    params["type"] = "object"
    props = params.get("properties")
    props = props if isinstance(props, dict) else {}
    params["properties"] = props
    required = params.get("required")
    if isinstance(required, list):
        params["required"] = [r for r in required if isinstance(r, str) and r in props]
        if not params["required"]:
            del params["required"]
    return {
        "name": exposed_name(spec.name),
        "description": purpose(spec.description or spec.name, 200),
        "parameters": params,
    }


def offered_schemas(
    *,
    mode: str,
    expose: str,
    tools: Iterable[ToolSpec] | None,
    writes_allowed: bool = True,
) -> list[dict[str, Any]]:
    """The schemas to offer this session.

    ``mode`` is ``read``/``write``/``off``; ``tools`` is the cached discovery for this
    credential (``None`` when nothing is cached: the built-in compact set). A compact
    tool whose server tool the credential cannot call is left out, which is how a
    read-only token gets no write tools. With ``expose == "all"`` every discovered tool
    also gets its own ``gbrain_<name>`` schema (writes only in write mode).
    """
    if mode == "off":
        return []
    writes = mode == "write" and writes_allowed
    schemas = compact_schemas(writes=writes)
    if tools is None:
        return schemas
    specs = {spec.name: spec for spec in tools}
    schemas = [
        s
        for s in schemas
        if CORE_TOOL_FOR.get(s["name"]) is None or CORE_TOOL_FOR[s["name"]] in specs
    ]
    if expose == "all":
        taken = {s["name"] for s in schemas}
        for spec in specs.values():
            if spec.name not in KNOWN_READ_TOOLS and not writes:
                continue
            if spec.name in ("put_page", "delete_page"):
                continue  # reachable only through the queued and two-step compact tools
            schema = function_schema(spec)
            if schema["name"] not in taken:
                taken.add(schema["name"])
                schemas.append(schema)
    return schemas
