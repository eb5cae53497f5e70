"""Faults and bad inputs of the bid advisor, the solver's layouts, thread counts, output encoding and
Ctrl-C (issue 24, items 7, 11, 13, 16, 17, 20, 23 and the Ctrl-C requirement): each gets one line
naming what is wrong and exit code 2, or the right answer; never a traceback, never silently wrong."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from cli_checks import refused
from typer.testing import CliRunner

from cli import app
from sim.game.rules import HouseRules

ROOT = Path(__file__).resolve().parents[2]
HAND = "AH TH KH QH AS 9C JD"
WEAK = "9S JS 9C JC 9D JD QH"
NO_MARRIAGE = "AS TS AC TC AD TD 9H"  # strong, but no king and queen of one suit: bidding cap 120
runner = CliRunner()




def bid(*args: str):
    return runner.invoke(app, ["bid", *args, "--no-progress"])


def rules_file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "rules.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def advice_json(res) -> dict:
    assert res.exit_code == 0, res.output
    return json.loads(res.output[res.output.index("{"):])


# ---- item 7: first hand without forced_first_bid -------------------------------------------------
def test_an_unforced_first_hand_may_pass(tmp_path):
    rules = rules_file(tmp_path, "forced_first_bid = false\n")
    res = bid(WEAK, "--rules", rules, "--seat", "first", "--samples", "60", "--method", "dd", "--wide")
    assert res.exit_code == 0, res.output
    assert "forced to bid 100" not in res.output and "forced bid" not in res.output
    assert "first hand, not forced to bid: forced_first_bid = false" in res.output
    assert "\n  pass  " in res.output  # the pass line is plain passing, no forced bid first
    data = advice_json(bid(WEAK, "--rules", rules, "--samples", "60", "--method", "dd", "--json"))
    assert data["forced_bid"] is None and data["lines"][0]["line"] == "pass"
    if data["recommendation"]["gain"] is None and data["recommendation"]["beyond"]:
        assert data["recommendation"]["action"] == "pass" and data["recommendation"]["bid"] is None
        assert any(line.startswith("recommendation (learned player, all seats; race, 60 deals): pass: passing is in "
                                   "the plateau and no line beats it") for line in res.output.splitlines())
        assert "\nanswer: pass" in "\n" + res.output  # the answer comes first
    # Under the default rules first hand is still forced: its pass line makes the forced bid first.
    forced = advice_json(bid(WEAK, "--samples", "60", "--method", "dd", "--json"))
    assert forced["forced_bid"] == 100 and forced["lines"][0]["declares"]["p"] > 0
    if forced["recommendation"]["gain"] is None:
        rec = forced["recommendation"]
        assert rec["action"] == ("untested" if rec["beyond"] is None and rec["untested_from"] is not None
                                 else "forced bid 100, then pass")


# ---- item 11: the score --------------------------------------------------------------------------
@pytest.mark.parametrize("args, words", [
    (["--score", "1000"], ("--score 1000", "target (1000)", "game is over")),
    (["--score", "99999999999999999999"], ("--score 99999999999999999999", "game is over")),
    (["--score", "-99999999999999999999"], ("--score -99999999999999999999", "must be from -3000")),
    (["--score", "900"], ("--score 900", "barrel (880)", "--on-barrel")),
    (["--on-barrel", "--score", "100"], ("--score 100 with --on-barrel", "from the barrel (880)")),
])
def test_a_score_out_of_the_game_is_refused(args, words):
    refused(bid(HAND, "--samples", "10", *args), *words)


def test_a_score_is_checked_against_the_rules_target_and_barrel(tmp_path):
    rules = rules_file(tmp_path, 'target = 1500\nbarrel = 1380\n')
    # (--objective race: no win-chance table ships for these rules, and the score checks are the question here)
    assert bid(HAND, "--rules", rules, "--samples", "10", "--score", "1000", "--objective", "race").exit_code == 0
    refused(bid(HAND, "--rules", rules, "--samples", "10", "--score", "1500"), "target (1500)")
    data = advice_json(bid(HAND, "--samples", "10", "--on-barrel", "--score", "880", "--json"))
    assert data["situation"] == {"score": 880, "on_barrel": True, "left_score": 0, "left_on_barrel": False,
                                 "right_score": 0, "right_on_barrel": False, "attempts": 0, "bolts": 0, "passes": 0}
    # The opponents' scores are checked against the same rules, and reach the situation.
    refused(bid(HAND, "--rules", rules, "--samples", "10", "--right-score", "1500"), "--right-score 1500",
            "target (1500)")
    data = advice_json(bid(HAND, "--rules", rules, "--samples", "10", "--left-score", "1000", "--objective", "race",
                           "--json"))
    assert data["situation"]["left_score"] == 1000


# ---- item 13: a bidding cap below min_bid -----------------------------------------------------------
def test_a_hand_that_cannot_reach_min_bid(tmp_path):
    rules = rules_file(tmp_path, "min_bid = 125\n")
    res = bid(NO_MARRIAGE, "--rules", rules, "--seat", "second", "--samples", "40", "--method", "dd,heuristic",
              "--wide")
    assert res.exit_code == 0, res.output
    assert "bidding cap 120: below the minimum bid 125, so this hand cannot bid" in res.output
    assert "\n  pass  " in res.output  # the pass line's value is still given
    assert any(line.startswith("recommendation: pass (this hand cannot bid") for line in res.output.splitlines())
    assert "\nanswer: pass (this hand cannot bid)" in "\n" + res.output  # the answer comes first
    data = advice_json(bid(NO_MARRIAGE, "--rules", rules, "--seat", "second", "--samples", "40", "--method", "dd",
                           "--json"))
    assert data["can_bid"] is False and data["contracts"] == [] and data["recommendation"]["action"] == "pass"
    # First hand is forced to open at 125 whatever his cap: that contract is valued and advised.
    first = advice_json(bid(NO_MARRIAGE, "--rules", rules, "--seat", "first", "--samples", "40", "--method", "dd",
                            "--json"))
    assert first["forced_bid"] == 125 and first["recommendation"]["bid"] == 125
    assert first["contracts"][0]["contract"] == 125 and first["contracts"][0]["biddable"]


# ---- item 16: the worlds of a PIMC decision, and progress ------------------------------------------
def test_worlds_have_one_cap_everywhere(tmp_path):
    from sim.players.params import MAX_PIMC_WORLDS, load_player_file
    from sim.players.registry import PlayerError

    refused(bid(HAND, "--method", "pimc", "--samples", "1", "--worlds", "5000000"),
                   f"--worlds must be from 1 to {MAX_PIMC_WORLDS}, not 5000000")
    refused(bid(HAND, "--samples", "1", "--worlds", str(MAX_PIMC_WORLDS + 1)), "--worlds must be from 1 to")
    player = tmp_path / "p.toml"
    player.write_text(f'player = "pimc"\npimc_worlds = {MAX_PIMC_WORLDS + 1}\n')
    with pytest.raises(PlayerError, match=f"from 1 to {MAX_PIMC_WORLDS},"):
        load_player_file(player, 3)


def test_pimc_work_reports_progress_deal_by_deal():
    from analysis.bids.advisor import advise

    calls = []
    advise(hand=HAND, samples=3, methods="pimc,dd", worlds=2, threads=1, progress=lambda *a: calls.append(a))
    stages = list(dict.fromkeys(c[0] for c in calls))
    assert stages == ["auction lines (learned player)", "pimc (2 worlds a decision)", "dd"]  # the lines first
    assert all(c[2] == 3 for c in calls) and calls[-1] == ("dd", 3, 3)
    assert ("pimc (2 worlds a decision)", 3, 3) in calls and ("auction lines (learned player)", 3, 3) in calls
    res = runner.invoke(app, ["bid", HAND, "--method", "pimc", "--samples", "2", "--worlds", "2"])
    assert res.exit_code == 0 and "pimc (2 worlds a decision)" in res.output and "2/2" in res.output


def test_learned_make_rates_report_progress_level_by_level():
    """The learned declarer plays each contract apart: its stage counts samples × contracts, and
    ends complete when the contracts above the cap that nobody makes are left unplayed."""
    from analysis.bids.advisor import advise

    calls = []
    r = advise(hand=WEAK, samples=20, seed=1, threads=1, progress=lambda *a: calls.append(a))
    stages = list(dict.fromkeys(c[0] for c in calls))
    assert stages == ["auction lines (learned player)", "learned player: each contract played apart"]
    learned = [c for c in calls if c[0] == stages[1]]
    total = 20 * len(range(100, r.raise_cap + 1, 5))
    assert all(c[2] == total for c in learned) and learned[-1][1] == total
    assert [c[1] for c in learned] == sorted(c[1] for c in learned)
    assert r.played_to < r.raise_cap  # the rest was not played


# ---- item 17: thread and worker counts --------------------------------------------------------------
def test_absurd_thread_counts_are_one_line(tmp_path):
    from sim.parallel import thread_limit

    limit = thread_limit()
    refused(bid(HAND, "--threads", "100000"), "--threads 100,000: at most", str(limit))
    out = tmp_path / "run"
    refused(runner.invoke(app, ["simulate", "--deals", "10", "--workers", "100000", "--out", str(out),
                                       "--no-progress"]), "--workers 100,000: at most")
    assert not out.exists()
    from analysis.bids.advisor import advise

    with pytest.raises(ValueError, match="--threads"):
        advise(hand=HAND, samples=1, threads=limit + 1)


# ---- item 23: layouts and card words --------------------------------------------------------------------
def test_layout_files_without_layouts_say_so(tmp_path):
    refused(runner.invoke(app, ["solve", "--file", "/dev/null"]), "--file /dev/null: no layouts")
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    refused(runner.invoke(app, ["solve", "--file", str(empty)]), "no layouts")
    comments = tmp_path / "comments.txt"
    comments.write_text("# nothing but a comment\n\n   \n")
    refused(runner.invoke(app, ["solve", "--file", str(comments)]), "no layouts")
    refused(runner.invoke(app, ["solve", "--file", str(tmp_path)]), "is a directory")


def test_a_word_that_is_not_a_card_is_named_whole(tmp_path):
    refused(bid("AH TH KH QH AS 9C extra", "--samples", "1"), "malformed card 'extra'")
    refused(runner.invoke(app, ["solve", "AS TS | KH QH | 9C extra"]), "malformed card 'extra'")
    refused(bid("AHTHKHQX AS 9C JD", "--samples", "1"), "in 'AHTHKHQX'", "malformed card 'QX'")
    layouts = tmp_path / "layouts.txt"
    layouts.write_text("AS TS | KH QH | 9C JC\nAS TS | KH QH | JCJX\n")
    refused(runner.invoke(app, ["solve", "--file", str(layouts)]), f"{layouts}:2:", "in 'JCJX'",
                   "malformed card 'JX'")


# ---- subprocesses: output encoding and Ctrl-C -------------------------------------------------------------
def thousand(*args: str, **env: str) -> subprocess.Popen:
    """``thousand ARGS`` in a subprocess, its output read in the encoding it was given (PYTHONIOENCODING)."""
    return subprocess.Popen([sys.executable, "-c", "import cli; cli.main()", *args], cwd=ROOT,
                            encoding=env.get("PYTHONIOENCODING", "utf-8"), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT), **env})


# ---- item 20: an output that cannot encode the suit symbols --------------------------------------------------
@pytest.mark.parametrize("args, words", [
    (("rules",), "concede (raspisat') after seeing the talon"),
    (("bid", HAND, "--samples", "20", "--method", "dd", "--no-progress"), "brings both halves of S marriage"),
])
def test_a_latin1_output_gets_suit_letters(args, words):
    proc = thousand(*args, PYTHONIOENCODING="latin-1")
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0 and "Traceback" not in err, err
    assert words in out and not re.search(r"[^\x00-\xff]", out)


def test_a_latin1_error_is_one_line_with_suit_letters():
    proc = thousand("bid", "XH TH KH QH AS 9C JD", PYTHONIOENCODING="latin-1")
    out, err = proc.communicate(timeout=600)
    lines = [ln for ln in err.splitlines() if not ln.startswith("loading the compiled")]
    assert proc.returncode == 2 and lines == [lines[0]] and "suit S C D H (or S C D H)" in lines[0], err


def test_a_latin1_simulate_summary(tmp_path):
    proc = thousand("simulate", "--deals", "20", "--no-progress", "--out", str(tmp_path / "run"),
                    PYTHONIOENCODING="latin-1")
    out, err = proc.communicate(timeout=900)
    assert proc.returncode == 0 and "Traceback" not in err, err
    assert out.strip() and not re.search(r"[^\x00-\xff]", out)


# ---- Ctrl-C under load -------------------------------------------------------------------------------------------
PROMPT_EXIT = 2.0  # seconds from SIGINT to the process's exit, with both cores busy elsewhere


@pytest.fixture
def busy_cores():
    """Another process keeping every core busy for the length of the test."""
    load = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 2)]
    yield
    for p in load:
        p.kill()
        p.wait()


def read_until(proc: subprocess.Popen, pattern: str, timeout: float) -> str:
    """stderr of ``proc`` read as it comes until it matches ``pattern`` (progress bars end lines with
    carriage returns, not newlines)."""
    seen = ""
    deadline = time.monotonic() + timeout
    fd = proc.stderr.fileno()
    while not re.search(pattern, seen) and time.monotonic() < deadline and proc.poll() is None:
        if select.select([fd], [], [], 0.2)[0]:
            seen += os.read(fd, 65536).decode("utf-8", "replace")
    return seen


def interrupt(proc: subprocess.Popen) -> tuple[float, str, str]:
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=120)
    took = time.monotonic() - sent
    return took, proc.stdout.read(), os.read(proc.stderr.fileno(), 1 << 20).decode("utf-8", "replace")


def test_ctrl_c_stops_bid_within_two_seconds_on_a_loaded_machine(busy_cores):
    proc = thousand("bid", HAND, "--samples", "200000", "--method", "dd")
    # Into the double-dummy searches (a cold cache compiles the kernels first): some samples done.
    seen = read_until(proc, r"dd:[^\r\n]*\| *[1-9][0-9]*/200000", timeout=600)
    assert proc.poll() is None, seen
    time.sleep(1.0)
    took, out, err = interrupt(proc)
    print(f"bid --samples 200000 --method dd: exit {took:.2f} s after SIGINT")
    assert proc.returncode == 130 and took < PROMPT_EXIT, (took, err)
    assert out == "" and "Traceback" not in err and err.strip().endswith("interrupted")


def test_ctrl_c_stops_solve_of_many_layouts_within_two_seconds_on_a_loaded_machine(tmp_path, busy_cores):
    import numpy as np

    from sim.game.cards import format_hand

    rng = np.random.default_rng(5)
    layouts = tmp_path / "layouts.txt"
    with layouts.open("w") as f:
        for _ in range(5000):
            p = rng.permutation(24)
            f.write(" | ".join(format_hand(sum(1 << int(c) for c in p[8 * k:8 * k + 8])) for k in range(3)) + "\n")
    proc = thousand("solve", "--file", str(layouts))
    ticks = os.sysconf("SC_CLK_TCK")
    deadline = time.monotonic() + 600
    # Into the searches: the process has worked for a while (its start takes about a second of CPU).
    while proc.poll() is None and time.monotonic() < deadline:
        fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        if (int(fields[11]) + int(fields[12])) / ticks > 4:
            break
        time.sleep(0.2)
    assert proc.poll() is None, proc.communicate()
    took, out, err = interrupt(proc)
    print(f"solve --file (5,000 layouts): exit {took:.2f} s after SIGINT")
    assert proc.returncode == 130 and took < PROMPT_EXIT, (took, err)
    assert out == "" and "Traceback" not in err


# ---- issue 43 item 9: a bid table's own minimum bid has its column -------------------------------
def test_a_bid_table_shows_its_own_minimum_bid(tmp_path):
    """Under min_bid = 125 the make-rate columns started at 130 (the printed columns were a fixed
    list of round contracts) and the heuristic and double-dummy columns at 120, which such a table
    does not hold, printed nan: now 125 has its column and they sit at 125."""
    rules = rules_file(tmp_path, "min_bid = 125\n")
    res = runner.invoke(app, ["tables", "bids", "--rules", rules, "--deals", "40", "--pimc-deals", "0", "--min-n", "5",
                              "--out", str(tmp_path / "t"), "--wide"])
    assert res.exit_code == 0, res.output
    header = next(ln for ln in res.output.splitlines() if ln.startswith("hand (7 cards)"))
    columns = header.split()
    assert columns[columns.index("players") + 1] == "125", header
    assert "heuristic×3 125" in header and "double dummy 125" in header, header
    lines = res.output.splitlines()
    rows = lines[lines.index(header) + 1:][:3]
    cells = len(columns) - columns.index("players") - 1 - 3  # "heuristic×3 125 double dummy 125" is 2 cells
    assert rows and all(len(row.split("learned×3")[1].split()) == cells for row in rows), rows
    assert not [ln for ln in lines if " nan" in ln], res.output


# ---- issue 43 item 13: bid --objective win names its own options ---------------------------------
def win_table_refusal(folder: Path, *args: str) -> str:
    line = refused(bid(HAND, "--objective", "win", "--score", "0", "--win-table", str(folder), *args), "--win-table")
    before, _, rebuild = line.partition("rebuild the table in this one: ")
    assert "--out" not in before and "--fresh" not in before, line  # bid has neither option
    assert "give another --win-table folder" in before, line
    assert rebuild.startswith("thousand tables win-chances ") and rebuild.endswith(f"--out {folder} --fresh"), line
    return line


def test_a_win_table_refusal_names_what_bid_can_do(tmp_path):
    """A --win-table folder holding a table bid cannot use was refused with "give --fresh to redo
    it there, or choose another --out": options bid does not have. Now the refusal names
    --win-table, and the command that rebuilds the table there. (A damaged table is no longer
    refused but rebuilt from its games: tests/analysis/test_win_chances.py.)"""
    other = tmp_path / "other"  # a table of other sizes: the refusal names bid's --win-games
    other.mkdir()
    meta = {"table": "win chances", "games": 5000, "seed": 0, "players": ["learned"] * 3,
            "rules": HouseRules().to_dict()}
    pq.write_table(pa.table({"x": [1]}).replace_schema_metadata({k: json.dumps(v) for k, v in meta.items()}),
                   other / "win_chances.parquet")
    line = win_table_refusal(other, "--win-games", "1000", "--line-player", "heuristic")
    assert "(--win-games: 5000 stored, 1000 asked)" in line and "--games 1000 --players heuristic" in line, line
