"""A title's Latin words written in the scripts of South Asia, read back as those words.

Hindi, Marathi and Nepali (Devanagari), Bengali and Assamese, Punjabi (Gurmukhi), Gujarati,
Odia, Tamil, Telugu, Kannada, Malayalam, Sinhala and Dhivehi (Thaana) write an English name or
title as it sounds: "બીકન એપમાં" is in *Beacon App*, "ਡਾਟਾ ਰਿਟੈਨਸ਼ਨ ਪਾਲਿਸੀ" *Data Retention
Policy*, "ਸੈਮੂਅਲ ਮਵਾਂਗੀ" *Samuel Mwangi*. The vowels written are the speaker's, not the
spelling's ("ਸੈਮੂਅਲ" is "saimual"), so both sides are read as *skeletons*: consonants by sound,
vowels left out. A Latin word is read as it is spoken ("c" before "e", "i" or "y" as "s",
"tion" as "shn", a "qu" that opens it as "kv", "ph" as "f", "w" as "v" but after a vowel as
part of it, the "g" of "design" as nothing, "dg" before "e", "i" or "y" as "j", "z" and "j" as
"s", as these scripts write a "z" with the letter for "j" or "jh": "রোজা" is *Rosa*); a word in
these scripts is read letter by letter (:func:`anyascii.anyascii`), its nasal mark before a
consonant as "n" ("ਮਵਾਂਗੀ" is "mvangi") and Bengali's anywhere as the "ng" it is, aspirates as
their plain consonant, "dj" as the "j" it stands for ("ಲೆಡ್ಜರ್", *ledger*), and the joiners
that shape its letters as part of the word ("ಲಿಂಡ್\u200cಗ್ರೆನ್", *Lindgren*). Gujarati,
Bengali, Assamese, Marathi, Nepali and Dhivehi join case endings to a name ("મોરીનું":
*Mori*'s, "ડેશબોર્ડમાં": in the dashboard): a word is read as written and without one.

As with katakana (:func:`.skeletons.title_kana`), each word of a title and each two side by
side are filed by their skeleton, and a word of the message, or two side by side, read as
the one reading that has its skeleton (:meth:`.named.TitleMatcher.in_brahmic`). A word needs
:data:`WORD_MIN` consonants ("ਡਾਟਾ", *data*, is too short to say which word it is), two side
by side :data:`PAIR_MIN` ("ਕਾਇਟੋ ਮੋਰੀ", *Kaito Mori*). A title in another script is filed by its
Latin form too ("లైలా హసన్" for *ليلى حسن* at ``people/layla-hassan``), and Telugu's honorific
after a name (:data:`_GARU`) is read as no word.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterable, Iterator

from anyascii import anyascii

from .skeletons import as_spoken, without_endings
from .words import in_southeast_asian_script, joined

__all__ = ["PAIR_MIN", "WORD_MIN", "brahmic_runs", "in_brahmic_script", "title_brahmic"]

WORD_MIN = 3
"""Consonants one word's skeleton needs before it may read as a title's word."""
PAIR_MIN = 4
"""Consonants two words side by side need together."""

_WORD = re.compile("[\u0900-\u0963\u0966-\u0dff\u0780-\u07b1]+")
"""A word in Devanagari through Sinhala or in Thaana, without the danda that ends a sentence
(read in the text without its joiners, :func:`.words.joined`)."""
_NASALS = frozenset(
    "\u0901\u0902\u0981\u0a01\u0a02\u0a70\u0a81\u0a82\u0b01\u0b02\u0b82\u0c01\u0c02"
    "\u0c81\u0c82\u0d02\u0d82"
)
"""The marks for a nasal (anusvara, candrabindu, Gurmukhi's tippi and bindi)."""
_BENGALI_NG = "\u0982"
"""Bengali and Assamese write the "ng" of "-ing" with the anusvara, wherever it stands
("হায়াৰিং": *hiring*)."""
_ENDINGS = tuple(
    sorted(
        """
        માં નાં નું નો ની ના ને થી
        এর ের কে তে দের র ৰ ত ক লৈ
        मध्ये साठी कडे चा ची चे ला ने ना को ले लाई मा बाट
        ކީ ގެ ގައި ށް ން ތަ ވެސް
        """.split(),  # noqa: SIM905 - a word list reads better as text
        key=len,
        reverse=True,
    )
)
"""Case endings Gujarati, Bengali, Assamese, Marathi, Nepali and Dhivehi join to a name,
longest first (Dhivehi's "-ކީ" marks what a sentence is about: "ލޭކަކީ", *Lake* is …)."""
_GARU = "గార"
"""Telugu's honorific after a name ("గారు", "గారితో": with Mr or Ms …), read as no word of a
title ("grt" would be *Greta*)."""

_SPOKEN = (
    ("sion", "shn"),
    ("sch", "s"),
    ("ph", "f"),
    ("ck", "k"),
    ("x", "ks"),
    ("q", "k"),
)
_SOFT_DG = re.compile("dg(?=[eiy])")
"""The "dg" of "ledger" and "budget", not of *Lindgren*."""
_SOFT_G = re.compile("ge$")
_SPOKEN_QU = re.compile("^qu")
"""A "qu" that opens a word, spoken "kw" ("Quentin", "quarterly"); inside one it may be a "k"
("Vasquez", "technique")."""
_SILENT_G = re.compile("gn$")
"""The "g" of "design" and "campaign", which is not spoken."""
_SILENT_GH = re.compile("gh(?=t)")
"""The "gh" of "Brightwater" and "night", which is not spoken ("ब्राइटवाटर")."""
_GLIDE_W = re.compile("(?<=[aeiou])w(?![aeiouy])")
"""A "w" after a vowel and before no vowel, which is part of the vowel ("Meadowlark" is
"মিডোলাৰ্ক", "meadolark")."""
_INNER_H = re.compile("(?<=.)h")
"""An "h" after a word's first letter: an aspirate's, or one these scripts may not write
("Mehta", "warehouse" as "વેરહાઉસ" or "વેરાઉસ")."""
_VOWELS = re.compile("[aeiouy]")
_DOUBLED = re.compile(r"(\w)\1+")
"""A letter written twice in a row ("collar", "ਬੁੱਕ"), read once: vowels part "pipeline"'s two "p"s
from *plan*'s one."""


def _skeleton(sounds: str) -> str:
    """Consonants of a word already read as sounds ("C" for "ch"), a doubled one once."""
    sounds = _INNER_H.sub("", sounds.replace("w", "v").replace("z", "s").replace("j", "s"))
    return _VOWELS.sub("", _DOUBLED.sub(r"\1", sounds))


def _latin(word: str) -> str:
    """A Latin word's skeleton as it is spoken."""
    folded = unicodedata.normalize("NFKD", word.lower())
    letters = as_spoken(_SPOKEN_QU.sub("kv", "".join(ch for ch in folded if "a" <= ch <= "z")))
    for written, spoken in _SPOKEN:
        letters = letters.replace(written, spoken)
    letters = _SILENT_G.sub("n", _GLIDE_W.sub("", _SILENT_GH.sub("", letters)))
    letters = _SOFT_G.sub("j", _SOFT_DG.sub("j", letters)).replace("dj", "j").replace("ch", "C")
    return _skeleton(letters.replace("c", "k"))


def _brahmic(word: str) -> str:
    """A word of these scripts' skeleton, letter by letter."""
    letters: list[str] = []
    for i, ch in enumerate(word):
        if ch == _BENGALI_NG:
            letters.append("ng")
        elif ch in _NASALS:
            letters.append("n" if i + 1 < len(word) else "")
        else:
            letters.append(anyascii(ch).lower())
    sounds = "".join(letters)
    sounds = sounds.replace("j'", "z").replace("jh", "z").replace("ph", "f").replace("'", "")
    return _skeleton(sounds.replace("dj", "j").replace("ch", "C").replace("c", "C"))


def _readings(word: str) -> list[str]:
    """The word's skeletons as written and without a joined case ending."""
    return list(dict.fromkeys(_brahmic(w) for w in without_endings(word, _ENDINGS)))


def title_brahmic(title_words: Iterable[str]) -> Iterator[tuple[str, str]]:
    """``(skeleton, words)`` for each word of a title in Latin letters with :data:`WORD_MIN`
    consonants or more and each two side by side with :data:`PAIR_MIN`, as spoken; a word
    without a consonant ("Series A fundraise") parts no two."""
    read = [(w, s) for w in title_words if w.isascii() and w.isalpha() and (s := _latin(w))]
    for word, skeleton in read:
        if len(skeleton) >= WORD_MIN:
            yield skeleton, word
    for (first, a), (second, b) in itertools.pairwise(read):
        if len(a) + len(b) >= PAIR_MIN:
            yield f"{a} {b}", f"{first} {second}"


def brahmic_runs(message: str) -> set[str]:
    """The skeleton of each word of the message in these scripts, as written and without a
    joined ending, with :data:`WORD_MIN` consonants or more, and of each two side by side
    with :data:`PAIR_MIN`."""
    words = [[] if w.startswith(_GARU) else _readings(w) for w in _WORD.findall(joined(message))]
    runs = {s for readings in words for s in readings if len(s) >= WORD_MIN}
    for first, second in itertools.pairwise(words):
        if first:
            runs.update(f"{first[0]} {b}" for b in second if len(first[0]) + len(b) >= PAIR_MIN)
    return runs


def in_brahmic_script(message: str) -> bool:
    """Whether the message holds a word in one of these scripts or in their kin of Southeast
    Asia (Thai, Lao, Burmese, Khmer), whose writers too keep English words in Latin letters."""
    return _WORD.search(message) is not None or in_southeast_asian_script(message)
