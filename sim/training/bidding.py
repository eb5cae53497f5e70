"""The learned player's bidding nets: data from playouts of its own play, and their fit.

Every seat of a deal declares in turn at the least bid (``bidding_nb.declarer_playouts``: the
learned gifts and cards at every seat). Each playout gives the declarer's final points X and the
defenders' points. Net B learns from the declarer's 7 cards before the talon, net C from the 8 he
keeps and the card net's value of the deal after his gifts; each outputs the chance that X makes
each contract of the ladder (``sim.players.learned.layout``: 100, 105, ..., 300, under the rules' rounding,
binary cross-entropy) and one value (squared error): for B the seat's points as a defender (the
mean of its two playouts as one), for C the defenders' points together. ``sim.players.learned.bidding_nb`` turns
them into bids, the final contract, concession and the dark game by the rules' arithmetic.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from sim.engine import chunk_rng, solver_buffers
from sim.engine.schema import N_PLAYS
from sim.engine.workspace import new_workspace
from sim.game.amounts import DARK_CONTRACT as DARK_BID
from sim.game.play_nb import declarer_total, round_points_of
from sim.game.rules import HouseRules
from sim.players.layout import H_EPSILON, H_NET, H_SEARCH_CARDS
from sim.players.learned.bidding_nb import ladder_rows
from sim.players.learned.layout import B_N_IN, C_N_IN, LADDER_LO, LADDER_STEP, N_LADDER, N_LADDER_OUT
from sim.players.params import params_matrix
from sim.players.registry import player_codes
from sim.streams import BID_PLAYOUT_DEALS, BID_PLAYOUT_PLAYERS, HELD_OUT_DEALS, INIT_AND_SHUFFLE, generator
from sim.training.bidding_nb import (
    O_CARD_POINTS,
    O_HAND,
    O_KEPT,
    O_MARRIAGE_POINTS,
    O_N,
    O_VALUE,
    declarer_playouts,
)
from sim.training.fit import jax_modules

__all__ = [
    "SCALE", "LADDER", "OPENING", "generate_playouts", "made_ladder", "bidding_rows",
    "ladder_inputs_of", "init_ladder", "ladder_numpy", "fit_ladder", "ladder_figures", "dark_figures",
    "BID_VALIDATION_SHARE", "held_out_deals", "fit_bidding",
]

SCALE = 100.0
LADDER = LADDER_LO + LADDER_STEP * np.arange(N_LADDER)  # the contracts of the ladder
OPENING = LADDER_LO  # the first hand's forced opening bid the dark game is set against
BID_VALIDATION_SHARE = 0.05  # deals of the playouts held out of the bidding nets' fit


def generate_playouts(rules: HouseRules, seed: int, index: int, n_deals: int, net: np.ndarray,
                      model: int = 0) -> np.ndarray:
    """Playout rows int64 (3 * n_deals, O_N) of ``n_deals`` deals, every seat learned (model row
    ``model`` of ``net``): a pure function of (rules, seed, index, n_deals, net)."""
    prm = params_matrix(rules=rules)
    prm[:, H_NET] = model
    prm[:, H_EPSILON] = 0.0
    prm[:, H_SEARCH_CARDS] = 0  # the net's own play, as the positions' rounds (the search adds little at the end)
    players = ("learned",) * 3
    out = np.zeros((3 * n_deals, O_N), dtype=np.int64)
    status = declarer_playouts(chunk_rng(seed, index, BID_PLAYOUT_PLAYERS), chunk_rng(seed, index, BID_PLAYOUT_DEALS),
                               rules.to_array(), player_codes(players), prm, out, new_workspace(),
                               np.zeros((1, N_PLAYS), dtype=np.int8), np.zeros(1, dtype=np.int64),
                               solver_buffers(players, net), np.zeros(3, dtype=np.int64))
    if status != 0:
        raise RuntimeError(f"illegal action in the bidding playouts (seed {seed}, chunk {index})")
    return out


def made_ladder(points: np.ndarray, rules: np.ndarray) -> np.ndarray:
    """float32 (n, N_LADDER): 1 where a declarer with ``points`` makes the ladder's contract (his
    points rounded by ``rounding`` first under round_declarer; ``rules`` a rules array)."""
    # The kernels' own rule, made a table over the few totals there are (0 to the most points).
    totals = np.array([declarer_total(p, rules) for p in range(int(points.max(initial=0)) + 1)], dtype=np.int64)
    total = totals[points]
    return (total[:, None] >= LADDER[None, :]).astype(np.float32)


def bidding_rows(rows: np.ndarray, rules: np.ndarray) -> dict[str, np.ndarray]:
    """The targets of one part's playouts (rows of 3 seats a deal, one rules array), a row per
    playout: the ladder (both nets' target), for net B the declarer's hand7 and its seat's points
    as a defender, for net C the kept cards, the deal's value and the defenders' points."""
    points = rows[:, O_CARD_POINTS] + rows[:, O_MARRIAGE_POINTS]
    ladder = made_ladder(points, rules)
    defenders = round_points_of(rows[:, O_CARD_POINTS + 1:O_CARD_POINTS + 3]
                                + rows[:, O_MARRIAGE_POINTS + 1:O_MARRIAGE_POINTS + 3], rules)
    n = len(rows) // 3
    by_deal = defenders.reshape(n, 3, 2)  # [deal, declarer q, role 1 or 2]
    defence = np.zeros((n, 3), dtype=np.float64)
    for q in range(3):
        defence[:, (q + 1) % 3] += by_deal[:, q, 0] / 2
        defence[:, (q + 2) % 3] += by_deal[:, q, 1] / 2
    return {"ladder": ladder, "b_hand": rows[:, O_HAND], "b_value": defence.reshape(-1).astype(np.float32),
            "c_hand": rows[:, O_KEPT], "c_deal_value": rows[:, O_VALUE],
            "c_value": defenders.sum(axis=1).astype(np.float32), "points": points}


def ladder_inputs_of(hands: np.ndarray, values: np.ndarray, rules_table: np.ndarray, rules_of: np.ndarray,
                     n_in: int) -> np.ndarray:
    """The nets' inputs float32 (n, n_in) of the rows, by the players' own ``ladder_inputs``."""
    x = np.zeros((len(hands), C_N_IN), dtype=np.float32)
    ladder_rows(np.ascontiguousarray(hands, dtype=np.int64), np.ascontiguousarray(values, dtype=np.int64),
                rules_table, np.ascontiguousarray(rules_of, dtype=np.int64), x)
    return x[:, :n_in]


def init_ladder(n_in: int, hidden: int, seed: int, prefix: str) -> dict[str, np.ndarray]:
    rng = generator(INIT_AND_SHUFFLE, seed)
    return {f"{prefix}_W1": (rng.standard_normal((n_in, hidden)) * np.sqrt(2.0 / 16)).astype(np.float32),
            f"{prefix}_b1": np.zeros(hidden, np.float32),
            f"{prefix}_W2": (rng.standard_normal((hidden, N_LADDER_OUT)) * np.sqrt(1.0 / hidden)).astype(np.float32),
            f"{prefix}_b2": np.zeros(N_LADDER_OUT, np.float32)}


def ladder_numpy(params: dict[str, np.ndarray], prefix: str, x: np.ndarray) -> np.ndarray:
    """A ladder net's outputs (n, N_LADDER_OUT) in plain numpy (float64): the made chances (made
    non-increasing, as ``sim.players.learned.bidding_nb.ladder_forward``), then the value in points."""
    h = np.maximum(0, x.astype(np.float64) @ params[f"{prefix}_W1"].astype(np.float64) + params[f"{prefix}_b1"])
    out = h @ params[f"{prefix}_W2"].astype(np.float64) + params[f"{prefix}_b2"]
    chance = np.minimum.accumulate(1 / (1 + np.exp(-out[:, :N_LADDER])), axis=1)
    return np.concatenate([chance, out[:, N_LADDER:] * SCALE], axis=1)


def fit_ladder(x: np.ndarray, ladder: np.ndarray, value: np.ndarray, held: np.ndarray, *, prefix: str,
               hidden: int, epochs: int, seed: int, batch: int = 2048, lr: float = 3e-3,
               log: Callable[[str], None] = print) -> tuple[dict[str, np.ndarray], list[dict]]:
    """Adam on the ladder's mean binary cross-entropy plus the value's squared error (in hundreds),
    rows ``held`` kept out for the figures of each epoch."""
    jax, jnp, optax = jax_modules()
    train = np.flatnonzero(~held)
    val = np.flatnonzero(held)
    params = {k: jnp.asarray(v) for k, v in init_ladder(x.shape[1], hidden, seed, prefix).items()}
    steps = max(1, len(train) // batch)
    opt = optax.adam(optax.cosine_decay_schedule(lr, steps * epochs, alpha=0.05))
    state = opt.init(params)
    y_value = value / SCALE

    def loss_fn(p, xb, yb, vb):
        h = jax.nn.relu(xb @ p[f"{prefix}_W1"] + p[f"{prefix}_b1"])
        out = h @ p[f"{prefix}_W2"] + p[f"{prefix}_b2"]
        logits = out[:, :N_LADDER]
        bce = jnp.mean(jnp.maximum(logits, 0) - logits * yb + jnp.log1p(jnp.exp(-jnp.abs(logits))))
        return bce + jnp.mean((out[:, N_LADDER] - vb) ** 2), bce

    @jax.jit
    def step(p, s, xb, yb, vb):
        (value_, bce), grads = jax.value_and_grad(loss_fn, has_aux=True)(p, xb, yb, vb)
        updates, s = opt.update(grads, s, p)
        return optax.apply_updates(p, updates), s, value_

    rng = generator(INIT_AND_SHUFFLE, seed)
    history = []
    for epoch in range(epochs):
        t0 = time.perf_counter()
        order = train[rng.permutation(len(train))]
        total = 0.0
        for b in range(steps):
            rows = np.sort(order[b * batch:(b + 1) * batch])
            params, state, loss = step(params, state, x[rows], ladder[rows], y_value[rows])
            total += float(loss)
        arrays = {k: np.asarray(v, dtype=np.float32) for k, v in params.items()}
        rec = {"epoch": epoch + 1, "train_loss": total / steps, **ladder_figures(arrays, prefix, x[val], ladder[val],
                                                                                value[val]),
               "seconds": time.perf_counter() - t0}
        history.append(rec)
        log(f"net {prefix.upper()} epoch {epoch + 1}/{epochs}: train loss {rec['train_loss']:.4f}, held-out "
            f"cross-entropy {rec['val_bce']:.4f}, made at 100 {rec['val_made_100']:.3f} predicted "
            f"{rec['val_pred_100']:.3f}, value error {rec['val_value_rmse']:.1f} points")
    return {k: np.asarray(v, dtype=np.float32) for k, v in params.items()}, history


def ladder_figures(arrays: dict[str, np.ndarray], prefix: str, x: np.ndarray, ladder: np.ndarray,
                   value: np.ndarray) -> dict[str, float]:
    """Held-out figures of a ladder net: cross-entropy, the made rate and mean prediction at 100 and
    120, and the value's root mean squared error in points."""
    out = ladder_numpy(arrays, prefix, x)
    p = np.clip(out[:, :N_LADDER], 1e-6, 1 - 1e-6)
    bce = float(-(ladder * np.log(p) + (1 - ladder) * np.log(1 - p)).mean())
    i120 = (120 - LADDER_LO) // LADDER_STEP
    return {"val_bce": bce, "val_made_100": float(ladder[:, 0].mean()), "val_pred_100": float(p[:, 0].mean()),
            "val_made_120": float(ladder[:, i120].mean()), "val_pred_120": float(p[:, i120].mean()),
            "val_value_rmse": float(np.sqrt(((out[:, N_LADDER] - value) ** 2).mean()))}


def dark_figures(arrays: dict[str, np.ndarray], x_b: np.ndarray, ladder: np.ndarray, defence: np.ndarray) -> dict:
    """The two figures of ``sim.players.learned.bidding_nb.learned_dark``, over the playouts' hands: the dark game's
    mean result (120 made or lost, doubled) and a normal deal's mean result of a hand that declares
    at the opening bid when net B says it is worth more than defending, else defends."""
    out = ladder_numpy(arrays, "b", x_b)
    i120 = (DARK_BID - LADDER_LO) // LADDER_STEP
    dark = 2 * DARK_BID * (2 * ladder[:, i120] - 1)
    declares = OPENING * (2 * out[:, 0] - 1) >= out[:, N_LADDER]
    normal = np.where(declares, OPENING * (2 * ladder[:, 0] - 1), defence)
    return {"dark_value": float(dark.mean()), "first_hand_value": float(normal.mean()),
            "declare_share": float(declares.mean())}


def held_out_deals(n_deals: int, seed: int) -> np.ndarray:
    """bool (n_deals,): the playout deals held out of the bidding nets' fit to validate it (each
    deal's three playouts go together). A pure function of the number of deals and the seed, so
    that ``thousand train`` can refuse, before any work, sizes that hold out nothing."""
    return generator(HELD_OUT_DEALS, seed).random(n_deals) < BID_VALIDATION_SHARE


def fit_bidding(parts: list[tuple[np.ndarray, np.ndarray]], *, hidden: int, epochs: int, seed: int,
                log: Callable[[str], None] = print) -> tuple[dict[str, np.ndarray], dict]:
    """(the arrays b_* and c_*, the manifest's "bidding" record) fitted to playout parts, each
    (rows, rules array); the deals of ``held_out_deals`` held out."""
    table = np.stack([r for _, r in parts])
    cols: dict[str, list[np.ndarray]] = {}
    rules_of = []
    for k, (rows, rules_arr) in enumerate(parts):
        for name, v in bidding_rows(rows, rules_arr).items():
            cols.setdefault(name, []).append(v)
        rules_of.append(np.full(len(rows), k, dtype=np.int64))
    data = {k: np.concatenate(v) for k, v in cols.items()}
    rof = np.concatenate(rules_of)
    deals = np.arange(len(rof)) // 3
    held = held_out_deals(deals[-1] + 1, seed)[deals]
    x_b = ladder_inputs_of(data["b_hand"], np.zeros(len(rof), dtype=np.int64), table, rof, B_N_IN)
    x_c = ladder_inputs_of(data["c_hand"], data["c_deal_value"], table, rof, C_N_IN)
    b, b_hist = fit_ladder(x_b, data["ladder"], data["b_value"], held, prefix="b", hidden=hidden, epochs=epochs,
                           seed=seed, log=log)
    c, c_hist = fit_ladder(x_c, data["ladder"], data["c_value"], held, prefix="c", hidden=hidden, epochs=epochs,
                           seed=seed + 1, log=log)
    dark = dark_figures(b, x_b[held], data["ladder"][held], data["b_value"][held])
    record = {**{k: dark[k] for k in ("dark_value", "first_hand_value")}, "declare_share_at_opening":
              dark["declare_share"], "playouts": int(len(rof)), "history_b": b_hist, "history_c": c_hist,
              "mean_points": float(data["points"].mean())}
    return {**b, **c}, record
