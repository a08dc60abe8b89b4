"""Ranking a run and joining it with its judgments: the flat arrays :func:`rankedu.evaluate` reads.

The run's lines of the evaluated queries are put in rank order (query ascending, score
descending, docno descending, docnos compared only among tied scores, as trec_eval's
``comp_sim_docno`` does), each ranked document is looked up in the qrels, and the result is a
:class:`rankedu.core.ranked.RankedRun` with each query's relevant count and ideal ranking. The
conventions (negative grades, the threshold, the ideal DCG) are stated in
:mod:`rankedu.trec.evaluate`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from rankedu.core.ranked import RankedRun, ranks_within
from rankedu.core.validation import as_flag, as_max_grade, as_threshold, one_of
from rankedu.trec import fast_read as _fast_read
from rankedu.trec import ties as _ties
from rankedu.trec.load import _docno_order, _load_pair, _Table, link_errors_first
from rankedu.trec.measures import QueryLists

#: ERR's top grade unless ``max_grade`` is given: gdeval's and ir_measures' default.
DEFAULT_MAX_GRADE = 4


# A run grouped by query has its stretches moved whole (copies of slices) when they are at
# least this long on average; shorter ones are gathered through an index of every line.
_SHORTEST_MOVE = 64


@dataclass
class _Permutation:
    """How the run's lines are reordered into rank order: a whole gather (``full``), or for a
    run grouped by query, best first, its stretches of lines moved whole (``moves``: the first
    and the end line of each, in their new order; None when none moves) and then only the tied
    positions reordered (``new[at] = moved[source]``, within single queries)."""

    full: np.ndarray | None = None
    moves: tuple[list[int], list[int]] | None = None
    at: np.ndarray | None = None
    source: np.ndarray | None = None

    def apply(self, values: np.ndarray, *, owned: bool = False) -> np.ndarray:
        """``values`` in rank order (``owned``: an array no one else reads, patched in
        place)."""
        if self.full is not None:
            return values[self.full]
        if self.moves is not None:
            values, owned = np.concatenate([values[a:b] for a, b in zip(*self.moves)]), True
        if self.at is None:
            return values
        out = values if owned else values.copy()
        out[self.at] = values[self.source]
        return out

    def lines(self, positions: np.ndarray) -> np.ndarray:
        """The line (in the order before) of each of ``positions`` (increasing) in rank order,
        before ties are reordered."""
        if self.full is not None:
            return self.full[positions]
        if self.moves is None:
            return positions
        first, end = (np.array(bound, dtype=np.int64) for bound in self.moves)
        ends = np.cumsum(end - first)  # where each stretch ends in rank order
        stretch = np.searchsorted(ends, positions, side="right")
        return positions + (end - ends)[stretch]


def _line_order(query: np.ndarray, score: np.ndarray) -> _Permutation:
    """The stable permutation of the lines into query ascending, score descending.

    Most run files list each query's lines together, best first, in some order of the queries
    (``q0, q1, ..., q10``: not the string order the query codes follow). Such a file is checked
    in one pass and its stretches of lines put in query order: no sort of the lines.
    """
    n = len(query)
    first = np.empty(n, dtype=bool)  # the first line of each stretch of one query
    first[:1] = True
    np.not_equal(query[1:], query[:-1], out=first[1:])
    if np.all(first[1:] | (score[1:] <= score[:-1])):  # each stretch best first
        starts = np.flatnonzero(first)
        heads = query[starts]
        if np.all(heads[1:] > heads[:-1]):
            return _Permutation()
        stretches = np.argsort(heads, kind="stable")
        if np.all(np.diff(heads[stretches]) > 0):  # no query in two stretches
            lengths = np.diff(starts, append=n)[stretches]
            if len(starts) * _SHORTEST_MOVE <= n:
                first_line = starts[stretches]
                return _Permutation(moves=(first_line.tolist(), (first_line + lengths).tolist()))
            moved = starts[stretches] - (np.cumsum(lengths) - lengths)
            return _Permutation(full=np.arange(n) + np.repeat(moved, lengths))
    return _Permutation(full=np.lexsort((-score, query)))


def _tied(query: np.ndarray, score: np.ndarray) -> np.ndarray:
    """Whether each line but the last has its next line's query and score."""
    return (query[1:] == query[:-1]) & (score[1:] == score[:-1])


def _rank_order(query: np.ndarray, score: np.ndarray, run: _Table, rows: np.ndarray | None
                ) -> tuple[_Permutation, np.ndarray, np.ndarray | None]:
    """The order (query ascending, score descending, docno descending) of the lines, the query
    of each line in that order, and its tie group (None when no two scores of a query tie).

    ``rows`` are the lines of the run table (None: all of them). Docnos are compared as strings
    only where two scores of one query tie, so a run naming a million different documents
    costs no sort of a million strings, and a run written query by query, best first, is not
    sorted at all (:func:`_line_order`).
    """
    n = len(query)
    order = _line_order(query, score)
    ranked_query = order.apply(query)  # which reordering ties, within queries, cannot change
    if order.full is None:  # stretches moved whole keep which lines tie with the next
        tied = order.apply(np.append(_tied(query, score), False))[:-1]
    else:
        tied = _tied(ranked_query, score[order.full])
    if not tied.any():
        return order, ranked_query, None
    # Tie groups are numbered down the ranking (documents of one query with equal scores).
    group = np.empty(n, dtype=np.int32 if n < 2**31 else np.int64)
    group[0] = 0
    np.cumsum(~tied, dtype=group.dtype, out=group[1:])  # not through int64 and a cast
    in_tie = np.zeros(n, dtype=bool)
    in_tie[:-1] |= tied
    in_tie[1:] |= tied
    positions = np.flatnonzero(in_tie)
    lines = order.lines(positions)
    by_name = _docno_order(run.docnos(lines if rows is None else rows[lines]))
    ranked = positions[np.lexsort((-by_name, group[positions]))]
    if order.full is not None:
        order.full[positions] = order.full[ranked]
    else:
        order.at, order.source = positions, ranked
    return order, ranked_query, group


@dataclass
class _Joined:
    """The run of the evaluated queries, ranked and joined with the judgments."""

    ranked: RankedRun
    lines: np.ndarray | None  # the run table's position of each ranked document, if needed
    grade: np.ndarray | None  # its qrels grade as written (0 when unjudged), if lines needed


@_fast_read.small_pages()
def _join(judged: _Table, run: _Table, queries: pd.Index, threshold: float, max_grade: float,
          single_precision: bool, *, lines_needed: bool = False) -> _Joined:
    """Rank the run's lines of ``queries`` and look up each document's judgment.

    ``run.judgment`` is each run line's row of ``judged`` (``rankedu.trec.load._load_pair``),
    read once the run is ranked (the link may still be under way). ``lines``, the run table's
    position of each ranked document, is computed only when ``lines_needed``.
    ``single_precision`` is a bool (checked by the caller, before the files are read).
    """
    n_queries = len(queries)
    run_query = _renumber(run, queries)
    kept = None if (run_query >= 0).all() else np.flatnonzero(run_query >= 0)
    query, score = (run_query, run.values) if kept is None else (run_query[kept],
                                                                  run.values[kept])
    if single_precision:
        score = score.astype(np.float32).astype(np.float64)
    # What the ranking and the qrels alone give first: the link is found meanwhile.
    order, query, group = _rank_order(query, score, run, kept)
    lines = None
    if lines_needed:
        lines = order.apply(np.arange(len(run_query)) if kept is None else kept)
    from_qrels = _from_qrels(judged, queries, threshold)
    rank = ranks_within(query)

    # The judgment of each retrieved document (a query the run and the qrels share): the rows
    # (found meanwhile in the background) put in rank order, the one array moved, and a grade
    # 0 (the appended one) for row -1.
    judgment = run.judgment if kept is None else run.judgment[kept]
    judgment = order.apply(judgment)
    found = judgment >= 0
    grade = np.append(judged.values, 0.0)[judgment]
    del judgment
    relevant, is_judged = found & (grade >= threshold), found & (grade >= 0)
    pooled = found if (found != is_judged).any() else None  # some negative grade
    del found
    # The grades as written only for a ranked list (they show negative grades); else in place.
    gain = np.maximum(grade, 0.0, out=None if lines_needed else grade)
    ranked = RankedRun(
        n_queries=n_queries,
        query=query,
        rank=rank,
        gain=gain,
        relevant=relevant,
        judged=is_judged,
        max_grade=max_grade,
        group=group,
        pooled=pooled,
        **from_qrels,
    )
    return _Joined(ranked, lines, grade if lines_needed else None)


def _from_qrels(judged: _Table, queries: pd.Index, threshold: float) -> dict:
    """The fields of a :class:`RankedRun` that the qrels alone give: per query of ``queries``,
    the relevant and judged non-relevant counts and the ideal ranking of the positive grades."""
    judged_query = _renumber(judged, queries)
    usable = np.flatnonzero(judged_query >= 0)
    qrels_query, qrels_grade = judged_query[usable], judged.values[usable]
    n_relevant = np.bincount(qrels_query[qrels_grade >= threshold], minlength=len(queries))
    nonrelevant = (qrels_grade >= 0) & (qrels_grade < threshold)
    n_nonrelevant = np.bincount(qrels_query[nonrelevant], minlength=len(queries))
    positive = qrels_grade > 0
    ideal = np.lexsort((-qrels_grade[positive], qrels_query[positive]))
    ideal_query = qrels_query[positive][ideal]
    return {"n_relevant": n_relevant, "n_nonrelevant": n_nonrelevant,
            "ideal_query": ideal_query, "ideal_rank": ranks_within(ideal_query),
            "ideal_gain": qrels_grade[positive][ideal]}


def _renumber(table: _Table, queries: pd.Index) -> np.ndarray:
    """Each line's index in ``queries`` (-1 for a query not evaluated); the table's own codes
    when they already are (no copy)."""
    index = queries.get_indexer(table.qids)
    if len(index) == len(queries) and (index == np.arange(len(index))).all():
        return table.qid_codes
    return index[table.qid_codes]


def _max_grade(judged: _Table, max_grade, specs) -> float:
    """ERR's g_max (4 unless given), after the checks the measures ``specs`` ask of the qrels'
    top grade. ERR reads every grade <= g_max. RBP and INST read a grade as a gain in [0, 1]
    and, as cwl-eval does, check every grade of the qrels, retrieved or not, so that whether a
    file is accepted does not depend on the run (a negative grade is gain 0, as trec_eval reads
    it, where cwl-eval refuses it)."""
    given = max_grade is not None
    max_grade = as_max_grade(max_grade) if given else float(DEFAULT_MAX_GRADE)
    if not len(judged.values):
        return max_grade
    row = int(np.argmax(judged.values))
    top = float(judged.values[row])
    if any(spec.measure.uses_max_grade for spec in specs) and top > max_grade:
        default = "" if given else " (ERR's default, gdeval's and ir_measures')"
        raise ValueError(
            f"max_grade={max_grade:g}{default} is below the largest grade in the qrels "
            f"({top:g}); pass max_grade= the top of the grading scale"
        )
    if any(spec.measure.unit_gains for spec in specs) and top > 1:
        raise ValueError(
            f"qrels: RBP and INST read a grade as a gain in [0, 1], as cwl-eval does (it checks "
            f"every grade of the qrels); query {judged.qids[judged.qid_codes[row]]!r} judges "
            f"{judged.docnos(np.array([row]))[0]!r} {top:g}: divide the grades by the top one")
    return max_grade


def _one_query(qrels, run, qid, *, threshold=1, max_grade=None, single_precision=False,
               specs=(), ties="trec_eval"):
    """One query ranked as ``evaluate`` ranks it, its ties in the ``ties`` order (one of
    "trec_eval", "optimistic", "pessimistic"), the qrels checked for the measures ``specs``:
    (its ranked-list frame, its per-list inputs, the joined arrays)."""
    threshold = as_threshold(threshold)
    one_of(ties, "ties", ("trec_eval", "optimistic", "pessimistic"))
    single_precision = as_flag(single_precision, "single_precision")
    judged, ranking = _load_pair(qrels, run)
    qid = str(qid)
    with link_errors_first(ranking):
        max_grade = _max_grade(judged, max_grade, specs)
        for table, name in ((judged, "qrels"), (ranking, "run")):
            # The two tables share one vocabulary of qids: look for the query's rows.
            if qid not in table.qids or not (table.qid_codes == table.qids.get_loc(qid)).any():
                raise ValueError(f"qid: query {qid!r} is not in the {name}")
    joined = _join(judged, ranking, pd.Index([qid]), threshold, max_grade, single_precision,
                   lines_needed=True)
    lines, grade, ranked = joined.lines, joined.grade, joined.ranked
    order = _ties.tie_order(ranked, ties)
    if order is not None:
        lines, grade = lines[order], grade[order]
        ranked = _ties.reorder(ranked, ties)
    if np.all(grade == np.round(grade)):
        grade = grade.astype(np.int64)
    frame = pd.DataFrame({
        "rank": ranked.rank,
        "docno": ranking.docnos(lines),
        "score": ranking.values[lines],
        # A negative grade is "pooled but not judged" (trec_eval), as Judged@k and Bpref read it.
        "judged": ranked.judged,
        "grade": grade,
    })
    frame["docno"] = frame["docno"].astype(str)
    pool = judged.values[judged.qid_codes == judged.qids.get_loc(qid)]
    frame.attrs["pool"] = [int(g) if g == round(g) else float(g) for g in pool.tolist()]
    lists = QueryLists(rels=ranked.gain, pool=np.maximum(pool, 0.0),
                       n_relevant=int(ranked.n_relevant[0]), threshold=threshold,
                       max_grade=max_grade, judged=ranked.judged,
                       n_nonrelevant=int(ranked.n_nonrelevant[0]), pooled=ranked.pooled)
    return frame, lists, ranked
