"""The real ``hermes`` command line, one process per turn, against the emulator."""

from __future__ import annotations

import pytest

from support.hermes_cli import chat_query, model_config, oneshot
from support.pointer_env import Profile
from support.stub_model import StubModel

pytestmark = pytest.mark.hermes

BLOCK = "Retrieved reference pointers."


def test_oneshot_and_resumed_turns_reach_the_model_through_the_cli(
    profile: Profile, stub_model: StubModel
) -> None:
    profile.set_env(GBRAIN_BRIEFING="on")
    profile.home.write_config("gbrain", extra={"model": model_config(stub_model)})

    first = oneshot(profile.home.path, stub_model, "What do we know about Maya Okafor?")
    assert first.returncode == 0, first.stderr
    assert "[default:people/maya-okafor]" in first.last_user_message()

    started = chat_query(profile.home.path, stub_model, "Who founded Kestrel Works?")
    assert started.returncode == 0, started.stderr
    assert started.session_id
    resumed = chat_query(profile.home.path, stub_model, "thanks", resume=started.session_id)
    assert resumed.returncode == 0, resumed.stderr
    # The resumed process replays the earlier turn from Hermes' own session store.
    assert len(resumed.user_messages()) == 2
    assert resumed.system_prompt() == started.system_prompt()
