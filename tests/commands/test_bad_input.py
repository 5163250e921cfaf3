"""Bad input through the real command line: each case gives its exit status, a message naming
file, line and reason, and no traceback; ``build`` publishes the good runs and shows the bad
one rejected with its reason."""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from builder.cli import main

QRELS = "1 0 d1 1\n1 0 d2 0\n2 0 d1 1\n"
GOOD = "1 Q0 d1 1 2.0 good\n1 Q0 d2 2 1.0 good\n2 Q0 d1 1 1.0 good\n"
INEX_QRELS = Path(__file__).resolve().parents[2] / "data" / "inex" / "qrels.txt"
CONFIG = """campaign: {title: T}
tasks:
  - {id: t, title: T, kind: KIND, qrels: QRELS, runs: runs/}
"""


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "Traceback" not in out
    return code, out, err


def write(path: Path, content: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return path


def campaign(tmp_path: Path, runs: dict[str, str | bytes], kind: str = "adhoc",
             qrels: str | Path = QRELS) -> Path:
    """A one-task campaign with a good run and ``runs``; the config's path."""
    if isinstance(qrels, Path):
        qrels_name = str(qrels)
    else:
        write(tmp_path / "q.txt", qrels)
        qrels_name = "q.txt"
    if kind == "adhoc":
        write(tmp_path / "runs" / "good.txt", GOOD)
    for name, content in runs.items():
        write(tmp_path / "runs" / name, content)
    config = CONFIG.replace("KIND", kind).replace("QRELS", qrels_name)
    return write(tmp_path / "c.yml", config)


def build(capsys, config: Path) -> tuple[int, str, str, str]:
    code, out, err = cli(capsys, "build", "--config", config, "--quiet")
    home = config.parent / "site" / "index.html"
    return code, out, err, home.read_text() if home.exists() else ""


def rejected_reasons(home: str) -> dict[str, str]:
    """Run name -> reason of the home page's table of rejected runs."""
    table = home.split("rejected runs", 1)[1].split("</table>", 1)[0]
    rows = re.findall(r'<th[^>]*><a [^>]*>([^<]*)</a></th><td>([^<]*)</td>', table)
    return dict(rows)


def leaderboard_runs(home: str) -> list[str]:
    table = home.split("runs ranked by", 1)[1].split("</table>", 1)[0]
    return re.findall(r'<th[^>]*><a href="[^"]*runs/[^"]*">([^<]*)</a>', table)


# 1. One unreadable run: rejected alone, with file, line and reason.

UNREADABLE = {
    "latin1.txt": (b"1 Q0 d1 1 1 latin\n1 Q0 d\xe9 2 1 latin\n",
                   "line 2: not UTF-8: byte 24 (0xe9) is invalid"),
    "truncated.gz": (gzip.compress(GOOD.encode())[:-6], "the gzip data is truncated"),
    "garbage.gz": (gzip.compress(GOOD.encode()) + b"junk",
                   "4 bytes that are not gzip data follow the gzip data"),
}


def test_build_rejects_each_unreadable_run_and_publishes_the_good_one(tmp_path, capsys):
    config = campaign(tmp_path, {name: data for name, (data, _) in UNREADABLE.items()})
    code, _, _, home = build(capsys, config)
    assert code == 0
    assert leaderboard_runs(home) == ["good"]
    reasons = rejected_reasons(home)
    for name, (_, reason) in UNREADABLE.items():
        # named by its file (no tag was read), less its .txt or .gz: latin1, truncated ...
        assert reason in reasons[name.split(".")[0]], (name, reasons)


@pytest.mark.parametrize("name", sorted(UNREADABLE))
@pytest.mark.parametrize("command", ["evaluate", "validate", "compare"])
def test_commands_name_the_unreadable_run(tmp_path, capsys, name, command):
    qrels = write(tmp_path / "q.txt", QRELS)
    good = write(tmp_path / "good.txt", GOOD)
    bad = write(tmp_path / name, UNREADABLE[name][0])
    args = {"evaluate": [qrels, good, bad], "compare": [qrels, good, bad],
            "validate": [good, bad, "--qrels", qrels]}[command]
    code, out, err = cli(capsys, command, *args)
    assert code == 2
    reason = UNREADABLE[name][1]
    where = f"{bad}:2: error: " if reason.startswith("line 2") else f"{bad}: error: cannot read: "
    assert where + reason.removeprefix("line 2: ") in out + err
    if command == "evaluate":
        assert "runid                 \tall\tgood" in out  # the good run is still evaluated


def test_permission_denied_run(tmp_path, capsys):
    qrels = write(tmp_path / "q.txt", QRELS)
    bad = write(tmp_path / "locked.txt", GOOD)
    bad.chmod(0)
    if os.geteuid() == 0:
        # Root reads any file: the command runs without the capabilities that let it
        # (setpriv, util-linux), so the mode is obeyed as for any user.
        done = subprocess.run(
            ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", sys.executable,
             "-c", "import sys; from builder.cli import main; sys.exit(main())",
             "evaluate", str(qrels), str(bad)],
            capture_output=True, text=True, check=False)
        code, err = done.returncode, done.stderr
        assert "Traceback" not in err
    else:
        code, _, err = cli(capsys, "evaluate", qrels, bad)
    assert code == 2
    assert f"{bad}: error: cannot read: permission denied" in err


# 2. Missing file, folder, symbolic link loop on the command line.

def _broken_paths(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    return {"missing": (tmp_path / "nope.txt", "file not found"),
            "folder": (tmp_path, "is a folder, not a file"),
            "loop": (loop, "symbolic link loop")}


@pytest.mark.parametrize("case", ["missing", "folder", "loop"])
@pytest.mark.parametrize("command", ["evaluate", "validate", "compare"])
def test_unusable_paths_for_runs_and_qrels(tmp_path, capsys, case, command):
    """TREC runs and qrels; FOL runs and INEX qrels below."""
    path, reason = _broken_paths(tmp_path)[case]
    qrels = write(tmp_path / "q.txt", QRELS)
    good = write(tmp_path / "good.txt", GOOD)
    for argv in ({"evaluate": [qrels, good, path], "compare": [qrels, good, path],
                  "validate": [good, path, "--qrels", qrels]}[command],
                 {"evaluate": [path, good], "compare": [path, good, good],
                  "validate": [good, "--qrels", path]}[command]):
        code, out, err = cli(capsys, command, *argv)
        assert code == 2
        assert f"{path}: error: cannot read: {reason}" in out + err


@pytest.mark.parametrize("case", ["missing", "folder", "loop"])
def test_unusable_paths_for_fol_runs_and_inex_qrels(tmp_path, capsys, case):
    path, reason = _broken_paths(tmp_path)[case]
    good = write(tmp_path / "good.txt", "2024001 Q0 43926 1 10 foc 279 245\n")
    for argv in ([INEX_QRELS, good, path], [path, good]):
        code, out, err = cli(capsys, "evaluate", "--task", "focused", *argv)
        assert code == 2
        assert f"{path}: error: cannot read: {reason}" in out + err


# 3. Empty and comments-only qrels.

@pytest.mark.parametrize("content", ["", "# judged later\n\n"])
@pytest.mark.parametrize("command", ["evaluate", "validate", "compare", "build"])
def test_qrels_without_judgements(tmp_path, capsys, content, command):
    qrels = write(tmp_path / "q.txt", content)
    run = write(tmp_path / "run.txt", GOOD)
    argv = {"evaluate": [qrels, run], "compare": [qrels, run, run],
            "validate": [run, "--qrels", qrels],
            "build": ["--config", campaign(tmp_path, {}, qrels=content)]}[command]
    code, _, err = cli(capsys, command, *argv)
    assert code == 2
    assert "q.txt: error: no judgement: the qrels file has no judgement line" in err
    assert not (tmp_path / "site").exists()


def test_empty_inex_qrels(tmp_path, capsys):
    qrels = write(tmp_path / "q.txt", "\n")
    run = write(tmp_path / "run.txt", "2024001 Q0 43926 1 10 foc 279 245\n")
    code, _, err = cli(capsys, "evaluate", "--task", "focused", qrels, run)
    assert code == 2
    assert f"{qrels}: error: no judgement" in err


# 4. One rule for non-finite scores, whatever the spelling and the spacing.

@pytest.mark.parametrize("score", ["nan", "NaN", "-nan", "+nan", "nan(1)", "inf", "-Infinity"])
@pytest.mark.parametrize("spacing", ["{} Q0 {} 1 {} {}\n", "{} Q0 {} 1 {} {}\r\n",
                                     "{}  Q0 {} 1  {} {}\n", "{}\tQ0\t{}\t1\t{}\t{}\n"])
def test_non_finite_scores_are_rejected_alike(tmp_path, capsys, score, spacing):
    run = write(tmp_path / "run.txt", GOOD.replace("\n", "\r\n") if "\r" in spacing else GOOD)
    with run.open("a", newline="") as stream:
        stream.write(spacing.format(2, "d2", score, "good"))
    qrels = write(tmp_path / "q.txt", QRELS)
    code, out, _ = cli(capsys, "validate", run, "--qrels", qrels)
    assert code == 1
    assert f"{run}:4: error: score {score} is not a finite number" in out.splitlines()


# 5. FOL offsets and lengths.

def test_negative_fol_offset_is_an_error_with_its_line(tmp_path, capsys):
    run = write(tmp_path / "run.txt", "2024001 Q0 43926 1 10 foc 279 245\n"
                                      "2024001 Q0 43926 2 9 foc -2 526\n")
    code, out, _ = cli(capsys, "validate", "--task", "focused", run, "--qrels", INEX_QRELS)
    assert code == 1
    assert (f"{run}:2: error: negative offset -2: offsets count characters from 0 (-1 or X "
            "marks an unknown passage)") in out


def test_fol_length_not_positive_and_passage_beyond_the_article(tmp_path, capsys):
    run = write(tmp_path / "run.txt", "2024001 Q0 43926 1 10 foc 279 0\n"
                                      "2024001 Q0 29284 2 9 foc 1700 100\n")
    code, out, _ = cli(capsys, "validate", "--task", "focused", run, "--qrels", INEX_QRELS)
    assert code == 1
    assert f"{run}:1: error: passage length 0 is not positive" in out
    assert (f"{run}:2: warning: passage ends at character 1800, beyond the end of article "
            "29284 (1731 characters in the qrels)") in out


# 6. INEX qrels findings in the command output and on the site.

ODD_INEX_QRELS = ("1 Q0 a 30 100 0 0:20 10:10\n"  # overlapping passages
                  "1 Q0 b 5 50 0 0:9\n"  # rel_chars disagree
                  "1 Q0 c 20 50 0 40:20\n"  # beyond doc_chars
                  "1 Q0 d 5 50 0 -3:5\n")  # negative offset
FOL_RUN = "1 Q0 a 1 1 r 0 20\n1 Q0 b 2 1 r 0 9\n"


@pytest.mark.parametrize("command", ["evaluate", "validate"])
def test_inex_qrels_findings_are_printed(tmp_path, capsys, command):
    qrels = write(tmp_path / "q.txt", ODD_INEX_QRELS)
    run = write(tmp_path / "run.txt", FOL_RUN)
    argv = [qrels, run] if command == "evaluate" else [run, "--qrels", qrels]
    code, out, err = cli(capsys, command, "--task", "focused", *argv)
    assert code == 0
    shown = out + err
    assert f"{qrels}: warning: 1 highlighted passages overlap an earlier one" in shown
    assert f"{qrels}: warning: 1 relevant articles have rel_chars different" in shown
    assert f"{qrels}:3: warning: 1 highlighted passages end beyond their article's doc_chars" in shown
    assert f"{qrels}:4: warning: 1 highlighted passages start before their article" in shown


def test_inex_qrels_findings_are_on_the_site(tmp_path, capsys):
    config = campaign(tmp_path, {"r.txt": FOL_RUN}, kind="focused", qrels=ODD_INEX_QRELS)
    code, _, _, home = build(capsys, config)
    assert code == 0
    assert "findings in the inputs" in home
    section = home.split("Findings in the inputs", 1)[1]
    assert "q.txt" in section and "highlighted passages overlap an earlier one" in section
    assert "end beyond their article" in section


# 7. The right reason, with file and line.

def test_reasons_with_file_and_line(tmp_path, capsys):
    qrels = write(tmp_path / "q.txt", "1 Q0 a 5 50 0 279:99999999999999999999999\n")
    run = write(tmp_path / "run.txt", FOL_RUN.replace("1 Q0", "2 Q0"))
    code, _, err = cli(capsys, "evaluate", "--task", "focused", qrels, run)
    assert code == 2
    assert (f"{qrels}:1: error: passage length (off:len) 99999999999999999999999 is too large"
            in err)
    for content, line, reason in [
        (b"1 0 d1 1\n1 0 d2 1\n1 0 d\xff 1\n", 3, "not UTF-8: byte 23 (0xff) is invalid"),
        (b"1 0 d1 1\n1 0 d2 1\n1 0 d3 99999999999999999999\n", 3,
         "relevance has more than 18 digits"),
    ]:
        qrels = write(tmp_path / "tq.txt", content)
        code, _, err = cli(capsys, "evaluate", qrels, run)
        assert code == 2
        assert f"{qrels}:{line}: error: {reason}" in err


def test_config_measures_must_be_a_list(tmp_path, capsys):
    config = campaign(tmp_path, {})
    config.write_text(config.read_text().replace("runs: runs/}", "runs: runs/, measures: map}"))
    code, _, err, _ = build(capsys, config)
    assert code == 2
    assert "tasks[0].measures: Input should be a valid list" in err
    assert "unknown adhoc measure 'm'" not in err


# 8. Empty FOL runs, and runs judged on no topic.

def test_empty_fol_run_is_an_error_like_an_empty_trec_run(tmp_path, capsys):
    fol = write(tmp_path / "fol.txt", "\n")
    trec = write(tmp_path / "trec.txt", "")
    code, out, _ = cli(capsys, "validate", "--task", "focused", fol, "--qrels", INEX_QRELS)
    assert code == 1
    assert f"{fol}: error: empty run: no result lines" in out
    qrels = write(tmp_path / "q.txt", QRELS)
    code, out, _ = cli(capsys, "validate", trec, "--qrels", qrels)
    assert code == 1
    assert f"{trec}: error: empty run: no result lines" in out
    for task in ("focused", "thorough", "best-in-context"):
        code, out, _ = cli(capsys, "evaluate", "--task", task, INEX_QRELS, fol)
        assert code == 1 and out == ""


@pytest.mark.parametrize("task", ["focused", "thorough", "relevant-in-context",
                                  "best-in-context", "restricted-relevant-in-context"])
def test_run_whose_topics_are_all_unjudged(tmp_path, capsys, task):
    run = write(tmp_path / "run.txt", "9999 Q0 43926 1 10 unjudged 279 245\n")
    for complete in ([], ["-c"]):
        code, out, err = cli(capsys, "evaluate", "--task", task, *complete, INEX_QRELS, run)
        assert code == 0
        assert "topics not in the qrels" in err
        assert "runid                 \tall\tunjudged" in out


def test_adhoc_run_whose_topics_are_all_unjudged(tmp_path, capsys):
    qrels = write(tmp_path / "q.txt", QRELS)
    run = write(tmp_path / "run.txt", "9 Q0 d1 1 1 other\n")
    code, out, _ = cli(capsys, "evaluate", qrels, run)
    assert code == 0
    assert "map                   \tall\t0.0000" in out


# 9. Config and metadata files.

@pytest.mark.parametrize("encoding, reason", [
    ("latin-1", "line 1: not UTF-8: byte 19 (0xe9) is invalid"),
    ("utf-16", "line 1: the file is UTF-16 (byte order mark); save it as UTF-8"),
])
def test_config_not_utf8(tmp_path, capsys, encoding, reason):
    config = campaign(tmp_path, {})
    config.write_bytes(config.read_text().replace("{title: T}", "{title: Tés}").encode(encoding))
    code, _, err, _ = build(capsys, config)
    assert code == 2
    assert f"invalid config {config}: 1 problem(s)\n  {reason}" in err


def test_duplicate_keys_in_config(tmp_path, capsys):
    config = campaign(tmp_path, {})
    config.write_text(config.read_text() + "output: a\noutput: b\n")
    code, _, err, _ = build(capsys, config)
    assert code == 2
    assert "line 5: not valid YAML: key 'output' is given twice (first on line 4)" in err


def test_metadata_csv_with_a_huge_cell(tmp_path, capsys):
    config = campaign(tmp_path, {})
    write(tmp_path / "meta.csv", "run,team,description\ngood,A," + "x" * 200_000 + "\n")
    config.write_text(config.read_text().replace("runs: runs/}", "runs: runs/, "
                                                 "run_metadata: meta.csv}"))
    code, _, _, home = build(capsys, config)
    assert code == 0
    assert leaderboard_runs(home) == ["good"]


BILLION_LAUGHS = """a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
good: {team: *i}
"""


def test_metadata_yaml_alias_bomb_and_duplicate_keys(tmp_path, capsys):
    config = campaign(tmp_path, {})
    config.write_text(config.read_text().replace("runs: runs/}", "runs: runs/, "
                                                 "run_metadata: meta.yml}"))
    meta = write(tmp_path / "meta.yml", BILLION_LAUGHS)
    code, _, err, _ = build(capsys, config)
    assert code == 2
    assert f"{meta}:2: error: not valid YAML: alias *a is not accepted" in err
    write(tmp_path / "meta.yml", "good: {team: A}\ngood: {team: B}\n")
    code, _, err, _ = build(capsys, config)
    assert code == 2
    assert f"{meta}:2: error: not valid YAML: key 'good' is given twice (first on line 1)" in err


# 16. What a run folder holds besides run files.

def test_run_folder_links_loops_and_subfolders(tmp_path, capsys):
    config = campaign(tmp_path, {"sub/inner.txt": GOOD})
    runs = tmp_path / "runs"
    (runs / "dangling.txt").symlink_to(tmp_path / "gone.txt")
    (runs / "loop.txt").symlink_to(runs / "loop.txt")
    code, _out, err = cli(capsys, "build", "--config", config)
    assert code == 0
    for name, reason in [("dangling.txt", "broken symbolic link: not read as a run"),
                         ("loop.txt", "symbolic link loop: not read as a run"),
                         ("sub", "a subfolder of the run folder: not searched for runs")]:
        assert f"{runs / name}: warning: {reason}" in err
    home = (tmp_path / "site" / "index.html").read_text()
    section = home.split("Findings in the inputs", 1)[1]
    for name in ("runs/dangling.txt", "runs/loop.txt", "runs/sub"):
        assert name in section
    assert str(tmp_path) not in home


# 17. Run names are text in figures.

def test_markup_in_run_names_is_text_in_figures(tmp_path, capsys):
    config = campaign(tmp_path, {"bold.txt": GOOD.replace("good", "<b>bold</b>")})
    code, _, _, home = build(capsys, config)
    assert code == 0
    figure = re.search(r'<script type="application/json"[^>]*>(.*?)</script>', home, re.DOTALL)
    data = json.loads(figure.group(1))["data"][0]
    assert sorted(data["x"]) == ["&lt;b&gt;bold&lt;/b&gt;", "good"]


# No traceback on the real stderr either.

def test_real_process_prints_no_traceback(tmp_path):
    qrels = write(tmp_path / "q.txt", "1 0 d\xe9 1\n".encode("latin-1"))
    run = write(tmp_path / "run.txt", GOOD)
    result = subprocess.run([sys.executable, "-m", "builder", "evaluate", str(qrels),
                             str(run)], capture_output=True, text=True, check=False)
    assert result.returncode == 2
    assert result.stderr == (f"appendix evaluate: {qrels}:1: error: not UTF-8: byte 5 (0xe9) is "
                             "invalid; input files must be UTF-8\n")
