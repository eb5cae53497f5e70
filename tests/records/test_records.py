"""Deal records (docs/records.md): the text form and its JSON twin read back equal, a hand-written
classic deal replays legal and scores what was computed by hand, every kind of wrong record is
refused on the right line naming the seat and the move, and a record cut at a decision point and
seen by one seat holds what that seat knew then."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli import app
from sim import InputError
from sim.records import check_record, check_records, parse_record_text, read_records, show_record
from sim.records.record import (
    DARK,
    PASS,
    UNKNOWN,
    Call,
    RecordError,
    SeatState,
    format_json,
    format_text,
    parse_json,
)

ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLE = ROOT / "examples" / "records" / "defmar.txt"

# The defmar deal of tests/known_answers/deals.toml, written by hand. First hand is forced to 100,
# the others pass; he takes JS KS 9S, gives 9S to second and QS to third and plays 100.
#  T1 first: KH 9H TH -> third (14): no marriage before a trick is won; the ten beats the king
#  T2 third: 9D AS AD -> second (22): first, void in diamonds with no trump, throws AS
#  T3 second: KC+ JC AC -> first (17): second has won a trick: clubs marriage 60, clubs trump
#  T4 first: AH 9C JH -> second (13): second, void in hearts, must trump
#  T5 second: TD JD JS -> second (14)   T6 second: KD QD QH -> second (10)
#  T7 second: QC TC TS -> third (23)    T8 third: QS KS 9S -> first (7)
#  Card points: first 17 + 7 = 24 < 100: -100; second 22 + 13 + 14 + 10 = 59, + 60 = 119 -> 120;
#  third 14 + 23 = 37 -> 35 (rounded to five).
DEFMAR = """thousand record 1
rules classic
first  AH KH QH AC AS TS QS
second 9H AD TD KD KC QC 9C
third  TH JH QD JD 9D TC JC
talon  KS JS 9S
bids first 100, second pass, third pass
gifts 9S to second, QS to third
contract 100
play KH 9H TH / 9D AS AD / KC+ JC AC / AH 9C JH
play TD JD JS / KD QD QH / QC TC TS / QS KS 9S
result first -100, second +120, third +35
"""


def _with(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def _refusal(text: str) -> str:
    with pytest.raises(RecordError) as exc:
        check_record(record=parse_record_text(text=text))
    return str(exc.value)


# ---- the two forms -------------------------------------------------------------------------------
def test_the_text_form_reads_back_as_written():
    rec = parse_record_text(text=DEFMAR)
    assert format_text(rec) == DEFMAR


def test_the_json_twin_round_trips_exactly():
    rec = parse_record_text(text=DEFMAR)
    line = format_json(rec)
    assert "\n" not in line
    again = parse_json(line)
    assert again == rec
    assert format_json(again) == line
    assert format_text(again) == DEFMAR


def test_a_hand_written_record_in_any_notation_reads_as_the_canonical_one():
    loose = """# a comment line
    THOUSAND RECORD 1
    rules classic
    first  A♥ K♥ Q♥ A♣ A♠ 10♠ Q♠   # suits as symbols, 10 for the ten
    second 9h ad td kd kc qc 9c
    dealer TH JH QD JD 9D TC JC
    talon  KS, JS, 9S
    bids first 100, second pass
    bids third pass
    gifts 9S to second, QS to third
    contract 100
    play KH 9H TH
    play 9D AS AD / KC+ JC AC / AH 9C JH / TD JD JS / KD QD QH / QC TC TS / QS KS 9S
    result first -100, second +120, third +35
    """
    assert parse_record_text(text=loose) == parse_record_text(text=DEFMAR)


def test_views_dark_calls_unknown_gifts_and_standings_round_trip():
    rec = parse_record_text(text=DEFMAR).seen_by("second")
    rec = type(rec)(**{**rec.__dict__, "auction": (Call(0, DARK), Call(1, 125), Call(2, PASS), Call(0, PASS)),
                       "before": (SeatState(880, True, attempts=1), SeatState(-40, bolts=2), SeatState(passes=2))})
    rec = type(rec)(**{**rec.__dict__, "gifts": (rec.gifts[0], type(rec.gifts[1])(UNKNOWN, 2))})
    assert parse_record_text(text=format_text(rec)) == rec
    assert parse_json(format_json(rec)) == rec
    assert "view second" in format_text(rec) and "? to third" in format_text(rec)


def test_other_versions_are_refused_by_name():
    with pytest.raises(RecordError, match="record format version 2 is not read"):
        parse_record_text(text=_with(DEFMAR, "thousand record 1", "thousand record 2"))
    with pytest.raises(RecordError, match="record format version 7 is not read"):
        parse_json(format_json(parse_record_text(text=DEFMAR)).replace('"thousand_record":1', '"thousand_record":7'))


def test_other_player_counts_are_refused_by_name(tmp_path):
    (tmp_path / "four.toml").write_text("players = 4\n", encoding="utf-8")
    (tmp_path / "deal.txt").write_text(_with(DEFMAR, "rules classic", "rules four.toml"), encoding="utf-8")
    with pytest.raises(RecordError, match="line 2: the rules are for 4 players"):
        check_records(path=tmp_path / "deal.txt")


# ---- the replay: a known answer ----------------------------------------------------------------
def test_a_hand_written_classic_deal_scores_as_computed_by_hand():
    verdict = check_record(record=parse_record_text(text=DEFMAR))
    assert verdict.complete and verdict.recorded
    assert verdict.changes == (-100, 120, 35)
    assert verdict.line == "legal; scores as recorded: first -100, second +120, third +35"


def test_the_shipped_example_is_the_known_deal():
    assert read_records(path=EXAMPLE)[0] == parse_record_text(text=DEFMAR)
    assert check_record(record=EXAMPLE).changes == (-100, 120, 35)


def test_a_record_without_a_result_gets_the_engines_score():
    text = DEFMAR.replace("result first -100, second +120, third +35\n", "")
    assert check_record(record=parse_record_text(text=text)).line == (
        "legal; the engine scores first -100, second +120, third +35 (no result recorded)")


def test_a_result_on_a_deal_that_stops_short_is_refused_at_the_result_line():
    text = _with(DEFMAR, "/ QS KS 9S", "/ QS KS")
    with pytest.raises(RecordError, match=r"^line 12: a result is recorded, but the deal stops short: in trick 8, "
                                          r"second to play$"):
        check_record(record=parse_record_text(text=text))
    with pytest.raises(RecordError, match="^line 11: a result is recorded, but the deal stops short: the gifts given, "
                                          "no contract yet$"):
        check_record(record=parse_record_text(text=_with(_with(DEFMAR, "contract 100\n", ""), "play KH", "# play KH")
                                              .replace("play TD", "# play TD")))
    # Without the result the same record is legal as far as it goes.
    short = text.replace("result first -100, second +120, third +35\n", "")
    assert check_record(record=parse_record_text(text=short)).line == (
        "legal as far as it goes: in trick 8, second to play")


@pytest.mark.parametrize("rules", ["rules", "rules   "])
def test_a_rules_line_naming_nothing_is_refused(rules):
    with pytest.raises(RecordError, match="^line 2: the rules line names no rules"):
        parse_record_text(text=_with(DEFMAR, "rules classic", rules))


def test_a_standing_before_the_deal_reaches_the_settlement():
    # The sweep deal of tests/known_answers/deals.toml and its case deal_defender_third_bolt (in
    # play.toml, computed by hand): first makes 100 and takes every trick; second (200, two bolts)
    # and third (one bolt) take none: second's third bolt costs 120, third reaches two.
    sweep = """thousand record 1
rules classic
before first 0, second 200 bolts 2, third 0 bolts 1
first  AH TH KH QH JH 9H AS
second AC TC KC QC JC 9C KS
third  AD TD KD QD JD 9D QS
talon  TS JS 9S
bids first 100, second pass, third pass
gifts 9S to second, JS to third
contract 100
play AS 9S JS / KH+ 9C 9D / QH JC JD / TS KS QS
play AH QC QD / TH KC KD / JH TC TD / 9H AC AD
result first +100, second -120, third 0
"""
    rec = parse_record_text(text=sweep)
    assert format_text(rec) == sweep
    assert check_record(record=rec).line == "legal; scores as recorded: first +100, second -120, third 0"


# ---- wrong records: the first wrong thing on its line --------------------------------------------
@pytest.mark.parametrize("old, new, expected", [
    ("third  TH JH", "third  AH JH", "line 5: AH is dealt twice: in first's hand (line 3) and in third's hand"),
    ("second 9H AD TD KD KC QC 9C", "second 9H AD TD KD KC QC", "line 4: second holds 6 cards"),
    ("talon  KS JS 9S", "talon  KS JS", "line 6: the talon holds 3 different cards"),
    ("bids first 100, second pass, third pass", "bids first 100, third pass, second pass",
     "line 7: third calls pass out of turn: it is second's turn"),
    ("bids first 100, second pass, third pass", "bids first 105, second pass, third pass",
     "line 7: the auction opens with first's forced bid 100"),
    ("bids first 100, second pass, third pass", "bids first 100, second 100, third pass, first pass",
     "line 7: second bids 100: below the least bid 105"),
    ("bids first 100, second pass, third pass", "bids first 100, second 112, third pass, first pass",
     "line 7: second bids 112: off the step: bids go up by 5 from 105"),
    ("bids first 100, second pass, third pass", "bids first 100, second pass, third 125",
     "line 7: third bids 125: above the cap 120 of the hand"),
    ("bids first 100, second pass, third pass", "bids first 100, second pass, third pass, first 105",
     "line 7: first calls 105 after the auction is over"),
    ("gifts 9S to second, QS to third", "gifts 9C to second, QS to third",
     "line 8: first gives 9C, which he does not hold"),
    ("gifts 9S to second, QS to third", "gifts 9S to second, QS to second",
     "line 8: a second gift to second"),
    ("contract 100", "contract 225", "line 9: first's contract 225: above the cap 220 of his hand"),
    ("contract 100", "contract 95", "line 9: first's contract 95: below the winning bid 100"),
    # third keeps TH: first's KH wins trick 1, so first, not third, leads trick 2
    ("play KH 9H TH / 9D AS AD", "play KH 9H JH / 9D AS AD",
     "line 10: trick 2, first: 9D is third's card, played out of turn: it is first's turn"),
    ("play KH 9H TH / 9D AS AD / KC+ JC AC / AH 9C JH", "play KH 9H TH / 9D AS AD / KC+ JC AC / AH 9D JH",
     "line 10: trick 4, second: 9D was played already in trick 2"),
    ("play KH 9H TH / 9D AS AD / KC+ JC AC / AH 9C JH", "play KH 9H TH / 9D AS AD / KC+ JC AC / AH TD JH",
     "line 10: trick 4, second: plays TD while void in hearts and holding trumps (QC 9C): a revoke"),
    ("play KH 9H TH / 9D AS AD", "play KH 9H TH / AS 9D AD",
     "line 10: trick 2, third: AS is first's card, played out of turn: it is third's turn"),
    ("play KH 9H TH", "play KH+ 9H TH", "line 10: trick 1, first: KH+ declares nothing: its leader has won no "
                                        "trick yet"),
    ("KC+ JC AC", "KC JC AC", "line 10: trick 3, second: the lead of KC declares the clubs marriage: write KC+"),
    ("9D AS AD", "9D+ AS AD", "line 10: trick 2, third: 9D+ declares nothing"),
    ("result first -100, second +120, third +35", "result first -100, second +120, third +30",
     "line 12: the result does not match the play: the engine scores first -100, second +120, third +35 "
     "(first failed 100 with 24 points); the record says first -100, second +120, third +30"),
])
def test_a_wrong_record_is_refused_on_its_line(old, new, expected):
    assert _refusal(_with(DEFMAR, old, new)).startswith(expected)


def test_a_revoke_of_the_led_suit_is_named():
    # Trick 1 with third throwing a club while he holds TH JH: his JC goes, his TH comes later.
    text = _with(DEFMAR, "play KH 9H TH / 9D AS AD / KC+ JC AC", "play KH 9H JC / 9D AS AD / KC+ TH AC")
    assert _refusal(text).startswith(
        "line 10: trick 1, third: plays JC to a hearts lead while holding hearts (TH JH): a revoke, following "
        "suit is compulsory")


def test_a_malformed_line_is_named():
    with pytest.raises(RecordError, match="line 7: a call is a seat and a bid"):
        parse_record_text(text=_with(DEFMAR, "bids first 100,", "bids first 100 second,"))
    with pytest.raises(RecordError, match="line 10: malformed card 'XH'"):
        parse_record_text(text=_with(DEFMAR, "play KH 9H TH", "play KH 9H XH"))
    with pytest.raises(RecordError, match="line 3: unknown line 'fist'"):
        parse_record_text(text=_with(DEFMAR, "first  AH", "fist  AH"))
    with pytest.raises(RecordError, match="a second contract or concede line"):
        parse_record_text(text=_with(DEFMAR, "contract 100\n", "contract 100\nconcede\n"))


def test_a_json_record_is_refused_naming_its_line(tmp_path):
    good = format_json(parse_record_text(text=DEFMAR))
    bad = good.replace('"result":{"first":-100', '"result":{"first":-90')
    (tmp_path / "deals.jsonl").write_text(good + "\n" + bad + "\n", encoding="utf-8")
    with pytest.raises(RecordError, match="line 2: the result does not match the play"):
        check_records(path=tmp_path / "deals.jsonl")
    (tmp_path / "deals.jsonl").write_text(good + "\n" + good + "\n", encoding="utf-8")
    assert [v.changes for v in check_records(path=tmp_path / "deals.jsonl")] == [(-100, 120, 35)] * 2
    assert show_record(path=tmp_path / "deals.jsonl", as_json=True) == good + "\n" + good + "\n"


def test_the_api_names_its_argument():
    with pytest.raises(InputError, match="record must be a Record or the path of a record file, not 5"):
        check_record(record=5)
    with pytest.raises(InputError, match="path: no such record file"):
        read_records(path="no/such/file.txt")
    with pytest.raises(InputError, match="path must be a path"):
        read_records(path=3)


# ---- cut and view ------------------------------------------------------------------------------
def test_a_record_cut_at_a_decision_point_is_legal_as_far_as_it_goes():
    rec = parse_record_text(text=DEFMAR)
    auction = rec.cut("auction")
    assert (auction.gifts, auction.contract, auction.tricks, auction.result) == ((), None, (), None)
    assert check_record(record=auction).line.startswith("legal as far as it goes: the talon is taken")
    talon = rec.cut("talon")
    assert talon.contract == 100 and talon.tricks == ()
    assert "before the first lead" in check_record(record=talon).line
    before3 = rec.cut("trick:3")
    assert len(before3.tricks) == 2
    assert check_record(record=before3).line == "legal as far as it goes: before trick 3"
    # Trick 4 is led by first (he won trick 3): before second plays in it, first's AH is on the table.
    in4 = rec.cut("trick:4", seat="second")
    assert [p.card for p in in4.tricks[-1]] == [parse_record_text(text=DEFMAR).tricks[3][0].card]
    assert check_record(record=in4).line == "legal as far as it goes: in trick 4, second to play"
    with pytest.raises(RecordError, match="at must be auction, talon or trick:N"):
        rec.cut("trick:9")


def test_a_seat_sees_its_hand_the_shown_talon_and_the_gifts_face_up():
    rec = parse_record_text(text=DEFMAR)
    second = rec.seen_by("second")
    assert second.view == 1
    assert second.hands == (0, rec.hands[1], 0)
    assert second.talon == rec.talon  # classic: the talon is shown
    assert second.gifts == rec.gifts  # classic: the gifts face up
    assert second.tricks == rec.tricks and second.result == rec.result
    assert rec.cut("auction").seen_by("second").talon == rec.talon  # the auction is over: the talon is taken
    assert check_record(record=second).line.startswith("consistent as far as second's view shows")
    assert parse_record_text(text=format_text(second)) == second


def test_gifts_face_down_hide_the_other_defenders_gift(tmp_path):
    (tmp_path / "down.toml").write_text("discard_face_down = true\n", encoding="utf-8")
    rec = parse_record_text(text=_with(DEFMAR, "rules classic", f"rules {tmp_path / 'down.toml'}"))
    second = rec.seen_by("second")
    assert [g.card for g in second.gifts] == [rec.gifts[0].card, UNKNOWN]
    assert [g.card for g in rec.seen_by("first").gifts] == [g.card for g in rec.gifts]


FACE_DOWN_TALON_GIFT = """thousand record 1
rules tysyacha_1000
first  AH TH TD KC AS TS 9S
second QH JH AD QD 9C KS QS
third  KH 9H KD JD 9D AC QC
talon  TC JC JS
bids third 100, first pass, second pass
gifts JS to first, 9H to second
contract 100
play TC KC 9C / QC JS 9H / JC 9S JH / AC TH QD
play JD TD AD / QS+ 9D TS / AS KS KD / AH QH KH
result first +50, second +65, third -100
"""


def test_a_talon_card_played_by_the_defender_whose_gift_was_face_down_was_that_gift():
    # tysyacha_1000 gives face down: second saw the talon (TC JC JS) but not first's gift, JS,
    # which first plays in trick 2; it was the declarer's until given, never his own card.
    rec = parse_record_text(text=FACE_DOWN_TALON_GIFT)
    second = rec.seen_by("second")
    assert [g.card for g in second.gifts] == [UNKNOWN, rec.gifts[1].card]
    assert check_record(record=second).line.startswith("consistent as far as second's view shows")
    for at in ("trick:2", "trick:3", "trick:8"):
        assert check_record(record=rec.cut(at).seen_by("second")).line.startswith("consistent")
    # ... but one gift only: a second talon card he plays (JC, the declarer's) is refused.
    text = format_text(rec.cut("trick:3").seen_by("second")) + "play AC JC\n"
    with pytest.raises(RecordError, match="JC is third's card, played out of turn"):
        check_record(record=parse_record_text(text=text))


def test_a_view_still_refuses_what_it_shows_wrong():
    second = parse_record_text(text=DEFMAR).seen_by("second")
    text = format_text(second.cut("trick:3")) + "play 9D\n"
    with pytest.raises(RecordError, match="9D was played already in trick 2"):
        check_record(record=parse_record_text(text=text))


# ---- other auctions ----------------------------------------------------------------------------
def test_a_dark_game_is_played_doubled(tmp_path):
    # dark_game: first goes dark (120, doubled) and the others pass: first takes 24 card points
    # and fails: -240; the defenders' card points doubled (dark_defenders_doubled), marriages not:
    # second 2 x 59 + 60 = 178 -> 180, third 2 x 37 = 74 -> 75.
    (tmp_path / "dark.toml").write_text("dark_game = true\n", encoding="utf-8")
    text = _with(DEFMAR, "rules classic", "rules dark.toml")
    text = _with(text, "bids first 100,", "bids first dark,")
    text = _with(text, "contract 100", "contract 120")
    text = _with(text, "result first -100, second +120, third +35", "result first -240, second +180, third +75")
    (tmp_path / "deal.txt").write_text(text, encoding="utf-8")
    assert check_records(path=tmp_path / "deal.txt")[0].changes == (-240, 180, 75)
    (tmp_path / "deal.txt").write_text(_with(text, "bids first dark, second pass", "bids first dark, second 120"),
                                       encoding="utf-8")
    with pytest.raises(RecordError, match="line 7: second bids 120: below the least bid 125"):
        check_records(path=tmp_path / "deal.txt")
    (tmp_path / "deal.txt").write_text(_with(text, "bids first dark, second pass", "bids first 100, second dark"),
                                       encoding="utf-8")
    with pytest.raises(RecordError, match="line 7: second goes dark"):
        check_records(path=tmp_path / "deal.txt")


def test_a_deal_all_pass_is_thrown_in(tmp_path):
    (tmp_path / "free.toml").write_text("forced_first_bid = false\n", encoding="utf-8")
    text = DEFMAR.split("bids")[0].replace("rules classic", "rules free.toml")
    (tmp_path / "deal.txt").write_text(text + "bids first pass, second pass, third pass\n"
                                       "result first 0, second 0, third 0\n", encoding="utf-8")
    assert check_records(path=tmp_path / "deal.txt")[0].line == "legal; scores as recorded: first 0, second 0, third 0"
    (tmp_path / "deal.txt").write_text(text + "bids first pass, second pass, third pass\ncontract 100\n",
                                       encoding="utf-8")
    with pytest.raises(RecordError, match="line 8: contract before the auction's end: every seat passed"):
        check_records(path=tmp_path / "deal.txt")


def test_left_and_right_name_the_seats_beside_the_viewer():
    second = parse_record_text(text=DEFMAR).seen_by("second")
    text = _with(format_text(second), "bids first 100, second pass, third pass",
                 "bids right 100, second pass, left pass")
    assert parse_record_text(text=text) == second


# ---- the commands ------------------------------------------------------------------------------
def test_the_commands_print_one_line_and_the_forms(tmp_path):
    runner = CliRunner()
    res = runner.invoke(app, ["record", "check", str(EXAMPLE)])
    assert res.exit_code == 0 and res.output == "legal; scores as recorded: first -100, second +120, third +35\n"
    bad = tmp_path / "bad.txt"
    bad.write_text(_with(DEFMAR, "second pass, third pass", "third pass, second pass"), encoding="utf-8")
    res = runner.invoke(app, ["record", "check", str(bad)])
    assert res.exit_code == 1
    assert res.output == "illegal: bad.txt: line 7: third calls pass out of turn: it is second's turn\n"
    res = runner.invoke(app, ["record", "show", str(EXAMPLE)])
    assert res.exit_code == 0 and res.output == DEFMAR
    res = runner.invoke(app, ["record", "show", str(EXAMPLE), "--json"])
    assert res.exit_code == 0 and parse_json(res.output.strip()) == parse_record_text(text=DEFMAR)
    res = runner.invoke(app, ["record", "check", str(tmp_path / "missing.txt")])
    assert res.exit_code == 2 and res.output.startswith("error: path: no such record file")
