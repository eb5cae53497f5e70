"""pimc-inf's final contract by its discard's worlds (``contract_rule`` = 1,
``pimc_inf_nb.pimc_inf_contract``): hand-built world values give the contract of best mean result,
the margin lowers it, a hopeless deal is conceded only where a duplicate match counts the
concession cheaper, the barrel's contract is taken when made in half the worlds, the rule is the
default, and the heuristic's rule (``contract_rule`` 0, pimc-inf's before) ignores the values.
(The discard's values: test_pimc_inf.py.)"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from sim.game.rules import HouseRules
from sim.game.state_layout import G_ON_BARREL, G_SCORE, N_GAME_STATE
from sim.players.heuristic_nb import heuristic_contract
from sim.players.layout import CONTRACT_HEURISTIC, CONTRACT_WORLDS, H_CONTRACT_MARGIN, H_OPPONENT_WEIGHT
from sim.players.params import HeuristicParams, load_player_file, params_matrix
from sim.players.pimc_inf_nb import (
    CONTRACT_MARGIN,
    IB_N_VALUES,
    IB_VALUES,
    new_inference_buffers,
    pimc_inf_contract,
)
from sim.players.registry import PlayerError

HAND = np.int64(sum(1 << c for c in (0, 6, 12, 18, 1, 7, 13, 19)))  # no king and queen of a suit: no marriage
GS = np.zeros(N_GAME_STATE, dtype=np.int64)


def _prm(rule=CONTRACT_WORLDS, margin=0.0, house=None):
    return params_matrix(replace(HeuristicParams(), contract_rule=float(rule), contract_margin=margin),
                         house or HouseRules())


def _ibuf(values):
    ibuf = new_inference_buffers()[0]
    ibuf[IB_N_VALUES] = len(values)
    ibuf[IB_VALUES:IB_VALUES + len(values)] = values
    return ibuf


def _contract(values, bid=100, cap=200, can_concede=True, prm=None, gs=GS, house=None):
    house = house or HouseRules()
    return int(pimc_inf_contract(0, HAND, bid, cap, can_concede, gs, house.to_array(), _prm() if prm is None else prm,
                                 _ibuf(values)))


def test_the_contract_of_best_mean_result():
    assert _contract([150] * 20) == 150  # made in every world: as high as it is made
    assert _contract([150] * 20, cap=130) == 130  # ... within the cap
    assert _contract([152] * 20) == 150  # on the grid of 5
    # Half the worlds at 140 and half at 100: a raise wins 140 half the time and loses it half:
    # worth 0, against 100 sure at the bid.
    assert _contract([140] * 10 + [100] * 10) == 100
    # 18 of 20 at 140: 140 * 0.8 = 112 beats 100 sure; 16 of 20: 140 * 0.6 = 84 does not.
    assert _contract([140] * 18 + [100] * 2) == 140
    assert _contract([140] * 16 + [100] * 4) == 100


def test_the_margin_takes_points_off_every_world():
    assert _contract([150] * 20, prm=_prm(margin=10.0)) == 140
    assert _contract([150] * 20, prm=_prm(margin=-10.0)) == 160


def test_a_concession_as_a_duplicate_match_counts_it():
    # Classic: conceding 100 costs him 100 and gives each defender 50 (-150 against them). Played
    # and lost with 60 points, he loses 100 and the defenders share 60 (-130): he plays.
    assert _contract([60] * 20) == 100
    # With no point in any world the defenders share 120 (-160): he concedes, where he may.
    assert _contract([0] * 20) == -1
    assert _contract([0] * 20, can_concede=False) == 100
    # Weighing only his own result, losing 100 and conceding 100 are alike: he plays.
    prm = _prm()
    prm[0, H_OPPONENT_WEIGHT] = 0.0
    assert _contract([0] * 20, prm=prm) == 100
    # A margin makes every world worse for him: 40 points less 40 is no point.
    assert _contract([40] * 20, prm=_prm(margin=40.0)) == -1


def test_the_barrel_contract_when_made_in_half_the_worlds():
    gs = GS.copy()
    gs[G_ON_BARREL + 0] = 1
    gs[G_SCORE + 0] = 880
    # 120 takes him off the barrel: made in 12 worlds of 20 (worth 24 against 100 sure): taken.
    assert _contract([125] * 12 + [100] * 8, gs=gs) == 120
    assert _contract([125] * 12 + [100] * 8) == 100  # off the barrel, the bid
    # Made in 9 of 20: not taken; under barrel_failed_contract = stays, always (the cap allows).
    assert _contract([125] * 9 + [100] * 11, gs=gs) == 100
    stays = HouseRules(barrel_failed_contract="stays")
    assert _contract([125] * 9 + [100] * 11, gs=gs, prm=_prm(house=stays), house=stays) == 120
    assert _contract([125] * 9 + [100] * 11, gs=gs, cap=115, prm=_prm(house=stays), house=stays) == 100


@pytest.mark.parametrize("values", [[150] * 20, [0] * 20, [140] * 10 + [100] * 10])
def test_the_heuristic_rule_ignores_the_worlds(values):
    house = HouseRules()
    rules = house.to_array()
    prm = _prm(rule=CONTRACT_HEURISTIC)
    want = int(heuristic_contract(0, HAND, 100, 200, True, GS, rules, prm))
    assert _contract(values, prm=prm) == want
    # No values kept (a discard under the heuristic's rule): the heuristic's contract too.
    prm = _prm()
    assert int(pimc_inf_contract(0, HAND, 100, 200, True, GS, rules, prm, _ibuf([]))) == int(
        heuristic_contract(0, HAND, 100, 200, True, GS, rules, prm))


def test_the_worlds_rule_is_the_default():
    assert HeuristicParams().contract_rule == CONTRACT_WORLDS
    assert params_matrix(HeuristicParams(), HouseRules())[0, H_CONTRACT_MARGIN] == CONTRACT_MARGIN
    assert _contract([150] * 20, prm=params_matrix(HeuristicParams(), HouseRules())) == 145  # 150 less 2


@pytest.mark.parametrize("text, word", [("contract_rule = 2", "contract_rule"),
                                        ("contract_rule = 0.5", "contract_rule"),
                                        ("contract_margin = 500", "contract_margin")])
def test_bad_contract_parameters_are_refused_by_name(tmp_path, text, word):
    path = tmp_path / "p.toml"
    path.write_text(f'player = "pimc-inf"\n{text}\n')
    with pytest.raises(PlayerError, match=word):
        load_player_file(path, 3)


def test_a_player_file_sets_the_rule(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text('player = "pimc-inf"\ncontract_rule = 1\ncontract_margin = 12.5\n')
    _, params = load_player_file(path, 3)
    assert (params.contract_rule, params.contract_margin) == (CONTRACT_WORLDS, 12.5)
