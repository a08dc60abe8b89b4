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
from rankedu.trec import ties as _ties


__all__ = ["MEASURES", "Measure", "Parameter", "ParsedMeasure", "QueryLists", "parse"]


@dataclass(frozen=True)
class QueryLists:
    """One query as the per-list functions see it under ``evaluate``'s conventions.

    ``rels`` are the gains of the retrieved documents in trec_eval's order (the judged grade, 0
    when unjudged or negative), ``pool`` the gains of every judged document of the query,
    ``n_relevant`` the judged documents with a grade >= ``threshold``, and ``max_grade`` ERR's
    g_max. ``judged`` says which retrieved documents were judged with a grade >= 0 (None:
    every one), and ``n_nonrelevant`` counts the judged documents with 0 <= grade <
    ``threshold`` (bpref's N).
    """

    rels: np.ndarray
    pool: np.ndarray
    n_relevant: int
    threshold: float = 1
    max_grade: float = 4
    judged: np.ndarray | None = None
    n_nonrelevant: int = 0


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

    @property
    def usage(self) -> str:
        """How the measure is written: ``P@k``; ``AP, AP@k``; ``Rprec``."""
        forms = {"required": [f"{self.name}@k"], "optional": [self.name, f"{self.name}@k"],
                 "none": [self.name]}[self.cutoff]
        if self.parameters:
            spelled = ", ".join(f"{p.name}={p.default!r}" for p in self.parameters)
            forms.append(f"{self.name}({spelled})")
        return ", ".join(forms)


def _k_only(lists, k):
    return {"rels": lists.rels, "k": k, "threshold": lists.threshold}


def _all_judged(lists):
    """Which retrieved documents were judged (every one when ``lists`` does not say)."""
    return np.ones(len(lists.rels), bool) if lists.judged is None else lists.judged


def _k_and_denominator(lists, k):
    return {**_k_only(lists, k), "n_relevant": lists.n_relevant}


def _denominator(lists, k, **params):
    """The list, R and the threshold, for the measures of the whole retrieved set."""
    return {"rels": lists.rels, "n_relevant": lists.n_relevant, "threshold": lists.threshold,
            **params}


# trec_eval's -J: the measure is computed on the condensed list, the run without its unjudged
# documents. ParsedMeasure applies it (to the per-list input and to the kernel's), so that a
# measure offers it by declaring this parameter.
_JUDGED_ONLY = Parameter("judged_only", bool, False,
                         "drop the unjudged documents first (a condensed list; trec_eval -J)")

# cwl-eval's --max_depth: the user models read every list to this many ranks, padded with
# zero-gain documents, and normalise their weights over them.
_DEPTH = Parameter("depth", int, _user.CWL_DEPTH, "ranks read, the list zero-padded to them")

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
    Measure("RR", "reciprocal rank of the first relevant document (in the top k; 0 when none)",
            "reciprocal_rank", "optional", _rr.reciprocal_rank, _k_only,
            _rr._reciprocal_rank_by_query, average=_ties.reciprocal_rank_average),
    Measure("Success", "1 when a relevant document is in the top k, else 0 (trec_eval's "
            "success_k)", "reciprocal_rank", "required", _rr.success_at_k, _k_only,
            _rr._success_at_k_by_query),
    Measure("nDCG", "DCG (of the top k) over the DCG of the ideal ranking of every judged "
            "document (cut at k)", "ndcg", "optional", _dcg.ndcg,
            lambda lists, k: {"rels": lists.rels, "k": k, "pool": lists.pool},
            _dcg._ndcg_by_query, parameters=(_JUDGED_ONLY,),
            average=_ties.linear(_dcg._ndcg_by_query)),
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
            parameters=(_JUDGED_ONLY,), average=_set._num_retrieved_by_query),
    Measure("NumRel", "the number of relevant judged documents, R (trec_eval's num_rel)",
            "evaluating_runs", "none", _set.num_relevant, _denominator,
            _set._num_relevant_by_query, parameters=(_JUDGED_ONLY,),
            average=_set._num_relevant_by_query),
    Measure("NumRelRet", "the number of relevant documents retrieved (trec_eval's num_rel_ret)",
            "evaluating_runs", "none", _set.num_relevant_retrieved,
            lambda lists, k: {"rels": lists.rels, "threshold": lists.threshold},
            _set._num_relevant_retrieved_by_query,
            parameters=(_JUDGED_ONLY,), average=_set._num_relevant_retrieved_by_query),
    Measure("NumNonRelJudgedRet", "the number of judged non-relevant documents retrieved, "
            "unjudged and negative grades left out (trec_eval's num_nonrel_judged_ret)",
            "incomplete_judgments", "none", _set.num_nonrelevant_judged_retrieved,
            lambda lists, k: {"rels": lists.rels, "judged": lists.judged,
                              "threshold": lists.threshold},
            _set._num_nonrelevant_judged_retrieved_by_query,
            parameters=(_JUDGED_ONLY,), average=_set._num_nonrelevant_judged_retrieved_by_query),
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
    Measure("Bpref", "bpref: each judged relevant document scores 1 - min(m, R) / min(N, R), m the "
            "judged non-relevant documents above it; the sum divided by R (unjudged skipped)",
            "incomplete_judgments", "none", _incomplete.bpref,
            lambda lists, k: {"rels": lists.rels, "judged": lists.judged,
                              "n_relevant": lists.n_relevant,
                              "n_nonrelevant": lists.n_nonrelevant,
                              "threshold": lists.threshold},
            _incomplete._bpref_by_query),
    Measure("Judged", "the share of the top min(k, retrieved) documents that were judged",
            "incomplete_judgments", "required", _incomplete.judged_at_k,
            lambda lists, k: {"judged": _all_judged(lists), "k": k},
            _incomplete._judged_at_k_by_query,
            average=_ties.linear(_incomplete._judged_at_k_by_query)),
]}


@dataclass(frozen=True)
class ParsedMeasure:
    """A measure as the caller wrote it: ``name`` (the result's column), the declaration, the
    cutoff and the parameters."""

    name: str
    measure: Measure
    k: int | None
    params: dict

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
_WRITTEN = {
    int: (re.compile(r"[0-9]+"), "an integer in ASCII digits"),
    float: (re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"),
            "a number in ASCII digits"),
    bool: (re.compile(r"True|False"), "True or False"),
}


def _parse_value(text: str, parameter: Parameter, written: str):
    pattern, spelled = _WRITTEN[parameter.type]
    if not pattern.fullmatch(text):
        raise ValueError(
            f"measures: {parameter.name} of {written!r} must be {spelled}, got {text!r}")
    return text == "True" if parameter.type is bool else parameter.type(text)


def _parse_one(written: str) -> ParsedMeasure:
    match = _SPELLING.match(written)
    measure = MEASURES.get(match.group(1)) if match else None
    if measure is None:
        raise ValueError(f"measures: unknown measure {written!r}; known: "
                         f"{'; '.join(m.usage for m in MEASURES.values())}")
    _, params_text, k = match.groups()
    if measure.cutoff == "required" and k is None:
        raise ValueError(f"measures: {measure.name} needs a cutoff, e.g. '{measure.name}@10'")
    if measure.cutoff == "none" and k is not None:
        raise ValueError(f"measures: {measure.name} takes no cutoff, got {written!r}")
    if k is not None:
        if not _WRITTEN[int][0].fullmatch(k):
            raise ValueError(f"measures: the cutoff of {written!r} must be an integer >= 1 "
                             f"in ASCII digits")
        k = as_cutoff(int(k), f"measures: the cutoff of {written!r}", allow_none=False)
    declared = {p.name: p for p in measure.parameters}
    params = {p.name: p.default for p in measure.parameters}
    given = set()
    for item in [] if params_text is None else params_text.split(","):
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
    >>> parse(["P"])
    Traceback (most recent call last):
        ...
    ValueError: measures: P needs a cutoff, e.g. 'P@10'
    """
    if isinstance(measures, str):
        measures = [measures]
    if not hasattr(measures, "__iter__"):
        raise TypeError(f"measures must be a list of measure names, got {type(measures).__name__}")
    parsed, seen = [], set()
    for written in measures:
        if not isinstance(written, str):
            raise TypeError(f"measures must hold strings, got {written!r}")
        if written not in seen:
            seen.add(written)
            parsed.append(_parse_one(written))
    if not parsed:
        raise ValueError("measures must name at least one measure")
    return parsed
