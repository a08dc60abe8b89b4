"""Tests of rankedu/auc.py: ROC AUC and GAUC.

Written from CONTRACT.md and the seed posts (002, 003), independently of the implementation.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rankedu as rk

# Three groups (sessions): "a" and "b" hold both classes, "c" only clicks.
GROUPS = ["a", "a", "a", "b", "b", "c", "c"]
LABELS = [1, 0, 0, 1, 0, 1, 1]
SCORES = [0.9, 0.5, 0.95, 0.3, 0.6, 0.2, 0.1]


def pairwise_auc(labels, scores):
    """Probability that a random positive outscores a random negative, ties counting 1/2."""
    positives = [s for y, s in zip(labels, scores) if y == 1]
    negatives = [s for y, s in zip(labels, scores) if y == 0]
    wins = sum((p > n) + 0.5 * (p == n) for p in positives for n in negatives)
    return wins / (len(positives) * len(negatives))


@st.composite
def labelled_scores(draw, min_size=2, max_size=20):
    n = draw(st.integers(min_size, max_size))
    labels = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n).filter(lambda y: 0 < sum(y) < len(y)))
    # Scores on a coarse grid, so that ties are common.
    scores = draw(st.lists(st.integers(0, 6).map(lambda s: s / 4), min_size=n, max_size=n))
    return labels, scores


def test_roc_auc_is_the_share_of_positive_negative_pairs_ranked_right():
    # Pairs: (0.9 vs 0.9) tie, (0.9 vs 0.1) win, (0.3 vs 0.9) loss, (0.3 vs 0.1) win.
    assert rk.roc_auc([1, 0, 1, 0], [0.9, 0.9, 0.3, 0.1]) == pytest.approx(2.5 / 4, abs=1e-12)


def test_roc_auc_of_a_perfect_ranking_is_1_and_of_the_reversed_is_0():
    # Seed 003, Fig 1.3: every relevant document above every other one gives AUC 1.
    assert rk.roc_auc([1, 1, 0, 0], [0.9, 0.8, 0.3, 0.1]) == 1.0
    assert rk.roc_auc([1, 1, 0, 0], [0.1, 0.3, 0.8, 0.9]) == 0.0


def test_roc_auc_of_constant_scores_is_one_half():
    assert rk.roc_auc([1, 0, 1, 0, 0], [0.5] * 5) == 0.5


def test_roc_auc_accepts_booleans_as_labels():
    assert rk.roc_auc([True, False, True], [0.9, 0.5, 0.1]) == rk.roc_auc([1, 0, 1], [0.9, 0.5, 0.1])


def test_explain_roc_auc_ends_in_the_value(running_result):
    explanation = rk.explain.roc_auc([1, 0, 1, 0], [0.9, 0.9, 0.3, 0.1])
    assert explanation.value == pytest.approx(0.625, abs=1e-12)
    assert running_result(explanation.table) == pytest.approx(0.625, abs=1e-12)


def test_gauc_weights_groups_by_impressions_by_default():
    # Group a: AUC 1/2 over 3 impressions; group b: AUC 0 over 2; group c has one class only.
    assert rk.gauc(GROUPS, LABELS, SCORES) == pytest.approx((3 * 0.5 + 2 * 0.0) / 5, abs=1e-12)
    assert rk.gauc(GROUPS, LABELS, SCORES, weight="impressions") == rk.gauc(GROUPS, LABELS, SCORES)


def test_gauc_weighted_by_clicks_counts_positives_per_group():
    assert rk.gauc(GROUPS, LABELS, SCORES, weight="clicks") == pytest.approx((1 * 0.5 + 1 * 0.0) / 2, abs=1e-12)


def test_gauc_skips_groups_with_one_class():
    with_c = rk.gauc(GROUPS, LABELS, SCORES)
    without_c = rk.gauc(GROUPS[:5], LABELS[:5], SCORES[:5])
    assert with_c == without_c


def test_gauc_differs_from_the_pooled_auc():
    assert rk.gauc(GROUPS, LABELS, SCORES) != pytest.approx(rk.roc_auc(LABELS, SCORES))


def test_gauc_accepts_integer_group_ids():
    ids = [{"a": 7, "b": 3, "c": 11}[g] for g in GROUPS]
    assert rk.gauc(ids, LABELS, SCORES) == rk.gauc(GROUPS, LABELS, SCORES)


def test_explain_gauc_ends_in_the_value(running_result):
    explanation = rk.explain.gauc(GROUPS, LABELS, SCORES)
    assert explanation.value == pytest.approx(0.3, abs=1e-12)
    assert running_result(explanation.table) == pytest.approx(0.3, abs=1e-12)


# --- properties ---------------------------------------------------------------------------


@given(labelled_scores())
def test_roc_auc_matches_the_pairwise_definition(case):
    labels, scores = case
    assert rk.roc_auc(labels, scores) == pytest.approx(pairwise_auc(labels, scores), abs=1e-12)


@given(labelled_scores())
def test_auc_of_s_plus_auc_of_minus_s_is_1(case):
    labels, scores = case
    assert rk.roc_auc(labels, scores) + rk.roc_auc(labels, [-s for s in scores]) == pytest.approx(1.0, abs=1e-12)


@given(labelled_scores())
def test_roc_auc_agrees_with_sklearn_roc_auc_score_with_ties(case):
    from sklearn.metrics import roc_auc_score

    labels, scores = case
    assert rk.roc_auc(labels, scores) == pytest.approx(float(roc_auc_score(labels, scores)), abs=1e-12)


@given(labelled_scores())
def test_gauc_of_a_single_group_is_the_roc_auc(case):
    labels, scores = case
    groups = ["only"] * len(labels)
    for weight in ("impressions", "clicks"):
        assert rk.gauc(groups, labels, scores, weight=weight) == pytest.approx(rk.roc_auc(labels, scores), abs=1e-12)


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 1), st.integers(0, 4)), min_size=2, max_size=25)
       .filter(lambda rows: any(
           0 < sum(y for g2, y, _ in rows if g2 == g) < sum(1 for g2, _, _ in rows if g2 == g)
           for g in {g for g, _, _ in rows})),
       st.sampled_from(["impressions", "clicks"]))
def test_gauc_is_the_weighted_mean_of_per_group_auc(rows, weight):
    groups = [g for g, _, _ in rows]
    labels = [y for _, y, _ in rows]
    scores = [s / 4 for _, _, s in rows]
    total = weights = 0.0
    for g in set(groups):
        ys = [y for g2, y in zip(groups, labels) if g2 == g]
        ss = [s for g2, s in zip(groups, scores) if g2 == g]
        if 0 < sum(ys) < len(ys):
            w = len(ys) if weight == "impressions" else sum(ys)
            total += w * pairwise_auc(ys, ss)
            weights += w
    value = rk.gauc(groups, labels, scores, weight=weight)
    assert value == pytest.approx(total / weights, abs=1e-12)
    assert abs(rk.explain.gauc(groups, labels, scores, weight=weight).value - value) <= 1e-12


@given(labelled_scores())
def test_explain_roc_auc_value_equals_the_function(case):
    labels, scores = case
    assert abs(rk.explain.roc_auc(labels, scores).value - rk.roc_auc(labels, scores)) <= 1e-12


@pytest.mark.parametrize("convert", [list, tuple, np.array],
                         ids=["list", "tuple", "array"])
def test_lists_tuples_and_arrays_give_the_same_float(convert):
    auc = rk.roc_auc(convert(LABELS), convert(SCORES))
    gauc = rk.gauc(convert(GROUPS), convert(LABELS), convert(SCORES))
    assert type(auc) is float and type(gauc) is float
    assert auc == rk.roc_auc(LABELS, SCORES)
    assert gauc == rk.gauc(GROUPS, LABELS, SCORES)


# --- what the ROC and GAUC chapters rely on -------------------------------------------------


@given(labelled_scores())
def test_roc_curve_is_sklearn_roc_curve_without_dropped_points(case):
    from sklearn.metrics import roc_curve

    labels, scores = case
    fpr, tpr, thresholds = rk.roc_curve(labels, scores)
    sk_fpr, sk_tpr, sk_thresholds = roc_curve(labels, scores, drop_intermediate=False)
    np.testing.assert_allclose(fpr, sk_fpr, rtol=0, atol=1e-12)
    np.testing.assert_allclose(tpr, sk_tpr, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(thresholds, sk_thresholds)


@given(labelled_scores())
def test_roc_curve_area_by_trapezoids_is_roc_auc(case):
    labels, scores = case
    fpr, tpr, _ = rk.roc_curve(labels, scores)
    area = float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))
    assert area == pytest.approx(rk.roc_auc(labels, scores), abs=1e-12)


def test_explain_gauc_lists_the_skipped_single_class_groups():
    skipped = rk.explain.gauc(
        ["a", "a", "none", "none", "all", "b", "b"], [1, 0, 0, 0, 1, 0, 1], [0.2, 0.1, 0.5, 0.4, 0.3, 0.6, 0.7]
    ).tables["skipped"]
    assert sorted(skipped["group"]) == ["all", "none"]
    counts = dict(zip(skipped["group"], zip(skipped["impressions"], skipped["clicks"])))
    assert counts == {"none": (2, 0), "all": (1, 1)}


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 1), st.integers(0, 4)), min_size=2, max_size=25)
       .filter(lambda rows: any(
           0 < sum(y for g2, y, _ in rows if g2 == g) < sum(1 for g2, _, _ in rows if g2 == g)
           for g in {g for g, _, _ in rows})),
       st.sampled_from(["impressions", "clicks"]))
def test_gauc_ignores_a_constant_added_to_a_groups_scores(rows, weight):
    # Scores are multiples of 1/4 and the shifts multiples of 1, so the sums are exact floats
    # and no tie is made or broken by rounding.
    groups = [g for g, _, _ in rows]
    labels = [y for _, y, _ in rows]
    scores = [s / 4 for _, _, s in rows]
    shifted = [s + 10 * g for g, s in zip(groups, scores)]
    assert rk.gauc(groups, labels, shifted, weight=weight) == rk.gauc(groups, labels, scores, weight=weight)
