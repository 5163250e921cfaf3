"""Bounded reading through the real command line: a file, its gunzipped data, a line, a field or
a name beyond the input limits (``limits:``, ``builder.formats.limits``) is a finding with its
file and line; ``build`` rejects that run alone and publishes the others, ``evaluate`` and
``validate`` report it; the config's own problems (nesting, a NUL character) are config
errors that leave the previous site as it was. Peak memory is measured in a process of its own
under an address-space limit (``resource.setrlimit``): a gzip expanding to 2 GB and a line of
64 MB are refused under 500 MB.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from tests.commands.test_bad_input import (
    GOOD,
    QRELS,
    build,
    cli,
    leaderboard_runs,
    rejected_reasons,
    write,
)

LIMITED = """campaign: {title: T}
limits: {line: 1 KiB, name: 32, field: 100, decompressed: 1 MiB}
tasks:
  - {id: t, title: T, kind: adhoc, qrels: q.txt, runs: runs/}
"""
LINE = "1 Q0 d9 3 0.5 {tag}\n"


def site_files(site: Path) -> dict[str, bytes]:
    return {str(p.relative_to(site)): p.read_bytes() for p in sorted(site.rglob("*"))
            if p.is_file()}


@pytest.fixture
def limited(tmp_path: Path) -> Path:
    """A campaign under small limits: a good run and one run beyond each limit."""
    write(tmp_path / "q.txt", QRELS)
    write(tmp_path / "runs" / "good.txt", GOOD)
    write(tmp_path / "runs" / "line.txt", GOOD + "1 Q0 " + "d" * 2000 + " 3 0.5 x\n")
    write(tmp_path / "runs" / "bomb.txt.gz", gzip.compress(GOOD.encode() * 100_000))
    write(tmp_path / "runs" / "tag.txt", GOOD.replace("good", "t" * 40))
    write(tmp_path / "runs" / "doc.txt", GOOD + "2 Q0 " + "d" * 101 + " 3 0.5 good\n")
    return write(tmp_path / "c.yml", LIMITED)


def test_each_run_beyond_a_limit_is_rejected_alone_and_the_rest_published(limited, capsys):
    code, _, _, home = build(capsys, limited)
    assert code == 0
    assert leaderboard_runs(home) == ["good"]
    reasons = rejected_reasons(home)
    assert reasons == {
        # named by their files (none has a tag that could be read), without .txt and .gz
        "line": "line 4: the line is longer than 1 KiB (limits: line)",
        "bomb": "gunzipped, the file is larger than 1 MiB (limits: decompressed)",
        "tag": "line 1: the run tag is longer than 32 characters (limits: name) "
               "(and 2 more errors)",
        "doc": "line 4: the doc is longer than 100 bytes (limits: field)",
    }, reasons


def test_evaluate_and_validate_report_the_run_with_file_and_line(tmp_path, capsys):
    qrels = write(tmp_path / "q.txt", QRELS)
    good = write(tmp_path / "good.txt", GOOD)
    long = write(tmp_path / "long.txt", GOOD + "1 Q0 d3 3 0.5 " + "t" * 300 + "\n")
    for command in (["evaluate", qrels], ["validate", "--qrels", qrels]):
        code, out, err = cli(capsys, *command, good, long)
        assert code == 2, command
        assert f"{long}:4: error: the run tag is longer than 256 characters (limits: name)" \
            in out + err
    code, out, _ = cli(capsys, "evaluate", qrels, good)
    assert code == 0 and "map" in out


@pytest.mark.parametrize("case", ["nesting", "nul", "device"])
def test_a_config_error_leaves_the_previous_site(tmp_path, capsys, case):
    write(tmp_path / "q.txt", QRELS)
    write(tmp_path / "runs" / "good.txt", GOOD)
    config = write(tmp_path / "c.yml", LIMITED)
    assert build(capsys, config)[0] == 0
    before = site_files(tmp_path / "site")
    if case == "nesting":
        config.write_text(LIMITED + "extra: " + "[" * 5000 + "]" * 5000 + "\n")
        expected = "line 5: not valid YAML: nested deeper than 64 levels (limits: nesting)"
    elif case == "nul":
        config.write_text(LIMITED.replace("runs: runs/", 'runs: "runs\\0/"'))
        expected = "tasks[0].runs: holds a NUL character"
    else:
        config = Path("/dev/zero")
        expected = "cannot read: not a regular file"
    code, _, err = cli(capsys, "build", "--config", config, "--quiet")
    assert code == 2 and expected in err, err
    assert site_files(tmp_path / "site") == before


def test_deep_run_metadata_is_a_finding_and_the_previous_site_stays(tmp_path, capsys):
    write(tmp_path / "q.txt", QRELS)
    write(tmp_path / "runs" / "good.txt", GOOD)
    config = write(tmp_path / "c.yml", LIMITED)
    assert build(capsys, config)[0] == 0
    before = site_files(tmp_path / "site")
    write(tmp_path / "runs.yml", "good: {team: " + "[" * 100 + "]" * 100 + "}\n")
    config.write_text(LIMITED.replace("runs: runs/}", "runs: runs/, run_metadata: runs.yml}"))
    code, _, err = cli(capsys, "build", "--config", config, "--quiet")
    assert code == 2
    assert "runs.yml:1: error: not valid YAML: nested deeper than 64 levels (limits: nesting)" \
        in err
    assert site_files(tmp_path / "site") == before


def test_a_long_team_or_run_name_in_the_metadata_is_a_finding(tmp_path):
    from builder.formats.run_metadata import read_run_metadata

    path = write(tmp_path / "runs.csv", "run,team\ngood,Iris\nother," + "x" * 300 + "\n")
    table, findings = read_run_metadata(path)
    assert list(table["run"]) == ["good"]
    assert [f.format() for f in findings] == [
        f"{path}:3: error: the team is longer than 256 characters (limits: name)"]


def test_an_inex_submission_with_a_long_run_id_is_rejected(tmp_path):
    from builder.formats.xml.elements.run import read_element_run

    run_id = "r" * 300  # a 20 MB one is refused by the line limit before it is parsed
    path = write(tmp_path / "s.xml", f'<inex-submission run-id="{run_id}">\n<topic topic-id="1">'
                 "<result><file>1</file><path>/article[1]</path></result></topic>\n"
                 "</inex-submission>\n")
    table, findings = read_element_run(path)
    assert table is None
    assert [f.format() for f in findings] == [
        f"{path}:1: error: the run-id is longer than 256 characters (limits: name)"]
    huge = write(tmp_path / "h.xml", f'<inex-submission run-id="{"r" * (20 << 20)}"/>\n')
    table, findings = read_element_run(huge)
    assert table is None
    assert [f.format() for f in findings] == [
        f"{huge}:1: error: the line is longer than 1 MiB (limits: line)"]


@pytest.mark.parametrize(("field", "reason"), [
    ("99999999999999999999", "offset is too large (more than 9007199254740992)"),
    ("1e3", "offset is not an integer (a sign and digits, as inex_eval reads it)"),
    ("1.5", "offset is not an integer (a sign and digits, as inex_eval reads it)"),
])
def test_fol_numbers_say_what_is_wrong(tmp_path, field, reason):
    """inex_eval 3.1 reads offsets and lengths with Java's Integer.parseInt (its jar: a sign
    and digits), so 1e3 and 1.5 are refused alike; a number of 20 digits is too large."""
    from builder.formats.inex.fol_run import read_fol_run

    path = write(tmp_path / "r.txt", "1 Q0 a 1 1.0 r 0 10\n"
                 f"1 Q0 b 2 0.5 r {field} 10\n1 Q0 c 3 0.2 r 5 {field}\n")
    table, findings = read_fol_run(path)
    assert table is None
    assert [f.format() for f in findings] == [
        f"{path}:2: error: {reason}",
        f"{path}:3: error: {reason.replace('offset', 'length')}"]


# Peak memory: each read in a process of its own, under an address-space limit.

MEMORY_LIMIT = 500 << 20
READ_UNDER_LIMIT = f"""
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({MEMORY_LIMIT}, {MEMORY_LIMIT}))
from builder.tasks.adhoc.reading import read_or_reject
read = read_or_reject(sys.argv[1], False)
peak = next(int(line.split()[1]) for line in open("/proc/self/status")
            if line.startswith("VmHWM:"))  # this program's, not its parent's before exec
print(json.dumps({{"findings": [f.format() for f in read.findings], "peak": peak << 10}}))
"""


def read_under_limit(path: Path) -> tuple[list[str], int]:
    """The findings of reading the run ``path``, and the peak resident memory in bytes."""
    done = subprocess.run([sys.executable, "-c", READ_UNDER_LIMIT, str(path)], check=False,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    result = json.loads(done.stdout)
    return result["findings"], result["peak"]


def gzip_members(path: Path, content: bytes, members: int) -> Path:
    """``members`` gzip members of ``content`` (a valid gzip file of ``members`` times it),
    compressed once and written streaming."""
    compressor = zlib.compressobj(1, zlib.DEFLATED, 31)
    member = compressor.compress(content) + compressor.flush()
    with path.open("wb") as stream:
        for _ in range(members):
            stream.write(member)
    return path


def test_a_gzip_expanding_to_2_gb_is_refused_in_bounded_memory(tmp_path):
    zeros = gzip_members(tmp_path / "zeros.gz", bytes(64 << 20), 32)  # 2 GiB of NUL bytes
    findings, peak = read_under_limit(zeros)
    assert findings == [f"{zeros}:1: error: the line is longer than 1 MiB (limits: line)"]
    assert peak < MEMORY_LIMIT
    lines = gzip_members(tmp_path / "lines.gz", LINE.format(tag="t").encode() * (4 << 20), 32)
    assert os.path.getsize(lines) < 16 << 20  # 2 GiB of run lines: more than the memory left
    findings, peak = read_under_limit(lines)
    assert findings == [(f"{lines}: error: cannot read: the file does not fit in the memory "
                         "available")]
    assert peak < MEMORY_LIMIT


def test_a_64_mb_line_is_refused_in_bounded_memory(tmp_path):
    run = tmp_path / "line.txt"
    with run.open("wb") as stream:
        stream.write(GOOD.encode())
        stream.write(b"x" * (64 << 20))
        stream.write(b"\n" + GOOD.encode())
    findings, peak = read_under_limit(run)
    assert findings == [f"{run}:4: error: the line is longer than 1 MiB (limits: line)"]
    assert peak < 200 << 20  # the file is neither read nor mapped


def test_a_sparse_10_gb_run_and_devices_are_findings(tmp_path):
    sparse = tmp_path / "sparse.txt"
    with sparse.open("wb") as stream:
        stream.truncate(10 << 30)
    findings, peak = read_under_limit(sparse)
    assert findings == [f"{sparse}:1: error: the line is longer than 1 MiB (limits: line)"]
    assert peak < MEMORY_LIMIT
    for device in ("/dev/zero", "/dev/urandom"):
        assert read_under_limit(Path(device))[0] == [
            f"{device}: error: cannot read: not a regular file"]
    pipe = tmp_path / "pipe.txt"
    os.mkfifo(pipe)
    assert read_under_limit(pipe)[0] == [f"{pipe}: error: cannot read: not a regular file"]



READING_COMMANDS = {
    "evaluate": ["evaluate", "{config}", "{qrels}", "{runs}"],
    "validate": ["validate", "{config}", "--qrels", "{qrels}", "{runs}"],
    "compare": ["compare", "{config}", "{qrels}", "{runs}"],
    "correlate": ["correlate", "{config}", "-m", "map", "-m", "P_5", "{qrels}", "{runs}"],
    "stability": ["stability", "{config}", "{qrels}", "{runs}"],
    "ties": ["ties", "{config}", "{qrels}", "{runs}"],
    "pool": ["pool", "{config}", "{runs}"],
    "convert": ["convert", "{config}", "--corpus", "{corpus}", "--to", "fol", "{element_run}"],
    "eprum": ["eprum", "{config}", "{navigation}"],
}
"""Every command that reads inputs besides those that build the site (build, serve, archive,
verify: the build applies the limits of the config it reads), given the site's config."""


@pytest.mark.parametrize("command", list(READING_COMMANDS))
def test_a_command_given_the_config_reads_under_its_limits(tmp_path, capsys, command):
    """Only the build applied the config's limits: the other commands refused (or accepted)
    what the site accepted (or refused). Given the config, they read under its limits."""
    write(tmp_path / "q.txt", QRELS)
    runs = [write(tmp_path / "runs" / f"{name}.txt", GOOD.replace("good", name))
            for name in ("good", "a" * 40, "other")]  # a run tag beyond the config's 32
    corpus = tmp_path / "corpus"
    write(corpus / "100.xml", "<article><body><p>Hello world</p></body></article>")
    element_run = write(tmp_path / "element.txt",  # a line beyond the config's 1 KiB
                        "1 Q0 100 1 3.5 t /article[1]/body[1]/p[1]" + " " * 1100 + "\n")
    navigation = write(tmp_path / "navigation.txt", "1 1 a 1\n# " + "x" * 1100 + "\n")
    config = write(tmp_path / "c.yml", LIMITED)

    def given(config_arguments: list[str]) -> list[str]:
        values = {"{config}": config_arguments, "{qrels}": [tmp_path / "q.txt"],
                  "{runs}": runs, "{corpus}": [corpus], "{element_run}": [element_run],
                  "{navigation}": [navigation]}
        return [str(a) for part in READING_COMMANDS[command] for a in values.get(part, [part])]

    _, out, err = cli(capsys, *given([]))
    assert "(limits: " not in out + err
    _, out, err = cli(capsys, *given(["--config", config]))
    beyond = f"{runs[1]}:1: error: the run tag is longer than 32 characters (limits: name)" \
        if "{runs}" in READING_COMMANDS[command] else "(limits: line)"
    assert beyond in out + err, out + err
    code, _, err = cli(capsys, *given(["--config", tmp_path / "none.yml"]))
    assert code == 2 and "config file not found" in err
