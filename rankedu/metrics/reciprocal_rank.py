"""Reciprocal rank (RR) and mean reciprocal rank (MRR).

Conventions (those of trec_eval's ``m_recip_rank.c``): a document is relevant when its grade is
``>= threshold`` (default 1; it must be > 0); RR is 1 / the rank of the first relevant document,
and 0.0 when there is none in the list (or in the top ``k``). Everything after the first
relevant document is ignored. The chapter "Reciprocal rank and MRR"
(``book/reciprocal_rank.ipynb``) explains it.
"""

from __future__ import annotations

import numpy as np

from rankedu.core.common import last, relevance_columns
from rankedu.core.ranked import first_by_query
from rankedu.core.steps import Steps, mean_over_queries
from rankedu.core.validation import as_cutoff, sequence_of

__all__ = ["mean_reciprocal_rank", "reciprocal_rank", "success_at_k"]


def _reciprocal_rank_steps(rels, k=None, threshold=1) -> Steps:
    columns, _ = relevance_columns(rels, k, threshold)
    first = columns["relevant"] & (columns["hits@i"] == 1)
    columns = {
        "i": columns["i"],
        "rel_i": columns["rel_i"],
        "relevant": columns["relevant"],
        "first relevant": first,
        "1/i": 1.0 / columns["i"],
    }
    columns["RR@i"] = np.maximum.accumulate(np.where(first, columns["1/i"], 0.0))
    return Steps(last(columns["RR@i"]), {"RR": columns})


def _reciprocal_rank_by_query(ranked, k=None) -> np.ndarray:
    """RR (RR@k) of every query at once: 1 / rank of its first relevant document, else 0."""
    first = ranked.once(_first_relevant)  # the first in the top k, if any, is the first of all
    values = np.zeros(ranked.n_queries)
    found = first >= 0
    if k is not None:
        found[found] = ranked.rank[first[found]] <= k
    values[found] = 1.0 / ranked.rank[first[found]]
    return values


def reciprocal_rank(rels, k=None, *, threshold=1) -> float:
    r"""Reciprocal rank: 1 / the rank of the first relevant document.

    .. math:: RR = \frac{1}{\min\{i : \mathrm{rel}_i \ge \text{threshold}\}}

    0.0 when no document in the list (or in the top ``k``) is relevant.

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    k : int >= 1 or None, optional
        Only the top ``k`` ranks are looked at (``RR@k``).
    threshold : float > 0, default 1
        A document is relevant when its grade is at least this (so a grade of 0 never is).

    Returns
    -------
    float

    See Also
    --------
    mean_reciprocal_rank, err

    Notes
    -----
    The chapter :doc:`/book/reciprocal_rank` explains it.

    References
    ----------
    - ``voorhees1999``: Voorhees, E. M. (1999). The TREC-8 question answering track report.
      TREC-8, NIST Special Publication 500-246, 77-82.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.reciprocal_rank([0, 0, 1, 1])
    0.3333333333333333
    >>> rk.reciprocal_rank([0, 0, 1, 1], k=2)
    0.0
    """
    return _reciprocal_rank_steps(rels=rels, k=k, threshold=threshold).value


def _success_at_k_steps(rels, k, threshold=1) -> Steps:
    columns, _ = relevance_columns(rels, as_cutoff(k, allow_none=False), threshold)
    columns = {name: column for name, column in columns.items() if name != "P@i"}
    columns["Success@i"] = (columns["hits@i"] > 0).astype(float)
    return Steps(last(columns["Success@i"]), {"Success": columns})


def _first_relevant(ranked) -> np.ndarray:
    """Per query, the position of its first relevant document, -1 when it has none."""
    return first_by_query(ranked.query, ranked.relevant, ranked.n_queries)


def _success_at_k_by_query(ranked, k) -> np.ndarray:
    """Success@k of every query at once: 1 when a relevant document is in its top k."""
    return (_reciprocal_rank_by_query(ranked, k) > 0).astype(float)


def success_at_k(rels, k, *, threshold=1) -> float:
    r"""Success at k: 1 when a relevant document is in the top ``k``, else 0.

    .. math:: \mathrm{Success@}k = [\exists\, i \le k : \mathrm{rel}_i \ge \text{threshold}]

    The same as ``RR@k > 0``; recommender papers call it the hit rate (HR@k) under
    leave-one-out. A cutoff past the end of the list looks at the whole list.

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    k : int >= 1
        The number of top ranks looked at.
    threshold : float > 0, default 1
        A document is relevant when its grade is at least this (so a grade of 0 never is).

    Returns
    -------
    float
        1.0 or 0.0.

    Notes
    -----
    The chapter :doc:`/book/reciprocal_rank` explains it (section "Success@k"); trec_eval
    prints it as ``success_k``.

    References
    ----------
    - ``trec_eval``: NIST. trec_eval 10.0, ``m_success.c``.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.success_at_k([0, 0, 1, 1], 3)
    1.0
    >>> rk.success_at_k([0, 0, 1, 1], 2)
    0.0
    """
    return _success_at_k_steps(rels=rels, k=k, threshold=threshold).value


def _mean_reciprocal_rank_steps(list_of_rels, threshold=1) -> Steps:
    list_of_rels = sequence_of(list_of_rels, "list_of_rels")
    return mean_over_queries([_reciprocal_rank_steps(rels, None, threshold) for rels in list_of_rels], "RR")


def mean_reciprocal_rank(list_of_rels, *, threshold=1) -> float:
    r"""Mean reciprocal rank: the arithmetic mean of :func:`reciprocal_rank` over queries.

    .. math:: MRR = \frac{1}{|Q|} \sum_{q \in Q} \frac{1}{\mathrm{rank}_q}

    A query with no relevant document counts as 0.

    Parameters
    ----------
    list_of_rels : sequence of sequences of float
        One ranked list of grades per query.
    threshold : float > 0, default 1
        A document is relevant when its grade is at least this (so a grade of 0 never is).

    Returns
    -------
    float

    Notes
    -----
    The chapter :doc:`/book/reciprocal_rank` explains it.

    References
    ----------
    - ``voorhees1999``: Voorhees, E. M. (1999). The TREC-8 question answering track report.
      TREC-8, NIST Special Publication 500-246, 77-82.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.mean_reciprocal_rank([[1, 0], [0, 1], [0, 0]])  # (1 + 1/2 + 0) / 3
    0.5
    """
    return _mean_reciprocal_rank_steps(list_of_rels=list_of_rels, threshold=threshold).value
