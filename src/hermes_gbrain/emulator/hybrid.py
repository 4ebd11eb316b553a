"""Search ranked as GBrain 0.46.28's ``hybridSearch`` ranks it, with or without the vector arm.

A brain with no embedding provider takes the same function's keyword-only branch
(``rank_keyword``): the same lexical lists, fused at k = 60 without intent weights (or, when
the title list is empty, the keyword list as it is, scored by ``ts_rank``), then the same
boosts, dedup and exact-title tier; no cosine re-score and no exact-match boost.
``bench/keyword_fidelity.py`` compares it with rows a real keyword-only GBrain returned.

Recordings 111-115 come from a GBrain 0.46.28 whose pages were embedded by a local
384-dimension model, in the ``conservative`` search mode a keyless ``gbrain init`` picks
(``init-mode-picker.ts``; INDEX.md): no reranker, no graph signals, no relational arm.
``rank_hybrid`` follows ``search/hybrid.ts`` ``hybridSearch`` step by step, each step citing
the function it follows:

1. **Intent** (:mod:`.intent`): detail, the lists' RRF weights, recency, exact-match boost.
2. **Three lists of 50** (``innerLimit``): the keyword arm (chunks by Postgres ``ts_rank``,
   best chunk per page, :mod:`.tsearch`), the title arm (pages by title and timeline, each
   on its representative chunk) and the vector arm (chunks by cosine, best per page). Every
   score is times the slug-prefix factor (``buildSourceFactorCase``); ties go to the lower
   page id. The lexical arms relax to OR only when strict AND finds nothing.
3. **Fusion** (``rrfFusionWeighted``): ``1 / (k + rank)`` per chunk, divided by the best,
   then x2 for compiled-truth chunks when ``detail = low``; ``keyword_hit`` marks rows a
   lexical arm found.
4. **Cosine re-score** (``cosineReScore``): ``base_score = 0.7 * fused / max(fused) + 0.3 *
   cosine`` (recording 114: *Harbor Vale Capital*, base 0.719 = 0.7 + 0.3 x 0.063).
5. **Boosts** (``runPostFusionStages``): backlinks, recency on temporal queries, the title
   phrase (112: 0.886 x 1.25 x 1.0896), then the intent's exact-match boost.
6. **Dedup** (``dedup.ts``) and the **exact-title tier** (``exact-lookup.ts``).
7. **Evidence** (``evidence.ts``): ``high_vector_match`` needs a cosine of at least 0.8;
   ``keyword_exact`` needs ``keyword_hit`` and a base score of at least 0.6; every other
   row is ``weak_semantic`` (:attr:`.search.Hit.evidence`).

The vector arm has no floor (recordings 112-114): every search returns up to 20 rows, the
tail found by the vector arm alone. With the recorded brain's model plugged in
(``bench/minilm.py``), ``bench/hybrid_fidelity.py`` compares this ranking with rows a real
hybrid GBrain returned for the same pages and messages. A query with Chinese, Japanese or
Korean in it takes GBrain's CJK branch for its keyword list (:func:`_cjk_keyword_list`:
whitespace-split terms matched as substrings, all of them, with no OR fallback). Not
imitated: the semantic query cache (a query close enough to an earlier one gets that one's
rows back) and salience (no page of ours has an emotional weight or takes).

The default embedding is ours, small and deterministic: hashed word stems, their character
trigrams (so "syncing" and "sync" meet) and character pairs of unspaced scripts, in
384 buckets. It knows no synonyms, so it finds paraphrases only through shared word
forms; its cosines fall in the same low range as the recorded model's (0-0.6). Any other
``Embedder`` (text to unit vector) may be plugged in: ``bench/relevance.py --embedder minilm``
runs the recorded brain's own model, so that the gate is measured on real semantics.
"""

from __future__ import annotations

import math
import re
import zlib
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime

from hermes_gbrain.emulator import tsearch
from hermes_gbrain.emulator.intent import RRF_K, classify, effective_k, source_factor
from hermes_gbrain.emulator.pages import Chunk, Page
from hermes_gbrain.emulator.search import (
    STOPWORDS,
    Hit,
    SearchIndex,
    apply_boosts,
    representative_chunk,
    stem,
    words,
)

__all__ = [
    "DEFAULT_LIMIT",
    "DIMENSIONS",
    "Embedder",
    "cosine",
    "dedup",
    "embed",
    "rank_hybrid",
    "rank_keyword",
]

DIMENSIONS = 384  # the recorded brain's model (INDEX.md, "a hybrid brain")
DEFAULT_LIMIT = 20  # ops/search.ts: limit 20 unless the caller sends one
POOL = 50
"""Rows each arm hands to fusion: hybrid.ts ``innerLimit`` = max(limit x 2,
``PRE_FUSION_POOL_FLOOR`` 50) for the default limit of 20."""
COMPILED_TRUTH_BOOST = 2.0  # hybrid.ts COMPILED_TRUTH_BOOST (detail = low only)
RRF_BLEND = 0.7  # hybrid.ts cosineReScore: 0.7 * normalised RRF + 0.3 * cosine
COSINE_BLEND = 0.3
MAX_PER_PAGE = 2  # dedup.ts MAX_PER_PAGE
MAX_TYPE_RATIO = 0.6  # dedup.ts MAX_TYPE_RATIO
JACCARD_LIMIT = 0.85  # dedup.ts COSINE_DEDUP_THRESHOLD (a Jaccard on word sets)
EXACT_LOOKUP_WORDS = 6  # query-intent.ts isLookupShapedQuery
# recency-decay.ts DEFAULT_RECENCY_DECAY: prefix -> (half-life in days, coefficient)
RECENCY_DECAY = {
    "concepts/": (0, 0.0),
    "originals/": (180, 0.5),
    "writing/": (365, 0.4),
    "daily/": (14, 1.5),
    "meetings/": (60, 1.0),
    "chat/": (7, 1.0),
    "media/x/": (7, 1.5),
    "media/articles/": (90, 0.5),
    "people/": (365, 0.3),
    "companies/": (365, 0.3),
    "deals/": (180, 0.5),
}
DECAY_FALLBACK = (90, 0.3)  # recency-decay.ts DEFAULT_FALLBACK
_DECAY_BY_LENGTH = sorted(RECENCY_DECAY.items(), key=lambda kv: -len(kv[0]))
TRIGRAM_WEIGHT = 0.25

Vector = dict[int, float]
TsVector = tsearch.TsVector
Factor = Callable[[Page], float]
Embedder = Callable[[str], Vector]
"""Text to a unit vector (dimension -> value); :func:`embed` unless one is plugged in."""


def _unspaced(ch: str) -> bool:
    code = ord(ch)
    return 0x3040 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF or 0x0E00 <= code <= 0x0EFF


def _features(text: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for word in words(text):
        if word in STOPWORDS:
            continue
        if any(_unspaced(ch) for ch in word):
            for i in range(max(1, len(word) - 1)):
                pair = "p:" + word[i : i + 2]
                out[pair] = out.get(pair, 0.0) + 1.0
            continue
        key = "w:" + stem(word)
        out[key] = out.get(key, 0.0) + 1.0
        padded = f"^{word}$"
        for i in range(len(padded) - 2):
            gram = "t:" + padded[i : i + 3]
            out[gram] = out.get(gram, 0.0) + TRIGRAM_WEIGHT
    return out


def embed(text: str) -> Vector:
    """A unit vector of ``text`` (empty when it has no content word)."""
    vector: Vector = {}
    for feature, weight in _features(text).items():
        bucket = zlib.crc32(feature.encode("utf-8")) % DIMENSIONS
        vector[bucket] = vector.get(bucket, 0.0) + weight
    norm = math.sqrt(sum(v * v for v in vector.values()))
    return {k: v / norm for k, v in vector.items()} if norm else {}


def cosine(a: Vector, b: Vector) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(v * b.get(k, 0.0) for k, v in a.items())


def _chunk_vector(index: SearchIndex, chunk: Chunk, embedder: Embedder) -> Vector:
    vector = index.vectors.get(chunk.id)
    if vector is None:
        vector = index.vectors[chunk.id] = embedder(chunk.text)
    return vector


def _page_chunks(page: Page) -> list[Chunk]:
    return page.chunks or [Chunk(0, page.id, 0, "compiled_truth", page.compiled_truth)]


def _vector_list(
    pages: Sequence[Page],
    wanted: Vector,
    index: SearchIndex,
    embedder: Embedder,
    *,
    factor: Callable[[Page], float],
    compiled_only: bool,
) -> list[tuple[Page, Chunk]]:
    """pglite-engine.ts ``searchVector``: every chunk's cosine times its page's slug-prefix
    factor, the best chunk per page (``buildBestPerPagePoolCte``), ordered by that score
    then page id, the first :data:`POOL` pages."""
    if not wanted:
        return []
    best: list[tuple[float, int, Page, Chunk]] = []
    for page in pages:
        scale = factor(page)
        top: tuple[float, Chunk] | None = None
        for chunk in _page_chunks(page):
            if compiled_only and chunk.chunk_source != "compiled_truth":
                continue
            score = cosine(wanted, _chunk_vector(index, chunk, embedder)) * scale
            if top is None or score > top[0]:
                top = (score, chunk)
        if top is not None:
            best.append((top[0], page.id, page, top[1]))
    best.sort(key=lambda b: (-b[0], b[1]))
    return [(page, chunk) for _, _, page, chunk in best[:POOL]]


def _chunk_tsvector(index: SearchIndex, chunk: Chunk) -> TsVector:
    """migrate.ts: a chunk's ``search_vector`` is its text at weight B."""
    vector = index.tsvectors.get(("chunk", chunk.id))
    if vector is None:
        vector = index.tsvectors[("chunk", chunk.id)] = tsearch.to_tsvector(chunk.text, "B")
    return vector


def _page_tsvector(index: SearchIndex, page: Page) -> TsVector:
    vector = index.tsvectors.get(("page", page.id))
    if vector is None:
        vector = index.tsvectors[("page", page.id)] = _title_vector(page)
    return vector


def _title_vector(page: Page) -> TsVector:
    """schema ``update_page_search_vector``: the title at weight A, the timeline at C."""
    return tsearch.concat(
        tsearch.to_tsvector(page.title, "A"), tsearch.to_tsvector(page.timeline, "C")
    )


def _holding(pages: Sequence[Page], query: tsearch.Query, index: SearchIndex) -> list[Page]:
    """The pages ``query`` can match, in their order: those holding one of its lexemes
    (GBrain's GIN index on ``search_vector``), or every page when a negation alone would
    match an empty text. Same rows as scanning every page; far fewer pages scanned."""
    if query.matches({}):
        return list(pages)
    with index.lock:
        return _holding_locked(pages, query, index)


def _holding_locked(pages: Sequence[Page], query: tsearch.Query, index: SearchIndex) -> list[Page]:
    for page in pages:
        known = index.page_lexemes.get(page.id)
        if known is not None and known[0] is page:
            continue
        index.forget_lexemes(page.id)
        held: set[str] = set(_page_tsvector(index, page))
        for chunk in _page_chunks(page):
            held.update(_chunk_tsvector(index, chunk))
        index.page_lexemes[page.id] = (page, frozenset(held))
        for lex in held:
            index.lexeme_pages.setdefault(lex, set()).add(page.id)
    ids: set[int] = set()
    for lex in query.lexemes:
        ids |= index.lexeme_pages.get(lex, set())
    return [page for page in pages if page.id in ids]


def _keyword_list(
    pages: Sequence[Page], query: tsearch.Query, index: SearchIndex, factor: Factor, low: bool
) -> list[tuple[Page, Chunk, float]]:
    """pglite-engine.ts ``searchKeyword``: chunks matching the query ranked by ``ts_rank``
    times the slug-prefix factor, the first ``3 x limit`` chunks, the best per page
    (``buildBestPerPagePoolCte``), by score then page and chunk id, the first :data:`POOL`;
    each with its score (the row's score when nothing is fused with it)."""
    scored: list[tuple[float, Page, Chunk]] = []
    for page in _holding(pages, query, index):
        scale = factor(page)
        for chunk in _page_chunks(page):
            if low and chunk.chunk_source != "compiled_truth":
                continue
            vector = _chunk_tsvector(index, chunk)
            if query.matches(vector):
                scored.append((tsearch.rank(vector, query) * scale, page, chunk))
    return _best_per_page(scored)


def _best_per_page(
    scored: list[tuple[float, Page, Chunk]],
) -> list[tuple[Page, Chunk, float]]:
    """``buildBestPerPagePoolCte`` over the chunks scored: the first ``3 x`` :data:`POOL` by
    score, the best chunk per page, by score then page and chunk id, the first :data:`POOL`."""
    scored = sorted(scored, key=lambda s: -s[0])
    best: dict[int, tuple[float, Page, Chunk]] = {}
    for score, page, chunk in scored[: POOL * 3]:
        if page.id not in best or score > best[page.id][0]:
            best[page.id] = (score, page, chunk)
    ordered = sorted(best.values(), key=lambda b: (-b[0], b[1].id, b[2].id))
    return [(page, chunk, score) for score, page, chunk in ordered[:POOL]]


def _title_list(
    pages: Sequence[Page], query: tsearch.Query, index: SearchIndex, factor: Factor
) -> list[tuple[Page, Chunk]]:
    """pglite-engine.ts ``searchTitles``: pages whose title or timeline match, by
    ``ts_rank_cd`` times the slug-prefix factor then page id, each on its representative
    chunk."""
    scored = []
    for page in _holding(pages, query, index):
        vector = _page_tsvector(index, page)
        if query.matches(vector):
            scored.append((tsearch.rank_cd(vector, query) * factor(page), page.id, page))
    scored.sort(key=lambda s: (-s[0], s[1]))
    return [(page, representative_chunk(page)) for _, _, page in scored[:POOL]]


_CJK = re.compile("[\u4e00-\u9fff\u3040-\u309f\u30a0-\u30ff\uac00-\ud7af]")
"""cjk.ts ``hasCJK``: Han, Hiragana, Katakana and Hangul syllables (BMP only)."""


def _cjk_keyword_list(
    pages: Sequence[Page], query: str, factor: Factor, low: bool
) -> list[tuple[Page, Chunk, float]]:
    """pglite-engine.ts ``searchKeyword`` on a query with CJK in it (``hasCJK``): the chunk arm
    is ``cjk-keyword-sql.ts`` ``buildCJKKeywordSql``, not full-text search. The query's
    whitespace-split terms (``splitCJKQueryTerms``, deduplicated) must all be in the chunk's
    text (``ILIKE '%term%'``, so any case), and it returns before the OR fallback: no chunk
    holding them all, no row. Score: each term's occurrences (``REPLACE``, so as written),
    the whole query's too when it has several terms, and one over the position of its first
    occurrence, times the slug-prefix factor; then the best chunk per page, as for
    :func:`_keyword_list`."""
    terms = list(dict.fromkeys(query.split()))
    if not terms:
        return []
    folded = [t.lower() for t in terms]
    scored: list[tuple[float, Page, Chunk]] = []
    for page in pages:
        for chunk in _page_chunks(page):
            if low and chunk.chunk_source != "compiled_truth":
                continue
            text = chunk.text
            lowered = text.lower()
            if not all(t in lowered for t in folded):
                continue
            score = float(sum(text.count(t) for t in terms))
            if len(terms) > 1:
                score += text.count(query)
            at = text.find(query)
            score += 1.0 / (at + 1) if at >= 0 else 0.0
            scored.append((score * factor(page), page, chunk))
    return _best_per_page(scored)


def _lexical(
    pages: Sequence[Page], query: str, index: SearchIndex, factor: Factor, low: bool
) -> tuple[list[tuple[Page, Chunk, float]], list[tuple[Page, Chunk]]]:
    """The keyword and title lists, each strict first and OR-relaxed when it finds
    nothing (``orFallback``), except the keyword list of a query with CJK in it, which is
    :func:`_cjk_keyword_list` and strict only; its title list is full-text search as for
    any query (``searchTitles``: "CJK queries fall through to websearch FTS here")."""
    strict = tsearch.websearch(query)
    relaxed = tsearch.or_fallback(query)
    if _CJK.search(query):
        keyword = _cjk_keyword_list(pages, query, factor, low)
    else:
        keyword = _keyword_list(pages, strict, index, factor, low) if strict.lexemes else []
        if not keyword and relaxed is not None:
            keyword = _keyword_list(pages, relaxed, index, factor, low)
    titles = _title_list(pages, strict, index, factor) if strict.lexemes else []
    if not titles and relaxed is not None:
        titles = _title_list(pages, relaxed, index, factor)
    return keyword, titles


def _fuse(
    lists: Sequence[tuple[Sequence[tuple[Page, Chunk]], float, bool]], compiled_boost: bool
) -> list[Hit]:
    """hybrid.ts ``rrfFusionWeighted``: ``1 / (k + rank)`` summed per chunk (rank from 0),
    lexical membership OR-ed (``keyword_hit``), divided by the best sum, then the
    compiled-truth boost for ``detail = low`` (``shouldBoostCompiledTruth``)."""
    entries: dict[tuple[int, int], Hit] = {}
    for rows, k, lexical in lists:
        for rank, (page, chunk) in enumerate(rows):
            key = (page.id, chunk.chunk_index)
            hit = entries.get(key)
            if hit is None:
                hit = entries[key] = Hit(page, chunk, keyword_hit=False)
            hit.raw += 1.0 / (k + rank)
            hit.keyword_hit = hit.keyword_hit or lexical
    top = max((h.raw for h in entries.values()), default=0.0)
    for hit in entries.values():
        boost = (
            COMPILED_TRUTH_BOOST
            if compiled_boost and hit.chunk.chunk_source == "compiled_truth"
            else 1.0
        )
        hit.raw = hit.raw / top * boost if top > 0 else 0.0
    return sorted(entries.values(), key=lambda h: -h.raw)


def _recency_factor(page: Page, strength: str, now: datetime) -> float:
    """hybrid.ts ``applyRecencyBoost`` with recency-decay.ts ``DEFAULT_RECENCY_DECAY``:
    ``1 + strength * coefficient * halflife / (halflife + days old)``."""
    try:
        when = datetime.fromisoformat(page.effective_date.replace("Z", "+00:00"))
    except ValueError:
        return 1.0
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    days = max(0.0, (now - when).total_seconds() / 86400)
    halflife, coefficient = next(
        (cfg for prefix, cfg in _DECAY_BY_LENGTH if page.slug.startswith(prefix)), DECAY_FALLBACK
    )
    if halflife == 0 or coefficient == 0:
        return 1.0
    return 1.0 + (1.5 if strength == "strong" else 1.0) * coefficient * halflife / (halflife + days)


def _exact_match(hit: Hit, query: str) -> bool:
    """intent-weights.ts ``applyExactMatchBoost``: the query is the slug, its tail in
    kebab case, or the title."""
    q = query.lower().strip()
    kebab = re.sub(r"\s+", "-", q)
    slug = hit.page.slug.lower()
    return bool(q) and (
        slug in (q, kebab) or slug.endswith(f"/{kebab}") or hit.page.title.lower().strip() == q
    )


def _first_of_each(hits: list[Hit], key: Callable[[Hit], object], most: int) -> list[Hit]:
    """``hits`` in order, at most ``most`` sharing a ``key`` (dedup.ts caps by type and
    by page this way)."""
    counts: dict[object, int] = {}
    kept = []
    for hit in hits:
        counts[key(hit)] = counts.get(key(hit), 0) + 1
        if counts[key(hit)] <= most:
            kept.append(hit)
    return kept


def dedup(results: Sequence[Hit]) -> list[Hit]:
    """dedup.ts ``dedupResults``: the best three chunks per page, no chunk over 0.85
    Jaccard-similar to a kept one of its page, no page type over 60% of the rows (when
    there are several types), two chunks per page, and a page left without its
    compiled-truth chunk gets its best one back in place of its lowest row."""
    by_page: dict[int, list[Hit]] = {}
    for hit in results:
        by_page.setdefault(hit.page.id, []).append(hit)
    rows = sorted(
        (h for chunks in by_page.values() for h in sorted(chunks, key=lambda h: -h.score)[:3]),
        key=lambda h: -h.score,
    )
    kept: list[Hit] = []
    seen_words: dict[int, list[set[str]]] = {}
    for hit in rows:
        words_of = set(hit.chunk.text.lower().split())
        same_page = seen_words.setdefault(hit.page.id, [])
        if any(len(words_of & w) / max(len(words_of | w), 1) > JACCARD_LIMIT for w in same_page):
            continue
        kept.append(hit)
        same_page.append(words_of)
    if len({h.page.type for h in kept}) > 1:
        kept = _first_of_each(
            kept, lambda h: h.page.type, max(1, math.ceil(len(kept) * MAX_TYPE_RATIO))
        )
    capped = _first_of_each(kept, lambda h: h.page.id, MAX_PER_PAGE)
    for page_id in {h.page.id for h in capped}:
        mine = [i for i, h in enumerate(capped) if h.page.id == page_id]
        if any(capped[i].chunk.chunk_source == "compiled_truth" for i in mine):
            continue
        compiled = [
            h for h in results if h.page.id == page_id and h.chunk.chunk_source == "compiled_truth"
        ]
        if compiled:
            lowest = min(mine, key=lambda i: capped[i].score)
            capped[lowest] = max(compiled, key=lambda h: h.score)
    return capped


def _keyword_only(
    chunk_list: Sequence[tuple[Page, Chunk, float]],
    title_list: Sequence[tuple[Page, Chunk]],
    low: bool,
) -> list[Hit]:
    """hybrid.ts ``hybridSearch``'s no-embedding-provider branch: with title rows, the
    two lists fused at the plain ``RRF_K`` (no intent weights); without, the keyword
    arm's rows as they are, scored by ``ts_rank`` (so no row reaches the 0.6 that
    ``keyword_exact`` needs)."""
    if not title_list:
        return [Hit(page, chunk, raw=score) for page, chunk, score in chunk_list]
    return _fuse(
        [
            ([(page, chunk) for page, chunk, _ in chunk_list], RRF_K, True),
            (title_list, RRF_K, True),
        ],
        compiled_boost=low,
    )


def _chronicle_factor(page: Page, strength: str) -> float:
    """hybrid.ts ``applyChronicleTypeBoost``: event and diary pages on temporal queries."""
    if page.type not in ("event", "diary"):
        return 1.0
    return 1.25 if strength == "strong" else 1.15


def rank_hybrid(
    pages: Sequence[Page],
    query: str,
    backlink_counts: Mapping[str, int],
    index: SearchIndex,
    embedder: Embedder | None = embed,
    *,
    now: datetime | None = None,
) -> list[Hit]:
    """Rank ``pages`` as ``hybrid.ts`` ``hybridSearch`` does, best first: with a healthy
    vector arm, or, when ``embedder`` is ``None``, as a brain with no embedding provider
    does (the same arms, boosts, dedup and exact-title tier, no vector list and no
    cosine re-score). The index caches chunk vectors, so one index serves one
    ``embedder``. ``now`` dates the recency boost (the clock by default)."""
    intent = classify(query)
    low = intent.detail == "low"

    def factor(page: Page) -> float:
        return source_factor(page.slug, intent.detail)

    chunk_list, title_list = (
        ([], []) if intent.image else _lexical(pages, query, index, factor, low)
    )
    if embedder is None:
        fused = _keyword_only(chunk_list, title_list, low)
        for hit in fused:  # runPostFusionStages: base_score is the fused score
            apply_boosts(hit, query, backlink_counts, base=hit.raw)
    else:
        wanted = embedder(query)
        keyword_k = effective_k(intent.keyword_weight)
        fused = _fuse(
            [
                (
                    _vector_list(pages, wanted, index, embedder, factor=factor, compiled_only=low),
                    effective_k(intent.vector_weight),
                    False,
                ),
                ([(page, chunk) for page, chunk, _ in chunk_list], keyword_k, True),
                (title_list, keyword_k, True),
            ],
            compiled_boost=low,
        )
        top = max((h.raw for h in fused), default=0.0)
        for hit in fused:  # hybrid.ts cosineReScore, then runPostFusionStages' base_score
            hit.cosine = (
                cosine(wanted, _chunk_vector(index, hit.chunk, embedder)) if wanted else 0.0
            )
            base = RRF_BLEND * (hit.raw / top if top > 0 else 0.0) + COSINE_BLEND * hit.cosine
            apply_boosts(hit, query, backlink_counts, base=base)  # backlinks, title phrase
        fused.sort(key=lambda h: -h.base_score)  # cosineReScore's order; later sorts stable
    moment = now or datetime.now(UTC)
    if intent.recency != "off":
        for hit in fused:
            hit.score *= _recency_factor(hit.page, intent.recency, moment)
            hit.score *= _chronicle_factor(hit.page, intent.recency)
    if embedder is not None and intent.exact_match_boost != 1.0:
        for hit in fused:  # hybrid.ts: the main path only, after runPostFusionStages
            if _exact_match(hit, query):
                hit.score *= intent.exact_match_boost
    fused.sort(key=lambda h: -h.score)
    ranked = dedup(fused)
    # exact-lookup.ts applyExactLookupTier: a query that is a page's title (up to six
    # words, isLookupShapedQuery) or its whole slug (isSlugShapedQuery) puts that page
    # first, just above the best score.
    if len(query.split()) <= EXACT_LOOKUP_WORDS:
        best = max((h.score for h in ranked), default=0.0)
        for hit in ranked:
            slug_query = "/" in hit.page.slug and query.strip() == hit.page.slug
            if hit.exact_lookup == "title" or slug_query:
                best += 1e-6
                hit.score = best
        ranked.sort(key=lambda h: -h.score)
    return ranked


def rank_keyword(
    pages: Sequence[Page],
    query: str,
    backlink_counts: Mapping[str, int],
    index: SearchIndex | None = None,
    *,
    now: datetime | None = None,
) -> list[Hit]:
    """Rank as a brain with no embedding provider does (``rank_hybrid`` without the vector
    arm); a fresh index when none is given."""
    return rank_hybrid(
        pages, query, backlink_counts, SearchIndex() if index is None else index, None, now=now
    )
