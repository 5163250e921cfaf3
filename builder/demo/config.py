"""The demo campaign's ``site_config.yml``: its five tasks over the files the demo writes,
with paths relative to the campaign's folder, so that ``appendix build --config
DIR/site_config.yml`` builds the site of a campaign ``appendix demo DIR`` wrote.

The repository's own ``site_config.yml`` is this config over ``data/``: the same but for its
opening comment and the ``data/`` before each input path (``tests/demo`` checks it).
"""

from __future__ import annotations

from pathlib import Path

SITE_CONFIG = """\
# The demo campaign, written by `appendix demo DIR`:
# `appendix build --config DIR/site_config.yml` builds its site into DIR/site/.
campaign:
  title: Appendix demo campaign
  year: 2024
  description: >-
    A small, generated ad hoc retrieval campaign: 25 topics, runs of clearly different quality
    from a few teams, and two flawed runs, so that every page of the site has something to show.
  organisers: [The appendix developers]
  licence: CC0-1.0
output: site
tasks:
  - id: adhoc
    title: Ad hoc retrieval
    kind: adhoc
    qrels: adhoc/qrels.txt
    topics: adhoc/topics.txt
    runs: adhoc/runs/
    run_metadata: adhoc/runs.csv
    official_measure: map
    measures: [map, P_10, Rprec]
  - id: focused
    title: INEX focused retrieval
    kind: focused
    description: >-
      Rank non-overlapping passages of articles, most focused first; evaluated on the
      highlighted characters they retrieve (inex_eval 3.1 -f).
    qrels: inex/qrels.txt
    topics: inex/topics.xml
    runs: inex/focused/
    run_metadata: inex/focused.csv
    official_measure: iP[0.01]
  - id: relevant-in-context
    title: INEX relevant in context
    kind: relevant-in-context
    description: >-
      Rank articles and mark the relevant text in each; scored by generalized precision over
      the ranked articles (inex_eval 3.1 -r).
    qrels: inex/qrels.txt
    topics: inex/topics.xml
    runs: inex/relevant-in-context/
    run_metadata: inex/relevant-in-context.csv
  - id: best-in-context
    title: INEX best in context
    kind: best-in-context
    description: >-
      Rank articles and point at the best place to start reading each; scored by the distance
      to the assessors' best entry point (inex_eval 3.1 -b).
    qrels: inex/qrels.txt
    topics: inex/topics.xml
    runs: inex/best-in-context/
    run_metadata: inex/best-in-context.csv
  - id: elements
    title: INEX element retrieval
    kind: thorough
    description: >-
      Rank XML elements of Wikipedia-like articles (results may overlap), given by their paths;
      the paths are resolved to the text they hold over the task's XML corpus, and the runs are
      scored by inex_eval 3.1 -t and by HiXEval on the element tree.
    qrels: inex_elements/qrels.txt
    topics: inex_elements/topics.xml
    corpus: inex_elements/corpus
    runs: inex_elements/runs/
    run_metadata: inex_elements/runs.csv
    official_measure: "iP[0.01]"
    measures: ["iP[0.01]", MAiP, P@10, R@10, MAP]
"""


def write(directory: Path) -> Path:
    """Write ``site_config.yml`` into ``directory``; its path."""
    path = Path(directory) / "site_config.yml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SITE_CONFIG, encoding="utf-8", newline="\n")
    return path
