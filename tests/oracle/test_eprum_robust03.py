"""Oracle: EPRUM's classical user model on robust03 is trec_eval's precision at natural recall.

With navigation only to the retrieved document and binary idealism (judged relevant at level 1),
EPRUM's average over the natural recall points must be trec_eval 9.0.8's ``map`` and its value
at recall 1 ``recip_rank``, for every run and topic, to the 4 printed decimals.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from builder.measures.eprum.models import (
    UserModel,
    document_ideal,
    document_pointers,
    navigation_table,
)
from builder.measures.eprum.scores import IdealSet, score_rows, topic_results
from builder.tasks.adhoc import KIND, AdhocOptions

PRINTED = 0.00005 + 1e-9


def test_classical_eprum_equals_trec_eval_on_robust03(shared_data):
    folder = shared_data / "robust03"
    qrels = KIND.read_qrels(folder / "robust03_qrels.txt")
    reads = KIND.read_runs(sorted((folder / "runs").iterdir()), qrels, AdhocOptions())
    runs = pd.concat([r.table for r in reads], ignore_index=True)
    runs = runs[runs["topic"].isin(set(qrels["topic"]))]
    ideal = document_ideal(qrels)
    pointers = document_pointers(runs[["run", "topic", "doc", "score"]], depth=1000)
    navigation = navigation_table(pointers, ideal, UserModel("classical"), ["run"])
    elements = ideal[["topic", "element"]].assign(idealism=1.0)
    names = sorted(runs["run"].unique())
    ours = score_rows(topic_results(navigation, IdealSet(elements), names))

    reference = pd.read_csv(
        folder / "trec_eval_9.0.8.q.c.M1000.tsv.gz",
        sep="\t",
        names=["run", "measure", "topic", "value"],
        dtype={"topic": str, "run": str},
    )
    wanted = reference["measure"].isin(["map", "recip_rank"]) & (reference["topic"] != "all")
    reference = reference[wanted]
    reference = reference.assign(
        measure=reference["measure"].map({"map": "avgP", "recip_rank": "P[r=1]"}),
        value=reference["value"].astype(float),
    )
    joined = reference.merge(ours, on=["run", "topic", "measure"], how="left", suffixes=("_ref", ""))
    assert len(joined) == 2 * 17 * 100
    assert not joined["value"].isna().any()
    far = np.abs(joined["value"] - joined["value_ref"]) > PRINTED
    assert not far.any(), joined[far].head()
