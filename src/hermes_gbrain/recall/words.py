"""Words of any script, as the relevance gate compares them.

Messages and titles come in every script. Words are Unicode letter-and-digit runs,
case-folded, with accents dropped from Latin letters only ("José" and "Jose" meet;
Cyrillic "й" and Japanese "が" keep their marks, which change the letter there).
Scripts written without spaces between words (Chinese, Japanese kana, Thai, Lao,
Khmer, Myanmar) have no word boundaries to split on: a run of them is kept whole as a
*run*, and a title's run names a page when it is a substring of the message's text
(:func:`compact`). Korean is written with spaces but joins its particles to the word
before, Latin names and figures too ("Roadmap 2026에서"): a word is cut where Hangul starts
or ends. A message's capitalised acronym ("CRDTs", "RAG") is compared with the initials of
titles (:func:`acronyms`).
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Collection, Iterable, Iterator
from functools import lru_cache

import snowballstemmer  # type: ignore[import-untyped]
from anyascii import anyascii

__all__ = [
    "ENGLISH_STOP_WORDS",
    "GENERIC_STEMS",
    "GENERIC_WORDS",
    "HONORIFICS",
    "SENTENCE_END",
    "STOP_STEMS",
    "STOP_WORDS",
    "acronyms",
    "compact",
    "content_stem",
    "content_stems",
    "english_words",
    "fold",
    "in_latin_letters",
    "in_latin_script",
    "is_unspaced",
    "latin_among_others",
    "mended",
    "mentions",
    "message_acronyms",
    "message_names",
    "near",
    "other_language",
    "run_in",
    "slips",
    "stem",
    "umlauts_typed",
    "unspaced_runs",
    "versions",
    "words",
    "words_and_marks",
]

SENTENCE_END = re.compile(r"[.?!;\n]+(?:\s|$)|[\u3002\uff1f\uff01]")
"""Where a sentence ends: a full stop, question or exclamation mark or semicolon before a
space, a line's end, or their full-width forms."""


_NO_MARKS = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xAC00, 0xD7A3), (0xD800, 0xF8FF))
"""Blocks that hold no combining mark (CJK ideographs, Hangul syllables, surrogates, private
use): skipped, so the scan below costs a few milliseconds at import, not a dozen."""


def _mark_ranges(low: int, high: int) -> str:
    """A character class body of the combining marks from ``low`` to ``high``."""
    spans: list[tuple[int, int]] = []
    start = low
    for first, end in (*_NO_MARKS, (high + 1, high)):
        marks = [cp for cp in range(start, first) if unicodedata.category(chr(cp))[0] == "M"]
        for cp in marks:
            if spans and spans[-1][1] == cp - 1:
                spans[-1] = (spans[-1][0], cp)
            else:
                spans.append((cp, cp))
        start = end + 1
    return "".join(f"{chr(a)}-{chr(b)}" for a, b in spans)


_MARKS = _mark_ranges(0x0300, 0xFFFF)
"""The combining marks of the Basic Multilingual Plane. Python's ``\\w`` holds no mark, so
a word of Devanagari, Bengali, Tamil or Thai, whose vowels are marks ("करने", "ภาษา"), or
Arabic written with its short vowels, fell apart into letters."""
_TOKEN = re.compile(rf"[^\W_](?:[^\W_]|[{_MARKS}])*")
_SHORT_CODE = re.compile(r"[a-z][0-9]|[0-9][a-z]")  # "q3", "v2", "3d": short but specific
_SOUTHEAST_ASIAN = (
    (0x0E00, 0x0EFF),  # Thai, Lao
    (0x1000, 0x109F),  # Myanmar
    (0x1780, 0x17FF),  # Khmer
)
_UNSPACED = (
    *_SOUTHEAST_ASIAN,
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x31F0, 0x31FF),  # Katakana phonetic extensions
    (0x3400, 0x4DBF),  # CJK extension A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0xFF66, 0xFF9F),  # half-width Katakana
    (0x20000, 0x3134F),  # CJK extensions B-G
)

# Function words and chat filler: never an anchor. English first (the brain's usual
# language; :mod:`.outside` reads past them alone), then the commonest function words of
# German, Spanish, French, Portuguese, Italian, Dutch, Polish, Turkish, Vietnamese,
# Indonesian, Swahili, Hindi (in Latin letters and in Devanagari), Russian, Arabic and Greek,
# so a question in those languages is not "supported" by them.
ENGLISH_STOP_WORDS = frozenset(
    """
    about above after again all also and any are been before being below between both but can
    could did does doing down during each few for from further had has have having her here hers
    him his how into its itself just let like more most much must not now off once only other our
    out over own same she should some such than that the their them then there these they this
    those through too under until very was were what when where which while who whom whose why
    will with would you your yours please tell show give make write know think want need help
    find look explain describe say something anything thing things stuff today tomorrow yesterday
    really maybe good bad best well new work working use using used get got one ones lot way
    hello thanks thank okay sure right now time day week year mean
    means meant hey hiya pls plz btw anyway anyways ugh hmm yeah yep nope lol thx cheers ever
    across among amongst within without along around behind beside besides beyond toward towards
    upon onto via versus since though although unless whether either neither still even
    everything nothing everybody nobody whatever whenever wherever whichever whoever however
    therefore thus hence etc others already always never often sometimes perhaps probably
    quite rather almost enough instead might shall cannot mine ours ourselves yourself himself
    herself themselves exactly basically literally honestly seriously definitely totally
    dont doesnt didnt isnt wasnt arent werent cant couldnt wont wouldnt shouldnt havent hasnt
    tmrw tmr tmw asap fyi idk tbh imo gonna wanna gotta kinda sorta lemme gimme
    """.split()  # noqa: SIM905 - a word list reads better as text
)
_LATIN_FUNCTION_WORDS = frozenset(
    """
    der das den dem ein eine einer eines einem einen und oder aber ist sind wer wie wann warum
    welche welcher welches wir uns unser unsere ihr mit von für auf aus bei nach über zum zur
    sich nicht auch noch schon bitte gibt eigentlich genau nochmal doch wieso weshalb
    kannst können haben wird werden wurde mir dir mich dich ihm ihn ihnen dass wenn weil dann
    denn kein keine keinen etwas vom beim steht danke hallo jetzt heute gestern sehr viel viele
    meine mein deine dein seine ihre einfach gerade immer nur zwischen stimmt
    el los las una unos unas del que qué quién quien cómo como cuál cual cuándo dónde por para
    sobre está están nuestro nuestra nuestros muy más
    les une est sont qui quoi comment quel quelle pour avec sans dans sur nous notre
    moi toi elle ils elles mais aussi peux peut pourriez pouvez faut fait leur leurs cette
    ces mon ton tes vous votre vos je bonjour merci salut stp svp déjà où rien tout tous
    os uma dos das quem qual quais onde com nosso nossa
    il che gli della delle degli dello nella nelle sulla alla alle dalla questo questa questi
    quello quella perché cosa quale quali quando anche ancora molto sono abbiamo hanno grazie
    ciao vorrei potrebbe potresti sarebbe essere nostro nostra nostri mio
    het een niet zijn waarom wanneer welke waar ook nog maar voor naar heeft hebben graag
    bedankt onze deze bij
    czy gdzie kiedy dlaczego który która które się żeby dla przez oraz jaki jaka jakie
    mamy trzeba można proszę dzięki już ile ilu tylko jeszcze bardzo nasz nasza nasze tego jego
    bir için nasıl neden nerede hangi değil gibi daha çok veya bizim benim lütfen teşekkürler
    merhaba acaba olan olarak kadar sonra şimdi bu da
    không được những nhiều mình của với nào này các một thì nếu như người phải chưa vậy giờ
    trong
    untuk dengan tidak bisa sudah belum saya aku kami kita berapa bagaimana kenapa mengapa
    siapa kapan sih nih kalau tapi juga atau harus perlu gimana nggak gak tolong terima
    kasih ini itu mau buat dari udah punya
    kwa katika hii hiyo nini gani wapi lini nani kwanini tafadhali asante habari sana kesho
    sisi mimi wewe yetu yangu hapa pia lakini kama bado sasa kuna hakuna
    jak kto może jako też więc często mój moja moje twój wasz wasza tej tym
    och att inte jag vad hur varför vilken vilka vilket också eller efter våra vårt vill
    själva mycket detta dessa tack hej bara kanske någon något några alla skulle måste
    behöver ska kan har det som ett jeg ikke hvordan hvorfor hvad hva hvem hvor også skal
    kunne noen nogen
    ne kaç içinde lazım nedir neler mı mısın misin hakkında yok nereden
    hai hain tha thi kya kaise kab kahan kyun kyon nahi nahin aur bhi wala wali mujhe hamara
    hamare humara apna apne aap yeh woh raha rahi liye chahiye kuch kitna kitne kitni kaun
    kas kus miks kuidas millal mida milline millised ning ei oli olen oleme meie meil
    tema nemad seda siin veel juba ainult väga aitäh palun tere kuhu kelle kellel
    mitu mitte peab tuleb jaoks kohta pärast enne
    kāpēc kur kad vai bija mūsu jūs viņa viņi tikai jau vēl ļoti paldies lūdzu uz cik
    kurš kura kuru kāds kāda kā
    kodėl kada kaip yra nėra buvo mūsų jis jie taip labai ačiū prašau apie kuris kuri kokia
    koks kiek reikia gali mano tavo savo
    mikä mitä kuka missä milloin miksi miten kuinka paljonko onko olen olemme mutta myös vielä
    hyvin kiitos kiitti meidän minun sinun hänen tämä joka jotka kanssa että jos kun voiko
    voitko pitää täytyy
    mikor miért hogyan hogy mennyi hány melyik vagy nem igen lesz vannak kell lehet csak
    nagyon köszönöm kérlem kérem szia nekem nekünk ezt azt amit mert
    zer noiz zergatik nola zenbat edo baina dira ziren dut dugu duzu dute ditu behar bai hau
    hori hura gure nire zure bere oso eskerrik mesedez kaixo egin dago daude daukat buruz baino
    orain gaur
    unha quen cando tamén moito xa meu noso nosa lles pola coa
    kaj kdo kje kdaj zakaj kako koliko smo tudi zelo hvala prosim kateri katera katero
    tko gdje zašto nije nismo molim možeš možete treba trebam također još koji koja koje ili
    cine unde când sunt avem aveți sau dacă pentru despre foarte mulțumesc rog nostru noastră
    acest această acum doar
    hoekom hoeveel jy julle hulle ek nie baie dankie asseblief daardie hierdie vir moet
    hvað hver hvar hvenær hvernig hversu eru voru eða ekki nei við okkar minn þinn þú það þetta
    takk fyrir líka einnig
    ano sino saan kailan bakit paano magkano mga natin namin tayo siya sila iyan iyon pakiusap
    rin kasi pero meron yung nung
    bila boleh anda lagi macam sebab
    ngicela ngiyabonga kungani ngubani yini kuphi kanjani futhi kodwa ukuthi manje kakhulu yebo
    sawubona ngabe yikuphi thina wena lokhu lokho ngoba kanye
    kini tani nibo nigbawo bawo jowo sugbon tabi ati lati ninu naa yii
    vipi ngapi kwamba hilo hizo huyo yule tuna nina wana nataka unaweza tunahitaji
    batao bataiye sakta sakti sakte karna karo hoga hogi matlab pehle baad
    pwy sut pryd faint mae ydy ydw oes gyda efo hefyd iawn diolch dwi rydw roedd bydd angen
    eisiau isio eich heddiw nawr ddim wedi sydd hwn hyn hynny unrhyw rhywun mewn beth yn ond
    conas cathain cén agus leis freisin atá bhfuil faoi iad muid sinn inniu anois fós cheana
    idir roimh éis gach ní beidh dúinn duit linn againn agam agat orm chuig
    çfarë kush pse është një dhe nga mund duhet kemi kanë ishte jemi faleminderit lutem
    nesër edhe ose apo shumë vetëm ynë jonë mua ajo këtë cili cila cilat sipas rreth deri
    nima qanday qachon qayerda nega qancha nechta bilan uchun haqida yicha kerak mumkin emas
    lekin yoki shu siz sizning bizning mening rahmat iltimos hozir bugun ertaga juda faqat
    allaqachon hali keyin oldin qaysi
    yaya mene wace wadanne yaushe akwai babu kuma amma sosai yanzu gobe muna suna
    nawa zan zai iya sannu gode bayan kafin daga zuwa cikin wajen tsakanin
    maxaa maxay waxaa waxay ayaa ayay iyo goorma xaggee halkee immisa imisa fadlan mahadsanid
    hadda maanta berri sheeg yihiin yahay ahaa waa
    gịnị kedu olee onye maka mgbe nke biko daalụ echi ugbu ọzọ nwere kwuru anyị
    ji li çawa çima kengî kî kîjan çend dibêje heye hene hûn gelo tenê jiber dixwazim
    kutheni yintoni njani kwaye ndicela enkosi ukuba ndifuna sifuna ngoku namhlanje kulungile
    kif fejn liema kemm hemm fuq biex huwa hija għandna għandi għax imma ukoll issa kien kienet
    tista hux tiegħu minnu għal
    kuwi neng kanggo piye sapa endi pira pirang ora wis durung arep dhewe dheweke saka menyang
    utawa banget saiki sesuk wingi isih kae iki iku nanging amarga supaya bareng babagan marang
    wae opo sopo ngendi kepiye dadi nduwe duwe mung kabeh akeh apik oleh ngerti takon golek
    wat firwat wéi wou wéini wéivill hu hunn huet mer hien ze vun deen déi ech eis eise eisen
    kann kënnt soll ginn gouf schonn haut muer awer iwwer ënner villäicht doheem dobäi drun
    mécht gemaach eigentlech zoustänneg steet
    ko šta zašto su za od iz ovo mi bilo već samo jer kod prema oko tačno
    trenutno mogu možeš
    maal eenyu eessa yoom akkamitti maaliif meeqa irratti keessa naaf nuti isaan ani dha ture
    kanaaf garuu yookiin akka galatoomi maaloo keenya eenyutu jedha
    ndiudze ndiudzewo ndiani chii kupi rini sei ngani uye asi ndapota ndatenda nhasi mangwana
    zvino iye isu iwe vari zviri ndiye ndinoda tinoda ndipe nezve nezva naani chaizvo iyoyo
    ni nde ryari gute kuki angahe kandi ariko cyangwa murakoze nyamuneka uyu iyi ubu ejo yacu
    wacu bacu byacu ndashaka dufite mu ku ya wa rya cya bya ese neza buri
    ny inona amin ary iza momba mila ilay ahoana aho misy tsy ireo firy antsika izany mbola
    fantatsika azy ity ahy aiza isika nefa sy mety izy
    ki pou nan yon ak sou nou èske kiyès kijan kisa kote konbyen mwen vle genyen toujou chak
    epi kilè
    hvør hvat hvussu hava eitt hann hevur mær verður ikki kanst hjá fyri tað
    yi dama bëgg laaj ndax ngir ñaata naka xam lañu sama moom
    tētahi kei pēhea āhea hoki kāore
    mme gape yone nna tshwanetse batla dins cossi ont quin dels podi amb quantas sabes
    airson bhios cuin ciamar bheil dhomh deanamh eile kodi bwanji ndani ndikufuna ndiuzeni
    kuti chiyani nanga momwe ndipo nthawi liti amene kapena yomwe ʻoku ngaahi naʻe fiemaʻu
    fekauʻaki lelei kiu kio estas pri povas kiun volas tion kiom ankoraŭ havas kie nuu ngwenda
    atia uhoro iigana wayo sɛ wɔ sɛn bɛn mepɛ anaa ɛdeɛn yɛn biara ɛhe ɛyɛ cumu quandu vogliu
    induve nantu quantu aghju ellu njagala ekirala okumanya ddala engeri baagala kerek qalay
    turaly qasan qansa qayda nege jatyr bolady bizdin anei iaʻu keia kekahi ʻaʻole
    """.split()  # noqa: SIM905, RUF001 - a word list reads better as text; Turkish has a dotless i
)
"""Function words of German, Spanish, French, Portuguese, Italian, Dutch, Swedish, Danish,
Norwegian, Polish, Turkish, Vietnamese, Indonesian, Swahili and Hindi written in Latin letters
("kya", "kaise", "hai"), and of Estonian, Latvian, Lithuanian, Finnish, Hungarian, Basque,
Galician, Slovenian, Croatian, Romanian, Afrikaans, Icelandic, Tagalog, Malay, Zulu,
Yoruba, Welsh, Irish, Albanian, Uzbek, Hausa, Somali, Igbo, Kurdish, Xhosa, Maltese,
Javanese, Luxembourgish, Bosnian, Oromo, Shona, Kinyarwanda, Malagasy, Haitian Creole,
Faroese, Wolof, Maori, Tswana, Occitan, Scottish Gaelic, Chichewa, Tongan, Esperanto, Kikuyu,
Twi, Corsican, Luganda, Kazakh written in Latin letters and Hawaiian, that are no
English word once their accents are dropped ("thế" would be "the", "bên" "ben") and share no
English word's stem (Estonian "mis" and "selle" would take "miss" and "sells" with them, Welsh
"ble" the "BLE" of a radio, Irish "cad" the "CAD" of a drawing, Somali "sidee" "side"; Hausa
"wane" and "tare", Albanian "sot" and Somali "kale" are English words too; Kurdish "bo" is
what an apostrophe leaves of Uzbek's "bo'ladi"; Maltese "fil" is the stem of "filed",
Javanese "iso" and "awake" are English, and so are Luxembourgish "net", "fir" and "well",
Bosnian "bio", Oromo "sun" and Shona "here", Faroese "sum" and "vit", Wolof "lan" and
Maori "mō"; Bosnian "ali" and Oromo "jira" are names, Maori "kia" a maker of cars, and
Faroese "eg" is how English writes "e.g." without its dots; Tswana "eng" is how English
shortens "engineering", Hawaiian "aha" and Twi "no" and "so" are English, Esperanto "ĉu"
without its hat is chat's "see you", and Esperanto "kiel", Twi "hwan" and Tswana "efe" are
names of a city and of people): they
anchor nothing, and they mark a message as written in one of those languages."""
STOP_WORDS = (
    ENGLISH_STOP_WORDS
    | _LATIN_FUNCTION_WORDS
    | frozenset(
        """
    die war la un es son con sin hay le des o as um
    что кто как где когда почему какой какая какие это этот эта мы наш наша наши для про
    при над под или не ли же уже ещё есть был была было нас нам вас вам её их мне меня
    всё все так да нет
    ما من هو هي في عن على إلى الى هل كيف ماذا لماذا متى أين التي الذي هذا هذه مع لنا
    και το τα τη την της του των τον οι ένα μια μου σου μας σας για να με σε στο στη στην
    στα στον από πώς πως τι ποιος ποια ποιο πότε πού γιατί είναι ήταν δεν θα αν ή που αυτό
    αυτή έχει έχουμε πόσο πόσα ακόμα επίσης αλλά ότι
    है हैं था थी थे का की के में को से पर और या भी नहीं क्या कैसे कब कहाँ क्यों कौन कितना
    कितने कितनी यह वह ये वो हम मैं मुझे हमारे हमारा हमारी आप तो ही एक लिए कोई कुछ वाला वाली
    """.split()  # noqa: SIM905, RUF001 - a word list reads better as text; Greek is Greek
    )
)
_OTHER_LATIN_STOPS = _LATIN_FUNCTION_WORDS | frozenset(
    """
    ich sie lo se al de cuánto cuántos cuánta cuántas du au ce na em ao quanto
    porfa gracias hola kurz
    """.split()  # noqa: SIM905 - a word list reads better as text
)
"""What marks a message as written in another language in Latin letters
(:func:`other_language`): the function words above and a few more; "die", "la" or "son" are
English words too."""


_ACCENTED = re.compile("[¿¡\u00c0-\u00ff\u0100-\u024f\u1e00-\u1eff]")
"""Spanish question marks and Latin letters with accents, which English words lack
(Vietnamese's "ơ", "ư" and "ạ" among them)."""


def in_latin_script(word: str) -> bool:
    """Every character of the word is ASCII or a Latin letter with an accent (:data:`_ACCENTED`:
    "siðunni", "fila" as well as "page")."""
    return all(ch.isascii() or _ACCENTED.match(ch) is not None for ch in word)


_ENGLISH_SHORT = frozenset(
    "the of to is it we my me us an or if up am in on at vs per near".split()  # noqa: SIM905
)
"""English words of a question that :data:`ENGLISH_STOP_WORDS` leaves out (short function words,
"vs", "per", "near"), but "a" and "i", which other languages write as often."""
_ENGLISH_MARKS = ENGLISH_STOP_WORDS | _ENGLISH_SHORT


def english_words(said: Iterable[str]) -> frozenset[str]:
    """The words (folded, as :func:`words` gives them) that are English function words: a
    message in Latin letters with none but a title's own ("remote work policy") is in another
    language, even one whose own function words no list here holds ("… dehan saida kona-ba
    ita-nia tinan primeiru?", Tetum)."""
    return _ENGLISH_MARKS.intersection(said)


def other_language(text: str) -> bool:
    """Whether a message in Latin script is in another language than English: two of its
    words are function words of another language (:data:`_LATIN_FUNCTION_WORDS`), or one is
    and it writes a letter English does not ("förderantrag bayern: wie viele halsbänder?")."""
    found = len(_OTHER_LATIN_FOLDED & set(words(text)))
    return found >= 2 or (found == 1 and _ACCENTED.search(text) is not None)


GENERIC_WORDS = frozenset(
    """
    next last previous recent recently current upcoming early earlier late later latest soon ago
    month months morning mornings evening evenings night nights tonight weekend weekends hour
    hours minute minutes second seconds moment season spring summer autumn fall winter daily
    monday tuesday wednesday thursday friday saturday sunday january february march april may
    june july august september october november december
    many several few number numbers lot lots amount whole full half little big small large
    long short high low old young quick quickly fast slow easy hard simple different same
    nice great fine real actual actually usual usually normal normally general generally
    keep kept go going goes went come coming came take taking took put run running ran try
    trying tried start started stop stopped end ended set ask asked send sent talk talked
    said hold held wait fix fixed check checked remind remember forget forgot happen happened
    happens look looking looked see seen saw call called bring brought leave left stay
    people person someone somebody everyone anyone place places part parts kind sort type
    side point points case cases example reason reasons question questions answer answers
    unrelated random quick another else again first second third last final
    two three four five six seven eight nine ten hundred thousand million
    made makes making decide decided choose chose chosen wrote written turn turned gave
    given done went gone told asks asking says saying goes
    lately nowadays page pages pull grab fetch doc docs link
    takeaway takeaways main key gist summary summarise summarize recap overview highlights
    detail details contact yet bit prep prepping sit sits item items
    plain words terms layman laymans eli5 nutshell briefly
    """.split()  # noqa: SIM905 - a word list reads better as text
)
"""Words that go with anything: time, size, quantity, common verbs and nouns, words
asking for a page or its gist ("pls pull up the keystone auth page", "whats up with fernseed
lately", "the main takeaway", "who's our contact there") and words for how an answer should
be put ("in plain words", "in layman's terms"). A pair of them ("next month") finds
pages about nothing the message asks (``pairs``), and they say nothing about what a message
is about (``gate``'s title-used-elsewhere rule)."""

_UNSPACED_CLASS = "".join(f"{chr(low)}-{chr(high)}" for low, high in _UNSPACED)
_RUNS = re.compile(f"[{_UNSPACED_CLASS}]+|[^{_UNSPACED_CLASS}]+")
_ANY_UNSPACED = re.compile(f"[{_UNSPACED_CLASS}]")


_ANY_SOUTHEAST_ASIAN = re.compile(
    "[" + "".join(f"{chr(a)}-{chr(b)}" for a, b in _SOUTHEAST_ASIAN) + "]"
)


def in_southeast_asian_script(text: str) -> bool:
    """Whether ``text`` holds a letter of Thai, Lao, Burmese or Khmer."""
    return _ANY_SOUTHEAST_ASIAN.search(text) is not None


def is_unspaced(ch: str) -> bool:
    """Whether ``ch`` belongs to a script written without spaces between words."""
    return bool(ch) and not ch.isascii() and _ANY_UNSPACED.match(ch) is not None


_ARABIC_FORMS = str.maketrans(
    {
        "\u06cc": "\u064a",  # Persian yeh: the Arabic ya
        "\u0649": "\u064a",  # alef maksura: a final ya written without its dots
        "\u06a9": "\u0643",  # Persian keheh: the Arabic kaf
        "\u0629": "\u0647",  # teh marbuta: the heh it is read as at a word's end
        "\u0640": None,  # tatweel: a stretch of the line, no letter
    }
)
"""Arabic letters written more than one way, as one. People type the Persian forms of ya and
kaf for the Arabic ones and the reverse ("لیلی" for the "ليلى" a title writes) and leave a
final ya's dots off; the hamza on an alef, a waw or a ya is a mark, dropped with the vowels."""


def _marks_dropped(base: str) -> bool:
    """Marks on this letter are read past: accents on Latin letters, and the vowel signs and
    hamza of Arabic and the points of Hebrew, which some people write and most leave out."""
    code = ord(base)
    return code < 0x0250 or 0x0590 <= code < 0x0700


_INDIC_JOINER = re.compile("(?<=[\u0900-\u0dff])[\u200c\u200d](?=[\u0900-\u0dff])")
"""A zero-width joiner or non-joiner between two letters of the scripts of South Asia: it only
shapes them ("ಲಿಂಡ್\u200cಗ್ರೆನ್" is one word, *Lindgren*). In Persian a non-joiner parts a
word from its suffix, and stays."""


def joined(text: str) -> str:
    """The text without the joiners inside words of the scripts of South Asia."""
    return _INDIC_JOINER.sub("", text)


def fold(text: str) -> str:
    """Case-folded, NFKC text with the accents of Latin letters and the marks of Arabic and
    Hebrew letters dropped, an Arabic letter written several ways written one way
    (:data:`_ARABIC_FORMS`), and the joiners inside a South Asian word left out (:func:`joined`)."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", joined(text).casefold())
    kept: list[str] = []
    base = ""
    for ch in decomposed:
        if unicodedata.combining(ch):
            if base and _marks_dropped(base):
                continue
        else:
            base = ch
        kept.append(ch)
    return unicodedata.normalize("NFKC", "".join(kept)).translate(_ARABIC_FORMS)


_GLUED_PREFIX = re.compile(
    "(?<![^\\W_])(?:"
    "nezve|nezva|kuma|veku|vaku|yase|zase|lase|kwa|kwe|ngo|nge|nga"
    "|mu|ku|pa|ne|na|ye|ya|yo|we|wa|ve|va|ka|ko|no|si|e|u|m|n|h|t"
    ")(?=[A-Z][a-z])"
)
"""A prefix Shona, Zulu and Xhosa write joined to a capitalised name or title ("muOffice
move notes": in the *Office move notes*; "nezveMarketing plan": about it; "eNairobi"), or a
letter Irish puts before one ("mBrand Refresh", "hAoine"). Not "i": English writes "iPhone"
and "iBeacon" so."""


def prefixes_parted(text: str) -> str:
    """``text`` with a glued prefix (:data:`_GLUED_PREFIX`) parted from the name it is joined
    to, so that the name is read as a word of its own."""
    return _GLUED_PREFIX.sub(r"\g<0> ", text)


_HANGUL = "\u1100-\u11ff\u3130-\u318f\uac00-\ud7af"
_HANGUL_PARTS = re.compile(f"[{_HANGUL}]+|[^{_HANGUL}]+")
"""Korean is written with spaces, but its particles join the word before, Latin names and
figures too ("Lin Chen이", "Roadmap 2026에서"): a word is cut where Hangul starts or ends."""


def _split(token: str) -> Iterator[tuple[str, bool]]:
    """A letter-digit run cut where it moves into or out of an unspaced script, or of
    Hangul."""
    if token.isascii():
        yield token, False
        return
    for run in _RUNS.findall(token):
        if is_unspaced(run[0]):
            yield run, True
        else:
            for part in _HANGUL_PARTS.findall(run):
                yield part, False


_NEGATED = re.compile(r"\b[a-z]+n['\u2019]t\b")
"""A negated auxiliary ("wasn't", "don't", "couldn't"): read as nothing, not as "wasn"."""


def _tokens(text: str) -> Iterator[tuple[str, bool]]:
    for match in _TOKEN.finditer(_NEGATED.sub(" ", fold(text))):
        yield from _split(match.group(0))


def words(text: str) -> list[str]:
    """The folded words of spaced scripts, in order (unspaced runs left out)."""
    return [token for token, unspaced in _tokens(text) if not unspaced]


_WORD_OR_MARK = re.compile(rf"{_TOKEN.pattern}|[^\w\s]")


def words_and_marks(text: str) -> list[str]:
    """The folded words and marks of punctuation, in order, each one token, negations
    kept: what stands between two words is read ("maya angelou" against "maya, angelou")."""
    return _WORD_OR_MARK.findall(fold(text))


def unspaced_runs(text: str) -> list[str]:
    """The folded runs of unspaced scripts, in order."""
    return [token for token, unspaced in _tokens(text) if unspaced]


def compact(text: str) -> str:
    """Folded text without spaces or punctuation: what a title's run is looked for in."""
    return "".join(token for token, _ in _tokens(text))


FORMS_OF_ADDRESS = frozenset(
    fold(word)
    for word in """
    mr mrs ms miss dr prof herr frau señor señora sr sra srta monsieur madame mme mlle
    signor signora senhor senhora
    """.split()  # noqa: SIM905 - a word list reads better as text
)
"""Words written before a surname in Latin script ("Herr Müller", "Dr Okafor"), folded."""
HONORIFICS = ("さん", "様", "さま", "氏", "先生", "くん", "ちゃん")
"""Japanese honorifics: what follows a name, often its first characters only ("佐藤さん")."""


def run_in(run: str, text: str) -> bool:
    """Whether a title's unspaced run is in a message's :func:`compact` text: whole, with
    the particle の between two of its words ("東京出張のメモ" for 東京出張メモ), or its
    first characters before an honorific ("佐藤さん" for 佐藤由紀)."""
    if run in text or ("の" in text and run in text.replace("の", "")):
        return True
    return any(run[:k] + h in text for k in range(2, len(run)) for h in HONORIFICS)


_CYRILLIC = re.compile("[\u0400-\u04ff]")
_RUSSIAN = snowballstemmer.stemmer("russian")
_RUSSIAN_LOCK = threading.Lock()
"""A Snowball stemmer keeps its working string in the object: one thread at a time."""


@lru_cache(maxsize=4096)
def _russian(word: str) -> str:
    with _RUSSIAN_LOCK:
        return str(_RUSSIAN.stemWord(word))


def stem(word: str) -> str:
    """A small suffix stripper: "updates", "updated" and "update" meet at "updat". Words in
    Cyrillic go through Snowball's Russian stemmer: names are declined ("про Ольгу
    Смирнову" for *Ольга Смирнова*)."""
    if not word.isascii() and _CYRILLIC.match(word):
        return _russian(word)
    for suffix in ("ing", "es", "ed", "s"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            word = word[: -len(suffix)]
            break
    if len(word) > 3 and word.endswith("y") and word[-2] not in "aeiouy":
        return word[:-1] + "i"  # "battery" meets "batteries" and "studied" meets "study"
    return word[:-1] if len(word) > 4 and word.endswith("e") else word


STEMS_VERSION = 14
"""Bumped when :func:`stem`, the stop words or the cutting of words change: stem counts kept
on disk (the title vocabulary, the title index) were made with other stems and are made again
or ignored."""
STOP_STEMS = frozenset(stem(fold(w)) for w in STOP_WORDS)
_OTHER_LATIN_FOLDED = frozenset(fold(w) for w in _OTHER_LATIN_STOPS)
GENERIC_STEMS = frozenset(stem(fold(w)) for w in GENERIC_WORDS)


def content_stem(word: str) -> str | None:
    """The stem a folded word of a spaced script anchors by (3+ letters or a short code
    such as "q3", not filler), or None."""
    if len(word) >= 3 or _SHORT_CODE.fullmatch(word):
        root = stem(word)
        return None if root in STOP_STEMS else root
    return None


_POSSESSIVE = re.compile("(?<=[^\\W_])['\u2019]s(?![^\\W_])")
"""A possessive "'s" ("maya's"), not a quote before a word ("what a 'sector' is")."""


def content_stems(text: str) -> set[str]:
    """:func:`content_stem` of the words of ``text``, and its unspaced runs of 2+
    characters, whole."""
    out: set[str] = set()
    for token, unspaced in _tokens(_POSSESSIVE.sub("", text)):
        if unspaced:
            if len(token) >= 2:
                out.add(token)
        elif root := content_stem(token):
            out.add(root)
    return out - STOP_STEMS


_NAME_WORD = r"[^\W\d_][\w'\u2019-]*"
"""A word as a name is written: a letter, then letters, digits, apostrophes or hyphens."""
_NAME = re.compile(rf"(?:(?<=[^\s.!?:;\n\"(¿¡\u300c\u300e\uff08])|(?<=\s[A-Z]\.))\s+({_NAME_WORD})")
"""A word after a space inside a sentence: not after a full stop, save one that ends an
initial ("Samuel L. Jackson")."""


def _capitalised_stems(found: Iterable[str]) -> set[str]:
    return content_stems(" ".join(w for w in found if w[0].isupper()))


def message_names(message: str) -> set[str]:
    """Stems of capitalised words inside a sentence (likely names: "Paris", "Nwosu",
    "Müller", "Москва"); scripts without case have none."""
    return _capitalised_stems(_NAME.findall(message))


def written_capitalised(message: str) -> set[str]:
    """Stems of every word written with a capital, first in a sentence or not ("Oakmoor
    audit prep", "Dumont's duckdb"): a name as it is written, wherever it stands, where
    :func:`message_names` leaves out a sentence's first word."""
    return _capitalised_stems(_WRITTEN.findall(message))


_WRITTEN = re.compile(_NAME_WORD)


_MENTION = re.compile(rf"(?<![\w.@])@({_NAME_WORD})")
"""A chat mention ("@Nadia", "@tomas"): a name wherever it stands and however it is
written, never the part of an address after its "@" ("maya@kestrel.works")."""


def mentions(message: str) -> set[str]:
    """Stems of the names the message mentions as a chat does ("@Nadia is that still
    true"): the people it is addressed to or copies in."""
    return content_stems(" ".join(_MENTION.findall(message)))


_ACRONYM = re.compile(r"\b([A-Z]{2,8})(?:s|'s|\u2019s)?\b")
_INITIAL_STOP = frozenset({"of", "and", "the", "for", "in", "on", "to", "a", "an", "&"})
ACRONYM_MIN = 3
"""Initials shorter than this ("AI", "IT", "US") name too many things to anchor a page."""


def initials_in(text: str) -> set[str]:
    """Every capitalised acronym in ``text``, folded, short ones too ("PRs" -> "pr"): what a
    page that writes it out mentions."""
    return {m.lower() for m in _ACRONYM.findall(text)}


_SPOKEN_ACRONYM = re.compile(r"(?<![\w'\u2019-])([bcdfghjklmnpqrstvwxz]{3,6})(?![\w'\u2019-])")
"""A word in lowercase of consonants only ("rrf", "hlc"): no English word is written so, so it
is initials typed or dictated without capitals ("rrf how does it combine the rankings")."""


def message_acronyms(message: str) -> set[str]:
    """Acronyms in the message, folded, a plural "s" dropped ("CRDTs" -> "crdt"): capitalised,
    or in lowercase of consonants only (:data:`_SPOKEN_ACRONYM`; "hlcs" -> "hlc" too)."""
    spoken = set(_SPOKEN_ACRONYM.findall(message))
    spoken |= {m[:-1] for m in spoken if m.endswith("s")}
    return {m for m in initials_in(message) | spoken if len(m) >= ACRONYM_MIN}


_VERSION = re.compile(r"(?<![\w.])[vV]?(\d+(?:\.\d+)+)(?!\w|\.\w)")
"""A version number: digits joined by dots, maybe after a "v" ("2.4", "v3.0", "1.2.3")."""


def versions(text: str) -> set[str]:
    """The version numbers written in ``text`` ("Beacon 2.4", "v3.0"), without the "v".
    Dates in dots ("12.03.2026") read as versions too; a date in a title is written with
    dashes."""
    return set(_VERSION.findall(text))


_HYPHENATED = re.compile(r"[\s\-\u2010-\u2015/]+")
"""What parts a title into words for its initials: spaces, hyphens and dashes, slashes."""


def _heads(parts: Iterable[str]) -> list[str]:
    """The first word of each part that has one."""
    return [found[0] for found in (words(part) for part in parts) if found]


def acronyms(title: str) -> set[str]:
    """The initials a title may be written as, folded: with hyphenated parts as words or
    not, with or without small words ("Retrieval-Augmented Generation" -> "rag";
    "Conflict-free Replicated Data Types" -> "crdt"), and an acronym the title spells
    out itself ("Retrieval-Augmented Generation (RAG)")."""
    out = {m.lower() for m in _ACRONYM.findall(title) if len(m) >= ACRONYM_MIN}
    plain = re.sub(r"\([^)]*\)", " ", title)
    for parts in (_HYPHENATED.split(plain), plain.split()):
        heads = _heads(parts)
        for kept in (heads, [w for w in heads if w not in _INITIAL_STOP]):
            initials = "".join(w[0] for w in kept if w[0].isascii() and w[0].isalpha())
            if len(kept) >= 2 and ACRONYM_MIN <= len(initials) <= 8:
                out.add(initials)
    return out


def initials_written(text: str, title: str) -> bool:
    """Whether ``text`` writes in capitals the initials of ``title``'s words ("HLC" for
    *Hybrid Logical Clocks*): not an acronym the title holds as a word of its own ("FAQ for
    my airbnb guests" only shares a word with *FAQ for rangers*). Initials the title gives in
    parentheses are its own words' ("RAG" for *Retrieval-Augmented Generation (RAG)*)."""
    bare = re.sub(r"\([^)]*\)", " ", title)
    return bool(initials_in(text) & acronyms(title) - initials_in(bare))


def abbreviated(title: str, initials: set[str]) -> list[set[str]]:
    """For each run of two or more of the title's words whose initials are in ``initials``,
    the stems of the title's other words: "SSO for conservancy staff" names *Single sign-on
    for conservancy staff* when the message holds "conservancy" and "staff" too."""
    heads = _heads(_HYPHENATED.split(re.sub(r"\([^)]*\)", " ", title.split(":", 1)[-1])))
    out = []
    for i in range(len(heads)):
        for j in range(i + 2, len(heads) + 1):
            run = "".join(w[0] for w in heads[i:j])
            if len(run) < ACRONYM_MIN or run not in initials:
                continue
            if rest := content_stems(" ".join(heads[:i] + heads[j:])):
                out.append(rest)
    return out


def spelt_out(initials: Iterable[str], text: str) -> set[str]:
    """The acronyms of ``initials`` (folded, as :func:`message_acronyms` gives them) that
    ``text`` writes out as words side by side, small words skipped or not ("DPAs" in "drafted
    the data processing agreements")."""
    said = words(text)
    content = [w for w in said if w not in _INITIAL_STOP]
    found = set()
    for acronym in initials:
        n = len(acronym)
        for sequence in (said, content):
            heads = "".join(w[0] for w in sequence)
            if any(heads[i : i + n] == acronym for i in range(len(heads) - n + 1)):
                found.add(acronym)
    return found


SLIP_MIN = 5
"""Shorter words are never taken for a slip of another: short names differ by a letter
("Ana", "Ann")."""


def slips(word: str) -> set[str]:
    """``word`` with one letter left out: two words one slip apart ("lindquist",
    "lindqvist") share one of these, or one is the other's (:func:`near` decides)."""
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


def near(a: str, b: str) -> bool:
    """One typing slip apart: a letter changed, added, left out, or two swapped, in a
    word :data:`SLIP_MIN` long or more ("Noak" for "Novak")."""
    if a == b or max(len(a), len(b)) < SLIP_MIN or min(len(a), len(b)) < SLIP_MIN - 1:
        return False
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) != len(b):
        short, long_ = sorted((a, b), key=len)
        return short in slips(long_)
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    if len(diff) == 1:
        return True
    i = diff[0]
    return len(diff) == 2 and diff[1] == i + 1 and a[i] == b[i + 1] and a[i + 1] == b[i]


def mended(title: str, said: Iterable[str], wanted: Collection[str]) -> str | None:
    """The stem of the one word of a title of two or more that the message misspelt by a
    slip ("Lindquist" for "Lindqvist"), every other word of it being in the message;
    None otherwise. ``said``: the message's words (:func:`words`; slips are read on whole
    words, before a suffix is taken off), ``wanted``: its stems."""
    stems = content_stems(title)
    if len(stems) < 2:
        return None
    off = {(w, stem(w)) for w in words(title) if stem(w) in stems and stem(w) not in wanted}
    if len({s for _, s in off}) != 1:
        return None
    word, found = next(iter(off))
    return found if any(near(word, m) for m in said) else None


_RETYPED = re.compile("[\u0370-\u03ff\u0400-\u04ff]+")
"""Greek and Cyrillic words: names in them are written in Latin letters by another hand."""


def in_latin_letters(text: str) -> str:
    """``text`` with its Greek and Cyrillic words in Latin letters ("Николай Иванов" ->
    "Nikolay Ivanov", a slip off *Nikolai Ivanov*; "Ольга" -> "Olga"); ``""`` when it has
    none."""
    if not _RETYPED.search(text):
        return ""
    return _RETYPED.sub(lambda m: anyascii(m.group(0)).replace("'", ""), text)


def latin_among_others(text: str) -> set[str]:
    """Stems of the Latin words of a message written mostly in another script: names, as
    a capitalised word is in English ("Fernseed 分类器能识别多少种动物?")."""
    latin = [w for w in words(text) if w.isascii()]
    if not latin:
        return set()
    letters = sum(1 for ch in text if ch.isalpha())
    ascii_letters = sum(1 for ch in text if ch.isascii() and ch.isalpha())
    if ascii_letters * 2 >= letters:
        return set()
    return content_stems(" ".join(latin))


_TYPED_UMLAUT = re.compile(r"(?<=[a-z])([aou])e(?=[a-z])")


def umlauts_typed(text: str) -> str:
    """``text`` with German umlauts typed out ("Juergen Mueller") written as the folded
    title has them ("Jurgen Muller", from "Jürgen Müller"); ``""`` when it has none."""
    folded = fold(text)
    out = _TYPED_UMLAUT.sub(r"\1", folded)
    return out if out != folded else ""
