"""``thousand train`` where it cannot train, or finds its folder damaged: one line before any work
where that can be known in advance, before any weights are written otherwise; a damaged part is
made again, the same bytes, and never fails the fit."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tests.cli_checks import one_error_line, refused, snapshot

pytest.importorskip("jax")
pytest.importorskip("optax")

# One round of a few deals and tiny nets; seed 4 holds out deals of both fits.
SMALL = dict(rounds=1, deals=60, hidden=(8, 8), epochs=1, seed=4, bid_deals=30, bid_hidden=8, bid_epochs=1)


def _train(*args):
    import cli

    return CliRunner().invoke(cli.app, ["train", "--no-progress", *args])


def test_two_player_rules_are_refused_before_any_work(tmp_path):
    (tmp_path / "two.toml").write_text("[rules]\nplayers = 2\n")
    res = _train("--out", str(tmp_path / "t"), "--rules", str(tmp_path / "two.toml"))
    refused(res, "players = 2", "3 and 4 players")
    assert not (tmp_path / "t").exists()


def test_playouts_that_hold_no_deal_out_are_refused_before_any_work(tmp_path):
    """With seed 1, none of 10 playout deals is held out: the bidding fit could not be checked
    (0.9.0 wrote NaN dark-game figures, and games of those weights never ended)."""
    res = _train("--out", str(tmp_path / "t"), "--deals", "10", "--bid-deals", "10")
    refused(res, "--bid-deals 10 with --seed 1", "no deal is held out", "give more --bid-deals")
    assert not (tmp_path / "t").exists()


def test_a_round_that_holds_no_position_out_is_refused_before_its_weights(tmp_path):
    """Seed 2 holds none of 10 deals out of round 0's fit (known only once they are played)."""
    from sim.training.command import TrainError, TrainSpec, train

    with pytest.raises(TrainError, match=r"round 0: [\d,]+ positions, 0 of them held out .* give more --deals"):
        train(tmp_path, TrainSpec(**{**SMALL, "deals": 10, "seed": 2}), threads=1, log=lambda m: None)
    assert not (tmp_path / "r0" / "model.npz").exists() and not (tmp_path / "learned.npz").exists()


@pytest.mark.parametrize("args, given", [
    (["--rounds", "3"], "--rounds"),
    (["--deals", "500", "--hidden", "8,8"], "--deals and --hidden"),
    (["--epochs", "2", "--bid-deals", "300", "--bid-hidden", "16", "--bid-epochs", "2"],
     "--epochs and --bid-deals and --bid-hidden and --bid-epochs"),
])
def test_quick_beside_the_sizes_it_sets_is_refused(tmp_path, args, given):
    """--quick set them over what was given (even to its own values); now the mixture is refused."""
    line = one_error_line(_train("--out", str(tmp_path / "t"), "--quick", *args))
    assert f"--quick sets {given} itself" in line and "without --quick" in line
    assert not (tmp_path / "t").exists()


def test_a_negative_seed_is_refused_before_anything_is_written(tmp_path):
    out = tmp_path / "t"
    out.mkdir()
    refused(_train("--out", str(out), "--seed", "-1"), "--seed must be from 0 to 2**63 - 1, not -1")
    assert list(out.iterdir()) == []


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    from sim.training.command import TrainSpec, train

    out = tmp_path_factory.mktemp("small")
    train(out, TrainSpec(**SMALL), threads=1, log=lambda m: None)
    return out


def _flip_middle(path):
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x40
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("part", ["r0/part-00000.npz", "bid/part-00000.npz"])
def test_a_damaged_part_is_made_again_the_same(small_run, part):
    """A byte changed inside an array of a part whose model SHA-256 still reads: 0.9.0 took the
    part as made and every rerun ended in a BadZipFile traceback in the fit."""
    from sim.training.command import TrainSpec, train

    before = snapshot(small_run)
    _flip_middle(small_run / part)
    train(small_run, TrainSpec(**SMALL), threads=1, log=lambda m: None)
    assert snapshot(small_run) == before  # the part made again, the same bytes; the weights as they were


def test_a_damaged_part_of_a_data_folder_is_one_line(small_run, tmp_path):
    import shutil

    data = tmp_path / "data"
    shutil.copytree(small_run, data)
    _flip_middle(data / "r0" / "part-00000.npz")
    res = _train("--out", str(tmp_path / "t"), "--data", str(data), "--rounds", "1", "--deals", "60", "--hidden",
                 "8,8", "--epochs", "1", "--seed", "4", "--bid-deals", "30", "--bid-hidden", "8", "--bid-epochs", "1")
    refused(res, "--data: part", "r0/part-00000.npz is damaged", "makes it again")
    assert not (tmp_path / "t" / "r0").exists()


def test_damaged_cards_weights_are_one_line(small_run, tmp_path):
    import hashlib
    import shutil

    cards = tmp_path / "cards.npz"
    for suffix in (".npz", ".json"):
        shutil.copyfile((small_run / "learned.npz").with_suffix(suffix), cards.with_suffix(suffix))
    data = cards.read_bytes()[:1000]
    cards.write_bytes(data)
    meta = json.loads(cards.with_suffix(".json").read_text())
    meta["npz_sha256"] = hashlib.sha256(data).hexdigest()  # the manifest matches the damage
    cards.with_suffix(".json").write_text(json.dumps(meta))
    refused(_train("--out", str(tmp_path / "t"), "--cards", str(cards)), "cards.npz", "cannot be read")
    assert not (tmp_path / "t").exists()

