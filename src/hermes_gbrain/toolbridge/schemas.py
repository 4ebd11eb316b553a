"""The compact ``gbrain_*`` tool schemas, and MCP ``inputSchema`` → OpenAI function schemas.

Loading GBrain's MCP server straight into Hermes costs every session some 10,000
tokens of schemas. The compact set is six short schemas; ``gbrain_tools`` lists the
rest by name and ``gbrain_call`` reaches any of them, so nothing becomes unreachable.
Which schemas are offered depends on the tools mode, the exposure and, when a
discovery is cached, on what the server offers this credential (its scope).

Every compact schema declares ``additionalProperties: false`` and the bridge refuses an
argument it does not declare (naming it), so a call meant for another tool fails
loudly instead of being half-understood. Server tools fall in three classes: *read*
(GBrain 0.46.28's read set), *admin* (its ``admin``/``sources_admin`` tools, reachable
only with ``GBRAIN_TOOLS=admin``) and *write* (everything else, newer tools included).
*Destructive* tools (``DESTRUCTIVE_TOOLS``, or a name that says so) always take two
steps, whatever their class.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..mcp import ToolSpec
from ..recall.screen import prompt_line

__all__ = [
    "ADMIN_TOOLS",
    "COMPACT",
    "CORE_TOOL_FOR",
    "DESTRUCTIVE_TOOLS",
    "KNOWN_READ_TOOLS",
    "KNOWN_WRITE_TOOLS",
    "PREFIX",
    "REPLACING_TOOLS",
    "WRITE_COMPACT",
    "compact_schemas",
    "exposed_name",
    "function_schema",
    "is_destructive",
    "offered_schemas",
    "purpose",
    "tool_class",
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

# GBrain 0.46.28 tools that need the ``write`` scope (its read+write ``tools/list``, 89 tools,
# minus the read set).
KNOWN_WRITE_TOOLS = frozenset(
    {
        "add_link",
        "add_tag",
        "add_timeline_entry",
        "capture",
        "delete_page",
        "extract_entities",
        "extract_facts",
        "forget",
        "forget_fact",
        "log_ingest",
        "ontology_propose",
        "put_page",
        "put_raw_data",
        "remember",
        "remove_link",
        "remove_tag",
        "restore_page",
        "revert_version",
        "takes_add",
        "takes_resolve",
        "takes_supersede",
        "takes_update",
    }
)

# GBrain 0.46.28 tools that need ``admin`` (or ``sources_admin``): offered and callable only
# with GBRAIN_TOOLS=admin.
ADMIN_TOOLS = frozenset(
    {
        "cache_stats",
        "cancel_job",
        "get_health",
        "get_job",
        "get_job_progress",
        "get_job_stats",
        "get_stats",
        "get_status_snapshot",
        "get_usage",
        "list_jobs",
        "pause_job",
        "quarantine_list",
        "reload_schema_pack",
        "replay_job",
        "resume_job",
        "retry_job",
        "run_doctor",
        "run_onboard",
        "run_skillopt",
        "schema_apply_mutations",
        "search_stats",
        "search_tune",
        "send_job_message",
        "sources_add",
        "sources_remove",
        "submit_job",
    }
)

# Tools that remove, roll back, hide or replace what is stored (GBrain 0.46.28). Each takes a
# preview and a confirmation, through gbrain_delete_page or gbrain_call alike.
DESTRUCTIVE_TOOLS = frozenset(
    {
        "cancel_job",
        "delete_page",
        "forget",
        "forget_fact",
        "remove_link",
        "remove_tag",
        "restore_page",
        "revert_version",
        "schema_apply_mutations",
        "sources_remove",
        "takes_supersede",
    }
)
# GBrain 0.46.28 write tools that replace what is stored in *some* calls, answered in one call
# (its source: ``capture`` with the slug of an existing page is a ``put_page`` over it;
# ``put_raw_data`` upserts the payload of (page, source); ``add_link`` upserts an existing
# edge's context; ``takes_update`` rewrites a take's weight, source or date). Such a call
# takes two steps too; the bridge checks which calls would replace (``ToolBridge._replaces``).
REPLACING_TOOLS = frozenset({"add_link", "capture", "put_raw_data", "takes_update"})
_DESTRUCTIVE_WORDS = re.compile(
    r"(^|_)(delete|remove|forget|revert|restore|purge|drop|prune|wipe|reset|supersede|cancel"
    r"|destroy|erase|truncate|unlink|rollback)",
)


def is_destructive(tool: str) -> bool:
    """A listed destructive tool, or a newer non-read one whose name says it removes or rolls
    back (``purge_pages``, ``drop_source``)."""
    if tool in DESTRUCTIVE_TOOLS:
        return True
    return tool not in KNOWN_READ_TOOLS and bool(_DESTRUCTIVE_WORDS.search(tool))


def tool_class(tool: str) -> str:
    """``read``, ``write`` or ``admin``: which ``GBRAIN_TOOLS`` mode may call ``tool``."""
    if tool in KNOWN_READ_TOOLS:
        return "read"
    if tool in ADMIN_TOOLS:
        return "admin"
    return "write"


_STR = {"type": "string"}

COMPACT: tuple[dict[str, Any], ...] = (
    {
        "name": "gbrain_search",
        "description": "Search the long-term memory brain. Returns rows: title, [source:slug],"
        " score, short snippet.",
        "parameters": {
            "type": "object",
            "additionalProperties": False,
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
            "additionalProperties": False,
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
            "additionalProperties": False,
            "properties": {"filter": {**_STR, "description": "Words in the name or purpose."}},
        },
    },
    {
        "name": "gbrain_call",
        "description": "Call any brain tool listed by gbrain_tools. Arguments are checked against"
        " its schema; errors say what to fix. Destructive tools answer with a preview and a"
        " confirm token first.",
        "parameters": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "tool": {**_STR, "description": "Tool name from gbrain_tools."},
                "arguments": {"type": "object", "description": "The tool's arguments."},
                "confirm": {
                    **_STR,
                    "description": "Only for tools that delete or roll back: the token"
                    " from their preview, with the same arguments.",
                },
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
            "additionalProperties": False,
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
            "additionalProperties": False,
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
            described = _described(value, 80)
            if described:
                out[key] = described
        elif key in ("enum", "default") and not _plain_values(value):
            continue  # server words the model would read as part of the schema
        else:
            out[key] = value
    return out


def _described(text: str, cap: int) -> str:
    """A server description as the model may read it: its first sentence, one plain
    line, or "" when it reads like instructions (brain text is untrusted, and a tool's
    schema reaches the model as surely as a pointer does)."""
    return prompt_line(purpose(text, cap), cap) or ""


def _plain_values(value: Any) -> bool:
    """Enum members and defaults: numbers, booleans, or short strings the screen passes."""
    items = value if isinstance(value, list) else [value]
    return all(not isinstance(v, str) or (len(v) <= 64 and prompt_line(v, 64) == v) for v in items)


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
        "description": _described(spec.description or "", 200) or spec.name,
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

    ``mode`` is ``read``/``write``/``admin``/``off``; ``tools`` is the cached discovery for
    this credential (``None`` when nothing is cached: the built-in compact set). A compact
    tool whose server tool the credential cannot call is left out, which is how a
    read-only token gets no write tools. With ``expose == "all"`` every discovered tool
    the mode may call also gets its own ``gbrain_<name>`` schema, except destructive
    tools, tools that may replace content in one call and ``put_page``, reachable only
    through the queued and two-step paths.
    """
    if mode == "off":
        return []
    writes = mode in ("write", "admin") and writes_allowed
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
            kind = tool_class(spec.name)
            if kind != "read" and not writes:
                continue
            if kind == "admin" and mode != "admin":
                continue
            if spec.name == "put_page" or is_destructive(spec.name):
                continue  # reachable only through the queued and two-step paths
            if spec.name in REPLACING_TOOLS:
                continue  # may need a confirm token its own schema has no room for: gbrain_call
            schema = function_schema(spec)
            if schema["name"] not in taken:
                taken.add(schema["name"])
                schemas.append(schema)
    return schemas
