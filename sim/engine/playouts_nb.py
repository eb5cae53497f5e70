"""Compiled kernels of the bid advisor's playouts, whose Python face is ``sim.engine.playouts``:
sampling the unseen cards, the double-dummy success level of a sample, heuristic and PIMC play of a
fixed deal from the talon on, and the auction lines (pass, or "bid up to b": every seat's result
of the whole deal).

Seats in these kernels: the advisor's player is seat 0 (the declarer-to-be), seat 1 plays after
him (his left), seat 2 after seat 1. Every kernel takes its buffers from the caller.
"""

import numpy as np

from sim.engine.auction_nb import no_auction_record
from sim.engine.deals_nb import play_hands3
from sim.engine.enums import ILLEGAL
from sim.engine.schema import (
    D_CHANGE,
    D_CONCEDED,
    D_CONTRACT,
    D_DECLARER,
    D_MADE,
    D_RESULT,
    D_SCORE,
    D_WINNING_BID,
)
from sim.engine.tricks_nb import play_tricks
from sim.engine.workspace import W_AUCTION, W_CARD_POINTS, W_HANDS, W_KNOWN, W_LAST_BID, W_MARRIAGE_POINTS
from sim.game.auction_layout import AUCTION_ROWS
from sim.game.bits_nb import lowest_index, popcount
from sim.game.play_nb import givable_cards, know_cards
from sim.game.rng_nb import below, next_u64
from sim.game.state_layout import N_GAME_STATE
from sim.numba_config import jit_hot
from sim.players.layout import H_BID_LIMIT
from sim.players.seat_nb import choose_discard
from sim.solver.core_nb import DISCARD_ROW, MAX_MOVES, next_stamp
from sim.solver.discard_nb import best_discard, list_discards
from sim.solver.search3_nb import search, set_position, upper_bound


# ---- sampling the unseen cards --------------------------------------------------------------
@jit_hot
def sample_deals(rng, free, known_talon, known1, known2, n, out, deck):
    """``n`` deals of the unseen cards into ``out[i]`` = (talon, seat 1's 7 cards, seat 2's 7):
    the known cards where they are known to lie, the ``free`` cards shuffled into the remaining
    places (talon first, then seat 1, then seat 2). ``deck``: int64 scratch of 24."""
    m = free
    k = 0
    while m:
        deck[k] = lowest_index(m)
        m &= m - 1
        k += 1
    need_t = 3 - popcount(known_talon)
    need_1 = 7 - popcount(known1)
    for i in range(n):
        # Partial Fisher-Yates: positions 0..need_t-1 to the talon, then seat 1, the rest seat 2.
        for j in range(k - 1):
            r = j + below(rng, k - j)
            deck[j], deck[r] = deck[r], deck[j]
        t = known_talon
        a = known1
        b = known2
        for j in range(k):
            bit = np.int64(1) << deck[j]
            if j < need_t:
                t |= bit
            elif j < need_t + need_1:
                a |= bit
            else:
                b |= bit
        out[i, 0] = t
        out[i, 1] = a
        out[i, 2] = b


# ---- double dummy: the success level of one sample -----------------------------------------
@jit_hot
def _level_floor(x, lo, step):
    return lo + ((x - lo) // step) * step


@jit_hot
def dd_level(hand10, opp1, opp2, rules, lo, hi, step, st, work, tt):
    """The highest contract level g of lo, lo + step, ..., hi such that some discard (one card to
    each opponent) gives a double-dummy value >= g (declarer on lead, seat 1 second); lo - step if
    none does. Equivalent to thresholding ``best_discard``'s value at every level, but only
    zero-window tests at levels are searched: each discard (in ``list_discards`` order) is first cut
    by the quick upper bound or tested at the next level above the best so far, and a discard that
    reaches it is raised by bisection over the levels."""
    next_stamp(st, tt)
    n = list_discards(hand10, rules, work)
    best = lo - step
    for i in range(n):
        target = best + step
        if target > hi:
            break
        code = work[DISCARD_ROW + i // MAX_MOVES, i % MAX_MOVES]
        a = code // 24
        b = code % 24
        set_position(st, hand10 & ~(np.int64(1) << a) & ~(np.int64(1) << b), opp1 | (np.int64(1) << a),
                     opp2 | (np.int64(1) << b), 0, -1, -1, 0, 0)
        upper = upper_bound(st, rules)
        if upper < target:
            continue
        r = search(st, rules, tt, work, target - 1, target)
        if r < target:
            continue
        # value >= r >= target; bisect over the levels left below min(upper, hi).
        known = _level_floor(min(r, hi), lo, step)
        top = min(upper, hi)
        while known + step <= top:
            top_level = _level_floor(top, lo, step)
            mid = known + ((top_level - known) // step + 1) // 2 * step
            r = search(st, rules, tt, work, mid - 1, mid)
            if r >= mid:
                known = _level_floor(min(r, hi), lo, step)
            else:
                top = r
        best = known
    return best


@jit_hot
def dd_levels(samples, hand7, rules, lo, hi, step, out, st, work, tt):
    """``dd_level`` of each sample (rows of ``sample_deals``: talon, seat 1, seat 2) into ``out``."""
    for i in range(samples.shape[0]):
        out[i] = dd_level(hand7 | samples[i, 0], samples[i, 1], samples[i, 2], rules, lo, hi, step, st, work, tt)


@jit_hot
def dd_values(samples, hand7, rules, out, st, work, tt):
    """Exact best-discard values (``discard_nb.best_discard``) of each sample into ``out``."""
    for i in range(samples.shape[0]):
        out[i] = best_discard(hand7 | samples[i, 0], samples[i, 1], samples[i, 2], rules, st, work, tt)[2]


# ---- playing a fixed deal from the talon on --------------------------------------------------
@jit_hot
def play_from_talon(codes, hand10, opp1, opp2, talon, rules, prm, rng, ws, plays, script, solver, contract=-1):
    """The declarer (seat 0) holds ``hand10`` (his 7 cards + the talon ``talon``, shown to all);
    the seats play by ``codes`` through the engine: the declarer's discard (one card to each
    opponent, face up) and eight tricks with him on lead, playing ``contract`` (his bid, the only
    one made; -1: none). The dd, pimc and heuristic players maximise (the declarer) or minimise
    (defenders) his points whatever the contract, so one play with none answers every contract;
    the learned player plays the contract it is given. Returns (the declarer's points: card points
    + marriages declared, burning applied; gift to seat 1; gift to seat 2)."""
    hands = ws[W_HANDS, :3]
    hands[0] = hand10
    hands[1] = opp1
    hands[2] = opp2
    last_bid = ws[W_LAST_BID]
    last_bid[:] = 0
    if contract >= 0:
        last_bid[0] = contract
    log = ws[W_AUCTION:W_AUCTION + AUCTION_ROWS]
    no_auction_record(log)
    g1, g2, _ = choose_discard(codes[0], 0, hands, givable_cards(hand10, rules), np.int64(contract), last_bid, rules,
                               prm, rng, script, solver, log)
    hands[0] &= ~((np.int64(1) << g1) | (np.int64(1) << g2))
    hands[1] |= np.int64(1) << g1
    hands[2] |= np.int64(1) << g2
    know_cards(ws[W_KNOWN], 0, talon, g1, g2, True)
    play_tricks(rng, rules, codes, prm, ws, 0, np.int64(contract), 0, plays, script, solver, 3, 0)
    return ws[W_CARD_POINTS, 0] + ws[W_MARRIAGE_POINTS, 0], g1, g2


@jit_hot
def play_samples(codes, samples, hand7, rules, prm, rng, out, ws, plays, script, solver, contract=-1):
    """``play_from_talon`` of each sample, playing ``contract``; the declarer's points into ``out``."""
    for i in range(samples.shape[0]):
        out[i] = play_from_talon(codes, hand7 | samples[i, 0], samples[i, 1], samples[i, 2], samples[i, 0], rules,
                                 prm, rng, ws, plays, script, solver, contract)[0]


# ---- auction lines: seat 0 bids up to a limit, the whole deal is played -----------------------
# The columns of a line's row (``sim.engine.playouts.LINE_COLUMNS`` names them): each seat's raw
# result, score change and score after the deal (a thrown-in deal: 0, 0 and the scores before), then
# the declarer (-1 thrown in, LINE_ILLEGAL an illegal action), the winning bid, the final contract,
# made and conceded, as the engine records them (``sim.engine.schema``).
LN_RESULT = 0
LN_CHANGE = 3
LN_SCORE = 6
LN_DECLARER = 9
LN_WINNING_BID = 10
LN_CONTRACT = 11
LN_MADE = 12
LN_CONCEDED = 13
N_LINE_COLUMNS = 14
LINE_ILLEGAL = -9


@jit_hot
def line_samples(samples, hands7, limits, dealer, rules, codes, prm, gs, rng_start, rng, out, ws, rec, plays, script,
                 solver):
    """For each sample i and each limit k: one deal through the engine in which seat 0 holds
    ``hands7[i]`` and bids on the line ``limits[k]`` (``H_BID_LIMIT``: raise by the least step up to
    it; -1 pass at every turn), the other seats bid and everybody plays (talon, final contract,
    concession, gifts, cards) by ``codes``; the row into ``out[i, k]``. ``gs`` holds the score
    situation, each deal settled on a copy in ``gs[N_GAME_STATE:]``. Every limit of a sample
    starts from the same generator state (``rng_start``, advanced once per sample; ``rng`` is the
    scratch state the deals draw from), so the lines of a sample differ by seat 0's bidding only.

    A "bid up to b" line that follows a lower one in ``limits`` plays the deal exactly as that one
    when its auction never offered seat 0 a raise from above the lower limit up to b: seat 0 passed
    at a raise above b (``choose_bid`` notes it), or never passed. Its row is then copied, not
    played again: the same row, bit for bit, since the deal draws the same generator states."""
    hands = ws[W_HANDS, :3]
    state = gs[N_GAME_STATE:]
    saved = prm[0, H_BID_LIMIT]
    for i in range(samples.shape[0]):
        prev = -1  # the last "bid up to" line played for this sample, and the raise its seat 0 passed at
        passed_at = 0.0
        for k in range(limits.shape[0]):
            row = out[i, k]
            if limits[k] > 0.0 and prev >= 0 and limits[prev] < limits[k] < passed_at:
                for c in range(row.shape[0]):
                    row[c] = out[i, prev, c]
                continue
            hands[0] = hands7[i]
            hands[1] = samples[i, 1]
            hands[2] = samples[i, 2]
            for j in range(N_GAME_STATE):
                state[j] = gs[j]
            for j in range(rng.shape[0]):
                rng[j] = rng_start[j]
            prm[0, H_BID_LIMIT] = limits[k]
            status = play_hands3(rng, rules, codes, codes, prm, state, dealer, ws, samples[i, 0], rec, 0, plays,
                                 script, solver)
            if status == ILLEGAL:  # a bug of ours: the caller refuses the whole answer
                row[:] = 0
                row[LN_DECLARER] = LINE_ILLEGAL
                prev = -1
                continue
            if limits[k] > 0.0:
                prev = k
                after = prm[0, H_BID_LIMIT]
                passed_at = -after if after < 0.0 else np.inf
            for p in range(3):
                row[LN_RESULT + p] = rec[0, D_RESULT + p]
                row[LN_CHANGE + p] = rec[0, D_CHANGE + p]
                row[LN_SCORE + p] = rec[0, D_SCORE + p]
            row[LN_DECLARER] = rec[0, D_DECLARER]
            row[LN_WINNING_BID] = rec[0, D_WINNING_BID]
            row[LN_CONTRACT] = rec[0, D_CONTRACT]
            row[LN_MADE] = rec[0, D_MADE]
            row[LN_CONCEDED] = rec[0, D_CONCEDED]
        next_u64(rng_start)  # the next sample's lines start from another state
    prm[0, H_BID_LIMIT] = saved
