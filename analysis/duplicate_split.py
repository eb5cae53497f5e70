"""Where a duplicate difference comes from: the difference between two stored `thousand tournament
--deals` matches, split by what the compared seat did in each.

A `--deals` tournament of ``X Y Y`` compares X with Y by points a deal. Over its runs (one a
seat X sits in) that difference is the mean over runs and deals of X's result less the mean of the
two other seats' results (its *margin*). Two such matches on the same deals (the same seed and
rules, Y the same) that differ only in X (X and X', e.g. the learned player with and without its
bidding nets) differ by the mean over (deal, X's seat) of the two margins' difference. This module
splits that mean by the roles X and X' took at the seat (declared in both at the same contract, at
a higher one, conceded, declared in one only, defended in both...): each case's share of the
(deal, seat) pairs, its mean difference and its contribution, which sum to the whole. The whole
difference comes with a 95% interval over deal numbers (the three seats of a deal are one
cluster), as the tournament's own.

    python -m analysis.duplicate_split OUT_A OUT_B [--player-a NAME] [--player-b NAME]

OUT_A and OUT_B are the two matches' `--out` folders; NAME (default: the one player of each match
that sits in one seat only) is the player's type as the match records it (``learned``, ``pimc``,
``learned:PATH``; a player file is recorded as its type, told apart by its parameters).
docs/learned.md ("Under online rules") uses it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import polars as pl

from analysis.measures import clustered_mean
from sim import InputError

__all__ = ["CASES", "seat_margins", "paired_split", "split_table"]

_MARGIN_COLUMNS = ("margin", "declares", "conceded", "contract", "made")


def _runs(folder: Path) -> list[tuple[list[tuple[str, str]], pl.DataFrame]]:
    """Each stored run's seats, as (player type, its parameters as JSON: a player file plays its
    type with other parameters), and its deals."""
    runs = []
    for run in sorted((folder / "runs").glob("deals-*")):
        meta = json.loads((run / "run.json").read_text(encoding="utf-8"))
        if meta.get("mode") != "deals":
            raise InputError(f"{run} is not a run of independent deals (thousand tournament --deals)")
        params = meta.get("heuristic_params")
        params = params if isinstance(params, list) else [None] * len(meta["players"])
        seats = [(p, json.dumps(q, sort_keys=True)) for p, q in zip(meta["players"], params, strict=True)]
        runs.append((seats, pl.read_parquet(run / "deals" / "*.parquet")))
    if not runs:
        raise InputError(f"{folder} holds no stored tournament runs of deals (runs/deals-*)")
    return runs


def _lone_seat(runs: list[tuple[list[tuple[str, str]], pl.DataFrame]], player: str | None) -> tuple[str, str]:
    """The seat (type, parameters) that sits alone in every run, of type ``player`` when given."""
    lone = {k for seats, _ in runs for k in seats if seats.count(k) == 1 and player in (None, k[0])}
    if len(lone) != 1:
        raise InputError(f"name one compared player: the runs seat {sorted(k[0] for k in lone) or 'no'} "
                         f"{player or 'player'} alone")
    return lone.pop()


def seat_margins(folder: str | Path, player: str | None = None) -> tuple[str, pl.DataFrame]:
    """(the player, one row per deal and seat ``player`` sits in): its ``margin`` (its result less
    the mean of the two other seats'), whether it ``declares``, and the deal's ``conceded``,
    ``contract`` and ``made``."""
    runs = _runs(Path(folder))
    try:
        key = _lone_seat(runs, player)
    except InputError:
        if player is None:
            raise
        raise InputError(f"{folder}: no run seats {player!r} in one seat") from None
    parts = []
    for seats, deals in runs:
        s = seats.index(key)
        others = [q for q in range(3) if q != s]
        parts.append(deals.select(
            pl.col("game"), pl.lit(s).alias("seat"),
            (pl.col(f"result{s}") - (pl.col(f"result{others[0]}") + pl.col(f"result{others[1]}")) / 2).alias("margin"),
            (pl.col("declarer") == s).alias("declares"), pl.col("conceded"), pl.col("contract").cast(pl.Int64),
            pl.col("made")))
    return key[0], pl.concat(parts)


# The cases of a (deal, seat) pair, by what X (a) and X' (b) did there; every pair falls in one.
CASES = (
    ("declares in both at the same contract", lambda: pl.col("declares_a") & pl.col("declares_b")
     & ~pl.col("conceded_a") & ~pl.col("conceded_b") & (pl.col("contract_a") == pl.col("contract_b"))),
    ("declares in both, a's contract higher", lambda: pl.col("declares_a") & pl.col("declares_b")
     & ~pl.col("conceded_a") & ~pl.col("conceded_b") & (pl.col("contract_a") > pl.col("contract_b"))),
    ("declares in both, a's contract lower", lambda: pl.col("declares_a") & pl.col("declares_b")
     & ~pl.col("conceded_a") & ~pl.col("conceded_b") & (pl.col("contract_a") < pl.col("contract_b"))),
    ("declares in both, a concedes, b plays", lambda: pl.col("declares_a") & pl.col("declares_b")
     & pl.col("conceded_a") & ~pl.col("conceded_b")),
    ("declares in both, a plays, b concedes", lambda: pl.col("declares_a") & pl.col("declares_b")
     & ~pl.col("conceded_a") & pl.col("conceded_b")),
    ("declares in both, both concede", lambda: pl.col("declares_a") & pl.col("declares_b")
     & pl.col("conceded_a") & pl.col("conceded_b")),
    ("declares in a only", lambda: pl.col("declares_a") & ~pl.col("declares_b")),
    ("declares in b only", lambda: ~pl.col("declares_a") & pl.col("declares_b")),
    ("defends in both, the same contract", lambda: ~pl.col("declares_a") & ~pl.col("declares_b")
     & (pl.col("contract_a") == pl.col("contract_b"))),
    ("defends in both, another contract", lambda: ~pl.col("declares_a") & ~pl.col("declares_b")
     & (pl.col("contract_a") != pl.col("contract_b"))),
)


def paired_split(a: pl.DataFrame, b: pl.DataFrame) -> tuple[dict, pl.DataFrame]:
    """(the whole difference: mean a - b a deal with its 95% interval over deal numbers and the
    number of deals; one row per case of ``CASES``: share of the pairs, mean difference,
    contribution a deal) for two ``seat_margins`` frames of the same deals."""
    j = a.join(b, on=["game", "seat"], suffix="_b").rename({c: f"{c}_a" for c in _MARGIN_COLUMNS})
    if j.height != a.height or j.height != b.height:
        raise InputError("the two matches do not hold the same deals and seats (the same --deals, --seed and rules)")
    j = j.with_columns((pl.col("margin_a") - pl.col("margin_b")).alias("difference"))
    mean, low, high = clustered_mean(j["difference"].to_numpy(), j["game"].to_numpy())
    whole = {"difference": mean, "ci_low": low, "ci_high": high, "deals": j["game"].n_unique()}
    rows = []
    for name, case in CASES:
        s = j.filter(case())
        rows.append({"case": name, "share": s.height / j.height,
                     "mean_difference": float(s["difference"].mean()) if s.height else 0.0,
                     "contribution": float(s["difference"].sum()) / j.height})
    return whole, pl.DataFrame(rows)


def split_table(out_a: str | Path, out_b: str | Path, player_a: str | None = None,
                player_b: str | None = None) -> str:
    """The split of two matches as text (what ``python -m analysis.duplicate_split`` prints)."""
    name_a, a = seat_margins(out_a, player_a)
    name_b, b = seat_margins(out_b, player_b)
    whole, cases = paired_split(a, b)
    lines = [f"a = {name_a} ({out_a}), b = {name_b} ({out_b}): a - b {whole['difference']:+.2f} "
             f"[{whole['ci_low']:+.2f}, {whole['ci_high']:+.2f}] points a deal over {whole['deals']} deals",
             f"{'case (the seat of a and of b)':42s} {'share':>6s} {'mean':>8s} {'a deal':>7s}"]
    for r in cases.iter_rows(named=True):
        lines.append(f"{r['case']:42s} {r['share']:6.3f} {r['mean_difference']:+8.2f} {r['contribution']:+7.2f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m analysis.duplicate_split", description=__doc__.split("\n\n")[0])
    parser.add_argument("out_a")
    parser.add_argument("out_b")
    parser.add_argument("--player-a")
    parser.add_argument("--player-b")
    args = parser.parse_args(argv)
    print(split_table(args.out_a, args.out_b, args.player_a, args.player_b))


if __name__ == "__main__":
    main()
