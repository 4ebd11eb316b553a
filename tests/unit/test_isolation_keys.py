"""Keys that keep profiles and credentials apart, and the hook's fail-open promise."""

from __future__ import annotations

import logging
from pathlib import Path

import httpx
import pytest

from hermes_gbrain.adapters.hook import GBrainHook
from hermes_gbrain.connect import credential_for
from hermes_gbrain.settings import Settings
from hermes_gbrain.transport import Transport
from support.fake_mcp import FakeMCP


def _oauth(home: str) -> Settings:
    return Settings(hermes_home=home, client_id="gbrain_cl_same", client_secret="cs-same")


def test_profiles_with_the_same_client_never_share_a_token(tmp_path: Path) -> None:
    """Two profiles configured with one client still mint (and cache) apart."""
    fake = FakeMCP()
    transport = fake.transport()
    home_a, home_b = str(tmp_path / "a"), str(tmp_path / "b")
    a = credential_for(_oauth(home_a), transport)
    b = credential_for(_oauth(home_b), transport)
    assert a.cache_key != b.cache_key
    assert a.bearer() != b.bearer()
    assert len(fake.token_requests) == 2
    assert credential_for(_oauth(home_a), transport).bearer() == a.bearer()
    assert len(fake.token_requests) == 2


def test_static_tokens_are_keyed_per_profile_too() -> None:
    transport = Transport(transport=httpx.MockTransport(lambda r: httpx.Response(500)))
    a = credential_for(Settings(hermes_home="/p/a", access_token="tok"), transport)
    b = credential_for(Settings(hermes_home="/p/b", access_token="tok"), transport)
    assert a.cache_key != b.cache_key


def test_hook_fails_open_on_any_error(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Whatever goes wrong inside, the hook adds nothing and raises nothing."""
    hook = GBrainHook()

    def broken(kwargs: object) -> str:
        raise RuntimeError("user text: secret plans")

    monkeypatch.setattr(hook, "_context", broken)
    caplog.set_level(logging.DEBUG)
    assert hook.pre_llm_call(session_id="s1", user_message="secret plans") is None
    assert "secret plans" not in caplog.text
