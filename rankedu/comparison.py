"""``compare``: several runs on the same judgments, in one table of means, tests and markers.

Every run is evaluated with :func:`rankedu.trec.evaluate.evaluate` on the queries the qrels
judge, a query a run lacks scoring 0 on every measure (``missing="zero"``, trec_eval ``-c``), so
that every run has a score on every query and the runs can be compared query by query. Each
pair of runs is then tested on its per-query differences with a paired test of
:mod:`rankedu.stats.significance`, the p-values of one measure are corrected together with
Holm's step-down adjustment (:func:`rankedu.stats.multiple_comparisons.holm`), and each run is
marked where the corrected p-value is below ``alpha``, as ranx's comparison table marks it. The
``rankedu compare`` command prints this table (``rankedu.cli``).

The chapter "Evaluating a run" (``book/evaluating_runs.ipynb``) discusses what such a table
says and does not say.
"""

from __future__ import annotations

import itertools
import math
import string
import warnings
from collections.abc import Mapping

import numpy as np
import pandas as pd

from rankedu.core.validation import as_count, as_open_probability, one_of
from rankedu.stats.multiple_comparisons import holm
from rankedu.stats.significance import (MAX_EXACT_QUERIES, _at_least, bootstrap_ci,
                                        paired_randomization_test, paired_t_test)
from rankedu.trec.evaluate import evaluate
from rankedu.trec.measures import parse

__all__ = ["compare"]

#: The tests ``compare`` knows.
TESTS = ("t", "randomization", "bootstrap")
#: The corrections for multiple comparisons ``compare`` knows.
CORRECTIONS = ("holm", "none")
#: Random sign flips of the randomisation test when it cannot enumerate them all, and the
#: resamples of the bootstrap test.
N_RESAMPLES = 10_000
#: Without a baseline each run is named by a letter, so at most this many runs.
MAX_LETTERED_RUNS = len(string.ascii_lowercase)


def compare(qrels, runs, measures, *, baseline=None, test="t", correction="holm", alpha=0.05,
            seed=0, ties="trec_eval", threshold=1) -> pd.DataFrame:
    r"""Compare several runs on the same judgments: means, paired tests, effect sizes, markers.

    Each run is evaluated with :func:`rankedu.evaluate` (``missing="zero"``), and for each
    measure every compared pair (r, s) of runs is tested on the per-query differences
    :math:`d_i = x_{r,i} - x_{s,i}` over the n judged queries. The effect size is Cohen's
    :math:`d_z`, the mean difference over the standard deviation of the differences,

    .. math::

        d_z = \frac{\bar d}{s_d}, \qquad s_d^2 = \frac{1}{n - 1} \sum_i (d_i - \bar d)^2

    which is ±inf when every difference is the same nonzero number, and 0.0 at 0/0 (two runs
    with the same score on every query), the package's convention for a ratio over 0.

    **Queries.** Every run is scored on every query the qrels judge; a judged query that a run
    does not hold scores 0 on every measure for that run (trec_eval ``-c``), so that a run
    cannot look better by leaving out its hard queries, and the paired tests see the same
    queries for every run. Those queries are listed in ``attrs["scored_zero"]``. A query only
    in a run is not evaluated, with :func:`rankedu.evaluate`'s ``QueryMismatchWarning``. Its
    other warnings (``rk.TieWarning``) pass through too, each message prefixed with the run's
    name (``run 'bm25': ties: ...``). At least 2 queries are needed.

    **Tests.** ``test="t"`` is :func:`rankedu.paired_t_test` (two-sided; when every difference
    is 0 its p-value is undefined and ``compare`` reports 1.0, the randomisation test's value
    there). ``test="randomization"`` is
    :func:`rankedu.stats.significance.paired_randomization_test` (two-sided, on the mean
    difference): exact over all :math:`2^n` sign flips for n <= 20 queries, so ``seed`` does
    not matter there; above, 10,000 random sign flips drawn from ``seed``, the same seed for
    every pair. ``test="bootstrap"`` is the paired bootstrap test of the mean difference
    (Efron and Tibshirani 1993, section 16.4; Sakai 2006): the differences are shifted to mean
    0, as the null hypothesis says, and resampled with replacement 10,000 times by
    :func:`rankedu.stats.significance.bootstrap_ci` (drawn from ``seed``, the same for every
    pair); the two-sided p-value is :math:`(1 + \#\{j : |\bar d^{*}_j| \ge |\bar d|\})/(1 + N)`,
    counted as the randomisation test counts. Every difference 0 gives 1.0.

    See Also
    --------
    rankedu.stats.multiple_comparisons.randomized_tukey_hsd : every pair of runs against one
        permutation distribution.

    Notes
    -----
    The chapter :doc:`/book/evaluating_runs` explains the tests, Holm's correction and what a
    marker does and does not say.

    References
    ----------
    - ``smucker2007``: Smucker, M. D., Allan, J. and Carterette, B. (2007). A comparison of
      statistical significance tests for information retrieval evaluation. CIKM 2007, 623-632.
    - ``efron1993``: Efron, B. and Tibshirani, R. J. (1993). An Introduction to the Bootstrap.
      Chapman & Hall (section 16.4, the bootstrap test of a mean).
    - ``sakai2006bootstrap``: Sakai, T. (2006). Evaluating evaluation metrics based on the
      bootstrap. SIGIR 2006, 525-532.
    - ``holm1979``: Holm, S. (1979). A simple sequentially rejective multiple test procedure.
      Scandinavian Journal of Statistics, 6(2), 65-70.
    - ``bassani2022``: Bassani, E. (2022). ranx: a blazing-fast Python library for ranking
      evaluation and comparison. ECIR 2022, 259-264 (its comparison table and markers).

    Examples
    --------
    >>> import rankedu as rk
    >>> qrels = {"q1": {"d1": 1, "d2": 1}, "q2": {"d3": 1}, "q3": {"d4": 1, "d5": 1},
    ...          "q4": {"d6": 1}}
    >>> runs = {
    ...     "bm25": {"q1": {"d1": 2.0, "d9": 1.0}, "q2": {"d9": 2.0, "d3": 1.0},
    ...              "q3": {"d9": 2.0, "d4": 1.0}, "q4": {"d9": 2.0, "d6": 1.0}},
    ...     "dense": {"q1": {"d1": 2.0, "d2": 1.0}, "q2": {"d3": 2.0, "d9": 1.0},
    ...               "q3": {"d4": 2.0, "d5": 1.0}, "q4": {"d6": 2.0, "d9": 1.0}},
    ... }
    >>> table = rk.compare(qrels, runs, ["RR"], baseline="bm25", test="randomization")
    >>> table.round(3)  # 4 queries, one tied: 4 of the 16 sign flips are as far from 0
              RR  RR p  RR d RR sig
    run
    bm25   0.625  <NA>  <NA>
    dense  1.000  0.25   1.5
    >>> print(table.attrs["note"].replace(", ", ",\n"))
    paired randomisation test (exact,
    2^4 sign flips),
    Holm-corrected over 1 comparison per measure,
    alpha 0.05

    Without a baseline, every pair is tested and the markers name the runs a run beats:

    >>> runs["tuned"] = {qid: {"d9": 1.0} for qid in qrels}
    >>> table = rk.compare(qrels, runs, ["RR"], alpha=0.1)
    >>> table[["RR", "RR sig"]].round(3)
              RR RR sig
    run
    bm25   0.625      c
    dense  1.000     ac
    tuned  0.000
    >>> table.attrs["letters"]
    {'bm25': 'a', 'dense': 'b', 'tuned': 'c'}
    """
    if not isinstance(runs, Mapping):
        raise TypeError(f"runs must be a dict {{name: run}}, got {type(runs).__name__}")
    names = list(runs)
    if len(names) < 2:
        raise ValueError(f"runs must hold at least 2 runs to compare, got {len(names)}")
    if baseline is not None:
        one_of(baseline, "baseline", names)
    elif len(names) > MAX_LETTERED_RUNS:
        raise ValueError(f"runs: without a baseline the runs are lettered a to z, so at most "
                         f"{MAX_LETTERED_RUNS} runs, got {len(names)}; name a baseline")
    one_of(test, "test", TESTS)
    one_of(correction, "correction", CORRECTIONS)
    alpha = as_open_probability(alpha, "alpha")
    if seed is not None:
        seed = as_count(seed, "seed")
    if isinstance(measures, str):
        measures = [measures]
    columns = [spec.name for spec in parse(measures)]

    scores = {name: _evaluated(name, qrels, run, columns, threshold=threshold, ties=ties)
              for name, run in runs.items()}
    n = len(scores[names[0]])
    if n < 2:
        raise ValueError(f"qrels must judge at least 2 queries to compare runs on, got {n}")

    pairs = ([(name, baseline) for name in names if name != baseline] if baseline is not None
             else list(itertools.combinations(names, 2)))
    letters = {} if baseline is not None else dict(zip(names, string.ascii_lowercase))
    table = pd.DataFrame(index=pd.Index(names, name="run"))
    for measure in columns:
        values = {name: scores[name][measure].to_numpy() for name in names}
        table[measure] = [float(values[name].mean()) for name in names]
        differences = [values[r] - values[s] for r, s in pairs]
        p_values = [_p_value(values[r], values[s], d, test, seed)
                    for (r, s), d in zip(pairs, differences)]
        if correction == "holm":
            p_values = [float(p) for p in holm(p_values)]
        effects = [_effect_size(d) for d in differences]
        if baseline is not None:
            _baseline_columns(table, measure, pairs, p_values, effects, alpha)
        else:
            _pairwise_columns(table, measure, names, pairs, p_values, effects, differences,
                              letters, alpha)

    table.attrs.update({
        "test": test,
        "correction": correction,
        "alpha": alpha,
        "baseline": baseline,
        "letters": letters,
        "queries": n,
        "scored_zero": {name: list(frame.attrs["only_in_qrels"])
                        for name, frame in scores.items()},
        "note": _note(test, correction, alpha, n, len(pairs), seed),
    })
    return table


def _evaluated(name, qrels, run, columns, **options) -> pd.DataFrame:
    """One run's per-query values (``missing="zero"``); evaluate's warnings are warned again,
    each message naming the run, so that several runs' warnings can be told apart."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        frame = evaluate(qrels, run, columns, missing="zero", **options)
    for warning in caught:
        warnings.warn(f"run {name!r}: {warning.message}", warning.category, stacklevel=3)
    return frame


def _p_value(a: np.ndarray, b: np.ndarray, differences: np.ndarray, test: str, seed) -> float:
    """The two-sided p-value of one pair; 1.0 for the t-test when every difference is 0."""
    if test == "t":
        if not differences.any():
            return 1.0
        return float(paired_t_test(a, b).p_value)
    if test == "bootstrap":
        return _bootstrap_p_value(differences, seed)
    return float(paired_randomization_test(a, b, n_resamples=N_RESAMPLES, seed=seed).p_value)


def _bootstrap_p_value(differences: np.ndarray, seed) -> float:
    """The paired bootstrap test: the mean differences of resamples of the differences shifted
    to mean 0 (the null), as far from 0 as the observed mean, counted as the randomisation
    test counts them (+1 above and below: a p-value is never 0)."""
    observed = float(differences.mean())
    null = bootstrap_ci(differences - observed, n_resamples=N_RESAMPLES, seed=seed).distribution
    return (1 + int(_at_least(null, observed, differences).sum())) / (1 + N_RESAMPLES)


def _effect_size(differences: np.ndarray) -> float:
    """Cohen's d_z: mean over standard deviation of the differences (±inf over 0, 0.0 at 0/0)."""
    mean = float(differences.mean())
    deviation = float(differences.std(ddof=1))
    if deviation == 0:
        return 0.0 if mean == 0 else math.copysign(math.inf, mean)
    return mean / deviation


def _baseline_columns(table, measure, pairs, p_values, effects, alpha) -> None:
    by_run = {r: (p, d) for (r, _), p, d in zip(pairs, p_values, effects)}
    table[f"{measure} p"] = pd.array([by_run.get(name, (None, None))[0] for name in table.index],
                                     dtype="Float64")
    table[f"{measure} d"] = pd.array([by_run.get(name, (None, None))[1] for name in table.index],
                                     dtype="Float64")
    table[f"{measure} sig"] = ["*" if name in by_run and by_run[name][0] < alpha else ""
                               for name in table.index]


def _pairwise_columns(table, measure, names, pairs, p_values, effects, differences, letters,
                      alpha) -> None:
    p = {}
    d = {}
    better = {}
    for (r, s), p_value, effect, difference in zip(pairs, p_values, effects, differences):
        p[r, s] = p[s, r] = p_value
        d[r, s], d[s, r] = effect, -effect
        mean = float(difference.mean())
        if p_value < alpha and mean != 0:
            better[(r, s) if mean > 0 else (s, r)] = True
    for other in names:
        table[f"{measure} p vs {other}"] = pd.array([p.get((name, other)) for name in names],
                                                    dtype="Float64")
    for other in names:
        table[f"{measure} d vs {other}"] = pd.array([d.get((name, other)) for name in names],
                                                    dtype="Float64")
    table[f"{measure} sig"] = ["".join(letters[other] for other in names
                                       if (name, other) in better) for name in names]


def _note(test, correction, alpha, n, comparisons, seed) -> str:
    if test == "t":
        described = "paired t-test"
    elif test == "bootstrap":
        described = (f"paired bootstrap test of the mean difference ({N_RESAMPLES:,} "
                     f"resamples, seed {seed})")
    elif n <= MAX_EXACT_QUERIES:
        described = f"paired randomisation test (exact, 2^{n} sign flips)"
    else:
        described = (f"paired randomisation test ({N_RESAMPLES:,} random sign flips, "
                     f"seed {seed})")
    counted = f"{comparisons} comparison{'' if comparisons == 1 else 's'} per measure"
    corrected = (f"Holm-corrected over {counted}" if correction == "holm"
                 else f"uncorrected ({counted})")
    return f"{described}, {corrected}, alpha {alpha:g}"
