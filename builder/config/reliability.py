"""The settings of a task's reliability analyses (``site_config.yml`` task ``reliability``).

Kept free of numpy so that loading the config stays light. Cheap by default: the samples
re-score only the official measure (or the ``measures`` named), pool sampling runs where the
task kind re-scores incrementally (ad hoc, focused) unless asked for, and pool bias needs the
pool depth.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from builder.config.significance import DEFAULT_SEED

INCREMENTAL_KINDS = ("adhoc", "focused")
"""Kinds whose runs are re-scored under a pool sample without ranking them again."""


class ReliabilityConfig(BaseModel):
    """How far a task's results can be trusted: stability, error rate, ties, pool bias."""

    model_config = ConfigDict(extra="forbid", defer_build=True)  # as the schema's sections

    enabled: bool = Field(True, description="compute the task's reliability page")
    measures: list[str] | None = Field(
        None, description="measures to analyse (default: the official measure)")
    pool_sampling: bool | None = Field(
        None, description="sample the relevant units (default: on for ad hoc and focused tasks)")
    topic_sampling: bool = Field(True, description="sample the topics")
    error_rate: bool = Field(True, description="error and swap rates against topic-set size")
    ties: bool = Field(True, description="scores under the best and worst tie orders (ad hoc)")
    levels: list[float] = Field([0.8, 0.6, 0.4, 0.2], min_length=1,
                                description="shares of units or topics kept")
    iterations: int = Field(10, ge=1, description="samples per level")
    min_relevant: int = Field(10, ge=1, description="pool sampling studies the topics with at "
                              "least this many relevant units, the others left out of both "
                              "rankings (Pal et al. kept 99 of 107 topics with 10)")
    runs: list[str] | Annotated[int, Field(ge=1)] | None = Field(
        None, description="the runs analysed: a list of run names, or N for each team's N best "
        "runs by the official measure (teams from the run metadata's team column, a run "
        "without one its own team); default every accepted run")
    fuzziness: float = Field(0.05, ge=0, lt=1, description="error rate: smallest relative "
                             "difference that orders two runs")
    agreement: bool = Field(True, description="rank correlations between every pair of the "
                            "task's shown measures, over the runs and over (run, topic) scores")
    seed: int = Field(DEFAULT_SEED, description="seed of every sample")
    pool_depth: int | None = Field(
        None, ge=1, description="documents per pooled run judged (enables pool bias, ad hoc)")
    pooled_runs: list[str] | None = Field(
        None, description="runs that fed the pool (default: the run metadata's 'pooled' column "
        "where it has one, else every run)")

    def pool_sampling_for(self, kind: str) -> bool:
        return self.pool_sampling if self.pool_sampling is not None else kind in INCREMENTAL_KINDS
