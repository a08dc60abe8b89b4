"""Tests of rankedu/stats/significance.py: the randomisation test, the t-test and the bootstrap CI, each
against an independent computation."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import rankedu as rk


def brute_force_sign_flip_means(d):
    """The mean of s * d for every sign vector s, by a plain loop over itertools.product."""
    d = np.asarray(d, dtype=float)
    return np.array([np.dot(signs, d) / len(d) for signs in itertools.product((-1, 1), repeat=len(d))])


def brute_force_exact_p_value(a, b):
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    means = brute_force_sign_flip_means(d)
    return sum(abs(m) >= abs(d.mean()) - 1e-12 for m in means) / len(means)


# --- paired randomisation test: exact enumeration --------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 5, 10, 12])
def test_exact_randomization_p_value_equals_a_loop_over_every_sign_assignment(n):
    rng = np.random.default_rng(n)
    a = rng.random(n)
    b = a - rng.normal(0.05, 0.1, size=n)
    result = rk.paired_randomization_test(a, b)
    assert result.exact is True and result.standard_error == 0.0
    assert result.p_value == brute_force_exact_p_value(a, b)
    np.testing.assert_allclose(np.sort(result.null_distribution),
                               np.sort(brute_force_sign_flip_means(a - b)), atol=1e-14)


def test_ten_queries_give_an_exact_p_value_that_is_a_count_over_1024():
    rng = np.random.default_rng(3)
    a, b = rng.random(10), rng.random(10)
    result = rk.paired_randomization_test(a, b)
    assert len(result.null_distribution) == 1024
    assert (result.p_value * 1024).is_integer()


def test_exact_test_is_the_default_up_to_twenty_queries_and_sampling_above():
    rng = np.random.default_rng(5)
    twenty = rk.paired_randomization_test(rng.random(20), rng.random(20))
    assert twenty.exact and len(twenty.null_distribution) == 2**20
    many = rk.paired_randomization_test(rng.random(21), rng.random(21), n_resamples=500, seed=0)
    assert not many.exact and len(many.null_distribution) == 500


def test_exact_p_value_counts_the_observed_assignment_and_its_mirror():
    result = rk.paired_randomization_test([1.0] * 8, [0.0] * 8)
    assert result.p_value == 2 / 2**8


def test_monte_carlo_p_value_is_within_a_few_standard_errors_of_the_exact_one():
    rng = np.random.default_rng(7)
    a = rng.random(14)
    b = a - rng.normal(0.03, 0.1, size=14)
    exact = rk.paired_randomization_test(a, b)
    sampled = rk.paired_randomization_test(a, b, exact=False, n_resamples=40_000, seed=1)
    assert not sampled.exact
    assert sampled.standard_error == pytest.approx(
        math.sqrt(sampled.p_value * (1 - sampled.p_value) / 40_000))
    assert abs(sampled.p_value - exact.p_value) < 4 * sampled.standard_error
    assert sampled.observed == pytest.approx(float(np.mean(a - b)))


def test_monte_carlo_p_value_counts_the_observed_assignment_so_it_is_never_zero():
    a, b = [1.0] * 30, [0.0] * 30  # every flip but the observed one is less extreme
    result = rk.paired_randomization_test(a, b, n_resamples=999, seed=0)
    extreme = int((np.abs(result.null_distribution) >= 1.0).sum())
    assert result.p_value == (1 + extreme) / 1000
    assert result.p_value > 0


def test_identical_systems_have_p_value_one_and_observed_difference_zero():
    a = [0.1, 0.5, 0.9, 0.3]
    result = rk.paired_randomization_test(a, a)
    assert (result.observed, result.p_value) == (0.0, 1.0)
    sampled = rk.paired_randomization_test(a, a, exact=False, n_resamples=500, seed=0)
    assert sampled.p_value == 1.0


def test_randomization_test_is_symmetric_and_reproducible_with_a_seed():
    rng = np.random.default_rng(3)
    a, b = rng.random(30), rng.random(30)
    ab = rk.paired_randomization_test(a, b, n_resamples=2000, seed=5)
    ba = rk.paired_randomization_test(b, a, n_resamples=2000, seed=5)
    again = rk.paired_randomization_test(a, b, n_resamples=2000, seed=5)
    assert ab.p_value == ba.p_value == again.p_value
    assert ab.observed == -ba.observed
    np.testing.assert_array_equal(ab.null_distribution, again.null_distribution)
    assert len(ab.null_distribution) == 2000


def test_randomization_null_distribution_is_centred_with_the_sign_flip_variance():
    d = np.random.default_rng(11).normal(size=50)
    result = rk.paired_randomization_test(d, np.zeros(50), n_resamples=20_000, seed=2)
    # Under sign flips the mean has expectation 0 and variance sum(d_i^2) / n^2.
    assert result.null_distribution.mean() == pytest.approx(0.0, abs=0.005)
    assert result.null_distribution.var() == pytest.approx(np.sum(d**2) / 50**2, rel=0.05)


# --- paired t-test ----------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 10, 60, 500])
def test_paired_t_test_equals_scipy_ttest_rel(n):
    rng = np.random.default_rng(n)
    a = rng.random(n)
    b = a - rng.normal(0.02, 0.1, size=n)
    ours = rk.paired_t_test(a, b)
    theirs = stats.ttest_rel(a, b)
    assert ours.t == pytest.approx(float(theirs.statistic), rel=1e-12)
    assert ours.p_value == pytest.approx(float(theirs.pvalue), rel=1e-10)
    assert ours.df == n - 1
    assert ours.mean_difference == pytest.approx(float(np.mean(a - b)), rel=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.floats(min_value=1e-6, max_value=1e4), st.integers(min_value=1, max_value=400))
def test_t_tail_matches_scipy_student_t(t, df):
    from rankedu.stats.significance import _student_t_two_sided

    expected = float(2 * stats.t.sf(t, df))
    assert _student_t_two_sided(t, df) == pytest.approx(expected, rel=1e-9, abs=1e-300)


@pytest.mark.parametrize("t", [1e-9, 0.3, 1.0, 4.0, 250.0])
def test_t_tail_matches_the_closed_forms_for_one_and_two_degrees_of_freedom(t):
    from rankedu.stats.significance import _student_t_two_sided

    assert _student_t_two_sided(t, 1) == pytest.approx(1 - 2 * math.atan(t) / math.pi, rel=1e-13)
    assert _student_t_two_sided(t, 2) == pytest.approx(1 - t / math.sqrt(2 + t * t), rel=1e-12)


def test_paired_t_test_with_constant_differences():
    shifted = rk.paired_t_test([0.5, 0.6, 0.7], [0.4, 0.5, 0.6])
    assert shifted.t == math.inf and shifted.p_value == 0.0
    same = rk.paired_t_test([0.5, 0.6, 0.7], [0.5, 0.6, 0.7])
    assert math.isnan(same.t) and math.isnan(same.p_value)


def test_explain_paired_t_test_shows_the_differences_and_ends_in_the_p_value():
    a, b = [0.5, 0.7, 0.9, 0.4], [0.4, 0.5, 0.6, 0.4]
    explanation = rk.explain.paired_t_test(a, b)
    assert explanation.value == rk.paired_t_test(a, b)
    np.testing.assert_allclose(explanation.tables["queries"]["d = a - b"], np.subtract(a, b))
    assert explanation.table["value"].iloc[-1] == explanation.value.p_value


# --- bootstrap ----------------------------------------------------------------------------------

def test_bootstrap_matches_a_plain_loop_over_resamples():
    values = np.random.default_rng(4).random(25)
    result = rk.bootstrap_ci(values, n_resamples=300, seed=9, confidence=0.9)
    rng = np.random.default_rng(9)
    means = [values[rng.integers(0, 25, size=25)].mean() for _ in range(300)]
    np.testing.assert_allclose(result.distribution, means, rtol=1e-12)
    assert (result.low, result.high) == pytest.approx(tuple(np.quantile(means, [0.05, 0.95])))
    assert result.estimate == pytest.approx(values.mean())


def test_bootstrap_of_a_paired_difference_is_the_bootstrap_of_a_minus_b():
    rng = np.random.default_rng(8)
    a, b = rng.random(40), rng.random(40)
    paired = rk.bootstrap_ci(a, b, n_resamples=500, seed=1)
    single = rk.bootstrap_ci(a - b, n_resamples=500, seed=1)
    assert (paired.low, paired.high, paired.estimate) == (single.low, single.high, single.estimate)


def test_bootstrap_interval_contains_the_mean_and_narrows_with_more_queries():
    rng = np.random.default_rng(12)
    few = rk.bootstrap_ci(rng.random(20), seed=0)
    many = rk.bootstrap_ci(rng.random(2000), seed=0)
    assert few.low <= few.estimate <= few.high
    assert (many.high - many.low) < (few.high - few.low) / 4


def test_bootstrap_of_a_constant_is_a_point():
    result = rk.bootstrap_ci([0.25] * 10, n_resamples=100, seed=0)
    assert (result.low, result.estimate, result.high) == pytest.approx((0.25, 0.25, 0.25))


# --- bad input ----------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: rk.paired_randomization_test([1, 2], [1]), ValueError, "same length"),
        (lambda: rk.paired_randomization_test([1, float("nan")], [1, 2]), ValueError, "finite"),
        (lambda: rk.paired_randomization_test([], []), ValueError, "at least one"),
        (lambda: rk.paired_randomization_test([1], [2], n_resamples=0), ValueError, "n_resamples"),
        (lambda: rk.paired_randomization_test([1], [2], seed="x"), TypeError, "seed"),
        (lambda: rk.paired_randomization_test([1], [2], exact="yes"), TypeError, "exact"),
        (lambda: rk.paired_randomization_test([1] * 21, [2] * 21, exact=True), ValueError, "exact"),
        (lambda: rk.paired_t_test([1.0], [0.5]), ValueError, "at least 2"),
        (lambda: rk.paired_t_test([1.0, 2.0], [0.5]), ValueError, "same length"),
        (lambda: rk.paired_t_test([1.0, math.inf], [0.5, 0.2]), ValueError, "finite"),
        (lambda: rk.bootstrap_ci([1, 2], confidence=1.0), ValueError, "confidence"),
        (lambda: rk.bootstrap_ci([1, 2], n_resamples=-5), ValueError, "n_resamples"),
        (lambda: rk.bootstrap_ci([1, 2], seed="x"), TypeError, "seed"),
        (lambda: rk.bootstrap_ci([1, 2], seed=-1), ValueError, "seed"),
    ],
)
def test_bad_input_raises_naming_the_argument(call, error, message):
    with pytest.raises(error, match=message):
        call()
