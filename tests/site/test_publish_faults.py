"""Publishing under faults: a build killed at each stage, a second build at the same time, a
read-only or full disk, inputs inside the output, files the tool did not write. Whatever
happens, the previous site stays whole, nothing is left behind after the next build, no
process outlives a killed build, and the user's files are kept."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import select
import shutil
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from builder.site.parallel import default_processes

ROOT = Path(__file__).resolve().parents[2]
EPOCH = {"SOURCE_DATE_EPOCH": "1700000000"}


def config(folder: Path) -> Path:
    """The demo's ad hoc task alone: a small, complete site."""
    data = ROOT / "data" / "adhoc"
    path = folder / "c.yml"
    path.write_text(f"""campaign: {{title: Faults}}
tasks:
  - {{id: adhoc, title: Ad hoc, kind: adhoc, qrels: {data / 'qrels.txt'},
     topics: {data / 'topics.txt'}, runs: {data / 'runs'}/,
     significance: {{B: 200}}}}
""")
    return path


def build(folder: Path, out: Path, program: Sequence[str] = ("-m", "builder"),
          **kwargs) -> subprocess.Popen:
    """``appendix build`` of the demo's ad hoc task into ``out`` (``program``: what Python
    runs, given the command's arguments), in a session of its own."""
    return subprocess.Popen(
        [sys.executable, *program, "build", "--config", str(config(folder)),
         "--out", str(out)], cwd=ROOT, env={**os.environ, **EPOCH}, stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL, text=True, start_new_session=True, **kwargs)


def finished(folder: Path, out: Path) -> tuple[int, str]:
    process = build(folder, out)
    _, err = process.communicate(timeout=600)
    return process.returncode, err


def tree(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def alive_in_group(group: int) -> list[int]:
    """Processes of a process group that still run (zombies waiting for init do not)."""
    alive = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            alive.append(int(stat.parent.name))
    return alive


def not_terminated(pids: list[int], seconds: float) -> list[int]:
    """Of ``pids``, those that have not terminated within ``seconds``, each waited for through
    its pidfd (readable once the process has terminated). A process whose pipe ends are closed
    may still be on its way out: the pipe's end of file comes before the process is gone."""
    left = []
    for pid in pids:
        try:
            handle = os.pidfd_open(pid)
        except ProcessLookupError:
            continue
        try:
            readable, _, _ = select.select([handle], [], [], seconds)
        finally:
            os.close(handle)
        if not readable:
            left.append(pid)
    return left


def leftovers(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.glob(f".{out.name}.*"))


def publish_once(tmp_path_factory, name: str) -> tuple[Path, Path, dict[str, str]]:
    """A folder, the site built there and its files' hashes: the previous site of a test."""
    folder = tmp_path_factory.mktemp(name)
    out = folder / "site"
    code, err = finished(folder, out)
    assert code == 0, err
    return folder, out, tree(out)


@pytest.fixture(scope="module")
def published(tmp_path_factory) -> tuple[Path, Path, dict[str, str]]:
    return publish_once(tmp_path_factory, "faults")


WORKER_HELD = """
import signal, sys
from builder.cli import main
from {package} import {module}

dies_with_parent = {module}.{function}

def held(parent):
    dies_with_parent(parent)
    print("{worker} started", file=sys.stderr, flush=True)
    signal.pause()  # until killed: the worker is alive when the build dies

{module}.{function} = held
sys.exit(main(sys.argv[1:]))
"""
"""``appendix build`` whose worker, once it is set to die with the build, says so on stderr
and waits to be killed: the render worker (through ``builder.site.parallel``'s own name of
the parent-death request) or the analyse worker (the significance tests)."""

WORKERS_HELD = {
    "render worker": WORKER_HELD.format(package="builder.site", module="parallel",
                                        function="_die_with_parent", worker="render worker"),
    "analyse worker": WORKER_HELD.format(package="builder.pipeline", module="forked",
                                         function="die_with_parent", worker="analyse worker"),
}


def all_exited(lifeline: int, seconds: float) -> bool:
    """Whether every process holding the write end of the pipe whose read end is ``lifeline``
    has exited (the read end is at its end of file). ``seconds`` only bounds a wait that would
    otherwise never end."""
    readable, _, _ = select.select([lifeline], [], [], seconds)
    return bool(readable) and os.read(lifeline, 1) == b""


def signalled(folder: Path, out: Path, after: str, signum: int) -> tuple[int, str]:
    """A build sent ``signum`` (to it alone) once it prints ``after``'s stage line, or for
    ``after="render worker"`` (``"analyse worker"``) once that worker has started; its exit
    status and what it
    printed after, once it and every process it forked have exited. The build holds the
    write end of a pipe, and so does every process it forks: the pipe's end of file says all
    have exited."""
    worker = after in WORKERS_HELD
    if worker and default_processes() < 2:
        pytest.skip(f"needs fork and two cores for a {after}")
    lifeline, held = os.pipe()
    process = build(folder, out, ("-c", WORKERS_HELD[after]) if worker else ("-m", "builder"),
                    pass_fds=(held,))
    os.close(held)
    try:
        seen = f"{after} started" if worker else f"] {after}"
        for line in process.stderr:
            if seen in line:
                break
        else:
            pytest.fail(f"the build ended without printing {seen!r}")
        os.kill(process.pid, signum)  # the build alone: its render worker must follow
        rest = process.stderr.read()
        process.wait(timeout=60)
        assert all_exited(lifeline, 60), alive_in_group(process.pid)
    finally:
        os.close(lifeline)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # a worker left by a failure above
    assert not_terminated(alive_in_group(process.pid), 60) == []
    return process.returncode, rest


@pytest.mark.slow
@pytest.mark.parametrize("after", ["config", "read", "validate", "analyse worker",
                                   "render worker", "render"])
def test_kill_9_during_a_build_keeps_the_previous_site(published, after):
    """The build is killed once it prints that stage's line, or during the analyse (render)
    stage once its analyse (render) worker has started."""
    folder, out, before = published
    assert signalled(folder, out, after, signal.SIGKILL)[0] == -signal.SIGKILL
    assert tree(out) == before
    code, err = finished(folder, out)
    assert code == 0 and "Traceback" not in err
    assert leftovers(out) == [] and tree(out) == before


KILL_AT_REMOVAL = """
import os, sys
from pathlib import Path
from builder.site.publish import _remove_tree
removals = 0
def kill_at(event, args):
    global removals
    if event in ("os.remove", "os.rmdir"):
        removals += 1
        if removals == int(sys.argv[2]):
            os._exit(9)
sys.addaudithook(kill_at)
_remove_tree(Path(sys.argv[1]))
"""


@pytest.mark.parametrize("removals", [1, 60, 200, 300])
def test_a_build_killed_while_removing_the_old_site_leaves_a_folder_the_next_removes(
        published, tmp_path, removals):
    """After the swap the old site sits at the staging folder's name and is removed; a build
    killed during that removal must leave a folder the next build still knows as its own."""
    from builder.site.publish import recover
    _, out, before = published
    output = tmp_path / "site"
    shutil.copytree(out, output)
    old = tmp_path / ".site.building-killed"
    shutil.copytree(out, old)
    process = subprocess.run([sys.executable, "-c", KILL_AT_REMOVAL, str(old), str(removals)],
                             check=False, cwd=ROOT)
    assert process.returncode == 9 and old.exists()  # killed with the removal half done
    assert recover(output) == [f"removed {old.name}"]
    assert leftovers(output) == [] and tree(output) == before


def test_a_second_build_says_another_is_running(published):
    folder, out, before = published
    lock_path = out.parent / f".{out.name}.lock"
    with open(lock_path, "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        lock.write("12345\n")
        lock.flush()
        code, err = finished(folder, out)
    lock_path.unlink()
    assert code == 2 and "another build into" in err and "(process 12345)" in err
    assert "Traceback" not in err
    assert tree(out) == before and leftovers(out) == []


def test_two_builds_at_once_one_waits_out(published):
    folder, out, before = published
    first, second = build(folder, out), build(folder, out)
    errs = [first.communicate(timeout=600)[1], second.communicate(timeout=600)[1]]
    codes = sorted([first.returncode, second.returncode])
    assert codes in ([0, 0], [0, 2]), errs
    assert not any("Traceback" in e for e in errs)
    assert tree(out) == before and leftovers(out) == []


def test_files_the_tool_did_not_write_survive_a_rebuild(published):
    folder, out, before = published
    assert (out / ".nojekyll").read_bytes() == b""  # ours: GitHub Pages serves the site as is
    (out / "CNAME").write_text("results.example.org\n")
    (out / ".well-known").mkdir()
    (out / ".well-known" / "security.txt").write_text("Contact: mailto:a@example.org\n")
    (out / ".git").mkdir()
    (out / ".git" / "HEAD").write_text("ref: refs/heads/gh-pages\n")
    code, err = finished(folder, out)
    assert code == 0, err
    assert (out / "CNAME").read_text() == "results.example.org\n"
    assert (out / ".git" / "HEAD").read_text() == "ref: refs/heads/gh-pages\n"
    assert (out / ".well-known" / "security.txt").exists()
    for name in ("CNAME", ".git/HEAD", ".well-known/security.txt"):
        (out / name).unlink()
    (out / ".git").rmdir()
    (out / ".well-known").rmdir()
    assert tree(out) == before


def test_inputs_inside_the_output_are_refused(tmp_path):
    out = tmp_path / "pub"
    (out / "runs").mkdir(parents=True)
    (out / "runs" / "a.txt").write_text("1 Q0 d1 1 1 a\n")
    (out / "q.txt").write_text("1 0 d1 1\n")
    path = tmp_path / "c.yml"
    path.write_text("campaign: {title: T}\ntasks:\n  - {id: t, title: T, kind: adhoc, "
                    "qrels: pub/q.txt, runs: pub/runs/}\n")
    result = subprocess.run([sys.executable, "-m", "builder", "build", "--config",
                             str(path), "--out", str(out)], cwd=ROOT, capture_output=True,
                            text=True, timeout=300, check=False)
    assert result.returncode == 2 and "holds inputs of the config" in result.stderr
    assert "Traceback" not in result.stderr
    assert (out / "q.txt").exists() and (out / "runs" / "a.txt").exists()


def _tmpfs(mount: Path, size: str) -> None:
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {done.stderr.strip()}")


def test_a_read_only_disk_keeps_the_site_and_says_why(published, tmp_path):
    folder, _, before = published
    mount = tmp_path / "ro"
    _tmpfs(mount, "64m")
    try:
        out = mount / "site"
        assert finished(folder, out)[0] == 0
        subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)
        code, err = finished(folder, out)
        assert code == 2 and "Read-only file system" in err and "Traceback" not in err
        assert tree(out) == before
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_full_disk_keeps_the_previous_site_and_leaves_nothing(published, tmp_path):
    folder, _, before = published
    size = sum(p.stat().st_size for p in published[1].rglob("*") if p.is_file())
    mount = tmp_path / "full"
    _tmpfs(mount, f"{int(size * 1.5) // 1024 + 512}k")  # one site fits, two do not
    try:
        out = mount / "site"
        assert finished(folder, out)[0] == 0
        code, err = finished(folder, out)
        assert code == 2 and "No space left on device" in err and "Traceback" not in err
        assert f"cannot write the site {out}: No space left on device" in err
        assert tree(out) == before and leftovers(out) == []
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)
