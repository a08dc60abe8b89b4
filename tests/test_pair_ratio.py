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


def test_seed_003_explain_has_one_row_per_pair_ending_in_2(running_result):
    explanation = rk.explain.pair_ratio(SEED_GRADES, SEED_SCORES)
    assert explanation.value == 2.0
    # Six pairs of documents with different grades.
    assert len(explanation.table) == 6
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
