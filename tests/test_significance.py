"""Tests of rankedu/significance.py: the paired randomisation test and the bootstrap CI."""

import itertools

import numpy as np
import pytest

import rankedu as rk


def exact_p_value(a, b):
    """Two-sided sign-flip p-value over all 2^n assignments (the Monte Carlo test's target)."""
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    observed = abs(d.mean())
    means = [abs(np.dot(signs, d)) / len(d) for signs in itertools.product((-1, 1), repeat=len(d))]
    return float(np.mean([m >= observed - 1e-12 for m in means]))


def test_randomization_p_value_approaches_the_exact_sign_flip_p_value():
    rng = np.random.default_rng(7)
    a = rng.random(10)
    b = a - rng.normal(0.05, 0.1, size=10)
    exact = exact_p_value(a, b)
    result = rk.paired_randomization_test(a, b, n_resamples=40_000, seed=1)
    assert result.p_value == pytest.approx(exact, abs=0.01)
    assert result.observed == pytest.approx(float(np.mean(a - b)))


def test_randomization_p_value_counts_the_observed_assignment_so_it_is_never_zero():
    a, b = [1.0] * 12, [0.0] * 12  # every flip but the observed one is less extreme
    result = rk.paired_randomization_test(a, b, n_resamples=999, seed=0)
    extreme = int((np.abs(result.null_distribution) >= 1.0).sum())
    assert result.p_value == (1 + extreme) / 1000
    assert result.p_value > 0


def test_identical_systems_have_p_value_one_and_observed_difference_zero():
    a = [0.1, 0.5, 0.9, 0.3]
    result = rk.paired_randomization_test(a, a, n_resamples=500, seed=0)
    assert (result.observed, result.p_value) == (0.0, 1.0)


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


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: rk.paired_randomization_test([1, 2], [1]), "same length"),
        (lambda: rk.paired_randomization_test([1, float("nan")], [1, 2]), "finite"),
        (lambda: rk.paired_randomization_test([], []), "at least one"),
        (lambda: rk.paired_randomization_test([1], [2], n_resamples=0), "n_resamples"),
        (lambda: rk.bootstrap_ci([1, 2], confidence=1.0), "confidence"),
        (lambda: rk.bootstrap_ci([1, 2], n_resamples=-5), "n_resamples"),
    ],
)
def test_bad_input_raises_value_error_naming_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()
