"""Tests of rankedu/metrics/incomplete.py: bpref, condensed lists and Judged@k, per list and in
``evaluate`` (``Bpref``, ``Judged@k``, ``AP(judged_only=True)``, ``nDCG(judged_only=True)@k``),
against trec_eval's test files, pytrec_eval (its bpref and its ``-J``) and brute force."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rankedu as rk
from conftest import TREC_EVAL_DATA
from rankedu.trec.measures import QueryLists, parse


# --- worked examples -----------------------------------------------------------------------------


def test_bpref_of_the_docstring_example_by_hand():
    rels, judged = [0, 1, 0, 0, 1], [True, True, False, False, True]
    # R = 2, N = 4: each relevant document has one judged non-relevant above it, 1 - 1/2 each.
    assert rk.bpref(rels, judged, n_relevant=2, n_nonrelevant=4) == 0.5
    # Fully judged, the second has three above it, capped at R = 2: 1 - 2/2 = 0.
    assert rk.bpref(rels, n_relevant=2, n_nonrelevant=4) == 0.25


def test_bpref_divides_by_min_n_r_so_few_judged_non_relevant_weigh_more():
    # R = 3 relevant, N = 1 judged non-relevant above the last two: each loses min(1, 3)/min(1, 3).
    assert rk.bpref([1, 0, 1, 1], n_relevant=3, n_nonrelevant=1) == pytest.approx(1 / 3)
    # With N = 5 judged non-relevant in the qrels, one above them costs 1/3 each.
    assert rk.bpref([1, 0, 1, 1], n_relevant=3, n_nonrelevant=5) == pytest.approx((1 + 2 * (2 / 3)) / 3)


def test_bpref_is_zero_without_relevant_documents_and_one_when_they_lead():
    assert rk.bpref([0, 0], n_relevant=0) == 0.0
    assert rk.bpref([]) == 0.0
    assert rk.bpref([2, 1, 0, 0], n_relevant=2, n_nonrelevant=2) == 1.0
    # A relevant document never retrieved earns nothing: 1 / 2.
    assert rk.bpref([1, 0], n_relevant=2, n_nonrelevant=1) == 0.5


def test_bpref_threshold_makes_low_grades_judged_non_relevant():
    # At threshold 2 the grade-1 document at rank 1 is judged non-relevant.
    assert rk.bpref([1, 2], threshold=2) == 0.0
    assert rk.bpref([1, 2], threshold=1) == 1.0


def test_condensed_list_keeps_the_judged_documents_in_rank_order():
    assert rk.condensed_list([0, 3, 0, 1, 0], [False, True, True, True, False]).tolist() == [3, 0, 1]
    assert rk.condensed_list([2, 0], None).tolist() == [2, 0]
    assert rk.condensed_list([], []).tolist() == []


def test_judged_at_k_divides_by_the_retrieved_when_the_list_is_short():
    assert rk.judged_at_k([1, 0, 1, 1], 2) == 0.5
    assert rk.judged_at_k([1, 0, 1, 1], 100) == 0.75
    assert rk.judged_at_k([], 10) == 0.0


# --- explanations --------------------------------------------------------------------------------


def test_bpref_explanation_shows_each_credit_and_ends_in_the_value(running_result):
    explanation = rk.explain.bpref([0, 1, 0, 0, 1], [1, 1, 0, 0, 1], n_relevant=2,
                                   n_nonrelevant=4)
    table = explanation.table
    assert table["m_i"].tolist() == [1, 1, 1, 1, 1]
    assert table["credit"].tolist() == [0.0, 0.5, 0.0, 0.0, 0.5]
    assert running_result(table) == explanation.value == 0.5
    assert explanation.tables["counts"].iloc[0].tolist() == [2, 4, 2]


def test_condensed_list_explanation_gives_each_kept_document_its_new_rank():
    explanation = rk.explain.condensed_list([0, 1, 0, 0, 1], [1, 1, 0, 0, 1])
    new_rank = explanation.table["i′"].tolist()
    assert new_rank[:2] == [1, 2] and math.isnan(new_rank[2]) and math.isnan(new_rank[3])
    assert new_rank[4] == 3
    assert explanation.value.tolist() == rk.condensed_list([0, 1, 0, 0, 1], [1, 1, 0, 0, 1]).tolist()


def test_judged_at_k_explanation_ends_in_the_value(running_result):
    explanation = rk.explain.judged_at_k([1, 1, 0, 1, 0], 4)
    assert len(explanation.table) == 4
    assert running_result(explanation.table) == explanation.value == 0.75


def test_explain_query_of_a_condensed_measure_shows_the_condensed_list(running_result):
    qrels = {"q": {"a": 1, "b": 0, "c": -1, "d": 2, "e": 0}}
    run = {"q": {"a": 1.0, "x": 5.0, "c": 4.0, "b": 3.0, "d": 0.5, "y": 0.2}}
    explanation = rk.explain.query(qrels, run, "q", "AP(judged_only=True)")
    assert explanation.value == rk.evaluate(qrels, run, ["AP(judged_only=True)"]).iloc[0, 0]
    assert running_result(explanation.table) == pytest.approx(explanation.value, abs=1e-15)
    # x and y are not in the qrels, c is "pooled but not judged" (grade -1): all three go.
    assert explanation.tables["condensed list"]["judged"].tolist() == [False, False, True, True,
                                                                         True, False]


# --- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: rk.bpref([1, 0], [True]), ValueError, "rels and judged must have the same length"),
        (lambda: rk.bpref([1, 0], [False, True]), ValueError, "judged is False at position 0"),
        (lambda: rk.condensed_list([0, 2], [1, 0]), ValueError, "judged is False at position 1"),
        (lambda: rk.bpref([1, math.nan]), ValueError, "rels must hold finite numbers"),
        (lambda: rk.condensed_list([1, math.nan], [1, 1]), ValueError, "rels must hold finite"),
        (lambda: rk.bpref([1, 0], [1, 2]), ValueError, "judged must hold only 0 and 1"),
        (lambda: rk.bpref([1, 0, 0], n_nonrelevant=1), ValueError,
         r"n_nonrelevant \(1\) is smaller than the 2 judged non-relevant documents"),
        (lambda: rk.bpref([1, 1], n_relevant=1), ValueError, "n_relevant"),
        (lambda: rk.bpref([1], threshold=0), ValueError, "threshold"),
        (lambda: rk.judged_at_k([1, 0], None), ValueError, "k must be an int >= 1"),
        (lambda: rk.judged_at_k([1, 0], 0), ValueError, "k must be an int >= 1"),
        (lambda: rk.judged_at_k([1, math.nan], 2), ValueError, "judged must hold finite"),
        (lambda: rk.judged_at_k("yes", 2), TypeError, "judged must be a list"),
    ],
)
def test_bad_input_raises_naming_the_argument(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize("measure", ["Bpref@10", "Judged", "Judged(judged_only=True)@5"])
def test_bad_measure_names_raise_naming_measures(measure):
    with pytest.raises(ValueError, match="measures"):
        parse([measure])


# --- trec_eval's test files ----------------------------------------------------------------------


def trec_eval_values(name, measure):
    """{qid: value as printed} of one measure in one of trec_eval's expected outputs."""
    values = {}
    for line in (TREC_EVAL_DATA / name).read_text().splitlines():
        written, qid, value = line.split()
        if written == measure:
            values[qid] = value
    return values


@pytest.mark.parametrize(
    ("output", "qrels", "run", "options"),
    [("out.test.aq", "qrels.test", "results.test", {}),
     ("out.test.aqc", "qrels.test", "results.trunc", {"missing": "zero"}),  # trec_eval -c
     ("out.test.aql", "qrels.rel_level", "results.test", {"threshold": 2})],  # -l2, grades -1..4
)
def test_bpref_matches_trec_eval_test_suite_on_every_query_and_the_mean(output, qrels, run,
                                                                         options):
    expected = trec_eval_values(output, "bpref")
    result = rk.evaluate(TREC_EVAL_DATA / qrels, TREC_EVAL_DATA / run, ["Bpref"], **options)
    assert sorted(expected) == sorted([*result.index, "all"])
    for qid in result.index:
        assert f"{result.loc[qid, 'Bpref']:.4f}" == expected[qid], qid
    assert f"{result['Bpref'].mean():.4f}" == expected["all"]


# --- pytrec_eval on runs where most retrieved documents are unjudged ------------------------------


def generated_collection(seed=13, n_queries=200):
    """Judgments of a small pool and runs reaching far beyond it.

    Per query: 60 documents ``d0``..``d59`` (string order differs from numeric: "d9" > "d10");
    a pool of 3 to 15 judged ones, graded -1 (pooled but not judged), 0, 1, 2 or 3, with every
    fourth query holding exactly one relevant document, some with no judged non-relevant one,
    and some whose relevant documents are never retrieved; a run of 10 to 50 documents with
    half-point scores, so that many tie. Most retrieved documents are unjudged.
    """
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in range(n_queries):
        docs = [f"d{j}" for j in rng.permutation(60)]
        n_pool = int(rng.integers(3, 16))
        grades = rng.choice([-1, 0, 0, 0, 1, 1, 2, 3], size=n_pool)
        if q % 4 == 0:
            grades = np.where(grades > 0, 0, grades)
            grades[rng.integers(n_pool)] = int(rng.integers(1, 4))
        if q % 7 == 0:
            grades = np.where(grades == 0, 2, grades)  # no judged non-relevant document
        qrels[f"q{q}"] = {d: int(g) for d, g in zip(docs[:n_pool], grades)}
        retrieved = rng.choice(docs if q % 9 else docs[n_pool // 2:], size=int(rng.integers(10, 51)),
                               replace=False)
        scores = rng.integers(0, 12, size=len(retrieved)) / 2.0
        run[f"q{q}"] = {str(d): float(s) for d, s in zip(retrieved, scores)}
    return qrels, run


@pytest.fixture(scope="module")
def collection():
    return generated_collection()


def test_the_generated_runs_are_mostly_unjudged_with_ties_and_single_relevant_queries(collection):
    qrels, run = collection
    retrieved = sum(len(docs) for docs in run.values())
    judged = sum(d in qrels[q] and qrels[q][d] >= 0 for q, docs in run.items() for d in docs)
    assert judged / retrieved < 0.25
    assert sum(sum(g >= 1 for g in qrels[q].values()) == 1 for q in qrels) >= 50
    assert any(len(set(docs.values())) < len(docs) for docs in run.values())
    assert any(-1 in grades.values() for grades in qrels.values())


@pytest.mark.parametrize("threshold", [1, 2])
def test_bpref_equals_pytrec_eval_on_every_query(collection, threshold):
    import pytrec_eval

    qrels, run = collection
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {"bpref"}, relevance_level=threshold).evaluate(run)
    ours = rk.evaluate(qrels, run, ["Bpref"], threshold=threshold)
    assert sorted(ours.index) == sorted(theirs)
    for qid, values in theirs.items():
        assert ours.loc[qid, "Bpref"] == values["bpref"], qid


CONDENSED = {"map": "AP(judged_only=True)", "ndcg": "nDCG(judged_only=True)",
             "ndcg_cut_5": "nDCG(judged_only=True)@5", "ndcg_cut_10": "nDCG(judged_only=True)@10",
             "map_cut_10": "AP(judged_only=True)@10"}


@pytest.mark.parametrize("threshold", [1, 2])
def test_condensed_measures_equal_pytrec_eval_with_judged_docs_only(collection, threshold):
    import pytrec_eval

    qrels, run = collection
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg", "ndcg_cut.5,10", "map_cut.10"},
                                               relevance_level=threshold,
                                               judged_docs_only_flag=True)
    theirs = evaluator.evaluate(run)
    ours = rk.evaluate(qrels, run, list(CONDENSED.values()), threshold=threshold)
    for qid, values in theirs.items():
        for trec_name, name in CONDENSED.items():
            assert ours.loc[qid, name] == values[trec_name], (qid, name)


def test_condensed_measures_equal_the_plain_ones_on_the_run_without_its_unjudged(collection):
    qrels, run = collection
    judged_run = {q: {d: s for d, s in docs.items() if qrels[q].get(d, -1) >= 0}
                  for q, docs in run.items()}
    judged_run = {q: docs for q, docs in judged_run.items() if docs}
    plain = {name: name.replace("(judged_only=True)", "") for name in CONDENSED.values()}
    removed = rk.evaluate({q: qrels[q] for q in judged_run}, judged_run, list(plain.values()))
    condensed = rk.evaluate(qrels, run, list(plain)).loc[removed.index]
    assert len(removed) > 150
    for name, plain_name in plain.items():
        assert condensed[name].tolist() == removed[plain_name].tolist(), name


def judged_at_k_brute_force(qrels, docs, k):
    """ir_measures' JudgedEvaluator, with trec_eval's ranking (ties by docno descending) and a
    negative grade read as trec_eval reads it (pooled but not judged)."""
    ranking = sorted(docs.items(), key=lambda item: (item[1], item[0]), reverse=True)[:k]
    judged = sum(qrels.get(docno, -1) >= 0 for docno, _ in ranking)
    return judged / min(k, len(docs))


@pytest.mark.parametrize("k", [1, 5, 10, 100])
def test_judged_at_k_equals_a_brute_force_count_on_every_query(collection, k):
    qrels, run = collection
    ours = rk.evaluate(qrels, run, [f"Judged@{k}"])
    for qid in run:
        assert ours.loc[qid, f"Judged@{k}"] == judged_at_k_brute_force(qrels[qid], run[qid], k)


def lists_of(qrels, docs, threshold=1):
    """One query's ``QueryLists`` under evaluate's conventions, built without rankedu."""
    ranking = sorted(docs.items(), key=lambda item: (item[1], item[0]), reverse=True)
    grades = [qrels.get(docno) for docno, _ in ranking]
    judged = np.array([g is not None and g >= 0 for g in grades])
    rels = np.array([max(g, 0) if g is not None else 0 for g in grades], dtype=float)
    pool = np.array([max(g, 0) for g in qrels.values()], dtype=float)
    return QueryLists(rels=rels, pool=pool, threshold=threshold, judged=judged,
                      n_relevant=sum(g >= threshold for g in qrels.values()),
                      n_nonrelevant=sum(0 <= g < threshold for g in qrels.values()))


ALL = ["Bpref", "Judged@3", "Judged@20", *CONDENSED.values(), "AP(judged_only=False)"]


def test_every_new_measure_equals_its_per_list_function_on_each_query(collection):
    qrels, run = collection
    result = rk.evaluate(qrels, run, ALL)
    for qid in result.index:
        lists = lists_of(qrels[qid], run[qid])
        for spec in parse(ALL):
            assert result.loc[qid, spec.name] == spec.reference(lists), (qid, spec.name)


# --- properties ----------------------------------------------------------------------------------

grades = st.lists(st.integers(-1, 3), max_size=30)


@st.composite
def judged_lists(draw):
    """A graded list with a judged mask: unjudged documents have grade 0."""
    values = draw(grades)
    judged = draw(st.lists(st.booleans(), min_size=len(values), max_size=len(values)))
    return [g if j else 0 for g, j in zip(values, judged)], judged


@given(grades, st.integers(1, 3))
def test_condensing_a_fully_judged_list_changes_nothing(rels, threshold):
    assert rk.condensed_list(rels, [True] * len(rels)).tolist() == rels
    n_relevant = sum(g >= threshold for g in rels)
    assert rk.average_precision(rk.condensed_list(rels, None), n_relevant=n_relevant,
                                threshold=threshold) == rk.average_precision(
        rels, n_relevant=n_relevant, threshold=threshold)


@given(judged_lists(), st.integers(0, 30), st.data())
def test_bpref_ignores_unjudged_documents_wherever_they_are(case, extra, data):
    rels, judged = case
    n_relevant = sum(g >= 1 for g, j in zip(rels, judged) if j) + extra % 3
    n_nonrelevant = sum(g < 1 for g, j in zip(rels, judged) if j) + extra % 5
    value = rk.bpref(rels, judged, n_relevant=n_relevant, n_nonrelevant=n_nonrelevant)
    # Condensing first, or inserting unjudged documents anywhere, gives the same number.
    kept = rk.condensed_list(rels, judged)
    assert rk.bpref(kept, n_relevant=n_relevant, n_nonrelevant=n_nonrelevant) == value
    at = data.draw(st.integers(0, len(rels)))
    assert rk.bpref(rels[:at] + [0] + rels[at:], judged[:at] + [False] + judged[at:],
                    n_relevant=n_relevant, n_nonrelevant=n_nonrelevant) == value
    assert 0.0 <= value <= 1.0


def bpref_loop(rels, judged, n_relevant, n_nonrelevant, threshold):
    """trec_eval's te_calc_bpref, line by line in plain Python."""
    total, nonrel_so_far = 0.0, 0
    for grade, is_judged in zip(rels, judged):
        if not is_judged:
            continue
        if grade < threshold:
            nonrel_so_far += 1
        elif nonrel_so_far > 0:
            total += 1.0 - min(nonrel_so_far, n_relevant) / min(n_nonrelevant, n_relevant)
        else:
            total += 1.0
    return total / n_relevant if n_relevant else total


@given(judged_lists(), st.integers(0, 4), st.integers(0, 4), st.integers(1, 3))
def test_bpref_equals_trec_eval_loop_bit_for_bit(case, more_relevant, more_nonrelevant,
                                                 threshold):
    rels, judged = case
    n_relevant = sum(g >= threshold for g, j in zip(rels, judged) if j) + more_relevant
    n_nonrelevant = sum(g < threshold for g, j in zip(rels, judged) if j) + more_nonrelevant
    assert rk.bpref(rels, judged, n_relevant=n_relevant, n_nonrelevant=n_nonrelevant,
                    threshold=threshold) == bpref_loop(rels, judged, n_relevant, n_nonrelevant,
                                                       threshold)


@given(st.lists(st.booleans(), max_size=30), st.integers(1, 40))
def test_judged_at_k_is_a_share_and_one_when_everything_is_judged(judged, k):
    value = rk.judged_at_k(judged, k)
    assert 0.0 <= value <= 1.0
    assert rk.judged_at_k([True] * len(judged), k) == (1.0 if judged else 0.0)
    if judged:
        shown = judged[:k]
        assert value == sum(shown) / len(shown)


documents = st.sampled_from([f"d{i}" for i in range(14)])


@st.composite
def sparse_runs(draw):
    """Small qrels (grades -1..3) and runs with tied scores and many unjudged documents."""
    qrels, run = {}, {}
    for q in range(draw(st.integers(1, 4))):
        qrels[f"q{q}"] = draw(st.dictionaries(documents, st.integers(-1, 3), min_size=1,
                                              max_size=5))
        run[f"q{q}"] = draw(st.dictionaries(documents, st.sampled_from([0.0, 0.5, 1.0, 2.5]),
                                            min_size=1, max_size=12))
    return qrels, run


@given(sparse_runs(), st.sampled_from([1, 2]))
def test_vectorised_evaluate_equals_per_list_functions_on_random_runs(case, threshold):
    qrels, run = case
    result = rk.evaluate(qrels, run, ALL, threshold=threshold)
    for qid in qrels:
        lists = lists_of(qrels[qid], run[qid], threshold)
        for spec in parse(ALL):
            assert result.loc[qid, spec.name] == spec.reference(lists), (qid, spec.name)


@pytest.mark.parametrize(("qrels", "threshold"), [("qrels.test", 1), ("qrels.rel_level", 2)])
def test_new_measures_equal_pytrec_eval_on_trec_eval_test_files(qrels, threshold):
    # qrels.rel_level holds grades -1 to 4: -1 is "pooled but not judged" for bpref and -J.
    import pytrec_eval

    judgments = rk.read_qrels(TREC_EVAL_DATA / qrels)
    run = rk.read_run(TREC_EVAL_DATA / "results.test")
    as_dict = {q: dict(zip(g["docno"], g["rel"].astype(int))) for q, g in judgments.groupby("qid")}
    ranking = {q: dict(zip(g["docno"], g["score"])) for q, g in run.groupby("qid")}
    names = {"bpref": "Bpref", **CONDENSED}
    plain = pytrec_eval.RelevanceEvaluator(as_dict, {"bpref"}, relevance_level=threshold)
    condensed = pytrec_eval.RelevanceEvaluator(as_dict, {"map", "ndcg", "ndcg_cut.5,10", "map_cut.10"},
                                               relevance_level=threshold,
                                               judged_docs_only_flag=True)
    theirs = {q: {**plain.evaluate(ranking)[q], **values}
              for q, values in condensed.evaluate(ranking).items()}
    ours = rk.evaluate(judgments, run, list(names.values()), threshold=threshold)
    assert sorted(theirs) == ["301", "302", "303"]
    for qid, values in theirs.items():
        for trec_name, name in names.items():
            assert ours.loc[qid, name] == values[trec_name], (qid, name)


@pytest.mark.parametrize("count", ["n_relevant", "n_nonrelevant"])
def test_a_count_beyond_int64_is_refused_naming_it(count):
    # 10**30 raised numpy's OverflowError from inside the penalty.
    with pytest.raises(ValueError, match=rf"^{count} must be at most 2\*\*63 - 1"):
        rk.bpref([1, 0], **{count: 10**30})
    # The largest accepted count still gives bpref: one relevant document found of R.
    expected = {"n_relevant": 1 / (2**63 - 1), "n_nonrelevant": 1.0}[count]
    assert rk.bpref([1, 0], **{count: 2**63 - 1}) == pytest.approx(expected, rel=1e-15)
