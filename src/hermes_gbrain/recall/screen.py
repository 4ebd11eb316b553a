"""What brain text may reach the prompt: one policy and one screen for every layer.

Anyone who can write a page (a shared brain, an import, a synced inbox) can put text in
front of the model, so every title, summary, fact, slug, source id and server message
passes here on its way to a prompt or a tool answer (digest, briefing, pointers, facts,
the ``gbrain_*`` tools' errors and warnings):

- **identifiers** (:func:`prompt_ref`): a slug or source id is shown only when it is of
  GBrain's own alphabet (``text.safe_slug``, ``text.safe_source_id``), of a modest shape
  (length, segments, no run of stacked marks) and its words pass the screen; otherwise
  the row is dropped, or a tool's reference withheld;
- **text** (:func:`prompt_line`): one plain line, markup removed (a link becomes its
  text, images, comments and HTML tags go, a URL keeps only its host), capped — or
  nothing when it reads like instructions;
- **server strings** (:func:`server_text`, :func:`server_code`): bounded, cleaned, and
  replaced by a fixed notice when they read like instructions; an error code must look
  like one (``page_not_found``).

The screen (:func:`looks_like_instructions`) matches a vocabulary of text addressed to
the model rather than about the brain: overriding earlier instructions, role markers and
chat-template tokens, notes "to the assistant", orders to call tools or reveal secrets.
It matches after one normalisation (:func:`screen_forms`): invisible and bidi characters
removed, NFKC, combining marks stripped, look-alike letters of other scripts read as the
Latin ones they imitate, case folded, and also read with leet digits as letters, with
spaced-out letters joined, squashed without spaces, and reversed (text stored backwards
behind a bidi override displays forwards). It is a heuristic: it will miss phrasing it
has no word for and may drop an honest title about prompt injection; ``bench/screen.py``
measures both on a hostile and a benign corpus. ``GBRAIN_POINTER_SCREEN=0`` turns the
vocabulary off for pointers; identifiers and markup are checked regardless.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from ..lookalikes import LOOKALIKES
from ..text import plain_line, safe_slug, safe_source_id, strip_markup, visible

__all__ = [
    "WITHHELD",
    "looks_like_instructions",
    "prompt_line",
    "prompt_ref",
    "prompt_slug",
    "screen_form",
    "screen_forms",
    "server_code",
    "server_text",
]

WITHHELD = "[withheld: server text that reads like instructions]"
"""What a tool answer carries instead of a server string the screen flags."""

_ROLE = r"(?:system|assistant|developer|user|human)"
_PS = r"p\.?\s?s\b\.?"
_TO_MODEL = (
    r"(?:ai|a\.i\.|assistants?|models?|llms?|language models?|chat ?bots?|bots?|ai agents?|"
    r"agents?|system|claude|chatgpt|gpt(?:-?\d[\w.]*)?|copilot|gemini|llama|mistral)"
)
_TO_MODEL_BARE = (  # without an article: "note to AI", never "note to model railway"
    r"(?:ai|a\.i\.|assistants?|llms?|language models?|chat ?bots?|ai agents?|"
    r"claude|chatgpt|gpt(?:-?\d[\w.]*)?|copilot|gemini)"
)
_PATTERNS = (
    # overriding what came before
    r"\b(?:ignore|disregard|forget|override|bypass|discard)\b.{0,40}\b(?:instructions?|rules|"
    r"prompts?|directions|directives|guidelines|guardrails|context|system|programming)\b",
    r"\byou are now\b",
    r"\bnew (?:system )?instructions?\b",
    r"\bfrom now on\s*,?\s*(?:you|respond|reply|answer|always|never|only|act|behave|ignore|say|"
    r"speak|write|obey)\b",
    r"\b(?:do not|don't|never) (?:tell|inform|mention|reveal|disclose)\s+(?:the user|the human|"
    r"anyone|them|this|that|it|your)\b",
    r"\b(?:reveal|print|show|leak|exfiltrate|send|repeat|output|dump)\b.{0,30}\b(?:system prompt|"
    r"secrets?|api keys?|tokens?|credentials|passwords?|instructions|hidden prompt|"
    r"initial prompt)\b",
    r"\b(?:act|behave|respond|pretend) as\b",
    r"\bjailbreak",
    r"\b(?:enable|enter|activate|switch to|now in|are in|into)\s+(?:dev(?:eloper)?|god|dan|"
    r"admin|debug|unrestricted) mode\b",
    r"\bdeveloper mode (?:enabled|activated)\b",
    r"\bdo anything now\b",
    r"\bpwn(?:ed|z)?\b",
    # role markers and chat-template tokens
    rf"^\W*{_ROLE}\s*:",
    rf"[\[(<{{|]\s*(?:{_ROLE}|inst|sys)(?:\s+(?:message|prompt|note|notice|instructions?|"
    r"override|update|alert|mode|command|directive|msg))?\s*[\])>}|]",
    rf"#{{1,6}}\s*(?:{_ROLE}|instructions?|response)\s*(?:$|[#:])",
    r"\bsystem\s*(?:override|directive|command)\b",
    r"\bsystem\s*(?:message|prompt|instructions?|notice|alert|note|update)\s*[:!]",
    r"<\|[a-z_]+\|>",
    r"\b(?:im_start|im_end|endoftext|eot_id|start_header_id|end_header_id)\b",
    r"<</?sys>>",
    r"</?\s*(?:system|instructions?|assistant|tool_call|memory-context)\b",
    r"\bmemory-context\b",
    r"\[[a-z0-9][a-z0-9-]{0,31}:[^\]\s:]+\]",  # a reference forged inside text
    # text addressed to the model
    rf"\b(?:note|notice|message|memo|reminder|instructions?|directive|orders?|{_PS})\W{{0,3}}"
    rf"(?:to|for)\W{{1,3}}(?:the|any|all|every|this|our|you)\s+{_TO_MODEL}\b",
    rf"\b(?:note|notice|message|memo|reminder|instructions?|directive|{_PS})\W{{0,3}}"
    rf"(?:to|for)\W{{1,3}}{_TO_MODEL_BARE}\b",
    r"^\W*(?:assistant|ai|llm|claude|chatgpt|gpt|model)\s*,",
    r"^\W*(?:assistant|ai|llm|claude|chatgpt|gpt|model)\W+(?:run|call|execute|delete|ignore|"
    r"forget|reveal|print|send|obey|always|never|do|say|answer|respond)\b",
    r"\b(?:run|execute) the following\b",
    rf"\b(?:dear|hey|hi|hello|attention|attn)\W{{1,3}}{_TO_MODEL_BARE}\b",
    r"\bif you are an? (?:ai|llm|language model|assistant|chatbot|bot|agent|automated)\b",
    r"\b(?:ai|llm|language model|assistant|model|agent)s? (?:reading|processing|parsing|"
    r"summari[sz]ing|seeing) this\b",
    r"\bimportant\s*:.{0,40}\b(?:assistant|model|ai|agent)\b",
    r"\balways (?:answer|respond|reply|say|output|include|append|end|start|begin) ",
    # orders to act on the brain or send things out
    r"\b(?:run|execute|call|invoke|use)\s+(?:the\s+|this\s+|your\s+)?(?:[\w-]+\s+){0,2}"
    r"(?:tool|function)\b(?!\s+(?:vendor|library|kit|box|shed|chain|review|call))",
    r"\b(?:run|execute)\s+(?:this|the following|these)\s+(?:shell\s+)?(?:commands?|scripts?)\b",
    r"\b(?:run|execute)\b.{0,20}\b(?:curl|wget|rm -rf|shell command)\b",
    r"\bgbrain_[a-z_]+",
    r"\bgbrain[\s_-]+(?:delete|put|forget|restore|purge|remember|call)[\s_-]",
    r"\b(?:invoke|call)\s+(?:the\s+)?(?:delete|put|forget|purge|remove)[\s_-]+(?:pages?|facts?)\b",
    r"\b(?:delete|put|restore|purge)_pages?\b",
    r"\bforget_fact\b",
    r"\b(?:delete|remove|wipe|erase|purge|destroy)\s+(?:every|all|each|the whole|the entire|"
    r"your)\s+(?:pages?|notes?|memor(?:y|ies)|files?|data|brain|database|documents?)\b",
    r"\b(?:send|post|upload|forward|email|exfiltrate|transmit|submit)\b.{0,60}"
    r"(?:https?:|www\.)",
)
_SCREEN = re.compile("|".join(f"(?:{p})" for p in _PATTERNS), re.MULTILINE)
"""Matched on folded (case-folded) forms only, so without IGNORECASE (twice as fast)."""
_SHOUTED = re.compile(r"#{1,6}\s*(?:SYSTEM|ASSISTANT|DEVELOPER|INSTRUCTIONS?)\b")
"""A heading that shouts a role ("### SYSTEM"), matched before case folding."""

_SQUASHED = re.compile(
    r"ignore(?:all|any|every)?(?:of)?(?:the|your|my)?(?:previous|prior|above|earlier|preceding|"
    r"former|initial|original)"
    r"|disregard(?:all|any)?(?:of)?(?:the|your)?(?:previous|prior|above|earlier|preceding)"
    r"|forget(?:all|everything|your)(?:previous|prior|above|you|rules|instructions)"
    r"|(?:print|reveal|show|output|repeat|dump)(?:me)?(?:the|your)(?:instructions|systemprompt|"
    r"rules|secrets)"
    r"|fromnowon(?:you|respond|reply|answer|always|never|only|act|behave|ignore|say|speak|obey)"
    r"|(?:donot|dont|never)(?:tell|inform|mention|reveal|disclose)(?:theuser|thehuman|anyone)"
    r"|(?:run|execute)thefollowing(?:command|script|code)|ifyouareanai"
    r"|newinstructions|newsysteminstructions"
    r"|(?:send|leak|reveal|print|show)(?:me)?(?:the|your)?(?:apikeys?|secrets|passwords?|"
    r"credentials)"
    r"|(?:previous|prior|earlier|preceding)(?:instructions|prompts?|directives)"
    r"|override(?:all|the|your)*(?:previous|prior|system)"
    r"|(?:reveal|print|leak|repeat|dump)(?:the|your)?(?:system|hidden|initial)prompt"
    r"|systemoverride|jailbreak|doanythingnow"
    r"|noteto(?:the)?(?:assistant|languagemodel|llm|chatbot|aiassistant|aiagent)"
    r"|notetotheai|youarenow"
)
"""Phrases matched with every space and sign removed ("ign ore all prev ious")."""
_RUN_WORDS = re.compile(
    r"ignore|disregard|instruction|system|assistant|override|prompt|jailbreak|reveal|pwn|"
    r"delete|secret|password|fromnowon|donot|dont|never|forget|obey|respond|developer|admin|"
    r"token|command"
)
"""Words that give away a run of spaced-out letters ("i g n o r e")."""

_BLANKS = re.compile(r"[^\S\n]+")
_NOT_WORD = re.compile(r"[\W_]+")
_RUN = re.compile(r"(?<![^\W_])[^\W_](?:[\s.\-_*·•|/+~,:]{1,3}[^\W_]){3,}(?![^\W_])")
_LEET = "01345789@$!|+€"
_LEET_I = str.maketrans(_LEET, "oieastbgasilte")
_LEET_L = str.maketrans(_LEET, "oleastbgasllte")
_LEET_WORD = re.compile(r"[^\W\d_][0-9@$!|+\u20ac]|[0-9@$!|+\u20ac][^\W\d_]")
_CHAR_RUN = re.compile(r"(?<!\S)\S(?:[\s.\-]{1,3}\S){3,}(?!\S)")
_SEPARATORS = re.compile(r"[\s.\-]+")
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Bidi controls: with one present, the text is also read reversed."""
_PUNCT = str.maketrans(dict.fromkeys("\u2236\ua789\u02f8\u02d0\u05c3\u205a", ":"))
"""Colon look-alikes NFKC leaves alone ("system\u2236")."""


def _lines(text: str) -> str:
    """``text`` without invisible characters, line breaks kept (a role marker starts a line)."""
    return "\n".join(visible(line) for line in text.splitlines())


def _unmarked(text: str) -> str:
    """Combining marks stripped, after NFD: a look-alike with an accent is bare again."""
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(ch for ch in decomposed if not unicodedata.category(ch).startswith("M"))


def _fold(text: str) -> str:
    """NFKC, combining marks stripped, look-alikes read as Latin (before and after case
    folding: a capital may have no look-alike where its small letter has), spaces
    collapsed within each line."""
    folded = _unmarked(unicodedata.normalize("NFKC", text)).translate(LOOKALIKES)
    folded = _unmarked(folded.casefold().translate(LOOKALIKES)).translate(_PUNCT)
    lines = (_BLANKS.sub(" ", visible(line)).strip() for line in folded.split("\n"))
    return "\n".join(line for line in lines if line)


def screen_form(text: str) -> str:
    """``text`` as the screen first reads it: invisible characters removed (not
    spaced), NFKC (fullwidth and stylised letters become plain ones), look-alikes read
    as Latin, case folded, combining marks stripped, whitespace collapsed."""
    return _fold(_lines(text)).replace("\n", " ")


def screen_forms(text: str) -> tuple[str, ...]:
    """Every reading of ``text`` the screen matches: as written and without its markup,
    each folded (:func:`screen_form`; line by line too when there are several), read
    with leet digits as letters (when a word holds one), with spaced-out letters
    joined, and reversed (when it holds a bidi control)."""
    forms: list[str] = []
    kept = _lines(text)
    for source in dict.fromkeys((kept, strip_markup(kept))):
        folded = _fold(source)
        flat = folded.replace("\n", " ")
        if flat != (bare := strip_markup(flat)):  # markup that folding revealed (fullwidth "_")
            forms.append(bare)
        forms.append(flat)
        if "\n" in folded:
            forms.append(folded)
        if _leet(flat):
            forms.extend((flat.translate(_LEET_I), flat.translate(_LEET_L)))
    joined = [_RUN.sub(lambda m: _NOT_WORD.sub("", m.group(0)), form) for form in forms]
    forms.extend(joined)
    if _BIDI.search(text):  # stored backwards behind an override, displayed forwards
        forms.extend([form[::-1] for form in forms if "\n" not in form])
    return tuple(dict.fromkeys(forms))


def _leet(form: str) -> bool:
    """Digits or signs inside words ("1gn0re", not "2024" or "Q3"), spaced out or not
    ("1 g n 0")."""
    if len(_LEET_WORD.findall(form)) >= 2:
        return True
    return any(
        len(_LEET_WORD.findall(_SEPARATORS.sub("", m.group(0)))) >= 2
        for m in _CHAR_RUN.finditer(form)
    )


def _spaced_out(form: str) -> bool:
    """A run of single letters ("i g n o r e a l l") that spells a telling word."""
    return any(_RUN_WORDS.search(_NOT_WORD.sub("", run.group(0))) for run in _RUN.finditer(form))


def _matches(form: str) -> bool:
    return bool(
        _SCREEN.search(form) or _SQUASHED.search(_NOT_WORD.sub("", form)) or _spaced_out(form)
    )


def looks_like_instructions(title: str) -> bool:
    """True when a title, summary, fact or server string reads like an instruction to
    the model (see the module docstring). The one screen for every layer."""
    if not isinstance(title, str) or not title:
        return False
    return _screened(title)


@functools.lru_cache(maxsize=4_096)
def _screened(title: str) -> bool:
    """The screen, remembered: a turn screens the same titles and references in the
    gate, the briefing and the pointers, and the next turn meets the same pages again
    (a few MB at most: the callers cap what they pass)."""
    if _SHOUTED.search(unicodedata.normalize("NFKC", visible(title))):
        return True
    return any(_matches(form) for form in screen_forms(title))


# -- the policy ---------------------------------------------------------------------------

MAX_REF_CHARS = 160
MAX_SEGMENTS = 8
MAX_MARK_RUN = 3


def _shapely(slug: str) -> bool:
    """Short enough to be a name, few segments, no tower of stacked marks."""
    if len(slug) > MAX_REF_CHARS or slug.count("/") >= MAX_SEGMENTS:
        return False
    run = 0
    for ch in slug:
        run = run + 1 if unicodedata.category(ch).startswith("M") else 0
        if run > MAX_MARK_RUN:
            return False
    return True


def _words(identifier: str) -> str:
    return re.sub(r"[/._-]+", " ", identifier)


def prompt_slug(slug: object, *, screen: bool = True) -> str | None:
    """``slug`` when it may reach a prompt (GBrain's alphabet, a modest shape, words
    that pass the screen), else None. ``screen=False`` skips only the vocabulary."""
    page = safe_slug(slug)
    if page is None or not _shapely(page):
        return None
    if screen and looks_like_instructions(_words(page)):
        return None
    return page


def prompt_ref(source_id: object, slug: object, *, screen: bool = True) -> str | None:
    """``[source:slug]`` when both may reach a prompt, else None (drop the row, or
    withhold the reference). ``screen=False`` skips only the vocabulary check."""
    source, page = safe_source_id(source_id), prompt_slug(slug, screen=False)
    if source is None or page is None:
        return None
    if screen and looks_like_instructions(f"{_words(source)} : {_words(page)}"):
        return None
    return f"[{source}:{page}]"


def prompt_line(text: object, cap: int, *, screen: bool = True) -> str | None:
    """``text`` as it may appear in a prompt: one plain line of at most ``cap``
    characters (``""`` for none), or None when it reads like instructions. The screen
    reads the first eight times ``cap`` characters as written (line breaks kept) and
    without their markup, which holds everything the line can show."""
    if not isinstance(text, str):
        return ""
    window = text[: 8 * cap]
    if screen and looks_like_instructions(window):
        return None  # its forms include the window without markup: all the line can show
    return plain_line(window, cap)


def server_text(text: object, cap: int) -> str:
    """A server string (error message, warning, note) for a tool answer: one plain,
    capped line, or :data:`WITHHELD` when it reads like instructions."""
    line = prompt_line(text, cap)
    return WITHHELD if line is None else line


_CODE = re.compile(r"[a-z][a-z0-9_]{0,39}")


def server_code(code: object) -> str | None:
    """An error code fit to show (``page_not_found``), else None."""
    if not isinstance(code, str) or not _CODE.fullmatch(code):
        return None
    return None if looks_like_instructions(_words(code)) else code
