"""The learned player's teacher: the exact double-dummy value of every legal card of a stored
position (``layout`` P_* rows), in the true deal or averaged over worlds drawn as the
PIMC player draws them (``pimc_nb.enter_world``). A value is the declarer's points still to
come after the card, this trick's included when he wins it (``sim.solver``); a card whose lead
declares is valued by its declaring move, as the learned player always declares.
"""

import numpy as np

from sim.game import rules_layout as R
from sim.game.play_nb import pending_trump
from sim.numba_config import jit, jit_hot
from sim.players.learned.layout import (
    P_DECLARER,
    P_HAND,
    P_KNOWN,
    P_LEADER,
    P_LEGAL,
    P_MARRIAGE_POINTS,
    P_MARRIAGES,
    P_N_IN_TRICK,
    P_OWNER,
    P_PLAYED,
    P_SEAT,
    P_TRICK,
    P_TRICKS,
    P_TRUMP,
    P_VOIDS,
)
from sim.players.pimc_nb import (
    CANDIDATE_MOVE,
    NO_HAND,
    VALUE_CEILING,
    WB_HANDS,
    WB_MOVES,
    candidate_exact,
    enter_world,
    set_world,
    take_candidates,
)
from sim.solver.core_nb import DECLARE_FLAG, ST_NODES, ST_PLY
from sim.solver.search3_nb import generate_moves

NO_LABEL = -1.0  # an illegal card's value


@jit_hot
def _world_values(row, rules, st, work, tt, wbuf, sums, seen):
    """Add each legal card's exact value in the world the solver is set on to ``sums`` (the
    declaring move's value where a card has two); ``seen[c]`` counts the worlds that valued c."""
    n = take_candidates(work, st[ST_PLY], generate_moves(st, rules, work, False), row[P_LEGAL], wbuf)
    for i in range(n):
        move = wbuf[WB_MOVES + i]
        c = move & 31
        declares = (move & DECLARE_FLAG) != 0
        if not declares and _has_declaring_twin(wbuf, n, c):
            continue
        sums[c] += candidate_exact(i, 0, VALUE_CEILING, CANDIDATE_MOVE, NO_HAND, rules, st, work, tt, wbuf)
        seen[c] += 1


@jit_hot
def _has_declaring_twin(wbuf, n, card):
    for i in range(n):
        move = wbuf[WB_MOVES + i]
        if (move & 31) == card and (move & DECLARE_FLAG) != 0:
            return True
    return False


@jit
def label_positions(pos, k_worlds, rules, rng, st, work, tt, wbuf, values, nodes):
    """For each row of ``pos``: ``values[i, c]`` = card c's exact value (float32, mean over the
    worlds), NO_LABEL for cards that are not legal; ``nodes[i]`` the solver's nodes. ``k_worlds``
    0: the true deal (every hand as it was); k > 0: k worlds consistent with what the seat knows,
    drawn with ``rng``."""
    sums = np.zeros(24, dtype=np.int64)
    seen = np.zeros(24, dtype=np.int64)
    hands = np.zeros(3, dtype=np.int64)
    for i in range(pos.shape[0]):
        row = pos[i]
        seat = row[P_SEAT]
        declarer = row[P_DECLARER]
        leader = row[P_LEADER]
        n_in_trick = row[P_N_IN_TRICK]
        trick = row[P_TRICK:P_TRICK + 2]
        won = np.int64(0)
        for q in range(3):
            won |= (row[P_TRICKS + q] > 0) << q
        burning = rules[R.MARRIAGE_BURNS_WITHOUT_TRICK] and row[P_TRICKS + declarer] == 0
        unsecured = row[P_MARRIAGE_POINTS + declarer] if burning else 0
        pending = np.int64(-1)
        if n_in_trick > 0:
            pending = pending_trump(row[P_HAND + leader], trick[0], row[P_MARRIAGES + leader], rules)
        sums[:] = 0
        seen[:] = 0
        before = st[ST_NODES]
        if k_worlds == 0:
            wh = wbuf[WB_HANDS:WB_HANDS + 3]
            for q in range(3):
                wh[q] = row[P_HAND + q]
            for j in range(n_in_trick):
                wh[(leader + j) % 3] |= np.int64(1) << trick[j]
            set_world(wh, trick, n_in_trick, leader, row[P_TRUMP], row[P_OWNER], pending, declarer, won, unsecured,
                      rules, st, tt)
            _world_values(row, rules, st, work, tt, wbuf, sums, seen)
        else:
            for q in range(3):
                hands[q] = row[P_HAND + q]
            for _w in range(k_worlds):
                enter_world(rng, hands, seat, row[P_KNOWN:P_KNOWN + 3], row[P_PLAYED], row[P_VOIDS:P_VOIDS + 3], trick,
                            n_in_trick, leader, row[P_TRUMP], row[P_OWNER], pending, declarer, won, unsecured, rules,
                            st, tt, wbuf)
                _world_values(row, rules, st, work, tt, wbuf, sums, seen)
        nodes[i] = st[ST_NODES] - before
        for c in range(24):
            values[i, c] = np.float32(sums[c]) / np.float32(seen[c]) if seen[c] > 0 else np.float32(NO_LABEL)
