"""``appendix verify``: does an archive, or a published site, still say what its inputs say?

Three checks, every difference kept (file, where, expected, found):

1. every file against the SHA-256 recorded when it was made (the archive's manifest, or the
   site's ``SHA256SUMS``): a page, a download, the manifest, an archived input;
2. every archived input against the SHA-256 the build recorded when it read it;
3. every published number: the site built again from the archived inputs with the recorded
   build date (``builder.archive.rebuild``), its score tables and downloads compared row by
   row with the published ones (``builder.archive.numbers``).

The verdict: ``HOLDS`` (exit 0) when nothing differs; ``DIFFERS`` (1) when anything does;
``UNKNOWN`` (2) when it cannot tell: not an archive nor a site, a newer archive format, or an
archive missing an input. A site published without its inputs (``publish_inputs: false``) is
checked file by file and says that its numbers could not be checked again: that holds (0).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import IntEnum
from pathlib import Path
from tempfile import TemporaryDirectory

from builder.archive.deposit import Deposit, Undecidable, open_deposit
from builder.archive.numbers import Difference, compare_numbers, number_files
from builder.site.manifest import sha256


class Verdict(IntEnum):
    """The outcome, as the command's exit status."""

    HOLDS = 0
    DIFFERS = 1
    UNKNOWN = 2


@dataclass
class Report:
    """What ``verify`` found: the differences, why something could not be told (which makes
    the verdict ``UNKNOWN`` unless something differs) and what was checked."""

    differences: list[Difference] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def verdict(self) -> Verdict:
        if self.differences:
            return Verdict.DIFFERS
        return Verdict.UNKNOWN if self.unknown else Verdict.HOLDS

    def lines(self, shown: int = 20) -> list[str]:
        """The report as printed: the first ``shown`` differences, then what was checked."""
        lines = [difference.format() for difference in self.differences[:shown]]
        if len(self.differences) > shown:
            lines.append(f"... and {len(self.differences) - shown} more differences")
        lines += [f"cannot tell: {reason}" for reason in self.unknown]
        lines += self.notes + self.checked
        return lines


def verify(path: Path) -> Report:
    """Check the archive or site folder at ``path`` (module docstring)."""
    report = Report()
    try:
        with open_deposit(path) as deposit:
            _check(deposit, report)
    except Undecidable as reason:
        report.unknown.append(str(reason))
    return report


def _check(deposit: Deposit, report: Report) -> None:
    report.differences += [Difference(name, "(SHA-256 of the archive)", expected, found)
                           for name, expected, found in deposit.problems]
    report.differences += _files(deposit)
    report.differences += _inputs(deposit)
    report.checked.append(f"{len(deposit.expected)} files checked against their SHA-256")
    _numbers(deposit, report)


def _files(deposit: Deposit) -> list[Difference]:
    """Each recorded file against its SHA-256; in an archive, any file not recorded too."""
    differences = []
    for name, digest in sorted(deposit.expected.items()):
        path = deposit.root / name
        if not path.is_file():
            differences.append(Difference(name, "", f"SHA-256 {digest}", "no such file"))
            continue
        found = sha256(path)
        if found != digest:
            differences.append(Difference(name, "", f"SHA-256 {digest}", f"SHA-256 {found}"))
    if deposit.kind == "archive":
        present = {p.relative_to(deposit.root).as_posix() for p in deposit.root.rglob("*")
                   if p.is_file()}
        differences += [Difference(name, "", "no such file (not in the manifest)", "a file")
                        for name in sorted(present - set(deposit.expected) - {"manifest.json"})]
    return differences


def _inputs(deposit: Deposit) -> list[Difference]:
    """Each archived input against the SHA-256 the build recorded when it read it."""
    differences = []
    for entry in deposit.manifest.get("inputs", []):
        where = entry.get("archived_as")
        if where is None or not (deposit.root / where).is_file():
            continue  # missing: a file difference, or not archived: the rebuild says so
        found = sha256(deposit.root / where)
        if found != entry.get("sha256"):
            differences.append(Difference(where, f"(input {entry['path']} as read by the build)",
                                          f"SHA-256 {entry.get('sha256')}", f"SHA-256 {found}"))
    return differences


def _numbers(deposit: Deposit, report: Report) -> None:
    from builder.archive.rebuild import CannotRebuild, rebuild

    with TemporaryDirectory(prefix="appendix-rebuild-") as scratch:
        try:
            rebuilt = rebuild(deposit, Path(scratch))
        except CannotRebuild as reason:
            if deposit.kind == "archive":
                report.unknown.append(f"the numbers could not be checked again: {reason}")
            else:
                report.notes.append("the numbers could not be checked again: the site does "
                                    f"not publish all its inputs ({reason}); its files were "
                                    "checked against its SHA256SUMS")
            return
        except Exception as error:  # noqa: BLE001 (any failure of the build is reported)
            report.unknown.append(f"the site could not be built again from its inputs: "
                                  f"{error}")
            return
        prefix = deposit.site.relative_to(deposit.root).as_posix()
        report.differences += [
            replace(difference, file=f"{prefix}/{difference.file}".removeprefix("./"))
            for difference in compare_numbers(deposit.site, rebuilt)]
        report.checked.append(f"{len(number_files(rebuilt))} tables and downloads evaluated "
                              "again from the inputs and compared number by number")
