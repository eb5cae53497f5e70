"""Strategy in play: the questions a strong player asks, measured on realistic play (by default the
learned player at every seat), from stored runs.

Three runs are played (or reused) under ``out/strategy-runs``:

- ``games``: whole games. Every section but the concession's counterfactual reads its played
  deals; deals of one game share its score situation, so every interval is clustered by game
  (the game's sums over its rows, delta method). The score situation (the barrel, the dump truck,
  bolt penalties) is read from the deals' event bits (``sim.engine.schema`` EV_*).
- ``deals`` and ``deals-concede-off``: independent deals from a zero score, the second under the
  same rules with concession turned off (``concede = false``), from the same seed. The deal
  stream does not depend on the players' choices, and nothing before the concession decision
  reads the concession rules, so both runs hold the same deals, auctions and gifts (counted and
  stored as ``mismatched``: 0); the deals conceded in the first are played on in the second,
  everything else equal. Their difference is a paired (duplicate) measurement of what a
  concession saved against playing on.

Everything else is observational: what the player does and how it fares, never what would have
happened had it chosen otherwise. A share's interval is Wilson's with the sample size deflated by
the design effect of the clustering (never below the plain one); a mean's is normal on the
clustered standard error; a difference of two rates or means over the same games is paired by
game (``analysis.stats.PairedRatioSums``), and the p-values of all differences are Holm-corrected
together.

The arrays and the clustered estimates are ``analysis.strategy.arrays``, the seven sections
``analysis.strategy.sections``; this module plays the runs, measures the sections, corrects their
p-values together and stores the table (``code_fingerprint("strategy.study")``, which covers both).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from analysis.players import learned_weights, players_or_default, score_blind
from analysis.stats import Estimate, holm, stored_row
from analysis.stored import FINGERPRINT, holds_out
from analysis.strategy.arrays import COLUMNS, Deals, Difference, load_deals
from analysis.strategy.sections import (
    ConcedeStats,
    DefenceStats,
    DiscardStats,
    MarriageOrderStats,
    RaiseStats,
    ScoreStats,
    SeatStats,
    concede_stats,
    defence_stats,
    discard_stats,
    marriage_order,
    paired_concession,
    raise_stats,
    score_stats,
    seat_stats,
)
from analysis.study import Plan, Played, finished_games, identity, run_study
from sim import InputError, __version__
from sim.engine import BatchSpec
from sim.fingerprint import code_fingerprint
from sim.game.rules import HouseRules, load_rules
from sim.runs import scan_deals

if TYPE_CHECKING:
    from collections.abc import Iterator

    from sim.progress import Progress
    from sim.runs.backend import Backend

__all__ = ["TABLE_FILE", "PLOT_FILE", "RUNS_DIR", "RUN_NAMES", "IDENTITY", "SECTIONS", "StrategyReport", "leaves",
           "section_record", "concede_off", "strategy"]

TABLE_FILE = "strategy.parquet"
PLOT_FILE = "strategy.png"
RUNS_DIR = "strategy-runs"
RUN_NAMES = ("games", "deals", "deals-concede-off")


# ---- the result ------------------------------------------------------------------------------------------------
# What identifies a stored strategy table (besides the code fingerprint): metadata key -> (what a
# refusal calls it, the option that sets it).
IDENTITY = identity(table=None, rules=None, games="--games", deals="--deals", seed="--seed", players="--players",
                    learned_weights="--players")

SECTIONS = ("raising", "conceding", "discard", "marriage_order", "defence", "seats", "score")


@dataclasses.dataclass(frozen=True)
class StrategyReport:
    """The strategy sections (``strategy``), each measured on the same stored runs.

    - ``rules_name``: the rule set as given; ``games``: whole games played; ``deals``: deals of
      each paired deals run; ``seed``; ``players``: who played the games, one name a seat (every
      number but the paired concession's comes from their play; the paired deals are played by
      their score-blind twins, ``provenance["deal_players"]``);
    - ``raising`` (``RaiseStats``), ``conceding`` (``ConcedeStats``), ``discard``
      (``DiscardStats``), ``marriage_order`` (``MarriageOrderStats``), ``defence``
      (``DefenceStats``), ``seats`` (``SeatStats``): from the games' played deals;
      ``score`` (``ScoreStats``): from the same games' events; the concession's paired part from
      the two deals runs;
    - ``runs``: {name: folder of the stored run}; ``table_path``: the stored ``strategy.parquet``
      (``to_polars()``, with ``provenance`` as metadata); ``plot_path``: where its plot goes
      (``analysis.present.strategy.plot_strategy``); ``provenance``: version, code fingerprint,
      sizes, seed, players, rules.

    ``to_polars()``: one row an estimate or difference (section, quantity, kind, value, low, high,
    n, clusters, a, b, p, p_holm). ``to_dict()``: the provenance and every section.
    """

    rules_name: str
    games: int
    deals: int
    seed: int
    players: tuple[str, ...]
    raising: RaiseStats
    conceding: ConcedeStats
    discard: DiscardStats
    marriage_order: MarriageOrderStats
    defence: DefenceStats
    seats: SeatStats
    score: ScoreStats
    runs: dict[str, Path]
    table_path: Path
    plot_path: Path
    provenance: dict

    def to_polars(self) -> pl.DataFrame:
        """Every estimate and difference, one row each."""
        rows = []
        for name in SECTIONS:
            for path, leaf in leaves(getattr(self, name), name):
                if isinstance(leaf, Estimate):
                    rows.append({"section": name, "quantity": path, "kind": "estimate", "value": leaf.value,
                                 "low": leaf.low, "high": leaf.high, "n": leaf.n, "clusters": leaf.clusters,
                                 "a": None, "b": None, "p": None, "p_holm": None})
                else:
                    rows.append({"section": name, "quantity": path, "kind": "difference", "value": leaf.diff.value,
                                 "low": leaf.diff.low, "high": leaf.diff.high, "n": None, "clusters": leaf.clusters,
                                 "a": leaf.a, "b": leaf.b, "p": leaf.p, "p_holm": leaf.p_holm})
        schema = {"section": pl.String, "quantity": pl.String, "kind": pl.String, "value": pl.Float64,
                  "low": pl.Float64, "high": pl.Float64, "n": pl.Int64, "clusters": pl.Int64, "a": pl.Float64,
                  "b": pl.Float64, "p": pl.Float64, "p_holm": pl.Float64}
        return pl.DataFrame(rows, schema=schema)

    def to_dict(self) -> dict:
        """The stored metadata and every section as plain Python (what ``--json`` prints)."""
        return {**self.provenance, **{name: section_record(getattr(self, name)) for name in SECTIONS}}


def leaves(value: object, path: str) -> Iterator[tuple[str, Estimate | Difference]]:
    """(dotted path, Estimate or Difference) of every leaf of a section, in field order (the
    strategy's text prints them so)."""
    if isinstance(value, Estimate | Difference):
        yield path, value
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            yield from leaves(getattr(value, f.name), f"{path}.{f.name}")
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from leaves(v, f"{path}.{k}")


def section_record(value: Any) -> Any:
    """A section (or any part of one) as plain Python, as ``--json`` prints it: an ``Estimate`` as
    its fields (value, low, high, n, clusters), a ``Difference`` as its stored row (a, b, diff,
    low, high, p, p_holm, clusters), any other record or dict field by field."""
    if isinstance(value, Difference):
        return stored_row(value)
    if isinstance(value, Estimate):
        return dataclasses.asdict(value)
    if dataclasses.is_dataclass(value):
        return {f.name: section_record(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {k: section_record(v) for k, v in value.items()}
    return value


def _with_holm(sections: dict) -> dict:
    """The sections with every Difference's ``p_holm`` set: Holm over all the differences."""
    found = [leaf for s in sections.values() for _, leaf in leaves(s, "") if isinstance(leaf, Difference)]
    adjusted = dict(zip(map(id, found), holm([x.p for x in found]), strict=True))

    def fix(value):
        if isinstance(value, Difference):
            return dataclasses.replace(value, p_holm=adjusted[id(value)])
        if isinstance(value, Estimate) or value is None or not (dataclasses.is_dataclass(value)
                                                                 or isinstance(value, dict)):
            return value
        if isinstance(value, dict):
            return {k: fix(v) for k, v in value.items()}
        return dataclasses.replace(value, **{f.name: fix(getattr(value, f.name)) for f in dataclasses.fields(value)})

    return {k: fix(v) for k, v in sections.items()}


def concede_off(rules: HouseRules) -> HouseRules:
    """The same rules with concession turned off (and the options that refine it with it)."""
    return dataclasses.replace(rules, concede=False, concede_60=False, concede_no_deduction=False, concede_limit=0,
                               concede_third_penalty=False, concede_on_barrel=False, concede_free_at_min_bid=False,
                               concede_payout=HouseRules().concede_payout)


def _read(run: Path) -> Deals:
    return load_deals(scan_deals(run).select(COLUMNS).collect())


@holds_out()
def strategy(*, games: int, deals: int, rules: str = "classic", players: str | None = None, seed: int = 0,
             out: Path = Path("out/tables"), progress: Progress | None = None, backend: Backend | None = None,
             fresh: bool = False) -> StrategyReport:
    """The strategy sections (``StrategyReport``) for the rule set ``rules`` (a preset or a TOML
    file), measured on ``players``' play (one name for every seat, or one a seat; None: the default
    player of whole games, ``analysis.players.default_player``, the score-aware ``learned-win``
    where the rules have its table, else the learned player): ``games`` whole
    games, and ``deals`` independent deals played twice from the same seed, with concession as the
    rules have it and with it off (skipped when the rules forbid conceding), by the same players
    made score-blind (``analysis.players.score_blind``: ``learned`` for ``learned-win``; a deal
    from a zero score has no score in play, and the rules with concession off no win-chance table). The runs are stored
    under ``out/strategy-runs`` and reused, the table as ``out/strategy.parquet``; what ``out``
    holds from other arguments or other code is refused (``analysis.study``) unless
    ``fresh``, which redoes it. ``progress(stage, units done, units)`` follows the play."""
    if seed < 0:
        raise InputError(f"--seed must be 0 or more, not {seed}")
    if games < 2:
        raise InputError(f"--games must be 2 or more: an interval clustered by game needs two games, not {games}")
    if deals < 2:
        raise InputError(f"--deals must be 2 or more: an interval needs two deals, not {deals}")
    loaded = load_rules(rules)
    if loaded.players != 3:
        raise InputError(f"the strategy sections are for the 3-player game; rules {rules!r} have players = "
                         f"{loaded.players}")
    game = BatchSpec(mode="games", n=games, rules=loaded, players=players_or_default(players, loaded, games=True),
                     seed=seed)
    dealt = score_blind(game.players)  # deals from a zero score: no score in play
    specs = {"games": game, "deals": BatchSpec(mode="deals", n=deals, rules=loaded, players=dealt, seed=seed)}
    if loaded.concede:
        specs["deals-concede-off"] = BatchSpec(mode="deals", n=deals, rules=concede_off(loaded), players=dealt,
                                               seed=seed, chunk_size=specs["deals"].chunk_size)
    out = Path(out)
    meta = {"thousand_version": __version__, FINGERPRINT: code_fingerprint("strategy.study"), "table": "strategy",
            "games": games, "deals": deals, "seed": seed, "players": list(game.players),
            "deal_players": list(specs["deals"].players),
            "learned_weights": learned_weights(game.players + specs["deals"].players),
            "rules_name": rules, "rules": loaded.to_dict()}
    plan = Plan(out=out, name="strategy", table=TABLE_FILE, runs=specs,
                folders={name: f"{RUNS_DIR}/{name}" for name in specs}, provenance=meta, identity=IDENTITY,
                what="the strategy table", runs_dir=RUNS_DIR,
                stage={name: "games" if name == "games" else "paired deals" for name in specs}, drawn=(PLOT_FILE,))

    def measure(played: Played) -> StrategyReport:
        runs = played.dirs
        done = finished_games({"games": runs["games"]})["games"][0]
        game_deals = _read(runs["games"])
        paired = paired_concession(_read(runs["deals"]), _read(runs["deals-concede-off"])) if loaded.concede else None
        sections = _with_holm({
            "raising": raise_stats(game_deals), "conceding": concede_stats(game_deals, loaded, paired),
            "discard": discard_stats(game_deals), "marriage_order": marriage_order(game_deals, loaded),
            "defence": defence_stats(game_deals, loaded), "seats": seat_stats(game_deals, loaded),
            "score": score_stats(game_deals, loaded, done)})
        meta["played_deals"] = game_deals.rows
        return StrategyReport(rules_name=rules, games=games, deals=deals, seed=seed, players=tuple(meta["players"]),
                              **sections, runs={name: out / RUNS_DIR / name for name in specs},
                              table_path=out / TABLE_FILE, plot_path=out / PLOT_FILE, provenance=meta)

    # Everything is checked before anything is written or played: a refused command leaves the
    # folder as it was and draws no progress bar.
    return run_study(plan, measure, progress=progress, backend=backend, fresh=fresh)
