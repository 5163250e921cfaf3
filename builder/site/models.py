"""What the render stage draws: pages, their tables and figures, as plain data (no HTML), and
the page builders that make them from the analyses."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from builder.site.parallel import Cost
from builder.site.paths import table_csv
from builder.site.tables import Table

if TYPE_CHECKING:
    from builder.config.schema import SiteSpec
    from builder.site.paths import SiteTask


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
    files: dict[str, str] = field(default_factory=dict)
    """Text files written with the page: path relative to the site root -> text (a run's
    scores as the official program prints them)."""

    @property
    def root(self) -> str:
        """The link prefix from this page back to the site root (``""``, ``"../../"``)."""
        return "../" * self.path.count("/")

    def with_table_csvs(self) -> Page:
        """This page, each of its tables given its CSV file next to it (``table_csv``)."""
        for table in self.tables:
            table.csv = table_csv(self.path, table.id)
        return self


@dataclass(frozen=True)
class SiteBuild:
    """What a page builder is handed: the site's spec, every task's analysis (with the file
    names of its pages), the staging folder, for a data file a page reads beside it, and, for
    the builders that list them, each task's written downloads (their links, sizes and
    SHA-256, as ``builder.site.pages.downloads.listing`` gives them)."""

    spec: SiteSpec
    tasks: list[SiteTask]
    out: Path
    downloads: dict[str, list[dict[str, str]]] = field(default_factory=dict)


class Scope(Enum):
    """How often a page builder is called: once for the site, or once per task."""

    SITE = "site"
    TASK = "task"


@dataclass(frozen=True)
class PageBuilder:
    """One kind of page, declared by its module and read by the render stage, which walks
    ``builder.site.pages.PAGES`` (as pelican's writer walks its generators).

    ``pages`` makes the pages from the analyses, plain data for their template: for a
    builder of the whole site ``pages(build)``, for one of each task
    ``pages(task, build)``; a page that a task may lack (no significance test, fewer than
    two runs) is an empty list. ``cost`` places each call in the render queue (the costliest
    first); a builder that ``lists_downloads`` is called once every download is written,
    with ``build.downloads`` filled."""

    name: str
    scope: Scope
    pages: Callable[[SiteBuild], list[Page]] | Callable[[SiteTask, SiteBuild], list[Page]]
    cost: Cost = Cost.LIGHT
    lists_downloads: bool = False

    def calls(self, build: SiteBuild) -> list[Callable[[], list[Page]]]:
        """The builder's calls for ``build``: one for the site, or one per task, in order."""
        if self.scope is Scope.SITE:
            return [partial(self.pages, build)]
        return [partial(self.pages, task, build) for task in build.tasks]
