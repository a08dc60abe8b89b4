"""Tied scores as an explicit choice: ``evaluate(..., ties=...)``, ``tie_interval``, the warning.

``ties="average"`` is checked against brute force: the mean, over every order of every tie group,
of the per-list reference function (``rankedu.trec.measures``' ``reference``, not the kernels) on the
list in that order. The optimistic and pessimistic orders bound trec_eval's and the average.
"""

import itertools
import math
import re
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import rankedu as rk
from conftest import TREC_EVAL_DATA, spellings
from rankedu.cli import main
from rankedu.trec.measures import MEASURES, QueryLists, parse

# Every measure of the registry, with and without a cutoff where it takes one, and with each
# parameter set (a measure added to the registry is under every test here at once); those
# with an exact mean over the orders of tied documents, and those without.
ALL = [written for measure in MEASURES.values() for written in spellings(measure, (2, 3))]
AVERAGED = [written for written in ALL if parse([written])[0].measure.average is not None]
NOT_AVERAGED = [written for written in ALL if written not in AVERAGED]
UNIT_GAINS = [written for written in ALL if parse([written])[0].measure.unit_gains]
# Measures the optimistic and pessimistic orders do not bound: G (a higher gain moved up can
# lower it, m_G.c discounting by the gain missed so far), RBPtrecResid (a residual, at its
# least in the optimistic order) and infAP (a pooled, unjudged document above a relevant one
# raises it: with d4 graded -1 tied with relevant d2 and d3, trec_eval's order d4, d3, d2
# gives 0.625, the optimistic d3, d2, d4 0.583).
UNBOUNDED = [w for w in ALL if parse([w])[0].measure.name in ("G", "RBPtrecResid", "infAP")]
UNJUDGED = None


@st.composite
def tied_runs(draw, max_docs=6, grades=(UNJUDGED, -1, 0, 1, 2, 3)):
    """Two queries, each a handful of documents with scores from three values (many ties),
    judged with ``grades`` or not at all, and a few judged documents the run misses."""
    qrels, run = {}, {}
    for q in ("q1", "q2"):
        n = draw(st.integers(1, max_docs))
        scores = draw(st.lists(st.sampled_from([0.1, 0.2, 0.3]), min_size=n, max_size=n))
        judged = draw(st.lists(st.sampled_from(grades), min_size=n, max_size=n))
        missed = draw(st.lists(st.sampled_from([g for g in grades if g is not None]),
                               max_size=2))
        run[q] = {f"d{i}": s for i, s in enumerate(scores)}
        qrels[q] = {f"d{i}": g for i, g in enumerate(judged) if g is not None}
        qrels[q].update({f"m{i}": g for i, g in enumerate(missed)})
        if not qrels[q]:
            qrels[q] = {"m": 0}
    return qrels, run


def tie_groups(ranking):
    """The row positions of each tie group of a ranked-list frame (equal scores, contiguous)."""
    groups = itertools.groupby(range(len(ranking)), key=lambda i: ranking["score"].iloc[i])
    return [list(rows) for _, rows in groups]


def brute_force_average(qrels, run, qid, measure, threshold=1):
    """The mean of the per-list reference over every order of every tie group of ``qid``."""
    ranking = rk.ranked_list(qrels, run, qid)
    grade = ranking["grade"].to_numpy(dtype=float)
    judged = ranking["judged"].to_numpy() & (grade >= 0)
    pool = np.array(list(qrels[qid].values()), dtype=float)
    lists = dict(pool=np.maximum(pool, 0), n_relevant=int((pool >= threshold).sum()),
                 threshold=threshold, n_nonrelevant=int(((pool >= 0) & (pool < threshold)).sum()))
    (spec,) = parse([measure])
    values = []
    for orders in itertools.product(*(itertools.permutations(g) for g in tie_groups(ranking))):
        order = [row for group in orders for row in group]
        values.append(spec.reference(QueryLists(rels=np.maximum(grade[order], 0),
                                                judged=judged[order], **lists)))
    return math.fsum(values) / len(values)


def orders(qrels, run):
    return math.prod(math.factorial(len(g)) for q in run
                     for g in tie_groups(rk.ranked_list(qrels, run, q)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tied_runs())
def test_average_is_the_mean_over_every_order_of_the_tied_documents(case):
    qrels, run = case
    assume(orders(qrels, run) <= 2000)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # ties="average" is an explicit choice: no warning
        result = rk.evaluate(qrels, run, AVERAGED, ties="average")
    for qid in result.index:
        for measure in AVERAGED:
            assert result.loc[qid, measure] == pytest.approx(
                brute_force_average(qrels, run, qid, measure), abs=1e-12), (qid, measure)


def test_average_of_six_tied_documents_by_hand():
    # One relevant document among six tied: it is at each rank with probability 1/6.
    qrels = {"q": {"d3": 1}}
    run = {"q": {f"d{i}": 1.0 for i in range(6)}}
    result = rk.evaluate(qrels, run, ["RR", "AP", "P@2", "nDCG@2"], ties="average")
    harmonic = sum(1 / r for r in range(1, 7)) / 6
    assert result.loc["q", "RR"] == pytest.approx(harmonic, abs=1e-15)
    assert result.loc["q", "AP"] == pytest.approx(harmonic, abs=1e-15)
    assert result.loc["q", "P@2"] == pytest.approx(1 / 6, abs=1e-15)
    assert result.loc["q", "nDCG@2"] == pytest.approx((1 + 1 / math.log2(3)) / 6, abs=1e-15)
    # Two relevant of three tied after a relevant document: AP by enumeration of the 3 places.
    qrels = {"q": {"a": 1, "b": 1, "c": 1}}
    run = {"q": {"a": 2.0, "b": 1.0, "c": 1.0, "x": 1.0}}
    # b, c, x in 6 orders; the non-relevant x is at place 1, 2 or 3 of the group, 2 orders each
    by_place = {1: (1 + 2 / 3 + 3 / 4) / 3, 2: (1 + 2 / 2 + 3 / 4) / 3, 3: (1 + 1 + 1) / 3}
    assert rk.evaluate(qrels, run, ["AP"], ties="average").loc["q", "AP"] == pytest.approx(
        sum(by_place.values()) / 3, abs=1e-15)


def test_without_ties_every_choice_is_trec_evals():
    qrels = {"q": {"a": 1, "b": 0, "c": 1, "m": 1}}  # gains in [0, 1] for RBP and INST
    run = {"q": {"a": 0.3, "b": 0.9, "c": 0.5, "x": 0.1}}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        measures = list(dict.fromkeys(ALL + AVERAGED))
        default = rk.evaluate(qrels, run, measures)
        for ties in ("trec_eval", "optimistic", "pessimistic"):
            assert rk.evaluate(qrels, run, measures, ties=ties).equals(default)
        average = rk.evaluate(qrels, run, AVERAGED, ties="average")
    assert np.allclose(average, default[AVERAGED], rtol=0, atol=1e-15)


def check_bounds(qrels, run, measures):
    values = {ties: rk.evaluate(qrels, run, measures, ties=ties)
              for ties in ("trec_eval", "optimistic", "pessimistic")}
    # Between the two orders, whichever is larger: Unjudged@k, a count of what is wrong, is
    # smallest in the optimistic order (judged documents first).
    low = np.minimum(values["pessimistic"], values["optimistic"])
    high = np.maximum(values["pessimistic"], values["optimistic"])
    tolerance = 1e-12
    assert (high >= values["trec_eval"] - tolerance).all().all()
    assert (values["trec_eval"] >= low - tolerance).all().all()
    averaged = [m for m in measures if m in AVERAGED]
    average = rk.evaluate(qrels, run, averaged, ties="average")
    assert (high[averaged] >= average - tolerance).all().all()
    assert (average >= low[averaged] - tolerance).all().all()
    interval = rk.tie_interval(qrels, run, measures)
    assert interval.pessimistic.equals(values["pessimistic"])
    assert interval.optimistic.equals(values["optimistic"])


@settings(max_examples=60, deadline=None)
@given(tied_runs(max_docs=9, grades=(UNJUDGED, -1, 0, 1, 2, 3)))
def test_optimistic_bounds_trec_eval_bounds_pessimistic_on_graded_runs(case):
    qrels, run = case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rk.TieWarning)
        check_bounds(qrels, run, [m for m in ALL if m not in UNIT_GAINS + UNBOUNDED])


@settings(max_examples=60, deadline=None)
@given(tied_runs(max_docs=9, grades=(UNJUDGED, -1, 0, 1)))
def test_optimistic_bounds_trec_eval_bounds_pessimistic_on_binary_runs(case):
    # RBP and INST read a grade as a gain in [0, 1]: binary judgments.
    qrels, run = case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rk.TieWarning)
        check_bounds(qrels, run, [m for m in ALL if m not in UNBOUNDED])


@settings(max_examples=40, deadline=None)
@given(tied_runs(max_docs=7, grades=(UNJUDGED, -1, 0, 1)))
def test_the_warning_comes_exactly_when_the_bounds_differ(case):
    qrels, run = case
    low, high = rk.tie_interval(qrels, run, ALL)
    differ = low != high
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rk.evaluate(qrels, run, ALL)
    ties = [w for w in caught if issubclass(w.category, rk.TieWarning)]
    assert len(ties) == int(differ.any().any())
    if ties:
        message = str(ties[0].message)
        assert f"make {int(differ.sum().sum())} value" in message
        assert f"of {int(differ.any(axis=1).sum())} quer" in message


def test_ties_within_one_grade_do_not_warn():
    qrels = {"q": {"a": 1, "b": 1, "c": 0}}
    run = {"q": {"a": 1.0, "b": 1.0, "c": 0.5, "x": 0.5, "y": 0.1}}  # c (judged 0), x unjudged
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rk.evaluate(qrels, run, ["P@1", "AP", "nDCG@3"])
    with pytest.warns(rk.TieWarning, match="Judged@3 of query 'q' is 0.6667 in the pessimistic"):
        rk.evaluate(qrels, run, ["P@1", "Judged@3"])  # c or x at rank 3


def test_trec_eval_is_the_default_and_a_bad_ties_is_an_error_naming_it():
    qrels, run = {"q": {"a": 1}}, {"q": {"a": 1.0, "b": 1.0}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rk.TieWarning)
        assert rk.evaluate(qrels, run, ["RR"]).equals(
            rk.evaluate(qrels, run, ["RR"], ties="trec_eval"))
    for bad in ("random", "Average", None, 1):
        with pytest.raises(ValueError, match="^ties must be one of"):
            rk.evaluate(qrels, run, ["RR"], ties=bad)


@pytest.mark.parametrize("measure", NOT_AVERAGED)
def test_average_is_an_error_for_a_measure_without_an_exact_mean(measure):
    with pytest.raises(ValueError, match=rf"^ties: {re.escape(measure)} does not support"):
        rk.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0, "b": 1.0}}, [measure], ties="average")


def test_explain_query_shows_the_tie_groups_and_where_they_straddle_the_cutoff():
    qrels = {"q": {"a": 1, "c": 2}}
    run = {"q": {"a": 0.9, "b": 0.5, "c": 0.5, "d": 0.5, "e": 0.1}}
    explanation = rk.explain.query(qrels, run, "q", "nDCG@2")
    ranking = explanation.tables["ranking"]
    assert ranking["docno"].tolist() == ["a", "d", "c", "b", "e"]
    assert ranking["tie"].tolist() == [0, 1, 1, 1, 0]
    ties = explanation.tables["ties"]
    assert ties.to_dict("records") == [{
        "tie": 1, "ranks": "2-4", "documents": 3, "relevant": 1, "grades": "0, 2, 0",
        "straddles k": True, **{order: float(rk.evaluate(qrels, run, ["nDCG@2"], ties=order)
                                                .loc["q", "nDCG@2"])
                                for order in ("pessimistic", "optimistic")}}]
    best = rk.explain.query(qrels, run, "q", "nDCG@2", ties="optimistic")
    assert best.tables["ranking"]["docno"].tolist() == ["a", "c", "d", "b", "e"]
    assert best.value == ties.loc[0, "optimistic"]
    worst = rk.explain.query(qrels, run, "q", "AP", ties="pessimistic")
    assert worst.tables["ranking"]["docno"].tolist() == ["a", "d", "b", "c", "e"]
    assert "straddles k" not in worst.tables["ties"]  # AP has no cutoff
    untied = rk.explain.query(qrels, {"q": {"a": 2.0, "c": 1.0}}, "q", "AP")
    assert "tie" not in untied.tables["ranking"] and "ties" not in untied.tables
    with pytest.raises(ValueError, match="^ties:"):
        rk.explain.query(qrels, run, "q", "AP", ties="average")


def test_cli_ties_option(tmp_path, capsys):
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q 0 a 1\nq 0 b 0\n")
    run.write_text("q Q0 b 1 0.5 s\nq Q0 a 2 0.5 s\nq Q0 c 3 0.1 s\n")
    printed = {}
    for ties in ("trec_eval", "average", "optimistic", "pessimistic"):
        assert main(["evaluate", str(qrels), str(run), "-m", "RR", "--ties", ties]) == 0
        captured = capsys.readouterr()
        printed[ties] = captured.out.splitlines()[-1].split("\t")[-1]
        assert ("warning: --ties:" in captured.err) == (ties == "trec_eval")
    assert printed == {"trec_eval": "0.5000", "average": "0.7500", "optimistic": "1.0000",
                       "pessimistic": "0.5000"}
    assert main(["evaluate", str(qrels), str(run), "-m", "ERR", "--ties", "average"]) == 2
    assert "does not support --ties average" in capsys.readouterr().err
    assert main(["explain", str(qrels), str(run), "q", "-m", "RR", "--ties", "optimistic"]) == 0
    out = capsys.readouterr().out
    assert "RR of query q = 1.0" in out and "pessimistic" in out
    with pytest.raises(SystemExit):
        main(["evaluate", str(qrels), str(run), "-m", "RR", "--ties", "random"])


def test_the_warning_shows_the_two_bounds_with_digits_enough_to_tell_them_apart():
    # trec_eval's test run: query 301's nDCG is 0.1583847 or 0.1583931 as its ties fall; four
    # significant digits would print 0.1584 twice, five tell them apart.
    with pytest.warns(rk.TieWarning, match=r"nDCG of query '301' is 0\.15838 in the "
                                           r"pessimistic order and 0\.15839 in the optimistic"):
        rk.evaluate(TREC_EVAL_DATA / "qrels.test", TREC_EVAL_DATA / "results.test", ["nDCG"])
