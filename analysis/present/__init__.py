"""The presenting wing: every form in which a user sees an analysis's result, each taking result
objects (``analysis.compare.Comparison``, ``analysis.tournament.TournamentResult``, ...) and never
computing anything of its own:

- ``text``: the tables the commands print;
- ``json_text``: the JSON the commands print with ``--json`` (a result's ``to_dict()``, made
  ready for JSON);
- ``plots``: the plots, one function a result, and what every plot shares;
- ``markdown`` and ``html``: the strategy report's pages, composed from result objects.

The computations below (``analysis.*``) know none of these: they return data.
"""

__all__: list[str] = []
