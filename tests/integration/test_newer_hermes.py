"""What newer Hermes asks of the provider that 0.19.0 does not (``make test-newer``).

Newer Hermes calls ``unavailable_reason()`` right after ``is_available()`` says no, on a
provider it never initializes, and shows ``recall_status()`` beside each turn it recalled
for. The provider-level checks run on every Hermes; the ones through Hermes' own start-up
are skipped on 0.19.0, which never asks.
"""

from __future__ import annotations

import logging

import pytest

from support.hermes_flavor import on_pinned_hermes
from support.pointer_env import WAIT, Profile, engine_idle
from support.stub_model import StubModel

pytestmark = pytest.mark.hermes

NOT_INITIALIZED = "not been initialized"
newer_only = pytest.mark.skipif(on_pinned_hermes(), reason="hermes-agent 0.19.0 never asks")


def _without_credentials(profile: Profile) -> None:
    profile.set_env(
        GBRAIN_MCP_CLIENT_ID=None, GBRAIN_MCP_CLIENT_SECRET=None, GBRAIN_MCP_ACCESS_TOKEN=None
    )


def test_unavailable_reason_right_after_is_available_names_the_problem(profile: Profile) -> None:
    from support.hermes_driver import load_provider

    _without_credentials(profile)
    provider = load_provider("gbrain", require_available=False)
    assert not provider.is_available()
    reason = provider.unavailable_reason()
    assert "no GBrain credential" in reason and NOT_INITIALIZED not in reason


def test_unavailable_reason_is_empty_for_a_working_profile(profile: Profile) -> None:
    from support.hermes_driver import load_provider

    provider = load_provider("gbrain")
    assert provider.is_available()
    assert provider.unavailable_reason() == ""


@newer_only
def test_hermes_start_up_warning_carries_the_real_reason(
    profile: Profile, stub_model: StubModel, caplog: pytest.LogCaptureFixture
) -> None:
    from support.hermes_driver import build_agent

    _without_credentials(profile)
    with caplog.at_level(logging.WARNING):
        agent = build_agent(stub_model)
    try:
        assert agent._memory_manager is None  # dropped, as the warning says
    finally:
        agent.close()
    warnings = [r.getMessage() for r in caplog.records if "'gbrain'" in r.getMessage()]
    assert len(warnings) == 1
    assert "no GBrain credential" in warnings[0] and NOT_INITIALIZED not in warnings[0]


def _two_turns_then_ok(agent: object, history: list[dict[str, object]]) -> list[object]:
    """Run three turns, returning ``recall_status()`` after each."""
    statuses = []
    manager = agent._memory_manager  # type: ignore[attr-defined]
    provider = next(p for p in manager.providers if p.name == "gbrain")
    for message in ("Who is Maya Okafor?", "How is the Driftwood Sync project going?", "ok"):
        result = agent.run_conversation(message, conversation_history=history)  # type: ignore[attr-defined]
        history[:] = list(result.get("messages") or [])
        assert manager.flush_pending(timeout=WAIT)
        assert engine_idle()
        statuses.append(provider.recall_status())
    return statuses


@newer_only
def test_recall_status_is_this_turns_and_none_on_a_turn_hermes_did_not_recall_for(
    profile: Profile, stub_model: StubModel
) -> None:
    """Newer Hermes skips recall on "ok" (its core trivial gate): no count from the turn before."""
    from support.hermes_driver import build_agent

    agent = build_agent(stub_model)
    history: list[dict[str, object]] = []
    try:
        statuses = _two_turns_then_ok(agent, history)
    finally:
        agent.shutdown_memory_provider(history)
        agent.close()
    recalled = statuses[1]
    assert recalled is not None and recalled.count > 0  # the second turn had pointers
    assert (recalled.provider_label, recalled.glyph) == ("GBrain pointers", "🧠")
    assert statuses[2] is None


def test_a_turn_without_prefetch_reports_no_recall(profile: Profile) -> None:
    """The same at provider level, on any Hermes: a turn starts, prefetch is never asked."""
    from support.hermes_driver import MemoryManagerDriver, load_provider

    provider = load_provider("gbrain")
    with MemoryManagerDriver(provider) as driver:
        driver.turn("Who is Maya Okafor?")
        assert engine_idle()
        driver.turn("How is the Driftwood Sync project going?")
        assert provider.recall_status() is not None
        provider.on_turn_start(3, "ok")  # what newer Hermes does before skipping recall
        assert provider.recall_status() is None
