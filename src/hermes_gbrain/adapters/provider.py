"""``GBrainMemoryProvider``: Hermes' memory-provider hooks wired to the recall layers.

Thin on purpose (like Hermes' holographic provider): it reads settings where the
profile's secret scope is bound (``initialize``, ``on_turn_start``), freezes them,
and hands them to the recall layer. The full ``gbrain`` provider searches each
non-trivial message in ``on_turn_start`` (which 0.19.0 calls just before
``prefetch``) and ``prefetch`` waits for that search within a budget that follows
the brain's measured distance (``recall.turns``, ``recall.distance``); a search that
misses its turn offers the next turn what the gate passes for that turn's message.
``initialize`` readies the token and tool catalog on a thread of its own (a warm
start). The ``gbrain-pointer`` preset keeps the original behaviour:
``queue_prefetch`` searches the finished turn and the next ``prefetch`` is a lookup.
Trivial turns ("ok", "/help") get nothing and leave any waiting result in place.
Tools live in ``toolwire``; ``on_memory_write`` hands Hermes' own memory writes
to ``memorywire`` (off unless ``GBRAIN_WRITEBACK=memory``).
"""

from __future__ import annotations

import contextvars
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from ..api import UnsupportedError
from ..errors import ConfigError
from ..recall import turns
from ..recall.briefing import Gate
from ..recall.config import PointerConfig, PointerSearch, load_pointer_config
from ..recall.pointers import MAX_LIMIT, QUERY_CHARS, Owner, StoreKey, Ticket, shared_engine
from ..settings import DEFAULT_MCP_URL
from . import compat
from .compat import MemoryProvider
from .healthwire import HealthWire, status_config
from .layers import (
    Layers,
    begin_briefing,
    compose_turn,
    digest_block,
    end_briefing,
    last_pages,
    layer_schema,
    read_layers,
    recent_pages,
    take_briefing,
)
from .memorywire import MemoryWriteBack, writeback_schema
from .toolwire import ProviderTools, tools_schema

__all__ = ["GBrainMemoryProvider", "GBrainPointerProvider", "register", "register_pointer"]

log = logging.getLogger(__name__)

STATUS_LABEL = "GBrain pointers"
STATUS_GLYPH = "🧠"
UNANSWERED_S = 2.0
"""A turn's search still unanswered this long after it was sent, when the process ends,
is reported as a failure (a far brain answers well within it: the turn budget is at most
1 s)."""
_UNSCOPED = (
    "no profile secret scope is bound for this call (multiplexed gateway): "
    "GBrain settings were not read"
)
_NOT_STARTED = "the provider has not been initialized"


class GBrainMemoryProvider(MemoryProvider):
    """GBrain pointers before every non-trivial turn; every fault means no pointers."""

    provider_name = "gbrain"
    layers = True  # digest in the system prompt, first-turn briefing, gated pointers
    offers_tools = True  # the gbrain_* tool bridge (GBRAIN_TOOLS)
    default_budget_ms = turns.DEFAULT_BUDGET_MS  # 0: pointers lag one turn (the preset)
    writes_memory = True  # Hermes' memory-tool writes as GBrain facts (GBRAIN_WRITEBACK)

    def __init__(self) -> None:
        self._tools = ProviderTools(enabled=self.offers_tools)
        self._writeback = MemoryWriteBack()
        self._health = HealthWire()  # notices when memory stops or is back; the last turn
        self._layers: Layers | None = None
        self._prompt_block: tuple[str, str] | None = None  # (session, block), read once
        self._lock = threading.Lock()
        self._config: PointerConfig | None = None
        self._reason = _NOT_STARTED
        self._home: str | None = None
        self._session = ""
        self._context: contextvars.Context | None = None
        self._owner = Owner()
        self._keys: dict[str, None] = {}  # credential keys used, for invalidation
        self._last_key: StoreKey | None = None
        self._last_count = 0
        self._turn = 0  # Hermes' user-turn number, from on_turn_start
        self._current: turns.TurnSearch | None = None  # this turn's own search
        self._late: turns.TurnSearch | None = None  # the last search that missed its turn
        self._earlier: list[str] = []  # the last user messages, in memory only
        self._status_callback: Callable[[str], object] | None = None
        self._search_problem: dict[str, str] = {}  # credential key -> why searches cannot run

    def __repr__(self) -> str:
        return f"{type(self).__name__}(session={self._session!r})"

    @property
    def name(self) -> str:
        return self.provider_name

    # -- configuration (scoped threads only) --------------------------------------------

    def _read_config(self, home: str) -> tuple[PointerConfig | None, str]:
        try:
            lookup = compat.profile_lookup(home)
            config = load_pointer_config(lookup, hermes_home=home)
        except compat.UnscopedSecretError:
            return None, _UNSCOPED
        except ConfigError as exc:  # an unreadable .env: its path and the fix
            return None, f"GBrain settings could not be read: {exc}"
        except Exception as exc:  # a broken .env must not crash Hermes
            return None, f"GBrain settings could not be read ({type(exc).__name__})"
        problem = config.problem()
        return (None, problem) if problem else (config, "")

    def _refresh(self) -> None:
        home = self._home or compat.current_hermes_home()
        config, reason = self._read_config(home)
        with self._lock:
            self._home = home
            self._config, self._reason = config, reason
        if self.layers:
            self._layers = read_layers(home) if config is not None else None

    def is_available(self) -> bool:
        """Configuration check only: no network, never raises."""
        try:
            config, _ = self._read_config(self._home or compat.current_hermes_home())
        except Exception:
            return False
        return config is not None

    def unavailable_reason(self) -> str:
        """Why no pointers arrive ("" when nothing is known to be wrong)."""
        with self._lock:
            config, reason = self._config, self._reason
        if config is None and reason == _NOT_STARTED:
            # Newer Hermes asks right after is_available() said no, on a provider it never
            # initializes: give what that check found, read the same way (no network).
            try:
                config, reason = self._read_config(self._home or compat.current_hermes_home())
            except Exception as exc:
                return f"GBrain settings could not be read ({type(exc).__name__})"
            return reason
        if config is None:
            return reason
        return self._search_problem.get(config.cache_key, "") or self._health.reason()

    def initialize(self, session_id: str, **kwargs: Any) -> None:
        home = kwargs.get("hermes_home")
        self._home = str(home) if home else compat.current_hermes_home()
        self._session = session_id or ""
        self._earlier = []  # a new conversation: nothing of an earlier one in its window
        self._context = contextvars.copy_context()
        callback = kwargs.get("status_callback")
        # Newer Hermes shows recall_status() itself; on 0.19.0 the CLI's status line is
        # the only way to show that memory was recalled this turn.
        self._status_callback = (
            callback if callable(callback) and not compat.HAS_RECALL_STATUS else None
        )
        self._refresh()
        self._health.start(self._home, kwargs)
        self._warm_start()
        self._tools.start(self._home, kwargs)
        if self.writes_memory:
            self._writeback.start(self._home, self._session, kwargs)

    def _warm_start(self) -> None:
        """Token and catalog in place before the first message, on a thread of their own
        so Hermes' start-up does not wait (a one-shot process's first turn is then only
        its search; with the profile's files it costs no request at all)."""
        config = self._config
        if config is None or self._budget(config) <= 0:
            return  # background mode (the preset): no turn ever waits for a search
        try:
            compat.spawn_thread(lambda: turns.warm(config), "gbrain-warm").start()
        except RuntimeError:  # interpreter shutting down: the turn fetches what it needs
            return

    def on_turn_start(self, turn_number: int, message: str, **kwargs: Any) -> None:
        """A new user turn: start the briefing and this message's own search at once."""
        shown_at = time.monotonic()  # the budget counts from here
        self._health.show()  # a late outcome of the previous turn
        self._last_count = 0
        self._current = None
        self._turn = turn_number if isinstance(turn_number, int) and turn_number > 0 else 0
        if self._home is not None:
            self._refresh()
        config = self._config
        if config is None or self._owner.closed or not isinstance(message, str):
            return
        query = compat.user_instruction(message)
        if not query or compat.is_trivial_prompt(query):
            return  # no search; a result still waiting stays for the next real turn
        session = self._session_for(kwargs.get("session_id"))
        context = contextvars.copy_context()
        if self._budget(config) > 0:
            self._current = self._start_current(
                config, session, query, context, shown_at, brief=self.layers
            )
        elif self.layers:
            begin_briefing(
                config, self._layers, session, query, turn=self._turn or 1, context=context
            )

    # -- recall ---------------------------------------------------------------------------

    def _session_for(self, session_id: object) -> str:
        """One session key for briefing, pointers and the record: Hermes' argument when
        it passes one (0.19.0's ``prefetch`` never does), else the instance's session."""
        return session_id if isinstance(session_id, str) and session_id else self._session

    def _budget(self, config: PointerConfig) -> int:
        return turns.budget_ms(config, self.default_budget_ms)

    def _gate(self) -> Gate:
        layers = self._layers
        return layers.briefing.gate if layers is not None else Gate()

    def _start_current(
        self,
        config: PointerConfig,
        session: str,
        query: str,
        context: contextvars.Context | None,
        since: float | None = None,
        *,
        brief: bool = False,
    ) -> turns.TurnSearch | None:
        """Start this message's pointer search; with ``brief``, the session's briefing
        too (if this message starts it), reading the same call's rows."""
        recent = recent_pages(config, session, self._turn)
        window = turns.window_of(self._earlier, query)
        self._earlier = [*self._earlier, query][-turns.WINDOW_TURNS :]
        rows = turns.rows_wanted(config.limit, recent)
        subject = last_pages(config, session, self._turn)
        search = turns.GatedSearch(
            config, self._gate(), window=window, recent=recent, subject=subject
        )
        if brief:
            begin_briefing(
                config,
                self._layers,
                session,
                query,
                turn=self._turn or 1,
                context=context,
                recall=search.share(query, rows),
            )
        return turns.start(
            shared_engine(compat.spawn_thread),
            self._key(config, session),
            query,
            rows=rows,
            search=search,
            owner=self._owner,
            budget_ms=self._budget(config),
            screen=config.screen,
            context=context or self._context,
            outcome=self._outcome_for(config),
            since=since,
        )

    def _key(self, config: PointerConfig, session_id: str) -> StoreKey:
        credential = config.cache_key
        session = session_id or self._session
        last = self._last_key  # the same session turn after turn: no new key per call
        if (
            last is not None
            and last.session == session
            and last.credential == credential
            and last.home == config.home
        ):
            return last
        key = self._last_key = StoreKey(config.home, credential, session)
        if credential not in self._keys:
            self._keys[credential] = None
            while len(self._keys) > 16:
                self._keys.pop(next(iter(self._keys)))
        return key

    def _outcome_for(self, config: PointerConfig) -> Callable[[BaseException | None], None]:
        report = self._health.outcome_for(config)

        def outcome(error: BaseException | None) -> None:
            report(error)
            if isinstance(error, UnsupportedError):
                self._search_problem[config.cache_key] = (
                    f"GBrain cannot run this search: {error} "
                    "(GBRAIN_POINTER_SOURCE is set; no pointers rather than unfiltered ones)"
                )
            elif error is None:
                self._search_problem.pop(config.cache_key, None)

        return outcome

    def _submit(self, config: PointerConfig, key: StoreKey, query: str) -> Ticket | None:
        return shared_engine(compat.spawn_thread).submit(
            key,
            query[:QUERY_CHARS],
            config.limit,
            PointerSearch(config),
            owner=self._owner,
            screen=config.screen,
            context=self._context,
            outcome=self._outcome_for(config),
        )

    def prefetch(self, query: str, *, session_id: str = "", **kwargs: Any) -> str:
        """This turn's block: its own pointers (waited for within the budget) and, on the
        session's first real turn, the briefing. Trivial turns get nothing."""
        config = self._config
        if config is None or self._owner.closed or compat.is_trivial_prompt(query):
            self._last_count = 0
            note = self._reason if config is None else "a trivial message: nothing searched"
            self._health.turn("", session=self._session_for(session_id), note=note)
            return ""
        session = self._session_for(session_id)
        if self.layers:
            block = self._layered_block(config, session, query)
        else:
            block = self._pointer_block(config, session, query)
        self._health.turn(block, session=session)
        self._health.show()
        self._last_count = block.count("\n")
        if self._last_count and self._status_callback is not None:
            self._announce(self._last_count)
        return block

    def _layered_block(self, config: PointerConfig, session: str, query: str) -> str:
        engine = shared_engine(compat.spawn_thread)
        key = self._key(config, session)
        current, self._current = self._current, None
        briefing = take_briefing(config, session)  # waits for the briefing's own budget
        if self._budget(config) > 0:
            if current is None or not current.answers(key, query):
                # No on_turn_start for this message (newer Hermes, a skill turn): start here,
                # the message on_turn_start saw (if any) replaced in the window.
                if current is not None:
                    self._earlier = self._earlier[:-1]
                current = self._start_current(config, session, query, None)
            pointers = turns.collect(engine, current) if current is not None else ""
            pointers = self._with_late(config, key, session, query, pointers, current=current)
            self._late = current if current is not None and current.missed else None
        else:
            pointers = engine.take(key, MAX_LIMIT)  # the previous turn's background search
        return compose_turn(config, session, self._turn, briefing=briefing, pointers=pointers)

    def _with_late(
        self,
        config: PointerConfig,
        key: StoreKey,
        session: str,
        query: str,
        pointers: str,
        *,
        current: turns.TurnSearch | None,
    ) -> str:
        """This turn's pointers, then what the previous turn's late search found that the
        gate passes for this message (a far or slow brain's answer is not simply lost)."""
        late, self._late = self._late, None
        if late is None:
            return pointers
        extra = turns.late_pointers(
            late,
            key,
            query,
            self._gate(),
            skip=recent_pages(config, session, self._turn),
            screen=config.screen,
            current=current,
        )
        return turns.merge_blocks(pointers, extra)

    def _pointer_block(self, config: PointerConfig, session: str, query: str) -> str:
        """The preset: what the previous turn's search left, or (opt-in budget) a
        search of this message when nothing is waiting."""
        engine = shared_engine(compat.spawn_thread)
        key = self._key(config, session)
        block = engine.take(key, config.limit)
        budget = self._budget(config)
        if not block and budget > 0:
            ticket = self._submit(config, key, query)
            if ticket is not None and ticket.done.wait(budget / 1000.0):
                block = engine.take(key, config.limit)
        return block

    def _announce(self, count: int) -> None:
        """The 0.19.0 stand-in for the recall indicator: a count, never a title."""
        callback = self._status_callback
        try:
            if callback is not None:
                callback(f"{STATUS_GLYPH} {STATUS_LABEL}: {count}")
        except Exception as exc:  # a broken callback must not cost the turn its memory
            log.debug("status callback failed: %s", type(exc).__name__)

    def queue_prefetch(self, query: str, *, session_id: str = "", **kwargs: Any) -> None:
        """Background mode only (the preset, or a budget of 0): search the turn that just
        finished for the next turn's ``prefetch``."""
        config = self._config
        if config is None or self._owner.closed or compat.is_trivial_prompt(query):
            return
        if self._budget(config) > 0 and self.layers:
            return  # each turn searches its own message
        session = self._session_for(session_id)
        key = self._key(config, session)
        if not self.layers:
            self._submit(config, key, query)
            return
        recent = recent_pages(config, session, self._turn + 1)
        subject = last_pages(config, session, self._turn + 1)
        window = turns.window_of(self._earlier, query)
        self._earlier = [*self._earlier, query][-turns.WINDOW_TURNS :]
        shared_engine(compat.spawn_thread).submit(
            key,
            query[:QUERY_CHARS],
            turns.rows_wanted(config.limit, recent),
            turns.GatedSearch(config, self._gate(), window=window, recent=recent, subject=subject),
            owner=self._owner,
            screen=config.screen,
            context=self._context,
            outcome=self._outcome_for(config),
        )

    def recall_status(self) -> Any:
        """Newer Hermes shows this beside the turn; 0.19.0 never asks."""
        if self._last_count <= 0:
            return None
        return compat.RecallStatus(STATUS_LABEL, self._last_count)

    # -- session boundaries ------------------------------------------------------------

    def on_session_switch(
        self,
        new_session_id: str,
        *,
        parent_session_id: str = "",
        reset: bool = False,
        rewound: bool = False,
        **kwargs: Any,
    ) -> None:
        """Any switch orphans searches in flight for the old and the new session; a fresh
        one (``reset``: Hermes' ``/new``) or a resumed one starts an empty conversation window
        (a branch or a compression goes on with the same conversation)."""
        self._current = None
        self._late = None
        config = self._config
        home = config.home if config is not None else self._home
        sessions = {self._session, parent_session_id, new_session_id} - {""}
        if home is not None:
            engine = shared_engine(compat.spawn_thread)
            for credential in list(self._keys):
                for session in sessions:
                    engine.invalidate(StoreKey(home, credential, session))
        if config is not None and self.layers and new_session_id:
            fresh = reset or kwargs.get("reason") == "new_session"
            if not fresh:  # resume, branch, compression: the conversation goes on
                end_briefing(config, new_session_id)
        if reset or kwargs.get("reason") in ("new_session", "resume"):
            self._earlier = []  # /new, /resume: another conversation, another window
        self._session = new_session_id or self._session

    def on_session_end(self, messages: list[dict[str, Any]], **kwargs: Any) -> None:
        """Nothing to flush (read-only); may fire many times."""

    def shutdown(self, **kwargs: Any) -> None:
        """Searches stop at once (never publish); queued writes drain within a bound."""
        self._note_unanswered()
        self._health.show()
        self._health.save_turn()
        self._tools.shutdown()
        self._writeback.shutdown()
        if not self._owner.closed:
            shared_engine(compat.spawn_thread).close_owner(self._owner)

    def _note_unanswered(self) -> None:
        """A turn's search still running ``UNANSWERED_S`` after it was sent counts as a
        failure: said once (stderr in ``hermes -z``) and kept for ``status``."""
        late, config = self._late, self._config
        if late is None or config is None or late.ticket.done.is_set():
            return
        waited = time.monotonic() - late.sent
        if waited >= UNANSWERED_S:
            self._health.unanswered(config, waited, started=late.sent)

    def on_memory_write(
        self,
        action: str,
        target: str,
        content: str,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        """A committed built-in memory write: queued as a GBrain fact when write-back is on."""
        self._writeback.on_write(action, target, content, metadata)

    # -- read-only surface ---------------------------------------------------------------

    def sync_turn(
        self, user_content: str, assistant_content: str, *, session_id: str = "", **kwargs: Any
    ) -> None:
        """Conversation turns are never written to the brain (only the memory tool's
        writes, through ``on_memory_write``, when write-back is on). What the model got
        this turn is saved now, after the turn (titles and slugs only)."""
        self._health.save_turn()

    def get_tool_schemas(self) -> list[dict[str, Any]]:
        """Static, no network: the cached discovery for this profile, else the compact set.

        Hermes asks inside ``add_provider``, before ``initialize``; see ``toolwire``.
        """
        return self._tools.schemas(self._home)

    def handle_tool_call(self, tool_name: str, args: dict[str, Any], **kwargs: Any) -> str:
        """Routed to the tool bridge; always a JSON string, errors included."""
        return self._tools.handle(tool_name, args)

    def system_prompt_block(self, **kwargs: Any) -> str:
        """The digest, read from disk once per session: a refresh on disk mid-session
        changes nothing (the prompt stays byte-identical for the prefix cache)."""
        if not self.layers or self._home is None:
            return ""
        cached = self._prompt_block
        if cached is not None and cached[0] == self._session:
            return cached[1]
        block = digest_block(self._home, self._layers) if self._config is not None else ""
        self._prompt_block = (self._session, block)
        return block

    def get_config_schema(self) -> list[dict[str, Any]]:
        """Drives ``hermes memory setup``; every value lands in the profile's ``.env``."""
        return [
            {
                "key": "mcp_url",
                "description": "GBrain MCP endpoint (gbrain serve --http)",
                "env_var": "GBRAIN_MCP_URL",
                "default": DEFAULT_MCP_URL,
                "required": True,
            },
            {
                "key": "client_id",
                "description": "OAuth client id (gbrain auth register-client … --scopes read)",
                "env_var": "GBRAIN_MCP_CLIENT_ID",
            },
            {
                "key": "client_secret",
                "description": "OAuth client secret",
                "env_var": "GBRAIN_MCP_CLIENT_SECRET",
                "secret": True,
            },
            {
                "key": "access_token",
                "description": "Or a static bearer token (wins over the client; never refreshed)",
                "env_var": "GBRAIN_MCP_ACCESS_TOKEN",
                "secret": True,
            },
            {
                "key": "source",
                "description": "Only pointers from this GBrain source id (optional)",
                "env_var": "GBRAIN_POINTER_SOURCE",
            },
            {
                "key": "limit",
                "description": f"Pointers per turn (1-{MAX_LIMIT})",
                "env_var": "GBRAIN_POINTER_LIMIT",
                "default": "3",
            },
            *(tools_schema() if self.offers_tools else ()),
            *(writeback_schema() if self.writes_memory else ()),
            *(layer_schema() if self.layers else ()),
        ]

    def get_status_config(self, provider_config: Any) -> dict[str, Any]:
        """``hermes memory status``: whether the last searches worked, and the fix.

        ``is_available()`` stays a configuration check (Hermes drops a provider that
        says no, so it could never recover); this is where a failure shows."""
        return status_config(self._home or compat.current_hermes_home(), provider_config)

    def save_config(self, values: dict[str, Any], hermes_home: str, **kwargs: Any) -> None:
        """Nothing to write: every field has an ``env_var``, so setup puts it in ``.env``."""

    def backup_paths(self) -> list[str]:
        return []


class GBrainPointerProvider(GBrainMemoryProvider):
    """The ``gbrain-pointer`` preset: read-only pointers only, same settings."""

    provider_name = "gbrain-pointer"
    layers = False  # pointers only: no digest, no briefing, no gate
    offers_tools = False  # read-only pointers: no tools
    default_budget_ms = 0  # background, one turn late (opt-in budget as before)
    writes_memory = False  # and no write-back


def register(ctx: Any) -> None:
    """Entry point (``hermes_agent.memory_providers``) and shim hook for ``gbrain``."""
    ctx.register_memory_provider(GBrainMemoryProvider())


def register_pointer(ctx: Any) -> None:
    """Entry point and shim hook for the ``gbrain-pointer`` preset."""
    ctx.register_memory_provider(GBrainPointerProvider())
