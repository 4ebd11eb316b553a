"""The real ``hermes`` command line, one process per turn, against the emulator.

What the model receives per turn, as a user of ``hermes chat -q … --resume`` and
``hermes -z`` sees it: the briefing once per session, pointers about the message
being answered, nothing on "ok", no page again within five turns, and a system
prompt that stays byte-identical across the session's processes.
"""

from __future__ import annotations

import re

import pytest

from hermes_gbrain.commands.main import main
from hermes_gbrain.recall.briefing import cited_pages
from support.hermes_cli import CLI_TEST_TIMEOUT_S, CliRun, chat_query, model_config, oneshot
from support.pointer_env import Profile
from support.stub_model import StubModel

pytestmark = [pytest.mark.hermes, pytest.mark.timeout(CLI_TEST_TIMEOUT_S)]

BLOCK = "Retrieved reference pointers."
BRIEF_LINE = re.compile(r"^- .+ \[[a-z]+:[a-z0-9/._-]+\] — ", re.MULTILINE)


def _ok(run: CliRun) -> CliRun:
    assert run.returncode == 0, run.stderr[-2000:]
    return run


def _memory(run: CliRun) -> str:
    """What was appended to the current user message (empty when nothing was)."""
    message = run.last_user_message()
    start = message.find("<memory-context>")
    return message[start:] if start >= 0 else ""


def test_resumed_and_one_shot_turns_through_the_cli(
    profile: Profile, stub_model: StubModel
) -> None:
    profile.set_env(GBRAIN_BRIEFING="on")
    home = profile.home.path
    profile.home.write_config("gbrain", extra={"model": model_config(stub_model)})
    assert main(["digest", "--hermes-home", str(home), "--quiet"]) == 0

    first = _ok(chat_query(home, stub_model, "Who founded Kestrel Works?"))
    session = first.session_id
    assert session
    turns = [first]
    for message in (
        "What does Tomas Lindqvist do?",
        "ok",
        "How is the Driftwood Sync project going?",
    ):
        turns.append(_ok(chat_query(home, stub_model, message, resume=session)))
    memory = [_memory(run) for run in turns]

    # turn 1: the briefing, about this message
    assert BRIEF_LINE.search(memory[0]) and "[default:companies/kestrel-works]" in memory[0]
    # resumed turns are new processes: never briefed again
    assert not any(BRIEF_LINE.search(m) for m in memory[1:])
    # each real turn gets pointers about its own message; "ok" gets nothing
    assert "[default:people/tomas-lindqvist]" in memory[1]
    assert memory[2] == "" and turns[2].last_user_message() == "ok"
    assert "[default:projects/driftwood-sync]" in memory[3]
    # no page twice within five turns, across processes
    seen: set[str] = set()
    for block in memory:
        pages = set(cited_pages(block))
        assert not pages & seen
        seen |= pages
    # the resumed process replays earlier turns; the system prompt never changes
    assert len(turns[-1].user_messages()) == 4
    assert len({run.system_prompt() for run in turns}) == 1
    assert "GBrain digest" in first.system_prompt()

    # one-shot: a new session, briefed, with memory about its own message
    single = _ok(oneshot(home, stub_model, "What do we know about Maya Okafor?"))
    assert BRIEF_LINE.search(_memory(single))
    assert "[default:people/maya-okafor]" in _memory(single)
