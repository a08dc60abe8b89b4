"""Ranking a run and joining it with its judgments: the flat arrays :func:`rankedu.evaluate` reads.

The run's lines of the evaluated queries are put in rank order (query ascending, score
descending, docno descending, docnos compared only among tied scores, as trec_eval's
``comp_sim_docno`` does), each ranked document is looked up in the qrels, and the result is a
:class:`rankedu._ranked.RankedRun` with each query's relevant count and ideal ranking. The
conventions (negative grades, the threshold, the ideal DCG) are stated in :mod:`rankedu.trec`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from rankedu import ties as _ties
from rankedu._ranked import RankedRun, ranks_within
from rankedu._trec_load import _docno_order, _load_pair, _Table
from rankedu._validation import as_number, as_threshold, one_of
from rankedu.measures import QueryLists

#: ERR's top grade unless ``max_grade`` is given: gdeval's and ir_measures' default.
DEFAULT_MAX_GRADE = 4


@dataclass
class _Permutation:
    """How the run's lines are reordered into rank order: a whole gather (``full``), or for a
    run already in order but for tied scores, only the tied positions (``new[at] = old[source]``,
    within single queries); neither when nothing moves."""

    full: np.ndarray | None = None
    at: np.ndarray | None = None
    source: np.ndarray | None = None

    def apply(self, values: np.ndarray, *, within_queries: bool = False) -> np.ndarray:
        """``values`` in rank order (``within_queries``: values equal throughout each query, as
        the query index is, which a patch of ties never changes)."""
        if self.full is not None:
            return values[self.full]
        if self.at is None or within_queries:
            return values
        out = values.copy()
        out[self.at] = values[self.source]
        return out


def _rank_order(query: np.ndarray, score: np.ndarray, doc_codes: np.ndarray,
                docnos: pd.Index) -> _Permutation:
    """The order (query ascending, score descending, docno descending) of the lines.

    Docnos are compared as strings only where two scores of one query tie, so a run naming a
    million different documents costs no sort of a million strings. A run written query by
    query, best first (as most are) is checked in one pass and not sorted at all.
    """
    n = len(query)
    same_query = query[1:] == query[:-1]
    in_order = bool(np.all(query[1:] >= query[:-1])) and bool(
        np.all(~same_query | (score[1:] <= score[:-1]))
    )
    if in_order:  # most run files are already written query by query, best first
        order, q, s = None, query, score
    else:
        order = np.lexsort((-score, query))
        q, s = query[order], score[order]
    tied = (q[1:] == q[:-1]) & (s[1:] == s[:-1])
    if not tied.any():
        return _Permutation(full=order)
    in_tie = np.zeros(n, dtype=bool)
    in_tie[:-1] |= tied
    in_tie[1:] |= tied
    positions = np.flatnonzero(in_tie)
    group = np.cumsum(np.r_[True, ~tied[positions[:-1]]])
    lines = positions if order is None else order[positions]
    by_name = _docno_order(docnos, doc_codes[lines])
    lines = lines[np.lexsort((-by_name, group))]
    if order is None:
        return _Permutation(at=positions, source=lines)
    order[positions] = lines
    return _Permutation(full=order)


@dataclass
class _Joined:
    """The run of the evaluated queries, ranked and joined with the judgments."""

    ranked: RankedRun
    lines: np.ndarray | None  # the run table's position of each ranked document, if needed
    grade: np.ndarray  # its qrels grade as written (0 when unjudged)


def _join(judged: _Table, run: _Table, queries: pd.Index, threshold: float, max_grade: float,
          single_precision: bool, *, lines_needed: bool = False) -> _Joined:
    """Rank the run's lines of ``queries`` and look up each document's judgment.

    ``judged`` and ``run`` share one vocabulary of docnos (``_trec_load._load_pair``): a
    retrieved document is a judged one exactly when their codes are equal. ``lines``, the run
    table's position of each ranked document, is computed only when ``lines_needed``.
    """
    n_queries = len(queries)
    run_query = queries.get_indexer(run.qids)[run.qid_codes]
    kept = None if (run_query >= 0).all() else np.flatnonzero(run_query >= 0)
    if kept is None:
        query, docs, score = run_query, run.doc_codes, run.values
    else:
        query, docs, score = run_query[kept], run.doc_codes[kept], run.values[kept]
    if single_precision:
        score = score.astype(np.float32).astype(np.float64)
    order = _rank_order(query, score, docs, run.docnos)
    query, docs = order.apply(query, within_queries=True), order.apply(docs)
    group = _ties.tie_groups(query, order.apply(score))
    lines = None
    if lines_needed:
        lines = order.apply(np.arange(len(run_query)) if kept is None else kept)

    # The judgment of each retrieved document: only documents some query judges (few, in a
    # real run) are looked up, by the integer key (query, docno code).
    judged_query = queries.get_indexer(judged.qids)[judged.qid_codes]
    width = max(len(run.docnos), 1)
    usable = np.flatnonzero(judged_query >= 0)
    key = judged_query[usable] * width + judged.doc_codes[usable]
    by_key = np.argsort(key)
    key, key_grade = key[by_key], judged.values[usable][by_key]
    ever_judged = np.zeros(width, dtype=bool)
    ever_judged[judged.doc_codes[usable]] = True
    candidate = np.flatnonzero(ever_judged[docs])
    grade, found = np.zeros(len(query)), np.zeros(len(query), dtype=bool)
    if len(key) and len(candidate):
        wanted = query[candidate] * width + docs[candidate]
        at = np.minimum(np.searchsorted(key, wanted), len(key) - 1)
        hit = key[at] == wanted
        found[candidate[hit]] = True
        grade[candidate[hit]] = key_grade[at[hit]]

    # Per query, from the qrels: the relevant count and the ideal ranking of the positive grades.
    qrels_query, qrels_grade = judged_query[usable], judged.values[usable]
    n_relevant = np.bincount(qrels_query[qrels_grade >= threshold], minlength=n_queries)
    nonrelevant = (qrels_grade >= 0) & (qrels_grade < threshold)
    n_nonrelevant = np.bincount(qrels_query[nonrelevant], minlength=n_queries)
    positive = qrels_grade > 0
    ideal = np.lexsort((-qrels_grade[positive], qrels_query[positive]))
    ideal_query = qrels_query[positive][ideal]
    ranked = RankedRun(
        n_queries=n_queries,
        query=query,
        rank=ranks_within(query, n_queries),
        gain=np.maximum(grade, 0.0),
        relevant=found & (grade >= threshold),
        judged=found & (grade >= 0),
        n_relevant=n_relevant,
        n_nonrelevant=n_nonrelevant,
        ideal_query=ideal_query,
        ideal_rank=ranks_within(ideal_query, n_queries),
        ideal_gain=qrels_grade[positive][ideal],
        max_grade=max_grade,
        group=group,
    )
    return _Joined(ranked, lines, grade)


def _max_grade(judged: _Table, max_grade, needed: bool) -> float:
    """ERR's g_max: 4 unless given; a qrels grade above it is an error when a measure needs it."""
    given = max_grade is not None
    max_grade = as_number(max_grade, "max_grade") if given else float(DEFAULT_MAX_GRADE)
    if max_grade < 0:
        raise ValueError(f"max_grade must be >= 0, got {max_grade:g}")
    top = float(judged.values.max()) if len(judged.values) else 0.0
    if needed and top > max_grade:
        default = "" if given else " (ERR's default, gdeval's and ir_measures')"
        raise ValueError(
            f"max_grade={max_grade:g}{default} is below the largest grade in the qrels "
            f"({top:g}); pass max_grade= the top of the grading scale"
        )
    return max_grade


def _one_query(qrels, run, qid, *, threshold=1, max_grade=None, single_precision=False,
               max_grade_needed=False, ties="trec_eval"):
    """One query ranked as ``evaluate`` ranks it, its ties in the ``ties`` order (one of
    "trec_eval", "optimistic", "pessimistic"): (its ranked-list frame, its per-list inputs, the
    joined arrays)."""
    threshold = as_threshold(threshold)
    one_of(ties, "ties", ("trec_eval", "optimistic", "pessimistic"))
    judged, ranking = _load_pair(qrels, run)
    max_grade = _max_grade(judged, max_grade, max_grade_needed)
    qid = str(qid)
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
        "docno": np.asarray(ranking.docnos.take(ranking.doc_codes[lines]), dtype=object),
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
                       n_nonrelevant=int(ranked.n_nonrelevant[0]))
    return frame, lists, ranked
