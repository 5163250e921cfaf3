"""Judgement pools: built from the runs before the qrels exist, and read back from the qrels.

``ranking``: each run's top documents per topic, in the evaluation's order. ``union``: the pool
of many runs, accumulated run file by run file (depth-k, Take@N, reciprocal rank fusion).
``selection``: which runs feed the pool. ``judgements``: what the qrels judged, per topic and
per run (the judgements page).

A package of the statistics layer: it ranks runs with the ad hoc measures' ordering (the layer
below) and is called by the command line and the analyse stage (the layers above), which read
the run files.
"""

STRATEGIES = ("depth", "take", "rrf")
"""How a pool orders (and, for the last two, cuts) each topic's documents (``union``)."""
RRF_K = 60
"""Reciprocal rank fusion's constant (Cormack et al.; trectools' ``rrf_den`` default)."""
