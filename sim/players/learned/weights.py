"""The learned player's weights on disk: ``NAME.npz`` (float32 arrays of the card net) beside
``NAME.json`` (its manifest: what made it, and the SHA-256 of the npz). ``load_weights`` checks
both before anything is played, and packs the arrays into the blob the kernels read
(``layout``). A file that is missing, damaged, tampered with, or made for another
feature layout gets one ``WeightsError`` line naming the file and what is wrong.

What a learned player plays of a weights file is the packed blob: the manifest counts too (its
``bidding`` section says whether the bidding nets play and gives the dark game's figures), so a
result records the blob's SHA-256 (``weights_identity``), never the npz's alone.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import zipfile
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from sim import InputError
from sim.fingerprint import file_sha256
from sim.players.learned.layout import (
    B_N_IN,
    BH_DARK_VALUE,
    BH_FIRST_VALUE,
    BH_HIDDEN_B,
    BH_HIDDEN_C,
    BID_HEADER,
    C_N_IN,
    FEATURES_VERSION,
    N_IN,
    N_LADDER_OUT,
    NET_BIDDING,
    NET_H1,
    NET_H2,
    NET_HEADER,
    NET_N_IN,
    bidding_size,
    net_size,
)

__all__ = [
    "WEIGHTS_FORMAT", "WEIGHTS_DIR", "DEFAULT_WEIGHTS", "ARRAYS", "BIDDING_ARRAYS", "WeightsError", "shapes_of",
    "bidding_shapes_of", "has_bidding", "pack", "manifest_path", "write_manifest", "save_weights", "load_weights",
    "weights_identity", "weights_matrix",
]

WEIGHTS_FORMAT = 1
WEIGHTS_DIR = Path(__file__).parent.parent / "weights"  # sim/players/weights
DEFAULT_WEIGHTS = WEIGHTS_DIR / "learned-v4.npz"  # the weights the player "learned" plays with
ARRAYS = ("q_W1", "q_b1", "q_W2", "q_b2", "q_W3", "q_b3")
BIDDING_ARRAYS = ("b_W1", "b_b1", "b_W2", "b_b2", "c_W1", "c_b1", "c_W2", "c_b2")  # optional: the bidding nets


class WeightsError(InputError):
    """A weights file that cannot be used; the message names the file and what is wrong."""


def shapes_of(h1: int, h2: int) -> dict[str, tuple[int, ...]]:
    return {"q_W1": (N_IN, h1), "q_b1": (h1,), "q_W2": (h1, h2), "q_b2": (h2,), "q_W3": (3, h2, 24),
            "q_b3": (3, 24)}


def bidding_shapes_of(hb: int, hc: int) -> dict[str, tuple[int, ...]]:
    return {"b_W1": (B_N_IN, hb), "b_b1": (hb,), "b_W2": (hb, N_LADDER_OUT), "b_b2": (N_LADDER_OUT,),
            "c_W1": (C_N_IN, hc), "c_b1": (hc,), "c_W2": (hc, N_LADDER_OUT), "c_b2": (N_LADDER_OUT,)}


def has_bidding(arrays: Mapping[str, np.ndarray]) -> bool:
    return all(k in arrays for k in BIDDING_ARRAYS)


def pack(arrays: dict[str, np.ndarray], bidding: dict | None = None) -> np.ndarray:
    """The float32 blob of one learned player (``layout``): the card net (a header, then
    its arrays row-major), then, when ``arrays`` hold them, the bidding nets with their header
    (``bidding``: the manifest's figures of the dark game)."""
    h1, h2 = arrays["q_W1"].shape[1], arrays["q_W2"].shape[1]
    head = np.zeros(NET_HEADER, dtype=np.float32)
    head[NET_H1], head[NET_H2], head[NET_N_IN] = h1, h2, N_IN
    parts = [head] + [np.asarray(arrays[k], dtype=np.float32).ravel() for k in ARRAYS]
    if has_bidding(arrays):
        hb, hc = arrays["b_W1"].shape[1], arrays["c_W1"].shape[1]
        head[NET_BIDDING] = net_size(h1, h2)  # exact in float32 below 2**24
        bid_head = np.zeros(BID_HEADER, dtype=np.float32)
        bid_head[BH_HIDDEN_B], bid_head[BH_HIDDEN_C] = hb, hc
        bid_head[BH_DARK_VALUE] = (bidding or {}).get("dark_value", 0.0)
        bid_head[BH_FIRST_VALUE] = (bidding or {}).get("first_hand_value", 0.0)
        parts += [bid_head] + [np.asarray(arrays[k], dtype=np.float32).ravel() for k in BIDDING_ARRAYS]
    blob = np.concatenate(parts)
    assert blob.size == net_size(h1, h2) + (bidding_size(hb, hc) if has_bidding(arrays) else 0)
    return blob


def manifest_path(npz: Path) -> Path:
    return npz.with_suffix(".json")


def write_manifest(path: Path, meta: dict) -> None:
    """Write the JSON manifest ``meta`` to ``path`` through a temporary name (never half written),
    keys sorted, as every shipped file's manifest (weights, win tables) is."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def save_weights(npz: str | Path, arrays: dict[str, np.ndarray], manifest: dict) -> str:
    """Write ``npz`` and its manifest (each to a temporary name, then renamed: never a partial
    file); the manifest gains format, feature version, sizes and the npz's SHA-256, returned. A
    manifest holding a figure that is not finite (a fit that diverged) is refused before anything
    is written, as ``load_weights`` would refuse it."""
    npz = Path(npz)
    odd = _not_finite(manifest)
    if odd is not None:
        raise WeightsError(f"weights file {str(npz)!r} not written: its manifest's {odd[0]} would be {odd[1]}, not a "
                           "finite number")
    npz.parent.mkdir(parents=True, exist_ok=True)
    tmp = npz.with_name(npz.name + ".tmp.npz")
    names = ARRAYS + (BIDDING_ARRAYS if has_bidding(arrays) else ())
    np.savez(tmp, **{k: np.asarray(arrays[k], dtype=np.float32) for k in names})
    sha = file_sha256(tmp)
    os.replace(tmp, npz)
    h1, h2 = arrays["q_W1"].shape[1], arrays["q_W2"].shape[1]
    meta = {"format": WEIGHTS_FORMAT, "features_version": FEATURES_VERSION, "n_in": N_IN, "hidden": [h1, h2],
            **manifest, "npz_sha256": sha}
    if has_bidding(arrays):
        meta["bidding"] = {**manifest["bidding"], "hidden": [arrays["b_W1"].shape[1], arrays["c_W1"].shape[1]]}
    write_manifest(manifest_path(npz), meta)
    return sha


def load_weights(npz: str | Path) -> tuple[np.ndarray, dict]:
    """(the packed float32 blob, the manifest) of the weights file ``npz``, every check passed."""
    npz = Path(npz)
    name = str(npz)
    if npz.is_dir():
        raise WeightsError(f"weights file {name!r} is a folder, not a weights file (the NAME.npz of `thousand train`)")
    if not npz.is_file():
        raise WeightsError(f"weights file {name!r} does not exist")
    mpath = manifest_path(npz)
    if not mpath.is_file():
        raise WeightsError(f"weights file {name!r} has no manifest {mpath.name!r} beside it")
    try:
        meta = json.loads(mpath.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise WeightsError(f"the manifest of weights file {name!r} cannot be read: {e}") from None
    if not isinstance(meta, dict) or meta.get("format") != WEIGHTS_FORMAT:
        raise WeightsError(f"weights file {name!r}: its manifest is not a format-{WEIGHTS_FORMAT} weights manifest")
    odd = _not_finite(meta)
    if odd is not None:
        raise WeightsError(f"weights file {name!r}: its manifest's {odd[0]} is {odd[1]}, not a finite number; "
                           "train the weights again")
    if meta.get("features_version") != FEATURES_VERSION or meta.get("n_in") != N_IN:
        raise WeightsError(f"weights file {name!r} was made for feature layout {meta.get('features_version')} "
                           f"({meta.get('n_in')} inputs); this code reads layout {FEATURES_VERSION} ({N_IN} inputs): "
                           "train weights for it with `thousand train`")
    sha = file_sha256(npz)
    if sha != meta.get("npz_sha256"):
        raise WeightsError(f"weights file {name!r} is damaged or was changed: its SHA-256 is {sha[:16]}…, its manifest "
                           f"says {str(meta.get('npz_sha256'))[:16]}…")
    try:
        with np.load(npz, allow_pickle=False) as data:
            arrays = {k: data[k] for k in ARRAYS}
            if isinstance(meta.get("bidding"), dict):
                arrays.update({k: data[k] for k in BIDDING_ARRAYS})
    except (OSError, ValueError, KeyError, EOFError, TypeError, zipfile.BadZipFile) as e:
        # a file damaged where its manifest's SHA-256 matches the damage (made so, or the manifest
        # rewritten): not an npz, a member cut short or not an array
        raise WeightsError(f"weights file {name!r} cannot be read: {e}") from None
    hidden = meta.get("hidden")
    if not _two_sizes(hidden):
        raise WeightsError(f"weights file {name!r}: its manifest gives no valid hidden sizes ({hidden!r})")
    shapes = shapes_of(*hidden)
    bidding = meta.get("bidding")
    if bidding is not None:
        if not (isinstance(bidding, dict) and _two_sizes(bidding.get("hidden"))
                and all(isinstance(bidding.get(k), (int, float)) for k in ("dark_value", "first_hand_value"))):
            raise WeightsError(f"weights file {name!r}: its manifest's bidding nets have no valid sizes and "
                               "dark-game figures")
        shapes.update(bidding_shapes_of(*bidding["hidden"]))
    for k, shape in shapes.items():
        if arrays[k].shape != shape or arrays[k].dtype != np.float32 or not np.isfinite(arrays[k]).all():
            raise WeightsError(f"weights file {name!r}: array {k} is {arrays[k].dtype} {arrays[k].shape}, "
                               f"not finite float32 {shape}")
    return pack(arrays, bidding), meta


def weights_identity(npz: str | Path) -> str:
    """The identity a result records of the learned player of weights file ``npz``: the SHA-256 of
    its packed blob, everything its seats read (the card net, and the bidding nets with the
    manifest's dark-game figures where the manifest lets them play). Other weights, or the same npz
    under an edited manifest that plays otherwise, are another player; a manifest edited where play
    does not read it (its history, its name) is the same player.

    Remembered under the two files' bytes (hashed: 2 ms), since a run records it for every chunk it
    stores and packing the blob costs about 20 ms."""
    npz = Path(npz)
    return _identity_of(str(npz), _content_hash(npz), _content_hash(manifest_path(npz)))


def _content_hash(path: Path) -> str | None:
    """SHA-256 of the file's bytes, or None when it cannot be read (``load_weights`` then says
    why): part of the key under which ``weights_identity`` remembers an identity."""
    try:
        return file_sha256(path)
    except OSError:
        return None


@functools.lru_cache(maxsize=64)
def _identity_of(npz: str, npz_hash: str | None, manifest_hash: str | None) -> str:
    """``weights_identity`` of ``npz`` holding the bytes hashed (the hashes are the cache's key)."""
    return hashlib.sha256(load_weights(npz)[0].tobytes()).hexdigest()


def _not_finite(value, where: str = "") -> tuple[str, float] | None:
    """(where, as "bidding.dark_value" or "history.0.val_regret", the figure) of the first figure
    of a manifest that is not a finite number (Python's JSON reads NaN and Infinity), or None."""
    if isinstance(value, float) and not math.isfinite(value):
        return where, value
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = _not_finite(item, f"{where}.{key}" if where else str(key))
        if found is not None:
            return found
    return None


def _two_sizes(sizes) -> bool:
    """Whether a manifest's ``sizes`` are two hidden sizes a net may have."""
    return isinstance(sizes, list) and len(sizes) == 2 and all(isinstance(h, int) and 1 <= h <= 512 for h in sizes)


def weights_matrix(paths: list[str | Path]) -> tuple[np.ndarray, list[dict]]:
    """The kernels' ``net`` (one packed row per file, padded to the widest) and the manifests."""
    blobs, metas = zip(*(load_weights(p) for p in paths), strict=True)
    width = max(b.size for b in blobs)
    net = np.zeros((len(blobs), width), dtype=np.float32)
    for i, b in enumerate(blobs):
        net[i, :b.size] = b
    return net, list(metas)
