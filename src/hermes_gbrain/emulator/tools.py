"""``tools/call`` dispatch over the catalog in :mod:`hermes_gbrain.emulator.catalog`.

Dispatch reproduces GBrain's error layering: unknown tool and missing scope are compact JSON
envelopes from the HTTP layer, argument and operation errors are pretty ``OperationError`` ones.
Tools the emulator lists but does not implement pass the same scope and parameter checks, then
answer an ``unavailable`` error.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from hermes_gbrain.emulator import operations as ops
from hermes_gbrain.emulator.catalog import Param, ToolSpec, tool_specs
from hermes_gbrain.emulator.facts import hot_memory
from hermes_gbrain.emulator.oauth import has_scope
from hermes_gbrain.emulator.operations import Context, Outcome, ToolError

StrictParams = Literal["ignore", "warn", "reject"]
Handler = Callable[[Context, dict[str, Any]], Outcome]

#: The tools the emulator implements; every other catalog entry answers ``unavailable``.
HANDLERS: dict[str, Handler] = {
    "entity": ops.op_entity,
    "get_page": ops.op_get_page,
    "get_versions": ops.op_get_versions,
    "put_page": ops.op_put_page,
    "delete_page": ops.op_delete_page,
    "list_pages": ops.op_list_pages,
    "restore_page": ops.op_restore_page,
    "capture": ops.op_capture,
    "fetch": ops.op_fetch,
    "search": ops.op_search,
    "query": ops.op_query,
    "search_modes": ops.op_search_modes,
    "get_tags": ops.op_get_tags,
    "get_links": ops.op_get_links,
    "get_backlinks": ops.op_get_backlinks,
    "get_stats": ops.op_get_stats,
    "get_health": ops.op_get_health,
    "get_brain_identity": ops.op_get_brain_identity,
    "resolve_slugs": ops.op_resolve_slugs,
    "whoami": ops.op_whoami,
    "sources_list": ops.op_sources_list,
    "recall": ops.op_recall,
    "remember": ops.op_remember,
    "forget": ops.op_forget,
    "forget_fact": ops.op_forget_fact,
    "context_pack": ops.op_context_pack,
    "delta": ops.op_delta,
    "schema_stats": ops.op_schema_stats,
    "volunteer_context": ops.op_volunteer_context,
}


def _unavailable(name: str) -> Handler:
    def handler(ctx: Context, args: dict[str, Any]) -> Outcome:
        raise ToolError(
            "unavailable", f"{name} is listed but not implemented by the hermes-gbrain emulator"
        )

    return handler


@dataclass(frozen=True)
class Tool:
    """A catalog entry bound to its handler."""

    spec: ToolSpec
    handler: Handler
    implemented: bool = True

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def scope(self) -> str:
        return self.spec.scope

    @property
    def params(self) -> tuple[Param, ...]:
        return self.spec.params

    def schema(self, strict: bool) -> dict[str, Any]:
        return self.spec.schema(strict)


def build_catalog(*, lean: bool) -> dict[str, Tool]:
    """All tools in ``tools/list`` order. ``lean`` adds newer GBrain's ``fields`` to ``search``."""
    tools: dict[str, Tool] = {}
    for spec in tool_specs(lean=lean):
        handler = HANDLERS.get(spec.name)
        if handler is None:
            tools[spec.name] = Tool(spec, _unavailable(spec.name), implemented=False)
        else:
            tools[spec.name] = Tool(spec, handler)
    return tools


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
    if param.type == "object":
        return isinstance(value, dict)
    if param.type == "array":
        item = dict if param.items == "object" else str
        return isinstance(value, list) and all(isinstance(v, item) for v in value)
    return isinstance(value, str)


_ARTICLE = {"boolean": "a boolean", "number": "a number", "object": "an object"}


def _kind(param: Param) -> str:
    if param.type == "array":
        return "an array of objects" if param.items == "object" else "an array of strings"
    return _ARTICLE.get(param.type, "a string")


def _validate(tool: Tool, args: dict[str, Any]) -> None:
    for param in tool.params:
        if param.required and args.get(param.name) is None:
            raise ToolError("invalid_params", f"Missing required parameter: {param.name}")
    for param in tool.params:
        value = args.get(param.name)
        if value is None:
            continue
        if not _type_ok(param, value):
            raise ToolError("invalid_params", f'Parameter "{param.name}" must be {_kind(param)}')
        if param.enum and value not in param.enum:
            raise ToolError(
                "invalid_params",
                f'Parameter "{param.name}" must be one of: {", ".join(param.enum)}',
            )


def _session_of(arguments: Any) -> str | None:
    """``arguments._meta.session_id`` (at most 256 characters), the only place GBrain reads it."""
    meta = arguments.get("_meta") if isinstance(arguments, dict) else None
    value = meta.get("session_id") if isinstance(meta, dict) else None
    return value[:256] or None if isinstance(value, str) else None


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
        ctx.session_id = _session_of(arguments)
        try:
            args, warnings = self._arguments(tool, arguments)
            _validate(tool, args)
            outcome = tool.handler(ctx, args)
            hot = hot_memory(ctx.store.db, tool.name, ctx.principal.source_id, arguments)
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
        if hot is not None:  # after retrieval, as in recording 99b
            meta["brain_hot_memory"] = hot
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
