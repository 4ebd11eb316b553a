"""The trivial-prompt rule, for Hermes versions that do not ship ``is_trivial_prompt``.

Searching the brain for "ok" or "/help" costs a request and returns noise, so such
turns get no pointers. This mirrors Hermes' rule: empty text, slash commands, and an
exact (case-insensitive) match of a short list of acknowledgements and greetings,
tolerating trailing punctuation or emoji ("thanks!", "ok 👍") but not longer words
("k8s", "note").
"""

from __future__ import annotations

import unicodedata

__all__ = ["TRIVIAL_WORDS", "is_trivial"]

TRIVIAL_WORDS = frozenset(
    {
        "yes", "no", "ok", "okay", "sure", "thanks", "thank you", "y", "n", "yep", "nope",
        "yeah", "nah", "continue", "go ahead", "do it", "proceed", "got it", "cool", "nice",
        "great", "done", "next", "lgtm", "k",
        # greetings (newer Hermes adds these)
        "hi", "hey", "hello", "yo", "sup",
    }
)  # fmt: skip


def _is_trailing_noise(ch: str) -> bool:
    """Punctuation, symbols (emoji) and spaces may follow the word."""
    return ch.isspace() or unicodedata.category(ch)[0] in "PSZ" or ch in "\ufe0f\u200d"


def is_trivial(text: object) -> bool:
    """True when ``text`` is not worth a search (see the module docstring)."""
    if not isinstance(text, str):
        return True
    stripped = text.strip()
    if not stripped or stripped.startswith("/"):
        return True
    if len(stripped) > 40:
        return False
    end = len(stripped)
    while end > 0 and _is_trailing_noise(stripped[end - 1]):
        end -= 1
    core = " ".join(stripped[:end].lower().split())
    return not core or core in TRIVIAL_WORDS
