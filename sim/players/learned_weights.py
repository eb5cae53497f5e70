"""The learned player's weights on disk: ``NAME.npz`` (float32 arrays of the card net) beside
``NAME.json`` (its manifest: what made it, and the SHA-256 of the npz). ``load_weights`` checks
both before anything is played, and packs the arrays into the blob the kernels read
(``learned_layout``). A file that is missing, damaged, tampered with, or made for another
feature layout gets one ``WeightsError`` line naming the file and what is wrong.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from sim.fingerprint import file_sha256
from sim.players.learned_layout import FEATURES_VERSION, N_IN, NET_H1, NET_H2, NET_HEADER, NET_N_IN, net_size

WEIGHTS_FORMAT = 1
WEIGHTS_DIR = Path(__file__).parent / "weights"
DEFAULT_WEIGHTS = WEIGHTS_DIR / "learned-v2.npz"  # the weights the player "learned" plays with
ARRAYS = ("q_W1", "q_b1", "q_W2", "q_b2", "q_W3", "q_b3")


class WeightsError(ValueError):
    """A weights file that cannot be used; the message names the file and what is wrong."""


def shapes_of(h1: int, h2: int) -> dict[str, tuple[int, ...]]:
    return {"q_W1": (N_IN, h1), "q_b1": (h1,), "q_W2": (h1, h2), "q_b2": (h2,), "q_W3": (3, h2, 24),
            "q_b3": (3, 24)}


def pack(arrays: dict[str, np.ndarray]) -> np.ndarray:
    """The float32 blob of one card net (``learned_layout``: a header, then the arrays row-major)."""
    h1, h2 = arrays["q_W1"].shape[1], arrays["q_W2"].shape[1]
    head = np.zeros(NET_HEADER, dtype=np.float32)
    head[NET_H1], head[NET_H2], head[NET_N_IN] = h1, h2, N_IN
    blob = np.concatenate([head] + [np.asarray(arrays[k], dtype=np.float32).ravel() for k in ARRAYS])
    assert blob.size == net_size(h1, h2)
    return blob


def manifest_path(npz: Path) -> Path:
    return npz.with_suffix(".json")


def save_weights(npz: str | Path, arrays: dict[str, np.ndarray], manifest: dict) -> str:
    """Write ``npz`` and its manifest (each to a temporary name, then renamed: never a partial
    file); the manifest gains format, feature version, sizes and the npz's SHA-256, returned."""
    npz = Path(npz)
    npz.parent.mkdir(parents=True, exist_ok=True)
    tmp = npz.with_name(npz.name + ".tmp.npz")
    np.savez(tmp, **{k: np.asarray(arrays[k], dtype=np.float32) for k in ARRAYS})
    sha = file_sha256(tmp)
    os.replace(tmp, npz)
    h1, h2 = arrays["q_W1"].shape[1], arrays["q_W2"].shape[1]
    meta = {"format": WEIGHTS_FORMAT, "features_version": FEATURES_VERSION, "n_in": N_IN, "hidden": [h1, h2],
            **manifest, "npz_sha256": sha}
    mpath = manifest_path(npz)
    tmp_json = mpath.with_name(mpath.name + ".tmp")
    tmp_json.write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp_json, mpath)
    return sha


def load_weights(npz: str | Path) -> tuple[np.ndarray, dict]:
    """(the packed float32 blob, the manifest) of the weights file ``npz``, every check passed."""
    npz = Path(npz)
    name = str(npz)
    mpath = manifest_path(npz)
    if not npz.is_file():
        raise WeightsError(f"weights file {name!r} does not exist")
    if not mpath.is_file():
        raise WeightsError(f"weights file {name!r} has no manifest {mpath.name!r} beside it")
    try:
        meta = json.loads(mpath.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise WeightsError(f"the manifest of weights file {name!r} cannot be read: {e}") from None
    if not isinstance(meta, dict) or meta.get("format") != WEIGHTS_FORMAT:
        raise WeightsError(f"weights file {name!r}: its manifest is not a format-{WEIGHTS_FORMAT} weights manifest")
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
    except (OSError, ValueError, KeyError) as e:
        raise WeightsError(f"weights file {name!r} cannot be read: {e}") from None
    hidden = meta.get("hidden")
    if not (isinstance(hidden, list) and len(hidden) == 2 and all(isinstance(h, int) and 1 <= h <= 512
                                                                  for h in hidden)):
        raise WeightsError(f"weights file {name!r}: its manifest gives no valid hidden sizes ({hidden!r})")
    for k, shape in shapes_of(*hidden).items():
        if arrays[k].shape != shape or arrays[k].dtype != np.float32 or not np.isfinite(arrays[k]).all():
            raise WeightsError(f"weights file {name!r}: array {k} is {arrays[k].dtype} {arrays[k].shape}, "
                               f"not finite float32 {shape}")
    return pack(arrays), meta


def weights_matrix(paths: list[str | Path]) -> tuple[np.ndarray, list[dict]]:
    """The kernels' ``net`` (one packed row per file, padded to the widest) and the manifests."""
    blobs, metas = zip(*(load_weights(p) for p in paths), strict=True)
    width = max(b.size for b in blobs)
    net = np.zeros((len(blobs), width), dtype=np.float32)
    for i, b in enumerate(blobs):
        net[i, :b.size] = b
    return net, list(metas)
