"""The README's command lines are the tool's: every fenced ``bash`` line of README.md (and of
docs/commands.md) is checked against the command line without playing anything: its subcommands and
options exist, their values parse, and its rules, players and hand are accepted; its ``pip install``
extras are pyproject's; the files it runs exist. The slow tier runs the README's ``thousand`` lines
in order, with small sizes, in a temporary folder. Every relative link of the README and of docs/
names a file that exists, and a link into a Markdown page a heading of it. The notebook example is
run by tests/test_api.py.
"""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

import pytest
import typer
from typer.core import TyperGroup
from typer.main import get_command
from typer.testing import CliRunner

import cli
from analysis.tournament import resolve_players
from sim.game.cards import parse_hand
from sim.game.rules import PRESETS, load_rules
from sim.players.registry import PLAYER_NAMES, parse_players

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
CHECKED = [README, ROOT / "docs" / "commands.md"]  # pages whose bash lines must run as written
# typer carries its own copy of click: its usage error (an unknown option, a bad value) is this class.
USAGE_ERROR = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")
NUMBERS = {5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten", 11: "eleven", 12: "twelve"}

# The options of a player's rules, players and hand, by the command's parameter names.
RULE_PARAMS = ("rules", "rule_sets", "play_rules", "spec")
# The slow tier's small sizes: each option's value replaced, and options added to a command.
SMALL = {"--games": "24", "--deals": "300", "--play-deals": "300", "--win-games": "200"}
SMALL_ADDED = {"bid": {"--samples": "200", "--make-samples": "30"}, "tables bids": {"--pimc-deals": "5"},
               "tables strategy": {"--deals": "300"}}
# Lines the slow tier does not play, each with why (the fast tier parses them all).
NOT_PLAYED = {"report": "minutes even with --quick; the report's own tests build it at small sizes",
              "train": "needs the train extra and a minute; tests/training trains at small sizes"}


def fenced(path: Path, language: str) -> list[str]:
    """The bodies of the fenced blocks of ``language`` in the Markdown file ``path``."""
    return re.findall(rf"^```{language}\n(.*?)^```", path.read_text(encoding="utf-8"), re.M | re.S)


def command_lines(path: Path) -> list[list[str]]:
    """Every command of the bash blocks of ``path`` as an argument list: continued lines joined,
    comments dropped, ``a && b`` split in two."""
    commands = []
    for block in fenced(path, "bash"):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            while words:
                cut = words.index("&&") if "&&" in words else len(words)
                commands.append(words[:cut])
                words = words[cut + 1:]
    return commands


def rule_files(path: Path) -> dict[str, str]:
    """The TOML blocks of ``path`` that name their file on their first line (``# house.toml``)."""
    files = {}
    for block in fenced(path, "toml"):
        first = block.splitlines()[0]
        if re.fullmatch(r"# [\w.-]+\.toml", first):
            files[first[2:]] = block
    return files


def parse_line(argv: list[str]) -> tuple[str, dict]:
    """The command (``"tables bids"``) and the parameters ``thousand ARGV`` gives, as the command line
    parses them, without running it: an unknown command or option, or a value of the wrong type, raises
    the command line's UsageError (typer's own click)."""
    command = get_command(cli.app)
    names, args = [], list(argv)
    while isinstance(command, TyperGroup) and args and not args[0].startswith("-"):
        sub = command.get_command(typer.Context(command), args[0])
        if sub is None:
            raise typer.BadParameter(f"no command {' '.join([*names, args[0]])!r}")
        names.append(args.pop(0))
        command = sub
    ctx = command.make_context(" ".join(["thousand", *names]), args)
    # the values the line gives (a default is the command's own business: train's rules "mixture")
    return " ".join(names), {name: value for name, value in ctx.params.items()
                             if ctx.get_parameter_source(name).name == "COMMANDLINE"}


def check_values(command: str, params: dict) -> None:
    """The values a player types that the command line takes as text: rules, players, the hand
    (each raises the error the command would report)."""
    for name in RULE_PARAMS:
        value = params.get(name)
        for spec in [value] if isinstance(value, str) else value or []:
            load_rules(spec)
    if command == "tournament":
        resolve_players(list(params["players"]), 3)
    elif params.get("players"):
        parse_players(params["players"])
    if command == "bid":
        parse_hand(params["hand"], count=7)


@pytest.fixture
def readme_folder(tmp_path, monkeypatch):
    """A folder holding the README's rules files and the examples, as the current folder."""
    for name, text in rule_files(README).items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("page", CHECKED, ids=lambda p: p.name)
def test_every_command_line_parses(page, readme_folder):
    lines = command_lines(page)
    assert any(line[0] == "thousand" for line in lines), f"{page.name} shows no thousand command"
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    for line in lines:
        shown = shlex.join(line)
        if line[0] == "thousand":
            try:
                command, params = parse_line(line[1:])
            except USAGE_ERROR as exc:
                pytest.fail(f"{page.name}: {shown}: {exc.format_message()}")
            check_values(command, params)
        elif line[:2] == ["pip", "install"]:
            for target in line[2:]:
                if target == "-e":
                    continue
                match = re.fullmatch(r"\.(?:\[([\w,-]+)\])?", target)
                assert match, f"{page.name}: {shown}: installs {target!r}, not this project"
                unknown = set((match.group(1) or "").split(",")) - set(extras) - {""}
                assert not unknown, f"{page.name}: {shown}: no extra {sorted(unknown)} in pyproject.toml"
        elif line[:3] == ["python", "-m", "pytest"]:
            assert set(line[3:]) <= {"-q", "--runslow", "-n", "0"}, f"{page.name}: {shown}"
        elif line[0] == "python":
            assert (ROOT / line[1]).is_file(), f"{page.name}: {shown}: no file {line[1]}"
        else:
            pytest.fail(f"{page.name}: {shown}: a line this test cannot check")


@pytest.mark.parametrize("page", CHECKED, ids=lambda p: p.name)
def test_every_extra_named_is_in_pyproject(page):
    """Prose and comments too: ``pip install -e '.[train]'`` names an extra pyproject.toml has."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    named = re.findall(r"pip\s+install\s+-e\s+'?\.\\?\[([\w,-]+)\\?\]", page.read_text(encoding="utf-8"))
    assert named, f"{page.name} names no extra"
    unknown = {extra for group in named for extra in group.split(",")} - set(extras)
    assert not unknown, f"{page.name} names extras pyproject.toml lacks: {sorted(unknown)}"


def cli_commands(group=None, prefix: str = "") -> set[str]:
    """Every command the CLI has, a subcommand as ``tables bids`` (read from the app, so that a new
    command cannot be left out of the README unnoticed)."""
    group = group if group is not None else get_command(cli.app)
    names = set()
    for name, command in group.commands.items():
        full = f"{prefix} {name}".strip()
        names |= cli_commands(command, full) if isinstance(command, TyperGroup) else {full}
    return names


def test_the_readme_shows_every_command():
    shown = {parse_line(line[1:])[0] for line in command_lines(README) if line[0] == "thousand"}
    wanted = cli_commands()
    assert {"bid", "tables bids", "record check", "runs combine"} <= wanted  # the walk finds subcommands
    assert wanted <= shown, f"the README shows no line of {sorted(wanted - shown)}"


def test_the_readme_names_every_preset_and_player():
    text = README.read_text(encoding="utf-8")
    assert f"The {NUMBERS[len(PRESETS)]} presets:" in text
    missing = [name for name in [*PRESETS, *PLAYER_NAMES] if f"`{name}`" not in text]
    assert not missing, f"the README does not name {missing}"


def test_the_readme_rules_file_loads(readme_folder):
    files = rule_files(README)
    assert files, "the README shows no rules file"
    for name in files:
        load_rules(name)


def slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\{#[\w-]+\}\s*$", "", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.M | re.S)
    found = set()
    for heading in re.findall(r"^#{1,6} (.+)$", text, re.M):
        found.add(slug(heading))
        found.update(re.findall(r"\{#([\w-]+)\}", heading))
    return found


@pytest.mark.parametrize("page", [README, *sorted((ROOT / "docs").glob("*.md"))], ids=lambda p: p.name)
def test_links_name_files_and_headings_that_exist(page):
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.M | re.S)
    text = re.sub(r"`[^`\n]*`", "", text)  # code spans: `Literal[int](0)` is no link
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        assert linked.exists(), f"{page.name} links to {target}: no such file"
        if anchor and linked.suffix == ".md":
            assert anchor in anchors(linked), f"{page.name} links to {target}: no such heading"


def small(argv: list[str]) -> list[str]:
    """``argv`` with its sizes made small, and the options that keep its command small added."""
    out = [SMALL.get(argv[i - 1], word) if i else word for i, word in enumerate(argv)]
    for option, value in SMALL_ADDED.get(parse_line(argv)[0], {}).items():
        if option not in argv:
            out += [option, value]
    return out


@pytest.mark.slow
def test_the_readme_command_lines_run(readme_folder):
    """Each ``thousand`` line of the README, in order and with small sizes, in one folder (a line
    may read what an earlier one stored): it ends without an error."""
    runner = CliRunner()
    played = 0
    for line in command_lines(README):
        if line[0] != "thousand" or line[1] in NOT_PLAYED:
            continue
        args = small(line[1:])
        res = runner.invoke(cli.app, args)
        assert res.exit_code == 0 and res.output.strip(), f"thousand {shlex.join(args)}:\n{res.output}"
        played += 1
    assert played >= 12
