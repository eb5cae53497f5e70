"""The strategy report as one self-contained HTML page: the Markdown's tables and anchors, one
style that reads at desktop and phone widths, and every plot embedded as a data URI (and linked to
its PNG beside the page, to be opened at full size)."""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path

import markdown

__all__ = ["render_html", "WIDE_COLUMNS", "SCROLL_NOTE"]

WIDE_COLUMNS = 4  # a table of this many columns or more says, on a narrow screen, that it scrolls
SCROLL_NOTE = "This table scrolls sideways: swipe it to see every column →"

# ---- the page's style ----------------------------------------------------------------------------------------
_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; max-width: 1100px;
       margin: 2em auto; padding: 0 1.5em; line-height: 1.5; color: #222; }
h1 { border-bottom: 2px solid #444; padding-bottom: .2em; }
h2 { border-bottom: 1px solid #aaa; margin-top: 2em; padding-bottom: .1em; }
table { border-collapse: collapse; margin: .8em 0; font-size: .9em; }
/* On a phone a wide table scrolls sideways on its own instead of being cut at the screen's edge. */
@media (max-width: 800px) { table { display: block; overflow-x: auto; max-width: 100%; } }
/* ... and a table of several columns says so above it, at those widths only. */
.scrolls { display: none; font-size: .8em; color: #666; margin: .8em 0 -.6em; }
@media (max-width: 800px) { .scrolls { display: block; } }
/* A plot scales to the page's width; its small print is read by opening the plot itself (every
   plot links to its PNG beside the page, which a phone shows zoomable). */
th, td { border: 1px solid #ccc; padding: .25em .6em; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
tr:nth-child(even) td { background: #fafafa; }
img { max-width: 100%; height: auto; display: block; margin: .5em 0; border: 1px solid #eee; }
code, pre { background: #f5f5f5; font-size: .9em; }
pre { padding: .8em; overflow-x: auto; }
"""


def render_html(md_text: str, folder: Path) -> str:
    """The Markdown as one self-contained HTML page: tables, section anchors, and every image
    embedded as a data URI (read from ``folder``)."""
    body = markdown.markdown(md_text, extensions=["tables", "attr_list", "fenced_code"])

    def embed(match: re.Match) -> str:
        src = html.unescape(match.group(2))
        path = folder / src
        if src.startswith(("data:", "http:", "https:")) or not path.is_file():
            return match.group(0)
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        img = f'{match.group(1)}src="data:image/png;base64,{data}"{match.group(3)}'
        return f'<a href="{match.group(2)}" title="open the plot at full size">{img}</a>'

    body = re.sub(r'(<img [^>]*?)src="([^"]+\.png)"([^>]*>)', embed, body)

    def scroll_note(match: re.Match) -> str:
        head = match.group(0)
        columns = len(re.findall(r"<th[ >]", head[:head.find("</tr>")]))
        note = f'<p class="scrolls">{SCROLL_NOTE}</p>\n' if columns >= WIDE_COLUMNS else ""
        return note + head

    body = re.sub(r"<table>.*?</tr>", scroll_note, body, flags=re.DOTALL)
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>Thousand: a strategy report</title>\n<style>{_CSS}</style>\n</head>\n<body>\n{body}\n"
            "</body>\n</html>\n")
