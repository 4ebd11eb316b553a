"""``volunteer_context``: pages named in a conversation window, offered without a search.

Follows GBrain's push-based context (``src/core/ops/insights.ts`` handler,
``src/core/context/volunteer.ts``, ``entity-salience.ts``, ``retrieval-reflex.ts``):

* the window is parsed into turns by ``user:`` / ``assistant:`` prefixes (unprefixed text is
  one user turn);
* each turn yields candidate names: capitalised token runs of up to four words (a leading
  stopword such as "Did" is also tried without it), minus stopwords, numbers and common words
  seen only at a sentence start; plus lowercase words as *weak* candidates, which may only hit
  an alias;
* candidates resolve to pages by alias (0.9), exact title (0.8), surname of a unique person
  page (0.72) or slug suffix (0.6), with +0.05 when the name is in the newest turn or in two
  turns; the gate is ``min_confidence`` (default 0.7), the cap ``max_pages`` (3, at most 5);
* pages whose slug appears in ``prior_context`` are not offered again.

The answer is ``{pages: [{slug, source_id, display, confidence, arm, rationale, synopsis}],
count, window_turns}`` (the op's return in ``insights.ts``; no recording exists).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from hermes_gbrain.emulator import markdown
from hermes_gbrain.emulator.pages import Page

MAX_CANDIDATES = 12
MAX_WEAK = 32
DEFAULT_MAX_PAGES = 3
MAX_PAGES = 5
DEFAULT_MIN_CONFIDENCE = 0.7
SALIENCE_BOOST = 0.05
SYNOPSIS_MAX = 160
ARM_CONFIDENCE = {"alias": 0.9, "title": 0.8, "title-surname": 0.72, "slug-suffix": 0.6}

_STOP = frozenset(
    """
    i i'm i've i'll you you're he she it it's we we're they they're me him her us them my your
    his their our mine yours hers theirs ours this that these those who whom the a an and or but
    so if as at by for in of on to up with from into over than then also just what when where
    why how which whose can could should would will shall may might must do does did is are am
    was were be been being has have had hi hey hello thanks thank please yes no ok okay sure
    maybe well oh let let's lets
    """.split()  # noqa: SIM905 - a word list reads better as text
)
_COMMON = frozenset(
    """
    monday tuesday wednesday thursday friday saturday sunday january february march april may
    june july august september october november december today tomorrow yesterday now soon
    later tonight morning afternoon evening week month year meeting call note task here there
    every some any all one two three first last next new old good bad great nice thing
    something anything
    """.split()  # noqa: SIM905 - a word list reads better as text
)
_TURN = re.compile(r"^(user|assistant)\s*:\s?(.*)$", re.IGNORECASE)
_CAP_WORD = r"[A-Z][\w'\u2019\-]*(?:\.[A-Za-z][\w'\u2019\-]*)*"
_CAP_RUN = re.compile(rf"{_CAP_WORD}(?:\s+{_CAP_WORD}){{0,3}}")
_WEAK = re.compile(r"(?<![\w'\u2019@-])[a-z][\w'\u2019-]{2,}(?![\w'\u2019-])")


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def _slugify(text: str) -> str:
    return "-".join(re.findall(r"[a-z0-9]+", text.lower()))


def _strip_possessive(text: str) -> str:
    return re.sub(r"['\u2019]s$", "", text, flags=re.IGNORECASE).rstrip("'\u2019")


def parse_window(text: str) -> list[tuple[str, str]]:
    """``(role, text)`` turns, oldest first (volunteer.ts ``parseWindow``)."""
    turns: list[list[str]] = []
    for line in text.splitlines():
        match = _TURN.match(line)
        if match:
            turns.append([match.group(1).lower(), match.group(2)])
        elif turns:
            turns[-1][1] += ("\n" if turns[-1][1] else "") + line
        elif line.strip():
            turns.append(["user", line])
    return [(role, body.strip()) for role, body in turns if body.strip()]


def _sentence_start(text: str, index: int) -> bool:
    before = text[:index].rstrip()
    return not before or before[-1] in '.!?:;\n-(["\u201c\u2022'


@dataclass
class Candidate:
    display: str
    query: str
    weak: bool = False
    occurrences: int = 1
    in_newest: bool = False
    user: bool = False
    last_turn: int = 0
    order: int = 0


def _turn_candidates(text: str) -> list[Candidate]:
    """entity-salience.ts ``extractCandidates`` for one turn."""
    seen: dict[str, tuple[Candidate, bool, bool]] = {}
    order = 0

    def consider(surface: str, mid_sentence: bool) -> None:
        nonlocal order
        query = _strip_possessive(surface.strip())
        key = _norm(query)
        if not key:
            return
        if key in seen:
            cand, multi, mid = seen[key]
            seen[key] = (cand, multi, mid or mid_sentence)
            return
        seen[key] = (Candidate(surface.strip(), query, order=order), " " in query, mid_sentence)
        order += 1

    for match in _CAP_RUN.finditer(text):
        surface = match.group(0)
        consider(surface, not _sentence_start(text, match.start()))
        tokens = surface.split()
        kept = 0
        while kept < len(tokens) and _strip_possessive(tokens[kept]).lower() in _STOP:
            kept += 1
        if 0 < kept < len(tokens):
            consider(" ".join(tokens[kept:]), True)
    out: list[Candidate] = []
    for cand, multi, mid in sorted(seen.values(), key=lambda v: v[0].order):
        low = cand.query.lower()
        if not multi and (
            len(cand.query) < 2
            or cand.query.replace(",", "").replace(".", "").isdigit()
            or low in _STOP
            or (low in _COMMON and not mid)
        ):
            continue
        out.append(cand)
        if len(out) >= MAX_CANDIDATES:
            break
    strong = {_norm(c.query) for c in out}
    weak_seen: set[str] = set()
    for match in _WEAK.finditer(text):
        raw = _strip_possessive(match.group(0))
        key = _norm(raw)
        if len(raw) < 3 or raw.lower() in _STOP or raw.lower() in _COMMON or not key:
            continue
        if key in strong or key in weak_seen or len(weak_seen) >= MAX_WEAK:
            continue
        weak_seen.add(key)
        out.append(Candidate(raw, raw, weak=True))
    return out


def window_candidates(turns: list[tuple[str, str]]) -> list[Candidate]:
    """entity-salience.ts ``extractCandidatesFromWindow``: merged, salience-ordered."""
    merged: dict[str, Candidate] = {}
    order = 0
    last = len(turns) - 1
    for index, (role, text) in enumerate(turns):
        for cand in _turn_candidates(text):
            key = _norm(cand.query)
            existing = merged.get(key)
            if existing is None:
                cand.last_turn, cand.in_newest, cand.user = index, index == last, role == "user"
                cand.order = order
                order += 1
                merged[key] = cand
                continue
            existing.occurrences += 1
            existing.last_turn = index
            existing.in_newest = existing.in_newest or index == last
            if existing.weak and not cand.weak:
                existing.weak = False
                existing.display = cand.display
            if role == "user":
                existing.user = True

    def weight(c: Candidate) -> float:
        return (c.last_turn + 1) / len(turns) + min(c.occurrences, 4) * 0.1 + 0.15 * c.user

    ranked = sorted(merged.values(), key=lambda c: (c.weak, -weight(c), c.order))
    strong = [c for c in ranked if not c.weak][:MAX_CANDIDATES]
    weak = [c for c in ranked if c.weak][:MAX_WEAK]
    return strong + weak


def _synopsis(page: Page) -> str:
    summary = page.frontmatter.get("summary")
    if isinstance(summary, str) and summary.strip():
        text = summary
    else:
        text = markdown.summary_of(page.compiled_truth)
        text = re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0]
    text = " ".join(text.split())
    return text if len(text) <= SYNOPSIS_MAX else text[: SYNOPSIS_MAX - 1].rstrip() + "…"


def _aliases(page: Page) -> list[str]:
    raw = page.frontmatter.get("aliases")
    return [a for a in raw if isinstance(a, str)] if isinstance(raw, list) else []


@dataclass
class _Resolved:
    page: Page
    arm: str
    cand: Candidate
    extra: dict[str, Any] = field(default_factory=dict)


def _resolve(pages: list[Page], cands: list[Candidate]) -> list[_Resolved]:
    """retrieval-reflex.ts ``resolveEntitiesToPointers``: alias, title, slug, surname arms."""
    out: list[_Resolved] = []
    seen: set[tuple[str, str]] = set()

    def push(page: Page, arm: str, cand: Candidate) -> None:
        key = (page.source_id, page.slug)
        if key not in seen:
            seen.add(key)
            out.append(_Resolved(page, arm, cand))

    alias_index: dict[str, list[Page]] = {}
    for page in pages:
        for alias in _aliases(page):
            alias_index.setdefault(_norm(alias), []).append(page)
    for cand in cands:
        hits = alias_index.get(_norm(cand.query), [])
        if len(hits) == 1:
            push(hits[0], "alias", cand)
    strong = [c for c in cands if not c.weak]
    by_title = {c.query.lower(): c for c in strong}
    by_slug = {_slugify(c.query): c for c in strong if _slugify(c.query)}
    surnames = {
        c.query.lower(): c
        for c in strong
        if " " not in c.query and len(c.query) >= 3 and c.query[:1].isupper()
    }
    surname_hits: dict[str, list[Page]] = {}
    for page in pages:
        title = page.title.lower()
        if title in by_title:
            push(page, "title", by_title[title])
            continue
        tail = page.slug.rsplit("/", 1)[-1]
        slug_cand = by_slug.get(page.slug) or by_slug.get(tail)
        if slug_cand is not None:
            push(page, "slug-suffix", slug_cand)
            continue
        if page.type == "person":
            for token in surnames:
                if title.endswith(" " + token):
                    surname_hits.setdefault(token, []).append(page)
    for token, hits in surname_hits.items():
        if len(hits) == 1:
            push(hits[0], "title-surname", surnames[token])
    return out


def volunteer(
    pages: list[Page],
    window: str,
    *,
    prior_context: str = "",
    max_pages: Any = None,
    min_confidence: Any = None,
) -> dict[str, Any]:
    """The op's answer for ``window`` (see the module docstring)."""
    turns = parse_window(window)
    cap = DEFAULT_MAX_PAGES
    if isinstance(max_pages, int | float) and max_pages >= 1:
        cap = min(int(max_pages), MAX_PAGES)
    gate = DEFAULT_MIN_CONFIDENCE
    if isinstance(min_confidence, int | float) and 0 <= min_confidence <= 1:
        gate = float(min_confidence)
    prior = prior_context.lower()
    chosen: list[dict[str, Any]] = []
    for hit in _resolve(pages, window_candidates(turns)) if turns else []:
        if prior and hit.page.slug.lower() in prior:
            continue
        boost = SALIENCE_BOOST if hit.cand.occurrences >= 2 or hit.cand.in_newest else 0.0
        confidence = min(0.99, ARM_CONFIDENCE[hit.arm] + boost)
        if confidence < gate:
            continue
        display = " ".join((hit.cand.display or hit.page.title).split())
        rationale = {
            "alias": f'alias match "{display}"',
            "title": f'exact title match "{display}"',
            "title-surname": f'surname match "{display}"',
        }.get(hit.arm, f'slug match "{display}"')
        if hit.cand.occurrences >= 2:
            rationale += f"; mentioned in {hit.cand.occurrences} of last {len(turns)} turns"
        elif hit.cand.in_newest:
            rationale += "; mentioned in the newest turn"
        chosen.append(
            {
                "slug": hit.page.slug,
                "source_id": hit.page.source_id,
                "display": display,
                "confidence": round(confidence, 4),
                "arm": hit.arm,
                "rationale": rationale,
                "synopsis": _synopsis(hit.page),
            }
        )
        if len(chosen) >= cap:
            break
    return {"pages": chosen, "count": len(chosen), "window_turns": len(turns)}
