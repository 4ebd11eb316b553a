"""Late rows: offered to the next turn only where the anchored gate passes them for it."""

from __future__ import annotations

import threading

from hermes_gbrain.api import SearchRow
from hermes_gbrain.recall.briefing import Gate
from hermes_gbrain.recall.config import PointerConfig
from hermes_gbrain.recall.gate import gate_rows
from hermes_gbrain.recall.pointers import HEADER, StoreKey, Ticket
from hermes_gbrain.recall.turns import GatedSearch, TurnSearch, late_pointers, merge_blocks
from hermes_gbrain.settings import Settings

KEY = StoreKey("/home", "cred", "s1")
MAYA = SearchRow(
    "people/maya-okafor",
    "Maya Okafor",
    "default",
    type="person",
    evidence="alias_hit",
    snippet="Maya Okafor is the CEO of Kestrel Works.",
)
BEACON = SearchRow("projects/beacon-app", "Beacon App", "default", type="project")


def late(*rows: SearchRow, done: bool = True, key: StoreKey = KEY) -> TurnSearch:
    config = PointerConfig(settings=Settings(hermes_home="/home", access_token="tok"))
    search = GatedSearch(config, Gate())
    search.found = rows
    ticket = Ticket(1, threading.Event())
    if done:
        ticket.done.set()
    return TurnSearch(key, "Who is Maya Okafor?", ticket, 0.0, search)


def test_rows_the_gate_passes_for_the_new_message_are_offered() -> None:
    block = late_pointers(late(MAYA, BEACON), KEY, "What is Maya Okafor's background?", Gate())
    assert block == f"{HEADER}\n- [default:people/maya-okafor] Maya Okafor"


def test_the_old_messages_verdicts_do_not_carry_over() -> None:
    """Maya was named by GBrain for the old message (alias_hit); not for this one."""
    assert late_pointers(late(MAYA, BEACON), KEY, "How is the weather?", Gate()) == ""


def test_the_old_messages_cosines_do_not_carry_over() -> None:
    """A close embedding to the old message backs no row for this one."""
    from dataclasses import replace

    rows = [replace(BEACON, snippet="The Beacon app ships weekly.", cosine=0.9)]
    rows += [SearchRow(f"notes/n{i}", f"Note {i}", "default", cosine=0.2) for i in range(6)]
    message = "what ships on schedule?"
    assert gate_rows(rows, message) != []  # for the old message, the cosine backed it
    assert late_pointers(late(*rows), KEY, message, Gate()) == ""


def test_nothing_from_another_session_a_running_search_or_another_gate_mode() -> None:
    message = "What is Maya Okafor's background?"
    other = StoreKey("/home", "cred", "s2")
    assert late_pointers(late(MAYA, key=other), KEY, message, Gate()) == ""
    assert late_pointers(late(MAYA, done=False), KEY, message, Gate()) == ""
    assert late_pointers(late(MAYA), KEY, message, Gate(mode="evidence")) == ""
    assert late_pointers(None, KEY, message, Gate()) == ""


def test_pages_shown_lately_are_skipped() -> None:
    message = "What is Maya Okafor's background?"
    skip = frozenset({"[default:people/maya-okafor]"})
    assert late_pointers(late(MAYA), KEY, message, Gate(), skip=skip) == ""


def test_merge_keeps_the_turns_own_lines_first_and_no_page_twice() -> None:
    own = f"{HEADER}\n- [default:projects/beacon-app] Beacon App"
    extra = f"{HEADER}\n- [default:projects/beacon-app] Beacon App\n- [default:people/x] X"
    assert merge_blocks(own, extra) == f"{own}\n- [default:people/x] X"
    assert merge_blocks("", extra) == extra
    assert merge_blocks(own, "") == own


KESTREL = SearchRow(
    "companies/kestrel-works",
    "Kestrel Works",
    "default",
    type="company",
    snippet="Kestrel Works builds the Beacon app for rangers.",
)


def test_a_late_row_needs_a_title_anchor_in_the_new_message() -> None:
    """Found for Maya, Kestrel's summary shares two words with the new message: not enough."""
    message = "What does the Beacon app do?"
    assert gate_rows([KESTREL], message) != []  # its own search's row would pass on words
    assert late_pointers(late(MAYA, KESTREL), KEY, message, Gate()) == ""
    named = late_pointers(late(MAYA, KESTREL), KEY, "Who founded Kestrel Works?", Gate())
    assert "[default:companies/kestrel-works]" in named


def test_the_turns_own_rows_are_gated_with_the_late_ones() -> None:
    """This turn's own search found the page the message names: a late row anchored only
    by a word of its title stays out, as it would beside the named page in one search."""
    roadmap = SearchRow(
        "notes/kestrel-roadmap", "Kestrel Roadmap", "default", type="note",
        snippet="What Kestrel ships next, the Beacon app first.",
    )  # fmt: skip
    message = "What is the Beacon App used for at Kestrel?"
    alone = late_pointers(late(MAYA, roadmap), KEY, message, Gate())
    assert "[default:notes/kestrel-roadmap]" in alone  # alone, "Kestrel" anchors it
    own = late(BEACON)
    assert late_pointers(late(MAYA, roadmap), KEY, message, Gate(), current=own) == ""
    # and a page its own search returned is left to its own block, not offered twice
    assert late_pointers(late(BEACON), KEY, message, Gate(), current=own) == ""
