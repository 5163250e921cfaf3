"""Every finding carries a code of the closed vocabulary (``builder.findings.FindingCode``), and
programs decide by the code, never by the message's text: hostile files read by the real
readers and rules give the codes a program acts on, and an unreadable run makes a command
exit 2 because of its code, whatever its message says."""

from __future__ import annotations

import ast
import gzip
from itertools import pairwise
from pathlib import Path

import pytest

from builder.cli import main
from builder.cli.task_options import EXIT_REJECTED, EXIT_UNUSABLE, exit_status
from builder.contract import RunRead
from builder.findings import LISTED, Finding, FindingCode, InputError, listed, sort_findings
from tests.commands.test_bad_input import GOOD, QRELS, write

INEX_QRELS = "1 Q0 a1 100 1000 0 0:60 40:60\n1 Q0 a2 0 500\n"


def codes(findings: list[Finding]) -> set[str]:
    assert findings, "the hostile file gave no finding"
    assert all(isinstance(f.code, FindingCode) for f in findings), findings
    return {f.code for f in findings}


def raised(read, *args) -> list[Finding]:
    """The findings of the ``InputError`` that ``read(*args)`` raises."""
    with pytest.raises(InputError) as error:
        read(*args)
    return error.value.findings


# Ad hoc runs, read and validated by their task kind: file name -> (content, codes). Each run
# has a tag of its own, so that no two share a run name.
ADHOC_RUNS: dict[str, tuple[str | bytes, set[str]]] = {
    "latin1.txt": (b"1 Q0 d\xe9 1 1 t\n", {"unreadable"}),
    "utf16.txt": ("1 Q0 d1 1 1 t\n".encode("utf-16"), {"unreadable"}),
    "truncated.gz": (gzip.compress(GOOD.encode())[:-6], {"unreadable"}),
    "garbage.gz": (gzip.compress(GOOD.encode()) + b"junk", {"unreadable"}),
    "empty.txt": ("", {"empty"}),
    "short.txt": (GOOD.replace("good", "short") + "1 Q0 d9 4\n", {"syntax"}),
    "score.txt": (GOOD.replace("good", "score") + "1 Q0 d9 4 high score\n", {"value"}),
    "twice.txt": ("1 Q0 d1 1 2 w\n1 Q0 d1 2 1 w\n2 Q0 d1 1 1 w\n", {"duplicate"}),
    "topics.txt": ("1 Q0 d1 1 2 p\n3 Q0 d1 1 1 p\n", {"unknown-topic", "missing-topic"}),
    "tags.txt": ("1 Q0 d1 1 2 a\n2 Q0 d1 1 1 b\n", {"naming"}),
}


def test_each_hostile_adhoc_run_gives_its_code(tmp_path):
    from builder.tasks import get_kind

    kind = get_kind("adhoc")
    qrels = kind.read_qrels(write(tmp_path / "q.txt", QRELS))
    paths = [write(tmp_path / name, data) for name, (data, _) in ADHOC_RUNS.items()]
    reads = kind.read_runs(paths, qrels, kind.options_model())
    assert len(reads) == len(ADHOC_RUNS)
    for read in reads:
        assert codes(read.findings) == ADHOC_RUNS[Path(read.path).name][1], read.findings
    deep = kind.read_runs([write(tmp_path / "deep.txt", GOOD)], qrels,
                          kind.options_model(depth=1))
    assert codes(deep[0].findings) == {"limit"}


def test_an_unreadable_run_exits_2_by_its_code(tmp_path, capsys):
    qrels = write(tmp_path / "q.txt", QRELS)
    good = write(tmp_path / "good.txt", GOOD)
    bad = write(tmp_path / "bad.gz", gzip.compress(GOOD.encode())[:-6])
    assert main(["validate", str(good), str(bad), "--qrels", str(qrels)]) == EXIT_UNUSABLE
    assert f"{bad}: error: cannot read: the gzip data is truncated" in capsys.readouterr().out


def test_the_exit_status_reads_the_code_not_the_message():
    """A message reworded (or one that happens to begin like another) changes nothing."""
    reworded = Finding("r", None, "error", FindingCode.UNREADABLE, "the disk ate this file")
    looks_unreadable = Finding("r", 3, "error", FindingCode.SYNTAX, "cannot read: 4 fields")
    assert exit_status([RunRead("r", "r", None, [reworded])]) == EXIT_UNUSABLE
    assert exit_status([RunRead("r", "r", None, [looks_unreadable])]) == EXIT_REJECTED
    assert exit_status([RunRead("r", "r", None, [])]) == EXIT_REJECTED


def test_hostile_qrels_topics_and_metadata_give_their_codes(tmp_path):
    from builder.formats.run_metadata import read_run_metadata
    from builder.formats.topic_file import read_topic_file
    from builder.formats.trec.qrels import read_trec_qrels

    def qrels(text: str) -> set[str]:
        return codes(raised(read_trec_qrels, write(tmp_path / "q.txt", text)))

    assert qrels("1 0 d1 1\n1 0 d1 0\n") == {"duplicate"}
    assert qrels("1 0 d1 x\n") == {"value"}
    assert qrels("1 0 d1\n") == {"syntax"}
    assert qrels("# nothing\n") == {"empty"}
    assert codes(raised(read_trec_qrels, tmp_path / "absent.txt")) == {"unreadable"}
    lenient = read_trec_qrels(write(tmp_path / "q.txt", "1 0 d1 x\n\n1 0 d2 1\n"), atof=True)
    assert codes(lenient.attrs["findings"]) == {"value", "syntax"}

    def topics(text: str) -> set[str]:
        return codes(read_topic_file(write(tmp_path / "t.txt", text))[1])

    assert topics("<top>\n<num> Number: 1\n<title> a\n") == {"syntax"}
    assert topics("<top>\n<num> 1\n</top>\n<top>\n<num> 1\n</top>\n") == {"duplicate"}
    assert topics("\n") == {"empty"}

    def metadata(name: str, text: str) -> set[str]:
        return codes(read_run_metadata(write(tmp_path / name, text))[1])

    assert metadata("m.csv", "run,type\na,psychic\n") == {"value"}
    assert metadata("m.csv", "run,team\na,x\na,y\n") == {"duplicate"}
    assert metadata("m.csv", "team\nx\n") == {"syntax"}
    assert metadata("m.yml", "a: [1\n") == {"syntax"}


def test_hostile_fol_runs_and_inex_qrels_give_their_codes(tmp_path):
    import pandas as pd

    from builder.formats.inex.fol_run import read_fol_run
    from builder.formats.inex.qrels import read_inex_qrels
    from builder.validate.fol_run import validate_fol_run
    from builder.validate.in_context import validate_in_context

    def fol(text: str, **rules) -> set[str]:
        table, findings = read_fol_run(write(tmp_path / "run.txt", text))
        if table is not None:
            findings += validate_fol_run(table, "run.txt", ["1"], **rules)[1]
        return codes(findings)

    line = "1 Q0 a1 {rank} {score} t {offset} {length}\n"
    assert fol(line.format(rank=1, score=2, offset=0, length=10) + "1 Q0 a1 2 1 t\n") \
        == {"syntax"}
    assert fol(line.format(rank=1, score=2, offset="zero", length=10)) == {"value"}
    assert fol(line.format(rank=1, score=2, offset=-5, length=10)) == {"value"}
    assert fol(line.format(rank=1, score=2, offset=0, length=10)
               + line.format(rank=2, score=1, offset=5, length=10)) == {"overlap"}
    assert fol(line.format(rank=2, score=1, offset=0, length=10)
               + line.format(rank=1, score=2, offset=20, length=10)) == {"order"}
    assert fol(line.format(rank=1, score=2, offset=0, length=10).replace("1 Q0", "9 Q0")) \
        == {"unknown-topic"}
    assert fol(line.format(rank=1, score=2, offset=0, length=10)
               + line.format(rank=2, score=1, offset=20, length=10), max_results=1) == {"limit"}
    assert fol(line.format(rank=1, score=2, offset=900, length=200),
               doc_chars=pd.Series({"a1": 1000})) == {"outside"}
    assert fol("") == {"empty"}

    def in_context(text: str, best: bool) -> set[str]:
        table, _ = read_fol_run(write(tmp_path / "run.txt", text))
        return codes(validate_in_context(table, "run.txt", ["1"], best=best))

    assert in_context("1 Q0 a1 1 3 t 0 5\n1 Q0 a2 2 2 t 10 5\n1 Q0 a1 3 1 t 20 5\n",
                      best=False) == {"order"}
    assert in_context("1 Q0 a1 1 3 t 0 0\n1 Q0 a1 2 2 t 10 0\n", best=True) == {"duplicate"}

    qrels = read_inex_qrels(write(tmp_path / "q.txt", INEX_QRELS))
    assert codes(qrels.findings) == {"overlap", "inconsistent"}
    assert codes(raised(read_inex_qrels, write(tmp_path / "q.txt", "1 Q0 a1 1\n"))) == {"syntax"}
    assert codes(raised(read_inex_qrels, write(tmp_path / "q.txt", INEX_QRELS * 2))) \
        == {"duplicate"}


def test_hostile_element_runs_and_navigation_give_their_codes(tmp_path):
    from builder.formats.eprum.navigation import NavigationError, read_navigation
    from builder.formats.inex.passage_run import PassageRunReader
    from builder.formats.xml.corpus_index import open_index

    def elements(text: str, reader: PassageRunReader) -> set[str]:
        return codes(reader.read(write(tmp_path / "run.txt", text))[1])

    run = "1 Q0 100 1 3.5 t /article[1]/body[1]/p[{p}]\n"
    assert elements(run.format(p=1), PassageRunReader(None)) == {"corpus"}
    assert elements(run.format(p=1), PassageRunReader(tmp_path / "nowhere")) == {"corpus"}
    corpus = tmp_path / "corpus"
    write(corpus / "100.xml", "<article><body><p>Hello</p></body></article>")
    reader = PassageRunReader(corpus, index=open_index(corpus, cache_dir=tmp_path / "cache",
                                                       workers=1, progress=None))
    assert elements(run.format(p=5) + run.replace("100", "999").format(p=1), reader) \
        == {"unresolved"}
    assert elements(run.format(p=1).rsplit(" ", 1)[0] + "\n", reader) == {"syntax"}
    assert elements("<inex-submission><topic/></inex-submission>", reader) == {"syntax"}
    assert elements("<inex-submission></inex-submission>", reader) == {"empty"}

    def navigation(text: str) -> set[str]:
        with pytest.raises(NavigationError) as error:
            read_navigation(write(tmp_path / "navigation.txt", text))
        return codes(error.value.findings)

    assert navigation("1 1 a\n") == {"syntax"}
    assert navigation("1 1 a 2\n1 first a 1\n") == {"value"}
    assert navigation("1 1 a 1\n1 1 a 1\n") == {"duplicate"}
    assert navigation("# only a comment\n") == {"empty"}
    assert navigation("1 1 a \xe9\n".encode("latin-1")) == {"unreadable"}


def test_a_config_and_its_run_folder_give_their_codes(tmp_path):
    from builder.config.loading import ConfigError
    from builder.pipeline.stages import load_config

    write(tmp_path / "q.txt", QRELS)
    write(tmp_path / "runs" / "good.txt", GOOD)
    (tmp_path / "runs" / "older").mkdir()
    (tmp_path / "runs" / "gone.txt").symlink_to(tmp_path / "nowhere")
    config = write(tmp_path / "c.yml", "campaign: {title: T}\ntasks:\n"
                   "  - {id: t, title: T, kind: adhoc, qrels: q.txt, runs: runs/}\n")
    spec = load_config(config)
    assert codes(list(spec.tasks[0].findings)) == {"folder"}
    write(config, "campaign: {title: T}\ntasks: [{id: t, kind: nothing}]\n")
    with pytest.raises(ConfigError) as error:
        load_config(config)
    assert codes(error.value.findings) == {"config"}


def test_a_finding_takes_only_a_code_of_the_vocabulary():
    with pytest.raises(ValueError):
        Finding("f", 1, "error", "a message", FindingCode.SYNTAX)  # type: ignore[arg-type]
    assert Finding("f", 1, "error", FindingCode.VALUE, "m").format() == "f:1: error: m"


def test_sorting_ignores_the_code():
    """The order of findings (and so of every output listing them) is file, line, severity,
    message, as before codes existed."""
    one = Finding("f", 1, "error", FindingCode.VALUE, "b")
    two = Finding("f", 1, "error", FindingCode.DUPLICATE, "a")
    assert sort_findings([one, two]) == [two, one]


def test_every_code_is_declared_with_its_meaning():
    """Each member of the vocabulary is followed by a one-line (or longer) docstring."""
    source = (Path(__file__).resolve().parents[1] / "builder" / "findings.py").read_text()
    body = next(node for node in ast.parse(source).body
                if isinstance(node, ast.ClassDef) and node.name == "FindingCode").body
    meanings = {}
    for member, after in pairwise(body):
        if isinstance(member, ast.Assign) and isinstance(after, ast.Expr) \
                and isinstance(after.value, ast.Constant):
            meanings[member.targets[0].id] = after.value.value  # type: ignore[attr-defined]
    assert set(meanings) == {code.name for code in FindingCode}
    assert all(meaning.strip() for meaning in meanings.values())


def test_listed_lines_are_the_first_ones_then_one_finding_counts_the_rest():
    asked = []

    def message(i: int) -> str:
        asked.append(i)
        return f"bad value {i}"

    found = listed("f", list(range(10, 10 + LISTED + 5)), "warning", FindingCode.VALUE, message)
    assert [f.line for f in found] == [*range(10, 10 + LISTED), None]
    assert asked[:LISTED] == list(range(LISTED))  # only the listed lines' messages are made
    assert found[-1].message == "bad value 0: 5 more lines" and found[-1].count == 5
    assert {f.severity for f in found} == {"warning"}
    one_more = listed("f", list(range(LISTED + 1)), "error", FindingCode.SYNTAX, "short line",
                      lambda n: f"{n} more short")
    assert (one_more[-1].message, one_more[-1].count) == ("1 more short", 1)
    assert len(listed("f", list(range(LISTED)), "error", FindingCode.SYNTAX, "x")) == LISTED


def test_readers_and_rules_that_listed_only_the_first_lines_count_the_rest(tmp_path):
    """The element run's field count, the navigation table's rows and a FOL run's topics that
    start again were cut at the first lines: the others are now counted, so that the errors
    of a rejected file number what is wrong with it."""
    from builder.formats.eprum.navigation import NavigationError, read_navigation
    from builder.formats.inex.fol_run import read_fol_run
    from builder.formats.xml.elements.run import read_trec_element_run
    from builder.validate.fol_run import validate_fol_run

    def tail(findings: list[Finding]) -> tuple[int, str, int]:
        assert findings[-1].line is None, findings[-1]
        return len(findings), findings[-1].message, findings[-1].count

    _, short = read_trec_element_run("1 Q0 100 1 3.5 t\n" * (LISTED + 3), "r", "r.txt")
    assert tail(short) == (
        LISTED + 1, "expected 7 fields (topic Q0 file rank rsv run_id path): 3 more lines", 3)
    with pytest.raises(NavigationError) as error:
        read_navigation(write(tmp_path / "n.txt", "".join(
            f"1 1 a{i} 2\n" for i in range(LISTED + 2)) + "1 1\n"))
    assert [f.line for f in error.value.findings] == [*range(1, LISTED + 1), LISTED + 3, None]
    assert tail(error.value.findings)[1:] == (
        "probability is not a number in [0, 1]: 2 more lines", 2)
    topics = LISTED + 4
    run = "".join(f"{t} Q0 a {rank} {1 / rank} r {10 * rank} 5\n"
                  for rank in (1, 2) for t in range(topics))
    table, _ = read_fol_run(write(tmp_path / "fol.txt", run), name="r")
    _, found = validate_fol_run(table, "fol.txt", [str(t) for t in range(topics)])
    again = [f for f in found if f.code == FindingCode.ORDER]
    assert [f.line for f in again[:2]] == [topics + 1, topics + 2]
    assert tail(again) == (LISTED + 1, "4 more topics start again after other topics", 4)
