"""``hermes-gbrain digest``: build, atomicity, staleness, partial failure, cron.

The Mnemosyne sink and the tag count are in ``test_digest_reach.py``."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from hermes_gbrain.commands.cron import JOB_NAME, SCRIPT_NAME
from hermes_gbrain.commands.main import main
from hermes_gbrain.connect import open_brain
from hermes_gbrain.emulator.faults import RecordedRequest
from hermes_gbrain.recall.digest import (
    build_digest,
    digest_path,
    read_digest,
    read_digest_line,
    write_digest,
)
from hermes_gbrain.settings import load_settings
from support.pointer_env import Profile

pytestmark = pytest.mark.hermes


def brain_for(profile: Profile, scopes: str = "read") -> Any:
    client_id, secret = profile.emu.register_client(f"digest-{scopes}-{id(profile)}", scopes)
    env = {**profile.env, "GBRAIN_MCP_CLIENT_ID": client_id, "GBRAIN_MCP_CLIENT_SECRET": secret}
    return open_brain(load_settings(env.get, hermes_home=profile.home.path), scope=scopes)


def test_read_scope_digest_filters_generated_and_injection_pages(profile: Profile) -> None:
    emu = profile.emu
    digest = build_digest(brain_for(profile), now=datetime(2026, 11, 30, 15, 7, tzinfo=UTC))
    line = digest.line
    assert line.startswith("GBrain digest (2026-11-30 15:07 UTC): 31 pages. People (7): ")
    assert len(line) <= 400 and "\n" not in line
    for absent in ("Preferences", "Key Numbers", "Weekly Digest", "Ignore", "ASSISTANT"):
        assert absent not in line
    assert "tags" not in line  # get_stats needs admin scope; it was never called
    tools = {r.tool for r in emu.requests if r.tool}
    assert tools == {"get_brain_identity", "schema_stats", "list_pages"}
    assert digest.counts["pages"] == 31 and digest.counts["by_type"]["person"] == 7
    assert digest.brain["page_count"] == 31


def test_admin_scope_adds_tags_and_budget_is_kept(profile: Profile) -> None:
    digest = build_digest(brain_for(profile, "admin"), max_chars=150)
    assert ", 29 tags." in digest.line and len(digest.line) <= 150


def test_cli_writes_atomically_and_a_failed_build_keeps_the_good_digest(
    profile: Profile, capsys: pytest.CaptureFixture[str]
) -> None:
    home = str(profile.home.path)
    assert main(["digest", "--hermes-home", home]) == 0
    out = capsys.readouterr().out
    good = read_digest(home)
    assert good is not None and good["line"] in out
    shared = (".salt", "token-", "catalog-")  # the profile's token and catalog, shared
    names = sorted(
        p.name for p in digest_path(home).parent.iterdir() if not p.name.startswith(shared)
    )
    assert names == ["digest.json", "title_index.json", "title_vocab.json"]
    raw = digest_path(home).read_text(encoding="utf-8")
    assert profile.env["GBRAIN_MCP_CLIENT_SECRET"] not in raw and profile.emu.mcp_url not in raw

    # Partial: the second list_pages batch fails -> nothing replaces the good file.
    emu = profile.emu

    def fail_listing(rec: RecordedRequest) -> None:
        if rec.tool == "list_pages":
            emu.knobs.status = 500

    emu.knobs.on_request = fail_listing
    assert main(["digest", "--hermes-home", home, "--quiet"]) == 1
    assert "hermes-gbrain digest:" in capsys.readouterr().err
    assert digest_path(home).read_text(encoding="utf-8") == raw
    names = sorted(
        p.name for p in digest_path(home).parent.iterdir() if not p.name.startswith(shared)
    )
    assert names == ["digest.json", "title_index.json", "title_vocab.json"]


def test_quiet_build_prints_nothing(profile: Profile, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["digest", "--hermes-home", str(profile.home.path), "--quiet"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


def test_staleness_and_malformed_files(tmp_path: Path) -> None:
    from hermes_gbrain.recall.digest import Digest

    now = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    built = (now - timedelta(hours=47)).isoformat()
    write_digest(tmp_path, Digest("GBrain digest: fresh", built))
    assert read_digest_line(tmp_path, now=now) == "GBrain digest: fresh"
    assert read_digest_line(tmp_path, now=now, max_age_hours=24) == ""
    assert read_digest_line(tmp_path, now=now + timedelta(hours=2)) == ""  # 49 h: stale
    assert read_digest_line(tmp_path, now=now - timedelta(hours=49)) == ""  # from the future
    path = digest_path(tmp_path)
    for junk in ("{", "[]", '{"schema": 2, "line": "x", "built_at": "2026"}', ""):
        path.write_text(junk, encoding="utf-8")
        assert read_digest_line(tmp_path, now=now) == ""
    path.write_text(json.dumps({"schema": 1, "line": "x", "built_at": "2026-11-30"}), "utf-8")
    assert read_digest_line(tmp_path, now=now) == ""  # no time zone
    assert read_digest_line(tmp_path / "missing") == ""


def test_cron_install_run_and_remove(profile: Profile) -> None:
    from cron import jobs, scheduler

    home = profile.home.path
    assert main(["digest", "--hermes-home", str(home), "--install-cron", "--every", "6h"]) == 0
    assert main(["digest", "--hermes-home", str(home), "--install-cron", "--quiet"]) == 0
    script = home / "scripts" / SCRIPT_NAME
    text = script.read_text(encoding="utf-8")
    assert str(home) not in text and "hermes_gbrain.commands.main" in text
    with jobs.use_cron_store(home):
        ours = [j for j in jobs.list_jobs(include_disabled=True) if j["name"] == JOB_NAME]
    assert len(ours) == 1  # re-installing replaced the job
    job = ours[0]
    assert job["no_agent"] and job["script"] == SCRIPT_NAME
    assert job["schedule"]["kind"] == "interval" and job["schedule"]["minutes"] == 360
    # Hermes' own script runner (what the gateway's tick does for a no-agent job); newer
    # Hermes keeps it in cron.scheduler_script.
    runner = getattr(scheduler, "_run_job_script", None)
    if runner is None:
        from cron import scheduler_script

        runner = scheduler_script._run_job_script
    ok, output = runner(SCRIPT_NAME)
    assert ok and output == ""  # quiet: nothing to deliver
    assert read_digest_line(home).startswith("GBrain digest (")

    assert main(["digest", "--hermes-home", str(home), "--remove-cron"]) == 0
    with jobs.use_cron_store(home):
        assert not [j for j in jobs.list_jobs(include_disabled=True) if j["name"] == JOB_NAME]
    assert not script.exists()
    assert main(["digest", "--hermes-home", str(home), "--remove-cron", "--quiet"]) == 0


def test_a_second_remove_cron_says_nothing_was_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["digest", "--hermes-home", str(tmp_path), "--remove-cron"]) == 0
    out = capsys.readouterr().out
    assert "nothing removed" in out and "removed 0" not in out


def test_cron_rejects_a_bad_interval(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["digest", "--hermes-home", str(tmp_path), "--install-cron", "--every", "1w"]) == 1
    assert "--every" in capsys.readouterr().err


def test_progress_bar_only_for_large_brains() -> None:
    import io

    from hermes_gbrain.commands.digest import TerminalProgress

    small, large = io.StringIO(), io.StringIO()
    bar = TerminalProgress(small)
    bar(31, 31)
    bar.close()
    assert small.getvalue() == ""
    bar = TerminalProgress(large)
    for done in (100, 200, 600):
        bar(done, 600)
    bar.close()
    assert large.getvalue().endswith(f"[{'#' * 30}] 600/600\n") and "\r" in large.getvalue()
