"""The body rows of the ``table`` macro (``templates/macros.html``), as one string per table.

Jinja spends about 3 microseconds per cell in a nested loop, a third of the site's render
time on a campaign of 143 runs (TREC-COVID round 1); this filter writes the same markup with one
f-string per cell. Every text and link is escaped, as the autoescaped template would.
"""

from __future__ import annotations

import re
import sys

from markupsafe import Markup, escape

from builder.site.tables import Cell, Table

_SPECIAL = re.compile("[&<>\"']")
_SEPARATOR = re.compile(r"([_.-])(?=[^\s])")
"""A separator inside a name (``sab20.1.meta_docs``): the name heading a row of a table with
controls may wrap after it (``<wbr>``) on a narrow screen rather than inside a word."""
_AS_IS = ("https://", "http://", "./", "../")
"""Links written as they are: web addresses, and links relative to the page's own folder (a
run page's links to the other runs' pages: ``./x.html`` rather than ``../../covid/runs/x.html``)."""
WRAPPED_NAME = 12
"""Names (texts without a space) longer than this many characters are given those breaks."""


def _escaped(text: str) -> str:
    """``escape(text)``: most cells are numbers with nothing to escape, and one regular
    expression search costs less than building a Markup for each of them."""
    if isinstance(text, Markup):
        return text
    return str(escape(text)) if _SPECIAL.search(text) else text


def table_rows(table: Table, root: str) -> Markup:
    """``<tr>...</tr>`` per row, each followed by a newline; the cell at ``row_header`` is a
    ``<th scope="row">``, numbers get ``class="num"`` unless their column is one of the table's
    trailing numeric columns (``Table.numeric_from``: the table is marked instead); cells with
    ``href`` link from ``root``, but for links already relative to the page (``./``, ``../``),
    written as they are."""
    prefix = escape(root)
    header = table.row_header
    # Numbers in the columns from this one on are marked by the table's class, not their own.
    marked_from = table.numeric_from if table.numeric_from is not None else sys.maxsize
    # Each cell's opening and closing tags, by whether it heads its row and is a number.
    tags = {(True, True): ('<th scope="row" class="num">', "</th>"),
            (True, False): ('<th scope="row">', "</th>"),
            (False, True): ('<td class="num">', "</td>"),
            (False, False): ("<td>", "</td>")}
    special = _SPECIAL.search
    # The row names of a table that scrolls under a pinned name column (the leaderboard):
    # a long one wraps at its separators on a phone.
    wrap_names = table.controls is not None
    lines = []
    for row in table.rows:
        cells = []
        for index, (text, href, numeric) in enumerate(row):
            opening, closing = tags[index == header, numeric and index < marked_from]
            if special(text):  # inline rather than _escaped: this runs for every cell
                text = escape(text)
            if wrap_names and index == header and len(text) > WRAPPED_NAME and " " not in text:
                text = _SEPARATOR.sub(r"\1<wbr>", str(text))
            if href:
                text = f'<a href="{_address(href, prefix)}">{text}</a>'
            cells.append(f"{opening}{text}{closing}")
        lines.append(f"<tr>{''.join(cells)}</tr>\n")
    return Markup("".join(lines))


def run_list(same: list[tuple[Cell, str]], root: str, label: str = "adjusted p") -> Markup:
    """The linked runs of a run page's "not significantly different from" paragraph, each with
    its adjusted p-value, comma-separated; escaped as the autoescaped template would (the
    Jinja loop it replaces took about 0.1 s over the 143 run pages of TREC-COVID)."""
    prefix = escape(root)
    return Markup(", ".join(
        f'<a href="{_address(cell.href, prefix)}">{_escaped(cell.text)}</a>'
        f" ({label} {_escaped(p)})"
        for cell, p in same))


def _address(href: str, prefix: str) -> str:
    """A link's escaped address: a page of the site from the root (``prefix``, escaped), a web
    address or a link relative to the page itself (``_AS_IS``) as it is."""
    return f"{'' if href.startswith(_AS_IS) else prefix}{_escaped(href)}"
