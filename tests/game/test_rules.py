import pytest

from sim.game import rules_layout as R
from sim.game.bids_nb import contract_cap, legal_contract
from sim.game.cards import parse_hand
from sim.game.play_nb import concession_gain, concession_loss
from sim.game.rules import PRESETS, HouseRules, RulesError, load_rules, option_table, preset, rules_file_text


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
    assert set(PRESETS) == {"classic", "online", "strict", "short", "long", "polish", "tysyacha_1000", "mekedron"}


def test_peer_presets_play_the_peers_defaults():
    """Issue 28 item 12: docs/peer-rules.md §12 and docs/RULES.md "The peers' presets" (the Polish game as
    iamfilip98 plays it; Leadage/tysyacha-1000's DEFAULT_RULES; mekedron/thousand's canonical_russian)."""
    polish = preset("polish")
    assert (polish.rounding, polish.declarer_scores, polish.bid_step, polish.no_jump_bids) == (
        "ten", "points", 10, True)
    assert (polish.barrel, polish.barrel_freeze, polish.barrel_attempts) == (800, False, 0)
    # Issue 45: iamfilip98 lets the bid winner throw after the talon (60 each, free at 100), without a raise.
    assert (polish.concede, polish.concede_60, polish.concede_on_barrel, polish.concede_free_at_min_bid,
            polish.no_raise_after_talon) == (True, True, True, True, True)
    assert polish.round_points(15) == 10 and polish.round_points(16) == 20 and polish.round_points(25) == 20
    old = preset("tysyacha_1000")
    assert (old.forced_bid_seat, old.dark_game, old.dark_defenders_doubled, old.concede_60) == (
        "dealer", True, False, True)
    assert (old.barrel_failed_contract, old.barrel_knock_off, old.bolt_count) == ("stays", False, "consecutive")
    mek = preset("mekedron")
    assert (mek.forced_first_bid, mek.all_pass, mek.bid_ceiling_before_talon, mek.bid_step_10_from) == (
        False, "dealer_plays", 120, 200)
    assert (mek.marriage_trump_from, mek.no_win_penalty, mek.concede_payout) == ("next_trick", "cumulative",
                                                                                 "half_floor")
    assert mek.barrel_defence_wins and mek.barrel_jump_wins and mek.win_score_capped and mek.must_head
    # Issue 45: gifts face down (open_discard = "off"), only running out of attempts counts toward the third-fall
    # zero, a tie at the target between non-declarers to the lowest seat.
    assert (mek.discard_face_down, mek.barrel_falls_counted, mek.target_tie) == (True, "attempts_only",
                                                                                 "lowest_seat")
    # Each differs from classic in every option its column of the table names, and only there.
    assert len(polish.changes_from(HouseRules())) == 19
    assert len(old.changes_from(HouseRules())) == 21
    assert len(mek.changes_from(HouseRules())) == 22


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


# ---- bolt_count = each and the online preset (RULES.md §4.5, §5) ---------------------------------

def test_online_preset_pays_every_three_passes_bolt():
    # RULES.md §5 corrected: bolt_on = three_passes with bolt_count = each (consecutive could never pay).
    online = preset("online")
    assert (online.bolt_on, online.bolt_count) == ("three_passes", "each")
    a = online.to_array()
    assert a[R.BOLT_ON] == R.BOLT_ON_THREE_PASSES and a[R.BOLT_COUNT] == R.BOLT_COUNT_EACH


def test_bolt_count_values_reach_the_kernels():
    for name, code in (("cumulative", R.BOLT_COUNT_CUMULATIVE), ("consecutive", R.BOLT_COUNT_CONSECUTIVE),
                       ("each", R.BOLT_COUNT_EACH)):
        assert HouseRules.from_dict({"bolt_count": name}).to_array()[R.BOLT_COUNT] == code
    with pytest.raises(RulesError, match="'bolt_count' = 'every': must be cumulative, consecutive or each"):
        HouseRules.from_dict({"bolt_count": "every"})
    allowed = {row[0]: row[2] for row in option_table()}["bolt_count"]
    assert allowed == "cumulative, consecutive, each"  # what `thousand rules` lists


def test_consecutive_bolts_of_three_passes_are_refused_as_never_charging():
    with pytest.raises(RulesError, match="'bolt_count' = 'consecutive': has no effect with bolt_on = three_passes"):
        HouseRules.from_dict({"bolt_on": "three_passes", "bolt_count": "consecutive"})


# ---- rules that redeal (almost) every deal (issue 24 item 9; docs/RULES.md "Redeals") -------------

@pytest.mark.parametrize("changes, accepted_up_to", [
    # (other options, the largest redeal_hand_points_below accepted): 5% of deals must escape
    ({}, 33), ({"players": 4}, 33), ({"players": 2}, 52), ({"players": 2, "two_player_talon": 3}, 48),
])
def test_hand_points_bound(changes, accepted_up_to):
    HouseRules.from_dict({**changes, "redeal_hand_points_below": accepted_up_to})
    with pytest.raises(RulesError, match=f"'redeal_hand_points_below' = {accepted_up_to + 1}: only .* would escape"
                                         f".*use at most {accepted_up_to},"):
        HouseRules.from_dict({**changes, "redeal_hand_points_below": accepted_up_to + 1})


@pytest.mark.parametrize("changes, accepted_up_to", [
    ({}, 25), ({"players": 4}, 25), ({"players": 2}, 21), ({"players": 2, "two_player_talon": 3}, 25),
])
def test_talon_points_bound(changes, accepted_up_to):
    HouseRules.from_dict({**changes, "redeal_talon_points_below": accepted_up_to})
    with pytest.raises(RulesError, match=f"'redeal_talon_points_below' = {accepted_up_to + 1}: only"):
        HouseRules.from_dict({**changes, "redeal_talon_points_below": accepted_up_to + 1})


@pytest.mark.parametrize("changes, most, name", [
    # Certainly redealt: the poorest hand (the talon) can never reach the threshold.
    ({"redeal_hand_points_below": 41}, 40, "redeal_hand_points_below"),
    ({"players": 4, "redeal_hand_points_below": 41}, 40, "redeal_hand_points_below"),
    ({"players": 2, "two_player_talon": 3, "redeal_hand_points_below": 59}, 58, "redeal_hand_points_below"),
    ({"players": 2, "redeal_talon_points_below": 23}, 22, "redeal_talon_points_below"),
])
def test_every_deal_redealt_is_named_with_its_reason(changes, most, name):
    with pytest.raises(RulesError, match=f"'{name}' = .*: every deal would be redealt: .* at most {most} card points"):
        HouseRules.from_dict(changes)
    # One below is still possible, not certain (and refused for being almost certain).
    with pytest.raises(RulesError, match=f"'{name}' = {most}: only .* would escape a redeal"):
        HouseRules.from_dict({**changes, name: most})


def test_redeal_limit_penalty_and_never_asking_are_never_refused():
    for changes in ({"redeal_limit_penalty": True}, {"redeal_policy": "never"}):
        HouseRules.from_dict({"redeal_hand_points_below": 60, "redeal_talon_points_below": 31, **changes})
    # only_at_100: the talon's points are asked only after an uncontested forced bid.
    HouseRules.from_dict({"redeal_talon_points_below": 31, "redeal_talon_only_at_100": True})


def test_played_share_is_exact():
    from sim.game.redeal_odds import played_share

    off = dict(four_nines=False, three_nines=False, four_aces=False, talon_two_nines=False, talon_three_jacks=False)
    # A 3-card talon of at least 31 card points: AAA, AA+T, A+TT out of C(24, 3) = 2024 talons.
    assert played_share(3, 2, 0, talon_points_below=31, **off) == pytest.approx((4 + 6 * 4 + 4 * 6) / 2024)
    # Four aces in one of three 7-card hands: 3 C(20, 3) / C(24, 7) (two hands cannot both hold them).
    assert played_share(3, 2, 0, **{**off, "four_aces": True}, talon_points_below=0) == pytest.approx(
        1 - 3 * 1140 / 346104)
    # Two nines in a 2-player 2-card talon: C(4, 2) / C(24, 2).
    assert played_share(2, 2, 0, **{**off, "talon_two_nines": True}, talon_points_below=0) == pytest.approx(
        1 - 6 / 276)
    assert played_share(3, 2, 41, talon_points_below=0, **off) == 0.0
    assert played_share(3, 2, 40, talon_points_below=0, **off) > 0.0  # 40/40/40 with three nines in the talon


def test_played_share_matches_dealt_cards():
    # The rank counting against plain dealing: 20,000 shuffled decks, hands checked card by card.
    import numpy as np

    from sim.game.cards import RANK_POINTS
    from sim.game.redeal_odds import played_share

    rng = np.random.default_rng(24)
    decks = rng.permuted(np.tile(np.arange(24), (20000, 1)), axis=1)
    points, ranks = np.array([RANK_POINTS[c % 6] for c in range(24)]), decks % 6
    hands = [slice(0, 7), slice(7, 14), slice(14, 21)]
    redealt = np.zeros(len(decks), dtype=bool)
    for h in hands:
        redealt |= (points[decks[:, h]].sum(axis=1) < 25) | ((ranks[:, h] == 0).sum(axis=1) >= 3)
    redealt |= points[decks[:, 21:]].sum(axis=1) < 10
    share = played_share(3, 2, 25, False, True, False, 10, False, False)
    sd = (share * (1 - share) / len(decks)) ** 0.5
    assert abs((~redealt).mean() - share) < 4 * sd, ((~redealt).mean(), share)


# ---- rules files: the [rules] table (item 10) and a byte-order mark (item 23) ---------------------

def test_keys_beside_a_rules_table_are_refused(tmp_path):
    f = tmp_path / "r.toml"
    f.write_text("barrel = 900\n[rules]\nbarrel_min_contract = 125\n")
    with pytest.raises(RulesError, match="'barrel' outside the \\[rules\\] table"):
        load_rules(str(f))
    f.write_text("[rules]\nbarrel = 900\nbarrel_min_contract = 125\n[other]\nx = 1\n")
    with pytest.raises(RulesError, match="unknown table \\[other\\]"):
        load_rules(str(f))
    f.write_text("[rules]\nbarrel = 900\nbarrel_min_contract = 125\n")
    assert load_rules(str(f)).barrel == 900


def test_byte_order_mark_is_read(tmp_path):
    f = tmp_path / "r.toml"
    f.write_bytes(b"\xef\xbb\xbfbarrel = 900\nbarrel_min_contract = 125\n")
    assert load_rules(str(f)).barrel == 900


# ---- scoring options of issue 28 (docs/RULES.md "Scoring variants", docs/peer-rules.md §3, §4, §8) ----

# The peers' own rounding tables (docs/peer-rules.md §4): leadage roundToFive, iamfilip98 roundToTen
# (its tests, not its comment), mekedron round_to_nearest = 10, urmomeesak none.
PEER_ROUNDING = {
    "five": {11: 10, 12: 10, 13: 15, 17: 15, 18: 20, 47: 45, 48: 50, 73: 75, 22: 20},
    "ten": {14: 10, 15: 10, 16: 20, 24: 20, 25: 20, 26: 30, 28: 30, 35: 30, 46: 50, 0: 0, 70: 70},
    "ten_half_up": {14: 10, 15: 20, 16: 20, 24: 20, 25: 30, 26: 30, 35: 40, 73: 70},
    "none": {5: 5, 73: 73, 47: 47, 80: 80},
}


@pytest.mark.parametrize("rounding", list(PEER_ROUNDING))
def test_rounding_matches_the_peers_tables(rounding):
    import numpy as np

    from sim.game.play_nb import round_points

    rules = HouseRules.from_dict({"rounding": rounding})
    a = rules.to_array()
    for points, expected in PEER_ROUNDING[rounding].items():
        assert rules.round_points(points) == expected, (rounding, points)
        assert round_points(np.int64(points), a) == expected, (rounding, points)  # the kernels' twin
    points = np.array(list(PEER_ROUNDING[rounding]))
    assert list(rules.round_points(points)) == list(PEER_ROUNDING[rounding].values())


def test_scoring_options_reach_the_kernels():
    a = HouseRules().to_array()
    assert (a[R.CONCEDE_HALF_FLOOR], a[R.ROUND_UNIT], a[R.ROUND_OFFSET], a[R.DECLARER_SCORES_POINTS],
            a[R.WIN_SCORE_CAPPED]) == (0, 5, 2, 0, 0)
    a = HouseRules.from_dict({"concede_payout": "half_floor", "rounding": "ten", "declarer_scores": "points",
                              "win_score_capped": True}).to_array()
    assert (a[R.CONCEDE_HALF_FLOOR], a[R.ROUND_UNIT], a[R.ROUND_OFFSET], a[R.DECLARER_SCORES_POINTS],
            a[R.WIN_SCORE_CAPPED]) == (1, 10, 4, 1, 1)
    table = {row[0]: row[2] for row in option_table()}  # what `thousand rules` lists
    assert table["concede_payout"] == "half_up5, half_floor"
    assert table["rounding"] == "five, none, ten, ten_half_up"
    assert table["declarer_scores"] == "contract, points"
    assert table["win_score_capped"] == "bool"


@pytest.mark.parametrize(
    "values, message",
    [
        ({"concede_payout": "half_floor", "concede_60": True},
         "'concede_payout' = 'half_floor': contradicts concede_60"),
        ({"concede_payout": "half_floor", "concede": False}, "'concede' = False: is off"),
        ({"concede_payout": "half_down"}, "'concede_payout' = 'half_down': must be half_up5 or half_floor"),
        ({"rounding": "10"}, "'rounding' = '10': must be five, none, ten or ten_half_up"),
        ({"declarer_scores": "rounded"}, "'declarer_scores' = 'rounded': must be contract or points"),
        ({"win_score_capped": True, "barrel": None}, "'win_score_capped' = True: has no effect: barrel = none"),
        ({"win_score_capped": "maybe"}, "'win_score_capped' must be true or false"),
    ],
)
def test_bad_scoring_options_are_one_line(values, message):
    with pytest.raises(RulesError, match=message) as info:
        HouseRules.from_dict(values)
    assert "\n" not in str(info.value)


# ---- bolt, no-win, sitting-out and dump-truck options of issue 28 (docs/peer-rules.md §6, §9, §11) ----

def test_bolt_and_four_player_options_reach_the_kernels():
    a = HouseRules().to_array()
    assert (a[R.BOLT_EXEMPT_KEEPS_RUN], a[R.NO_WIN_PENALTY], a[R.NO_WIN_PENALTY_AMOUNT], a[R.SITOUT_CARDS],
            a[R.SITOUT_MARRIAGE], a[R.DUMP_TRUCK_VALUE]) == (0, R.NO_WIN_OFF, 120, 1, 1, 555)
    a = HouseRules.from_dict({"bolt_count": "consecutive", "bolt_own_game_exempt": True, "bolt_exempt_keeps_run": True,
                              "no_win_penalty": "consecutive", "no_win_penalty_amount": 150, "players": 4,
                              "sitout_scores": "marriage", "dump_truck_value": 600}).to_array()
    assert (a[R.BOLT_EXEMPT_KEEPS_RUN], a[R.NO_WIN_PENALTY], a[R.NO_WIN_PENALTY_AMOUNT], a[R.SITOUT_CARDS],
            a[R.SITOUT_MARRIAGE], a[R.DUMP_TRUCK_VALUE]) == (1, R.NO_WIN_CONSECUTIVE, 150, 0, 1, 600)
    assert tuple(HouseRules.from_dict({"players": 4, "sitout_scores": "cards"}).to_array()[
        [R.SITOUT_CARDS, R.SITOUT_MARRIAGE]]) == (1, 0)
    table = {row[0]: row[2] for row in option_table()}  # what `thousand rules` lists
    assert table["no_win_penalty"] == "off, cumulative, consecutive"
    assert table["sitout_scores"] == "cards_and_marriage, cards, marriage"
    assert table["bolt_exempt_keeps_run"] == "bool"


def test_default_dump_truck_stays_allowed_under_a_low_target():
    # Before dump_truck_value, a target under 555 was accepted with the dump truck on; it still is.
    assert HouseRules.from_dict({"target": 500, "barrel": 380}).dump_truck_value == 555
    assert HouseRules.from_dict({"target": 555, "barrel": 440, "dump_truck_value": 555}).dump_truck


@pytest.mark.parametrize(
    "values, message",
    [
        ({"bolt_exempt_keeps_run": True}, "'bolt_exempt_keeps_run' = True: needs bolt_own_game_exempt and "
                                          "bolt_count = consecutive"),
        ({"bolt_exempt_keeps_run": True, "bolt_own_game_exempt": True}, "'bolt_exempt_keeps_run' = True: needs"),
        ({"bolt_exempt_keeps_run": True, "bolt_count": "consecutive"}, "'bolt_exempt_keeps_run' = True: needs"),
        ({"no_win_penalty": "always"}, "'no_win_penalty' = 'always': must be off, cumulative or consecutive"),
        ({"no_win_penalty_amount": 150}, "'no_win_penalty_amount' = 150: has no effect: no_win_penalty is off"),
        ({"no_win_penalty": "cumulative", "no_win_penalty_amount": 123},
         "'no_win_penalty_amount' = 123: must be a multiple of 5 from 5 to 1000"),
        ({"no_win_penalty": "cumulative", "no_win_penalty_amount": 0}, "'no_win_penalty_amount' = 0: must be"),
        ({"sitout_scores": "talon"}, "'sitout_scores' = 'talon': must be cards_and_marriage, cards or marriage"),
        ({"sitout_scores": "cards"}, "'sitout_scores' = 'cards': needs players = 4"),
        ({"players": 4, "sitout_scores": "cards", "sitout_half_marriage": True},
         "'sitout_half_marriage' = True: contradicts sitout_scores = cards"),
        ({"dump_truck_value": 601}, "'dump_truck_value' = 601: must be a multiple of 5 from 100 to 995"),
        ({"dump_truck_value": 1000}, "'dump_truck_value' = 1000: must be a multiple of 5 from 100 to 995"),
        ({"dump_truck_value": 95}, "'dump_truck_value' = 95: must be"),
        ({"dump_truck_value": 600, "dump_truck": False}, "'dump_truck_value' = 600: has no effect"),
        ({"dump_truck_value": 600, "target": 555, "barrel": 440}, "'dump_truck_value' = 600: is above the target"),
    ],
)
def test_bad_bolt_and_four_player_options_are_one_line(values, message):
    with pytest.raises(RulesError, match=message) as info:
        HouseRules.from_dict(values)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "values, message",
    [
        ({"dark_defenders_doubled": False}, "'dark_defenders_doubled' = False: needs dark_game"),
        ({"golden_defenders": "doubled_rounded"}, "'golden_defenders' = 'doubled_rounded': needs golden_round"),
        ({"golden_round": True, "golden_defenders": "twice"},
         "'golden_defenders' = 'twice': must be doubled_cards or doubled_rounded"),
        ({"bolt_double_in_golden": True}, "'bolt_double_in_golden' = True: needs golden_round"),
    ],
)
def test_bad_dark_and_golden_scoring_is_one_line(values, message):
    with pytest.raises(RulesError, match=message) as info:
        HouseRules.from_dict(values)
    assert "\n" not in str(info.value)


def test_dark_and_golden_scoring_reach_the_rules_array():
    a = HouseRules().to_array()
    assert (a[R.DARK_DEFENDERS_DOUBLED], a[R.GOLDEN_DEFENDERS_ROUNDED], a[R.BOLT_DOUBLE_IN_GOLDEN]) == (1, 0, 0)
    a = HouseRules(dark_game=True, dark_defenders_doubled=False, golden_round=True,
                   golden_defenders="doubled_rounded", bolt_double_in_golden=True).to_array()
    assert (a[R.DARK_DEFENDERS_DOUBLED], a[R.GOLDEN_DEFENDERS_ROUNDED], a[R.BOLT_DOUBLE_IN_GOLDEN]) == (0, 1, 1)


@pytest.mark.parametrize(
    "values, message",
    [
        ({"forced_bid_seat": "left"}, "'forced_bid_seat' = 'left': must be first_hand or dealer"),
        ({"forced_first_bid": False, "forced_bid_seat": "dealer"},
         "'forced_bid_seat' = 'dealer': has no effect: forced_first_bid = false"),
        ({"players": 4, "forced_bid_seat": "dealer"}, "'forced_bid_seat' = 'dealer': needs the dealer to play"),
        ({"all_pass": "redeal"}, "'all_pass' = 'redeal': must be throw_in or dealer_plays"),
        ({"all_pass": "dealer_plays"}, "'all_pass' = 'dealer_plays': needs forced_first_bid = false"),
        ({"players": 4, "forced_first_bid": False, "all_pass": "dealer_plays"},
         "'all_pass' = 'dealer_plays': needs the dealer to play"),
        ({"bid_ceiling_before_talon": 95}, r"'bid_ceiling_before_talon' = 95: must be from min_bid \(100\)"),
        ({"bid_ceiling_before_talon": 305}, r"'bid_ceiling_before_talon' = 305: must be from min_bid \(100\) to "
                                            r"max_contract \(300\)"),
        ({"bid_ceiling_before_talon": 122}, "'bid_ceiling_before_talon' = 122: must be a multiple of 5"),
        ({"bid_step_10_from": 205}, "'bid_step_10_from' = 205: must be a multiple of 10"),
        ({"bid_step_10_from": 100}, r"'bid_step_10_from' = 100: must be a multiple of 10 above min_bid \(100\)"),
        ({"bid_step_10_from": 310}, r"'bid_step_10_from' = 310: .*at most max_contract \(300\)"),
        ({"bid_step": 10, "bid_step_10_from": 200}, "'bid_step_10_from' = 200: has no effect: bid_step = 10"),
        ({"barrel": None, "barrel_min_bid_enforced": True},
         "'barrel_min_bid_enforced' = True: has no effect: barrel = none"),
        ({"barrel_talon_free": True, "barrel_min_bid_enforced": True},
         "'barrel_min_bid_enforced' = True: has no effect with barrel_talon_free"),
        ({"barrel_accumulate": True, "barrel_min_bid_enforced": True},
         "'barrel_min_bid_enforced' = True: has no effect with barrel_accumulate"),
        ({"bid_ceiling_before_talon": 115, "barrel_min_bid_enforced": True},
         "'barrel_min_bid_enforced' = True: contradicts bid_ceiling_before_talon = 115"),
    ],
)
def test_bad_auction_options_are_one_line(values, message):
    with pytest.raises(RulesError, match=message) as info:
        HouseRules.from_dict(values)
    assert "\n" not in str(info.value)


# ---- when marriages may be declared and take effect (issue 28 item 10) ----------------------------
@pytest.mark.parametrize(
    "values, message",
    [
        ({"marriage_min_cards": 1}, "'marriage_min_cards' = 1: must be an integer from 2 to 8"),
        ({"marriage_min_cards": 9}, "'marriage_min_cards' = 9: must be an integer from 2 to 8"),
        ({"marriage_min_cards": 8}, "'marriage_min_cards' = 8: would forbid every marriage: with 3 players"),
        ({"marriage_min_cards": 8, "players": 4}, "'marriage_min_cards' = 8: would forbid every marriage: with 4 "),
        ({"marriage_trump_from": "later"}, "'marriage_trump_from' = 'later': must be this_trick or next_trick"),
    ],
)
def test_bad_marriage_timing_is_one_line(values, message):
    with pytest.raises(RulesError, match=message) as info:
        HouseRules.from_dict(values)
    assert "\n" not in str(info.value)


def test_auction_options_reach_the_rules_array():
    fields = (R.FORCED_BID_SEAT, R.ALL_PASS, R.BID_CEILING_BEFORE_TALON, R.BID_STEP_10_FROM, R.BARREL_MIN_BID_ENFORCED)
    assert [HouseRules().to_array()[f] for f in fields] == [0, 0, 0, 0, 0]
    a = HouseRules(forced_bid_seat="dealer", bid_ceiling_before_talon=120, bid_step_10_from=200,
                   barrel_min_bid_enforced=True).to_array()
    assert [a[f] for f in fields] == [1, 0, 120, 200, 1]
    a = HouseRules.from_dict({"forced_first_bid": False, "all_pass": "dealer_plays",
                              "bid_ceiling_before_talon": "none", "bid_step_10_from": "off"}).to_array()
    assert [a[f] for f in fields] == [0, 1, 0, 0, 0]
    # The 2-player dealer holds the forced bid too; barrel_min_bid_enforced stays allowed with a ceiling at it.
    HouseRules(players=2, forced_bid_seat="dealer")
    HouseRules(bid_ceiling_before_talon=120, barrel_min_bid_enforced=True)


def test_marriage_timing_reaches_the_rules_array():
    a = HouseRules().to_array()
    assert (a[R.MARRIAGE_MIN_CARDS], a[R.MARRIAGE_TRUMP_FROM]) == (2, 0)
    a = HouseRules(marriage_min_cards=3, marriage_trump_from="next_trick").to_array()
    assert (a[R.MARRIAGE_MIN_CARDS], a[R.MARRIAGE_TRUMP_FROM]) == (3, 1)
    # Eight cards: the first trick only, so with three or four players only with marriage_first_lead;
    # two players hold 8 cards on a later trick.
    assert HouseRules.from_dict({"marriage_min_cards": 8, "marriage_first_lead": True}).marriage_min_cards == 8
    assert HouseRules.from_dict({"marriage_min_cards": 8, "players": 2, "two_player_talon": 3}).marriage_min_cards == 8


# ---- barrel variants of issue 28 item 7 (docs/peer-rules.md §7, §12) ----

RANGE = {"barrel_freeze": False, "barrel_knock_off": False, "barrel_simultaneous_penalty": False}


def test_barrel_variants_reach_the_kernels():
    a = HouseRules().to_array()
    slots = [R.BARREL_FAILED_STAYS, R.BARREL_FREEZE, R.BARREL_JUMP_WINS, R.BARREL_DEFENCE_WINS,
             R.BARREL_SIMULTANEOUS_KEEPER, R.BARREL_COLLISION]
    assert tuple(a[slots]) == (0, 1, 0, 0, 0, R.COLLISION_NEWCOMER_STAYS)
    a = HouseRules.from_dict({"barrel_failed_contract": "stays", "barrel_jump_wins": True, "barrel_defence_wins": True,
                              "barrel_simultaneous_keeper": "declarer_else_lowest_seat",
                              "barrel_collision": "both_fall"}).to_array()
    assert tuple(a[slots]) == (1, 1, 1, 1, 1, R.COLLISION_BOTH_FALL)
    # The range barrel implies barrel_jump_wins in the kernels' array.
    a = HouseRules.from_dict(RANGE).to_array()
    assert (a[R.BARREL_FREEZE], a[R.BARREL_JUMP_WINS]) == (0, 1)
    table = {row[0]: row[2] for row in option_table()}
    assert table["barrel_collision"] == "newcomer_stays, sitter_stays, both_fall"
    assert table["barrel_failed_contract"] == "falls, stays"


def test_polish_range_barrel_is_accepted():
    # docs/peer-rules.md §12 `polish`: barrel 800, no attempt limit; 800 + barrel_min_contract need not reach 1000.
    rules = HouseRules.from_dict({**RANGE, "barrel": 800, "barrel_attempts": 0})
    assert rules.to_array()[R.BARREL_ATTEMPTS] == 0
    # barrel_min_contract is the free talon's bid there, so it may be set with barrel_talon_free.
    assert HouseRules.from_dict({**RANGE, "barrel_min_contract": 125, "barrel_talon_free": True}).barrel_min_contract \
        == 125


@pytest.mark.parametrize(
    "values, message",
    [
        ({"barrel_failed_contract": "sits"}, "'barrel_failed_contract' = 'sits': must be falls or stays"),
        ({"barrel_simultaneous_keeper": "declarer"},
         "'barrel_simultaneous_keeper' = 'declarer': must be none or declarer_else_lowest_seat"),
        ({"barrel_collision": "coexist"}, "'barrel_collision' = 'coexist': must be newcomer_stays, sitter_stays or"),
        ({"barrel_attempts": 0}, "'barrel_attempts' = 0: 0 \\(no limit\\) needs barrel_freeze = false"),
        ({"barrel_attempts": 11}, "'barrel_attempts' = 11: must be an integer from 0 to 10"),
        ({"barrel_freeze": False},
         "'barrel_freeze' = False: false \\(the range barrel\\) needs barrel_knock_off = false"),
        ({"barrel_freeze": False, "barrel_knock_off": False},
         "'barrel_freeze' = False: false \\(the range barrel\\) needs barrel_simultaneous_penalty = false"),
        ({**RANGE, "barrel_jump_wins": True},
         "'barrel_jump_wins' = True: has no effect: barrel_freeze = false implies"),
        ({**RANGE, "barrel_accumulate": True}, "'barrel_accumulate' = True: contradicts barrel_freeze = false"),
        ({**RANGE, "barrel_min_contract": 125},
         "'barrel_min_contract' = 125: has no effect with barrel_freeze = false"),
        ({**RANGE, "barrel_attempts": 0, "barrel_forced_last": True},
         "'barrel_forced_last' = True: needs a last attempt"),
        ({"barrel_accumulate": True, "barrel_failed_contract": "stays"},
         "'barrel_failed_contract' = 'stays': has no effect with barrel_accumulate"),
        ({"barrel_accumulate": True, "barrel_defence_wins": True},
         "'barrel_defence_wins' = True: has no effect with barrel_accumulate"),
        ({"barrel_simultaneous_penalty": False, "barrel_simultaneous_keeper": "declarer_else_lowest_seat"},
         "'barrel_simultaneous_keeper' = 'declarer_else_lowest_seat': needs barrel_simultaneous_penalty"),
        ({"barrel_knock_off": False, "barrel_collision": "sitter_stays"},
         "'barrel_collision' = 'sitter_stays': needs barrel_knock_off"),
        ({"barrel": None, "barrel_jump_wins": True}, "'barrel_jump_wins' = True: has no effect: barrel = none"),
        ({"barrel": None, "barrel_freeze": False}, "'barrel_freeze' = False: has no effect: barrel = none"),
        ({"barrel_min_contract": 100}, "'barrel_min_contract' = 100: barrel 880 \\+ 100 does not reach the target"),
    ],
)
def test_bad_barrel_variants_are_one_line(values, message):
    with pytest.raises(RulesError, match=message) as info:
        HouseRules.from_dict(values)
    assert "\n" not in str(info.value)


def test_the_peer_presets_table_in_docs_is_the_presets():
    """docs/RULES.md "The peers' presets" lists, side by side, every option in which polish,
    tysyacha_1000 or mekedron differs from classic; the table must say what the presets are."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "RULES.md").read_text(encoding="utf-8")
    section = text.split("### The peers' presets", 1)[1].split("\n###", 1)[0].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    names = ("polish", "tysyacha_1000", "mekedron")

    def shown(value) -> str:
        return "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)

    table = {}
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        option, classic, values = cells[0].strip("`"), cells[1], cells[2:]
        assert classic == shown(getattr(HouseRules(), option)), option
        table[option] = [None if v == "—" else v.strip("*") for v in values]
    expected = {}
    for i, name in enumerate(names):
        for option, value in preset(name).changes_from(HouseRules()).items():
            expected.setdefault(option, [None] * len(names))[i] = shown(value)
    assert table == expected


# ---- rules of real tables, issue 45 (docs/RULES.md "Rules of real tables", docs/peer-rules.md) ----


def test_real_table_options_reach_the_kernels():
    a = HouseRules().to_array()
    slots = [R.CONCEDE_FREE_AT_MIN_BID, R.BARREL_FALLS_ATTEMPTS_ONLY, R.WIN_TIE_LOWEST_SEAT, R.NO_RAISE_AFTER_TALON]
    assert tuple(a[slots]) == (0, 0, 0, 0)
    a = HouseRules.from_dict({"concede_free_at_min_bid": True, "barrel_falls_counted": "attempts_only",
                              "target_tie": "lowest_seat", "barrel_jump_wins": True,
                              "no_raise_after_talon": True}).to_array()
    assert tuple(a[slots]) == (1, 1, 1, 1)
    # Without a barrel a tie needs anybody to win; on the range barrel every score reaching the target wins.
    assert HouseRules.from_dict({"barrel": None, "win_only_as_declarer": False, "target_tie": "lowest_seat"})
    assert HouseRules.from_dict({**RANGE, "target_tie": "lowest_seat"})
    assert HouseRules.from_dict({"barrel_defence_wins": True, "target_tie": "lowest_seat"})
    table = {row[0]: row[2] for row in option_table()}
    assert table["barrel_falls_counted"] == "all, attempts_only"
    assert table["target_tie"] == "after_declarer, lowest_seat"


def test_free_throw_pays_and_costs_nothing_only_at_min_bid():
    a = HouseRules(concede_free_at_min_bid=True, concede_60=True).to_array()
    assert (concession_gain(100, a), concession_loss(100, 1, a)) == (0, 0)
    assert (concession_gain(110, a), concession_loss(110, 1, a)) == (60, 110)
    b = HouseRules(concede_free_at_min_bid=True, concede_third_penalty=True).to_array()
    assert concession_loss(100, 3, b) == 120  # still a concession: the third one's penalty stands
    c = HouseRules().to_array()
    assert (concession_gain(100, c), concession_loss(100, 1, c)) == (50, 100)


def test_no_raise_after_talon_legal_contracts():
    hand = parse_hand("AH TH KH QH JH 9H AS TS")  # the hearts marriage: a cap of 220
    plain, fixed = HouseRules().to_array(), HouseRules(no_raise_after_talon=True).to_array()
    assert (contract_cap(hand, 100, plain), contract_cap(hand, 100, fixed)) == (220, 100)
    assert legal_contract(150, 100, 220, plain) and not legal_contract(150, 100, 220, fixed)
    assert legal_contract(100, 100, 100, fixed)


@pytest.mark.parametrize(
    "values, message",
    [
        ({"barrel_falls_counted": "knock_offs"}, "'barrel_falls_counted' = 'knock_offs': must be all or attempts_only"),
        ({"barrel_falls_counted": "attempts_only", "barrel_falls_to_zero": 0},
         "'barrel_falls_counted' = 'attempts_only': has no effect: barrel_falls_to_zero = 0"),
        ({"barrel": None, "barrel_falls_counted": "attempts_only"},
         "'barrel_falls_counted' = 'attempts_only': has no effect: barrel = none"),
        ({"target_tie": "highest_seat"}, "'target_tie' = 'highest_seat': must be after_declarer or lowest_seat"),
        ({"target_tie": "lowest_seat"}, "'target_tie' = 'lowest_seat': has no effect: only the declarer can reach"),
        ({"barrel": None, "target_tie": "lowest_seat"},
         "'target_tie' = 'lowest_seat': has no effect: only the declarer can reach"),
        ({"concede": False, "concede_free_at_min_bid": True}, "'concede' = False: is off"),
        ({"concede_free_at_min_bid": True, "concede_no_deduction": True},
         "'concede_free_at_min_bid' = True: contradicts concede_no_deduction"),
        ({"no_raise_after_talon": "yes please"}, "'no_raise_after_talon' must be true or false"),
    ],
)
def test_bad_real_table_options_are_one_line(values, message):
    with pytest.raises(RulesError, match=message) as info:
        HouseRules.from_dict(values)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("name", list(PRESETS))
def test_rules_written_as_a_file_read_back_the_same(tmp_path, name):
    path = tmp_path / "rules.toml"
    path.write_text(rules_file_text(preset(name)), encoding="utf-8")
    assert load_rules(path) == preset(name)


def test_options_of_every_kind_survive_a_rules_file(tmp_path):
    # an option unset (None), a tuple, a string and a bool differing from classic
    changed = HouseRules.from_dict({"silence_below": -100, "barrel": None, "marriage_values": "40 60 80 120",
                                    "bolt_on": "three_passes", "dump_truck": False})
    assert changed != preset("classic")
    path = tmp_path / "rules.toml"
    path.write_text(rules_file_text(changed), encoding="utf-8")
    assert load_rules(path) == changed
