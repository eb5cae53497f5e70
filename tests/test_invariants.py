"""Invariants of the engine's stored deals and games, checked against the pure-Python reference in
tests/reference_game.py (written from the rules, not from the engine) and with vectorized Polars
checks over whole frames.

Default run: a hundred games (a few thousand deals) for each of several player mixes and house
rules (the play options of RULES.md §4.4 among them), a few thousand all-random or mixed
independent deals, and a few double-dummy deals, every row replayed by the reference.
``--runslow`` adds 100,000 games through the batch runner: vectorized checks on every row, the
game-rule replay on every game, the full deal replay on a sample of 20,000 deals.
"""

from __future__ import annotations

import functools
import zlib
from collections import Counter, defaultdict
from pathlib import Path

import polars as pl
import pytest
import reference_game as ref

from sim.engine import BatchSpec, play_chunk
from sim.rules import HouseRules, preset
from sim.runner import run_batch, scan_deals, scan_games

SEATS = range(3)
HEURISTIC = ("heuristic", "heuristic", "heuristic")
MIXED = ("heuristic", "heuristic", "random")
MOSTLY_RANDOM = ("heuristic", "random", "random")
RANDOM = ("random", "random", "random")  # all-random games do not finish: deals mode only

FAST_GAMES = 100
FAST_DEALS = 3000

# Play options of RULES.md §4.4 (meaning: docs/solver.md "Play rules").
ONLINE_PLAY = HouseRules(marriage_first_lead=True, marriage_burns_without_trick=True)
HALF_ACE_OPTIONAL = HouseRules(half_marriage=True, ace_marriage=200, marriage_optional=True)
LEAD_RULES = HouseRules(no_lead_foreign_trump=True, must_lead_trump=True)
ALL_PLAY_OPTIONS = HouseRules(must_head=True, marriage_first_lead=True, marriage_burns_without_trick=True,
                              marriage_optional=True, ace_marriage=200, half_marriage=True,
                              no_lead_foreign_trump=True, must_lead_trump=True, marriage_values=(60, 40, 100, 80))

# name: (players, rules); each option the engine plays today appears at least once.
GAME_CONFIGS = {
    "classic-heuristic": (HEURISTIC, HouseRules()),
    "classic-mixed": (MIXED, HouseRules()),
    "classic-mostly-random": (MOSTLY_RANDOM, HouseRules()),
    "short": (MIXED, preset("short")),
    "long": (HEURISTIC, preset("long")),
    "no-concede": (MIXED, HouseRules(concede=False)),
    "no-barrel": (HEURISTIC, HouseRules(barrel=None)),
    "falls-never-zero": (MIXED, HouseRules(barrel_falls_to_zero=0)),
    "first-fall-zeroes": (HEURISTIC, HouseRules(barrel_falls_to_zero=1)),
    "dump-truck-negative-only": (MIXED, HouseRules(dump_truck=False, dump_truck_negative=True)),
    "no-bolt-penalty": (MOSTLY_RANDOM, HouseRules(bolt_penalty=0)),
    "concede-60-on-barrel": (HEURISTIC, HouseRules(concede_60=True, concede_on_barrel=True)),
    "concede-no-deduction": (MOSTLY_RANDOM, HouseRules(concede_no_deduction=True)),
    "round-declarer": (MIXED, HouseRules(round_declarer=True)),
    "min-bid-120": (HEURISTIC, HouseRules(min_bid=120)),
    "step-10-no-jumps": (MIXED, HouseRules(bid_step=10, no_jump_bids=True)),
    "marriage-values": (MOSTLY_RANDOM, HouseRules(marriage_values=(100, 80, 60, 40))),
    "no-knock-off": (HEURISTIC, HouseRules(barrel_knock_off=False)),
    "no-simultaneous-penalty": (MIXED, HouseRules(barrel_simultaneous_penalty=False)),
    "barrel-variant": (MIXED, HouseRules(barrel_min_contract=125, barrel_attempts=2, barrel_penalty=150)),
    "no-bid-cap": (HEURISTIC, HouseRules(no_bid_cap=True, max_contract=200)),
    # The play options of RULES.md §4.4, alone and combined.
    "online-play-heuristic": (HEURISTIC, ONLINE_PLAY),
    "online-play-mixed": (MIXED, ONLINE_PLAY),
    "must-head-heuristic": (HEURISTIC, HouseRules(must_head=True)),
    "must-head-mostly-random": (MOSTLY_RANDOM, HouseRules(must_head=True)),
    "half-ace-optional-heuristic": (HEURISTIC, HALF_ACE_OPTIONAL),
    "half-ace-optional-mixed": (MIXED, HALF_ACE_OPTIONAL),
    "lead-rules-heuristic": (HEURISTIC, LEAD_RULES),
    "no-lead-foreign-trump-mixed": (MIXED, HouseRules(no_lead_foreign_trump=True)),
    "must-lead-trump-mostly-random": (MOSTLY_RANDOM, HouseRules(must_lead_trump=True)),
    "marriage-values-half": (MIXED, HouseRules(marriage_values=(100, 80, 60, 40), half_marriage=True)),
    "all-play-options-mixed": (MIXED, ALL_PLAY_OPTIONS),
}
DEAL_CONFIGS = {
    "random-classic": (RANDOM, HouseRules()),
    "random-no-bid-cap": (RANDOM, HouseRules(no_bid_cap=True)),
    "random-step-10-no-jumps": (RANDOM, HouseRules(min_bid=120, bid_step=10, no_jump_bids=True)),
    "random-concede-60-round": (RANDOM, HouseRules(concede_60=True, round_declarer=True, max_contract=150)),
    "mixed-concede-no-deduction": (MIXED, HouseRules(concede_no_deduction=True,
                                                     marriage_values=(100, 80, 60, 40))),
    "random-online-play": (RANDOM, ONLINE_PLAY),
    "random-must-head": (RANDOM, HouseRules(must_head=True)),
    "random-half-ace-optional": (RANDOM, HALF_ACE_OPTIONAL),
    "random-lead-rules": (RANDOM, LEAD_RULES),
    # Odd marriage values: half marriages of 22, 32, 42, 52 (rounded down); burning applies to them too.
    "random-odd-values-half-aces-burn": (RANDOM, HouseRules(marriage_values=(45, 65, 85, 105), half_marriage=True,
                                                            ace_marriage=150, marriage_first_lead=True,
                                                            marriage_burns_without_trick=True)),
    "random-all-play-options": (RANDOM, ALL_PLAY_OPTIONS),
    "mixed-all-play-options": (MIXED, ALL_PLAY_OPTIONS),
    # The double-dummy player (about 20 ms a deal): few deals.
    "dd-must-head-half": ("dd", HouseRules(must_head=True, half_marriage=True)),
    "dd-all-play-options": ("dd", ALL_PLAY_OPTIONS),
}
DEAL_COUNTS = {"dd-must-head-half": 60, "dd-all-play-options": 60}  # the others: FAST_DEALS


@functools.cache
def played(name: str) -> tuple[pl.DataFrame, pl.DataFrame | None, HouseRules]:
    """One chunk of a configuration: (deals, games or None, rules), played once per session."""
    if name in GAME_CONFIGS:
        (players, rules), mode, n = GAME_CONFIGS[name], "games", FAST_GAMES
    else:
        (players, rules), mode, n = DEAL_CONFIGS[name], "deals", DEAL_COUNTS.get(name, FAST_DEALS)
    spec = BatchSpec(mode=mode, n=n, seed=zlib.crc32(name.encode()), chunk_size=n, players=players, rules=rules)
    deals, games = play_chunk(spec, 0)
    return deals, games, rules


@functools.cache
def deal_replay(name: str) -> tuple[list[str], Counter]:
    """Every deal row of a configuration replayed by the reference: (disagreements, the play
    situations met)."""
    deals, _, rules = played(name)
    failures, seen = [], Counter()
    for row in deals.iter_rows(named=True):
        try:
            ref.replay_deal(row, rules, seen)
        except AssertionError as exc:
            failures.append(str(exc))
    return failures, seen


def rows_by_game(deals: pl.DataFrame) -> dict[int, list[dict]]:
    out = defaultdict(list)
    for row in deals.sort("game", "deal").iter_rows(named=True):
        out[row["game"]].append(row)
    return out


def assert_all_pass(check, items, what: str) -> None:
    """Run ``check`` on every item and report every disagreement (the first few in full)."""
    failures = []
    for item in items:
        try:
            check(item)
        except AssertionError as exc:
            failures.append(str(exc))
    assert not failures, f"{len(failures)} of {len(items)} {what} disagree with the reference:\n" + "\n".join(
        failures[:5])


def won_in_this_deal() -> pl.Expr:
    return pl.any_horizontal([(pl.col(f"events{s}") & ref.EV_WIN) != 0 for s in SEATS])


def games_won_during_a_climb(deals: pl.DataFrame) -> set[int]:
    """Games whose sitter wins in a deal where another player climbs alone (a collision that once
    knocked the winner off the barrel)."""
    climb = pl.any_horizontal([(pl.col(f"events{s}") & ref.EV_BARREL_ON) != 0 for s in SEATS])
    return set(deals.filter(won_in_this_deal() & climb)["game"].to_list())


def replay_games(deals: pl.DataFrame, games: pl.DataFrame, rules: HouseRules) -> None:
    by_game = rows_by_game(deals)
    assert_all_pass(lambda g: ref.replay_game(by_game[g["game"]], g, rules), list(games.iter_rows(named=True)),
                    "games")


# ---- vectorized checks over whole frames ---------------------------------------------------------

def declarer_column(prefix: str) -> pl.Expr:
    return (pl.when(pl.col("declarer") == 0).then(pl.col(f"{prefix}0"))
            .when(pl.col("declarer") == 1).then(pl.col(f"{prefix}1"))
            .otherwise(pl.col(f"{prefix}2")))


def check_deal_frame(deals: pl.DataFrame, rules: HouseRules) -> None:
    """Row-wise invariants of RULES.md §6 and docs/RULES.md on every deal, as Polars expressions."""
    hands = [pl.col(f"hand{s}") for s in SEATS] + [pl.col("talon")]
    played_deal = ~pl.col("conceded")
    conceded_loss = 0 if rules.concede_no_deduction else -pl.col("contract").cast(pl.Int32)
    contract = pl.col("contract").cast(pl.Int32)
    checks = {
        "7 + 7 + 7 + 3 cards": pl.all_horizontal([h.bitwise_count_ones() == n for h, n in zip(hands, (7, 7, 7, 3),
                                                                                             strict=True)]),
        "all 24 cards dealt": (hands[0] | hands[1] | hands[2] | hands[3]) == ref.FULL_DECK,
        "120 card points in a played deal": pl.when(played_deal)
        .then(pl.sum_horizontal([pl.col(f"card_points{s}") for s in SEATS]) == 120)
        .otherwise(pl.sum_horizontal([pl.col(f"card_points{s}") for s in SEATS]) == 0),
        "8 tricks in a played deal": pl.when(played_deal)
        .then(pl.sum_horizontal([pl.col(f"tricks{s}") for s in SEATS]) == 8).otherwise(True),
        "declarer's result ±contract": pl.when(played_deal)
        .then(declarer_column("result") == pl.when(pl.col("made")).then(contract).otherwise(-contract))
        .otherwise(declarer_column("result") == conceded_loss),
        "contract ≥ winning bid": pl.col("contract") >= pl.col("winning_bid"),
        "defenders' results multiples of 5": pl.all_horizontal(
            [(pl.col("declarer") == s) | (pl.col(f"result{s}") % 5 == 0) for s in SEATS]),
        "changes multiples of 5": pl.all_horizontal([pl.col(f"change{s}") % 5 == 0 for s in SEATS]),
        "bolt = no trick in a played deal": pl.all_horizontal(
            [pl.col(f"bolt{s}") == (played_deal & (pl.col(f"tricks{s}") == 0)) for s in SEATS]),
    }
    bad = deals.select(**{name: (~expr).sum() for name, expr in checks.items()}).row(0, named=True)
    assert not any(bad.values()), f"rows breaking each invariant (of {deals.height}): {bad}"


def check_game_frames(deals: pl.DataFrame, games: pl.DataFrame) -> None:
    """Per game: every deal numbered in order, score = previous score + change, final scores = the
    last deal's scores, deal counts as stored."""
    ordered = deals.sort("game", "deal")
    continuity = ordered.select(
        [(pl.col("deal") != pl.int_range(pl.len()).over("game")).sum().alias("deal numbers")]
        + [(pl.col(f"score{s}") != (pl.col(f"score{s}").shift(1, fill_value=0).over("game") + pl.col(f"change{s}")))
           .sum().alias(f"score{s} ≠ previous + change") for s in SEATS]
    ).row(0, named=True)
    assert not any(continuity.values()), f"rows breaking score continuity: {continuity}"

    last = ordered.group_by("game").agg([pl.len().alias("deal_rows")] + [pl.col(f"score{s}").last() for s in SEATS])
    joined = games.join(last, on="game", how="left", suffix="_last")
    assert joined["deal_rows"].null_count() == 0, "a game without deal rows"
    mismatch = joined.filter(
        (pl.col("deals") != pl.col("deal_rows"))
        | pl.any_horizontal([pl.col(f"score{s}") != pl.col(f"score{s}_last") for s in SEATS]))
    assert mismatch.height == 0, f"games whose row disagrees with their last deal:\n{mismatch.head(5)}"
    assert set(deals["game"].unique()) == set(games["game"]), "deal rows and game rows name different games"


# ---- fast tier -----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(GAME_CONFIGS) + list(DEAL_CONFIGS))
def test_every_deal_replays(engine_compiled, name):
    failures, _ = deal_replay(name)
    assert not failures, f"{len(failures)} of {played(name)[0].height} deals disagree with the reference:\n" + (
        "\n".join(failures[:5]))


@pytest.mark.parametrize("name", list(GAME_CONFIGS))
def test_every_game_settles_as_the_reference(engine_compiled, name):
    deals, games, rules = played(name)
    assert games.height == FAST_GAMES and games["finished"].all()
    replay_games(deals, games, rules)


@pytest.mark.parametrize("name", list(DEAL_CONFIGS))
def test_independent_deals_settle_from_zero(engine_compiled, name):
    deals, _, rules = played(name)
    assert_all_pass(lambda row: ref.replay_game([row], None, rules), list(deals.iter_rows(named=True)), "deals")


@pytest.mark.parametrize("name", list(GAME_CONFIGS) + list(DEAL_CONFIGS))
def test_vectorized_invariants(engine_compiled, name):
    deals, games, rules = played(name)
    check_deal_frame(deals, rules)
    if games is not None:
        check_game_frames(deals, games)


def test_fast_sample_reaches_every_settlement_case(engine_compiled):
    # The replays above prove little about a rule the sample never meets: every event bit, concessions,
    # marriages, and bolt penalties paid on the barrel (alone and with a second cause of falling).
    other_fall = ref.EV_FALL_ATTEMPTS | ref.EV_FALL_CONTRACT | ref.EV_KNOCKED_OFF
    seen = defaultdict(int)
    for name in GAME_CONFIGS:
        deals, _, rules = played(name)
        deals = deals.sort("game", "deal")
        for s in SEATS:
            events = pl.col(f"events{s}")
            penalty = (events & ref.EV_BOLT_PENALTY) != 0
            for bit, event in ref.EVENT_NAMES.items():
                seen[event] += deals.filter((events & bit) != 0).height
            if rules.barrel is not None:
                sat_before = pl.col(f"score{s}").shift(1, fill_value=0).over("game") == rules.barrel
                seen["bolt penalty on the barrel"] += deals.filter(penalty & sat_before).height
            seen["bolt penalty and another fall"] += deals.filter(penalty & ((events & other_fall) != 0)).height
            seen["declared marriage"] += deals.filter(pl.col(f"marriages{s}") != 0).height
        seen["concession"] += deals["conceded"].sum()
    cases = [*ref.EVENT_NAMES.values(), "bolt penalty on the barrel", "bolt penalty and another fall",
             "declared marriage", "concession"]
    missing = [case for case in cases if not seen[case]]
    assert not missing, f"cases the fast sample never reaches: {missing}"


# Play situations the reference counts (``seen`` of replay_deal), one or more per §4.4 option.
PLAY_OPTION_CASES = (
    "declared marriage", "declared half marriage", "declared four aces", "declined", "declared before a won trick",
    "burnt", "must head binds", "trump lead forced", "foreign trump lead barred",
    "foreign trump barred over must_lead_trump",
)


def test_fast_sample_reaches_every_play_option(engine_compiled):
    # Each §4.4 option must actually bite in the sample: a restriction that leaves a player fewer
    # legal cards, a combination declared, declined or burnt.
    seen = Counter()
    for name in list(GAME_CONFIGS) + list(DEAL_CONFIGS):
        seen.update(deal_replay(name)[1])
    missing = [case for case in PLAY_OPTION_CASES if not seen[case]]
    assert not missing, f"play situations the fast sample never reaches: {missing}"
    for name in ("dd-must-head-half", "dd-all-play-options"):
        assert deal_replay(name)[1]["must head binds"], f"{name}: must_head never binds"


def read_run(out: Path) -> tuple[pl.DataFrame, pl.DataFrame | None]:
    deals = scan_deals(out).collect().sort("game", "deal")
    games = scan_games(out).collect().sort("game") if (out / "games").exists() else None
    return deals, games


@pytest.mark.parametrize("mode,n,chunk", [("games", 60, 8), ("deals", 5000, 700)])
def test_same_seed_same_frames_whatever_the_workers(engine_compiled, tmp_path, mode, n, chunk):
    spec = BatchSpec(mode=mode, n=n, seed=2024, chunk_size=chunk, players=MIXED)
    run_batch(spec, tmp_path / "one", workers=1)
    run_batch(spec, tmp_path / "two", workers=2)
    deals_one, games_one = read_run(tmp_path / "one")
    deals_two, games_two = read_run(tmp_path / "two")
    assert deals_one.height > 0 and deals_one.equals(deals_two)
    assert (games_one is None and games_two is None) or games_one.equals(games_two)


# ---- slow tier -----------------------------------------------------------------------------------

SLOW_GAMES = 100_000
SLOW_DEAL_SAMPLE = 20_000


@pytest.mark.slow
def test_hundred_thousand_games(engine_compiled, tmp_path):
    rules = HouseRules()
    spec = BatchSpec(mode="games", n=SLOW_GAMES, seed=1000, players=MIXED, rules=rules)
    run_batch(spec, tmp_path)
    shards = sorted((tmp_path / "deals").glob("part-*.parquet"))
    assert len(shards) == spec.n_chunks
    sample_per_shard = -(-SLOW_DEAL_SAMPLE // len(shards))
    sampled = 0
    for index, shard in enumerate(shards):
        deals = pl.read_parquet(shard)
        games = pl.read_parquet(tmp_path / "games" / shard.name)
        check_deal_frame(deals, rules)
        check_game_frames(deals, games)
        replay_games(deals, games, rules)
        sample = deals.sample(min(sample_per_shard, deals.height), seed=index)
        assert_all_pass(lambda row: ref.replay_deal(row, rules), list(sample.iter_rows(named=True)), "deals")
        sampled += sample.height
    assert sampled >= SLOW_DEAL_SAMPLE
    ids = scan_games(tmp_path).select(pl.col("game")).collect()["game"]
    assert ids.n_unique() == SLOW_GAMES and ids.min() == 0 and ids.max() == SLOW_GAMES - 1


# ---- a collision worth its own check ----------------------------------------------------------

BARREL_CONFIGS = [name for name, (_, rules) in GAME_CONFIGS.items() if rules.barrel is not None]


def test_sitter_who_wins_is_not_knocked_off(engine_compiled):
    # docs/RULES.md settlement: step 1 ends the game with barrel + contract; step 3 knocks off only a
    # player "still sitting there from before", which the winner no longer is.
    affected = []
    for name in BARREL_CONFIGS:
        deals, games, rules = played(name)
        games_hit = games_won_during_a_climb(deals) if rules.barrel_knock_off else set()
        by_game = rows_by_game(deals)
        affected += [(by_game[g["game"]], g, rules) for g in games.iter_rows(named=True) if g["game"] in games_hit]
    if not affected:
        pytest.fail("no game in the sample has a sitter winning while another player climbs")
    assert_all_pass(lambda item: ref.replay_game(*item), affected, "games won while another player climbs")
