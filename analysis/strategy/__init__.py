"""Strategy in play (``thousand tables strategy``): what a strong player asks, measured on the
players' own games. One module a job:

- ``arrays``: the played deals as arrays (``Deals``, ``load_deals``) and rows grouped by cluster
  (``Clusters``), which give a share or a mean with its interval (``analysis.stats.Estimate``) and
  a paired ``Difference``;
- ``sections``: the seven sections' measures (raising, conceding, the discard, which marriage
  first, the defence, play by seat, the score situation), each from the deals;
- ``study``: the study itself (``strategy`` → ``StrategyReport``), which plays its runs, measures
  the sections, corrects their p-values together and stores its table on the one pipeline of a
  played study (``analysis.study.run_study``); the table records
  ``code_fingerprint("strategy.study")``, which covers the modules above.
"""

__all__: list[str] = []
