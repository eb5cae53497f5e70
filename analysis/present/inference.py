"""The text ``thousand infer`` prints (``sim.inference.Inference``): the answer first (how many
worlds, how well they are weighted, which hidden cards are surest where), the facts the view
gave, then one row a hidden card, grouped by its likeliest place, fitted to the width."""

from __future__ import annotations

import numpy as np

from analysis.present.format import pct
from analysis.present.layout import Column, fit, table
from sim.game.cards import format_card
from sim.inference import Inference
from sim.records.record import SEAT_NAMES

__all__ = ["inference_lines", "SURE"]

SURE = 0.9  # a card this likely in one place is named among the surest
_SHOWN_SURE = 6  # at most this many cards in the answer's line


def _pct(p: float) -> str:
    return pct(p, digits=0)


def inference_lines(result: Inference, width: int | None) -> list[str]:
    """The answer, the facts, the card table."""
    places = [f"left ({SEAT_NAMES[result.left]})", f"right ({SEAT_NAMES[result.right]})", "talon"]
    p = result.probabilities()
    t = result.temperature
    weighted = (f"weighted by {result.calls_weighted} call{'s' if result.calls_weighted != 1 else ''} at "
                f"T = {t:g} point{'' if t == 1 else 's'}" if np.isfinite(t) else "unweighted (uniform)")
    tc = result.card_temperature
    if np.isfinite(t) and np.isfinite(tc) and result.cards_weighted:
        weighted += (f" and {result.cards_weighted} card{'s' if result.cards_weighted != 1 else ''} at "
                     f"T = {tc:g} point{'' if tc == 1 else 's'}")
    deal = [f"{name} at T = {t:g}" for name, on, t in (("gifts", result.gifts_weighted, result.gift_temperature),
                                                       ("final contract", result.contract_weighted,
                                                        result.contract_temperature)) if on]
    if deal:
        weighted += f", the declarer's {' and '.join(deal)}"
    quality = ("the exact answer" if result.exact else
               f"effective sample size {result.ess:,.0f} ({result.ess / result.asked:.0%} of {result.asked:,})")
    out = [f"{SEAT_NAMES[result.seat]}'s view at {result.at}: {len(result.hidden)} hidden cards, "
           f"{result.draws:,} worlds {weighted}; {quality}"]
    if result.exact:  # the ESS of an exact answer is no sampling error: how many equally likely deals it is worth
        out.append(f"  the weights collapsed: every deal the view allows weighed instead ({len(result.weights):,} "
                   f"worlds; the answer is worth {result.ess:,.1f} equally likely deals)")
    elif result.draws > result.asked:
        out.append(f"  the weights collapsed: {result.draws - result.asked:,} more worlds drawn"
                   + ("; still below the floor: read the figures with care" if result.collapsed else ""))
    best = p.argmax(axis=1) if len(result.hidden) else np.zeros(0, dtype=int)
    sure = sorted(((p[i, best[i]], i) for i in range(len(result.hidden)) if p[i, best[i]] >= SURE), reverse=True)
    if sure:
        named = [f"{format_card(result.hidden[i])} {places[best[i]].split(' ')[0]} {_pct(v)}"
                 for v, i in sure[:_SHOWN_SURE]]
        more = f" and {len(sure) - _SHOWN_SURE} more" if len(sure) > _SHOWN_SURE else ""
        out.append(f"surest: {', '.join(named)}{more}")
    else:
        out.append(f"no hidden card is {_pct(SURE)} sure of its place")
    if result.facts:
        out.append("facts: " + "; ".join(result.facts))
    out = fit(out, width)
    columns = [Column("card", "<"), Column(places[0]), Column(places[1])]
    if result.talon_place:
        columns.append(Column("talon"))
    order = sorted(range(len(result.hidden)), key=lambda i: (best[i], -p[i, best[i]], -result.hidden[i]))
    rows = [[format_card(result.hidden[i])] + [_pct(p[i, k]) for k in range(len(columns) - 1)] for i in order]
    lines, _ = table(columns, rows, width)
    return out + [""] + lines
