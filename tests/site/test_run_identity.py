"""A run page's address is permanent: adding or removing other runs never changes it (the
file name of a run's pages follows from the run's name alone, ``builder.site.paths.slugs``),
so a link to a run's page, cited in a paper, holds after late runs are added."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from builder.site.paths import slugs
from tests.archive.campaign import appendix, run_text, write_campaign

NAMES = st.text(alphabet=st.sampled_from("abcXYZ09._-+ <>/éü"), min_size=1, max_size=12)


@settings(max_examples=300, deadline=None)
@given(st.lists(NAMES, min_size=1, max_size=12, unique_by=str.casefold),
       st.lists(NAMES, max_size=6))
def test_a_run_s_file_name_does_not_depend_on_the_other_runs(runs, others):
    """Any runs, with others added (none the same as one of them but for case: the one
    exception, two files whose names differ only by case being one file on some systems)."""
    taken = {name.casefold() for name in runs}
    others = [name for name in others if name.casefold() not in taken]
    alone = slugs(runs)
    together = slugs([*runs, *others])
    assert {name: together[name] for name in runs} == alone
    for name in runs:  # and each alone
        assert slugs([name])[name] == alone[name]


def run_pages(site) -> set[str]:
    return {p.name for p in (site / "adhoc" / "runs").glob("*.html")}


def test_run_page_addresses_stay_when_runs_are_added_and_removed(tmp_path):
    campaign = tmp_path / "campaign"
    config = write_campaign(campaign)
    out = tmp_path / "site"
    build = ["build", "--config", str(config), "--out", str(out), "--quiet"]
    assert appendix(*build) == 0
    before = run_pages(out)
    (campaign / "runs" / "delta.txt").write_text(run_text("delta", [3, 1, 2, 6, 5, 4]))
    (campaign / "runs" / "Delta2.txt").write_text(run_text("Delta<2>", [4, 1, 2, 6, 5, 3]))
    assert appendix(*build) == 0
    assert before < run_pages(out)
    (campaign / "runs" / "gamma.txt").unlink()
    assert appendix(*build) == 0
    after = run_pages(out)
    assert before - {"gamma.html"} < after and "gamma.html" not in after
    leaderboard = (out / "index.html").read_text()
    for page in before - {"gamma.html"}:
        assert re.search(rf'href="adhoc/runs/{re.escape(page)}"', leaderboard), page
