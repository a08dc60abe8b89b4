"""Building blocks that more than one metric module computes with.

Private: a metric module imports them from here, never from another metric module, so that no
module reaches into another's private names. Validation lives in ``rankedu.core.validation``; this module
holds computations only.
"""

from __future__ import annotations

import math

import numpy as np

from rankedu.core.validation import as_cutoff, as_numbers, as_threshold

#: How many ranks past the end of a list shorter than the cutoff ``k`` an explanation lists one
#: by one. Those ranks hold no document (they count as non-relevant), so past the first
#: ``PADDED_ROWS - 1`` of them one row at rank ``k`` stands for all the rest: a cutoff of 10**9
#: on a list of three documents costs a table of 1,002 rows, not 10**9.
PADDED_ROWS = 1000


def running_mean(values: np.ndarray) -> np.ndarray:
    """The mean of the first 1, 2, ... entries: the running value of an estimate that averages
    one term per row."""
    return np.cumsum(values) / np.arange(1, len(values) + 1)


def last(column: np.ndarray) -> float:
    """The running result at the last step of a table; 0.0 for an empty table."""
    return float(column[-1]) if len(column) else 0.0


def padded_ranks(n: int, depth: int) -> np.ndarray:
    """The ranks n+1..depth past the end of a list of n documents that a table lists.

    Every one of them when there are at most ``PADDED_ROWS``; otherwise the first
    ``PADDED_ROWS - 1`` and then ``depth`` itself.
    """
    if depth - n <= PADDED_ROWS:
        return np.arange(n + 1, depth + 1, dtype=np.int64)
    return np.r_[np.arange(n + 1, n + PADDED_ROWS, dtype=np.int64), np.int64(depth)]


def top_k(grades: np.ndarray, k) -> tuple[np.ndarray, np.ndarray]:
    """The grades of the top ``k`` (all when ``k`` is None, checked as a cutoff) and their ranks 1..k."""
    k = as_cutoff(k)
    grades = grades if k is None else grades[:k]
    return grades, np.arange(1, len(grades) + 1)


def harmonic_gap(a: int, b: int) -> float:
    """1/(a+1) + 1/(a+2) + ... + 1/b for integers 0 <= a <= b, without summing b - a terms.

    Terms below 1000, and every term when there are at most 1000, are summed exactly
    (``math.fsum``); the rest is the difference of the digamma function's asymptotic series,
    psi(b + 1) - psi(a + 1), whose error for a >= 1000 is far below a float's rounding.
    """
    if b - a <= 1000:
        return math.fsum(1.0 / i for i in range(a + 1, b + 1))
    if a < 1000:
        return harmonic_gap(a, 1000) + harmonic_gap(1000, b)

    def tail(x: float) -> float:  # psi(x + 1) - log(x)
        return 1 / (2 * x) - 1 / (12 * x**2) + 1 / (120 * x**4) - 1 / (252 * x**6)

    return math.log1p((b - a) / a) + tail(b) - tail(a)


def relevance_columns(rels, k=None, threshold=1, *, k_name="k") -> tuple[dict[str, np.ndarray], np.ndarray]:
    """The per-rank arrays every binary-relevance metric is built from.

    One row per rank 1..min(k, n) of the list (the whole list when ``k`` is None): the grade,
    whether it is relevant, the relevant documents so far and the precision at that rank. When
    ``k`` is past the end of the list, the ranks n+1..k hold no document; they get rows marked
    ``retrieved = False`` (grade 0, non-relevant), listed as :func:`padded_ranks` says, so
    the last row is always rank k. Nothing of size k is allocated.

    Also returns whether each document of the whole list is relevant, for denominators that
    count past k. ``k_name`` is the argument an error about ``k`` names (R-precision cuts at
    ``n_relevant``).
    """
    grades = as_numbers(rels, "rels")
    k = as_cutoff(k, k_name)
    threshold = as_threshold(threshold)
    listed = grades >= threshold
    n = len(grades)
    depth = n if k is None else k
    shown = min(depth, n)
    columns = {"i": np.arange(1, shown + 1, dtype=np.int64)}
    grades, relevant = grades[:shown], listed[:shown]
    if depth > n:
        beyond = padded_ranks(n, depth)
        columns["i"] = np.r_[columns["i"], beyond]
        columns["retrieved"] = np.r_[np.ones(n, bool), np.zeros(len(beyond), bool)]
        grades = np.r_[grades, np.zeros(len(beyond))]
        relevant = np.r_[relevant, np.zeros(len(beyond), bool)]
    columns["rel_i"] = grades
    columns["relevant"] = relevant
    columns["hits@i"] = np.cumsum(relevant)
    columns["P@i"] = columns["hits@i"] / columns["i"]
    return columns, listed


def precision_sums(columns: dict[str, np.ndarray]) -> np.ndarray:
    """P@1 + P@2 + ... + P@i at each row of :func:`relevance_columns`, skipped ranks included.

    Between two consecutive rows the sum grows by P@i; across the one jump a long padding may
    make (ranks a+1..b, no document, hits constant at h) it grows by h (1/(a+1) + ... + 1/b).
    """
    ranks, hits, precision = columns["i"], columns["hits@i"], columns["P@i"]
    steps = precision.astype(float)
    jumps = np.flatnonzero(np.diff(ranks, prepend=0) > 1)
    for row in jumps:
        steps[row] = hits[row] * harmonic_gap(int(ranks[row - 1]), int(ranks[row]))
    return np.cumsum(steps)


def best_from_here(precision: np.ndarray) -> np.ndarray:
    """Interpolated precision at each rank: the best precision at that rank or a later one."""
    return np.maximum.accumulate(precision[::-1])[::-1]


def f_beta_of(precision, recall, beta: float):
    """(1 + beta^2) P R / (beta^2 P + R), elementwise; 0.0 where the denominator is 0."""
    precision, recall = np.asarray(precision, float), np.asarray(recall, float)
    denominator = beta**2 * precision + recall
    numerator = (1 + beta**2) * precision * recall
    return np.divide(numerator, denominator, out=np.zeros_like(denominator), where=denominator > 0)


def satisfaction(grades, max_grade: float):
    """ERR's R(g) = (2^g - 1) / 2^max_grade: the probability that a document of grade g satisfies.

    Computed as 2^(g - max_grade) - 2^(-max_grade), which is the same number (exactly so for
    integer grades up to 53) but never overflows: for 0 <= g <= max_grade the first power is at
    most 1 and the second at most 1, so a scale of 0-2000 works as well as 0-4, where 2^g alone
    would be infinite from g = 1024 on.
    """
    grades = np.asarray(grades, float)
    return np.exp2(grades - max_grade) - np.exp2(-max_grade)


def two_sided_test(difference: float, standard_error: float, tail) -> tuple[float, float]:
    """The statistic difference / standard error and its two-sided p-value ``tail(statistic)``.

    A standard error of 0 (every paired difference the same) gives ±inf and p = 0.0 when the
    difference is not 0, and nan for both when it is (there is nothing to test).
    """
    if standard_error > 0:
        statistic = difference / standard_error
        return statistic, tail(statistic)
    if difference != 0:
        return math.copysign(math.inf, difference), 0.0
    return math.nan, math.nan


def quantities(rows) -> dict[str, np.ndarray]:
    """A table of named quantities, one per row, from (quantity, formula, value) triples."""
    quantity, formula, value = zip(*rows)
    return {"quantity": np.array(quantity), "formula": np.array(formula),
            "value": np.array(value, dtype=float)}


def twice_midranks(scores: np.ndarray, groups: np.ndarray | None = None) -> np.ndarray:
    """Twice each score's midrank within its group (1 = the group's lowest score; tied scores
    share the mean of their ranks). Doubled, the midrank is an integer, so rank sums stay exact."""
    # Ties share one midrank whatever their order, so the sort by score need not be stable; the
    # pass by group must be, to keep each group's scores in order.
    order = np.argsort(scores)
    if groups is not None:
        order = order[np.argsort(groups[order], kind="stable")]
    ranked = scores[order]
    n = len(ranked)
    position = np.arange(n)
    new_group = np.ones(n, dtype=bool)
    if groups is not None:
        grouped = groups[order]
        new_group[1:] = grouped[1:] != grouped[:-1]
    else:
        new_group[1:] = False
    new_tie = new_group.copy()
    new_tie[1:] |= ranked[1:] != ranked[:-1]
    group_start = np.maximum.accumulate(np.where(new_group, position, 0))
    tie_first = np.maximum.accumulate(np.where(new_tie, position, 0))
    ends_tie = np.r_[new_tie[1:], True]
    tie_last = np.minimum.accumulate(np.where(ends_tie, position, n)[::-1])[::-1]
    twice = (tie_first - group_start + 1) + (tie_last - group_start + 1)
    result = np.empty(n, dtype=np.int64)
    result[order] = twice
    return result


def rank_sums(labels, scores, codes=None, count=1):
    """Twice every score's midrank (within its group), and per group the positives n+, twice
    the positives' rank sum 2R+ and the exact integer 2U = 2R+ - n+(n+ + 1) of the Mann-Whitney
    statistic. One group when ``codes`` is None; otherwise ``codes`` numbers the ``count``
    groups from 0."""
    twice_rank = twice_midranks(scores, codes)
    codes = np.zeros(len(labels), dtype=np.intp) if codes is None else codes
    positives = np.zeros(count, dtype=np.int64)
    np.add.at(positives, codes, labels)
    twice_rank_sum = np.zeros(count, dtype=np.int64)
    np.add.at(twice_rank_sum, codes, labels * twice_rank)
    return twice_rank, positives, twice_rank_sum, twice_rank_sum - positives * (positives + 1)
