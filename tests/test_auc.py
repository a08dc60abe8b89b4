"""Tests of rankedu/metrics/auc.py: the ROC curve, ROC AUC and GAUC.

Written from CONTRACT.md and the seed posts (002, 003), independently of the implementation:
against the pair-by-pair definition in Fractions, scikit-learn and a brute-force per-group
computation.
"""

import math
from fractions import Fraction

import numpy as np
import pandas as pd
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
    for weight in ("impressions", "clicks", "uniform"):
        # w * AUC / w may differ from AUC in the last bit; the group's AUC itself is exact.
        assert rk.gauc(groups, labels, scores, weight=weight) == pytest.approx(rk.roc_auc(labels, scores), abs=1e-15)
        assert rk.explain.gauc(groups, labels, scores, weight=weight).table["AUC"].iloc[0] == rk.roc_auc(labels, scores)


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 1), st.integers(0, 4)), min_size=2, max_size=25)
       .filter(lambda rows: any(
           0 < sum(y for g2, y, _ in rows if g2 == g) < sum(1 for g2, _, _ in rows if g2 == g)
           for g in {g for g, _, _ in rows})),
       st.sampled_from(["impressions", "clicks", "uniform"]))
def test_gauc_is_the_weighted_mean_of_per_group_auc(rows, weight):
    groups = [g for g, _, _ in rows]
    labels = [y for _, y, _ in rows]
    scores = [s / 4 for _, _, s in rows]
    total = weights = 0.0
    for g in set(groups):
        ys = [y for g2, y in zip(groups, labels) if g2 == g]
        ss = [s for g2, s in zip(groups, scores) if g2 == g]
        if 0 < sum(ys) < len(ys):
            w = {"impressions": len(ys), "clicks": sum(ys), "uniform": 1}[weight]
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


# --- exact arithmetic: AUC is a ratio of pair counts (issue 10, item 1) -----------------------

def exact_auc(labels, scores):
    """U/(n+ n-) as a Fraction, pair by pair."""
    positives = [s for y, s in zip(labels, scores) if y == 1]
    negatives = [s for y, s in zip(labels, scores) if y == 0]
    twice_u = sum(2 * (p > n) + (p == n) for p in positives for n in negatives)
    return Fraction(twice_u, 2 * len(positives) * len(negatives))


def test_an_auc_of_1375_over_2500_is_0_55_exactly():
    # 50 negatives scored 0..49; 50 positives all scored 27 beat 27 negatives and tie one:
    # U = 50 * 27.5 = 1375 of 2500 pairs.
    labels = [0] * 50 + [1] * 50
    scores = list(range(50)) + [27] * 50
    assert exact_auc(labels, scores) == Fraction(1375, 2500)
    assert rk.roc_auc(labels, scores) == 0.55
    assert repr(rk.roc_auc(labels, scores)) == "0.55"


def test_roc_auc_is_the_correctly_rounded_ratio_where_float_trapezoids_are_not():
    # Seeded lists like the roc_auc chapter's (50 positives, 50 negatives, scores on a grid);
    # at least one of them is one a sum of float trapezoids gets wrong in the last bit.
    rng = np.random.default_rng(20260301)
    trapezoids_off = 0
    for _ in range(300):
        labels = rng.permutation([1] * 50 + [0] * 50)
        scores = rng.integers(0, 40, 100) / 8 + labels * rng.integers(0, 2)
        exact = exact_auc(labels.tolist(), scores.tolist())
        assert rk.roc_auc(labels, scores) == float(exact)
        fpr, tpr, _ = rk.roc_curve(labels, scores)
        trapezoids_off += float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2)) != float(exact)
    assert trapezoids_off > 0


@given(labelled_scores(max_size=40))
def test_roc_auc_equals_the_fraction_of_pairs_exactly(case):
    labels, scores = case
    assert rk.roc_auc(labels, scores) == float(exact_auc(labels, scores))


@given(labelled_scores(max_size=40))
def test_explain_roc_auc_shows_the_rank_sum_and_the_trapezoids_ending_in_the_same_value(case):
    labels, scores = case
    explanation = rk.explain.roc_auc(labels, scores)
    value = rk.roc_auc(labels, scores)
    twice_u = exact_auc(labels, scores) * 2 * sum(labels) * (len(labels) - sum(labels))
    assert explanation.value == value
    assert explanation.table["AUC"].iloc[-1] == value  # trapezoids, counted in pairs
    assert explanation.table["U"].iloc[-1] == twice_u / 2
    rank_sum = explanation.tables["rank sum"].set_index("quantity")["value"]
    assert rank_sum["U"] == twice_u / 2 and rank_sum["AUC"] == value
    documents = explanation.tables["documents"]
    assert documents["midrank"].sum() == len(labels) * (len(labels) + 1) / 2
    assert rank_sum["R+"] == documents.loc[documents["label"] == 1, "midrank"].sum()


def test_roc_auc_of_a_million_items_is_exact():
    rng = np.random.default_rng(3)
    labels = rng.integers(0, 2, 1_000_000)
    scores = rng.integers(0, 1000, labels.size)  # many ties
    positives = int(labels.sum())
    # The same count by a histogram: per score, positives there times negatives below, plus
    # half the ties.
    pos = np.bincount(scores[labels == 1], minlength=1000)
    neg = np.bincount(scores[labels == 0], minlength=1000)
    twice_u = int(2 * (pos * (np.cumsum(neg) - neg)).sum() + (pos * neg).sum())
    assert rk.roc_auc(labels, scores) == twice_u / (2 * positives * (labels.size - positives))


# --- GAUC: uniform weights, missing group ids, and the vectorised count (issues 10 and 16) -------


def brute_force_gauc(groups, labels, scores, weight):
    """Per group with both classes, sklearn's roc_auc_score, averaged with the weights."""
    from sklearn.metrics import roc_auc_score

    frame = pd.DataFrame({"g": groups, "y": labels, "s": scores})
    total = weights = 0.0
    for _, rows in frame.groupby("g", sort=True):
        clicks = int(rows["y"].sum())
        if 0 < clicks < len(rows):
            w = {"impressions": len(rows), "clicks": clicks, "uniform": 1}[weight]
            total += w * float(roc_auc_score(rows["y"], rows["s"]))
            weights += w
    return total / weights


group_logs = st.lists(
    st.tuples(st.sampled_from(["ann", "bob", "cy", "dee", "eve"]), st.integers(0, 1), st.integers(0, 4)),
    min_size=2, max_size=40,
).filter(lambda rows: any(
    0 < sum(y for g2, y, _ in rows if g2 == g) < sum(1 for g2, _, _ in rows if g2 == g)
    for g in {g for g, _, _ in rows}))


@given(group_logs, st.sampled_from(["impressions", "clicks", "uniform"]))
def test_gauc_equals_a_brute_force_per_group_sklearn_computation(rows, weight):
    groups, labels, scores = map(list, zip(*rows))
    scores = [s / 4 for s in scores]
    value = rk.gauc(groups, labels, scores, weight=weight)
    assert value == pytest.approx(brute_force_gauc(groups, labels, scores, weight), abs=1e-12)
    assert rk.explain.gauc(groups, labels, scores, weight=weight).value == value


@given(group_logs)
def test_each_groups_auc_in_the_explanation_is_that_groups_exact_roc_auc(rows):
    groups, labels, scores = map(np.array, zip(*rows))
    table = rk.explain.gauc(groups, labels, scores).table
    for group, auc, u in zip(table["group"], table["AUC"], table["U"]):
        rows_of = groups == group
        assert auc == rk.roc_auc(labels[rows_of], scores[rows_of])
        assert u == exact_auc(labels[rows_of].tolist(), scores[rows_of].tolist()) * (
            labels[rows_of].sum() * (1 - labels[rows_of]).sum())


def test_gauc_uniform_is_the_plain_mean_of_the_group_aucs():
    # Group a: AUC 1/2; group b: AUC 0; group c has one class only.
    assert rk.gauc(GROUPS, LABELS, SCORES, weight="uniform") == 0.25
    table = rk.explain.gauc(GROUPS, LABELS, SCORES, weight="uniform").table
    assert table["weight"].tolist() == [1.0, 1.0]


@pytest.mark.parametrize("groups", [
    [1.0, 1.0, math.nan, math.nan],
    np.array([1.0, 1.0, np.nan, np.nan]),
    ["a", "a", None, None],
    pd.Series(["a", "a", pd.NA, pd.NA], dtype="string"),
    pd.Series([1, 1, pd.NA, pd.NA], dtype="Int64"),
    np.array(["2024-01-01", "2024-01-01", "NaT", "NaT"], dtype="datetime64[D]"),
], ids=["nan-list", "nan-array", "none", "string-na", "int64-na", "nat"])
def test_a_missing_group_id_is_an_error_naming_groups_not_a_dropped_group(groups):
    # Issue 16: this returned 1.0, the NaN group's rows silently gone.
    with pytest.raises(ValueError, match="groups must not hold missing ids.*position 2"):
        rk.gauc(groups, [1, 0, 1, 0], [0.9, 0.1, 0.1, 0.9])
    with pytest.raises(ValueError, match="groups"):
        rk.explain.gauc(groups, [1, 0, 1, 0], [0.9, 0.1, 0.1, 0.9])


@pytest.mark.parametrize("groups", [["a", "a", 1, 1], [1, 1, "1", "1"], [(1,), (1,), (2,), (2,)],
                                    [[1], [1], [2, 3], [2, 3]]],
                         ids=["str-int", "int-str", "tuples", "ragged"])
def test_group_ids_of_mixed_or_unsupported_types_are_a_type_error_naming_groups(groups):
    with pytest.raises((TypeError, ValueError), match="groups"):
        rk.gauc(groups, [1, 0, 1, 0], [0.9, 0.1, 0.1, 0.9])


@pytest.mark.parametrize("groups", [
    pd.Series(["u", "u", "v", "v"], dtype="category"),
    np.array([True, True, False, False]),
    [1, 1, 2.5, 2.5],
    np.array(["2024-01-01", "2024-01-01", "2024-01-02", "2024-01-02"], dtype="datetime64[D]"),
], ids=["category", "bool", "int-and-float", "dates"])
def test_group_ids_of_one_kind_are_accepted(groups):
    assert rk.gauc(groups, [1, 0, 1, 0], [0.9, 0.1, 0.1, 0.9]) == 0.5


def test_gauc_of_many_string_groups_equals_a_pandas_groupby_count():
    # 200,000 rows in 20,000 groups; the reference counts each group's pairs with a groupby of
    # the per-score histogram, independently of rankedu's rank sums.
    rng = np.random.default_rng(16)
    n = 200_000
    user = rng.integers(0, 20_000, n)
    groups = np.array([f"user{u}" for u in user], dtype=object)
    labels = (rng.random(n) < 0.3).astype(int)
    scores = rng.integers(0, 20, n) + labels
    frame = pd.DataFrame({"g": groups, "y": labels, "s": scores})
    cells = frame.groupby(["g", "s"])["y"].agg(["sum", "count"]).reset_index()
    cells["neg"] = cells["count"] - cells["sum"]
    cells["neg_below"] = cells.groupby("g")["neg"].cumsum() - cells["neg"]
    cells["twice_u"] = 2 * cells["sum"] * cells["neg_below"] + cells["sum"] * cells["neg"]
    per = cells.groupby("g").agg(twice_u=("twice_u", "sum"), pos=("sum", "sum"), n=("count", "sum"))
    per = per[(per["pos"] > 0) & (per["pos"] < per["n"])]
    auc = per["twice_u"] / (2 * per["pos"] * (per["n"] - per["pos"]))
    for weight, w in [("impressions", per["n"]), ("clicks", per["pos"]), ("uniform", 1 + 0 * per["n"])]:
        assert rk.gauc(groups, labels, scores, weight=weight) == pytest.approx(
            float((w * auc).sum() / w.sum()), abs=1e-12)
    table = rk.explain.gauc(groups, labels, scores).table
    assert table["AUC"].tolist() == auc.tolist()  # exact, group by group, same (sorted) order


def test_gauc_takes_its_three_arguments_as_keywords_in_any_order():
    groups, labels, scores = ["u1", "u1", "u1", "u2", "u2"], [1, 0, 0, 1, 0], [0.9, 0.5, 0.7,
                                                                               0.2, 0.4]
    assert rk.gauc(labels=labels, scores=scores, groups=groups) == rk.gauc(groups, labels,
                                                                           scores)


def test_gauc_in_scikit_learns_order_is_an_error_that_says_so():
    groups, labels, scores = ["u1", "u1", "u2", "u2"], [1, 0, 0, 1], [0.9, 0.5, 0.7, 0.2]
    with pytest.raises(ValueError, match=r"^labels .*groups hold only 0 and 1.*scikit-learn"):
        rk.gauc(labels, scores, groups)
    # Labels that are not 0/1 beside groups that are not 0/1 either: the plain message.
    with pytest.raises(ValueError, match=r"^labels must hold only 0 and 1, got 0.9$"):
        rk.gauc(groups, scores, labels)
