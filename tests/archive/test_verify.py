"""``appendix archive`` then ``appendix verify``: an archive proves its numbers, and one byte
changed anywhere (an archived run, a published number, a page) is found and named."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import tarfile
from pathlib import Path

import pytest

from builder.archive.deposit import extract
from tests.archive.campaign import appendix, write_campaign
from tests.site.test_build import build_demo


@pytest.fixture(scope="module")
def archived(tmp_path_factory) -> Path:
    """The small campaign archived (its site built on the way); the archive's path."""
    folder = tmp_path_factory.mktemp("archived")
    config = write_campaign(folder / "campaign")
    archive = folder / "small.tar.gz"
    assert appendix("archive", str(archive), "--config", str(config), "--out",
                    str(folder / "site"), "--quiet") == 0
    return archive


def extracted(archive: Path, into: Path) -> Path:
    extract(archive, into)
    return into / "small"


def verify(path: Path, capsys) -> tuple[int, str]:
    capsys.readouterr()
    status = appendix("verify", str(path))
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def test_archive_then_verify_holds(archived, capsys):
    status, said = verify(archived, capsys)
    assert status == 0, said
    assert "tables and downloads evaluated again from the inputs" in said
    checksum = archived.with_name("small.tar.gz.sha256").read_text().split()
    assert checksum == [hashlib.sha256(archived.read_bytes()).hexdigest(), "small.tar.gz"]


def test_the_archive_holds_inputs_site_and_a_manifest_of_every_file(archived, tmp_path):
    root = extracted(archived, tmp_path)
    manifest = json.loads((root / "manifest.json").read_text())
    files = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}
    assert set(manifest["files"]) == files - {"manifest.json"}
    assert {"inputs/site_config.yml", "inputs/qrels.txt", "inputs/runs/alpha.txt",
            "site/index.html", "site/adhoc/downloads/scores.csv"} <= files
    assert (root / "inputs/runs/beta.txt").read_bytes() == (
        archived.parent / "campaign/runs/beta.txt").read_bytes()
    for name, digest in manifest["files"].items():
        assert hashlib.sha256((root / name).read_bytes()).hexdigest() == digest
    assert manifest["build_date"].startswith("2023-11-14T22:13:20")
    assert {"python", "appendix", "numpy", "pandas"} <= set(manifest["software"])
    assert manifest["config"]["tasks"][0]["qrels"] == "qrels.txt"
    text = (root / "manifest.json").read_text()
    assert str(archived.parent) not in text  # no folder of the build machine


def test_the_same_inputs_and_date_give_the_same_bytes(archived, tmp_path):
    config = write_campaign(tmp_path / "elsewhere")
    again = tmp_path / "small.tar.gz"
    assert appendix("build", "--config", str(config), "--out", str(tmp_path / "site"),
                    "--archive", str(again), "--quiet") == 0
    assert again.read_bytes() == archived.read_bytes()
    with tarfile.open(again) as tar:
        members = tar.getmembers()
    assert [m.name for m in members] == sorted(m.name for m in members)
    assert {(m.uid, m.gid, m.uname, m.gname, m.mtime) for m in members} == {
        (0, 0, "", "", 1700000000)}


def repacked(root: Path, archive: Path) -> Path:
    """The extracted archive, changed, packed again as a user would (``tar czf``)."""
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(root, arcname=root.name)
    return archive


def test_one_byte_of_an_archived_run_changed_fails_naming_the_run(archived, tmp_path, capsys):
    root = extracted(archived, tmp_path)
    run = root / "inputs/runs/gamma.txt"
    data = bytearray(run.read_bytes())
    data[data.index(b"d4")] = ord("e")  # gamma's second document of topic 1: d4 -> e4
    run.write_bytes(bytes(data))
    status, said = verify(repacked(root, tmp_path / "small.tar.gz"), capsys)
    assert status == 1, said
    first = said.splitlines()[0]
    assert first.startswith("inputs/runs/gamma.txt: expected SHA-256 "), said
    # The numbers follow the run: gamma's scores, evaluated again, differ from those published.
    assert "site/adhoc/downloads/scores.csv row" in said and "(gamma)" in said


def test_one_value_of_a_published_csv_changed_fails_naming_file_row_and_values(
        archived, tmp_path, capsys):
    root = extracted(archived, tmp_path)
    summary = root / "site/adhoc/downloads/summary.csv"
    rows = summary.read_text().splitlines()
    header, row = rows[0].split(","), rows[2].split(",")
    column = header.index("map")
    original = row[column]
    row[column] = "0.999"
    rows[2] = ",".join(row)
    summary.write_text("\n".join(rows) + "\n")
    status, said = verify(root, capsys)
    assert status == 1, said
    assert f"site/adhoc/downloads/summary.csv row 2 ({row[0]}), column map: expected " \
           f"{original}, found 0.999" in said
    assert "site/adhoc/downloads/summary.csv: expected SHA-256" in said


def test_a_changed_page_fails_naming_the_page(archived, tmp_path, capsys):
    root = extracted(archived, tmp_path)
    page = root / "site/index.html"
    page.write_text(page.read_text().replace("Small campaign", "Smal campaign", 1))
    status, said = verify(root, capsys)
    assert status == 1, said
    assert said.splitlines()[0].startswith("site/index.html: expected SHA-256"), said


def test_a_newer_archive_format_cannot_be_told(archived, tmp_path, capsys):
    root = extracted(archived, tmp_path)
    manifest = json.loads((root / "manifest.json").read_text())
    manifest["archive_format"] = 99
    (root / "manifest.json").write_text(json.dumps(manifest))
    status, said = verify(root, capsys)
    assert status == 2, said
    assert "newer than this appendix reads" in said


def test_an_archive_missing_an_input_cannot_be_told(archived, tmp_path, capsys):
    """An input the archive records without its bytes (withheld, as a run outside the
    campaign's folders is): the numbers cannot be checked again, which is exit 2."""
    root = extracted(archived, tmp_path)
    manifest = json.loads((root / "manifest.json").read_text())
    entry = next(e for e in manifest["inputs"] if e["path"] == "runs/beta.txt")
    del manifest["files"][entry.pop("archived_as")]
    (root / "inputs/runs/beta.txt").unlink()
    (root / "manifest.json").write_text(json.dumps(manifest))
    status, said = verify(root, capsys)
    assert status == 2, said
    assert "cannot tell: the numbers could not be checked again: input runs/beta.txt" in said


def test_not_an_archive_cannot_be_told(tmp_path, capsys):
    (tmp_path / "x.tar.gz").write_bytes(b"not a tar")
    assert verify(tmp_path / "x.tar.gz", capsys)[0] == 2
    assert verify(tmp_path, capsys)[0] == 2


def test_a_site_built_twice_from_the_same_inputs_verifies(tmp_path, capsys):
    config = write_campaign(tmp_path / "campaign")
    out = tmp_path / "site"
    for _ in range(2):
        assert appendix("build", "--config", str(config), "--out", str(out), "--quiet") == 0
    status, said = verify(out, capsys)
    assert status == 0, said
    assert "tables and downloads evaluated again from the inputs" in said
    (out / "adhoc/downloads/summary.json").write_text("[]\n")
    status, said = verify(out, capsys)
    assert status == 1 and "adhoc/downloads/summary.json" in said


def test_a_site_without_its_inputs_verifies_its_files_only(tmp_path, capsys):
    config = write_campaign(tmp_path / "campaign", publish_inputs=False)
    out = tmp_path / "site"
    assert appendix("build", "--config", str(config), "--out", str(out), "--quiet") == 0
    status, said = verify(out, capsys)
    assert status == 0, said
    assert "the numbers could not be checked again" in said
    assert "files checked against their SHA-256" in said
    (out / "index.html").write_text("changed")
    assert verify(out, capsys)[0] == 1


def test_the_demo_campaign_with_its_xml_corpus_archives_and_verifies(tmp_path, capsys):
    """Every kind of task of the demo (ad hoc, INEX passages, INEX elements over an XML
    corpus, which the archive holds too) evaluated again from the archive."""
    archive = tmp_path / "demo.tar.gz"
    assert build_demo(tmp_path / "site", "--archive", str(archive)) == 0
    with tarfile.open(archive) as tar:
        names = tar.getnames()
    assert any(name.startswith("demo/inputs/data/inex_elements/corpus/") for name in names)
    status, said = verify(archive, capsys)
    assert status == 0, said
    shutil.rmtree(tmp_path / "site")


@pytest.mark.parametrize("filters", [True, False], ids=["tarfile's filter", "before 3.11.4"])
@pytest.mark.parametrize("member", ["../outside.txt", "/etc/outside.txt", "link"])
def test_a_member_leaving_the_archive_folder_is_refused(tmp_path, monkeypatch, filters, member):
    """With tarfile's data filter, and on a Python without filters (Debian 12's 3.11.2): a
    member climbing out or a link to outside is refused, an absolute name is refused or kept
    inside; nothing is written outside."""
    if not filters:
        monkeypatch.delattr(tarfile, "data_filter", raising=False)
    archive = tmp_path / "hostile.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        if member == "link":
            info = tarfile.TarInfo("small/escape")
            info.type, info.linkname = tarfile.SYMTYPE, "/etc/passwd"
            tar.addfile(info)
        else:
            info = tarfile.TarInfo(member)
            info.size = 2
            tar.addfile(info, io.BytesIO(b"x\n"))
    into = tmp_path / "into"
    into.mkdir()
    try:
        extract(archive, into)
    except tarfile.TarError:
        pass
    else:  # tarfile's filter unpacks an absolute name inside, as a relative one
        assert filters and member.startswith("/")
        assert (into / member.lstrip("/")).is_file()
    assert not (tmp_path / "outside.txt").exists() and not Path(member).is_file()
    assert not (into / "small" / "escape").exists()
