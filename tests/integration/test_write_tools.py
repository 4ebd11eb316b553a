"""Write tools that replace in one call take two steps; one deadline per tool call.

Through a real MemoryManager and the emulator over HTTP (its own emulator: these sessions
mint tokens of their own, and the emulator limits mints per address as GBrain does).
"""

from __future__ import annotations

import dataclasses
import threading
import time
from typing import Any

from test_tool_bridge import WAIT, Session, _profile, session_factory, tools_sent

from hermes_gbrain.emulator import Emulator
from hermes_gbrain.files import data_dir
from support.hermes_home import HermesHome

__all__ = ["session_factory"]  # the fixture, shared with test_tool_bridge


def test_capture_over_an_existing_page_takes_two_steps(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    """GBrain's capture with the slug of an existing page replaces its text in one call."""
    _profile(hermes_home, emu)
    s = session_factory()
    fresh = {"content": "A new note.", "slug": "notes/captured-new"}
    done = s.call("gbrain_call", tool="capture", arguments=fresh)  # nothing to replace
    assert "preview" not in done and tools_sent(emu).count("capture") == 1
    emu.store.put_page("notes/captured", "# Captured\n\nThe owner's text.\n")
    args = {"content": "An overwrite.", "slug": "notes/captured"}
    emu.clear_requests()
    preview = s.call("gbrain_call", tool="capture", arguments=args)
    assert "capture would replace" in preview["preview"]["replaces"]
    assert preview["preview"]["page"]["exists"] is True and "capture" not in tools_sent(emu)
    page = emu.store.get("notes/captured", ["default"])
    assert page is not None and "owner's text" in page.compiled_truth
    emu.store.put_page("notes/captured", "# Captured\n\nEdited after the preview.\n")
    stale = s.call("gbrain_call", tool="capture", arguments=args, confirm=preview["confirm"])
    assert stale["code"] == "page_changed" and "capture" not in tools_sent(emu)
    preview = s.call("gbrain_call", tool="capture", arguments=args)
    done = s.call("gbrain_call", tool="capture", arguments=args, confirm=preview["confirm"])
    assert done["confirmed"] is True and tools_sent(emu).count("capture") == 1
    # Without a slug GBrain derives it from the text: one step, as before.
    emu.clear_requests()
    quick = s.call("gbrain_call", tool="capture", arguments={"content": "Quick thought."})
    assert "preview" not in quick and tools_sent(emu).count("capture") == 1


def test_add_link_over_an_existing_link_takes_two_steps(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    _profile(hermes_home, emu)
    s = session_factory()
    emu.store.put_page("notes/link-to", "# Target\n")
    emu.store.put_page("notes/link-from", "# Source\n\nSee [[notes/link-to]].\n")
    links = s.call("gbrain_call", tool="get_links", arguments={"slug": "notes/link-from"})
    (edge,) = [r for r in links["result"] if r.get("to_slug") == "notes/link-to"]
    same = {"from": "notes/link-from", "to": "notes/link-to", "link_type": edge["link_type"]}
    emu.clear_requests()
    preview = s.call("gbrain_call", tool="add_link", arguments={**same, "context": "new"})
    assert "context would be replaced" in preview["preview"]["replaces"]
    assert "add_link" not in tools_sent(emu)
    other = {"from": "notes/link-from", "to": "notes/link-to", "link_type": "another_kind"}
    s.call("gbrain_call", tool="add_link", arguments=other)  # a new edge: one step
    assert tools_sent(emu).count("add_link") == 1


# -- one deadline per tool call ---------------------------------------------------------------


def _budget(s: Session, seconds: float) -> None:
    assert s.tools.session.refreshed.wait(WAIT)  # scopes known, the disk cache written
    assert s.tools.session.refresh_error is None, s.tools.session.refresh_error
    bridge = s.tools.session.bridge
    bridge.settings = dataclasses.replace(bridge.settings, timeout_s=seconds)


def test_a_delete_preview_shares_one_deadline_across_its_reads(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    """``get_links`` held past the whole budget leaves ``get_backlinks`` no time: it is not
    sent (each read used to get a deadline of its own)."""
    _profile(hermes_home, emu)
    s = session_factory()
    emu.store.put_page("notes/held-links", "# Held\n\nSee [[notes/bridge-test]].\n")
    _budget(s, 1.0)
    emu.knobs.apply_delay_s = {"get_links": 2.0}
    emu.clear_requests()
    preview = s.call("gbrain_delete_page", slug="notes/held-links")
    assert preview["preview"]["links_out"] == {"count": None}
    assert "get_backlinks" not in tools_sent(emu) and "confirm" in preview


def test_a_hung_tool_list_leaves_the_call_its_share_of_one_deadline(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    """A cold tools/list that hangs falls back to the disk cache within half the budget; the
    call then runs in what is left, so the whole tool call ends by its one deadline."""
    from hermes_gbrain import mcp

    _profile(hermes_home, emu)
    s = session_factory()
    _budget(s, 2.0)
    assert s.tools.session.bridge.discovery is not None  # the disk cache to fall back on
    emu.knobs.apply_delay_s = {"tools/list": 30.0, "search": 30.0}
    with mcp._catalog_lock:
        mcp._catalogs.clear()
    for shared in data_dir(hermes_home.path).glob("catalog-*.json"):
        shared.unlink()  # the catalog the profile's processes share: cold, so it is fetched
    emu.clear_requests()
    started = time.monotonic()
    out = s.call("gbrain_call", tool="search", arguments={"query": "Kestrel"})
    took = time.monotonic() - started
    assert any(r.rpc_method == "tools/list" for r in emu.requests)  # the hung fetch was tried
    assert "deadline" in out["error"] and "search" in tools_sent(emu)
    # One deadline (2 s), not the catalog's own and then the call's: a fetch or a call that
    # waited out its 30 s hold would take 30 s, so a bound of 10 s leaves a busy machine room.
    assert took < 10.0, took


def _final(outbox: Any, op_ids: list[str], timeout: float) -> list[str]:
    """The rows' states once none is pending or in flight (the queue's own record)."""
    end = time.monotonic() + timeout
    while True:
        states = [outbox.get(op_id).state for op_id in op_ids]
        if not {"pending", "inflight"} & set(states) or time.monotonic() > end:
            return states
        threading.Event().wait(0.05)


def test_an_older_write_never_lands_after_a_newer_one_from_another_session(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    """Two sessions of one gateway process: session 1 queues A (held by the server) then B
    for the same page; session 2's worker, woken by an unrelated write, must not send B
    while A is still on its way. The page ends as B."""
    _profile(hermes_home, emu)
    first, second = session_factory(), session_factory()
    arrived, b_arrived, release = threading.Event(), threading.Event(), threading.Event()
    put_page = emu.store.put_page

    def held(slug: str, content: str, *args: Any, **kwargs: Any) -> Any:
        if "Version A" in content:  # only A is slow: B would land first if it were sent
            arrived.set()
            release.wait(WAIT)
        elif "Version B" in content:
            b_arrived.set()
        return put_page(slug, content, *args, **kwargs)

    emu.store.put_page = held  # type: ignore[method-assign]
    try:
        emu.clear_requests()
        a = first.call(
            "gbrain_put_page", slug="notes/two-sessions", content="# Two\n\nVersion A.\n"
        )
        assert arrived.wait(WAIT)  # A is in flight in session 1's worker
        b = first.call(
            "gbrain_put_page", slug="notes/two-sessions", content="# Two\n\nVersion B.\n"
        )
        second.call("gbrain_put_page", slug="notes/unrelated", content="# Wakes session 2\n")
        assert not b_arrived.wait(1.5)  # B is not sent while A may still land
        release.set()
        outbox = first.tools.session.bridge.outbox
        assert _final(outbox, [a["id"], b["id"]], 20.0) == ["delivered", "delivered"]
    finally:
        release.set()
        del emu.store.put_page
    sent = [
        str((r.arguments or {}).get("content"))
        for r in emu.requests
        if r.tool == "put_page" and (r.arguments or {}).get("slug") == "notes/two-sessions"
    ]
    assert ["Version A" in c for c in sent] == [True, False]  # A, then B, each once
    page = emu.store.get("notes/two-sessions", ["default"])
    assert page is not None and "Version B." in page.compiled_truth


def test_a_page_edited_while_the_user_is_asked_is_not_deleted(
    hermes_home: HermesHome, emu: Emulator, session_factory: Any
) -> None:
    """The revision is checked again after the approval prompt: a person may take minutes,
    and an edit made meanwhile is not destroyed by the "yes" given to the older page."""
    from tools.terminal_tool import set_approval_callback

    _profile(hermes_home, emu)
    s = session_factory()
    emu.store.put_page("notes/asked-slowly", "# Asked\n\nBefore.\n")

    def prompt(command: str, description: str, allow_permanent: bool = True) -> str:
        emu.store.put_page("notes/asked-slowly", "# Asked\n\nEdited while you were asked.\n")
        return "once"

    preview = s.call("gbrain_delete_page", slug="notes/asked-slowly")
    emu.clear_requests()
    set_approval_callback(prompt)
    try:
        out = s.call("gbrain_delete_page", slug="notes/asked-slowly", confirm=preview["confirm"])
    finally:
        set_approval_callback(None)
    assert out["code"] == "page_changed" and out["deleted"] is False
    assert "delete_page" not in tools_sent(emu)
    page = emu.store.get("notes/asked-slowly", ["default"])
    assert page is not None and "Edited while" in page.compiled_truth
