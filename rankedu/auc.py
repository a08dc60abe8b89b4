"""The ROC curve, the area under it (AUC), its standard error, DeLong's test, and group AUC (GAUC).

Conventions:

- ``labels`` are 0/1 (1 = positive: relevant, clicked); ``scores`` are any finite numbers,
  higher meaning more likely positive. There are n+ positives and n- negatives.
- AUC is U/(n+ n-), U being the Mann-Whitney count of (positive, negative) pairs in which the
  positive scores higher, a tie counting one half. U is counted exactly, by the rank sum: rank
  every score from the lowest (rank 1), give tied scores the mean of their ranks (the
  *midrank*), and U = R+ - n+(n+ + 1)/2, R+ being the sum of the positives' midranks. Twice a
  midrank is an integer, so 2U is an integer and the returned float is 2U / (2 n+ n-) rounded
  once: an AUC of 1375/2500 is 0.55, not a sum of trapezoids that lands on 0.5499999999999999.
  Sorting costs O(n log n).
- The ROC curve sweeps a threshold t down through the distinct scores, predicting positive
  when ``score >= t``; it starts at (0, 0) with t = inf. Documents with tied scores enter the
  curve together, as one diagonal step. The area under it, trapezoid by trapezoid, is the same
  U/(n+ n-) (Bamber, 1975): a step from (FP, TP) to (FP', TP') adds (FP' - FP)(TP + TP')/2
  pairs, and the explanation shows that sum next to the rank sum.
- AUC needs both classes; a single class raises ``ValueError``.
- GAUC averages the AUC of each group (user, session, request) weighted by the group's size
  (``"impressions"``), its positives (``"clicks"``), or equally (``"uniform"``, the plain mean
  sometimes called uAUC), over the groups that hold both classes; the others are left out and
  listed by the explanation. A missing group id (None, NaN, ``pd.NA``) is an error.

The chapters "ROC and AUC" (``book/roc_auc.ipynb``) and "GAUC" (``book/gauc.ipynb``) derive them.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pandas as pd

from rankedu._steps import Steps
from rankedu._validation import as_group_ids, as_labels, as_numbers, one_of, same_length


def _quantities(rows) -> dict[str, np.ndarray]:
    """A table of named quantities, one per row: (quantity, formula, value) triples."""
    quantity, formula, value = zip(*rows)
    return {"quantity": np.array(quantity), "formula": np.array(formula),
            "value": np.array(value, dtype=float)}


def _twice_midranks(scores: np.ndarray, groups: np.ndarray | None = None) -> np.ndarray:
    """Twice each score's midrank within its group (1 = the group's lowest score; tied scores
    share the mean of their ranks). Doubled, the midrank is an integer, so rank sums stay exact."""
    # Ties share one midrank whatever their order, so the sort by score need not be stable; the
    # pass by group must be, to keep each group's scores in order.
    order = np.argsort(scores)
    if groups is not None:
        order = order[np.argsort(groups[order], kind="stable")]
    ranked = scores[order]
    n = len(ranked)
    position = np.arange(n)
    new_group = np.ones(n, dtype=bool)
    if groups is not None:
        grouped = groups[order]
        new_group[1:] = grouped[1:] != grouped[:-1]
    else:
        new_group[1:] = False
    new_tie = new_group.copy()
    new_tie[1:] |= ranked[1:] != ranked[:-1]
    group_start = np.maximum.accumulate(np.where(new_group, position, 0))
    tie_first = np.maximum.accumulate(np.where(new_tie, position, 0))
    ends_tie = np.r_[new_tie[1:], True]
    tie_last = np.minimum.accumulate(np.where(ends_tie, position, n)[::-1])[::-1]
    twice = (tie_first - group_start + 1) + (tie_last - group_start + 1)
    result = np.empty(n, dtype=np.int64)
    result[order] = twice
    return result


def _rank_sums(labels, scores, codes=None, count=1):
    """Twice every score's midrank (within its group), and per group the positives n+ and the
    exact integer 2U = 2R+ - n+(n+ + 1). One group when ``codes`` is None; otherwise ``codes``
    numbers the ``count`` groups from 0."""
    twice_rank = _twice_midranks(scores, codes)
    codes = np.zeros(len(labels), dtype=np.intp) if codes is None else codes
    positives = np.zeros(count, dtype=np.int64)
    np.add.at(positives, codes, labels)
    twice_rank_sum = np.zeros(count, dtype=np.int64)
    np.add.at(twice_rank_sum, codes, labels * twice_rank)
    return twice_rank, positives, twice_rank_sum, twice_rank_sum - positives * (positives + 1)


def _two_classes(labels, **scores):
    """Validate labels and the named score arrays for AUC.

    Returns the labels, the score arrays in the order given, and the class counts n+ and n-."""
    labels = as_labels(labels, "labels")
    arrays = {name: as_numbers(values, name) for name, values in scores.items()}
    same_length(labels=labels, **arrays)
    positives = int(labels.sum())
    negatives = len(labels) - positives
    if positives == 0 or negatives == 0:
        raise ValueError(
            f"labels must hold both classes for AUC, got {positives} positive and "
            f"{negatives} negative"
        )
    return labels, list(arrays.values()), positives, negatives


def _roc_auc_steps(labels, scores) -> Steps:
    labels, (scores,), positives, negatives = _two_classes(labels, scores=scores)
    twice_rank, _, (twice_rank_sum,), (twice_u,) = _rank_sums(labels, scores)
    # Python integers: one correctly rounded division of the exact pair count.
    value = int(twice_u) / (2 * positives * negatives)
    order = np.argsort(-scores, kind="stable")
    ranked_scores, ranked_labels = scores[order], labels[order]
    # The last document of each run of tied scores closes one threshold.
    last_of_tie = np.r_[ranked_scores[1:] != ranked_scores[:-1], True]
    tp = np.r_[0, np.cumsum(ranked_labels)[last_of_tie]]
    fp = np.r_[0, np.cumsum(1 - ranked_labels)[last_of_tie]]
    # Each trapezoid, in pairs: twice its area times n+ n- is an integer.
    twice_pairs = np.r_[0, np.diff(fp) * (tp[1:] + tp[:-1])]
    running = np.cumsum(twice_pairs)
    roc = {
        "threshold": np.r_[np.inf, ranked_scores[last_of_tie]],
        "TP": tp,
        "FP": fp,
        "TPR": tp / positives,
        "FPR": fp / negatives,
        "area": twice_pairs / (2 * positives * negatives),
        "U": running / 2,
        "AUC": running / (2 * positives * negatives),
    }
    documents = {
        "rank": np.arange(1, len(labels) + 1),
        "score": ranked_scores,
        "label": ranked_labels,
        "midrank": twice_rank[order] / 2,
    }
    rank_sum = _quantities([
        ("n+", "positives", positives),
        ("n-", "negatives", negatives),
        ("R+", "sum of the positives' midranks", int(twice_rank_sum) / 2),
        ("U", "R+ - n+(n+ + 1)/2", int(twice_u) / 2),
        ("AUC", "U / (n+ n-)", value),
    ])
    return Steps(value, {"ROC": roc, "documents": documents, "rank sum": rank_sum})


def roc_curve(labels, scores) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The points of the ROC curve: false positive rates, true positive rates, thresholds.

    One point per distinct score, from the highest down, after a first point (0, 0) at
    threshold ``inf``. This is scikit-learn's ``roc_curve`` with ``drop_intermediate=False``.

    Parameters
    ----------
    labels : sequence of {0, 1}
        True classes.
    scores : sequence of float
        Scores, higher meaning more likely positive.

    Returns
    -------
    fpr, tpr, thresholds : numpy arrays

    See Also
    --------
    roc_auc

    Notes
    -----
    The chapter :doc:`/book/roc_auc` explains it.

    References
    ----------
    - Fawcett, T. (2006). An introduction to ROC analysis. *Pattern Recognition Letters*,
      27(8), 861-874. Key ``fawcett2006`` in the book's bibliography.

    Examples
    --------
    >>> import rankedu as rk
    >>> fpr, tpr, thresholds = rk.roc_curve([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    >>> fpr.tolist(), tpr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    """
    roc = _roc_auc_steps(labels, scores).tables["ROC"]
    return roc["FPR"], roc["TPR"], roc["threshold"]


def roc_auc(labels, scores) -> float:
    r"""Area under the ROC curve: the share of (positive, negative) pairs ranked right.

    .. math::

        AUC = \frac{U}{n^+ n^-}, \qquad
        U = \sum_{p \in P} \sum_{n \in N} \left([s_p > s_n] + \tfrac12 [s_p = s_n]\right)
          = R^+ - \frac{n^+ (n^+ + 1)}{2}

    that is, the probability that a random positive scores above a random negative, a tie
    counting one half. U is the Mann-Whitney statistic, computed from the rank sum R+ of the
    positives (midranks for ties) in O(n log n). 2U is an integer, and the result is the
    correctly rounded float of 2U / (2 n+ n-). The area under the ROC curve
    (:func:`roc_curve`), summed as trapezoids, is the same number (Bamber, 1975).

    Parameters
    ----------
    labels : sequence of {0, 1}
        True classes; both must occur.
    scores : sequence of float
        Scores, higher meaning more likely positive.

    Returns
    -------
    float
        In [0, 1]; 0.5 for scores that carry no information, 1 for a perfect ranking.

    Raises
    ------
    ValueError
        When ``labels`` hold only one class.

    See Also
    --------
    roc_curve, auc_standard_error, delong_test, gauc, pair_ratio

    Notes
    -----
    The chapter :doc:`/book/roc_auc` explains it.

    References
    ----------
    - Mann, H. B., and Whitney, D. R. (1947). On a test of whether one of two random variables
      is stochastically larger than the other. *The Annals of Mathematical Statistics*, 18(1),
      50-60. Key ``mann1947``.
    - Bamber, D. (1975). The area above the ordinal dominance graph and the area below the
      receiver operating characteristic graph. *Journal of Mathematical Psychology*, 12(4),
      387-415. Key ``bamber1975``.
    - Hanley, J. A., and McNeil, B. J. (1982). The meaning and use of the area under a receiver
      operating characteristic (ROC) curve. *Radiology*, 143(1), 29-36. Key ``hanley1982``.
    - Fawcett, T. (2006). An introduction to ROC analysis. *Pattern Recognition Letters*,
      27(8), 861-874. Key ``fawcett2006``.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.roc_auc([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])  # 3 of 4 pairs in order
    0.75
    >>> rk.roc_auc([1, 0], [0.5, 0.5])  # a tie counts one half
    0.5
    >>> rk.roc_auc([1, 1, 0, 0, 0], [0.9, 0.4, 0.6, 0.4, 0.1])  # U = 4.5 of 6 pairs
    0.75
    """
    return _roc_auc_steps(labels, scores).value


def _auc_standard_error_steps(labels, scores) -> Steps:
    labels, (scores,), positives, negatives = _two_classes(labels, scores=scores)
    (twice_u,) = _rank_sums(labels, scores)[3]
    area = int(twice_u) / (2 * positives * negatives)
    q1 = area / (2 - area)
    q2 = 2 * area**2 / (1 + area)
    terms = (area * (1 - area), (positives - 1) * (q1 - area**2), (negatives - 1) * (q2 - area**2))
    variance = sum(terms) / (positives * negatives)
    # The three terms are variances and cannot be negative; a rounding error at A = 0 or 1 can.
    value = math.sqrt(max(variance, 0.0))
    table = _quantities([
        ("n+", "positives", positives),
        ("n-", "negatives", negatives),
        ("A", "AUC = U / (n+ n-)", area),
        ("Q1", "A / (2 - A)", q1),
        ("Q2", "2 A^2 / (1 + A)", q2),
        ("term 1", "A (1 - A)", terms[0]),
        ("term 2", "(n+ - 1)(Q1 - A^2)", terms[1]),
        ("term 3", "(n- - 1)(Q2 - A^2)", terms[2]),
        ("SE^2", "(term 1 + term 2 + term 3) / (n+ n-)", variance),
        ("SE", "sqrt(SE^2)", value),
    ])
    return Steps(value, {"Hanley-McNeil": table})


def auc_standard_error(labels, scores) -> float:
    r"""Hanley and McNeil's (1982) standard error of the AUC.

    .. math::

        SE^2 = \frac{A(1 - A) + (n^+ - 1)(Q_1 - A^2) + (n^- - 1)(Q_2 - A^2)}{n^+ n^-},
        \qquad Q_1 = \frac{A}{2 - A}, \quad Q_2 = \frac{2A^2}{1 + A}

    A is :func:`roc_auc`. With the true Q1 (the probability that two random positives both
    score above one random negative) and Q2 (that one random positive scores above two random
    negatives) the formula is the exact variance of the AUC over new samples of n+ positives
    and n- negatives. Hanley and McNeil's closed forms for Q1 and Q2 are exact when one
    class's survival function is a power of the other's (two exponential distributions, for
    instance), and close for most other shapes; A is the observed AUC, so the result is an
    estimate. For two models on the same items, whose AUCs are correlated, use
    :func:`delong_test` instead.

    Parameters
    ----------
    labels : sequence of {0, 1}
        True classes; both must occur.
    scores : sequence of float
        Scores, higher meaning more likely positive.

    Returns
    -------
    float
        At least 0; 0.0 when A is 0 or 1.

    Raises
    ------
    ValueError
        When ``labels`` hold only one class.

    See Also
    --------
    roc_auc, delong_test

    Notes
    -----
    The chapter :doc:`/book/roc_auc` explains it. ``rk.explain.auc_standard_error`` shows A,
    Q1, Q2, n+, n- and each term of the formula.

    References
    ----------
    - Hanley, J. A., and McNeil, B. J. (1982). The meaning and use of the area under a receiver
      operating characteristic (ROC) curve. *Radiology*, 143(1), 29-36. Key ``hanley1982``.

    Examples
    --------
    >>> import rankedu as rk
    >>> labels = [1, 1, 1, 0, 0, 0, 0, 1, 0, 1]
    >>> scores = [0.9, 0.8, 0.35, 0.7, 0.3, 0.2, 0.1, 0.6, 0.5, 0.4]
    >>> rk.roc_auc(labels, scores)
    0.8
    >>> round(rk.auc_standard_error(labels, scores), 4)
    0.1485
    """
    return _auc_standard_error_steps(labels, scores).value


class DeLongResult(NamedTuple):
    """The outcome of :func:`delong_test`: both AUCs, their difference, its standard error,
    the z statistic and the two-sided p-value."""

    auc_a: float
    auc_b: float
    difference: float
    standard_error: float
    z: float
    p_value: float


def _structural_components(labels, scores, positives, negatives):
    """DeLong's V10 (for each positive: the share of negatives it outscores, a tie counting
    one half) and V01 (for each negative: the share of positives that outscore it), one per
    item in input order, and the exact 2U.

    A positive's midrank among all items less its midrank among the positives is the number
    of negatives below it (Sun and Xu, 2014), so two sorts give every component."""
    placement = _twice_midranks(scores) - _twice_midranks(scores, labels.astype(np.int8))
    positive = labels == 1
    twice_u = int(placement[positive].sum())
    components = np.where(positive, placement / (2 * negatives), 1 - placement / (2 * positives))
    return components, twice_u


def _delong_test_steps(labels, scores_a, scores_b) -> Steps:
    labels, (scores_a, scores_b), positives, negatives = _two_classes(
        labels, scores_a=scores_a, scores_b=scores_b
    )
    if positives < 2 or negatives < 2:
        raise ValueError(
            f"labels must hold at least 2 positives and 2 negatives for DeLong's variance, got "
            f"{positives} positive and {negatives} negative"
        )
    pairs = positives * negatives
    v_a, twice_u_a = _structural_components(labels, scores_a, positives, negatives)
    v_b, twice_u_b = _structural_components(labels, scores_b, positives, negatives)
    auc_a, auc_b = twice_u_a / (2 * pairs), twice_u_b / (2 * pairs)
    difference = (twice_u_a - twice_u_b) / (2 * pairs)
    positive = labels == 1
    s10 = np.cov(v_a[positive], v_b[positive])
    s01 = np.cov(v_a[~positive], v_b[~positive])
    # Var(AUC_a - AUC_b) = (S10_aa + S10_bb - 2 S10_ab)/n+ + (S01_aa + S01_bb - 2 S01_ab)/n-,
    # evaluated as the variance of the per-item differences, which is the same sum without
    # the cancellation that two nearly equal models would cause.
    gap = v_a - v_b
    variance = float(np.var(gap[positive], ddof=1) / positives + np.var(gap[~positive], ddof=1) / negatives)
    standard_error = math.sqrt(variance)
    if standard_error > 0:
        z = difference / standard_error
        p_value = math.erfc(abs(z) / math.sqrt(2))
    elif difference != 0:
        z, p_value = math.copysign(math.inf, difference), 0.0
    else:
        z = p_value = math.nan
    result = DeLongResult(auc_a, auc_b, difference, standard_error, z, p_value)
    test = _quantities([
        ("n+", "positives", positives),
        ("n-", "negatives", negatives),
        ("AUC_a", "mean of V_a over the positives (or the negatives)", auc_a),
        ("AUC_b", "mean of V_b over the positives (or the negatives)", auc_b),
        ("difference", "AUC_a - AUC_b", difference),
        ("S10_aa", "variance of V_a over the positives", s10[0, 0]),
        ("S10_bb", "variance of V_b over the positives", s10[1, 1]),
        ("S10_ab", "covariance of V_a and V_b over the positives", s10[0, 1]),
        ("S01_aa", "variance of V_a over the negatives", s01[0, 0]),
        ("S01_bb", "variance of V_b over the negatives", s01[1, 1]),
        ("S01_ab", "covariance of V_a and V_b over the negatives", s01[0, 1]),
        ("variance", "(S10_aa + S10_bb - 2 S10_ab)/n+ + (S01_aa + S01_bb - 2 S01_ab)/n-", variance),
        ("standard error", "sqrt(variance)", standard_error),
        ("z", "difference / standard error", z),
        ("p-value", "erfc(|z| / sqrt(2)), two-sided", p_value),
    ])
    items = {
        "item": np.arange(1, len(labels) + 1),
        "label": labels,
        "score_a": scores_a,
        "score_b": scores_b,
        "V_a": v_a,
        "V_b": v_b,
        "V_a - V_b": gap,
    }
    return Steps(result, {"test": test, "structural components": items})


def delong_test(labels, scores_a, scores_b) -> DeLongResult:
    r"""DeLong's test: do two models scored on the same items differ in AUC?

    Each item gets a *structural component* per model: a positive's V10 is the share of the
    negatives it outscores, a negative's V01 the share of the positives that outscore it (a
    tie counting one half). Either set averages to the AUC. With S10 and S01 the 2 x 2
    covariance matrices of the two models' components over the positives and over the
    negatives (denominators n+ - 1 and n- - 1),

    .. math::

        \operatorname{Var}(A_a - A_b)
        = \frac{S^{10}_{aa} + S^{10}_{bb} - 2 S^{10}_{ab}}{n^+}
        + \frac{S^{01}_{aa} + S^{01}_{bb} - 2 S^{01}_{ab}}{n^-},
        \qquad z = \frac{A_a - A_b}{\sqrt{\operatorname{Var}(A_a - A_b)}}

    and the two-sided p-value is that of z under the standard normal distribution,
    ``erfc(|z| / sqrt(2))``. The covariance terms account for the two AUCs being measured on
    the same items. The components come from midranks, in O(n log n) (Sun and Xu, 2014).

    Parameters
    ----------
    labels : sequence of {0, 1}
        True classes; at least two of each.
    scores_a, scores_b : sequence of float
        The two models' scores for the same items, in the same order.

    Returns
    -------
    DeLongResult
        A named tuple ``(auc_a, auc_b, difference, standard_error, z, p_value)`` of floats,
        ``difference`` being ``auc_a - auc_b``. When the standard error is 0 (the two models'
        components differ by the same amount on every positive and on every negative, as for
        identical scores) z is ``inf`` with p-value 0.0 if the AUCs differ, and both are
        ``nan`` (0/0: nothing to test) if they do not.

    Raises
    ------
    ValueError
        When ``labels`` hold fewer than two positives or two negatives, or the three sequences
        differ in length.

    See Also
    --------
    roc_auc, auc_standard_error

    Notes
    -----
    The chapter :doc:`/book/roc_auc` explains it. ``rk.explain.delong_test`` shows every
    item's structural components and the covariance terms.

    References
    ----------
    - DeLong, E. R., DeLong, D. M., and Clarke-Pearson, D. L. (1988). Comparing the areas under
      two or more correlated receiver operating characteristic curves: a nonparametric
      approach. *Biometrics*, 44(3), 837-845. Key ``delong1988``.
    - Sun, X., and Xu, W. (2014). Fast implementation of DeLong's algorithm for comparing the
      areas under correlated receiver operating characteristic curves. *IEEE Signal Processing
      Letters*, 21(11), 1389-1393. Key ``sun2014``.

    Examples
    --------
    >>> import rankedu as rk
    >>> labels = [1, 1, 1, 0, 0, 0, 0, 1, 0, 1]
    >>> a = [0.9, 0.8, 0.35, 0.7, 0.3, 0.2, 0.1, 0.6, 0.5, 0.4]
    >>> b = [0.6, 0.3, 0.4, 0.5, 0.2, 0.8, 0.1, 0.9, 0.7, 0.2]
    >>> result = rk.delong_test(labels, a, b)
    >>> result.auc_a, result.auc_b
    (0.8, 0.54)
    >>> round(result.z, 4), round(result.p_value, 4)
    (1.2809, 0.2002)
    """
    return _delong_test_steps(labels, scores_a, scores_b).value


WEIGHTS = ("impressions", "clicks", "uniform")


def _gauc_steps(groups, labels, scores, weight="impressions") -> Steps:
    weight = one_of(weight, "weight", WEIGHTS)
    groups = as_group_ids(groups, "groups")
    labels = as_labels(labels, "labels")
    scores = as_numbers(scores, "scores")
    same_length(groups=groups, labels=labels, scores=scores)
    codes, ids = pd.factorize(groups, sort=True)
    count = len(ids)
    impressions = np.bincount(codes, minlength=count)
    _, clicks, _, twice_u = _rank_sums(labels, scores, codes, count)
    used = (clicks > 0) & (clicks < impressions)
    if not used.any():
        raise ValueError("groups: no group holds both classes, so no group has an AUC")
    impressions_used, clicks_used, twice_u = impressions[used], clicks[used], twice_u[used]
    # Each group's AUC is one correctly rounded division of its exact pair count 2U.
    auc = twice_u / (2 * clicks_used * (impressions_used - clicks_used))
    weights = {"impressions": impressions_used, "clicks": clicks_used,
               "uniform": np.ones(len(auc), dtype=np.int64)}[weight].astype(float)
    table = {
        "group": ids[used],
        "impressions": impressions_used,
        "clicks": clicks_used,
        "U": twice_u / 2,
        "AUC": auc,
        "weight": weights,
        "weight·AUC": weights * auc,
        "GAUC": np.cumsum(weights * auc) / np.cumsum(weights),
    }
    skipped = {"group": ids[~used], "impressions": impressions[~used], "clicks": clicks[~used]}
    return Steps(table["GAUC"][-1], {"groups": table, "skipped": skipped})


def gauc(groups, labels, scores, *, weight="impressions") -> float:
    r"""Group AUC: the weighted mean of the per-group AUC.

    .. math:: GAUC = \frac{\sum_u w_u\, AUC_u}{\sum_u w_u}

    over the groups u (users, sessions, requests) that hold both classes; a group with only
    positives or only negatives has no AUC and is left out (the explanation lists it). Each
    AUC_u is :func:`roc_auc` of the group's rows, the exact U_u/(n+_u n-_u). Comparing
    scores only within a group measures how well each group's items are ordered, which a
    global AUC mixes up with differences between groups. Zhou et al. (2018) give the form
    most code copies: groups are users, weighted by impressions. The plain mean
    (``weight="uniform"``, sometimes called uAUC) is a convention of its own, not an error.
    One sort by group and score computes every group's rank sum, in O(n log n).

    Parameters
    ----------
    groups : sequence
        The group of each example: ids of one type (all strings, or all numbers). A missing
        id (None, NaN, ``pd.NA``) raises ``ValueError``; ids of mixed types raise
        ``TypeError``.
    labels : sequence of {0, 1}
        True classes.
    scores : sequence of float
        Scores, higher meaning more likely positive.
    weight : {"impressions", "clicks", "uniform"}, default "impressions"
        w_u is the group's size, its number of positives, or 1.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        When no group holds both classes, or a group id is missing.

    See Also
    --------
    roc_auc

    Notes
    -----
    The chapter :doc:`/book/gauc` explains it.

    References
    ----------
    - Zhu, H., Jin, J., Tan, C., Pan, F., Zeng, Y., Li, H., and Gai, K. (2017). Optimized cost
      per click in Taobao display advertising. *KDD 2017*, 2191-2200. Key ``zhu2017``.
    - Zhou, G., Zhu, X., Song, C., Fan, Y., Zhu, H., Ma, X., Yan, Y., Jin, J., Li, H., and
      Gai, K. (2018). Deep interest network for click-through rate prediction. *KDD 2018*,
      1059-1068. Key ``zhou2018``.

    Examples
    --------
    >>> import rankedu as rk
    >>> groups = ["u1", "u1", "u1", "u2", "u2", "u3"]
    >>> labels = [1, 0, 0, 1, 0, 1]
    >>> scores = [0.9, 0.5, 0.7, 0.2, 0.4, 0.3]
    >>> rk.gauc(groups, labels, scores)  # u1: AUC 1 (3 shown), u2: AUC 0 (2 shown), u3 left out
    0.6
    >>> rk.gauc(groups, labels, scores, weight="uniform")  # (1 + 0) / 2
    0.5
    """
    return _gauc_steps(groups, labels, scores, weight).value
