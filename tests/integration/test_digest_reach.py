"""The digest reaches the model: the Mnemosyne sink, hook mode, and the tag count.

Mnemosyne here is the stand-in of ``support/mnemosyne_standin.py`` (behaviour copied
from mnemosyne-hermes 0.7.6 / mnemosyne-memory 4.0.0b6, cited there); the same cases
run against the real package with ``make test-mnemosyne``.
"""

from __future__ import annotations

import sqlite3
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest

from hermes_gbrain.commands import mnemosyne_path
from hermes_gbrain.commands.install import install
from hermes_gbrain.commands.main import main
from hermes_gbrain.commands.mnemosyne_sink import IMPORTANCE, plan_mnemosyne, store_in_mnemosyne
from hermes_gbrain.emulator import Emulator
from hermes_gbrain.recall.digest import DIGEST_HEADER, digest_path, read_digest_line
from support import mnemosyne_standin as standin
from support.hermes_driver import run_agent_conversation
from support.hermes_home import HermesHome, make_hermes_home
from support.pointer_env import Profile, engine_idle, make_profile
from support.stub_model import StubModel

pytestmark = pytest.mark.hermes

LINE = (
    "GBrain digest (test): 31 pages. People (7): Maya Okafor, Samuel Mwangi; Projects (5): Ledger"
)


@pytest.fixture
def mnemosyne(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stand-in as the installed ``mnemosyne``, behind mnemosyne-hermes 0.7.6."""
    monkeypatch.setitem(sys.modules, "mnemosyne", standin.module())
    monkeypatch.setattr(mnemosyne_path, "installed_provider_version", lambda: "0.7.6")
    monkeypatch.setattr(standin, "CLOCK", None)
    standin.OPENED.clear()


@pytest.fixture
def coder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, emu: Emulator) -> Profile:
    """A named profile (``<root>/profiles/coder``) with Mnemosyne's profile isolation on."""
    home = make_hermes_home(tmp_path / "root" / "profiles" / "coder")
    monkeypatch.setenv("HERMES_HOME", str(home.path))
    profile = make_profile(home, emu, GBRAIN_BRIEFING="on")
    home.write_config("mnemosyne", extra={"memory": {"mnemosyne": {"profile_isolation": True}}})
    return profile


def _entries(db: Path) -> list[dict[str, Any]]:
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        rows = conn.execute("SELECT * FROM working_memory WHERE source = 'hermes-gbrain-digest'")
        return [dict(r) for r in rows]
    finally:
        conn.close()


def _hermes_identity(home: Path) -> str:
    from hermes_cli.profiles import get_active_profile_name

    return get_active_profile_name()  # reads HERMES_HOME, as Hermes does for initialize()


# -- where the entry goes -------------------------------------------------------------------


def test_default_profile_entry_lands_where_the_provider_reads(
    profile: Profile, mnemosyne: None, capsys: pytest.CaptureFixture[str]
) -> None:
    home = profile.home.path
    assert main(["digest", "--hermes-home", str(home), "--to", "mnemosyne"]) == 0
    out = capsys.readouterr().out
    expected = standin.provider_db_path(hermes_home=str(home), agent_identity="default")
    assert expected == home / "mnemosyne" / "data" / "mnemosyne.db"
    assert f"stored in {expected} (profile isolation off)" in out
    (entry,) = _entries(expected)
    assert entry["scope"] == "global" and entry["importance"] == IMPORTANCE and entry["pinned"]
    assert entry["content"] == read_digest_line(home)  # the file is written too, for the hook


def test_named_profile_with_isolation_uses_its_bank(
    coder: Profile, mnemosyne: None, capsys: pytest.CaptureFixture[str]
) -> None:
    home = coder.home.path
    identity = _hermes_identity(home)
    assert identity == "coder"
    assert main(["digest", "--hermes-home", str(home), "--to", "mnemosyne"]) == 0
    expected = standin.provider_db_path(hermes_home=str(home), agent_identity=identity)
    assert expected.parent.name == "coder" and expected.parent.parent.name == "banks"
    assert "profile isolation on, bank coder" in capsys.readouterr().out
    assert len(_entries(expected)) == 1
    assert not (home / "mnemosyne" / "data" / "mnemosyne.db").exists()


def test_mnemosyne_data_dir_is_not_where_the_provider_reads(
    profile: Profile, mnemosyne: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = profile.home.path
    elsewhere = tmp_path / "mnemosyne-data"
    monkeypatch.setenv("MNEMOSYNE_DATA_DIR", str(elsewhere))
    assert main(["digest", "--hermes-home", str(home), "--to", "mnemosyne", "--quiet"]) == 0
    expected = standin.provider_db_path(hermes_home=str(home), agent_identity="default")
    assert len(_entries(expected)) == 1 and not elsewhere.exists()


def test_uncertain_database_fails_before_any_request(
    profile: Profile, mnemosyne: None, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    monkeypatch.setattr(mnemosyne_path, "installed_provider_version", lambda: "0.9.0")
    home = profile.home.path
    profile.emu.clear_requests()
    assert main(["digest", "--hermes-home", str(home), "--to", "mnemosyne"]) == 1
    err = capsys.readouterr().err
    assert "mnemosyne-hermes 0.9.0" in err and "--mnemosyne-db" in err
    assert str(home / "mnemosyne" / "data" / "mnemosyne.db") in err and "banks" in err
    assert not profile.emu.requests and not digest_path(home).exists()
    chosen = home / "chosen.db"
    argv = ["digest", "--hermes-home", str(home), "--to", "mnemosyne", "--mnemosyne-db"]
    assert main([*argv, str(chosen)]) == 0
    assert len(_entries(chosen)) == 1
    assert main(["digest", "--hermes-home", str(home), "--mnemosyne-db", str(chosen)]) == 2


def test_not_installed(profile: Profile, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    monkeypatch.setitem(sys.modules, "mnemosyne", None)
    assert main(["digest", "--hermes-home", str(profile.home.path), "--to", "mnemosyne"]) == 1
    assert "Mnemosyne is not installed" in capsys.readouterr().err
    home = str(profile.home.path)
    cron = ["digest", "--hermes-home", home, "--install-cron", "--to", "mnemosyne"]
    assert main(cron) == 1  # refused at install time, not on every run
    assert not (profile.home.path / "scripts" / "hermes_gbrain_digest.py").exists()


@pytest.mark.parametrize(
    "relative",
    [".hermes", ".hermes/profiles/coder", ".hermes/other", "srv/data", "srv/data/profiles/ops"],
)
def test_profile_name_matches_hermes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, relative: str
) -> None:
    from hermes_cli.profiles import get_active_profile_name

    monkeypatch.setenv("HOME", str(tmp_path))  # Hermes' native home: ~/.hermes
    home = tmp_path / relative
    home.mkdir(parents=True)
    monkeypatch.setenv("HERMES_HOME", str(home))
    assert mnemosyne_path.hermes_profile_name(home) == get_active_profile_name()


# -- refreshing -----------------------------------------------------------------------------


def test_refresh_after_thirty_days_restamps_one_entry(profile: Profile, mnemosyne: None) -> None:
    home = profile.home.path
    now = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    then = now - timedelta(days=30)
    standin.CLOCK = lambda: then
    plan = plan_mnemosyne(home)
    first = store_in_mnemosyne(home, LINE, plan=plan, now=then)
    (old,) = _entries(plan.db_path)
    query = "What is Maya Okafor working on?"
    # The row as the previous release left it (importance 0.6, first timestamp kept):
    # thirty days on, Mnemosyne's recall drops it.
    relevance = 2 / 4
    stale = standin.working_score(relevance, 0.6, old["timestamp"], now)
    assert stale < standin.SCORE_FLOOR and not standin.prefetch_keeps(stale, 0.6)
    # Ours stays eligible even unrefreshed: its importance is over the floor.
    assert standin.prefetch(plan.db_path, query, "hermes_s1", now=now)

    second = store_in_mnemosyne(home, LINE.replace("31", "32"), plan=plan, now=now)
    third = store_in_mnemosyne(home, LINE.replace("31", "33"), plan=plan, now=now)
    assert (first.replaced, second.replaced, third.replaced) == (False, True, True)
    assert first.memory_id == second.memory_id == third.memory_id
    (entry,) = _entries(plan.db_path)  # two refreshes: still one entry
    assert entry["content"] == LINE.replace("31", "33") and entry["pinned"] == 1
    assert datetime.fromisoformat(entry["timestamp"]).replace(tzinfo=UTC) == now
    fresh = standin.working_score(relevance, entry["importance"], entry["timestamp"], now)
    assert fresh >= standin.SCORE_FLOOR  # as fresh as the last build
    assert "33 pages" in standin.prefetch(plan.db_path, query, "hermes_s1", now=now)


def test_a_moved_database_leaves_no_copy_behind(coder: Profile, mnemosyne: None) -> None:
    home = coder.home.path
    coder.home.write_config("mnemosyne")  # isolation off: the shared file
    shared = store_in_mnemosyne(home, LINE)
    coder.home.write_config("mnemosyne", extra={"memory": {"mnemosyne": {"profile_isolation": 1}}})
    banked = store_in_mnemosyne(home, LINE)
    assert shared.db_path != banked.db_path and not banked.replaced
    assert _entries(shared.db_path) == [] and len(_entries(banked.db_path)) == 1


def test_cron_refreshes_mnemosyne_too(profile: Profile, mnemosyne: None) -> None:
    home = profile.home.path
    assert main(["digest", "--hermes-home", str(home), "--install-cron", "--to", "mnemosyne"]) == 0
    script = (home / "scripts" / "hermes_gbrain_digest.py").read_text(encoding="utf-8")
    assert '"--to", "mnemosyne"' in script and str(home) not in script


# -- the tag count --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scopes", "tags"), [("read", False), ("read write", False), ("admin", True)]
)
def test_tag_count_when_the_credential_can_call_get_stats(
    hermes_home: HermesHome, emu: Emulator, scopes: str, tags: bool
) -> None:
    """The digest's own token asks for ``read admin``; GBrain grants what the client has."""
    profile = make_profile(hermes_home, emu)
    client_id, secret = emu.register_client(f"digest-{scopes.replace(' ', '-')}", scopes)
    profile.set_env(GBRAIN_MCP_CLIENT_ID=client_id, GBRAIN_MCP_CLIENT_SECRET=secret)
    emu.clear_requests()
    assert main(["digest", "--hermes-home", str(hermes_home.path), "--quiet"]) == 0
    assert (" tags." in read_digest_line(hermes_home.path)) is tags
    asked = [parse_qs(r.body.decode()) for r in emu.requests if r.path.endswith("/token")]
    assert asked and all(form.get("scope") == ["read admin"] for form in asked)
    called = {r.tool for r in emu.requests if r.tool}
    assert ("get_stats" in called) is tags


# -- hook mode: the digest beside Mnemosyne, through a real AIAgent --------------------------


def test_hook_digest_beside_mnemosyne_once_and_cache_safe(
    coder: Profile, mnemosyne: None, stub_model: StubModel
) -> None:
    from hermes_cli import plugins

    home = coder.home
    home.write_plugin("mnemosyne", standin.PROVIDER_SOURCE)
    install("gbrain-hook", home.path)
    home.write_config(
        "mnemosyne",
        extra={
            "memory": {"mnemosyne": {"profile_isolation": True}},
            "plugins": {"enabled": ["gbrain-hook"]},
        },
    )
    assert main(["digest", "--hermes-home", str(home.path), "--to", "mnemosyne", "--quiet"]) == 0
    block = f"{DIGEST_HEADER}\n{read_digest_line(home.path)}"
    sink_db = plan_mnemosyne(home.path).db_path
    plugins.discover_plugins(force=True)

    messages = ("hi", "Who is Maya Okafor?", "ok", "What does Tomas Lindqvist do?")
    run = run_agent_conversation(stub_model, messages)
    assert engine_idle()
    assert standin.OPENED and standin.OPENED[-1] == sink_db  # Mnemosyne reads the sink's file
    prompts = run.system_prompts()
    assert len(prompts) == 4 and all(p == prompts[0] for p in prompts)  # byte-identical
    assert "# Mnemosyne Memory" in prompts[0] and DIGEST_HEADER not in prompts[0]
    users = run.last_user_contents()
    assert users[0].startswith("hi") and block in users[0]  # the first turn, even a greeting
    assert "[default:people/maya-okafor] — " in users[1]  # the briefing, on the first question
    for later in users[1:]:
        assert DIGEST_HEADER not in later
    for body in run.requests:  # once per request: only inside the replayed first turn
        sent = [str(m.get("content")) for m in body["messages"] if m.get("role") != "system"]
        assert sum(text.count(DIGEST_HEADER) for text in sent) == 1
    for n in range(1, 4):  # earlier turns are replayed byte for byte
        previous = [m for m in run.requests[n - 1]["messages"] if m.get("role") != "system"]
        replay = [m for m in run.requests[n]["messages"] if m.get("role") != "system"]
        assert [m.get("content") for m in replay[: len(previous)]] == [
            m.get("content") for m in previous
        ]


def test_hook_digest_budget_switch_and_first_turn_only(profile: Profile) -> None:
    from hermes_gbrain.adapters.hook import GBrainHook

    home = profile.home.path
    assert main(["digest", "--hermes-home", str(home), "--quiet"]) == 0
    hook = GBrainHook()

    def context(session: str, **kwargs: Any) -> str:
        result = hook.pre_llm_call(session_id=session, user_message="hi", **kwargs)
        return (result or {}).get("context", "")

    full = context("a", is_first_turn=True)
    assert full == f"{DIGEST_HEADER}\n{read_digest_line(home)}"
    assert context("b", is_first_turn=False) == ""
    earlier = [{"role": "user", "content": "hello"}, {"role": "assistant", "content": "hi"}]
    assert context("c", conversation_history=earlier) == ""  # no flag: the history decides
    assert context("d") == full
    profile.set_env(GBRAIN_DIGEST_MAX_CHARS="120")
    (line,) = context("e", is_first_turn=True).splitlines()[1:]
    assert len(line) <= 120 and line.startswith("GBrain digest (")
    profile.set_env(GBRAIN_DIGEST="off")
    assert context("f", is_first_turn=True) == ""
