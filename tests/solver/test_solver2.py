"""The two-player double-dummy solver (sim/solver/search2_nb.py, the drivers of drivers_nb.py for two
seats), DD player and PIMC player (sim/players) against the brute force of tests/reference_solver.py
(``solve2``, ``move_values2``), and their API.

Default run: random positions of 1–5 cards per hand under every play option (alone and mixed),
mid-trick choices, discards of small hands against every discard, one full deal per discard
variant, and the PIMC player's legality, reproducibility and full-knowledge play. ``--runslow``
adds larger sweeps, full 10-card deals against the brute force and more whole deals.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
import reference_solver as ref
from test_solver import (
    OPTION_SETS,
    TIMING_OPTIONS,
    declaring_position,
    play_rules,
    random_options,
    random_position,
    solver_kw,
)

from analysis.present.solve import solved_layout_lines
from sim import solver
from sim.game.cards import CARD_POINTS, parse_hand
from sim.game.play_nb import givable_cards
from sim.game.rng_nb import state_from_seed
from sim.game.rules import HouseRules
from sim.players import dd_nb, pimc2_nb
from sim.players.pimc_nb import new_pimc_buffer
from sim.solver import core_nb, discard_nb, drivers_nb, search2_nb


def points(mask: int) -> int:
    return sum(int(CARD_POINTS[c]) for c in range(24) if mask >> c & 1)


def card_mask(cards) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


def ref_kw(pos: dict, options: dict) -> dict:
    return {"leader": pos["leader"], "trump": pos["trump"], "owner": pos["owner"], "won": pos["won"],
            "unsecured": pos["unsecured"], "last_bonus": pos["bonus"], "rules": play_rules(options)}


def check_against_reference(rng: random.Random, options: dict, sizes: dict[int, int]) -> None:
    positions = [random_position(rng, n, options, 2) for n, count in sizes.items() for _ in range(count)]
    hands = np.array([p["hands"] for p in positions], dtype=np.int64)
    cols = {
        "leader": np.array([p["leader"] for p in positions]),
        "trump": np.array([p["trump"] for p in positions]),
        "won": np.array([sum(1 << s for s in p["won"]) for p in positions]),
        "trump_owner": np.array([p["owner"] for p in positions]),
        "unsecured": np.array([p["unsecured"] for p in positions]),
        "last_bonus": np.array([p["bonus"] for p in positions]),
        "rules": HouseRules.from_dict(options),
    }
    values = solver.dd_values(hands, **cols)
    expected = [ref.solve2(p["hands"], **ref_kw(p, options)) for p in positions]
    bad = [(p, v, e) for p, v, e in zip(positions, values, expected, strict=True) if v != e]
    assert not bad, f"{len(bad)} of {len(positions)} differ, e.g. {bad[0]}"
    for delta in (0, 1, -5):
        targets = np.array(expected) + delta
        assert (solver.dd_at_least(hands, targets, **cols) == (np.array(expected) >= targets)).all()


@pytest.fixture(scope="session")
def compiled2():
    """Compile the two-seat kernels once (a tiny solve through every entry point)."""
    h = np.array([[0b11, 0b11 << 6]])
    solver.dd_values(h, last_bonus=3)
    solver.dd_at_least(h, [1])
    solver.lead_values(h[0])
    solver.principal_variation(h[0])
    return True


# ---- agreement with the brute force ----------------------------------------------------------------
@pytest.mark.parametrize("name", list(OPTION_SETS))
def test_values_match_brute_force_per_option(compiled2, name):
    rng = random.Random(f"two seats {name}")
    check_against_reference(rng, OPTION_SETS[name], {1: 20, 2: 30, 3: 30, 4: 25, 5: 10})


def test_values_match_brute_force_mixed_options(compiled2):
    rng = random.Random("two seats mixed")
    for _ in range(40):
        check_against_reference(rng, random_options(rng), {2: 3, 3: 4, 4: 4, 5: 1})


@pytest.mark.parametrize("options", TIMING_OPTIONS)
def test_marriage_timing_positions_match_brute_force(compiled2, options):
    """Two-seat positions where the timing options decide (a marriage on lead under another trump,
    the other seat often void in its suit): the solver agrees with the brute force, and the option
    changes a good share of the values."""
    rng = random.Random(f"two seats timing {sorted(options.items())}")
    positions = []
    for _ in range(100):
        p = declaring_position(rng, rng.randint(2, 6), seats=2)
        p["bonus"] = rng.choice([0, 0, 10, 21])
        positions.append(p)
    hands = np.array([p["hands"] for p in positions], dtype=np.int64)
    values = solver.dd_values(hands, leader=np.array([p["leader"] for p in positions]),
                              trump=np.array([p["trump"] for p in positions]),
                              won=np.array([sum(1 << s for s in p["won"]) for p in positions]),
                              trump_owner=np.array([p["owner"] for p in positions]),
                              last_bonus=np.array([p["bonus"] for p in positions]), rules=HouseRules.from_dict(options))
    expected = [ref.solve2(p["hands"], **ref_kw(p, options)) for p in positions]
    assert list(values) == expected
    base = {k: v for k, v in options.items() if k not in ("marriage_trump_from", "marriage_min_cards")}
    changed = sum(e != ref.solve2(p["hands"], **ref_kw(p, base)) for p, e in zip(positions, expected, strict=True))
    assert changed >= 10, f"the option changes only {changed} of {len(positions)} values"


@pytest.mark.slow
@pytest.mark.parametrize("name", list(OPTION_SETS))
def test_values_match_brute_force_per_option_large(compiled2, name):
    rng = random.Random(f"two seats large {name}")
    check_against_reference(rng, OPTION_SETS[name], {5: 100, 6: 60, 7: 20})


@pytest.mark.slow
def test_values_match_brute_force_mixed_options_large(compiled2):
    rng = random.Random("two seats mixed large")
    for _ in range(150):
        check_against_reference(rng, random_options(rng), {4: 4, 5: 4, 6: 2})


@pytest.mark.slow
@pytest.mark.parametrize("name", ["classic", "must_head", "marriage_burns_without_trick", "marriage_optional",
                                  "half_marriage", "no_lead_foreign_trump", "must_lead_trump"])
def test_full_deals_match_brute_force(compiled2, name):
    """Whole 10-card deals as the play starts (declarer on lead, no trump, no trick won, the other
    talon's points as the bonus) and from later states."""
    rng = random.Random(f"two seats full {name}")
    options = OPTION_SETS[name]
    for i in range(2):
        deck = list(range(24))
        rng.shuffle(deck)
        pos = {"hands": [sum(1 << c for c in deck[:10]), sum(1 << c for c in deck[10:20])], "leader": 0,
               "trump": -1, "owner": -1, "won": (), "unsecured": 0, "bonus": points(sum(1 << c for c in deck[22:]))}
        if i:
            pos.update(leader=1, trump=rng.randrange(4), owner=1, won=(0, 1))
        got = solver.dd_values(np.array([pos["hands"]]), **solver_kw(pos, options))[0]
        assert got == ref.solve2(pos["hands"], **ref_kw(pos, options))


def test_table_keeps_positions_with_other_bonus_or_won_bit_apart(compiled2):
    """Within a search the bonus never changes and the leader has always won a trick, so only roots
    differ in them: solved one after the other in one table generation, each keeps its own value."""
    st, work = core_nb.new_work()
    tt = core_nb.new_table(12)
    arr = HouseRules().to_array()
    h0 = sum(1 << c for c in (21, 20, 18))  # KH QH 9H: 9, 29 with the bonus, 109 when he may declare at once
    h1 = sum(1 << c for c in (0, 6, 19))  # 9S 9C JH
    roots = [(0, 0), (0, 20), (1, 0)]  # (declarer's won bit, bonus)

    def value(won, bonus):
        search2_nb.set_position2(st, h0, h1, 0, -1, -1, won, 0, bonus)
        return drivers_nb.exact_value2(st, arr, tt, work, 0)

    fresh = []
    for won, bonus in roots:
        core_nb.next_stamp(st, tt)
        fresh.append(value(won, bonus))
    assert fresh == [ref.solve2([h0, h1], won=(0,) * won, last_bonus=bonus) for won, bonus in roots]
    assert len(set(fresh)) == 3
    core_nb.next_stamp(st, tt)
    assert [value(won, bonus) for won, bonus in roots] == fresh


# Ten declaring cards (four aces and three marriages) under marriage_optional: 20 moves at the lead,
# the longest move list (core_nb.MAX_MOVES). Value by reference_solver.solve2 (about 8 s).
MOST_MOVES = {"hands": ["AS AC AD AH KS QS KC QC KD QD", "TS JS 9S TC JC 9C TD JD 9D TH"], "won": (0,),
              "last_bonus": 7, "options": {"marriage_optional": True, "ace_marriage": 200}, "value": 458}


def test_twenty_moves_fit_the_move_rows(compiled2):
    hands = [parse_hand(h) for h in MOST_MOVES["hands"]]
    kw = {"won": MOST_MOVES["won"], "last_bonus": MOST_MOVES["last_bonus"],
          "rules": HouseRules.from_dict(MOST_MOVES["options"])}
    st, work = core_nb.new_work()
    search2_nb.set_position2(st, hands[0], hands[1], 0, -1, -1, 1, 0, MOST_MOVES["last_bonus"])
    assert search2_nb.generate_moves2(st, kw["rules"].to_array(), work, False) == 20 == core_nb.MAX_MOVES
    assert solver.dd_values(np.array([hands]), **kw)[0] == MOST_MOVES["value"]
    assert max(solver.lead_values(np.array(hands), **kw).values()) == MOST_MOVES["value"]


@pytest.mark.slow
def test_twenty_moves_value_is_the_brute_force():
    hands = [parse_hand(h) for h in MOST_MOVES["hands"]]
    assert ref.solve2(hands, won=MOST_MOVES["won"], last_bonus=MOST_MOVES["last_bonus"],
                      rules=play_rules(MOST_MOVES["options"])) == MOST_MOVES["value"]


# ---- per-card values, principal variation, the DD player -----------------------------------------
def test_lead_values_match_the_brute_force(compiled2):
    rng = random.Random("two seats leads")
    for i in range(60):
        options = random_options(rng) if i % 2 else {}
        pos = random_position(rng, rng.randint(1, 5), options, 2)
        got = solver.lead_values(np.array(pos["hands"]), **solver_kw(pos, options))
        want: dict[int, int] = {}
        pick = max if pos["leader"] == 0 else min
        for (card, _), v in ref.move_values2(pos["hands"], **ref_kw(pos, options)).items():
            want[card] = pick(want.get(card, v), v)
        assert got == want


def random_choice(rng: random.Random, options: dict) -> dict:
    """A position of 1..5 cards in which, half the time, a random legal lead is on the table (it
    declares when it may, under marriage_optional only sometimes). Returns the position, the
    reference's arguments with the trump and unsecured points in force, the hands without the led
    card, the trick, the solver seat to play and the brute-force value of each of his moves."""
    pr = play_rules(options)
    pos = random_position(rng, rng.randint(1, 5), options, 2)
    kw = ref_kw(pos, options)
    leader = pos["leader"]
    masks = list(pos["hands"])
    trick = ()
    if rng.random() < 0.5:
        hand = ref.cards_of(masks[leader])
        card = rng.choice(sorted(ref._leads(hand, leader, pos["trump"], pos["owner"], pr)))
        decl = ref._declaration(hand, card, pr)
        may = decl and ref._may_declare(hand, leader, pos["won"], pr)
        if may and not (pr.marriage_optional and rng.random() < 0.5):
            val, changes = decl
            if changes:
                trump, owner, pending = ref._set_trump(kw["trump"], kw["owner"], -1, card[0], leader, pr)
                kw.update(trump=trump, owner=owner, pending=pending)
            if leader == 0 and pr.marriage_burns_without_trick and 0 not in pos["won"]:
                kw["unsecured"] += val
        masks[leader] &= ~(1 << ref.card_index(card))
        trick = (ref.card_index(card),)
    moves = ref.move_values2(masks, trick=trick, **kw)
    return {"pos": pos, "kw": kw, "masks": masks, "trick": trick, "seat": (leader + len(trick)) % 2,
            "moves": moves, "legal": card_mask(c for c, _ in moves),
            "best": (max if (leader + len(trick)) % 2 == 0 else min)(moves.values())}


def engine_args(ch: dict, declarer: int) -> tuple:
    """(hands, seat, legal, trick, n_in_trick, leader, trump, trump_owner, pending, declarer, won,
    unsecured) of a choice point in engine seats, solver seat s sitting at engine seat s ^ declarer."""
    kw, trick = ch["kw"], ch["trick"]
    return (np.array([ch["masks"][declarer], ch["masks"][declarer ^ 1]], dtype=np.int64), ch["seat"] ^ declarer,
            ch["legal"], np.array(trick + (0,) * (2 - len(trick)), dtype=np.int64), len(trick),
            kw["leader"] ^ declarer, kw["trump"], -1 if kw["owner"] < 0 else kw["owner"] ^ declarer,
            kw.get("pending", -1), declarer, sum(1 << (s ^ declarer) for s in kw["won"]), kw["unsecured"])


def test_dd_player_plays_a_best_move(compiled2):
    """From random positions with 0 or 1 card on the table, the declarer at either engine seat: the
    chosen move is legal and its brute-force value is the position's value."""
    rng = random.Random("two seats player")
    st, work = core_nb.new_work()
    tt = core_nb.new_table(14)
    for i in range(200):
        options = random_options(rng) if i % 2 else {}
        ch = random_choice(rng, options)
        card, declare = dd_nb.dd2_choose_card(*engine_args(ch, rng.randrange(2)), ch["pos"]["bonus"],
                                              HouseRules.from_dict(options).to_array(), st, work, tt)
        assert ch["moves"][(card, bool(declare))] == ch["best"]


# ---- discards ------------------------------------------------------------------------------------------
def brute_force_discard(hand: int, defender: int, other: int, to_talon: bool, givable: int, rules) -> int:
    """Best value over every discard (b1 < b2 buried, t any other givable card to the talon)."""
    cards = [c for c in range(24) if givable >> c & 1]
    best = -1
    for b1, b2 in itertools.combinations(cards, 2):
        for t in ([c for c in cards if c not in (b1, b2)] if to_talon else [None]):
            gone = 1 << b1 | 1 << b2 | (1 << t if t is not None else 0)
            bonus = points(other) + (points(1 << t) if t is not None else 0)
            v = points(1 << b1 | 1 << b2) + ref.solve2([hand & ~gone, defender], last_bonus=bonus, rules=rules)
            best = max(best, v)
    return best


@pytest.mark.parametrize("to_talon", [False, True])
def test_best_discard_of_small_hands_is_the_best_of_all(compiled2, to_talon):
    """Small hands (the kernel takes any sizes): n + 2 (+ 1) cards for the declarer, n for the
    defender, 2 (3) in the other talon; every discard by brute force, with the givable cards
    restricted by no_aces_tens_in_discard or at random."""
    rng = random.Random(f"two seats discard {to_talon}")
    st, work = core_nb.new_work()
    tt = core_nb.new_table(14)
    for i in range(24):
        options = random_options(rng) if i % 3 else {}
        rules = HouseRules.from_dict({**options, "no_aces_tens_in_discard": i % 4 == 1})
        arr = rules.to_array()
        n = rng.randint(1, 3) if to_talon else rng.randint(1, 4)
        extra = 3 if to_talon else 2
        deck = list(range(24))
        rng.shuffle(deck)
        hand = sum(1 << c for c in deck[:n + extra])
        defender = sum(1 << c for c in deck[n + extra:2 * n + extra])
        other = sum(1 << c for c in deck[2 * n + extra:2 * n + 2 * extra - 1]) if to_talon else \
            sum(1 << c for c in deck[2 * n + extra:2 * n + extra + 2])
        givable = int(givable_cards(hand, arr))
        if i % 4 == 3:  # a random restriction leaving enough cards
            cards = [c for c in range(24) if givable >> c & 1]
            givable = sum(1 << c for c in rng.sample(cards, rng.randint(extra, len(cards))))
        if bin(givable).count("1") < extra:
            continue
        b1, b2, t, value = discard_nb.best_discard2(hand, defender, other, to_talon, givable, arr, st, work, tt)
        assert value == brute_force_discard(hand, defender, other, to_talon, givable, play_rules(options))
        assert b1 < b2 and givable >> b1 & 1 and givable >> b2 & 1
        if to_talon:
            assert t not in (b1, b2) and givable >> t & 1
        else:
            assert t == -1
        gone = 1 << b1 | 1 << b2 | (1 << t if t >= 0 else 0)
        bonus = points(other) + (points(1 << t) if t >= 0 else 0)
        assert points(1 << b1 | 1 << b2) + ref.solve2([hand & ~gone, defender], last_bonus=bonus,
                                                      rules=play_rules(options)) == value


def full_discard_check(rng: np.random.Generator, to_talon: bool, options: dict) -> None:
    """best_discard2 on a whole deal equals the best compiled value over every discard (every t)."""
    rules = HouseRules.from_dict(options)
    deck = [int(c) for c in rng.permutation(24)]
    n = 9 if to_talon else 10
    hand12, defender, other = (sum(1 << c for c in deck[:12]), sum(1 << c for c in deck[12:12 + n]),
                               sum(1 << c for c in deck[12 + n:]))
    b1, b2, t, value = solver.best_discard2(hand12, defender, other, rules=rules)
    givable = int(givable_cards(hand12, rules.to_array()))
    cards = [c for c in range(24) if givable >> c & 1]
    rows, extra = [], []
    for x, y in itertools.combinations(cards, 2):
        for z in ([c for c in cards if c not in (x, y)] if to_talon else [None]):
            gone = 1 << x | 1 << y | (1 << z if z is not None else 0)
            rows.append([hand12 & ~gone, defender])
            extra.append((points(1 << x | 1 << y), points(other) + (points(1 << z) if z is not None else 0)))
    bonus = np.array([e[1] for e in extra])
    values = solver.dd_values(np.array(rows), last_bonus=bonus, rules=rules) + np.array([e[0] for e in extra])
    assert value == values.max()
    assert (t is None) == (not to_talon)
    gone = 1 << b1 | 1 << b2 | (1 << t if t is not None else 0)
    bonus_t = points(other) + (points(1 << t) if t is not None else 0)
    assert points(1 << b1 | 1 << b2) + solver.dd_values(np.array([[hand12 & ~gone, defender]]), last_bonus=bonus_t,
                                                        rules=rules)[0] == value


@pytest.mark.parametrize("to_talon", [False, True])
def test_best_discard_of_a_deal_is_the_best_of_all(compiled2, to_talon):
    full_discard_check(np.random.default_rng(21), to_talon, {"no_aces_tens_in_discard": True})


@pytest.mark.slow
@pytest.mark.parametrize("to_talon", [False, True])
def test_best_discard_of_deals_is_the_best_of_all_large(compiled2, to_talon):
    rng = np.random.default_rng(22)
    prng = random.Random(f"two seats discard deals {to_talon}")
    for i in range(6):
        full_discard_check(rng, to_talon, random_options(prng) if i % 2 else {})


def self_play(deck: list[int], to_talon: bool, declarer: int, options: dict, st, work, tt) -> tuple[int, int]:
    """A whole deal, both seats played by the DD player from the DD discard: (points the declarer
    scores, the value best_discard2 promised)."""
    rules = HouseRules.from_dict(options)
    arr = rules.to_array()
    pr = play_rules(options)
    n = 9 if to_talon else 10
    hand12, defender, other = (sum(1 << c for c in deck[:12]), sum(1 << c for c in deck[12:12 + n]),
                               sum(1 << c for c in deck[12 + n:]))
    b1, b2, t, promised = discard_nb.best_discard2(hand12, defender, other, to_talon, givable_cards(hand12, arr), arr,
                                                   st, work, tt)
    gone = 1 << b1 | 1 << b2 | (1 << t if t >= 0 else 0)
    bonus = points(other) + (points(1 << t) if t >= 0 else 0)
    hands = np.zeros(2, dtype=np.int64)
    hands[declarer] = hand12 & ~gone
    hands[declarer ^ 1] = defender
    total = points(1 << b1 | 1 << b2)
    leader, trump, owner, won, unsecured = declarer, -1, -1, 0, 0
    while hands[0]:
        trick = np.zeros(2, dtype=np.int64)
        cards = ()
        pending = -1
        for k in range(2):
            p = leader ^ k
            hand = ref.cards_of(int(hands[p]))
            legal = ref._leads(hand, p, trump, owner, pr) if k == 0 else ref._follows(hand, cards, trump, pr.must_head)
            legal_mask = sum(1 << ref.card_index(c) for c in legal)
            c, declare = dd_nb.dd2_choose_card(hands, p, legal_mask, trick, k, leader, trump, owner, pending, declarer,
                                               won, unsecured, bonus, arr, st, work, tt)
            assert legal_mask >> c & 1
            if declare:
                assert k == 0 and ref._may_declare(hand, p, {s for s in range(2) if won >> s & 1}, pr)
                val, changes = ref._declaration(hand, (c // 6, c % 6), pr)
                if changes:
                    trump, owner, pending = ref._set_trump(trump, owner, pending, c // 6, p, pr)
                if p == declarer:
                    if pr.marriage_burns_without_trick and not won >> declarer & 1:
                        unsecured += val
                    else:
                        total += val
            trick[k] = c
            cards += ((c // 6, c % 6),)
            hands[p] &= ~(1 << c)
        winner = leader ^ ref._winner(cards, trump)
        if winner == declarer:
            total += sum(ref.POINTS[x[1]] for x in cards) + unsecured + (bonus if not hands[0] else 0)
            unsecured = 0
        if pending >= 0:
            trump, owner = pending, leader
        won |= 1 << winner
        leader = winner
    return total, promised


@pytest.mark.parametrize("to_talon", [False, True])
def test_dd_self_play_scores_the_discard_value(compiled2, to_talon):
    st, work = core_nb.new_work()
    tt = core_nb.new_table(16)
    rng = np.random.default_rng(31)
    options = {"marriage_first_lead": True, "marriage_burns_without_trick": True, "marriage_optional": True,
               "half_marriage": True, "must_head": True}
    later = {"marriage_min_cards": 5, "marriage_trump_from": "next_trick", "marriage_first_lead": True}
    for d in range(3):
        deck = [int(c) for c in rng.permutation(24)]
        scored, promised = self_play(deck, to_talon, d % 2, (options, {}, later)[d], st, work, tt)
        assert scored == promised


@pytest.mark.slow
@pytest.mark.parametrize("name", list(OPTION_SETS))
def test_dd_self_play_scores_the_discard_value_large(compiled2, name):
    st, work = core_nb.new_work()
    tt = core_nb.new_table(16)
    rng = np.random.default_rng(32)
    for d in range(6):
        deck = [int(c) for c in rng.permutation(24)]
        scored, promised = self_play(deck, d % 3 == 2, d % 2, OPTION_SETS[name], st, work, tt)
        assert scored == promised


# ---- the PIMC player ------------------------------------------------------------------------------------
def pimc_card(hands, seat, legal, trick, k, state, played, voids, known, counts, n_worlds, arr, rng, bufs):
    leader, trump, owner, pending, declarer, won, unsecured = state
    return pimc2_nb.pimc2_choose_card(hands, seat, legal, trick, k, leader, trump, owner, pending, declarer, won,
                                      unsecured, played, voids, np.array(known, dtype=np.int64),
                                      np.array(counts, dtype=np.int64), n_worlds, arr, rng, *bufs)


def test_pimc_plays_legal_reproducible_deals(compiled2):
    """Whole deals played by PIMC at both seats (the declarer's discard too): every card legal, and
    the same generator state gives the same choice."""
    bufs = (*core_nb.new_work(), core_nb.new_table(16), new_pimc_buffer())
    for d, (to_talon, options) in enumerate([(False, {}), (True, {"must_head": True, "marriage_first_lead": True,
                                                                  "marriage_optional": True}),
                                             (False, {"marriage_trump_from": "next_trick", "marriage_min_cards": 4,
                                                      "marriage_first_lead": True})]):
        arr = HouseRules.from_dict(options).to_array()
        pr = play_rules(options)
        deck = [int(c) for c in np.random.default_rng(40 + d).permutation(24)]
        n = 9 if to_talon else 10
        hand12, defender, other = (sum(1 << c for c in deck[:12]), sum(1 << c for c in deck[12:12 + n]),
                                   sum(1 << c for c in deck[12 + n:]))
        seen_talon = sum(1 << c for c in deck[n:12])  # the talon the declarer took, shown to the defender
        givable = int(givable_cards(hand12, arr))
        rng = state_from_seed(7, (d,))
        again = rng.copy()
        b1, b2, t = pimc2_nb.pimc2_choose_discard(hand12, to_talon, givable, 6, arr, rng, *bufs)
        assert (b1, b2, t) == pimc2_nb.pimc2_choose_discard(hand12, to_talon, givable, 6, arr, again, *bufs)
        assert (rng == again).all()
        assert b1 < b2 and givable >> b1 & 1 and givable >> b2 & 1
        assert (givable >> t & 1 and t not in (b1, b2)) if to_talon else t == -1
        declarer = d % 2
        hands = np.zeros(2, dtype=np.int64)
        hands[declarer] = hand12 & ~(1 << b1 | 1 << b2 | (1 << t if t >= 0 else 0))
        hands[declarer ^ 1] = defender
        talon = other | (1 << t if t >= 0 else 0)
        buried = 1 << b1 | 1 << b2
        leader, trump, owner, won, played = declarer, -1, -1, 0, 0
        voids = np.zeros(2, dtype=np.int64)
        while hands[0]:
            trick = np.zeros(2, dtype=np.int64)
            cards = ()
            pending = -1
            for k in range(2):
                p = leader ^ k
                hand = ref.cards_of(int(hands[p]))
                legal = (ref._leads(hand, p, trump, owner, pr) if k == 0
                         else ref._follows(hand, cards, trump, pr.must_head))
                legal_mask = sum(1 << ref.card_index(c) for c in legal)
                # The declarer knows what he buried and put in the talon; the defender the talon's
                # cards, which the declarer kept or buried.
                known = [0, 1 << t if p == declarer and t >= 0 else 0, buried if p == declarer else 0,
                         0 if p == declarer else seen_talon]
                counts = [bin(int(hands[p ^ 1])).count("1"), bin(talon).count("1"), 2]
                state = (leader, trump, owner, pending, declarer, won, 0)
                before = rng.copy()
                c, declare = pimc_card(hands, p, legal_mask, trick, k, state, played, voids, known, counts, 4, arr,
                                       rng, bufs)
                assert (c, declare) == pimc_card(hands, p, legal_mask, trick, k, state, played, voids, known, counts,
                                                 4, arr, before, bufs)
                assert legal_mask >> c & 1
                if declare:
                    val, changes = ref._declaration(hand, (c // 6, c % 6), pr)
                    assert k == 0 and ref._may_declare(hand, p, {s for s in range(2) if won >> s & 1}, pr)
                    if changes:
                        trump, owner, pending = ref._set_trump(trump, owner, pending, c // 6, p, pr)
                if k == 1 and c // 6 != cards[0][0]:
                    voids[p] |= 1 << cards[0][0]
                trick[k] = c
                cards += ((c // 6, c % 6),)
                hands[p] &= ~(1 << c)
                played |= 1 << c
            winner = leader ^ ref._winner(cards, trump)
            if pending >= 0:
                trump, owner = pending, leader
            won |= 1 << winner
            leader = winner


def test_worlds_keep_the_seen_talon_out_of_the_other_talon(compiled2):
    """sample_world2 with cards known to be the opponent's or buried (the talon the defender saw):
    every world deals each unseen card once, in the right numbers, never one of them into the
    other talon, and the opponent never a card of a suit he is void in."""
    gen = state_from_seed(5, (0,))
    wbuf = new_pimc_buffer()
    world = wbuf[pimc2_nb.WB_HANDS:pimc2_nb.WB_HANDS + pimc2_nb.W_VOIDS]
    rng = random.Random("seen talon")
    for _ in range(300):
        cards = rng.sample(range(24), 14)  # unseen: 10 opponent's, 2 talon, 2 buried
        either = card_mask(cards[:2])
        pool = card_mask(cards[2:])
        voids = 1 << rng.randrange(4) if rng.random() < 0.5 else 0
        world[:] = 0
        pimc2_nb.sample_world2(gen, pool, either, 10, 2, voids, wbuf)
        opp, talon, buried = (int(world[pimc2_nb.W_OPP]), int(world[pimc2_nb.W_TALON]), int(world[pimc2_nb.W_BURIED]))
        assert opp | talon | buried == pool | either and opp & talon == opp & buried == talon & buried == 0
        assert (bin(opp).count("1"), bin(talon).count("1"), bin(buried).count("1")) == (10, 2, 2)
        assert talon & either == 0
        void_cards = sum(0x3F << 6 * s for s in range(4) if voids >> s & 1)
        if bin((pool | either) & void_cards).count("1") <= 2:  # the voids leave room: they are kept
            assert opp & void_cards == 0


def test_pimc_with_everything_known_plays_like_dd(compiled2):
    """When the seat knows the opponent's hand, the other talon and the buried cards, every world
    is the real deal: the chosen move has the double-dummy best value."""
    rng = random.Random("two seats pimc known")
    bufs = (*core_nb.new_work(), core_nb.new_table(14), new_pimc_buffer())
    gen = state_from_seed(3, (0,))
    for i in range(60):
        options = random_options(rng) if i % 2 else {}
        ch = random_choice(rng, options)
        declarer = rng.randrange(2)
        args = engine_args(ch, declarer)
        hands, seat = args[0], args[1]
        talon = ch["pos"]["talon"]
        rest = [c for c in range(24) if not (int(hands[0] | hands[1]) | talon) >> c & 1]
        buried = card_mask(rest[:2])
        played = card_mask(rest[2:]) | card_mask(ch["trick"])
        opp = int(hands[seat ^ 1])
        known = np.array([opp, talon, buried, 0], dtype=np.int64)
        counts = np.array([bin(opp).count("1"), bin(talon).count("1"), bin(buried).count("1")], dtype=np.int64)
        c, declare = pimc2_nb.pimc2_choose_card(*args, played, np.zeros(2, dtype=np.int64), known, counts, 3,
                                                HouseRules.from_dict(options).to_array(), gen, *bufs)
        assert ch["moves"][(c, bool(declare))] == ch["best"]


# ---- input checks and layouts -------------------------------------------------------------------------
@pytest.mark.parametrize(("hands", "kw", "message"), [
    ([[1, 2, 4, 8]], {}, "shape"),
    ([[0b11, 0b100]], {}, "equal sizes"),
    ([[(1 << 11) - 1, ((1 << 11) - 1) << 11]], {}, "1..10"),
    ([[0b1, 0b1]], {}, "two hands"),
    ([[0b1, 0b10]], {"leader": 2}, "leader"),
    ([[0b1, 0b10]], {"won": [2]}, "0 or 1"),
    ([[0b1, 0b10]], {"trump": 0, "trump_owner": 2}, "trump_owner"),
    ([[0b1, 0b10]], {"last_bonus": -1}, "last_bonus"),
    ([[1 << 5, 1 << 11]], {"last_bonus": 99}, "120"),
    ([[0b1, 0b10, 0b100]], {"last_bonus": 5}, "two-player"),
])
def test_bad_two_seat_positions_are_refused_with_a_reason(hands, kw, message):
    with pytest.raises(ValueError, match=message):
        solver.dd_values(np.array(hands), **kw)


def test_best_discard2_refuses_wrong_sizes():
    with pytest.raises(ValueError, match="12 cards"):
        solver.best_discard2((1 << 11) - 1, ((1 << 10) - 1) << 11, 0b111 << 21)
    with pytest.raises(ValueError, match="two places"):
        solver.best_discard2((1 << 12) - 1, ((1 << 10) - 1) << 12, 0b11)


def test_two_hand_layout(compiled2):
    (solved,) = solver.solve_layouts(text="AS TS KH | AH TH KS ; last_bonus=14 ; trump=H ; won=0,1")
    lines = solved_layout_lines(solved)
    value = ref.solve2([sum(1 << c for c in (5, 4, 21)), sum(1 << c for c in (23, 22, 3))], trump=3, won=(0, 1),
                       last_bonus=14)
    assert lines[0] == f"value {value}"
    assert lines[2].startswith("play: ") and lines[2].count("|") == 2
