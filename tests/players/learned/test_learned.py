"""The learned player's compiled pieces against plain twins: the card net's inputs
(``cards_nb.position_features``) and forward pass (``q_forward``, ``best_legal``) against
tests/reference_learned.py, the training-side forwards (numpy and JAX) against the same twin, the
solver's labels against the brute force of tests/reference_solver.py, the weights loader's
refusals, and the determinism of recorded positions and labels."""

from __future__ import annotations

import json

import numpy as np
import pytest
import reference_learned as twin
import reference_solver as ref

from sim.game import rules_layout as R
from sim.game.rules import HouseRules, preset
from sim.players.learned import cards_nb
from sim.players.learned import layout as L
from sim.players.learned.weights import WeightsError, load_weights, pack, save_weights, shapes_of
from sim.training import labels as labels_module
from sim.training.fit import forward_numpy
from sim.training.labels import label
from sim.training.positions import generate_positions, mixture_rules

DEALS = 25  # about 400 positions a rule set
SEED = 11
# The presets whose play rules differ, and random option sets of the training mixture (index % 4
# == 3), chosen to cover the play options between them: must_head, marriage_first_lead with
# burning, round_declarer, ace_marriage, half_marriage, marriage_optional, must_lead_trump,
# no_lead_foreign_trump, and the talon and the gifts hidden from the defenders.
RULE_SETS = {
    "classic": lambda: preset("classic"),
    "online": lambda: preset("online"),
    "strict": lambda: preset("strict"),
    "options 83": lambda: mixture_rules(1, 83),
    "options 143": lambda: mixture_rules(1, 143),
    "options 51": lambda: mixture_rules(1, 51),
    "options 87": lambda: mixture_rules(1, 87),
    # The Polish rounding under round_declarer: the points still needed (D_NEED) round to 10.
    "ten rounding": lambda: HouseRules(rounding="ten", round_declarer=True, declarer_scores="points"),
}
LABEL_SETS = ("classic", "online", "options 51", "options 87")  # must_head, marriage_optional, burning, half, aces
LATE = 15  # cards gone from trick 6 on: the brute force is quick there
WEIGHT_SIZES = ((128, 32), (64, 16), (32, 8))


@pytest.fixture(scope="module")
def recorded():
    """{name: (rules, positions, deal ids)}: heuristic cards with exploration, every seat recording."""
    out = {}
    for i, (name, make) in enumerate(RULE_SETS.items()):
        rules = make()
        pos, deals = generate_positions(rules, SEED, i, DEALS, None, -1, 0.15)
        out[name] = (rules, pos, deals)
    return out


@pytest.fixture(scope="module")
def twin_inputs(recorded):
    """{name: [(active set, dense list) of each position]} by the twin."""
    return {name: [twin.features(row, rules.to_array()) for row in pos] for name, (rules, pos, _) in recorded.items()}


def compiled_features(row, rules_array):
    idx = np.zeros(L.MAX_ACTIVE, dtype=np.int64)
    val = np.zeros(L.N_DENSE, dtype=np.float32)
    n = cards_nb.position_features(row, rules_array, idx, val)
    return idx, n, val


def role_of(row) -> int:
    return int((row[L.P_SEAT] - row[L.P_DECLARER]) % 3)


def late_rows(pos: np.ndarray) -> np.ndarray:
    return pos[np.array([int(p).bit_count() >= LATE for p in pos[:, L.P_PLAYED]], dtype=bool)]


# ---- 1. the card net's inputs -------------------------------------------------------------------
# The sparse groups in the learned layout's order, with the sizes its comments give them.
SPARSE_GROUPS = (("F_HAND", 24), ("F_PLAYED", 3 * 24), ("F_TRICK", 3 * 24), ("F_KNOWN", 3 * 24), ("F_UNSEEN", 24),
                 ("F_LEGAL", 24), ("F_ME", 3), ("F_LEADER", 3), ("F_TRUMP", 5), ("F_OWNER", 4), ("F_WON", 3),
                 ("F_VOID", 3 * 4), ("F_DECLARED", 3 * 9), ("F_TRICK_NO", 8), ("F_CAN_DECLARE", 1),
                 ("F_RULES", len(L.RULE_FLAGS) + 1), ("F_FLAGS", 3), ("F_MASTER", 24), ("F_WINS", 24))
DENSE_GROUPS = (("D_BANKED", 1), ("D_NEED", 1), ("D_CONTRACT", 1), ("D_DEFENDER1", 1), ("D_DEFENDER2", 1),
                ("D_TABLE", 1), ("D_LAST_BID", 3), ("D_MARRIAGE_VALUE", 4), ("D_ACE_MARRIAGE", 1), ("D_UNSECURED", 1),
                ("D_SUIT_OUT", 4))
POSITION_GROUPS = (("P_HAND", 3), ("P_SEAT", 1), ("P_DECLARER", 1), ("P_LEADER", 1), ("P_N_IN_TRICK", 1),
                   ("P_TRICK", 2), ("P_TRUMP", 1), ("P_OWNER", 1), ("P_TRICKS", 3), ("P_CARD_POINTS", 3),
                   ("P_MARRIAGE_POINTS", 3), ("P_MARRIAGES", 3), ("P_CONTRACT", 1), ("P_PLAYED", 1),
                   ("P_PLAYED_BY", 3), ("P_VOIDS", 3), ("P_KNOWN", 3), ("P_LAST_BID", 3), ("P_LEGAL", 1),
                   ("P_CAN_DECLARE", 1), ("P_CHOSEN", 1))


@pytest.mark.parametrize("groups, total", [(SPARSE_GROUPS, "N_SPARSE"), (DENSE_GROUPS, "N_DENSE"),
                                           (POSITION_GROUPS, "P_N")], ids=["sparse", "dense", "position"])
def test_each_layout_tiles_its_row_without_overlap(groups, total):
    """Each group starts where the one before it ends: two inputs sharing a row of W1 could not be
    told apart by the net (and q_forward would add the row twice)."""
    at = 0
    for name, size in groups:
        assert getattr(L, name) == at, f"{name} is at {getattr(L, name)}, but the group before it ends at {at}"
        at += size
    assert getattr(L, total) == at
    if total == "N_SPARSE":
        assert L.F_DENSE == L.N_SPARSE and L.N_IN == L.N_SPARSE + L.N_DENSE


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_compiled_features_are_the_twins_on_recorded_positions(recorded, twin_inputs, name):
    from sim.training.fit import make_dataset

    rules, pos, deals = recorded[name]
    arr = rules.to_array()
    assert len(pos) > 200
    batch = make_dataset([(pos, np.zeros((len(pos), 24), dtype=np.float32), arr, deals)])
    sparse, dense = batch.sparse, batch.dense
    for i, row in enumerate(pos):
        active, want_dense = twin_inputs[name][i]
        idx, n, val = compiled_features(row, arr)
        assert n <= L.MAX_ACTIVE
        got = idx[:n].tolist()
        # sorted lists, not sets: an input written twice would count twice in q_forward
        assert sorted(got) == sorted(active), (f"position {i}: inputs only one side has",
                                               sorted(set(got) ^ active), "written twice",
                                               sorted(f for f in set(got) if got.count(f) > 1), row.tolist())
        assert np.array_equal(val, np.array(want_dense, dtype=np.float32)), (i, val, want_dense)
        # training's batch of the same rows: one-hot sparse rows and the same dense values
        assert np.flatnonzero(sparse[i]).tolist() == sorted(active)
        assert np.array_equal(dense[i], val)


def test_the_recorded_positions_exercise_every_group_of_inputs(twin_inputs):
    """Without these the twin comparison above would leave inputs unchecked."""
    seen = set().union(*(a for rows in twin_inputs.values() for a, _ in rows))
    groups = {"played": L.F_PLAYED, "trick": L.F_TRICK, "known": L.F_KNOWN, "unseen": L.F_UNSEEN,
              "void": L.F_VOID, "declared": L.F_DECLARED, "master": L.F_MASTER, "wins": L.F_WINS}
    for group, offset in groups.items():
        for r in range(3):
            width = 4 if group == "void" else 9 if group == "declared" else 24
            if group in ("unseen", "master", "wins") and r > 0:
                continue
            assert any(offset + width * r <= f < offset + width * (r + 1) for f in seen), (group, r)
    for f in (L.F_CAN_DECLARE, L.F_FLAGS, L.F_FLAGS + 1, L.F_FLAGS + 2, *range(L.F_ME, L.F_ME + 3),
              *range(L.F_LEADER, L.F_LEADER + 3), *range(L.F_WON, L.F_WON + 3), *range(L.F_RULES, L.F_RULES + 10),
              # tricks 1-7: the eighth trick's cards are forced, so no position of it is recorded
              *range(L.F_TRICK_NO, L.F_TRICK_NO + 7), *range(L.F_OWNER, L.F_OWNER + 4)):
        assert f in seen, f
    dense = np.array([d for rows in twin_inputs.values() for _, d in rows])
    assert (dense != 0).any(axis=0).all()  # every dense input is non-zero somewhere


def test_cannot_be_made_is_set_only_where_the_exact_value_falls_short():
    """F_FLAGS + 1 ("the contract cannot be made any more") must hold in every world, so in the
    true deal too: the exact value of the position (the declarer's best, or his defenders' best
    answer to him) stays below the points he still needs. Checked on positions with the flag set,
    under rule sets with half marriages and aces, whose declarations count towards what may come."""
    sets = [("classic", preset("classic"))] + [(f"options {k}", mixture_rules(1, k)) for k in (23, 143, 155, 179)]
    checked = 0
    for name, rules in sets:
        arr = rules.to_array()
        pos, _ = generate_positions(rules, SEED, 0, 300, None, -1, 0.15)
        flagged, need = [], []
        for row in pos:
            idx, n, val = compiled_features(row, arr)
            if L.F_FLAGS + 1 in idx[:n]:
                flagged.append(row)
                need.append(round(float(val[L.D_NEED]) * 100))
        values, _ = label(np.array(flagged), rules, 0, 1, threads=1)
        for row, points, v in zip(flagged, need, values, strict=True):
            legal = v[v >= 0]
            exact = legal.max() if row[L.P_SEAT] == row[L.P_DECLARER] else legal.min()
            assert exact < points, (f"{name}: flagged as lost, but the declarer makes {exact} of the {points} "
                                    f"points he needs", row.tolist())
        checked += len(flagged)
    assert checked > 500


# ---- 2. the forward pass ------------------------------------------------------------------------
def random_arrays(h1: int, h2: int, seed: int) -> dict[str, np.ndarray]:
    """Weights whose hidden units are on for some positions and off for others."""
    rng = np.random.default_rng(seed)
    draw = {"q_W1": 0.3, "q_b1": 0.5, "q_W2": 1 / np.sqrt(h1), "q_b2": 0.3, "q_W3": 1 / np.sqrt(h2), "q_b3": 0.5}
    return {k: (rng.standard_normal(shape) * draw[k]).astype(np.float32) for k, shape in shapes_of(h1, h2).items()}


def check_forward(net, model, arrays, rows, rules_array, lbuf):
    """q_forward of model row ``model`` against the twin, both given the compiled inputs (the
    features are checked on their own above); best_legal against the twin's choice."""
    worst = 0.0
    on = []  # the share of first-layer units a position turns on
    for row in rows:
        idx, n, val = compiled_features(row, rules_array)
        active, dense = idx[:n].tolist(), val.tolist()
        role = role_of(row)
        lbuf[:] = np.nan  # nothing left over from the last call may be read
        cards_nb.q_forward(net, model, idx, n, val, role, lbuf)
        out = lbuf[cards_nb.L_OUT, :24].copy()
        want = twin.forward(arrays, active, dense, role)
        worst = max(worst, float(np.abs(out - want).max()))
        x = twin.input_vector(active, dense) @ arrays["q_W1"].astype(np.float64) + arrays["q_b1"]
        on.append((x > 0).mean())
        legal = int(row[L.P_LEGAL])
        got = cards_nb.best_legal(out, legal, role == 0)
        best = twin.best_card(want, legal, role == 0)
        if got != best:  # only a tie within float32 rounding may go either way
            assert abs(want[got] - want[best]) < 1e-5, (row.tolist(), got, best, want)
    assert worst < 1e-5, worst
    assert 0.1 < np.mean(on) < 0.9  # the ReLUs cut: both of their sides were exercised


@pytest.mark.parametrize("sizes", WEIGHT_SIZES, ids=lambda s: f"{s[0]}-{s[1]}")
def test_q_forward_and_best_legal_are_the_twins(recorded, sizes):
    arrays = random_arrays(*sizes, seed=sizes[0])
    net = pack(arrays)[None, :]
    lbuf = cards_nb.new_learned_buffers()[1]
    for rules, pos, _ in recorded.values():
        check_forward(net, 0, arrays, pos, rules.to_array(), lbuf)


def test_q_forward_reads_the_model_row_it_is_given(recorded):
    """Two nets of different sizes in one matrix (as weights_matrix pads them): each row is its own net."""
    first, second = random_arrays(64, 16, seed=1), random_arrays(32, 8, seed=2)
    blobs = [pack(first), pack(second)]
    net = np.zeros((2, max(b.size for b in blobs)), dtype=np.float32)
    for i, b in enumerate(blobs):
        net[i, :b.size] = b
    rules, pos, _ = recorded["online"]
    lbuf = cards_nb.new_learned_buffers()[1]
    check_forward(net, 0, first, pos[:100], rules.to_array(), lbuf)
    check_forward(net, 1, second, pos[:100], rules.to_array(), lbuf)


def twin_batch(inputs):
    sparse = np.zeros((len(inputs), L.N_SPARSE), dtype=np.uint8)
    for i, (active, _) in enumerate(inputs):
        sparse[i, sorted(active)] = 1
    return sparse, np.array([d for _, d in inputs], dtype=np.float32)


def test_training_numpy_forward_is_the_twin(recorded, twin_inputs):
    arrays = random_arrays(64, 16, seed=5)
    for name, (_, pos, _) in recorded.items():
        sparse, dense = twin_batch(twin_inputs[name])
        roles = ((pos[:, L.P_SEAT] - pos[:, L.P_DECLARER]) % 3).astype(np.int64)
        got = forward_numpy(arrays, sparse, dense, roles)
        want = np.array([twin.forward(arrays, a, d, r) for (a, d), r in zip(twin_inputs[name], roles, strict=True)])
        assert np.abs(got - want).max() < 1e-9


def test_jax_training_forward_is_the_twin(recorded, twin_inputs):
    """fit's ``predict`` lives inside ``fit``: with a zero learning rate one epoch leaves the given
    weights as they are, and its validation error and regret are those of predict's outputs."""
    pytest.importorskip("jax")
    pytest.importorskip("optax")
    from sim.training.fit import SCALE, fit, make_dataset, regret

    name = "options 143"
    rules, pos, deals = recorded[name]
    arrays = random_arrays(32, 8, seed=7)
    rng = np.random.default_rng(3)
    legal = np.array([[(int(m) >> c) & 1 for c in range(24)] for m in pos[:, L.P_LEGAL]], dtype=bool)
    values = np.where(legal, rng.integers(0, 150, (len(pos), 24)), -1).astype(np.float32)
    data = make_dataset([(pos, values, rules.to_array(), deals)])
    roles = ((pos[:, L.P_SEAT] - pos[:, L.P_DECLARER]) % 3).astype(np.int64)
    pred = np.array([twin.forward(arrays, a, d, r) for (a, d), r in zip(twin_inputs[name], roles, strict=True)])
    err = (pred - values / SCALE) * legal
    mse = (err * err).sum() / legal.sum()
    out, history = fit(data, data, hidden=(32, 8), epochs=1, batch=len(data), lr=0.0, init=arrays,
                       log=lambda _line: None)
    for k, v in arrays.items():
        assert np.array_equal(out[k], v), k  # nothing was learned: the figures below are of `arrays`
    assert history[0]["val_mse"] == pytest.approx(mse, rel=1e-5)
    assert history[0]["train_loss"] == pytest.approx(mse, rel=1e-5)
    assert history[0]["val_regret"] == pytest.approx(float(regret(pred, data).mean()), abs=1e-4)


# ---- 3. the solver's labels ---------------------------------------------------------------------
def play_rules(rules: HouseRules) -> ref.PlayRules:
    return ref.PlayRules(must_head=rules.must_head, marriage_first_lead=rules.marriage_first_lead,
                         marriage_burns_without_trick=rules.marriage_burns_without_trick,
                         marriage_optional=rules.marriage_optional, ace_marriage=rules.ace_marriage,
                         half_marriage=rules.half_marriage, no_lead_foreign_trump=rules.no_lead_foreign_trump,
                         must_lead_trump=rules.must_lead_trump, marriage_values=tuple(rules.marriage_values))


def reference_card_values(row, rules: HouseRules) -> dict[int, int]:
    """{card: the brute-force value of the position after the seat plays it} for every card the
    reference's rules let it play; a lead that declares is valued declaring (the learned player
    always declares). Seats are solver seats: the declarer is 0."""
    row = [int(x) for x in row]
    pr = play_rules(rules)
    declarer = row[L.P_DECLARER]

    def role(q):
        return (q - declarer) % 3

    hands = [row[L.P_HAND + (declarer + s) % 3] for s in range(3)]
    leader, mover = role(row[L.P_LEADER]), role(row[L.P_SEAT])
    trick = [row[L.P_TRICK + i] for i in range(row[L.P_N_IN_TRICK])]
    won = frozenset(role(q) for q in range(3) if row[L.P_TRICKS + q] > 0)
    trump = row[L.P_TRUMP]
    owner = role(row[L.P_OWNER]) if row[L.P_OWNER] >= 0 else -1
    burning = rules.marriage_burns_without_trick and row[L.P_TRICKS + declarer] == 0
    unsecured = row[L.P_MARRIAGE_POINTS + declarer] if burning else 0
    hand = ref.cards_of(hands[mover])
    as_cards = [(c // 6, c % 6) for c in trick]
    if trick:
        playable = ref._follows(hand, tuple(as_cards), trump, pr.must_head)
    else:
        playable = ref._leads(hand, mover, trump, owner, pr)
    out = {}
    for card in playable:
        c = ref.card_index(card)
        rest = list(hands)
        rest[mover] &= ~(1 << c)
        if not trick:
            gain, t, o, u = 0, trump, owner, unsecured
            decl = ref._declaration(hand, card, pr) if (mover in won or pr.marriage_first_lead) else None
            if decl is not None:
                points, changes_trump = decl
                if changes_trump:
                    t, o = card[0], mover
                if mover == 0:
                    if pr.marriage_burns_without_trick and 0 not in won:
                        u += points
                    else:
                        gain = points
            out[c] = gain + ref.solve(rest, leader=mover, trump=t, owner=o, won=won, unsecured=u, rules=pr,
                                      trick=(c,))
        elif len(trick) == 1:
            out[c] = ref.solve(rest, leader=leader, trump=trump, owner=owner, won=won, unsecured=unsecured, rules=pr,
                               trick=(trick[0], c))
        else:  # the card ends the trick
            full = (*as_cards, card)
            winner = (leader + ref._winner(full, trump)) % 3
            gain = 0
            if winner == 0:
                gain = sum(ref.POINTS[r] for _, r in full) + (unsecured if 0 not in won else 0)
            out[c] = gain + ref.solve(rest, leader=winner, trump=trump, owner=owner, won=won | {winner},
                                      unsecured=unsecured, rules=pr)
    return out


@pytest.mark.parametrize("name", LABEL_SETS)
def test_labels_are_the_brute_force_value_of_each_legal_card(recorded, name):
    rules, pos, _ = recorded[name]
    late = late_rows(pos)
    assert len(late) > 60
    values, nodes = label(late, rules, 0, 1, threads=1)
    assert values.shape == (len(late), 24) and values.dtype == np.float32 and (nodes > 0).all()
    for i, row in enumerate(late):
        want = reference_card_values(row, rules)
        legal = int(row[L.P_LEGAL])
        assert set(want) == twin.cards(legal), (row.tolist(), sorted(want))  # the engine's legal cards
        for c in range(24):
            expected = want.get(c, -1)
            assert values[i, c] == expected, (row.tolist(), c, values[i].tolist(), want)


def test_label_checks_cover_declarations_and_unsecured_marriages(recorded):
    """The late positions above include leads that declare and declarer marriages that may burn."""
    declaring_leads = unsecured = 0
    for name in LABEL_SETS:
        rules, pos, _ = recorded[name]
        arr = rules.to_array()
        for row in late_rows(pos):
            hand = twin.cards(row[L.P_HAND + row[L.P_SEAT]])
            if row[L.P_CAN_DECLARE] and any({6 * s + 2, 6 * s + 3} <= hand for s in range(4)):
                declaring_leads += 1
            d = row[L.P_DECLARER]
            if arr[R.MARRIAGE_BURNS_WITHOUT_TRICK] and row[L.P_TRICKS + d] == 0 and row[L.P_MARRIAGE_POINTS + d] > 0:
                unsecured += 1
    assert declaring_leads >= 3 and unsecured >= 1, (declaring_leads, unsecured)


# ---- 4. the weights loader ----------------------------------------------------------------------
def refusal(path) -> str:
    with pytest.raises(WeightsError) as e:
        load_weights(path)
    message = str(e.value)
    assert "\n" not in message and repr(str(path)) in message, message
    return message


def test_weights_round_trip_and_every_bad_file_is_refused_in_one_line_naming_it(tmp_path):
    arrays = random_arrays(32, 8, seed=9)
    npz = tmp_path / "w.npz"
    sha = save_weights(npz, arrays, {"note": "test"})
    net, meta = load_weights(npz)
    assert net.dtype == np.float32 and np.array_equal(net, pack(arrays))
    assert meta["note"] == "test" and meta["npz_sha256"] == sha and meta["hidden"] == [32, 8]
    assert meta["features_version"] == L.FEATURES_VERSION

    data = bytearray(npz.read_bytes())  # one flipped byte in the middle of the arrays
    data[len(data) // 2] ^= 0x01
    flipped = tmp_path / "flipped.npz"
    flipped.write_bytes(bytes(data))
    (tmp_path / "flipped.json").write_text((tmp_path / "w.json").read_text())
    assert "damaged" in refusal(flipped)

    lonely = tmp_path / "lonely.npz"
    lonely.write_bytes(npz.read_bytes())
    assert "no manifest" in refusal(lonely)

    other = tmp_path / "other.npz"
    other.write_bytes(npz.read_bytes())
    manifest = json.loads((tmp_path / "w.json").read_text())
    manifest["features_version"] = L.FEATURES_VERSION + 1
    (tmp_path / "other.json").write_text(json.dumps(manifest))
    assert f"feature layout {L.FEATURES_VERSION + 1}" in refusal(other)

    wrong = dict(arrays, q_b2=np.zeros(9, dtype=np.float32))  # hidden sizes 32, 8 but a b2 of 9
    misshapen = tmp_path / "misshapen.npz"
    save_weights(misshapen, wrong, {})
    assert "array q_b2" in refusal(misshapen)


# ---- 4b. the gifts -------------------------------------------------------------------------------
def first_lead_row(declarer: int, hand8: int, a: int, b: int, contract: int, last_bid, can_declare: bool):
    """The declarer's first lead after giving ``a`` to the seat after him and ``b`` to the next,
    as a stored position: nothing played, won or declared, no trump, every card of his legal."""
    row = np.zeros(L.P_N, dtype=np.int64)
    row[L.P_HAND + declarer] = hand8
    row[L.P_KNOWN + (declarer + 1) % 3] = 1 << a
    row[L.P_KNOWN + (declarer + 2) % 3] = 1 << b
    row[L.P_LAST_BID:L.P_LAST_BID + 3] = last_bid
    row[L.P_SEAT] = row[L.P_DECLARER] = row[L.P_LEADER] = declarer
    row[L.P_TRICK:L.P_TRICK + 2] = -1
    row[L.P_TRUMP] = row[L.P_OWNER] = -1
    row[L.P_CONTRACT] = contract
    row[L.P_LEGAL] = hand8
    row[L.P_CAN_DECLARE] = int(can_declare)
    return row


def gift_deals(rules: HouseRules, count: int, seed: int):
    """(declarer, hands with the talon taken, givable, bid, last bids) of random deals."""
    from sim.game.play_nb import givable_cards

    rng = np.random.default_rng(seed)
    for _ in range(count):
        deck = rng.permutation(24)
        hands = np.array([sum(1 << int(c) for c in deck[7 * q:7 * q + 7]) for q in range(3)], dtype=np.int64)
        declarer = int(rng.integers(3))
        hands[declarer] |= sum(1 << int(c) for c in deck[21:])
        bid = int(rng.choice([100, 110, 120, 140]))
        last_bid = np.array([bid if q == declarer else int(rng.choice([0, 100, 105])) for q in range(3)])
        yield declarer, hands, int(givable_cards(hands[declarer], rules.to_array())), bid, last_bid


def compiled_gifts(rules: HouseRules, net, declarer, hands, givable, bid, last_bid, candidates: int, model: int = 0):
    from sim.players.layout import H_GIFT_CANDIDATES, H_NET, N_HEURISTIC_COLUMNS
    from sim.solver import search_buffers

    prm = np.zeros((3, N_HEURISTIC_COLUMNS))
    prm[declarer, H_NET] = model
    prm[declarer, H_GIFT_CANDIDATES] = candidates
    _, lbuf, lidx, _ = cards_nb.new_learned_buffers()
    work = search_buffers(4)[1]
    return cards_nb.learned_discard(declarer, hands.copy(), givable, bid, last_bid, rules.to_array(), prm, work,
                                      net, lbuf, lidx)


@pytest.mark.parametrize("name", ["classic", "online", "options 83", "options 87"])
def test_the_gifts_are_the_pair_of_best_first_lead_value_by_the_twin(name):
    """Every ordered pair valued (gift_candidates 90): the pair whose first lead the twin net
    values highest, with that value in points."""
    rules = RULE_SETS[name]()
    arrays = random_arrays(64, 16, seed=5)
    net = pack(arrays)[None, :]
    can_declare = bool(rules.to_array()[R.MARRIAGE_FIRST_LEAD])
    checked = 0
    for declarer, hands, givable, bid, last_bid in gift_deals(rules, 12, seed=len(name)):
        hand10 = int(hands[declarer])
        values = {}
        for a in twin.cards(givable):
            for b in twin.cards(givable) - {a}:
                hand8 = hand10 & ~(1 << a) & ~(1 << b)
                row = first_lead_row(declarer, hand8, a, b, bid, last_bid, can_declare)
                active, dense = twin.features(row, rules.to_array())
                out = twin.forward(arrays, active, dense, 0)
                values[a, b] = max(out[c] for c in twin.cards(hand8))
        g1, g2, value = compiled_gifts(rules, net, declarer, hands, givable, bid, last_bid, 90)
        best = max(values.values())
        assert values[g1, g2] > best - 1e-5, (name, g1, g2)  # only a float32 tie may go either way
        assert value == round(100 * values[g1, g2])
        checked += 1
    assert checked == 12


@pytest.mark.parametrize("name", ["classic", "options 83", "options 87"])
def test_cheapest_discards_are_the_head_of_the_sorted_list(name):
    """discard_nb.cheapest_discards (a stable selection) against list_discards (all sorted)."""
    from sim.solver.core_nb import DISCARD_ROW, MAX_MOVES, new_work
    from sim.solver.discard_nb import cheapest_discards, list_discards

    rules = RULE_SETS[name]().to_array()
    work = new_work()[1]
    for declarer, hands, _, _, _ in gift_deals(RULE_SETS[name](), 40, seed=13):
        n = list_discards(hands[declarer], rules, work)
        listed = [(int(work[DISCARD_ROW + i // MAX_MOVES, i % MAX_MOVES]),
                   int(work[DISCARD_ROW + i // MAX_MOVES, MAX_MOVES + i % MAX_MOVES])) for i in range(n)]
        costs = [c for _, c in listed]
        assert costs == sorted(costs) and len(set(costs)) < n  # sorted, with ties to keep in order
        for k in (1, 4, 9, n + 5):
            got = cheapest_discards(hands[declarer], rules, work, k)
            assert got == min(k, n)
            assert [(int(work[DISCARD_ROW + i // MAX_MOVES, i % MAX_MOVES]),
                     int(work[DISCARD_ROW + i // MAX_MOVES, MAX_MOVES + i % MAX_MOVES])) for i in range(got)] \
                == listed[:got]


def test_fewer_candidates_take_the_cheapest_pairs_and_no_model_gives_as_the_heuristic():
    from sim.players.heuristic_nb import heuristic_discard
    from sim.solver.core_nb import DISCARD_ROW, MAX_MOVES, new_work
    from sim.solver.discard_nb import list_discards

    rules = preset("classic")
    net = pack(random_arrays(32, 8, seed=3))[None, :]
    for declarer, hands, givable, bid, last_bid in gift_deals(rules, 10, seed=9):
        work = new_work()[1]
        n = list_discards(hands[declarer], rules.to_array(), work)
        first = [int(work[DISCARD_ROW + i // MAX_MOVES, i % MAX_MOVES]) for i in range(min(n, 4))]
        g1, g2, _ = compiled_gifts(rules, net, declarer, hands, givable, bid, last_bid, 1)
        assert g1 * 24 + g2 == first[0]
        g1, g2, _ = compiled_gifts(rules, net, declarer, hands, givable, bid, last_bid, 4)
        assert g1 * 24 + g2 in first
        g1, g2, value = compiled_gifts(rules, net, declarer, hands, givable, bid, last_bid, 8, model=-1)
        assert (g1, g2) == tuple(heuristic_discard(hands[declarer], givable)) and value == 0


# ---- 5. determinism -----------------------------------------------------------------------------
def test_positions_are_a_pure_function_of_their_arguments(recorded):
    rules, pos, deals = recorded["options 87"]
    again, again_deals = generate_positions(rules, SEED, list(RULE_SETS).index("options 87"), DEALS, None, -1, 0.15)
    assert np.array_equal(pos, again) and np.array_equal(deals, again_deals)
    other, _ = generate_positions(rules, SEED + 1, 0, DEALS, None, -1, 0.15)  # another seed: other deals
    m = min(len(pos), len(other))
    assert not np.array_equal(pos[:m], other[:m])


@pytest.mark.parametrize("k_worlds", [0, 2])
def test_labels_do_not_depend_on_the_thread_count(recorded, monkeypatch, k_worlds):
    rules, pos, _ = recorded["online"]
    late = late_rows(pos)
    monkeypatch.setattr(labels_module, "LABEL_SLICE", 16)  # several slices, so two threads share them
    one, _ = label(late, rules, k_worlds, 5, threads=1)
    two, _ = label(late, rules, k_worlds, 5, threads=2)
    assert len(late) > 2 * 16 and np.array_equal(one, two)
