"""The soaks, shortened to a few seconds: many chats, three profiles, random faults; and
page writes through the outbox while GBrain is slow and workers crash.

The full runs (``bench/soak.py``, ``bench/write_soak.py``) publish their figures in
``docs/reliability.md``; these hold the same zero targets: no exception into Hermes, no
pointer to another chat's or profile's page, nothing handed out twice, no write lost,
sent twice, applied over an edit it had seen or out of order, and no secret, token or
user message in any log record, repr or file under the homes.
"""

from __future__ import annotations

from pathlib import Path

from support.soak import SoakConfig, leak_scan, run_soak


def test_short_soak_holds_every_zero_target(tmp_path: Path) -> None:
    config = SoakConfig(
        sessions=9,
        turns=240,
        workers=6,
        seed=7,
        deadline_s=0.5,
        fault_every=12,
        fault_turns=6,
        reset_rate=0.05,
        undo_rate=0.05,
        shutdown_rate=0.03,
        write_rate=0.3,
    )
    result = run_soak(tmp_path, config)
    assert result.turns > 150
    assert result.hermes_errors == []
    assert (result.wrong_profile, result.wrong_session, result.handed_twice) == (0, 0, 0)
    assert result.pointer_blocks > 0  # the checks above saw real pointers
    assert result.writes_acked > 0
    assert (result.writes_lost, result.writes_duplicated) == (0, 0)
    assert result.leaks == []
    assert len(result.faults) >= 5  # the run met many kinds of fault
    assert result.resets and result.undos and result.shutdowns


def test_the_leak_scan_finds_what_it_looks_for(tmp_path: Path) -> None:
    """The scan above would see a leak: a planted secret, token or message is reported."""
    home = tmp_path / "home"
    (home / "gbrain").mkdir(parents=True)
    (home / ".env").write_text("GBRAIN_MCP_CLIENT_SECRET=s3cret-value\n")  # by design
    (home / "gbrain" / "state.json").write_text('{"note": "tok-123"}')
    lines = ["hermes_gbrain.recall: search failed for umsg000042"]
    leaks = leak_scan(lines, [home], ["s3cret-value", "tok-123"], ["What about it? umsg000042"])
    assert leaks == ["secret in gbrain/state.json", "user message in a log record or repr"]


def test_short_write_soak_never_loses_repeats_clobbers_or_reorders() -> None:
    """``bench/write_soak.py`` shortened: a few hundred writes, slow applies, crashes."""
    from support.write_soak import WriteSoakConfig, run_write_soak

    result = run_write_soak(
        WriteSoakConfig(writes=200, pages=12, seed=3, fault_every_s=0.4, crash_rate=0.1)
    )
    assert result.stuck == [], "\n".join(result.stuck)  # each open row, explained
    # a queued write superseded by a later one to the same page is not applied, and a busy
    # machine queues more of them: many are applied, how many depends on the machine's speed
    assert result.writes == 200 and result.applied > 40
    assert result.crashes >= 1 and result.faults["slow-apply"] + result.faults["latency"] >= 1
    assert (result.lost, result.applied_twice) == (0, 0), result.lost_states
    assert (result.clobbered, result.out_of_order) == (0, 0)
