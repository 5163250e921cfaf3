"""Bad input to the commands that came after the first hostile-user pass (``convert``,
``eprum``, ``stability``, ``ties``, element runs with ``--corpus``): exit status 2, the file
and reason (and line where there is one), and no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from builder.cli import main
from builder.formats.xml.elements.resolve import ELEMENT_POINT

DATA = Path(__file__).resolve().parents[2] / "data"
ADHOC_QRELS = DATA / "adhoc" / "qrels.txt"
ADHOC_RUN = DATA / "adhoc" / "runs" / "irisQL.txt"
ELEMENT_RUN = "1 Q0 100 1 1.0 r /article/body/p[2]\n"


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "Traceback" not in out
    return code, out, err


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "100.xml").write_text("<article><body><p>Hello world</p><p>Two</p></body>"
                                    "</article>", encoding="utf-8")
    return folder


def convert(capsys, corpus: Path, run: Path, *more) -> tuple[int, str, str]:
    return cli(capsys, "convert", "--corpus", corpus, "--cache", corpus.parent / "cache",
               "--to", "fol", run, *more)


@pytest.mark.parametrize(("target", "reason"), [
    ("missing/out.txt", "cannot write: file not found"),
    ("corpus", "cannot write: is a folder, not a file"),
])
def test_convert_output_that_cannot_be_written(tmp_path, capsys, corpus, target, reason):
    run = tmp_path / "el.txt"
    run.write_text(ELEMENT_RUN)
    code, out, err = convert(capsys, corpus, run, "-o", tmp_path / target)
    assert code == 2 and out == ""
    assert err == f"appendix convert: {tmp_path / target}: error: {reason}\n"


@pytest.mark.parametrize(("content", "line", "reason"), [
    (b"1 Q0 100 1 1.0 r /article/body/p[\xe9]\n", 1, "not UTF-8: byte 33 (0xe9) is invalid"),
    (b"\x1f\x8b\x08", None, "cannot read: the gzip data is truncated"),
    (b"1 Q0 100 1 1.0 r /article\n1 Q0 100\n", 2, "expected 7 fields"),
    (b"<inex-submission><topic topic-id='1'>", 1, "not well-formed XML"),
])
def test_element_run_that_cannot_be_read(tmp_path, capsys, corpus, content, line, reason):
    run = tmp_path / "el.txt"
    run.write_bytes(content)
    where = f"{run}:{line}" if line else str(run)
    code, _, err = convert(capsys, corpus, run)
    assert code == 2 and f"{where}: error: {reason}" in err
    code, _, err = cli(capsys, "evaluate", "--task", "focused", "--corpus", corpus,
                       DATA / "inex" / "qrels.txt", run)
    assert code in (1, 2) and f"{where}: error: {reason}" in err


@pytest.mark.parametrize(("content", "message"), [
    ("", "{path}: error: no navigation rows"),
    ("# only a comment\n\n", "{path}: error: no navigation rows"),
    ("a b c\n", "{path}:1: error: expected 4 fields: topic rank element probability"),
    ("topic rank element probability\n1 1 a\n",
     "{path}:2: error: expected 4 fields: topic rank element probability"),
])
def test_eprum_navigation_without_usable_rows(tmp_path, capsys, content, message):
    path = tmp_path / "nav.txt"
    path.write_text(content)
    code, out, err = cli(capsys, "eprum", path)
    assert code == 2 and out == ""
    assert err == message.format(path=path) + "\n"


@pytest.mark.parametrize(("content", "reason"), [
    (b"\xff\xfe1\x00", ":1: error: the file is UTF-16 (byte order mark); save it as UTF-8"),
    (None, ": error: cannot read: file not found"),
])
def test_eprum_navigation_unreadable(tmp_path, capsys, content, reason):
    path = tmp_path / "nav.txt"
    if content is not None:
        path.write_bytes(content)
    code, _, err = cli(capsys, "eprum", path)
    assert code == 2 and err == f"{path}{reason}\n"


def test_stability_dump_folder_that_cannot_be_made(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    for dump, reason in [(blocker, "a file of that name exists"),
                         (blocker / "sub", "a part of the path is not a folder")]:
        code, out, err = cli(capsys, "stability", ADHOC_QRELS, ADHOC_RUN, "--iterations", "1",
                             "--dump", dump)
        assert code == 2 and out == ""
        assert err == f"appendix stability: {dump}: error: cannot create the folder: {reason}\n"


@pytest.mark.parametrize("command", ["stability", "ties"])
def test_stability_and_ties_name_the_unusable_qrels_and_run(tmp_path, capsys, command):
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    code, _, err = cli(capsys, command, empty, ADHOC_RUN)
    assert code == 2 and f"{empty}: error: no judgement" in err
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"1 Q0 d\xe9 1 1 r\n")
    code, _, err = cli(capsys, command, ADHOC_QRELS, bad)
    assert code == 2  # as evaluate: a run file that could not be read at all
    assert f"{bad}:1: error: not UTF-8: byte 6 (0xe9) is invalid" in err


def test_demo_into_a_folder_that_cannot_be_made(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, out, err = cli(capsys, "demo", blocker)
    assert code == 2 and out == ""
    assert err.startswith(f"appendix demo: {blocker}/") and "cannot write: a part of the path " \
        "is not a folder" in err


@pytest.mark.parametrize(("corpus", "kind", "problem"), [
    ("nocorpus", "focused", "tasks[0].options.corpus: not found: nocorpus"),
    ("corpus", "adhoc", "tasks[0].options.corpus: a adhoc task reads no XML corpus"),
])
def test_corpus_in_the_task_options_is_checked_like_the_task_corpus(tmp_path, capsys, corpus,
                                                                     kind, problem):
    (tmp_path / "corpus").mkdir()
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "r.txt").write_text(ELEMENT_RUN)
    config = tmp_path / "c.yml"
    config.write_text(f"campaign: {{title: T}}\ntasks:\n  - {{id: t, title: T, kind: {kind}, "
                      f"qrels: {DATA / 'inex' / 'qrels.txt'}, runs: runs/, "
                      f"options: {{corpus: {corpus}}}}}\n")
    code, _, err = cli(capsys, "build", "--config", config, "--quiet")
    assert code == 2
    assert err == f"appendix build: invalid config {config}: 1 problem(s)\n  {problem}\n"


@pytest.mark.parametrize("to", ["fol", "trec-element", "inex-xml"])
def test_element_results_that_resolve_to_nothing(tmp_path, capsys, corpus, to):
    run = tmp_path / "el.txt"
    run.write_text("1 Q0 100 1 1 r /article/body/p[99999999999999999999]\n"
                   "1 Q0 100 2 1 r /article/body/p[1]/text()[1].99999999999999999999\n"
                   "1 Q0 100 3 1 r /article/body/p[1]/text()[1].12\n"
                   "1 Q0 100 4 1 r article\n")
    code, _, err = convert(capsys, corpus, run, "--to", to)
    assert code == 1
    assert err.splitlines() == [
        (f"{run}:1: error: position out of range in file 100: /article[1]/body[1]/"
         "p[99999999999999999999]"),
        f"{run}:2: error: {ELEMENT_POINT}",
        f"{run}:3: error: {ELEMENT_POINT}",
        f"{run}:4: error: no such element in file 100: article[1]"]


@pytest.mark.parametrize("point", [("start='/article/body/p[1]/text()[1].99999999999999999999' "
                                   "end='/article/body/p[1]'"),
                                   "start='/article/body/p[1]' end='/article/body/p[1]/text().12'"])
def test_a_passage_point_beyond_its_node(tmp_path, capsys, corpus, point):
    run = tmp_path / "el.xml"
    run.write_text("<inex-submission><topic topic-id='1'>\n<result><file>100</file>"
                   f"<passage {point}/></result></topic></inex-submission>")
    code, _, err = convert(capsys, corpus, run)
    assert code == 1
    assert err == f"{run}:2: error: a character position (.N) beyond the end of its node\n"


def test_a_character_position_at_the_end_of_its_node_is_kept(tmp_path, capsys, corpus):
    run = tmp_path / "el.txt"
    run.write_text("<inex-submission><topic topic-id='1'><result><file>100</file><passage "
                   "start='/article[1]/body[1]/p[1]/text()[1].6' "
                   "end='/article[1]/body[1]/p[1]/text()[1].11'/></result></topic>"
                   "</inex-submission>")
    code, out, err = convert(capsys, corpus, run)
    assert (code, err) == (0, "") and out.split()[-2:] == ["6", "5"]  # "world"


@pytest.mark.parametrize(("offset", "length"), [
    ("99999999999999999999", "1"), ("-5", "3"), ("0", "0"), ("0", "-1"), ("x", "1")])
def test_inex_submission_fol_offsets_out_of_range(tmp_path, capsys, corpus, offset, length):
    run = tmp_path / "sub.xml"
    run.write_text("<inex-submission><topic topic-id='1'>\n<result><file>100</file>"
                   f"<fol offset='{offset}' length='{length}'/></result></topic>"
                   "</inex-submission>")
    code, _, err = convert(capsys, corpus, run)
    assert code == 2
    reason = ("<fol> offset and length are too large (more than 9007199254740992)"
              if len(offset) > 16 else
              "<fol> offset must be an integer of 0 or more and length a positive integer")
    assert err == f"{run}:2: error: {reason}\n"
