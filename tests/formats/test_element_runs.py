"""Element runs (TREC-like and INEX XML submissions) resolved over an XML corpus: XPath forms,
passages between element points, FOL results, and every unresolvable case as a finding."""

from __future__ import annotations

from pathlib import Path

import pytest

from builder.cli import main
from builder.formats.xml.article import parse_article
from builder.formats.xml.corpus_index import open_index
from builder.formats.xml.elements.resolve import resolve_element_run
from builder.formats.xml.elements.run import read_element_run

ARTICLE = ('<article><name>Grüße &amp; más</name><body><section><title>One</title>'
           '<p>First para.</p><p>Second <b>bold</b> para.</p></section>'
           '<section><p>Zweite Sektion</p></section></body></article>')


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> tuple[Path, object, str]:
    root = tmp_path_factory.mktemp("xml")
    (root / "corpus").mkdir()
    (root / "corpus" / "100.xml").write_text(ARTICLE, encoding="utf-8")
    index = open_index(root / "corpus", cache_dir=root / "cache", workers=1, progress=None)
    text = parse_article(ARTICLE.encode(), keep_text=True).text
    return root, index, text


def resolve(corpus, lines: str):
    root, index, text = corpus
    run = root / "run.txt"
    run.write_text(lines, encoding="utf-8")
    table, findings = read_element_run(run, label="run.txt")
    assert table is not None, findings
    fol, more = resolve_element_run(table, index, "run.txt")
    return [text[o:o + n] for o, n in zip(fol["offset"], fol["length"])], findings + more


@pytest.mark.parametrize("path", [
    "/article[1]/body[1]/section[1]/p[2]", "/article/body/section/p[2]",
    "/article[1]/body[1]/section[1]/p[2]/", "/article/body[1]/section/p[2]/"])
def test_abbreviated_and_full_paths_name_the_same_element(corpus, path):
    texts, findings = resolve(corpus, f"1 Q0 100 1 1.0 r {path}\n")
    assert texts == ["Second bold para."] and findings == []


def test_text_steps(corpus):
    texts, findings = resolve(corpus, "1 Q0 100 1 1 r /article/body/section/p[2]/text()[2]\n"
                                      "1 Q0 100 2 1 r /article/name/text()\n")
    assert texts == [" para.", "Grüße & más"] and findings == []


@pytest.mark.parametrize(("path", "reason"), [
    ("/article/body/section[3]", "position out of range in file 100"),
    ("/article/body/section/p[9]", "position out of range in file 100"),
    ("/article/body/chapter", "no such element in file 100"),
    ("/article/body/section/p/text()[4]", "position out of range in file 100"),
])
def test_unresolvable_paths_are_findings_with_their_line(corpus, path, reason):
    texts, findings = resolve(corpus, f"1 Q0 100 1 1 r /article\n1 Q0 100 2 1 r {path}\n")
    assert len(texts) == 1
    [finding] = findings
    assert (finding.file, finding.line, finding.severity) == ("run.txt", 2, "error")
    assert reason in finding.message


def test_a_file_missing_from_the_corpus(corpus):
    _, findings = resolve(corpus, "1 Q0 555 1 1 r /article[1]\n")
    assert [(f.line, f.message) for f in findings] == [(1, "file 555 is not in the corpus")]


@pytest.mark.parametrize("path", ["/article/body/section/p[2]/text()[1].3",
                                  "/article[1]/body[1]/section[1]/p[2].0"])
def test_an_element_path_ending_in_a_character_position_is_a_finding(corpus, path):
    # INEX's ``.N`` names a point in the text (a passage's start or end), not an element.
    texts, findings = resolve(corpus, f"1 Q0 100 1 1 r /article\n1 Q0 100 2 1 r {path}\n")
    assert texts == [parse_article(ARTICLE.encode(), keep_text=True).text]
    assert [(f.line, f.severity) for f in findings] == [(2, "error")]
    assert "cannot end in a character position (.N)" in findings[0].message


def test_a_malformed_article_is_named_with_its_reason(tmp_path):
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "100.xml").write_text(ARTICLE, encoding="utf-8")
    (tmp_path / "corpus" / "200.xml").write_text("<article><p>open</article>\n")
    index = open_index(tmp_path / "corpus", cache_dir=tmp_path / "cache", workers=1,
                       progress=None)
    run = tmp_path / "run.txt"
    run.write_text("1 Q0 100 1 1 r /article\n1 Q0 200 2 1 r /article[1]/p[1]\n")
    table, findings = read_element_run(run, label="run.txt")
    fol, more = resolve_element_run(table, index, "run.txt")
    assert len(fol) == 1 and findings == []
    [finding] = more
    assert (finding.file, finding.line) == ("run.txt", 2)
    assert finding.message.startswith("article 200 is not well-formed XML: ")
    assert "mismatch" in finding.message  # libxml2's reason: the tag that does not close


def test_inex_xml_submission_with_element_passage_and_fol_results(corpus):
    root, index, text = corpus
    submission = root / "sub.xml"
    submission.write_text("""<?xml version="1.0"?>
<inex-submission participant-id="9" run-id="xmlrun" task="Focused" result-type="element">
  <topic-fields title="yes"/>
  <topic topic-id="7">
    <result><file>100</file><path>/article[1]/body[1]/section[2]</path><rsv>3</rsv></result>
    <result><file>100</file>
      <passage start="/article[1]/body[1]/section[1]/p[1]/text()[1].6"
               end="/article[1]/body[1]/section[1]/p[2]/text()[1].6"/><rsv>2</rsv></result>
    <result><file>100</file><fol offset="0" length="5"/><rsv>1</rsv></result>
    <result><file>100</file><path>/article[1]/body[1]/table[1]</path></result>
  </topic>
</inex-submission>
""", encoding="utf-8")
    table, findings = read_element_run(submission, label="sub.xml")
    assert findings == [] and set(table["tag"]) == {"xmlrun"}
    fol, more = resolve_element_run(table, index, "sub.xml")
    assert [text[o:o + n] for o, n in zip(fol["offset"], fol["length"])] == [
        "Zweite Sektion", "para.Second", "Grüße"]
    assert [(f.line, "no such element" in f.message) for f in more] == [(10, True)]


def test_malformed_submission_is_a_finding_with_its_line(tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_text("<inex-submission>\n<topic topic-id='1'>\n<result>\n</topic>\n")
    table, findings = read_element_run(bad, label="bad.xml")
    assert table is None and findings[0].line == 4 and "not well-formed" in findings[0].message


def test_convert_round_trips_between_the_three_formats(corpus, capsys):
    root, _, _ = corpus
    run = root / "round.txt"
    run.write_text("1 Q0 100 1 2.5 r /article/body/section/p[2]\n"
                   "1 Q0 100 2 1.5 r /article/body/section[2]\n")
    outputs = {}
    for to in ("fol", "trec-element", "inex-xml"):
        code = main(["convert", "--corpus", str(root / "corpus"), "--cache", str(root / "cache"),
                     str(run), "--to", to])
        outputs[to] = capsys.readouterr().out
        assert code == 0
    assert outputs["fol"] == "1 Q0 100 1 2.5 r 25 17\n1 Q0 100 2 1.5 r 42 14\n"
    assert outputs["trec-element"].splitlines()[0].endswith("/article[1]/body[1]/section[1]/p[2]")
    for source in ("fol", "inex-xml"):
        again = root / f"again.{source}"
        again.write_text(outputs[source])
        main(["convert", "--corpus", str(root / "corpus"), "--cache", str(root / "cache"),
              str(again), "--to", "fol"])
        assert capsys.readouterr().out == outputs["fol"]


def test_convert_missing_corpus_is_a_clear_error(tmp_path, capsys):
    run = tmp_path / "r.txt"
    run.write_text("1 Q0 1 1 1 r /article\n")
    assert main(["convert", "--corpus", str(tmp_path / "nope"), str(run), "--to", "fol"]) == 2
    err = capsys.readouterr().err
    assert "no such corpus" in err and "Traceback" not in err


@pytest.mark.parametrize(("cache", "reason"), [
    ("a-file", "a-file: the corpus index cache must be a folder; this is a file"),
    ("a-file/below", "a-file/below: cannot write the corpus index cache there: not a directory"),
])
def test_convert_with_an_unusable_cache_is_a_clear_error(tmp_path, capsys, monkeypatch,
                                                          cache, reason):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "100.xml").write_text(ARTICLE, encoding="utf-8")
    (tmp_path / "a-file").write_text("not a folder")
    (tmp_path / "r.txt").write_text("1 Q0 100 1 1 r /article\n")
    assert main(["convert", "--corpus", "corpus", "r.txt", "--to", "fol", "--cache", cache]) == 2
    err = capsys.readouterr().err
    assert err == f"appendix convert: {reason}\n"


@pytest.mark.parametrize("archive", ["tar.gz", "zip"])
def test_a_corpus_archive_indexes_as_its_folder(tmp_path, archive):
    import shutil

    from builder.demo.inex.xml_articles import write_articles

    folder = tmp_path / "articles"
    write_articles(folder, 12, seed=5)
    packed = shutil.make_archive(str(tmp_path / "corpus"), "gztar" if archive == "tar.gz"
                                 else "zip", root_dir=tmp_path, base_dir="articles")
    from_folder = open_index(folder, cache_dir=tmp_path / "c1", workers=1, progress=None)
    from_archive = open_index(Path(packed), cache_dir=tmp_path / "c2", workers=2, progress=None)
    key = ["file", "path"]
    assert (from_archive.nodes().to_pandas().sort_values(key, ignore_index=True)
            .equals(from_folder.nodes().to_pandas().sort_values(key, ignore_index=True)))
    assert from_archive.articles().num_rows == 12


@pytest.mark.parametrize("offset", ["9999999999999999", "99999999999999999999"])
def test_fol_offsets_beyond_2_53_are_too_large_as_in_a_fol_run(tmp_path, offset):
    """A <fol> offset and a FOL run's offset are read by one rule: 16 digits beyond 2**53
    are too large, as 20 digits are (not an offset out of range)."""
    from builder.formats.inex.fol_run import read_fol_run

    submission = tmp_path / "sub.xml"
    submission.write_text("<inex-submission><topic topic-id='1'>\n<result><file>100</file>"
                          f"<fol offset='{offset}' length='5'/></result></topic>"
                          "</inex-submission>")
    fol = tmp_path / "fol.txt"
    fol.write_text(f"1 Q0 100 1 1.0 r {offset} 5\n")
    table, findings = read_element_run(submission, label="sub.xml")
    assert table is None and [(f.line, f.message) for f in findings] == [
        (2, "<fol> offset and length are too large (more than 9007199254740992)")]
    table, findings = read_fol_run(fol, label="fol.txt")
    assert table is None and [(f.line, f.message) for f in findings] == [
        (1, "offset is too large (more than 9007199254740992)")]
