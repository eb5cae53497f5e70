"""How far two bid tables' cheat sheets agree under the settled rule: for every hand class and seat
both show (the main classes and their refinements), the plateau as a player reads it (passing in it
or not, its lowest level, its highest level or "+" when it is open above: no tested level above it
loses and the higher ones are untested) and the recommendation; over every such cell, and over the
cells whose plateau the small table settles (a plateau marked "~" is not settled: the small table
says it cannot tell).

    python benchmarks/cheat_agreement.py SMALL/bids.parquet LARGE/bids.parquet [--min-n 100]

Made for a quick report's table beside a larger one of the same seed (whose first deals are the
quick table's): issue 45 asks that they agree on the plateau in at least 90% of the cells both test.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from analysis.bids.classes import summarize_bid_table


def _cells(path: Path, min_n: int) -> dict:
    table = summarize_bid_table(path, min_n=min_n)
    return {(r.grouping, r.hand_class, s.seat): s for r in table.cheat_sheet + table.detail for s in r.seats}


def _plateau(s) -> tuple:
    return (s.plateau_pass, s.plateau_low, "+" if s.plateau_open else s.plateau_high)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("small", type=Path)
    ap.add_argument("large", type=Path)
    ap.add_argument("--min-n", type=int, default=100)
    args = ap.parse_args()
    small, large = _cells(args.small, args.min_n), _cells(args.large, args.min_n)
    both = sorted(small.keys() & large.keys())
    same_plateau = [k for k in both if _plateau(small[k]) == _plateau(large[k])]
    same_bid = [k for k in both if small[k].bid == large[k].bid]
    bidding = [k for k in both if small[k].bid is not None or large[k].bid is not None]
    settled = [k for k in both if small[k].plateau_settled and large[k].plateau_settled]
    small_settled = [k for k in both if small[k].plateau_settled]
    print(f"cells in both (class and seat, classes of {args.min_n}+ deals): {len(both)}")
    print(f"  same plateau: {len(same_plateau)} ({len(same_plateau) / max(1, len(both)):.0%}); same recommendation: "
          f"{len(same_bid)} ({len(same_bid) / max(1, len(both)):.0%})")
    print(f"  where either advises a bid: {len(bidding)}; same plateau there "
          f"{sum(k in same_plateau for k in bidding)}, same recommendation {sum(k in same_bid for k in bidding)}")
    print(f"  settled in the small table: {len(small_settled)}; same plateau there "
          f"{sum(k in same_plateau for k in small_settled)}; settled in both: {len(settled)}, same plateau there "
          f"{sum(k in same_plateau for k in settled)}")
    for k in both:
        if k not in same_plateau:
            a, b = small[k], large[k]
            print(f"  {k[1]} ({k[0]}), {k[2]} hand: {_plateau(a)} bid {a.bid}{'' if a.plateau_settled else ' ~'} -> "
                  f"{_plateau(b)} bid {b.bid}{'' if b.plateau_settled else ' ~'}")


if __name__ == "__main__":
    main()
