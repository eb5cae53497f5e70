"""The bid question, in one room: how much should a 7-card hand bid, and what do hands of each
class make and gain by bidding.

- ``hand``: what one hand may bid before anything is played: the seats and the forced bid, the
  known cards, the bidding and raise caps and the contract levels, the score situation and what
  making or failing scores in it, the talon's exact chances;
- ``value``: what a bidding line is worth against passing on the same deals, under an objective
  (race, own, win), and the bid it recommends;
- ``advisor`` and ``advice``: the bid advisor (``advise`` → ``Advice``; ``thousand bid``) and its
  result types;
- ``parts``, ``table``: the bid table (``thousand tables bids``): its parts played and kept under
  ``.bids-parts``, and the stored table built from them (``build_bid_tables``, ``tables_bids``),
  read back by other studies only through ``open_bid_table``;
- ``classes`` and ``results``: the summaries read from a stored table by hand class (make-rate
  curves, the cheat sheet, the learned player checked against pimc: ``summarize_bid_table``) and
  their result types (``BidTable``);
- ``situations``: what to bid in named score situations (near the dump truck, on the barrel, an
  opponent on it, deep behind) for a compact grid of the cheat sheet's classes, by the chance of
  winning with the score-aware player's lines, beside the zero-score race reference
  (``score_situations`` → ``SituationAdvice``; the report's section 1b);
- ``calibrate``: the heuristic player's hand-value weights (by which it bids), fitted to deals it
  plays (``python -m analysis.bids.calibrate``).

The random deals the table plays come from the core (``analysis.deals``), as the marriage odds'
do; the clustered means of the lines' values too (``analysis.measures``).
"""

__all__: list[str] = []
