"""``evaluate``: every measure of a TREC run, over every query at once.

Conventions (trec_eval's, which ``evaluate`` follows by default; each option names the trec_eval
flag it mirrors). They are exactly where evaluation tools disagree, so they are stated here:

- **Ranking.** A query's documents are ranked by score, highest first. Tied scores are broken
  by docno, *descending* in string (byte) order, as trec_eval's ``comp_sim_docno`` does; the
  rank column of the run file is ignored, and so is the order of the lines. Scores are read as
  double precision, as trec_eval 10 reads them. pytrec_eval (0.5) stores them in single
  precision, so scores that differ only beyond float32's 7 digits tie there and are broken by
  docno; ``single_precision=True`` reproduces that.
  ``ties=`` makes the order of tied documents a choice (``rankedu.trec.ties``): trec_eval's,
  the optimistic or the pessimistic order, or the exact mean over every order; a
  ``rk.TieWarning`` says when trec_eval's docno order decides a value.
- **Relevance.** A document is relevant when its grade is ``>= threshold`` (default 1;
  trec_eval ``-l``). Documents the qrels do not judge are non-relevant with gain 0. Negative
  grades are non-relevant with gain 0 too, and stay out of the ideal ranking: trec_eval reads a
  negative grade as "pooled but not judged" (``form_res_rels.c``), which only its bpref, the
  condensed lists (``-J``) and Judged@k tell apart from a 0: they treat it as unjudged. (The
  per-list functions take a negative grade at face value:
  ``rk.ndcg([1, 1, 1, -1], 4, pool=[1, 1, 1])`` is 0.7979, where ``evaluate`` gives 1.0.) The
  threshold applies to the binary measures (P, R, AP, RR, Rprec); nDCG and ERR use the grades.
- **Denominators come from the qrels.** R@k, AP and Rprec divide by the number of relevant
  documents *judged* for the query, retrieved or not; AP@k too (trec_eval's ``map_cut``), not
  by min(k, R). A query without relevant documents scores 0 on them.
- **Ideal DCG** is built from every judged document of the query (grades > 0 sorted highest
  first), retrieved or not, and cut at k for ``nDCG@k``; nDCG is 0 when it is 0. Gain is the
  grade itself (linear, trec_eval's default), discount 1/log2(rank + 1).
- **ERR** (no trec_eval counterpart) maps a grade g to R(g) = (2^g - 1) / 2^max_grade with
  ``max_grade`` = 4 unless told otherwise, as gdeval (the TREC Web track's script) and
  ir_measures do: a property of the grading scale, so that one query's ERR does not change
  when another query is judged. A qrels grade above ``max_grade`` is an error.
- **RBP and INST** (cwl-eval's, no trec_eval counterpart in these forms) read a grade as a gain
  in [0, 1]: a qrels grade above 1 is an error, whichever documents the run retrieves, as
  cwl-eval 1.0.12 checks every gain of the qrels; a negative grade is gain 0, as everywhere
  here (cwl-eval refuses it). Each list is read to ``depth`` ranks (1000), as cwl-eval reads it.
- **Queries.** A query is evaluated when both inputs hold it. A query only in the run cannot
  be evaluated and is dropped (trec_eval drops it silently). A judged query that the run lacks
  is where trec_eval's versions part: trec_eval 9.x leaves it out, and trec_eval 10.0's help
  text still says so, but trec_eval 10.0 itself stops with exit status 4 (and the message
  "result qid ... not found in qrels"). ``missing="skip"`` (the default) leaves it out as
  trec_eval 9.x does, ``missing="error"`` stops as trec_eval 10.0 does, and ``missing="zero"``
  (trec_eval ``-c``, both versions) scores it 0 on every measure. A dropped query is
  *reported*: a :class:`QueryMismatchWarning` names it, and the result's ``attrs`` hold the
  lists ``"only_in_run"`` and ``"only_in_qrels"``. When no query of the run is judged (or the
  run is empty) nothing can be evaluated, and that is an error, as it is in trec_eval.

The run is ranked once, by (query, score descending, docno descending), where docnos are
compared only among tied scores; every measure of :data:`rankedu.trec.measures.MEASURES` then
computes all queries at once with its kernel on the flat arrays (``rankedu.core.ranked``); the
ranking and the join with the judgments are in ``rankedu.trec.join``. The
per-list functions (:func:`rankedu.metrics.average_precision`, :func:`rankedu.ndcg`, ...) give the
same numbers one list at a time; ``tests/test_evaluate.py`` checks that they agree, and that
``evaluate`` agrees with trec_eval's own test suite and with pytrec_eval. The chapter
"Evaluating a run" (``book/evaluating_runs.ipynb``) shows where other tools choose otherwise.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import NamedTuple

import numpy as np
import pandas as pd

from rankedu.trec import fast_read as _fast_read
from rankedu.trec import ties as _ties
# DEFAULT_MAX_GRADE stays trec.DEFAULT_MAX_GRADE too (the command's help prints it).
from rankedu.core.ranked import RankedRun
from rankedu.core.validation import as_cutoff, as_flag, as_threshold, one_of
from rankedu.core.warn import warn_at_caller
from rankedu.trec.diversity import (
    evaluate_diversity,
    names_diversity,
    refuse_conventions,
    refuse_options,
)
from rankedu.trec.files import read_judgment_groups, read_preferences, read_qrels, read_run
from rankedu.trec.join import DEFAULT_MAX_GRADE, _join, _max_grade, _one_query
from rankedu.trec.load import _load_pair, _Table, link_errors_first
from rankedu.trec.measures import parse

__all__ = ["QueryMismatchWarning", "TieInterval", "evaluate", "ranked_list",
           "read_judgment_groups", "read_preferences", "read_qrels", "read_run", "summary",
           "tie_interval"]


#: What ``evaluate`` does with a judged query the run lacks: trec_eval 9.x's way, ``-c``'s,
#: trec_eval 10.0's.
MISSING = ("skip", "zero", "error")


class QueryMismatchWarning(UserWarning):
    """The judgments and the run do not hold the same queries; some were not evaluated."""


def _queries(judged: _Table, run: _Table, missing: str):
    """The queries to evaluate, sorted as strings, and those held by one input only."""
    judged_qids, run_qids = _held(judged), _held(run)
    only_in_run = run_qids.difference(judged_qids, sort=True).tolist()
    only_in_qrels = judged_qids.difference(run_qids, sort=True).tolist()
    common = judged_qids.intersection(run_qids)
    if not len(common):
        what = "the run is empty" if not len(run_qids) else (
            "the qrels are empty" if not len(judged_qids) else
            f"none of the run's {len(run_qids)} queries is in the qrels "
            f"({len(judged_qids)} queries), e.g. {run_qids[0]!r}")
        raise ValueError(f"run: nothing was evaluated: {what}")
    if missing == "error" and only_in_qrels:
        raise ValueError(
            f"missing: {_count(only_in_qrels, 'judged query is', 'judged queries are')} "
            f"missing from the run: {_some(only_in_qrels)}; missing='error' stops here as "
            f"trec_eval 10.0 does (exit status 4); 'skip' leaves them out as trec_eval 9.x "
            f"does, 'zero' scores them 0 (trec_eval -c)")
    queries = judged_qids if missing == "zero" else common
    return queries.sort_values(), only_in_run, only_in_qrels


def _held(table: _Table) -> pd.Index:
    """The query ids that some line of ``table`` holds (the vocabulary is shared)."""
    held = np.zeros(len(table.qids), dtype=bool)
    held[table.qid_codes] = True
    return table.qids[held]


def evaluate(qrels, run, measures, *, threshold=1, missing="skip", max_grade=None,
             single_precision=False, ties="trec_eval", max_docs=None,
             conventions=None) -> pd.DataFrame:
    """Evaluate a run against judgments: every measure, for every query, at once.

    Follows trec_eval's conventions (see the module docstring): rank by score descending, ties
    by docno descending; relevant means grade >= ``threshold``; R@k, AP and Rprec divide by the
    relevant documents in the qrels; the ideal DCG ranks every judged document; negative grades
    count as non-relevant with gain 0 (trec_eval reads them as "pooled but not judged"); ERR's
    top grade is 4 unless ``max_grade`` says otherwise.

    Parameters
    ----------
    qrels : path, pandas.DataFrame or dict
        The judgments: a qrels file, a frame with columns ``qid``, ``docno``, ``rel`` (as
        :func:`read_qrels` returns), or ``{qid: {docno: grade}}`` as pytrec_eval takes it.
    run : path, pandas.DataFrame or dict
        The ranking: a run file, a frame with columns ``qid``, ``docno``, ``score`` (as
        :func:`read_run` returns), or ``{qid: {docno: score}}``.
    measures : list of str
        Names as in ir_measures (``P@10``, ``AP``, ``nDCG@10``, ``RBP(p=0.5)``...), one per
        declaration of :data:`rankedu.trec.measures.MEASURES`, which the API page and
        ``rankedu evaluate --help`` list in full with their descriptions; ``NAME(judged_only=True)``
        is a condensed list (trec_eval ``-J``) for the measures that declare it. The
        diversity measures ``alpha_nDCG@k``, ``ERR_IA@k``, ``NRBP``, ``P_IA@k`` and
        ``StRecall@k`` (declared in :data:`rankedu.trec.diversity.MEASURES`) take subtopic
        qrels (``qid subtopic docno rel``) instead and are computed as
        :func:`rankedu.evaluate_diversity` computes them, with the ``conventions`` chosen;
        they cannot be mixed with the other measures in one call, and of the options below
        they take ``threshold`` (a subtopic grade ``>= threshold`` is relevant) and
        ``conventions``.
    threshold : float, default 1
        A document is relevant when its grade is >= threshold (trec_eval ``-l``); must be > 0,
        so that an unjudged document is never relevant.
    missing : {"skip", "zero", "error"}, default "skip"
        What to do with a query of the qrels that the run does not hold: leave it out, with a
        warning (as trec_eval 9.x does and trec_eval 10.0's help text says), score it 0 on
        every measure (trec_eval ``-c``), or raise a ValueError (as trec_eval 10.0 does: it
        exits with status 4).
    max_grade : float, optional
        ERR's top grade g_max; 4 (gdeval's and ir_measures' default) when not given. With an
        ERR measure, a qrels grade above it is an error.
    single_precision : bool, default False
        Round scores to float32 before ranking, as pytrec_eval stores them (near-ties then tie).
    ties : {"trec_eval", "average", "optimistic", "pessimistic"}, default "trec_eval"
        How documents of one query with equal scores are ordered (``rankedu.trec.ties``):
        ``"trec_eval"`` by docno descending; ``"optimistic"`` highest grade first (judged
        before unjudged among equal grades), ``"pessimistic"`` lowest grade first (unjudged
        first), each then by docno descending; ``"average"`` the exact mean over every order of
        the tied documents (McSherry and Najork, 2008), for the measures whose declaration has
        an ``average`` (the others raise a ValueError naming those that do). RBP and INST are
        ranked like every measure, by score and then ``ties`` (cwl-eval reads the file's order
        instead).
    max_docs : int >= 1, optional
        Evaluate only each query's first ``max_docs`` documents in trec_eval's ranking (score
        descending, ties by docno descending), as trec_eval ``-M`` does; the rest are dropped
        before any measure (or ``ties``' reordering) sees the list. None: every document.
    conventions : {"ndeval", "textbook"}, optional
        For the diversity measures only (a ValueError naming ``conventions`` otherwise): those
        of ndeval v4.5, what pyndeval 0.0.8 and ir_measures 0.4.3 compute (None, the default,
        means these), or the papers' (``"textbook"``). They differ in the order of tied
        scores (docno ascending or descending), the largest cutoff (20 or any) and ERR-IA's
        normalisation (ndeval divides by an "ideal ideal"); :mod:`rankedu.trec.diversity`
        lists them.

    Returns
    -------
    pandas.DataFrame
        Indexed by query id (``qid``, sorted as strings, as trec_eval sorts them), one float
        column per measure, named as given. ``attrs["only_in_run"]`` and
        ``attrs["only_in_qrels"]`` list the queries held by one input only, and
        ``attrs["positive_grades"]`` counts the qrels' grades above 0; a
        :class:`QueryMismatchWarning` names those that were not evaluated. With
        ``ties="trec_eval"``, a ``rk.TieWarning`` says when some query's value of
        some measure differs between the optimistic and the pessimistic orders of its ties
        (``rk.tie_interval`` gives both); it costs a pass over the run, and the two orders are
        computed only for the queries whose tie groups mix grades.

    Raises
    ------
    ValueError
        On an unknown measure, a malformed line (naming the file and line), a document listed
        twice for one query, a bad option (``ties`` included), a grade above ``max_grade`` (with
        ERR), a measure without an exact mean under ``ties="average"``, or when nothing can be
        evaluated (an empty run, or no query of the run in the qrels).

    Notes
    -----
    The chapter :doc:`/book/evaluating_runs` explains it.

    References
    ----------
    - ``trec_eval``: Buckley, C. trec_eval, the TREC evaluation program, version 10.0. National
      Institute of Standards and Technology, https://github.com/usnistgov/trec_eval (its
      conventions; ``trec_eval -h -m all_trec`` describes each measure).
    - ``voorhees2005``: Voorhees, E. M. and Harman, D. K., eds. (2005). TREC: Experiment and
      Evaluation in Information Retrieval. MIT Press.
    - ``vangysel2018``: Van Gysel, C. and de Rijke, M. (2018). Pytrec_eval: an extremely fast
      Python interface to trec_eval. SIGIR 2018, 873-876.
    - ``macavaney2022``: MacAvaney, S., Macdonald, C. and Ounis, I. (2022). Streamlining
      evaluation with ir-measures. ECIR 2022.
    - ``chapelle2009``: Chapelle, O., Metzler, D., Zhang, Y. and Grinspan, P. (2009). Expected
      reciprocal rank for graded relevance. CIKM 2009, 621-630.
    - ``mcsherry2008``: McSherry, F. and Najork, M. (2008). Computing information retrieval
      performance measures efficiently in the presence of tied scores. ECIR 2008, 414-421
      (``ties="average"``).

    Examples
    --------
    >>> import rankedu as rk
    >>> qrels = {"q1": {"d1": 2, "d2": 0, "d3": 1}}
    >>> run = {"q1": {"d1": 0.5, "d2": 0.9, "d4": 0.1}}
    >>> rk.evaluate(qrels, run, ["P@2", "AP", "RR", "nDCG", "ERR@3"]).round(4)
         P@2    AP   RR    nDCG   ERR@3
    qid
    q1   0.5  0.25  0.5  0.4796  0.0938

    Two documents tied at the top, one relevant: trec_eval's order puts ``d2`` first, and the
    mean over both orders is halfway between the bounds.

    >>> run = {"q1": {"d1": 0.9, "d2": 0.9, "d4": 0.1}}
    >>> {ties: float(rk.evaluate(qrels, run, ["P@1"], ties=ties).loc["q1", "P@1"])
    ...  for ties in ["optimistic", "average", "pessimistic"]}
    {'optimistic': 1.0, 'average': 0.5, 'pessimistic': 0.0}
    """
    return _evaluated(qrels, run, measures, threshold=threshold, missing=missing,
                      max_grade=max_grade, single_precision=single_precision, ties=ties,
                      max_docs=max_docs, conventions=conventions)


def _evaluated(qrels, run, measures, *, threshold, missing, max_grade, single_precision, ties,
               max_docs, conventions=None, relstring=None) -> pd.DataFrame:
    """:func:`evaluate`'s work; with ``relstring`` (a length), ``attrs["relstring"]`` holds
    each query's relstring (``_relstrings``), for :func:`rankedu.trec_eval_report`. The
    diversity measures go to :func:`evaluate_diversity`."""
    if names_diversity(measures):
        refuse_options(evaluate, missing=missing, max_grade=max_grade,
                       single_precision=single_precision, ties=ties, max_docs=max_docs)
        if relstring is not None:
            raise ValueError("measures: trec_eval's relstring reads ordinary qrels, not the "
                             "subtopic qrels of the diversity measures")
        return evaluate_diversity(qrels, run, measures, threshold=threshold,
                                  conventions="ndeval" if conventions is None else conventions)
    refuse_conventions(conventions, measures)
    specs, joined, index, attrs = _prepare(qrels, run, measures, threshold, missing, max_grade,
                                           single_precision, ties, max_docs, relstring)
    # Which values depend on the order of ties, found on the other core meanwhile.
    tie_message = (_fast_read.background(_tie_message, specs, joined.ranked, index)
                   if ties == "trec_eval" else None)
    result = _frame(specs, _ties.reorder(joined.ranked, ties), ties, index, attrs)
    if tie_message is not None and tie_message.result():
        warn_at_caller(tie_message.result(), _ties.TieWarning)
    return result


#: The floor trec_eval puts under a value before taking its logarithm in a geometric mean
#: (``MIN_GEO_MEAN`` in ``m_gm_map.c``), so that one query scoring 0 does not make it 0.
MIN_GEO_MEAN = 1e-5

def _mean(values: np.ndarray) -> float:
    """The values added one by one in query order, then divided by their number, as
    trec_eval does (numpy's pairwise sum can differ in the last bit, and so print another
    fourth decimal: 0.16124999999999998 against 0.16125)."""
    return sum(values.tolist()) / len(values)


_SUMMARIES = {
    "mean": _mean,
    "sum": lambda values: sum(values.tolist()),
    "geometric": lambda values: math.exp(_mean(np.log(np.maximum(values, MIN_GEO_MEAN)))),
}


def summary(result: pd.DataFrame) -> pd.Series:
    """The ``all`` line of a result of :func:`evaluate`: each measure over its queries.

    Most measures are averaged over the queries (the arithmetic mean); the counts
    (``NumRet``, ...) are summed, and ``GMAP`` and ``GMBpref`` take the geometric mean with
    every value first raised to at least ``MIN_GEO_MEAN`` = 1e-5, as trec_eval does. Which
    applies is the measure's declaration's ``summary``.

    Parameters
    ----------
    result : pandas.DataFrame
        What :func:`evaluate` returned (its columns are measure names).

    Returns
    -------
    pandas.Series
        One float per measure, indexed by the column names.

    Raises
    ------
    TypeError
        When ``result`` is not a DataFrame.
    ValueError
        When a column is not a measure name, or ``result`` has no query.

    Notes
    -----
    The chapter :doc:`/book/evaluating_runs` explains it.

    References
    ----------
    - ``trec_eval``: Buckley, C. trec_eval, the TREC evaluation program, version 10.0.
      National Institute of Standards and Technology (``meas_avg.c``, ``m_gm_map.c``).

    Examples
    --------
    >>> import rankedu as rk
    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}}
    >>> run = {"q1": {"d1": 0.9, "d3": 0.5}, "q2": {"d3": 0.9, "d2": 0.5}}
    >>> result = rk.evaluate(qrels, run, ["AP", "P@2"])
    >>> [float(v) for v in rk.summary(result)]
    [0.75, 0.5]
    """
    if not isinstance(result, pd.DataFrame):
        raise TypeError(f"result must be a DataFrame from rk.evaluate, got "
                        f"{type(result).__name__}")
    if not len(result):
        raise ValueError("result holds no query: there is nothing to summarise")
    return _summarised(result, summaries(result.columns))


def _summarised(result: pd.DataFrame, kinds: dict[str, str]) -> pd.Series:
    """Each column of ``result`` over its queries, as its kind ("mean", "sum", "geometric")
    says."""
    return pd.Series({name: float(_SUMMARIES[kind](result[name].to_numpy(float)))
                      for name, kind in kinds.items()}, dtype=float)


def summaries(columns) -> dict[str, str]:
    """How :func:`summary` summarises each column of a result: its measure's declared
    ``summary`` ("mean", "sum" or "geometric"); the diversity measures' is the mean."""
    names = [str(name) for name in columns]
    if names_diversity(names):
        return dict.fromkeys(names, "mean")
    return {spec.name: spec.measure.summary for spec in parse(names)}


def _prepare(qrels, run, measures, threshold, missing, max_grade, single_precision, ties,
             max_docs=None, relstring=None):
    """Check the options, load and rank the run: (specs, the joined run, query index, attrs).

    With ``relstring`` (a length), ``attrs["relstring"]`` holds trec_eval's relstring of each
    query (``_relstrings``)."""
    specs = parse(measures)
    threshold = as_threshold(threshold)
    one_of(missing, "missing", MISSING)
    one_of(ties, "ties", _ties.TIES)
    max_docs = as_cutoff(max_docs, "max_docs")
    single_precision = as_flag(single_precision, "single_precision")
    judged, ranking = _load_pair(qrels, run)
    with link_errors_first(ranking):
        max_grade = _max_grade(judged, max_grade, specs)
        queries, only_in_run, only_in_qrels = _queries(judged, ranking, missing)
    joined = _join(judged, ranking, queries, threshold, max_grade, single_precision,
                   lines_needed=relstring is not None)
    # (Once the link is found: a document listed twice is an error, before any warning.)
    _warn_dropped(only_in_run, [] if missing == "zero" else only_in_qrels)
    # (trec_eval -c prints as num_rel's summary the qrels' grades > 0, whatever -l says)
    attrs = {"only_in_run": only_in_run, "only_in_qrels": only_in_qrels,
             "positive_grades": int(np.count_nonzero(judged.values > 0))}
    if relstring is not None:
        depth = relstring if max_docs is None else min(relstring, max_docs)
        attrs["relstring"] = _relstrings(joined, judged, ranking, depth)
    if max_docs is not None:
        joined = replace(joined, ranked=_first(joined.ranked, max_docs))
    return specs, joined, pd.Index(queries, name="qid", dtype=str), attrs


def _first(ranked: RankedRun, depth: int) -> RankedRun:
    """Each query's first ``depth`` documents (trec_eval ``-M``)."""
    keep = ranked.rank <= depth
    if keep.all():
        return ranked
    group = None if ranked.group is None else ranked.group[keep]
    pooled = None if ranked.pooled is None else ranked.pooled[keep]
    return replace(ranked, query=ranked.query[keep], rank=ranked.rank[keep],
                   gain=ranked.gain[keep], relevant=ranked.relevant[keep],
                   judged=ranked.judged[keep], group=group, pooled=pooled)


def _relstrings(joined, judged: _Table, ranking: _Table, depth: int) -> list[str]:
    """trec_eval's relstring of each query: a character for each of its first ``depth``
    documents (``m_relstring.c``): the grade 0-9, ``>`` above 9, ``-`` when the qrels do not
    list the document, ``.`` for a grade of -1 (pooled, not judged), ``<`` for another
    negative grade. A grade is read as trec_eval reads it, as a C long (2.5 is 2)."""
    ranked = joined.ranked
    top = np.flatnonzero(ranked.rank <= depth)
    row = ranking.judgment[joined.lines[top]]
    found = row >= 0
    grade = np.zeros(len(top))
    grade[found] = np.trunc(judged.values[row[found]])
    char = np.where(grade > 9, ">", np.where(grade >= 0, np.clip(grade, 0, 9).astype(int)
                                              .astype(str), np.where(grade == -1, ".", "<")))
    char[~found] = "-"
    bounds = np.searchsorted(ranked.query[top], np.arange(ranked.n_queries + 1))
    return ["".join(char[start:end]) for start, end in zip(bounds[:-1], bounds[1:])]


def _frame(specs, ranked, ties, index, attrs) -> pd.DataFrame:
    """Every measure of every query of ``ranked`` (already in the ``ties`` order)."""
    result = pd.DataFrame({spec.name: spec.by_query(ranked, ties) for spec in specs}, index=index)
    result.attrs.update(attrs)
    return result


class TieInterval(NamedTuple):
    """Every query's values in the pessimistic and in the optimistic order of its ties."""

    pessimistic: pd.DataFrame
    optimistic: pd.DataFrame


def tie_interval(qrels, run, measures, *, threshold=1, missing="skip", max_grade=None,
                 single_precision=False) -> TieInterval:
    """The values of every measure with the ties of each query broken both ways.

    The same as ``evaluate(..., ties="pessimistic")`` and ``evaluate(..., ties="optimistic")``,
    with the run read and ranked once. For the measures that reward a better document ranked
    higher (all of :data:`rankedu.trec.measures.MEASURES` on the lists the tests generate), every
    order of the ties, trec_eval's and the mean over all orders included, gives a value between
    the two; where they are equal, ties do not matter for that query and measure.

    Parameters
    ----------
    qrels, run, measures, threshold, missing, max_grade, single_precision
        As for :func:`evaluate`.

    Returns
    -------
    TieInterval
        A named tuple of two frames shaped as :func:`evaluate`'s, ``pessimistic`` (lowest
        grade first within each tie) and ``optimistic`` (highest grade first).

    Raises
    ------
    ValueError
        As :func:`evaluate` does.

    Notes
    -----
    The chapter :doc:`/book/evaluating_runs` explains ties and trec_eval's order.

    References
    ----------
    - ``mcsherry2008``: McSherry, F. and Najork, M. (2008). Computing information retrieval
      performance measures efficiently in the presence of tied scores. ECIR 2008, 414-421.
    - ``trec_eval``: Buckley, C. trec_eval, the TREC evaluation program, version 10.0 (its
      order of tied documents: docno descending).

    Examples
    --------
    >>> import rankedu as rk
    >>> qrels = {"q1": {"d1": 2, "d2": 0, "d3": 1}}
    >>> run = {"q1": {"d1": 0.9, "d2": 0.9, "d4": 0.1}}
    >>> low, high = rk.tie_interval(qrels, run, ["P@1", "AP"])
    >>> low.round(4)
         P@1      AP
    qid
    q1   0.0  0.25
    >>> high.round(4)
         P@1   AP
    qid
    q1   1.0  0.5
    """
    specs, joined, index, attrs = _prepare(qrels, run, measures, threshold, missing, max_grade,
                                           single_precision, "trec_eval")
    ranked = joined.ranked
    return TieInterval(*(_frame(specs, _ties.reorder(ranked, ties), ties, index, attrs)
                         for ties in ("pessimistic", "optimistic")))


def _tie_message(specs, ranked: RankedRun, index: pd.Index) -> str | None:
    """The warning to give when some query's value of some measure depends on the order of its
    ties (None: no value does): the two extreme orders are computed only for the queries whose
    tie groups mix grades."""
    mixed = _ties.mixed_queries(ranked)
    if not mixed.any():
        return None
    some = _ties.subset(ranked, mixed)
    low, high = (_ties.reorder(some, ties) for ties in ("pessimistic", "optimistic"))
    qids = index[mixed]
    # The example is the widest interval, so that it shows what is at stake.
    pairs, queries, example, widest = 0, np.zeros(len(qids), dtype=bool), None, 0.0
    for spec in specs:
        low_values, high_values = spec.by_query(low), spec.by_query(high)
        differ = low_values != high_values
        pairs += int(differ.sum())
        queries |= differ
        width = np.abs(high_values - low_values)
        if differ.any() and width.max() > widest:
            at = int(np.argmax(width))
            widest = float(width[at])
            shown = _apart(float(low_values[at]), float(high_values[at]))
            example = (f"{spec.name} of query {qids[at]!r} is {shown[0]} in the pessimistic "
                       f"order and {shown[1]} in the optimistic one")
    if not pairs:
        return None
    return (f"ties: tied scores make {pairs} value{'s' if pairs > 1 else ''} of "
            f"{int(queries.sum())} quer{'ies' if queries.sum() > 1 else 'y'} depend on how the "
            f"ties are broken ({example}); the default, ties='trec_eval', breaks them by docno "
            f"descending as trec_eval does; ties='optimistic' and ties='pessimistic' (or "
            f"rk.tie_interval) give the two bounds, ties='average' the mean over all orders")


def _apart(low: float, high: float) -> tuple[str, str]:
    """Two different values with 4 significant digits, or as many more as tell them apart."""
    digits = 4
    while f"{low:.{digits}g}" == f"{high:.{digits}g}" and digits < 17:
        digits += 1
    return f"{low:.{digits}g}", f"{high:.{digits}g}"


def ranked_list(qrels, run, qid, *, single_precision=False) -> pd.DataFrame:
    """One query's ranking as ``evaluate`` sees it, with the judgment of each document.

    The documents are ranked exactly as :func:`evaluate` ranks them (score descending, ties by
    docno descending), so ``ranked_list(...)["grade"].clip(lower=0)`` is the ``rels`` the
    per-list functions (:func:`rankedu.ndcg`, ``rk.explain.ndcg``, ...) take for this query;
    :func:`rankedu.explain.query` does that for one measure.

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
        Columns ``rank`` (from 1), ``docno``, ``score``, ``judged`` (bool: in the qrels with a
        grade of 0 or more; a negative grade is "pooled but not judged", as trec_eval, Judged@k
        and Bpref read it) and ``grade`` (the qrels grade, 0 when not in the qrels), one row per
        retrieved document, best first.
        ``attrs["pool"]`` holds the grades of every judged document of the query.

    Raises
    ------
    ValueError
        Naming ``qid`` when the qrels or the run do not hold the query.

    Notes
    -----
    The chapter :doc:`/book/evaluating_runs` explains it.

    References
    ----------
    - ``trec_eval``: Buckley, C. trec_eval, the TREC evaluation program, version 10.0. National
      Institute of Standards and Technology, https://github.com/usnistgov/trec_eval (its
      ranking: ties in score broken by docno, as its ``comp_sim_docno`` compares them).
    - ``vangysel2018``: Van Gysel, C. and de Rijke, M. (2018). Pytrec_eval: an extremely fast
      Python interface to trec_eval. SIGIR 2018, 873-876.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.ranked_list({"q": {"d9": 1}}, {"q": {"d10": 1.0, "d9": 1.0, "d1": 2.0}}, "q")
       rank docno  score  judged  grade
    0     1    d1    2.0   False      0
    1     2    d9    1.0    True      1
    2     3   d10    1.0   False      0
    """
    return _one_query(qrels, run, qid, single_precision=single_precision)[0]


def _some(qids: list) -> str:
    """The first five query ids, and how many more."""
    shown = ", ".join(map(repr, qids[:5]))
    return shown + (f" and {len(qids) - 5} more" if len(qids) > 5 else "")


def _count(qids: list, one: str, many: str) -> str:
    return f"{len(qids)} {one if len(qids) == 1 else many}"


def _warn_dropped(only_in_run: list, only_in_qrels: list) -> None:
    if only_in_run:
        warn_at_caller(
            f"{_count(only_in_run, 'query of the run has', 'queries of the run have')} no "
            f"judgments and {'was' if len(only_in_run) == 1 else 'were'} not evaluated: "
            f"{_some(only_in_run)}",
            QueryMismatchWarning,
        )
    if only_in_qrels:
        warn_at_caller(
            f"{_count(only_in_qrels, 'judged query is', 'judged queries are')} missing from "
            f"the run and {'was' if len(only_in_qrels) == 1 else 'were'} not evaluated "
            f"(trec_eval 9.x leaves them out too; trec_eval 10.0 stops instead, as "
            f"missing='error' does; missing='zero' scores them 0, as trec_eval -c does): "
            f"{_some(only_in_qrels)}",
            QueryMismatchWarning,
        )
