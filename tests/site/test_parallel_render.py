"""The render stage in two processes: the same bytes as in one, and failures that propagate."""

from __future__ import annotations

import multiprocessing
import os
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from builder.site.parallel import RenderWorkerError, default_processes, run_jobs
from builder.site.writer import render_site
from tests.site.site_checks import file_hashes
from tests.site.test_build import build_demo

pytestmark = pytest.mark.skipif(default_processes() < 2,
                                reason="needs fork and two cores for the two-process path")


def test_one_and_two_processes_render_the_same_bytes_and_count(demo_analyses, tmp_path):
    site, analyses = demo_analyses
    when = datetime(2023, 11, 14, tzinfo=UTC)
    alone, alone_pages = render_site(site, analyses, tmp_path / "alone" / "site", when, 1)
    shared, shared_pages = render_site(site, analyses, tmp_path / "shared" / "site", when, 2)
    assert shared_pages == alone_pages > 100
    hashes = file_hashes(alone)
    assert file_hashes(shared) == hashes
    assert any(path.startswith("adhoc/runs/") for path in hashes)


def _in_the_child_only(parent: int, failure):
    """A stand-in for the renderer's ``write_download`` that fails in the forked worker (which
    takes the downloads first) and writes as usual in this process."""
    from builder.site.pages.downloads import write_download

    def write(*args):
        if os.getpid() != parent:
            failure()
        return write_download(*args)
    return write


def test_a_failure_in_the_worker_fails_the_build_and_keeps_the_previous_site(
        stamped_demo_site, tmp_path, monkeypatch):
    import builder.site.writer as site_module

    out = tmp_path / "site"
    shutil.copytree(stamped_demo_site, out)  # the previous site: the run's demo build
    before = file_hashes(out)

    def broken_template():
        raise ValueError("a page that cannot be rendered")

    monkeypatch.setattr(site_module, "write_download", _in_the_child_only(os.getpid(),
                                                                          broken_template))
    with pytest.raises(ValueError, match="cannot be rendered") as raised:
        build_demo(out)
    assert any("render worker" in note for note in raised.value.__notes__)
    assert file_hashes(out) == before
    assert [p.name for p in tmp_path.iterdir()] == ["site"]


def test_a_worker_that_dies_fails_the_render(demo_analyses, tmp_path, monkeypatch):
    import builder.site.writer as site_module

    site, analyses = demo_analyses
    monkeypatch.setattr(site_module, "write_download",
                        _in_the_child_only(os.getpid(), lambda: os._exit(3)))
    with pytest.raises(RenderWorkerError, match="exited with code 3"):
        render_site(site, analyses, tmp_path / "site", datetime(2023, 11, 14, tzinfo=UTC), 2)
    assert list(tmp_path.iterdir()) == []


class _Unpicklable(Exception):
    def __init__(self, code: int, detail: str) -> None:
        super().__init__(f"{code}: {detail}")


def _jobs_writing(folder: Path, count: int) -> list:
    def job(index: int):
        def write() -> int:
            (folder / f"{index}.txt").write_text(str(index))
            return 1
        return write
    return [job(index) for index in range(count)]


def test_every_job_runs_once_whichever_queue_it_is_in(tmp_path):
    first, second = _jobs_writing(tmp_path, 7), _jobs_writing(tmp_path, 20)[7:]
    assert run_jobs([first, second], processes=2) == 20
    assert sorted(int(p.stem) for p in tmp_path.iterdir()) == list(range(20))


def test_an_exception_that_cannot_travel_comes_back_as_its_traceback(tmp_path):
    parent = os.getpid()
    # Inherited by the forked worker: set there once it has taken one of its failing jobs.
    worker_failing = multiprocessing.get_context("fork").Event()

    def failing() -> int:
        if os.getpid() != parent:
            worker_failing.set()
            raise _Unpicklable(7, "lost")
        return 0

    def busy() -> int:
        """Keeps this process away from the worker's queue until the worker has taken a
        failing job; the timeout only turns a worker that never does into a failure."""
        assert worker_failing.wait(timeout=60), "the worker took no failing job"
        return 0

    with pytest.raises(RenderWorkerError, match="_Unpicklable: 7: lost"):
        run_jobs([[busy], [failing] * 3], processes=2)


def test_one_process_runs_the_queues_in_order(tmp_path):
    order: list[int] = []
    jobs = [[lambda: order.append(1) or 1], [lambda: order.append(2) or 1,
                                             lambda: order.append(3) or 1]]
    assert run_jobs(jobs, processes=1) == 3
    assert order == [1, 2, 3]
    shutil.rmtree(tmp_path)
