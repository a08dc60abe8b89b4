"""The ROC curve, the area under it (AUC), and group AUC (GAUC).

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

How uncertain an AUC is (its standard error, DeLong's test of two AUCs) is in
:mod:`rankedu.metrics.auc_uncertainty`. The chapters "ROC and AUC" (``book/roc_auc.ipynb``) and "GAUC"
(``book/gauc.ipynb``) derive them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rankedu.core.common import quantities, rank_sums
from rankedu.core.steps import Steps
from rankedu.core.validation import as_group_ids, as_labels, as_numbers, one_of, same_length, two_classes

__all__ = ["gauc", "roc_auc", "roc_curve"]


def _roc_auc_steps(labels, scores) -> Steps:
    labels, (scores,), positives, negatives = two_classes(labels, scores=scores)
    twice_rank, _, (twice_rank_sum,), (twice_u,) = rank_sums(labels, scores)
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
    rank_sum = quantities([
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
    - ``fawcett2006``: Fawcett, T. (2006). An introduction to ROC analysis. *Pattern Recognition
      Letters*, 27(8), 861-874.

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
    - ``mann1947``: Mann, H. B., and Whitney, D. R. (1947). On a test of whether one of two random
      variables is stochastically larger than the other. *The Annals of Mathematical Statistics*,
      18(1), 50-60.
    - ``bamber1975``: Bamber, D. (1975). The area above the ordinal dominance graph and the area
      below the receiver operating characteristic graph. *Journal of Mathematical Psychology*,
      12(4), 387-415.
    - ``hanley1982``: Hanley, J. A., and McNeil, B. J. (1982). The meaning and use of the area under
      a receiver operating characteristic (ROC) curve. *Radiology*, 143(1), 29-36.
    - ``fawcett2006``: Fawcett, T. (2006). An introduction to ROC analysis. *Pattern Recognition
      Letters*, 27(8), 861-874.

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
    return _roc_auc_steps(labels=labels, scores=scores).value


WEIGHTS = ("impressions", "clicks", "uniform")


def _gauc_steps(groups, labels, scores, weight="impressions") -> Steps:
    weight = one_of(weight, "weight", WEIGHTS)
    groups = as_group_ids(groups, "groups")
    try:
        labels = as_labels(labels, "labels")
    except ValueError as error:
        # gauc(labels, scores, groups), scikit-learn's y_true and y_score first, shows as labels
        # that are not 0/1 beside groups that are; anything less certain is not guessed at.
        if np.isin(groups, (0, 1)).all():
            raise ValueError(
                f"{error}, while groups hold only 0 and 1: gauc takes (groups, labels, scores), "
                f"not scikit-learn's order (y_true, y_score); name them: "
                f"gauc(groups=..., labels=..., scores=...)") from None
        raise
    scores = as_numbers(scores, "scores")
    same_length(groups=groups, labels=labels, scores=scores)
    codes, ids = pd.factorize(groups, sort=True)
    count = len(ids)
    impressions = np.bincount(codes, minlength=count)
    _, clicks, _, twice_u = rank_sums(labels, scores, codes, count)
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

    **Argument order.** The group comes first, as in the contract; scikit-learn's metrics take
    ``(y_true, y_score)`` first, so naming the arguments (``gauc(groups=g, labels=y,
    scores=s)``) is the safe habit. The mistaken order ``gauc(labels, scores, groups)`` is an
    error where it shows without guessing: ``labels`` that are not all 0/1 while ``groups``
    are, a ValueError saying so. (With scores that are all 0 or 1, such a mistake cannot be
    told from a call in the right order.)

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
        When no group holds both classes, a group id is missing, or ``labels`` are not 0/1
        (saying so when ``groups`` are 0/1: the arguments were probably given in
        scikit-learn's order).

    See Also
    --------
    roc_auc

    Notes
    -----
    The chapter :doc:`/book/gauc` explains it.

    References
    ----------
    - ``zhu2017``: Zhu, H., Jin, J., Tan, C., Pan, F., Zeng, Y., Li, H., and Gai, K. (2017).
      Optimized cost per click in Taobao display advertising. *KDD 2017*, 2191-2200.
    - ``zhou2018``: Zhou, G., Zhu, X., Song, C., Fan, Y., Zhu, H., Ma, X., Yan, Y., Jin, J., Li, H.,
      and Gai, K. (2018). Deep interest network for click-through rate prediction. *KDD 2018*,
      1059-1068.

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
    return _gauc_steps(groups=groups, labels=labels, scores=scores, weight=weight).value
