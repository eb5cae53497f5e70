"""pimc-inf's candidate worlds: how many to draw for each world searched (``CANDIDATES_PER_WORLD``).

Plays heuristic deals (the auction pimc's opponents make: they bid as the heuristic player) deal
by deal, and at two decisions of each deal with a call of another seat's own (the declarer's
discard; the seat after the declarer following the declarer's first lead) runs pimc-inf's
decision with several factors, then pimc's on the same position: the effective sample size
(sum w)^2 / sum w^2 of the candidates' weights against the worlds searched, and the time a
decision, one thread, all in one run::

    python benchmarks/bench_pimc_inf.py --deals 40 --factors 1 4 10 20 --whole-deals 60

With ``--whole-deals N`` it first plays N whole deals with every seat pimc, the same N deals
(the same seed) with every seat pimc-inf, and with every seat pimc-inf choosing its contract by its
worlds (``contract_rule = 1``), chunk by chunk in turn (5 deals a chunk), one thread: the time a
deal of each beside pimc's.

A factor whose ESS stays near or above the world count resamples few duplicates; beyond it more
candidates cost drawing and weighing time for little. Times are CPU seconds of this process.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

import numpy as np

from sim.engine import BatchSpec, chunk_start, play_chunk
from sim.engine.chunks_nb import run_deals
from sim.engine.schema import (
    D_CONTRACT,
    D_DECLARER,
    D_GIFT,
    D_HAND,
    D_REDEAL,
    D_TALON,
    N_DEAL_COLUMNS,
    N_PLAYS,
)
from sim.engine.workspace import W_AUCTION
from sim.game.auction_layout import (
    A_CALLS,
    A_FACTS,
    A_GS,
    AUCTION_ROWS,
    C_CALL,
    C_DARK,
    C_FORCED,
    C_HIGH,
    C_HIGH_SEAT,
    C_SEAT,
    F_CALLS,
    F_SHOWN,
)
from sim.game.bids_nb import bid_range
from sim.game.play_nb import know_cards, legal_follows
from sim.game.rng_nb import state_from_seed
from sim.game.rules import preset
from sim.game.state_layout import N_GAME_STATE
from sim.players.layout import CONTRACT_WORLDS
from sim.players.learned.bidding_nb import learned_bid_margin
from sim.players.learned.cards_nb import new_learned_buffers
from sim.players.params import default_params, learned_nets, params_matrix
from sim.players.pimc_inf_nb import (
    CANDIDATE_WORLDS,
    OPPONENT_TEMPERATURE,
    informative_calls,
    new_inference_buffers,
    pimc_inf_choose_card,
    pimc_inf_choose_discard,
)
from sim.players.pimc_nb import pimc_choose_card, pimc_choose_discard
from sim.players.seat_nb import seat_buffers
from sim.solver import dd_values

WORLDS = 20


def positions(rules_name: str, deals: int, seed: int) -> list[dict]:
    """The declarer's discard and the next seat's follow to the first lead of heuristic deals with a
    call another seat chose (the auction's record as the engine wrote it)."""
    house = preset(rules_name)
    spec = BatchSpec(mode="deals", n=deals, seed=seed, chunk_size=deals, players=("heuristic",) * 3, rules=house)
    start = chunk_start(spec, 0)
    rec = np.zeros((1, N_DEAL_COLUMNS), dtype=np.int32)
    plays = np.zeros((1, N_PLAYS), dtype=np.int8)
    out = []
    for i in range(deals):
        run_deals(start.rng, start.deal_rng, start.rules, start.codes, start.prm, i, 1, rec, plays, start.gs,
                  start.ws, start.no_script, start.solver)
        row = rec[0]
        d = int(row[D_DECLARER])
        if d < 0 or row[D_REDEAL] != 0 or plays[0, 0] < 0:
            continue
        log = start.ws[W_AUCTION:W_AUCTION + AUCTION_ROWS].copy()
        left, right = (d + 1) % 3, (d + 2) % 3
        talon = int(row[D_TALON])
        g1, g2 = int(row[D_GIFT + left]), int(row[D_GIFT + right])
        hands = [int(row[D_HAND + s]) for s in range(3)]
        hands[d] = (hands[d] | talon) & ~(1 << g1) & ~(1 << g2)
        hands[left] |= 1 << g1
        hands[right] |= 1 << g2
        lead = int(plays[0, 0]) & 31
        known = np.zeros(9, dtype=np.int64)
        know_cards(known, d, max(0, int(log[A_FACTS, F_SHOWN])), g1, g2, not house.discard_face_down)
        if informative_calls(log, d):
            out.append({"kind": "discard", "seat": d, "hand10": np.int64(int(row[D_HAND + d]) | talon), "log": log,
                        "left7": int(row[D_HAND + left]), "right7": int(row[D_HAND + right])})
        if informative_calls(log, left):
            now = np.array(hands, dtype=np.int64)
            now[d] &= ~(1 << lead)
            legal = int(legal_follows(now[left], lead // 6, np.int64(lead), np.int64(-1), house.must_head))
            if legal & (legal - 1):
                played_by = np.zeros(3, dtype=np.int64)
                played_by[d] = 1 << lead
                trick = np.array([lead, 0, 0], dtype=np.int64)
                out.append({"kind": "card", "seat": left, "declarer": d, "hands": now, "legal": legal,
                            "trick": trick, "played": np.int64(1 << lead), "played_by": played_by,
                            "known": known[3 * left:3 * left + 3].copy(), "log": log,
                            "contract": np.int64(row[D_CONTRACT])})
    return out


def model_fit(rules_name: str, deals: int, seed: int, players: str, net, prm) -> list[tuple[int, int, int, int]]:
    """How the model (the learned player's bidding) reads the chosen calls of ``players``' auctions
    on their true hands: (observed call, model's call, margin x 1000, seat) a call, from the
    auction's record as the engine wrote it."""
    house = preset(rules_name)
    rules = house.to_array()
    spec = BatchSpec(mode="deals", n=deals, seed=seed, chunk_size=deals, players=(players,) * 3, rules=house)
    start = chunk_start(spec, 0)
    rec = np.zeros((1, N_DEAL_COLUMNS), dtype=np.int32)
    plays = np.zeros((1, N_PLAYS), dtype=np.int8)
    lbuf = new_learned_buffers(net)[1]
    out = []
    for i in range(deals):
        run_deals(start.rng, start.deal_rng, start.rules, start.codes, start.prm, i, 1, rec, plays, start.gs,
                  start.ws, start.no_script, start.solver)
        log = start.ws[W_AUCTION:W_AUCTION + AUCTION_ROWS]
        n = int(log[A_FACTS, F_CALLS])
        gs = np.array([log[A_GS + j // 24, j % 24] for j in range(N_GAME_STATE)], dtype=np.int64)
        for k in range(max(0, n)):
            c = log[A_CALLS + k]
            if c[C_FORCED]:
                continue
            seat = int(c[C_SEAT])
            hand = np.int64(rec[0, D_HAND + seat])
            least, cap = bid_range(hand, seat, np.int64(c[C_HIGH]), np.int64(c[C_HIGH_SEAT]), c[C_DARK] != 0, gs,
                                   rules)
            if least > cap:
                continue
            call, margin = learned_bid_margin(seat, hand, np.int64(c[C_HIGH_SEAT]), least, cap, gs, rules, prm, net,
                                              lbuf)
            out.append((int(c[C_CALL]), int(call), int(1000 * margin), seat))
    return out


def ess(lw: np.ndarray) -> float:
    w = np.exp(lw - lw.max()) if np.isfinite(lw.max()) else np.ones_like(lw)
    return float(w.sum() ** 2 / (w ** 2).sum())


def run(p: dict, factor: int | None, rules, prm, net, lbuf, bufs, inf, seed: int) -> tuple[float, float]:
    """(CPU seconds of the decision, ESS of the scoring candidates; factor None: pimc)."""
    ibuf, lw, mprm = inf
    rng = state_from_seed(seed, (7,))
    t0 = time.process_time()
    if p["kind"] == "discard":
        if factor is None:
            pimc_choose_discard(p["hand10"], np.int64(0), np.int64(0), WORLDS, rules, rng, *bufs)
            return time.process_time() - t0, float("nan")
        pimc_inf_choose_discard(p["seat"], p["hand10"], np.int64(0), np.int64(0), WORLDS, rules, prm, rng, *bufs,
                                p["log"], net, lbuf, ibuf, lw, mprm, factor, 1.0 / OPPONENT_TEMPERATURE, False)
        k_cand = min(WORLDS, CANDIDATE_WORLDS) * factor
        return time.process_time() - t0, ess(lw[k_cand:k_cand + WORLDS * factor])
    args = (p["hands"], p["seat"], p["legal"], p["trick"], 1, p["declarer"], np.int64(-1), np.int64(-1),
            np.int64(-1), p["declarer"], np.int64(0), np.int64(0), p["played"], np.zeros(3, dtype=np.int64),
            p["known"])
    if factor is None:
        pimc_choose_card(*args, WORLDS, rules, rng, *bufs)
        return time.process_time() - t0, float("nan")
    pimc_inf_choose_card(*args, p["played_by"], p["contract"], WORLDS, rules, prm, rng, *bufs, p["log"], net, lbuf,
                         ibuf, lw, mprm, factor, 1.0 / OPPONENT_TEMPERATURE)
    return time.process_time() - t0, ess(lw[:WORLDS * factor])


def whole_deals(rules_name: str, n: int, seed: int) -> None:
    """pimc, pimc-inf and pimc-inf choosing its contract by its worlds (``contract_rule`` = 1) at every
    seat on the same deals, 5 at a time in turn: CPU seconds a deal."""
    house = preset(rules_name)
    worlds = replace(default_params(3), contract_rule=float(CONTRACT_WORLDS))
    players = {"pimc": ("pimc", None), "pimc-inf": ("pimc-inf", None),
               "pimc-inf, worlds' contract": ("pimc-inf", worlds)}
    spent = dict.fromkeys(players, 0.0)
    for name, params in players.values():  # compile (or load) before timing
        play_chunk(BatchSpec(mode="deals", n=1, seed=seed, chunk_size=1, players=(name,) * 3, rules=house,
                             params=params), 0)
    for index in range(n // 5):
        for label, (name, params) in players.items():
            spec = BatchSpec(mode="deals", n=n, seed=seed, chunk_size=5, players=(name,) * 3, rules=house,
                             params=params)
            t0 = time.process_time()
            play_chunk(spec, index)
            spent[label] += time.process_time() - t0
    done = 5 * (n // 5)
    print(f"whole deals, every seat the same player, {done} deals of {rules_name} (seed {seed}), one thread: "
          + ", ".join(f"{k} {v / done:.3f} s a deal ({v / spent['pimc']:.2f} x pimc)" for k, v in spent.items()))


def discard_regret(ps: list[dict], house, prm, net, lbuf, bufs, inf, factor: int) -> None:
    """The declarer's discard of pimc and of pimc-inf on the same positions, each valued in the
    true deal (the exact double-dummy value of the eight tricks after it, the declarer's points):
    pimc-inf's less pimc's, with a 95% interval over the positions."""
    rules = house.to_array()
    ibuf, lw, mprm = inf
    rows = []
    for i, p in enumerate(ps):
        if p["kind"] != "discard":
            continue
        pair = []
        for mine in (False, True):
            rng = state_from_seed(i, (11,))
            if mine:
                g = pimc_inf_choose_discard(p["seat"], p["hand10"], np.int64(0), np.int64(0), WORLDS, rules, prm, rng,
                                            *bufs, p["log"], net, lbuf, ibuf, lw, mprm, factor,
                                            1.0 / OPPONENT_TEMPERATURE, False)
            else:
                g = pimc_choose_discard(p["hand10"], np.int64(0), np.int64(0), WORLDS, rules, rng, *bufs)
            g1, g2 = int(g[0]), int(g[1])
            pair.append([int(p["hand10"]) & ~(1 << g1) & ~(1 << g2), p["left7"] | 1 << g1, p["right7"] | 1 << g2])
        rows.append(pair)
    hands = np.array([h for pair in rows for h in pair], dtype=np.int64)
    values = dd_values(hands, leader=0, rules=house, threads=1).reshape(-1, 2)
    diff = values[:, 1] - values[:, 0]
    half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))
    print(f"the discard valued in the true deal (double dummy, declarer's points), {len(diff)} positions: "
          f"pimc {values[:, 0].mean():.2f}, pimc-inf {values[:, 1].mean():.2f}, pimc-inf - pimc {diff.mean():+.2f} "
          f"[{diff.mean() - half:+.2f}, {diff.mean() + half:+.2f}]; a different discard in "
          f"{np.mean([a != b for a, b in rows]):.0%} of them")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--seed", type=int, default=4702)
    parser.add_argument("--factors", type=int, nargs="+", default=[1, 4, 10, 20])
    parser.add_argument("--fit-deals", type=int, default=2000, help="deals whose calls measure the model's fit")
    parser.add_argument("--whole-deals", type=int, default=0, help="time whole deals of pimc and pimc-inf first")
    parser.add_argument("--temperatures", type=float, nargs="+", default=[1, 5, 10, 15, 20, 25, 30, 40, 80],
                        help="the temperatures (points) whose fit to the calls is printed")
    parser.add_argument("--fit-only", action="store_true", help="only the model's fit to the calls")
    parser.add_argument("--whole-only", action="store_true", help="only the whole deals' times (--whole-deals)")
    parser.add_argument("--regret", action="store_true",
                        help="the discards of pimc and pimc-inf valued in the true deal, instead of the factors")
    a = parser.parse_args()
    if a.whole_deals:
        whole_deals(a.rules, a.whole_deals, a.seed)
    if a.whole_only:
        return
    house = preset(a.rules)
    rules = house.to_array()
    prm = params_matrix(None, house)
    net = learned_nets(("pimc-inf",) * 3, prm, 3, house)
    net, lbuf, _, _ = new_learned_buffers(net)
    bufs = seat_buffers(14)
    inf = new_inference_buffers()
    for players in ("heuristic", "learned"):
        calls = model_fit(a.rules, a.fit_deals, a.seed, players, net, prm)
        agree = np.array([(o != 0) == (m != 0) for o, m, _, _ in calls])
        margin = np.array([x / 1000 for _, _, x, _ in calls])
        line = []
        for t in a.temperatures:
            x = margin / t
            ll = np.where(agree, -np.log1p(np.exp(-x)), -x - np.log1p(np.exp(-x)))
            line.append(f"T {t:g}: {ll.mean():.3f}")
        print(f"{players} bidders, {a.fit_deals} deals: {len(calls)} chosen calls with a choice; the model's call "
              f"(raise or pass) agrees on the true hand in {agree.mean():.1%}; mean log-likelihood a call: "
              + ", ".join(line))
    if a.fit_only:
        return
    ps = positions(a.rules, a.deals, a.seed)
    if a.regret:
        discard_regret(ps, house, prm, net, lbuf, seat_buffers(14), new_inference_buffers(), a.factors[-1])
        return
    # compile every kernel before timing
    for f in (None, *a.factors):
        for kind in ("discard", "card"):
            first = next(p for p in ps if p["kind"] == kind)
            run(first, f, rules, prm, net, lbuf, bufs, inf, 0)
    print(f"{a.rules}, {a.deals} heuristic deals (seed {a.seed}), {WORLDS} worlds, temperature {OPPONENT_TEMPERATURE} "
          f"points: {sum(p['kind'] == 'discard' for p in ps)} discards, {sum(p['kind'] == 'card' for p in ps)} "
          "follows to the first lead with another seat's call")
    print(f"{'factor':>7} {'candidates':>10} {'kind':>8} {'median ESS':>10} {'ESS < 20':>9} {'ms a decision':>13}")
    for f in (None, *a.factors):
        for kind in ("discard", "card"):
            rows = [run(p, f, rules, prm, net, lbuf, bufs, inf, i) for i, p in enumerate(ps) if p["kind"] == kind]
            secs = np.array([r[0] for r in rows])
            e = np.array([r[1] for r in rows])
            name = "pimc" if f is None else str(f)
            k = "" if f is None else str(WORLDS * f)
            med = "" if f is None else f"{np.median(e):.1f}"
            low = "" if f is None else f"{np.mean(e < WORLDS):.0%}"
            print(f"{name:>7} {k:>10} {kind:>8} {med:>10} {low:>9} {1000 * secs.mean():>13.1f}")


if __name__ == "__main__":
    main()
