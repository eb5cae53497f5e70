"""A slow, plainly correct replay of the engine's stored deals and games, for checking it.

Written from ../shared/RULES.md §1–§3 and §4.4, docs/RULES.md (settlement order, record layout,
event bits) and the play rules of docs/solver.md (the exact meaning of the §4.4 options), sharing
no code with the compiled engine: cards are plain indices (6 × suit + rank), hands are Python
sets, and every rule is one visible step. ``replay_deal`` checks one deal row,
``replay_game`` the game rules over the rows of one game; both raise ``AssertionError`` naming
the game, the deal, the column and the expected and stored values.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from sim.rules import HouseRules

SEATS = 3
DECK_SIZE = 24
FULL_DECK = (1 << DECK_SIZE) - 1
TRICKS_PER_DEAL = 8
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


def concession_payout(contract: int, rules: HouseRules) -> int:
    """What each defender gets when the declarer concedes: half the contract rounded up to a
    multiple of 5 (105 → 55), or 60 with ``concede_60``."""
    if rules.concede_60:
        return 60
    return -(-contract // 10) * 5


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
    """Check one deal row against the rules of one deal (RULES.md §2, §4.4): the deal, the bidding,
    the talon and gifts, the final contract, every card played and the deal's results. ``seen``, if
    given, counts the play situations met (see ``_check_play``), for tests that the sample reaches
    each rule."""
    hands = [row[f"hand{s}"] for s in range(SEATS)]
    talon = row["talon"]
    _check_dealt(row, hands, talon)
    _check_bidding(row, rules, hands)

    declarer = row["declarer"]
    contract = row["contract"]
    ten_cards = cards_in(hands[declarer] | talon)
    gifts = [row[f"gift{s}"] for s in range(SEATS)]
    _expect(row, f"gift{declarer} (the declarer gives himself nothing)", -1, gifts[declarer])
    defenders = [s for s in range(SEATS) if s != declarer]
    for s in defenders:
        _require(row, gifts[s] in ten_cards,
                 f"gift{s} = {gifts[s]} is not a card of the declarer's 10-card hand {sorted(ten_cards)}")
    _require(row, gifts[defenders[0]] != gifts[defenders[1]], f"the same card {gifts[defenders[0]]} given twice")
    eight_cards = [cards_in(hands[s]) | {gifts[s]} for s in range(SEATS)]
    eight_cards[declarer] = ten_cards - {gifts[s] for s in defenders}

    winning_bid = row["winning_bid"]
    _require(row, contract >= winning_bid, f"contract {contract} is below the winning bid {winning_bid}")
    _require(row, contract % 5 == 0, f"contract {contract} is not a multiple of 5")
    _require(row, contract <= rules.max_contract, f"contract {contract} is above max_contract {rules.max_contract}")
    if contract > winning_bid and not rules.no_bid_cap:
        cap = BASE_CAP + sum(rules.marriage_values[s] for s in marriage_suits(eight_cards[declarer]))
        _require(row, contract <= cap,
                 f"contract raised to {contract} above 120 + marriages of the 8-card hand = {cap}")

    if row["conceded"]:
        _check_concession(row, rules, declarer, contract)
        return
    _check_play(row, rules, declarer, contract, eight_cards, Counter() if seen is None else seen)


def _check_dealt(row: dict, hands: list[int], talon: int) -> None:
    for s in range(SEATS):
        _expect(row, f"cards in hand{s}", 7, hands[s].bit_count())
    _expect(row, "cards in the talon", 3, talon.bit_count())
    union = 0
    for part in (*hands, talon):
        _require(row, union & part == 0, f"a card is dealt twice (mask {union & part:#x})")
        union |= part
    _expect(row, "all 24 cards dealt", FULL_DECK, union)
    _require(row, row["dealer"] in range(SEATS), f"dealer {row['dealer']} is not a seat")


def _check_bidding(row: dict, rules: HouseRules, hands: list[int]) -> None:
    bids = [row[f"bid{s}"] for s in range(SEATS)]
    first_hand = (row["dealer"] + 1) % SEATS
    _require(row, bids[first_hand] >= rules.min_bid,
             f"first hand (seat {first_hand}) must bid at least min_bid {rules.min_bid}: bids {bids}")
    for s, bid in enumerate(bids):
        if bid == 0:
            continue
        _require(row, bid % 5 == 0 and (bid - rules.min_bid) % rules.bid_step == 0,
                 f"bid{s} = {bid} is not min_bid {rules.min_bid} + a multiple of bid_step {rules.bid_step}")
        _require(row, rules.min_bid <= bid <= rules.max_contract,
                 f"bid{s} = {bid} is outside min_bid..max_contract {rules.min_bid}..{rules.max_contract}")
        # The forced first bid is owed whatever the hand; every raise above it obeys the cap.
        if bid > rules.min_bid and not rules.no_bid_cap:
            cap = BASE_CAP + sum(rules.marriage_values[m] for m in marriage_suits(cards_in(hands[s])))
            _require(row, bid <= cap, f"bid{s} = {bid} is above 120 + marriages of the 7-card hand = {cap}")
    made_bids = [b for b in bids if b]
    _require(row, len(set(made_bids)) == len(made_bids), f"two seats hold the same bid: {bids} (a raise must exceed)")
    winning_bid = max(bids)
    _expect(row, "winning_bid (the highest bid)", winning_bid, row["winning_bid"])
    _expect(row, "declarer (the seat of the highest bid)", bids.index(winning_bid), row["declarer"])

    # After the forced bid every decision is a raise or a pass, and the two losers pass once each.
    raises = row["bid_turns"] - 2
    steps = (winning_bid - rules.min_bid) // rules.bid_step
    least_raises = sum(1 for s in range(SEATS) if s != first_hand and bids[s]) + (bids[first_hand] > rules.min_bid)
    if rules.no_jump_bids:
        _expect(row, f"bid_turns with one-step raises to {winning_bid} (2 passes + raises)", steps + 2,
                row["bid_turns"])
    else:
        _require(row, least_raises <= raises <= steps,
                 f"bid_turns {row['bid_turns']} does not fit 2 passes + {least_raises}..{steps} raises (bids {bids})")


def _check_concession(row: dict, rules: HouseRules, declarer: int, contract: int) -> None:
    _require(row, rules.concede, "a concession although rules.concede is off")
    _expect(row, "plays of a conceded deal", [-1] * 24, list(row["plays"]))
    _expect(row, "made (a conceded contract is not made)", False, row["made"])
    payout = concession_payout(contract, rules)
    for s in range(SEATS):
        for column in ("tricks", "card_points", "marriage_points", "marriages"):
            _expect(row, f"{column}{s} of a conceded deal", 0, row[f"{column}{s}"])
        _expect(row, f"bolt{s} (no bolts in a conceded deal)", False, row[f"bolt{s}"])
        expected = (0 if rules.concede_no_deduction else -contract) if s == declarer else payout
        _expect(row, f"result{s} of a concession of {contract}", expected, row[f"result{s}"])


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


def _check_play(row: dict, rules: HouseRules, declarer: int, contract: int, eight_cards: list[set[int]],
                seen: Counter) -> None:
    plays = list(row["plays"])
    _expect(row, "number of cards played", 24, len(plays))
    holding = [set(h) for h in eight_cards]
    tricks = [0] * SEATS
    card_points = [0] * SEATS
    marriage_points = [0] * SEATS
    marriages = [0] * SEATS
    trump = None
    trump_owner = None  # the seat that declared the trump in force
    leader = declarer
    for t in range(TRICKS_PER_DEAL):
        trick = plays[3 * t: 3 * t + 3]
        seats = [(leader + i) % SEATS for i in range(SEATS)]
        where = f"trick {t + 1} (trump {trump}, owner {trump_owner}, plays {plays})"

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
        may_declare = combination is not None and (rules.marriage_first_lead or tricks[leader] > 0)
        if declines:
            _require(row, rules.marriage_optional, f"{where}: lead {lead} + 32 declines although marriage_optional "
                                                   "is off")
            _require(row, may_declare, f"{where}: lead {lead} + 32 declines a combination seat {leader} cannot "
                                       "declare here")
            seen["declined"] += 1
        elif may_declare:
            # The combination is declared: it scores (below, after burning) and a marriage's suit
            # is trump from this trick on, owned by the declaring seat.
            marriage_points[leader] += combination.value
            marriages[leader] |= combination.bit
            kind = {FOUR_ACES_BIT: "four aces"}.get(combination.bit, "half marriage" if combination.bit >= 16 else
                                                    "marriage")
            seen[f"declared {kind}"] += 1
            if tricks[leader] == 0:
                seen["declared before a won trick"] += 1
            if combination.new_trump is not None:
                trump, trump_owner = combination.new_trump, leader
        holding[leader].remove(lead)

        for i in range(1, SEATS):
            seat, card = seats[i], trick[i]
            legal = legal_follows(holding[seat], trick[:i], trump, rules)
            if card not in legal:
                _fail(row, f"{where}: seat {seat} plays {card} but must play one of {sorted(legal)} (led {lead})")
            if legal != legal_cards(holding[seat], suit_of(lead), trump):
                seen["must head binds"] += 1
            holding[seat].remove(card)
        winner = seats[trick_winner_index(trick, trump)]
        tricks[winner] += 1
        card_points[winner] += sum(RANK_POINTS[rank_of(c)] for c in trick)
        leader = winner

    if rules.marriage_burns_without_trick:
        # Declared combinations still count in ``marriages`` (the trump changed), but score nothing
        # for a player who won no trick in the deal.
        seen["burnt"] += sum(1 for s in range(SEATS) if marriage_points[s] and not tricks[s])
        marriage_points = [points if tricks[s] else 0 for s, points in enumerate(marriage_points)]
    _expect(row, "card points of the deal", 120, sum(card_points))
    for s in range(SEATS):
        _expect(row, f"tricks{s}", tricks[s], row[f"tricks{s}"])
        _expect(row, f"card_points{s}", card_points[s], row[f"card_points{s}"])
        _expect(row, f"marriage_points{s}", marriage_points[s], row[f"marriage_points{s}"])
        _expect(row, f"marriages{s}", marriages[s], row[f"marriages{s}"])
        _expect(row, f"bolt{s} (no trick won)", tricks[s] == 0, row[f"bolt{s}"])

    declarer_points = card_points[declarer] + marriage_points[declarer]
    compared = round5(declarer_points) if rules.round_declarer else declarer_points
    made = compared >= contract
    _expect(row, f"made (declarer's points {declarer_points} against {contract})", made, row["made"])
    for s in range(SEATS):
        expected = (contract if made else -contract) if s == declarer else round5(card_points[s] + marriage_points[s])
        _expect(row, f"result{s}", expected, row[f"result{s}"])


# ---- game rules over the deals of one game ------------------------------------------------------

@dataclass
class SeatState:
    """What the game remembers about a seat from deal to deal, and its counters for the game row."""

    score: int = 0
    on_barrel: bool = False
    attempts: int = 0  # barrel deals used since he climbed
    falls: int = 0  # falls since the last reset to zero
    bolts: int = 0  # bolts since the last penalty
    barrel_entries: int = 0
    barrel_falls: int = 0
    bolt_penalties: int = 0
    dump_trucks: int = 0
    zeroed: int = 0


def replay_game(deal_rows: list[dict], game_row: dict | None, rules: HouseRules) -> None:
    """Replay the game rules from scores of 0 over one game's deals (ordered by ``deal``) using
    each deal's ``result`` and ``bolt`` columns, and check every deal's ``change``, ``score`` and
    ``events`` and the game row (None in deals mode, where each deal is its own one-deal game)."""
    rows = sorted(deal_rows, key=lambda r: r["deal"])
    _require(rows[0], len({r["game"] for r in rows}) == 1, "rows of several games replayed as one")
    first_dealer = rows[0]["dealer"]
    seats = [SeatState() for _ in range(SEATS)]
    winner = None
    for i, row in enumerate(rows):
        _require(row, winner is None, f"a deal after seat {winner} won the game")
        _expect(row, "deal number", i, row["deal"])
        _expect(row, "dealer (rotates clockwise)", (first_dealer + i) % SEATS, row["dealer"])
        winner = settle_deal(row, seats, rules)

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


def settle_deal(row: dict, seats: list[SeatState], rules: HouseRules) -> int | None:
    """Apply one deal's results to the seats in the order of docs/RULES.md, check the deal's
    change, score and events columns, and return the winner (None while the game goes on)."""
    declarer = row["declarer"]
    contract = row["contract"]
    made = row["made"] and not row["conceded"]
    results = [row[f"result{s}"] for s in range(SEATS)]
    before = [st.score for st in seats]
    events = [0] * SEATS
    fell = [False] * SEATS
    winner = None
    barrel = rules.barrel

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
        st.falls += 1
        if rules.barrel_falls_to_zero and st.falls == rules.barrel_falls_to_zero:
            st.score = 0
            st.falls = 0
            st.zeroed += 1
            events[s] |= EV_FALL_TO_ZERO

    sitters = [s for s in range(SEATS) if seats[s].on_barrel]
    if row["conceded"] and sitters:
        _require(row, rules.concede_on_barrel, f"a concession while seat(s) {sitters} sit on the barrel")

    # 1. Players on the barrel.
    for s in sitters:
        st = seats[s]
        if s == declarer and made and contract >= rules.barrel_min_contract:
            st.score = barrel + contract
            st.on_barrel = False
            events[s] |= EV_WIN
            winner = s
        elif s == declarer and not made:
            st.score += results[s]
            fall(s, EV_FALL_CONTRACT)
        else:
            # A defender's points go unrecorded; the event marks points actually lost, so not a zero.
            if s != declarer and results[s] != 0:
                events[s] |= EV_DEFENCE_IGNORED
            st.attempts += 1
            if st.attempts >= rules.barrel_attempts:
                st.score -= rules.barrel_penalty
                fall(s, EV_FALL_ATTEMPTS)

    # 2. Everybody else adds his result; reaching the barrel is a climb (no jumping past it).
    climbers = []
    for s in range(SEATS):
        if s in sitters:
            continue
        st = seats[s]
        st.score += results[s]
        if barrel is None:
            if s == declarer and made and st.score >= rules.target:
                events[s] |= EV_WIN
                winner = s
        elif st.score >= barrel:
            st.score = barrel
            climbers.append(s)

    # 3. Climbers: one sits and knocks off whoever still sits; several together each fall to
    #    barrel − penalty and nobody sits.
    if len(climbers) > 1 and rules.barrel_simultaneous_penalty:
        for s in climbers:
            # Nobody sits, so this is no barrel entry; the climb still counts as a fall.
            seats[s].score = barrel - rules.barrel_penalty
            fall(s, EV_SIMULTANEOUS)
    elif climbers:
        if rules.barrel_knock_off:
            for s in sitters:
                if seats[s].on_barrel:
                    seats[s].score -= rules.barrel_penalty
                    fall(s, EV_KNOCKED_OFF)
        for s in climbers:
            st = seats[s]
            st.on_barrel = True
            st.attempts = 0
            st.barrel_entries += 1
            events[s] |= EV_BARREL_ON

    # 4. Bolts: every third costs the penalty (not to the winner); a sitter who pays it falls.
    for s in range(SEATS):
        if not row[f"bolt{s}"]:
            continue
        st = seats[s]
        st.bolts += 1
        if st.bolts == 3:
            st.bolts = 0
            if s != winner and rules.bolt_penalty:
                st.score -= rules.bolt_penalty
                st.bolt_penalties += 1
                events[s] |= EV_BOLT_PENALTY
                if st.on_barrel:
                    fall(s, 0)

    # 5. Dump truck.
    for s in range(SEATS):
        st = seats[s]
        if (rules.dump_truck and st.score == 555) or (rules.dump_truck_negative and st.score == -555):
            st.score = 0
            st.dump_trucks += 1
            events[s] |= EV_DUMP_TRUCK

    for s in range(SEATS):
        if seats[s].on_barrel and s in sitters:
            events[s] |= EV_BARREL_STAY
        _expect(row, f"change{s}", seats[s].score - before[s], row[f"change{s}"])
        _expect(row, f"score{s}", seats[s].score, row[f"score{s}"])
        if events[s] != row[f"events{s}"]:
            _fail(row, f"events{s}: expected {events[s]} ({_event_names(events[s])}), "
                       f"stored {row[f'events{s}']} ({_event_names(row[f'events{s}'])})")
    return winner


EVENT_NAMES = {
    EV_WIN: "win", EV_BARREL_ON: "barrel_on", EV_BARREL_STAY: "barrel_stay",
    EV_DEFENCE_IGNORED: "defence_ignored", EV_FALL_ATTEMPTS: "fall_attempts",
    EV_FALL_CONTRACT: "fall_contract", EV_KNOCKED_OFF: "knocked_off", EV_SIMULTANEOUS: "simultaneous",
    EV_FALL_TO_ZERO: "fall_to_zero", EV_BOLT_PENALTY: "bolt_penalty", EV_DUMP_TRUCK: "dump_truck",
}


def _event_names(bits: int) -> str:
    return "+".join(name for bit, name in EVENT_NAMES.items() if bits & bit) or "none"
