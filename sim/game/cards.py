"""Cards in the canonical encoding and the text notation of RULES.md §1.

Card index = 6 × suit + rank, suits S C D H = 0..3, ranks 9 J Q K T A = 0..5; a hand is a
24-bit mask held in a ``uint32``. Within a suit a higher index is a stronger card (the ten beats
the king).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

import numpy as np

from sim import InputError

__all__ = [
    "SUITS", "SUIT_SYMBOLS", "RANKS", "NINE", "JACK", "QUEEN", "KING", "TEN", "ACE", "RANK_POINTS", "N_CARDS",
    "FULL_DECK", "CARD_POINTS", "SUIT_MASK", "RANK_MASK", "MARRIAGE_MASK", "HALF_MARRIAGE_MASK", "ACES_MASK",
    "CardError", "card_index", "parse_card", "suit_index", "parse_cards", "parse_hand", "cards_to_mask",
    "mask_to_cards", "format_card", "format_hand", "ascii_suits", "hand_points", "marriage_suits",
]

SUITS = "SCDH"
SUIT_SYMBOLS = "♠♣♦♥"  # the symbol of each suit, in the order of SUITS
RANKS = "9JQKTA"
NINE, JACK, QUEEN, KING, TEN, ACE = range(6)  # rank indices
RANK_POINTS = (0, 2, 3, 4, 10, 11)
N_CARDS = 24
FULL_DECK = (1 << N_CARDS) - 1

# Card masks and points as int64 arrays: compiled kernels read them as constants.
CARD_POINTS = np.array([RANK_POINTS[c % 6] for c in range(N_CARDS)], dtype=np.int64)
SUIT_MASK = np.array([0x3F << (6 * s) for s in range(4)], dtype=np.int64)  # the six cards of each suit
RANK_MASK = np.array([sum(1 << (6 * s + r) for s in range(4)) for r in range(6)], dtype=np.int64)  # of each rank
MARRIAGE_MASK = np.array([0b001100 << (6 * s) for s in range(4)], dtype=np.int64)  # K and Q of each suit
HALF_MARRIAGE_MASK = np.array([0b000110 << (6 * s) for s in range(4)], dtype=np.int64)  # Q and J of each suit
ACES_MASK = np.int64(sum(1 << (6 * s + ACE) for s in range(4)))

_SUIT_OF_SYMBOL = dict(zip(SUIT_SYMBOLS, SUITS, strict=True))
_CARD_RE = re.compile(r"^(10|[9JQKTA])([SCDH♠♣♦♥])$", re.IGNORECASE)
# Emoji presentation selectors that phones and chat programs add after ♠ ♣ ♦ ♥: not part of a card.
_INVISIBLE = dict.fromkeys(map(ord, "\ufe0e\ufe0f\u200b\u200c\u200d\u2060"))


class CardError(InputError):
    """A card, hand or layout written wrongly; the message names what is wrong."""


def card_index(suit: int, rank: int) -> int:
    return 6 * suit + rank


def parse_card(text: str) -> int:
    """One card such as ``AH``, ``10♦``, ``♥️``-style emoji suits or ``ts`` → its index. A letter that
    only looks Latin (a Cyrillic Т or А) is named in the error, since it may mean another rank."""
    m = _CARD_RE.match(text.strip().translate(_INVISIBLE))
    if not m:
        odd = [c for c in text.strip().translate(_INVISIBLE) if not c.isascii() and c not in SUIT_SYMBOLS]
        named = "; ".join(f"{c!r} is {unicodedata.name(c, f'U+{ord(c):04X}')}" for c in dict.fromkeys(odd))
        raise CardError(
            f"malformed card {text!r}: " + (f"{named}; " if named else "")
            + "write rank 9 J Q K T(10) A in Latin letters, then suit S C D H (or ♠ ♣ ♦ ♥)"
        )
    rank_text, suit_text = m.group(1).upper(), m.group(2).upper()
    rank = RANKS.index("T" if rank_text == "10" else rank_text)
    suit = SUITS.index(_SUIT_OF_SYMBOL.get(suit_text, suit_text))
    return card_index(suit, rank)


def suit_index(text: str) -> int | None:
    """A suit written as a letter S C D H (any case) or a symbol ♠ ♣ ♦ ♥ → 0..3; None if it is not
    a suit."""
    t = text.strip().upper()
    t = _SUIT_OF_SYMBOL.get(t, t)
    return SUITS.index(t) if len(t) == 1 and t in SUITS else None


def _words(text: str) -> list[str]:
    # Any separator: whitespace, commas, semicolons.
    return [w for w in re.split(r"[\s,;]+", text.strip().translate(_INVISIBLE)) if w]


def _word_cards(word: str) -> list[int]:
    """The cards of one word: one card, or cards written back to back (``AHKHQH``). An error names
    the whole word when it does not even start with a card (``extra``), else the piece that is not
    one and the word it is in."""
    if len(word) <= 3:
        return [parse_card(word)]
    pieces = re.findall(r"10.|..?", word)
    try:
        cards = [parse_card(pieces[0])]
    except CardError:
        parse_card(word)  # never a card (more than three characters): raises, naming the word
        raise
    for piece in pieces[1:]:
        try:
            cards.append(parse_card(piece))
        except CardError as exc:
            raise CardError(f"in {word!r}: {exc}") from None
    return cards


def parse_cards(text: str, *, count: int | None = None, what: str = "hand") -> list[int]:
    """Cards written in text → indices, refusing duplicates and (if given) a wrong count."""
    cards = [c for word in _words(text) for c in _word_cards(word)]
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            raise CardError(f"duplicate card {format_card(c)} in {what} {text!r}")
        seen.add(c)
    if count is not None and len(cards) != count:
        raise CardError(f"{what} {text!r} has {len(cards)} cards; expected {count}")
    return cards


def parse_hand(text: str, *, count: int | None = None, what: str = "hand") -> int:
    """Cards written in text → a hand mask."""
    return cards_to_mask(parse_cards(text, count=count, what=what))


def cards_to_mask(cards: Iterable[int]) -> int:
    mask = 0
    for c in cards:
        if not 0 <= int(c) < N_CARDS:
            raise CardError(f"card index {c} out of range 0..23")
        mask |= 1 << int(c)
    return mask


def mask_to_cards(mask: int) -> list[int]:
    """Indices of the cards in a mask, lowest first (iterating with ``x & -x``)."""
    mask = int(mask)
    if mask & ~FULL_DECK:
        raise CardError(f"mask {mask:#x} has bits outside the 24-card deck")
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def format_card(card: int) -> str:
    card = int(card)
    if not 0 <= card < N_CARDS:
        raise CardError(f"card index {card} out of range 0..23")
    return RANKS[card % 6] + SUITS[card // 6]


def format_hand(mask: int) -> str:
    """A mask → text, strongest suit (hearts) first and strongest card first within a suit."""
    cards = sorted(mask_to_cards(mask), key=lambda c: (-(c // 6), -(c % 6)))
    return " ".join(format_card(c) for c in cards)


# An output that cannot encode the suit symbols (a Latin-1 terminal) gets their letters instead.
_SUIT_LETTER_OF_SYMBOL = str.maketrans(SUIT_SYMBOLS, SUITS)


def ascii_suits(text: str) -> str:
    """``text`` with every suit symbol written as its letter (♥ → H), as card text is written for an
    output that cannot show the symbols."""
    return text.translate(_SUIT_LETTER_OF_SYMBOL)


def hand_points(mask: int) -> int:
    return int(sum(CARD_POINTS[c] for c in mask_to_cards(mask)))


def marriage_suits(mask: int) -> list[int]:
    """Suits in which the hand holds both king and queen."""
    return [s for s in range(4) if (mask >> (6 * s + QUEEN)) & 3 == 3]
