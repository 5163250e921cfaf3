"""A build interrupted by Ctrl-C (SIGINT) or SIGTERM: one line, exit status 128 and the
signal's number, the staging folder removed, the previous site as it was, and no process
left. Each build is signalled once it prints a stage's line (the next stage is then under
way); ``render`` means during the render stage, once its render worker has started."""

from __future__ import annotations

import contextlib
import os
import signal

import pytest

from builder.site.parallel import default_processes
from tests.site.test_publish_faults import (
    RENDER_WORKER_HELD,
    alive_in_group,
    all_exited,
    build,
    finished,
    leftovers,
    not_terminated,
    tree,
)


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    folder = tmp_path_factory.mktemp("interrupt")
    out = folder / "site"
    code, err = finished(folder, out)
    assert code == 0, err
    return folder, out, tree(out)


@pytest.mark.parametrize("signum, after", [
    (signal.SIGINT, "config"), (signal.SIGINT, "evaluate"), (signal.SIGINT, "render"),
    (signal.SIGTERM, "read"), (signal.SIGTERM, "analyse"), (signal.SIGTERM, "render")])
def test_an_interrupted_build_says_so_and_keeps_the_previous_site(published, signum, after):
    folder, out, before = published
    if after == "render" and default_processes() < 2:
        pytest.skip("needs fork and two cores for a render worker")
    lifeline, held = os.pipe()
    program = ("-c", RENDER_WORKER_HELD) if after == "render" else ("-m", "builder")
    process = build(folder, out, program, pass_fds=(held,))
    os.close(held)
    try:
        seen = "render worker started" if after == "render" else f"] {after}"
        for line in process.stderr:
            if seen in line:
                break
        else:
            pytest.fail(f"the build ended without printing {seen!r}")
        os.kill(process.pid, signum)  # the build alone: it ends its render worker
        rest = process.stderr.read()
        process.wait(timeout=60)
        assert all_exited(lifeline, 60), alive_in_group(process.pid)
    finally:
        os.close(lifeline)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # a worker left by a failure above
    assert process.returncode == 128 + signum, rest
    name = signal.Signals(signum).name
    assert rest == (f"appendix build: interrupted by {name} before publishing; the previous "
                    "site, if any, is unchanged\n")
    assert not_terminated(alive_in_group(process.pid), 60) == []
    assert tree(out) == before and leftovers(out) == []
