"""The retrieved set as a whole: trec_eval's counts, set measures and utility.

These measures ignore the order of the retrieved documents: they read the list as a set, the
documents a system predicted relevant, and compare it with the relevant judged documents. In
the words of the confusion matrix (``rankedu.metrics.classification``), the retrieved
documents are the predicted positives and the relevant judged ones the positives:

- TP, the relevant documents retrieved (trec_eval's ``num_rel_ret``);
- FP, the non-relevant (or unjudged) documents retrieved (``num_ret - num_rel_ret``);
- FN, the relevant documents never retrieved (``num_rel - num_rel_ret``);
- TN, every other document of the collection, which only utility needs, and only when it
  weighs it (trec_eval's ``-N`` gives the collection's size).

Conventions (those of trec_eval 10.0's ``m_num_ret.c``, ``m_num_rel.c``, ``m_num_rel_ret.c``,
``m_num_nonrel_judged_ret.c``, ``m_set_P.c``, ``m_set_recall.c``, ``m_set_F.c``,
``m_set_map.c``, ``m_set_rel_P.c`` and ``m_utility.c``): a document is relevant when its grade
is ``>= threshold`` (trec_eval ``-l``); R is ``n_relevant``, the relevant judged documents of
the query, retrieved or not (by default those in the list); a ratio whose denominator is 0 is
0.0. The set measures are the classification metrics of :doc:`/book/confusion_matrix` computed
on that matrix (``rk.precision``, ``rk.recall``, ``rk.f_beta``); the chapter
:doc:`/book/cutoff` compares them with their ranked counterparts.
"""

from __future__ import annotations

import numpy as np

from rankedu.core.common import f_beta_of, last, relevance_columns
from rankedu.core.ranked import safe_divide
from rankedu.core.steps import Steps
from rankedu.core.validation import (
    as_above, as_count, as_judged, as_number, as_numbers, as_threshold, relevant_count,
)
from rankedu.metrics.classification import confusion_matrix, f_beta, precision, recall

__all__ = [
    "num_nonrelevant_judged_retrieved", "num_relevant", "num_relevant_retrieved",
    "num_retrieved", "set_average_precision", "set_f", "set_precision", "set_recall",
    "set_relative_precision", "utility",
]


# --- counts --------------------------------------------------------------------------------------


def _running_count(columns, counted: np.ndarray, name: str) -> Steps:
    """The list rank by rank (``columns`` of ``relevance_columns``), whether each document is
    ``counted``, and the running count ``name``."""
    columns = {"i": columns["i"], "rel_i": columns["rel_i"], "counted": counted,
               name: np.cumsum(counted)}
    return Steps(last(columns[name]), {name.removesuffix("@i"): columns})


def _num_retrieved_steps(rels) -> Steps:
    columns, listed = relevance_columns(rels)
    return _running_count(columns, np.ones(len(listed), bool), "NumRet@i")


def _num_retrieved_by_query(ranked, k=None) -> np.ndarray:
    """NumRet of every query at once: its documents in the run."""
    return ranked.n_retrieved.astype(float)


def num_retrieved(rels) -> float:
    r"""The number of documents retrieved: the length of the list.

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.

    Returns
    -------
    float
        A count (trec_eval prints it as an integer).

    See Also
    --------
    num_relevant_retrieved, num_relevant

    Notes
    -----
    trec_eval's ``num_ret``; its summary line is the sum over the queries, not the mean. The
    chapter :doc:`/book/evaluating_runs` explains it.

    References
    ----------
    - ``trec_eval``: NIST. trec_eval 10.0, ``m_num_ret.c``.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.num_retrieved([1, 0, 2, 0])
    4.0
    """
    return _num_retrieved_steps(rels=rels).value


def _num_relevant_steps(rels, n_relevant=None, threshold=1) -> Steps:
    _, listed = relevance_columns(rels, None, threshold)
    row = {"relevant retrieved": np.array([listed.sum()]),
           "NumRel": np.array([relevant_count(listed, n_relevant)])}
    return Steps(row["NumRel"][0], {"NumRel": row})


def _num_relevant_by_query(ranked, k=None) -> np.ndarray:
    """NumRel of every query at once: its relevant judged documents."""
    return ranked.n_relevant.astype(float)


def num_relevant(rels, *, n_relevant=None, threshold=1) -> float:
    r"""The number of relevant documents of the query, R, retrieved or not.

    It is ``n_relevant`` (trec_eval counts the judged documents with a grade ``>= threshold``),
    checked against the list: at least its relevant documents. By default R is the relevant
    documents in the list.

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
        A count (trec_eval prints it as an integer).

    See Also
    --------
    num_relevant_retrieved

    Notes
    -----
    trec_eval's ``num_rel``; its summary line is the sum over the queries. The chapter
    :doc:`/book/evaluating_runs` explains it.

    References
    ----------
    - ``trec_eval``: NIST. trec_eval 10.0, ``m_num_rel.c``.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.num_relevant([1, 0, 2, 0], n_relevant=5)
    5.0
    >>> rk.num_relevant([1, 0, 2, 0], threshold=2)  # R from the list itself
    1.0
    """
    return _num_relevant_steps(rels=rels, n_relevant=n_relevant, threshold=threshold).value


def _num_relevant_retrieved_steps(rels, threshold=1) -> Steps:
    columns, listed = relevance_columns(rels, None, threshold)
    return _running_count(columns, listed, "NumRelRet@i")


def _num_relevant_retrieved_by_query(ranked, k=None) -> np.ndarray:
    """NumRelRet of every query at once: its relevant documents in the run."""
    return ranked.top_sum("relevant")


def num_relevant_retrieved(rels, *, threshold=1) -> float:
    r"""The number of relevant documents retrieved: TP of the retrieved set.

    .. math:: \mathrm{NumRelRet} = \sum_{i=1}^{n} [\mathrm{rel}_i \ge \text{threshold}]

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    threshold : float > 0, default 1
        A document is relevant when its grade is at least this (so a grade of 0 never is).

    Returns
    -------
    float
        A count (trec_eval prints it as an integer).

    See Also
    --------
    num_retrieved, num_relevant

    Notes
    -----
    trec_eval's ``num_rel_ret``; its summary line is the sum over the queries. The chapter
    :doc:`/book/evaluating_runs` explains it.

    References
    ----------
    - ``trec_eval``: NIST. trec_eval 10.0, ``m_num_rel_ret.c``.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.num_relevant_retrieved([1, 0, 2, 0])
    2.0
    >>> rk.num_relevant_retrieved([1, 0, 2, 0], threshold=2)
    1.0
    """
    return _num_relevant_retrieved_steps(rels=rels, threshold=threshold).value


def _num_nonrelevant_judged_retrieved_steps(rels, judged=None, threshold=1) -> Steps:
    columns, listed = relevance_columns(rels, None, threshold)
    counted = as_judged(judged, columns["rel_i"]) & ~listed
    return _running_count(columns, counted, "NumNonRelJudgedRet@i")


def _num_nonrelevant_judged_retrieved_by_query(ranked, k=None) -> np.ndarray:
    """NumNonRelJudgedRet of every query at once: its judged non-relevant documents in the
    run (a negative grade is not judged)."""
    return ranked.sum_by_query(ranked.judged & ~ranked.relevant)


def num_nonrelevant_judged_retrieved(rels, *, judged=None, threshold=1) -> float:
    r"""The number of judged non-relevant documents retrieved.

    The retrieved documents that were judged with a grade below ``threshold``; unjudged
    documents are not counted. ``rankedu.evaluate`` reads a negative grade as "pooled but not
    judged", as trec_eval does, and leaves it out too; this function counts a negative grade in
    ``rels`` as judged unless ``judged`` says otherwise.

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first (0 when unjudged).
    judged : sequence of {0, 1}, optional
        Which retrieved documents were judged; every one by default.
    threshold : float > 0, default 1
        A document is relevant when its grade is at least this (so a grade of 0 never is).

    Returns
    -------
    float
        A count (trec_eval prints it as an integer).

    See Also
    --------
    num_relevant_retrieved, rankedu.judged_at_k

    Notes
    -----
    trec_eval's ``num_nonrel_judged_ret``, computed as ``num_ret`` minus the unjudged and the
    relevant retrieved documents; its summary line is the sum over the queries. The chapter
    :doc:`/book/incomplete_judgments` explains judged and unjudged documents.

    References
    ----------
    - ``trec_eval``: NIST. trec_eval 10.0, ``m_num_nonrel_judged_ret.c``.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.num_nonrelevant_judged_retrieved([1, 0, 2, 0], judged=[1, 1, 1, 0])
    1.0
    """
    return _num_nonrelevant_judged_retrieved_steps(rels=rels, judged=judged,
                                                   threshold=threshold).value


# --- set measures --------------------------------------------------------------------------------


def _retrieved_set(rels, n_relevant, threshold) -> tuple[np.ndarray, np.ndarray]:
    """(y_true, y_pred) of the retrieved set: each retrieved document (predicted positive) and
    each relevant document never retrieved (a positive predicted negative)."""
    grades = as_numbers(rels, "rels")
    relevant = grades >= as_threshold(threshold)
    missed = relevant_count(relevant, n_relevant) - int(relevant.sum())
    y_true = np.r_[relevant.astype(int), np.ones(missed, int)]
    y_pred = np.r_[np.ones(len(grades), int), np.zeros(missed, int)]
    return y_true, y_pred


def _set_steps(labels, **values) -> Steps:
    """One row: the retrieved set's TP, FP and FN, then ``values``, the last the result."""
    counts = confusion_matrix(*labels)
    row = {"TP": counts.tp, "FP": counts.fp, "FN": counts.fn, **values}
    result = list(values)[-1]
    return Steps(values[result], {result: {name: np.array([v]) for name, v in row.items()}})


def _set_counts(ranked) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(retrieved, relevant retrieved, relevant) of every query, as floats."""
    return (_num_retrieved_by_query(ranked), _num_relevant_retrieved_by_query(ranked),
            _num_relevant_by_query(ranked))


def _set_precision_steps(rels, threshold=1) -> Steps:
    labels = _retrieved_set(rels, None, threshold)
    return _set_steps(labels, SetP=precision(*labels))


def _set_precision_by_query(ranked, k=None) -> np.ndarray:
    """SetP of every query at once: relevant retrieved over retrieved."""
    retrieved, hits, _ = _set_counts(ranked)
    return safe_divide(hits, retrieved)


def set_precision(rels, *, threshold=1) -> float:
    r"""Set precision: the share of the retrieved documents that are relevant.

    .. math::

        \mathrm{SetP} = \frac{TP}{TP + FP} = \frac{\text{relevant retrieved}}{\text{retrieved}}

    :func:`rankedu.precision` of the retrieved set; 0.0 for an empty list. Unlike P@k it
    divides by the documents retrieved, however few: ``trec_eval -M 50 -m set_P`` is not
    ``P@50`` on a list of fewer than 50 documents.

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    threshold : float > 0, default 1
        A document is relevant when its grade is at least this (so a grade of 0 never is).

    Returns
    -------
    float

    See Also
    --------
    rankedu.precision, rankedu.precision_at_k

    Notes
    -----
    trec_eval's ``set_P``. The chapter :doc:`/book/cutoff` explains it.

    References
    ----------
    - ``trec_eval``: NIST. trec_eval 10.0, ``m_set_P.c``.
    - ``manning2008``: Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to
      Information Retrieval, chapter 8. Cambridge University Press.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.set_precision([1, 0, 2, 0])
    0.5
    >>> rk.set_precision([])
    0.0
    """
    return _set_precision_steps(rels=rels, threshold=threshold).value


def _set_recall_steps(rels, n_relevant=None, threshold=1) -> Steps:
    labels = _retrieved_set(rels, n_relevant, threshold)
    return _set_steps(labels, SetR=recall(*labels))


def _set_recall_by_query(ranked, k=None) -> np.ndarray:
    """SetR of every query at once: relevant retrieved over the relevant judged."""
    _, hits, total = _set_counts(ranked)
    return safe_divide(hits, total)


def set_recall(rels, *, n_relevant=None, threshold=1) -> float:
    r"""Set recall: the share of the relevant documents that were retrieved.

    .. math:: \mathrm{SetR} = \frac{TP}{TP + FN} = \frac{\text{relevant retrieved}}{R}

    :func:`rankedu.recall` of the retrieved set; 0.0 when R is 0.

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

    See Also
    --------
    rankedu.recall, rankedu.recall_at_k

    Notes
    -----
    trec_eval's ``set_recall``. The chapter :doc:`/book/cutoff` explains it.

    References
    ----------
    - ``trec_eval``: NIST. trec_eval 10.0, ``m_set_recall.c``.
    - ``manning2008``: Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to
      Information Retrieval, chapter 8. Cambridge University Press.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.set_recall([1, 0, 2, 0], n_relevant=4)
    0.5
    """
    return _set_recall_steps(rels=rels, n_relevant=n_relevant, threshold=threshold).value


def _set_f_steps(rels, beta=1.0, n_relevant=None, threshold=1) -> Steps:
    labels = _retrieved_set(rels, n_relevant, threshold)
    return _set_steps(labels, precision=precision(*labels), recall=recall(*labels),
                      β=as_above(beta, "beta", 0), SetF=f_beta(*labels, beta=beta))


def _set_f_by_query(ranked, k=None, *, beta=1.0) -> np.ndarray:
    """SetF of every query at once, from its set precision and set recall."""
    beta = as_above(beta, "beta", 0)
    return f_beta_of(_set_precision_by_query(ranked), _set_recall_by_query(ranked), beta)


def set_f(rels, *, beta=1.0, n_relevant=None, threshold=1) -> float:
    r"""The F-beta score of the retrieved set: weighted harmonic mean of SetP and SetR.

    .. math:: \mathrm{SetF}_\beta = \frac{(1 + \beta^2)\, \mathrm{SetP} \cdot \mathrm{SetR}}
                                         {\beta^2\, \mathrm{SetP} + \mathrm{SetR}}

    :func:`rankedu.f_beta` of the retrieved set; 0.0 when no relevant document is retrieved.
    ``beta`` is the book's beta. trec_eval's parameter is beta squared: ``set_F.x`` is
    ``set_f(rels, beta=x ** 0.5)``, so ``set_F.4`` is F2 and ``set_F.2`` is not. (ir_measures
    hands its ``SetF(beta=x)`` to trec_eval as ``set_F.x`` unchanged: its beta is trec_eval's
    x, this function's beta squared.)

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    beta : float > 0, default 1.0
        How many times as much recall counts as precision.
    n_relevant : int >= 0, optional
        Relevant documents of the query, retrieved or not; at least those in ``rels``.
    threshold : float > 0, default 1
        A document is relevant when its grade is at least this (so a grade of 0 never is).

    Returns
    -------
    float

    See Also
    --------
    rankedu.f_beta, rankedu.f_at_k

    Notes
    -----
    trec_eval's ``set_F`` (default parameter 1.0, printed ``set_F``). The chapter
    :doc:`/book/cutoff` explains it and trec_eval's beta squared.

    References
    ----------
    - ``trec_eval``: NIST. trec_eval 10.0, ``m_set_F.c``.
    - ``vanrijsbergen1979``: van Rijsbergen, C. J. (1979). Information Retrieval, 2nd edition.
      Butterworths.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.set_f([1, 0, 2, 0], n_relevant=4)  # P = 1/2, R = 1/2
    0.5
    >>> round(rk.set_f([1, 0, 0, 0], beta=2, n_relevant=2), 4)  # P = 1/4, R = 1/2
    0.4167
    """
    return _set_f_steps(rels=rels, beta=beta, n_relevant=n_relevant, threshold=threshold).value


# SetAP is computed as trec_eval computes it, TP^2 / (retrieved R) in one division: the product
# of the two rounded ratios can fall on the other side of a printed digit (0.05625 becomes
# 0.056249999999999994, printed 0.0562 where trec_eval prints 0.0563).


def _set_average_precision_steps(rels, n_relevant=None, threshold=1) -> Steps:
    labels = _retrieved_set(rels, n_relevant, threshold)
    counts = confusion_matrix(*labels)
    size = (counts.tp + counts.fp) * (counts.tp + counts.fn)
    return _set_steps(labels, precision=precision(*labels), recall=recall(*labels),
                      SetAP=counts.tp**2 / size if size else 0.0)


def _set_average_precision_by_query(ranked, k=None) -> np.ndarray:
    """SetAP of every query at once: relevant retrieved squared over retrieved times R."""
    retrieved, hits, total = _set_counts(ranked)
    return safe_divide(hits * hits, retrieved * total)


def set_average_precision(rels, *, n_relevant=None, threshold=1) -> float:
    r"""Unranked average precision of the retrieved set: set precision times set recall.

    .. math:: \mathrm{SetAP} = \mathrm{SetP} \cdot \mathrm{SetR}
                             = \frac{TP^2}{\text{retrieved} \cdot R}

    AP as if every relevant retrieved document stood at the set's precision (the order
    unknown) and every relevant document not retrieved at precision 0; 0.0 when nothing is
    retrieved or R is 0.

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

    See Also
    --------
    rankedu.average_precision

    Notes
    -----
    trec_eval's ``set_map`` (once ``exact_unranked_avg_prec``). The chapter :doc:`/book/cutoff`
    explains set precision and recall.

    References
    ----------
    - ``trec_eval``: NIST. trec_eval 10.0, ``m_set_map.c``.
    - ``voorhees2005``: Voorhees, E. M. and Harman, D. K., editors (2005). TREC: Experiment and
      Evaluation in Information Retrieval. MIT Press.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.set_average_precision([1, 0, 2, 0], n_relevant=4)  # 2 * 2 / (4 * 4)
    0.25
    """
    return _set_average_precision_steps(rels=rels, n_relevant=n_relevant,
                                        threshold=threshold).value


def _set_relative_precision_steps(rels, n_relevant=None, threshold=1) -> Steps:
    labels = _retrieved_set(rels, n_relevant, threshold)
    counts = confusion_matrix(*labels)
    best = min(counts.tp + counts.fp, counts.tp + counts.fn)
    return _set_steps(labels, **{"min(retrieved, R)": best,
                                 "SetRelP": counts.tp / best if best else 0.0})


def _set_relative_precision_by_query(ranked, k=None) -> np.ndarray:
    """SetRelP of every query at once: relevant retrieved over min(retrieved, R)."""
    retrieved, hits, total = _set_counts(ranked)
    return safe_divide(hits, np.minimum(retrieved, total))


def set_relative_precision(rels, *, n_relevant=None, threshold=1) -> float:
    r"""Relative set precision: set precision over the best a set of its size could score.

    .. math:: \mathrm{SetRelP} = \frac{\text{relevant retrieved}}{\min(\text{retrieved}, R)}

    A set of n documents holds at most min(n, R) relevant ones, so this is set precision when
    the set is no larger than R and set recall when it is; 0.0 when nothing is retrieved or R
    is 0.

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

    See Also
    --------
    set_precision, rankedu.relative_precision_at_k

    Notes
    -----
    trec_eval's ``set_relative_P`` (once ``exact_relative_prec``); ir_measures' ``SetRelP``.
    The chapter :doc:`/book/cutoff` explains set precision and recall.

    References
    ----------
    - ``trec_eval``: NIST. trec_eval 10.0, ``m_set_rel_P.c``.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.set_relative_precision([1, 0, 2, 0], n_relevant=3)  # 2 / min(4, 3)
    0.6666666666666666
    >>> rk.set_relative_precision([1, 0, 2, 0], n_relevant=10)  # 2 / min(4, 10)
    0.5
    """
    return _set_relative_precision_steps(rels=rels, n_relevant=n_relevant,
                                         threshold=threshold).value


# --- utility -------------------------------------------------------------------------------------


def _utility_steps(rels, n_relevant=None, a=1.0, b=-1.0, c=0.0, d=0.0, n_docs=0,
                   threshold=1) -> Steps:
    weights = {name: as_number(value, name) for name, value in zip("abcd", (a, b, c, d))}
    labels = _retrieved_set(rels, n_relevant, threshold)
    counts = confusion_matrix(*labels)
    tn = as_count(n_docs, "n_docs") - counts.tp - counts.fp - counts.fn
    value = (weights["a"] * counts.tp + weights["b"] * counts.fp + weights["c"] * counts.fn
             + weights["d"] * tn)
    return _set_steps(labels, TN=tn, **weights, utility=value)


def _utility_by_query(ranked, k=None, *, a=1.0, b=-1.0, c=0.0, d=0.0, n_docs=0) -> np.ndarray:
    """Utility of every query at once: a TP + b FP + c FN + d TN."""
    a, b, c, d = (as_number(value, name) for name, value in zip("abcd", (a, b, c, d)))
    retrieved, tp, total = _set_counts(ranked)
    fp, fn = retrieved - tp, total - tp
    tn = as_count(n_docs, "n_docs") - tp - fp - fn
    return a * tp + b * fp + c * fn + d * tn


def utility(rels, *, n_relevant=None, a=1.0, b=-1.0, c=0.0, d=0.0, n_docs=0,
            threshold=1) -> float:
    r"""Linear utility of the retrieved set: a weighted sum of its confusion matrix.

    .. math:: u = a \cdot TP + b \cdot FP + c \cdot FN + d \cdot TN

    Each relevant document retrieved (TP) is worth ``a`` to the user, each non-relevant one
    retrieved (FP) ``b`` (a cost when negative), each relevant one missed (FN) ``c`` and each
    other document of the collection (TN) ``d``. The default, a = 1 and b = -1, is the TREC
    filtering tracks' "gain one for a hit, lose one for a miss": a sum, not a share, so it is
    not in [0, 1] and grows with the list. TN is ``n_docs`` - TP - FP - FN, ``n_docs`` being
    the collection's size: trec_eval's ``-N``, 0 unless given, and then TN is negative (as in
    trec_eval); give it whenever ``d`` is not 0.

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    n_relevant : int >= 0, optional
        Relevant documents of the query, retrieved or not; at least those in ``rels``.
    a, b, c, d : float, default 1, -1, 0, 0
        The worth of a TP, an FP, an FN and a TN (trec_eval's parameters p1..p4, in order).
    n_docs : int >= 0, default 0
        Documents in the collection (trec_eval ``-N``); only the TN term reads it.
    threshold : float > 0, default 1
        A document is relevant when its grade is at least this (so a grade of 0 never is).

    Returns
    -------
    float

    See Also
    --------
    rankedu.confusion_matrix

    Notes
    -----
    trec_eval's ``utility`` (default parameters 1,-1,0,0; printed ``utility``, or for instance
    ``utility_2,-1,0,0`` when given as ``-m utility.2,-1,0,0``); its summary line is the mean
    over the queries. The chapter :doc:`/book/confusion_matrix` explains the matrix.

    References
    ----------
    - ``trec_eval``: NIST. trec_eval 10.0, ``m_utility.c``.
    - ``voorhees2005``: Voorhees, E. M. and Harman, D. K., editors (2005). TREC: Experiment and
      Evaluation in Information Retrieval. MIT Press.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.utility([1, 0, 2, 0], n_relevant=3)  # 2 hits, 2 misses: 2 - 2
    0.0
    >>> rk.utility([1, 0, 2, 0], n_relevant=3, a=2, c=-1)  # 2*2 - 2 - 1
    1.0
    """
    return _utility_steps(rels=rels, n_relevant=n_relevant, a=a, b=b, c=c, d=d, n_docs=n_docs,
                          threshold=threshold).value
