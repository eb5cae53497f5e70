"""The straightforward double-dummy search the solver is measured against: alpha-beta over single
card plays with a transposition table at trick starts (bounds, keyed by the whole state), moves in
card order, no move ordering, no quick bounds, no equivalent-card reduction. It plays the same rules
with the same state helpers as ``sim.solver.search3_nb``, so both compute the same values.
"""

from sim.game.bits_nb import popcount
from sim.numba_config import jit_hot
from sim.solver.core_nb import (
    INFINITE,
    ST_K,
    ST_LEADER,
    ST_NODES,
    ST_OWNER,
    ST_PLY,
    ST_STAMP,
    ST_TRUMP,
    ST_UNSECURED,
    ST_WON,
    TT_NO_UPPER,
    TT_VALUE_BITS,
    play_lead,
    save_position,
    tt_find,
    tt_store,
)
from sim.solver.search3_nb import generate_moves, play_follow


@jit_hot
def _plain_keys(st):
    ka = (st[0] | (st[1] << 24) | (st[ST_LEADER] << 48) | ((st[ST_TRUMP] + 1) << 50) | (st[ST_WON] << 53)
          | ((st[ST_OWNER] + 1) << 56))
    return ka, st[2] | (st[ST_UNSECURED] << 24)


@jit_hot
def baseline_search(st, rules, tt, work, alpha, beta):
    st[ST_NODES] += 1
    k = st[ST_K]
    ka = 0
    kb = 0
    if k == 0:
        if st[0] == 0:
            return 0
        ka, kb = _plain_keys(st)
        row = tt_find(tt, st[ST_STAMP], ka, kb)
        if row >= 0:
            data = tt[row, 2]
            lower = data & TT_NO_UPPER
            upper = (data >> TT_VALUE_BITS) & TT_NO_UPPER
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            if lower == upper:
                return lower
    ply = st[ST_PLY]
    n = generate_moves(st, rules, work, False)
    seat = (st[ST_LEADER] + k) % 3
    maximise = seat == 0
    best = -INFINITE if maximise else INFINITE
    a = alpha
    b = beta
    saved = save_position(st)
    st[ST_PLY] = ply + 1
    for i in range(n):
        move = work[ply, i]
        gain = play_lead(st, rules, move) if k == 0 else play_follow(st, move)
        v = gain + baseline_search(st, rules, tt, work, a - gain, b - gain)
        for j in range(ST_PLY):  # the state fields 0..ST_PLY-1, in order
            st[j] = saved[j]
        if maximise:
            best = max(best, v)
            if best >= b:
                break
            a = max(a, best)
        else:
            best = min(best, v)
            if best <= a:
                break
            b = min(b, best)
    st[ST_PLY] = ply
    if k == 0:
        lower = best if best > alpha else 0
        upper = best if best < beta else TT_NO_UPPER
        tt_store(tt, st[ST_STAMP], ka, kb, lower, upper, -1, popcount(st[0]))
    return best
