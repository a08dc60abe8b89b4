"""Two sets of judgments of the same queries, compared query by query.

:func:`qrels_agreement` reads two qrels (paths, frames or dicts, as :func:`rankedu.evaluate`
reads them), keeps the documents both judged, and reports per query and pooled over all
queries how many there are, how many each calls relevant, Cohen's kappa of the two binary
verdicts and the overlap of the two relevant sets (Voorhees, 2000). The chapter "Relevance
judgments: agreement and LLM judges" (``book/judgments.ipynb``) uses it on the TREC 2024 RAG
judgments against simulated judges.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rankedu.core.validation import as_threshold
from rankedu.judgments.agreement import cohen_kappa
from rankedu.trec.fast_read import strings
from rankedu.trec.load import _encode, _rows

__all__ = ["qrels_agreement"]

COLUMNS = ["judged in both", "relevant in a", "relevant in b", "relevant in both", "overlap",
           "agreement", "kappa"]


def _judgments(source, name: str) -> pd.DataFrame:
    """One qrels as a frame qid, docno, rel (each document once per query: checked)."""
    table = _encode(_rows(source, "qrels", name))[0]
    docnos = table.docnos(np.arange(len(table.values)))
    return pd.DataFrame({"qid": np.asarray(table.qids)[table.qid_codes],
                         "docno": docnos if isinstance(docnos, np.ndarray) else strings(docnos),
                         "rel": table.values})


def _row(relevant_a: np.ndarray, relevant_b: np.ndarray) -> dict:
    both = int((relevant_a & relevant_b).sum())
    either = int((relevant_a | relevant_b).sum())
    n = len(relevant_a)
    return {
        "judged in both": n, "relevant in a": int(relevant_a.sum()),
        "relevant in b": int(relevant_b.sum()), "relevant in both": both,
        "overlap": both / either if either else np.nan,
        "agreement": float((relevant_a == relevant_b).mean()) if n else np.nan,
        "kappa": cohen_kappa(relevant_a.astype(int), relevant_b.astype(int)) if n else np.nan,
    }


def qrels_agreement(qrels_a, qrels_b, *, threshold=1) -> pd.DataFrame:
    r"""How far two sets of judgments agree, query by query and over all queries.

    Only the documents judged in both count (a document one set never judged is not a
    disagreement). A document is relevant to a set when its grade there is ``>= threshold``
    (negative grades are never relevant, as in :func:`rankedu.evaluate`). For each query, with
    :math:`R_a` and :math:`R_b` the documents each set calls relevant:

    - ``overlap`` is :math:`|R_a \cap R_b| / |R_a \cup R_b|`, Voorhees' (2000) overlap, the
      Jaccard index of the two relevant sets; NaN when neither set has a relevant document;
    - ``agreement`` is the share of the documents on which the two verdicts agree, and
      ``kappa`` Cohen's kappa of the two binary verdicts (:func:`cohen_kappa`); kappa is NaN
      when both sets give every document the same verdict (see :func:`cohen_kappa`), and both
      are NaN for a query no document of which was judged in both.

    Parameters
    ----------
    qrels_a, qrels_b : path, pandas.DataFrame or dict
        The two sets of judgments, each as :func:`rankedu.evaluate` reads qrels (columns
        ``qid``, ``docno``, ``rel``; or ``{qid: {docno: grade}}``).
    threshold : float, default 1
        The lowest grade that counts as relevant, > 0 (trec_eval's ``-l``).

    Returns
    -------
    pandas.DataFrame
        Indexed by query id (every query of either set, in string order), then a last row
        ``"all"`` pooling every query's documents: counts summed, overlap of the pooled sets,
        agreement and kappa of all the pooled verdicts. Columns: ``judged in both``,
        ``relevant in a``, ``relevant in b``, ``relevant in both``, ``overlap``, ``agreement``,
        ``kappa``.

    Raises
    ------
    ValueError
        As :func:`rankedu.evaluate` does for bad qrels (a document listed twice for a query, a
        missing column, a non-finite grade), naming ``qrels`` or the file; naming
        ``threshold`` for a threshold <= 0.
    TypeError
        Naming ``qrels`` for an input that is neither a path, a frame nor a dict.

    See Also
    --------
    cohen_kappa

    Notes
    -----
    The chapter :doc:`/book/judgments` explains it. The pooled kappa weights each query by its
    number of documents and is not the mean of the per-query kappas.

    References
    ----------
    - ``voorhees2000``: Voorhees, E. M. (2000). Variations in relevance judgments and the
      measurement of retrieval effectiveness. *Information Processing & Management*, 36(5),
      697-716.
    - ``cohen1960``: Cohen, J. (1960). A coefficient of agreement for nominal scales.
      *Educational and Psychological Measurement*, 20(1), 37-46.

    Examples
    --------
    >>> import rankedu as rk
    >>> a = {"q1": {"d1": 2, "d2": 0, "d3": 1, "d4": 0}, "q2": {"d5": 1, "d6": 0}}
    >>> b = {"q1": {"d1": 1, "d2": 1, "d3": 0, "d4": 0}, "q2": {"d5": 1, "d7": 1}}
    >>> table = rk.qrels_agreement(a, b)
    >>> table[["judged in both", "relevant in both", "overlap", "kappa"]].round(4)
         judged in both  relevant in both  overlap   kappa
    qid
    q1                4                 1   0.3333  0.0000
    q2                1                 1   1.0000     NaN
    all               5                 2   0.5000  0.1667

    In q1 the two sets call two documents relevant each and share one (overlap 1/3); in q2
    only d5 is judged in both, and both call it relevant: one category, kappa undefined.
    """
    threshold = as_threshold(threshold)
    a = _judgments(qrels_a, "qrels_a")
    b = _judgments(qrels_b, "qrels_b")
    joined = a.merge(b, on=["qid", "docno"], suffixes=(" a", " b"))
    relevant_a = joined["rel a"].to_numpy() >= threshold
    relevant_b = joined["rel b"].to_numpy() >= threshold
    queries = sorted(set(a["qid"]) | set(b["qid"]))
    rows_of = joined.groupby("qid").indices  # a query judged in both: its rows of joined
    none = np.array([], dtype=np.int64)
    rows = {qid: _row(relevant_a[rows_of.get(qid, none)], relevant_b[rows_of.get(qid, none)])
            for qid in queries}
    rows["all"] = _row(relevant_a, relevant_b)
    table = pd.DataFrame.from_dict(rows, orient="index")[COLUMNS]
    table.index.name = "qid"
    return table
