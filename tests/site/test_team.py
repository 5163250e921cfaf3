"""``appendix build --team TEAM`` on the demo campaign (four tasks of three kinds): the team's
runs in full, every other run by rank and scores only, with no name or description of another
team's run in any file of the bundle (pages, CSVs, JSON, data scripts, manifest)."""

from __future__ import annotations

import csv
import html
from pathlib import Path

import pytest

from builder.cli import main
from builder.site.render import TEMPLATES
from tests.site.site_checks import broken_references

ROOT = Path(__file__).resolve().parents[2]
TEAM = "Kestrel Labs"
METADATA = sorted((ROOT / "data").rglob("*.csv"))


def _metadata() -> list[dict[str, str]]:
    rows = []
    for path in METADATA:
        with open(path, newline="", encoding="utf-8") as stream:
            reader = csv.DictReader(stream)
            if reader.fieldnames and {"run", "team"} <= set(reader.fieldnames):
                rows += list(reader)
    return rows


def _csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as stream:
        return list(csv.DictReader(stream))


@pytest.fixture(scope="module")
def bundle(demo_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("team") / "bundle"
    status = main(["build", "--config", str(ROOT / "site_config.yml"), "--out", str(out),
                   "--quiet", "--team", TEAM])
    assert status == 0
    return out


def test_no_other_teams_run_name_or_description_in_any_file(bundle: Path) -> None:
    others = [row for row in _metadata() if row["team"] != TEAM]
    assert len(others) > 20
    secrets = {row["run"] for row in others}
    secrets |= {row["description"] for row in others if row.get("description")}
    secrets |= {html.escape(s) for s in secrets} | {html.escape(s, quote=False) for s in secrets}
    files = [p for p in sorted(bundle.rglob("*")) if p.is_file()]
    assert len(files) > 100
    leaks = []
    for path in files:
        if path.parent == bundle / "assets":
            # the site's own stylesheet and scripts, the same in every site: no data in them
            source = TEMPLATES / "assets" / path.name
            assert path.name == "plotly.min.js" or path.read_bytes() == source.read_bytes()
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        leaks += [f"{path.relative_to(bundle)}: {s}" for s in secrets if s in text]
        assert not any(s in path.name for s in secrets), path
    assert leaks == []


def test_own_runs_in_full_others_by_rank_and_scores(bundle: Path, demo_site: Path) -> None:
    own = {row["run"]: row for row in _metadata() if row["team"] == TEAM}
    public = _csv(demo_site / "adhoc" / "index.leaderboard-adhoc.csv")
    board = _csv(bundle / "adhoc" / "index.leaderboard-adhoc.csv")
    assert len(board) == len(public)
    for rank, (mine, theirs) in enumerate(zip(board, public), start=1):
        assert mine["map"] == theirs["map"] and mine["P_10"] == theirs["P_10"]
        if theirs["Run"] in own:
            assert mine["Run"] == theirs["Run"] and mine["Team"] == TEAM
        else:
            assert mine["Run"] == f"other-{rank:03d}"
            assert mine["Team"] == mine["Type"] == ""
    run = next(r for r in board if r["Run"] in own)["Run"]
    page = (bundle / "adhoc" / "runs" / f"{run}.html").read_text(encoding="utf-8")
    assert html.escape(own[run]["description"], quote=False) in page.replace("&#39;", "'")
    assert "results for team Kestrel Labs" in (bundle / "index.html").read_text(encoding="utf-8")
    # the other teams' validation pages and rejected runs are not in the bundle
    assert {p.stem for p in (bundle / "adhoc" / "validation").glob("*.html")} == {
        r["Run"] for r in board} | ({"kestrelDup"} & set(own))
    other = (bundle / "adhoc" / "validation" / "other-001.html").read_text(encoding="utf-8")
    assert "<code>data/adhoc/runs/other-001 (file name withheld)</code>" in other
    manifest = (bundle / "manifest.json").read_text(encoding="utf-8")
    assert "kestrelDense" in manifest and "nbuBM25" not in manifest
    assert broken_references(bundle) == []


def test_an_unknown_team_is_refused(tmp_path: Path, capsys) -> None:
    status = main(["build", "--config", str(ROOT / "site_config.yml"), "--out",
                   str(tmp_path / "x"), "--quiet", "--team", "Nobody"])
    assert status == 2
    err = capsys.readouterr().err
    assert "no run of team 'Nobody'" in err and "Kestrel Labs" in err
    assert not (tmp_path / "x").exists()


@pytest.mark.slow
def test_the_bundle_is_valid_html_and_leaks_no_machine_path(bundle: Path) -> None:
    from tests.site.browser import vnu_errors
    from tests.site.site_checks import published_leaks

    assert published_leaks(bundle, [bundle, ROOT, ROOT / "data"]) == []
    pages = sorted(bundle.rglob("*.html"))
    assert vnu_errors(pages, bundle) == []
