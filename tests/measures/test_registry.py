"""The registry is complete as soon as ``builder.measures`` is imported, and reads measure
requests the same way for every command."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from builder.measures.registry import Aggregation, select_measures
from tests.conftest import ROOT

LIST_REGISTRY = (
    "import json\nfrom builder.measures.registry import REGISTRY\n"
    "families = {}\nfor (family, name) in REGISTRY: families.setdefault(family, []).append(name)\n"
    "print(json.dumps(families))\n"
)
IMPORT_EVERYTHING = (
    "import importlib, pkgutil, builder\n"
    "for module in pkgutil.walk_packages(builder.__path__, 'builder.'):\n"
    "    if module.name != 'builder.__main__':  # runs the command line\n"
    "        importlib.import_module(module.name)\n"
)
KINDS = "from builder.tasks import KIND_MODULES, get_kind\nprint(sorted({get_kind(k).family for k in KIND_MODULES}))\n"


def fresh(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_importing_builder_measures_alone_declares_every_family_in_full():
    alone = json.loads(fresh("import builder.measures\n" + LIST_REGISTRY))
    everything = json.loads(fresh(IMPORT_EVERYTHING + LIST_REGISTRY))
    assert alone == everything
    families = json.loads(fresh(KINDS).replace("'", '"'))
    assert sorted(alone) == families
    assert all(len(names) > 10 for names in alone.values())


def test_measure_requests():
    assert select_measures("adhoc", ["P.5,10"]) == ["P_5", "P_10"]
    assert select_measures("adhoc", ["ndcg_cut"])[:2] == ["ndcg_cut_5", "ndcg_cut_10"]
    assert select_measures("adhoc", ["all_trec"]) == select_measures("adhoc", [])
    assert select_measures("focused", ["MAiP", "iP[0.01]"]) == ["iP[0.01]", "MAiP"]
    with pytest.raises(ValueError, match="unknown measure 'P.7'"):
        select_measures("adhoc", ["P.7"])


def test_aggregations():
    values = np.array([[0.5, 0.0], [0.25, 2.0]])
    num_q = np.array([2, 0])
    total = values.sum(axis=1)
    assert Aggregation.MEAN.finish(total, num_q).tolist() == [0.25, 0.0]  # no topic: 0
    assert Aggregation.SUM.finish(total, num_q).tolist() == [0.5, 2.25]
    assert Aggregation.COUNT.finish(total, num_q).tolist() == [2, 0]
    logs = Aggregation.GMEAN.terms(np.array([0.25, 0.0])).sum()
    assert Aggregation.GMEAN.finish(logs, 2) == pytest.approx((0.25 * 0.00001) ** 0.5)


def test_display_names_are_declared_with_the_measures_and_follow_cutoffs():
    """The names the site shows (nDCG@10, P@5, MAP, R-prec, iP[0.10]) come from the registry;
    a measure asked for with other parameters (``-m P.7``) follows its declared siblings; a
    measure without a display name keeps its official one."""
    import builder.measures  # noqa: F401  (every family registered)
    from builder.measures.registry import display_name, get

    assert get("adhoc", "ndcg_cut_10").label == "nDCG@10"
    assert get("adhoc", "map").label == "MAP"
    assert get("adhoc", "bpref").display_name == "" or get("adhoc", "bpref").label == "bpref"
    assert display_name("adhoc", "P_5") == "P@5"
    assert display_name("adhoc", "P_7") == "P@7"
    assert display_name("adhoc", "iprec_at_recall_0.10") == "iP[0.10]"
    assert display_name("adhoc", "Rprec") == "R-prec"
    assert display_name("focused", "iP[0.01]") == "iP[0.01]"
    assert display_name("in-context", "MAgP") == "MAgP"
    assert display_name("adhoc", "no_such_measure") == "no_such_measure"


def test_measures_asked_with_other_parameters_follow_their_siblings_display_template():
    """``-m ndcg@7``, ``-m iprec_at_recall.0.15`` and ``-m Rprec_mult.3`` print measures the
    registry does not declare: each is named by its family's template with its own parameter,
    as its declared siblings are (``nDCG@20 (gdeval)``, ``iP[0.10]``, ``R-prec×2``)."""
    import builder.measures  # noqa: F401  (every family registered)
    from builder.measures.registry import display_name, get

    assert display_name("adhoc", "ndcg@7") == "nDCG@7 (gdeval)"
    assert display_name("adhoc", "ndcg@7").replace("7", "20") == get("adhoc", "ndcg@20").label
    assert display_name("adhoc", "iprec_at_recall_0.15") == "iP[0.15]"
    assert display_name("adhoc", "Rprec_mult_3.00") == "R-prec×3"
    assert display_name("adhoc", "Rprec_mult_2.00") == get("adhoc", "Rprec_mult_2.00").label
    assert display_name("adhoc", "ndcg_cut_7") == "nDCG@7"
    assert display_name("adhoc", "P_avgjg") == "P_avgjg"  # not a parameter: as it is
