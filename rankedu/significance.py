"""Comparing two systems on the same queries: a paired randomisation test and a bootstrap CI.

Both work on per-query scores, ``a[i]`` and ``b[i]`` for the same query ``i`` (the columns of
two :func:`rankedu.evaluate` tables, aligned on the query id), through the per-query
differences d_i = a_i - b_i.

- **Paired randomisation test** (Fisher's sign-flip test; Smucker, Allan and Carterette, 2007,
  compare it with the t-test, the Wilcoxon test and the bootstrap for IR). Under the null
  hypothesis that the two systems are interchangeable, each d_i is as likely to be -d_i; the
  p-value is the share of the 2^n sign assignments whose mean difference is at least as far
  from 0 as the one observed. It is estimated from ``n_resamples`` random assignments, counting
  the observed one among them: p = (1 + #{|mean*| >= |mean|}) / (1 + n_resamples), so it is
  never 0 (Phipson and Smyth, 2010).
- **Bootstrap confidence interval** (Efron and Tibshirani, 1993), percentile method: resample
  the queries with replacement ``n_resamples`` times, take the mean each time, and report the
  (1 - confidence)/2 and (1 + confidence)/2 quantiles of those means.

Queries are the unit that is resampled: the conclusions are about the population of queries
the sample was drawn from, not about the documents. The chapter "Evaluating a run"
(``book/evaluating_runs.ipynb``) discusses what the p-value does and does not say.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rankedu._validation import as_count, as_number, as_numbers, same_length

__all__ = ["BootstrapResult", "RandomizationResult", "bootstrap_ci",
           "paired_randomization_test"]

# Resamples are drawn in blocks, so that memory stays bounded for many queries.
_BLOCK = 1000


@dataclass(frozen=True)
class RandomizationResult:
    """The outcome of :func:`paired_randomization_test`."""

    observed: float  #: mean of a - b
    p_value: float  #: two-sided, (1 + at least as extreme) / (1 + n_resamples)
    null_distribution: np.ndarray  #: the mean difference under each random sign assignment


@dataclass(frozen=True)
class BootstrapResult:
    """The outcome of :func:`bootstrap_ci`."""

    estimate: float  #: the mean over the queries (of a, or of a - b)
    low: float  #: lower end of the interval
    high: float  #: upper end of the interval
    confidence: float
    distribution: np.ndarray  #: the mean of each bootstrap resample


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


def paired_randomization_test(a, b, *, n_resamples=10_000, seed=None) -> RandomizationResult:
    r"""Two-sided paired randomisation (sign-flip) test of mean(a) = mean(b).

    .. math::

        p = \frac{1 + \#\{j : |\bar d^{(j)}| \ge |\bar d|\}}{1 + N}, \qquad
        \bar d^{(j)} = \frac{1}{n} \sum_i s^{(j)}_i d_i, \quad s^{(j)}_i \in \{-1, +1\}

    Parameters
    ----------
    a, b : sequence of float
        Per-query scores of two systems on the same queries, in the same order.
    n_resamples : int, default 10000
        Random sign assignments N.
    seed : int or None
        Seed of ``numpy.random.default_rng``; the same seed gives the same result.

    Returns
    -------
    RandomizationResult
        ``observed`` (mean of a - b), ``p_value`` and ``null_distribution`` (N means).

    Notes
    -----
    The chapter :doc:`/book/evaluating_runs` explains it.

    Examples
    --------
    >>> import rankedu as rk
    >>> result = rk.paired_randomization_test([0.5, 0.7, 0.9], [0.4, 0.5, 0.6], seed=0)
    >>> round(result.observed, 4), result.p_value > 0.1  # 3 queries cannot show much
    (0.2, True)
    """
    differences = _differences(a, b)
    n_resamples = _resamples(n_resamples)
    rng = np.random.default_rng(seed)
    observed = float(differences.mean())
    null = np.empty(n_resamples)
    for start in range(0, n_resamples, _BLOCK):
        size = min(_BLOCK, n_resamples - start)
        signs = rng.integers(0, 2, size=(size, len(differences)), dtype=np.int8) * 2 - 1
        null[start:start + size] = signs @ differences / len(differences)
    # A tolerance, so that a resample equal to the observed mean up to rounding counts.
    extreme = np.abs(null) >= abs(observed) - 1e-12
    p_value = (1 + int(extreme.sum())) / (1 + n_resamples)
    return RandomizationResult(observed, p_value, null)


def bootstrap_ci(a, b=None, *, confidence=0.95, n_resamples=10_000, seed=None) -> BootstrapResult:
    r"""Percentile bootstrap confidence interval of the mean of ``a`` (or of ``a - b``).

    Resamples the n queries with replacement N times; the interval runs from the
    (1 - confidence)/2 to the (1 + confidence)/2 quantile of the N resampled means.

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
    seed : int or None
        Seed of ``numpy.random.default_rng``.

    Returns
    -------
    BootstrapResult
        ``estimate`` (the sample mean), ``low``, ``high``, ``confidence`` and ``distribution``.

    Notes
    -----
    The chapter :doc:`/book/evaluating_runs` explains it.

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
    rng = np.random.default_rng(seed)
    means = np.empty(n_resamples)
    for start in range(0, n_resamples, _BLOCK):
        size = min(_BLOCK, n_resamples - start)
        picks = rng.integers(0, len(values), size=(size, len(values)))
        means[start:start + size] = values[picks].mean(axis=1)
    low, high = np.quantile(means, [(1 - confidence) / 2, (1 + confidence) / 2])
    return BootstrapResult(float(values.mean()), float(low), float(high), confidence, means)
