import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.game.cards import (
    CardError,
    card_index,
    format_card,
    format_hand,
    hand_points,
    marriage_suits,
    mask_to_cards,
    parse_card,
    parse_hand,
)


def test_canonical_encoding():
    # index = 6 × suit + rank, suits S C D H, ranks 9 J Q K T A
    assert parse_card("9S") == 0
    assert parse_card("AS") == 5
    assert parse_card("9C") == 6
    assert parse_card("KH") == card_index(3, 3) == 21
    assert parse_card("AH") == 23


@pytest.mark.parametrize("text", ["10h", "TH", "th", "10♥", "T♥"])
def test_ten_spellings(text):
    assert parse_card(text) == parse_card("TH")


def test_any_separator_and_case():
    a = parse_hand("AH TH KH QH 9S JC AD")
    assert parse_hand("ah,th;kh  qh,9s jc ad") == a
    assert parse_hand("AHTHKHQH9SJCAD") == a
    assert format_hand(a) == "AH TH KH QH AD JC 9S"


@given(st.sets(st.integers(0, 23), min_size=1, max_size=24))
def test_round_trip(cards):
    mask = sum(1 << c for c in cards)
    assert parse_hand(format_hand(mask)) == mask
    assert mask_to_cards(mask) == sorted(cards)


@pytest.mark.parametrize("bad", ["AX", "1H", "ZZ", "KHH", "11S"])
def test_malformed_card_named(bad):
    with pytest.raises(CardError, match="malformed card"):
        parse_hand(f"AH {bad}")


def test_duplicate_named():
    with pytest.raises(CardError, match="duplicate card AH"):
        parse_hand("AH KH ah")


def test_wrong_count_named():
    with pytest.raises(CardError, match="has 6 cards; expected 7"):
        parse_hand("AH KH QH JH 9H TH", count=7)


def test_points_and_marriages():
    assert hand_points(parse_hand("AH TH KH QH JH 9H")) == 30
    assert marriage_suits(parse_hand("KH QH KS QS KD")) == [0, 3]
    assert format_card(parse_card("QD")) == "QD"


def test_emoji_suits_are_read_and_look_alike_letters_named():
    from sim.game.cards import CardError, format_hand, parse_card

    # Phones add an emoji presentation selector (U+FE0F) after a suit symbol.
    assert format_hand(parse_hand("A\u2665\ufe0f K\u2665\ufe0f Q\u2665\ufe0f")) == "AH KH QH"
    assert format_hand(parse_hand("A\u2665\ufe0fK\u2665\ufe0f")) == "AH KH"
    for text, name in (("\u0422H", "CYRILLIC CAPITAL LETTER TE"), ("\u0410S", "CYRILLIC CAPITAL LETTER A"),
                       ("K\u2661", "WHITE HEART SUIT")):
        with pytest.raises(CardError, match=name):
            parse_card(text)
