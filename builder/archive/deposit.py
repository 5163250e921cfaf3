"""What ``appendix verify`` is given, opened as one view: an archive (a ``.tar.gz`` or its
extracted folder) or a published site folder.

Either way a ``Deposit`` says which files must be there with which SHA-256 (the archive's
manifest, or the site's ``SHA256SUMS``), where the site is, and where the bytes of each input
recorded in the manifest can be read: the archive's ``inputs/``, or the inputs a site
published (``publish_inputs``: ``TASK/downloads/inputs/``, runs gzip-compressed), found by
their SHA-256.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import tarfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from builder.archive.pack import ARCHIVE_FORMAT, SITE, checksum_path
from builder.site.manifest import CHECKSUMS_NAME, MANIFEST_NAME, read_checksums, sha256


class Undecidable(Exception):
    """What is given cannot be checked at all (not an archive nor a site, a newer format)."""


@dataclass
class Deposit:
    """root: the folder every path of ``expected`` is relative to; site: the site in it;
    manifest: the archive's or the site's; expected: file -> SHA-256 of every file that must
    be there; inputs: the SHA-256 of each input whose bytes are at hand -> that file (a
    published run is read decompressed); problems: differences found while opening (the
    archive's own checksum)."""

    kind: str
    root: Path
    site: Path
    manifest: dict[str, Any]
    expected: dict[str, str]
    inputs: dict[str, Path] = field(default_factory=dict)
    problems: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def label(self) -> str:
        return "archive" if self.kind == "archive" else "site"


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@contextmanager
def open_deposit(path: Path) -> Iterator[Deposit]:
    """The deposit at ``path``; an archive file is extracted into a temporary folder, removed
    after."""
    if path.is_file():
        with TemporaryDirectory(prefix="appendix-verify-") as scratch:
            yield _archive_file(path, Path(scratch))
        return
    if not path.is_dir():
        raise Undecidable(f"{path}: no such archive or site folder")
    manifest = _manifest(path / MANIFEST_NAME)
    if "archive_format" in manifest:
        yield _archive_folder(path, manifest)
    else:
        yield _site_folder(path, manifest)


def _manifest(path: Path) -> dict[str, Any]:
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise Undecidable(f"{path.parent} has no {MANIFEST_NAME}: not a site or archive "
                          "made by appendix") from None
    except (OSError, ValueError) as error:
        raise Undecidable(f"{path}: cannot be read ({error})") from error
    if not isinstance(manifest, dict):
        raise Undecidable(f"{path}: not a manifest")
    return manifest


def extract(archive: Path, into: Path) -> None:
    """Unpack a .tar.gz into ``into`` with tarfile's ``data`` filter (no member outside
    ``into``, no link leaving it, no device, no set-uid bit). Pythons before 3.11.4 (Debian 12's
    3.11.2) have no filters: there, a member that is not a plain file or folder (a link too, which
    the filter would allow inside ``into``; appendix archives hold none), or whose name is
    absolute or climbs with ``..``, is refused."""
    with tarfile.open(archive, "r:gz") as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(into, filter="data")
            return
        members = tar.getmembers()
        for member in members:
            parts = Path(member.name).parts
            if not (member.isfile() or member.isdir()) or Path(member.name).is_absolute() \
                    or ".." in parts:
                raise tarfile.TarError(f"{member.name}: not a plain file or folder inside "
                                       "the archive's folder")
            member.mode &= 0o755  # no set-uid, set-gid or sticky bit, as the filter
        tar.extractall(into, members=members)


def _archive_file(archive: Path, scratch: Path) -> Deposit:
    problems = []
    checksum = checksum_path(archive)
    if checksum.is_file():
        recorded = checksum.read_text(encoding="utf-8").split()[:1]
        found = sha256(archive)
        if recorded != [found]:
            problems.append((archive.name, recorded[0] if recorded else "", found))
    try:
        extract(archive, scratch)
    except (tarfile.TarError, OSError, EOFError, zlib.error) as error:
        raise Undecidable(f"{archive}: not a readable .tar.gz ({error})") from error
    folders = [entry for entry in scratch.iterdir() if entry.is_dir()]
    if len(folders) != 1:
        raise Undecidable(f"{archive}: not an archive made by appendix (expected one folder)")
    deposit = _archive_folder(folders[0], _manifest(folders[0] / MANIFEST_NAME))
    deposit.problems = problems
    return deposit


def _archive_folder(root: Path, manifest: dict[str, Any]) -> Deposit:
    version = manifest.get("archive_format")
    if not isinstance(version, int) or version > ARCHIVE_FORMAT:
        raise Undecidable(f"archive format {version!r} is newer than this appendix reads "
                          f"({ARCHIVE_FORMAT}); verify it with a newer appendix")
    inputs = {entry["sha256"]: root / entry["archived_as"]
              for entry in manifest.get("inputs", []) if "archived_as" in entry}
    return Deposit("archive", root, root / SITE, manifest, dict(manifest.get("files", {})),
                   inputs)


def _site_folder(site: Path, manifest: dict[str, Any]) -> Deposit:
    sums = site / CHECKSUMS_NAME
    if not sums.is_file():
        raise Undecidable(f"{site} has no {CHECKSUMS_NAME}: built by an appendix that did not "
                          "record its files' SHA-256, so they cannot be checked")
    expected = read_checksums(sums.read_text(encoding="utf-8"))
    return Deposit("site", site, site, manifest, expected, _published_inputs(site, manifest))


def _published_inputs(site: Path, manifest: dict[str, Any]) -> dict[str, Path]:
    """The published inputs (``TASK/downloads/inputs/``) by the SHA-256 of their content, a
    gzip-compressed one also by that of its decompressed content (a run is published
    compressed; the manifest hashes the file the build read)."""
    wanted = {entry["sha256"] for entry in manifest.get("inputs", []) if "sha256" in entry}
    found: dict[str, Path] = {}
    for path in sorted(site.glob("*/downloads/inputs/**/*")):
        if not path.is_file():
            continue
        data = path.read_bytes()
        found.setdefault(sha256_bytes(data), path)
        if path.suffix == ".gz":
            try:
                found.setdefault(sha256_bytes(gzip.decompress(data)), path)
            except (OSError, EOFError, zlib.error):
                continue
    return {digest: path for digest, path in found.items() if digest in wanted}


def input_bytes(path: Path, sha256: str) -> bytes:
    """The bytes of an input at hand, decompressed when the deposit holds it compressed."""
    data = path.read_bytes()
    if sha256_bytes(data) != sha256 and path.suffix == ".gz":
        data = gzip.decompress(data)
    return data
