"""The presenting wing: every form in which a user sees an analysis's result, one module a study,
each taking the study's result objects (``analysis.compare.Comparison``,
``analysis.tournament.TournamentResult``, ...) and never computing anything of its own:

- ``advice`` (``thousand bid``), ``bids``, ``marriages``, ``barrel``, ``compare``, ``tournament``,
  ``strategy``, ``win_chances``, ``situations`` (the bid advice by score situation, a report
  section only), ``summary`` (a stored run's), ``solve`` (a solved layout): each
  the lines its command prints, and where the study has them, its section of the strategy report
  (Markdown, below the heading ``analysis.report.page`` gives it) and its plots;
- ``format``: what they share, written once: a number or share with its 95% interval, who played,
  a Markdown table and figure;
- ``figure``: what every plot shares (the Agg backend, one style, an atomic save);
- ``json_text``: the JSON the commands print with ``--json`` (a result's ``to_dict()``, made
  ready for JSON).

The computations below (``analysis.*``) know none of these: they return data. The report's page
and HTML are ``analysis.report``'s.
"""

__all__: list[str] = []
