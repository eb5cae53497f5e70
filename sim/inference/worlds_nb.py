"""Candidate worlds of one seat's view, drawn and weighted, compiled (docs/inference.md).

A world says where every hidden card lies now (the locations: the viewer's left, his right and,
before the talon is taken, the talon) and, from that, the deal as it was dealt: each seat's 7
cards before the talon and the talon. The cards a fact ties to one location (a void shown leaves
the other; a declared marriage's partner stays with its declarer) are placed first, the others
shuffled into the places left (``free``): among the deals consistent with the view each is equally
likely (uniform). Where the view leaves more open than the hidden cards' places (the talon a
defender never saw, the other defender's gift face down), that is drawn too, uniformly: 3 of the
declarer's 10 cards before his gifts, and one of the other defender's cards that the rules let be
given. Each world is weighted by the log-likelihood of the two other seats' calls
(``likelihood_nb.auction_loglik``), of the cards they played with a choice
(``play_likelihood_nb.plays_loglik``) and, seen by a defender, of the declarer's gifts and final
contract or concession (``deal_likelihood_nb``).

Where the weights collapse, every deal the view allows can be weighed once instead (a sweep):
``nth_world`` numbers the placements of the hidden cards, ``enumerate_worlds`` weighs a range of
them (each gift a gift face down may have been apart) as ``draw_worlds`` weighs drawn ones, and
``sum_talons`` sums a talon the viewer never saw out of their weights (``infer``: the exact
answer).

The arguments (arrays of int64 unless said; seats are the record's, the dealer seat 2):

- ``free`` the hidden cards to shuffle; ``placed[3]`` the hidden cards each location holds for
  certain; ``takes[3]`` how many of ``free`` each location takes (in order: left, right, talon);
- ``loc_seat[3]`` the seat of each location (-1: the talon);
- ``pool[3]`` each seat's cards known to be or have been in its hand since the talon (played,
  given to it, the talon's shown cards kept; at the auction, its hand as dealt when known);
- ``stage`` 0 before the talon is taken (the deal is then what lies where), 1 after;
- ``declarer``, ``viewer``; ``talon`` the talon's cards, or -1 when the viewer never saw it;
- ``gift[3]`` the card each seat received (-2: none, the declarer or before the talon; -1: a
  gift face down the viewer did not see);
- the auction's arrays, ``gs``, ``rules``, ``prm``, ``net``, ``lbuf``: as ``likelihood_nb``;
  ``inv_temperature`` 1 / T (0: every world the certain facts allow weighs the same, uniform
  worlds: only the bids' caps are checked, ``likelihood_nb.auction_possible``; the caller then
  gives every other 1 / T 0 too);
- ``contract`` the final contract to check against the declarer's cap (0: none), ``high`` the
  winning bid;
- ``rows`` the other seats' card decisions before the view's point (``layout.P_*`` rows, as
  ``play_likelihood_nb``; none: shape (0, P_N)), ``played_now[3]`` the cards each seat has played,
  ``shown`` the talon's cards the defenders saw (0: none), ``face_up`` 1 when the gifts lay face
  up, ``card_inv_temperature`` 1 / T_card (0: the cards weigh nothing), ``lidx`` and ``pos`` the
  card net's scratch (``cards_nb.new_learned_buffers``; int64 of P_N);
- the declarer's gifts and final contract (``deal_likelihood_nb``; weighed where the viewer is a
  defender, after the talon): ``last_bid[3]`` each seat's last bid, ``final`` the final contract
  observed (-1 a concession; 0 none to weigh: before it, or a dark or golden contract),
  ``can_concede`` 1 when the declarer could concede, ``cap_limit`` a cap on his contract beside
  his cards' (the barrel's accumulation; a large number when none), ``gift_inv_temperature`` 1 /
  T_gift and ``gift_floor`` the gifts' uniform share, ``contract_inv_temperature`` 1 / T_contract
  (0: the term weighs nothing), ``work`` the solver's work rows (``core_nb.new_work``);
- ``state`` the chunk's generator (``sim.game.rng_nb``); ``scratch`` int64 of at least 39;
- out: ``where[i, 0:3]`` the hidden cards at the left, the right, the talon; ``deal[i, 0:4]`` the
  deal (seats 0..2 as dealt, then the talon); ``logw[i]`` the log-weight.
"""

import numpy as np

from sim.game.bids_nb import contract_cap
from sim.game.bits_nb import lowest_index, popcount
from sim.game.play_nb import givable_cards, nth_card
from sim.game.rng_nb import below, uniform
from sim.numba_config import jit_hot
from sim.players.learned.deal_likelihood_nb import contract_loglik, gift_deal_value, gifts_loglik
from sim.players.learned.likelihood_nb import IMPOSSIBLE, others_loglik, seat_loglik
from sim.players.learned.play_likelihood_nb import plays_loglik, world_hands

NO_GIFT = -2  # gift[s]: the seat received none
HIDDEN_GIFT = -1  # gift[s]: a gift face down the viewer did not see
TALONS = 120  # the talons of a declarer's 10 cards: 10 choose 3
GIFT_SLOTS = 8  # the most cards a defender's gift face down may have been: his 8 after the gifts
SUM_CUTOFF = 20.0  # ``sum_talons``: a world this far (log) below the sweep's best keeps its drawn talon


@jit_hot
def pick(state, mask, k):
    """``k`` cards drawn uniformly from ``mask`` without repeats, as a mask."""
    out = np.int64(0)
    left = mask
    for _ in range(k):
        c = nth_card(left, below(state, popcount(left)))
        out |= np.int64(1) << c
        left &= ~(np.int64(1) << c)
    return out


@jit_hot
def draw_world(state, free, placed, takes, loc_seat, pool, stage, declarer, talon, gift, contract, high, rules, scratch,
               where, deal):
    """One world into ``where[0:3]`` (the hidden cards of each location) and ``deal[0:4]`` (the
    hands as dealt, the talon); returns its log prior weight (``world_deal``)."""
    k = free.size
    for i in range(k):
        scratch[i] = free[i]
    for i in range(k - 1):  # Fisher-Yates: the first takes[0] go left, the next takes[1] right, the rest
        j = i + below(state, k - i)
        t = scratch[i]
        scratch[i] = scratch[j]
        scratch[j] = t
    i = 0
    for loc in range(3):
        m = placed[loc]
        for _ in range(takes[loc]):
            m |= np.int64(1) << scratch[i]
            i += 1
        where[loc] = m
    return world_deal(state, where, loc_seat, pool, stage, declarer, talon, gift, contract, high, rules, -1, deal)


@jit_hot
def world_deal(state, where, loc_seat, pool, stage, declarer, talon, gift, contract, high, rules, slot, deal):
    """The deal as dealt of the world ``where`` into ``deal[0:4]``; returns its log prior weight: 0,
    or IMPOSSIBLE when it breaks a fact the places cannot hold (a defender holding two talon cards
    when one gift was face down, a ``contract`` above the cap of the declarer's 8 cards after the
    talon won with ``high``; ``contract`` 0: none to check). What the view leaves open beyond the
    places is drawn from ``state`` (the talon unseen, a gift face down; nothing else draws). A
    gift face down makes the worlds unequal: a world counts as many deals as the cards that could
    have been the gift (one when the defender holds a talon card the viewer saw: that one), each
    deal dealt alike and each card given alike, so its log weight is the log of that number.
    ``slot`` -1 draws that card; ``slot`` k >= 0 takes the k-th of the cards that could have been
    it instead (IMPOSSIBLE where there are no more than k), one deal of log weight 0: the slots 0
    to GIFT_SLOTS - 1 of a world are its deals, each once (``enumerate_worlds``)."""
    for s in range(3):  # first each seat's cards since the talon (at the auction: as dealt)
        deal[s] = pool[s]
    for loc in range(2):
        deal[loc_seat[loc]] |= where[loc]
    if stage == 0:
        deal[3] = talon if talon >= 0 else where[2]
        return 0.0
    if contract > 0 and contract > contract_cap(deal[declarer], high, rules):
        return IMPOSSIBLE
    prior = 0.0
    # After the talon: each defender's gift leaves his hand as dealt; the declarer's ten cards
    # less the talon are his.
    gifts = np.int64(0)
    for s in range(3):
        if s == declarer:
            continue
        g = gift[s]
        if g == HIDDEN_GIFT:
            # Face down: a talon card he holds (one at most) was it; else one his hand may give.
            choices = deal[s] & talon if talon >= 0 else np.int64(0)
            if popcount(choices) > 1:
                return IMPOSSIBLE
            if choices == 0:
                choices = givable_cards(deal[s], rules)
            k = popcount(choices)
            if slot < 0:
                prior += np.log(k)
                g = nth_card(choices, below(state, k))
            elif slot < k:
                g = nth_card(choices, slot)
            else:
                return IMPOSSIBLE
        bit = np.int64(1) << g
        gifts |= bit
        deal[s] &= ~bit
    ten = deal[declarer] | gifts
    t = talon if talon >= 0 else pick(state, ten, 3)
    deal[declarer] = ten & ~t
    deal[3] = t
    return prior


@jit_hot
def deal_terms_loglik(declarer, deal, gifts, last_bid, final, can_concede, cap_limit, high, gs, rules, prm, net, lbuf,
                      lidx, work, gift_inv_temperature, gift_floor, contract_inv_temperature):
    """The log-likelihood of the declarer's gifts and of his final contract or concession in a
    world (``deal`` its hands as dealt and talon, ``gifts[s]`` the card defender s received, a
    mask): ``deal_likelihood_nb``'s terms, each at its 1 / T (0: that term weighs nothing)."""
    left = (declarer + 1) % 3
    right = (declarer + 2) % 3
    ten = deal[declarer] | deal[3]
    a = lowest_index(gifts[left])
    b = lowest_index(gifts[right])
    total = 0.0
    value = np.int64(0)
    if gift_inv_temperature > 0.0:
        total, value = gifts_loglik(declarer, ten, a, b, high, last_bid, rules, prm, net, lbuf, lidx, work,
                                    gift_inv_temperature, gift_floor,
                                    contract_inv_temperature > 0.0 and final != 0)
        if total == IMPOSSIBLE:
            return IMPOSSIBLE
    if contract_inv_temperature > 0.0 and final != 0:
        if gift_inv_temperature == 0.0:
            value = gift_deal_value(declarer, ten, a, b, high, last_bid, rules, prm, net, lbuf, lidx)
        hand8 = ten & ~gifts[left] & ~gifts[right]
        c = contract_loglik(declarer, hand8, high, cap_limit, can_concede, value, final, gs, rules, prm, net, lbuf,
                            contract_inv_temperature)
        total = IMPOSSIBLE if c == IMPOSSIBLE else total + c
    return total


@jit_hot
def weigh_world(where, deal, total, loc_seat, pool, stage, declarer, viewer, high, call_seat, call_bid, call_high,
                call_high_seat, call_dark, call_free, gs, rules, prm, net, lbuf, inv_temperature, rows, played_now,
                shown, face_up, card_inv_temperature, last_bid, final, can_concede, cap_limit, gift_inv_temperature,
                gift_floor, contract_inv_temperature, lidx, pos, work, scratch):
    """The log-weight of the world ``where`` dealt as ``deal``, whose log prior weight is ``total``
    (``world_deal``): the prior plus the log-likelihood of every term weighed (the module's
    docstring). ``draw_worlds`` writes the same out."""
    cur = scratch[24:27]
    gifts = scratch[27:30]
    known = scratch[30:39]
    others = stage == 1 and viewer != declarer
    if total != IMPOSSIBLE:
        calls = others_loglik(viewer, deal, call_seat, call_bid, call_high, call_high_seat, call_dark, call_free, gs,
                              rules, prm, net, lbuf, inv_temperature)
        total = IMPOSSIBLE if calls == IMPOSSIBLE else total + calls
    weigh_cards = card_inv_temperature > 0.0 and rows.shape[0] > 0
    weigh_deal = others and (gift_inv_temperature > 0.0 or (contract_inv_temperature > 0.0 and final != 0))
    if total != IMPOSSIBLE and (weigh_cards or weigh_deal):
        world_hands(declarer, loc_seat, where, pool, deal, played_now, cur, gifts)
    if total != IMPOSSIBLE and weigh_deal:
        terms = deal_terms_loglik(declarer, deal, gifts, last_bid, final, can_concede, cap_limit, high, gs, rules,
                                  prm, net, lbuf, lidx, work, gift_inv_temperature, gift_floor,
                                  contract_inv_temperature)
        total = IMPOSSIBLE if terms == IMPOSSIBLE else total + terms
    if total != IMPOSSIBLE and weigh_cards:
        cards = plays_loglik(rows, cur, played_now, gifts, shown, face_up, rules, prm, net, lbuf, lidx, pos, known,
                             card_inv_temperature)
        total = IMPOSSIBLE if cards == IMPOSSIBLE else total + cards
    return total


@jit_hot
def draw_worlds(state, n, free, placed, takes, loc_seat, pool, stage, declarer, viewer, talon, gift, contract, high,
                call_seat, call_bid, call_high, call_high_seat, call_dark, call_free, gs, rules, prm, net, lbuf,
                inv_temperature, rows, played_now, shown, face_up, card_inv_temperature, last_bid, final, can_concede,
                cap_limit, gift_inv_temperature, gift_floor, contract_inv_temperature, lidx, pos, work, scratch, where,
                deal, logw):
    """``n`` worlds into rows 0..n-1 of ``where``, ``deal`` and ``logw`` (the module's docstring).
    The loop's body is ``weigh_world``'s, written out: calling it (some 40 arguments a world) made
    the uniform worlds' draw about 10% slower."""
    cur = scratch[24:27]
    gifts = scratch[27:30]
    known = scratch[30:39]
    others = stage == 1 and viewer != declarer
    for i in range(n):
        total = draw_world(state, free, placed, takes, loc_seat, pool, stage, declarer, talon, gift, contract, high,
                           rules, scratch, where[i], deal[i])
        if total != IMPOSSIBLE:
            calls = others_loglik(viewer, deal[i], call_seat, call_bid, call_high, call_high_seat, call_dark,
                                  call_free, gs, rules, prm, net, lbuf, inv_temperature)
            total = IMPOSSIBLE if calls == IMPOSSIBLE else total + calls
        weigh_cards = card_inv_temperature > 0.0 and rows.shape[0] > 0
        weigh_deal = others and (gift_inv_temperature > 0.0 or (contract_inv_temperature > 0.0 and final != 0))
        if total != IMPOSSIBLE and (weigh_cards or weigh_deal):
            world_hands(declarer, loc_seat, where[i], pool, deal[i], played_now, cur, gifts)
        if total != IMPOSSIBLE and weigh_deal:
            terms = deal_terms_loglik(declarer, deal[i], gifts, last_bid, final, can_concede, cap_limit, high, gs,
                                      rules, prm, net, lbuf, lidx, work, gift_inv_temperature, gift_floor,
                                      contract_inv_temperature)
            total = IMPOSSIBLE if terms == IMPOSSIBLE else total + terms
        if total != IMPOSSIBLE and weigh_cards:
            cards = plays_loglik(rows, cur, played_now, gifts, shown, face_up, rules, prm, net, lbuf, lidx, pos, known,
                                 card_inv_temperature)
            total = IMPOSSIBLE if cards == IMPOSSIBLE else total + cards
        logw[i] = total


@jit_hot
def binomial(n, k):
    """n choose k (0 outside 0 <= k <= n), exactly in int64 (n at most 24 here)."""
    if k < 0 or k > n:
        return np.int64(0)
    out = np.int64(1)
    for i in range(min(k, n - k)):
        out = out * (n - i) // (i + 1)
    return out


@jit_hot
def nth_world(index, free, placed, takes, scratch, where):
    """The world number ``index`` of the view's ``binomial(m, takes[0]) * binomial(m - takes[0],
    takes[1])`` (m = free.size), into ``where[0:3]``: the ``index // binomial(m - takes[0],
    takes[1])``-th ``takes[0]``-subset of ``free`` (in the lexicographic order of the
    combinatorial number system) goes left, the remainder's ``takes[1]``-subset of that number's
    rest right, the others to the talon. Each world of the view once as ``index`` runs over the
    count."""
    m = free.size
    inner = binomial(m - takes[0], takes[1])
    rank = (index // inner, index % inner)
    for i in range(m):
        scratch[i] = free[i]
    rest = m
    for loc in range(3):
        where[loc] = placed[loc]
    for loc in range(2):
        r = rank[loc]
        k = takes[loc]
        kept = 0
        for j in range(rest):
            c = scratch[j]
            below_count = binomial(rest - j - 1, k - 1) if k > 0 else np.int64(0)
            if k > 0 and r < below_count:
                where[loc] |= np.int64(1) << c
                k -= 1
            else:
                if k > 0:
                    r -= below_count
                scratch[kept] = c
                kept += 1
        rest = kept
    for j in range(rest):
        where[2] |= np.int64(1) << scratch[j]


@jit_hot
def enumerate_worlds(state, first, n, slots, free, placed, takes, loc_seat, pool, stage, declarer, viewer, talon, gift,
                     contract, high, call_seat, call_bid, call_high, call_high_seat, call_dark, call_free, gs, rules,
                     prm, net, lbuf, inv_temperature, rows, played_now, shown, face_up, card_inv_temperature, last_bid,
                     final, can_concede, cap_limit, gift_inv_temperature, gift_floor, contract_inv_temperature, lidx,
                     pos, work, scratch, where, deal, logw):
    """The worlds number ``first`` .. ``first + n - 1`` of the view into rows 0..n-1 of ``where``,
    ``deal`` and ``logw``, weighed as ``draw_worlds`` weighs a drawn one: world i is placement
    i // ``slots`` (``nth_world``) and, where a gift lay face down (``slots`` GIFT_SLOTS), its
    deal of gift slot i % ``slots`` (``world_deal``; ``slots`` 1: none). A talon the viewer never
    saw is drawn from ``state``; nothing else is."""
    for i in range(n):
        nth_world((first + i) // slots, free, placed, takes, scratch, where[i])
        slot = (first + i) % slots if slots > 1 else -1
        prior = world_deal(state, where[i], loc_seat, pool, stage, declarer, talon, gift, contract, high, rules, slot,
                           deal[i])
        logw[i] = weigh_world(where[i], deal[i], prior, loc_seat, pool, stage, declarer, viewer, high, call_seat,
                              call_bid, call_high, call_high_seat, call_dark, call_free, gs, rules, prm, net, lbuf,
                              inv_temperature, rows, played_now, shown, face_up, card_inv_temperature, last_bid,
                              final, can_concede, cap_limit, gift_inv_temperature, gift_floor,
                              contract_inv_temperature, lidx, pos, work, scratch)


@jit_hot
def declarer_calls(hand, declarer, call_seat, call_bid, call_high, call_high_seat, call_dark, call_free, gs, rules,
                   prm, net, lbuf, inv_temperature, index_in, memo):
    """``likelihood_nb.seat_loglik`` of the declarer holding the 7 cards ``hand``, remembered: ``memo[r]``
    (NaN: not yet known) for the hand of rank r among the 7-card subsets of the cards that may be
    his (``index_in[c]`` card c's place among them, in the combinatorial number system). Every
    world of a sweep reads its declarer's 120 hands; neighbouring worlds share most of them."""
    r = np.int64(0)
    j = 0
    for c in range(24):
        if (hand >> c) & 1:
            j += 1
            r += binomial(index_in[c], j)
    v = memo[r]
    if v != v:
        v = seat_loglik(declarer, hand, call_seat, call_bid, call_high, call_high_seat, call_dark, call_free, gs,
                              rules, prm, net, lbuf, inv_temperature)
        memo[r] = v
    return v


@jit_hot
def sum_talons(state, n, best, declarer, call_seat, call_bid, call_high, call_high_seat, call_dark, call_free, gs,
               rules, prm, net, lbuf, inv_temperature, index_in, memo, talon_loglik, talon_masks, deal, logw):
    """The talon a defender never saw, summed out of rows 0..n-1 of a sweep (``enumerate_worlds``
    weighed with the declarer's calls left out, ``call_free`` marking them not chosen: nothing else
    in a world after the talon reads which 3 of his 10 cards were the talon). Each world's weight
    becomes its weight times the mean over the TALONS talons of the likelihood of the declarer's
    calls holding the other 7 (``call_*`` the auction's arrays with his calls chosen), and its deal
    that of a talon drawn in proportion to that likelihood: the exact weight of the placement, the
    talon drawn from its posterior. A world more than SUM_CUTOFF below ``best`` (the sweep's
    largest log weight before the declarer's calls: its weight, at most e^-20 of the best's, only
    falls with them) keeps the talon it was dealt (``world_deal``'s uniform draw) and the
    likelihood of that one: an unbiased estimate of the mean, for TALONS times less.
    ``index_in`` and ``memo``: ``declarer_calls``'s (one ``memo`` a sweep, shared by its threads:
    a hand's value is the same whoever writes it); ``talon_loglik``, ``talon_masks``: float64 and
    int64 scratch of TALONS."""
    for i in range(n):
        if logw[i] == IMPOSSIBLE:
            continue
        ten = deal[i, declarer] | deal[i, 3]
        if logw[i] < best - SUM_CUTOFF:
            v = declarer_calls(deal[i, declarer], declarer, call_seat, call_bid, call_high, call_high_seat,
                               call_dark, call_free, gs, rules, prm, net, lbuf, inv_temperature, index_in, memo)
            logw[i] = IMPOSSIBLE if v == IMPOSSIBLE else logw[i] + v
            continue
        top = IMPOSSIBLE
        j = 0
        for a in range(24):
            if not (ten >> a) & 1:
                continue
            for b in range(a + 1, 24):
                if not (ten >> b) & 1:
                    continue
                for c in range(b + 1, 24):
                    if not (ten >> c) & 1:
                        continue
                    t = (np.int64(1) << a) | (np.int64(1) << b) | (np.int64(1) << c)
                    v = declarer_calls(ten & ~t, declarer, call_seat, call_bid, call_high, call_high_seat,
                                       call_dark, call_free, gs, rules, prm, net, lbuf, inv_temperature, index_in,
                                       memo)
                    talon_loglik[j] = v
                    talon_masks[j] = t
                    top = max(top, v)
                    j += 1
        if top == IMPOSSIBLE:
            logw[i] = IMPOSSIBLE
            continue
        total = 0.0
        for k in range(j):
            total += np.exp(talon_loglik[k] - top)
        logw[i] += top + np.log(total / j)
        pick_at = uniform(state) * total  # the talon drawn in proportion to its likelihood
        k = 0
        acc = np.exp(talon_loglik[0] - top)
        while acc <= pick_at and k < j - 1:
            k += 1
            acc += np.exp(talon_loglik[k] - top)
        deal[i, declarer] = ten & ~talon_masks[k]
        deal[i, 3] = talon_masks[k]
