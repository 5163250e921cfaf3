"""Output that every host and file system serves: no page file name starts with ``.`` (GitHub
Pages serves no dot-file), a ``.nojekyll`` keeps folders and files starting with ``_``
served, and published inputs carry portable names while the page shows their own."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from markupsafe import escape

from builder.cli import main
from builder.site.paths import MAX_NAME_BYTES, portable_names, slugs

FORBIDDEN = re.compile(r'[<>:"/\\|?*\x00-\x1f\x7f]')


def test_no_slug_starts_with_a_dot_or_is_reserved():
    names = [".hidden", ".", "..", "..x", "con", "NUL.txt", "_x", "ok", ".Ok", "OK"]
    made = slugs(names)
    assert not [s for s in made.values() if s.startswith(".")]
    assert not [s for s in made.values() if s.split(".")[0].lower() in ("con", "nul")]
    assert len({s.lower() for s in made.values()}) == len(names)
    assert made["_x"] == "_x"  # served, with the .nojekyll


def test_input_names_are_portable_and_distinct():
    files = {"a/run\n1.gz": "run\n1.gz", "b/q<1>.txt": 'q<1>.txt', "c/.qrels": ".qrels",
             "d/long": "x" * 240 + ".txt", "e/A.gz": "A.gz", "f/a.gz": "a.gz",
             "g/run.gz": "run.gz", "h/run.gz": "run.gz", "i/é run.txt.gz": "é run.txt.gz",
             "j/aux.txt": "aux.txt", "k/dot.": "dot.", "l/nul.x.txt": "NUL.x.txt"}
    names = portable_names(files)
    assert names["i/é run.txt.gz"] == "é run.txt.gz"  # portable already: kept
    assert len({n.casefold() for n in names.values()}) == len(files)
    for key, name in names.items():
        assert not FORBIDDEN.search(name) and not name.startswith(".") and name[-1] not in ". "
        assert len(name.encode("utf-8")) <= MAX_NAME_BYTES
        assert name.split(".")[0].lower() not in ("aux", "nul")
        if files[key].endswith(".gz"):
            assert name.endswith(".gz")


@pytest.fixture(scope="module")
def awkward_site(tmp_path_factory) -> tuple[Path, Path, int]:
    """A campaign whose inputs have every awkward name: a qrels file starting with a dot, run
    files with a newline, Windows' reserved characters, a very long name, and a run whose
    name starts with a dot."""
    folder = tmp_path_factory.mktemp("portable")
    (folder / ".qrels").write_text("1 0 d1 1\n1 0 d2 0\n2 0 d3 1\n")
    runs = folder / "runs"
    runs.mkdir()
    for number, name in enumerate(["a\nb.txt", 'q<1>:"x"|y?*.txt', "z" * 200 + ".txt"]):
        (runs / name).write_text(f"1 Q0 d1 1 2.0 run{number}\n2 Q0 d3 1 1.0 run{number}\n")
    (runs / "hidden.txt").write_text("1 Q0 d1 1 2.0 .hidden\n2 Q0 d3 1 1.0 .hidden\n")
    config = folder / "c.yml"
    config.write_text("campaign: {title: Portable}\npublish_inputs: true\ntasks:\n"
                      "  - {id: t, title: T, kind: adhoc, qrels: .qrels, runs: runs/}\n")
    out = folder / "site"
    code = main(["build", "--config", str(config), "--out", str(out), "--quiet"])
    return folder, out, code


def test_no_page_starts_with_a_dot_and_nojekyll_is_written(awkward_site):
    _, out, code = awkward_site
    assert code == 0
    assert (out / ".nojekyll").read_bytes() == b""
    dotted = [str(p.relative_to(out)) for p in out.rglob(".*")]
    assert sorted(dotted) == [".appendix-written", ".nojekyll"]
    pages = {p.name for p in (out / "t" / "runs").glob("*.html")}
    hidden = [name for name in pages if name.startswith("_hidden-")]
    assert len(hidden) == 1
    assert hidden[0] in (out / "index.html").read_text(encoding="utf-8")


def test_published_inputs_have_portable_names_and_the_page_their_own(awkward_site):
    folder, out, code = awkward_site
    assert code == 0
    inputs = out / "t" / "downloads" / "inputs"
    published = [p for p in inputs.rglob("*") if p.is_file()]
    assert len(published) == 5  # the qrels and four runs
    for path in published:
        assert not FORBIDDEN.search(path.name) and not path.name.startswith(".")
        assert len(path.name.encode("utf-8")) <= MAX_NAME_BYTES
    page = (out / "downloads.html").read_text(encoding="utf-8")
    for run in (folder / "runs").iterdir():
        shown = str(escape(f"inputs/runs/{run.name}.gz"))  # as the templates escape it
        assert shown in page, run.name
        href = re.search(rf'href="(t/downloads/inputs/runs/[^"]+)">{re.escape(shown)}<', page)
        assert href is not None and not FORBIDDEN.search(href.group(1).split("/")[-1])
        assert gzip.decompress((out / href.group(1)).read_bytes()) == run.read_bytes()
    assert "q<1>" not in page  # the name is shown escaped
    assert "inputs/.qrels</a>" in page
    [qrels] = [p for p in inputs.iterdir() if p.is_file()]
    assert qrels.read_bytes() == (folder / ".qrels").read_bytes()
