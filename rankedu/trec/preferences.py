"""trec_eval's preference measures (``-R prefs``, ``-R qrels_prefs``): the ``prefs_*`` family.

Private: :func:`rankedu.trec_eval_report` with ``rel_format="prefs"`` or ``"qrels_prefs"``
calls :func:`evaluate_preferences`; :func:`rankedu.read_preferences` reads the prefs format.

What trec_eval 10.0 computes (``form_prefs_counts.c`` and ``m_prefs_*.c``), per query:

- **Documents.** The judged documents are those of any line of the query. The run is ranked by
  score, highest first, ties by docno *ascending* (this code's own order, unlike the other
  measures'), and cut at ``max_docs`` (``-M``); each judged document gets an internal rank:
  the retrieved ones 0, 1, ... in the run's order, then the others in docno order.
- **Preferences.** Within a judgment subgroup, a document with a higher level is preferred to
  one with a lower. A group with one subgroup prefers exactly those pairs; a group with several
  prefers what its subgroups prefer and every pair that follows by transitivity (a group whose
  preferences then contradict each other, or that calls a document relevant in one subgroup
  and non-relevant (level 0) in another, is an error, as in trec_eval).
- **Counts per group.** A preference of A over B is *fulfilled* when A's internal rank is
  smaller: among the pairs both retrieved (``_ret``), those with exactly one retrieved
  (implied, ``_imp``: fulfilled when A is the retrieved one), and those with neither (never
  fulfilled, counted only by the measures without a suffix).
- **Measures.** ``prefs_simp*``: fulfilled / possible, over every group's preferences;
  ``prefs_avgjg*``: the same ratio per group, averaged over the groups (a group without
  preferences adds 0); ``prefs_pair*``: per pair of documents some group orders, the share of
  the groups' preferences that the ranking fulfils, averaged over the pairs;
  ``prefs_avgjg_Rnonrel*``: ``prefs_avgjg`` with as many non-relevant documents as relevant
  ones in each group (R relevant, N non-relevant: when R >= N, R * (R - N) fulfilled
  preferences of the relevant documents over absent non-relevant ones are added; else only
  the first R non-relevant documents in rank order are kept, and the preferences are counted
  again, in trec_eval's own way, below); the ``_ret`` variants count retrieved documents only
  (R and N too).

Where trec_eval's code does something other than its description, this does what the code
does, as the tests check against its program:

- when R < N, a group of one subgroup counts, besides the preferences among relevant
  documents, every pair of one of its documents (any level, the kept non-relevant ones among
  them, each with itself too) with one of the kept non-relevant documents, fulfilled when the
  first is retrieved and ranked above the second; a group of several subgroups counts its
  preferences among the kept documents;
- ``prefs_avgjg_Rnonrel_ret`` keeps, for a group of several subgroups, the first R retrieved
  non-relevant documents where R counts every relevant document of the group, retrieved or not;
- a ratio 0/0 in ``prefs_avgjg_Rnonrel*`` (a group whose counts are all 0, such as one with no
  retrieved document under ``_ret``) is C's NaN, which makes the query's value 0, whatever the
  other groups give.

The counts print as integers, summed in the summary; the other measures as numbers, their
summary the mean over the queries (``te_calc_avg_meas_s``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

from rankedu.core.validation import as_cutoff, one_of
from rankedu.trec.evaluate import MISSING, _warn_dropped, evaluate
from rankedu.trec.diversity import refuse_options
from rankedu.trec.files import (PREFS_COLUMNS, _read_keyed_qrels, negative_level,
                                read_preferences, read_run, refused, twice)
from rankedu.trec.names import PREFERENCE_FAMILIES

#: The preference measures that are counts (printed as integers, summed over the queries).
COUNTS = PREFERENCE_FAMILIES[:3]


def evaluate_preferences(judgments, run, rel_format: str = "prefs", *, missing="skip",
                         max_docs=None, **options) -> pd.DataFrame:
    """Every preference measure of trec_eval (``PREFERENCE_FAMILIES``) on every query: a frame
    indexed by the query ids (sorted as strings), a column per measure, named as trec_eval
    prints it.

    ``judgments`` is a prefs file or frame (:func:`rankedu.read_preferences`) with
    ``rel_format="prefs"``, a qrels file or frame with ``rel_format="qrels_prefs"`` (its second
    field, the ``iter`` or ``group`` column, is the judgment group; each group has one
    subgroup, as trec_eval's ``get_qrels_prefs.c`` reads it). ``missing`` and ``max_docs`` are
    :func:`rankedu.evaluate`'s (trec_eval's ``-c`` and ``-M``); its other options do not apply.
    """
    refuse_options(evaluate, "not an option of trec_eval's preference measures (their "
                   "options: missing, max_docs)", **options)
    one_of(missing, "missing", MISSING)
    max_docs = as_cutoff(max_docs, "max_docs")
    prefs = _preferences(judgments, rel_format)
    ranked = _ranked(run)
    judged, in_run = set(prefs["qid"]), set(ranked)
    only_in_prefs = sorted(judged - in_run)
    if missing == "error" and only_in_prefs:
        raise ValueError(f"missing: judged queries missing from the run: {only_in_prefs[:5]}; "
                         f"missing='error' stops here as trec_eval 10.0 does")
    _warn_dropped(sorted(in_run - judged), [] if missing == "zero" else only_in_prefs)
    qids = sorted(judged if missing == "zero" else judged & in_run)
    if not qids:
        raise ValueError("run: nothing was evaluated: none of the run's queries is judged")
    empty = np.array([], dtype=object)
    chosen = set(qids)
    rows = {qid: _query(lines, ranked.get(qid, empty)[:max_docs], qid)
            for qid, lines in prefs.groupby("qid", sort=True) if qid in chosen}
    return pd.DataFrame([rows[qid] for qid in qids], index=pd.Index(qids, name="qid"),
                        columns=list(PREFERENCE_FAMILIES))


def _preferences(judgments, rel_format: str) -> pd.DataFrame:
    """The judgments as a prefs frame (qid, group, subgroup, docno, rel), checked."""
    if rel_format == "prefs":
        if not isinstance(judgments, pd.DataFrame):
            return read_preferences(judgments)
        frame, keys = judgments, list(PREFS_COLUMNS)
    elif not isinstance(judgments, pd.DataFrame):
        return _qrels_as_prefs(_read_keyed_qrels(judgments, "group", negative_level))
    else:
        frame = judgments.rename(columns={"iter": "group"})
        keys = ["qid", "group", "docno", "rel"]
    lacking = [key for key in keys if key not in frame.columns]
    if lacking:
        raise ValueError(f"qrels must have the columns {keys} with rel_format={rel_format!r}; "
                         f"it lacks {lacking}")
    frame = frame[keys].astype({key: str for key in keys if key != "rel"}).astype(
        {"rel": np.float64}).reset_index(drop=True)
    refused(frame, lambda row: f"qrels, row {row}",
            twice(["qid", "group", "subgroup"] if rel_format == "prefs" else ["qid", "group"]),
            negative_level)
    return frame if rel_format == "prefs" else _qrels_as_prefs(frame)


def _qrels_as_prefs(frame: pd.DataFrame) -> pd.DataFrame:
    """qrels read as trec_eval's qrels_prefs: the group from the second field, one subgroup."""
    return frame.assign(subgroup="0", rel=frame["rel"].astype(np.float64))[list(PREFS_COLUMNS)]


def _ranked(run) -> dict[str, np.ndarray]:
    """Each query's docnos in the order form_prefs_counts.c ranks them: score descending, ties
    by docno ascending."""
    if isinstance(run, Mapping):
        run = pd.DataFrame([(qid, docno, score) for qid, scores in run.items()
                            for docno, score in scores.items()], columns=["qid", "docno", "score"])
    elif not isinstance(run, pd.DataFrame):
        run = read_run(run)
    frame = run[["qid", "docno", "score"]].astype({"qid": str, "docno": str, "score": float})
    refused(frame.reset_index(drop=True), lambda row: f"run, row {row}", twice(["qid"]))
    frame = frame.sort_values(["qid", "score", "docno"], ascending=[True, False, True])
    return {qid: docnos.to_numpy(dtype=object)
            for qid, docnos in frame.groupby("qid", sort=False)["docno"]}


def _query(lines: pd.DataFrame, ranked: np.ndarray, qid: str) -> list:
    """One query's values of PREFERENCE_FAMILIES, from its prefs lines and its ranked docnos."""
    docs = np.unique(lines["docno"].to_numpy(dtype=object))
    found = pd.Index(docs).get_indexer(ranked)
    retrieved = found[found >= 0]  # the judged documents retrieved, in rank order
    k = len(retrieved)
    rank = np.empty(len(docs), dtype=np.int64)
    rank[retrieved] = np.arange(k)
    rest = np.ones(len(docs), dtype=bool)
    rest[retrieved] = False
    rank[rest] = np.arange(k, len(docs))  # the others in docno order
    counts = np.zeros((len(docs), len(docs)), dtype=np.int32)  # groups preferring i to j
    groups = [_Group(judged, rank[pd.Index(docs).get_indexer(judged["docno"])], k, qid, name)
              for name, judged in lines.groupby("group", sort=True)]
    for group in groups:
        counts[np.ix_(group.ranks, group.ranks)] += group.prefers
    ful_ret, ful_imp, poss_ret, poss_imp, never = (sum(getattr(group, name) for group in groups)
                                                    for name in ("ful_ret", "ful_imp",
                                                                 "poss_ret", "poss_imp",
                                                                 "never"))
    pair, pair_ret, pair_imp = _pairs(counts, k)
    return [poss_ret + poss_imp + never, ful_ret + ful_imp, ful_ret,
            _share(ful_ret + ful_imp, poss_ret + poss_imp + never), pair,
            _over_groups([(g.ful_ret + g.ful_imp, g.poss_ret + g.poss_imp + g.never)
                          for g in groups]),
            _over_groups([group.r_nonrel(retrieved_only=False) for group in groups], nan=True),
            _share(ful_ret, poss_ret), pair_ret,
            _over_groups([(group.ful_ret, group.poss_ret) for group in groups]),
            _over_groups([group.r_nonrel(retrieved_only=True) for group in groups], nan=True),
            _share(ful_ret + ful_imp, poss_ret + poss_imp), pair_imp,
            _over_groups([(g.ful_ret + g.ful_imp, g.poss_ret + g.poss_imp) for g in groups])]


class _Group:
    """One judgment group of a query: its documents (``ranks``, their internal ranks,
    ascending; the first ``k`` of the query's are retrieved), which it prefers to which
    (``prefers[a, b]``), and its counts of preferences (form_prefs_counts.c's JG)."""

    def __init__(self, judged: pd.DataFrame, line_ranks: np.ndarray, k: int, qid: str,
                 name: str):
        self.ranks, at = np.unique(line_ranks, return_inverse=True)
        levels = judged["rel"].to_numpy(float)
        n = len(self.ranks)
        names = np.empty(n, dtype=object)
        names[at] = judged["docno"].to_numpy(dtype=object)
        relevant = np.bincount(at, weights=levels > 0, minlength=n) > 0
        self.relevant = relevant
        self.retrieved = int(np.searchsorted(self.ranks, k))  # its first documents
        subgroups = judged["subgroup"].to_numpy(dtype=object)
        self.one_subgroup = len(set(subgroups)) == 1
        prefers = np.zeros((n, n), dtype=bool)
        for subgroup in dict.fromkeys(subgroups):
            mine = subgroups == subgroup
            docs = at[mine]
            prefers[np.ix_(docs, docs)] |= levels[mine][:, None] > levels[mine][None, :]
        if not self.one_subgroup:
            both = np.flatnonzero(relevant & (np.bincount(at, weights=levels == 0,
                                                          minlength=n) > 0))
            if len(both):
                raise ValueError(f"qrels: query {qid!r}, group {name!r}: document "
                                 f"{names[both[0]]!r} has both level 0 and a level above 0 "
                                 f"(trec_eval stops too)")
            for middle in range(n):  # the preferences implied by transitivity (Warshall)
                prefers |= prefers[:, middle, None] & prefers[None, middle, :]
            np.fill_diagonal(prefers, False)
            both = np.argwhere(prefers & prefers.T)
            if len(both):
                a, b = names[both[0]]
                raise ValueError(f"qrels: query {qid!r}, group {name!r}: documents {a!r} and "
                                 f"{b!r} are each preferred to the other, through its "
                                 f"subgroups (trec_eval aborts)")
        self.prefers = prefers
        r = self.retrieved
        # trec_eval's areas: A1 and A2 (both retrieved), A3 and A4 (one), A5 (neither)
        self.ful_ret = int(np.triu(prefers[:r, :r], 1).sum())
        self.poss_ret = int(prefers[:r, :r].sum())
        self.ful_imp = int(prefers[:r, r:].sum())
        self.poss_imp = self.ful_imp + int(prefers[r:, :r].sum())
        self.never = int(prefers[r:, r:].sum())

    def r_nonrel(self, retrieved_only: bool) -> tuple[int, int]:
        """(fulfilled, possible) of prefs_avgjg_Rnonrel (``_ret``: retrieved_only), as its
        m_prefs_avgjg_Rnonrel*.c counts them."""
        r = self.retrieved
        relevant = self.relevant[:r] if retrieved_only else self.relevant
        R, N = int(relevant.sum()), int((~relevant).sum())
        all_relevant = int(self.relevant.sum())
        if R >= N:  # R * (R - N) preferences over absent non-relevant documents, fulfilled
            if retrieved_only:
                return (self.ful_ret + R * (R - N), self.poss_ret + all_relevant * (R - N))
            return (self.ful_ret + self.ful_imp + int(self.relevant[:r].sum()) * (R - N),
                    self.poss_ret + self.poss_imp + self.never + R * (R - N))
        # Keep the first non-relevant documents (by internal rank) and count again.
        nonrelevant = np.flatnonzero(~self.relevant)
        nonrelevant = nonrelevant[nonrelevant < r] if retrieved_only else nonrelevant
        limit = r if retrieved_only else len(self.ranks)
        if self.one_subgroup:
            kept = nonrelevant[:R]
            among = self.prefers[:limit, :limit] & self.relevant[None, :limit]
            fulfilled = _fulfilled(among, r)
            # every document (retrieved, under _ret) with every kept one, itself included
            cross = kept[:, None] > np.arange(limit)[None, :]
            return (fulfilled + int((cross & (np.arange(limit) < r)[None, :]).sum()),
                    int(among.sum()) + limit * len(kept))
        keep = self.relevant[:limit].copy()
        keep[nonrelevant[:all_relevant]] = True
        among = self.prefers[:limit, :limit][np.ix_(keep, keep)]
        return (_fulfilled(among, r, np.flatnonzero(keep)), int(among.sum()))


def _fulfilled(prefers: np.ndarray, r: int, index: np.ndarray | None = None) -> int:
    """How many of the preferences ``prefers[a, b]`` the ranking fulfils: a is retrieved (its
    internal rank below ``r``) and above b. ``index``: the documents' places, if a subset."""
    at = np.arange(len(prefers)) if index is None else index
    return int((prefers & (at[:, None] < at[None, :]) & (at < r)[:, None]).sum())


def _share(fulfilled: int, possible: int) -> float:
    """fulfilled / possible, 0 when nothing is possible (trec_eval leaves the value at 0)."""
    return fulfilled / possible if possible else 0.0


def _over_groups(counts: list[tuple[int, int]], nan: bool = False) -> float:
    """The groups' ratios fulfilled / possible added in order and divided by their number, as
    m_prefs_avgjg*.c do: a group with nothing possible adds 0, or with ``nan`` C's 0/0, NaN
    (prefs_avgjg_Rnonrel*); a sum that is not above 0 (NaN included) leaves 0."""
    total = 0.0
    for fulfilled, possible in counts:
        total += fulfilled / possible if possible else (math.nan if nan else 0.0)
    return total / len(counts) if total > 0 else 0.0


def _pairs(counts: np.ndarray, k: int) -> tuple[float, float, float]:
    """prefs_pair, prefs_pair_ret and prefs_pair_imp from the groups' counts (counts[i, j]:
    how many groups prefer i to j): per pair that some group orders, the share of its
    preferences that the ranking fulfils, added in m_prefs_pair.c's order and averaged."""
    both = counts + counts.T
    ordered = np.triu(both[:k, :k] > 0, 1)
    one = both[:k, k:] > 0
    shares = np.concatenate([counts[:k, :k][ordered] / both[:k, :k][ordered],
                             counts[:k, k:][one] / both[:k, k:][one]])
    added = np.cumsum(shares)  # one by one, as C adds them
    n_ret, n_one = int(ordered.sum()), int(one.sum())
    n_none = int(np.triu(both[k:, k:] > 0, 1).sum())
    ret = float(added[n_ret - 1]) if n_ret else 0.0
    imp = float(added[-1]) if len(added) else 0.0
    return (imp / (n_ret + n_one + n_none) if n_ret + n_one + n_none else 0.0,
            ret / n_ret if n_ret else 0.0, imp / (n_ret + n_one) if n_ret + n_one else 0.0)
