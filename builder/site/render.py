"""Jinja rendering: one environment, autoescaped, each page written with its tables' CSVs.

Text from runs, topics and metadata reaches the HTML only through autoescaped expressions,
so a run tagged ``<script>`` shows as text. Tables are rendered by one macro from formatted
cells (``templates/macros.html``), never with ``DataFrame.to_html``.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from builder.site.models import Page
from builder.site.plots import figure_json
from builder.site.table_html import run_list, table_rows


def _templates_folder() -> Path:
    """``templates/`` of the source tree, or its installed copy ``builder/templates``."""
    source_tree = Path(__file__).resolve().parents[2] / "templates"
    if source_tree.is_dir():
        return source_tree
    return Path(__file__).resolve().parents[1] / "templates"


TEMPLATES = _templates_folder()


def environment(templates: Path = TEMPLATES):
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["figure_json"] = figure_json
    env.filters["table_rows"] = table_rows
    env.filters["run_list"] = run_list
    return env


def render_pages(env, pages: Iterable[Page], out: Path, site: dict[str, Any]) -> int:
    """Write every page, its tables' CSVs and its files under ``out``; return the number of
    pages."""
    written = 0
    made: set[Path] = set()
    for page in pages:
        target = out / page.path
        if target.parent not in made:
            target.parent.mkdir(parents=True, exist_ok=True)
            made.add(target.parent)
        html = env.get_template(page.template).render(
            page=page, root=page.root, site=site,
            tables={table.id: table for table in page.tables},
            figures={figure.id: figure for figure in page.figures},
            **page.context,
        )
        target.write_text(html, encoding="utf-8")
        for table in page.tables:
            if table.csv and table.has_rows:  # an empty table is not shown, nor its CSV linked
                (out / table.csv).write_text(table.csv_text(), encoding="utf-8")
        for path, text in page.files.items():
            (out / path).write_text(text, encoding="utf-8")
        written += 1
    return written
