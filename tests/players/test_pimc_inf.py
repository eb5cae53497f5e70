"""The pimc-inf player (``sim.players.pimc_inf_nb``) and the auction's record it reads
(``sim.game.auction_layout``, written by ``sim.engine.auction_nb``): the record says what the
engine did, the 7-card hands before the talon are rebuilt from a world as the engine dealt them,
the weights bite (a world the calls rule out is never searched), every weight alike with one
candidate a world is exactly pimc, and the same seed plays the same deals on any thread count."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from sim.engine import BatchSpec, chunk_start, play_chunk
from sim.engine.chunks_nb import run_deals
from sim.engine.schema import (
    D_BID,
    D_BID_TURNS,
    D_DEALER,
    D_DECLARER,
    D_GIFT,
    D_HAND,
    D_REDEAL,
    D_TALON,
    D_WINNING_BID,
    N_DEAL_COLUMNS,
    N_PLAYS,
)
from sim.engine.workspace import W_AUCTION
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
    F_CALLS,
    F_DEALER,
    F_DECLARER,
    F_FACE_UP,
    F_GIFT_LEFT,
    F_GIFT_RIGHT,
    F_SHOWN,
    F_TALON,
    GS_ROWS,
)
from sim.game.bids_nb import bid_range, legal_bid
from sim.game.cards import KING, QUEEN
from sim.game.rng_nb import state_from_seed
from sim.game.rules import HouseRules, preset
from sim.game.state_layout import N_GAME_STATE
from sim.players.learned.cards_nb import new_learned_buffers
from sim.players.params import HeuristicParams, learned_nets, load_player_file, params_matrix
from sim.players.pimc_inf_nb import (
    IB_CHOSEN,
    IB_N_VALUES,
    IB_VALUES,
    OPPONENT_TEMPERATURE,
    new_inference_buffers,
    pimc_inf_choose_card,
    pimc_inf_choose_discard,
    seven_card_hands,
)
from sim.players.pimc_nb import pimc_choose_card, pimc_choose_discard
from sim.players.registry import PlayerError, parse_players
from sim.players.seat_nb import seat_buffers
from sim.runs import run_batch, scan_deals
from sim.solver import dd_values


def _mask(cards) -> int:
    return int(sum(1 << int(c) for c in cards))


def _cards(mask: int) -> list[int]:
    return [c for c in range(24) if mask >> c & 1]


def test_the_record_has_room_for_the_game_state():
    assert GS_ROWS * 24 >= N_GAME_STATE


@pytest.mark.parametrize("rules_name", ["classic", "online", "strict", "polish", "mekedron"])
def test_the_auction_record_says_what_the_engine_did(rules_name):
    """Deal by deal, the record in the workspace agrees with the deal's row: each seat's last bid,
    the winner's bid, the standing bid before each call, every chosen call's range as bid_range
    gives it for the dealt hand, the talon, the gifts and what the defenders saw."""
    rules = preset(rules_name)
    spec = BatchSpec(mode="deals", n=300, seed=5, chunk_size=300, players=("random", "heuristic", "random"),
                     rules=rules)
    start = chunk_start(spec, 0)
    rec = np.zeros((1, N_DEAL_COLUMNS), dtype=np.int32)
    plays = np.zeros((1, N_PLAYS), dtype=np.int8)
    arr = rules.to_array()
    log = start.ws[W_AUCTION:W_AUCTION + AUCTION_ROWS]
    checked = 0
    for i in range(spec.n):
        assert run_deals(start.rng, start.deal_rng, start.rules, start.codes, start.prm, i, 1, rec, plays, start.gs,
                         start.ws, start.no_script, start.solver) == 1
        row = rec[0]
        if row[D_DECLARER] < 0 or row[D_REDEAL] != 0:
            continue
        facts = log[A_FACTS]
        n = int(facts[F_CALLS])
        assert 0 < n and facts[F_DEALER] == row[D_DEALER]
        gs = np.array([log[A_GS + j // 24, j % 24] for j in range(N_GAME_STATE)], dtype=np.int64)
        last = [0, 0, 0]
        high, high_seat, chosen = 0, -1, 0
        for k in range(n):
            c = log[A_CALLS + k]
            seat, call = int(c[C_SEAT]), int(c[C_CALL])
            assert (c[C_HIGH], c[C_HIGH_SEAT]) == (high, high_seat), (i, k)
            if not c[C_FORCED]:
                chosen += 1
                least, cap = bid_range(np.int64(row[D_HAND + seat]), seat, np.int64(high), np.int64(high_seat),
                                       c[C_DARK] != 0, gs, arr)
                assert (c[C_LEAST], c[C_CAP]) == (least, cap), (i, k)
                assert call == 0 or legal_bid(call, least, cap, arr), (i, k)
            if call:
                high, high_seat, last[seat] = call, seat, call
        assert chosen <= row[D_BID_TURNS] <= n
        assert last == [int(row[D_BID + s]) for s in range(3)]
        assert (high_seat, high) == (row[D_DECLARER], row[D_WINNING_BID])
        declarer = int(row[D_DECLARER])
        assert (facts[F_DECLARER], facts[F_TALON]) == (declarer, row[D_TALON])
        assert facts[F_GIFT_LEFT] == row[D_GIFT + (declarer + 1) % 3]
        assert facts[F_GIFT_RIGHT] == row[D_GIFT + (declarer + 2) % 3]
        assert facts[F_FACE_UP] == (0 if rules.discard_face_down else 1)
        assert facts[F_SHOWN] in (0, row[D_TALON])
        checked += 1
    assert checked > 100


def _declared_deals(rules: HouseRules, n: int = 200) -> pl.DataFrame:
    spec = BatchSpec(mode="deals", n=n, seed=9, chunk_size=n, players=("heuristic",) * 3, rules=rules)
    deals, _ = play_chunk(spec, 0)
    return deals.filter((pl.col("redeal") == 0) & (pl.col("declarer") >= 0))


def test_seven_card_hands_are_the_dealt_hands():
    """From a world that is the true deal, split at random into cards held and cards played, the
    7-card hands rebuilt are the dealt ones wherever the viewer knows the gifts and the talon, and
    one of those drawn where he does not (the other defender's gift face down, the talon unseen);
    a drawn rebuild is always the seat's cards less one (a defender) or less three (the declarer)."""
    rng = np.random.default_rng(3)
    state = state_from_seed(3, (1,))
    out = np.zeros(3, dtype=np.int64)
    deals = _declared_deals(HouseRules())
    assert deals.height > 100
    for row in deals.iter_rows(named=True):
        d = row["declarer"]
        left, right = (d + 1) % 3, (d + 2) % 3
        dealt = [row[f"hand{s}"] for s in range(3)]
        talon = row["talon"]
        g = {left: row[f"gift{left}"], right: row[f"gift{right}"]}
        eight = list(dealt)
        eight[d] = (dealt[d] | talon) & ~(1 << g[left]) & ~(1 << g[right])
        eight[left] |= 1 << g[left]
        eight[right] |= 1 << g[right]
        played = [_mask(c for c in _cards(h) if rng.random() < 0.5) for h in eight]
        wh = np.array([h & ~p for h, p in zip(eight, played, strict=True)], dtype=np.int64)
        pb = np.array(played, dtype=np.int64)
        # The declarer, and a defender who saw the talon and both gifts: exact.
        for viewer in (d, left, right):
            assert seven_card_hands(wh, pb, viewer, d, talon, g[left], g[right], True, state, out)
            assert [int(out[q]) for q in range(3) if q != viewer] == [dealt[q] for q in range(3) if q != viewer]
        # The gifts face down: the other defender's gift is drawn; forced when it was a talon card.
        for viewer in (left, right):
            other = right if viewer == left else left
            seen = [g[left], -1] if viewer == left else [-1, g[right]]
            hits = 0
            for _ in range(40):
                assert seven_card_hands(wh, pb, viewer, d, talon, seen[0], seen[1], True, state, out)
                assert out[other] & ~eight[other] == 0 and bin(int(out[other])).count("1") == 7
                if out[other] == dealt[other]:
                    hits += 1
                    assert out[d] == dealt[d]
            assert hits > 0
            if talon >> g[other] & 1:
                assert hits == 40
        # The talon unseen: three of the declarer's ten drawn.
        ten = eight[d] | (1 << g[left]) | (1 << g[right])
        for _ in range(5):
            assert seven_card_hands(wh, pb, left, d, 0, g[left], g[right], True, state, out)
            assert out[d] & ~ten == 0 and bin(int(out[d])).count("1") == 7
            assert (out[left], out[right]) == (dealt[left], dealt[right])
        # Before the gifts (the declarer's discard): the world's hands are the 7-card hands.
        assert seven_card_hands(np.array(dealt, dtype=np.int64), np.zeros(3, dtype=np.int64), d, d, talon, -1, -1,
                                False, state, out)
        assert list(out) == dealt


def _log_with(calls: list[tuple[int, int, int, int]], declarer: int = -1, talon: int = 0) -> np.ndarray:
    """An auction's record of ``calls`` (seat, call, high, high seat), each chosen, from a zero score."""
    log = np.zeros((AUCTION_ROWS, 24), dtype=np.int64)
    log[A_FACTS, :] = -1
    log[A_FACTS, F_CALLS] = len(calls)
    log[A_FACTS, F_DECLARER] = declarer
    log[A_FACTS, F_TALON] = talon
    for k, (seat, call, high, high_seat) in enumerate(calls):
        log[A_CALLS + k, C_SEAT] = seat
        log[A_CALLS + k, C_CALL] = call
        log[A_CALLS + k, C_HIGH] = high
        log[A_CALLS + k, C_HIGH_SEAT] = high_seat
    return log


def _positions(n: int, seed: int) -> list[dict]:
    """First-trick card decisions of random deals (8 cards a seat after the gifts)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        deck = rng.permutation(24)
        hands = np.array([_mask(deck[8 * p:8 * p + 8]) for p in range(3)], dtype=np.int64)
        declarer = int(rng.integers(3))
        out.append({"hands": hands, "declarer": declarer})
    return out


def _card_args(hands, declarer):
    trick = np.zeros(3, dtype=np.int64)
    return (hands, declarer, int(hands[declarer]), trick, 0, declarer, -1, -1, -1, declarer, 0, 0, np.int64(0),
            np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64))


def test_every_weight_alike_and_one_candidate_a_world_is_pimc():
    """With a temperature of infinity (inv_temperature 0) and ``factor`` 1, pimc-inf draws pimc's
    worlds in pimc's order and resamples each once: its card and its discard are pimc's, from the
    same generator state, even where another seat's call would weigh them."""
    rules = HouseRules().to_array()
    prm = params_matrix()
    net, lbuf, _, _ = new_learned_buffers()
    ibuf, lw, mprm = new_inference_buffers()
    buffers = seat_buffers(16)
    for i, p in enumerate(_positions(12, seed=4)):
        d = p["declarer"]
        log = _log_with([((d + 1) % 3, 0, 100, (d + 2) % 3)], declarer=d, talon=_mask(_cards(int(p["hands"][d]))[:3]))
        log[A_FACTS, F_GIFT_LEFT] = _cards(int(p["hands"][(d + 1) % 3]))[0]
        log[A_FACTS, F_GIFT_RIGHT] = _cards(int(p["hands"][(d + 2) % 3]))[0]
        args = _card_args(p["hands"], d)
        want = pimc_choose_card(*args, 20, rules, state_from_seed(i, (7,)), *buffers)
        got = pimc_inf_choose_card(*args[:-1], args[-1], np.zeros(3, dtype=np.int64), np.int64(-1), 20, rules, prm,
                                   state_from_seed(i, (7,)), *buffers, log, net, lbuf, ibuf, lw, mprm, 1, 0.0)
        assert (int(got[0]), bool(got[1])) == (int(want[0]), bool(want[1])), i
    deck_rng = np.random.default_rng(5)
    for i in range(6):
        hand10 = np.int64(_mask(deck_rng.permutation(24)[:10]))
        log = _log_with([(1, 100, 0, -1), (2, 0, 100, 1)], declarer=0)
        want = pimc_choose_discard(hand10, np.int64(0), np.int64(0), 20, rules, state_from_seed(i, (9,)), *buffers)
        got = pimc_inf_choose_discard(0, hand10, np.int64(0), np.int64(0), 20, rules, prm, state_from_seed(i, (9,)),
                                      *buffers, log, net, lbuf, ibuf, lw, mprm, 1, 0.0, False)
        assert tuple(int(x) for x in got) == tuple(int(x) for x in want), i


@pytest.mark.parametrize("inv_temperature", [1.0 / 20.0, 0.0])
def test_a_world_the_calls_rule_out_is_never_searched(inv_temperature):
    """Under classic rules a bid above 120 needs a marriage: the declarer's discard weighs the
    worlds by the calls, and every world it searches gives the seat that bid 130 a marriage among
    his seven cards, which uniform worlds do about a third of the time; with the calls' certain
    part only (temperature 0) too."""
    house = HouseRules()
    rules = house.to_array()
    prm = params_matrix(None, house)
    net = learned_nets(("pimc-inf", "pimc", "pimc"), prm, 3, house)
    _, lbuf, _, _ = new_learned_buffers(net)
    net = np.ascontiguousarray(net, dtype=np.float32)
    ibuf, lw, mprm = new_inference_buffers()
    buffers = seat_buffers(16)
    deck_rng = np.random.default_rng(8)
    worlds = 20
    for i in range(4):
        hand10 = np.int64(_mask(deck_rng.permutation(24)[:10]))
        log = _log_with([(1, 120, 0, -1), (2, 0, 120, 1), (0, 125, 120, 1), (1, 130, 125, 0), (0, 135, 130, 1),
                         (1, 0, 135, 0)], declarer=0)
        pimc_inf_choose_discard(0, hand10, np.int64(0), np.int64(0), worlds, rules, prm, state_from_seed(i, (9,)),
                                *buffers, log, net, lbuf, ibuf, lw, mprm, 10, inv_temperature, False)
        n_cand = 6
        for w in range(n_cand + worlds):
            hand = int(ibuf[IB_CHOSEN + 3 * w + 1])  # the seat after the declarer: seat 1
            assert hand & ~int(hand10) == hand and bin(hand).count("1") == 7
            assert any(hand >> (6 * s + KING) & 1 and hand >> (6 * s + QUEEN) & 1 for s in range(4)), (i, w)


def test_pimc_inf_plays_three_and_four_players_only():
    with pytest.raises(PlayerError, match="pimc-inf plays 3 and 4 players"):
        parse_players("pimc-inf,heuristic", n=2)
    assert parse_players("pimc-inf") == ("pimc-inf",) * 3


def test_same_seed_same_deals_whatever_the_workers(tmp_path):
    spec = BatchSpec(mode="deals", n=6, seed=17, chunk_size=2, players=("pimc-inf", "pimc", "heuristic"))
    run_batch(spec, tmp_path / "one", workers=1)
    run_batch(spec, tmp_path / "two", workers=2)
    deals_one = scan_deals(tmp_path / "one").collect().sort("game", "deal")
    deals_two = scan_deals(tmp_path / "two").collect().sort("game", "deal")
    assert deals_one.height == 6 and deals_one.equals(deals_two)


def test_a_raised_contract_rules_out_worlds_where_the_declarer_could_not_raise():
    """The final contract is public: a defender's worlds in which the declarer's eight cards after
    the gifts hold no marriage cannot be, when he raised his 100 to 130 (classic: a cap of 120
    without one), whatever the temperature."""
    house = HouseRules()
    rules = house.to_array()
    prm = params_matrix(None, house)
    net, lbuf, _, _ = new_learned_buffers()
    ibuf, lw, mprm = new_inference_buffers()
    buffers = seat_buffers(16)
    rng = np.random.default_rng(12)
    tested = 0
    while tested < 6:
        deck = rng.permutation(24)
        hands = np.array([_mask(deck[8 * p:8 * p + 8]) for p in range(3)], dtype=np.int64)
        d, left, right = 0, 1, 2
        lead = _cards(int(hands[d]))[0]
        hands[d] &= ~(1 << lead)
        legal = int(hands[left]) & (0b111111 << (6 * (lead // 6))) or int(hands[left])
        if not legal & (legal - 1):
            continue
        log = _log_with([(d, 100, 0, -1), (left, 0, 100, d), (right, 0, 100, d)], declarer=d)
        log[A_FACTS, F_SHOWN] = 0
        played_by = np.array([1 << lead, 0, 0], dtype=np.int64)
        trick = np.array([lead, 0, 0], dtype=np.int64)
        pimc_inf_choose_card(hands, left, legal, trick, 1, d, -1, -1, -1, d, 0, 0, np.int64(1 << lead),
                             np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64), played_by, np.int64(130), 8,
                             rules, prm, state_from_seed(tested, (7,)), *buffers, log, net, lbuf, ibuf, lw, mprm, 10,
                             0.0)
        for w in range(8):
            eight = int(ibuf[IB_CHOSEN + 3 * w + d]) | (1 << lead)
            assert bin(eight).count("1") == 8
            assert any(eight >> (6 * s + KING) & 1 and eight >> (6 * s + QUEEN) & 1 for s in range(4)), (tested, w)
        tested += 1


def test_a_player_file_sets_the_temperature_and_the_candidates(tmp_path):
    good = tmp_path / "warm.toml"
    good.write_text('player = "pimc-inf"\ninference_temperature = 40\ninference_candidates = 4\n')
    kind, params = load_player_file(good, 3)
    assert kind == "pimc-inf" and (params.inference_temperature, params.inference_candidates) == (40.0, 4.0)
    assert HeuristicParams().inference_temperature == OPPONENT_TEMPERATURE
    for line, message in (("inference_candidates = 0", "inference_candidates must be from 1"),
                          ("inference_candidates = 2.5", "inference_candidates is a count"),
                          ("inference_temperature = -1", "inference_temperature must be at least 0")):
        bad = tmp_path / "bad.toml"
        bad.write_text(f'player = "pimc-inf"\n{line}\n')
        with pytest.raises(PlayerError, match=message):
            load_player_file(bad, 3)


def test_the_discard_values_are_its_gifts_exact_values():
    """With the worlds' rule the discard keeps, for each of the 20 worlds it scored, the exact
    double-dummy value of the gifts it chose (the declarer leads, his points), and chooses the gifts
    it chooses without."""
    house = HouseRules()
    rules = house.to_array()
    prm = params_matrix(None, house)
    net = learned_nets(("pimc-inf", "pimc", "pimc"), prm, 3, house)
    _, lbuf, _, _ = new_learned_buffers(net)
    net = np.ascontiguousarray(net, dtype=np.float32)
    ibuf, lw, mprm = new_inference_buffers()
    buffers = seat_buffers(16)
    deck_rng = np.random.default_rng(3)
    worlds = 20
    for i in range(3):
        hand10 = np.int64(_mask(deck_rng.permutation(24)[:10]))
        log = _log_with([(1, 110, 0, -1), (2, 0, 110, 1), (0, 0, 110, 1)], declarer=0)
        args = (0, hand10, np.int64(0), np.int64(0), worlds, rules, prm)
        plain = pimc_inf_choose_discard(*args, state_from_seed(i, (9,)), *buffers, log, net, lbuf, ibuf, lw, mprm,
                                        10, 1.0 / 20.0, False)
        assert ibuf[IB_N_VALUES] == 0
        got = pimc_inf_choose_discard(*args, state_from_seed(i, (9,)), *buffers, log, net, lbuf, ibuf, lw, mprm,
                                      10, 1.0 / 20.0, True)
        assert tuple(int(x) for x in got) == tuple(int(x) for x in plain), i
        assert ibuf[IB_N_VALUES] == worlds
        g1, g2 = int(got[0]), int(got[1])
        first = IB_CHOSEN + 3 * 6  # the scoring worlds follow the 6 candidates' worlds
        hands = np.array([[int(hand10) & ~(1 << g1) & ~(1 << g2), int(ibuf[first + 3 * w + 1]) | 1 << g1,
                           int(ibuf[first + 3 * w + 2]) | 1 << g2] for w in range(worlds)], dtype=np.int64)
        want = dd_values(hands, leader=0, rules=house, threads=1)
        assert [int(v) for v in ibuf[IB_VALUES:IB_VALUES + worlds]] == [int(v) for v in want], i
