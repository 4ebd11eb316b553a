"""The measured turn budget: it follows the brain's distance, within a cap, per endpoint,
and survives the process (the profile keeps the estimate)."""

from __future__ import annotations

import json
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from hermes_gbrain.errors import TransportError
from hermes_gbrain.recall import turns
from hermes_gbrain.recall.briefing import Gate
from hermes_gbrain.recall.config import PointerConfig
from hermes_gbrain.recall.distance import (
    FILE_NAME,
    MAX_MEASURED_BUDGET_MS,
    measured_budget_ms,
    record_search,
    reset_distance,
)
from hermes_gbrain.settings import Settings

URL = "https://brain.example.test/mcp"
DEFAULT = turns.DEFAULT_BUDGET_MS


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    reset_distance()
    yield
    reset_distance()


def test_nothing_measured_is_the_default(tmp_path: Path) -> None:
    assert measured_budget_ms(str(tmp_path), URL, DEFAULT) == DEFAULT


def test_a_far_brain_raises_the_budget(tmp_path: Path) -> None:
    home = str(tmp_path)
    record_search(home, URL, 0.300)
    assert measured_budget_ms(home, URL, DEFAULT) == 425  # 1.25 x 300 + 50
    record_search(home, URL, 0.100)
    assert measured_budget_ms(home, URL, DEFAULT) == 425  # the slowest of the recent ones


def test_a_near_brain_keeps_the_default(tmp_path: Path) -> None:
    record_search(str(tmp_path), URL, 0.030)
    assert measured_budget_ms(str(tmp_path), URL, DEFAULT) == DEFAULT


def test_the_budget_is_capped(tmp_path: Path) -> None:
    record_search(str(tmp_path), URL, 5.0)
    assert measured_budget_ms(str(tmp_path), URL, DEFAULT) == MAX_MEASURED_BUDGET_MS


def test_a_new_process_starts_from_the_profiles_estimate(tmp_path: Path) -> None:
    home = str(tmp_path)
    record_search(home, URL, 0.300)
    path = tmp_path / "gbrain" / FILE_NAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert URL not in path.read_text()
    reset_distance()
    assert measured_budget_ms(home, URL, DEFAULT) == 425
    reset_distance()
    assert measured_budget_ms(home, "https://other.example.test/mcp", DEFAULT) == DEFAULT


@pytest.mark.parametrize("content", ["{broken", "[]", '{"key": 1, "ms": 300}', ""])
def test_a_damaged_file_is_ignored(tmp_path: Path, content: str) -> None:
    home = str(tmp_path)
    record_search(home, URL, 0.300)
    (tmp_path / "gbrain" / FILE_NAME).write_text(content)
    reset_distance()
    assert measured_budget_ms(home, URL, DEFAULT) == DEFAULT


def test_the_file_is_rewritten_only_when_the_estimate_moves(tmp_path: Path) -> None:
    home = str(tmp_path)
    path = tmp_path / "gbrain" / FILE_NAME
    record_search(home, URL, 0.300)
    first = path.stat().st_mtime_ns
    path.write_text(json.dumps({**json.loads(path.read_text()), "marker": 1}))
    record_search(home, URL, 0.310)  # within a quarter: no write
    assert "marker" in path.read_text()
    record_search(home, URL, 0.500)
    assert "marker" not in path.read_text()
    assert path.stat().st_mtime_ns >= first


def config(home: Path, budget: str | None = None) -> PointerConfig:
    settings = Settings(hermes_home=str(home), mcp_url=URL, access_token="tok")
    return PointerConfig(settings=settings, sync_budget_ms=None if budget is None else int(budget))


def test_a_set_budget_wins_and_the_preset_stays_in_the_background(tmp_path: Path) -> None:
    record_search(str(tmp_path), URL, 0.600)
    assert turns.budget_ms(config(tmp_path)) == 800
    assert turns.budget_ms(config(tmp_path, "100")) == 100
    assert turns.budget_ms(config(tmp_path), 0) == 0


def test_a_failing_search_is_no_sample(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class Down:
        def recall_rows(self, *args: object, **kwargs: object) -> object:
            raise TransportError("ConnectError")

    monkeypatch.setattr(turns, "brain_for", lambda _config: Down())
    search = turns.GatedSearch(config(tmp_path), Gate())
    with pytest.raises(TransportError):
        search("Who is Maya Okafor?", 3)
    assert measured_budget_ms(str(tmp_path), URL, DEFAULT) == DEFAULT
    assert not (tmp_path / "gbrain" / FILE_NAME).exists()
