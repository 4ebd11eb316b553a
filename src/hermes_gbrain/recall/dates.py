"""The dates a title or a message gives: years, quarters, months, ISO weeks and days, as marks.

Pages of meetings and periodic notes are titled with ordinary words and a date ("On-Call Retro
(2026-03-12)", "Standup notes 2026-W17", "Quarterly report Q2 2026"), and people name them the way
they say dates ("the on-call retro from march", "standup notes week 17", "the q2 report"). The
title's words alone are too ordinary to name a page; its words *and* its date do
(:func:`.naming._names`). Marks are ``y2026``, ``q2``, ``m3``, ``w17`` and, for a day, ``d3-12``
(month, then day): "march 12th", "the 12th of march", "12 mars", "12.03.", "3月12日", "2026-03-12".
English month names: "May", "Mar" and "Jan" only capitalised ("may" is a verb, "mar" a word, "jan" a
name) or beside a day ("12 mar", "may 3rd"), the other short forms ("feb", "sept") as typed. Month
names in French, German, Spanish, Portuguese, Italian and Russian, and months in Chinese and
Japanese figures ("3月") and in Korean ("5월 30일"): a message in those languages names a meeting by
its date as its own words say it ("le Board Update du 9 mars"). A date in figures ("12/3") is read
both ways, day first and month first: either may be the title's. Years, quarters and weeks said in
words, as a message dictated by voice gives them ("the q two twenty twenty six report"), are read in
figures (:func:`said_in_figures`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .words import fold
from .words import stem as _stem

__all__ = [
    "agree",
    "beside_a_month",
    "date_marks",
    "is_date_stem",
    "is_periodic",
    "said_in_figures",
]

_MONTHS = (
    *("january", "february", "march", "april", "may", "june"),
    *("july", "august", "september", "october", "november", "december"),
)
_MONTH = {name: i for i, name in enumerate(_MONTHS, 1)}
_MONTH.update({name[:3]: i for i, name in enumerate(_MONTHS, 1) if name != "may"})
_MONTH["sept"] = 9
_CAPITALISED_ONLY = frozenset({"may", "mar", "jan"})
_ABROAD_MONTHS = (
    "janvier fevrier mars avril mai juin juillet aout septembre octobre novembre decembre",
    "januar februar marz april mai juni juli august september oktober november dezember",
    "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
    "janeiro fevereiro marco abril maio junho julho agosto setembro outubro novembro dezembro",
    "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre",
    "января февраля марта апреля мая июня июля августа сентября октября ноября декабря",
    "январь февраль март апрель май июнь июль август сентябрь октябрь ноябрь декабрь",
    "январе феврале марте апреле мае июне июле августе сентябре октябре ноябре декабре",
    "janoary febroary martsa aprily mey jona jolay aogositra septambra oktobra novambra desambra",
    "enero pebrero marso abril mayo hunyo hulyo agosto setyembre oktubre nobyembre disyembre",
    "januari februari maart april mei juni juli augustus september oktober november december",
    "januari februari maret april mei juni juli agustus september oktober november desember",
)
_ABROAD = {
    name: number for line in _ABROAD_MONTHS for number, name in enumerate(line.split(), 1)
} | {"maerz": 3, "setiembre": 9}
_ABROAD.update(janvye=1, fevriye=2, mas=3, jiye=7, septanm=9, oktob=10, novanm=11, desanm=12)
_ABROAD_BESIDE_DAY = frozenset(
    {"mars", "mai", "mayo", "marco", "julio", "май", "мая", "mas", "mey", "jona", "mei"}
)
"""Names of months in French, German, Spanish, Portuguese, Italian, Russian, Malagasy,
Haitian Creole, Tagalog (and Waray and Cebuano, which share them), Dutch and Indonesian
(folded: "marz" for März, "oktob" for oktòb; Haitian's "me", "jen" and "out" are left out,
English words all), and those that are also words or names ("mars", "Marco", "Julio", "mas",
"Mei"), read only beside a day ("9 mars", "9. März", "9 de marzo", "16 mas")."""
_LETTERS = "a-z\u0430-\u044f\u0451"
"""Latin letters, folded, and the Russian alphabet in lower case."""
_ABROAD_WORD = re.compile(f"[{_LETTERS}]+")
_ABROAD_DAY = re.compile(rf"\b([12]\d|3[01]|0?[1-9])(?:er|\.)?\s+(?:de\s+)?([{_LETTERS}]+)", re.I)
_CJK_MONTH = re.compile(
    r"(1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])月(?:([12]\d|3[01]|0?[1-9])日)?"
)
_KOREAN_MONTH = re.compile(r"(1[0-2]|0?[1-9])\s*월(?:\s*([12]\d|3[01]|0?[1-9])\s*일)?")
"""A month in Korean, maybe with its day ("5월 30일")."""
_CJK_NUMBERS = {n: i for i, n in enumerate("一二三四五六七八九十", 1)} | {"十一": 11, "十二": 12}
_ISO_DATE = re.compile(r"\b((?:19|20)\d\d)-(0[1-9]|1[0-2])(?:-(0[1-9]|[12]\d|3[01]))?\b")
_ISO_WEEK = re.compile(r"\b(?:((?:19|20)\d\d)-?)?w(?:ee)?k?\s?(0?[1-9]|[1-4]\d|5[0-3])\b", re.I)
_DAY = r"([12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?"
_MONTH_DAY = re.compile(rf"\b([a-z]+)\.?\s+{_DAY}\b", re.I)
_DAY_MONTH = re.compile(rf"\b{_DAY}\s+(?:of\s+)?([a-z]+)\b", re.I)
"""An English month name beside a day, either way round ("march 2nd", "the 12th of march")."""
_DOTTED = re.compile(r"(?<![\w.])([12]\d|3[01]|0?[1-9])\.(0[1-9]|1[0-2])\b(?!\.\d)")
"""A day and month in figures as Germans and Russians write them ("28.02.")."""
_YEAR = re.compile(r"\b((?:19|20)\d\d)\b")
_QUARTER = re.compile(r"\bq([1-4])\b", re.I)
_BESIDE_DAY = re.compile(
    r"\b(?:(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?\s+(may|mar|jan)"
    r"|(may|mar|jan)\s+(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?)\b",
    re.I,
)
"""A short month name that is also a word, beside a day: a date however it is typed."""
_FIGURES = re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})(?:/((?:19|20)?\d\d))?(?![\d/])")
"""A date in figures, day and month either way round, maybe with a year ("12/3/2026")."""
_PERIODIC = frozenset({"daily", "weekly", "monthly", "quarterly", "annual", "yearly"})
"""Words that only say how often a dated page comes ("Quarterly report Q2 2026" is named
by "the q2 report")."""
_PERIODIC_STEMS = _PERIODIC | frozenset(map(_stem, _PERIODIC))
_MONTH_STEMS = frozenset((*_MONTH, *_ABROAD)) | frozenset(map(_stem, (*_MONTH, *_ABROAD)))
"""The words, and as the gate's stems spell them ("monthly" -> "monthli")."""
_WORD = re.compile(r"[A-Za-z]+")
_WEEK_STEM = re.compile(r"w(?:0?[1-9]|[1-4]\d|5[0-3])")
_QUARTER_STEM = re.compile(r"q[1-4]")


def date_marks(text: str) -> frozenset[str]:
    """``y``ear, ``m``onth and ``w``eek marks of the dates in ``text``."""
    marks: set[str] = set()
    for year, month, _day in _ISO_DATE.findall(text):
        marks.update((f"y{year}", f"m{int(month)}"))
    for year, week in _ISO_WEEK.findall(text):
        marks.add(f"w{int(week)}")
        if year:
            marks.add(f"y{year}")
    marks.update(f"y{year}" for year in _YEAR.findall(text))
    marks.update(f"q{quarter}" for quarter in _QUARTER.findall(text))
    for word in _WORD.findall(text):
        lower = word.lower()
        month = _MONTH.get(lower)
        if month is not None and (word[0].isupper() or lower not in _CAPITALISED_ONLY):
            marks.add(f"m{month}")
    for before, after in _BESIDE_DAY.findall(text):
        marks.add(f"m{_MONTH[(before or after).lower()]}")
    folded = fold(text)
    for word in _ABROAD_WORD.findall(folded):
        if word in _ABROAD and word not in _ABROAD_BESIDE_DAY:
            marks.add(f"m{_ABROAD[word]}")
    for day, word in _ABROAD_DAY.findall(folded):
        if word in _ABROAD:
            marks.update((f"m{_ABROAD[word]}", f"d{_ABROAD[word]}-{int(day)}"))
    for number, day in (*_CJK_MONTH.findall(text), *_KOREAN_MONTH.findall(text)):
        month = int(number) if number.isdigit() else _CJK_NUMBERS[number]
        marks.add(f"m{month}")
        if day:
            marks.add(f"d{month}-{int(day)}")
    for first, second, year in _FIGURES.findall(text):
        marks.update(_figures(int(first), int(second)))
        if len(year) == 4:
            marks.add(f"y{year}")
    for day, month in _DOTTED.findall(text):
        marks.update((f"m{int(month)}", f"d{int(month)}-{int(day)}"))
    return frozenset(marks | _days(text))


def _days(text: str) -> set[str]:
    """Day marks of ISO dates and of English month names beside a day."""
    days = {f"d{int(m)}-{int(d)}" for _, m, d in _ISO_DATE.findall(text) if d}
    pairs = [*_MONTH_DAY.findall(text)]
    for found in _DAY_MONTH.finditer(text):  # "top 10 of may" is no date
        day, month = found.groups()
        if " of " not in found[0] or month[0].isupper() or month not in _CAPITALISED_ONLY:
            pairs.append((month, day))
    days.update(f"d{_MONTH[m.lower()]}-{int(d)}" for m, d in pairs if m.lower() in _MONTH)
    return days


def _figures(first: int, second: int) -> set[str]:
    """The months "first/second" may give: day then month, or month then day."""
    months: set[str] = set()
    if 1 <= first <= 31 and 1 <= second <= 12:
        months.update((f"m{second}", f"d{second}-{first}"))
    if 1 <= first <= 12 and 1 <= second <= 31:
        months.update((f"m{first}", f"d{first}-{second}"))
    return months


def agree(title: frozenset[str], message: frozenset[str]) -> bool:
    """The message gives a date of the title's and none that contradicts it: for each
    kind (year, month, week) both give, they share one."""
    if not title & message:
        return False
    for kind in "ymwqd":
        ours = {m for m in title if m[0] == kind}
        theirs = {m for m in message if m[0] == kind}
        if ours and theirs and not ours & theirs:
            return False
    return True


MONTH_REACH = 5
"""Words on either side of a month that may say which of its meetings is meant: "feb
planning mtg", "the planning meeting in march"; not "planning a family holiday to kenya in
august"."""


def beside_a_month(sentences: Sequence[Sequence[str]]) -> set[str] | None:
    """The words within :data:`MONTH_REACH` of a month's name in the same sentence
    (``sentences``: a message's words, in order, sentence by sentence: "worth visiting in
    August as a tourist? Planning a family trip" names no planning meeting); None when it
    writes no month's name (its month came in figures)."""
    near: set[str] | None = None
    for said in sentences:
        for i, word in enumerate(said):
            if word in _MONTH or word in _ABROAD:
                near = near or set()
                near.update(said[max(0, i - MONTH_REACH) : i + MONTH_REACH + 1])
    return near


def is_periodic(stem: str) -> bool:
    """A word that says how often a dated page comes ("monthly")."""
    return stem in _PERIODIC_STEMS


def is_date_stem(stem: str) -> bool:
    """A title stem that is part of a date: a number, an ISO week ("w17"), a quarter
    ("q2"), a month, or how often the page comes ("monthly")."""
    return (
        stem.isdigit()
        or bool(_WEEK_STEM.fullmatch(stem) or _QUARTER_STEM.fullmatch(stem))
        or stem in _MONTH_STEMS
        or stem in _PERIODIC_STEMS
    )


_NUMBER_WORDS = (
    *("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
    *("eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen"),
    *("eighteen", "nineteen"),
)
_UNITS = {w: i for i, w in enumerate(_NUMBER_WORDS[:9], 1)}
_TEENS = {w: i for i, w in enumerate(_NUMBER_WORDS[9:], 10)}
_TENS_WORDS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_TENS = {w: 10 * i for i, w in enumerate(_TENS_WORDS, 2)}
_SPOKEN = re.compile(r"[a-z]+")


def _number(said: list[str], at: int) -> tuple[int, int] | None:
    """The number 1-99 said in words from ``said[at]``, and how many words it took."""
    word = said[at] if at < len(said) else ""
    if word in _TENS:
        after = said[at + 1] if at + 1 < len(said) else ""
        return (_TENS[word] + _UNITS[after], 2) if after in _UNITS else (_TENS[word], 1)
    if word in _TEENS:
        return _TEENS[word], 1
    return (_UNITS[word], 1) if word in _UNITS else None


def said_in_figures(text: str) -> str:
    """The years, quarters and weeks ``text`` says in words, in figures: "twenty twenty six"
    -> "2026", "q two" -> "q2", "week fourteen" -> "week 14 w14" (a message dictated by voice);
    ``""`` when it says none. Other numbers stay words: "two" goes with anything."""
    said = _SPOKEN.findall(fold(text).replace("-", " "))
    found: list[str] = []
    i = 0
    while i < len(said):
        word, taken = said[i], 1
        if word == "twenty" and (year := _number(said, i + 1)) and year[0] >= 10:
            found.append(f"20{year[0]}")
            taken += year[1]
        elif word == "two" and said[i + 1 : i + 2] == ["thousand"]:
            rest = i + 3 if said[i + 2 : i + 3] == ["and"] else i + 2
            if year := _number(said, rest):
                found.append(f"{2000 + year[0]}")
                taken = rest - i + year[1]
        elif word in ("q", "quarter") and (n := _number(said, i + 1)) and n[0] <= 4:
            found.append(f"q{n[0]}")
            taken += n[1]
        elif word == "week" and (n := _number(said, i + 1)) and n[0] <= 53:
            found.append(f"week {n[0]} w{n[0]}")  # as an ISO week is titled: "2026-W14"
            taken += n[1]
        i += taken
    return " ".join(found)
