"""The measures :func:`rankedu.evaluate` knows, each declared once.

A declaration (:class:`Measure`) says everything about one measure: its name and parameters
(with their types and defaults), whether it takes a cutoff ``@k``, a one-line description, the
chapter that derives it, its per-list reference (a function of ``rankedu`` and the arguments
one query's lists give it; ``rankedu.explain`` has its step table under the same name) and its
vectorised by-query kernel (``_<metric>_by_query`` in the metric's module, beside
``_<metric>_steps``). ``evaluate``, the ``rankedu`` command's help and ``rankedu explain``,
:func:`rankedu.explain.query` and the tests all read :data:`MEASURES`, so adding a measure is
one declaration, its kernel and its tests.

Names are written as in ir_measures: ``NAME``, ``NAME@k`` for a cutoff, and parameters in
parentheses before it, ``NAME(param=value)@k`` (for measures that declare parameters).

>>> from rankedu.trec.measures import parse
>>> [(m.name, m.measure.name, m.k) for m in parse(["nDCG@10", "AP"])]
[('nDCG@10', 'nDCG', 10), ('AP', 'AP', None)]
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from rankedu.core.ranked import condensed_run
from rankedu.core.steps import Steps, steps_of
from rankedu.core.validation import as_cutoff
from rankedu.metrics import average_precision as _ap
from rankedu.metrics import cascade as _cascade
from rankedu.metrics import cutoff as _cutoff
from rankedu.metrics import dcg as _dcg
from rankedu.metrics import incomplete as _incomplete
from rankedu.metrics import reciprocal_rank as _rr
from rankedu.metrics import set_based as _set
from rankedu.metrics import user_models as _user
from rankedu.trec import diversity as _diversity
from rankedu.trec import names as _names
from rankedu.trec import ties as _ties


__all__ = ["MEASURES", "Measure", "Parameter", "ParsedMeasure", "QueryLists", "parse"]


@dataclass(frozen=True)
class QueryLists:
    """One query as the per-list functions see it under ``evaluate``'s conventions.

    ``rels`` are the gains of the retrieved documents in trec_eval's order (the judged grade, 0
    when unjudged or negative), ``pool`` the gains of every judged document of the query,
    ``n_relevant`` the judged documents with a grade >= ``threshold``, and ``max_grade`` ERR's
    g_max. ``judged`` says which retrieved documents were judged with a grade >= 0 (None:
    every one), ``n_nonrelevant`` counts the judged documents with 0 <= grade <
    ``threshold`` (bpref's N), and ``pooled`` says which retrieved documents the qrels list
    with any grade, a negative one too (infAP's pool; None: those ``judged`` says).
    """

    rels: np.ndarray
    pool: np.ndarray
    n_relevant: int
    threshold: float = 1
    max_grade: float = 4
    judged: np.ndarray | None = None
    n_nonrelevant: int = 0
    pooled: np.ndarray | None = None


@dataclass(frozen=True)
class Parameter:
    """A measure's parameter, written ``NAME(name=value)``: its type and default."""

    name: str
    type: type
    default: object
    description: str


@dataclass(frozen=True)
class Measure:
    """One measure: what it is, how it is written, and its two implementations.

    ``cutoff`` is ``"required"`` (``P@k``), ``"optional"`` (``AP`` or ``AP@k``) or ``"none"``
    (``Rprec``). ``function`` is the per-list reference, called with the keyword arguments
    ``arguments(lists, k, **params)`` returns for one query; ``kernel(ranked, k, **params)``
    computes every query of a :class:`rankedu.core.ranked.RankedRun` at once. ``average`` (same
    arguments) is the exact mean over the orders of tied documents (``evaluate``'s
    ``ties="average"``, ``rankedu.trec.ties``); None when the measure does not support it.
    """

    name: str
    description: str
    chapter: str
    cutoff: str
    function: Callable
    arguments: Callable
    kernel: Callable
    parameters: tuple[Parameter, ...] = field(default=())
    uses_max_grade: bool = False  # maps grades through ERR's R(g): every grade <= max_grade
    unit_gains: bool = False  # reads a grade as a gain in [0, 1] (cwl-eval): every grade <= 1
    average: Callable | None = None
    # How the 'all' line summarises the queries' values (rankedu.summary): their "mean", their
    # "sum" (counts: trec_eval's num_ret, ...), or their "geometric" mean (gm_map, gm_bpref).
    summary: str = "mean"
    cutoff_type: type = int  # float: the cutoff is a recall level in [0, 1] (IPrec@0.1)

    @property
    def usage(self) -> str:
        """How the measure is written: ``P@k``; ``AP, AP@k``; ``Rprec``; ``IPrec@r``."""
        at = "@r" if self.cutoff_type is float else "@k"
        forms = {"required": [f"{self.name}{at}"], "optional": [self.name, f"{self.name}{at}"],
                 "none": [self.name]}[self.cutoff]
        if self.parameters:
            spelled = ", ".join(f"{p.name}={_spelled(p)}" for p in self.parameters)
            forms.append(f"{self.name}({spelled})")
        return ", ".join(forms)


def _spelled(parameter: Parameter) -> str:
    """A parameter's default as it is written in a name (``0;0.5;1``; ``{grade:gain,...}``
    for a mapping whose default is none)."""
    if parameter.type is tuple:
        return ";".join(f"{value:g}" for value in parameter.default)
    if parameter.type is dict and parameter.default is None:
        return "{grade:gain,...}"
    return repr(parameter.default)


def _k_only(lists, k):
    return {"rels": lists.rels, "k": k, "threshold": lists.threshold}


def _all_judged(lists):
    """Which retrieved documents were judged (every one when ``lists`` does not say)."""
    return np.ones(len(lists.rels), bool) if lists.judged is None else lists.judged


def _bpref_arguments(lists, k):
    return {"rels": lists.rels, "judged": lists.judged, "n_relevant": lists.n_relevant,
            "n_nonrelevant": lists.n_nonrelevant, "threshold": lists.threshold}


def _k_and_denominator(lists, k):
    return {**_k_only(lists, k), "n_relevant": lists.n_relevant}


def _denominator(lists, k, **params):
    """The list, R and the threshold, for the measures of the whole retrieved set."""
    return {"rels": lists.rels, "n_relevant": lists.n_relevant, "threshold": lists.threshold,
            **params}


def _interpolated(lists):
    """IPrec's and IPrecAvg's arguments but the recall levels: trec_eval 10's rounding."""
    return {**_denominator(lists, None), "convention": "trec_eval"}


# trec_eval's -J: the measure is computed on the condensed list, the run without its unjudged
# documents. ParsedMeasure applies it (to the per-list input and to the kernel's), so that a
# measure offers it by declaring this parameter.
_JUDGED_ONLY = Parameter("judged_only", bool, False,
                         "drop the unjudged documents first (a condensed list; trec_eval -J)")

# cwl-eval's --max_depth: the user models read every list to this many ranks, padded with
# zero-gain documents, and normalise their weights over them.
_DEPTH = Parameter("depth", int, _user.CWL_DEPTH, "ranks read, the list zero-padded to them")

# trec_eval's gain parameters (gain_init.c: ndcg.1=3,2=9), spelled as ir_measures spells them,
# nDCG(gains={1:3,2:9}): a grade listed gets its gain, one not listed keeps its own value.
_GAINS = Parameter("gains", dict, None, "{grade: gain, ...}: the gain of each grade listed "
                   "(trec_eval's rel_level=gain); a grade not listed is its own gain")

# trec_eval's rbp and rbp_resid: persistence 0.9 (m_rbp.c).
_P_TREC = Parameter("p", float, 0.9, "persistence: the probability of reading on")


def _with_pool(lists, k, gains):
    return {"rels": lists.rels, "pool": lists.pool, "gains": gains}

MEASURES: dict[str, Measure] = {m.name: m for m in [
    Measure("P", "precision at k: relevant documents in the top k, divided by k", "cutoff",
            "required", _cutoff.precision_at_k, _k_only, _cutoff._precision_at_k_by_query,
            average=_ties.linear(_cutoff._precision_at_k_by_query)),
    Measure("R", "recall at k: relevant documents in the top k, divided by the relevant judged",
            "cutoff", "required", _cutoff.recall_at_k, _k_and_denominator,
            _cutoff._recall_at_k_by_query, average=_ties.linear(_cutoff._recall_at_k_by_query)),
    Measure("AP", "average precision: sum of P@rank at each relevant rank (in the top k), "
            "divided by all the relevant judged", "average_precision", "optional",
            _ap.average_precision, _k_and_denominator, _ap._average_precision_by_query,
            parameters=(_JUDGED_ONLY,), average=_ties.average_precision_average),
    Measure("GMAP", "AP per query, summarised over the queries by their geometric mean, each AP "
            "first raised to at least 1e-5 (trec_eval's gm_map)", "average_precision", "none",
            _ap.average_precision, _k_and_denominator, _ap._average_precision_by_query,
            average=_ties.average_precision_average, summary="geometric"),
    Measure("IPrec", "interpolated precision at recall level r (the cutoff: IPrec@0.1), the best "
            "precision from the round(r R)-th relevant document on (trec_eval's iprec_at_recall)",
            "average_precision", "required", _ap.interpolated_precision,
            lambda lists, k: {**_interpolated(lists), "recall": k},
            _ap._interpolated_precision_by_query, cutoff_type=float),
    Measure("IPrecAvg", "the mean of the interpolated precision at recall levels points, by "
            "default 0, 0.1, ..., 1 (trec_eval's 11pt_avg)", "average_precision", "none",
            _ap.eleven_point_average_precision,
            lambda lists, k, points: {**_interpolated(lists), "points": points},
            _ap._eleven_point_average_precision_by_query,
            parameters=(Parameter("points", tuple, _ap.ELEVEN_RECALL_LEVELS,
                                  "the recall levels in increasing order: 0.2;0.5;0.8"),)),
    Measure("RR", "reciprocal rank of the first relevant document (in the top k; 0 when none)",
            "reciprocal_rank", "optional", _rr.reciprocal_rank, _k_only,
            _rr._reciprocal_rank_by_query, average=_ties.reciprocal_rank_average),
    Measure("Success", "1 when a relevant document is in the top k, else 0 (trec_eval's "
            "success_k)", "reciprocal_rank", "required", _rr.success_at_k, _k_only,
            _rr._success_at_k_by_query),
    Measure("nDCG", "DCG (of the top k) over the DCG of the ideal ranking of every judged "
            "document (cut at k)", "ndcg", "optional", _dcg.ndcg,
            lambda lists, k, gains: {"rels": lists.rels, "k": k, "pool": lists.pool,
                                     "gains": gains},
            _dcg._ndcg_by_query, parameters=(_JUDGED_ONLY, _GAINS),
            average=_dcg._gains_mapped(_ties.linear(_dcg._ndcg_unmapped_by_query))),
    Measure("G", "trec_eval's normalised gain: each gain over log2(2 + the ideal's gain so far "
            "(at least 1 a rank) - the ranking's), summed over the ideal's total gain",
            "ndcg", "none", _dcg.g, _with_pool, _dcg._g_by_query, parameters=(_GAINS,)),
    Measure("BinG", "trec_eval's binG: each relevant document scores 1 / log2(2 + the "
            "non-relevant ones above it); the sum divided by R", "ndcg", "none", _dcg.bin_g,
            lambda lists, k: {"rels": lists.rels, "n_relevant": lists.n_relevant,
                              "threshold": lists.threshold},
            _dcg._bin_g_by_query),
    Measure("nDCGRel", "trec_eval's ndcg_rel: nDCG at the rank of each relevant document "
            "(the whole list's for one not retrieved), averaged over them", "ndcg", "none",
            _dcg.ndcg_rel, _with_pool, _dcg._ndcg_rel_by_query, parameters=(_GAINS,)),
    Measure("RnDCG", "trec_eval's Rndcg: nDCG averaged at the ranks where the ideal gain drops "
            "(and at the end of a list longer than R + 1)", "ndcg", "none", _dcg.rndcg,
            lambda lists, k, gains: {**_with_pool(lists, k, gains),
                                     "n_relevant": lists.n_relevant},
            _dcg._rndcg_by_query, parameters=(_GAINS,)),
    Measure("Rprec", "precision at rank R, R the number of relevant judged documents",
            "cutoff", "none", _cutoff.r_precision,
            lambda lists, k: {"rels": lists.rels, "n_relevant": lists.n_relevant,
                              "threshold": lists.threshold},
            _cutoff._r_precision_by_query, average=_ties.linear(_cutoff._r_precision_by_query)),
    # trec_eval's counts (their summary is a sum over queries), set measures and utility: the
    # order of the retrieved documents does not matter, so the mean over tie orders is the
    # kernel itself. Each offers trec_eval's -J (judged_only).
    Measure("NumRet", "the number of documents retrieved (trec_eval's num_ret)",
            "evaluating_runs", "none", _set.num_retrieved,
            lambda lists, k: {"rels": lists.rels}, _set._num_retrieved_by_query,
            parameters=(_JUDGED_ONLY,), average=_set._num_retrieved_by_query, summary="sum"),
    Measure("NumRel", "the number of relevant judged documents, R (trec_eval's num_rel)",
            "evaluating_runs", "none", _set.num_relevant, _denominator,
            _set._num_relevant_by_query, parameters=(_JUDGED_ONLY,),
            average=_set._num_relevant_by_query, summary="sum"),
    Measure("NumRelRet", "the number of relevant documents retrieved (trec_eval's num_rel_ret)",
            "evaluating_runs", "none", _set.num_relevant_retrieved,
            lambda lists, k: {"rels": lists.rels, "threshold": lists.threshold},
            _set._num_relevant_retrieved_by_query,
            parameters=(_JUDGED_ONLY,), average=_set._num_relevant_retrieved_by_query,
            summary="sum"),
    Measure("NumNonRelJudgedRet", "the number of judged non-relevant documents retrieved, "
            "unjudged and negative grades left out (trec_eval's num_nonrel_judged_ret)",
            "incomplete_judgments", "none", _set.num_nonrelevant_judged_retrieved,
            lambda lists, k: {"rels": lists.rels, "judged": lists.judged,
                              "threshold": lists.threshold},
            _set._num_nonrelevant_judged_retrieved_by_query,
            parameters=(_JUDGED_ONLY,), average=_set._num_nonrelevant_judged_retrieved_by_query,
            summary="sum"),
    Measure("SetP", "set precision: relevant retrieved over retrieved (trec_eval's set_P)",
            "cutoff", "none", _set.set_precision,
            lambda lists, k: {"rels": lists.rels, "threshold": lists.threshold},
            _set._set_precision_by_query, parameters=(_JUDGED_ONLY,),
            average=_set._set_precision_by_query),
    Measure("SetR", "set recall: relevant retrieved over R (trec_eval's set_recall)", "cutoff",
            "none", _set.set_recall, _denominator, _set._set_recall_by_query,
            parameters=(_JUDGED_ONLY,), average=_set._set_recall_by_query),
    Measure("SetF", "F-beta of set precision and set recall (trec_eval's set_F.x is "
            "beta = sqrt(x))", "cutoff", "none", _set.set_f, _denominator,
            _set._set_f_by_query,
            parameters=(Parameter("beta", float, 1.0, "how many times as much recall counts "
                                  "as precision"), _JUDGED_ONLY), average=_set._set_f_by_query),
    Measure("SetAP", "set precision times set recall (trec_eval's set_map)", "cutoff", "none",
            _set.set_average_precision, _denominator, _set._set_average_precision_by_query,
            parameters=(_JUDGED_ONLY,), average=_set._set_average_precision_by_query),
    Measure("SetRelP", "relevant retrieved over min(retrieved, R) (trec_eval's set_relative_P)",
            "cutoff", "none", _set.set_relative_precision, _denominator,
            _set._set_relative_precision_by_query,
            parameters=(_JUDGED_ONLY,), average=_set._set_relative_precision_by_query),
    Measure("RelP", "relative precision at k: relevant in the top k over min(k, R) (trec_eval's "
            "relative_P)", "cutoff", "required", _cutoff.relative_precision_at_k,
            _k_and_denominator, _cutoff._relative_precision_at_k_by_query,
            parameters=(_JUDGED_ONLY,),
            average=_ties.linear(_cutoff._relative_precision_at_k_by_query)),
    Measure("RprecMult", "precision at depth (long) (mult * R + 0.9) (trec_eval's Rprec_mult)",
            "cutoff", "none", _cutoff.r_precision_mult, _denominator,
            _cutoff._r_precision_mult_by_query,
            parameters=(Parameter("mult", float, 1.0, "the multiple of R to measure at"),
                        _JUDGED_ONLY),
            average=_ties.linear(_cutoff._r_precision_mult_by_query)),
    Measure("Utility", "a TP + b FP + c FN + d TN of the retrieved set, TN = n_docs - TP - FP - "
            "FN (trec_eval's utility; a sum, not a share)", "confusion_matrix", "none",
            _set.utility, _denominator, _set._utility_by_query,
            parameters=(Parameter("a", float, 1.0, "the worth of a relevant document retrieved"),
                        Parameter("b", float, -1.0, "the worth of a non-relevant one retrieved"),
                        Parameter("c", float, 0.0, "the worth of a relevant one missed"),
                        Parameter("d", float, 0.0, "the worth of any other document"),
                        Parameter("n_docs", int, 0, "documents in the collection, for TN "
                                  "(trec_eval -N)"), _JUDGED_ONLY),
            average=_set._utility_by_query),
    Measure("ERR", "expected reciprocal rank (of the top k), R(g) = (2^g - 1) / 2^max_grade",
            "cascade_err", "optional", _cascade.err,
            lambda lists, k: {"rels": lists.rels, "k": k, "max_grade": lists.max_grade},
            _cascade._err_by_query, uses_max_grade=True),
    Measure("RBP", "rank-biased precision: (1 - p) sum_i p^(i-1) g_i, the grade read as a gain "
            "in [0, 1], the list read to depth ranks (cwl-eval's convention)", "user_models",
            "none", _user.rbp,
            lambda lists, k, p, depth: {"rels": lists.rels, "p": p, "depth": depth},
            _user._rbp_by_query,
            parameters=(Parameter("p", float, 0.8, "persistence: the probability of reading on"),
                        _DEPTH), unit_gains=True),
    Measure("INST", "INST: the expected rate of gain of a user who wants T units of gain, the "
            "grade read as a gain in [0, 1], the list read to depth ranks (cwl-eval's)",
            "user_models", "none", _user.inst,
            lambda lists, k, T, depth: {"rels": lists.rels, "T": T, "depth": depth},
            _user._inst_by_query,
            parameters=(Parameter("T", float, 1.0, "the gain the user wants"), _DEPTH),
            unit_gains=True),
    Measure("RBPtrec", "trec_eval's rbp: (1 - p) sum_i p^(i-1) g_i over the whole list, g_i the "
            "grade over the query's top grade (when above 1)", "user_models", "none",
            _user.rbp_trec,
            lambda lists, k, p: {"rels": lists.rels, "pool": lists.pool, "p": p},
            _user._rbp_trec_by_query, parameters=(_P_TREC,)),
    Measure("RBPtrecResid", "trec_eval's rbp_resid: RBP's residual p^n + (1 - p) sum of p^(i-1) "
            "over the unjudged ranks i; 0 when every document is judged", "user_models",
            "none", _user.rbp_trec_resid,
            lambda lists, k, p: {"judged": _all_judged(lists), "p": p},
            _user._rbp_trec_resid_by_query, parameters=(_P_TREC,)),
    Measure("Bpref", "bpref: each judged relevant document scores 1 - min(m, R) / min(N, R), m the "
            "judged non-relevant documents above it; the sum divided by R (unjudged skipped)",
            "incomplete_judgments", "none", _incomplete.bpref, _bpref_arguments,
            _incomplete._bpref_by_query),
    Measure("GMBpref", "bpref per query, summarised over the queries by their geometric mean, "
            "each first raised to at least 1e-5 (trec_eval's gm_bpref)", "incomplete_judgments",
            "none", _incomplete.bpref, _bpref_arguments, _incomplete._bpref_by_query,
            summary="geometric"),
    Measure("infAP", "inferred AP: each judged relevant document at rank j+1 scores 1/(j+1) plus "
            "the pooled share of the j above times their estimated relevant share; sum over R",
            "incomplete_judgments", "none", _incomplete.inferred_average_precision,
            lambda lists, k: {"rels": lists.rels, "judged": lists.judged,
                              "pooled": lists.pooled, "n_relevant": lists.n_relevant,
                              "threshold": lists.threshold},
            _incomplete._inferred_average_precision_by_query),
    Measure("Judged", "the share of the top min(k, retrieved) documents that were judged",
            "incomplete_judgments", "required", _incomplete.judged_at_k,
            lambda lists, k: {"judged": _all_judged(lists), "k": k},
            _incomplete._judged_at_k_by_query,
            average=_ties.linear(_incomplete._judged_at_k_by_query)),
    Measure("Unjudged", "the unjudged documents of the top k divided by k (trec_eval's unj_k; a "
            "short list is padded with judged documents)", "incomplete_judgments", "required",
            _incomplete.unjudged_at_k, lambda lists, k: {"judged": _all_judged(lists), "k": k},
            _incomplete._unjudged_at_k_by_query,
            average=_ties.linear(_incomplete._unjudged_at_k_by_query)),
]}


@dataclass(frozen=True)
class ParsedMeasure:
    """A measure as the caller wrote it: ``name`` (the result's column), the declaration, the
    cutoff and the parameters."""

    name: str
    measure: Measure
    k: int | float | None  # a float: a recall level (IPrec@0.1)
    params: dict
    trec_eval: str | None = None  # the trec_eval family it was written as (map, P, ...)

    def _measure_params(self) -> tuple[bool, dict]:
        """(judged_only, the parameters the measure's own functions take)."""
        params = dict(self.params)
        return params.pop("judged_only", False), params

    def arguments(self, lists: QueryLists) -> dict:
        """The keyword arguments of the per-list function for one query: what ``evaluate``'s
        per-list reference, ``rk.explain.query``, the tests and the benchmark call it with."""
        judged_only, params = self._measure_params()
        if judged_only:
            condensed = _incomplete.condensed_list(lists.rels, lists.judged)
            lists = replace(lists, rels=condensed, judged=None)
        return self.measure.arguments(lists, self.k, **params)

    def reference(self, lists: QueryLists) -> float:
        """The per-list function's value for one query."""
        return self.measure.function(**self.arguments(lists))

    def steps(self, lists: QueryLists) -> Steps:
        """The per-list function's steps (the tables ``rankedu.explain`` shows) for one query;
        with ``judged_only``, the condensed list's table is added after the measure's."""
        steps = steps_of(self.measure.function, **self.arguments(lists))
        if self._measure_params()[0]:
            condensing = steps_of(_incomplete.condensed_list, lists.rels, lists.judged)
            steps = Steps(steps.value, {**steps.tables, **condensing.tables})
        return steps

    def by_query(self, ranked, ties: str = "trec_eval") -> np.ndarray:
        """Every query's value at once, from the kernel; with ``ties="average"``, the exact
        mean over the orders of tied documents (the other orders are ``ranked``'s own)."""
        kernel = self.measure.kernel
        if ties == "average":
            kernel = self.measure.average
            if kernel is None:
                supported = ", ".join(m.name for m in MEASURES.values() if m.average)
                raise ValueError(
                    f"ties: {self.name} does not support ties='average' (no exact mean over the "
                    f"orders of tied documents); measures that do: {supported}")
        judged_only, params = self._measure_params()
        if judged_only:
            condensed = condensed_run(ranked)
            if ranked.group is not None:  # a tie group keeps its judged documents
                condensed = replace(condensed, group=ranked.group[ranked.judged])
            ranked = condensed
        return kernel(ranked, self.k, **params)


_SPELLING = re.compile(r"^([A-Za-z][A-Za-z0-9_]*)(?:\(([^()]*)\))?(?:@(.*))?$")

# How each parameter type is written in a name: ASCII digits only (Python's int() and float()
# also read "１０", "٣", "1_000", "nan" and "inf", which no other tool's names accept).
# A tuple is numbers separated by ";" (the "," separates parameters).
_NUMBER = _names.NUMBER
_WRITTEN = {
    int: (re.compile(r"[0-9]+"), "an integer in ASCII digits"),
    float: (re.compile(_NUMBER), "a number in ASCII digits"),
    bool: (re.compile(r"True|False"), "True or False"),
    tuple: (re.compile(rf"{_NUMBER}(?:;{_NUMBER})*"),
            "numbers in ASCII digits separated by ';'"),
    dict: (re.compile(rf"\{{\s*(?:[0-9]+\s*:\s*{_NUMBER}\s*"
                      rf"(?:,\s*[0-9]+\s*:\s*{_NUMBER}\s*)*)?\}}"),
           "a mapping {grade: gain, ...} of integers >= 0 to numbers"),
}


def _read_mapping(text: str, written: str) -> dict:
    """``{1:3,2:9}`` as {1: 3.0, 2: 9.0}; a grade given twice is an error."""
    pairs = [item.split(":") for item in text.strip("{} ").split(",") if item.strip()]
    mapping = {int(grade): float(gain) for grade, gain in pairs}
    if len(mapping) < len(pairs):
        raise ValueError(f"measures: {written!r} gives a grade twice in its mapping")
    return mapping


def _parse_value(text: str, parameter: Parameter, written: str):
    pattern, spelled = _WRITTEN[parameter.type]
    if not pattern.fullmatch(text):
        raise ValueError(
            f"measures: {parameter.name} of {written!r} must be {spelled}, got {text!r}")
    if parameter.type is dict:
        return _read_mapping(text, written)
    if parameter.type is tuple:
        return tuple(float(number) for number in text.split(";"))
    return text == "True" if parameter.type is bool else parameter.type(text)


def _parse_cutoff(k: str, measure: Measure, written: str):
    if measure.cutoff_type is float:
        if not _WRITTEN[float][0].fullmatch(k) or not 0 <= float(k) <= 1:
            raise ValueError(f"measures: the cutoff of {written!r} must be a recall level in "
                             f"[0, 1] in ASCII digits")
        return float(k)
    if not _WRITTEN[int][0].fullmatch(k):
        raise ValueError(f"measures: the cutoff of {written!r} must be an integer >= 1 "
                         f"in ASCII digits")
    return as_cutoff(int(k), f"measures: the cutoff of {written!r}", allow_none=False)


def _parse_one(written: str) -> ParsedMeasure:
    match = _SPELLING.match(_names.canonical(written))
    measure = MEASURES.get(match.group(1)) if match else None
    if measure is None and _diversity.is_diversity(written):
        raise ValueError(f"measures: {written!r} is a diversity measure, of subtopic qrels: "
                         f"only evaluate and explain compute the diversity measures")
    if measure is None:
        hint = (_diversity.ndeval_suggestion(written)
                or _names.suggestion(written, [*MEASURES, *_diversity.MEASURES]))
        raise ValueError(f"measures: unknown measure {written!r}{hint} (known: "
                         f"{'; '.join(m.usage for m in MEASURES.values())}; and trec_eval's "
                         f"names, e.g. map, P.5,10, ndcg_cut_10, all_trec; on subtopic qrels, "
                         f"the diversity measures {_diversity.USAGES})")
    if match.group(3) is not None and "(" in match.group(3):
        raise ValueError(f"measures: {written!r}: parameters go before the cutoff, e.g. "
                         f"'{measure.name}(...)@k'")
    _, params_text, k = match.groups()
    if measure.cutoff == "required" and k is None:
        raise ValueError(f"measures: {measure.name} needs a cutoff, e.g. '{measure.name}@10'")
    if measure.cutoff == "none" and k is not None:
        raise ValueError(f"measures: {measure.name} takes no cutoff, got {written!r}")
    if k is not None:
        k = _parse_cutoff(k, measure, written)
    declared = {p.name: p for p in measure.parameters}
    params = {p.name: p.default for p in measure.parameters}
    given = set()
    # A comma separates parameters, except inside a mapping's braces.
    for item in [] if params_text is None else re.split(r",(?![^{}]*\})", params_text):
        key, equals, value = (part.strip() for part in item.partition("="))
        if not key:
            raise ValueError(f"measures: {written!r} has an empty parameter: write "
                             f"{measure.name}(name=value, ...) or {measure.name} alone")
        if key not in declared or not equals:
            known = ", ".join(declared) or "none"
            raise ValueError(f"measures: {written!r}: {measure.name} has no parameter "
                             f"{item.strip()!r} (its parameters: {known})")
        if key in given:
            raise ValueError(f"measures: {written!r} gives {key} twice")
        given.add(key)
        params[key] = _parse_value(value, declared[key], written)
    return ParsedMeasure(written, measure, k, params)


def parse(measures) -> list[ParsedMeasure]:
    """Parse measure names written as in ir_measures (``P@10``, ``AP``, ``nDCG@10``, ...).

    Parameters
    ----------
    measures : str or list of str
        The names; a repeated name is computed once.

    Returns
    -------
    list of ParsedMeasure
        In the order given; each keeps the name as written (the column ``evaluate`` returns).

    Raises
    ------
    ValueError
        Naming ``measures``: an unknown measure, a missing or surplus cutoff, a cutoff that is
        not an integer >= 1 in ASCII digits, or an unknown, empty, repeated or mistyped
        parameter.

    Notes
    -----
    The chapter :doc:`/book/evaluating_runs` explains the measures.

    References
    ----------
    - ``macavaney2022``: MacAvaney, S., Macdonald, C. and Ounis, I. (2022). Streamlining
      evaluation with ir-measures. ECIR 2022.

    Examples
    --------
    >>> from rankedu.trec.measures import parse
    >>> [(m.measure.name, m.k) for m in parse(["P@5", "RR", "RR@10", "Rprec"])]
    [('P', 5), ('RR', None), ('RR', 10), ('Rprec', None)]
    >>> parse(["R"])
    Traceback (most recent call last):
        ...
    ValueError: measures: R needs a cutoff, e.g. 'R@10'

    trec_eval's names give columns named as trec_eval prints them, in its order, and
    ir_measures' aliases are read as rankedu's names:

    >>> [(m.name, m.measure.name, m.k) for m in parse(["P.10,5", "map", "NDCG@10"])]
    [('map', 'AP', None), ('P_5', 'P', 5), ('P_10', 'P', 10), ('NDCG@10', 'nDCG', 10)]
    """
    if isinstance(measures, str):
        measures = [measures]
    if not hasattr(measures, "__iter__"):
        raise TypeError(f"measures must be a list of measure names, got {type(measures).__name__}")
    parsed, trec_eval, seen = [], [], set()
    for written in measures:
        if not isinstance(written, str):
            raise TypeError(f"measures must hold strings, got {written!r}")
        if written in seen:
            continue
        seen.add(written)
        try:
            parsed.append(_parse_one(written))
        except ValueError:
            if _names.trec_eval_spellings([written], warn=False) is None:  # (warned below)
                raise
            if not trec_eval:  # trec_eval's names take the place of the first of them
                parsed.append(None)
            trec_eval.append(written)
    if trec_eval:
        at = parsed.index(None)
        parsed[at:at + 1] = _trec_eval_measures(trec_eval)
        unique = {}
        for spec in parsed:  # "AP" and "map" are two columns; "P@5" and "P.5" too
            unique.setdefault(spec.name, spec)
        parsed = list(unique.values())
    if not parsed:
        raise ValueError("measures must name at least one measure")
    return parsed


# What a family that needs another -R than qrels does, and what it is computed from.
_NEEDS = {
    "qrels_jg": ("averages over judgment groups",
                 "qrels of judgment groups (rel_format='qrels_jg')"),
    "prefs": ("compares preferences",
              "preference judgments (rel_format='prefs' or 'qrels_prefs')"),
}


def _trec_eval_measures(written: list[str]) -> list[ParsedMeasure]:
    """trec_eval's names (``rankedu.trec.names``) as measures named as trec_eval prints them,
    in its order; what only its layout prints (runid, num_q, relstring) is left to the
    command when a set brought it, and refused when named."""
    specs = []
    for spelled in _names.trec_eval_spellings(written):
        needs = _names.FAMILIES[spelled.family].rel_format
        if needs != "qrels":
            what, given = _NEEDS[needs]
            raise ValueError(f"measures: trec_eval's {spelled.family} {what}: only the "
                             f"trec_eval layout computes it, from {given}")
        if spelled.rankedu is None:
            if spelled.family in {name.partition(".")[0] for name in written}:
                raise ValueError(f"measures: trec_eval's {spelled.family} is not a number per "
                                 f"query: only the command's trec_eval layout prints it "
                                 f"(rankedu evaluate --format trec_eval)")
            continue
        spec = _parse_one(spelled.rankedu)
        specs.append(replace(spec, name=spelled.column, trec_eval=spelled.family))
    return specs
