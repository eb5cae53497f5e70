"""Inference of the hidden hands (docs/inference.md): the likelihood of the other seats' calls
under the learned player's bidding (``likelihood_nb``)."""

__all__: list[str] = []
