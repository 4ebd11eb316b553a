"""The digest at scale: a few requests per kind, the same line, and a title vocabulary
kept correct by incremental refreshes (an added page, a changed title, a deletion)."""

from __future__ import annotations

import stat
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from hermes_gbrain.api import PageRef
from hermes_gbrain.connect import open_brain
from hermes_gbrain.emulator import Emulator
from hermes_gbrain.recall.digest import _names, build_digest, compose_line, write_digest
from hermes_gbrain.recall.title_index import index_path, load_index
from hermes_gbrain.recall.vocabulary import TitleVocabulary, load_vocabulary
from hermes_gbrain.settings import load_settings
from support.hermes_home import HermesHome

pytestmark = pytest.mark.hermes

PAGES = 3_000
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def big() -> Any:
    with Emulator(brain=f"generated:{PAGES}") as emu:
        yield emu


def _brain(emu: Emulator, home: HermesHome) -> Any:
    return open_brain(load_settings(emu.client_env("scale").get, hermes_home=home.path))


def _every_title(emu: Emulator) -> TitleVocabulary:
    return TitleVocabulary.build(p.title or p.slug.rsplit("/", 1)[-1] for p in emu.store.pages())


def _old_line(emu: Emulator, stamp: str) -> str:
    """The line as the full listing built it: names from every page, counts by type."""
    refs = [PageRef(p.slug, p.title, p.source_id, p.type, p.updated_at) for p in emu.store.pages()]
    counts: dict[str, int] = {}
    for ref in refs:
        counts[ref.type or "concept"] = counts.get(ref.type or "concept", 0) + 1
    return compose_line(stamp, len(refs), None, counts, _names(refs), 400)


def _listings(emu: Emulator) -> list[dict[str, Any]]:
    return [r.arguments or {} for r in emu.requests if r.tool == "list_pages"]


def test_line_unchanged_and_requests_bounded(big: Emulator, hermes_home: HermesHome) -> None:
    big.clear_requests()
    digest = build_digest(_brain(big, hermes_home), now=NOW, hermes_home=hermes_home.path)
    assert digest.line == _old_line(big, "2026-11-30 12:00 UTC")
    listings = _listings(big)
    named = [a for a in listings if a.get("type")]
    # One short request per kind; the title listing is keyset paged, each batch starting
    # at the last stamp seen and stepping past its one row (distinct stamps).
    assert len(named) == 4 and all(a["limit"] == 24 for a in named)
    assert len(listings) - len(named) == PAGES // 100 + 1
    assert all((a.get("offset") or 0) <= 1 for a in listings)
    assert digest.vocabulary == _every_title(big)
    write_digest(hermes_home.path, digest)
    assert stat.S_IMODE(index_path(hermes_home.path).stat().st_mode) == 0o600

    # The next build lists only what changed: a handful of requests, not 30.
    big.clear_requests()
    again = build_digest(
        _brain(big, hermes_home), now=NOW + timedelta(hours=6), hermes_home=hermes_home.path
    )
    assert again.counts["titles"] == "incremental"
    assert len(_listings(big)) <= 4 + 1
    assert again.vocabulary == digest.vocabulary


def test_incremental_refresh_sees_new_changed_and_deleted_pages(hermes_home: HermesHome) -> None:
    with Emulator(brain="generated:400") as emu:
        home = hermes_home.path
        write_digest(home, build_digest(_brain(emu, hermes_home), now=NOW, hermes_home=home))
        first = load_index(home)
        assert first is not None and len(first.pages) == 400

        emu.store.put_page("people/zed-quorum", "---\ntype: person\n---\n# Zed Quorum\n")
        victim = next(p for p in emu.store.pages() if p.type == "project")
        renamed = emu.store.pages()[5]
        emu.store.put_page(
            renamed.slug, f"---\ntype: {renamed.type}\ntitle: Quorum Zebra Drive\n---\nbody\n"
        )
        emu.clear_requests()
        later = NOW + timedelta(hours=1)
        digest = build_digest(_brain(emu, hermes_home), now=later, hermes_home=home)
        assert digest.counts["titles"] == "incremental"
        assert len(_listings(emu)) <= 4 + 1
        assert digest.vocabulary == _every_title(emu)
        write_digest(home, digest)
        vocab = load_vocabulary(home)
        assert vocab is not None and vocab.pages == 401 and vocab.df.get("quorum") == 2

        # A soft delete leaves updated_at alone: the page count gives it away -> rebuilt.
        emu.store.soft_delete(victim.slug, victim.source_id)
        digest = build_digest(
            _brain(emu, hermes_home), now=later + timedelta(hours=1), hermes_home=home
        )
        assert digest.counts["titles"] == "full"
        assert digest.vocabulary == _every_title(emu) and digest.vocabulary.pages == 400


def test_keyset_listing_survives_a_run_of_equal_stamps(hermes_home: HermesHome) -> None:
    """``updated_after`` is strict: 250 pages written in the same millisecond must not
    stall or skip the listing (it steps with ``offset`` inside one stamp)."""
    with Emulator(seed=False) as emu:
        stamp = "2026-11-29T10:00:00.000Z"
        for i in range(250):
            emu.store.put_page(f"concepts/c-{i:03d}", f"# Same Stamp {i}\n", now=stamp)
        emu.store.put_page("people/last-one", "# Last One\n", now="2026-11-29T11:00:00.000Z")
        digest = build_digest(_brain(emu, hermes_home), now=NOW, hermes_home=hermes_home.path)
        assert digest.titles is not None and len(digest.titles.pages) == 251
        assert digest.vocabulary == _every_title(emu)
        offsets = [a.get("offset") for a in _listings(emu) if a.get("sort") == "updated_asc"]
        assert offsets == [None, 100, 200]  # one stamp: the cursor stays, offset steps


def test_sample_brain_line_is_the_full_listing_line(hermes_home: HermesHome) -> None:
    with Emulator() as emu:
        digest = build_digest(_brain(emu, hermes_home), now=NOW, hermes_home=hermes_home.path)
        assert digest.line == _old_line(emu, "2026-11-30 12:00 UTC")
        assert digest.vocabulary == _every_title(emu)
