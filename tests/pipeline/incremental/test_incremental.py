"""``appendix build --incremental``: each run's evaluation kept, keyed by content; a rebuild
evaluates only what changed and its site is byte-identical to a clean build's, whatever
changed: a run added, changed or removed, the metadata, the qrels, the options."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from builder.pipeline.incremental import cache_folder
from tests.archive.campaign import RUNS, appendix, run_text, write_campaign
from tests.site.site_checks import file_hashes


def add_run(campaign: Path) -> None:
    (campaign / "runs" / "delta.txt").write_text(run_text("delta", [3, 1, 2, 6, 5, 4]))


def change_run(campaign: Path) -> None:
    (campaign / "runs" / "beta.txt").write_text(run_text("beta", [2, 1, 6, 5, 4, 3]))


def remove_run(campaign: Path) -> None:
    (campaign / "runs" / "gamma.txt").unlink()


def change_metadata(campaign: Path) -> None:
    path = campaign / "runs.csv"
    path.write_text(path.read_text().replace("the beta run", "beta, tuned again"))


def change_qrels(campaign: Path) -> None:
    path = campaign / "qrels.txt"
    path.write_text(path.read_text().replace("2 0 d3 0", "2 0 d3 1"))


def change_options(campaign: Path) -> None:
    path = campaign / "site_config.yml"
    path.write_text(path.read_text().replace("measures: [map, P_5]}",
                                             "measures: [map, P_5],\n     options: {depth: 3}}"))


CHANGES: dict[str, Callable[[Path], None]] = {
    "run added": add_run, "run changed": change_run, "run removed": remove_run,
    "metadata changed": change_metadata, "qrels changed": change_qrels,
    "options changed": change_options}
EVALUATED = {"run added": 1, "run changed": 1, "run removed": 0, "metadata changed": 0,
             "qrels changed": 3, "options changed": 3}
"""How many runs the rebuild evaluates: only those whose evaluation can have changed."""


@pytest.fixture(scope="module")
def first_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small campaign (``campaign/``) and its first incremental build (``site/`` and the
    cache beside it), made once for the module: each test takes a copy (``built``)."""
    folder = tmp_path_factory.mktemp("first-build")
    config = write_campaign(folder / "campaign")
    assert appendix("build", "--config", str(config), "--out", str(folder / "site"),
                    "--incremental", "--quiet") == 0
    return folder


def built(first_build: Path, folder: Path) -> tuple[Path, Path]:
    """A copy of ``first_build`` in ``folder``: the config's path and the site's; the cache
    holds evaluations keyed by content, so the copy's next build takes them as they are."""
    shutil.copytree(first_build, folder, dirs_exist_ok=True)
    return folder / "campaign" / "site_config.yml", folder / "site"


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_rebuild_is_byte_identical_to_a_clean_build(first_build, tmp_path, capsys, change):
    config, out = built(first_build, tmp_path)
    campaign = config.parent
    CHANGES[change](campaign)
    capsys.readouterr()
    assert appendix("build", "--config", str(config), "--out", str(out), "--incremental") == 0
    said = capsys.readouterr().err
    runs = len(list((campaign / "runs").iterdir()))
    assert (f"{EVALUATED[change]} runs evaluated, {runs - EVALUATED[change]} from the cache"
            in said), said
    clean = tmp_path / "clean"
    assert appendix("build", "--config", str(config), "--out", str(clean), "--quiet") == 0
    assert file_hashes(out) == file_hashes(clean)
    # Bounded: the cache holds the evaluations of the runs present, no more.
    assert len(list((cache_folder(out) / "adhoc").glob("*.pickle"))) == runs


def test_the_cache_is_dropped_entry_by_entry_and_never_touches_what_is_not_its_own(
        first_build, tmp_path):
    config, out = built(first_build, tmp_path)
    campaign = config.parent
    build = ["build", "--config", str(config), "--out", str(out), "--incremental", "--quiet"]
    cache = cache_folder(out)
    assert (cache / "CACHEDIR.TAG").read_text().startswith(
        "Signature: 8a477f597d28d172789f06886806bc55")
    (cache / "adhoc" / "notes.txt").write_text("mine")
    for name in ("alpha", "beta"):
        (campaign / "runs" / f"{name}.txt").unlink()
    config.write_text(config.read_text().replace("id: adhoc", "id: renamed"))
    assert appendix(*build) == 0
    assert len(list((cache / "renamed").glob("*.pickle"))) == 1
    assert sorted(p.name for p in (cache / "adhoc").iterdir()) == ["notes.txt"]


def test_a_damaged_entry_is_evaluated_again(first_build, tmp_path):
    config, out = built(first_build, tmp_path)
    clean = tmp_path / "clean"
    build = ["build", "--config", str(config), "--out", str(out), "--incremental", "--quiet"]
    for entry in (cache_folder(out) / "adhoc").glob("*.pickle"):
        entry.write_bytes(b"\x80\x05broken")
    assert appendix(*build) == 0
    assert appendix("build", "--config", str(config), "--out", str(clean), "--quiet") == 0
    assert file_hashes(out) == file_hashes(clean)
    assert len(RUNS) == len(list((cache_folder(out) / "adhoc").glob("*.pickle")))


@pytest.mark.slow
def test_every_kind_of_the_demo_is_the_same_run_by_run(stamped_demo_site, tmp_path):
    """The demo's ad hoc, INEX passage, in-context and element tasks, each run evaluated alone
    and put back together, then taken from the cache: the golden build's site each time."""
    from tests.site.test_build import build_demo

    out = tmp_path / "site"
    for _ in range(2):
        assert build_demo(out, "--incremental") == 0
        assert file_hashes(out) == file_hashes(stamped_demo_site)


def test_an_incremental_build_hashes_each_input_once_and_says_what_it_read(tmp_path,
                                                                         monkeypatch):
    """The cache's keys and the manifest hashed the run files and the qrels each: now once
    per build, the manifest recording the digests the keys were made of. The summary carries
    the config the build read (the build and serve commands took it from the file again)."""
    import hashlib
    import json
    import os

    from builder.building import Progress, build
    from builder.formats import source

    hashed: list[str] = []
    digest = source._file_digest
    monkeypatch.setattr(source, "_file_digest",
                        lambda path: hashed.append(os.path.abspath(path)) or digest(path))
    config = write_campaign(tmp_path / "campaign")
    summary = build(config, tmp_path / "site", progress=Progress(quiet=True), cache=True)
    assert summary.spec.path == config.resolve()
    assert [task.id for task in summary.spec.tasks] == ["adhoc"]
    runs = {str(run) for run in summary.spec.tasks[0].run_files}
    inputs = [path for path in hashed if path.startswith(str(config.parent))]
    assert runs and runs <= set(inputs) and len(inputs) == len(set(inputs))
    recorded = json.loads((tmp_path / "site" / "manifest.json").read_text())["inputs"]
    base = config.parent
    assert all(entry["sha256"] == hashlib.sha256((base / entry["path"]).read_bytes()).hexdigest()
               for entry in recorded)
    hashed.clear()
    source.sha256(config), source.sha256(config)  # outside a build: read each time
    assert len(hashed) == 2
