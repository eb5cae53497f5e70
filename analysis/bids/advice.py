"""What the bid advisor answers (``analysis.bids.advisor.advise``): the frozen ``Advice`` and
its parts. The decision: ``lines`` (each bidding line's ``analysis.bids.value.LineValue``) and
the ``Recommendation`` drawn from them. Information: the make-rate table (``ContractRow``, each
method's ``MethodEstimate``), each method's ``RiskLevels`` and the talon's exact chances
(``analysis.bids.hand.TalonChances``). ``Advice.to_polars()`` gives the lines (or the contract
levels) as a table and ``to_dict()`` its JSON (``analysis.present`` prints it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from analysis.bids.hand import TalonChances
from analysis.bids.value import OBJECTIVE_WORDS, SHARES, LineValue, Plateau
from analysis.stats import Estimate, estimate_field, stored_row
from sim.engine.playouts import PASS_LINE, Situation
from sim.game.rules import HouseRules

if TYPE_CHECKING:
    import polars as pl

__all__ = ["METHOD_PLAYERS", "MethodEstimate", "ContractRow", "RiskLevels", "LineRow", "Recommendation", "Advice",
           "line_players_words", "ADVICE_LINE_COLUMNS", "LEVEL_COLUMNS"]

# How the players of each method are described wherever its numbers are printed.
METHOD_PLAYERS = {
    "learned": "learned player, all seats",
    "dd": "double dummy: every seat sees every card",
    "heuristic": "heuristic player, all seats",
    "pimc": "pimc player, all seats",
}


@dataclass(frozen=True)
class MethodEstimate:
    """One method's estimate at one contract, over the ``n`` sampled deals it played, the declarer
    declaring that contract and playing it from the talon on (information, not the decision).

    - ``method``: learned, dd, heuristic or pimc (``METHOD_PLAYERS`` says who plays);
    - ``made``: the deals in which the declarer made the contract;
    - ``n``: the deals it played (pimc: the first ``pimc_samples`` of them);
    - ``make``: made / n with its 95% Wilson interval (widened to hold the share where rounding at
      0 or 1 leaves it out), spelled ``p_make``, ``ci_low``, ``ci_high`` in rows and JSON;
    - ``ev``: the expected own score of declaring the contract, p·gain − (1 − p)·loss (made: what
      it scores in the situation; failed: minus what it costs), with its 95% normal interval (the
      point itself when n is 1), spelled ``ev_declare``, ``ev_ci_low``, ``ev_ci_high``.
    """

    method: str
    made: int
    n: int
    make: Estimate = estimate_field("p_make", "ci_low", "ci_high")
    ev: Estimate = estimate_field("ev_declare", "ev_ci_low", "ev_ci_high")

    def to_dict(self) -> dict:
        """The estimate as a JSON row's ``by_method`` entry (without the method's name, its key)."""
        row = stored_row(self)
        del row["method"]
        return row


@dataclass(frozen=True)
class ContractRow:
    """One contract level of the make-rate table.

    - ``contract``: the contract;
    - ``biddable``: whether the hand can bid it (up to its bidding cap, or the forced bid);
      a contract above the cap can only be the final contract a talon's marriages let the
      declarer raise to;
    - ``estimates``: each method's estimate, in the order the methods were asked for.
    """

    contract: int
    biddable: bool
    estimates: tuple[MethodEstimate, ...]

    def estimate(self, method: str) -> MethodEstimate:
        """The estimate of ``method`` (KeyError for a method not asked for)."""
        for e in self.estimates:
            if e.method == method:
                return e
        raise KeyError(method)

    def to_dict(self) -> dict:
        """The row as ``--json`` gives it: the first method's chance and expected score beside every
        method's estimate."""
        first = self.estimates[0]
        return {"contract": self.contract, "biddable": self.biddable,
                **first.make.columns("p_make", "ci_low", "ci_high"), "ev_declare": first.ev.value,
                "method": first.method,
                "by_method": {e.method: e.to_dict() for e in self.estimates}}


@dataclass(frozen=True)
class RiskLevels:
    """Risk information of one method (never the decision): the highest biddable contracts it
    makes at least ``1 - risk`` of the time (``at_risk``) and at least half the time (``at_half``),
    each None when no biddable contract is made that often."""

    method: str
    risk: float
    at_risk: int | None
    at_half: int | None

    def to_dict(self) -> dict:
        return {"made_at_least": 1 - self.risk, "bid_at_risk": self.at_risk, "bid_at_half": self.at_half}


def _rate_dict(rate: Estimate) -> dict:
    return {"p": rate.value, "low": rate.low, "high": rate.high}


@dataclass(frozen=True)
class LineRow:
    """One of your bidding lines over the sampled deals: ``value`` (``analysis.bids.value.LineValue``:
    its mean result under the objective, the paired gain over passing, the shares you declare, make,
    concede and raise, the mean final contract) and ``differs``, the deals this line plays
    differently from the "bid up to" line below it (the pass line for the lowest); None for the pass
    line and the line player's own bidding. A line that differs in no deal gives the same result as
    the line below: no auction of the sample reached it."""

    value: LineValue

    @property
    def differs(self) -> int | None:
        """The deals this line plays differently from the one below (``LineValue.reached``), None
        for the pass line and the line player's own bidding."""
        return self.value.reached if self.value.limit > 0 else None

    @property
    def limit(self) -> int:
        """``PASS_LINE``, 0 (the line player's own bidding) or b (bid up to b)."""
        return self.value.limit

    @property
    def kind(self) -> str:
        """"pass", "own" (the line player's own bidding) or "bid to"."""
        return "pass" if self.limit == PASS_LINE else "own" if self.limit == 0 else "bid to"

    def to_dict(self) -> dict:
        v = self.value
        return {"line": self.kind, "limit": v.limit if v.limit > 0 else None, "n": v.n,
                **v.mean.columns("mean", "low", "high"), **v.gain.columns("gain", "gain_low", "gain_high"),
                **{k: _rate_dict(getattr(v, k)) for k in SHARES},
                "contract": v.contract, "differs": self.differs, "reached": v.reached if v.limit > 0 else None,
                "step_gain": _finite(v.step_gain.value), "step_low": _finite(v.step_gain.low),
                "step_high": _finite(v.step_gain.high)}


# The keys of the JSON's "beyond": the first tested level above the recommendation.
_BEYOND_KEYS = ("limit", "gain", "gain_low", "gain_high", "reached", "step_gain", "step_low", "step_high")


@dataclass(frozen=True)
class Recommendation:
    """The one bid advised, from the lines played by ``player`` under ``objective`` by the settled
    rule (``analysis.bids.value.settled``): the lowest level X of the plateau (the lines not told
    apart from the best) whose line "bid up to X" beats always passing with its 95% interval above 0.

    - ``bid``: X ("bid to X"); when passing is in the plateau and no tested line beats it, the
      forced bid for the seat holding it ("forced bid B, then pass"), else None ("pass");
    - ``line``: the line of X (``gain``: that line against passing at every turn, over all deals,
      with its interval, above 0; ``step_gain``, information: bidding X rather than passing where
      the auction reached X, over ``reached`` deals), None when passing;
    - ``beyond``: the first tested level above X and the plateau (the lowest tested level when
      passing), or None;
    - ``untested_from``: when no level above X is tested, the lowest level above X reached too
      seldom to be tested (``analysis.bids.value.tested_level``; None: X is the bidding cap or
      ``beyond`` is set);
    - ``passing``: the pass line's value;
    - ``bidding_cap``: the hand's bidding cap (the highest line);
    - ``objective``, ``player``: the objective and the player of the lines.
    """

    bid: int | None
    line: LineValue | None
    beyond: LineValue | None
    untested_from: int | None
    passing: LineValue
    bidding_cap: int
    objective: str
    player: str

    @property
    def action(self) -> str:
        """"bid to B", "forced bid B, then pass", "pass", or "untested" (no level above the opening
        tested: nothing to judge bidding on by)."""
        if self.line is None:
            if self.beyond is None and self.untested_from is not None:
                return "untested"
            return f"forced bid {self.bid}, then pass" if self.bid is not None else "pass"
        return f"bid to {self.bid}"

    def to_dict(self) -> dict:
        line = {} if self.line is None else stored_row(self.line)
        keys = ("gain", "gain_low", "gain_high", "step_gain", "step_low", "step_high", "reached", "mean", "low", "high")
        beyond = None if self.beyond is None else stored_row(self.beyond)
        return {"action": self.action, "bid": self.bid, "objective": self.objective, "player": self.player,
                **{k: line.get(k) for k in keys}, **self.passing.mean.columns("pass_mean", "pass_low", "pass_high"),
                "beyond": None if beyond is None else {k: beyond[k] for k in _BEYOND_KEYS},
                "untested_from": self.untested_from}


@dataclass(frozen=True)
class Advice:
    """The bid advice for one 7-card hand (``advise``; what ``thousand bid`` prints).

    The question:

    - ``hand``: the 7 cards, as ``sim.game.cards.format_hand`` writes them;
    - ``seat``: first, second or third hand;
    - ``rules``: the house rules;
    - ``known_left``, ``known_right``, ``known_talon``: the cards known to lie with the left
      opponent, the right one and in the talon ("" for none);
    - ``situation``: the scores before the deal (yours and the opponents', who sits on the barrel);
    - ``objective``: race, own or win (``analysis.bids.value.OBJECTIVES``); ``objective_reason``: why,
      when ``thousand bid`` chose win by itself (``analysis.bids.advisor.default_objective``,
      ``SCORE_GIVEN``), else None;
      ``win_source``: the table of win chances of ``win``, in words;
    - ``risk``: the failure chance of the risk information.

    How it was estimated (what made it):

    - ``line_player``: the player of every decision of the lines but your bidding (all seats);
    - ``methods``: the make-rate methods, in the order asked for;
    - ``samples``: the sampled deals of the unseen cards the lines were played on (where sampling
      stopped, or ``--samples``); ``sampling``: "settled" (the plateau settled after ``samples``
      deals), "cap" (not settled at ``samples_cap``), or "fixed" (``--samples`` gave the size);
      ``samples_cap``: the most deals the settled rule samples (None when fixed);
    - ``make_samples``: the first deals of the same sample the make-rate table played (every method
      but pimc), ``pimc_samples`` the most pimc plays (``samples_of`` gives each method's count);
    - ``seed``: the seed (the advice depends on it and the sizes only, never on the threads);
    - ``worlds``: the worlds a pimc decision averages over, None without pimc;
    - ``version``: the version of thousand that computed it.

    The answer:

    - ``forced_bid``: the bid the hand is forced to open with (forced_first_bid, in the seat
      forced_bid_seat names: min_bid, or a sitter's minimum under barrel_min_bid_enforced), or None;
    - ``bidding_cap``: the highest bid the hand allows (120 + its marriages, at most max_contract
      and bid_ceiling_before_talon);
    - ``raise_cap``: the highest final contract a talon could let the declarer raise to;
    - ``lines``: the bidding lines: passing, the line player's own bidding, then bid up to each
      contract from the minimum bid to the bidding cap; ``to_polars()`` gives them as one table;
    - ``plateau``: the levels whose line is not shown to lose more than the margin against the best line
      (``analysis.bids.value.Plateau``);
    - ``recommendation``: the one bid advised, from the lines and the plateau (the settled rule,
      ``analysis.bids.value.settled``);
    - ``contracts``: the make-rate table, from the minimum bid to ``played_to`` (none when the hand
      cannot bid); ``to_polars("contracts")`` gives it as one table;
    - ``played_to``: the highest contract of ``contracts`` (below ``raise_cap`` when the learned
      player made a contract above the bidding cap in no sample: the higher ones were not played),
      None when there are none;
    - ``risk_levels``: each method's highest bids made at least 1 - risk and 50% of the time;
    - ``talon``: the talon's exact chances for the hand.
    """

    hand: str
    seat: str
    rules: HouseRules
    known_left: str
    known_right: str
    known_talon: str
    situation: Situation
    objective: str
    risk: float
    line_player: str
    methods: tuple[str, ...]
    samples: int
    pimc_samples: int
    seed: int
    worlds: int | None
    version: str
    forced_bid: int | None
    bidding_cap: int
    raise_cap: int
    lines: tuple[LineRow, ...]
    recommendation: Recommendation
    contracts: tuple[ContractRow, ...]
    played_to: int | None
    risk_levels: tuple[RiskLevels, ...]
    talon: TalonChances
    make_samples: int
    sampling: str
    samples_cap: int | None
    plateau: Plateau
    win_source: str | None = None  # objective win: which table of win chances, in words
    objective_reason: str | None = None  # why this objective, when the command chose it (None: asked for)

    @property
    def rule_changes(self) -> dict:
        """The rules' options that differ from the classic rules (empty for the classic rules)."""
        return self.rules.changes_from(HouseRules())

    @property
    def known_cards(self) -> dict[str, str]:
        """The known cards by where they lie (left, right, talon), only where some are known."""
        return {k: v for k, v in (("left", self.known_left), ("right", self.known_right),
                                  ("talon", self.known_talon)) if v}

    @property
    def min_bid(self) -> int:
        """The rules' minimum bid."""
        return self.rules.min_bid

    @property
    def can_bid(self) -> bool:
        """Whether the hand can bid at all (a hand not forced to open needs a bidding cap of at least
        the minimum bid)."""
        return bool(self.contracts)

    @property
    def pass_line(self) -> LineRow:
        """The pass line (as the seat holding the forced bid: the forced bid, then pass)."""
        return self.line(PASS_LINE)

    @property
    def own_line(self) -> LineRow:
        """The line player's own bidding (information: never the recommendation)."""
        return self.line(0)

    @property
    def objective_means(self) -> str:
        """The objective in words."""
        return OBJECTIVE_WORDS[self.objective]

    @property
    def line_players(self) -> str:
        """Who plays the lines, in words."""
        return line_players_words(self.line_player)

    def players_of(self, method: str) -> str:
        """Who plays a make-rate method's deals, in words (``METHOD_PLAYERS``)."""
        return METHOD_PLAYERS[method]

    def line(self, limit: int) -> LineRow:
        """The line of ``limit`` (``PASS_LINE``, 0 or a contract; KeyError for a line not played)."""
        for r in self.lines:
            if r.limit == limit:
                return r
        raise KeyError(limit)

    def samples_of(self, method: str) -> int:
        """The sampled deals make-rate ``method`` played (the first of the lines' sample)."""
        return min(self.make_samples, self.pimc_samples) if method == "pimc" else self.make_samples

    def risk_for(self, method: str) -> RiskLevels:
        """The risk information of ``method`` (KeyError for a method not asked for)."""
        for r in self.risk_levels:
            if r.method == method:
                return r
        raise KeyError(method)

    def plateau_dict(self) -> dict:
        """The ``plateau`` object of the JSON: ``Plateau.to_dict`` with the gain over passing of the
        recommended line (``gain``, ``gain_low``, ``gain_high``: the plateau's "about") and of the
        best line (``best_gain``...), null where there is none."""
        rec = self.recommendation.line
        best = None if self.plateau.best == PASS_LINE else self.line(self.plateau.best).value
        return {**self.plateau.to_dict(),
                **(rec.gain.columns("gain", "gain_low", "gain_high") if rec is not None
                   else dict.fromkeys(("gain", "gain_low", "gain_high"))),
                **(best.gain.columns("best_gain", "best_gain_low", "best_gain_high") if best is not None
                   else dict.fromkeys(("best_gain", "best_gain_low", "best_gain_high")))}

    def situation_dict(self) -> dict:
        """The scores before the deal, by player."""
        s = self.situation
        return {"score": s.score, "on_barrel": s.on_barrel, "left_score": s.others[0],
                "left_on_barrel": s.others_on_barrel[0], "right_score": s.others[1],
                "right_on_barrel": s.others_on_barrel[1], "attempts": s.attempts, "bolts": s.bolts,
                "passes": s.passes}

    def to_polars(self, table: str = "lines") -> pl.DataFrame:
        """``"lines"``: the bidding lines, a row each in order (``ADVICE_LINE_COLUMNS``; limit null for
        the pass line and the line player's own bidding, told apart by ``line``). ``"contracts"``: the
        make-rate table, a row per contract and method (contracts in order, the methods in the order
        asked for; ``LEVEL_COLUMNS``), empty when the hand cannot bid. Polars is imported here, not
        at the top: ``thousand bid`` never asks for a table, and importing Polars is a tenth of a
        second of its answer."""
        import polars as pl

        if table == "lines":
            rows = [_line_record(r) for r in self.lines]
            types = {"line": pl.String, "limit": pl.Int64, "n": pl.Int64, "differs": pl.Int64, "reached": pl.Int64}
            return pl.DataFrame(rows, schema={k: types.get(k, pl.Float64) for k in ADVICE_LINE_COLUMNS})
        if table == "contracts":
            rows = [{"contract": r.contract, "biddable": r.biddable, **stored_row(e)}
                    for r in self.contracts for e in r.estimates]
            types = {"contract": pl.Int64, "biddable": pl.Boolean, "method": pl.String, "n": pl.Int64,
                     "made": pl.Int64}
            return pl.DataFrame(rows, schema={k: types.get(k, pl.Float64) for k in LEVEL_COLUMNS})
        raise ValueError(f"table must be lines or contracts, not {table!r}")

    def to_dict(self) -> dict:
        """The advice as ``thousand bid --json`` prints it (``analysis.present.json_text.to_json``)."""
        return {
            "hand": self.hand, "seat": self.seat, "rules": self.rule_changes or "classic",
            "samples": self.samples, "sampling": self.sampling, "samples_cap": self.samples_cap,
            "make_samples": self.make_samples, "seed": self.seed, "version": self.version,
            "objective": self.objective, "objective_means": self.objective_means,
            "line_player": self.line_player, "line_players": self.line_players,
            "known": self.known_cards, "situation": self.situation_dict(),
            "min_bid": self.min_bid, "forced_bid": self.forced_bid, "can_bid": self.can_bid,
            "bidding_cap": self.bidding_cap, "raise_cap": self.raise_cap,
            "recommendation": self.recommendation.to_dict(), "plateau": self.plateau_dict(),
            "lines": [r.to_dict() for r in self.lines],
            "methods": list(self.methods), "method_samples": {m: self.samples_of(m) for m in self.methods},
            "method_players": {m: METHOD_PLAYERS[m] for m in self.methods}, "worlds": self.worlds,
            "contracts": [r.to_dict() for r in self.contracts], "played_to": self.played_to,
            "risk": self.risk, "risk_levels": {r.method: r.to_dict() for r in self.risk_levels},
            "talon": self.talon.to_dict(),
            **({"win_source": self.win_source} if self.win_source is not None else {}),
            **({"objective_reason": self.objective_reason} if self.objective_reason is not None else {}),
        }


def line_players_words(player: str) -> str:
    """Who plays the lines, in words."""
    return (f"{player} player, all seats: the others' bids, the talon, raising or conceding, the gifts and the cards; "
            "your bidding follows the line")


# The columns of Advice.to_polars() (the lines) and Advice.to_polars("contracts").
ADVICE_LINE_COLUMNS = ("line", "limit", "n", "mean", "low", "high", "gain", "gain_low", "gain_high",
                       *(f"{k}{s}" for k in SHARES for s in ("", "_low", "_high")),
                       "contract", "differs", "reached", "step_gain", "step_low", "step_high")
LEVEL_COLUMNS = ("contract", "biddable", "method", "n", "made", "p_make", "ci_low", "ci_high", "ev_declare",
                 "ev_ci_low", "ev_ci_high")


def _line_record(row: LineRow) -> dict:
    """A line's row of ``Advice.to_polars()``: its ``stored_row`` (the columns keyed by name), the
    limit and reached null for the pass line and the line player's own bidding."""
    v = row.value
    return {**stored_row(v), "line": row.kind, "limit": v.limit if v.limit > 0 else None, "differs": row.differs,
            "reached": v.reached if v.limit > 0 else None}


def _finite(x: float) -> float | None:
    return None if x != x else x

