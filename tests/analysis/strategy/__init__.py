"""The strategy study's tests, one file a module of ``analysis.strategy``."""
