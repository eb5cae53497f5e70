"""A slow, plainly correct replay of the engine's stored deals and games, for checking it.

Written from ../shared/RULES.md §1–§4, docs/RULES.md (settlement order, record layout, event bits,
"Meaning of the options where RULES.md leaves room": thrown-in deals, redeals, silence, the discard
ban, concession limits, four nines, the three bolt rules, the dark game, the golden round, the free
talon and the accumulating barrel; "Four players", "Two players") and the play rules of
docs/solver.md (the §4.4 options), sharing no code with the compiled engine: cards are plain
indices (6 × suit + rank), hands are Python sets, and every rule is one visible step.
``replay_deal`` checks one deal row, ``replay_game`` the game rules over the rows of one game;
both raise ``AssertionError`` naming the game, the deal, the column and the expected and stored
values.

Four players (RULES.md §4.1, docs/RULES.md "Four players"): the dealer sits out, the three others
play an ordinary 3-player deal, so ``replay_deal`` checks the sitter's own columns (no cards, the
talon's points as his result) and then the three players' deal as a 3-player row
(``three_player_view``); ``replay_game`` settles all four seats.

Two players (RULES.md §4.1, docs/RULES.md "Two players"): the same checks with a seat count of two
(``seats_of``, ``deal_shape``): hands of 10 (9) cards and two talons, the burial in place of the
gifts (``_check_burial``), tricks of two cards, the buried pair counted for the declarer and the
other talon (with the card put into it) for the last trick's winner.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from sim.game.rules import HouseRules

DECK_SIZE = 24
FULL_DECK = (1 << DECK_SIZE) - 1
RANK_POINTS = (0, 2, 3, 4, 10, 11)  # 9 J Q K T A
JACK, QUEEN, KING, ACE = 1, 2, 3, 5
FOUR_ACES_BIT = 1 << 8  # bit 8 of ``marriages``: four aces (bit s: marriage of suit s, 4 + s: half)
LEAD_DECLINES = 32  # a lead stored as card + 32 declines its combination (marriage_optional)
BASE_CAP = 120  # a bid or contract may not pass 120 + the marriages held

# Event bits of the ``events`` columns (docs/RULES.md, record of a deal).
EV_WIN = 1
EV_BARREL_ON = 2
EV_BARREL_STAY = 4
EV_DEFENCE_IGNORED = 8
EV_FALL_ATTEMPTS = 16
EV_FALL_CONTRACT = 32
EV_KNOCKED_OFF = 64
EV_SIMULTANEOUS = 128
EV_FALL_TO_ZERO = 256
EV_BOLT_PENALTY = 512
EV_DUMP_TRUCK = 1024
EV_REDEAL_PENALTY = 2048
EV_GOLDEN_RESET = 4096
EV_NO_WIN_PENALTY = 8192
EV_BARREL_OFF = 16384

# ``bid_kind`` (docs/RULES.md, record of a deal).
KIND_AUCTION, KIND_DARK, KIND_GOLDEN, KIND_UNDARKED = 0, 1, 2, 3
DOUBLED_KINDS = (KIND_DARK, KIND_GOLDEN)
FIXED_CONTRACT = 120  # the dark game's and the golden round's contract

# ``redeal`` reasons.
R_ALL_PASSED, R_HAND_POINTS, R_FOUR_NINES, R_THREE_NINES, R_FOUR_ACES = 1, 2, 3, 4, 5
R_TALON_POINTS, R_TALON_TWO_NINES, R_TALON_THREE_JACKS, R_FOUR_NINES_AFTER = 6, 7, 8, 9
BEFORE_BIDDING = (R_HAND_POINTS, R_FOUR_NINES, R_THREE_NINES, R_FOUR_ACES)
AT_TALON = (R_TALON_POINTS, R_TALON_TWO_NINES, R_TALON_THREE_JACKS)
NINE, TEN = 0, 4


def suit_of(card: int) -> int:
    return card // 6


def rank_of(card: int) -> int:
    return card % 6


def cards_in(mask: int) -> set[int]:
    return {c for c in range(DECK_SIZE) if mask >> c & 1}


def marriage_suits(cards: set[int]) -> list[int]:
    return [s for s in range(4) if 6 * s + QUEEN in cards and 6 * s + KING in cards]


def round5(points: int) -> int:
    """A defender's points to a multiple of 5: remainder 1–2 down, 3–4 up (47 → 45, 48 → 50)."""
    return (points + 2) // 5 * 5


# rounding: (unit, the largest remainder rounded down) — docs/RULES.md "Scoring variants".
ROUNDING_RULE = {"five": (5, 2), "none": (1, 0), "ten": (10, 5), "ten_half_up": (10, 4)}


def rounded(points: int, rules: HouseRules) -> int:
    """Points rounded by ``rounding``: to the unit, a remainder up to the rule's largest down, the
    rest up (five: 47 → 45, 48 → 50; ten: 15 → 10, 16 → 20; ten_half_up: 15 → 20; none: as they are)."""
    unit, down_to = ROUNDING_RULE[rules.rounding]
    remainder = points % unit
    return points - remainder if remainder <= down_to else points - remainder + unit


def declarer_made_score(contract: int, points: int, rules: HouseRules) -> int:
    """What a declarer who made ``contract`` with ``points`` scores before doubling: the contract,
    or with ``declarer_scores = points`` his rounded points when more."""
    return max(contract, rounded(points, rules)) if rules.declarer_scores == "points" else contract


def concession_payout(contract: int, rules: HouseRules) -> int:
    """What each defender gets when the declarer concedes: half the contract rounded up to a
    multiple of 5 (105 → 55), 60 with ``concede_60``, half rounded down to a point with
    ``concede_payout = half_floor`` (105 → 52); nothing for a free throw (``concede_free_at_min_bid``:
    a contract of ``min_bid``)."""
    if free_throw(contract, rules):
        return 0
    if rules.concede_60:
        return 60
    if rules.concede_payout == "half_floor":
        return contract // 2
    return -(-contract // 10) * 5


def free_throw(contract: int, rules: HouseRules) -> bool:
    """concede_free_at_min_bid: conceding a contract of min_bid costs and pays nothing."""
    return rules.concede_free_at_min_bid and contract == rules.min_bid


def concession_cost(contract: int, rules: HouseRules) -> int:
    """What the declarer loses conceding ``contract`` before any third-concession penalty: the
    contract, or nothing with ``concede_no_deduction`` or for a free throw."""
    return 0 if rules.concede_no_deduction or free_throw(contract, rules) else contract


def _where(row: dict) -> str:
    return f"game {row['game']} deal {row['deal']}"


def _expect(row: dict, what: str, expected, got) -> None:
    if expected != got:
        raise AssertionError(f"{_where(row)}: {what}: expected {expected!r}, stored {got!r}")


def _require(row: dict, condition: bool, message: str) -> None:
    if not condition:
        _fail(row, message)


def _fail(row: dict, message: str) -> None:
    raise AssertionError(f"{_where(row)}: {message}")


# ---- one deal -----------------------------------------------------------------------------------

def replay_deal(row: dict, rules: HouseRules, seen: Counter | None = None) -> None:
    """Check one deal row against the rules of one deal (RULES.md §2, §4): the deal, the bidding
    (auction, dark game, golden round, free talon), a redeal's reason, the talon and gifts (with
    two players the burial), the final contract, every card played and the deal's results. What
    depends on the game (scores, the barrel, counters) is checked by ``replay_game``. ``seen``, if
    given, counts the situations met (see ``_check_play``), for tests that the sample reaches each
    rule."""
    seen = Counter() if seen is None else seen
    if rules.players == 4:
        _check_sitter_columns(row, rules)
        seen["four players"] += 1
        row = three_player_view(row)
    shape = deal_shape(row, rules)
    if shape.seats == 2:
        seen["two players"] += 1
        seen[f"two players, talons of {shape.talon}"] += 1
    hands = [row[f"hand{s}"] for s in range(shape.seats)]
    talon = row["talon"]
    _check_dealt(row, shape, hands, talon)
    if row["redeal"]:
        _check_redeal_row(row, rules, hands, talon, seen)
        return
    kind = row["bid_kind"]
    _require(row, kind in (KIND_AUCTION, KIND_DARK, KIND_GOLDEN, KIND_UNDARKED), f"bid_kind {kind} unknown")
    _require(row, kind not in (KIND_DARK, KIND_UNDARKED) or rules.dark_game, f"bid_kind {kind} without dark_game")
    _require(row, kind != KIND_GOLDEN or rules.golden_round, "bid_kind 2 without golden_round")
    _check_bidding(row, rules, hands)
    seen[f"bid_kind {kind}"] += 1

    declarer = row["declarer"]
    contract = row["contract"]
    if shape.seats == 2:
        final, put_aside = _check_burial(row, rules, hands, talon, seen)
    else:
        final, put_aside = _check_gifts(row, rules, hands, talon, seen), None

    winning_bid = row["winning_bid"]
    _require(row, contract >= winning_bid, f"contract {contract} is below the winning bid {winning_bid}")
    _require(row, contract % 5 == 0, f"contract {contract} is not a multiple of 5")
    _require(row, contract == winning_bid or value_allowed(contract, rules),
             f"contract raised to {contract}, not a multiple of 10 from bid_step_10_from {rules.bid_step_10_from}")
    _require(row, contract <= rules.max_contract, f"contract {contract} is above max_contract {rules.max_contract}")
    if kind in DOUBLED_KINDS:
        _expect(row, f"contract of bid_kind {kind} (fixed, no raise)", FIXED_CONTRACT, contract)
        _expect(row, f"conceded (no concession in bid_kind {kind})", False, row["conceded"])
    if rules.no_raise_after_talon:
        _expect(row, "contract (no_raise_after_talon: the winning bid)", winning_bid, contract)
    if contract > winning_bid and not rules.no_bid_cap:
        cap = BASE_CAP + sum(rules.marriage_values[s] for s in marriage_suits(final[declarer]))
        _require(row, contract <= cap, f"contract raised to {contract} above 120 + marriages of the "
                                       f"{len(final[declarer])}-card hand after the talon = {cap}")
    _check_no_redeal_due(row, rules, hands, talon, final, seen)

    nines = [s for s in range(shape.seats) if four_nines(final[s])]
    bonus = [rules.four_nines_bonus if s in nines else 0 for s in range(shape.seats)]
    if rules.four_nines_bonus and nines:
        seen["four nines bonus"] += 1
    if row["conceded"]:
        _check_concession(row, rules, declarer, contract, bonus)
        return
    _check_play(row, rules, declarer, contract, final, seen, bonus, put_aside)


@dataclass(frozen=True)
class DealShape:
    """How a deal's cards lie: ``seats`` players of the deal (3; a 4-player row is checked through
    its 3-player view; 2 with players = 2), ``hand`` cards dealt to each, ``talons`` talons of
    ``talon`` cards, and ``tricks`` tricks of ``seats`` cards (RULES.md §2, §4.1)."""

    seats: int
    hand: int
    talons: int
    talon: int
    tricks: int


def deal_shape(row: dict, rules: HouseRules) -> DealShape:
    """The shape of a (3-player view of a) row: 7 + 7 + 7 and a talon of 3, eight tricks; with two
    players 10 + 10 and two talons of 2 (two_player_talon = 3: 9 + 9 and two of 3), the declarer's
    hand back to 10 (9) after the talon and the burial, so ten (nine) tricks of two cards."""
    if seats_of(row) == 2:
        k = rules.two_player_talon
        return DealShape(seats=2, hand=12 - k, talons=2, talon=k, tricks=12 - k)
    return DealShape(seats=3, hand=7, talons=1, talon=3, tricks=8)


def _check_gifts(row: dict, rules: HouseRules, hands: list[int], talon: int, seen: Counter) -> list[set[int]]:
    """Three players: the declarer takes the talon (10 cards) and gives one card to each defender.
    Returns the 8-card hands they play."""
    declarer = row["declarer"]
    ten_cards = cards_in(hands[declarer] | talon)
    gifts = [row[f"gift{s}"] for s in range(3)]
    _expect(row, f"gift{declarer} (the declarer gives himself nothing)", -1, gifts[declarer])
    defenders = [s for s in range(3) if s != declarer]
    for s in defenders:
        _require(row, gifts[s] in ten_cards,
                 f"gift{s} = {gifts[s]} is not a card of the declarer's 10-card hand {sorted(ten_cards)}")
        if rules.no_aces_tens_in_discard:
            _require(row, rank_of(gifts[s]) not in (TEN, ACE), f"gift{s} = {gifts[s]} is an ace or a ten "
                                                              "(no_aces_tens_in_discard)")
            if any(rank_of(c) in (TEN, ACE) for c in ten_cards):
                seen["discard ban binds"] += 1
    _require(row, gifts[defenders[0]] != gifts[defenders[1]], f"the same card {gifts[defenders[0]]} given twice")
    eight_cards = [cards_in(hands[s]) | {gifts[s]} for s in range(3)]
    eight_cards[declarer] = ten_cards - {gifts[s] for s in defenders}
    return eight_cards


@dataclass(frozen=True)
class PutAside:
    """Two players: the cards out of play that count at the end of the deal (docs/RULES.md "Two
    players"): the pair the declarer buried (his) and the other talon with the card he put into
    it (the last trick's winner's)."""

    buried: frozenset[int]
    other_talon: frozenset[int]


def _check_burial(row: dict, rules: HouseRules, hands: list[int], talon: int,
                  seen: Counter) -> tuple[list[set[int]], PutAside]:
    """Two players: the declarer takes the talon (12 cards), buries two distinct cards of them and,
    with two_player_talon = 3, puts one more into the other talon (``talon_card``); with
    no_aces_tens_in_discard none of them is an ace or a ten. Returns the hands played (10 or 9
    cards each) and what was put aside."""
    declarer = row["declarer"]
    twelve = cards_in(hands[declarer] | talon)
    buried_mask = row["buried"]
    _expect(row, "cards buried (two, distinct)", 2, buried_mask.bit_count())
    buried = cards_in(buried_mask)
    _require(row, buried_mask & ~FULL_DECK == 0 and buried <= twelve,
             f"buried {sorted(cards_in(buried_mask))} (mask {buried_mask:#x}) are not cards of the declarer's "
             f"12-card hand {sorted(twelve)}")
    card = row["talon_card"]
    if rules.two_player_talon == 3:
        _require(row, card in twelve - buried, f"talon_card {card} is not a card of the declarer's 12-card hand "
                                               f"{sorted(twelve)} other than the buried {sorted(buried)}")
        put = buried | {card}
        seen["card put into the other talon"] += 1
    else:
        _expect(row, "talon_card (only with two_player_talon = 3)", -1, card)
        put = buried
    if rules.no_aces_tens_in_discard:
        banned = sorted(c for c in put if rank_of(c) in (TEN, ACE))
        _require(row, not banned, f"an ace or a ten {banned} put down (no_aces_tens_in_discard): buried "
                                  f"{sorted(buried)}, talon_card {card}")
        if any(rank_of(c) in (TEN, ACE) for c in twelve):
            seen["burial ban binds"] += 1
    final = [cards_in(h) for h in hands]
    final[declarer] = twelve - put
    other = cards_in(row["other_talon"]) | ({card} if rules.two_player_talon == 3 else set())
    return final, PutAside(frozenset(buried), frozenset(other))


def seats_of(row: dict) -> int:
    """Seats in a stored row: 4 when it has the columns of a 4-player run, 2 when it has those of a
    2-player run (``other_talon``), else 3."""
    if "hand3" in row:
        return 4
    return 2 if "other_talon" in row else 3


def playing_seats(row: dict) -> list[int]:
    """The seats that play the deal, from first hand (left of the dealer) clockwise: with four
    players the dealer sits out; with two, first hand is the non-dealer."""
    n = seats_of(row)
    return [(row["dealer"] + 1 + i) % n for i in range(min(n, 3))]


def sitter_points(talon: set[int], rules: HouseRules) -> int:
    """players = 4: the dealer sitting out scores the talon's card points plus the value of a
    marriage in it (sitout_half_marriage: half a marriage's value, rounded down, for a K or Q whose
    partner is not in the talon), the total rounded like a defender's points; sitout_scores = cards
    leaves out the marriages, = marriage the card points."""
    marriages = 0
    for suit in range(4):
        halves = {6 * suit + KING, 6 * suit + QUEEN} & talon
        if len(halves) == 2:
            marriages += rules.marriage_values[suit]
        elif halves and rules.sitout_half_marriage:
            marriages += rules.marriage_values[suit] // 2
    cards = card_points_of(talon)
    total = {"cards_and_marriage": cards + marriages, "cards": cards, "marriage": marriages}[rules.sitout_scores]
    return rounded(total, rules)


def _check_sitter_columns(row: dict, rules: HouseRules) -> None:
    d = row["dealer"]
    _require(row, d in range(4), f"dealer {d} is not a seat of 4")
    for column, value in (("hand", 0), ("bid", 0), ("gift", -1), ("tricks", 0), ("card_points", 0),
                          ("marriage_points", 0), ("marriages", 0), ("bolt", 0)):
        _expect(row, f"{column}{d} of the dealer sitting out", value, row[f"{column}{d}"])
    expected = 0 if row["redeal"] else sitter_points(cards_in(row["talon"]), rules)
    _expect(row, f"result{d} of the dealer sitting out (the talon's points)", expected, row[f"result{d}"])
    _require(row, row["declarer"] != d, "the dealer sitting out is the declarer")


_SEAT_COLUMNS = ("hand", "bid", "gift", "card_points", "marriage_points", "marriages", "tricks", "result",
                 "change", "score", "bolt", "events")


def three_player_view(row: dict) -> dict:
    """A 4-player row as the 3-player deal its players play: seats 0, 1, 2 are first hand and the
    two after him, the dealer of the view is seat 2 (so that first hand is seat 0) and the real
    dealer's events are kept as ``dealer_events`` (he pays for a third redeal)."""
    order = playing_seats(row)
    view = {k: v for k, v in row.items() if not any(k.startswith(c) and k[len(c):].isdigit() for c in _SEAT_COLUMNS)}
    for i, seat in enumerate(order):
        for column in _SEAT_COLUMNS:
            view[f"{column}{i}"] = row[f"{column}{seat}"]
    view["dealer"] = 2
    view["declarer"] = order.index(row["declarer"]) if row["declarer"] >= 0 else row["declarer"]
    view["dealer_events"] = row[f"events{row['dealer']}"]
    return view


def four_nines(cards: set[int]) -> bool:
    return all(6 * s + NINE in cards for s in range(4))


def card_points_of(cards: set[int]) -> int:
    return sum(RANK_POINTS[rank_of(c)] for c in cards)


def count_rank(cards: set[int], rank: int) -> int:
    return sum(1 for c in cards if rank_of(c) == rank)


def first_hand_of(row: dict) -> int:
    return (row["dealer"] + 1) % seats_of(row)


def forced_seat_of(row: dict, rules: HouseRules) -> int:
    """The seat holding the forced opening bid and the dark game: first hand, or the dealer under
    forced_bid_seat = dealer (read only with forced_first_bid)."""
    if rules.forced_first_bid and rules.forced_bid_seat == "dealer":
        return row["dealer"]
    return first_hand_of(row)


def value_allowed(value: int, rules: HouseRules) -> bool:
    """bid_step_10_from: a bid or raised contract at or above it is a multiple of 10."""
    return rules.bid_step_10_from is None or value < rules.bid_step_10_from or value % 10 == 0


def sitter_least(least: int, rules: HouseRules) -> int:
    """barrel_min_bid_enforced: a sitter's least bid from ``least``: the first value of the bid_step
    grid from ``least`` reaching barrel_min_contract, lifted to one bid_step_10_from allows."""
    value = least
    while value < rules.barrel_min_contract:
        value += rules.bid_step
    while not value_allowed(value, rules):
        value += 5
    return value


def forced_values(rules: HouseRules) -> set[int]:
    """The forced bid's possible values: min_bid, and a sitter's under barrel_min_bid_enforced."""
    return {rules.min_bid, sitter_least(rules.min_bid, rules)} if rules.barrel_min_bid_enforced else {rules.min_bid}


def bid_values(rules: HouseRules, lo: int, hi: int) -> list[int]:
    """The values from ``lo`` to ``hi`` of the bid_step grid from min_bid that bid_step_10_from
    allows (the bids a raise can stop at; a sitter's least bid lies on the same grid)."""
    return [v for v in range(rules.min_bid, hi + 1, rules.bid_step) if v >= lo and value_allowed(v, rules)]


def is_dealer_plays(row: dict, rules: HouseRules) -> bool:
    """all_pass = dealer_plays: every other seat passed without a bid, and the dealer is declarer at
    his forced bid without a turn (nobody else holds a bid)."""
    n = seats_of(row)
    return (rules.all_pass == "dealer_plays" and row["bid_kind"] == KIND_AUCTION and not row["redeal"]
            and row["declarer"] == row["dealer"] and all(row[f"bid{s}"] == 0 for s in range(n) if s != row["dealer"]))


def hand_redeal_reasons(cards: set[int], rules: HouseRules) -> set[int]:
    """Reasons a hand as dealt (7 cards; 10 or 9 with two players) allows (or, four aces, forces)
    a redeal before the bidding."""
    reasons = set()
    if rules.redeal_hand_points_below and card_points_of(cards) < rules.redeal_hand_points_below:
        reasons.add(R_HAND_POINTS)
    nines = count_rank(cards, NINE)
    if rules.redeal_four_nines and nines == 4:
        reasons.add(R_FOUR_NINES)
    if rules.redeal_three_nines and nines >= 3:
        reasons.add(R_THREE_NINES)
    if rules.redeal_four_aces and count_rank(cards, ACE) == 4:
        reasons.add(R_FOUR_ACES)
    if rules.redeal_policy == "never":
        reasons &= {R_FOUR_ACES}  # asked redeals are never asked; four aces still force one
    return reasons


def talon_redeal_reasons(row: dict, rules: HouseRules, talon: set[int]) -> set[int]:
    """Reasons the declarer may ask for a redeal when the talon he takes is shown."""
    if rules.redeal_policy == "never":
        return set()
    reasons = set()
    # Uncontested: every other player passed at his first turn (the forced seat never had one).
    uncontested_forced = (rules.forced_first_bid and row["winning_bid"] in forced_values(rules)
                          and row["declarer"] == forced_seat_of(row, rules) and row["bid_turns"] == seats_of(row) - 1)
    if rules.redeal_talon_points_below and card_points_of(talon) < rules.redeal_talon_points_below and (
            not rules.redeal_talon_only_at_100 or uncontested_forced):
        reasons.add(R_TALON_POINTS)
    if rules.redeal_talon_two_nines and count_rank(talon, NINE) >= 2:
        reasons.add(R_TALON_TWO_NINES)
    if rules.redeal_talon_three_jacks and count_rank(talon, JACK) == 3:
        reasons.add(R_TALON_THREE_JACKS)
    return reasons


def _bidding_order(row: dict) -> list[int]:
    n = seats_of(row)
    return [(first_hand_of(row) + i) % n for i in range(n)]


def _check_redeal_row(row: dict, rules: HouseRules, hands: list[int], talon: int, seen: Counter) -> None:
    """A deal thrown in (all passed) or redealt: nothing played or scored, and the stored reason is
    justified by the hands, the talon and the rules (and no earlier check would have stopped it)."""
    reason = row["redeal"]
    n = len(hands)
    seen[f"redeal {reason}"] += 1
    if n == 2:
        seen[f"two players, redeal {reason}"] += 1
    _require(row, 1 <= reason <= 9, f"redeal reason {reason} unknown")
    _expect(row, "plays of a deal not played", [-1] * 24, list(row["plays"]))
    for column in ("contract", "conceded", "made"):
        _expect(row, f"{column} of a deal not played", 0, row[column])
    if n == 2:  # nothing buried, no card put into the other talon (docs/RULES.md, record of a deal)
        _expect(row, "buried of a deal not played", 0, row["buried"])
        _expect(row, "talon_card of a deal not played", -1, row["talon_card"])
    for s in range(n):
        if n == 3:
            _expect(row, f"gift{s} of a deal not played", -1, row[f"gift{s}"])
        for column in ("tricks", "card_points", "marriage_points", "marriages", "result", "bolt"):
            _expect(row, f"{column}{s} of a deal not played", 0, row[f"{column}{s}"])
    _expect(row, "bid_kind of a deal not played (no redeal in a dark or golden deal)", KIND_AUCTION, row["bid_kind"])
    bids = [row[f"bid{s}"] for s in range(n)]
    dealt = [cards_in(h) for h in hands]
    before = [hand_redeal_reasons(dealt[s], rules) for s in _bidding_order(row)]
    first_asking = next((r for r in before if r), set())
    if reason == R_ALL_PASSED:
        _require(row, not rules.forced_first_bid, "all passed although forced_first_bid is on")
        _require(row, rules.all_pass == "throw_in", "thrown in when all passed, under all_pass = dealer_plays")
        _expect(row, "bids when all passed", [0] * n, bids)
        _expect(row, f"bid_turns when all passed ({n} passes)", n, row["bid_turns"])
        # With redeal_limit_penalty a would-be third redeal is not asked (the deal is played as it
        # lies, here thrown in): replay_game checks that case, knowing the redeals in a row.
        if not rules.redeal_limit_penalty:
            _require(row, not first_asking, f"all passed, but a hand had to redeal first ({first_asking})")
        return
    if reason in BEFORE_BIDDING:
        _expect(row, "bids of a deal redealt before the bidding", [0] * n, bids)
        _expect(row, "bid_turns of a deal redealt before the bidding", 0, row["bid_turns"])
        _require(row, reason in first_asking,
                 f"redeal reason {reason}, but the first hand (from first hand on) allowing one allows "
                 f"{sorted(first_asking)} (hands' reasons in bidding order: {before})")
        return
    _require(row, not first_asking, f"redeal {reason} after the bidding, but a hand had to redeal before it "
                                    f"({before})")
    winning_bid = max(bids)
    _require(row, winning_bid >= rules.min_bid, f"redeal {reason} after the bidding without a winning bid: {bids}")
    _expect(row, "winning_bid of a deal redealt after the bidding", winning_bid, row["winning_bid"])
    declarer = bids.index(winning_bid)
    at_talon = talon_redeal_reasons({**row, "declarer": declarer}, rules, cards_in(talon))
    if reason in AT_TALON:
        _require(row, reason in at_talon, f"talon redeal {reason} not allowed: the talon allows {sorted(at_talon)}")
        return
    _require(row, reason == R_FOUR_NINES_AFTER and rules.redeal_four_nines_after_talon
             and rules.redeal_policy == "always", f"redeal {reason} after the discard not allowed")
    _require(row, not at_talon, f"four nines after the discard, but the talon allowed a redeal first {at_talon}")
    if n == 2:
        # The burial is not stored: the defender holds the four nines as dealt, or the declarer
        # holds them among his 12 cards and can put down the others' share without a nine.
        twelve = dealt[declarer] | cards_in(talon)
        put = 2 + (rules.two_player_talon == 3)
        puttable = [c for c in twelve if rank_of(c) != NINE
                    and not (rules.no_aces_tens_in_discard and rank_of(c) in (TEN, ACE))]
        possible = four_nines(dealt[1 - declarer]) or (four_nines(twelve) and len(puttable) >= put)
        _require(row, possible, "four nines after the burial: no player can hold them")
        return
    # The gifts are not stored: someone must be able to hold the four nines after the discard.
    ten = dealt[declarer] | cards_in(talon)
    possible = count_rank(ten, NINE) == 4 or any(
        count_rank(dealt[s], NINE) == 4 or (count_rank(dealt[s], NINE) == 3 and count_rank(ten, NINE) == 1)
        for s in range(n) if s != declarer)
    _require(row, possible, "four nines after the discard: no player can hold them")


def check_redeal_declarer(row: dict) -> None:
    """docs/RULES.md, ``redeal`` column: a deal not played has ``declarer`` −1."""
    if row["redeal"]:
        _expect(row, f"declarer of a deal not played (redeal {row['redeal']})", -1, row["declarer"])


def redeal_due(row: dict, rules: HouseRules, hands: list[int], talon: int, final: list[set[int]]) -> list:
    """Every redeal condition met in a played deal: before the bidding (the hands as dealt), at the
    talon (the one the declarer takes), after the discard or the burial (the hands played)."""
    due = []
    if row["bid_kind"] == KIND_AUCTION:  # a dark deal, undarked or not, was taken unseen: no redeal
        due += [(s, sorted(r)) for s in range(len(hands)) if (r := hand_redeal_reasons(cards_in(hands[s]), rules))]
        if r := talon_redeal_reasons(row, rules, cards_in(talon)):
            due.append(("talon", sorted(r)))
        if rules.redeal_four_nines_after_talon and rules.redeal_policy == "always" and any(map(four_nines, final)):
            due.append(("after the discard", [R_FOUR_NINES_AFTER]))
    return due


def _check_no_redeal_due(row: dict, rules: HouseRules, hands: list[int], talon: int, final: list[set[int]],
                         seen: Counter) -> None:
    """A played deal: no redeal was due (cards taken unseen, dark or golden, are played as they lie),
    unless the dealer paid for a third redeal in a row and the deal was played as it lay."""
    due = redeal_due(row, rules, hands, talon, final)
    if row.get("dealer_events", row[f"events{row['dealer']}"]) & EV_REDEAL_PENALTY:
        _require(row, rules.redeal_limit_penalty, "a redeal penalty without redeal_limit_penalty")
        _require(row, bool(due), "the dealer paid for a third redeal, but no redeal was due in this deal")
        seen["redeal penalty"] += 1
        return
    _require(row, not due, f"a redeal was due but the deal was played: {due}")


def free_talon_bid(rules: HouseRules) -> int:
    """The bid of a free talon: barrel_min_contract, but at most 120 for a sitter who accumulates
    (barrel_accumulate: he may not bid more, and his contract does not score)."""
    return min(rules.barrel_min_contract, FIXED_CONTRACT) if rules.barrel_accumulate else rules.barrel_min_contract


def is_free_talon(row: dict, rules: HouseRules) -> bool:
    """A deal in which a player on the barrel took the talon without bidding (barrel_talon_free or
    barrel_forced_last): no bidding decision, his bid is ``free_talon_bid``, the others' 0."""
    if not (rules.barrel_talon_free or rules.barrel_forced_last) or row["bid_kind"] != KIND_AUCTION:
        return False
    bids = [row[f"bid{s}"] for s in range(seats_of(row))]
    return row["bid_turns"] == 0 and sorted(bids) == [0] * (len(bids) - 1) + [free_talon_bid(rules)]


def _check_dealt(row: dict, shape: DealShape, hands: list[int], talon: int) -> None:
    """The 24 cards dealt once: the hands, the talon and (two players) the other talon."""
    for s in range(shape.seats):
        _expect(row, f"cards in hand{s}", shape.hand, hands[s].bit_count())
    talons = [talon] if shape.talons == 1 else [talon, row["other_talon"]]
    for name, part in zip(("talon", "other_talon"), talons, strict=False):
        _expect(row, f"cards in {name}", shape.talon, part.bit_count())
    union = 0
    for part in (*hands, *talons):
        _require(row, union & part == 0, f"a card is dealt twice (mask {union & part:#x})")
        union |= part
    _expect(row, "all 24 cards dealt", FULL_DECK, union)
    _require(row, row["dealer"] in range(shape.seats), f"dealer {row['dealer']} is not a seat")


def _check_bidding(row: dict, rules: HouseRules, hands: list[int]) -> None:
    n = len(hands)
    bids = [row[f"bid{s}"] for s in range(n)]
    first_hand = first_hand_of(row)
    forced = forced_seat_of(row, rules)  # the forced bid's and the dark game's seat
    kind = row["bid_kind"]
    if kind in DOUBLED_KINDS:
        # Dark game nobody undarked (the forced seat) / golden round (first hand): a fixed 120
        # without bidding; in the dark game every other player declined to undark (one pass each).
        holder = first_hand if kind == KIND_GOLDEN else forced
        expected = [FIXED_CONTRACT if s == holder else 0 for s in range(n)]
        _expect(row, f"bids of bid_kind {kind}", expected, bids)
        _expect(row, f"bid_turns of bid_kind {kind}", n - 1 if kind == KIND_DARK else 0, row["bid_turns"])
        _expect(row, f"declarer of bid_kind {kind} (seat {holder})", holder, row["declarer"])
        _expect(row, f"winning_bid of bid_kind {kind}", FIXED_CONTRACT, row["winning_bid"])
        return
    if is_free_talon(row, rules):
        declarer = bids.index(free_talon_bid(rules))
        _expect(row, "declarer of a free talon", declarer, row["declarer"])
        _expect(row, "winning_bid of a free talon", free_talon_bid(rules), row["winning_bid"])
        return
    if is_dealer_plays(row, rules):
        # all_pass = dealer_plays: the others passed (one decision each), the dealer had no turn.
        _require(row, bids[row["dealer"]] in forced_values(rules),
                 f"the dealer's contract when all passed is not his forced bid {sorted(forced_values(rules))}: {bids}")
        _expect(row, "winning_bid when the dealer plays", bids[row["dealer"]], row["winning_bid"])
        _expect(row, f"bid_turns when the dealer plays ({n - 1} passes)", n - 1, row["bid_turns"])
        return
    if kind == KIND_UNDARKED:
        # The forced seat went dark (120); a player holding a marriage undarked with 125 or more; the
        # auction then went on as usual.
        _require(row, bids[forced] >= FIXED_CONTRACT, f"undarked: the dark bid 120 of seat {forced} missing: {bids}")
        undarkers = [s for s in range(n) if s != forced and bids[s] >= FIXED_CONTRACT + 5
                     and marriage_suits(cards_in(hands[s]))]
        _require(row, bool(undarkers), f"undarked, but no other seat with a marriage bid 125 or more: {bids}")
    elif rules.forced_first_bid:
        _require(row, bids[forced] >= rules.min_bid,
                 f"the forced seat {forced} must bid at least min_bid {rules.min_bid}: bids {bids}")
    for s, bid in enumerate(bids):
        if bid == 0 or (kind == KIND_UNDARKED and s == forced and bid == FIXED_CONTRACT):
            continue
        _require(row, bid % 5 == 0 and (kind == KIND_UNDARKED or (bid - rules.min_bid) % rules.bid_step == 0),
                 f"bid{s} = {bid} is not min_bid {rules.min_bid} + a multiple of bid_step {rules.bid_step}")
        _require(row, rules.min_bid <= bid <= rules.max_contract,
                 f"bid{s} = {bid} is outside min_bid..max_contract {rules.min_bid}..{rules.max_contract}")
        _require(row, value_allowed(bid, rules),
                 f"bid{s} = {bid} is not a multiple of 10 at or above bid_step_10_from {rules.bid_step_10_from}")
        ceiling = rules.bid_ceiling_before_talon
        _require(row, ceiling is None or bid <= ceiling,
                 f"bid{s} = {bid} is above bid_ceiling_before_talon {ceiling}")
        # The forced first bid is owed whatever the hand; every raise above it obeys the cap.
        if bid > rules.min_bid and not rules.no_bid_cap and not (s == forced and rules.forced_first_bid
                                                                 and bid in forced_values(rules)):
            cap = BASE_CAP + sum(rules.marriage_values[m] for m in marriage_suits(cards_in(hands[s])))
            _require(row, bid <= cap, f"bid{s} = {bid} is above 120 + marriages of the hand as dealt = {cap}")
    made_bids = [b for b in bids if b]
    _require(row, len(set(made_bids)) == len(made_bids), f"two seats hold the same bid: {bids} (a raise must exceed)")
    winning_bid = max(bids)
    _expect(row, "winning_bid (the highest bid)", winning_bid, row["winning_bid"])
    _expect(row, "declarer (the seat of the highest bid)", bids.index(winning_bid), row["declarer"])
    losers = n - 1
    if kind == KIND_UNDARKED:
        _require(row, row["bid_turns"] >= 1 + losers,
                 f"undarked: bid_turns {row['bid_turns']} < an undark and {losers} pass(es)")
        return

    # Every decision is a raise or a pass (silenced players' passes included), and every loser
    # passes once. The forced bid is no decision; without it the first bid is one. A raise stops
    # at a value of bid_values; a sitter's least bid (barrel_min_bid_enforced) may skip some, and
    # his forced bid may be above min_bid without a decision.
    bidders = sum(1 for s in range(n) if bids[s])
    steps = len(bid_values(rules, rules.min_bid + 1, winning_bid))
    raises = row["bid_turns"] - losers
    if rules.forced_first_bid:
        least_raises = bidders - 1 + (bids[forced] > rules.min_bid and not rules.barrel_min_bid_enforced)
        most_raises = steps
    else:
        least_raises, most_raises = bidders, steps + 1
    if rules.no_jump_bids and not rules.barrel_min_bid_enforced:
        _expect(row, f"bid_turns with one-step raises to {winning_bid} ({losers} passes + raises)",
                most_raises + losers, row["bid_turns"])
    else:
        _require(row, least_raises <= raises <= most_raises,
                 f"bid_turns {row['bid_turns']} does not fit {losers} passes + {least_raises}..{most_raises} raises "
                 f"(bids {bids})")


def _check_concession(row: dict, rules: HouseRules, declarer: int, contract: int, bonus: list[int]) -> None:
    _require(row, rules.concede, "a concession although rules.concede is off")
    _expect(row, "plays of a conceded deal", [-1] * 24, list(row["plays"]))
    _expect(row, "made (a conceded contract is not made)", False, row["made"])
    payout = concession_payout(contract, rules)
    for s in range(seats_of(row)):
        for column in ("tricks", "card_points", "marriage_points", "marriages"):
            _expect(row, f"{column}{s} of a conceded deal", 0, row[f"{column}{s}"])
        if rules.bolt_on != "three_passes":  # three_passes bolts are the game's (replay_game)
            _expect(row, f"bolt{s} (no bolts in a conceded deal)", 0, row[f"bolt{s}"])
        expected = (-concession_cost(contract, rules) if s == declarer else payout) + bonus[s]
        # concede_third_penalty: a third concession's 120 is part of the deal result (replay_game
        # checks that it was the third).
        third = rules.concede_third_penalty and s == declarer and row[f"result{s}"] == expected - 120
        if not third:
            _expect(row, f"result{s} of a concession of {contract} (four nines bonus {bonus[s]})", expected,
                    row[f"result{s}"])


def deal_bolt(rules: HouseRules, kind: int, declarer: int, seat: int, tricks: int, points: int) -> int:
    """The bolt column of a played deal for ``seat``: no trick (no_tricks) or no point, card points
    and marriages (zero_points); none for the declarer with bolt_own_game_exempt; a bolt counts
    ``bolt_weight``. (three_passes bolts are the game's: see replay_game.)"""
    if rules.bolt_on == "three_passes" or (rules.bolt_own_game_exempt and seat == declarer):
        return 0
    bolt = tricks == 0 if rules.bolt_on == "no_tricks" else points == 0
    if not bolt:
        return 0
    return bolt_weight(rules, kind)


def bolt_weight(rules: HouseRules, kind: int) -> int:
    """What one bolt counts in a deal of bid_kind ``kind``: 2 in a dark deal with
    bolt_double_in_dark or a golden deal with bolt_double_in_golden, else 1."""
    if (kind == KIND_DARK and rules.bolt_double_in_dark) or (kind == KIND_GOLDEN and rules.bolt_double_in_golden):
        return 2
    return 1


def legal_cards(holding: set[int], led_suit: int | None, trump: int | None) -> set[int]:
    """Cards a player may play: any when leading; else the led suit if held, else a trump if a
    trump is set and held, else any card."""
    if led_suit is None:
        return set(holding)
    for suit in (led_suit, trump):
        if suit is not None:
            of_suit = {c for c in holding if suit_of(c) == suit}
            if of_suit:
                return of_suit
    return set(holding)


def beats(card: int, top: int, trump: int | None) -> bool:
    """``card`` played after ``top`` (the card winning the trick so far) takes the trick from it:
    a higher card of the same suit, or a trump on a card that is not one."""
    if suit_of(card) == suit_of(top):
        return rank_of(card) > rank_of(top)
    return suit_of(card) == trump


def trick_winner_index(cards: list[int], trump: int | None) -> int:
    """Index in the trick of the winning card: the highest trump, else the highest of the led suit."""
    # The best card so far is of the led suit or a trump, so a card of another suit wins only as a trump.
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump):
            best = i
    return best


def legal_follows(holding: set[int], trick: list[int], trump: int | None, rules: HouseRules) -> set[int]:
    """Cards a follower may play to ``trick`` (leader first, at least one card): the follow/trump
    duty, and with ``must_head`` one of those that beats the winning card when there is one."""
    duty = legal_cards(holding, suit_of(trick[0]), trump)
    if not rules.must_head:
        return duty
    top = trick[trick_winner_index(trick, trump)]
    heading = {c for c in duty if beats(c, top, trump)}
    return heading or duty


def legal_leads(holding: set[int], trump: int | None, owns_trump: bool, rules: HouseRules) -> set[int]:
    """Cards the leader may lead (the suit of the card, whatever it declares, against the trump in
    force before the lead). ``no_lead_foreign_trump``: no card of another player's trump while he
    holds another suit; ``must_lead_trump``: a trump if he holds one; both: the ban wins."""
    if trump is None:
        return set(holding)
    trumps = {c for c in holding if suit_of(c) == trump}
    others = holding - trumps
    if rules.no_lead_foreign_trump and not owns_trump and others:
        return others
    if rules.must_lead_trump and trumps:
        return trumps
    return set(holding)


@dataclass(frozen=True)
class Combination:
    """What leading a card can declare: its points, its bit in the ``marriages`` column, and the
    suit it makes trump (None: the trump stays)."""

    value: int
    bit: int
    new_trump: int | None


def combination_of(lead: int, holding: set[int], rules: HouseRules) -> Combination | None:
    """The most valuable combination the led card belongs to in ``holding`` (which still holds
    it): a marriage K+Q (its value; its suit becomes trump), with ``half_marriage`` a half marriage
    Q+J (half the value rounded down; its suit becomes trump), with ``ace_marriage`` four aces
    (that value; the trump stays). None if the card belongs to none."""
    suit, rank = suit_of(lead), rank_of(lead)
    found = []
    if rank in (QUEEN, KING) and {6 * suit + QUEEN, 6 * suit + KING} <= holding:
        found.append(Combination(rules.marriage_values[suit], 1 << suit, suit))
    if rules.half_marriage and rank in (JACK, QUEEN) and {6 * suit + JACK, 6 * suit + QUEEN} <= holding:
        found.append(Combination(rules.marriage_values[suit] // 2, 1 << (4 + suit), suit))
    if rules.ace_marriage and rank == ACE and {6 * s + ACE for s in range(4)} <= holding:
        found.append(Combination(rules.ace_marriage, FOUR_ACES_BIT, None))
    return max(found, key=lambda c: c.value, default=None)


def _check_play(row: dict, rules: HouseRules, declarer: int, contract: int, final: list[set[int]],
                seen: Counter, bonus: list[int] | None = None, put_aside: PutAside | None = None) -> None:
    """The tricks of a played deal from the hands ``final`` (after the talon and the discard or
    burial), every card checked for legality, then the tallies, bolts and results. Two players
    (``put_aside`` given): tricks of two cards; the other talon goes to the last trick's winner and
    the buried pair to the declarer, both added to their card points."""
    n = len(final)
    n_tricks = deal_shape(row, rules).tricks
    for s in range(n):
        _expect(row, f"cards of seat {s} for play", n_tricks, len(final[s]))
    plays = list(row["plays"])
    _expect(row, "number of cards played", 24, len(plays))
    _expect(row, f"plays after the last of {n_tricks} tricks of {n}", [-1] * (24 - n * n_tricks),
            plays[n * n_tricks:])
    holding = [set(h) for h in final]
    tricks = [0] * n
    card_points = [0] * n
    marriage_points = [0] * n
    marriages = [0] * n
    trump = None
    trump_owner = None  # the seat that declared the trump in force
    leader = declarer
    for t in range(n_tricks):
        trick = plays[n * t: n * t + n]
        seats = [(leader + i) % n for i in range(n)]
        where = f"trick {t + 1} (trump {trump}, owner {trump_owner}, plays {plays})"
        pending = None  # marriage_trump_from = next_trick: the trump this trick's lead declares

        # The lead: a card + 32 declines the combination the card would declare (marriage_optional).
        lead, declines = trick[0], trick[0] >= LEAD_DECLINES
        if declines:
            lead -= LEAD_DECLINES
            trick[0] = lead
        if lead not in holding[leader]:
            _fail(row, f"{where}: seat {leader} leads {lead}, not in his hand {sorted(holding[leader])}")
        allowed = legal_leads(holding[leader], trump, trump_owner == leader, rules)
        if lead not in allowed:
            _fail(row, f"{where}: seat {leader} leads {lead} but must lead one of {sorted(allowed)}")
        if allowed != holding[leader]:
            barred = suit_of(min(allowed)) != trump
            seen["foreign trump lead barred" if barred else "trump lead forced"] += 1
            if barred and rules.must_lead_trump:
                seen["foreign trump barred over must_lead_trump"] += 1
        combination = combination_of(lead, holding[leader], rules)
        # A leader declares after a won trick (or with marriage_first_lead) and only while he holds
        # at least marriage_min_cards cards, the led card included.
        may_declare = combination is not None and (rules.marriage_first_lead or tricks[leader] > 0)
        if may_declare and len(holding[leader]) < rules.marriage_min_cards:
            seen["too few cards to declare"] += 1
            may_declare = False
        if declines:
            _require(row, rules.marriage_optional, f"{where}: lead {lead} + 32 declines although marriage_optional "
                                                   "is off")
            _require(row, may_declare, f"{where}: lead {lead} + 32 declines a combination seat {leader} cannot "
                                       "declare here")
            seen["declined"] += 1
        elif may_declare:
            # The combination is declared: it scores (below, after burning) and a marriage's suit
            # is trump from this trick on, owned by the declaring seat; with marriage_trump_from =
            # next_trick from the next trick on, this one keeps the trump in force before it.
            marriage_points[leader] += combination.value
            marriages[leader] |= combination.bit
            kind = {FOUR_ACES_BIT: "four aces"}.get(combination.bit, "half marriage" if combination.bit >= 16 else
                                                    "marriage")
            seen[f"declared {kind}"] += 1
            if tricks[leader] == 0:
                seen["declared before a won trick"] += 1
            if combination.new_trump is not None:
                if rules.marriage_trump_from == "next_trick":
                    pending = combination.new_trump
                    seen["trump deferred to the next trick" if trump is None else
                         "trump deferred, the old one in force"] += 1
                else:
                    trump, trump_owner = combination.new_trump, leader
        holding[leader].remove(lead)

        for i in range(1, n):
            seat, card = seats[i], trick[i]
            legal = legal_follows(holding[seat], trick[:i], trump, rules)
            if card not in legal:
                _fail(row, f"{where}: seat {seat} plays {card} but must play one of {sorted(legal)} (led {lead})")
            if legal != legal_cards(holding[seat], suit_of(lead), trump):
                seen["must head binds"] += 1
            holding[seat].remove(card)
        winner = seats[trick_winner_index(trick, trump)]
        if pending is not None and trump is not None and trump != suit_of(lead) and suit_of(
                trick[seats.index(winner)]) == trump:
            seen["old trump wins the declaring trick"] += 1
        tricks[winner] += 1
        card_points[winner] += sum(RANK_POINTS[rank_of(c)] for c in trick)
        if pending is not None:
            trump, trump_owner = pending, leader
        leader = winner

    if put_aside is not None:
        # Two players: the other talon (with the card put into it) to the winner of the last trick,
        # the buried pair to the declarer.
        card_points[leader] += card_points_of(put_aside.other_talon)
        card_points[declarer] += card_points_of(put_aside.buried)
        seen["other talon to the declarer" if leader == declarer else "other talon to the defender"] += 1
    if rules.marriage_burns_without_trick:
        # Declared combinations still count in ``marriages`` (the trump changed), but score nothing
        # for a player who won no trick in the deal.
        seen["burnt"] += sum(1 for s in range(n) if marriage_points[s] and not tricks[s])
        marriage_points = [points if tricks[s] else 0 for s, points in enumerate(marriage_points)]
    _expect(row, "card points of the deal", 120, sum(card_points))
    for s in range(n):
        _expect(row, f"tricks{s}", tricks[s], row[f"tricks{s}"])
        _expect(row, f"card_points{s}", card_points[s], row[f"card_points{s}"])
        _expect(row, f"marriage_points{s}", marriage_points[s], row[f"marriage_points{s}"])
        _expect(row, f"marriages{s}", marriages[s], row[f"marriages{s}"])
        points = card_points[s] + marriage_points[s]
        bolt = deal_bolt(rules, row["bid_kind"], declarer, s, tricks[s], points)
        if rules.bolt_on != "three_passes":
            _expect(row, f"bolt{s} (bolt_on {rules.bolt_on}: tricks {tricks[s]}, points {points})", bolt,
                    row[f"bolt{s}"])
        if bolt and tricks[s]:
            seen["bolt with a trick (zero_points)"] += 1
        if rules.bolt_own_game_exempt and s == declarer and not tricks[s]:
            seen["trickless declarer exempt"] += 1

    bonus = bonus or [0] * n
    doubled = 2 if row["bid_kind"] in DOUBLED_KINDS else 1
    declarer_points = card_points[declarer] + marriage_points[declarer]
    compared = rounded(declarer_points, rules) if rules.round_declarer else declarer_points
    made = compared >= contract
    _expect(row, f"made (declarer's points {declarer_points} against {contract})", made, row["made"])
    if put_aside is not None:
        # What the cards put aside decided: the contract made or failed because of them.
        without_other = declarer_points - (card_points_of(put_aside.other_talon) if leader == declarer else 0)
        without_buried = declarer_points - card_points_of(put_aside.buried)
        for what, points in (("other talon", without_other), ("buried cards", without_buried)):
            if made != ((rounded(points, rules) if rules.round_declarer else points) >= contract):
                seen[f"{what} decide the contract"] += 1
    for s in range(n):
        if s == declarer:
            expected = doubled * (declarer_made_score(contract, declarer_points, rules) if made else -contract)
            if made and expected != doubled * contract:
                seen["declarer scores his points"] += 1
        else:
            # Doubled deals: defenders' card points are doubled, their marriages are not; a dark
            # deal's defenders score as usual without dark_defenders_doubled; a golden deal's score
            # twice their rounded points under golden_defenders = doubled_rounded.
            if row["bid_kind"] == KIND_DARK and not rules.dark_defenders_doubled:
                expected = rounded(card_points[s] + marriage_points[s], rules)
            elif row["bid_kind"] == KIND_GOLDEN and rules.golden_defenders == "doubled_rounded":
                expected = 2 * rounded(card_points[s] + marriage_points[s], rules)
            else:
                expected = rounded(doubled * card_points[s] + marriage_points[s], rules)
        _expect(row, f"result{s} (×{doubled}, four nines bonus {bonus[s]})", expected + bonus[s], row[f"result{s}"])


# ---- game rules over the deals of one game ------------------------------------------------------

@dataclass
class SeatState:
    """What the game remembers about a seat from deal to deal, and its counters for the game row."""

    score: int = 0
    on_barrel: bool = False
    attempts: int = 0  # barrel deals used since he climbed
    falls: int = 0  # falls since the last reset to zero
    bolts: int = 0  # bolts since the last penalty
    concessions: int = 0  # concessions in the game (concede_limit, concede_third_penalty)
    quiet: int = 0  # played deals in a row without declaring (bolt_on = three_passes)
    no_wins: int = 0  # no-win deals since the last no-win penalty (no_win_penalty)
    barrel_entries: int = 0
    barrel_falls: int = 0
    bolt_penalties: int = 0
    dump_trucks: int = 0
    zeroed: int = 0


@dataclass
class GameCounters:
    """What the game remembers beyond the seats: redeals in a row by the current dealer and the
    golden round's progress."""

    redeals: int = 0
    golden_on: bool = False
    golden_rounds: int = 0  # rounds begun
    golden_deals: int = 0  # deals played in the current round
    golden_made: bool = False


def replay_game(deal_rows: list[dict], game_row: dict | None, rules: HouseRules, seen: Counter | None = None) -> None:
    """Replay the game rules from scores of 0 over one game's deals (ordered by ``deal``) using
    each deal's ``result`` and ``bolt`` columns, and check every deal's ``change``, ``score`` and
    ``events``, the rules that depend on the game (dealer rotation and redeals, silence, dark-game
    eligibility, the golden round, the free talon, concession limits, three-pass bolts) and the game
    row (None in deals mode, where each deal is its own one-deal game without golden round)."""
    seen = Counter() if seen is None else seen
    rows = sorted(deal_rows, key=lambda r: r["deal"])
    _require(rows[0], len({r["game"] for r in rows}) == 1, "rows of several games replayed as one")
    first_dealer = rows[0]["dealer"]
    n = rules.players
    seats = [SeatState() for _ in range(n)]
    game = GameCounters(golden_on=rules.golden_round and game_row is not None)
    game.golden_rounds = int(game.golden_on)
    dealer = first_dealer
    winner = None
    for i, row in enumerate(rows):
        _require(row, winner is None, f"a deal after seat {winner} won the game")
        _expect(row, "deal number", i, row["deal"])
        _expect(row, "dealer (rotates clockwise after every deal played, not after a redeal)", dealer, row["dealer"])
        winner = settle_deal(row, seats, rules, game, seen)
        if not row["redeal"]:
            dealer = (dealer + 1) % n

    if game_row is None:
        return
    last = rows[-1]
    _expect(last, "games.first_dealer", first_dealer, game_row["first_dealer"])
    _expect(last, "games.deals", len(rows), game_row["deals"])
    _expect(last, "games.winner", -1 if winner is None else winner, game_row["winner"])
    _expect(last, "games.finished", winner is not None, game_row["finished"])
    for s, state in enumerate(seats):
        for column in ("score", "barrel_entries", "barrel_falls", "bolt_penalties", "dump_trucks", "zeroed"):
            _expect(last, f"games.{column}{s}", getattr(state, column), game_row[f"{column}{s}"])


def _check_game_rules_of_deal(row: dict, seats: list[SeatState], rules: HouseRules, game: GameCounters,
                              seen: Counter) -> None:
    """What a deal's bidding owes to the game so far: the golden round, dark-game eligibility,
    silence, the free talon, the accumulating sitter's cap, the concession limit and the redeal limit."""
    kind = row["bid_kind"]
    forced = forced_seat_of(row, rules)
    n = len(seats)
    bids = [row[f"bid{s}"] for s in range(n)]
    sitters = [s for s in range(n) if seats[s].on_barrel]  # on the barrel (the dealer sitting out included)
    if game.golden_on:
        _expect(row, f"bid_kind in golden round {game.golden_rounds} (deal {game.golden_deals + 1} of {n})",
                KIND_GOLDEN, kind)
        _expect(row, "redeal in a golden round", 0, row["redeal"])
        return
    _require(row, kind != KIND_GOLDEN, "a golden-round deal outside the golden round")
    if kind in (KIND_DARK, KIND_UNDARKED):
        _require(row, not sitters, f"a dark game while seat(s) {sitters} sit on the barrel")
        if rules.dark_min_score is not None:
            _require(row, seats[forced].score >= rules.dark_min_score,
                     f"seat {forced} (score {seats[forced].score}) went dark below dark_min_score "
                     f"{rules.dark_min_score}")
    if rules.silence_below is not None:
        for s in playing_seats(row):
            if seats[s].score >= rules.silence_below or kind == KIND_GOLDEN:
                continue
            seen["silenced"] += 1
            if s == forced and kind in (KIND_DARK, KIND_UNDARKED):
                continue  # going dark is no bid (docs: a silenced player passes at every *turn*)
            # A forced bid stands (forced_first_bid's opening; the dealer's contract when all passed).
            owed = (s == forced and rules.forced_first_bid) or (is_dealer_plays(row, rules) and s == row["dealer"])
            allowed = [0, *forced_values(rules)] if owed else [0]
            _require(row, bids[s] in allowed, f"seat {s} (score {seats[s].score} below silence_below "
                                              f"{rules.silence_below}) bid {bids[s]}")
    if row["redeal"] and row["redeal"] not in (R_ALL_PASSED, *BEFORE_BIDDING):
        pass  # a talon or discard redeal: the bidding took place as usual
    elif row["redeal"]:
        return
    # Who takes the talon without bidding: a player of the deal on the barrel who is owed it (always
    # with barrel_talon_free; on the last attempt of his third barrel with barrel_forced_last); of
    # several, the lowest seat with two or three players, the first from first hand on with four.
    # The dealer sitting out never does.
    playing = sorted(playing_seats(row)) if n != 4 else playing_seats(row)
    sitters = [s for s in playing if seats[s].on_barrel]
    owed = [s for s in sitters if rules.barrel_talon_free or (
        rules.barrel_forced_last and seats[s].falls == 2 and seats[s].attempts == rules.barrel_attempts - 1)]
    free = owed and kind == KIND_AUCTION
    if free:
        seen["free talon"] += 1
        owner = -1 if row["redeal"] else owed[0]  # a redealt deal stores no declarer
        _require(row, is_free_talon(row, rules) and row["declarer"] == owner,
                 f"seat {owed[0]} on the barrel should take the talon without bidding (bids {bids}, "
                 f"bid_turns {row['bid_turns']})")
    else:
        _require(row, not is_free_talon(row, rules) or row["redeal"],
                 f"a free talon although no sitter is owed one (sitters {sitters})")
    if rules.barrel_accumulate:
        for s in sitters:
            _require(row, bids[s] <= FIXED_CONTRACT, f"seat {s} accumulating on the barrel bid {bids[s]} > 120")
    if is_dealer_plays(row, rules):
        seen["dealer plays when all passed"] += 1
    if rules.barrel_min_bid_enforced and kind in (KIND_AUCTION, KIND_UNDARKED) and not free:
        # A sitter bids barrel_min_contract or more, his forced bid included, or passes.
        floor = sitter_least(rules.min_bid, rules)
        for s in sitters:
            _require(row, bids[s] == 0 or bids[s] >= floor,
                     f"seat {s} on the barrel bid {bids[s]} below barrel_min_contract (least {floor})")
            owed = (s == forced and rules.forced_first_bid) or (is_dealer_plays(row, rules) and s == row["dealer"])
            if owed:
                seen["sitter's forced bid"] += 1
                _require(row, bids[s] >= floor, f"seat {s} on the barrel holds the forced bid but bid {bids[s]}")


def settle_deal(row: dict, seats: list[SeatState], rules: HouseRules, game: GameCounters | None = None,
                seen: Counter | None = None) -> int | None:
    """Apply one deal's results to the seats in the order of docs/RULES.md, check the deal's
    change, score and events columns, and return the winner (None while the game goes on)."""
    game = GameCounters() if game is None else game
    seen = Counter() if seen is None else seen
    _check_game_rules_of_deal(row, seats, rules, game, seen)
    declarer = row["declarer"]
    contract = row["contract"]
    made = row["made"] and not row["conceded"]
    n = len(seats)
    results = [row[f"result{s}"] for s in range(n)]
    before = [st.score for st in seats]
    events = [0] * n
    fell = [False] * n
    winner = None
    barrel = rules.barrel
    dealer = row["dealer"]
    # players = 4: the dealer sits out; his result is the talon's points (checked by replay_deal).
    out = dealer if n == 4 else None

    def fall(s: int, event: int) -> None:
        # A fall leaves the barrel and counts; the n-th counted fall sets the score to 0 instead of
        # its own result. A second cause in the same deal costs its points but is no second fall.
        st = seats[s]
        events[s] |= event
        st.on_barrel = False
        if fell[s]:
            return
        fell[s] = True
        st.attempts = 0
        st.barrel_falls += 1
        if rules.barrel_falls_counted == "attempts_only" and event != EV_FALL_ATTEMPTS:
            seen["fall not counted"] += 1
            return  # barrel_falls_counted: only running out of attempts counts toward barrel_falls_to_zero
        st.falls += 1
        if rules.barrel_falls_to_zero and st.falls == rules.barrel_falls_to_zero:
            st.score = 0
            st.falls = 0
            st.zeroed += 1
            events[s] |= EV_FALL_TO_ZERO

    if row["redeal"]:
        # Thrown in or redealt: nothing is scored, no barrel attempt; the same dealer deals again.
        if row["redeal"] == R_ALL_PASSED and rules.redeal_limit_penalty and game.redeals < 2:
            asking = [s for s in playing_seats(row) if hand_redeal_reasons(cards_in(row[f"hand{s}"]), rules)]
            _require(row, not asking, f"all passed, but seat(s) {asking} had to redeal first")
        elif row["redeal"] == R_ALL_PASSED and rules.redeal_limit_penalty:
            seen["thrown in at the redeal limit"] += 1
        # A deal thrown in (all passed) neither counts toward the dealer's redeals in a row nor ends them.
        game.redeals += row["redeal"] != R_ALL_PASSED
        if rules.redeal_limit_penalty:
            _require(row, game.redeals <= 2, f"a redeal stored as the dealer's {game.redeals}th in a row although "
                                             "redeal_limit_penalty plays the third")
        for s in range(n):
            _expect(row, f"change{s} of a deal not played", 0, row[f"change{s}"])
            _expect(row, f"score{s} of a deal not played", seats[s].score, row[f"score{s}"])
            _check_events(row, s, events[s])  # no event at all, not even "stays on the barrel"
        return None
    penalty_due = rules.redeal_limit_penalty and game.redeals == 2 and bool(
        row[f"events{dealer}"] & EV_REDEAL_PENALTY)
    if row[f"events{dealer}"] & EV_REDEAL_PENALTY:
        _require(row, rules.redeal_limit_penalty and game.redeals == 2,
                 f"the dealer paid for a third redeal in a row after {game.redeals} redeal(s) in a row")
    game.redeals = 0

    # On the barrel, taken in seat order (four players: from first hand on, the dealer last); when
    # two accumulating sitters reach the target in one deal, the game goes to the later one.
    order = list(range(n)) if n != 4 else [(dealer + 1 + i) % n for i in range(n)]
    sitters = [s for s in order if seats[s].on_barrel]
    if row["conceded"]:
        if sitters:
            _require(row, rules.concede_on_barrel, f"a concession while seat(s) {sitters} sit on the barrel")
        st = seats[declarer]
        st.concessions += 1
        seen["free throw"] += free_throw(contract, rules)
        if rules.concede_limit:
            _require(row, st.concessions <= rules.concede_limit,
                     f"seat {declarer} concedes for the {st.concessions}th time (concede_limit {rules.concede_limit})")
            if st.concessions == rules.concede_limit:
                seen["concede limit reached"] += 1
    if rules.concede_third_penalty and row["conceded"]:
        # The third concession's (and every third's) 120 is carried in the declarer's result.
        third = seats[declarer].concessions % 3 == 0
        seen["third concession"] += third
        stored = row[f"result{declarer}"]
        payout = -concession_cost(contract, rules)
        _require(row, stored - payout in (-120, 0, rules.four_nines_bonus - 120, rules.four_nines_bonus),
                 f"result{declarer} {stored} of a concession of {contract}")
        paid = stored - payout in (-120, rules.four_nines_bonus - 120) and stored - payout != 0
        _require(row, paid == third, f"seat {declarer}'s concession number {seats[declarer].concessions}: "
                                     f"result{declarer} {stored} {'includes' if paid else 'lacks'} the 120")

    # Accumulating barrel: a sitter adds the card points he takes (unrounded, marriages not counted).
    if rules.barrel_accumulate:
        for s in sitters:
            if s != out:
                results[s] = row[f"card_points{s}"]

    # 1. Players on the barrel. The barrel variants (docs/RULES.md "Barrel variants"): with
    #    barrel_freeze = false (the range barrel) a sitter keeps his score and his results as declarer
    #    count; barrel_failed_contract = stays leaves a failed contract unrecorded (an attempt);
    #    barrel_defence_wins lets a defence reaching the target win.
    ranged = barrel is not None and not rules.barrel_freeze
    jump = barrel is not None and (rules.barrel_jump_wins or ranged)
    stays = rules.barrel_failed_contract == "stays"
    wins = []  # who reached the target with a barrel: sitters, and jumpers with barrel_jump_wins
    accumulated = False
    for s in sitters:
        st = seats[s]
        if s == out:
            # Sitting out on the barrel: the talon's points go unrecorded (as a defender's), and a
            # deal he cannot declare is no attempt.
            if results[s] != 0:
                events[s] |= EV_DEFENCE_IGNORED
            continue
        if rules.barrel_accumulate:
            st.score += results[s]
            if st.score >= rules.target:
                if rules.win_score_capped:
                    st.score = rules.target
                    seen["win score capped"] += 1
                events[s] |= EV_WIN
                st.on_barrel = False
                winner = s
                accumulated = True
                seen["accumulated to the target"] += 1
                continue
            st.attempts += 1
            if st.attempts >= rules.barrel_attempts:
                st.score = st.score // 10 * 10 - rules.barrel_penalty
                fall(s, EV_FALL_ATTEMPTS)
            continue
        if ranged:
            if s == declarer:
                if made or not stays:
                    st.score += results[s]
                else:
                    seen["failed contract kept on the barrel"] += 1
            elif rules.barrel_defence_wins and st.score + results[s] >= rules.target:
                st.score += results[s]
                seen["defence wins from the barrel"] += 1
            elif results[s] != 0:
                events[s] |= EV_DEFENCE_IGNORED
            if st.score >= rules.target:
                if rules.win_score_capped:
                    seen["win score capped"] += st.score > rules.target
                    st.score = rules.target
                st.on_barrel = False
                wins.append(s)
                continue
            st.attempts += 1
            if rules.barrel_attempts and st.attempts >= rules.barrel_attempts and st.score >= barrel:
                st.score -= rules.barrel_penalty
                fall(s, EV_FALL_ATTEMPTS)
                seen["range barrel attempts' penalty"] += 1
            continue
        if s == declarer and made and contract >= rules.barrel_min_contract:
            # Undoubled; with declarer_scores = points his rounded points when more (row columns).
            points = row[f"card_points{s}"] + row[f"marriage_points{s}"]
            st.score = barrel + declarer_made_score(contract, points, rules)
            if rules.win_score_capped:
                seen["win score capped"] += st.score > rules.target
                st.score = rules.target
            st.on_barrel = False
            wins.append(s)
        elif s == declarer and not made and not stays:
            st.score += results[s]
            fall(s, EV_FALL_CONTRACT)
        elif s != declarer and rules.barrel_defence_wins and st.score + results[s] >= rules.target:
            seen["defence wins from the barrel"] += 1
            st.score = rules.target if rules.win_score_capped else st.score + results[s]
            st.on_barrel = False
            wins.append(s)
        else:
            # A defender's points go unrecorded; the event marks points actually lost, so not a zero.
            # With barrel_failed_contract = stays a failed (or conceded) contract is not recorded either.
            if s != declarer and results[s] != 0:
                events[s] |= EV_DEFENCE_IGNORED
            if s == declarer and not made:
                seen["failed contract kept on the barrel"] += 1
            st.attempts += 1
            if st.attempts >= rules.barrel_attempts:
                st.score -= rules.barrel_penalty
                fall(s, EV_FALL_ATTEMPTS)

    # 2. Everybody else adds his result; reaching the barrel is a climb (no jumping past it, unless
    #    barrel_jump_wins: reaching the target wins; the range barrel keeps the climber's score).
    climbers = []
    reached = []  # without a barrel: who reached the target (docs: the declarer who made it, or
    # anybody with win_only_as_declarer off; the highest score, then the declarer, then the next seat)
    for s in range(n):
        if s in sitters:
            continue
        st = seats[s]
        st.score += results[s]
        if barrel is None:
            if st.score >= rules.target and ((s == declarer and made) or not rules.win_only_as_declarer):
                reached.append(s)
        elif jump and st.score >= rules.target:
            wins.append(s)
            seen["jump to the target"] += 1
        elif st.score >= barrel:
            if not ranged:
                st.score = barrel
            climbers.append(s)
    order = [(declarer + k) % n for k in range(n)]
    if rules.target_tie == "lowest_seat":
        # Non-declarers tied at the top: the lowest seat number (four players: seats, not slots).
        order = [declarer] + sorted(s for s in range(n) if s != declarer)
    if reached:
        winner = max(reached, key=lambda s: (seats[s].score, -order.index(s)))
        events[winner] |= EV_WIN
    if wins and not accumulated:
        # One winner: the highest score (a sitter's capped with win_score_capped), then the declarer, then
        # the seats after him.
        winner = max(wins, key=lambda s: (seats[s].score, -order.index(s)))
        events[winner] |= EV_WIN
        if len(wins) > 1:
            seen["several reach the target"] += 1
            tied = [s for s in wins if seats[s].score == seats[winner].score]
            seen["tie at the target between defenders"] += len(tied) > 1 and declarer not in tied

    # 3. Climbers: one sits and knocks off whoever still sits (barrel_collision: or is sent back, or
    #    both fall); several together each fall to barrel − penalty and nobody sits (with
    #    barrel_simultaneous_keeper the declarer among them, else the lowest seat, sits as the one climber).
    if climbers and not ranged:
        together = len(climbers) > 1 and rules.barrel_simultaneous_penalty
        keeper = None
        if together and rules.barrel_simultaneous_keeper == "declarer_else_lowest_seat":
            keeper = declarer if declarer in climbers else min(climbers)
            seen["simultaneous climb kept"] += 1
        if together:
            for s in climbers:
                if s != keeper:
                    # Nobody sits, so this is no barrel entry; the climb still counts as a fall.
                    seats[s].score = barrel - rules.barrel_penalty
                    fall(s, EV_SIMULTANEOUS)
        if not together or keeper is not None:
            sitting_climbers = [keeper] if keeper is not None else climbers
            meeting = [s for s in sitters if seats[s].on_barrel] if rules.barrel_knock_off else []
            if meeting and rules.barrel_collision != "newcomer_stays":
                seen[f"collision {rules.barrel_collision}"] += 1
            for s in meeting:
                if rules.barrel_collision != "sitter_stays":
                    seats[s].score -= rules.barrel_penalty
                    fall(s, EV_KNOCKED_OFF)
            for s in sitting_climbers:
                st = seats[s]
                if meeting and rules.barrel_collision != "newcomer_stays":
                    st.score = barrel - rules.barrel_penalty  # sent back: a climb that never sat, a fall
                    fall(s, EV_KNOCKED_OFF)
                    continue
                st.on_barrel = True
                st.attempts = 0
                st.barrel_entries += 1
                events[s] |= EV_BARREL_ON
    for s in wins:
        if s in sitters and s != winner:
            seats[s].on_barrel = True  # reached the target, another won: still on the barrel at the game's end

    # The dealer's third redeal in a row: he pays 120 and, on the barrel, falls.
    if penalty_due:
        seats[dealer].score -= 120
        events[dealer] |= EV_REDEAL_PENALTY
        if seats[dealer].on_barrel and not ranged:
            fall(dealer, 0)

    # 4. Bolts: every third costs the penalty, or with bolt_count = each every bolt at once (a
    #    doubled bolt, two bolts, twice); never the winner; a sitter who pays it falls.
    bolts = _game_bolts(row, seats, rules, seen)
    for s in range(n):
        st = seats[s]
        if not bolts[s]:
            # Sitting out breaks no run; nor, with bolt_exempt_keeps_run, a played deal in which
            # only bolt_own_game_exempt spared the declarer a bolt.
            spared = (rules.bolt_exempt_keeps_run and s == declarer and not row["conceded"]
                      and (row[f"card_points{s}"] + row[f"marriage_points{s}"] == 0
                           if rules.bolt_on == "zero_points" else row[f"tricks{s}"] == 0))
            if spared and st.bolts:
                seen["bolt run kept by an exempt declarer"] += 1
            if rules.bolt_count == "consecutive" and s != out and not spared:
                st.bolts = 0
            continue
        if rules.bolt_count == "each":
            penalties = bolts[s]  # nothing is counted
        else:
            st.bolts += bolts[s]
            penalties = 1 if st.bolts >= 3 else 0
            if penalties:
                st.bolts = 0
        if penalties and s != winner and rules.bolt_penalty:
            st.score -= penalties * rules.bolt_penalty
            st.bolt_penalties += penalties
            events[s] |= EV_BOLT_PENALTY
            seen[f"bolt penalty ({rules.bolt_count})"] += 1
            if st.on_barrel and not ranged:
                fall(s, 0)

    # 4b. The no-win streak: in a played deal not conceded, a declarer who failed or a defender whose
    #     deal result (as the deal scored it, before the barrel) is 0 counts a no-win; every third
    #     costs no_win_penalty_amount (never the winner) and restarts the count; with consecutive a
    #     won deal restarts it. The dealer sitting out counts nothing. On the barrel, a fall.
    if rules.no_win_penalty != "off" and not row["conceded"]:
        for s in range(n):
            if s == out:
                continue
            st = seats[s]
            no_win = not made if s == declarer else row[f"result{s}"] == 0
            if not no_win:
                if rules.no_win_penalty == "consecutive":
                    st.no_wins = 0
                continue
            st.no_wins += 1
            if st.no_wins < 3:
                continue
            st.no_wins = 0
            if s == winner:
                continue
            st.score -= rules.no_win_penalty_amount
            events[s] |= EV_NO_WIN_PENALTY
            seen[f"no-win penalty ({rules.no_win_penalty})"] += 1
            if st.on_barrel:
                seen["no-win penalty on the barrel"] += 1
                if not ranged:
                    fall(s, 0)

    # 5. Dump truck (not the winner's score: a target of 555 reached wins).
    truck = rules.dump_truck_value
    for s in range(n):
        st = seats[s]
        if s != winner and ((rules.dump_truck and st.score == truck)
                            or (rules.dump_truck_negative and st.score == -truck)):
            st.score = 0
            st.dump_trucks += 1
            events[s] |= EV_DUMP_TRUCK
            if truck != 555:
                seen["dump truck at another value"] += 1

    # The range barrel: on it whoever ends the deal in [barrel, target) after every penalty. Below it a
    # sitter leaves (no penalty, no fall: event barrel_off); in it a player not sitting climbs (a sitter
    # whose attempts' penalty left him in it climbs again). Those who reached the target are left as they are.
    if ranged:
        for s in range(n):
            st = seats[s]
            if s in wins:
                continue
            inside = barrel <= st.score < rules.target
            if st.on_barrel and not inside:
                st.on_barrel = False
                st.attempts = 0
                events[s] |= EV_BARREL_OFF
                seen["left the range barrel downward"] += 1
            elif inside and not st.on_barrel:
                st.on_barrel = True
                st.attempts = 0
                st.barrel_entries += 1
                events[s] |= EV_BARREL_ON
                if s in sitters:
                    seen["on the range barrel again after its penalty"] += 1

    # Golden round: after its last deal (one per player), if nobody made his contract, every score goes back to 0.
    if game.golden_on:
        game.golden_deals += 1
        game.golden_made |= bool(made)
        if game.golden_deals == n:  # one deal per player
            if not game.golden_made:
                seen["golden reset"] += 1
                for s in range(n):
                    seats[s].score = 0
                    events[s] |= EV_GOLDEN_RESET
            if game.golden_made or game.golden_rounds == 3:
                game.golden_on = False
            else:
                game.golden_rounds += 1
                game.golden_deals = 0

    for s in range(n):
        if seats[s].on_barrel and s in sitters and not events[s] & EV_BARREL_ON:
            events[s] |= EV_BARREL_STAY
        _expect(row, f"change{s}", seats[s].score - before[s], row[f"change{s}"])
        _expect(row, f"score{s}", seats[s].score, row[f"score{s}"])
        _check_events(row, s, events[s])
    return winner


def _game_bolts(row: dict, seats: list[SeatState], rules: HouseRules, seen: Counter) -> list[int]:
    """The bolts of a played deal: the stored column (checked by replay_deal), or with
    ``three_passes`` one for every third played deal in a row in which the seat did not declare."""
    n = len(seats)
    bolts = [row[f"bolt{s}"] for s in range(n)]
    if rules.bolt_on != "three_passes":
        return bolts
    expected = [0] * n
    for s in range(n):
        st = seats[s]
        if n == 4 and s == row["dealer"]:
            continue  # sitting out: neither a deal without declaring nor one that breaks the run
        if s == row["declarer"]:
            st.quiet = 0
            continue
        st.quiet += 1
        if st.quiet == 3:
            st.quiet = 0
            expected[s] = bolt_weight(rules, row["bid_kind"])
            seen["three passes bolt"] += 1
    _expect(row, "bolts (three_passes: every third deal in a row without declaring)", expected, bolts)
    return expected


def _check_events(row: dict, s: int, events: int) -> None:
    if events != row[f"events{s}"]:
        _fail(row, f"events{s}: expected {events} ({_event_names(events)}), "
                   f"stored {row[f'events{s}']} ({_event_names(row[f'events{s}'])})")


EVENT_NAMES = {
    EV_WIN: "win", EV_BARREL_ON: "barrel_on", EV_BARREL_STAY: "barrel_stay",
    EV_DEFENCE_IGNORED: "defence_ignored", EV_FALL_ATTEMPTS: "fall_attempts",
    EV_FALL_CONTRACT: "fall_contract", EV_KNOCKED_OFF: "knocked_off", EV_SIMULTANEOUS: "simultaneous",
    EV_FALL_TO_ZERO: "fall_to_zero", EV_BOLT_PENALTY: "bolt_penalty", EV_DUMP_TRUCK: "dump_truck",
    EV_REDEAL_PENALTY: "redeal_penalty", EV_GOLDEN_RESET: "golden_reset", EV_NO_WIN_PENALTY: "no_win_penalty",
    EV_BARREL_OFF: "barrel_off",
}


def _event_names(bits: int) -> str:
    return "+".join(name for bit, name in EVENT_NAMES.items() if bits & bit) or "none"
