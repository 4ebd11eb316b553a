"""What a hybrid GBrain 0.46.28 reads from the shape of a query before it searches.

``search/query-intent.ts`` ``classifyQuery`` sorts a query into an intent by regular
expressions, and the intent sets the rest (``search/intent-weights.ts``, ``hybrid.ts``
``hybridSearch``):

* **detail** (``intentToDetail``): ``low`` for entity questions (compiled-truth chunks
  only, and the compiled-truth boost after fusion), ``high`` for temporal and event ones
  (no slug-prefix factor, no boost), none otherwise;
* **RRF weights** (``INTENT_WEIGHTS``, ``effectiveRrfK``): a list's k is 60 divided by
  its weight, so an entity question leans on the lexical lists and a concept one on
  the vector list;
* **recency and salience** (``classifyQuery``'s recency and salience axes, with the
  intent's suggested recency as a fallback);
* **exact-match boost** (``applyExactMatchBoost``) for entity and event questions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Intent", "classify", "effective_k", "source_factor"]

RRF_K = 60  # hybrid.ts RRF_K


def _any(patterns: tuple[re.Pattern[str], ...], text: str) -> bool:
    return any(p.search(text) for p in patterns)


def _compile(*sources: str, flags: int = re.IGNORECASE) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(s, flags) for s in sources)


# query-intent.ts TEMPORAL_PATTERNS, EVENT_PATTERNS, ENTITY_PATTERNS, FULL_CONTEXT_PATTERNS
TEMPORAL = _compile(
    r"\bwhen\b",
    r"\blast\s+(met|meeting|call|conversation|chat|talked|spoke|seen|heard|time)\b",
    r"\brecent(ly)?\b",
    r"\bhistory\b",
    r"\btimeline\b",
    r"\bmeeting\s+notes?\b",
    r"\bwhat('s| is| was)\s+new\b",
    r"\blatest\b",
    r"\bupdate(s)?\s+(on|from|about)\b",
    r"\bhow\s+long\s+(ago|since)\b",
    r"\b\d{4}[-/]\d{2}\b",
    r"\blast\s+(week|month|quarter|year)\b",
)
EVENT = _compile(
    r"\bannounce[ds]?(ment)?\b",
    r"\blaunch(ed|es|ing)?\b",
    r"\braised?\s+\$?\d",
    r"\bfund(ing|raise)\b",
    r"\bIPO\b",
    r"\bacquisition\b",
    r"\bmerge[drs]?\b",
    r"\bnews\b",
    r"\bhappened?\b",
)
ENTITY = _compile(
    r"\bwho\s+is\b",
    r"\bwhat\s+(is|does|are)\b",
    r"\btell\s+me\s+about\b",
    r"\bdescribe\b",
    r"\bsummar(y|ize)\b",
    r"\boverview\b",
    r"\bbackground\b",
    r"\bprofile\b",
    r"\bwhat\s+do\s+(i|you|we)\s+know\b",
)
FULL_CONTEXT = _compile(
    r"\beverything\b",
    r"\ball\s+(about|info|information|details)\b",
    r"\bfull\s+(history|context|picture|story|details)\b",
    r"\bcomprehensive\b",
    r"\bdeep\s+dive\b",
    r"\bgive\s+me\s+everything\b",
)
# query-intent.ts CANONICAL_PATTERNS, STRONG_RECENCY_PATTERNS, RECENCY_ON_PATTERNS,
# EXPLICIT_TEMPORAL_BOUND_PATTERNS, SALIENCE_ON_PATTERNS
CANONICAL = _compile(
    r"\bwho\s+is\b",
    r"\bwhat\s+(is|are|does|means?)\b",
    r"\bdefin(e|ition|ing)\b",
    r"\bexplain\s+(what|how|why)\b",
    r"\b(history|origin|background)\s+of\b",
    r"\bconcept\s+of\b",
    r"\boverview\s+of\b",
    r"\btell\s+me\s+about\b",
    r"\bcompiled\s+truth\b",
    r"::|->|\.\w+\(",
    r"\b(function|class|method|module)\s+\w+",
    r"\b(graph|traversal|backlinks?|inbound|outbound)\b",
)
STRONG_RECENCY = _compile(
    r"\btoday\b", r"\bright\s+now\b", r"\bthis\s+morning\b", r"\bjust\s+now\b"
)
RECENCY_ON = _compile(
    r"\bwhat'?s\s+(going\s+on|happening|new|latest|up)\b",
    r"\b(latest|recent(ly)?|currently)\b",
    r"\b(this|last|past)\s+(week|month|few\s+days|couple\s+days)\b",
    r"\bmeeting\s+(prep|with|for|notes?|brief)\b",
    r"\bbefore\s+(my|the|our)\s+(meeting|call|sync|chat)\b",
    r"\bprep(are)?\s+(for|me)\b",
    r"\bcatch(es|ing)?\b[\s\w]{0,15}\bup\b",
    r"\bremind\s+me\s+(what|about|of)\b",
    r"\b(update|status|progress)\s+(on|with|from)\b",
)
TEMPORAL_BOUND = _compile(
    r"\btoday\b",
    r"\bright\s+now\b",
    r"\bthis\s+morning\b",
    r"\bthis\s+week\b",
    r"\bsince\s+(launch|last|the|\d)",
    r"\blast\s+\d+\s+(day|days|week|weeks|month|months)\b",
)
SALIENCE_ON = _compile(
    r"\bwhat'?s\s+(going\s+on|happening|been\s+going|been\s+up)\b",
    r"\bcatch(es|ing)?\b[\s\w]{0,15}\bup\b",
    r"\bremind\s+me\s+(what|about|of)\b",
    r"\bprep(are)?\s+(for|me)\b",
    r"\bbefore\s+(my|the|our)\s+(meeting|call|sync|chat)\b",
    r"\bmeeting\s+(prep|with|for|brief)\b",
    r"\b(update|status|progress)\s+(on|with|from)\b",
    r"\bwhat\s+matters\b",
    r"\bwhat'?s\s+important\b",
)
# query-intent.ts CONCEPT_CUE_PATTERNS, CONCEPT_DEFINITIONAL_PATTERNS (the first two are
# case-sensitive there), CONCEPT_STATUS_ANTI_RE, CONCEPT_ANTI_PATTERNS
# query-intent.ts CROSS_MODAL_PATTERNS: the query names a visual artifact
CROSS_MODAL = _compile(
    r"\b(show|find|get|pull)\s+(me\s+)?(the\s+)?(photos?|images?|pictures?|pics?|screenshots?)\b",
    r"\b(photos?|images?|pictures?|pics?|screenshots?)\s+(of|from|at|with|showing|featuring)\b",
    r"\bwhat\s+does\s+[\w\s']{1,40}?\s+look\s+like\b",
    r"\b(whiteboard|diagram|slide|screenshot|infographic|chart)s?\s+(of|from|about|showing)\b",
    r"\bdiagram\s+(of|for|showing)\b",
    r"\bvisual(s|ly)?\s+(of|from|about|showing|representation)\b",
)
CONCEPT_CUES = _compile(
    r"\b(all|every)\b.+\b(that|who|which|doing|with|about|related to)\b",
    r"\b(find|list|show)\s+(all|every|everything)\b",
    r"\beverything\s+(about|on|matching|related)\b",
    r"\bthe\s+(landscape|ecosystem|space|universe)\s+of\b",
    r"\b(landscape|ecosystem)\s+(of|around)\b",
    r"\bwhich\s+\w+[\w\s]*\b(do|does|are|have|use|work)\b",
)
CONCEPT_DEFINITIONAL = (
    *_compile(
        r"\b[Ww]hat\s+(is|are)\s+(the\s+)?[a-z][\w'\u2019-]*\s+[a-z]",
        r"\b[Ww]hat\s+do\s+(i|you|we)\s+know\s+about\s+[a-z][\w'\u2019-]*\s+[a-z]",
        flags=0,
    ),
    *_compile(
        r"\b(notes|ideas|thinking|thoughts|writing)\s+(on|about)\b",
        r"\bways\s+to\b",
        r"\bhow\s+to\s+think\s+about\b",
        r"\bconcept\s+of\b",
    ),
)
CONCEPT_STATUS_ANTI = re.compile(
    r"\b(working on|up to|doing|saying|talking about|focused on|meeting with)\b", re.IGNORECASE
)
CONCEPT_ANTI = _compile(r"[\"'“”][^\"'“”]+[\"'“”]", r"\b[a-z0-9]+(?:-[a-z0-9]+){1,}\b", flags=0)
_SENTENCE_BREAK = set('.!?:;\n\r•-(["“')


def _mid_sentence_capital(query: str) -> bool:
    """query-intent.ts ``hasMidSentenceCapital``: a capital after a space that does not
    follow sentence punctuation (a name inside the question)."""
    for match in re.finditer(r"\s(?=[^\W\d_])", query):
        letter = query[match.end()]
        if not letter.isupper():
            continue
        before = query[: match.start() + 1].rstrip()
        if before and before[-1] not in _SENTENCE_BREAK:
            return True
    return False


def _concept_shaped(query: str) -> bool:
    """query-intent.ts ``isConceptShapedQuery``."""
    q = query.strip()
    if len(q.split()) < 3:
        return False
    definitional = _any(CONCEPT_DEFINITIONAL, q)
    cue = _any(CONCEPT_CUES, q)
    if not cue and not definitional:
        return False
    if _any(CONCEPT_ANTI, q) or _mid_sentence_capital(q):
        return False
    return not (definitional and not cue and CONCEPT_STATUS_ANTI.search(q))


@dataclass(frozen=True)
class Intent:
    """The intent of one query and the knobs it sets."""

    name: str
    detail: str | None
    recency: str
    salience: str
    keyword_weight: float = 1.0
    vector_weight: float = 1.0
    exact_match_boost: float = 1.0
    image: bool = False
    """The query names pictures (``suggestedModality`` ``image``): ``hybridSearch`` then
    skips both lexical arms; with no multimodal embedder the vector arm runs on text."""


# intent-weights.ts INTENT_WEIGHTS: (keyword weight, vector weight, suggested recency,
# exact-match boost); query-intent.ts intentToDetail
_WEIGHTS = {
    "entity": (1.15, 1.0, None, 1.25, "low"),
    "temporal": (1.0, 1.0, "on", 1.0, "high"),
    "event": (1.2, 0.95, "on", 1.10, "high"),
    "concept": (0.9, 1.2, None, 1.0, None),
    "general": (1.0, 1.0, None, 1.0, None),
}


def _intent_name(query: str) -> str:
    """query-intent.ts ``classifyQueryIntent``, in its order."""
    if _any(FULL_CONTEXT, query) or _any(TEMPORAL, query):
        return "temporal"
    if _any(EVENT, query):
        return "event"
    if _concept_shaped(query):
        return "concept"
    return "entity" if _any(ENTITY, query) else "general"


def classify(query: str) -> Intent:
    """query-intent.ts ``classifyQuery`` with the intent's weights (intent weighting is on
    in every search mode, ``mode.ts``); recency as ``hybridSearch`` resolves it."""
    name = _intent_name(query)
    keyword, vector, suggested, exact, detail = _WEIGHTS[name]
    canonical = _any(CANONICAL, query) and not _any(TEMPORAL_BOUND, query)
    if canonical:
        recency = salience = "off"
    else:
        recency = (
            "strong" if _any(STRONG_RECENCY, query) else "on" if _any(RECENCY_ON, query) else "off"
        )
        salience = "on" if _any(SALIENCE_ON, query) else "off"
    if recency == "off" and suggested is not None:
        recency = suggested  # hybrid.ts: the intent's suggestion is the fallback
    return Intent(name, detail, recency, salience, keyword, vector, exact, _any(CROSS_MODAL, query))


def effective_k(weight: float) -> float:
    """intent-weights.ts ``effectiveRrfK``: a heavier list gets a smaller k."""
    return RRF_K / weight if weight > 0 else RRF_K


# source-boost.ts DEFAULT_SOURCE_BOOSTS: the slug-prefix factor on every arm's score
SOURCE_BOOSTS = {
    "originals/": 1.5,
    "concepts/": 1.3,
    "writing/": 1.4,
    "people/": 1.2,
    "companies/": 1.2,
    "deals/": 1.2,
    "meetings/": 1.1,
    "media/articles/": 1.1,
    "media/repos/": 1.1,
    "yc/": 1.0,
    "civic/": 1.0,
    "daily/": 0.8,
    "media/x/": 0.7,
    "openclaw/chat/": 0.5,
    "archive/": 0.5,
    "extracts/": 0.3,
}
_BY_LENGTH = sorted(SOURCE_BOOSTS.items(), key=lambda kv: -len(kv[0]))


def source_factor(slug: str, detail: str | None) -> float:
    """sql-ranking.ts ``buildSourceFactorCase``: the longest matching prefix's factor,
    1.0 when none matches or for ``detail = high``."""
    if detail == "high":
        return 1.0
    for prefix, factor in _BY_LENGTH:
        if slug.startswith(prefix):
            return factor
    return 1.0
