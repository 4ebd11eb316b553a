"""What a meeting or an app is called, in the other languages people write to the agent in.

Meeting pages are titled by their kind and their date ("Sync Design Review (2026-03-02)"), and
people asking in Japanese, Korean, Arabic or German about one name its kind in their own language:
"3月2日のレビュー", "Camera Grid 킥오프 회의", "اجتماع انطلاق مشروع Mesh Radio",
"Monatsplanung August 2026". A keyword-only GBrain finds none of those words, and the gate, which
names a meeting by the words of its title, reads none of them. So the kinds of meeting a work brain
holds (kickoff, review, design, status update, planning, retro, board, debrief) are read here in
English too, as umlauts typed out are (:func:`.words.umlauts_typed`): the English words may name a
title and never say that the message is about something else. An app's page is titled the same way
("Beacon App"), and Japanese writes it joined to the name ("Beaconアプリ"), so "app" is read too,
and so are two kinds English speech and quick typing split in two ("osprey tracker kick off",
"stand up notes week 14"). The table holds only these kinds: they say which page, and are no one's
name.
"""

from __future__ import annotations

import re

from .words import fold

__all__ = ["kind_words"]

# Each line: the word as written, then its English. Words of Cyrillic and Hangul, written with
# spaces and inflected or joined to particles at the end, match at a word's start ("ежемесячн" for
# every case ending, "리뷰" in "리뷰를"), as do Latin ones (whole when written apart); words of
# unspaced scripts and of Arabic (whose words take the article and other prefixes) match anywhere.
_TABLE = """
# Japanese
キックオフ = kickoff
レビュー = review
設計 = design
デザイン = design
取締役会 = board
月次計画 = monthly planning
計画会議 = planning
振り返り = retro
レトロ = retro
進捗報告 = status
ステータス = status
アップデート = update
デブリーフ = debrief
アプリ = app
# Chinese
启动会 = kickoff
啟動會 = kickoff
评审 = review
評審 = review
设计 = design
董事会 = board
董事會 = board
月度规划 = monthly planning
月度计划 = monthly planning
复盘 = retro
状态更新 = status update
状态会 = status update
進度更新 = status update
# Arabic
انطلاق = kickoff
مراجعة = review
تصميم = design
مجلس الادارة = board
مجلس الإدارة = board
تخطيط = planning
شهري = monthly
تحديث = update
الحالة = status
استعادي = retro
تطبيق = app
# Russian
кикофф = kickoff
запуск = kickoff
ревью = review
обзор = review
дизайн = design
совет директоров = board
ежемесячн = monthly
планировани = planning
статус = status
ретро = retro
приложени = app
# Korean
킥오프 = kickoff
착수 = kickoff
리뷰 = review
검토 = review
디자인 = design
설계 = design
상태 업데이트 = status update
업데이트 = update
이사회 = board
월간 계획 = monthly planning
회고 = retro
디브리핑 = debrief
스탠드업 = standup
앱 = app
# German
monatsplanung = monthly planning
planung = planning
vorstand = board
designreview = design review
nachbesprechung = debrief
statusupdate = status
# Spanish, French, Portuguese
arranque = kickoff
lanzamiento = kickoff
lancement = kickoff
revision de diseno = design review
revue de conception = design review
revue de design = design review
revisao de design = design review
planificacion mensual = monthly planning
planification mensuelle = monthly planning
planejamento mensal = monthly planning
junta directiva = board
conseil d'administration = board
retrospectiva = retro
retrospective = retro
actualizacion de estado = status update
point d'etape = status update
atualizacao de status = status update
# English, said apart (dictated, or typed as two words)
kick off = kickoff
kick-off = kickoff
stand up = standup
stand-up = standup
"""
_GLOSSES: tuple[tuple[str, str], ...] = tuple(
    (word.strip(), english.strip())
    for word, _, english in (
        line.partition(" = ") for line in _TABLE.splitlines() if line and not line.startswith("#")
    )
)


_APART = re.compile(r"[\s-]")
"""What parts a Latin entry written apart ("kick off", "stand-up")."""


def _pattern(word: str) -> str:
    """Latin and Cyrillic words match at a word's start, the others anywhere; Latin words
    written apart match whole ("stand up", not "stand upright")."""
    folded = re.escape(fold(word))
    if word.isascii() and _APART.search(word):
        return rf"(?<!\w){folded}(?!\w)"
    return rf"(?<!\w){folded}" if word.isascii() or _inflected_at_end(word) else folded


def _inflected_at_end(word: str) -> bool:
    """Cyrillic and Hangul: written with spaces, endings and particles joined at the end."""
    return all(
        "\u0400" <= ch <= "\u04ff" or "\uac00" <= ch <= "\ud7af" or not ch.isalpha() for ch in word
    )


_MATCH = re.compile("|".join(f"(?P<g{i}>{_pattern(w)})" for i, (w, _) in enumerate(_GLOSSES)))
_ASCII_HINT = re.compile("|".join(re.escape(w) for w, _ in _GLOSSES if w.isascii()), re.IGNORECASE)
"""The table's Latin words: an ASCII message without one needs no look."""


def kind_words(text: str) -> str:
    """The English of every word of the table in ``text``, ``""`` when none
    ("3月2日のレビュー" -> "review", "Beaconアプリ" -> "app")."""
    if text.isascii() and not _ASCII_HINT.search(text):
        return ""
    found: list[str] = []
    for match in _MATCH.finditer(fold(text)):
        english = _GLOSSES[int(str(match.lastgroup)[1:])][1]
        if english not in found:
            found.append(english)
    return " ".join(found)
