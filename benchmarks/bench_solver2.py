"""Benchmark of the two-player double-dummy solver (sim/solver/search2_nb.py, drivers_nb.py) and PIMC
player (sim/players/pimc2_nb.py).

A fixed set of random two-player deals (classic play rules unless --rules): the declarer's 12 cards
after taking a talon, the defender's 10 and the other talon's 2 (with --talon 3: 9 and 3). Timed
one at a time, after compiling everything once:

- the play from the deal's start (declarer on lead, no trump, no trick won, the other talon's
  points as last_bonus), the declarer having buried 2 (and, with talons of 3, given 1) of his 12
  cards at random: exact value, and a threshold test at the value (even deals) or the value + 1
  (odd deals), with nodes searched;
- best_discard2 over every discard of the 12 cards;
- the PIMC declarer's first card (pimc2_choose_card) and discard (pimc2_choose_discard) with
  sim.players.PIMC_WORLDS worlds, on the first --pimc-deals deals.

Prints median and p99 times (ms) and mean nodes.

    python benchmarks/bench_solver2.py [--deals 100] [--seed 2024] [--rules classic] [--talon 2] [--pimc-deals 20]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sim.game.play_nb import givable_cards, mask_points  # noqa: E402
from sim.game.rng_nb import state_from_seed  # noqa: E402
from sim.game.rules import load_rules  # noqa: E402
from sim.players import pimc2_nb  # noqa: E402
from sim.players.params import PIMC_WORLDS  # noqa: E402
from sim.players.pimc_nb import new_pimc_buffer  # noqa: E402
from sim.solver import core_nb, discard_nb, drivers_nb, search2_nb  # noqa: E402


def random_deals(n: int, seed: int, talon: int) -> list[tuple[int, int, int, int]]:
    """(declarer's 12 cards, the cards he keeps for the play, defender's hand, other talon) per deal;
    with talons of 3 the card he gives is already in the other talon."""
    rng = np.random.default_rng(seed)
    hand = 24 - 12 - talon
    out = []
    for _ in range(n):
        deck = [int(c) for c in rng.permutation(24)]
        given = 1 << deck[11] if talon == 3 else 0  # deck[hand:hand + 2] are buried
        out.append((sum(1 << c for c in deck[:12]), sum(1 << c for c in deck[:hand]),
                    sum(1 << c for c in deck[12:12 + hand]), sum(1 << c for c in deck[12 + hand:]) | given))
    return out


def run(deals, rules: np.ndarray, pimc_deals: int, log2_rows: int = 18) -> dict:
    st, work = core_nb.new_work()
    tt = core_nb.new_table(log2_rows)
    wbuf = new_pimc_buffer()
    rng = state_from_seed(1, (0,))
    fig: dict[str, tuple[list, list]] = {name: ([], []) for name in (
        "exact value", "threshold", "best_discard2", "pimc2 first card", "pimc2 discard")}

    def measure(name, fn):
        st[core_nb.ST_NODES] = 0
        t = time.perf_counter()
        result = fn()
        fig[name][0].append(time.perf_counter() - t)
        fig[name][1].append(st[core_nb.ST_NODES])
        return result

    def one(i, hand12, kept, defender, other, with_pimc):
        to_talon = bin(defender).count("1") == 9
        talon = other & ~hand12 if to_talon else other  # before the declarer gives his card
        core_nb.next_stamp(st, tt)
        search2_nb.set_position2(st, kept, defender, 0, -1, -1, 0, 0, mask_points(other))
        value = measure("exact value",
                        lambda: drivers_nb.exact_value2(st, rules, tt, work, 0))
        core_nb.next_stamp(st, tt)
        search2_nb.set_position2(st, kept, defender, 0, -1, -1, 0, 0, mask_points(other))
        target = value + (i % 2)
        yes = measure("threshold", lambda: drivers_nb.at_least2(st, rules, tt, work, target))
        if yes != (i % 2 == 0):
            raise SystemExit(f"deal {i}: exact value {value} and threshold test at {target} disagree")
        givable = givable_cards(hand12, rules)
        measure("best_discard2",
                lambda: discard_nb.best_discard2(hand12, defender, talon, to_talon, givable, rules, st, work, tt))
        if with_pimc:
            hands = np.array([kept, defender], dtype=np.int64)
            # The declarer knows what he buried and the card he gave to the other talon.
            known = np.array([0, other & hand12, hand12 & ~kept & ~other, 0], dtype=np.int64)
            counts = np.array([bin(defender).count("1"), bin(other).count("1"), 2], dtype=np.int64)
            zero2 = np.zeros(2, dtype=np.int64)
            measure("pimc2 first card", lambda: pimc2_nb.pimc2_choose_card(
                hands, 0, kept, zero2, 0, 0, -1, -1, -1, 0, 0, 0, 0, zero2, known, counts, PIMC_WORLDS, rules, rng, st,
                work, tt, wbuf))
            measure("pimc2 discard", lambda: pimc2_nb.pimc2_choose_discard(hand12, to_talon, givable, PIMC_WORLDS,
                                                                           rules, rng, st, work, tt, wbuf))

    one(0, *deals[0], True)  # compile (and warm) everything outside the timings
    for v in fig.values():
        v[0].clear()
        v[1].clear()
    for i, deal in enumerate(deals):
        one(i, *deal, i < pimc_deals)
    return fig


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--rules", default="classic", help="a preset name or a TOML file")
    ap.add_argument("--talon", type=int, default=2, choices=(2, 3), help="two_player_talon: cards in each talon")
    ap.add_argument("--pimc-deals", type=int, default=20)
    args = ap.parse_args()
    rules = load_rules(args.rules).to_array()
    deals = random_deals(args.deals, args.seed, args.talon)
    fig = run(deals, rules, args.pimc_deals)
    print(f"{args.deals} random two-player deals ({24 - 12 - args.talon}-card hands, talons of {args.talon}), "
          f"seed {args.seed}, rules {args.rules}; PIMC with {PIMC_WORLDS} worlds on "
          f"{min(args.pimc_deals, args.deals)} deals")
    print(f"{'search':<20}{'median ms':>11}{'p99 ms':>10}{'mean nodes':>13}")
    for name, (secs, nodes) in fig.items():
        if not secs:
            continue
        ms = np.array(secs) * 1e3
        print(f"{name:<20}{np.median(ms):>11.3f}{np.percentile(ms, 99):>10.3f}{np.mean(nodes):>13.0f}")


if __name__ == "__main__":
    main()
