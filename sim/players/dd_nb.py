"""The double-dummy (DD) player: it sees every hand and plays the card the solver values best for
its side (``sim.solver``), in the three-player deal (``dd_choose_card``) and the two-player deal
(``dd2_choose_card``). Its discard is the solver's ``best_discard`` / ``best_discard2``; it bids as
the heuristic player does. Seats are the engine's; buffers come from the caller.
"""

import numpy as np

from sim.game.bids_nb import contract_at_most
from sim.game.bits_nb import lowest_index
from sim.numba_config import jit_hot
from sim.solver.core_nb import DECLARE_FLAG, ST_PENDING, next_stamp, play_lead
from sim.solver.discard_nb import best_discard, best_discard2
from sim.solver.drivers_nb import best_move, best_move2
from sim.solver.search2_nb import set_position2
from sim.solver.search3_nb import play_follow, set_position


@jit_hot
def dd_choose_card(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner, pending, declarer, won,
                   unsecured, rules, st, work, tt):
    """The double-dummy player's card, seeing every hand: (card, declare). Seats are the engine's
    (0..2 around the table); ``hands`` holds every seat's cards not yet played, ``trick`` the
    ``n_in_trick`` cards of the current trick from ``leader`` on, ``trump`` the trump in force for
    it (-1 none), ``trump_owner`` the seat that declared it (-1 none), ``pending`` the trump this
    trick's lead declared under marriage_trump_from = next_trick, in force from the next trick
    (owned by ``leader``; -1 none, always at a lead), ``won`` a bit per seat that
    has won a trick, ``unsecured`` the declarer's marriage points waiting for his first trick
    (burning rule). ``declare`` tells whether a lead of K/Q (J, A) declares its combination; it
    only differs from automatic declaration under marriage_optional. The declarer maximises his
    points to come, the defenders minimise them; ties go to the first move in search order. A new
    table generation per call keeps every answer independent of earlier calls."""
    next_stamp(st, tt)
    rel_won = 0
    for s in range(3):
        if (won >> s) & 1:
            rel_won |= 1 << ((s - declarer) % 3)
    rel_owner = -1 if trump_owner < 0 else (trump_owner - declarer) % 3
    # The trick's cards go back to their players and are played again on the solver's state.
    h0 = hands[declarer]
    h1 = hands[(declarer + 1) % 3]
    h2 = hands[(declarer + 2) % 3]
    for i in range(n_in_trick):
        rel = (leader + i - declarer) % 3
        bit = np.int64(1) << trick[i]
        if rel == 0:
            h0 |= bit
        elif rel == 1:
            h1 |= bit
        else:
            h2 |= bit
    set_position(st, h0, h1, h2, (leader - declarer) % 3, trump, rel_owner, rel_won, unsecured)
    for i in range(n_in_trick):
        if i == 0:
            play_lead(st, rules, trick[0])  # already declared if it did: trump is the one in force
            st[ST_PENDING] = pending
        else:
            play_follow(st, trick[i])
    move, _ = best_move(st, rules, tt, work)
    card = move & 31
    if move < 0 or not (legal >> card) & 1:
        return lowest_index(legal), False  # not reached when the engine's rules match the solver's
    return card, (move & DECLARE_FLAG) != 0


@jit_hot
def dd2_choose_card(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner, pending, declarer, won,
                    unsecured, last_bonus, rules, st, work, tt):
    """The double-dummy player's card in the two-player game, seeing both hands: (card, declare).
    Seats are the engine's (0, 1); ``hands[0]``, ``hands[1]`` their cards not yet played, ``trick[0]``
    the led card when ``n_in_trick`` is 1, ``trump`` the trump in force for this trick (-1 none),
    ``trump_owner`` the seat that declared it (-1 none), ``pending`` the trump the led card declared
    under marriage_trump_from = next_trick (-1 none), ``won`` a bit per seat that has won a
    trick, ``unsecured`` the declarer's marriage points waiting for his first trick (burning rule),
    ``last_bonus`` the points the last trick's winner also takes (the unused talon). ``declare``
    as in ``dd_choose_card``. The declarer maximises his points to come, the defender
    minimises them; ties go to the first move in search order; a new table generation per call."""
    next_stamp(st, tt)
    rel_won = 0
    for s in range(2):
        if (won >> s) & 1:
            rel_won |= 1 << (s ^ declarer)
    rel_owner = -1 if trump_owner < 0 else trump_owner ^ declarer
    h0 = hands[declarer]
    h1 = hands[declarer ^ 1]
    if n_in_trick == 1:  # the led card goes back to its player and is led again on the solver's state
        if leader == declarer:
            h0 |= np.int64(1) << trick[0]
        else:
            h1 |= np.int64(1) << trick[0]
    set_position2(st, h0, h1, leader ^ declarer, trump, rel_owner, rel_won, unsecured, last_bonus)
    if n_in_trick == 1:
        play_lead(st, rules, trick[0])  # already declared if it did: trump is the one in force
        st[ST_PENDING] = pending
    move, _ = best_move2(st, rules, tt, work)
    card = move & 31
    if move < 0 or not (legal >> card) & 1:
        return lowest_index(legal), False  # not reached when the engine's rules match the solver's
    return card, (move & DECLARE_FLAG) != 0


@jit_hot
def dd_choose_discard(hand10, opp1, opp2, rules, st, work, tt):
    """The double-dummy player's discard: (card to the seat after the declarer, card to the seat
    after that, the deal's double-dummy value with that discard). ``opp1``/``opp2`` are those
    seats' 7 cards."""
    return best_discard(hand10, opp1, opp2, rules, st, work, tt)


@jit_hot
def dd_choose_burial(hand12, defender_hand, other_talon, to_talon, givable, rules, st, work, tt):
    """players = 2: the double-dummy player's two buried cards, the card for the untaken talon (-1
    without two_player_talon = 3) and the deal's double-dummy value with them."""
    return best_discard2(hand12, defender_hand, other_talon, to_talon, givable, rules, st, work, tt)


@jit_hot
def dd_final_contract(contract, cap, value, can_concede, rules):
    """The double-dummy declarer knows the points he will take (``value``, his best discard's):
    he raises to them (within the cap, to a contract the rules allow) and concedes a contract they
    cannot make."""
    if value < contract:
        return -1 if can_concede else contract
    return contract_at_most(min(cap, value - value % 5), contract, rules)
