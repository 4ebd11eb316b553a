"""Postgres full-text search as a hybrid GBrain's lexical arms run it.

``pglite-engine.ts`` ``searchKeyword`` matches ``websearch_to_tsquery('english', q)``
against each chunk's ``search_vector`` (``setweight(to_tsvector('english', chunk_text),
'B')``, ``migrate.ts``) and orders by ``ts_rank``; ``searchTitles`` does the same over the
page's title (weight A) and timeline (weight C). What decides the hybrid ranking, and is
reproduced here:

* **Tokens** (Postgres' default parser, ``english`` configuration): letter-digit runs; a
  run joined by ``/`` (a wikilink target such as ``companies/kestrel-works``) is one
  ``file`` token, so a link's words are not words of the text; a hyphenated word (its
  first part begins with a letter, every later part holds one) is the whole word then
  its parts; a ``-`` before digits makes a signed integer (``2026-05-17`` is ``2026``,
  ``-05``, ``-17``, so a date's day is not the number 17), but after a hyphenated word it
  is a blank; every token, stopword or not, takes a position.
* **Lexemes**: Postgres' English stopwords dropped, the rest stemmed by the Snowball
  English stemmer (``english_stem``), which ``snowballstemmer`` implements.
* **Rank** (``tsrank.c``): ``ts_rank`` scores an AND of two or more lexemes by the
  proximity of their positions (``calc_rank_and``), one lexeme or an OR by their
  occurrences (``calc_rank_or``); ``ts_rank_cd`` (the title arm) by cover density
  (``calc_rank_cd``). Weights D 0.1, C 0.2, B 0.4, A 1.0.
* **Operators** (:mod:`.tsquery`): ``or``, ``-`` and ``"…"`` in the query, as
  ``websearch_to_tsquery`` parses them; a match evaluates the tree (a phrase by positions),
  ``ts_rank`` takes ``calc_rank_and`` only when the top operator is AND or a phrase, and both
  rank over every distinct lexeme of the query, negated ones included.
* **OR fallback** (``sql-ranking.ts`` ``buildOrFallbackWebsearchQuery``): when the strict
  query finds nothing, the query's letter-digit tokens joined by OR (none for one token,
  or a query with a quote or a leading minus).
"""

from __future__ import annotations

import math
import re
import threading
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import snowballstemmer  # type: ignore[import-untyped]

from hermes_gbrain.emulator import tsquery
from hermes_gbrain.emulator.search import STOPWORDS

__all__ = ["Query", "TsVector", "or_fallback", "rank", "rank_cd", "to_tsvector", "websearch"]

WEIGHTS = {"D": 0.1, "C": 0.2, "B": 0.4, "A": 1.0}  # tsrank.c default weights
MAX_DISTANCE = 100  # tsrank.c word_distance: farther pairs count 1e-30
_ZETA2 = 1.64493406685  # tsrank.c calc_rank_or: sum of 1 / i^2
_WORD = r"[^\W_]+"
_PART = r"\d*[^\W\d_][^\W_]*"  # a hyphenated word's part: it holds a letter
_TOKEN = re.compile(
    rf"(?P<file>{_WORD}(?:-{_WORD})*(?:/{_WORD}(?:-{_WORD})*)+)"
    rf"|(?P<dotted>(?:-(?=\d))?{_WORD}(?:\.{_WORD})+)"
    rf"|(?P<hyphen>[^\W\d_][^\W_]*(?:-{_PART})+)"
    r"|(?P<signed>-\d+)"
    rf"|(?P<word>{_WORD})"
)
_STEMMER = snowballstemmer.stemmer("english")
_STEMMER_LOCK = threading.Lock()
"""A Snowball stemmer keeps its working string in the object: two threads stemming at once
get each other's stems or an ``IndexError`` (the server answers requests on many threads)."""

TsVector = dict[str, list[tuple[int, float]]]
"""Lexeme -> its (position, weight) entries, in position order."""


@lru_cache(maxsize=65536)
def lexeme(word: str) -> str | None:
    """``english_stem``: ``None`` for a stopword, else the Snowball stem."""
    lowered = word.lower()
    if lowered in STOPWORDS:
        return None
    with _STEMMER_LOCK:
        return str(_STEMMER.stemWord(lowered))


def _tokens(text: str) -> list[str | None]:
    """Lexemes in parser order, ``None`` where a stopword holds a position."""
    out: list[str | None] = []
    after_hyphenated = -1
    for match in _TOKEN.finditer(text):
        if match.group("file") or match.group("dotted"):  # file, host and float tokens: whole
            out.append(match.group(0).lower())
        elif match.group("hyphen"):
            whole = match.group("hyphen")
            out.append(lexeme(whole))
            out.extend(lexeme(part) for part in whole.split("-"))
            after_hyphenated = match.end()
        elif match.group("signed"):
            # "-17" is a signed integer ("2026-05-17": 2026, -05, -17), except right after
            # a hyphenated word, where the '-' is a blank ("foo-bar-17": foo-bar, 17).
            digits = match.group("signed")
            out.append(digits[1:] if match.start() == after_hyphenated else digits)
        else:
            out.append(lexeme(match.group("word")))
    return out


def to_tsvector(text: str, weight: str = "D", start: int = 0) -> TsVector:
    """``setweight(to_tsvector('english', text), weight)``; positions from ``start`` + 1."""
    vector: TsVector = {}
    for position, lex in enumerate(_tokens(text), start=start + 1):
        if lex is not None:
            vector.setdefault(lex, []).append((position, WEIGHTS[weight]))
    return vector


def concat(*vectors: TsVector) -> TsVector:
    """``a || b``: the later vector's positions shifted past the earlier one's."""
    out: TsVector = {}
    offset = 0
    for vector in vectors:
        last = 0
        for lex, entries in vector.items():
            out.setdefault(lex, []).extend((p + offset, w) for p, w in entries)
            last = max(last, *(p for p, _ in entries))
        offset += last
    return out


@dataclass(frozen=True)
class Query:
    """A ``tsquery``: its distinct lexemes, all required (AND) or any (OR), or, when
    ``node`` is set, the operator tree ``websearch_to_tsquery`` made of them."""

    lexemes: tuple[str, ...]
    any_of: bool = False
    node: tsquery.Node | None = None

    def matches(self, vector: TsVector) -> bool:
        if self.node is not None:
            return tsquery.matches(self.node, lambda lex: [p for p, _ in vector.get(lex, ())])
        found = (lex in vector for lex in self.lexemes)
        return bool(self.lexemes) and (any(found) if self.any_of else all(found))

    def satisfied(self, extent: dict[str, list[int]]) -> bool:
        """The query over an extent's lexeme positions (tsrank.c ``Cover``: a phrase
        must hold inside the extent, as PGLite shows)."""
        if self.node is not None:
            return tsquery.matches(self.node, lambda lex: extent.get(lex, ()))
        return bool(extent) if self.any_of else extent.keys() >= set(self.lexemes)


def _distinct(lexemes: Sequence[str | None]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(lex for lex in lexemes if lex is not None))


def websearch(query: str) -> Query:
    """``websearch_to_tsquery('english', query)``, operators and all (:mod:`.tsquery`)."""
    node = tsquery.parse(query, _tokens)
    return Query(tsquery.lexemes(node), node=node)


def or_fallback(query: str) -> Query | None:
    """``buildOrFallbackWebsearchQuery`` then ``websearch_to_tsquery``: the OR of the
    query's tokens, or ``None`` when Postgres gets no fallback."""
    if not tsquery.gets_or_fallback(query):
        return None
    tokens = [
        t
        for t in re.split(r"[^\w]+|_", unicodedata.normalize("NFKC", query))
        if t and t.upper() not in ("OR", "AND")
    ]
    if len(tokens) < 2:
        return None
    return Query(_distinct([lexeme(t) for t in tokens]), any_of=True)


def _word_distance(distance: int) -> float:
    if distance > MAX_DISTANCE:
        return 1e-30
    return 1.0 / (1.005 + 0.05 * math.exp(distance / 1.5 - 2))


def _rank_or(vector: TsVector, lexemes: Sequence[str]) -> float:
    """tsrank.c ``calc_rank_or``: per lexeme, its occurrences' weights over i^2."""
    total = 0.0
    for lex in lexemes:
        entries = vector.get(lex)
        if not entries:
            continue
        spread = sum(w / (j + 1) ** 2 for j, (_, w) in enumerate(entries))
        top = max(range(len(entries)), key=lambda j: (entries[j][1], -j))
        best = entries[top][1]
        total += (best + spread - best / (top + 1) ** 2) / _ZETA2
    return total / len(lexemes) if lexemes else 0.0


def _rank_and(vector: TsVector, lexemes: Sequence[str]) -> float:
    """tsrank.c ``calc_rank_and``: every pair of positions of two different lexemes,
    ``sqrt(w1 * w2 * word_distance)``, combined as independent chances."""
    result = -1.0
    seen: list[list[tuple[int, float]]] = []
    for lex in lexemes:
        entries = vector.get(lex)
        if not entries:
            continue
        for earlier in seen:
            for position, weight in entries:
                for other, other_weight in earlier:
                    distance = abs(position - other)
                    if not distance:
                        continue
                    chance = math.sqrt(weight * other_weight * _word_distance(distance))
                    result = chance if result < 0 else 1.0 - (1.0 - result) * (1.0 - chance)
        seen.append(entries)
    return result


def rank(vector: TsVector, query: Query) -> float:
    """``ts_rank(vector, query)`` with the default weights and no normalisation."""
    ranks_and = tsquery.top_is_and(query.node) if query.node is not None else not query.any_of
    if not ranks_and or len(query.lexemes) < 2:
        score = _rank_or(vector, query.lexemes)
    else:
        score = _rank_and(vector, query.lexemes)
    return score if score >= 0 else 1e-20


def rank_cd(vector: TsVector, query: Query) -> float:
    """``ts_rank_cd(vector, query)`` (tsrank.c ``calc_rank_cd``, no normalisation): over
    each cover, the smallest run of the query's occurrences that satisfies it (``Cover``,
    found left to right), its occurrence count over the sum of their inverse weights,
    divided by one plus the other words inside it."""
    wanted = set(query.lexemes)
    entries = sorted(
        (position, weight, lex) for lex in wanted for position, weight in vector.get(lex, [])
    )

    def first_satisfying(indices: range) -> int | None:
        seen: dict[str, list[int]] = {}
        for i in indices:
            seen.setdefault(entries[i][2], []).append(entries[i][0])
            if query.satisfied(seen):
                return i
        return None

    total = 0.0
    start = 0
    while start < len(entries):
        end = first_satisfying(range(start, len(entries)))
        if end is None:
            break
        begin = first_satisfying(range(end, start - 1, -1))  # found: the run read forwards
        if begin is None:
            break
        cover = entries[begin : end + 1]
        density = len(cover) / sum(1 / weight for _, weight, _ in cover)
        noise = (entries[end][0] - entries[begin][0]) - (end - begin)
        if noise < 0:
            noise = (end - begin) // 2
        total += density / (1 + noise)
        start = begin + 1
    return total
