"""The players. ``registry`` names them (the names a user gives, their codes, the parsing of
``--players``, which are learned, search or read parameters, the learned seats' weights files);
``params`` holds their settings (``HeuristicParams``, the parameter matrix the kernels read, TOML
player files); ``layout`` the codes and the parameter row's columns as compiled code reads them.
The compiled players: ``random_nb``, ``heuristic_nb``, ``dd_nb`` (double dummy), ``pimc_nb`` and
``pimc2_nb`` (perfect-information Monte Carlo, 3 and 2 seats), ``leadage_nb`` (a published bot,
ported), ``scripted_nb`` (known-answer tests) and ``learned/`` (the learned player: its nets,
weights and teacher). The engine reaches them only through ``seat_nb``, one function per kind of
decision, which also makes the buffers a chunk's seats decide with (``seat_tuple``).

Import from the module that holds a name: this package re-exports nothing.
"""

__all__ = []
