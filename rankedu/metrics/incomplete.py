"""Incomplete judgments: bpref, infAP, condensed lists, Judged@k and Unjudged@k.

A test collection judges only a pool of documents (the top of a few runs); every other document
is *unjudged*. The measures of the other modules count an unjudged document as non-relevant.
The functions here tell the two apart, and take unjudged documents explicitly:

- ``rels`` holds the grade of each retrieved document in rank order, and 0 for an unjudged one
  (as everywhere in rankedu);
- ``judged`` is a mask of the same length, True where the document was judged. An unjudged
  document must have grade 0 in ``rels`` (a mask that does not line up with ``rels`` is an
  error, never a silently dropped relevant document). ``judged=None`` means every document was
  judged. Grades are taken at face value: a judged document with a negative grade is judged
  non-relevant. (``rankedu.evaluate`` instead reads a negative qrels grade as trec_eval does,
  "pooled but not judged": that document is unjudged there.)

Conventions (trec_eval 10's, ``m_bpref.c`` and ``form_res_rels.c``):

- **bpref** (Buckley and Voorhees, 2004) skips unjudged documents. Each judged relevant
  document r earns 1 - min(m_r, R) / min(N, R), where m_r is the number of judged non-relevant
  documents ranked above it, R the relevant and N the judged non-relevant documents of the
  query; the sum is divided by R. A relevant document with no judged non-relevant one above it
  earns 1; bpref is 0.0 when R is 0.
- **Condensed lists** (Sakai, 2007): drop the unjudged documents, close the gaps, and compute
  any measure on what is left: AP' and nDCG' are AP and nDCG of the condensed list, with R and
  the ideal ranking from the judgments as before. trec_eval computes them with ``-J``.
- **Judged@k** (ir_measures' ``Judged@k``): the share of the top min(k, n) retrieved documents
  that were judged, a warning light for any other measure at k; 0.0 for an empty list.
  **Unjudged@k** (trec_eval's ``unj_k``, ``m_unjudged.c``) counts the unjudged ones of the top
  min(k, n) but divides by k: a short list is read as padded with judged documents.
- **infAP** (Yilmaz and Aslam, 2006; trec_eval's ``m_infap.c``) estimates AP when only a random
  sample of the pool was judged. A document is outside the pool, in the pool but not judged
  (``pooled`` and not ``judged``), or judged; see :func:`inferred_average_precision`.

The book's chapter "Incomplete judgments" (``book/incomplete_judgments.ipynb``) explains them.
"""

from __future__ import annotations

import numpy as np

from rankedu.core.common import last
from rankedu.core.ranked import RankedRun, ranks_within, safe_divide
from rankedu.core.steps import Steps
from rankedu.core.validation import (
    as_cutoff,
    as_judged,
    as_labels,
    as_numbers,
    as_threshold,
    relevant_count,
    same_length,
)

__all__ = ["bpref", "condensed_list", "inferred_average_precision", "judged_at_k",
           "unjudged_at_k"]


# --- bpref ---------------------------------------------------------------------------------------


def _bpref_penalty(nonrelevant_above, n_relevant, n_nonrelevant):
    """What a relevant document loses, min(m_r, R) / min(N, R); its credit is 1 minus this.

    0 when nothing judged non-relevant is above it (m_r = 0, as always when min(N, R) = 0):
    trec_eval's special case, a credit of 1.
    """
    return safe_divide(np.minimum(nonrelevant_above, n_relevant),
                       np.minimum(n_nonrelevant, n_relevant))


def _judged_grades(rels, judged, n_relevant, threshold):
    """The validated grades, the judged mask, the judged relevant and non-relevant documents of
    the list and R, the relevant documents of the query (by default the list's)."""
    grades = as_numbers(rels, "rels")
    threshold = as_threshold(threshold)
    judged = as_judged(judged, grades)
    relevant = judged & (grades >= threshold)
    return grades, judged, relevant, judged & ~relevant, relevant_count(relevant, n_relevant)


def _judged_relevant(ranked: RankedRun):
    """The judged relevant documents of every query, in rank order: their positions in
    ``ranked``'s arrays, their query, and the judged and the relevant documents above each."""
    at = np.flatnonzero(ranked.judged)
    query, relevant = ranked.query[at], ranked.relevant[at]
    judged_above = ranks_within(query)[relevant] - 1
    query = query[relevant]
    return at[relevant], query, judged_above, ranks_within(query) - 1


def _bpref_steps(rels, judged=None, n_relevant=None, n_nonrelevant=None, threshold=1) -> Steps:
    grades, judged, relevant, nonrelevant, total = _judged_grades(rels, judged, n_relevant,
                                                                  threshold)
    others = relevant_count(nonrelevant, n_nonrelevant, "n_nonrelevant",
                            "judged non-relevant documents")
    above = np.cumsum(nonrelevant)  # at a relevant rank: the judged non-relevant ones above it
    penalty = np.where(relevant, _bpref_penalty(above, total, others), 0.0)
    credit = np.where(relevant, 1.0 - penalty, 0.0)
    running = np.cumsum(credit)
    columns = {
        "i": np.arange(1, len(grades) + 1, dtype=np.int64),
        "rel_i": grades,
        "judged": judged,
        "relevant": relevant,
        "m_i": above,
        "min(m_i,R)/min(N,R)": penalty,
        "credit": credit,
        "Σ credit": running,
        "bpref@i": safe_divide(running, total),
    }
    counts = {"R": np.array([total]), "N": np.array([others]),
              "min(N,R)": np.array([min(total, others)])}
    return Steps(last(columns["bpref@i"]), {"bpref": columns, "counts": counts})


def _bpref_by_query(ranked: RankedRun, k=None) -> np.ndarray:
    """bpref of every query at once, as trec_eval computes it: only judged documents count, and
    the j-th relevant one at rank r among the judged ones has m_r = r - j judged non-relevant
    documents above it."""
    _, query, judged_above, relevant_above = _judged_relevant(ranked)
    credit = 1.0 - _bpref_penalty(judged_above - relevant_above, ranked.n_relevant[query],
                                  ranked.n_nonrelevant[query])
    # np.bincount adds each query's credits in rank order, the order of trec_eval's loop.
    total = np.bincount(query, weights=credit, minlength=ranked.n_queries)
    return safe_divide(total, ranked.n_relevant)


def bpref(rels, judged=None, *, n_relevant=None, n_nonrelevant=None, threshold=1) -> float:
    r"""bpref (Buckley and Voorhees, 2004): how often judged relevant documents are ranked
    above judged non-relevant ones, unjudged documents skipped.

    .. math::

        \mathrm{bpref} = \frac{1}{R} \sum_{r} \left(1 - \frac{\min(m_r, R)}{\min(N, R)}\right)

    over the judged relevant documents r of the list, where m_r is the number of judged
    non-relevant documents ranked above r, R the relevant documents of the query and N its
    judged non-relevant documents (a term is 1 when m_r = 0). This is trec_eval's ``bpref``
    (``m_bpref.c``): only the first R judged non-relevant documents count against a relevant
    one, and the penalty is divided by min(N, R), not R, so that a query with fewer judged
    non-relevant than relevant documents can still reach 0. Unjudged documents change nothing:
    moving one anywhere in the list leaves bpref where it was.

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first; 0 for an unjudged one.
    judged : sequence of bool, optional
        Which documents of ``rels`` were judged; by default every one. An unjudged document
        must have grade 0 in ``rels``.
    n_relevant : int >= 0, optional
        R, the relevant documents of the query, retrieved or not; by default the judged
        relevant documents in ``rels``.
    n_nonrelevant : int >= 0, optional
        N, the judged non-relevant documents of the query, retrieved or not; by default those in
        ``rels``.
    threshold : float > 0, default 1
        A judged document is relevant when its grade is at least this (trec_eval ``-l``);
        below it, judged non-relevant.

    Returns
    -------
    float
        In [0, 1]; 0.0 when R is 0.

    Raises
    ------
    ValueError
        Naming ``judged`` when it is not as long as ``rels`` or is False where ``rels`` holds a
        grade other than 0; ``n_relevant`` or ``n_nonrelevant`` when smaller than the list's
        own count.

    See Also
    --------
    condensed_list, judged_at_k, average_precision

    Notes
    -----
    The chapter :doc:`/book/incomplete_judgments` explains it. In ``rankedu.evaluate`` it is
    ``Bpref``, R and N from the qrels (a negative qrels grade: unjudged).

    References
    ----------
    - ``buckley2004``: Buckley, C. and Voorhees, E. M. (2004). Retrieval evaluation with
      incomplete information. SIGIR 2004, 25-32.
    - ``sakai2007bpref``: Sakai, T. (2007). Alternatives to bpref. SIGIR 2007, 71-78.

    Examples
    --------
    Relevant documents at ranks 2 and 5, a judged non-relevant one at rank 1, unjudged ones at
    ranks 3 and 4; the query has R = 2 relevant and N = 4 judged non-relevant documents:

    >>> import rankedu as rk
    >>> rels = [0, 1, 0, 0, 1]
    >>> judged = [True, True, False, False, True]
    >>> rk.bpref(rels, judged, n_relevant=2, n_nonrelevant=4)  # ((1 - 1/2) + (1 - 1/2)) / 2
    0.5

    Judging the two unjudged documents non-relevant lowers it:

    >>> rk.bpref(rels, n_relevant=2, n_nonrelevant=4)  # ((1 - 1/2) + (1 - 2/2)) / 2
    0.25
    """
    return _bpref_steps(rels=rels, judged=judged, n_relevant=n_relevant,
                        n_nonrelevant=n_nonrelevant, threshold=threshold).value


# --- infAP ---------------------------------------------------------------------------------------

_INFAP_EPSILON = 1e-5  # trec_eval's INFAP_EPSILON (trec_eval.h)


def _infap_credit(position, relevant_above, nonrelevant_above, pooled_above):
    """A judged relevant document's term of infAP, at 0-based ``position`` j, in the very
    floating-point operations of m_infap.c: 1/(j+1) + j/(j+1) * (pooled above / j) *
    (relevant above + ε) / (judged above + 2ε), which is 1 at j = 0."""
    j = np.asarray(position, dtype=float)
    return 1.0 / (j + 1.0) + (j / (j + 1.0)) * safe_divide(pooled_above, j) * (
        (relevant_above + _INFAP_EPSILON)
        / (relevant_above + nonrelevant_above + 2 * _INFAP_EPSILON))


def _as_pooled(pooled, judged: np.ndarray) -> np.ndarray:
    """The pool mask: by default the judged documents; a judged document is always in it."""
    if pooled is None:
        return judged
    pooled = as_labels(pooled, "pooled").astype(bool)
    same_length(judged=judged, pooled=pooled)
    outside = np.flatnonzero(judged & ~pooled)
    if len(outside):
        raise ValueError(f"pooled is False at position {int(outside[0])}, where judged is True: "
                         f"a judged document is in the pool")
    return pooled


def _inferred_average_precision_steps(rels, judged=None, pooled=None, n_relevant=None,
                                      threshold=1) -> Steps:
    grades, judged, relevant, nonrelevant, total = _judged_grades(rels, judged, n_relevant,
                                                                  threshold)
    pooled = _as_pooled(pooled, judged)
    above = {name: np.cumsum(mask) - mask for name, mask in
             (("relevant above", relevant), ("non-relevant above", nonrelevant),
              ("pooled above", pooled))}
    position = np.arange(len(grades), dtype=np.int64)
    credit = np.where(relevant, _infap_credit(position, *above.values()), 0.0)
    running = np.cumsum(credit)
    columns = {"i": position + 1, "rel_i": grades, "judged": judged, "pooled": pooled,
               "relevant": relevant, **above, "credit": credit, "Σ credit": running,
               "infAP@i": safe_divide(running, total)}
    return Steps(last(columns["infAP@i"]), {"infAP": columns})


def _inferred_average_precision_by_query(ranked: RankedRun, k=None) -> np.ndarray:
    """infAP of every query at once; the pool is the documents the qrels list (a negative
    grade: pooled but not judged), as trec_eval reads it."""
    at, query, judged_above, relevant_above = _judged_relevant(ranked)
    if ranked.pooled is None:  # the pool is the judged documents
        pooled_above = judged_above
    else:  # pooled documents above: the count before the position, less that before the query
        before = np.cumsum(ranked.pooled) - ranked.pooled
        pooled_above = before[at] - before[at - ranked.rank[at] + 1]
    credit = _infap_credit(ranked.rank[at] - 1, relevant_above, judged_above - relevant_above,
                           pooled_above)
    # np.bincount adds each query's terms in rank order, the order of trec_eval's loop.
    total = np.bincount(query, weights=credit, minlength=ranked.n_queries)
    return safe_divide(total, ranked.n_relevant)


def inferred_average_precision(rels, judged=None, pooled=None, *, n_relevant=None,
                               threshold=1) -> float:
    r"""Inferred average precision, infAP (Yilmaz and Aslam, 2006): AP estimated from a judged
    random sample of the pool.

    Each judged relevant document, at rank i = j + 1, contributes the expected precision at its
    rank: the document itself (1/i) plus, for the j documents above it, the share of them in
    the pool times the estimated share of relevant documents among the pooled ones,

    .. math::

        \mathrm{infAP} = \frac{1}{R} \sum_{r} \left(\frac{1}{j+1} + \frac{j}{j+1} \cdot
        \frac{|\mathrm{pooled\ above}|}{j} \cdot
        \frac{\mathrm{rel\ above} + \epsilon}{\mathrm{rel\ above} + \mathrm{nonrel\ above}
        + 2\epsilon}\right)

    with 1 for a relevant document at rank 1 and ε = 0.00001 (trec_eval's ``m_infap.c``, term
    for term). A document outside the pool counts as non-relevant (it is among the j but not
    pooled); a document in the pool but not judged is assumed relevant in the proportion of the
    judged ones. With every pooled document judged, infAP is AP; R counts the judged relevant
    documents of the query.

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first; 0 for an unjudged one.
    judged : sequence of bool, optional
        Which documents of ``rels`` were judged; by default every one. An unjudged document
        must have grade 0 in ``rels``.
    pooled : sequence of bool, optional
        Which documents of ``rels`` were in the pool, judged or not (trec_eval: listed in the
        qrels, a negative grade meaning "pooled, not judged"); by default the judged ones.
        Every judged document is pooled.
    n_relevant : int >= 0, optional
        R, the judged relevant documents of the query, retrieved or not; by default those in
        ``rels``.
    threshold : float > 0, default 1
        A judged document is relevant when its grade is at least this (trec_eval ``-l``).

    Returns
    -------
    float
        0.0 when R is 0.

    Raises
    ------
    ValueError
        Naming ``judged`` as :func:`bpref` does, ``pooled`` when it is not as long as ``rels``
        or leaves out a judged document, ``n_relevant`` when smaller than the list's count.

    See Also
    --------
    average_precision, bpref

    Notes
    -----
    The chapter :doc:`/book/incomplete_judgments` explains it. In ``rankedu.evaluate`` it is
    ``infAP`` (ir_measures' name), trec_eval's ``infAP``; there the pool is the judged
    documents (a document with a negative qrels grade counts as outside the pool), so that it
    equals trec_eval's wherever the qrels hold no negative grade.

    References
    ----------
    - ``yilmaz2006``: Yilmaz, E. and Aslam, J. A. (2006). Estimating average precision with
      incomplete and imperfect judgments. CIKM 2006, 102-111.
    - ``trec_eval``: Buckley, C. trec_eval, the TREC evaluation program, version 10.0
      (``m_infap.c``).

    Examples
    --------
    Every document judged, infAP is AP, up to ε:

    >>> import rankedu as rk
    >>> rels = [1, 0, 1]
    >>> round(rk.inferred_average_precision(rels), 6), round(rk.average_precision(rels), 6)
    (0.833333, 0.833333)

    Rank 2 outside the pool counts as non-relevant: the document at rank 3 earns
    1/3 + 2/3 · (1/2) · (1 + ε)/(1 + 2ε) ≈ 2/3, and infAP ≈ (1 + 2/3) / 2:

    >>> round(rk.inferred_average_precision([1, 0, 1], judged=[True, False, True]), 4)
    0.8333

    In the pool but not judged, it is assumed as often relevant as the judged ones above (all
    of them): 1/3 + 2/3 · (2/2) · 1 ≈ 1, and infAP ≈ 1:

    >>> round(rk.inferred_average_precision([1, 0, 1], judged=[True, False, True],
    ...                                     pooled=[True, True, True]), 4)
    1.0
    """
    return _inferred_average_precision_steps(rels=rels, judged=judged, pooled=pooled,
                                             n_relevant=n_relevant, threshold=threshold).value


# --- condensed lists -----------------------------------------------------------------------------


def _condensed_list_steps(rels, judged) -> Steps:
    grades = as_numbers(rels, "rels")
    judged = as_judged(judged, grades)
    condensed_rank = np.where(judged, np.cumsum(judged), np.nan)
    columns = {
        "i": np.arange(1, len(grades) + 1, dtype=np.int64),
        "rel_i": grades,
        "judged": judged,
        "i′": condensed_rank,
    }
    return Steps(grades[judged], {"condensed list": columns})


def condensed_list(rels, judged) -> np.ndarray:
    r"""The condensed list (Sakai, 2007): the grades of the judged documents, in rank order.

    Unjudged documents are dropped and the ones below move up: the document at rank i goes to
    rank i′, the number of judged documents at ranks 1..i. Any measure computed on the result
    scores the run as if it had retrieved only judged documents: AP' is
    ``rk.average_precision(condensed_list(rels, judged), n_relevant=R)`` and nDCG' is
    ``rk.ndcg(condensed_list(rels, judged), k, pool=pool)``, with R and the pool from the
    judgments as before. trec_eval computes them with ``-J`` (``judged_docs_only_flag``), and
    ``rankedu.evaluate`` as ``AP(judged_only=True)`` and ``nDCG(judged_only=True)@k``.

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first; 0 for an unjudged one.
    judged : sequence of bool or None
        Which documents of ``rels`` were judged (None: every one, and the list is unchanged).
        An unjudged document must have grade 0 in ``rels``.

    Returns
    -------
    numpy.ndarray
        The grades of the judged documents, as floats, in their order in ``rels``.

    Raises
    ------
    ValueError
        Naming ``judged`` when it is not as long as ``rels`` or is False where ``rels`` holds a
        grade other than 0.

    See Also
    --------
    bpref, judged_at_k

    Notes
    -----
    The chapter :doc:`/book/incomplete_judgments` explains it.

    References
    ----------
    - ``sakai2007bpref``: Sakai, T. (2007). Alternatives to bpref. SIGIR 2007, 71-78.

    Examples
    --------
    >>> import rankedu as rk
    >>> rels = [0, 1, 0, 0, 1]
    >>> judged = [True, True, False, False, True]
    >>> rk.condensed_list(rels, judged)
    array([0., 1., 1.])
    >>> round(rk.average_precision(rk.condensed_list(rels, judged), n_relevant=2), 4)  # AP'
    0.5833
    >>> round(rk.average_precision(rels, n_relevant=2), 4)  # AP: unjudged read as non-relevant
    0.45
    """
    return _condensed_list_steps(rels=rels, judged=judged).value


# --- Judged@k ------------------------------------------------------------------------------------


def _top_judged(judged, k, measure: str):
    """The validated cutoff, the judged flags of the top min(k, n) documents and their ranks."""
    judged = as_labels(judged, "judged").astype(bool)
    if k is None:
        raise ValueError(f"k must be an int >= 1: {measure}@k needs a cutoff")
    k = as_cutoff(k)
    return k, judged[:k], np.arange(1, min(k, len(judged)) + 1, dtype=np.int64)


def _judged_at_k_steps(judged, k) -> Steps:
    _, top, ranks = _top_judged(judged, k, "Judged")
    so_far = np.cumsum(top)
    columns = {"i": ranks, "judged": top, "judged so far": so_far, "Judged@i": so_far / ranks}
    return Steps(last(columns["Judged@i"]), {"Judged@k": columns})


def _judged_in_top(ranked: RankedRun, k):
    """Per query: the judged documents of the top k and min(k, retrieved)."""
    return ranked.top_sum("judged", k), np.minimum(ranked.n_retrieved, k)


def _judged_at_k_by_query(ranked: RankedRun, k) -> np.ndarray:
    """Judged@k of every query at once: judged documents in the top k over min(k, retrieved)."""
    return safe_divide(*_judged_in_top(ranked, k))


def judged_at_k(judged, k) -> float:
    r"""Judged@k: the share of the top min(k, n) retrieved documents that were judged.

    .. math:: \mathrm{Judged@}k = \frac{1}{\min(k, n)} \sum_{i=1}^{\min(k, n)} [\text{judged}_i]

    for a list of n documents: ir_measures' ``Judged@k``, which divides by the retrieved
    documents when the list is shorter than k. Not a measure of quality but of how far another
    measure at k can be trusted: at Judged@10 = 0.6, P@10 counted four of its ten documents as
    non-relevant without anyone having looked at them.

    Parameters
    ----------
    judged : sequence of bool
        Whether each retrieved document was judged, in rank order, rank 1 first.
    k : int >= 1
        The cutoff.

    Returns
    -------
    float
        In [0, 1]; 0.0 for an empty list.

    Raises
    ------
    ValueError
        Naming ``judged`` when it holds other values than 0/1 or booleans, ``k`` when it is
        missing or not an int >= 1.

    See Also
    --------
    bpref, condensed_list

    Notes
    -----
    The chapter :doc:`/book/incomplete_judgments` explains it. In ``rankedu.evaluate`` it is
    ``Judged@k``, the documents ranked as trec_eval ranks them (ties by docno descending; a
    negative qrels grade is "pooled but not judged", as trec_eval reads it). ir_measures' own
    implementation breaks ties by docno ascending and counts every document listed in the
    qrels, a negative grade included, as judged.

    References
    ----------
    - ``macavaney2022``: MacAvaney, S., Macdonald, C. and Ounis, I. (2022). Streamlining
      evaluation with ir-measures. ECIR 2022 (arXiv:2111.13466).

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.judged_at_k([True, True, False, True, False], 4)  # 3 of the top 4
    0.75
    >>> rk.judged_at_k([True, False], 10)  # a list of 2: 1 of 2
    0.5
    """
    return _judged_at_k_steps(judged=judged, k=k).value


# --- Unjudged@k ----------------------------------------------------------------------------------


def _unjudged_at_k_steps(judged, k) -> Steps:
    k, top, ranks = _top_judged(judged, k, "Unjudged")
    so_far = np.cumsum(~top)
    columns = {"i": ranks, "judged": top, "unjudged so far": so_far,
               "unjudged so far / k": so_far / k}
    return Steps(last(columns["unjudged so far / k"]), {"Unjudged@k": columns})


def _unjudged_at_k_by_query(ranked: RankedRun, k) -> np.ndarray:
    """Unjudged@k of every query at once: unjudged documents in the top k over k."""
    judged, shown = _judged_in_top(ranked, k)
    return (shown - judged) / k


def unjudged_at_k(judged, k) -> float:
    r"""Unjudged@k: the unjudged documents of the top k, divided by k (trec_eval's ``unj_k``).

    .. math:: \mathrm{Unjudged@}k = \frac{1}{k} \sum_{i=1}^{\min(k, n)} [\text{not judged}_i]

    for a list of n documents: a list shorter than k is read as padded with judged documents,
    so that Unjudged@k = (min(k, n) / k) (1 - Judged@k), which is 1 - Judged@k only when the
    list reaches k. A "red flag" measure: a high value at a small k says the judgments cover
    the run poorly.

    Parameters
    ----------
    judged : sequence of bool
        Whether each retrieved document was judged, in rank order, rank 1 first.
    k : int >= 1
        The cutoff.

    Returns
    -------
    float
        In [0, 1]; 0.0 for an empty list.

    Raises
    ------
    ValueError
        As :func:`judged_at_k`, naming ``judged`` or ``k``.

    See Also
    --------
    judged_at_k

    Notes
    -----
    The chapter :doc:`/book/incomplete_judgments` explains it. In ``rankedu.evaluate`` it is
    ``Unjudged@k``, trec_eval's ``unj_k`` (``m_unjudged.c``): a document not in the qrels, or
    with a negative grade there, is unjudged.

    References
    ----------
    - ``trec_eval``: Buckley, C. trec_eval, the TREC evaluation program, version 10.0
      (``m_unjudged.c``).
    - ``buckley2004``: Buckley, C. and Voorhees, E. M. (2004). Retrieval evaluation with
      incomplete information. SIGIR 2004, 25-32.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.unjudged_at_k([True, False, True, True, False], 4)  # 1 of the top 4
    0.25
    >>> rk.unjudged_at_k([True, False], 5)  # a list of 2: 1 of 5 (Judged@5 is 1/2)
    0.2
    """
    return _unjudged_at_k_steps(judged=judged, k=k).value
