"""Tests of the package as a whole: what ``import rankedu`` offers and what it loads.

How long the import takes depends on the machine and its load, so it is measured by
``make bench-per-list`` (benchmarks/bench_per_list.py), not asserted here.
"""

import subprocess
import sys

import pytest

import rankedu as rk

# Every name CONTRACT.md promises at the top level.
CONTRACT_METRICS = [
    "precision_at_k", "recall_at_k", "r_precision", "average_precision", "reciprocal_rank",
    "cumulative_gain", "dcg", "idcg", "ndcg", "err", "cascade_metric", "pair_ratio", "roc_auc",
    "gauc", "mean_average_precision", "mean_reciprocal_rank",
    "confusion_matrix", "accuracy", "precision", "recall", "true_positive_rate",
    "false_positive_rate", "f_beta",
]
CONTRACT_TREC = ["read_qrels", "read_run", "evaluate"]
# The agreement functions CONTRACT.md adds (each but qrels_agreement, a table, is explained).
CONTRACT_JUDGMENTS = ["cohen_kappa", "scott_pi", "gwet_ac1", "fleiss_kappa", "krippendorff_alpha",
                      "tau_ap", "rbo"]


def run_python(code):
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return result.stdout.strip()


@pytest.mark.parametrize("name", CONTRACT_METRICS + CONTRACT_TREC + CONTRACT_JUDGMENTS
                         + ["qrels_agreement"])
def test_every_contract_name_is_importable_from_rankedu(name):
    assert callable(getattr(rk, name, None)), f"rankedu.{name} is missing"


@pytest.mark.parametrize("name", CONTRACT_METRICS + CONTRACT_JUDGMENTS)
def test_every_contract_metric_has_an_explain_counterpart(name):
    assert callable(getattr(rk.explain, name, None)), f"rankedu.explain.{name} is missing"


def test_import_rankedu_does_not_import_sympy_or_matplotlib():
    loaded = run_python(
        "import sys, rankedu; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sympy', 'matplotlib')))"
    )
    assert loaded == "[]"


def test_import_rankedu_does_not_import_scikit_learn_or_pytrec_eval():
    loaded = run_python(
        "import sys, rankedu; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sklearn', 'pytrec_eval', 'scipy')))"
    )
    assert loaded == "[]"


def test_version_is_a_string():
    assert isinstance(rk.__version__, str)
