"""Drive a memory provider through real hermes-agent 0.19.0 code, without an LLM.

Two levels, both using Hermes' own classes rather than re-implementations:

* :class:`MemoryManagerDriver` — a real ``agent.memory_manager.MemoryManager``
  turned by hand in the exact 0.19.0 order (``agent/turn_context.py`` then
  ``run_agent.py``): ``on_turn_start`` → ``prefetch_all`` →
  ``compose_user_api_content`` → ``sync_all`` → ``queue_prefetch_all`` →
  ``flush_pending``. Fast (milliseconds a turn); use it for most provider tests.
* :func:`run_agent_conversation` — a real ``run_agent.AIAgent`` against the
  :class:`~support.stub_model.StubModel`, for end-to-end checks of what reaches
  the wire (about 1 s a run, most of it import and init).

Hermes is imported lazily inside the functions, after the bootstrap home is set.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agent.memory_manager import MemoryManager
    from agent.memory_provider import MemoryProvider
    from run_agent import AIAgent

    from support.stub_model import StubModel

MEMORY_CONTEXT_OPEN = "<memory-context>"
MEMORY_CONTEXT_CLOSE = "</memory-context>"

#: initialize_all() kwargs a 0.19.0 CLI primary agent passes (besides session_id, hermes_home).
PRIMARY_INIT_KWARGS: Mapping[str, str] = {
    "platform": "cli",
    "agent_context": "primary",
    "agent_identity": "default",
    "agent_workspace": "hermes",
}


def discovered_providers() -> dict[str, tuple[str, bool]]:
    """``{name: (description, is_available)}`` from ``plugins.memory.discover_memory_providers``."""
    from plugins.memory import discover_memory_providers

    return {name: (desc, available) for name, desc, available in discover_memory_providers()}


def load_provider(name: str, *, require_available: bool = True) -> MemoryProvider:
    """Load *name* through real discovery, as ``AIAgent`` does; raise if Hermes cannot.

    Checks ``discover_memory_providers()`` first (throw-away instance, like
    ``hermes memory status``), then returns a fresh ``load_memory_provider`` instance.
    """
    from plugins.memory import load_memory_provider

    found = discovered_providers()
    if name not in found:
        raise LookupError(f"memory provider {name!r} not discovered; found {sorted(found)}")
    if require_available and not found[name][1]:
        raise LookupError(f"memory provider {name!r} discovered but is_available() is false")
    provider = load_memory_provider(name)
    if provider is None:
        raise LookupError(f"load_memory_provider({name!r}) returned None (see DEBUG logs)")
    return provider


def extract_memory_context(content: str) -> str | None:
    """The text between the ``<memory-context>`` tags of a composed message, if any."""
    start = content.find(MEMORY_CONTEXT_OPEN)
    end = content.find(MEMORY_CONTEXT_CLOSE, start + 1)
    if start < 0 or end < 0:
        return None
    return content[start + len(MEMORY_CONTEXT_OPEN) : end]


@dataclass(frozen=True)
class TurnRecord:
    """What one driven turn produced."""

    number: int
    user: str
    assistant: str
    prefetch: str  # raw prefetch_all() result ("" when nothing)
    api_content: str | None  # compose_user_api_content(); None = sent as-is
    flushed: bool  # flush_pending() finished within the timeout

    @property
    def sent_content(self) -> str:
        """The exact user-message bytes the model would receive this turn."""
        return self.api_content if self.api_content is not None else self.user

    @property
    def memory_context(self) -> str | None:
        return extract_memory_context(self.sent_content)


class MemoryManagerDriver:
    """A real ``MemoryManager`` with one provider, turned like 0.19.0's agent loop."""

    def __init__(
        self,
        provider: MemoryProvider,
        *,
        session_id: str = "s1",
        init_kwargs: Mapping[str, Any] | None = None,
        flush_timeout: float = 5.0,
        first_turn: int = 1,
    ) -> None:
        """``first_turn`` > 1 stands for a resumed session: Hermes re-seeds its user-turn
        count from the history, so the first turn this driver runs has that number."""
        from agent.memory_manager import MemoryManager

        self.provider = provider
        self.session_id = session_id
        self.first_turn = first_turn
        self.flush_timeout = flush_timeout
        self.manager: MemoryManager = MemoryManager()
        self.manager.add_provider(provider)
        kwargs = {**PRIMARY_INIT_KWARGS, **(init_kwargs or {})}
        self.manager.initialize_all(session_id=session_id, **kwargs)
        self.system_prompt: str = self.manager.build_system_prompt()
        self.history: list[dict[str, Any]] = []
        self.turns: list[TurnRecord] = []
        self._closed = False

    def turn(
        self,
        user: str,
        assistant: str | None = None,
        *,
        plugin_user_context: str = "",
        flush: bool = True,
    ) -> TurnRecord:
        """One user turn; *assistant* defaults to ``"reply <n>"``."""
        from agent.turn_context import compose_user_api_content

        number = len(self.turns) + self.first_turn
        mgr = self.manager
        mgr.on_turn_start(number, user)
        prefetch = mgr.prefetch_all(user) or ""
        api_content = compose_user_api_content(user, prefetch, plugin_user_context)
        reply = assistant if assistant is not None else f"reply {number}"
        user_msg: dict[str, Any] = {"role": "user", "content": user}
        if api_content is not None and api_content != user:
            user_msg["api_content"] = api_content  # the sidecar the real agent stamps
        self.history += [user_msg, {"role": "assistant", "content": reply}]
        mgr.sync_all(user, reply, session_id=self.session_id, messages=list(self.history))
        mgr.queue_prefetch_all(user, session_id=self.session_id)
        flushed = mgr.flush_pending(timeout=self.flush_timeout) if flush else False
        record = TurnRecord(number, user, reply, prefetch, api_content, flushed)
        self.turns.append(record)
        return record

    def run(self, turns: Iterable[str | tuple[str, str]]) -> list[TurnRecord]:
        """Several turns: plain strings, or ``(user, assistant)`` pairs."""
        out = []
        for item in turns:
            user, assistant = (item, None) if isinstance(item, str) else item
            out.append(self.turn(user, assistant))
        return out

    def close(self) -> dict[str, Any]:
        """``on_session_end(history)`` then ``shutdown_all()``; returns the drain state."""
        if not self._closed:
            self._closed = True
            self.manager.on_session_end(self.history)
            self.manager.shutdown_all()
        return dict(self.manager.shutdown_drain_state)

    def __enter__(self) -> MemoryManagerDriver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def drive_memory_manager(
    name: str, turns: Iterable[str | tuple[str, str]], **driver_kwargs: Any
) -> MemoryManagerDriver:
    """Load *name* from the current home, run *turns*, close; the driver keeps the records."""
    driver = MemoryManagerDriver(load_provider(name), **driver_kwargs)
    try:
        driver.run(turns)
    finally:
        driver.close()
    return driver


# -- full AIAgent ---------------------------------------------------------------


def agent_kwargs(stub: StubModel, **overrides: Any) -> dict[str, Any]:
    """``AIAgent`` keyword arguments for a quiet CLI agent talking to *stub*."""
    kwargs: dict[str, Any] = {
        "base_url": stub.base_url,
        "api_key": "sk-stub",
        "model": "stub-model",
        "quiet_mode": True,
        "skip_context_files": True,
        "enabled_toolsets": ["memory"],
        "platform": "cli",
        "max_iterations": 3,
    }
    kwargs.update(overrides)
    return kwargs


def build_agent(stub: StubModel, **overrides: Any) -> AIAgent:
    """A real ``AIAgent`` against *stub*; reads ``config.yaml`` from the current home."""
    from run_agent import AIAgent

    return AIAgent(**agent_kwargs(stub, **overrides))


@dataclass
class AgentRun:
    """Outcome of :func:`run_agent_conversation`."""

    agent: AIAgent
    results: list[dict[str, Any]] = field(default_factory=list)  # run_conversation() returns
    history: list[dict[str, Any]] = field(default_factory=list)  # final messages list
    requests: list[dict[str, Any]] = field(default_factory=list)  # chat bodies the stub saw

    @property
    def provider(self) -> MemoryProvider | None:
        mgr = getattr(self.agent, "_memory_manager", None)
        providers = mgr.providers if mgr is not None else []
        return next((p for p in providers if p.name != "builtin"), None)

    def system_prompts(self) -> list[str]:
        """The system message of every request, in order."""
        return [_system_text(body) for body in self.requests]

    def last_user_contents(self) -> list[str]:
        """The last user message's content of every request, in order."""
        return [_last_user_text(body) for body in self.requests]


def _system_text(body: Mapping[str, Any]) -> str:
    for msg in body.get("messages", []):
        if msg.get("role") == "system":
            return str(msg.get("content") or "")
    return ""


def _last_user_text(body: Mapping[str, Any]) -> str:
    for msg in reversed(body.get("messages", [])):
        if msg.get("role") == "user":
            content = msg.get("content")
            return content if isinstance(content, str) else str(content)
    return ""


def run_agent_conversation(
    stub: StubModel,
    messages: Sequence[str],
    *,
    history: Sequence[dict[str, Any]] = (),
    shutdown: bool = True,
    flush_timeout: float = 5.0,
    **agent_overrides: Any,
) -> AgentRun:
    """One ``AIAgent``, one ``run_conversation`` per message, carrying history like the CLI.

    Waits for the memory worker (``flush_pending``) after the turns and, when
    *shutdown*, ends the session (``on_session_end`` + ``shutdown_all``) and
    closes the agent; pass ``shutdown=False`` to keep driving ``run.agent``.
    """
    agent = build_agent(stub, **agent_overrides)
    run = AgentRun(agent=agent, history=list(history))
    before = len(stub.requests)
    try:
        for message in messages:
            result = agent.run_conversation(message, conversation_history=run.history)
            run.results.append(result)
            run.history = list(result.get("messages") or [])
        mgr = getattr(agent, "_memory_manager", None)
        if mgr is not None and not mgr.flush_pending(timeout=flush_timeout):
            raise TimeoutError("memory manager did not drain within the flush timeout")
    finally:
        if shutdown:
            agent.shutdown_memory_provider(run.history)
            agent.close()  # idempotent; releases the OpenAI/httpx clients
        run.requests = stub.requests[before:]
    return run
