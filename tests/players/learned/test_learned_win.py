"""The score-aware learned player (``learned-win``, ``sim/players/learned/win_nb.py``): its
decisions at score situations where the chance of winning and the expected points part ways, the
win-chance table it reads, and the one-line refusals."""

import dataclasses
import json

import numpy as np
import pytest

from sim import InputError
from sim.engine import BatchSpec
from sim.engine.workspace import new_game_state
from sim.game.rules import HouseRules, preset
from sim.game.state_layout import G_QUIET, G_SCORE
from sim.players.learned.bidding_nb import learned_bid, learned_contract, learned_dark
from sim.players.learned.cards_nb import new_learned_buffers
from sim.players.learned.layout import WIN_HEADER, WN_STATES
from sim.players.learned.win_nb import (
    dark_made_chance,
    learned_win_bid,
    learned_win_contract,
    learned_win_dark,
    win_chance,
    win_offset,
)
from sim.players.learned.win_table import WinTableError, load_win_table, win_block, win_table_for
from sim.players.params import learned_nets, params_matrix

SEATS = ("learned-win", "learned", "learned")


def seats_of(rules: HouseRules):
    """(parameter rows, nets, scratch, rules array) of a learned-win seat 0 beside learned seats."""
    prm = params_matrix(None, rules)
    net = learned_nets(SEATS, prm, 3, rules)
    return prm, net, new_learned_buffers(net)[1], rules.to_array()


def scores(*values):
    gs = new_game_state()
    for seat, v in enumerate(values):
        gs[G_SCORE + seat] = v
    return gs


def test_a_contract_that_lands_on_the_dump_truck_is_not_played():
    """Classic, 455 points: making 100 lands on 555 and the dump truck takes him to 0. The plain
    learned player plays 100 with this hand (its best expected points); the score-aware one raises
    to 105. At 300 it plays 100 as well, and with the dump truck off too: the truck is what moves it."""
    rules = preset("classic")
    prm, net, lbuf, r = seats_of(rules)
    hand = np.int64(0x942681)  # the 8 cards kept
    deal_value = 120.0
    at_455 = scores(455, 300, 300)
    assert learned_contract(0, hand, 100, 120, True, deal_value, at_455, r, prm, net, lbuf) == 100
    assert learned_win_contract(0, hand, 100, 120, True, deal_value, at_455, r, prm, net, lbuf) == 105
    assert learned_win_contract(0, hand, 100, 120, True, deal_value, scores(300, 300, 300), r, prm, net, lbuf) == 100
    no_truck = HouseRules.from_dict({**rules.to_dict(), "dump_truck": False}).to_array()
    assert learned_win_contract(0, hand, 100, 120, True, deal_value, at_455, no_truck, prm, net, lbuf) == 100


def test_the_third_deal_without_declaring_is_bid_under_online_rules():
    """Online (bolt_on = three_passes, each bolt 120 off): on his third deal in a row without
    declaring the score-aware player bids 105 with a hand the plain learned player passes; on his
    first such deal it passes too."""
    rules = preset("online")
    prm, net, lbuf, r = seats_of(rules)
    hand = np.int64(ONLINE_HAND)
    third = new_game_state()
    third[G_QUIET + 0] = 2
    first = new_game_state()
    assert learned_bid(0, hand, 2, 105, 120, third, r, prm, net, lbuf) == 0
    assert learned_win_bid(0, hand, 2, 105, 120, third, r, prm, net, lbuf) == 105
    assert learned_win_bid(0, hand, 2, 105, 120, first, r, prm, net, lbuf) == 0


def test_the_dark_game_is_taken_far_behind_and_refused_ahead():
    """tysyacha_1000 (the preset with the dark game; first hand may go dark from 240): at 280 against
    a leader at 640 (360 behind, short of the plain player's 400-point deficit) the score-aware
    player goes dark, the plain learned player does not; a leader at 600 against 160 does not. The
    playouts' mean dark result (-55.9 points, 120 doubled) is a made chance of 38%."""
    rules = preset("tysyacha_1000")
    prm, net, _, r = seats_of(rules)
    behind, ahead = scores(280, 640, 200), scores(600, 160, 160)
    assert learned_win_dark(0, behind, r, prm, net) == 1 and learned_dark(0, behind, r, prm, net) == 0
    assert learned_win_dark(0, ahead, r, prm, net) == 0
    assert dark_made_chance(-55.886799) == pytest.approx(0.3836, abs=1e-4)
    assert dark_made_chance(-1000.0) == 0.0 and dark_made_chance(1000.0) == 1.0


ONLINE_HAND = 0x82b009  # 7 cards: a hand the plain learned player passes at 105


def test_the_kernels_read_the_table_as_stored():
    """A bin's chance is read at its centre (40-point bins from -200: 0 to 39 is centred on 20), the
    opponents sorted, and a score at the target ends the game."""
    rules = preset("classic")
    prm, net, _, _ = seats_of(rules)
    off = win_offset(net, 0)
    assert off > 0 and win_offset(net, 1) == -1  # the plain learned seat's row holds no table
    w = net[0]
    s = int(w[off + WN_STATES])
    cube = w[off + WIN_HEADER:off + WIN_HEADER + s ** 3].reshape(s, s, s)
    own, lead, trail = 5, 12, 3  # bins of 0..39, 280..319, -80..-41
    centre = lambda b: -200 + 40 * b + 20  # noqa: E731
    assert win_chance(w, off, centre(own), False, centre(trail), False, centre(lead), False) == pytest.approx(
        float(cube[own, lead, trail]))
    assert win_chance(w, off, centre(own), True, centre(lead), False, centre(5), False) == pytest.approx(
        float(cube[s - 1, lead, 5]))
    halfway = win_chance(w, off, centre(own) + 20, False, centre(trail), False, centre(lead), False)
    assert halfway == pytest.approx((float(cube[own, lead, trail]) + float(cube[own + 1, lead, trail])) / 2)
    assert win_chance(w, off, 1000, False, 0, False, 0, False) == 1.0
    assert win_chance(w, off, 0, False, 1005, False, 0, False) == 0.0


def test_the_shipped_tables_are_whole():
    for name in ("classic", "online"):
        path = win_table_for(preset(name))
        block, meta = load_win_table(path)
        assert meta["rules"] == json.loads(json.dumps(preset(name).to_dict()))
        assert meta["games"] >= 10_000 and meta["players"] == ["learned"] * 3
        chances = block[WIN_HEADER:]
        assert ((chances >= 0) & (chances <= 1)).all() and chances.std() > 0.05


def test_refusals_name_what_is_missing():
    with pytest.raises(WinTableError, match="no win-chance table for these rules"):
        win_table_for(dataclasses.replace(preset("classic"), target=950))
    with pytest.raises(InputError, match="learned-win has no win-chance table"):
        BatchSpec(mode="games", n=1, rules=dataclasses.replace(preset("classic"), target=950), players=SEATS)
    with pytest.raises(WinTableError, match="does not fit its grid"):
        win_block(np.zeros((5, 5, 5)), (-200, 40, 880, 1000, 1, 0))
    with pytest.raises(WinTableError, match="cube"):
        win_block(np.zeros((28, 28)), (-200, 40, 880, 1000, 1, 0))
