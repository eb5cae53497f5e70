"""``thousand train``: a quick training end to end, its resumption, and its refusals."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from tests.cli_checks import refused, snapshot

pytest.importorskip("jax")
pytest.importorskip("optax")

BID = dict(bid_deals=30, bid_hidden=8, bid_epochs=1)  # small bidding nets, where a test is about the card net's
QUICK = dict(rounds=2, deals=120, hidden=(16, 8), epochs=1, seed=3, bid_deals=60, bid_hidden=8, bid_epochs=1)


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    from sim.training.command import TrainSpec, train

    out = tmp_path_factory.mktemp("train")
    lines = []
    path = train(out, TrainSpec(**QUICK), threads=2, log=lines.append)
    return out, path, lines


def test_a_quick_training_gives_weights_that_load_and_say_what_made_them(quick_run):
    from sim.fingerprint import code_fingerprint
    from sim.players.learned.weights import load_weights

    out, path, lines = quick_run
    net, meta = load_weights(path)
    assert net.dtype == np.float32 and np.isfinite(net).all()
    assert meta["hidden"] == [16, 8] and meta["spec"]["seed"] == 3 and meta["round"] == 1
    assert meta["code_fingerprint"] == code_fingerprint()
    assert meta["data"]["positions"] > 1000 and meta["data"]["solver_nodes"] > 0
    assert len(meta["history"]) == 1 and meta["history"][0]["val_regret"] >= 0
    # round 1 played the round-0 model's cards: its parts record that model's SHA-256
    from sim.fingerprint import file_sha256

    with np.load(out / "r1" / "part-00000.npz") as z:
        assert str(z["model_sha"]) == file_sha256(out / "r0" / "model.npz")
    assert any("round 1" in ln for ln in lines)
    # the bidding nets were fitted to playouts of the last round's model, whose card net it keeps
    assert meta["cards_sha256"] == file_sha256(out / "r1" / "model.npz") and meta["bidding"]["hidden"] == [8, 8]
    assert meta["bidding"]["playouts"] == 180 and len(meta["bidding"]["history_b"]) == 1
    with np.load(out / "bid" / "part-00000.npz") as z, np.load(out / "r1" / "model.npz") as card, \
            np.load(path) as final:
        assert str(z["model_sha"]) == file_sha256(out / "r1" / "model.npz") and len(z["rows"]) == 180
        assert all(np.array_equal(card[k], final[k]) for k in card.files)


def test_the_same_command_again_does_nothing_and_a_lost_part_is_made_again_the_same(quick_run):
    from sim.training.command import TrainSpec, train

    out, path, _ = quick_run
    before = snapshot(out)
    train(out, TrainSpec(**QUICK), threads=1, log=lambda m: None)
    assert snapshot(out) == before  # resumed: nothing to do, nothing rewritten differently
    (out / "r1" / "part-00000.npz").unlink()  # as if Ctrl-C had come before that part was stored
    (out / "r1" / "model.npz").unlink()
    train(out, TrainSpec(**QUICK), threads=1, log=lambda m: None)
    after = snapshot(out)
    assert after["r1/part-00000.npz"] == before["r1/part-00000.npz"]  # a part is a pure function of its index
    assert set(after) == set(before)


def test_a_folder_of_another_training_is_refused_in_one_line_and_left_alone(quick_run):
    import cli

    out, _, _ = quick_run
    before = snapshot(out)
    res = CliRunner().invoke(cli.app, ["train", "--out", str(out), "--rounds", "2", "--deals", "120", "--hidden",
                                       "16,8", "--epochs", "1", "--seed", "4", "--no-progress"])
    refused(res, "another specification", "seed 3, not 4", "use a new --out")
    assert snapshot(out) == before


@pytest.mark.parametrize("args, words", [
    (["--labels", "worlds:0"], ["--labels", "worlds:K"]),
    (["--hidden", "12"], ["--hidden"]),
    (["--rounds", "0"], ["--rounds"]),
    (["--rules", "nonsense"], ["nonsense"]),
    (["--bid-deals", "5"], ["--bid-deals", "not 5"]),
    (["--cards", "missing.npz"], ["missing.npz", "does not exist"]),
    (["--start", "missing.npz"], ["missing.npz", "does not exist"]),
    (["--label-shares", "0.5,x"], ["--label-shares", "0.5,x"]),
    (["--label-shares", "0.5,0"], ["--label-shares", "not 0.5,0.0"]),
])
def test_bad_options_are_refused_in_one_line(tmp_path, args, words):
    import cli

    res = CliRunner().invoke(cli.app, ["train", "--out", str(tmp_path / "t"), "--no-progress", *args])
    refused(res, *words)
    assert not (tmp_path / "t" / "train.json").exists()


def test_the_spec_file_records_the_code(quick_run):
    from sim.fingerprint import code_fingerprint

    out, _, _ = quick_run
    recorded = json.loads((out / "train.json").read_text())
    assert recorded["code_fingerprint"] == code_fingerprint() and recorded["spec"]["deals"] == 120


def test_thousand_train_quick_runs_end_to_end_from_the_command_line(tmp_path):
    """The documented CI size: two rounds of 300 deals, a 32-16 net, two epochs."""
    import cli

    out = tmp_path / "quick"
    res = CliRunner().invoke(cli.app, ["train", "--quick", "--out", str(out), "--no-progress"])
    assert res.exit_code == 0, res.output
    assert f"weights: {out / 'learned.npz'}" in res.output
    from sim.players.learned.weights import load_weights

    _, meta = load_weights(out / "learned.npz")
    assert meta["hidden"] == [32, 16] and meta["spec"]["rounds"] == 2 and meta["spec"]["deals"] == 300


def test_more_rounds_go_on_from_the_last_one(tmp_path):
    """--rounds is not part of what a folder holds: asking for one more round adds it."""
    from sim.fingerprint import file_sha256
    from sim.training.command import TrainSpec, train

    out = tmp_path / "t"
    small = dict(deals=60, hidden=(8, 8), epochs=1, seed=5, **BID)
    train(out, TrainSpec(rounds=1, **small), threads=1, log=lambda m: None)
    first = file_sha256(out / "r0" / "model.npz")
    final = train(out, TrainSpec(rounds=2, **small), threads=1, log=lambda m: None)
    assert file_sha256(out / "r0" / "model.npz") == first  # round 0 was not redone
    assert (out / "r1" / "model.npz").exists()
    assert json.loads(final.with_suffix(".json").read_text())["cards_sha256"] == file_sha256(out / "r1" / "model.npz")


def test_cards_fits_only_the_bidding_nets_to_a_given_card_net(quick_run, tmp_path):
    """--cards skips the rounds: the card net is the file's, the bidding nets new; a changed card
    file is another training."""
    from sim.fingerprint import file_sha256
    from sim.training.command import TrainError, TrainSpec, train

    out, path, _ = quick_run
    cards = out / "r0" / "model.npz"
    spec = TrainSpec(cards=str(cards), bid_deals=30, bid_hidden=8, bid_epochs=1, seed=3)
    final = train(tmp_path / "b", spec, threads=1, log=lambda m: None)
    assert not (tmp_path / "b" / "r0").exists()
    meta = json.loads(final.with_suffix(".json").read_text())
    assert meta["cards_sha256"] == file_sha256(cards) and meta["bidding"]["playouts"] == 90
    with np.load(cards) as card, np.load(final) as got:
        assert all(np.array_equal(card[k], got[k]) for k in card.files) and "b_W1" in got.files
    other = tmp_path / "other.npz"
    other.write_bytes(path.read_bytes())
    other.with_suffix(".json").write_text(path.with_suffix(".json").read_text())
    with pytest.raises(TrainError, match="another specification"):
        train(tmp_path / "b", TrainSpec(cards=str(other), bid_deals=30, bid_hidden=8, bid_epochs=1, seed=3),
              threads=1, log=lambda m: None)


def test_a_fit_stopped_between_epochs_goes_on_to_the_same_net(tmp_path):
    """Ctrl-C during a round's fit loses at most the epoch in flight: the same command goes on
    from the checkpoint of the last finished epoch, to the net of a fit never stopped."""
    from sim.players.learned.weights import load_weights
    from sim.training.command import FIT_CHECKPOINT, TrainSpec, train

    spec = TrainSpec(rounds=1, deals=120, hidden=(16, 8), epochs=3, seed=5, **BID)
    whole = train(tmp_path / "whole", spec, threads=1, log=lambda m: None)

    def stop_after_the_second_epoch(line):
        if "epoch 2/3" in line:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train(tmp_path / "stopped", spec, threads=1, log=stop_after_the_second_epoch)
    checkpoint = tmp_path / "stopped" / "r0" / FIT_CHECKPOINT
    assert checkpoint.exists() and not (tmp_path / "stopped" / "r0" / "model.npz").exists()
    lines = []
    again = train(tmp_path / "stopped", spec, threads=1, log=lines.append)
    assert any("going on from epoch 2" in line for line in lines)
    assert sum("epoch 3/3" in line for line in lines) == 1 and not any("epoch 1/3" in line for line in lines)
    (net_whole, meta_whole), (net_again, meta_again) = load_weights(whole), load_weights(again)
    assert np.array_equal(net_whole, net_again)
    assert [h["train_loss"] for h in meta_whole["history"]] == [h["train_loss"] for h in meta_again["history"]]
    assert not checkpoint.exists()  # gone once the round's model is saved


def test_a_checkpoint_of_another_fit_is_not_taken(tmp_path):
    from sim.training.command import FIT_CHECKPOINT, TrainSpec, train

    spec = TrainSpec(rounds=1, deals=120, hidden=(16, 8), epochs=2, seed=5, **BID)
    (tmp_path / "r0").mkdir(parents=True)
    (tmp_path / "r0" / FIT_CHECKPOINT).write_bytes(b"not a checkpoint")
    lines = []
    train(tmp_path, spec, threads=1, log=lines.append)
    card_epochs = [line for line in lines if "epoch" in line and "net B" not in line and "net C" not in line]
    assert not any("going on" in line for line in lines) and len(card_epochs) == 2


def test_the_contract_loss_trains_end_to_end(tmp_path):
    from sim.players.learned.weights import load_weights
    from sim.training.command import TrainSpec, train

    path = train(tmp_path, TrainSpec(rounds=1, deals=60, hidden=(8, 8), epochs=1, seed=6, loss="contract", **BID),
                 threads=1, log=lambda m: None)
    net, meta = load_weights(path)
    assert meta["spec"]["loss"] == "contract" and np.isfinite(net).all() and meta["history"][0]["val_regret"] >= 0


def test_start_plays_round_0_with_the_given_net_and_fits_from_it(quick_run, tmp_path):
    """--start: round 0's positions are the given net's (its SHA-256 in every part, not the
    heuristic's) and the fit starts from its card arrays; another start file is another training."""
    from sim.fingerprint import file_sha256
    from sim.training.command import TrainError, TrainSpec, train

    out, path, _ = quick_run
    start = out / "r1" / "model.npz"
    spec = TrainSpec(rounds=1, deals=60, hidden=(16, 8), epochs=1, seed=4, start=str(start), **BID)
    final = train(tmp_path / "s", spec, threads=1, log=lambda m: None)
    with np.load(tmp_path / "s" / "r0" / "part-00000.npz") as z:
        assert str(z["model_sha"]) == file_sha256(start)
    model_meta = json.loads((tmp_path / "s" / "r0" / "model.json").read_text())
    assert model_meta["init_sha256"] == file_sha256(start)
    assert json.loads((tmp_path / "s" / "train.json").read_text())["start_sha256"] == file_sha256(start)
    assert final.exists()
    with pytest.raises(TrainError, match="another specification"):
        train(tmp_path / "s", TrainSpec(**{**spec.__dict__, "start": str(out / "r0" / "model.npz")}), threads=1,
              log=lambda m: None)
    # Of other sizes, the start net plays round 0 (the same parts) and the fit starts from scratch.
    wide = TrainSpec(**{**spec.__dict__, "hidden": (12, 8)})
    train(tmp_path / "w", wide, threads=1, log=lambda m: None)
    first_part = "r0/part-00000.npz"
    assert (tmp_path / "w" / first_part).read_bytes() == (tmp_path / "s" / first_part).read_bytes()
    wide_meta = json.loads((tmp_path / "w" / "r0" / "model.json").read_text())
    assert wide_meta["init_sha256"] is None and wide_meta["hidden"] == [12, 8]
    lines = []
    train(tmp_path / "w", wide, threads=1, log=lines.append)
    assert "round 0: model already fitted" in lines


def test_label_shares_keep_that_share_of_each_tricks_positions():
    """sample_by_trick keeps each position of trick t with probability shares[t], the same rows
    for the same seed and chunk."""
    from sim.game.rules import HouseRules
    from sim.players.learned.layout import P_PLAYED
    from sim.training.command import TrainSpec, sample_by_trick
    from sim.training.positions import generate_positions

    pos, _ = generate_positions(HouseRules(), 9, 0, 400, None, -1, 0.0)
    shares = TrainSpec(label_shares=(0.25, 0.5)).label_share_of_trick()
    assert shares.tolist() == [0.25, 0.5, 1, 1, 1, 1, 1, 1]
    keep = sample_by_trick(pos, shares, 9, 0)
    assert np.array_equal(keep, sample_by_trick(pos, shares, 9, 0))
    assert not np.array_equal(keep, sample_by_trick(pos, shares, 9, 1))
    trick = np.array([int(p).bit_count() // 3 for p in pos[:, P_PLAYED]])
    assert keep[trick >= 2].all()
    for t, share in ((0, 0.25), (1, 0.5)):
        n = (trick == t).sum()
        kept = keep[trick == t].sum()
        assert n > 300 and abs(kept - share * n) < 4 * np.sqrt(n * share * (1 - share))


def test_label_shares_label_fewer_first_tricks_in_training(tmp_path):
    from sim.players.learned.layout import P_PLAYED
    from sim.training.command import TrainSpec, train

    train(tmp_path, TrainSpec(rounds=1, deals=100, hidden=(8, 8), epochs=1, seed=6, label_shares=(0.1,), **BID),
          threads=1, log=lambda m: None)
    with np.load(tmp_path / "r0" / "part-00000.npz") as z:
        trick = np.array([int(p).bit_count() // 3 for p in z["pos"][:, P_PLAYED]])
        assert len(z["values"]) == len(trick)
    assert 0 < (trick == 0).sum() < 0.3 * (trick == 1).sum()
    assert json.loads((tmp_path / "train.json").read_text())["spec"]["label_shares"] == [0.1]


def test_data_adds_an_earlier_trainings_finished_rounds_to_every_fit(quick_run, tmp_path):
    """--data DIR: DIR's finished rounds' parts join the fit (before the run's own), the model's
    manifest names them and what made them, and another DIR's parts mean another fit."""
    import shutil

    from sim.training.command import TrainSpec, train

    out, _, _ = quick_run
    spec = TrainSpec(rounds=1, deals=60, hidden=(16, 8), epochs=1, seed=4, data=(str(out),), **BID)
    train(tmp_path / "d", spec, threads=1, log=lambda m: None)
    meta = json.loads((tmp_path / "d" / "r0" / "model.json").read_text())
    own = sorted(p.name for p in (tmp_path / "d" / "r0").glob("part-*.npz"))
    theirs = [f"{out}/r{r}/{p.name}" for r in (0, 1) for p in sorted((out / f"r{r}").glob("part-*.npz"))]
    assert meta["data"]["parts"] == theirs + [f"r0/{name}" for name in own]
    positions = sum(len(np.load(out / p.split(f"{out}/")[1])["pos"]) for p in theirs)
    positions += sum(len(np.load(tmp_path / "d" / "r0" / name)["pos"]) for name in own)
    assert meta["data"]["positions"] == positions
    (folder,) = meta["data"]["folders"]
    assert folder["rounds"] == 2 and folder["made_by"]["spec"]["seed"] == 3
    assert json.loads((tmp_path / "d" / "train.json").read_text())["spec"]["data"] == [str(out)]
    # The same run without --data is another training: its folder is refused.
    with pytest.raises(Exception, match="another specification"):
        train(tmp_path / "d", TrainSpec(**{**spec.__dict__, "data": ()}), threads=1, log=lambda m: None)
    # A round whose model is not yet fitted is not finished: its parts are left out.
    partial = tmp_path / "partial"
    shutil.copytree(out, partial)
    (partial / "r1" / "model.npz").unlink()
    lines = []
    train(tmp_path / "p", TrainSpec(**{**spec.__dict__, "data": (str(partial),)}), threads=1, log=lines.append)
    meta = json.loads((tmp_path / "p" / "r0" / "model.json").read_text())
    assert meta["data"]["folders"][0]["rounds"] == 1
    assert not any("/r1/" in p for p in meta["data"]["parts"])
    assert any("join every fit" in ln for ln in lines)
    # Another version's data are used as they are, said in a line and named in the manifest.
    old = tmp_path / "old"
    shutil.copytree(out, old)
    made = json.loads((old / "train.json").read_text())
    (old / "train.json").write_text(json.dumps({**made, "thousand_version": "0.0.1"}))
    lines = []
    train(tmp_path / "o", TrainSpec(**{**spec.__dict__, "data": (str(old),)}), threads=1, log=lines.append)
    assert any("made by thousand 0.0.1" in ln and "used as they are" in ln for ln in lines)
    meta = json.loads((tmp_path / "o" / "r0" / "model.json").read_text())
    assert meta["data"]["folders"][0]["made_by"]["thousand_version"] == "0.0.1"


def test_bad_data_folders_are_refused_in_one_line(quick_run, tmp_path):
    import shutil

    import cli

    out, _, _ = quick_run
    unfinished = tmp_path / "unfinished"
    (unfinished / "r0").mkdir(parents=True)
    shutil.copy(out / "train.json", unfinished / "train.json")
    for args, words in ((["--data", str(tmp_path / "none")], ["none", "not a training folder"]),
                        (["--data", str(unfinished)], ["no finished round"]),
                        (["--data", str(out), "--cards", str(out / "learned.npz")], ["--data and --cards"]),
                        (["--data", str(out), "--out", str(out)], ["the training folder itself"])):
        res = CliRunner().invoke(cli.app, ["train", "--out", str(tmp_path / "t"), "--no-progress", *args])
        refused(res, *words)
        assert not (tmp_path / "t" / "train.json").exists()
