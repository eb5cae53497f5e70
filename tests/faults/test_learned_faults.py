"""A weights file that is missing, damaged, tampered with or made for another layout, and the
learned player where it cannot play: one line naming what is wrong, and nothing written."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.players.learned_layout import N_IN
from sim.players.learned_weights import save_weights
from tests.cli_checks import refused


@pytest.fixture()
def weights(tmp_path):
    rng = np.random.default_rng(1)
    h1, h2 = 8, 4
    arrays = {"q_W1": rng.standard_normal((N_IN, h1)), "q_b1": np.zeros(h1), "q_W2": rng.standard_normal((h1, h2)),
              "q_b2": np.zeros(h2), "q_W3": rng.standard_normal((3, h2, 24)), "q_b3": np.zeros((3, 24))}
    path = tmp_path / "w" / "mine.npz"
    save_weights(path, arrays, {"name": "test"})
    return path


def _simulate(players: str, out, rules: str = "classic"):
    import cli

    return CliRunner().invoke(cli.app, ["simulate", "--deals", "20", "--players", players, "--rules", rules,
                                        "--out", str(out), "--no-progress"])


def test_a_missing_weights_file_is_refused(tmp_path):
    res = _simulate(f"learned:{tmp_path / 'nothing.npz'}", tmp_path / "run")
    refused(res, "nothing.npz", "does not exist")
    assert not (tmp_path / "run").exists()


def test_a_tampered_weights_file_is_refused(tmp_path, weights):
    data = bytearray(weights.read_bytes())
    data[len(data) // 2] ^= 0x40
    weights.write_bytes(bytes(data))
    res = _simulate(f"learned:{weights}", tmp_path / "run")
    refused(res, "mine.npz", "damaged or was changed")
    assert not (tmp_path / "run").exists()


def test_weights_of_another_feature_layout_are_refused(tmp_path, weights):
    manifest = weights.with_suffix(".json")
    meta = json.loads(manifest.read_text())
    meta["features_version"] -= 1
    manifest.write_text(json.dumps(meta))
    res = _simulate(f"learned-cards:{weights}", tmp_path / "run")
    refused(res, "feature layout", "thousand train")
    assert not (tmp_path / "run").exists()


def test_a_weights_file_without_its_manifest_is_refused(tmp_path, weights):
    weights.with_suffix(".json").unlink()
    res = _simulate(f"learned:{weights}", tmp_path / "run")
    refused(res, "no manifest")


def test_the_learned_player_refuses_the_two_player_game(tmp_path, weights):
    res = _simulate(f"learned:{weights},heuristic", tmp_path / "run", rules=str(_two_players(tmp_path)))
    refused(res, "players = 2")
    assert not (tmp_path / "run").exists()


def _two_players(tmp_path):
    path = tmp_path / "two.toml"
    path.write_text("[rules]\nplayers = 2\n")
    return path


def test_a_run_of_other_weights_is_not_resumed(tmp_path, weights):
    """The run records each weights file's SHA-256: the same path with other contents is another run."""
    out = tmp_path / "run"
    assert _simulate(f"learned:{weights}", out).exit_code == 0
    rng = np.random.default_rng(2)
    h1, h2 = 8, 4
    save_weights(weights, {"q_W1": rng.standard_normal((N_IN, h1)), "q_b1": np.zeros(h1),
                           "q_W2": rng.standard_normal((h1, h2)), "q_b2": np.zeros(h2),
                           "q_W3": rng.standard_normal((3, h2, 24)), "q_b3": np.zeros((3, 24))}, {"name": "other"})
    res = _simulate(f"learned:{weights}", out)
    refused(res, "learned_weights")
