"""A run joined with its judgments, as flat arrays grouped by query: what the by-query kernels read.

``rankedu.evaluate`` ranks every query's documents once and hands each measure's kernel (the
``_<metric>_by_query`` function beside ``_<metric>_steps`` in the metric's module) one
:class:`RankedRun`. A kernel returns one value per query, computed with segment operations on
the flat arrays (``np.bincount`` sums, within-query cumulative counts and products), so that
its cost and memory grow with the number of lines, never with queries x depth.

Private: no one's API.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np


def ranks_within(query: np.ndarray) -> np.ndarray:
    """The rank (from 1) of each entry within its query; ``query`` is non-decreasing.

    A running count of ones that drops back to 1 at each query's first entry: one array, no
    temporary as long as it.
    """
    starts = np.flatnonzero(query[1:] != query[:-1]) + 1
    rank = np.ones(len(query), dtype=np.int32 if len(query) < 2**31 else np.int64)
    rank[starts] = 1 - np.diff(starts, prepend=0)
    return np.cumsum(rank, out=rank)


@dataclass
class RankedRun:
    """Every retrieved document of the evaluated queries, query by query, in rank order.

    The per-document arrays all have one entry per run line kept; ``query`` is non-decreasing.
    """

    n_queries: int
    query: np.ndarray  # int32 (or int64) query index 0..n_queries-1
    rank: np.ndarray  # int32 (int64 past 2**31 entries) rank within the query, from 1
    gain: np.ndarray  # float64 judged grade; 0 when unjudged or negative (trec_eval's reading)
    relevant: np.ndarray  # bool: judged with a grade >= threshold
    judged: np.ndarray  # bool: judged with a grade >= 0 (a negative grade: pooled, not judged)
    n_relevant: np.ndarray  # int64 per query: relevant documents judged, retrieved or not
    n_nonrelevant: np.ndarray  # int64 per query: judged with 0 <= grade < threshold (bpref's N)
    ideal_query: np.ndarray  # the positive judged grades of each query, highest first:
    ideal_rank: np.ndarray  # their query, their rank in the ideal ranking,
    ideal_gain: np.ndarray  # and the grade
    max_grade: float  # ERR's g_max
    # int32 (int64) per document: its tie group, documents of one query with equal scores
    # (numbered down the run, non-decreasing); None when every group is one document (no tie)
    group: np.ndarray | None = None
    # bool per document: the qrels list it, with any grade (a negative grade: pooled but not
    # judged, which only infAP tells apart); None when that is ``judged`` (no negative grade)
    pooled: np.ndarray | None = None
    # What :meth:`once` computed from this run: not a field of ``__init__``, so a run made by
    # ``dataclasses.replace`` (cut, condensed, reordered) starts with an empty one.
    _cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def once(self, compute, *args):
        """``compute(self, *args)``, computed the first time only: the per-run quantities that
        several measures and cutoffs share. The run's arrays are never changed in place."""
        key = (compute, *args)
        if key not in self._cache:
            self._cache[key] = compute(self, *args)
        return self._cache[key]

    @property
    def bounds(self) -> np.ndarray:
        """int64, n_queries + 1: query q's documents are the positions bounds[q]:bounds[q + 1]."""
        return self.once(_bounds)

    @property
    def n_retrieved(self) -> np.ndarray:
        """int64 per query: its documents in the run."""
        return self.once(_n_retrieved)

    def running(self, name: str) -> np.ndarray:
        """Within each query, the running sum (inclusive) of the per-document array ``name``
        (``"relevant"``, ``"judged"``) down the list: exact counts for flags, the very doubles
        of a per-list ``np.cumsum`` for fractions (the mean over tie orders)."""
        return self.once(_running, name)

    def top_sum(self, name: str, k=None) -> np.ndarray:
        """Per query, the sum of the per-document array ``name`` over its top ``k`` (an int,
        one per query, or None: all): the very doubles of :meth:`sum_by_query` (a count is
        exact; a sum of fractions is added in list order).

        Only the nonzero entries are summed (found once per run and ``name``): a relevant or
        judged document is a few in a hundred lines of a real run, and adding 0.0 changes no
        sum but -0.0, which bincount's start of 0.0 turns into 0.0 anyway."""
        query, rank, values = self.once(_nonzero, name)
        if k is not None:
            top = rank <= (np.asarray(k)[query] if np.ndim(k) else k)
            query, values = query[top], values[top]
        return np.bincount(query, weights=values, minlength=self.n_queries)

    def is_pooled(self) -> np.ndarray:
        """Per document: whether the qrels list it (``pooled``, or ``judged`` when None)."""
        return self.judged if self.pooled is None else self.pooled

    def sum_by_query(self, values: np.ndarray, k: int | None = None) -> np.ndarray:
        """Sum of ``values`` (one per document) over the top k of each query."""
        return sum_by_query(self.query, self.rank, values, self.n_queries, k)


def _bounds(ranked: RankedRun) -> np.ndarray:
    return np.searchsorted(ranked.query, np.arange(ranked.n_queries + 1))


def _n_retrieved(ranked: RankedRun) -> np.ndarray:
    return np.diff(ranked.bounds)


def _nonzero(ranked: RankedRun, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The query, rank and value (float64) of the entries of array ``name`` that are not 0."""
    values = getattr(ranked, name)
    at = np.flatnonzero(values)
    return ranked.query[at], ranked.rank[at], values[at].astype(np.float64)


def _running(ranked: RankedRun, name: str) -> np.ndarray:
    values = getattr(ranked, name)
    if values.dtype != bool:
        return cumsum_by_query(ranked.query, values)
    count = np.cumsum(values, dtype=np.int32 if len(values) < 2**31 else np.int64)
    if len(count):  # less each query's count before its first entry
        start = ranked.bounds[:-1]
        count -= np.repeat(np.where(start > 0, count[np.maximum(start - 1, 0)], 0),
                           ranked.n_retrieved)
    return count


def at_cut(running: np.ndarray, start: np.ndarray, cut: np.ndarray) -> np.ndarray:
    """Per query, ``running`` (a within-query running sum, inclusive, of the entries from
    ``start``) at its last entry before ``cut``, as a float; 0.0 when there is none.

    Plus 0.0, the same double as the ``np.bincount`` sum of those entries: both add them in list
    order, bincount from 0.0 (which only turns a sum of -0.0 into 0.0)."""
    out = np.zeros(len(cut))
    some = np.flatnonzero(cut > start)
    out[some] = running[cut[some] - 1]
    return out


def condensed_run(ranked: RankedRun) -> RankedRun:
    """The run with its unjudged documents removed and the ranks closed up: every query's
    condensed list at once (what trec_eval's ``-J`` evaluates)."""
    keep = np.flatnonzero(ranked.judged)
    query = ranked.query[keep]
    return replace(ranked, query=query, rank=ranks_within(query),
                   gain=ranked.gain[keep], relevant=ranked.relevant[keep],
                   judged=ranked.judged[keep], pooled=None)


def sum_by_query(query, rank, values, n_queries: int, k: int | None = None) -> np.ndarray:
    """Per-query sum of ``values`` over the entries of rank <= k (all when k is None)."""
    if k is not None:  # cut first: only the top k are converted to float
        top = rank <= k
        query, values = query[top], values[top]
    return np.bincount(query, weights=np.asarray(values, dtype=float), minlength=n_queries)


def first_by_query(query: np.ndarray, flags: np.ndarray, n_queries: int) -> np.ndarray:
    """Position of each query's first entry with ``flags`` set, -1 when it has none."""
    hits = np.flatnonzero(flags)
    first = np.full(n_queries, -1, dtype=np.int64)
    if len(hits):
        new = np.r_[True, query[hits[1:]] != query[hits[:-1]]]
        first[query[hits[new]]] = hits[new]
    return first


def cumprod_by_query(query: np.ndarray, factors: np.ndarray) -> np.ndarray:
    """Within each query, the running product of ``factors`` down the list (inclusive), the
    very floating-point operations of a per-list ``np.cumprod`` (:func:`_accumulate_by_query`)."""
    return _accumulate_by_query(query, factors, np.cumprod, 1.0)


def cumsum_by_query(query: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Within each query, the running sum of ``values`` down the list (inclusive), the very
    floating-point operations of a per-list ``np.cumsum``: a query's sums never depend on the
    queries before it (:func:`_accumulate_by_query`)."""
    return _accumulate_by_query(query, values, np.cumsum, 0.0)


_SPAN = 2**16  # entries: fewer go to the blocks of _accumulate_by_query, with the other queries


def _accumulate_by_query(query: np.ndarray, factors: np.ndarray, accumulate, fill: float
                         ) -> np.ndarray:
    """Within each query, ``accumulate`` (``np.cumprod``, ``np.cumsum``) of ``factors`` down the
    list, ``fill`` its identity.

    Computed as ``accumulate`` along the rows of dense blocks, so that each query's results are
    the very floating-point operations a per-list ``accumulate`` does. A block holds the queries
    whose length falls in one power-of-two class, padded to the longest of them: the blocks
    together hold fewer than twice as many cells as there are entries, however unequal the
    queries' lengths (one query of 200,000 documents among thousands of short ones costs no
    queries x 200,000 matrix).

    Consecutive queries of one length that hold at least ``_SPAN`` entries together (most of a
    run cut at a fixed depth) are such a block already: ``accumulate`` reads them in place.
    """
    out = np.empty(len(factors))
    if not len(factors):
        return out
    starts = np.flatnonzero(np.r_[True, query[1:] != query[:-1]])
    lengths = np.diff(np.r_[starts, len(query)])
    size_class = np.ceil(np.log2(lengths)).astype(np.int64)
    # The spans of consecutive queries of equal length: their first and last query.
    first = np.flatnonzero(np.r_[True, lengths[1:] != lengths[:-1]])
    last = np.r_[first[1:], len(lengths)] - 1
    ends = starts + lengths
    long = ends[last] - starts[first] >= _SPAN
    for span_first, span_last in zip(first[long], last[long]):
        span, width = slice(starts[span_first], ends[span_last]), lengths[span_first]
        accumulate(np.asarray(factors[span], dtype=float).reshape(-1, width), axis=1,
                   out=out[span].reshape(-1, width))
        size_class[span_first:span_last + 1] = -1  # done
    for cls in np.unique(size_class[size_class >= 0]):
        members = np.flatnonzero(size_class == cls)
        width = int(lengths[members].max())
        column = np.arange(width)
        inside = column < lengths[members, None]
        positions = (starts[members, None] + column)[inside]
        block = np.full((len(members), width), fill)
        block[inside] = factors[positions]
        out[positions] = accumulate(block, axis=1)[inside]
    return out


def safe_divide(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator, 0.0 where the denominator is 0 (a query with nothing to find)."""
    out = np.zeros(np.shape(numerator), dtype=float)
    np.divide(numerator, denominator, out=out, where=np.asarray(denominator) > 0)
    return out
