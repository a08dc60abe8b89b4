"""TREC run and judgment files, and ``evaluate``: every measure of a run, over every query at once.

Conventions (trec_eval's, which ``evaluate`` follows by default; each option names the trec_eval
flag it mirrors). They are exactly where evaluation tools disagree, so they are stated here:

- **Ranking.** A query's documents are ranked by score, highest first. Tied scores are broken
  by docno, *descending* in string (byte) order, as trec_eval's ``comp_sim_docno`` does; the
  rank column of the run file is ignored. Scores are read as double precision, as trec_eval 10
  reads them. pytrec_eval (0.5) stores them in single precision, so scores that differ only
  beyond float32's 7 digits tie there and are broken by docno; ``single_precision=True``
  reproduces that.
- **Relevance.** A document is relevant when its grade is ``>= threshold`` (default 1;
  trec_eval ``-l``). Documents the qrels do not judge are non-relevant with gain 0; so are
  negative grades (trec_eval's "in the pool but not judged"). The threshold applies to the
  binary measures (P, R, AP, RR, Rprec); nDCG and ERR use the grades themselves.
- **Denominators come from the qrels.** R@k, AP and Rprec divide by the number of relevant
  documents *judged* for the query, retrieved or not; AP@k too (trec_eval's ``map_cut``), not
  by min(k, R). A query without relevant documents scores 0 on them.
- **Ideal DCG** is built from every judged document of the query (grades > 0 sorted highest
  first), retrieved or not, and cut at k for ``nDCG@k``; nDCG is 0 when it is 0. Gain is the
  grade itself (linear, trec_eval's default), discount 1/log2(rank + 1).
- **ERR** (no trec_eval counterpart) maps a grade g to R(g) = (2^g - 1) / 2^max_grade, where
  ``max_grade`` defaults to the largest grade anywhere in the qrels (the top of the scale the
  assessors used), not per query.
- **Queries.** A query is evaluated when both files hold it. A query only in the run cannot be
  evaluated and is dropped; one only in the qrels is dropped too, unless ``missing="zero"``
  (trec_eval ``-c``), which scores it 0 on every measure. Either way a dropped query is
  *reported*: a :class:`QueryMismatchWarning` names it, and the result's ``attrs`` hold the
  lists ``"only_in_run"`` and ``"only_in_qrels"``.

The computation is vectorised: the run is sorted once by (query, score descending, docno
descending), and each measure family is one pass of segment sums (``np.bincount``,
``np.maximum.reduceat``, cumulative sums) over the arrays grouped by query. The per-list
functions (:func:`rankedu.average_precision`, :func:`rankedu.ndcg`, ...) give the same numbers
one list at a time; ``tests/test_trec.py`` checks that they agree, and that ``evaluate`` agrees
with trec_eval's own test suite and with pytrec_eval. The chapter "Evaluating a run"
(``book/evaluating_runs.ipynb``) shows where other tools choose differently.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from rankedu._validation import as_cutoff, as_number, one_of
from rankedu._common import satisfaction as _satisfaction
from rankedu.dcg import DISCOUNTS
from rankedu.trec_files import _load, _Table, read_qrels, read_run

__all__ = [
    "MEASURES", "QueryMismatchWarning", "evaluate", "ranked_list", "read_qrels", "read_run",
]


#: The measure names ``evaluate`` understands (ir_measures' spelling) and what each means.
MEASURES = {
    "P@k": "precision at k: relevant documents in the top k, divided by k",
    "R@k": "recall at k: relevant documents in the top k, divided by the relevant judged",
    "AP": "average precision: sum of P@rank at each relevant rank, divided by the relevant judged",
    "AP@k": "average precision over the top k, still divided by all the relevant judged",
    "RR": "reciprocal rank of the first relevant document (0 when none is retrieved)",
    "RR@k": "reciprocal rank, 0 when the first relevant document is below rank k",
    "nDCG": "DCG of the run over DCG of the ideal ranking of every judged document",
    "nDCG@k": "nDCG of the top k, ideal ranking cut at k",
    "Rprec": "precision at rank R, R the number of relevant judged documents",
    "ERR@k": "expected reciprocal rank of the top k (ERR: of the whole list)",
}

_MEASURE = re.compile(r"^(P|R|AP|RR|nDCG|ERR|Rprec)(?:@([0-9]+))?$")
_NEEDS_CUTOFF = {"P", "R"}
_NO_CUTOFF = {"Rprec"}


class QueryMismatchWarning(UserWarning):
    """The judgments and the run do not hold the same queries; some were not evaluated."""


# --------------------------------------------------------------------------------------------
# Measures.


@dataclass(frozen=True)
class _Measure:
    name: str  # as the caller wrote it, and the result's column
    family: str
    k: int | None


def _parse_measures(measures) -> list[_Measure]:
    if isinstance(measures, str):
        measures = [measures]
    if not hasattr(measures, "__iter__"):
        raise TypeError(f"measures must be a list of measure names, got {type(measures).__name__}")
    parsed, seen = [], set()
    for measure in measures:
        if not isinstance(measure, str):
            raise TypeError(f"measures must hold strings, got {measure!r}")
        match = _MEASURE.match(measure)
        if match is None:
            raise ValueError(
                f"measures: unknown measure {measure!r}; known: {', '.join(MEASURES)}"
            )
        family, k = match.group(1), match.group(2)
        if family in _NEEDS_CUTOFF and k is None:
            raise ValueError(f"measures: {family} needs a cutoff, e.g. '{family}@10'")
        if family in _NO_CUTOFF and k is not None:
            raise ValueError(f"measures: {family} takes no cutoff, got {measure!r}")
        k = None if k is None else as_cutoff(int(k), f"measures: the cutoff of {measure!r}")
        if measure not in seen:
            seen.add(measure)
            parsed.append(_Measure(measure, family, k))
    if not parsed:
        raise ValueError("measures must name at least one measure")
    return parsed


def _discount(ranks: np.ndarray) -> np.ndarray:
    """1 / log2(rank + 1), looked up in a table rather than taking a logarithm per document."""
    if not len(ranks):
        return np.zeros(0)
    _, divisor = DISCOUNTS["log2"]
    table = 1.0 / divisor(np.arange(1, int(ranks.max()) + 1, dtype=float))
    return table[ranks - 1]


@dataclass
class _Ranked:
    """The run, sorted and joined with the judgments: one entry per retrieved document."""

    query: np.ndarray  # query index (0..n_queries-1), non-decreasing
    rank: np.ndarray  # 1-based rank within the query
    grade: np.ndarray  # the judged grade, 0 when unjudged
    relevant: np.ndarray  # grade >= threshold, judged
    n_queries: int
    starts: np.ndarray  # first position of each query that has documents
    present: np.ndarray  # the query index of each of those segments


def _rank_order(query: np.ndarray, score: np.ndarray, doc_codes: np.ndarray, docnos: pd.Index):
    """Positions sorted by (query ascending, score descending, docno descending)."""
    n = len(query)
    same_query = query[1:] == query[:-1]
    in_order = bool(np.all(query[1:] >= query[:-1])) and bool(
        np.all(~same_query | (score[1:] <= score[:-1]))
    )
    if in_order:  # most run files are already written query by query, best first
        order = np.arange(n)
    else:
        # One integer key: the query, then the score's position among all scores (descending).
        score_rank = np.empty(n, dtype=np.int64)
        score_rank[np.argsort(-score, kind="stable")] = np.arange(n)
        order = np.argsort(query * n + score_rank, kind="stable")
    q, s = query[order], score[order]
    tied = (q[1:] == q[:-1]) & (s[1:] == s[:-1])
    if tied.any():
        # Break ties by docno, descending, touching only the tied positions.
        in_tie = np.zeros(n, dtype=bool)
        in_tie[:-1] |= tied
        in_tie[1:] |= tied
        positions = np.flatnonzero(in_tie)
        group = np.cumsum(np.r_[True, ~tied[positions[:-1]]])
        codes = doc_codes[order[positions]]
        if docnos.is_monotonic_increasing:
            doc_rank = codes
        else:
            names = np.asarray(docnos.take(codes), dtype=object)
            doc_rank = np.unique(names, return_inverse=True)[1]
        order[positions] = order[positions][np.lexsort((-doc_rank, group))]
    return order


def _join(judged: _Table, run: _Table, queries: pd.Index, threshold: float, single: bool):
    n_queries = len(queries)
    run_query = queries.get_indexer(run.qids)[run.qid_codes]
    keep = run_query >= 0
    run_query, doc_codes = run_query[keep], run.doc_codes[keep]
    score = run.values[keep]
    if single:
        score = score.astype(np.float32).astype(np.float64)
    order = _rank_order(run_query, score, doc_codes, run.docnos)
    query, doc_codes = run_query[order], doc_codes[order]

    # Grade of every retrieved document: look its (query, docno) up among the judgments,
    # after ranking, so that consecutive look-ups fall in the same query's judgments.
    n_docs = max(len(run.docnos), 1)
    judged_query = queries.get_indexer(judged.qids)[judged.qid_codes]
    judged_doc = run.docnos.get_indexer(judged.docnos)[judged.doc_codes]
    usable = (judged_query >= 0) & (judged_doc >= 0)
    judged_key = judged_query[usable] * n_docs + judged_doc[usable]
    by_key = np.argsort(judged_key)
    judged_key, judged_grade = judged_key[by_key], judged.values[usable][by_key]
    run_key = query * n_docs + doc_codes
    if len(judged_key):
        where = np.minimum(np.searchsorted(judged_key, run_key), len(judged_key) - 1)
        found = judged_key[where] == run_key
        grade = np.where(found, judged_grade[where], 0.0)
    else:
        found, grade = np.zeros(len(run_key), dtype=bool), np.zeros(len(run_key))

    counts = np.bincount(query, minlength=n_queries)
    first = np.cumsum(counts) - counts
    rank = np.arange(len(query)) - np.repeat(first, counts) + 1
    present = np.flatnonzero(counts)
    return _Ranked(
        query=query,
        rank=rank,
        grade=np.maximum(grade, 0.0),
        relevant=found & (grade >= threshold),
        n_queries=n_queries,
        starts=first[present],
        present=present,
    )


def _per_query_judgments(judged: _Table, queries: pd.Index, threshold: float):
    """Relevant count and the ideal ranking (positive grades, highest first) of each query."""
    query = queries.get_indexer(judged.qids)[judged.qid_codes]
    keep = query >= 0
    query, grade = query[keep], judged.values[keep]
    n_relevant = np.bincount(query, weights=grade >= threshold, minlength=len(queries))
    positive = grade > 0
    query, grade = query[positive], grade[positive]
    order = np.lexsort((-grade, query))
    query, grade = query[order], grade[order]
    counts = np.bincount(query, minlength=len(queries))
    first = np.cumsum(counts) - counts
    rank = np.arange(len(query)) - np.repeat(first, counts) + 1
    return n_relevant, (query, rank, grade)


def _sum_by_query(ranked: _Ranked, values: np.ndarray, k: int | None) -> np.ndarray:
    """Sum of ``values`` over the top k of each query (a segment sum)."""
    if k is not None:
        top = ranked.rank <= k
        return np.bincount(ranked.query[top], weights=values[top], minlength=ranked.n_queries)
    return np.bincount(ranked.query, weights=values, minlength=ranked.n_queries)


def _safe_divide(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    out = np.zeros_like(numerator, dtype=float)
    np.divide(numerator, denominator, out=out, where=denominator > 0)
    return out


def _err(ranked: _Ranked, k: int | None, max_grade: float) -> np.ndarray:
    """ERR: the stopping probabilities need a product down each list, so lay the lists out as
    rows of a (queries x depth) matrix and take it along the rows."""
    depth = int(ranked.rank.max()) if len(ranked.rank) else 0
    if k is not None:
        depth = min(depth, k)
    top = ranked.rank <= depth
    satisfied = np.zeros((ranked.n_queries, depth))
    satisfied[ranked.query[top], ranked.rank[top] - 1] = _satisfaction(ranked.grade[top], max_grade)
    reach = np.cumprod(1.0 - satisfied, axis=1)
    reach = np.hstack([np.ones((ranked.n_queries, 1)), reach[:, :-1]])
    return (reach * satisfied / np.arange(1, depth + 1)).sum(axis=1)


def _compute(measure: _Measure, ranked: _Ranked, n_relevant, ideal, max_grade) -> np.ndarray:
    k = measure.k
    relevant = ranked.relevant.astype(float)
    if measure.family == "P":
        return _sum_by_query(ranked, relevant, k) / k
    if measure.family == "R":
        return _safe_divide(_sum_by_query(ranked, relevant, k), n_relevant)
    if measure.family == "Rprec":
        within = ranked.rank <= n_relevant[ranked.query]
        hits = np.bincount(ranked.query, weights=relevant * within, minlength=ranked.n_queries)
        return _safe_divide(hits, n_relevant)
    if measure.family == "AP":
        cumulative = np.cumsum(relevant)
        before = np.repeat(cumulative[ranked.starts] - relevant[ranked.starts],
                           np.diff(np.r_[ranked.starts, len(relevant)]))
        precision = (cumulative - before) / ranked.rank
        return _safe_divide(_sum_by_query(ranked, relevant * precision, k), n_relevant)
    if measure.family == "RR":
        reciprocal = relevant / ranked.rank
        if k is not None:
            reciprocal = reciprocal * (ranked.rank <= k)
        out = np.zeros(ranked.n_queries)
        if len(reciprocal):
            out[ranked.present] = np.maximum.reduceat(reciprocal, ranked.starts)
        return out
    if measure.family == "nDCG":
        dcg = _sum_by_query(ranked, ranked.grade * _discount(ranked.rank), k)
        query, rank, grade = ideal
        top = slice(None) if k is None else rank <= k
        idcg = np.bincount(query[top], weights=(grade * _discount(rank))[top],
                           minlength=ranked.n_queries)
        return _safe_divide(dcg, idcg)
    if measure.family == "ERR":
        return _err(ranked, k, max_grade)
    raise AssertionError(measure)  # _parse_measures lets no other family through


def evaluate(qrels, run, measures, *, threshold=1, missing="skip", max_grade=None,
             single_precision=False) -> pd.DataFrame:
    """Evaluate a run against judgments: every measure, for every query, at once.

    Follows trec_eval's conventions (see the module docstring): rank by score descending, ties
    by docno descending; relevant means grade >= ``threshold``; R@k, AP and Rprec divide by the
    relevant documents in the qrels; the ideal DCG ranks every judged document; negative grades
    count as non-relevant with gain 0.

    Parameters
    ----------
    qrels : path, pandas.DataFrame or dict
        The judgments: a qrels file, a frame with columns ``qid``, ``docno``, ``rel`` (as
        :func:`read_qrels` returns), or ``{qid: {docno: grade}}`` as pytrec_eval takes it.
    run : path, pandas.DataFrame or dict
        The ranking: a run file, a frame with columns ``qid``, ``docno``, ``score`` (as
        :func:`read_run` returns), or ``{qid: {docno: score}}``.
    measures : list of str
        Names as in ir_measures: ``P@k``, ``R@k``, ``AP``, ``AP@k``, ``RR``, ``RR@k``,
        ``nDCG``, ``nDCG@k``, ``Rprec``, ``ERR@k`` (and ``ERR`` for the whole list).
    threshold : float, default 1
        A document is relevant when its grade is >= threshold (trec_eval ``-l``); must be > 0,
        so that an unjudged document is never relevant.
    missing : {"skip", "zero"}, default "skip"
        What to do with a query of the qrels that the run does not hold: leave it out
        (trec_eval's default) or score it 0 on every measure (trec_eval ``-c``).
    max_grade : float, optional
        ERR's top grade; defaults to the largest grade in the qrels.
    single_precision : bool, default False
        Round scores to float32 before ranking, as pytrec_eval stores them (near-ties then tie).

    Returns
    -------
    pandas.DataFrame
        Indexed by query id (``qid``, sorted as strings, as trec_eval sorts them), one float
        column per measure, named as given. ``attrs["only_in_run"]`` and
        ``attrs["only_in_qrels"]`` list the queries held by one input only; a
        :class:`QueryMismatchWarning` names those that were not evaluated.

    Raises
    ------
    ValueError
        On an unknown measure, a malformed line (naming the file and line), a document listed
        twice for one query, a bad option, or a grade above ``max_grade``.

    Notes
    -----
    The chapter :doc:`/book/evaluating_runs` explains it.

    Examples
    --------
    >>> import rankedu as rk
    >>> qrels = {"q1": {"d1": 2, "d2": 0, "d3": 1}}
    >>> run = {"q1": {"d1": 0.5, "d2": 0.9, "d4": 0.1}}
    >>> rk.evaluate(qrels, run, ["P@2", "AP", "RR", "nDCG"]).round(4)
         P@2    AP   RR    nDCG
    qid
    q1   0.5  0.25  0.5  0.4796
    """
    specs = _parse_measures(measures)
    threshold = as_number(threshold, "threshold")
    if threshold <= 0:
        raise ValueError(f"threshold must be > 0, got {threshold:g}")
    one_of(missing, "missing", ("skip", "zero"))
    judged = _load(qrels, "qrels", "qrels")
    ranking = _load(run, "run", "run")

    judged_qids = judged.qids[np.bincount(judged.qid_codes, minlength=len(judged.qids)) > 0]
    run_qids = ranking.qids[np.bincount(ranking.qid_codes, minlength=len(ranking.qids)) > 0]
    only_in_run = run_qids.difference(judged_qids, sort=True).tolist()
    only_in_qrels = judged_qids.difference(run_qids, sort=True).tolist()
    if missing == "zero":
        queries, dropped_qrels = judged_qids, []
    else:
        queries, dropped_qrels = judged_qids.intersection(run_qids), only_in_qrels
    queries = queries.sort_values()
    _warn_dropped(only_in_run, dropped_qrels)

    grades = judged.values
    top_grade = float(grades.max()) if len(grades) else 0.0
    if any(m.family == "ERR" for m in specs):
        if max_grade is None:
            max_grade = max(top_grade, 0.0)
        else:
            max_grade = as_number(max_grade, "max_grade")
            if top_grade > max_grade:
                raise ValueError(
                    f"max_grade={max_grade:g} is below the largest grade in the qrels "
                    f"({top_grade:g}); it must be the top of the grading scale"
                )

    ranked = _join(judged, ranking, queries, threshold, single_precision)
    n_relevant, ideal = _per_query_judgments(judged, queries, threshold)
    result = pd.DataFrame(
        {m.name: _compute(m, ranked, n_relevant, ideal, max_grade) for m in specs},
        index=pd.Index(queries, name="qid", dtype=str),
    )
    result.attrs["only_in_run"] = only_in_run
    result.attrs["only_in_qrels"] = only_in_qrels
    return result


def ranked_list(qrels, run, qid, *, single_precision=False) -> pd.DataFrame:
    """One query's ranking as ``evaluate`` sees it, with the judgment of each document.

    The documents are ranked exactly as :func:`evaluate` ranks them (score descending, ties by
    docno descending), so ``ranked_list(...)["grade"].clip(lower=0)`` is the ``rels`` the
    per-list functions (:func:`rankedu.ndcg`, ``rk.explain.ndcg``, ...) take for this query.

    Parameters
    ----------
    qrels, run : path, pandas.DataFrame or dict
        As for :func:`evaluate`.
    qid : str
        The query.
    single_precision : bool, default False
        Round scores to float32 first, as pytrec_eval does.

    Returns
    -------
    pandas.DataFrame
        Columns ``rank`` (from 1), ``docno``, ``score``, ``judged`` (bool) and ``grade`` (the
        qrels grade, 0 when not judged), one row per retrieved document, best first.
        ``attrs["pool"]`` holds the grades of every judged document of the query.

    Notes
    -----
    The chapter :doc:`/book/evaluating_runs` explains it.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.ranked_list({"q": {"d9": 1}}, {"q": {"d10": 1.0, "d9": 1.0, "d1": 2.0}}, "q")
       rank docno  score  judged  grade
    0     1    d1    2.0   False      0
    1     2    d9    1.0    True      1
    2     3   d10    1.0   False      0
    """
    judged = _load(qrels, "qrels", "qrels")
    ranking = _load(run, "run", "run")
    qid = str(qid)
    for table, name in ((judged, "qrels"), (ranking, "run")):
        if qid not in table.qids:
            raise ValueError(f"qid: query {qid!r} is not in the {name}")
    mine = ranking.qid_codes == ranking.qids.get_loc(qid)
    doc_codes, score = ranking.doc_codes[mine], ranking.values[mine]
    if single_precision:
        score = score.astype(np.float32).astype(np.float64)
    order = _rank_order(np.zeros(len(score), dtype=np.int64), score, doc_codes, ranking.docnos)
    docnos = ranking.docnos.take(doc_codes[order])
    in_qrels = judged.qid_codes == judged.qids.get_loc(qid)
    grades = pd.Series(judged.values[in_qrels], index=judged.docnos.take(judged.doc_codes[in_qrels]))
    found = docnos.isin(grades.index)
    grade = grades.reindex(docnos).fillna(0.0).to_numpy()
    if np.all(grade == np.round(grade)):
        grade = grade.astype(np.int64)
    frame = pd.DataFrame({
        "rank": np.arange(1, len(order) + 1),
        "docno": np.asarray(docnos, dtype=object),
        "score": score[order],
        "judged": found,
        "grade": grade,
    })
    frame["docno"] = frame["docno"].astype(str)
    frame.attrs["pool"] = grades.to_numpy().tolist()
    return frame


def _warn_dropped(only_in_run: list, only_in_qrels: list) -> None:
    def some(qids):
        shown = ", ".join(map(repr, qids[:5]))
        return shown + (f" and {len(qids) - 5} more" if len(qids) > 5 else "")

    def count(qids, one, many):
        return f"{len(qids)} {one if len(qids) == 1 else many}"

    if only_in_run:
        warnings.warn(
            f"{count(only_in_run, 'query of the run has', 'queries of the run have')} no "
            f"judgments and {'was' if len(only_in_run) == 1 else 'were'} not evaluated: "
            f"{some(only_in_run)}",
            QueryMismatchWarning,
            stacklevel=3,
        )
    if only_in_qrels:
        warnings.warn(
            f"{count(only_in_qrels, 'judged query is', 'judged queries are')} missing from "
            f"the run and {'was' if len(only_in_qrels) == 1 else 'were'} not evaluated "
            f"(missing='zero' scores them 0, as trec_eval -c does): "
            f"{some(only_in_qrels)}",
            QueryMismatchWarning,
            stacklevel=3,
        )
