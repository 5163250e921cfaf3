"""INEX topics XML and Indri query files."""

from __future__ import annotations

from builder.formats.inex.topics import read_inex_topics


def test_inex_topic_file(tmp_path):
    path = tmp_path / "topics.xml"
    path.write_text(
        '<?xml version="1.0"?>\n<inex-topic-file>\n'
        '<topic id="2009002"><title>b</title></topic>\n'
        '<topic id="2009001" ct_no="6"><title>Nobel prize</title>'
        "<castitle>//article[about(., nobel prize)]</castitle>"
        "<description>Find <b>who</b>\n won &amp; why</description><narrative>Any.</narrative>"
        "</topic></inex-topic-file>\n"
    )
    topics = read_inex_topics(path)
    assert topics["topic"].tolist() == ["2009001", "2009002"]
    first = topics.iloc[0]
    assert first["title"] == "Nobel prize"
    assert first["castitle"] == "//article[about(., nobel prize)]"
    assert first["description"] == "Find who won & why"
    assert first["narrative"] == "Any."


def test_indri_queries(shared_data):
    topics = read_inex_topics(shared_data / "inex_ipcs" / "INEX_queries.xml")
    assert len(topics) == 120
    first = topics.iloc[0]
    assert (first["topic"], first["title"], first["query"]) == ("2009001", "nobel prize", "#combine( nobel prize )")
