"""The digest sink and hook mode against the real Mnemosyne (opt-in: ``make test-mnemosyne``).

Real Mnemosyne is ``mnemosyne-hermes`` 0.7.6 with ``mnemosyne-memory`` 4.0.0b6, about
500 MB with its embedding runtime, so it is not in the default test environment; these
tests skip without it. ``MNEMOSYNE_NO_EMBEDDINGS=1`` keeps it from fetching a model.
"""

from __future__ import annotations

import os
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("MNEMOSYNE_NO_EMBEDDINGS", "1")
mnemosyne_hermes = pytest.importorskip(
    "mnemosyne_hermes", reason="real Mnemosyne is not installed: run `make test-mnemosyne`"
)

from hermes_gbrain.commands.install import install  # noqa: E402
from hermes_gbrain.commands.main import main  # noqa: E402
from hermes_gbrain.commands.mnemosyne_path import resolve_mnemosyne_db  # noqa: E402
from hermes_gbrain.commands.mnemosyne_sink import (  # noqa: E402
    IMPORTANCE,
    SESSION_ID,
    plan_mnemosyne,
    store_in_mnemosyne,
)
from hermes_gbrain.emulator import Emulator  # noqa: E402
from hermes_gbrain.recall.digest import DIGEST_HEADER, read_digest_line  # noqa: E402
from hermes_gbrain.settings import cli_lookup  # noqa: E402
from support.hermes_driver import PRIMARY_INIT_KWARGS, run_agent_conversation  # noqa: E402
from support.hermes_home import HermesHome, make_hermes_home  # noqa: E402
from support.pointer_env import Profile, engine_idle, make_profile  # noqa: E402
from support.stub_model import StubModel  # noqa: E402

pytestmark = [pytest.mark.hermes, pytest.mark.mnemosyne]

ISOLATION = {"memory": {"mnemosyne": {"profile_isolation": True}}}


def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, relative: str) -> HermesHome:
    home = make_hermes_home(tmp_path / relative)
    monkeypatch.setenv("HERMES_HOME", str(home.path))
    return home


def _provider_db(home: Path) -> Path:
    """What the real provider opens when Hermes 0.19.0 initializes it for ``home``."""
    from hermes_cli.profiles import get_active_profile_name

    provider = mnemosyne_hermes.MnemosyneMemoryProvider()
    kwargs = {**PRIMARY_INIT_KWARGS, "agent_identity": get_active_profile_name()}
    provider.initialize("s1", hermes_home=str(home), **kwargs)
    try:
        assert provider._beam is not None, "Mnemosyne did not start"
        return Path(provider._beam.db_path).resolve()
    finally:
        provider.shutdown()


def _entries(db: Path) -> list[dict[str, Any]]:
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        rows = conn.execute("SELECT * FROM working_memory WHERE source = 'hermes-gbrain-digest'")
        return [dict(r) for r in rows]
    finally:
        conn.close()


@pytest.mark.parametrize(
    ("relative", "isolated", "data_dir"),
    [
        ("hermes-home", False, False),  # default profile
        ("hermes-home", True, False),  # default profile, isolation: bank from the folder
        ("root/profiles/coder", True, False),  # named profile with isolation
        ("root/profiles/coder", False, True),  # MNEMOSYNE_DATA_DIR set
        ("root/profiles/coder", True, True),
    ],
)
def test_resolution_matches_the_real_provider(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    relative: str,
    isolated: bool,
    data_dir: bool,
) -> None:
    home = _home(tmp_path, monkeypatch, relative)
    home.write_config("mnemosyne", extra=ISOLATION if isolated else None)
    if data_dir:
        monkeypatch.setenv("MNEMOSYNE_DATA_DIR", str(tmp_path / "mnemosyne-data"))
    ours = resolve_mnemosyne_db(home.path, cli_lookup(home.path)).db_path
    assert ours.resolve() == _provider_db(home.path)
    assert ("banks" in ours.parts) is isolated


def test_refresh_after_thirty_days_keeps_one_recalled_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mnemosyne import Mnemosyne

    home = _home(tmp_path, monkeypatch, "root/profiles/coder")
    home.write_config("mnemosyne", extra=ISOLATION)
    line = "GBrain digest (test): 31 pages. People: Samuel Mwangi, Elena Vasquez; Projects: Ledger"
    plan = plan_mnemosyne(home.path)
    first = store_in_mnemosyne(home.path, line)
    raw = Mnemosyne(session_id=SESSION_ID, db_path=plan.db_path)
    month_ago = (datetime.now(UTC) - timedelta(days=30)).isoformat()
    assert raw.beam.update_working(first.memory_id, timestamp=month_ago)

    provider = mnemosyne_hermes.MnemosyneMemoryProvider()
    kwargs = {**PRIMARY_INIT_KWARGS, "agent_identity": "coder"}
    provider.initialize("s1", hermes_home=str(home.path), **kwargs)
    query = "Tell me about Samuel Mwangi and Ledger Lake"
    try:
        # What the previous release left: importance 0.6 and the first timestamp.
        assert raw.beam.update_working(first.memory_id, importance=0.6)
        assert provider.prefetch(query, session_id="s1") == ""  # a month on: dropped
        second = store_in_mnemosyne(home.path, line.replace("31", "32"))
        third = store_in_mnemosyne(home.path, line.replace("31", "33"))
        recalled = provider.prefetch(query, session_id="s1")
    finally:
        provider.shutdown()
    assert first.memory_id == second.memory_id == third.memory_id and third.replaced
    (entry,) = _entries(plan.db_path)
    assert entry["importance"] == IMPORTANCE and entry["pinned"] == 1
    stamped = datetime.fromisoformat(entry["timestamp"]).replace(tzinfo=UTC)
    assert abs((datetime.now(UTC) - stamped).total_seconds()) < 120
    assert "33 pages" in recalled


def test_hook_digest_reaches_the_model_beside_real_mnemosyne(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, emu: Emulator, stub_model: StubModel
) -> None:
    from hermes_cli import plugins

    home = _home(tmp_path, monkeypatch, "root/profiles/coder")
    profile: Profile = make_profile(home, emu, GBRAIN_BRIEFING="on")
    # As `mnemosyne-hermes` installs itself: a plugin folder linked to the package.
    (home.plugins_dir / "mnemosyne").symlink_to(Path(mnemosyne_hermes.__file__).parent)
    install("gbrain-hook", home.path)
    home.write_config("mnemosyne", extra={**ISOLATION, "plugins": {"enabled": ["gbrain-hook"]}})
    argv = ["digest", "--hermes-home", str(home.path), "--to", "mnemosyne", "--quiet"]
    assert main(argv) == 0
    block = f"{DIGEST_HEADER}\n{read_digest_line(profile.home.path)}"
    sink_db = plan_mnemosyne(home.path).db_path
    plugins.discover_plugins(force=True)

    run = run_agent_conversation(stub_model, ("hi", "Who is Maya Okafor?", "ok"), shutdown=False)
    try:
        provider = run.provider
        assert provider is not None and provider.name == "mnemosyne"
        assert Path(provider._beam.db_path).resolve() == sink_db.resolve()  # type: ignore[attr-defined]
    finally:
        run.agent.shutdown_memory_provider(run.history)
        run.agent.close()
    assert engine_idle()
    prompts = run.system_prompts()
    assert all(p == prompts[0] for p in prompts) and "# Mnemosyne Memory" in prompts[0]
    users = run.last_user_contents()
    assert block in users[0] and all(DIGEST_HEADER not in u for u in users[1:])
    for body in run.requests:
        sent = [str(m.get("content")) for m in body["messages"] if m.get("role") != "system"]
        assert sum(text.count(DIGEST_HEADER) for text in sent) == 1
