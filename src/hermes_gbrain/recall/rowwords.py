"""What the gate reads of a search row, once per turn: its words, and whether it is clean.

A row that is auto-generated, flagged by GBrain, or reads like instructions never reaches
the model (:func:`is_clean`); the rest are read as stems of their title, slug and summary
(:class:`RowWords`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import NamedTuple

from ..api import SearchRow
from ..text import one_line
from .dates import is_date_stem
from .generated import is_generated
from .screen import prompt_line, prompt_ref
from .vocabulary import ORDINARY_STEMS
from .words import (
    GENERIC_STEMS,
    content_stem,
    content_stems,
    in_latin_letters,
    message_names,
    versions,
    words,
)

__all__ = [
    "SUMMARY_CAP",
    "TITLE_CAP",
    "RowWords",
    "is_clean",
    "is_person",
    "row_key",
    "side_by_side",
    "slug_words",
    "summary_text",
]

TITLE_CAP = 80
SUMMARY_CAP = 160
_MARKER = re.compile(r"\s*…?\s*\[truncated \d+ chars[^\]]*\]\s*$")
_LINK = re.compile(r"\[\[(?:[^\]|/]*/)?([^\]|]+)(?:\|[^\]]*)?\]\]")
"""A wiki link; its group is the linked slug's last part ("[[projects/beacon-app]]")."""
_AFTER_AN_ARTICLE = re.compile(
    r"(?<![^\W\d_])(?:the|la|el|los|las|le|les|der|die|das|den|dem|il|lo|gli)\s+([^\W\d_][\w-]*)"
)
"""A capitalised word after a definite article ("en la Patagonia", "the Okavango
foundation"): a place or thing of the world a text speaks of, as English, Spanish,
French, German and Italian write it. Not after an article opening a sentence: "Der
Wasserstandsmonitor misst…" and "El Proyecto Cóndor rastrea…" name the page itself."""


def row_key(row: SearchRow) -> str:
    """``source:slug``, the form pages are cited and skipped by."""
    return f"{row.source_id}:{row.slug}"


def summary_text(row: SearchRow) -> str:
    return one_line(_MARKER.sub("", row.snippet), 4 * SUMMARY_CAP)


def _names(snippet: str) -> set[str]:
    """:func:`.words.message_names` of the text's paragraphs, headings left out (a paragraph
    opens a sentence: "# Team lunch" then "Pilau for twelve"), months and days too; and the
    words of the pages it links to that it does not write out ("[[projects/beacon-app]]")."""
    text = _MARKER.sub("", snippet)
    unlinked = _LINK.sub(" ", text)
    prose = "\n".join(ln for ln in unlinked.splitlines() if not ln.startswith("#"))
    paragraphs = (" ".join(p.split()) for p in re.split(r"\n\s*\n", prose))
    found = {s for p in paragraphs for s in message_names(p)}
    linked = content_stems(" ".join(_LINK.findall(text))) - content_stems(unlinked)
    return {s for s in found | linked if not is_date_stem(s) and s not in GENERIC_STEMS}


_AFTER_IN = re.compile(r"(?<![^\W\d_])(?:in|at|near|en|em|nach)\s+([^\W\d_][\w-]*)")
"""A capitalised word after "in", "at" or "near" (or in French, Spanish, Portuguese,
German), in a page's summary: a place ("Reports are hosted in Frankfurt"). Not in its
title, where the words may be a name's ("Thinking in Systems")."""


def _placed(row: SearchRow, summary: str, title: set[str]) -> frozenset[str]:
    """The title's words the title itself or the summary writes after a definite article
    (:data:`_AFTER_AN_ARTICLE`), or the summary after "in" (:data:`_AFTER_IN`): "Grant report
    for the Okavango foundation" is a report, and the Okavango a place, whether or not the
    snippet opens with the title's heading; so is Frankfurt, where reports "are hosted in
    Frankfurt"."""
    text = f"{row.title}\n{summary}"
    after_in = _AFTER_IN.findall(summary.replace(row.title, " "))  # not its heading's
    found = {
        content_stem(w.lower())
        for w in (*_AFTER_AN_ARTICLE.findall(text), *after_in)
        if w[:1].isupper()
    }
    return frozenset(title & found)


def is_clean(row: SearchRow) -> bool:
    if not row.slug or row.injection_suspected or is_generated(row.slug, row.type):
        return False
    if prompt_ref(row.source_id, row.slug) is None:
        return False  # a slug or source id that may not be printed
    if prompt_line(row.title, TITLE_CAP) is None:
        return False  # reads like instructions (``screen.prompt_line``)
    return prompt_line(_MARKER.sub("", row.snippet), SUMMARY_CAP) is not None


def _unlabelled(title: str) -> str:
    """The title after a label of ordinary words and a colon, when what follows has two
    words or more that anchor: people name *Runbook: Ledger Lake Backfill* by "the ledger
    lake backfill", not by the kind of page it is (``""`` when it has no such label; "Thinking
    in Systems" anchors by one word, "system")."""
    label, colon, rest = title.partition(":")
    labelled = content_stems(label)
    if not colon or not labelled or not labelled <= ORDINARY_STEMS:
        return ""
    return rest.strip() if len(content_stems(rest)) >= 2 else ""


_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")
"""A hyphen between letters ("On-Call"), not one of a date."""


def side_by_side(sequence: Sequence[str]) -> frozenset[tuple[str, str]]:
    """Pairs of words side by side, as stems, neither filler ("charging board")."""
    stems = [content_stem(w) for w in sequence]
    return frozenset((a, b) for a, b in itertools.pairwise(stems) if a and b)


def slug_words(slug: str) -> str:
    """The last part of a slug (or a ``source:slug`` key) as words: how a page is written
    in a ``[[link]]`` and often in text ("marula-conservancy" -> "marula conservancy")."""
    return slug.rsplit("/", 1)[-1].replace("-", " ").replace("_", " ")


_LATIN_SLUG = re.compile(r"[a-z]+(?:[-_][a-z0-9]+)*")


def latin_form(title: str, slug: str) -> str:
    """The title in Latin letters: its Greek and Cyrillic words retyped
    (:func:`.words.in_latin_letters`), or, for a title with no Latin, Greek or Cyrillic
    letter, the words of its slug when they are Latin ("sato yuki" for *佐藤由紀* at
    ``people/sato-yuki``, "mashrou alwaha" for *مشروع الواحة*): how people write it in
    Latin letters. ``""`` otherwise."""
    retyped = in_latin_letters(title)
    if retyped or any(ch.isascii() and ch.isalpha() for ch in title):
        return retyped
    tail = slug.rsplit("/", 1)[-1]
    return slug_words(tail) if _LATIN_SLUG.fullmatch(tail) else ""


class RowWords(NamedTuple):
    """A row's words, read once per turn: its title's, its slug's last part's, and all of
    them with its summary's; its title's words in order, and the title in Latin letters."""

    title: set[str]
    tail: set[str]
    body: set[str]
    backing: set[str]
    """Its title's and its summary's: where the message's supporting words are counted."""
    sequence: tuple[str, ...]
    latin: str
    """:func:`latin_form` of the title (``""`` when it has no Greek or Cyrillic word and is
    not written wholly in another script with a slug in Latin letters)."""
    versions: frozenset[str]
    """The title's version numbers."""
    joined: str
    """The title with its hyphenated words written as one ("OnCall Retro"; ``""`` when it
    has none)."""
    phrases: frozenset[tuple[str, str]] = frozenset()
    """Two words side by side in its summary, as stems, not both of its title
    (:func:`side_by_side`): a title's words together are read by the naming rules."""
    unlabelled: str = ""
    """The title after a label of ordinary words (:func:`_unlabelled`)."""
    names: frozenset[str] = frozenset()
    """Words its summary capitalises inside a sentence and words of the pages it links to that
    it does not write out, beyond its title's (:func:`_names`): places and other things of the
    world it mentions ("Lisbon", "Nairobi", "Bluetooth", "[[projects/beacon-app]]")."""
    placed: frozenset[str] = frozenset()
    """Its title's words it writes after a definite article, in its title or its summary, or
    after "in" in its summary (:func:`_placed`): a place the page speaks of, not its name
    ("en la Patagonia" in *Informe de campo Patagonia*)."""
    label: frozenset[str] = frozenset()
    """The words of a title's label before its colon, any label ("incident", "report" of
    *Incident report: collar battery drain*), when words follow the colon."""
    rest: tuple[str, ...] = ()
    """The words after that colon, in order (:attr:`label`)."""

    @classmethod
    def of(cls, row: SearchRow) -> RowWords:
        tail = content_stems(slug_words(row.slug))
        label, colon, rest = row.title.partition(":")
        after = tuple(words(rest)) if colon else ()
        title = content_stems(row.title)
        summary = summary_text(row)
        backing = title | content_stems(summary)
        return cls(
            title,
            tail,
            backing | tail,
            backing,
            tuple(words(row.title)),
            latin_form(row.title, row.slug),
            frozenset(versions(row.title)),
            joined if (joined := _HYPHEN.sub("", row.title)) != row.title else "",
            frozenset(p for p in side_by_side(words(summary)) if not set(p) <= title),
            _unlabelled(row.title),
            frozenset(_names(row.snippet) - title),
            _placed(row, summary, title),
            frozenset(words(label)) if after else frozenset(),
            after,
        )


def is_person(row: SearchRow) -> bool:
    return (row.type or "") == "person"
