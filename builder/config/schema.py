"""The typed schema of ``site_config.yml``, and the validated config the build reads.

Pattern from mkdocs: a typed config with defaults, checked before anything is built. The
sections are pydantic models (unknown keys are errors); ``SiteSpec`` and its ``TaskSpec``s are
what a config becomes once checked, its paths resolved relative to the config file. Loading a
file against this schema, every problem reported at once with its key path, is
``builder.config.loading``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from builder.config.flags import Flag
from builder.config.reliability import ReliabilityConfig
from builder.config.significance import Correction, SignificanceSettings, SignificanceTest
from builder.config.sizes import parse_size
from builder.contract import TaskKind
from builder.findings import Finding
from builder.formats.limits import InputLimits

TASK_ID_PATTERN = r"^[a-z0-9][a-z0-9_-]*$"


DEFAULT_SIGNIFICANCE = SignificanceSettings()
"""The defaults of the ``significance`` section (and of ``appendix compare``'s flags)."""


class _Strict(BaseModel):
    # Validators made on first use: the commands read these models for their flags
    # (compare's --test, build's --memory-budget) before any config is loaded.
    model_config = ConfigDict(extra="forbid", defer_build=True)


class CampaignConfig(_Strict):
    title: str
    year: int | None = None
    description: str = ""
    organisers: list[str] = Field(default_factory=list)
    licence: str = ""


class SignificanceConfig(_Strict):
    """The ``significance`` section: campaign-wide at the top level, overridden key by key in
    a task's own ``significance`` section."""

    enabled: bool = Field(True, description="test every pair of runs of the task")
    test: Annotated[SignificanceTest, Flag("--test")] = Field(
        DEFAULT_SIGNIFICANCE.test, description="paired test, or the joint randomised Tukey HSD")
    correction: Annotated[Correction, Flag("--correction")] = Field(
        DEFAULT_SIGNIFICANCE.correction,
        description="multiple-comparison correction over all pairs of a measure")
    alpha: Annotated[float, Flag("--alpha")] = Field(
        DEFAULT_SIGNIFICANCE.alpha, gt=0, lt=1, description="significance level")
    B: Annotated[int, Flag("--B")] = Field(
        DEFAULT_SIGNIFICANCE.resamples, ge=1, description="resamples of the randomization, "
        "bootstrap and Tukey tests and of the confidence intervals")
    seed: Annotated[int, Flag("--seed")] = Field(
        DEFAULT_SIGNIFICANCE.seed, description="seed of every resampling")
    measures: Annotated[list[str] | None, Flag("--measure", metavar="M")] = Field(
        None, description="measures to test on; default: the task's official measure")

    def settings(self) -> SignificanceSettings:
        return SignificanceSettings(test=self.test, correction=self.correction, alpha=self.alpha,
                                    resamples=self.B, seed=self.seed)


class TaskConfig(_Strict):
    id: str = Field(pattern=TASK_ID_PATTERN)
    title: str
    kind: str
    qrels: str
    runs: str = Field(description="a folder of run files, or a glob pattern")
    topics: str | None = None
    run_metadata: str | None = None
    corpus: str | None = Field(None, description="the XML corpus (a folder, tar or zip of "
                               "articles) over which element runs are resolved (INEX tasks)")
    description: str = ""
    official_measure: str | None = None
    measures: list[str] | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    significance: dict[str, Any] = Field(
        default_factory=dict, description="keys of the top-level significance section to "
        "override for this task")
    reliability: ReliabilityConfig = Field(default_factory=ReliabilityConfig)


class SiteConfig(_Strict):
    campaign: CampaignConfig
    output: str = "site"
    publish_inputs: bool = Field(
        False, description="copy every task's qrels, topics, run metadata and runs (gzip) "
        "into the site, with their SHA-256, so the site archives the whole campaign")
    significance: SignificanceConfig = Field(default_factory=SignificanceConfig)
    memory_budget: Annotated[str | None, Flag("--memory-budget", metavar="SIZE")] = Field(
        None, description="read, validate and evaluate the runs in batches that fit this "
        "size (2G, 512M, bytes): bounded memory, identical results")
    limits: InputLimits = Field(
        default_factory=InputLimits, description="how large an input, its gunzipped data, a "
        "line, a field, a name and a YAML nesting may be (builder.formats.limits)")
    tasks: list[TaskConfig] = Field(min_length=1)

    @field_validator("memory_budget", mode="before")
    @classmethod
    def _size(cls, value: Any) -> Any:
        if isinstance(value, int | str) and not isinstance(value, bool):
            parse_size(str(value))  # ValueError: the config's problem, with the reason
            return str(value)
        return value


@dataclass(frozen=True)
class TaskSpec:
    """A task of the config with its paths resolved and its options validated."""

    id: str
    title: str
    description: str
    kind: TaskKind
    qrels: Path
    run_files: tuple[Path, ...]
    topics: Path | None
    run_metadata: Path | None
    official_measure: str
    measures: tuple[str, ...]
    options: BaseModel
    significance: SignificanceSettings | None = None
    """How every pair of runs is tested; None when the task's significance section disables it."""
    significance_measures: tuple[str, ...] = ()
    reliability: ReliabilityConfig | None = None
    """The reliability analyses of the task; None: none (commands, or disabled)."""
    findings: tuple[Finding, ...] = ()
    """What the run folder holds besides run files (subfolders, broken links), shown with the
    task's other input findings."""
    folders: tuple[Path, ...] = ()
    """The folders the task's keys name, resolved: its run folder (a glob's folder), the
    folders of its qrels, topics and run metadata as written, its corpus. With the config's
    folder they are the campaign's own (``SiteSpec.inside``)."""


@dataclass(frozen=True)
class SiteSpec:
    """The whole validated config: what the build reads."""

    path: Path
    base: Path
    campaign: CampaignConfig
    output: Path
    tasks: tuple[TaskSpec, ...]
    config: SiteConfig

    def relative(self, path: Path | str) -> str:
        """``path`` as the site and manifest name it: relative to the config's folder when
        inside it, else its file name alone. A published site never holds an absolute path
        (it would differ between machines and tell the build machine's folders) nor a
        ``../`` chain out of the config's folder."""
        # Not resolved: a broken link or a link loop of the run folder is named as it is.
        absolute = Path(os.path.abspath(self.base / path))
        if absolute.is_relative_to(self.base):
            return absolute.relative_to(self.base).as_posix()
        return absolute.name

    def inside(self, path: Path | str) -> bool:
        """Whether the real path of ``path`` (its links followed) lies in the campaign's own
        folders: the config's folder and the folders its tasks name. Only such a file is
        published: a run folder's link to ``~/.ssh/id_rsa`` is not part of the campaign."""
        real = Path(os.path.realpath(self.base / path))
        folders = (self.base, *(folder for task in self.tasks for folder in task.folders))
        return any(real.is_relative_to(folder) for folder in folders)
