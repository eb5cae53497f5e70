"""PIMC speed on one core (machines here are noisy: compare ratios within one run).

1. Whole deals: bidding, the declarer's discard and every card by PIMC in all three seats, the
   default number of worlds, deals a second.
2. Card decisions by trick: positions from deals the heuristic player played (classic rules),
   replayed card by card; at each, ``pimc`` and ``every value`` choose with the same generator
   state: time per decision and nodes searched per decision. ``every value`` is the exact player as
   it was before it proved its choice from bounds, every candidate's value computed in every world
   (its naive twin, ``tests/reference_pimc.py``, whose card pimc must always match: the last column).

Until 0.9.1 this also timed the sequential ``pimc-fast``, an experiment that lost strength and left
the product; its figures stay in docs/pimc.md, its code at commit 92c9419.

    python benchmarks/bench_pimc.py [--deals 30] [--positions 80] [--repeats 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from sim.engine import DEAL_STREAM, BatchSpec, chunk_rng, play_chunk, solver_buffers
from sim.engine.chunks_nb import run_deals
from sim.engine.schema import N_DEAL_COLUMNS, N_PLAYS
from sim.engine.workspace import new_game_state, new_workspace
from sim.game.cards import CARD_POINTS, KING, MARRIAGE_MASK, QUEEN
from sim.game.play_nb import LEAD_WITHOUT_DECLARING, beats, know_cards, legal_follows, points_to_make
from sim.game.rng_nb import state_from_seed
from sim.game.rules import HouseRules
from sim.players.params import PIMC_WORLDS, params_matrix
from sim.players.registry import player_codes
from sim.solver.core_nb import ST_NODES

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import reference_pimc  # noqa: E402  (the naive twin of the exact player)

DECIDERS = ("every value", "pimc")


def whole_deals(name: str, n: int, rules: HouseRules):
    """A closure playing ``n`` deals by ``name`` in every seat on one thread."""
    rules_arr = rules.to_array()
    prm = params_matrix(rules=rules)
    rec = np.zeros((n, N_DEAL_COLUMNS), dtype=np.int32)
    plays = np.zeros((n, N_PLAYS), dtype=np.int8)
    ws, gs, no_script = new_workspace(), new_game_state(), np.zeros(1, dtype=np.int64)
    solver = solver_buffers((name,))
    codes = player_codes((name,) * 3)

    def run():
        return run_deals(chunk_rng(3, 0), chunk_rng(3, 0, DEAL_STREAM), rules_arr, codes, prm, 0, n, rec, plays, gs, ws,
                         no_script, solver)

    return run


def declared_deals(n_deals: int, seed: int):
    """(row, declarer, every seat's 8 cards after the discard) of each of ``n_deals`` deals of the
    heuristic player under the classic rules that had a declarer and were played out."""
    deals, _ = play_chunk(BatchSpec(mode="deals", n=n_deals, seed=seed, chunk_size=n_deals), 0)
    for row in deals.iter_rows(named=True):
        d = row["declarer"]
        if d < 0 or row["redeal"] or row["conceded"]:
            continue
        left, right = (d + 1) % 3, (d + 2) % 3
        hands = [row[f"hand{s}"] for s in range(3)]
        hands[d] = (hands[d] | row["talon"]) & ~(1 << row[f"gift{left}"]) & ~(1 << row[f"gift{right}"])
        hands[left] |= 1 << row[f"gift{left}"]
        hands[right] |= 1 << row[f"gift{right}"]
        yield row, d, hands


def positions(n_deals: int, seed: int = 5) -> list[dict]:
    """Every card decision with a choice (two legal cards or more) of ``n_deals`` played deals of
    the heuristic player under the classic rules, as the engine shows them to a PIMC seat."""
    rules = HouseRules()
    rules_arr = rules.to_array()
    out = []
    for row, d, hands in declared_deals(n_deals * 3, seed):
        gifts = [row[f"gift{s}"] for s in range(3)]
        left, right = (d + 1) % 3, (d + 2) % 3
        known_all = np.zeros(9, dtype=np.int64)
        know_cards(known_all, d, np.int64(row["talon"]), np.int64(gifts[left]), np.int64(gifts[right]), True)
        leader, trump, owner, played, won = d, -1, -1, 0, 0
        banked = 0  # the declarer's card points and marriages so far
        tricks = [0, 0, 0]
        voids = [0, 0, 0]
        plays = list(row["plays"])
        for t in range(8):
            trick = []
            win_card, win_seat = -1, -1
            for k in range(3):
                p = (leader + k) % 3
                choice = int(plays[3 * t + k])
                card = choice & ~LEAD_WITHOUT_DECLARING
                if k == 0:
                    legal = hands[p]
                else:
                    legal = int(legal_follows(np.int64(hands[p]), trick[0] // 6, np.int64(win_card), np.int64(trump),
                                              False))
                if legal & (legal - 1):
                    out.append({"trick": t, "hands": np.array(hands, dtype=np.int64), "seat": p, "legal": legal,
                                "cards": np.array(trick + [0] * (3 - len(trick)), dtype=np.int64), "k": k,
                                "leader": leader, "trump": trump, "owner": owner, "declarer": d, "won": won,
                                "played": played, "voids": np.array(voids, dtype=np.int64),
                                "known": known_all[3 * p:3 * p + 3].copy(),
                                "need": int(points_to_make(row["contract"], banked, rules_arr))})
                if k == 0:
                    s = card // 6
                    if (tricks[p] > 0 and card == choice and card % 6 in (KING, QUEEN)
                            and hands[p] & int(MARRIAGE_MASK[s]) == int(MARRIAGE_MASK[s])):
                        trump, owner = s, p  # a declared marriage
                        banked += rules.marriage_values[s] if p == d else 0
                    win_card, win_seat = card, p
                else:
                    if card // 6 != trick[0] // 6:
                        voids[p] |= 1 << (trick[0] // 6)
                        if trump >= 0 and card // 6 != trump:
                            voids[p] |= 1 << trump
                    if beats(np.int64(card), np.int64(win_card), np.int64(trump)):
                        win_card, win_seat = card, p
                trick.append(card)
                hands[p] &= ~(1 << card)
                played |= 1 << card
            tricks[win_seat] += 1
            won |= 1 << win_seat
            if win_seat == d:
                banked += sum(int(CARD_POINTS[c]) for c in trick)
            leader = win_seat
    return out


def decide(name: str, pos: dict, worlds: int, rules_arr, buffers, seed: int):
    """(card, seconds, nodes) of ``name`` (``DECIDERS``) at ``pos``."""
    from sim.players.pimc_nb import pimc_choose_card

    st, work, tt, wbuf = buffers
    st[ST_NODES] = 0
    rng = state_from_seed(seed, (7,))
    args = (pos["hands"], pos["seat"], pos["legal"], pos["cards"], pos["k"], pos["leader"], pos["trump"], pos["owner"],
            -1, pos["declarer"], pos["won"], 0, pos["played"], pos["voids"], pos["known"])
    t = time.perf_counter()
    if name == "every value":
        card = reference_pimc.pimc_card(*args, worlds, rules_arr, rng, st, work, tt, wbuf) & 31
    else:
        card, _ = pimc_choose_card(*args, worlds, rules_arr, rng, st, work, tt, wbuf)
    return card, time.perf_counter() - t, int(st[ST_NODES])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=30, help="whole deals of pimc per timing")
    ap.add_argument("--positions", type=int, default=80, help="deals whose card decisions are timed")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--worlds", type=int, default=PIMC_WORLDS)
    args = ap.parse_args()
    rules = HouseRules()
    whole_deals("pimc", 2, rules)()  # compile or load from the cache
    run = whole_deals("pimc", args.deals, rules)
    speed = []
    for _ in range(args.repeats):
        t = time.perf_counter()
        run()
        speed.append(args.deals / (time.perf_counter() - t))
    print(f"whole PIMC deals on one core ({args.worlds} worlds, every seat PIMC; best of {args.repeats}):")
    print(f"  {'pimc':<11} {max(speed):8.1f} deals/s  (median {statistics.median(speed):.1f})")

    pos = positions(args.positions)
    rules_arr = rules.to_array()
    from sim.players.seat_nb import seat_buffers
    from sim.solver import PIMC_TABLE_LOG2_ROWS

    buffers = seat_buffers(PIMC_TABLE_LOG2_ROWS)
    for name in DECIDERS:
        decide(name, pos[0], args.worlds, rules_arr, buffers, 0)
    by_trick = {(name, t): [] for name in DECIDERS for t in range(8)}
    exact = [[] for _ in range(8)]
    for i, p in enumerate(pos):
        chosen = {}
        for name in DECIDERS:
            card, dt, nodes = decide(name, p, args.worlds, rules_arr, buffers, i)
            by_trick[(name, p["trick"])].append((dt, nodes))
            chosen[name] = card
        exact[p["trick"]].append(chosen["every value"] == chosen["pimc"])
    print(f"\ncard decisions with a choice, {len(pos)} positions from {args.positions} heuristic deals "
          f"({args.worlds} worlds; mean per decision; 'every value' runs its world loop in Python):")
    print(f"  {'trick':<6}{'n':>5}" + "".join(f"{name + ' ms':>17}{name + ' nodes':>19}" for name in DECIDERS)
          + f"{'pimc = every value':>20}")
    for t in range(8):
        if not exact[t]:
            continue  # the last trick: every card is forced
        cells = ""
        for name in DECIDERS:
            xs = by_trick[(name, t)]
            cells += f"{1e3 * statistics.mean(x[0] for x in xs):>17.2f}{statistics.mean(x[1] for x in xs):>19,.0f}"
        print(f"  {t + 1:<6}{len(exact[t]):>5}{cells}{statistics.mean(exact[t]):>20.0%}")
    tot = {name: sum(x[0] for t in range(8) for x in by_trick[(name, t)]) for name in DECIDERS}
    nodes = {name: sum(x[1] for t in range(8) for x in by_trick[(name, t)]) for name in DECIDERS}
    print(f"  all decisions: pimc searches {nodes['every value'] / nodes['pimc']:.1f}x fewer nodes than every value "
          f"({tot['every value'] / tot['pimc']:.1f}x less time)")


if __name__ == "__main__":
    main()
