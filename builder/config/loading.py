"""Loading ``site_config.yml``: read, checked against the schema, every problem at once.

Pattern from mkdocs: nothing validates lazily halfway through a build. The YAML is checked against
the typed schema (``builder.config.schema``) and then for what a schema cannot say: files and run
folders (relative to the config file), task kinds and their options, measure names. Every problem is
reported together with its key path (``tasks[2].qrels: file not found: ...``). Apart from the schema
because this is the part that looks at the disk and the registries.
"""

from __future__ import annotations

import errno
import glob
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from builder.config.reliability import ReliabilityConfig
from builder.config.schema import SignificanceConfig, SiteConfig, SiteSpec, TaskSpec
from builder.contract import TaskKind
from builder.findings import Finding, FindingCode, InputError


class ConfigError(InputError):
    """The config is invalid; ``problems`` lists every one as ``key.path: message``."""

    def __init__(self, path: Path, problems: list[str]):
        self.path = path
        self.problems = problems
        super().__init__([Finding(str(path), None, "error", FindingCode.CONFIG, p)
                          for p in problems])
        self.args = (f"{path}: {len(problems)} problem(s)\n  " + "\n  ".join(problems),)

    def __str__(self) -> str:
        return str(self.args[0])


KindLookup = Callable[[str], TaskKind]
"""The task kind of a name, ``KeyError`` (saying the known names) when there is none: the
caller's table of kinds (``builder.tasks.get_kind``), so that the config knows no kind."""


def load_config(path: Path, kinds: KindLookup) -> SiteSpec:
    """Read and validate ``path``, each task's kind looked up by ``kinds``; raise
    ``ConfigError`` with all problems found."""
    from builder.formats.source import read_text
    from builder.formats.yaml_text import load_yaml

    if "\0" in str(path):  # no file name holds one: the system refuses it
        raise ConfigError(Path(str(path).replace("\0", "\\0")),
                          ["the config's path holds a NUL character (\\0)"])
    path = Path(path)
    if not path.exists() and not path.is_symlink():
        raise ConfigError(path, [f"config file not found: {path}"])
    try:
        raw, _ = load_yaml(read_text(path), str(path))
    except InputError as error:
        raise ConfigError(path, [f"line {f.line}: {f.message}" if f.line else f.message
                                 for f in error.findings]) from None
    if not isinstance(raw, dict):
        raise ConfigError(path, ["(top): expected a mapping"])
    if nul := _nul_keys(raw, ""):
        raise ConfigError(path, [f"{key}: holds a NUL character (\\0), which no path or text "
                                 "may hold" for key in nul])
    base = path.resolve().parent
    problems: list[str] = []
    config: SiteConfig | None = None
    try:
        config = SiteConfig.model_validate(raw)
    except ValidationError as exc:
        problems += [_pydantic_problem("", error) for error in exc.errors()]
    tasks = raw.get("tasks") if isinstance(raw.get("tasks"), list) else []
    campaign_tests = raw.get("significance") if isinstance(raw.get("significance"), dict) else {}
    specs = [_task_spec(f"tasks[{i}]", task, base, problems, campaign_tests, kinds)
             for i, task in enumerate(tasks)]
    ids = [task.get("id") for task in tasks if isinstance(task, dict)]
    problems += [f"tasks: task id {i!r} is used twice" for i in sorted({i for i in ids
                                                                       if ids.count(i) > 1})]
    if problems or config is None:
        raise ConfigError(path, _unique(problems))
    return SiteSpec(path=path, base=base, campaign=config.campaign,
                    output=(base / config.output).resolve(), tasks=tuple(specs), config=config)


def _task_spec(key: str, task: Any, base: Path, problems: list[str],
               campaign_tests: dict[str, Any], kinds: KindLookup) -> TaskSpec | None:
    """Check what the schema cannot: files, the kind, its options and measure names."""
    if not isinstance(task, dict):
        return None
    found = len(problems)
    files = {name: _existing_file(f"{key}.{name}", task.get(name), base, problems)
             for name in ("qrels", "topics", "run_metadata")}
    run_files, folder_findings = _run_files(f"{key}.runs", task.get("runs"), base, problems)
    kind, options = None, None
    if isinstance(task.get("kind"), str):
        try:
            kind = kinds(task["kind"])
        except KeyError as exc:
            problems.append(f"{key}.kind: {exc.args[0]}")
        except ImportError as exc:
            problems.append(f"{key}.kind: task kind {task['kind']!r} is not available: {exc}")
    corpus = _corpus(key, task.get("corpus"), base, kind, problems)
    given = task.get("options") or {}
    if isinstance(given, dict) and isinstance(given.get("corpus"), str):
        # options: {corpus: DIR} is the same path as corpus: DIR, relative to the config too
        if corpus is not None:
            problems.append(f"{key}.options.corpus: the corpus is given twice (also {key}.corpus)")
        given = {k: v for k, v in given.items() if k != "corpus"}
        corpus = _corpus(f"{key}.options", task["options"]["corpus"], base, kind, problems)
    if kind is not None:
        try:
            options = kind.options_model.model_validate(
                {**given, **({"corpus": corpus} if corpus else {})})
        except ValidationError as exc:
            problems += [_pydantic_problem(f"{key}.options", e) for e in exc.errors()]
        _check_measures(key, task, kind, problems)
    tests = _significance(key, campaign_tests, task.get("significance"), kind, problems)
    if len(problems) > found or kind is None or options is None or tests is None:
        return None
    if not all(isinstance(task.get(name), str) for name in ("id", "title")):
        return None  # the schema reports them
    official = task.get("official_measure") or kind.official_measure
    return TaskSpec(
        id=task["id"], title=task["title"], description=task.get("description") or "",
        kind=kind, qrels=files["qrels"], run_files=run_files, topics=files["topics"],
        run_metadata=files["run_metadata"],
        official_measure=official,
        measures=tuple(task.get("measures") or kind.leaderboard_measures), options=options,
        significance=tests.settings() if tests.enabled else None,
        significance_measures=tuple(dict.fromkeys([official, *(tests.measures or [])])),
        reliability=_reliability(key, task.get("reliability"), kind, problems),
        findings=tuple(folder_findings),
        folders=_named_folders(task, base, corpus),
    )


def _named_folders(task: dict[str, Any], base: Path, corpus: Path | None) -> tuple[Path, ...]:
    """The folders a task's keys name, resolved (``TaskSpec.folders``): a file's folder as
    written, not its link's target, so that a link out of them does not widen them."""
    folders = [(base / task[name]).parent.resolve() for name in ("qrels", "topics", "run_metadata")
               if isinstance(task.get(name), str)]
    runs = task.get("runs")
    if isinstance(runs, str):
        parts = Path(runs).parts
        fixed = next((i for i, part in enumerate(parts) if glob.has_magic(part)), None)
        named = base / runs
        if fixed is not None:
            named = base.joinpath(*parts[:fixed])  # a glob: the folder before its wildcards
        elif not named.is_dir():
            named = named.parent  # a single run file
        folders.append(named.resolve())
    if corpus is not None:
        folders.append(corpus)
    return tuple(dict.fromkeys(folders))


def _corpus(key: str, value: Any, base: Path, kind: TaskKind | None,
            problems: list[str]) -> Path | None:
    """The task's XML corpus, relative to the config's folder; only INEX tasks read one."""
    if value is None:
        return None
    path = (base / str(value)).resolve()
    if kind is not None and "corpus" not in kind.options_model.model_fields:
        problems.append(f"{key}.corpus: a {kind.name} task reads no XML corpus")
        return None
    if not path.exists():
        problems.append(f"{key}.corpus: not found: {value}")
    return path


def _reliability(key: str, section: Any, kind: TaskKind,
                 problems: list[str]) -> ReliabilityConfig | None:
    """The task's reliability settings (None when disabled); the schema has checked the keys,
    here the measure names."""
    try:
        settings = ReliabilityConfig.model_validate(section or {})
    except ValidationError:
        return None
    from builder.measures.registry import measures_of

    known = {m.name for m in measures_of(kind.family)}
    for i, name in enumerate(settings.measures or []):
        if name not in known:
            problems.append(f"{key}.reliability.measures[{i}]: unknown {kind.family} measure {name!r}")
    return settings if settings.enabled else None


def _significance(key: str, campaign: dict[str, Any], task: Any, kind: TaskKind | None,
                  problems: list[str]) -> SignificanceConfig | None:
    """The task's significance settings: the campaign's section, then the task's keys over it.

    The campaign section's own problems are reported once, under ``significance``, by the
    schema; here only the task's keys and the measure names are checked."""
    if not isinstance(task, dict):
        task = {}
    try:
        SignificanceConfig.model_validate(campaign)
    except ValidationError:
        campaign = {}
    try:
        tests = SignificanceConfig.model_validate({**campaign, **task})
    except ValidationError as exc:
        problems += [_pydantic_problem(f"{key}.significance", e) for e in exc.errors()
                     if e["loc"] and e["loc"][0] in task]
        return None
    if kind is not None:
        from builder.measures.registry import measures_of

        known = {m.name for m in measures_of(kind.family)}
        for i, name in enumerate(tests.measures or []):
            if name not in known:
                where = f"{key}.significance" if "measures" in task else "significance"
                problems.append(f"{where}.measures[{i}]: unknown {kind.family} measure {name!r}")
    return tests


def _check_measures(key: str, task: dict[str, Any], kind: TaskKind, problems: list[str]) -> None:
    from builder.measures.registry import measures_of

    known = {m.name for m in measures_of(kind.family)}  # complete: every family is imported
    official = task.get("official_measure")
    if isinstance(official, str):
        task["official_measure"] = _measure(f"{key}.official_measure", official, known, kind,
                                            task, problems)
    measures = task.get("measures")
    for i, name in enumerate(measures if isinstance(measures, list) else []):
        if isinstance(name, str):
            measures[i] = _measure(f"{key}.measures[{i}]", name, known, kind, task, problems)


def _measure(where: str, name: str, known: set[str], kind: TaskKind, task: dict[str, Any],
             problems: list[str]) -> str:
    """The registry's name of ``name``: itself, or an ad hoc measure in ir_measures' spelling
    (``nDCG@10`` is ``ndcg_cut_10``) that the task's options compute
    (``builder.measures.names.registry_name``); a problem when neither."""
    if name in known:
        return name
    if kind.family == "adhoc":
        from builder.measures.names import registry_name

        options = task.get("options") if isinstance(task.get("options"), dict) else {}
        try:
            return registry_name(name, int(options.get("rel_level", 1)),
                                 bool(options.get("judged_only", False)), frozenset(known))
        except ValueError as error:
            if "@" in name or "(" in name or name[:1].isupper():  # ir_measures' spelling
                problems.append(f"{where}: {error}")
                return name
    problems.append(f"{where}: unknown {kind.family} measure {name!r}")
    return name


def _existing_file(key: str, value: Any, base: Path, problems: list[str]) -> Path | None:
    if not isinstance(value, str):
        return None
    path = (base / value).resolve()
    if not path.is_file():
        problems.append(f"{key}: file not found: {value} (looked for {path})")
        return None
    return path


def _run_files(key: str, value: Any, base: Path, problems: list[str]
               ) -> tuple[tuple[Path, ...], list[Finding]]:
    """The run files of a folder (its hidden files aside) or a glob pattern, and a finding for
    each entry that is not a readable file: a subfolder (not searched), a broken symbolic
    link, a symbolic link loop."""
    if not isinstance(value, str):
        return (), []
    folder = (base / value).resolve()
    if folder.is_dir():
        entries = sorted(p for p in folder.iterdir() if not p.name.startswith("."))
    else:
        entries = sorted(Path(p).absolute() for p in glob.glob(str(base / value)))
    files, findings = [], []
    for entry in entries:
        why = _not_a_run_file(entry)
        if why is None:
            files.append(entry)  # a link keeps its name in the campaign; its target is read
        else:
            findings.append(Finding(str(entry), None, "warning", FindingCode.FOLDER, why))
    if not files:
        problems.append(f"{key}: no run files in {value} (looked in {base / value})")
    return tuple(files), findings


def _not_a_run_file(entry: Path) -> str | None:
    """Why a folder entry is not read as a run, or None when it is a file."""
    try:
        if entry.is_file():
            return None
        if entry.is_dir():
            return "a subfolder of the run folder: not searched for runs"
        os.stat(entry)
    except OSError as error:
        if error.errno == errno.ELOOP:
            return "symbolic link loop: not read as a run"
        if entry.is_symlink():
            return "broken symbolic link: not read as a run"
        return f"not read as a run: {error.strerror}"
    return "not a regular file: not read as a run"


def _nul_keys(value: Any, key: str) -> list[str]:
    """The key paths of the strings of ``value`` holding a NUL character (the system refuses
    it in a path; a page could not show it). Walked by recursion: the YAML's nesting is
    bounded (``limits: nesting``)."""
    if isinstance(value, str):
        return [key or "(top)"] if "\0" in value else []
    if isinstance(value, dict):
        return [k for name, item in value.items()
                for k in _nul_keys(name, key) + _nul_keys(item, f"{key}.{name}" if key else
                                                          str(name))]
    if isinstance(value, list):
        return [k for i, item in enumerate(value) for k in _nul_keys(item, f"{key}[{i}]")]
    return []


def _pydantic_problem(prefix: str, error: Any) -> str:
    key = prefix
    for part in error["loc"]:
        key += f"[{part}]" if isinstance(part, int) else (f".{part}" if key else str(part))
    message = "unknown key" if error["type"] == "extra_forbidden" else error["msg"]
    if error["type"] == "missing":
        message = "required key is missing"
    return f"{key or '(top)'}: {message}"


def _unique(problems: list[str]) -> list[str]:
    return list(dict.fromkeys(problems))
