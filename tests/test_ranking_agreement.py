"""Tests of rankedu/judgments/ranking_agreement.py: tau_AP against a brute force of the paper's
formula (every order of the tied items enumerated), RBO against the ``rbo`` package (0.1.3)
where its definitions match, against Webber et al.'s equation 30 for the residual, and against
the best and worst continuations of the lists written out and summed far past their ends.
"""

import itertools
import math

import numpy as np
import pytest
import rbo as rbo_package
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rankedu as rk
CASES = settings(max_examples=300, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow])


def tau_ap_of_one_order(x, order):
    """Yilmaz et al.'s formula for the items in ``order`` (best first): C(i) counts the items
    above position i whose reference score is at least that of the item at i."""
    n = len(order)
    total = 0.0
    for i in range(1, n):
        item = order[i]
        total += sum(x[other] >= x[item] for other in order[:i]) / i
    return 2 * total / (n - 1) - 1


def brute_force_tau_ap(x, y):
    """The mean of the formula over every order of the items tied in y."""
    groups = [[i for i in range(len(y)) if y[i] == value]
              for value in sorted(set(y), reverse=True)]
    values = [tau_ap_of_one_order(x, [item for group in orders for item in group])
              for orders in itertools.product(*(itertools.permutations(g) for g in groups))]
    return sum(values) / len(values)


@st.composite
def scored_items(draw):
    n = draw(st.integers(2, 7))
    levels = draw(st.integers(1, 8))  # few levels: many ties
    x = draw(st.lists(st.integers(0, levels), min_size=n, max_size=n))
    y = draw(st.lists(st.integers(0, levels), min_size=n, max_size=n))
    return x, y


@CASES
@given(scored_items())
def test_tau_ap_is_the_mean_of_the_papers_formula_over_every_order_of_the_ties(items):
    x, y = items
    assert rk.tau_ap(x, y) == pytest.approx(brute_force_tau_ap(x, y), abs=1e-12)


def test_tau_ap_without_ties_is_the_papers_formula_and_weights_the_top():
    x = [5, 4, 3, 2, 1]
    assert rk.tau_ap(x, x) == 1.0
    assert rk.tau_ap(x, x[::-1]) == -1.0
    # one swap at the top costs more than one at the bottom; Kendall's tau sees no difference
    assert rk.tau_ap(x, [4, 5, 3, 2, 1]) == 0.5
    assert rk.tau_ap(x, [5, 4, 3, 1, 2]) == 0.875
    assert rk.kendall_tau(x, [4, 5, 3, 2, 1]) == rk.kendall_tau(x, [5, 4, 3, 1, 2])


def test_tau_ap_of_an_ordering_with_its_reference_ties_is_1():
    assert rk.tau_ap([1, 1, 0, 0], [4, 3, 2, 1]) == 1.0


@pytest.mark.parametrize("n", [1500, 2100])
def test_tau_ap_in_blocks_equals_the_formula_on_a_long_untied_ranking(n):
    rng = np.random.default_rng(n)
    x = rng.permutation(n).astype(float)
    y = x + rng.normal(scale=n / 10, size=n)
    order = list(np.argsort(-y, kind="stable"))
    ranks = np.empty(n)
    ranks[order] = np.arange(n)
    # C(i) by a sorted insertion: above-and-higher counts, O(n log n)
    higher = np.array([(x[order[:i]] >= x[order[i]]).sum() for i in range(1, n)])
    expected = 2 * (higher / np.arange(1, n)).sum() / (n - 1) - 1
    assert rk.tau_ap(x, y) == pytest.approx(expected, abs=1e-12)


@st.composite
def two_lists(draw):
    universe = draw(st.integers(2, 40))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    a = [int(v) for v in rng.permutation(universe)[:draw(st.integers(1, universe))]]
    b = [int(v) for v in rng.permutation(universe)[:draw(st.integers(1, universe))]]
    return a, b, draw(st.floats(0.05, 0.98))


@CASES
@given(two_lists())
def test_rbo_ext_equals_the_rbo_package_where_its_definitions_match(lists):
    a, b, p = lists
    ours = rk.rbo(a, b, p=p)
    # rbo_ext() is the paper's equation 32 for lists of any lengths
    assert ours == pytest.approx(rbo_package.RankingSimilarity(a, b).rbo_ext(p=p), abs=1e-12)
    if len(a) == len(b):
        # .rbo(ext=True) is equation 23, which equals 32 for lists of one length only
        assert ours == pytest.approx(rbo_package.RankingSimilarity(a, b).rbo(p=p, ext=True),
                                     abs=1e-12)


def test_the_rbo_packages_default_is_the_truncated_sum_and_its_ext_cuts_uneven_lists():
    similarity = rbo_package.RankingSimilarity([1, 2, 3, 4], [2, 1, 3, 5])
    assert similarity.rbo(p=0.9) == pytest.approx(0.225675)
    assert rk.rbo([1, 2, 3, 4], [2, 1, 3, 5], p=0.9) == pytest.approx(0.71775)
    # A list of 3 against one of 6 holding its ids further down: .rbo(ext=True) compares the
    # top 3 of each alone, and misses the two ids the longer list holds at depths 5 and 4.
    short, long_ = [1, 2, 3], [4, 1, 5, 2, 6, 3]
    cut = rbo_package.RankingSimilarity(short, long_).rbo(p=0.9, ext=True)
    assert cut == pytest.approx(rk.rbo(short, long_[:3], p=0.9), abs=1e-12)
    assert rk.rbo(short, long_, p=0.9) - cut > 0.1


def equation_30(a, b, p):
    """Webber et al.'s residual for uneven lists, as the paper writes it."""
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    s, l = len(short), len(long_)
    x_l = len(set(short) & set(long_))
    f = s + l - x_l
    term1 = s * sum(p**d / d for d in range(s + 1, f + 1))
    term2 = l * sum(p**d / d for d in range(l + 1, f + 1))
    term3 = x_l * (math.log(1 / (1 - p)) - sum(p**d / d for d in range(1, f + 1)))
    return p**s + p**l - p**f - (1 - p) / p * (term1 + term2 + term3)


def summed(a, b, p):
    """(1 - p) sum_d p^(d-1) X_d/d over the common length of two explicit lists, X_d counted
    from their prefixes."""
    total, overlap, seen_a, seen_b = 0.0, 0, set(), set()
    for d, (item_a, item_b) in enumerate(zip(a, b), start=1):
        overlap += (item_a in seen_b) + (item_b in seen_a) + (item_a == item_b)
        seen_a.add(item_a)
        seen_b.add(item_b)
        total += (1 - p) * p ** (d - 1) * overlap / d
    return total


def continued(a, b, *, best):
    """The two lists continued past their ends with fresh ids (worst case) or with the ids that
    raise the overlap most (best case): the shorter list first takes the longer list's
    unmatched ids, then each list takes the other's unmatched ids, then fresh ids in step."""
    short, long_ = (list(a), list(b)) if len(a) <= len(b) else (list(b), list(a))
    fresh = itertools.count(10_000)
    if best:
        missing_short = [item for item in long_ if item not in short]
        short += missing_short[:len(long_) - len(short)]
        while set(short) != set(long_):
            take_long = [item for item in short if item not in long_][0]
            take_short = [item for item in long_ if item not in short][0]
            short.append(take_short)
            long_.append(take_long)
    while len(short) < len(long_):
        short.append(next(fresh))
    for _ in range(2100):  # 0.98^2100 < 1e-18: the sum past this depth is negligible
        item = next(fresh)
        short.append(item)
        long_.append(item if best else next(fresh))
    return short, long_


@CASES
@given(two_lists())
def test_rbo_min_and_res_equal_the_continuations_written_out_and_equation_30(lists):
    a, b, p = lists
    worst = summed(*continued(a, b, best=False), p)
    best = summed(*continued(a, b, best=True), p)
    assert rk.rbo(a, b, p=p, kind="min") == pytest.approx(worst, abs=1e-12)
    assert rk.rbo(a, b, p=p, kind="min") + rk.rbo(a, b, p=p, kind="res") == pytest.approx(
        best, abs=1e-12)
    assert rk.rbo(a, b, p=p, kind="res") == pytest.approx(equation_30(a, b, p), abs=1e-12)


def test_rbo_of_equal_lists_is_1_and_of_disjoint_lists_is_0():
    assert rk.rbo(["a", "b", "c"], ["a", "b", "c"]) == 1.0
    assert rk.rbo([1, 2], [3, 4]) == 0.0
    assert rk.rbo([1, 2], [3, 4], kind="min") == 0.0


@pytest.mark.parametrize("module", [rk, rk.explain], ids=["function", "explain"])
def test_bad_input_raises_naming_the_argument(module):
    with pytest.raises(ValueError, match="^p must lie in"):
        module.rbo([1, 2], [2, 1], p=1.0)
    with pytest.raises(ValueError, match="^p must lie in"):
        module.rbo([1, 2], [2, 1], p=0)
    with pytest.raises(ValueError, match="^kind must be one of"):
        module.rbo([1, 2], [2, 1], kind="max")
    with pytest.raises(ValueError, match="^a lists 1 twice"):
        module.rbo([1, 2, 1], [2, 1])
    with pytest.raises(ValueError, match="^b must not hold a missing id"):
        module.rbo([1, 2], [2, math.nan])
    with pytest.raises(ValueError, match="^b must hold at least one id"):
        module.rbo([1, 2], [])
    with pytest.raises(TypeError, match="^a must be a list of ids"):
        module.rbo("abc", ["a"])
    with pytest.raises(TypeError, match="^a must hold hashable ids"):
        module.rbo([[1], [2]], [1])
    with pytest.raises(ValueError, match="x and y must have the same length"):
        module.tau_ap([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="^y must hold finite"):
        module.tau_ap([1, 2], [1, math.nan])
    with pytest.raises(ValueError, match="at least two items"):
        module.tau_ap([1], [1])


def test_explain_rbo_lists_every_depth_and_ends_in_the_value():
    explanation = rk.explain.rbo([1, 2, 3, 4], [2, 1, 3, 5])
    depths = explanation.tables["depths"]
    assert list(depths["X_d"]) == [0, 2, 3, 3]
    assert explanation.table["value"].iloc[-1] == explanation.value


def test_explain_tau_ap_lists_the_items_in_the_order_of_y():
    explanation = rk.explain.tau_ap([5, 4, 3, 2, 1], [4, 5, 3, 2, 1])
    assert list(explanation.table["item"]) == [1, 0, 2, 3, 4]
    assert list(explanation.table["expected C(i)/(i-1)"]) == [0, 0, 1, 1, 1]
