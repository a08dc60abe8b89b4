r"""Off-policy estimators: the value of a target policy from a log written by another one.

A log holds one row per decision: the reward r_i that was observed, the logging policy's
probability p_i of the action it took (its *propensity*, ``pscore``) and the target policy's
probability pi_i of that same action (``target``). The importance weight is w_i = pi_i / p_i.
Every estimator here returns the estimated mean reward per decision under the target policy:

- IPS (Horvitz and Thompson 1952): mean of w_i r_i; unbiased when every p_i is the true
  logging probability and p > 0 wherever pi > 0 (support). Clipped IPS caps w at
  ``max_weight``: less variance, a downward bias.
- SNIPS (Swaminathan and Joachims 2015): sum w_i r_i / sum w_i; biased for a finite log,
  consistent, and never outside the range of the rewards.
- The direct method: mean of q_target_i, a model's estimate of the target policy's expected
  reward in row i's context; as good as the model.
- Doubly robust (Dudik, Langford and Li 2011): mean of q_target_i + w_i (r_i - q_logged_i);
  unbiased when the propensities are right, whatever the model, and of low variance when the
  model is good.
- Switch-DR (Wang, Agarwal and Dudik 2017): the doubly robust correction only where
  w_i <= tau.

Conventions: a ``pscore`` of 0 or below, or above 1, a ``target`` outside [0, 1], NaN or
infinity anywhere, arrays of different lengths and an empty log are errors naming the
argument. A ratio whose denominator is 0 (SNIPS when every weight is 0, the effective sample
size of zero weights) is 0.0. The chapter "Evaluating a new policy from logs"
(``book/off_policy.ipynb``) derives each estimator.
"""

from __future__ import annotations

import functools
import statistics
from typing import NamedTuple

import numpy as np

from rankedu.core.common import last, running_mean
from rankedu.core.ranked import safe_divide
from rankedu.core.steps import Steps, steps_of
from rankedu.core.validation import (
    as_above,
    as_number,
    as_numbers,
    as_open_probability,
    as_probabilities,
    as_propensities,
    one_of,
    same_length,
)
from rankedu.stats.resampling import _generator, _resamples

__all__ = ["OpeInterval", "direct_method", "doubly_robust", "effective_sample_size", "ips",
           "ope_interval", "snips", "switch_dr"]


def _weighted(reward, pscore, target, **models) -> dict[str, np.ndarray]:
    """The checked columns of a log as the explanation's first columns, shared by the
    estimators that weight it: each row's number, its reward, propensity and target
    probability, its weight w_i = pi_i / p_i, then each model's column (``q_logged`` as
    ``q_logged_i``)."""
    arrays = {"reward": as_numbers(reward, "reward"), "pscore": as_propensities(pscore, "pscore"),
              "target": as_probabilities(target, "target"),
              **{name: as_numbers(values, name) for name, values in models.items()}}
    same_length(**arrays)
    if not len(arrays["reward"]):
        raise ValueError("reward must hold at least one logged row, got an empty log")
    reward, pscore, target = arrays.pop("reward"), arrays.pop("pscore"), arrays.pop("target")
    return {"i": np.arange(1, len(reward) + 1), "r_i": reward, "p_i": pscore, "pi_i": target,
            "w_i": target / pscore, **{f"{name}_i": v for name, v in arrays.items()}}


def _ips_steps(reward, pscore, target, max_weight) -> Steps:
    columns = _weighted(reward, pscore, target)
    weight, reward = columns["w_i"], columns["r_i"]
    if max_weight is not None:
        weight = np.minimum(weight, as_above(max_weight, "max_weight", 0))
        columns["min(w_i, M)"] = weight
    columns["term_i"] = weight * reward
    columns["IPS so far"] = running_mean(columns["term_i"])
    return Steps(columns["IPS so far"][-1], {"IPS": columns})


def ips(reward, pscore, target, *, max_weight=None) -> float:
    r"""Inverse propensity scoring (Horvitz-Thompson): the mean of w_i r_i, w_i = pi_i / p_i.

    .. math:: \hat V_\mathrm{IPS} = \frac{1}{n} \sum_{i=1}^n \frac{\pi_i}{p_i} r_i,
       \qquad \hat V_\mathrm{clip} = \frac{1}{n} \sum_{i=1}^n \min(w_i, M)\, r_i

    Unbiased for the target policy's mean reward when each ``pscore`` is the logging
    policy's true probability of the logged action and the logging policy gives a positive
    probability to every action the target policy can take. Its variance grows with the
    weights: a target policy far from the logging one needs a large log. With ``max_weight``
    M, each weight is first clipped at M (clipped IPS): less variance, biased downward for
    non-negative rewards. ``rk.explain.ips`` shows every row's weight and term and the
    running estimate.

    Parameters
    ----------
    reward : sequence of float
        The logged rewards r_i (clicks: 0 or 1).
    pscore : sequence of float
        The logging policy's probability p_i of each logged action, in (0, 1].
    target : sequence of float
        The target policy's probability pi_i of that same action (in that context), in [0, 1].
    max_weight : float > 0, optional
        Clip every weight at this value.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Naming the argument: a ``pscore`` outside (0, 1], a ``target`` outside [0, 1], NaN,
        arrays of different lengths, an empty log, a ``max_weight`` <= 0.

    Notes
    -----
    The chapter :doc:`/book/off_policy` explains it.

    References
    ----------
    - ``horvitz1952``: Horvitz, D. G. and Thompson, D. J. (1952). A generalization of sampling
      without replacement from a finite universe. JASA 47(260), 663-685.
    - ``dudik2011``: Dudik, M., Langford, J. and Li, L. (2011). Doubly robust policy evaluation
      and learning. ICML 2011 (IPS and its bias under clipping, section 2).

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.ips([1, 0, 1], [0.5, 0.5, 0.25], [1.0, 0.0, 0.5])  # (2*1 + 0 + 2*1) / 3
    1.3333333333333333
    >>> rk.ips([1, 0, 1], [0.5, 0.5, 0.25], [1.0, 0.0, 0.5], max_weight=1.5)
    1.0
    """
    return _ips_steps(reward=reward, pscore=pscore, target=target, max_weight=max_weight).value


def _snips_steps(reward, pscore, target) -> Steps:
    columns = _weighted(reward, pscore, target)
    weighted = np.cumsum(columns["w_i"] * columns["r_i"])
    total = np.cumsum(columns["w_i"])
    columns.update({"sum w_j r_j": weighted, "sum w_j": total,
                    "SNIPS so far": safe_divide(weighted, total)})
    return Steps(columns["SNIPS so far"][-1], {"SNIPS": columns})


def snips(reward, pscore, target) -> float:
    r"""Self-normalised IPS: sum_i w_i r_i / sum_i w_i, with w_i = pi_i / p_i.

    .. math:: \hat V_\mathrm{SNIPS} = \frac{\sum_i w_i r_i}{\sum_i w_i}

    The weights' mean is 1 in expectation; dividing by their actual sum instead of by n
    removes the part of IPS's variance that comes from the weights alone, and keeps the
    estimate within the range of the rewards. The price is a bias of order 1/n: SNIPS is
    consistent, not unbiased. When every weight is 0 (the target policy never takes a logged
    action) the value is 0.0, the package's 0/0.

    Parameters
    ----------
    reward, pscore, target : sequence of float
        As for :func:`ips`.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        As :func:`ips` does.

    Notes
    -----
    The chapter :doc:`/book/off_policy` explains it.

    References
    ----------
    - ``swaminathan2015``: Swaminathan, A. and Joachims, T. (2015). The self-normalized
      estimator for counterfactual learning. NeurIPS 2015.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.snips([1, 0, 1], [0.5, 0.5, 0.25], [1.0, 0.0, 0.5])  # (2 + 2) / (2 + 0 + 2)
    1.0
    """
    return _snips_steps(reward=reward, pscore=pscore, target=target).value


def _direct_method_steps(q_target) -> Steps:
    q_target = as_numbers(q_target, "q_target")
    if not len(q_target):
        raise ValueError("q_target must hold at least one row, got an empty log")
    columns = {"i": np.arange(1, len(q_target) + 1), "term_i": q_target,
               "DM so far": running_mean(q_target)}
    return Steps(columns["DM so far"][-1], {"DM": columns})


def direct_method(q_target) -> float:
    r"""The direct method: the mean over the log's rows of a model's value of the target policy.

    .. math:: \hat V_\mathrm{DM} = \frac{1}{n} \sum_i \hat q(x_i, \pi) ,
       \qquad \hat q(x_i, \pi) = \sum_a \pi(a \mid x_i)\, \hat q(x_i, a)

    ``q_target`` holds q(x_i, pi) for each logged row i: the model's expected reward of the
    target policy in that row's context, the model's predictions averaged over the target
    policy's actions. No propensity enters: the log serves only for its contexts, and the
    estimate is as biased as the model is wrong, with the variance of the model's predictions.

    Parameters
    ----------
    q_target : sequence of float
        One value per logged row.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Naming ``q_target`` for NaN, infinity or an empty log.

    Notes
    -----
    The chapter :doc:`/book/off_policy` explains it.

    References
    ----------
    - ``dudik2011``: Dudik, M., Langford, J. and Li, L. (2011). Doubly robust policy evaluation
      and learning. ICML 2011 (the direct method, section 2).

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.direct_method([0.5, 0.25, 0.75])
    0.5
    """
    return _direct_method_steps(q_target=q_target).value


def _doubly_robust_terms(reward, pscore, target, q_logged, q_target) -> dict[str, np.ndarray]:
    columns = _weighted(reward, pscore, target, q_logged=q_logged, q_target=q_target)
    columns["correction_i"] = columns["w_i"] * (columns["r_i"] - columns["q_logged_i"])
    return columns


def _doubly_robust_steps(reward, pscore, target, q_logged, q_target) -> Steps:
    columns = _doubly_robust_terms(reward, pscore, target, q_logged, q_target)
    columns["term_i"] = columns["q_target_i"] + columns["correction_i"]
    columns["DR so far"] = running_mean(columns["term_i"])
    return Steps(columns["DR so far"][-1], {"DR": columns})


def doubly_robust(reward, pscore, target, q_logged, q_target) -> float:
    r"""Doubly robust: the direct method plus IPS on the model's residuals.

    .. math:: \hat V_\mathrm{DR} = \frac{1}{n} \sum_i \Big( \hat q(x_i, \pi)
       + w_i \big(r_i - \hat q(x_i, a_i)\big) \Big)

    ``q_logged`` is the model's prediction for the logged action (q(x_i, a_i)), ``q_target``
    its value of the target policy in the same context (as for :func:`direct_method`).
    Unbiased when the propensities are right, whatever the model (the correction's expectation
    removes the model's error); with a good model the residuals are small and so is the
    variance. With a wrong ``pscore`` it is still unbiased when the model is right: hence
    "doubly" robust.

    Parameters
    ----------
    reward, pscore, target : sequence of float
        As for :func:`ips`.
    q_logged, q_target : sequence of float
        The model's prediction for the logged action and its value of the target policy, one
        per row.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        As :func:`ips` does, and naming ``q_logged`` or ``q_target`` for NaN or a length that
        differs.

    Notes
    -----
    The chapter :doc:`/book/off_policy` explains it.

    References
    ----------
    - ``dudik2011``: Dudik, M., Langford, J. and Li, L. (2011). Doubly robust policy evaluation
      and learning. ICML 2011.

    Examples
    --------
    >>> import rankedu as rk
    >>> # row 1: 0.5 + 2 (1 - 0.5) = 1.5; row 2: 0.5 + 0 = 0.5
    >>> rk.doubly_robust([1, 0], [0.5, 0.5], [1.0, 0.0], [0.5, 0.5], [0.5, 0.5])
    1.0
    """
    return _doubly_robust_steps(reward=reward, pscore=pscore, target=target,
                                q_logged=q_logged, q_target=q_target).value


def _switch_dr_steps(reward, pscore, target, q_logged, q_target, tau) -> Steps:
    columns = _doubly_robust_terms(reward, pscore, target, q_logged, q_target)
    tau = as_number(tau, "tau")
    if tau < 0:
        raise ValueError(f"tau must be >= 0, got {tau:g}")
    columns["w_i <= tau"] = (columns["w_i"] <= tau).astype(float)
    columns["term_i"] = columns["q_target_i"] + columns["w_i <= tau"] * columns["correction_i"]
    columns["Switch-DR so far"] = running_mean(columns["term_i"])
    return Steps(columns["Switch-DR so far"][-1], {"Switch-DR": columns})


def switch_dr(reward, pscore, target, q_logged, q_target, *, tau) -> float:
    r"""Switch-DR: doubly robust where the weight is at most ``tau``, the model elsewhere.

    .. math:: \hat V_\mathrm{Switch} = \frac{1}{n} \sum_i \Big( \hat q(x_i, \pi)
       + \mathbb{1}[w_i \le \tau]\, w_i \big(r_i - \hat q(x_i, a_i)\big) \Big)

    Wang, Agarwal and Dudik (2017, section 4.1) split the actions of each context at the
    weight tau: for actions with pi(a|x)/mu(a|x) <= tau they use DR, for the others the model,
    which gives per context sum_a pi(a|x) q(x, a) 1[w(a) > tau] (the target policy's mass on
    high-weight actions, valued by the model) plus the DR estimate restricted to low-weight
    actions, sum_a pi(a|x) q(x, a) 1[w(a) <= tau] + 1[w_i <= tau] w_i (r_i - q(x_i, a_i)).
    The two model sums add up to q(x_i, pi), so the per-row form is exactly the formula above,
    which needs only the logged action's weight; it is also the form obp 0.5.7's
    ``SwitchDoublyRobust`` computes (``obp/ope/estimators.py``). ``tau = inf`` is
    :func:`doubly_robust`; ``tau`` below every weight is :func:`direct_method`. The bias is
    the model's error on the high-weight actions; the variance is that of weights <= tau.

    Parameters
    ----------
    reward, pscore, target, q_logged, q_target : sequence of float
        As for :func:`doubly_robust`.
    tau : float >= 0
        The largest weight whose row is corrected.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        As :func:`doubly_robust` does, and naming ``tau`` when it is negative or NaN.
    TypeError
        Naming ``tau`` when it is not a number.

    Notes
    -----
    The chapter :doc:`/book/off_policy` explains it.

    References
    ----------
    - ``wang2017switch``: Wang, Y.-X., Agarwal, A. and Dudik, M. (2017). Optimal and adaptive
      off-policy evaluation in contextual bandits. ICML 2017.
    - ``saito2021obd``: Saito, Y., Aihara, S., Matsutani, M. and Narita, Y. (2021). Open Bandit
      Dataset and Pipeline. NeurIPS 2021 Datasets and Benchmarks (obp's implementation).

    Examples
    --------
    >>> import rankedu as rk
    >>> log = ([1, 0], [0.5, 0.25], [1.0, 1.0], [0.5, 0.5], [0.5, 0.5])
    >>> rk.switch_dr(*log, tau=3)  # row 2's weight 4 > 3: the model alone; (1.5 + 0.5) / 2
    1.0
    >>> rk.doubly_robust(*log)  # row 2 corrected too: 0.5 + 4 (0 - 0.5) = -1.5
    0.0
    """
    return _switch_dr_steps(reward=reward, pscore=pscore, target=target, q_logged=q_logged,
                            q_target=q_target, tau=tau).value


def _effective_sample_size_steps(weights) -> Steps:
    weights = as_numbers(weights, "weights")
    if (weights < 0).any():
        raise ValueError(f"weights must be >= 0, got {weights[weights < 0][0]:g}")
    total = np.cumsum(weights)
    squares = np.cumsum(weights**2)
    columns = {"i": np.arange(1, len(weights) + 1), "w_i": weights, "sum w_j": total,
               "sum w_j^2": squares, "ESS so far": safe_divide(total**2, squares)}
    value = last(columns["ESS so far"])
    return Steps(value, {"ESS": columns})


def effective_sample_size(weights) -> float:
    r"""Kish's effective sample size of importance weights: (sum w)^2 / sum w^2.

    .. math:: n_\mathrm{eff} = \frac{\left(\sum_i w_i\right)^2}{\sum_i w_i^2}

    n when every weight is equal, 1 when a single weight carries everything: roughly how many
    rows of an on-policy log the weighted log is worth. 0.0 for no rows or all-zero weights.

    Parameters
    ----------
    weights : sequence of float
        Non-negative weights (pi_i / p_i for the log's rows).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Naming ``weights`` for a negative weight, NaN or infinity.

    Notes
    -----
    The chapter :doc:`/book/off_policy` explains it.

    References
    ----------
    - ``kish1965``: Kish, L. (1965). Survey Sampling. Wiley.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.effective_sample_size([1, 1, 1, 1])
    4.0
    >>> rk.effective_sample_size([4, 0, 0, 0])
    1.0
    """
    return _effective_sample_size_steps(weights=weights).value


class OpeInterval(NamedTuple):
    """An off-policy estimate and its confidence interval, as plain floats."""

    estimate: float
    low: float
    high: float


# The normal interval needs per-row terms whose mean is the estimate: the estimators that are
# means of per-row terms hold them in their table's ``term_i`` column.
_MEANS = {"ips", "direct_method", "doubly_robust", "switch_dr"}


def _row_terms(function, args, kwargs) -> np.ndarray:
    """Per-row terms whose mean is the estimate and whose standard error is its standard
    error, for rankedu's estimators: the ``term_i`` of a mean; for SNIPS its linearisation
    V + w_i (r_i - V) / mean(w) (the delta method), whose mean is V itself."""
    name = getattr(function, "__name__", None)
    if getattr(function, "__module__", None) != __name__ or name not in _MEANS | {"snips"}:
        raise ValueError(
            "method='normal' needs one of rankedu's estimators (ips, snips, direct_method, "
            "doubly_robust, switch_dr), whose per-row terms it knows; use "
            "method='bootstrap' for another function"
        )
    table = next(iter(steps_of(function, *args, **kwargs).tables.values()))
    if name in _MEANS:
        return table["term_i"]
    weight, reward = table["w_i"], table["r_i"]
    mean_weight = weight.mean()
    if mean_weight == 0:
        return np.zeros_like(weight)
    value = table["SNIPS so far"][-1]
    return value + weight * (reward - value) / mean_weight


def ope_interval(estimator, *arrays, method="bootstrap", alpha=0.05, n_resamples=1000,
                 seed=0) -> OpeInterval:
    r"""An estimate of a target policy's value and its 1 - ``alpha`` confidence interval.

    ``estimator(*arrays)`` is the estimate (``rk.ips``, ``rk.snips``, ``rk.doubly_robust``...,
    or ``functools.partial(rk.switch_dr, tau=10)`` for one with options); the log's rows are
    the i-th elements of ``arrays``, which are resampled together.

    - ``method="bootstrap"``: the percentile interval of ``n_resamples`` estimates on logs of n
      rows drawn with replacement (Efron and Tibshirani 1993, chapter 13), with a seeded
      generator. Works for any estimator; with few rewards it shows the skew a normal interval
      hides.
    - ``method="normal"``: estimate -/+ z_{1 - alpha/2} s / sqrt(n), where s is the standard
      deviation (ddof 1) of the per-row terms whose mean is the estimate (w_i r_i for IPS, the
      DR term for DR and Switch-DR, q_target for DM; for SNIPS the delta method's
      V + w_i (r_i - V) / mean(w)). Only for rankedu's estimators.

    Parameters
    ----------
    estimator : callable
        Called as ``estimator(*arrays)``; returns a float.
    *arrays : sequence
        The log's columns, in ``estimator``'s order.
    method : {"bootstrap", "normal"}, default "bootstrap"
    alpha : float in (0, 1), default 0.05
    n_resamples : int >= 1, default 1000
        Bootstrap resamples (unused by ``"normal"``).
    seed : int >= 0 or None, default 0
        Seed of the bootstrap's generator; the same seed gives the same interval.

    Returns
    -------
    OpeInterval
        ``(estimate, low, high)``, plain floats; ``estimate`` is ``estimator(*arrays)``.

    Raises
    ------
    ValueError
        Naming ``method``, ``alpha``, ``n_resamples`` or ``seed``, and as the estimator does for
        bad columns.

    Notes
    -----
    The chapter :doc:`/book/off_policy` explains it.

    References
    ----------
    - ``efron1993``: Efron, B. and Tibshirani, R. J. (1993). An Introduction to the Bootstrap.
      Chapman & Hall.
    - ``dudik2011``: Dudik, M., Langford, J. and Li, L. (2011). Doubly robust policy evaluation
      and learning. ICML 2011.

    Examples
    --------
    >>> import rankedu as rk
    >>> log = ([1, 0, 1, 0], [0.5, 0.5, 0.5, 0.5], [1.0, 1.0, 0.0, 1.0])
    >>> interval = rk.ope_interval(rk.ips, *log, method="normal")  # terms 2, 0, 0, 0
    >>> interval.estimate, round(interval.low, 3), round(interval.high, 3)  # 0.5 -/+ 1.96/2
    (0.5, -0.48, 1.48)
    >>> rk.ope_interval(rk.ips, *log, seed=1).estimate
    0.5
    """
    method = one_of(method, "method", ("bootstrap", "normal"))
    alpha = as_open_probability(alpha, "alpha")
    estimate = float(estimator(*arrays))
    columns = [np.asarray(column) for column in arrays]
    n = len(columns[0])
    if method == "normal":
        function, args, kwargs = estimator, (), {}
        if isinstance(estimator, functools.partial):
            function, args, kwargs = estimator.func, estimator.args, estimator.keywords
        terms = _row_terms(function, (*args, *columns), kwargs)
        half = (statistics.NormalDist().inv_cdf(1 - alpha / 2)
                * (terms.std(ddof=1) / np.sqrt(n) if n > 1 else 0.0))
        return OpeInterval(estimate, float(estimate - half), float(estimate + half))
    n_resamples = _resamples(n_resamples)
    generator = _generator(seed)
    estimates = np.empty(n_resamples)
    for b in range(n_resamples):
        rows = generator.integers(0, n, size=n)
        estimates[b] = estimator(*(column[rows] for column in columns))
    low, high = np.quantile(estimates, [alpha / 2, 1 - alpha / 2])
    return OpeInterval(estimate, float(low), float(high))
