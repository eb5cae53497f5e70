"""The ``thousand`` command: thin wrappers that parse options, call a keyword-only function and
print. Errors in user input are reported as one line, never a traceback.

Its length is the commands' options and their help texts, some twenty commands; no command computes
anything itself, and every result is worded by ``analysis.present`` at the terminal's width
(``analysis.present.layout``; ``--wide``: every column), what is written here being the commands'
own status lines. Each command imports
its modules when it runs, so that ``thousand --help`` starts at once."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

HELP = {"help_option_names": ["-h", "--help"]}
app = typer.Typer(no_args_is_help=True, context_settings=HELP,
                  help="Monte Carlo analysis of the card game Thousand.")
rules_app = typer.Typer(help="House rules: list the options, show effective rules.", invoke_without_command=True,
                        context_settings=HELP)
app.add_typer(rules_app, name="rules")


def _version(value: bool) -> None:
    if value:
        from sim import __version__
        from sim.fingerprint import code_fingerprint

        typer.echo(f"thousand {__version__} (code fingerprint {code_fingerprint()}; with the analyses "
                   f"{code_fingerprint('report')})")
        raise typer.Exit()


@app.callback()
def options(ctx: typer.Context, version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True,
        help="print the version and the code fingerprint, and exit")] = False) -> None:
    """Monte Carlo analysis of the card game Thousand."""
    if not {"--help", "-h"} & set(sys.argv[1:]):  # a command: while it compiles, a line says how far
        from sim.compiling import compiling

        ctx.with_resource(compiling())


def _fail(message: str) -> None:
    # A path with undecodable bytes must not turn the one-line error into a traceback.
    safe = message.encode("utf-8", "backslashreplace").decode("utf-8")
    typer.secho(f"error: {safe}", fg="red", err=True)
    raise typer.Exit(2)


def _say_loading(module: str, kernel: str) -> None:
    """Say that the compiled kernels are loading where the command's main kernel is cached (a few
    seconds); where it is not, the compiling line says how far the first run's compile is."""
    from sim.numba_config import is_cached

    if is_cached(module, kernel):
        typer.echo("loading the compiled kernels...", err=True)


def _at_least(option: str, value: int | None, least: int = 0) -> None:
    if value is not None and value < least:
        _fail(f"{option} must be {least} or more, not {value}")


def _thread_count(option: str, value: int | None) -> None:
    """Refuse a thread or worker count this machine cannot run (``sim.parallel.thread_limit``)."""
    from sim.parallel import ThreadCountError, check_thread_count

    try:
        check_thread_count(option, value)
    except ThreadCountError as exc:
        _fail(str(exc))


# Where the long commands run: this process by default, or a Dask cluster (sim.runs.backend).
Scheduler = Annotated[str | None, typer.Option(
    help="run on the Dask cluster whose scheduler is at this address, e.g. tcp://host:8786 "
         "(pip install -e '.\\[distributed]')")]
Cluster = Annotated[str | None, typer.Option(help="'local': start a Dask cluster of --workers processes here")]
DaskWorkers = Annotated[int | None, typer.Option("--workers", help="Dask workers of --cluster local \\[default: 2]")]
# The text's width: the terminal's (COLUMNS, else 80 when not a terminal), or every column with --wide.
Wide = Annotated[bool, typer.Option("--wide", help="every column of every table, no line wrapped (the default fits "
                                                   "the terminal's width, 80 when not a terminal)")]


def _width(wide: bool) -> int | None:
    """The width a command's text is written for (``analysis.present.layout``): None with --wide."""
    from analysis.present.layout import terminal_width

    return None if wide else terminal_width(sys.stdout)


def _backend(scheduler: str | None, cluster: str | None, workers: int | None, threads: int | None = None):
    """The context manager of the backend asked for (``sim.runs.backend.open_backend``); its errors are
    BackendErrors, reported as one line by the commands."""
    from sim.runs import open_backend

    _thread_count("--workers", workers)  # local Dask workers are processes of this machine
    return open_backend(scheduler=scheduler, cluster=cluster, workers=workers, threads=threads, progress=True)

def _played_analysis(run, plot, present, *, unit: str, as_json: bool, scheduler, cluster, workers, wide: bool = False,
                     **kwargs) -> None:
    """The common body of the commands that play stored runs: ``run(**kwargs)`` on the backend with
    a progress bar of ``unit``s (closed before a line is printed, an error's included), its plot
    drawn, then its JSON or its text (``present``, at the width of ``wide``); a user's mistake refused in one line."""
    from contextlib import closing

    from analysis.present.json_text import to_json
    from sim.progress import StageBars

    bars = StageBars(unit, scaled=True)
    try:
        with _backend(scheduler, cluster, workers) as backend, closing(bars):
            result = run(progress=None if as_json else bars, backend=backend, **kwargs)
        plot(result, result.plot_path)
    except _user_errors() as exc:
        _refuse(exc)
    typer.echo(to_json(result) if as_json else "\n".join(present(result, _width(wide))))


def _user_errors():
    """The error types a user can mend: the project's family (``sim.ThousandError``: bad input, a
    folder holding something else) and the file system's refusals of a path (a full disk, a folder
    that cannot be written). ``_refuse`` reports them as one line."""
    from sim import ThousandError

    return (ThousandError, OSError)


def _refuse(exc: BaseException) -> None:
    """One line for a user's error. An OSError that names no path and is no condition of the
    machine (a full disk, no permission) is a bug of ours and keeps its traceback, as does every
    exception outside the family."""
    import errno

    machine = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM, errno.EFBIG, errno.EMFILE,
               errno.ENFILE}
    if isinstance(exc, OSError) and exc.filename is None and exc.errno not in machine:
        raise exc
    _fail(str(exc))


@rules_app.callback()
def rules_list(ctx: typer.Context, wide: Wide = False) -> None:
    """List every house rule with its default, allowed values and meaning."""
    if ctx.invoked_subcommand is not None:
        return
    from analysis.present.rules import rule_options_lines
    from sim.game.rules import option_table

    typer.echo("\n".join(rule_options_lines(option_table(), _width(wide))))


@rules_app.command("show")
def rules_show(spec: Annotated[str, typer.Argument(help="a preset name or a TOML file")], wide: Wide = False) -> None:
    """Print the effective rules of a preset or a TOML file."""
    from analysis.present.rules import effective_rules_lines
    from sim.game.rules import load_rules

    try:
        rules = load_rules(spec)
    except _user_errors() as exc:
        _refuse(exc)
    typer.echo("\n".join(effective_rules_lines(spec, rules, _width(wide))))


@app.command()
def simulate(
    games: Annotated[int | None, typer.Option(help="play this many whole games")] = None,
    deals: Annotated[int | None, typer.Option(help="play this many independent deals from a zero score")] = None,
    rules: Annotated[str, typer.Option(help="a preset (classic, short, long, ...) or a TOML file")] = "classic",
    players: Annotated[str | None, typer.Option(
        help="one player for all seats or one per seat (three, or two or four with players = 2 or 4) of random, "
             "heuristic, dd, pimc, pimc-inf (pimc weighing its worlds by the auction; 3 or 4 players), leadage "
             "(a ported bot; 3 or 4 players), learned, learned-cards, learned-win "
             "(its bids and contract weigh the chance of winning; the presets), learned-inf (learned whose search "
             "of its last cards weighs its worlds by the auction) or learned:PATH "
             "(a net's card play; 3 or 4 players), e.g. heuristic,random,random \\[default: as every analysis, "
             "learned-win in whole games where the rules ship its win table, else learned; heuristic with 2 "
             "players]")]
    = None,
    seed: Annotated[int, typer.Option(help="root seed: the same seed gives the same results")] = 0,
    out: Annotated[Path, typer.Option(help="run directory (Parquet shards + run.json); rerun to resume")]
    = Path("out/run"),
    workers: Annotated[int, typer.Option(
        help="threads playing chunks, or with --cluster local the Dask workers (results do not depend on it)")] = 0,
    chunk_size: Annotated[int, typer.Option(help="deals or games per chunk (part of what fixes the results)")]
    = 0,
    progress: Annotated[bool, typer.Option(help="show a progress bar")] = True,
    records: Annotated[bool, typer.Option("--records", help=(
        "also store every deal's record (docs/records.md), one JSON line each, in OUT/records.jsonl "
        "(the deals played again from their seeds; 3-player rules; rules that are no preset go beside it in "
        "OUT/rules.toml, which the records name)"))] = False,
    fresh: Annotated[bool, typer.Option("--fresh", help=(
        "redo the run into --out although it holds another run (other arguments, or made by other code: otherwise "
        "refused); the old run stays whole until the new one is complete, and rerunning resumes the redo"))] = False,
    scheduler: Scheduler = None,
    cluster: Cluster = None,
    wide: Wide = False,
) -> None:
    """Play deals or whole games and store them as Parquet, then print a summary."""
    from analysis.present.summary import run_summary_lines
    from analysis.summary import summarize_run
    from sim.compiling import compile_aside
    from sim.runs.simulate import SIMULATE_ASIDE
    from sim.runs.simulate import simulate as run

    _at_least("--workers", workers)
    _thread_count("--workers", workers)
    remote = bool(scheduler or cluster)
    try:
        # a cold cache on two cores: a second process compiles some kernels (not for Dask's workers)
        with (_backend(scheduler, cluster, (workers or None) if remote else None, workers or None) as backend,
              compile_aside(() if remote else SIMULATE_ASIDE)):
            interrupted = run(games=games, deals=deals, rules=rules, players=players, seed=seed, out=out,
                              workers=workers or None, chunk_size=chunk_size, progress=progress, backend=backend,
                              fresh=fresh, records=records)
        if interrupted:
            typer.echo(interrupted, err=True)
            _exit_now(130)
        summary = summarize_run(run=out)  # reads the run again, verified: a shard changed since is refused
    except _user_errors() as exc:
        _refuse(exc)
    typer.echo("\n".join(run_summary_lines(summary, _width(wide))))
    if records:
        typer.echo(f"every deal's record: {out / 'records.jsonl'} (thousand record show / check)")


@app.command("solve")
def solve(
    layout: Annotated[str | None, typer.Argument(help='three hands "H0 | H1 | H2", or two "H0 | H1" of a 2-player deal '
                                                     '(seat 0 is the declarer; "; last_bonus=N" in a layout: the '
                                                     'other talon\'s points)')] = None,
    leader: Annotated[int | None, typer.Option(help="seat on lead (default 0)")] = None,
    trump: Annotated[str | None, typer.Option(help="trump suit S C D H (default none)")] = None,
    won: Annotated[str | None, typer.Option(help="seats that have won a trick, comma-separated")] = None,
    rules: Annotated[str | None, typer.Option(help="a preset name or a TOML file")] = None,
    file: Annotated[str | None, typer.Option("--file", help="one layout per line, with ';' settings")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object per layout")] = False,
    wide: Wide = False,
) -> None:
    """Double-dummy solve: the declarer's value, the value of each lead and a principal variation."""
    from analysis.present.json_text import to_json_line
    from analysis.present.solve import solved_layout_lines
    from sim.solver import solve_layouts

    try:
        solved = solve_layouts(text=layout, file=file, leader=leader, trump=trump, won=won, rules=rules)
    except KeyboardInterrupt:  # before the clause below, whose error types take a while to import
        _interrupted()
    except _user_errors() as exc:
        _refuse(exc)
    for result in solved:
        for line in [to_json_line(result)] if as_json else solved_layout_lines(result, _width(wide)):
            typer.echo(line)


class _TableOnFirstUse:
    """The win objective's table, read or first built when the advice first asks for a chance: after
    ``advise`` has checked the whole question, so that a refused question never waits for a table."""

    def __init__(self, build) -> None:
        self.build, self.table = build, None

    def __call__(self, own, left, right):
        if self.table is None:
            self.table = self.build()
        return self.table.chance(own, left, right)


class _AnnouncedOnFirstUse:
    """The advice's progress: says first, once, that the compiled kernels are loaded, when the advice
    first reports progress, which is after ``advise`` has checked the whole question (a refused
    question prints its one line only) and before the first kernel has finished (the playouts report
    while they wait); then passes each report to the bars, if any. On a cold cache it says nothing:
    the compile line of ``sim.compiling`` counts what compiles."""

    def __init__(self, bars) -> None:
        self.bars, self.said = bars, False

    def __call__(self, *report) -> None:
        if not self.said:
            self.said = True
            _say_loading("sim.engine.playouts_nb", "line_samples")
        if self.bars is not None:
            self.bars(*report)


def _win_table(rules: str, line_player: str, win_table: Path | None, win_games: int | None, progress: bool):
    """(chance, source in words) of ``thousand bid``'s win objective: the table shipped for the rules
    and the line player's weights (``analysis.win_chances.shipped_table``) unless another folder or
    size is asked for, else the table of ``--win-table`` (default out/win-chances), read or first
    built there with a progress bar when the advice first needs it."""
    from contextlib import closing

    from analysis.bids.advisor import LINE_PLAYERS, TABLE_PLAYER
    from analysis.win_chances import HOLDOUT_EVERY, SHIPPED_GAMES, shipped_table, win_table_for_bid
    from sim.progress import StageBars

    if win_games is not None and win_games < 2 * HOLDOUT_EVERY:
        _fail(f"--win-games must be {2 * HOLDOUT_EVERY} or more (a fifth of the games is held out to validate the "
              f"table), not {win_games}")
    line_player = line_player.strip().lower()
    line_player = TABLE_PLAYER.get(line_player, line_player)  # whose games the table of win chances comes from
    shipped = None
    if win_table is None and line_player in LINE_PLAYERS:  # else advise refuses the player
        try:
            shipped = shipped_table(rules, line_player)
        except _user_errors() as exc:
            _refuse(exc)
    if shipped is not None and win_games in (None, shipped.games):
        p = shipped.provenance
        return shipped.chance, (f"the shipped table of win chances ({shipped.games:,} whole games of the "
                                f"{line_player} player, seed {shipped.seed}, made by thousand "
                                f"{p['thousand_version']}, code {p['code_fingerprint']})")
    games = SHIPPED_GAMES if win_games is None else win_games
    folder = Path("out/win-chances") if win_table is None else win_table

    def build():
        if shipped is None and win_table is None:
            typer.echo(f"no shipped table of win chances for these rules and the {line_player} player: reading "
                       f"or building one from {games:,} whole games in {folder} (once)...", err=True)
        with closing(StageBars("game", scaled=True)) as win_bars:
            return win_table_for_bid(rules=rules, games=games, players=line_player, out=folder,
                                     progress=win_bars if progress else None)

    return _TableOnFirstUse(build), (f"win chances from {games:,} whole games of the {line_player} player (seed 0), "
                                     f"stored in {folder}")


@app.command("bid")
def bid(
    hand: Annotated[str, typer.Argument(help='your 7 cards before the talon, e.g. "AH TH KH QH AS 9C JD"')],
    rules: Annotated[str, typer.Option(help="a preset or a TOML file")] = "classic",
    samples: Annotated[int | None, typer.Option(
        help="sampled deals of the 17 unseen cards, fixed \\[default: batches of 500 until the plateau is settled, "
             "at most 4,000]")] = None,
    make_samples: Annotated[int | None, typer.Option(
        help="deals of the make-rate table (information), the first of the sample \\[default: --samples, or 300]")]
    = None,
    seed: Annotated[int, typer.Option(help="the same seed gives the same answer")] = 0,
    seat: Annotated[str, typer.Option(
        help="first (forced to bid the minimum under forced_first_bid), second or third hand")] = "first",
    objective: Annotated[str | None, typer.Option(
        help="race (your score change minus the opponents' mean), own (your score change), or win (your chance of "
             "winning the game after the deal, from a table of win chances: the one shipped for the rules and the "
             "learned player, else --win-table) \\[default: win when a score is given (a score other than 0 or "
             "a seat on the barrel), race from a zero score]")] = None,
    win_table: Annotated[Path | None, typer.Option(
        help="with the win objective: the folder of a win-chance table to read, or first build (thousand tables "
             "win-chances --out) \\[default: the shipped table when it matches the rules and the line player, "
             "else out/win-chances]")] = None,
    win_games: Annotated[int | None, typer.Option(
        help="with the win objective: whole games the win-chance table learns from (built once, then reused) "
             "\\[default: 20,000]")] = None,
    line_player: Annotated[str | None, typer.Option(
        help="who plays every decision of the bidding lines but your bids: learned, heuristic or learned-win "
             "(the learned player reading the score) \\[default: learned-win with the win objective where the "
             "rules have its table, else learned]")] = None,
    method: Annotated[str, typer.Option(
        help="make-rate methods (information): learned, dd, heuristic, pimc, or several comma-separated")]
    = "learned",
    risk: Annotated[float, typer.Option(
        help="failure chance of the risk information (the highest bid made at least 1 - risk of the time)")] = 0.3,
    left: Annotated[str | None, typer.Option(help="cards known to lie with the opponent on your left")] = None,
    right: Annotated[str | None, typer.Option(help="cards known to lie with the opponent on your right")] = None,
    talon: Annotated[str | None, typer.Option(help="cards known to lie in the talon")] = None,
    score: Annotated[int | None, typer.Option(
        help="your score before this deal (below the barrel; with --on-barrel from the barrel up) \\[default: 0]")]
    = None,
    on_barrel: Annotated[bool, typer.Option("--on-barrel", help="you sit on the barrel")] = False,
    left_score: Annotated[int | None, typer.Option(
        help="the score of the opponent on your left (who bids after you) \\[default: 0]")] = None,
    left_on_barrel: Annotated[bool, typer.Option("--left-on-barrel", help="the left opponent sits on the barrel")]
    = False,
    right_score: Annotated[int | None, typer.Option(
        help="the score of the opponent on your right \\[default: 0]")] = None,
    right_on_barrel: Annotated[bool, typer.Option("--right-on-barrel", help="the right opponent sits on the barrel")]
    = False,
    attempts: Annotated[int | None, typer.Option(
        help="barrel attempts you have used, with --on-barrel (on the last one, not leaving upward is a fall) "
             "\\[default: 0]")]
    = None,
    bolts: Annotated[int | None, typer.Option(help="your bolts toward the penalty \\[default: 0]")] = None,
    passes: Annotated[int | None, typer.Option(
        help="deals in a row you have not declared (bolt_on = three_passes: the third is a bolt) "
             "\\[default: 0]")]
    = None,
    pimc_samples: Annotated[int, typer.Option(help="deals the (slow) pimc method plays")] = 100,
    worlds: Annotated[int | None, typer.Option(
        help="worlds a pimc decision averages over \\[default: the advisor's, 16]")] = None,
    threads: Annotated[int, typer.Option(help="threads (results do not depend on it)")] = 0,
    as_json: PrintJson = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="print CSV, one row per bidding line")] = False,
    wide: Annotated[bool, typer.Option("--wide", help=(
        "every column of the bidding lines, the make-rate table of each contract and how the plateau is judged, "
        "no line wrapped (the default fits the terminal's width, 80 when not a terminal)"))] = False,
    progress: Annotated[bool, typer.Option(help="show a progress bar on stderr")] = True,
) -> None:
    """How much should this hand bid? The plateau of bidding lines as good as the best, the level recommended,
    make rates, talon odds."""
    from analysis.bids.advisor import advise
    from analysis.present.advice import advice_csv, advice_lines
    from analysis.present.json_text import to_json
    from sim.progress import StageBars

    if as_json and as_csv:
        _fail("give --json or --csv, not both")
    _at_least("--threads", threads)
    _thread_count("--threads", threads)
    bars = StageBars()
    win_chance = win_source = objective_reason = None
    if objective is None:
        from analysis.bids.advisor import SCORE_GIVEN, default_objective

        objective = default_objective(score=score, on_barrel=on_barrel, left_score=left_score,
                                      left_on_barrel=left_on_barrel, right_score=right_score,
                                      right_on_barrel=right_on_barrel, attempts=attempts, bolts=bolts,
                                      passes=passes)
        objective_reason = SCORE_GIVEN if objective == "win" else None
    if line_player is None:
        from analysis.bids.advisor import default_line_player

        try:
            line_player = default_line_player(objective, rules)
        except _user_errors() as exc:
            _refuse(exc)
    if objective.strip().lower() == "win":
        win_chance, win_source = _win_table(rules, line_player, win_table, win_games, progress)
    from sim.compiling import compile_aside
    from sim.engine.playouts import COMPILE_ASIDE

    try:
        with compile_aside(COMPILE_ASIDE):  # a cold cache on two cores: a second process compiles some kernels
            result = advise(hand=hand, rules=rules, samples=samples, make_samples=make_samples, seed=seed,
                            methods=method, seat=seat, risk=risk,
                            objective=objective, line_player=line_player, win_chance=win_chance,
                            win_source=win_source, objective_reason=objective_reason,
                            left=left, right=right, talon=talon,
                            score=score, on_barrel=on_barrel, left_score=left_score, left_on_barrel=left_on_barrel,
                            right_score=right_score, right_on_barrel=right_on_barrel, attempts=attempts,
                            bolts=bolts, passes=passes, pimc_samples=pimc_samples,
                            worlds=worlds, threads=threads or None,
                            progress=_AnnouncedOnFirstUse(bars if progress else None))
    except KeyboardInterrupt:  # nothing was printed: the advice is printed whole at the end
        if progress:
            bars.close()
        _interrupted()
    except _user_errors() as exc:
        if progress:
            bars.close()
        _refuse(exc)
    if progress:
        bars.close()
    if as_json:
        typer.echo(to_json(result))
    elif as_csv:
        typer.echo(advice_csv(result), nl=False)
    else:
        typer.echo("\n".join(advice_lines(result, _width(wide))))


# Options several commands share: --fresh, --json, and who plays the whole games of the tables and compare.
Fresh = Annotated[bool, typer.Option("--fresh", help=(
    "replace what --out holds that was made by other code or with other arguments (otherwise refused), "
    "redoing the work into it"))]
PrintJson = Annotated[bool, typer.Option("--json", help="print JSON")]
GamePlayers = Annotated[str | None, typer.Option(
    help="who plays, as in simulate (default: learned-win when every rule set has its table, else learned; "
         "heuristic with players = 2)")]
tables_app = typer.Typer(help="Tables built from many deals: bid success, marriage odds, barrel survival, "
                              "strategy in play, win chances.",
                         no_args_is_help=True,
                         context_settings=HELP)
app.add_typer(tables_app, name="tables")


@tables_app.command("bids")
def tables_bids(
    deals: Annotated[int, typer.Option(help="random deals to play")] = 2000,
    rules: Annotated[str, typer.Option(help="a preset or a TOML file")] = "classic",
    seed: Annotated[int, typer.Option(help="root seed")] = 0,
    out: Annotated[Path, typer.Option(help="directory for bids.parquet and the plot")] = Path("out/tables"),
    pimc_deals: Annotated[int, typer.Option(help="deals (the first ones) also played by pimc")] = 100,
    worlds: Annotated[int | None, typer.Option(
        help="worlds a pimc decision averages over \\[default: the advisor's, 16]")] = None,
    threads: Annotated[int, typer.Option(help="threads (results do not depend on it)")] = 0,
    min_n: Annotated[int, typer.Option(help="deals a hand class needs to appear in the cheat sheet")] = 30,
    objective: Annotated[str, typer.Option(help="what a bidding line is worth: race (your score change minus the "
                                                "opponents' mean) or own (your score change)")] = "race",
    as_json: Annotated[bool, typer.Option("--json", help="print JSON: make-rates by class, the cheat sheet")] = False,
    fresh: Fresh = False,
    scheduler: Scheduler = None,
    cluster: Cluster = None,
    workers: DaskWorkers = None,
    wide: Wide = False,
) -> None:
    """Bid-success tables: the learned player's make-rates by hand class (heuristic and double dummy beside, pimc
    on the first deals as a check) and a cheat sheet of what bidding is worth per hand class and seat against
    passing, stored as Parquet and plotted; a table made with the same arguments by the same code is reused."""
    from analysis.bids.table import tables_bids as run
    from analysis.present.bids import bid_table_lines, plot_bid_make_rates, plot_bid_methods
    from analysis.present.json_text import to_json

    _at_least("--threads", threads)
    _thread_count("--threads", threads)
    _say_loading("sim.engine.playouts_nb", "line_samples")
    try:
        with _backend(scheduler, cluster, workers) as backend:
            result = run(deals=deals, rules=rules, seed=seed, out=out, pimc_deals=pimc_deals, worlds=worlds,
                         threads=threads or None, progress=_PartLines(), min_n=min_n, objective=objective,
                         backend=backend, fresh=fresh)
    except _user_errors() as exc:
        _refuse(exc)
    except KeyboardInterrupt:
        from analysis.bids.parts import parts_kept

        typer.echo(f"interrupted: {parts_kept(out)} finished part(s) of the table kept in {out}; run the same "
                   "command again to resume", err=True)
        _exit_now(130)
    typer.echo(to_json(result) if as_json else "\n".join(bid_table_lines(result, _width(wide))))
    try:
        plot_bid_make_rates(result, result.plot_file)
        if result.methods_plot_file is not None:
            plot_bid_methods(result, result.methods_plot_file)
    except _user_errors() as exc:
        _refuse(exc)


class _PartLines:
    """The progress of ``tables bids`` (``sim.progress.Progress``, counting parts) as lines on
    stderr: each stage once, as it begins, then each part as it is stored."""

    def __init__(self) -> None:
        self.stage: str | None = None
        self.done = 0

    def __call__(self, stage: str, done: int, total: int) -> None:
        if stage != self.stage:
            self.stage, self.done = stage, done
            typer.echo(stage + "...", err=True)
        elif done > self.done:
            self.done = done
            typer.echo(f"part {done} of {total} stored...", err=True)


@tables_app.command("marriages")
def tables_marriages(
    deals: Annotated[int, typer.Option(help="random deals the exact odds are measured against")] = 100_000,
    rules: Annotated[str, typer.Option(help="a preset or a TOML file (its marriage values)")] = "classic",
    seed: Annotated[int, typer.Option(help="root seed")] = 0,
    out: Annotated[Path | None, typer.Option(help="also store marriages.parquet and the plot here")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON (exact fractions as text)")] = False,
    play_deals: Annotated[int, typer.Option(help="also play this many deals and say what became of each held "
                                                 "marriage (stored under --out, resumable)")] = 0,
    players: Annotated[str | None, typer.Option(
        help="who plays those deals, as in simulate (default: learned; heuristic with players = 2)")] = None,
    run: Annotated[Path | None, typer.Option(help="read the deals of this stored run instead of playing")] = None,
    bids: Annotated[Path | None, typer.Option(help="a bid table (thousand tables bids): what each marriage is "
                                                   "worth in points and contracts")] = None,
    risk: Annotated[float, typer.Option(help="failure chance for the contract a marriage makes safe")] = 0.3,
    play_rules: Annotated[list[str] | None, typer.Option(
        help="rules of the played deals, repeat to compare (default: --rules)")] = None,
    fresh: Fresh = False,
    scheduler: Scheduler = None,
    cluster: Cluster = None,
    workers: DaskWorkers = None,
    wide: Wide = False,
) -> None:
    """Marriage odds: exact by counting, next to the same quantities in random deals (95% intervals);
    and what becomes of held marriages in play."""
    from analysis.marriages.odds import tables_marriages as run_table
    from analysis.present.json_text import to_json
    from analysis.present.marriages import marriage_odds_lines, plot_marriage_odds, plot_marriage_worth
    from sim.progress import StageBars

    bars = None if as_json else StageBars("deal", scaled=True)
    try:
        with _backend(scheduler, cluster, workers) as backend:
            result = run_table(deals=deals, seed=seed, rules=rules, out=out, play_deals=play_deals, players=players,
                               run=run, progress=bars, bids=bids, risk=risk, play_rules=play_rules, backend=backend,
                               fresh=fresh)
    except _user_errors() as exc:
        _refuse(exc)
    finally:
        if bars is not None:
            bars.close()
    typer.echo(to_json(result) if as_json else "\n".join(marriage_odds_lines(result, _width(wide))))
    try:
        if result.plot_file is not None:
            plot_marriage_odds(result, result.plot_file)
        if result.worth is not None and result.worth_plot_file is not None:
            plot_marriage_worth(result.worth, result.worth_plot_file)
    except _user_errors() as exc:
        _refuse(exc)


@tables_app.command("barrel")
def tables_barrel(
    games: Annotated[int, typer.Option(help="whole games per rule set")] = 2000,
    rules: Annotated[list[str] | None, typer.Option(
        help="a preset or a TOML file; repeat to compare rule sets (default classic)")] = None,
    players: GamePlayers = None,
    seed: Annotated[int, typer.Option(help="root seed (the same for every rule set)")] = 0,
    out: Annotated[Path, typer.Option(help="directory for barrel.parquet, the plot and the stored runs")]
    = Path("out/tables"),
    as_json: PrintJson = False,
    fresh: Fresh = False,
    scheduler: Scheduler = None,
    cluster: Cluster = None,
    workers: DaskWorkers = None,
    wide: Wide = False,
) -> None:
    """Barrel survival: how barrel episodes end (up, by attempt; falls by cause), per rule set."""
    from analysis.barrel import tables_barrel as run
    from analysis.present.barrel import barrel_lines, plot_barrel

    _played_analysis(run, plot_barrel, barrel_lines, unit="game", as_json=as_json, wide=wide,
                     scheduler=scheduler, cluster=cluster, workers=workers, games=games, rules=rules or ["classic"],
                     players=players, seed=seed, out=out, fresh=fresh)


@tables_app.command("strategy")
def tables_strategy(
    games: Annotated[int, typer.Option(help="whole games of the players (every section but the concession's "
                                            "comparison)")] = 2000,
    deals: Annotated[int, typer.Option(help="deals of each of the two paired runs (concession allowed, and off)")]
    = 20000,
    rules: Annotated[str, typer.Option(help="a preset or a TOML file (3 players)")] = "classic",
    players: Annotated[str | None, typer.Option(
        help="who plays, as in simulate (default: learned-win where the rules have its table, else learned)")]
    = None,
    seed: Annotated[int, typer.Option(help="root seed of every run")] = 0,
    out: Annotated[Path, typer.Option(help="directory for strategy.parquet, the plot and the stored runs")]
    = Path("out/tables"),
    as_json: PrintJson = False,
    fresh: Fresh = False,
    scheduler: Scheduler = None,
    cluster: Cluster = None,
    workers: DaskWorkers = None,
    wide: Wide = False,
) -> None:
    """Strategy in play: raising after the talon, conceding (and what it saves, on the same deals), the
    discard, marriage order, defence, seats and the score situation, from the players' own games."""
    from analysis.present.strategy import plot_strategy, strategy_lines
    from analysis.strategy.study import strategy as run

    _played_analysis(run, plot_strategy, strategy_lines, unit="unit", as_json=as_json, wide=wide,
                     scheduler=scheduler, cluster=cluster, workers=workers, games=games, deals=deals, rules=rules,
                     players=players, seed=seed, out=out, fresh=fresh)


@tables_app.command("win-chances")
def tables_win_chances(
    games: Annotated[int, typer.Option(help="whole games to learn from (a fifth held out to validate)")] = 20_000,
    rules: Annotated[str, typer.Option(help="a preset or a TOML file")] = "classic",
    players: Annotated[str, typer.Option(help="who plays, as in simulate")] = "learned",
    seed: Annotated[int, typer.Option(help="root seed")] = 0,
    out: Annotated[Path, typer.Option(help="directory for win_chances.parquet, the plot and the stored games")]
    = Path("out/tables"),
    as_json: PrintJson = False,
    fresh: Fresh = False,
    scheduler: Scheduler = None,
    cluster: Cluster = None,
    workers: DaskWorkers = None,
    wide: Wide = False,
) -> None:
    """Win chances by score situation (the table behind bid --objective win): each seat's chance of
    winning the game from its score and its opponents', learned from whole games and checked on
    held-out ones; a table made with the same arguments by the same code is reused."""
    from analysis.present.win_chances import plot_win_chances, win_chance_lines
    from analysis.win_chances import win_chances as run

    _played_analysis(run, plot_win_chances, win_chance_lines, unit="game", as_json=as_json, wide=wide,
                     scheduler=scheduler, cluster=cluster, workers=workers, games=games, rules=rules,
                     players=players, seed=seed, out=out, fresh=fresh)


@app.command("compare")
def compare(
    rule_sets: Annotated[list[str], typer.Argument(help="two or more presets or TOML rules files")],
    games: Annotated[int, typer.Option(help="whole games per rule set")] = 2000,
    players: GamePlayers = None,
    seed: Annotated[int, typer.Option(help="root seed, the same for every rule set (common random numbers)")] = 0,
    out: Annotated[Path, typer.Option(help="directory for compare.parquet, the plot and the stored runs")]
    = Path("out/compare"),
    as_json: PrintJson = False,
    fresh: Fresh = False,
    scheduler: Scheduler = None,
    cluster: Cluster = None,
    workers: DaskWorkers = None,
    wide: Wide = False,
) -> None:
    """Compare house-rule sets on the same deals: every metric's difference with a paired 95% interval
    and a Holm-corrected p-value."""
    from analysis.compare import compare as run
    from analysis.present.compare import comparison_lines, plot_comparison

    _played_analysis(run, plot_comparison, comparison_lines, unit="game", as_json=as_json, wide=wide,
                     scheduler=scheduler, cluster=cluster, workers=workers, rules=rule_sets, games=games,
                     players=players, seed=seed, out=out, fresh=fresh)


@app.command("tournament")
def tournament(
    players: Annotated[list[str] | None, typer.Argument(
        help="one player per seat: random, heuristic, dd, pimc, pimc-inf (pimc weighing its worlds by the "
             "auction), leadage (the ported tysyacha-1000 bot), learned, learned-cards, learned-win (the learned "
             "player weighing the chance of winning the game; every preset), learned-inf (learned whose search of "
             "its last cards weighs its worlds by the auction), learned:PATH (weights of thousand "
             "train), or a TOML player file "
             "(examples/players/); none given: learned-win (learned where the rules have no win table, and with "
             "--deals) heuristic leadage (3 players)", show_default=False)] = None,
    games: Annotated[int | None, typer.Option(help="whole games in each seating (default 1000)")] = None,
    deals: Annotated[int | None, typer.Option(
        help="independent deals from a zero score in each seating instead of games: players compared by points "
             "per deal")] = None,
    rules: Annotated[str, typer.Option(help="a preset or a TOML file")] = "classic",
    seed: Annotated[int, typer.Option(help="root seed, the same for every seating")] = 0,
    out: Annotated[Path, typer.Option(help="directory for tournament.parquet, the plot and the stored runs")]
    = Path("out/tournament"),
    as_json: PrintJson = False,
    fresh: Fresh = False,
    scheduler: Scheduler = None,
    cluster: Cluster = None,
    workers: DaskWorkers = None,
    wide: Wide = False,
) -> None:
    """Players against each other, seats rotated over the same deals (duplicate): win shares (games)
    or points per deal (deals), make-rates and points by role with intervals, a ranking and
    Holm-corrected pairwise tests."""
    from analysis.present.tournament import plot_tournament, tournament_lines
    from analysis.tournament import tournament as run

    if games is None and deals is None:
        games = 1000
    _played_analysis(run, plot_tournament, tournament_lines, unit="game" if deals is None else "deal",
                     as_json=as_json, scheduler=scheduler, cluster=cluster, workers=workers, wide=wide,
                     players=players or None, games=games, deals=deals, rules=rules, seed=seed, out=out, fresh=fresh)


# The options --quick sets (to the sizes its help gives): refused beside it rather than overridden.
QUICK_SETS = ("rounds", "deals", "hidden", "epochs", "bid_deals", "bid_hidden", "bid_epochs")


@app.command("train")
def train(
    ctx: typer.Context,
    out: Annotated[Path, typer.Option(help="the training folder (resumed when it holds this training)")],
    rules: Annotated[str, typer.Option(
        help="'mixture' (the shipped weights' mix of presets and play options), a preset or a TOML file")]
    = "mixture",
    rounds: Annotated[int, typer.Option(help="rounds of play, label and fit (round 0 plays the heuristic's cards)")]
    = 3,
    deals: Annotated[int, typer.Option(help="deals played and labelled a round")] = 100_000,
    labels: Annotated[str, typer.Option(
        help="'true' (the exact value in the true deal) or 'worlds:K' (averaged over K worlds drawn as PIMC draws "
             "them)")] = "true",
    hidden: Annotated[str, typer.Option(help="the two hidden layers' sizes")] = "256,64",
    epochs: Annotated[int, typer.Option(help="passes over the data a round")] = 10,
    loss: Annotated[str, typer.Option(
        help="'mse' (squared error of each legal card's value), 'centred' (of its difference from the "
             "position's mean) or 'contract' (centred, of the value as the contract sees it: twice the contract "
             "where it is made, plus half the points), or 'contract:W' (the points plus W times the contract "
             "where it is made)")] = "centred",
    permute_suits: Annotated[bool, typer.Option(
        help="rename each training batch's suits by a random permutation (the marriage values move with them)")]
    = True,
    seed: Annotated[int, typer.Option(help="the same seed gives the same data")] = 1,
    bid_deals: Annotated[int, typer.Option(
        help="deals of the bidding nets' playouts, every seat declaring each in turn")] = 500_000,
    bid_hidden: Annotated[int, typer.Option(help="the bidding nets' hidden size")] = 64,
    bid_epochs: Annotated[int, typer.Option(help="passes over the playouts")] = 8,
    cards: Annotated[Path | None, typer.Option(
        help="a weights file whose card net to keep: no rounds, only the bidding nets fitted to its play")] = None,
    start: Annotated[Path | None, typer.Option(
        help="a weights file that plays round 0 instead of the heuristic; round 0's fit starts from its card net "
             "when it has the --hidden sizes, from scratch otherwise")] = None,
    label_shares: Annotated[str, typer.Option(
        help="the share of each trick's positions the solver labels, from trick 1, such as 0.2,0.5 (later tricks: "
             "all); the first tricks cost the solver most")] = "",
    data: Annotated[list[Path] | None, typer.Option(
        help="an earlier training folder whose finished rounds' labelled positions join every "
             "round's fit; repeat for several")] = None,
    quick: Annotated[bool, typer.Option(
        "--quick", help="a small training to try the command: 2 rounds of 300 deals, a 32-16 net, 2 epochs, "
                        "bidding nets on 300 deals")]
    = False,
    threads: Annotated[int, typer.Option(help="threads (the data do not depend on it)")] = 0,
    progress: Annotated[bool, typer.Option(help="show a progress bar on stderr")] = True,
) -> None:
    """Train the learned player (needs the train extra): its card net on the exact solver's values,
    round by round on the positions its own play reaches, then its bidding nets on playouts of it."""
    from sim.training.command import TrainSpec
    from sim.training.command import train as run_training

    _at_least("--threads", threads)
    _thread_count("--threads", threads)
    try:
        sizes = tuple(int(x) for x in hidden.split(","))
    except ValueError:
        _fail(f"--hidden must be two sizes such as 128,32, not {hidden!r}")
    try:
        shares = tuple(float(x) for x in label_shares.split(",")) if label_shares else ()
    except ValueError:
        _fail(f"--label-shares must be shares such as 0.2,0.5, not {label_shares!r}")
    if quick:
        # given on the command line (a ParameterSource, of the click typer carries: told by its name)
        given = [f"--{name.replace('_', '-')}" for name in QUICK_SETS
                 if ctx.get_parameter_source(name).name != "DEFAULT"]
        if given:
            named = " and ".join(given)
            _fail(f"--quick sets {named} itself: give {named} without --quick, or --quick without "
                  f"{'them' if len(given) > 1 else 'it'}")
        rounds, deals, sizes, epochs = 2, 300, (32, 16), 2
        bid_deals, bid_hidden, bid_epochs = 300, 16, 2
    try:
        import jax  # noqa: F401  (checked before any work: the fit needs it)
        import optax  # noqa: F401
    except ImportError:
        _fail("thousand train needs the train extra: pip install -e '.[train]' (JAX and optax, CPU only)")
    _say_loading("sim.engine.chunks_nb", "run_deals")
    try:
        path = run_training(out, TrainSpec(rules=rules, rounds=rounds, deals=deals, labels=labels, hidden=sizes,
                                           epochs=epochs, loss=loss, permute_suits=permute_suits, seed=seed,
                                           bid_deals=bid_deals, bid_hidden=bid_hidden, bid_epochs=bid_epochs,
                                           cards=str(cards) if cards else "", start=str(start) if start else "",
                                           label_shares=shares, data=tuple(str(d) for d in data or ())),
                            threads=threads or None, progress=progress,
                            log=lambda m: typer.echo(m, err=True))
    except KeyboardInterrupt:
        _interrupted()
    except _user_errors() as exc:
        _refuse(exc)
    typer.echo(f"weights: {path} (manifest {path.with_suffix('.json')})")


@app.command("report")
def report(
    rules: Annotated[list[str] | None, typer.Option(
        help="a preset or a TOML file; repeat to compare rule sets (the first is the one the bids, marriages and "
             "players sections use; one alone is compared with the presets)")] = None,
    quick: Annotated[bool, typer.Option("--quick", help="small sizes: under 10 minutes on 2 cores, wide intervals")]
    = False,
    out: Annotated[Path, typer.Option(help="folder of the report (report.md, report.html, plots, provenance.json)")]
    = Path("reports/report"),
    data: Annotated[Path | None, typer.Option(
        help="folder of the stored results it reads and reuses (the first line says where they go) \\[default: "
             "out/report-VERSION under the current folder]")] = None,
    seed: Annotated[int, typer.Option(help="root seed of every analysis")] = 0,
    threads: Annotated[int, typer.Option(help="threads (results do not depend on it)")] = 0,
    fresh: Annotated[bool, typer.Option("--fresh", help="redo the stored results in --data that were made by other "
                                                      "code (otherwise refused), replacing them")] = False,
    scheduler: Scheduler = None,
    cluster: Cluster = None,
    workers: DaskWorkers = None,
) -> None:
    """The strategy report: bidding cheat sheet, marriages, the barrel, house rules, players and method, as
    Markdown and one self-contained HTML page with plots; stored results of the same code are reused."""
    from contextlib import closing

    from analysis.report.build import build_report
    from sim.progress import OneBar

    _at_least("--threads", threads)
    _thread_count("--threads", threads)
    bar = OneBar("report (estimated seconds of work)", "s",
                 bar_format="{l_bar}{bar}| {n:.0f}/{total:.0f} est. s [{elapsed}<{remaining}]{postfix}")

    def log(text: str) -> None:
        from analysis.present.layout import fit

        bar.close()  # a line is never drawn into the bar
        typer.echo("\n".join(fit([text], _width(False))), err=True)

    try:
        with _backend(scheduler, cluster, workers) as backend, closing(bar):
            path = build_report(rules=rules, quick=quick, out=out, data=data, seed=seed, threads=threads or None,
                                command=["thousand", "report", *sys.argv[2:]], backend=backend, fresh=fresh,
                                progress=bar, log=log)
    except _user_errors() as exc:
        _refuse(exc)
    except KeyboardInterrupt:
        typer.echo("interrupted: the results finished so far are stored; run the same command again to resume",
                   err=True)
        _exit_now(130)
    typer.echo(f"report: {path}")


runs_app = typer.Typer(help="Stored runs: combine runs of the same rules and players.", no_args_is_help=True,
                       context_settings=HELP)
app.add_typer(runs_app, name="runs")


@runs_app.command("combine")
def runs_combine(
    sources: Annotated[list[Path], typer.Argument(help="two or more complete runs (thousand simulate --out ...)")],
    out: Annotated[Path, typer.Option(help="the new run's directory (must not exist yet, or be empty)")],
    wide: Wide = False,
) -> None:
    """Combine runs of the same rules, players, mode and chunk size and disjoint seeds into one run that
    every analysis reads; different rules or a repeated seed are refused."""
    from analysis.present.summary import run_summary_lines
    from analysis.summary import summarize_run
    from sim.runs import combine_runs

    try:
        spec = combine_runs(sources, out, command=sys.argv)
        summary = summarize_run(run=out)
    except _user_errors() as exc:
        _refuse(exc)
    typer.echo(f"combined {len(sources)} runs into {out}: {spec['sample_size']:,} {spec['mode']}, seeds "
               f"{', '.join(map(str, spec['seeds']))}")
    typer.echo("\n".join(run_summary_lines(summary, _width(wide))))


record_app = typer.Typer(help="Deal records (docs/records.md): check a record move by move through the engine, "
                         "print it in the text form or as JSON.", no_args_is_help=True, context_settings=HELP)
app.add_typer(record_app, name="record")


@record_app.command("check")
def record_check(
    file: Annotated[Path, typer.Argument(help="a record in the text form, or a .jsonl of JSON records")],
    rules: Annotated[str | None, typer.Option(help="check under this preset or rules file instead of the "
                                                   "record's own")] = None,
) -> None:
    """Replay a record through the engine: "legal; scores as recorded: ..." (exit 0), or the first wrong
    thing in one line, naming its line, the seat and the move (exit 1)."""
    from sim.records import RecordError, check_record, check_records

    try:
        if rules is None:
            verdicts = check_records(path=file)
        else:
            verdicts = (check_record(record=file, rules=rules),)
    except RecordError as exc:
        typer.echo(f"illegal: {exc}")
        raise typer.Exit(1) from None
    except _user_errors() as exc:
        _refuse(exc)
    if len(verdicts) == 1:
        typer.echo(verdicts[0].line)
    else:
        scored = sum(v.recorded for v in verdicts)
        typer.echo(f"legal: {len(verdicts):,} records; {scored:,} score as recorded, "
                   f"{len(verdicts) - scored:,} give no result or stop early")


@record_app.command("show")
def record_show(
    file: Annotated[Path, typer.Argument(help="a record in the text form, or a .jsonl of JSON records")],
    as_json: Annotated[bool, typer.Option("--json", help="print JSON, one record a line")] = False,
) -> None:
    """Print a record in the text form (records parted by a blank line), or as JSON."""
    from sim.records import show_record

    try:
        typer.echo(show_record(path=file, as_json=as_json), nl=False)
    except _user_errors() as exc:
        _refuse(exc)


@app.command("infer")
def infer_command(
    file: Annotated[Path, typer.Argument(help="a record (docs/records.md): a full one, or the seat's view")],
    seat: Annotated[str, typer.Option(help="whose view: first, second or third (dealer)")],
    at: Annotated[str, typer.Option(help="the decision: auction (the auction over), talon (the gifts given) or "
                                         "trick:N (before the seat plays in trick N)")],
    worlds: Annotated[int, typer.Option(help="candidate worlds to draw (more when their weights collapse)")] = 2000,
    seed: Annotated[int, typer.Option(help="the worlds' seed: the same seed, the same worlds")] = 0,
    temperature: Annotated[float | None, typer.Option(help="the calls' temperature in points (default: the one "
                                                           "fitted on the learned player's self-play; higher trusts "
                                                           "the calls less, inf weighs none)")] = None,
    card_temperature: Annotated[float | None, typer.Option(help="the temperature of the cards the others played, "
                                                                "in points (default: the fitted one; inf: the "
                                                                "calls alone)")] = None,
    gift_temperature: Annotated[float | None, typer.Option(help="the temperature of the declarer's gifts, in "
                                                                "points, weighed where the seat defends "
                                                                "(default: the fitted one; inf: none)")] = None,
    contract_temperature: Annotated[float | None, typer.Option(help="the temperature of the declarer's final "
                                                                    "contract or concession, in points (default: "
                                                                    "the fitted one; inf: none)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON: the card table, the worlds and their "
                                                         "weights")] = False,
    wide: Wide = False,
) -> None:
    """Where the hidden cards lie, as the seat's view and the others' bids and cards say (docs/inference.md):
    worlds consistent with everything certain, weighted by how likely the other seats' calls, the declarer's
    gifts and final contract, and the cards they played are under the learned player's bidding and card
    net; each hidden card's chance of lying left, right or in the talon."""
    from analysis.present.inference import inference_lines
    from analysis.present.json_text import to_json
    from sim.inference import infer

    try:
        result = infer(file, seat=seat, at=at, worlds=worlds, seed=seed, temperature=temperature,
                       card_temperature=card_temperature, gift_temperature=gift_temperature,
                       contract_temperature=contract_temperature)
    except _user_errors() as exc:
        _refuse(exc)
    typer.echo(to_json(result) if as_json else "\n".join(inference_lines(result, _width(wide))))


def _interrupted() -> None:
    typer.echo("interrupted", err=True)
    _exit_now(130)


def _exit_now(code: int) -> None:
    """End the process at once. Worker threads may still be inside a compiled kernel (it cannot be
    stopped) or in the compiler; an ordinary exit would finalise the interpreter under them. What
    was finished is already stored; the chunks in flight are played again on resume."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


# Typographic characters of our output, for a stream that cannot encode them (the suit symbols
# are sim.game.cards's), and Russian letters (the glosses of game terms) transliterated.
_ASCII_PUNCTUATION = {"–": "-", "—": "-", "−": "-", "→": "->", "×": "x", "…": "...", "·": ".", "±": "+-",
                      "§": "section ", "≥": ">=", "≤": "<=", "’": "'", "“": '"', "”": '"'}
_CYRILLIC = dict(zip("абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
                     ["a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "i", "k", "l", "m", "n", "o", "p", "r", "s",
                      "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "'", "e", "yu", "ya"], strict=True))
ASCII_FALLBACK = "thousand-ascii"


def _ascii_for(ch: str) -> str:
    import unicodedata

    from sim.game.cards import ascii_suits

    if (suit := ascii_suits(ch)) != ch:
        return suit
    if ch in _ASCII_PUNCTUATION:
        return _ASCII_PUNCTUATION[ch]
    if ch.lower() in _CYRILLIC:
        latin = _CYRILLIC[ch.lower()]
        return latin.capitalize() if ch != ch.lower() else latin
    return unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode() or "?"


def _encode_fallback(err: UnicodeError) -> tuple[str, int]:
    if not isinstance(err, UnicodeEncodeError):
        raise err
    return "".join(_ascii_for(ch) for ch in err.object[err.start:err.end]), err.end


def _plain_output() -> None:
    """On a stdout or stderr that cannot encode our characters (PYTHONIOENCODING=latin-1, an old
    terminal), write them in ASCII instead of failing: suit letters for the symbols (♥ → H)."""
    import codecs

    codecs.register_error(ASCII_FALLBACK, _encode_fallback)
    for stream in (sys.stdout, sys.stderr):
        try:
            "♠♣♦♥–→×…ра".encode(getattr(stream, "encoding", None) or "ascii")
        except (UnicodeEncodeError, LookupError):
            if hasattr(stream, "reconfigure"):
                stream.reconfigure(errors=ASCII_FALLBACK)


class OutputError(Exception):
    """The standard output cannot be written (a full device, a closed pipe): not a bug of ours, and
    not a user's input either, so it is kept apart from both."""


class _CheckedOutput:
    """``sys.stdout`` whose write and flush errors become OutputError, reported by ``main`` as one
    line instead of a traceback from whichever ``echo`` met them."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        try:
            return self._stream.write(text)
        except OSError as exc:
            raise OutputError(exc.errno, exc.strerror or str(exc)) from None

    def flush(self):
        try:
            self._stream.flush()
        except OSError as exc:
            raise OutputError(exc.errno, exc.strerror or str(exc)) from None

    def __getattr__(self, name):
        return getattr(self._stream, name)


def main() -> None:  # console-script entry point
    _plain_output()
    sys.stdout = _CheckedOutput(sys.stdout)
    try:
        try:
            app()
        except SystemExit as exc:
            if exc.code == 130:  # typer's answer to Ctrl-C: exit at once, without waiting for kernels in flight
                _interrupted()
            sys.stdout.flush()  # what is still buffered must reach the output, or fail here, as one line
            raise
    except KeyboardInterrupt:
        _interrupted()
    except OutputError as exc:
        import errno

        if exc.args[0] == errno.EPIPE:  # the reader stopped (| head): as any Unix tool, end quietly
            os._exit(141)
        sys.stderr.write(f"error: cannot write the output: {exc.args[1]}\n")
        sys.stderr.flush()
        os._exit(2)


if __name__ == "__main__":
    main()
