"""Average precision (AP) and mean average precision (MAP).

Conventions (those of trec_eval's ``m_map.c``):

- A document is relevant when its grade is ``>= threshold`` (default 1).
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
"""

from __future__ import annotations

import numpy as np

from rankedu._steps import Steps, mean_over_queries
from rankedu._validation import relevant_count, same_length, sequence_of
from rankedu.cutoff import _last, _relevance_columns


def _average_precision_steps(rels, k=None, n_relevant=None, threshold=1) -> Steps:
    columns, listed = _relevance_columns(rels, k, threshold)
    total = relevant_count(listed, n_relevant)
    columns["P@i·relevant"] = columns["P@i"] * columns["relevant"]
    columns["sum"] = np.cumsum(columns["P@i·relevant"])
    columns["AP@i"] = columns["sum"] / total if total else np.zeros(len(columns["i"]))
    return Steps(_last(columns["AP@i"]), {"AP": columns})


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
    threshold : float, default 1
        A document is relevant when its grade is at least this.

    Returns
    -------
    float
        AP in [0, 1]; 0.0 when R is 0.

    See Also
    --------
    mean_average_precision, precision_at_k

    Examples
    --------
    Relevant documents at ranks 1, 3 and 6 (the seeds' example):

    >>> import rankedu as rk
    >>> rk.average_precision([1, 0, 1, 0, 0, 1])  # (1/1 + 2/3 + 3/6) / 3
    0.7222222222222222

    A fourth relevant document that was never retrieved lowers it:

    >>> rk.average_precision([1, 0, 1, 0, 0, 1], n_relevant=4)
    0.5416666666666666
    """
    return _average_precision_steps(rels, k, n_relevant, threshold).value


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
    threshold : float, default 1
        A document is relevant when its grade is at least this.

    Returns
    -------
    float

    Examples
    --------
    The two queries of the seeds (R = 4 and R = 5):

    >>> import rankedu as rk
    >>> q1 = [1, 1, 0, 1, 0, 0, 1]
    >>> q2 = [1, 0, 1, 0, 1]
    >>> round(rk.mean_average_precision([q1, q2], n_relevant=[4, 5]), 4)
    0.6418
    """
    return _mean_average_precision_steps(list_of_rels, n_relevant, threshold).value
