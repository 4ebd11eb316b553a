"""Colleagues named the Japanese way: a surname in kanji, or a name in katakana, before an
honorific ("田中さん", "森さんって…", "プリヤさん", "田中ヒロシさん").

A brain titles its people in Latin letters (*Hiroshi Tanaka*, *Kaito Mori*), and a Japanese
message writes them with the honorific that marks a person. A katakana name is read by its
consonants (:mod:`.skeletons`); a surname in kanji has no letters to read, so the commonest
surnames are listed here with their readings in Latin letters. The honorific is what makes
the word a name: "森" alone is a forest, "森さん" is Mr or Ms Mori. What follows a surname
before the honorific may be the given name in kana ("田中ひろしさん"). Which person the reading
names is for the title index to say (:meth:`.named.TitleMatcher.honoured`): only one may.
"""

from __future__ import annotations

import re

from .skeletons import KATAKANA, kana_skeleton
from .words import HONORIFICS

__all__ = ["KANA_NAME_MIN", "SURNAMES", "honoured"]

_TABLE = """
佐藤 sato
鈴木 suzuki
高橋 takahashi
田中 tanaka
伊藤 ito
渡辺 watanabe
渡部 watanabe
山本 yamamoto
中村 nakamura
小林 kobayashi
加藤 kato
吉田 yoshida
山田 yamada
佐々木 sasaki
山口 yamaguchi
松本 matsumoto
井上 inoue
木村 kimura
林 hayashi
斎藤 saito
斉藤 saito
清水 shimizu
山崎 yamazaki yamasaki
森 mori
池田 ikeda
橋本 hashimoto
阿部 abe
石川 ishikawa
山下 yamashita
中島 nakajima nakashima
石井 ishii
小川 ogawa
前田 maeda
岡田 okada
長谷川 hasegawa
藤田 fujita
後藤 goto
近藤 kondo
村上 murakami
遠藤 endo
青木 aoki
坂本 sakamoto
福田 fukuda
太田 ota
西村 nishimura
藤井 fujii
金子 kaneko
岡本 okamoto
藤原 fujiwara
中野 nakano
三浦 miura
原田 harada
中川 nakagawa
松田 matsuda
竹内 takeuchi
小野 ono
田村 tamura
中山 nakayama
和田 wada
石田 ishida
森田 morita
上田 ueda
原 hara
内田 uchida
柴田 shibata
酒井 sakai
工藤 kudo
横山 yokoyama
宮崎 miyazaki
宮本 miyamoto
大野 ono
高木 takagi
安藤 ando
谷口 taniguchi
丸山 maruyama
今井 imai
河野 kono kawano
野口 noguchi
菅原 sugawara
千葉 chiba
松井 matsui
小島 kojima
渡邊 watanabe
渡邉 watanabe
杉山 sugiyama
久保 kubo
木下 kinoshita
野村 nomura
新井 arai
"""
SURNAMES: dict[str, tuple[str, ...]] = {
    kanji: tuple(readings)
    for kanji, *readings in (line.split() for line in _TABLE.splitlines() if line.strip())
}
"""Common Japanese surnames in kanji, with their readings in Latin letters (long vowels
written short, as names usually are: 佐藤 "Sato")."""

_HONORIFIC = f"(?:{'|'.join(HONORIFICS)})"
_KANJI = "[\u4e00-\u9fff\u3005]"
_HIRAGANA = "[\u3041-\u3096]"
_NAMED = re.compile(
    rf"(?:(?P<kanji>{_KANJI}{{1,3}})(?P<given>{_HIRAGANA}{{2,4}}|{KATAKANA}{{2,8}})?"
    rf"|(?P<kana>{KATAKANA}{{2,8}})(?:・(?P<more>{KATAKANA}{{2,8}}))?){_HONORIFIC}"
)
"""A surname in kanji, perhaps with a given name in kana, or a name in katakana (perhaps
two words), right before an honorific."""
KANA_NAME_MIN = 2
"""Consonants a name in kana needs ("プリヤ" is "pr")."""


def honoured(message: str) -> tuple[set[str], set[str]]:
    """``(readings, skeletons)`` of the names before an honorific: a listed surname in
    kanji as its readings in Latin letters (the longest that ends the kanji: "小林" is
    Kobayashi, not Hayashi), a name in kana as its consonants."""
    readings: set[str] = set()
    skeletons: set[str] = set()
    for match in _NAMED.finditer(message):
        kanji = match.group("kanji") or ""
        for end in range(len(kanji)):
            if found := SURNAMES.get(kanji[end:]):
                readings.update(found)
                break
        for group in ("given", "kana", "more"):
            kana = match.group(group)
            if kana and len(skeleton := kana_skeleton(kana)) >= KANA_NAME_MIN:
                skeletons.add(skeleton)
    return readings, skeletons
