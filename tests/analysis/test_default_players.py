"""Who plays when nobody is named (analysis.players): the score-aware player in whole games where
the rules ship its win-chance table, the learned player for deals and elsewhere, one player for a
comparison of rule sets."""

import dataclasses

from analysis.players import (
    DEFAULT_PLAYER,
    FALLBACK_PLAYER,
    GAME_PLAYER,
    common_player,
    default_player,
    players_or_default,
    tournament_field,
)
from sim.game.rules import PRESETS, HouseRules, preset
from sim.players.learned.win_table import has_win_table, shipped_win_tables


def test_every_preset_ships_its_table_and_plays_whole_games_score_aware():
    assert sorted(p.stem for p in shipped_win_tables()) == sorted(PRESETS)
    for name in PRESETS:
        rules = preset(name)
        assert has_win_table(rules)
        assert default_player(rules, games=True) == GAME_PLAYER
        assert default_player(rules) == DEFAULT_PLAYER  # independent deals from a zero score
        assert tournament_field(rules) == (GAME_PLAYER, "heuristic", "leadage")
        assert tournament_field(rules, games=False) == (DEFAULT_PLAYER, "heuristic", "leadage")


def test_rules_without_a_table_play_the_learned_player():
    other = dataclasses.replace(preset("classic"), target=950)
    assert not has_win_table(other)
    assert default_player(other, games=True) == DEFAULT_PLAYER
    assert tournament_field(other) == (DEFAULT_PLAYER, "heuristic", "leadage")
    two = HouseRules(players=2)
    assert default_player(two, games=True) == default_player(two) == FALLBACK_PLAYER


def test_a_comparison_plays_one_player_under_every_rule_set():
    classic, short = preset("classic"), preset("short")
    other = dataclasses.replace(classic, target=950)
    assert common_player([classic, short]) == GAME_PLAYER
    assert common_player([classic, other]) == common_player([other, classic]) == DEFAULT_PLAYER
    assert common_player([HouseRules(players=2), dataclasses.replace(HouseRules(players=2), min_bid=110)]) \
        == FALLBACK_PLAYER


def test_a_named_player_is_kept():
    assert players_or_default("heuristic", preset("classic"), games=True) == "heuristic"
    assert players_or_default(None, preset("classic"), games=True) == GAME_PLAYER


def test_deals_from_a_zero_score_play_the_score_blind_twin():
    from analysis.players import score_blind

    assert score_blind(("learned-win", "heuristic", "learned-win:w/a.npz")) == ("learned", "heuristic",
                                                                                "learned:w/a.npz")
    assert score_blind(("learned", "learned-cards", "pimc")) == ("learned", "learned-cards", "pimc")
