"""How uncertain an AUC is: Hanley and McNeil's standard error, and DeLong's test of two AUCs.

Both take the AUC of :mod:`rankedu.metrics.auc` (:func:`~rankedu.roc_auc`, the exact U/(n+ n-) from the
positives' rank sum, midranks for ties) and its conventions: ``labels`` are 0/1 with n+
positives and n- negatives, ``scores`` are finite numbers, higher meaning more likely positive,
and a tie counts one half.

- :func:`auc_standard_error` estimates the standard error of one model's AUC from the AUC and
  the class counts alone (Hanley and McNeil, 1982); it needs both classes.
- :func:`delong_standard_error` estimates the same standard error from each item's structural
  component (DeLong et al., 1988), with no assumption about the shape of the score
  distributions; it needs two of each class.
- :func:`delong_test` compares two models scored on the same items: each item's structural
  components (the share of the other class it outscores, a tie counting one half) give the
  variance of the AUCs' difference, covariance included (DeLong et al., 1988), in
  O(n log n) by midranks (Sun and Xu, 2014); it needs two of each class.

The chapter "How sure is an AUC?" (``book/auc_uncertainty.ipynb``) derives them.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from rankedu.core.common import quantities, rank_sums, twice_midranks, two_sided_test
from rankedu.core.steps import Steps
from rankedu.core.validation import two_classes

__all__ = ["DeLongResult", "auc_standard_error", "delong_standard_error", "delong_test"]


def _auc_standard_error_steps(labels, scores) -> Steps:
    labels, (scores,), positives, negatives = two_classes(labels, scores=scores)
    (twice_u,) = rank_sums(labels, scores)[3]
    area = int(twice_u) / (2 * positives * negatives)
    q1 = area / (2 - area)
    q2 = 2 * area**2 / (1 + area)
    terms = (area * (1 - area), (positives - 1) * (q1 - area**2), (negatives - 1) * (q2 - area**2))
    variance = sum(terms) / (positives * negatives)
    # The three terms are variances and cannot be negative; a rounding error at AUC = 0 or 1 can.
    value = math.sqrt(max(variance, 0.0))
    table = quantities([
        ("n+", "positives", positives),
        ("n-", "negatives", negatives),
        ("AUC", "U / (n+ n-)", area),
        ("theta1", "AUC / (2 - AUC)", q1),
        ("theta2", "2 AUC^2 / (1 + AUC)", q2),
        ("term 1", "AUC (1 - AUC)", terms[0]),
        ("term 2", "(n+ - 1)(theta1 - AUC^2)", terms[1]),
        ("term 3", "(n- - 1)(theta2 - AUC^2)", terms[2]),
        ("SE^2", "(term 1 + term 2 + term 3) / (n+ n-)", variance),
        ("SE", "sqrt(SE^2)", value),
    ])
    return Steps(value, {"Hanley-McNeil": table})


def auc_standard_error(labels, scores) -> float:
    r"""Hanley and McNeil's (1982) standard error of the AUC.

    .. math::

        SE^2 = \frac{\mathrm{AUC}(1 - \mathrm{AUC}) + (n^+ - 1)(\theta_1 - \mathrm{AUC}^2)
                      + (n^- - 1)(\theta_2 - \mathrm{AUC}^2)}{n^+ n^-},
        \qquad \theta_1 = \frac{\mathrm{AUC}}{2 - \mathrm{AUC}}, \quad \theta_2 = \frac{2\,\mathrm{AUC}^2}{1 + \mathrm{AUC}}

    AUC is :func:`roc_auc`. With the true theta1 (Hanley and McNeil's Q1: the probability
    that two random positives both score above one random negative) and theta2 (their Q2:
    that one random positive scores above two random negatives) the formula is the exact
    variance of the AUC over new samples of n+ positives and n- negatives. Hanley and
    McNeil's closed forms for theta1 and theta2 are exact when one
    class's survival function is a power of the other's (two exponential distributions, for
    instance), and close for most other shapes; AUC is the observed one, so the result is an
    estimate. :func:`delong_standard_error` makes no such assumption. For two models on the
    same items, whose AUCs are correlated, use :func:`delong_test` instead.

    Parameters
    ----------
    labels : sequence of {0, 1}
        True classes; both must occur.
    scores : sequence of float
        Scores, higher meaning more likely positive.

    Returns
    -------
    float
        At least 0; 0.0 when the AUC is 0 or 1.

    Raises
    ------
    ValueError
        When ``labels`` hold only one class.

    See Also
    --------
    roc_auc, delong_standard_error, delong_test

    Notes
    -----
    The chapter :doc:`/book/auc_uncertainty` explains it. ``rk.explain.auc_standard_error``
    shows AUC, theta1, theta2, n+, n- and each term of the formula.

    References
    ----------
    - ``hanley1982``: Hanley, J. A., and McNeil, B. J. (1982). The meaning and use of the area under
      a receiver operating characteristic (ROC) curve. *Radiology*, 143(1), 29-36.

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
    return _auc_standard_error_steps(labels=labels, scores=scores).value


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
    placement = twice_midranks(scores) - twice_midranks(scores, labels.astype(np.int8))
    positive = labels == 1
    twice_u = int(placement[positive].sum())
    components = np.where(positive, placement / (2 * negatives), 1 - placement / (2 * positives))
    return components, twice_u


def _at_least_two_of_each(positives, negatives):
    if positives < 2 or negatives < 2:
        raise ValueError(
            f"labels must hold at least 2 positives and 2 negatives for DeLong's variance, got "
            f"{positives} positive and {negatives} negative"
        )


def _delong_variance(components, positive, positives, negatives):
    """DeLong's variance of a mean of structural components (one model's, or the differences
    of two models'): (S10, S01, S10 / n+ + S01 / n-), S10 and S01 their sample variances over
    the positives and over the negatives."""
    s10 = float(np.var(components[positive], ddof=1))
    s01 = float(np.var(components[~positive], ddof=1))
    return s10, s01, s10 / positives + s01 / negatives


def _delong_standard_error_steps(labels, scores) -> Steps:
    labels, (scores,), positives, negatives = two_classes(labels, scores=scores)
    _at_least_two_of_each(positives, negatives)
    components, twice_u = _structural_components(labels, scores, positives, negatives)
    area = twice_u / (2 * positives * negatives)
    positive = labels == 1
    s10, s01, variance = _delong_variance(components, positive, positives, negatives)
    value = math.sqrt(variance)
    table = quantities([
        ("n+", "positives", positives),
        ("n-", "negatives", negatives),
        ("AUC", "mean of V10 over the positives (or of V01 over the negatives)", area),
        ("S10", "variance of V10 over the positives", s10),
        ("S01", "variance of V01 over the negatives", s01),
        ("SE^2", "S10 / n+ + S01 / n-", variance),
        ("SE", "sqrt(SE^2)", value),
    ])
    items = {
        "item": np.arange(1, len(labels) + 1),
        "label": labels,
        "score": scores,
        "V": components,
    }
    return Steps(value, {"standard error": table, "structural components": items})


def delong_standard_error(labels, scores) -> float:
    r"""DeLong's standard error of one AUC, from the items' structural components.

    A positive's component V10 is the share of the negatives it outscores, a negative's V01
    the share of the positives that outscore it (a tie counting one half); either set
    averages to the AUC (:func:`roc_auc`). With S10 and S01 their sample variances over the
    positives and over the negatives (denominators n+ - 1 and n- - 1),

    .. math::

        SE^2 = \frac{S_{10}}{n^+} + \frac{S_{01}}{n^-}

    This is the one-model case of :func:`delong_test`'s variance (DeLong et al., 1988). Unlike
    :func:`auc_standard_error` (Hanley and McNeil's closed form, exact only when one class's
    survival function is a power of the other's), it assumes nothing about the shape of the
    score distributions. The components come from midranks, in O(n log n) (Sun and Xu, 2014).

    Parameters
    ----------
    labels : sequence of {0, 1}
        True classes; at least two of each.
    scores : sequence of float
        Scores, higher meaning more likely positive.

    Returns
    -------
    float
        At least 0; 0.0 when every positive outscores the same share of negatives and every
        negative is outscored by the same share of positives (an AUC of 0 or 1, for instance).

    Raises
    ------
    ValueError
        When ``labels`` hold fewer than two positives or two negatives, or ``labels`` and
        ``scores`` differ in length.

    See Also
    --------
    roc_auc, auc_standard_error, delong_test

    Notes
    -----
    The chapter :doc:`/book/auc_uncertainty` explains it.

    References
    ----------
    - ``delong1988``: DeLong, E. R., DeLong, D. M., and Clarke-Pearson, D. L. (1988). Comparing the
      areas under two or more correlated receiver operating characteristic curves: a nonparametric
      approach. *Biometrics*, 44(3), 837-845.
    - ``sun2014``: Sun, X., and Xu, W. (2014). Fast implementation of DeLong's algorithm for
      comparing the areas under correlated receiver operating characteristic curves. *IEEE Signal
      Processing Letters*, 21(11), 1389-1393.

    Examples
    --------
    >>> import rankedu as rk
    >>> labels = [1, 1, 1, 0, 0, 0, 0, 1, 0, 1]
    >>> scores = [0.9, 0.8, 0.35, 0.7, 0.3, 0.2, 0.1, 0.6, 0.5, 0.4]
    >>> round(rk.delong_standard_error(labels, scores), 4)
    0.1549
    """
    return _delong_standard_error_steps(labels=labels, scores=scores).value


def _delong_test_steps(labels, scores_a, scores_b) -> Steps:
    labels, (scores_a, scores_b), positives, negatives = two_classes(
        labels, scores_a=scores_a, scores_b=scores_b
    )
    _at_least_two_of_each(positives, negatives)
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
    variance = _delong_variance(gap, positive, positives, negatives)[2]
    standard_error = math.sqrt(variance)
    z, p_value = two_sided_test(difference, standard_error,
                                lambda z: math.erfc(abs(z) / math.sqrt(2)))
    result = DeLongResult(auc_a, auc_b, difference, standard_error, z, p_value)
    test = quantities([
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
    roc_auc, auc_standard_error, delong_standard_error

    Notes
    -----
    The chapter :doc:`/book/auc_uncertainty` explains it. ``rk.explain.delong_test`` shows every
    item's structural components and the covariance terms.

    References
    ----------
    - ``delong1988``: DeLong, E. R., DeLong, D. M., and Clarke-Pearson, D. L. (1988). Comparing the
      areas under two or more correlated receiver operating characteristic curves: a nonparametric
      approach. *Biometrics*, 44(3), 837-845.
    - ``sun2014``: Sun, X., and Xu, W. (2014). Fast implementation of DeLong's algorithm for
      comparing the areas under correlated receiver operating characteristic curves. *IEEE Signal
      Processing Letters*, 21(11), 1389-1393.

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
    return _delong_test_steps(labels=labels, scores_a=scores_a, scores_b=scores_b).value
