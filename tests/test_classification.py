"""Tests of rankedu/metrics/classification.py: confusion matrix and the ratios built on it.

Written from CONTRACT.md and the seed posts (000, 004), independently of the implementation.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rankedu as rk

# TP = 3, FN = 1, FP = 2, TN = 4: TP + FN (4) differs from TP + TN (7).
Y_TRUE = [1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
Y_PRED = [1, 1, 1, 0, 1, 1, 0, 0, 0, 0]

RATIOS = ["accuracy", "precision", "recall", "true_positive_rate", "false_positive_rate", "f_beta"]


@st.composite
def label_pairs(draw, max_size=30):
    n = draw(st.integers(1, max_size))
    y_true = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    y_pred = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    return y_true, y_pred


def test_confusion_matrix_counts_the_four_cells():
    matrix = rk.confusion_matrix(Y_TRUE, Y_PRED)
    assert (matrix.tp, matrix.fp, matrix.fn, matrix.tn) == (3, 2, 1, 4)
    for count in (matrix.tp, matrix.fp, matrix.fn, matrix.tn):
        assert isinstance(count, int)


def test_seed_000_accuracy_is_tp_plus_tn_over_total_not_tp_plus_fn():
    # Seed 000 writes (TP + FN) / total; that would be 0.4 here.
    assert rk.accuracy(Y_TRUE, Y_PRED) == 0.7
    assert (3 + 1) / 10 != rk.accuracy(Y_TRUE, Y_PRED)


def test_precision_recall_and_rates_of_the_example():
    assert rk.precision(Y_TRUE, Y_PRED) == pytest.approx(3 / 5, abs=1e-12)
    assert rk.recall(Y_TRUE, Y_PRED) == pytest.approx(3 / 4, abs=1e-12)
    assert rk.true_positive_rate(Y_TRUE, Y_PRED) == rk.recall(Y_TRUE, Y_PRED)
    assert rk.false_positive_rate(Y_TRUE, Y_PRED) == pytest.approx(2 / 6, abs=1e-12)


def test_f_beta_is_the_weighted_harmonic_mean():
    p, r = 3 / 5, 3 / 4
    for beta in (0.5, 1.0, 2.0):
        expected = (1 + beta**2) * p * r / (beta**2 * p + r)
        assert rk.f_beta(Y_TRUE, Y_PRED, beta=beta) == pytest.approx(expected, abs=1e-12)
    assert rk.f_beta(Y_TRUE, Y_PRED) == rk.f_beta(Y_TRUE, Y_PRED, beta=1.0)


def test_seed_004_f1_is_2tp_over_2tp_plus_fp_plus_fn():
    assert rk.f_beta(Y_TRUE, Y_PRED) == pytest.approx(2 * 3 / (2 * 3 + 2 + 1), abs=1e-12)


def test_seed_004_predicting_no_click_scores_accuracy_above_99_percent():
    # Three clicks in a thousand impressions; a model that predicts "no click" everywhere.
    y_true = [1] * 3 + [0] * 997
    y_pred = [0] * 1000
    assert rk.accuracy(y_true, y_pred) == pytest.approx(0.997, abs=1e-12)
    assert rk.accuracy(y_true, y_pred) > 0.99
    assert rk.recall(y_true, y_pred) == 0.0
    assert rk.precision(y_true, y_pred) == 0.0  # 0 / 0
    assert rk.f_beta(y_true, y_pred) == 0.0


@pytest.mark.parametrize("name", ["precision", "recall", "true_positive_rate", "f_beta"])
def test_a_ratio_with_zero_denominator_is_0(name):
    # No positive at all and none predicted: TP+FP, TP+FN and P+R are all 0.
    value = getattr(rk, name)([0, 0], [0, 0])
    assert type(value) is float
    assert value == 0.0


def test_false_positive_rate_without_negatives_is_0():
    value = rk.false_positive_rate([1, 1], [1, 0])
    assert type(value) is float
    assert value == 0.0


def test_f_beta_is_0_when_precision_and_recall_are_0():
    assert rk.f_beta([1, 0], [0, 1]) == 0.0


def test_explain_accuracy_shows_the_confusion_counts(column_like):
    explanation = rk.explain.accuracy(Y_TRUE, Y_PRED)
    assert explanation.value == 0.7
    tables = list(getattr(explanation, "tables", {}).values()) or [explanation.table]
    text = "\n".join(table.to_string() for table in tables)
    for count in ("3", "2", "1", "4"):
        assert count in text


@pytest.mark.parametrize("name", RATIOS)
def test_explain_value_equals_the_function_on_the_example(name):
    assert getattr(rk.explain, name)(Y_TRUE, Y_PRED).value == getattr(rk, name)(Y_TRUE, Y_PRED)


# --- properties and scikit-learn ------------------------------------------------------------


@given(label_pairs())
def test_confusion_matrix_agrees_with_sklearn(case):
    from sklearn.metrics import confusion_matrix

    y_true, y_pred = case
    (tn, fp), (fn, tp) = confusion_matrix(y_true, y_pred, labels=[0, 1])
    matrix = rk.confusion_matrix(y_true, y_pred)
    assert (matrix.tp, matrix.fp, matrix.fn, matrix.tn) == (tp, fp, fn, tn)


@given(label_pairs(), st.sampled_from([0.5, 1.0, 2.0, 3.0]))
def test_ratios_agree_with_sklearn_including_zero_division(case, beta):
    from sklearn import metrics

    y_true, y_pred = case
    assert rk.accuracy(y_true, y_pred) == pytest.approx(metrics.accuracy_score(y_true, y_pred), abs=1e-12)
    kwargs = dict(labels=[0, 1], pos_label=1, zero_division=0)
    assert rk.precision(y_true, y_pred) == pytest.approx(metrics.precision_score(y_true, y_pred, **kwargs), abs=1e-12)
    assert rk.recall(y_true, y_pred) == pytest.approx(metrics.recall_score(y_true, y_pred, **kwargs), abs=1e-12)
    assert rk.f_beta(y_true, y_pred) == pytest.approx(metrics.f1_score(y_true, y_pred, **kwargs), abs=1e-12)
    assert rk.f_beta(y_true, y_pred, beta=beta) == pytest.approx(
        metrics.fbeta_score(y_true, y_pred, beta=beta, **kwargs), abs=1e-12
    )


@given(label_pairs())
def test_fpr_is_fp_over_fp_plus_tn(case):
    y_true, y_pred = case
    fp = sum(t == 0 and p == 1 for t, p in zip(y_true, y_pred))
    tn = sum(t == 0 and p == 0 for t, p in zip(y_true, y_pred))
    expected = fp / (fp + tn) if fp + tn else 0.0
    assert rk.false_positive_rate(y_true, y_pred) == pytest.approx(expected, abs=1e-12)


@given(label_pairs(), st.sampled_from(RATIOS))
def test_explain_values_equal_the_functions(case, name):
    y_true, y_pred = case
    assert abs(getattr(rk.explain, name)(y_true, y_pred).value - getattr(rk, name)(y_true, y_pred)) <= 1e-12


@pytest.mark.parametrize("convert", [list, tuple, np.array, lambda x: np.array(x, dtype=bool)],
                         ids=["list", "tuple", "int-array", "bool-array"])
def test_lists_tuples_and_arrays_give_the_same_float(convert):
    for name in RATIOS:
        value = getattr(rk, name)(convert(Y_TRUE), convert(Y_PRED))
        assert type(value) is float, name
        assert value == getattr(rk, name)(Y_TRUE, Y_PRED), name
    matrix = rk.confusion_matrix(convert(Y_TRUE), convert(Y_PRED))
    assert (matrix.tp, matrix.fp, matrix.fn, matrix.tn) == (3, 2, 1, 4)
