"""Topic files: TREC format and the XML variant, with line numbers for problems."""

from __future__ import annotations

from builder.formats.trec.topics import read_topics

TREC = """<top>
<num> Number: 401
<title> foreign minorities, Germany

<desc> Description:
What language and cultural differences
impede the integration of foreign minorities?

<narr> Narrative:
A relevant document will focus on the causes.
</top>

<top>
<num> Number: 402
<title> Topic: behavioral genetics
<desc> Description:
What is happening in the field?
</top>
"""


def test_trec_topics_multi_line_fields(tmp_path):
    path = tmp_path / "topics.txt"
    path.write_text(TREC)
    table, findings = read_topics(path)
    assert findings == []
    assert table["topic"].tolist() == ["401", "402"]
    assert table.iloc[1]["title"] == "behavioral genetics"
    assert table.iloc[1]["narrative"] == ""
    first = table.iloc[0]
    assert first["title"] == "foreign minorities, Germany"
    assert first["description"] == ("What language and cultural differences impede the "
                                    "integration of foreign minorities?")
    assert first["narrative"] == "A relevant document will focus on the causes."


def test_trec_topic_problems_carry_line_numbers(tmp_path):
    path = tmp_path / "topics.txt"
    path.write_text("<top>\n<title> no number\n</top>\n<top>\n<num> Number: 7\n</top>\n"
                    "<top>\n<num> Number: 7\n</top>\n<top>\n<num> Number: 8\n")
    table, findings = read_topics(path)
    assert [(f.line, f.message) for f in findings] == [
        (1, "topic without <num>"),
        (10, "<top> is never closed"),
        (7, "topic 7 already defined on line 4"),
    ]
    assert table["topic"].tolist() == ["7"]


XML = """<?xml version="1.0" encoding="UTF-8"?>
<topics task="COVIDSearch" batch="1">
  <topic number="1">
    <query>coronavirus origin</query>
    <question>what is the origin of COVID-19</question>
    <narrative>seeking range of <b>information</b> about the SARS-CoV-2 virus's origin</narrative>
  </topic>
  <topic>
    <number>2</number>
    <title>coronavirus response to weather changes</title>
  </topic>
  <topic><query>no number</query></topic>
</topics>
"""


def test_xml_topics(tmp_path):
    path = tmp_path / "topics.xml"
    path.write_text(XML)
    table, findings = read_topics(path)
    assert table["topic"].tolist() == ["1", "2"]
    assert table.iloc[0]["title"] == "coronavirus origin"
    assert table.iloc[0]["description"] == "what is the origin of COVID-19"
    assert table.iloc[0]["narrative"].startswith("seeking range of information about")
    assert table.iloc[1]["title"] == "coronavirus response to weather changes"
    assert [(f.line, f.message) for f in findings] == [(12, "topic without a number")]


def test_malformed_xml_is_one_finding_with_its_line(tmp_path):
    path = tmp_path / "topics.xml"
    path.write_text("<topics>\n<topic number='1'>\n</topics>\n")
    table, findings = read_topics(path)
    assert table.empty
    assert len(findings) == 1 and findings[0].line == 3
