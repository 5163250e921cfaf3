"""Run metadata from CSV or YAML: aliases, extra columns, problems with line numbers."""

from __future__ import annotations

from builder.formats.run_metadata import read_run_metadata

CSV = """tag,group,runtype,description,report
r1,Team A,Automatic,"BM25, stemmed",r1.pdf
r2,Team B,manual,"two
lines",
r1,Team A,automatic,again,
,Team C,automatic,no name,
r3,Team C,interactive-ish,odd type,
"""


def test_csv_metadata_with_aliases_and_line_numbers(tmp_path):
    path = tmp_path / "runs.csv"
    path.write_text(CSV)
    table, findings = read_run_metadata(path)
    # the file's order, under the recognised names
    assert table.columns.tolist() == ["run", "team", "type", "description", "report"]
    assert table["run"].tolist() == ["r1", "r2", "r3"]
    assert table.iloc[0].to_dict() == {"run": "r1", "team": "Team A", "description": "BM25, stemmed",
                                       "type": "automatic", "report": "r1.pdf"}
    assert table.iloc[1]["description"] == "two\nlines"
    assert [(f.line, f.message) for f in findings] == [
        (5, "run 'r1' already described on line 2"),
        (6, "no run name"),
        (7, "run type 'interactive-ish' is not one of automatic, manual, feedback"),
    ]


def test_csv_without_a_run_column(tmp_path):
    path = tmp_path / "runs.csv"
    path.write_text("name,team\nx,y\n")
    table, findings = read_run_metadata(path)
    assert table.empty
    assert [(f.line, f.message) for f in findings] == [(1, "header has no 'run' column")]


def test_yaml_list_and_mapping_forms(tmp_path):
    listed = tmp_path / "runs.yml"
    listed.write_text("- run: r1\n  team: A\n  type: manual\n- run: r1\n  team: B\n")
    table, findings = read_run_metadata(listed)
    assert table["team"].tolist() == ["A"]
    assert [(f.line, f.message) for f in findings] == [(4, "run 'r1' already described on line 1")]
    mapping = tmp_path / "runs.yaml"
    mapping.write_text("r1:\n  team: A\n  description: <b>bold</b>\nr2: {team: B, pages: 3}\n")
    table, findings = read_run_metadata(mapping)
    assert findings == []
    assert table.to_dict("records") == [
        {"run": "r1", "team": "A", "description": "<b>bold</b>", "type": "", "pages": ""},
        {"run": "r2", "team": "B", "description": "", "type": "", "pages": "3"},
    ]
