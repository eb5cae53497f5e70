"""``thousand report``, the strategy report: ``build`` runs the studies on stored results and
writes the report atomically with its provenance; ``page`` assembles the Markdown page from the
presenters' sections (``analysis.present``) with the report's own (summary, method, glossary);
``html`` turns it into one self-contained HTML page; ``plan`` holds its sizes and cost model."""

__all__: list[str] = []
