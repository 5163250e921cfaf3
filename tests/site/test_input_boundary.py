"""The edge of what a build reads and publishes: a run file that cannot be read when the
manifest hashes it costs its own entry, not the build; with ``publish_inputs`` only files
whose real path lies in the campaign's folders are published, and no rejected run.

The builds run as the user runs them, ``python -m builder build`` in a process of its own.
"""

from __future__ import annotations

import gzip
import html
import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from builder.findings import FindingCode
from builder.pipeline.stages import load_config
from builder.site.manifest import input_records, manifest
from builder.site.pages.downloads import Download, _gzip, write_download

QRELS = "1 0 d1 1\n1 0 d2 0\n2 0 d1 1\n"
GOOD = "1 Q0 d1 1 2.0 good\n1 Q0 d2 2 1.0 good\n2 Q0 d1 1 1.0 good\n"
MARKER = "MARKER-7f3a9c-outside-the-campaign"
SECRET = f"-----BEGIN OPENSSH PRIVATE KEY-----\n{MARKER} b3BlbnNzaC1rZXktdjEAAAAA\n" \
         "-----END OPENSSH PRIVATE KEY-----\n"


def campaign(folder: Path) -> Path:
    """A one-task campaign publishing its inputs, with one good run; the config's path."""
    (folder / "runs").mkdir(parents=True)
    (folder / "q.txt").write_text(QRELS)
    (folder / "runs" / "a.txt").write_text(GOOD)
    config = folder / "c.yml"
    config.write_text("campaign: {title: T}\npublish_inputs: true\ntasks:\n"
                      "  - {id: t, title: T, kind: adhoc, qrels: q.txt, runs: runs/}\n")
    return config


def build(config: Path, as_a_user: bool = False) -> subprocess.CompletedProcess:
    """``appendix build`` in its own process. ``as_a_user``: without the capabilities that
    let root read any file (setpriv, util-linux), so a file's mode is obeyed as for any
    user."""
    command = [sys.executable, "-m", "builder", "build", "--config", str(config), "--quiet"]
    if as_a_user and os.geteuid() == 0:
        command = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", *command]
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=300,
                          env={**os.environ, "SOURCE_DATE_EPOCH": "0"})
    assert "Traceback" not in done.stderr
    return done


def validation_page(site: Path, run: str) -> str:
    """The validation page of the run file named ``run`` (its page's name is a slug)."""
    pages = [p.read_text() for p in (site / "t" / "validation").glob("*.html")
             if f"<code>runs/{html.escape(run)}</code>" in p.read_text()]
    assert len(pages) == 1, run
    return pages[0]


def test_an_unreadable_run_is_rejected_alone_and_the_site_is_published(tmp_path):
    config = campaign(tmp_path)
    locked = tmp_path / "runs" / "b.txt"
    locked.write_text(GOOD.replace("good", "locked"))
    locked.chmod(0)
    done = build(config, as_a_user=True)
    assert done.returncode == 0, done.stderr
    site = tmp_path / "site"
    page = validation_page(site, "b.txt")
    assert "rejected" in page and "cannot read: permission denied" in page
    assert "runs/a.txt" in (site / "t" / "validation" / "good.html").read_text()
    assert gzip.decompress((site / "t/downloads/inputs/runs/a.txt.gz").read_bytes()) == \
        GOOD.encode()
    assert not (site / "t/downloads/inputs/runs/b.txt.gz").exists()
    inputs = {entry["path"]: entry for entry in
              json.loads((site / "manifest.json").read_text())["inputs"]}
    assert inputs["runs/b.txt"] == {"path": "runs/b.txt", "read_as": ["t:run"],
                                    "withheld": "cannot read: permission denied"}
    assert len(inputs["runs/a.txt"]["sha256"]) == 64


def test_a_named_pipe_in_the_run_folder_does_not_hold_the_build(tmp_path):
    config = campaign(tmp_path)
    os.mkfifo(tmp_path / "runs" / "pipe.txt")
    done = build(config)  # a read of the pipe would wait for a writer: the timeout fails it
    assert done.returncode == 0, done.stderr
    home = (tmp_path / "site" / "index.html").read_text().split("Findings in the inputs", 1)[1]
    assert "runs/pipe.txt" in home and "not a regular file: not read as a run" in home
    assert (tmp_path / "site" / "t/downloads/inputs/runs/a.txt.gz").exists()


@pytest.mark.parametrize("swap", ["pipe", "gone", "folder"])
def test_the_manifest_names_an_input_it_cannot_read_now_without_failing(tmp_path, swap):
    """A run the config named, replaced before the manifest hashes it (the real call site:
    ``manifest`` of ``input_records``): its entry says why, the others are hashed."""
    config = campaign(tmp_path)
    run = tmp_path / "runs" / "b.txt"
    run.write_text(GOOD)
    site = load_config(config)
    run.unlink()
    reason = {"pipe": "cannot read: not a regular file", "gone": "cannot read: file not found",
              "folder": "cannot read: is a folder, not a file"}[swap]
    if swap == "pipe":
        os.mkfifo(run)
    elif swap == "folder":
        run.mkdir()
    entries = manifest(site, datetime(2020, 1, 1, tzinfo=UTC).isoformat(),
                       input_records(site))["inputs"]
    assert {"path": "runs/b.txt", "withheld": reason, "read_as": ["t:run"]} in entries
    assert [len(e["sha256"]) for e in entries if e["path"] != "runs/b.txt"] == [64, 64, 64]


def test_an_input_gone_before_it_is_copied_is_listed_not_published(tmp_path):
    fifo = tmp_path / "b.txt"
    os.mkfifo(fifo)
    download = Download("t", "inputs/runs/b.txt.gz", "run b", partial(_gzip, fifo))
    write_download(download, tmp_path / "site")
    listed = download.listed(tmp_path / "site")
    assert not download.path(tmp_path / "site").exists()
    assert listed["withheld"].startswith("not published") and listed["href"] == ""


def test_a_run_linked_from_outside_the_campaign_is_not_published(tmp_path):
    home = tmp_path / "home" / ".ssh"
    home.mkdir(parents=True)
    (home / "id_rsa").write_text(SECRET)
    config = campaign(tmp_path / "campaign")
    link = tmp_path / "campaign" / "runs" / "team9<b>.txt"
    link.symlink_to(home / "id_rsa")
    done = build(config)
    assert done.returncode == 0, done.stderr
    site = tmp_path / "campaign" / "site"

    page = validation_page(site, "team9<b>.txt")
    # named by its file (it has no tag that could be read), without the .txt
    assert "Validation of run <span class=\"name\">team9&lt;b&gt;</span>" in page
    assert "its real path lies outside the campaign&#39;s folders" in page
    downloads = (site / "downloads.html").read_text()
    assert ('<th scope="row">inputs/runs/team9&lt;b&gt;.txt.gz</th><td>run team9&lt;b&gt;, '
            "rejected: <strong class=\"rejected\">not published: its real path lies outside "
            "the campaign&#39;s folders") in downloads
    assert sorted(p.name for p in (site / "t/downloads/inputs/runs").iterdir()) == ["a.txt.gz"]
    assert gzip.decompress((site / "t/downloads/inputs/runs/a.txt.gz").read_bytes()) == \
        GOOD.encode()
    findings = (site / "t/downloads/findings.csv").read_text()
    assert "runs/team9<b>.txt,,warning,not published: its real path lies outside" in findings
    entries = json.loads((site / "manifest.json").read_text())["inputs"]
    outside = [e for e in entries if e["path"] == "runs/team9<b>.txt"]
    assert outside == [{"path": "runs/team9<b>.txt", "withheld": outside[0]["withheld"],
                        "read_as": ["t:run"]}]
    assert "outside the campaign's folders" in outside[0]["withheld"]

    # Not a byte of the outside file anywhere in the site, compressed files unpacked.
    for path in site.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            if data[:2] == b"\x1f\x8b":
                data = gzip.decompress(data)
            assert MARKER.encode() not in data and b"OPENSSH" not in data, path
            assert b"team9<b>" not in data or path.suffix != ".html", path
    assert "id_rsa" not in "".join(p.read_text() for p in site.rglob("*.html"))
    assert FindingCode.NOT_PUBLISHED == "not-published"


def test_an_input_of_a_folder_the_config_names_is_published(tmp_path):
    """The runs folder named outside the config's folder is the campaign's own: its runs are
    published, while a link out of it is not."""
    shared = tmp_path / "shared" / "runs"
    shared.mkdir(parents=True)
    (shared / "s.txt").write_text(GOOD.replace("good", "shared"))
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "x.txt").write_text(GOOD.replace("good", "x"))
    (shared / "x.txt").symlink_to(tmp_path / "elsewhere" / "x.txt")
    config = campaign(tmp_path / "campaign")
    config.write_text(config.read_text().replace("runs: runs/", f"runs: {shared}"))
    done = build(config)
    assert done.returncode == 0, done.stderr
    runs = tmp_path / "campaign" / "site" / "t/downloads/inputs/runs"
    assert sorted(p.name for p in runs.iterdir()) == ["s.txt.gz"]

    # Each run page gives its file's SHA-256 as the manifest records it: none for the run
    # whose real path lies outside the campaign, which the manifest does not read.
    site = tmp_path / "campaign" / "site"
    recorded = {Path(e["path"]).name: e.get("sha256")
                for e in json.loads((site / "manifest.json").read_text())["inputs"]}
    pages = {name: next(p.read_text() for p in (site / "t" / "runs").glob("*.html")
                        if f'<span class="name">{run}</span>' in p.read_text())
             for name, run in (("s.txt", "shared"), ("x.txt", "x"))}
    assert recorded["x.txt"] is None and 'class="hash"' not in pages["x.txt"]
    assert f'SHA-256 <code class="hash">{recorded["s.txt"]}</code>' in pages["s.txt"]
