"""Comparing systems on the same queries: significance tests, intervals and multiple comparisons.

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
- **Holm's step-down adjustment** (Holm, 1979) of several p-values, and the **randomised
  Tukey HSD** test (Carterette, 2012) of every pair among several systems, for multiple
  comparisons.

The chapter "Evaluating a run" (``book/evaluating_runs.ipynb``) discusses what the p-value does
and does not say.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd

from rankedu._steps import Steps
from rankedu._validation import as_count, as_number, as_numbers, as_probabilities, same_length

__all__ = ["BootstrapResult", "PairedTTestResult", "RandomizationResult", "TukeyResult",
           "bootstrap_ci", "holm", "paired_randomization_test", "paired_t_test",
           "randomized_tukey_hsd"]

# Resamples are drawn in blocks, so that memory stays bounded for many queries.
_BLOCK = 1000
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


@dataclass(frozen=True)
class TukeyResult:
    """The outcome of :func:`randomized_tukey_hsd`."""

    means: pd.Series  #: each system's mean over the queries
    pairs: pd.DataFrame  #: one row per pair: system_a, system_b, difference, p_value
    null_distribution: np.ndarray  #: the range max - min of the system means in each permutation


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


def _resamples(n_resamples) -> int:
    n_resamples = as_count(n_resamples, "n_resamples")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    return n_resamples


def _generator(seed) -> np.random.Generator:
    """``numpy.random.default_rng`` of a seed that is None or an int >= 0, checked by name."""
    return np.random.default_rng(None if seed is None else as_count(seed, "seed"))


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
    if standard_error > 0:
        t = mean / standard_error
        p_value = _student_t_two_sided(t, df)
    elif mean != 0:
        t, p_value = math.copysign(math.inf, mean), 0.0
    else:
        t = p_value = math.nan
    result = PairedTTestResult(mean, standard_error, t, df, p_value)
    test = {
        "quantity": np.array(["n", "mean d", "s_d", "SE", "t", "df", "p-value"]),
        "formula": np.array([
            "queries", "sum of d_i / n", "sqrt(sum of (d_i - mean d)^2 / (n - 1))",
            "s_d / sqrt(n)", "mean d / SE", "n - 1",
            "P(|T| >= |t|) for Student's T on df, two-sided",
        ]),
        "value": np.array([n, mean, standard_deviation, standard_error, t, df, p_value],
                          dtype=float),
    }
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
    return _paired_t_test_steps(a, b).value


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


def _holm_steps(p_values) -> Steps:
    p = as_probabilities(p_values, "p_values")
    m = len(p)
    if m == 0:
        raise ValueError("p_values must hold at least one p-value")
    order = np.argsort(p, kind="stable")
    multiplier = m - np.arange(m)
    scaled = multiplier * p[order]
    running = np.maximum.accumulate(scaled)
    adjusted_sorted = np.minimum(running, 1.0)
    adjusted = np.empty(m)
    adjusted[order] = adjusted_sorted
    table = {
        "i": np.arange(1, m + 1),
        "test": order + 1,
        "p": p[order],
        "m - i + 1": multiplier,
        "(m - i + 1) p": scaled,
        "max so far": running,
        "adjusted p": adjusted_sorted,
    }
    return Steps(adjusted, {"Holm": table})


def holm(p_values) -> np.ndarray:
    r"""Holm's (1979) step-down adjustment of m p-values for multiple comparisons.

    Sort the p-values, :math:`p_{(1)} \le \dots \le p_{(m)}`; the adjusted value of the i-th
    smallest is

    .. math::

        \tilde p_{(i)} = \min\Bigl(1, \max_{j \le i} (m - j + 1)\, p_{(j)}\Bigr)

    Rejecting every hypothesis whose adjusted p-value is at most α keeps the probability of
    rejecting any true null hypothesis (the family-wise error rate) at most α, whatever the
    dependence between the tests; it never rejects less than Bonferroni's
    :math:`\min(1, m p_i)`. Ties keep their input order.

    Parameters
    ----------
    p_values : sequence of float
        The p-values of the m tests, each in [0, 1].

    Returns
    -------
    numpy.ndarray
        The adjusted p-values, in the order of the input.

    Raises
    ------
    ValueError
        When ``p_values`` is empty or holds a value outside [0, 1] or a non-finite one.

    Notes
    -----
    The chapter :doc:`/book/evaluating_runs` explains it. ``rk.explain.holm`` shows the sorted
    p-values, their multipliers and the running maximum.

    References
    ----------
    - ``holm1979``: Holm, S. (1979). A simple sequentially rejective multiple test procedure.
      Scandinavian Journal of Statistics, 6(2), 65-70.

    Examples
    --------
    >>> import rankedu as rk
    >>> [round(float(p), 4) for p in rk.holm([0.01, 0.04, 0.03, 0.005])]
    [0.03, 0.06, 0.06, 0.02]
    """
    return _holm_steps(p_values).value


def _score_table(scores) -> tuple[list[str], np.ndarray]:
    """System names and a queries x systems array from a DataFrame or a dict of columns."""
    if isinstance(scores, pd.DataFrame):
        columns = {str(name): scores[name].to_numpy() for name in scores.columns}
    elif isinstance(scores, Mapping):
        columns = {str(name): values for name, values in scores.items()}
    else:
        raise TypeError(
            "scores must be a pandas DataFrame with one column per system or a dict "
            f"{{system: per-query scores}}, got {type(scores).__name__}"
        )
    if len(columns) < 2:
        raise ValueError(f"scores must hold at least 2 systems, got {len(columns)}")
    checked = {f"scores[{name!r}]": as_numbers(values, f"scores[{name!r}]")
               for name, values in columns.items()}
    same_length(**checked)
    table = np.column_stack(list(checked.values()))
    if len(table) == 0:
        raise ValueError("scores must hold at least one query")
    return list(columns), table


def randomized_tukey_hsd(scores, *, n_resamples=10_000, seed=None) -> TukeyResult:
    r"""Carterette's (2012) randomised Tukey HSD test of every pair of m systems.

    ``scores`` has one row per query and one column per system. Under the null hypothesis that
    all m systems are interchangeable, any permutation of a query's row is as likely as the
    observed one. Each of N resamples permutes every row independently and records the range
    of the system means, :math:`r^{(j)} = \max_s \bar x^{(j)}_s - \min_s \bar x^{(j)}_s`.
    The adjusted two-sided p-value of the pair (s, t) is the share of resamples whose range
    reaches the observed difference,

    .. math::

        p_{st} = \frac{1 + \#\{j : r^{(j)} \ge |\bar x_s - \bar x_t|\}}{1 + N}

    counting the observed arrangement among them. Because the largest of all m(m-1)/2
    differences is compared with the same distribution, the probability of any false
    rejection among all pairs stays at most α (the family-wise error rate).

    Parameters
    ----------
    scores : pandas.DataFrame or dict
        One column per system (``{system: per-query scores}``), rows aligned on the queries.
    n_resamples : int, default 10000
        Permutations N.
    seed : int >= 0 or None
        Seed of ``numpy.random.default_rng``.

    Returns
    -------
    TukeyResult
        ``means`` (a Series by system), ``pairs`` (a DataFrame: ``system_a``, ``system_b``,
        ``difference`` = mean a - mean b, ``p_value``, in the order of the columns) and
        ``null_distribution`` (the N ranges).

    Raises
    ------
    ValueError
        Naming the column, when a system's scores are not finite or the columns differ in
        length; when there are fewer than 2 systems or no query; when ``n_resamples`` < 1.
    TypeError
        When ``scores`` is not a DataFrame or a dict, or ``seed`` is not an int >= 0 or None.

    Notes
    -----
    The chapter :doc:`/book/evaluating_runs` explains it.

    References
    ----------
    - ``carterette2012``: Carterette, B. A. (2012). Multiple testing in statistical analysis
      of systems-based information retrieval experiments. ACM Transactions on Information
      Systems, 30(1), article 4.

    Examples
    --------
    >>> import rankedu as rk
    >>> scores = {"A": [0.2, 0.3, 0.4, 0.5, 0.6, 0.7], "B": [0.2, 0.3, 0.4, 0.5, 0.6, 0.7],
    ...           "C": [0.9, 0.9, 0.8, 0.9, 0.9, 0.9]}
    >>> result = rk.randomized_tukey_hsd(scores, n_resamples=2000, seed=0)
    >>> result.pairs.round(3)
      system_a system_b  difference  p_value
    0        A        B       0.000    1.000
    1        A        C      -0.433    0.005
    2        B        C      -0.433    0.005
    """
    names, table = _score_table(scores)
    n_resamples = _resamples(n_resamples)
    rng = _generator(seed)
    means = table.mean(axis=0)
    ranges = np.empty(n_resamples)
    for start in range(0, n_resamples, _BLOCK):
        size = min(_BLOCK, n_resamples - start)
        shuffled = rng.permuted(np.broadcast_to(table, (size, *table.shape)), axis=2)
        resampled_means = shuffled.mean(axis=1)
        ranges[start:start + size] = resampled_means.max(axis=1) - resampled_means.min(axis=1)
    tolerance = 1e-9 * float(np.abs(table).mean() or 1.0)
    rows = []
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            difference = float(means[i] - means[j])
            extreme = int((ranges >= abs(difference) - tolerance).sum())
            rows.append((names[i], names[j], difference, (1 + extreme) / (1 + n_resamples)))
    pairs = pd.DataFrame(rows, columns=["system_a", "system_b", "difference", "p_value"])
    return TukeyResult(pd.Series(means, index=names, name="mean"), pairs, ranges)
