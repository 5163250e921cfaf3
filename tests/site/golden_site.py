"""The golden demo site: the expected bytes of every file, and what differs from them, said
page by page.

``golden/demo_site/`` holds a copy of every file of the demo site up to ``COPY_LIMIT`` bytes
(the HTML pages, CSV, JSON, Markdown and LaTeX downloads, scripts, the stylesheet), so that a
difference is shown as a unified diff of the lines that changed. ``golden/demo_site.sha256``
holds the SHA-256 of the few larger files: the per-topic score downloads (``scores.csv`` and
``scores.json``) of the bigger tasks, 72 KiB to 3 MB each. A copy of them would make most of
the golden folder and a diff of them thousands of lines, and every number they hold is also on
a page kept as a copy (the run pages), whose diff says what changed. The other assets are
the repository's own files, copied as they are (``templates/assets``): they are compared with
those, not kept a second time. ``assets/plotly.min.js`` is left out: it is the installed
plotly's own file (and ``SHA256SUMS``, which holds its hash).

After a deliberate change to the site, rewrite both from a fresh build (from the repository
root; never in CI, which only compares):

    python -m tests.site.test_build --regenerate

and review ``git diff tests/site/golden`` with the change.
"""

from __future__ import annotations

import difflib
import hashlib
import shutil
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent / "golden"
SOURCE_ASSETS = Path(__file__).resolve().parents[2] / "templates" / "assets"
"""The stylesheet and scripts every site carries as they are (``builder.site.assets``)."""
COPIES = GOLDEN / "demo_site"
HASHES = GOLDEN / "demo_site.sha256"
COPY_LIMIT = 72 * 1024
"""Bytes: a file up to this size is kept as a copy, a larger one as its hash. Above the demo's
largest run page (67 KiB, with its worst, median and best per topic) so that each run page
keeps its diff, below the smallest score download (74 KiB)."""
NOT_COMPARED = {"assets/plotly.min.js", "SHA256SUMS"}
"""plotly.min.js is the installed plotly's; SHA256SUMS holds its hash (every other line of it
is the hash of a file compared here)."""
SHOWN_DIFFS = 5
"""Files whose diff a failure shows in full; the others it names."""
DIFF_LINES = 80
"""Lines of a diff shown, at most."""


def site_files(site: Path) -> dict[str, Path]:
    """Every compared file of ``site`` by its path inside it (``/``-separated), in order."""
    files = {path.relative_to(site).as_posix(): path
             for path in sorted(site.rglob("*")) if path.is_file()}
    return {name: path for name, path in files.items() if name not in NOT_COMPARED}


def source_assets() -> dict[str, Path]:
    """The site's files whose expected bytes are the repository's own: path -> source."""
    return {f"assets/{path.name}": path for path in sorted(SOURCE_ASSETS.iterdir())
            if path.is_file()}


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def golden_hashes() -> dict[str, str]:
    """The files kept as hashes: path -> SHA-256."""
    pairs = (line.split("  ", 1) for line in HASHES.read_text().splitlines())
    return {name: digest for digest, name in pairs}


def _diff(name: str, expected: bytes, actual: bytes) -> list[str]:
    """A unified diff of two versions of a text file (the first ``DIFF_LINES`` lines)."""
    lines = list(difflib.unified_diff(
        expected.decode("utf-8", "replace").splitlines(),
        actual.decode("utf-8", "replace").splitlines(),
        fromfile=f"golden/{name}", tofile=f"built/{name}", lineterm="", n=1))
    if len(lines) > DIFF_LINES:
        lines = [*lines[:DIFF_LINES], f"... ({len(lines) - DIFF_LINES} more diff lines)"]
    return lines


def golden_differences(site: Path) -> list[str]:
    """What differs between ``site`` and the golden site: a line per file missing, new or
    changed, then the unified diffs of the first ``SHOWN_DIFFS`` changed copies. Empty when
    they are the same."""
    built = site_files(site)
    copies = {**site_files(COPIES), **source_assets()}
    hashes = golden_hashes()
    expected = sorted(copies.keys() | hashes.keys())
    said = [f"missing: {name}" for name in expected if name not in built]
    said += [f"new: {name}" for name in built if name not in copies and name not in hashes]
    diffs: list[str] = []
    for name in expected:
        if name not in built:
            continue
        if name in hashes:
            if _digest(built[name]) != hashes[name]:
                said.append(f"changed: {name} (kept as a hash: no diff)")
            continue
        golden, actual = copies[name].read_bytes(), built[name].read_bytes()
        if golden != actual:
            said.append(f"changed: {name}")
            if len(diffs) < SHOWN_DIFFS:
                diffs.append("\n".join(_diff(name, golden, actual)))
    return said + diffs


def write_golden(site: Path) -> tuple[int, int]:
    """Replace the golden site with ``site``: copies of its files up to ``COPY_LIMIT`` bytes,
    hashes of the others. The counts of copies and hashes."""
    shutil.rmtree(COPIES, ignore_errors=True)
    lines = []
    copied = 0
    sources = source_assets()
    for name, path in site_files(site).items():
        if name in sources:
            continue
        if path.stat().st_size > COPY_LIMIT:
            lines.append(f"{_digest(path)}  {name}")
            continue
        target = COPIES / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        copied += 1
    HASHES.write_text("".join(f"{line}\n" for line in lines))
    return copied, len(lines)
