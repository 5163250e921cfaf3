"""``appendix serve`` in its own process, spoken to over HTTP as a browser does: the site is
served, a changed run is on the page within 5 seconds, a broken config shows its error while
the previous site stays served, and SIGINT stops it with nothing left behind."""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.archive.campaign import ROOT_DIR, run_text, write_campaign

REFLECTED_WITHIN = 5.0


class Server:
    """The ``appendix serve`` process, its address and its console, read as it comes."""

    def __init__(self, config: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "builder", "serve", "--config", str(config), "--port", "0"],
            cwd=ROOT_DIR, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "SOURCE_DATE_EPOCH": "1700000000"})
        self.lines: queue.Queue[str] = queue.Queue()
        self.console: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        self.address = self.wait_for(r"serving (http://127\.0\.0\.1:\d+/)", 120).group(1)
        self.output = Path(re.search(r"built (\S+): ", "\n".join(self.console)).group(1))

    def _read(self) -> None:
        for line in self.process.stderr:
            self.lines.put(line)

    def wait_for(self, pattern: str, seconds: float) -> re.Match:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.1)
            except queue.Empty:
                continue
            self.console.append(line)
            if found := re.search(pattern, line):
                return found
        raise AssertionError(f"not said within {seconds} s: {pattern}\n{''.join(self.console)}")


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8")


def gamma_map(address: str) -> str:
    rows = get(f"{address}adhoc/downloads/summary.csv")[1].splitlines()
    column = rows[0].split(",").index("map")
    return next(row.split(",")[column] for row in rows if row.startswith("gamma,"))


def until(condition, seconds: float) -> float:
    """Seconds until ``condition()`` holds (AssertionError past ``seconds``)."""
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > seconds:
            raise AssertionError(f"not within {seconds} s")
        time.sleep(0.1)
    return time.monotonic() - start


def serving(folder: Path) -> Iterator[tuple[Server, Path]]:
    """The small campaign (without its reliability analyses, the slowest part of its build)
    served by ``appendix serve``; the server and the campaign's folder."""
    campaign = folder / "campaign"
    config = write_campaign(campaign)
    config.write_text(config.read_text().replace(
        "measures: [map, P_5]}", "measures: [map, P_5],\n     reliability: {enabled: false}}"))
    server = Server(config)
    yield server, campaign
    if server.process.poll() is None:  # stopped as a user stops it, so it removes its folder
        server.process.send_signal(signal.SIGINT)
        try:
            server.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait()


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[tuple[Server, Path]]:
    yield from serving(tmp_path_factory.mktemp("served"))


def test_the_site_is_served(served):
    server, _ = served
    status, page = get(server.address)
    assert status == 200 and "Small campaign" in page and "gamma" in page
    assert get(f"{server.address}adhoc/runs/alpha.html")[0] == 200
    status, missing = get(f"{server.address}no/such/page.html")
    assert status == 404 and "Page not found" in missing
    assert get(f"{server.address}__appendix__/state")[1] == '{"build": 1, "error": ""}'


def test_a_changed_run_is_on_the_site_within_5_seconds(served):
    server, campaign = served
    before = gamma_map(server.address)
    (campaign / "runs" / "gamma.txt").write_text(run_text("gamma", [6, 3, 2, 1, 4, 5]))
    took = until(lambda: gamma_map(server.address) != before, REFLECTED_WITHIN)
    print(f"reflected in {took:.1f} s")
    server.wait_for(r"1 runs evaluated, 2 from the cache", 10)


def test_a_broken_config_shows_its_error_and_the_previous_site_stays(served):
    server, campaign = served
    config = campaign / "site_config.yml"
    good = config.read_text()
    served_before = get(f"{server.address}adhoc/downloads/summary.csv")[1]
    config.write_text(good.replace("kind: adhoc", "kind: adhok"))
    until(lambda: "adhok" in get(f"{server.address}__appendix__/state")[1], REFLECTED_WITHIN)
    server.wait_for(r"could not be rebuilt: .*site_config\.yml", 10)
    status, page = get(server.address)
    assert status == 200 and "Small campaign" in page  # the last good site
    assert 'id="appendix-build-error"' in page and "adhok" in page
    assert get(f"{server.address}adhoc/downloads/summary.csv")[1] == served_before
    config.write_text(good)  # mended: served again, the error gone
    until(lambda: '"error": ""' in get(f"{server.address}__appendix__/state")[1],
          REFLECTED_WITHIN)
    assert 'id="appendix-build-error"' not in get(server.address)[1]


def test_sigint_stops_it_with_nothing_left_behind(served):
    server, campaign = served
    server.process.send_signal(signal.SIGINT)
    assert server.process.wait(timeout=15) == 0
    server.wait_for(r"appendix serve: stopped", 5)
    assert not server.output.parent.exists()  # the temporary output folder
    with pytest.raises(OSError):
        urllib.request.urlopen(server.address, timeout=2)
    config = str(campaign / "site_config.yml")
    alive = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes().decode(errors="replace")
            except OSError:
                continue
            if config in command:
                alive.append(entry.name)
    assert alive == []


def test_a_first_build_that_fails_has_nothing_to_serve(tmp_path):
    config = write_campaign(tmp_path / "campaign")
    config.write_text(config.read_text().replace("kind: adhoc", "kind: adhok"))
    before = set(Path("/tmp").glob("appendix-serve-*"))
    done = subprocess.run(
        [sys.executable, "-m", "builder", "serve", "--config", str(config), "--port", "0"],
        check=False, cwd=ROOT_DIR, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "cannot serve: the first build failed" in done.stderr and "adhok" in done.stderr
    assert set(Path("/tmp").glob("appendix-serve-*")) <= before
