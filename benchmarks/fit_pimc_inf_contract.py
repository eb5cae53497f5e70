"""pimc-inf's contract by its worlds (``contract_rule`` = 1): fit ``contract_margin`` on one seed.

Plays deals (from a zero score) with pimc-inf in seat 0 and pimc in the two others, deal by deal,
one thread. Seat 0 chooses its contract by its worlds with the margin -1000 (every world made:
it raises to its cap and never concedes), so every deal it declares is played, and for each it
keeps the 20 world values of its chosen gifts (``pimc_inf_nb.IB_VALUES``), the points it took in
play and the defenders' results. The play does not depend on the contract (pimc's defenders do not
read it, and pimc-inf reads a final contract only as a defender), so what any contract would have
scored on these deals is known exactly: made when the points taken reach it. For each margin of a
grid the rule's choice (``pimc_inf_contract``) is scored so, and the heuristic's
(``heuristic_contract``, pimc's), as a duplicate match counts a deal: the declarer's result less
the defenders' mean (a concession: his loss less their mean gain)::

    python benchmarks/fit_pimc_inf_contract.py --deals 4000 --seed 4901 --rules classic

The chosen margin is the grid's best on these deals; it is measured on other seeds (matches,
docs/pimc.md, "pimc-inf"), never on these. ``--save FILE.npz`` keeps the decisions.

``--match DIR --rules R``: in a tournament's stored runs (``thousand tournament FILE.toml pimc pimc
--deals N --out DIR``), how often the pimc-inf declarer's final contract differs from the one the
heuristic's rule would have chosen with his eight cards: conceded where it would have played, and
the reverse, raised higher or lower.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import polars as pl

from sim.engine import BatchSpec, chunk_start
from sim.engine.chunks_nb import run_deals
from sim.engine.schema import (
    BID_DARK,
    BID_GOLDEN,
    D_BID_KIND,
    D_CARD_POINTS,
    D_CONCEDED,
    D_CONTRACT,
    D_DECLARER,
    D_GIFT,
    D_HAND,
    D_MARRIAGE_POINTS,
    D_REDEAL,
    D_RESULT,
    D_TALON,
    D_WINNING_BID,
    N_DEAL_COLUMNS,
    N_PLAYS,
)
from sim.game import rules_layout as R
from sim.game.bids_nb import contract_cap
from sim.game.play_nb import concession_gain, concession_loss, declarer_gain, round_points
from sim.game.rules import preset
from sim.game.state_layout import N_GAME_STATE
from sim.players.heuristic_nb import heuristic_contract
from sim.players.layout import CONTRACT_WORLDS, H_CONTRACT_MARGIN
from sim.players.params import default_params, params_matrix
from sim.players.pimc_inf_nb import IB_N_VALUES, IB_VALUES, pimc_inf_contract

COLLECT_MARGIN = -1000.0  # every world made: the collecting declarer raises to his cap, never concedes
MARGINS = (-10, -5, 0, 5, 10, 15, 20, 25, 30, 40)


def worlds_params(margin: float):
    """The default parameters with the worlds' contract rule at ``margin`` points."""
    return replace(default_params(3), contract_rule=float(CONTRACT_WORLDS), contract_margin=margin)


def collect(rules_name: str, deals: int, seed: int) -> dict[str, np.ndarray]:
    """The decisions of seat 0 as declarer in ``deals`` deals (the module's docstring)."""
    house = preset(rules_name)
    rules = house.to_array()
    mine = worlds_params(COLLECT_MARGIN)
    spec = BatchSpec(mode="deals", n=deals, seed=seed, chunk_size=deals, players=("pimc-inf", "pimc", "pimc"),
                     rules=house, params=(mine, default_params(3), default_params(3)))
    start = chunk_start(spec, 0)
    rec = np.zeros((1, N_DEAL_COLUMNS), dtype=np.int32)
    plays = np.zeros((1, N_PLAYS), dtype=np.int8)
    ibuf = start.solver[8]
    rows: dict[str, list] = {k: [] for k in ("values", "hand8", "bid", "cap", "can_concede", "points", "defence",
                                             "deal")}
    for i in range(deals):
        run_deals(start.rng, start.deal_rng, start.rules, start.codes, start.prm, i, 1, rec, plays, start.gs,
                  start.ws, start.no_script, start.solver)
        row = rec[0]
        if row[D_DECLARER] != 0 or row[D_REDEAL] != 0 or row[D_BID_KIND] in (BID_DARK, BID_GOLDEN):
            continue
        n = int(ibuf[IB_N_VALUES])
        if n == 0 or row[D_CONCEDED]:
            raise SystemExit(f"deal {i}: the collecting declarer kept no values or conceded")
        talon = int(row[D_TALON])
        hand8 = (int(row[D_HAND]) | talon) & ~(1 << int(row[D_GIFT + 1])) & ~(1 << int(row[D_GIFT + 2]))
        bid = int(row[D_WINNING_BID])
        cap = int(contract_cap(np.int64(hand8), bid, rules))
        if int(row[D_CONTRACT]) != max(bid, cap):
            raise SystemExit(f"deal {i}: the collecting declarer did not raise to his cap")
        rows["values"].append(ibuf[IB_VALUES:IB_VALUES + n].copy())
        rows["hand8"].append(hand8)
        rows["bid"].append(bid)
        rows["cap"].append(cap)
        rows["can_concede"].append(bool(rules[R.CONCEDE]))  # from a zero score: nobody on the barrel
        rows["points"].append(int(row[D_CARD_POINTS]) + int(row[D_MARRIAGE_POINTS]))
        rows["defence"].append((int(row[D_RESULT + 1]) + int(row[D_RESULT + 2])) / 2)
        rows["deal"].append(i)
    return {k: np.array(v) for k, v in rows.items()}


def made(choice: int, points: int, rules) -> bool:
    """Whether a contract ``choice`` (-1: conceded) is made with ``points`` taken."""
    reached = round_points(points, rules) if rules[R.ROUND_DECLARER] else points
    return choice != -1 and reached >= choice


def relative(choice: int, bid: int, points: int, defence: float, rules) -> float:
    """What the declarer's choice scores on the deal, as a duplicate match counts it: his result less
    the defenders' mean (a concession of ``bid``: his loss less the mean gain)."""
    if choice == -1:
        return -concession_loss(bid, 1, rules) - concession_gain(bid, rules)
    result = declarer_gain(choice, points, rules) if made(choice, points, rules) else -choice
    return result - defence


def made_rate(choice: np.ndarray, data: dict[str, np.ndarray], rules) -> float:
    """The share of the deals whose contract ``choice`` is made (a concession is not)."""
    return float(np.mean([made(int(c), int(data["points"][j]), rules) for j, c in enumerate(choice)]))


def evaluate(data: dict[str, np.ndarray], rules_name: str, margins) -> None:
    """Each margin's choices and the heuristic's on the decisions ``data``, scored by ``relative``."""
    house = preset(rules_name)
    rules = house.to_array()
    prm = params_matrix(worlds_params(0.0), house)
    gs = np.zeros(N_GAME_STATE, dtype=np.int64)
    ibuf = np.zeros(IB_VALUES + 64, dtype=np.int64)
    m = len(data["bid"])
    heur = np.zeros(m)
    heur_choice = np.zeros(m, dtype=np.int64)
    for j in range(m):
        c = int(heuristic_contract(0, np.int64(data["hand8"][j]), data["bid"][j], data["cap"][j],
                                   bool(data["can_concede"][j]), gs, rules, prm))
        heur_choice[j] = c
        heur[j] = relative(c, int(data["bid"][j]), int(data["points"][j]), float(data["defence"][j]), rules)
    print(f"{m} decisions of the pimc-inf declarer ({rules_name}); heuristic contract: "
          f"{heur.mean():+.2f} a declared deal (result less the defenders' mean), conceded "
          f"{np.mean(heur_choice == -1):.1%}, made {made_rate(heur_choice, data, rules):.1%}")
    print("margin | worlds' rule | - heuristic [95%] | conceded | raised above bid | differs from heuristic | made")
    best = None
    for margin in margins:
        prm[0, H_CONTRACT_MARGIN] = margin
        got = np.zeros(m)
        choice = np.zeros(m, dtype=np.int64)
        for j in range(m):
            ibuf[IB_N_VALUES] = data["values"].shape[1]
            ibuf[IB_VALUES:IB_VALUES + data["values"].shape[1]] = data["values"][j]
            c = int(pimc_inf_contract(0, np.int64(data["hand8"][j]), data["bid"][j], data["cap"][j],
                                      bool(data["can_concede"][j]), gs, rules, prm, ibuf))
            choice[j] = c
            got[j] = relative(c, int(data["bid"][j]), int(data["points"][j]), float(data["defence"][j]), rules)
        d = got - heur
        half = 1.96 * d.std(ddof=1) / np.sqrt(m)
        print(f"{margin:6.1f} | {got.mean():+8.2f} | {d.mean():+6.2f} [{d.mean() - half:+.2f}, "
              f"{d.mean() + half:+.2f}] | {np.mean(choice == -1):6.1%} | {np.mean(choice > data['bid']):6.1%} | "
              f"{np.mean(choice != heur_choice):6.1%} | {made_rate(choice, data, rules):.1%}")
        if best is None or got.mean() > best[1]:
            best = (margin, got.mean())
    print(f"best margin on these deals: {best[0]}")


def match_contracts(out: Path, rules_name: str) -> None:
    """The pimc-inf declarer's contracts in a tournament's runs against the heuristic rule's."""
    house = preset(rules_name)
    rules = house.to_array()
    prm = params_matrix(default_params(3), house)
    gs = np.zeros(N_GAME_STATE, dtype=np.int64)
    counts = {"declared": 0, "both played, same": 0, "raised higher": 0, "raised lower": 0, "conceded, not": 0,
              "played, conceded": 0, "both conceded": 0}
    for run in sorted((out / "runs").iterdir()):
        seat = json.loads((run / "run.json").read_text())["players"].index("pimc-inf")
        df = pl.read_parquet(run / "deals" / "*.parquet").filter(
            (pl.col("declarer") == seat) & (pl.col("redeal") == 0) & ~pl.col("bid_kind").is_in([BID_DARK, BID_GOLDEN]))
        left, right = (seat + 1) % 3, (seat + 2) % 3
        for r in df.iter_rows(named=True):
            hand8 = (r[f"hand{seat}"] | r["talon"]) & ~(1 << r[f"gift{left}"]) & ~(1 << r[f"gift{right}"])
            bid = r["winning_bid"]
            cap = int(contract_cap(np.int64(hand8), bid, rules))
            h = int(heuristic_contract(seat, np.int64(hand8), bid, cap, bool(rules[R.CONCEDE]), gs, rules, prm))
            counts["declared"] += 1
            if r["conceded"]:
                counts["both conceded" if h == -1 else "conceded, not"] += 1
            elif h == -1:
                counts["played, conceded"] += 1
            else:
                key = "both played, same" if r["contract"] == h else (
                    "raised higher" if r["contract"] > h else "raised lower")
                counts[key] += 1
    n = max(1, counts["declared"])
    print(f"{rules_name}, {out}: the pimc-inf declarer's contract against the heuristic rule's on his eight cards: "
          + ", ".join(f"{k} {v} ({v / n:.1%})" for k, v in counts.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=4901)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--margins", type=float, nargs="+", default=MARGINS)
    parser.add_argument("--save", help="keep the decisions in this .npz file")
    parser.add_argument("--load", help="read the decisions from this .npz file instead of playing")
    parser.add_argument("--match", type=Path, help="a tournament's --out: its pimc-inf declarer's contracts")
    a = parser.parse_args()
    if a.match:
        match_contracts(a.match, a.rules)
        return
    t0 = time.process_time()
    if a.load:
        data = dict(np.load(a.load))
    else:
        data = collect(a.rules, a.deals, a.seed)
        print(f"{a.deals} deals, seed {a.seed}, {a.rules}: {time.process_time() - t0:.0f} CPU-s")
        if a.save:
            np.savez(a.save, **data)
    evaluate(data, a.rules, a.margins)


if __name__ == "__main__":
    main()
