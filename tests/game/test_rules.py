import pytest

from sim.game import rules_layout as R
from sim.game.rules import PRESETS, HouseRules, RulesError, load_rules, option_table, preset


def test_every_rules_md_option_is_named():
    names = {row[0] for row in option_table()}
    for name in ["must_head", "marriage_first_lead", "barrel_falls_to_zero", "dump_truck_negative",
                 "redeal_limit_penalty", "concede_third_penalty", "golden_round", "dark_min_score",
                 "bolt_double_in_dark", "two_player_talon", "sitout_half_marriage", "ace_marriage"]:
        assert name in names


def test_presets():
    assert preset("classic") == HouseRules()
    assert preset("short").target == 555 and preset("short").barrel == 440
    assert preset("long").barrel == 1380
    assert preset("online").marriage_first_lead and not preset("online").dump_truck
    assert preset("strict").must_head
    assert set(PRESETS) == {"classic", "online", "strict", "short", "long"}


def test_toml_file_starts_from_preset(tmp_path):
    f = tmp_path / "house.toml"
    f.write_text('preset = "short"\nbarrel_attempts = 2\nmarriage_values = [100, 80, 60, 40]\n')
    rules = load_rules(str(f))
    assert rules.target == 555 and rules.barrel_attempts == 2
    assert rules.marriage_values == (100, 80, 60, 40)


def test_barrel_none_in_toml(tmp_path):
    f = tmp_path / "r.toml"
    f.write_text('barrel = "none"\n')
    assert load_rules(str(f)).barrel is None


@pytest.mark.parametrize(
    "values, message",
    [
        ({"barel": 900}, "unknown house rule 'barel' \\(did you mean 'barrel'\\?\\)"),
        ({"must_head": "maybe"}, "'must_head' must be true or false"),
        ({"bid_step": 7}, "'bid_step' = 7: must be 5 or 10"),
        ({"barrel": 1200}, "'barrel' = 1200: must be a multiple of 5 below the target"),
        ({"marriage_burns_without_trick": True}, "needs marriage_first_lead"),
        ({"concede": False, "concede_60": True}, "'concede' = False: is off"),
        ({"min_bid": 99}, "'min_bid' = 99: must be a multiple of 5"),
    ],
)
def test_bad_rules_are_named(values, message):
    with pytest.raises(RulesError, match=message):
        HouseRules.from_dict(values)


def test_unknown_preset_or_file():
    with pytest.raises(RulesError, match="neither a preset"):
        load_rules("no-such-preset")


def test_bad_toml(tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text("barrel = = 3")
    with pytest.raises(RulesError, match="not valid TOML"):
        load_rules(str(f))


def test_engine_takes_every_player_count():
    from sim.engine import BatchSpec

    for rules in (HouseRules(barrel=900, barrel_min_contract=125), HouseRules(players=4, sitout_half_marriage=True),
                  HouseRules(players=2), HouseRules(players=2, two_player_talon=3)):
        assert len(BatchSpec(mode="deals", n=1, rules=rules).players) == rules.players


def test_two_player_talon_needs_two_players():
    for players in (3, 4):
        with pytest.raises(RulesError, match=f"'two_player_talon' = 3: needs players = 2.*not players = {players}"):
            HouseRules.from_dict({"two_player_talon": 3, "players": players})
    a = HouseRules.from_dict({"players": 2, "two_player_talon": 3}).to_array()
    assert a[R.PLAYERS] == 2 and a[R.TWO_PLAYER_TALON] == 3
    assert HouseRules.from_dict({"players": 2}).to_array()[R.TWO_PLAYER_TALON] == 2


def test_sitout_half_marriage_needs_four_players():
    with pytest.raises(RulesError, match="'sitout_half_marriage'.*needs players = 4"):
        HouseRules.from_dict({"sitout_half_marriage": True})
    assert HouseRules.from_dict({"players": 4, "sitout_half_marriage": True}).to_array()[R.SITOUT_HALF_MARRIAGE] == 1
