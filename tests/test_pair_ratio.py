"""Tests of rankedu/pair_ratio.py: concordant over discordant pairs.

Written from CONTRACT.md and seed 003, independently of the implementation.
"""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rankedu as rk

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


def test_no_comparable_pair_is_not_silently_nan():
    # 0/0: all grades equal. The contract forbids a silent NaN: a number or a ValueError.
    try:
        value = rk.pair_ratio([1, 1, 1], [0.3, 0.2, 0.1])
    except ValueError as exc:
        assert "grades" in str(exc)
    else:
        assert type(value) is float
        assert not math.isnan(value)


def test_no_concordant_pair_gives_0_as_the_docstring_says_including_0_over_0():
    # The contract fixes only C > 0, D = 0 -> inf; the docstring fixes the rest: 0.0 when
    # there is no concordant pair, whether or not there are discordant ones.
    assert rk.pair_ratio([1, 1, 1], [0.3, 0.2, 0.1]) == 0.0
    assert rk.pair_ratio([1, 0], [0.5, 0.5]) == 0.0
    assert rk.pair_ratio([1, 0], [0.1, 0.5]) == 0.0


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
    if math.isnan(expected):  # scipy gives NaN when every grade or every score is the same
        assert rk.kendall_tau(grades, scores) == 0.0
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
    assert math.isclose(gamma, (c - d) / (c + d) if c + d else 0.0, abs_tol=1e-12)
    ratio = rk.pair_ratio(grades, scores)
    if d > 0:
        assert math.isclose(gamma, (ratio - 1) / (ratio + 1), abs_tol=1e-12)
    elif c > 0:
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
