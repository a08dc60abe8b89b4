"""Tests of rankedu/metrics/auc_uncertainty.py: Hanley and McNeil's standard error and DeLong's test.

Independently of the implementation: against the formula in Fractions from the pair-by-pair
AUC, an O(n^2) DeLong in plain Python, and seeded bootstraps.
"""

import inspect
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rankedu as rk
from rankedu.metrics.auc_uncertainty import delong_standard_error
from test_auc import exact_auc, labelled_scores


# --- Hanley and McNeil's standard error ---------------------------------------------------------


def hanley_mcneil_exact(labels, scores):
    """The formula in Fractions, from the pair-by-pair AUC."""
    a = exact_auc(labels, scores)
    n_pos, n_neg = sum(labels), len(labels) - sum(labels)
    q1, q2 = a / (2 - a), 2 * a * a / (1 + a)
    return (a * (1 - a) + (n_pos - 1) * (q1 - a * a) + (n_neg - 1) * (q2 - a * a)) / (n_pos * n_neg)


@given(labelled_scores(max_size=30))
def test_auc_standard_error_is_hanley_and_mcneils_formula(case):
    labels, scores = case
    assert rk.auc_standard_error(labels, scores) == pytest.approx(
        math.sqrt(hanley_mcneil_exact(labels, scores)), rel=1e-12, abs=1e-15)


def test_auc_standard_error_is_close_to_a_bootstrap_on_a_large_sample():
    # Resample positives and negatives separately (the formula holds n+ and n- fixed). The
    # bootstrap SD of 2,000 resamples has a Monte Carlo error of about 1.6%; Hanley-McNeil's
    # closed-form theta1, theta2 are exact for exponential scores, so 5% is a meaningful tolerance.
    rng = np.random.default_rng(1982)
    positives, negatives = rng.exponential(2.0, 400), rng.exponential(1.0, 600)
    labels = np.r_[np.ones(400, dtype=int), np.zeros(600, dtype=int)]
    se = rk.auc_standard_error(labels, np.r_[positives, negatives])
    aucs = [rk.roc_auc(labels, np.r_[rng.choice(positives, 400), rng.choice(negatives, 600)])
            for _ in range(2000)]
    assert se == pytest.approx(float(np.std(aucs, ddof=1)), rel=0.05)


def test_explain_auc_standard_error_shows_the_formulas_quantities(running_result):
    labels = [1, 1, 1, 0, 0, 0, 0, 1, 0, 1]
    scores = [0.9, 0.8, 0.35, 0.7, 0.3, 0.2, 0.1, 0.6, 0.5, 0.4]
    explanation = rk.explain.auc_standard_error(labels, scores)
    rows = explanation.table.set_index("quantity")["value"]
    assert rows["AUC"] == 0.8 and rows["n+"] == 5 and rows["n-"] == 5
    assert rows["theta1"] == pytest.approx(0.8 / 1.2, abs=1e-15)
    assert rows["theta2"] == pytest.approx(2 * 0.64 / 1.8, abs=1e-15)
    assert rows["SE^2"] == pytest.approx(float(hanley_mcneil_exact(labels, scores)), rel=1e-12)
    assert running_result(explanation.table) == explanation.value == rk.auc_standard_error(labels, scores)


def test_auc_standard_error_is_0_for_a_perfect_ranking_and_needs_both_classes():
    assert rk.auc_standard_error([1, 1, 0, 0], [4, 3, 2, 1]) == 0.0
    with pytest.raises(ValueError, match="labels must hold both classes"):
        rk.auc_standard_error([1, 1], [0.2, 0.1])


# --- DeLong's test ------------------------------------------------------------------------------


def delong_pairwise(labels, a, b):
    """DeLong et al. (1988) pair by pair, O(n^2), in plain Python."""
    pos = [i for i, y in enumerate(labels) if y == 1]
    neg = [i for i, y in enumerate(labels) if y == 0]

    def psi(x, y):
        return 1.0 if x > y else 0.5 if x == y else 0.0

    def components(s):
        v10 = [sum(psi(s[i], s[j]) for j in neg) / len(neg) for i in pos]
        v01 = [sum(psi(s[i], s[j]) for i in pos) / len(pos) for j in neg]
        return v10, v01

    (a10, a01), (b10, b01) = components(a), components(b)

    def cov(x, y):
        mx, my = sum(x) / len(x), sum(y) / len(y)
        return sum((u - mx) * (v - my) for u, v in zip(x, y)) / (len(x) - 1)

    auc_a, auc_b = sum(a10) / len(pos), sum(b10) / len(pos)
    variance = ((cov(a10, a10) + cov(b10, b10) - 2 * cov(a10, b10)) / len(pos)
                + (cov(a01, a01) + cov(b01, b01) - 2 * cov(a01, b01)) / len(neg))
    return auc_a, auc_b, variance


@st.composite
def two_models(draw):
    labels, scores_a = draw(labelled_scores(min_size=4, max_size=30).filter(
        lambda case: 2 <= sum(case[0]) <= len(case[0]) - 2))
    scores_b = draw(st.lists(st.integers(0, 6).map(lambda s: s / 4), min_size=len(labels), max_size=len(labels)))
    return labels, scores_a, scores_b


@given(two_models())
def test_delong_variance_equals_a_direct_pairwise_computation(case):
    labels, a, b = case
    auc_a, auc_b, variance = delong_pairwise(labels, a, b)
    result = rk.delong_test(labels, a, b)
    assert result.auc_a == pytest.approx(auc_a, abs=1e-12) and result.auc_a == rk.roc_auc(labels, a)
    assert result.auc_b == pytest.approx(auc_b, abs=1e-12) and result.auc_b == rk.roc_auc(labels, b)
    assert result.difference == pytest.approx(auc_a - auc_b, abs=1e-12)
    assert result.standard_error == pytest.approx(math.sqrt(max(variance, 0.0)), abs=1e-9)
    if result.standard_error > 1e-9:
        assert result.z == pytest.approx(result.difference / result.standard_error, rel=1e-9)
        assert result.p_value == pytest.approx(math.erfc(abs(result.z) / math.sqrt(2)), rel=1e-12)


@given(two_models())
def test_delong_is_antisymmetric_in_the_two_models(case):
    labels, a, b = case
    ab, ba = rk.delong_test(labels, a, b), rk.delong_test(labels, b, a)
    assert ab.difference == -ba.difference and ab.standard_error == pytest.approx(ba.standard_error, abs=1e-15)
    assert ab.p_value == ba.p_value or (math.isnan(ab.p_value) and math.isnan(ba.p_value))


def test_delong_standard_error_is_close_to_a_bootstrap_of_the_auc_difference():
    # Two correlated models on the same 600 items; the bootstrap resamples items (positives and
    # negatives separately) and recomputes both AUCs on each resample. 2,000 resamples give the
    # bootstrap SD a Monte Carlo error of about 1.6%; DeLong's SE is a large-sample estimate of
    # the same quantity, so they must agree within 7%.
    rng = np.random.default_rng(1988)
    labels = np.r_[np.ones(250, dtype=int), np.zeros(350, dtype=int)]
    signal = rng.normal(size=600) + 1.0 * labels
    a = signal + rng.normal(0, 0.7, 600)
    b = signal + 0.4 * labels * rng.normal(size=600) + rng.normal(0, 1.0, 600)
    result = rk.delong_test(labels, a, b)
    pos, neg = np.flatnonzero(labels == 1), np.flatnonzero(labels == 0)
    differences = []
    for _ in range(2000):
        rows = np.r_[rng.choice(pos, pos.size), rng.choice(neg, neg.size)]
        differences.append(rk.roc_auc(labels[rows], a[rows]) - rk.roc_auc(labels[rows], b[rows]))
    bootstrap_sd = float(np.std(differences, ddof=1))
    assert result.standard_error == pytest.approx(bootstrap_sd, rel=0.07)
    # The covariance terms matter: treating the two AUCs as independent is far off.
    independent = math.hypot(rk.auc_standard_error(labels, a), rk.auc_standard_error(labels, b))
    assert independent > 1.3 * bootstrap_sd
    assert result.z == pytest.approx(result.difference / result.standard_error, rel=1e-12)


def test_delong_of_identical_scores_has_nothing_to_test():
    result = rk.delong_test([1, 1, 0, 0, 1], [0.9, 0.4, 0.5, 0.1, 0.7], [0.9, 0.4, 0.5, 0.1, 0.7])
    assert result.difference == 0.0 and result.standard_error == 0.0
    assert math.isnan(result.z) and math.isnan(result.p_value)


def test_delong_result_is_a_named_tuple_of_floats():
    result = rk.delong_test([1, 1, 0, 0, 1, 0], [0.9, 0.4, 0.5, 0.1, 0.7, 0.3], [0.2, 0.4, 0.5, 0.1, 0.9, 0.3])
    assert isinstance(result, rk.DeLongResult)
    assert result._fields == ("auc_a", "auc_b", "difference", "standard_error", "z", "p_value")
    assert all(type(x) is float for x in result)


def test_delong_needs_two_of_each_class_and_equal_lengths():
    with pytest.raises(ValueError, match="labels must hold at least 2 positives and 2 negatives"):
        rk.delong_test([1, 0, 0], [0.3, 0.2, 0.1], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="scores_b"):
        rk.delong_test([1, 1, 0, 0], [0.4, 0.3, 0.2, 0.1], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="scores_a"):
        rk.delong_test([1, 1, 0, 0], [0.4, math.nan, 0.2, 0.1], [0.1, 0.2, 0.3, 0.4])


@given(two_models())
def test_explain_delong_test_shows_the_structural_components(case):
    labels, a, b = case
    explanation = rk.explain.delong_test(labels, a, b)
    assert explanation.value == rk.delong_test(labels, a, b)
    items = explanation.tables["structural components"]
    positive = items["label"] == 1
    # Either class's components average to the AUC.
    for model, scores in (("V_a", a), ("V_b", b)):
        assert items.loc[positive, model].mean() == pytest.approx(rk.roc_auc(labels, scores), abs=1e-12)
        assert items.loc[~positive, model].mean() == pytest.approx(rk.roc_auc(labels, scores), abs=1e-12)
    rows = explanation.table.set_index("quantity")["value"]
    assert rows["S10_ab"] == pytest.approx(float(np.cov(items.loc[positive, "V_a"], items.loc[positive, "V_b"])[0, 1]), abs=1e-15)
    last = explanation.table["value"].iloc[-1]
    assert last == explanation.value.p_value or (math.isnan(last) and math.isnan(explanation.value.p_value))


@pytest.mark.parametrize("name", ["auc_standard_error", "delong_test"])
def test_explanations_take_the_same_arguments_as_their_functions(name):
    assert inspect.signature(getattr(rk.explain, name)) == inspect.signature(getattr(rk, name))


# --- DeLong's standard error of one AUC ---------------------------------------------------------


@given(labelled_scores(min_size=4, max_size=30).filter(
    lambda case: 2 <= sum(case[0]) <= len(case[0]) - 2))
def test_delong_standard_error_equals_a_direct_pairwise_computation(case):
    labels, scores = case
    _, _, variance_of_difference = delong_pairwise(labels, scores, [0.0] * len(labels))
    # Against constant scores b, whose components are all 1/2, Var(A_a - A_b) is Var(A_a).
    assert delong_standard_error(labels, scores) == pytest.approx(
        math.sqrt(max(variance_of_difference, 0.0)), abs=1e-12)


def test_delong_standard_error_is_close_to_a_bootstrap_where_hanley_mcneil_is_not():
    # Normal scores with unequal spreads: Hanley and McNeil's theta1, theta2 (exact for exponential
    # scores) are off, DeLong's components are not. 2,000 resamples give the bootstrap SD a
    # Monte Carlo error of about 1.6%.
    rng = np.random.default_rng(1988)
    positives, negatives = rng.normal(1.0, 0.3, 300), rng.normal(0.0, 1.5, 300)
    labels = np.r_[np.ones(300, dtype=int), np.zeros(300, dtype=int)]
    scores = np.r_[positives, negatives]
    aucs = [rk.roc_auc(labels, np.r_[rng.choice(positives, 300), rng.choice(negatives, 300)])
            for _ in range(2000)]
    bootstrap_sd = float(np.std(aucs, ddof=1))
    assert delong_standard_error(labels, scores) == pytest.approx(bootstrap_sd, rel=0.05)
    assert rk.auc_standard_error(labels, scores) < 0.9 * bootstrap_sd


def test_delong_standard_error_is_0_for_a_perfect_ranking_and_needs_two_of_each_class():
    assert delong_standard_error([1, 1, 0, 0], [4, 3, 2, 1]) == 0.0
    assert type(delong_standard_error([1, 0, 1, 0], [0.3, 0.4, 0.2, 0.1])) is float
    with pytest.raises(ValueError, match="at least 2 positives and 2 negatives"):
        delong_standard_error([1, 0, 0], [0.3, 0.2, 0.1])
    with pytest.raises(ValueError, match="scores"):
        delong_standard_error([1, 1, 0, 0], [0.4, 0.3, 0.2])
