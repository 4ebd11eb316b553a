"""What GBrain 0.46.28's lexical search shares across its paths.

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
* :class:`SearchIndex`, the stand-in for GBrain's GIN indexes and cached vectors.
"""

from __future__ import annotations

import math
import re
import threading
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from hermes_gbrain.emulator.pages import Chunk, Page

TITLE_BOOST = 1.25
STRONG_RATIO = 0.6  # evidence.ts SOLID_MATCH_FLOOR
HIGH_COSINE_FLOOR = 0.8  # evidence.ts DEFAULT_HIGH_COSINE_FLOOR (search.evidence_cosine_floor)

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


class SearchIndex:
    """What GBrain keeps beside its pages for search, per page version: the pages linking to
    each page (backlinks), each chunk's embedding and Postgres ``tsvector`` (cached as the arms
    compute them), and the lexeme postings that stand in for the GIN index on
    ``search_vector`` (:func:`.hybrid._holding`), so a search touches only the pages that
    share a lexeme with it."""

    def __init__(self) -> None:
        self.pages: dict[int, Page] = {}
        """Page id -> the version indexed."""
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
        old = self.pages.get(page.id)
        if old is not None:
            for target in old.links:
                self.linkers.get(target, {}).pop(page.id, None)
            for chunk in old.chunks or [Chunk(0, old.id, 0, "compiled_truth", "")]:
                self.vectors.pop(chunk.id, None)
                self.tsvectors.pop(("chunk", chunk.id), None)
            self.tsvectors.pop(("page", page.id), None)
        self.forget_lexemes(page.id)
        self.pages[page.id] = page
        for target, times in Counter(page.links).items():
            self.linkers.setdefault(target, {})[page.id] = times

    def forget_lexemes(self, page_id: int) -> None:
        """Drop a page's entries from :attr:`lexeme_pages` (its text changed)."""
        known = self.page_lexemes.pop(page_id, None)
        if known is not None:
            for lex in known[1]:
                self.lexeme_pages.get(lex, set()).discard(page_id)


def representative_chunk(page: Page) -> Chunk:
    """pglite-engine.ts ``searchTitles``: a title row carries the page's first
    compiled-truth chunk (else its first chunk)."""
    chunks = page.chunks or [Chunk(0, page.id, 0, "compiled_truth", page.compiled_truth)]
    compiled = [c for c in chunks if c.chunk_source == "compiled_truth"]
    return min(compiled or chunks, key=lambda c: c.chunk_index)


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
