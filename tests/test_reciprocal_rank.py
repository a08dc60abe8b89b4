"""Tests of rankedu/metrics/reciprocal_rank.py: RR and MRR.

Written from CONTRACT.md and the seed posts, independently of the implementation.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rankedu as rk

graded = st.lists(st.integers(0, 4), min_size=1, max_size=15)


def test_reciprocal_rank_is_one_over_the_rank_of_the_first_relevant():
    assert rk.reciprocal_rank((1, 0, 1)) == 1.0
    assert rk.reciprocal_rank((0, 0, 1, 1)) == pytest.approx(1 / 3, abs=1e-12)


def test_reciprocal_rank_is_zero_when_nothing_is_relevant():
    assert rk.reciprocal_rank((0, 0, 0)) == 0.0
    assert type(rk.reciprocal_rank((0, 0, 0))) is float


def test_reciprocal_rank_uses_the_threshold():
    rels = (1, 0, 2, 3)
    assert rk.reciprocal_rank(rels) == 1.0
    assert rk.reciprocal_rank(rels, threshold=2) == pytest.approx(1 / 3, abs=1e-12)
    assert rk.reciprocal_rank(rels, threshold=3) == 0.25
    assert rk.reciprocal_rank(rels, threshold=4) == 0.0


def test_mrr_is_the_mean_of_the_reciprocal_ranks():
    lists = [(0, 1), (1,), (0, 0, 0), (0, 0, 1)]
    assert rk.mean_reciprocal_rank(lists) == pytest.approx((1 / 2 + 1 + 0 + 1 / 3) / 4, abs=1e-12)


def test_seed_000_queries_both_have_reciprocal_rank_1():
    assert rk.mean_reciprocal_rank([(1, 1, 0, 1, 0, 0, 1), (1, 0, 1, 0, 1)]) == 1.0


def test_mrr_passes_the_threshold_to_every_query():
    lists = [(1, 2), (2, 1, 1)]
    assert rk.mean_reciprocal_rank(lists, threshold=2) == pytest.approx((1 / 2 + 1) / 2, abs=1e-12)


def test_explain_reciprocal_rank_ends_in_the_value(column_like, running_result):
    explanation = rk.explain.reciprocal_rank((0, 0, 1, 1))
    assert explanation.value == pytest.approx(1 / 3, abs=1e-12)
    column_like(explanation.table, (0, 0, 1, 1)[: len(explanation.table)])
    assert running_result(explanation.table) == pytest.approx(1 / 3, abs=1e-12)


def test_explain_mrr_has_one_row_per_query(column_like):
    explanation = rk.explain.mean_reciprocal_rank([(0, 1), (1,), (0, 0, 0)])
    assert len(explanation.table) == 3
    column_like(explanation.table, [1 / 2, 1, 0])
    assert explanation.value == pytest.approx(0.5, abs=1e-12)


@given(graded, st.integers(1, 4))
def test_reciprocal_rank_matches_its_definition(rels, threshold):
    first = next((i for i, g in enumerate(rels, start=1) if g >= threshold), None)
    expected = 0.0 if first is None else 1 / first
    assert rk.reciprocal_rank(rels, threshold=threshold) == pytest.approx(expected, abs=1e-15)


@given(st.lists(graded, min_size=1, max_size=6))
def test_explain_values_equal_the_functions(lists):
    assert abs(rk.explain.reciprocal_rank(lists[0]).value - rk.reciprocal_rank(lists[0])) <= 1e-12
    assert abs(rk.explain.mean_reciprocal_rank(lists).value - rk.mean_reciprocal_rank(lists)) <= 1e-12


@pytest.mark.parametrize("convert", [list, tuple, np.array, lambda x: np.array(x, dtype=float)],
                         ids=["list", "tuple", "int-array", "float-array"])
def test_lists_tuples_and_arrays_give_the_same_float(convert):
    value = rk.reciprocal_rank(convert([0, 0, 2, 1]))
    mean = rk.mean_reciprocal_rank([convert([0, 1]), convert([0, 0, 1])])
    assert type(value) is float and type(mean) is float
    assert value == rk.reciprocal_rank([0, 0, 2, 1])
    assert mean == rk.mean_reciprocal_rank([[0, 1], [0, 0, 1]])


# --- trec_eval (pytrec_eval) ------------------------------------------------------------------
# rankedu sees each query's grades in trec_eval's ranking order (score descending, ties broken
# by docno descending; built in conftest.TrecCase.ranked).


def test_reciprocal_rank_agrees_with_trec_eval_recip_rank(trec_case):
    results = trec_case.trec_eval({"recip_rank"})
    for qid, measures in results.items():
        rels, _, _ = trec_case.ranked(qid)
        assert rk.reciprocal_rank(rels) == pytest.approx(measures["recip_rank"], abs=1e-12), qid


def test_mrr_agrees_with_the_mean_of_trec_evals_recip_rank(trec_case):
    results = trec_case.trec_eval({"recip_rank"})
    qids = sorted(results)
    value = rk.mean_reciprocal_rank([trec_case.ranked(q)[0] for q in qids])
    assert value == pytest.approx(np.mean([results[q]["recip_rank"] for q in qids]), abs=1e-12)


# --- trec_eval's own test data --------------------------------------------------------------
# trec_eval prints 4 decimals; qrels.rel_level is run with -l2, i.e. threshold=2.


@pytest.mark.parametrize("judgments, threshold", [("test", 1), ("rel_level", 2)])
def test_reciprocal_rank_agrees_with_trec_evals_test_outputs(trec_reference, judgments, threshold):
    for qid, rels, _, _, measures in trec_reference.queries(judgments, threshold):
        assert rk.reciprocal_rank(rels, threshold=threshold) == pytest.approx(
            measures["recip_rank"], abs=0.5e-4), qid


@pytest.mark.parametrize("k", [3, 1000, 1001, 10**12])
def test_rr_at_a_cutoff_past_the_end_is_rr_of_the_whole_list(k):
    assert rk.reciprocal_rank([0, 0, 1], k) == rk.reciprocal_rank([0, 0, 1]) == 1 / 3
    assert rk.reciprocal_rank([0, 0], k) == 0.0


# --- Success@k ---------------------------------------------------------------------------------


def test_success_at_k_is_one_when_a_relevant_document_is_in_the_top_k():
    assert rk.success_at_k([0, 0, 1, 1], 3) == 1.0
    assert rk.success_at_k([0, 0, 1, 1], 2) == 0.0
    assert rk.success_at_k([0, 2, 0], 2, threshold=2) == 1.0
    assert rk.success_at_k([0, 1, 0], 2, threshold=2) == 0.0
    assert rk.success_at_k([], 5) == 0.0


@given(graded, st.integers(1, 20), st.sampled_from([1, 2, 3]))
def test_success_at_k_is_brute_force_any_and_rr_at_k_above_zero(rels, k, threshold):
    expected = float(any(g >= threshold for g in rels[:k]))
    assert rk.success_at_k(rels, k, threshold=threshold) == expected
    assert expected == float(rk.reciprocal_rank(rels, k, threshold=threshold) > 0)


def test_success_at_k_needs_a_cutoff():
    with pytest.raises(TypeError, match="k must be an int >= 1"):
        rk.success_at_k([1, 0], None)


@pytest.mark.parametrize("judgments, threshold", [("test", 1), ("rel_level", 2)])
def test_success_at_k_agrees_with_trec_evals_test_outputs(trec_reference, judgments, threshold):
    compared = 0
    for qid, rels, _, _, measures in trec_reference.queries(judgments, threshold):
        for k in (1, 5, 10):
            assert rk.success_at_k(rels, k, threshold=threshold) == measures[f"success_{k}"], (
                qid, k)
            compared += 1
    assert compared == 9
