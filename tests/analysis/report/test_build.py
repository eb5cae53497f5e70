"""The strategy report: its files, its Markdown (images present, tables well formed), its numbers
against the analyses' own --json commands on the same stored results, reuse of stored results, the
HTML page in a real headless Chromium, and bad arguments."""

import functools
import html
import json
import math
import os
import re
import shutil
import subprocess
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from analysis import folk
from analysis.analysis_dir import read_table_metadata
from analysis.bids import situations
from analysis.bids.situations import summarize_situations
from analysis.bids.value import MIN_REACHED, TESTED_SHARE
from analysis.present.format import num, pct
from analysis.present.json_text import to_json
from analysis.present.situations import advice_cell
from analysis.report import build as report
from analysis.report.build import build_report
from analysis.report.folk import FOLK_FILE
from analysis.report.page import SECTIONS
from analysis.report.plan import Sizes
from analysis.stats import Z95, Estimate, holm, two_sided_p
from analysis.win_chances import shipped_table
from sim.fingerprint import code_fingerprint, file_sha256
from sim.game.rules import load_rules

SMALL = Sizes(bid_deals=300, pimc_deals=6, marriage_deals=3000, marriage_play_deals=200, barrel_games=60,
              compare_games=60, tournament_games=40, min_n=10, strategy_games=30, strategy_deals=1000,
              situation_deals=40)
RULES = ["classic", "short"]
FOLLOWED: dict[str, list] = {}  # what the report fixture's progress and log received


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    root = tmp_path_factory.mktemp("report")
    out, data = root / "rep", root / "data"
    calls, logged = [], []
    path = build_report(rules=RULES, out=out, data=data, sizes=SMALL, quick=True,
                        command=["thousand", "report", "--test"], progress=lambda *a: calls.append(a),
                        log=logged.append)
    dirs = report.stage_dirs(data, rules=RULES, compared=RULES, seed=0, sizes=SMALL)
    FOLLOWED.update(progress=calls, logged=logged)
    return path, out, dirs


def test_progress_is_numbers_stage_by_stage(made):
    """The report reports (stage, done, total) in estimated seconds: every section's stage in order,
    the work done never going back, and all of it done at the end; its two lines go to ``log``."""
    calls = FOLLOWED["progress"]  # recorded by the fixture `made`
    stages = list(dict.fromkeys(stage for stage, _, _ in calls))
    assert [s.split(" (")[0] for s in stages] == ["bid tables", "score situations", "marriages", "barrel",
                                                  "house rules", "tournament", "strategy", "folk advice", "writing"]
    done = [d for _, d, _ in calls]
    assert done == sorted(done) and len({t for _, _, t in calls}) == 1
    assert done[-1] == calls[-1][2] > 0
    # a played section moves the bar while it plays, not only at its end
    for stage in ("barrel", "house rules", "tournament", "strategy"):
        assert sum(s == stage for s, _, _ in calls) >= 3, stage
    logged = FOLLOWED["logged"]
    assert len(logged) == 2 and logged[0].startswith("report: ") and "report written in" in logged[1]


def _md(out: Path) -> str:
    return (out / report.REPORT_MD).read_text(encoding="utf-8")


def _section_text(md: str, key: str) -> str:
    start = md.index(f"{{#{key}}}")
    nxt = [md.find("\n## ", start)]
    return md[start:nxt[0] if nxt[0] > 0 else len(md)]


def test_files_and_provenance(made):
    path, out, dirs = made
    data = dirs["bids"].parents[2]
    assert path == out / report.REPORT_HTML and path.is_file()
    for name in ("bid_make_rates.png", "bid_methods.png", "marriage_odds.png", "marriage_worth.png",
                 "barrel_survival.png", "compare.png", "tournament.png", "strategy.png"):
        assert (out / name).stat().st_size > 5000, name
    prov = json.loads((out / report.PROVENANCE).read_text(encoding="utf-8"))
    assert prov["command"] == ["thousand", "report", "--test"] and prov["seed"] == 0
    assert prov["sizes"]["bid_deals"] == 300 and prov["rules"] == RULES and prov["version"]
    assert set(prov["effective_rules"]) == set(RULES)
    inputs = {i["path"]: i for i in prov["inputs"]}
    rel = {k: str(v.relative_to(data)) for k, v in dirs.items()}
    assert f"{rel['bids']}/bids.parquet" in inputs
    assert f"{rel['situations']}/situations.parquet" in inputs
    assert any(p.startswith(f"{rel['barrel']}/barrel-runs/") for p in inputs)
    assert any(p.startswith(f"{rel['players']}/runs/") for p in inputs)
    assert any(p.startswith(f"{rel['rules']}/runs/") for p in inputs)
    assert prov["stored"] == {k: str(v) for k, v in dirs.items()}
    for rel, entry in inputs.items():
        assert file_sha256(data / rel) == entry["sha256"]
    assert not list(out.parent.glob(".rep.*"))  # no temporary folder left behind
    # Who played each section, and what the learned player played of its weights, by SHA-256.
    from sim.players.learned.weights import weights_identity
    from sim.players.registry import weights_file

    who = report.report_players(RULES, RULES)
    assert who.deals == "learned" and who.game == who.barrel == who.compared == "learned-win"
    assert who.field == ("learned-win", "heuristic", "leadage")
    assert prov["players"] == {"situations": ["learned", "learned-win"], "marriages": ["learned"],
                               "barrel": ["learned-win"] * 3, "rules": ["learned-win"] * 3,
                               "players": list(who.field)}
    assert prov["learned_weights"] == {name: weights_identity(weights_file(name))
                                       for name in ("learned", "learned-win")}


def test_markdown_images_exist_and_tables_parse(made):
    _, out, _ = made
    md = _md(out)
    for key, title in SECTIONS.items():
        assert f"## {title} {{#{key}}}" in md
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md)
    assert len(images) == 8 and all((out / img).is_file() for img in images)
    tables = 0
    lines = md.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("|---"):
            tables += 1
            width = lines[i - 1].count(" | ") + 1
            assert re.fullmatch(r"\|(---\|)+", line) and line.count("---") == width
            j = i + 1
            while j < len(lines) and lines[j].startswith("| "):
                cells = re.split(r"(?<!\\)\|", lines[j])[1:-1]
                assert len(cells) == width, lines[j]
                j += 1
            assert j > i + 1  # a table has rows
    assert tables >= 9


def _json_command(args: list[str]) -> dict:
    from cli import app

    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def test_numbers_equal_the_json_commands(made):
    _, out, dirs = made
    md = _md(out)
    kept = {k: json.loads((out / "data" / f"{k}.json").read_text(encoding="utf-8"))
            for k in ("bids", "marriages", "barrel", "rules", "players")}
    bids = _json_command(["tables", "bids", "--deals", "300", "--pimc-deals", "6", "--seed", "0", "--min-n", "10",
                          "--out", str(dirs["bids"]), "--json"])
    assert bids == kept["bids"]
    section = _section_text(md, "bids")
    assert bids["cheat_sheet"]
    for r in bids["cheat_sheet"]:
        row = next(ln for ln in section.splitlines() if ln.startswith(f"| {r['hand_class']} |"))
        assert row.startswith(f"| {r['hand_class']} | {r['n']:,} | ")
        for s in r["seats"]:
            # Each advice as printed (the settled rule: the plateau's lowest level that beats passing),
            # with the gain over passing it rests on, its interval above 0, and its plateau; "pass"
            # only where no tested line beats passing.
            untested = s["beyond"] is None and s["untested_from"] is not None
            need = max(MIN_REACHED, TESTED_SHARE * s["n"])  # the deals from which a level is tested
            tested = {ln["limit"]: ln for ln in s["lines"] if ln["limit"] > 0 and ln["reached"] >= need}
            if s["beyond"] is not None:
                assert s["beyond_gain"] == tested[s["beyond"]]["gain"]
            span = ("" if s["plateau_low"] is None else f"{s['plateau_low']}" if s["plateau_low"] == s["plateau_high"]
                    else f"{s['plateau_low']}–{s['plateau_high']}")
            span += "+" if span and s["plateau_open"] and s["untested_from"] is not None else ""
            plat = ("" if s["plateau_settled"] else "~") + (("pass" + ("–" + span if span else ""))
                                                             if s["plateau_pass"] else span)
            if s["bid"] is None and untested:
                assert f"few auctions reached {s['untested_from']})" in row
            elif s["bid"] is None:
                assert all(ln["gain_low"] <= 0 for ln in tested.values())
                assert ("forced bid, then pass" if s["forced"] else "| pass") + f" (plateau {plat})" in row
            else:
                assert s["gain_low"] > 0 and s["bid"] in tested
                more = "; higher untested" if untested else ""
                assert (f"bid to {s['bid']}{more} (plateau {plat}): "
                        f"{num(s['gain'], s['gain_low'], s['gain_high'], sign=True)}") in row
    for r in bids["comparison"]:
        assert (f"| {r['contract']} | {r['n']:,} | {pct(*r['learned'])} | {pct(*r['pimc'])} | "
                f"{num(*(None if x is None else 100 * x for x in r['diff']), sign=True)} |") in section
    assert "--players learned" in _section_text(md, "method")  # each reproducing command names its players
    marriages = _json_command(["tables", "marriages", "--deals", "3000", "--play-deals", "200", "--seed", "0",
                               "--bids", str(dirs["bids"] / "bids.parquet"), "--out", str(dirs["marriages"]),
                               "--json"])
    assert marriages == kept["marriages"]
    section = _section_text(md, "marriages")
    by = {r["quantity"]: r for r in marriages["rows"]}
    r = by["hand: at least one marriage"]
    assert f"| {pct(r['simulated'], r['ci_low'], r['ci_high'], digits=2)} |" in section
    check = marriages["check"]
    assert f"family p = {check['p']:.2g}" in section and "played by the learned player, all seats" in section
    for w in marriages["worth"]:
        assert num(*w["learned_gain"], sign=True) in section and num(*w["dd_gain"], sign=True) in section
    barrel = _json_command(["tables", "barrel", "--games", "60", "--rules", "classic", "--rules", "short",
                            "--seed", "0", "--out", str(dirs["barrel"]), "--json"])
    assert barrel == kept["barrel"]
    section = _section_text(md, "barrel")
    ups = [pct(v["fates"]["up"]["p"], v["fates"]["up"]["ci_low"], v["fates"]["up"]["ci_high"])
           for v in barrel["summaries"].values()]
    assert "| leaves upward (wins) | " + " | ".join(ups) + " |" in section
    rules = _json_command(["compare", "classic", "short", "--games", "60", "--seed", "0", "--out",
                           str(dirs["rules"]), "--json"])
    assert rules == kept["rules"]
    section = _section_text(md, "rules")
    for r in rules["rows"]:
        if r["significant"]:
            assert num(r["diff"], r["ci_low"], r["ci_high"], digits=3, sign=True) in section
    field = report.report_players(RULES, RULES).field
    players = _json_command(["tournament", *field, "--games", "40", "--seed", "0", "--out",
                             str(dirs["players"]), "--json"])
    assert players == kept["players"]
    section = _section_text(md, "players")
    for r in players["players"]:
        assert f"| {r['player']} | {pct(r['win_share'], r['win_ci_low'], r['win_ci_high'])} |" in section
    kept["strategy"] = json.loads((out / "data" / "strategy.json").read_text(encoding="utf-8"))
    strategy = _json_command(["tables", "strategy", "--games", "30", "--deals", "1000", "--seed", "0", "--out",
                              str(dirs["strategy"]), "--json"])
    assert strategy == kept["strategy"]
    section = _section_text(md, "strategy")
    for sub in ("6.1 Raising after the talon", "6.2 Conceding", "6.3 The discard", "6.4 Which marriage to declare",
                "6.5 Defence against a declarer's marriage", "6.6 Play by seat", "6.7 The score situation"):
        assert f"### {sub}" in section
    raised = strategy["raising"]["choice"]["raise"]
    assert f"| all contracts | 100% | {pct(raised['value'], raised['low'], raised['high'])} |" in section
    for place, cell in strategy["seats"]["by_position"].items():
        e = cell["declares"]
        assert f"| {place} | {pct(e['value'], e['low'], e['high'])} |" in section
    summary = _section_text(md, "summary")
    assert f"{report.report_players(RULES, RULES).game} player at every seat" in summary
    assert summary.count("\n- **") >= 5
    # a quick report's cheat sheet is provisional: stamped so in its section, kept out of the summary
    assert "provisional and kept out of this summary" in summary and "bid to" not in summary
    assert "**Provisional**" in _section_text(md, "bids")
    glossary = _section_text(md, "glossary")
    for term in ("Declarer", "Talon", "Marriage", "Barrel", "Bolt", "Dump truck", "Raise", "Concede",
                 "First, second, third hand", "Race objective"):
        assert f"- **{term}**:" in glossary


def test_the_score_situations_are_their_stored_rows(made):
    """Section 1b: its data is the result recomputed from the stored rows, and its page prints every
    cell's advice (provisional: a quick report)."""
    _, out, dirs = made
    kept = json.loads((out / "data" / "situations.json").read_text(encoding="utf-8"))
    table = shipped_table("classic", "learned")
    again = summarize_situations(dirs["situations"] / situations.TABLE_FILE, table.chance,
                                 win_source=kept["win_source"])
    assert kept == json.loads(to_json(again))
    text = _section_text(_md(out), "situations")
    assert "**Provisional**" in text and "the player's habit, not advice" in text
    for c in again.cells:
        assert advice_cell(c) in text
    assert {c["situation"] for c in kept["cells"]} == {s.key for s in situations.situations_for(load_rules("classic"))}


def test_a_second_run_plays_nothing(made, tmp_path):
    _, out, dirs = made
    data = dirs["bids"].parents[2]
    before = {p: p.stat().st_mtime_ns for p in data.rglob("*.parquet")
              if "runs" in p.parts or p.name in ("bids.parquet", "situations.parquet", FOLK_FILE)}
    again = tmp_path / "again"
    build_report(rules=RULES, out=again, data=data, sizes=SMALL, quick=True)
    after = {p: p.stat().st_mtime_ns for p in before}
    assert before == after
    assert _md(again) == _md(out)
    # A previous report is replaced whole; one holding a file a report does not write is refused, the file kept.
    (again / report.REPORT_MD).write_text("an older report")
    build_report(rules=RULES, out=again, data=data, sizes=SMALL, quick=True)
    assert _md(again) == _md(out)
    (again / "stray.txt").write_text("x")
    with pytest.raises(report.ReportError, match="stray.txt, which a report does not write"):
        build_report(rules=RULES, out=again, data=data, sizes=SMALL, quick=True)
    assert (again / "stray.txt").read_text() == "x" and (again / report.REPORT_HTML).is_file()
    # Another seed (or other sizes, or rules) has folders of its own beside these.
    other = report.stage_dirs(data, rules=RULES, compared=RULES, seed=1, sizes=SMALL)
    assert all(other[k] != dirs[k] for k in dirs)
    assert report.stage_dirs(data, rules=["classic"], compared=RULES, seed=0, sizes=SMALL)["rules"] == dirs["rules"]


def test_the_folk_section_recomputes_from_its_stored_data(made):
    """The folk advice's table as stored: its verdicts recomputed from its rows alone (p from each
    interval, Holm over the tested rows), its first effect recomputed from the stored bid table by
    hand, its provenance naming the tables it read by SHA-256, and every verdict on the page."""
    _, out, dirs = made
    path = dirs["folk"] / FOLK_FILE
    frame = pl.read_parquet(path)
    meta = read_table_metadata(path)
    assert [r for r in frame["key"]] == [q.key for q in folk.QUOTES]
    tested = frame.filter(~pl.col("verdict").is_in([folk.NO_ADVICE, folk.NOT_IN_SEEDS]))
    assert tested.height == 6
    p = [two_sided_p(r["value"], (r["high"] - r["low"]) / (2 * Z95)) for r in tested.iter_rows(named=True)]
    for r, ph in zip(tested.iter_rows(named=True), holm(p), strict=True):
        assert math.isclose(r["p_holm"], ph, rel_tol=1e-9, abs_tol=1e-15)
        assert r["verdict"] == folk.verdict(Estimate(r["value"], r["low"], r["high"]), ph)
    # Passing less "bid up to 120" (line 5 of classic's: pass, 100, 105, 110, 115, 120), race values,
    # hands without a marriage, every seat: the mean over the bid table's rows.
    bids = pl.read_parquet(dirs["bids"] / "bids.parquet").filter(pl.col("marriages") == 0)
    diffs = []
    for seat in ("first", "second", "third"):
        ch = [bids[f"{seat}_change{s}"].to_list() for s in range(3)]
        for a, b, c in zip(*ch, strict=True):
            if len(a) > 5:
                diffs.append((a[0] - (b[0] + c[0]) / 2) - (a[5] - (b[5] + c[5]) / 2))
    row = frame.row(0, named=True)
    assert row["key"] == "no_marriage_high" and row["n"] == len(diffs)
    assert math.isclose(row["value"], sum(diffs) / len(diffs), rel_tol=1e-9)
    assert meta["inputs"]["bids"]["sha256"] == file_sha256(dirs["bids"] / "bids.parquet")
    assert meta["inputs"]["strategy"]["sha256"] == file_sha256(dirs["strategy"] / "strategy.parquet")
    assert meta["code_fingerprint"] == code_fingerprint("report.folk") and meta["positions"] == SMALL.folk_positions
    text = _section_text(_md(out), "folk")
    for r in frame.iter_rows(named=True):
        assert f"**Verdict: {r['verdict']}**" in text
    assert json.loads((out / "data" / "folk.json").read_text(encoding="utf-8"))["items"][0]["key"] == "no_marriage_high"


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


# Run in the page once it has loaded: what the test checks, written into the page for --dump-dom.
_PROBE = """<script>
window.addEventListener('load', () => {
  const out = {
    images: Array.from(document.images).map(i => [i.naturalWidth, i.naturalHeight, i.complete]),
    links: Array.from(document.querySelectorAll('a[href]')).map(a => a.getAttribute('href')),
    ids: Array.from(document.querySelectorAll('[id]')).map(e => e.id),
    page_width: document.documentElement.scrollWidth,
    view_width: window.innerWidth,
  };
  const pre = document.createElement('pre');
  pre.id = 'probe-result';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""

_CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                   "--disable-background-networking", "--disable-component-update", "--disable-sync",
                   "--virtual-time-budget=10000"]


def test_the_page_in_headless_chromium(made, tmp_path):
    chromium = _chromium()
    if chromium is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing: .ci/run installs Debian's chromium package")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    path, out, _ = made
    page = path.read_text(encoding="utf-8")
    assert "http://" not in page and "https://" not in page  # nothing to fetch: self-contained
    probe = tmp_path / "probe.html"
    probe.write_text(page.replace("</body>", _PROBE + "</body>"), encoding="utf-8")
    flags = _CHROMIUM_FLAGS + [f"--user-data-dir={tmp_path / 'profile'}"]
    artefacts = Path(os.environ.get("THOUSAND_TEST_ARTEFACTS", Path(__file__).parents[2] / "test-artefacts"))
    artefacts.mkdir(parents=True, exist_ok=True)
    # A desktop and a phone width: the page itself never scrolls sideways (wide tables and plots
    # scroll inside their own box), and a screenshot of each is kept as the test's artefact.
    for width in (1300, 420):
        size = f"--window-size={width},3000"
        dom = subprocess.run([chromium, *flags, size, "--dump-dom", probe.as_uri()], capture_output=True, text=True,
                             timeout=120).stdout
        found = re.search(r'<pre id="probe-result">(.*?)</pre>', dom, re.S)
        assert found, "the page did not finish loading"
        result = json.loads(html.unescape(found.group(1)))
        assert result["page_width"] <= result["view_width"] + 1, (width, result["page_width"], result["view_width"])
        specs = report.figure_specs(report.report_players(RULES, RULES))
        assert len(result["images"]) == len([f for figs in specs.values() for f in figs])
        assert all(w > 0 and h > 0 and done for w, h, done in result["images"])
        for key in SECTIONS:
            assert key in result["ids"]
        for link in result["links"]:
            if link.startswith("#"):
                assert link[1:] in result["ids"], link
            else:
                assert not re.match(r"[a-z]+:", link) and (out / link).exists(), link
        shot = artefacts / f"report-{width}.png"
        subprocess.run([chromium, *flags, size, f"--screenshot={shot}", path.as_uri()], capture_output=True,
                       timeout=120, check=True)
        assert shot.stat().st_size > 20_000


def test_the_command_says_where_its_results_go_and_prints_the_path_once(made, tmp_path, monkeypatch):
    """``thousand report``: its first line says where the stored results go and that --data chooses;
    its stdout is the report's path, once; every line of it at 80 columns (the bar aside)."""
    from cli import app

    _, _, dirs = made
    data = dirs["bids"].parents[2]
    monkeypatch.setattr(report, "build_report", functools.partial(build_report, sizes=SMALL))  # the small sizes
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(app, ["report", "--rules", "classic", "--rules", "short", "--quick", "--out", "again",
                                   "--data", str(data)])
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines() == [f"report: {Path('again') / report.REPORT_HTML}"]
    assert res.output.count(report.REPORT_HTML) == 1
    said = " ".join(res.stderr.split())
    assert (f"report: quick sizes, rules classic, short; its stored results go to {data} (--data chooses; a later "
            "report reuses them).") in said
    assert "report written in " in said and f"with {report.REPORT_MD} beside it" in said


def test_bad_arguments_get_one_line(tmp_path):
    from cli import app

    runner = CliRunner()
    res = runner.invoke(app, ["report", "--rules", "nope", "--out", str(tmp_path / "r")])
    assert res.exit_code == 2 and "error:" in res.output and "nope" in res.output
    four = tmp_path / "four.toml"
    four.write_text("players = 4\n")
    res = runner.invoke(app, ["report", "--rules", str(four), "--out", str(tmp_path / "r")])
    assert res.exit_code == 2 and "3-player" in res.output
    (tmp_path / "file").write_text("x")
    res = runner.invoke(app, ["report", "--out", str(tmp_path / "file")])
    assert res.exit_code == 2 and "is a file" in res.output
    res = runner.invoke(app, ["report", "--out", str(tmp_path / "d" / "rep"), "--data", str(tmp_path / "d")])
    assert res.exit_code == 2 and "outside" in res.output
    assert not (tmp_path / "r").exists()


def test_a_rules_file_equal_to_a_preset_is_not_compared_with_it(tmp_path):
    from analysis.report.build import rule_sets_compared
    from sim.game.rules import PRESETS

    copy = tmp_path / "our-online.toml"
    copy.write_text('preset = "online"\n')
    compared = rule_sets_compared([str(copy)])
    assert compared[0] == str(copy) and "online" not in compared
    assert set(compared[1:]) == set(PRESETS) - {"online"}


def test_the_report_follows_the_bid_tables_parts_by_their_numbers():
    """The bar advances by each part stored now (its share of the bids' estimate), the first part
    also by the compiling it waited for; parts kept from an earlier build and a reused table move
    nothing (the report adds what is left once the section is done)."""
    advanced = []
    follow = report._PartsPlayed(lambda stage, share=1.0: advanced.append((stage, share)))
    follow("rebuilt from the parts kept", 1, 4)
    follow("4,000 deals in 4 parts", 1, 4)
    assert advanced == [] and follow.played == 0
    follow("4,000 deals in 4 parts", 2, 4)
    follow("4,000 deals in 4 parts", 4, 4)  # two parts landed at once (a cluster)
    assert advanced == [("compile", 1.0), ("bids", 0.25), ("bids", 0.5)] and follow.played == 3
    reused = report._PartsPlayed(lambda stage, share=1.0: advanced.append((stage, share)))
    reused("out/bids.parquet holds this very table: reused, nothing played", 4, 4)
    assert reused.played == 0 and len(advanced) == 3
