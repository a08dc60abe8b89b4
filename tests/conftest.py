"""Shared test settings and helpers for the rankedu test suite."""

import os
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, settings

import rankedu as rk
from rankedu.datasets import DATA
from rankedu.trec import fast_read as _fast_read

# The machine is shared: no per-example deadline (timings are noisy), and a modest number of
# examples by default. HYPOTHESIS_PROFILE=thorough runs many more.
settings.register_profile(
    "rankedu",
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", deadline=None, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "rankedu"))


def _numeric_columns(table):
    return [
        name
        for name in table.columns
        if pd.api.types.is_numeric_dtype(table[name]) and not pd.api.types.is_bool_dtype(table[name])
    ]


@pytest.fixture
def column_like():
    """Return the name of the table's column whose values equal ``expected``.

    The contract fixes what an explanation's table holds (one row per step, a column for each
    intermediate quantity of the formula) but not the spelling of its column headers, so tests
    look the column up by its values and fail with the table printed when none matches.
    """

    def find(table, expected, *, rel=1e-9, abs=1e-12):
        expected = np.asarray(expected, dtype=float)
        for name in _numeric_columns(table):
            values = table[name].to_numpy(dtype=float)
            if values.shape == expected.shape and np.allclose(
                values, expected, rtol=rel, atol=abs, equal_nan=True
            ):
                return name
        raise AssertionError(
            f"no column of the table equals {expected.tolist()}; table:\n{table.to_string()}"
        )

    return find


@pytest.fixture
def running_result():
    """The last numeric column's last value: where an explanation's table ends."""

    def last(table):
        numeric = _numeric_columns(table)
        assert numeric, f"table has no numeric column:\n{table.to_string()}"
        assert numeric[-1] == table.columns[-1], (
            f"the table's last column {table.columns[-1]!r} is not the running result:\n"
            f"{table.to_string()}"
        )
        return float(table[numeric[-1]].iloc[-1])

    return last


# A log of two users, both classes and some grades in each (tests/test_logs.py,
# tests/test_logs_engines.py).
SMALL_LOG = pd.DataFrame({"user": [1, 1, 2, 2], "clicked": [1, 0, 1, 0],
                          "score": [0.3, 0.1, 0.2, 0.4], "grade": [2, 0, 1, 0]})


# Graded measures that tests/test_evaluate.py checks against its own ranking of every generated
# run and tests/test_join.py against a shuffled run: a sample; every measure of the registry is
# under tests/test_registry.py, test_ties.py, test_validation.py and test_explain.py.
ALL_MEASURES = ["P@1", "P@5", "P@30", "R@3", "R@10", "AP", "AP@3", "AP@10", "RR", "RR@2",
                "nDCG", "nDCG@1", "nDCG@5", "Rprec", "ERR", "ERR@3", "ERR@10"]


def trec_ranking(qrels, run, threshold=1):
    """(rels, pool, n_relevant) of one query, ranked the way trec_eval ranks.

    ``qrels`` maps docno to grade and ``run`` docno to score. trec_eval sorts by score
    descending and breaks ties by docno descending (string comparison); unjudged documents
    have grade 0; the pool is every judged grade; relevant means grade >= ``threshold``.
    """
    order = sorted(run.items(), key=lambda item: (item[1], item[0]), reverse=True)
    rels = [qrels.get(docno, 0) for docno, _ in order]
    pool = list(qrels.values())
    n_relevant = sum(g >= threshold for g in pool)
    return rels, pool, n_relevant


class TrecCase:
    """Seeded judgments and a run in pytrec_eval's dict form, plus the ranked lists rankedu sees.

    Built to hit trec_eval's corner cases: tied scores, runs shorter than the cutoffs, queries
    with no relevant document, judged documents the run never retrieved, unjudged documents the
    run did retrieve, and grades 0..4. Document ids are ``d0``, ``d1``, … ``d29`` so that the
    string order trec_eval uses to break ties (``"d9" > "d10"``) differs from the numeric one.
    """

    def __init__(self, seed=20240611, n_queries=150):
        rng = np.random.default_rng(seed)
        self.qrels, self.run = {}, {}
        for q in range(n_queries):
            qid = f"q{q}"
            docs = [f"d{j}" for j in rng.permutation(30)]
            n_judged = int(rng.integers(1, 16))
            judged = docs[:n_judged]
            if q % 5 == 0:
                grades = np.zeros(n_judged, dtype=int)  # a query with no relevant document
            else:
                grades = rng.integers(0, 5, size=n_judged)
            self.qrels[qid] = {d: int(g) for d, g in zip(judged, grades)}
            n_retrieved = int(rng.integers(1, 21))
            retrieved = rng.choice(docs, size=n_retrieved, replace=False)
            # Half-point scores on a small range, so that many scores tie.
            scores = rng.integers(0, 8, size=n_retrieved) / 2.0
            self.run[qid] = {str(d): float(s) for d, s in zip(retrieved, scores)}

    def ranked(self, qid):
        """(rels, pool, n_relevant) of one query, ranked the way trec_eval ranks.

        trec_eval sorts by score descending and breaks ties by docno descending (string
        comparison); unjudged documents have grade 0; the pool is every judged grade; a document
        is relevant at grade >= 1.
        """
        return trec_ranking(self.qrels[qid], self.run[qid])

    def trec_eval(self, measures):
        """pytrec_eval's per-query results for ``measures`` (trec_eval names)."""
        import pytrec_eval

        return pytrec_eval.RelevanceEvaluator(self.qrels, set(measures)).evaluate(self.run)


@pytest.fixture(scope="session")
def trec_case():
    return TrecCase()


#: trec_eval 10.0's own test files, shipped in the package with its licence (rankedu.datasets;
#: see the README there), so that a clone runs every comparison with trec_eval.
TREC_EVAL_DATA = DATA


class TrecReference:
    """trec_eval 10.0's own test data (``rankedu/data/trec_eval``).

    ``qrels.test`` (grades 0/1) and ``qrels.rel_level`` (grades -1..4) judge ``results.test``
    (500 documents per topic, with tied scores); ``out.test.aq`` holds trec_eval's per-query
    output for the first and ``out.test.aql`` for the second with ``-l2`` (relevant means grade
    >= 2). Values are printed to 4 decimals.
    """

    def __init__(self, directory=TREC_EVAL_DATA):
        self.run = self._read(directory / "results.test", docno=2, value=4, cast=float)
        self.qrels = {
            "test": self._read(directory / "qrels.test", docno=2, value=3, cast=int),
            "rel_level": self._read(directory / "qrels.rel_level", docno=2, value=3, cast=int),
        }
        self.expected = {
            "test": self._read_output(directory / "out.test.aq"),
            "rel_level": self._read_output(directory / "out.test.aql"),
        }

    @staticmethod
    def _read(path, docno, value, cast):
        table = {}
        for line in path.read_text().splitlines():
            fields = line.split()
            table.setdefault(fields[0], {})[fields[docno]] = cast(fields[value])
        return table

    @staticmethod
    def _read_output(path):
        expected = {}
        for line in path.read_text().splitlines():
            measure, qid, value = line.split()
            if qid != "all" and not measure.startswith(("runid", "relstring")):
                expected.setdefault(qid, {})[measure] = float(value)
        return expected

    def queries(self, judgments="test", threshold=1):
        """(qid, rels, pool, n_relevant, trec_eval's measures) for every judged query."""
        qrels = self.qrels[judgments]
        for qid, measures in sorted(self.expected[judgments].items()):
            yield (qid, *trec_ranking(qrels[qid], self.run[qid], threshold), measures)


def assert_as_trec_eval_prints(result, expected, names) -> int:
    """Every query's value and the summary (:func:`rankedu.summary`: a sum for the counts, a
    mean added in query order for the rest) of ``result`` (rk.evaluate's frame), printed as
    trec_eval prints them (a count as an integer, the rest to four decimals), equal trec_eval's,
    ``expected`` mapping (trec_eval's measure, qid or "all") to the printed text and ``names``
    trec_eval's measure names to rankedu's. Returns how many per-query values were compared."""
    from rankedu.trec.measures import parse

    summary = rk.summary(result)
    compared = 0
    for trec_name, ours in names.items():
        count = parse([ours])[0].measure.summary == "sum"
        for qid in result.index:
            value = result.loc[qid, ours]
            shown = f"{int(value)}" if count else f"{value:.4f}"
            assert shown == expected[trec_name, qid], (trec_name, qid, value)
            compared += 1
        shown = f"{int(summary[ours])}" if count else f"{summary[ours]:.4f}"
        assert shown == expected[trec_name, "all"], (trec_name, summary[ours])
    return compared


@pytest.fixture(scope="session")
def trec_reference():
    return TrecReference()


@pytest.fixture(params=["arrow", "pandas"])
def reader(request, monkeypatch):
    """The test runs on both readers: pyarrow's fast path (when installed) and pandas alone."""
    if request.param == "arrow" and not _fast_read.available():
        pytest.skip("pyarrow is not installed")
    if request.param == "pandas":
        monkeypatch.setattr(_fast_read, "pa", None)
    return request.param


# --- the registry, as the tests write it ---------------------------------------------------------

# A valid value other than the default for each parameter a measure declares, as written in a
# name. A new parameter needs one here (test_every_declared_parameter_has_an_example says so).
EXAMPLES = {"judged_only": "True", "p": "0.5", "T": "2", "depth": "4", "gains": "{2:3,3:4.5}",
            "points": "0.2;0.5;0.8", "beta": "2", "mult": "0.2", "a": "2", "b": "-2", "c": "-1",
            "d": "0.5", "n_docs": "1000"}

# The cutoffs of a measure whose cutoff is a recall level (IPrec@0.25), for every rank cutoff
# list: 0, a level whose round(level * R) falls on a half, and the ends.
RECALL_CUTOFFS = (0.0, 0.25, 0.5, 1.0)


def spellings(measure, cutoffs=(1, 3, 10)):
    """The measure written without a cutoff (when it may be) and at ``cutoffs``, then with
    each parameter set to its example (at the middle cutoff when the measure takes one); a
    recall-level cutoff at :data:`RECALL_CUTOFFS` instead."""
    at = [f"@{k}" for k in (RECALL_CUTOFFS if measure.cutoff_type is float else cutoffs)]
    written = [measure.name + cutoff for cutoff in
               {"required": at, "optional": ["", *at], "none": [""]}[measure.cutoff]]
    middle = "" if measure.cutoff == "none" else at[len(at) // 2]
    written += [f"{measure.name}({p.name}={EXAMPLES[p.name]}){middle}"
                for p in measure.parameters]
    return written


def registry_arguments(measure, rels, k=3) -> dict:
    """The keyword arguments ``evaluate`` gives ``measure``'s per-list function for one query
    ranked as ``rels``, at cutoff ``k`` (given as it is, a bad one too; none for Rprec, RBP...):
    a pool of eight documents of each positive grade (up to 3, or 1 for the measures that read
    grades as gains in [0, 1]), R = N = 10, ERR's g_max 3. A measure whose cutoff is a recall
    level (IPrec) is at recall 0.5 whatever ``k``: ``k`` is a rank."""
    from rankedu.trec.measures import QueryLists, parse

    level = measure.cutoff_type is float
    written = measure.name + (("@0.5" if level else "@1") if measure.cutoff == "required" else "")
    spec = parse([written])[0]
    if not level:
        spec = replace(spec, k=None if measure.cutoff == "none" else k)
    pool = [1] * 8 if measure.unit_gains else [3] * 8 + [2] * 8 + [1] * 8
    lists = QueryLists(rels=rels, pool=pool, n_relevant=10, n_nonrelevant=10, max_grade=3)
    return spec.arguments(lists)


def registry_calls():
    """For every per-list function of the registry, ``call(module, rels, k)``: the function (or,
    with ``module=rk.explain``, its explainer) called with :func:`registry_arguments` of the
    first measure that names it (GMAP names AP's function without AP's cutoff)."""
    from rankedu.trec.measures import MEASURES

    def caller(measure):
        name = measure.function.__name__
        return lambda module, rels, k=3: getattr(module, name)(
            **registry_arguments(measure, rels, k))

    calls = {}
    for measure in MEASURES.values():
        calls.setdefault(measure.function.__name__, caller(measure))
    return calls
