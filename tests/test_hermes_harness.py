"""Smoke tests proving the real-Hermes harness: discovery, MemoryManager order, AIAgent wire."""

from __future__ import annotations

import json
from importlib.metadata import version
from typing import Any

import httpx
import pytest

from support.hermes_driver import (
    MemoryManagerDriver,
    discovered_providers,
    extract_memory_context,
    load_provider,
    run_agent_conversation,
)
from support.hermes_home import HermesHome
from support.stub_model import StubModel, StubReply, StubToolCall

pytestmark = pytest.mark.hermes

STATIC_BLOCK = "TRIVIAL-STATIC-BLOCK: the brain is trivial."

# Written into $HERMES_HOME/plugins/trivial/__init__.py; records (hook, detail, thread) tuples.
TRIVIAL_PROVIDER = """
import json
import threading

from agent.memory_provider import MemoryProvider

RECALL = {recall!r}
STATIC = {static!r}


class TrivialMemoryProvider(MemoryProvider):
    def __init__(self):
        self.lock = threading.Lock()
        self.calls = []
        self.init_kwargs = {{}}

    def _rec(self, hook, detail=None):
        with self.lock:
            self.calls.append((hook, detail, threading.current_thread().name))

    @property
    def name(self):
        return "trivial"

    def is_available(self):
        return True

    def initialize(self, session_id, **kwargs):
        self.init_kwargs = dict(kwargs, session_id=session_id)
        self._rec("initialize", session_id)

    def system_prompt_block(self):
        self._rec("system_prompt_block")
        return STATIC

    def on_turn_start(self, turn_number, message, **kwargs):
        self._rec("on_turn_start", turn_number)

    def prefetch(self, query, *, session_id="", **kwargs):
        self._rec("prefetch", query)
        return RECALL

    def sync_turn(self, user_content, assistant_content, *, session_id="", messages=None,
                  **kwargs):
        self._rec("sync_turn", (user_content, assistant_content))

    def queue_prefetch(self, query, *, session_id="", **kwargs):
        self._rec("queue_prefetch", query)

    def get_tool_schemas(self):
        return [{{
            "name": "trivial_echo",
            "description": "Echo text back.",
            "parameters": {{"type": "object", "properties": {{"text": {{"type": "string"}}}}}},
        }}]

    def handle_tool_call(self, tool_name, args, **kwargs):
        self._rec("handle_tool_call", (tool_name, args))
        return json.dumps({{"echo": args.get("text", "")}})

    def on_session_end(self, messages):
        self._rec("on_session_end", len(messages))

    def shutdown(self):
        self._rec("shutdown")
"""

LIFECYCLE = (
    "initialize",
    "system_prompt_block",
    "on_turn_start",
    "prefetch",
    "sync_turn",
    "queue_prefetch",
    "handle_tool_call",
    "on_session_end",
    "shutdown",
)

TURN_HOOKS = ["on_turn_start", "prefetch", "sync_turn", "queue_prefetch"]
EXPECTED_TWO_TURNS = [
    "initialize",
    "system_prompt_block",
    *TURN_HOOKS,
    *TURN_HOOKS,
    "on_session_end",
    "shutdown",
]


def install_trivial(home: HermesHome, recall: str = "TRIVIAL-RECALL") -> None:
    home.write_plugin(
        "trivial",
        TRIVIAL_PROVIDER.format(recall=recall, static=STATIC_BLOCK),
        manifest={"description": "trivial recording provider"},
    )
    home.write_config(provider="trivial")


def hooks(provider: Any) -> list[str]:
    with provider.lock:
        return [hook for hook, _detail, _thread in provider.calls if hook in LIFECYCLE]


def threads_of(provider: Any, hook: str) -> set[str]:
    with provider.lock:
        return {thread for name, _detail, thread in provider.calls if name == hook}


@pytest.mark.hermes019
def test_installed_hermes_is_the_pinned_version() -> None:
    import agent.memory_manager  # noqa: F401  (importable without shadowing)
    import plugins.memory  # noqa: F401

    assert version("hermes-agent") == "0.19.0"


# Two different recalls in two homes: the second run must not reuse the first module.
@pytest.mark.parametrize("recall", ["ALPHA-RECALL", "BETA-RECALL"])
def test_memory_manager_two_turns(hermes_home: HermesHome, recall: str) -> None:
    install_trivial(hermes_home, recall)

    found = discovered_providers()
    assert found["trivial"] == ("trivial recording provider", True)
    provider = load_provider("trivial")
    # newer Hermes suffixes the module name with a hash of the plugin's source
    assert type(provider).__module__.startswith("_hermes_user_memory.trivial")

    driver = MemoryManagerDriver(provider, session_id="s1")
    records = driver.run(["what do I know about tides?", ("and the moon?", "it pulls")])
    drain = driver.close()

    assert STATIC_BLOCK in driver.system_prompt
    for record, user in zip(records, ["what do I know about tides?", "and the moon?"], strict=True):
        assert record.prefetch == recall
        assert record.flushed
        assert record.sent_content.startswith(user + "\n\n<memory-context>\n")
        assert record.sent_content.endswith("</memory-context>")
        context = record.memory_context
        assert context is not None
        assert recall in context
    assert records[1].assistant == "it pulls"
    assert drain["status"] == "drained"

    assert hooks(provider) == EXPECTED_TWO_TURNS
    with provider.lock:
        turn_numbers = [d for h, d, _ in provider.calls if h == "on_turn_start"]
        synced = [d for h, d, _ in provider.calls if h == "sync_turn"]
    assert turn_numbers == [1, 2]
    assert synced == [("what do I know about tides?", "reply 1"), ("and the moon?", "it pulls")]
    assert threads_of(provider, "prefetch") == {"memory-prefetch-trivial"}
    assert all(t.startswith("mem-sync") for t in threads_of(provider, "sync_turn"))
    assert provider.init_kwargs["hermes_home"] == str(hermes_home.path)
    assert provider.init_kwargs["agent_context"] == "primary"


def test_aiagent_two_turns_against_stub(hermes_home: HermesHome, stub_model: StubModel) -> None:
    install_trivial(hermes_home)
    stub_model.enqueue("first answer", "second answer")

    run = run_agent_conversation(stub_model, ["hello there", "what is up"])

    assert [r["final_response"] for r in run.results] == ["first answer", "second answer"]
    assert len(run.requests) == 2
    for body, user in zip(run.requests, ["hello there", "what is up"], strict=True):
        sent = run.last_user_contents()[run.requests.index(body)]
        assert sent.startswith(user + "\n\n<memory-context>\n")
        assert "TRIVIAL-RECALL" in (extract_memory_context(sent) or "")
    # The first turn's composed bytes are replayed verbatim on the second request.
    second_messages = run.requests[1]["messages"]
    assert [m["role"] for m in second_messages] == ["system", "user", "assistant", "user"]
    assert second_messages[1]["content"] == run.last_user_contents()[0]

    system_prompts = run.system_prompts()
    assert STATIC_BLOCK in system_prompts[0]
    assert "<memory-context>" not in system_prompts[0]
    assert system_prompts[0].encode() == system_prompts[1].encode()

    provider = run.provider
    assert provider is not None
    # The agent does not wait for the mem-sync worker between turns, so turn 1's
    # sync_turn/queue_prefetch may interleave with turn 2's on_turn_start/prefetch:
    # check the inline order and the worker's FIFO order separately.
    order = hooks(provider)
    worker = ["sync_turn", "queue_prefetch"]
    assert [h for h in order if h not in worker] == [
        "initialize",
        "system_prompt_block",
        "on_turn_start",
        "prefetch",
        "on_turn_start",
        "prefetch",
        "on_session_end",
        "shutdown",
    ]
    assert [h for h in order if h in worker] == worker * 2
    assert order.index("sync_turn") > order.index("prefetch")
    assert order.index("shutdown") > max(i for i, h in enumerate(order) if h in worker)
    assert provider.init_kwargs["hermes_home"] == str(hermes_home.path)


def test_aiagent_routes_a_provider_tool_call(
    hermes_home: HermesHome, stub_model: StubModel
) -> None:
    install_trivial(hermes_home)
    stub_model.enqueue(
        StubReply(content=None, tool_calls=(StubToolCall("trivial_echo", {"text": "ping"}),)),
        "echoed",
    )

    run = run_agent_conversation(stub_model, ["echo ping please"])

    assert run.results[0]["final_response"] == "echoed"
    assert any(t["function"]["name"] == "trivial_echo" for t in run.requests[0]["tools"])
    tool_messages = [m for m in run.requests[1]["messages"] if m["role"] == "tool"]
    assert [json.loads(m["content"]) for m in tool_messages] == [{"echo": "ping"}]
    provider = run.provider
    assert provider is not None
    with provider.lock:
        calls = [d for h, d, _ in provider.calls if h == "handle_tool_call"]
    assert calls == [("trivial_echo", {"text": "ping"})]


def test_stub_model_json_sse_and_404(stub_model: StubModel) -> None:
    stub_model.enqueue("queued")
    url = stub_model.base_url + "/chat/completions"
    with httpx.Client(timeout=5.0) as client:
        plain = client.post(url, json={"model": "m", "messages": []})
        streamed = client.post(
            url,
            json={"model": "m", "stream": True, "stream_options": {"include_usage": True}},
        )
        missing = client.get(stub_model.base_url + "/models")

    assert plain.json()["choices"][0]["message"]["content"] == "queued"
    assert streamed.headers["content-type"] == "text/event-stream"
    events = [line[6:] for line in streamed.text.splitlines() if line.startswith("data: ")]
    assert events[-1] == "[DONE]"
    chunks = [json.loads(e) for e in events[:-1]]
    assert chunks[0]["choices"][0]["delta"]["content"] == "stub reply"
    assert chunks[-1]["usage"]["total_tokens"] == 15
    assert missing.status_code == 404
    assert stub_model.wait_for_requests(2, timeout=1.0)[1]["stream"] is True
    assert [(r.method, r.path) for r in stub_model.log][-1] == ("GET", "/v1/models")


def test_hermes_home_is_isolated(hermes_home: HermesHome, monkeypatch: pytest.MonkeyPatch) -> None:
    from hermes_cli.config import load_config
    from hermes_constants import get_hermes_home

    assert get_hermes_home() == hermes_home.path
    assert load_config()["memory"]["provider"] == ""
    hermes_home.write_config(
        provider="zzzz"
    )  # same size as a rewrite below: cache must not serve it
    assert load_config()["memory"]["provider"] == "zzzz"
    hermes_home.write_config(provider="yyyy")
    assert load_config()["memory"]["provider"] == "yyyy"

    hermes_home.write_env({"TRIVIAL_TOKEN": "t0k", "OTHER": "'quoted'"})
    assert (hermes_home.env_path.stat().st_mode & 0o777) == 0o600
    import os

    import run_agent

    assert "TRIVIAL_TOKEN" not in os.environ  # a per-test .env is never auto-loaded
    assert hermes_home.apply_env(monkeypatch) == {"TRIVIAL_TOKEN": "t0k", "OTHER": "quoted"}
    assert os.environ["TRIVIAL_TOKEN"] == "t0k"

    # run_agent froze the bootstrap home at import; it is never the real one.
    assert run_agent._hermes_home != hermes_home.path
    assert ".hermes" not in run_agent._hermes_home.parts
