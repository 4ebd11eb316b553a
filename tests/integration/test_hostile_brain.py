"""The issue's own hostile pages, served over loopback HTTP by the emulator: the digest,
the pointers, the briefing and a ``gbrain_search`` answer built from them never carry
the planted text."""

from __future__ import annotations

from pathlib import Path

from hermes_gbrain.connect import open_brain
from hermes_gbrain.emulator import Emulator
from hermes_gbrain.recall.briefing import format_briefing, select_rows
from hermes_gbrain.recall.digest import build_digest
from hermes_gbrain.recall.gate import Gate
from hermes_gbrain.recall.pointers import pointer_lines
from hermes_gbrain.settings import load_settings
from hermes_gbrain.toolbridge.bridge import ToolBridge
from hermes_gbrain.toolbridge.session import write_gate
from support.screen_corpus import ISSUE_PAGES as PLANTED
from support.screen_corpus import NEVER_SHOWN as NEVER
from support.screen_corpus import page_text as _page


def test_planted_pages_never_reach_digest_pointers_briefing_or_tools(tmp_path: Path) -> None:
    with Emulator() as emu:
        emu.store.put_page("people/maya-okafor", _page("Maya Okafor"))
        for slug, title in PLANTED.items():
            emu.store.put_page(slug, _page(title))
        env = emu.client_env("hostile-brain")
        settings = load_settings(env.get, hermes_home=tmp_path)
        brain = open_brain(settings)
        digest = build_digest(brain, max_chars=2_000).line
        rows = brain.search("Maya Okafor", limit=20, snippet_chars=240).rows
        pointers = "\n".join(pointer_lines(rows))
        briefing = format_briefing(select_rows(rows, "Maya Okafor?", gate=Gate(mode="off")))
        bridge = ToolBridge(
            settings=settings, gate=write_gate("read", None, None), brain=lambda _w: brain
        )
        answer = bridge.handle("gbrain_search", {"query": "Maya Okafor", "limit": 20})
    assert len(rows) >= len(PLANTED)  # the server did return the planted pages
    assert "Maya Okafor" in digest and "[default:people/maya-okafor] Maya Okafor" in pointers
    assert "Maya Okafor [default:people/maya-okafor]" in briefing
    for text in (digest, pointers, briefing, answer):
        leaked = [word for word in NEVER if word in text]
        assert not leaked, (leaked, text)
    assert "Maya Click here" in pointers  # a link becomes its text
