"""The study ``thousand tables marriages``: the exact marriage odds beside random deals, and, when
asked, the marriages in play and what a marriage is worth, stored with their provenance.

``tables_marriages`` returns one ``MarriageOdds``: the rows of ``analysis.marriages.measured``
(exact beside random deals, with their check), the marriages in play of the deals it plays with
``play_deals`` (one run a rule set of ``play_rules``, resumable under ``--out``) or of a stored run
(``run``) (``analysis.marriages.in_play``), and what a marriage is worth in a bid table (``bids``,
``analysis.marriages.worth``). Only the odds are computed when nothing is stored.

Stored with ``--out`` (``marriages.parquet``, and ``marriages_in_play.parquet`` beside it when
marriages were played, both with the same metadata: the code fingerprint, the arguments and each
play run's spec and marriage points), the study runs on the one pipeline of a played study
(``analysis.study.run_study``): a table or played deals stored there by other code or with other
arguments are refused with one line before anything is played, and ``--fresh`` redoes them beside
the old result, then swaps them in. A bid table (``--bids``) or a run (``--run``) is read only when
it is one, made by this code, intact and (the bid table) of the same rules.

Nothing here prints or draws: ``analysis.present.marriages`` does (``marriage_odds_lines``,
``plot_marriage_odds``, ``plot_marriage_worth``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import polars as pl

from analysis.analysis_dir import RULE_SPECS
from analysis.bids.table import open_bid_table
from analysis.marriages.in_play import PLAY_KEYS, MarriagePlay, marriages_in_play, play_frame
from analysis.marriages.measured import MAX_MARRIAGE_DEALS, OddsCheck, OddsRow, marriage_table, odds_check, odds_frame
from analysis.marriages.worth import MarriageWorth, marriage_worth
from analysis.players import players_or_default
from analysis.stored import FINGERPRINT, StaleResultError, holds_out
from analysis.study import Fields, Plan, Played, run_study
from sim import InputError, __version__, arguments
from sim.engine import BatchSpec
from sim.fingerprint import code_fingerprint, describe_difference
from sim.game.rules import HouseRules, load_rules
from sim.runs import MANIFEST_FILE, RUN_FILE, RunDirError, load_manifest, read_run_metadata

if TYPE_CHECKING:
    from sim.progress import Progress
    from sim.runs.backend import Backend

__all__ = [
    "TABLE_FILE", "PLAY_TABLE_FILE", "PLOT_FILE", "WORTH_PLOT_FILE", "IDENTITY", "MARRIAGE_TABLES", "MarriageOdds",
    "tables_marriages",
]

TABLE_FILE = "marriages.parquet"
PLAY_TABLE_FILE = "marriages_in_play.parquet"
PLOT_FILE = "marriage_odds.png"
WORTH_PLOT_FILE = "marriage_worth.png"
# What identifies a stored marriage table (besides the code fingerprint): its metadata keys, each
# with what a refusal calls it and the option that sets it; "play" is the spec of the deals played,
# read from the table's "play_runs" (``_stored_identity``).
IDENTITY: Fields = {"table": ("the kind of table", None), "sample_size": ("the sizes", "--deals"),
                    "seed": ("the seed", "--seed"), "rules": ("the rules", None),
                    "play": ("the marriages in play (--play-deals, --players, --play-rules or --run)", None)}
MARRIAGE_TABLES = ("odds", "check", "play", "worth")



@dataclass(frozen=True)
class MarriageOdds:
    """What ``thousand tables marriages`` finds (``tables_marriages``): the exact odds beside random
    deals, and, when asked, the marriages in play and what a marriage is worth.

    - ``deals``, ``seed``: the random deals measured; ``rules``: the rules (their marriage values);
    - ``rows``: every quantity, exact and simulated (``OddsRow``);
    - ``check``: the exact-odds check of the rows together (``OddsCheck``: a chi-square a
      distribution of distinct quantities, Holm-corrected, one verdict);
    - ``play``: the marriages in play, one ``MarriagePlay`` a rule set played (``--play-rules``) or
      the stored run read (``--run``); empty when none was asked for;
    - ``worth``: what a marriage is worth in the bid table given (``MarriageWorth``), or None;
    - ``table_file``, ``play_table_file``: the tables stored (``--out``; None: not stored, or no
      play); ``plot_file``, ``worth_plot_file``: where their plots are drawn (None: no ``--out``,
      or no worth);
    - ``provenance``: the metadata stored with the tables (version, code fingerprint, sizes, seed,
      rules, and each play run's spec and marriage points as ``play_runs``).

    ``to_dict()`` is what ``--json`` prints. ``to_polars(table=...)``: "odds" (the default: the
    stored ``marriages.parquet``'s rows and columns), "check" (the exact-odds check, one row a
    distribution tested), "play" (``marriages_in_play.parquet``'s, every
    rule set's; empty without play) or "worth" (one row a suit, each interval in three columns;
    empty without worth).
    """

    deals: int
    seed: int
    rules: HouseRules
    rows: tuple[OddsRow, ...]
    check: OddsCheck
    play: tuple[MarriagePlay, ...]
    worth: MarriageWorth | None
    table_file: Path | None
    play_table_file: Path | None
    plot_file: Path | None
    worth_plot_file: Path | None
    provenance: dict

    @property
    def inside(self) -> int:
        """The exact values lying inside their simulated 95% interval (information only: the rows
        share their deals and some are the same event twice; ``check`` is the test)."""
        return sum(r.inside for r in self.rows)

    def row(self, quantity: str) -> OddsRow:
        """The row of ``quantity`` (KeyError: no such quantity)."""
        for r in self.rows:
            if r.quantity == quantity:
                return r
        raise KeyError(quantity)

    def to_dict(self) -> dict:
        return {**self.provenance, "rows": [r.to_dict() for r in self.rows], "check": self.check.to_dict(),
                "play": [r for p in self.play for r in p.row_dicts()],
                "worth": [r.to_dict() for r in self.worth.rows] if self.worth is not None else []}

    def to_polars(self, table: str = "odds") -> pl.DataFrame:
        """One of MARRIAGE_TABLES as a DataFrame (see the class's docstring)."""
        if table == "odds":
            return odds_frame(self.rows)
        if table == "check":
            return self.check.to_polars()
        if table == "play":
            return play_frame(self.play) if self.play else pl.DataFrame()
        if table == "worth":
            return self.worth.to_polars() if self.worth is not None else pl.DataFrame()
        raise ValueError(f"table must be one of {', '.join(MARRIAGE_TABLES)}, not {table!r}")


# ---- the command ---------------------------------------------------------------------------------------
@holds_out()
def tables_marriages(*, deals: int, seed: int = 0, rules: str | HouseRules = "classic", out: Path | None = None,
                     play_deals: int = 0, players: str | None = None, run: Path | None = None,
                     progress: Progress | None = None, bids: Path | None = None, risk: float = 0.3,
                     play_rules: list[str] | None = None, backend: Backend | None = None,
                     fresh: bool = False) -> MarriageOdds:
    """What ``thousand tables marriages`` finds: the exact odds beside random deals; with ``out``
    also stored as a Parquet table with the metadata. With ``play_deals``, the marriages in play of
    that many deals played by ``players`` (None: the default player, ``analysis.players``: the
    learned player, or the heuristic player in the 2-player game; stored and resumable under
    ``out/marriage-play``, one run a rule set of ``play_rules``), or of the stored deals run
    ``run``; with ``bids``, what each marriage is worth in that bid table. A table or played deals
    stored in ``out`` by other code or with other arguments are refused before anything is played
    (``analysis.study``), unless ``fresh``, which redoes them. ``progress`` follows the deals played
    (``sim.runs.play_runs``). ``rules``: a preset, a TOML file or a ``HouseRules`` (validated as a
    file's are). Arguments of the wrong type are refused (``sim.arguments``) before anything is
    written."""
    deals, seed = arguments.integer("deals", deals), arguments.integer("seed", seed)
    out, run = arguments.path("out", out, optional=True), arguments.path("run", run, optional=True)
    play_deals, players = arguments.integer("play_deals", play_deals), arguments.text("players", players, optional=True)
    progress, bids = arguments.function("progress", progress), arguments.path("bids", bids, optional=True)
    risk, fresh = arguments.number("risk", risk), arguments.flag("fresh", fresh)
    play_rules = arguments.texts("play_rules", play_rules, what=RULE_SPECS, optional=True)
    if seed < 0:
        raise InputError(f"--seed must be 0 or more, not {seed}")
    if not 1 <= deals <= MAX_MARRIAGE_DEALS:
        raise InputError(f"--deals must be from 1 to {MAX_MARRIAGE_DEALS:,}, not {deals}")
    if play_deals < 0:
        raise InputError(f"--play-deals must be 0 or more, not {play_deals}")
    if play_deals and run is not None:
        raise InputError("give --play-deals (play new deals) or --run (read a stored run), not both")
    if bids is not None and not 0 < risk < 1:
        raise InputError(f"--risk must be between 0 and 1, not {risk}")
    if play_deals and out is None:
        raise InputError("--play-deals stores its deals: give --out")
    rec = load_rules(rules)
    if bids is not None:
        open_bid_table(Path(bids), rules=rec, rules_name=rules if isinstance(rules, str) else "(a HouseRules)")
    # One run per rule set of the play (the house rules that change what becomes of a marriage:
    # marriage_first_lead, marriage_burns_without_trick, ace_marriage, players = 4 with
    # sitout_half_marriage ...), the same seed for all, so that the deals coincide. A stored run
    # (--run) is read where it lies, not played.
    stored: dict[str, Path] = {}
    folders: dict[str, str] = {}
    specs: dict[str, BatchSpec] = {}
    if run is not None:
        stored["stored run"] = Path(run)
        play = {"stored run": {k: v for k, v in _stored_run(Path(run)).items() if k in PLAY_KEYS}}
    else:
        names = (play_rules or [rules]) if play_deals else []
        for i, spec in enumerate(names):
            name = "rules" if isinstance(spec, HouseRules) else Path(spec).stem if str(spec).endswith(".toml") else spec
            label = f"{i + 1}-{name}"
            folders[label] = "marriage-play" if len(names) == 1 else f"marriage-play-{label}"
            house = load_rules(spec)
            specs[label] = BatchSpec(mode="deals", n=play_deals, rules=house,
                                     players=players_or_default(players, house), seed=seed)
        play = {label: {k: v for k, v in spec.metadata().items() if k in PLAY_KEYS} for label, spec in specs.items()}
    meta = {"thousand_version": __version__, FINGERPRINT: code_fingerprint("marriages.odds"), "table": "marriages",
            "sample_size": deals, "seed": seed, "rules": rec.to_dict()}

    def measure(played: Played | None) -> MarriageOdds:
        runs = {**stored, **(played.dirs if played is not None else {})}
        return _odds(deals=deals, seed=seed, rules=rec, out=out, bids=bids, risk=risk, runs=runs, meta=meta)

    if out is None:  # nothing stored: nothing played either (--play-deals needs --out)
        return measure(None)
    plan = Plan(out=Path(out), name="marriages", table=TABLE_FILE, runs=specs, folders=folders,
                provenance={**meta, "play": play}, identity=IDENTITY, what="the marriage table",
                stage="marriages in play", runs_dir="", drawn=(PLOT_FILE, WORTH_PLOT_FILE),
                beside={PLAY_TABLE_FILE: lambda result: result.to_polars(table="play") if result.play else None},
                stored_identity=_stored_identity, strict=False)
    result = run_study(plan, measure, progress=progress, backend=backend, fresh=fresh)
    if result.worth_plot_file is None:
        # a worth plot left by an earlier command would sit beside a table it does not describe
        (Path(out) / WORTH_PLOT_FILE).unlink(missing_ok=True)
    return result


def _odds(*, deals: int, seed: int, rules: HouseRules, out: Path | None, bids: Path | None, risk: float,
          runs: dict[str, Path], meta: dict) -> MarriageOdds:
    """The study's result: the odds of ``deals`` random deals from ``seed``, the marriages in play of
    ``runs`` ({label: a stored deals run}), what a marriage is worth in the bid table ``bids``;
    ``out``: where it is stored (None: nowhere); ``meta``: its provenance, to which each play run's
    spec and marriage points are added."""
    rows = marriage_table(deals=deals, seed=seed, rules=rules)
    worth = marriage_worth(Path(bids), risk=risk, rules=rules) if bids is not None else None
    plays = tuple(marriages_in_play(path, label=label) for label, path in runs.items())
    provenance = {**meta, "play_runs": {p.label: p.run_entry() for p in plays}} if runs else meta
    stored = out is not None
    return MarriageOdds(deals=deals, seed=seed, rules=rules, rows=rows,
                        check=odds_check(rows, tuple(rules.marriage_values)), play=plays, worth=worth,
                        table_file=Path(out) / TABLE_FILE if stored else None,
                        play_table_file=Path(out) / PLAY_TABLE_FILE if stored and plays else None,
                        plot_file=Path(out) / PLOT_FILE if stored else None,
                        worth_plot_file=Path(out) / WORTH_PLOT_FILE if stored and worth is not None and worth.rows
                        else None,
                        provenance=provenance)


def _stored_identity(stored: dict) -> dict:
    """A stored marriage table's metadata with its "play" (``IDENTITY``): each play run's spec
    (PLAY_KEYS), read from what the table records of its runs ("play_runs")."""
    plays = stored.get("play_runs") if isinstance(stored.get("play_runs"), dict) else {}
    return {**stored, "play": {label: {k: v[k] for k in PLAY_KEYS if k in v} for label, v in plays.items()
                               if isinstance(v, dict)}}


def _stored_run(run: Path) -> dict:
    """The spec of the stored run given as ``--run``, refusing one that is not a stored run or was
    made by other code (its deals would not be those this code plays)."""
    if not run.is_dir():
        raise RunDirError(f"--run {run}: no such folder (give the folder of a run thousand simulate stored)")
    if not (run / RUN_FILE).is_file():
        raise RunDirError(f"--run {run} holds no stored run (it has no {RUN_FILE}; give the folder of a run thousand "
                          "simulate stored)")
    try:
        meta = read_run_metadata(run)
        load_manifest(run)
    except RunDirError:
        raise RunDirError(f"--run {run}: its {RUN_FILE} or {MANIFEST_FILE} cannot be read, so it is not a stored run "
                          "that can be read") from None
    current = code_fingerprint()
    if meta.get(FINGERPRINT) != current:
        made = describe_difference("the run", meta.get(FINGERPRINT), current)
        raise StaleResultError(f"--run {run}: {made}; play it again with this code (the thousand simulate command that "
                               "made it, with --fresh)")
    return meta
