"""A slow, plainly written twin of the learned player's card net, for checking the compiled
``sim.players.learned.cards_nb`` and ``bidding_nb``: the net's inputs of a stored position row (``position_features``)
and its forward pass (``q_forward``, ``best_legal``).

Written from the layouts of ``sim.players.learned.layout`` (its offsets are the one thing shared)
and the docstring of ``cards_nb.card_features``, not from the compiled code: cards are indices
0..23 (6 × suit + rank, ranks 9 J Q K T A), sets of cards are Python sets, seats are named by role
``(seat - declarer) % 3``, and the net is dense numpy algebra in float64.
"""

from __future__ import annotations

import numpy as np

from sim.game import rules_layout as R
from sim.players.learned import layout as L

POINTS = (0, 2, 3, 4, 10, 11)  # 9 J Q K T A
JACK, QUEEN, KING, ACE = 1, 2, 3, 5
DECK = frozenset(range(24))


def cards(mask: int) -> set[int]:
    return {c for c in range(24) if (int(mask) >> c) & 1}


def round5(points: int) -> int:
    """RULES.md: a remainder of 1 or 2 rounds down, 3 or 4 up."""
    r = points % 5
    return points - r if r <= 2 else points + 5 - r


def rounded(points: int, rules: np.ndarray) -> int:
    """``points`` rounded to the rules' unit: a remainder below unit − offset down, the rest up
    (docs/RULES.md "Scoring variants": five 47 → 45, ten 15 → 10, ten_half_up 15 → 20, none)."""
    unit, offset = int(rules[R.ROUND_UNIT]), int(rules[R.ROUND_OFFSET])
    r = points % unit
    return points - r if r < unit - offset else points - r + unit


def still_needed(contract: int, banked: int, rules: np.ndarray) -> int:
    """The fewest points still to come with which the declarer's total reaches the contract (his
    total rounded by the rules' rounding first under round_declarer); 0 when it is reached already."""
    t = 0
    while (rounded(banked + t, rules) if rules[R.ROUND_DECLARER] else banked + t) < contract:
        t += 1
    return t


def features(row: np.ndarray, rules: np.ndarray) -> tuple[set[int], list[np.float32]]:
    """(the active sparse inputs, the N_DENSE dense values as float32) of a stored ``P_*`` row
    under the rules array ``rules``, as ``sim.players.learned.layout`` describes them."""
    row = [int(x) for x in row]
    seat, declarer, leader = row[L.P_SEAT], row[L.P_DECLARER], row[L.P_LEADER]

    def role(q: int) -> int:
        return (q - declarer) % 3

    def of_seat(offset: int) -> list[int]:
        return [row[offset + q] for q in range(3)]

    me = role(seat)
    hand = cards(row[L.P_HAND + seat])
    gone = cards(row[L.P_PLAYED])  # this trick's cards included
    table = [row[L.P_TRICK + i] for i in range(row[L.P_N_IN_TRICK])]  # from the leader on
    tricks = of_seat(L.P_TRICKS)
    card_points = of_seat(L.P_CARD_POINTS)
    marriage_points = of_seat(L.P_MARRIAGE_POINTS)
    contract = row[L.P_CONTRACT]
    active: set[int] = set()

    active |= {L.F_HAND + c for c in hand}
    for q in range(3):
        earlier = cards(row[L.P_PLAYED_BY + q]) - set(table)
        active |= {L.F_PLAYED + 24 * role(q) + c for c in earlier}
    for i, c in enumerate(table):
        active.add(L.F_TRICK + 24 * role((leader + i) % 3) + c)
    known_elsewhere: set[int] = set()
    for q in range(3):
        if q == seat:
            continue  # what the seat holds itself is its hand
        known = cards(row[L.P_KNOWN + q]) - gone - hand
        known_elsewhere |= known
        active |= {L.F_KNOWN + 24 * role(q) + c for c in known}
    active |= {L.F_UNSEEN + c for c in DECK - gone - hand - known_elsewhere}
    active |= {L.F_LEGAL + c for c in cards(row[L.P_LEGAL])}
    outside = DECK - gone - hand  # live cards in other hands
    # A master: nothing higher of its suit is live outside the hand (a higher index is a higher card).
    active |= {L.F_MASTER + c for c in hand if not any(d // 6 == c // 6 and d > c for d in outside)}
    if table:
        trump_now = row[L.P_TRUMP]

        def higher(a, b):  # does card a beat card b, b winning so far
            if a // 6 == b // 6:
                return a > b
            return a // 6 == trump_now

        winner = table[0]
        for c in table[1:]:
            if higher(c, winner):
                winner = c
        active |= {L.F_WINS + c for c in cards(row[L.P_LEGAL]) if higher(c, winner)}
    active.add(L.F_ME + me)
    active.add(L.F_LEADER + role(leader))
    trump, owner = row[L.P_TRUMP], row[L.P_OWNER]
    active.add(L.F_TRUMP + (4 if trump < 0 else trump))
    active.add(L.F_OWNER + (3 if owner < 0 else role(owner)))
    for q in range(3):
        if tricks[q] > 0:
            active.add(L.F_WON + role(q))
        active |= {L.F_VOID + 4 * role(q) + s for s in range(4) if (row[L.P_VOIDS + q] >> s) & 1}
        active |= {L.F_DECLARED + 9 * role(q) + b for b in range(9) if (row[L.P_MARRIAGES + q] >> b) & 1}
    active.add(L.F_TRICK_NO + min(7, sum(tricks)))  # the tricks done so far
    if row[L.P_CAN_DECLARE]:
        active.add(L.F_CAN_DECLARE)
    for i, name in enumerate(L.RULE_FLAGS):
        if rules[getattr(R, name)] != 0:
            active.add(L.F_RULES + i)

    # Marriage points burn while the declarer has no trick: those are "unsecured", not banked.
    unsecured = marriage_points[declarer] if rules[R.MARRIAGE_BURNS_WITHOUT_TRICK] and tricks[declarer] == 0 else 0
    banked = card_points[declarer] + marriage_points[declarer] - unsecured
    need = 0
    if contract >= 0:
        active.add(L.F_RULES + len(L.RULE_FLAGS))  # a contract is set
        need = still_needed(contract, banked, rules)
        # The most that may still come (card_features' comment): the card points nobody has won
        # yet, plus each marriage with neither card gone that the declarer may hold as far as
        # this seat can tell (the declarer: both cards in his hand; a defender: neither in his).
        could_come = 120 - sum(card_points)
        def declarable(cards):  # unplayed, and the declarer's as far as this seat can tell
            return not (cards & gone) and ((cards <= hand) if me == 0 else not (cards & hand))

        for s in range(4):
            if declarable({6 * s + KING, 6 * s + QUEEN}):
                could_come += int(rules[R.MARRIAGE_VALUE + s])
            if rules[R.HALF_MARRIAGE] and declarable({6 * s + QUEEN, 6 * s + JACK}):
                could_come += int(rules[R.MARRIAGE_VALUE + s]) // 2
        if rules[R.ACE_MARRIAGE] and declarable({6 * s + ACE for s in range(4)}):
            could_come += int(rules[R.ACE_MARRIAGE])
        if need == 0:
            active.add(L.F_FLAGS)  # made already
        elif need > could_come + unsecured:
            active.add(L.F_FLAGS + 1)  # cannot be made any more
    if unsecured > 0:
        active.add(L.F_FLAGS + 2)

    d1, d2 = (declarer + 1) % 3, (declarer + 2) % 3
    dense = [0.0] * L.N_DENSE
    dense[L.D_BANKED] = banked / 100.0
    dense[L.D_NEED] = need / 100.0
    dense[L.D_CONTRACT] = max(0, contract) / 100.0
    dense[L.D_DEFENDER1] = (card_points[d1] + marriage_points[d1]) / 100.0
    dense[L.D_DEFENDER2] = (card_points[d2] + marriage_points[d2]) / 100.0
    dense[L.D_TABLE] = sum(POINTS[c % 6] for c in table) / 30.0
    for q in range(3):
        dense[L.D_LAST_BID + role(q)] = row[L.P_LAST_BID + q] / 100.0
    for s in range(4):
        dense[L.D_MARRIAGE_VALUE + s] = int(rules[R.MARRIAGE_VALUE + s]) / 100.0
    dense[L.D_ACE_MARRIAGE] = int(rules[R.ACE_MARRIAGE]) / 100.0
    dense[L.D_UNSECURED] = unsecured / 100.0
    for s in range(4):
        dense[L.D_SUIT_OUT + s] = sum(1 for c in outside if c // 6 == s) / 6.0
    return active, [np.float32(v) for v in dense]


def input_vector(active, dense: list) -> np.ndarray:
    """The net's N_IN inputs as one float64 vector: 1 for each active sparse input (an index given
    twice counts twice, as a row of W1 added twice would), then the dense values."""
    x = np.zeros(L.N_IN)
    np.add.at(x, np.asarray(list(active), dtype=np.int64), 1.0)
    x[L.F_DENSE:L.F_DENSE + L.N_DENSE] = np.asarray(dense, dtype=np.float64)
    return x


def forward(arrays: dict[str, np.ndarray], active, dense: list, role: int) -> np.ndarray:
    """The 24 outputs of the acting role's head: ReLU(x W1 + b1) → ReLU(· W2 + b2) → · W3[role] +
    b3[role], in float64, from the npz arrays (q_W1 (N_IN, H1) ... q_W3 (3, H2, 24), q_b3 (3, 24))."""
    a = {k: np.asarray(v, dtype=np.float64) for k, v in arrays.items()}
    h1 = np.maximum(0.0, input_vector(active, dense) @ a["q_W1"] + a["q_b1"])
    h2 = np.maximum(0.0, h1 @ a["q_W2"] + a["q_b2"])
    return h2 @ a["q_W3"][role] + a["q_b3"][role]


def best_card(values: np.ndarray, legal: int, maximise: bool) -> int:
    """The legal card of highest value (``maximise``) or lowest; the lowest card on ties."""
    best = None
    for c in sorted(cards(legal)):
        if best is None or (values[c] > values[best] if maximise else values[c] < values[best]):
            best = c
    return -1 if best is None else best


# ---- the bidding nets ------------------------------------------------------------------------------
PLAY_RULE_FLAGS = ("MUST_HEAD", "MARRIAGE_FIRST_LEAD", "MARRIAGE_BURNS_WITHOUT_TRICK", "MARRIAGE_OPTIONAL",
                   "HALF_MARRIAGE", "ACE_MARRIAGE", "NO_LEAD_FOREIGN_TRUMP", "MUST_LEAD_TRUMP", "ROUND_DECLARER")


def ladder_input_vector(hand: int, rules: np.ndarray, value: int) -> np.ndarray:
    """A ladder net's inputs (float64, C_N_IN) as ``sim.players.learned.layout`` describes them: the hand's
    cards, the nine play rules on, the marriage values and the four aces' value in hundreds, and
    the card net's value of the deal in hundreds (net C only; B reads the first B_N_IN)."""
    x = np.zeros(L.C_N_IN)
    for c in cards(hand):
        x[L.L_HAND + c] = 1
    for i, name in enumerate(PLAY_RULE_FLAGS):
        x[L.L_RULES + i] = 1 if rules[getattr(R, name)] else 0
    for s in range(4):
        x[L.L_MARRIAGE_VALUE + s] = rules[R.MARRIAGE_VALUE + s] / 100
    x[L.L_ACE_MARRIAGE] = rules[R.ACE_MARRIAGE] / 100
    x[L.L_VALUE] = value / 100
    return x


def ladder_forward(arrays: dict[str, np.ndarray], prefix: str, x: np.ndarray) -> tuple[list[float], float]:
    """(the chance each contract of the ladder is made, the net's value in points): one hidden
    ReLU layer; a chance is the sigmoid of its output, lowered to the chance of any lower contract
    when that is smaller (a higher contract is never likelier)."""
    w1, b1 = arrays[prefix + "_W1"].astype(np.float64), arrays[prefix + "_b1"].astype(np.float64)
    w2, b2 = arrays[prefix + "_W2"].astype(np.float64), arrays[prefix + "_b2"].astype(np.float64)
    h = np.maximum(0.0, x[:w1.shape[0]] @ w1 + b1)
    out = h @ w2 + b2
    chances = []
    for i in range(L.N_LADDER):
        p = 1 / (1 + np.exp(-out[i]))
        chances.append(min([p] + chances[-1:]))
    return chances, 100 * out[L.N_LADDER]


def contract_worth(chances: list[float], contract: int, rules: np.ndarray) -> float:
    """The expected result of playing ``contract``: ±contract at the ladder's chance, and with
    declarer_scores = points the expected surplus of his points over it, each rung above the
    contract worth LADDER_STEP points at its chance (the ladder read as points in steps of 5)."""
    worth = contract * (2 * chance_of(chances, contract) - 1)
    if rules[R.DECLARER_SCORES_POINTS]:
        rungs = [L.LADDER_LO + L.LADDER_STEP * i for i in range(L.N_LADDER)]
        worth += sum(L.LADDER_STEP * chance_of(chances, rung) for rung in rungs if rung > contract)
    return worth


def chance_of(chances: list[float], contract: int) -> float:
    """The ladder's chance for ``contract``: the first rung below it, none above the last."""
    if contract <= L.LADDER_LO:
        return chances[0]
    i = -(-(contract - L.LADDER_LO) // L.LADDER_STEP)
    return chances[i] if i < L.N_LADDER else 0.0
