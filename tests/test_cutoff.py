"""Tests of rankedu/metrics/cutoff.py: precision and recall at a cutoff, R-precision.

Written from CONTRACT.md and the seed posts, independently of the implementation.
"""

import inspect

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rankedu as rk
from conftest import registry_calls
from rankedu.trec.measures import MEASURES

# Seed 000, query 1: relevant at ranks 1, 2, 4, 7 of four relevant documents.
QUERY1 = (1, 1, 0, 1, 0, 0, 1)
# Seed 000, query 2: relevant at ranks 1, 3, 5 of five relevant documents.
QUERY2 = (1, 0, 1, 0, 1)

graded = st.lists(st.integers(0, 4), min_size=1, max_size=15)


def test_precision_at_k_is_relevant_in_the_top_k_over_k():
    assert rk.precision_at_k(QUERY1, 1) == 1.0
    assert rk.precision_at_k(QUERY1, 4) == 0.75
    assert rk.precision_at_k(QUERY1, 7) == pytest.approx(4 / 7, abs=1e-12)


def test_precision_at_k_counts_ranks_past_the_end_as_non_relevant():
    assert rk.precision_at_k(QUERY2, 10) == pytest.approx(3 / 10, abs=1e-12)
    assert rk.precision_at_k((1,), 5) == pytest.approx(1 / 5, abs=1e-12)


def test_precision_at_k_uses_the_threshold():
    rels = (3, 1, 2, 0)
    assert rk.precision_at_k(rels, 4) == 0.75
    assert rk.precision_at_k(rels, 4, threshold=2) == 0.5
    assert rk.precision_at_k(rels, 4, threshold=3) == 0.25


def test_recall_at_k_divides_by_n_relevant():
    assert rk.recall_at_k(QUERY2, 3, n_relevant=5) == pytest.approx(2 / 5, abs=1e-12)
    assert rk.recall_at_k(QUERY2, 100, n_relevant=5) == pytest.approx(3 / 5, abs=1e-12)


def test_recall_at_k_n_relevant_defaults_to_the_relevant_in_rels():
    assert rk.recall_at_k(QUERY2, 3) == pytest.approx(2 / 3, abs=1e-12)
    assert rk.recall_at_k(QUERY2, 5) == 1.0


def test_recall_at_k_is_zero_when_there_is_no_relevant_document():
    assert rk.recall_at_k((0, 0), 2) == 0.0
    assert rk.recall_at_k((0, 0), 2, n_relevant=0) == 0.0
    assert type(rk.recall_at_k((0, 0), 2)) is float


def test_r_precision_is_precision_at_rank_n_relevant():
    assert rk.r_precision(QUERY1, n_relevant=4) == 0.75
    assert rk.r_precision(QUERY2, n_relevant=5) == pytest.approx(3 / 5, abs=1e-12)
    # Seven relevant of which four are retrieved: ranks past the end count as non-relevant.
    assert rk.r_precision(QUERY1, n_relevant=9) == pytest.approx(4 / 9, abs=1e-12)


def test_r_precision_n_relevant_defaults_to_the_relevant_in_rels():
    assert rk.r_precision(QUERY2) == pytest.approx(2 / 3, abs=1e-12)


def test_r_precision_is_zero_when_there_is_no_relevant_document():
    # trec_eval's Rprec is 0 for a query without relevant documents.
    assert rk.r_precision((0, 0, 0)) == 0.0
    assert rk.r_precision((0, 0, 0), n_relevant=0) == 0.0


def test_seed_002_precision_and_recall_at_k():
    rels = (1, 0, 1, 0, 0, 1)
    assert rk.precision_at_k(rels, 3) == pytest.approx(2 / 3, abs=1e-12)
    assert rk.recall_at_k(rels, 3) == pytest.approx(2 / 3, abs=1e-12)
    assert rk.recall_at_k(rels, 6) == 1.0


def test_explain_precision_at_k_has_one_row_per_rank_ending_in_the_value(column_like, running_result):
    explanation = rk.explain.precision_at_k(QUERY1, 4)
    table = explanation.table
    assert len(table) == 4
    column_like(table, QUERY1[:4])
    assert running_result(table) == pytest.approx(0.75, abs=1e-12)
    assert explanation.value == 0.75


def test_explain_recall_at_k_ends_in_the_value(column_like, running_result):
    explanation = rk.explain.recall_at_k(QUERY2, 3, n_relevant=5)
    assert len(explanation.table) == 3
    column_like(explanation.table, QUERY2[:3])
    assert running_result(explanation.table) == pytest.approx(2 / 5, abs=1e-12)


def test_explain_r_precision_ends_in_the_value(running_result):
    explanation = rk.explain.r_precision(QUERY1, n_relevant=4)
    assert len(explanation.table) == 4
    assert running_result(explanation.table) == pytest.approx(0.75, abs=1e-12)


# --- properties -----------------------------------------------------------------------------


@given(graded, st.integers(1, 20), st.integers(1, 4))
def test_precision_at_k_times_k_is_an_integer(rels, k, threshold):
    value = rk.precision_at_k(rels, k, threshold=threshold)
    count = value * k
    assert count == pytest.approx(round(count), abs=1e-9)
    assert round(count) == sum(g >= threshold for g in rels[:k])


@given(graded, st.integers(0, 5))
def test_recall_at_k_is_monotone_in_k(rels, missing):
    n_relevant = sum(g >= 1 for g in rels) + missing
    values = [rk.recall_at_k(rels, k, n_relevant=n_relevant) for k in range(1, len(rels) + 3)]
    assert all(a <= b for a, b in zip(values, values[1:]))
    assert all(0.0 <= v <= 1.0 for v in values)


@given(graded, st.integers(1, 20), st.integers(0, 5))
def test_explain_values_equal_the_functions(rels, k, missing):
    n_relevant = sum(g >= 1 for g in rels) + missing
    assert abs(rk.explain.precision_at_k(rels, k).value - rk.precision_at_k(rels, k)) <= 1e-12
    assert abs(rk.explain.recall_at_k(rels, k, n_relevant=n_relevant).value
               - rk.recall_at_k(rels, k, n_relevant=n_relevant)) <= 1e-12
    assert abs(rk.explain.r_precision(rels, n_relevant=n_relevant).value
               - rk.r_precision(rels, n_relevant=n_relevant)) <= 1e-12


@pytest.mark.parametrize("convert", [list, tuple, np.array, lambda x: np.array(x, dtype=float)],
                         ids=["list", "tuple", "int-array", "float-array"])
def test_lists_tuples_and_arrays_give_the_same_float(convert):
    rels = convert(list(QUERY1))
    results = [rk.precision_at_k(rels, 4), rk.recall_at_k(rels, 4, n_relevant=6),
               rk.r_precision(rels, n_relevant=5)]
    assert all(type(v) is float for v in results)
    assert results == [rk.precision_at_k(list(QUERY1), 4), rk.recall_at_k(list(QUERY1), 4, n_relevant=6),
                       rk.r_precision(list(QUERY1), n_relevant=5)]


# --- trec_eval (pytrec_eval) ------------------------------------------------------------------
# rankedu sees each query's grades in trec_eval's ranking order (score descending, ties broken
# by docno descending; built in conftest.TrecCase.ranked) and n_relevant = judged relevant count.


def test_precision_recall_and_rprec_agree_with_trec_eval(trec_case):
    results = trec_case.trec_eval({"P.1,5,10,20,30", "recall.1,5,10,20,30", "Rprec"})
    for qid, measures in results.items():
        rels, _, n_relevant = trec_case.ranked(qid)
        for k in (1, 5, 10, 20, 30):
            assert rk.precision_at_k(rels, k) == pytest.approx(measures[f"P_{k}"], abs=1e-12), (qid, k)
            assert rk.recall_at_k(rels, k, n_relevant=n_relevant) == pytest.approx(
                measures[f"recall_{k}"], abs=1e-12
            ), (qid, k)
        assert rk.r_precision(rels, n_relevant=n_relevant) == pytest.approx(
            measures["Rprec"], abs=1e-12
        ), qid


# --- F@k and the precision-recall curve of a ranking (added with book/cutoff.ipynb) -----------


@given(graded, st.integers(1, 20), st.sampled_from([0.25, 0.5, 1.0, 2.0, 3.0]), st.integers(0, 5))
def test_f_at_k_is_the_weighted_harmonic_mean_of_p_at_k_and_r_at_k(rels, k, beta, unretrieved):
    n_relevant = sum(g >= 1 for g in rels) + unretrieved
    p = rk.precision_at_k(rels, k)
    r = rk.recall_at_k(rels, k, n_relevant=n_relevant)
    expected = (1 + beta**2) * p * r / (beta**2 * p + r) if p + r else 0.0
    value = rk.f_at_k(rels, k, beta=beta, n_relevant=n_relevant)
    assert type(value) is float
    assert value == pytest.approx(expected, abs=1e-12)


@given(graded, st.integers(1, 20), st.sampled_from([0.5, 1.0, 2.0]), st.integers(0, 5))
def test_f_at_k_is_f_beta_of_the_top_k_set_against_the_judged_documents(rels, k, beta, unretrieved):
    truth = [int(g >= 1) for g in rels] + [1] * unretrieved
    in_top_k = [int(i < k) for i in range(len(rels))] + [0] * unretrieved
    n_relevant = sum(truth)
    # A list shorter than k: the empty ranks are retrieved non-relevant documents for P@k.
    padding = max(0, k - len(rels))
    truth += [0] * padding
    in_top_k += [1] * padding
    assert rk.f_at_k(rels, k, beta=beta, n_relevant=n_relevant) == pytest.approx(
        rk.f_beta(truth, in_top_k, beta=beta), abs=1e-12
    )


def test_f_at_k_by_hand_and_zero_without_relevant_documents_in_the_top_k():
    # P@4 = 3/4, R@4 = 3/5: F1 = 2 * 0.45 / 1.35 = 2/3; F2 = 5 * 0.45 / 3.6 = 0.625.
    rels = (1, 0, 1, 1, 0, 0, 1, 0, 0, 0)
    assert rk.f_at_k(rels, 4, n_relevant=5) == pytest.approx(2 / 3, abs=1e-12)
    assert rk.f_at_k(rels, 4, beta=2, n_relevant=5) == pytest.approx(0.625, abs=1e-12)
    assert rk.f_at_k((0, 0, 1), 2, n_relevant=1) == 0.0
    assert rk.f_at_k((), 3) == 0.0


@pytest.mark.parametrize("beta", [0, -1.0])
def test_f_at_k_rejects_a_beta_that_is_not_positive(beta):
    with pytest.raises(ValueError, match="beta"):
        rk.f_at_k((1, 0), 2, beta=beta)


@pytest.mark.parametrize("beta", [float("nan"), float("inf")])
def test_f_at_k_rejects_a_beta_that_is_not_finite(beta):
    with pytest.raises(ValueError, match="beta"):
        rk.f_at_k((1, 0), 2, beta=beta)


def test_f_at_k_rejects_a_bad_cutoff_and_too_small_n_relevant():
    with pytest.raises(ValueError, match="k"):
        rk.f_at_k((1, 0), 0)
    with pytest.raises(ValueError, match="n_relevant"):
        rk.f_at_k((1, 1), 2, n_relevant=1)


def test_explain_f_at_k_ends_in_the_value_and_shows_p_and_r(running_result):
    rels = (1, 0, 1, 1, 0, 0, 1, 0, 0, 0)
    explanation = rk.explain.f_at_k(rels, 10, beta=2.0, n_relevant=5)
    assert explanation.value == rk.f_at_k(rels, 10, beta=2.0, n_relevant=5)
    assert running_result(explanation.table) == pytest.approx(explanation.value, abs=1e-12)
    assert len(explanation.table) == 10


@pytest.mark.parametrize("x", [0.25, 1.0, 2.0, 4.0])
def test_f_at_k_of_the_whole_list_is_trec_eval_set_f_with_beta_squared_as_parameter(trec_case, x):
    # m_set_F.c: set_F.x = (x + 1) P R / (R + x P), the F-beta of the whole run with x = beta^2.
    results = trec_case.trec_eval({f"set_F.{x:g}"})
    for qid, measures in results.items():
        rels, _, n_relevant = trec_case.ranked(qid)
        assert rk.f_at_k(rels, None, beta=x**0.5, n_relevant=n_relevant) == pytest.approx(
            measures["set_F"], abs=1e-12
        ), qid


@given(graded, st.integers(0, 5))
def test_precision_recall_curve_is_p_at_k_and_r_at_k_at_every_rank(rels, unretrieved):
    n_relevant = sum(g >= 1 for g in rels) + unretrieved
    precision, recall = rk.precision_recall_curve(rels, n_relevant=n_relevant)
    assert len(precision) == len(recall) == len(rels)
    for k in range(1, len(rels) + 1):
        assert precision[k - 1] == pytest.approx(rk.precision_at_k(rels, k), abs=1e-12)
        assert recall[k - 1] == pytest.approx(rk.recall_at_k(rels, k, n_relevant=n_relevant), abs=1e-12)


@given(graded)
def test_interpolated_precision_is_the_best_precision_at_this_rank_or_later(rels):
    precision, _ = rk.precision_recall_curve(rels)
    interpolated, _ = rk.precision_recall_curve(rels, interpolate=True)
    assert np.all(np.diff(interpolated) <= 0)
    for i in range(len(rels)):
        assert interpolated[i] == max(precision[i:])


def test_interpolated_precision_agrees_with_trec_eval_iprec_at_recall(trec_case):
    # m_iprec_at_recall.c turns a recall level r into a count of relevant documents and reports
    # the best precision once that many have been retrieved (0 if they never are). The trec_eval
    # inside pytrec_eval counts (long)(r * R + 0.9) in doubles, as trec_eval 9 did; trec_eval 10
    # rounds, lround(r * R), instead.
    results = trec_case.trec_eval({"iprec_at_recall"})
    for qid, measures in results.items():
        rels, _, n_relevant = trec_case.ranked(qid)
        interpolated, _ = rk.precision_recall_curve(rels, n_relevant=n_relevant, interpolate=True)
        hits = np.cumsum(np.asarray(rels) >= 1)
        for level in np.round(np.arange(0, 1.01, 0.1), 2):
            needed = int(float(level) * n_relevant + 0.9)
            reached = interpolated[hits >= needed]
            ours = float(reached[0]) if len(reached) else 0.0
            assert ours == pytest.approx(measures[f"iprec_at_recall_{level:.2f}"], abs=1e-12), (qid, level)


def test_precision_recall_curve_visits_the_points_of_sklearn():
    from sklearn.metrics import precision_recall_curve as sklearn_curve

    rels = [1, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 0]
    precision, recall = rk.precision_recall_curve(rels)
    sk_precision, sk_recall, _ = sklearn_curve(rels, -np.arange(len(rels), dtype=float))
    # sklearn: from the lowest threshold (whole list) up, then the extra point (1, 0).
    np.testing.assert_allclose(sk_precision[:-1][::-1], precision, atol=1e-12)
    np.testing.assert_allclose(sk_recall[:-1][::-1], recall, atol=1e-12)


def test_precision_recall_curve_of_an_empty_list_is_empty_and_interpolate_must_be_a_bool():
    precision, recall = rk.precision_recall_curve([])
    assert len(precision) == len(recall) == 0
    with pytest.raises(TypeError, match="interpolate"):
        rk.precision_recall_curve([1, 0], interpolate="yes")


# --- trec_eval's own test data --------------------------------------------------------------
# trec_eval prints 4 decimals; qrels.rel_level is run with -l2, i.e. threshold=2.

CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


@pytest.mark.parametrize("judgments, threshold", [("test", 1), ("rel_level", 2)])
def test_precision_recall_and_rprec_agree_with_trec_evals_test_outputs(trec_reference, judgments, threshold):
    for qid, rels, _, n_relevant, measures in trec_reference.queries(judgments, threshold):
        for k in CUTOFFS:
            assert rk.precision_at_k(rels, k, threshold=threshold) == pytest.approx(
                measures[f"P_{k}"], abs=0.5e-4), (qid, k)
            assert rk.recall_at_k(rels, k, n_relevant=n_relevant, threshold=threshold) == pytest.approx(
                measures[f"recall_{k}"], abs=0.5e-4), (qid, k)
        assert rk.r_precision(rels, n_relevant=n_relevant, threshold=threshold) == pytest.approx(
            measures["Rprec"], abs=0.5e-4), qid


# --- a cutoff past the end of the list costs nothing (issue 16) --------------------------------

# Each metric with a cutoff, as call(rels, k): every measure of the registry that takes a
# cutoff and ranked grades (through its per-list function, as evaluate calls it), and the
# per-list functions evaluate does not call. Padding a list with zeros to length k is the
# definition "ranks past the end count as non-relevant" written out physically.
PADDED_METRICS = {
    **{measure.function.__name__: (lambda call: lambda rels, k: call(rk, rels, k))(
        registry_calls()[measure.function.__name__])
       for measure in MEASURES.values()
       if measure.cutoff != "none" and "rels" in inspect.signature(measure.function).parameters},
    "f_at_k": lambda rels, k: rk.f_at_k(rels, k, beta=2.0, n_relevant=sum(g >= 1 for g in rels) + 2),
    "mean_precision_at_ranks": lambda rels, k: rk.mean_precision_at_ranks(rels, k),
}


@pytest.mark.parametrize("name, call", PADDED_METRICS.items(), ids=list(PADDED_METRICS))
@pytest.mark.parametrize("extra", [1, 5, 999, 1000, 1001, 1002, 2500, 250_000])
def test_a_cutoff_past_the_end_equals_the_list_padded_with_non_relevant_documents(name, call, extra):
    rels = [1, 0, 2, 0, 0, 1, 0]
    k = len(rels) + extra
    padded = rels + [0] * extra
    assert call(rels, k) == pytest.approx(call(padded, k), rel=1e-12, abs=1e-15)


def test_mean_precision_at_ranks_for_a_huge_cutoff_uses_the_harmonic_tail():
    # Ranks 4..k hold no document: each adds P@i = 2/i, so the sum grows by 2 (H_k - H_3).
    k = 10**9
    euler_gamma = 0.5772156649015329
    harmonic_k = np.log(k) + euler_gamma + 1 / (2 * k)
    expected = (1 + 1 / 2 + 2 / 3 + 2 * (harmonic_k - (1 + 1 / 2 + 1 / 3))) / k
    assert rk.mean_precision_at_ranks([1, 0, 1], k) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("call", [
    lambda: rk.precision_at_k([1, 0, 1], 10**9),
    lambda: rk.recall_at_k([1, 0, 1], 10**12, n_relevant=5),
    lambda: rk.average_precision([1], k=10**8),
    lambda: rk.reciprocal_rank([0, 1], 10**15),
    lambda: rk.f_at_k([1, 0, 1], 10**10),
    lambda: rk.mean_precision_at_ranks([1, 0, 1], 10**18),
    lambda: rk.r_precision([1, 0, 1], n_relevant=10**11),
], ids=["P@k", "R@k", "AP@k", "RR@k", "F@k", "meanP", "Rprec"])
def test_a_huge_cutoff_allocates_memory_bounded_by_the_list_not_by_k(call):
    import tracemalloc

    tracemalloc.start()
    try:
        call()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000, f"peak {peak} bytes"


def test_precision_at_a_huge_cutoff_is_exact():
    assert rk.precision_at_k([1, 0, 1], 10**9) == 2 / 10**9
    assert rk.average_precision([1], k=10**8) == 1.0


def test_explain_lists_up_to_1000_padded_ranks_then_closes_at_rank_k(running_result):
    # A short padding is listed rank by rank (the cutoff chapter shows ranks 16..20 of P@20).
    short = rk.explain.precision_at_k([1, 1, 0], 8).table
    assert short["i"].tolist() == list(range(1, 9))
    assert short["retrieved"].tolist() == [True] * 3 + [False] * 5
    # A long one: the list's own ranks, 999 padded ranks, then one row at rank k.
    k = 10**9
    explanation = rk.explain.precision_at_k([1, 1, 0], k)
    table = explanation.table
    assert len(table) == 3 + 1000
    assert table["i"].tolist() == [*range(1, 1003), k]
    assert not table["retrieved"].iloc[3:].any()
    assert running_result(table) == explanation.value == 2 / k
    # Exactly 1000 padded ranks are all listed.
    assert rk.explain.precision_at_k([1], 1001).table["i"].tolist() == list(range(1, 1002))
