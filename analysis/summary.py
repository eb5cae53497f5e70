"""The summary of a stored run (what ``thousand simulate`` and ``thousand runs combine`` print):
declarer make-rates and contracts from the deal shards, overall and by player type, and win rates
and game length from the game shards, each with a 95% interval. ``summarize_run`` reads the run
(verified: a shard changed since it was stored is refused) and returns a ``RunSummary``;
``analysis.present.summary.run_summary_lines`` prints it."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from analysis.stats import Estimate, estimate_field, stored_row
from sim import arguments
from sim.game.rules import HouseRules
from sim.runs import read_run_metadata, run_seeds, scan_deals, scan_games

__all__ = ["DealSummary", "PlayerMakeRate", "SeatWins", "GameSummary", "RunSummary", "summarize_run"]


@dataclass(frozen=True)
class DealSummary:
    """The deals of a run that have a declarer (thrown-in and redealt deals have none).

    - ``deals``: their number;
    - ``made``, ``played``, ``conceded``: the contracts made, played out (not conceded) and conceded;
    - ``made_rate``: made / deals with its 95% Wilson interval (an ``Estimate``);
    - ``made_rate_played``: made / played (the make-rate of played contracts), with its interval;
    - ``conceded_rate``: conceded / deals;
    - ``contract_mean``: the mean contract with its 95% normal interval (an ``Estimate``).

    With no deal (every one thrown in or redealt) the rates, the mean contract and their intervals
    are NaN. ``to_dict()`` spells each estimate as its value and a ``_ci`` pair (low, high).
    """

    deals: int
    made: int
    played: int
    conceded: int
    made_rate: Estimate
    made_rate_played: Estimate
    conceded_rate: float
    contract_mean: Estimate

    def to_dict(self) -> dict:
        return {"deals": self.deals, "made": self.made, "played": self.played, "conceded": self.conceded,
                "made_rate": self.made_rate.value, "made_rate_ci": self.made_rate.interval,
                "made_rate_played": self.made_rate_played.value,
                "made_rate_played_ci": self.made_rate_played.interval,
                "conceded_rate": self.conceded_rate, "contract_mean": self.contract_mean.value,
                "contract_mean_ci": self.contract_mean.interval}


@dataclass(frozen=True)
class PlayerMakeRate:
    """One player type as declarer: ``player`` (its name), ``declared`` (the deals it declared),
    ``made_rate`` (made / declared, conceded contracts counting as not made) with its 95% Wilson
    interval (an ``Estimate``, stored as the columns made_rate, ci_low, ci_high), ``conceded_rate``
    and ``mean_contract``."""

    player: str
    declared: int
    made_rate: Estimate = estimate_field("made_rate", "ci_low", "ci_high")
    conceded_rate: float
    mean_contract: float


@dataclass(frozen=True)
class SeatWins:
    """The games one seat won: ``seat``, ``player`` (its type), ``wins``, ``win_rate`` (wins over
    every game, unfinished ones included) with its 95% Wilson interval (an ``Estimate``, stored as
    the columns win_rate, ci_low, ci_high)."""

    seat: int
    player: str
    wins: int
    win_rate: Estimate = estimate_field("win_rate", "ci_low", "ci_high")


@dataclass(frozen=True)
class GameSummary:
    """The games of a run.

    - ``games``: their number, ``unfinished`` those stopped at the deal limit;
    - ``seats``: each seat's wins, in seat order (two, three or four seats);
    - ``deals_mean``: the mean length of the finished games in deals with its 95% normal interval
      (an ``Estimate``: NaN without a finished game, its interval NaN from fewer than two),
      ``deals_median`` the median (NaN without a finished game).
    """

    games: int
    unfinished: int
    seats: tuple[SeatWins, ...]
    deals_mean: Estimate
    deals_median: float

    def to_dict(self) -> dict:
        return {"games": self.games, "unfinished": self.unfinished,
                "seats": [stored_row(s) for s in self.seats], "deals_mean": self.deals_mean.value,
                "deals_mean_ci": self.deals_mean.interval, "deals_median": self.deals_median}


@dataclass(frozen=True)
class RunSummary:
    """The summary of a stored run (``summarize_run``).

    What the run is:

    - ``run``: its folder, as given;
    - ``mode``: "games" or "deals", ``sample_size`` how many;
    - ``seeds``: its root seeds (one; several for a combined run), ``combined`` whether it was
      combined from several runs (``thousand runs combine``);
    - ``players``: the player type of each seat;
    - ``rules``: the house rules it was played under;
    - ``version``, ``code_fingerprint``: the version of thousand and the fingerprint of the code
      that played it (None where the run recorded none);
    - ``provenance``: the run's metadata as stored (run.json).

    What it holds:

    - ``deals``: the deals with a declarer;
    - ``by_player``: the make-rate of each player type as declarer, by player name (empty without
      a deal with a declarer); ``to_polars()`` gives it as a table;
    - ``games``: the games (None for a run of deals); ``to_polars(table="seats")`` gives its seats.
    """

    run: Path
    mode: str
    sample_size: int
    seeds: tuple[int, ...]
    combined: bool
    players: tuple[str, ...]
    rules: HouseRules
    version: str
    code_fingerprint: str | None
    provenance: dict
    deals: DealSummary
    by_player: tuple[PlayerMakeRate, ...]
    games: GameSummary | None

    def to_polars(self, table: str = "players") -> pl.DataFrame:
        """``table`` "players": the make-rate by player type (player, declared, made_rate, ci_low,
        ci_high, conceded_rate, mean_contract), a row a type as declarer; "seats": the games won by
        seat (seat, player, wins, win_rate, ci_low, ci_high), empty for a run of deals."""
        if table == "players":
            return pl.DataFrame([stored_row(r) for r in self.by_player], schema=PLAYER_SCHEMA)
        if table == "seats":
            seats = self.games.seats if self.games is not None else ()
            return pl.DataFrame([stored_row(s) for s in seats], schema=SEAT_SCHEMA)
        raise ValueError(f"table {table!r}: players or seats")

    def to_dict(self) -> dict:
        return {"run": str(self.run), "mode": self.mode, "sample_size": self.sample_size,
                "seeds": list(self.seeds), "combined": self.combined, "players": list(self.players),
                "rules": self.rules.changes_from(HouseRules()) or "classic", "version": self.version,
                "code_fingerprint": self.code_fingerprint, "deals": self.deals.to_dict(),
                "by_player": [stored_row(r) for r in self.by_player],
                "games": self.games.to_dict() if self.games is not None else None}


PLAYER_SCHEMA = {"player": pl.String, "declared": pl.Int64, "made_rate": pl.Float64, "ci_low": pl.Float64,
                 "ci_high": pl.Float64, "conceded_rate": pl.Float64, "mean_contract": pl.Float64}
SEAT_SCHEMA = {"seat": pl.Int64, "player": pl.String, "wins": pl.Int64, "win_rate": pl.Float64,
               "ci_low": pl.Float64, "ci_high": pl.Float64}


def _deal_summary(out: Path) -> DealSummary:
    deals = scan_deals(out).filter(pl.col("declarer") >= 0)  # thrown-in deals have no declarer
    row = deals.select(
        n=pl.len(),
        conceded=pl.col("conceded").sum(),
        played=(~pl.col("conceded")).sum(),
        made=pl.col("made").sum(),
        # Integer sums (exact, so the same bytes on every run: a float std is combined across
        # threads in no fixed order).
        contract_sum=pl.col("contract").cast(pl.Int64).sum(),
        contract_squares=(pl.col("contract").cast(pl.Int64) ** 2).sum(),
    ).collect().row(0, named=True)
    n, played = row["n"], row["played"]
    total, squares = int(row["contract_sum"] or 0), int(row["contract_squares"] or 0)
    contract_mean = total / n if n else float("nan")
    contract_std = math.sqrt((n * squares - total * total) / (n * (n - 1))) if n > 1 else float("nan")
    # No deal with a declarer (every one thrown in or redealt) leaves every rate undefined, not an error.
    return DealSummary(
        deals=n, made=row["made"], played=played, conceded=row["conceded"],
        made_rate=Estimate.share(row["made"], n), made_rate_played=Estimate.share(row["made"], played),
        conceded_rate=row["conceded"] / n if n else float("nan"),
        contract_mean=Estimate.mean(contract_mean, contract_std, n),
    )


def _make_rate_by_player(out: Path, players: list[str]) -> tuple[PlayerMakeRate, ...]:
    """Make-rate of each player type as declarer, by name (``players``: the seats' types)."""
    df = (scan_deals(out)
          .filter(pl.col("declarer") >= 0)
          .select("declarer", "made", "conceded", "contract")
          .with_columns(player=pl.col("declarer").replace_strict(dict(enumerate(players)), return_dtype=pl.String))
          .collect())
    rows = []
    for (player,), g in df.group_by("player", maintain_order=True):
        n = g.height
        made = int(g["made"].sum())
        rows.append(PlayerMakeRate(player=player, declared=n, made_rate=Estimate.share(made, n),
                                   conceded_rate=float(g["conceded"].mean()),
                                   mean_contract=float(g["contract"].mean())))
    return tuple(sorted(rows, key=lambda r: r.player))


def _game_summary(out: Path, players: list[str]) -> GameSummary:
    games = scan_games(out).collect()
    n = games.height
    finished = games.filter(pl.col("finished"))
    seats = []
    for s in range(len(players)):  # three seats, or two or four (rules.players)
        wins = int((finished["winner"] == s).sum())
        seats.append(SeatWins(seat=s, player=players[s], wins=wins, win_rate=Estimate.share(wins, n)))
    length = finished["deals"].cast(pl.Float64)
    return GameSummary(
        games=n, unfinished=n - finished.height, seats=tuple(seats),
        deals_mean=(Estimate.mean(length.mean(), length.std(), finished.height) if finished.height
                    else Estimate.none()),
        deals_median=length.median() if finished.height else float("nan"),
    )


def summarize_run(*, run: Path) -> RunSummary:
    """The summary of the stored run in the folder ``run`` (``RunDirError`` if it holds none, or
    holds an incomplete or damaged one, or one played by other code; ``InputError`` if ``run`` is
    no path)."""
    run = arguments.path("run", run)
    meta = read_run_metadata(run)
    deals = _deal_summary(run)
    players = list(meta["players"])
    return RunSummary(
        run=run, mode=meta["mode"], sample_size=meta["sample_size"], seeds=tuple(run_seeds(meta)),
        combined="seeds" in meta, players=tuple(players), rules=HouseRules.from_dict(meta["rules"]),
        version=meta["thousand_version"], code_fingerprint=meta.get("code_fingerprint"), provenance=meta,
        deals=deals, by_player=_make_rate_by_player(run, players) if deals.deals else (),
        games=_game_summary(run, players) if meta["mode"] == "games" else None)
