"""The one formatting of a number with its interval (``analysis.present.format``): ``num``,
``pct`` and the plain ``interval`` that the command lines print, spelled as before the presenters
were cut by study (the report's ``num``/``pct`` and the tables' own interval writer)."""

from __future__ import annotations

import math

from analysis.present.format import finite, interval, markdown_table, num, pct, players_text


def test_an_interval_is_written_one_way():
    assert interval(14.24, 9.0, 19.36, sign=True) == "+14.2 [+9.0, +19.4]"
    assert interval(0.1234, 0.1, 0.15, digits=3) == "0.123 [0.100, 0.150]"
    assert interval(-3.0, math.nan, math.nan, sign=True) == "-3.0"  # no interval: the value alone
    assert interval(2.0, None, 1.0) == "2.0"
    assert num(2.0, 1.0, 3.0, sign=True) == interval(2.0, 1.0, 3.0, sign=True) == "+2.0 [+1.0, +3.0]"


def test_a_missing_value_is_a_dash_and_a_share_a_percentage():
    assert num(None) == num(math.nan) == pct(None) == pct(math.nan) == "–"
    assert pct(0.31, 0.299, 0.322) == "31.0% [29.9, 32.2]"
    assert pct(0.5, digits=2) == "50.00%"
    assert not finite(None) and not finite(math.nan) and finite(0.0)


def test_who_played_and_a_markdown_table():
    assert players_text(["learned"] * 3) == "learned player, all seats"
    assert players_text(["heuristic", "random", "random"]) == "heuristic, random, random (seat by seat)"
    assert players_text(["learned:/a/b/c.npz"] * 3) == "learned:b/c.npz player, all seats"
    assert markdown_table(["a", "b"], [[1, "x|y"]]) == ["| a | b |", "|---|---|", "| 1 | x\\|y |", ""]
