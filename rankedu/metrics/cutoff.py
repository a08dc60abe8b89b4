"""Ranked lists at a cutoff: precision at k, recall at k, R-precision.

Conventions (those of trec_eval's ``m_P.c``, ``m_recall.c`` and ``m_Rprec.c``):

- A document is relevant when its grade is ``>= threshold`` (default 1, and it must be > 0, as
  ``rankedu.evaluate`` requires, so that a grade of 0 is never relevant).
- P@k always divides by ``k``: ranks past the end of a list shorter than ``k`` count as
  retrieved non-relevant documents, so a system is not rewarded for returning fewer results.
  They are counted, not stored: a cutoff of 10**9 on a short list costs what the list costs.
- R@k divides by ``n_relevant``, the relevant documents of the query; it defaults to the
  relevant documents in the list itself, and the result is 0.0 when that is 0.
- R-precision is P@R with R = ``n_relevant``; it is 0.0 when R is 0.

The book's chapter "Ranked lists at a cutoff" (``book/cutoff.ipynb``) derives them.
"""

from __future__ import annotations

import numpy as np

from rankedu.core.common import best_from_here, f_beta_of, last, relevance_columns
from rankedu.core.ranked import safe_divide
from rankedu.core.steps import Steps
from rankedu.core.validation import as_above, relevant_count

__all__ = ["f_at_k", "precision_at_k", "precision_recall_curve", "r_precision", "recall_at_k"]


def _precision_at_k_steps(rels, k, threshold=1) -> Steps:
    columns, _ = relevance_columns(rels, k, threshold)
    return Steps(last(columns["P@i"]), {"P@k": columns})


def _precision_at_k_by_query(ranked, k) -> np.ndarray:
    """P@k of every query of a run at once (``rk.evaluate``'s kernel; see ``rankedu.core.ranked``)."""
    return ranked.sum_by_query(ranked.relevant, k) / k


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
    return safe_divide(ranked.sum_by_query(ranked.relevant, k), ranked.n_relevant)


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


def _r_precision_steps(rels, n_relevant=None, threshold=1) -> Steps:
    columns, listed = relevance_columns(rels, None, threshold)
    total = relevant_count(listed, n_relevant)
    if total:
        columns, _ = relevance_columns(rels, total, threshold, k_name="n_relevant")
    else:
        columns = {name: column[:0] for name, column in columns.items()}
    return Steps(last(columns["P@i"]), {"P@R": columns})


def _r_precision_by_query(ranked, k=None) -> np.ndarray:
    """R-precision of every query at once: relevant documents in the top R, divided by R."""
    within = ranked.rank <= ranked.n_relevant[ranked.query]
    return safe_divide(ranked.sum_by_query(ranked.relevant * within), ranked.n_relevant)


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
