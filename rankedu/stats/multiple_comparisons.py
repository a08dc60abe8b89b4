"""Multiple comparisons: several hypotheses, or several systems, on the same queries.

Testing many pairs of systems at level α each makes some false rejection likely; the two
procedures here keep the probability of any false rejection (the family-wise error rate) at
most α.

- **Holm's step-down adjustment** (Holm, 1979) of several p-values, whatever test produced them
  (for instance :func:`rankedu.paired_randomization_test` or :func:`rankedu.paired_t_test`).
- **Randomised Tukey HSD** (Carterette, 2012): every pair among several systems compared with
  one permutation distribution of the range of the system means.

Scores are per query, as in :mod:`rankedu.stats.significance`: the rows of a table are aligned on the
query id. The chapter "Evaluating a run" (``book/evaluating_runs.ipynb``) discusses both.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from rankedu.core.steps import Steps
from rankedu.core.validation import as_numbers, as_probabilities, same_length
from rankedu.stats.resampling import _BLOCK, _generator, _resamples

__all__ = ["TukeyResult", "holm", "randomized_tukey_hsd"]


@dataclass(frozen=True)
class TukeyResult:
    """The outcome of :func:`randomized_tukey_hsd`."""

    means: pd.Series  #: each system's mean over the queries
    pairs: pd.DataFrame  #: one row per pair: system_a, system_b, difference, p_value
    null_distribution: np.ndarray  #: the range max - min of the system means in each permutation



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
    return _holm_steps(p_values=p_values).value


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
