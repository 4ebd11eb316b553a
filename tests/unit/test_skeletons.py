"""Names in Arabic or Hebrew letters, in katakana, in Cyrillic, in Georgian, in Armenian and in
Ethiopic read against names in Latin letters."""

from __future__ import annotations

import pytest

from hermes_gbrain.recall.skeletons import latin_skeletons, message_skeletons


def _reads_as(name: str, message: str) -> bool:
    return bool(latin_skeletons(name.split()) & set(message_skeletons(message)))


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Rania Saleh", "هل عندنا ملاحظات عن رانيا صالح؟"),  # short vowels unwritten
        ("Leila Farahani", "من هي ليلى فراهاني؟"),
        ("Farid Haddad", "من هو فريد حداد؟"),  # a doubled letter written once
        ("Priya Raman", "ماذا تعمل بريا رامان؟"),  # Arabic has no "p"
        ("Kofi Mensah", "کوفی منسا کیه؟"),  # Persian letters: its own "k", "y" and "ch"
        ("Maya Okafor", "マヤ・オカフォーさんは何をしていた\uff1f"),  # katakana drops the final "r"
        ("Lin Chen", "リン・チェンの担当は\uff1f"),  # and reads "l" as "r"
        ("Nadia Petrova", "Расскажи про Надю Петрову"),  # declined: the endings are vowels
        ("Dmitri Sorensen", "что делал Дмитрий Соренсен?"),
        ("Esther Okonkwo", "Чем занимается Эстер Оконкво?"),  # "th" as "т", "w" as "в"
        ("Hiroshi Tanaka", "Хироси Танака"),  # read as "kh", for "h"
        ("Elif Yilmaz", "אליף ילמז בנתה את ה-SSO?"),  # one letter for "p" and "f"
        ("Nikolai Ivanov", "ניקולאי איבנוב בכוננות הלילה?"),  # and one for "b" and "v"
        ("Rania Saleh", "תשאל את רניה סאלח"),  # a final "h" written or not
        ("Lin Chen", "מה לין צ'ן עושה?"),  # noqa: RUF001 - "ch" as "ts" with a geresh
        ("Jomo Otieno", "ספר לי על ג׳ומו אוטיינו"),  # noqa: RUF001 - "j" as "g", a geresh
        ("Farid Haddad", "תשלח לפריד חדאד"),  # "to" joined to the name
        ("Vera Lindgren", "ווערא לינדגרען פון נארטווינד"),  # Yiddish: two vav for "v"
        ("Vera Lindgren", "\u05f0ערא לינדגרען"),  # and their ligature
        ("Amara Nwosu", "ამარა ნვოსუ ახლა რომელ პროექტზე მუშაობს?"),  # Georgian, "w" as "ვ"
        ("Esther Okonkwo", "ესთერ ოკონკვოს ჰკითხე"),  # a dative "-ს" joined to the name
        ("Farid Haddad", "ფარიდ ჰადადმა დაწერა"),  # an ergative "-მა"
        ("Felix Wagner", "ფელიქს ვაგნერი"),  # Georgian writes "f" as "ფ"
        ("Priya Raman", "Պրիյա Ռամանը դեռ գրում է"),  # Armenian, the article "-ը"
        ("Samuel Mwangi", "Սամուել Մվանգին ինչ էր խնդրել"),  # the article "-ն", "ու" as "u"
        ("Elif Yilmaz", "Элиф Йылмаздың SSO бойынша жұмысы"),  # Kazakh, a genitive joined
        ("Nadia Petrova", "Надя Петрованынъ runway модели кайда?"),  # Nogai: "нъ" for "ң"
        ("Sanjay Mehta", "Санджай Мехта деплой пайплайнын"),  # "дж" for "j"
        ("Olga Novak", "поговори с Ольгой Новаком"),  # noqa: RUF001 - an instrumental "-ом"
        ("Lorenzo Greco", "Лоренцо Греко Лиссабонд байгаа юу?"),  # Mongolian, "ц" for "z"
        ("Javier Morales", "Жавиер Моралес хаана байна?"),  # Mongolian, "ж" for "j"
        ("Jomo Otieno", "جومو اوټینو د چټک غبرګون د واحد مشر دی کنه؟"),  # Pashto's "t", "ټ"
        ("Stefan Novak", "ستیفان نوواک په پایلټ ځایونو کې"),  # "v" written as waw
        ("Zoltan Kovacs", "زولتان کوواچ د کالر لپاره"),
        ("Greta Holm", "گریٹا ہولم کون ہیں؟"),  # Urdu's "t", "ٹ", and "g", "گ"
        ("Gabriela Nunez", "گابرىيېلا نۇنيېز يازغان"),  # Uyghur writes every vowel, "ۇ" too
        ("Jürgen Müller", "يۈرگېن مۈللېر تەكشۈرەمدۇ؟"),  # a German "j" is a "y", a vowel letter
        ("Jürgen Müller", "Юрген Мюллер килешүләрне тикшерәме?"),  # Tatar: spelt "y" too
        ("Kestrel Works", "ڪيسٽرل ورڪس ۾ هن وقت ڪيترا ماڻهو ڪم ڪن ٿا؟"),  # Sindhi "k" and "t"
        ("Hiroshi Tanaka", "هيروشي تاناڪا کي نئون پي سي گهرجي"),
        ("Marula Conservancy", "مارولا كونسيرفانسي"),  # a soft "c" spoken, and written, "s"
        ("Lucía Fernández", "لوسيا فرنانديز"),
        ("Dario Bianchi", "Кто такой Дарио Бьянки?"),  # Italian "ch" before "i": a "k"
        ("Jonah Reyes", "Джона Рейес рейнджердэри кытта"),  # Yakut: few letters, capitalised
        ("Jomo Otieno", "Жомо Отиено шуурхай"),
        ("Maya Okafor", "Майя Окафор нæ волонтерты"),  # Ossetian: one consonant, capitalised
        ("Chiara Valdez", "Кьяра Вальдес"),  # a "z" spelt as an "s"
        ("Rosa Ibarra", "Роза Ибарра"),  # and an "s" as a "z"
        ("Lucía Fernández", "Лусиа Фернандес"),  # a soft "c" spelt as spoken
        ("Javier Morales", "Хавьер Моралес"),  # a Spanish "j" spelt as a "kh"
        ("Dario Bianchi", "داريو بيانكي"),
        ("Lin Chen", "ሊን ቸን ኣብ ኣየናይ ፕሮጀክት እያ ትሰርሕ?"),  # Tigrinya: syllables, spelt
        ("Farid Haddad", "ፋሪድ ሓዳድ"),
        ("Samuel Mwangi", "ንሳሙኤል ምዋንጊ ሕተቶ"),  # "to" joined to the name
    ],
)
def test_a_name_written_in_another_script_reads_as_the_latin_name(name: str, message: str) -> None:
    assert _reads_as(name, message)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Rania Saleh", "من هي رانيا يوسف؟"),  # the same first name, another surname
        ("Maya Okafor", "マヤ・アンジェロウの詩"),
        ("Ana Li", "アナ・リー"),  # too few consonants to say anything
        ("Farid Haddad", "حداد فريد"),  # the words in another order
        ("Nadia Petrova", "Надя Иванова"),
        ("Lorenzo Greco", "Лоренцо Медичи"),  # the same first name, another surname
        ("Sato Yuki", "что есть к обеду?"),  # a short name's skeleton is any words' too
        ("Rania Saleh", "רניה כהן"),  # the same first name, another surname
        ("Farid Haddad", "חדאד פריד"),
        ("Vera Lindgren", "ווערא כהן"),  # the same first name, another surname
        ("Amara Nwosu", "ამარა ოკაფორი"),  # the same first name, another surname
        ("Samuel Mwangi", "Սամուել Պետրոսյան"),
        ("Stefan Novak", "ستیفان نوري"),  # the same first name, another surname
        ("Aisha Diallo", "څه ډالۍ ورته واخلم؟"),  # Pashto "what gift": "ts", not "s"
        ("Lin Chen", "ሊን ሃይሉ"),  # the same first name, another surname
        ("Jomo Otieno", "ما تعني كلمة sprint؟"),  # "what does … mean": no "j" read away here
        ("Jomo Otieno", "Омо Отиено"),  # too little left without the "j"
        ("Kaito Mori", "кто мэр Лиссабона сейчас?"),  # so few letters, uncapitalised: any words
        ("Jonah Reyes", "джона рейес"),
    ],
)
def test_another_name_or_too_little_reads_as_nothing(name: str, message: str) -> None:
    assert not _reads_as(name, message)


def test_a_name_s_words_may_come_from_any_iterable() -> None:
    assert latin_skeletons(iter(["Nadia", "Petrova"])) == latin_skeletons(["Nadia", "Petrova"])
