"""The strategy report's Markdown page, assembled from the studies' presenters: the title and
contents, each section under its heading (the words of each study's section are its presenter's,
``analysis.present.<study>``), the summary composed of the bid table's and the strategy's findings,
and the report's own sections, the method (players, statistics, sizes and the commands that
reproduce every figure) and the glossary. ``analysis.report.build`` computes the results and
writes the files; this module only words them."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from analysis.players import TRAINED_PRESETS, untrained_options
from analysis.present.barrel import barrel_section
from analysis.present.bids import bidding_summary, bids_section
from analysis.present.compare import rules_section
from analysis.present.folk import folk_section
from analysis.present.format import finite, markdown_table, players_text
from analysis.present.marriages import marriages_section
from analysis.present.situations import situations_section
from analysis.present.strategy import strategy_findings, strategy_section
from analysis.present.tournament import players_section
from analysis.stats import MIN_NORMAL
from sim import __version__
from sim.game.rules import load_rules

if TYPE_CHECKING:
    from analysis.bids.results import BidTable
    from analysis.marriages.odds import MarriageOdds
    from analysis.report.plan import Sizes
    from analysis.strategy.study import StrategyReport

__all__ = ["SECTIONS", "heading", "render_markdown", "untrained_note", "summary_section", "method_section",
           "glossary_section"]


# Anchors of the sections, in order (the HTML test checks each is present).
UNTRAINED_SHOWN = 5  # options named in a rule set's "not trained for" note; the rest counted
SECTIONS = {"summary": "At a glance", "bids": "1. How much to bid",
            "situations": "1b. What to bid by the score", "marriages": "2. Marriages",
            "barrel": "3. The barrel", "rules": "4. House rules", "players": "5. Players",
            "strategy": "6. Strategy in play", "folk": "7. What the folk advice says, tested", "method": "8. Method",
            "glossary": "Glossary"}


def heading(key: str) -> str:
    """A section's heading with its anchor: ``## 1. How much to bid {#bids}``."""
    return f"## {SECTIONS[key]} {{#{key}}}"


def render_markdown(sections: dict, figures: dict, *, rules: list[str], compared: list[str], seed: int,
                    sizes: Sizes, quick: bool, players: tuple[str, ...]) -> str:
    """The report's Markdown: ``sections`` by key (None: a section with nothing to show),
    ``figures`` the (file, caption) pairs each shows, and what made them (the rule sets, the seed,
    the sizes, the tournament's ``players``)."""
    kind = "quick" if quick else "full"
    lines = ["# Thousand: a strategy report", "",
             f"Rules: **{', '.join(rules)}**{'' if rules == ['classic'] else ' (the first for sections 1, 2 and 5)'}; "
             f"seed {seed}; {kind} sample sizes; thousand {__version__}. Measured shares, means and differences carry "
             "their 95% interval in brackets (beside a paired difference, the two sides it compares are printed "
             "plainly: the difference's interval is the one that counts); exact odds are exact; the data behind "
             "each section is in `data/`, and `provenance.json` says what made it. Open a plot (click or tap it) "
             "to read it at full size.", "",
             "Contents: " + " · ".join(f"[{title}](#{key})" for key, title in SECTIONS.items()), ""]
    body = {
        "summary": summary_section(sections.get("strategy"), sections.get("bids"), quick=quick),
        "bids": bids_section(sections["bids"], figures["bids"], provisional=quick),
        "situations": _situations_body(sections, rules[0], quick),
        "marriages": marriages_section(sections["marriages"], figures["marriages"]),
        "barrel": barrel_section(sections["barrel"], figures["barrel"]),
        "rules": rules_section(sections["rules"], figures["rules"]),
        "players": players_section(sections["players"], figures["players"]),
        "strategy": strategy_section(sections.get("strategy"), figures.get("strategy", [])),
        "folk": folk_section(sections.get("folk"), provisional=quick),
        "method": method_section(sections, rules=rules, compared=compared, seed=seed, sizes=sizes, quick=quick,
                                 players=players),
        "glossary": glossary_section(),
    }
    played_under = {"bids": rules[:1], "situations": rules[:1], "marriages": rules[:1], "barrel": compared,
                    "rules": compared, "players": rules[:1], "strategy": rules[:1], "folk": rules[:1]}
    for key in SECTIONS:
        note = untrained_note(played_under[key]) if key in played_under and sections.get(key) is not None else []
        lines += [heading(key), ""] + note + body[key]
    return "\n".join(lines) + "\n"


def _situations_body(sections: dict, rules: str, quick: bool) -> list[str]:
    """The score situations' section (``analysis.present.situations``), or why it was not made."""
    return situations_section(sections.get("situations"), provisional=quick,
                              missing=f"its player (learned-win) and its objective (the chance of winning) read a "
                                      f"table of win chances, shipped for the presets only, not for {rules}")


def untrained_note(specs: list[str]) -> list[str]:
    """A line saying which of the rule sets ``specs`` a section plays the learned player under that
    its weights were not trained for (``analysis.players.untrained_options``), and in which options:
    its numbers there are a player's habits under rules new to it. Nothing when all were trained for."""
    flagged = {spec: untrained_options(load_rules(spec)) for spec in specs}
    flagged = {spec: names for spec, names in flagged.items() if names}
    if not flagged:
        return []

    def options(names: tuple[str, ...]) -> str:
        shown = ", ".join(f"`{n}`" for n in names[:UNTRAINED_SHOWN])
        return shown + (f" and {len(names) - UNTRAINED_SHOWN} more" if len(names) > UNTRAINED_SHOWN else "")

    which = "; ".join(f"**{spec}** ({options(names)})" for spec, names in flagged.items())
    return [f"*The learned player's weights were trained under {', '.join(TRAINED_PRESETS)} and random play options; "
            f"not under {which}. Every number played there by the learned player is that of a player not trained "
            "for those rules: its habits, not necessarily the game's.*", ""]


def summary_section(strategy: StrategyReport | None, bids: BidTable | None = None, *,
                    quick: bool = False) -> list[str]:
    """The summary ("At a glance") below its heading: the cheat sheet in a few bullets (not from a
    quick report, whose cheat sheet is provisional: a line says so instead), then the strategy's
    findings to keep (or a line saying it was not measured)."""
    if quick and bids is not None and bids.cheat_sheet:
        lines = [f"**How much to bid**: the cheat sheet of this quick report ({bids.deals:,} deals) is provisional and "
                 "kept out of this summary: see [section 1](#bids), or the full report.", ""]
    else:
        lines = bidding_summary(bids)
    if strategy is None:
        return lines + ["The strategy sections were not measured for this report.", ""]
    return lines + strategy_findings(strategy) + ["", "Terms are explained in the [glossary](#glossary).", ""]


def _players_option(players: tuple[str, ...] | None) -> str:
    """`` --players NAME`` for a reproducing command, seat by seat unless every seat is the same;
    "" for no players (a section without a result)."""
    if not players:
        return ""
    return f" --players {players[0] if len(set(players)) == 1 else ','.join(players)}"


def _who_played(sections: dict, marriage_players: tuple[str, ...] | None) -> str:
    """Who played the deals of each section that plays, in one sentence (empty when none did)."""
    played = {"marriages": marriage_players, "barrel": sections["barrel"] and sections["barrel"].players,
              "rules": sections["rules"] and sections["rules"].players}
    parts = [f"{SECTIONS[key]}: the {players_text(players)}" for key, players in played.items() if players]
    if sections.get("players") is not None:
        parts.append(f"{SECTIONS['players']}: {', '.join(sections['players'].player_types)}, ranked")
    return f" Who played: {'; '.join(parts)}." if parts else ""


def method_section(sections: dict, *, rules: list[str], compared: list[str], seed: int, sizes: Sizes,
                   quick: bool, players: tuple[str, ...]) -> list[str]:
    """The method below its heading: the players, the statistics, the sizes and seeds, the cheat
    sheet's stability and the commands that reproduce every figure."""
    bids: BidTable = sections["bids"]
    advised = [x for r in bids.cheat_sheet for x in r.seats if x.bid is not None]
    sure = [x for x in advised if finite(x.gain.low) and x.gain.low > 0]
    marriages: MarriageOdds = sections["marriages"]
    marriage_players = marriages.play[0].players if marriages.play else None
    r0 = rules[0]
    rules_args = " ".join(f"--rules {r}" for r in compared)
    lines = ["**Players.** *heuristic*: our rule-based player (hand evaluation, bidding with a margin, card play by "
             "rules of thumb; it sees only its cards). *pimc*: perfect-information Monte Carlo: at each decision it "
             "deals the unseen cards consistently with what it knows, solves each layout double dummy and plays the "
             "card best on average. *dd*: double dummy, every seat seeing every card and playing perfectly: the "
             "declarer never guesses wrong, but neither do the defenders, so it is no bound on what a real "
             "declarer makes, and never a forecast of real play. *learned*: a small net "
             "trained on the exact solver's values of positions it reached itself, which bids, gives and plays, "
             "and plays its last three tricks by PIMC over 6 worlds (docs/learned.md). *leadage*: the ported "
             "bot." + _who_played(sections, marriage_players),
             "",
             "**Statistics.** Shares carry Wilson 95% intervals; means normal intervals, none from fewer than "
             f"{MIN_NORMAL} independent observations (too few: the mean is printed alone). Where rows share a game "
             "(the deals, seats and barrel episodes of one game) the intervals are clustered by game; where they "
             "share a deal, by deal. Differences between rule sets and players are paired (the same deals) and "
             "Holm-corrected over the family they belong to; \"significant\" and \"not significant\" always name "
             "that test (Holm p). The cheat sheet's gains over passing are paired differences on the same deals.",
             "",
             f"**Sizes and seeds** ({'quick' if quick else 'full'} report, seed {seed} everywhere):", ""]
    lines += markdown_table(["what", "size"],
                            [[k.replace("_", " "), f"{v:,}"] for k, v in dataclasses.asdict(sizes).items()])
    lines += [f"Stability of the cheat sheet: of its {len(advised)} advice to bid (a class and a seat), {len(sure)} "
              "have a gain over passing whose 95% interval lies wholly above 0; the others beat passing on the "
              "point estimate only, and a larger table would pin them down.", "",
              "**Reproduce every figure** (the same seed and sizes give the same numbers; each command's `--json` "
              "gives the data the report printed):", "",
              "```bash",
              f"thousand tables bids --deals {sizes.bid_deals} --pimc-deals {sizes.pimc_deals} --rules {r0} "
              f"--seed {seed} --min-n {sizes.min_n} --json",
              f"thousand tables marriages --deals {sizes.marriage_deals} --play-deals {sizes.marriage_play_deals} "
              f"--rules {r0}{_players_option(marriage_players)} --seed {seed} --bids out/tables/bids.parquet "
              "--out out/marriages --json",
              f"thousand tables barrel --games {sizes.barrel_games} "
              + " ".join(f"--rules {r}" for r in compared if load_rules(r).barrel is not None)
              + f"{_players_option(sections['barrel'] and sections['barrel'].players)} --seed {seed} --json",
              f"thousand compare {' '.join(compared)} --games {sizes.compare_games}"
              f"{_players_option(sections['rules'] and sections['rules'].players)} --seed {seed} --json",
              f"thousand tournament {' '.join(players)} --games {sizes.tournament_games} --rules {r0} "
              f"--seed {seed} --json",
              f"thousand tables strategy --games {sizes.strategy_games} --deals {sizes.strategy_deals} "
              f"--rules {r0} --seed {seed} --json",
              f"thousand report {rules_args if len(rules) > 1 else '--rules ' + r0}{' --quick' if quick else ''} "
              f"--seed {seed}",
              "```", "",
              "Section 7 has no command of its own: the report computes it from the bid table and the strategy and "
              f"barrel runs above, solving {sizes.folk_positions:,} of the strategy's deals double dummy "
              "(`data/folk.json`; docs/analyses.md, \"The folk advice, tested\").", "",
              "The rules are in `provenance.json` (every option) and `docs/RULES.md` (what each means).", ""]
    return lines


_GLOSSARY = (
    ("Declarer", "the player who wins the bidding, takes the talon and must make his contract."),
    ("Talon", "the three cards dealt face down; the declarer takes them, then gives one card to each opponent "
              "(the discard)."),
    ("Contract", "the points the declarer undertakes to take (cards plus declared marriages); the winning bid, "
                 "or more if he raises after seeing the talon."),
    ("Raise", "the declarer's increase of his contract after the talon, up to 120 plus the marriages he holds."),
    ("Concede", "to write the deal off after the talon instead of playing: the declarer loses his bid, each "
                "opponent scores half of it (rounded up to 5)."),
    ("Marriage", "the king and queen of one suit in one hand: ♠ 40, ♣ 60, ♦ 80, ♥ 100; declared by leading one "
                 "of them after winning a trick, and it makes that suit trump."),
    ("First, second, third hand", "the seats after the dealer in bidding order: first hand sits left of the "
                                  "dealer and must open at 100; third hand is the dealer."),
    ("Left, right", "from the declarer: left is the player after him (plays second to his lead), right the "
                    "other."),
    ("Barrel", "a score of 880: the player sitting there must make a contract of 120 or more within three deals "
               "to win, or fall back 120."),
    ("Bolt", "a deal in which a player takes no trick (a cross on the score sheet); every third costs 120."),
    ("Dump truck", "a score of exactly 555 after a deal is reset to 0."),
    ("Race objective", "a deal's result for one player less the mean of his two opponents': what counts in a "
                       "three-player race to 1000."),
    ("Paired (duplicate) comparison", "two ways of playing measured on the same deals, so that the cards do not "
                                      "differ between them."),
    ("Interval", "the 95% interval of a measured share or mean; \"clustered by game\": computed from games, "
                 "since deals of one game are not independent."),
)


def glossary_section() -> list[str]:
    """The glossary below its heading: the terms of the report, with the classic rules' values."""
    return ["The values are those of the classic rules; house rules change some of them "
            "(`thousand rules`).", ""] + [f"- **{term}**: {text}" for term, text in _GLOSSARY] + [""]
