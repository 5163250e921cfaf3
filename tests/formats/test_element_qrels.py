"""Element assessments in the INEX 2005 form (HiXEval paper, Fig. 1)."""

from __future__ import annotations

from builder.formats.xml.elements.qrels import read_element_assessments

FIGURE_1 = """<?xml version="1.0"?>
<assessments topic="203">
<file collection="ieee" name="co/2000/r7108">
<element path="/article[1]" E="1" size="13,556" rsize="5,494"/>
<element path="/article[1]/bdy[1]" E="1" size="9,797" rsize="4,594"/>
<element path="/article[1]/bdy[1]/sec[2]" E="1" size="2,064" rsize="2,064"/>
<element path="/article[1]/bdy[1]/sec[2]/st[1]" E="?" size="30" rsize="30"/>
</file>
</assessments>
"""


def test_figure_1_is_read_with_its_thousands_separators(tmp_path):
    (tmp_path / "203.xml").write_text(FIGURE_1)
    table, findings = read_element_assessments(tmp_path)
    assert findings == []
    assert list(table["rsize"]) == [5494, 4594, 2064, 30]
    assert list(table["size"]) == [13556, 9797, 2064, 30]
    assert set(table["file"]) == {"r7108"} and set(table["topic"]) == {"203"}
    assert list(table["exhaustivity"]) == ["1", "1", "1", "?"]


def test_bad_elements_are_findings_with_their_line(tmp_path):
    bad = FIGURE_1.replace('size="30" rsize="30"', 'size="30" rsize="31"').replace(
        'E="1" size="9,797" rsize="4,594"', 'E="1" size="x" rsize="4,594"')
    (tmp_path / "a.xml").write_text(bad)
    table, findings = read_element_assessments(tmp_path / "a.xml")
    assert table is None
    assert [(f.line, f.severity) for f in findings] == [(5, "error"), (7, "error")]
    assert "not within 0 and size 30" in findings[1].message
