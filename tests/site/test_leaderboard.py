"""The TREC-COVID leaderboard (143 runs) in a real headless browser, from ``file://``: columns
sort as numbers, the filter and the best-run-per-team view narrow the rows, a chosen team's
runs stand out, the view is kept in the URL (restored on load and by the back button),
``#run=NAME`` highlights a run, the header and the run column stay in view, the page fits a
phone, the keyboard drives it all, axe finds nothing, and without JavaScript the table is a
plain table."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest

from tests.site.browser import axe_report, vnu_errors

BOARD = "#leaderboard-covid"


@pytest.fixture(scope="module")
def board(covid_site: Path) -> list[dict[str, str]]:
    """The leaderboard's rows as its CSV holds them, in rank order."""
    with open(covid_site / "index.leaderboard-covid.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _column(page: Any, name: str, visible_only: bool = True) -> list[str]:
    """The texts of the column headed ``name`` in the rows shown, top to bottom."""
    return page.evaluate(
        """([selector, name, visibleOnly]) => {
            const table = document.querySelector(selector);
            const index = [...table.tHead.rows[0].cells].findIndex(
                th => th.textContent.trim() === name);
            return [...table.tBodies[0].rows].filter(r => !visibleOnly || !r.hidden)
                .map(r => r.cells[index].textContent.trim());
        }""", [BOARD, name, visible_only])


def _sort_button(page: Any, name: str) -> Any:
    return page.locator(f"{BOARD} thead th").filter(has_text=name).first.locator("button")


@pytest.mark.slow
def test_a_column_header_sorts_the_rows_as_numbers(covid_site: Path, visit: Any, board) -> None:
    seen = visit(covid_site / "index.html")
    page = seen.page
    values = [int(row["num_rel_ret"]) for row in board]
    assert sorted(values, reverse=True) != values  # the rank order is not that column's order
    _sort_button(page, "Relevant retrieved").click()
    shown = [int(v) for v in _column(page, "Relevant retrieved")]
    assert shown == sorted(values, reverse=True)
    # numerically, not as text: 999 below 1000 (as text "999" > "1000")
    assert sorted(map(str, values), reverse=True) != [str(v) for v in shown]
    header = page.locator(f"{BOARD} thead th").filter(has_text="Relevant retrieved").first
    assert header.get_attribute("aria-sort") == "descending"
    _sort_button(page, "Relevant retrieved").click()
    assert [int(v) for v in _column(page, "Relevant retrieved")] == sorted(values)
    assert header.get_attribute("aria-sort") == "ascending"
    _sort_button(page, "Team").click()
    teams = _column(page, "Team")
    assert teams == sorted(teams, key=str.lower)
    _sort_button(page, "Rank").click()
    _sort_button(page, "Rank").click()
    assert _column(page, "Run") == [row["Run"] for row in board]
    assert seen.console_errors == [] and seen.remote_requests() == []


def test_the_filter_narrows_the_rows(covid_site: Path, visit: Any, board) -> None:
    seen = visit(covid_site / "index.html")
    page = seen.page
    page.get_by_label("Filter by run, team or type").fill("uogtr")
    expected = [row["Run"] for row in board if "uogtr" in (row["Run"] + row["Team"]).lower()]
    assert 0 < len(expected) < len(board)
    assert _column(page, "Run") == expected
    assert page.locator(".table-status").inner_text() == f"{len(expected)} of {len(board)} runs shown"
    page.get_by_label("Filter by run, team or type").fill("manual")
    assert _column(page, "Run") == [row["Run"] for row in board if row["Type"] == "manual"]
    page.get_by_label("Filter by run, team or type").fill("")
    assert len(_column(page, "Run")) == len(board)
    assert seen.console_errors == []


def test_best_run_per_team(covid_site: Path, visit: Any, board) -> None:
    seen = visit(covid_site / "index.html")
    page = seen.page
    page.get_by_label("Only each team's best run").check()
    best: dict[str, str] = {}
    for row in board:
        best.setdefault(row["Team"], row["Run"])
    assert len(best) < len(board)
    assert _column(page, "Run") == list(best.values())
    page.get_by_label("Filter by run, team or type").fill("automatic")
    assert set(_column(page, "Run")) <= set(best.values())
    assert seen.console_errors == []


def test_the_run_in_the_url_is_highlighted(covid_site: Path, visit: Any, board) -> None:
    run = board[len(board) // 2]["Run"]
    seen = visit(covid_site / "index.html", f"#run={run}", viewport=(1400, 900))
    page = seen.page
    highlighted = page.locator(f"{BOARD} tbody tr.highlight")
    assert highlighted.count() == 1
    assert highlighted.get_attribute("aria-current") == "true"
    assert highlighted.locator("th").inner_text() == run
    box = highlighted.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= 900  # scrolled into view
    other = board[-1]["Run"]
    page.evaluate(f"location.hash = '#run={other}'")
    page.wait_for_function("document.querySelector('tr.highlight th').textContent.trim() === "
                           f"{other!r}")
    assert page.locator(f"{BOARD} tbody tr.highlight").count() == 1
    assert seen.console_errors == []


def _view(page: Any) -> dict[str, Any]:
    """What the reader sees of the leaderboard: the runs shown in order, the highlighted team's
    runs, the filter, the best-run-per-team box and the team chosen."""
    return {"runs": _column(page, "Run"),
            "team runs": [c.strip() for c in page.locator(
                f"{BOARD} tbody tr.team-highlight:not([hidden]) th").all_inner_texts()],
            "filter": page.get_by_label("Filter by run, team or type").input_value(),
            "best": page.get_by_label("Only each team's best run").is_checked(),
            "team": page.get_by_label("Highlight a team").input_value()}


def test_a_team_stands_out_and_the_view_is_kept_in_the_url(covid_site: Path, visit: Any,
                                                           board) -> None:
    """Choose a team: its runs (and only they) are marked and counted; the choice, a sort and
    a filter go into the URL's fragment; a reload from ``file://`` shows the same view, and the
    back button undoes one change at a time."""
    seen = visit(covid_site / "index.html")
    page = seen.page
    teams: dict[str, list[str]] = {}
    for row in board:
        teams.setdefault(row["Team"], []).append(row["Run"])
    team = max(sorted(teams), key=lambda t: len(teams[t]))  # the team with the most runs
    assert len(teams[team]) > 1
    page.get_by_label("Highlight a team").select_option(team)
    marked = _view(page)["team runs"]
    assert marked == teams[team]  # every run of the team, in rank order, and no other
    assert page.locator(".table-status").inner_text() == (
        f"{len(board)} of {len(board)} runs shown; {len(marked)} runs of {team} are highlighted")
    assert "team=" in page.evaluate("location.hash")

    _sort_button(page, "Relevant retrieved").click()
    sorted_view = _view(page)
    values = {row["Run"]: int(row["num_rel_ret"]) for row in board}
    assert [values[r] for r in sorted_view["runs"]] == sorted(values.values(), reverse=True)
    word = teams[team][0][:4].lower()
    page.get_by_label("Filter by run, team or type").fill(word)
    filtered = _view(page)
    assert 0 < len(filtered["runs"]) < len(board)
    assert all(word in (r + next(b["Team"] for b in board if b["Run"] == r)).lower()
               for r in filtered["runs"])

    url = page.url
    assert "#" in url and url.startswith("file://")
    page.reload()
    assert _view(page) == filtered  # the whole view, from the URL alone
    header = page.locator(f"{BOARD} thead th").filter(has_text="Relevant retrieved").first
    assert header.get_attribute("aria-sort") == "descending"

    # a new tab opened at the link shows the same view
    other = visit(covid_site / "index.html", "#" + url.split("#", 1)[1])
    assert _view(other.page) == filtered

    # Back: the sort undone (the filter was typed into the sort's entry), then the team.
    page.go_back()
    page.wait_for_function("!location.hash.includes('sort=')")
    before_sort = _view(page)
    assert before_sort["runs"] == [row["Run"] for row in board]
    assert before_sort["filter"] == "" and before_sort["team runs"] == teams[team]
    page.go_back()
    page.wait_for_function("!location.hash.includes('team=')")
    assert _view(page)["team runs"] == [] and _view(page)["team"] == ""
    page.go_forward()
    page.wait_for_function("location.hash.includes('team=')")
    assert _view(page)["team runs"] == teams[team]
    assert seen.console_errors == [] and other.console_errors == []
    assert axe_report(page, "index.html with a team highlighted") == []


def test_best_run_per_team_is_kept_in_the_url(covid_site: Path, visit: Any, board) -> None:
    seen = visit(covid_site / "index.html", "#best=1&sort=Team&order=asc")
    best: dict[str, str] = {}
    for row in board:
        best.setdefault(row["Team"], row["Run"])
    view = _view(seen.page)
    assert view["best"] is True
    assert view["runs"] == [best[t] for t in sorted(best, key=str.lower)]
    seen.page.get_by_label("Only each team's best run").uncheck()
    assert "best=" not in seen.page.evaluate("location.hash")
    assert len(_view(seen.page)["runs"]) == len(board)
    assert seen.console_errors == []


@pytest.mark.parametrize("width", [1400, 1920])
def test_top_group_and_validation_in_view_on_a_screen(covid_site: Path, visit: Any,
                                                      width: int) -> None:
    seen = visit(covid_site / "index.html", viewport=(width, 1000))
    page = seen.page
    region = page.locator(".table-scroll").first.bounding_box()
    for name in ("Top group", "Validation"):
        box = page.locator(f"{BOARD} thead th").filter(has_text=name).first.bounding_box()
        assert box["x"] + box["width"] <= min(width, region["x"] + region["width"]) + 1, name
    assert seen.console_errors == []


def test_header_and_run_column_stay_in_view(covid_site: Path, visit: Any) -> None:
    seen = visit(covid_site / "index.html", viewport=(900, 800))
    page = seen.page
    region = page.locator(".table-scroll").first
    region.scroll_into_view_if_needed()
    region.evaluate("node => { node.scrollTop = 1500; node.scrollLeft = 400; }")
    top_left = region.bounding_box()
    header = page.locator(f"{BOARD} thead th").filter(has_text="Run").first.bounding_box()
    assert abs(header["y"] - top_left["y"]) < 2  # stuck at the top of the scrolled region
    run_cell = page.locator(f"{BOARD} tbody tr").nth(60).locator("th")
    box = run_cell.bounding_box()
    assert top_left["x"] <= box["x"] < top_left["x"] + 100  # the rank column, then the run
    row_y = run_cell.evaluate("node => node.getBoundingClientRect().top")
    assert top_left["y"] < row_y < top_left["y"] + top_left["height"]
    assert seen.console_errors == []


def test_the_page_fits_a_phone(covid_site: Path, visit: Any) -> None:
    seen = visit(covid_site / "index.html", viewport=(390, 844))
    page = seen.page
    page.wait_for_selector("#figure-leaderboard-covid svg.main-svg")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    chart = page.locator("#figure-leaderboard-covid").bounding_box()
    assert chart["x"] >= 0 and chart["x"] + chart["width"] <= 390
    for svg in page.locator("#figure-leaderboard-covid svg.main-svg").all():
        box = svg.bounding_box()
        assert box["x"] + box["width"] <= 390
    run_cell = page.locator(f"{BOARD} tbody tr").first.locator("th").bounding_box()
    assert run_cell["width"] >= 100  # names readable, not one letter a line
    assert seen.console_errors == []  # before axe, which reads the stylesheet by XHR
    assert axe_report(page, "index.html at 390 px") == []


def test_the_keyboard_drives_the_controls(covid_site: Path, visit: Any, board) -> None:
    seen = visit(covid_site / "index.html")
    page = seen.page
    page.get_by_label("Filter by run, team or type").focus()
    page.keyboard.type("sabir")
    page.keyboard.press("Tab")
    page.keyboard.press("Space")  # the best-run-per-team checkbox
    assert _column(page, "Run") == [next(r["Run"] for r in board if r["Team"] == "sabir")]
    # the team to highlight, the scrolling region, then the header buttons: Rank, Run,
    # nDCG@10, Top group, Team
    for _ in range(7):
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('th').textContent.trim()") == "Team"
    page.keyboard.press("Enter")
    header = page.locator(f"{BOARD} thead th").filter(has_text="Team").first
    assert header.get_attribute("aria-sort") == "ascending"
    assert seen.console_errors == []
    assert axe_report(page, "index.html, filtered and sorted") == []


def test_without_javascript_the_table_is_a_plain_table(covid_site: Path, browser: Any,
                                                       board) -> None:
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto((covid_site / "index.html").as_uri())
        assert page.locator(f"{BOARD} tbody tr").count() == len(board)
        assert page.locator(f"{BOARD} button").count() == 0
        assert page.locator("input").count() == 0
        assert [c.strip() for c in page.locator(f"{BOARD} tbody th").all_inner_texts()] == [
            row["Run"] for row in board]
    finally:
        context.close()


def test_home_page_is_axe_clean_with_a_highlighted_run(covid_site: Path, visit: Any,
                                                       board) -> None:
    seen = visit(covid_site / "index.html", f"#run={board[3]['Run']}")
    assert seen.console_errors == []
    assert axe_report(seen.page, "index.html#run") == []


def test_the_home_page_is_valid_html(covid_site: Path) -> None:
    assert vnu_errors([covid_site / "index.html"], covid_site) == []


def test_the_topics_list_sorts_by_difficulty(covid_site: Path, visit: Any) -> None:
    seen = visit(covid_site / "covid" / "topics" / "index.html")
    page = seen.page

    def column(name: str) -> list[str]:
        return page.evaluate(
            """(name) => {
                const table = document.querySelector('#topics');
                const index = [...table.tHead.rows[0].cells].findIndex(
                    th => th.textContent.trim() === name);
                return [...table.tBodies[0].rows].filter(r => !r.hidden)
                    .map(r => r.cells[index].textContent.trim());
            }""", name)

    best = "Best nDCG@10"
    before = [float(v) for v in column(best)]
    assert len(before) == 30 and sorted(before) != before
    page.locator("#topics thead th").filter(has_text=best).first.locator("button").click()
    assert [float(v) for v in column(best)] == sorted(before, reverse=True)
    assert seen.console_errors == [] and seen.remote_requests() == []


def test_measure_headers_show_display_names_with_the_official_ones_as_tooltips(
        covid_site: Path, visit: Any) -> None:
    """The page's headers read nDCG@10, P@5 ...; each one's tooltip and the CSV's header give
    the official program's name, column by column."""
    from builder.measures.registry import get

    page = visit(covid_site / "index.html").page
    headers = page.evaluate(f"""() => [...document.querySelectorAll('{BOARD} thead th')]
        .map(th => [th.textContent.trim(), th.getAttribute('title')])""")
    with open(covid_site / "index.leaderboard-covid.csv", newline="", encoding="utf-8") as f:
        csv_header = next(csv.reader(f))
    assert len(headers) == len(csv_header)
    measures = 0
    for (shown, tooltip), official in zip(headers, csv_header):
        if tooltip is None:
            assert shown == official
            continue
        measures += 1
        assert tooltip == official and shown == get("adhoc", official).label
    assert measures == 5
    # the official measure right after the run, in view on a phone
    assert headers[2] == ["nDCG@10", "ndcg_cut_10"]
    assert "ndcg_cut_10" not in page.locator("main").inner_text()
