"""What GBrain 0.46.28's lexical search shares across its paths, and its arms for unspaced scripts.

The ranking itself (keyword-only and hybrid alike) is :mod:`.hybrid`'s, after ``hybrid.ts``
``hybridSearch``; Postgres' full-text rules are :mod:`.tsearch`'s. Here:

* :class:`Hit`, one scored row, and its ``evidence`` (``evidence.ts`` ``classifyEvidence``):
  ``exact_title_match`` when the title boost fired, ``high_vector_match`` for a cosine of at
  least 0.8, ``keyword_exact`` for a lexical hit with ``base_score`` >= 0.6, else
  ``weak_semantic``;
* the title-phrase boost (``hybrid.ts`` ``applyTitleBoost``, ``title-match.ts``): x1.25 when
  the query is a contiguous token run of the title with two content tokens, or equals it; and
  the backlink boost ``1 + 0.05 * ln(1 + backlinks)`` (``applyBacklinkBoost``; recording 108:
  base 2, score 2.2303, boost 1.1151);
* :class:`SearchIndex`, the stand-in for GBrain's GIN indexes and cached vectors;
* the chunk and title arms a query in a script written without spaces takes (GBrain matches
  such text by substring, ``cjk-keyword-sql.ts``; these arms match its words): strict AND,
  then OR of the terms when an arm finds nothing.
"""

from __future__ import annotations

import math
import re
import threading
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from hermes_gbrain.emulator import tsquery
from hermes_gbrain.emulator.pages import Chunk, Page

TITLE_BOOST = 1.25
STRONG_RATIO = 0.6  # evidence.ts SOLID_MATCH_FLOOR
HIGH_COSINE_FLOOR = 0.8  # evidence.ts DEFAULT_HIGH_COSINE_FLOOR (search.evidence_cosine_floor)
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
) -> tuple[list[tuple[_Doc, Chunk, float]], bool]:
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
            return [(d, c, score) for score, _, d, c in found], relaxed
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
        the lexical arms (``hybrid``, ``tsearch``) as they go."""
        self.lexeme_pages: dict[str, set[int]] = {}
        """Lexeme -> ids of pages whose chunk or title vectors hold it (GBrain's GIN index
        on ``search_vector``), filled by the lexical arms as they go."""
        self.lock = threading.RLock()
        """Held while the lexeme postings change or are read: searches run in parallel."""
        self.page_lexemes: dict[int, tuple[Page, frozenset[str]]] = {}
        """Page id -> the version whose lexemes are in :attr:`lexeme_pages`, and those."""

    def add(self, page: Page) -> None:
        """Index ``page``'s current version (replacing an earlier one)."""
        with self.lock:
            self._add(page)

    def _add(self, page: Page) -> None:
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
        self.forget_lexemes(page.id)
        doc = _doc(page)
        self.docs[page.id] = doc
        for term in doc.title:
            self.title_postings.setdefault(term, set()).add(page.id)
        for term in doc.body:
            self.body_postings.setdefault(term, set()).add(page.id)
        for target, times in Counter(page.links).items():
            self.linkers.setdefault(target, {})[page.id] = times

    def forget_lexemes(self, page_id: int) -> None:
        """Drop a page's entries from :attr:`lexeme_pages` (its text changed)."""
        known = self.page_lexemes.pop(page_id, None)
        if known is not None:
            for lex in known[1]:
                self.lexeme_pages.get(lex, set()).discard(page_id)

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
) -> tuple[list[tuple[Page, Chunk, float]], list[tuple[Page, Chunk]]]:
    """The chunk arm's and the title arm's ranked rows, each a separate list for
    fusion (``hybrid.ts`` ``hybridSearch``): ranks scaled by ``factor``
    (``buildSourceFactorCase``), chunk rows with their score, title rows on their
    representative chunk. Only a query in a script written without spaces comes here."""
    parsed = KeywordQuery.plain(query)
    if parsed is None:
        return [], []
    chunk_pools, title_pools = index.pools(pages, parsed)
    chunk_list, _ = _chunk_arm(chunk_pools, parsed, factor, compiled_only)
    title_list, _ = _title_arm(title_pools, parsed, factor)
    return (
        [(d.page, chunk, score) for d, chunk, score in chunk_list],
        [(d.page, representative_chunk(d.page)) for d in title_list],
    )


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


_INJECTION_RE = re.compile(
    r"ignore (all |any )?(previous|prior|above) instructions"
    r"|disregard (all |any )?(previous|prior)|system prompt|developer mode|you are now"
    r"|new instructions|exfiltrate|send (all |every )?(the )?(secrets|api keys?|tokens?)",
    re.IGNORECASE,
)


def looks_like_injection(*texts: str) -> bool:
    """Newer GBrain flags rows whose text tries to instruct the agent; this is our heuristic."""
    return any(_INJECTION_RE.search(t) for t in texts)
