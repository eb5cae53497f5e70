"""Analyses of the engine's play, above ``sim``: statistics with intervals (``stats``), run summaries
read lazily from stored Parquet (``summary``), the bid advisor (``advisor``, over the compiled
playouts of ``sim.engine.playouts_nb``), bid-success tables (``tables``) and the heuristic's
calibration (``calibrate``)."""
