"""Where the learned player loses, decision by decision: on positions that learned seats reach in
deals of a seed no training round used, the points each decision gives away against the best
legal card by k-world labels (the value PIMC estimates: every legal card's exact value averaged
over k worlds drawn as PIMC draws them), by trick and by role, for the net, PIMC with 20 worlds
and a random legal card.

    python benchmarks/learned_regret.py [--weights sim/players/weights/learned-v4.npz] [--deals 400]
        [--positions 1000] [--worlds 32] [--rules classic] [--seed 999]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from sim.game import rules_layout as R
from sim.game.play_nb import pending_trump
from sim.game.rng_nb import state_from_seed
from sim.game.rules import load_rules
from sim.players.learned.cards_nb import best_legal, new_learned_buffers, position_features, q_forward
from sim.players.learned.layout import (
    MAX_ACTIVE,
    N_DENSE,
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
from sim.players.learned.weights import DEFAULT_WEIGHTS, weights_matrix
from sim.players.pimc_nb import pimc_choose_card
from sim.players.seat_nb import seat_buffers
from sim.training.labels import label
from sim.training.positions import generate_positions

ROLES = ("declarer", "defender after him", "other defender")


def regret(card: int, values: np.ndarray, role: int) -> float:
    legal = values >= 0
    return float(values[legal].max() - values[card] if role == 0 else values[card] - values[legal].min())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--weights", type=Path, default=DEFAULT_WEIGHTS)
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--worlds", type=int, default=32)
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--seed", type=int, default=999)
    args = ap.parse_args()
    rules = load_rules(args.rules)
    arr = rules.to_array()
    net, _ = weights_matrix([args.weights])
    pos, _ = generate_positions(rules, args.seed, 0, args.deals, net, 0, 0.0)
    rng = np.random.default_rng(args.seed)
    pos = pos[np.sort(rng.choice(len(pos), min(args.positions, len(pos)), replace=False))]
    values, _ = label(pos, rules, args.worlds, args.seed)
    lidx, lval, lbuf = np.zeros(MAX_ACTIVE, np.int64), np.zeros(N_DENSE, np.float32), new_learned_buffers()[1]
    st, work, tt, wbuf = seat_buffers(16)
    found = {name: np.zeros(len(pos)) for name in ("learned", "pimc, 20 worlds", "a random legal card")}
    trick = np.zeros(len(pos), dtype=np.int64)
    role = np.zeros(len(pos), dtype=np.int64)
    for i, row in enumerate(pos):
        r = (row[P_SEAT] - row[P_DECLARER]) % 3
        n = position_features(row, arr, lidx, lval)
        q_forward(net, 0, lidx, n, lval, r, lbuf)
        mine = best_legal(lbuf[3], row[P_LEGAL], r == 0)
        d = row[P_DECLARER]
        won = sum(1 << q for q in range(3) if row[P_TRICKS + q] > 0)
        burning = arr[R.MARRIAGE_BURNS_WITHOUT_TRICK] and row[P_TRICKS + d] == 0
        leader = row[P_LEADER]
        pending = pending_trump(row[P_HAND + leader], row[P_TRICK], row[P_MARRIAGES + leader], arr) \
            if row[P_N_IN_TRICK] else -1
        pimc, _ = pimc_choose_card(row[P_HAND:P_HAND + 3].copy(), row[P_SEAT], row[P_LEGAL],
                                   row[P_TRICK:P_TRICK + 2].copy(), row[P_N_IN_TRICK], leader, row[P_TRUMP],
                                   row[P_OWNER], pending, d, won, row[P_MARRIAGE_POINTS + d] if burning else 0,
                                   row[P_PLAYED],
                                   row[P_VOIDS:P_VOIDS + 3].copy(), row[P_KNOWN:P_KNOWN + 3].copy(), 20, arr,
                                   state_from_seed(args.seed, (i,)), st, work, tt, wbuf)
        legal = [c for c in range(24) if (int(row[P_LEGAL]) >> c) & 1]
        for name, card in (("learned", mine), ("pimc, 20 worlds", pimc),
                           ("a random legal card", legal[rng.integers(len(legal))])):
            found[name][i] = regret(card, values[i], r)
        trick[i] = int(row[P_PLAYED]).bit_count() // 3
        role[i] = r
    print(f"{len(pos):,} positions of {args.deals} deals (rules {args.rules}, seed {args.seed}); points a decision "
          f"lost against the best card by {args.worlds}-world labels")
    print(f"  {'':<22}" + "".join(f"trick {t + 1:<4}" for t in range(7)) + "all     " +
          "".join(f"{name[:14]:<16}" for name in ROLES))
    for name, r in found.items():
        by_trick = "".join(f"{r[trick == t].mean():<10.2f}" if (trick == t).any() else f"{'-':<10}" for t in range(7))
        by_role = "".join(f"{r[role == q].mean():<16.2f}" for q in range(3))
        print(f"  {name:<22}{by_trick}{r.mean():<8.2f}{by_role}")


if __name__ == "__main__":
    main()
