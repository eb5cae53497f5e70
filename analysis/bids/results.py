"""What ``thousand tables bids`` finds in a stored bid table: the result types.

``BidTable`` holds it all (``analysis.bids.classes.summarize_bid_table`` makes it): the make-rate
curves of every hand class (``ClassCurve``, each declarer's ``MakeRate`` at every contract), the
learned player checked against pimc on the same deals (``ComparisonRow``), the cheat sheet
(``CheatRow``: per hand class the ``RiskBid`` risk information and each seat's ``SeatAdvice``)
and the declarers' make-rates for the plot (``MethodRate``). Each has ``to_dict()``; ``BidTable``
has ``to_polars(table=...)`` for each of ``BID_TABLES``.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import polars as pl

from analysis.bids.parts import LINE_PLAYER, SEAT_NAMES
from analysis.bids.value import LineValue
from analysis.stats import ESTIMATE_COLUMNS, Estimate, estimate_field, stored_row
from sim.game.rules import HouseRules

__all__ = [
    "METHODS", "PLAYERS", "PLAYERS_SHORT", "CHEAT_RISKS", "MakeRate", "ClassCurve", "ComparisonRow", "RiskBid",
    "SeatAdvice", "CheatRow", "MethodRate", "METHOD_GROUPS", "BID_TABLES", "BidTable",
]

# The declarers, the default first: each plays all three seats.
METHODS = ("learned", "heuristic", "dd", "pimc")
# Who produced each method's numbers, in words (every printed number names them).
PLAYERS = {"learned": "learned player, all three seats", "heuristic": "heuristic player, all three seats",
           "dd": "double dummy: every seat sees every card", "pimc": "pimc, all three seats"}
PLAYERS_SHORT = {"learned": "learned×3", "heuristic": "heuristic×3", "dd": "double dummy", "pimc": "pimc×3"}
CHEAT_RISKS = (0.3, 0.5)


@dataclasses.dataclass(frozen=True)
class MakeRate:
    """How often one declarer made one contract in one hand class.

    - ``contract``: the contract (points);
    - ``k``: the deals on which the declarer's points reached it, of ``n`` deals;
    - ``make``: ``k / n`` with its Wilson 95% interval (``Estimate.share``: NaN when ``n`` is 0;
      the deals of a class are independent), stored as ``p``, ``ci_low``, ``ci_high``.
    """

    contract: int
    k: int
    n: int
    make: Estimate = estimate_field("p", "ci_low", "ci_high")


@dataclasses.dataclass(frozen=True)
class ClassCurve:
    """The make-rate curves of one hand class (e.g. "hearts marriage, 2 aces").

    - ``hand_class``: its name; ``grouping``: the GROUPINGS it belongs to;
    - ``n``: the deals of the class; ``n_pimc``: those pimc played too;
    - ``bidding_cap``: the lowest bidding cap among its hands (what the rules let them bid);
    - ``learned``, ``heuristic``, ``dd``, ``pimc``: each declarer's ``MakeRate`` for every contract
      of the table, lowest first (pimc's over the deals it played); PLAYERS says who played.
    """

    hand_class: str
    grouping: str
    n: int
    n_pimc: int
    bidding_cap: int
    learned: tuple[MakeRate, ...]
    heuristic: tuple[MakeRate, ...]
    dd: tuple[MakeRate, ...]
    pimc: tuple[MakeRate, ...]

    def rates(self, method: str) -> tuple[MakeRate, ...]:
        """The make-rates of ``method`` (one of METHODS)."""
        if method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
        return getattr(self, method)

    def to_dict(self) -> dict:
        return {"hand_class": self.hand_class, "grouping": self.grouping, "n": self.n, "n_pimc": self.n_pimc,
                "bidding_cap": self.bidding_cap,
                "methods": {m: {"players": PLAYERS[m], "rates": [stored_row(r) for r in self.rates(m)]}
                            for m in METHODS}}


@dataclasses.dataclass(frozen=True)
class ComparisonRow:
    """The declarers on the same deals (those pimc played) at one contract, or pooled over a range
    of contracts: the learned player's make-rate checked against pimc's.

    - ``contract``: the contract ("100") or the range pooled ("100-200": every contract of the
      table from the minimum bid to POOLED_TOP; the rate is the mean over deals of the share of
      those contracts made);
    - ``n``: the deals;
    - ``learned``, ``heuristic``, ``dd``, ``pimc``: each one's make-rate with its 95% interval:
      Wilson's for a contract; for the range a normal interval clustered by deal (a deal's
      contracts are not independent trials);
    - ``diff``: learned minus pimc with its interval, paired on the same deals (clustered by deal);
    - ``p_holm``: its two-sided p-value, Holm-corrected over the rows; ``differ``: below 0.05.

    Stored (``stored_row``) as ``learned``, ``learned_ci_low``, ``learned_ci_high``, ...; its
    ``--json`` (``to_dict``) gives each as a [value, low, high] list.
    """

    contract: str
    n: int
    learned: Estimate = estimate_field("learned", "learned_ci_low", "learned_ci_high")
    heuristic: Estimate = estimate_field("heuristic", "heuristic_ci_low", "heuristic_ci_high")
    dd: Estimate = estimate_field("dd", "dd_ci_low", "dd_ci_high")
    pimc: Estimate = estimate_field("pimc", "pimc_ci_low", "pimc_ci_high")
    diff: Estimate = estimate_field("diff", "diff_ci_low", "diff_ci_high")
    p_holm: float
    differ: bool

    def to_dict(self) -> dict:
        def triple(e: Estimate) -> tuple[float, float, float]:
            return (e.value, e.low, e.high)

        return {"contract": self.contract, "n": self.n, "learned": triple(self.learned), "pimc": triple(self.pimc),
                "heuristic": triple(self.heuristic), "dd": triple(self.dd), "diff": triple(self.diff),
                "p_holm": self.p_holm, "differ": self.differ}


@dataclasses.dataclass(frozen=True)
class RiskBid:
    """Risk information: the highest contract a hand class's learned declarer makes at least
    ``1 - risk`` of the time (playing it as that contract), and the range the 95% intervals allow.
    Not a recommendation: what a bid is worth is in the seats' ``SeatAdvice``.

    - ``risk``: the failure chance accepted;
    - ``bid``: an ``Estimate`` of contracts: its ``value`` the highest contract whose make-rate is
      at least ``1 - risk``; ``low`` the highest whose whole interval lies at or above ``1 - risk``;
      ``high`` the highest whose interval reaches ``1 - risk``; each a contract (an int), NaN when
      no contract qualifies (``level`` gives it as None).
    """

    risk: float
    bid: Estimate

    @staticmethod
    def level(x: float) -> int | None:
        """One of ``bid``'s contracts as the stored table and ``--json`` spell it: None for none."""
        return None if x != x else x


@dataclasses.dataclass(frozen=True)
class SeatAdvice:
    """What to bid with a hand class in one seat: the auction lines of seat 0 on the class's deals
    (``analysis.bids.value``), the learned player in every seat, from a zero score.

    - ``seat``: "first", "second" or "third" hand; ``forced``: the seat holding the forced bid
      (first hand under forced_first_bid, the dealer, third hand, under forced_bid_seat = dealer),
      whose pass line is the forced minimum bid, then passing;
    - ``n``: the deals (each one row: no deal counts twice);
    - ``bid``: the recommendation X of the settled rule (``analysis.bids.value.settled``): the
      lowest level of the plateau (the lines not shown to lose more than the margin against the best line, judged on the
      class's deals, clustered by deal) that beats passing with its 95% interval above 0; None:
      pass (passing is in the plateau and no line beats it);
    - ``gain``: X's line against always passing over all the class's deals, its mean difference
      with the 95% interval clustered by deal: the expected gain a deal from following the advice
      rather than passing (NaN when passing; stored as ``gain``, ``gain_low``, ``gain_high``);
      ``reached``: the deals in which the auction reached X (X's line differs from the line one
      step lower there);
    - ``beyond``: the first tested level above X (the lowest tested level when passing; None: none
      is tested above X); ``beyond_gain`` its line's gain over passing, at most X's (at most 0);
      ``untested_from``: the lowest level above X reached too seldom to be tested (``tested_level``) when
      none above X is tested;
    - ``passing``: passing's mean result and interval (stored as ``pass_value``, ``pass_low``,
      ``pass_high``);
    - ``plateau_low``, ``plateau_high``: the plateau's lowest and highest bidding levels (None when
      only passing is in it), ``plateau_pass``: passing is in it, ``plateau_settled``: every line
      is decided (``analysis.bids.value.Plateau.settled``); ``plateau_beyond``: the first tested
      level above the plateau and ``plateau_loss`` its line's gain minus the best line's (NaN: none);
      ``plateau_open``: the plateau reaches the highest tested level (no tested level above it
      loses; higher levels, if any, are untested: ``analysis.bids.value.Plateau.open_top``);
    - ``lines``: every line's ``LineValue``, the pass line first, then bid up to each contract.
    Results are under the BidTable's ``objective``.
    """

    seat: str
    forced: bool
    n: int
    bid: int | None
    gain: Estimate = estimate_field("gain", "gain_low", "gain_high")
    reached: int
    beyond: int | None
    beyond_gain: float
    untested_from: int | None
    passing: Estimate = estimate_field("pass_value", "pass_low", "pass_high")
    plateau_low: int | None
    plateau_high: int | None
    plateau_pass: bool
    plateau_settled: bool
    plateau_beyond: int | None
    plateau_loss: float
    plateau_open: bool
    lines: tuple[LineValue, ...]

    def to_dict(self) -> dict:
        """The seat as ``--json`` gives it: its stored columns (``stored_row``), then its lines."""
        return {**stored_row(self), "lines": [v.to_dict() for v in self.lines]}


@dataclasses.dataclass(frozen=True)
class CheatRow:
    """One hand class's line of the cheat sheet (``cheat_sheet``).

    - ``hand_class``, ``grouping`` (GROUPINGS), ``n`` (its deals), ``bidding_cap`` (the class's
      lowest cap: no line goes above it);
    - ``risks``: a ``RiskBid`` for each risk (CHEAT_RISKS), from the learned make-rates: risk
      information only;
    - ``seats``: the ``SeatAdvice`` of first, second and third hand, in that order.
    """

    hand_class: str
    grouping: str
    n: int
    bidding_cap: int
    risks: tuple[RiskBid, ...]
    seats: tuple[SeatAdvice, ...]

    def at_risk(self, risk: float) -> RiskBid:
        """The ``RiskBid`` of ``risk`` (one of the risks the sheet was made for)."""
        for b in self.risks:
            if b.risk == risk:
                return b
        raise ValueError(f"this cheat sheet was made for the risks {[b.risk for b in self.risks]}, not {risk}")

    def seat(self, name: str) -> SeatAdvice:
        """The advice of ``name`` hand (one of SEAT_NAMES)."""
        for s in self.seats:
            if s.seat == name:
                return s
        raise ValueError(f"seat must be one of {', '.join(SEAT_NAMES)}, not {name!r}")

    def to_dict(self) -> dict:
        row: dict = {"hand_class": self.hand_class, "grouping": self.grouping, "n": self.n,
                     "bidding_cap": self.bidding_cap}
        for b in self.risks:
            key = f"bid_at_risk_{b.risk:g}"
            row[key], row[key + "_low"], row[key + "_high"] = (b.level(x) for x in (b.bid.value, b.bid.low, b.bid.high))
        row["seats"] = [s.to_dict() for s in self.seats]
        return row


@dataclasses.dataclass(frozen=True)
class MethodRate:
    """A declarer's make-rate on the deals pimc played, in one of two groups of hands.

    - ``group``: "hands without a marriage" or "hands with a marriage" (in the 7 cards);
    - ``method``: the declarer (one of METHODS);
    - ``contract``, ``k`` of ``n`` deals (``n``: the group's deals), ``make`` (NaN when ``n`` is 0;
      stored as ``p``, ``ci_low``, ``ci_high``): as in ``MakeRate``.
    """

    group: str
    method: str
    contract: int
    k: int
    n: int
    make: Estimate = estimate_field("p", "ci_low", "ci_high")


METHOD_GROUPS = ("hands without a marriage", "hands with a marriage")
BID_TABLES = ("classes", "comparison", "cheat_sheet", "lines", "methods", "deals")


@dataclasses.dataclass(frozen=True)
class BidTable:
    """What ``thousand tables bids`` finds in a stored bid table (``tables_bids``,
    ``summarize_bid_table``).

    - ``table_file``: the stored table (one row a deal: ``bids.parquet``);
    - ``provenance``: the metadata stored with it, as stored (version, code fingerprint, rules,
      seed, sizes, levels, the declarer and the auction lines);
    - ``rules``: the house rules the deals were played under;
    - ``deals``, ``seed``, ``pimc_deals`` (the first deals, also played by pimc), ``worlds`` (a
      pimc decision's), ``levels`` (the contracts, lowest first): how the table was made;
    - ``min_n``: the deals a hand class needs to appear in the summary and the cheat sheet;
    - ``objective``: the result the auction lines are valued by (``analysis.bids.value.OBJECTIVES``:
      race or own);
    - ``classes``: the make-rate curves of every hand class of MAIN_GROUPING (``ClassCurve``), in a
      player's order (marriage, then aces);
    - ``comparison``: the learned player checked against pimc (and heuristic and dd beside) on the
      deals pimc played, at COMPARE_LEVELS and pooled (``ComparisonRow``; empty when pimc played none);
    - ``cheat_sheet``: the cheat sheet (``CheatRow``), each class of MAIN_GROUPING of at least
      ``min_n`` deals; ``detail``: the same for the refined GROUPINGS (tens, the longest suit);
    - ``method_rates``: the declarers' make-rates up to PLOT_MAX_LEVEL on the deals pimc played,
      without and with a marriage (``MethodRate``; empty when pimc played none), for the plot;
    - ``plot_file``: where the make-rate curves are drawn (beside the table);
      ``methods_plot_file``: where the declarers compared are (None when pimc played no deal).

    ``to_dict()`` is what ``--json`` prints (the plots' data and paths are not in it).
    ``to_polars(table=...)`` gives one table as a DataFrame: "classes" (the default: one row a
    class, method and contract), "comparison", "cheat_sheet" (one row a class and seat, the
    refinements included), "lines" (one row a class, seat and line), "methods" (``method_rates``)
    or "deals" (the stored table itself, read from ``table_file``).
    """

    table_file: Path
    provenance: dict
    rules: HouseRules
    deals: int
    seed: int
    pimc_deals: int
    worlds: int
    levels: tuple[int, ...]
    min_n: int
    objective: str
    classes: tuple[ClassCurve, ...]
    comparison: tuple[ComparisonRow, ...]
    cheat_sheet: tuple[CheatRow, ...]
    detail: tuple[CheatRow, ...]
    method_rates: tuple[MethodRate, ...]
    plot_file: Path
    methods_plot_file: Path | None

    def curve(self, hand_class: str) -> ClassCurve | None:
        """The curves of ``hand_class`` (None: no deal of it)."""
        return next((c for c in self.classes if c.hand_class == hand_class), None)

    @property
    def plot_files(self) -> tuple[Path, ...]:
        """The plots of this table: the curves, and the declarers compared when pimc played."""
        return (self.plot_file,) + ((self.methods_plot_file,) if self.methods_plot_file is not None else ())

    def to_dict(self) -> dict:
        return {**self.provenance, "table_file": str(self.table_file), "min_n": self.min_n,
                "objective": self.objective, "line_players": PLAYERS[LINE_PLAYER],
                "classes": [c.to_dict() for c in self.classes],
                "comparison": [r.to_dict() for r in self.comparison],
                "cheat_sheet": [r.to_dict() for r in self.cheat_sheet],
                "detail": [r.to_dict() for r in self.detail]}

    def to_polars(self, table: str = "classes") -> pl.DataFrame:
        """One of BID_TABLES as a DataFrame (see the class's docstring)."""
        if table == "classes":
            schema = {"hand_class": pl.String, "n_class": pl.Int64, "n_pimc": pl.Int64, "bidding_cap": pl.Int64,
                      "method": pl.String, "players": pl.String, "contract": pl.Int64, "k": pl.Int64, "n": pl.Int64,
                      "p": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64}
            rows = [(c.hand_class, c.n, c.n_pimc, c.bidding_cap, m, PLAYERS[m], *stored_row(r).values())
                    for c in self.classes for m in METHODS for r in c.rates(m)]
            return pl.DataFrame(rows, schema=schema, orient="row")
        if table == "comparison":
            schema = {"contract": pl.String, "n": pl.Int64}
            for m in METHODS:
                schema.update({m: pl.Float64, f"{m}_ci_low": pl.Float64, f"{m}_ci_high": pl.Float64})
            schema.update({"diff": pl.Float64, "diff_ci_low": pl.Float64, "diff_ci_high": pl.Float64,
                           "p_holm": pl.Float64, "differ": pl.Boolean})
            rows = [tuple(stored_row(r).values()) for r in self.comparison]
            return pl.DataFrame(rows, schema=schema, orient="row")
        if table == "cheat_sheet":
            schema = {"grouping": pl.String, "hand_class": pl.String, "n": pl.Int64, "bidding_cap": pl.Int64}
            for risk in CHEAT_RISKS:
                key = f"bid_at_risk_{risk:g}"
                schema.update({key: pl.Int64, key + "_low": pl.Int64, key + "_high": pl.Int64})
            columns = [c for f in dataclasses.fields(SeatAdvice) if f.name != "lines"
                       for c in f.metadata.get(ESTIMATE_COLUMNS, (f.name,))]
            kinds = {"seat": pl.String, "forced": pl.Boolean, "n": pl.Int64, "bid": pl.Int64, "best": pl.Int64,
                     "plateau_low": pl.Int64, "plateau_high": pl.Int64, "plateau_pass": pl.Boolean,
                     "plateau_settled": pl.Boolean, "plateau_beyond": pl.Int64, "plateau_open": pl.Boolean}
            schema.update({("n_seat" if c == "n" else c): kinds.get(c, pl.Float64) for c in columns})
            schema.update({"objective": pl.String, "players": pl.String})
            rows = [(r.grouping, r.hand_class, r.n, r.bidding_cap,
                     *(b.level(x) for risk in CHEAT_RISKS for b in (r.at_risk(risk),)
                       for x in (b.bid.value, b.bid.low, b.bid.high)),
                     *(row[c] for c in columns), self.objective, PLAYERS[LINE_PLAYER])
                    for r in self.cheat_sheet + self.detail for s in r.seats for row in (stored_row(s),)]
            return pl.DataFrame(rows, schema=schema, orient="row")
        if table == "lines":
            schema = {"grouping": pl.String, "hand_class": pl.String, "seat": pl.String, "limit": pl.Int64,
                      "n": pl.Int64, "mean": pl.Float64, "low": pl.Float64, "high": pl.Float64, "gain": pl.Float64,
                      "gain_low": pl.Float64, "gain_high": pl.Float64, "declares": pl.Float64, "made": pl.Float64,
                      "conceded": pl.Float64, "contract": pl.Float64, "raised": pl.Float64}
            columns = list(schema)[3:]  # a LineValue's stored columns (its shares' values only)
            rows = [(r.grouping, r.hand_class, s.seat, *(row[c] for c in columns))
                    for r in self.cheat_sheet + self.detail for s in r.seats for v in s.lines
                    for row in (stored_row(v),)]
            return pl.DataFrame(rows, schema=schema, orient="row")
        if table == "methods":
            schema = {"group": pl.String, "method": pl.String, "contract": pl.Int64, "k": pl.Int64, "n": pl.Int64,
                      "p": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64}
            return pl.DataFrame([tuple(stored_row(r).values()) for r in self.method_rates], schema=schema,
                                orient="row")
        if table == "deals":
            return pl.read_parquet(self.table_file)
        raise ValueError(f"table must be one of {', '.join(BID_TABLES)}, not {table!r}")
