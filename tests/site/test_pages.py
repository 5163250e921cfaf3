"""Pages are data: each kind of page declared once by its module, the render stage walking the
list of them (``builder.site.pages.PAGES``) and knowing none by name."""

from __future__ import annotations

import importlib
import pkgutil
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace

import builder.site.pages
from builder.site import writer
from builder.site.models import Page, PageBuilder, Scope, SiteBuild
from builder.site.pages import PAGES


def test_every_declared_page_builder_is_listed_once() -> None:
    declared = []
    for module in pkgutil.iter_modules(builder.site.pages.__path__):
        loaded = importlib.import_module(f"builder.site.pages.{module.name}")
        declared += [value for value in vars(loaded).values() if isinstance(value, PageBuilder)]
    assert len(declared) == len(PAGES) == len({builder.name for builder in PAGES})
    assert set(declared) == set(PAGES)


def test_a_site_builder_is_called_once_and_a_task_builder_once_per_task() -> None:
    tasks = [SimpleNamespace(id="a"), SimpleNamespace(id="b"), SimpleNamespace(id="c")]
    build = SiteBuild(spec=None, tasks=tasks, out=Path("site"))
    site = PageBuilder("site", Scope.SITE, lambda build: [Page("s.html", "t", "s")])
    task = PageBuilder("task", Scope.TASK,
                       lambda task, build: [Page(f"{task.id}.html", "t", task.id)])
    assert [page.path for make in site.calls(build) for page in make()] == ["s.html"]
    assert [page.path for make in task.calls(build) for page in make()] == [
        "a.html", "b.html", "c.html"]


def test_a_builder_added_to_the_list_is_rendered_by_the_unchanged_writer(
        demo_analyses, tmp_path, monkeypatch) -> None:
    """A page of each task in the job queues, and one of the site once the downloads are
    written, which sees their listing."""
    site, analyses = demo_analyses
    when = datetime(2023, 11, 14, tzinfo=UTC)
    _, pages = writer.render_site(site, analyses, tmp_path / "before" / "site", when, 1)
    listed: dict[str, list[str]] = {}

    def notes(task, build: SiteBuild) -> list[Page]:
        return [Page(f"{task.spec.id}/notes.html", "downloads.html", "Notes",
                     {"tasks": []})]

    def files(build: SiteBuild) -> list[Page]:
        listed.update({task: [file["name"] for file in written]
                       for task, written in build.downloads.items()})
        return [Page("files.html", "downloads.html", "Files",
                     {"tasks": [(a, build.downloads[a.spec.id]) for a in build.tasks]})]

    monkeypatch.setattr(writer, "PAGES", (*PAGES,
                                          PageBuilder("notes", Scope.TASK, notes),
                                          PageBuilder("files", Scope.SITE, files,
                                                      lists_downloads=True)))
    out, more = writer.render_site(site, analyses, tmp_path / "after" / "site", when, 1)
    assert more == pages + len(analyses) + 1
    assert all((out / a.spec.id / "notes.html").is_file() for a in analyses)
    assert sorted(listed) == sorted(a.spec.id for a in analyses)
    assert all("scores.csv" in names for names in listed.values())
    shown = (out / "files.html").read_text(encoding="utf-8")
    assert all(f'{a.spec.id}/downloads/scores.csv">scores.csv</a>' in shown for a in analyses)
