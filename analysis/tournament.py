"""``thousand tournament``: player types against each other, seats rotated over the same deals.

Design (duplicate). With n seats and n players, every one of the n! seatings plays ``--games``
whole games from the same seed and chunking, so game g of every seating starts from the same cards
(they coincide as in ``thousand compare``: within a chunk until the seatings' games differ in
length). Over the n! seatings every player sits in every seat of game g equally often, so the luck
of the cards cancels game by game. Seatings that put the same player types in the same seats are
one run, played once.

With ``--deals`` the seatings play independent deals from a zero score instead, and players
are compared by their points per deal (the deal's result in their seat: the contract won or
lost as declarer, the card points and marriages as defender), paired by deal number: a measure
of bidding and card play without the game's race.

Statistics. For each game number g and player, its **duplicate share** is the average over the
seatings of "won game g" (and likewise its final score): one number per g, independent across g.
A player's win share, mean final score and score per deal come with normal 95% intervals over g;
players are ranked by win share, and every pair is compared by the paired differences of their
shares over g (a paired t-test), with Holm's correction over the pairs. Identical players win
exactly their share (1/n) by construction.

``tournament()`` returns a ``TournamentResult``: the players' rows (``PlayerRow``), the pairs
(``PairRow``) and what made them. It is composed of steps, each a function below: resolving the
players and the seatings (``_plan``), the run specs (``_run_specs``), what is stored with the
table (``_provenance``), the study's plan (``_study_plan``: ``analysis.study.run_study`` checks
what ``--out`` holds, plays, stores and swaps a redo in), the games finished (``_finished``), the
sums over the chunks (``_sums``, ``_chunk``), the players' rows (``_player_rows``) and the
pairwise paired tests (``_pair_rows``). The
text is ``analysis.present.tournament.tournament_lines``, the plot
``analysis.present.tournament.plot_tournament``.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import polars as pl

from analysis.analysis_dir import NoResultError, file_label, short_hash
from analysis.players import learned_weights, tournament_field
from analysis.stats import (
    Estimate,
    RatioOfSums,
    clustered_share_interval,
    estimate_field,
    holm,
    stored_row,
    two_sided_p,
)
from analysis.stored import FINGERPRINT, holds_out
from analysis.study import Plan, Played, compared_on, finished_games, identity, run_study
from sim import InputError, __version__, arguments
from sim.engine import BatchSpec
from sim.fingerprint import code_fingerprint
from sim.game.rules import load_rules
from sim.players.learned.weights import weights_identity
from sim.players.params import default_params, load_player_file
from sim.players.registry import PARAMETERISED_PLAYERS, is_learned, parse_players, player_type, weights_file
from sim.runs import verify_run

if TYPE_CHECKING:
    from sim.game.rules import HouseRules
    from sim.players.params import HeuristicParams
    from sim.progress import Progress
    from sim.runs.backend import Backend

__all__ = [
    "TABLE_FILE", "PLOT_FILE", "ROLE_METRICS", "ROLE_SHARES", "resolve_players", "role_metrics", "IDENTITY",
    "tournament", "TournamentResult", "PlayerRow", "PairRow",
]

TABLE_FILE = "tournament.parquet"
PLOT_FILE = "tournament.png"


ROLE_METRICS = ("declarer share", "make-rate", "concession rate", "mean contract", "declarer points per deal",
                "defender points per deal")
# The role metrics that are shares (of a player's deals, contracts played, contracts declared): their
# intervals, like the win share's, are Wilson's on the clustering's design effect, within [0, 1].
ROLE_SHARES = ("declarer share", "make-rate", "concession rate")


# ---- the result ----------------------------------------------------------------------------------
def _role_field(name: str) -> Any:
    """A role metric's field: an ``Estimate`` stored as ``name``, ``name_ci_low``, ``name_ci_high``."""
    return estimate_field(name, f"{name}_ci_low", f"{name}_ci_high")


@dataclasses.dataclass(frozen=True)
class PlayerRow:
    """One player's row of the ranking, as stored in ``tournament.parquet``: values with their 95%
    intervals over the game (or deal) numbers, each an ``Estimate`` (its ``n`` the game or deal
    numbers) stored as three columns. A value never observed (a role the player never had: it
    never declared, say) is None, its three columns stored as null.

    - ``player``: its label, its place in the order given and its type or file name
      (``1-heuristic``, ``2-cautious``);
    - ``type``: its player type as the engine knows it (``heuristic``, ``learned:PATH``);
    - ``score_per_deal`` (stored with ``score_per_deal_ci_low`` and ``score_per_deal_ci_high``): its
      points per deal played (with ``deals``, the points per deal the players are ranked by);
    - ``games`` (whole games) or ``deals`` (independent deals), the other None: how many game (or
      deal) numbers the intervals are over;
    - whole games only, else None: ``win_share`` (stored with ``win_ci_low`` and ``win_ci_high``: its
      duplicate share of the games won, the ranking's measure) and ``final_score`` (stored with
      ``score_ci_low`` and ``score_ci_high``: its duplicate mean final score);
    - its play by role, each stored with ``<name>_ci_low`` and ``<name>_ci_high``: ``declarer_share`` (its
      share of the deals as declarer), ``make_rate`` (of its contracts played out),
      ``concession_rate`` (of its contracts), ``mean_contract``, ``declarer_points_per_deal`` and
      ``defender_points_per_deal`` (the deal's result in its seat, before the barrel);
    - ``params``: its parameters as JSON for a player type that reads them, else "".
    """

    player: str
    type: str
    score_per_deal: Estimate = estimate_field("score_per_deal", "score_per_deal_ci_low", "score_per_deal_ci_high")
    games: int | None
    deals: int | None
    win_share: Estimate | None = estimate_field("win_share", "win_ci_low", "win_ci_high")
    final_score: Estimate | None = estimate_field("final_score", "score_ci_low", "score_ci_high")
    declarer_share: Estimate | None = _role_field("declarer_share")
    make_rate: Estimate | None = _role_field("make_rate")
    concession_rate: Estimate | None = _role_field("concession_rate")
    mean_contract: Estimate | None = _role_field("mean_contract")
    declarer_points_per_deal: Estimate | None = _role_field("declarer_points_per_deal")
    defender_points_per_deal: Estimate | None = _role_field("defender_points_per_deal")
    params: str

    def to_dict(self) -> dict:
        """The row as stored: the columns of its mode only (no win share or final score with deals)."""
        left_out = _DEALS_ONLY if self.deals is None else _GAMES_ONLY
        return {k: v for k, v in stored_row(self).items() if k not in left_out}


_GAMES_ONLY = ("games", "win_share", "win_ci_low", "win_ci_high", "final_score", "score_ci_low", "score_ci_high")
_DEALS_ONLY = ("deals",)


@dataclasses.dataclass(frozen=True)
class PairRow:
    """Two players compared by the paired differences of the compared measure (win share, or points
    per deal with ``deals``) over the game (or deal) numbers.

    - ``player``, ``against``: their labels (``player`` named first);
    - ``diff``: the mean difference, ``player``'s minus ``against``'s, with its 95% interval (an
      ``Estimate``, stored as ``diff``, ``ci_low``, ``ci_high``);
    - ``p``: the paired t-test's two-sided p-value (normal), and ``p_holm`` corrected by Holm's
      method over every pair;
    - ``significant``: ``p_holm`` below 0.05.
    """

    player: str
    against: str
    diff: Estimate = estimate_field("diff", "ci_low", "ci_high")
    p: float
    p_holm: float
    significant: bool

    def to_dict(self) -> dict:
        return stored_row(self)


@dataclasses.dataclass(frozen=True)
class TournamentResult:
    """A duplicate tournament: its players ranked, every pair tested, and what made them.

    - ``mode``: "games" (whole games, players ranked by win share) or "deals" (independent deals
      from a zero score, ranked by points per deal); ``size``: the games or deals in each seating;
    - ``seed``: the root seed, the same for every seating; ``rules``: the house rules played;
    - ``labels``: the players' labels in the order given; ``player_types``: their player types;
    - ``seatings``: every seating played, the labels seat by seat;
    - ``compared``: the measure ranked and paired by, "win share" or "points per deal";
    - ``finished_games``: the games that finished over every run (whole games), else None;
    - ``players``: the players' rows, best first (``PlayerRow``); ``pairs``: every pair of players
      in the order given, with its paired interval and Holm-adjusted p (``PairRow``);
    - ``table_path``: where the players' table is stored; ``plot_path``: where the command draws
      its plot (``analysis.present.tournament.plot_tournament``); ``run_dirs``: the runs played, one
      for the seatings of the same player types in the same seats;
    - ``provenance``: what made it, as stored with the table: the version and code fingerprint,
      the sizes, chunk size, seed, players, their parameters, the rules and the counts of
      seatings and runs.

    Tables: ``to_polars()`` (``table="players"``, the stored table) and ``to_polars(table="pairs")``.
    """

    mode: Literal["games", "deals"]
    size: int
    seed: int
    rules: HouseRules
    labels: tuple[str, ...]
    player_types: tuple[str, ...]
    seatings: tuple[tuple[str, ...], ...]
    compared: str
    finished_games: int | None
    players: tuple[PlayerRow, ...]
    pairs: tuple[PairRow, ...]
    table_path: Path
    plot_path: Path
    run_dirs: tuple[Path, ...]
    provenance: dict

    def to_polars(self, table: Literal["players", "pairs"] = "players") -> pl.DataFrame:
        """The players' rows (``"players"``: the table stored in ``table_path``, its rows and
        dtypes) or the pairs (``"pairs"``) as a DataFrame."""
        if table == "players":
            return pl.DataFrame([r.to_dict() for r in self.players])
        if table == "pairs":
            return pl.DataFrame([r.to_dict() for r in self.pairs])
        raise ValueError(f"table must be 'players' or 'pairs', not {table!r}")

    def to_dict(self) -> dict:
        """What ``thousand tournament --json`` prints: the provenance, the players' rows in place of
        their labels, and the pairs."""
        return {**self.provenance, "players": [r.to_dict() for r in self.players],
                "pairs": [r.to_dict() for r in self.pairs]}


def resolve_players(players: list[str], n: int) -> tuple[list[str], list[str], list]:
    """(labels, player types, parameter records) of the players named on the command line: a player
    type, or a TOML player file (``sim.players.load_player_file``) labelled by its file name."""
    kinds, params, names = [], [], []
    for spec in players:
        if spec.lower().endswith(".toml"):
            kind, prm = load_player_file(spec, n)
            names.append(file_label(spec))
        else:
            kind, prm = parse_players([spec], 1)[0], default_params(n)
            # learned:PATH by the file and its folder (a whole path is too long for a table)
            kind_name, sep, path = kind.partition(":")
            names.append(f"{kind_name}:{'/'.join(Path(path).parts[-2:])}" if sep else kind)
        kinds.append(kind)
        params.append(prm)
    if len(kinds) != n:
        raise InputError(f"give one player for each of the {n} seats (players = {n}), not {len(kinds)}")
    parse_players(kinds, n)  # the checks that depend on the player count
    return [f"{i + 1}-{name}" for i, name in enumerate(names)], kinds, params


def _run_key(kind: str, prm, default) -> str:
    """A seat's part of a run directory's name: the type, and for parameters other than the
    defaults a hash of them, never the file's name (which may be too long for a folder name, or
    not text): an edited file plays a new run rather than meeting the old one, and two files of the
    same parameters play one."""
    if is_learned(kind) and ":" in kind:  # what it plays of its weights, never the file's name
        kind = f"{player_type(kind)}-{weights_identity(weights_file(kind))[:12]}"
    if prm == default:
        return kind
    return f"{kind}.{short_hash(prm.to_dict())}"


def role_metrics(deals: pl.DataFrame, first_game: int, m: int,
                 n_seats: int) -> list[dict[str, tuple[np.ndarray, np.ndarray]]]:
    """For each seat, {metric: (N_g, D_g)} over the ``m`` games from ``first_game`` of one chunk:
    its share of the deals as declarer, make-rate and concession rate of its contracts, its mean
    contract, points per deal as declarer and as defender (the deal's result, before the barrel)."""
    gid = deals["game"].to_numpy() - first_game
    declarer = deals["declarer"].to_numpy()
    declared = (deals["redeal"].to_numpy() == 0) & (declarer >= 0)
    conceded = declared & deals["conceded"].to_numpy().astype(bool)
    made = deals["made"].to_numpy().astype(bool)
    dealer = deals["dealer"].to_numpy()
    contract = deals["contract"].to_numpy()

    def per_game(x):
        return np.bincount(gid, weights=np.asarray(x, dtype=np.float64), minlength=m)

    n_deals = per_game(np.ones(len(gid)))
    out = []
    for s in range(n_seats):
        mine = declared & (declarer == s)
        played = mine & ~conceded
        defends = declared & (declarer != s) & ~((dealer == s) if n_seats == 4 else False)
        result = deals[f"result{s}"].to_numpy()
        out.append({
            "declarer share": (per_game(mine), n_deals),
            "make-rate": (per_game(played & made), per_game(played)),
            "concession rate": (per_game(mine & conceded), per_game(mine)),
            "mean contract": (per_game(np.where(mine, contract, 0)), per_game(mine)),
            "declarer points per deal": (per_game(np.where(mine, result, 0)), per_game(mine)),
            "defender points per deal": (per_game(np.where(defends, result, 0)), per_game(defends)),
        })
    return out


# What identifies a stored tournament (besides the code fingerprint): metadata key -> (what a
# refusal calls it, the option that sets it).
IDENTITY = identity(table=None, mode=None, games="--games", deals="--deals", chunk_size="a chunk", seed="--seed",
                    players=None, player_types=None, player_params=None, learned_weights=None, rules="--rules")


@holds_out()
def tournament(*, players: list[str] | None = None, games: int | None = None, deals: int | None = None,
               rules: str | HouseRules = "classic", seed: int = 0, out: Path = Path("out/tournament"),
               progress: Progress | None = None, backend: Backend | None = None,
               fresh: bool = False) -> TournamentResult:
    """Play (or reuse) a duplicate tournament of ``players`` (one a seat: a player type or a TOML
    player file; None: the default field of three seats, ``analysis.players.tournament_field``:
    the learned player (of whole games, ``games``, the score-aware ``learned-win`` where the rules
    have its table), the heuristic player and the ported Leadage bot) and return its ranking and pairwise tests.
    Whole games (``games``: players compared by win share) or independent deals from a zero score
    (``deals``: compared by points per deal, the measure of card play and bidding alone); exactly
    one of them. The runs are stored and reused under ``out/runs``, the players' table in
    ``out/tournament.parquet``. What ``out`` holds from other arguments or other code is refused
    (``analysis.study``) unless ``fresh``, which redoes it. ``progress`` follows the playing
    of the seatings' runs. ``rules``: a preset, a TOML file or a ``HouseRules`` (validated as a
    file's are). Arguments of the wrong type are refused (``sim.arguments``) before anything is
    written."""
    players = arguments.texts("players", players, what="player types or TOML player files", optional=True)
    games = arguments.integer("games", games, optional=True)
    deals = arguments.integer("deals", deals, optional=True)
    seed, out = arguments.integer("seed", seed), arguments.path("out", out)
    progress, fresh = arguments.function("progress", progress), arguments.flag("fresh", fresh)
    plan = _plan(players=players, games=games, deals=deals, rules=rules, seed=seed, out=out)
    provenance = _provenance(plan)

    def measure(played: Played) -> TournamentResult:
        shards = {t: verify_run(played.dirs[_folder(plan, t)]) for t in plan.specs}
        finished = _finished(plan, played) if plan.mode == "games" else None
        if finished is not None:
            provenance["finished_games"] = finished
        sums = _sums(plan, shards)
        return TournamentResult(
            mode=plan.mode, size=plan.size, seed=plan.seed, rules=plan.rules, labels=tuple(plan.labels),
            player_types=tuple(plan.kinds), seatings=tuple(tuple(plan.labels[i] for i in s) for s in plan.seatings),
            compared=plan.measure, finished_games=finished, players=_player_rows(plan, sums),
            pairs=_pair_rows(plan, sums), table_path=out / TABLE_FILE, plot_path=out / PLOT_FILE,
            run_dirs=tuple(plan.dirs.values()), provenance=provenance)

    # Everything is checked before anything is written or played: a refused command leaves the
    # folder as it was and draws no progress bar.
    return run_study(_study_plan(plan, provenance), measure, progress=progress, backend=backend, fresh=fresh)


# ---- the steps ---------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class _Plan:
    """What a tournament plays, resolved from its arguments before anything is written or played."""

    out: Path  # the folder the user gave
    mode: str  # "games" or "deals"
    size: int  # games or deals in each seating
    rules: HouseRules
    seed: int
    labels: list[str]  # the players' labels, in the order given
    kinds: list[str]  # their player types
    params: list[HeuristicParams]  # their parameter records
    seatings: list[tuple[int, ...]]  # every seating: seating[s] = the player (index) in seat s
    run_of: dict[tuple[int, ...], tuple[str, ...]]  # a seating's run: the run keys of its seats
    specs: dict[tuple[str, ...], BatchSpec]  # one run for the seatings of the same keys, all of one chunk size
    dirs: dict[tuple[str, ...], Path]  # where each run is stored

    @property
    def measure(self) -> str:
        """What the players are ranked and paired by."""
        return "win share" if self.mode == "games" else "points per deal"


def _sizes(games: int | None, deals: int | None) -> tuple[str, int]:
    """(mode, size): "games" and the games, or "deals" and the deals; exactly one is given."""
    if (games is None) == (deals is None):
        raise InputError("give --games or --deals, not both" if games is not None else "give --games or --deals")
    return ("games", games) if deals is None else ("deals", deals)


def _plan(*, players: list[str] | None, games: int | None, deals: int | None, rules: str | HouseRules, seed: int,
          out: Path) -> _Plan:
    """The players resolved, every seating and the runs that play them, checked in this order: the
    sizes asked, the rules, the players, the seed, each run's spec, then a size an interval allows."""
    mode, size = _sizes(games, deals)
    rec = load_rules(rules)
    if players is None:
        field = tournament_field(rec, games=mode == "games")
        if rec.players != len(field):
            named = f"rules {rules!r}" if isinstance(rules, str) else "the rules given"
            raise InputError(f"give the players, one a seat: the default field ({', '.join(field)}) is "
                             f"for {len(field)} seats, and {named} have players = {rec.players}")
        players = list(field)
    labels, kinds, params = resolve_players(players, rec.players)
    if seed < 0:
        raise InputError(f"--seed must be 0 or more, not {seed}")
    seatings = list(itertools.permutations(range(rec.players)))
    run_of, specs = _run_specs(mode, size, rec, kinds, params, seed, seatings)
    if size < 2:
        raise InputError(f"--{mode} must be 2 or more for a tournament: an interval needs two {mode}, not {size}")
    dirs = {t: out / "runs" / (mode + "-" + "-".join(t) if mode == "deals" else "-".join(t)) for t in specs}
    return _Plan(out=out, mode=mode, size=size, rules=rec, seed=seed, labels=labels, kinds=kinds, params=params,
                 seatings=seatings, run_of=run_of, specs=specs, dirs=dirs)


def _run_specs(mode: str, size: int, rec: HouseRules, kinds: list[str], params: list[HeuristicParams], seed: int,
               seatings: list[tuple[int, ...]]) -> tuple[dict, dict]:
    """({seating: its run's key}, {run key: BatchSpec}): the seatings that put the same player
    types (and parameters) in the same seats are one run, played once; every run of the same seed
    and the smallest chunk size of any, so that game g starts from the same cards in each."""
    keys = [_run_key(k, p, default_params(rec.players)) for k, p in zip(kinds, params, strict=True)]
    run_of = {seating: tuple(keys[i] for i in seating) for seating in seatings}
    specs = {}
    for seating, run in run_of.items():
        if run not in specs:
            specs[run] = BatchSpec(mode=mode, n=size, rules=rec, players=tuple(kinds[i] for i in seating),
                                   seed=seed, params=tuple(params[i] for i in seating))
    chunk = min(s.chunk_size for s in specs.values())
    return run_of, {t: dataclasses.replace(s, chunk_size=chunk) for t, s in specs.items()}


def _provenance(plan: _Plan) -> dict:
    """What makes the tournament, stored with its table (and compared with a stored one's)."""
    return {"thousand_version": __version__, FINGERPRINT: code_fingerprint("tournament"), "table": "tournament",
            "mode": plan.mode, plan.mode: plan.size, "seed": plan.seed, "players": plan.labels,
            "player_types": plan.kinds, "learned_weights": learned_weights(plan.kinds),
            "player_params": {lab: prm.to_dict() for lab, prm in zip(plan.labels, plan.params, strict=True)},
            "seatings": len(plan.seatings), "runs": len(plan.specs),
            "chunk_size": next(iter(plan.specs.values())).chunk_size, "rules": plan.rules.to_dict(),
            "compared": plan.measure,
            "ranking": f"by duplicate {plan.measure}; pairs by paired t over {plan.mode} numbers, Holm-corrected"}


def _folder(plan: _Plan, run: tuple[str, ...]) -> str:
    """The folder of a run of the seatings, relative to ``out``: its label in the study's plan."""
    return plan.dirs[run].relative_to(plan.out).as_posix()


def _study_plan(plan: _Plan, provenance: dict) -> Plan:
    """What the tournament makes in ``out`` (``analysis.study.Plan``): its table, its plot and the
    seatings' runs, each labelled by its folder; a stored table is compared on ``IDENTITY``, the
    players' parameters only when the players are the same."""
    runs = {_folder(plan, t): spec for t, spec in plan.specs.items()}
    return Plan(out=plan.out, name="tournament", table=TABLE_FILE, runs=runs, folders={f: f for f in runs},
                provenance=provenance,
                identity=compared_on(provenance, IDENTITY, by="players", of="player_params"), what="the tournament",
                stage="seatings", drawn=(PLOT_FILE,))


def _finished(plan: _Plan, played: Played) -> int:
    """The games that finished over every run; none is refused: no win share to rank by."""
    finished = sum(done for done, _ in finished_games(played.dirs).values())
    if not finished:
        limit = next(iter(plan.specs.values())).max_deals_per_game
        raise NoResultError(f"0 of the {plan.size:,} games of each of the {len(plan.seatings)} seatings "
                            f"finished (each was stopped unfinished after {limit:,} deals): no win share to rank "
                            "the players by; check the rules")
    return finished


@dataclasses.dataclass
class _Sums:
    """The running sums over the chunks, by player label: its duplicate win share, final score and
    points per deal, its role metrics, the paired differences of each pair (by player index) in the
    compared measure, and the deals with a declarer."""

    win: dict[str, RatioOfSums]
    score: dict[str, RatioOfSums]
    per_deal: dict[str, RatioOfSums]
    roles: dict[tuple[str, str], RatioOfSums]
    pair_diff: dict[tuple[int, int], RatioOfSums]
    declared: int = 0


def _sums(plan: _Plan, shards: dict) -> _Sums:
    """Every player's sums over the chunks of the runs (``_chunk``); refused when no deal of any
    seating had a declarer (every one redealt): nothing to rank by."""
    sums = _Sums(win={lab: RatioOfSums() for lab in plan.labels}, score={lab: RatioOfSums() for lab in plan.labels},
                 per_deal={lab: RatioOfSums() for lab in plan.labels},
                 roles={(lab, name): RatioOfSums() for lab in plan.labels for name in ROLE_METRICS},
                 pair_diff={pair: RatioOfSums() for pair in itertools.combinations(range(len(plan.labels)), 2)})
    for c in range(len(next(iter(shards.values()))["deals"])):
        share, final, deals_played, role_sums, declared = _chunk(plan, shards, c)
        sums.declared += declared
        for i, lab in enumerate(plan.labels):
            sums.win[lab].add(share[i])
            sums.score[lab].add(final[i])
            sums.per_deal[lab].add(final[i] * len(plan.seatings), deals_played[i])
            for name in ROLE_METRICS:
                sums.roles[(lab, name)].add(*role_sums[(i, name)])
        compared = share if plan.mode == "games" else final
        for a, b in sums.pair_diff:
            sums.pair_diff[(a, b)].add(compared[a] - compared[b])
    if not sums.declared:
        raise NoResultError(f"no deal of the {plan.size:,} {plan.mode} of any seating had a declarer (every one was "
                            f"redealt): no {plan.measure} to rank the players by; check the rules")
    return sums


def _chunk(plan: _Plan, shards: dict, c: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict, int]:
    """Chunk ``c`` of every run summed by player (index) over the seatings, one value a game (or
    deal) number: (duplicate share of wins, duplicate final score or deal points, deals played
    over all seatings, {(player, role metric): [N_g, D_g]}, deals with a declarer)."""
    n, mode = len(plan.labels), plan.mode
    tables = {t: pl.read_parquet(shards[t][mode][c], columns=None if mode == "games" else _DEAL_COLUMNS[n])
              .sort("game") for t in plan.specs}
    m = next(iter(tables.values())).height
    first = int(next(iter(tables.values()))["game"][0])
    share = np.zeros((n, m))
    final = np.zeros((n, m))
    deals_played = np.zeros((n, m))
    role_sums = {(i, name): [np.zeros(m), np.zeros(m)] for i in range(n) for name in ROLE_METRICS}
    declared = 0
    # Seatings of copies share a run: each run's deals are read and summed once.
    run_roles = {t: role_metrics(tables[t] if mode == "deals"
                                 else pl.read_parquet(shards[t]["deals"][c], columns=_DEAL_COLUMNS[n]), first, m, n)
                 for t in plan.specs}
    for seating in plan.seatings:
        run = plan.run_of[seating]
        g = tables[run]
        by_seat = run_roles[run]
        for seat, player in enumerate(seating):
            if mode == "games":
                share[player] += g["winner"].to_numpy() == seat
                final[player] += g[f"score{seat}"].to_numpy().astype(np.float64)
                deals_played[player] += g["deals"].to_numpy()
            else:  # one deal a row: its result is the seat's points
                final[player] += g[f"result{seat}"].to_numpy().astype(np.float64)
                deals_played[player] += 1
            for name, (num, den) in by_seat[seat].items():
                role_sums[(player, name)][0] += num
                role_sums[(player, name)][1] += den
            declared += int(by_seat[seat]["declarer share"][0].sum())
    share /= len(plan.seatings)
    final /= len(plan.seatings)
    return share, final, deals_played, role_sums, declared


def _player_rows(plan: _Plan, sums: _Sums) -> tuple[PlayerRow, ...]:
    """Every player's row with its intervals, ranked by the compared measure (best first). A share's
    interval (the win share's, and those of ``ROLE_SHARES``) is ``clustered_share_interval``'s,
    clustered by game number as every interval here, and within [0, 1]: the win share counts a
    game of every seating, so its trials are the game numbers times the seatings."""
    games = plan.mode == "games"
    rows = []
    for lab, kind, prm in zip(plan.labels, plan.kinds, plan.params, strict=True):
        w, s, d = sums.win[lab].interval(), sums.score[lab].interval(), sums.per_deal[lab].interval()
        w["ci_low"], w["ci_high"] = clustered_share_interval(w["mean"], w["se"], w["n"] * len(plan.seatings))
        roles = {}
        for name in ROLE_METRICS:
            r = sums.roles[(lab, name)].interval()
            if name in ROLE_SHARES and r["mean"] == r["mean"]:  # the denominators' total: the trials
                r["ci_low"], r["ci_high"] = sums.roles[(lab, name)].share_interval()
            # A role the player never had (it never declared, say): nothing observed, None. (An
            # observed role has its interval: a tournament has two game numbers or more.)
            roles[name.replace(" ", "_").replace("-", "_")] = None if math.isnan(r["mean"]) else _estimate(r)
        rows.append(PlayerRow(
            player=lab, type=kind, score_per_deal=_estimate(d), games=w["n"] if games else None,
            deals=None if games else d["n"], win_share=_estimate(w) if games else None,
            final_score=_estimate(s) if games else None, **roles,
            params=json.dumps(prm.to_dict()) if kind in PARAMETERISED_PLAYERS else ""))
    rows.sort(key=lambda r: -(r.win_share.value if games else r.score_per_deal.value))
    return tuple(rows)


def _pair_rows(plan: _Plan, sums: _Sums) -> tuple[PairRow, ...]:
    """Every pair of players (in the order given) by the paired differences of the compared measure
    over the game (or deal) numbers: the mean difference, its 95% interval, the paired test's p and
    Holm's correction of it over the pairs."""
    found = []
    for (a, b), mom in sums.pair_diff.items():
        d = mom.interval()
        found.append((plan.labels[a], plan.labels[b], d, two_sided_p(d["mean"], d["se"])))
    return tuple(PairRow(player=a, against=b, diff=_estimate(d), p=p, p_holm=q, significant=bool(q == q and q < 0.05))
                 for (a, b, d, p), q in zip(found, holm([p for *_, p in found]), strict=True))


def _estimate(interval: dict) -> Estimate:
    """A ``RatioOfSums.interval()`` as an ``Estimate`` over its game (or deal) numbers."""
    return Estimate(interval["mean"], interval["ci_low"], interval["ci_high"], n=interval["n"])


# The deal columns role_metrics reads (plays and hands are left on disk).
_DEAL_COLUMNS = {n: ["game", "declarer", "redeal", "conceded", "made", "dealer", "contract"]
                 + [f"result{s}" for s in range(n)] for n in (2, 3, 4)}
