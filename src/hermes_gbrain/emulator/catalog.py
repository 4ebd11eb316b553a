"""GBrain 0.46.28's ``tools/list`` catalog as data: names, scopes and parameter schemas.

Tool names, their order, parameter names, types, enums and required lists, annotation hints and
scopes are those of GBrain 0.46.28 (67 tools for ``read``, 89 for ``read write``, 115 for
``admin``). Every description, and every annotation title, is our own wording.

Scopes of the tools a read token cannot see follow GBrain's operation definitions
(``src/core/ops/*.ts``, summarised in its ``docs/TOOL_CATALOG.md``): 22 need ``write``,
``sources_add`` and ``sources_remove`` need ``sources_admin``, and the other 24 need ``admin``.

This module holds data only; :mod:`hermes_gbrain.emulator.tools` binds handlers and dispatches.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

READ = "read"
WRITE = "write"
ADMIN = "admin"
SOURCES_ADMIN = "sources_admin"


@dataclass(frozen=True)
class Param:
    """One input parameter: JSON type, our description, required flag, enum and array items."""

    name: str
    type: str  # "string" | "number" | "boolean" | "array" | "object"
    description: str
    required: bool = False
    enum: tuple[str, ...] | None = None
    items: str = "string"  # element type when ``type`` is "array"
    items_description: str | None = None

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "description": self.description}
        if self.type == "array":
            item: dict[str, Any] = {"type": self.items}
            if self.items_description:
                item["description"] = self.items_description
            out["items"] = item
        if self.enum:
            out["enum"] = list(self.enum)
        return out


@dataclass(frozen=True)
class ToolSpec:
    """One ``tools/list`` entry without its handler."""

    name: str
    scope: str
    description: str
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


def _n(name: str, text: str, *, required: bool = False) -> Param:
    return Param(name, "number", text, required)


def _b(name: str, text: str) -> Param:
    return Param(name, "boolean", text)


def _o(name: str, text: str, *, required: bool = False) -> Param:
    return Param(name, "object", text, required)


def _a(
    name: str,
    text: str,
    *,
    required: bool = False,
    items: str = "string",
    items_text: str | None = None,
) -> Param:
    return Param(name, "array", text, required, items=items, items_description=items_text)


def _t(
    name: str,
    scope: str,
    text: str,
    *params: Param,
    annotations: dict[str, Any] | None = None,
) -> ToolSpec:
    return ToolSpec(name, scope, text, params, annotations)


# Parameters many tools share ---------------------------------------------------------------
_SLUG = _s("slug", "Page slug, e.g. people/jane-doe.", required=True)
_SOURCE = _s("source_id", "Source to read from; '__all__' means every source you may read.")
_WRITE_SOURCE = _s("source_id", "Source holding the page (your write source).")
_LIMIT = _n("limit", "Maximum rows to return (at most 100).")
_OFFSET = _n("offset", "Rows to skip, for paging.")
_TYPES = _a("types", "Only return pages whose type is in this list.")
_SNIPPET = _n("snippet_chars", "Cut each chunk_text to this many characters (0 = whole chunk).")
_BUDGET = _n("budget_tokens", "Token budget for the answer.")
_SESSION = _s("session_id", "Opaque session id.")
_PRIVATE = _b("include_private", "Ignored for remote callers.")
_JOB_ID = _n("id", "Numeric id of the job.", required=True)
_TAKE_KINDS = ("fact", "take", "bet", "hunch")
_ROW = _n("row_num", "Row number of the take on its page (see takes_list).", required=True)
_SYMBOL = _s("symbol", "Code symbol name, bare or qualified.", required=True)
_CODE_SOURCE = _s("source_id", "Source to search; '__all__' means every source you may read.")
_ALL_SOURCES = _b("all_sources", "Search every source you may read (same as source_id '__all__').")
_LANG = _s("lang", "Only code in this programming language, e.g. python.")
_ENTITY_SLUG = _s("entity", "Entity page slug, e.g. people/jane-doe.", required=True)
_DEPTH_CAP = _n("max_nodes", "Most nodes to return (default 200).")
_EXACT = _b("exact", "Treat the symbol as an exact qualified name.")
_LEVELS = ("off", "on", "strong")
_READ_ONLY = {"readOnlyHint": True}

#: The ``fields`` parameter newer GBrain adds to ``search`` (the emulator's lean mode offers it).
LEAN_FIELDS = _s(
    "fields",
    "'lean' returns slim rows (slug, title, type, source, score, evidence).",
    enum=("full", "lean"),
)

# fmt: off
CATALOG: tuple[ToolSpec, ...] = (
    _t("remember", WRITE, "Save one fact, with where it came from, to the brain's durable memory.",
       _s("fact", "One claim to store.", required=True),
       _s("provenance", "Where the fact came from, in free text (at most 500 characters).",
          required=True),
       _s("ttl", "When the fact lapses: a duration such as 30d or 12h, or an ISO timestamp."),
       _s("entity", "Name or slug of the person, company or project the fact is about."),
       _s("kind", "What sort of fact this is (default fact).",
          enum=("event", "preference", "commitment", "belief", "fact")),
       _s("visibility", "world lets remote agents read it back; private keeps it local.",
          enum=("world", "private")),
       annotations={"title": "remember a fact", "idempotentHint": True}),
    _t("entity", READ,
       "Look up one person, company or project card by name, alias or slug; a miss is"
       " found:false with suggestions, not an error.",
       _s("name", "Name, alias or slug to look up.", required=True),
       annotations={"title": "entity card lookup", **_READ_ONLY}),
    _t("synthesize", READ,
       "Answer a broad question by reasoning over many pages with a language model; slow and"
       " costly.",
       _s("question", "Broad question to answer from many pages.", required=True),
       _s("since", "Start of the time window (ISO date or timestamp)."),
       _s("until", "End of the time window (ISO date or timestamp)."),
       annotations={"title": "synthesize an answer (slow, uses an LLM)", **_READ_ONLY}),
    _t("forget", WRITE, "Expire a remembered fact by its fact id; repeating the call is harmless.",
       _s("id", "Fact id returned by remember or recall, never a page slug.", required=True),
       _s("reason", "Why the fact is forgotten, kept in its audit trail."),
       annotations={"title": "forget a fact", "destructiveHint": True, "idempotentHint": True}),
    _t("get_page", READ, "Read one page by slug: body, timeline, frontmatter, tags and dates.",
       _SLUG,
       _b("fuzzy", "Resolve a partial slug to the closest page."),
       _b("include_content", "Also return the page as canonical markdown."),
       _b("include_deleted", "Also find soft-deleted pages."),
       _SOURCE),
    _t("put_page", WRITE, "Create or replace a page from markdown with optional YAML frontmatter.",
       _SLUG,
       _s("content", "Full page markdown, frontmatter included.", required=True),
       _b("allow_empty", "Permit writing a page with no body."),
       _s("source_kind", "Where the content came from; over MCP the server stamps its own."),
       _s("source_uri", "Link to the original content; over MCP the server stores null."),
       _s("ingested_via", "Name of the tool that wrote the page; over MCP the server stamps"
          " its own.")),
    _t("delete_page", WRITE, "Soft-delete a page; it can be restored for 72 hours.",
       _SLUG, _WRITE_SOURCE),
    _t("list_pages", READ,
       "List pages with filters, newest first by default; remote callers get at most 100 rows per"
       " call, so page with offset or updated_after.",
       _s("type", "Only pages of this type."),
       _s("tag", "Only pages with this tag."),
       _LIMIT,
       _OFFSET,
       _s("updated_after", "Only pages updated after this ISO date or timestamp."),
       _s("sort", "Row order.", enum=("updated_desc", "updated_asc", "created_desc", "slug")),
       _b("include_deleted", "Include soft-deleted pages."),
       _SOURCE),
    _t("restore_page", WRITE, "Bring back a soft-deleted page.", _SLUG, _WRITE_SOURCE),
    _t("capture", WRITE,
       "Save a note through put_page; without a slug it lands at inbox/<date>-<hash of the"
       " text>, so the same text again is skipped.",
       _s("content", "The note text.", required=True),
       _s("slug", "Slug to use instead of a generated inbox one."),
       _s("type", "Page type for the note (default note).")),
    _t("fetch", READ, "Fetch a search result by its id as canonical markdown with a stable URL.",
       _s("id", "The id field of a search row (the page slug).", required=True)),
    _t("search", READ,
       "Keyword search over page titles, slugs and text; returns ranked chunks with scores and"
       " evidence labels.",
       _s("query", "Words to look for; names and exact terms work best.", required=True),
       _LIMIT,
       _OFFSET,
       _s("mode", "Search mode; remote callers always get the brain's configured mode."),
       _TYPES,
       _SNIPPET),
    _t("query", READ,
       "Search with more controls (sources, dates, detail); rows look like search rows without"
       " id.",
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
       _LANG,
       _s("symbol_kind", "Only code chunks of this symbol kind, such as function or class."),
       _s("near_symbol", "Qualified code symbol to anchor retrieval on."),
       _n("walk_depth", "Code-graph hops to expand from anchor symbols (0 to 2)."),
       _s("salience", "How strongly to favour emotionally weighted, take-rich pages.",
          enum=_LEVELS),
       _s("recency", "How strongly to favour recently dated pages.", enum=_LEVELS),
       _s("since", "Only pages dated on or after this ISO date."),
       _s("until", "Only pages dated on or before this ISO date."),
       _SOURCE,
       _s("cross_modal", "Search text, image embeddings, both, or let the server pick.",
          enum=("text", "image", "both", "auto")),
       _s("embedding_column", "Embedding column to run the vector search against."),
       _b("adaptive_return", "Return a small, intent-sized set instead of the full top list."),
       _b("autocut", "Stop the list where relevance drops off sharply."),
       _b("relational", "Also follow entity relationships, for who-knows-whom questions.")),
    _t("search_stats", ADMIN,
       "Search telemetry over a window: cache hits, mode mix, budget drops and score drift.",
       _n("days", "Window length in days (1 to 365, default 7).")),
    _t("search_modes", READ, "Show the active search mode and the settings it resolves to."),
    _t("search_tune", ADMIN,
       "Suggested search setting changes drawn from the last week of telemetry; changes"
       " nothing."),
    _t("cache_stats", ADMIN, "Settings, row counts and hits of the semantic query cache."),
    _t("search_by_image", READ,
       "Find image chunks that look like a given image, optionally narrowed by words.",
       _s("image_path", "Path of an image file on the brain host (local callers only)."),
       _s("image_url", "http(s) URL of the image to fetch."),
       _s("image_data", "Base64 image bytes (PNG, JPEG or WebP)."),
       _s("image_mime", "MIME type hint for the image."),
       _s("query", "Words to narrow the image results."),
       _LIMIT,
       _OFFSET,
       _SOURCE),
    _t("add_tag", WRITE, "Add a tag to a page; adding it twice is harmless.",
       _SLUG, _s("tag", "Tag text, e.g. follow-up.", required=True)),
    _t("remove_tag", WRITE, "Take one tag off a page.",
       _SLUG, _s("tag", "Tag to remove, exactly as get_tags lists it.", required=True)),
    _t("get_tags", READ, "Tags of one page.", _SLUG),
    _t("add_link", WRITE, "Create a typed link from one page to another.",
       _s("from", "Slug of the link's origin page.", required=True),
       _s("to", "Slug of the link's target page.", required=True),
       _s("link_type", "Kind of relationship, e.g. works_at."),
       _s("context", "Short text explaining the link."),
       _s("link_source", "Provenance label for the link (default manual).")),
    _t("remove_link", WRITE,
       "Delete the links between two pages, optionally only one type or provenance.",
       _s("from", "Slug of the link's origin page.", required=True),
       _s("to", "Slug of the link's target page.", required=True),
       _s("link_type", "Only remove links of this type."),
       _s("link_source", "Only remove links with this provenance label.")),
    _t("get_links", READ, "Links going out of one page.", _SLUG),
    _t("get_backlinks", READ, "Links pointing at one page from other pages.", _SLUG),
    _t("list_link_sources", READ, "Link provenance labels used in the brain, with edge counts."),
    _t("traverse_graph", READ,
       "Walk the link graph from a page; returns nodes, or edges when filtered by type or"
       " direction.",
       _s("slug", "Slug of the page to start from.", required=True),
       _n("depth", "How many hops to follow (default 5, at most 10)."),
       _s("link_type", "Follow only links of this type."),
       _s("direction", "Which way to follow links (default out).", enum=("in", "out", "both"))),
    _t("add_timeline_entry", WRITE, "Append a dated entry to a page's structured timeline.",
       _SLUG,
       _s("date", "Entry date as YYYY-MM-DD.", required=True),
       _s("summary", "One line on what happened.", required=True),
       _s("detail", "Longer text behind the summary."),
       _s("source", "Where the entry came from: a page slug or a URL.")),
    _t("get_timeline", READ, "Timeline entries of one page, optionally within a date window.",
       _SLUG,
       _s("after", "Only entries on or after this YYYY-MM-DD date."),
       _s("before", "Only entries on or before this YYYY-MM-DD date."),
       _s("since", "Same as after."),
       _s("until", "Same as before."),
       _n("limit", "Maximum entries to return.")),
    _t("get_stats", ADMIN, "Counts of pages, chunks, links, tags and timeline entries."),
    _t("get_health", ADMIN, "Brain health: coverage, orphans, dead links and a summary score."),
    _t("run_doctor", ADMIN, "Run the health checks and return their findings as structured data."),
    _t("get_versions", READ, "Saved versions of one page, newest first.", _SLUG),
    _t("revert_version", WRITE, "Roll a page back to one of its saved versions.",
       _SLUG, _n("version_id", "The id field of a get_versions entry.", required=True)),
    _t("get_brain_identity", READ, "Server version, storage engine and page and chunk counts."),
    _t("quarantine_list", ADMIN,
       "Pages hidden by quarantine, and optionally pages flagged for their content.",
       _b("include_flagged", "Also list content-flagged pages."),
       _n("limit", "Maximum rows (default 200)."),
       _n("max_scan", "Maximum pages to scan (default 20000).")),
    _t("list_skills", READ,
       "Skills the brain publishes: prose how-tos for tasks done with this server's tools.",
       _s("section", "Only skills in this routing section.")),
    _t("get_skill", READ, "The full instructions of one skill.",
       _s("name", "Skill name as list_skills gives it.", required=True),
       _s("source_id", "Source whose brain-resident skill pack to read it from.")),
    _t("list_brain_skillpack", READ, "Skill packs stored in the brain, per source, with skills."),
    _t("get_status_snapshot", ADMIN,
       "Sync freshness, last maintenance cycle, queue depths and worker liveness."),
    _t("put_raw_data", WRITE, "Store a raw provider payload alongside a page.",
       _SLUG,
       _s("source", "Provider the data came from.", required=True),
       _o("data", "The payload as a JSON object.", required=True)),
    _t("get_raw_data", READ, "Raw provider payloads stored with a page.",
       _SLUG, _s("source", "Only payloads from this provider.")),
    _t("resolve_slugs", READ, "Slugs that match a partial slug or title.",
       _s("partial", "Part of a slug or title.", required=True)),
    _t("get_chunks", READ, "The indexed chunks of one page, as search ranks them.", _SLUG),
    _t("log_ingest", WRITE, "Record one ingestion event in the brain's ingest log.",
       _s("source_type", "Kind of source, e.g. email or meeting.", required=True),
       _s("source_ref", "URL, message id or path of the ingested item.", required=True),
       _a("pages_updated", "Pages (slugs) that this ingest touched.", required=True),
       _s("summary", "One line on what came in.", required=True)),
    _t("get_ingest_log", READ, "Recent entries of the ingest log.",
       _n("limit", "Number of entries to return (default 20).")),
    _t("get_usage", ADMIN, "Language-model token usage and estimated cost over a window.",
       _n("days", "Window length in days (default 30, at most 365).")),
    _t("submit_job", ADMIN, "Queue a background job.",
       _s("name", "Job type, e.g. sync or embed.", required=True),
       _o("data", "Job payload."),
       _s("queue", "Queue to put the job on (default: default)."),
       _n("priority", "Priority; 0 runs first."),
       _n("max_attempts", "Tries before the job is given up (default 3)."),
       _n("delay", "Milliseconds to wait before the job may run."),
       _n("timeout_ms", "Wall-clock limit for one run, in milliseconds."),
       _n("lock_duration_ms", "Lock lease for one run, in milliseconds.")),
    _t("get_job", ADMIN, "Status and details of one job.", _JOB_ID),
    _t("list_jobs", ADMIN, "Background jobs, filtered by status, queue or type.",
       _s("status", "Only jobs in this state, e.g. failed."),
       _s("queue", "Only jobs on this queue."),
       _s("name", "Only jobs of this type."),
       _n("limit", "Maximum rows (default 50).")),
    _t("cancel_job", ADMIN, "Cancel a job that is still waiting, running or delayed.", _JOB_ID),
    _t("retry_job", ADMIN, "Give a failed or dead job another attempt.", _JOB_ID),
    _t("get_job_progress", ADMIN, "Progress report of a running job.", _JOB_ID),
    _t("pause_job", ADMIN, "Hold a waiting, active or delayed job until it is resumed.", _JOB_ID),
    _t("resume_job", ADMIN, "Let a paused job run again.", _JOB_ID),
    _t("replay_job", ADMIN, "Run a finished job again, optionally with changed data.",
       _n("id", "Id of the job to replay.", required=True),
       _o("data_overrides", "Fields to change in the job's data.")),
    _t("send_job_message", ADMIN, "Post a message to a running job's inbox.",
       _n("id", "Id of the job to message.", required=True),
       _o("payload", "Message body, any JSON object.", required=True),
       _s("sender", "Who the message is from (default admin).")),
    _t("get_job_stats", ADMIN,
       "Queue statistics: counts by status and type, plus a stalled-worker check.",
       _s("queue", "Queue to check for stalls (default: default)."),
       _n("since_hours", "Window in hours for the per-type counts (default 24).")),
    _t("find_orphans", READ, "Pages that no other page links to.",
       _b("include_pseudo", "Also include generated and pseudo pages.")),
    _t("get_calibration_profile", READ, "The current calibration profile of a belief holder.",
       _s("holder", "Holder slug, e.g. self or people/jane-doe.")),
    _t("takes_list", READ,
       "Takes (typed, weighted, attributed claims), filtered by page, holder or kind.",
       _s("page_slug", "Only takes on this page."),
       _s("holder", "Only takes held by this holder."),
       _s("kind", "Only takes of this kind: fact, take, bet or hunch."),
       _b("active", "Only current takes (default true)."),
       _b("resolved", "true for resolved bets only, false for unresolved ones only."),
       _s("sort_by", "Order by weight, since_date or created_at."),
       _n("limit", "Maximum rows (default 100)."),
       _OFFSET),
    _t("takes_search", READ, "Fuzzy text search over the claims of takes.",
       _s("query", "Words to match against claim text.", required=True),
       _n("limit", "Maximum results (default 30).")),
    _t("think", READ, "Answer a question from pages, takes and links together, with citations.",
       _s("question", "What to reason about.", required=True),
       _s("anchor", "Slug whose link neighbourhood to pull in."),
       _n("rounds", "Number of retrieval passes (default 1)."),
       _b("save", "Store the answer as a page (local callers only)."),
       _b("take", "Add the answer as a take on the anchor page."),
       _s("model", "Language model to use."),
       _s("since", "Start of the time window (YYYY-MM or YYYY-MM-DD)."),
       _s("until", "End of the time window.")),
    _t("takes_scorecard", READ, "Accuracy and Brier score of resolved bets.",
       _s("holder", "Only this holder's bets."),
       _s("domain_prefix", "Only bets on pages under this slug prefix."),
       _s("since", "Only bets since this date (YYYY-MM-DD)."),
       _s("until", "Only bets up to this date (YYYY-MM-DD).")),
    _t("takes_calibration", READ,
       "Calibration curve of resolved bets: stated weight against observed accuracy.",
       _s("holder", "Only this holder's bets."),
       _n("bucket_size", "Width of each weight bucket, above 0 and up to 1 (default 0.1).")),
    _t("takes_add", WRITE, "Record a take on a page, with who holds it and how firmly.",
       _s("slug", "Slug of an existing page to hold the take.", required=True),
       _s("claim", "One-line statement of the claim.", required=True),
       _s("kind", "Type of claim.", required=True, enum=_TAKE_KINDS),
       _s("holder", "Who holds the belief: world, brain or an entity slug.", required=True),
       _n("weight", "Confidence from 0 to 1 (default 0.5)."),
       _s("source", "Where the claim came from."),
       _s("since", "When the holder came to believe it (YYYY-MM or YYYY-MM-DD).")),
    _t("takes_update", WRITE, "Change a take's weight, source or start date.",
       _s("slug", "Slug of the page holding the take.", required=True),
       _ROW,
       _n("weight", "New confidence from 0 to 1."),
       _s("source", "Replacement source text."),
       _s("since", "Corrected start date (YYYY-MM or YYYY-MM-DD).")),
    _t("takes_resolve", WRITE, "Settle a take as correct, incorrect, partial or unresolvable.",
       _s("slug", "Slug of the page holding the take.", required=True),
       _ROW,
       _s("quality", "The verdict.", required=True,
          enum=("correct", "incorrect", "partial", "unresolvable")),
       _s("evidence", "What settled it."),
       _n("value", "Measured value, for a quantitative claim."),
       _s("unit", "Unit of value, e.g. usd or pct."),
       _s("resolved_by", "Who settled it; the server stamps this for remote callers.")),
    _t("takes_supersede", WRITE,
       "Replace a take with a new claim, keeping the old one struck through.",
       _s("slug", "Slug of the page holding the take.", required=True),
       _ROW,
       _s("claim", "Text of the replacement claim.", required=True),
       _s("kind", "Kind of the replacement (default: the old take's).", enum=_TAKE_KINDS),
       _s("holder", "Holder of the replacement (default: the old take's)."),
       _n("weight", "Confidence of the replacement, from 0 to 1."),
       _s("source", "Where the replacement claim came from."),
       _s("since", "Start date of the replacement.")),
    _t("whoami", READ,
       "Describe the calling credential: transport, name, scopes, expiry and sources."),
    _t("sources_add", SOURCES_ADMIN, "Register a new source from a local path or a git URL.",
       _s("id", "New source id: lowercase letters, digits and dashes.", required=True),
       _s("name", "Human-readable label; the id is used when omitted."),
       _s("path", "Local directory holding the source."),
       _s("url", "HTTPS git URL to clone."),
       _b("federated", "Include the source in default cross-source searches."),
       _s("clone_dir", "Where to clone a source given by url.")),
    _t("sources_list", READ, "Sources in this brain with their page counts.",
       _b("include_archived", "Also list archived sources.")),
    _t("sources_remove", SOURCES_ADMIN, "Permanently delete a source and everything in it.",
       _s("id", "Id of the source to remove, as sources_list shows it.", required=True),
       _b("confirm_destructive", "Needed when the source still holds pages."),
       _b("dry_run", "Report what would go without removing anything."),
       _b("keep_storage", "Leave the cloned directory on disk.")),
    _t("sources_status", READ, "Diagnostics for one source, including the state of its clone.",
       _s("id", "Source id as sources_list shows it.", required=True)),
    _t("request_tools", READ,
       "Browse this server's tool catalog, fetch schemas by name, or widen your client's tool"
       " surface.",
       _a("tools", "Tool names whose full schemas to return.", items_text="A tool name."),
       _s("surface", "Tool surface to keep for your client from now on.",
          enum=("verbs", "starter", "full"))),
    _t("get_recent_salience", READ,
       "Recently touched pages ranked by activity and emotional weight.",
       _n("days", "How many days back to look (default 14)."),
       _n("limit", "Maximum rows (default 20)."),
       _s("slugPrefix", "Only slugs starting with this prefix."),
       _s("recency_bias", "How much recency counts in the ranking.", enum=("flat", "on"))),
    _t("find_anomalies", READ, "Tags or page types whose recent activity stands out.",
       _s("since", "Day to examine, YYYY-MM-DD (default today)."),
       _n("lookback_days", "Length of the baseline period in days (default 30)."),
       _n("sigma", "Standard deviations that count as unusual (default 3).")),
    _t("chronicle_day", READ, "Events and timeline entries of one day or its week, in order.",
       _s("date", "The day, YYYY-MM-DD.", required=True),
       _b("week", "Cover the whole ISO week containing the day."),
       _n("limit", "Maximum rows (default 200)."),
       _b("narrative", "Also return a prose account of the days.")),
    _t("chronicle_on_this_day", READ, "Events from the same calendar day in earlier years.",
       _s("date", "Day whose month and day to match, YYYY-MM-DD (default today)."),
       _n("limit", "Maximum rows (default 50).")),
    _t("chronicle_since", READ, "Events and timeline entries from a date onward.",
       _s("date", "First day to include, YYYY-MM-DD.", required=True),
       _s("kind", "Only events of this kind, e.g. commitment."),
       _n("limit", "Maximum rows (default 200).")),
    _t("chronicle_last_seen", READ, "When an entity last turned up in a timeline or an event.",
       _ENTITY_SLUG,
       _s("asof", "Day to count days_ago from (default today).")),
    _t("ontology_get", READ,
       "An entity's current value for each tracked dimension, with source and confidence.",
       _ENTITY_SLUG,
       _s("asof", "Show the values as they stood on this YYYY-MM-DD day."),
       _n("min_confidence", "Drop observations below this confidence (0 to 1)."),
       _b("include_quarantined", "Also show quarantined new dimensions.")),
    _t("ontology_propose", WRITE,
       "Record that an entity has a value for a dimension, with source and confidence.",
       _s("entity", "Slug of the entity page.", required=True),
       _s("dimension", "Dimension name, e.g. role.", required=True),
       _s("value", "The value, e.g. advisor.", required=True),
       _n("confidence", "Confidence from 0 to 1 (default 0.7)."),
       _s("source", "Page slug or URI backing the observation (default manual)."),
       _s("valid_from", "When the value started to hold (default now)."),
       _s("valid_to", "When the value stopped holding; omit while it still holds."),
       _s("visibility", "Who may read it (default private).", enum=("private", "world"))),
    _t("ontology_dimensions", READ, "Dimensions tracked across entities, with usage counts."),
    _t("ontology_conflicts", READ, "Dimensions on which sources currently disagree.",
       _n("min_confidence", "Ignore observations below this confidence (0 to 1).")),
    _t("volunteer_chronicle", READ,
       "Recent timeline plus current dimension values of chosen entities, for orientation.",
       _n("days", "Days of timeline to include (default 7)."),
       _s("entities", "Entity slugs to show dimension values for, comma-separated."),
       _n("limit", "Cap on timeline rows (default 50).")),
    _t("volunteer_context", READ,
       "Pages relevant to a conversation window, offered without being asked for.",
       _s("window", "Recent turns as lines starting with user: or assistant:."),
       _s("prior_context", "Context already shown; pages named in it are not offered again."),
       _n("max_pages", "Most pages to offer (default 3, at most 5)."),
       _n("min_confidence", "Match confidence threshold from 0 to 1 (default 0.7)."),
       _s("session_id", "Caller's session id, for attribution."),
       _n("turn", "Caller's turn number, for attribution."),
       _b("stats", "Return offered-versus-used statistics instead."),
       _n("days", "Statistics window in days (default 30).")),
    _t("extract_entities", WRITE,
       "Create or update stub pages for the people and companies named in a text.",
       _s("text", "Text to scan for names.", required=True),
       _s("source_slug", "Page the text was taken from (its slug).", required=True),
       _b("trusted_extraction", "Skip the review quarantine (local callers only).")),
    _t("extraction_pending", READ, "Auto-extracted entity stubs waiting for review.",
       _n("limit", "Maximum rows (default 100)."),
       _OFFSET),
    _t("entity_identity_list", READ,
       "Groups of pages in different sources that describe the same entity.",
       _s("entity_id", "Only this identity group."),
       _s("slug", "Only groups that contain this page.")),
    _t("extract_facts", WRITE,
       "Pull facts out of a conversation turn into hot memory using a language model.",
       _s("turn_text", "The message or text to extract from.", required=True),
       _s("session_id", "Opaque session id stored with each fact."),
       _a("entity_hints", "Entity slugs already known to be involved."),
       _b("is_dream_generated", "Skip extraction, for generated content."),
       _s("valid_from", "When the facts became true, for historical imports."),
       _s("source_slug", "Page or transcript slug the turn belongs to."),
       _s("visibility", "Visibility of the new facts: private (default) or world.")),
    _t("recall", READ, "Saved facts, plus page hits when a query is given.",
       _s("entity", "Only facts about this entity slug."),
       _s("query", "Also search pages for these words."),
       _BUDGET,
       _s("since", "Only facts since this time."),
       _SESSION,
       _b("include_expired", "Also return expired facts."),
       _b("supersessions", "Return only the log of superseded facts."),
       _LIMIT,
       _s("grep", "Keep only facts whose text contains this."),
       _b("include_pending", "Also count facts waiting for consolidation."),
       annotations={"title": "recall saved memory", **_READ_ONLY}),
    _t("context_pack", READ,
       "Cards for up to eight standing entities, pre-rendered for a session start.",
       _s("entities", "Comma-separated names or slugs (at most 8).", required=True),
       _BUDGET,
       _s("since", "Only thread events after this time."),
       _SESSION,
       _PRIVATE,
       annotations={"title": "context pack", **_READ_ONLY}),
    _t("delta", READ, "Pages changed since a point in time, with a cursor for the next call.",
       _s("since", "ISO timestamp to start after."),
       _s("since_slug", "Slug from next_cursor, to resume within one timestamp."),
       _s("entities", "Comma-separated entity scope (at most 8)."),
       _BUDGET,
       _SESSION,
       _PRIVATE,
       annotations={"title": "changes since", **_READ_ONLY}),
    _t("forget_fact", WRITE, "Strike out a stored fact by its numeric id.",
       _n("id", "Fact id.", required=True),
       _s("reason", "Why, noted beside the struck fact.")),
    _t("find_contradictions", READ,
       "Suspected contradictions found by the latest contradiction probe.",
       _s("slug", "Only pairs involving this slug."),
       _s("severity", "Only findings of this severity.", enum=("low", "medium", "high")),
       _n("limit", "Maximum findings (default 20).")),
    _t("find_experts", READ, "People and companies that know most about a topic.",
       _s("topic", "The topic in plain words."),
       _n("limit", "Maximum results (default 5)."),
       _b("explain", "Show the score breakdown of each result.")),
    _t("find_trajectory", READ, "How an entity's tracked metrics and claims changed over time.",
       _s("entity_slug", "Entity page slug to chart."),
       _s("metric", "Only this metric, e.g. mrr."),
       _s("kind", "Which rows to include (default all).", enum=("metric", "event", "all")),
       _s("since", "Earliest date to include."),
       _s("until", "Latest date to include."),
       _n("limit", "Maximum points (default 100).")),
    _t("code_callers", READ, "Functions that call a code symbol.",
       _SYMBOL, _n("limit", "Maximum edges (default 100)."), _CODE_SOURCE, _ALL_SOURCES),
    _t("code_callees", READ, "Functions a code symbol calls.",
       _SYMBOL, _n("limit", "Maximum edges (default 100)."), _CODE_SOURCE, _ALL_SOURCES),
    _t("code_def", READ, "Where a code symbol is defined.",
       _SYMBOL, _n("limit", "Maximum definition sites (default 20)."), _LANG),
    _t("code_refs", READ, "Every line that mentions a code symbol, comments and imports included.",
       _SYMBOL, _n("limit", "Maximum references (default 50)."), _LANG),
    _t("code_blast", READ,
       "Everything that calls a code symbol, directly or indirectly, grouped by distance.",
       _SYMBOL,
       _n("depth", "Maximum hops (default 5)."),
       _DEPTH_CAP,
       _EXACT,
       _s("source_id", "Source to search.")),
    _t("code_flow", READ, "The call chain from an entry point down to its side effects.",
       _s("entry_point", "Symbol where the flow starts, bare or qualified.", required=True),
       _n("depth", "Maximum hops (default 8)."),
       _DEPTH_CAP,
       _EXACT,
       _s("source_id", "Source to search.")),
    _t("get_active_schema_pack", READ, "Name, version and size of the active schema pack."),
    _t("list_schema_packs", READ, "Installed schema packs, bundled and user-added."),
    _t("schema_stats", READ,
       "Page counts by type, overall and per source, and unused type prefixes."),
    _t("schema_lint", READ, "Check a schema pack for errors and warnings.",
       _s("pack", "Pack to check (default: the active one).")),
    _t("schema_graph", READ, "The active schema pack's types and link verbs as a graph."),
    _t("schema_explain_type", READ, "Resolved settings of one page type in the active pack.",
       _s("type", "Page type name.", required=True)),
    _t("schema_review_orphans", READ, "Pages whose type matches nothing in the active pack.",
       _n("limit", "Maximum pages (default 100).")),
    _t("schema_apply_mutations", ADMIN,
       "Apply a batch of schema pack changes, all of them or none.",
       _s("pack", "Pack to change (not a bundled one).", required=True),
       _a("mutations", "Change records, each with an op field.", required=True, items="object"),
       _b("force", "Take over a stale lock on the pack.")),
    _t("reload_schema_pack", ADMIN, "Drop cached schema packs so they are read again from disk.",
       _s("pack", "Pack to reload (default: all).")),
    _t("run_onboard", ADMIN, "Check brain health and optionally queue fixes.",
       _s("mode", "One of check (default), auto or auto-with-prompt."),
       _n("target_score", "Health score to aim for (default 90)."),
       _n("max_usd", "Spending cap in US dollars for automatic fixes.")),
    _t("run_skillopt", ADMIN, "Optimise one skill's instructions against a benchmark.",
       _s("skill_name", "Skill name in kebab case.", required=True),
       _s("benchmark_path", "Benchmark file (JSONL)."),
       _n("epochs", "Training epochs (default 4)."),
       _n("batch_size", "Examples per step (default 8)."),
       _n("lr", "Step size (default 4)."),
       _n("max_cost_usd", "Spending cap in US dollars (default 5)."),
       _b("no_mutate", "Write a proposal without changing the skill."),
       _b("allow_mutate_bundled", "Allow changing a bundled skill."),
       _s("held_out_path", "Held-out test set (JSONL), needed to change a bundled skill."),
       _b("dry_run", "Estimate the cost only.")),
)
# fmt: on


def tool_specs(*, lean: bool) -> tuple[ToolSpec, ...]:
    """The catalog in ``tools/list`` order; ``lean`` adds newer GBrain's ``fields`` to search."""
    if not lean:
        return CATALOG
    return tuple(
        replace(spec, params=(*spec.params, LEAN_FIELDS)) if spec.name == "search" else spec
        for spec in CATALOG
    )
