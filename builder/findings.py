"""Validation findings: what is wrong with an input file, and where."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning", "info"]
SEVERITY_ORDER: dict[str, int] = {"error": 0, "warning": 1, "info": 2}


@dataclass(frozen=True)
class Finding:
    """One problem found in an input file.

    ``line`` is 1-based, or ``None`` when the finding concerns the whole file
    (an empty run, a topic missing from the qrels).
    """

    file: str
    line: int | None
    severity: Severity
    message: str

    def format(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        return f"{where}: {self.severity}: {self.message}"


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
    def at(cls, file: str, line: int | None, reason: str) -> InputError:
        """The error of one problem at ``file:line``."""
        return cls([Finding(str(file), line, "error", reason)])
