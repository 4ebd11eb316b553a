"""A title's Latin words written in the scripts of South Asia, read back by their sounds."""

from __future__ import annotations

import pytest

from hermes_gbrain.recall.brahmic import brahmic_runs, title_brahmic


def _reads_as(title: str, message: str) -> set[str]:
    """The title's words (or two side by side) the message writes in another script."""
    runs = brahmic_runs(message)
    return {said for skeleton, said in title_brahmic(title.split()) if skeleton in runs}


@pytest.mark.parametrize(
    ("title", "message", "said"),
    [
        ("Beacon App", "બીકન એપમાં રેકોર્ડ્સ ક્યાં સેવ થાય છે?", {"Beacon", "Beacon App"}),  # Gujarati
        ("Marula Conservancy", "મારુલા કન્ઝર્વન્સીનો કોન્ટ્રાક્ટ", {"Marula", "Conservancy",
         "Marula Conservancy"}),  # a "z" written for the spoken "s", a genitive joined
        ("Data Retention Policy", "ਡਾਟਾ ਰਿਟੈਨਸ਼ਨ ਪਾਲਿਸੀ ਮੁਤਾਬਕ", {"Retention", "Policy",
         "Data Retention", "Retention Policy"}),  # Gurmukhi: "tion" as "shn", "c" as "s"
        ("Samuel Mwangi", "ਸੈਮੂਅਲ ਮਵਾਂਗੀ ਨੇ ਕੀ ਕਿਹਾ", {"Samuel", "Mwangi", "Samuel Mwangi"}),
        ("Kaito Mori", "કાઇટો મોરીનું ગનશોટ ડિટેક્ટર", {"Kaito Mori"}),  # short: two together
        ("Hiring pipeline", "ਹਾਇਰਿੰਗ ਪਾਈਪਲਾਈਨ ਵਿੱਚ", {"Hiring", "pipeline", "Hiring pipeline"}),
        ("Field handbook", "ਫ਼ੀਲਡ ਹੈਂਡਬੁੱਕ ਦਾ ਨਵਾਂ ਐਡੀਸ਼ਨ", {"Field", "handbook",
         "Field handbook"}),  # a nasal mark before "d", a doubled "k"
        ("Warehouse move", "વેરહાઉસ મૂવ ક્યારે પૂરો થશે?", {"Warehouse", "Warehouse move"}),
        ("Zoltan Kovacs", "ज़ोल्टन कोवाक्स से पूछो", {"Zoltan", "Kovacs", "Zoltan Kovacs"}),
        ("Rosa Ibarra", "রোজা ইবারা কোন কোন corridor-এ", {"Rosa Ibarra"}),  # Bengali
        ("Vera Lindgren", "ವೆರಾ ಲಿಂಡ್\u200cಗ್ರೆನ್ ಯಾವ committee ಗೆ chair?", {"Lindgren",
         "Vera Lindgren"}),  # Kannada: a joiner inside the word; "dg" before "r" is hard
        ("Ledger Lake", "ಲೆಡ್ಜರ್ ಲೇಕ್ pipeline ಯಾರ ಕೈಯಲ್ಲಿ?", {"Ledger",
         "Ledger Lake"}),  # "dg" before "e" written "ಡ್ಜ", "dj"
        ("Budget forecast", "बजट forecast", {"Budget"}),  # and written "ज", "j"
        ("Meadowlark Design Studio", "মিডোলাৰ্ক ডিজাইন ষ্টুডিঅ'ৰ বিলখন", {"Meadowlark",
         "Design", "Studio", "Meadowlark Design", "Design Studio"}),  # Assamese: its own
        # "r" and genitive; a "w" after a vowel and the "g" of "design" are not spoken
        ("Hiring pipeline", "হায়াৰিং পাইপলাইনত এতিয়া", {"Hiring", "pipeline",
         "Hiring pipeline"}),  # Assamese: "-ing" with the anusvara; "-ত", in
        ("Farid Haddad", "ފަރީދު ހައްދާދު ރަނގަޅުކުރި", {"Farid", "Haddad",
         "Farid Haddad"}),  # Dhivehi, in Thaana
        ("Savanna Trust", "ސަވަނާ ޓްރަސްޓަކީ ކޮންކަހަލަ", {"Savanna", "Trust",
         "Savanna Trust"}),  # with "-ކީ": what the sentence is about
        ("Jonah Reyes", "ޖޯނާ ރެޔެސް ކުރާ", {"Jonah Reyes"}),
        ("Quentin Dubois", "ކްވެންޓިން ޑުބުއާ", {"Quentin"}),  # an opening "qu" is "kv"
        ("Elena Vasquez", "एलेना वास्केज़ कौन है", {"Vasquez", "Elena Vasquez"}),  # inside: "k"
        ("Brightwater Ventures", "ब्राइटवाटर का निवेश", {"Brightwater"}),  # "gh" unspoken
    ],
)  # fmt: skip
def test_a_title_s_words_written_as_they_sound_read_as_the_title_s(
    title: str, message: str, said: set[str]
) -> None:
    assert _reads_as(title, message) == said


def test_a_plan_is_no_pipeline_and_a_word_too_short_reads_as_nothing() -> None:
    # vowels part "pipeline"'s two "p"s; "plan" has one
    assert _reads_as("Hiring plan", "ਹਾਇਰਿੰਗ ਪਾਈਪਲਾਈਨ ਵਿੱਚ") == {"Hiring"}
    assert _reads_as("Data room", "ਡਾਟਾ ਕਿੱਥੇ ਹੈ?") == set()  # "data" alone: two consonants
    # a letter without a consonant ("Series A fundraise") parts no two words
    assert _reads_as("Series A fundraise", "સિરીઝ A ફંડરેઝ") == {"Series", "fundraise",
                                                              "Series fundraise"}  # fmt: skip
    assert brahmic_runs("what is the beacon app?") == set()


def test_one_word_never_reads_as_two_words_of_a_title() -> None:
    # "मित्रस्य" (a friend's) has the consonants of *Mateo Rossi*, in one word: a name of two
    # words is written as two
    assert _reads_as("Mateo Rossi", "मम मित्रस्य विवाहः अग्रिममासे अस्ति") == set()
    assert _reads_as("Mateo Rossi", "मातेओ रोस्सी कौन है?") == {"Mateo Rossi"}
