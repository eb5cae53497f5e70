"""Settlement: a deal's raw results turned into score changes under bolts, the barrel, the dump
truck, the redeal penalty and the golden round (the order is in docs/RULES.md), the game state
updated; and the 4-player sitter's points and the seat/slot rotation.
"""

from sim.engine.enums import GOLDEN_ROUND_REPLAYS, REDEAL_LIMIT_PENALTY, SITTER
from sim.engine.schema import (
    D_BOLT,
    D_CHANGE,
    D_EVENTS,
    D_SCORE,
    D_TRICKS,
    EV_BARREL_OFF,
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
    EV_NO_WIN_PENALTY,
    EV_REDEAL_PENALTY,
    EV_SIMULTANEOUS,
    EV_WIN,
)
from sim.engine.workspace import (
    W_CARD_POINTS,
    W_EVENTS,
    W_MARRIAGE_POINTS,
    W_NEW,
    W_RESULT,
    W_SAT_BEFORE,
    W_SEATS,
)
from sim.game import rules_layout as R
from sim.game.bits_nb import popcount
from sim.game.cards import KING, QUEEN
from sim.game.play_nb import declarer_gain, mask_points, round_points
from sim.game.state_layout import (
    G_ATTEMPTS,
    G_BARREL_ENTRIES,
    G_BARREL_FALLS,
    G_BOLT_PENALTIES,
    G_BOLTS,
    G_DUMP_TRUCKS,
    G_FALLS,
    G_GOLDEN_LEFT,
    G_GOLDEN_MADE,
    G_GOLDEN_ROUNDS,
    G_NO_WINS,
    G_ON_BARREL,
    G_QUIET,
    G_SCORE,
    G_SEAT_BLOCKS_END,
    G_WINNER,
    G_ZEROED,
)
from sim.numba_config import jit_hot, jit_inline


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


@jit_inline
def keeps_bolt_run(rules, seat, declarer, conceded, tricks, points):
    """bolt_exempt_keeps_run: whether ``seat`` is the declarer of a played deal whom only
    bolt_own_game_exempt spared a bolt (no trick; no point under bolt_on = zero_points), so that his
    consecutive run stays as it is instead of restarting (docs/peer-rules.md §6: leadage, mekedron)."""
    if not rules[R.BOLT_EXEMPT_KEEPS_RUN] or seat != declarer or conceded:
        return False
    if rules[R.BOLT_ON] == R.BOLT_ON_ZERO_POINTS:
        return points == 0
    return tricks == 0


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


@jit_inline
def seat_number(ws, slot, n):
    """The seat (0..3) of a slot of a 4-player deal (``W_SEATS``); with 2 or 3 players slots are seats."""
    return ws[W_SEATS, slot] if n == 4 else slot


@jit_hot
def _fall(gs, rules, p, new_scores, attempts):
    """A fall from the barrel (the penalty is already in ``new_scores``); ``attempts``: the sitter
    ran out of his attempts. It counts toward ``barrel_falls_to_zero`` (every fall; under
    barrel_falls_counted = attempts_only only one from running out of attempts), whose n-th counted
    fall sets the score to zero and starts the count again."""
    gs[G_ON_BARREL + p] = 0
    gs[G_ATTEMPTS + p] = 0
    gs[G_BARREL_FALLS + p] += 1
    if not attempts and rules[R.BARREL_FALLS_ATTEMPTS_ONLY]:
        return 0
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
    dealer sitting out (see sim.game.state_layout)."""
    if rules[R.PLAYERS] == 2:
        apply_deal2(gs, rules, declarer, contract, made, conceded, paying_dealer, ws, rec, row)
    else:
        apply_deal34(gs, rules, declarer, contract, made, conceded, paying_dealer, ws, rec, row)


@jit_hot
def apply_deal2(gs, rules, declarer, contract, made, conceded, paying_dealer, ws, rec, row):
    """``apply_deal`` of a 2-player deal: the deal of two seats calls it alone, and compiles no
    settlement of 3 or 4 seats (docs/compiling.md)."""
    settle(gs, rules, declarer, contract, made, conceded, paying_dealer, ws, rec, row, 2)


@jit_hot
def apply_deal34(gs, rules, declarer, contract, made, conceded, paying_dealer, ws, rec, row):
    """``apply_deal`` of a deal of three seats: of the 3-player game, or of the 4-player game's three
    slots (players = 4, the dealer sitting out), which one deal kernel plays."""
    if rules[R.PLAYERS] == 4:
        settle(gs, rules, declarer, contract, made, conceded, paying_dealer, ws, rec, row, 4)
    else:
        settle(gs, rules, declarer, contract, made, conceded, paying_dealer, ws, rec, row, 3)


@jit_inline
def settle(gs, rules, declarer, contract, made, conceded, paying_dealer, ws, rec, row, n):
    """``apply_deal`` for ``n`` seats (a constant where it is inlined)."""
    barrel = rules[R.BARREL]
    penalty = rules[R.BARREL_PENALTY]
    target = rules[R.TARGET]
    ranged = barrel > 0 and not rules[R.BARREL_FREEZE]  # the range barrel (barrel_freeze = false)
    capped = rules[R.WIN_SCORE_CAPPED]
    sitter = SITTER if n == 4 else -1
    result = ws[W_RESULT, :n]
    new = ws[W_NEW, :n]
    events = ws[W_EVENTS, :n]
    events[:] = 0
    climbers = 0
    wins = 0  # players reaching the target: without a barrel; with one, sitters winning and jumpers (barrel_jump_wins)
    accumulated = False  # an accumulating sitter reached the target (he wins before any jumper)
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
            if new[p] >= target:
                if capped:
                    new[p] = target
                events[p] |= EV_WIN
                gs[G_WINNER] = p
                gs[G_ON_BARREL + p] = 0
                accumulated = True
                continue
            gs[G_ATTEMPTS + p] += 1
            if gs[G_ATTEMPTS + p] >= rules[R.BARREL_ATTEMPTS]:
                new[p] = new[p] // 10 * 10 - penalty
                events[p] |= EV_FALL_ATTEMPTS | _fall(gs, rules, p, new, True)
        elif sat_before[p]:
            if p == sitter:  # sitting out is no attempt; the talon's points are not recorded
                if result[p] != 0:
                    events[p] |= EV_DEFENCE_IGNORED
                continue
            if ranged:
                # The range barrel: his results as declarer count (not a failed one with barrel_failed_contract
                # = stays), as a defender not (unless, with barrel_defence_wins, they reach the target).
                if p == declarer:
                    if made or not rules[R.BARREL_FAILED_STAYS]:
                        new[p] = old + result[p]
                elif rules[R.BARREL_DEFENCE_WINS] and old + result[p] >= target:
                    new[p] = old + result[p]
                elif result[p] != 0:
                    events[p] |= EV_DEFENCE_IGNORED
                if new[p] >= target:
                    if capped:
                        new[p] = target
                    wins |= 1 << p
                    gs[G_ON_BARREL + p] = 0
                    continue
                # Every deal on it is an attempt; after the last, still in the range, he pays (a fall). Below
                # the barrel he leaves it (at the end of the settlement, after the penalties).
                gs[G_ATTEMPTS + p] += 1
                limit = rules[R.BARREL_ATTEMPTS]  # 0: no limit
                if limit > 0 and gs[G_ATTEMPTS + p] >= limit and new[p] >= barrel:
                    new[p] -= penalty
                    events[p] |= EV_FALL_ATTEMPTS | _fall(gs, rules, p, new, True)
                continue
            if p == declarer and made and contract >= rules[R.BARREL_MIN_CONTRACT]:
                # Undoubled (as the contract always was here); with declarer_scores = points his points
                # if more. barrel + barrel_min_contract reaches the target (validated), so the capped
                # score is the target itself.
                new[p] = old + declarer_gain(contract, ws[W_CARD_POINTS, p] + ws[W_MARRIAGE_POINTS, p], rules)
                if capped:
                    new[p] = target
                wins |= 1 << p
                gs[G_ON_BARREL + p] = 0  # off upward: nobody climbing now can knock him off
                continue
            if p == declarer and not made and not rules[R.BARREL_FAILED_STAYS]:
                new[p] = old + result[p]
                events[p] |= EV_FALL_CONTRACT | _fall(gs, rules, p, new, False)
                continue
            if p != declarer and rules[R.BARREL_DEFENCE_WINS] and old + result[p] >= target:
                new[p] = target if capped else old + result[p]
                wins |= 1 << p
                gs[G_ON_BARREL + p] = 0
                continue
            # Not recorded: a defender's points, a made contract too small to win, with barrel_failed_contract
            # = stays a failed one.
            if p != declarer and result[p] != 0:
                events[p] |= EV_DEFENCE_IGNORED
            gs[G_ATTEMPTS + p] += 1
            if gs[G_ATTEMPTS + p] >= rules[R.BARREL_ATTEMPTS]:
                new[p] = old - penalty
                events[p] |= EV_FALL_ATTEMPTS | _fall(gs, rules, p, new, True)
        else:
            new[p] = old + result[p]
            if barrel > 0 and new[p] >= target and rules[R.BARREL_JUMP_WINS]:
                wins |= 1 << p  # a jump past the barrel to the target (not capped: not a win from the barrel)
            elif barrel > 0 and new[p] >= barrel:
                climbers |= 1 << p
            elif barrel == 0 and new[p] >= target and (
                    (p == declarer and made) or not rules[R.WIN_ONLY_AS_DECLARER]):
                wins |= 1 << p
    if wins and not accumulated:
        # One winner: of several (without a barrel possible only with win_only_as_declarer off; with one, the
        # barrel variants), the highest score (a sitter's capped with win_score_capped), then the declarer,
        # then the seats after him (target_tie = lowest_seat: by seat number). A sitter who reached the
        # target without winning stays on the barrel; a jumper who did is no climber.
        lowest = rules[R.WIN_TIE_LOWEST_SEAT]
        winner = -1
        for k in range(n):
            q = (declarer + k) % n
            if (wins >> q) & 1 and (winner < 0 or new[q] > new[winner] or (
                    lowest and new[q] == new[winner] and winner != declarer
                    and seat_number(ws, q, n) < seat_number(ws, winner, n))):
                winner = q
        events[winner] |= EV_WIN
        gs[G_WINNER] = winner
    if climbers and not ranged:
        together = popcount(climbers) > 1 and rules[R.BARREL_SIMULTANEOUS_PENALTY]
        keeper = -1  # barrel_simultaneous_keeper: the climber who sits when several climb together
        if together and rules[R.BARREL_SIMULTANEOUS_KEEPER]:
            if (climbers >> declarer) & 1:
                keeper = declarer
            else:
                for q in range(n):
                    if (climbers >> q) & 1 and (keeper < 0 or seat_number(ws, q, n) < seat_number(ws, keeper, n)):
                        keeper = q
        for p in range(n):
            if not (climbers >> p) & 1 or p == keeper:
                continue
            if together:
                new[p] = barrel - penalty
                events[p] |= EV_SIMULTANEOUS | _fall(gs, rules, p, new, False)
        if keeper >= 0:
            climbers = 1 << keeper
        if not together or keeper >= 0:
            # The climbers who sit (one; all of them without barrel_simultaneous_penalty) meet any sitter still
            # on it: with barrel_knock_off, barrel_collision says who falls.
            sitting = 0
            if rules[R.BARREL_KNOCK_OFF]:
                for q in range(n):
                    if sat_before[q] and gs[G_ON_BARREL + q] and not (climbers >> q) & 1:
                        sitting |= 1 << q
            collision = rules[R.BARREL_COLLISION]
            for q in range(n):
                if (sitting >> q) & 1 and collision != R.COLLISION_SITTER_STAYS:
                    new[q] -= penalty  # from his score after this deal (barrel_accumulate adds points)
                    events[q] |= EV_KNOCKED_OFF | _fall(gs, rules, q, new, False)
            for p in range(n):
                if not (climbers >> p) & 1:
                    continue
                if sitting and collision != R.COLLISION_NEWCOMER_STAYS:
                    new[p] = barrel - penalty  # sent back by the sitter: a climb that never sat, a fall
                    events[p] |= EV_KNOCKED_OFF | _fall(gs, rules, p, new, False)
                else:
                    new[p] = barrel
                    gs[G_ON_BARREL + p] = 1
                    gs[G_ATTEMPTS + p] = 0
                    gs[G_BARREL_ENTRIES + p] += 1
                    events[p] |= EV_BARREL_ON
    if wins:
        for q in range(n):
            if (wins >> q) & 1 and sat_before[q] and not events[q] & EV_WIN:
                gs[G_ON_BARREL + q] = 1  # reached the target, another won: still on the barrel at the game's end
    if paying_dealer >= 0:
        new[paying_dealer] -= REDEAL_LIMIT_PENALTY
        events[paying_dealer] |= EV_REDEAL_PENALTY
        if gs[G_ON_BARREL + paying_dealer] and not ranged:  # on the range barrel no fall, maybe off below
            events[paying_dealer] |= _fall(gs, rules, paying_dealer, new, False)
    for p in range(n):
        bolts = rec[row, D_BOLT + p]  # 2 for a doubled bolt (bolt_double_in_dark)
        if rules[R.BOLT_COUNT] == R.BOLT_COUNT_CONSECUTIVE and not bolts and p != sitter and not keeps_bolt_run(
                rules, p, declarer, conceded, rec[row, D_TRICKS + p], ws[W_CARD_POINTS, p] + ws[W_MARRIAGE_POINTS, p]):
            gs[G_BOLTS + p] = 0  # bolts count only in an unbroken run (sitting out breaks none)
        penalties = 0
        if bolts and rules[R.BOLT_COUNT] == R.BOLT_COUNT_EACH:
            penalties = bolts  # every bolt costs the penalty at once (a doubled bolt twice); nothing is counted
        elif bolts:
            gs[G_BOLTS + p] += bolts
            if gs[G_BOLTS + p] >= 3:
                gs[G_BOLTS + p] = 0
                penalties = 1
        if penalties and rules[R.BOLT_PENALTY] > 0 and not events[p] & EV_WIN:
            new[p] -= penalties * rules[R.BOLT_PENALTY]
            events[p] |= EV_BOLT_PENALTY
            gs[G_BOLT_PENALTIES + p] += penalties
            if gs[G_ON_BARREL + p] and not ranged:
                events[p] |= _fall(gs, rules, p, new, False)
        if rules[R.NO_WIN_PENALTY] and not conceded and p != sitter:
            # A played deal's no-win: declared and failed, or defended and scored nothing (the raw deal
            # result, so a sitter's unrecorded defence counts as what it was).
            if (p == declarer and not made) or (p != declarer and result[p] == 0):
                gs[G_NO_WINS + p] += 1
                if gs[G_NO_WINS + p] >= 3:
                    gs[G_NO_WINS + p] = 0
                    if not events[p] & EV_WIN:
                        new[p] -= rules[R.NO_WIN_PENALTY_AMOUNT]
                        events[p] |= EV_NO_WIN_PENALTY
                        if gs[G_ON_BARREL + p] and not ranged:  # a fall, as for bolts (none if a bolt felled him)
                            events[p] |= _fall(gs, rules, p, new, False)
            elif rules[R.NO_WIN_PENALTY] == R.NO_WIN_CONSECUTIVE:
                gs[G_NO_WINS + p] = 0
        truck = rules[R.DUMP_TRUCK_VALUE]
        if not events[p] & EV_WIN and (
            (rules[R.DUMP_TRUCK] and new[p] == truck) or (rules[R.DUMP_TRUCK_NEGATIVE] and new[p] == -truck)
        ):
            new[p] = 0
            events[p] |= EV_DUMP_TRUCK
            gs[G_DUMP_TRUCKS + p] += 1
        if ranged and not (wins >> p) & 1:
            # The range barrel: on it whoever ends the deal in [barrel, target), after every penalty. Below it
            # a sitter leaves (no penalty, no fall); in it a player not sitting climbs (and a sitter whose
            # attempts' penalty left him in it climbs again).
            inside = barrel <= new[p] < target
            if gs[G_ON_BARREL + p] and not inside:
                gs[G_ON_BARREL + p] = 0
                gs[G_ATTEMPTS + p] = 0
                events[p] |= EV_BARREL_OFF
            elif inside and not gs[G_ON_BARREL + p]:
                gs[G_ON_BARREL + p] = 1
                gs[G_ATTEMPTS + p] = 0
                gs[G_BARREL_ENTRIES + p] += 1
                events[p] |= EV_BARREL_ON
        if gs[G_ON_BARREL + p] and not events[p] & EV_BARREL_ON:
            events[p] |= EV_BARREL_STAY
        rec[row, D_CHANGE + p] = new[p] - gs[G_SCORE + p]
        rec[row, D_SCORE + p] = new[p]
        rec[row, D_EVENTS + p] = events[p]
        gs[G_SCORE + p] = new[p]


@jit_hot
def sitter_points(talon, rules):
    """players = 4: what the dealer sitting out scores, the talon's card points plus the value of a
    marriage lying in it (with sitout_half_marriage half a marriage's value, rounded down, for a
    lone K or Q), the whole rounded as a defender's points (``rounding``); with sitout_scores =
    cards only the card points, = marriage only the marriages."""
    points = mask_points(talon) if rules[R.SITOUT_CARDS] else 0
    for s in range(4 if rules[R.SITOUT_MARRIAGE] else 0):
        k = (talon >> (6 * s + KING)) & 1
        q = (talon >> (6 * s + QUEEN)) & 1
        if k and q:
            points += rules[R.MARRIAGE_VALUE + s]
        elif (k or q) and rules[R.SITOUT_HALF_MARRIAGE]:
            points += rules[R.MARRIAGE_VALUE + s] // 2
    return round_points(points, rules)


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
