"""Tests of rankedu/metrics/average_precision.py: AP and MAP.

Written from CONTRACT.md and the seed posts, independently of the implementation.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rankedu as rk

# Seed 000: query 1 has 4 relevant documents, retrieved at ranks 1, 2, 4, 7; query 2 has 5,
# of which 3 are retrieved, at ranks 1, 3, 5.
QUERY1 = (1, 1, 0, 1, 0, 0, 1)
QUERY2 = (1, 0, 1, 0, 1)
AP1 = (1 / 1 + 2 / 2 + 3 / 4 + 4 / 7) / 4
AP2 = (1 / 1 + 2 / 3 + 3 / 5) / 5
# Seed 002 (and seed 004): three relevant documents at ranks 1, 3 and 6.
SEED_002 = (1, 0, 1, 0, 0, 1)

binary = st.lists(st.integers(0, 1), min_size=1, max_size=15)
graded = st.lists(st.integers(0, 4), min_size=1, max_size=15)


# --- seed 000 -------------------------------------------------------------------------------


def test_seed_000_query1_ap_is_0_8303571_and_rounds_to_the_posts_0_83():
    value = rk.average_precision(QUERY1, n_relevant=4)
    assert value == pytest.approx(AP1, abs=1e-12)
    assert round(value, 7) == 0.8303571
    assert round(value, 2) == 0.83


def test_seed_000_query2_ap_divides_by_all_5_relevant_not_the_3_retrieved():
    value = rk.average_precision(QUERY2, n_relevant=5)
    assert value == pytest.approx(AP2, abs=1e-12)
    assert round(value, 4) == 0.4533
    assert round(value, 2) == 0.45


def test_seed_000_map_is_0_6418_and_rounds_to_the_posts_0_64():
    value = rk.mean_average_precision([QUERY1, QUERY2], n_relevant=[4, 5])
    assert value == pytest.approx((AP1 + AP2) / 2, abs=1e-12)
    assert round(value, 4) == 0.6418
    assert round(value, 2) == 0.64
    # The post averages the rounded APs: (0.83 + 0.45) / 2 = 0.64 as well.
    assert round((0.83 + 0.45) / 2, 2) == 0.64


def test_seed_000_explain_ap_has_one_row_per_rank_ending_in_the_value(column_like, running_result):
    explanation = rk.explain.average_precision(QUERY1, n_relevant=4)
    table = explanation.table
    assert len(table) == 7
    column_like(table, range(1, 8))
    column_like(table, QUERY1)
    column_like(table, [1 / 1, 2 / 2, 2 / 3, 3 / 4, 3 / 5, 3 / 6, 4 / 7])  # P@rank
    assert running_result(table) == pytest.approx(AP1, abs=1e-12)
    assert explanation.value == pytest.approx(AP1, abs=1e-12)


def test_seed_000_explain_map_has_one_row_per_query(column_like):
    explanation = rk.explain.mean_average_precision([QUERY1, QUERY2], n_relevant=[4, 5])
    assert explanation.value == pytest.approx((AP1 + AP2) / 2, abs=1e-12)
    column_like(explanation.table, [AP1, AP2])
    assert len(explanation.table) == 2


def test_seed_001_denominator_relevant_in_list_is_the_default_n_relevant():
    # Seed 001 divides by the relevant documents in the list: for query 2 that is 3, not 5.
    assert rk.average_precision(QUERY2) == pytest.approx((1 + 2 / 3 + 3 / 5) / 3, abs=1e-12)
    assert rk.average_precision(QUERY2) > rk.average_precision(QUERY2, n_relevant=5)


# --- seed 002 -------------------------------------------------------------------------------


def test_seed_002_ap_with_relevant_at_1_3_6_is_one_third_of_1_plus_2_3_plus_3_6():
    value = rk.average_precision(SEED_002)
    assert value == pytest.approx((1 + 2 / 3 + 3 / 6) / 3, abs=1e-12)
    assert rk.average_precision(SEED_002, n_relevant=3) == value


def test_seed_003s_mean_of_precision_at_every_rank_is_not_ap():
    # Seed 003 (6.1) averages P@i over every rank i; AP averages it over the relevant ranks only.
    mean_precision = np.mean([rk.precision_at_k(SEED_002, i) for i in range(1, 7)])
    assert rk.average_precision(SEED_002) != pytest.approx(mean_precision)


# --- conventions ------------------------------------------------------------------------------


def test_ap_is_zero_when_there_is_no_relevant_document():
    assert rk.average_precision((0, 0, 0)) == 0.0
    assert rk.average_precision((0, 0, 0), n_relevant=0) == 0.0
    assert type(rk.average_precision((0, 0, 0))) is float


def test_ap_counts_relevant_by_threshold():
    rels = (2, 1, 0, 3)
    assert rk.average_precision(rels) == pytest.approx((1 + 1 + 3 / 4) / 3, abs=1e-12)
    assert rk.average_precision(rels, threshold=2) == pytest.approx((1 + 2 / 4) / 2, abs=1e-12)


def test_map_without_n_relevant_uses_each_lists_own_relevant_count():
    assert rk.mean_average_precision([QUERY1, QUERY2]) == pytest.approx(
        (rk.average_precision(QUERY1) + rk.average_precision(QUERY2)) / 2, abs=1e-12
    )


def test_map_passes_threshold_to_every_query():
    lists = [(2, 1, 0, 3), (1, 2)]
    assert rk.mean_average_precision(lists, threshold=2) == pytest.approx(
        (rk.average_precision(lists[0], threshold=2) + rk.average_precision(lists[1], threshold=2)) / 2,
        abs=1e-12,
    )


# --- properties -------------------------------------------------------------------------------


@given(graded, st.integers(0, 5), st.integers(1, 3))
def test_ap_is_between_0_and_1(rels, missing, threshold):
    n_relevant = sum(g >= threshold for g in rels) + missing
    value = rk.average_precision(rels, n_relevant=n_relevant, threshold=threshold)
    assert 0.0 <= value <= 1.0


@given(binary, st.integers(0, 5))
def test_ap_matches_the_sum_of_precision_at_relevant_ranks(rels, missing):
    n_relevant = sum(rels) + missing
    expected = sum(sum(rels[: i + 1]) / (i + 1) for i, g in enumerate(rels) if g) / n_relevant if n_relevant else 0.0
    assert rk.average_precision(rels, n_relevant=n_relevant) == pytest.approx(expected, abs=1e-12)


@given(graded, st.integers(0, 3))
def test_explain_ap_value_equals_the_function(rels, missing):
    n_relevant = sum(g >= 1 for g in rels) + missing
    assert abs(rk.explain.average_precision(rels, n_relevant=n_relevant).value
               - rk.average_precision(rels, n_relevant=n_relevant)) <= 1e-12


@given(st.lists(graded, min_size=1, max_size=5))
def test_explain_map_value_equals_the_function(lists):
    assert abs(rk.explain.mean_average_precision(lists).value - rk.mean_average_precision(lists)) <= 1e-12


@pytest.mark.parametrize("convert", [list, tuple, np.array, lambda x: np.array(x, dtype=float)],
                         ids=["list", "tuple", "int-array", "float-array"])
def test_lists_tuples_and_arrays_give_the_same_float(convert):
    value = rk.average_precision(convert(list(QUERY1)), n_relevant=4)
    assert type(value) is float
    assert value == rk.average_precision(list(QUERY1), n_relevant=4)
    mean = rk.mean_average_precision([convert(list(QUERY1)), convert(list(QUERY2))], n_relevant=[4, 5])
    assert type(mean) is float
    assert mean == rk.mean_average_precision([list(QUERY1), list(QUERY2)], n_relevant=[4, 5])


def test_numpy_integer_n_relevant_is_accepted():
    assert rk.average_precision(QUERY2, n_relevant=np.int64(5)) == pytest.approx(AP2, abs=1e-12)


# --- trec_eval (pytrec_eval) ------------------------------------------------------------------
# rankedu sees each query's grades in trec_eval's ranking order (score descending, ties broken
# by docno descending; built in conftest.TrecCase.ranked) and n_relevant = judged relevant count.


def test_ap_agrees_with_trec_eval_map(trec_case):
    results = trec_case.trec_eval({"map"})
    for qid, measures in results.items():
        rels, _, n_relevant = trec_case.ranked(qid)
        assert rk.average_precision(rels, n_relevant=n_relevant) == pytest.approx(
            measures["map"], abs=1e-12
        ), qid


def test_map_agrees_with_the_mean_of_trec_evals_map(trec_case):
    results = trec_case.trec_eval({"map"})
    qids = sorted(results)
    ranked = [trec_case.ranked(qid) for qid in qids]
    value = rk.mean_average_precision([r[0] for r in ranked], n_relevant=[r[2] for r in ranked])
    assert value == pytest.approx(np.mean([results[q]["map"] for q in qids]), abs=1e-12)


# --- scikit-learn -----------------------------------------------------------------------------
# average_precision_score(y_true, y_score) sums (R_n - R_{n-1}) P_n over score thresholds, so a
# group of tied scores is one step; n_relevant is the positives among the scored candidates.


@given(st.lists(st.tuples(st.integers(0, 1), st.floats(0, 1, allow_nan=False)), min_size=1, max_size=15,
                unique_by=lambda pair: pair[1]).filter(lambda pairs: any(y for y, _ in pairs)))
def test_ap_agrees_with_sklearn_average_precision_score_without_ties(pairs):
    from sklearn.metrics import average_precision_score

    y_true = [y for y, _ in pairs]
    y_score = [s for _, s in pairs]
    ranked = [y for y, _ in sorted(pairs, key=lambda pair: pair[1], reverse=True)]
    assert rk.average_precision(ranked, n_relevant=sum(y_true)) == pytest.approx(
        average_precision_score(y_true, y_score), abs=1e-12
    )


def test_sklearn_ap_treats_a_tie_as_one_threshold_where_rankedu_uses_the_order_given():
    from sklearn.metrics import average_precision_score

    # Two candidates tied in score, one relevant: sklearn sees one threshold at which
    # precision is 1/2; rankedu ranks them as given.
    sklearn_value = float(average_precision_score([1, 0], [0.5, 0.5]))
    assert sklearn_value == 0.5
    assert rk.average_precision((1, 0)) == 1.0
    assert rk.average_precision((0, 1)) == 0.5


# --- trec_eval's own test data --------------------------------------------------------------
# trec_eval prints 4 decimals; qrels.rel_level is run with -l2, i.e. threshold=2.


@pytest.mark.parametrize("judgments, threshold", [("test", 1), ("rel_level", 2)])
def test_ap_agrees_with_trec_evals_test_outputs(trec_reference, judgments, threshold):
    for qid, rels, _, n_relevant, measures in trec_reference.queries(judgments, threshold):
        assert rk.average_precision(rels, n_relevant=n_relevant, threshold=threshold) == pytest.approx(
            measures["map"], abs=0.5e-4), qid


# --- interpolated precision and the 11-point average ----------------------------------------------

_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def _best_precision_at_recall_at_least(rels, level, n_relevant):
    """The textbook definition, in exact fractions: max P@k over ranks k with R@k >= level."""
    from fractions import Fraction

    level = Fraction(str(level))
    best = Fraction(0)
    hits = 0
    for k, grade in enumerate(rels, start=1):
        hits += grade >= 1
        if n_relevant and Fraction(hits, n_relevant) >= level and hits:
            best = max(best, Fraction(hits, k))
    return float(best)


@given(binary, st.integers(0, 4), st.sampled_from(_LEVELS))
def test_interpolated_precision_is_the_best_precision_at_recall_at_least_the_level(rels, missing, level):
    n_relevant = sum(rels) + missing
    assert rk.interpolated_precision(rels, level, n_relevant=n_relevant) == pytest.approx(
        _best_precision_at_recall_at_least(rels, level, n_relevant), abs=1e-12
    )


def test_interpolated_precision_reads_0_3_of_10_relevant_as_exactly_3():
    # 0.3 * 10 is 3.0000000000000004 in floating point; recall 3/10 is reached at rank 3.
    rels = [1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1]
    assert rk.interpolated_precision(rels, 0.3, n_relevant=10) == 1.0


def test_interpolated_precision_is_zero_past_the_recall_the_list_reaches():
    assert rk.interpolated_precision([1, 0, 1], 0.7, n_relevant=4) == 0.0
    assert rk.interpolated_precision([0, 0], 0.0) == 0.0
    assert rk.eleven_point_average_precision([0, 0, 0]) == 0.0


def test_the_three_conventions_turn_level_0_4_of_3_relevant_into_different_ranks():
    rels = [1, 0, 1, 0, 0, 1]  # seed 002
    # textbook: ceil(1.2) = 2 relevant; trec_eval 10: round(1.2) = 1; trec_eval 9: int(1.2 + 0.9) = 2
    assert rk.interpolated_precision(rels, 0.4) == pytest.approx(2 / 3, abs=1e-12)
    assert rk.interpolated_precision(rels, 0.4, convention="trec_eval") == 1.0
    assert rk.interpolated_precision(rels, 0.4, convention="trec_eval_9") == pytest.approx(2 / 3, abs=1e-12)


def test_eleven_point_average_of_seed_002_is_8_over_11():
    # levels 0..0.3 need 1 relevant (P = 1), 0.4..0.6 need 2 (P = 2/3), 0.7..1 need 3 (P = 1/2)
    assert rk.eleven_point_average_precision([1, 0, 1, 0, 0, 1]) == pytest.approx(8 / 11, abs=1e-12)


def test_eleven_point_average_is_the_mean_of_the_eleven_interpolated_precisions():
    rels, n_relevant = (1, 1, 0, 1, 0, 0, 1), 5
    for convention in ("textbook", "trec_eval", "trec_eval_9"):
        levels = [rk.interpolated_precision(rels, level, n_relevant=n_relevant, convention=convention)
                  for level in _LEVELS]
        assert rk.eleven_point_average_precision(
            rels, n_relevant=n_relevant, convention=convention
        ) == pytest.approx(sum(levels) / 11, abs=1e-12)


def test_trec_eval_9_convention_agrees_with_pytrec_eval_iprec_at_recall_and_11pt_avg(trec_case):
    results = trec_case.trec_eval({"iprec_at_recall", "11pt_avg"})
    for qid, measures in results.items():
        rels, _, n_relevant = trec_case.ranked(qid)
        for level in _LEVELS:
            assert rk.interpolated_precision(
                rels, level, n_relevant=n_relevant, convention="trec_eval_9"
            ) == pytest.approx(measures[f"iprec_at_recall_{level:.2f}"], abs=1e-12), (qid, level)
        assert rk.eleven_point_average_precision(
            rels, n_relevant=n_relevant, convention="trec_eval_9"
        ) == pytest.approx(measures["11pt_avg"], abs=1e-12), qid


@pytest.mark.parametrize("judgments, threshold", [("test", 1), ("rel_level", 2)])
def test_trec_eval_convention_reproduces_trec_eval_10s_iprec_at_recall_and_11pt_avg(
    trec_reference, judgments, threshold
):
    # trec_eval 10 rounds level * R to the nearest integer; its own expected outputs (4 decimals)
    # differ from pytrec_eval's (trec_eval 9) on these queries, e.g. topic 301 at recall 0.1.
    for qid, rels, _, n_relevant, measures in trec_reference.queries(judgments, threshold):
        for level in _LEVELS:
            value = rk.interpolated_precision(
                rels, level, n_relevant=n_relevant, threshold=threshold, convention="trec_eval"
            )
            assert value == pytest.approx(measures[f"iprec_at_recall_{level:.2f}"], abs=0.5e-4), (qid, level)
        value = rk.eleven_point_average_precision(
            rels, n_relevant=n_relevant, threshold=threshold, convention="trec_eval"
        )
        assert value == pytest.approx(measures["11pt_avg"], abs=0.5e-4), qid


def test_interpolated_precision_rejects_a_level_outside_0_1_and_an_unknown_convention():
    with pytest.raises(ValueError, match="recall"):
        rk.interpolated_precision([1, 0], 1.5)
    with pytest.raises(ValueError, match="convention"):
        rk.eleven_point_average_precision([1, 0], convention="trec")


@given(binary, st.integers(0, 3))
def test_explain_eleven_point_value_equals_the_function_and_has_eleven_rows(rels, missing):
    n_relevant = sum(rels) + missing
    explanation = rk.explain.eleven_point_average_precision(rels, n_relevant=n_relevant)
    assert explanation.value == rk.eleven_point_average_precision(rels, n_relevant=n_relevant)
    assert len(explanation.table) == 11


# --- seed 003's mean of P@i ----------------------------------------------------------------------


def test_mean_precision_at_ranks_of_seed_002s_ranking_is_the_mean_of_its_six_precisions():
    expected = (1 + 1 / 2 + 2 / 3 + 2 / 4 + 2 / 5 + 3 / 6) / 6
    assert rk.mean_precision_at_ranks(SEED_002) == pytest.approx(expected, abs=1e-12)
    assert rk.average_precision(SEED_002) == pytest.approx((1 + 2 / 3 + 3 / 6) / 3, abs=1e-12)


@given(graded, st.integers(1, 20))
def test_mean_precision_at_ranks_is_the_mean_of_precision_at_k(rels, k):
    expected = np.mean([rk.precision_at_k(rels, i) for i in range(1, k + 1)])
    assert rk.mean_precision_at_ranks(rels, k) == pytest.approx(expected, abs=1e-12)


def test_a_perfect_ranking_has_ap_1_but_a_mean_precision_at_ranks_below_1():
    perfect = [1, 1, 0, 0, 0, 0]
    assert rk.average_precision(perfect) == 1.0
    assert rk.mean_precision_at_ranks(perfect) == pytest.approx((1 + 1 + 2 / 3 + 2 / 4 + 2 / 5 + 2 / 6) / 6)


def test_appending_non_relevant_documents_lowers_mean_precision_at_ranks_but_not_ap():
    short, longer = [1, 0, 1], [1, 0, 1, 0, 0, 0]
    assert rk.average_precision(short) == rk.average_precision(longer)
    assert rk.mean_precision_at_ranks(longer) < rk.mean_precision_at_ranks(short)


@given(graded)
def test_explain_mean_precision_at_ranks_value_equals_the_function(rels):
    assert rk.explain.mean_precision_at_ranks(rels).value == rk.mean_precision_at_ranks(rels)


@pytest.mark.parametrize("convention", ["textbook", "trec_eval", "trec_eval_9"])
def test_interpolated_precision_of_an_empty_ranking_is_zero_at_every_level(convention):
    # Nothing retrieved: there is no precision to take the best of, even at recall 0
    # (pytrec_eval's iprec_at_recall_0.00 is 0 for such a query too).
    for level in (0.0, 0.5, 1.0):
        assert rk.interpolated_precision([], level, n_relevant=3, convention=convention) == 0.0
    assert rk.eleven_point_average_precision([], n_relevant=3, convention=convention) == 0.0


def test_interpolated_precision_is_the_curve_of_precision_recall_curve_at_each_recall_level():
    # Both take the best precision at a rank or later; at a recall level, the rank is the first
    # that reaches it.
    rels = [0, 1, 0, 0, 1, 1, 0, 1]
    best, recall = rk.precision_recall_curve(rels, n_relevant=5, interpolate=True)
    for level in (0.0, 0.2, 0.4, 0.6, 0.8):
        first = int(np.argmax(recall >= level))
        assert rk.interpolated_precision(rels, level, n_relevant=5) == best[first]
    assert rk.interpolated_precision(rels, 1.0, n_relevant=5) == 0.0


# --- a cutoff past the end of the list (issue 16: AP@10**8 padded the list to 10**8) -----------


@pytest.mark.parametrize("k", [10, 10**8, 2**63 - 1])
def test_ap_at_a_cutoff_past_the_end_is_ap_of_the_whole_list(k):
    rels = [1, 0, 1, 0, 0, 1]
    assert rk.average_precision(rels, k) == rk.average_precision(rels)
    assert rk.average_precision(rels, k, n_relevant=5) == rk.average_precision(rels, n_relevant=5)
    assert rk.average_precision([1], k=k) == 1.0


@pytest.mark.parametrize("threshold", [0, -1])
def test_ap_refuses_a_threshold_that_makes_non_relevant_documents_relevant(threshold):
    with pytest.raises(ValueError, match="threshold"):
        rk.average_precision([0, 0], threshold=threshold)
