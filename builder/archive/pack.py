"""Pack a built site and the inputs it was built from into one reproducible ``.tar.gz``.

The archive holds one folder, named as the archive (``covid-2020.tar.gz``: ``covid-2020/``):

    manifest.json   the archive's manifest: the site's (config, build date, inputs with their
                    SHA-256 and what each was read as), every archived file with its SHA-256,
                    where each input is archived, and the software's and its dependencies'
                    versions
    inputs/         every input as the build read it (its bytes, checked against the site's
                    manifest when packed): under its path relative to the config's folder, or,
                    for a file outside it, under ``inputs/outside/`` and its SHA-256
    site/           every file the build wrote (``.appendix-written``), nothing else of the
                    output folder (a ``CNAME`` or ``.git/`` of the user's stays out)

and ``FILE.sha256`` beside it (``sha256sum -c`` reads it).

Byte-identical for the same inputs and build date (reproducible builds' recipe for tar, as
``tar --sort=name --mtime=@T --owner=0 --group=0 --numeric-owner`` and ``gzip -n``): members in
sorted order, every time the build date, owner and group 0 and no names, modes 0644, and the
gzip header without a file name and with that same time. The standard library's ``tarfile``
and ``gzip`` do all of it when given these values, so no packing library is needed.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import re
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from builder.config.schema import SiteSpec
from builder.formats.source import open_problem, open_regular
from builder.site.manifest import MANIFEST_NAME, input_roles, sha256
from builder.site.publish import WRITTEN
from builder.version import __version__

ARCHIVE_FORMAT = 1
"""The layout of the archive and of its manifest; ``appendix verify`` refuses a newer one."""
SITE = "site"
INPUTS = "inputs"
OUTSIDE = "outside"
"""The folder of ``inputs/`` holding the inputs that lay outside the config's folder."""
SUFFIXES = (".tar.gz", ".tgz")


class ArchiveError(Exception):
    """The archive cannot be made (no site, an input changed since it was built)."""


@dataclass(frozen=True)
class Member:
    """A file of the archive: its path inside the archive's folder and its bytes, or the file
    to read them from."""

    name: str
    data: bytes | None = None
    source: Path | None = None
    sha256: str | None = None
    """The SHA-256 the source must still have when packed (an input, as the build read it)."""

    def read(self) -> bytes:
        if self.data is not None:
            return self.data
        try:
            with open_regular(self.source) as stream:
                data = stream.read()
        except OSError as error:
            raise ArchiveError(f"cannot archive {self.name}: {open_problem(error)}") from error
        if self.sha256 is not None and hashlib.sha256(data).hexdigest() != self.sha256:
            raise ArchiveError(f"{self.name} changed since the site was built; build the "
                               "site again before archiving it")
        return data


def archive_folder(archive: Path) -> str:
    """The archive's one folder: its file name without ``.tar.gz``."""
    name = archive.name
    for suffix in SUFFIXES:
        if name.endswith(suffix):
            return name[: -len(suffix)] or "campaign"
    return name


def checksum_path(archive: Path) -> Path:
    return archive.with_name(f"{archive.name}.sha256")


def software_versions() -> dict[str, str]:
    """Python's version and each installed distribution appendix depends on, by name."""
    from importlib.metadata import PackageNotFoundError, requires, version

    try:
        wanted = requires("appendix") or []
    except PackageNotFoundError:
        wanted = []
    names = sorted({re.split(r"[<>=!~ ;\[]", line, maxsplit=1)[0] for line in wanted
                    if "extra ==" not in line})
    found = {"python": sys.version.split()[0], "appendix": __version__}
    for name in names:
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = "not installed"
    return found


def input_members(site: SiteSpec, recorded: list[dict[str, Any]]) -> list[tuple[dict, Member]]:
    """Each input the site's manifest recorded with a hash, read now and checked against it,
    with its place in the archive. A file that changed since the site was built is an
    ``ArchiveError`` when packed: the archive would not hold what the numbers came from."""
    roles = input_roles(site)
    if [entry["path"] for entry in recorded] != [site.relative(path) for path in roles]:
        raise ArchiveError("the config names other inputs than those the site was built "
                           "from; build the site again before archiving it")
    members = []
    for path, entry in zip(roles, recorded, strict=True):
        if "sha256" not in entry:
            continue  # withheld: outside the campaign or unreadable when built
        inside = Path(os.path.abspath(site.base / path)).is_relative_to(site.base)
        where = (f"{INPUTS}/{entry['path']}" if inside
                 else f"{INPUTS}/{OUTSIDE}/{entry['sha256'][:16]}/{entry['path']}")
        members.append(({**entry, "archived_as": where},
                        Member(where, source=path, sha256=entry["sha256"])))
    return members


CORPUS_ROLE = "corpus"


def corpus_members(site: SiteSpec) -> list[tuple[dict, Member]]:
    """The XML corpus of each task that reads one (a folder, tar or zip of articles: an input
    too, though not one the site's manifest lists file by file), each file hashed now. A
    folder's files say where they lie in it (``corpus_member``), for the rebuild."""
    members: dict[str, tuple[dict, Member]] = {}
    for task in site.tasks:
        corpus = getattr(task.options, "corpus", None)
        if corpus is None:
            continue
        corpus = Path(corpus)
        files = ([(path, path.relative_to(corpus).as_posix()) for path in sorted(corpus.rglob("*"))
                  if path.is_file()] if corpus.is_dir() else [(corpus, None)])
        named = site.relative(corpus)
        inside = Path(os.path.abspath(site.base / corpus)).is_relative_to(site.base)
        for path, member in files:
            name = f"{named}/{member}" if member else named
            digest = _sha256_file(path)
            where = (f"{INPUTS}/{name}" if inside
                     else f"{INPUTS}/{OUTSIDE}/{digest[:16]}/{path.name}")
            entry = {"path": name, "bytes": path.stat().st_size, "sha256": digest,
                     "read_as": [f"{task.id}:{CORPUS_ROLE}"], "archived_as": where,
                     **({"corpus_member": member} if member else {})}
            if where in members:
                members[where][0]["read_as"].append(entry["read_as"][0])
            else:
                members[where] = (entry, Member(where, source=path, sha256=digest))
    return list(members.values())


def _sha256_file(path: Path) -> str:
    try:
        return sha256(path)
    except OSError as error:
        raise ArchiveError(f"cannot archive {path.name}: {open_problem(error)}") from error


def site_members(output: Path) -> list[Member]:
    """Every file the build wrote into ``output``, by its list of written files."""
    try:
        written = (output / WRITTEN).read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise ArchiveError(f"{output} is not a site built by appendix ({WRITTEN}: "
                           f"{open_problem(error)})") from error
    return [Member(f"{SITE}/{name}", source=output / name) for name in sorted(written) if name]


def pack(site: SiteSpec, output: Path, archive: Path) -> Path:
    """Write ``archive`` (and its checksum file, whose path is returned) from the site built
    into ``output`` from ``site``'s inputs."""
    try:
        built = json.loads((output / MANIFEST_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ArchiveError(f"{output} has no readable {MANIFEST_NAME}: build the site "
                           "first") from error
    inputs = input_members(site, built["inputs"]) + corpus_members(site)
    pages = site_members(output)
    when = int(datetime.fromisoformat(built["build_date"]).timestamp())
    files = {**{member.name: member.sha256 for _, member in inputs},
             **{member.name: _sha256_file(member.source) for member in pages}}
    manifest = {
        "archive_format": ARCHIVE_FORMAT,
        **{key: value for key, value in built.items() if key != "inputs"},
        "software": software_versions(),
        "inputs": [entry for entry, _ in inputs]
        + [entry for entry in built["inputs"] if "sha256" not in entry],
        "files": files,
    }
    text = json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    members = [Member(MANIFEST_NAME, data=text.encode("utf-8")), *(m for _, m in inputs), *pages]
    write_tar(archive, archive_folder(archive), members, when)
    digest = sha256(archive)
    checksum = checksum_path(archive)
    checksum.write_text(f"{digest}  {archive.name}\n", encoding="utf-8")
    return checksum


def write_tar(archive: Path, folder: str, members: list[Member], when: int) -> None:
    """A gzip-compressed tar of ``members`` under ``folder``, deterministic (module docstring);
    written beside ``archive`` and renamed onto it once whole."""
    archive.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{archive.name}.", dir=archive.parent)
    try:
        with os.fdopen(handle, "wb") as raw, \
                gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=when,
                              compresslevel=6) as packed, \
                tarfile.open(fileobj=packed, mode="w", format=tarfile.PAX_FORMAT) as tar:
            for member in sorted(members, key=lambda m: m.name):
                data = member.read()
                info = tarfile.TarInfo(f"{folder}/{member.name}")
                info.size, info.mtime, info.mode = len(data), when, 0o644
                info.uid = info.gid = 0
                info.uname = info.gname = ""
                tar.addfile(info, io.BytesIO(data))
        os.chmod(temporary, 0o644)
        os.replace(temporary, archive)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
