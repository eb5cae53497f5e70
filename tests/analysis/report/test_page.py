"""The report page's note on rule sets the learned player was not trained for (issue 45: "Game or
player?"), and the options it names (``analysis.players.untrained_options``)."""

from __future__ import annotations

from analysis.players import TRAINED_PRESETS, untrained_options
from analysis.report.page import UNTRAINED_SHOWN, untrained_note
from sim.game.rules import HouseRules, preset
from sim.training.positions import PLAY_OPTIONS


def test_the_training_presets_and_varied_play_options_are_trained_for():
    for name in TRAINED_PRESETS:
        assert untrained_options(preset(name)) == ()
    # A play option the training varied at random, and permuted marriage values: trained for.
    assert untrained_options(HouseRules(**{PLAY_OPTIONS[0]: True}, marriage_values=(100, 80, 60, 40))) == ()


def test_an_option_no_training_preset_has_is_named():
    assert untrained_options(HouseRules(concede=False)) == ("concede",)
    # online's bolt rules are trained for (online is a training preset), a target of none of them is not.
    assert untrained_options(HouseRules(bolt_on=preset("online").bolt_on, target=1500)) == ("target",)
    assert "no_raise_after_talon" in untrained_options(preset("polish"))


def test_the_note_names_only_the_untrained_rule_sets():
    assert untrained_note(["classic", "online"]) == []
    [line, blank] = untrained_note(["classic", "polish"])
    assert blank == "" and "**polish**" in line and "classic," in line and "**classic**" not in line
    named = untrained_options(preset("polish"))
    assert f"and {len(named) - UNTRAINED_SHOWN} more" in line
    assert all(f"`{n}`" in line for n in named[:UNTRAINED_SHOWN])
