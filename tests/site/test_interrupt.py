"""A build interrupted by Ctrl-C (SIGINT) or SIGTERM: one line, exit status 128 and the
signal's number, the staging folder removed, the previous site as it was, and no process
left. Each build is signalled once it prints a stage's line (the next stage is then under
way); ``render worker`` means during the render stage, once its render worker has started,
``analyse worker`` during the analyse stage, once the worker of its significance tests has."""

from __future__ import annotations

import signal

import pytest

from tests.site.test_publish_faults import build, leftovers, publish_once, signalled, tree


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    return publish_once(tmp_path_factory, "interrupt")


@pytest.mark.slow
@pytest.mark.parametrize("signum, after", [
    (signal.SIGINT, "config"), (signal.SIGINT, "evaluate"), (signal.SIGINT, "render worker"),
    (signal.SIGINT, "analyse worker"), (signal.SIGTERM, "read"), (signal.SIGTERM, "analyse"),
    (signal.SIGTERM, "render worker"), (signal.SIGTERM, "analyse worker")])
def test_an_interrupted_build_says_so_and_keeps_the_previous_site(published, signum, after):
    folder, out, before = published
    code, rest = signalled(folder, out, after, signum)
    assert code == 128 + signum, rest
    name = signal.Signals(signum).name
    assert rest == (f"appendix build: interrupted by {name} before publishing; the previous "
                    "site, if any, is unchanged\n")
    assert tree(out) == before and leftovers(out) == []


LOST_IN_A_FINALISER = """
import os, signal, sys
import builder.building as building
from builder.cli import main

read_task = building.read_task

class Dropped:
    def __del__(self):  # the build's handler runs in here, and Python drops what it raises
        os.kill(os.getpid(), signal.SIGTERM)

def reading(*args, **kwargs):
    Dropped()
    return read_task(*args, **kwargs)

building.read_task = reading
sys.exit(main(sys.argv[1:]))
"""
"""``appendix build`` that receives SIGTERM inside a finaliser, during the read stage."""


def test_a_signal_received_in_a_finaliser_still_stops_the_build_before_publishing(published):
    folder, out, before = published
    process = build(folder, out, ("-c", LOST_IN_A_FINALISER))
    _, err = process.communicate(timeout=600)
    assert "Exception ignored" in err  # the case: the handler's exception was dropped
    assert process.returncode == 128 + signal.SIGTERM, err
    assert err.endswith("appendix build: interrupted by SIGTERM before publishing; the "
                        "previous site, if any, is unchanged\n")
    assert tree(out) == before and leftovers(out) == []
