"""The one door through which the engine asks a seat for a decision.

The engine knows no player: at each decision it calls one function here with the seat's player
code (``sim.players.layout``) and what that seat may see, and checks the answer is legal. These
functions pick the player's kernel by its code: scripted (the known-answer tests), random,
heuristic, double dummy (``dd_nb``), PIMC (``pimc_nb``, ``pimc2_nb``; ``pimc_inf_nb``, its worlds
weighed by the auction's record) and the ported bot
(``leadage_nb``) and the learned player (``learned.cards_nb``, ``learned.bidding_nb``; its score-aware
bids, contract and dark game ``learned.win_nb``; ``learned-inf``, whose search of its last cards
draws its worlds as pimc-inf does). The dd and
pimc players, and ``learned-cards``, bid, go dark and (pimc) choose the final contract as the heuristic player does
(pimc-inf too, unless its ``contract_rule`` reads its discard's worlds: ``pimc_inf_nb.pimc_inf_contract``).

``solver`` is the seat's search buffers (state, moves, transposition table, PIMC worlds) and the
learned seats' nets and scratch (``seat_tuple`` makes them), ``rng``
its generator state, ``script`` the scripted actions with their cursor, ``prm`` the parameter rows.
"""

import numpy as np

from sim.game import rules_layout as R
from sim.game.bits_nb import popcount
from sim.game.play_nb import LEAD_WITHOUT_DECLARING, declaration, pending_trump
from sim.game.rng_nb import key_state, mix_key
from sim.numba_config import jit_hot, jit_inline
from sim.players.dd_nb import dd2_choose_card, dd_choose_burial, dd_choose_card, dd_choose_discard, dd_final_contract
from sim.players.heuristic_nb import (
    heuristic_bid,
    heuristic_burial,
    heuristic_card,
    heuristic_contract,
    heuristic_dark,
    heuristic_discard,
)
from sim.players.layout import (
    ALWAYS_SEARCH,
    CONTRACT_WORLDS,
    H_BID_LIMIT,
    H_CONTRACT_RULE,
    H_INFERENCE_CANDIDATES,
    H_INFERENCE_TEMPERATURE,
    H_NET,
    H_PIMC_WORLDS,
    H_SEARCH_CARDS,
    H_SEARCH_MARGIN,
    H_SEARCH_WORLDS,
    PLAYER_DD,
    PLAYER_LEADAGE,
    PLAYER_LEARNED,
    PLAYER_LEARNED_CARDS,
    PLAYER_LEARNED_INF,
    PLAYER_LEARNED_WIN,
    PLAYER_PIMC,
    PLAYER_PIMC_INF,
    PLAYER_RANDOM,
    PLAYER_SCRIPTED,
)
from sim.players.leadage_nb import leadage_bid, leadage_card, leadage_contract, leadage_dark, leadage_discard
from sim.players.learned.bidding_nb import learned_bid, learned_contract, learned_dark
from sim.players.learned.cards_nb import L_OUT, learned_card, learned_discard, net_margin, new_learned_buffers
from sim.players.learned.win_nb import learned_win_bid, learned_win_contract, learned_win_dark
from sim.players.pimc2_nb import pimc2_choose_card, pimc2_choose_discard
from sim.players.pimc_inf_nb import (
    inverse_temperature,
    new_inference_buffers,
    pimc_inf_choose_card,
    pimc_inf_choose_discard,
    pimc_inf_contract,
)
from sim.players.pimc_nb import new_pimc_buffer, pimc_choose_card, pimc_choose_discard
from sim.players.random_nb import (
    random_bid,
    random_burial,
    random_card,
    random_contract,
    random_dark,
    random_discard,
)
from sim.players.scripted_nb import next_scripted, scripted_burial, scripted_discard
from sim.solver import search_buffers
from sim.streams import LEARNED_SEARCH_SALT


def seat_buffers(table_log2: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """New buffers of a searching seat (dd or pimc): the solver's state, move rows and table of
    2**table_log2 rows, and the PIMC worlds' scratch."""
    return (*search_buffers(table_log2), new_pimc_buffer())


def seat_tuple(table_log2: int, net: np.ndarray | None = None, rec_rows: int = 1) -> tuple[np.ndarray, ...]:
    """Everything a chunk's seats decide with, the ``solver`` argument of the functions below: a
    searching seat's buffers (``seat_buffers``: ``solver[0:4]``), then the learned seats' packed
    nets, scratch and position record (``learned.cards_nb.new_learned_buffers``: ``solver[4:8]``,
    tokens when no seat is learned), then the pimc-inf seats' scratch
    (``pimc_inf_nb.new_inference_buffers``: ``solver[8:11]``)."""
    return (*seat_buffers(table_log2), *new_learned_buffers(net, rec_rows), *new_inference_buffers())


@jit_inline
def is_pimc(code):
    """Whether ``code`` is a PIMC player (``pimc``, ``pimc-inf``; the experimental ``pimc-fast``,
    code 5, left after 0.9.1), whose discard, 2-player kernels and knowledge of the hidden cards
    these share."""
    return code == PLAYER_PIMC or code == PLAYER_PIMC_INF


@jit_inline
def is_learned(code):
    """Whether ``code`` plays the learned player's cards (learned, learned-cards, learned-win,
    learned-inf)."""
    return (code == PLAYER_LEARNED or code == PLAYER_LEARNED_CARDS or code == PLAYER_LEARNED_WIN
            or code == PLAYER_LEARNED_INF)


@jit_inline
def bids_as_learned(code):
    """Whether ``code`` bids, goes dark, gives its gifts and chooses its contract as the learned
    player does (learned, learned-inf: they differ only in the search of the last cards)."""
    return code == PLAYER_LEARNED or code == PLAYER_LEARNED_INF


@jit_inline
def reads_known_cards(codes, n):
    """Whether some seat's player reads what the seats know of the hidden cards (PIMC and learned
    seats do), so that the engine fills it in only then."""
    for p in range(n):
        if is_pimc(codes[p]) or is_learned(codes[p]):
            return True
    return False


@jit_hot
def choose_dark(code, seat, gs, rules, prm, rng, script, net):
    """1 if first hand goes dark before seeing his cards, else 0 (the engine checks it is allowed).
    ``net``: the learned seats' packed weights (the seat tuple's; only the learned player reads it).
    A seat on an imposed bidding line (``H_BID_LIMIT``) never goes dark."""
    if prm[seat, H_BID_LIMIT] != 0.0:
        return 0
    if bids_as_learned(code):
        return learned_dark(seat, gs, rules, prm, net)
    if code == PLAYER_LEARNED_WIN:
        return learned_win_dark(seat, gs, rules, prm, net)
    if code == PLAYER_SCRIPTED:
        return next_scripted(script)  # 1 dark, 0 not
    if code == PLAYER_RANDOM:
        return random_dark(rng)
    if code == PLAYER_LEADAGE:
        return leadage_dark(seat, gs, rules, rng)
    return heuristic_dark(seat, gs, rules, prm)


@jit_inline  # inlined into the engine's kernel: no call boundary to pass the arrays through
def choose_bid(code, seat, hand, high_seat, min_raise, cap, gs, rules, prm, rng, script, net, lbuf):
    """A raise (the new bid) or 0 to pass: ``min_raise`` and ``cap`` are ``bids_nb.bid_range``'s
    (the least legal bid and the greatest), and the raise one that ``bids_nb.legal_bid`` allows.
    ``net`` and ``lbuf``: the learned seats' weights and scratch (two arrays rather than the whole
    seat tuple: a bid is asked for several times a deal, and every array passed costs the
    heuristic's deals too). A seat on an
    imposed bidding line (``H_BID_LIMIT``: the advisor's "bid up to b") raises by the least step
    while that is at most b, whatever its player; when it passes (a pass is final) it writes minus
    the raise it passed at into its ``H_BID_LIMIT`` (a negative limit passes at every turn: the
    deal goes on alike), so that ``playouts_nb.line_samples`` knows which higher lines play this
    deal the same way: every b' below that raise."""
    if code == PLAYER_SCRIPTED:
        return next_scripted(script)
    limit = prm[seat, H_BID_LIMIT]
    if min_raise > cap or (limit != 0.0 and min_raise > limit):
        if limit > 0.0:  # passing on a "bid up to b" line: note the raise passed at (see below)
            prm[seat, H_BID_LIMIT] = -float(min_raise)
        return 0
    if limit != 0.0:
        return min_raise
    if code == PLAYER_RANDOM:
        return random_bid(min_raise, cap, rules, rng)
    if code == PLAYER_LEADAGE:
        return leadage_bid(seat, hand, min_raise, cap, gs, rules, rng)
    if bids_as_learned(code):
        return learned_bid(seat, hand, high_seat, min_raise, cap, gs, rules, prm, net, lbuf)
    if code == PLAYER_LEARNED_WIN:
        return learned_win_bid(seat, hand, high_seat, min_raise, cap, gs, rules, prm, net, lbuf)
    return heuristic_bid(seat, hand, high_seat, min_raise, cap, gs, rules, prm)


@jit_hot
def choose_discard(code, declarer, hands, givable, contract, last_bid, rules, prm, rng, script, solver, auction):
    """The declarer's discard in the 3-player deal: (card to the seat after him, card to the seat
    after that, the deal's value to him: double-dummy for a dd declarer, the net's for a learned
    one, else 0). ``givable``: the cards of his 10 he may give away; ``contract`` the bid (-1
    where none is set), ``last_bid`` each seat's last bid (which only the learned player reads),
    ``auction`` the auction's record (``sim.game.auction_layout``; pimc-inf reads it)."""
    left = (declarer + 1) % 3
    right = (declarer + 2) % 3
    if code == PLAYER_DD:
        return dd_choose_discard(hands[declarer], hands[left], hands[right], rules, solver[0], solver[1], solver[2])
    if bids_as_learned(code) or code == PLAYER_LEARNED_WIN:
        return learned_discard(declarer, hands, givable, contract, last_bid, rules, prm, solver[1], solver[4],
                               solver[5], solver[6])
    if code == PLAYER_PIMC_INF:
        g1, g2 = pimc_inf_choose_discard(declarer, hands[declarer], 0, 0, np.int64(prm[declarer, H_PIMC_WORLDS]),
                                         rules, prm, rng, solver[0], solver[1], solver[2], solver[3], auction,
                                         solver[4], solver[5], solver[8], solver[9], solver[10],
                                         np.int64(prm[declarer, H_INFERENCE_CANDIDATES]),
                                         inverse_temperature(prm[declarer, H_INFERENCE_TEMPERATURE]),
                                         prm[declarer, H_CONTRACT_RULE] == CONTRACT_WORLDS)
        return g1, g2, 0
    if is_pimc(code) or code == PLAYER_LEARNED_CARDS:
        # Before the discard the declarer knows no opponent's card.
        g1, g2 = pimc_choose_discard(hands[declarer], 0, 0, np.int64(prm[declarer, H_PIMC_WORLDS]), rules, rng,
                                     solver[0], solver[1], solver[2], solver[3])
        return g1, g2, 0
    if code == PLAYER_SCRIPTED:
        g1, g2 = scripted_discard(givable, script)
    elif code == PLAYER_RANDOM:
        g1, g2 = random_discard(givable, rng)
    elif code == PLAYER_LEADAGE:
        g1, g2 = leadage_discard(hands[declarer], givable, rules)
    else:
        g1, g2 = heuristic_discard(hands[declarer], givable)
    return g1, g2, 0


@jit_hot
def choose_burial(code, declarer, hands, givable, to_talon, other, rules, prm, rng, script, solver):
    """players = 2: the declarer's two cards to bury, the card for the untaken talon (with
    two_player_talon = 3, else -1), and the double-dummy value of the deal for a dd declarer
    (else 0). ``other``: the untaken talon, which only the dd player sees."""
    if code == PLAYER_DD:
        return dd_choose_burial(hands[declarer], hands[1 - declarer], other, to_talon, givable, rules, solver[0],
                                solver[1], solver[2])
    if is_pimc(code):
        b1, b2, t = pimc2_choose_discard(hands[declarer], to_talon, givable, np.int64(prm[declarer, H_PIMC_WORLDS]),
                                         rules, rng, solver[0], solver[1], solver[2], solver[3])
        return b1, b2, t, 0
    if code == PLAYER_SCRIPTED:
        b1, b2, t = scripted_burial(givable, to_talon, script)
    elif code == PLAYER_RANDOM:
        b1, b2, t = random_burial(givable, to_talon, rng)
    else:
        b1, b2, t = heuristic_burial(hands[declarer], givable, to_talon)
    return b1, b2, t, 0


@jit_inline  # inlined into the engine's kernel: no call boundary to pass the arrays through
def choose_contract(code, seat, hand, contract, cap, can_concede, dd_value, gs, rules, prm, rng, script, net, lbuf,
                    ibuf):
    """The final contract (>= the bid ``contract``, <= ``cap`` when raising) or -1 to concede. A dd
    declarer knows the deal's value (``dd_value``, from his discard), a learned one his net's
    (``net`` and ``lbuf``: the learned seats' weights and scratch), a pimc-inf one his discard's
    world values (``ibuf``: the pimc-inf seats' scratch, ``pimc_inf_nb.pimc_inf_contract``)."""
    if code == PLAYER_DD:
        return dd_final_contract(contract, cap, dd_value, can_concede, rules)
    if code == PLAYER_SCRIPTED:
        return next_scripted(script)
    if code == PLAYER_RANDOM:
        return random_contract(contract, cap, can_concede, rules, rng)
    if code == PLAYER_LEADAGE:
        return leadage_contract(seat, hand, contract, cap, can_concede, gs, rules, rng)
    if bids_as_learned(code):
        return learned_contract(seat, hand, contract, cap, can_concede, dd_value, gs, rules, prm, net, lbuf)
    if code == PLAYER_LEARNED_WIN:
        return learned_win_contract(seat, hand, contract, cap, can_concede, dd_value, gs, rules, prm, net, lbuf)
    if code == PLAYER_PIMC_INF:
        return pimc_inf_contract(seat, hand, contract, cap, can_concede, gs, rules, prm, ibuf)
    return heuristic_contract(seat, hand, contract, cap, can_concede, gs, rules, prm)




@jit_hot
def _key_search_stream(rng, seat, hand, trick, n_in_trick, leader, trump, declarer, contract, played, played_by,
                       voids, known):
    """Set ``rng`` to the learned seat's search stream of this position (``rng_nb.key_state``)."""
    key = mix_key(LEARNED_SEARCH_SALT, seat)
    key = mix_key(key, hand)
    key = mix_key(key, played)
    for q in range(3):
        key = mix_key(key, played_by[q])
        key = mix_key(key, voids[q])
        key = mix_key(key, known[q])
    for i in range(n_in_trick):
        key = mix_key(key, trick[i])
    key = mix_key(key, n_in_trick * 64 + leader * 16 + (trump + 1) * 4 + declarer)
    key = mix_key(key, contract + 1)
    key_state(rng, key)


@jit_inline
def choose_card(code, seat, hands, legal, trick, n_in_trick, leader, trump, trump_owner, declarer, tricks,
                card_points, marriage_points, contract, played, voids, known, can_declare, last_bonus, rules, prm, rng,
                script, solver, marriages, played_by, last_bid, auction, n):
    """The card ``seat`` plays among ``legal``, or on a lead that would declare, ``card |
    LEAD_WITHOUT_DECLARING`` to decline (marriage_optional). The trick so far is ``trick[:n_in_trick]``
    from ``leader``, played under ``trump`` (the trump in force: under marriage_trump_from = next_trick
    not yet one this trick's lead declared, which the dd and PIMC seats read from ``marriages``,
    ``play_nb.pending_trump``); ``tricks``, ``card_points`` and ``marriage_points`` the seats' tallies,
    ``contract`` the declarer's (-1 where none is set: the advisor's playouts), ``played`` the cards
    gone, ``voids`` the suits each seat has shown out of, ``known`` what each seat knows of the
    hidden cards (the engine's ``know_cards``/``know_cards2`` layouts), ``last_bonus`` the untaken
    talon's points (players = 2); ``marriages`` each seat's declarations (play_nb's bits),
    ``played_by`` the cards each seat has played in this deal and ``last_bid`` each seat's last
    bid, which only the learned player reads; ``auction`` the auction's record
    (``sim.game.auction_layout``), which pimc-inf reads. ``n`` seats (a constant where it is
    inlined)."""
    learned_searches = False
    if is_learned(code) and n == 3:
        learned_searches = popcount(hands[seat]) <= prm[seat, H_SEARCH_CARDS]
        margin = prm[seat, H_SEARCH_MARGIN]
        if not learned_searches or margin < ALWAYS_SEARCH:
            card = learned_card(seat, hands, legal, trick, n_in_trick, leader, trump, trump_owner, declarer, tricks,
                                card_points, marriage_points, marriages, contract, played, played_by, voids,
                                known[3 * seat:3 * seat + 3], last_bid, can_declare, rules, prm, rng, solver[4],
                                solver[5], solver[6], solver[7])
            # The net's card stands unless the seat searches and the net's best two legal cards are
            # within the margin (its outputs are in hundreds of points).
            if not (learned_searches and popcount(legal) > 1 and prm[seat, H_NET] >= 0
                    and net_margin(solver[5][L_OUT], legal, seat == declarer) < margin / 100.0):
                return card
    if code == PLAYER_DD or is_pimc(code) or learned_searches:
        won = np.int64(0)
        for q in range(n):
            won |= (tricks[q] > 0) << q
        burning = rules[R.MARRIAGE_BURNS_WITHOUT_TRICK] and tricks[declarer] == 0
        unsecured = marriage_points[declarer] if burning else 0
        # marriage_trump_from = next_trick: the trump this trick's lead declared, in force after it.
        pending = np.int64(-1)
        if n_in_trick > 0:
            pending = pending_trump(hands[leader], trick[0], marriages[leader], rules)
        if n == 2:
            choice, declare = _two_player_search(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner,
                                                 pending, declarer, won, unsecured, last_bonus, played, voids, known,
                                                 code, prm, rules, rng, solver)
        elif code == PLAYER_DD:
            choice, declare = dd_choose_card(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner,
                                             pending, declarer, won, unsecured, rules, solver[0], solver[1],
                                             solver[2])
        else:  # pimc or pimc-inf, or a learned seat that searches
            worlds = prm[seat, H_SEARCH_WORLDS] if learned_searches else prm[seat, H_PIMC_WORLDS]
            # A learned seat samples its worlds from a stream keyed by what it sees, and leaves the
            # chunk's stream as it was: its card is a function of the position alone, as the net's
            # is, so every replay of a deal (the paired runs, the bid tables' parts) plays it alike.
            s0 = s1 = s2 = s3 = np.uint64(0)
            if learned_searches:
                s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
                _key_search_stream(rng, seat, hands[seat], trick, n_in_trick, leader, trump, declarer, contract,
                                   played, played_by, voids, known[3 * seat:3 * seat + 3])
            if code == PLAYER_PIMC_INF or (code == PLAYER_LEARNED_INF and popcount(legal) > 1):
                # pimc-inf (even with one legal card: its stream as it always drew it), and
                # learned-inf: the same worlds' count, resampled from candidates weighed by the
                # other seats' calls as pimc-inf's are (from the same keyed stream: a decision where
                # no other seat made a call of its own draws learned's very worlds)
                choice, declare = pimc_inf_choose_card(hands, seat, legal, trick, n_in_trick, leader, trump,
                                                       trump_owner, pending, declarer, won, unsecured, played, voids,
                                                       known[3 * seat:3 * seat + 3], played_by, contract,
                                                       np.int64(worlds), rules, prm, rng, solver[0], solver[1],
                                                       solver[2], solver[3], auction, solver[4], solver[5],
                                                       solver[8], solver[9], solver[10],
                                                       np.int64(prm[seat, H_INFERENCE_CANDIDATES]),
                                                       inverse_temperature(prm[seat, H_INFERENCE_TEMPERATURE]))
            else:
                choice, declare = pimc_choose_card(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner,
                                                   pending, declarer, won, unsecured, played, voids,
                                                   known[3 * seat:3 * seat + 3], np.int64(worlds), rules, rng,
                                                   solver[0], solver[1], solver[2], solver[3])
            if learned_searches:
                rng[0] = s0
                rng[1] = s1
                rng[2] = s2
                rng[3] = s3
        if n_in_trick == 0 and can_declare and not declare and declaration(hands[seat], choice, rules)[2]:
            choice |= LEAD_WITHOUT_DECLARING
        return choice
    if code == PLAYER_RANDOM:
        return random_card(seat, hands, legal, n_in_trick, can_declare, rules, rng)
    if code == PLAYER_SCRIPTED:
        return next_scripted(script)
    if code == PLAYER_LEADAGE:
        return leadage_card(seat, hands[seat], legal, trick, n_in_trick, leader, trump, trump_owner, declarer, played,
                            can_declare, rules)
    return heuristic_card(seat, hands, legal, trick, n_in_trick, leader, trump, declarer, played, voids, can_declare,
                          rules)


@jit_hot
def _two_player_search(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner, pending, declarer, won,
                       unsecured, last_bonus, played, voids, known, code, prm, rules, rng, solver):
    """players = 2: the card of a double-dummy or PIMC seat, (card, declare). A PIMC seat knows
    what ``know_cards2`` left in ``known`` and how many cards its opponent holds now."""
    if code == PLAYER_DD:
        return dd2_choose_card(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner, pending, declarer,
                               won, unsecured, last_bonus, rules, solver[0], solver[1], solver[2])
    counts = known[8:11]
    counts[0] = popcount(hands[1 - seat])
    return pimc2_choose_card(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner, pending, declarer, won,
                             unsecured, played, voids, known[4 * seat:4 * seat + 4], counts,
                             np.int64(prm[seat, H_PIMC_WORLDS]), rules, rng, solver[0], solver[1], solver[2],
                             solver[3])
