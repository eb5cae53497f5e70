"""What the double-dummy searches of three seats (``search3_nb``) and two (``search2_nb``) share:
the search state, the move rows, the transposition table, the moves' ordering scores, leading a
card, and saving and restoring a node. Semantics in docs/solver.md.

The state is one int64 array, changed in place and restored on the way back; its first three
entries are the hands (the two-seat search keeps its last trick's bonus in the third). The
transposition table holds lower and upper bounds at trick starts, keyed by what each search's
``tt_keys`` leaves in (``search3_nb`` and ``search2_nb`` say what they leave out). A move is a card
index, plus ``DECLARE_FLAG`` when a lead declares its marriage; ``work`` holds one row of moves
and their ordering scores per ply, then the rows of the discards (``discard_nb``).

All kernels take arrays and scalars; buffers come from the caller so that search allocates nothing.
Nothing depends on timing or threads: the same inputs always give the same answers and node counts.
"""

import numpy as np

from sim.game import rules_layout as R
from sim.game.bits_nb import popcount
from sim.game.cards import ACES_MASK, CARD_POINTS, HALF_MARRIAGE_MASK
from sim.game.play_nb import declaration, marriage_total
from sim.numba_config import jit, jit_hot, jit_inline

# ---- the search state: one int64 array, changed in place and restored on the way back --------
ST_HAND = 0  # three entries: the hands of seats 0 (declarer), 1, 2
ST_LEADER = 3
ST_TRUMP = 4  # -1 = no trump
ST_OWNER = 5  # seat that declared the trump, -1 = none of them
ST_WON = 6  # bit s: seat s has won a trick in this deal
ST_UNSECURED = 7  # declarer's marriage points that score only once he wins a trick (burning rule)
ST_K = 8  # cards on the table in the current trick
ST_WIN_CARD = 9
ST_WIN_SEAT = 10
ST_LED = 11  # suit led
ST_TRICK_POINTS = 12  # points on the table
ST_REST_POINTS = 13  # points still in the hands
# marriage_trump_from = next_trick: the trump the current trick's lead declared, which becomes the
# trump (owned by the trick's leader) when the trick is over; -1 = none (always at a trick start).
ST_PENDING = 14
ST_PLY = 15  # depth below the root, the row of the move buffer
ST_NODES = 16
ST_STAMP = 17  # transposition-table generation of the current solve
N_ST = 18

# Move codes: card index, plus DECLARE_FLAG when a lead declares its marriage.
DECLARE_FLAG = 32
# A 10-card hand of the two-player game (sim/solver/search2_nb.py) can hold 10 cards that declare (four
# aces and three marriages): 10 cards + 10 declaration alternatives under marriage_optional.
MAX_MOVES = 20
SEARCH_ROWS = 25  # one row of moves per ply of a whole deal
DISCARD_ROW = SEARCH_ROWS  # then rows holding the discards of best_discard, MAX_MOVES a row
N_DISCARDS = 220  # 90 with three players; 220 three-card sets of 12 cards with two (search2_nb)
WORK_ROWS = DISCARD_ROW + (N_DISCARDS + MAX_MOVES - 1) // MAX_MOVES

# ---- transposition table: rows of (key_a, key_b, data) -------------------------------------------
# data: lower (12 bits) | upper (12 bits) | best lead move + 1 (7 bits) | cards per hand (4) | stamp
TT_VALUE_BITS = 12
TT_NO_UPPER = (1 << TT_VALUE_BITS) - 1
TT_STAMP_SHIFT = 35
TT_STAMP_LIMIT = 1 << 27
TT_BUCKET = 2  # slots probed per key: 2 searches about as few nodes as 4, in 3-5% less time

INFINITE = 1 << 20


def new_work():
    """Buffers one thread needs for searching: the state, the move lists, the table."""
    return np.zeros(N_ST, dtype=np.int64), np.zeros((WORK_ROWS, 2 * MAX_MOVES), dtype=np.int64)


@jit
def new_table(log2_rows):
    return np.zeros((np.int64(1) << log2_rows, 3), dtype=np.int64)


@jit_hot
def next_stamp(st, tt):
    """Start a new solve: entries of earlier solves become invisible (cleared on wrap-around), so
    results and node counts never depend on what the table held before."""
    stamp = st[ST_STAMP] + 1
    if stamp >= TT_STAMP_LIMIT:
        tt[:, :] = 0
        stamp = 1
    st[ST_STAMP] = stamp


# ---- small helpers ------------------------------------------------------------------------------
@jit_hot
def side_of(seat):
    """1 for the declarer, 2 for a defender."""
    return 1 if seat == 0 else 2


@jit_hot
def combination_bound(hand, rules):
    """Most marriage points ``hand`` can still declare (K+Q, Q+J halves, the four aces)."""
    total = marriage_total(hand, rules)
    if rules[R.HALF_MARRIAGE]:
        for s in range(4):
            if hand & HALF_MARRIAGE_MASK[s] == HALF_MARRIAGE_MASK[s]:
                total += rules[R.MARRIAGE_VALUE + s] // 2
    if rules[R.ACE_MARRIAGE] and hand & ACES_MASK == ACES_MASK:
        total += rules[R.ACE_MARRIAGE]
    return total


@jit_hot
def unsecured_points(st):
    return 0 if st[ST_WON] & 1 else st[ST_UNSECURED]


@jit_hot
def may_declare(won, seat, hand, rules):
    """Whether ``seat`` on lead with ``hand`` may declare: he has won a trick (bit of ``won``) or
    marriage_first_lead, and holds at least marriage_min_cards cards (the led card included)."""
    return ((won >> seat) & 1 != 0 or rules[R.MARRIAGE_FIRST_LEAD] != 0) and popcount(hand) >= rules[
        R.MARRIAGE_MIN_CARDS]


# ---- transposition table: finding and storing an entry --------------------------------------------
@jit_hot
def _tt_index(tt, ka, kb):
    h = ka * 0x9E3779B1 + kb * 0x85EBCA77
    h ^= h >> 29
    h ^= h >> 13
    return h & (tt.shape[0] - 1)


@jit_hot
def tt_find(tt, stamp, ka, kb):
    """Row of the entry for these keys, or -1."""
    size = tt.shape[0]
    i = _tt_index(tt, ka, kb)
    for _ in range(TT_BUCKET):
        if tt[i, 0] == ka and tt[i, 1] == kb and (tt[i, 2] >> TT_STAMP_SHIFT) == stamp:
            return i
        i = (i + 1) & (size - 1)
    return -1


@jit_hot
def tt_store(tt, stamp, ka, kb, lower, upper, move, n_cards):
    """Merge bounds into the entry for these keys; a new entry replaces a stale one, else the one
    with the fewest cards (the cheapest to recompute)."""
    size = tt.shape[0]
    i = _tt_index(tt, ka, kb)
    victim = -1
    victim_cards = 99
    for _ in range(TT_BUCKET):
        data = tt[i, 2]
        if (data >> TT_STAMP_SHIFT) != stamp:
            if victim_cards > -1:
                victim = i
                victim_cards = -1
        elif tt[i, 0] == ka and tt[i, 1] == kb:
            lower = max(lower, data & TT_NO_UPPER)
            upper = min(upper, (data >> TT_VALUE_BITS) & TT_NO_UPPER)
            if move < 0:
                move = ((data >> 24) & 0x7F) - 1
            victim = i
            break
        else:
            cards = (data >> 31) & 0xF
            if cards < victim_cards:
                victim = i
                victim_cards = cards
        i = (i + 1) & (size - 1)
    tt[victim, 0] = ka
    tt[victim, 1] = kb
    tt[victim, 2] = (lower | (min(upper, TT_NO_UPPER) << TT_VALUE_BITS) | ((move + 1) << 24) | (n_cards << 31)
                     | (stamp << TT_STAMP_SHIFT))


# ---- move lists: one row of ``work`` per ply, codes then ordering scores --------------------------
@jit_hot
def add_move(work, ply, n, move, score):
    work[ply, n] = move
    work[ply, MAX_MOVES + n] = score
    return n + 1


@jit_hot
def move_score(st, seat, card, side, declared_value):
    """Ordering heuristic: sure winners for the mover's side with most points first, then
    undecided tricks, then sure losers shedding fewest points; declarations by value."""
    points = CARD_POINTS[card]
    if side == side_of(seat):
        score = 2000 + st[ST_TRICK_POINTS] + points
    elif side == 0:
        score = 1000 + 4 * (card % 6) - points
    else:
        score = 100 - points
    if declared_value:
        score += 2 * declared_value if seat == 0 else declared_value
    return score


@jit_hot
def sort_moves(work, ply, n, first):
    """Insertion sort by score, highest first; ``first`` (a move code or -1) goes to the front."""
    for i in range(n):
        if work[ply, i] == first:
            work[ply, MAX_MOVES + i] = INFINITE
    for i in range(1, n):
        mv = work[ply, i]
        sc = work[ply, MAX_MOVES + i]
        j = i - 1
        while j >= 0 and work[ply, MAX_MOVES + j] < sc:
            work[ply, j + 1] = work[ply, j]
            work[ply, MAX_MOVES + j + 1] = work[ply, MAX_MOVES + j]
            j -= 1
        work[ply, j + 1] = mv
        work[ply, MAX_MOVES + j + 1] = sc


# ---- leading a card (followers play by each search's own rule) -------------------------------------
@jit_hot
def play_lead(st, rules, move):
    """Lead ``move`` (declaring when flagged); return the declarer's points it scores at once.
    A declared trump is in force at once, or under marriage_trump_from = next_trick pending until
    the trick is over (``play_follow``). The caller saves trump, owner, pending trump and
    unsecured points to restore them."""
    c = move & 31
    seat = st[ST_LEADER]
    gain = 0
    if move & DECLARE_FLAG:
        value, new_trump, _ = declaration(st[seat], c, rules)
        if new_trump >= 0:
            if rules[R.MARRIAGE_TRUMP_FROM]:
                st[ST_PENDING] = new_trump
            else:
                st[ST_TRUMP] = new_trump
                st[ST_OWNER] = seat
        if seat == 0:
            if rules[R.MARRIAGE_BURNS_WITHOUT_TRICK] and not st[ST_WON] & 1:
                st[ST_UNSECURED] += value
            else:
                gain = value
    points = CARD_POINTS[c]
    st[seat] ^= np.int64(1) << c
    st[ST_REST_POINTS] -= points
    st[ST_K] = 1
    st[ST_WIN_CARD] = c
    st[ST_WIN_SEAT] = seat
    st[ST_LED] = c // 6
    st[ST_TRICK_POINTS] = points
    return gain


# ---- a node: its table lookup, its state saved and restored, a child's value folded in ----------
@jit_inline
def tt_probe(tt, stamp, ka, kb, alpha, beta):
    """Look a trick start up in the table: (a stored bound settles the search, that bound, the
    stored best lead or -1)."""
    row = tt_find(tt, stamp, ka, kb)
    if row < 0:
        return False, 0, -1
    data = tt[row, 2]
    lower = data & TT_NO_UPPER
    if lower >= beta:
        return True, lower, -1
    upper = (data >> TT_VALUE_BITS) & TT_NO_UPPER
    if upper <= alpha:
        return True, upper, -1
    return False, 0, ((data >> 24) & 0x7F) - 1


@jit_inline
def node_state(st):
    """A search node's trick and rule state, which ``restore_node`` puts back after each child
    (inlined: the values stay in registers)."""
    return (st[ST_LEADER], st[ST_TRUMP], st[ST_OWNER], st[ST_WON], st[ST_UNSECURED], st[ST_WIN_CARD],
            st[ST_WIN_SEAT], st[ST_LED], st[ST_TRICK_POINTS], st[ST_REST_POINTS], st[ST_PENDING])


@jit_inline
def restore_node(st, seat, hand, k, node):
    st[seat] = hand
    st[ST_K] = k
    st[ST_LEADER] = node[0]
    st[ST_TRUMP] = node[1]
    st[ST_OWNER] = node[2]
    st[ST_WON] = node[3]
    st[ST_UNSECURED] = node[4]
    st[ST_WIN_CARD] = node[5]
    st[ST_WIN_SEAT] = node[6]
    st[ST_LED] = node[7]
    st[ST_TRICK_POINTS] = node[8]
    st[ST_REST_POINTS] = node[9]
    st[ST_PENDING] = node[10]


@jit_inline
def improve(v, move, best, best_move, a, b, maximise):
    """Fold a child's value ``v`` into its node: (best value, best move, alpha, beta, cut off)."""
    if maximise:
        if v > best:
            return v, move, max(a, v), b, v >= b
    elif v < best:
        return v, move, a, min(b, v), v <= a
    return best, best_move, a, b, False


# ---- what a batch of positions asks (``drivers_nb.solve_positions``): exact values or thresholds
EXACT, THRESHOLD = 0, 1


@jit_inline
def save_position(st):
    """The state fields a move changes (0..ST_PLY-1), for ``restore_position``."""
    return (st[0], st[1], st[2], st[ST_LEADER], st[ST_TRUMP], st[ST_OWNER], st[ST_WON], st[ST_UNSECURED],
            st[ST_K], st[ST_WIN_CARD], st[ST_WIN_SEAT], st[ST_LED], st[ST_TRICK_POINTS], st[ST_REST_POINTS],
            st[ST_PENDING])


@jit_inline
def restore_position(st, saved, ply):
    for j in range(ST_PLY):  # state fields 0..ST_PLY-1 in order
        st[j] = saved[j]
    st[ST_PLY] = ply

