"""Publishing: build beside the output folder, then swap it in, in one step, when complete.

What a user can count on, whatever happens to a build (an error, a full or read-only disk,
``kill -9``, a second build started at the same time):

- One build at a time per output: a lock file beside the output (``.NAME.lock``, ``flock``);
  a second build says that another is running and changes nothing.
- The previous site stays whole until the new one replaces it in one atomic step: Linux's
  ``renameat2(RENAME_EXCHANGE)`` swaps the staged folder and the output (elsewhere, or on a
  file system without it, two renames, and a build killed between them is repaired by the
  next one).
- Leftovers of a killed build (``.NAME.building-*``, ``.NAME.previous-*``) are ours by their
  name, by being real folders (a symbolic link of such a name is never followed nor removed)
  and by their marker or their manifest and list of written files; the next build restores
  or removes them.
- Nothing the tool did not write is deleted: a published site lists what it wrote
  (``.appendix-written``); anything else in the output (``CNAME``, ``.git/`` that static
  hosts need) is carried into the new site (hard links, so nothing is copied and the old
  files stay until the swap). A folder with our manifest but no such list is refused, as is
  an output folder holding inputs of the config.
- An interruption (Ctrl-C, SIGTERM) during the swap waits until the swap is whole
  (``builder.pipeline.forked.signals_deferred``).

The Python standard library has no atomic directory exchange: ``renameat2`` is called through
``ctypes`` (glibc 2.28 or later).
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import json
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from builder.site.manifest import INTERNAL_PREFIX, MANIFEST_NAME, TOOL

WRITTEN = f"{INTERNAL_PREFIX}written"
"""The list of the files a published site's build wrote, one relative path a line."""
STAGING_MARK = f"{INTERNAL_PREFIX}staging"
"""Marks a folder as a build's staging folder until it is published."""
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


class PublishError(Exception):
    """The output folder cannot be built into or replaced."""


def check_replaceable(output: Path) -> None:
    """Raise ``PublishError`` unless ``output`` is missing, empty, or a site built by us."""
    if not output.exists():
        return
    if not output.is_dir():
        raise PublishError(f"{output} exists and is not a folder")
    if not any(output.iterdir()):
        return
    if not _is_our_site(output):
        raise PublishError(f"refusing to replace {output}: it is not empty and has no "
                           f"{MANIFEST_NAME} written by {TOOL}")
    if not (output / WRITTEN).is_file():
        raise PublishError(
            f"refusing to replace {output}: its {MANIFEST_NAME} names {TOOL} but it has no "
            f"{WRITTEN} listing the files {TOOL} wrote, so the build cannot tell them from "
            "yours; move the folder aside or choose another output")


def check_inputs_outside(output: Path, inputs: Iterable[Path]) -> None:
    """Refuse an output folder that holds inputs of the config: the swap would delete them."""
    inside = [path for path in inputs if output == path or output in Path(path).parents]
    if inside:
        raise PublishError(f"refusing to build into {output}: it holds inputs of the config "
                           f"({', '.join(str(p) for p in inside[:5])}); choose another output")


def _is_our_site(folder: Path) -> bool:
    try:
        manifest = json.loads((folder / MANIFEST_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(manifest, dict) and manifest.get("tool") == TOOL


@contextmanager
def build_lock(output: Path) -> Iterator[None]:
    """Hold the output's lock for the whole build; refuse if another build holds it.

    The lock file is removed when the build ends, so a build that finds the file it locked
    unlinked (another build ended meanwhile) locks the new one instead (the usual pattern for
    removable lock files)."""
    output.parent.mkdir(parents=True, exist_ok=True)
    lock_path = output.parent / f".{output.name}.lock"
    while True:
        handle = open(lock_path, "a+", encoding="utf-8")  # noqa: SIM115 (closed below)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            handle.close()
            raise PublishError(f"another build into {output} is running (process "
                               f"{holder}); wait for it to finish") from None
        try:
            same = os.stat(lock_path).st_ino == os.fstat(handle.fileno()).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        handle.close()
    try:
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        yield
    finally:
        lock_path.unlink(missing_ok=True)
        handle.close()


def _is_published_site(folder: Path) -> bool:
    """A whole site this tool published: a real folder with our manifest and its list of
    written files, and no staging mark."""
    return (_is_real_folder(folder) and _is_our_site(folder) and (folder / WRITTEN).is_file()
            and not (folder / STAGING_MARK).exists())


def _is_leftover(folder: Path) -> bool:
    """A real folder a build of ours made: marked as staging (or being removed), or a whole
    site of ours (the old site after the exchange, before its removal began)."""
    return _is_real_folder(folder) and ((folder / STAGING_MARK).is_file()
                                        or _is_published_site(folder))


def _is_real_folder(path: Path) -> bool:
    """A folder, not a symbolic link to one: a link is never followed by the clean-up."""
    return not path.is_symlink() and path.is_dir()


def _left_alone(path: Path) -> str:
    why = ("a symbolic link, not a folder this tool made" if path.is_symlink()
           else f"not a folder this tool made and marked (no {STAGING_MARK}, or no "
           f"{MANIFEST_NAME} with its {WRITTEN})")
    return f"left {path.name} alone: {why}"


def recover(output: Path) -> list[str]:
    """Repair what a killed build left beside ``output`` (call with the lock held): restore a
    previous site whose swap was cut short, remove our staging and previous folders; leave
    anything else of such a name alone. Returns what was done, for the build's log."""
    done: list[str] = []
    parent = output.parent
    for previous in sorted(parent.glob(f".{output.name}.previous-*")):
        if not output.exists() and _is_published_site(previous):
            previous.rename(output)
            done.append(f"restored {output.name} from an interrupted build")
        elif _is_leftover(previous):
            _remove_tree(previous)
            done.append(f"removed {previous.name}")
        else:
            done.append(_left_alone(previous))
    for staged in sorted(parent.glob(f".{output.name}.building-*")):
        if _is_leftover(staged):
            _remove_tree(staged)
            done.append(f"removed {staged.name}")
        else:
            done.append(_left_alone(staged))
    return done


def staging_folder(output: Path) -> Path:
    """A new empty folder beside ``output`` (same file system, so the swap is a rename), marked
    as a build's staging folder."""
    output.parent.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix=f".{output.name}.building-", dir=output.parent))
    umask = os.umask(0)
    os.umask(umask)
    folder.chmod(0o777 & ~umask)  # mkdtemp makes it private; a site is meant to be read
    (folder / STAGING_MARK).touch()
    return folder


def discard(staged: Path) -> None:
    _remove_tree(staged)


def _written_by_us(site: Path) -> set[str]:
    """The top-level entries the build of ``site`` wrote (none for an empty folder;
    ``check_replaceable`` refuses a site without its list)."""
    try:
        lines = (site / WRITTEN).read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return set()
    return {line.split("/", 1)[0] for line in lines if line}


def _foreign_entries(output: Path) -> list[Path]:
    if not output.is_dir():
        return []
    ours = _written_by_us(output)
    return [p for p in output.iterdir()
            if p.name not in (WRITTEN, STAGING_MARK) and p.name not in ours]


def _carry(entries: list[Path], staged: Path) -> None:
    """Hard-link the user's files into the new site (copies where links cannot be made)."""
    for entry in entries:
        target = staged / entry.name
        if target.exists() or target.is_symlink():
            continue  # the new site writes a file of that name: ours wins
        if entry.is_symlink():
            os.symlink(os.readlink(entry), target)
        elif entry.is_dir():
            shutil.copytree(entry, target, symlinks=True, copy_function=_link_or_copy)
        else:
            _link_or_copy(str(entry), str(target))


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def _record_written(staged: Path, carried: list[Path]) -> None:
    skip = {STAGING_MARK, WRITTEN} | {p.name for p in carried}
    names = sorted(str(p.relative_to(staged)) for p in staged.rglob("*")
                   if p.is_file() and p.relative_to(staged).parts[0] not in skip)
    (staged / WRITTEN).write_text("".join(f"{n}\n" for n in names), encoding="utf-8")


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically (renameat2 RENAME_EXCHANGE); False where not supported."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def swap_in(staged: Path, output: Path) -> None:
    """Replace ``output`` by ``staged`` in one step; the old site is removed afterwards.
    Hold SIGINT and SIGTERM around the call (``builder.pipeline.forked.signals_deferred``), so
    that the caller knows whether the swap happened."""
    check_replaceable(output)
    carried = _foreign_entries(output)
    _carry(carried, staged)
    _record_written(staged, carried)
    if not output.exists():
        (staged / STAGING_MARK).unlink()
        staged.rename(output)
        return
    if _exchange(staged, output):
        (output / STAGING_MARK).unlink()
        _remove_tree(staged)  # now the old site
        return
    previous = Path(tempfile.mkdtemp(prefix=f".{output.name}.previous-", dir=output.parent))
    previous.rmdir()
    output.rename(previous)
    try:
        staged.rename(output)
    except OSError:
        previous.rename(output)
        raise
    (output / STAGING_MARK).unlink()
    _remove_tree(previous)


def _remove_tree(folder: Path) -> None:
    """Remove a folder this tool wrote, read-only sub-folders included; never through a
    symbolic link (a link is not removed nor followed).

    The folder is marked first (the staging mark) and the mark goes last: a build killed while
    removing an old site or a staging folder then leaves a folder the next build still
    recognises, and removes, instead of an anonymous half-deleted one it must not touch."""
    def writable_then_retry(function, path, _exc_info) -> None:
        parent = os.path.dirname(path)
        os.chmod(parent, os.stat(parent).st_mode | stat.S_IWUSR | stat.S_IXUSR)
        function(path)

    if not _is_real_folder(folder):
        return
    with suppress(OSError):  # a folder that cannot be marked cannot be emptied either
        (folder / STAGING_MARK).touch()
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name == STAGING_MARK:
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, onerror=writable_then_retry)
        else:
            try:
                entry.unlink()
            except PermissionError:
                writable_then_retry(os.unlink, str(entry), None)
    shutil.rmtree(folder, onerror=writable_then_retry)
