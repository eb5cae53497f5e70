"""``thousand report``: the strategy report, one document a Thousand player reads and keeps.

The report is built from the analyses, never beside them: each section calls the analysis behind one
command (``tables bids``, ``tables marriages``, ``tables barrel``, ``compare``, ``tournament``) on
results stored under ``data`` (default ``out/report-<version>``) and composes the result object it
returns: its section's words (``analysis.present.<study>``, assembled by ``analysis.report.page``)
read its fields, its presenter's plots draw it, and ``data/<section>.json`` is its ``--json`` form
(``analysis.present.json_text``), so every number printed equals the command's. This module computes
and writes; the words are the presenters' and ``analysis.report.page``'s, the HTML page
``analysis.report.html``'s, the sizes and cost model ``analysis.report.plan``'s. Progress is the
typed callback of ``sim.progress``, the bid table's parts counted as numbers. Stored results
are reused whenever they were made with the same rules, seed and sizes by the same code (the bid
table by its metadata, code fingerprint and SHA-256, the played runs by their run specifications,
fingerprints and verified shards); a second run with the same arguments plays nothing. Results under
``data`` made by other code are refused before anything is played, with one line naming them, unless
``fresh``: then each section's analysis redoes what it stores that is not the result asked for apart
and puts it in place once complete (an interrupted redo resumes: ``analysis.study.Study``), so a
report never mixes results of two fingerprints; ``provenance.json`` lists each section's
fingerprint.

What lands in ``out`` (written under a temporary name, then renamed: never half a report):
``report.md``, ``report.html`` (one self-contained file: the plots embedded, no network needed), the
PNG plots, ``data/*.json`` and ``provenance.json`` (the command, rules, seeds, sizes, version, code
fingerprints and the SHA-256 of every stored input read). An existing ``out`` is replaced only when
it is empty or holds a previous report and nothing else; ``data`` may not lie inside ``out`` (it
would be deleted with it) nor ``out`` inside ``data``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import shutil
import time
from pathlib import Path
from typing import TYPE_CHECKING

from analysis import barrel, compare, tournament
from analysis.analysis_dir import RULE_SPECS
from analysis.barrel import tables_barrel
from analysis.bids import classes
from analysis.bids.advisor import SCORE_AWARE, default_line_player
from analysis.bids.parts import PARTS_DIR, PARTS_SPEC, TABLE_PART
from analysis.bids.situations import score_situations
from analysis.bids.table import TABLE_FILE, read_metadata, tables_bids
from analysis.marriages import odds
from analysis.marriages.odds import tables_marriages
from analysis.players import DEFAULT_PLAYER, common_player, default_player, learned_weights, tournament_field
from analysis.present.barrel import plot_barrel
from analysis.present.bids import plot_bid_make_rates, plot_bid_methods
from analysis.present.compare import plot_comparison
from analysis.present.json_text import to_json
from analysis.present.marriages import plot_marriage_odds, plot_marriage_worth
from analysis.present.strategy import plot_strategy
from analysis.present.tournament import plot_tournament
from analysis.report.folk import folk_advice
from analysis.report.html import render_html
from analysis.report.page import SECTIONS, render_markdown
from analysis.report.plan import FULL, QUICK, Sizes, cache_is_cold, stage_estimates
from analysis.stored import FINGERPRINT, StaleResultError, holds_out
from analysis.strategy import study as strategy_study
from analysis.win_chances import shipped_table
from sim import InputError, __version__, arguments
from sim.fingerprint import code_fingerprint, describe_difference, file_sha256
from sim.game.rules import PRESETS, load_rules, preset
from sim.runs import RUN_FILE, RunDirError, StorageError, check_parent_writable, check_path_name

if TYPE_CHECKING:
    from collections.abc import Callable

    from analysis.barrel import BarrelStats
    from analysis.bids.results import BidTable
    from analysis.bids.situations import SituationAdvice
    from analysis.compare import Comparison
    from analysis.folk import FolkAdvice
    from analysis.marriages.odds import MarriageOdds
    from analysis.strategy.study import StrategyReport
    from analysis.tournament import TournamentResult
    from sim.progress import Progress
    from sim.runs.backend import Backend

    Section = (BidTable | SituationAdvice | MarriageOdds | BarrelStats | Comparison | TournamentResult | StrategyReport
               | FolkAdvice)

__all__ = [
    "REPORT_MD", "REPORT_HTML", "PROVENANCE", "ReportPlayers", "report_players", "RISKS",
    "ReportError", "default_data_dir", "rule_sets_compared", "build_report", "check_folders",
    "SECTION_MODULES", "stale_results", "figure_specs", "stage_dirs", "stored_inputs", "situations_missing",
]

REPORT_MD = "report.md"
REPORT_HTML = "report.html"
PROVENANCE = "provenance.json"
RISKS = (0.3, 0.5)


@dataclasses.dataclass(frozen=True)
class ReportPlayers:
    """Who plays each section of a report (``report_players``): ``deals``, the marriages' deals from
    a zero score (the learned player); ``game``, the strategy's whole games under the main rule set;
    ``barrel`` and ``compared``, one player for every rule set of the barrel and house-rule sections
    (``analysis.players.common_player``); ``field``, the tournament's."""

    deals: str
    game: str
    barrel: str
    compared: str
    field: tuple[str, ...]

    def named(self) -> list[str]:
        """Every player named, once, in order."""
        return list(dict.fromkeys([self.deals, self.game, self.barrel, self.compared, *self.field]))


def report_players(rules: list[str], compared: list[str]) -> ReportPlayers:
    """The players of a report of ``rules`` (the main rule set first) whose house-rule and barrel
    sections play ``compared`` (``analysis.players``: whole games by the score-aware player where the
    rules have its table)."""
    main = load_rules(rules[0])
    loaded = [load_rules(spec) for spec in compared]
    with_barrel = [rec for rec in loaded if rec.barrel is not None]
    return ReportPlayers(deals=DEFAULT_PLAYER, game=default_player(main, games=True),
                         barrel=common_player(with_barrel) if with_barrel else DEFAULT_PLAYER,
                         compared=common_player(loaded), field=tournament_field(main))


class ReportError(InputError):
    """A report that cannot be made as asked (bad arguments)."""


def default_data_dir() -> Path:
    return Path("out") / f"report-{__version__}"


def rule_sets_compared(rules: list[str]) -> list[str]:
    """The rule sets of the house-rule and barrel sections: those given when two or more, else the
    one given followed by every preset whose effective rules differ from it (a rules file that
    equals a preset is not compared with itself)."""
    if len(rules) >= 2:
        return list(rules)
    given = load_rules(rules[0])
    return [rules[0]] + [p for p in PRESETS if p != rules[0] and preset(p) != given]


@holds_out("data", "--data", default=default_data_dir)
def build_report(*, rules: list[str] | None = None, quick: bool = False, out: Path = Path("reports/report"),
                 data: Path | None = None, seed: int = 0, sizes: Sizes | None = None, threads: int | None = None,
                 progress: Progress | None = None, log: Callable[[str], None] | None = None,
                 command: list[str] | None = None, backend: Backend | None = None, fresh: bool = False) -> Path:
    """Make the report in ``out`` from results stored (or played now) under ``data``; returns the
    path of ``report.html``. ``progress(stage, done, total)`` follows it in estimated seconds of
    work; ``log`` takes its two lines (the estimate with where the stored results go, and the time
    it took; the path is returned, for the caller to say once). ``sizes`` overrides QUICK / FULL
    (the tests' small reports); what is played runs on ``backend`` (``sim.runs.backend``; None:
    threads of this process). Stored results of other code are refused (``ReportError``) unless
    ``fresh``, which redoes their sections. Arguments of the wrong type are refused
    (``sim.arguments``) before anything is written."""
    rules = arguments.texts("rules", rules, what=RULE_SPECS, optional=True) or ["classic"]
    quick, out = arguments.flag("quick", quick), arguments.path("out", out)
    data, seed = arguments.path("data", data, optional=True), arguments.integer("seed", seed)
    if sizes is not None and not isinstance(sizes, Sizes):
        raise arguments.refused("sizes", "a Sizes or None", sizes)
    threads = arguments.integer("threads", threads, optional=True)
    progress, log = arguments.function("progress", progress), arguments.function("log", log)
    command = arguments.texts("command", command, what="the words of a command line", optional=True)
    fresh = arguments.flag("fresh", fresh)
    if seed < 0:
        raise ReportError(f"--seed must be 0 or more, not {seed}")
    loaded = {spec: load_rules(spec) for spec in rules}
    main = loaded[rules[0]]
    if main.players != 3:
        raise ReportError(f"the report's bid advice is for the 3-player deal; rules {rules[0]!r} have players = "
                          f"{main.players}")
    counts = {spec: rec.players for spec, rec in loaded.items()}
    if len(set(counts.values())) > 1:
        raise ReportError("the rule sets given are for different player counts: "
                          + ", ".join(f"{k} ({v})" for k, v in counts.items()))
    sizes = sizes or (QUICK if quick else FULL)
    out = Path(out)
    data = Path(data) if data is not None else default_data_dir()

    check_path_name(out, "--out")
    check_path_name(data, "--data")
    check_folders(out, data)
    check_parent_writable(out.resolve(), out)  # the report is written last: a place it cannot be is refused first
    compared = rule_sets_compared(rules)
    with_barrel = [spec for spec in compared if load_rules(spec).barrel is not None]
    players = report_players(rules, compared)
    dirs = stage_dirs(data, rules=rules, compared=compared, seed=seed, sizes=sizes, players=players)
    used = [key for key in dirs if (key != "barrel" or with_barrel) and (key != "rules" or len(compared) >= 2)
            and (key != "situations" or situations_missing(rules[0]) is None)]
    stale = {key: found for key in used if (found := stale_results(dirs[key], SECTION_MODULES[key]))}
    if stale and not fresh:
        items = [item for found in stale.values() for item in found]
        more = f" (and {len(items) - 1} more)" if len(items) > 1 else ""
        raise ReportError(f"--data {data} holds results of other code that this report would reuse: {items[0]}{more}; "
                          "rerun with --fresh to redo them, or give another --data")
    cold = cache_is_cold()
    estimates = stage_estimates(sizes, len(compared), cold)
    total = sum(estimates.values())
    say = log or (lambda text: None)
    say(f"report: {'quick' if quick else 'full'} sizes, rules {', '.join(rules)}; its stored results go to {data} "
        "(--data chooses; a later report reuses them). "
        f"Estimated time on a 2-core machine: about {_minutes(total)}"
        + (" (the compiled kernels are not cached yet: about 2 minutes of that is compiling)" if cold else "")
        + "; stored results are reused.")
    started = time.monotonic()
    sections: dict[str, Section | None] = {}
    # Progress in estimated seconds of work (stage_estimates), the stage named as a reader would.
    done, stage = [0.0], ["bid tables (the first part also compiles)" if cold else "bid tables"]

    def advance(key: str, share: float = 1.0) -> None:
        done[0] = min(done[0] + estimates[key] * share, total)
        if progress is not None:
            progress(stage[0], round(done[0]), round(total))

    def begin(label: str) -> None:
        stage[0] = label
        if progress is not None:
            progress(label, round(done[0]), round(total))

    bids_progress = _PartsPlayed(advance)

    def section(key: str, compute: Callable[[Path, bool], Section]) -> Section:
        return _section(key, dirs[key], compute, data=data, fresh=fresh)

    begin(stage[0])
    sections["bids"] = section("bids", lambda d, f: _bids(d, rules[0], seed, sizes, threads, bids_progress, backend,
                                                                  f))
    if not bids_progress.played:
        advance("compile")
    n_parts = -(-sizes.bid_deals // TABLE_PART)
    advance("bids", max(0, n_parts - bids_progress.played) / n_parts)
    begin("score situations")
    sections["situations"] = (section("situations", lambda d, f: _situations(d, rules[0], seed, sizes, threads, f))
                              if situations_missing(rules[0]) is None else None)
    advance("situations")
    begin("marriages")
    sections["marriages"] = section("marriages", lambda d, f: _marriages(d, dirs["bids"], rules[0], seed, sizes,
                                                                         players.deals, backend, f))
    advance("marriages")
    begin("barrel")
    followed = _StagesPlayed(advance, "barrel", 1)
    sections["barrel"] = (section("barrel", lambda d, f: _barrel(d, with_barrel, seed, sizes, players.barrel,
                                                                   backend, followed, f))
                          if with_barrel else None)
    followed.rest()
    begin("house rules")
    followed = _StagesPlayed(advance, "rules", 1)
    sections["rules"] = (section("rules", lambda d, f: _compare(d, compared, seed, sizes, players.compared,
                                                                   backend, followed, f))
                         if len(compared) >= 2 else None)
    followed.rest()
    begin("tournament")
    followed = _StagesPlayed(advance, "players", 1)
    sections["players"] = section("players", lambda d, f: _tournament(d, rules[0], seed, sizes, players.field,
                                                                           backend, followed, f))
    followed.rest()
    begin("strategy")
    followed = _StagesPlayed(advance, "strategy", 2)  # its games, then its paired deals
    sections["strategy"] = section("strategy", lambda d, f: _strategy(d, rules[0], seed, sizes, players.game,
                                                                       backend, followed, f))
    followed.rest()
    begin("folk advice")
    sections["folk"] = _folk(dirs["folk"], sections, rules[0], seed, sizes, threads)
    advance("folk")
    begin("writing")
    path = _write(out, data, dirs, sections, rules=rules, compared=compared, seed=seed, sizes=sizes, quick=quick,
                  command=command, players=players)
    advance("write")
    say(f"report written in {time.monotonic() - started:.0f} s, with {REPORT_MD} beside it")
    return path


def check_folders(out: Path, data: Path) -> None:
    """Refuse an ``out`` whose replacement would delete what is not a report, and folders inside
    each other: the report replaces ``out`` whole, so ``data`` inside it would be deleted with it,
    and ``out`` inside ``data`` would mix a report with the stored results; the current folder (or
    one holding it) would be replaced from under the user's feet. An ``out`` that is a symbolic link
    is followed: the report it points to is replaced, the link kept."""
    out_r, data_r = out.resolve(), data.resolve()
    here = Path.cwd().resolve()
    if out_r == here or out_r in here.parents:
        where = "is the current folder" if out_r == here else "holds the current folder"
        raise ReportError(f"--out {out} {where}, which the report would replace whole; give a folder of its own, "
                          "such as --out reports/report")
    if out_r == data_r or data_r in out_r.parents:
        raise ReportError(f"--out {out} is or lies inside --data {data}: the report must lie outside the stored "
                          "results")
    if out_r in data_r.parents:
        raise ReportError(f"--data {data} lies inside --out {out}: writing the report replaces --out whole and would "
                          "delete the stored results; give a --data outside --out")
    if not out.exists():
        return
    if not out.is_dir():
        raise ReportError(f"--out {out} is a file, not a folder")
    entries = sorted(out.iterdir())
    if not entries:
        return
    if not _is_report_provenance(out / PROVENANCE):
        raise ReportError(f"--out {out} is not empty and holds no report (no {PROVENANCE} of thousand report); the "
                          "report replaces the folder whole: choose a new or empty folder")
    foreign = [p for p in entries if not _is_report_file(p)]
    if foreign:
        more = f" and {len(foreign) - 1} more" if len(foreign) > 1 else ""
        raise ReportError(f"--out {out} holds a report and {foreign[0]}{more}, which a report does not write; the "
                          "report replaces the folder whole: move them, or choose another --out")


def _is_report_provenance(path: Path) -> bool:
    try:
        prov = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(prov, dict) and isinstance(prov.get("command"), list) and prov["command"][:2] == \
        ["thousand", "report"] and "sizes" in prov


def _is_report_file(path: Path) -> bool:
    """Whether ``path`` (in a report's folder) is one a report writes: its pages, provenance, plots and
    ``data/*.json``."""
    if path.is_symlink():
        return False
    if path.is_file():
        return path.name in (REPORT_MD, REPORT_HTML, PROVENANCE) or path.suffix == ".png"
    return path.name == "data" and path.is_dir() and all(p.is_file() and not p.is_symlink() and p.suffix == ".json"
                                                         for p in path.iterdir())


# The analysis module whose code computes each section's stored tables (its code fingerprint).
SECTION_MODULES = {"bids": "bids.table", "marriages": "marriages.odds", "barrel": "barrel", "rules": "compare",
                   "players": "tournament", "strategy": "strategy.study",
                   "situations": "bids.situations", "folk": "report.folk"}


def stale_results(folder: Path, module: str) -> list[str]:
    """The stored results under a section's ``folder`` made by other code, in words: runs whose spec
    records another code fingerprint than this code's ``sim`` (or none), tables (and the parts of a
    bid table) whose metadata records another than this code's ``module``."""
    found: list[str] = []
    if not folder.is_dir():
        return found
    for run_file in sorted(folder.rglob(RUN_FILE)):
        if any(part.startswith(".") for part in run_file.relative_to(folder).parts):
            continue  # a temporary folder of the runner's
        stored = _json_dict(run_file)
        current = code_fingerprint()
        if stored.get(FINGERPRINT) != current:
            found.append(describe_difference(f"the run {run_file.parent}", stored.get(FINGERPRINT), current))
    current = code_fingerprint(module)
    for table in sorted(folder.glob("*.parquet")):
        try:
            meta = read_metadata(table)
        except (OSError, ValueError):
            continue  # damaged: the section's own checks rebuild or refuse it
        if meta.get(FINGERPRINT) != current:  # every analysis's table records it: one without is older code's
            found.append(describe_difference(f"the table {table}", meta.get(FINGERPRINT), current))
    parts = folder / PARTS_DIR / PARTS_SPEC
    if parts.is_file() and (spec := _json_dict(parts)).get(FINGERPRINT) != current:
        found.append(describe_difference(f"the parts of a bid table in {parts.parent}", spec.get(FINGERPRINT), current))
    return found


class _PartsPlayed:
    """The report's bar following the bid table's parts (``progress(stage, done, total)`` of
    ``analysis.bids.table.build_bid_tables``, counting parts): each part stored now advances the bids'
    estimate by its share, the first also the compiling it waited for. ``played``: the parts
    stored while followed (those kept from an earlier build are not)."""

    def __init__(self, advance: Callable[[str, float], None]) -> None:
        self.advance = advance
        self.played = 0
        self.stage: str | None = None
        self.done = 0

    def __call__(self, stage: str, done: int, total: int) -> None:
        if stage == self.stage and done > self.done:
            if not self.played:
                self.advance("compile", 1.0)  # the first part waited for the compiler
            self.advance("bids", (done - self.done) / total)
            self.played += done - self.done
        self.stage, self.done = stage, done


class _StagesPlayed:
    """The report's bar following a played section's runs (``progress(stage, done, total)`` of
    ``analysis.study.run_study``: each stage's runs counted in deals or games): each stage is
    taken as an equal share of the section's estimate (``stages`` of them), so that the bar moves
    while a section plays for many minutes rather than only at its end. ``share``: how much of the
    section's estimate it has advanced (the caller advances the rest when the section is done)."""

    def __init__(self, advance: Callable[[str, float], None], key: str, stages: int) -> None:
        self.advance, self.key, self.stages = advance, key, stages
        self.share = 0.0
        self.seen: dict[str, float] = {}

    def __call__(self, stage: str, done: int, total: int) -> None:
        if total <= 0 or (stage not in self.seen and len(self.seen) >= self.stages):
            return
        fraction = min(done / total, 1.0)
        step = (fraction - self.seen.get(stage, 0.0)) / self.stages
        self.seen[stage] = fraction
        if step > 0:
            self.share += step
            self.advance(self.key, step)

    def rest(self) -> None:
        """Advance what is left of the section's share (all of it when nothing was played)."""
        self.advance(self.key, max(0.0, 1.0 - self.share))


def _json_dict(path: Path) -> dict:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _section(key: str, folder: Path, compute: Callable[[Path, bool], Section], *, data: Path,
             fresh: bool) -> Section:
    """A section's result (``compute(folder, fresh)``: its analysis on the results stored in
    ``folder``). With ``fresh``, what is stored there and is not the result asked for (other code,
    other arguments) is redone by the analysis itself, apart, and put in place once complete
    (``analysis.study.Study``; the bid table's ``build_bid_tables``), so the old results stay
    whole until the new are and a report never mixes two. Without, a refusal of what is stored is
    one line naming --data (a refusal that --fresh answers: a full disk is not one)."""
    try:
        return compute(folder, fresh)
    except (StaleResultError, RunDirError) as exc:
        if fresh or isinstance(exc, StorageError) or "--fresh" not in str(exc):
            raise  # not a refusal of what is stored (a full disk, a lock): --fresh would not help
        reason = re.sub(r"; [^;]*(--out|--fresh|--run)[^;]*$", "", str(exc))
        raise ReportError(f"--data {data}: the stored results of the {SECTIONS[key]!r} section cannot be "
                          f"reused ({reason}); rerun with --fresh to redo them, or give another --data") from None


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:.0f} minutes" if seconds >= 90 else f"{seconds:.0f} seconds"


# ---- the analyses, each returning its result object ---------------------------------------------
def _bids(folder: Path, rules: str, seed: int, sizes: Sizes, threads: int | None, progress: Progress | None,
          backend, fresh: bool) -> BidTable:
    result = tables_bids(deals=sizes.bid_deals, rules=rules, seed=seed, out=folder, pimc_deals=sizes.pimc_deals,
                         threads=threads, progress=progress, min_n=sizes.min_n, backend=backend, fresh=fresh)
    plot_bid_make_rates(result, result.plot_file)
    if result.methods_plot_file is not None:
        plot_bid_methods(result, result.methods_plot_file)
    return result


def _marriages(folder: Path, bids: Path, rules: str, seed: int, sizes: Sizes, player: str, backend,
               fresh: bool) -> MarriageOdds:
    result = tables_marriages(deals=sizes.marriage_deals, seed=seed, rules=rules, out=folder,
                              play_deals=sizes.marriage_play_deals, players=player, bids=bids / TABLE_FILE,
                              risk=RISKS[0], backend=backend, fresh=fresh)
    if result.plot_file is not None:
        plot_marriage_odds(result, result.plot_file)
    if result.worth is not None and result.worth_plot_file is not None:
        plot_marriage_worth(result.worth, result.worth_plot_file)
    return result


def _barrel(folder: Path, rules: list[str], seed: int, sizes: Sizes, player: str, backend,
            progress: Progress, fresh: bool) -> BarrelStats:
    result = tables_barrel(games=sizes.barrel_games, rules=rules, players=player, seed=seed, out=folder,
                           progress=progress, backend=backend, fresh=fresh)
    plot_barrel(result, result.plot_path)
    return result


def _compare(folder: Path, rules: list[str], seed: int, sizes: Sizes, player: str, backend,
             progress: Progress, fresh: bool) -> Comparison:
    result = compare.compare(rules=rules, games=sizes.compare_games, players=player, seed=seed, out=folder,
                             progress=progress, backend=backend, fresh=fresh)
    plot_comparison(result, result.plot_path)
    return result


def _tournament(folder: Path, rules: str, seed: int, sizes: Sizes, field: tuple[str, ...], backend,
                progress: Progress, fresh: bool) -> TournamentResult:
    result = tournament.tournament(players=list(field), games=sizes.tournament_games, rules=rules,
                                   seed=seed, out=folder, progress=progress, backend=backend, fresh=fresh)
    plot_tournament(result, folder / tournament.PLOT_FILE)
    return result


def _strategy(folder: Path, rules: str, seed: int, sizes: Sizes, player: str, backend,
              progress: Progress, fresh: bool) -> StrategyReport:
    result = strategy_study.strategy(games=sizes.strategy_games, deals=sizes.strategy_deals, rules=rules,
                                     players=player, seed=seed, out=folder, progress=progress, backend=backend,
                                     fresh=fresh)
    plot_strategy(result, result.plot_path)
    return result


def situations_missing(rules: str) -> str | None:
    """Why the score situations' section cannot be made under ``rules`` (None when it can): its lines
    are played by the score-aware learned player and valued by the chance of winning, both read from
    the table of win chances shipped for the rules (every preset's)."""
    if default_line_player("win", rules) != SCORE_AWARE or shipped_table(rules, "learned") is None:
        return (f"no table of win chances is shipped for the rules {rules!r} (only for the presets), and the "
                "section's player and objective read one")
    return None


def _situations(folder: Path, rules: str, seed: int, sizes: Sizes, threads: int | None,
                fresh: bool) -> SituationAdvice:
    table = shipped_table(rules, "learned")
    p = table.provenance
    identity = {"players": p.get("players"), "games": table.games, "seed": table.seed,
                "thousand_version": p.get("thousand_version"), FINGERPRINT: p.get(FINGERPRINT),
                "sha256": file_sha256(table.table_path)}
    source = (f"the shipped table of win chances ({table.games:,} whole games of the learned player, seed "
              f"{table.seed}, made by thousand {p.get('thousand_version')})")
    return score_situations(rules=rules, deals=sizes.situation_deals, seed=seed, out=folder, win_chance=table.chance,
                            win_table=identity, win_source=source, threads=threads, fresh=fresh)


def _folk(folder: Path, sections: dict, rules: str, seed: int, sizes: Sizes, threads: int | None) -> FolkAdvice:
    """The folk advice tested, from the bid table, the strategy and the barrel just made."""
    return folk_advice(folder, bids=sections["bids"], strategy=sections["strategy"], barrel=sections["barrel"],
                       rules_name=rules, seed=seed, positions=sizes.folk_positions, threads=threads)


def figure_specs(players: ReportPlayers) -> dict[str, list[tuple[str, str]]]:
    """The plots each section shows: (file in the section's folder, caption naming ``players``)."""
    return {
        "bids": [(classes.PLOT_FILE,
                  "Make-rate of each contract by hand class: the learned player in all seats with 95% bands, pimc's "
                  "check on the same deals as open circles."),
                 (classes.METHODS_PLOT_FILE, "The learned player checked against pimc on the same deals (heuristic "
                                            "player and double dummy beside).")],
        "marriages": [(odds.PLOT_FILE, "Marriage odds: exact (bars) against random deals, dealt and not played "
                                            "(points with 95% intervals)."),
                      (odds.WORTH_PLOT_FILE, "What holding each suit's marriage adds to the declarer's points "
                                             f"playing 120 in the bid table's deals ({players.deals} player, all "
                                             "seats; double dummy beside).")],
        "barrel": [(barrel.PLOT_FILE, "How barrel episodes end, leaving upward by attempt, and winning from a score "
                                      f"({players.barrel} player, all seats).")],
        "rules": [(compare.PLOT_FILE, f"Game length by rule set, and every difference to the first ({players.compared} "
                                      "player, "
                                      "all seats).")],
        "players": [(tournament.PLOT_FILE, f"The tournament of {', '.join(players.field)}: win share, score per "
                                           "deal and make-rate.")],
        "strategy": [(strategy_study.PLOT_FILE, f"Strategy in play (the {players.game} player at every seat): the "
                      "declarer's "
                      "choice after the talon, the make-rate by marriages kept, and the score change by seat.")],
    }


def _digest(obj) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:10]


def stage_dirs(data: Path, *, rules: list[str], compared: list[str], seed: int, sizes: Sizes,
               players: ReportPlayers | None = None) -> dict[str, Path]:
    """Where each section's results are stored under ``data``: a folder per sample sizes and seed
    (``quick-seed0``, ``full-seed0``, ``sizes-<hash>-seed0``), and below it one per rule set(s) the
    section plays (a hash of their names and effective rules). Reports of other sizes, seeds or
    rules never meet each other's runs; the same arguments always find their own. The sections that
    play have their players in the hash too: results of other players lie elsewhere."""
    kind = "quick" if sizes == QUICK else "full" if sizes == FULL else f"sizes-{_digest(dataclasses.asdict(sizes))}"
    base = Path(data) / f"{kind}-seed{seed}"
    main = _digest([rules[0], _rules_dict(rules[0])])
    players = players or report_players(rules, compared)

    def played(player: str) -> str:
        return _digest([rules[0], _rules_dict(rules[0]), player])

    def many(player: str) -> str:
        return _digest([[spec, _rules_dict(spec)] for spec in compared] + [player])

    field = _digest([rules[0], _rules_dict(rules[0]), list(players.field)])
    return {"bids": base / "bids" / main, "marriages": base / "marriages" / played(players.deals),
            "barrel": base / "barrel" / many(players.barrel), "rules": base / "compare" / many(players.compared),
            "players": base / "tournament" / field, "strategy": base / "strategy" / played(players.game),
            "situations": base / "situations" / _digest([rules[0], _rules_dict(rules[0]), SCORE_AWARE]),
            "folk": base / "folk" / played(players.game)}


# ---- writing -------------------------------------------------------------------------------------
def _write(out: Path, data: Path, dirs: dict[str, Path], sections: dict, *, rules: list[str], compared: list[str],
           seed: int, sizes: Sizes, quick: bool, command: list[str] | None, players: ReportPlayers) -> Path:
    """Write the report into a temporary folder beside ``out``, then put it in place of ``out``
    (where ``out`` leads: a symbolic link is kept, and the report it points to replaced)."""
    shown, out = out, out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    (tmp / "data").mkdir(parents=True)
    try:
        figures = {}
        for key, figs in figure_specs(players).items():
            figures[key] = []
            for name, caption in figs:
                if (dirs[key] / name).is_file() and sections.get(key) is not None:
                    shutil.copyfile(dirs[key] / name, tmp / name)
                    figures[key].append((name, caption))
        for key, value in sections.items():
            if value is not None:
                (tmp / "data" / f"{key}.json").write_text(to_json(value), encoding="utf-8")
        md = render_markdown(sections, figures, rules=rules, compared=compared, seed=seed, sizes=sizes, quick=quick,
                             players=players.field)
        (tmp / REPORT_MD).write_text(md, encoding="utf-8")
        (tmp / REPORT_HTML).write_text(render_html(md, tmp), encoding="utf-8")
        provenance = {
            "command": command or ["thousand", "report"], "version": __version__,
            "code_fingerprint": code_fingerprint("report.build"),
            # Each section's results were made (or checked to be made) by this code: its analysis
            # module's fingerprint, and the engine's for the runs it played.
            "fingerprints": {key: code_fingerprint(SECTION_MODULES[key]) for key, value in sections.items()
                             if value is not None and key in SECTION_MODULES},
            "runs_fingerprint": code_fingerprint(),
            "created_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "rules": rules, "rule_sets_compared": compared, "seed": seed, "sizes": dataclasses.asdict(sizes),
            "quick": quick, "tournament_players": list(players.field),
            # who played each section's deals, and the SHA-256 of every learned player's weights
            "players": _section_players(sections),
            "learned_weights": learned_weights(players.named()
                                               + ([SCORE_AWARE] if sections.get("situations") is not None else [])),
            "data": str(data),
            "effective_rules": {spec: _rules_dict(spec) for spec in compared},
            "stored": {key: str(folder) for key, folder in dirs.items()},
            "inputs": stored_inputs(data, [dirs[key] for key, value in sections.items() if value is not None]),
        }
        (tmp / PROVENANCE).write_text(json.dumps(provenance, ensure_ascii=False, indent=1), encoding="utf-8")
        old = out.with_name(f".{out.name}.old-{os.getpid()}")
        if out.exists():
            out.rename(old)
        tmp.rename(out)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return shown / REPORT_HTML


def _section_players(sections: dict) -> dict[str, list[str]]:
    """Who played each section's deals, as its result records them (the bid table's declarers are
    its methods; the marriages' odds are dealt, not played, their play by the players listed)."""
    out: dict[str, list[str]] = {}
    for key, value in sections.items():
        if value is None:
            continue
        if key == "marriages":
            out[key] = sorted({p for play in value.play for p in play.players})
        elif key == "players":
            out[key] = list(value.player_types)
        elif key in ("barrel", "rules"):
            out[key] = list(value.players)
        elif key == "situations":
            out[key] = list(value.provenance["players"])
    return out


def _rules_dict(spec: str) -> dict:
    return load_rules(spec).to_dict()


def stored_inputs(data: Path, folders: list[Path]) -> list[dict]:
    """Every stored table and shard in the sections' ``folders`` (the report read them), with its
    size and SHA-256; paths relative to ``data``."""
    # Not the parts of a bid table nor temporary files: folders whose names start with a dot.
    files = sorted({p for folder in folders for p in Path(folder).rglob("*.parquet")
                    if not any(part.startswith(".") for part in p.relative_to(folder).parts)})
    return [{"path": str(p.relative_to(data)), "bytes": p.stat().st_size, "sha256": file_sha256(p)} for p in files]
