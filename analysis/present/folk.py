"""The folk advice tested (``analysis.folk.FolkAdvice``) as the report's section: a short table of
the verdicts, then each item in its own block (the quote in the original and in English with its
citation, the verdict, the numbers with their intervals and n, how it was measured and what it
reflects), narrow enough to read on a phone. It computes nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from analysis.folk import ALPHA, QUOTES, REFLECTS, FolkItem
from analysis.present.format import finite, markdown_table, num, p_value, pct

if TYPE_CHECKING:
    from analysis.folk import FolkAdvice

__all__ = ["PROVISIONAL", "folk_section"]

PROVISIONAL = "provisional"
_SHARES = {"raise_rich_talon", "barrel_lottery", "dark"}  # items whose figure is a share (or a share difference)
_UNITS = {"no_marriage_high": "race points a deal", "aces_tens_safe": "race points a deal",
          "small_gifts": "double-dummy points", "lead_ace": "double-dummy points", "concede": "race points a deal",
          "raise_rich_talon": "percentage points"}


def _figure(item: FolkItem) -> str:
    e = item.effect
    if item.key in _SHARES:
        if item.key == "raise_rich_talon":
            return num(100 * e.value, 100 * e.low, 100 * e.high, sign=True) + " " + _UNITS[item.key]
        return pct(e.value, e.low, e.high)
    return num(e.value, e.low, e.high, sign=True) + f" {_UNITS.get(item.key, '')}".rstrip()


def _n(item: FolkItem) -> str:
    e = item.effect
    parts = [f"n = {e.n:,}"] if e.n is not None else []
    if e.clusters is not None:
        parts.append(f"{e.clusters:,} clusters")
    return ", ".join(parts)


def folk_section(result: FolkAdvice | None, *, provisional: bool = False) -> list[str]:
    """The section's Markdown lines below its heading (a line saying it was not measured for None);
    ``provisional``: quick sizes, each verdict stamped so."""
    if result is None:
        return ["The folk advice was not tested for this report.", ""]
    stamp = f", {PROVISIONAL}" if provisional else ""
    lines = ["The seed texts' rules of thumb, each quoted (citation `NNN:L`: seed file and line), against what the "
             "tool measures. **Verdict rule**: a tested item's effect is signed so that a positive value is what "
             f"the advice says; it is **supported** when its Holm-corrected p-value (over the "
             f"{sum(i.tested for i in result.items)} tested items) is below {ALPHA} and the effect is above 0, "
             "**contradicted** when below and the effect is below 0, and **not told apart** otherwise (the interval "
             "may lean one way without the test telling the advice from its opposite). Items the seeds only "
             "describe, or do not hold, are not tested; their figure is information. Each verdict says what it "
             "reflects: the game as the computer player named in its effect plays it, double-dummy play (every card "
             "seen: a ceiling, not real play), or the computer player's habit."
             + (" These are quick sizes: every verdict is provisional." if provisional else ""), ""]
    quotes = {q.key: q for q in QUOTES}
    lines += markdown_table(["advice", "verdict", "effect [95%]"],
                            [[quotes[i.key].advice, i.verdict + (stamp if i.tested else ""), _figure(i)]
                             for i in result.items])
    for i in result.items:
        q = quotes[i.key]
        lines += [f"**{q.advice}.**", ""]
        if q.original:
            lines += [f"> «{q.original}» ({q.cite})", ">", f"> *{q.english}*", ""]
        if q.note:
            lines += [q.note, ""]
        verdict = f"**Verdict: {i.verdict}**"
        if i.tested:
            notes = [f"{PROVISIONAL}: quick sizes"] if provisional else []
            notes += [f"Holm p {p_value(i.p_holm)}"] if finite(i.p_holm) else []
            notes.append(f"reflects {REFLECTS[i.reflects]}")
            verdict += f" ({'; '.join(notes)})"
        lines += [f"- {verdict}.",
                  f"- {'Effect' if i.tested else 'Figure'}: {_figure(i)} ({_n(i)}): {i.measure}."]
        if i.info and i.info_value is not None:
            x = i.info_value
            lines.append(f"- Beside it: {i.info}: {pct(x.value, x.low, x.high)}"
                         + (f" (n = {x.n:,})" if x.n is not None else "") + ".")
        lines.append("")
    return lines
