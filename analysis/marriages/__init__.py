"""Marriage odds (``thousand tables marriages``): a marriage is the king and queen of one suit in one
hand. One module a job:

- ``exact``: the odds by counting, for the 7-card hand, the declarer's 10 cards, the talon and the
  whole deal (``exact_odds``);
- ``measured``: the same quantities measured in random deals, one ``OddsRow`` a quantity
  (``marriage_table``), and one test of all rows together (``odds_check`` → ``OddsCheck``);
- ``in_play``: what became of the marriages held in a stored deals run (``marriages_in_play`` →
  ``MarriagePlay``);
- ``worth``: what a marriage is worth to the declarer in a stored bid table (``marriage_worth`` →
  ``MarriageWorth``);
- ``odds``: the study itself (``tables_marriages`` → ``MarriageOdds``), which plays its deals and
  stores its tables on the one pipeline of a played study (``analysis.study.run_study``); its
  stored table records ``code_fingerprint("marriages.odds")``, which covers the modules above.
"""

__all__: list[str] = []
