"""Keyword scoring that behaves like GBrain's keyword-only arm (no embedding provider).

Deterministic: title and slug hits weigh more than body hits, rarer words weigh more than common
ones, stopwords are ignored (so chit-chat finds nothing), and scores are relative to the best row.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hermes_gbrain.emulator.store import Chunk, Page

TITLE_BOOST = 1.25
STRONG_RATIO = 0.6

STOPWORDS = frozenset(
    """
    a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing done down during each either else
    ever every few for from further get gets got had has have having he her here hers herself him
    himself his how i if in into is it its itself just let lets like me might more most much must
    my myself no nor not now of off on once only or other our ours ourselves out over own please
    same she should so some such than that the their theirs them themselves then there these they
    this those through to too under until up upon us very via was we were what whats when where
    which while who whom whose why will with would yes yet you your yours yourself yourselves
    hi hello hey thanks thank ok okay today tonight tomorrow yesterday right now really maybe
    tell show give make write know think want need help find look looking explain describe say
    something anything thing things stuff one ones lot bit kind sort way new good bad best well
    work works working use using used
    """.split()  # noqa: SIM905 - a word list reads better as text
)

_WORD_RE = re.compile(r"[a-z0-9]+")


def words(text: str) -> list[str]:
    return _WORD_RE.findall(text.lower().replace("'s", ""))


def stem(word: str) -> str:
    """A tiny suffix stripper: enough that "robots" meets "robot" and "syncing" meets "sync"."""
    for suffix in ("ing", "ies", "es", "ed", "ly", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            base = word[: -len(suffix)]
            return base + "y" if suffix == "ies" else base
    return word


def query_terms(query: str) -> list[str]:
    """Distinct non-stopword query words (single letters dropped)."""
    terms: list[str] = []
    for word in words(query):
        if len(word) < 2 or word in STOPWORDS or word in terms:
            continue
        terms.append(word)
    return terms


def _tail(slug: str) -> str:
    return slug.rsplit("/", 1)[-1]


def _norm_phrase(text: str) -> str:
    return " ".join(words(text))


@dataclass
class Hit:
    """One scored row: the page, its best chunk and the scoring facts the row reports."""

    page: Page
    chunk: Chunk
    raw: float
    base_score: float = 0.0
    score: float = 0.0
    all_exact: bool = False
    exact_lookup: str | None = None
    backlink_boost: float | None = None

    @property
    def evidence(self) -> str:
        if self.exact_lookup:
            return "exact_title_match"
        if self.base_score >= STRONG_RATIO:
            return "keyword_exact"
        return "weak_semantic"

    @property
    def create_safety(self) -> str:
        return {"exact_title_match": "exists", "keyword_exact": "probable"}.get(
            self.evidence, "unknown"
        )


@dataclass
class _Doc:
    page: Page
    head_words: set[str]
    head_stems: set[str]
    chunk_words: list[tuple[Chunk, set[str], set[str]]]


def _doc(page: Page) -> _Doc:
    head = words(page.title) + words(page.slug.replace("/", " "))
    chunks = []
    for chunk in page.chunks or [Chunk(0, page.id, 0, "compiled_truth", page.compiled_truth)]:
        body = words(chunk.text)
        chunks.append((chunk, set(body), {stem(w) for w in body}))
    return _Doc(page, set(head), {stem(w) for w in head}, chunks)


def _match(term: str, exact: set[str], stems: set[str]) -> float:
    if term in exact:
        return 1.0
    st = stem(term)
    if st in stems:
        return 0.8
    if len(st) >= 4 and any(s.startswith(st) for s in stems):
        return 0.5
    return 0.0


def rank(pages: Sequence[Page], query: str, backlink_counts: Mapping[str, int]) -> list[Hit]:
    """Score every page's best chunk against ``query``; best first, ties broken by slug."""
    terms = query_terms(query)
    if not terms:
        return []
    docs = [_doc(p) for p in pages]
    total = max(1, len(docs))
    idf: dict[str, float] = {}
    for term in terms:
        df = 0
        for d in docs:
            all_exact = d.head_words.union(*(c[1] for c in d.chunk_words))
            all_stems = d.head_stems.union(*(c[2] for c in d.chunk_words))
            if _match(term, all_exact, all_stems) > 0:
                df += 1
        idf[term] = math.log(1 + total / (1 + df))
    phrase = _norm_phrase(query)
    hits: list[Hit] = []
    for d in docs:
        best: Hit | None = None
        for chunk, exact, stems in d.chunk_words:
            raw = 0.0
            matched = 0
            exact_terms = 0
            for term in terms:
                head = _match(term, d.head_words, d.head_stems)
                body = _match(term, exact, stems)
                strength = max(head, body)
                if strength <= 0:
                    continue
                matched += 1
                exact_terms += strength == 1.0
                raw += idf[term] * (strength + 1.0 * head)
            if matched == 0:
                continue
            raw *= 0.5 + 0.5 * matched / len(terms)
            if best is None or raw > best.raw:
                best = Hit(d.page, chunk, raw, all_exact=exact_terms == len(terms))
        if best is None:
            continue
        if phrase and phrase == _norm_phrase(d.page.title):
            best.exact_lookup = "title"
        elif phrase and phrase in (_norm_phrase(d.page.slug), _norm_phrase(_tail(d.page.slug))):
            best.exact_lookup = "slug"
        hits.append(best)
    if not hits:
        return []
    top = max(h.raw for h in hits)
    for h in hits:
        h.base_score = h.raw / top
        score = h.base_score
        if h.exact_lookup:
            score = score * TITLE_BOOST + 1e-6
        inbound = backlink_counts.get(h.page.slug, 0)
        if inbound:
            h.backlink_boost = 1 + 0.05 * math.log(1 + inbound)
            score *= h.backlink_boost
        h.score = score
    hits.sort(key=lambda h: (-h.score, h.page.slug, h.page.source_id))
    return hits


_INJECTION_RE = re.compile(
    r"ignore (all |any )?(previous|prior|above) instructions"
    r"|disregard (all |any )?(previous|prior)|system prompt|developer mode|you are now"
    r"|new instructions|exfiltrate|send (all |every )?(the )?(secrets|api keys?|tokens?)",
    re.IGNORECASE,
)


def looks_like_injection(*texts: str) -> bool:
    """Newer GBrain flags rows whose text tries to instruct the agent; this is our heuristic."""
    return any(_INJECTION_RE.search(t) for t in texts)
