"""The temperature and the calibration of the inference of the hidden hands (docs/inference.md),
on records of the learned player's self-play (`thousand simulate --deals N --players learned
--seed S --records --out DIR`):

- **fit** (``--fit DIR``, seed 31337): for each temperature of ``--grid``, the mean log-loss of the
  true places of the hidden cards (-log of the probability given to where each lies), at 2,000
  worlds, over the views of ``--fit-deals`` deals (every seat, after the auction, after the talon
  and at trick 4); the temperature of least log-loss is the one to ship. Not the likelihood of the
  calls themselves: the learned player's calls are a deterministic function of its hand, so the
  calls' own likelihood is greatest as T -> 0, which is no model of how sure to be of the cards.
- **fit of the cards' temperature** (``--fit-cards DIR``, seed 31337): the same for T_card, the
  calls at TEMPERATURE, over the views at tricks 2, 4 and 6 (the cards weigh nothing before the
  play); ``inf`` in the grid: the calls alone.
- **fit of the declarer's gifts and contract** (``--fit-deal DIR``, seed 31337): the same for
  T_gift (the grid ``--grid``, the contract not weighed), then for T_contract (``--grid-contract``,
  the gifts at the T_gift chosen), then the gifts' uniform share (``--floors``) at both, the calls
  and the cards at theirs, over the defenders' views (the declarer's own gifts and contract say
  nothing to him) at DEAL_POINTS: after the talon and at tricks 2 and 4.
- **the searched cards** (``--search DIR``): on the true hands of ``--fit-deals`` deals, every
  card played with a choice, split by whether the seat held more cards than its search_cards
  (the net's card) or not (the learned player searched): how often the card net's best card is
  the one played, and the mean log-likelihood of the card played at the cards' temperature. Why
  the searched cards add no term.
- **check** (``--check DIR``, seed 424242, never used for fitting): the log-loss of inference at
  ``--temperature`` against uniform worlds (T = infinity, the same certain facts), after the
  auction, after the talon and gifts, and at tricks 2, 4 and 6 (before the seat plays in it), the
  difference's 95% interval clustered by deal (each deal's views averaged, the deals independent)
  and its p-value, Holm-corrected over the five points; a reliability table and plot (predicted
  probability of each card in each place, in bins, against how often it lay there); and the
  marriage figure of issue 47: a seat whose highest bid was 105 or more, seen by another seat
  after the auction, its inferred chance of holding a marriage against uniform and the truth;
  and (``--others``) the chosen temperature's log-loss against other temperatures' on the same
  held-out views, paired by deal: whether the choice survives another seed.

    python benchmarks/infer_calibration.py --fit out/self31337 --fit-deals 300
    python benchmarks/infer_calibration.py --fit-cards out/self31337 --fit-deals 300 --grid 2,5,10,20,40,inf
    python benchmarks/infer_calibration.py --search out/self31337 --fit-deals 300
    python benchmarks/infer_calibration.py --check out/self424242 --check-deals 1000 --temperature T \
        --card-temperature TC --plot docs/inference-reliability.png

``--check-deal DIR`` (seed 424242) sets inference with the gifts and the contract against inference
without them (the calls and the cards alone) on the defenders' views at DEAL_POINTS, paired by
view, clustered by deal, Holm over the three points.

    python benchmarks/infer_calibration.py --fit-deal out/self31337 --fit-deals 200 --grid 0.3,1,3,10,inf \
        --grid-contract 0.3,1,3,10,inf --floors 0,0.05,0.2
    python benchmarks/infer_calibration.py --check-deal out/self424242 --check-deals 250

``--check-sampler DIR`` (seed 424242) sets the sweep (where the weights collapse and the
view allows, every deal weighed once: the exact answer) against the one before (``sweep_limit`` 0:
more worlds drawn, up to the cap) on every seat's view at SAMPLER_POINTS, everything weighed at the
shipped temperatures, paired by view, clustered by deal, Holm over the points; with how many views
each way drew more or was exact, and the CPU time each took.

    python benchmarks/infer_calibration.py --check-sampler out/self424242 --check-deals 200

The check sets inference (the calls and the cards) against uniform worlds at every point and,
where cards have been played (tricks 2, 4 and 6), against the calls alone (``bids``): the gain of
weighing the cards, paired by view, clustered by deal, Holm over the three points.

A probability below ``EPS`` is counted as EPS (a card's true place given no world at all would
make the log-loss infinite).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import numpy as np

from analysis.present.figure import pyplot, save
from analysis.stats import holm, two_sided_p
from sim.inference import CARD_TEMPERATURE, CONTRACT_TEMPERATURE, GIFT_TEMPERATURE, TEMPERATURE, infer
from sim.inference.model import learned_model, play_rows
from sim.inference.view import view_facts
from sim.players.layout import H_SEARCH_CARDS
from sim.players.learned.cards_nb import L_OUT, best_legal
from sim.players.learned.layout import P_CHOSEN, P_HAND, P_LEGAL, P_PLAYED_BY, P_SEAT
from sim.players.learned.play_likelihood_nb import card_loglik, decision_legal, seat_known
from sim.records import read_records
from sim.records.walk import RecordError, house_rules, walk

EPS = 1e-3
WORLDS = 2000
POINTS = ("auction", "talon", "trick:2", "trick:4", "trick:6")
FIT_POINTS = ("auction", "talon", "trick:4")
CARD_POINTS = ("trick:2", "trick:4", "trick:6")  # where the cards played weigh
DEAL_POINTS = ("talon", "trick:2", "trick:4")  # where the declarer's gifts and contract are checked
SAMPLER_POINTS = ("talon", "trick:2", "trick:4", "trick:6")  # where the weights collapse (the old sampler drew more)
BINS = np.linspace(0.0, 1.0, 11)
MARRIAGES = [(1 << (6 * s + 2)) | (1 << (6 * s + 3)) for s in range(4)]  # queen and king of each suit


def has_marriage(hand: int) -> bool:
    return any(hand & m == m for m in MARRIAGES)


def usable(rec) -> bool:
    """A deal played out: not thrown in, not conceded (tricks to cut at)."""
    return rec.auction is not None and rec.contract is not None and not rec.conceded and len(rec.tricks) == 8


def truth(rec, seat: int, at: str, res) -> np.ndarray:
    """(len(hidden),) the index of each hidden card's true place now (0 left, 1 right, 2 talon)."""
    rules = house_rules(rec)
    w = walk(rec, rules)
    left, right = (seat + 1) % 3, (seat + 2) % 3
    now = {}
    for p in range(3):
        for c in range(24):
            if (rec.hands[p] >> c) & 1:
                now[c] = p
    for c in range(24):
        if (rec.talon >> c) & 1:
            now[c] = 3 if at == "auction" else w.declarer
    if at != "auction":
        for g in rec.gifts:
            now[g.card] = g.to
    place = {left: 0, right: 1, 3: 2}
    return np.array([place[now[c]] for c in res.hidden])


def view_loss(p: np.ndarray, true: np.ndarray) -> float:
    if len(true) == 0:
        return float("nan")
    return float(-np.log(np.maximum(p[np.arange(len(true)), true], EPS)).mean())


def fit(folder: Path, n: int, grid: list[float], seed: int, cards: bool = False) -> dict:
    """Each temperature's mean log-loss over the views of ``n`` deals, and the one chosen: the
    largest within one standard error (paired by deal) of the least (the one-standard-error rule:
    where the log-loss is flat, the temperature that trusts the model least). ``cards``: the
    grid is the cards' temperature, the calls' at TEMPERATURE, the views at CARD_POINTS."""
    recs = [r for r in read_records(path=folder / "records.jsonl") if usable(r)][:n]
    per_deal = {}
    points = CARD_POINTS if cards else FIT_POINTS
    for t in grid:
        t0 = time.process_time()
        losses = []
        kw = {"temperature": TEMPERATURE, "card_temperature": t} if cards else {"temperature": t,
                                                                                "card_temperature": math.inf}
        for rec in recs:
            views = []
            for seat in range(3):
                for at in points:
                    res = infer(rec, seat=seat, at=at, worlds=WORLDS, seed=seed, threads=1, **kw)
                    views.append(view_loss(res.probabilities(), truth(rec, seat, at, res)))
            losses.append(float(np.nanmean(views)))
        per_deal[t] = np.array(losses)
        print(f"T = {t:g}: log-loss {per_deal[t].mean():.5f} over {len(recs)} deals' views "
              f"({time.process_time() - t0:.0f} s CPU)", flush=True)
    best = min(grid, key=lambda t: per_deal[t].mean())
    out = {"deals": len(recs), "points": list(points), "least": best, "temperatures": {},
           "fitted": "card_temperature" if cards else "temperature"}
    for t in grid:
        d = per_deal[t] - per_deal[best]
        se = float(d.std(ddof=1) / math.sqrt(len(d))) if t != best else 0.0
        out["temperatures"][f"{t:g}"] = {"log_loss": float(per_deal[t].mean()), "minus_least": float(d.mean()),
                                         "se": se}
    out["chosen"] = max(t for t in grid if per_deal[t].mean() - per_deal[best].mean()
                        <= out["temperatures"][f"{t:g}"]["se"])
    return out


def _deal_views(recs) -> list[tuple[int, int, str]]:
    """(deal, defender, point) of every defender's view of ``recs`` at DEAL_POINTS."""
    out = []
    for k, rec in enumerate(recs):
        d = int(walk(rec, house_rules(rec)).declarer)
        out.extend((k, seat, at) for seat in range(3) if seat != d for at in DEAL_POINTS)
    return out


def _deal_losses(recs, views, seed: int, **kw) -> np.ndarray:
    """Each deal's mean log-loss over its defenders' ``views`` under ``infer(**kw)``."""
    per = [[] for _ in recs]
    for k, seat, at in views:
        res = infer(recs[k], seat=seat, at=at, worlds=WORLDS, seed=seed, threads=1, **kw)
        per[k].append(view_loss(res.probabilities(), truth(recs[k], seat, at, res)))
    return np.array([float(np.nanmean(v)) for v in per])


def _one_se(losses: dict[float, np.ndarray]) -> dict:
    """The figures of a grid (each value's per-deal losses): least, and chosen by the
    one-standard-error rule (the largest value within one SE of the least, paired by deal)."""
    best = min(losses, key=lambda t: losses[t].mean())
    out = {"least": best, "values": {}}
    for t, v in losses.items():
        d = v - losses[best]
        se = float(d.std(ddof=1) / math.sqrt(len(d))) if t != best else 0.0
        out["values"][f"{t:g}"] = {"log_loss": float(v.mean()), "minus_least": float(d.mean()), "se": se,
                                   "per_deal": v.tolist()}
    out["chosen"] = max(t for t in losses if losses[t].mean() - losses[best].mean() <= out["values"][f"{t:g}"]["se"])
    return out


def fit_deal(folder: Path, n: int, grid: list[float], grid_contract: list[float], floors: list[float],
             seed: int) -> dict:
    """T_gift over ``grid`` (the contract not weighed), then T_contract over ``grid_contract`` (the
    gifts at the T_gift chosen), then the gifts' uniform share over ``floors`` at both chosen; the
    calls and the cards at theirs; the defenders' views of ``n`` deals at DEAL_POINTS."""
    recs = [r for r in read_records(path=folder / "records.jsonl") if usable(r)][:n]
    views = _deal_views(recs)
    out = {"deals": len(recs), "views": len(views), "points": list(DEAL_POINTS)}

    def run(label: str, values: list[float], kw_of) -> dict:
        losses = {}
        for v in values:
            t0 = time.process_time()
            losses[v] = _deal_losses(recs, views, seed, **kw_of(v))
            print(f"{label} = {v:g}: log-loss {losses[v].mean():.5f} over {len(views)} views of {len(recs)} deals "
                  f"({time.process_time() - t0:.0f} s CPU)", flush=True)
        return _one_se(losses)

    out["gift_temperature"] = run("T_gift", grid, lambda v: {"gift_temperature": v, "contract_temperature": math.inf})
    tg = out["gift_temperature"]["chosen"]
    out["contract_temperature"] = run("T_contract", grid_contract,
                                      lambda v: {"gift_temperature": tg, "contract_temperature": v})
    tk = out["contract_temperature"]["chosen"]
    if floors:
        out["gift_floor"] = run("gift floor", floors, lambda v: {"gift_temperature": tg, "contract_temperature": tk,
                                                                 "gift_floor": v})
    return out


def check_deal(folder: Path, n: int, seed: int, others: list[tuple[float, float]] = ()) -> dict:
    """Inference with the declarer's gifts and contract (GIFT_TEMPERATURE, CONTRACT_TEMPERATURE)
    against inference without them (the calls and the cards) on the defenders' views of ``n``
    held-out deals at DEAL_POINTS, each term alone beside them: paired by view, each deal's views
    averaged (clustered by deal), Holm over the points of each comparison. ``others``: other
    (T_gift, T_contract) set beside the chosen ones (the points' mean, paired by deal)."""
    recs = [r for r in read_records(path=folder / "records.jsonl") if usable(r)][:n]
    kinds = {"both": {}, "gifts": {"contract_temperature": math.inf}, "contract": {"gift_temperature": math.inf},
             "without": {"gift_temperature": math.inf, "contract_temperature": math.inf},
             **{f"{tg:g}:{tk:g}": {"gift_temperature": tg, "contract_temperature": tk} for tg, tk in others}}
    per = {at: {kind: [[] for _ in recs] for kind in kinds} for at in DEAL_POINTS}
    ess = {at: {kind: [] for kind in kinds} for at in DEAL_POINTS}
    t0 = time.process_time()
    for k, seat, at in _deal_views(recs):
        for kind, kw in kinds.items():
            res = infer(recs[k], seat=seat, at=at, worlds=WORLDS, seed=seed, threads=1, **kw)
            per[at][kind][k].append(view_loss(res.probabilities(), truth(recs[k], seat, at, res)))
            ess[at][kind].append(res.ess / WORLDS)
        if seat == 2 and at == DEAL_POINTS[-1] and (k + 1) % 50 == 0:
            print(f"{k + 1} deals ({time.process_time() - t0:.0f} s CPU)", flush=True)
    out = {"deals": len(recs), "worlds": WORLDS, "seed": seed, "gift_temperature": GIFT_TEMPERATURE,
           "contract_temperature": CONTRACT_TEMPERATURE, "points": {}}
    for at in DEAL_POINTS:
        mean = {kind: np.array([float(np.nanmean(v)) if v else math.nan for v in per[at][kind]]) for kind in kinds}
        row = {kind: float(np.nanmean(mean[kind])) for kind in kinds}
        for kind in ("both", "gifts", "contract"):
            a, b = mean[kind], mean["without"]
            ok = ~(np.isnan(a) | np.isnan(b))
            d = a[ok] - b[ok]
            se = float(d.std(ddof=1) / math.sqrt(len(d)))
            row[f"{kind}_minus_without"] = {"difference": float(d.mean()), "low": float(d.mean() - 1.96 * se),
                                            "high": float(d.mean() + 1.96 * se), "deals": int(ok.sum()),
                                            "z": float(d.mean() / se) if se > 0 else math.nan,
                                            "p": two_sided_p(float(d.mean()), se)}
        row["ess_median_share"] = {kind: float(np.median(ess[at][kind])) for kind in kinds}
        out["points"][at] = row
    base = np.nanmean(np.array([[float(np.nanmean(v)) if v else math.nan for v in per[at]["both"]]
                                for at in DEAL_POINTS]), axis=0)
    out["others"] = {}
    for tg, tk in others:
        other = np.nanmean(np.array([[float(np.nanmean(v)) if v else math.nan for v in per[at][f"{tg:g}:{tk:g}"]]
                                     for at in DEAL_POINTS]), axis=0)
        d = base - other
        se = float(d.std(ddof=1) / math.sqrt(len(d)))
        out["others"][f"{tg:g}:{tk:g}"] = {"log_loss": float(other.mean()), "chosen_minus_this": float(d.mean()),
                                           "low": float(d.mean() - 1.96 * se), "high": float(d.mean() + 1.96 * se)}
    out["chosen_log_loss"] = float(base.mean())
    for kind in ("both", "gifts", "contract"):
        key = f"{kind}_minus_without"
        for at, q in zip(DEAL_POINTS, holm([out["points"][at][key]["p"] for at in DEAL_POINTS]), strict=True):
            out["points"][at][key]["p_holm"] = q
    return out


def check_sampler(folder: Path, n: int, seed: int) -> dict:
    """The sampler (every deal weighed once where the weights collapse) against drawing more as
    before (``sweep_limit`` 0) on every seat's view of ``n`` held-out deals at SAMPLER_POINTS, at
    the shipped temperatures: each point's log-loss both ways, the difference's 95% interval
    clustered by deal (each deal's views averaged), Holm over the points; the views exact, drawing
    more and still below the floor; the CPU seconds each way (one thread); the views the record
    walk refuses, left out."""
    recs = [r for r in read_records(path=folder / "records.jsonl") if usable(r)][:n]
    kinds = {"new": {}, "old": {"sweep_limit": 0}}
    per = {at: {kind: [[] for _ in recs] for kind in kinds} for at in SAMPLER_POINTS}
    counts = {at: {kind: {"exact": 0, "drew_more": 0, "collapsed": 0, "cpu": 0.0} for kind in kinds}
              for at in SAMPLER_POINTS}
    views = 0
    refused = dict.fromkeys(SAMPLER_POINTS, 0)
    t0 = time.process_time()
    for k, rec in enumerate(recs):
        for seat in range(3):
            for at in SAMPLER_POINTS:
                try:  # 0.16.0's walk refused some tysyacha_1000 views (mended in 0.17.0): a guard, counted
                    view_facts(rec, seat, at, house_rules(rec))
                except RecordError:
                    refused[at] += 1
                    continue
                views += 1
                for kind, kw in kinds.items():
                    c0 = time.process_time()
                    res = infer(rec, seat=seat, at=at, worlds=WORLDS, seed=seed, threads=1, **kw)
                    row = counts[at][kind]
                    row["cpu"] += time.process_time() - c0
                    row["exact"] += int(res.exact)
                    row["drew_more"] += int(res.draws > WORLDS and not res.exact)
                    row["collapsed"] += int(res.collapsed)
                    per[at][kind][k].append(view_loss(res.probabilities(), truth(rec, seat, at, res)))
        if (k + 1) % 25 == 0:
            print(f"{k + 1} deals ({time.process_time() - t0:.0f} s CPU)", flush=True)
    out = {"deals": len(recs), "views": views, "worlds": WORLDS, "seed": seed, "points": {}}
    for at in SAMPLER_POINTS:
        mean = {kind: np.array([float(np.nanmean(v)) for v in per[at][kind]]) for kind in kinds}
        ok = ~(np.isnan(mean["new"]) | np.isnan(mean["old"]))
        d = mean["new"][ok] - mean["old"][ok]
        se = float(d.std(ddof=1) / math.sqrt(len(d)))
        out["points"][at] = {"new": float(mean["new"][ok].mean()), "old": float(mean["old"][ok].mean()),
                             "difference": float(d.mean()), "low": float(d.mean() - 1.96 * se),
                             "high": float(d.mean() + 1.96 * se), "deals": int(ok.sum()),
                             "z": float(d.mean() / se) if se > 0 else math.nan, "p": two_sided_p(float(d.mean()), se),
                             "refused": refused[at], **{f"{kind}_views": counts[at][kind] for kind in kinds}}
    for at, q in zip(SAMPLER_POINTS, holm([out["points"][at]["p"] for at in SAMPLER_POINTS]), strict=True):
        out["points"][at]["p_holm"] = q
    return out


def searched(folder: Path, n: int, card_temperature: float) -> dict:
    """The card net against the cards played on the true hands, the net's decisions (more cards
    than search_cards) apart from the searched ones."""
    recs = [r for r in read_records(path=folder / "records.jsonl") if usable(r)][:n]
    out = {"net": {"decisions": 0, "agree": 0, "loglik": 0.0}, "searched": {"decisions": 0, "agree": 0,
                                                                             "loglik": 0.0}}
    for rec in recs:
        rules = house_rules(rec)
        model = learned_model(rec, rules)
        plays = play_rows(rec, -1, rules)
        w = walk(rec, rules)
        d = int(w.declarer)
        gifts = np.zeros(3, dtype=np.int64)
        for g in rec.gifts:
            gifts[g.to] = 1 << g.card
        lbuf, lidx, pos = model.card_scratch()
        for row in plays.rows:
            seat = int(row[P_SEAT])
            hand = int(plays.played_now[seat]) & ~int(row[P_PLAYED_BY + seat])  # all is played by the end
            legal = int(decision_legal(row, np.int64(hand), model.rules))
            if bin(legal).count("1") < 2:
                continue
            pos[:] = row
            pos[P_HAND + seat] = hand
            pos[P_LEGAL] = legal
            seat_known(pos, seat, d, np.int64(plays.shown), gifts, plays.face_up, np.zeros(9, dtype=np.int64))
            ll = card_loglik(pos, model.rules, model.prm, model.net, lbuf, lidx, 1.0 / card_temperature)
            best = int(best_legal(lbuf[L_OUT], np.int64(legal), seat == d))
            kind = "net" if bin(hand).count("1") > model.prm[seat, H_SEARCH_CARDS] else "searched"
            out[kind]["decisions"] += 1
            out[kind]["agree"] += int(best == row[P_CHOSEN])
            out[kind]["loglik"] += ll
    for v in out.values():
        v["agreement"] = v["agree"] / max(1, v["decisions"])
        v["mean_loglik"] = v["loglik"] / max(1, v["decisions"])
    return {"deals": len(recs), "card_temperature": card_temperature, **out}


def check(folder: Path, n: int, temperature: float, card_temperature: float, seed: int, plot: Path | None,
          others: list[float], points: tuple[str, ...] = POINTS) -> dict:
    """Inference (the calls at ``temperature``, the cards at ``card_temperature``) against uniform
    worlds at every point and against the calls alone at CARD_POINTS; ``others``: other cards'
    temperatures set beside the chosen one at CARD_POINTS. ``points``: the points checked (CARD_POINTS:
    only where the cards weigh; before the play inference is the calls' alone)."""
    recs = [r for r in read_records(path=folder / "records.jsonl") if usable(r)][:n]
    kinds = ["inf", "bids", "uni"] + [f"T={t:g}" for t in others]
    kw = {"inf": {"temperature": temperature, "card_temperature": card_temperature},
          "bids": {"temperature": temperature, "card_temperature": math.inf},
          "uni": {"temperature": math.inf},
          **{f"T={t:g}": {"temperature": temperature, "card_temperature": t} for t in others}}
    per_point = {at: {kind: [] for kind in kinds} for at in points}  # per deal: mean over the seats' views
    rel = {"inf": ([], []), "bids": ([], []), "uni": ([], [])}
    marriage = {"inf": [], "uni": [], "true": [], "deal": []}
    ess = {at: [] for at in points}
    draws_more = {at: 0 for at in points}
    t0 = time.process_time()
    for k, rec in enumerate(recs):
        top = [max([c.bid for c in rec.auction if c.seat == s and c.bid > 0] + [0]) for s in range(3)]
        for at in points:
            deal_loss = {kind: [] for kind in kinds}
            # before the play no card weighs: the calls alone are inference there
            here = kinds if at in CARD_POINTS else ["inf", "uni"]
            for seat in range(3):
                res = {kind: infer(rec, seat=seat, at=at, worlds=WORLDS, seed=seed, threads=1, **kw[kind])
                       for kind in here}
                if "bids" not in res:
                    res["bids"] = res["inf"]
                true = truth(rec, seat, at, res["inf"])
                ess[at].append(res["inf"].ess / WORLDS)
                draws_more[at] += res["inf"].draws > WORLDS
                for kind, r in res.items():
                    p = r.probabilities()
                    deal_loss[kind].append(view_loss(p, true))
                    if kind not in rel:
                        continue
                    places = 3 if r.talon_place else 2
                    onehot = np.zeros((len(true), 3))
                    onehot[np.arange(len(true)), true] = 1
                    rel[kind][0].extend(p[:, :places].ravel())
                    rel[kind][1].extend(onehot[:, :places].ravel())
                if at == "auction":
                    for s in range(3):
                        if s != seat and top[s] >= 105:
                            for kind in ("inf", "uni"):
                                r = res[kind]
                                marriage[kind].append(float(r.weights @ np.array([has_marriage(int(d))
                                                                                   for d in r.deals[:, s]])))
                            marriage["true"].append(float(has_marriage(rec.hands[s])))
                            marriage["deal"].append(k)
            for kind in kinds:
                per_point[at][kind].append(float(np.nanmean(deal_loss[kind])) if deal_loss[kind] else math.nan)
        if (k + 1) % 50 == 0:
            print(f"{k + 1} deals ({time.process_time() - t0:.0f} s CPU)", flush=True)
    result = {"temperature": temperature, "card_temperature": card_temperature, "points_checked": list(points),
              "deals": len(recs), "worlds": WORLDS,
              "seed": seed, "points": {}}

    def paired(a: np.ndarray, b: np.ndarray) -> dict:
        ok = ~(np.isnan(a) | np.isnan(b))
        d = a[ok] - b[ok]
        se = d.std(ddof=1) / math.sqrt(len(d))
        return {"difference": float(d.mean()), "low": float(d.mean() - 1.96 * se),
                "high": float(d.mean() + 1.96 * se), "deals": int(ok.sum()), "p": two_sided_p(float(d.mean()),
                                                                                              float(se))}

    for at in points:
        a, b, c = (np.array(per_point[at][kind]) for kind in ("inf", "uni", "bids"))
        vs_uni = paired(a, b)
        result["points"][at] = {"inference": float(np.nanmean(a)), "uniform": float(np.nanmean(b)),
                                "bids": float(np.nanmean(c)), **vs_uni,
                                "ess_median_share": float(np.median(ess[at])),
                                "views_drawing_more": int(draws_more[at])}
        if at in CARD_POINTS:
            result["points"][at]["cards_vs_bids"] = paired(a, c)
    for at, q in zip(points, holm([result["points"][at]["p"] for at in points]), strict=True):
        result["points"][at]["p_holm"] = q
    for at, q in zip(CARD_POINTS, holm([result["points"][at]["cards_vs_bids"]["p"] for at in CARD_POINTS]),
                     strict=True):
        result["points"][at]["cards_vs_bids"]["p_holm"] = q
    # the chosen cards' temperature against others on these held-out deals (paired by deal, CARD_POINTS)
    result["temperatures"] = {}
    base = np.nanmean(np.array([per_point[at]["inf"] for at in CARD_POINTS]), axis=0)
    for t in others:
        other = np.nanmean(np.array([per_point[at][f"T={t:g}"] for at in CARD_POINTS]), axis=0)
        d = base - other
        se = d.std(ddof=1) / math.sqrt(len(d))
        result["temperatures"][f"{t:g}"] = {"log_loss": float(other.mean()), "chosen_minus_this": float(d.mean()),
                                            "low": float(d.mean() - 1.96 * se), "high": float(d.mean() + 1.96 * se)}
    result["chosen_log_loss"] = float(base.mean())
    table = {}
    for kind, (pred, hit) in rel.items():
        pred, hit = np.array(pred), np.array(hit)
        idx = np.clip(np.digitize(pred, BINS) - 1, 0, len(BINS) - 2)
        table[kind] = [{"bin": f"{BINS[i]:.1f}-{BINS[i + 1]:.1f}", "n": int((idx == i).sum()),
                        "predicted": float(pred[idx == i].mean()) if (idx == i).any() else None,
                        "observed": float(hit[idx == i].mean()) if (idx == i).any() else None}
                       for i in range(len(BINS) - 1)]
    result["reliability"] = table
    if marriage["true"]:
        deals = np.array(marriage["deal"])
        result["marriage"] = {"views": len(deals), "deals": int(len(set(deals.tolist()))),
                              **{kind: float(np.mean(marriage[kind])) for kind in ("inf", "uni", "true")}}
    if plot is not None:
        draw(result, plot)
    return result


def draw(result: dict, plot: Path) -> None:
    """The reliability plot of a check's result: each bin's mean predicted probability against the
    frequency observed, inference beside uniform worlds, and below, how many predictions fell in
    each bin (inference is sharper: more of its predictions lie near 0 and 1)."""
    plt = pyplot()
    fig, (ax, bx) = plt.subplots(2, 1, figsize=(5.5, 7), gridspec_kw={"height_ratios": [3, 1]}, sharex=True)
    ax.plot([0, 1], [0, 1], color="grey", lw=1, ls="--", label="perfect calibration")
    tc = result.get("card_temperature", math.inf)
    labels = [("inf", f"calls and cards (T = {result['temperature']:g}, T_card = {tc:g})" if math.isfinite(tc)
               else f"inference (T = {result['temperature']:g})")]
    if "bids" in result["reliability"] and math.isfinite(tc):
        labels.append(("bids", f"calls alone (T = {result['temperature']:g})"))
    labels.append(("uni", "uniform worlds"))
    width = 0.8 / (10 * len(labels))
    for j, (kind, label) in enumerate(labels):
        rows = [r for r in result["reliability"][kind] if r["n"]]
        ax.plot([r["predicted"] for r in rows], [r["observed"] for r in rows], marker="o", label=label)
        centres = np.array([float(r["bin"].split("-")[0]) + 0.05 for r in result["reliability"][kind]])
        bx.bar(centres + (j - (len(labels) - 1) / 2) * width, [r["n"] for r in result["reliability"][kind]],
               width=width, label=label)
    ax.set_ylabel("observed frequency")
    at = result.get("points_checked", list(POINTS))
    where = "tricks 2, 4 and 6" if tuple(at) == CARD_POINTS else "all points"
    ax.set_title(f"Reliability: {result['deals']:,} held-out self-play deals,\n{where}, {result['worlds']:,} worlds",
                 fontsize=10)
    ax.legend(loc="upper left")
    bx.set_yscale("log")
    bx.set_xlabel("predicted probability of a card in a place (bins of 0.1)")
    bx.set_ylabel("predictions")
    save(fig, plot)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fit", type=Path)
    ap.add_argument("--fit-cards", type=Path, help="fit the cards' temperature on these records")
    ap.add_argument("--search", type=Path, help="the card net against the searched cards on these records")
    ap.add_argument("--fit-deal", type=Path, help="fit the declarer's gifts' and contract's temperatures on these "
                                                     "records")
    ap.add_argument("--grid-contract", default="0.3,1,3,10,inf")
    ap.add_argument("--floors", default="", help="the gifts' uniform shares to compare at the chosen temperatures")
    ap.add_argument("--check-deal", type=Path, help="the gifts and contract against none on these held-out records")
    ap.add_argument("--check-sampler", type=Path, help="the sampler against drawing more as before on these "
                                                       "held-out records")
    ap.add_argument("--others-deal", default="", help="T_gift:T_contract pairs to set beside the chosen ones there")
    ap.add_argument("--fit-deals", type=int, default=300)
    ap.add_argument("--grid", default="5,10,20,40,80")
    ap.add_argument("--check", type=Path)
    ap.add_argument("--check-deals", type=int, default=1000)
    ap.add_argument("--temperature", type=float, default=None)
    ap.add_argument("--card-temperature", type=float, default=None)
    ap.add_argument("--points", choices=("all", "cards"), default="all",
                    help="check every point, or only tricks 2, 4 and 6 (where the cards weigh)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--plot", type=Path)
    ap.add_argument("--others", default="", help="temperatures to set beside the chosen one on the held-out deals")
    ap.add_argument("--out", type=Path, help="write the figures as JSON here")
    ap.add_argument("--replot", type=Path, help="draw --plot from the figures a check wrote (--out) and stop")
    args = ap.parse_args()
    if args.replot:
        draw(json.loads(args.replot.read_text())["check"], args.plot)
        return
    figures = {}
    if args.fit:
        figures["fit"] = fit(args.fit, args.fit_deals, [float(x) for x in args.grid.split(",")], args.seed)
        print(json.dumps(figures["fit"], indent=1))
        print(f"least log-loss at T = {figures['fit']['least']:g}; chosen (one-standard-error rule): "
              f"T = {figures['fit']['chosen']:g}")
    if args.fit_cards:
        figures["fit_cards"] = fit(args.fit_cards, args.fit_deals, [float(x) for x in args.grid.split(",")], args.seed,
                                   cards=True)
        print(json.dumps(figures["fit_cards"], indent=1))
        print(f"cards: least log-loss at T_card = {figures['fit_cards']['least']:g}; chosen (one-standard-error "
              f"rule): T_card = {figures['fit_cards']['chosen']:g}")
    if args.fit_deal:
        figures["fit_deal"] = fit_deal(args.fit_deal, args.fit_deals, [float(x) for x in args.grid.split(",")],
                                       [float(x) for x in args.grid_contract.split(",")],
                                       [float(x) for x in args.floors.split(",")] if args.floors else [], args.seed)
        print(json.dumps(figures["fit_deal"], indent=1))
    if args.check_deal:
        pairs = [tuple(float(x) for x in pair.split(":")) for pair in args.others_deal.split(",")] \
            if args.others_deal else []
        figures["check_deal"] = check_deal(args.check_deal, args.check_deals, args.seed, pairs)
        print(json.dumps(figures["check_deal"], indent=1))
    if args.check_sampler:
        figures["check_sampler"] = check_sampler(args.check_sampler, args.check_deals, args.seed)
        print(json.dumps(figures["check_sampler"], indent=1))
    if args.search:
        tc = args.card_temperature if args.card_temperature is not None else CARD_TEMPERATURE
        figures["search"] = searched(args.search, args.fit_deals, tc)
        print(json.dumps(figures["search"], indent=1))
    if args.check:
        t = args.temperature if args.temperature is not None else TEMPERATURE
        others = [float(x) for x in args.others.split(",")] if args.others else []
        tc = args.card_temperature if args.card_temperature is not None else CARD_TEMPERATURE
        figures["check"] = check(args.check, args.check_deals, t, tc, args.seed, args.plot, others,
                                 CARD_POINTS if args.points == "cards" else POINTS)
        print(json.dumps(figures["check"]["temperatures"], indent=1))
        print(json.dumps(figures["check"]["points"], indent=1))
        print(json.dumps(figures["check"].get("marriage"), indent=1))
        for kind in ("inf", "bids", "uni"):
            print(kind, [(r["bin"], r["n"], r["predicted"] and round(r["predicted"], 3),
                          r["observed"] and round(r["observed"], 3)) for r in figures["check"]["reliability"][kind]])
    if args.out:
        args.out.write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
