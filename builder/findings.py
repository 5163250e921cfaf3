"""Validation findings: what is wrong with an input file, and where."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

Severity = Literal["error", "warning", "info"]
SEVERITY_ORDER: dict[str, int] = {"error": 0, "warning": 1, "info": 2}


class FindingCode(StrEnum):
    """What kind of problem a finding is, for a program to act on (the message is for a
    person, and may be reworded): the closed vocabulary every finding takes one word of."""

    UNREADABLE = "unreadable"
    """The file cannot be opened, unpacked (gzip) or decoded (not UTF-8)."""
    OUTPUT = "output"
    """An output file or folder the user named cannot be written."""
    EMPTY = "empty"
    """The file holds nothing to use: no result line, judgement, topic or navigation row."""
    SYNTAX = "syntax"
    """A line or element does not parse: field count, CSV, YAML or XML not well-formed, a
    required element, attribute or column missing, a blank line trec_eval rejects."""
    VALUE = "value"
    """A field is present but its value is not valid (not a number or integer, out of range,
    too many digits, not one of the allowed words), or was read leniently as trec_eval does."""
    DUPLICATE = "duplicate"
    """The same item twice: a document for a topic, a judgement, a topic, a metadata row, a
    navigation row, a second entry point into an article."""
    ORDER = "order"
    """The lines are not in the order the ranking needs: rank or score against the line
    order, a topic starting again after others, an article's results interleaved."""
    OVERLAP = "overlap"
    """Passages of one article overlap (in a run, or highlighted in the qrels)."""
    OUTSIDE = "outside"
    """A passage reaches outside its article: it starts before it, or ends beyond its length."""
    INCONSISTENT = "inconsistent"
    """Two statements of one file disagree: an article's rel_chars and the length of its
    highlighted passages."""
    UNKNOWN_TOPIC = "unknown-topic"
    """A run's topic the qrels do not judge: its lines are not evaluated."""
    MISSING_TOPIC = "missing-topic"
    """A topic of the qrels the run has no result for: it scores 0."""
    LIMIT = "limit"
    """More results for a topic than the task's limit (trec_eval's depth, INEX's 1500)."""
    NAMING = "naming"
    """A run's name clashes with another run's, or a run has more than one tag."""
    UNKNOWN_RUN = "unknown-run"
    """Run metadata about a run that has no run file."""
    UNRESOLVED = "unresolved"
    """An element result names no file or node of the XML corpus, or a passage is not the text
    of one element."""
    CORPUS = "corpus"
    """The XML corpus a run needs is not given, or cannot be read."""
    TOO_LARGE = "too-large"
    """The file, its gunzipped data, a line, a field, a name or a YAML nesting is beyond the
    input limits (``limits:`` of the config): the file is not read further."""
    CONFIG = "config"
    """The site's configuration file is invalid."""
    FOLDER = "folder"
    """An entry of a run folder that is not read as a run: a subfolder, a broken symbolic
    link, a link loop, a special file."""
    NOT_PUBLISHED = "not-published"
    """An input the site does not publish although ``publish_inputs`` asks it: its real path
    lies outside the campaign's folders (a link out of them)."""


@dataclass(frozen=True)
class Finding:
    """One problem found in an input file.

    ``line`` is 1-based, or ``None`` when the finding concerns the whole file
    (an empty run, a topic missing from the qrels). ``code`` says what kind of problem it is
    (programs decide by it); ``message`` says it to a person.
    """

    file: str
    line: int | None
    severity: Severity
    code: FindingCode
    message: str
    count: int = 1
    """How many problems it stands for: one, or for a finding that counts the offending lines
    not listed one by one (``20 more lines``), their number. Counts of errors add these."""

    def __post_init__(self) -> None:
        # A code outside the vocabulary (or a message given where the code goes) fails where
        # the finding is made, not in the program that reads it.
        FindingCode(self.code)

    def format(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        return f"{where}: {self.severity}: {self.message}"


def counted(count: int, noun: str, plural: str = "") -> str:
    """``1 error``, ``3 errors``: a count and its noun, singular or plural as the count asks."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


LISTED = 20
"""Findings listed one by one per kind of problem in a file; the rest are counted in one more
finding (``listed``)."""


def listed(file: str, lines: Sequence[int], severity: Severity, code: FindingCode,
           message: str | Callable[[int], str], more: Callable[[int], str] | None = None
           ) -> list[Finding]:
    """A finding for each of the first ``LISTED`` ``lines`` (in the order given), then, if
    there are more, one finding without a line counting the rest (``Finding.count``), so that
    a file with thousands of bad lines says so in ``LISTED + 1`` findings and its count of
    errors is still right.

    ``message`` is the listed lines' message, one text or a function of a line's position in
    ``lines`` (called for the listed ones only); ``more`` is the counting finding's message
    given the number of lines not listed, by default ``message``'s (its text, or that of the
    first line) followed by ``: 20 more lines``."""
    text = message if callable(message) else (lambda _: message)
    found = [Finding(file, int(line), severity, code, text(i))
             for i, line in enumerate(lines[:LISTED])]
    rest = len(lines) - LISTED
    if rest > 0:
        say = more or (lambda n: f"{text(0)}: {counted(n, 'more line')}")
        found.append(Finding(file, None, severity, code, say(rest), rest))
    return found


def problem_count(findings: Iterable[Finding], severity: Severity) -> int:
    """How many problems of ``severity`` the findings stand for, each counted finding
    (``20 more lines``) as many as it counts."""
    return sum(f.count for f in findings if f.severity == severity)


def has_error(findings: Iterable[Finding]) -> bool:
    return any(f.severity == "error" for f in findings)


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Findings in a stable order: file, line (file-level first), severity, message."""
    return sorted(
        findings,
        key=lambda f: (f.file, -1 if f.line is None else f.line, SEVERITY_ORDER[f.severity], f.message),
    )


class InputError(Exception):
    """An input file that cannot be used at all (qrels, topics, config, or a run file that
    cannot be opened or decoded): what the user must fix, never a program fault.

    Every command turns it into its message on stderr and exit status 2 (``builder.cli``);
    ``findings`` say file, line and reason.
    """

    def __init__(self, findings: list[Finding]) -> None:
        self.findings = list(findings)
        super().__init__("\n".join(f.format() for f in self.findings))

    @classmethod
    def at(cls, file: str, line: int | None, code: FindingCode, reason: str) -> InputError:
        """The error of one problem at ``file:line``."""
        return cls([Finding(str(file), line, "error", code, reason)])
