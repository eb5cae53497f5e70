"""How the settled rule of ``thousand bid`` behaves, measured on the ten hands and situations of
``bench_advisor.CASES`` (race objective, the learned player in every seat):

- **truth**: each hand's lines on a large sample (``--truth`` deals, seed 1000, fixed size): the
  true plateau is the levels reached in at least ``TRUTH_MIN_REACHED`` (30) of those deals whose
  gain lies within the margin (``SETTLE_MARGIN``, 5 points a deal) of the best such line's there
  (rarely reached levels count: the truth does not use the rule's share of the deals), and a line
  "truly gains" when the best line's gain over passing has its 95% interval above 0 there;
- **stability**: the settled answer (batches until settled, the cap) for seeds 0, 1, ...,
  ``--seeds``-1: how many of them give the hand's most frequent plateau as a player reads it
  (its lowest level, its highest level or "+" when it is open above, passing in it or not) and the
  most frequent recommendation, and the deals they took;
- **error rates** over the same runs: the recommendation outside the true plateau, and "pass" (or
  "forced bid, then pass") where a line truly gains; beside them the former rule (the arg-max of
  the line gains on 2,000 fixed deals, ``analysis.bids.value.recommended``) on the same seeds, and
  the reported gain of the recommended line against its gain in the large sample (the winner's
  curse the former rule reports).

    python benchmarks/advisor_settled.py [--seeds 10] [--truth 16000] [--only 1,2]

The make-rate table is left out (``methods="heuristic"`` on 50 deals: it takes no part in the
decision). Each run is ``analysis.bids.advisor.advise``, as ``thousand bid`` calls it.
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter

from bench_advisor import CASES, case_kwargs

from analysis.bids.advisor import advise
from analysis.bids.value import SETTLE_MARGIN, recommended
from sim.engine.playouts import PASS_LINE


def _values(a):
    return tuple(r.value for r in a.lines)


# The truth's tested levels: reached in this many of its deals (the former rule's count, whatever the
# settled rule's threshold is).
TRUTH_MIN_REACHED = 30


def _plateau_key(a) -> str:
    """The plateau as a player reads it: passing in it, its lowest level, its highest or "+" when it
    is open above (no tested level above it loses, the higher ones are untested)."""
    p = a.plateau
    top = "+" if p.open_top else f"-{p.high}"
    span = "-" if p.low is None else f"{p.low}{top}" if (p.low != p.high or p.open_top) else f"{p.low}"
    return ("pass+" if p.includes_pass else "") + span


def _action(bid_line) -> int:
    return PASS_LINE if bid_line is None else bid_line.limit


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--truth", type=int, default=16000)
    ap.add_argument("--only", default="")
    ap.add_argument("--threads", type=int, default=None)
    args = ap.parse_args()
    picked = [int(x) for x in args.only.split(",")] if args.only else range(1, len(CASES) + 1)
    margin = SETTLE_MARGIN["race"]
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; truth {args.truth:,} deals (seed 1000), "
          f"seeds 0..{args.seeds - 1}; margin {margin}")
    totals = Counter()
    t0 = time.perf_counter()
    for k in picked:
        hand, options = CASES[k - 1]
        kw = {**case_kwargs(options), "hand": hand, "methods": "heuristic", "make_samples": 50,
              "threads": args.threads}
        truth = advise(samples=args.truth, seed=1000, **kw)
        tv = {v.limit: v for v in _values(truth)}
        tested = [v for v in tv.values() if v.limit == PASS_LINE or (v.limit > 0 and v.reached >= TRUTH_MIN_REACHED)]
        best = max(tested, key=lambda v: (v.gain.value, -v.limit))
        true_plateau = {v.limit for v in tested if v.gain.value > best.gain.value - margin}
        truly_gains = best.limit != PASS_LINE and best.gain.low > 0
        gains_more = best.limit != PASS_LINE and best.gain.low > margin  # by more than the margin
        plateaus, recs, old_recs, deals, n_settled = Counter(), Counter(), Counter(), [], 0
        errors = Counter()
        for seed in range(args.seeds):
            a = advise(seed=seed, **kw)
            old = advise(samples=2000, seed=seed, **kw)
            plateaus[_plateau_key(a)] += 1
            new_x = _action(a.recommendation.line)
            recs[new_x] += 1
            deals.append(a.samples)
            n_settled += a.sampling == "settled"
            old_line = recommended(_values(old)).line
            old_x = _action(old_line)
            old_recs[old_x] += 1
            for rule, x, line in (("new", new_x, a.recommendation.line), ("old", old_x, old_line)):
                # a level the large sample did not test counts as outside unless the truth plateau is empty
                errors[f"{rule}_outside"] += x not in true_plateau
                errors[f"{rule}_pass"] += truly_gains and x == PASS_LINE
                errors[f"{rule}_pass_margin"] += gains_more and x == PASS_LINE
                if line is not None and line.limit in tv:
                    errors[f"{rule}_bias"] += line.gain.value - tv[line.limit].gain.value
                    errors[f"{rule}_biased_n"] += 1
        modal_plateau, n_modal = plateaus.most_common(1)[0]
        modal_rec, n_rec = recs.most_common(1)[0]
        tp = sorted(b for b in true_plateau)
        print(f"case {k}: {hand} {' '.join(options)}")
        print(f"  truth: best {'pass' if best.limit == PASS_LINE else best.limit} "
              f"{best.gain.value:+.1f} [{best.gain.low:+.1f}, {best.gain.high:+.1f}]; true plateau "
              f"{['pass' if b == PASS_LINE else b for b in tp]}")
        print(f"  plateau: {dict(plateaus)}; the most frequent ({modal_plateau}) in {n_modal}/{args.seeds}; "
              f"recommendation {dict((('pass' if x == PASS_LINE else x), n) for x, n in recs.items())}, "
              f"the most frequent in {n_rec}/{args.seeds}; the former rule's most frequent in "
              f"{old_recs.most_common(1)[0][1]}/{args.seeds}")
        print(f"  deals: median {sorted(deals)[len(deals) // 2]:,}, {min(deals):,}-{max(deals):,}; settled in "
              f"{n_settled}/{args.seeds}")
        print(f"  outside the true plateau: new {errors['new_outside']}/{args.seeds}, old (arg-max, 2,000) "
              f"{errors['old_outside']}/{args.seeds}; pass where a line truly gains: new {errors['new_pass']}, "
              f"old {errors['old_pass']}; reported minus true gain of the recommended line: new "
              f"{errors['new_bias'] / max(1, errors['new_biased_n']):+.2f}, old "
              f"{errors['old_bias'] / max(1, errors['old_biased_n']):+.2f}", flush=True)
        totals["runs"] += args.seeds
        totals["stable_hands"] += n_modal >= 0.9 * args.seeds
        totals["modal"] += n_modal
        for key in ("new_outside", "old_outside", "new_pass", "old_pass", "new_pass_margin", "old_pass_margin"):
            totals[key] += errors[key]
        totals["rec_modal"] += n_rec
        totals["old_rec_modal"] += old_recs.most_common(1)[0][1]
        totals["deals"] += sum(deals)
        totals["settled"] += n_settled
    n, hands = totals["runs"], len(list(picked))
    print(f"all {hands} cases, {n} runs: same plateau as the hand's most frequent in {totals['modal']}/{n}; "
          f"hands at 9 of 10 or better: {totals['stable_hands']}/{hands}; settled {totals['settled']}/{n}; "
          f"mean deals {totals['deals'] / n:,.0f}")
    print(f"  recommendation outside the true plateau: new {totals['new_outside']}/{n}, "
          f"old {totals['old_outside']}/{n}; pass where a line truly gains: new {totals['new_pass']}/{n}, "
          f"old {totals['old_pass']}/{n} (by more than the margin: new {totals['new_pass_margin']}/{n}, old "
          f"{totals['old_pass_margin']}/{n}); the same recommendation as the hand's most frequent: new "
          f"{totals['rec_modal']}/{n}, old {totals['old_rec_modal']}/{n}")
    print(f"  {time.perf_counter() - t0:.0f} s; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
