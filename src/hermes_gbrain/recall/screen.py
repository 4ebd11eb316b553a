"""A local screen for instruction-like page titles (a heuristic, not a guarantee).

GBrain 0.46.28 never sets ``injection_suspected``; newer GBrain does. A pointer line
carries only a title, but a title is still text anyone with write access to the
brain chose, so titles that read like orders to the model ("ignore previous
instructions", role markers, chat-template tokens, fence tags) are dropped. It will
miss clever phrasing and may drop an honest title about prompt injection; that is
the trade-off of a cheap, local check. ``GBRAIN_POINTER_SCREEN=0`` turns it off.

Matching happens on a normalised form, so a zero-width character inside a word
("Ig\u200bnore all previous in\u200bstructions") or fullwidth letters do not slip past.
"""

from __future__ import annotations

import re
import unicodedata

from ..text import visible

__all__ = ["looks_like_instructions", "screen_form"]

_PATTERNS = (
    # "ignore/disregard/forget (all) (previous/prior/above) instructions/rules"
    r"\b(ignore|disregard|forget|override|bypass)\b.{0,40}\b(instructions?|rules|prompts?|"
    r"directions|guidelines|context|system)\b",
    r"\byou are now\b",
    r"\bnew (system )?instructions?\b",
    r"\bfrom now on\b",
    r"\b(do not|don't|never) (tell|inform|mention|reveal|disclose)\b",
    r"\b(reveal|print|show|leak|exfiltrate|send)\b.{0,30}\b(system prompt|secrets?|api keys?|"
    r"tokens?|credentials|passwords?|instructions)\b",
    r"\b(act|behave|respond|pretend) as\b",
    r"^\s*(system|assistant|developer|user)\s*:",
    r"\[/?(inst|system)\]",
    r"<\|[a-z_]+\|>",
    r"</?\s*(system|instructions?|assistant|tool_call)\b",
    r"\bmemory-context\b",
    r"\b(run|execute|call|invoke)\b.{0,30}\b(command|tool|function|shell|curl|script)\b",
    r"\bjailbreak\b",
    r"\bimportant\s*:.{0,40}\b(assistant|model|ai|agent)\b",
)
_SCREEN = re.compile("|".join(f"(?:{p})" for p in _PATTERNS), re.IGNORECASE)


_SPACES = re.compile(r"\s+")


def screen_form(text: str) -> str:
    """What the screen matches: invisible characters removed (not spaced), NFKC
    (fullwidth and stylised letters become plain ones), whitespace collapsed."""
    folded = unicodedata.normalize("NFKC", visible(text))
    return _SPACES.sub(" ", visible(folded)).strip()


def looks_like_instructions(title: str) -> bool:
    """True when a title (or summary) reads like an instruction to the model.

    The one screen for every layer that puts brain text into a prompt: digest,
    pointers and briefing all call it.
    """
    if not isinstance(title, str) or not title:
        return False
    return _SCREEN.search(screen_form(title)) is not None
