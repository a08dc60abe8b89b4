"""Average precision (AP) and mean average precision (MAP).

Conventions (those of trec_eval's ``m_map.c``):

- A document is relevant when its grade is ``>= threshold`` (default 1; it must be > 0).
- AP sums the precision at the rank of each relevant document and divides by R, the number of
  relevant documents of the query (``n_relevant``), so a relevant document that was never
  retrieved contributes a precision of 0. R defaults to the relevant documents in the list
  itself, which is scikit-learn's ``average_precision_score`` convention; give ``n_relevant``
  from the judgments to get trec_eval's number.
- AP is 0.0 when R is 0 (trec_eval's convention; there is nothing to find).
- With a cutoff ``k`` only the top ``k`` ranks contribute, still divided by R (trec_eval's
  ``map_cut``).

The book's chapter "Average precision and MAP" (``book/average_precision.ipynb``) derives them,
and shows that the sum equals the area under the precision-recall step curve.

Also here: interpolated precision and the 11-point average (trec_eval's ``iprec_at_recall`` and
``11pt_avg``, whose versions 9 and 10 round a recall level to a number of relevant documents
differently; see ``convention``), and ``mean_precision_at_ranks``, the mean of P@i over every
rank that some tutorials call AP, kept to show how it differs from AP.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from rankedu.core.common import best_from_here, last, precision_sums, relevance_columns
from rankedu.core.ranked import ranks_within, safe_divide, sum_by_query
from rankedu.core.steps import Steps, mean_over_queries
from rankedu.core.validation import as_numbers, one_of, relevant_count, same_length, sequence_of

__all__ = [
    "average_precision", "eleven_point_average_precision", "interpolated_precision",
    "mean_average_precision", "mean_precision_at_ranks",
]


def _average_precision_steps(rels, k=None, n_relevant=None, threshold=1) -> Steps:
    columns, listed = relevance_columns(rels, k, threshold)
    total = relevant_count(listed, n_relevant)
    columns["P@i·relevant"] = columns["P@i"] * columns["relevant"]
    columns["sum"] = np.cumsum(columns["P@i·relevant"])
    columns["AP@i"] = safe_divide(columns["sum"], total)
    return Steps(last(columns["AP@i"]), {"AP": columns})


def _average_precision_by_query(ranked, k=None) -> np.ndarray:
    """AP (AP@k) of every query at once: P@rank summed over the relevant ranks (in the top k),
    divided by the relevant judged documents of each query."""
    at = np.flatnonzero(ranked.relevant)  # the relevant retrieved documents, in rank order
    query, rank = ranked.query[at], ranked.rank[at]
    precision = ranks_within(query) / rank  # the j-th of them, at rank r: j/r
    return safe_divide(sum_by_query(query, rank, precision, ranked.n_queries, k),
                       ranked.n_relevant)


def average_precision(rels, k=None, *, n_relevant=None, threshold=1) -> float:
    r"""Average precision: the mean, over the relevant documents, of the precision at their rank.

    .. math::

        AP = \frac{1}{R} \sum_{i=1}^{n} P@i \cdot [\mathrm{rel}_i \ge \text{threshold}]
           = \frac{1}{R} \sum_{j=1}^{R} \frac{j}{\mathrm{position}(j)}

    where R is the number of relevant documents of the query and position(j) the rank of the
    j-th relevant document (a relevant document never retrieved adds 0).

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    k : int >= 1 or None, optional
        Only the top ``k`` ranks contribute (trec_eval's ``map_cut_k``); the denominator is
        still R.
    n_relevant : int >= 0, optional
        R, the relevant documents of the query, retrieved or not (trec_eval: from the
        judgments). Defaults to the relevant documents in ``rels`` (scikit-learn's
        convention). At least the relevant documents in ``rels``.
    threshold : float > 0, default 1
        A document is relevant when its grade is at least this (so a grade of 0 never is).

    Returns
    -------
    float
        AP in [0, 1]; 0.0 when R is 0.

    See Also
    --------
    mean_average_precision, precision_at_k

    Notes
    -----
    The chapter :doc:`/book/average_precision` explains it.

    References
    ----------
    - ``voorhees2005``: Voorhees, E. M. and Harman, D. K., editors (2005). TREC: Experiment and
      Evaluation in Information Retrieval. MIT Press.
    - ``manning2008``: Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to
      Information Retrieval, chapter 8. Cambridge University Press.

    Examples
    --------
    Relevant documents at ranks 1, 3 and 6:

    >>> import rankedu as rk
    >>> rk.average_precision([1, 0, 1, 0, 0, 1])  # (1/1 + 2/3 + 3/6) / 3
    0.7222222222222222

    A fourth relevant document that was never retrieved lowers it:

    >>> rk.average_precision([1, 0, 1, 0, 0, 1], n_relevant=4)
    0.5416666666666666
    """
    return _average_precision_steps(rels=rels, k=k, n_relevant=n_relevant, threshold=threshold).value


def _mean_average_precision_steps(list_of_rels, n_relevant=None, threshold=1) -> Steps:
    list_of_rels = sequence_of(list_of_rels, "list_of_rels")
    if n_relevant is None:
        n_relevant = [None] * len(list_of_rels)
    else:
        n_relevant = sequence_of(n_relevant, "n_relevant")
        same_length(list_of_rels=list_of_rels, n_relevant=n_relevant)
    per_query = [
        _average_precision_steps(rels, None, total, threshold)
        for rels, total in zip(list_of_rels, n_relevant)
    ]
    return mean_over_queries(per_query, "AP")


def mean_average_precision(list_of_rels, *, n_relevant=None, threshold=1) -> float:
    r"""Mean average precision: the arithmetic mean of :func:`average_precision` over queries.

    .. math:: MAP = \frac{1}{|Q|} \sum_{q \in Q} AP(q)

    Every query counts once, including those whose AP is 0.

    Parameters
    ----------
    list_of_rels : sequence of sequences of float
        One ranked list of grades per query.
    n_relevant : sequence of int, optional
        R for each query, in the same order; by default each list's own relevant count.
    threshold : float > 0, default 1
        A document is relevant when its grade is at least this (so a grade of 0 never is).

    Returns
    -------
    float

    Notes
    -----
    The chapter :doc:`/book/average_precision` explains it.

    References
    ----------
    - ``voorhees2005``: Voorhees, E. M. and Harman, D. K., editors (2005). TREC: Experiment and
      Evaluation in Information Retrieval. MIT Press.
    - ``manning2008``: Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to
      Information Retrieval, chapter 8. Cambridge University Press.

    Examples
    --------
    Two queries with R = 4 and R = 5 relevant documents:

    >>> import rankedu as rk
    >>> q1 = [1, 1, 0, 1, 0, 0, 1]
    >>> q2 = [1, 0, 1, 0, 1]
    >>> round(rk.mean_average_precision([q1, q2], n_relevant=[4, 5]), 4)
    0.6418
    """
    return _mean_average_precision_steps(list_of_rels=list_of_rels, n_relevant=n_relevant,
                                         threshold=threshold).value


# --- interpolated precision and the 11-point average -------------------------------------------

ELEVEN_RECALL_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
_CONVENTIONS = ("textbook", "trec_eval", "trec_eval_9")


def _relevant_needed(level: float, total: int, convention: str) -> int:
    """How many relevant documents a ranking must have reached to count as at recall ``level``."""
    if convention == "textbook":
        # recall >= level  <=>  hits >= level * R. The level is read as the decimal it prints as,
        # so that 0.3 * 10 is 3 and not 3.0000000000000004.
        return math.ceil(Fraction(repr(level)) * total)
    scaled = level * total
    if convention == "trec_eval_9":
        # trec_eval 9 and earlier (and pytrec_eval, which bundles it): (long)(level * R + 0.9).
        return math.floor(scaled + 0.9)
    return int(_round_half_up(scaled))


def _round_half_up(scaled):
    """trec_eval 10's lround (m_iprec_at_recall.c) of level * R >= 0: the nearest integer,
    halves up; of a number or, in the kernels, of an array."""
    whole = np.floor(scaled)
    return (whole + (scaled - whole >= 0.5)).astype(np.int64)


def _recall_levels(levels, name: str) -> np.ndarray:
    """Recall levels in [0, 1] as an array; ``points`` (11pt_avg's) also in increasing order,
    the only order in which trec_eval's loop averages each of them."""
    levels = as_numbers(levels, name)
    if not len(levels) or ((levels < 0) | (levels > 1)).any():
        raise ValueError(f"{name} must be recall levels in [0, 1], got {levels.tolist()}")
    if name == "points" and (np.diff(levels) < 0).any():
        raise ValueError(f"points must be in increasing order (trec_eval's 11pt_avg reads them "
                         f"so), got {levels.tolist()}")
    return levels


def _interpolated_columns(rels, levels, n_relevant, threshold, convention,
                          name="recall") -> dict[str, np.ndarray]:
    """One row per recall level: the level, the relevant documents it needs, the precision."""
    columns, listed = relevance_columns(rels, None, threshold)
    total = relevant_count(listed, n_relevant)
    convention = one_of(convention, "convention", _CONVENTIONS)
    levels = _recall_levels(levels, name)
    needed = np.array([_relevant_needed(float(level), total, convention) for level in levels], int)
    # A level is first reached at the first rank with that many relevant documents (none: the
    # list never reaches it, and an empty list reaches no level, not even 0).
    first = np.searchsorted(columns["hits@i"], needed)
    best = np.r_[best_from_here(columns["P@i"]), 0.0]
    interpolated = best[first] if total else np.zeros(len(needed))
    return {"recall level": levels, "relevant needed": needed, "interpolated P": interpolated}


def _interpolated_precision_steps(rels, recall, n_relevant=None, threshold=1, convention="textbook") -> Steps:
    table = _interpolated_columns(rels, (recall,), n_relevant, threshold, convention)
    return Steps(last(table["interpolated P"]), {"interpolated P": table})


def _eleven_point_average_precision_steps(rels, n_relevant=None, threshold=1,
                                          convention="textbook",
                                          points=ELEVEN_RECALL_LEVELS) -> Steps:
    table = _interpolated_columns(rels, points, n_relevant, threshold, convention, "points")
    mean = f"Σ interpolated P / {len(table['recall level'])}"
    table[mean] = np.cumsum(table["interpolated P"]) / len(table["recall level"])
    return Steps(last(table[mean]), {"11-point": table})


def _interpolated_by_query(ranked, levels: np.ndarray) -> np.ndarray:
    """trec_eval 10's interpolated precision of every query (rows) at each recall level
    (columns): the best precision from the rank of the c-th relevant document on, c =
    round(level * R) (the first one when c = 0), and 0.0 when fewer than c were retrieved."""
    at = np.flatnonzero(ranked.relevant)
    query = ranked.query[at]
    # Precision peaks at relevant ranks, so the best from a relevant rank on is the best of
    # theirs: a suffix maximum within each query.
    best = np.r_[_best_from_here_by_query(query, ranks_within(query) / ranked.rank[at]), 0.0]
    found = np.bincount(query, minlength=ranked.n_queries)
    needed = _round_half_up(np.multiply.outer(ranked.n_relevant, levels))
    position = (np.cumsum(found) - found)[:, None] + np.maximum(needed, 1) - 1
    reached = (needed <= found[:, None]) & (found[:, None] > 0)
    return best[np.where(reached, position, len(best) - 1)]


def _best_from_here_by_query(query: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Each entry's maximum over itself and the entries after it in its query (``query``
    non-decreasing): one running maximum from the end, of the values' order codes offset so
    that every query's codes lie above those of the queries after it (exact: no arithmetic on
    the values)."""
    if not len(values):
        return values
    distinct, code = np.unique(values, return_inverse=True)
    key = (query[-1] - query.astype(np.int64)) * len(distinct) + code
    return distinct[np.maximum.accumulate(key[::-1])[::-1] % len(distinct)]


def _interpolated_precision_by_query(ranked, recall) -> np.ndarray:
    """IPrec@recall of every query at once (trec_eval 10's iprec_at_recall)."""
    return _interpolated_by_query(ranked, _recall_levels((recall,), "recall"))[:, 0]


def _eleven_point_average_precision_by_query(ranked, k=None,
                                             points=ELEVEN_RECALL_LEVELS) -> np.ndarray:
    """The mean interpolated precision over ``points`` of every query (trec_eval's 11pt_avg)."""
    levels = _recall_levels(points, "points")
    return _interpolated_by_query(ranked, levels).sum(axis=1) / len(levels)


def interpolated_precision(rels, recall, *, n_relevant=None, threshold=1, convention="textbook") -> float:
    r"""Interpolated precision at a recall level: the best precision at that recall or beyond.

    .. math:: P_{\mathrm{interp}}(r) = \max\{P@i : R@i \ge r\}

    and 0.0 when the list never reaches recall ``r`` (or R is 0). Interpolation makes the
    precision-recall curve non-increasing, so that curves of queries with different R can be
    averaged level by level.

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    recall : float in [0, 1]
        The recall level.
    n_relevant : int >= 0, optional
        R, the relevant documents of the query, retrieved or not; by default the relevant
        documents in ``rels``.
    threshold : float > 0, default 1
        A document is relevant when its grade is at least this (so a grade of 0 never is).
    convention : {"textbook", "trec_eval", "trec_eval_9"}, default "textbook"
        How the level becomes c, the relevant documents a rank must have reached (at or above
        it) to count. ``"textbook"`` (Manning et al., 2008): recall at least ``recall``, so
        c = ceil(recall * R), the level read as the decimal it prints as (0.3 * 10 is 3).
        ``"trec_eval"`` (trec_eval 10, ``iprec_at_recall``): c = round(recall * R), halves
        up, so with R = 3 its level 0.4 is recall 1/3. ``"trec_eval_9"`` (trec_eval 9 and
        earlier, and so pytrec_eval): c = int(recall * R + 0.9), in floating point.

    Returns
    -------
    float

    See Also
    --------
    eleven_point_average_precision, average_precision

    Notes
    -----
    The chapter :doc:`/book/average_precision` explains it. In ``rankedu.evaluate`` it is
    ``IPrec@r`` (ir_measures' name, e.g. ``IPrec@0.1``) with the ``"trec_eval"`` convention,
    trec_eval 10's ``iprec_at_recall_0.10``.

    References
    ----------
    - ``manning2008``: Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to
      Information Retrieval, chapter 8. Cambridge University Press.

    Examples
    --------
    >>> import rankedu as rk
    >>> rels = [1, 0, 1, 0, 0, 1]
    >>> rk.interpolated_precision(rels, 0.5)  # max(P@3, P@6) = max(2/3, 1/2)
    0.6666666666666666
    >>> rk.interpolated_precision(rels, 0.4, convention="trec_eval")  # round(1.2) = 1: max P@1..
    1.0
    """
    return _interpolated_precision_steps(rels=rels, recall=recall, n_relevant=n_relevant,
                                         threshold=threshold, convention=convention).value


def eleven_point_average_precision(rels, *, n_relevant=None, threshold=1, convention="textbook",
                                   points=ELEVEN_RECALL_LEVELS) -> float:
    r"""The 11-point interpolated average precision (trec_eval's ``11pt_avg``).

    .. math:: \frac{1}{11} \sum_{r \in \{0, 0.1, \dots, 1\}} P_{\mathrm{interp}}(r)

    An older estimate of the area under the precision-recall curve than AP; trec_eval keeps it
    for comparisons with old runs. ``convention`` is that of :func:`interpolated_precision`;
    ``points`` replaces the 11 levels by others (trec_eval 8's 3-point average: 0.2, 0.5, 0.8).

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    n_relevant : int >= 0, optional
        R; by default the relevant documents in ``rels``.
    threshold : float > 0, default 1
        A document is relevant when its grade is at least this (so a grade of 0 never is).
    convention : {"textbook", "trec_eval", "trec_eval_9"}, default "textbook"
        How a recall level becomes a number of relevant documents; see
        :func:`interpolated_precision`. pytrec_eval's ``11pt_avg`` is ``"trec_eval_9"``.
    points : sequence of float in [0, 1], in increasing order, default 0, 0.1, ..., 1
        The recall levels averaged (trec_eval's ``11pt_avg`` parameter). trec_eval's loop
        averages each of them only when they are in increasing order, so other orders are an
        error here.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Naming ``points`` when one lies outside [0, 1], they are not in increasing order or
        there is none.

    Notes
    -----
    The chapter :doc:`/book/average_precision` explains it. In ``rankedu.evaluate`` it is
    ``IPrecAvg`` with the ``"trec_eval"`` convention, trec_eval 10's ``11pt_avg``;
    ``IPrecAvg(points=0.2;0.5;0.8)`` is ``11pt_avg.0.2,0.5,0.8``.

    References
    ----------
    - ``manning2008``: Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to
      Information Retrieval, chapter 8. Cambridge University Press.
    - ``voorhees2005``: Voorhees, E. M. and Harman, D. K., editors (2005). TREC: Experiment and
      Evaluation in Information Retrieval. MIT Press.

    Examples
    --------
    >>> import rankedu as rk
    >>> round(rk.eleven_point_average_precision([1, 0, 1, 0, 0, 1]), 4)  # (4 * 1 + 3 * 2/3 + 4 * 1/2) / 11
    0.7273
    >>> rels = [1, 0, 1, 0, 0, 1]
    >>> rk.eleven_point_average_precision(rels, points=(0.2, 0.5, 0.8))  # (1 + 2/3 + 1/2) / 3
    0.7222222222222222
    """
    return _eleven_point_average_precision_steps(rels=rels, n_relevant=n_relevant,
                                                 threshold=threshold, convention=convention,
                                                 points=points).value


# --- the mean of P@i over every rank -------------------------------------------------


def _mean_precision_at_ranks_steps(rels, k=None, threshold=1) -> Steps:
    columns, _ = relevance_columns(rels, k, threshold)
    columns["Σ P@1..i"] = precision_sums(columns)
    columns["mean P@1..i"] = columns["Σ P@1..i"] / columns["i"]
    return Steps(last(columns["mean P@1..i"]), {"mean P@i": columns})


def mean_precision_at_ranks(rels, k=None, *, threshold=1) -> float:
    r"""The mean of P@i over every rank i = 1..k: what some tutorials call "AP". It is not AP.

    .. math:: \frac{1}{k} \sum_{i=1}^{k} P@i

    AP averages P@i only over the ranks of relevant documents and divides by R; this averages
    it over every rank, relevant or not, and ignores the relevant documents that were not
    retrieved. It is kept to show the difference (chapter "Average precision and MAP").

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    k : int >= 1 or None, optional
        The last rank averaged; the whole list by default. Ranks past the end of a short list
        count as non-relevant, as for :func:`precision_at_k`.
    threshold : float > 0, default 1
        A document is relevant when its grade is at least this (so a grade of 0 never is).

    Returns
    -------
    float
        0.0 for an empty list.

    See Also
    --------
    average_precision

    Notes
    -----
    The chapter :doc:`/book/average_precision` explains it.

    References
    ----------
    - ``manning2008``: Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to
      Information Retrieval, chapter 8. Cambridge University Press.

    Examples
    --------
    >>> import rankedu as rk
    >>> round(rk.mean_precision_at_ranks([1, 0, 1, 0, 0, 1]), 4)  # (1 + 1/2 + 2/3 + 2/4 + 2/5 + 3/6) / 6
    0.5944
    >>> round(rk.average_precision([1, 0, 1, 0, 0, 1]), 4)
    0.7222
    """
    return _mean_precision_at_ranks_steps(rels=rels, k=k, threshold=threshold).value
