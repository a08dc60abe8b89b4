"""Tests of rankedu/metrics/pair_ratio.py: concordant over discordant pairs.

Written from CONTRACT.md and seed 003, independently of the implementation.
"""

import itertools
import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import rankedu as rk
from rankedu.metrics.pair_ratio import MAX_LISTED, _inversions, _pair_counts

# Seed 003: the true order of documents 1, 3, 4, 6 and the model's order 1, 4, 6, 3. Encoded
# as grades by true position (first in the true order gets the highest grade) and scores by
# model position (first in the model's order gets the highest score).
TRUE_ORDER = [1, 3, 4, 6]
MODEL_ORDER = [1, 4, 6, 3]
SEED_GRADES = [len(TRUE_ORDER) - TRUE_ORDER.index(doc) for doc in TRUE_ORDER]
SEED_SCORES = [float(len(MODEL_ORDER) - MODEL_ORDER.index(doc)) for doc in TRUE_ORDER]


def count_pairs(grades, scores):
    concordant = discordant = 0
    for i, j in itertools.combinations(range(len(grades)), 2):
        if grades[i] == grades[j] or scores[i] == scores[j]:
            continue
        if (grades[i] - grades[j]) * (scores[i] - scores[j]) > 0:
            concordant += 1
        else:
            discordant += 1
    return concordant, discordant


def test_seed_003_encoding_is_as_described():
    assert SEED_GRADES == [4, 3, 2, 1]
    assert SEED_SCORES == [4.0, 1.0, 3.0, 2.0]


def test_seed_003_pair_ratio_is_4_concordant_over_2_discordant():
    assert count_pairs(SEED_GRADES, SEED_SCORES) == (4, 2)
    assert rk.pair_ratio(SEED_GRADES, SEED_SCORES) == 2.0


def test_seed_003_explain_has_one_row_per_pair_ending_in_2(running_result, column_like):
    explanation = rk.explain.pair_ratio(SEED_GRADES, SEED_SCORES)
    assert explanation.value == 2.0
    # Six pairs of documents with different grades, in the order (1,3) (1,4) (1,6) (3,4) (3,6)
    # (4,6): only the pairs holding document 3, which the model moved last, are discordant.
    assert len(explanation.table) == 6
    column_like(explanation.table, [1, 2, 3, 3, 3, 4])  # running concordant count
    column_like(explanation.table, [0, 0, 0, 1, 2, 2])  # running discordant count
    assert running_result(explanation.table) == 2.0


def test_pairs_of_equal_grade_are_not_counted():
    # Documents 0 and 1 share a grade; whatever their scores, they are no pair.
    assert rk.pair_ratio([1, 1, 0], [0.1, 0.9, 0.5]) == pytest.approx(1.0, abs=1e-12)


def test_a_pair_tied_in_score_is_neither_concordant_nor_discordant():
    # Pairs: (2,1) tied in score; (2,0) concordant; (1,0) discordant.
    assert rk.pair_ratio([2, 1, 0], [0.5, 0.5, 0.7]) == 0.0
    assert rk.pair_ratio([2, 1, 0], [0.5, 0.5, 0.1]) == math.inf


def test_ideal_order_has_ratio_inf():
    assert rk.pair_ratio([3, 2, 1, 0], [4.0, 3.0, 2.0, 1.0]) == math.inf
    assert type(rk.pair_ratio([3, 2, 1, 0], [4.0, 3.0, 2.0, 1.0])) is float


def test_reversed_order_has_ratio_zero():
    assert rk.pair_ratio([3, 2, 1, 0], [1.0, 2.0, 3.0, 4.0]) == 0.0


def test_no_pair_to_judge_is_nan_not_the_value_of_a_reversed_ranking():
    # API decision 5 (issue 10): 0/0 is "no pair to judge", nan, documented; it used to be 0.0,
    # the value of a fully reversed ranking, while gamma said 0 for the same input.
    assert math.isnan(rk.pair_ratio([1, 1, 1], [0.3, 0.2, 0.1]))  # every grade the same
    assert math.isnan(rk.pair_ratio([2, 1, 0], [0.5, 0.5, 0.5]))  # every score the same
    assert math.isnan(rk.pair_ratio([1, 0], [0.5, 0.5]))
    assert math.isnan(rk.goodman_kruskal_gamma([2, 1, 0], [0.5, 0.5, 0.5]))


def test_no_concordant_pair_but_some_discordant_gives_0():
    assert rk.pair_ratio([1, 0], [0.1, 0.5]) == 0.0
    assert rk.pair_ratio([3, 2, 1, 0], [1.0, 2.0, 3.0, 4.0]) == 0.0


# --- properties -----------------------------------------------------------------------------

pairs_strategy = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 5)), min_size=2, max_size=12)


@given(pairs_strategy)
def test_pair_ratio_matches_the_pair_count(pairs):
    grades = [g for g, _ in pairs]
    scores = [float(s) for _, s in pairs]
    concordant, discordant = count_pairs(grades, scores)
    if discordant:
        assert rk.pair_ratio(grades, scores) == pytest.approx(concordant / discordant, abs=1e-12)
    elif concordant:
        assert rk.pair_ratio(grades, scores) == math.inf
    else:
        assert math.isnan(rk.pair_ratio(grades, scores))


@given(st.lists(st.integers(0, 3), min_size=2, max_size=12).filter(lambda g: len(set(g)) > 1))
def test_pair_ratio_of_the_ideal_order_is_inf(grades):
    ideal = sorted(grades, reverse=True)
    scores = [float(-i) for i in range(len(ideal))]
    assert rk.pair_ratio(ideal, scores) == math.inf


@given(pairs_strategy.filter(lambda p: count_pairs([g for g, _ in p], [s for _, s in p]) != (0, 0)))
def test_explain_value_equals_the_function(pairs):
    grades = [g for g, _ in pairs]
    scores = [float(s) for _, s in pairs]
    value = rk.pair_ratio(grades, scores)
    explained = rk.explain.pair_ratio(grades, scores).value
    assert explained == value or abs(explained - value) <= 1e-12


@pytest.mark.parametrize("convert", [list, tuple, np.array, lambda x: np.array(x, dtype=float)],
                         ids=["list", "tuple", "int-array", "float-array"])
def test_lists_tuples_and_arrays_give_the_same_float(convert):
    value = rk.pair_ratio(convert(SEED_GRADES), convert(SEED_SCORES))
    assert type(value) is float
    assert value == 2.0


# --- Kendall's tau and Goodman and Kruskal's gamma (book/pair_ratio.ipynb) ---

from scipy import stats as _stats


def _brute_force_counts(grades, scores):
    c = d = 0
    for i, j in itertools.combinations(range(len(grades)), 2):
        product = (grades[i] - grades[j]) * (scores[i] - scores[j])
        c += product > 0
        d += product < 0
    return c, d


graded_lists = st.integers(2, 12).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 3), min_size=n, max_size=n),
        st.lists(st.integers(0, 5), min_size=n, max_size=n),
    )
)


@given(graded_lists)
def test_kendall_tau_b_equals_scipys_default_kendalltau(case):
    grades, scores = case
    expected = _stats.kendalltau(grades, scores).statistic
    if math.isnan(expected):  # every grade or every score the same: 0/0, nan in both
        assert math.isnan(rk.kendall_tau(grades, scores))
    else:
        assert math.isclose(rk.kendall_tau(grades, scores), expected, abs_tol=1e-12)


@given(graded_lists)
def test_kendall_tau_a_is_c_minus_d_over_all_pairs(case):
    grades, scores = case
    c, d = _brute_force_counts(grades, scores)
    n_pairs = len(grades) * (len(grades) - 1) / 2
    assert math.isclose(rk.kendall_tau(grades, scores, variant="a"), (c - d) / n_pairs, abs_tol=1e-12)


@given(graded_lists)
def test_gamma_is_ratio_minus_one_over_ratio_plus_one(case):
    grades, scores = case
    c, d = _brute_force_counts(grades, scores)
    gamma = rk.goodman_kruskal_gamma(grades, scores)
    ratio = rk.pair_ratio(grades, scores)
    if c + d == 0:
        assert math.isnan(gamma) and math.isnan(ratio)
        return
    assert math.isclose(gamma, (c - d) / (c + d), abs_tol=1e-12)
    if d > 0:
        assert math.isclose(gamma, (ratio - 1) / (ratio + 1), abs_tol=1e-12)
    else:
        assert ratio == math.inf and gamma == 1.0


@given(st.permutations(range(8)), st.permutations(range(8)))
def test_without_ties_tau_a_tau_b_and_gamma_agree(grades, scores):
    tau_b = rk.kendall_tau(grades, scores)
    assert math.isclose(tau_b, rk.kendall_tau(grades, scores, variant="a"), abs_tol=1e-12)
    assert math.isclose(tau_b, rk.goodman_kruskal_gamma(grades, scores), abs_tol=1e-12)


def test_with_tied_grades_tau_b_is_smaller_than_gamma():
    grades, scores = [1, 1, 0, 0], [4, 3, 2, 1]
    assert rk.goodman_kruskal_gamma(grades, scores) == 1.0
    assert math.isclose(rk.kendall_tau(grades, scores), 4 / math.sqrt(4 * 6), abs_tol=1e-12)


def test_seed_example_has_tau_one_third():
    assert math.isclose(rk.kendall_tau([4, 3, 2, 1], [4, 1, 3, 2]), 1 / 3, abs_tol=1e-15)


def test_kendall_tau_rejects_an_unknown_variant_naming_it():
    with pytest.raises(ValueError, match="variant"):
        rk.kendall_tau([1, 0], [0, 1], variant="c")


@given(
    st.lists(st.booleans(), min_size=2, max_size=30).filter(lambda ls: 0 < sum(ls) < len(ls)),
    st.randoms(use_true_random=False),
)
def test_for_0_1_labels_without_score_ties_ratio_is_auc_over_one_minus_auc(labels, random):
    labels = [int(x) for x in labels]
    scores = random.sample(range(1000), len(labels))  # distinct scores
    auc = rk.roc_auc(labels, scores)
    ratio = rk.pair_ratio(labels, scores)
    if auc == 1.0:
        assert ratio == math.inf
    else:
        assert math.isclose(ratio, auc / (1 - auc), rel_tol=1e-12)
    assert math.isclose(rk.goodman_kruskal_gamma(labels, scores), 2 * auc - 1, abs_tol=1e-12)


# --- O(n log n) counting (Knight, 1966), checked against the O(n^2) definition ---------------

def brute_force_counts(grades, scores):
    """Every pair, classified one by one: the definition the fast count must reproduce."""
    counts = dict.fromkeys(["pairs", "tied grades", "tied scores", "tied both", "concordant",
                            "discordant"], 0)
    for i, j in itertools.combinations(range(len(grades)), 2):
        dg, ds = grades[i] - grades[j], scores[i] - scores[j]
        counts["pairs"] += 1
        counts["tied grades"] += dg == 0
        counts["tied scores"] += ds == 0
        counts["tied both"] += dg == 0 and ds == 0
        counts["concordant"] += dg * ds > 0
        counts["discordant"] += dg * ds < 0
    return {"n": len(grades), **counts}


# Few distinct values, so that ties in grade, in score and in both are the rule.
tied_lists = st.integers(0, 60).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 3), min_size=n, max_size=n),
        st.lists(st.integers(-2, 3).map(lambda s: s / 2), min_size=n, max_size=n),
    )
)


@given(tied_lists)
def test_knight_counts_equal_the_pair_by_pair_counts_with_many_ties(case):
    grades, scores = case
    assert _pair_counts(grades, scores) == brute_force_counts(grades, scores)


@given(st.lists(st.integers(0, 40), max_size=200))
def test_inversion_count_equals_the_brute_force_count(values):
    expected = sum(a > b for a, b in itertools.combinations(values, 2))
    assert _inversions(np.array(values, dtype=np.int64)) == expected


@given(tied_lists)
def test_gamma_is_one_minus_two_over_ratio_plus_one_including_inf_and_nan(case):
    # gamma = (rho - 1)/(rho + 1) = 1 - 2/(rho + 1); the second form is defined at rho = inf
    # (gamma 1) and propagates nan (no pair to judge), so the identity holds everywhere.
    grades, scores = case
    rho, gamma = rk.pair_ratio(grades, scores), rk.goodman_kruskal_gamma(grades, scores)
    if math.isnan(rho):
        assert math.isnan(gamma)
    else:
        assert math.isclose(gamma, 1 - 2 / (rho + 1), rel_tol=1e-12, abs_tol=1e-12)
        if rho == math.inf:
            assert gamma == 1.0


@given(tied_lists)
def test_kendall_tau_b_equals_scipy_with_many_ties_and_nan_where_scipy_has_nan(case):
    grades, scores = case
    if len(grades) < 2:  # scipy warns on fewer than two values; tau is 0/0 there
        assert math.isnan(rk.kendall_tau(grades, scores))
        assert math.isnan(rk.kendall_tau(grades, scores, variant="a"))
        return
    expected = float(_stats.kendalltau(grades, scores).statistic)
    value = rk.kendall_tau(grades, scores)
    assert (math.isnan(value) and math.isnan(expected)) or math.isclose(value, expected, abs_tol=1e-12)


@given(tied_lists.filter(lambda case: len(set(case[0])) > 1))
def test_c_minus_d_over_pairs_untied_in_grade_is_scipys_somers_d(case):
    grades, scores = case
    assume(len(set(scores)) > 1)  # scipy 1.17's somersd is nan for a single score (0 here)
    counts = _pair_counts(grades, scores)
    somers = (counts["concordant"] - counts["discordant"]) / (counts["pairs"] - counts["tied grades"])
    assert math.isclose(somers, float(_stats.somersd(grades, scores).statistic), abs_tol=1e-12)


@given(
    st.lists(st.integers(0, 1), min_size=2, max_size=40).filter(lambda y: 0 < sum(y) < len(y)),
    st.data(),
)
def test_for_0_1_labels_two_auc_minus_one_is_somers_d_even_with_tied_scores(labels, data):
    scores = data.draw(st.lists(st.integers(0, 4), min_size=len(labels), max_size=len(labels)))
    assume(len(set(scores)) > 1)  # scipy 1.17's somersd is nan for a single score (0 here)
    auc = rk.roc_auc(labels, scores)
    assert math.isclose(2 * auc - 1, float(_stats.somersd(labels, scores).statistic), abs_tol=1e-12)


def test_two_auc_minus_one_is_gamma_not_kendall_tau_for_30_positives_and_70_negatives():
    # Review B's example shape: 0/1 labels tie in most pairs, so tau-b is far from 2 AUC - 1.
    rng = np.random.default_rng(7)
    labels = np.r_[np.ones(30, dtype=int), np.zeros(70, dtype=int)]
    scores = rng.normal(size=100) + 0.8 * labels  # distinct scores, positives pushed up
    assert len(set(scores)) == 100
    auc = rk.roc_auc(labels, scores)
    assert math.isclose(rk.goodman_kruskal_gamma(labels, scores), 2 * auc - 1, abs_tol=1e-12)
    tau_b = rk.kendall_tau(labels, scores)
    assert math.isclose(tau_b, float(_stats.kendalltau(labels, scores).statistic), abs_tol=1e-12)
    assert tau_b < 0.7 * (2 * auc - 1)


def test_counts_of_a_large_tied_input_agree_with_scipy():
    rng = np.random.default_rng(2026)
    grades = rng.integers(0, 5, 200_000)
    scores = np.round(grades + rng.normal(0, 2, grades.size), 1)
    assert math.isclose(rk.kendall_tau(grades, scores), float(_stats.kendalltau(grades, scores).statistic),
                        abs_tol=1e-12)
    counts = _pair_counts(grades, scores)
    somers = (counts["concordant"] - counts["discordant"]) / (counts["pairs"] - counts["tied grades"])
    assert math.isclose(somers, float(_stats.somersd(grades, scores).statistic), abs_tol=1e-12)


def test_pair_ratio_of_a_million_documents_is_counted_without_listing_pairs():
    rng = np.random.default_rng(1)
    grades = rng.integers(0, 4, 1_000_000)
    scores = grades + rng.random(grades.size)  # every pair with different grades in order
    assert rk.pair_ratio(grades, scores) == math.inf
    assert rk.goodman_kruskal_gamma(grades, scores) == 1.0


# --- the explanations -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["pair_ratio", "kendall_tau", "goodman_kruskal_gamma"])
@given(case=tied_lists)
def test_explanation_value_is_the_function_and_its_pairs_give_the_same_counts(name, case):
    grades, scores = case
    explanation = getattr(rk.explain, name)(grades, scores)
    value = getattr(rk, name)(grades, scores)
    assert explanation.value == value or (math.isnan(value) and math.isnan(explanation.value))
    pairs = explanation.tables["pairs"]
    counts = brute_force_counts(grades, scores)
    assert (pairs["verdict"] == "concordant").sum() == counts["concordant"]
    assert (pairs["verdict"] == "discordant").sum() == counts["discordant"]
    if len(pairs):
        assert (pairs["C"].iloc[-1], pairs["D"].iloc[-1]) == (counts["concordant"], counts["discordant"])


@pytest.mark.parametrize("name", ["kendall_tau", "goodman_kruskal_gamma"])
def test_explanation_of_tau_and_gamma_ends_in_the_value(name, running_result):
    explanation = getattr(rk.explain, name)(SEED_GRADES, SEED_SCORES)
    assert running_result(explanation.table) == explanation.value == getattr(rk, name)(SEED_GRADES, SEED_SCORES)
    assert len(explanation.tables["pairs"]) == 6


def test_explain_kendall_tau_takes_the_variant():
    explanation = rk.explain.kendall_tau([1, 1, 0, 0], [4, 3, 2, 1], variant="a")
    assert explanation.value == rk.kendall_tau([1, 1, 0, 0], [4, 3, 2, 1], variant="a") == 4 / 6


@pytest.mark.parametrize("name", ["pair_ratio", "kendall_tau", "goodman_kruskal_gamma"])
def test_explanation_refuses_to_list_the_pairs_of_more_than_max_listed_documents(name):
    grades = np.arange(MAX_LISTED + 1) % 3
    with pytest.raises(ValueError, match=r"grades: 2,001 documents make 2,001,000 pairs, too many to list"):
        getattr(rk.explain, name)(grades, grades)
    assert getattr(rk, name)(grades, grades) == (math.inf if name == "pair_ratio" else 1.0)


@pytest.mark.parametrize("name", ["pair_ratio", "kendall_tau", "goodman_kruskal_gamma"])
def test_explanation_rejects_lists_of_different_lengths_naming_both(name):
    with pytest.raises(ValueError, match="grades and scores must have the same length"):
        getattr(rk.explain, name)([3, 2, 1], [0.1, 0.2])


@pytest.mark.parametrize("name", ["kendall_tau", "goodman_kruskal_gamma"])
def test_new_explanations_take_the_same_arguments_as_their_functions(name):
    import inspect

    assert inspect.signature(getattr(rk.explain, name)) == inspect.signature(getattr(rk, name))


def test_kendall_tau_counts_a_last_bit_difference_between_equal_means_as_an_order():
    # Equal P@10 means summed in two orders differ in the last bit; kendall_tau, like scipy,
    # compares floats exactly, so the pair is discordant, not tied.
    p10 = [sum([0.1, 0.2, 0.3]) / 3, sum([0.3, 0.2, 0.1]) / 3, 0.5]
    ap = [0.31, 0.45, 0.52]
    assert p10[0] != p10[1]
    assert rk.kendall_tau(p10, ap) == pytest.approx(1 / 3, abs=1e-15)
    assert rk.kendall_tau(p10, ap) == pytest.approx(_stats.kendalltau(p10, ap).statistic,
                                                    abs=1e-12)


def test_kendall_tau_of_rounded_means_equals_tau_of_the_exact_counts():
    # Rounding to 12 decimals restores the tie: tau_b then equals tau of the integer counts
    # of relevant documents behind the means (6 of 30 for both systems, 15 for the third).
    p10 = [sum([0.1, 0.2, 0.3]) / 3, sum([0.3, 0.2, 0.1]) / 3, 0.5]
    ap = [0.31, 0.45, 0.52]
    counts = [6, 6, 15]
    rounded = rk.kendall_tau([round(m, 12) for m in p10], ap)
    assert rounded == rk.kendall_tau(counts, ap)
    assert rounded == pytest.approx(2 / math.sqrt(2 * 3), abs=1e-15)
