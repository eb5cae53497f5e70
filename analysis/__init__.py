"""Analyses of the engine's play, above ``sim``. Each analysis is a keyword-only function that
returns a frozen result object with typed fields, ``to_polars()`` for its tables and ``to_dict()``
for JSON; none of them formats text, draws or knows the command line:

- ``summary``: a stored run's summary (``summarize_run`` → ``RunSummary``);
- ``advisor``: the bid advisor (``advise`` → ``Advice``; ``thousand bid``), over the engine's
  playouts of fixed deals (``sim.engine.playouts``);
- ``tables``: the bid-success tables and the cheat sheets (``tables_bids`` → ``BidTable``);
- ``marriages``: exact marriage and talon odds beside simulated rates, marriages in play, and what
  a marriage is worth (``tables_marriages`` → ``MarriageOdds``);
- ``barrel``: barrel survival by attempt and cause (``tables_barrel`` → ``BarrelStats``);
- ``compare``: rule sets on the same deals (``compare`` → ``Comparison``);
- ``tournament``: players over every seating of the same deals (``tournament`` →
  ``TournamentResult``);
- ``calibrate``: the heuristic player's hand-value weights, fitted to deals it plays;
- ``stats``: the one home of the statistics: the 95% quantile, intervals (Wilson, means, ratios of
  sums), paired differences of ratios, two-sided p-values, Holm's correction, and the JSON form;
- ``study``: the one pipeline of a study that plays its own runs (``Plan`` → ``run_study``: what
  its ``--out`` may hold, reuse, refuse or redo beside with ``--fresh``, play, store with
  provenance); ``stored``: when a stored table may be reused, and the one line that says why not;
  ``analysis_dir``: the names of an ``--out`` folder's runs and the wording of their errors.

Above them: ``analysis.present``, the one wing that presents results, one module a study (its
text, its section of the report, its plots) beside what they share (``format``, ``figure``,
``json_text``); and above it ``analysis.report``, the strategy report (``thousand report``): its
sizes and cost model (``plan``), the build that computes the sections' results and writes the files
(``build``), the Markdown page assembled from the presenters' sections (``page``) and the HTML page
(``html``). ``import thousand`` re-exports the analyses.
"""

__all__: list[str] = []
