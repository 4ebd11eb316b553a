"""The briefing of a session is claimed by one process: an ``O_EXCL`` file beside its record."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from hermes_gbrain.recall.shown import ShownLog, prune, sessions_dir


def test_only_one_of_many_processes_claims_a_session(tmp_path: Path) -> None:
    """Eight logs (eight processes' views of one profile) racing on one session id."""
    home = str(tmp_path)
    barrier = threading.Barrier(8)
    results: list[bool] = []
    lock = threading.Lock()

    def run() -> None:
        log = ShownLog()
        barrier.wait(5)
        won = log.claim_briefing(home, "shared-session")
        with lock:
            results.append(won)

    threads = [threading.Thread(target=run) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert sorted(results) == [False] * 7 + [True]
    assert ShownLog().claim_briefing(home, "another-session")


def test_the_claim_is_private_and_pruned_with_the_records(tmp_path: Path) -> None:
    home = str(tmp_path)
    assert ShownLog().claim_briefing(home, "s1")
    [claim] = sessions_dir(home).glob("*.brief")
    assert claim.stat().st_mode & 0o777 == 0o600
    assert "s1" not in claim.name
    os.utime(claim, (0, 0))
    assert prune(sessions_dir(home)) == 1
    assert ShownLog().claim_briefing(home, "s1")


def test_no_session_id_or_no_disk_claims_in_memory_only(tmp_path: Path) -> None:
    assert ShownLog().claim_briefing(str(tmp_path), "")
    assert ShownLog(persist=False).claim_briefing(str(tmp_path), "s1")
    assert not sessions_dir(str(tmp_path)).exists()


def test_an_unwritable_home_still_briefs(tmp_path: Path) -> None:
    home = tmp_path / "file-not-folder"
    home.write_text("")
    assert ShownLog().claim_briefing(str(home), "s1")
