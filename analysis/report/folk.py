"""The report's section "What the folk advice says, tested": each rule of thumb of ``analysis.folk``
measured on what the report already played (the bid table's auction lines, the strategy's games
and paired concession runs, the barrel's games) and by two double-dummy experiments on the
strategy's own deals (the small-cards gifts, the ace lead), then judged by ``analysis.folk``'s
verdict rule, Holm-corrected over the tested items.

The result is stored as ``folk.parquet`` (one row an item) with what made it as metadata (the code
fingerprint, the rules, the seed, the number of deals the double-dummy experiments solve and the
SHA-256 of every stored table it read) and read back when all of that is the same."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from analysis import folk
from analysis.analysis_dir import read_table_metadata
from analysis.bids.parts import line_limits
from analysis.stats import Estimate
from analysis.stored import FINGERPRINT, manifest_problem
from analysis.strategy.arrays import COLUMNS, Clusters, Deals, load_deals, marriages_in
from analysis.study import store_table
from sim import __version__
from sim.engine.schema import BID_NORMAL, BID_UNDARKED
from sim.fingerprint import code_fingerprint, file_sha256
from sim.game.cards import ACE, ACES_MASK
from sim.game.rules import load_rules
from sim.runs import scan_deals

if TYPE_CHECKING:
    from analysis.barrel import BarrelStats
    from analysis.bids.results import BidTable
    from analysis.strategy.study import StrategyReport

__all__ = ["FOLK_FILE", "HIGH_WITHOUT_MARRIAGE", "SAFE_LEVEL", "DARK_CONTRACT", "folk_advice", "bid_rows",
           "declarers"]

FOLK_FILE = "folk.parquet"
HIGH_WITHOUT_MARRIAGE = 120  # the most a hand without a marriage may bid in the seeds' rules (000:37)
SAFE_LEVEL = 110  # "a hundred or a hundred and ten" (001:102): the higher of the two is tested
DARK_CONTRACT = 120  # a dark game's contract (000:400)
MIN_ACES, MIN_TENS = 2, 2  # "with aces and tens" (plural both): at least two of each


def bid_rows(bids: BidTable) -> pl.DataFrame:
    """One row a hand and seat of the bid table: deal, seat, marriages, aces, tens, the race value
    of the pass line and of the lines "bid up to" ``SAFE_LEVEL`` and ``HIGH_WITHOUT_MARRIAGE``
    (None where the hand may not bid so high), and whether the learned player, declaring
    ``SAFE_LEVEL`` and ``DARK_CONTRACT`` with the hand and talon, made them (seat "first" rows
    only: the make-rates do not depend on the seat)."""
    levels = list(bids.levels)
    limits = line_limits(max(levels), levels)
    table = pl.read_parquet(bids.table_file)
    none = pl.lit(None, dtype=pl.Float64)

    def made(level: int) -> pl.Expr:  # null where the rules have no such contract
        if level not in levels:
            return none
        return pl.col("learned_made").cast(pl.List(pl.Boolean)).list.get(levels.index(level)).cast(pl.Float64)

    frames = []
    for seat in ("first", "second", "third"):
        def race(level: int | None, seat: str = seat) -> pl.Expr:
            if level is not None and level not in limits:
                return none
            line = 0 if level is None else limits.index(level)
            ch = [pl.col(f"{seat}_change{s}").cast(pl.List(pl.Int64)).list.get(line, null_on_oob=True)
                  for s in range(3)]
            return (ch[0] - (ch[1] + ch[2]) / 2).cast(pl.Float64)

        frames.append(table.select(
            pl.col("deal"), pl.lit(seat).alias("seat"), pl.col("marriages"), pl.col("aces"), pl.col("tens"),
            race(None).alias("race_pass"), race(SAFE_LEVEL).alias("race_safe"),
            race(HIGH_WITHOUT_MARRIAGE).alias("race_high"), made(SAFE_LEVEL).alias("made_safe"),
            made(DARK_CONTRACT).alias("made_dark")))
    return pl.concat(frames)


def declarers(strategy: StrategyReport) -> tuple[Deals, np.ndarray]:
    """The strategy games' deals (``analysis.strategy.arrays.Deals``) and the mask of its ordinary
    auctions (not a dark or golden deal)."""
    d = load_deals(scan_deals(strategy.runs["games"]).select(COLUMNS).collect())
    return d, (d.bid_kind == BID_NORMAL) | (d.bid_kind == BID_UNDARKED)


def _share(flags: np.ndarray) -> Estimate:
    flags = np.asarray(flags, dtype=bool)
    return Estimate.share(int(flags.sum()), len(flags))


def _items(bids: BidTable, strategy: StrategyReport, barrel: BarrelStats | None, rules_name: str,
           positions: int, threads: int | None) -> list[folk.FolkItem]:
    rules = load_rules(rules_name)
    nan = float("nan")
    rows = bid_rows(bids)
    items: dict[str, folk.FolkItem] = {}

    # 1. without a marriage, the pass line against bidding up to the most allowed
    plain = rows.filter((pl.col("marriages") == 0) & pl.col("race_high").is_not_null())
    items["no_marriage_high"] = folk.FolkItem(
        "no_marriage_high", f"race points a deal that passing gains over bidding up to {HIGH_WITHOUT_MARRIAGE}, "
        "hands without a marriage, the three seats (bid table: learned player in every seat; first hand's pass line "
        "is the forced 100; clustered by deal)",
        folk.clustered_effect((plain["race_pass"] - plain["race_high"]).to_numpy(), plain["deal"].to_numpy()),
        nan, nan, "", "game")

    # 2. aces and tens, no marriage: bidding up to 110 against passing; the make-rate of 110 beside
    strong = rows.filter((pl.col("marriages") == 0) & (pl.col("aces") >= MIN_ACES) & (pl.col("tens") >= MIN_TENS)
                         & pl.col("race_safe").is_not_null())
    made = strong.filter((pl.col("seat") == "first") & pl.col("made_safe").is_not_null())["made_safe"].to_numpy()
    items["aces_tens_safe"] = folk.FolkItem(
        "aces_tens_safe", f"race points a deal that bidding up to {SAFE_LEVEL} gains over passing, hands without a "
        f"marriage holding {MIN_ACES}+ aces and {MIN_TENS}+ tens, the three seats (first hand's pass line is the "
        "forced 100; clustered by deal)",
        folk.clustered_effect((strong["race_safe"] - strong["race_pass"]).to_numpy(), strong["deal"].to_numpy()),
        nan, nan, "", "game", f"the learned player makes {SAFE_LEVEL} with these hands (and the talon)",
        _share(made == 1))

    # the strategy's games: `positions` of the declarers' deals played on, spread evenly over them
    # (and so over the games, the clusters)
    d, free = declarers(strategy)
    # who played the strategy's games (learned-win by default: its gifts and cards are learned's)
    who = " and ".join(dict.fromkeys(strategy.players))
    played = np.flatnonzero(free & ~d.conceded)
    if len(played) > positions:
        played = played[np.unique(np.linspace(0, len(played) - 1, positions).round().astype(np.int64))]
    sample = folk.Declarers(game=d.game[played], ten=d.ten[played], left7=d.at(d.hand, d.left)[played],
                            right7=d.at(d.hand, d.right)[played], gift_left=d.gift_left[played],
                            gift_right=d.gift_right[played], first_lead=d.plays[played, 0])
    clusters = Clusters(sample.game)

    # 3. the small-cards rule's gifts against the learned player's, double dummy, the same deals
    rule_v, played_v = folk.gift_values(sample, rules, threads=threads)
    gave = folk.gives_ace_or_ten(sample.gift_left) | folk.gives_ace_or_ten(sample.gift_right)
    items["small_gifts"] = folk.FolkItem(
        "small_gifts", "double-dummy points the declarer gains by giving the two smallest cards outside his "
        f"marriages instead of the {who} player's gifts, the same deals (clustered by game; the learned players' "
        "gifts were trained on double-dummy values, so this is their home ground)",
        folk.clustered_effect(rule_v - played_v, sample.game), nan, nan, "", "dd",
        f"deals on which the {who} player gave an ace or a ten", clusters.share(gave))

    # 4. raising: the share raised after a talon that made a marriage, less after one that brought
    # neither a marriage nor an ace (the strategy's player's choices, paired by game)
    h7 = d.at(d.hand, d.declarer)
    rich = (marriages_in(d.ten) & ~marriages_in(h7)).any(axis=1)
    poor = ~rich & ~marriages_in(d.talon).any(axis=1) & ((d.talon & int(ACES_MASK)) == 0)
    raised = free & ~d.conceded & (d.contract > d.winning_bid)
    diff = Clusters(d.game).difference(raised.astype(np.float64), free & poor, free & rich)
    items["raise_rich_talon"] = folk.FolkItem(
        "raise_rich_talon", f"share of the {who} player's contracts raised after a talon that made him a marriage, "
        "less after one that brought no marriage and no ace (his own games, paired by game)", diff.diff,
        nan, nan, "", "player", "his raised contracts made", strategy.raising.made["raised"])

    # 5. the first lead: the best ace lead against the best lead of another card, double dummy
    best_ace, best_other, _ = folk.lead_values(sample, rules)
    both = best_ace >= 0
    items["lead_ace"] = folk.FolkItem(
        "lead_ace", "double-dummy points the best ace lead gains over the best lead of another card, the "
        "declarer's first lead after the gifts, deals where he holds both (clustered by game)",
        folk.clustered_effect((best_ace - best_other)[both], sample.game[both]), nan, nan, "", "dd",
        f"of the same deals, the {who} player led an ace", Clusters(sample.game[both]).share(
            (sample.first_lead[both] % 6) == ACE))

    # 6. conceding: what the learned player's concessions saved against playing the same deals on
    paired = strategy.conceding.paired
    saved = paired.saved_race if paired is not None else Estimate.none()
    items["concede"] = folk.FolkItem(
        "concede", "race points a deal the learned player's concessions saved against playing the same deals on "
        "(paired run with concession off; each deal its cluster)", saved, nan, nan, "", "game",
        "of the conceded contracts, made when played on", paired.made_if_played if paired is not None else None)

    # 7. the barrel: not in the seeds; its chance of leaving upward as information
    summary = next(iter(barrel.summaries.values())) if barrel is not None and barrel.summaries else None
    up = summary.fates["up"].rate if summary is not None else Estimate.none()
    items["barrel_lottery"] = folk.FolkItem(
        "barrel_lottery", f"share of barrel episodes that end by leaving upward ({rules_name}, clustered by game)", up,
        nan, nan, folk.NOT_IN_SEEDS, "game")

    # 8. the dark game: described, not advised; what a blind 120 stakes as information
    first = rows.filter((pl.col("seat") == "first") & pl.col("made_dark").is_not_null())
    items["dark"] = folk.FolkItem(
        "dark", f"share of random hands with which the learned player, declaring {DARK_CONTRACT} with the talon, "
        "makes it: the chance a blind 120 stakes (before the others may undark)", _share(first["made_dark"] == 1),
        nan, nan, folk.NO_ADVICE, "game")
    return [items[q.key] for q in folk.QUOTES]


def folk_advice(folder: Path, *, bids: BidTable, strategy: StrategyReport, barrel: BarrelStats | None,
                rules_name: str, seed: int, positions: int, threads: int | None = None) -> folk.FolkAdvice:
    """The folk advice tested (``analysis.folk.FolkAdvice``) from the report's results, stored in
    ``folder/folk.parquet`` and read back when made by this code from the same inputs."""
    inputs = {"bids": bids.table_file, "strategy": strategy.table_path}
    if barrel is not None:
        inputs["barrel"] = barrel.table_path
    meta = {"thousand_version": __version__, FINGERPRINT: code_fingerprint("report.folk"), "table": "folk",
            "rules_name": rules_name, "rules": load_rules(rules_name).to_dict(), "seed": seed,
            "positions": positions, "players": list(strategy.players),
            "inputs": {k: {"file": Path(p).name, "sha256": file_sha256(Path(p))} for k, p in inputs.items()}}
    path = Path(folder) / FOLK_FILE
    if path.is_file() and manifest_problem(path) is None:
        try:
            stored = read_table_metadata(path)
        except (OSError, ValueError):
            stored = {}
        if {k: stored.get(k) for k in meta} == json.loads(json.dumps(meta)):
            return folk.FolkAdvice.from_polars(pl.read_parquet(path), stored)
    result = folk.FolkAdvice(items=folk.with_verdicts(_items(bids, strategy, barrel, rules_name, positions, threads)),
                             provenance=meta)
    Path(folder).mkdir(parents=True, exist_ok=True)
    store_table(result.to_polars(), path, {k: json.dumps(v) for k, v in meta.items()})
    return result
