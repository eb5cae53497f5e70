"""Analyses of the engine's play, above ``sim``. Each analysis is a keyword-only function that
returns a frozen result object with typed fields, ``to_polars()`` for its tables and ``to_dict()``
for JSON; none of them formats text, draws or knows the command line:

- ``summary``: a stored run's summary (``summarize_run`` → ``RunSummary``);
- ``bids``: the bid question in one package: the bid advisor (``bids.advisor.advise`` →
  ``Advice``; ``thousand bid``), over the engine's playouts of fixed deals
  (``sim.engine.playouts``), and the bid-success tables and the cheat sheets
  (``bids.table.tables_bids`` → ``BidTable``), with what both share (what a hand may bid, what a
  bidding line is worth) and ``bids.calibrate``, the heuristic player's hand-value weights;
- ``marriages``: exact marriage and talon odds beside simulated rates, marriages in play, and what
  a marriage is worth, one module a job (``marriages.odds.tables_marriages`` → ``MarriageOdds``);
- ``barrel``: barrel survival by attempt and cause (``tables_barrel`` → ``BarrelStats``);
- ``compare``: rule sets on the same deals (``compare`` → ``Comparison``);
- ``tournament``: players over every seating of the same deals (``tournament`` →
  ``TournamentResult``);
- ``stats``: the one home of the statistics: the 95% quantile, intervals (Wilson, means, ratios of
  sums), paired differences of ratios, two-sided p-values, Holm's correction, and the JSON form;
- ``study``: the one pipeline of a study that plays its own runs (``Plan`` → ``run_study``: what
  its ``--out`` may hold, reuse, refuse or redo beside with ``--fresh``, play, store with
  provenance); ``stored``: when a stored table may be reused, and the one line that says why not;
  ``analysis_dir``: the names of an ``--out`` folder's runs and the wording of their errors;
  ``deals`` and ``measures``: the random deals, the clustered mean and the barrel episodes that
  more than one study takes (no study imports another).

Above them: ``analysis.present``, the one wing that presents results, one module a study (its
text, its section of the report, its plots) beside what they share (``format``, ``figure``,
``json_text``); and above it ``analysis.report``, the strategy report (``thousand report``): its
sizes and cost model (``plan``), the build that computes the sections' results and writes the files
(``build``), the Markdown page assembled from the presenters' sections (``page``) and the HTML page
(``html``). ``import thousand`` re-exports the analyses.
"""

__all__: list[str] = []
