"""Downloads for papers and archives: the leaderboard in LaTeX and Markdown, the inputs."""

from __future__ import annotations

import csv
import gzip
import hashlib
import re
from pathlib import Path

import yaml

from builder.cli import main
from tests.site.site_checks import published_leaks

ROOT = Path(__file__).resolve().parents[2]


def _summary(site: Path) -> list[dict[str, str]]:
    with open(site / "adhoc" / "downloads" / "summary.csv", newline="") as stream:
        return list(csv.DictReader(stream))


def _top_group(site: Path) -> list[str]:
    with open(site / "adhoc" / "index.leaderboard-adhoc.csv", newline="") as stream:
        return [row["Run"] for row in csv.DictReader(stream) if row.get("Top group")]


def test_latex_leaderboard_is_a_booktabs_table_of_every_run(demo_site: Path):
    tex = (demo_site / "adhoc" / "downloads" / "leaderboard.tex").read_text()
    assert tex.index("\\toprule") < tex.index("\\midrule") < tex.index("\\bottomrule")
    body = tex.split("\\midrule\n", 1)[1].split("\\bottomrule", 1)[0].strip().splitlines()
    summary = _summary(demo_site)
    assert len(body) == len(summary)
    assert "\\textless{}" not in tex and "<script>" in tex  # LaTeX prints < > as they are
    for line, row in zip(body, summary):
        cells = line.removesuffix(" \\\\").split(" & ")
        assert f"{float(row['map']):.4f}" in cells[3]
    first = body[0].split(" & ")
    assert first[3].startswith("\\textbf{")  # the best map, in bold
    marked = [line.split(" & ")[1] for line in body if "$^\\dagger$" in line]
    assert marked == [f"{run}$^\\dagger$" for run in _top_group(demo_site)[1:]]


def test_markdown_leaderboard_escapes_names_and_marks_the_top_group(demo_site: Path):
    md = (demo_site / "adhoc" / "downloads" / "leaderboard.md").read_text()
    lines = [line for line in md.splitlines() if line.startswith("|")]
    assert lines[0].startswith("| Rank | Run | Team | MAP | P@10 | R-prec |")
    assert len(lines) == 2 + len(_summary(demo_site))
    assert "&lt;script&gt;" in md and "<script>" not in md
    daggers = [re.split(r" \| ", line)[1].removesuffix(" †") for line in lines[2:] if " † |" in line]
    assert daggers == _top_group(demo_site)[1:]
    assert "not significantly different from the top run on map" in md or not daggers


def test_publish_inputs_archives_every_input_with_its_sha256(tmp_path: Path):
    config = yaml.safe_load((ROOT / "site_config.yml").read_text())
    config["publish_inputs"] = True
    config["tasks"] = config["tasks"][:1]
    task = config["tasks"][0]
    for key in ("qrels", "topics", "runs", "run_metadata"):
        task[key] = str(ROOT / task[key])
    (tmp_path / "config.yml").write_text(yaml.safe_dump(config))
    site = tmp_path / "site"
    assert main(["build", "--config", str(tmp_path / "config.yml"), "--out", str(site),
                 "--quiet"]) == 0
    inputs = site / "adhoc" / "downloads" / "inputs"
    with open(site / "adhoc" / "downloads" / "findings.csv", newline="") as stream:
        rejected = {row["file"] for row in csv.DictReader(stream) if row["severity"] == "error"}
    assert rejected  # the demo has rejected runs: they are listed, not published
    runs = sorted(p for p in (ROOT / task["runs"]).iterdir() if p.name not in rejected)
    assert sorted(p.name for p in (inputs / "runs").iterdir()) == sorted(
        f"{p.name}.gz" for p in runs)
    for run in runs:
        assert gzip.decompress((inputs / "runs" / f"{run.name}.gz").read_bytes()) == \
            run.read_bytes()
    assert (inputs / "qrels.txt").read_bytes() == (ROOT / "data/adhoc/qrels.txt").read_bytes()
    page = (site / "downloads.html").read_text()
    listed = dict(re.findall(r'href="(adhoc/downloads/inputs/[^"]+)">.*?<code class="hash">'
                             r"([0-9a-f]{64})</code>", page))
    assert len(listed) == len(runs) + 3
    for name in rejected:
        assert (f'<th scope="row">inputs/runs/{name}.gz</th><td>run ' in page
                and "rejected: <strong" in page), name
    for href, digest in listed.items():
        assert hashlib.sha256((site / href).read_bytes()).hexdigest() == digest
    # each run page links its published file
    linked = sorted(href for page in (site / "adhoc" / "runs").glob("*.html")
                    for href in re.findall(r'href="\.\./\.\./(adhoc/downloads/inputs/runs/[^"]+)"',
                                           page.read_text()))
    assert linked == sorted(f"adhoc/downloads/inputs/runs/{p.name}.gz" for p in runs)
    assert published_leaks(site, [site, ROOT, tmp_path]) == []
