"""The first turn's one recall: run by whichever layer asks first, read by both."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from hermes_gbrain.api import SearchResult, SearchRow
from hermes_gbrain.errors import GBrainError
from hermes_gbrain.recall import sharedcall
from hermes_gbrain.recall.briefing import BriefingSearch, Gate
from hermes_gbrain.recall.config import PointerConfig
from hermes_gbrain.recall.turns import GatedSearch
from hermes_gbrain.settings import Settings

MAYA = SearchRow(
    "people/maya-okafor",
    "Maya Okafor",
    "default",
    type="person",
    evidence="alias_hit",
    snippet="Maya Okafor is the CEO of Kestrel Works.",
)
CONFIG = PointerConfig(settings=Settings(hermes_home="/home", access_token="tok"))
MESSAGE = "Who is Maya Okafor?"


class Brain:
    """Counts recall calls; each waits for ``release`` so both layers ask while it runs."""

    def __init__(self, error: Exception | None = None) -> None:
        self.calls: list[dict[str, Any]] = []
        self.release = threading.Event()
        self.error = error

    def recall_rows(self, message: str, **kwargs: Any) -> SearchResult:
        self.calls.append({"message": message, **kwargs})
        assert self.release.wait(5)
        if self.error is not None:
            raise self.error
        return SearchResult(rows=(MAYA,), tool="search")


@pytest.fixture
def brain(monkeypatch: pytest.MonkeyPatch) -> Brain:
    fake = Brain()
    monkeypatch.setattr(sharedcall, "brain_for", lambda config: fake)
    return fake


Layers = tuple[list[Any], list[Any], list[threading.Thread]]


def both_layers(limit: int = 3) -> Layers:
    """The pointer search and the briefing reading one shared call, each on its thread."""
    pointer = GatedSearch(CONFIG, Gate(), window=f"user: {MESSAGE}")
    briefing = BriefingSearch(CONFIG, pointer.share(MESSAGE, limit))
    out: Layers = ([], [], [])

    def run(index: int, call: Any, rows: int) -> None:
        try:
            out[index].append(call(MESSAGE, rows))
        except Exception as exc:
            out[index].append(exc)

    threads = [
        threading.Thread(target=run, args=(0, pointer, limit)),
        threading.Thread(target=run, args=(1, briefing, 8)),
    ]
    for thread in threads:
        thread.start()
    out[2].extend(threads)
    return out  # the caller releases the brain, then settles


def settle(brain: Brain, out: Layers) -> None:
    brain.release.set()
    for thread in out[2]:
        thread.join(5)
    assert out[0] and out[1], "a layer never got its rows"


def test_one_call_serves_the_briefing_and_the_pointers(brain: Brain) -> None:
    out = both_layers()
    settle(brain, out)
    assert len(brain.calls) == 1
    call = brain.calls[0]
    assert call["message"] == MESSAGE and call["window"] == f"user: {MESSAGE}"
    assert call["limit"] > 8  # the pointer's rows: more than the briefing's own would ask
    assert [r.slug for r in out[0][0]] == [MAYA.slug]
    assert [r.slug for r in out[1][0]] == [MAYA.slug]


def test_a_failed_call_fails_both_layers_once(brain: Brain) -> None:
    brain.error = GBrainError("down")
    out = both_layers()
    settle(brain, out)
    assert len(brain.calls) == 1
    assert isinstance(out[0][0], GBrainError) and isinstance(out[1][0], GBrainError)


def test_another_message_gets_its_own_call(brain: Brain) -> None:
    brain.release.set()
    pointer = GatedSearch(CONFIG, Gate())
    shared = pointer.share(MESSAGE, 3)
    BriefingSearch(CONFIG, shared)("What is Ledger Lake?", 8)
    pointer(MESSAGE, 3)
    assert [c["message"] for c in brain.calls] == ["What is Ledger Lake?", MESSAGE]
    assert brain.calls[0]["limit"] == 8  # the briefing's own call, its own size
