"""The ROC curve, the area under it (AUC), and group AUC (GAUC).

Conventions:

- ``labels`` are 0/1 (1 = positive: relevant, clicked); ``scores`` are any finite numbers,
  higher meaning more likely positive.
- The ROC curve sweeps a threshold t down through the distinct scores, predicting positive
  when ``score >= t``; it starts at (0, 0) with t = inf. Documents with tied scores enter the
  curve together, as one diagonal step.
- AUC is the area under that curve, summed as trapezoids. It equals the probability that a
  random positive scores above a random negative, a tie counting one half (the Mann-Whitney
  statistic), so the diagonal steps of tied scores are exactly where ties count 1/2.
- AUC needs both classes; a single class raises ``ValueError``.
- GAUC averages the AUC of each group (user, search session) weighted by the group's size
  (``"impressions"``) or positives (``"clicks"``), over the groups that hold both classes;
  the others are skipped and listed by the explanation.

The chapters "ROC and AUC" (``book/roc_auc.ipynb``) and "GAUC" (``book/gauc.ipynb``) derive them.
"""

from __future__ import annotations

import numpy as np

from rankedu._steps import Steps
from rankedu._validation import as_labels, as_numbers, one_of, same_length


def _roc_auc_steps(labels, scores) -> Steps:
    labels = as_labels(labels, "labels")
    scores = as_numbers(scores, "scores")
    same_length(labels=labels, scores=scores)
    positives = int(labels.sum())
    negatives = len(labels) - positives
    if positives == 0 or negatives == 0:
        raise ValueError(
            f"labels must hold both classes for AUC, got {positives} positive and "
            f"{negatives} negative"
        )
    order = np.argsort(-scores, kind="stable")
    ranked_scores, ranked_labels = scores[order], labels[order]
    # The last document of each run of tied scores closes one threshold.
    last_of_tie = np.r_[ranked_scores[1:] != ranked_scores[:-1], True]
    tp = np.r_[0, np.cumsum(ranked_labels)[last_of_tie]]
    fp = np.r_[0, np.cumsum(1 - ranked_labels)[last_of_tie]]
    tpr, fpr = tp / positives, fp / negatives
    area = np.r_[0.0, np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2]
    roc = {
        "threshold": np.r_[np.inf, ranked_scores[last_of_tie]],
        "TP": tp,
        "FP": fp,
        "TPR": tpr,
        "FPR": fpr,
        "area": area,
        "AUC": np.cumsum(area),
    }
    documents = {"rank": np.arange(1, len(labels) + 1), "score": ranked_scores, "label": ranked_labels}
    return Steps(roc["AUC"][-1], {"ROC": roc, "documents": documents})


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

    Notes
    -----
    The chapter :doc:`/book/roc_auc` explains it.

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
    r"""Area under the ROC curve.

    .. math::

        AUC = \Pr(s^+ > s^-) + \tfrac12 \Pr(s^+ = s^-)
            = \frac{1}{|P|\,|N|} \sum_{p \in P} \sum_{n \in N}
              \left([s_p > s_n] + \tfrac12 [s_p = s_n]\right)

    computed as the trapezoid area under the ROC curve, which is the same number.

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

    See Also
    --------
    roc_curve, gauc, pair_ratio

    Notes
    -----
    The chapter :doc:`/book/roc_auc` explains it.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.roc_auc([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])  # 3 of 4 pairs in order
    0.75
    >>> rk.roc_auc([1, 0], [0.5, 0.5])  # a tie counts one half
    0.5
    """
    return _roc_auc_steps(labels, scores).value


WEIGHTS = ("impressions", "clicks")


def _gauc_steps(groups, labels, scores, weight="impressions") -> Steps:
    weight = one_of(weight, "weight", WEIGHTS)
    if isinstance(groups, (str, bytes)) or not hasattr(groups, "__len__"):
        raise TypeError(f"groups must be a sequence of group ids, got {type(groups).__name__}")
    groups = np.asarray(groups)
    if groups.ndim != 1:
        raise ValueError(f"groups must be one-dimensional, got an array of shape {groups.shape}")
    labels = as_labels(labels, "labels")
    scores = as_numbers(scores, "scores")
    same_length(groups=groups, labels=labels, scores=scores)
    used = {"group": [], "impressions": [], "clicks": [], "AUC": []}
    skipped = {"group": [], "impressions": [], "clicks": []}
    for group in np.unique(groups):
        members = groups == group
        clicks = int(labels[members].sum())
        impressions = int(members.sum())
        table = used if 0 < clicks < impressions else skipped
        table["group"].append(group)
        table["impressions"].append(impressions)
        table["clicks"].append(clicks)
        if table is used:
            table["AUC"].append(_roc_auc_steps(labels[members], scores[members]).value)
    if not used["group"]:
        raise ValueError("groups: no group holds both classes, so no group has an AUC")
    used = {name: np.array(column) for name, column in used.items()}
    used["weight"] = used[weight].astype(float)
    used["weight·AUC"] = used["weight"] * used["AUC"]
    used["GAUC"] = np.cumsum(used["weight·AUC"]) / np.cumsum(used["weight"])
    skipped = {name: np.array(column) for name, column in skipped.items()}
    return Steps(used["GAUC"][-1], {"groups": used, "skipped": skipped})


def gauc(groups, labels, scores, *, weight="impressions") -> float:
    r"""Group AUC: the weighted mean of the per-group AUC.

    .. math:: GAUC = \frac{\sum_u w_u\, AUC_u}{\sum_u w_u}

    over the groups u (users, search sessions) that hold both classes; a group with only
    positives or only negatives has no AUC and is skipped. Comparing scores only within a
    group measures how well each user's items are ordered, which a global AUC mixes up with
    differences between users (Zhu et al., 2017).

    Parameters
    ----------
    groups : sequence
        The group of each example (any sortable ids).
    labels : sequence of {0, 1}
        True classes.
    scores : sequence of float
        Scores, higher meaning more likely positive.
    weight : {"impressions", "clicks"}, default "impressions"
        w_u is the group's size, or its number of positives.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        When no group holds both classes.

    Notes
    -----
    The chapter :doc:`/book/gauc` explains it.

    Examples
    --------
    >>> import rankedu as rk
    >>> groups = ["u1", "u1", "u1", "u2", "u2", "u3"]
    >>> labels = [1, 0, 0, 1, 0, 1]
    >>> scores = [0.9, 0.5, 0.7, 0.2, 0.4, 0.3]
    >>> rk.gauc(groups, labels, scores)  # u1: AUC 1 (3 shown), u2: AUC 0 (2 shown), u3 skipped
    0.6
    """
    return _gauc_steps(groups, labels, scores, weight).value
