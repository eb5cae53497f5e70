"""The text tables the commands print, one function a result object, each returning the lines as
the command prints them (``thousand compare``, ``thousand tournament``, ``thousand tables ...``,
``thousand bid``). Wording for the command line lives here, never in the computations."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from analysis.tournament import TournamentResult

__all__: list[str] = ["tournament_lines"]


# --- tournament ---
def tournament_lines(result: TournamentResult) -> list[str]:
    """What ``thousand tournament`` prints: the ranking, the roles and the pairs, then where the
    table and the plot are. Columns are as wide as their widest cell (negative scores and long file
    names included), so that they never run together."""
    mode, size = result.mode, result.size
    runs = len(result.run_dirs)
    lines = [f"tournament: {', '.join(result.labels)}; {size:,} {mode} in each of {len(result.seatings)} seatings "
             f"({runs} run{'s' if runs != 1 else ''}), seats rotated over the same deals; 95% intervals over "
             f"{mode[:-1]} numbers"]
    if mode == "games":
        ranking = [["rank", "player", "win share", "final score", "score per deal"]]
    else:
        ranking = [["rank", "player", "points per deal"]]
    for k, r in enumerate(result.players, 1):
        deal = _tournament_interval(r.score_per_deal, r.score_per_deal_ci_low, r.score_per_deal_ci_high, 2)
        if mode == "games":
            ranking.append([str(k), r.player, _tournament_interval(r.win_share, r.win_ci_low, r.win_ci_high, 3),
                            _tournament_interval(r.final_score, r.score_ci_low, r.score_ci_high, 1), deal])
        else:
            ranking.append([str(k), r.player, deal])
    lines += _tournament_aligned(ranking)
    roles = [["", "player", "declares", "make-rate", "concedes", "contract", "as declarer", "as defender"]]
    for r in result.players:
        roles.append(["", r.player, _tournament_cell(r.declarer_share, ".1%"),
                      _tournament_interval(r.make_rate, r.make_rate_ci_low, r.make_rate_ci_high, 3),
                      _tournament_cell(r.concession_rate, ".1%"), _tournament_cell(r.mean_contract, ".1f"),
                      _tournament_cell(r.declarer_points_per_deal, ".1f"),
                      _tournament_cell(r.defender_points_per_deal, ".1f")])
    lines += _tournament_aligned(roles)
    if any(v is None for r in result.players for v in (r.make_rate, r.concession_rate, r.mean_contract)):
        lines.append("- : nothing observed (a player who never declared, or never played a contract out)")
    lines.append(f"pairs (difference of {result.compared}, * = significant after Holm's correction):")
    digits = 3 if mode == "games" else 2
    for r in result.pairs:
        lines.append(f"  {r.player} vs {r.against}: {_tournament_interval(r.diff, r.ci_low, r.ci_high, digits)}"
                     f"  p {r.p:.3g}, Holm {r.p_holm:.3g}{' *' if r.significant else ''}")
    lines.append(f"table: {result.table_path}; plot: {result.plot_path}")
    return lines


def _tournament_aligned(rows: list[list[str]]) -> list[str]:
    """Rows of cells, each column padded to its widest cell and two spaces."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["".join(f"{cell:<{w + 2}}" for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows]


def _tournament_cell(x: float | None, spec: str) -> str:
    return "-" if x is None else format(x, spec)


def _tournament_interval(x: float | None, lo: float | None, hi: float | None, digits: int) -> str:
    if x is None:
        return "-"
    return f"{x:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"
