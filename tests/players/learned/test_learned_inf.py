"""The ``learned-inf`` player: the learned player whose search of its last cards draws its worlds as
pimc-inf does (``pimc_inf_nb.pimc_inf_choose_card``: candidates weighed by the other seats' calls).
It bids, gives and plays the net's cards as ``learned`` does, so the two differ only once the seat
searches; its worlds come from the stream keyed by the position, so its card is a function of what
it sees (no stream of the chunk read); the same seed plays the same deals on any thread count."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from sim.engine import DEAL_STREAM, BatchSpec, chunk_rng, solver_buffers
from sim.engine.chunks_nb import run_deals
from sim.engine.schema import (
    D_BID,
    D_CONCEDED,
    D_CONTRACT,
    D_DECLARER,
    D_GIFT,
    D_WINNING_BID,
    N_DEAL_COLUMNS,
    N_PLAYS,
)
from sim.engine.workspace import new_game_state, new_workspace
from sim.game.rules import load_rules
from sim.players.params import HeuristicParams, learned_nets, load_player_file, params_matrix
from sim.players.registry import PlayerError, is_learned, parse_players, player_codes, reads_nets
from sim.runs import run_batch, scan_deals
from sim.streams import CHUNK_PLAYERS, POSITIONS_PLAYERS


def _play(players, params, rules, deals, seed, play_stream=CHUNK_PLAYERS):
    rec = np.zeros((deals, N_DEAL_COLUMNS), dtype=np.int32)
    plays = np.zeros((deals, N_PLAYS), dtype=np.int8)
    prm = params_matrix(params, rules)
    net = learned_nets(players, prm, rules.players)
    n = run_deals(chunk_rng(seed, 0, play_stream), chunk_rng(seed, 0, DEAL_STREAM), rules.to_array(),
                  player_codes(players), prm, 0, deals, rec, plays, new_game_state(), new_workspace(),
                  np.zeros(1, dtype=np.int64), solver_buffers(players, net))
    assert n == deals
    return rec, plays


@pytest.mark.parametrize("preset", ["classic", "online"])
def test_the_card_is_a_function_of_the_position(preset):
    # The same deals under two different play streams: learned-inf seats searching (with their
    # inference) from 6 cards play them identically, their worlds drawn from the stream keyed by the
    # position; pimc-inf seats, which draw from the chunk's stream, do not.
    rules = load_rules(preset)
    searching = dataclasses.replace(HeuristicParams(), search_cards=6, search_worlds=4, pimc_worlds=4)
    players = ("learned-inf", "learned-inf", "learned-inf")
    a = _play(players, searching, rules, 12, 5)
    b = _play(players, searching, rules, 12, 5, play_stream=POSITIONS_PLAYERS)
    assert np.array_equal(a[1], b[1]) and np.array_equal(a[0], b[0])
    inf = ("pimc-inf",) * 3
    assert not np.array_equal(_play(inf, searching, rules, 12, 5)[1],
                              _play(inf, searching, rules, 12, 5, play_stream=POSITIONS_PLAYERS)[1])


def test_it_differs_from_learned_only_in_the_search():
    # The same deals as learned and as learned-inf (the shipped search, its last three cards over
    # 6 worlds): the auctions, contracts, gifts and the first five tricks are the same, and some
    # deals differ after them, where the weighed worlds change the search's card.
    rules = load_rules("classic")
    # (the third seat the heuristic player, which draws no stream: a pimc seat's draws would follow
    # the cards played before it and move the next deals' gifts)
    rec_a, plays_a = _play(("learned", "heuristic", "learned"), HeuristicParams(), rules, 200, 21)
    rec_b, plays_b = _play(("learned-inf", "heuristic", "learned-inf"), HeuristicParams(), rules, 200, 21)
    for cols in (slice(D_BID, D_BID + 3), slice(D_GIFT, D_GIFT + 3), D_DECLARER, D_WINNING_BID, D_CONTRACT,
                 D_CONCEDED):
        assert np.array_equal(rec_a[:, cols], rec_b[:, cols]), cols
    first_search_play = 3 * (8 - 3)
    assert np.array_equal(plays_a[:, :first_search_play], plays_b[:, :first_search_play])
    assert not np.array_equal(plays_a, plays_b)


def test_with_every_weight_alike_it_is_learned():
    # Temperature 0 (only what the calls make certain) and one candidate a world, under rules where
    # no bid is ever above a hand's cap (no_bid_cap: a bid above 120 needs no marriage): every
    # weight is alike, the worlds are learned's own, and so are the cards.
    rules = dataclasses.replace(load_rules("classic"), no_bid_cap=True)
    flat = dataclasses.replace(HeuristicParams(), inference_temperature=0.0, inference_candidates=1)
    a = _play(("learned", "heuristic", "learned"), flat, rules, 150, 9)
    b = _play(("learned-inf", "heuristic", "learned-inf"), flat, rules, 150, 9)
    assert np.array_equal(a[1], b[1]) and np.array_equal(a[0], b[0])


def test_same_seed_same_deals_whatever_the_workers(tmp_path):
    spec = BatchSpec(mode="deals", n=40, seed=17, chunk_size=10, players=("learned-inf", "pimc", "learned"))
    run_batch(spec, tmp_path / "one", workers=1)
    run_batch(spec, tmp_path / "two", workers=2)
    deals_one = scan_deals(tmp_path / "one").collect().sort("game", "deal")
    deals_two = scan_deals(tmp_path / "two").collect().sort("game", "deal")
    assert deals_one.height == 40 and deals_one.equals(deals_two)


def test_it_is_a_learned_player_of_three_and_four_players(tmp_path):
    assert parse_players("learned-inf") == ("learned-inf",) * 3
    assert is_learned("learned-inf") and reads_nets("learned-inf")
    with pytest.raises(PlayerError, match="the learned player plays 3 and 4 players"):
        parse_players("learned-inf,heuristic", n=2)
    warm = tmp_path / "warm.toml"
    warm.write_text('player = "learned-inf"\ninference_temperature = 1\nsearch_cards = 4\n')
    kind, params = load_player_file(warm, 3)
    assert kind == "learned-inf" and (params.inference_temperature, params.search_cards) == (1.0, 4.0)
