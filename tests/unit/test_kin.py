"""The table of kin words is read as the gate reads messages."""

from __future__ import annotations

from hermes_gbrain.recall import kin
from hermes_gbrain.recall.words import fold, stem, words


def test_every_kin_word_is_one_word_as_messages_are_read() -> None:
    for line in kin._GROUPS.strip().splitlines():
        for word in line.split():
            assert words(word) == [word], word  # no hyphen, no capital, no accent
        assert len({stem(fold(w)) for w in line.split()}) >= 2, line  # not one stem alone


def test_kin_counts_a_word_once_and_never_beside_its_kin() -> None:
    phone, mobile, remote = stem("phone"), stem("mobile"), stem("remotely")
    assert kin.kin_in({phone, stem("build")}, {mobile, stem("build")}) == {phone: {mobile}}
    assert kin.kin_in({phone, mobile}, {mobile}) == {}  # "mobile phone": the page's own word
    assert kin.kin_in({stem("home")}, {remote, stem("remote")}) == {
        stem("home"): {remote, stem("remote")}
    }
    assert kin.kin_in({stem("lego")}, {mobile}) == {}
