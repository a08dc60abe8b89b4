"""Step-by-step explanations: every metric, as the tables the book computes it with.

``rk.explain.<metric>(same arguments)`` returns an :class:`Explanation` whose ``value`` is the
number ``rk.<metric>`` returns (it is computed from the very same arrays) and whose ``table``
lays the computation out one row per step — rank, pair, threshold or group — with a column for
each intermediate quantity of the formula, ending in the running result.

>>> import rankedu as rk
>>> rk.explain.dcg([3, 2, 3])
DCG
 i  rel_i  log2(i+1)  rel_i/log2(i+1)   DCG@i
 1    3.0   1.000000          3.00000 3.00000
 2    2.0   1.584963          1.26186 4.26186
 3    3.0   2.000000          1.50000 5.76186
<BLANKLINE>
dcg = 5.7618595071429155

Tables grow with the input, never with a cutoff: when ``k`` is past the end of a list, the ranks
after the last document (which hold no document and count as non-relevant) are listed one by
one only up to 1,000 of them; then a single row at rank ``k`` closes the table, with the exact
running result.
"""

from __future__ import annotations

import functools
import html

import pandas as pd

from rankedu._public import public_modules as _public_modules
from rankedu.core.steps import Steps, steps_of
from rankedu.metrics import classification as _classification
from rankedu.trec import diversity as _diversity
from rankedu.trec import ties as _ties
from rankedu.trec.join import _one_query
from rankedu.trec.measures import parse


class Explanation:
    """A metric's value and the tables it was computed from.

    Attributes
    ----------
    name : str
        The metric.
    value : float
        The same number as the plain function returns.
    tables : dict of str to pandas.DataFrame
        Every table of the computation (NDCG: the DCG and the ideal DCG; MAP: the per-query
        summary and each query's AP); the first is the main one.
    table : pandas.DataFrame
        The main table.
    """

    def __init__(self, name: str, value, tables: dict[str, pd.DataFrame]):
        self.name = name
        self.value = value
        self.tables = tables

    @classmethod
    def _from_steps(cls, name: str, steps: Steps) -> "Explanation":
        tables = {title: pd.DataFrame(columns) for title, columns in steps.tables.items()}
        return cls(name, steps.value, tables)

    @property
    def table(self) -> pd.DataFrame:
        return next(iter(self.tables.values()))

    def __repr__(self) -> str:
        return self.to_string()

    def to_string(self, top: int | None = None) -> str:
        """The tables and the value as text, as the repr shows them; ``top`` cuts each table to
        its first ``top`` rows, followed by a line such as ``… 490 more ranks``."""
        parts = [f"{title}\n{_table_text(table, top)}" for title, table in self.tables.items()]
        return "\n\n".join([*parts, f"{self.name} = {self.value!r}"])

    def _repr_html_(self) -> str:
        parts = [
            f"<h4>{html.escape(title)}</h4>{table.to_html(index=_labelled(table))}"
            for title, table in self.tables.items()
        ]
        value = f"<p><b>{html.escape(self.name)}</b> = {html.escape(repr(self.value))}</p>"
        return "".join([*parts, value])


def _table_text(table: pd.DataFrame, top: int | None = None) -> str:
    """A table as text, cut to its first ``top`` rows (all when None) with a line saying how
    many more ranks (or rows, in a table without ranks) there are."""
    shown = table if top is None else table.head(top)
    # A table the cut leaves empty shows only the line (an empty one still says so).
    lines = [shown.to_string(index=_labelled(table))] if len(shown) or not len(table) else []
    if len(shown) < len(table):
        more = len(table) - len(shown)
        unit = "rank" if {"i", "rank"} & set(table.columns) else "row"
        lines.append(f"… {more} more {unit}{'s' if more > 1 else ''}")
    return "\n".join(lines)


def _labelled(table: pd.DataFrame) -> bool:
    """Whether a table's index carries labels worth showing (a row number does not)."""
    return not isinstance(table.index, pd.RangeIndex)


def _explainer(metric):
    """``explain.<name>``: the metric's signature, explaining its module's ``_<name>_steps``."""
    name = metric.__name__

    @functools.wraps(metric)
    def explain(*args, **kwargs) -> Explanation:
        return Explanation._from_steps(name, steps_of(metric, *args, **kwargs))

    explain.__doc__ = (
        f"Explain :func:`rankedu.{name}` step by step.\n\n"
        f"Takes the same arguments and returns an :class:`Explanation` whose ``value`` equals "
        f"``rankedu.{name}(...)`` and whose ``table`` shows every step."
    )
    return explain


def _explainers() -> dict:
    """One explainer per public function whose module computes it in ``_<name>_steps``."""
    found = {}
    for module in _public_modules():
        for name in module.__all__:
            if hasattr(module, f"_{name}_steps"):
                found[name] = _explainer(getattr(module, name))
    return found


_EXPLAINERS = _explainers()
globals().update(_EXPLAINERS)


def confusion_matrix(y_true, y_pred) -> Explanation:
    """Explain :func:`rankedu.confusion_matrix`: the counts laid out as the 2 x 2 matrix.

    Rows are the true class and columns the predicted one; ``value``
    is the :class:`~rankedu.metrics.classification.ConfusionMatrix`.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.explain.confusion_matrix([1, 1, 0, 0, 0], [1, 0, 1, 0, 0]).table
              predict P  predict N
    target P          1          1
    target N          1          2
    """
    counts = _classification.confusion_matrix(y_true, y_pred)
    table = pd.DataFrame(
        {"predict P": [counts.tp, counts.fp], "predict N": [counts.fn, counts.tn]},
        index=["target P", "target N"],
    )
    return Explanation("confusion_matrix", counts, {"confusion matrix": table})


def query(qrels, run, qid, measure, *, threshold=1, max_grade=None, single_precision=False,
          ties="trec_eval", conventions=None):
    """Explain one query's value of a measure of :func:`rankedu.evaluate`, step by step.

    The query's documents are ranked as ``evaluate`` (and trec_eval) ranks them; the measure's
    per-list function (declared in :data:`rankedu.trec.measures.MEASURES`) is explained on that
    list under ``evaluate``'s conventions (negative grades count 0, R from the qrels, ERR's
    ``max_grade`` 4 unless given). Given a list of measures, the files are read and the query
    ranked once for all of them.

    Parameters
    ----------
    qrels, run : path, pandas.DataFrame or dict
        As for :func:`rankedu.evaluate`.
    qid : str
        The query.
    measure : str or list of str
        A measure name, as ``evaluate`` takes it (``"nDCG@10"``, ``"AP"``, ...), or a list of
        them.
    threshold, max_grade, single_precision
        As for :func:`rankedu.evaluate`.
    ties : {"trec_eval", "optimistic", "pessimistic"}, default "trec_eval"
        The order of tied documents, as for :func:`rankedu.evaluate`. ``"average"`` is a mean
        over many orders, not one list to explain: a ValueError naming ``ties``.
    conventions : {"ndeval", "textbook"}, optional
        For the diversity measures (``alpha_nDCG@k``, ``ERR_IA@k``, ``NRBP``, ``P_IA@k``,
        ``StRecall@k``) only, as for :func:`rankedu.evaluate`: ndeval's (None, the default)
        or the papers'. Their ``qrels`` are subtopic qrels; the tables are those of the
        per-list function (``rk.explain.alpha_ndcg``, ...) on the query's intents, named by
        their subtopics, and for ndeval's ERR_IA a last table divides by its "ideal ideal".
        The ranking's ``intents`` column holds each document's intents; ``threshold`` is the
        subtopic grade that is relevant, and the other options are refused.

    Returns
    -------
    Explanation or dict of str to Explanation
        For one name, its explanation; for a list, a dict from each name (as written, in the
        order given) to its explanation. ``value`` is ``evaluate``'s value for this query;
        ``tables`` hold the measure's step tables (the first, ``table``, ends in that value)
        and ``"ranking"``: rank, docno, score, judged and grade of every retrieved document,
        best first, and, when some scores tie, ``tie``: the number of the document's tie group
        (0 for an untied score). Then a table ``"ties"``, one row per tie group: its ranks,
        documents, relevant documents and grades; ``straddles k`` for a measure with a cutoff
        (the group begins at or above rank k and ends below it); and the query's value of the
        measure with that group alone put in the pessimistic and in the optimistic order.

    Raises
    ------
    ValueError
        Naming ``qid`` when the qrels or the run lack the query, ``measures`` for a bad name,
        ``ties`` for a bad or an ``"average"`` order, and as ``evaluate`` does for bad input.
    TypeError
        Naming ``measure`` when it is neither a name nor a list of names.

    Notes
    -----
    The chapter :doc:`/book/evaluating_runs` explains it.

    Examples
    --------
    >>> import rankedu as rk
    >>> qrels = {"q1": {"d1": 2, "d2": 0, "d3": 1}}
    >>> run = {"q1": {"d1": 0.5, "d2": 0.9, "d4": 0.1}}
    >>> explanation = rk.explain.query(qrels, run, "q1", "AP")
    >>> explanation.tables["ranking"]
       rank docno  score  judged  grade
    0     1    d2    0.9    True      0
    1     2    d1    0.5    True      2
    2     3    d4    0.1   False      0
    >>> explanation.value
    0.25
    >>> {name: e.value for name, e in rk.explain.query(qrels, run, "q1", ["RR", "P@2"]).items()}
    {'RR': 0.5, 'P@2': 0.5}

    Two documents tied across the cutoff of P@1:

    >>> run = {"q1": {"d1": 0.9, "d2": 0.9, "d4": 0.1}}
    >>> explanation = rk.explain.query(qrels, run, "q1", "P@1")
    >>> explanation.tables["ranking"]
       rank docno  score  judged  grade  tie
    0     1    d2    0.9    True      0    1
    1     2    d1    0.9    True      2    1
    2     3    d4    0.1   False      0    0
    >>> explanation.tables["ties"]
       tie ranks  documents  relevant grades  straddles k  pessimistic  optimistic
    0    1   1-2          2         1   0, 2         True          0.0         1.0
    """
    if isinstance(measure, str):
        names = [measure]
    elif isinstance(measure, (list, tuple)) and all(isinstance(m, str) for m in measure):
        names = list(measure)
    else:
        raise TypeError(f"measure must be a measure name (a str) or a list of them, got "
                        f"{type(measure).__name__}")
    if _diversity.names_diversity(names):
        _diversity.refuse_options(query, max_grade=max_grade,
                                  single_precision=single_precision, ties=ties)
        explained = _diversity.explain_query(
            qrels, run, qid, names, threshold=threshold,
            conventions="ndeval" if conventions is None else conventions)
        explanations = {}
        for name, (value, tables, ranking) in explained.items():
            explanation = Explanation._from_steps(f"{name} of query {qid}", Steps(value, tables))
            explanation.tables["ranking"] = ranking.copy()
            explanations[name] = explanation
        return explanations[names[0]] if isinstance(measure, str) else explanations
    _diversity.refuse_conventions(conventions, names)
    specs = parse(names)
    if ties == "average":
        raise ValueError("ties: explain.query shows one order of the tied documents; "
                         "ties='average' is a mean over all of them (evaluate computes it)")
    frame, lists, ranked = _one_query(
        qrels, run, qid, threshold=threshold, max_grade=max_grade,
        single_precision=single_precision, specs=specs, ties=ties,
    )
    tie = _ties.tie_numbers(ranked)
    if tie.any():
        frame["tie"] = tie
    explanations = {}
    for spec in specs:
        explanation = Explanation._from_steps(f"{spec.name} of query {qid}", spec.steps(lists))
        explanation.value = float(spec.by_query(ranked)[0])
        explanation.tables["ranking"] = frame.copy()
        if tie.any():
            explanation.tables["ties"] = _tie_table(spec, ranked, frame)
        explanations[spec.name] = explanation
    return explanations[specs[0].name] if isinstance(measure, str) else explanations


def _tie_table(spec, ranked, frame) -> pd.DataFrame:
    """One row per tie group of one query: where it lies and what its order can change."""
    rows = []
    for number, members in frame[frame["tie"] > 0].groupby("tie"):
        first, last = int(members["rank"].min()), int(members["rank"].max())
        alone = _ties.only_group(ranked, int(members.index[0]))
        row = {"tie": number, "ranks": f"{first}-{last}", "documents": len(members),
               "relevant": int(ranked.relevant[members.index].sum()),
               "grades": ", ".join(str(g) for g in members["grade"])}
        cutoff = spec.k if spec.measure.name != "Rprec" else int(ranked.n_relevant[0])
        if cutoff is not None:
            row["straddles k"] = first <= cutoff < last
        for order in ("pessimistic", "optimistic"):
            row[order] = float(spec.by_query(_ties.reorder(alone, order))[0])
        rows.append(row)
    return pd.DataFrame(rows)


__all__ = sorted(["Explanation", "confusion_matrix", "query", *_EXPLAINERS])
