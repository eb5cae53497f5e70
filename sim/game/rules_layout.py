"""Offsets of the house-rules array read by compiled kernels (filled by HouseRules.to_array)."""

__all__ = [
    "MIN_BID", "BID_STEP", "FORCED_FIRST_BID", "NO_BID_CAP", "MAX_CONTRACT", "NO_JUMP_BIDS", "CONCEDE", "CONCEDE_60",
    "CONCEDE_NO_DEDUCTION", "CONCEDE_ON_BARREL", "ROUND_DECLARER", "MARRIAGE_VALUE", "BOLT_PENALTY", "TARGET", "BARREL",
    "BARREL_MIN_CONTRACT", "BARREL_ATTEMPTS", "BARREL_PENALTY", "BARREL_KNOCK_OFF", "BARREL_SIMULTANEOUS_PENALTY",
    "BARREL_FALLS_TO_ZERO", "DUMP_TRUCK", "DUMP_TRUCK_NEGATIVE", "MUST_HEAD", "MARRIAGE_FIRST_LEAD",
    "MARRIAGE_BURNS_WITHOUT_TRICK", "MARRIAGE_OPTIONAL", "ACE_MARRIAGE", "HALF_MARRIAGE", "NO_LEAD_FOREIGN_TRUMP",
    "MUST_LEAD_TRUMP", "SILENCE_ON", "SILENCE_BELOW", "NO_ACES_TENS_IN_DISCARD", "CONCEDE_LIMIT",
    "CONCEDE_THIRD_PENALTY", "BOLT_ON", "BOLT_COUNT", "BOLT_OWN_GAME_EXEMPT", "BARREL_TALON_FREE", "BARREL_FORCED_LAST",
    "FOUR_NINES_BONUS", "REDEAL_ASK", "REDEAL_HAND_POINTS_BELOW", "REDEAL_FOUR_NINES", "REDEAL_THREE_NINES",
    "REDEAL_TALON_POINTS_BELOW", "REDEAL_TALON_ONLY_AT_100", "REDEAL_TALON_TWO_NINES", "REDEAL_TALON_THREE_JACKS",
    "REDEAL_FOUR_ACES", "REDEAL_FOUR_NINES_AFTER_TALON", "REDEAL_LIMIT_PENALTY", "REDEAL_ANY", "DARK_GAME",
    "DARK_MIN_ON", "DARK_MIN_SCORE", "BOLT_DOUBLE_IN_DARK", "GOLDEN_ROUND", "BARREL_ACCUMULATE", "TALON_HIDDEN_AT_100",
    "TALON_TO_DECLARER_ONLY", "DISCARD_FACE_DOWN", "WIN_ONLY_AS_DECLARER", "PLAYERS", "SITOUT_HALF_MARRIAGE",
    "TWO_PLAYER_TALON", "CONCEDE_HALF_FLOOR", "ROUND_UNIT", "ROUND_OFFSET", "DECLARER_SCORES_POINTS",
    "WIN_SCORE_CAPPED", "BOLT_EXEMPT_KEEPS_RUN", "NO_WIN_PENALTY", "NO_WIN_PENALTY_AMOUNT", "SITOUT_CARDS",
    "SITOUT_MARRIAGE", "DUMP_TRUCK_VALUE", "FORCED_BID_SEAT", "ALL_PASS", "BID_CEILING_BEFORE_TALON",
    "BID_STEP_10_FROM", "BARREL_MIN_BID_ENFORCED", "MARRIAGE_MIN_CARDS", "MARRIAGE_TRUMP_FROM", "N_FIELDS",
    "CONCEDE_FREE_AT_MIN_BID", "BARREL_FALLS_ATTEMPTS_ONLY", "WIN_TIE_LOWEST_SEAT", "NO_RAISE_AFTER_TALON",
    "BARREL_FALLS_COUNTED_NAMES", "TARGET_TIE_NAMES",
    "FORCED_BID_SEAT_NAMES", "ALL_PASS_NAMES", "CONCEDE_PAYOUT_NAMES", "ROUNDINGS", "MARRIAGE_TRUMP_FROM_NAMES",
    "BARREL_FAILED_STAYS", "BARREL_FREEZE", "BARREL_JUMP_WINS", "BARREL_DEFENCE_WINS",
    "BARREL_SIMULTANEOUS_KEEPER", "BARREL_COLLISION", "BARREL_FAILED_CONTRACT_NAMES", "BARREL_KEEPER_NAMES",
    "BARREL_COLLISION_NAMES", "COLLISION_NEWCOMER_STAYS", "COLLISION_SITTER_STAYS", "COLLISION_BOTH_FALL",
    "NO_WIN_OFF", "NO_WIN_CUMULATIVE", "NO_WIN_CONSECUTIVE", "NO_WIN_PENALTY_NAMES", "SITOUT_SCORES",
    "BOLT_ON_NO_TRICKS", "BOLT_ON_ZERO_POINTS", "BOLT_ON_THREE_PASSES", "BOLT_ON_NAMES",
    "BOLT_COUNT_CUMULATIVE", "BOLT_COUNT_CONSECUTIVE", "BOLT_COUNT_EACH", "BOLT_COUNT_NAMES",
]

MIN_BID = 0
BID_STEP = 1
FORCED_FIRST_BID = 2
NO_BID_CAP = 3
MAX_CONTRACT = 4
NO_JUMP_BIDS = 5
CONCEDE = 6
CONCEDE_60 = 7
CONCEDE_NO_DEDUCTION = 8
CONCEDE_ON_BARREL = 9
ROUND_DECLARER = 10
MARRIAGE_VALUE = 11  # four entries, suits S C D H
BOLT_PENALTY = 15
TARGET = 16
BARREL = 17  # 0 = no barrel
BARREL_MIN_CONTRACT = 18
BARREL_ATTEMPTS = 19
BARREL_PENALTY = 20
BARREL_KNOCK_OFF = 21
BARREL_SIMULTANEOUS_PENALTY = 22
BARREL_FALLS_TO_ZERO = 23
DUMP_TRUCK = 24
DUMP_TRUCK_NEGATIVE = 25
# Play options (RULES.md §4.4); the solver reads all of them, the engine refuses those it does not play.
MUST_HEAD = 26
MARRIAGE_FIRST_LEAD = 27
MARRIAGE_BURNS_WITHOUT_TRICK = 28
MARRIAGE_OPTIONAL = 29
ACE_MARRIAGE = 30  # value of four aces, 0 = off
HALF_MARRIAGE = 31
NO_LEAD_FOREIGN_TRUMP = 32
MUST_LEAD_TRUMP = 33
# Deal, bidding, contract, bolt and barrel options of RULES.md §4.2, §4.3, §4.5, §4.6.
SILENCE_ON = 34
SILENCE_BELOW = 35
NO_ACES_TENS_IN_DISCARD = 36
CONCEDE_LIMIT = 37  # 0 = none
CONCEDE_THIRD_PENALTY = 38
BOLT_ON = 39  # BOLT_ON_* below
BOLT_COUNT = 40  # BOLT_COUNT_* below
BOLT_OWN_GAME_EXEMPT = 41
BARREL_TALON_FREE = 42
BARREL_FORCED_LAST = 43
FOUR_NINES_BONUS = 44
REDEAL_ASK = 45  # redeal_policy: 1 = ask whenever allowed, 0 = never
REDEAL_HAND_POINTS_BELOW = 46
REDEAL_FOUR_NINES = 47
REDEAL_THREE_NINES = 48
REDEAL_TALON_POINTS_BELOW = 49
REDEAL_TALON_ONLY_AT_100 = 50
REDEAL_TALON_TWO_NINES = 51
REDEAL_TALON_THREE_JACKS = 52
REDEAL_FOUR_ACES = 53
REDEAL_FOUR_NINES_AFTER_TALON = 54
REDEAL_LIMIT_PENALTY = 55
REDEAL_ANY = 56  # some redeal rule is on (lets the engine skip the checks otherwise)
DARK_GAME = 57
DARK_MIN_ON = 58
DARK_MIN_SCORE = 59
BOLT_DOUBLE_IN_DARK = 60
GOLDEN_ROUND = 61
BARREL_ACCUMULATE = 62
TALON_HIDDEN_AT_100 = 63
TALON_TO_DECLARER_ONLY = 64
DISCARD_FACE_DOWN = 65
WIN_ONLY_AS_DECLARER = 66
PLAYERS = 67  # 2, 3 or 4
SITOUT_HALF_MARRIAGE = 68
TWO_PLAYER_TALON = 69  # cards in each of the two talons of a 2-player deal (2 or 3)
# Scoring options of issue 28 (docs/RULES.md "Scoring variants"; evidence in docs/peer-rules.md §3, §4, §8).
CONCEDE_HALF_FLOOR = 70  # concede_payout = half_floor: each defender gets contract // 2
ROUND_UNIT = 71  # rounding: points are rounded to (points + ROUND_OFFSET) // ROUND_UNIT * ROUND_UNIT
ROUND_OFFSET = 72
DECLARER_SCORES_POINTS = 73  # declarer_scores = points: a made declarer scores max(contract, rounded points)
WIN_SCORE_CAPPED = 74  # a win from the barrel ends on exactly the target
# Bolt, no-win and 4-player options of issue 28 (docs/RULES.md "Bolts, the no-win streak, the dealer
# sitting out and the dump truck"; evidence in docs/peer-rules.md §6, §9, §11).
BOLT_EXEMPT_KEEPS_RUN = 75  # an exempt declarer's trickless deal leaves his consecutive bolt run as it is
NO_WIN_PENALTY = 76  # NO_WIN_OFF / NO_WIN_CUMULATIVE / NO_WIN_CONSECUTIVE
NO_WIN_PENALTY_AMOUNT = 77  # what every third no-win deal costs
SITOUT_CARDS = 78  # players = 4: the dealer sitting out scores the talon's card points
SITOUT_MARRIAGE = 79  # ... and the marriages (and with sitout_half_marriage the half marriages) in it
DUMP_TRUCK_VALUE = 80  # the score the dump truck resets to 0 (and its negative with dump_truck_negative)
# Auction options of issue 28 items 1, 2 and 7 (docs/RULES.md "The forced bid, all passing, the
# ceiling and step before the talon"; evidence in docs/peer-rules.md §1, §2, §7). Legal bids and
# contracts under them: sim.game.bids_nb.
FORCED_BID_SEAT = 81  # forced_first_bid's seat: 0 first hand, 1 the dealer (also the dark game's seat)
ALL_PASS = 82  # forced_first_bid = false: 0 a deal all pass is thrown in, 1 the dealer plays it at his forced bid
BID_CEILING_BEFORE_TALON = 83  # 0 = none; else no auction bid above it (the final contract keeps the usual cap)
BID_STEP_10_FROM = 84  # 0 = none; else a bid or final contract at or above it is a multiple of 10
BARREL_MIN_BID_ENFORCED = 85  # a sitter bids barrel_min_contract or more (his forced bid too), or passes
# Barrel variants of issue 28 item 7 (docs/RULES.md "Barrel variants"; evidence in docs/peer-rules.md §7).
BARREL_FAILED_STAYS = 86  # barrel_failed_contract = stays: a sitter's failed contract is not recorded, an attempt
BARREL_FREEZE = 87  # 0: the range barrel (barrel_freeze = false): a sitter keeps his score, ±contract recorded
BARREL_JUMP_WINS = 88  # a jump past the target wins (set too by barrel_freeze = false, which implies it)
BARREL_DEFENCE_WINS = 89  # a sitter whose defence takes his score to the target wins
BARREL_SIMULTANEOUS_KEEPER = 90  # climbers together: the declarer among them, else the lowest seat, sits
BARREL_COLLISION = 91  # COLLISION_* below: who falls when a newcomer meets a sitter (barrel_knock_off)
# When marriages may be declared and take effect, issue 28 item 10 (docs/RULES.md "When marriages may be
# declared and take effect"; evidence in docs/peer-rules.md §10). Both apply to every declaration
# (marriage, half marriage, the four aces).
MARRIAGE_MIN_CARDS = 92  # a leader may declare only holding at least this many cards, the led card included
MARRIAGE_TRUMP_FROM = 93  # 1 = next_trick: the trick a marriage is led in keeps the trump in force before it
# Dark and golden scoring of issue 28 item 5 (docs/RULES.md "Dark and golden scoring"; evidence in
# docs/peer-rules.md §5).
DARK_DEFENDERS_DOUBLED = 94  # a dark deal's defenders score round(2 x card points + marriages)
GOLDEN_DEFENDERS_ROUNDED = 95  # golden_defenders = doubled_rounded: 2 x round(card points + marriages)
BOLT_DOUBLE_IN_GOLDEN = 96
# Rules of real tables, issue 45 (docs/RULES.md "Rules of real tables"; evidence in docs/peer-rules.md,
# "Where our engine disagrees").
CONCEDE_FREE_AT_MIN_BID = 97  # a concession at the winning bid min_bid costs and pays nothing
BARREL_FALLS_ATTEMPTS_ONLY = 98  # barrel_falls_counted = attempts_only: only running out of attempts counts
WIN_TIE_LOWEST_SEAT = 99  # target_tie = lowest_seat: non-declarers tied at the target, the lowest seat wins
NO_RAISE_AFTER_TALON = 100  # the final contract is the winning bid (legal contracts: sim.game.bids_nb)
N_FIELDS = 101

BOLT_ON_NO_TRICKS, BOLT_ON_ZERO_POINTS, BOLT_ON_THREE_PASSES = 0, 1, 2
BOLT_ON_NAMES = ("no_tricks", "zero_points", "three_passes")
BOLT_COUNT_CUMULATIVE, BOLT_COUNT_CONSECUTIVE, BOLT_COUNT_EACH = 0, 1, 2
BOLT_COUNT_NAMES = ("cumulative", "consecutive", "each")
NO_WIN_OFF, NO_WIN_CUMULATIVE, NO_WIN_CONSECUTIVE = 0, 1, 2
NO_WIN_PENALTY_NAMES = ("off", "cumulative", "consecutive")
# sitout_scores: name -> (SITOUT_CARDS, SITOUT_MARRIAGE)
SITOUT_SCORES = {"cards_and_marriage": (1, 1), "cards": (1, 0), "marriage": (0, 1)}
FORCED_BID_SEAT_NAMES = ("first_hand", "dealer")  # index = the FORCED_BID_SEAT value
ALL_PASS_NAMES = ("throw_in", "dealer_plays")  # index = the ALL_PASS value
MARRIAGE_TRUMP_FROM_NAMES = ("this_trick", "next_trick")  # index 1 sets MARRIAGE_TRUMP_FROM
BARREL_FAILED_CONTRACT_NAMES = ("falls", "stays")  # index 1 sets BARREL_FAILED_STAYS
BARREL_KEEPER_NAMES = ("none", "declarer_else_lowest_seat")  # index 1 sets BARREL_SIMULTANEOUS_KEEPER
COLLISION_NEWCOMER_STAYS, COLLISION_SITTER_STAYS, COLLISION_BOTH_FALL = 0, 1, 2
BARREL_COLLISION_NAMES = ("newcomer_stays", "sitter_stays", "both_fall")
GOLDEN_DEFENDERS_NAMES = ("doubled_cards", "doubled_rounded")  # index 1 sets GOLDEN_DEFENDERS_ROUNDED
BARREL_FALLS_COUNTED_NAMES = ("all", "attempts_only")  # index 1 sets BARREL_FALLS_ATTEMPTS_ONLY
TARGET_TIE_NAMES = ("after_declarer", "lowest_seat")  # index 1 sets WIN_TIE_LOWEST_SEAT
CONCEDE_PAYOUT_NAMES = ("half_up5", "half_floor")  # index 1 sets CONCEDE_HALF_FLOOR
# rounding: name -> (unit, offset). (points + offset) // unit * unit rounds a remainder below
# unit - offset down and the rest up: five 1-2 down, 3-4 up; ten (Polish) 1-5 down, 6-9 up;
# ten_half_up 1-4 down, 5-9 up; none leaves the points as they are.
ROUNDINGS = {"five": (5, 2), "none": (1, 0), "ten": (10, 4), "ten_half_up": (10, 5)}
