"""The tool catalog (names, scopes, input schemas) and ``tools/call`` dispatch.

Parameter names, types and required lists match GBrain 0.46.28's ``tools/list``; descriptions are
our own. Dispatch reproduces the error layering: unknown tool and missing scope are compact JSON
envelopes from the HTTP layer, argument and operation errors are pretty ``OperationError`` ones.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from hermes_gbrain.emulator import operations as ops
from hermes_gbrain.emulator.oauth import has_scope
from hermes_gbrain.emulator.operations import Context, Outcome, ToolError

StrictParams = Literal["ignore", "warn", "reject"]
Handler = Callable[[Context, dict[str, Any]], Outcome]


@dataclass(frozen=True)
class Param:
    name: str
    type: str  # "string" | "number" | "boolean" | "array"
    description: str
    required: bool = False
    enum: tuple[str, ...] | None = None

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "description": self.description}
        if self.type == "array":
            out["items"] = {"type": "string"}
        if self.enum:
            out["enum"] = list(self.enum)
        return out


@dataclass(frozen=True)
class Tool:
    name: str
    scope: str
    description: str
    handler: Handler
    params: tuple[Param, ...] = ()
    annotations: dict[str, Any] | None = field(default=None, hash=False)

    def schema(self, strict: bool) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "name": self.name,
            "description": self.description,
            "inputSchema": {
                "type": "object",
                "properties": {p.name: p.schema() for p in self.params},
                "required": [p.name for p in self.params if p.required],
            },
        }
        if strict:
            entry["inputSchema"]["additionalProperties"] = False
        if self.annotations:
            entry["annotations"] = self.annotations
        return entry


def _s(
    name: str, text: str, *, required: bool = False, enum: tuple[str, ...] | None = None
) -> Param:
    return Param(name, "string", text, required, enum)


def _n(name: str, text: str) -> Param:
    return Param(name, "number", text)


def _b(name: str, text: str) -> Param:
    return Param(name, "boolean", text)


_SLUG = _s("slug", "Page slug, e.g. people/jane-doe.", required=True)
_SOURCE = _s("source_id", "Source to read from; '__all__' means every source you may read.")
_LIMIT = _n("limit", "Maximum rows to return (at most 100).")
_OFFSET = _n("offset", "Rows to skip, for paging.")
_TYPES = Param("types", "array", "Only return pages whose type is in this list.")
_SNIPPET = _n("snippet_chars", "Cut each chunk_text to this many characters (0 = whole chunk).")
_READ_ONLY = {"readOnlyHint": True}


def build_catalog(*, lean: bool) -> dict[str, Tool]:
    """All tools in ``tools/list`` order. ``lean`` adds newer GBrain's ``fields`` to ``search``."""
    search_params: list[Param] = [
        _s("query", "Words to look for; names and exact terms work best.", required=True),
        _LIMIT,
        _OFFSET,
        _s("mode", "Search mode; remote callers always get the brain's configured mode."),
        _TYPES,
        _SNIPPET,
    ]
    if lean:
        search_params.append(
            _s(
                "fields",
                "'lean' returns slim rows (slug, title, type, source, score, evidence).",
                enum=("full", "lean"),
            )
        )
    tools = [
        Tool(
            "entity",
            "read",
            "Look up one person, company or project card by name, alias or slug. A miss is"
            " found:false with suggestions, not an error.",
            ops.op_entity,
            (_s("name", "Name, alias or slug to look up.", required=True),),
            {"title": "entity card lookup", **_READ_ONLY},
        ),
        Tool(
            "get_page",
            "read",
            "Read one page by slug: body, timeline, frontmatter, tags and dates.",
            ops.op_get_page,
            (
                _SLUG,
                _b("fuzzy", "Resolve a partial slug to the closest page."),
                _b("include_content", "Also return the page as canonical markdown."),
                _b("include_deleted", "Also find soft-deleted pages."),
                _SOURCE,
            ),
        ),
        Tool(
            "put_page",
            "write",
            "Create or replace a page from markdown with optional YAML frontmatter.",
            ops.op_put_page,
            (
                _SLUG,
                _s("content", "Full page markdown, frontmatter included.", required=True),
                _b("allow_empty", "Permit writing a page with no body."),
                _s("source_kind", "Where the content came from (free text)."),
                _s("source_uri", "Link to the original content."),
                _s("ingested_via", "Name of the tool that wrote the page."),
            ),
        ),
        Tool(
            "delete_page",
            "write",
            "Soft-delete a page; it can be restored for 72 hours.",
            ops.op_delete_page,
            (_SLUG, _s("source_id", "Source holding the page (your write source).")),
        ),
        Tool(
            "list_pages",
            "read",
            "List pages with filters, newest first by default. Remote callers get at most 100"
            " rows per call; page with offset or updated_after.",
            ops.op_list_pages,
            (
                _s("type", "Only pages of this type."),
                _s("tag", "Only pages with this tag."),
                _LIMIT,
                _OFFSET,
                _s("updated_after", "Only pages updated after this ISO date or timestamp."),
                _s(
                    "sort",
                    "Row order.",
                    enum=("updated_desc", "updated_asc", "created_desc", "slug"),
                ),
                _b("include_deleted", "Include soft-deleted pages."),
                _SOURCE,
            ),
        ),
        Tool(
            "restore_page",
            "write",
            "Bring back a soft-deleted page.",
            ops.op_restore_page,
            (_SLUG, _s("source_id", "Source holding the page (your write source).")),
        ),
        Tool(
            "capture",
            "write",
            "Save a quick note to the inbox; identical text is stored once.",
            ops.op_capture,
            (
                _s("content", "The note text.", required=True),
                _s("slug", "Slug to use instead of a generated inbox one."),
                _s("type", "Page type for the note (default note)."),
            ),
        ),
        Tool(
            "fetch",
            "read",
            "Fetch a search result by its id as canonical markdown with a stable URL.",
            ops.op_fetch,
            (_s("id", "The id field of a search row (the page slug).", required=True),),
        ),
        Tool(
            "search",
            "read",
            "Keyword search over page titles, slugs and text; returns ranked chunks with"
            " scores and evidence labels.",
            ops.op_search,
            tuple(search_params),
        ),
        Tool(
            "query",
            "read",
            "Search with more controls (sources, dates, detail); rows look like search rows"
            " without id.",
            ops.op_query,
            (
                _s("query", "Question or words to look for."),
                _s("image", "Image to search with (needs an embedding provider)."),
                _s("image_mime", "MIME type of image."),
                _LIMIT,
                _OFFSET,
                _TYPES,
                _SNIPPET,
                _b("expand", "Allow language-model query expansion."),
                _s("detail", "Amount of detail: low, medium or high."),
                _s("mode", "Search mode; remote callers get the brain's mode."),
                _s("since", "Only pages dated on or after this ISO date."),
                _s("until", "Only pages dated on or before this ISO date."),
                _SOURCE,
            ),
        ),
        Tool(
            "search_modes",
            "read",
            "Show the active search mode and the settings it resolves to.",
            ops.op_search_modes,
        ),
        Tool("get_tags", "read", "Tags of one page.", ops.op_get_tags, (_SLUG,)),
        Tool("get_links", "read", "Links going out of one page.", ops.op_get_links, (_SLUG,)),
        Tool(
            "get_backlinks",
            "read",
            "Links pointing at one page from other pages.",
            ops.op_get_backlinks,
            (_SLUG,),
        ),
        Tool(
            "get_stats",
            "admin",
            "Counts of pages, chunks, links, tags and timeline entries.",
            ops.op_get_stats,
        ),
        Tool(
            "get_health",
            "admin",
            "Brain health: coverage, orphans, dead links and a summary score.",
            ops.op_get_health,
        ),
        Tool(
            "get_brain_identity",
            "read",
            "Server version, storage engine and page and chunk counts.",
            ops.op_get_brain_identity,
        ),
        Tool(
            "resolve_slugs",
            "read",
            "Slugs that match a partial slug or title.",
            ops.op_resolve_slugs,
            (_s("partial", "Part of a slug or title.", required=True),),
        ),
        Tool(
            "whoami",
            "read",
            "Describe the calling credential: transport, name, scopes, expiry and sources.",
            ops.op_whoami,
        ),
        Tool(
            "sources_list",
            "read",
            "Sources in this brain with their page counts.",
            ops.op_sources_list,
            (_b("include_archived", "Also list archived sources."),),
        ),
        Tool(
            "recall",
            "read",
            "Saved facts, plus page hits when a query is given.",
            ops.op_recall,
            (
                _s("entity", "Only facts about this entity slug."),
                _s("query", "Also search pages for these words."),
                _n("budget_tokens", "Token budget for the answer."),
                _s("since", "Only facts since this time."),
                _s("session_id", "Opaque session id."),
                _LIMIT,
            ),
            {"title": "recall saved memory", **_READ_ONLY},
        ),
        Tool(
            "context_pack",
            "read",
            "Cards for up to eight standing entities, pre-rendered for a session start.",
            ops.op_context_pack,
            (
                _s("entities", "Comma-separated names or slugs (at most 8).", required=True),
                _n("budget_tokens", "Token budget for the answer."),
                _s("since", "Only thread events after this time."),
                _s("session_id", "Opaque session id."),
                _b("include_private", "Ignored for remote callers."),
            ),
            {"title": "context pack", **_READ_ONLY},
        ),
        Tool(
            "delta",
            "read",
            "Pages changed since a point in time, with a cursor for the next call.",
            ops.op_delta,
            (
                _s("since", "ISO timestamp to start after."),
                _s("since_slug", "Slug from next_cursor, to resume within one timestamp."),
                _s("entities", "Comma-separated entity scope (at most 8)."),
                _n("budget_tokens", "Token budget for the answer."),
                _s("session_id", "Opaque session id."),
                _b("include_private", "Ignored for remote callers."),
            ),
            {"title": "changes since", **_READ_ONLY},
        ),
        Tool(
            "schema_stats",
            "read",
            "Page counts by type, overall and per source, and unused type prefixes.",
            ops.op_schema_stats,
        ),
    ]
    return {t.name: t for t in tools}


def pretty(value: Any) -> str:
    """``JSON.stringify(value, null, 2)``: what GBrain puts in ``content[0].text``."""
    return json.dumps(js_numbers(value), indent=2, ensure_ascii=False)


def compact(value: Any) -> str:
    return json.dumps(js_numbers(value), ensure_ascii=False, separators=(",", ":"))


def js_numbers(value: Any) -> Any:
    """Whole floats become ints, as JavaScript prints them (``1`` rather than ``1.0``)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: js_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [js_numbers(v) for v in value]
    return value


def _type_ok(param: Param, value: Any) -> bool:
    if param.type == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if param.type == "boolean":
        return isinstance(value, bool)
    if param.type == "array":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    return isinstance(value, str)


_ARTICLE = {"array": "an array of strings", "boolean": "a boolean", "number": "a number"}


def _validate(tool: Tool, args: dict[str, Any]) -> None:
    for param in tool.params:
        if param.required and args.get(param.name) is None:
            raise ToolError("invalid_params", f"Missing required parameter: {param.name}")
    for param in tool.params:
        value = args.get(param.name)
        if value is None:
            continue
        if not _type_ok(param, value):
            kind = _ARTICLE.get(param.type, "a string")
            raise ToolError("invalid_params", f'Parameter "{param.name}" must be {kind}')
        if param.enum and value not in param.enum:
            raise ToolError(
                "invalid_params",
                f'Parameter "{param.name}" must be one of: {", ".join(param.enum)}',
            )


def _text(text: str) -> dict[str, str]:
    return {"type": "text", "text": text}


def _error_result(text: str) -> dict[str, Any]:
    return {"content": [_text(text)], "isError": True}


@dataclass
class Dispatcher:
    """Runs ``tools/call`` for one emulator configuration."""

    catalog: dict[str, Tool]
    strict_params: StrictParams = "warn"

    def list_tools(self, scopes: tuple[str, ...]) -> list[dict[str, Any]]:
        strict = self.strict_params == "reject"
        return [t.schema(strict) for t in self.catalog.values() if has_scope(scopes, t.scope)]

    def call(self, ctx: Context, name: Any, arguments: Any) -> dict[str, Any]:
        tool = self.catalog.get(name) if isinstance(name, str) else None
        if tool is None:
            return _error_result(
                compact({"error": "unknown_operation", "message": f"Unknown: {name}"})
            )
        scopes = ctx.principal.scopes
        if not has_scope(scopes, tool.scope):
            return _error_result(
                compact(
                    {
                        "error": "insufficient_scope",
                        "message": f"Operation {tool.name} requires '{tool.scope}' scope",
                        "your_scopes": list(scopes),
                    }
                )
            )
        try:
            args, warnings = self._arguments(tool, arguments)
            _validate(tool, args)
            outcome = tool.handler(ctx, args)
        except ToolError as err:
            return _error_result(pretty(err.envelope()))
        except Exception as err:  # the emulator must answer, whatever went wrong
            envelope = {"error": "internal_error", "message": f"{type(err).__name__}: {err}"}
            return _error_result(pretty(envelope))
        meta: dict[str, Any] = {}
        blocks = [_text(pretty(outcome.value))]
        if warnings:
            meta["warnings"] = [{"code": "unknown_param", "param": p} for p in warnings]
        meta.update(outcome.meta)
        blocks.extend(_text(t) for t in outcome.extra_blocks)
        blocks.extend(
            _text(f'warning: unknown parameter "{p}" ignored; it is not declared by this tool.')
            for p in warnings
        )
        result: dict[str, Any] = {}
        if meta:
            result["_meta"] = meta
        result["content"] = blocks
        return result

    def _arguments(self, tool: Tool, arguments: Any) -> tuple[dict[str, Any], list[str]]:
        """Declared arguments, plus the undeclared names to warn about (per ``strict_params``)."""
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise ToolError("invalid_params", "Arguments must be a JSON object")
        known = {p.name for p in tool.params}
        unknown = [k for k in arguments if k not in known and k != "_meta"]
        args = {k: v for k, v in arguments.items() if k in known}
        if unknown and self.strict_params == "reject":
            raise ToolError(
                "invalid_params",
                f'Unknown parameter "{unknown[0]}" for {tool.name}',
                "Known parameters: " + (", ".join(sorted(known)) or "(none)"),
            )
        return args, unknown if self.strict_params == "warn" else []
