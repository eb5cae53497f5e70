"""Analyses of the engine's play, above ``sim``:

- ``stats``: the one home of the statistics: the 95% quantile, intervals (Wilson, means, ratios of
  sums), paired differences of ratios, two-sided p-values, Holm's correction, and the JSON form;
- ``summary``: run summaries read lazily from stored Parquet;
- ``stored`` and ``analysis_dir``: when a stored table or an analysis's ``--out`` folder may be
  reused, and the one line that says why not;
- ``advisor``: the bid advisor (``thousand bid``), over the engine's playouts of fixed deals
  (``sim.engine.playouts``);
- ``tables``: the bid-success tables and the cheat sheet (``thousand tables bids``);
- ``marriages``: exact marriage and talon odds beside simulated rates (``thousand tables marriages``);
- ``barrel``: barrel survival by attempt and cause (``thousand tables barrel``);
- ``compare``: rule sets on the same deals (``thousand compare``);
- ``tournament``: players over every seating of the same deals (``thousand tournament``);
- ``calibrate``: the heuristic player's hand-value weights, fitted to deals it plays;
- ``plots``: what every plot shares (no screen, an atomic save);
- ``report``: the strategy report, which arranges what the others produce (``thousand report``).
"""

__all__ = []
