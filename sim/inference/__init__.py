"""Inference of the hidden hands (docs/inference.md): the likelihood of the other seats' calls
under the learned player's bidding (``sim.players.learned.likelihood_nb``), of the cards they
played under its card net (``sim.players.learned.play_likelihood_nb``) and of the declarer's gifts
and final contract (``sim.players.learned.deal_likelihood_nb``), the certain facts of a seat's
view (``view``), the candidate worlds drawn and weighted (``worlds_nb``), the model the likelihood
reads (``model``), and ``infer``, the face (``infer.py``), re-exported by ``import thousand``."""

from sim.inference.infer import (
    CARD_TEMPERATURE,
    CONTRACT_TEMPERATURE,
    ESS_FLOOR,
    GIFT_TEMPERATURE,
    MAX_DRAWS,
    TEMPERATURE,
    Inference,
    infer,
)

__all__ = ["Inference", "infer", "TEMPERATURE", "CARD_TEMPERATURE", "GIFT_TEMPERATURE", "CONTRACT_TEMPERATURE",
           "ESS_FLOOR", "MAX_DRAWS"]
