"""Keyword ranking that behaves like GBrain 0.46.28's keyword-only search (no embedding provider).

What a real server does, and where we read it (GBrain's ``src/core/search/``, recordings in the
contract folder):

* Two lexical arms (``hybrid/arms.ts`` ``runLexicalArms``): a chunk arm (``searchKeyword``:
  ``websearch_to_tsquery('english', …)`` over chunk text, which includes the page's heading) and
  a page-grain title arm (``searchTitles``, over page titles). Both are *strict* AND first
  (``keyword-statement.ts``); when an arm finds nothing it retries with OR of the terms
  (``keyword_relaxed`` rows). Stopwords are Postgres' English list,
  so "help", "plan", "know" and "capital" are ordinary search terms.
* Reciprocal rank fusion with k = 60 (``hybrid.ts`` ``RRF_K``), scaled so one top-ranked strict
  list is worth 1: a page first in both strict arms scores 2 (recordings 107 and 108: 2.0 before
  the backlink boost), strict tails score ``60 / (60 + rank)`` (108: 0.9836, 0.9677, 0.9524,
  0.9375). OR-relaxed lists vote at half weight: in recording 106 ("help me plan a hiking
  trip…", all rows relaxed) the page sharing "plan" is first in both arms and scores 1, and the
  tails are ``30 / (60 + rank)`` (0.4918, 0.4839, 0.4762).
* The title-phrase boost (``title-ranking.ts`` ``applyTitleBoost``, ``title-match.ts``): x1.25
  when the query is a contiguous token run of the title with two content tokens, or equals it.
* The backlink boost ``1 + 0.05 * ln(1 + backlinks)`` (``hybrid.ts`` ``applyBacklinkBoost``);
  ``base_score`` is the score before it (108: base 2, score 2.2303, boost 1.1151).
* ``evidence`` (``evidence.ts`` ``classifyEvidence``): ``exact_title_match`` when the title boost
  fired, else ``keyword_exact`` for a lexical hit with ``base_score`` >= 0.6, else
  ``weak_semantic``. So an ordinary word shared with a title comes back ``keyword_exact`` with the
  top score, exactly as recordings 106 and 107 show.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from hermes_gbrain.emulator import tsquery
from hermes_gbrain.emulator.pages import Chunk, Page

TITLE_BOOST = 1.25
STRONG_RATIO = 0.6  # evidence.ts SOLID_MATCH_FLOOR
HIGH_COSINE_FLOOR = 0.8  # evidence.ts DEFAULT_HIGH_COSINE_FLOOR (search.evidence_cosine_floor)
RRF_K = 60
RELAXED_WEIGHT = 0.5
TITLE_WEIGHT = 1.0  # ts_rank weight A

# Postgres' English stopword list (the snowball list websearch_to_tsquery('english') drops).
STOPWORDS = frozenset(
    """
    i me my myself we our ours ourselves you your yours yourself yourselves he him his himself
    she her hers herself it its itself they them their theirs themselves what which who whom
    this that these those am is are was were be been being have has had having do does did
    doing a an the and but if or because as until while of at by for with about against between
    into through during before after above below to from up down in out on off over under again
    further then once here there when where why how all any both each few more most other some
    such no nor not only own same so than too very s t can will just don should now
    """.split()  # noqa: SIM905 - a word list reads better as text
)
"""Postgres' ``english.stop`` (127 words, checked with ``to_tsvector('english', …)``): words
such as "won", "isn" or "re" are search terms there."""
# title-match.ts: the small stopword set of the title-phrase rule.
TITLE_STOPWORDS = frozenset(
    """
    the a an of and or to in on for with at by from as is it this that my your
    """.split()  # noqa: SIM905 - a word list reads better as text
)

_WORD_RE = re.compile(r"[^\W_]+")


def words(text: str) -> list[str]:
    """Postgres' default parser: letter-digit runs of any script, lower-cased. A run of a
    script written without spaces (Chinese, Japanese) is one word, so a keyword-only brain
    finds such a page only when the query is its title (issue notes on real 0.46.28)."""
    return _WORD_RE.findall(text.lower())


def stem(word: str) -> str:
    """A tiny suffix stripper standing in for the English snowball stemmer."""
    for suffix in ("ing", "ies", "es", "ed", "ly", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            base = word[: -len(suffix)]
            return base + "y" if suffix == "ies" else base
    return word


def query_terms(query: str) -> list[str]:
    """Distinct stemmed query terms, Postgres English stopwords dropped."""
    terms: list[str] = []
    for word in words(query):
        if word in STOPWORDS:
            continue
        term = stem(word)
        if term not in terms:
            terms.append(term)
    return terms


def _analyse(text: str) -> list[str | None]:
    return [None if w in STOPWORDS else stem(w) for w in words(text)]


@dataclass(frozen=True)
class KeywordQuery:
    """A query as both arms run it: ``websearch_to_tsquery``'s tree (:mod:`.tsquery`), its
    distinct terms, and whether an arm that finds nothing may retry with their OR
    (``sql-ranking.ts`` ``buildOrFallbackWebsearchQuery`` gives none for a query with a
    quote or a ``-`` term)."""

    node: tsquery.Node
    terms: tuple[str, ...]
    relaxable: bool = True

    @classmethod
    def parse(cls, query: str) -> KeywordQuery | None:
        node = tsquery.parse(query, _analyse)
        if node is None:
            return None
        return cls(node, tsquery.lexemes(node), tsquery.gets_or_fallback(query))

    @classmethod
    def plain(cls, query: str) -> KeywordQuery | None:
        """Every term required, operators not read (the unspaced-script branch)."""
        terms = query_terms(query)
        if not terms:
            return None
        return cls(tsquery.And(tuple(tsquery.Term(((0, t),)) for t in terms)), tuple(terms))

    def holds(self, counts: Counter[str], text: str) -> bool:
        """``text @@ query``, with ``counts`` its terms; positions only for a phrase."""
        if not tsquery.has_phrase(self.node):
            return tsquery.matches(self.node, lambda t: (0,) if counts[t] else ())
        spots: dict[str, list[int]] = {}
        for position, term in enumerate(_analyse(text)):
            if term is not None:
                spots.setdefault(term, []).append(position)
        return tsquery.matches(self.node, lambda t: spots.get(t, ()))


def _tail(slug: str) -> str:
    return slug.rsplit("/", 1)[-1]


def _norm_phrase(text: str) -> str:
    return " ".join(words(text))


def title_phrase_match(query: str, title: str) -> bool:
    """title-match.ts ``isTitlePhraseMatch``: the query equals the title, or is a contiguous
    token run of it with at least two content tokens."""
    q, t = words(query), words(title)
    if not q or not t:
        return False
    if q == t:
        return True
    if sum(1 for w in q if w not in TITLE_STOPWORDS) < 2 or len(q) > len(t):
        return False
    return any(t[i : i + len(q)] == q for i in range(len(t) - len(q) + 1))


@dataclass
class Hit:
    """One scored row: the page, its best chunk and the scoring facts the row reports."""

    page: Page
    chunk: Chunk
    raw: float = 0.0
    base_score: float = 0.0
    score: float = 0.0
    exact_lookup: str | None = None
    title_boost: float | None = None
    backlink_boost: float | None = None
    relaxed: bool = False
    keyword_hit: bool = True
    """Found by a lexical arm (always, without the vector arm)."""
    cosine: float | None = None
    """Query-to-chunk cosine (the vector arm only)."""

    @property
    def evidence(self) -> str:
        """``evidence.ts`` ``classifyEvidence``, in its order of precedence."""
        if self.title_boost:
            return "exact_title_match"
        if self.cosine is not None and self.cosine >= HIGH_COSINE_FLOOR:
            return "high_vector_match"
        if self.keyword_hit and self.base_score >= STRONG_RATIO:
            return "keyword_exact"
        return "weak_semantic"

    @property
    def create_safety(self) -> str:
        """``evidence.ts`` ``createSafetyFor``."""
        strong = ("exact_title_match", "high_vector_match")
        return (
            "exists"
            if self.evidence in strong
            else {"keyword_exact": "probable"}.get(self.evidence, "unknown")
        )


@dataclass
class _Doc:
    page: Page
    title: Counter[str]
    body: Counter[str]
    chunks: list[tuple[Chunk, Counter[str]]]


def _stems(text: str) -> Counter[str]:
    return Counter(stem(w) for w in words(text) if w not in STOPWORDS)


def _doc(page: Page) -> _Doc:
    chunks = [
        (chunk, _stems(chunk.text))
        for chunk in page.chunks or [Chunk(0, page.id, 0, "compiled_truth", page.compiled_truth)]
    ]
    body: Counter[str] = Counter()
    for _, counts in chunks:
        body.update(counts)
    return _Doc(page, _stems(page.title), body, chunks)


def _ts_rank(counts: Counter[str], terms: Sequence[str], weight: float = 1.0) -> float:
    return sum(weight * math.log1p(counts[t]) for t in terms if counts[t])


Pools = tuple[Sequence[_Doc], Sequence[_Doc]]
"""The docs an arm looks at: for its strict pass, then for its OR-relaxed pass."""


Factor = Callable[[Page], float]
"""A page's multiplier on an arm's rank score (the hybrid path's slug-prefix factor)."""


def _chunk_arm(
    pools: Pools,
    query: KeywordQuery,
    factor: Factor | None = None,
    compiled_only: bool = False,
) -> tuple[list[tuple[_Doc, Chunk]], bool]:
    """searchKeyword: each page's best chunk, the query itself first, then OR of the terms.
    ``compiled_only`` is ``detail = low`` (compiled-truth chunks only)."""
    terms = query.terms
    for relaxed in (False, True)[: 1 + query.relaxable]:
        found: list[tuple[float, str, _Doc, Chunk]] = []
        for d in pools[relaxed]:
            best: tuple[float, Chunk] | None = None
            scale = factor(d.page) if factor else 1.0
            for chunk, counts in d.chunks:
                if compiled_only and chunk.chunk_source != "compiled_truth":
                    continue
                hits = sum(1 for t in terms if counts[t])
                if not (hits if relaxed else query.holds(counts, chunk.text)):
                    continue
                score = (hits + _ts_rank(counts, terms)) * scale
                if best is None or score > best[0]:
                    best = (score, chunk)
            if best is not None:
                found.append((best[0], d.page.slug, d, best[1]))
        if found:
            found.sort(key=lambda f: (-f[0], f[1]))
            return [(d, c) for _, _, d, c in found], relaxed
    return [], False


def _title_arm(
    pools: Pools, query: KeywordQuery, factor: Factor | None = None
) -> tuple[list[_Doc], bool]:
    """searchTitles: page grain over titles; strict, then OR. Only titles vote here: in
    recordings 106 and 108 every page but the title hit scores from one list alone."""
    terms = query.terms
    for relaxed in (False, True)[: 1 + query.relaxable]:
        found: list[tuple[float, str, _Doc]] = []
        for d in pools[relaxed]:
            hits = sum(1 for t in terms if d.title[t])
            if not (hits if relaxed else query.holds(d.title, d.page.title)):
                continue
            score = hits + _ts_rank(d.title, terms, TITLE_WEIGHT)
            if factor:
                score *= factor(d.page)
            found.append((score, d.page.slug, d))
        if found:
            found.sort(key=lambda f: (-f[0], f[1]))
            return [d for _, _, d in found], relaxed
    return [], False


class SearchIndex:
    """An inverted index over page versions: each page's tokenised ``_Doc`` and, per stem,
    the ids of pages whose title (or chunks) hold it. GBrain keeps a ``tsvector`` per chunk
    and per title with GIN indexes (``schema.sql``); this stands in for them so a search
    touches only the pages that share a term. An arm's strict pass can only score pages
    holding every term, its relaxed pass pages holding one, and each pool keeps the order
    of the pages given, so the rows are exactly those of scoring every page."""

    def __init__(self) -> None:
        self.docs: dict[int, _Doc] = {}
        self.title_postings: dict[str, set[int]] = {}
        self.body_postings: dict[str, set[int]] = {}
        self.linkers: dict[str, dict[int, int]] = {}
        """Link target slug -> {id of a page linking to it: how many times}."""
        self.vectors: dict[int, dict[int, float]] = {}
        """Chunk id -> its embedding, filled by the vector arm (``hybrid``) as it goes."""
        self.tsvectors: dict[tuple[str, int], dict[str, list[tuple[int, float]]]] = {}
        """(``chunk``, chunk id) or (``page``, page id) -> its Postgres ``tsvector``, filled by
        the hybrid lexical arms (``tsearch``) as they go."""

    def add(self, page: Page) -> None:
        """Index ``page``'s current version (replacing an earlier one)."""
        old = self.docs.get(page.id)
        if old is not None:
            for term in old.title:
                self.title_postings.get(term, set()).discard(page.id)
            for term in old.body:
                self.body_postings.get(term, set()).discard(page.id)
            for target in old.page.links:
                self.linkers.get(target, {}).pop(page.id, None)
            for chunk, _ in old.chunks:
                self.vectors.pop(chunk.id, None)
                self.tsvectors.pop(("chunk", chunk.id), None)
            self.tsvectors.pop(("page", page.id), None)
        doc = _doc(page)
        self.docs[page.id] = doc
        for term in doc.title:
            self.title_postings.setdefault(term, set()).add(page.id)
        for term in doc.body:
            self.body_postings.setdefault(term, set()).add(page.id)
        for target, times in Counter(page.links).items():
            self.linkers.setdefault(target, {})[page.id] = times

    def pools(self, pages: Sequence[Page], query: KeywordQuery) -> tuple[Pools, Pools]:
        """The chunk arm's and the title arm's pools among ``pages``."""
        wanted: list[set[int]] = []
        for postings in (self.body_postings, self.title_postings):
            lists = [postings.get(t, set()) for t in query.terms]
            strict = _candidates(query.node, postings)
            wanted.append({p.id for p in pages} if strict is None else strict)
            wanted.append(set.union(*lists))
        every = set.union(*wanted)
        docs = []
        for page in pages:
            if page.id in every:
                doc = self.docs.get(page.id)
                docs.append(doc if doc is not None and doc.page is page else _doc(page))
        body_all, body_any, title_all, title_any = (
            [d for d in docs if d.page.id in ids] for ids in wanted
        )
        return (body_all, body_any), (title_all, title_any)


def _candidates(node: tsquery.Node, postings: dict[str, set[int]]) -> set[int] | None:
    """The pages that may match ``node`` by the terms they hold; ``None`` for any page
    (a negation matches pages without the term)."""
    if isinstance(node, tsquery.Term):
        return set.intersection(*(postings.get(t, set()) for _, t in node.items))
    if isinstance(node, tsquery.Not):
        return None
    found = [_candidates(arg, postings) for arg in node.args]
    if isinstance(node, tsquery.And):
        known = [ids for ids in found if ids is not None]
        return set.intersection(*known) if known else None
    if any(ids is None for ids in found):
        return None
    return set.union(*(ids for ids in found if ids is not None))


def representative_chunk(page: Page) -> Chunk:
    """pglite-engine.ts ``searchTitles``: a title row carries the page's first
    compiled-truth chunk (else its first chunk)."""
    chunks = page.chunks or [Chunk(0, page.id, 0, "compiled_truth", page.compiled_truth)]
    compiled = [c for c in chunks if c.chunk_source == "compiled_truth"]
    return min(compiled or chunks, key=lambda c: c.chunk_index)


def lexical_lists(
    pages: Sequence[Page],
    query: str,
    index: SearchIndex,
    factor: Factor,
    *,
    compiled_only: bool = False,
) -> tuple[list[tuple[Page, Chunk]], list[tuple[Page, Chunk]]]:
    """The chunk arm's and the title arm's ranked rows, each a separate list for
    fusion (the hybrid path, ``hybrid.ts`` ``hybridSearch``): ranks scaled by ``factor``
    (``buildSourceFactorCase``), title rows on their representative chunk."""
    parsed = KeywordQuery.plain(query)
    if parsed is None:
        return [], []
    chunk_pools, title_pools = index.pools(pages, parsed)
    chunk_list, _ = _chunk_arm(chunk_pools, parsed, factor, compiled_only)
    title_list, _ = _title_arm(title_pools, parsed, factor)
    return (
        [(d.page, chunk) for d, chunk in chunk_list],
        [(d.page, representative_chunk(d.page)) for d in title_list],
    )


def lexical_hits(
    pages: Sequence[Page], query: str, index: SearchIndex | None = None
) -> dict[int, Hit]:
    """The two lexical arms fused: page id -> hit with its reciprocal-rank ``raw`` score.

    With ``index`` only the pages sharing a term are tokenised and scored (same rows)."""
    parsed = KeywordQuery.parse(query)
    if parsed is None:
        return {}
    terms = parsed.terms
    if index is not None:
        chunk_pools, title_pools = index.pools(pages, parsed)
    else:
        docs = [_doc(p) for p in pages]
        chunk_pools = title_pools = (docs, docs)
    chunk_list, chunk_relaxed = _chunk_arm(chunk_pools, parsed)
    title_list, title_relaxed = _title_arm(title_pools, parsed)
    hits: dict[int, Hit] = {}
    weight = RELAXED_WEIGHT if chunk_relaxed else 1.0
    for position, (d, chunk) in enumerate(chunk_list):
        hit = hits.setdefault(d.page.id, Hit(d.page, chunk, relaxed=chunk_relaxed))
        hit.raw += RRF_K * weight / (RRF_K + position)
    weight = RELAXED_WEIGHT if title_relaxed else 1.0
    for position, d in enumerate(title_list):
        best_chunk = max(d.chunks, key=lambda c: (_ts_rank(c[1], terms), -c[0].chunk_index))[0]
        hit = hits.setdefault(d.page.id, Hit(d.page, best_chunk, relaxed=title_relaxed))
        hit.relaxed = hit.relaxed and title_relaxed
        hit.raw += RRF_K * weight / (RRF_K + position)
    return hits


def apply_boosts(
    hit: Hit, query: str, backlink_counts: Mapping[str, int], *, base: float | None = None
) -> None:
    """Title-phrase boost, exact lookup and backlink boost on ``hit.raw`` (or ``base``).

    Keyword-only, ``base_score`` is the score after the title boost (recording 108); with
    the vector arm it is the blended score before it (recording 112: 0.886 for *Ledger
    Lake*, then x1.25 and the backlink boost)."""
    page = hit.page
    score = hit.raw if base is None else base
    if title_phrase_match(query, page.title):
        hit.title_boost = TITLE_BOOST
        score *= TITLE_BOOST
    phrase = _norm_phrase(query)
    if phrase and phrase == _norm_phrase(page.title):
        hit.exact_lookup = "title"
    elif phrase and phrase in (_norm_phrase(page.slug), _norm_phrase(_tail(page.slug))):
        hit.exact_lookup = "slug"
    hit.base_score = score if base is None else base
    inbound = backlink_counts.get(page.slug, 0)
    if inbound:
        hit.backlink_boost = 1 + 0.05 * math.log(1 + inbound)
        score *= hit.backlink_boost
    hit.score = score


def rank(
    pages: Sequence[Page],
    query: str,
    backlink_counts: Mapping[str, int],
    index: SearchIndex | None = None,
) -> list[Hit]:
    """Rank ``pages`` for ``query`` (keyword-only); best first, ties broken by slug.

    With ``index`` only the pages sharing a term are tokenised and scored (same rows)."""
    hits = lexical_hits(pages, query, index)
    for hit in hits.values():
        apply_boosts(hit, query, backlink_counts)
    return sorted(hits.values(), key=lambda h: (-h.score, h.page.slug, h.page.source_id))


_INJECTION_RE = re.compile(
    r"ignore (all |any )?(previous|prior|above) instructions"
    r"|disregard (all |any )?(previous|prior)|system prompt|developer mode|you are now"
    r"|new instructions|exfiltrate|send (all |every )?(the )?(secrets|api keys?|tokens?)",
    re.IGNORECASE,
)


def looks_like_injection(*texts: str) -> bool:
    """Newer GBrain flags rows whose text tries to instruct the agent; this is our heuristic."""
    return any(_INJECTION_RE.search(t) for t in texts)
