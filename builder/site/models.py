"""What the render stage draws: pages, their tables and figures, as plain data (no HTML)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from builder.site.tables import Table


@dataclass
class Figure:
    """A plotly figure (``data`` and ``layout`` as plotly.js reads them) and its text alternative."""

    id: str
    label: str
    data: list[dict[str, Any]]
    layout: dict[str, Any]
    compare: str | None = None
    """The run-versus-run page (relative to the figure's page) that a click on a cell of
    this matrix of pairs of runs opens."""


@dataclass
class Page:
    """One HTML page: where it goes, which template renders it and the data it shows.

    ``path`` is relative to the site root; ``tables`` are written as CSV files next to it.
    """

    path: str
    template: str
    title: str
    context: dict[str, Any] = field(default_factory=dict)
    tables: list[Table] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)

    @property
    def root(self) -> str:
        """The link prefix from this page back to the site root (``""``, ``"../../"``)."""
        return "../" * self.path.count("/")
