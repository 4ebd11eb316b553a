"""``websearch_to_tsquery``'s operators, as Postgres parses a user's search text.

GBrain 0.46.28 hands the raw query to ``websearch_to_tsquery('english', q)`` in both lexical
arms (``postgres-engine.ts`` / ``pglite-engine.ts`` ``searchKeyword`` and ``searchTitles``), so
operators typed in a message take effect. Postgres' rules (``tsquery.c``
``gettoken_query_websearch`` and ``parse_or_operator``; the "websearch_to_tsquery" section of
the text search documentation), checked against PGLite:

* After an operand, ``or`` (any case) followed by a character that is not a letter, digit,
  ``-`` or ``_``, and later by something other than space, is OR; elsewhere it is a word (a
  stopword, so it vanishes): ``postgres or`` and ``or postgres`` are ``'postgr'``.
* AND (two operands side by side) binds tighter than OR: ``a b or c d`` is
  ``(a & b) | (c & d)``.
* ``-`` where an operand is due negates it (``- x`` too; ``--x`` is ``!!x``).
* ``"…"`` is one operand up to the next quote or the end: its words a phrase (``<->``, with
  ``<N>`` across stopwords). An unquoted operand runs to a space, a quote or one of
  ``! & | ( ) < :``, which are otherwise skipped; its words also form a phrase
  (``foo-bar`` is ``'foo-bar' <-> 'foo' <-> 'bar'``, ``a,b`` is ``'a' <-> 'b'``).
* Stopword operands are dropped with the operators that lose their operand
  (``tsquery_cleanup.c`` ``clean_stopword_intree``): ``-the x`` is ``'x'``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

__all__ = [
    "And",
    "Node",
    "Not",
    "Or",
    "Term",
    "gets_or_fallback",
    "has_phrase",
    "lexemes",
    "matches",
    "parse",
    "top_is_and",
]

_MINUS_TERM = re.compile(r"(^|\s)-\S")
_SKIPPED = frozenset("!&|()<:")  # tsquery.c ISOPERATOR, and ':' (a weight mark) as PGLite shows


@dataclass(frozen=True)
class Term:
    """One operand: its lexemes at their offsets from the first (a phrase when more than one)."""

    items: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class Not:
    arg: Node


@dataclass(frozen=True)
class And:
    args: tuple[Node, ...]


@dataclass(frozen=True)
class Or:
    args: tuple[Node, ...]


Node = Term | Not | And | Or
Analyse = Callable[[str], Sequence[str | None]]
"""Text -> its lexemes in position order, ``None`` where a stopword holds a position."""


def _is_or(text: str, at: int) -> bool:
    """tsquery.c ``parse_or_operator``."""
    if text[at : at + 2].lower() != "or" or at + 2 >= len(text):
        return False
    after = text[at + 2]
    if after in "-_" or after.isalnum():
        return False
    return any(not ch.isspace() for ch in text[at + 3 :])


def _operands(text: str) -> list[list[tuple[int, str]]]:
    """``gettoken_query_websearch``: OR-separated groups of (negations, operand text)."""
    groups: list[list[tuple[int, str]]] = [[]]
    negations = 0
    at = 0
    waiting_operand = True
    while at < len(text):
        ch = text[at]
        if waiting_operand:
            if ch == "-":
                negations += 1
                at += 1
            elif ch == '"':
                end = text.find('"', at + 1)
                end = len(text) if end < 0 else end
                groups[-1].append((negations, text[at + 1 : end]))
                negations, at, waiting_operand = 0, end + 1, False
            elif ch in _SKIPPED or ch.isspace():
                at += 1
            else:
                end = at
                while end < len(text) and not (
                    text[end].isspace() or text[end] in _SKIPPED or text[end] == '"'
                ):
                    end += 1
                groups[-1].append((negations, text[at:end]))
                negations, at, waiting_operand = 0, end, False
        elif _is_or(text, at):
            groups.append([])
            at += 2
            waiting_operand = True
        elif ch in _SKIPPED or ch.isspace():
            at += 1
        else:
            waiting_operand = True  # an implicit AND
    return groups


def _term(text: str, analyse: Analyse) -> Term | None:
    """``pushval_morph``: an operand's lexemes joined by ``<N>`` at their positions."""
    found = [(pos, lex) for pos, lex in enumerate(analyse(text)) if lex is not None]
    if not found:
        return None
    first = found[0][0]
    return Term(tuple((pos - first, lex) for pos, lex in found))


def parse(text: str, analyse: Analyse) -> Node | None:
    """``websearch_to_tsquery(text)``; ``None`` when nothing but stopwords is left."""
    alternatives: list[Node] = []
    for group in _operands(text):
        factors: list[Node] = []
        for negations, operand in group:
            node: Node | None = _term(operand, analyse)
            if node is None:
                continue
            for _ in range(negations):
                node = Not(node)
            factors.append(node)
        if factors:
            alternatives.append(factors[0] if len(factors) == 1 else And(tuple(factors)))
    if not alternatives:
        return None
    return alternatives[0] if len(alternatives) == 1 else Or(tuple(alternatives))


def _walk(node: Node) -> Iterator[str]:
    if isinstance(node, Term):
        yield from (lex for _, lex in node.items)
    elif isinstance(node, Not):
        yield from _walk(node.arg)
    else:
        for arg in node.args:
            yield from _walk(arg)


def lexemes(node: Node | None) -> tuple[str, ...]:
    """Every distinct lexeme, negated ones too, as tsrank.c ``SortAndUniqItems`` counts them."""
    return () if node is None else tuple(dict.fromkeys(_walk(node)))


def has_phrase(node: Node) -> bool:
    """Whether any operand holds more than one lexeme (matching it needs positions)."""
    if isinstance(node, Term):
        return len(node.items) > 1
    if isinstance(node, Not):
        return has_phrase(node.arg)
    return any(has_phrase(arg) for arg in node.args)


def gets_or_fallback(text: str) -> bool:
    """``sql-ranking.ts`` ``buildOrFallbackWebsearchQuery`` returns null for a query with a
    double quote or a token starting with ``-`` (it would undo the user's operators)."""
    return '"' not in text and not _MINUS_TERM.search(text)


def top_is_and(node: Node | None) -> bool:
    """tsrank.c ``calc_rank``: ``calc_rank_and`` when the top operator is AND or a phrase,
    otherwise (a lexeme, OR, NOT) ``calc_rank_or``."""
    if isinstance(node, Term):
        return len(node.items) > 1
    return isinstance(node, And)


Positions = Callable[[str], Sequence[int]]
"""Lexeme -> its positions in the document (empty when absent)."""


def matches(node: Node, positions: Positions) -> bool:
    """``document @@ query`` (``tsvector_op.c`` ``TS_execute``); a phrase needs its lexemes
    at its offsets from one start (``TS_phrase_execute``)."""
    if isinstance(node, Term):
        (_, first), rest = node.items[0], node.items[1:]
        if not rest:
            return bool(positions(first))
        starts = set(positions(first))
        for offset, lex in rest:
            if not starts:
                break
            starts &= {p - offset for p in positions(lex)}
        return bool(starts)
    if isinstance(node, Not):
        return not matches(node.arg, positions)
    found = (matches(arg, positions) for arg in node.args)
    return all(found) if isinstance(node, And) else any(found)
