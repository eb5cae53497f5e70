"""The bid table: what a 7-card hand makes and what bidding it is worth, stored; ``tables_bids``.

``build_bid_tables`` plays N random deals (``analysis.deals.random_deals``). In each, seat 0 holds
the 7-card hand. Per deal it stores the hand's features (card points, aces, tens, marriages by
suit, longest suit, bidding cap), the talon and the opponents' cards, and two kinds of results
(``analysis.bids.parts.play_part`` plays them):

- **make-rates**: seat 0 takes the talon and plays a contract. The ``learned`` player (the
  default, every seat) plays each contract apart, as that contract (``contract_points``: its net
  plays the contract it is given), from the minimum bid up to the most points his 10 cards allow;
  ``heuristic`` (every seat the heuristic player), ``dd`` (the exact best-discard double-dummy
  value) and, on the first ``pimc_deals`` deals, ``pimc`` (every seat pimc) play once for points.
  A contract b is made when the declarer's points reach b (``*_made``, one boolean per level).
- **auction lines**: the whole deal played by the learned player in all three seats, once per
  bidding line of seat 0 (``auction_lines``: pass at every turn, or "bid up to b" for every b
  from the minimum bid to the hand's bidding cap), seat 0 as first, second and third hand. Every
  seat's score change, the declarer, the winning bid, the final contract (raised after the talon
  as the learned declarer does), made and conceded are stored per line.

The table is one Parquet file written atomically with the rules, seed, sizes, version and code
fingerprint (of ``bids.table``: this module and every analysis module it imports) as metadata,
and beside it its manifest ``bids.json`` (its SHA-256, written after it). It is played in parts
stored as they finish under ``.bids-parts`` (``analysis.bids.parts``, with the same metadata), so
that Ctrl-C loses at most the parts in flight; the parts are kept once the table is made.

A stored table is reused only when its metadata equals the one asked for (``analysis.stored``: the
same code, rules, seed and sizes) and its bytes match its manifest. A table or parts of other code
or arguments are refused with one line (``StaleResultError``) unless ``fresh``; a damaged table
(its SHA-256 not the recorded one, or unreadable) is rebuilt from its verified parts, the damaged
parts played again: a bit flip never changes a printed number. ``open_bid_table`` is the one door
through which another study (the marriages' worth) reads a stored table, refused when it is not
this code's.

``tables_bids`` builds (or reuses) the table and summarises it
(``analysis.bids.classes.summarize_bid_table`` → ``analysis.bids.results.BidTable``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import polars as pl
import pyarrow.parquet as pq

from analysis.analysis_dir import read_table_metadata
from analysis.bids.classes import summarize_bid_table
from analysis.bids.hand import check_three_player_deal
from analysis.bids.parts import (
    IDENTITY,
    LINE_FIELDS,
    LINE_PLAYER,
    PARTS_DIR,
    SEAT_NAMES,
    TABLE_PART,
    levels_for,
    part_done,
    parts_dir,
    parts_refusal,
    play_part,
    store_part,
)
from analysis.bids.results import BidTable
from analysis.deals import random_deals
from analysis.stored import FINGERPRINT, StaleResultError, holds_out, manifest_problem, refusal, write_manifest
from sim import InputError, __version__, arguments
from sim.engine.playouts import ADVICE_WORLDS
from sim.fingerprint import code_fingerprint, describe_difference
from sim.game.rules import HouseRules, load_rules
from sim.players.params import MAX_PIMC_WORLDS
from sim.runs import check_output_dir, write_parquet_atomic

if TYPE_CHECKING:
    from sim.progress import Progress
    from sim.runs.backend import Backend

__all__ = [
    "TABLE_FILE", "MAX_TABLE_DEALS", "LINE_PLAYER", "build_bid_tables", "read_metadata", "TABLE_COLUMNS",
    "open_bid_table", "tables_bids",
]

TABLE_FILE = "bids.parquet"
# The table holds a few hundred bytes a deal (the auction lines most of them) and the play a few
# arrays of it: a million deals stay within a few hundred MiB.
MAX_TABLE_DEALS = 1_000_000


@holds_out()
def build_bid_tables(*, deals: int, rules: str | HouseRules | None = "classic", seed: int = 0,
                     out: Path = Path("out/tables"), pimc_deals: int = 100, worlds: int = ADVICE_WORLDS,
                     threads: int | None = None, progress: Progress | None = None,
                     backend: Backend | None = None, fresh: bool = False) -> Path:
    """Play the deals and store the table; returns its path. The deals are played in parts of
    TABLE_PART deals, each stored as it is finished under ``out/.bids-parts``: an interrupted
    build resumes with the parts already played, and gives the table played in one go (a part's
    random streams depend on its place in the table, never on the threads). A stored table (or
    parts) of other code or arguments is refused (``StaleResultError``) unless ``fresh``, which
    replaces it; the old table stays in place until the new one is complete.

    ``progress(stage, done, total)`` counts parts: ``total`` the table's parts, ``done`` those
    stored (played now or kept from an earlier build). Its stage says in a sentence what is done:
    the stored table reused (done = total, nothing played), why a stored table is rebuilt or
    replaced, then the parts played (how many were already played), reported again as each part
    is stored."""
    rec = load_rules(rules)
    check_three_player_deal(rec)
    if not 1 <= deals <= MAX_TABLE_DEALS:
        raise InputError(f"--deals must be from 1 to {MAX_TABLE_DEALS:,}, not {deals}")
    if pimc_deals < 0:
        raise InputError(f"--pimc-deals must be 0 or more, not {pimc_deals}")
    if not 1 <= worlds <= MAX_PIMC_WORLDS:
        raise InputError(f"--worlds must be from 1 to {MAX_PIMC_WORLDS:,}, not {worlds}")
    if seed < 0:
        raise InputError(f"--seed must be 0 or more, not {seed}")
    out = Path(out)
    check_output_dir(out)
    pimc_deals = min(pimc_deals, deals)
    levels = levels_for(rec)
    meta = {
        "thousand_version": __version__, FINGERPRINT: code_fingerprint("bids.table"), "table": "bids",
        "sample_size": deals, "seed": seed, "pimc_deals": pimc_deals, "worlds": worlds, "levels": levels,
        "rules": rec.to_dict(), "part_size": TABLE_PART,
        "declarer": "seat 0 of each random deal takes the talon and plays each contract: the learned player (every "
                    "seat) each contract apart, up to the most points his 10 cards allow; heuristic, double dummy "
                    "and pimc (every seat; pimc on the first pimc_deals deals) once for points",
        "lines": f"the whole deal played by the {LINE_PLAYER} player in every seat from a zero score, once per "
                 "bidding line of seat 0 (pass at every turn, then bid up to each contract from the minimum bid to "
                 "the hand's bidding cap), seat 0 as first, second and third hand",
    }
    path = out / TABLE_FILE
    say = progress or (lambda _stage, _done, _total: None)
    n_parts = -(-deals // TABLE_PART)
    damage = _stored_table_problem(path, meta, out, fresh)
    if damage is None:
        say(f"{path} holds this very table ({deals:,} deals, seed {seed}, code {meta[FINGERPRINT]}; its SHA-256 "
            "verified): reused, nothing played", n_parts, n_parts)
        return path
    parts = parts_dir(out, meta, fresh)
    todo = [k for k in range(n_parts) if not part_done(parts, k)]
    done = [n_parts - len(todo)]
    if damage:
        say(damage, done[0], n_parts)
    stage = (f"{deals:,} deals in {n_parts} parts of {TABLE_PART:,} ({done[0]} already played): the learned "
             f"player's contracts and auction lines (three seats), double dummy and heuristic play, pimc on the "
             f"first {pimc_deals:,} ({worlds} worlds a decision)")
    say(stage, done[0], n_parts)
    d = random_deals(deals, seed) if todo else None
    items = [(d[k * TABLE_PART:(k + 1) * TABLE_PART], k * TABLE_PART, rec, seed, pimc_deals, worlds, threads, levels)
             for k in todo]

    def stored(k: int, frame: pl.DataFrame) -> None:
        store_part(parts, k, frame)
        done[0] += 1
        say(stage, done[0], n_parts)

    if backend is not None and backend.remote:
        # Each part a task of the cluster; its rows come back and are stored here.
        backend.map(play_part, items, lambda item, frame: stored(item[1] // TABLE_PART, frame))
    else:
        for item in items:
            stored(item[1] // TABLE_PART, play_part(*item))
    df = pl.concat([pl.read_parquet(parts / f"part-{k:05d}.parquet") for k in range(n_parts)])
    write_parquet_atomic(df, path, {k: json.dumps(v) for k, v in meta.items()})
    write_manifest(path)  # after the table: a table without its manifest is rebuilt from the parts
    return path


_REPLACE = "give --fresh to replace it, or choose another --out"


def _stored_table_problem(path: Path, meta: dict, out: Path, fresh: bool) -> str | None:
    """None when ``path`` is this very table, intact (reuse it); otherwise why it is built, in
    words ("" when none is stored): damaged (rebuilt from the parts kept with it) or replaced
    (``fresh``). A table of other code or arguments, or one that cannot be read and has no parts of
    this table to rebuild it from, is refused unless ``fresh``."""
    if not path.exists():
        return ""
    try:
        stored = read_metadata(path)
    except (OSError, ValueError):
        stored = None
    if stored is None:
        if not fresh and (not (out / PARTS_DIR).exists() or parts_refusal(out, meta) is not None):
            raise StaleResultError(f"--out {out}: {path} cannot be read (damaged, or not a bid table) and no parts of "
                                   f"this table are kept to rebuild it from; {_REPLACE}")
        return f"{path} cannot be read (damaged): rebuilt from the parts kept with it"
    line = refusal(f"the bid table in --out {out} ({path})", stored, json.loads(json.dumps(meta)), IDENTITY, _REPLACE)
    if line:
        if not fresh:
            raise StaleResultError(line)
        return f"{path} was made by other code or with other arguments: replaced (--fresh)"
    problem = manifest_problem(path)
    return None if problem is None else f"{path}: {problem}; rebuilt from the parts kept with it"


def read_metadata(path: Path) -> dict:
    """The metadata stored with a bid table (or one of its parts), each value decoded from JSON."""
    return read_table_metadata(path)


# The columns a reader of a bid table needs (``analysis.marriages.worth.marriage_worth``, the summaries).
TABLE_COLUMNS = ("deal", "hand", "talon", "aces", "tens", "marriages", "marriage_value", "longest_suit", "bid_cap",
                 "dd_points", "heuristic_points", "pimc_points", "learned_points", "learned_made",
                 *(f"{seat}_{f}" for seat in SEAT_NAMES for f in LINE_FIELDS))


def open_bid_table(path: Path, *, rules: HouseRules | None = None, rules_name: str = "", option: str = "--bids"
                   ) -> dict:
    """The metadata of the stored bid table ``path`` (given by the user as ``option``), refusing
    with one line a file that is not a bid table, one made by other code, one whose bytes are not
    those its manifest records, and, with ``rules`` (given as ``--rules rules_name``), one of other
    rules, naming both."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"{option} {path}: no such bid table (make one with thousand tables bids)")
    try:
        meta = read_metadata(path)
        columns = set(pq.read_schema(path).names)
    except (OSError, ValueError):
        meta, columns = {}, set()
    if meta.get("table") != "bids" or not set(TABLE_COLUMNS) <= columns or not isinstance(meta.get("rules"), dict):
        raise StaleResultError(f"{option} {path} is not a bid table (thousand tables bids makes one)")
    current = code_fingerprint("bids.table")
    if meta.get(FINGERPRINT) != current:
        made = describe_difference("the bid table", meta.get(FINGERPRINT), current)
        raise StaleResultError(f"{option} {path}: {made}; make it again with this code (the thousand tables bids "
                               "command that made it, with --fresh)")
    problem = manifest_problem(path)
    if problem is not None:
        raise StaleResultError(f"{option} {path}: {problem}; rerun the thousand tables bids command that made it to "
                               "rebuild it")
    if rules is not None:
        stored = HouseRules.from_dict(meta["rules"], source=f"the bid table {path}")
        changed = list(stored.changes_from(rules))
        if changed:
            shown = "; ".join(f"{k} {getattr(stored, k)!r} in the table, {getattr(rules, k)!r} in {rules_name}"
                              for k in changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
            raise StaleResultError(f"{option} {path} is a bid table of other rules than --rules {rules_name} "
                                   f"({shown}); make one with thousand tables bids --rules {rules_name}")
    return meta


def tables_bids(*, deals: int, rules: str | HouseRules = "classic", seed: int = 0, out: Path = Path("out/tables"),
                pimc_deals: int = 100, worlds: int | None = None, threads: int | None = None,
                progress: Progress | None = None, min_n: int = 30, objective: str = "race",
                backend: Backend | None = None, fresh: bool = False) -> BidTable:
    """What ``thousand tables bids`` does: build the table (or reuse the stored one made with the
    same arguments by the same code; ``fresh``: replace one of other code or arguments), then
    summarise it (``worlds`` None is the advisor's ADVICE_WORLDS). ``rules``: a preset, a TOML file
    or a ``HouseRules`` (validated as a file's are). ``progress`` follows the parts played
    (``build_bid_tables``). Arguments of the wrong type are refused (``sim.arguments``) before
    anything is written."""
    deals, seed = arguments.integer("deals", deals), arguments.integer("seed", seed)
    out, pimc_deals = arguments.path("out", out), arguments.integer("pimc_deals", pimc_deals)
    worlds = arguments.integer("worlds", worlds, optional=True)
    threads = arguments.integer("threads", threads, optional=True)
    progress, min_n = arguments.function("progress", progress), arguments.integer("min_n", min_n)
    objective, fresh = arguments.text("objective", objective), arguments.flag("fresh", fresh)
    worlds = ADVICE_WORLDS if worlds is None else worlds
    if min_n < 1:
        raise InputError(f"--min-n must be 1 or more, not {min_n}")
    if objective not in ("race", "own"):
        raise InputError(f"--objective must be race or own, not {objective!r}")
    path = build_bid_tables(deals=deals, rules=rules, seed=seed, out=out, pimc_deals=pimc_deals, worlds=worlds,
                            threads=threads, progress=progress, backend=backend, fresh=fresh)
    return summarize_bid_table(path, min_n=min_n, objective=objective)
