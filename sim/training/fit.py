"""Fitting the card net to the solver's labels, in JAX on the CPU (the optional ``train`` extra:
``pip install -e '.[train]'``). The loss is the squared error of the acting role's 24 outputs
against the labels (in hundreds of points), over the legal cards only. The net is the one
``sim.players.learned.cards_nb.q_forward`` computes: inputs → ReLU(H1) → ReLU(H2) → 3 role heads of 24.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim import ThousandError
from sim.players.learned.cards_nb import features_rows
from sim.players.learned.layout import D_CONTRACT, D_NEED, MAX_ACTIVE, N_DENSE, N_SPARSE, P_DECLARER, P_SEAT
from sim.players.learned.weights import ARRAYS
from sim.runs import write_npz_atomic
from sim.streams import INIT_AND_SHUFFLE, generator
from sim.training.augment import permute_rules, permute_suits
from sim.training.positions import trick_of

__all__ = [
    "SCALE", "ALL_PERMUTATIONS", "TrainExtraMissing", "Dataset", "PositionSet", "make_positions", "batch_inputs",
    "make_dataset", "init_params", "forward_numpy", "regret", "LOSSES", "MADE_WEIGHT", "POINTS_WEIGHT",
    "contract_targets", "parse_loss", "fit", "jax_modules",
]

SCALE = 100.0  # labels and outputs are in hundreds of points
ALL_PERMUTATIONS = tuple(itertools.permutations(range(4)))


class TrainExtraMissing(ThousandError):
    """JAX or optax is not installed."""


def jax_modules() -> tuple:
    """(jax, jax.numpy, optax), imported only when a net is trained: the train extra is optional,
    and without it training is refused in one line (TrainExtraMissing)."""
    try:
        import jax
        import jax.numpy as jnp
        import optax
    except ImportError:
        raise TrainExtraMissing("training needs the train extra: pip install -e '.[train]' (JAX and optax, CPU "
                                "only)") from None
    return jax, jnp, optax


@dataclass
class Dataset:
    """Positions as the net's inputs, with their labels."""

    sparse: np.ndarray  # uint8 (n, N_SPARSE)
    dense: np.ndarray  # float32 (n, N_DENSE)
    role: np.ndarray  # int32 (n,)
    target: np.ndarray  # float32 (n, 24), labels / SCALE
    mask: np.ndarray  # float32 (n, 24), 1 where the card is legal and labelled
    trick: np.ndarray  # int8 (n,): trick number 0..7
    group: np.ndarray  # int64 (n,): deal id, unique over the dataset

    def __len__(self) -> int:
        return len(self.role)


@dataclass
class PositionSet:
    """Stored positions with their labels, whose inputs are computed batch by batch (memory stays
    that of the rows, 416 bytes a position, whatever the copies a suit permutation makes)."""

    pos: np.ndarray  # int64 (n, P_N)
    values: np.ndarray  # float32 (n, 24): labels, -1 where not legal
    rules_table: np.ndarray  # int64 (k, rules fields): the parts' rule sets
    rules_of: np.ndarray  # int64 (n,): each row's rule set

    def __len__(self) -> int:
        return len(self.pos)


def make_positions(parts: Iterable[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]],
                   n: int | None = None) -> PositionSet:
    """A PositionSet of (positions, labels, rules array, deal ids) parts, in their order. With ``n``
    (the rows of all the parts) the parts may come one at a time (a generator): each is copied into
    arrays of ``n`` rows made once, so memory is the rows' alone, never the parts' and their
    concatenation at once (tens of millions of positions)."""
    if n is None:
        parts = list(parts)
        n = sum(len(p[0]) for p in parts)
    table: list[np.ndarray] = []
    pos = values = None
    rules_of = np.empty(n, dtype=np.int64)
    at = 0
    for part_pos, part_values, rules_arr, _deals in parts:
        if pos is None:
            pos = np.empty((n, *part_pos.shape[1:]), dtype=part_pos.dtype)
            values = np.empty((n, *part_values.shape[1:]), dtype=part_values.dtype)
        k = next((i for i, t in enumerate(table) if np.array_equal(t, rules_arr)), None)
        if k is None:
            table.append(rules_arr)
            k = len(table) - 1
        m = len(part_pos)
        pos[at:at + m], values[at:at + m], rules_of[at:at + m] = part_pos, part_values, k
        at += m
    if at != n or pos is None:
        raise ValueError(f"the parts hold {at} positions, not the {n} announced")
    return PositionSet(pos, values, np.stack(table), rules_of)


def batch_inputs(data: PositionSet, rows: np.ndarray, perm: tuple[int, ...] | None) -> tuple[np.ndarray, ...]:
    """(sparse, dense, role, target, mask) of ``rows``, the suits renamed by ``perm`` (None: as
    stored; ``sim.training.augment``)."""
    pos, values, table = data.pos[rows], data.values[rows], data.rules_table
    if perm is not None:
        pos, values, _ = permute_suits(pos, values, table[0], perm)
        table = permute_rules(table, perm)
    n = len(rows)
    xs = np.zeros((n, N_SPARSE), dtype=np.uint8)
    xd = np.zeros((n, N_DENSE), dtype=np.float32)
    features_rows(pos, table, data.rules_of[rows], xs, xd, np.zeros(MAX_ACTIVE, dtype=np.int64),
                  np.zeros(N_DENSE, dtype=np.float32))
    role = ((pos[:, P_SEAT] - pos[:, P_DECLARER]) % 3).astype(np.int32)
    mask = (values >= 0).astype(np.float32)
    return xs, xd, role, np.where(values >= 0, values / SCALE, 0).astype(np.float32), mask


def make_dataset(parts: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]) -> Dataset:
    """A Dataset of (positions, labels, rules array, deal ids) parts: the inputs of all their
    rows at once (``batch_inputs``), with each row's trick and a deal id unique over the parts."""
    data = make_positions(parts)
    inputs = batch_inputs(data, np.arange(len(data)), None)
    offsets = np.cumsum([0] + [int(deals.max()) + 1 if len(deals) else 0 for *_, deals in parts[:-1]])
    groups = np.concatenate([deals + off for (*_, deals), off in zip(parts, offsets, strict=True)])
    return Dataset(*inputs, trick_of(data.pos).astype(np.int8), groups)


def init_params(hidden: tuple[int, int], seed: int) -> dict[str, np.ndarray]:
    """He-initialised float32 arrays named as ``sim.players.learned.weights.ARRAYS``."""
    h1, h2 = hidden
    rng = generator(INIT_AND_SHUFFLE, seed)
    n_in = N_SPARSE + N_DENSE
    return {
        "q_W1": (rng.standard_normal((n_in, h1)) * np.sqrt(2.0 / 60)).astype(np.float32),  # about 60 inputs are on
        "q_b1": np.zeros(h1, np.float32),
        "q_W2": (rng.standard_normal((h1, h2)) * np.sqrt(2.0 / h1)).astype(np.float32),
        "q_b2": np.zeros(h2, np.float32),
        "q_W3": (rng.standard_normal((3, h2, 24)) * np.sqrt(1.0 / h2)).astype(np.float32),
        "q_b3": np.full((3, 24), 0.5, np.float32),
    }


def forward_numpy(params: dict[str, np.ndarray], sparse: np.ndarray, dense: np.ndarray,
                  role: np.ndarray) -> np.ndarray:
    """The net's outputs (n, 24) for the acting roles, in plain numpy (float64)."""
    x = np.concatenate([sparse.astype(np.float64), dense.astype(np.float64)], axis=1)
    h1 = np.maximum(0, x @ params["q_W1"].astype(np.float64) + params["q_b1"])
    h2 = np.maximum(0, h1 @ params["q_W2"].astype(np.float64) + params["q_b2"])
    w3 = params["q_W3"].astype(np.float64)[role]  # (n, h2, 24)
    return np.einsum("nk,nkc->nc", h2, w3) + params["q_b3"][role]


def regret(pred: np.ndarray, data: Dataset) -> np.ndarray:
    """Points lost per decision by playing the net's best legal card, against the labels' best."""
    legal = data.mask > 0
    declarer = data.role == 0
    big = np.float32(1e9)
    score = np.where(legal, np.where(declarer[:, None], pred, -pred), -big)
    chosen = score.argmax(axis=1)  # ties: the lowest index, as the player
    value = np.where(legal, np.where(declarer[:, None], data.target, -data.target), -big)
    best = value.max(axis=1)
    got = value[np.arange(len(chosen)), chosen]
    return (best - got) * SCALE


LOSSES = ("mse", "centred", "contract")  # and "contract:W" (parse_loss)
# The "contract" loss's targets: the declarer's result less the opponents' mean, up to a constant
# the centring drops. Making the contract swings his result by twice the contract; each point he
# takes moves the defenders' mean by half a point.
MADE_WEIGHT = 2.0
POINTS_WEIGHT = 0.5
MAX_MADE_WEIGHT = 10.0


def parse_loss(loss: str) -> tuple[str, float, float]:
    """(the kind, the contract's weight, the points' weight) of a loss name: "mse", "centred",
    "contract" (MADE_WEIGHT, POINTS_WEIGHT: the declarer's result less the opponents' mean) or
    "contract:W" (the points plus W times the contract where it is made: W between 0 and
    MAX_MADE_WEIGHT weighs the threshold against the points, 0 being "centred"). A ValueError
    names any other."""
    if loss in ("mse", "centred"):
        return loss, 0.0, 1.0
    if loss == "contract":
        return loss, MADE_WEIGHT, POINTS_WEIGHT
    if loss.startswith("contract:"):
        try:
            w = float(loss[9:])
        except ValueError:
            w = -1.0
        if 0 <= w <= MAX_MADE_WEIGHT:
            return "contract", w, 1.0
    raise ValueError(f"loss must be mse, centred, contract or contract:W with W from 0 to {MAX_MADE_WEIGHT:g}, "
                     f"not {loss!r}")


def contract_targets(target: np.ndarray, mask: np.ndarray, dense: np.ndarray, made_weight: float = MADE_WEIGHT,
                     points_weight: float = POINTS_WEIGHT) -> np.ndarray:
    """Each legal card's exact value as the contract sees it (in hundreds): ``made_weight`` times
    the contract where the declarer's points to come after it reach what he still needs (the dense
    inputs D_NEED, D_CONTRACT), plus ``points_weight`` times the points."""
    need = np.rint(dense[:, D_NEED].astype(np.float64) * SCALE)
    made = target.astype(np.float64) * SCALE >= need[:, None] - 1e-6
    value = made_weight * dense[:, D_CONTRACT, None] * made + points_weight * target
    return np.where(mask > 0, value, 0).astype(np.float32)


def fit(train: Dataset | PositionSet, val: Dataset, *, hidden: tuple[int, int] = (128, 32), epochs: int = 6,
        batch: int = 1024, lr: float = 1e-3, seed: int = 1, init: dict | None = None, loss: str = "mse",
        permute: bool = False, log: Callable[[str], None] = print, checkpoint: Path | None = None,
        checkpoint_key: str = "") -> tuple[dict[str, np.ndarray], list[dict]]:
    """Adam on the masked squared error (``loss`` "mse"), or on the error of each legal card's
    value less the position's mean over its legal cards plus a tenth of the means' error
    ("centred": the capacity goes to the differences between cards, which decide the play), or
    the centred error of the values as the contract sees them ("contract", "contract:W": ``parse_loss``,
    ``contract_targets``).
    ``train`` as a PositionSet computes its inputs batch by batch, and with ``permute`` renames
    the suits of each batch by a permutation drawn from the 24 (``sim.training.augment``).
    With ``checkpoint`` each finished epoch is saved there (the net, the optimiser's state and the
    batch order's generator), and a fit started again with the same ``checkpoint_key`` goes on
    after the last saved epoch, to the same bytes as one never stopped.
    Returns (the arrays, one record per epoch: losses and validation regret by trick)."""
    loss, made_weight, points_weight = parse_loss(loss)
    if loss == "contract":
        val = dataclasses.replace(val, target=contract_targets(val.target, val.mask, val.dense, made_weight,
                                                               points_weight))
    jax, jnp, optax = jax_modules()
    params = {k: jnp.asarray(v) for k, v in (init or init_params(hidden, seed)).items()}
    steps_per_epoch = max(1, len(train) // batch)
    schedule = optax.cosine_decay_schedule(lr, steps_per_epoch * epochs, alpha=0.05)
    opt = optax.adam(schedule)
    state = opt.init(params)

    def predict(p, xs, xd, role):
        x = jnp.concatenate([xs.astype(jnp.float32), xd], axis=1)
        h1 = jax.nn.relu(x @ p["q_W1"] + p["q_b1"])
        h2 = jax.nn.relu(h1 @ p["q_W2"] + p["q_b2"])
        out = jnp.einsum("nk,rkc->nrc", h2, p["q_W3"]) + p["q_b3"][None]
        return jnp.take_along_axis(out, role[:, None, None], axis=1)[:, 0]

    def loss_fn(p, xs, xd, role, y, m):
        pred = predict(p, xs, xd, role)
        if loss == "mse":
            err = (pred - y) * m
            return (err * err).sum() / jnp.maximum(1.0, m.sum())
        count = jnp.maximum(1.0, m.sum(axis=1, keepdims=True))
        pm = (pred * m).sum(axis=1, keepdims=True) / count
        ym = (y * m).sum(axis=1, keepdims=True) / count
        err = (pred - pm - (y - ym)) * m
        return ((err * err).sum() + 0.1 * ((pm - ym) ** 2).sum()) / jnp.maximum(1.0, m.sum())

    @jax.jit
    def step(p, s, xs, xd, role, y, m):
        value, grads = jax.value_and_grad(loss_fn)(p, xs, xd, role, y, m)
        updates, s = opt.update(grads, s, p)
        return optax.apply_updates(p, updates), s, value

    predict_jit = jax.jit(predict)

    def evaluate(p, data):
        preds = []
        for lo in range(0, len(data), 8192):
            preds.append(np.asarray(predict_jit(p, data.sparse[lo:lo + 8192], data.dense[lo:lo + 8192],
                                                data.role[lo:lo + 8192])))
        pred = np.concatenate(preds) if preds else np.zeros((0, 24), np.float32)
        err = (pred - data.target) * data.mask
        mse = float((err * err).sum() / max(1.0, data.mask.sum()))
        r = regret(pred, data)
        return mse, r

    rng = generator(INIT_AND_SHUFFLE, seed)
    history = []
    if checkpoint is not None:
        saved = _load_checkpoint(checkpoint, checkpoint_key, state, jax)
        if saved is not None:
            params, state, rng.bit_generator.state, history = saved
            log(f"going on from epoch {len(history)} (a checkpoint of this fit)")
    for epoch in range(len(history), epochs):
        t0 = time.perf_counter()
        order = rng.permutation(len(train))
        total = 0.0
        for b in range(steps_per_epoch):
            rows = np.sort(order[b * batch:(b + 1) * batch])
            if isinstance(train, PositionSet):
                perm = ALL_PERMUTATIONS[rng.integers(len(ALL_PERMUTATIONS))] if permute else None
                inputs = batch_inputs(train, rows, perm)
            else:
                inputs = (train.sparse[rows], train.dense[rows], train.role[rows], train.target[rows],
                          train.mask[rows])
            if loss == "contract":
                xs, xd, role, y, m = inputs
                inputs = (xs, xd, role, contract_targets(y, m, xd, made_weight, points_weight), m)
            params, state, batch_loss = step(params, state, *inputs)
            total += float(batch_loss)
        mse, r = evaluate(params, val)
        by_trick = [float(r[val.trick == t].mean()) if (val.trick == t).any() else None for t in range(8)]
        rec = {"epoch": epoch + 1, "train_loss": total / steps_per_epoch, "val_mse": mse,
               "val_regret": float(r.mean()), "val_regret_per_deal": float(r.sum() / max(1, len(np.unique(val.group)))),
               "val_regret_by_trick": by_trick, "seconds": time.perf_counter() - t0}
        history.append(rec)
        if checkpoint is not None:
            _save_checkpoint(checkpoint, checkpoint_key, params, state, rng, history, jax)
        log(f"epoch {epoch + 1}/{epochs}: train loss {rec['train_loss']:.5f}, val mse {mse:.5f}, val regret "
            f"{rec['val_regret']:.3f} points a decision ({rec['val_regret_per_deal']:.2f} a deal), "
            f"{rec['seconds']:.0f} s")
    return {k: np.asarray(params[k], dtype=np.float32) for k in ARRAYS}, history


def _save_checkpoint(path: Path, key: str, params, state, rng, history: list[dict], jax) -> None:
    """The fit after an epoch, written atomically: a Ctrl-C leaves the last whole checkpoint."""
    leaves = jax.tree_util.tree_leaves(state)
    meta = {"key": key, "rng": rng.bit_generator.state, "history": history, "leaves": len(leaves)}
    write_npz_atomic(path, meta=np.array(json.dumps(meta)), **{f"param_{k}": np.asarray(params[k]) for k in ARRAYS},
                     **{f"state_{i}": np.asarray(leaf) for i, leaf in enumerate(leaves)})


def _load_checkpoint(path: Path, key: str, state, jax):
    """(params, optimiser state, generator state, history) saved for this fit's ``key``, or None
    when there is no such checkpoint (none, another fit's, or unreadable: the fit starts over)."""
    if not path.exists():
        return None
    try:
        with np.load(path) as z:
            meta = json.loads(str(z["meta"]))
            leaves, treedef = jax.tree_util.tree_flatten(state)
            if meta.get("key") != key or meta.get("leaves") != len(leaves):
                return None
            params = {k: jax.numpy.asarray(z[f"param_{k}"]) for k in ARRAYS}
            saved = [jax.numpy.asarray(z[f"state_{i}"], dtype=leaf.dtype) for i, leaf in enumerate(leaves)]
    except (OSError, ValueError, KeyError):
        return None
    return params, jax.tree_util.tree_unflatten(treedef, saved), meta["rng"], meta["history"]
