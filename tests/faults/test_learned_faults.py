"""A weights file that is missing, damaged, tampered with or made for another layout, and the
learned player where it cannot play: one line naming what is wrong, and nothing written."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.players.learned.layout import N_IN
from sim.players.learned.weights import save_weights
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


def _simulate(players: str, out, rules: str = "classic", seed: int = 0):
    import cli

    return CliRunner().invoke(cli.app, ["simulate", "--deals", "20", "--players", players, "--rules", rules,
                                        "--out", str(out), "--no-progress", "--seed", str(seed)])


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


def _with_bidding(path, dark_value=-50.0):
    """Weights of a card net and bidding nets at ``path``, their manifest's dark-game figures given."""
    from sim.players.learned.weights import bidding_shapes_of, shapes_of

    rng = np.random.default_rng(3)
    arrays = {k: rng.standard_normal(s) * 0.3 for k, s in {**shapes_of(8, 4), **bidding_shapes_of(6, 6)}.items()}
    save_weights(path, arrays, {"name": "bidding", "bidding": {"dark_value": dark_value, "first_hand_value": 40.0}})
    return path


def _edit_manifest(weights, edit):
    manifest = weights.with_suffix(".json")
    meta = json.loads(manifest.read_text())
    edit(meta)
    manifest.write_text(json.dumps(meta))


def test_an_edited_manifest_plays_another_player_and_is_recorded_so(tmp_path):
    """The manifest's bidding section changes play: a run, a stored result and a combine tell the
    weights apart by what is played (the npz and the manifest), not by the npz alone; a manifest
    edited where play does not read it is the same player."""
    from analysis.players import learned_weights
    from sim.players.learned.weights import weights_identity

    weights = _with_bidding(tmp_path / "w" / "bid.npz")
    players = f"learned:{weights}"
    first = weights_identity(weights)
    assert _simulate(players, tmp_path / "a").exit_code == 0
    _edit_manifest(weights, lambda m: m.update(name="renamed", history=[1.5]))
    assert weights_identity(weights) == first  # nothing play reads
    assert _simulate(players, tmp_path / "a").exit_code == 0  # the same run: resumed, nothing to play
    _edit_manifest(weights, lambda m: m["bidding"].update(dark_value=80.0))
    assert weights_identity(weights) != first and learned_weights([players]) == {players: weights_identity(weights)}
    refused(_simulate(players, tmp_path / "a"), "learned_weights")  # not resumed under the other manifest
    edited = weights_identity(weights)
    _edit_manifest(weights, lambda m: m.pop("bidding"))  # the bidding nets no longer play
    assert weights_identity(weights) not in (first, edited)
    res = _simulate(players, tmp_path / "b", seed=2)
    assert res.exit_code == 0, res.output
    import cli

    res = CliRunner().invoke(cli.app, ["runs", "combine", str(tmp_path / "a"), str(tmp_path / "b"), "--out",
                                       str(tmp_path / "ab")])
    refused(res, "cannot combine", "learned_weights")
    assert not (tmp_path / "ab").exists()


@pytest.mark.parametrize("edit, where", [
    (lambda m: m["bidding"].update(dark_value=float("nan")), "bidding.dark_value is nan"),
    (lambda m: m.update(history=[{"epoch": 1, "val_regret": float("nan")}]), "history.0.val_regret is nan"),
    (lambda m: m["bidding"].update(first_hand_value=float("inf")), "bidding.first_hand_value is inf"),
])
def test_a_manifest_holding_a_figure_that_is_not_finite_is_refused(tmp_path, edit, where):
    weights = _with_bidding(tmp_path / "w" / "bid.npz")
    _edit_manifest(weights, edit)  # json writes NaN and Infinity, and Python's json reads them
    res = _simulate(f"learned:{weights}", tmp_path / "run")
    refused(res, "bid.npz", where, "not a finite number")
    assert not (tmp_path / "run").exists()


def _damaged_but_matching(weights, damage):
    """``weights`` damaged by ``damage`` (bytes -> bytes), its manifest's SHA-256 made to match."""
    import hashlib

    data = damage(weights.read_bytes())
    weights.write_bytes(data)
    _edit_manifest(weights, lambda m: m.update(npz_sha256=hashlib.sha256(data).hexdigest()))


def _flip(data: bytes) -> bytes:
    return data[:len(data) // 2] + bytes([data[len(data) // 2] ^ 0x40]) + data[len(data) // 2 + 1:]


@pytest.mark.parametrize("damage, words", [
    (lambda data: data[:len(data) // 2], "File is not a zip file"),  # cut short
    (_flip, "Bad CRC-32"),  # a byte of an array changed
    (lambda data: data.replace(b"'shape': (", b"'shape': (x", 1), "cannot be read"),  # a header broken
])
def test_a_damaged_weights_file_whose_manifest_matches_the_damage_is_one_line(tmp_path, weights, damage, words):
    import cli

    _damaged_but_matching(weights, damage)
    refused(_simulate(f"learned:{weights}", tmp_path / "run"), "mine.npz", "cannot be read", words)
    assert not (tmp_path / "run").exists()
    player = tmp_path / "mine.toml"
    player.write_text(f'player = "learned"\nweights = "{weights}"\n')
    res = CliRunner().invoke(cli.app, ["tournament", str(player), "heuristic", "heuristic", "--deals", "2", "--out",
                                       str(tmp_path / "t")])
    refused(res, "mine.npz", "cannot be read")
    assert not (tmp_path / "t").exists()


def test_a_learned_player_with_no_path_is_one_line(tmp_path):
    for players in ("learned:", "heuristic,learned-cards: ,heuristic"):
        refused(_simulate(players, tmp_path / "run"), "names no weights file", "learned:PATH")
        assert not (tmp_path / "run").exists()


def test_a_weights_path_holding_a_comma_is_given_in_quotes(tmp_path):
    import shutil

    folder = tmp_path / "a,b"
    folder.mkdir()
    for suffix in (".npz", ".json"):
        shutil.copyfile(_with_bidding(tmp_path / "w" / "x.npz").with_suffix(suffix), folder / f"w{suffix}")
    weights = folder / "w.npz"
    res = _simulate(f"learned:{weights},heuristic,heuristic", tmp_path / "run")
    refused(res, "a weights path holding a comma is given in double quotes", '"learned:PATH",heuristic,heuristic')
    assert not (tmp_path / "run").exists()
    res = _simulate(f'"learned:{weights}",heuristic,heuristic', tmp_path / "run")
    assert res.exit_code == 0, res.output
    assert json.loads((tmp_path / "run" / "run.json").read_text())["players"][0] == f"learned:{weights}"


def test_a_folder_given_as_weights_is_said_to_be_a_folder(tmp_path):
    (tmp_path / "w.npz").mkdir()
    refused(_simulate(f"learned:{tmp_path / 'w.npz'}", tmp_path / "run"), "is a folder, not a weights file")
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("line, words", [
    ("search_cards = 2.5", "search_cards is a count, a whole number from 0 to 8, not 2.5"),
    ("search_worlds = 1.5", "search_worlds is a count, a whole number from 1 to 1000, not 1.5"),
    ("pimc_worlds = 20.5", "pimc_worlds is a count, a whole number from 1 to 1000, not 20.5"),
    ("gift_candidates = -3", "gift_candidates must be from 1 to 90, not -3"),
    ("gift_candidates = 1e12", "gift_candidates must be from 1 to 90, not 1000000000000.0"),
    ("gift_candidates = 2.5", "gift_candidates is a count"),
])
def test_a_player_file_count_must_be_whole_and_in_range(tmp_path, line, words):
    import cli

    player = tmp_path / "mine.toml"
    player.write_text(f'player = "learned"\n{line}\n')
    res = CliRunner().invoke(cli.app, ["tournament", str(player), "heuristic", "heuristic", "--deals", "2", "--out",
                                       str(tmp_path / "t")])
    refused(res, "mine.toml", words)
    assert not (tmp_path / "t").exists()
