"""The strategy's seven sections, each measured from the played deals (``analysis.strategy.arrays.Deals``)
and clustered by game (the concession's paired part by deal): raising after the talon
(``raise_stats``), conceding (``concede_stats``, ``paired_concession``), the discard
(``discard_stats``), which marriage first (``marriage_order``), the defence against a marriage
(``defence_stats``), play by seat (``seat_stats``) and the score situation (``score_stats``).

Definitions (3-player deals): the declarer's **10 cards** are his 7 and the talon; he gives one
card to each opponent (**left**: the seat after him, who plays after him; **right**: the other)
and **keeps 8**. A **marriage kept** is a K and Q of one suit among the 8; **declared** are those
of the deal's ``marriages`` bits. A marriage is declared by leading its K or Q, so the first of the
two cards in the play order (``plays``) dates the declaration. **First hand** sits after the
dealer, **second hand** after first, **third hand** is the dealer. A deal's **result** is the
deal result before the game rules (``result``: ±contract, defenders' rounded points, concession
payouts); the **race** value is the declarer's result minus his opponents' mean. A player **sits
on the barrel** in a deal when the previous played deal of the game left him on it.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import numpy as np

from analysis.stats import Estimate
from analysis.strategy.arrays import (
    SEATS,
    Clusters,
    Deals,
    Difference,
    card_count,
    class_index,
    marriages_in,
    shares_by,
    within,
)
from sim import InputError
from sim.engine.schema import (
    BID_NORMAL,
    BID_UNDARKED,
    EV_BARREL_ON,
    EV_BARREL_STAY,
    EV_BOLT_PENALTY,
    EV_DUMP_TRUCK,
    EV_KNOCKED_OFF,
    EV_WIN,
)
from sim.game.cards import ACE, ACES_MASK, CARD_POINTS, KING, MARRIAGE_MASK, QUEEN, TEN

if TYPE_CHECKING:
    from sim.game.rules import HouseRules

__all__ = [
    "POSITIONS", "TALON_SITUATIONS", "CHOICES", "RAISE_SIZES", "BID_CLASSES", "ORDERS", "RANK_NAMES", "SCORE_CLASSES",
    "RaiseStats", "PairedConcession", "ConcedeStats", "DiscardStats", "MarriageOrderStats", "DefenceStats",
    "SeatStats", "ScoreStats", "raise_stats", "concede_stats", "paired_concession", "discard_stats",
    "declaration_order", "marriage_order", "defence_stats", "forced_place", "seat_stats", "forced_opening",
    "score_stats",
]

POSITIONS = ("first hand", "second hand", "third hand (dealer)")  # (declarer - dealer) % 3 = 1, 2, 0
TALON_SITUATIONS = ("completes a marriage", "brings a whole marriage", "brings an ace (no marriage)",
                    "brings none of these")
CHOICES = ("raise", "keep the bid", "concede")
RAISE_SIZES = ((5, 5, "+5"), (10, 10, "+10"), (15, 20, "+15 to +20"), (25, 40, "+25 to +40"),
               (45, 10_000, "+45 or more"))
BID_CLASSES = ((0, 100, "100 or less"), (105, 115, "105 to 115"), (120, 120, "120"), (125, 140, "125 to 140"),
               (145, 10_000, "145 or more"))
ORDERS = ("higher first", "lower first", "one declared", "none declared")
RANK_NAMES = ("9", "J", "Q", "K", "10", "A")
SCORE_CLASSES = ((-10**9, -5, "below 0"), (0, 295, "0 to 295"), (300, 595, "300 to 595"), (600, 875, "600 to 875"),
                 (880, 10**9, "880 or more"))
_HELD_CLASSES = ("no marriage", "1 marriage", "2 or more")


# ---- 1. raising after the talon ----------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class RaiseStats:
    """The declarer's choice once he has seen the talon and given his two cards, over the deals of
    an ordinary auction (not a dark or golden deal, whose contract is fixed): ``decisions``.

    - ``choice``: {raise, keep the bid, concede}: shares of the decisions (they add up to 1);
    - ``raise_size``: {size class of ``RAISE_SIZES``: share of the raises}; ``mean_raise``: points;
    - ``talon``: {situation of ``TALON_SITUATIONS`` (exclusive, in that order of priority: the
      talon gives a K or Q to a half marriage of his 7 cards; brings K and Q of one suit; brings an
      ace): {"share of decisions", then each choice's share within the situation, "mean raise" over
      its raises}};
    - ``made``: {"raised", "not raised"}: make-rates of the contracts played (not conceded);
      ``made_difference``: raised − not raised, paired by game;
    - ``result``: {"raised", "not raised"}: the declarer's mean deal result over the contracts
      played.
    """

    decisions: int
    choice: dict[str, Estimate]
    raise_size: dict[str, Estimate]
    mean_raise: Estimate
    talon: dict[str, dict[str, Estimate]]
    made: dict[str, Estimate]
    made_difference: Difference
    result: dict[str, Estimate]


def _talon_situation(d: Deals) -> np.ndarray:
    h7 = d.at(d.hand, d.declarer)
    ten = d.ten
    half = np.stack([card_count(h7 & int(m)) == 1 for m in MARRIAGE_MASK], axis=1)
    completes = (half & marriages_in(ten)).any(axis=1)
    whole = marriages_in(d.talon).any(axis=1)
    ace = (d.talon & int(ACES_MASK)) != 0
    return np.where(completes, 0, np.where(whole, 1, np.where(ace, 2, 3)))


def raise_stats(d: Deals) -> RaiseStats:
    """Section 1 from played deals (``Deals``), clustered by game."""
    c = Clusters(d.game)
    free = (d.bid_kind == BID_NORMAL) | (d.bid_kind == BID_UNDARKED)
    raised = free & ~d.conceded & (d.contract > d.winning_bid)
    choice = np.where(d.conceded, 2, np.where(raised, 0, 1))
    size = d.contract - d.winning_bid
    situation = _talon_situation(d)
    talon = {}
    for i, label in enumerate(TALON_SITUATIONS):
        here = free & (situation == i)
        talon[label] = {"share of decisions": c.share(situation == i, free),
                        **shares_by(c, CHOICES, choice, here), "mean raise": c.mean(size, here & raised)}
    played = free & ~d.conceded
    made = d.made.astype(np.float64)
    result = d.at(d.result, d.declarer)
    return RaiseStats(
        decisions=int(free.sum()), choice=shares_by(c, CHOICES, choice, free),
        raise_size=shares_by(c, [s[2] for s in RAISE_SIZES], class_index(size, RAISE_SIZES), raised),
        mean_raise=c.mean(size, raised), talon=talon,
        made={"raised": c.share(made, raised), "not raised": c.share(made, played & ~raised)},
        made_difference=c.difference(made, played & ~raised, raised),
        result={"raised": c.mean(result, raised), "not raised": c.mean(result, played & ~raised)})


# ---- 2. conceding ----------------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class PairedConcession:
    """The deals conceded in the ``deals`` run, played on in the ``deals-concede-off`` run (the same
    deals, auctions and gifts; ``mismatched``: deals whose set-up differs between the two, left out,
    0 when the pairing holds). ``deals``: deals of each run; ``conceded``: those conceded.

    - ``made_if_played``: the share of the conceded contracts the declarer made when playing on;
    - ``own``: the declarer's mean deal result, ``a`` conceding and ``b`` playing on; ``race``: the
      same for his result less the opponents' mean. ``saved_race`` / ``saved_own``: conceding less
      playing on, each deal its own cluster (positive: the concession saved points);
    - ``saved_race_by_bid``: {winning-bid class: mean race value saved}.
    """

    deals: int
    conceded: int
    mismatched: int
    made_if_played: Estimate
    own: Difference
    race: Difference
    saved_own: Estimate
    saved_race: Estimate
    saved_race_by_bid: dict[str, Estimate]


@dataclasses.dataclass(frozen=True)
class ConcedeStats:
    """How often the declarer concedes, in the whole games, and (``paired``, None when the rules
    forbid conceding) what it saved against playing on, on the same deals. ``allowed``: the rules
    let a declarer concede (never while anybody sits on the barrel, unless ``concede_on_barrel``).

    - ``conceded``: the share of the decisions (as in ``RaiseStats``) that concede;
    - ``by_bid``: {winning-bid class of ``BID_CLASSES``: share conceded};
    - ``by_marriages``: {marriages kept among the 8 cards: share conceded};
    - ``by_aces``: {aces kept among the 8 cards ("0", "1", "2 or more"): share conceded}.
    """

    allowed: bool
    decisions: int
    conceded: Estimate
    by_bid: dict[str, Estimate]
    by_marriages: dict[str, Estimate]
    by_aces: dict[str, Estimate]
    paired: PairedConcession | None


def concede_stats(d: Deals, rules: HouseRules, paired: PairedConcession | None) -> ConcedeStats:
    """Section 2's rates from the games' played deals (clustered by game), with the paired part."""
    c = Clusters(d.game)
    free = (d.bid_kind == BID_NORMAL) | (d.bid_kind == BID_UNDARKED)
    conceded = d.conceded.astype(np.float64)
    kept = d.kept
    held = np.minimum(marriages_in(kept).sum(axis=1), 2)
    aces = np.minimum(card_count(kept & int(ACES_MASK)), 2)
    bid = class_index(d.winning_bid, BID_CLASSES)
    return ConcedeStats(
        allowed=bool(rules.concede), decisions=int(free.sum()), conceded=c.share(conceded, free),
        by_bid={label: c.share(conceded, free & (bid == i)) for i, (_, _, label) in enumerate(BID_CLASSES)},
        by_marriages={label: c.share(conceded, free & (held == i)) for i, label in enumerate(_HELD_CLASSES)},
        by_aces={label: c.share(conceded, free & (aces == i)) for i, label in enumerate(("0", "1", "2 or more"))},
        paired=paired)


_SET_UP = ("dealer", "talon", "declarer", "winning_bid", "bid_kind")


def paired_concession(a: Deals, b: Deals) -> PairedConcession:
    """What the concessions of run ``a`` saved against playing on, from run ``b`` (the same deals
    with concession off): paired deal by deal (``deal`` ids of a deals run are ``game``)."""
    if not np.array_equal(a.game, b.game):
        raise InputError("the two paired runs do not hold the same deals (their ids differ); play them again with "
                         "--fresh")
    same = np.ones(a.rows, dtype=bool)
    for name in _SET_UP:
        same &= getattr(a, name) == getattr(b, name)
    same &= (a.hand == b.hand).all(axis=1) & (a.gift == b.gift).all(axis=1)
    rows = a.conceded & same
    c = Clusters(a.game)
    own_a, own_b = a.at(a.result, a.declarer), b.at(b.result, b.declarer)
    race_a, race_b = a.race(a.result), b.race(b.result)
    bid = class_index(a.winning_bid, BID_CLASSES)
    return PairedConcession(
        deals=a.rows, conceded=int(rows.sum()), mismatched=int((~same).sum()),
        made_if_played=c.share(b.made.astype(np.float64), rows),
        own=within(c, own_a, own_b, rows), race=within(c, race_a, race_b, rows),
        saved_own=c.mean(own_a - own_b, rows), saved_race=c.mean(race_a - race_b, rows),
        saved_race_by_bid={label: c.mean(race_a - race_b, rows & (bid == i))
                           for i, (_, _, label) in enumerate(BID_CLASSES)})


# ---- 3. the discard ----------------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class DiscardStats:
    """The two cards the declarer gives, over every played deal (``gifts``: deals). For each of
    "left" (the seat after the declarer) and "right":

    - ``points``: the mean card points of the card given; ``points_difference``: left − right
      within the same deals;
    - ``rank``: {rank of ``RANK_NAMES``: share of the cards given} (they add up to 1);
    - ``trump``: the share of cards of a suit in which the declarer keeps a marriage (his likely
      trump); ``breaks_marriage``: the share of kings and queens whose partner was among his 10
      cards.

    ``outcome``: {group: {"share of deals", "made" (of the contracts played), "result" (the
    declarer's mean deal result, concessions included)}} for "gave an ace or a ten" and "gave
    neither", "broke a marriage" and "broke none"; ``made_difference``: {"ace or ten", "broke a
    marriage"}: the make-rate with it less that without, paired by game.
    """

    gifts: int
    points: dict[str, Estimate]
    points_difference: Difference
    rank: dict[str, dict[str, Estimate]]
    trump: dict[str, Estimate]
    breaks_marriage: dict[str, Estimate]
    outcome: dict[str, dict[str, Estimate]]
    made_difference: dict[str, Difference]


def discard_stats(d: Deals) -> DiscardStats:
    """Section 3 from played deals, clustered by game."""
    c = Clusters(d.game)
    ten, kept = d.ten, d.kept
    kept_m = marriages_in(kept)
    ten_m = marriages_in(ten)
    everyone = np.ones(d.rows, dtype=bool)
    points, rank, trump, breaks = {}, {}, {}, {}
    broke_any = np.zeros(d.rows, dtype=bool)
    high_any = np.zeros(d.rows, dtype=bool)
    given = {"left": d.gift_left, "right": d.gift_right}
    for side, card in given.items():
        suit, r = card // 6, card % 6
        points[side] = c.mean(CARD_POINTS[card])
        rank[side] = shares_by(c, RANK_NAMES, r, everyone)
        trump[side] = c.share(kept_m[np.arange(d.rows), suit])
        broke = ((r == QUEEN) | (r == KING)) & ten_m[np.arange(d.rows), suit]
        breaks[side] = c.share(broke)
        broke_any |= broke
        high_any |= (r == ACE) | (r == TEN)
    played = ~d.conceded
    made = d.made.astype(np.float64)
    result = d.at(d.result, d.declarer)
    outcome = {}
    for label, rows in (("gave an ace or a ten", high_any), ("gave neither", ~high_any),
                        ("broke a marriage", broke_any), ("broke none", ~broke_any)):
        outcome[label] = {"share of deals": c.share(rows), "made": c.share(made, rows & played),
                          "result": c.mean(result, rows)}
    return DiscardStats(
        gifts=d.rows, points=points,
        points_difference=within(c, CARD_POINTS[d.gift_right], CARD_POINTS[d.gift_left]),
        rank=rank, trump=trump, breaks_marriage=breaks, outcome=outcome,
        made_difference={"ace or ten": c.difference(made, played & ~high_any, played & high_any),
                         "broke a marriage": c.difference(made, played & ~broke_any, played & broke_any)})



# ---- 4. which marriage first ------------------------------------------------------------------------------------
def declaration_order(d: Deals, values: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(kept, declared, order) per deal: the declarer's marriages kept among his 8 cards, those of
    them he declared, and for two or more declared whether the first declared was worth more than
    the second (1), less (0); -1 otherwise. A marriage is declared by leading its K or Q, so the
    first of its two cards in the play order dates it; equal values go by suit (S < C < D < H)."""
    kept_m = marriages_in(d.kept)
    declared_m = kept_m & np.stack([((d.at(d.marriages, d.declarer) >> s) & 1) == 1 for s in range(4)], axis=1)
    when = np.full((d.rows, 4), d.plays.shape[1], dtype=np.int64)
    for s in range(4):
        hit = (d.plays == 6 * s + QUEEN) | (d.plays == 6 * s + KING)
        when[:, s] = np.where(hit.any(axis=1), hit.argmax(axis=1), d.plays.shape[1])
    when = np.where(declared_m, when, 10_000)
    ordered = np.argsort(when, axis=1, kind="stable")
    first, second = ordered[:, 0], ordered[:, 1]
    worth = np.asarray(values, dtype=np.int64) * 4 + np.arange(4)  # value first, then suit
    order = np.where(declared_m.sum(axis=1) >= 2, (worth[first] > worth[second]).astype(np.int64), -1)
    return kept_m.sum(axis=1), declared_m.sum(axis=1), order


@dataclasses.dataclass(frozen=True)
class MarriageOrderStats:
    """The declarer keeping two or more marriages among his 8 cards, in the contracts played (not
    conceded): ``deals``. ``order``: {order of ``ORDERS``: share} (they add up to 1): the first
    declared worth more than the second, less, only one declared, none. For each order: ``made``
    (the make-rate), ``points`` (the declarer's mean points, cards and marriages) and
    ``card_points`` (his card points alone: the marriages held differ between the orders).
    ``card_points_difference``: lower first less higher first, paired by game."""

    deals: int
    order: dict[str, Estimate]
    made: dict[str, Estimate]
    points: dict[str, Estimate]
    card_points: dict[str, Estimate]
    card_points_difference: Difference


def marriage_order(d: Deals, rules: HouseRules) -> MarriageOrderStats:
    """Section 4 from played deals, clustered by game."""
    c = Clusters(d.game)
    kept, declared, order = declaration_order(d, tuple(rules.marriage_values))
    rows = ~d.conceded & (kept >= 2)
    cls = np.where(order == 1, 0, np.where(order == 0, 1, np.where(declared == 1, 2, 3)))
    cards = d.at(d.card_points, d.declarer)
    points = cards + d.at(d.marriage_points, d.declarer)
    made = d.made.astype(np.float64)
    return MarriageOrderStats(
        deals=int(rows.sum()), order=shares_by(c, ORDERS, cls, rows),
        made={label: c.share(made, rows & (cls == i)) for i, label in enumerate(ORDERS)},
        points={label: c.mean(points, rows & (cls == i)) for i, label in enumerate(ORDERS)},
        card_points={label: c.mean(cards, rows & (cls == i)) for i, label in enumerate(ORDERS)},
        card_points_difference=c.difference(cards, rows & (cls == 0), rows & (cls == 1)))


# ---- 5. defence against a declarer's marriage ---------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class DefenceStats:
    """The contracts played (not conceded: ``deals``), by the marriages the declarer keeps among
    his 8 cards (``_HELD_CLASSES``: none, one, two or more). For each class: "share of deals";
    "declares one or more" and "declares every one" (of the marriages he keeps); "made"; the
    defenders' mean "tricks" (of 8, both together) and "points" (cards and marriages, both
    together); "no trick for the defence" (the share of deals in which the two defenders take no
    trick). ``made_difference``: {"1 marriage", "2 or more"}: the make-rate less that with no
    marriage, paired by game."""

    deals: int
    by_held: dict[str, dict[str, Estimate]]
    made_difference: dict[str, Difference]


def defence_stats(d: Deals, rules: HouseRules) -> DefenceStats:
    """Section 5 from played deals, clustered by game."""
    c = Clusters(d.game)
    kept, declared, _ = declaration_order(d, tuple(rules.marriage_values))
    held = np.minimum(kept, 2)
    rows = ~d.conceded
    made = d.made.astype(np.float64)
    tricks = d.at(d.tricks, d.left) + d.at(d.tricks, d.right)
    points = (d.at(d.card_points, d.left) + d.at(d.card_points, d.right) + d.at(d.marriage_points, d.left)
              + d.at(d.marriage_points, d.right))
    by_held = {}
    for i, label in enumerate(_HELD_CLASSES):
        here = rows & (held == i)
        cell = {"share of deals": c.share(held == i, rows)}
        if i:
            cell["declares one or more"] = c.share(declared >= 1, here)
            cell["declares every one"] = c.share(declared == kept, here)
        cell |= {"made": c.share(made, here), "defenders' tricks": c.mean(tricks, here),
                 "defenders' points": c.mean(points, here), "no trick for the defence": c.share(tricks == 0, here)}
        by_held[label] = cell
    return DefenceStats(deals=int(rows.sum()), by_held=by_held,
                        made_difference={label: c.difference(made, rows & (held == 0), rows & (held == i))
                                         for i, label in enumerate(_HELD_CLASSES) if i})


# ---- 6. play by seat ---------------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class SeatStats:
    """Every played deal (``deals``) by the seats' places: first hand (after the dealer), second
    hand, third hand (the dealer). ``by_position``: {place: {"declares" (share of the deals; they
    add up to 1), "made of contracts" (the share of its contracts made, a concession counted as not
    made), "made" (make-rate of the contracts it plays out), "winning bid" (mean, when it
    declares), "result per deal" (the seat's mean deal result), "change per deal" (its mean score
    change after the game rules)}}. ``change_difference``: {"first hand", "second hand"}: the
    score change per deal less the dealer's, on the same deals (paired within deals, clustered
    by game). ``forced``: the place that opens with the forced bid (``forced_place``), or None."""

    deals: int
    by_position: dict[str, dict[str, Estimate]]
    change_difference: dict[str, Difference]
    forced: str | None = None


def forced_place(rules: HouseRules) -> str | None:
    """The place (one of ``POSITIONS``) that must open with the forced bid: first hand, or the dealer
    under forced_bid_seat = dealer; None without forced_first_bid (all_pass = dealer_plays makes the
    dealer declarer when both others pass, which is no opening)."""
    position = rules.forced_position()
    return None if position is None else POSITIONS[(position - 1) % SEATS]


def seat_stats(d: Deals, rules: HouseRules) -> SeatStats:
    """Section 6 from played deals, clustered by game (``rules``: who holds the forced bid)."""
    c = Clusters(d.game)
    places = {label: (d.dealer + k) % SEATS for k, label in zip((1, 2, 0), POSITIONS, strict=True)}
    made = d.made.astype(np.float64)
    by = {}
    for label, seat in places.items():
        mine = d.declarer == seat
        by[label] = {"declares": c.share(mine), "made of contracts": c.share(made, mine),
                     "made": c.share(made, mine & ~d.conceded),
                     "winning bid": c.mean(d.winning_bid, mine), "result per deal": c.mean(d.at(d.result, seat)),
                     "change per deal": c.mean(d.at(d.change, seat))}
    dealer_change = d.at(d.change, places[POSITIONS[2]])
    return SeatStats(deals=d.rows, by_position=by,
                     change_difference={label: within(c, dealer_change, d.at(d.change, places[label]))
                                        for label in POSITIONS[:2]},
                     forced=forced_place(rules))


# ---- 7. the score situation ---------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class ScoreStats:
    """The score situation in whole games (``games`` games, ``finished`` of them with a winner,
    ``deals`` played deals). Rules: ``barrel`` (None: no barrel), ``barrel_min_contract``, ``barrel_freeze``
    (false: the range barrel, where the least contract that wins is what the sitter's score lacks to the
    target, ``target``),
    ``dump_truck`` / ``dump_truck_negative`` / ``dump_truck_value``, ``bolt_on``, ``bolt_count``, ``bolt_penalty``.

    - ``sitter_deals``: (deal, seat) pairs in which a seat sits on the barrel; ``sitter``:
      {"declares" (share of them), "contract" (his mean contract when he declares), "below the
      minimum", "at the minimum", "above the minimum" (shares of his contracts against
      ``barrel_min_contract``, the least that takes him off upward, on the range barrel against what his
      score lacks to the target, rounded up to 5 and at least ``min_bid``: they add up to 1), "forced opening, of
      those below" (the share of his contracts below the minimum that are his forced opening, which nobody
      bid over: as first hand, or as the dealer under forced_bid_seat = dealer; as the dealer when both
      others passed under all_pass = dealer_plays; ``forced_opening`` says which in words), "made" (of his
      contracts played), "wins in the deal" (share of his deals that end the game with his win)};
    - ``climbing``: {"with a sitter", "without"}: {"declarer's contract" (mean, the declarer not
      sitting), "made" (his make-rate of the contracts played out), "made of contracts" (of all his
      contracts, a concession counted as not made: conceding is barred while someone sits under
      most rules, so this is the like-for-like comparison), "declarer climbs" (share of his deals in which he
      reaches the barrel)}; ``knocked_off``: the share of the sitter's deals in which another
      player's climb knocks him off; ``contract_difference``: the non-sitting declarer's mean
      contract with a sitter less without, paired by game;
    - ``dump_trucks``: the hits (a score of exactly ``dump_truck_value``, 555, reset to 0); ``dump_truck_games``: the
      share of games with one or more; ``dump_truck_declarer``: the share of hits that fell on the
      deal's declarer; ``dump_truck_per_game``: mean hits a game;
    - ``bolts``: the share of (deal, seat) pairs with a bolt; ``bolt_penalties``: the penalties
      charged; ``bolt_penalty_games``: the share of games with one or more;
      ``bolt_penalty_per_game``: mean penalties a game; ``bolt_penalty_score``: {score class of
      ``SCORE_CLASSES`` (the seat's score before the deal): share of the penalties} (adding up to 1).
    """

    games: int
    finished: int
    deals: int
    barrel: int | None
    barrel_min_contract: int
    barrel_freeze: bool
    target: int
    dump_truck: bool
    dump_truck_negative: bool
    dump_truck_value: int
    bolt_on: str
    bolt_count: str
    forced_opening: str
    bolt_penalty: int
    sitter_deals: int
    sitter: dict[str, Estimate]
    climbing: dict[str, dict[str, Estimate]]
    knocked_off: Estimate
    contract_difference: Difference
    dump_trucks: int
    dump_truck_games: Estimate
    dump_truck_declarer: Estimate
    dump_truck_per_game: Estimate
    bolts: Estimate
    bolt_penalties: int
    bolt_penalty_games: Estimate
    bolt_penalty_per_game: Estimate
    bolt_penalty_score: dict[str, Estimate]


def _before(d: Deals, per_seat: np.ndarray, start: int | np.ndarray = 0) -> np.ndarray:
    """The value of the previous played deal of the same game (``start`` at a game's first)."""
    first = np.r_[True, d.game[1:] != d.game[:-1]] if d.rows else np.zeros(0, dtype=bool)
    prev = np.roll(per_seat, 1, axis=0)
    return np.where(first[:, None], start, prev)


def forced_opening(rules: HouseRules) -> tuple[int, str]:
    """(the position from the dealer of the seat that declares min_bid through no choice of his own,
    0 the dealer and 1 first hand; those contracts in words): first hand's forced opening, the
    dealer's under forced_bid_seat = dealer, the dealer's contract when the others passed under
    all_pass = dealer_plays."""
    position = rules.forced_position()
    if position == 0:
        return 0, "his forced opening as the dealer, which nobody bid over"
    if position is None and rules.all_pass == "dealer_plays":
        return 0, "his contract as the dealer when both others passed without a bid (all_pass = dealer_plays)"
    return 1, "his forced opening as first hand, which nobody bid over"


def score_stats(d: Deals, rules: HouseRules, finished: int) -> ScoreStats:
    """Section 7 from the played deals of whole games (sorted by game and deal), clustered by game."""
    c = Clusters(d.game)
    n = d.rows
    on = (d.events & (EV_BARREL_ON | EV_BARREL_STAY)) != 0
    sits = _before(d, on.astype(np.int64)).astype(bool)
    # (deal, seat) pairs of a sitter
    r, s = np.nonzero(sits)
    cs = Clusters(d.game[r])
    declares = d.declarer[r] == s
    played = declares & ~d.conceded[r]
    made = d.made[r].astype(np.float64)
    low = rules.barrel_min_contract
    if rules.barrel is not None and not rules.barrel_freeze:
        # The range barrel: what his score lacks to the target (sim.game.play_nb.barrel_need).
        lacks = rules.target - _before(d, d.score)[r, s]
        low = np.maximum(rules.min_bid, (lacks + 4) // 5 * 5)
    sitter = {"declares": cs.share(declares), "contract": cs.mean(d.contract[r], declares),
              "below the minimum": cs.share(d.contract[r] < low, declares),
              "at the minimum": cs.share(d.contract[r] == low, declares),
              "above the minimum": cs.share(d.contract[r] > low, declares),
              "made": cs.share(made, played), "wins in the deal": cs.share((d.events[r, s] & EV_WIN) != 0)}
    # A sitter holding the forced bid must open at min_bid; when nobody bids over it he declares it,
    # below the barrel minimum through no choice of his own (unless he raises after the talon). The
    # forced seat: first hand (position 1 from the dealer), or the dealer (position 0) under
    # forced_bid_seat = dealer; without forced_first_bid, under all_pass = dealer_plays, the dealer
    # declares min_bid when both others passed, again through no choice of his own.
    position, _ = forced_opening(rules)
    owes = rules.forced_first_bid or rules.all_pass == "dealer_plays"
    forced = owes & ((s - d.dealer[r]) % SEATS == position) & (d.winning_bid[r] == rules.min_bid)
    sitter["forced opening, of those below"] = cs.share(forced, declares & (d.contract[r] < low))
    knocked = cs.share((d.events[r, s] & EV_KNOCKED_OFF) != 0)
    any_sitter = sits.any(axis=1)
    decl_sits = d.at(sits.astype(np.int64), d.declarer).astype(bool)
    climbs = (d.at(d.events, d.declarer) & EV_BARREL_ON) != 0
    made_all = d.made.astype(np.float64)
    climbing = {}
    for label, rows in (("with a sitter", any_sitter & ~decl_sits), ("without", ~any_sitter)):
        climbing[label] = {"declarer's contract": c.mean(d.contract, rows),
                           "made": c.share(made_all, rows & ~d.conceded),
                           "made of contracts": c.share(made_all, rows), "declarer climbs": c.share(climbs, rows)}
    # the dump truck and bolt penalties, per (deal, seat)
    truck = (d.events & EV_DUMP_TRUCK) != 0
    penalty = (d.events & EV_BOLT_PENALTY) != 0
    g_ids = np.unique(d.game)
    cg = Clusters(g_ids)
    per_game_truck = c.sums(truck.sum(axis=1))
    per_game_penalty = c.sums(penalty.sum(axis=1))
    tr, ts = np.nonzero(truck)
    pr, ps = np.nonzero(penalty)
    score_before = _before(d, d.score)
    cls = class_index(score_before[pr, ps], SCORE_CLASSES)
    seat_rows = Clusters(np.repeat(d.game, SEATS))
    return ScoreStats(
        games=len(g_ids), finished=finished, deals=n, barrel=rules.barrel,
        barrel_min_contract=rules.barrel_min_contract, barrel_freeze=bool(rules.barrel_freeze), target=rules.target,
        dump_truck=bool(rules.dump_truck),
        dump_truck_negative=bool(rules.dump_truck_negative), dump_truck_value=rules.dump_truck_value,
        bolt_on=rules.bolt_on, bolt_count=rules.bolt_count, forced_opening=forced_opening(rules)[1],
        bolt_penalty=rules.bolt_penalty, sitter_deals=len(r), sitter=sitter, climbing=climbing, knocked_off=knocked,
        contract_difference=c.difference(d.contract, ~any_sitter, any_sitter & ~decl_sits),
        dump_trucks=int(truck.sum()), dump_truck_games=cg.share(per_game_truck > 0),
        dump_truck_declarer=Clusters(d.game[tr]).share(d.declarer[tr] == ts),
        dump_truck_per_game=cg.mean(per_game_truck),
        bolts=seat_rows.share((d.bolt > 0).reshape(-1)), bolt_penalties=int(penalty.sum()),
        bolt_penalty_games=cg.share(per_game_penalty > 0), bolt_penalty_per_game=cg.mean(per_game_penalty),
        bolt_penalty_score=shares_by(Clusters(d.game[pr]), [x[2] for x in SCORE_CLASSES], cls,
                                     np.ones(len(pr), bool)))

