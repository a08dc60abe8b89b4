"""Tests of rankedu/teaching/symbolic_auc.py: the exact ROC AUC is one rational by both definitions and
agrees with rk.roc_auc and rk.roc_curve."""

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

import rankedu as rk
from rankedu.teaching import symbolic_auc

labelled_scores = st.integers(2, 14).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 1), min_size=n, max_size=n).filter(lambda y: 0 < sum(y) < len(y)),
        # Quarter-point scores, so that ties between the classes are common.
        st.lists(st.integers(0, 6).map(lambda s: s / 4), min_size=n, max_size=n),
    )
)


@given(labelled_scores)
def test_roc_auc_area_and_roc_auc_pairs_are_the_same_rational(case):
    labels, scores = case
    area = symbolic_auc.roc_auc_area(labels, scores)
    pairs = symbolic_auc.roc_auc_pairs(labels, scores)
    assert isinstance(area, sympy.Rational) and isinstance(pairs, sympy.Rational)
    assert area == pairs


@given(labelled_scores)
def test_exact_roc_auc_agrees_with_rk_roc_auc(case):
    labels, scores = case
    assert float(symbolic_auc.roc_auc_area(labels, scores)) == pytest.approx(rk.roc_auc(labels, scores), abs=1e-12)


def test_pair_credits_count_a_tie_as_one_half_and_a_loss_as_zero():
    credits = symbolic_auc.pair_credits([1, 0, 1, 0], [0.5, 0.5, 0.1, 0.3])
    assert credits == [(0, 1, sympy.Rational(1, 2)), (0, 3, 1), (2, 1, 0), (2, 3, 0)]


def test_pair_credits_reject_a_single_class_as_rk_roc_auc_does():
    with pytest.raises(ValueError, match="labels"):
        symbolic_auc.pair_credits([1, 1], [0.2, 0.4])


def test_roc_points_are_rk_roc_curve_as_rationals():
    labels, scores = [1, 0, 0, 1, 1, 0], [0.9, 0.9, 0.4, 0.3, 0.3, 0.1]
    fpr, tpr, _ = rk.roc_curve(labels, scores)
    points = symbolic_auc.roc_points(labels, scores)
    assert [float(x) for x, _ in points] == pytest.approx(fpr.tolist(), abs=1e-12)
    assert [float(y) for _, y in points] == pytest.approx(tpr.tolist(), abs=1e-12)
    assert points[0] == (0, 0) and points[-1] == (1, 1)


def test_roc_step_identity_trapezoid_equals_pair_credits():
    trapezoid, pairs = symbolic_auc.roc_step_identity()
    assert sympy.simplify(trapezoid - pairs) == 0
    # The class counts are the preface's n+ and n- (P and R are precision and recall).
    assert {str(symbol) for symbol in pairs.free_symbols} == {"n^+", "n^-", "A", "a", "b"}


def test_pair_credits_reject_labels_and_scores_of_different_lengths_naming_both():
    with pytest.raises(ValueError, match="labels and scores must have the same length"):
        symbolic_auc.pair_credits([1, 0, 1], [0.2, 0.4])
