"""Inference of the hidden hands (docs/inference.md): the learned bid's refactor leaves every call
as it was; the likelihood is the logistic of the margin; the sampler's card probabilities agree
with every deal enumerated exactly (weighted and uniform) within the Monte-Carlo error; the same
seed gives the same worlds on any number of threads; the weights' collapse draws more; bad input
is refused in one line naming the argument."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from reference_inference import (
    exact_posterior,
    naive_cards_loglik,
    naive_deal_loglik,
    old_learned_bid,
    old_learned_contract,
)
from typer.testing import CliRunner

from cli import app
from sim import InputError
from sim.game.cards import mask_to_cards
from sim.game.rules import preset
from sim.game.state_layout import G_ON_BARREL, G_SCORE
from sim.inference import infer
from sim.inference.model import auction_arrays, learned_model
from sim.inference.view import view_facts
from sim.players.learned.bidding_nb import learned_bid, learned_bid_margin, learned_contract, learned_contract_margin
from sim.players.learned.likelihood_nb import (
    CARD_TEMPERATURE,
    CONTRACT_TEMPERATURE,
    GIFT_FLOOR,
    GIFT_TEMPERATURE,
    IMPOSSIBLE,
    TEMPERATURE,
    auction_loglik,
    call_loglik,
    log_sigmoid,
)
from sim.records import parse_record_text, read_records
from sim.records.parts import Gift
from sim.records.record import Record
from sim.records.walk import house_rules, walk

ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLE = ROOT / "examples" / "records" / "defmar.txt"
SELF_PLAY = Path(__file__).parent / "self_play.jsonl"  # records of the learned player's self-play
EXAMPLE_LABEL = read_records(path=EXAMPLE)[0].label
# A swept answer against the exact twin's, and a swept world's log weight against the twins', at the
# shipped temperatures: as world by world below (they agree to 1e-15 on these views)
EXACT_TOLERANCE = 1e-6
SUMMED_TOLERANCE = 1e-6


def _cases(rng, n):
    for _ in range(n):
        hand = np.int64(0)
        for c in rng.choice(24, 7, replace=False):
            hand |= np.int64(1) << int(c)
        seat = int(rng.integers(3))
        high_seat = int(rng.integers(-1, 3))
        least = int(rng.choice(np.arange(100, 305, 5)))
        cap = least + int(rng.choice([0, 5, 20, 60, 200]))
        yield seat, hand, high_seat, least, cap


@pytest.mark.parametrize("name", ["classic", "online", "strict", "polish", "long", "mekedron"])
def test_learned_bid_calls_are_unchanged(name):
    """``learned_bid`` (now ``learned_bid_margin``'s call) calls as the frozen 0.13.0 body does, on
    random hands, raises, caps and standings, barrel sitters among them."""
    rules = preset(name)
    rec = parse_record_text(text=EXAMPLE.read_text())
    m = learned_model(rec, rules)
    lbuf = m.scratch()
    rng = np.random.default_rng(5)
    differ = 0
    n = 0
    for seat, hand, high_seat, least, cap in _cases(rng, 1500):
        gs = m.gs.copy()
        for p in range(3):
            gs[G_SCORE + p] = int(rng.choice([0, 400, 880, 905, 950]))
            gs[G_ON_BARREL + p] = int(rng.random() < 0.3)
        old = old_learned_bid(seat, hand, high_seat, least, cap, gs, m.rules, m.prm, m.net, lbuf)
        new = learned_bid(seat, hand, high_seat, least, cap, gs, m.rules, m.prm, m.net, lbuf)
        call, margin = learned_bid_margin(seat, hand, high_seat, least, cap, gs, m.rules, m.prm, m.net, lbuf)
        differ += int(old != new) + int(call != new)
        assert margin >= 0.0
        n += 1
    assert differ == 0, f"{differ} of {n} calls differ"


def test_call_loglik_is_the_logistic_of_the_margin():
    rules = preset("classic")
    rec = read_records(path=EXAMPLE)[0]
    m = learned_model(rec, rules)
    lbuf = m.scratch()
    rng = np.random.default_rng(7)
    for seat, hand, _, _, _ in _cases(rng, 200):
        least, high, high_seat = 105, 100, (seat + 2) % 3
        call, margin = learned_bid_margin(seat, hand, high_seat, least, 120 + 200, m.gs, m.rules, m.prm, m.net,
                                          lbuf)
        from_bid = call_loglik(np.int64(105), seat, hand, high, high_seat, 0, m.gs, m.rules, m.prm, m.net, lbuf,
                               1 / 20)
        from_pass = call_loglik(np.int64(0), seat, hand, high, high_seat, 0, m.gs, m.rules, m.prm, m.net, lbuf,
                                1 / 20)
        x = margin / 20
        agree, disagree = -math.log1p(math.exp(-x)), -math.log1p(math.exp(x))
        assert (from_bid, from_pass) == pytest.approx((agree, disagree) if call else (disagree, agree), abs=1e-9)
        assert math.exp(from_bid) + math.exp(from_pass) == pytest.approx(1.0)
    assert log_sigmoid(-800.0) == pytest.approx(-800.0)
    no_marriage = np.int64(sum(1 << c for c in (0, 1, 6, 7, 12, 13, 18)))  # 9s and jacks: no marriage
    assert call_loglik(np.int64(125), 0, no_marriage, 120, 2, 0, m.gs, m.rules, m.prm, m.net, lbuf, 0.05) == IMPOSSIBLE
    # the least raise above the cap: the pass is forced and says nothing
    assert call_loglik(np.int64(0), 0, no_marriage, 120, 2, 0, m.gs, m.rules, m.prm, m.net, lbuf, 0.05) == 0.0


def _views():
    """(record, seat, point) of views small enough to enumerate (the talon and the gifts seen)."""
    recs = [read_records(path=EXAMPLE)[0]]
    if SELF_PLAY.exists():
        recs += list(read_records(path=SELF_PLAY))
    out = []
    for k, rec in enumerate(recs):
        for seat in range(3):
            for at in ("trick:5", "trick:7", "auction") if k < 2 else ("trick:6",):
                out.append(pytest.param(rec, seat, at, id=f"{k}-{seat}-{at}"))
    return out


def _compare(rec, seat, at, temperature, worlds, card_temperature=math.inf, gift_temperature=math.inf,
             contract_temperature=math.inf):
    rules = house_rules(rec)
    exact, n = exact_posterior(rec, seat, at, rules, temperature, card_temperature, gift_temperature,
                               contract_temperature)
    res = infer(rec, seat=seat, at=at, worlds=worlds, seed=3, temperature=temperature,
                card_temperature=card_temperature, gift_temperature=gift_temperature,
                contract_temperature=contract_temperature)
    p = res.probabilities()
    assert n > 0
    # Monte-Carlo error of a self-normalised weighted mean: at most 0.5 / sqrt(ESS); 5 of those.
    # Where the weights collapsed and every deal was weighed the answer is exact
    tol = EXACT_TOLERANCE if res.exact else 5 * 0.5 / math.sqrt(res.ess) + 1e-9
    worst = 0.0
    for i, c in enumerate(res.hidden):
        worst = max(worst, float(np.abs(p[i] - exact[c]).max()))
    # every card the sampler does not call hidden is certain in the exact enumeration
    for c, v in exact.items():
        if c not in res.hidden:
            assert v.max() == pytest.approx(1.0), f"card {c} is certain to the sampler, not exactly: {v}"
    assert worst <= tol, f"largest difference {worst:.4f} > {tol:.4f} (ESS {res.ess:.0f}, {n} deals)"
    return res


@pytest.mark.parametrize(("rec", "seat", "at"), _views())
def test_weighted_worlds_match_the_exact_posterior(rec, seat, at):
    _compare(rec, seat, at, 20.0, 20000)


def _card_views():
    """``_views`` and, with more deals left open and more cards played with a choice, the
    self-play deals at trick 3 (up to 462 deals; the cards move a card's exact probability by up
    to 0.13 there at T_card = 10)."""
    recs = list(read_records(path=SELF_PLAY)) if SELF_PLAY.exists() else []
    return _views() + [pytest.param(rec, seat, "trick:3", id=f"{k + 1}-{seat}-trick:3") for k, rec in enumerate(recs)
                       for seat in range(3)]


@pytest.mark.parametrize(("rec", "seat", "at"), _card_views())
def test_worlds_weighted_by_the_cards_match_the_exact_posterior(rec, seat, at):
    """The calls and the cards played weighed (the exact twin replays every deal and calls the
    card net at each decision in plain Python: ``naive_cards_loglik``)."""
    _compare(rec, seat, at, 20.0, 20000, CARD_TEMPERATURE)


@pytest.mark.parametrize(("rec", "seat", "at"), [p for p in _card_views() if p.values[2] != "auction"])
def test_each_world_weighs_what_the_naive_replay_of_its_cards_says(rec, seat, at):
    """World by world, the kernel's card log-likelihood (the weight with the cards over the weight
    without: the same seed draws the same worlds) is the naive replay's, up to the normalising
    constant."""
    rules = house_rules(rec)
    kw = {"seat": seat, "at": at, "worlds": 200, "seed": 4, "temperature": 20.0, "gift_temperature": math.inf,
          "contract_temperature": math.inf}
    with_cards = infer(rec, card_temperature=7.0, **kw)
    bids_only = infer(rec, card_temperature=math.inf, **kw)
    assert np.array_equal(with_cards.deals, bids_only.deals)
    cut = rec.cut(at, seat=seat, rules=rules)
    model = learned_model(rec, rules)
    kernel, naive = [], []
    for i in range(len(with_cards.weights)):
        if bids_only.weights[i] == 0:
            continue
        deal = Record(**{**cut.__dict__, "hands": tuple(int(h) for h in with_cards.deals[i, :3]),
                         "talon": int(with_cards.deals[i, 3]), "view": None, "lines": {}})
        kernel.append(math.log(with_cards.weights[i]) - math.log(bids_only.weights[i]))
        naive.append(naive_cards_loglik(deal, walk(deal, rules), seat, rules, model, 7.0))
    d = np.array(kernel) - np.array(naive)
    assert len(d) > 0 and np.abs(d - d.mean()).max() < 1e-6, np.abs(d - d.mean()).max()


@pytest.mark.parametrize("name", ["classic", "online", "strict", "polish", "long", "mekedron"])
def test_learned_contract_is_unchanged(name):
    """``learned_contract`` (now ``learned_contract_margin``'s call) calls as the frozen 0.15.0
    body does, on random 8-card hands, bids, caps, deal values and standings, barrel sitters and
    concessions among them; the margins are never negative."""
    rules = preset(name)
    rec = parse_record_text(text=EXAMPLE.read_text())
    m = learned_model(rec, rules)
    lbuf = m.scratch()
    rng = np.random.default_rng(11)
    differ = 0
    calls = set()
    for _ in range(1500):
        hand = np.int64(sum(1 << int(c) for c in rng.choice(24, 8, replace=False)))
        seat = int(rng.integers(3))
        high = int(rng.choice(np.arange(100, 205, 5)))
        cap = high + int(rng.choice([0, 5, 20, 60]))
        value = int(rng.integers(-20, 160))
        can = bool(rng.random() < 0.7)
        gs = m.gs.copy()
        for p in range(3):
            gs[G_SCORE + p] = int(rng.choice([0, 400, 880, 905, 950]))
            gs[G_ON_BARREL + p] = int(rng.random() < 0.3)
        old = old_learned_contract(seat, hand, high, cap, can, value, gs, m.rules, m.prm, m.net, lbuf)
        new = learned_contract(seat, hand, high, cap, can, value, gs, m.rules, m.prm, m.net, lbuf)
        observed = int(rng.choice([-1, high, high + 5, old]))
        call, play, play_margin, concede_margin = learned_contract_margin(seat, hand, high, cap, can, value, observed,
                                                                          gs, m.rules, m.prm, m.net, lbuf)
        differ += int(old != new) + int(call != new) + int(call >= 0 and play != call)
        assert play_margin >= 0.0 and concede_margin >= 0.0
        calls.add(int(old == -1))
    assert differ == 0, f"{differ} of 1500 contracts differ"
    if rules.concede:
        assert calls == {0, 1}  # both concessions and contracts were tried


def _defender_views(points):
    """(record, defender, point) of the tests' records: defmar's and the two self-play deals'."""
    recs = [read_records(path=EXAMPLE)[0]] + (list(read_records(path=SELF_PLAY)) if SELF_PLAY.exists() else [])
    out = []
    for k, rec in enumerate(recs):
        d = walk(rec, house_rules(rec)).declarer
        out += [pytest.param(rec, seat, at, id=f"{k}-{seat}-{at}") for seat in range(3) if seat != d for at in points]
    return out


@pytest.mark.parametrize(("rec", "seat", "at"), _defender_views(("talon", "trick:3")))
def test_each_world_weighs_what_the_naive_gifts_and_contract_say(rec, seat, at):
    """World by world, the kernel's log-likelihood of the declarer's gifts and final contract (the
    weight with them over the weight without: the same seed draws the same worlds) is the naive
    twin's (``naive_deal_loglik``), up to the normalising constant; each term alone too."""
    rules = house_rules(rec)
    kw = {"seat": seat, "at": at, "worlds": 300, "seed": 4, "temperature": 20.0, "card_temperature": math.inf,
          "sweep_limit": 0}  # drawn worlds, the same for both (a sweep where the weights collapse: below)
    without = infer(rec, gift_temperature=math.inf, contract_temperature=math.inf, **kw)
    assert not without.gifts_weighted and not without.contract_weighted
    cut = rec.cut(at, seat=seat, rules=rules)
    model = learned_model(rec, rules)
    for tg, tk in ((3.0, 5.0), (3.0, math.inf), (math.inf, 5.0)):
        res = infer(rec, gift_temperature=tg, contract_temperature=tk, **kw)
        assert np.array_equal(res.deals[:without.draws], without.deals)  # (more drawn where the weights collapse)
        assert res.gifts_weighted == math.isfinite(tg) and res.contract_weighted == math.isfinite(tk)
        kernel, naive = [], []
        for i in range(without.draws):
            if without.weights[i] == 0:
                continue
            deal = Record(**{**cut.__dict__, "hands": tuple(int(h) for h in res.deals[i, :3]),
                             "talon": int(res.deals[i, 3]), "view": None, "lines": {}})
            kernel.append(math.log(res.weights[i]) if res.weights[i] > 0 else -math.inf)
            kernel[-1] -= math.log(without.weights[i])
            naive.append(naive_deal_loglik(deal, walk(deal, rules), rules, model, tg, tk, 0.05))
        k, n = np.array(kernel), np.array(naive)
        assert np.array_equal(np.isinf(k), np.isinf(n))
        d = (k - n)[np.isfinite(k)]
        assert len(d) > 0 and np.abs(d - d.mean()).max() < 1e-6, np.abs(d - d.mean()).max()
        if rec.label != EXAMPLE_LABEL:  # the learned player's gifts (defmar's are a person's: the floor alone)
            assert np.ptp(n[np.isfinite(n)]) > 0.1  # the term does tell the worlds apart


def test_a_concession_weighs_what_the_naive_twin_says():
    """defmar's first concedes his 100 instead: seen by a defender after the talon, world by world
    the concession's log-likelihood is the naive twin's, and it tells the worlds apart."""
    text = EXAMPLE.read_text().replace("contract 100", "concede")
    rec = parse_record_text(text="\n".join(line for line in text.splitlines() if not line.startswith(("play",
                                                                                                          "result"))))
    assert rec.conceded
    rules = house_rules(rec)
    model = learned_model(rec, rules)
    kw = {"seat": "second", "at": "talon", "worlds": 300, "seed": 6, "temperature": 20.0, "gift_temperature": math.inf}
    res = infer(rec, contract_temperature=5.0, **kw)
    without = infer(rec, contract_temperature=math.inf, **kw)
    assert res.contract_weighted and not without.contract_weighted
    kernel, naive = [], []
    for i in range(without.draws):
        if without.weights[i] == 0:
            continue
        deal = Record(**{**rec.__dict__, "hands": tuple(int(h) for h in res.deals[i, :3]),
                         "talon": int(res.deals[i, 3]), "view": None, "lines": {}})
        kernel.append(math.log(res.weights[i]) - math.log(without.weights[i]))
        naive.append(naive_deal_loglik(deal, walk(deal, rules), rules, model, math.inf, 5.0, 0.05))
    d = np.array(kernel) - np.array(naive)
    assert np.abs(d - d.mean()).max() < 1e-6 and np.ptp(naive) > 0.1


@pytest.mark.parametrize(("rec", "seat", "at"), _defender_views(("talon", "trick:5")))
def test_worlds_weighted_by_the_gifts_and_contract_match_the_exact_posterior(rec, seat, at):
    """The calls, the declarer's gifts and his final contract weighed: the sampler agrees with every
    deal enumerated and weighed by the naive twin."""
    _compare(rec, seat, at, 20.0, 20000, gift_temperature=2.0, contract_temperature=2.0)


def test_the_declarer_and_the_auction_weigh_no_gifts():
    """Seen by the declarer, or before the talon, the gifts and the contract add nothing."""
    rec = read_records(path=EXAMPLE)[0]
    d = walk(rec, house_rules(rec)).declarer
    kw = {"worlds": 300, "seed": 5}
    for seat, at in ((d, "talon"), (d, "trick:3"), ((d + 1) % 3, "auction")):
        res = infer(EXAMPLE, seat=seat, at=at, **kw)
        off = infer(EXAMPLE, seat=seat, at=at, gift_temperature=math.inf, contract_temperature=math.inf, **kw)
        assert not res.gifts_weighted and not res.contract_weighted
        assert np.array_equal(res.weights, off.weights)
    res = infer(EXAMPLE, seat=(d + 1) % 3, at="talon", **kw)
    assert res.gifts_weighted and res.contract_weighted
    assert not np.allclose(res.weights, infer(EXAMPLE, seat=(d + 1) % 3, at="talon", gift_temperature=math.inf,
                                              contract_temperature=math.inf, **kw).weights)


@pytest.mark.parametrize(("rec", "seat", "at"), _views())
def test_uniform_worlds_match_the_exact_counts(rec, seat, at):
    res = _compare(rec, seat, at, math.inf, 20000)
    assert res.calls_weighted == 0


def test_a_gift_face_down_counts_every_card_it_could_have_been():
    """tysyacha_1000 (discard_face_down): third declares at his forced 100 and gives 9S to first and
    JS to second; first saw the talon KS JS 9S, not second's gift. A world where second holds one
    of KS, JS is one deal (that card was the gift), a world where he holds neither is eight (any
    of his cards): uniformly over the deals, JS lies with second with chance 3432 / (2 * 3432 + 8 *
    3003) = 1/9, as if the declarer had given one of his nine cards left at random."""
    text = EXAMPLE.read_text().replace("rules classic", "rules tysyacha_1000").replace(
        "bids   first 100, second pass, third pass", "bids third 100, first pass, second pass").replace(
        "gifts  9S to second, QS to third", "gifts 9S to first, JS to second")
    rec = parse_record_text(text="\n".join(line for line in text.splitlines()
                                           if not line.startswith(("result", "play"))))
    res = infer(rec, seat="first", at="talon", worlds=20000, seed=2, temperature=math.inf)
    p = dict(zip(res.hidden, res.probabilities()[:, 0], strict=True))
    js, ks = 6 * 0 + 1, 6 * 0 + 3
    tol = 5 * math.sqrt((1 / 9) * (8 / 9) / res.ess)
    assert abs(p[js] - 1 / 9) < tol and abs(p[ks] - 1 / 9) < tol, (p[js], p[ks], tol)


def test_the_cards_weigh_only_once_played():
    """Before the play no card weighs (the weights are the calls' alone; the declarer's gifts and
    contract left out here); at trick 3 the five cards first and second played before third's turn
    do, and ``card_temperature=inf`` weighs none."""
    kw = {"seat": "third", "worlds": 300, "seed": 5, "gift_temperature": math.inf, "contract_temperature": math.inf}
    talon = infer(EXAMPLE, at="talon", **kw)
    assert talon.cards_weighted == 0
    assert np.array_equal(talon.weights, infer(EXAMPLE, at="talon", card_temperature=math.inf, **kw).weights)
    cards = infer(EXAMPLE, at="trick:3", **kw)
    bids = infer(EXAMPLE, at="trick:3", card_temperature=math.inf, **kw)
    assert cards.cards_weighted == 5 and bids.cards_weighted == 0
    assert np.array_equal(cards.where, bids.where) and not np.allclose(cards.weights, bids.weights)
    assert cards.to_dict()["card_temperature"] == CARD_TEMPERATURE


def test_same_seed_same_worlds_on_any_thread_count():
    """Drawn worlds (``sweep_limit`` 0: here the weights collapse and would be swept, the same for
    every seed: ``test_collapsed_weights_weigh_every_deal_exactly``)."""
    kw = {"seat": "second", "at": "trick:3", "worlds": 1100, "sweep_limit": 0}
    a = infer(EXAMPLE, seed=9, threads=1, **kw)
    b = infer(EXAMPLE, seed=9, threads=3, **kw)
    c = infer(EXAMPLE, seed=10, threads=1, **kw)
    assert np.array_equal(a.where, b.where) and np.array_equal(a.deals, b.deals)
    assert np.array_equal(a.weights, b.weights)
    assert not np.array_equal(a.where, c.where)


def _unlikely_text():
    """defmar's deal with an auction of five raises: few hands make them all as the model would."""
    text = EXAMPLE.read_text().replace("bids   first 100, second pass, third pass", "bids first 100, second 105, "
                                       "third 110, first pass, second 115, third 120, second pass")
    return "\n".join(line for line in text.splitlines() if not line.startswith(("gifts", "contract", "play", "result")))


def _unlikely():
    return parse_record_text(text=_unlikely_text())


def test_collapsed_weights_draw_more(tmp_path):
    """On an unlikely auction the weights collapse: every deal the view allows is weighed (3,432:
    the talon shown, 14 hidden cards), the exact answer; where that is more deals than the cap
    leaves (``sweep_limit``), more worlds are drawn, up to the cap, and the result says whether the
    floor was reached."""
    rec = _unlikely()
    res = infer(rec, seat="first", at="auction", worlds=500, seed=1, temperature=5.0)
    assert res.exact and not res.collapsed and len(res.weights) == 3432 and res.draws == 500 + 3432
    assert res.weights.sum() == pytest.approx(1.0)
    drawn = infer(rec, seat="first", at="auction", worlds=500, seed=1, temperature=5.0, sweep_limit=0)
    assert not drawn.exact and drawn.draws == 16 * drawn.asked and drawn.collapsed
    assert drawn.ess < 0.05 * drawn.asked and len(drawn.weights) == drawn.draws
    few = infer(rec, seat="first", at="auction", worlds=200, seed=1, temperature=5.0)  # 15 * 200 < 3,432 deals
    assert not few.exact and few.draws > few.asked and len(few.weights) == few.draws
    easy = infer(EXAMPLE, seat="first", at="auction", worlds=500, seed=1)
    assert easy.draws == easy.asked and not easy.collapsed and not easy.exact
    out = CliRunner().invoke(app, ["infer", str(EXAMPLE), "--seat", "first", "--at", "auction"])
    assert "collapsed" not in out.output
    path = tmp_path / "unlikely.txt"
    path.write_text(_unlikely_text() + "\n")
    out = CliRunner().invoke(app, ["infer", str(path), "--seat", "first", "--at", "auction", "--wide"])
    lines = out.output.splitlines()
    assert out.exit_code == 0 and lines[0].endswith("; the exact answer"), out.output
    assert lines[1].startswith("  the weights collapsed: every deal the view allows weighed instead (3,432 worlds")


def _collapsing_views():
    """Defenders' views of the self-play deals whose weights collapse at the shipped temperatures
    (the calls at 1 point, the cards at 0.01, the gifts and the contract at 0.03: few deals make
    the learned declarer give that pair and call that contract): every one after the talon, and
    the ones that fall below the floor after 2,000 worlds at tricks 2 and 3."""
    recs = list(read_records(path=SELF_PLAY)) if SELF_PLAY.exists() else []
    chosen = ((1, 0, "talon"), (1, 2, "talon"), (1, 0, "trick:3"), (2, 0, "talon"), (2, 1, "talon"),
              (2, 0, "trick:2"), (2, 1, "trick:2"), (2, 0, "trick:3"))
    return [pytest.param(recs[k - 1], seat, at, id=f"{k}-{seat}-{at}") for k, seat, at in chosen if k <= len(recs)]


@pytest.mark.parametrize(("rec", "seat", "at"), _collapsing_views())
def test_collapsed_weights_weigh_every_deal_exactly(rec, seat, at):
    """Where the weights collapse at the shipped temperatures, every deal the view allows is weighed
    once: the answer is the exact twin's (every deal replayed and weighed in plain Python), within
    float rounding, not within a Monte-Carlo error; drawing to the cap as before (``sweep_limit``
    0) is further from it; the answer is the same on any thread count and from any seed."""
    rules = house_rules(rec)
    res = infer(rec, seat=seat, at=at, worlds=2000, seed=3)
    assert res.gifts_weighted and res.contract_weighted
    assert res.exact and not res.collapsed and res.draws == 2000 + len(res.weights)
    exact, n = exact_posterior(rec, seat, at, rules, TEMPERATURE, CARD_TEMPERATURE, GIFT_TEMPERATURE,
                               CONTRACT_TEMPERATURE)
    assert n <= len(res.weights)  # the enumeration's deals the walk refuses weigh 0
    p = res.probabilities()
    worst = max(float(np.abs(p[i] - exact[c]).max()) for i, c in enumerate(res.hidden))
    assert worst <= EXACT_TOLERANCE, worst
    other = infer(rec, seat=seat, at=at, worlds=2000, seed=4, threads=3)
    assert np.array_equal(other.weights, res.weights) and np.array_equal(other.deals, res.deals)
    drawn = infer(rec, seat=seat, at=at, worlds=2000, seed=3, sweep_limit=0)
    assert not drawn.exact and drawn.draws > 2000
    assert float(np.abs(drawn.probabilities() - p).max()) > worst


def test_to_polars_and_json():
    res = infer(EXAMPLE, seat="second", at="auction", worlds=500)
    df = res.to_polars()
    assert df.columns == ["card", "left", "right", "talon"]
    assert df.height == 14  # the talon is shown once the auction is over
    assert np.allclose(df["left"] + df["right"] + df["talon"], 1.0)
    assert (df["talon"] == 0).all()
    d = res.to_dict()
    assert len(d["worlds_drawn"]) == res.draws and d["provenance"]["seed"] == 0


INCONSISTENT = """thousand record 1
rules classic
view second
second AC? JC AS TS KS QS 9S
""".replace("AC? ", "9C ") + """talon 9D JD QD
bids first 100, second 105, third pass, first pass
gifts 9D to third, JD to first
contract 105
play 9C AH TH
"""


@pytest.mark.parametrize(("kwargs", "names"), [
    ({"seat": "fourth", "at": "auction"}, "seat"),
    ({"seat": "first", "at": "trick:9"}, "at"),
    ({"seat": "first", "at": "bidding"}, "at"),
    ({"seat": "first", "at": "auction", "worlds": 0}, "worlds"),
    ({"seat": "first", "at": "auction", "seed": -1}, "seed"),
    ({"seat": "first", "at": "auction", "temperature": 0}, "temperature"),
    ({"seat": "first", "at": "auction", "card_temperature": -1}, "card_temperature"),
    ({"seat": "first", "at": "auction", "card_temperature": "hot"}, "card_temperature"),
    ({"seat": "first", "at": "auction", "gift_temperature": 0}, "gift_temperature"),
    ({"seat": "first", "at": "auction", "contract_temperature": -2}, "contract_temperature"),
    ({"seat": "first", "at": "auction", "gift_floor": 1.5}, "gift_floor"),
    ({"seat": "first", "at": "auction", "sweep_limit": -1}, "sweep_limit"),
    ({"seat": "first", "at": "auction", "sweep_limit": 2.5}, "sweep_limit"),
])
def test_bad_arguments_are_named(kwargs, names):
    with pytest.raises(InputError, match=rf"^{names}\b"):
        infer(EXAMPLE, **kwargs)


def test_bad_records_are_refused_in_one_line(tmp_path):
    with pytest.raises(InputError, match=r"QC can lie nowhere \(third showed out of clubs \(trick 1\); first "):
        infer(INCONSISTENT, seat="second", at="trick:2")
    with pytest.raises(InputError, match=r"^at: the record holds 1 whole trick"):
        infer(INCONSISTENT, seat="second", at="trick:4")
    with pytest.raises(InputError, match=r"^seat: the record is second's view"):
        infer(INCONSISTENT, seat="first", at="auction")
    with pytest.raises(InputError, match=r"^gift_floor: 0 leaves no deal drawn"):  # a person's gifts, not candidates
        infer(EXAMPLE, seat="second", at="talon", gift_floor=0, worlds=200)
    with pytest.raises(InputError, match=r"^record: '.*' is no record file"):
        infer(tmp_path / "missing.txt", seat="first", at="auction")
    runner = CliRunner()
    out = runner.invoke(app, ["infer", str(EXAMPLE), "--seat", "north", "--at", "auction"])
    assert out.exit_code == 2 and out.output.count("\n") == 1 and "seat must be" in out.output
    out = runner.invoke(app, ["infer", str(EXAMPLE), "--seat", "first", "--at", "talon", "--gift-temperature", "0"])
    assert out.exit_code == 2 and out.output.count("\n") == 1 and "gift_temperature must be above 0" in out.output
    path = tmp_path / "bad.txt"
    path.write_text(INCONSISTENT)
    out = runner.invoke(app, ["infer", str(path), "--seat", "second", "--at", "trick:2"])
    assert out.exit_code == 2 and out.output.count("\n") == 1 and "can lie nowhere" in out.output


def test_the_command_answers_first_and_fits_80_columns():
    out = CliRunner().invoke(app, ["infer", str(EXAMPLE), "--seat", "third", "--at", "trick:3"], env={"COLUMNS": "80"})
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0].startswith("third's view at trick:3: 8 hidden cards, 2,000 worlds weighted by 1 call")
    assert max(map(len, lines)) <= 80
    surest = next(i for i, line in enumerate(lines) if line.startswith("surest: "))
    assert "QC right 100%" in " ".join(lines[surest:surest + 2])


SELF_PLAY_STRICT = Path(__file__).parent / "self_play_strict.jsonl"  # the learned player's self-play, strict rules
SELF_PLAY_FACE_DOWN = Path(__file__).parent / "self_play_tysyacha.jsonl"  # ... tysyacha_1000: gifts face down


def lowest(mask: int) -> int:
    """The one card of a one-card mask."""
    assert mask and mask & (mask - 1) == 0, mask
    return mask.bit_length() - 1


def _swept_against_the_twins(rec, seat, at):
    """Where the weights collapse a sweep weighs every deal once: world by world its weight is the
    twins' (the two other seats' calls, the gifts and contract, the cards: ``naive_deal_loglik``,
    ``naive_cards_loglik``; a gift face down: each card it may have been a world of its own, no
    prior weight), a talon the defender never saw summed out (the mean over the declarer's 120
    talons of his calls' likelihood holding the other 7), up to the normalising constant; the
    answer agrees with drawing to the cap within that one's Monte-Carlo error; the same on any
    thread count."""
    rules = house_rules(rec)
    declarer = walk(rec, rules).declarer
    assert seat != declarer
    res = infer(rec, seat=seat, at=at, worlds=2000, seed=3)
    assert res.exact and not res.collapsed and res.draws == 2000 + len(res.weights)
    assert np.array_equal(infer(rec, seat=seat, at=at, worlds=2000, seed=3, threads=3).weights, res.weights)
    model = learned_model(rec, rules)
    auction = auction_arrays(rec.cut("auction"), rules)
    lbuf = model.scratch()
    cut = rec.cut(at, seat=seat, rules=rules)
    other = 3 - seat - declarer
    facts = view_facts(rec, seat, at, rules)
    unseen = facts.talon < 0
    other_loc = 0 if other == (seat + 1) % 3 else 1

    def calls(s, hand):
        return auction_loglik(s, np.int64(hand), auction.seat, auction.bid, auction.high, auction.high_seat,
                              auction.dark, auction.free, model.gs, model.rules, model.prm, model.net, lbuf,
                              1.0 / TEMPERATURE)

    kernel, naive = [], []
    # The heaviest worlds, within e^-10 of the heaviest: a talon never seen is summed out of them (of
    # a world e^-20 below the sweep's best before the declarer's calls, the one dealt weighs alone)
    for i in np.flatnonzero(res.weights >= res.weights.max() * math.exp(-10)):
        hands = [int(h) for h in res.deals[i, :3]]
        ten = hands[declarer] | int(res.deals[i, 3])
        # the world's gift to the other defender (face down: the world's own): his 8 cards less his 7
        given = (int(res.where[i, other_loc]) | int(facts.pool[other])) & ~hands[other]
        gifts = tuple(Gift(card=lowest(given), to=g.to) if g.to == other else g for g in cut.gifts)
        deal = Record(**{**cut.__dict__, "hands": tuple(hands), "talon": int(res.deals[i, 3]), "gifts": gifts,
                         "view": None, "lines": {}})
        w = walk(deal, rules)
        if unseen:
            talons = [math.exp(calls(declarer, ten & ~sum(1 << c for c in t)))
                      for t in itertools.combinations(mask_to_cards(ten), 3)]
            assert len(talons) == 120
            declarer_calls = math.log(np.mean(talons))
        else:
            declarer_calls = calls(declarer, hands[declarer])
        kernel.append(math.log(res.weights[i]))
        naive.append(calls(other, hands[other]) + declarer_calls
                     + naive_deal_loglik(deal, w, rules, model, GIFT_TEMPERATURE, CONTRACT_TEMPERATURE, GIFT_FLOOR)
                     + naive_cards_loglik(deal, w, seat, rules, model, CARD_TEMPERATURE))
    d = np.array(kernel) - np.array(naive)
    assert len(d) > 1 and np.abs(d - d.mean()).max() < SUMMED_TOLERANCE, (len(d), np.abs(d - d.mean()).max())
    drawn = infer(rec, seat=seat, at=at, worlds=2000, seed=3, sweep_limit=0)
    assert not drawn.exact and drawn.draws > 2000
    tol = 5 * 0.5 / math.sqrt(drawn.ess)
    assert float(np.abs(drawn.probabilities() - res.probabilities()).max()) <= tol
    return res


@pytest.mark.parametrize(("seat", "at"), [(0, "talon"), (1, "talon"), (0, "trick:2")])
def test_a_talon_never_seen_is_summed_out(seat, at):
    """Under strict rules (talon_shown_to_declarer_only) a defender never sees the talon: the sweep
    sums it out of each placement's weight (only the declarer's calls read it)."""
    _swept_against_the_twins(read_records(path=SELF_PLAY_STRICT)[0], seat, at)


@pytest.mark.parametrize(("seat", "at"), [(0, "trick:2"), (1, "trick:2")])
def test_a_gift_face_down_is_swept_card_by_card(seat, at):
    """Under tysyacha_1000 (discard_face_down) a defender does not see the other's gift: the sweep
    weighs each card it may have been as a deal of its own (8 slots a placement, those beyond the
    cards it may have been weighing nothing)."""
    res = _swept_against_the_twins(read_records(path=SELF_PLAY_FACE_DOWN)[0], seat, at)
    assert len(res.weights) % 8 == 0 and (res.weights == 0).any()
