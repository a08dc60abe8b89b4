"""Tests of rankedu/trec/measures.py, the one declaration per measure, and of ``rk.explain.query``."""

import importlib

import numpy as np
import pytest

import rankedu as rk
from conftest import trec_ranking
from rankedu.trec.measures import MEASURES, QueryLists, parse
from test_notebooks import toc_entries

CONTRACT_NAMES = ["P@k", "R@k", "AP", "AP@k", "RR", "RR@k", "nDCG", "nDCG@k", "Rprec", "ERR@k"]


def test_the_table_declares_every_name_of_the_contract():
    usages = {form.strip() for m in MEASURES.values() for form in m.usage.split(",")}
    assert set(CONTRACT_NAMES) <= usages


@pytest.mark.parametrize("name", sorted(MEASURES))
def test_each_declaration_is_complete_and_consistent(name):
    measure = MEASURES[name]
    assert measure.name == name
    assert measure.description and "\n" not in measure.description
    assert f"book/{measure.chapter}" in toc_entries(), f"chapter {measure.chapter} not in _toc.yml"
    assert measure.cutoff in ("required", "optional", "none")
    function = measure.function
    # The reference is public, has a step-by-step twin, and its kernel sits beside its steps.
    assert getattr(rk, function.__name__) is function
    assert callable(getattr(rk.explain, function.__name__))
    module = importlib.import_module(function.__module__)
    assert hasattr(module, f"_{function.__name__}_steps")
    assert getattr(module, f"_{function.__name__}_by_query") is measure.kernel


@pytest.mark.parametrize(
    ("written", "family", "k"),
    [("P@5", "P", 5), ("R@1000", "R", 1000), ("AP", "AP", None), ("AP@10", "AP", 10),
     ("RR", "RR", None), ("RR@3", "RR", 3), ("nDCG", "nDCG", None), ("nDCG@10", "nDCG", 10),
     ("Rprec", "Rprec", None), ("ERR", "ERR", None), ("ERR@20", "ERR", 20)],
)
def test_names_parse_as_in_ir_measures(written, family, k):
    (parsed,) = parse([written])
    defaults = {p.name: p.default for p in MEASURES[family].parameters}
    assert (parsed.name, parsed.measure.name, parsed.k, parsed.params) == (written, family, k,
                                                                           defaults)


@pytest.mark.parametrize(
    ("written", "message"),
    [("MAPP", "unknown measure 'MAPP'; did you mean 'AP'?"),
     ("ndcg@10", "unknown measure 'ndcg@10'; did you mean 'nDCG@10'?"),
     ("R", "R needs a cutoff"), ("Foo", "unknown measure 'Foo' (known: P@k"),
     ("nDCG@10(judged_only=False)", "parameters go before the cutoff, e.g. 'nDCG(...)@k'"),
     ("Rprec@5", "Rprec takes no cutoff"), ("P@0", "cutoff of 'P@0'"),
     ("P@x", "cutoff of 'P@x' must be an integer"), ("P@-1", "must be an integer"),
     ("AP(judged=True)", "AP has no parameter 'judged=True'"),
     ("AP(judged_only=yes)", "judged_only of 'AP(judged_only=yes)' must be True or False"),
     ("XYZ(p=0.8)", "unknown measure 'XYZ(p=0.8)'"), ("AP(", "unknown measure 'AP('"),
     # str.isdigit() and int() read other scripts' digits; no other tool's names do.
     ("Judged@²", "cutoff of 'Judged@²' must be an integer >= 1 in ASCII digits"),
     ("Judged@１０", "cutoff of 'Judged@１０' must be an integer >= 1 in ASCII digits"),
     ("Judged@٣", "cutoff of 'Judged@٣' must be an integer >= 1 in ASCII digits"),
     ("RBP(p=０.５)", "p of 'RBP(p=０.５)' must be a number in ASCII digits"),
     ("RBP(depth=1_000)", "depth of 'RBP(depth=1_000)' must be an integer in ASCII digits"),
     ("RBP(p=nan)", "p of 'RBP(p=nan)' must be a number in ASCII digits"),
     ("RBP(p=0.5,p=0.6)", "'RBP(p=0.5,p=0.6)' gives p twice"),
     ("AP(judged_only=True,judged_only=False)", "gives judged_only twice"),
     ("AP()", "'AP()' has an empty parameter"), ("RBP(,)", "'RBP(,)' has an empty parameter"),
     ("RBP(p=0.8,)", "'RBP(p=0.8,)' has an empty parameter")],
)
def test_bad_names_raise_naming_measures(written, message):
    with pytest.raises(ValueError, match="measures") as error:
        parse([written])
    assert message in str(error.value)


@pytest.mark.parametrize(
    ("measures", "message"),
    [(["P@0"], "^measures: the cutoff of 'P@0' must be an int >= 1, got 0$"),
     (["RBP(depth=0)"], "^depth must be an int >= 1, got 0$"),
     (["RBP(depth=100000000000000000000000)"], "^depth must be at most 1,000,000 \\(one value"),
     (["Judged@100000000000000000000000"], "must be at most 2\\*\\*63 - 1")],
)
def test_cutoff_and_depth_messages_name_the_bound_that_applies(measures, message):
    # None cannot be written in a name, and depth's bound is MAX_DEPTH, not int64's.
    with pytest.raises(ValueError, match=message):
        rk.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, measures)


def test_a_repeated_name_is_computed_once_and_order_is_kept():
    assert [m.name for m in parse(["RR", "AP", "RR"])] == ["RR", "AP"]
    with pytest.raises(ValueError, match="at least one"):
        parse([])
    with pytest.raises(TypeError, match="measures"):
        parse([10])


def test_parameters_are_parsed_by_their_declared_type(monkeypatch):
    # No measure declares a parameter yet (RBP(p=0.8), AP(judged_only=True) will): declare
    # one on a copy of AP and check the ir_measures spelling reaches the kernel and reference.
    from dataclasses import replace

    from rankedu.trec.measures import Parameter

    seen = []

    def kernel(ranked, k, *, scale):
        seen.append(scale)
        return np.zeros(ranked.n_queries)

    toy = replace(MEASURES["AP"], name="Toy", kernel=kernel,
                  parameters=(Parameter("scale", float, 1.0, "a factor"),
                              Parameter("strict", bool, False, "a switch")))
    monkeypatch.setitem(MEASURES, "Toy", toy)
    (parsed,) = parse(["Toy(scale=0.5, strict=True)@3"])
    assert (parsed.k, parsed.params) == (3, {"scale": 0.5, "strict": True})
    assert parse(["Toy"])[0].params == {"scale": 1.0, "strict": False}
    assert toy.usage == "Toy, Toy@k, Toy(scale=1.0, strict=False)"
    with pytest.raises(ValueError, match="strict of .* must be True or False, got 'yes'"):
        parse(["Toy(strict=yes)"])
    with pytest.raises(ValueError, match="scale of .* must be a number in ASCII digits"):
        parse(["Toy(scale=high)"])


# --- rk.explain.query ------------------------------------------------------------------------

def test_explain_query_lists_the_ranking_as_trec_eval_orders_it(trec_case):
    qid = "q7"
    ranking = rk.explain.query(trec_case.qrels, trec_case.run, qid, "nDCG@5").tables["ranking"]
    rels, pool, _ = trec_ranking(trec_case.qrels[qid], trec_case.run[qid])
    assert ranking["grade"].tolist() == rels
    # and, when some scores tie (they do in q7), each document's tie group (0: untied)
    assert list(ranking.columns) == ["rank", "docno", "score", "judged", "grade", "tie"]
    tied = ranking["score"].duplicated(keep=False)
    assert ((ranking["tie"] > 0) == tied).all()
    order = sorted(trec_case.run[qid].items(), key=lambda item: (item[1], item[0]), reverse=True)
    assert ranking["docno"].tolist() == [docno for docno, _ in order]
    assert sorted(ranking.attrs["pool"]) == sorted(pool)


def test_explain_query_follows_evaluates_conventions():
    qrels = {"q": {"a": -1, "b": 3, "c": 1}}
    run = {"q": {"a": 3.0, "b": 2.0, "x": 1.0}}
    # A negative grade counts 0 (the per-list function would take -1 at face value), R = 2.
    explanation = rk.explain.query(qrels, run, "q", "nDCG")
    lists = QueryLists(rels=np.array([0.0, 3.0, 0.0]), pool=np.array([0.0, 3.0, 1.0]),
                       n_relevant=2)
    assert explanation.value == pytest.approx(parse(["nDCG"])[0].reference(lists), abs=1e-15)
    assert rk.explain.query(qrels, run, "q", "R@2").value == 0.5
    assert rk.explain.query(qrels, run, "q", "ERR@2").value == rk.err([0, 3], 2, max_grade=4)
    with pytest.raises(ValueError, match="max_grade"):
        rk.explain.query({"q": {"a": 5}}, run, "q", "ERR")
    assert rk.explain.query({"q": {"a": 5}}, run, "q", "ERR", max_grade=5).value == \
        rk.err([5], max_grade=5)


def test_explain_query_rejects_unknown_queries_and_measures():
    with pytest.raises(ValueError, match="qid: query 'nope' is not in the qrels"):
        rk.explain.query({"q": {"a": 1}}, {"q": {"a": 1.0}}, "nope", "AP")
    with pytest.raises(ValueError, match="qid: query 'r' is not in the run"):
        rk.explain.query({"q": {"a": 1}, "r": {"a": 1}}, {"q": {"a": 1.0}}, "r", "AP")
    with pytest.raises(ValueError, match="measures: unknown measure 'MAPP'"):
        rk.explain.query({"q": {"a": 1}}, {"q": {"a": 1.0}}, "q", "MAPP")
    for measure in (5, ["AP", 5], {"AP"}):
        with pytest.raises(TypeError, match="^measure must be a measure name"):
            rk.explain.query({"q": {"a": 1}}, {"q": {"a": 1.0}}, "q", measure)
