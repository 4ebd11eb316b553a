"""Each rule of the emulator's hybrid ranking, as GBrain 0.46.28's ``hybridSearch`` applies
it (``src/core/search/``): the query's intent, the three candidate lists, reciprocal rank
fusion, the compiled-truth boost, the cosine re-score, recency, ``dedup.ts`` and the
exact-title tier. Small pages and a controlled embedding, no server."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from hermes_gbrain.emulator import hybrid, intent, tsearch
from hermes_gbrain.emulator.pages import Chunk, Page
from hermes_gbrain.emulator.search import Hit, SearchIndex
from support.stemming_threads import wrong_stems

NOW = datetime(2026, 12, 1, tzinfo=UTC)
_ids = iter(range(1, 100_000))


def page(
    slug: str,
    text: str,
    *,
    title: str | None = None,
    kind: str = "note",
    timeline: str = "",
    days_old: float = 0.0,
    page_id: int | None = None,
) -> Page:
    pid = page_id if page_id is not None else next(_ids)
    stamp = (NOW - timedelta(days=days_old)).isoformat()
    chunks = [Chunk(next(_ids), pid, 0, "compiled_truth", text)]
    if timeline:
        chunks.append(Chunk(next(_ids), pid, 1, "timeline", timeline))
    return Page(
        pid, "default", slug, kind, title or slug, text, timeline, {}, [], [], "", stamp,
        stamp, None, stamp, "fallback", chunks,
    )  # fmt: skip


def axis(*pairs: tuple[str, float]) -> hybrid.Embedder:
    """A toy embedding: one dimension per marker word, weighted, unit length."""

    def embed(text: str) -> dict[int, float]:
        lowered = text.lower()
        vector = {i: w for i, (word, w) in enumerate(pairs) if word in lowered}
        norm = math.sqrt(sum(v * v for v in vector.values()))
        return {k: v / norm for k, v in vector.items()} if norm else {}

    return embed


def ranked(
    pages: list[Page], query: str, embedder: hybrid.Embedder, links: dict[str, int] | None = None
) -> list[Hit]:
    return hybrid.rank_hybrid(pages, query, links or {}, SearchIndex(), embedder, now=NOW)


# query-intent.ts / intent-weights.ts ---------------------------------------------------------
@pytest.mark.parametrize(
    ("query", "want"),
    [
        ("Who is Maya Okafor?", ("entity", "low", 60 / 1.15, 60.0, "off")),
        ("When did we last meet Greta?", ("temporal", "high", 60.0, 60.0, "on")),
        ("How do phones merge conflicting edits?", ("event", "high", 50.0, 60 / 0.95, "on")),
        ("What is the ownership economy about?", ("concept", None, 60 / 0.9, 50.0, "off")),
        ("Ledger Lake", ("general", None, 60.0, 60.0, "off")),
        ("What's new with the beacon app today", ("temporal", "high", 60.0, 60.0, "strong")),
    ],
)
def test_the_intent_sets_detail_list_weights_and_recency(
    query: str, want: tuple[str, str | None, float, float, str]
) -> None:
    name, detail, keyword_k, vector_k, recency = want
    found = intent.classify(query)
    assert (found.name, found.detail, found.recency) == (name, detail, recency)
    assert intent.effective_k(found.keyword_weight) == pytest.approx(keyword_k)
    assert intent.effective_k(found.vector_weight) == pytest.approx(vector_k)


def test_a_name_in_the_question_keeps_it_off_the_concept_route() -> None:
    assert intent.classify("What is Esther Okonkwo labelling this week?").name == "entity"


def test_the_slug_prefix_factor_is_the_longest_prefix_and_off_for_detail_high() -> None:
    assert intent.source_factor("people/maya", None) == 1.2
    assert intent.source_factor("concepts/crdt", "low") == 1.3
    assert intent.source_factor("media/x/post", None) == 0.7  # longer than media/
    assert intent.source_factor("notes/a", None) == 1.0
    assert intent.source_factor("people/maya", "high") == 1.0


# tsearch: the expected values are what Postgres (PGLite, as in GBrain) returns for the same inputs
def test_ts_rank_matches_postgres() -> None:
    text = "Standup notes 2026-W14: Week 14 small updates; end-to-end tests, e.g. the 3.5 release"
    vector = tsearch.to_tsvector(text, "B")
    assert vector["end-to-end"] == [(9, 0.4)] and vector["end"] == [(10, 0.4), (12, 0.4)]
    assert tsearch.rank(vector, tsearch.websearch("standup week")) == pytest.approx(
        0.38097197, abs=1e-7
    )
    plans = tsearch.to_tsvector("Maya leads fundraising. Maya leads hiring too, and Maya plans.")
    relaxed = tsearch.or_fallback("maya leads plan")
    assert relaxed is not None and relaxed.any_of
    assert tsearch.rank(plans, relaxed) * 4 == pytest.approx(0.29270563, abs=1e-6)  # D vs B


def test_ts_rank_cd_of_a_title_and_timeline_matches_postgres() -> None:
    def titled(title: str, timeline: str = "") -> tsearch.TsVector:
        return tsearch.concat(tsearch.to_tsvector(title, "A"), tsearch.to_tsvector(timeline, "C"))

    timeline = "- 2026-04-02: ledger backfill finished at the lake house; lake ledger again"
    vector = titled("Ledger Lake", timeline)
    assert tsearch.rank_cd(vector, tsearch.websearch("ledger lake")) == pytest.approx(1.3233334)
    either = tsearch.Query(("ledger", "lake"), any_of=True)
    assert tsearch.rank_cd(vector, either) == pytest.approx(2.8)
    spread = titled("Ledger Lake kickoff meeting notes")
    assert tsearch.rank_cd(spread, tsearch.websearch("ledger notes")) == pytest.approx(0.25)


def test_a_wikilink_is_one_token_not_words_of_the_text() -> None:
    vector = tsearch.to_tsvector("Owner: [[people/maya-okafor]]. Maya Okafor is a data-engineer")
    assert "people/maya-okafor" in vector and vector["maya"] == [(3, 0.1)]
    assert not tsearch.websearch("maya okafor").matches(
        tsearch.to_tsvector("[[people/maya-okafor]]")
    )
    assert tsearch.rank(vector, tsearch.websearch("maya okafor")) * 4 == pytest.approx(
        0.39641288, abs=1e-6
    )


@pytest.mark.parametrize(
    ("text", "lexemes"),
    [  # to_tsvector('english', text) on PGLite 0.3 (GBrain 0.46.28's engine)
        ("design review 2026-05-17", ["design", "review", "2026", "-05", "-17"]),
        ("17% of 2,340", ["17", None, "2", "340"]),
        ("covid-19 day-3 3-day 2026-w17", ["covid", "-19", "day", "-3", "3", "day", "2026", "w17"]),
        ("e-mail a1-b2", ["e-mail", "e", "mail", "a1-b2", "a1", "b2"]),
        ("foo-bar-17 co-op-2x", ["foo-bar", "foo", "bar", "17", "co-op-2x", "co", "op", "2x"]),
        ("x-1.5 1.5-2 -17x 5-", ["x", "-1.5", "1.5", "-2", "-17", "x", "5"]),
    ],
)
def test_signed_integers_and_hyphenated_words_split_as_postgres(
    text: str, lexemes: list[str | None]
) -> None:
    assert tsearch._tokens(text) == lexemes
    assert not tsearch.websearch("17").matches(tsearch.to_tsvector("review 2026-05-17"))


def test_a_query_naming_pictures_skips_both_lexical_arms() -> None:
    # query-intent.ts CROSS_MODAL_PATTERNS: suggestedModality 'image', and hybridSearch
    # fetches no keyword or title rows for it; keyword-only, nothing is left.
    maps = page("notes/maps", "Satellite pictures of the reserves arrive monthly.")
    assert intent.classify("pictures of the reserves").image
    assert not intent.classify("satellite pictures arrive monthly").image
    assert hybrid.rank_keyword([maps], "pictures of the reserves", {}, now=NOW) == []
    assert hybrid.rank_keyword([maps], "satellite pictures", {}, now=NOW)
    vector_only = ranked([maps], "pictures of the reserves", axis(("reserves", 1.0)))
    assert [h.keyword_hit for h in vector_only] == [False]


def test_the_or_fallback_needs_two_tokens_and_no_operators() -> None:
    assert tsearch.or_fallback("ledger") is None
    assert tsearch.or_fallback('"ledger lake" sync') is None
    assert tsearch.or_fallback("ledger -lake") is None
    assert tsearch.or_fallback("planning the hikes") == tsearch.Query(("plan", "hike"), True)


# the candidate lists ---------------------------------------------------------------------
def test_the_vector_list_is_one_chunk_per_page_scaled_by_prefix_and_capped() -> None:
    embedder = axis(("alpha", 1.0), ("beta", 1.0), ("gamma", 3.0))
    twice = page("notes/twice", "alpha", timeline="alpha beta")
    person = page("people/p", "alpha beta")
    note = page("notes/n", "alpha beta")
    many = [page(f"notes/m{i:02d}", "alpha gamma") for i in range(60)]
    rows = hybrid._vector_list(
        [note, twice, person, *many],
        embedder("alpha"),
        SearchIndex(),
        embedder,
        factor=lambda p: intent.source_factor(p.slug, None),
        compiled_only=False,
    )
    assert len(rows) == hybrid.POOL == 50
    slugs = [p.slug for p, _ in rows]
    assert slugs.count("notes/twice") == 1 and rows[0][0] is twice  # cosine 1 beats 0.71 x 1.2
    assert slugs.index("people/p") < slugs.index("notes/n")  # same cosine, x1.2
    assert rows[0][1].chunk_source == "compiled_truth"  # its best chunk


def test_detail_low_searches_compiled_truth_only() -> None:
    embedder = axis(("alpha", 1.0), ("beta", 1.0))
    both = page("notes/b", "beta", timeline="alpha")
    rows = hybrid._vector_list(
        [both], embedder("alpha"), SearchIndex(), embedder, factor=lambda p: 1.0, compiled_only=True
    )
    assert [c.chunk_source for _, c in rows] == ["compiled_truth"]


# fusion and re-score -----------------------------------------------------------------------
def test_reciprocal_rank_fusion_sums_one_over_k_plus_rank_and_ors_lexical_membership() -> None:
    a, b, c = page("notes/a", "a"), page("notes/b", "b"), page("notes/c", "c")
    vector = [(a, a.chunks[0]), (b, b.chunks[0])]
    keyword = [(b, b.chunks[0]), (c, c.chunks[0])]
    fused = {
        h.page.slug: h for h in hybrid._fuse([(vector, 60, False), (keyword, 50, True)], False)
    }
    best = 1 / 61 + 1 / 50
    assert fused["notes/b"].raw == pytest.approx(1.0)
    assert fused["notes/a"].raw == pytest.approx((1 / 60) / best)
    assert fused["notes/c"].raw == pytest.approx((1 / 51) / best)
    assert not fused["notes/a"].keyword_hit and fused["notes/b"].keyword_hit


def test_the_compiled_truth_boost_doubles_compiled_chunks_after_normalising() -> None:
    p = page("notes/p", "x", timeline="y")
    lists = [([(p, p.chunks[1]), (p, p.chunks[0])], 60.0, False)]
    plain = {h.chunk.chunk_source: h.raw for h in hybrid._fuse(lists, False)}
    boosted = {h.chunk.chunk_source: h.raw for h in hybrid._fuse(lists, True)}
    assert plain["timeline"] == boosted["timeline"] == 1.0
    assert boosted["compiled_truth"] == pytest.approx(2 * plain["compiled_truth"])


def test_base_score_blends_normalised_rrf_with_cosine_and_boosts_only_raise_it() -> None:
    embedder = axis(("ledger", 1.0), ("lake", 1.0), ("river", 2.0))
    pages = [page("notes/ledger-lake", "ledger lake river", title="Ledger Lake")]
    pages += [page(f"notes/o{i}", "river lake") for i in range(3)]
    for hit in ranked(pages, "ledger lake", embedder, links={"notes/ledger-lake": 3}):
        normalised = (hit.base_score - 0.3 * (hit.cosine or 0.0)) / 0.7
        assert 0 <= normalised <= 1 + 1e-9
        assert hit.score >= hit.base_score
    top = ranked(pages, "ledger lake", embedder, links={"notes/ledger-lake": 3})[0]
    assert top.title_boost == 1.25 and top.backlink_boost == pytest.approx(1 + 0.05 * math.log(4))


def test_recency_follows_the_prefix_decay_on_temporal_queries_only() -> None:
    meeting = page("meetings/m", "x", days_old=60)
    concept = page("concepts/c", "x", days_old=0)
    other = page("notes/n", "x", days_old=90)
    assert hybrid._recency_factor(meeting, "on", NOW) == pytest.approx(1.5)
    assert hybrid._recency_factor(meeting, "strong", NOW) == pytest.approx(1.75)
    assert hybrid._recency_factor(concept, "on", NOW) == 1.0  # evergreen
    assert hybrid._recency_factor(other, "on", NOW) == pytest.approx(1.15)
    embedder = axis(("budget", 1.0))
    pages = [page("meetings/old", "budget", days_old=300), page("meetings/new", "budget")]
    assert ranked(pages, "latest budget", embedder)[0].page.slug == "meetings/new"
    plain = ranked(pages, "budget figures", embedder)
    assert {h.score for h in plain} == {h.base_score for h in plain}


# dedup.ts --------------------------------------------------------------------------------
def _hit(p: Page, chunk: Chunk, score: float) -> Hit:
    return Hit(p, chunk, base_score=score, score=score)


def test_dedup_keeps_two_chunks_a_page_and_drops_near_copies_of_its_own_chunks() -> None:
    p = page("notes/p", "one two three four five six seven")
    extra = [
        Chunk(next(_ids), p.id, i, "timeline", text)
        for i, text in enumerate(("one two three four five six seven", "eight nine", "ten"), 1)
    ]
    q = page("notes/q", "one two three four five six seven")  # another page: kept
    hits = [_hit(p, p.chunks[0], 0.9), _hit(p, extra[0], 0.8), _hit(q, q.chunks[0], 0.7)]
    hits += [_hit(p, extra[1], 0.6), _hit(p, extra[2], 0.5)]
    kept = [(h.page.slug, h.chunk.chunk_index) for h in hybrid.dedup(hits)]
    assert kept == [("notes/p", 0), ("notes/q", 0), ("notes/p", 2)]


def test_dedup_caps_a_type_at_sixty_percent_when_types_are_mixed() -> None:
    notes = [page(f"notes/{i}", f"n{i}") for i in range(4)]
    person = page("people/x", "x", kind="person")
    hits = [_hit(p, p.chunks[0], 1 - i / 10) for i, p in enumerate([*notes, person])]
    assert [h.page.slug for h in hybrid.dedup(hits)] == [*(p.slug for p in notes[:3]), "people/x"]
    only_notes = hits[:4]
    assert len(hybrid.dedup(only_notes)) == 4  # one type: no cap


def test_dedup_gives_a_page_its_compiled_truth_chunk_back() -> None:
    p = page("notes/p", "compiled", timeline="first entry")
    second = Chunk(next(_ids), p.id, 2, "timeline", "second entry")
    hits = [_hit(p, p.chunks[1], 0.9), _hit(p, second, 0.8), _hit(p, p.chunks[0], 0.1)]
    kept = hybrid.dedup(hits)
    assert [h.chunk.chunk_source for h in kept] == ["timeline", "compiled_truth"]


# exact lookups -----------------------------------------------------------------------------
def test_a_query_that_is_a_title_puts_that_page_first() -> None:
    embedder = axis(("harbor", 1.0), ("vale", 1.0), ("fund", 3.0))
    target = page("companies/harbor-vale", "a fund", title="Harbor Vale")
    loud = page("notes/harbor-vale-fund", "harbor vale fund harbor vale fund")
    rows = ranked([loud, target], "Harbor Vale", embedder)
    assert rows[0].page is target and rows[0].exact_lookup == "title"
    assert rows[0].score > rows[1].score
    assert ranked([loud, target], "harbor vale fund", embedder)[0].page is loud  # not a title
    assert ranked([loud, target], "companies/harbor-vale", embedder)[0].page is target


def test_an_entity_query_boosts_the_page_it_names_exactly() -> None:
    embedder = axis(("overview", 1.0))
    named = page("notes/overview", "overview", title="Quarter summary")
    other = page("notes/overview-two", "overview overview", title="Second one")
    assert intent.classify("overview").name == "entity"
    rows = {h.page.slug: h for h in ranked([named, other], "overview", embedder)}
    assert rows["notes/overview"].score == pytest.approx(rows["notes/overview"].base_score * 1.25)
    assert rows["notes/overview-two"].score == pytest.approx(rows["notes/overview-two"].base_score)


def test_stemming_from_many_threads_at_once_gives_each_its_own_stems() -> None:
    # The server answers requests on many threads, and a Snowball stemmer object keeps its
    # working string: unguarded, threads got each other's stems and IndexErrors.
    words = ["organizations", "hopefulness", "fundraising", "conservancies", "synchronization"]
    assert wrong_stems(tsearch.lexeme.__wrapped__, words) == []
