"""The clean-up of a killed build follows no link: a symbolic link named like a build's
leftover (``.site.building-*``, ``.site.previous-*``) is left alone with the folder behind it,
and a folder that says it is our site but does not list what we wrote is refused, not
emptied."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from builder.site.publish import STAGING_MARK, WRITTEN, _remove_tree, recover
from tests.site.test_publish_faults import finished, leftovers, publish_once, tree


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> tuple[Path, Path, dict[str, str]]:
    return publish_once(tmp_path_factory, "links")


def user_folder(parent: Path, site: Path) -> tuple[Path, dict[str, str]]:
    """The user's folder: a copy of a site of ours, marked as staging, with a file of the
    user's: everything that could make the clean-up take it for its own."""
    folder = parent / "userdata"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(site, folder)
    (folder / STAGING_MARK).touch()
    (folder / "notes.txt").write_text("mine\n")
    return folder, tree(folder)


@pytest.mark.slow
@pytest.mark.parametrize("name, output_there", [
    ("building-x", True), ("previous-x", True), ("previous-x", False)])
def test_a_link_named_like_a_leftover_is_left_alone(site, name, output_there):
    folder, out, before = site
    userdata, userdata_before = user_folder(folder, out)
    link = folder / f".site.{name}"
    link.symlink_to(userdata, target_is_directory=True)
    kept = folder / "kept"
    if not output_there:
        out.rename(kept)
    try:
        code, err = finished(folder, out)
        assert code == 0 and "Traceback" not in err, err
        assert f"left .site.{name} alone: a symbolic link, not a folder this tool made" in err
        assert link.is_symlink() and link.resolve() == userdata
        assert tree(userdata) == userdata_before
        assert tree(out) == before
    finally:
        link.unlink()
        if kept.exists():
            shutil.rmtree(kept)
    assert leftovers(out) == []


def test_removing_a_link_leaves_the_folder_behind_it(site, tmp_path):
    _, out, _ = site
    userdata, userdata_before = user_folder(tmp_path, out)
    link = tmp_path / ".site.building-x"
    link.symlink_to(userdata)
    _remove_tree(link)
    assert link.is_symlink() and tree(userdata) == userdata_before


def test_a_site_without_its_list_of_written_files_is_refused(site):
    """An output whose manifest names the tool but which lists no written files: the build
    cannot tell the user's files from its own, so it replaces nothing."""
    folder, out, _ = site
    claimed = folder / "claimed"
    claimed.mkdir()
    shutil.copy(out / "manifest.json", claimed)
    (claimed / "thesis.tex").write_text("mine\n")
    claimed_before = tree(claimed)
    code, err = finished(folder, claimed)
    assert code == 2 and "Traceback" not in err
    assert (f"refusing to replace {claimed}: its manifest.json names appendix but it has no "
            f"{WRITTEN} listing the files appendix wrote") in err
    assert tree(claimed) == claimed_before and leftovers(claimed) == []


def test_a_leftover_folder_without_its_list_is_left_alone(site, tmp_path):
    """A real folder of a leftover's name with our manifest but no list of written files and
    no staging mark: not known to be ours, so kept."""
    _, out, _ = site
    output = tmp_path / "site"
    shutil.copytree(out, output)
    stranger = tmp_path / ".site.previous-y"
    stranger.mkdir()
    shutil.copy(out / "manifest.json", stranger)
    (stranger / "notes.txt").write_text("mine\n")
    why = (f"not a folder this tool made and marked (no {STAGING_MARK}, or no manifest.json "
           f"with its {WRITTEN})")
    assert recover(output) == [f"left {stranger.name} alone: {why}"]
    assert (stranger / "notes.txt").read_text() == "mine\n"
