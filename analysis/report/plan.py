"""The plan of a strategy report, read by the report that runs it (``analysis.report.build``) and
the page that describes it (``analysis.report.page``): its sample sizes (``Sizes``, the ``QUICK``
and ``FULL`` presets) and the cost model that estimates each stage's time before it starts."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sim.numba_config import CACHE_DIR

__all__ = ["Sizes", "QUICK", "FULL", "COST", "stage_estimates", "cache_is_cold"]


@dataclass(frozen=True)
class Sizes:
    """Sample sizes of one report."""

    bid_deals: int  # random deals of the bid table (learned contracts and lines; dd and heuristic beside)
    pimc_deals: int  # of those, the first ones also declared by pimc
    marriage_deals: int  # random deals the exact marriage odds are measured against
    marriage_play_deals: int  # deals played to see what becomes of held marriages
    barrel_games: int  # whole games per rule set (barrel survival)
    compare_games: int  # whole games per rule set (house-rule comparison)
    tournament_games: int  # whole games per seating of the tournament
    min_n: int  # deals a hand class needs to appear in the cheat sheet
    strategy_games: int  # whole games of the strategy sections (the learned player at every seat)
    strategy_deals: int  # deals of each of the strategy's two paired runs (concession on and off)
    situation_deals: int  # random deals a hand class of the score situations (analysis.bids.situations)
    folk_positions: int = 300  # the strategy's deals (spread over its games) the folk advice solves double dummy


# --quick: under 10 minutes on a 2-core machine, compilation included; the intervals are wide
# and printed. The full report: the cheat sheet's classes of at least 400 deals, each advice with
# its gain over passing and interval (the Method section counts those whose interval lies above 0),
# and the rule and player effects of a few hundredths.
QUICK = Sizes(bid_deals=10_000, pimc_deals=300, marriage_deals=200_000, marriage_play_deals=10_000,
              barrel_games=5_000, compare_games=3_000, tournament_games=2_000, min_n=100, strategy_games=2_000,
              strategy_deals=20_000, situation_deals=500, folk_positions=2_000)
FULL = Sizes(bid_deals=200_000, pimc_deals=3_000, marriage_deals=2_000_000, marriage_play_deals=50_000,
             barrel_games=50_000, compare_games=20_000, tournament_games=20_000, min_n=400, strategy_games=20_000,
             strategy_deals=200_000, situation_deals=5_000, folk_positions=20_000)

# Seconds per unit on one 2-core machine (measured with a warm cache), for the estimate printed at
# the start: a bid-table deal (the learned player's contracts and auction lines in three seats, dd
# and heuristic play: profiled on 200 deals, dd is 60% of it and the learned plays most of the
# rest), a pimc deal, a random deal measured, a deal played by the learned player, a whole game of
# learned players (3,000 took 11 s on the 2 cores shared with other work), a tournament game (a
# learned seat among them), the strategy's games and deals; a deal of a hand class of the score
# situations (its lines in all seven situations of the classic rules as first, second and third
# hand, six classes: 500 deals a class took 53 s, 27 s of CPU, and 5,000 took 506 s, 268 s of CPU
# and 2.4 GB resident, alone in a fresh process on the 2 cores shared with other work, load 8-9;
# second hand alone took a third of that); and the first compilation.
# The folk advice: a deal's two double-dummy gift values and its first lead's values, the lead's
# solves most of it (800 deals took 7.5 s on the 2 cores shared with other work, warm).
FOLK_POSITION_COST = 0.01
COST = {"bid": 0.0075, "pimc": 0.1, "marriage": 2e-5, "play": 1e-4, "game": 3e-3, "tournament_game": 2e-3,
         "compile": 120.0, "strategy_game": 0.009, "strategy_deal": 3e-4,
         "situation_deal": 0.1, "folk_position": FOLK_POSITION_COST}


def stage_estimates(sizes: Sizes, n_rule_sets: int, cold: bool) -> dict[str, float]:
    """Estimated seconds of each stage."""
    return {
        "compile": COST["compile"] if cold else 0.0,
        "bids": sizes.bid_deals * COST["bid"] + sizes.pimc_deals * COST["pimc"],
        "marriages": sizes.marriage_deals * COST["marriage"] + sizes.marriage_play_deals * COST["play"],
        "barrel": n_rule_sets * sizes.barrel_games * COST["game"],
        "rules": n_rule_sets * sizes.compare_games * COST["game"],
        "players": 6 * sizes.tournament_games * COST["tournament_game"],
        "strategy": sizes.strategy_games * COST["strategy_game"] + 2 * sizes.strategy_deals * COST["strategy_deal"],
        "situations": sizes.situation_deals * COST["situation_deal"],
        "folk": sizes.folk_positions * COST["folk_position"],
        "write": 5.0,
    }


def cache_is_cold() -> bool:
    """Whether the compiled kernels are not cached yet: the first report compiles them (``COST["compile"]``)."""
    cache = Path(CACHE_DIR)
    return not CACHE_DIR or not cache.is_dir() or not any(cache.rglob("playouts_nb*.nbi"))
