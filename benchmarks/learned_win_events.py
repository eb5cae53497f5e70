"""What the score-aware learned player does differently in whole games: from the stored runs of
``thousand tournament learned-win learned learned --games N --out OUT``, the learned-win seat's
bolt penalties, dump trucks, barrel entries, barrel falls and falls to zero a game, less the mean
of the two learned seats' in the same game, averaged over the seatings (runs) of each game number,
with a normal 95% interval over the game numbers (independent: each is one duplicate set of
deals). The figures of docs/learned.md, "The score-aware player".

    python benchmarks/learned_win_events.py OUT
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import polars as pl

COUNTS = ("bolt_penalties", "dump_trucks", "barrel_entries", "barrel_falls", "zeroed")


def seat_counts(out: Path) -> dict[int, pl.DataFrame]:
    """{the learned-win seat: the games of that run}, from the runs' folder names (seat by seat)."""
    runs = {}
    for folder in sorted((out / "runs").iterdir()):
        seats = folder.name.replace("learned-win", "W").split("-")
        if seats.count("W") != 1 or len(seats) != 3:
            raise SystemExit(f"{folder}: not a run of one learned-win seat and two others")
        games = pl.concat([pl.read_parquet(f) for f in sorted((folder / "games").glob("*.parquet"))]).sort("game")
        runs[seats.index("W")] = games.filter(pl.col("finished"))
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path, help="the --out folder of the tournament")
    args = parser.parse_args()
    runs = seat_counts(args.out)
    common = set.intersection(*(set(g["game"].to_list()) for g in runs.values()))
    runs = {w: g.filter(pl.col("game").is_in(sorted(common))) for w, g in runs.items()}
    n = len(common)
    for name in COUNTS:
        diffs, own, rest = [], [], []
        for w, games in runs.items():
            x = np.stack([games[f"{name}{s}"].to_numpy() for s in range(3)], axis=1).astype(float)
            others = np.delete(x, w, axis=1).mean(axis=1)
            diffs.append(x[:, w] - others)
            own.append(x[:, w])
            rest.append(others)
        d = np.mean(diffs, axis=0)
        half = 1.96 * d.std(ddof=1) / np.sqrt(n)
        print(f"{name:15s} learned-win {np.mean(own):.3f}  others {np.mean(rest):.3f}  difference "
              f"{d.mean():+.3f} [{d.mean() - half:+.3f}, {d.mean() + half:+.3f}] a game ({n:,} game numbers finished "
              "in every seating)")


if __name__ == "__main__":
    main()
