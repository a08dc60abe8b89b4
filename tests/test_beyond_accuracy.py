"""rankedu/recommenders/beyond_accuracy.py: each measure against an independent computation
(sets and loops, pandas groupby on the DataFrame form, scipy's entropy, the Gini as a mean
absolute difference and as sympy's exact integral of the Lorenz curve), and its bad input."""

import itertools
import math

import numpy as np
import pandas as pd
import pytest
import scipy.stats
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import rankedu as rk

CATALOG = [f"i{j}" for j in range(12)]


def generated_lists(seed: int, n_users: int = 15):
    """Users with ranked lists of 1 to 5 distinct items drawn from CATALOG, skewed to its head."""
    rng = np.random.default_rng(seed)
    weights = 1 / np.arange(1, len(CATALOG) + 1)
    return {f"u{u}": list(rng.choice(CATALOG, size=rng.integers(1, 6), replace=False,
                                     p=weights / weights.sum()))
            for u in range(n_users)}


def as_frame(lists) -> pd.DataFrame:
    """The DataFrame form, rows shuffled so that only the rank column orders them."""
    rows = [(user, item, rank) for user, items in lists.items()
            for rank, item in enumerate(items, start=1)]
    frame = pd.DataFrame(rows, columns=["user", "item", "rank"])
    return frame.sample(frac=1, random_state=1).reset_index(drop=True)


@pytest.mark.parametrize("seed", range(5))
def test_coverage_is_the_share_of_catalogue_items_in_some_list(seed):
    lists = generated_lists(seed)
    shown = set(itertools.chain.from_iterable(lists.values()))
    assert rk.catalog_coverage(lists, CATALOG) == len(shown) / len(CATALOG)
    assert rk.catalog_coverage(as_frame(lists), CATALOG) == len(shown) / len(CATALOG)


def test_coverage_rejects_an_item_outside_the_catalogue_instead_of_exceeding_one():
    with pytest.raises(ValueError, match="^recommendations of user 'u1' hold 'z'.*catalog"):
        rk.catalog_coverage({"u1": ["a", "z"]}, ["a", "b"])


@pytest.mark.parametrize("weight, discount", [
    ("uniform", lambda r: 1.0), ("log", lambda r: 1 / math.log2(r + 1)),
    ("rbp", lambda r: 0.7 ** (r - 1))])
@pytest.mark.parametrize("seed", range(3))
def test_exposure_sums_each_rank_s_weight_over_users(seed, weight, discount):
    lists = generated_lists(seed)
    expected = dict.fromkeys(CATALOG, 0.0)
    for items in lists.values():
        for rank, item in enumerate(items, start=1):
            expected[item] += discount(rank)
    for form in (lists, as_frame(lists)):
        got = rk.exposure(form, weight=weight, p=0.7, catalog=CATALOG)
        assert list(got.index) == CATALOG
        assert got.to_numpy() == pytest.approx([expected[item] for item in CATALOG], abs=1e-12)
    shown = rk.exposure(lists, weight=weight, p=0.7)
    assert set(shown.index) == {item for item in CATALOG if expected[item] > 0}


def test_exposure_of_a_log_uses_its_positions_as_ranks():
    log = pd.DataFrame({"user": [1, 2, 3], "item": ["a", "a", "b"], "rank": [1, 3, 2]})
    assert rk.exposure(log, weight="log").to_dict() == pytest.approx(
        {"a": 1 + 1 / math.log2(4), "b": 1 / math.log2(3)})


def mean_absolute_difference_gini(x):
    x = np.asarray(x, dtype=float)
    if x.sum() == 0:
        return 0.0
    return np.abs(x[:, None] - x[None, :]).sum() / (2 * len(x) ** 2 * x.mean())


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 50), min_size=1, max_size=30))
def test_gini_is_the_mean_absolute_difference_over_twice_the_mean(values):
    assert rk.gini(values) == pytest.approx(mean_absolute_difference_gini(values), abs=1e-12)


@pytest.mark.parametrize("values", [[1, 2, 3, 10], [0, 0, 5], [4, 4, 4], [7], [0, 1, 1, 2, 9]])
def test_gini_is_one_minus_twice_the_exact_area_under_the_lorenz_curve(values):
    t = sympy.Symbol("t")
    x = sorted(sympy.Integer(v) for v in values)
    n, total = len(x), sum(x)
    points = [sympy.Integer(0)] + [sum(x[:i + 1]) / total for i in range(n)]
    area = sum(sympy.integrate(points[i] + (points[i + 1] - points[i]) * (n * t - i),
                               (t, sympy.Rational(i, n), sympy.Rational(i + 1, n)))
               for i in range(n))
    assert rk.gini(values) == pytest.approx(float(1 - 2 * area), abs=1e-12)


def test_gini_is_n_minus_one_over_n_when_one_item_takes_all_and_zero_for_no_exposure():
    assert rk.gini([0] * 9 + [3]) == pytest.approx(0.9)
    assert rk.gini([0, 0, 0]) == 0.0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 50), min_size=1, max_size=30).filter(any),
       st.sampled_from([2, math.e, 10]))
def test_entropy_is_scipy_s(values, base):
    assert rk.entropy(values, base=base) == pytest.approx(
        scipy.stats.entropy(values, base=base), abs=1e-12)


def test_entropy_of_equal_values_is_log_n_and_of_no_exposure_zero():
    assert rk.entropy([3] * 8) == pytest.approx(3.0)
    assert rk.entropy([0, 0]) == 0.0


@pytest.mark.parametrize("seed", range(4))
def test_average_popularity_long_tail_share_and_novelty_are_means_of_per_user_means(seed):
    lists = generated_lists(seed)
    frame = as_frame(lists)
    n_users = 40
    popularity = {item: 1 + 3 * j for j, item in enumerate(reversed(CATALOG))}
    tail = set(CATALOG[4:])
    per_user = frame.assign(
        pop=frame["item"].map(popularity), tail=frame["item"].isin(tail),
        info=-np.log2(frame["item"].map(popularity) / n_users)).groupby("user")
    for form in (lists, frame):
        assert rk.average_popularity(form, popularity) == pytest.approx(
            per_user["pop"].mean().mean(), abs=1e-12)
        assert rk.long_tail_share(form, tail) == pytest.approx(
            per_user["tail"].mean().mean(), abs=1e-12)
        assert rk.novelty(form, pd.Series(popularity), n_users=n_users) == pytest.approx(
            per_user["info"].mean().mean(), abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 100), min_size=1, max_size=8, unique=True))
def test_intra_list_diversity_is_the_mean_distance_over_pairs(items):
    pairs = list(itertools.combinations(items, 2))
    expected = sum(abs(a - b) for a, b in pairs) / len(pairs) if pairs else 0.0
    assert rk.intra_list_diversity(items, lambda a, b: abs(a - b)) == pytest.approx(expected)


@pytest.mark.parametrize("call, argument", [
    (lambda: rk.catalog_coverage({"u": ["a"]}, []), "catalog"),
    (lambda: rk.catalog_coverage({"u": []}, ["a"]), "recommendations of user 'u'"),
    (lambda: rk.catalog_coverage({}, ["a"]), "recommendations"),
    (lambda: rk.catalog_coverage(pd.DataFrame({"user": [1]}), ["a"]), "recommendations"),
    (lambda: rk.catalog_coverage({"u": ["a", "a"]}, ["a"]), "recommendations of user 'u'"),
    (lambda: rk.exposure({"u": ["a"]}, weight="square"), "weight"),
    (lambda: rk.exposure({"u": ["a"]}, weight="rbp", p=1.0), "p"),
    (lambda: rk.exposure({"u": ["a"]}, catalog=["b"]), "recommendations of user 'u'"),
    (lambda: rk.exposure(pd.DataFrame({"user": [1, 1], "item": ["a", "b"], "rank": [1, 1]})),
     "recommendations of user 1"),
    (lambda: rk.gini([]), "values"),
    (lambda: rk.gini([1, -1]), "values"),
    (lambda: rk.gini([1, math.nan]), "values"),
    (lambda: rk.entropy([1, 2], base=1), "base"),
    (lambda: rk.average_popularity({"u": ["a"]}, {"a": -2}), "popularity"),
    (lambda: rk.average_popularity({"u": ["a"]}, {"b": 2}), "popularity"),
    (lambda: rk.novelty({"u": ["a"]}, {"a": 0}, n_users=3), "popularity"),
    (lambda: rk.novelty({"u": ["a"]}, {"a": 4}, n_users=3), "popularity"),
    (lambda: rk.novelty({"u": ["a"]}, {"a": 1}, n_users=0), "n_users"),
    (lambda: rk.intra_list_diversity(["a", "b"], lambda a, b: -1.0), "distance"),
])
def test_bad_input_is_a_value_error_naming_the_argument(call, argument):
    with pytest.raises(ValueError, match=f"^{argument}"):
        call()


@pytest.mark.parametrize("call, argument", [
    (lambda: rk.catalog_coverage([["a"]], ["a"]), "recommendations"),
    (lambda: rk.long_tail_share({"u": ["a"]}, 3), "long_tail"),
    (lambda: rk.intra_list_diversity(["a", "b"], {"a": 1}), "distance"),
])
def test_wrong_types_are_a_type_error_naming_the_argument(call, argument):
    with pytest.raises(TypeError, match=f"^{argument}"):
        call()


@pytest.mark.parametrize("policy", ["random", "bts"])
def test_open_bandit_exposure_covers_the_catalogue_however_concentrated(policy):
    log = rk.datasets.open_bandit(policy)
    impressions = pd.DataFrame({"user": log.index, "item": log["item_id"],
                                "rank": log["position"]})
    catalog = sorted(set(rk.datasets.open_bandit_prior()["item_id"]))
    counts = log["item_id"].value_counts().reindex(catalog, fill_value=0)
    assert rk.catalog_coverage(impressions, catalog) == 1.0
    shown = rk.exposure(impressions, catalog=catalog)
    assert shown.to_numpy() == pytest.approx(counts.to_numpy())
    assert rk.gini(shown) == pytest.approx(mean_absolute_difference_gini(counts))
