"""The double-dummy solver against the brute force of tests/reference_solver.py, and its API and CLI.

Default run: a few thousand random positions of 1–6 cards over every play option (alone and mixed).
``--runslow`` adds larger sweeps and 7–8-card positions.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
import reference_solver as ref

from analysis.present.json_text import to_json_line
from sim import solver
from sim.game.cards import format_card, parse_card, parse_hand
from sim.game.rules import HouseRules
from sim.players import dd_nb
from sim.solver import core_nb

# Each play option of RULES.md §4.4 on its own (the burning rule needs marriage_first_lead).
OPTION_SETS = {
    "classic": {},
    "must_head": {"must_head": True},
    "marriage_first_lead": {"marriage_first_lead": True},
    "marriage_burns_without_trick": {"marriage_first_lead": True, "marriage_burns_without_trick": True},
    "marriage_optional": {"marriage_optional": True},
    "ace_marriage": {"ace_marriage": 200},
    "half_marriage": {"half_marriage": True},
    "no_lead_foreign_trump": {"no_lead_foreign_trump": True},
    "must_lead_trump": {"must_lead_trump": True},
    "marriage_values": {"marriage_values": (100, 80, 60, 40)},
    "marriage_min_cards": {"marriage_min_cards": 3},
    "marriage_trump_from": {"marriage_trump_from": "next_trick"},
}
BOOLEAN_OPTIONS = ("must_head", "marriage_first_lead", "marriage_optional", "half_marriage",
                   "no_lead_foreign_trump", "must_lead_trump")


def play_rules(options: dict) -> ref.PlayRules:
    return ref.PlayRules(**options)


def random_options(rng: random.Random) -> dict:
    opts = {name: True for name in BOOLEAN_OPTIONS if rng.random() < 0.35}
    if opts.get("marriage_first_lead") and rng.random() < 0.5:
        opts["marriage_burns_without_trick"] = True
    if rng.random() < 0.3:
        opts["ace_marriage"] = 200
    if rng.random() < 0.2:
        opts["marriage_values"] = (100, 80, 60, 40)
    if rng.random() < 0.25:
        opts["marriage_min_cards"] = rng.choice([3, 4])
    if rng.random() < 0.35:
        opts["marriage_trump_from"] = "next_trick"
    return opts


def random_position(rng: random.Random, n: int, options: dict, seats: int = 3) -> dict:
    """Random hands of n cards for ``seats`` seats with a state that exercises the options:
    marriages dealt often, sometimes four aces in one hand, trump owners, won-trick seats and
    unsecured points; with two seats also a talon of up to four of the cards left, its points the
    last trick's bonus."""
    deck = list(range(24))
    rng.shuffle(deck)
    hands = [0] * seats
    if n >= 2 and rng.random() < 0.5:  # a marriage (or half marriage) in some hand
        s, seat = rng.randrange(4), rng.randrange(seats)
        pair = [6 * s + 3, 6 * s + 2] if rng.random() < 0.7 else [6 * s + 2, 6 * s + 1]
        for c in pair:
            deck.remove(c)
            hands[seat] |= 1 << c
    if options.get("ace_marriage") and n >= 4 and rng.random() < 0.5:
        seat = rng.randrange(seats)
        if bin(hands[seat]).count("1") <= n - 4:
            for c in (5, 11, 17, 23):
                if c in deck:
                    deck.remove(c)
                    hands[seat] |= 1 << c
    for seat in range(seats):
        while bin(hands[seat]).count("1") < n:
            hands[seat] |= 1 << deck.pop()
    if any(bin(h).count("1") != n for h in hands):  # a seeded card overflowed a hand: plain deal
        deck = list(range(24))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[i * n:(i + 1) * n]) for i in range(seats)]
        deck = deck[seats * n:]
    trump = rng.choice([-1, -1, 0, 1, 2, 3])
    won = tuple(s for s in range(seats) if rng.random() < 0.5)
    unsecured = 0
    if options.get("marriage_burns_without_trick") and 0 not in won and rng.random() < 0.4:
        unsecured = rng.choice([40, 60, 100])
    pos = {
        "hands": hands,
        "leader": rng.randrange(seats),
        "trump": trump,
        "owner": rng.choice([-1, *range(seats)]) if trump >= 0 else -1,
        "won": won,
        "unsecured": unsecured,
    }
    if seats == 2:
        pos["talon"] = sum(1 << c for c in deck[:rng.choice([0, 2, 2, 3, 4])])
        pos["bonus"] = sum(ref.POINTS[c % 6] for c in range(24) if pos["talon"] >> c & 1)
    return pos


def reference_value(pos: dict, options: dict) -> int:
    return ref.solve(pos["hands"], leader=pos["leader"], trump=pos["trump"], owner=pos["owner"], won=pos["won"],
                     unsecured=pos["unsecured"], rules=play_rules(options))


def solver_kw(pos: dict, options: dict) -> dict:
    """The solver's settings of a position of either game (``last_bonus`` 0 with three seats)."""
    return {"leader": pos["leader"], "trump": pos["trump"], "won": pos["won"],
            "trump_owner": None if pos["owner"] < 0 else pos["owner"], "unsecured": pos["unsecured"],
            "last_bonus": pos.get("bonus", 0), "rules": HouseRules.from_dict(options)}


def batch(positions: list[dict], options: dict) -> dict:
    """Positions as the batch API's columns (per-position arrays)."""
    return {
        "hands": np.array([p["hands"] for p in positions], dtype=np.int64),
        "leader": np.array([p["leader"] for p in positions]),
        "trump": np.array([p["trump"] for p in positions]),
        "won": np.array([sum(1 << s for s in p["won"]) for p in positions]),
        "trump_owner": np.array([p["owner"] for p in positions]),
        "unsecured": np.array([p["unsecured"] for p in positions]),
        "rules": HouseRules.from_dict(options),
    }


def check_against_reference(rng: random.Random, options: dict, sizes: dict[int, int]) -> None:
    positions = [random_position(rng, n, options) for n, count in sizes.items() for _ in range(count)]
    cols = batch(positions, options)
    hands = cols.pop("hands")
    values = solver.dd_values(hands, **cols)
    expected = [reference_value(p, options) for p in positions]
    bad = [(p, v, e) for p, v, e in zip(positions, values, expected, strict=True) if v != e]
    assert not bad, f"{len(bad)} of {len(positions)} differ, e.g. {bad[0]}"
    # Threshold answers agree with the exact values, on both sides of each value.
    for delta in (0, 1, -5):
        targets = np.array(expected) + delta
        assert (solver.dd_at_least(hands, targets, **cols) == (np.array(expected) >= targets)).all()


@pytest.fixture(scope="session")
def compiled():
    """Compile the kernels once (a tiny solve through every entry point)."""
    h = np.array([[parse_hand("AS KS"), parse_hand("TS 9S"), parse_hand("AH 9H")]])
    solver.dd_values(h)
    solver.dd_at_least(h, [1])
    solver.principal_variation(h)
    solver.lead_values(h)
    return True


# ---- agreement with the brute force --------------------------------------------------------------
@pytest.mark.parametrize("name", list(OPTION_SETS))
def test_values_match_brute_force_per_option(compiled, name):
    rng = random.Random(f"option {name}")
    check_against_reference(rng, OPTION_SETS[name], {1: 40, 2: 60, 3: 60, 4: 50, 5: 12, 6: 2})


def test_values_match_brute_force_mixed_options(compiled):
    rng = random.Random("mixed")
    for _ in range(40):
        options = random_options(rng)
        check_against_reference(rng, options, {2: 4, 3: 6, 4: 6, 5: 1})


@pytest.mark.slow
@pytest.mark.parametrize("name", list(OPTION_SETS))
def test_values_match_brute_force_per_option_large(compiled, name):
    rng = random.Random(f"large {name}")
    check_against_reference(rng, OPTION_SETS[name], {4: 200, 5: 100, 6: 25, 7: 2})


@pytest.mark.slow
def test_values_match_brute_force_mixed_options_large(compiled):
    rng = random.Random("mixed large")
    for _ in range(150):
        options = random_options(rng)
        check_against_reference(rng, options, {3: 5, 4: 5, 5: 3, 6: 1})


@pytest.mark.slow
@pytest.mark.parametrize("name", ["classic", "must_head", "marriage_burns_without_trick", "half_marriage"])
def test_eight_card_sample_matches_brute_force(compiled, name):
    rng = random.Random(f"eight {name}")
    check_against_reference(rng, OPTION_SETS[name], {8: 1, 7: 1})


def declaring_position(rng: random.Random, n: int, seats: int = 3) -> dict:
    """A position built for the marriage timing options: the seat on lead holds a marriage (K+Q of
    suit s) and has won a trick, another suit is trump, and each other seat is void in s half the
    time (so that the trump in force decides the declaring trick under next_trick)."""
    s = rng.randrange(4)
    trump = rng.choice([t for t in range(4) if t != s])
    leader = rng.randrange(seats)
    deck = [c for c in range(24) if c not in (6 * s + 3, 6 * s + 2)]
    rng.shuffle(deck)
    hands = [0] * seats
    hands[leader] = 1 << (6 * s + 3) | 1 << (6 * s + 2)
    for seat in range(seats):
        void = seat != leader and rng.random() < 0.5
        for c in list(deck):
            if bin(hands[seat]).count("1") >= n:
                break
            if void and c // 6 == s:
                continue
            hands[seat] |= 1 << c
            deck.remove(c)
    if any(bin(h).count("1") != n for h in hands):  # the voids ran the deck short: try again
        return declaring_position(rng, n, seats)
    won = tuple(q for q in range(seats) if q == leader or rng.random() < 0.5)
    return {"hands": hands, "leader": leader, "trump": trump, "owner": rng.choice([-1] + list(range(seats))),
            "won": won, "unsecured": 0}


TIMING_OPTIONS = [{"marriage_trump_from": "next_trick"}, {"marriage_trump_from": "next_trick", "must_head": True},
                  {"marriage_trump_from": "next_trick", "no_lead_foreign_trump": True, "half_marriage": True},
                  {"marriage_trump_from": "next_trick", "marriage_min_cards": 3, "marriage_optional": True},
                  {"marriage_min_cards": 4}]


@pytest.mark.parametrize("options", TIMING_OPTIONS)
def test_marriage_timing_positions_match_brute_force(compiled, options):
    """Positions where the timing options decide (a marriage on lead under another trump): the
    solver agrees with the brute force, and the option changes a good share of the values."""
    rng = random.Random(f"timing {sorted(options.items())}")
    positions = [declaring_position(rng, rng.randint(2, 5)) for _ in range(120)]
    cols = batch(positions, options)
    hands = cols.pop("hands")
    values = solver.dd_values(hands, **cols)
    expected = [reference_value(p, options) for p in positions]
    assert list(values) == expected
    base = {k: v for k, v in options.items() if k not in ("marriage_trump_from", "marriage_min_cards")}
    changed = sum(e != reference_value(p, base) for p, e in zip(positions, expected, strict=True))
    assert changed >= 10, f"the option changes only {changed} of {len(positions)} values"


# ---- per-card values, principal variation -------------------------------------------------------
def test_lead_values_match_solving_each_lead(compiled):
    rng = random.Random("leads")
    for i in range(60):
        options = random_options(rng) if i % 2 else {}
        pos = random_position(rng, rng.randint(1, 4), options)
        kw = solver_kw(pos, options)
        got = solver.lead_values(np.array(pos["hands"]), **kw)
        want = ref.lead_values(pos["hands"], leader=pos["leader"], trump=pos["trump"], owner=pos["owner"],
                               won=pos["won"], unsecured=pos["unsecured"], rules=play_rules(options))
        assert got == want
        value = solver.dd_values(np.array([pos["hands"]]), **kw)[0]
        assert value == (max(got.values()) if pos["leader"] == 0 else min(got.values()))


@pytest.mark.parametrize("seats", [3, 2])
def test_principal_variation_is_legal_and_scores_the_value(compiled, seats):
    """One driver for both games: the line it plays is legal and scores the value."""
    rng = random.Random("pv" if seats == 3 else "two seats pv")
    for i in range(60):
        options = random_options(rng) if i % 2 else {}
        pos = random_position(rng, rng.randint(1, 5 if seats == 3 else 6), options, seats)
        value, plays = solver.principal_variation(np.array(pos["hands"]), **solver_kw(pos, options))
        assert len(plays) == seats * bin(pos["hands"][0]).count("1")
        assert replay(pos, plays, play_rules(options)) == value


def replay(pos: dict, plays: list, rules: ref.PlayRules) -> int:
    """The declarer's points along a line of play of either game, checking every card is legal (by
    the reference); with two seats the last trick's winner takes the bonus."""
    seats = len(pos["hands"])
    hands = [ref.cards_of(h) for h in pos["hands"]]
    leader, trump, owner, won, unsecured = pos["leader"], pos["trump"], pos["owner"], set(pos["won"]), pos["unsecured"]
    points = 0
    for t in range(0, len(plays), seats):
        trick = ()
        pending = -1
        for k, play in enumerate(plays[t:t + seats]):
            seat = (leader + k) % seats
            assert play.seat == seat
            card = (play.card // 6, play.card % 6)
            if k == 0:
                assert card in ref._leads(hands[seat], seat, trump, owner, rules)
                decl = ref._declaration(hands[seat], card, rules)
                may = decl is not None and ref._may_declare(hands[seat], seat, won, rules)
                assert play.declared == may or (rules.marriage_optional and may and not play.declared)
                if play.declared:
                    val, changes = decl
                    if changes:
                        trump, owner, pending = ref._set_trump(trump, owner, pending, card[0], seat, rules)
                    if seat == 0:
                        if rules.marriage_burns_without_trick and 0 not in won:
                            unsecured += val
                        else:
                            points += val
            else:
                assert not play.declared
                assert card in ref._follows(hands[seat], trick, trump, rules.must_head)
            hands[seat] = hands[seat] - {card}
            trick += (card,)
        winner = (leader + ref._winner(trick, trump)) % seats
        if winner == 0:
            points += sum(ref.POINTS[c[1]] for c in trick) + (unsecured if 0 not in won else 0)
            if not hands[0]:
                points += pos.get("bonus", 0)
        if pending >= 0:  # marriage_trump_from = next_trick
            trump, owner = pending, leader
        won.add(winner)
        leader = winner
    return points


# ---- batches ---------------------------------------------------------------------------------------
def test_batch_is_deterministic_across_thread_counts(compiled):
    rng = np.random.default_rng(7)
    hands = np.zeros((150, 3), dtype=np.int64)
    for i in range(150):
        deck = rng.permutation(24)
        hands[i] = [sum(1 << int(c) for c in deck[p * 6:(p + 1) * 6]) for p in range(3)]
    v1, n1 = solver.dd_values(hands, won=[0, 1, 2], threads=1, return_nodes=True)
    v2, n2 = solver.dd_values(hands, won=[0, 1, 2], threads=2, return_nodes=True)
    assert (v1 == v2).all() and (n1 == n2).all()
    t1 = solver.dd_at_least(hands, v1, threads=1, won=[0, 1, 2])
    t2 = solver.dd_at_least(hands, v1 + 1, threads=2, won=[0, 1, 2])
    assert t1.all() and not t2.any()


def test_value_stays_within_sure_bounds(compiled):
    rng = np.random.default_rng(3)
    hands = np.zeros((100, 3), dtype=np.int64)
    for i in range(100):
        deck = rng.permutation(24)
        hands[i] = [sum(1 << int(c) for c in deck[p * 8:(p + 1) * 8]) for p in range(3)]
    values = solver.dd_values(hands, won=[0])
    marriages = np.array([sum(v for s, v in enumerate((40, 60, 80, 100)) if (h >> (6 * s + 2)) & 3 == 3)
                          for h in hands[:, 0]])
    assert (values >= 0).all() and (values <= 120 + marriages).all()


# ---- best discard ------------------------------------------------------------------------------------
def test_best_discard_is_the_best_of_all_discards(compiled):
    rng = np.random.default_rng(11)
    for options in ({}, {"marriage_first_lead": True, "half_marriage": True}):
        rules = HouseRules.from_dict(options)
        for _ in range(3):
            deck = [int(c) for c in rng.permutation(24)]
            hand10 = sum(1 << c for c in deck[:10])
            opp1 = sum(1 << c for c in deck[10:17])
            opp2 = sum(1 << c for c in deck[17:24])
            a, b, value = solver.best_discard(hand10, opp1, opp2, rules=rules)
            cards = [c for c in range(24) if hand10 >> c & 1]
            rows = [(hand10 & ~(1 << x) & ~(1 << y), opp1 | 1 << x, opp2 | 1 << y)
                    for x in cards for y in cards if x != y]
            values = solver.dd_values(np.array(rows), rules=rules)
            assert value == values.max()
            assert solver.dd_values(np.array([[hand10 & ~(1 << a) & ~(1 << b), opp1 | 1 << a, opp2 | 1 << b]]),
                                    rules=rules)[0] == value


# ---- the double-dummy player ------------------------------------------------------------------------
def test_dd_player_plays_a_best_card_mid_trick(compiled):
    """From random positions with 0, 1 or 2 cards on the table, seen from any declarer seat, the
    chosen card is legal and attains the position's value (checked by the brute force)."""
    rng = random.Random("player")
    st, work = core_nb.new_work()
    tt = core_nb.new_table(14)
    for i in range(150):
        options = random_options(rng) if i % 2 else {}
        rules = HouseRules.from_dict(options)
        pr = play_rules(options)
        pos = random_position(rng, rng.randint(2, 5), options)
        leader, trump, owner, unsecured = pos["leader"], pos["trump"], pos["owner"], pos["unsecured"]
        pending = -1
        hands = [ref.cards_of(h) for h in pos["hands"]]
        trick = ()
        for k in range(rng.randrange(3)):  # play random legal cards into the trick
            seat = (leader + k) % 3
            options_now = (ref._leads(hands[seat], seat, trump, owner, pr) if k == 0
                           else ref._follows(hands[seat], trick, trump, pr.must_head))
            card = rng.choice(sorted(options_now))
            if k == 0:  # the lead declares when it may (under marriage_optional only sometimes)
                decl = ref._declaration(hands[seat], card, pr)
                if decl and ref._may_declare(hands[seat], seat, pos["won"], pr) and not (
                        pr.marriage_optional and rng.random() < 0.5):
                    val, changes = decl
                    if changes:
                        trump, owner, pending = ref._set_trump(trump, owner, pending, card[0], seat, pr)
                    if seat == 0 and pr.marriage_burns_without_trick and 0 not in pos["won"]:
                        unsecured += val
            hands[seat] = hands[seat] - {card}
            trick += (card,)
        seat = (leader + len(trick)) % 3
        masks = [sum(1 << ref.card_index(c) for c in h) for h in hands]
        legal = (ref._leads(hands[seat], seat, trump, owner, pr) if not trick
                 else ref._follows(hands[seat], trick, trump, pr.must_head))
        legal_mask = sum(1 << ref.card_index(c) for c in legal)
        declarer = rng.randrange(3)  # engine seats: rotate the position so that seat 0 sits at `declarer`
        eng = [0, 0, 0]
        for s in range(3):
            eng[(s + declarer) % 3] = masks[s]
        trick_idx = np.array([ref.card_index(c) for c in trick] + [0] * (3 - len(trick)), dtype=np.int64)
        won_mask = sum(1 << ((s + declarer) % 3) for s in pos["won"])
        card, declare = dd_nb.dd_choose_card(
            np.array(eng, dtype=np.int64), (seat + declarer) % 3, legal_mask, trick_idx, len(trick),
            (leader + declarer) % 3, trump, -1 if owner < 0 else (owner + declarer) % 3, pending, declarer, won_mask,
            unsecured, rules.to_array(), st, work, tt)
        assert legal_mask >> card & 1
        kw = dict(leader=leader, trump=trump, owner=owner, won=pos["won"], unsecured=unsecured, rules=pr)
        idx_trick = tuple(ref.card_index(c) for c in trick)
        best = ref.solve(masks, trick=idx_trick, pending=pending, **kw)
        if not trick:
            assert ref._lead_value(masks, card, **kw) == best
            decl = ref._declaration(hands[seat], (card // 6, card % 6), pr)
            may = decl is not None and ref._may_declare(hands[seat], seat, pos["won"], pr)
            assert declare == may or (pr.marriage_optional and may)
        else:
            assert not declare
            after = list(masks)
            after[seat] &= ~(1 << card)
            got = ref_after_follow(after, idx_trick + (card,), kw, pending)
            assert got == best


def ref_after_follow(masks, trick, kw, pending=-1):
    """Reference value after a follower's card (completing the trick when it is the third, then
    putting a pending trump in force)."""
    if len(trick) < 3:
        return ref.solve(masks, trick=trick, pending=pending, **kw)
    cards = tuple((c // 6, c % 6) for c in trick)
    winner = (kw["leader"] + ref._winner(cards, kw["trump"])) % 3
    gain = 0
    if winner == 0:
        gain = sum(ref.POINTS[c[1]] for c in cards) + (kw["unsecured"] if 0 not in kw["won"] else 0)
    rest = dict(kw, leader=winner, won=tuple(set(kw["won"]) | {winner}))
    if pending >= 0:
        rest.update(trump=pending, owner=kw["leader"])
    return gain + ref.solve(masks, **rest)


@pytest.mark.parametrize("options", [{}, {"marriage_first_lead": True, "marriage_burns_without_trick": True,
                                          "marriage_optional": True, "half_marriage": True, "must_head": True},
                                     {"marriage_min_cards": 4, "marriage_trump_from": "next_trick",
                                      "marriage_optional": True, "must_head": True}])
def test_dd_self_play_scores_the_discard_value(compiled, options):
    """Whole deals played by the DD player at every seat, from its own discard, with the declarer
    at each engine seat: the declarer scores exactly the value the solver promised."""
    rules = HouseRules.from_dict(options)
    arr = rules.to_array()
    pr = play_rules(options)
    st, work = core_nb.new_work()
    tt = core_nb.new_table(16)
    rng = np.random.default_rng(17)
    for d in range(6):
        deck = [int(c) for c in rng.permutation(24)]
        declarer = d % 3
        hand10, opp1, opp2 = (sum(1 << c for c in deck[:10]), sum(1 << c for c in deck[10:17]),
                              sum(1 << c for c in deck[17:]))
        a, b, promised = dd_nb.dd_choose_discard(hand10, opp1, opp2, arr, st, work, tt)
        assert promised == solver.best_discard(hand10, opp1, opp2, rules=rules)[2]
        hands = np.zeros(3, dtype=np.int64)
        hands[declarer] = hand10 & ~(1 << a) & ~(1 << b)
        hands[(declarer + 1) % 3] = opp1 | 1 << a
        hands[(declarer + 2) % 3] = opp2 | 1 << b
        leader, trump, owner, won, points, unsecured = declarer, -1, -1, 0, 0, 0
        for _ in range(8):
            trick = np.zeros(3, dtype=np.int64)
            cards = ()
            pending = -1
            for k in range(3):
                p = (leader + k) % 3
                hand = ref.cards_of(int(hands[p]))
                legal = (ref._leads(hand, p, trump, owner, pr) if k == 0
                         else ref._follows(hand, cards, trump, pr.must_head))
                legal_mask = sum(1 << ref.card_index(c) for c in legal)
                c, declare = dd_nb.dd_choose_card(hands, p, legal_mask, trick, k, leader, trump, owner, pending,
                                                  declarer, won, unsecured, arr, st, work, tt)
                assert legal_mask >> c & 1
                if declare:
                    assert k == 0 and ref._may_declare(hand, p, {s for s in range(3) if won >> s & 1}, pr)
                    val, changes = ref._declaration(hand, (c // 6, c % 6), pr)
                    if changes:
                        trump, owner, pending = ref._set_trump(trump, owner, pending, c // 6, p, pr)
                    if p == declarer:
                        if pr.marriage_burns_without_trick and not won >> declarer & 1:
                            unsecured += val
                        else:
                            points += val
                trick[k] = c
                cards += ((c // 6, c % 6),)
                hands[p] &= ~(1 << c)
            winner = (leader + ref._winner(cards, trump)) % 3
            if winner == declarer:
                points += sum(ref.POINTS[x[1]] for x in cards) + unsecured
                unsecured = 0
            if pending >= 0:
                trump, owner = pending, leader
            won |= 1 << winner
            leader = winner
        assert points == promised


def test_dd_choose_discard_matches_best_discard(compiled):
    rng = np.random.default_rng(5)
    st, work = core_nb.new_work()
    tt = core_nb.new_table(16)
    rules = HouseRules()
    deck = [int(c) for c in rng.permutation(24)]
    hand10, opp1, opp2 = (sum(1 << c for c in deck[:10]), sum(1 << c for c in deck[10:17]),
                          sum(1 << c for c in deck[17:]))
    assert dd_nb.dd_choose_discard(hand10, opp1, opp2, rules.to_array(), st, work, tt) == solver.best_discard(
        hand10, opp1, opp2)


# ---- input checks and the CLI ---------------------------------------------------------------------
@pytest.mark.parametrize(("hands", "kw", "message"), [
    ([[1]], {}, "shape"),
    ([[0b11, 0b100, 0b1000]], {}, "equal sizes"),
    ([[0b1, 0b1, 0b10]], {}, "two hands"),
    ([[0b1, 0b10, 0b100]], {"leader": 3}, "leader"),
    ([[0b1, 0b10, 0b100]], {"trump": "X"}, "trump"),
    ([[0b1, 0b10, 0b100]], {"won": [4]}, "seat"),
    ([[0b1, 0b10, 0b100]], {"trump_owner": 1}, "without a trump"),
    ([[0b1, 0b10, 0b100]], {"unsecured": 40}, "marriage_burns_without_trick"),
])
def test_bad_positions_are_refused_with_a_reason(hands, kw, message):
    with pytest.raises(ValueError, match=message):
        solver.dd_values(np.array(hands), **kw)


def test_nine_card_hands_are_refused():
    with pytest.raises(ValueError, match="1..8"):
        solver.dd_values(np.array([[(1 << 9) - 1, ((1 << 9) - 1) << 9, ((1 << 9) - 1) << 15]]))


def test_cli_solve_prints_value_leads_and_play(compiled, tmp_path):
    from typer.testing import CliRunner

    from cli import app

    runner = CliRunner()
    res = runner.invoke(app, ["solve", "AS TS KH QH | 9H JH 9C JC | AH TH AC TC", "--won", "0"])
    assert res.exit_code == 0, res.output
    assert "value 142" in res.output and "KH*" in res.output
    layouts = tmp_path / "layouts.txt"
    layouts.write_text("# two layouts\nAS TS | KH QH | 9C JC ; leader=1 ; trump=D ; won=0,2 ; must_head=true\n"
                       "AS KS | TS 9S | AH 9H\n", encoding="utf-8")
    res = runner.invoke(app, ["solve", "--file", str(layouts), "--json"])
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in res.output.splitlines()]
    assert [r["value"] for r in rows] == [
        ref.solve([parse_hand("AS TS"), parse_hand("KH QH"), parse_hand("9C JC")], leader=1, trump=2, won=(0, 2),
                  rules=ref.PlayRules(must_head=True)),
        ref.solve([parse_hand("AS KS"), parse_hand("TS 9S"), parse_hand("AH 9H")]),
    ]
    res = runner.invoke(app, ["solve", "AS TS | KH QH | 9C"])
    assert res.exit_code == 2 and "equal sizes" in res.output
    res = runner.invoke(app, ["solve", "AS TS | KH QH | 9C JC ; must_hed=true"])
    assert res.exit_code == 2 and "must_head" in res.output


def test_layout_text_round_trip(compiled):
    (solved,) = solver.solve_layouts(text="AS KS | TS 9S | AH 9H", trump="S")
    row = json.loads(to_json_line(solved))
    assert set(row["lead_values"]) == {format_card(parse_card("AS")), format_card(parse_card("KS"))}
    assert row["value"] == max(row["lead_values"].values())


def test_pending_trump_is_read_from_the_leaders_declarations():
    """play_nb.pending_trump, how the dd and PIMC seats and the learned labels learn the trump a
    next_trick declaration leaves waiting: the led card's combination when its bit is set and the
    hand with the card still holds it whole; -1 otherwise, and always under this_trick."""
    from sim.game.play_nb import pending_trump

    later = HouseRules(marriage_trump_from="next_trick", half_marriage=True, ace_marriage=200).to_array()
    now = HouseRules(half_marriage=True).to_array()
    kh, jh, ah = parse_card("KH"), parse_card("JH"), parse_card("AH")
    hearts, half_hearts, aces = 1 << 3, 1 << (4 + 3), 1 << 8
    assert pending_trump(parse_hand("QH 9S"), kh, hearts, later) == 3  # K of K+Q declared now
    assert pending_trump(parse_hand("QH 9S"), kh, hearts, now) == -1  # in force at once
    assert pending_trump(parse_hand("QH 9S"), kh, 0, later) == -1  # declined (marriage_optional)
    assert pending_trump(parse_hand("9S"), kh, hearts, later) == -1  # QH led earlier declared it
    assert pending_trump(parse_hand("QH KS"), jh, half_hearts, later) == 3  # the half marriage
    assert pending_trump(parse_hand("AS AC AD"), ah, aces, later) == -1  # the four aces set no trump
