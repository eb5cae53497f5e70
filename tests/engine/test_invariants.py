"""Invariants of the engine's stored deals and games, checked against the pure-Python reference in
tests/reference_game.py (written from the rules, not from the engine) and with vectorized Polars
checks over whole frames.

Default run: a hundred games (a few thousand deals) for each of several player mixes and house
rules (the play options of RULES.md §4.4 among them), a few thousand all-random or mixed
independent deals, and a few double-dummy deals, every row replayed by the reference.
``--runslow`` adds 100,000 games through the batch runner: vectorized checks on every row, the
game-rule replay on every game, the full deal replay on a sample of 20,000 deals.

The house rules of RULES.md §4.2–§4.7 that the engine plays (thrown-in deals, redeals, silence, the
discard ban, concession limits, four nines, bolt rules, the dark game, the golden round, the free
talon, the accumulating barrel) have their own configurations, alone and combined, and a
property-based test draws random combinations of every option of ``HouseRules``.

Four and two players (RULES.md §4.1) have configurations of their own, alone and with those house
rules: with two, both talon sizes (``two_player_talon``), heuristic and mixed games, all-random
deals and deals of the 2-seat double-dummy and PIMC players, and a test that the sample
meets what is particular to two seats (the other talon won by either side and deciding contracts,
the buried pair deciding them, the card put into the other talon, the burial under the discard
ban, every redeal reason, the game rules and event bits).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import zlib
from collections import Counter, defaultdict
from pathlib import Path

import polars as pl
import pytest
import reference_game as ref
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.engine import BatchSpec, play_chunk
from sim.game import rules_layout as R
from sim.game.rules import BARREL_OPTIONS, PRESETS, HouseRules, RulesError, preset
from sim.runs import run_batch, scan_deals, scan_games

SEATS = range(3)
HEURISTIC = ("heuristic", "heuristic", "heuristic")
MIXED = ("heuristic", "heuristic", "random")
MOSTLY_RANDOM = ("heuristic", "random", "random")
RANDOM = ("random", "random", "random")  # all-random games do not finish: deals mode only
LEADAGE = ("leadage", "heuristic", "leadage")  # the ported bot (sim/players/leadage_nb.py)
LEARNED = ("learned", "heuristic", "learned")  # the shipped weights (sim/players/weights/)
# players = 4 (RULES.md §4.1): one player per seat, four seats.
HEURISTIC4 = ("heuristic",) * 4
MIXED4 = ("heuristic", "random", "heuristic", "heuristic")
MOSTLY_RANDOM4 = ("heuristic", "random", "random", "random")
LEADAGE4 = ("leadage", "heuristic", "leadage", "random")
RANDOM4 = ("random",) * 4
FOUR = dict(players=4)
FOUR_HALF = dict(players=4, sitout_half_marriage=True)
# players = 2 (RULES.md §4.1): two seats, two talons of 2 (TWO3: of 3, the declarer putting a card
# into the other talon).
HEURISTIC2 = ("heuristic", "heuristic")
MIXED2 = ("heuristic", "random")
RANDOM2 = ("random", "random")
TWO = dict(players=2)
TWO3 = dict(players=2, two_player_talon=3)


def for_seats(players: tuple[str, ...], rules: HouseRules) -> tuple[str, ...]:
    """A 3-seat players tuple fitted to the seats of ``rules`` (its last player repeated, or the
    first two for two players)."""
    return (players + players[-1:] * rules.players)[:rules.players]


def with_rules(base: HouseRules, **changes) -> HouseRules:
    """``base`` with more options (a player count among them)."""
    return HouseRules(**{**base.changes_from(HouseRules()), **changes})

FAST_GAMES = 100
FAST_DEALS = 3000

# Play options of RULES.md §4.4 (meaning: docs/solver.md "Play rules").
ONLINE_PLAY = HouseRules(marriage_first_lead=True, marriage_burns_without_trick=True)
HALF_ACE_OPTIONAL = HouseRules(half_marriage=True, ace_marriage=200, marriage_optional=True)
LEAD_RULES = HouseRules(no_lead_foreign_trump=True, must_lead_trump=True)
ALL_PLAY_OPTIONS = HouseRules(must_head=True, marriage_first_lead=True, marriage_burns_without_trick=True,
                              marriage_optional=True, ace_marriage=200, half_marriage=True,
                              no_lead_foreign_trump=True, must_lead_trump=True, marriage_values=(60, 40, 100, 80))
# When marriages may be declared and take effect (issue 28 item 10, docs/RULES.md): urmomeesak's three
# cards, mekedron's trump from the next trick.
MARRIAGE_TIMING = HouseRules(marriage_min_cards=3, marriage_trump_from="next_trick")

# House rules of RULES.md §4.2-§4.7 (meaning: docs/RULES.md "Meaning of the options").
ALL_REDEALS = dict(redeal_hand_points_below=15, redeal_four_nines=True, redeal_three_nines=True,
                   redeal_four_aces=True, redeal_talon_points_below=5, redeal_talon_two_nines=True,
                   redeal_talon_three_jacks=True, redeal_four_nines_after_talon=True)
HOUSE_COMBINED = HouseRules(forced_first_bid=False, silence_below=-200, no_aces_tens_in_discard=True, concede_limit=4,
                            concede_third_penalty=True, four_nines_bonus=50, bolt_on="zero_points",
                            bolt_count="consecutive", bolt_own_game_exempt=True, redeal_hand_points_below=14,
                            redeal_three_nines=True, redeal_talon_two_nines=True, redeal_limit_penalty=True,
                            dark_game=True, bolt_double_in_dark=True, golden_round=True, barrel_talon_free=True)
HOUSE_COMBINED_2 = HouseRules(bolt_on="three_passes", bolt_count="each", bolt_double_in_dark=True,
                              dark_game=True, dark_min_score=0, barrel_forced_last=True, redeal_four_aces=True,
                              redeal_talon_points_below=10, redeal_talon_only_at_100=True, redeal_policy="always",
                              concede_third_penalty=True, concede_60=True, marriage_first_lead=True, golden_round=True,
                              target=555, barrel=440)

# The range barrel (barrel_freeze = false) needs the knock-off and the simultaneous penalty off.
RANGE = dict(barrel_freeze=False, barrel_knock_off=False, barrel_simultaneous_penalty=False)
RANGE_OFF_MEKEDRON = HouseRules(barrel_failed_contract="stays", barrel_jump_wins=True, barrel_defence_wins=True,
                                win_score_capped=True, barrel_simultaneous_keeper="declarer_else_lowest_seat")

# name: (players, rules); each option the engine plays today appears at least once.
GAME_CONFIGS = {
    "classic-heuristic": (HEURISTIC, HouseRules()),
    "classic-mixed": (MIXED, HouseRules()),
    "classic-mostly-random": (MOSTLY_RANDOM, HouseRules()),
    # The score-aware learned player (sim/players/learned/win_nb.py) where its win-chance tables ship.
    "learned-win-classic": (("learned-win", "learned", "heuristic"), preset("classic")),
    "learned-win-online": (("learned-win", "random", "learned-win"), preset("online")),
    "short": (MIXED, preset("short")),
    "long": (HEURISTIC, preset("long")),
    "no-concede": (MIXED, HouseRules(concede=False)),
    "no-barrel": (HEURISTIC, HouseRules(barrel=None)),
    "no-barrel-anyone-wins": (MIXED, HouseRules(barrel=None, win_only_as_declarer=False)),
    "falls-never-zero": (MIXED, HouseRules(barrel_falls_to_zero=0)),
    "first-fall-zeroes": (HEURISTIC, HouseRules(barrel_falls_to_zero=1)),
    "dump-truck-negative-only": (MIXED, HouseRules(dump_truck=False, dump_truck_negative=True)),
    "no-bolt-penalty": (MOSTLY_RANDOM, HouseRules(bolt_penalty=0)),
    "concede-60-on-barrel": (HEURISTIC, HouseRules(concede_60=True, concede_on_barrel=True)),
    "concede-no-deduction": (MOSTLY_RANDOM, HouseRules(concede_no_deduction=True)),
    "round-declarer": (MIXED, HouseRules(round_declarer=True)),
    "min-bid-120": (HEURISTIC, HouseRules(min_bid=120)),
    "step-10-no-jumps": (MIXED, HouseRules(bid_step=10, no_jump_bids=True)),
    "marriage-values": (MOSTLY_RANDOM, HouseRules(marriage_values=(100, 80, 60, 40))),
    "no-knock-off": (HEURISTIC, HouseRules(barrel_knock_off=False)),
    "no-simultaneous-penalty": (MIXED, HouseRules(barrel_simultaneous_penalty=False)),
    "barrel-variant": (MIXED, HouseRules(barrel_min_contract=125, barrel_attempts=2, barrel_penalty=150)),
    "no-bid-cap": (HEURISTIC, HouseRules(no_bid_cap=True, max_contract=200)),
    # Scoring variants of issue 28 (docs/RULES.md "Scoring variants"): Polish rounding, the declarer
    # scoring his points, the capped win, the concession half rounded down; and raw points.
    "polish-scoring": (MIXED, HouseRules(rounding="ten", declarer_scores="points", win_score_capped=True,
                                         concede_payout="half_floor")),
    "raw-points-round-declarer": (HEURISTIC, HouseRules(rounding="none", round_declarer=True,
                                                        declarer_scores="points", concede_on_barrel=True)),
    "ten-half-up-accumulate-capped": (MIXED, HouseRules(rounding="ten_half_up", barrel_accumulate=True,
                                                        win_score_capped=True)),
    # The play options of RULES.md §4.4, alone and combined.
    "online-play-heuristic": (HEURISTIC, ONLINE_PLAY),
    "online-play-mixed": (MIXED, ONLINE_PLAY),
    "must-head-heuristic": (HEURISTIC, HouseRules(must_head=True)),
    "must-head-mostly-random": (MOSTLY_RANDOM, HouseRules(must_head=True)),
    "half-ace-optional-heuristic": (HEURISTIC, HALF_ACE_OPTIONAL),
    "half-ace-optional-mixed": (MIXED, HALF_ACE_OPTIONAL),
    "lead-rules-heuristic": (HEURISTIC, LEAD_RULES),
    "no-lead-foreign-trump-mixed": (MIXED, HouseRules(no_lead_foreign_trump=True)),
    "must-lead-trump-mostly-random": (MOSTLY_RANDOM, HouseRules(must_lead_trump=True)),
    "marriage-values-half": (MIXED, HouseRules(marriage_values=(100, 80, 60, 40), half_marriage=True)),
    "all-play-options-mixed": (MIXED, ALL_PLAY_OPTIONS),
    "marriage-timing-heuristic": (HEURISTIC, MARRIAGE_TIMING),
    "marriage-timing-next-trick-half-lead-rules-mixed": (MIXED, HouseRules(
        marriage_trump_from="next_trick", half_marriage=True, no_lead_foreign_trump=True, must_head=True)),
    "marriage-timing-five-cards-online-mostly-random": (MOSTLY_RANDOM, with_rules(ONLINE_PLAY, marriage_min_cards=5)),
    # The ported bot under the classic rules, the play options and the house rules.
    "leadage-classic": (LEADAGE, HouseRules()),
    "leadage-all-play-options": (LEADAGE, ALL_PLAY_OPTIONS),
    "leadage-house-combined-2": (LEADAGE, HOUSE_COMBINED_2),
    "leadage-dark-golden-step-10": (LEADAGE, HouseRules(dark_game=True, golden_round=True, bid_step=10,
                                                        concede_no_deduction=True, no_aces_tens_in_discard=True)),
    "four-leadage": (LEADAGE4, HouseRules(**FOUR_HALF, dark_game=True)),
    # The house rules of RULES.md §4.2-§4.7, alone and combined.
    "thrown-in-mixed": (MIXED, HouseRules(forced_first_bid=False)),
    "thrown-in-three-passes-mostly-random": (MOSTLY_RANDOM, HouseRules(forced_first_bid=False,
                                                                       bolt_on="three_passes")),
    "silence-mostly-random": (MOSTLY_RANDOM, HouseRules(silence_below=-120)),
    "no-aces-tens-heuristic": (HEURISTIC, HouseRules(no_aces_tens_in_discard=True)),
    "concede-limit-third-penalty-mixed": (MIXED, HouseRules(concede_limit=4, concede_third_penalty=True)),
    "concede-limit-1-mostly-random": (MOSTLY_RANDOM, HouseRules(concede_limit=1)),
    "four-nines-bonus-mostly-random": (MOSTLY_RANDOM, HouseRules(four_nines_bonus=50)),
    "zero-points-own-exempt-mixed": (MIXED, HouseRules(bolt_on="zero_points", bolt_own_game_exempt=True)),
    "online-preset-mixed": (MIXED, preset("online")),
    # Issue 45, rules of real tables: the presets that play them, and the options alone.
    "polish-preset-mixed": (MIXED, preset("polish")),
    "polish-preset-leadage": (LEADAGE, preset("polish")),
    "mekedron-preset-mixed": (MIXED, preset("mekedron")),
    "mekedron-preset-mostly-random": (MOSTLY_RANDOM, preset("mekedron")),
    "free-throw-no-raise-heuristic": (HEURISTIC, HouseRules(concede_free_at_min_bid=True, no_raise_after_talon=True,
                                                            concede_on_barrel=True)),
    "falls-attempts-only-tie-lowest-mostly-random": (MOSTLY_RANDOM, HouseRules(
        barrel_falls_counted="attempts_only", barrel_falls_to_zero=2, target_tie="lowest_seat",
        barrel_jump_wins=True, barrel_defence_wins=True)),
    "four-falls-attempts-only-tie-lowest-mixed": (MIXED4, HouseRules(
        **FOUR, barrel_falls_counted="attempts_only", target_tie="lowest_seat", barrel_jump_wins=True,
        concede_free_at_min_bid=True, no_raise_after_talon=True)),
    "consecutive-bolts-mostly-random": (MOSTLY_RANDOM, HouseRules(bolt_count="consecutive")),
    "redeals-penalty-mostly-random": (MOSTLY_RANDOM, HouseRules(**ALL_REDEALS, redeal_limit_penalty=True)),
    "redeal-talon-at-100-heuristic": (HEURISTIC, HouseRules(redeal_talon_points_below=10, redeal_talon_only_at_100=True,
                                                            redeal_limit_penalty=True)),
    "redeal-never-mixed": (MIXED, HouseRules(**ALL_REDEALS, redeal_policy="never")),
    "dark-double-bolt-mostly-random": (MOSTLY_RANDOM, HouseRules(dark_game=True, bolt_double_in_dark=True)),
    "dark-min-score-heuristic": (HEURISTIC, HouseRules(dark_game=True, dark_min_score=240)),
    "golden-round-mostly-random": (MOSTLY_RANDOM, HouseRules(golden_round=True)),
    "golden-round-heuristic": (HEURISTIC, HouseRules(golden_round=True)),
    "dark-golden-peer-scoring-mostly-random": (MOSTLY_RANDOM, HouseRules(
        dark_game=True, dark_defenders_doubled=False, golden_round=True, golden_defenders="doubled_rounded",
        bolt_double_in_golden=True, bolt_count="each")),
    "talon-free-mixed": (MIXED, HouseRules(barrel_talon_free=True)),
    "forced-last-mostly-random": (MOSTLY_RANDOM, HouseRules(barrel_forced_last=True)),
    "accumulate-mixed": (MIXED, HouseRules(barrel_accumulate=True)),
    # A free talon for an accumulating sitter is bid at 120, not at barrel_min_contract = 125.
    "accumulate-talon-free-125": (MIXED, HouseRules(barrel_accumulate=True, barrel_talon_free=True,
                                                     barrel_min_contract=125)),
    # Barrel variants of issue 28 item 7 (docs/RULES.md "Barrel variants"): mekedron's frozen barrel (a failed
    # contract stays, jumps and defences win, the win capped, same-deal climbers kept), the range barrel of
    # urmomeesak (880, three deals) and of iamfilip98 (800, no limit), and the collision rules.
    "barrel-peers-mekedron-mixed": (MIXED, RANGE_OFF_MEKEDRON),
    "range-barrel-mixed": (MIXED, HouseRules(**RANGE)),
    "range-barrel-800-unlimited-heuristic": (HEURISTIC, HouseRules(**RANGE, barrel=800, barrel_attempts=0)),
    "range-barrel-800-stays-defence-mostly-random": (MOSTLY_RANDOM, HouseRules(
        **RANGE, barrel=800, barrel_attempts=1, barrel_failed_contract="stays", barrel_defence_wins=True,
        barrel_talon_free=True, barrel_min_contract=125, win_score_capped=True, bolt_count="each")),
    "collision-sitter-stays-mostly-random": (MOSTLY_RANDOM, HouseRules(barrel_collision="sitter_stays",
                                                                       barrel_simultaneous_penalty=False)),
    "collision-both-fall-keeper-mixed": (MIXED, HouseRules(barrel_collision="both_fall", barrel_jump_wins=True,
                                                           barrel_simultaneous_keeper="declarer_else_lowest_seat")),
    "accumulate-jump-sitter-stays-mixed": (MIXED, HouseRules(barrel_accumulate=True, barrel_jump_wins=True,
                                                             barrel_collision="sitter_stays")),
    "house-combined-mixed": (MIXED, HOUSE_COMBINED),
    "house-combined-2-mostly-random": (MOSTLY_RANDOM, HOUSE_COMBINED_2),
    # Bolt, no-win and dump-truck options of issue 28 (docs/RULES.md "Bolts, the no-win streak, the dealer
    # sitting out and the dump truck").
    "no-win-consecutive-mostly-random": (MOSTLY_RANDOM, HouseRules(no_win_penalty="consecutive")),
    "no-win-cumulative-keeps-run-mixed": (MIXED, HouseRules(no_win_penalty="cumulative", no_win_penalty_amount=150,
                                                            bolt_count="consecutive", bolt_own_game_exempt=True,
                                                            bolt_exempt_keeps_run=True, dump_truck_value=100)),
    "four-sitout-marriage-no-win-mostly-random": (MOSTLY_RANDOM4, HouseRules(**FOUR_HALF, sitout_scores="marriage",
                                                                             no_win_penalty="consecutive")),
    "four-sitout-cards-keeps-run-mixed": (MIXED4, HouseRules(**FOUR, sitout_scores="cards", bolt_on="zero_points",
                                                             bolt_count="consecutive", bolt_own_game_exempt=True,
                                                             bolt_exempt_keeps_run=True)),
    # Auction options of issue 28 (docs/RULES.md "The forced bid, all passing, the ceiling and step before
    # the talon"): the dealer's forced bid with everything tied to it (dark, silence, the talon hidden or
    # redealt after an uncontested forced bid), the dealer playing when all pass, mekedron's ceiling and
    # step, the sitter's minimum (his forced bid too).
    "forced-dealer-dark-silence-mostly-random": (MOSTLY_RANDOM, HouseRules(
        forced_bid_seat="dealer", dark_game=True, silence_below=-120, talon_hidden_at_100=True,
        redeal_talon_points_below=10, redeal_talon_only_at_100=True, redeal_limit_penalty=True)),
    "forced-dealer-sitter-minimum-heuristic": (HEURISTIC, HouseRules(forced_bid_seat="dealer",
                                                                     barrel_min_bid_enforced=True)),
    "sitter-minimum-step-10-no-jumps-mixed": (MIXED, HouseRules(barrel_min_bid_enforced=True, bid_step=10,
                                                                no_jump_bids=True, barrel_min_contract=125)),
    "dealer-plays-sitter-minimum-mixed": (MIXED, HouseRules(forced_first_bid=False, all_pass="dealer_plays",
                                                            barrel_min_bid_enforced=True, silence_below=0)),
    "mekedron-auction-mixed": (MIXED, HouseRules(forced_first_bid=False, all_pass="dealer_plays", no_bid_cap=True,
                                                 max_contract=400, bid_ceiling_before_talon=120,
                                                 bid_step_10_from=200)),
    "ceiling-step-10-from-150-mostly-random": (MOSTLY_RANDOM, HouseRules(bid_ceiling_before_talon=170,
                                                                         bid_step_10_from=150,
                                                                         barrel_min_bid_enforced=True,
                                                                         barrel_min_contract=125)),
    "leadage-forced-dealer-step-10-from": (LEADAGE, HouseRules(forced_bid_seat="dealer", bid_step_10_from=150,
                                                               barrel_min_bid_enforced=True, dark_game=True)),
    "two-dealer-plays-ceiling-mixed": (MIXED2, HouseRules(**TWO, forced_first_bid=False, all_pass="dealer_plays",
                                                          bid_ceiling_before_talon=130, bid_step_10_from=150)),
    "two-talon3-forced-dealer-sitter-minimum-mixed": (MIXED2, HouseRules(**TWO3, forced_bid_seat="dealer",
                                                                         barrel_min_bid_enforced=True,
                                                                         dark_game=True)),
    "four-sitter-minimum-step-10-from-mixed": (MIXED4, HouseRules(**FOUR, barrel_min_bid_enforced=True,
                                                                  bid_step_10_from=130)),
    # Four players: the dealer sits out (RULES.md §4.1), alone and with the other house rules.
    "four-heuristic": (HEURISTIC4, HouseRules(**FOUR)),
    "four-half-mixed": (MIXED4, HouseRules(**FOUR_HALF)),
    "four-mostly-random": (MOSTLY_RANDOM4, HouseRules(**FOUR)),
    "four-short-half-heuristic": (HEURISTIC4, HouseRules(**FOUR_HALF, target=555, barrel=440)),
    "four-no-barrel-anyone-wins": (MIXED4, HouseRules(**FOUR, barrel=None, win_only_as_declarer=False)),
    "four-consecutive-bolts-mostly-random": (MOSTLY_RANDOM4, HouseRules(**FOUR, bolt_count="consecutive")),
    "four-three-passes-mixed": (MIXED4, HouseRules(**FOUR, bolt_on="three_passes", forced_first_bid=False)),
    "four-accumulate-mixed": (MIXED4, HouseRules(**FOUR_HALF, barrel_accumulate=True)),
    "four-talon-free-mixed": (MIXED4, HouseRules(**FOUR, barrel_talon_free=True, barrel_knock_off=False)),
    "four-redeals-penalty-mostly-random": (MOSTLY_RANDOM4, HouseRules(**FOUR, **ALL_REDEALS,
                                                                      redeal_limit_penalty=True)),
    "four-golden-dark-heuristic": (HEURISTIC4, HouseRules(**FOUR_HALF, golden_round=True, dark_game=True,
                                                          bolt_double_in_dark=True)),
    "four-golden-round-mostly-random": (MOSTLY_RANDOM4, HouseRules(**FOUR, golden_round=True)),
    "four-range-barrel-stays-mixed": (MIXED4, HouseRules(**FOUR, **RANGE, barrel_failed_contract="stays")),
    "four-keeper-defence-mostly-random": (MOSTLY_RANDOM4, HouseRules(
        **FOUR, barrel_simultaneous_keeper="declarer_else_lowest_seat", barrel_defence_wins=True,
        barrel_collision="both_fall")),
    "four-house-combined-mixed": (MIXED4, HouseRules(**{**HOUSE_COMBINED.changes_from(HouseRules()), **FOUR_HALF})),
    "four-house-combined-2-mostly-random": (MOSTLY_RANDOM4, HouseRules(**{**HOUSE_COMBINED_2.changes_from(HouseRules()),
                                                                          **FOUR})),
    "four-all-play-options-mixed": (MIXED4, HouseRules(**{**ALL_PLAY_OPTIONS.changes_from(HouseRules()), **FOUR})),
    # Two players: two talons, the burial, the other talon to the last trick (RULES.md §4.1), alone
    # and with the other house rules; both talon sizes.
    "two-heuristic": (HEURISTIC2, HouseRules(**TWO)),
    "two-mixed": (MIXED2, HouseRules(**TWO)),
    "two-talon3-heuristic": (HEURISTIC2, HouseRules(**TWO3)),
    "two-talon3-mixed": (MIXED2, HouseRules(**TWO3)),
    "two-no-aces-tens-heuristic": (HEURISTIC2, HouseRules(**TWO, no_aces_tens_in_discard=True)),
    "two-talon3-no-aces-tens-mixed": (MIXED2, HouseRules(**TWO3, no_aces_tens_in_discard=True)),
    "two-short-barrel-variant-mixed": (MIXED2, HouseRules(**TWO, target=555, barrel=440, barrel_min_contract=125,
                                                          barrel_attempts=2, barrel_penalty=150)),
    "two-talon3-no-knock-off-talon-free-mixed": (MIXED2, HouseRules(**TWO3, barrel_knock_off=False,
                                                                    barrel_simultaneous_penalty=False,
                                                                    barrel_talon_free=True)),
    "two-falls-zero-dump-negative-heuristic": (HEURISTIC2, HouseRules(**TWO, barrel_falls_to_zero=1,
                                                                      dump_truck_negative=True)),
    "two-no-barrel-anyone-wins-mixed": (MIXED2, HouseRules(**TWO3, barrel=None, win_only_as_declarer=False)),
    "two-accumulate-mixed": (MIXED2, HouseRules(**TWO, barrel_accumulate=True)),
    "two-talon3-forced-last-mixed": (MIXED2, HouseRules(**TWO3, barrel_forced_last=True, barrel_falls_to_zero=0)),
    "two-concede-variants-mixed": (MIXED2, HouseRules(**TWO, concede_60=True, concede_on_barrel=True,
                                                      concede_limit=4, concede_third_penalty=True)),
    "two-talon3-concede-no-deduction-mixed": (MIXED2, HouseRules(**TWO3, concede_no_deduction=True,
                                                                 round_declarer=True)),
    "two-redeals-penalty-mixed": (MIXED2, HouseRules(**TWO, **ALL_REDEALS, redeal_limit_penalty=True)),
    "two-talon3-redeals-mixed": (MIXED2, HouseRules(**TWO3, **{**ALL_REDEALS, "redeal_hand_points_below": 20})),
    "two-golden-dark-heuristic": (HEURISTIC2, HouseRules(**TWO, golden_round=True, dark_game=True,
                                                         bolt_double_in_dark=True)),
    "two-talon3-golden-dark-mixed": (MIXED2, HouseRules(**TWO3, golden_round=True, dark_game=True, dark_min_score=0)),
    "two-bolts-mixed": (MIXED2, HouseRules(**TWO, bolt_on="zero_points", bolt_count="consecutive",
                                           bolt_own_game_exempt=True)),
    "two-no-win-keeps-run-mixed": (MIXED2, HouseRules(**TWO, bolt_count="consecutive", bolt_own_game_exempt=True,
                                                      bolt_exempt_keeps_run=True, no_win_penalty="consecutive")),
    "two-talon3-three-passes-thrown-in-mixed": (MIXED2, HouseRules(**TWO3, bolt_on="three_passes",
                                                                   forced_first_bid=False, silence_below=-120)),
    "two-range-barrel-500-mixed": (MIXED2, HouseRules(**TWO, **RANGE, target=555, barrel=440, barrel_attempts=2)),
    "two-jump-stays-keeper-mixed": (MIXED2, HouseRules(**TWO, barrel_jump_wins=True, barrel_failed_contract="stays",
                                                       barrel_simultaneous_keeper="declarer_else_lowest_seat")),
    "two-all-play-options-mixed": (MIXED2, with_rules(ALL_PLAY_OPTIONS, **TWO)),
    "two-talon3-online-mixed": (MIXED2, with_rules(preset("online"), **TWO3)),
    "two-marriage-timing-mixed": (MIXED2, with_rules(MARRIAGE_TIMING, **TWO, marriage_min_cards=6)),
    "two-house-combined-mixed": (MIXED2, with_rules(HOUSE_COMBINED, **TWO)),
    "two-talon3-house-combined-2-mixed": (MIXED2, with_rules(HOUSE_COMBINED_2, **TWO3)),
}
DEAL_CONFIGS = {
    "random-classic": (RANDOM, HouseRules()),
    "random-no-bid-cap": (RANDOM, HouseRules(no_bid_cap=True)),
    "random-step-10-no-jumps": (RANDOM, HouseRules(min_bid=120, bid_step=10, no_jump_bids=True)),
    "random-concede-60-round": (RANDOM, HouseRules(concede_60=True, round_declarer=True, max_contract=150)),
    "mixed-concede-no-deduction": (MIXED, HouseRules(concede_no_deduction=True,
                                                     marriage_values=(100, 80, 60, 40))),
    "random-online-play": (RANDOM, ONLINE_PLAY),
    "random-must-head": (RANDOM, HouseRules(must_head=True)),
    "random-half-ace-optional": (RANDOM, HALF_ACE_OPTIONAL),
    "random-lead-rules": (RANDOM, LEAD_RULES),
    # Odd marriage values: half marriages of 22, 32, 42, 52 (rounded down); burning applies to them too.
    "random-odd-values-half-aces-burn": (RANDOM, HouseRules(marriage_values=(45, 65, 85, 105), half_marriage=True,
                                                            ace_marriage=150, marriage_first_lead=True,
                                                            marriage_burns_without_trick=True)),
    "random-all-play-options": (RANDOM, ALL_PLAY_OPTIONS),
    "mixed-all-play-options": (MIXED, ALL_PLAY_OPTIONS),
    # The double-dummy player (about 20 ms a deal): few deals.
    "dd-must-head-half": ("dd", HouseRules(must_head=True, half_marriage=True)),
    "dd-all-play-options": ("dd", ALL_PLAY_OPTIONS),
    # House rules of RULES.md §4.2-§4.7 in independent deals (no game: no golden round, silence or barrel).
    "random-thrown-in": (RANDOM, HouseRules(forced_first_bid=False, no_jump_bids=True)),
    "random-redeals": (RANDOM, HouseRules(**ALL_REDEALS)),
    "random-four-nines-after-talon": (RANDOM, HouseRules(redeal_four_nines_after_talon=True, four_nines_bonus=50)),
    "random-redeal-never-not-forced": (RANDOM, HouseRules(**ALL_REDEALS, redeal_policy="never",
                                                          forced_first_bid=False)),
    "random-dark-zero-points": (RANDOM, HouseRules(dark_game=True, bolt_double_in_dark=True, bolt_on="zero_points")),
    "random-nines-no-aces-tens": (RANDOM, HouseRules(four_nines_bonus=50, no_aces_tens_in_discard=True,
                                                     concede_third_penalty=True)),
    "mixed-house-combined": (MIXED, HOUSE_COMBINED),
    # The learned player (sim/players/learned/cards_nb.py): its cards under the play options.
    "learned-online-play": (LEARNED, ONLINE_PLAY),
    "learned-half-ace-optional": (LEARNED, HALF_ACE_OPTIONAL),
    "dd-house-combined": ("dd", HOUSE_COMBINED),
    # Four players in independent deals (a random dealer sits out each).
    "four-random": (RANDOM4, HouseRules(**FOUR)),
    "four-random-half-redeals": (RANDOM4, HouseRules(**FOUR_HALF, **ALL_REDEALS, forced_first_bid=False)),
    "four-random-dark-odd-values": (RANDOM4, HouseRules(**FOUR_HALF, dark_game=True,
                                                        marriage_values=(45, 65, 85, 105))),
    "four-dd-pimc": (("dd", "pimc", "heuristic", "random"), HouseRules(**FOUR_HALF)),
    "four-random-raw-points-half-floor": (RANDOM4, HouseRules(**FOUR_HALF, rounding="none", concede_payout="half_floor",
                                                              declarer_scores="points", dark_game=True)),
    "two-random-ten-points": (RANDOM2, HouseRules(**TWO, rounding="ten", declarer_scores="points", dark_game=True)),
    "four-learned-house-combined": (("learned", "heuristic", "learned", "random"), with_rules(HOUSE_COMBINED,
                                                                                          **FOUR)),
    "learned-all-play-options": (("learned", "random", "learned"), with_rules(ALL_PLAY_OPTIONS)),
    # The auction options of issue 28 with every kind of player's bids and final contracts.
    "random-step-10-from-ceiling-no-cap": (RANDOM, HouseRules(bid_step_10_from=150, bid_ceiling_before_talon=200,
                                                              no_bid_cap=True)),
    "random-dealer-plays-no-jumps": (RANDOM, HouseRules(forced_first_bid=False, all_pass="dealer_plays",
                                                        no_jump_bids=True, bid_step_10_from=120)),
    "dd-step-10-from-forced-dealer": (("dd", "heuristic", "dd"), HouseRules(bid_step_10_from=130,
                                                                             forced_bid_seat="dealer")),
    "learned-step-10-from-ceiling": (LEARNED, HouseRules(bid_step_10_from=130, bid_ceiling_before_talon=140,
                                                         forced_bid_seat="dealer")),
    "leadage-dealer-plays-step-10-from": (("leadage", "random", "leadage"), HouseRules(
        forced_first_bid=False, all_pass="dealer_plays", bid_step_10_from=130, no_bid_cap=True)),
    # When marriages may be declared and take effect (issue 28 item 10): every player.
    "random-marriage-timing": (RANDOM, with_rules(MARRIAGE_TIMING, marriage_min_cards=4, marriage_optional=True,
                                                  half_marriage=True, ace_marriage=200)),
    "random-all-play-options-marriage-timing": (RANDOM, with_rules(ALL_PLAY_OPTIONS, marriage_min_cards=3,
                                                                   marriage_trump_from="next_trick")),
    "mixed-marriage-timing-first-lead": (MIXED, with_rules(MARRIAGE_TIMING, marriage_first_lead=True,
                                                           marriage_min_cards=7)),
    "dd-marriage-timing": ("dd", with_rules(MARRIAGE_TIMING, marriage_optional=True, half_marriage=True)),
    "pimc-marriage-timing": (("pimc", "pimc", "leadage"), MARRIAGE_TIMING),
    "learned-marriage-timing": (("learned", "learned-cards", "random"), with_rules(MARRIAGE_TIMING,
                                                                                  marriage_optional=True)),
    "four-random-marriage-timing": (RANDOM4, with_rules(MARRIAGE_TIMING, **FOUR, marriage_min_cards=8,
                                                        marriage_first_lead=True)),
    "two-random-marriage-timing": (RANDOM2, with_rules(MARRIAGE_TIMING, **TWO3, marriage_min_cards=7,
                                                       marriage_optional=True)),
    "two-dd-pimc-marriage-timing": (("dd", "pimc"), with_rules(MARRIAGE_TIMING, **TWO, marriage_min_cards=5)),
    # Two players in independent deals (a random dealer; the other seat is first hand).
    "two-random": (RANDOM2, HouseRules(**TWO)),
    "two-talon3-random": (RANDOM2, HouseRules(**TWO3)),
    "two-random-redeals-not-forced": (RANDOM2, HouseRules(**TWO, **ALL_REDEALS, forced_first_bid=False)),
    "two-talon3-random-nines-no-aces-tens": (RANDOM2, HouseRules(**TWO3, four_nines_bonus=50,
                                                                 no_aces_tens_in_discard=True,
                                                                 redeal_four_nines_after_talon=True,
                                                                 redeal_talon_three_jacks=True,
                                                                 concede_third_penalty=True)),
    "two-random-all-play-options": (RANDOM2, with_rules(ALL_PLAY_OPTIONS, **TWO)),
    "two-talon3-random-all-play-options": (RANDOM2, with_rules(ALL_PLAY_OPTIONS, **TWO3)),
    "two-random-dark-zero-points-odd-values": (RANDOM2, HouseRules(**TWO, dark_game=True, bolt_double_in_dark=True,
                                                                   bolt_on="zero_points",
                                                                   marriage_values=(45, 65, 85, 105))),
    "two-talon3-random-concede-60-round-no-jumps": (RANDOM2, HouseRules(**TWO3, concede_60=True, round_declarer=True,
                                                                        max_contract=150, bid_step=10,
                                                                        no_jump_bids=True)),
    "two-mixed-house-combined": (MIXED2, with_rules(HOUSE_COMBINED, **TWO3)),
    # The 2-seat double-dummy and PIMC players (sim/players/dd_nb.py, pimc2_nb.py): burial, talon card and play.
    "two-dd": (("dd", "dd"), HouseRules(**TWO)),
    "two-talon3-dd-all-play-options": (("dd", "dd"), with_rules(ALL_PLAY_OPTIONS, **TWO3,
                                                                no_aces_tens_in_discard=True)),
    "two-pimc-dd": (("pimc", "dd"), HouseRules(**TWO, must_head=True, talon_shown_to_declarer_only=True)),
    "two-talon3-dd-pimc-house-combined": (("dd", "pimc"), with_rules(HOUSE_COMBINED, **TWO3)),
    # Issue 45: the free throw and no raise after the talon with every kind of player's final contract.
    "random-polish": (RANDOM, preset("polish")),
    "learned-polish": (LEARNED, preset("polish")),
    "dd-polish": (("dd", "heuristic", "dd"), preset("polish")),
    "pimc-polish": (("pimc", "learned-cards", "leadage"), preset("polish")),
    "pimc-mekedron": (("pimc", "pimc", "heuristic"), preset("mekedron")),
    "two-random-free-throw-no-raise": (RANDOM2, HouseRules(**TWO, concede_free_at_min_bid=True,
                                                           no_raise_after_talon=True)),
    # pimc-inf (sim/players/pimc_inf_nb.py: worlds weighed by the auction's record) under every preset,
    # and with four players.
    **{f"pimc-inf-{name}": (("pimc-inf", "heuristic", "pimc-inf"), preset(name)) for name in PRESETS},
    "four-pimc-inf": (("pimc-inf", "heuristic", "pimc-inf", "random"), with_rules(HOUSE_COMBINED, **FOUR)),
    # learned-inf (the learned player whose search of its last cards draws pimc-inf's worlds) under
    # every preset, and with four players.
    **{f"learned-inf-{name}": (("learned-inf", "pimc", "learned-inf"), preset(name)) for name in PRESETS},
    "four-learned-inf": (("learned-inf", "heuristic", "learned-inf", "random"), with_rules(HOUSE_COMBINED, **FOUR)),
}
DEAL_COUNTS = {"dd-must-head-half": 60, "dd-all-play-options": 60, "dd-house-combined": 60,
               "dd-step-10-from-forced-dealer": 60,
               "four-dd-pimc": 40, "two-dd": 60, "two-talon3-dd-all-play-options": 60, "two-pimc-dd": 15,
               "two-talon3-dd-pimc-house-combined": 15, "dd-marriage-timing": 60, "pimc-marriage-timing": 15,
               "two-dd-pimc-marriage-timing": 15,
               "dd-polish": 60, "pimc-polish": 15, "pimc-mekedron": 15,
               **{f"pimc-inf-{name}": 12 for name in PRESETS}, "four-pimc-inf": 12,
               **{f"learned-inf-{name}": 15 for name in PRESETS}, "four-learned-inf": 60}  # others: FAST_DEALS


@functools.cache
def played(name: str) -> tuple[pl.DataFrame, pl.DataFrame | None, HouseRules]:
    """One chunk of a configuration: (deals, games or None, rules), played once per session."""
    if name in GAME_CONFIGS:
        (players, rules), mode, n = GAME_CONFIGS[name], "games", FAST_GAMES
    else:
        (players, rules), mode, n = DEAL_CONFIGS[name], "deals", DEAL_COUNTS.get(name, FAST_DEALS)
    spec = BatchSpec(mode=mode, n=n, seed=zlib.crc32(name.encode()), chunk_size=n, players=players, rules=rules)
    deals, games = play_chunk(spec, 0)
    return deals, games, rules


@functools.cache
def deal_replay(name: str) -> tuple[list[str], Counter]:
    """Every deal row of a configuration replayed by the reference: (disagreements, the play
    situations met)."""
    deals, _, rules = played(name)
    failures, seen = [], Counter()
    for row in deals.iter_rows(named=True):
        try:
            ref.replay_deal(row, rules, seen)
        except AssertionError as exc:
            failures.append(str(exc))
    return failures, seen


def rows_by_game(deals: pl.DataFrame) -> dict[int, list[dict]]:
    out = defaultdict(list)
    for row in deals.sort("game", "deal").iter_rows(named=True):
        out[row["game"]].append(row)
    return out


def assert_all_pass(check, items, what: str) -> None:
    """Run ``check`` on every item and report every disagreement (the first few in full)."""
    failures = []
    for item in items:
        try:
            check(item)
        except AssertionError as exc:
            failures.append(str(exc))
    assert not failures, f"{len(failures)} of {len(items)} {what} disagree with the reference:\n" + "\n".join(
        failures[:5])


def won_in_this_deal(seats: range = SEATS) -> pl.Expr:
    return pl.any_horizontal([(pl.col(f"events{s}") & ref.EV_WIN) != 0 for s in seats])


def games_won_during_a_climb(deals: pl.DataFrame) -> set[int]:
    """Games whose sitter wins in a deal where another player climbs alone (a collision that once
    knocked the winner off the barrel)."""
    seats = seats_of(deals)
    climb = pl.any_horizontal([(pl.col(f"events{s}") & ref.EV_BARREL_ON) != 0 for s in seats])
    return set(deals.filter(won_in_this_deal(seats) & climb)["game"].to_list())


def replay_games(deals: pl.DataFrame, games: pl.DataFrame, rules: HouseRules) -> None:
    by_game = rows_by_game(deals)
    assert_all_pass(lambda g: ref.replay_game(by_game[g["game"]], g, rules), list(games.iter_rows(named=True)),
                    "games")


# ---- vectorized checks over whole frames ---------------------------------------------------------

def seats_of(frame: pl.DataFrame) -> range:
    """The seats of a stored frame: 0..3 with four players, 0..1 with two (``other_talon``), else 0..2."""
    if "other_talon" in frame.columns:
        return range(2)
    return range(4 if "hand3" in frame.columns else 3)


def declarer_column(prefix: str, seats: range = SEATS) -> pl.Expr:
    expr = pl.when(pl.col("declarer") == 0).then(pl.col(f"{prefix}0"))
    for s in seats[1:-1]:
        expr = expr.when(pl.col("declarer") == s).then(pl.col(f"{prefix}{s}"))
    return expr.otherwise(pl.col(f"{prefix}{seats[-1]}"))


def check_deal_frame(deals: pl.DataFrame, rules: HouseRules) -> None:
    """Row-wise invariants of RULES.md §6 and docs/RULES.md on every deal, as Polars expressions.
    With four players the dealer sits out: no cards, no tricks, no bolt, the talon's points. With
    two, 10 + 10 cards and two talons of 2 (9 + 9 and two of 3), ten (nine) tricks, two buried
    cards in a deal taken and no gifts."""
    SEATS = seats_of(deals)  # noqa: N806 (the module's name, for this frame)
    two = len(SEATS) == 2
    talon_size = rules.two_player_talon if two else 3
    hand_size = 12 - talon_size if two else 7
    n_tricks = 12 - talon_size if two else 8
    sitting_out = [pl.lit(len(SEATS) == 4) & (pl.col("dealer") == s) for s in SEATS]
    talons = [pl.col("talon"), pl.col("other_talon")] if two else [pl.col("talon")]
    hands = [pl.col(f"hand{s}") for s in SEATS]
    redealt = pl.col("redeal") != 0
    played_deal = ~pl.col("conceded") & ~redealt
    conceded_loss = 0 if rules.concede_no_deduction else -pl.col("contract").cast(pl.Int32)
    if rules.concede_free_at_min_bid:  # the free throw: a concession at min_bid costs nothing
        conceded_loss = pl.when(pl.col("contract") == rules.min_bid).then(0).otherwise(conceded_loss)
    contract = pl.col("contract").cast(pl.Int32)
    doubled = pl.when(pl.col("bid_kind").is_in([ref.KIND_DARK, ref.KIND_GOLDEN])).then(2).otherwise(1)
    third_concession = -120 if rules.concede_third_penalty else 0
    # The four-nines bonus may be added to any result; the accumulating barrel's changes are unrounded.
    declarer_result = declarer_column("result", SEATS)
    bonus_free = rules.four_nines_bonus == 0
    bolt_as_tricks = rules.bolt_on == "no_tricks" and not rules.bolt_own_game_exempt
    bolt_value = (pl.when(pl.col("bid_kind") == ref.KIND_DARK).then(2 if rules.bolt_double_in_dark else 1)
                  .when(pl.col("bid_kind") == ref.KIND_GOLDEN).then(2 if rules.bolt_double_in_golden else 1)
                  .otherwise(1))
    # RULES.md §6 under the scoring options: a made declarer scores his contract, or with
    # declarer_scores = points the larger of it and his rounded points; a played deal's defender
    # (and the dealer sitting out) scores a multiple of the rounding unit (any integer with
    # rounding = none), the four-nines bonus added; a concession pays multiples of 5 unless
    # concede_payout = half_floor.
    unit, offset = R.ROUNDINGS[rules.rounding]
    step = math.gcd(unit, rules.four_nines_bonus)
    concession_step = 1 if rules.concede_payout == "half_floor" else 5
    declarer_points = declarer_column("card_points", SEATS) + declarer_column("marriage_points", SEATS)
    made_score = contract
    if rules.declarer_scores == "points":
        made_score = pl.max_horizontal(contract, (declarer_points + offset) // unit * unit)
    checks = {
        f"{hand_size} cards a hand (the dealer sitting out none), talons of {talon_size}": pl.all_horizontal(
            [h.bitwise_count_ones() == pl.when(out).then(0).otherwise(hand_size)
             for h, out in zip(hands, sitting_out, strict=True)]
            + [t.bitwise_count_ones() == talon_size for t in talons]),
        "all 24 cards dealt": pl.reduce(lambda a, b: a | b, hands + talons) == ref.FULL_DECK,
        "120 card points in a played deal": pl.when(played_deal)
        .then(pl.sum_horizontal([pl.col(f"card_points{s}") for s in SEATS]) == 120)
        .otherwise(pl.sum_horizontal([pl.col(f"card_points{s}") for s in SEATS]) == 0),
        f"{n_tricks} tricks in a played deal": pl.when(played_deal)
        .then(pl.sum_horizontal([pl.col(f"tricks{s}") for s in SEATS]) == n_tricks)
        .otherwise(pl.sum_horizontal([pl.col(f"tricks{s}") for s in SEATS]) == 0),
        "declarer's result ±contract (×2 dark or golden)": pl.when(redealt | (not bonus_free)).then(True)
        .when(played_deal)
        .then(declarer_result == doubled * pl.when(pl.col("made")).then(made_score).otherwise(-contract))
        .otherwise((declarer_result == conceded_loss) | (declarer_result == conceded_loss + third_concession)),
        "contract ≥ winning bid": (pl.col("contract") >= pl.col("winning_bid")) | redealt,
        f"defenders' results multiples of the rounding unit ({rules.rounding})": pl.all_horizontal(
            [(pl.col("declarer") == s) | redealt
             | pl.when(played_deal | out).then(pl.col(f"result{s}") % step == 0)
             .otherwise(pl.col(f"result{s}") % concession_step == 0)
             for s, out in zip(SEATS, sitting_out, strict=True)]),
        "changes multiples of 5": pl.all_horizontal(
            [(pl.col(f"change{s}") % 5 == 0) | rules.barrel_accumulate | (unit % 5 != 0)
             | (concession_step != 5) for s in SEATS]),
        "a deal not played scores nothing": pl.when(redealt).then(pl.all_horizontal(
            [(pl.col(f"result{s}") == 0) & (pl.col(f"change{s}") == 0) & (pl.col(f"bolt{s}") == 0) for s in SEATS]))
        .otherwise(True),
        "bolts only in played deals": pl.all_horizontal(
            [(pl.col(f"bolt{s}") == 0) | played_deal | (rules.bolt_on == "three_passes") for s in SEATS]),
        "bolt = no trick in a played deal": pl.all_horizontal(
            [pl.col(f"bolt{s}") == pl.when(played_deal & (pl.col(f"tricks{s}") == 0) & ~out).then(bolt_value)
             .otherwise(0) for s, out in zip(SEATS, sitting_out, strict=True)]) if bolt_as_tricks else pl.lit(True),
    }
    if two:
        checks["two cards buried in a deal taken, none in a deal not played"] = (
            pl.col("buried").bitwise_count_ones() == pl.when(redealt).then(0).otherwise(2))
        checks["buried cards from the declarer's hand and talon"] = redealt | (
            (pl.col("buried") & ~(declarer_column("hand", SEATS) | pl.col("talon"))) == 0)
        checks["a talon card only with two_player_talon = 3, in a deal taken"] = (
            pl.col("talon_card") == -1) if talon_size == 2 else pl.when(redealt).then(pl.col("talon_card") == -1) \
            .otherwise(pl.col("talon_card").is_between(0, 23))
        checks[f"plays: {2 * n_tricks} cards, then -1"] = (pl.col("plays").arr.get(2 * n_tricks) == -1) & (
            ~played_deal | (pl.col("plays").arr.get(2 * n_tricks - 1) >= 0))
    else:
        checks["the dealer sitting out: no bolt, no trick, no gift"] = pl.all_horizontal(
            [~out | ((pl.col(f"bolt{s}") == 0) & (pl.col(f"tricks{s}") == 0) & (pl.col(f"gift{s}") == -1))
             for s, out in zip(SEATS, sitting_out, strict=True)])
    bad = deals.select(**{name: (~expr).sum() for name, expr in checks.items()}).row(0, named=True)
    assert not any(bad.values()), f"rows breaking each invariant (of {deals.height}): {bad}"


def check_game_frames(deals: pl.DataFrame, games: pl.DataFrame) -> None:
    """Per game: every deal numbered in order, score = previous score + change, final scores = the
    last deal's scores, deal counts as stored."""
    SEATS = seats_of(deals)  # noqa: N806
    ordered = deals.sort("game", "deal")
    continuity = ordered.select(
        [(pl.col("deal") != pl.int_range(pl.len()).over("game")).sum().alias("deal numbers")]
        + [(pl.col(f"score{s}") != (pl.col(f"score{s}").shift(1, fill_value=0).over("game") + pl.col(f"change{s}")))
           .sum().alias(f"score{s} ≠ previous + change") for s in SEATS]
    ).row(0, named=True)
    assert not any(continuity.values()), f"rows breaking score continuity: {continuity}"

    last = ordered.group_by("game").agg([pl.len().alias("deal_rows")] + [pl.col(f"score{s}").last() for s in SEATS])
    joined = games.join(last, on="game", how="left", suffix="_last")
    assert joined["deal_rows"].null_count() == 0, "a game without deal rows"
    mismatch = joined.filter(
        (pl.col("deals") != pl.col("deal_rows"))
        | pl.any_horizontal([pl.col(f"score{s}") != pl.col(f"score{s}_last") for s in SEATS]))
    assert mismatch.height == 0, f"games whose row disagrees with their last deal:\n{mismatch.head(5)}"
    assert set(deals["game"].unique()) == set(games["game"]), "deal rows and game rows name different games"


# ---- fast tier -----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(GAME_CONFIGS) + list(DEAL_CONFIGS))
def test_every_deal_replays(engine_compiled, name):
    failures, _ = deal_replay(name)
    assert not failures, f"{len(failures)} of {played(name)[0].height} deals disagree with the reference:\n" + (
        "\n".join(failures[:5]))


def accumulating_sitter_knocked_off(deals: pl.DataFrame, rules: HouseRules) -> set[int]:
    """Games in which a player accumulating on the barrel (barrel_accumulate) is knocked off in a
    deal where he took card points (the engine once dropped those points)."""
    if not rules.barrel_accumulate or not rules.barrel_knock_off:
        return set()
    ordered = deals.sort("game", "deal")
    hit = pl.any_horizontal([((pl.col(f"events{s}") & ref.EV_KNOCKED_OFF) != 0)
                             & (pl.col(f"card_points{s}") > 0) for s in seats_of(deals)])
    return set(ordered.filter(hit)["game"].to_list())


@functools.cache
def game_replay(name: str) -> tuple[list[str], Counter]:
    """Every game of a configuration replayed by the reference: (disagreements, the situations met)."""
    deals, games, rules = played(name)
    by_game = rows_by_game(deals)
    failures, seen = [], Counter()
    for g in games.iter_rows(named=True):
        try:
            ref.replay_game(by_game[g["game"]], g, rules, seen)
        except AssertionError as exc:
            failures.append(str(exc))
    return failures, seen


@pytest.mark.parametrize("name", list(GAME_CONFIGS))
def test_every_game_settles_as_the_reference(engine_compiled, name):
    deals, games, rules = played(name)
    assert games.height == FAST_GAMES and games["finished"].all()
    failures, _ = game_replay(name)
    assert not failures, f"{len(failures)} of {games.height} games disagree with the reference:\n" + "\n".join(
        failures[:5])


def test_accumulating_sitter_knocked_off_keeps_his_card_points(engine_compiled):
    deals, games, rules = played("accumulate-mixed")
    known = accumulating_sitter_knocked_off(deals, rules)
    assert known, "no accumulating sitter knocked off in the sample"
    by_game = rows_by_game(deals)
    assert_all_pass(lambda g: ref.replay_game(by_game[g["game"]], g, rules),
                    [g for g in games.iter_rows(named=True) if g["game"] in known], "games")


def test_redealt_deals_have_no_declarer(engine_compiled):
    deals, _, _ = played("redeals-penalty-mostly-random")
    rows = [row for row in deals.iter_rows(named=True) if row["redeal"] > 1]
    assert rows
    assert_all_pass(ref.check_redeal_declarer, rows, "redealt deals")


def test_thrown_in_deals_have_no_declarer(engine_compiled):
    deals, _, _ = played("thrown-in-mixed")
    rows = [row for row in deals.iter_rows(named=True) if row["redeal"] == ref.R_ALL_PASSED]
    assert rows
    assert_all_pass(ref.check_redeal_declarer, rows, "thrown-in deals")


# Situations of the house rules the replays count; each must be met by the fast sample.
HOUSE_RULE_CASES = (
    "redeal 1", "redeal 2", "redeal 3", "redeal 4", "redeal 5", "redeal 6", "redeal 7", "redeal 8", "redeal 9",
    "redeal penalty", "bid_kind 1", "bid_kind 2", "bid_kind 3", "discard ban binds", "four nines bonus",
    "trickless declarer exempt", "silenced", "free talon", "golden reset",
    "third concession", "concede limit reached", "three passes bolt", "accumulated to the target",
    "declarer scores his points", "win score capped", "bolt run kept by an exempt declarer",
    "no-win penalty (cumulative)", "no-win penalty (consecutive)", "no-win penalty on the barrel",
    "dump truck at another value", "dealer plays when all passed", "sitter's forced bid",
    "failed contract kept on the barrel", "defence wins from the barrel",
    "range barrel attempts' penalty", "jump to the target", "simultaneous climb kept", "collision sitter_stays",
    "collision both_fall", "left the range barrel downward", "on the range barrel again after its penalty",
    "free throw", "fall not counted",
)


def test_fast_sample_reaches_every_house_rule(engine_compiled):
    seen = Counter()
    for name in list(GAME_CONFIGS) + list(DEAL_CONFIGS):
        seen.update(deal_replay(name)[1])
    for name in GAME_CONFIGS:
        seen.update(game_replay(name)[1])
    missing = [case for case in HOUSE_RULE_CASES if not seen[case]]
    assert not missing, f"house-rule situations the fast sample never reaches: {missing}"
    doubled = sum((played(name)[0][f"bolt{s}"] == 2).sum() for name in GAME_CONFIGS for s in seats_of(played(name)[0]))
    assert doubled, "no doubled bolt in a dark deal"


@pytest.mark.parametrize("name", list(DEAL_CONFIGS))
def test_independent_deals_settle_from_zero(engine_compiled, name):
    deals, _, rules = played(name)
    assert_all_pass(lambda row: ref.replay_game([row], None, rules), list(deals.iter_rows(named=True)), "deals")


@pytest.mark.parametrize("name", list(GAME_CONFIGS) + list(DEAL_CONFIGS))
def test_vectorized_invariants(engine_compiled, name):
    deals, games, rules = played(name)
    check_deal_frame(deals, rules)
    if games is not None:
        check_game_frames(deals, games)


def test_fast_sample_reaches_every_settlement_case(engine_compiled):
    # The replays above prove little about a rule the sample never meets: every event bit, concessions,
    # marriages, and bolt penalties paid on the barrel (alone and with a second cause of falling).
    other_fall = ref.EV_FALL_ATTEMPTS | ref.EV_FALL_CONTRACT | ref.EV_KNOCKED_OFF
    seen = defaultdict(int)
    for name in GAME_CONFIGS:
        deals, _, rules = played(name)
        deals = deals.sort("game", "deal")
        for s in seats_of(deals):
            events = pl.col(f"events{s}")
            penalty = (events & ref.EV_BOLT_PENALTY) != 0
            for bit, event in ref.EVENT_NAMES.items():
                seen[event] += deals.filter((events & bit) != 0).height
            if rules.barrel is not None:
                sat_before = pl.col(f"score{s}").shift(1, fill_value=0).over("game") == rules.barrel
                seen["bolt penalty on the barrel"] += deals.filter(penalty & sat_before).height
            seen["bolt penalty and another fall"] += deals.filter(penalty & ((events & other_fall) != 0)).height
            seen["declared marriage"] += deals.filter(pl.col(f"marriages{s}") != 0).height
        seen["concession"] += deals["conceded"].sum()
    cases = [*ref.EVENT_NAMES.values(), "bolt penalty on the barrel", "bolt penalty and another fall",
             "declared marriage", "concession"]
    missing = [case for case in cases if not seen[case]]
    assert not missing, f"cases the fast sample never reaches: {missing}"


# Play situations the reference counts (``seen`` of replay_deal), one or more per §4.4 option.
PLAY_OPTION_CASES = (
    "declared marriage", "declared half marriage", "declared four aces", "declined", "declared before a won trick",
    "burnt", "must head binds", "trump lead forced", "foreign trump lead barred",
    "foreign trump barred over must_lead_trump", "too few cards to declare", "trump deferred to the next trick",
    "trump deferred, the old one in force", "old trump wins the declaring trick",
)


def test_fast_sample_reaches_every_play_option(engine_compiled):
    # Each §4.4 option must actually bite in the sample: a restriction that leaves a player fewer
    # legal cards, a combination declared, declined or burnt.
    seen = Counter()
    for name in list(GAME_CONFIGS) + list(DEAL_CONFIGS):
        seen.update(deal_replay(name)[1])
    missing = [case for case in PLAY_OPTION_CASES if not seen[case]]
    assert not missing, f"play situations the fast sample never reaches: {missing}"
    for name in ("dd-must-head-half", "dd-all-play-options"):
        assert deal_replay(name)[1]["must head binds"], f"{name}: must_head never binds"


TWO_PLAYER_CONFIGS = [name for name, (_, rules) in {**GAME_CONFIGS, **DEAL_CONFIGS}.items() if rules.players == 2]
# Situations of the 2-player deal the replays count over the 2-player configurations alone: both
# talon sizes, the card put into the other talon, the other talon won by either side, the other
# talon or the buried pair deciding a contract, the burial under the discard ban, every redeal
# reason; then the house rules, play options and game rules met with two seats.
TWO_PLAYER_CASES = (
    "two players, talons of 2", "two players, talons of 3", "card put into the other talon",
    "other talon to the declarer", "other talon to the defender", "other talon decide the contract",
    "buried cards decide the contract", "burial ban binds",
    *(f"two players, redeal {reason}" for reason in range(1, 10)),
    "redeal penalty", "bid_kind 1", "bid_kind 2", "bid_kind 3", "golden reset", "free talon", "four nines bonus",
    "accumulated to the target", "third concession", "concede limit reached", "three passes bolt", "silenced",
    "trickless declarer exempt", "declared half marriage", "declared four aces", "declined",
    "declared before a won trick", "must head binds", "trump lead forced", "foreign trump lead barred",
    "too few cards to declare", "trump deferred to the next trick", "trump deferred, the old one in force",
)


def test_fast_sample_reaches_every_two_player_rule(engine_compiled):
    seen = Counter()
    for name in TWO_PLAYER_CONFIGS:
        seen.update(deal_replay(name)[1])
        if name in GAME_CONFIGS:
            seen.update(game_replay(name)[1])
    missing = [case for case in TWO_PLAYER_CASES if not seen[case]]
    assert not missing, f"2-player situations the fast sample never reaches: {missing}"
    events = Counter()
    for name in TWO_PLAYER_CONFIGS:
        deals = played(name)[0]
        for s in seats_of(deals):
            for bit, event in ref.EVENT_NAMES.items():
                events[event] += deals.filter((pl.col(f"events{s}") & bit) != 0).height
            events["doubled bolt"] += (deals[f"bolt{s}"] == 2).sum()
        events["concession"] += deals["conceded"].sum()
    missing = [case for case in (*ref.EVENT_NAMES.values(), "doubled bolt", "concession") if not events[case]]
    assert not missing, f"2-player game situations the fast sample never reaches: {missing}"


def test_reference_refuses_a_tampered_two_player_row(engine_compiled):
    # The reference checks what is particular to two players: a row changed in any of these ways
    # must be refused (the talon card, the buried pair, the other talon, the cards after the tricks).
    deals, _, rules = played("two-talon3-mixed")
    row = next(r for r in deals.iter_rows(named=True) if not r["redeal"] and not r["conceded"])
    ref.replay_deal(row, rules)
    declarer = row["declarer"]
    buried = sorted(ref.cards_in(row["buried"]))
    kept = sorted(ref.cards_in(row[f"hand{declarer}"] | row["talon"]) - set(buried) - {row["talon_card"]})
    other = sorted(ref.cards_in(row["other_talon"]))
    plays = list(row["plays"])
    tampered = {
        "talon card from the other talon": {"talon_card": other[0]},
        "talon card buried too": {"talon_card": buried[0]},
        "one card buried": {"buried": 1 << buried[0]},
        "buried card not the declarer's": {"buried": (1 << buried[0]) | (1 << other[0])},
        "other talon swapped with the taken one": {"other_talon": row["talon"], "talon": row["other_talon"]},
        "a card played after the last trick": {"plays": plays[:18] + [plays[0]] + plays[19:]},
        "the other talon's points to the loser of the last trick": {
            "card_points0": row["card_points0"] - 1, "card_points1": row["card_points1"] + 1},
        "a kept card buried instead": {"buried": (1 << buried[0]) | (1 << kept[0])},
    }
    for what, change in tampered.items():
        with pytest.raises(AssertionError):
            ref.replay_deal({**row, **change}, rules)
            pytest.fail(f"the reference accepts {what}")
    # Talons of 2: no card goes into the other talon.
    deals, _, rules = played("two-mixed")
    row = next(r for r in deals.iter_rows(named=True) if not r["redeal"] and not r["conceded"])
    ref.replay_deal(row, rules)
    spare = min(ref.cards_in(row[f"hand{row['declarer']}"]) - ref.cards_in(row["buried"]))
    with pytest.raises(AssertionError, match="talon_card"):
        ref.replay_deal({**row, "talon_card": spare}, rules)


# ---- property-based: random combinations of the options the engine plays ----------------------

# Values drawn for every option of HouseRules (the first is its default).
OPTION_VALUES = {
    "min_bid": (100, 120, 80), "bid_step": (5, 10), "no_bid_cap": (False, True), "max_contract": (300, 200, 150),
    "no_jump_bids": (False, True), "concede": (True, False), "concede_60": (False, True),
    "concede_no_deduction": (False, True), "concede_on_barrel": (False, True), "round_declarer": (False, True),
    "marriage_values": ((40, 60, 80, 100), (100, 80, 60, 40), (45, 65, 85, 105)), "bolt_penalty": (120, 0, 150),
    "target": (1000, 555, 1500), "barrel": (880, None, 440, 1380), "barrel_min_contract": (120, 125),
    "win_only_as_declarer": (True, False),
    "barrel_attempts": (3, 2, 1, 0), "barrel_penalty": (120, 150), "barrel_knock_off": (True, False),
    "barrel_simultaneous_penalty": (True, False), "barrel_falls_to_zero": (3, 0, 1), "dump_truck": (True, False),
    "dump_truck_negative": (False, True), "must_head": (False, True), "marriage_first_lead": (False, True),
    "marriage_burns_without_trick": (False, True), "marriage_optional": (False, True), "ace_marriage": (0, 200),
    "half_marriage": (False, True), "no_lead_foreign_trump": (False, True), "must_lead_trump": (False, True),
    "forced_first_bid": (True, False), "silence_below": (None, -120, 0), "no_aces_tens_in_discard": (False, True),
    "concede_limit": (0, 1, 3), "concede_third_penalty": (False, True),
    "bolt_on": ("no_tricks", "zero_points", "three_passes"), "bolt_count": ("cumulative", "consecutive", "each"),
    "bolt_own_game_exempt": (False, True), "barrel_talon_free": (False, True), "barrel_forced_last": (False, True),
    "four_nines_bonus": (0, 50, 100), "redeal_policy": ("always", "never"), "redeal_hand_points_below": (0, 14, 20),
    "redeal_four_nines": (False, True), "redeal_three_nines": (False, True),
    "redeal_talon_points_below": (0, 5, 12), "redeal_talon_only_at_100": (False, True),
    "redeal_talon_two_nines": (False, True), "redeal_talon_three_jacks": (False, True),
    "redeal_four_aces": (False, True), "redeal_four_nines_after_talon": (False, True),
    "redeal_limit_penalty": (False, True), "dark_game": (False, True), "dark_min_score": (None, 0, 240),
    "bolt_double_in_dark": (False, True), "golden_round": (False, True), "barrel_accumulate": (False, True),
    "talon_hidden_at_100": (False, True), "talon_shown_to_declarer_only": (False, True),
    "discard_face_down": (False, True),
    "players": (3, 4, 2), "sitout_half_marriage": (False, True), "two_player_talon": (2, 3),
    "concede_payout": ("half_up5", "half_floor"), "rounding": ("five", "none", "ten", "ten_half_up"),
    "declarer_scores": ("contract", "points"), "win_score_capped": (False, True),
    "bolt_exempt_keeps_run": (False, True), "no_win_penalty": ("off", "cumulative", "consecutive"),
    "no_win_penalty_amount": (120, 150, 60), "sitout_scores": ("cards_and_marriage", "cards", "marriage"),
    "dump_truck_value": (555, 100, 600),
    "dark_defenders_doubled": (True, False), "golden_defenders": ("doubled_cards", "doubled_rounded"),
    "bolt_double_in_golden": (False, True),
    "forced_bid_seat": ("first_hand", "dealer"), "all_pass": ("throw_in", "dealer_plays"),
    "bid_ceiling_before_talon": (None, 120, 150), "bid_step_10_from": (None, 200, 150),
    "barrel_min_bid_enforced": (False, True),
    "marriage_min_cards": (2, 3, 5, 8), "marriage_trump_from": ("this_trick", "next_trick"),
    "barrel_failed_contract": ("falls", "stays"), "barrel_freeze": (True, False), "barrel_jump_wins": (False, True),
    "barrel_defence_wins": (False, True), "barrel_simultaneous_keeper": ("none", "declarer_else_lowest_seat"),
    "barrel_collision": ("newcomer_stays", "sitter_stays", "both_fall"),
    "concede_free_at_min_bid": (False, True), "barrel_falls_counted": ("all", "attempts_only"),
    "target_tie": ("after_declarer", "lowest_seat"), "no_raise_after_talon": (False, True),
}
ALL_OPTIONS = frozenset(f.name for f in dataclasses.fields(HouseRules))
DRAWN_OPTIONS = sorted(OPTION_VALUES)


def test_option_values_cover_every_option():
    assert ALL_OPTIONS == set(OPTION_VALUES), f"no values to draw for {sorted(ALL_OPTIONS - set(OPTION_VALUES))}"
    assert all(values[0] == getattr(HouseRules(), name) for name, values in OPTION_VALUES.items())


@st.composite
def house_rules(draw) -> HouseRules:
    names = draw(st.lists(st.sampled_from(DRAWN_OPTIONS), min_size=1, max_size=12, unique=True))
    changes = {name: draw(st.sampled_from(OPTION_VALUES[name][1:])) for name in names}
    # Valid player counts only: two_player_talon = 3 brings players = 2 and sitout_half_marriage
    # players = 4 (drawn together, the first wins).
    if "two_player_talon" in changes:
        changes.pop("sitout_half_marriage", None)
        changes.pop("sitout_scores", None)
        changes["players"] = 2
    elif "sitout_half_marriage" in changes or "sitout_scores" in changes:
        changes["players"] = 4
        if changes.get("sitout_scores") == "cards":
            changes.pop("sitout_half_marriage", None)
    # An option that needs another brings it: the exempt declarer's run needs the exemption and
    # consecutive bolts, the no-win amount the no-win penalty.
    if changes.get("bolt_exempt_keeps_run"):
        changes.update(bolt_own_game_exempt=True, bolt_count="consecutive")
        if changes.get("bolt_on") == "three_passes":
            changes.pop("bolt_on")
    if "no_win_penalty_amount" in changes:
        changes.setdefault("no_win_penalty", "cumulative")
    # Options that would have no effect are dropped rather than refused, so that most draws play.
    if changes.get("barrel", 880) is None:
        for name in BARREL_OPTIONS:
            changes.pop(name, None)
    if changes.get("bolt_double_in_dark") or changes.get("dark_defenders_doubled") is False:
        changes["dark_game"] = True
    if changes.get("bolt_double_in_golden") or changes.get("golden_defenders", "doubled_cards") != "doubled_cards":
        changes["golden_round"] = True
    # The auction options: the dealer playing when all pass needs no forced bid; the dealer's forced bid
    # needs one and a dealer who plays; the step from 10 no bid_step of 10, nor a value above the
    # greatest contract; the sitter's minimum a sitter who bids, under any ceiling.
    if changes.get("all_pass") == "dealer_plays":
        changes["forced_first_bid"] = False
    if changes.get("forced_first_bid") is False or changes.get("players") == 4:
        changes.pop("forced_bid_seat", None)
        if changes.get("players") == 4:
            changes.pop("all_pass", None)
    if changes.get("bid_step") == 10 or changes.get("bid_step_10_from", 0) > changes.get("max_contract", 300):
        changes.pop("bid_step_10_from", None)
    if changes.get("barrel_talon_free") or changes.get("barrel_accumulate") or changes.get(
            "bid_ceiling_before_talon", 400) < changes.get("barrel_min_contract", 120):
        changes.pop("barrel_min_bid_enforced", None)
    # Issue 45's options: the free throw is a concession's that deducts (not with concede_no_deduction), the
    # falls counted need falls that zero, a tie at the target needs several who can reach it.
    if changes.get("concede_free_at_min_bid"):
        changes.pop("concede_no_deduction", None)
        changes["concede"] = True
    if changes.get("barrel_falls_to_zero") == 0:
        changes.pop("barrel_falls_counted", None)
    if changes.get("target_tie") == "lowest_seat":
        if changes.get("barrel", 880) is None:
            changes["win_only_as_declarer"] = False
        elif changes.get("barrel_freeze", True):
            changes["barrel_jump_wins"] = True
    # The barrel variants: no attempt limit is the range barrel's; the range barrel turns the knock-off and the
    # simultaneous penalty off and takes neither the collision rules, the keeper, barrel_jump_wins (implied),
    # barrel_accumulate nor barrel_min_contract (without a free talon).
    if changes.get("barrel_attempts") == 0:
        changes["barrel_freeze"] = False
    if changes.get("barrel_freeze") is False:
        changes.update(barrel_knock_off=False, barrel_simultaneous_penalty=False)
        for name in ("barrel_collision", "barrel_simultaneous_keeper", "barrel_jump_wins", "barrel_accumulate"):
            changes.pop(name, None)
        if not (changes.get("barrel_talon_free") or changes.get("barrel_forced_last")):
            changes.pop("barrel_min_contract", None)
        if changes.get("barrel_attempts") == 0:
            changes.pop("barrel_forced_last", None)
    if changes.get("barrel_accumulate"):
        changes.pop("barrel_failed_contract", None)
        changes.pop("barrel_defence_wins", None)
    if "barrel_collision" in changes:
        changes["barrel_knock_off"] = True
    if "barrel_simultaneous_keeper" in changes:
        changes["barrel_simultaneous_penalty"] = True
    if changes.get("forced_first_bid") is False:
        changes.pop("talon_hidden_at_100", None)
        changes.pop("redeal_talon_only_at_100", None)
    # Eight cards allow a marriage only on the first trick with three playing: before a won trick.
    if changes.get("marriage_min_cards") == 8 and changes.get("players", 3) != 2:
        changes["marriage_first_lead"] = True
    try:
        return HouseRules.from_dict(changes, source="drawn")
    except RulesError:
        return None  # contradictory options the validator refuses


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(rules=house_rules().filter(lambda r: r is not None), seed=st.integers(0, 2**31))
def test_random_house_rules_replay(engine_compiled, rules, seed):
    players = for_seats(MOSTLY_RANDOM, rules)
    games_spec = BatchSpec(mode="games", n=20, seed=seed, chunk_size=20, players=players, rules=rules,
                           max_deals_per_game=400)
    deals, games = play_chunk(games_spec, 0)
    check_and_replay_games(deals, games, rules)
    deal_spec = BatchSpec(mode="deals", n=200, seed=seed, chunk_size=200, players=players, rules=rules)
    deals, _ = play_chunk(deal_spec, 0)
    check_deal_frame(deals, rules)
    rows = list(deals.iter_rows(named=True))
    assert_all_pass(lambda row: ref.replay_deal(row, rules), rows, "independent deals")
    assert_all_pass(lambda row: ref.replay_game([row], None, rules), rows, "independent deals settled")


def check_and_replay_games(deals: pl.DataFrame, games: pl.DataFrame, rules: HouseRules) -> None:
    """Frame invariants, then every deal and every game replayed by the reference."""
    check_deal_frame(deals, rules)
    check_game_frames(deals, games)
    assert_all_pass(lambda row: ref.replay_deal(row, rules), list(deals.iter_rows(named=True)), "deals")
    by_game = rows_by_game(deals)
    assert_all_pass(lambda g: ref.replay_game(by_game[g["game"]], g, rules), list(games.iter_rows(named=True)),
                    "games")


def read_run(out: Path) -> tuple[pl.DataFrame, pl.DataFrame | None]:
    deals = scan_deals(out).collect().sort("game", "deal")
    games = scan_games(out).collect().sort("game") if (out / "games").exists() else None
    return deals, games


@pytest.mark.parametrize("mode,n,chunk", [("games", 60, 8), ("deals", 5000, 700)])
def test_same_seed_same_frames_whatever_the_workers(engine_compiled, tmp_path, mode, n, chunk):
    spec = BatchSpec(mode=mode, n=n, seed=2024, chunk_size=chunk, players=MIXED)
    run_batch(spec, tmp_path / "one", workers=1)
    run_batch(spec, tmp_path / "two", workers=2)
    deals_one, games_one = read_run(tmp_path / "one")
    deals_two, games_two = read_run(tmp_path / "two")
    assert deals_one.height > 0 and deals_one.equals(deals_two)
    assert (games_one is None and games_two is None) or games_one.equals(games_two)


# ---- slow tier -----------------------------------------------------------------------------------

SLOW_GAMES = 100_000
SLOW_DEAL_SAMPLE = 20_000


@pytest.mark.slow
def test_hundred_thousand_games(engine_compiled, tmp_path):
    rules = HouseRules()
    spec = BatchSpec(mode="games", n=SLOW_GAMES, seed=1000, players=MIXED, rules=rules)
    run_batch(spec, tmp_path)
    shards = sorted((tmp_path / "deals").glob("part-*.parquet"))
    assert len(shards) == spec.n_chunks
    sample_per_shard = -(-SLOW_DEAL_SAMPLE // len(shards))
    sampled = 0
    for index, shard in enumerate(shards):
        deals = pl.read_parquet(shard)
        games = pl.read_parquet(tmp_path / "games" / shard.name)
        check_deal_frame(deals, rules)
        check_game_frames(deals, games)
        replay_games(deals, games, rules)
        sample = deals.sample(min(sample_per_shard, deals.height), seed=index)
        assert_all_pass(lambda row: ref.replay_deal(row, rules), list(sample.iter_rows(named=True)), "deals")
        sampled += sample.height
    assert sampled >= SLOW_DEAL_SAMPLE
    ids = scan_games(tmp_path).select(pl.col("game")).collect()["game"]
    assert ids.n_unique() == SLOW_GAMES and ids.min() == 0 and ids.max() == SLOW_GAMES - 1


# ---- a collision worth its own check ----------------------------------------------------------

BARREL_CONFIGS = [name for name, (_, rules) in GAME_CONFIGS.items() if rules.barrel is not None]


def test_sitter_who_wins_is_not_knocked_off(engine_compiled):
    # docs/RULES.md settlement: step 1 ends the game with barrel + contract; step 3 knocks off only a
    # player "still sitting there from before", which the winner no longer is.
    affected = []
    for name in BARREL_CONFIGS:
        deals, games, rules = played(name)
        games_hit = games_won_during_a_climb(deals) if rules.barrel_knock_off else set()
        by_game = rows_by_game(deals)
        affected += [(by_game[g["game"]], g, rules) for g in games.iter_rows(named=True) if g["game"] in games_hit]
    if not affected:
        pytest.fail("no game in the sample has a sitter winning while another player climbs")
    assert_all_pass(lambda item: ref.replay_game(*item), affected, "games won while another player climbs")


# ---- the extreme legal value of every numeric house rule ------------------------------------------
# Options that an extreme value needs beside it to stay valid (a barrel below the target, a minimum
# that reaches the target from the barrel, a dark game for dark_min_score, two players for talons
# of three, the no-win penalty for its amount).
EXTREME_COMPANIONS = {
    ("target", 300): {"barrel": 200, "barrel_min_contract": 100},
    ("target", 3000): {"barrel": 2880},
    ("barrel", 5): {"target": 300, "barrel_min_contract": 295},
    ("barrel", 2995): {"target": 3000},
    ("barrel_min_contract", 5): {"barrel": 995},
    ("barrel_min_contract", 400): {"max_contract": 400},
    ("max_contract", 120): {},
    ("min_bid", 200): {},
    ("dark_min_score", -3000): {"dark_game": True},
    ("dark_min_score", 3000): {"dark_game": True},
    ("two_player_talon", 3): {"players": 2},
    ("no_win_penalty_amount", 5): {"no_win_penalty": "cumulative"},
    ("no_win_penalty_amount", 1000): {"no_win_penalty": "consecutive"},
    ("bid_ceiling_before_talon", 60): {"min_bid": 60},
    ("bid_ceiling_before_talon", 400): {"max_contract": 400},
    ("bid_step_10_from", 70): {"min_bid": 60},
    ("bid_step_10_from", 400): {"max_contract": 400},
    ("marriage_min_cards", 8): {"marriage_first_lead": True},  # 8 cards: the first trick only
    ("barrel_attempts", 0): {"barrel_freeze": False, "barrel_knock_off": False, "barrel_simultaneous_penalty": False},
    # Thresholds that redeal (almost) every deal are valid only when the third redeal is played.
    ("redeal_hand_points_below", 60): {"redeal_limit_penalty": True},
    ("redeal_talon_points_below", 31): {"redeal_limit_penalty": True},
}


def extreme_rules():
    from sim.game.rules import RANGES

    for name, (lo, hi, _step) in RANGES.items():
        for value in (lo, hi):
            if name == "marriage_values":
                value = (value,) * 4
            if name == "bid_step" or (name == "two_player_talon" and value == 2):
                continue  # both values are ordinary ones, played by the configurations above
            yield pytest.param({name: value, **EXTREME_COMPANIONS.get((name, value), {})}, id=f"{name}={value}")


@pytest.mark.parametrize("changes", list(extreme_rules()))
def test_extreme_legal_values_play_and_replay(engine_compiled, changes):
    rules = HouseRules.from_dict(changes, source="extreme")
    players = for_seats(MIXED, rules)
    deals, games = play_chunk(BatchSpec(mode="games", n=3, seed=5, chunk_size=3, players=players, rules=rules,
                                        max_deals_per_game=300), 0)
    check_and_replay_games(deals, games, rules)
