"""Names written in Arabic or Hebrew letters, in katakana, in Cyrillic or in another script,
compared with names in Latin letters.

A person's page is titled "Rania Saleh"; an Arabic message writes رانيا صالح and a Japanese
one マヤ・オカフォー for *Maya Okafor*. Neither script spells a Latin name one way: Arabic
leaves short vowels out, katakana adds a vowel after every consonant and writes an "r" after
a vowel as a long vowel ("オカフォー" for *Okafor*, "ボード" for *board*).
What survives is the order of consonants, so both sides are read as *skeletons*: the
consonants of each word, with vowels, "w" and "y" (also long vowels in both scripts), a
final "h" and doubled letters left out, and the letters the other script lacks read as its
nearest ("p" as "b" in Arabic, "l" as "r" in katakana). A whole name of two or more words
must agree, word by word and in order, with three consonants or more in all: one word's
skeleton ("m" for Maya) says nothing. Persian, Urdu and Pashto write in the same letters, with
their own "k" and "y" and letters Arabic lacks ("پ" for "p", "چ" for "ch", "گ" for "g", Urdu's
"ٹ" and Pashto's "ټ" for "t"), and write a "v" with the vowel letter waw ("ستیفان نوواک" for
*Stefan Novak*): a name with a "v" is read with it and without it. Uyghur writes every vowel,
with letters of its own ("گابرىيېلا نۇنيېز" for *Gabriela Nunez*), and a German or Nordic "j"
is a "y" to its writers as to Persian ones ("يۈرگېن مۈللېر" for *Jürgen Müller*): a name with a
"j" is read with it and without it too. Sindhi writes its retroflex, aspirated and implosive
consonants with letters of its own, each read as the plain one ("هيروشي تاناڪا": *Hiroshi
Tanaka*).

Cyrillic spells a Latin name letter for letter (a German or Nordic "j" as the "y" it is:
"Юрген Мюллер" for *Jürgen Müller*, so a name with a "j" is read with it and without it), but
Russian declines it: "Надю Петрову" is
*Nadia Petrova* as an object, "Дмитрия Соренсена" is *Dmitri Sorensen*'s. Most case endings
are vowels, so a Cyrillic name is read by its skeleton too, in Latin letters (its "kh" as
the "h" Latin writes for it, "w" of the Latin name as "v"). Short skeletons agree by chance
("есть к" reads as *Sato Yuki*), so each word needs two consonants and the name five.

Kazakh, Kyrgyz and Uzbek join case endings with consonants to a name in Cyrillic ("Элиф
Йылмаздың": *Elif Yilmaz*'s), so a Cyrillic word is read as written and without one; "дж" is
the "j" of *Sanjay*, and "ж" may be the "j" of *Jomo* (Mongolian, Kazakh) and "ц" the "z" of
*Lorenzo*, so a word with them is read both ways.

Georgian and Armenian spell a Latin name letter for letter too, and decline it with endings
joined to the last word ("მაია ოკაფორს": to *Maya Okafor*; "Սամուել Մվանգին": *Samuel
Mwangi*, with the article "-ն"): each word is read as its skeleton in Latin letters, as written
and without one of :data:`_GEORGIAN_ENDINGS` or :data:`_ARMENIAN_ENDINGS`, with the Cyrillic
minimums. Georgian has no "f" and writes it "ფ" ("p").

Ethiopic (Amharic, Tigrinya) writes syllables, each a consonant and a vowel, so a name is
spelt as Cyrillic spells it ("ሊን ቸን" is "lin chen") and read with the Cyrillic minimums, as
written and without a preposition joined before it ("ንሳሙኤል": to Samuel).

Hebrew, like Arabic, writes a name's consonants and few of its vowels ("רניה סאלח" for
*Rania Saleh*, "ניקולאי איבנוב" for *Nikolai Ivanov*): one letter serves for "b" and "v",
another for "p" and "f", one for "s" and "sh", and "ch" is written "צ" as "ts" is. A word
may open with a letter that is "the", "in", "to" or "from", read with it and without it.

Katakana writes a title's other Latin words the same way, two of them often as one word or
parted by "・": "ソーラーカラー" for *Solar Collar*, "ケストレル・ワークス" for *Kestrel Works*,
"バックフィル" for *backfill*. Each word of a title and each
two side by side are filed by their katakana skeleton (:func:`title_kana`), and a katakana word
of the message with :data:`KANA_WORD_MIN` consonants or more reads as the words of the one
reading that has its skeleton (:meth:`.named.TitleMatcher.in_katakana`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator

from anyascii import anyascii

from .words import in_latin_letters

__all__ = [
    "KANA_WORD_MIN",
    "KATAKANA",
    "MIN_CONSONANTS",
    "as_kana",
    "as_spoken",
    "kana_runs",
    "kana_skeleton",
    "latin_skeletons",
    "message_skeletons",
    "title_kana",
    "without_endings",
]

MIN_CONSONANTS = 3
"""Consonants a whole name's skeleton needs before it may name a page."""
MIN_UNJOINED = 2
"""Consonants each word of a name read without its "j" needs: Arabic's short words ("ما", what)
read as little."""
MIN_CYRILLIC = (2, 5)
"""Consonants each word and the whole name need in a script that spells a name letter for
letter (Cyrillic, Georgian, Armenian, Ethiopic), where a name's words are read wherever they
stand, prepositions and all, unless every word is capitalised (:data:`MIN_CAPITALISED`)."""
MIN_CAPITALISED = 4
"""Consonants enough for a name spelt letter for letter whose every word is capitalised
("Джона Рейес" for *Jonah Reyes*); in lowercase so few could be any words ("кто мэр", who is
mayor, is no *Kaito Mori*)."""

_ARABIC_LETTERS = {
    **dict.fromkeys("بپٻڀڦ", "b"),
    **dict.fromkeys("تطةٹټٽٺٿ", "t"),
    "ث": "th",
    **dict.fromkeys("جگګژږڄڳ", "j"),
    **dict.fromkeys("حهہ", "h"),
    "خ": "kh",
    **dict.fromkeys("دضڈډڊڌڍڏ", "d"),
    "ذ": "dh",
    **dict.fromkeys("رڑړڙ", "r"),
    **dict.fromkeys("زظ", "z"),
    **dict.fromkeys("سص", "s"),
    **dict.fromkeys("شښ", "sh"),
    "غ": "gh",
    **dict.fromkeys("فڤ", "f"),
    **dict.fromkeys("قكکڪ", "k"),
    "ل": "l",
    "م": "m",
    **dict.fromkeys("نںڼڻڃ", "n"),
    **dict.fromkeys("چڇ", "sh"),
    "څ": "ts",
    "ځ": "dz",
    **dict.fromkeys("ڭڱ", "nj"),
}
"""Each Arabic consonant as Latin letters, with the letters Persian, Urdu and Pashto add
("ټ", "ډ", "ړ": their "t", "d" and "r"; "گ" and "ګ": "g", which a Latin name's skeleton
reads as "j", as Arabic writes it "ج"; Pashto's "څ" and "ځ" as the "ts" and "dz" they are,
so that "څه ډالۍ", what gift, is no *Aisha Diallo*); alif, waw, ya, hamza and ain have none, nor do
Urdu's and Pashto's own "y" and "e" or Urdu's letter that marks an aspirate, nor the vowel
letters Uyghur writes every vowel with ("ۈ", "ۇ", "ې" and more), or its "ۋ", a "v" or a "w";
Uyghur's "ڭ" is the "ng" a Latin skeleton reads as "nj". Sindhi adds letters for its own
"k" ("ڪ"), its retroflex, aspirated and implosive consonants ("ٽ", "ڊ", "ٿ", "ڀ", "ڳ"…), each
read as the plain consonant it is a kind of ("ڪيسٽرل ورڪس": *Kestrel Works*)."""
_ARABIC_WORD = re.compile(
    "[\u0621-\u064a\u0679\u067c\u067e\u0681\u0685\u0686\u0688\u0689\u0691\u0693"
    "\u0696\u0698\u069a\u06a4\u06a9\u06ab\u06af\u06ba\u06bc\u06be\u06c1\u06cc"
    "\u067a\u067b\u067d\u067f\u0680\u0683\u0684\u0687\u068a\u068c\u068d\u068f"
    "\u0699\u06a6\u06aa\u06b1\u06b3\u06bb"
    "\u06cd\u06d0\u06d2\u06ad\u06c6\u06c7\u06c8\u06cb\u06d5]+"
)
_ARABIC_PREFIXES = ("و", "ب", "ل", "ك")
"""Conjunctions and prepositions written joined to the next word ("ورانيا": and Rania)."""

_HEBREW_LETTERS = {
    "ב": "b",
    "ג": "g",
    "ד": "d",
    **dict.fromkeys("הח", "h"),
    "ז": "z",
    **dict.fromkeys("טת", "t"),
    **dict.fromkeys("כךק", "k"),
    "ל": "l",
    **dict.fromkeys("מם", "m"),
    **dict.fromkeys("נן", "n"),
    **dict.fromkeys("סש", "s"),
    **dict.fromkeys("פף", "p"),
    **dict.fromkeys("צץ", "ts"),
    "ר": "r",
}
"""Each Hebrew consonant as Latin letters; alef, vav, yod and ayin, written for vowels in a
foreign name, have none."""
_HEBREW_WORD = re.compile("[\u05d0-\u05ea\u05f0-\u05f2][\u05d0-\u05ea\u05f0-\u05f2'\u05f3]*")
"""A Hebrew word, with the geresh that marks "ג'" as "j" and "צ'" as "ch" inside it, or a
Yiddish one, with the ligatures of two vav, vav and yod, and two yod."""
_DOUBLE_VAV = re.compile("\u05d5\u05d5|\u05f0")
"""Two vav, or their Yiddish ligature: a "v" or a "w" ("ווערא" for *Vera*, "ווינסטאן" for
*Winston*), which a skeleton reads as the "b" Hebrew also writes "v" with, or as nothing."""
_HEBREW_PREFIXES = ("ה", "ב", "ל", "מ", "ש", "כ")
"""Articles, prepositions and "that", written joined to the next word ("לרניה": to Rania);
the joined "and" is a vowel letter, with no consonant to take away."""
_FOR_HEBREW = str.maketrans({"v": "b", "f": "p", "c": "k", "q": "k", "x": "ks", "j": "g"})
"""Hebrew writes "j" as "ג" with a mark the gate does not read."""

_KANA_CONSONANTS = {
    **dict.fromkeys("カキクケコ", "k"),
    **dict.fromkeys("ガギグゲゴ", "g"),
    **dict.fromkeys("サスセソ", "s"),
    "シ": "sh",
    **dict.fromkeys("ザズゼゾヅ", "z"),
    **dict.fromkeys("ジヂ", "j"),
    **dict.fromkeys("タテト", "t"),
    "チ": "ch",
    "ツ": "ts",
    **dict.fromkeys("ダデド", "d"),
    **dict.fromkeys("ナニヌネノン", "n"),
    **dict.fromkeys("ハヒヘホ", "h"),
    "フ": "f",
    **dict.fromkeys("バビブベボヴ", "b"),
    **dict.fromkeys("パピプペポ", "p"),
    **dict.fromkeys("マミムメモ", "m"),
    **dict.fromkeys("ラリルレロ", "r"),
}
"""Each katakana's consonant as Latin letters; vowels, ya-yu-yo, wa, the small kana, the
doubling mark and the long-vowel mark have none."""
KATAKANA = "[\u30a1-\u30fa\u30fc]"
"""A katakana letter or the long-vowel mark."""
_KATAKANA_WORD = re.compile(KATAKANA + "+")

_CYRILLIC_WORD = re.compile("[\u0400-\u04ff]+")
_FOR_CYRILLIC = str.maketrans({"w": "v", "q": "k", "x": "ks"})
_FOR_GEORGIAN = str.maketrans({"w": "v", "q": "k", "x": "ks", "f": "p"})

_ETHIOPIC_WORD = re.compile("[\u1200-\u135a]+")
"""A word of Ethiopic syllables (Amharic, Tigrinya), its word space and full stop outside."""
_ETHIOPIC_PREFIXES = ("ብ", "ን", "ለ", "በ", "ከ", "የ")
"""Prepositions Tigrinya and Amharic join to the next word ("ንሊን": to Lin; "የማያ": Maya's)."""
_GEORGIAN_WORD = re.compile("[\u10d0-\u10fa]+")
_GEORGIAN_ENDINGS = tuple("ისთვის თვის იდან ისგან ით ის ად ში ზე თან მა ს".split())  # noqa: SIM905
"""Case endings of Georgian nouns, a name's among them (dative "-ს", ergative "-მა",
genitive "-ის", "-ზე" "about", "-თან" "with"), longest first."""
_ARMENIAN_WORD = re.compile("[\u0531-\u0556\u0561-\u0587]+")
_ARMENIAN_ENDINGS = tuple("ներին ների ից ով ում ին ն ի".split())  # noqa: SIM905
"""Case endings and the article "-ն" of Armenian nouns, longest first (the article "-ը" is a
vowel, which a skeleton leaves out anyway)."""


_TURKIC_ENDINGS = tuple(
    sorted(
        """
        ның нің дың дің тың тің нинг нын нин дын дин тын тин дан ден тан тен нан нен нда нде
        нынъ нинъ дынъ динъ тынъ тинъ нең дең тең гъа къа
        мен бен пен ға ге қа ке га ны ні ды ді ты ті ни да де та те ом ем ым
        """.split(),  # noqa: SIM905, RUF001 - a word list reads better as text; Cyrillic
        key=len,
        reverse=True,
    )
)
"""Case endings Kazakh, Kyrgyz and Uzbek join to a name written in Cyrillic ("Элиф
Йылмаздың": *Elif Yilmaz*'s; "Новакқа": to Novak), as Nogai, Karachay-Balkar and Crimean
Tatar write them ("Петрованынъ": *Nadia Petrova*'s) and Tatar and Bashkir do ("-нең"), and the
instrumental endings of Russian that are no vowel ("Новаком"), longest first."""


def _cyrillic(word: str) -> list[str]:
    """A Cyrillic word's skeletons, read in the Latin letters the gate reads it in ("дж" as
    the "j" of *Sanjay*), and with "ж" as "j" and "ц" as "z" where it has them: Mongolian and
    Kazakh write the "j" of *Jomo* "ж", and an Italian "z" is written "ц" (*Lorenzo* as
    "Лоренцо")."""
    latin = _letters(in_latin_letters(word)).replace("kh", "h").replace("dzh", "j")
    spoken = latin.replace("zh", "j").replace("ts", "z")
    return [_squeeze(re.sub("[aeiouy]", "", w)) for w in dict.fromkeys((latin, spoken))]


def _cyrillic_readings(word: str) -> list[str]:
    """A Cyrillic word's skeletons as written and without a case ending that is no vowel
    (:data:`_TURKIC_ENDINGS`), its stem keeping two letters or more."""
    return list(
        dict.fromkeys(s for w in without_endings(word, _TURKIC_ENDINGS) for s in _cyrillic(w))
    )


def _spelt(word: str, endings: tuple[str, ...]) -> list[str]:
    """A Georgian or Armenian word's skeletons in Latin letters, as written and without a case
    ending."""
    return list(dict.fromkeys(_spelt_skeleton(s) for s in without_endings(word, endings)))


def _spelt_skeleton(stem: str) -> str:
    latin = _letters(anyascii(stem).replace("ow", "u"))  # Armenian "ու" is "u"
    return _squeeze(re.sub("[aeiouy]", "", _SOFT_H.sub("", latin)))


def _ethiopic(word: str) -> list[str]:
    """An Ethiopic word's skeletons: each syllable spelt in Latin letters ("ሊን ቸን" is "lin
    chen"), as written and without a preposition joined before it (:data:`_ETHIOPIC_PREFIXES`)."""
    stems = [word, *(word[1:] for p in _ETHIOPIC_PREFIXES if word.startswith(p) and len(word) > 2)]
    return list(dict.fromkeys(_as_cyrillic(anyascii(stem)) for stem in stems))


def without_endings(word: str, endings: tuple[str, ...]) -> list[str]:
    """The word as written and without each of ``endings`` it ends with, its stem keeping two
    letters or more: a name with the case ending a language joins to it, read both ways."""
    cut = (word[: -len(e)] for e in endings if word.endswith(e) and len(word) > len(e) + 1)
    return [word, *cut]


def _as_hebrew(word: str) -> str:
    """A Latin word's skeleton as Hebrew writes it ("Ivanov" as איבנוב, "Elif" as אליף)."""
    letters = _letters(word).replace("sh", "s").replace("ch", "ts").replace("tz", "ts")
    letters = _SOFT_H.sub("", letters).translate(_FOR_HEBREW)
    return _squeeze(re.sub("[aeiouyw]", "", letters))


def _as_cyrillic(word: str, letters_for: dict[int, str] = _FOR_CYRILLIC) -> str:
    """A Latin word's skeleton as Cyrillic writes it ("Okonkwo" as Оконкво, "Esther" as
    Эстер), or, with ``letters_for``, as Georgian does (:data:`_FOR_GEORGIAN`); Armenian
    writes it as Cyrillic does."""
    letters = _HARD_C.sub("k", _letters(word)).translate(letters_for)
    return _squeeze(re.sub("[aeiouy]", "", _SOFT_H.sub("", letters)))


_FOR_ARABIC = str.maketrans({"p": "b", "v": "f", "g": "j", "c": "k", "q": "k", "x": "k"})


def _as_arabic(consonants: str) -> str:
    """A Latin word's consonants as Arabic letters write them."""
    return _squeeze(consonants.replace("ch", "sh").translate(_FOR_ARABIC))


_FOR_KANA = str.maketrans({"l": "r", "v": "b", "q": "k", "x": "k"})
_HARD_C = re.compile("c(?!h)")
"""A "c" katakana writes as "k"; "ch" is チ."""
_SOFT_H = re.compile(r"(?<=[tpgkrdb])h")
"""An "h" that only colours the consonant before it ("Thomas", "Ghana")."""


def _squeeze(consonants: str) -> str:
    """Doubled letters once, a final "h" left out: both scripts may write either."""
    out: list[str] = []
    for ch in consonants:
        if not out or out[-1] != ch:
            out.append(ch)
    return "".join(out).removesuffix("h")


def _letters(word: str) -> str:
    folded = unicodedata.normalize("NFKD", word.lower())
    return "".join(ch for ch in folded if "a" <= ch <= "z")


def _latin(word: str) -> str:
    return re.sub("[aeiouyw]", "", _letters(word))


_SOFT_C = re.compile("c(?=[eiy])")


def as_spoken(letters: str) -> str:
    """Latin letters (lower case, unaccented) with a soft "c" as "s" and "tion" as "shn", as
    scripts that write a name by ear write them: "لوسيا" for *Lucía*, "رٽينشن" for the
    *Retention* of *Data Retention Audit*, and the scripts of South Asia (:mod:`.brahmic`)."""
    return _SOFT_C.sub("s", letters.replace("tion", "shn"))


_ITALIAN_CH = re.compile("ch(?=[ei])")
"""Italian's "k" before "e" and "i", spelt "ch" ("Bianchi"), which other scripts spell "k"."""


def _spoken(word: str) -> str:
    """A Latin word's consonants as it is spoken where that differs from its letters."""
    return _latin(as_spoken(_letters(word)))


def _read_without(
    words: list[str], letter: str, read: Callable[[str], str], *, each: int = 0
) -> tuple[str, ...]:
    """A name's skeletons, each word read by ``read`` with ``letter`` left out, as those who
    write it as a vowel (a "v" or a German "j" in Arabic letters, a German "j" in Cyrillic)
    write it, when the name has the letter and each word keeps ``each`` consonants; ``()``
    otherwise."""
    if not any(letter in w for w in words):
        return ()
    skeletons = tuple(read(w.replace(letter, "")) for w in words)
    return skeletons if all(len(w) >= each for w in skeletons) else ()


def latin_skeletons(title_words: Iterable[str]) -> set[tuple[str, tuple[str, ...]]]:
    """A Latin name's skeletons as Arabic, Hebrew, katakana and the scripts that spell it
    letter for letter would write it, ``(script, skeletons)``; none when the name is too short
    to say anything. Cyrillic, Armenian and Ethiopic spell it alike and share one reading,
    ``"spelt"``; Georgian, which has no "f", has its own."""
    title_words = list(title_words)
    latin = [_latin(w) for w in title_words]
    if len(latin) < 2 or not all(latin):
        return set()
    arabic = tuple(_as_arabic(w) for w in latin)
    # Persian, Urdu and Pashto write "v" as waw, a vowel letter: "نوواک" for *Novak*; a
    # German or Nordic "j" is a "y", which Arabic letters write as a vowel: "يۈرگېن" *Jürgen*,
    # each word keeping two consonants ("ما تعني", what does … mean, is no *Jomo Otieno*)
    unvoiced = _read_without(latin, "v", _as_arabic)
    unjoined = _read_without(latin, "j", _as_arabic, each=MIN_UNJOINED)
    # a soft "c" and the "t" of "-tion" as spoken: "لوسيا" *Lucía*, "رٽينشن" *Retention*
    spoken = tuple(_as_arabic(_spoken(w)) for w in title_words)
    # Italian's "ch" before "e" and "i" is a "k": "بيانكي", "Бьянки" for *Bianchi*
    lower = [w.lower() for w in title_words]
    italian = [_ITALIAN_CH.sub("k", w) for w in lower]
    italian = italian if italian != lower else []
    kana = tuple(as_kana(w) for w in title_words)
    hebrew = tuple(_as_hebrew(w) for w in title_words)
    readings = [
        *(("arabic", arabic), ("arabic", unvoiced), ("arabic", unjoined), ("arabic", spoken)),
        ("arabic", tuple(_as_arabic(_latin(w)) for w in italian)),  # () when no "ch" is Italian
        *(("hebrew", hebrew), ("kana", kana)),
    ]
    found = {
        (script, skeleton)
        for script, skeleton in readings
        if all(skeleton) and sum(map(len, skeleton)) >= MIN_CONSONANTS
    }
    cyrillic = tuple(_as_cyrillic(w) for w in title_words)
    georgian = tuple(_as_cyrillic(w, _FOR_GEORGIAN) for w in title_words)
    # a German or Nordic "j" is spelt as the "y" it is: "Юрген" for *Jürgen*
    yod = _read_without([w.lower() for w in title_words], "j", _as_cyrillic)
    # a soft "c" as spoken, "Лусиа" for *Lucía*; a Spanish "j" as the "kh" Cyrillic writes, "Хавьер"
    spoken_c = tuple(_as_cyrillic(as_spoken(_letters(w))) for w in title_words)
    spanish = [w.replace("j", "h") for w in lower]
    spelt = [
        ("spelt", cyrillic),
        ("spelt", yod),
        ("spelt", tuple(_as_cyrillic(w) for w in italian)),
        ("spelt", spoken_c),
        ("spelt", tuple(_as_cyrillic(w) for w in spanish) if spanish != lower else ()),
        ("georgian", georgian),
    ]
    for script, skeleton in spelt:
        if skeleton and all(skeleton) and sum(map(len, skeleton)) >= MIN_CAPITALISED:
            found.add((script, _unvoiced(skeleton)))
    return found


def _unvoiced(skeleton: tuple[str, ...]) -> tuple[str, ...]:
    """A spelt skeleton with "z" read as "s": scripts that spell a name by ear write the "s"
    of *Rosa* as a "z" ("Роза") and the "z" of *Valdez* as an "s" ("Вальдес")."""
    return tuple(w.replace("z", "s") for w in skeleton)


KANA_WORD_MIN = 4
"""Consonants a katakana word needs before it may read as a title's words: "srkr" for
ソーラーカラー (*Solar Collar*) says which title, "tms" for トーマス could be many a word."""


def as_kana(word: str) -> str:
    """A Latin word's skeleton as katakana writes it: an "r" after a vowel and before no
    vowel is a long vowel there ("ボード" for *board*, "ワークス" for *works*)."""
    spoken = _SILENT_R.sub("", _letters(word))
    return _squeeze(_SOFT_H.sub("", _HARD_C.sub("k", _latin(spoken)).translate(_FOR_KANA)))


_SILENT_R = re.compile("(?<=[aeiouy])r(?![aeiouy])")


def title_kana(title_words: Iterable[str]) -> Iterator[tuple[str, str]]:
    """``(skeleton, words)`` for each word of a title in Latin letters and each two side by
    side, as katakana would write them (one word: "ソーラーカラー" is *Solar Collar*), with
    :data:`KANA_WORD_MIN` consonants or more."""
    latin = [w for w in title_words if w.isascii() and w.isalpha()]
    spans = [*([w] for w in latin), *(latin[i : i + 2] for i in range(len(latin) - 1))]
    for span in spans:
        skeleton = _squeeze("".join(as_kana(w) for w in span))
        if len(skeleton) >= KANA_WORD_MIN:
            yield skeleton, " ".join(span)


def kana_runs(message: str) -> set[str]:
    """The skeleton of each katakana word of the message, and of each two that "・" parts
    read as one ("ケストレル・ワークス" as *Kestrel Works*, filed by :func:`title_kana` as
    two words side by side)."""
    runs = _katakana_words(message)
    for name in _KATAKANA_NAME.findall(message):
        parts = name.split("\u30fb")
        runs += ["".join(parts[i : i + 2]) for i in range(len(parts) - 1)]
    return {skeleton for run in runs if len(skeleton := _kana(run)) >= KANA_WORD_MIN}


_KATAKANA_NAME = re.compile(f"{KATAKANA}+(?:\u30fb{KATAKANA}+)+")
"""Katakana words parted by "・", as a name of several words is written."""


def _katakana_words(message: str) -> list[str]:
    """The message's katakana words ("・" parts a name's)."""
    return _KATAKANA_WORD.findall(message.replace("\u30fb", " "))


def _consonants(word: str, letters: dict[str, str], prefixes: tuple[str, ...]) -> list[str]:
    """A word of a script that writes few vowels (Arabic, Hebrew) as its consonants, and again
    without a joined prefix it opens with."""
    read = [_squeeze("".join(letters.get(ch, "") for ch in word))]
    if len(word) > 3 and word.startswith(prefixes):
        read.append(_squeeze("".join(letters.get(ch, "") for ch in word[1:])))
    return read


def _hebrew(word: str) -> list[str]:
    """A Hebrew or Yiddish word's consonants, two vav read as none and again as a "v"
    (:data:`_DOUBLE_VAV`)."""
    read = _consonants(word, _HEBREW_LETTERS, _HEBREW_PREFIXES)
    if _DOUBLE_VAV.search(word):
        read += _consonants(_DOUBLE_VAV.sub("\u05d1", word), _HEBREW_LETTERS, _HEBREW_PREFIXES)
    return list(dict.fromkeys(read))


def _kana(word: str) -> str:
    return _squeeze("".join(_KANA_CONSONANTS.get(ch, "") for ch in word))


def kana_skeleton(word: str) -> str:
    """A word in katakana or hiragana (a given name: "ひろし") as its consonants."""
    return _kana("".join(chr(ord(c) + 0x60) if "\u3041" <= c <= "\u3096" else c for c in word))


def message_skeletons(message: str) -> Iterator[tuple[str, tuple[str, ...]]]:
    """``(script, skeletons)`` of each run of two or three words in Arabic or Hebrew letters,
    in katakana, in Cyrillic, in Georgian or in Armenian, side by side ("マヤ・オカフォー" is
    two words), for looking names up."""
    scripts: tuple[tuple[str, list[str], Callable[[str], list[str]]], ...] = (
        ("arabic", _ARABIC_WORD.findall(message), _arabic),
        ("hebrew", _HEBREW_WORD.findall(message), _hebrew),
        ("kana", _katakana_words(message), lambda w: [_kana(w)]),
        ("spelt", _CYRILLIC_WORD.findall(message), _cyrillic_readings),
        ("georgian", _GEORGIAN_WORD.findall(message), lambda w: _spelt(w, _GEORGIAN_ENDINGS)),
        ("spelt", _ARMENIAN_WORD.findall(message), lambda w: _spelt(w, _ARMENIAN_ENDINGS)),
        ("spelt", _ETHIOPIC_WORD.findall(message), _ethiopic),
    )
    for script, found, read in scripts:
        runs = [read(w) for w in found]
        for size in (2, 3):
            for start in range(len(runs) - size + 1):
                capitalised = all(w[:1].isupper() for w in found[start : start + size])
                for skeleton in _choices(runs[start : start + size]):
                    if script not in _SPELT:
                        yield script, skeleton
                    elif capitalised or not _short(skeleton):
                        yield script, _unvoiced(skeleton)


_SPELT = frozenset({"spelt", "georgian"})
"""Scripts that spell a name letter for letter, vowels and all."""


def _short(skeleton: tuple[str, ...]) -> bool:
    """A spelt skeleton too short to read unless every word is capitalised
    (:data:`MIN_CAPITALISED`): a word of one consonant, or fewer than :data:`MIN_CYRILLIC`."""
    each, whole = MIN_CYRILLIC
    return min(map(len, skeleton)) < each or sum(map(len, skeleton)) < whole


def _arabic(word: str) -> list[str]:
    return _consonants(word, _ARABIC_LETTERS, _ARABIC_PREFIXES)


def _choices(readings: list[list[str]]) -> Iterator[tuple[str, ...]]:
    """Every way of reading the words, one reading each (a joined prefix or not)."""
    if not readings:
        yield ()
        return
    for first in readings[0]:
        if first:
            for rest in _choices(readings[1:]):
                yield (first, *rest)
