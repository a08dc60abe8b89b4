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

The chapter "Diversity and intent-aware evaluation" (``book/diversity.ipynb``) shows both.
"""

from __future__ import annotations

import os
import re

import numpy as np
import pandas as pd

from rankedu.core.validation import as_cutoff, as_threshold, one_of
from rankedu.metrics.diversity import (
    alpha_ndcg,
    err_ia,
    nrbp,
    precision_ia,
    subtopic_recall,
)
from rankedu.trec.files import read_run

__all__ = ["evaluate_diversity", "read_subtopic_qrels"]

#: ir_measures' names of the diversity measures, and whether each takes a cutoff.
NAMES = {"alpha_nDCG": True, "ERR_IA": True, "NRBP": False, "P_IA": True, "StRecall": True}
#: ndeval computes its measures to this depth only.
NDEVAL_DEPTH = 20

_NAME = re.compile(r"^(alpha_nDCG|ERR_IA|NRBP|P_IA|StRecall)(?:@(\d+))?$")


def read_subtopic_qrels(path) -> pd.DataFrame:
    """Read subtopic qrels: one ``qid subtopic docno rel`` line per judgment.

    Parameters
    ----------
    path : str or os.PathLike
        The file, fields separated by whitespace.

    Returns
    -------
    pandas.DataFrame
        Columns ``qid``, ``subtopic``, ``docno`` (strings) and ``rel`` (int64).

    Raises
    ------
    ValueError
        Naming the file and line of a line without four fields or with a grade that is not an
        integer, and a (query, subtopic, document) judged twice.

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
    >>> _ = open(path, "w").write("q1 1 d1 1\\nq1 2 d1 0\\n")
    >>> rk.read_subtopic_qrels(path)
      qid subtopic docno  rel
    0  q1        1    d1    1
    1  q1        2    d1    0
    """
    rows = []
    with open(os.fspath(path), encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            fields = line.split()
            if not fields:
                continue
            if len(fields) != 4 or not re.fullmatch(r"-?\d+", fields[3]):
                raise ValueError(f"{path}, line {number}: expected 'qid subtopic docno rel' "
                                 f"with an integer rel, got {line.rstrip()!r}")
            rows.append((*fields[:3], int(fields[3])))
    return _as_qrels(pd.DataFrame(rows, columns=["qid", "subtopic", "docno", "rel"]))


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


def names_diversity(measures) -> bool:
    """Whether ``measures`` names diversity measures only (``rankedu.evaluate`` then hands
    them to :func:`evaluate_diversity`); a mix with other measures is a ValueError, since
    the two kinds read different qrels."""
    names = [measures] if isinstance(measures, str) else measures
    if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names):
        return False
    found = [bool(_NAME.match(name)) for name in names]
    if any(found) and not all(found):
        raise ValueError(
            "measures: the diversity measures (alpha_nDCG@k, ERR_IA@k, NRBP, P_IA@k, "
            "StRecall@k) read subtopic qrels and cannot be mixed with other measures in one "
            f"call; got {list(names)!r}"
        )
    return bool(found) and all(found)


def _parsed(measures, conventions: str) -> list[tuple[str, str, int | None]]:
    parsed = []
    for measure in [measures] if isinstance(measures, str) else list(measures):
        match = _NAME.match(measure)
        if match is None or (match[2] is None) == NAMES[match[1]]:
            raise ValueError(f"measures: unknown diversity measure {measure!r}; known: "
                             "alpha_nDCG@k, ERR_IA@k, NRBP, P_IA@k, StRecall@k")
        k = None if match[2] is None else as_cutoff(int(match[2]), "k")
        if conventions == "ndeval" and k is not None and k > NDEVAL_DEPTH:
            raise ValueError(f"measures: ndeval computes cutoffs up to {NDEVAL_DEPTH}, got "
                             f"{measure!r}; use conventions='textbook'")
        parsed.append((measure, match[1], k))
    return parsed


def _one_query(judged: pd.DataFrame, ranked: pd.DataFrame, threshold: float):
    """The run's and the pool's intent matrices of one query, over its intents (the subtopics
    with a relevant document); the pool ordered by docno descending (ndeval's greedy tie)."""
    relevant = judged[judged["rel"] >= threshold]
    intents = sorted(relevant["subtopic"].unique())
    pool_docs = sorted(judged["docno"].unique(), reverse=True)
    table = (relevant.assign(one=1.0)
             .pivot_table(index="docno", columns="subtopic", values="one", fill_value=0.0)
             .reindex(index=pool_docs, columns=intents, fill_value=0.0))
    pool = table.to_numpy(dtype=float).reshape(len(pool_docs), len(intents))
    listed = table.reindex(index=ranked["docno"], fill_value=0.0).to_numpy(dtype=float)
    return listed.reshape(len(ranked), len(intents)), pool, len(intents)


def _value(name, k, listed, pool, count, alpha, beta, conventions) -> float:
    if count == 0:
        return 0.0
    if name == "alpha_nDCG":
        return alpha_ndcg(listed, alpha=alpha, k=k, pool=pool)
    if name == "NRBP":
        return nrbp(listed, alpha=alpha, beta=beta)
    if name == "P_IA":
        return precision_ia(listed, k=k)
    if name == "StRecall":
        return subtopic_recall(listed, k=k)
    value = err_ia(listed, alpha=alpha, k=k)
    if conventions == "textbook":
        return value
    if k == 1:  # ndeval's normalising loop starts at rank 2
        return value * count / alpha
    # ndeval's "ideal ideal": the ERR-IA of k documents that each serve the one intent.
    return value / err_ia(np.ones((k, 1)), alpha=alpha, k=k)


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
    one_of(conventions, "conventions", ("ndeval", "textbook"))
    threshold = as_threshold(threshold)
    parsed = _parsed(measures, conventions)
    qrels, run = _as_qrels(qrels), _as_run(run)
    # ndeval (via pyndeval) sorts by score, then docno ascending; trec_eval docno descending.
    run = run.sort_values("docno", ascending=conventions == "ndeval", kind="stable")
    run = run.sort_values("score", ascending=False, kind="stable")
    judged_by_query = dict(tuple(qrels.groupby("qid", sort=False)))
    rows = {}
    for qid, ranked in run.groupby("qid", sort=False):
        if qid not in judged_by_query:
            continue
        listed, pool, count = _one_query(judged_by_query[qid], ranked, threshold)
        rows[qid] = [_value(name, k, listed, pool, count, alpha, beta, conventions)
                     for _, name, k in parsed]
    result = pd.DataFrame.from_dict(rows, orient="index",
                                    columns=[measure for measure, _, _ in parsed])
    result.index.name = "qid"
    return result.sort_index().astype(float)
