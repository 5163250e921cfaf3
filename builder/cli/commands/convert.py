"""``appendix convert --corpus CORPUS RUN --to fol|trec-element|inex-xml``: move an INEX run
between formats, so anyone can check element runs with inex_eval (which reads FOL runs).

The run may be a FOL run, a TREC-like element run or an INEX XML submission. Converting to
``fol`` resolves element paths over the corpus; to ``trec-element`` or ``inex-xml``, a FOL
passage becomes the element whose text range is exactly that passage (the deepest such
element; text nodes are not elements), and a passage that is no element is a finding. The
converted run goes to standard output (or ``-o FILE``); findings go to standard error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from builder.cli.flags import add_config_argument

FORMATS = ("fol", "trec-element", "inex-xml")


EXIT_STATUS = """\
  0    the run is converted
  1    some results could not be converted: their findings say why, the others are written
  2    the run or the corpus cannot be read, or the output or the --cache cannot be written"""
"""What ``--help`` prints under "exit status" (``builder.cli.build_parser``)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", type=Path, metavar="RUN",
                        help="a FOL run, a TREC-like element run or an INEX XML submission")
    parser.add_argument("--corpus", type=Path, required=True,
                        help="the XML corpus: a folder, tar or zip of articles named by file id")
    parser.add_argument("--to", choices=FORMATS, required=True, help="the output format")
    add_config_argument(parser)
    parser.add_argument("-o", "--output", type=Path, help="write here instead of standard output")
    parser.add_argument("--cache", type=Path,
                        help="folder of the corpus index cache (default ~/.cache/appendix)")


def run(args: argparse.Namespace) -> int:
    from builder.findings import has_error, sort_findings
    from builder.formats.source import write_output
    from builder.formats.xml.corpus import CorpusError
    from builder.formats.xml.corpus_index import open_index
    from builder.formats.xml.elements.convert import convert_run

    try:
        index = open_index(args.corpus, cache_dir=args.cache)
        text, findings = convert_run(args.run, index, args.to)
    except (CorpusError, OSError) as error:
        print(f"appendix convert: {error}", file=sys.stderr)
        return 2
    for finding in sort_findings(findings):
        print(finding.format(), file=sys.stderr)
    if text is None:
        return 2
    if args.output is not None:
        write_output(args.output, text)
    else:
        sys.stdout.write(text)
    return 1 if has_error(findings) else 0
