"""``--scheduler``: the batches of runs evaluated by the workers of a Dask cluster (here a
``LocalCluster`` of two worker processes) give the local path's output, byte for byte on
robust03, file by file on the demo site."""

from __future__ import annotations

import os

import pytest
from dask.distributed import Client, LocalCluster

from builder.cli import main
from tests.scale.site_compare import compare_sites
from tests.scale.test_batched import evaluate_output, robust03_args
from tests.site.test_build import build_demo


@pytest.fixture(scope="module")
def scheduler():
    # Every port a free one (":0"): the scheduler's HTTP server otherwise takes 8787, which a
    # test run beside this one (another worker, another checkout) may hold.
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster:
        with Client(cluster) as client:
            pids = client.run(os.getpid)
        assert len(set(pids.values()) - {os.getpid()}) == 2  # two processes besides this one
        yield cluster.scheduler_address


@pytest.mark.slow
def test_distributed_evaluate_equals_local_on_robust03(capsys, scheduler, robust03_folder,
                                                       robust03_one_shot):
    # A budget of a few runs: several batches, sent to both workers.
    assert (evaluate_output(capsys, robust03_folder, "--scheduler", scheduler,
                            "--memory-budget", "300M") == robust03_one_shot)


def test_without_budget_every_worker_gets_a_batch(capsys, scheduler, monkeypatch,
                                                  robust03_folder, robust03_one_shot):
    from builder.pipeline.execution.distributed import even_batches

    made = []

    def recorded(reads, count):
        made.append((count, even_batches(reads, count)))
        return made[-1][1]

    monkeypatch.setattr("builder.pipeline.execution.distributed.even_batches", recorded)
    assert (evaluate_output(capsys, robust03_folder, "--scheduler", scheduler)
            == robust03_one_shot)
    (workers, groups), = made
    assert workers == 2 and len(groups) >= 2


@pytest.mark.slow
def test_distributed_demo_site_equals_local(tmp_path, scheduler, stamped_demo_site):
    assert build_demo(tmp_path / "cluster", "--scheduler", scheduler) == 0
    assert compare_sites(stamped_demo_site, tmp_path / "cluster") == []


def test_unreachable_scheduler_is_a_clear_error(capsys, monkeypatch, robust03_folder):
    monkeypatch.setattr("builder.pipeline.execution.cluster.CONNECT_SECONDS", 1)
    args = ["evaluate", "--scheduler", "tcp://127.0.0.1:9", *robust03_args(robust03_folder)[:2]]
    assert main(args) == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in capsys.readouterr().err
