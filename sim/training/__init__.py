"""Training the learned player: positions from play (``positions``), the exact solver's labels
(``labels``), the net's fit in JAX (``fit``, the optional ``train`` extra) and the stages of
``thousand train`` (``command``). Play time never imports this package.
"""

__all__ = []
