"""A real AIAgent against the loopback stub model; compat fallbacks; the installer."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from hermes_gbrain.adapters import compat
from hermes_gbrain.commands.install import MARKER, install, uninstall
from hermes_gbrain.commands.main import main
from hermes_gbrain.recall.pointers import HEADER
from support.hermes_driver import build_agent, extract_memory_context
from support.hermes_flavor import on_pinned_hermes
from support.pointer_env import WAIT, Profile, engine_idle
from support.stub_model import StubModel

pytestmark = pytest.mark.hermes


def test_block_reaches_the_model_and_transcript_stays_clean(
    profile: Profile, stub_model: StubModel
) -> None:
    agent = build_agent(stub_model)
    history: list[dict[str, object]] = []
    try:
        for message in ("Who is Maya Okafor?", "What does she prefer?"):
            result = agent.run_conversation(message, conversation_history=history)
            history = list(result.get("messages") or [])
            assert agent._memory_manager.flush_pending(timeout=WAIT)
            assert engine_idle()
    finally:
        agent.shutdown_memory_provider(history)
        agent.close()
    users = []
    for body in stub_model.requests:
        msgs = [m for m in body.get("messages", []) if m.get("role") == "user"]
        users.append(str(msgs[-1]["content"]))
    first = extract_memory_context(users[0])  # pointers about the message being answered
    assert first is not None
    assert f"{HEADER}\n- [default:people/maya-okafor] Maya Okafor" in first
    last = users[-1]
    assert last.startswith("What does she prefer?")
    assert "[default:people/maya-okafor]" not in last  # the model has it from turn 1
    stored = [m["content"] for m in history if m.get("role") == "user"]
    assert stored == ["Who is Maya Okafor?", "What does she prefer?"]


# -- compat: 0.19.0 has none of the newer helpers, the newer fork has them all ----------------


def test_compat_detects_what_this_hermes_has() -> None:
    newer = not on_pinned_hermes()
    assert compat.HAS_SECRET_SCOPE
    assert compat.HAS_APPROVAL_PROMPT
    assert compat.HAS_TRIVIAL_PROMPT is newer
    assert compat.HAS_RECALL_STATUS is newer
    assert compat.HAS_SPAWN_CONTEXT_THREAD is newer


def test_fallback_trivial_and_recall_status() -> None:
    assert compat.is_trivial_prompt("ok") and not compat.is_trivial_prompt("k8s")
    status = compat.RecallStatus("GBrain pointers", 2)
    assert (status.provider_label, status.count, status.glyph) == ("GBrain pointers", 2, "🧠")


def test_fallback_spawn_thread_is_daemon_and_unstarted() -> None:
    ran = threading.Event()
    thread = compat.spawn_thread(ran.set, "t")
    assert thread.daemon and not thread.is_alive()
    thread.start()
    assert ran.wait(WAIT)
    assert compat.fallback_spawn_context_thread(ran.set, "u").daemon


def test_fallback_get_secret_reads_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GBRAIN_TEST_VALUE", "v")
    assert compat.fallback_get_secret("GBRAIN_TEST_VALUE") == "v"
    assert compat.fallback_get_secret("GBRAIN_MISSING", "d") == "d"


def test_profile_lookup_fails_closed_when_multiplexed_unscoped(tmp_path: Path) -> None:
    from agent.secret_scope import set_multiplex_active

    set_multiplex_active(True)
    try:
        with pytest.raises(compat.UnscopedSecretError):
            compat.profile_lookup(str(tmp_path))
    finally:
        set_multiplex_active(False)


def test_profile_lookup_falls_back_to_profile_dotenv(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("GBRAIN_POINTER_LIMIT=7\n", encoding="utf-8")
    lookup = compat.profile_lookup(str(tmp_path), secret=lambda name, default=None: None)
    assert lookup("GBRAIN_POINTER_LIMIT") == "7"


def test_recall_status_and_schema(profile: Profile) -> None:
    from support.hermes_driver import MemoryManagerDriver, load_provider

    provider = load_provider("gbrain")
    with MemoryManagerDriver(provider) as driver:
        first = driver.turn("Who is Maya Okafor?")
        status = provider.recall_status()  # type: ignore[attr-defined]
        assert status.provider_label == "GBrain pointers"
        assert status.count == first.prefetch.count("\n- [") > 0
        driver.turn("ok")
        assert provider.recall_status() is None  # type: ignore[attr-defined]
    keys = {f["env_var"] for f in provider.get_config_schema()}
    assert {"GBRAIN_MCP_URL", "GBRAIN_MCP_CLIENT_ID", "GBRAIN_MCP_CLIENT_SECRET"} <= keys
    secrets = {f["env_var"] for f in provider.get_config_schema() if f.get("secret")}
    assert secrets == {"GBRAIN_MCP_CLIENT_SECRET", "GBRAIN_MCP_ACCESS_TOKEN"}
    provider.save_config({"mcp_url": "x"}, str(profile.home.path))  # writes nothing


@pytest.mark.hermes019  # newer Hermes shows recall_status() itself, so the callback stays unused
def test_status_line_stands_in_for_the_recall_indicator_on_0_19_0(profile: Profile) -> None:
    """0.19.0 has no RecallStatus: the CLI's status callback shows a count, never a title."""
    from support.hermes_driver import MemoryManagerDriver, load_provider

    shown: list[str] = []
    provider = load_provider("gbrain")
    driver = MemoryManagerDriver(provider, init_kwargs={"status_callback": shown.append})
    with driver:
        first = driver.turn("Who is Maya Okafor?")
        driver.turn("ok")  # nothing recalled: nothing shown
    assert shown == [f"🧠 GBrain pointers: {first.prefetch.count(chr(10))}"]
    assert first.prefetch.count("\n") > 0


def test_a_broken_status_callback_costs_nothing(profile: Profile) -> None:
    from support.hermes_driver import MemoryManagerDriver, load_provider

    def broken(message: str) -> None:
        raise RuntimeError(message)

    driver = MemoryManagerDriver(load_provider("gbrain"), init_kwargs={"status_callback": broken})
    with driver:
        assert "[default:people/maya-okafor]" in driver.turn("Who is Maya Okafor?").prefetch


# -- installer ---------------------------------------------------------------------------------


def test_install_is_idempotent_and_uninstall_removes_only_ours(tmp_path: Path) -> None:
    first = install("gbrain-pointer", tmp_path)
    assert set(first.changed) == {"plugin.yaml", "__init__.py", MARKER}
    init = (first.directory / "__init__.py").read_text(encoding="utf-8")
    assert "MemoryProvider" in init[:8192]
    assert install("gbrain-pointer", tmp_path).changed == ()
    (first.directory / "notes.txt").write_text("mine", encoding="utf-8")
    removed = uninstall("gbrain-pointer", tmp_path)
    assert set(removed.changed) == {"plugin.yaml", "__init__.py", MARKER}
    assert sorted(p.name for p in first.directory.iterdir()) == ["notes.txt"]


def test_install_refuses_foreign_directory(tmp_path: Path) -> None:
    foreign = tmp_path / "plugins" / "gbrain"
    foreign.mkdir(parents=True)
    (foreign / "__init__.py").write_text("# someone else's", encoding="utf-8")
    assert main(["install", "--hermes-home", str(tmp_path)]) == 1
    assert uninstall("gbrain", tmp_path).changed == ()
    assert (foreign / "__init__.py").exists()


def test_cli_install_roundtrip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["install", "--name", "gbrain", "--hermes-home", str(tmp_path)]) == 0
    assert (tmp_path / "plugins" / "gbrain" / "plugin.yaml").is_file()
    assert main(["install", "--hermes-home", str(tmp_path), "--uninstall"]) == 0
    assert not (tmp_path / "plugins" / "gbrain").exists()
    assert "memory.provider gbrain" in capsys.readouterr().out


def test_entry_points_declared() -> None:
    from importlib.metadata import entry_points

    names = {ep.name: ep.value for ep in entry_points(group="hermes_agent.memory_providers")}
    assert names["gbrain"] == "hermes_gbrain.adapters.provider:register"
    assert names["gbrain-pointer"] == "hermes_gbrain.adapters.provider:register_pointer"


def test_demo_prints_the_block(hermes_home: object) -> None:
    import io

    from hermes_gbrain.commands.demo import run_demo

    out = io.StringIO()
    assert run_demo(out) == 0
    text = out.getvalue()
    turns = dict(
        (int(part.split(" ", 1)[0]), part) for part in text.split("── turn ")[1:]
    )  # turn number -> its section
    assert sorted(turns) == [1, 2, 3, 4, 5]
    assert f"{HEADER}\n    - Maya Okafor [default:people/maya-okafor] — " in turns[1]  # briefing
    assert "trivial message" in turns[2] and HEADER not in turns[2]  # "ok" is turn 2
    assert "trivial message" not in turns[3] + turns[4] + turns[5]
    # pointers about the turn's own message
    assert f"{HEADER}\n    - [default:projects/driftwood-sync] Driftwood Sync" in turns[3]
    assert "[default:decisions/sqlite-on-device]" in turns[4]
    # turn 5 names Maya and Driftwood again: both were shown within five turns
    assert "maya-okafor]" not in turns[5] and "driftwood-sync]" not in turns[5]
    # one search per real turn, and one of the word pairs of each message that has two
    # distinctive words ("Driftwood Sync project": "sync" and "project" are ordinary)
    assert "searches sent: 4 for the messages" in text and "and 3 for their word pairs" in text
