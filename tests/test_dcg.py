"""Tests of rankedu/metrics/dcg.py: cumulative gain, DCG, ideal DCG and NDCG.

Written from CONTRACT.md and the seed posts, independently of the implementation.
"""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rankedu as rk

# Seed 003 (and seed 004): the grades of the six retrieved documents, and the judgment pool of
# the eight documents the post says were judged (the six plus a 3 and a 0).
SEED_RELS = (3, 2, 3, 0, 1, 2)
SEED_POOL = (3, 2, 3, 0, 1, 2, 3, 0)
SEED_DCG = sum(g / math.log2(i + 1) for i, g in enumerate(SEED_RELS, start=1))
SEED_IDEAL_TOP6 = (3, 3, 3, 2, 2, 1)
SEED_IDCG = sum(g / math.log2(i + 1) for i, g in enumerate(SEED_IDEAL_TOP6, start=1))

grades = st.lists(st.integers(0, 4), min_size=1, max_size=12)
cutoffs = st.one_of(st.none(), st.integers(1, 15))


def log2_dcg(rels):
    return sum(g / math.log2(i + 1) for i, g in enumerate(rels, start=1))


# --- seed 003: the worked NDCG example ------------------------------------------------------


def test_cumulative_gain_of_seed_003_is_the_plain_sum():
    assert rk.cumulative_gain(SEED_RELS) == 11.0
    assert rk.cumulative_gain(SEED_RELS, 3) == 8.0


def test_dcg_of_seed_003_is_6_861():
    value = rk.dcg(SEED_RELS)
    assert value == pytest.approx(3 + 2 / math.log2(3) + 1.5 + 0 + 1 / math.log2(6) + 2 / math.log2(7),
                                  abs=1e-12)
    assert round(value, 3) == 6.861
    assert rk.dcg(SEED_RELS, 6) == value


def test_idcg_at_6_of_seed_003_pool_is_8_384_not_the_seeds_truncated_8_37():
    value = rk.idcg(SEED_POOL, 6)
    assert value == pytest.approx(SEED_IDCG, abs=1e-12)
    assert round(value, 3) == 8.384
    # The post cuts every term to two decimals before adding them (its last term, 1/log2(7) =
    # 0.356, is written 0.35), which gives its 8.37.
    cut_terms = [math.floor(100 * g / math.log2(i + 1)) / 100 for i, g in enumerate(SEED_IDEAL_TOP6, start=1)]
    assert cut_terms == [3.0, 1.89, 1.5, 0.86, 0.77, 0.35]
    assert round(sum(cut_terms), 2) == 8.37
    assert round(value, 2) != 8.37


def test_ndcg_at_6_of_seed_003_is_0_8184_not_the_seeds_81_96_percent():
    value = rk.ndcg(SEED_RELS, 6, pool=SEED_POOL)
    assert value == pytest.approx(SEED_DCG / SEED_IDCG, abs=1e-12)
    assert round(value, 4) == 0.8184
    # 81.96 % is 6.86 / 8.37: the quotient of the two rounded numbers.
    assert round(6.86 / 8.37, 4) == 0.8196
    assert round(value, 4) != 0.8196


def test_explain_dcg_of_seed_003_has_one_row_per_rank_with_the_posts_columns(column_like, running_result):
    explanation = rk.explain.dcg(SEED_RELS)
    table = explanation.table
    assert len(table) == 6
    column_like(table, [1, 2, 3, 4, 5, 6])
    column_like(table, SEED_RELS)
    try:
        column_like(table, [math.log2(i + 1) for i in range(1, 7)])
    except AssertionError:
        column_like(table, [1 / math.log2(i + 1) for i in range(1, 7)])
    column_like(table, [g / math.log2(i + 1) for i, g in enumerate(SEED_RELS, start=1)])
    column_like(table, np.cumsum([g / math.log2(i + 1) for i, g in enumerate(SEED_RELS, start=1)]))
    assert running_result(table) == pytest.approx(explanation.value, abs=1e-12)
    assert explanation.value == rk.dcg(SEED_RELS)


def test_explain_ndcg_of_seed_003_holds_the_dcg_and_the_ideal_dcg_tables(column_like):
    explanation = rk.explain.ndcg(SEED_RELS, 6, pool=SEED_POOL)
    assert explanation.value == pytest.approx(rk.ndcg(SEED_RELS, 6, pool=SEED_POOL), abs=1e-12)
    tables = list(explanation.tables.values())
    assert len(tables) >= 2

    def holding(values):
        found = []
        for table in tables:
            try:
                column_like(table, values)
                found.append(table)
            except AssertionError:
                pass
        return found

    dcg_tables = holding(np.cumsum([g / math.log2(i + 1) for i, g in enumerate(SEED_RELS, 1)]))
    ideal_tables = holding(np.cumsum([g / math.log2(i + 1) for i, g in enumerate(SEED_IDEAL_TOP6, 1)]))
    assert dcg_tables, "no table of explain.ndcg holds the running DCG of the ranked list"
    assert ideal_tables, "no table of explain.ndcg holds the running DCG of the ideal list"
    assert len(ideal_tables[0]) == 6
    column_like(ideal_tables[0], SEED_IDEAL_TOP6)


# --- seed 004: the same lists, a wrong ideal ----------------------------------------------------


def test_seed_004s_idcg_8_740_is_the_dcg_of_the_unsupported_ideal_3_3_3_2_2_2():
    assert round(rk.dcg((3, 3, 3, 2, 2, 2)), 3) == 8.740
    assert round(rk.dcg(SEED_RELS) / rk.dcg((3, 3, 3, 2, 2, 2)), 3) == 0.785


def test_seed_004s_pool_gives_idcg_8_384_and_ndcg_0_8184():
    # The post lists the ideal order 3,3,3,2,2,1,0 itself; its top six give 8.384, not 8.740.
    assert rk.idcg((3, 3, 3, 2, 2, 1, 0), 6) == pytest.approx(SEED_IDCG, abs=1e-12)
    assert round(rk.idcg(SEED_POOL, 6), 3) == 8.384
    assert round(rk.ndcg(SEED_RELS, 6, pool=SEED_POOL), 4) == 0.8184
    # The pool holds only one 2 besides the ones ranked; three 2s cannot be in the ideal list.
    assert sorted(SEED_POOL, reverse=True)[:6] == list(SEED_IDEAL_TOP6)


def test_seed_004_ndcg_cannot_tell_1_1_1_from_1_1_1_0():
    assert rk.ndcg((1, 1, 1)) == 1.0
    assert rk.ndcg((1, 1, 1, 0)) == 1.0


def test_seed_004_bad_documents_graded_minus_one_lower_dcg_but_not_ndcg_against_own_pool():
    assert rk.dcg((1, 1, 1, -1)) < rk.dcg((1, 1, 1))
    # The ideal ranking of the list's own grades also ends in the -1, so NDCG stays 1.
    assert rk.ndcg((1, 1, 1, -1)) == pytest.approx(1.0, abs=1e-12)


def test_seed_004_missing_documents_are_invisible_when_each_list_is_cut_at_its_own_length():
    assert rk.ndcg((1, 1, 1), 3) == 1.0
    assert rk.ndcg((1, 1, 1, 1, 1), 5) == 1.0


def test_seed_004_padding_to_fixed_k_penalises_only_against_the_judged_pool():
    padded = (1, 1, 1, 0, 0)
    # Against its own grades the padded list is still ideal.
    assert rk.ndcg(padded, 5) == 1.0
    # Against a pool of five relevant documents it is not.
    pool = (1, 1, 1, 1, 1)
    expected = log2_dcg((1, 1, 1)) / log2_dcg(pool)
    assert rk.ndcg(padded, 5, pool=pool) == pytest.approx(expected, abs=1e-12)
    assert rk.ndcg((1, 1, 1, 1, 1), 5, pool=pool) == 1.0


def test_ranks_past_the_end_of_a_short_list_add_no_gain():
    pool = (1, 1, 1, 1, 1)
    assert rk.dcg((1, 1, 1), 5) == rk.dcg((1, 1, 1, 0, 0), 5)
    assert rk.ndcg((1, 1, 1), 5, pool=pool) == rk.ndcg((1, 1, 1, 0, 0), 5, pool=pool)


# --- seed 000: CG ignores order, DCG does not -------------------------------------------------


def test_seed_000_cg_of_3_m1_1_equals_cg_of_m1_1_3_but_dcg_prefers_the_first():
    assert rk.cumulative_gain((3, -1, 1)) == rk.cumulative_gain((-1, 1, 3)) == 3.0
    first, second = rk.dcg((3, -1, 1)), rk.dcg((-1, 1, 3))
    assert first == pytest.approx(3 - 1 / math.log2(3) + 1 / 2, abs=1e-12)
    assert second == pytest.approx(-1 + 1 / math.log2(3) + 3 / 2, abs=1e-12)
    assert first > second


# --- seed 001: Järvelin and Kekäläinen's discount, and the two gains -----------------------------


def test_jarvelin_discount_is_one_at_ranks_1_and_2_then_one_over_log2_rank():
    expected = 3 + 2 / math.log2(2) + 3 / math.log2(3) + 0 + 1 / math.log2(5) + 2 / math.log2(6)
    assert rk.dcg(SEED_RELS, discount="jarvelin") == pytest.approx(expected, abs=1e-12)
    assert rk.dcg((0, 1), discount="jarvelin") == 1.0
    assert rk.dcg((0, 0, 1), discount="jarvelin") == pytest.approx(1 / math.log2(3), abs=1e-12)


def test_jarvelin_discount_never_discounts_more_than_log2():
    assert rk.dcg(SEED_RELS, discount="jarvelin") > rk.dcg(SEED_RELS, discount="log2")


def test_exponential_gain_is_two_to_the_grade_minus_one():
    expected = sum((2**g - 1) / math.log2(i + 1) for i, g in enumerate(SEED_RELS, start=1))
    assert rk.dcg(SEED_RELS, gain="exponential") == pytest.approx(expected, abs=1e-12)


@given(st.lists(st.integers(0, 1), min_size=1, max_size=12), cutoffs)
def test_seed_001_linear_and_exponential_gain_agree_for_binary_grades(rels, k):
    assert rk.dcg(rels, k, gain="linear") == rk.dcg(rels, k, gain="exponential")


def test_linear_and_exponential_gain_differ_for_grade_two():
    assert rk.dcg((2,), gain="linear") == 2.0
    assert rk.dcg((2,), gain="exponential") == 3.0


def test_ndcg_uses_the_same_gain_and_discount_for_the_ideal():
    for gain, discount in itertools.product(("linear", "exponential"), ("log2", "jarvelin")):
        value = rk.ndcg(SEED_RELS, 6, pool=SEED_POOL, gain=gain, discount=discount)
        expected = rk.dcg(SEED_RELS, 6, gain=gain, discount=discount) / rk.idcg(
            SEED_POOL, 6, gain=gain, discount=discount
        )
        assert value == pytest.approx(expected, abs=1e-12)


# --- conventions of the contract ----------------------------------------------------------------


def test_idcg_sorts_the_pool_highest_first():
    assert rk.idcg((0, 1, 3, 2)) == pytest.approx(rk.dcg((3, 2, 1, 0)), abs=1e-12)
    assert rk.idcg((0, 1, 3, 2), 2) == pytest.approx(rk.dcg((3, 2)), abs=1e-12)


def test_ndcg_pool_defaults_to_rels():
    assert rk.ndcg(SEED_RELS) == pytest.approx(rk.dcg(SEED_RELS) / rk.idcg(SEED_RELS), abs=1e-12)
    assert rk.ndcg(SEED_RELS, 3) == pytest.approx(rk.ndcg(SEED_RELS, 3, pool=SEED_RELS), abs=1e-12)


def test_ndcg_is_zero_when_the_ideal_dcg_is_zero():
    assert rk.ndcg((0, 0, 0)) == 0.0
    assert rk.ndcg((0, 0), pool=(0, 0, 0)) == 0.0
    assert type(rk.ndcg((0, 0, 0))) is float


def test_ndcg_refuses_a_negative_ideal_dcg_instead_of_reversing_the_order():
    # DCG/IDCG with IDCG < 0 would score the Bad-document-first ranking 2.0.
    with pytest.raises(ValueError, match="pool: the ideal DCG is negative"):
        rk.ndcg([-1, 0, 0])
    with pytest.raises(ValueError, match="pool"):
        rk.explain.ndcg([0, 0], pool=[0, -1])


def test_ndcg_with_negative_grades_and_a_positive_ideal_can_be_negative():
    assert rk.ndcg([-1, 1]) == pytest.approx((-1 + 1 / math.log2(3)) / (1 - 1 / math.log2(3)))


def test_k_cuts_the_list_and_the_ideal():
    assert rk.dcg(SEED_RELS, 2) == pytest.approx(3 + 2 / math.log2(3), abs=1e-12)
    assert rk.ndcg(SEED_RELS, 1, pool=SEED_POOL) == 1.0
    assert rk.cumulative_gain(SEED_RELS, 100) == rk.cumulative_gain(SEED_RELS)


def test_ndcg_with_the_whole_pool_uses_every_judged_document_for_the_ideal():
    # k=None: DCG of all six ranked documents over the ideal DCG of all eight judged ones.
    expected = SEED_DCG / log2_dcg(sorted(SEED_POOL, reverse=True))
    assert rk.ndcg(SEED_RELS, pool=SEED_POOL) == pytest.approx(expected, abs=1e-12)


# --- properties -----------------------------------------------------------------------------------


@given(grades, st.lists(st.integers(0, 4), max_size=6), cutoffs)
def test_ndcg_is_between_0_and_1_when_the_pool_contains_the_ranked_grades(rels, extra, k):
    value = rk.ndcg(rels, k, pool=rels + extra)
    assert 0.0 <= value <= 1.0 + 1e-12


@given(grades, cutoffs)
def test_ndcg_of_the_ideal_order_is_1(rels, k):
    ideal = sorted(rels, reverse=True)
    expected = 1.0 if any(ideal[: k or len(ideal)]) else 0.0
    assert rk.ndcg(ideal, k) == pytest.approx(expected, abs=1e-12)


@given(grades, st.randoms(use_true_random=False), cutoffs)
def test_cumulative_gain_ignores_order(rels, random, k):
    shuffled = list(rels)
    random.shuffle(shuffled)
    assert rk.cumulative_gain(shuffled) == rk.cumulative_gain(rels)
    assert rk.cumulative_gain(rels, k) == float(sum(rels[: k or len(rels)]))


@given(grades, cutoffs)
def test_dcg_matches_the_formula(rels, k):
    top = rels[: k or len(rels)]
    assert rk.dcg(rels, k) == pytest.approx(log2_dcg(top), abs=1e-12)


@given(grades, cutoffs, st.sampled_from(["linear", "exponential"]), st.sampled_from(["log2", "jarvelin"]))
def test_explain_values_equal_the_functions(rels, k, gain, discount):
    assert abs(rk.explain.cumulative_gain(rels, k).value - rk.cumulative_gain(rels, k)) <= 1e-12
    assert abs(rk.explain.dcg(rels, k, gain=gain, discount=discount).value
               - rk.dcg(rels, k, gain=gain, discount=discount)) <= 1e-12
    assert abs(rk.explain.idcg(rels, k, gain=gain, discount=discount).value
               - rk.idcg(rels, k, gain=gain, discount=discount)) <= 1e-12
    pool = rels + [4]
    assert abs(rk.explain.ndcg(rels, k, pool=pool, gain=gain, discount=discount).value
               - rk.ndcg(rels, k, pool=pool, gain=gain, discount=discount)) <= 1e-12


@pytest.mark.parametrize("convert", [list, tuple, np.array, lambda x: np.array(x, dtype=float)],
                         ids=["list", "tuple", "int-array", "float-array"])
def test_lists_tuples_and_arrays_give_the_same_float(convert):
    rels, pool = convert(list(SEED_RELS)), convert(list(SEED_POOL))
    results = [
        rk.cumulative_gain(rels, 6),
        rk.dcg(rels, 6),
        rk.idcg(pool, 6),
        rk.ndcg(rels, 6, pool=pool),
        rk.dcg(rels, gain="exponential", discount="jarvelin"),
    ]
    for value in results:
        assert type(value) is float
    assert results == [
        rk.cumulative_gain(list(SEED_RELS), 6),
        rk.dcg(list(SEED_RELS), 6),
        rk.idcg(list(SEED_POOL), 6),
        rk.ndcg(list(SEED_RELS), 6, pool=list(SEED_POOL)),
        rk.dcg(list(SEED_RELS), gain="exponential", discount="jarvelin"),
    ]


def test_numpy_integer_k_is_accepted():
    assert rk.dcg(SEED_RELS, np.int64(3)) == rk.dcg(SEED_RELS, 3)


# --- trec_eval (pytrec_eval) ------------------------------------------------------------------
# rankedu sees each query's grades in trec_eval's ranking order (score descending, ties broken
# by docno descending; built in conftest.TrecCase.ranked) and the pool of every judged grade.


def test_ndcg_agrees_with_trec_eval_ndcg_and_ndcg_cut(trec_case):
    results = trec_case.trec_eval({"ndcg", "ndcg_cut.5,10,20"})
    for qid, measures in results.items():
        rels, pool, _ = trec_case.ranked(qid)
        assert rk.ndcg(rels, pool=pool) == pytest.approx(measures["ndcg"], abs=1e-12), qid
        for k in (5, 10, 20):
            assert rk.ndcg(rels, k, pool=pool) == pytest.approx(
                measures[f"ndcg_cut_{k}"], abs=1e-12
            ), (qid, k)


# --- scikit-learn -------------------------------------------------------------------------------
# sklearn.metrics.ndcg_score: linear gain, 1/log2(i+1) discount, ideal from y_true of the scored
# candidates only, and (by default) tied scores share the average gain of their group.


def _sklearn_ndcg(y_true, y_score, k=None):
    from sklearn.metrics import ndcg_score

    return float(ndcg_score([y_true], [y_score], k=k))


@given(st.lists(st.tuples(st.integers(0, 4), st.floats(0, 1, allow_nan=False)), min_size=2, max_size=10,
                unique_by=lambda pair: pair[1]), st.one_of(st.none(), st.integers(1, 12)))
def test_ndcg_agrees_with_sklearn_without_tied_scores(pairs, k):
    y_true = [g for g, _ in pairs]
    y_score = [s for _, s in pairs]
    ranked = [g for g, _ in sorted(pairs, key=lambda pair: pair[1], reverse=True)]
    assert rk.ndcg(ranked, k, pool=y_true) == pytest.approx(_sklearn_ndcg(y_true, y_score, k), abs=1e-12)


def test_sklearn_ndcg_averages_tied_scores_where_rankedu_uses_the_order_given():
    # Two documents tied in score, grades 3 and 0. rankedu ranks them as given; sklearn gives
    # each the mean gain 1.5.
    assert rk.ndcg((3, 0)) == 1.0
    assert rk.ndcg((0, 3), pool=(3, 0)) == pytest.approx(1 / math.log2(3), abs=1e-12)
    sklearn_value = _sklearn_ndcg([3, 0], [0.5, 0.5])
    assert sklearn_value == pytest.approx((1.5 + 1.5 / math.log2(3)) / 3, abs=1e-12)
    assert round(sklearn_value, 4) == 0.8155
    # sklearn's number is the mean of rankedu's over both orders of the tie.
    assert sklearn_value == pytest.approx((rk.ndcg((3, 0)) + rk.ndcg((0, 3), pool=(3, 0))) / 2, abs=1e-12)


@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 2)), min_size=2, max_size=6),
       st.one_of(st.none(), st.integers(1, 8)))
def test_sklearn_ndcg_with_ties_is_rankedus_ndcg_averaged_over_every_order_of_the_ties(pairs, k):
    y_true = [g for g, _ in pairs]
    y_score = [float(s) for _, s in pairs]
    groups = [
        [g for g, s in pairs if s == score] for score in sorted(set(y_score), reverse=True)
    ]
    orders = itertools.product(*(set(itertools.permutations(group)) for group in groups))
    values = [rk.ndcg([g for group in order for g in group], k, pool=y_true) for order in orders]
    assert float(np.mean(values)) == pytest.approx(_sklearn_ndcg(y_true, y_score, k), abs=1e-12)


# --- trec_eval's own test data --------------------------------------------------------------
# trec_eval prints 4 decimals. qrels.rel_level has grades -1..4; trec_eval gives a negative
# grade gain 0 (CONTRACT: evaluate does the same), so the test clips grades at 0 before
# calling rk.ndcg, whose own convention keeps negative gains.


@pytest.mark.parametrize("judgments", ["test", "rel_level"])
def test_ndcg_agrees_with_trec_evals_test_outputs(trec_reference, judgments):
    for qid, rels, pool, _, measures in trec_reference.queries(judgments):
        rels = [max(g, 0) for g in rels]
        pool = [max(g, 0) for g in pool]
        assert rk.ndcg(rels, pool=pool) == pytest.approx(measures["ndcg"], abs=0.5e-4), qid
        for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000):
            assert rk.ndcg(rels, k, pool=pool) == pytest.approx(
                measures[f"ndcg_cut_{k}"], abs=0.5e-4), (qid, k)


# --- the pool must hold what was retrieved (issue 16) ------------------------------------------


@pytest.mark.parametrize("module", [rk, rk.explain], ids=["function", "explain"])
@pytest.mark.parametrize("rels, pool", [
    ([3, 0], [1, 0]),            # grade 3 retrieved, none in the pool (NDCG was 3.0)
    ([2, 2, 1], [2, 1, 1, 0]),   # two 2s retrieved, one in the pool
    ([1], []),                   # an empty pool
], ids=["missing-grade", "too-few", "empty-pool"])
def test_a_retrieved_positive_grade_missing_from_the_pool_raises_naming_pool(module, rels, pool):
    with pytest.raises(ValueError, match="pool holds"):
        module.ndcg(rels, pool=pool)


def test_grades_of_0_or_below_need_not_be_in_the_pool():
    # Unjudged documents (grade 0) and documents graded below 0 are not pooled relevant ones.
    assert rk.ndcg([1, 0, 0], pool=[1]) == 1.0
    assert round(rk.ndcg([1, 1, 1, -1], 4, pool=[1, 1, 1]), 4) == 0.7979


@given(grades, grades, cutoffs)
def test_ndcg_never_exceeds_1_when_it_does_not_raise(rels, pool, k):
    try:
        value = rk.ndcg(rels, k, pool=pool)
    except ValueError as error:
        assert "pool" in str(error)
        retrieved = [g for g in rels if g > 0]
        assert any(retrieved.count(g) > pool.count(g) for g in retrieved)
        return
    assert 0.0 <= value <= 1.0 + 1e-12


def test_the_negative_ideal_message_states_both_conventions_truly():
    with pytest.raises(ValueError) as info:
        rk.ndcg([0, 0], pool=[0, -1])
    message = str(info.value)
    assert "pooled but not judged" in message and "face value" in message
    assert "gain 0" in message


# --- exponential gain that overflows a float (issue 16) ----------------------------------------


@pytest.mark.parametrize("module", [rk, rk.explain], ids=["function", "explain"])
@pytest.mark.parametrize("call, name", [
    (lambda m: m.dcg([1100, 0], gain="exponential"), "rels"),
    (lambda m: m.ndcg([1100, 0], gain="exponential"), "rels"),
    (lambda m: m.idcg([0, 1024], gain="exponential"), "pool"),
    (lambda m: m.ndcg([3, 0], pool=[3, 1500], gain="exponential"), "pool"),
    (lambda m: m.dcg([1023] * 3, gain="exponential"), "rels"),  # each term finite, the sum not
    (lambda m: m.dcg([1e308] * 3), "rels"),  # linear gain can overflow too
], ids=["dcg", "ndcg", "idcg", "ndcg-pool", "sum", "linear"])
def test_a_dcg_that_overflows_a_float_raises_naming_the_argument(module, call, name):
    with pytest.raises(ValueError, match=f"^{name}: the DCG of these grades overflows"):
        call(module)


def test_the_largest_exponential_gains_that_fit_are_computed():
    assert rk.dcg([1023], gain="exponential") == 2.0**1023
    assert rk.ndcg([0, 1000], gain="exponential") == pytest.approx(1 / math.log2(3), rel=1e-12)


# --- Järvelin and Kekäläinen's base b (API decision 6) -----------------------------------------


@pytest.mark.parametrize("base", [2, 3, 2.5, 10])
def test_jarvelin_discount_is_1_up_to_rank_b_then_log_b(base):
    rels = [3, 2, 3, 0, 1, 2, 3, 1, 2, 1, 1, 2]
    expected = sum(g / max(1.0, math.log(i, base)) for i, g in enumerate(rels, start=1))
    assert rk.dcg(rels, discount="jarvelin", base=base) == pytest.approx(expected, rel=1e-12)
    weights = [rk.dcg([0] * (i - 1) + [1], discount="jarvelin", base=base) for i in range(1, 13)]
    assert all(w == 1.0 for w in weights[: int(base)])
    assert all(w < 1.0 for w in weights[int(base) + (base != int(base)):])


def test_base_2_is_the_default_jarvelin_discount():
    assert rk.dcg(SEED_RELS, discount="jarvelin", base=2) == rk.dcg(SEED_RELS, discount="jarvelin")


def test_a_more_patient_user_discounts_less():
    dcgs = [rk.dcg(SEED_RELS, discount="jarvelin", base=b) for b in (2, 3, 5, 10)]
    assert dcgs == sorted(dcgs)
    assert dcgs[-1] == rk.cumulative_gain(SEED_RELS)  # six ranks, none past b = 10


def test_explain_names_the_base_in_the_discount_column(column_like):
    table = rk.explain.ndcg([3, 2, 1, 1], discount="jarvelin", base=3).table
    assert "max(1, log3 i)" in table.columns
    column_like(table, [1, 1, 1, math.log(4, 3)])
