"""The render stage: every page, table CSV, download, asset and the manifest, into a staging
folder beside the output, by independent jobs shared between two processes where possible
(``builder.site.parallel``). For the 143 runs of TREC-COVID round 1 and their printable
appendix, about 7.9 s of CPU, 4.7 s of wall time in two processes (``docs/scale.md``)."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from builder.config.schema import SiteSpec
from builder.contract import page_tables
from builder.pipeline.analysis import TaskAnalysis
from builder.pipeline.forked import signals_deferred
from builder.site.assets import copy_assets
from builder.site.manifest import input_records, manifest, write_checksums, write_manifest
from builder.site.models import Page, SiteBuild
from builder.site.pages import PAGES
from builder.site.pages.downloads import (
    Download,
    listing,
    submitted_files,
    task_downloads,
    write_download,
)
from builder.site.pages.significance import task_comparisons
from builder.site.parallel import Cost, Job, run_jobs
from builder.site.paths import SiteTask
from builder.site.publish import discard, staging_folder
from builder.site.render import environment, render_pages
from builder.site.runs import run_pages
from builder.site.runs.metadata import metadata_paths
from builder.site.runs.paper_figures import load_matplotlib
from builder.site.runs.volume import volume_pages, write_sheets
from builder.site.web import write_web_files
from builder.version import __version__


def render_site(site: SiteSpec, analyses: list[TaskAnalysis], output: Path,
                when: datetime, processes: int | None = None) -> tuple[Path, int]:
    """Render into a new folder beside ``output``; return it and the number of pages.

    ``processes``: 1 renders in this process, 2 in this one and a forked child (the default
    where ``fork`` and two cores exist; ``builder.site.parallel``). On any failure the
    staging folder is removed and the exception propagates.
    """
    staged = None
    try:
        with signals_deferred():  # an interruption finds the folder named, so removed
            staged = staging_folder(output)
        with _no_cycle_collection():
            tasks = [SiteTask.of(a, several=len(analyses) > 1) for a in analyses]
            pages = _render(site, tasks, staged, when, processes)
    except BaseException:
        if staged is not None:
            discard(staged)
        raise
    return staged, pages


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Pause Python's cycle collector while rendering: the stage makes a few hundred thousand
    short-lived cells, rows and strings beside the analyses' long-lived objects, and each full
    collection they trigger walks them all, which took 60% of building the run pages of a
    campaign of 143 runs (TREC-COVID round 1). The stage makes no reference cycles worth collecting
    early; the collector runs again as before once it ends."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


NO_JEKYLL = ".nojekyll"
"""Tells GitHub Pages to serve the site as it is."""
RUN_PAGES_PER_JOB = 16
"""Run pages are built in chunks of this many, so the two processes share them evenly."""


def _render(site: SiteSpec, analyses: list[SiteTask], out: Path, when: datetime,
            processes: int | None) -> int:
    context = {
        "campaign": site.campaign,
        "tasks": [{"id": a.spec.id, "title": a.spec.title,
                   "topics": f"{a.spec.id}/topics/index.html"} for a in analyses],
        "build_date": when.strftime("%Y-%m-%d %H:%M UTC"),
        "version": __version__,
        "site_url": site.config.site_url,
    }
    env = environment()
    files = {a.spec.id: task_downloads(a, site) for a in analyses}
    inputs = input_records(site)  # every input hashed once: the manifest, the run pages
    analyses = [replace(a, submitted=submitted_files(a, files[a.spec.id], inputs),
                        metadata_paths=metadata_paths(a, files[a.spec.id], site))
                for a in analyses]
    build = SiteBuild(site, analyses, out)
    # What both render processes use, made once before the worker is forked: the tables of
    # each evaluation the pages read (made on first access, ``LazyTables``: else made again by
    # the worker's first chunk of run pages, 0.25 s for TREC-COVID round 1), every template
    # compiled, matplotlib for the appendix's sheets, and each task's significance comparisons
    # of every run with every other (else formatted by the chunk of each side of a pair)
    for analysis in analyses:
        for name in page_tables(analysis.extras):
            analysis.extras[name]
        task_comparisons(analysis)
    for name in env.list_templates(filter_func=_is_page_template):
        env.get_template(name)
    if any(analysis.runs for analysis in analyses):
        load_matplotlib()
    count = run_jobs(_jobs(build, files, inputs, env, context, when), processes)
    # each task's printable appendix, from the sheets its run pages' jobs drew
    count += render_pages(env, [page for analysis in analyses
                                for page in volume_pages(analysis, out)], out, context)
    listed = replace(build, downloads={task: listing(written, out)
                                       for task, written in files.items()})
    listing_pages = [page for builder in PAGES if builder.lists_downloads
                     for make in builder.calls(listed) for page in make()]
    count += render_pages(env, listing_pages, out, context)
    write_web_files(out, analyses, site.config.site_url, when)  # lists the pages written
    write_checksums(out)  # last: every other file is written
    return count


def _is_page_template(name: str) -> bool:
    return name.endswith(".html") and not name.startswith("assets/")


def _jobs(build: SiteBuild, files: dict[str, list[Download]], inputs: dict[Path, dict[str, Any]],
          env, context: dict[str, Any], when: datetime) -> list[list[Job]]:
    """Every file but the pages that list the downloads (with their sizes), each job writing
    its own, in two queues (``builder.site.parallel.run_jobs``): the run pages in chunks,
    each with its runs' sheets of the task's printable appendix (``builder.site.runs.volume``,
    bound into one page once both queues are done; what a task's run pages share, such as
    the ad hoc curves, is a lazy table of its evaluation, made by ``_render`` before the
    worker is forked); then the other pages (``builder.site.pages.PAGES``), the downloads, the
    assets and the manifest, the costliest first."""
    site, out = build.spec, build.out

    def assets_and_manifest() -> int:
        copy_assets(out)
        # GitHub Pages runs Jekyll unless told not to, which hides every file or folder
        # starting with ``_`` (a slug may).
        (out / NO_JEKYLL).touch()
        write_manifest(out, manifest(site, when.isoformat(), inputs))
        return 0

    def pages(make: Callable[[], list[Page]]) -> Job:
        return lambda: render_pages(env, make(), out, context)

    def download(file: Download) -> Job:
        def write() -> int:
            write_download(file, out)
            return 0
        return write

    def run_pages_and_sheets(analysis: SiteTask, chunk: range) -> Job:
        def write() -> int:
            made = run_pages(analysis, chunk)
            write_sheets(env, analysis, made, chunk.start, out, context)
            return render_pages(env, made, out, context)
        return write

    run_page_jobs = []
    for analysis in build.tasks:
        for start in range(0, len(analysis.runs), RUN_PAGES_PER_JOB):
            chunk = range(start, min(start + RUN_PAGES_PER_JOB, len(analysis.runs)))
            run_page_jobs.append(run_pages_and_sheets(analysis, chunk))
    other_jobs = [(file.cost, download(file)) for written in files.values() for file in written]
    other_jobs.append((Cost.MEDIUM, assets_and_manifest))
    other_jobs += [(builder.cost, pages(make)) for builder in PAGES
                   if not builder.lists_downloads for make in builder.calls(build)]
    # The costliest first (in the order listed among equals), so that the last jobs, which
    # may be left to one process while the other has finished, are short.
    other_jobs.sort(key=lambda job: -job[0])
    return [run_page_jobs, [job for _, job in other_jobs]]
