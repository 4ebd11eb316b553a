"""Names in Arabic letters and in katakana read against names in Latin letters."""

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
        ("Maya Okafor", "マヤ・オカフォーさんは何をしていた\uff1f"),  # katakana drops the final "r"
        ("Lin Chen", "リン・チェンの担当は\uff1f"),  # and reads "l" as "r"
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
    ],
)
def test_another_name_or_too_little_reads_as_nothing(name: str, message: str) -> None:
    assert not _reads_as(name, message)
