"""The learned player: ``layout`` (the inputs of its card net, the packed weights its kernels read,
the bidding nets' ladders, the stored position row), ``weights`` (the weights files and their
manifests, checked and packed), ``cards_nb`` (the card net's inputs and forward pass, the card and
the gifts it chooses), ``bidding_nb`` (the ladder nets' bids, final contract, concession and dark
game) and ``labels_nb`` (its teacher: the exact solver's value of every legal card of a recorded
position). The shipped weights are in ``sim/players/weights/``; the engine reaches the kernels
through ``sim.players.seat_nb``, and ``sim.training`` makes new weights.
"""

__all__ = []
