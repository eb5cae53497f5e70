"""The report's HTML page: a wide table says on a narrow screen that it scrolls (issue 45, "At 420
px"); the plots are embedded and linked."""

from __future__ import annotations

import re

from analysis.report.html import SCROLL_NOTE, WIDE_COLUMNS, render_html


def _table(columns: int) -> str:
    head = "| " + " | ".join(f"h{i}" for i in range(columns)) + " |"
    return "\n".join([head, "|" + "---|" * columns, "| " + " | ".join("x" * columns) + " |", ""])


def test_a_wide_table_says_it_scrolls_and_a_narrow_one_does_not(tmp_path):
    page = render_html(_table(WIDE_COLUMNS) + "\n" + _table(WIDE_COLUMNS - 1) + "\n" + _table(WIDE_COLUMNS + 3),
                       tmp_path)
    assert page.count(SCROLL_NOTE) == 2
    notes = [m.start() for m in re.finditer(re.escape(SCROLL_NOTE), page)]
    tables = [m.start() for m in re.finditer("<table>", page)]
    assert notes[0] < tables[0] < tables[1] < notes[1] < tables[2]  # each note stands right above its table
    # shown only on a narrow screen
    assert ".scrolls { display: none;" in page and "@media (max-width: 800px) { .scrolls { display: block; } }" in page


def test_a_plot_is_embedded_and_links_to_its_png(tmp_path):
    (tmp_path / "p.png").write_bytes(b"\x89PNG\r\n\x1a\nfake")
    page = render_html("![a plot](p.png)\n", tmp_path)
    assert '<a href="p.png"' in page and 'src="data:image/png;base64,' in page
