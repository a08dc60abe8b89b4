"""The pair ratio (正逆序比): concordant pairs over discordant pairs.

Take every pair of documents with different grades. The pair is **concordant** when the
document with the higher grade also has the higher score, **discordant** when it has the lower
score, and neither when the two scores are tied. Pairs with equal grades say nothing about
order and are not counted.

Conventions: the ratio is C / D; ``math.inf`` when C > 0 and D = 0 (a perfect order); 0.0 when
there is no concordant pair (including 0/0, when no pair has different grades and untied
scores). The number of pairs grows as n^2, and so do time and memory. The chapter "The pair
ratio" (``book/pair_ratio.ipynb``) relates it to Kendall's tau and to AUC.
"""

from __future__ import annotations

import math

import numpy as np

from rankedu._steps import Steps
from rankedu._validation import as_numbers, one_of, same_length


def _pairs(grades, scores):
    """Every pair i < j of documents: the two positions, and the sign of their difference in
    grade and in score. A pair is concordant when the signs agree (their product is 1),
    discordant when they differ (-1), and tied in grade or score when that sign is 0."""
    grades = as_numbers(grades, "grades")
    scores = as_numbers(scores, "scores")
    same_length(grades=grades, scores=scores)
    first, second = np.triu_indices(len(grades), k=1)
    return (grades, scores, first, second,
            np.sign(grades[first] - grades[second]), np.sign(scores[first] - scores[second]))


def _pair_ratio_steps(grades, scores) -> Steps:
    grades, scores, first, second, grade_order, score_order = _pairs(grades, scores)
    keep = grade_order != 0
    # Orient each pair so that "a" is the document with the higher grade; the table numbers
    # documents by their position in the input, from 1.
    higher_first = grade_order[keep] > 0
    a = np.where(higher_first, first[keep], second[keep])
    b = np.where(higher_first, second[keep], first[keep])
    direction = (grade_order * score_order)[keep]
    concordant = np.cumsum(direction > 0)
    discordant = np.cumsum(direction < 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(discordant > 0, concordant / np.maximum(discordant, 1), np.inf)
    ratio = np.where(concordant == 0, 0.0, ratio)
    columns = {
        "a": a + 1,
        "b": b + 1,
        "g_a": grades[a],
        "g_b": grades[b],
        "s_a": scores[a],
        "s_b": scores[b],
        "verdict": np.array(["discordant", "tied score", "concordant"])[direction.astype(int) + 1],
        "C": concordant,
        "D": discordant,
        "C/D": ratio,
    }
    value = ratio[-1] if len(ratio) else 0.0
    return Steps(value, {"pairs": columns})


def pair_ratio(grades, scores) -> float:
    r"""Concordant pairs divided by discordant pairs.

    .. math::

        \text{Pair} = \frac{C}{D}, \quad
        C = \#\{(a, b) : g_a > g_b,\ s_a > s_b\}, \quad
        D = \#\{(a, b) : g_a > g_b,\ s_a < s_b\}

    Pairs with equal grades are not counted; pairs with equal scores are neither concordant
    nor discordant. Kendall's tau over the counted pairs is (C - D)/(C + D) = (ratio - 1) /
    (ratio + 1), and for 0/1 grades without tied scores AUC = C/(C + D).

    Parameters
    ----------
    grades : sequence of float
        True relevance of each document.
    scores : sequence of float
        The model's score for each document, in the same order.

    Returns
    -------
    float
        In [0, inf]: ``math.inf`` when there are concordant pairs and no discordant one; 0.0
        when there is no concordant pair.

    Notes
    -----
    The chapter :doc:`/book/pair_ratio` explains it.

    Examples
    --------
    The seeds' example: true order [1, 3, 4, 6], model order [1, 4, 6, 3]. Grade each document
    by its place in the true order and score it by its place in the model's:

    >>> import rankedu as rk
    >>> grades = [4, 3, 2, 1]  # documents 1, 3, 4, 6
    >>> scores = [4, 1, 3, 2]  # the model puts 1 first, then 4, 6, 3
    >>> rk.pair_ratio(grades, scores)  # 4 concordant, 2 discordant
    2.0
    """
    return _pair_ratio_steps(grades, scores).value


def _pair_counts(grades, scores) -> dict[str, int]:
    """Over all n(n-1)/2 pairs: concordant, discordant, tied in grade, tied in score."""
    _, _, first, _, grade_order, score_order = _pairs(grades, scores)
    agreement = grade_order * score_order
    return {
        "pairs": len(first),
        "concordant": int((agreement > 0).sum()),
        "discordant": int((agreement < 0).sum()),
        "tied grades": int((grade_order == 0).sum()),
        "tied scores": int((score_order == 0).sum()),
    }


def kendall_tau(grades, scores, *, variant="b") -> float:
    r"""Kendall's rank correlation between grades and scores, tau-a or tau-b.

    .. math::

        \tau_a = \frac{C - D}{n_0}, \qquad
        \tau_b = \frac{C - D}{\sqrt{(n_0 - n_1)(n_0 - n_2)}}

    over all n_0 = n(n-1)/2 pairs of documents, where C and D are the concordant and discordant
    pairs (as in :func:`pair_ratio`), n_1 the pairs tied in grade and n_2 the pairs tied in
    score. tau-b is what ``scipy.stats.kendalltau`` computes by default. Without ties both equal
    (C - D)/(C + D) = (ratio - 1)/(ratio + 1), ratio being :func:`pair_ratio`; with ties they
    do not (see :func:`goodman_kruskal_gamma`). 0.0 when the denominator is 0 (every grade or
    every score the same, or fewer than two documents).

    Parameters
    ----------
    grades : sequence of float
        True relevance of each document.
    scores : sequence of float
        The model's score for each document, in the same order.
    variant : {"a", "b"}, default "b"

    Returns
    -------
    float in [-1, 1]

    Notes
    -----
    The chapter :doc:`/book/pair_ratio` explains it.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.kendall_tau([4, 3, 2, 1], [4, 1, 3, 2])  # 4 concordant, 2 discordant pairs
    0.3333333333333333
    >>> round(rk.kendall_tau([1, 1, 0, 0], [4, 3, 2, 1]), 4)  # 4 concordant, 2 tied in grade
    0.8165
    """
    one_of(variant, "variant", ("a", "b"))
    counts = _pair_counts(grades, scores)
    n0 = counts["pairs"]
    if variant == "a":
        denominator = float(n0)
    else:
        denominator = math.sqrt((n0 - counts["tied grades"]) * (n0 - counts["tied scores"]))
    if denominator == 0:
        return 0.0
    return float((counts["concordant"] - counts["discordant"]) / denominator)


def goodman_kruskal_gamma(grades, scores) -> float:
    r"""Goodman and Kruskal's gamma: (C - D) / (C + D), over pairs tied in neither grade nor score.

    These are exactly the pairs :func:`pair_ratio` counts, so gamma = (ratio - 1)/(ratio + 1)
    (and 1.0 when the ratio is infinite). It equals Kendall's tau (:func:`kendall_tau`, either
    variant) when nothing is tied; with ties it is larger in absolute value, because tied pairs
    are left out of the denominator. 0.0 when C + D = 0.

    Parameters
    ----------
    grades : sequence of float
        True relevance of each document.
    scores : sequence of float
        The model's score for each document, in the same order.

    Returns
    -------
    float in [-1, 1]

    Notes
    -----
    The chapter :doc:`/book/pair_ratio` explains it.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.goodman_kruskal_gamma([1, 1, 0, 0], [4, 3, 2, 1])  # 4 concordant, no discordant
    1.0
    """
    counts = _pair_counts(grades, scores)
    counted = counts["concordant"] + counts["discordant"]
    if counted == 0:
        return 0.0
    return float((counts["concordant"] - counts["discordant"]) / counted)
