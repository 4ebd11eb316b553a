"""The trivial-prompt rule, for Hermes versions that do not ship ``is_trivial_prompt``.

Searching the brain for "ok" or "/help" costs a request and returns noise, so such
turns get no pointers. Newer Hermes skips memory recall itself on exactly these turns,
so this fallback is its rule, not a variation of it (`tests/unit/test_trivial.py`
checks it against Hermes' own function wherever Hermes has one): empty text, slash
commands, and one of a short list of acknowledgements and greetings (Honcho's list in
0.19.0 plus the greetings newer Hermes adds), any case, followed by nothing but
whitespace and common punctuation. Emoji and other symbols do not count as
punctuation ("ok 👍" is searched), nor does punctuation alone ("!!!"), nor a longer
word ("k8s", "note").
"""

from __future__ import annotations

import re

__all__ = ["TRAILING_PUNCTUATION", "TRIVIAL_WORDS", "is_trivial"]

TRIVIAL_WORDS = frozenset(
    {
        "yes", "no", "ok", "okay", "sure", "thanks", "thank you", "y", "n", "yep", "nope",
        "yeah", "nah", "continue", "go ahead", "do it", "proceed", "got it", "cool", "nice",
        "great", "done", "next", "lgtm", "k",
        # greetings (newer Hermes adds these)
        "hi", "hey", "hello", "yo", "sup",
    }
)  # fmt: skip

# What may follow the word, besides whitespace: ASCII punctuation Hermes allows (not
# `/`, `\`, `|`, `_`), typographic quotes, dashes, the ellipsis and the no-break space.
TRAILING_PUNCTUATION = (
    "!?.:;,\"'~()[]{}<>*&^%$#@+=`\u2018\u2019\u201c\u201d\u2014\u2013\u2026\u00a0"
)

# A regular expression on purpose: Hermes matches case-insensitively with ``re`` (so
# e.g. the Kelvin sign counts as "k"), and agreeing with it means matching the same way.
_TRIVIAL = re.compile(
    "(?:"
    + "|".join(re.escape(word) for word in sorted(TRIVIAL_WORDS, key=len, reverse=True))
    + r")[\s"
    + re.escape(TRAILING_PUNCTUATION)
    + "]*",
    re.IGNORECASE,
)


def is_trivial(text: object) -> bool:
    """True when ``text`` is not worth a search (see the module docstring)."""
    if not isinstance(text, str):
        return True  # nothing to search for (Hermes hands memory text only)
    stripped = text.strip()
    if not stripped or stripped.startswith("/"):
        return True
    return _TRIVIAL.fullmatch(stripped) is not None
