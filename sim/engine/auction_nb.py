"""The auction and the talon: the forced seat's dark game, the bidding of 2 or 3 seats (the forced
bid, silence, the barrel's free talon, undarking, the dealer playing when all pass; which bids are
legal: ``sim.game.bids_nb``), the declarer's look at the talon (a talon redeal),
and what each seat then knows of the hidden cards in the 2-player deal (the talon shown, the burial;
the 3-player discard's: ``sim.game.play_nb.know_cards``).
"""


from sim.engine.deal_nb import hand_redeal, limit_reached, redeal, talon_redeal, thrown_in
from sim.engine.enums import ACCUMULATE_BID_CAP, ALL_PASSED, DARK_CONTRACT, GOLDEN_CONTRACT, ILLEGAL
from sim.engine.schema import (
    BID_DARK,
    BID_GOLDEN,
    BID_NORMAL,
    BID_UNDARKED,
    D_BID,
    D_BID_KIND,
    D_BID_TURNS,
    D_DEALER,
    D_DECLARER,
    D_HAND,
    D_WINNING_BID,
    REDEAL_ALL_PASSED,
)
from sim.engine.workspace import W_ACTIVE, W_AUCTION, W_HANDS, W_LAST_BID
from sim.game import rules_layout as R
from sim.game.auction_layout import (
    A_CALLS,
    A_FACTS,
    A_GS,
    AUCTION_ROWS,
    C_CALL,
    C_CAP,
    C_DARK,
    C_FORCED,
    C_HIGH,
    C_HIGH_SEAT,
    C_LEAST,
    C_SEAT,
    CALLS_OVERFLOW,
    F_CALLS,
    F_DEALER,
    MAX_CALLS,
)
from sim.game.bids_nb import bid_range, forced_bid, forced_seat, legal_bid
from sim.game.state_layout import G_ATTEMPTS, G_FALLS, G_GOLDEN_LEFT, G_ON_BARREL, G_SCORE, N_GAME_STATE
from sim.numba_config import jit_hot, jit_inline
from sim.players.layout import H_BID_LIMIT
from sim.players.seat_nb import choose_bid, choose_dark


@jit_hot
def anyone_on_barrel(gs):
    """Somebody sits on the barrel (slot 3: the dealer sitting out a 4-player deal; 0 with 3)."""
    return gs[G_ON_BARREL] + gs[G_ON_BARREL + 1] + gs[G_ON_BARREL + 2] + gs[G_ON_BARREL + 3] > 0


@jit_hot
def accumulates(gs, rules, seat):
    """The seat sits on the barrel under barrel_accumulate."""
    return rules[R.BARREL_ACCUMULATE] and gs[G_ON_BARREL + seat]


@jit_hot
def free_talon_seat(gs, rules):
    """A player on the barrel who takes the talon without bidding: always with barrel_talon_free;
    with barrel_forced_last on the last attempt of his third barrel. -1 if none."""
    for p in range(3):
        if not gs[G_ON_BARREL + p]:
            continue
        if rules[R.BARREL_TALON_FREE]:
            return p
        third_barrel = gs[G_FALLS + p] == 2
        if rules[R.BARREL_FORCED_LAST] and third_barrel and gs[G_ATTEMPTS + p] == rules[R.BARREL_ATTEMPTS] - 1:
            return p
    return -1


@jit_hot
def start_auction_record(log, gs, dealer):
    """Begin the auction's record (``sim.game.auction_layout``) in ``log``: the game state before
    the deal, no call yet, the facts of the talon and the gifts unknown (-1)."""
    for i in range(N_GAME_STATE):
        log[A_GS + i // 24, i % 24] = gs[i]
    facts = log[A_FACTS]
    facts[:] = -1
    facts[F_CALLS] = 0
    facts[F_DEALER] = dealer


@jit_hot
def no_auction_record(log):
    """The record of a deal played without an auction (the advisor's fixed deals, the bidding
    nets' playouts): no call, no fact known; a player reading it learns nothing."""
    facts = log[A_FACTS]
    facts[:] = -1
    facts[F_CALLS] = 0


@jit_hot
def record_call(log, seat, call, least, cap, high, high_seat, dark, forced):
    """Append one call to the auction's record (``high``, ``high_seat``: the standing bid before
    it; ``dark``: the dark game stands; ``forced``: 1 the rules made it, 0 the seat's player chose
    it); past MAX_CALLS the record says it overflowed and keeps no more."""
    k = log[A_FACTS, F_CALLS]
    if k < 0:
        return
    if k >= MAX_CALLS:
        log[A_FACTS, F_CALLS] = CALLS_OVERFLOW
        return
    row = log[A_CALLS + k]
    row[C_SEAT] = seat
    row[C_CALL] = call
    row[C_LEAST] = least
    row[C_CAP] = cap
    row[C_HIGH] = high
    row[C_HIGH_SEAT] = high_seat
    row[C_DARK] = 1 if dark else 0
    row[C_FORCED] = forced
    log[A_FACTS, F_CALLS] = k + 1


@jit_hot
def run_auction(rng, rules, codes, prm, gs, dealer, hands, last_bid, active, dark, script, net, lbuf, n, log):
    """The bidding of ``n`` seats, clockwise from first hand (left of the dealer): raise or pass, a pass
    is final, until one bidder is left. The forced seat's opening bid is forced (forced_first_bid; the seat
    and the bid: ``bids_nb.forced_seat``, ``forced_bid``), and bidding goes on from the seat after
    him (first hand when the dealer holds it); a player below silence_below always passes. When
    the forced seat went ``dark`` his bid is 120 and only a player holding a marriage may overbid
    ("undark"), with 125 or more; then bidding goes on as usual. Which bids are legal:
    ``bids_nb.bid_range`` and ``legal_bid``. Under all_pass = dealer_plays, when every seat but the
    dealer passed without a bid, the dealer is declarer at his forced bid without a turn. Returns
    (declarer, winning bid, decisions taken, still dark); declarer ALL_PASSED when everybody
    passed, ILLEGAL for an illegal bid. ``last_bid`` gets each seat's last bid, ``log`` (the
    auction's record, begun by ``start_auction_record``) every call (``record_call``)."""
    last_bid[:] = 0
    free = free_talon_seat(gs, rules)
    if free >= 0 and not dark:
        bid = rules[R.BARREL_MIN_CONTRACT]
        if accumulates(gs, rules, free):  # his contract does not score, and he may not bid above 120
            bid = min(bid, ACCUMULATE_BID_CAP)
        last_bid[free] = bid
        record_call(log, free, bid, bid, bid, 0, -1, False, 1)
        return free, bid, 0, False
    active[:] = 1
    n_active = n
    high = 0
    high_seat = -1
    turns = 0
    p = (dealer + 1) % n
    if dark or rules[R.FORCED_FIRST_BID]:
        opener = forced_seat(dealer, n, rules)
        high = DARK_CONTRACT if dark else forced_bid(gs, rules, opener)
        high_seat = opener
        last_bid[opener] = high
        record_call(log, opener, high, high, high, 0, -1, False, 1)
        p = (opener + 1) % n
    while n_active > 1 or (n_active == 1 and high_seat < 0):
        if active[p]:
            if high_seat < 0 and n_active == 1 and rules[R.ALL_PASS]:
                # Every seat before the dealer passed without a bid: he plays at his forced bid.
                record_call(log, p, forced_bid(gs, rules, p), 0, 0, high, high_seat, dark, 1)
                high = forced_bid(gs, rules, p)
                high_seat = p
                last_bid[p] = high
                break
            least, cap = bid_range(hands[p], p, high, high_seat, dark, gs, rules)
            if rules[R.SILENCE_ON] and gs[G_SCORE + p] < rules[R.SILENCE_BELOW]:
                bid = 0
                record_call(log, p, 0, least, cap, high, high_seat, dark, 1)
            else:
                bid = choose_bid(codes[p], p, hands[p], high_seat, least, cap, gs, rules, prm, rng, script, net, lbuf)
                if bid != 0 and not legal_bid(bid, least, cap, rules):
                    return ILLEGAL, 0, turns, dark
                # A call of an imposed bidding line (the advisor's) is no decision of the player's. A
                # pass with no legal raise (least > cap) is not marked: the cap is the hand's, which
                # the other seats do not know.
                record_call(log, p, bid, least, cap, high, high_seat, dark, 0 if prm[p, H_BID_LIMIT] == 0.0 else 1)
            turns += 1
            if bid == 0:
                active[p] = 0
                n_active -= 1
                if n_active == 0:
                    return ALL_PASSED, 0, turns, dark
            else:
                high = bid
                high_seat = p
                last_bid[p] = bid
                dark = False
        p = p + 1 if p + 1 < n else 0
    return high_seat, high, turns, dark


@jit_inline
def bid_for_talon(rng, rules, bid_codes, prm, gs, dealer, ws, rec, row, plays, script, solver, n):
    """The start of every deal of ``n`` seats (3, or 2 with players = 2): record the hands, let
    the forced seat go dark or first hand play the golden round's forced 120 (the golden deal is no
    forced bid: it stays with first hand), throw in a hand the redeal rules let
    a player refuse, then the auction. Returns (status, declarer, winning bid, bid kind, played as
    it lies): status 0 goes on to the talon; REDEAL (the deal is recorded as thrown in) and
    ILLEGAL end the deal."""
    hands = ws[W_HANDS, :n]
    rec[row, D_DEALER] = dealer
    for p in range(n):
        rec[row, D_HAND + p] = hands[p]
    first = (dealer + 1) % n
    opener = forced_seat(dealer, n, rules)  # who may go dark
    mode = BID_NORMAL
    if gs[G_GOLDEN_LEFT] > 0:
        mode = BID_GOLDEN
    elif rules[R.DARK_GAME] and not anyone_on_barrel(gs) and (
            not rules[R.DARK_MIN_ON] or gs[G_SCORE + opener] >= rules[R.DARK_MIN_SCORE]):
        choice = choose_dark(bid_codes[opener], opener, gs, rules, prm, rng, script, solver[4])
        if choice != 0 and choice != 1:
            return ILLEGAL, 0, 0, mode, False
        if choice:
            mode = BID_DARK
    # Cards taken unseen (dark, golden) are played as they lie: no redeal.
    as_it_lies = mode != BID_NORMAL or not rules[R.REDEAL_ANY]  # also when the redeal limit refuses one
    reason = 0 if as_it_lies else hand_redeal(hands, dealer, rules, n)
    if reason:
        if not limit_reached(gs, rules):
            return redeal(gs, rec, row, plays, reason), 0, 0, mode, False
        as_it_lies = True
    last_bid = ws[W_LAST_BID, :n]
    log = ws[W_AUCTION:W_AUCTION + AUCTION_ROWS]
    start_auction_record(log, gs, dealer)
    if mode == BID_GOLDEN:
        last_bid[:] = 0
        last_bid[first] = GOLDEN_CONTRACT
        record_call(log, first, GOLDEN_CONTRACT, GOLDEN_CONTRACT, GOLDEN_CONTRACT, 0, -1, False, 1)
        declarer, high, turns = first, GOLDEN_CONTRACT, 0
    else:
        declarer, high, turns, still_dark = run_auction(rng, rules, bid_codes, prm, gs, dealer, hands, last_bid,
                                                        ws[W_ACTIVE, :n], mode == BID_DARK, script, solver[4],
                                                        solver[5], n, log)
        if mode == BID_DARK and not still_dark:
            mode = BID_UNDARKED
    if declarer == ILLEGAL:
        return ILLEGAL, 0, 0, mode, False
    for q in range(n):
        rec[row, D_BID + q] = last_bid[q]
    rec[row, D_BID_TURNS] = turns
    rec[row, D_BID_KIND] = mode
    rec[row, D_DECLARER] = declarer
    rec[row, D_WINNING_BID] = high
    if declarer == ALL_PASSED:  # not one of the dealer's redeals
        return thrown_in(gs, rec, row, plays, REDEAL_ALL_PASSED), 0, 0, mode, False
    return 0, declarer, high, mode, as_it_lies


@jit_inline
def at_talon(gs, rules, talon, high, declarer, dealer, n, as_it_lies, rec, row, plays):
    """The declarer sees the talon he takes and may ask for a redeal (``talon_redeal``); returns
    (REDEAL or 0, the deal now played as it lies, the forced seat won the talon with his uncontested
    forced bid)."""
    uncontested = rules[R.FORCED_FIRST_BID] and declarer == forced_seat(dealer, n, rules) and (
        high == forced_bid(gs, rules, declarer))
    if not as_it_lies:
        reason = talon_redeal(talon, uncontested, rules)
        if reason:
            if not limit_reached(gs, rules):
                return redeal(gs, rec, row, plays, reason), True, uncontested
            return 0, True, uncontested
    return 0, as_it_lies, uncontested


@jit_hot
def talon_shown_to_defenders(rules, mode, talon, uncontested):
    """The talon's cards if the defenders saw it: not when it was taken unseen (dark game, golden
    round), under talon_shown_to_declarer_only, nor under talon_hidden_at_100 when the forced seat
    won it with his uncontested forced bid."""
    if mode == BID_DARK or mode == BID_GOLDEN or rules[R.TALON_TO_DECLARER_ONLY]:
        return 0
    if rules[R.TALON_HIDDEN_AT_100] and uncontested:
        return 0
    return talon


@jit_hot
def know_cards2(known, declarer, shown_talon, buried, given, talon_size):
    """What each seat of a 2-player deal knows once the declarer has buried his cards:
    ``known[4 * viewer + k]`` holds the cards known to lie in the opponent's hand (k = 0), the
    untaken talon (1), the buried pair (2), and the opponent's hand or the buried pair (3);
    ``known[8:11]`` the sizes of the first three piles (the hand's is filled in at each
    decision). The declarer knows what he buried and gave; the defender, the talon's cards if he
    saw it (``shown_talon``, 0 otherwise), which the declarer kept or buried."""
    for i in range(11):
        known[i] = 0
    known[4 * declarer + 1] = given
    known[4 * declarer + 2] = buried
    known[4 * (1 - declarer) + 3] = shown_talon
    known[9] = talon_size
    known[10] = 2
