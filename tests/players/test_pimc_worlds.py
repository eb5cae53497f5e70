"""The worlds a PIMC seat samples agree with what it knows: every seat gets exactly its number of
cards, the cards it is known to hold and none it cannot hold. A talon card the declarer gives
away is no longer known to be his (before 2026-12-01 the defenders still counted it as his, and
sampled worlds with a card too many for him and a stray card for the receiver)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.game.cards import parse_hand
from sim.game.play_nb import know_cards
from sim.game.rng_nb import state_from_seed
from sim.game.rules import HouseRules
from sim.players.pimc_nb import WB_HANDS, enter_world
from sim.players.seat_nb import seat_buffers


def _bit(card: str) -> int:
    return parse_hand(card, count=1, what="card")


@pytest.mark.parametrize("face_up", [True, False])
def test_a_given_talon_card_is_known_where_it_went(face_up):
    talon = parse_hand("AS 9H JD", count=3, what="talon")
    known = np.zeros(9, dtype=np.int64)
    g1, g2 = _bit("AS").bit_length() - 1, _bit("KC").bit_length() - 1  # seat 1 gets the talon's ace
    know_cards(known, 0, np.int64(talon), np.int64(g1), np.int64(g2), face_up)
    declarer_row_of = {viewer: int(known[3 * viewer]) for viewer in (1, 2)}
    assert declarer_row_of[1] == talon & ~_bit("AS")  # the receiver knows his own gift
    if face_up:
        assert declarer_row_of[2] == talon & ~_bit("AS")
        assert int(known[3 * 2 + 1]) == _bit("AS")
    else:  # the other defender cannot tell the ace went to seat 1
        assert declarer_row_of[2] == talon
        assert int(known[3 * 2 + 1]) == 0


@pytest.mark.parametrize("face_up", [True, False])
def test_every_world_deals_each_seat_its_number_of_cards(face_up):
    """The position of a PIMC deal whose worlds went wrong: the declarer gave the talon's card
    to seat 1, who still holds it two tricks from the end; seat 2 plays last to the trick."""
    rules = HouseRules().to_array()
    # Seat 0 (declarer) led card 6, seat 1 followed with 14; cards left: 0 {2, 3}, 1 {4, 15}, 2 {13, 16, 17}.
    hands = np.array([(1 << 2) | (1 << 3), (1 << 4) | (1 << 15), (1 << 13) | (1 << 16) | (1 << 17)], dtype=np.int64)
    trick = np.array([6, 14, 0], dtype=np.int64)
    talon = (1 << 2) | (1 << 3) | (1 << 15)
    known_all = np.zeros(9, dtype=np.int64)
    know_cards(known_all, 0, np.int64(talon), np.int64(15), np.int64(13), face_up)
    known = known_all[6:9].copy()
    played = ((1 << 24) - 1) & ~(int(hands[0]) | int(hands[1]) | int(hands[2]))  # the trick's cards included
    voids = np.array([0, 10, 9], dtype=np.int64)
    st, work, tt, wbuf = seat_buffers(14)
    rng = state_from_seed(3, (7,))
    for _ in range(50):
        enter_world(rng, hands, 2, known, played, voids, trick, 2, 0, 3, 0, -1, 0, 1, 0, rules, st, tt, wbuf)
        world = [int(wbuf[WB_HANDS + s]) for s in range(3)]
        assert [bin(h).count("1") for h in world] == [3, 3, 3]  # this trick's cards included
        assert not (world[0] & world[1]) and not (world[0] & world[2]) and not (world[1] & world[2])
        assert world[2] == int(hands[2])
        assert world[0] | world[1] == (int(hands[0]) | int(hands[1]) | (1 << 6) | (1 << 14))
        assert world[0] >> 6 & 1 and world[1] >> 14 & 1
