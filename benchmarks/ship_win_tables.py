"""Remake the win-chance tables shipped with the package (``analysis/win_tables/PRESET.parquet``),
which ``thousand bid`` reads for its ``win`` objective when the rules and the learned weights match
(``analysis.win_chances.shipped_table``).

    python benchmarks/ship_win_tables.py [--rules classic,online] [--games 20000] [--work out/ship-win-tables]

For each preset, one at a time: ``thousand tables win-chances`` of the learned player, seed 0
(``analysis.win_chances.ship_tables``), played and stored in ``WORK/PRESET`` (resumable after
Ctrl-C with the same command; a stored result of other code or weights is redone there), then the
table, with its provenance in its metadata (version, games, seed, players, learned weights' hash,
rules, method, the code fingerprint at its making), copied to the package. About two minutes a
preset on two idle cores. It prints each table's summary: commit the changed files.
"""

from __future__ import annotations

import argparse
from contextlib import closing
from pathlib import Path

from analysis.present.win_chances import win_chance_lines
from analysis.win_chances import SHIPPED, SHIPPED_GAMES, ship_tables, shipped_path
from sim.progress import StageBars


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default=",".join(SHIPPED), help="presets, comma-separated")
    parser.add_argument("--games", type=int, default=SHIPPED_GAMES)
    parser.add_argument("--work", type=Path, default=Path("out/ship-win-tables"))
    args = parser.parse_args()
    presets = tuple(p.strip() for p in args.rules.split(",") if p.strip())
    with closing(StageBars("game", scaled=True)) as bars:
        tables = ship_tables(work=args.work, presets=presets, games=args.games, progress=bars)
    for preset, table in zip(presets, tables, strict=True):
        print(f"== {preset}: {shipped_path(preset)} (code fingerprint {table.provenance['code_fingerprint']}, "
              f"version {table.provenance['thousand_version']})")
        print("\n".join(win_chance_lines(table)))


if __name__ == "__main__":
    main()
