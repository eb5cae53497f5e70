"""The chunk kernels the runners call: ``run_deals`` (independent deals from a zero score),
``run_games`` (whole games, resumable across buffer refills) and ``run_bare_playouts`` (the
benchmark's baseline). The first two pick the kernel of the game's player count (``run_games3``,
``run_games4``, ``run_games2``, ...), each playing its count's deal only (``deal_and_play3``, ...),
so that a run compiles the deals of its own player count and no other.
"""

import numpy as np

from sim.engine.deal_nb import deal_cards
from sim.engine.deals_nb import deal_and_play2, deal_and_play3, deal_and_play4
from sim.engine.enums import ILLEGAL, REDEAL
from sim.engine.schema import D_DEAL, D_GAME, GAME_STATE_TO_RECORD
from sim.engine.workspace import W_DECK, W_HANDS
from sim.game import rules_layout as R
from sim.game.bits_nb import popcount
from sim.game.cards import CARD_POINTS
from sim.game.play_nb import beats, legal_follows, nth_card
from sim.game.rng_nb import below
from sim.game.state_layout import (
    G_DEALER,
    G_DEALS,
    G_FIRST_DEALER,
    G_GOLDEN_LEFT,
    G_GOLDEN_ROUNDS,
    G_ON_BARREL,
    G_WINNER,
)
from sim.numba_config import jit_hot, jit_inline


@jit_inline
def deals_loop(deal_and_play, rng, deal_rng, rules, codes, prm, first_id, n, rec, plays, gs, ws, script, solver):
    """``n`` independent deals, each from a zero score with a random dealer, each played by
    ``deal_and_play`` (``deal_and_play3``, 4 or 2: the game's player count). ``gs`` and ``ws`` are
    scratch (``new_game_state``, ``new_workspace``). Returns the number of rows written (``n``), or
    ILLEGAL."""
    n_players = rules[R.PLAYERS]
    for i in range(n):
        gs[:] = 0
        dealer = below(deal_rng, n_players)
        rec[i, D_GAME] = first_id + i
        rec[i, D_DEAL] = 0
        if deal_and_play(rng, deal_rng, rules, codes, prm, gs, dealer, ws, rec, i, plays, script,
                         solver) == ILLEGAL:
            return ILLEGAL
    return n


@jit_inline
def games_loop(deal_and_play, rng, deal_rng, rules, codes, prm, gs, first_id, n_games, max_deals, rec, plays, grec,
               done, ws, script, solver):
    """Play whole games until ``n_games`` are finished or the deal buffer is full, each deal by
    ``deal_and_play`` (the game's player count). The game in progress lives in ``gs``, so a call with
    fresh buffers resumes it. ``done[0]`` counts finished games (also the row of ``grec`` written
    next); ``ws`` is scratch. Returns deal rows written, or ILLEGAL."""
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
        status = deal_and_play(rng, deal_rng, rules, codes, prm, gs, gs[G_DEALER], ws, rec, row, plays, script,
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


# One kernel per player count, each compiling only the deal of its count: a first run of the
# 3-player game does not compile the 2- and 4-player deals (docs/compiling.md).
@jit_hot
def run_deals3(rng, deal_rng, rules, codes, prm, first_id, n, rec, plays, gs, ws, script, solver):
    return deals_loop(deal_and_play3, rng, deal_rng, rules, codes, prm, first_id, n, rec, plays, gs, ws, script,
                      solver)


@jit_hot
def run_deals4(rng, deal_rng, rules, codes, prm, first_id, n, rec, plays, gs, ws, script, solver):
    return deals_loop(deal_and_play4, rng, deal_rng, rules, codes, prm, first_id, n, rec, plays, gs, ws, script,
                      solver)


@jit_hot
def run_deals2(rng, deal_rng, rules, codes, prm, first_id, n, rec, plays, gs, ws, script, solver):
    return deals_loop(deal_and_play2, rng, deal_rng, rules, codes, prm, first_id, n, rec, plays, gs, ws, script,
                      solver)


@jit_hot
def run_games3(rng, deal_rng, rules, codes, prm, gs, first_id, n_games, max_deals, rec, plays, grec, done, ws, script,
               solver):
    return games_loop(deal_and_play3, rng, deal_rng, rules, codes, prm, gs, first_id, n_games, max_deals, rec, plays,
                      grec, done, ws, script, solver)


@jit_hot
def run_games4(rng, deal_rng, rules, codes, prm, gs, first_id, n_games, max_deals, rec, plays, grec, done, ws, script,
               solver):
    return games_loop(deal_and_play4, rng, deal_rng, rules, codes, prm, gs, first_id, n_games, max_deals, rec, plays,
                      grec, done, ws, script, solver)


@jit_hot
def run_games2(rng, deal_rng, rules, codes, prm, gs, first_id, n_games, max_deals, rec, plays, grec, done, ws, script,
               solver):
    return games_loop(deal_and_play2, rng, deal_rng, rules, codes, prm, gs, first_id, n_games, max_deals, rec, plays,
                      grec, done, ws, script, solver)


_RUN_DEALS = {3: run_deals3, 4: run_deals4, 2: run_deals2}
_RUN_GAMES = {3: run_games3, 4: run_games4, 2: run_games2}


def run_deals(rng, deal_rng, rules, codes, prm, first_id, n, rec, plays, gs, ws, script, solver):
    """``n`` independent deals, each from a zero score with a random dealer (``deals_loop``), by
    the kernel of the game's player count (``rules[R.PLAYERS]``). Returns the number of rows
    written (``n``), or ILLEGAL."""
    return _RUN_DEALS[int(rules[R.PLAYERS])](rng, deal_rng, rules, codes, prm, first_id, n, rec, plays, gs, ws,
                                              script, solver)


def run_games(rng, deal_rng, rules, codes, prm, gs, first_id, n_games, max_deals, rec, plays, grec, done, ws, script,
              solver):
    """Whole games (``games_loop``) by the kernel of the game's player count (``rules[R.PLAYERS]``):
    resumable across buffer refills. Returns deal rows written, or ILLEGAL."""
    return _RUN_GAMES[int(rules[R.PLAYERS])](rng, deal_rng, rules, codes, prm, gs, first_id, n_games, max_deals, rec,
                                              plays, grec, done, ws, script, solver)


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
