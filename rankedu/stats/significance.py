"""Comparing two systems on the same queries: significance tests and confidence intervals.

Every function works on per-query scores: ``a[i]`` and ``b[i]`` are two systems' scores on the
same query ``i`` (the columns of two :func:`rankedu.evaluate` tables, aligned on the query id),
compared through the per-query differences d_i = a_i - b_i. Queries are the unit that is
resampled: the conclusions are about the population of queries the sample was drawn from, not
about the documents.

- **Paired randomisation test** (Fisher's sign-flip test). Under the null hypothesis that the
  two systems are interchangeable, each d_i is as likely to be -d_i; the two-sided p-value is
  the share of the 2^n sign assignments whose mean difference is at least as far from 0 as the
  one observed. With n <= 20 queries all 2^n assignments are enumerated and p is exact;
  otherwise it is estimated from random assignments, counting the observed one among them,
  p = (1 + #{|mean*| >= |mean|}) / (1 + N) (Phipson and Smyth, 2010), and reported with its
  Monte Carlo standard error.
- **Paired t-test**: t = mean(d) / (sd(d) / sqrt(n)) on n - 1 degrees of freedom, two-sided.
  Smucker, Allan and Carterette (2007) found that on IR data it agrees closely with the
  randomisation test and the bootstrap, while the sign and Wilcoxon tests do not.
- **Bootstrap confidence interval** (Efron and Tibshirani, 1993), percentile method.

Comparing more than two systems, or testing several hypotheses at once, is the business of
:mod:`rankedu.stats.multiple_comparisons` (Holm's adjustment, the randomised Tukey HSD test).

The chapter "Evaluating a run" (``book/evaluating_runs.ipynb``) discusses what the p-value does
and does not say.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from rankedu.core.common import quantities, two_sided_test
from rankedu.core.steps import Steps
from rankedu.core.validation import as_number, as_numbers, same_length
from rankedu.stats.resampling import _BLOCK, _generator, _resamples

__all__ = ["BootstrapResult", "PairedTTestResult", "RandomizationResult", "bootstrap_ci",
           "paired_randomization_test", "paired_t_test"]

#: The largest number of queries whose 2^n sign assignments the randomisation test enumerates
#: (2^20 = 1,048,576 means); above it the test samples assignments at random.
MAX_EXACT_QUERIES = 20


@dataclass(frozen=True)
class RandomizationResult:
    """The outcome of :func:`paired_randomization_test`."""

    observed: float  #: mean of a - b
    p_value: float  #: two-sided
    null_distribution: np.ndarray  #: the mean difference under each sign assignment used
    exact: bool = False  #: True when every one of the 2^n assignments was enumerated
    standard_error: float = 0.0  #: Monte Carlo standard error of p_value (0.0 when exact)


@dataclass(frozen=True)
class BootstrapResult:
    """The outcome of :func:`bootstrap_ci`."""

    estimate: float  #: the mean over the queries (of a, or of a - b)
    low: float  #: lower end of the interval
    high: float  #: upper end of the interval
    confidence: float
    distribution: np.ndarray  #: the mean of each bootstrap resample


class PairedTTestResult(NamedTuple):
    """The outcome of :func:`paired_t_test`."""

    mean_difference: float
    standard_error: float
    t: float
    df: int
    p_value: float


def _differences(a, b) -> np.ndarray:
    a = as_numbers(a, "a")
    if b is None:
        values = a
    else:
        b = as_numbers(b, "b")
        same_length(a=a, b=b)
        values = a - b
    if len(values) == 0:
        raise ValueError("a must hold at least one query's score")
    return values


def _at_least(mean_differences: np.ndarray, observed: float, differences: np.ndarray) -> np.ndarray:
    """Which resampled means are at least as far from 0 as the observed one.

    A relative tolerance, so that the assignment equal to the observed one (or its mirror),
    summed in another order, counts despite rounding."""
    tolerance = 1e-9 * float(np.abs(differences).mean())
    return np.abs(mean_differences) >= abs(observed) - tolerance


def _all_sign_flips(differences: np.ndarray) -> np.ndarray:
    """The mean of s * d for every one of the 2^n sign vectors s, built one query at a time."""
    sums = np.zeros(1)
    for d in differences:
        sums = np.concatenate([sums + d, sums - d])
    return sums / len(differences)


def paired_randomization_test(a, b, *, n_resamples=10_000, seed=None,
                              exact=None) -> RandomizationResult:
    r"""Two-sided paired randomisation (sign-flip) test of mean(a) = mean(b).

    The statistic is the mean difference :math:`\bar d` of the n queries. Exact, over all
    :math:`2^n` sign vectors :math:`s`, and by Monte Carlo, over N random ones:

    .. math::

        p = \frac{\#\{s : |\bar d^{(s)}| \ge |\bar d|\}}{2^n}, \qquad
        \hat p = \frac{1 + \#\{j : |\bar d^{(j)}| \ge |\bar d|\}}{1 + N}, \qquad
        \bar d^{(s)} = \frac{1}{n} \sum_i s_i d_i, \quad s_i \in \{-1, +1\}

    The Monte Carlo estimate comes with its standard error
    :math:`\sqrt{\hat p (1 - \hat p) / N}`.

    Parameters
    ----------
    a, b : sequence of float
        Per-query scores of two systems on the same queries, in the same order.
    n_resamples : int, default 10000
        Random sign assignments N (Monte Carlo only).
    seed : int >= 0 or None
        Seed of ``numpy.random.default_rng`` (Monte Carlo only); the same seed gives the same
        result.
    exact : bool or None, default None
        Enumerate all 2^n assignments. None: when n <= 20 (``MAX_EXACT_QUERIES``); True
        requires n <= 20; False always samples.

    Returns
    -------
    RandomizationResult
        ``observed`` (mean of a - b), ``p_value``, ``null_distribution`` (the 2^n or N means),
        ``exact`` and ``standard_error`` (0.0 when exact).

    Raises
    ------
    ValueError
        When ``a`` and ``b`` differ in length, hold no query or a non-finite score, when
        ``n_resamples`` < 1, or ``exact=True`` with more than 20 queries.
    TypeError
        When ``seed`` is not an int >= 0 or None, or ``exact`` is not a bool or None.

    Notes
    -----
    The chapter :doc:`/book/evaluating_runs` explains it.

    References
    ----------
    - ``smucker2007``: Smucker, M. D., Allan, J. and Carterette, B. (2007). A comparison of
      statistical significance tests for information retrieval evaluation. CIKM 2007, 623-632.
    - ``phipson2010``: Phipson, B. and Smyth, G. K. (2010). Permutation p-values should never
      be zero. Statistical Applications in Genetics and Molecular Biology, 9(1), article 39.

    Examples
    --------
    >>> import rankedu as rk
    >>> result = rk.paired_randomization_test([0.5, 0.7, 0.9], [0.4, 0.5, 0.6])
    >>> round(result.observed, 4), result.p_value, result.exact  # 2 of the 8 flips are as far
    (0.2, 0.25, True)
    """
    differences = _differences(a, b)
    n_resamples = _resamples(n_resamples)
    rng = _generator(seed)
    if exact is not None and not isinstance(exact, bool):
        raise TypeError(f"exact must be True, False or None, got {exact!r}")
    n = len(differences)
    if exact and n > MAX_EXACT_QUERIES:
        raise ValueError(f"exact=True enumerates 2^n assignments and needs n <= "
                         f"{MAX_EXACT_QUERIES} queries, got {n}")
    observed = float(differences.mean())
    if exact is None:
        exact = n <= MAX_EXACT_QUERIES
    if exact:
        null = _all_sign_flips(differences)
        p_value = int(_at_least(null, observed, differences).sum()) / len(null)
        return RandomizationResult(observed, p_value, null, True, 0.0)
    null = np.empty(n_resamples)
    for start in range(0, n_resamples, _BLOCK):
        size = min(_BLOCK, n_resamples - start)
        signs = rng.integers(0, 2, size=(size, n), dtype=np.int8) * 2 - 1
        null[start:start + size] = signs @ differences / n
    p_value = (1 + int(_at_least(null, observed, differences).sum())) / (1 + n_resamples)
    standard_error = math.sqrt(p_value * (1 - p_value) / n_resamples)
    return RandomizationResult(observed, p_value, null, False, standard_error)


def _incomplete_beta_fraction(x: float, y: float, a: float, b: float) -> float:
    """I_x(a, b) for x < (a + 1)/(a + b + 2), where y = 1 - x is passed exactly.

    The continued fraction of Numerical Recipes (section 6.4), evaluated by Lentz's method; it
    converges fast in that range. Passing y separately keeps 1 - x exact when x is near 1."""
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log(y)) / a
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    fraction = d
    for m in range(1, 10_000):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            fraction *= c * d
        if abs(c * d - 1.0) < 1e-16:
            break
    return front * fraction


def _student_t_two_sided(t: float, df: int) -> float:
    """P(|T| >= |t|) for Student's t with df degrees of freedom.

    It is the regularised incomplete beta function I_x(df/2, 1/2) at x = df/(df + t^2); above
    x = (a + 1)/(a + b + 2) the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) keeps the continued
    fraction fast, with 1 - x = t^2/(df + t^2) computed without cancellation."""
    if math.isinf(t):
        return 0.0
    if t == 0:
        return 1.0
    a, b = df / 2, 0.5
    x, y = df / (df + t * t), t * t / (df + t * t)
    if x < (a + 1) / (a + b + 2):
        return _incomplete_beta_fraction(x, y, a, b)
    return 1.0 - _incomplete_beta_fraction(y, x, b, a)


def _paired_t_test_steps(a, b) -> Steps:
    a_values, b_values = as_numbers(a, "a"), as_numbers(b, "b")
    differences = _differences(a, b)
    n = len(differences)
    if n < 2:
        raise ValueError(f"a must hold at least 2 queries' scores for a t-test, got {n}")
    mean = float(differences.mean())
    deviations = differences - mean
    variance = float(np.sum(deviations**2) / (n - 1))
    standard_deviation = math.sqrt(variance)
    standard_error = standard_deviation / math.sqrt(n)
    df = n - 1
    t, p_value = two_sided_test(mean, standard_error, lambda t: _student_t_two_sided(t, df))
    result = PairedTTestResult(mean, standard_error, t, df, p_value)
    test = quantities([
        ("n", "queries", n),
        ("mean d", "sum of d_i / n", mean),
        ("s_d", "sqrt(sum of (d_i - mean d)^2 / (n - 1))", standard_deviation),
        ("SE", "s_d / sqrt(n)", standard_error),
        ("t", "mean d / SE", t),
        ("df", "n - 1", df),
        ("p-value", "P(|T| >= |t|) for Student's T on df, two-sided", p_value),
    ])
    queries = {
        "query": np.arange(1, n + 1),
        "a": a_values,
        "b": b_values,
        "d = a - b": differences,
        "d - mean d": deviations,
        "(d - mean d)^2": deviations**2,
    }
    return Steps(result, {"test": test, "queries": queries})


def paired_t_test(a, b) -> PairedTTestResult:
    r"""Two-sided paired t-test of mean(a) = mean(b) over the same queries.

    .. math::

        t = \frac{\bar d}{s_d / \sqrt n}, \qquad
        s_d^2 = \frac{1}{n - 1} \sum_i (d_i - \bar d)^2, \qquad
        p = P(|T_{n-1}| \ge |t|)

    with :math:`d_i = a_i - b_i`. The tail of Student's t distribution is computed exactly,
    as the regularised incomplete beta function
    :math:`I_{\nu/(\nu + t^2)}(\nu/2, 1/2)` with :math:`\nu = n - 1` (no scipy needed).
    When every difference is the same (:math:`s_d = 0`), t is ±inf and p is 0.0 if that
    difference is not 0, and both are ``nan`` if it is 0 (there is nothing to test).

    Parameters
    ----------
    a, b : sequence of float
        Per-query scores of two systems on the same queries, in the same order (n >= 2).

    Returns
    -------
    PairedTTestResult
        A named tuple ``(mean_difference, standard_error, t, df, p_value)``.

    Raises
    ------
    ValueError
        When ``a`` and ``b`` differ in length, hold a non-finite score, or fewer than 2 queries.

    See Also
    --------
    paired_randomization_test

    Notes
    -----
    The chapter :doc:`/book/evaluating_runs` explains it. ``rk.explain.paired_t_test`` shows
    each query's difference and every term of the formula. It equals
    ``scipy.stats.ttest_rel(a, b)``.

    References
    ----------
    - ``smucker2007``: Smucker, M. D., Allan, J. and Carterette, B. (2007). A comparison of
      statistical significance tests for information retrieval evaluation. CIKM 2007, 623-632.

    Examples
    --------
    >>> import rankedu as rk
    >>> result = rk.paired_t_test([0.5, 0.7, 0.9, 0.4], [0.4, 0.5, 0.6, 0.4])
    >>> round(result.mean_difference, 4), round(result.t, 4), result.df, round(result.p_value, 4)
    (0.15, 2.3238, 3, 0.1027)
    """
    return _paired_t_test_steps(a=a, b=b).value


def bootstrap_ci(a, b=None, *, confidence=0.95, n_resamples=10_000, seed=None) -> BootstrapResult:
    r"""Percentile bootstrap confidence interval of the mean of ``a`` (or of ``a - b``).

    Resamples the n queries with replacement N times; the interval runs from the
    (1 - confidence)/2 to the (1 + confidence)/2 quantile of the N resampled means. With few
    queries the percentile interval is too narrow (it covers the true mean less often than
    ``confidence`` says); the BCa and bootstrap-t intervals correct for that.

    Parameters
    ----------
    a : sequence of float
        Per-query scores.
    b : sequence of float, optional
        Per-query scores of a second system on the same queries: the interval is then for the
        mean paired difference a - b.
    confidence : float, default 0.95
        Coverage of the interval, strictly between 0 and 1.
    n_resamples : int, default 10000
        Bootstrap resamples N.
    seed : int >= 0 or None
        Seed of ``numpy.random.default_rng``.

    Returns
    -------
    BootstrapResult
        ``estimate`` (the sample mean), ``low``, ``high``, ``confidence`` and ``distribution``.

    Raises
    ------
    ValueError
        When ``a`` and ``b`` differ in length or hold no query or a non-finite score, when
        ``confidence`` is not strictly between 0 and 1, or ``n_resamples`` < 1.
    TypeError
        When ``seed`` is not an int >= 0 or None.

    Notes
    -----
    The chapter :doc:`/book/evaluating_runs` explains it.

    References
    ----------
    - ``efron1993``: Efron, B. and Tibshirani, R. J. (1993). An Introduction to the Bootstrap.
      Chapman & Hall.

    Examples
    --------
    >>> import rankedu as rk
    >>> ci = rk.bootstrap_ci([0.2, 0.4, 0.6, 0.8], seed=0)
    >>> ci.estimate, ci.low <= ci.estimate <= ci.high
    (0.5, True)
    """
    values = _differences(a, b)
    confidence = as_number(confidence, "confidence")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence:g}")
    n_resamples = _resamples(n_resamples)
    rng = _generator(seed)
    means = np.empty(n_resamples)
    for start in range(0, n_resamples, _BLOCK):
        size = min(_BLOCK, n_resamples - start)
        picks = rng.integers(0, len(values), size=(size, len(values)))
        means[start:start + size] = values[picks].mean(axis=1)
    low, high = np.quantile(means, [(1 - confidence) / 2, (1 + confidence) / 2])
    return BootstrapResult(float(values.mean()), float(low), float(high), confidence, means)
