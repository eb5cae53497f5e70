"""analysis.duplicate_split: the split of two duplicate matches sums to their difference."""

import pytest

from analysis import duplicate_split, tournament
from sim import InputError

CAUTIOUS = "examples/players/cautious.toml"


def _score(res, label):
    return next(r for r in res.players if r.player == label).score_per_deal.value


def test_split_sums_to_the_matches_difference(tmp_path):
    a = tournament.tournament(players=["heuristic", "random", "random"], deals=40, seed=7, out=tmp_path / "a")
    b = tournament.tournament(players=["random", "heuristic", "heuristic"], deals=40, seed=7, out=tmp_path / "b")
    expected = (_score(a, "1-heuristic") - _score(a, "2-random")) - (_score(b, "1-random") - _score(b, "2-heuristic"))
    name_a, ma = duplicate_split.seat_margins(tmp_path / "a")
    name_b, mb = duplicate_split.seat_margins(tmp_path / "b")
    assert (name_a, name_b) == ("heuristic", "random")
    assert ma.height == mb.height == 40 * 3
    whole, cases = duplicate_split.paired_split(ma, mb)
    assert whole["deals"] == 40
    assert whole["difference"] == pytest.approx(expected, abs=1e-9)
    assert whole["ci_low"] < whole["difference"] < whole["ci_high"]
    assert cases["share"].sum() == pytest.approx(1.0)
    assert cases["contribution"].sum() == pytest.approx(whole["difference"], abs=1e-9)
    # a player compared with itself: every difference is 0
    same, cases = duplicate_split.paired_split(ma, ma)
    assert same["difference"] == 0.0 and (cases["contribution"] == 0.0).all()
    assert "points a deal over 40 deals" in duplicate_split.split_table(tmp_path / "a", tmp_path / "b")


def test_a_player_file_is_told_apart_from_its_type(tmp_path):
    tournament.tournament(players=[CAUTIOUS, "heuristic", "heuristic"], deals=10, seed=3, out=tmp_path / "c")
    name, rows = duplicate_split.seat_margins(tmp_path / "c")
    assert name == "heuristic" and rows.height == 10 * 3


def test_other_deals_or_no_runs_are_refused(tmp_path):
    tournament.tournament(players=["heuristic", "random", "random"], deals=20, seed=1, out=tmp_path / "a")
    tournament.tournament(players=["heuristic", "random", "random"], deals=30, seed=1, out=tmp_path / "b")
    _, ma = duplicate_split.seat_margins(tmp_path / "a")
    _, mb = duplicate_split.seat_margins(tmp_path / "b")
    with pytest.raises(InputError, match="same deals"):
        duplicate_split.paired_split(ma, mb)
    with pytest.raises(InputError, match="no stored tournament runs"):
        duplicate_split.seat_margins(tmp_path / "nothing")
    with pytest.raises(InputError, match="no run seats"):
        duplicate_split.seat_margins(tmp_path / "a", "pimc")
