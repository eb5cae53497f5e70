"""The "contract" loss's targets against the arithmetic written out: twice the contract where the
declarer's points to come reach what he needs, plus half the points (in hundreds)."""

import numpy as np
import pytest

from sim.players.learned.layout import D_CONTRACT, D_NEED, N_DENSE
from sim.training.fit import contract_targets, parse_loss


def test_contract_targets_add_twice_the_contract_where_it_is_made():
    points = np.array([[25, 30, 50, -1], [0, 12, -1, -1], [40, 40, 60, 5]], dtype=np.float32)
    needs, contracts = [30, 0, 100], [120, 105, 160]
    mask = (points >= 0).astype(np.float32)
    dense = np.zeros((3, N_DENSE), dtype=np.float32)
    dense[:, D_NEED] = np.array(needs, dtype=np.float32) / 100
    dense[:, D_CONTRACT] = np.array(contracts, dtype=np.float32) / 100
    got = contract_targets(np.where(mask > 0, points / 100, 0), mask, dense)
    for i in range(3):
        for c in range(4):
            if points[i, c] < 0:
                assert got[i, c] == 0
                continue
            made = points[i, c] >= needs[i]
            want = (2 * contracts[i] * made + 0.5 * points[i, c]) / 100
            assert abs(got[i, c] - want) < 1e-6, (i, c, got[i, c], want)
    assert got[0, 0] < got[0, 1] and got[1, 0] > 2.0 and got[2, 2] < 1.0  # short, made already, not reached


def test_contract_w_weighs_the_made_contract_against_the_points():
    points = np.array([[25, 30, 50, -1]], dtype=np.float32)
    mask = (points >= 0).astype(np.float32)
    dense = np.zeros((1, N_DENSE), dtype=np.float32)
    dense[0, D_NEED], dense[0, D_CONTRACT] = 0.30, 1.20
    target = np.where(mask > 0, points / 100, 0)
    kind, made_weight, points_weight = parse_loss("contract:1.5")
    assert (kind, made_weight, points_weight) == ("contract", 1.5, 1.0)
    got = contract_targets(target, mask, dense, made_weight, points_weight)
    want = np.array([[0.25, 0.30 + 1.5 * 1.2, 0.50 + 1.5 * 1.2, 0]], dtype=np.float32)
    assert np.allclose(got, want, atol=1e-6)
    assert np.array_equal(contract_targets(target, mask, dense, *parse_loss("contract:0")[1:]), target)
    assert parse_loss("contract") == ("contract", 2.0, 0.5) and parse_loss("centred") == ("centred", 0.0, 1.0)


@pytest.mark.parametrize("bad", ["contract:", "contract:-1", "contract:11", "contract:nan", "contracts", "huber"])
def test_a_loss_not_known_is_refused_by_name(bad):
    with pytest.raises(ValueError, match=f"not {bad!r}"):
        parse_loss(bad)
