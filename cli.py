"""The ``thousand`` command: thin wrappers that parse options, call a keyword-only function and
print. Errors in user input are reported as one line, never a traceback."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Monte Carlo analysis of the card game Thousand.")
rules_app = typer.Typer(help="House rules: list the options, show effective rules.", invoke_without_command=True)
app.add_typer(rules_app, name="rules")


def _fail(message: str) -> None:
    typer.secho(f"error: {message}", fg="red", err=True)
    raise typer.Exit(2)


def _user_errors():
    """The error types that mean bad input (reported without a traceback)."""
    from sim.cards import CardError
    from sim.rules import RulesError

    return (CardError, RulesError, FileNotFoundError, ValueError)


@rules_app.callback()
def rules_list(ctx: typer.Context) -> None:
    """List every house rule with its default, allowed values and meaning."""
    if ctx.invoked_subcommand is not None:
        return
    from sim.rules import IMPLEMENTED, option_table

    rows = option_table()
    width = max(len(r[0]) for r in rows)
    for name, default, allowed, meaning in rows:
        mark = "" if name in IMPLEMENTED else "  [engine: default only, for now]"
        typer.echo(f"{name:<{width}}  default {default:<10} ({allowed}) {meaning}{mark}")


@rules_app.command("show")
def rules_show(spec: Annotated[str, typer.Argument(help="a preset name or a TOML file")]) -> None:
    """Print the effective rules of a preset or a TOML file."""
    from sim.rules import HouseRules, load_rules

    try:
        rules = load_rules(spec)
    except _user_errors() as exc:
        _fail(str(exc))
    changed = rules.changes_from(HouseRules())
    for name, value in rules.to_dict().items():
        typer.echo(f"{name} = {value!r}{'   # changed from classic' if name in changed else ''}")


def main() -> None:  # console-script entry point
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)


if __name__ == "__main__":
    main()
