"""``ToolBridge``: runs one ``gbrain_*`` tool call and returns bounded JSON for the model.

Every outcome is a JSON object string: data on success, ``{"error": …}`` otherwise.
Nothing raises into Hermes. Outputs are bounded (rows, characters, list lengths) and
server text is reduced to single lines or capped blocks: it is untrusted. Reads are
retried once after a transport error (a fresh connection); writes are never retried
here: ``put_page`` goes through the durable outbox, destructive tools and writes that
would replace what is stored take two steps (``deletes``), and the user is asked at the
second step where Hermes can ask (the page is read again after the answer). One deadline
bounds a whole call (``budget_s``).

Arguments are strict: an argument a compact tool does not declare, or one the server
tool behind ``gbrain_call`` does not declare, is refused with its name and nothing is
sent. What the server says beside its answer (``_meta.warnings``, extra text blocks)
comes back to the model as ``server_notes``.

Every server string in an answer (error messages and codes, warnings, notes, titles,
snippets, tags, tool descriptions) passes the recall layers' policy
(``recall.screen``): one plain line, bounded, and withheld when it reads like
instructions; references are shown only for slugs and source ids of GBrain's own shape.
The data of a ``gbrain_call`` and a page's text are what the model asked for and come
back as the server sent them, bounded.
"""

from __future__ import annotations

import difflib
import json
import logging
import re
import threading
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

from ..api import GBrain, parse_search_rows
from ..errors import GBrainError, ToolError, TransportError
from ..mcp import MCP_DEADLINE_S, ToolCatalog, ToolResult
from ..recall.screen import (
    WITHHELD,
    prompt_line,
    prompt_ref,
    prompt_slug,
    server_code,
    server_text,
)
from ..settings import Settings
from ..text import one_line, safe_slug, safe_source_id
from ..transport import call_deadline, deadline_left
from . import schemas
from .deletes import ConfirmTokens, Refusal, Revision
from .discovery import Discovery
from .outbox import Outbox, OutboxWorker
from .validate import validate

__all__ = [
    "DEFAULT_PAGE_CHARS",
    "MAX_CALL_CHARS",
    "MAX_PAGE_CHARS",
    "MAX_SEARCH_ROWS",
    "ToolBridge",
    "WriteGate",
]

log = logging.getLogger(__name__)

MAX_SEARCH_ROWS = 20
DEFAULT_SEARCH_ROWS = 5
SNIPPET_CHARS = 240
DEFAULT_PAGE_CHARS = 4_000
MAX_PAGE_CHARS = 16_000
MAX_CALL_CHARS = 12_000
MAX_TOOLS_CHARS = 14_000
MAX_LINKS = 10
MAX_NOTES = 5
_WRITES_OFF = "writes are disabled for this profile (GBRAIN_TOOLS=read); nothing was written"
_WRITE_MODES = ("write", "admin")
_CHANGED_WHILE_ASKING = "the page changed while you were asked; nothing done (preview again)"
_REPLACES = {
    "capture": "a page with this slug exists: capture would replace its text"
    " (GBrain keeps the earlier version; see get_versions)",
    "put_raw_data": "raw data from this source is stored for the page: it would be replaced",
    "add_link": "this link exists: its context would be replaced",
    "takes_update": "the take's weight, source or date would be replaced",
}
_REF_WITHHELD = "[withheld: slug or source id not fit to show]"
_TOOL_NAME = re.compile(r"[a-z][a-z0-9_]{0,63}")

Approver = Callable[[str, str], "bool | None"]
"""Asks the user ``(what, why)``: True to go ahead, False to refuse, None when nobody can
be asked on this thread (the model's confirmation then stands alone)."""


@dataclass(frozen=True, slots=True)
class WriteGate:
    """Whether this session may write, and if not, why (cron, subagent, flush, mode)."""

    allowed: bool
    reason: str = ""


def _dumps(value: Mapping[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def _error(message: str, **extra: Any) -> dict[str, Any]:
    return {"error": message, **extra}


def _is_tool_name(name: object) -> bool:
    """A server tool name as GBrain spells them (``get_page``); anything else is not
    shown to the model."""
    return isinstance(name, str) and _TOOL_NAME.fullmatch(name) is not None


def _int(value: Any, default: int, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return default
    return max(low, min(high, int(value)))


@dataclass
class ToolBridge:
    """Dispatch for one provider instance (one profile, one frozen ``Settings``)."""

    settings: Settings
    gate: WriteGate
    brain: Callable[[bool], GBrain]
    """Returns the read (``False``) or write (``True``) connection; may raise."""
    discovery: Discovery | None = None
    outbox: Outbox | None = None
    worker: OutboxWorker | None = None
    deletes: ConfirmTokens = field(default_factory=ConfirmTokens)
    approve: Approver | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __repr__(self) -> str:
        return f"ToolBridge(mode={self.settings.tools!r}, writes={self.gate.allowed})"

    # -- entry point ----------------------------------------------------------------------

    def handle(self, name: str, args: Any) -> str:
        """Run ``name`` with ``args``; always a JSON object string."""
        handlers: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
            "gbrain_search": self._search,
            "gbrain_get_page": self._get_page,
            "gbrain_tools": self._tools,
            "gbrain_call": self._call_any,
            "gbrain_put_page": self._put_page,
            "gbrain_delete_page": self._delete_page,
        }
        try:
            if self.settings.tools == "off":
                out = _error("GBrain tools are turned off for this profile (GBRAIN_TOOLS=off)")
            elif not isinstance(args, dict):
                out = _error("arguments must be a JSON object")
            elif name in handlers:
                out = self._checked(name, args, handlers[name])
            elif name.startswith(schemas.PREFIX):
                out = self._call_any({"tool": name[len(schemas.PREFIX) :], "arguments": args})
            else:
                out = _error(f"unknown tool {name!r}")
        except ToolError as exc:
            out = self._tool_error(exc)
        except GBrainError as exc:
            out = _error(f"GBrain is unavailable: {exc}")
        except Exception as exc:  # a bug here must not become a crash in Hermes
            log.warning("gbrain tool %s failed with %s", name, type(exc).__name__)
            out = _error(f"internal error in the GBrain tool bridge ({type(exc).__name__})")
        return _dumps(self._with_failures(out))

    def _checked(
        self,
        name: str,
        args: dict[str, Any],
        handler: Callable[[dict[str, Any]], dict[str, Any]],
    ) -> dict[str, Any]:
        schema = next(
            (s for s in (*schemas.COMPACT, *schemas.WRITE_COMPACT) if s["name"] == name), None
        )
        if schema is not None:
            problems = validate(schema["parameters"], args)
            if problems:
                return _error(f"invalid arguments for {name}; nothing was sent", problems=problems)
        # One deadline for the whole call: catalog, token (a mint in flight included), every
        # request and retry (a person's answer to an approval prompt aside).
        with call_deadline(self.budget_s):
            return handler(args)

    def _with_failures(self, out: dict[str, Any]) -> dict[str, Any]:
        """Writes that failed in the background are told on the next call, once each."""
        if self.outbox is None:
            return out
        try:
            failures = self.outbox.take_failures()
        except Exception:
            return out
        failed = [e for e in failures if e.state == "failed"]
        kept = [e for e in failures if e.state == "superseded"]
        if failed:
            out["outbox_failures"] = [
                {"id": e.op_id, "slug": e.slug, "error": server_text(e.last_error, 200) or "failed"}
                for e in failed
            ]
        if kept:
            out["outbox_superseded"] = [
                {
                    "id": e.op_id,
                    "slug": e.slug,
                    "note": "not written: the page was changed by someone else after this"
                    " write was queued; read it again before writing",
                }
                for e in kept
            ]
        return out

    @staticmethod
    def _tool_error(exc: ToolError) -> dict[str, Any]:
        """The server's code only when it looks like one, its message screened and capped:
        both are server text and reach the model."""
        code = server_code(exc.code)
        tool = exc.tool if _is_tool_name(exc.tool) else "tool"
        if code == "insufficient_scope":
            return _error(
                f"this GBrain credential's scope does not allow {tool!r}; nothing was done",
                code=code,
            )
        out = _error(f"GBrain {tool} failed ({code or 'unknown error'})", code=code)
        detail = server_text(exc.detail, 300)
        if detail:
            out["detail"] = detail
        return out

    # -- plumbing -------------------------------------------------------------------------

    def _result(self, tool: str, args: Mapping[str, Any], *, write: bool = False) -> ToolResult:
        brain = self.brain(write)
        with call_deadline(brain.mcp.deadline_s):  # the retry shares the call's deadline
            try:
                return brain.mcp.call_tool(tool, args)
            except TransportError:
                if write:
                    raise
                return self.brain(write).mcp.call_tool(tool, args)  # once, on a fresh connection

    @property
    def budget_s(self) -> float:
        """The wall-clock bound of one tool call, everything it needs included."""
        return self.settings.timeout_s or MCP_DEADLINE_S

    def catalog(self) -> ToolCatalog:
        """This credential's tools: live (cached per process), else the disk cache.

        With a disk cache to fall back on, a live fetch gets half of what is left of the
        call's deadline, so a hung ``tools/list`` leaves the call itself time to run.
        """
        try:
            if self.discovery is None:
                return self.brain(self._writes_on).catalog()
            with call_deadline(deadline_left(self.budget_s) / 2):
                return self.brain(self._writes_on).catalog()
        except GBrainError:
            if self.discovery is None:
                raise
            return self.discovery.catalog()

    def _declared(self, catalog: ToolCatalog, tool: str, args: Mapping[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in args.items() if v is not None and catalog.declares(tool, k)}

    @property
    def _writes_on(self) -> bool:
        return self.settings.tools in _WRITE_MODES and self.gate.allowed

    def _write_refusal(self) -> dict[str, Any] | None:
        if self.settings.tools not in _WRITE_MODES:
            return _error(_WRITES_OFF)
        if not self.gate.allowed:
            return _error(self.gate.reason or "writes are not allowed in this session")
        if self.discovery is None:
            return _error(
                "this GBrain credential's scopes are not known yet (GBrain did not answer"
                " when the session started); nothing was written, try again later"
            )
        if not self.discovery.can_write:
            return _error(
                "this GBrain credential is read-only (scope: "
                f"{' '.join(self.discovery.scopes) or 'none'}); nothing was written"
            )
        return None

    # -- reads ----------------------------------------------------------------------------

    def _search(self, args: dict[str, Any]) -> dict[str, Any]:
        query = args["query"].strip()
        if not query:
            return _error("query is empty")
        limit = _int(args.get("limit"), DEFAULT_SEARCH_ROWS, 1, MAX_SEARCH_ROWS)
        catalog = self.catalog()
        source = args.get("source") or None
        tool, extra = "search", {}
        if source is not None and not catalog.declares("search", "source_id"):
            if not catalog.declares("query", "source_id"):
                return _error("this server cannot filter searches by source")
            tool, extra = "query", {"expand": False}
        call = self._declared(
            catalog,
            tool,
            {
                "query": query[:1000],
                "limit": limit,
                "snippet_chars": SNIPPET_CHARS,
                "types": [args["type"]] if args.get("type") else None,
                "source_id": source,
                **extra,
            },
        )
        call["query"] = query[:1000]
        result = self._result(tool, call)
        rows = parse_search_rows(result.data)
        out_rows = []
        for row in rows:
            if row.injection_suspected:
                continue
            title = prompt_line(row.title, 120)
            item: dict[str, Any] = {
                "title": WITHHELD if title is None else title,
                "ref": prompt_ref(row.source_id, row.slug) or _REF_WITHHELD,
            }
            if row.score is not None:
                item["score"] = round(row.score, 3)
            snippet = server_text(row.snippet, SNIPPET_CHARS)
            if snippet:
                item["snippet"] = snippet
            out_rows.append(item)
            if len(out_rows) >= limit:
                break
        out: dict[str, Any] = {"rows": out_rows}
        retrieval = result.meta.get("retrieval")
        stages = retrieval.get("degraded") if isinstance(retrieval, dict) else None
        if isinstance(stages, list):
            found = [s.get("stage") for s in stages if isinstance(s, dict)]
            names = [n for n in found if isinstance(n, str) and n.isidentifier()][:5]
            if names:
                out["degraded"] = names
        if not out_rows:
            out["note"] = "no results; try exact names or fewer words"
        return out

    def _page(self, slug: str) -> tuple[dict[str, Any], ToolResult]:
        result = self._result("get_page", {"slug": slug})
        if not isinstance(result.data, dict):
            raise ToolError("get_page", "unexpected_shape")
        return result.data, result

    def _get_page(self, args: dict[str, Any]) -> dict[str, Any]:
        slug = safe_slug(args["slug"])
        if slug is None:
            return _error("slug must be lower-case '/'-separated segments, e.g. people/jane-doe")
        limit = _int(args.get("max_chars"), DEFAULT_PAGE_CHARS, 200, MAX_PAGE_CHARS)
        data, _ = self._page(slug)
        parts = [data.get("compiled_truth"), data.get("timeline")]
        text = "\n\n".join(p for p in parts if isinstance(p, str) and p.strip())
        tags = data.get("tags")
        out: dict[str, Any] = {
            "slug": prompt_slug(data.get("slug")) or slug,
            "source_id": safe_source_id(data.get("source_id")) or "default",
            "title": server_text(data.get("title"), 160),
            "type": server_text(data.get("type"), 40) or None,
            "updated_at": server_text(data.get("updated_at"), 40) or None,
            "tags": [server_text(t, 40) for t in tags[:20]] if isinstance(tags, list) else [],
            "text": text[:limit],
        }
        if len(text) > limit:
            out["truncated"] = True
            out["note"] = (
                f"showing the first {limit} of {len(text)} characters; "
                f"pass a larger max_chars (up to {MAX_PAGE_CHARS}) for more"
            )
        return out

    def _tools(self, args: dict[str, Any]) -> dict[str, Any]:
        catalog = self.catalog()
        needle = (args.get("filter") or "").strip().lower()
        listed: list[dict[str, Any]] = []
        size = 0
        shown_all = True
        admin = self.settings.tools == "admin"
        for spec in sorted(catalog.tools.values(), key=lambda s: s.name):
            kind = schemas.tool_class(spec.name)
            if kind == "admin" and not admin:
                continue  # GBRAIN_TOOLS=admin only
            if not _is_tool_name(spec.name):
                continue  # not a name a model could call: server text, not a tool
            line = server_text(schemas.purpose(spec.description or "", 80), 80)
            if needle and needle not in spec.name.lower() and needle not in line.lower():
                continue
            item: dict[str, Any] = {"name": spec.name, "purpose": line}
            if kind != "read":
                item["writes"] = True
            if schemas.is_destructive(spec.name):
                item["two_step"] = True
            elif spec.name in schemas.REPLACING_TOOLS:
                item["two_step"] = "when it would replace"
            size += len(spec.name) + len(line) + 30
            if size > MAX_TOOLS_CHARS:
                shown_all = False
                break
            listed.append(item)
        out: dict[str, Any] = {
            "tools": listed,
            "count": len(listed),
            "how": "call one with gbrain_call {tool, arguments}; "
            "invalid arguments are answered with the tool's parameters",
        }
        if not self._writes_on:
            out["note"] = "tools marked writes are refused: " + (
                self.gate.reason if self.settings.tools in _WRITE_MODES else "GBRAIN_TOOLS=read"
            )
        if not shown_all:
            out["truncated"] = True
            out["note_more"] = "list cut to fit; pass a filter to see the rest"
        return out

    def _call_any(self, args: dict[str, Any]) -> dict[str, Any]:
        with call_deadline(self.budget_s):  # the same one, when reached through _checked
            return self._call_tool(args)

    def _call_tool(self, args: dict[str, Any]) -> dict[str, Any]:
        tool = args["tool"].strip()
        if tool.startswith(schemas.PREFIX):
            tool = tool[len(schemas.PREFIX) :]
        arguments = args.get("arguments")
        arguments = {} if arguments is None else arguments
        if not isinstance(arguments, dict):
            return _error("arguments must be a JSON object")
        confirm = args.get("confirm")
        if tool == "put_page":
            if confirm:
                return _error("put_page takes no confirm token; nothing was queued")
            return self._checked("gbrain_put_page", arguments, self._put_page)
        kind = schemas.tool_class(tool)
        if kind == "admin" and self.settings.tools != "admin":
            return _error(
                f"{tool!r} is an administrative tool: it is reachable only with "
                "GBRAIN_TOOLS=admin; nothing was sent",
                code="admin_only",
            )
        catalog = self.catalog()
        spec = catalog.tools.get(tool)
        if spec is None:
            names = [name for name in catalog.tools if _is_tool_name(name)]
            close = difflib.get_close_matches(tool, names, n=3, cutoff=0.6)
            return _error(
                f"no tool {tool!r} is offered to this credential; see gbrain_tools",
                did_you_mean=close,
            )
        write = kind != "read"
        if write:
            refusal = self._write_refusal()
            if refusal is not None:
                return refusal
        strict = dict(spec.input_schema)
        strict["additionalProperties"] = False  # the server would ignore it, with a warning
        problems = validate(strict, arguments)
        if problems:
            return _error(
                f"invalid arguments for {tool}; nothing was sent",
                problems=problems,
                parameters=_param_summary(spec.input_schema),
            )
        if schemas.is_destructive(tool):
            return self._two_step(tool, arguments, confirm)
        if tool in schemas.REPLACING_TOOLS and (confirm or self._replaces(tool, arguments)):
            return self._two_step(tool, arguments, confirm, replaces=True)
        if confirm:
            return _error(f"{tool} takes no confirm token; nothing was sent")
        result = self._result(tool, arguments, write=write)
        return _bounded(tool, result)

    # -- two-step destructive calls -------------------------------------------------------

    def _state(self, slug: str, source_id: Any = None) -> Revision | None:
        """The page's revision now, or ``None`` when there is no such (live) page."""
        call: dict[str, Any] = {"slug": slug}
        if isinstance(source_id, str) and source_id:
            if not self.catalog().declares("get_page", "source_id"):
                raise ToolError("get_page", "unsupported", "cannot read a page by source")
            call["source_id"] = source_id
        try:
            result = self._result("get_page", call)
        except ToolError as exc:
            if exc.code == "page_not_found":
                return None
            raise
        data = result.data if isinstance(result.data, dict) else {}
        return self._revision(data)

    def _replaces(self, tool: str, arguments: Mapping[str, Any]) -> bool:
        """Whether this call of a ``REPLACING_TOOLS`` tool would replace something stored;
        when that cannot be read, it is taken to (two steps rather than a silent overwrite)."""
        if tool == "capture":
            slug = arguments.get("slug")
            if not isinstance(slug, str) or not slug:
                return False  # GBrain derives the slug from the text: the same text, same page
            return safe_slug(slug) is None or self._state(slug) is not None
        if tool == "put_raw_data":
            try:
                call = {"slug": arguments.get("slug"), "source": arguments.get("source")}
                return bool(self._result("get_raw_data", call).data)
            except GBrainError:
                return True
        if tool == "add_link":
            try:
                rows = self._result("get_links", {"slug": arguments.get("from")}).data
            except GBrainError:
                return True
            kind = arguments.get("link_type") or ""
            return any(
                isinstance(r, dict)
                and r.get("to_slug") == arguments.get("to")
                and (r.get("link_type") or "") == kind
                for r in (rows if isinstance(rows, list) else [])
            )
        return True  # takes_update: always rewrites a take's fields

    def _two_step(
        self, tool: str, arguments: dict[str, Any], confirm: Any, *, replaces: bool = False
    ) -> dict[str, Any]:
        """Preview and token first; the call itself only with that token (see ``deletes``)."""
        raw_slug = arguments.get("slug")
        slug = safe_slug(raw_slug) if isinstance(raw_slug, str) else None
        if isinstance(raw_slug, str) and slug is None:
            return _error("slug must be lower-case '/'-separated segments; nothing was sent")
        source = arguments.get("source_id")
        current = self._state(slug, source) if slug else None
        if confirm:
            try:
                self.deletes.redeem(
                    str(confirm).strip(), slug or "", current, tool=tool, arguments=arguments
                )
            except Refusal as refusal:
                return _error(str(refusal), code=refusal.code, done=False)
            declined = self._ask_user(tool, arguments, slug)
            if declined is not None:
                return declined
            with self._after_asking():
                if slug and self._changed_while_asking(slug, source, current):
                    return _error(_CHANGED_WHILE_ASKING, code="page_changed", done=False)
                result = self._result(tool, arguments, write=True)
            out = _bounded(tool, result)
            out["confirmed"] = True
            return out
        token = self.deletes.issue(
            slug or "", current, tool=tool, arguments=arguments, bound=slug is not None
        )
        preview: dict[str, Any] = {"tool": tool, "arguments": _clip_arguments(arguments)}
        if replaces:
            preview["replaces"] = _REPLACES.get(tool, "this call replaces what is stored")
        if slug:
            preview["page"] = (
                {"slug": slug, "exists": False}
                if current is None
                else {"slug": slug, "exists": True, "updated_at": current.updated_at or None}
            )
        return {
            "preview": preview,
            "confirm": token,
            "expires_in_s": int(self.deletes.ttl_s),
            "next": "to go ahead, call gbrain_call again with the same tool and arguments "
            "and confirm=<token>; nothing has been done yet",
        }

    def _changed_while_asking(self, slug: str, source: Any, before: Revision | None) -> bool:
        """Whether the page moved while a person was asked (minutes may pass)."""
        return self.approve is not None and self._state(slug, source) != before

    def _after_asking(self) -> AbstractContextManager[None]:
        """The call's own deadline again once a person was asked (their time is theirs)."""
        return call_deadline(self.budget_s, fresh=self.approve is not None)

    def _ask_user(
        self, tool: str, arguments: Mapping[str, Any], slug: str | None
    ) -> dict[str, Any] | None:
        """``None`` to go ahead; an error when the user (or a failed prompt) said no."""
        if self.approve is None:
            return None
        target = f" {slug}" if slug else ""
        what = one_line(f"gbrain {tool}{target}", 200)
        why = one_line(
            f"The assistant asks to run GBrain's {tool} on{target or ' the brain'} "
            f"with {json.dumps(_clip_arguments(arguments), ensure_ascii=False)[:300]}",
            400,
        )
        try:
            verdict = self.approve(what, why)
        except Exception as exc:
            log.warning("asking the user failed (%s); nothing done", type(exc).__name__)
            verdict = False
        if verdict is False:
            return _error(
                "the user did not approve this call; nothing was done", code="declined", done=False
            )
        return None

    # -- writes ---------------------------------------------------------------------------

    def _put_page(self, args: dict[str, Any]) -> dict[str, Any]:
        refusal = self._write_refusal()
        if refusal is not None:
            return refusal
        slug = safe_slug(args["slug"])
        if slug is None:
            return _error("slug must be lower-case '/'-separated segments, e.g. notes/idea")
        content = args["content"]
        if not content.strip():
            return _error("content is empty; nothing was queued")
        if self.outbox is None:
            return _error("the write queue is not available in this session")
        entry, new = self.outbox.enqueue(self.settings.mcp_url, slug, content)
        if self.worker is not None:
            self.worker.wake()
        return {
            "queued": True,
            "id": entry.op_id,
            "slug": slug,
            "status": "queued" if new else "already queued",
            "note": "sent in the background; a failure is reported on your next gbrain_* call",
        }

    def _revision(self, data: Mapping[str, Any]) -> Revision:
        return Revision(
            source_id=str(data.get("source_id") or "default"),
            content_hash=str(data.get("content_hash") or ""),
            updated_at=str(data.get("updated_at") or ""),
        )

    def _delete_page(self, args: dict[str, Any]) -> dict[str, Any]:
        refusal = self._write_refusal()
        if refusal is not None:
            return refusal
        slug = safe_slug(args["slug"])
        if slug is None:
            return _error("slug must be lower-case '/'-separated segments")
        token = args.get("confirm")
        if token:
            return self._confirm_delete(slug, token)
        data, _ = self._page(slug)
        text = "".join(
            p for p in (data.get("compiled_truth"), data.get("timeline")) if isinstance(p, str)
        )
        preview: dict[str, Any] = {
            "slug": slug,
            "title": server_text(data.get("title"), 160),
            "source_id": safe_source_id(data.get("source_id")) or "default",
            "size_chars": len(text),
            "updated_at": server_text(data.get("updated_at"), 40) or None,
        }
        catalog = self.catalog()
        for tool, key in (("get_links", "links_out"), ("get_backlinks", "links_in")):
            if catalog.has(tool):
                preview[key] = self._link_list(tool, slug)
        confirm = self.deletes.issue(slug, self._revision(data))
        return {
            "preview": preview,
            "confirm": confirm,
            "expires_in_s": int(self.deletes.ttl_s),
            "next": "to delete, call gbrain_delete_page again with this slug and confirm=<token>",
        }

    def _link_list(self, tool: str, slug: str) -> dict[str, Any]:
        try:
            data = self._result(tool, {"slug": slug}).data
        except GBrainError:
            return {"count": None}
        rows = data if isinstance(data, list) else []
        names = []
        for row in rows:
            if isinstance(row, dict):
                other = row.get("to_slug") or row.get("from_slug") or row.get("slug")
                ok = prompt_slug(other)
                if ok and ok != slug:
                    names.append(ok)
        return {"count": len(rows), "slugs": names[:MAX_LINKS]}

    def _confirm_delete(self, slug: str, token: str) -> dict[str, Any]:
        try:
            data, _ = self._page(slug)
            current: Revision | None = self._revision(data)
        except ToolError as exc:
            if exc.code != "page_not_found":
                raise
            current = None
        try:
            revision = self.deletes.redeem(token.strip(), slug, current)
        except Refusal as refusal:
            return _error(str(refusal), code=refusal.code, deleted=False)
        declined = self._ask_user("delete_page", {"slug": slug}, slug)
        if declined is not None:
            declined["deleted"] = False
            return declined
        with self._after_asking():
            if self._changed_while_asking(slug, None, current):
                return _error(_CHANGED_WHILE_ASKING, code="page_changed", deleted=False)
            catalog = self.catalog()
            call: dict[str, Any] = {"slug": slug}
            if revision is not None and catalog.declares("delete_page", "source_id"):
                call["source_id"] = revision.source_id
            result = self._result("delete_page", call, write=True)
        data = result.data if isinstance(result.data, dict) else {}
        return {
            "deleted": True,
            "slug": slug,
            "status": server_text(data.get("status"), 40) or "deleted",
            "recoverable_until": server_text(data.get("recoverable_until"), 80) or None,
        }


def _param_summary(schema: Mapping[str, Any]) -> dict[str, str]:
    """``{name: type}`` with a ``*`` on required names, to fix arguments in one retry."""
    props = schema.get("properties")
    required = schema.get("required")
    need = set(required) if isinstance(required, list) else set()
    out: dict[str, str] = {}
    if isinstance(props, dict):
        for name, sub in list(props.items())[:30]:
            kind = sub.get("type") if isinstance(sub, dict) else None
            shown = kind if isinstance(kind, str) else "any"
            out[str(name) + ("*" if name in need else "")] = shown
    return out


def _clip_arguments(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """Arguments as the preview shows them: long strings cut, so a preview stays small."""
    out: dict[str, Any] = {}
    for key, value in list(arguments.items())[:20]:
        out[str(key)[:64]] = (
            value[:200] + "…" if isinstance(value, str) and len(value) > 200 else value
        )
    return out


def server_notes(result: ToolResult) -> list[str]:
    """What the server said beside its answer: ``_meta.warnings`` and extra text blocks.

    Untrusted text, so one line each, capped, at most ``MAX_NOTES``.
    """
    notes: list[str] = []
    for warning in result.warnings:
        parts = [
            f"{k}={server_text(str(v), 80)}"
            for k, v in list(warning.items())[:4]
            if isinstance(v, str | int | float | bool) and server_code(k) is not None
        ]
        if parts:
            notes.append(one_line("warning: " + ", ".join(parts), 200))
    for note in result.notes:
        line = server_text(note, 200)
        if line and line not in notes:
            notes.append(line)
    return notes[:MAX_NOTES]


def _bounded(tool: str, result: ToolResult) -> dict[str, Any]:
    """The tool's data when it fits ``MAX_CALL_CHARS``, else its start as text, marked."""
    text = json.dumps(result.data, ensure_ascii=False, separators=(",", ":"), default=str)
    notes = server_notes(result)
    extra: dict[str, Any] = {"server_notes": notes} if notes else {}
    if len(text) <= MAX_CALL_CHARS:
        return {"tool": tool, "result": result.data, **extra}
    return {
        "tool": tool,
        "result_text": text[:MAX_CALL_CHARS],
        "truncated": True,
        "note": f"result cut to {MAX_CALL_CHARS} of {len(text)} characters; "
        "narrow the call (limit, filters) for the rest",
        **extra,
    }
