"""House rules as data: one record naming every option of RULES.md §4, and named presets.

The record is what users write (TOML files, ``--rules``) and what output files carry as metadata;
``to_array`` packs it into the integer array that compiled kernels read, at the offsets named in
``sim.game.rules_layout``.

It stays one file of some 800 lines because it is one concept: each option is declared, ranged,
validated, packed and worded here, so that an option's whole meaning is read in one place; most of
its length is the options' own comments (what RULES.md or the seeds say of each).
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import os
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from sim import InputError
from sim.game import rules_layout as R
from sim.game.bids_nb import forced_seat
from sim.game.play_nb import round_points_of
from sim.game.redeal_odds import deal_shape, played_share, poorest_hand_most, richest_talon

__all__ = [
    "RulesError", "HouseRules", "RANGES", "OPTIONAL", "MIN_PLAYED_SHARE", "REDEAL_CONDITIONS", "BARREL_OPTIONS",
    "PRESETS", "preset", "load_rules", "rules_file_text", "recorded_rules_are", "option_table",
]


class RulesError(InputError):
    """An unknown option, a bad value or contradictory options; the message names the option."""


def _opt(default, allowed: str, meaning: str):
    return field(default=default, metadata={"allowed": allowed, "meaning": meaning})


@dataclass(frozen=True)
class HouseRules:
    # §4.1 two and four players
    players: int = _opt(3, "2, 3, 4", "number of players (4: the dealer sits out; 2: two talons)")
    sitout_half_marriage: bool = _opt(
        False, "bool", "4 players: the dealer also scores half a marriage for a lone K or Q in the talon"
    )
    two_player_talon: int = _opt(2, "2, 3", "2 players: cards in each of the two talons")
    sitout_scores: str = _opt("cards_and_marriage", "cards_and_marriage, cards, marriage",
                              "4 players: what the dealer sitting out scores from the talon: its card points and "
                              "the marriage in it, the card points only, or the marriage only")
    # §4.2 deal and redeal
    redeal_policy: str = _opt("always", "always, never", "when a redeal is allowed, ask for it or not")
    redeal_hand_points_below: int = _opt(0, "0 (off) or 1..60", "redeal for a hand under N card points")
    redeal_four_nines: bool = _opt(False, "bool", "redeal for four nines in a 7-card hand")
    redeal_three_nines: bool = _opt(False, "bool", "redeal for three nines in a 7-card hand")
    redeal_talon_points_below: int = _opt(0, "0 (off) or 1..31", "redeal when the declarer's talon is worth under N")
    redeal_talon_only_at_100: bool = _opt(False, "bool", "talon redeal only when the talon was won with the forced 100")
    redeal_talon_two_nines: bool = _opt(False, "bool", "redeal for two nines in the talon")
    redeal_talon_three_jacks: bool = _opt(False, "bool", "redeal for three jacks in the talon")
    redeal_four_aces: bool = _opt(False, "bool", "four aces in a hand force a redeal")
    redeal_four_nines_after_talon: bool = _opt(False, "bool", "redeal for four nines after the talon and the discard")
    redeal_limit_penalty: bool = _opt(False, "bool", "a third consecutive redeal costs the dealer 120 and is played")
    # §4.3 bidding and contract
    min_bid: int = _opt(100, "multiple of 5, 60..200", "the forced / lowest bid")
    bid_step: int = _opt(5, "5, 10", "bids go up in steps of this")
    forced_first_bid: bool = _opt(True, "bool", "first hand must bid the minimum at his first turn")
    no_bid_cap: bool = _opt(False, "bool", "bids above 120 without a marriage are allowed")
    max_contract: int = _opt(300, "multiple of 5, 120..400", "absolute ceiling of any bid or contract")
    no_jump_bids: bool = _opt(False, "bool", "every raise is exactly one step")
    silence_below: int | None = _opt(None, "off or a score such as -120", "a player below this score always passes")
    forced_bid_seat: str = _opt("first_hand", "first_hand, dealer",
                                "who makes the forced opening bid (forced_first_bid) and may go dark: first hand, or "
                                "the dealer, after whom first hand speaks")
    all_pass: str = _opt("throw_in", "throw_in, dealer_plays",
                         "without forced_first_bid, when every player but the dealer passed without a bid: the deal is "
                         "thrown in, or the dealer is declarer at min_bid")
    bid_ceiling_before_talon: int | None = _opt(None, "none or a multiple of 5 from min_bid to max_contract",
                                                "no bid of the auction above this (the final contract keeps the usual "
                                                "cap)")
    bid_step_10_from: int | None = _opt(None, "none or a multiple of 10 above min_bid",
                                        "a bid or final contract at or above this must be a multiple of 10")
    no_raise_after_talon: bool = _opt(False, "bool", "the final contract is the winning bid: no raise after the "
                                      "talon")
    talon_hidden_at_100: bool = _opt(False, "bool", "a talon won with the uncontested forced bid is not shown")
    talon_shown_to_declarer_only: bool = _opt(False, "bool", "only the declarer sees the talon")
    discard_face_down: bool = _opt(False, "bool", "each opponent sees only the card he is given")
    no_aces_tens_in_discard: bool = _opt(False, "bool", "the declarer may not give away an ace or a ten")
    concede: bool = _opt(True, "bool", "the declarer may concede (расписать) after seeing the talon")
    concede_60: bool = _opt(False, "bool", "on a concession each defender gets 60")
    concede_no_deduction: bool = _opt(False, "bool", "on a concession the declarer loses nothing")
    concede_limit: int = _opt(0, "0 (none) or 1..10", "concessions allowed per player per game")
    concede_third_penalty: bool = _opt(False, "bool", "a player's third concession costs 120")
    concede_on_barrel: bool = _opt(False, "bool", "concession allowed while anyone sits on the barrel")
    round_declarer: bool = _opt(False, "bool", "declarer's points are rounded like a defender's before comparing")
    concede_payout: str = _opt("half_up5", "half_up5, half_floor",
                               "each defender's payout on a concession: half the contract rounded up to 5 (105 -> 55), "
                               "or rounded down to a point (105 -> 52)")
    concede_free_at_min_bid: bool = _opt(False, "bool", "a concession when the winning bid is min_bid costs the "
                                         "declarer nothing and pays the defenders nothing (the Polish throw at 100)")
    rounding: str = _opt("five", "five, none, ten, ten_half_up",
                         "how points are rounded: to 5 (remainder 1-2 down), none, to 10 (1-5 down, 6-9 up: Polish), "
                         "to 10 half up (1-4 down)")
    declarer_scores: str = _opt("contract", "contract, points",
                                "a made declarer scores the contract, or max(contract, his points rounded)")
    # §4.4 play and marriages
    must_head: bool = _opt(False, "bool", "a follower must beat the winning card when he can")
    marriage_first_lead: bool = _opt(False, "bool", "a marriage may be declared without a prior trick")
    marriage_burns_without_trick: bool = _opt(False, "bool", "a marriage scores only if its player wins a trick")
    marriage_optional: bool = _opt(False, "bool", "K or Q of a held marriage may be led without declaring")
    marriage_min_cards: int = _opt(2, "2..8", "a marriage may be declared only by a leader holding at least this "
                                   "many cards, the led card included")
    marriage_trump_from: str = _opt("this_trick", "this_trick, next_trick",
                                    "a marriage's suit is trump from the trick it is led in, or from the next one "
                                    "(the trick it is led in keeps the trump in force before it)")
    marriage_values: tuple[int, int, int, int] = _opt(
        (40, 60, 80, 100), "four multiples of 5 for S C D H", "marriage values by suit"
    )
    ace_marriage: int = _opt(0, "0 (off) or a value such as 200", "four aces declared like a marriage")
    half_marriage: bool = _opt(False, "bool", "Q+J of one suit is worth half a marriage")
    no_lead_foreign_trump: bool = _opt(False, "bool", "no leading another player's trump while holding other cards")
    must_lead_trump: bool = _opt(False, "bool", "a player holding trumps must lead one")
    four_nines_bonus: int = _opt(0, "0 (off) or a bonus", "four nines after the discard score this")
    # §4.5 bolts
    bolt_on: str = _opt("no_tricks", "no_tricks, zero_points, three_passes", "what earns a bolt")
    bolt_count: str = _opt("cumulative", "cumulative, consecutive, each",
                           "how bolts are counted toward a penalty (each: every bolt pays at once)")
    bolt_penalty: int = _opt(120, "0 (off) or a multiple of 5", "cost of every third bolt (of every bolt: each)")
    bolt_own_game_exempt: bool = _opt(False, "bool", "the declarer gets no bolt")
    bolt_double_in_dark: bool = _opt(False, "bool", "a bolt in a dark game counts twice")
    bolt_exempt_keeps_run: bool = _opt(False, "bool", "with bolt_own_game_exempt and bolt_count = consecutive, the "
                                       "exempt declarer's trickless deal leaves his run as it is (not restarted)")
    no_win_penalty: str = _opt("off", "off, cumulative, consecutive",
                               "every third no-win deal (declared and failed, or defended for 0) costs "
                               "no_win_penalty_amount; consecutive: a won deal restarts the count")
    no_win_penalty_amount: int = _opt(120, "a multiple of 5 from 5 to 1000", "cost of every third no-win deal")
    # §4.6 scores and the barrel
    target: int = _opt(1000, "multiple of 5, 300..3000", "score that wins the game")
    barrel: int | None = _opt(880, "a score below target, or none", "score at which a player sits on the barrel")
    barrel_min_contract: int = _opt(120, "multiple of 5", "least contract that takes the sitter off upward")
    barrel_attempts: int = _opt(3, "1..10, or 0 (no limit) with barrel_freeze = false", "deals the sitter has to win")
    barrel_penalty: int = _opt(120, "multiple of 5", "cost of falling off the barrel")
    barrel_knock_off: bool = _opt(True, "bool", "a newcomer knocks the sitter off")
    barrel_simultaneous_penalty: bool = _opt(True, "bool", "players reaching the barrel together each pay")
    barrel_falls_to_zero: int = _opt(3, "0 (never) or 1..10", "this many falls set the score to 0")
    barrel_falls_counted: str = _opt("all", "all, attempts_only",
                                     "which falls count toward barrel_falls_to_zero: every fall, or only running out "
                                     "of barrel attempts")
    barrel_talon_free: bool = _opt(False, "bool", "the sitter gets the talon without bidding")
    barrel_accumulate: bool = _opt(False, "bool", "the sitter accumulates the rest instead of a contract")
    barrel_forced_last: bool = _opt(False, "bool", "on his third barrel's last attempt the sitter gets the talon")
    barrel_min_bid_enforced: bool = _opt(False, "bool", "a sitter may not bid below barrel_min_contract (he may pass); "
                                         "his forced bid is barrel_min_contract")
    barrel_failed_contract: str = _opt("falls", "falls, stays",
                                       "a sitter who declares and fails (or concedes): loses the contract and falls, "
                                       "or stays: keeps his seat and score, the deal one of his attempts")
    barrel_freeze: bool = _opt(True, "bool", "a score reaching the barrel is set to it and frozen (false: the range "
                               "barrel, a sitter keeps his score, his contracts count, below the barrel he is off)")
    barrel_jump_wins: bool = _opt(False, "bool", "a player below the barrel whose score reaches the target in one "
                                  "deal wins (instead of landing on the barrel)")
    barrel_defence_wins: bool = _opt(False, "bool", "a sitter whose points as a defender take his score to the "
                                     "target wins")
    barrel_simultaneous_keeper: str = _opt("none", "none, declarer_else_lowest_seat",
                                           "with barrel_simultaneous_penalty, players climbing together: all fall, "
                                           "or the declarer among them (else the lowest seat) sits, the others fall")
    barrel_collision: str = _opt("newcomer_stays", "newcomer_stays, sitter_stays, both_fall",
                                 "with barrel_knock_off, a newcomer meeting a sitter: the sitter falls, the "
                                 "newcomer falls, or both fall")
    dump_truck: bool = _opt(True, "bool", "a score of exactly 555 is reset to 0")
    dump_truck_negative: bool = _opt(False, "bool", "a score of exactly -555 is reset to 0")
    dump_truck_value: int = _opt(555, "a multiple of 5 from 100 to 995, at most the target",
                                 "the score the dump truck resets to 0 (and its negative with dump_truck_negative)")
    win_score_capped: bool = _opt(False, "bool", "a player who wins from the barrel ends on exactly the target")
    win_only_as_declarer: bool = _opt(True, "bool", "only a declarer can reach the target")
    target_tie: str = _opt("after_declarer", "after_declarer, lowest_seat",
                           "several reaching the target with the same highest score, none of them the declarer: "
                           "the first seat after the declarer wins, or the lowest seat number")
    # §4.7 dark game and golden round
    dark_game: bool = _opt(False, "bool", "first hand may declare a dark game (120, doubled)")
    dark_min_score: int | None = _opt(None, "off or a score such as 240", "least score to go dark")
    golden_round: bool = _opt(False, "bool", "a first round of forced doubled 120s")
    dark_defenders_doubled: bool = _opt(True, "bool", "in a dark deal the defenders' card points are doubled too "
                                        "(false: they score as in an ordinary deal)")
    golden_defenders: str = _opt("doubled_cards", "doubled_cards, doubled_rounded",
                                 "a golden deal's defenders score round(2 x card points + marriages), or "
                                 "doubled_rounded: 2 x round(card points + marriages)")
    bolt_double_in_golden: bool = _opt(False, "bool", "a bolt in a golden-round deal counts twice")

    # ---- construction -------------------------------------------------------------------
    @classmethod
    def from_dict(cls, values: dict[str, Any], *, base: HouseRules | None = None, source: str = "rules"):
        base = base or cls()
        known = {f.name: f for f in fields(cls)}
        changes = {}
        for name, value in values.items():
            if name not in known:
                raise RulesError(f"{source}: unknown house rule {name!r}{_suggest(name, known)}")
            changes[name] = _coerce(name, value, getattr(base, name), source)
        rules = dataclasses.replace(base, **changes)
        try:
            rules.validate()
        except RulesError as exc:
            raise RulesError(f"{source}: {exc}") from None
        return rules

    def changes_from(self, other: HouseRules) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != getattr(other, f.name)}

    def to_dict(self) -> dict[str, Any]:
        return {f.name: (list(v) if isinstance(v := getattr(self, f.name), tuple) else v) for f in fields(self)}

    # ---- checks ---------------------------------------------------------------------------
    def validate(self) -> None:
        """Refuse a value out of its range (``RANGES``) or of the wrong type, and every combination
        of options that contradicts itself or has no effect, naming the option."""
        def bad(name, why):
            raise RulesError(f"house rule {name!r} = {getattr(self, name)!r}: {why}")

        for name, (lo, hi, step) in RANGES.items():
            values = getattr(self, name)
            for v in values if isinstance(values, tuple) else (values,):
                if v is None and name in OPTIONAL:
                    continue
                if isinstance(v, bool) or not isinstance(v, int):
                    bad(name, "must be an integer" + (" or none" if name in OPTIONAL else ""))
                if not lo <= v <= hi or v % step:
                    each = "each value " if isinstance(values, tuple) else ""
                    bad(name, f"{each}must be {_range_text(lo, hi, step)}")
        if not isinstance(self.marriage_values, tuple) or len(self.marriage_values) != 4:
            bad("marriage_values", "must be four multiples of 5 (S C D H)")
        for f in fields(self):  # a file's true/false is a bool by then (_coerce); a record built in Python may not be
            if f.type == "bool" and not isinstance(getattr(self, f.name), bool):
                bad(f.name, "must be true or false")

        if self.players not in (2, 3, 4):
            bad("players", "must be 2, 3 or 4")
        if self.two_player_talon not in (2, 3):
            bad("two_player_talon", "must be 2 or 3")
        if self.redeal_policy not in ("always", "never"):
            bad("redeal_policy", "must be 'always' or 'never'")
        if self.bid_step not in (5, 10):
            bad("bid_step", "must be 5 or 10")
        for name in ("min_bid", "max_contract", "target", "barrel_min_contract", "barrel_penalty", "bolt_penalty"):
            if getattr(self, name) % 5:
                bad(name, "must be a multiple of 5")
        if not 60 <= self.min_bid <= 200:
            bad("min_bid", "must be between 60 and 200")
        if not self.min_bid < self.max_contract <= 400:
            bad("max_contract", f"must be above min_bid ({self.min_bid}) and at most 400")
        if self.bolt_on not in ("no_tricks", "zero_points", "three_passes"):
            bad("bolt_on", "must be no_tricks, zero_points or three_passes")
        if self.concede_payout not in R.CONCEDE_PAYOUT_NAMES:
            bad("concede_payout", "must be half_up5 or half_floor")
        if self.rounding not in R.ROUNDINGS:
            bad("rounding", "must be five, none, ten or ten_half_up")
        if self.declarer_scores not in ("contract", "points"):
            bad("declarer_scores", "must be contract or points")
        if self.concede_payout != "half_up5" and self.concede_60:
            bad("concede_payout", "contradicts concede_60 (each defender gets 60): choose one payout")
        if self.bolt_count not in R.BOLT_COUNT_NAMES:
            bad("bolt_count", "must be cumulative, consecutive or each")
        if self.bolt_count == "consecutive" and self.bolt_on == "three_passes":
            # RULES.md §5: the combination the online preset had until 2026-12, which never charges.
            bad("bolt_count", "has no effect with bolt_on = three_passes: a bolt restarts the count of passes, so two "
                "bolts are never consecutive (use each: every bolt costs the penalty, or cumulative)")
        if self.bolt_exempt_keeps_run and not (self.bolt_own_game_exempt and self.bolt_count == "consecutive"):
            bad("bolt_exempt_keeps_run", "needs bolt_own_game_exempt and bolt_count = consecutive (only then is there "
                "an exempt declarer's run to keep)")
        if self.no_win_penalty not in R.NO_WIN_PENALTY_NAMES:
            bad("no_win_penalty", "must be off, cumulative or consecutive")
        if self.no_win_penalty == "off" and self.no_win_penalty_amount != 120:
            bad("no_win_penalty_amount", "has no effect: no_win_penalty is off")
        if self.sitout_scores not in R.SITOUT_SCORES:
            bad("sitout_scores", "must be cards_and_marriage, cards or marriage")
        if self.sitout_scores != "cards_and_marriage" and self.players != 4:
            bad("sitout_scores", f"needs players = 4 (the dealer sits out), not players = {self.players}")
        if self.sitout_scores == "cards" and self.sitout_half_marriage:
            bad("sitout_half_marriage", "contradicts sitout_scores = cards (half a marriage would count, a whole "
                "one not)")
        if self.dump_truck_value != 555 and not (self.dump_truck or self.dump_truck_negative):
            bad("dump_truck_value", "has no effect: dump_truck and dump_truck_negative are off")
        # The default 555 stays allowed with any target, as before the option (under a lower target it never bites).
        if self.dump_truck_value != 555 and self.dump_truck_value > self.target:
            bad("dump_truck_value", f"is above the target ({self.target}): no score could be reset")
        if not 300 <= self.target <= 3000:
            bad("target", "must be between 300 and 3000")
        if self.barrel is not None:
            if self.barrel % 5 or not 0 < self.barrel < self.target:
                bad("barrel", f"must be a multiple of 5 below the target ({self.target}), or none")
            if self.barrel_freeze and self.barrel + self.barrel_min_contract < self.target:
                bad("barrel_min_contract",
                    f"barrel {self.barrel} + {self.barrel_min_contract} does not reach the target {self.target}")
            if self.barrel_min_contract > self.max_contract:
                bad("barrel_min_contract",
                    f"is above max_contract ({self.max_contract}): nobody could leave the barrel")
        if not 0 <= self.barrel_attempts <= 10:
            bad("barrel_attempts", "must be 0..10")
        if not 0 <= self.barrel_falls_to_zero <= 10:
            bad("barrel_falls_to_zero", "must be 0..10")
        if not self.concede and (self.concede_60 or self.concede_no_deduction or self.concede_limit
                                 or self.concede_third_penalty or self.concede_on_barrel
                                 or self.concede_payout != "half_up5" or self.concede_free_at_min_bid):
            bad("concede", "is off, so the concede_* options contradict it")
        if self.marriage_trump_from not in R.MARRIAGE_TRUMP_FROM_NAMES:
            bad("marriage_trump_from", "must be this_trick or next_trick")
        if self.marriage_min_cards == 8 and self.players != 2 and not self.marriage_first_lead:
            bad("marriage_min_cards", f"would forbid every marriage: with {self.players} players a hand holds 8 cards "
                "only on the first trick, before anybody has won one (use at most 7, or add marriage_first_lead)")
        if self.marriage_burns_without_trick and not self.marriage_first_lead:
            bad("marriage_burns_without_trick",
                "needs marriage_first_lead (a marriage always follows a trick otherwise)")
        if self.redeal_talon_only_at_100 and not self.redeal_talon_points_below:
            bad("redeal_talon_only_at_100", "needs redeal_talon_points_below")
        if self.dark_min_score is not None and not self.dark_game:
            bad("dark_min_score", "needs dark_game")
        if self.barrel is None:
            defaults = HouseRules()
            for name in BARREL_OPTIONS:
                if getattr(self, name) != getattr(defaults, name):
                    bad(name, "has no effect: barrel = none (there is no barrel)")
        if self.bolt_double_in_dark and not self.dark_game:
            bad("bolt_double_in_dark", "needs dark_game (there is no dark game to double a bolt in)")
        if not self.dark_defenders_doubled and not self.dark_game:
            bad("dark_defenders_doubled", "needs dark_game (there is no dark deal to score)")
        if self.golden_defenders not in R.GOLDEN_DEFENDERS_NAMES:
            bad("golden_defenders", "must be doubled_cards or doubled_rounded")
        if self.golden_defenders != "doubled_cards" and not self.golden_round:
            bad("golden_defenders", "needs golden_round (there is no golden deal to score)")
        if self.bolt_double_in_golden and not self.golden_round:
            bad("bolt_double_in_golden", "needs golden_round (there is no golden deal to double a bolt in)")
        self._check_auction_options(bad)
        if not self.forced_first_bid:
            for name in ("talon_hidden_at_100", "redeal_talon_only_at_100"):
                if getattr(self, name):
                    bad(name, "needs forced_first_bid (without it no talon is won with the forced bid)")
        if self.two_player_talon != 2 and self.players != 2:
            bad("two_player_talon", f"needs players = 2 (two talons), not players = {self.players}")
        if self.sitout_half_marriage and self.players != 4:
            bad("sitout_half_marriage", f"needs players = 4 (the dealer sits out), not players = {self.players}")
        if not self.win_only_as_declarer and self.barrel is not None:
            bad("win_only_as_declarer", "is implied by the barrel (set barrel = none to turn it off)")
        self._validate_barrel_variants(bad)
        self._check_real_table_options(bad)
        if (refusal := self._redeals_refusal()) is not None:
            bad(*refusal)

    def _check_auction_options(self, bad) -> None:
        """The auction options of issue 28 (docs/RULES.md "The forced bid, all passing, the ceiling
        and step before the talon")."""
        if self.forced_bid_seat not in R.FORCED_BID_SEAT_NAMES:
            bad("forced_bid_seat", "must be first_hand or dealer")
        if self.forced_bid_seat != "first_hand":
            if not self.forced_first_bid:
                bad("forced_bid_seat", "has no effect: forced_first_bid = false (nobody is forced to bid)")
            if self.players == 4:
                bad("forced_bid_seat", "needs the dealer to play: with players = 4 he sits out the deal")
        if self.all_pass not in R.ALL_PASS_NAMES:
            bad("all_pass", "must be throw_in or dealer_plays")
        if self.all_pass != "throw_in":
            if self.forced_first_bid:
                bad("all_pass", "needs forced_first_bid = false (with a forced bid nobody can pass without a bid)")
            if self.players == 4:
                bad("all_pass", "needs the dealer to play: with players = 4 he sits out the deal")
        ceiling = self.bid_ceiling_before_talon
        if ceiling is not None and not self.min_bid <= ceiling <= self.max_contract:
            bad("bid_ceiling_before_talon", f"must be from min_bid ({self.min_bid}) to max_contract "
                f"({self.max_contract}), or none")
        step_from = self.bid_step_10_from
        if step_from is not None:
            if step_from % 10 or not self.min_bid < step_from <= self.max_contract:
                bad("bid_step_10_from", f"must be a multiple of 10 above min_bid ({self.min_bid}) and at most "
                    f"max_contract ({self.max_contract}), or none")
            if self.bid_step == 10:
                bad("bid_step_10_from", "has no effect: bid_step = 10 (every bid is already a step of 10)")
        if self.barrel_min_bid_enforced:
            if self.barrel_talon_free:
                bad("barrel_min_bid_enforced", "has no effect with barrel_talon_free (the sitter never bids)")
            if self.barrel_accumulate:
                bad("barrel_min_bid_enforced", "has no effect with barrel_accumulate (the accumulating sitter's "
                    "contract does not score, so barrel_min_contract means nothing to him)")
            if ceiling is not None and ceiling < self.barrel_min_contract:
                bad("barrel_min_bid_enforced", f"contradicts bid_ceiling_before_talon = {ceiling}: a sitter could "
                    f"never bid barrel_min_contract ({self.barrel_min_contract})")

    def _check_real_table_options(self, bad) -> None:
        """The options of issue 45's rules of real tables (docs/RULES.md "Rules of real tables")."""
        if self.barrel_falls_counted not in R.BARREL_FALLS_COUNTED_NAMES:
            bad("barrel_falls_counted", "must be all or attempts_only")
        if self.barrel_falls_counted != "all" and not self.barrel_falls_to_zero:
            bad("barrel_falls_counted", "has no effect: barrel_falls_to_zero = 0 (no fall sets the score to 0)")
        if self.target_tie not in R.TARGET_TIE_NAMES:
            bad("target_tie", "must be after_declarer or lowest_seat")
        several = (not self.win_only_as_declarer if self.barrel is None
                   else self.barrel_jump_wins or self.barrel_defence_wins or not self.barrel_freeze)
        if self.target_tie != "after_declarer" and not several:
            bad("target_tie", "has no effect: only the declarer can reach the target (it needs barrel_jump_wins, "
                "barrel_defence_wins or barrel_freeze = false, or without a barrel win_only_as_declarer = false)")
        if self.concede_free_at_min_bid and self.concede_no_deduction:
            bad("concede_free_at_min_bid", "contradicts concede_no_deduction (every concession already costs the "
                "declarer nothing): choose one")

    def _validate_barrel_variants(self, bad) -> None:
        """The barrel variants of issue 28 item 7 (docs/RULES.md "Barrel variants"): their values, the
        options each needs, and those that would have no effect beside them."""
        if self.barrel_failed_contract not in R.BARREL_FAILED_CONTRACT_NAMES:
            bad("barrel_failed_contract", "must be falls or stays")
        if self.barrel_simultaneous_keeper not in R.BARREL_KEEPER_NAMES:
            bad("barrel_simultaneous_keeper", "must be none or declarer_else_lowest_seat")
        if self.barrel_collision not in R.BARREL_COLLISION_NAMES:
            bad("barrel_collision", "must be newcomer_stays, sitter_stays or both_fall")
        if self.barrel_attempts == 0 and self.barrel_freeze:
            bad("barrel_attempts", "0 (no limit) needs barrel_freeze = false (on the frozen barrel the sitter would "
                "sit for ever)")
        if not self.barrel_freeze:
            if self.barrel_knock_off:
                bad("barrel_freeze", "false (the range barrel) needs barrel_knock_off = false (every player in the "
                    "range is on the barrel: nobody knocks anybody off)")
            if self.barrel_simultaneous_penalty:
                bad("barrel_freeze", "false (the range barrel) needs barrel_simultaneous_penalty = false (players "
                    "reaching the range together are all on it)")
            if self.barrel_jump_wins:
                bad("barrel_jump_wins", "has no effect: barrel_freeze = false implies it (a score reaching the target "
                    "wins)")
            if self.barrel_accumulate:
                bad("barrel_accumulate", "contradicts barrel_freeze = false (each says what a sitter scores)")
            if self.barrel_min_contract != 120 and not (self.barrel_talon_free or self.barrel_forced_last):
                bad("barrel_min_contract", "has no effect with barrel_freeze = false: a sitter wins by reaching the "
                    "target, with any contract (it is read only as the free talon's bid)")
            if self.barrel_min_bid_enforced:
                bad("barrel_min_bid_enforced", "has no effect with barrel_freeze = false (the range barrel has no "
                    "least contract: any contract that takes the sitter to the target wins)")
            if self.barrel_forced_last and self.barrel_attempts == 0:
                bad("barrel_forced_last", "needs a last attempt: barrel_attempts = 0 sets no limit")
        if self.barrel_accumulate and self.barrel_failed_contract != "falls":
            bad("barrel_failed_contract", "has no effect with barrel_accumulate (an accumulating sitter's contract "
                "does not score for him, made or failed)")
        if self.barrel_accumulate and self.barrel_defence_wins:
            bad("barrel_defence_wins", "has no effect with barrel_accumulate (an accumulating sitter adds his card "
                "points and wins at the target in every role)")
        if self.barrel_simultaneous_keeper != "none" and not self.barrel_simultaneous_penalty:
            bad("barrel_simultaneous_keeper", "needs barrel_simultaneous_penalty (without it players climbing together "
                "all sit)")
        if self.barrel_collision != "newcomer_stays" and not self.barrel_knock_off:
            bad("barrel_collision", "needs barrel_knock_off (without it a newcomer and a sitter both sit)")

    def _redeals_refusal(self) -> tuple[str, str] | None:
        """(option, why) when the redeal rules would throw in every deal, or all but fewer than
        MIN_PLAYED_SHARE of them, over and over: the dealer would deal again for ever (the run
        stores games stopped at the harness limit, or no deal with a declarer). RULES.md's cap on
        repeated redeals, redeal_limit_penalty, plays every third one, so it is never refused; and
        redeal_policy = never asks for none (four aces alone force a redeal in 1% of deals).
        Only the conditions checked in every deal count: with redeal_talon_only_at_100 the talon's
        points (asked only after an uncontested forced bid) do not, nor do dark and golden deals,
        which have no redeal checks, nor four nines after the discard (they depend on the discard)."""
        talon_below = 0 if self.redeal_talon_only_at_100 else self.redeal_talon_points_below
        if self.redeal_limit_penalty or self.redeal_policy != "always" or not (
                self.redeal_hand_points_below or talon_below):
            return None  # nine, jack and ace conditions alone redeal at most 41% of the deals (two players)

        def share(hand_below, talon_points_below):
            return played_share(self.players, self.two_player_talon, hand_below, self.redeal_four_nines,
                                self.redeal_three_nines, self.redeal_four_aces, talon_points_below,
                                self.redeal_talon_two_nines, self.redeal_talon_three_jacks)

        played = share(self.redeal_hand_points_below, talon_below)
        if played >= MIN_PLAYED_SHARE:
            return None
        hands, hand_size, talon_size, _ = deal_shape(self.players, self.two_player_talon)
        # Name the threshold whose lowering lets deals be played (the hand's first), and how far.
        if self.redeal_hand_points_below and (not talon_below or share(0, talon_below) >= MIN_PLAYED_SHARE):
            name, value = "redeal_hand_points_below", self.redeal_hand_points_below
            lowered = _largest(lambda v: share(v, talon_below) >= MIN_PLAYED_SHARE, value - 1)
            most = poorest_hand_most(self.players, self.two_player_talon)
            certain = value > most
            reason = (f"with {self.players} players some {hand_size}-card hand always holds at most {most} card "
                      f"points (120 over {hands} hands and the talon{'s' if self.players == 2 else ''})")
        else:
            name, value = "redeal_talon_points_below", talon_below
            lowered = _largest(lambda v: share(self.redeal_hand_points_below, v) >= MIN_PLAYED_SHARE, value - 1)
            most = richest_talon(self.players, self.two_player_talon)
            certain = value > most
            reason = f"with {self.players} players the {talon_size}-card talon holds at most {most} card points"
        others = [n if getattr(self, n) is True else f"{n} = {getattr(self, n)}"
                  for n in REDEAL_CONDITIONS if n != name and getattr(self, n)]
        also = f" (with {', '.join(others)})" if others else ""
        if played == 0.0:
            what = f"every deal would be redealt: {reason}" if certain else f"every deal would be redealt{also}"
        else:
            odds = f"{played:.1%} of deals" if played >= 0.001 else f"1 deal in {round(1 / played):,}"
            what = f"only {odds} would escape a redeal{also}, and at least {MIN_PLAYED_SHARE:.0%} must"
        fix = f"use at most {lowered}" if lowered else "lower it"
        return name, f"{what}; {fix}, or add redeal_limit_penalty (the third redeal in a row is played)"

    # ---- kernels --------------------------------------------------------------------------
    def to_array(self) -> np.ndarray:
        """The record as the int64 array kernels read (offsets in ``sim.game.rules_layout``)."""
        a = np.zeros(R.N_FIELDS, dtype=np.int64)
        a[R.MIN_BID] = self.min_bid
        a[R.BID_STEP] = self.bid_step
        a[R.FORCED_FIRST_BID] = self.forced_first_bid
        a[R.NO_BID_CAP] = self.no_bid_cap
        a[R.MAX_CONTRACT] = self.max_contract
        a[R.NO_JUMP_BIDS] = self.no_jump_bids
        a[R.CONCEDE] = self.concede
        a[R.CONCEDE_60] = self.concede_60
        a[R.CONCEDE_NO_DEDUCTION] = self.concede_no_deduction
        a[R.CONCEDE_ON_BARREL] = self.concede_on_barrel
        a[R.ROUND_DECLARER] = self.round_declarer
        a[R.MARRIAGE_VALUE: R.MARRIAGE_VALUE + 4] = self.marriage_values
        a[R.BOLT_PENALTY] = self.bolt_penalty
        a[R.TARGET] = self.target
        a[R.BARREL] = 0 if self.barrel is None else self.barrel
        a[R.BARREL_MIN_CONTRACT] = self.barrel_min_contract
        a[R.BARREL_ATTEMPTS] = self.barrel_attempts
        a[R.BARREL_PENALTY] = self.barrel_penalty
        a[R.BARREL_KNOCK_OFF] = self.barrel_knock_off
        a[R.BARREL_SIMULTANEOUS_PENALTY] = self.barrel_simultaneous_penalty
        a[R.BARREL_FALLS_TO_ZERO] = self.barrel_falls_to_zero
        a[R.DUMP_TRUCK] = self.dump_truck
        a[R.DUMP_TRUCK_NEGATIVE] = self.dump_truck_negative
        a[R.MUST_HEAD] = self.must_head
        a[R.MARRIAGE_FIRST_LEAD] = self.marriage_first_lead
        a[R.MARRIAGE_BURNS_WITHOUT_TRICK] = self.marriage_burns_without_trick
        a[R.MARRIAGE_OPTIONAL] = self.marriage_optional
        a[R.ACE_MARRIAGE] = self.ace_marriage
        a[R.HALF_MARRIAGE] = self.half_marriage
        a[R.NO_LEAD_FOREIGN_TRUMP] = self.no_lead_foreign_trump
        a[R.MUST_LEAD_TRUMP] = self.must_lead_trump
        a[R.MARRIAGE_MIN_CARDS] = self.marriage_min_cards
        a[R.MARRIAGE_TRUMP_FROM] = R.MARRIAGE_TRUMP_FROM_NAMES.index(self.marriage_trump_from)
        a[R.SILENCE_ON] = self.silence_below is not None
        a[R.SILENCE_BELOW] = 0 if self.silence_below is None else self.silence_below
        a[R.NO_ACES_TENS_IN_DISCARD] = self.no_aces_tens_in_discard
        a[R.CONCEDE_LIMIT] = self.concede_limit
        a[R.CONCEDE_THIRD_PENALTY] = self.concede_third_penalty
        a[R.BOLT_ON] = R.BOLT_ON_NAMES.index(self.bolt_on)
        a[R.BOLT_COUNT] = R.BOLT_COUNT_NAMES.index(self.bolt_count)
        a[R.BOLT_OWN_GAME_EXEMPT] = self.bolt_own_game_exempt
        a[R.BARREL_TALON_FREE] = self.barrel_talon_free
        a[R.BARREL_FORCED_LAST] = self.barrel_forced_last
        a[R.FOUR_NINES_BONUS] = self.four_nines_bonus
        a[R.REDEAL_ASK] = self.redeal_policy == "always"
        a[R.REDEAL_HAND_POINTS_BELOW] = self.redeal_hand_points_below
        a[R.REDEAL_FOUR_NINES] = self.redeal_four_nines
        a[R.REDEAL_THREE_NINES] = self.redeal_three_nines
        a[R.REDEAL_TALON_POINTS_BELOW] = self.redeal_talon_points_below
        a[R.REDEAL_TALON_ONLY_AT_100] = self.redeal_talon_only_at_100
        a[R.REDEAL_TALON_TWO_NINES] = self.redeal_talon_two_nines
        a[R.REDEAL_TALON_THREE_JACKS] = self.redeal_talon_three_jacks
        a[R.REDEAL_FOUR_ACES] = self.redeal_four_aces
        a[R.REDEAL_FOUR_NINES_AFTER_TALON] = self.redeal_four_nines_after_talon
        a[R.REDEAL_LIMIT_PENALTY] = self.redeal_limit_penalty
        a[R.REDEAL_ANY] = a[R.REDEAL_HAND_POINTS_BELOW:R.REDEAL_LIMIT_PENALTY].any()
        a[R.DARK_GAME] = self.dark_game
        a[R.DARK_MIN_ON] = self.dark_min_score is not None
        a[R.DARK_MIN_SCORE] = 0 if self.dark_min_score is None else self.dark_min_score
        a[R.BOLT_DOUBLE_IN_DARK] = self.bolt_double_in_dark
        a[R.GOLDEN_ROUND] = self.golden_round
        a[R.BARREL_ACCUMULATE] = self.barrel_accumulate
        a[R.TALON_HIDDEN_AT_100] = self.talon_hidden_at_100
        a[R.TALON_TO_DECLARER_ONLY] = self.talon_shown_to_declarer_only
        a[R.DISCARD_FACE_DOWN] = self.discard_face_down
        a[R.WIN_ONLY_AS_DECLARER] = self.win_only_as_declarer
        a[R.PLAYERS] = self.players
        a[R.SITOUT_HALF_MARRIAGE] = self.sitout_half_marriage
        a[R.TWO_PLAYER_TALON] = self.two_player_talon
        a[R.CONCEDE_HALF_FLOOR] = self.concede_payout == "half_floor"
        a[R.ROUND_UNIT], a[R.ROUND_OFFSET] = R.ROUNDINGS[self.rounding]
        a[R.DECLARER_SCORES_POINTS] = self.declarer_scores == "points"
        a[R.WIN_SCORE_CAPPED] = self.win_score_capped
        a[R.BOLT_EXEMPT_KEEPS_RUN] = self.bolt_exempt_keeps_run
        a[R.NO_WIN_PENALTY] = R.NO_WIN_PENALTY_NAMES.index(self.no_win_penalty)
        a[R.NO_WIN_PENALTY_AMOUNT] = self.no_win_penalty_amount
        a[R.SITOUT_CARDS], a[R.SITOUT_MARRIAGE] = R.SITOUT_SCORES[self.sitout_scores]
        a[R.DUMP_TRUCK_VALUE] = self.dump_truck_value
        a[R.DARK_DEFENDERS_DOUBLED] = self.dark_defenders_doubled
        a[R.GOLDEN_DEFENDERS_ROUNDED] = self.golden_defenders == "doubled_rounded"
        a[R.BOLT_DOUBLE_IN_GOLDEN] = self.bolt_double_in_golden
        a[R.FORCED_BID_SEAT] = R.FORCED_BID_SEAT_NAMES.index(self.forced_bid_seat)
        a[R.ALL_PASS] = R.ALL_PASS_NAMES.index(self.all_pass)
        a[R.BID_CEILING_BEFORE_TALON] = self.bid_ceiling_before_talon or 0
        a[R.BID_STEP_10_FROM] = self.bid_step_10_from or 0
        a[R.BARREL_MIN_BID_ENFORCED] = self.barrel_min_bid_enforced
        a[R.BARREL_FAILED_STAYS] = self.barrel_failed_contract == "stays"
        a[R.BARREL_FREEZE] = self.barrel_freeze
        a[R.BARREL_JUMP_WINS] = self.barrel_jump_wins or not self.barrel_freeze  # the range barrel implies it
        a[R.BARREL_DEFENCE_WINS] = self.barrel_defence_wins
        a[R.BARREL_SIMULTANEOUS_KEEPER] = self.barrel_simultaneous_keeper == "declarer_else_lowest_seat"
        a[R.BARREL_COLLISION] = R.BARREL_COLLISION_NAMES.index(self.barrel_collision)
        a[R.CONCEDE_FREE_AT_MIN_BID] = self.concede_free_at_min_bid
        a[R.BARREL_FALLS_ATTEMPTS_ONLY] = self.barrel_falls_counted == "attempts_only"
        a[R.WIN_TIE_LOWEST_SEAT] = self.target_tie == "lowest_seat"
        a[R.NO_RAISE_AFTER_TALON] = self.no_raise_after_talon
        return a

    def forced_position(self) -> int | None:
        """Where the forced opening bid (forced_first_bid) lies, counted clockwise from the dealer:
        1 first hand, 0 the dealer under forced_bid_seat = dealer; None without forced_first_bid.
        It asks the engine (``sim.game.bids_nb.forced_seat``), so no analysis can name another seat."""
        if not self.forced_first_bid:
            return None

        return int(forced_seat(0, 3, self.to_array()))

    def round_points(self, points):
        """``points`` (an integer or a numpy integer array) rounded by ``rounding``, as the engine's
        ``sim.game.play_nb.round_points`` does (for Python code that recomputes scores)."""
        return round_points_of(points, self.to_array())


# (least, greatest, step) of every integer option, within what the game means and what the
# kernels' integer columns hold (scores int32, per-deal results and changes int16).
RANGES: dict[str, tuple[int, int, int]] = {
    "players": (2, 4, 1),
    "two_player_talon": (2, 3, 1),
    "redeal_hand_points_below": (0, 60, 1),
    "redeal_talon_points_below": (0, 31, 1),
    "min_bid": (60, 200, 5),
    "bid_step": (5, 10, 5),
    "max_contract": (120, 400, 5),
    "silence_below": (-3000, 0, 1),
    "concede_limit": (0, 10, 1),
    "marriage_min_cards": (2, 8, 1),
    "marriage_values": (5, 200, 5),
    "ace_marriage": (0, 400, 5),
    "four_nines_bonus": (0, 500, 5),
    "bolt_penalty": (0, 1000, 5),
    "no_win_penalty_amount": (5, 1000, 5),
    "dump_truck_value": (100, 995, 5),
    "target": (300, 3000, 5),
    "barrel": (5, 2995, 5),
    "barrel_min_contract": (5, 400, 5),
    "barrel_attempts": (0, 10, 1),
    "barrel_penalty": (0, 1000, 5),
    "barrel_falls_to_zero": (0, 10, 1),
    "dark_min_score": (-3000, 3000, 1),
    "bid_ceiling_before_talon": (60, 400, 5),
    "bid_step_10_from": (70, 400, 10),
}
# may also be none
OPTIONAL = frozenset({"silence_below", "barrel", "dark_min_score", "bid_ceiling_before_talon", "bid_step_10_from"})
# The redeal rules must leave at least this share of deals to play unless redeal_limit_penalty
# caps repeated redeals: below it a game of 40 deals takes over 800 dealings, near the harness's
# limit of 2,000 a game (sim.engine.MAX_DEALS_PER_GAME).
MIN_PLAYED_SHARE = 0.05
REDEAL_CONDITIONS = ("redeal_hand_points_below", "redeal_four_nines", "redeal_three_nines", "redeal_four_aces",
                     "redeal_talon_points_below", "redeal_talon_two_nines", "redeal_talon_three_jacks")
# Options that mean nothing without a barrel. (redeal_policy = never with redeal options is not a
# contradiction: the policy is how the simulated players decide, and the rules still allow redeals.)
BARREL_OPTIONS = ("barrel_min_contract", "barrel_attempts", "barrel_penalty", "barrel_knock_off",
                  "barrel_simultaneous_penalty", "barrel_falls_to_zero", "barrel_talon_free", "barrel_accumulate",
                  "barrel_forced_last", "win_score_capped", "barrel_min_bid_enforced", "barrel_failed_contract",
                  "barrel_freeze", "barrel_jump_wins", "barrel_defence_wins", "barrel_simultaneous_keeper",
                  "barrel_collision", "barrel_falls_counted")


def _largest(ok, hi: int) -> int | None:
    """The largest v in 1..hi with ok(v), for an ok that holds up to some value and not above it
    (a higher redeal threshold only redeals more deals); None if ok(1) fails."""
    lo = 0  # ok(lo) is taken to hold; hi + 1 not to
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if ok(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo or None


def _range_text(lo: int, hi: int, step: int) -> str:
    if step == 1:
        return f"an integer from {lo} to {hi}"
    if (lo, hi, step) == (5, 10, 5):
        return "5 or 10"
    return f"a multiple of {step} from {lo} to {hi}"


PRESETS: dict[str, dict[str, Any]] = {
    "classic": {},
    "online": {
        "marriage_first_lead": True, "marriage_burns_without_trick": True,
        "bolt_on": "three_passes", "bolt_count": "each", "dump_truck": False,
    },
    "strict": {"must_head": True, "no_aces_tens_in_discard": True, "talon_shown_to_declarer_only": True},
    "short": {"target": 555, "barrel": 440},
    "long": {"target": 1500, "barrel": 1380},
    # Issue 28 item 12: Tysiąc as the Polish game plays it, and the default rules of the two
    # richest open-source games (docs/peer-rules.md §12; side by side in docs/RULES.md).
    # Issue 45: polish throws the deal after the talon (60 each, free at 100) and never raises; mekedron
    # passes the gifts face down and counts only falls from running out of attempts, and gives a tie at the
    # target between non-declarers to the lowest seat.
    "polish": {
        "bid_step": 10, "no_jump_bids": True, "talon_hidden_at_100": True, "no_raise_after_talon": True,
        "concede_60": True, "concede_on_barrel": True, "concede_free_at_min_bid": True,
        "rounding": "ten", "declarer_scores": "points",
        "marriage_first_lead": True, "marriage_burns_without_trick": True, "bolt_penalty": 0,
        "barrel": 800, "barrel_freeze": False, "barrel_attempts": 0, "barrel_knock_off": False,
        "barrel_simultaneous_penalty": False, "barrel_falls_to_zero": 0, "dump_truck": False,
    },
    "tysyacha_1000": {
        "redeal_hand_points_below": 14, "redeal_four_nines": True, "redeal_talon_points_below": 5,
        "redeal_talon_only_at_100": True, "forced_bid_seat": "dealer", "silence_below": -120,
        "discard_face_down": True, "concede_60": True, "concede_limit": 3, "concede_on_barrel": True,
        "marriage_optional": True, "bolt_count": "consecutive", "bolt_own_game_exempt": True,
        "bolt_exempt_keeps_run": True, "barrel_knock_off": False, "barrel_simultaneous_penalty": False,
        "barrel_falls_to_zero": 0, "barrel_failed_contract": "stays", "dark_game": True, "dark_min_score": 240,
        "dark_defenders_doubled": False,
    },
    "mekedron": {
        "forced_first_bid": False, "all_pass": "dealer_plays", "no_bid_cap": True, "max_contract": 400,
        "bid_ceiling_before_talon": 120, "bid_step_10_from": 200, "concede_payout": "half_floor",
        "concede_third_penalty": True, "concede_on_barrel": True, "round_declarer": True, "must_head": True,
        "marriage_trump_from": "next_trick", "no_win_penalty": "cumulative",
        "barrel_simultaneous_keeper": "declarer_else_lowest_seat", "barrel_failed_contract": "stays",
        "barrel_jump_wins": True, "barrel_defence_wins": True, "win_score_capped": True,
        "dump_truck_negative": True, "discard_face_down": True, "barrel_falls_counted": "attempts_only",
        "target_tie": "lowest_seat",
    },
}


def preset(name: str) -> HouseRules:
    if name not in PRESETS:
        raise RulesError(f"unknown preset {name!r}; presets are: {', '.join(PRESETS)}")
    return HouseRules.from_dict(PRESETS[name], source=f"preset {name!r}")


def recorded_rules_are(recorded: Any, rules: HouseRules) -> bool:
    """Whether rules recorded with a shipped result (``to_dict()`` as a manifest or table metadata
    holds it) are ``rules``: the effective rules are compared, so an option added since the result
    was made reads as its default, which keeps the game it was made under; recorded rules this code
    refuses, or that are no table of options, match nothing."""
    try:
        return isinstance(recorded, dict) and HouseRules.from_dict(recorded) == rules
    except RulesError:
        return False


def load_rules(spec: str | Path | HouseRules | None) -> HouseRules:
    """A preset name or a TOML file (which may start from ``preset = "name"``), or a ``HouseRules``
    built in Python, checked by the same ``HouseRules.validate`` as a file's rules (a record built
    directly is not checked when it is made: ``HouseRules(min_bid=-5)`` is refused here, naming the
    argument ``rules``, before any analysis plays it). Anything else is refused, naming ``rules``:
    a path is never made of a number or a record of another kind."""
    if isinstance(spec, HouseRules):
        try:
            spec.validate()
        except RulesError as exc:
            raise RulesError(f"rules: {exc}") from None
        return spec
    if spec is not None and not isinstance(spec, str | os.PathLike):
        raise RulesError(f"rules must be a preset name ({', '.join(PRESETS)}), a TOML file or a HouseRules, "
                         f"not {spec!r} ({type(spec).__name__})")
    if spec is None or str(spec) == "":
        return HouseRules()
    text = str(spec)
    if text in PRESETS:
        return preset(text)
    path = Path(text)
    if not path.exists():
        raise RulesError(f"rules {text!r} is neither a preset ({', '.join(PRESETS)}) nor an existing file")
    if not path.is_file():
        raise RulesError(f"rules {text!r} is a directory, not a rules file")
    try:
        # utf-8-sig: a byte-order mark, as some Windows editors write one, is no TOML error.
        data = tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise RulesError(f"{path}: not valid TOML: {exc}") from None
    except OSError as exc:
        raise RulesError(f"{path}: cannot be read ({exc.strerror})") from None
    data = _rules_table(data, path)
    base = preset(str(data.pop("preset", "classic")))
    if "barrel" in data and str(data["barrel"]).lower() == "none":
        data["barrel"] = None
    return HouseRules.from_dict(data, base=base, source=str(path))


def rules_file_text(rules: HouseRules) -> str:
    """``rules`` as a rules file ``load_rules`` reads back as the same rules: ``preset = "classic"``
    and each option that differs from classic (an option unset, None, written ``"none"``)."""
    def value(v: Any) -> str:
        if v is None:
            return '"none"'
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, tuple):
            return "[" + ", ".join(str(int(x)) for x in v) + "]"
        if isinstance(v, int):
            return str(v)
        return json.dumps(str(v))  # a TOML basic string: JSON's escapes are TOML's

    lines = ["# written by thousand: the rules of the records beside it (docs/records.md)", 'preset = "classic"']
    lines += [f"{name} = {value(v)}" for name, v in rules.changes_from(preset("classic")).items()]
    return "\n".join(lines) + "\n"


def _rules_table(data: dict[str, Any], path: Path) -> dict[str, Any]:
    """The options of a rules file: its top-level keys, or all of them in one ``[rules]`` table.
    Both at once, or any other table, is refused rather than read in part (a key beside the
    table would otherwise be silently dropped)."""
    def is_table(value):  # a [table] or an [[array of tables]]
        return isinstance(value, dict) or (
            isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value))

    if isinstance(data.get("rules"), dict):
        beside = [k for k in data if k != "rules"]
        tables = [k for k in beside if is_table(data[k])]
        if tables:
            raise RulesError(f"{path}: unknown table{'s' if len(tables) > 1 else ''} "
                             f"{', '.join(f'[{k}]' for k in tables)}: a rules file has only a [rules] table")
        if beside:
            raise RulesError(f"{path}: {', '.join(map(repr, beside))} outside the [rules] table: put every option "
                             "(preset included) in [rules], or drop the [rules] line and write them all at the top")
        data, where = data["rules"], "rules."
    else:
        where = ""
    tables = [k for k, v in data.items() if is_table(v)]
    if tables:
        raise RulesError(f"{path}: unknown table{'s' if len(tables) > 1 else ''} "
                         f"{', '.join(f'[{where}{k}]' for k in tables)}: a rules file holds its options at the top "
                         "or in one [rules] table")
    return dict(data)


def _coerce(name: str, value: Any, current: Any, source: str) -> Any:
    def bad(expect):
        raise RulesError(f"{source}: house rule {name!r} must be {expect}, got {value!r}")

    spec = HouseRules.__dataclass_fields__[name]
    if isinstance(current, bool) or spec.type == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false", "on", "off", "yes", "no"):
            return value.lower() in ("true", "on", "yes")
        bad("true or false")
    if name == "marriage_values":
        if isinstance(value, str):
            value = [v for v in value.replace(",", " ").split() if v]
        try:
            vals = tuple(_integer(v) for v in value)
        except (TypeError, ValueError):
            bad("four integers (S C D H)")
        if len(vals) != 4:
            bad("four integers (S C D H)")
        return vals
    if spec.type in ("int | None",):
        if value is None or (isinstance(value, str) and value.lower() in ("none", "off")):
            return None
    if spec.type in ("int", "int | None"):
        try:
            return _integer(value)
        except (TypeError, ValueError):
            bad("an integer")
    if spec.type == "str":
        return str(value)
    return value


def _integer(value: Any) -> int:
    """An integer written as one (or as a whole float such as 900.0, or as text): never a truncated
    fraction, never a bool."""
    if isinstance(value, bool):
        raise TypeError("a bool is not an integer")
    if isinstance(value, float):
        if not value.is_integer():
            raise ValueError("not a whole number")
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        return int(value.strip())
    raise TypeError(f"{type(value).__name__} is not an integer")


def _suggest(name: str, known) -> str:
    close = difflib.get_close_matches(name, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def option_table() -> list[tuple[str, str, str, str]]:
    """(name, default, allowed values, meaning) for every option, in RULES.md order."""
    out = []
    for f in fields(HouseRules):
        d = f.default
        out.append((f.name, "none" if d is None else str(list(d) if isinstance(d, tuple) else d),
                    f.metadata["allowed"], f.metadata["meaning"]))
    return out
