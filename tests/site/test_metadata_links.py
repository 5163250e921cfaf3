"""A run page's metadata as information: web addresses and paths to files the site publishes
are links (escaped, and each one leads to the file), any other scheme and a path to a file not
published stay text, and an absolute path says nothing of the machine the site was built on."""

from __future__ import annotations

import csv
import gzip
from pathlib import Path

import pytest
from lxml import html as lxml_html

from tests.archive.campaign import appendix, write_campaign

WEB = "https://example.org/runs?id=alpha&lang=<en>"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The small campaign (inputs published) with alpha's metadata naming files every way;
    the campaign's folder and its site."""
    root = tmp_path_factory.mktemp("metadata")
    campaign, outside = root / "campaign", root / "elsewhere"
    config = write_campaign(campaign, publish_inputs=True)
    (campaign / "reports").mkdir()
    (campaign / "reports" / "alpha.pdf").write_bytes(b"%PDF-1.4\n")
    outside.mkdir()
    (outside / "notes.txt").write_text("notes\n")
    fields = {"web": WEB, "script": "javascript:alert(1)", "report": "reports/alpha.pdf",
              "submitted": "runs/alpha.txt", "judgements": "qrels.txt",
              "local report": str(campaign / "reports" / "alpha.pdf"),
              "local run": str(campaign / "runs" / "alpha.txt"),
              "notes": str(outside / "notes.txt"), "gone": "runs/../missing.txt"}
    with open(campaign / "runs.csv", "w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(["run", "team", *fields])
        writer.writerow(["alpha", "team-a", *fields.values()])
        writer.writerow(["beta", "team-b", *[""] * len(fields)])
        writer.writerow(["gamma", "team-g", *[""] * len(fields)])
    out = root / "site"
    assert appendix("build", "--config", str(config), "--out", str(out), "--quiet") == 0
    return campaign, out


def _metadata(page: Path) -> dict[str, tuple[str, str | None]]:
    """Field -> (the value's text, its link as written in the page or None)."""
    tree = lxml_html.parse(str(page))
    rows = {}
    for row in tree.xpath("//table[@id='metadata']/tbody/tr"):
        field, value = row.xpath("./th|./td")
        links = value.xpath(".//a")
        rows[field.text_content().strip()] = (value.text_content().strip(),
                                              links[0].get("href") if links else None)
    return rows


def test_addresses_and_published_files_are_links_the_rest_text(built) -> None:
    campaign, site = built
    page = site / "adhoc" / "runs" / "alpha.html"
    rows = _metadata(page)
    assert rows["web"] == (WEB, WEB)
    assert 'href="https://example.org/runs?id=alpha&amp;lang=&lt;en&gt;"' in page.read_text()
    assert rows["script"] == ("javascript:alert(1)", None)
    assert rows["report"] == ("reports/alpha.pdf", None)  # in the campaign, not published
    assert rows["gone"] == ("runs/../missing.txt", None)
    # a published input, named relative to the metadata file or absolutely: its copy
    for field, shown, source in (("submitted", "runs/alpha.txt", "runs/alpha.txt"),
                                 ("local run", "runs/alpha.txt", "runs/alpha.txt"),
                                 ("judgements", "qrels.txt", "qrels.txt")):
        text, href = rows[field]
        assert text == shown and href is not None and href.startswith("../../"), field
        target = (page.parent / href).resolve()
        assert target.is_relative_to(site.resolve()) and target.is_file(), field
        data = target.read_bytes()
        if target.suffix == ".gz":
            data = gzip.decompress(data)
        assert data == (campaign / source).read_bytes(), field
    # absolute paths of files not published: no folder of the build machine
    assert rows["local report"] == ("reports/alpha.pdf", None)
    assert rows["notes"] == ("notes.txt", None)
    written = page.read_text() + (site / "adhoc" / "runs" / "alpha.metadata.csv").read_text()
    assert str(campaign.parent) not in written


def test_without_published_inputs_a_path_is_text(tmp_path: Path) -> None:
    campaign = tmp_path / "campaign"
    config = write_campaign(campaign, publish_inputs=False)
    (campaign / "runs.csv").write_text("run,team,submitted\nalpha,a,runs/alpha.txt\n"
                                       "beta,b,\ngamma,g,\n")
    out = tmp_path / "site"
    assert appendix("build", "--config", str(config), "--out", str(out), "--quiet") == 0
    assert _metadata(out / "adhoc" / "runs" / "alpha.html")["submitted"] == (
        "runs/alpha.txt", None)
