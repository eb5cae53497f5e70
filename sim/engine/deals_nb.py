"""The compiled game: deal, bidding, talon, discard, final contract, eight tricks, deal scoring
and the game-level rules (bolts, dump truck, barrel), plus the chunk kernels the runners call.

Kernels take only arrays and scalars. The house rules are the int64 array of
``HouseRules.to_array`` (offsets in ``sim.game.rules_layout``); records and game state use the
offsets in ``sim.layout``. Players are chosen per seat by integer code.
"""

import numpy as np

from sim.engine.schema import (
    BID_DARK,
    BID_GOLDEN,
    BID_NORMAL,
    BID_UNDARKED,
    D_BID,
    D_BID_KIND,
    D_BID_TURNS,
    D_BOLT,
    D_BURIED,
    D_CARD_POINTS,
    D_CHANGE,
    D_CONCEDED,
    D_CONTRACT,
    D_DEAL,
    D_DEALER,
    D_DECLARER,
    D_EVENTS,
    D_GAME,
    D_GIFT,
    D_HAND,
    D_MADE,
    D_MARRIAGE_POINTS,
    D_MARRIAGES,
    D_OTHER_TALON,
    D_REDEAL,
    D_RESULT,
    D_SCORE,
    D_SEAT_BLOCKS,
    D_TALON,
    D_TALON_CARD,
    D_TRICKS,
    D_WINNING_BID,
    EV_BARREL_ON,
    EV_BARREL_STAY,
    EV_BOLT_PENALTY,
    EV_DEFENCE_IGNORED,
    EV_DUMP_TRUCK,
    EV_FALL_ATTEMPTS,
    EV_FALL_CONTRACT,
    EV_FALL_TO_ZERO,
    EV_GOLDEN_RESET,
    EV_KNOCKED_OFF,
    EV_REDEAL_PENALTY,
    EV_SIMULTANEOUS,
    EV_WIN,
    GAME_STATE_TO_RECORD,
    REDEAL_ALL_PASSED,
    REDEAL_FOUR_ACES,
    REDEAL_FOUR_NINES,
    REDEAL_FOUR_NINES_AFTER_TALON,
    REDEAL_HAND_POINTS,
    REDEAL_NONE,
    REDEAL_TALON_POINTS,
    REDEAL_TALON_THREE_JACKS,
    REDEAL_TALON_TWO_NINES,
    REDEAL_THREE_NINES,
)
from sim.game import rules_layout as R
from sim.game.bits_nb import popcount
from sim.game.play_nb import (
    ACE,
    CARD_POINTS,
    JACK,
    KING,
    LEAD_WITHOUT_DECLARING,
    NINE,
    QUEEN,
    RANK_MASK,
    beats,
    declaration,
    givable_cards,
    legal_follows,
    legal_leads,
    marriage_total,
    mask_points,
    nth_card,
    round5,
)
from sim.game.rng_nb import below
from sim.game.state_layout import (
    G_ATTEMPTS,
    G_BARREL_ENTRIES,
    G_BARREL_FALLS,
    G_BOLT_PENALTIES,
    G_BOLTS,
    G_CONCESSIONS,
    G_DEALER,
    G_DEALS,
    G_DUMP_TRUCKS,
    G_FALLS,
    G_FIRST_DEALER,
    G_GOLDEN_LEFT,
    G_GOLDEN_MADE,
    G_GOLDEN_ROUNDS,
    G_ON_BARREL,
    G_QUIET,
    G_REDEALS,
    G_SCORE,
    G_SEAT_BLOCKS_END,
    G_WINNER,
    G_ZEROED,
    N_GAME_STATE,
)
from sim.numba_config import jit_hot, jit_inline
from sim.players.dd_nb import dd2_choose_card, dd_choose_card
from sim.players.heuristic_nb import (
    choose_bid,
    choose_card,
    choose_contract,
    choose_dark,
    choose_discard,
    choose_discard2,
    dd_final_contract,
)
from sim.players.layout import H_PIMC_WORLDS, PLAYER_DD, PLAYER_PIMC
from sim.players.pimc2_nb import pimc2_choose_card, pimc2_choose_discard
from sim.players.pimc_nb import pimc_choose_card, pimc_choose_discard
from sim.solver.search2_nb import best_discard2
from sim.solver.search_nb import best_discard

ILLEGAL = -1  # returned status when a player chose an illegal action (a bug, never expected)
REDEAL = 1  # returned status of a deal thrown in: the same dealer deals again
ALL_PASSED = -2  # the auction's "declarer" when nobody bid
DARK_CONTRACT = 120  # a dark game's bid, and a golden-round deal's forced contract
GOLDEN_CONTRACT = 120
UNDARK_BID = 125  # the least bid that undarks
GOLDEN_ROUND_REPLAYS = 3  # a golden round nobody made is replayed, at most this many rounds in all
ACCUMULATE_BID_CAP = 120  # barrel_accumulate: the sitter may not bid above this
THIRD_CONCESSION_PENALTY = 120  # concede_third_penalty: every third concession of a player costs this
REDEAL_LIMIT_PENALTY = 120  # redeal_limit_penalty: the dealer's third redeal in a row costs him this
SITTER = 3  # players = 4: the slot of the dealer, who sits out the deal (see sim.layout)


@jit_hot
def _shuffle(rng, deck):
    """A uniformly random order of the 24 cards in ``deck``."""
    for i in range(24):
        deck[i] = i
    for i in range(23, 0, -1):
        j = below(rng, i + 1)
        deck[i], deck[j] = deck[j], deck[i]


@jit_hot
def _cards(deck, start, count):
    h = np.int64(0)
    for k in range(start, start + count):
        h |= np.int64(1) << deck[k]
    return h


@jit_hot
def deal_cards(rng, hands, deck):
    """Shuffle ``deck`` (24 slots) and deal 7 cards to each seat; return the 3-card talon mask."""
    _shuffle(rng, deck)
    for p in range(3):
        hands[p] = _cards(deck, 7 * p, 7)
    return _cards(deck, 21, 3)


@jit_hot
def deal_cards2(rng, hands, deck, talon_size):
    """players = 2: shuffle and deal 12 - ``talon_size`` cards to each of two seats; return the
    two talons of ``talon_size`` cards (the first is the one the declarer takes)."""
    _shuffle(rng, deck)
    per_hand = 12 - talon_size
    hands[0] = _cards(deck, 0, per_hand)
    hands[1] = _cards(deck, per_hand, per_hand)
    return _cards(deck, 2 * per_hand, talon_size), _cards(deck, 2 * per_hand + talon_size, talon_size)


@jit_hot
def bid_cap(hand, rules):
    cap = rules[R.MAX_CONTRACT]
    if not rules[R.NO_BID_CAP]:
        cap = min(cap, 120 + marriage_total(hand, rules))
    return cap


@jit_hot
def anyone_on_barrel(gs):
    """Somebody sits on the barrel (slot 3: the dealer sitting out a 4-player deal; 0 with 3)."""
    return gs[G_ON_BARREL] + gs[G_ON_BARREL + 1] + gs[G_ON_BARREL + 2] + gs[G_ON_BARREL + 3] > 0


# Rows of the per-chunk workspace (a (WORKSPACE_ROWS, 24) int64 array), so that no deal allocates.
W_HANDS, W_ACTIVE, W_LAST_BID, W_CARD_POINTS, W_MARRIAGE_POINTS, W_MARRIAGES, W_TRICKS = 0, 1, 2, 3, 4, 5, 6
W_RESULT, W_TRICK, W_VOIDS, W_NEW, W_EVENTS, W_SAT_BEFORE, W_DECK = 7, 8, 9, 10, 11, 12, 13
W_KNOWN = 14  # what each seat knows of the hidden cards (layouts: know_cards, know_cards2)
W_CODES = 15  # 4-player deal: the three players' codes by slot (0..2) and their bidding codes (3..5)
WORKSPACE_ROWS = 16


def new_workspace():
    return np.zeros((WORKSPACE_ROWS, 24), dtype=np.int64)


def new_game_state():
    return np.zeros(N_GAME_STATE, dtype=np.int64)


@jit_hot
def play_deal(rng, deal_rng, rules, codes, prm, gs, dealer, ws, rec, row, plays, script, solver):
    """Deal at random from ``deal_rng``, then play the deal (``play_dealt``; players draw from
    ``rng``). Two streams: the deals of a run do not depend on which players play them."""
    talon = deal_cards(deal_rng, ws[W_HANDS, :3], ws[W_DECK])
    return play_dealt(rng, rules, codes, codes, prm, gs, dealer, ws, talon, rec, row, plays, script, solver)


@jit_hot
def play_dealt(rng, rules, codes, bid_codes, prm, gs, dealer, ws, talon, rec, row, plays, script, solver):
    """Play one deal whose hands are in the workspace and whose talon is ``talon``, from the game
    state ``gs`` (scores, barrel, bolts); write its record to ``rec[row]`` and ``plays[row]`` and
    update ``gs``. Seats bid (and decide on a dark game) by ``bid_codes`` and play by ``codes``.
    Scripted seats read their actions from ``script``; double-dummy and PIMC seats
    search with the buffers ``solver`` = (state, moves, table, PIMC worlds). Returns 0, REDEAL
    or ILLEGAL."""
    hands = ws[W_HANDS, :3]
    rec[row, D_TALON] = talon
    status, declarer, high, mode, as_it_lies = bid_for_talon(rng, rules, bid_codes, prm, gs, dealer, ws, rec, row,
                                                             plays, script, 3)
    if status != 0:
        return status

    # ---- talon (shown, taken) and discard: one card to each opponent --------------------------
    status, as_it_lies, uncontested = at_talon(gs, rules, talon, high, declarer, dealer, 3, as_it_lies, rec, row,
                                               plays)
    if status != 0:
        return status
    hands[declarer] |= talon
    left = (declarer + 1) % 3
    right = (declarer + 2) % 3
    givable = givable_cards(hands[declarer], rules)
    g1, g2, dd_value = choose_gifts(codes[declarer], declarer, hands, givable, rules, prm, rng, script, solver)
    if g1 == g2 or not (givable >> g1) & 1 or not (givable >> g2) & 1:
        return ILLEGAL
    hands[declarer] &= ~((np.int64(1) << g1) | (np.int64(1) << g2))
    hands[left] |= np.int64(1) << g1
    hands[right] |= np.int64(1) << g2
    rec[row, D_GIFT + declarer] = -1
    rec[row, D_GIFT + left] = g1
    rec[row, D_GIFT + right] = g2
    if codes[0] == PLAYER_PIMC or codes[1] == PLAYER_PIMC or codes[2] == PLAYER_PIMC:  # only they read it
        know_cards(ws[W_KNOWN], declarer, talon_shown_to_defenders(rules, mode, talon, uncontested), g1,
                   g2, not rules[R.DISCARD_FACE_DOWN])
    return finish_deal(rng, rules, codes, prm, gs, dealer, ws, rec, row, plays, script, solver, 3, declarer, high,
                       mode, as_it_lies, dd_value, 0, 0)


@jit_inline
def at_talon(gs, rules, talon, high, declarer, dealer, n, as_it_lies, rec, row, plays):
    """The declarer sees the talon he takes and may ask for a redeal (``talon_redeal``); returns
    (REDEAL or 0, the deal now played as it lies, first hand won the talon with the uncontested
    forced minimum bid)."""
    uncontested = rules[R.FORCED_FIRST_BID] and high == rules[R.MIN_BID] and declarer == (dealer + 1) % n
    if not as_it_lies:
        reason = talon_redeal(talon, uncontested, rules)
        if reason:
            if not limit_reached(gs, rules):
                return redeal(gs, rec, row, plays, reason), True, uncontested
            return 0, True, uncontested
    return 0, as_it_lies, uncontested


@jit_inline
def bid_for_talon(rng, rules, bid_codes, prm, gs, dealer, ws, rec, row, plays, script, n):
    """The start of every deal of ``n`` seats (3, or 2 with players = 2): record the hands, let
    first hand go dark or play the golden round's forced 120, throw in a hand the redeal rules let
    a player refuse, then the auction. Returns (status, declarer, winning bid, bid kind, played as
    it lies): status 0 goes on to the talon; REDEAL (the deal is recorded as thrown in) and
    ILLEGAL end the deal."""
    hands = ws[W_HANDS, :n]
    rec[row, D_DEALER] = dealer
    for p in range(n):
        rec[row, D_HAND + p] = hands[p]
    first = (dealer + 1) % n
    mode = BID_NORMAL
    if gs[G_GOLDEN_LEFT] > 0:
        mode = BID_GOLDEN
    elif rules[R.DARK_GAME] and not anyone_on_barrel(gs) and (
            not rules[R.DARK_MIN_ON] or gs[G_SCORE + first] >= rules[R.DARK_MIN_SCORE]):
        choice = choose_dark(bid_codes[first], first, gs, rules, prm, rng, script)
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
    if mode == BID_GOLDEN:
        last_bid[:] = 0
        last_bid[first] = GOLDEN_CONTRACT
        declarer, high, turns = first, GOLDEN_CONTRACT, 0
    else:
        declarer, high, turns, still_dark = run_auction(rng, rules, bid_codes, prm, gs, dealer, hands, last_bid,
                                                        ws[W_ACTIVE, :n], mode == BID_DARK, script, n)
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
def finish_deal(rng, rules, codes, prm, gs, dealer, ws, rec, row, plays, script, solver, n, declarer, high, mode,
                as_it_lies, dd_value, buried_points, last_bonus):
    """The end of every deal of ``n`` seats once the declarer holds his final hand: the four-nines
    redeal and bonus, the final contract or a concession, the tricks, the deal's results and
    bolts, then the game rules (``apply_deal``). With players = 2 the declarer's buried cards
    (``buried_points``) count for him and the untaken talon (``last_bonus``) for the winner of
    the last trick. Returns 0, REDEAL or ILLEGAL."""
    hands = ws[W_HANDS, :n]
    four_nines = -1  # the seat holding the four nines after the discard
    if rules[R.FOUR_NINES_BONUS] or rules[R.REDEAL_FOUR_NINES_AFTER_TALON]:
        for q in range(n):
            if hands[q] & RANK_MASK[NINE] == RANK_MASK[NINE]:
                four_nines = q
    if four_nines >= 0 and rules[R.REDEAL_FOUR_NINES_AFTER_TALON] and rules[R.REDEAL_ASK] and not as_it_lies:
        if not limit_reached(gs, rules):
            return redeal(gs, rec, row, plays, REDEAL_FOUR_NINES_AFTER_TALON)
        as_it_lies = True
    gs[G_REDEALS] = 0  # the deal is played

    # ---- final contract or concession ----------------------------------------------------------
    doubled = mode == BID_DARK or mode == BID_GOLDEN  # 120 taken unseen: fixed and doubled
    can_concede = not doubled and rules[R.CONCEDE] and (rules[R.CONCEDE_ON_BARREL] or not anyone_on_barrel(gs)) and (
        rules[R.CONCEDE_LIMIT] == 0 or gs[G_CONCESSIONS + declarer] < rules[R.CONCEDE_LIMIT])
    final_cap = bid_cap(hands[declarer], rules)
    if accumulates(gs, rules, declarer):
        final_cap = min(final_cap, ACCUMULATE_BID_CAP)
    if doubled:
        contract = high
    elif codes[declarer] == PLAYER_DD:
        contract = dd_final_contract(high, final_cap, dd_value, can_concede)
    else:
        contract = choose_contract(codes[declarer], declarer, hands[declarer], high, final_cap,
                                   can_concede, gs, rules, prm, rng, script)
    conceded = contract == -1
    if conceded:
        if not can_concede:
            return ILLEGAL
        contract = high
    elif contract < high or contract % 5 or (contract > high and contract > final_cap):
        return ILLEGAL
    rec[row, D_CONTRACT] = contract
    rec[row, D_CONCEDED] = conceded
    rec[row, D_REDEAL] = REDEAL_NONE

    card_points = ws[W_CARD_POINTS, :n]
    marriage_points = ws[W_MARRIAGE_POINTS, :n]
    marriages = ws[W_MARRIAGES, :n]
    tricks = ws[W_TRICKS, :n]
    result = ws[W_RESULT, :n]
    made = False
    if conceded:
        clear_tallies(ws)
        loss = 0 if rules[R.CONCEDE_NO_DEDUCTION] else contract
        gs[G_CONCESSIONS + declarer] += 1
        if rules[R.CONCEDE_THIRD_PENALTY] and gs[G_CONCESSIONS + declarer] % 3 == 0:
            loss += THIRD_CONCESSION_PENALTY
        gain = 60 if rules[R.CONCEDE_60] else (contract + 9) // 10 * 5
        for q in range(n):
            result[q] = -loss if q == declarer else gain
        plays[row, :] = -1
    else:
        status = play_tricks(rng, rules, codes, prm, ws, declarer, row, plays, script, solver, n, last_bonus)
        if status != 0:
            return status
        card_points[declarer] += buried_points
        total = card_points[declarer] + marriage_points[declarer]
        if rules[R.ROUND_DECLARER]:
            total = round5(total)
        made = total >= contract
        factor = 2 if doubled else 1  # a dark or golden deal doubles all but the defenders' marriages
        for q in range(n):
            if q == declarer:
                result[q] = factor * (contract if made else -contract)
            else:
                result[q] = round5(factor * card_points[q] + marriage_points[q])
    rec[row, D_MADE] = made
    for q in range(n):
        if q == four_nines:
            result[q] += rules[R.FOUR_NINES_BONUS]  # zero unless four_nines_bonus
        rec[row, D_CARD_POINTS + q] = card_points[q]
        rec[row, D_MARRIAGE_POINTS + q] = marriage_points[q]
        rec[row, D_MARRIAGES + q] = marriages[q]
        rec[row, D_TRICKS + q] = tricks[q]
        rec[row, D_RESULT + q] = result[q]
        if rules[R.BOLT_ON] == R.BOLT_ON_NO_TRICKS and not rules[R.BOLT_OWN_GAME_EXEMPT]:
            bolt = (not conceded) and tricks[q] == 0  # the classic rule, without a call
        else:
            bolt = earns_bolt(gs, rules, q, declarer, conceded, tricks[q], card_points[q] + marriage_points[q])
        rec[row, D_BOLT + q] = 2 * bolt if mode == BID_DARK and rules[R.BOLT_DOUBLE_IN_DARK] else bolt
    paying_dealer = -1
    if as_it_lies and rules[R.REDEAL_ANY] and mode == BID_NORMAL:
        paying_dealer = SITTER if rules[R.PLAYERS] == 4 else dealer  # the 4-player dealer sits out
    apply_deal(gs, rules, declarer, contract, made, conceded, paying_dealer, ws, rec, row)
    if mode == BID_GOLDEN:
        end_golden_deal(gs, rules, made, rec, row)
    return 0


@jit_hot
def choose_gifts(code, declarer, hands, givable, rules, prm, rng, script, solver):
    """The declarer's discard by his player code: (card to the seat after him, card to the seat
    after that, the double-dummy value of the deal for a dd declarer, else 0)."""
    left = (declarer + 1) % 3
    right = (declarer + 2) % 3
    if code == PLAYER_DD:
        return best_discard(hands[declarer], hands[left], hands[right], rules, solver[0], solver[1], solver[2])
    if code == PLAYER_PIMC:
        # Before the discard the declarer knows no opponent's card.
        g1, g2 = pimc_choose_discard(hands[declarer], 0, 0, np.int64(prm[declarer, H_PIMC_WORLDS]), rules, rng,
                                     solver[0], solver[1], solver[2], solver[3])
        return g1, g2, 0
    g1, g2 = choose_discard(code, declarer, hands[declarer], givable, rules, prm, rng, script)
    return g1, g2, 0


@jit_hot
def know_cards(known, declarer, shown_talon, g1, g2, gifts_face_up):
    """What each seat knows of the others' hands once the discard is made (``known[3 * viewer +
    holder]``): the talon's cards shown to the defenders (``shown_talon``, 0 when they did not
    see it) are the declarer's; the declarer knows where his gifts went, and with
    ``gifts_face_up`` so does the other defender (each receiver holds his own anyway)."""
    left = (declarer + 1) % 3
    right = (declarer + 2) % 3
    for i in range(9):
        known[i] = 0
    known[3 * left + declarer] = shown_talon
    known[3 * right + declarer] = shown_talon
    for viewer in range(3):
        if viewer == declarer or gifts_face_up:
            known[3 * viewer + left] |= np.int64(1) << g1
            known[3 * viewer + right] |= np.int64(1) << g2


@jit_hot
def talon_shown_to_defenders(rules, mode, talon, uncontested):
    """The talon's cards if the defenders saw it: not when it was taken unseen (dark game, golden
    round), under talon_shown_to_declarer_only, nor under talon_hidden_at_100 when first hand won
    it with the uncontested forced minimum bid."""
    if mode == BID_DARK or mode == BID_GOLDEN or rules[R.TALON_TO_DECLARER_ONLY]:
        return 0
    if rules[R.TALON_HIDDEN_AT_100] and uncontested:
        return 0
    return talon


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
def run_auction(rng, rules, codes, prm, gs, dealer, hands, last_bid, active, dark, script, n):
    """The bidding of ``n`` seats, clockwise from first hand (left of the dealer): raise or pass, a pass is final,
    until one bidder is left. First hand's opening bid of min_bid is forced (forced_first_bid); a
    player below silence_below always passes. When first hand went ``dark`` his bid is 120 and
    only a player holding a marriage may overbid ("undark"), with 125 or more; then bidding goes
    on as usual. Returns (declarer, winning bid, decisions taken, still dark); declarer
    ALL_PASSED when everybody passed, ILLEGAL for an illegal bid. ``last_bid`` gets each seat's
    last bid."""
    last_bid[:] = 0
    free = free_talon_seat(gs, rules)
    if free >= 0 and not dark:
        bid = rules[R.BARREL_MIN_CONTRACT]
        if accumulates(gs, rules, free):  # his contract does not score, and he may not bid above 120
            bid = min(bid, ACCUMULATE_BID_CAP)
        last_bid[free] = bid
        return free, bid, 0, False
    step = rules[R.BID_STEP]
    first = (dealer + 1) % n
    active[:] = 1
    n_active = n
    high = 0
    high_seat = -1
    turns = 0
    p = first
    if dark or rules[R.FORCED_FIRST_BID]:
        high = DARK_CONTRACT if dark else rules[R.MIN_BID]
        high_seat = first
        last_bid[first] = high
        p = (first + 1) % n
    while n_active > 1 or (n_active == 1 and high_seat < 0):
        if active[p]:
            min_raise = high + step if high_seat >= 0 else rules[R.MIN_BID]
            cap = bid_cap(hands[p], rules)
            if dark:
                min_raise = max(min_raise, UNDARK_BID)
                if marriage_total(hands[p], rules) == 0:
                    cap = 0  # only a marriage lets a player undark
            if accumulates(gs, rules, p):
                cap = min(cap, ACCUMULATE_BID_CAP)
            if rules[R.SILENCE_ON] and gs[G_SCORE + p] < rules[R.SILENCE_BELOW]:
                bid = 0
            else:
                bid = choose_bid(codes[p], p, hands[p], high, high_seat, min_raise, cap, gs, rules, prm, rng, script)
                if bid != 0 and (bid < min_raise or bid > cap or (bid - min_raise) % step
                                 or (rules[R.NO_JUMP_BIDS] and bid != min_raise)):
                    return ILLEGAL, 0, turns, dark
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


@jit_hot
def accumulates(gs, rules, seat):
    """The seat sits on the barrel under barrel_accumulate."""
    return rules[R.BARREL_ACCUMULATE] and gs[G_ON_BARREL + seat]


@jit_hot
def end_golden_deal(gs, rules, made, rec, row):
    """Count a golden-round deal; at the end of a round nobody made, scores go back to zero and
    the round is played again (at most GOLDEN_ROUND_REPLAYS rounds of one deal per player)."""
    if made:
        gs[G_GOLDEN_MADE] = 1
    gs[G_GOLDEN_LEFT] -= 1
    if gs[G_GOLDEN_LEFT] > 0 or gs[G_GOLDEN_MADE]:
        return
    for q in range(rules[R.PLAYERS]):
        rec[row, D_CHANGE + q] -= gs[G_SCORE + q]
        rec[row, D_SCORE + q] = 0
        rec[row, D_EVENTS + q] |= EV_GOLDEN_RESET
        gs[G_SCORE + q] = 0
    if gs[G_GOLDEN_ROUNDS] < GOLDEN_ROUND_REPLAYS:
        gs[G_GOLDEN_ROUNDS] += 1
        gs[G_GOLDEN_LEFT] = rules[R.PLAYERS]


@jit_hot
def earns_bolt(gs, rules, seat, declarer, conceded, tricks, points):
    """Whether ``seat`` gets a bolt for this deal: by default a played deal without a trick;
    bolt_on = zero_points: a played deal without a point; bolt_on = three_passes: the third deal
    in a row without declaring (counted here). bolt_own_game_exempt spares the declarer."""
    if rules[R.BOLT_ON] == R.BOLT_ON_THREE_PASSES:
        if seat == declarer:
            gs[G_QUIET + seat] = 0
            return False
        gs[G_QUIET + seat] += 1
        if gs[G_QUIET + seat] < 3:
            return False
        gs[G_QUIET + seat] = 0
        return True
    if conceded or (seat == declarer and rules[R.BOLT_OWN_GAME_EXEMPT]):
        return False
    if rules[R.BOLT_ON] == R.BOLT_ON_ZERO_POINTS:
        return points == 0
    return tricks == 0


@jit_hot
def hand_redeal(hands, dealer, rules, n):
    """Why the deal is redealt before the bidding (the ``redeal`` code), or 0: four aces force it;
    a poor hand or the nines allow a player to ask (redeal_policy = always asks). ``n`` seats."""
    for k in range(n):
        hand = hands[(dealer + 1 + k) % n]
        if rules[R.REDEAL_FOUR_ACES] and hand & RANK_MASK[ACE] == RANK_MASK[ACE]:
            return REDEAL_FOUR_ACES
        if not rules[R.REDEAL_ASK]:
            continue
        if mask_points(hand) < rules[R.REDEAL_HAND_POINTS_BELOW]:
            return REDEAL_HAND_POINTS
        nines = popcount(hand & RANK_MASK[NINE])
        if rules[R.REDEAL_FOUR_NINES] and nines == 4:
            return REDEAL_FOUR_NINES
        if rules[R.REDEAL_THREE_NINES] and nines >= 3:
            return REDEAL_THREE_NINES
    return 0


@jit_hot
def talon_redeal(talon, uncontested, rules):
    """Why the declarer may ask for a redeal on seeing the talon, or 0."""
    if not rules[R.REDEAL_ASK]:
        return 0
    if mask_points(talon) < rules[R.REDEAL_TALON_POINTS_BELOW] and (
            uncontested or not rules[R.REDEAL_TALON_ONLY_AT_100]):
        return REDEAL_TALON_POINTS
    if rules[R.REDEAL_TALON_TWO_NINES] and popcount(talon & RANK_MASK[NINE]) >= 2:
        return REDEAL_TALON_TWO_NINES
    if rules[R.REDEAL_TALON_THREE_JACKS] and popcount(talon & RANK_MASK[JACK]) == 3:
        return REDEAL_TALON_THREE_JACKS
    return 0


@jit_hot
def limit_reached(gs, rules):
    """redeal_limit_penalty: this would be the dealer's third redeal in a row, so the deal is
    played as it lies and the dealer pays (in apply_deal)."""
    return rules[R.REDEAL_LIMIT_PENALTY] and gs[G_REDEALS] >= 2


@jit_hot
def redeal(gs, rec, row, plays, reason):
    gs[G_REDEALS] += 1
    return thrown_in(gs, rec, row, plays, reason)


@jit_hot
def thrown_in(gs, rec, row, plays, reason):
    """Record a deal that is not played (the same dealer deals again): no declarer, nothing
    scored, the scores as they were; with players = 2 the other talon as dealt, nothing buried and
    no talon card."""
    for col in range(D_CONTRACT, D_OTHER_TALON):  # the 2-player columns come last
        rec[row, col] = 0
    rec[row, D_BURIED] = 0
    rec[row, D_TALON_CARD] = -1
    for q in range(3):
        rec[row, D_GIFT + q] = -1
        rec[row, D_SCORE + q] = gs[G_SCORE + q]
    rec[row, D_DECLARER] = -1
    rec[row, D_REDEAL] = reason
    plays[row, :] = -1
    return REDEAL


@jit_hot
def clear_tallies(ws):
    """Zero the per-seat tallies of a deal: card points, marriage points, marriages, tricks."""
    for q in range(3):
        ws[W_CARD_POINTS, q] = 0
        ws[W_MARRIAGE_POINTS, q] = 0
        ws[W_MARRIAGES, q] = 0
        ws[W_TRICKS, q] = 0


@jit_inline
def play_tricks(rng, rules, codes, prm, ws, declarer, row, plays, script, solver, n, last_bonus):
    """The tricks of ``n`` seats (eight of 3 cards; with players = 2 ten or nine of 2) with the
    declarer on lead; fills the per-seat tallies in the workspace from zero, the winner of the last
    trick taking ``last_bonus`` card points more (players = 2: the untaken talon). Returns 0 or
    ILLEGAL."""
    clear_tallies(ws)
    hands = ws[W_HANDS, :n]
    card_points = ws[W_CARD_POINTS, :n]
    marriage_points = ws[W_MARRIAGE_POINTS, :n]
    marriages = ws[W_MARRIAGES, :n]
    tricks = ws[W_TRICKS, :n]
    trick = ws[W_TRICK, :n]
    voids = ws[W_VOIDS, :n]
    voids[:] = 0
    n_tricks = popcount(hands[declarer])
    if n == 2:
        plays[row, :] = -1  # 20 or 18 cards fill the row
    leader = declarer
    # np.int64 rather than literals: a literal argument makes Numba compile every player and
    # solver kernel once more for it.
    trump = np.int64(-1)
    trump_owner = np.int64(-1)
    played = np.int64(0)
    # Cards whose lead may declare something: kings and queens; jacks and aces under the rules
    # that count them.
    declaring_ranks = RANK_MASK[KING] | RANK_MASK[QUEEN]
    if rules[R.HALF_MARRIAGE]:
        declaring_ranks |= RANK_MASK[JACK]
    if rules[R.ACE_MARRIAGE]:
        declaring_ranks |= RANK_MASK[ACE]
    for t in range(n_tricks):
        win_card = -1
        win_seat = -1
        led_suit = -1
        points = 0
        for k in range(n):
            p = leader + k if leader + k < n else leader + k - n
            hand = hands[p]
            can_declare = False
            if k == 0:
                legal = hand
                if trump >= 0 and (rules[R.NO_LEAD_FOREIGN_TRUMP] or rules[R.MUST_LEAD_TRUMP]):
                    legal = legal_leads(hand, trump, trump_owner == p, rules[R.NO_LEAD_FOREIGN_TRUMP],
                                        rules[R.MUST_LEAD_TRUMP])
                can_declare = tricks[p] > 0 or rules[R.MARRIAGE_FIRST_LEAD]
            else:
                legal = legal_follows(hand, led_suit, win_card, trump, rules[R.MUST_HEAD])
            if codes[p] == PLAYER_DD or codes[p] == PLAYER_PIMC:
                won = np.int64(0)
                for q in range(n):
                    won |= (tricks[q] > 0) << q
                burning = rules[R.MARRIAGE_BURNS_WITHOUT_TRICK] and tricks[declarer] == 0
                unsecured = marriage_points[declarer] if burning else 0
                if n == 2:
                    choice, declare = two_player_search(hands, p, legal, trick, k, leader, trump, trump_owner,
                                                        declarer, won, unsecured, last_bonus, played, voids, ws,
                                                        codes[p], prm, rules, rng, solver)
                elif codes[p] == PLAYER_DD:
                    choice, declare = dd_choose_card(hands, p, legal, trick, k, leader, trump, trump_owner, declarer,
                                                     won, unsecured, rules, solver[0], solver[1], solver[2])
                else:
                    choice, declare = pimc_choose_card(hands, p, legal, trick, k, leader, trump, trump_owner,
                                                       declarer, won, unsecured, played, voids,
                                                       ws[W_KNOWN, 3 * p:3 * p + 3],
                                                       np.int64(prm[p, H_PIMC_WORLDS]), rules, rng, solver[0],
                                                       solver[1], solver[2], solver[3])
                if k == 0 and can_declare and not declare and declaration(hand, choice, rules)[2]:
                    choice |= LEAD_WITHOUT_DECLARING
            else:
                choice = choose_card(codes[p], p, hands, legal, trick, k, leader, trump, trump_owner, declarer,
                                     played, voids, can_declare, rules, prm, rng, script)
            c = choice & ~LEAD_WITHOUT_DECLARING
            if choice < 0 or c > 23 or not (legal >> c) & 1:
                return ILLEGAL
            if k == 0:
                led_suit = c // 6
                win_card = c
                win_seat = p
                if can_declare and (declaring_ranks >> c) & 1:
                    value, new_trump, bit = declaration(hand, c, rules)
                    if c != choice and (not rules[R.MARRIAGE_OPTIONAL] or bit == 0):
                        return ILLEGAL  # declining is a choice only where a declaration is possible
                    if bit and c == choice:
                        marriage_points[p] += value
                        marriages[p] |= bit
                        if new_trump >= 0:
                            trump = new_trump
                            trump_owner = p
                elif c != choice:
                    return ILLEGAL
            else:
                if c != choice:
                    return ILLEGAL
                if c // 6 != led_suit:
                    voids[p] |= 1 << led_suit
                    if trump >= 0 and c // 6 != trump:
                        voids[p] |= 1 << trump
                if beats(c, win_card, trump):
                    win_card = c
                    win_seat = p
            trick[k] = c
            points += CARD_POINTS[c]
            hands[p] = hand & ~(np.int64(1) << c)
            played |= np.int64(1) << c
            plays[row, n * t + k] = choice
        tricks[win_seat] += 1
        card_points[win_seat] += points
        leader = win_seat
    card_points[leader] += last_bonus
    if rules[R.MARRIAGE_BURNS_WITHOUT_TRICK]:
        for q in range(n):
            if tricks[q] == 0:
                marriage_points[q] = 0  # declared (the trump changed) but burnt: no trick won
    return 0


@jit_hot
def two_player_search(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner, declarer, won, unsecured,
                      last_bonus, played, voids, ws, code, prm, rules, rng, solver):
    """players = 2: the card of a double-dummy or PIMC seat, (card, declare). A PIMC seat knows
    what ``know_cards2`` left in the workspace and how many cards its opponent holds now."""
    if code == PLAYER_DD:
        return dd2_choose_card(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner, declarer, won,
                               unsecured, last_bonus, rules, solver[0], solver[1], solver[2])
    counts = ws[W_KNOWN, 8:11]
    counts[0] = popcount(hands[1 - seat])
    return pimc2_choose_card(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner, declarer, won,
                             unsecured, played, voids, ws[W_KNOWN, 4 * seat:4 * seat + 4], counts,
                             np.int64(prm[seat, H_PIMC_WORLDS]), rules, rng, solver[0], solver[1], solver[2],
                             solver[3])


@jit_hot
def _fall(gs, rules, p, new_scores):
    """A counted fall from the barrel (the penalty is already in ``new_scores``); the n-th fall
    (``barrel_falls_to_zero``) sets the score to zero and the count starts again."""
    gs[G_ON_BARREL + p] = 0
    gs[G_ATTEMPTS + p] = 0
    gs[G_BARREL_FALLS + p] += 1
    gs[G_FALLS + p] += 1
    n = rules[R.BARREL_FALLS_TO_ZERO]
    if n > 0 and gs[G_FALLS + p] >= n:
        new_scores[p] = 0
        gs[G_FALLS + p] = 0
        gs[G_ZEROED + p] += 1
        return EV_FALL_TO_ZERO
    return 0


@jit_hot
def apply_deal(gs, rules, declarer, contract, made, conceded, paying_dealer, ws, rec, row):
    """Turn the deal's raw results (workspace row W_RESULT) into score changes under bolts, the
    barrel and the dump truck; record them and update the game state. See docs/RULES.md for the
    order in which these rules apply. With players = 4 the seats are the deal's slots, slot 3 the
    dealer sitting out (see sim.layout)."""
    if rules[R.PLAYERS] == 4:
        settle(gs, rules, declarer, contract, made, conceded, paying_dealer, ws, rec, row, 4)
    elif rules[R.PLAYERS] == 2:
        settle(gs, rules, declarer, contract, made, conceded, paying_dealer, ws, rec, row, 2)
    else:
        settle(gs, rules, declarer, contract, made, conceded, paying_dealer, ws, rec, row, 3)


@jit_inline
def settle(gs, rules, declarer, contract, made, conceded, paying_dealer, ws, rec, row, n):
    """``apply_deal`` for ``n`` seats (a constant where it is inlined)."""
    barrel = rules[R.BARREL]
    penalty = rules[R.BARREL_PENALTY]
    sitter = SITTER if n == 4 else -1
    result = ws[W_RESULT, :n]
    new = ws[W_NEW, :n]
    events = ws[W_EVENTS, :n]
    events[:] = 0
    climbers = 0
    reached = 0  # players reaching the target without a barrel
    sat_before = ws[W_SAT_BEFORE, :n]
    for p in range(n):
        old = gs[G_SCORE + p]
        new[p] = old
        sat_before[p] = gs[G_ON_BARREL + p]
        if sat_before[p] and rules[R.BARREL_ACCUMULATE]:
            if p == sitter:  # sitting out: nothing taken, no attempt; the talon's points are not recorded
                if result[p] != 0:
                    events[p] |= EV_DEFENCE_IGNORED
                continue
            # He adds the card points he takes, whatever his role, until he reaches the target;
            # after his attempts he falls from his score rounded down to tens.
            new[p] = old + ws[W_CARD_POINTS, p]
            if new[p] >= rules[R.TARGET]:
                events[p] |= EV_WIN
                gs[G_WINNER] = p
                gs[G_ON_BARREL + p] = 0
                continue
            gs[G_ATTEMPTS + p] += 1
            if gs[G_ATTEMPTS + p] >= rules[R.BARREL_ATTEMPTS]:
                new[p] = new[p] // 10 * 10 - penalty
                events[p] |= EV_FALL_ATTEMPTS | _fall(gs, rules, p, new)
        elif sat_before[p]:
            if p == sitter:  # sitting out is no attempt; the talon's points are not recorded
                if result[p] != 0:
                    events[p] |= EV_DEFENCE_IGNORED
                continue
            if p == declarer and made and contract >= rules[R.BARREL_MIN_CONTRACT]:
                new[p] = old + contract
                events[p] |= EV_WIN
                gs[G_WINNER] = p
                gs[G_ON_BARREL + p] = 0  # off upward: nobody climbing now can knock him off
                continue
            if p == declarer and not made:
                new[p] = old + result[p]
                events[p] |= EV_FALL_CONTRACT | _fall(gs, rules, p, new)
                continue
            if p != declarer and result[p] != 0:
                events[p] |= EV_DEFENCE_IGNORED
            gs[G_ATTEMPTS + p] += 1
            if gs[G_ATTEMPTS + p] >= rules[R.BARREL_ATTEMPTS]:
                new[p] = old - penalty
                events[p] |= EV_FALL_ATTEMPTS | _fall(gs, rules, p, new)
        else:
            new[p] = old + result[p]
            if barrel > 0 and new[p] >= barrel:
                climbers |= 1 << p
            elif barrel == 0 and new[p] >= rules[R.TARGET] and (
                    (p == declarer and made) or not rules[R.WIN_ONLY_AS_DECLARER]):
                reached |= 1 << p
    if reached:
        # Without a barrel the first to reach the target wins; when several reach it in one deal
        # (possible only with win_only_as_declarer off), the highest score, then the declarer,
        # then the seat after him.
        winner = -1
        for k in range(n):
            q = (declarer + k) % n
            if (reached >> q) & 1 and (winner < 0 or new[q] > new[winner]):
                winner = q
        events[winner] |= EV_WIN
        gs[G_WINNER] = winner
    if climbers:
        together = popcount(climbers) > 1 and rules[R.BARREL_SIMULTANEOUS_PENALTY]
        for p in range(n):
            if not (climbers >> p) & 1:
                continue
            if together:
                new[p] = barrel - penalty
                events[p] |= EV_SIMULTANEOUS | _fall(gs, rules, p, new)
            else:
                new[p] = barrel
                gs[G_ON_BARREL + p] = 1
                gs[G_ATTEMPTS + p] = 0
                gs[G_BARREL_ENTRIES + p] += 1
                events[p] |= EV_BARREL_ON
        if not together and rules[R.BARREL_KNOCK_OFF]:
            for q in range(n):
                if sat_before[q] and gs[G_ON_BARREL + q] and not (climbers >> q) & 1:
                    new[q] -= penalty  # from his score after this deal (barrel_accumulate adds points)
                    events[q] |= EV_KNOCKED_OFF | _fall(gs, rules, q, new)
    if paying_dealer >= 0:
        new[paying_dealer] -= REDEAL_LIMIT_PENALTY
        events[paying_dealer] |= EV_REDEAL_PENALTY
        if gs[G_ON_BARREL + paying_dealer]:
            events[paying_dealer] |= _fall(gs, rules, paying_dealer, new)
    for p in range(n):
        if rules[R.BOLT_CONSECUTIVE] and not rec[row, D_BOLT + p] and p != sitter:
            gs[G_BOLTS + p] = 0  # bolts count only in an unbroken run (sitting out breaks none)
        if rec[row, D_BOLT + p]:
            gs[G_BOLTS + p] += rec[row, D_BOLT + p]  # 2 for a doubled bolt (bolt_double_in_dark)
            if gs[G_BOLTS + p] >= 3:
                gs[G_BOLTS + p] = 0
                if rules[R.BOLT_PENALTY] > 0 and not events[p] & EV_WIN:
                    new[p] -= rules[R.BOLT_PENALTY]
                    events[p] |= EV_BOLT_PENALTY
                    gs[G_BOLT_PENALTIES + p] += 1
                    if gs[G_ON_BARREL + p]:
                        events[p] |= _fall(gs, rules, p, new)
        if not events[p] & EV_WIN and (
            (rules[R.DUMP_TRUCK] and new[p] == 555) or (rules[R.DUMP_TRUCK_NEGATIVE] and new[p] == -555)
        ):
            new[p] = 0
            events[p] |= EV_DUMP_TRUCK
            gs[G_DUMP_TRUCKS + p] += 1
        if gs[G_ON_BARREL + p] and not events[p] & EV_BARREL_ON:
            events[p] |= EV_BARREL_STAY
        rec[row, D_CHANGE + p] = new[p] - gs[G_SCORE + p]
        rec[row, D_SCORE + p] = new[p]
        rec[row, D_EVENTS + p] = events[p]
        gs[G_SCORE + p] = new[p]


# ---- four players: the dealer sits out ------------------------------------------------------------
@jit_hot
def sitter_points(talon, rules):
    """players = 4: what the dealer sitting out scores, the talon's card points plus the value of a
    marriage lying in it (with sitout_half_marriage half a marriage's value, rounded down, for a
    lone K or Q), the whole rounded as a defender's points."""
    extra = 0
    for s in range(4):
        k = (talon >> (6 * s + KING)) & 1
        q = (talon >> (6 * s + QUEEN)) & 1
        if k and q:
            extra += rules[R.MARRIAGE_VALUE + s]
        elif (k or q) and rules[R.SITOUT_HALF_MARRIAGE]:
            extra += rules[R.MARRIAGE_VALUE + s] // 2
    return round5(mask_points(talon) + extra)


@jit_hot
def rotate_seats(gs, shift):
    """Turn every per-seat block of the game state from seats to slots: slot ``s`` takes seat
    ``(s + shift) % 4``'s entry. ``rotate_seats(gs, 4 - shift)`` turns it back."""
    for b in range(0, G_SEAT_BLOCKS_END, 4):
        v0 = gs[b + shift % 4]
        v1 = gs[b + (1 + shift) % 4]
        v2 = gs[b + (2 + shift) % 4]
        v3 = gs[b + (3 + shift) % 4]
        gs[b] = v0
        gs[b + 1] = v1
        gs[b + 2] = v2
        gs[b + 3] = v3


@jit_hot
def play_deal4(rng, deal_rng, rules, codes, prm, gs, dealer, ws, rec, row, plays, script, solver):
    """``play_deal`` of a 4-player game: ``codes`` and ``gs`` by seat, ``dealer`` a seat 0..3."""
    talon = deal_cards(deal_rng, ws[W_HANDS, :3], ws[W_DECK])
    return play_dealt4(rng, rules, codes, codes, prm, gs, dealer, ws, talon, rec, row, plays, script, solver)


@jit_hot
def play_dealt4(rng, rules, codes, bid_codes, prm, gs, dealer, ws, talon, rec, row, plays, script, solver):
    """``play_dealt`` of a 4-player game (players = 4): the dealer (a seat 0..3) sits out, the hands
    in the workspace belong to the three others from first hand on, and they play an ordinary
    3-player deal with the dealer's slot (3) scored the talon's points (``sitter_points``). ``codes``,
    ``bid_codes`` and ``gs`` are by seat; the record row is written by seat. Every player shares
    one parameter row (``prm`` rows are equal)."""
    shift = (dealer + 1) % 4  # slot s is seat (s + shift) % 4; slot 3 the dealer
    codes3 = ws[W_CODES, :3]
    bid3 = ws[W_CODES, 3:6]
    for s in range(3):
        codes3[s] = codes[(s + shift) % 4]
        bid3[s] = bid_codes[(s + shift) % 4]
    rotate_seats(gs, shift)
    winner_before = gs[G_WINNER]
    gs[G_WINNER] = -1
    for r in (W_CARD_POINTS, W_MARRIAGE_POINTS, W_MARRIAGES, W_TRICKS):
        ws[r, SITTER] = 0
    ws[W_RESULT, SITTER] = sitter_points(talon, rules)
    rec[row, D_BOLT + SITTER] = 0
    status = play_dealt(rng, rules, codes3, bid3, prm, gs, np.int64(2), ws, talon, rec, row, plays, script, solver)
    # The sitter's columns (apply_deal wrote his change, score and events of a played deal).
    rec[row, D_HAND + SITTER] = 0
    rec[row, D_BID + SITTER] = 0
    rec[row, D_GIFT + SITTER] = -1
    for base in (D_CARD_POINTS, D_MARRIAGE_POINTS, D_MARRIAGES, D_TRICKS, D_BOLT):
        rec[row, base + SITTER] = 0
    if status == 0:
        rec[row, D_RESULT + SITTER] = ws[W_RESULT, SITTER]
    else:
        rec[row, D_RESULT + SITTER] = 0
        rec[row, D_CHANGE + SITTER] = 0
        rec[row, D_EVENTS + SITTER] = 0
        rec[row, D_SCORE + SITTER] = gs[G_SCORE + SITTER]
    # Slots back to seats: the record row, the declarer, the winner and the game state.
    for base in D_SEAT_BLOCKS:
        v0 = rec[row, base]
        v1 = rec[row, base + 1]
        v2 = rec[row, base + 2]
        v3 = rec[row, base + 3]
        rec[row, base + shift % 4] = v0
        rec[row, base + (1 + shift) % 4] = v1
        rec[row, base + (2 + shift) % 4] = v2
        rec[row, base + (3 + shift) % 4] = v3
    rec[row, D_DEALER] = dealer
    if rec[row, D_DECLARER] >= 0:
        rec[row, D_DECLARER] = (rec[row, D_DECLARER] + shift) % 4
    winner = gs[G_WINNER]
    gs[G_WINNER] = (winner + shift) % 4 if winner >= 0 else winner_before
    rotate_seats(gs, 4 - shift)
    return status


# ---- two players: two talons ----------------------------------------------------------------------
@jit_hot
def play_deal2(rng, deal_rng, rules, codes, prm, gs, dealer, ws, rec, row, plays, script, solver):
    """``play_deal`` of a 2-player game."""
    talon, other = deal_cards2(deal_rng, ws[W_HANDS, :2], ws[W_DECK], rules[R.TWO_PLAYER_TALON])
    return play_dealt2(rng, rules, codes, codes, prm, gs, dealer, ws, talon, other, rec, row, plays, script, solver)


@jit_hot
def play_dealt2(rng, rules, codes, bid_codes, prm, gs, dealer, ws, talon, other, rec, row, plays, script, solver):
    """``play_dealt`` of a 2-player game (players = 2): two seats bid for ``talon``; the declarer
    takes it (his choice between the two talons is unseen, and the deal is uniformly random, so
    the first talon is as good as a random one), buries two cards face down in its place, which
    count for him, and with two_player_talon = 3 puts one card into ``other``, the talon nobody
    takes. The tricks follow; ``other`` goes to the winner of the last one."""
    hands = ws[W_HANDS, :2]
    rec[row, D_TALON] = talon
    rec[row, D_OTHER_TALON] = other
    rec[row, D_BURIED] = 0
    rec[row, D_TALON_CARD] = -1
    status, declarer, high, mode, as_it_lies = bid_for_talon(rng, rules, bid_codes, prm, gs, dealer, ws, rec, row,
                                                             plays, script, 2)
    if status != 0:
        return status
    status, as_it_lies, uncontested = at_talon(gs, rules, talon, high, declarer, dealer, 2, as_it_lies, rec, row,
                                               plays)
    if status != 0:
        return status
    hands[declarer] |= talon
    givable = givable_cards(hands[declarer], rules)
    to_talon = rules[R.TWO_PLAYER_TALON] == 3
    b1, b2, t, dd_value = choose_burial(codes[declarer], declarer, hands, givable, to_talon, other, rules, prm, rng,
                                        script, solver)
    if b1 == b2 or not (0 <= b1 < 24 and 0 <= b2 < 24) or not (givable >> b1) & 1 or not (givable >> b2) & 1:
        return ILLEGAL
    buried = (np.int64(1) << b1) | (np.int64(1) << b2)
    given = np.int64(0)
    if to_talon:
        if not 0 <= t < 24 or not ((givable & ~buried) >> t) & 1:
            return ILLEGAL
        given = np.int64(1) << t
    elif t != -1:
        return ILLEGAL
    hands[declarer] &= ~(buried | given)
    rec[row, D_BURIED] = buried
    rec[row, D_TALON_CARD] = t
    if codes[0] == PLAYER_PIMC or codes[1] == PLAYER_PIMC:  # only they read it
        know_cards2(ws[W_KNOWN], declarer, talon_shown_to_defenders(rules, mode, talon, uncontested), buried, given,
                    popcount(other | given))
    return finish_deal(rng, rules, codes, prm, gs, dealer, ws, rec, row, plays, script, solver, 2, declarer, high,
                       mode, as_it_lies, dd_value, mask_points(buried), mask_points(other | given))


@jit_hot
def choose_burial(code, declarer, hands, givable, to_talon, other, rules, prm, rng, script, solver):
    """players = 2: the declarer's two cards to bury and (two_player_talon = 3, else -1) the card
    for the untaken talon, by his player code, and the double-dummy value of the deal for a dd
    declarer (else 0)."""
    if code == PLAYER_DD:
        return best_discard2(hands[declarer], hands[1 - declarer], other, to_talon, givable, rules, solver[0],
                             solver[1], solver[2])
    if code == PLAYER_PIMC:
        b1, b2, t = pimc2_choose_discard(hands[declarer], to_talon, givable, np.int64(prm[declarer, H_PIMC_WORLDS]),
                                         rules, rng, solver[0], solver[1], solver[2], solver[3])
        return b1, b2, t, 0
    b1, b2, t = choose_discard2(code, declarer, hands[declarer], givable, to_talon, rules, prm, rng, script)
    return b1, b2, t, 0


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


# ---- chunk kernels ----------------------------------------------------------------------------
@jit_inline
def play_any_deal(rng, deal_rng, rules, codes, prm, gs, dealer, ws, rec, row, plays, script, solver):
    """``play_deal`` of the game's player count (rules.players): 3, 4 or 2."""
    if rules[R.PLAYERS] == 4:
        return play_deal4(rng, deal_rng, rules, codes, prm, gs, dealer, ws, rec, row, plays, script, solver)
    if rules[R.PLAYERS] == 2:
        return play_deal2(rng, deal_rng, rules, codes, prm, gs, dealer, ws, rec, row, plays, script, solver)
    return play_deal(rng, deal_rng, rules, codes, prm, gs, dealer, ws, rec, row, plays, script, solver)


@jit_hot
def run_deals(rng, deal_rng, rules, codes, prm, first_id, n, rec, plays, gs, ws, script, solver):
    """``n`` independent deals, each from a zero score with a random dealer. ``gs`` and ``ws``
    are scratch (``new_game_state``, ``new_workspace``). Returns the number of rows written
    (``n``), or ILLEGAL."""
    n_players = rules[R.PLAYERS]
    for i in range(n):
        gs[:] = 0
        dealer = below(deal_rng, n_players)
        rec[i, D_GAME] = first_id + i
        rec[i, D_DEAL] = 0
        if play_any_deal(rng, deal_rng, rules, codes, prm, gs, dealer, ws, rec, i, plays, script,
                         solver) == ILLEGAL:
            return ILLEGAL
    return n


@jit_hot
def run_games(rng, deal_rng, rules, codes, prm, gs, first_id, n_games, max_deals, rec, plays, grec, done, ws, script,
              solver):
    """Play whole games until ``n_games`` are finished or the deal buffer is full. The game in
    progress lives in ``gs``, so a call with fresh buffers resumes it. ``done[0]`` counts finished
    games (also the row of ``grec`` written next); ``ws`` is scratch. Returns deal rows written,
    or ILLEGAL."""
    row = np.int64(0)  # not a literal 0, which would compile every deal kernel once more
    capacity = rec.shape[0]
    n_players = rules[R.PLAYERS]
    while done[0] < n_games and row < capacity:
        if gs[G_DEALS] == 0:
            gs[:] = 0
            gs[G_WINNER] = -1
            gs[G_FIRST_DEALER] = below(deal_rng, n_players)
            gs[G_DEALER] = gs[G_FIRST_DEALER]
            if rules[R.GOLDEN_ROUND]:
                gs[G_GOLDEN_LEFT] = n_players  # one deal per player
                gs[G_GOLDEN_ROUNDS] = 1
        game_id = first_id + done[0]
        rec[row, D_GAME] = game_id
        rec[row, D_DEAL] = gs[G_DEALS]
        status = play_any_deal(rng, deal_rng, rules, codes, prm, gs, gs[G_DEALER], ws, rec, row, plays, script,
                               solver)
        if status == ILLEGAL:
            return ILLEGAL
        row += 1
        gs[G_DEALS] += 1
        if status != REDEAL:
            gs[G_DEALER] = (gs[G_DEALER] + 1) % n_players
        if gs[G_WINNER] >= 0 or gs[G_DEALS] >= max_deals:
            g = done[0]
            grec[g, 0] = game_id
            grec[g, 1] = gs[G_DEALS]
            grec[g, 2] = gs[G_WINNER]
            grec[g, 3] = gs[G_FIRST_DEALER]
            for k in range(G_ON_BARREL):  # the per-seat counters, laid out as the record's
                grec[g, GAME_STATE_TO_RECORD + k] = gs[k]
            done[0] += 1
            gs[G_DEALS] = 0
    return row


@jit_hot
def run_bare_playouts(rng, n, plays, ws):
    """Benchmark baseline: deal, then eight tricks of uniformly random legal cards (no bidding,
    talon, marriages or scoring). Returns the total card points taken by seat 0."""
    hands = ws[W_HANDS, :3]
    total = 0
    for i in range(n):
        talon = deal_cards(rng, hands, ws[W_DECK])
        hands[0] |= talon & -talon  # 8 cards each: hand the talon out like a discard would
        rest = talon & (talon - 1)
        hands[1] |= rest & -rest
        hands[2] |= rest & (rest - 1)
        leader = 0
        for t in range(8):
            win_card = -1
            win_seat = 0
            points = 0
            for k in range(3):
                p = (leader + k) % 3
                if k == 0:
                    legal = hands[p]
                else:
                    legal = legal_follows(hands[p], win_card // 6, win_card, -1, False)
                c = nth_card(legal, below(rng, popcount(legal)))
                if k == 0 or beats(c, win_card, -1):
                    win_card = c
                    win_seat = p
                hands[p] &= ~(np.int64(1) << c)
                points += CARD_POINTS[c]
                plays[i % plays.shape[0], 3 * t + k] = c
            if win_seat == 0:
                total += points
            leader = win_seat
    return total
