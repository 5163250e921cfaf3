"""The settings of the significance tests: which test, which correction, alpha, B, seed.

Kept free of numpy and scipy so that the command line can offer the choices without loading them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Literal

DEFAULT_SEED = 20240601
"""The seed of every resampling unless the config or the command line gives another; the build
records the seed it used in the manifest."""

SignificanceTest = Literal["randomization", "bootstrap", "t-test", "wilcoxon", "sign", "tukey-hsd"]
"""The tests, those of ``TEST_LABELS`` (a test holds them equal): the config's choices and the
command line's (``--test``)."""
Correction = Literal["holm", "bonferroni", "bh", "none"]
"""The corrections, those of ``CORRECTION_LABELS``."""
TEST_LABELS: dict[SignificanceTest, str] = {
    "randomization": "Fisher's randomization test (paired sign flips)",
    "bootstrap": "studentized shifted paired bootstrap test (Sakai 2006)",
    "t-test": "paired t-test",
    "wilcoxon": "Wilcoxon signed-rank test",
    "sign": "sign test",
    "tukey-hsd": "randomised Tukey HSD (Carterette 2012)",
}
CORRECTION_LABELS: dict[Correction, str] = {
    "holm": "Holm",
    "bonferroni": "Bonferroni",
    "bh": "Benjamini-Hochberg",
    "none": "none",
}
JOINT_TESTS = {"tukey-hsd"}
"""Tests of all runs together, whose p-values need no multiple-comparison correction."""


@dataclass(frozen=True)
class SignificanceSettings:
    """How the pairs are tested; stated on every page that shows a result."""

    test: str = "randomization"
    correction: str = "holm"
    alpha: float = 0.05
    resamples: int = 10_000
    seed: int = DEFAULT_SEED
    ci_level: float = 0.95

    def __post_init__(self) -> None:
        if self.test not in TEST_LABELS:
            raise ValueError(f"unknown test {self.test!r}; known: {', '.join(TEST_LABELS)}")
        if self.correction not in CORRECTION_LABELS:
            known = ", ".join(CORRECTION_LABELS)
            raise ValueError(f"unknown correction {self.correction!r}; known: {known}")
        if not 0 < self.alpha < 1 or not 0 < self.ci_level < 1:
            raise ValueError("alpha and ci_level must lie strictly between 0 and 1")
        if self.resamples < 1:
            raise ValueError("the number of resamples B must be at least 1")

    @property
    def applied_correction(self) -> str:
        """The correction really applied: none for a joint test."""
        return "none" if self.test in JOINT_TESTS else self.correction

    def describe(self) -> str:
        """One sentence for a page: test, correction, alpha, B."""
        text = f"{TEST_LABELS[self.test]}, alpha = {self.alpha:g}"
        if self.test in {"randomization", "bootstrap", "tukey-hsd"}:
            text += f", B = {self.resamples:,}"
        if self.applied_correction != "none":
            text += f", {CORRECTION_LABELS[self.applied_correction]} correction over all pairs"
        return text

    def as_dict(self) -> dict[str, object]:
        """Plain values for the manifest: the correction really applied (none for a joint
        test, whatever the config's default says)."""
        return {**asdict(self), "correction": self.applied_correction}
