"""Tests of the presenting wing, one file a presenter (``analysis.present``)."""
