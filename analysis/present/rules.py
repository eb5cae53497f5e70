"""``thousand rules`` as it prints: the house rules' options (each with its default, the values it
allows and its meaning) and one rule set's effective values, those changed from classic marked."""

from __future__ import annotations

from typing import TYPE_CHECKING

from analysis.present.layout import DEFAULT_WIDTH, fit, wrap

if TYPE_CHECKING:
    from collections.abc import Sequence

    from sim.game.rules import HouseRules

__all__ = ["rule_options_lines", "effective_rules_lines"]


def rule_options_lines(rows: Sequence[tuple[str, str, str, str]], width: int | None = DEFAULT_WIDTH) -> list[str]:
    """Every option (``sim.game.rules.option_table``'s rows): first how many there are and where a
    preset's values are shown, then at ``width`` each option on a line of its name, default and
    allowed values with its meaning wrapped below it; with ``width`` None one line an option."""
    out = fit([f"{len(rows)} house rules: name = default (allowed values) and what it means; a rule set's "
               "values: thousand rules show PRESET (or a TOML file)"], width)
    name_width = max(len(r[0]) for r in rows)
    for name, default, allowed, meaning in rows:
        if width is None:
            out.append(f"{name:<{name_width}}  default {default:<10} ({allowed}) {meaning}")
            continue
        out += wrap(f"{name} = {default}  ({allowed})", width, hang="    ")
        out += wrap(meaning, width, indent="    ", hang="")
    return out


def effective_rules_lines(spec: str, rules: HouseRules, width: int | None = DEFAULT_WIDTH) -> list[str]:
    """The effective rules of ``spec`` (a preset or a TOML file): first the options changed from
    classic, then every option's value, a changed one marked."""
    changed = rules.changes_from(type(rules)())
    head = (f"{spec}: {len(changed)} rule{'s' if len(changed) != 1 else ''} changed from classic"
            + (f": {', '.join(changed)}" if changed else " (the classic rules)"))
    out = fit([head], width)
    for name, value in rules.to_dict().items():
        out += fit([f"{name} = {value!r}{'   # changed from classic' if name in changed else ''}"], width)
    return out
