"""Experiment (issue 14): can a searched horizon with a static estimate beyond it replace exact values?

Nearly all of an exact solve's nodes lie in the last tricks (a whole deal's solve spends about
95% of its nodes from trick 4 on: printed below), so stopping the search at a horizon and
estimating the rest would cut most of PIMC's work. This script measures what that costs in
decisions:

1. The estimate: positions at trick starts with 5 and 4 cards a hand, reached by random legal
   play from heuristic deals, labelled with their exact double-dummy values; a least-squares fit
   of 16 features (points left and held, sure winners of each side, trumps, who leads, the
   declarer's marriages, the lead's sure points...) on one half, its error on the other.
   A copy of ``sim.solver.search3_nb`` with the horizon patched in (at a trick start with at most
   ``horizon`` cards a hand the search returns the estimate, clamped to [0, the quick upper
   bound]; the lead's sure-points cut-off is off, so values stay one consistent function). It
   is written to a temporary directory at run time: the project's solver stays exact.
2. Card decisions of tricks 1 and 2 (``bench_pimc.positions``): the card of ``pimc`` (20
   worlds), of ``pimc`` with 20 other worlds, and of the horizon values summed over pimc's 20
   worlds (every candidate's value, leaves 3 tricks below the decision), each judged by its
   regret against the values summed over 100 other worlds (exact): the points a decision loses
   to the best card.
3. The declarer's discard: pimc's candidates scored over 20 worlds with exact values and with
   horizons of 5 and 4 cards, regret against 100 other worlds.

    python benchmarks/experiment_horizon.py [--deals 3000] [--positions 20] [--discards 150]

Results of 2026-12-01 are in docs/pimc.md ("Why exact PIMC cannot reach 100 deals a second").
"""

from __future__ import annotations

import argparse
import importlib
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

from sim.game.rng_nb import state_from_seed
from sim.game.rules import HouseRules
from sim.players.pimc_nb import (
    WB_HANDS,
    WB_MOVES,
    discard_candidates,
    discard_world,
    enter_world,
    new_pimc_buffer,
    pimc_choose_card,
    take_candidates,
)
from sim.solver import core_nb, search3_nb

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_pimc import declared_deals, positions  # noqa: E402

N_FEATURES = 16
W_SCALE = 10_000  # the weights ride in the solver's int64 state, as fixed point

# The features and the estimate, appended to the patched copy of the solver (its names in scope).
ESTIMATE_SOURCE = '''

ST_HORIZON = N_ST_BASE
ST_WEIGHTS = N_ST_BASE + 1  # two rows of N_FEATURES weights: 5 cards a hand, then 4
ST_DEPTH = ST_WEIGHTS + 2 * N_FEATURES  # nodes searched at each ply below the root


@jit_hot
def masters(mine, theirs):
    """(points, count) of the cards of ``mine`` above every card of ``theirs`` in their suit."""
    points = 0.0
    count = 0.0
    for s in range(4):
        other = theirs & SUIT_MASK[s]
        x = mine & SUIT_MASK[s]
        while x:
            c = lowest_index(x)
            x &= x - 1
            if (other >> c) == 0:
                points += CARD_POINTS[c]
                count += 1
    return points, count


@jit_hot
def horizon_features(st, rules):
    """The estimate's features of a trick start, from the declarer's side."""
    h0 = st[0]
    h1 = st[1]
    h2 = st[2]
    d = h1 | h2
    trump = st[ST_TRUMP]
    lead0 = 1.0 if st[ST_LEADER] == 0 else 0.0
    rest = 0.0
    own = 0.0
    for c in range(24):
        b = np.int64(1) << c
        if (h0 | d) & b:
            rest += CARD_POINTS[c]
        if h0 & b:
            own += CARD_POINTS[c]
    masters0, n_masters0 = masters(h0, d)
    masters_d, n_masters_d = masters(d, h0)
    t0 = 0.0
    td = 0.0
    if trump >= 0:
        t0 = float(popcount(h0 & SUIT_MASK[trump]))
        td = float(popcount(h1 & SUIT_MASK[trump]) + popcount(h2 & SUIT_MASK[trump]))
    n = float(popcount(h0))
    comb = float(combination_bound(h0, rules))
    sure = float(sure_points(st, rules))
    return (1.0, rest, own, masters0, masters_d, t0 - td / 2, lead0, lead0 * rest, comb, float(_unsecured(st)),
            sure * lead0, sure * (1.0 - lead0), n_masters0 - n_masters_d / 2, 1.0 if trump >= 0 else 0.0,
            rest * (t0 - td / 2) / n, lead0 * comb)


@jit_hot
def horizon_estimate(st, rules):
    f = horizon_features(st, rules)
    row = ST_WEIGHTS + (0 if popcount(st[0]) >= 5 else N_FEATURES)
    v = 0.0
    for i in range(N_FEATURES):
        v += st[row + i] * f[i]
    return min(max(int(v / W_SCALE + 0.5), 0), upper_bound(st, rules))


@jit_hot
def features_into(st, rules, out):
    f = horizon_features(st, rules)
    for i in range(N_FEATURES):
        out[i] = f[i]
'''


def patched_solver(tmp: Path):
    """Import a copy of the solver with the horizon patched in."""
    src = (Path(search3_nb.__file__)).read_text()
    edits = [
        ("N_ST = 17",
         f"N_ST_BASE = 17\nN_FEATURES = {N_FEATURES}\nW_SCALE = {W_SCALE}\nN_ST = 17 + 1 + 2 * N_FEATURES + 25"),
        ("    st[ST_NODES] += 1\n", "    st[ST_NODES] += 1\n    st[ST_DEPTH + st[ST_PLY]] += 1\n"),
        ("        if h0 & (h0 - 1) == 0:\n            return _last_trick(st)\n",
         "        if h0 & (h0 - 1) == 0:\n            return _last_trick(st)\n"
         "        if st[ST_HORIZON] > 0 and popcount(h0) <= st[ST_HORIZON]:\n"
         "            return horizon_estimate(st, rules)\n"),
        ("        sure = sure_points(st, rules)\n",
         "        sure = sure_points(st, rules) if st[ST_HORIZON] == 0 else 0\n"),
    ]
    for old, new in edits:
        if src.count(old) != 1:
            sys.exit(f"experiment_horizon: sim/solver/search3_nb.py changed; cannot patch {old.strip()[:40]!r}")
        src = src.replace(old, new)
    (tmp / "search_horizon.py").write_text(src + ESTIMATE_SOURCE)
    sys.path.insert(0, str(tmp))
    return importlib.import_module("search_horizon")


def dealt_positions(n_deals: int, seed: int):
    """(the 8-card hands after the discard, the declarer's first; the declarer's 10 cards before
    it) of the heuristic deals of ``bench_pimc.declared_deals``."""
    rel, hands10 = [], []
    for row, d, hands in declared_deals(n_deals, seed):
        rel.append([hands[d], hands[(d + 1) % 3], hands[(d + 2) % 3]])
        hands10.append(row[f"hand{d}"] | row["talon"])
    return np.array(rel, dtype=np.int64), np.array(hands10, dtype=np.int64)


def make_kernels(H):
    @numba.njit
    def labelled_positions(rel_hands, n_cards, per_deal, seed, rules, X, y, st, work, tt):
        """Random legal play from each deal to a trick start with ``n_cards`` a hand: features and
        exact value (an LCG per position: reproducible, no shared state)."""
        k = 0
        for i in range(rel_hands.shape[0]):
            for rep in range(per_deal):
                x = np.uint64(seed * 1000003 + i * 101 + rep) * np.uint64(6364136223846793005)
                H.set_position(st, rel_hands[i, 0], rel_hands[i, 1], rel_hands[i, 2], 0, -1, -1, 0, 0)
                while H.popcount(st[0]) > n_cards or st[H.ST_K] != 0:
                    n = H.generate_moves(st, rules, work, False)
                    x = x * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
                    move = work[st[H.ST_PLY], int((x >> np.uint64(33)) % np.uint64(n))]
                    if st[H.ST_K] == 0:
                        H.play_lead(st, rules, move)
                    else:
                        H.play_follow(st, move)
                H.next_stamp(st, tt)
                st[H.ST_PLY] = 0
                H.features_into(st, rules, X[k])
                y[k] = H.exact_value(st, rules, tt, work, 0)
                k += 1

    @numba.njit
    def card_sums(hands, seat, legal, trick, k, leader, trump, owner, declarer, won, played, voids, known, worlds,
                  back, rules, rng, st, work, tt, wbuf, sums):
        """Every candidate's value summed over the worlds (pimc's sampling), leaves ``back`` tricks
        below the decision (0: exact); the number of candidates, their codes in wbuf."""
        n = 0
        for w in range(worlds):
            enter_world(rng, hands, seat, known, played, voids, trick, k, leader, trump, owner, -1, declarer, won, 0,
                        rules, st, tt, wbuf)
            if w == 0:
                n = take_candidates(work, st[H.ST_PLY], H.generate_moves(st, rules, work, False), legal, wbuf)
                sums[:n] = 0
            # the declarer's cards at the decision's trick start (he may have played to this trick)
            cards = H.popcount(st[0]) + (1 if (3 - st[H.ST_LEADER]) % 3 < st[H.ST_K] else 0)
            st[H.ST_HORIZON] = cards - back if back > 0 and cards - back >= 3 else 0
            for i in range(n):
                sums[i] += H.move_value(st, rules, tt, work, wbuf[WB_MOVES + i], -1)
            st[H.ST_HORIZON] = 0
        return n

    @numba.njit
    def discard_sums(codes, hand10, worlds, horizon, rules, rng, st, work, tt, wbuf, sums):
        """The discard candidates' values summed over ``worlds`` discard worlds, with leaves at
        ``horizon`` cards a hand (0: exact)."""
        sums[:] = 0
        for _ in range(worlds):
            discard_world(rng, hand10, np.int64(0), np.int64(0), wbuf)
            H.next_stamp(st, tt)
            st[H.ST_HORIZON] = horizon
            for i in range(codes.shape[0]):
                a = codes[i] // 24
                b = codes[i] % 24
                H.set_position(st, hand10 & ~(np.int64(1) << a) & ~(np.int64(1) << b),
                               wbuf[WB_HANDS + 1] | (np.int64(1) << a), wbuf[WB_HANDS + 2] | (np.int64(1) << b), 0,
                               -1, -1, 0, 0)
                sums[i] += H.exact_value(st, rules, tt, work, 0)
            st[H.ST_HORIZON] = 0

    return labelled_positions, card_sums, discard_sums


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=3000, help="heuristic deals for the estimate's positions")
    ap.add_argument("--positions", type=int, default=20, help="deals whose trick 1-2 decisions are judged (x3)")
    ap.add_argument("--discards", type=int, default=150, help="heuristic deals whose discards are judged")
    args = ap.parse_args()
    rules = HouseRules().to_array()
    with tempfile.TemporaryDirectory() as tmp:
        print("compiling the patched solver (a minute or two)...", flush=True)
        H = patched_solver(Path(tmp))
        labelled_positions, card_sums, discard_sums = make_kernels(H)
        st, work = H.new_work()
        tt = H.new_table(14)
        wbuf = new_pimc_buffer()

        # 1. The estimate: fit on one half of the deals, judged on the other.
        print("\n1. the estimate beyond the horizon (least squares, 16 features):")
        for row, n_cards in enumerate((5, 4)):
            data = []
            for half, seed in enumerate((11, 12)):
                rel, _ = dealt_positions(args.deals, seed)
                X = np.zeros((len(rel) * 4, N_FEATURES))
                y = np.zeros(len(rel) * 4)
                labelled_positions(rel, n_cards, 4, half + 1, rules, X, y, st, work, tt)
                data.append((X, y))
            (X, y), (Xt, yt) = data
            w = np.linalg.lstsq(X, y, rcond=None)[0]
            err = np.clip(Xt @ w, 0, None) - yt
            print(f"   {n_cards} cards a hand: {len(yt):,} test positions, value sd {yt.std():.1f}, "
                  f"error: mean absolute {np.abs(err).mean():.1f}, root mean square {np.sqrt((err ** 2).mean()):.1f}")
            w_all = np.linalg.lstsq(np.vstack([X, Xt]), np.concatenate([y, yt]), rcond=None)[0]
            st[H.ST_WEIGHTS + row * N_FEATURES:H.ST_WEIGHTS + (row + 1) * N_FEATURES] = np.round(w_all * W_SCALE)

        # Where an exact solve of a whole deal spends its nodes.
        rel, _ = dealt_positions(300, 13)
        st[H.ST_DEPTH:H.ST_DEPTH + 25] = 0
        for h in rel:
            H.next_stamp(st, tt)
            H.set_position(st, h[0], h[1], h[2], 0, -1, -1, 0, 0)
            H.exact_value(st, rules, tt, work, 0)
        depth = st[H.ST_DEPTH:H.ST_DEPTH + 25].astype(float)
        by_trick = [depth[3 * t:3 * t + 3].sum() / depth.sum() for t in range(8)]
        print(f"\n   an exact solve of a whole deal ({len(rel)} heuristic deals after the discard): "
              f"{depth.sum() / len(rel):,.0f} nodes, by trick: " + " ".join(f"{x:.0%}" for x in by_trick))

        # 2. Card decisions of tricks 1 and 2.
        pos = [p for p in positions(args.positions) if p["trick"] <= 1]
        sums = np.zeros(32, dtype=np.int64)

        def summed(p, seed, worlds, back):
            rng = state_from_seed(seed, (7,))
            st[H.ST_NODES] = 0
            t = time.perf_counter()
            n = card_sums(p["hands"], p["seat"], p["legal"], p["cards"], p["k"], p["leader"], p["trump"], p["owner"],
                          p["declarer"], p["won"], p["played"], p["voids"], p["known"], worlds, back, rules, rng, st,
                          work, tt, wbuf, sums)
            moves = [int(m) for m in wbuf[WB_MOVES:WB_MOVES + n]]
            return moves, sums[:n].copy(), time.perf_counter() - t, st[H.ST_NODES]

        def pimc(p, seed):
            rng = state_from_seed(seed, (7,))
            st[H.ST_NODES] = 0
            card, declare = pimc_choose_card(p["hands"], p["seat"], p["legal"], p["cards"], p["k"], p["leader"],
                                             p["trump"], p["owner"], -1, p["declarer"], p["won"], 0, p["played"],
                                             p["voids"], p["known"], 20, rules, rng, st, work, tt, wbuf)
            return card | (core_nb.DECLARE_FLAG if declare else 0), st[H.ST_NODES]

        summed(pos[0], 0, 1, 3)
        print(f"\n2. card decisions, {len(pos)} of tricks 1-2 (regret: points lost a decision to the best card by "
              "100 other worlds' exact values):")
        print(f"   {'trick':<6}{'n':>5}{'pimc':>20}{'pimc, other worlds':>20}{'horizon (3 tricks)':>20}"
              f"{'pimc nodes':>12}{'horizon nodes':>15}")
        for trick in (0, 1):
            rows = []
            for i, p in [(i, p) for i, p in enumerate(pos) if p["trick"] == trick]:
                sign = 1 if p["seat"] == p["declarer"] else -1
                moves, truth, _, _ = summed(p, 10**6 + i, 100, 0)
                value = dict(zip(moves, (sign * truth / 100).tolist(), strict=True))
                best = max(value.values())
                c1, n1 = pimc(p, i)
                c2, _ = pimc(p, i + 5 * 10**5)
                mh, sh, _, nh = summed(p, i, 20, 3)
                ch = mh[int(np.argmax(sign * sh))]
                rows.append((best - value[c1], best - value[c2], best - value[ch], n1, nh))
            a = np.array(rows, dtype=float)
            se = a[:, :3].std(axis=0) / np.sqrt(len(a))
            cells = "".join(f"{f'{m:.2f} ± {s:.2f}':>20}" for m, s in zip(a[:, :3].mean(axis=0), se, strict=True))
            print(f"   {trick + 1:<6}{len(a):>5}{cells}{a[:, 3].mean():>12,.0f}{a[:, 4].mean():>15,.0f}")

        # 3. The discard.
        _, hands10 = dealt_positions(args.discards, 7)
        rows = []
        for i, hand10 in enumerate(hands10):
            n = discard_candidates(np.int64(hand10), np.int64(0), np.int64(0), 20, rules, state_from_seed(i, (9,)),
                                   st, work, tt, wbuf, wbuf, 0)
            if n < 2:
                continue
            codes = wbuf[WB_MOVES:WB_MOVES + n].copy()
            dsums = np.zeros(n, dtype=np.int64)
            discard_sums(codes, np.int64(hand10), 100, 0, rules, state_from_seed(10**6 + i, (9,)), st, work, tt, wbuf,
                         dsums)
            truth = dsums / 100
            row = []
            for horizon in (0, 5, 4):
                st[H.ST_NODES] = 0
                discard_sums(codes, np.int64(hand10), 20, horizon, rules, state_from_seed(i, (3,)), st, work, tt, wbuf,
                             dsums)
                row += [truth.max() - truth[int(np.argmax(dsums))], st[H.ST_NODES]]
            rows.append(row)
        a = np.array(rows, dtype=float)
        print(f"\n3. the declarer's discard, {len(a)} with two candidates or more (pimc's candidates, every value "
              "over 20 worlds; regret against 100 other worlds):")
        for j, horizon in enumerate((0, 5, 4)):
            name = "exact" if horizon == 0 else f"horizon at {horizon} cards"
            print(f"   {name:<22} regret {a[:, 2 * j].mean():5.2f} ± {a[:, 2 * j].std() / np.sqrt(len(a)):.2f} "
                  f"points a deal, {a[:, 2 * j + 1].mean():>9,.0f} nodes")


if __name__ == "__main__":
    main()
