"""The pair ratio (正逆序比), Kendall's tau and Goodman and Kruskal's gamma: counting pairs.

Take every pair of documents. The pair is **concordant** when the document with the higher
grade also has the higher score, **discordant** when it has the lower score; a pair tied in
grade, in score or in both is neither. With C concordant and D discordant pairs:

- the pair ratio is rho = C / D: ``math.inf`` when D = 0 < C (no pair out of order), and
  ``math.nan`` when C = D = 0 (no pair to judge: every grade or every score the same);
- gamma is (C - D) / (C + D), ``nan`` when C + D = 0, so gamma = (rho - 1)/(rho + 1) holds
  everywhere (rho = inf gives gamma = 1);
- Kendall's tau-a and tau-b divide C - D by all pairs, or by the geometric mean of the pairs
  untied in grade and untied in score; ``nan`` when that denominator is 0, as in scipy.

C and D are counted in O(n log n) by Knight's (1966) method: sort the documents by grade and
then score, count the inversions of the scores in that order (they are exactly the discordant
pairs) by a merge sort, and get C from the tie counts. So the functions handle a million
documents in about a second. The explanations list the pairs one by one, which takes O(n^2),
and do so for at most ``MAX_LISTED`` = 2,000 documents (1,999,000 pairs); above that they
raise ``ValueError`` naming ``grades``. The chapter "The pair ratio"
(``book/pair_ratio.ipynb``) relates them to each other and to AUC.
"""

from __future__ import annotations

import math

import numpy as np

from rankedu.core.common import quantities
from rankedu.core.steps import Steps
from rankedu.core.validation import as_numbers, one_of, same_length

__all__ = ["goodman_kruskal_gamma", "kendall_tau", "pair_ratio"]

# The explanations list every pair of documents only up to this many documents.
MAX_LISTED = 2_000
# Below this length a run of the merge sort is sorted, and its inversions counted, directly.
_BLOCK = 16


def _inversions(values: np.ndarray) -> int:
    """The number of pairs i < j with values[i] > values[j], for non-negative integers.

    A bottom-up merge sort: blocks of ``_BLOCK`` are counted pair by pair, then runs of width
    w are merged into runs of 2w, all at once, by one stable sort keyed on (run, value). A
    left-run element moves right by the number of smaller right-run elements, and a right-run
    element left by the number of larger left-run elements, so half the total distance moved
    is the number of inversions between the two runs."""
    n = len(values)
    full = n - n % _BLOCK
    blocks = values[:full].reshape(-1, _BLOCK)
    tail = values[full:]
    total = sum(int(np.count_nonzero(blocks[:, i, None] > blocks[:, i + 1:])) for i in range(_BLOCK - 1))
    total += sum(int(np.count_nonzero(tail[i] > tail[i + 1:])) for i in range(len(tail)))
    current = np.concatenate([np.sort(blocks, axis=1).ravel(), np.sort(tail)])
    bits = int(current.max()).bit_length() if n else 0
    position = np.arange(n)
    place = np.empty(n, dtype=np.int64)
    width = _BLOCK
    while width < n:
        order = np.argsort(((position // (2 * width)) << bits) | current, kind="stable")
        place[order] = position
        total += int(np.abs(place - position).sum()) // 2
        current = current[order]
        width *= 2
    return total


def _tied_pairs(sizes: np.ndarray) -> int:
    """Pairs within groups of the given sizes: the sum of t(t - 1)/2."""
    sizes = sizes.astype(np.int64)
    return int((sizes * (sizes - 1) // 2).sum())


def _pair_counts(grades, scores) -> dict[str, int]:
    """Validate the input and count its pairs by Knight's method, in O(n log n)."""
    grades = as_numbers(grades, "grades")
    scores = as_numbers(scores, "scores")
    same_length(grades=grades, scores=scores)
    n = len(grades)
    grade_rank = np.unique(grades, return_inverse=True)[1].ravel().astype(np.int64)
    score_rank = np.unique(scores, return_inverse=True)[1].ravel().astype(np.int64)
    joint = grade_rank * (int(score_rank.max()) + 1 if n else 1) + score_rank
    # Documents equal in both grade and score are interchangeable: no need for a stable sort.
    order = np.argsort(joint)
    joint_sorted = joint[order]
    run_starts = np.flatnonzero(np.r_[True, joint_sorted[1:] != joint_sorted[:-1]]) if n else np.array([], int)
    pairs = n * (n - 1) // 2
    tied_grades = _tied_pairs(np.bincount(grade_rank))
    tied_scores = _tied_pairs(np.bincount(score_rank))
    tied_both = _tied_pairs(np.diff(np.r_[run_starts, n]))
    # Sorted by grade, then score: a later document never has a lower grade, and one with the
    # same grade never a lower score, so a later, lower score is exactly a discordant pair.
    discordant = _inversions(score_rank[order])
    concordant = pairs - tied_grades - tied_scores + tied_both - discordant
    return {"n": n, "pairs": pairs, "tied grades": tied_grades, "tied scores": tied_scores,
            "tied both": tied_both, "concordant": concordant, "discordant": discordant}


def _count_rows(counts: dict[str, int]) -> list[tuple]:
    return [
        ("n", "documents", counts["n"]),
        ("n0", "n(n - 1)/2: every pair", counts["pairs"]),
        ("n1", "pairs tied in grade", counts["tied grades"]),
        ("n2", "pairs tied in score", counts["tied scores"]),
        ("n3", "pairs tied in both", counts["tied both"]),
        ("D", "discordant: inversions of s, sorted by g then s (Knight)", counts["discordant"]),
        ("C", "concordant: n0 - n1 - n2 + n3 - D", counts["concordant"]),
    ]


def _listed_pairs(grades, scores) -> dict[str, np.ndarray]:
    """Every pair i < j, one row each, for the explanations: the two positions (from 0), the
    signs of the grade and score differences, the verdict, and the validated inputs."""
    grades = as_numbers(grades, "grades")
    scores = as_numbers(scores, "scores")
    same_length(grades=grades, scores=scores)
    n = len(grades)
    if n > MAX_LISTED:
        raise ValueError(
            f"grades: {n:,} documents make {n * (n - 1) // 2:,} pairs, too many to list (the "
            f"explanation lists the pairs of at most {MAX_LISTED:,} documents); the function "
            f"itself computes the value from counts, without listing them"
        )
    first, second = np.triu_indices(n, k=1)
    grade_order = np.sign(grades[first] - grades[second]).astype(int)
    score_order = np.sign(scores[first] - scores[second]).astype(int)
    verdict = np.where(grade_order * score_order > 0, "concordant", "discordant").astype(object)
    verdict[(grade_order == 0) & (score_order != 0)] = "tied grade"
    verdict[(grade_order != 0) & (score_order == 0)] = "tied score"
    verdict[(grade_order == 0) & (score_order == 0)] = "tied both"
    return {"first": first, "second": second, "grade order": grade_order,
            "score order": score_order, "verdict": verdict, "grades": grades, "scores": scores}


def _ratio(concordant, discordant) -> float:
    if discordant == 0:
        return math.nan if concordant == 0 else math.inf
    return concordant / discordant


def _pair_ratio_steps(grades, scores, *, listed=True) -> Steps:
    """The pair ratio from the counts; with ``listed`` (the explanation) also every pair of
    documents with different grades, oriented so that document a has the higher grade."""
    # The listing first: above MAX_LISTED documents it refuses before any counting.
    pairs = _pair_table(grades, scores, graded_only=True) if listed else None
    counts = _pair_counts(grades, scores)
    value = _ratio(counts["concordant"], counts["discordant"])
    tables = {"counts": quantities([*_count_rows(counts), ("rho", "C / D", value)])}
    if listed:
        with np.errstate(divide="ignore", invalid="ignore"):
            # inf at D = 0 < C, nan at C = D = 0, as rho
            pairs["C/D"] = pairs["C"] / pairs["D"]
        tables = {"pairs": pairs, **tables}
    return Steps(value, tables)


def pair_ratio(grades, scores) -> float:
    r"""Concordant pairs divided by discordant pairs (正逆序比, PNR).

    .. math::

        \rho = \frac{C}{D}, \quad
        C = \#\{(a, b) : g_a > g_b,\ s_a > s_b\}, \quad
        D = \#\{(a, b) : g_a > g_b,\ s_a < s_b\}

    Pairs with equal grades are not counted; pairs with equal scores are neither concordant
    nor discordant. Its better-known relative is *pairwise accuracy*, C/(C + D) = rho/(rho +
    1): the share of the judged pairs that the scores put in the right order.

    The ratio ignores position: it is not top-weighted. A discordant pair at ranks 99 and 100
    costs what one at ranks 1 and 2 costs, unlike DCG or ERR (and unlike the top-weighted tau_AP).

    For 0/1 grades C/(C + D) equals :func:`roc_auc` only when no positive and negative tie in
    score (AUC counts such a tie one half), and then rho = AUC/(1 - AUC). Goodman and
    Kruskal's gamma is (rho - 1)/(rho + 1) (:func:`goodman_kruskal_gamma`); Kendall's tau is
    not: 0/1 grades tie in many pairs, and tau-b counts them (:func:`kendall_tau`). So 2 AUC -
    1 is Somers' D, equal to gamma without score ties, and not Kendall's tau.

    C and D are counted in O(n log n) (Knight, 1966).

    Parameters
    ----------
    grades : sequence of float
        True relevance of each document.
    scores : sequence of float
        The model's score for each document, in the same order.

    Returns
    -------
    float
        In [0, inf]: ``math.inf`` when there are concordant pairs and no discordant one;
        0.0 when there are discordant pairs and no concordant one; ``math.nan`` when there is
        no pair to judge (C = D = 0: every grade the same, or every pair with different grades
        tied in score).

    See Also
    --------
    goodman_kruskal_gamma, kendall_tau, roc_auc

    Notes
    -----
    The chapter :doc:`/book/pair_ratio` explains it. ``rk.explain.pair_ratio`` lists every
    pair with different grades for at most 2,000 documents and raises ``ValueError`` above.

    References
    ----------
    - ``goodman1954``: Goodman, L. A., and Kruskal, W. H. (1954). Measures of association for cross
      classifications. *Journal of the American Statistical Association*, 49(268), 732-764.
    - ``knight1966``: Knight, W. R. (1966). A computer method for calculating Kendall's tau with
      ungrouped data. *Journal of the American Statistical Association*, 61(314), 436-439.

    Examples
    --------
    The chapter's example: true order [1, 3, 4, 6], model order [1, 4, 6, 3]. Grade each document
    by its place in the true order and score it by its place in the model's:

    >>> import rankedu as rk
    >>> grades = [4, 3, 2, 1]  # documents 1, 3, 4, 6
    >>> scores = [4, 1, 3, 2]  # the model puts 1 first, then 4, 6, 3
    >>> rk.pair_ratio(grades, scores)  # 4 concordant, 2 discordant
    2.0
    >>> rk.pair_ratio([2, 1, 0], [0.5, 0.5, 0.5])  # every score tied: no pair to judge
    nan
    """
    return _pair_ratio_steps(grades=grades, scores=scores, listed=False).value


def _pair_table(grades, scores, *, graded_only=False) -> dict[str, np.ndarray]:
    """Every pair, with its verdict and the running C and D, for the explanations; with
    ``graded_only`` (the pair ratio's) only the pairs with different grades, oriented so that
    document a has the higher grade."""
    pairs = _listed_pairs(grades, scores)
    a, b, grade_order = pairs["first"], pairs["second"], pairs["grade order"]
    direction, verdict = grade_order * pairs["score order"], pairs["verdict"]
    if graded_only:
        keep = grade_order != 0
        higher_first = grade_order[keep] > 0
        a, b = (np.where(higher_first, a[keep], b[keep]), np.where(higher_first, b[keep], a[keep]))
        direction, verdict = direction[keep], verdict[keep]
    return {
        "a": a + 1,
        "b": b + 1,
        "g_a": pairs["grades"][a],
        "g_b": pairs["grades"][b],
        "s_a": pairs["scores"][a],
        "s_b": pairs["scores"][b],
        "verdict": verdict,
        "C": np.cumsum(direction > 0),
        "D": np.cumsum(direction < 0),
    }


def _kendall_tau_steps(grades, scores, variant="b", *, listed=True) -> Steps:
    one_of(variant, "variant", ("a", "b"))
    pairs = _pair_table(grades, scores) if listed else None
    counts = _pair_counts(grades, scores)
    n0, c_minus_d = counts["pairs"], counts["concordant"] - counts["discordant"]
    if variant == "a":
        denominator, formula = float(n0), "n0"
    else:
        denominator = math.sqrt((n0 - counts["tied grades"]) * (n0 - counts["tied scores"]))
        formula = "sqrt((n0 - n1)(n0 - n2))"
    value = c_minus_d / denominator if denominator else math.nan
    tables = {"counts": quantities([
        *_count_rows(counts),
        ("denominator", formula, denominator),
        (f"tau_{variant}", "(C - D) / denominator", value),
    ])}
    if listed:
        tables["pairs"] = pairs
    return Steps(value, tables)


def kendall_tau(grades, scores, *, variant="b") -> float:
    r"""Kendall's rank correlation between grades and scores, tau-a or tau-b.

    .. math::

        \tau_a = \frac{C - D}{n_0}, \qquad
        \tau_b = \frac{C - D}{\sqrt{(n_0 - n_1)(n_0 - n_2)}}

    over all n_0 = n(n-1)/2 pairs of documents, where C and D are the concordant and discordant
    pairs (as in :func:`pair_ratio`), n_1 the pairs tied in grade and n_2 the pairs tied in
    score. tau-b is what ``scipy.stats.kendalltau`` computes by default. Without ties both equal
    (C - D)/(C + D) = (rho - 1)/(rho + 1), rho being :func:`pair_ratio`; with ties they
    do not (see :func:`goodman_kruskal_gamma`). For 0/1 grades 2 AUC - 1 is not tau: the
    pairs tied in grade pull tau-b towards 0. ``math.nan`` when the denominator is 0 (fewer
    than two documents; for tau-b also every grade or every score the same), as in scipy.
    C and D are counted in O(n log n) (Knight, 1966).

    Parameters
    ----------
    grades : sequence of float
        True relevance of each document.
    scores : sequence of float
        The model's score for each document, in the same order.
    variant : {"a", "b"}, default "b"

    Returns
    -------
    float in [-1, 1], or nan

    See Also
    --------
    pair_ratio, goodman_kruskal_gamma

    Notes
    -----
    The chapter :doc:`/book/pair_ratio` explains it. ``rk.explain.kendall_tau`` shows the
    counts and, for at most 2,000 documents, lists every pair; above that it raises
    ``ValueError``.

    Grades and scores are compared exactly, as scipy compares them: two values tie only when
    they are equal as floats. Means computed in floating point can differ in the last bit
    where the exact means are equal (three P@10 values 0.1, 0.2, 0.3 averaged in two orders
    give 0.20000000000000004 and 0.19999999999999998), and such a pair then counts as
    concordant or discordant instead of tied. When correlating means of systems (or of
    anything computed), round them first, e.g. to 12 decimals, or compute them from integer
    counts; the last example below shows the trap and the fix.

    References
    ----------
    - ``kendall1938``: Kendall, M. G. (1938). A new measure of rank correlation. *Biometrika*,
      30(1/2), 81-93.
    - ``kendall1945``: Kendall, M. G. (1945). The treatment of ties in ranking problems.
      *Biometrika*, 33(3), 239-251.
    - ``knight1966``: Knight, W. R. (1966). A computer method for calculating Kendall's tau with
      ungrouped data. *Journal of the American Statistical Association*, 61(314), 436-439.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.kendall_tau([4, 3, 2, 1], [4, 1, 3, 2])  # 4 concordant, 2 discordant pairs
    0.3333333333333333
    >>> round(rk.kendall_tau([1, 1, 0, 0], [4, 3, 2, 1]), 4)  # 4 concordant, 2 tied in grade
    0.8165
    >>> rk.kendall_tau([1, 1, 1], [3, 2, 1])  # every grade the same: 0/0
    nan

    Two systems with the same P@10 per query, averaged in a different order, and a third:

    >>> p10 = [sum([0.1, 0.2, 0.3]) / 3, sum([0.3, 0.2, 0.1]) / 3, 0.5]
    >>> p10[0] == p10[1]  # equal means, unequal floats
    False
    >>> ap = [0.31, 0.45, 0.52]
    >>> round(rk.kendall_tau(p10, ap), 4)  # the last-bit difference counts as discordant
    0.3333
    >>> round(rk.kendall_tau([round(m, 12) for m in p10], ap), 4)  # rounded: a tie
    0.8165
    """
    return _kendall_tau_steps(grades=grades, scores=scores, variant=variant, listed=False).value


def _goodman_kruskal_gamma_steps(grades, scores, *, listed=True) -> Steps:
    pairs = _pair_table(grades, scores) if listed else None
    counts = _pair_counts(grades, scores)
    judged = counts["concordant"] + counts["discordant"]
    value = (counts["concordant"] - counts["discordant"]) / judged if judged else math.nan
    tables = {"counts": quantities([
        *_count_rows(counts),
        ("C + D", "pairs tied in neither", judged),
        ("gamma", "(C - D) / (C + D)", value),
    ])}
    if listed:
        tables["pairs"] = pairs
    return Steps(value, tables)


def goodman_kruskal_gamma(grades, scores) -> float:
    r"""Goodman and Kruskal's gamma: (C - D) / (C + D), over pairs tied in neither grade nor score.

    These are exactly the pairs :func:`pair_ratio` counts, so gamma = (rho - 1)/(rho + 1)
    everywhere: 1.0 when rho is infinite, and ``math.nan`` (0/0, no pair to judge) when C + D
    = 0, as rho is. It equals Kendall's tau (:func:`kendall_tau`, either variant) when nothing
    is tied; with ties it is larger in absolute value, because tied pairs are left out of the
    denominator. For 0/1 grades without tied scores it equals 2 AUC - 1 (Somers' D).
    C and D are counted in O(n log n) (Knight, 1966).

    Parameters
    ----------
    grades : sequence of float
        True relevance of each document.
    scores : sequence of float
        The model's score for each document, in the same order.

    Returns
    -------
    float in [-1, 1], or nan

    See Also
    --------
    pair_ratio, kendall_tau

    Notes
    -----
    The chapter :doc:`/book/pair_ratio` explains it. ``rk.explain.goodman_kruskal_gamma``
    shows the counts and, for at most 2,000 documents, lists every pair; above that it raises
    ``ValueError``.

    References
    ----------
    - ``goodman1954``: Goodman, L. A., and Kruskal, W. H. (1954). Measures of association for cross
      classifications. *Journal of the American Statistical Association*, 49(268), 732-764.
    - ``knight1966``: Knight, W. R. (1966). A computer method for calculating Kendall's tau with
      ungrouped data. *Journal of the American Statistical Association*, 61(314), 436-439.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.goodman_kruskal_gamma([1, 1, 0, 0], [4, 3, 2, 1])  # 4 concordant, no discordant
    1.0
    >>> rk.goodman_kruskal_gamma([4, 3, 2, 1], [4, 1, 3, 2])  # (4 - 2) / (4 + 2)
    0.3333333333333333
    """
    return _goodman_kruskal_gamma_steps(grades=grades, scores=scores, listed=False).value
