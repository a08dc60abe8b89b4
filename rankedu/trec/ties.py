"""Tied scores as an explicit choice: the four ways :func:`rankedu.evaluate` can rank a tie.

Documents of one query with equal scores form a *tie group*: a run says nothing about their
order, yet every measure but a few reads one. ``evaluate(..., ties=...)`` names the choice:

- ``"trec_eval"`` (the default): ties broken by docno, descending, as trec_eval does. The value
  then depends on the documents' names.
- ``"optimistic"``: within each tie group the documents with the highest grade come first
  (relevant before non-relevant; among equal grades, judged before unjudged), then by docno
  descending. Every measure that rewards moving a better document up is at its largest.
- ``"pessimistic"``: the reverse, lowest grade first (unjudged before judged among equal
  grades), then docno descending: those measures at their smallest.
- ``"average"``: the exact mean of the measure over every order of every tie group, each order
  equally likely (McSherry and Najork, 2008), as scikit-learn's ``ndcg_score`` averages ties.
  Exact, not sampled: the groups are contiguous blocks of the ranking, so a measure that is a
  sum over ranks of a weight times a document's relevance (P@k, R@k, Rprec, nDCG(@k),
  Judged@k) has as its mean the value on the list where each document's relevance, gain and
  judged flag are replaced by their mean over its group (linearity of expectation). AP(@k) and
  RR(@k) have closed forms per group, below. ERR, RBP, INST and Bpref are not supported (a
  ``ValueError`` says so): ERR's and INST's weights depend on the gains above a rank, and
  Bpref caps a count, so neither linearity nor these closed forms give their mean. RBP is
  linear, but its kernel's check that every grade is at most 1 reads the gains the kernel is
  given, and a tie group's mean could hide a grade above 1; it is left out rather than checked
  twice.

With AP(judged_only=True) or nDCG(judged_only=True), the unjudged documents are removed first:
a uniform order of a tie group leaves its judged documents in a uniform order, so the mean over
the condensed list's ties is the mean over the run's.

The closed forms, for a tie group of n documents, r of them relevant, at ranks s .. s + n - 1,
with c relevant documents ranked above it (the same in every order: the groups above hold them):

- AP: the document at position j of the group (rank s - 1 + j) is relevant with probability
  r / n, and then the other relevant documents of the group fill each of the j - 1 places above
  it with probability (r - 1) / (n - 1). Its expected contribution to the AP sum is therefore
  (r / n) (c + 1 + (j - 1)(r - 1)/(n - 1)) / (s - 1 + j), counted when s - 1 + j <= k.
- RR: only the query's first group holding a relevant document can hold the first one; it is
  at position j with probability C(n - j, r - 1) / C(n, r) (the j - 1 places above it hold no
  relevant document), contributing 1 / (s - 1 + j) when s - 1 + j <= k.

RBP and INST follow cwl-eval's conventions in everything but the order: ``evaluate`` ranks their
lists as it ranks every measure's (score descending, then ``ties``), where cwl-eval reads the
run file's lines in the order they are written; the two agree when a file lists each query's
documents best first with distinct scores. ``"optimistic"`` and ``"pessimistic"`` apply to them.

:func:`rankedu.evaluate` warns with a :class:`TieWarning` when, with the default
``ties="trec_eval"``, some query's value of some measure differs between the optimistic and the
pessimistic orders; :func:`rankedu.tie_interval` gives both values for every query.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from rankedu.core.ranked import RankedRun, cumprod_by_query, safe_divide, sum_by_query

__all__ = ["TIES", "TieWarning"]

#: The values ``evaluate``'s ``ties`` takes.
TIES = ("trec_eval", "average", "optimistic", "pessimistic")


class TieWarning(UserWarning):
    """Tied scores make some value depend on the order the ties are broken in.

    Examples
    --------
    >>> import warnings
    >>> import rankedu as rk
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = rk.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0, "b": 1.0}}, ["P@1"])
    >>> caught[0].category is rk.TieWarning
    True
    """


def _layout(ranked: RankedRun):
    """(dense group id, each group's size, each document's position in its group from 1)."""
    group = ranked.group
    if group is None:
        group = np.arange(len(ranked.query))
    new = np.ones(len(group), dtype=bool)
    new[1:] = group[1:] != group[:-1]
    starts, dense = np.flatnonzero(new), np.cumsum(new) - 1
    size = np.diff(np.r_[starts, len(group)])
    position = np.arange(1, len(group) + 1) - starts[dense]
    return dense, size, position


def tie_order(ranked: RankedRun, ties: str) -> np.ndarray | None:
    """The permutation that puts each tie group in the ``ties`` order (None: nothing moves).

    ``"optimistic"``: grade descending, judged first, then pooled first (a negative grade,
    which infAP counts in its pool); ``"pessimistic"``: the reverse; both then by the current
    order (docno descending).
    """
    if ties not in ("optimistic", "pessimistic") or ranked.group is None:
        return None
    sign = -1 if ties == "optimistic" else 1
    here = np.arange(len(ranked.query))
    return np.lexsort((here, sign * ranked.is_pooled(), sign * ranked.judged, sign * ranked.gain,
                       ranked.group))


def reorder(ranked: RankedRun, ties: str) -> RankedRun:
    """``ranked`` with each tie group in the ``ties`` order (``"optimistic"``, ``"pessimistic"``;
    any other value leaves it as it is)."""
    order = tie_order(ranked, ties)
    if order is None:
        return ranked
    return replace(ranked, gain=ranked.gain[order], relevant=ranked.relevant[order],
                   judged=ranked.judged[order],
                   pooled=None if ranked.pooled is None else ranked.pooled[order])


def tie_numbers(ranked: RankedRun) -> np.ndarray:
    """Per document: its tie group's number within its query (1, 2, ...) when the group holds
    several documents, 0 when its score ties with no other."""
    dense, size, _ = _layout(ranked)
    tied = size > 1
    if not tied.any():
        return np.zeros(len(dense), dtype=np.int64)
    first_of_query = _first_of_query(ranked, size)
    number = np.cumsum(tied)  # tied groups so far, over the whole run
    before = np.maximum.accumulate(np.where(first_of_query, number - tied, 0))
    return np.where(tied, number - before, 0)[dense]


def only_group(ranked: RankedRun, document: int) -> RankedRun:
    """``ranked`` with only the tie group of ``document`` (a position) kept as a tie: every
    other document its own group, so :func:`reorder` moves that group alone."""
    dense, _, _ = _layout(ranked)
    here = np.arange(len(dense))
    inside = dense == dense[document]
    return replace(ranked, group=np.where(inside, here[inside][0], here))


def mixed_queries(ranked: RankedRun) -> np.ndarray:
    """Per query: whether some tie group holds documents that differ in grade or in being judged
    (only then can the order of a tie change a value). A group differs somewhere exactly when
    two of its neighbours differ, so only the tied neighbours (few, in a real run) are read."""
    mixed = np.zeros(ranked.n_queries, dtype=bool)
    if ranked.group is None or not len(ranked.query):
        return mixed
    above = np.flatnonzero(ranked.group[1:] == ranked.group[:-1])  # tied to the one below it
    below = above + 1
    pooled = ranked.is_pooled()
    differ = (ranked.gain[above] != ranked.gain[below]) | (
        ranked.judged[above] != ranked.judged[below]) | (pooled[above] != pooled[below])
    mixed[ranked.query[above[differ]]] = True
    return mixed


def subset(ranked: RankedRun, keep: np.ndarray) -> RankedRun:
    """The queries ``keep`` (a bool per query) of ``ranked``, renumbered in order."""
    new_index = np.cumsum(keep) - 1
    docs, ideal = keep[ranked.query], keep[ranked.ideal_query]
    return replace(
        ranked, n_queries=int(keep.sum()), query=new_index[ranked.query[docs]],
        rank=ranked.rank[docs], gain=ranked.gain[docs], relevant=ranked.relevant[docs],
        judged=ranked.judged[docs], n_relevant=ranked.n_relevant[keep],
        n_nonrelevant=ranked.n_nonrelevant[keep], ideal_query=new_index[ranked.ideal_query[ideal]],
        ideal_rank=ranked.ideal_rank[ideal], ideal_gain=ranked.ideal_gain[ideal],
        group=None if ranked.group is None else ranked.group[docs],
        pooled=None if ranked.pooled is None else ranked.pooled[docs],
    )


def mean_within_ties(ranked: RankedRun) -> RankedRun:
    """``ranked`` with each document's relevance, judged flag and gain replaced by their mean
    over its tie group (floats): the expected values at each rank over the orders of the ties."""
    dense, size, _ = _layout(ranked)

    def mean(values):
        return (np.bincount(dense, weights=values, minlength=len(size)) / size)[dense]

    return replace(ranked, gain=mean(ranked.gain), relevant=mean(ranked.relevant),
                   judged=mean(ranked.judged))


def linear(kernel):
    """The exact mean over tie orders of a measure that is a sum over ranks of a weight times a
    document's relevance, gain or judged flag: its ``kernel`` on :func:`mean_within_ties`."""

    def average(ranked, k=None, **params):
        return kernel(mean_within_ties(ranked), k, **params)

    average.__doc__ = f"The mean over tie orders of {kernel.__name__}, by linearity."
    return average


def _first_of_query(ranked: RankedRun, size: np.ndarray) -> np.ndarray:
    """Per group (of the sizes ``size``, in order): whether it is its query's first."""
    group_query = ranked.query[np.cumsum(size) - size]
    first = np.ones(len(size), dtype=bool)
    first[1:] = group_query[1:] != group_query[:-1]
    return first


def _relevant_above(ranked: RankedRun, dense, size):
    """Per group: its relevant documents, and the relevant documents of its query above it."""
    relevant = np.bincount(dense, weights=ranked.relevant, minlength=len(size))
    running = np.cumsum(relevant) - relevant  # relevant in every group before, any query
    first_of_query = _first_of_query(ranked, size)
    query_start = np.maximum.accumulate(np.where(first_of_query, np.arange(len(size)), 0))
    return relevant, running - running[query_start]


def average_precision_average(ranked: RankedRun, k=None) -> np.ndarray:
    """AP (AP@k) of every query, the exact mean over the orders of its tied documents."""
    dense, size, position = _layout(ranked)
    relevant, above = _relevant_above(ranked, dense, size)
    n, r, c = size[dense].astype(float), relevant[dense], above[dense]
    others_above = safe_divide((position - 1) * (r - 1), n - 1)
    contribution = (r / n) * (c + 1 + others_above) / ranked.rank
    return safe_divide(sum_by_query(ranked.query, ranked.rank, contribution, ranked.n_queries, k),
                       ranked.n_relevant)


def reciprocal_rank_average(ranked: RankedRun, k=None) -> np.ndarray:
    """RR (RR@k) of every query, the exact mean over the orders of its tied documents."""
    dense, size, position = _layout(ranked)
    relevant, above = _relevant_above(ranked, dense, size)
    n, r = size[dense].astype(float), relevant[dense]
    # P(the j - 1 places above hold no relevant document) = prod_{i<j} (n - r - i + 1)/(n - i + 1)
    step = np.where(position > 1, np.maximum(n - r - position + 2, 0) / (n - position + 2), 1.0)
    none_above = cumprod_by_query(dense, step)
    first_here = (r > 0) & (above[dense] == 0)  # the query's first group holding a relevant one
    probability = np.where(first_here, none_above * r / (n - position + 1), 0.0)
    return sum_by_query(ranked.query, ranked.rank, probability / ranked.rank, ranked.n_queries, k)
