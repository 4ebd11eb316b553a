"""A brain holding the issue's hostile pages, through the real Hermes memory manager:
neither the system prompt (digest) nor the first turn (briefing and pointers) carries
what was planted, while the honest page still comes through."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hermes_gbrain.commands.main import main
from hermes_gbrain.emulator import Emulator
from support.hermes_driver import MemoryManagerDriver, load_provider
from support.hermes_home import HermesHome
from support.pointer_env import make_profile
from support.screen_corpus import ISSUE_PAGES, NEVER_SHOWN, page_text

pytestmark = pytest.mark.hermes


@pytest.fixture(scope="module")
def hostile_emu() -> Iterator[Emulator]:
    with Emulator(lean=False, strict_params="warn") as emu:
        emu.store.put_page("people/maya-okafor", page_text("Maya Okafor"))
        for slug, title in ISSUE_PAGES.items():
            emu.store.put_page(slug, page_text(title))
        yield emu


def test_a_hostile_brain_reaches_no_prompt_through_real_hermes(
    hermes_home: HermesHome, hostile_emu: Emulator
) -> None:
    make_profile(hermes_home, hostile_emu, GBRAIN_BRIEFING="on", GBRAIN_BRIEFING_GATE="off")
    assert main(["digest", "--hermes-home", str(hermes_home.path), "--quiet"]) == 0
    with MemoryManagerDriver(load_provider("gbrain")) as driver:
        system = driver.system_prompt
        record = driver.turn("Who is Maya Okafor?")
    assert "Maya Okafor" in system
    assert "[default:people/maya-okafor]" in record.sent_content
    for text in (system, record.sent_content):
        leaked = [word for word in NEVER_SHOWN if word in text]
        assert not leaked, (leaked, text)
