"""Analyses that read stored runs (Parquet, lazily with Polars) and turn them into tables."""
