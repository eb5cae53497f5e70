"""The PIMC choices computed the obvious way, the twins of ``sim.players.pimc_nb``'s kernels:
every candidate's exact value in every world, summed; the best sum wins, the first in order on
ties. The worlds are drawn by the same kernels from the same generator state, so for a given
state the fast kernels must choose exactly what these do."""

from __future__ import annotations

from sim.players.pimc_nb import WB_HANDS, WB_MOVES, discard_candidates, discard_world, enter_world, take_candidates
from sim.solver import core_nb, drivers_nb, search3_nb


def pimc_card(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner, pending, declarer, won, unsecured,
              played, voids, known, n_worlds, rules, rng, st, work, tt, wbuf) -> int:
    """The move code (card, with its declaration flag) of the best summed exact value."""
    sums: list[int] = []
    moves: list[int] = []
    for w in range(max(1, n_worlds)):
        enter_world(rng, hands, seat, known, played, voids, trick, n_in_trick, leader, trump, trump_owner, pending,
                    declarer, won, unsecured, rules, st, tt, wbuf)
        if w == 0:
            n = take_candidates(work, st[core_nb.ST_PLY], search3_nb.generate_moves(st, rules, work, False), legal,
                                wbuf)
            moves = [int(wbuf[WB_MOVES + i]) for i in range(n)]
            sums = [0] * n
            if n == 1:
                break
        for i, move in enumerate(moves):
            sums[i] += int(drivers_nb.move_value(st, rules, tt, work, move, -1))
    return moves[_first_best(sums, seat == declarer)]


def pimc_discard(hand10, known1, known2, n_worlds, rules, rng, st, work, tt, wbuf) -> tuple[int, int]:
    """(card to the next seat, card to the one after) of the best summed exact value."""
    n = discard_candidates(hand10, known1, known2, n_worlds, rules, rng, st, work, tt, wbuf, wbuf, 0)
    codes = [int(wbuf[WB_MOVES + i]) for i in range(n)]
    sums = [0] * n
    if n > 1:
        for _ in range(max(1, n_worlds)):
            discard_world(rng, hand10, known1, known2, wbuf)
            core_nb.next_stamp(st, tt)
            for i, code in enumerate(codes):
                a, b = divmod(code, 24)
                search3_nb.set_position(st, hand10 & ~(1 << a) & ~(1 << b), wbuf[WB_HANDS + 1] | (1 << a),
                                       wbuf[WB_HANDS + 2] | (1 << b), 0, -1, -1, 0, 0)
                sums[i] += int(drivers_nb.exact_value(st, rules, tt, work, 0))
    return divmod(codes[_first_best(sums, True)], 24)


def _first_best(sums: list[int], maximise: bool) -> int:
    target = max(sums) if maximise else min(sums)
    return sums.index(target)
