"""A stored run's summary as ``thousand simulate`` and ``thousand runs combine`` print it
(``analysis.summary.RunSummary``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from analysis.present.layout import DEFAULT_WIDTH, fit

if TYPE_CHECKING:
    from analysis.summary import RunSummary

__all__ = ["run_summary_lines"]


def run_summary_lines(summary: RunSummary, width: int | None = DEFAULT_WIDTH) -> list[str]:
    """What ``thousand simulate`` and ``thousand runs combine`` print of a stored run: the
    declarers' make-rate (by player type when there are several), for a run of games the game
    length and each seat's wins, and last what made it (the run, its sizes, seeds, players and
    code); wrapped at ``width`` (None: not wrapped)."""
    s = summary
    seeds = ",".join(map(str, s.seeds))
    code = "none recorded" if s.code_fingerprint is None else s.code_fingerprint
    made_by = (f"run {s.run}: {s.mode} n={s.sample_size} seed{'s' if s.combined else ''}={seeds} "
               f"players={','.join(s.players)} version={s.version} code={code}")
    lines = []
    d = s.deals
    lo, hi = d.made_rate_played.interval
    if not d.deals:
        lines.append("deals with a declarer: 0 (every deal was thrown in or redealt)")
    else:
        made = (f"declarer made {d.made_rate_played.value:.1%} of played contracts (95% CI {lo:.1%}–{hi:.1%})"
                if d.played else "no contract played out (every one conceded), so no make-rate")
        lines.append(f"deals with a declarer: {d.deals:,}; {made}; conceded {d.conceded_rate:.1%}; "
                     f"mean contract {d.contract_mean.value:.1f}")
    if len(s.by_player) > 1:
        for r in s.by_player:
            lines.append(f"  as declarer, {r.player}: made {r.made_rate.value:.1%} ({r.made_rate.low:.1%}–"
                         f"{r.made_rate.high:.1%}) "
                         f"of {r.declared:,}, mean contract {r.mean_contract:.1f}")
    if s.games is not None:
        g = s.games
        ci_lo, ci_hi = g.deals_mean.interval
        finished = g.games - g.unfinished
        if not finished:
            length = "no game finished, so no game length"
        else:
            ci = f"95% CI {ci_lo:.1f}–{ci_hi:.1f}" if finished > 1 else "no interval from one finished game"
            length = f"mean length {g.deals_mean.value:.1f} deals ({ci}), median {g.deals_median:.0f}"
        lines.append(f"games: {g.games:,} ({g.unfinished} unfinished); {length}")
        for seat in g.seats:
            lines.append(f"  seat {seat.seat} ({seat.player}): won {seat.win_rate.value:.1%} "
                         f"(95% CI {seat.win_rate.low:.1%}–{seat.win_rate.high:.1%})")
    return fit([*lines, made_by], width)
