"""Tests of rankedu/explain.py: every metric's explanation, as CONTRACT.md's "Explanations" fixes it.

An explanation has ``.value`` (the number ``rk.<name>`` returns, to within 1e-12), ``.table`` (a
DataFrame, one row per step, ending in the running result), ``.tables`` (a dict of every table)
and shows itself in Jupyter as its tables and its value.
"""

import importlib
import inspect
import math

import numpy as np
import pandas as pd
import pytest

import rankedu as rk
from conftest import registry_arguments
from rankedu.trec.measures import MEASURES

SEED_RELS = [3, 2, 3, 0, 1, 2]
SEED_POOL = [3, 2, 3, 0, 1, 2, 3, 0]

# One call per public metric: (name, positional args, keyword args). Every measure of the
# registry is called as evaluate calls it (a measure added there is checked here at once); the
# other metrics by hand.
CALLS = [
    *((measure.function.__name__, (),
       registry_arguments(measure, [1, 0, 1, 1, 0] if measure.unit_gains else SEED_RELS, 4))
      for measure in MEASURES.values()),
    ("cumulative_gain", (SEED_RELS, 4), {}),
    ("dcg", (SEED_RELS, 6), {"gain": "exponential", "discount": "jarvelin"}),
    ("idcg", (SEED_POOL, 6), {}),
    ("cascade_metric", (SEED_RELS, lambda r: 1 / math.log2(r + 1)), {"max_grade": 3}),
    ("pair_ratio", ([4, 3, 2, 1], [4.0, 1.0, 3.0, 2.0]), {}),
    ("roc_auc", ([1, 0, 1, 0], [0.9, 0.9, 0.3, 0.1]), {}),
    ("gauc", (["a", "a", "a", "b", "b", "c", "c"], [1, 0, 0, 1, 0, 1, 1],
              [0.9, 0.5, 0.95, 0.3, 0.6, 0.2, 0.1]), {"weight": "clicks"}),
    ("mean_average_precision", ([[1, 1, 0, 1, 0, 0, 1], [1, 0, 1, 0, 1]],), {"n_relevant": [4, 5]}),
    ("mean_reciprocal_rank", ([[0, 1], [1], [0, 0, 0]],), {}),
    ("accuracy", ([1, 1, 1, 1, 0, 0, 0, 0, 0, 0], [1, 1, 1, 0, 1, 1, 0, 0, 0, 0]), {}),
    ("precision", ([1, 1, 1, 1, 0, 0, 0, 0, 0, 0], [1, 1, 1, 0, 1, 1, 0, 0, 0, 0]), {}),
    ("recall", ([1, 1, 1, 1, 0, 0, 0, 0, 0, 0], [1, 1, 1, 0, 1, 1, 0, 0, 0, 0]), {}),
    ("true_positive_rate", ([1, 1, 1, 1, 0, 0, 0, 0, 0, 0], [1, 1, 1, 0, 1, 1, 0, 0, 0, 0]), {}),
    ("false_positive_rate", ([1, 1, 1, 1, 0, 0, 0, 0, 0, 0], [1, 1, 1, 0, 1, 1, 0, 0, 0, 0]), {}),
    ("f_beta", ([1, 1, 1, 1, 0, 0, 0, 0, 0, 0], [1, 1, 1, 0, 1, 1, 0, 0, 0, 0]), {"beta": 2.0}),
    ("kendall_tau", ([4, 3, 2, 1], [4.0, 1.0, 3.0, 2.0]), {}),
    ("goodman_kruskal_gamma", ([4, 3, 3, 1], [4.0, 1.0, 3.0, 2.0]), {}),
    ("f_at_k", (SEED_RELS, 4), {"beta": 0.5, "n_relevant": 7}),
    ("interpolated_precision", ([1, 0, 1, 1, 0],), {"recall": 0.5, "n_relevant": 4}),
    ("eleven_point_average_precision", ([1, 0, 1, 1, 0],), {"n_relevant": 4}),
    ("mean_precision_at_ranks", ([1, 0, 1, 1, 0], 4), {}),
    ("delong_standard_error", ([1, 0, 1, 0, 1, 0], [0.9, 0.9, 0.3, 0.1, 0.7, 0.4]), {}),
    ("auc_standard_error", ([1, 0, 1, 0, 1, 0], [0.9, 0.9, 0.3, 0.1, 0.7, 0.4]), {}),
    ("cohen_kappa", ([0, 1, 2, 2, 3], [0, 2, 2, 1, 3]), {"weights": "linear"}),
    ("scott_pi", ([1, 1, 0, 0, 1], [1, 0, 0, 0, 1]), {}),
    ("gwet_ac1", ([1, 1, 0, 0, 1], [1, 0, 0, 0, 1]), {}),
    ("fleiss_kappa", ([[0, 3], [1, 2], [3, 0], [2, 1]],), {}),
    ("krippendorff_alpha", ([[1, 2, 3, math.nan], [1, 2, 2, 3], [math.nan, 2, 3, 3]],),
     {"level": "ordinal"}),
    ("tau_ap", ([5, 4, 3, 2, 1], [4, 5, 3, 3, 1]), {}),
    ("rbo", ([1, 2, 3, 4], [2, 1, 3, 5, 6]), {"p": 0.8, "kind": "res"}),
    ("sample_ratio_mismatch", (5_000, 5_150), {"expected": 0.5}),
    ("minimum_detectable_effect", (2.0, 500), {"alpha": 0.01, "power": 0.9}),
    ("ips", ([1, 0, 1], [0.5, 0.5, 0.25], [1.0, 0.0, 0.5]), {"max_weight": 1.5}),
    ("snips", ([1, 0, 1], [0.5, 0.5, 0.25], [1.0, 0.0, 0.5]), {}),
    ("direct_method", ([0.5, 0.25, 0.75],), {}),
    ("doubly_robust", ([1, 0], [0.5, 0.25], [1.0, 1.0], [0.5, 0.5], [0.5, 0.5]), {}),
    ("switch_dr", ([1, 0], [0.5, 0.25], [1.0, 1.0], [0.5, 0.5], [0.5, 0.5]), {"tau": 3}),
    ("effective_sample_size", ([4, 1, 0, 2],), {}),
    ("alpha_ndcg", ([{"a"}, {"a"}, {"a", "b"}, set(), {"c"}],), {"k": 4, "ideal": "exact"}),
    ("err_ia", ([{"a"}, {"a", "b"}, set()],), {"weights": {"a": 0.7, "b": 0.3}}),
    ("nrbp", ([{"a"}, {"a", "b"}, set()],), {"beta": 0.8}),
    ("precision_ia", ([{"a"}, {"a", "b"}, set()],), {"k": 5}),
    ("subtopic_recall", ([{"a"}, set()],), {"intents": ["a", "b"]}),
    ("d_sharp_ndcg", ([{"a": 2}, {"b": 1}, {}],), {"k": 2, "gamma": 0.3}),
    ("catalog_coverage", ({"u1": ["a", "b"], "u2": ["a", "c"]}, ["a", "b", "c", "d"]), {}),
    ("gini", ([3, 0, 1, 4],), {}),
    ("entropy", ([3, 0, 1, 4],), {"base": 3}),
    ("average_popularity", ({"u1": ["a", "b"], "u2": ["c"]}, {"a": 10, "b": 2, "c": 1}), {}),
    ("long_tail_share", ({"u1": ["a", "b"], "u2": ["c", "d"]}, {"b", "c", "d"}), {}),
    ("novelty", ({"u1": ["a", "b"], "u2": ["b"]}, {"a": 8, "b": 2}), {"n_users": 8}),
    ("intra_list_diversity", (["a", "b", "c"], lambda x, y: float(x != y) / 2), {}),
    ("sampled_hit_rate", (30, 1_000, 50, 5), {}),
]
IDS = [name for name, _, _ in CALLS]
# Explainers whose value is not a float, each checked in its module's tests.
NOT_FLOAT = {"confusion_matrix": "a ConfusionMatrix", "click_probabilities": "an array",
             "condensed_list": "an array", "delong_test": "a DeLongResult",
             "holm": "an array", "paired_t_test": "a PairedTTestResult",
             "ab_test": "an ABTestResult", "delta_method_ratio": "a DeltaMethodResult",
             "interleaving_preference": "a tuple of probabilities",
             "pbm_propensities": "an array"}


def test_every_explainer_is_called_here():
    called = set(IDS) | set(NOT_FLOAT) | {"Explanation", "query"}
    assert called == set(rk.explain.__all__)


@pytest.mark.parametrize("name, args, kwargs", CALLS, ids=IDS)
def test_explanation_value_is_the_functions_float(name, args, kwargs):
    explanation = getattr(rk.explain, name)(*args, **kwargs)
    value = getattr(rk, name)(*args, **kwargs)
    assert type(value) is float
    assert type(explanation.value) is float
    assert abs(explanation.value - value) <= 1e-12 or explanation.value == value


@pytest.mark.parametrize("name, args, kwargs", CALLS, ids=IDS)
def test_explanation_has_a_table_and_a_dict_of_tables(name, args, kwargs):
    explanation = getattr(rk.explain, name)(*args, **kwargs)
    assert isinstance(explanation.table, pd.DataFrame)
    assert len(explanation.table) >= 1
    assert isinstance(explanation.tables, dict) and explanation.tables
    assert all(isinstance(t, pd.DataFrame) for t in explanation.tables.values())
    assert any(t is explanation.table or t.equals(explanation.table) for t in explanation.tables.values())


@pytest.mark.parametrize("name, args, kwargs", CALLS, ids=IDS)
def test_explanation_table_ends_in_the_running_result(name, args, kwargs, running_result):
    explanation = getattr(rk.explain, name)(*args, **kwargs)
    assert running_result(explanation.table) == pytest.approx(explanation.value, abs=1e-12)


@pytest.mark.parametrize("name, args, kwargs", CALLS, ids=IDS)
def test_explain_takes_the_same_arguments_as_the_function(name, args, kwargs):
    assert inspect.signature(getattr(rk.explain, name)) == inspect.signature(getattr(rk, name))


@pytest.mark.parametrize("name, args, kwargs", CALLS, ids=IDS)
def test_explanation_shows_its_tables_and_value_in_jupyter(name, args, kwargs):
    from IPython.core.formatters import DisplayFormatter

    explanation = getattr(rk.explain, name)(*args, **kwargs)
    shown, _ = DisplayFormatter().format(explanation)
    html, text = shown.get("text/html", ""), shown["text/plain"]
    assert html.count("<table") == len(explanation.tables)
    for shown_text in (html, text):
        assert repr(explanation.value) in shown_text or f"{explanation.value:.4f}"[:-1] in shown_text
    # nbval compares text/plain: it must not carry a memory address, and must be reproducible.
    assert " at 0x" not in text
    assert DisplayFormatter().format(getattr(rk.explain, name)(*args, **kwargs))[0]["text/plain"] == text


def test_explanation_accepts_keyword_arguments_as_the_function_does():
    by_position = rk.explain.ndcg(SEED_RELS, 6, pool=SEED_POOL)
    by_keyword = rk.explain.ndcg(rels=SEED_RELS, k=6, pool=SEED_POOL)
    assert by_position.value == by_keyword.value == rk.ndcg(rels=SEED_RELS, k=6, pool=SEED_POOL)


def _cut(values):
    """The seed's way of writing numbers: cut, not rounded, to two decimals."""
    return [math.floor(100 * v + 1e-9) / 100 for v in values]


def test_seed_003_dcg_table_is_the_posts_table_in_its_column_order():
    # The post's table: i | rel_i | log2(i+1) | rel_i/log2(i+1), each number cut to 2 decimals.
    table = rk.explain.dcg(SEED_RELS).table
    assert len(table) == 6
    first_four = [table.iloc[:, j].to_numpy(dtype=float) for j in range(4)]
    assert first_four[0].tolist() == [1, 2, 3, 4, 5, 6]
    assert first_four[1].tolist() == SEED_RELS
    assert _cut(first_four[2]) == [1, 1.58, 2, 2.32, 2.58, 2.8]
    assert _cut(first_four[3]) == [3, 1.26, 1.5, 0, 0.38, 0.71]


def test_seed_003_ideal_dcg_table_is_the_posts_second_table():
    tables = list(rk.explain.ndcg(SEED_RELS, 6, pool=SEED_POOL).tables.values())
    ideal = tables[1]
    assert len(ideal) == 6
    assert ideal.iloc[:, 1].to_numpy(dtype=float).tolist() == [3, 3, 3, 2, 2, 1]
    assert _cut(ideal.iloc[:, 3].to_numpy(dtype=float)) == [3, 1.89, 1.5, 0.86, 0.77, 0.35]
    assert round(float(ideal.iloc[-1, -1]), 3) == 8.384


def test_explain_confusion_matrix_lays_out_seed_000s_matrix():
    # Seed 000: rows Target P / Target N, columns Predict P / Predict N.
    explanation = rk.explain.confusion_matrix([1, 1, 1, 1, 0, 0, 0, 0, 0, 0],
                                              [1, 1, 1, 0, 1, 1, 0, 0, 0, 0])
    assert explanation.table.to_numpy().tolist() == [[3, 1], [2, 4]]
    value = explanation.value
    assert (value.tp, value.fp, value.fn, value.tn) == (3, 2, 1, 4)


def test_explanations_of_the_same_call_are_equal_tables():
    first = rk.explain.err(SEED_RELS, max_grade=3)
    second = rk.explain.err(np.array(SEED_RELS), max_grade=3)
    assert first.value == second.value
    for a, b in zip(first.tables.values(), second.tables.values()):
        pd.testing.assert_frame_equal(a, b)


def _explainers():
    """Every rk.explain.<name> built from a metric's step function (all but the two written
    by hand, and the class)."""
    return sorted(set(rk.explain.__all__) - {"Explanation", "confusion_matrix", "query"})


@pytest.mark.parametrize("name", _explainers())
def test_every_step_function_takes_the_metrics_arguments_by_the_same_names(name):
    # explain passes arguments by name (issue 11), so a step function must accept each of the
    # metric's parameters under its own name.
    metric = getattr(rk, name)
    module = importlib.import_module(metric.__module__)
    steps = inspect.signature(getattr(module, f"_{name}_steps")).parameters
    missing = [p for p in inspect.signature(metric).parameters if p not in steps]
    assert not missing, f"_{name}_steps lacks {missing}"


def test_explain_passes_arguments_by_name_not_by_position():
    # recall_at_k(rels, k, *, n_relevant, threshold): given by keyword in a different order
    # than the step function's, they must still land in the right parameters.
    explanation = rk.explain.recall_at_k([3, 1, 2, 0], 4, threshold=2, n_relevant=5)
    assert explanation.value == rk.recall_at_k([3, 1, 2, 0], 4, n_relevant=5, threshold=2) == 2 / 5


def test_explain_of_a_huge_cutoff_is_a_short_table_ending_in_the_value(running_result):
    for call in (
        lambda m: m.average_precision([1, 0, 1], 10**12, n_relevant=3),
        lambda m: m.reciprocal_rank([0, 1], 10**12),
        lambda m: m.f_at_k([1, 0, 1], 10**12),
        lambda m: m.mean_precision_at_ranks([1, 0, 1], 10**12),
    ):
        explanation = call(rk.explain)
        assert len(explanation.table) == 3 + 1000 or len(explanation.table) == 2 + 1000
        assert explanation.table["i"].iloc[-1] == 10**12
        assert running_result(explanation.table) == pytest.approx(explanation.value, abs=1e-15)
        assert explanation.value == call(rk)
