"""Diversity measures over whole runs: subtopic qrels read, every query evaluated.

Subtopic qrels have the TREC qrels shape with the intent in the second field: ``qid subtopic
docno rel`` (the TREC Web track's and ndeval's format). A run is a TREC run (``qid Q0 docno
rank score tag``) or a DataFrame with ``qid``, ``docno`` and ``score``.

Two sets of conventions (``conventions=``):

- ``"ndeval"`` (the default) follows ndeval v4.5 as pyndeval 0.0.8 and ir_measures 0.4.3 run
  it: grades are binarised (``rel >= threshold``); a query's intents are the subtopics with at
  least one relevant document; tied scores are broken by docno *ascending* (trec_eval:
  descending); the ideal ranking is greedy, ties by the larger docno; cutoffs must be at most
  20; ``ERR_IA@k`` is divided by the "ideal ideal" S Σ_{i<=k} (1-α)^{i-1}/i (S intents), except
  at k = 1, where ndeval's loop leaves the sum Σ_t J(1, t) undivided; only queries in both
  the qrels and the run are evaluated.
- ``"textbook"``: the per-list functions of :mod:`rankedu.metrics.diversity` as the papers
  define them: ties broken by docno descending as in trec_eval, any cutoff, ``ERR_IA@k`` not
  normalised (:func:`rankedu.err_ia`).

Each measure is declared once, in :data:`MEASURES` (its name, pyndeval's name, whether it
takes a cutoff, a description and its per-list function): :func:`rankedu.evaluate` takes the
names (``conventions=`` chooses between the two sets above), :func:`rankedu.explain.query`
shows one query's tables, and the ``rankedu`` command's ``evaluate`` (every ``--format``) and
``explain`` take them with ``--conventions``; its help lists them. The diversity measures
read subtopic qrels, so they cannot share a call with the other measures.

The chapter "Diversity and intent-aware evaluation" (``book/diversity.ipynb``) shows both.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd

from rankedu.core.steps import Steps, steps_of
from rankedu.core.validation import as_cutoff, as_threshold, one_of
from rankedu.metrics.diversity import (
    alpha_ndcg,
    err_ia,
    nrbp,
    precision_ia,
    subtopic_recall,
)
from rankedu.trec.files import _read_keyed_qrels, read_run

__all__ = ["evaluate_diversity", "read_subtopic_qrels"]

#: ndeval computes its measures to this depth only.
NDEVAL_DEPTH = 20
#: The two sets of conventions (the module's docstring).
CONVENTIONS = ("ndeval", "textbook")


class _Query(NamedTuple):
    """One query as the per-list functions see it: the run's and the pool's intent matrices
    (ranks x intents, 0/1), and the intents' labels (None: the matrices' columns 0, 1, ...)."""

    listed: object
    pool: object
    intents: list | None = None


@dataclass(frozen=True)
class DiversityMeasure:
    """A diversity measure of :func:`rankedu.evaluate`: its name (ir_measures'), pyndeval's
    name, whether it takes a cutoff ``@k``, a one-line description, and the per-list function
    (``rk.<function>``, explained by ``rk.explain.<function>``) with the keyword arguments
    ``arguments(query, k, alpha, beta)`` gives it for one query (a :class:`_Query`)."""

    name: str
    ndeval: str
    cutoff: bool
    description: str
    function: Callable
    arguments: Callable
    chapter: str = "diversity"

    @property
    def usage(self) -> str:
        """How the measure is written: ``alpha_nDCG@k``; ``NRBP``."""
        return f"{self.name}@k" if self.cutoff else self.name

    def ndeval_name(self, k: int | None) -> str:
        """pyndeval's name of the measure at cutoff ``k`` (``alpha-nDCG@5``, ``NRBP``)."""
        return self.ndeval if k is None else f"{self.ndeval}@{k}"


#: The diversity measures, each declared once: ``rk.evaluate``, the command's help and
#: ``rankedu explain``, the suggestions for a mistyped name and the tests read this table.
MEASURES: dict[str, DiversityMeasure] = {m.name: m for m in [
    DiversityMeasure(
        "alpha_nDCG", "alpha-nDCG", True, "α-nDCG: DCG of the gains (1 - α)^(times the "
        "intent was served above), over the greedy ideal of the judged documents",
        alpha_ndcg, lambda q, k, alpha, beta: {"subtopics": q.listed, "alpha": alpha, "k": k,
                                              "pool": q.pool, "intents": q.intents}),
    DiversityMeasure(
        "ERR_IA", "ERR-IA", True, "intent-aware ERR: each intent's ERR with stop probability "
        "α, averaged over the intents (ndeval: divided by its ideal ideal)", err_ia,
        lambda q, k, alpha, beta: {"subtopics": q.listed, "alpha": alpha, "k": k,
                                   "intents": q.intents}),
    DiversityMeasure(
        "NRBP", "NRBP", False, "novelty- and rank-biased precision: RBP (patience β) of "
        "α-nDCG's gains, averaged over the intents", nrbp,
        lambda q, k, alpha, beta: {"subtopics": q.listed, "alpha": alpha, "beta": beta,
                                   "intents": q.intents}),
    DiversityMeasure(
        "P_IA", "P-IA", True, "intent-aware precision: each intent's P@k, averaged over the "
        "intents", precision_ia,
        lambda q, k, alpha, beta: {"subtopics": q.listed, "k": k, "intents": q.intents}),
    DiversityMeasure(
        "StRecall", "strec", True, "subtopic recall: the share of the query's intents the "
        "top k serve", subtopic_recall,
        lambda q, k, alpha, beta: {"subtopics": q.listed, "k": k, "intents": q.intents}),
]}

_NAME = re.compile(rf"^({'|'.join(MEASURES)})(?:@(\d+))?$")
#: How the measures are written, for messages and help: ``alpha_nDCG@k, ..., StRecall@k``.
USAGES = ", ".join(m.usage for m in MEASURES.values())


def ndeval_suggestion(written: str) -> str:
    """"; did you mean 'ERR_IA@5'?" for a diversity measure written as ndeval writes it
    (``ERR-IA@5``, ``alpha-nDCG@10``, ``strec@10``, in any case), else ""."""
    head, at, k = written.partition("@")
    for measure in MEASURES.values():
        if head.lower() in (measure.ndeval.lower(), measure.name.lower()) and bool(at) == \
                measure.cutoff:
            return f"; did you mean {measure.name + at + k!r}?"
    return ""


def read_subtopic_qrels(path) -> pd.DataFrame:
    """Read subtopic qrels: one ``qid subtopic docno rel`` line per judgment.

    The file is read as :func:`rankedu.read_qrels` reads a qrels file, the subtopic in the
    place of ``iter`` (``help(rankedu.trec.files)`` lists the rules): fields separated by
    whitespace, blank and comment lines (first non-blank character ``#``) skipped, a
    gzip-compressed file decompressed, ``"-"`` for standard input, and a file that is not text
    refused in one line. A document may be judged once per subtopic.

    Parameters
    ----------
    path : str or os.PathLike
        The file; ``"-"`` reads standard input.

    Returns
    -------
    pandas.DataFrame
        Columns ``qid``, ``subtopic``, ``docno`` (strings) and ``rel`` (int64), one row per
        judgment, in the file's order.

    Raises
    ------
    ValueError
        Naming the file and the line: a line without exactly four fields, a grade that is not
        an integer, text that is not UTF-8, or a (query, subtopic, document) judged twice.

    Notes
    -----
    The chapter :doc:`/book/diversity` explains it.

    References
    ----------
    - ``clarke2009``: Clarke, C. L. A., Kolla, M. and Vechtomova, O. (2009). An effectiveness
      measure for ambiguous and underspecified queries. ICTIR 2009, 188-199.

    Examples
    --------
    >>> import rankedu as rk, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "qrels.txt")
    >>> _ = open(path, "w").write("# topic 1\\nq1 1 d1 1\\nq1 2 d1 0\\n")
    >>> rk.read_subtopic_qrels(path)
      qid subtopic docno  rel
    0  q1        1    d1    1
    1  q1        2    d1    0
    """
    return _read_keyed_qrels(path, "subtopic")


def _as_qrels(qrels) -> pd.DataFrame:
    if not isinstance(qrels, pd.DataFrame):
        return read_subtopic_qrels(qrels)
    missing = {"qid", "subtopic", "docno", "rel"} - set(qrels.columns)
    if missing:
        raise ValueError(f"qrels lacks the columns {sorted(missing)}")
    qrels = qrels.astype({"qid": str, "subtopic": str, "docno": str, "rel": "int64"})
    if qrels.duplicated(["qid", "subtopic", "docno"]).any():
        raise ValueError("qrels judges one document twice for one query and subtopic")
    return qrels


def _as_run(run) -> pd.DataFrame:
    if not isinstance(run, pd.DataFrame):  # read as rk.evaluate reads a run (and checked)
        run = read_run(run)
    run = run.astype({"qid": str, "docno": str, "score": float})
    if run.duplicated(["qid", "docno"]).any():
        raise ValueError("run lists one document twice for one query")
    return run


def _names(measures) -> list | None:
    """``measures`` as a list of names, or None when it is not a name or a list of them."""
    names = [measures] if isinstance(measures, str) else measures
    if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names):
        return None
    return list(names)


def is_diversity(name: str) -> bool:
    """Whether ``name`` is written as a diversity measure (``alpha_nDCG@10``, ``NRBP``)."""
    return bool(_NAME.match(name))


def names_diversity(measures) -> bool:
    """Whether ``measures`` names diversity measures only (``rankedu.evaluate`` then hands
    them to :func:`evaluate_diversity`); a mix with other measures is a ValueError, since
    the two kinds read different qrels."""
    names = _names(measures)
    if not names:
        return False
    found = [is_diversity(name) for name in names]
    if any(found) and not all(found):
        raise ValueError(
            f"measures: the diversity measures ({USAGES}) read subtopic qrels (qid subtopic "
            f"docno rel) and cannot be mixed with other measures in one call; got "
            f"{names!r}"
        )
    return all(found)


def refuse_options(function: Callable, reason: str = "not an option of the diversity "
                   "measures, which follow ndeval's conventions or the papers' (their options: "
                   "threshold, conventions)", **given) -> None:
    """The diversity measures follow ndeval or the papers, which have none of ``given``'s
    options: a value other than ``function``'s default (or an option it lacks) is an error
    naming it and saying ``reason``, not silently ignored."""
    defaults = {name: parameter.default
                for name, parameter in inspect.signature(function).parameters.items()}
    changed = [f"{name}={value!r}" for name, value in given.items()
               if name not in defaults or value != defaults[name]]
    if changed:
        raise ValueError(f"{', '.join(changed)}: {reason}")


def refuse_conventions(conventions, measures) -> None:
    """``conventions`` is for the diversity measures only: given with others, a ValueError
    naming it."""
    if conventions is not None:
        raise ValueError(f"conventions: only the diversity measures ({USAGES}) have "
                         f"conventions to choose; got {conventions!r} for {measures!r}")


def _parsed(measures, conventions: str) -> list[tuple[str, DiversityMeasure, int | None]]:
    parsed = []
    for measure in dict.fromkeys(_names(measures) or []):
        match = _NAME.match(measure)
        declared = MEASURES[match[1]] if match else None
        if declared is None or (match[2] is None) == declared.cutoff:
            raise ValueError(f"measures: unknown diversity measure {measure!r}; known: "
                             f"{USAGES}")
        k = None if match[2] is None else as_cutoff(int(match[2]), "k")
        if conventions == "ndeval" and k is not None and k > NDEVAL_DEPTH:
            raise ValueError(f"measures: ndeval computes cutoffs up to {NDEVAL_DEPTH}, got "
                             f"{measure!r}; use conventions='textbook'")
        parsed.append((measure, declared, k))
    if not parsed:
        raise ValueError("measures must name at least one measure")
    return parsed


def _one_query(judged: pd.DataFrame, ranked: pd.DataFrame, threshold: float) -> _Query:
    """The run's and the pool's intent matrices of one query, over its intents (the subtopics
    with a relevant document, sorted); the pool ordered by docno descending (ndeval's greedy
    tie)."""
    relevant = judged[judged["rel"] >= threshold]
    intents = sorted(relevant["subtopic"].unique())
    pool_docs = sorted(judged["docno"].unique(), reverse=True)
    table = (relevant.assign(one=1.0)
             .pivot_table(index="docno", columns="subtopic", values="one", fill_value=0.0)
             .reindex(index=pool_docs, columns=intents, fill_value=0.0))
    pool = table.to_numpy(dtype=float).reshape(len(pool_docs), len(intents))
    listed = table.reindex(index=ranked["docno"], fill_value=0.0).to_numpy(dtype=float)
    return _Query(listed.reshape(len(ranked), len(intents)), pool, intents)


def _as_sets(matrix: np.ndarray, intents: list) -> list[set]:
    """An intent matrix as, per rank, the set of the labels of its intents."""
    return [{intents[j] for j in np.flatnonzero(row)} for row in matrix]


def _ideal_ideal(k: int | None, count: int, alpha: float) -> float:
    """What ndeval divides ERR-IA@k by, as a multiple of the textbook value: the ERR-IA of k
    documents that each serve the one intent; at k = 1 its normalising loop, which starts at
    rank 2, leaves the sum Σ_t J(1, t) undivided (the textbook value times S / α)."""
    if k == 1:
        return alpha / count
    return err_ia(np.ones((k, 1)), alpha=alpha, k=k)


def _steps(name, measure, k, query: _Query, alpha, beta, conventions, *,
           labelled=False) -> Steps:
    """One query's value, and the per-list function's tables it comes from (the intents
    named by their subtopics when ``labelled``); for ndeval's ERR_IA, a last table divides the
    textbook value by ndeval's "ideal ideal". A query without intents scores 0."""
    count = len(query.intents)
    if count == 0:
        return Steps(0.0, {})
    given = (_Query(_as_sets(query.listed, query.intents), _as_sets(query.pool, query.intents),
                    query.intents) if labelled else _Query(query.listed, query.pool))
    steps = steps_of(measure.function, **measure.arguments(given, k, alpha, beta))
    if measure.name != "ERR_IA" or conventions == "textbook":
        return steps
    divisor = _ideal_ideal(k, count, alpha)
    value = steps.value / divisor
    table = {"ERR-IA (textbook)": np.array([steps.value]),
             "ndeval's divisor": np.array([divisor]), name: np.array([value])}
    return Steps(value, {**steps.tables, "ndeval's normalisation": table})


def _ranked(qrels, run, conventions: str):
    """The subtopic qrels and the run read, and the run ranked: by score descending, ties by
    docno ascending (ndeval, as pyndeval sorts) or descending (trec_eval, the textbook)."""
    qrels, run = _as_qrels(qrels), _as_run(run)
    run = run.sort_values("docno", ascending=conventions == "ndeval", kind="stable")
    return qrels, run.sort_values(["qid", "score"], ascending=[True, False], kind="stable")


def evaluate_diversity(qrels, run, measures, *, conventions="ndeval", alpha=0.5, beta=0.5,
                       threshold=1) -> pd.DataFrame:
    """Diversity measures of every query of a run, with ndeval's or the textbook conventions.

    Parameters
    ----------
    qrels : path or pandas.DataFrame
        Subtopic qrels (``qid subtopic docno rel``), see :func:`read_subtopic_qrels`.
    run : path or pandas.DataFrame
        A TREC run file, or a DataFrame with columns ``qid``, ``docno`` and ``score``.
    measures : str or list of str
        ir_measures' names: ``alpha_nDCG@k``, ``ERR_IA@k``, ``NRBP``, ``P_IA@k``,
        ``StRecall@k``.
    conventions : {"ndeval", "textbook"}, default "ndeval"
        ndeval v4.5's (what pyndeval 0.0.8 and ir_measures 0.4.3 compute) or the papers'; the
        module's docstring lists the differences.
    alpha, beta : float, default 0.5
        The redundancy penalty (α-nDCG, ERR-IA's stop probability, NRBP) and NRBP's patience.
    threshold : float > 0, default 1
        A subtopic grade ``>= threshold`` is relevant (ndeval's binarisation).

    Returns
    -------
    pandas.DataFrame
        Indexed by query id (sorted as strings), one float column per measure, for the queries
        in both the qrels and the run.

    Raises
    ------
    ValueError
        For an unknown measure, a cutoff above 20 with ndeval's conventions, a document listed
        twice, or a malformed file.

    Notes
    -----
    The chapter :doc:`/book/diversity` explains it.

    References
    ----------
    - ``clarke2008``: Clarke, C. L. A., Kolla, M., Cormack, G. V., Vechtomova, O., Ashkan, A.,
      Büttcher, S. and MacKinnon, I. (2008). Novelty and diversity in information retrieval
      evaluation. SIGIR 2008, 659-666.

    Examples
    --------
    >>> import pandas as pd, rankedu as rk
    >>> qrels = pd.DataFrame({"qid": "q", "subtopic": ["1", "2"], "docno": ["a", "b"],
    ...                       "rel": [1, 1]})
    >>> run = pd.DataFrame({"qid": "q", "docno": ["a", "b"], "score": [1.0, 1.0]})
    >>> rk.evaluate_diversity(qrels, run, ["StRecall@1", "P_IA@2"])
         StRecall@1  P_IA@2
    qid
    q           0.5     0.5
    """
    one_of(conventions, "conventions", CONVENTIONS)
    threshold = as_threshold(threshold)
    parsed = _parsed(measures, conventions)
    qrels, run = _ranked(qrels, run, conventions)
    judged_by_query = dict(tuple(qrels.groupby("qid", sort=False)))
    rows = {}
    for qid, ranked in run.groupby("qid", sort=False):
        if qid not in judged_by_query:
            continue
        query = _one_query(judged_by_query[qid], ranked, threshold)
        rows[qid] = [_steps(name, measure, k, query, alpha, beta, conventions).value
                     for name, measure, k in parsed]
    result = pd.DataFrame.from_dict(rows, orient="index",
                                    columns=[name for name, _, _ in parsed])
    result.index.name = "qid"
    return result.sort_index().astype(float)


def explain_query(qrels, run, qid, measures, *, conventions="ndeval", alpha=0.5, beta=0.5,
                  threshold=1) -> dict[str, tuple[float, dict, pd.DataFrame]]:
    """One query's diversity measures step by step (:func:`rankedu.explain.query` shows them):
    for each name, its value as :func:`evaluate_diversity` gives it, the per-list function's
    tables (the intents named by their subtopics), and the ranking (``rank``, ``docno``,
    ``score``, ``intents``: the query's intents the document is relevant to), whose
    ``attrs["pool"]`` lists the judged documents. A ValueError names ``qid`` when the qrels or
    the run lack the query."""
    one_of(conventions, "conventions", CONVENTIONS)
    threshold = as_threshold(threshold)
    parsed = _parsed(measures, conventions)
    qrels, run = _ranked(qrels, run, conventions)
    judged, ranked = qrels[qrels["qid"] == str(qid)], run[run["qid"] == str(qid)]
    for frame, what in ((judged, "the qrels have"), (ranked, "the run has")):
        if not len(frame):
            raise ValueError(f"qid: {what} no query {str(qid)!r}")
    query = _one_query(judged, ranked, threshold)
    ranking = pd.DataFrame({"rank": np.arange(1, len(ranked) + 1),
                            "docno": ranked["docno"].to_numpy(),
                            "score": ranked["score"].to_numpy(),
                            "intents": [" ".join(sorted(d)) or "-" for d in
                                        _as_sets(query.listed, query.intents)]})
    ranking.attrs["pool"] = sorted(judged["docno"].unique(), reverse=True)
    explained = {}
    for name, measure, k in parsed:
        steps = _steps(name, measure, k, query, alpha, beta, conventions, labelled=True)
        explained[name] = (steps.value, steps.tables, ranking)
    return explained
