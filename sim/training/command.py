"""``thousand train``: rounds of play, label and fit (DAgger) into one folder, resumable.

Round 0 plays the heuristic player's cards with exploration; every later round plays the model
of the round before, so the positions labelled are the ones the learned player itself reaches.
Each round's positions are labelled by the exact solver and added to the earlier rounds' data,
and the net is fitted again on all of it (warm-started from the last model). The folder:

- ``train.json``: the specification and the code that runs it; another specification is refused;
- ``rR/part-NNNNN.npz``: a chunk's positions, labels and solver nodes, with the SHA-256 of the
  model that played them (a part made by another model is never reused, a damaged one is made
  again: every member is read whole, its checksum checked, before a part counts as made);
- ``rR/model.npz`` and ``.json``: the round's weights and manifest (curves, data, figures);
- ``bid/part-NNNNN.npz``: playouts of the last round's model (or of ``--cards``), every seat
  declaring each deal in turn (``sim.training.bidding``), with the SHA-256 of that model;
- ``learned.npz`` and ``.json``: the card net of the last round with the bidding nets fitted to
  the playouts, ready for play.

``--data DIR`` adds the labelled positions of another training folder's finished rounds to every
round's fit: labels do not depend on who played, so a wider net can be fitted to all the positions
earlier trainings bought. The model's manifest names those folders and what made them.

Every file is written under a temporary name and renamed, so Ctrl-C loses at most the parts and
the fit in flight, and the same command resumes.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
import zipfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from tqdm import tqdm

from sim import InputError, __version__
from sim.fingerprint import code_fingerprint, file_sha256
from sim.game.rules import HouseRules, load_rules
from sim.parallel import run_tasks, worker_count
from sim.players.learned.weights import ARRAYS, load_weights, save_weights, weights_matrix
from sim.runs import RunLock, check_output_dir, check_path_name, write_npz_atomic
from sim.streams import LABEL_SAMPLE, ROUND_HOLD_OUT, generator
from sim.training.bidding import BID_VALIDATION_SHARE, fit_bidding, generate_playouts, held_out_deals
from sim.training.fit import fit, make_dataset, make_positions, parse_loss
from sim.training.labels import label
from sim.training.positions import generate_positions, mixture_rules, trick_of

__all__ = [
    "SPEC_FILE", "PART_DEALS", "FIRST_EPSILON", "EPSILON", "VALIDATION_SHARE", "FIT_CHECKPOINT", "BID_PART_DEALS",
    "BID_INDEX", "TrainError", "TrainSpec", "train", "sample_by_trick", "data_folder_parts",
]

SPEC_FILE = "train.json"
PART_DEALS = 1_000  # deals of a part: a few seconds of labelling, little lost to Ctrl-C
FIRST_EPSILON = 0.15  # round 0 explores this often from the heuristic's cards
EPSILON = 0.05  # later rounds from the model's
VALIDATION_SHARE = 0.05  # deals held out of the fit
FIT_CHECKPOINT = "fit-checkpoint.npz"  # a round's fit after its last finished epoch
BID_PART_DEALS = 2_000  # deals of a playout part (each played three times)
BID_INDEX = 50_000_000  # chunk indices of the playout parts: apart from every round's
# The members of a round's part and of a playout part: a part counts as made when all read whole.
PART_MEMBERS = ("pos", "deals", "values", "nodes", "rules", "model_sha")
BID_PART_MEMBERS = ("rows", "rules", "model_sha")
# What reading a damaged npz raises (a zip cut short or altered: its checksums are checked on reading).
NPZ_ERRORS = (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile)


class TrainError(InputError):
    """A training run that cannot start or go on; the message names what is wrong."""


@dataclass(frozen=True)
class TrainSpec:
    rules: str = "mixture"  # "mixture" (the default weights' rule mix), a preset or a TOML file
    rounds: int = 3
    deals: int = 100_000  # deals a round
    labels: str = "true"  # "true" (the true deal) or "worlds:K" (K worlds drawn as PIMC draws them)
    hidden: tuple[int, int] = (256, 64)
    epochs: int = 10
    loss: str = "centred"  # sim.training.fit.parse_loss
    permute_suits: bool = True  # each batch's suits renamed by a random permutation (sim.training.augment)
    seed: int = 1
    bid_deals: int = 500_000  # deals of the bidding nets' playouts (each seat declares each in turn)
    bid_hidden: int = 64
    bid_epochs: int = 8
    cards: str = ""  # a weights file whose card net the bidding nets are fitted to, instead of the rounds
    start: str = ""  # a weights file that plays round 0 (instead of the heuristic); its fit starts from it when
    # the hidden sizes match, from scratch otherwise
    # The share of each trick's positions labelled, from trick 1 (later tricks: all). The solver
    # spends most of its time on the first two tricks, where the net errs least: labelling a share
    # of them buys more deals of the middle game for the same teacher's time.
    label_shares: tuple[float, ...] = ()
    # Folders of earlier trainings whose finished rounds' parts join every round's fit.
    data: tuple[str, ...] = ()

    def k_worlds(self) -> int:
        if self.labels == "true":
            return 0
        if self.labels.startswith("worlds:") and self.labels[7:].isdigit() and 1 <= int(self.labels[7:]) <= 64:
            return int(self.labels[7:])
        raise TrainError(f"--labels must be 'true' or 'worlds:K' with K from 1 to 64, not {self.labels!r}")

    def validate(self) -> None:
        self.k_worlds()
        if not 1 <= self.rounds <= 20:
            raise TrainError(f"--rounds must be from 1 to 20, not {self.rounds}")
        if not 10 <= self.deals <= 10_000_000:
            raise TrainError(f"--deals must be from 10 to 10,000,000, not {self.deals}")
        if not (len(self.hidden) == 2 and all(4 <= h <= 512 for h in self.hidden)):
            raise TrainError(f"--hidden must be two sizes from 4 to 512, not {self.hidden}")
        if not 1 <= self.epochs <= 100:
            raise TrainError(f"--epochs must be from 1 to 100, not {self.epochs}")
        if not 10 <= self.bid_deals <= 10_000_000:
            raise TrainError(f"--bid-deals must be from 10 to 10,000,000, not {self.bid_deals}")
        if not 4 <= self.bid_hidden <= 512:
            raise TrainError(f"--bid-hidden must be from 4 to 512, not {self.bid_hidden}")
        if not 1 <= self.bid_epochs <= 100:
            raise TrainError(f"--bid-epochs must be from 1 to 100, not {self.bid_epochs}")
        if not 0 <= self.seed < 2**63:
            raise TrainError(f"--seed must be from 0 to 2**63 - 1, not {self.seed}")
        if not held_out_deals(self.bid_deals, self.seed).any():
            raise TrainError(f"--bid-deals {self.bid_deals:,} with --seed {self.seed}: no deal is held out to "
                             f"validate the bidding nets ({BID_VALIDATION_SHARE:.0%} are, at random), so their fit "
                             "could not be checked; give more --bid-deals")
        if self.cards:
            load_weights(self.cards)  # a WeightsError (one line) when it cannot be played
        if self.start:
            if self.cards:
                raise TrainError("--start and --cards cannot go together: --cards trains no rounds")
            load_weights(self.start)
        if not (len(self.label_shares) <= 8 and all(0 < x <= 1 for x in self.label_shares)):
            raise TrainError("--label-shares must be at most 8 shares above 0 and at most 1, one a trick from "
                             f"trick 1, not {','.join(map(str, self.label_shares))}")
        if self.data and self.cards:
            raise TrainError("--data and --cards cannot go together: --cards trains no rounds")
        for folder in self.data:
            data_folder_parts(folder)  # a TrainError (one line) when it is no training or has no finished round

        try:
            parse_loss(self.loss)
        except ValueError as e:
            raise TrainError(f"--{e}") from None
        if self.rules != "mixture" and load_rules(self.rules).players == 2:
            raise TrainError(f"--rules {self.rules!r} has players = 2: the learned player is trained for and plays "
                             "3 and 4 players, and the 2-player deal gives it no positions to fit")

    def rules_of(self, index: int) -> HouseRules:
        if self.rules == "mixture":
            return mixture_rules(self.seed, index)
        return load_rules(self.rules)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["hidden"] = list(self.hidden)
        d["label_shares"] = list(self.label_shares)
        if self.data:  # absent when empty: a specification without it reads as it did before the option
            d["data"] = list(self.data)
        else:
            del d["data"]
        return d

    def label_share_of_trick(self) -> np.ndarray:
        """float64 (8,): the share of each trick's positions labelled."""
        shares = np.ones(8)
        shares[:len(self.label_shares)] = self.label_shares
        return shares


def train(out: str | Path, spec: TrainSpec, *, threads: int | None = None, log: Callable[[str], None] | None = None,
          progress: bool = False) -> Path:
    """Run (or resume) the training of ``spec`` in ``out``; the path of the final weights. ``log``
    takes each stage's lines (default: stderr); ``progress`` shows a bar a round while parts are
    made."""
    log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
    spec.validate()
    out = Path(out)
    check_path_name(out)
    if out.exists() and not out.is_dir():
        raise TrainError(f"--out {str(out)!r} is a file, not a folder")
    if any(Path(folder).resolve() == out.resolve() for folder in spec.data):
        raise TrainError(f"--data {str(out)!r} is the training folder itself")
    check_output_dir(out)  # a path under a file, or where nothing can be made (/proc): one line
    lock = RunLock(out).acquire()
    try:
        return _train(out, spec, threads, log, progress)
    finally:
        lock.release()


def _train(out: Path, spec: TrainSpec, threads: int | None, log, progress: bool) -> Path:
    # The same command with more --rounds goes on from the last round, and with fewer stops there.
    recorded = {"spec": _without_rounds(spec.to_dict()), "code_fingerprint": code_fingerprint(),
                "thousand_version": __version__}
    if spec.cards:
        recorded["cards_sha256"] = file_sha256(spec.cards)
    if spec.start:
        recorded["start_sha256"] = file_sha256(spec.start)
    spec_path = out / SPEC_FILE
    if spec_path.exists():
        try:
            old = json.loads(spec_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise TrainError(f"{spec_path} cannot be read ({e}); use a new --out") from None
        if {**old, "spec": _without_rounds(old.get("spec", {}))} != recorded:
            diff = [k for k in recorded["spec"] if old.get("spec", {}).get(k) != recorded["spec"][k]]
            what = (", ".join(f"{k} {old.get('spec', {}).get(k)!r}, not {recorded['spec'][k]!r}" for k in diff)
                    if diff else "made by other code")
            raise TrainError(f"{out} holds the training run of another specification ({what}); use a new --out")
        if "rounds" in old["spec"]:
            _write_json(spec_path, recorded)  # written by a version that counted the rounds as part of it
    else:
        _write_json(spec_path, recorded)
    data = [data_folder_parts(folder) for folder in spec.data]  # read once: every round's fit takes them
    data_parts: list[Path] = [p for parts, _ in data for p in parts]
    damaged = [p for p in data_parts if _part_model(p, PART_MEMBERS) is None]
    if damaged:  # another training's: not ours to make again
        more = f" (and {len(damaged) - 1} more)" if len(damaged) > 1 else ""
        raise TrainError(f"--data: part {damaged[0]} is damaged{more}; the same `thousand train` command in its "
                         "folder makes it again")
    data_folders = [record for _, record in data]
    if spec.data:
        log(f"data: {len(data_parts)} parts of {len(spec.data)} earlier training folder(s) join every fit")
    for record in data_folders:
        # Labels are the solver's values in the true deal: they change only where the solver or
        # the rules of play change, not with every version. Another version's data are used as
        # they are, said here and named in the model's manifest (made_by), never taken silently.
        made = record["made_by"]
        if made.get("thousand_version") != __version__:
            log(f"data: {record['folder']} was made by thousand {made.get('thousand_version')} (code "
                f"{made.get('code_fingerprint')}), this is {__version__}: its labels are used as they are")
    model_path: Path | None = Path(spec.start) if spec.start else None
    k = spec.k_worlds()
    n_parts = -(-spec.deals // PART_DEALS)
    for r in range(0 if spec.cards else spec.rounds):
        rdir = out / f"r{r}"
        rdir.mkdir(exist_ok=True)
        if model_path is None:
            net, model, eps, model_sha = None, -1, FIRST_EPSILON, "heuristic"
        else:
            net = weights_matrix([model_path])[0]
            model, eps, model_sha = 0, EPSILON, file_sha256(model_path)
        parts = [rdir / f"part-{i:05d}.npz" for i in range(n_parts)]
        todo = [i for i, p in enumerate(parts) if not _part_current(p, model_sha, PART_MEMBERS)]
        t0 = time.perf_counter()
        done = [n_parts - len(todo)]
        player = "the heuristic" if model < 0 else f"round {r - 1} model" if r > 0 else Path(spec.start).name
        shares = f" (labelling shares {list(spec.label_shares)} of tricks 1, 2, ...)" if spec.label_shares else ""
        log(f"round {r}: positions from {player}'s cards{shares}, labels "
            f"{'in the true deal' if k == 0 else f'over {k} worlds'}: {len(todo)} of {n_parts} parts to make")

        def make_part(i, parts=parts, net=net, model=model, eps=eps, model_sha=model_sha, r=r):
            index = r * 1_000_000 + i  # chunk index: unique over rounds
            rules = spec.rules_of(index)
            deals = min(PART_DEALS, spec.deals - i * PART_DEALS)
            pos, ids = generate_positions(rules, spec.seed, index, deals, net, model, eps)
            if spec.label_shares:
                keep = sample_by_trick(pos, spec.label_share_of_trick(), spec.seed, index)
                pos, ids = pos[keep], ids[keep]
            values, nodes = label(pos, rules, k, spec.seed * 7919 + index, threads=1)
            write_npz_atomic(parts[i], pos=pos, deals=ids, values=values, nodes=nodes, rules=rules.to_array(),
                      model_sha=np.array(model_sha))
            return len(pos), int(nodes.sum())

        bar = tqdm(total=n_parts, initial=done[0], desc=f"round {r} positions", unit="part", file=sys.stderr,
                   disable=not progress, dynamic_ncols=True)

        def on_result(_item, result, done=done, t0=t0, bar=bar, r=r):
            done[0] += 1
            bar.update(1)
            if not progress and (done[0] % max(1, n_parts // 20) == 0 or done[0] == n_parts):
                log(f"  round {r}: {done[0]}/{n_parts} parts, {time.perf_counter() - t0:.0f} s")

        try:
            run_tasks(make_part, [(i,) for i in todo], threads=threads, on_result=on_result)
        finally:
            bar.close()
        data_parts.extend(parts)
        model_out = rdir / "model.npz"
        if _model_current(model_out, data_parts, model_path, spec):
            log(f"round {r}: model already fitted")
        else:
            model_out = _fit_round(spec, r, data_parts, model_path, model_out, threads, log, out, data_folders)
        model_path = model_out
    if spec.cards:
        model_path = Path(spec.cards)
    final = out / "learned.npz"
    _bidding_stage(out, spec, model_path, final, threads, log, progress)
    load_weights(final)
    log(f"weights: {final}")
    return final


def _bidding_stage(out: Path, spec: TrainSpec, cards: Path, final: Path, threads, log, progress: bool) -> None:
    """Playouts of the card model ``cards`` in ``bid/``, then the bidding nets' fit, written with
    the card net as ``final``."""
    bdir = out / "bid"
    bdir.mkdir(exist_ok=True)
    net, (card_meta,) = weights_matrix([cards])
    model_sha = card_meta["npz_sha256"]  # load_weights checked it is the file's
    n_parts = -(-spec.bid_deals // BID_PART_DEALS)
    parts = [bdir / f"part-{i:05d}.npz" for i in range(n_parts)]
    todo = [i for i, p in enumerate(parts) if not _part_current(p, model_sha, BID_PART_MEMBERS)]
    log(f"bidding: playouts of {cards.name}'s play, every seat declaring each deal: {len(todo)} of {n_parts} parts "
        "to make")

    def make_part(i):
        index = BID_INDEX + i
        rules = spec.rules_of(index)
        rows = generate_playouts(rules, spec.seed, index, min(BID_PART_DEALS, spec.bid_deals - i * BID_PART_DEALS),
                                 net)
        write_npz_atomic(parts[i], rows=rows, rules=rules.to_array(), model_sha=np.array(model_sha))
        return len(rows)

    bar = tqdm(total=n_parts, initial=n_parts - len(todo), desc="bidding playouts", unit="part", file=sys.stderr,
               disable=not progress, dynamic_ncols=True)
    try:
        run_tasks(make_part, [(i,) for i in todo], threads=threads, on_result=lambda _item, _r: bar.update(1))
    finally:
        bar.close()
    parts_sha = _parts_digest(parts)
    if final.exists():
        try:
            _, meta = load_weights(final)
        except ValueError:
            meta = {}
        if meta.get("bidding", {}).get("parts_sha256") == parts_sha and meta.get("cards_sha256") == model_sha:
            log("bidding: nets already fitted")
            return

    data = []
    for p in parts:
        with np.load(p) as z:
            data.append((z["rows"], z["rules"]))
    log(f"bidding: fitting nets B and C on {sum(len(r) for r, _ in data):,} playouts")
    arrays, record = fit_bidding(data, hidden=spec.bid_hidden, epochs=spec.bid_epochs, seed=spec.seed,
                                 log=lambda m: log("  " + m))
    with np.load(cards) as z:
        arrays = {**{k: z[k] for k in ARRAYS}, **arrays}
    keep = {k: v for k, v in card_meta.items() if k not in ("format", "features_version", "n_in", "hidden",
                                                               "npz_sha256", "bidding")}
    import jax

    manifest = {**keep, "name": f"{keep.get('name', cards.stem)} with bidding nets", "cards_sha256": model_sha,
                "cards_file": cards.name,
                "bidding": {**record, "parts_sha256": parts_sha, "deals": spec.bid_deals, "epochs": spec.bid_epochs,
                            "spec": spec.to_dict(), "thousand_version": __version__,
                            "code_fingerprint": code_fingerprint(), "jax": jax.__version__}}
    save_weights(final, arrays, manifest)


def _fit_round(spec, r, data_parts, init_path, model_out, threads, log, out: Path, data_folders: list[dict]) -> Path:
    # Whole deals are held out, each part's from the round's seed.
    rng = generator(ROUND_HOLD_OUT, spec.seed, r)
    val_parts: list = []
    positions = 0
    nodes = 0
    # Two passes over the parts: the deal ids first (which deals are held out), then the rows, each
    # part's copied into the training arrays made once, so that the fit's memory is its rows' alone.
    held_out = []
    for p in data_parts:
        with np.load(p) as z:
            deals = z["deals"]
            nodes += int(z["nodes"].sum())
        positions += len(deals)
        held_out.append((rng.random(int(deals.max()) + 1) < VALIDATION_SHARE)[deals] if len(deals)
                        else deals.astype(bool))

    def training_rows():
        for p, held in zip(data_parts, held_out, strict=True):
            with np.load(p) as z:
                pos, values, rules_arr, deals = z["pos"], z["values"], z["rules"], z["deals"]
            val_parts.append((pos[held], values[held], rules_arr, deals[held]))
            yield pos[~held], values[~held], rules_arr, deals[~held]

    n_held = sum(int(held.sum()) for held in held_out)
    if positions == 0 or n_held in (0, positions):
        raise TrainError(f"round {r}: {positions:,} positions, {n_held:,} of them held out to validate the fit "
                         f"(the positions of {VALIDATION_SHARE:.0%} of the deals, at random): nothing to fit or "
                         "nothing to check it on; give more --deals (in a new --out)")
    train_set = make_positions(training_rows(), n=positions - n_held)
    val_set = make_dataset(val_parts)
    init = None
    init_path = _fit_start(spec, init_path)
    if init_path is not None:
        with np.load(init_path) as z:
            init = {k: z[k] for k in ARRAYS}  # the card net's (a --start file may hold bidding nets too)
    log(f"round {r}: fitting on {len(train_set):,} positions ({len(val_set):,} held out)"
        + (", each batch's suits permuted" if spec.permute_suits else ""))
    # A Ctrl-C during the fit loses at most the epoch in flight: the same command goes on from the
    # last finished one. The key names the fit's data, start and settings.
    parts_sha = _parts_digest(data_parts)  # hashes every part: once, for the checkpoint and the manifest
    init_sha = file_sha256(init_path) if init_path else None
    checkpoint = model_out.with_name(FIT_CHECKPOINT)
    key = json.dumps({"parts": parts_sha, "init": init_sha, "spec": _without_rounds(spec.to_dict()), "round": r},
                     sort_keys=True)
    arrays, history = fit(train_set, val_set, hidden=spec.hidden, epochs=spec.epochs, seed=spec.seed + r,
                          init=init, lr=1e-3 if init is None else 4e-4, loss=spec.loss,
                          permute=spec.permute_suits, log=lambda m: log("  " + m), checkpoint=checkpoint,
                          checkpoint_key=key)
    import jax
    import optax

    manifest = {
        "name": f"round {r}", "spec": spec.to_dict(), "round": r, "thousand_version": __version__,
        "code_fingerprint": code_fingerprint(), "jax": jax.__version__, "optax": optax.__version__,
        "numpy": np.__version__, "data": {"parts": [_part_name(p, out) for p in data_parts],
                                          "positions": positions, "solver_nodes": nodes,
                                          **({"folders": data_folders} if data_folders else {})},
        "parts_sha256": parts_sha, "init_sha256": init_sha,
        "history": history, "threads": worker_count(threads),
    }
    save_weights(model_out, arrays, manifest)
    checkpoint.unlink(missing_ok=True)
    return model_out


def sample_by_trick(pos: np.ndarray, shares: np.ndarray, seed: int, index: int) -> np.ndarray:
    """bool (n,): the positions of chunk ``index`` kept for labelling, each of trick t with
    probability ``shares[t]`` (a pure function of the seed, the index and the rows)."""
    trick = trick_of(pos)
    draw = generator(LABEL_SAMPLE, seed, index).random(len(pos))
    return draw < shares[trick]


def data_folder_parts(folder: str | Path) -> tuple[list[Path], dict]:
    """The parts of a training folder's finished rounds (those whose model is fitted), in round
    order, and a record of what made them (its train.json and the rounds). A folder that is not a
    training, or has no finished round, is a TrainError."""
    folder = Path(folder)
    spec_path = folder / SPEC_FILE
    if not spec_path.is_file():
        raise TrainError(f"--data {str(folder)!r} is not a training folder (it has no {SPEC_FILE})")
    try:
        made = json.loads(spec_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise TrainError(f"--data {str(folder)!r}: {SPEC_FILE} cannot be read ({e})") from None
    if not isinstance(made, dict) or not isinstance(made.get("spec"), dict):
        raise TrainError(f"--data {str(folder)!r}: {SPEC_FILE} is not a training's specification")
    parts: list[Path] = []
    rounds = 0
    while (folder / f"r{rounds}" / "model.npz").is_file():
        parts.extend(sorted((folder / f"r{rounds}").glob("part-*.npz")))
        rounds += 1
    if not parts:
        raise TrainError(f"--data {str(folder)!r} has no finished round (a round is finished when its model is "
                         "fitted)")
    return parts, {"folder": str(folder), "rounds": rounds, "parts": len(parts), "made_by": made}


def _part_name(part: Path, out: Path) -> str:
    """A part as a manifest names it: rR/part-NNNNN.npz in the training folder ``out``, and a
    --data folder's part by its path (DIR/rR/part-NNNNN.npz)."""
    return part.relative_to(out).as_posix() if part.is_relative_to(out) else part.as_posix()


def _without_rounds(spec: dict) -> dict:
    """A spec as a training folder holds it: the number of rounds is not part of it (round r depends
    only on the rounds before it)."""
    return {k: v for k, v in spec.items() if k != "rounds"}


def _parts_digest(parts: list[Path]) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(file_sha256(p).encode())
    return h.hexdigest()


def _fit_start(spec: TrainSpec, init_path: Path | None) -> Path | None:
    """The net a round's fit starts from: the model that played it, unless its hidden sizes differ
    from the spec's (a --start file of other sizes plays round 0, whose fit starts from scratch)."""
    if init_path is None:
        return None
    with np.load(init_path) as z:
        return init_path if z["q_W2"].shape == tuple(spec.hidden) else None


def _model_current(model_out: Path, parts: list[Path], init_path: Path | None, spec: TrainSpec) -> bool:
    if not model_out.exists():
        return False
    init_path = _fit_start(spec, init_path)
    try:
        _, meta = load_weights(model_out)
    except ValueError:
        return False
    return (meta.get("parts_sha256") == _parts_digest(parts)
            and meta.get("init_sha256") == (file_sha256(init_path) if init_path else None))


def _part_current(path: Path, model_sha: str, members: tuple[str, ...]) -> bool:
    """Whether the part ``path`` was made by the model ``model_sha`` and reads whole."""
    return _part_model(path, members) == model_sha


def _part_model(path: Path, members: tuple[str, ...]) -> str | None:
    """The SHA-256 of the model that made the part ``path``, or None when it is missing or damaged
    (to be made again): each of its ``members`` is read to its end, where the zip checks its
    checksum, so that a part damaged anywhere is found here rather than failing the fit."""
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as z:
            for k in members:
                z[k]  # noqa: B018  (read whole: a damaged member raises here)
            return str(z["model_sha"])
    except NPZ_ERRORS:
        return None


def _write_json(path: Path, data: dict) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)
