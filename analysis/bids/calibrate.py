"""Fit the heuristic player's hand-value weights to deals it plays to the end.

The declarer's points (card points won + marriages declared) are regressed by least squares on
the features the player's own valuation uses (``sim.players.heuristic_nb._suit_terms``: aces, tens,
loose kings and queens, marriages, suit length), once for the 8-card hand after the talon and
discard, then, before the talon, on the scaled score of the 7-card hand and the chance value of
its half marriages. Features are read off the compiled valuation itself (one unit weight at a
time), so the fit can never drift from what the player computes. Play depends on the weights
only through bidding, so two rounds settle them. With ``--players 2`` the fit is of the 2-player
game (10-card hand before the talon, the hand after burying, the declarer's points including the
buried cards and the other talon), whose weights are ``sim.players.TWO_PLAYER_WEIGHTS``.

    python -m analysis.bids.calibrate --deals 300000 --rounds 2
    python -m analysis.bids.calibrate --deals 300000 --rounds 2 --players 2
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import TYPE_CHECKING

import numpy as np

from sim.engine import BatchSpec, play_chunk
from sim.game.rules import HouseRules
from sim.players.heuristic_nb import estimate_many
from sim.players.params import HeuristicParams, default_params, params_matrix

if TYPE_CHECKING:
    import polars as pl

__all__ = ["CARD_WEIGHTS", "declarer_hands", "fit", "calibrate", "main"]

CARD_WEIGHTS = ("ace", "ten_with_ace", "ten_side", "ten_bare", "king", "queen", "marriage", "marriage_cards",
                "length")


def _feature(hands: np.ndarray, rules: HouseRules, before_talon: bool, **weights: float) -> np.ndarray:
    zero = {f.name: 0.0 for f in dataclasses.fields(HeuristicParams)}
    prm = params_matrix(HeuristicParams(**{**zero, **weights}), rules)
    out = np.empty(len(hands))
    estimate_many(hands, before_talon, prm, 0, rules.to_array(), out)
    return out


def declarer_hands(deals: pl.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hand as dealt, hand after talon and discard, points taken) of each deal's declarer (three
    seats, or four with players = 4: the dealer sitting out has no gift; or two seats)."""
    if "buried" in deals.columns:
        return _two_player_hands(deals)
    n = 4 if "hand3" in deals.columns else 3
    d = deals.select("declarer", "talon", *[f"hand{p}" for p in range(n)], *[f"gift{p}" for p in range(n)],
                     *[f"card_points{p}" for p in range(n)], *[f"marriage_points{p}" for p in range(n)]).to_numpy()
    d = d.astype(np.int64)
    rows = np.arange(len(d))
    decl = d[:, 0]
    hand7 = d[rows, 2 + decl]
    given = np.zeros(len(d), dtype=np.int64)  # the two gifts: every seat's but the declarer's (-1) and a sitter's
    for p in range(n):
        gift = d[:, 2 + n + p]
        given |= np.where(gift >= 0, np.int64(1) << np.maximum(gift, 0), 0)
    hand8 = (hand7 | d[:, 1]) & ~given
    points = d[rows, 2 + 2 * n + decl] + d[rows, 2 + 3 * n + decl]
    return hand7, hand8, points


def _two_player_hands(deals) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    d = deals.select("declarer", "talon", "hand0", "hand1", "buried", "talon_card", "card_points0", "card_points1",
                     "marriage_points0", "marriage_points1").to_numpy().astype(np.int64)
    rows = np.arange(len(d))
    decl = d[:, 0]
    dealt = d[rows, 2 + decl]
    given = d[:, 4] | np.where(d[:, 5] >= 0, np.int64(1) << np.maximum(d[:, 5], 0), 0)
    kept = (dealt | d[:, 1]) & ~given
    return dealt, kept, d[rows, 6 + decl] + d[rows, 8 + decl]


def fit(deals: pl.DataFrame, rules: HouseRules, params: HeuristicParams) -> tuple[HeuristicParams, float, float]:
    hand7, hand8, points = declarer_hands(deals)
    X = np.column_stack([np.ones(len(points))] + [_feature(hand8, rules, False, **{w: 1.0}) for w in CARD_WEIGHTS])
    beta, *_ = np.linalg.lstsq(X, points, rcond=None)
    params = dataclasses.replace(params, base=float(beta[0]), **{w: float(b) for w, b in zip(CARD_WEIGHTS, beta[1:],
                                                                                          strict=True)})
    card_score = {w: getattr(params, w) for w in CARD_WEIGHTS}
    Z = np.column_stack([np.ones(len(points)), _feature(hand7, rules, False, **card_score),
                         _feature(hand7, rules, True, talon_marriage=1.0)])
    gamma, *_ = np.linalg.lstsq(Z, points, rcond=None)
    params = dataclasses.replace(params, talon=float(gamma[0]), talon_scale=float(gamma[1]),
                                 talon_marriage=float(gamma[2]))
    return params, float(np.std(points - X @ beta)), float(np.std(points - Z @ gamma))


def calibrate(*, deals: int = 300_000, rounds: int = 2, seed: int = 0, players: int = 3,
              params: HeuristicParams | None = None) -> HeuristicParams:
    params = params or default_params(players)
    rules = HouseRules(concede=False, players=players)  # every contract played out: every declarer's points seen
    for r in range(rounds):
        spec = BatchSpec(mode="deals", n=deals, chunk_size=deals, rules=rules, params=params, seed=seed + r)
        frame, _ = play_chunk(spec, 0)
        params, sd8, sd7 = fit(frame, rules, params)
        print(f"round {r + 1}: residual sd {sd8:.1f} points after the talon, {sd7:.1f} before")
    return params


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=300_000)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--players", type=int, default=3, choices=(2, 3))
    args = ap.parse_args()
    params = calibrate(deals=args.deals, rounds=args.rounds, seed=args.seed, players=args.players)
    for name in ("base", *CARD_WEIGHTS, "talon", "talon_scale", "talon_marriage"):
        print(f"{name} = {getattr(params, name):.2f}")


if __name__ == "__main__":
    main()
