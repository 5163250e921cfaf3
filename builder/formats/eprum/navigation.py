"""EPRUM navigation tables: ``P(k ~> x)`` written by the user, one row a line.

Four whitespace-separated fields (tabs or blanks)::

    topic  rank      element  probability
    1      1         a        0.4        # P(1 ~> a): rank 1 of the evaluated list reaches a
    1      idealism  b        0.5        # P(b in I): half of the users regard b as ideal
    1      ideal:2   b        1          # rank 2 of the ideal list reaches b
    1      from:a    b        0.5        # half of the users who reach a move on to b

Every element named in a topic's rows is an ideal element of that topic (idealism 1 unless an
``idealism`` row says otherwise); an element listed only with probability 0 is ideal but
unreachable. ``ideal:K`` rows give the ideal list's own navigation; without them the ideal list
points at one ideal element per rank with certainty (E[ML*_r] = r). ``from:U`` rows record the
users' transitions between elements (section 3.2 of the EPRUM paper, Fig. 2): in a topic that
has them, the rank rows (and ``ideal:K`` rows) are the users' first steps from a rank, and
``P(k ~> x)`` is composed from both (``builder.measures.eprum.transitions``); an element only
passed through is made non-ideal by an ``idealism`` row of 0. The probabilities leaving one
element, or one rank, sum to at most 1. Blank lines and text after
``#`` are ignored; a first line ``topic rank element probability`` is a header.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from builder.findings import Finding, FindingCode, InputError, listed
from builder.formats.source import decode_text, read_input

HEADER = ["topic", "rank", "element", "probability"]
MAX_RANK_DIGITS = 18
"""A rank fits a 64-bit integer."""
IDEALISM = "idealism"
IDEAL_PREFIX = "ideal:"
FROM_PREFIX = "from:"


class NavigationError(ValueError):
    """A navigation table that cannot be used; ``findings`` say where and why."""

    def __init__(self, findings: list[Finding]) -> None:
        self.findings = findings
        super().__init__("\n".join(f.format() for f in findings))


@dataclass(frozen=True)
class NavigationTable:
    """The tables of one file.

    navigation: ``topic, rank, element, probability`` of the evaluated list;
    elements: ``topic, element, idealism``, every ideal element, in order of first mention;
    ideal_navigation: ``topic, rank, element, probability`` of the ideal list (may be empty);
    transitions: ``topic, source, element, probability`` between elements (may be empty).
    """

    navigation: pd.DataFrame
    elements: pd.DataFrame
    ideal_navigation: pd.DataFrame
    transitions: pd.DataFrame


def read_navigation(path: Path | str, label: str | None = None) -> NavigationTable:
    """Read a navigation table; raise ``NavigationError`` listing every unusable line."""
    path = Path(path)
    label = label or str(path)
    try:
        text = decode_text(read_input(path), label)
    except InputError as error:
        raise NavigationError([replace(f, file=label) for f in error.findings]) from None
    return parse_navigation(text, label)


def parse_navigation(text: str, label: str = "<navigation>") -> NavigationTable:
    """Parse the text of a navigation table (see the module docstring)."""
    lines = pd.Series(text.splitlines(), dtype=object).str.split("#", n=1).str[0]
    tokens = lines.str.split()
    counts = tokens.str.len().to_numpy()
    numbers = np.arange(1, len(lines) + 1)
    keep = counts > 0
    if keep.any() and tokens[keep].iloc[0] == HEADER:
        keep[np.flatnonzero(keep)[0]] = False
    problems: list[tuple[np.ndarray, FindingCode, str]] = [
        (numbers[keep & (counts != 4)], FindingCode.SYNTAX,
         "expected 4 fields: topic rank element probability")]
    keep &= counts == 4
    if not keep.any():  # numpy's string functions fail on empty arrays
        lines_of, code, message = problems[0]
        findings = listed(label, lines_of, "error", code, message)
        raise NavigationError(findings or [Finding(label, None, "error", FindingCode.EMPTY,
                                                   "no navigation rows")])
    tokens, numbers = tokens[keep], numbers[keep]
    topic, rank, element, value = (tokens.str[i].astype(str).to_numpy() for i in range(4))

    probability = pd.to_numeric(pd.Series(value), errors="coerce").to_numpy()
    problems.append((numbers[~((probability >= 0) & (probability <= 1))], FindingCode.VALUE,
                     "probability is not a number in [0, 1]"))
    kind = np.where(rank == IDEALISM, "idealism", np.where(np.char.startswith(rank.astype(str), IDEAL_PREFIX), "ideal", "list"))
    source = np.where(np.char.startswith(rank.astype(str), FROM_PREFIX),
                      np.char.replace(rank.astype(str), FROM_PREFIX, "", count=1), "")
    kind = np.where(source != "", "from", kind)
    digits = np.where(kind == "ideal", np.char.replace(rank.astype(str), IDEAL_PREFIX, ""), rank)
    # Decimal digits only, few enough for a 64-bit integer: "1e25" or "2.0" is not a rank.
    integer = ~np.isin(kind, ("idealism", "from")) & pd.Series(digits.astype(str)).str.fullmatch(
        f"[0-9]{{1,{MAX_RANK_DIGITS}}}").to_numpy(bool)
    position = np.zeros(len(digits), dtype=np.int64)
    position[integer] = digits[integer].astype(np.int64)
    whole = np.isin(kind, ("idealism", "from")) | (integer & (position >= 1))
    problems.append((numbers[~whole], FindingCode.VALUE, (
        f"rank is not a positive integer (at most {MAX_RANK_DIGITS} digits), 'idealism', "
        "'ideal:K' or 'from:ELEMENT'")))
    table = pd.DataFrame(
        {
            "topic": topic,
            "kind": kind,
            "rank": np.where(whole & ~np.isin(kind, ("idealism", "from")), position, 0),
            "source": source,
            "element": element,
            "probability": probability,
        }
    )
    repeated = table.duplicated(["topic", "kind", "rank", "source", "element"]).to_numpy() & whole
    problems.append((numbers[repeated], FindingCode.DUPLICATE,
                     "row given twice (same topic, rank and element)"))
    problems.append((_over_one(table, numbers), FindingCode.VALUE,
                     "the probabilities leaving this element or rank sum to more than 1"))
    findings = [finding for lines_of, code, message in problems
                for finding in listed(label, lines_of, "error", code, message)]
    if findings:
        # In line order, each kind's count of the lines it does not list after them.
        findings.sort(key=lambda f: (f.line is None, f.line or 0))
        raise NavigationError(findings)
    if table.empty:
        raise NavigationError([Finding(label, None, "error", FindingCode.EMPTY,
                                       "no navigation rows")])
    return _tables(table)


def _over_one(table: pd.DataFrame, numbers: np.ndarray) -> np.ndarray:
    """The last line of each element whose transitions (``from:`` rows), or of each rank of a
    topic with transitions whose first steps, sum above 1: a user takes one step at a time."""
    steps = table["kind"].isin(["from", "list", "ideal"]) & table["probability"].between(0, 1)
    has_transitions = table["topic"].isin(table.loc[table["kind"] == "from", "topic"])
    rows = table[steps & has_transitions]
    totals = rows.groupby(["topic", "kind", "rank", "source"], sort=False)["probability"]
    over = totals.transform("sum") > 1 + 1e-9
    last = ~rows[["topic", "kind", "rank", "source"]].duplicated(keep="last")
    return numbers[rows.index[over & last]]


def _tables(table: pd.DataFrame) -> NavigationTable:
    columns = ["topic", "rank", "element", "probability"]
    elements = table.drop_duplicates(["topic", "element"])[["topic", "element"]]
    given = table[table["kind"] == "idealism"].set_index(["topic", "element"])["probability"]
    idealism = pd.MultiIndex.from_frame(elements).map(given.to_dict().get)
    elements = elements.assign(idealism=pd.Series(idealism, dtype=float).fillna(1.0).to_numpy())
    return NavigationTable(
        navigation=table.loc[table["kind"] == "list", columns].reset_index(drop=True),
        elements=elements.reset_index(drop=True),
        ideal_navigation=table.loc[table["kind"] == "ideal", columns].reset_index(drop=True),
        transitions=table.loc[table["kind"] == "from", ["topic", "source", "element", "probability"]
                              ].reset_index(drop=True),
    )
