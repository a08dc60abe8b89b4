"""Ranked lists at a cutoff: precision at k, recall at k, R-precision and their relatives.

Conventions (those of trec_eval's ``m_P.c``, ``m_recall.c``, ``m_Rprec.c``, ``m_rel_P.c`` and
``m_Rprec_mult.c``):

- A document is relevant when its grade is ``>= threshold`` (default 1, and it must be > 0, as
  ``rankedu.evaluate`` requires, so that a grade of 0 is never relevant).
- P@k always divides by ``k``: ranks past the end of a list shorter than ``k`` count as
  retrieved non-relevant documents, so a system is not rewarded for returning fewer results.
  They are counted, not stored: a cutoff of 10**9 on a short list costs what the list costs.
- R@k divides by ``n_relevant``, the relevant documents of the query; it defaults to the
  relevant documents in the list itself, and the result is 0.0 when that is 0.
- R-precision is P@R with R = ``n_relevant``; it is 0.0 when R is 0. At a multiple of R
  (``r_precision_mult``) the depth is trec_eval's ``(long) (mult * R + 0.9)``.
- Relative precision at k divides by min(k, R), the most relevant documents a top k can hold.

The book's chapter "Ranked lists at a cutoff" (``book/cutoff.ipynb``) derives them.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from rankedu.core.common import best_from_here, f_beta_of, last, relevance_columns
from rankedu.core.ranked import safe_divide
from rankedu.core.steps import Steps
from rankedu.core.validation import as_above, relevant_count

__all__ = ["f_at_k", "precision_at_k", "precision_recall_curve", "r_precision", "r_precision_mult",
           "recall_at_k", "relative_precision_at_k"]


def _precision_at_k_steps(rels, k, threshold=1) -> Steps:
    columns, _ = relevance_columns(rels, k, threshold)
    return Steps(last(columns["P@i"]), {"P@k": columns})


def _precision_at_k_by_query(ranked, k) -> np.ndarray:
    """P@k of every query of a run at once (``rk.evaluate``'s kernel; see ``rankedu.core.ranked``)."""
    return ranked.top_sum("relevant", k) / k


def precision_at_k(rels, k, *, threshold=1) -> float:
    r"""Precision at rank ``k``: the relevant documents in the top ``k``, divided by ``k``.

    .. math:: P@k = \frac{1}{k} \sum_{i=1}^{k} [\mathrm{rel}_i \ge \text{threshold}]

    Ranks past the end of a list shorter than ``k`` count as non-relevant (trec_eval's
    convention). ``k=None`` means the whole list; an empty list then gives 0.0.

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    k : int >= 1 or None
        The cutoff.
    threshold : float > 0, default 1
        A document is relevant when its grade is at least this (so a grade of 0 never is).

    Returns
    -------
    float

    See Also
    --------
    recall_at_k, r_precision

    Notes
    -----
    The chapter :doc:`/book/cutoff` explains it.

    References
    ----------
    - ``manning2008``: Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to
      Information Retrieval, chapter 8. Cambridge University Press.
    - ``voorhees2005``: Voorhees, E. M. and Harman, D. K., editors (2005). TREC: Experiment and
      Evaluation in Information Retrieval. MIT Press.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.precision_at_k([1, 0, 1, 0], 2)
    0.5
    >>> rk.precision_at_k([1, 1], 4)  # two missing ranks count as non-relevant
    0.5
    """
    return _precision_at_k_steps(rels=rels, k=k, threshold=threshold).value


def _recall_at_k_steps(rels, k, n_relevant=None, threshold=1) -> Steps:
    columns, listed = relevance_columns(rels, k, threshold)
    total = relevant_count(listed, n_relevant)
    columns["R@i"] = safe_divide(columns["hits@i"], total)
    return Steps(last(columns["R@i"]), {"R@k": columns})


def _recall_at_k_by_query(ranked, k) -> np.ndarray:
    """R@k of every query at once, divided by the relevant judged documents of each query."""
    return safe_divide(ranked.top_sum("relevant", k), ranked.n_relevant)


def recall_at_k(rels, k, *, n_relevant=None, threshold=1) -> float:
    r"""Recall at rank ``k``: the relevant documents in the top ``k``, divided by R.

    .. math:: R@k = \frac{1}{R} \sum_{i=1}^{k} [\mathrm{rel}_i \ge \text{threshold}]

    R is ``n_relevant``, the number of relevant documents of the query (trec_eval takes it from
    the judgments); by default it is the number of relevant documents in ``rels``. When R is 0
    the result is 0.0.

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    k : int >= 1 or None
        The cutoff.
    n_relevant : int >= 0, optional
        Relevant documents of the query, retrieved or not; at least those in ``rels``.
    threshold : float > 0, default 1
        A document is relevant when its grade is at least this (so a grade of 0 never is).

    Returns
    -------
    float

    See Also
    --------
    precision_at_k

    Notes
    -----
    The chapter :doc:`/book/cutoff` explains it.

    References
    ----------
    - ``manning2008``: Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to
      Information Retrieval, chapter 8. Cambridge University Press.
    - ``voorhees2005``: Voorhees, E. M. and Harman, D. K., editors (2005). TREC: Experiment and
      Evaluation in Information Retrieval. MIT Press.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.recall_at_k([1, 0, 1, 0], 2)
    0.5
    >>> rk.recall_at_k([1, 0, 1, 0], 2, n_relevant=4)  # two relevant documents never retrieved
    0.25
    """
    return _recall_at_k_steps(rels=rels, k=k, n_relevant=n_relevant, threshold=threshold).value


def _precision_at_depth_steps(rels, n_relevant, threshold, depth_of, title) -> Steps:
    """P@depth, the depth ``depth_of(R)``; no step (0.0) when the depth is 0."""
    columns, listed = relevance_columns(rels, None, threshold)
    depth = depth_of(relevant_count(listed, n_relevant))
    if depth:
        columns, _ = relevance_columns(rels, depth, threshold, k_name="n_relevant")
    else:
        columns = {name: column[:0] for name, column in columns.items()}
    return Steps(last(columns["P@i"]), {title: columns})


def _r_precision_steps(rels, n_relevant=None, threshold=1) -> Steps:
    return _precision_at_depth_steps(rels, n_relevant, threshold, lambda r: r, "P@R")


def _precision_at_depth_by_query(ranked, depth: np.ndarray) -> np.ndarray:
    """Per query, the relevant documents in its top ``depth`` (one per query) over ``depth``."""
    return safe_divide(ranked.top_sum("relevant", depth), depth)


def _r_precision_by_query(ranked, k=None) -> np.ndarray:
    """R-precision of every query at once: relevant documents in the top R, divided by R."""
    return _precision_at_depth_by_query(ranked, ranked.n_relevant)


def r_precision(rels, *, n_relevant=None, threshold=1) -> float:
    r"""R-precision: precision at rank R, where R is the number of relevant documents.

    .. math:: \text{R-prec} = P@R = \frac{\text{relevant in the top } R}{R}

    At rank R precision equals recall, so R-precision is also the point where the two meet.
    R is ``n_relevant`` (default: the relevant documents in ``rels``); 0.0 when R is 0. Ranks past
    the end of a short list count as non-relevant, as for :func:`precision_at_k`.

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    n_relevant : int >= 0, optional
        Relevant documents of the query, retrieved or not; at least those in ``rels``.
    threshold : float > 0, default 1
        A document is relevant when its grade is at least this (so a grade of 0 never is).

    Returns
    -------
    float

    Notes
    -----
    The chapter :doc:`/book/cutoff` explains it.

    References
    ----------
    - ``voorhees2005``: Voorhees, E. M. and Harman, D. K., editors (2005). TREC: Experiment and
      Evaluation in Information Retrieval. MIT Press.
    - ``manning2008``: Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to
      Information Retrieval, chapter 8. Cambridge University Press.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.r_precision([1, 0, 1, 0], n_relevant=3)  # 2 relevant in the top 3
    0.6666666666666666
    """
    return _r_precision_steps(rels=rels, n_relevant=n_relevant, threshold=threshold).value


def _r_precision_mult_depth(mult) -> Callable[[int], int]:
    """trec_eval's depth for a multiple ``mult`` of R: (long) (mult * R + 0.9)."""
    mult = as_above(mult, "mult", 0)
    return lambda r: int(mult * r + 0.9)


def _r_precision_mult_steps(rels, mult=1.0, n_relevant=None, threshold=1) -> Steps:
    depth_of = _r_precision_mult_depth(mult)
    return _precision_at_depth_steps(rels, n_relevant, threshold, depth_of, "P@mult·R")


def _r_precision_mult_by_query(ranked, k=None, *, mult=1.0) -> np.ndarray:
    """RprecMult of every query at once: P at trec_eval's depth for mult * R."""
    mult = as_above(mult, "mult", 0)
    return _precision_at_depth_by_query(ranked, (mult * ranked.n_relevant + 0.9).astype(np.int64))


def r_precision_mult(rels, *, mult=1.0, n_relevant=None, threshold=1) -> float:
    r"""Precision at a multiple of R: P@d with d = mult * R rounded as trec_eval rounds it.

    .. math:: \text{RprecMult} = P@d, \quad d = \lfloor \text{mult} \cdot R + 0.9 \rfloor

    R-precision (``mult`` = 1) measured at other milestones that scale with the query's number
    of relevant documents: a system that beats another at small multiples and loses at large
    ones is precision-oriented. The depth rounds mult * R up unless its fraction is below 0.1
    (trec_eval's ``(long) (mult * R + 0.9)``): 0.2 * 10 = 2 gives 2, 0.2 * 11 = 2.2 gives 3 and
    0.35 * 3 = 1.05 gives 1.
    Ranks past the end of a short list count as non-relevant, as for :func:`precision_at_k`;
    0.0 when the depth is 0 (R is 0, or mult * R < 0.1).

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    mult : float > 0, default 1.0
        The multiple of R to measure at.
    n_relevant : int >= 0, optional
        Relevant documents of the query, retrieved or not; at least those in ``rels``.
    threshold : float > 0, default 1
        A document is relevant when its grade is at least this (so a grade of 0 never is).

    Returns
    -------
    float

    See Also
    --------
    r_precision, precision_at_k

    Notes
    -----
    trec_eval's ``Rprec_mult`` (``-m Rprec_mult.0.2,0.5`` prints ``Rprec_mult_0.20`` and
    ``Rprec_mult_0.50``). The chapter :doc:`/book/cutoff` explains R-precision.

    References
    ----------
    - ``trec_eval``: NIST. trec_eval 10.0, ``m_Rprec_mult.c``.
    - ``voorhees2005``: Voorhees, E. M. and Harman, D. K., editors (2005). TREC: Experiment and
      Evaluation in Information Retrieval. MIT Press.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.r_precision_mult([1, 0, 1, 0, 1, 1], mult=0.5, n_relevant=4)  # P@2
    0.5
    >>> rk.r_precision_mult([1, 0, 1, 0, 1, 1], mult=2.0, n_relevant=4)  # P@8
    0.5
    """
    return _r_precision_mult_steps(rels=rels, mult=mult, n_relevant=n_relevant,
                                   threshold=threshold).value


def _relative_precision_at_k_steps(rels, k, n_relevant=None, threshold=1) -> Steps:
    columns, listed = relevance_columns(rels, k, threshold)
    columns["min(i, R)"] = np.minimum(columns["i"], relevant_count(listed, n_relevant))
    columns["RelP@i"] = safe_divide(columns["hits@i"], columns["min(i, R)"])
    return Steps(last(columns["RelP@i"]), {"RelP@k": columns})


def _relative_precision_at_k_by_query(ranked, k) -> np.ndarray:
    """RelP@k of every query at once: relevant in the top k over min(k, R)."""
    return safe_divide(ranked.top_sum("relevant", k), np.minimum(k, ranked.n_relevant))


def relative_precision_at_k(rels, k, *, n_relevant=None, threshold=1) -> float:
    r"""Relative precision at k: P@k over the best P@k any ranking could reach.

    .. math:: \text{RelP@}k = \frac{\text{relevant in the top } k}{\min(k, R)}

    The top k holds at most min(k, R) relevant documents, so this is P@k up to k = R and
    R@k past it; 1.0 for an ideal ranking at every k. Ranks past the end of a short list count
    as non-relevant; 0.0 when R is 0. ``k=None`` means the whole list (trec_eval's
    ``set_relative_P``).

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    k : int >= 1 or None
        The cutoff.
    n_relevant : int >= 0, optional
        Relevant documents of the query, retrieved or not; at least those in ``rels``.
    threshold : float > 0, default 1
        A document is relevant when its grade is at least this (so a grade of 0 never is).

    Returns
    -------
    float

    See Also
    --------
    precision_at_k, recall_at_k, rankedu.set_relative_precision

    Notes
    -----
    trec_eval's ``relative_P`` (``-m relative_P.5,10`` prints ``relative_P_5`` and
    ``relative_P_10``). The chapter :doc:`/book/cutoff` explains P@k and R@k.

    References
    ----------
    - ``trec_eval``: NIST. trec_eval 10.0, ``m_rel_P.c``.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.relative_precision_at_k([1, 0, 1, 0], 2, n_relevant=5)  # 1 / min(2, 5)
    0.5
    >>> rk.relative_precision_at_k([1, 0, 1, 0], 4, n_relevant=2)  # 2 / min(4, 2)
    1.0
    """
    return _relative_precision_at_k_steps(rels=rels, k=k, n_relevant=n_relevant,
                                          threshold=threshold).value


def _f_at_k_steps(rels, k, beta=1.0, n_relevant=None, threshold=1) -> Steps:
    beta = as_above(beta, "beta", 0)
    columns = _recall_at_k_steps(rels, k, n_relevant, threshold).tables["R@k"]
    f = f_beta_of(columns["P@i"], columns["R@i"], beta)
    columns["β"] = np.full(len(f), beta)
    columns["F@i"] = f
    return Steps(last(f), {"F@k": columns})


def f_at_k(rels, k, *, beta=1.0, n_relevant=None, threshold=1) -> float:
    r"""The F-beta score of the top ``k``: the weighted harmonic mean of P@k and R@k.

    .. math:: F_\beta@k = \frac{(1 + \beta^2)\, P@k \cdot R@k}{\beta^2\, P@k + R@k}

    It is :func:`rankedu.f_beta` of the set of the top ``k`` documents against the judged
    ones. P@k divides by ``k`` (ranks past the end of a short list count as non-relevant) and
    R@k by ``n_relevant``; 0.0 when P@k + R@k is 0. ``beta`` is the F-beta of the book, not
    trec_eval's ``set_F`` parameter, which is beta squared: ``set_F.4`` is ``f_at_k(rels,
    None, beta=2)`` on the whole list.

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    k : int >= 1 or None
        The cutoff; ``None`` means the whole list.
    beta : float > 0, default 1.0
        How many times as much recall counts as precision (beta > 1 favours recall).
    n_relevant : int >= 0, optional
        Relevant documents of the query, retrieved or not; at least those in ``rels``.
    threshold : float > 0, default 1
        A document is relevant when its grade is at least this (so a grade of 0 never is).

    Returns
    -------
    float

    See Also
    --------
    precision_at_k, recall_at_k, rankedu.f_beta

    Notes
    -----
    The chapter :doc:`/book/cutoff` explains it.

    References
    ----------
    - ``vanrijsbergen1979``: van Rijsbergen, C. J. (1979). Information Retrieval, 2nd edition.
      Butterworths.
    - ``manning2008``: Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to
      Information Retrieval, chapter 8. Cambridge University Press.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.f_at_k([1, 0, 1, 0], 2, n_relevant=4)  # P@2 = 1/2, R@2 = 1/4
    0.3333333333333333
    >>> round(rk.f_at_k([1, 0, 1, 0], None, beta=2, n_relevant=4), 4)  # P = 1/2, R = 1/2
    0.5
    """
    return _f_at_k_steps(rels=rels, k=k, beta=beta, n_relevant=n_relevant, threshold=threshold).value


def precision_recall_curve(rels, *, n_relevant=None, threshold=1, interpolate=False):
    r"""The precision-recall curve of a ranking: (P@k, R@k) for every k = 1..len(rels).

    Walking down the ranking, each rank adds one point: precision and recall of the top k.
    With ``interpolate=True`` each precision is replaced by the highest precision at that rank
    or any later one (the interpolated precision of trec_eval's ``iprec_at_recall``: the best
    precision at a recall at least as high), which makes the curve non-increasing.

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    n_relevant : int >= 0, optional
        Relevant documents of the query, retrieved or not; at least those in ``rels``.
        Recall divides by it, so the curve ends below recall 1 when some are never retrieved.
    threshold : float > 0, default 1
        A document is relevant when its grade is at least this (so a grade of 0 never is).
    interpolate : bool, default False
        Replace each precision by the maximum precision at the same or a later rank.

    Returns
    -------
    precision, recall : numpy.ndarray of float
        One entry per rank, rank 1 first (empty for an empty list).

    See Also
    --------
    precision_at_k, recall_at_k, sklearn.metrics.precision_recall_curve

    Notes
    -----
    The chapter :doc:`/book/cutoff` explains it.

    References
    ----------
    - ``manning2008``: Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to
      Information Retrieval, chapter 8. Cambridge University Press.

    Examples
    --------
    >>> import rankedu as rk
    >>> precision, recall = rk.precision_recall_curve([1, 0, 1, 0])
    >>> precision.tolist(), recall.tolist()
    ([1.0, 0.5, 0.6666666666666666, 0.5], [0.5, 0.5, 1.0, 1.0])
    >>> rk.precision_recall_curve([1, 0, 1, 0], interpolate=True)[0].tolist()
    [1.0, 0.6666666666666666, 0.6666666666666666, 0.5]
    """
    if not isinstance(interpolate, (bool, np.bool_)):
        raise TypeError(f"interpolate must be True or False, got {interpolate!r}")
    columns = _recall_at_k_steps(rels, None, n_relevant, threshold).tables["R@k"]
    precision = columns["P@i"].astype(float)
    if interpolate:
        precision = best_from_here(precision)
    return precision, columns["R@i"].astype(float)
