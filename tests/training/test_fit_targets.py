"""The "contract" loss's targets against the arithmetic written out: twice the contract where the
declarer's points to come reach what he needs, plus half the points (in hundreds)."""

import numpy as np

from sim.players.learned_layout import D_CONTRACT, D_NEED, N_DENSE
from sim.training.fit import contract_targets


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
