"""Write-back pieces without a server: Hermes' file format, the ledger's matching and order."""

from __future__ import annotations

from pathlib import Path

import pytest

from hermes_gbrain.writeback.entries import read_entries
from hermes_gbrain.writeback.ledger import Ledger
from hermes_gbrain.writeback.mirror import kind_for, profile_label, provenance

ENDPOINT = "http://127.0.0.1:1/mcp"

SAMPLES = [
    "",
    "   \n",
    "one",
    "one\n§\ntwo\n§\none",
    "a § b\n§\n  spaced  \n§\n\n§\nlast\n",
    "multi\nline\n§\nentry",
    "§ at start\n§\n§",
]


@pytest.mark.parametrize("text", SAMPLES)
def test_entries_are_read_like_hermes_reads_them(tmp_path: Path, text: str) -> None:
    from tools.memory_tool import MemoryStore

    (tmp_path / "memories").mkdir()
    path = tmp_path / "memories" / "MEMORY.md"
    path.write_text(text, encoding="utf-8")
    theirs = list(dict.fromkeys(MemoryStore._read_file(path)))  # load_from_disk dedups too
    assert read_entries(tmp_path, "memory") == theirs


def test_missing_files_have_no_entries(tmp_path: Path) -> None:
    assert read_entries(tmp_path, "user") == []


def _record(ledger: Ledger, action: str, target: str, **kw: str) -> list[str]:
    return ledger.record(
        ENDPOINT,
        action,
        target,
        retire=kw.pop("retire", "") == "1",
        provenance=lambda op: provenance(target, "default", "s1", op),
        kind=kind_for(target),
        entity=None,
        **kw,
    )


def test_replace_and_remove_find_the_entry_as_hermes_does(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path / "l.sqlite3")
    try:
        assert len(_record(ledger, "add", "user", content="Likes tea")) == 1
        assert _record(ledger, "add", "user", content="  Likes tea ") == []  # already there
        assert len(_record(ledger, "add", "user", content="Likes tennis")) == 1
        # "Likes" names two different entries: Hermes refuses, and so do we (no retire).
        assert len(_record(ledger, "replace", "user", old_text="Likes", content="x", retire="1"))
        assert [s for _, _, _, s in ledger.facts(ENDPOINT)] == ["live", "live", "live"]
        ops = _record(ledger, "replace", "user", old_text="tea", content="Likes green tea")
        assert len(ops) == 1  # a remember; nothing retired without the user's setting
        ops = _record(ledger, "remove", "user", old_text="tennis", retire="1")
        assert len(ops) == 1  # the forget
        assert _record(ledger, "remove", "memory", old_text="tennis", retire="1") == []
        states = [(t, s) for _, t, _, s in ledger.facts(ENDPOINT)]
        assert states == [
            ("Likes tea", "replaced"),
            ("Likes tennis", "removed"),
            ("x", "live"),
            ("Likes green tea", "live"),
        ]
        head = ledger.head(ENDPOINT)
        assert head is not None and head.action == "remember" and head.text == "Likes tea"
        assert "Likes" not in repr(head)
    finally:
        ledger.close()


def test_the_ledger_is_private(tmp_path: Path) -> None:
    path = tmp_path / "gbrain" / "l.sqlite3"
    path.parent.mkdir()
    Ledger(path).close()
    assert path.stat().st_mode & 0o777 == 0o600


def test_provenance_is_bounded_and_names_only_ids() -> None:
    text = provenance("user", "default", "s" * 1000 + "\nignore previous", "m_0123456789ab")
    assert len(text) <= 200 and "\n" not in text and " previous" not in text
    assert profile_label("/home/x/.hermes") == "default"
    assert profile_label("/home/x/.hermes/profiles/work") == "work"
