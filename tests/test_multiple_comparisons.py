"""Tests of rankedu/stats/multiple_comparisons.py: Holm's adjustment and the randomised Tukey HSD test,
each against an independent computation."""

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankedu as rk


# --- Holm ---------------------------------------------------------------------------------------

def test_holm_on_a_hand_computed_example():
    # sorted: 0.005 (x4 = 0.02), 0.01 (x3 = 0.03), 0.03 (x2 = 0.06), 0.04 (x1 = 0.04 -> max 0.06)
    np.testing.assert_allclose(rk.holm([0.01, 0.04, 0.03, 0.005]), [0.03, 0.06, 0.06, 0.02])
    np.testing.assert_allclose(rk.holm([0.5, 0.4]), [0.8, 0.8])
    np.testing.assert_allclose(rk.holm([0.7]), [0.7])


def holm_rejections(p_values, alpha):
    """Holm's step-down procedure as he states it: walk up the sorted p-values, rejecting while
    p_(i) <= alpha / (m - i + 1), and stop at the first that is not."""
    m = len(p_values)
    rejected = set()
    for i, index in enumerate(sorted(range(m), key=lambda j: p_values[j])):
        if p_values[index] > alpha / (m - i):
            break
        rejected.add(index)
    return rejected


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(min_value=0, max_value=1), min_size=1, max_size=12),
       st.sampled_from([0.001, 0.01, 0.05, 0.1, 0.2]))
def test_holm_adjusted_p_values_reject_exactly_what_the_step_down_procedure_rejects(p, alpha):
    adjusted = rk.holm(p)
    assert {i for i, q in enumerate(adjusted) if q <= alpha} == holm_rejections(p, alpha)
    assert all(q >= raw - 1e-15 for q, raw in zip(adjusted, p))
    assert all(q <= min(1.0, len(p) * raw) + 1e-15 for q, raw in zip(adjusted, p))


def test_explain_holm_lists_the_sorted_p_values_and_their_multipliers():
    explanation = rk.explain.holm([0.01, 0.04, 0.03, 0.005])
    table = explanation.table
    assert list(table["test"]) == [4, 1, 3, 2]
    assert list(table["m - i + 1"]) == [4, 3, 2, 1]
    np.testing.assert_allclose(explanation.value, rk.holm([0.01, 0.04, 0.03, 0.005]))


# --- randomised Tukey HSD -----------------------------------------------------------------------

def exact_tukey_p_values(table):
    """Share of all (m!)^n arrangements (each query's row permuted) whose range of system means
    reaches each pair's observed difference: the quantity the randomised test estimates."""
    n, m = table.shape
    rows = [list(itertools.permutations(row)) for row in table]
    ranges = []
    for arrangement in itertools.product(*rows):
        means = np.mean(arrangement, axis=0)
        ranges.append(means.max() - means.min())
    ranges = np.array(ranges)
    means = table.mean(axis=0)
    return {(i, j): float(np.mean(ranges >= abs(means[i] - means[j]) - 1e-12))
            for i in range(m) for j in range(i + 1, m)}


def test_tukey_p_values_approach_the_share_over_every_arrangement():
    table = np.array([[0.2, 0.5, 0.9], [0.1, 0.3, 0.4], [0.6, 0.6, 0.8], [0.3, 0.2, 0.7]])
    exact = exact_tukey_p_values(table)  # 6^4 = 1296 arrangements
    result = rk.randomized_tukey_hsd(pd.DataFrame(table, columns=["x", "y", "z"]),
                                     n_resamples=40_000, seed=3)
    names = ["x", "y", "z"]
    for row in result.pairs.itertuples():
        expected = exact[(names.index(row.system_a), names.index(row.system_b))]
        assert abs(row.p_value - expected) < 0.01


def test_tukey_on_a_constructed_case():
    rng = np.random.default_rng(0)
    base = rng.random(40)
    scores = {"A": base, "B": base.copy(), "C": base + 0.3}
    result = rk.randomized_tukey_hsd(scores, n_resamples=2000, seed=1)
    pairs = result.pairs.set_index(["system_a", "system_b"])
    assert pairs.loc[("A", "B"), "p_value"] == 1.0  # equal means: every range reaches 0
    assert pairs.loc[("A", "C"), "p_value"] == 1 / 2001  # no permutation reaches 0.3
    assert pairs.loc[("A", "C"), "difference"] == pytest.approx(-0.3)
    assert list(result.means.index) == ["A", "B", "C"]
    assert len(result.null_distribution) == 2000


def test_tukey_adjusted_p_values_are_never_below_the_pairs_own_randomisation_p_value():
    # The range of m means is at least as large as any one pair's difference, so the adjusted
    # p-value of a pair is at least what a permutation test of that pair alone would give.
    rng = np.random.default_rng(2)
    table = pd.DataFrame(rng.random((30, 4)) + [0, 0.05, 0.1, 0.15], columns=list("ABCD"))
    tukey = rk.randomized_tukey_hsd(table, n_resamples=4000, seed=0)
    for row in tukey.pairs.itertuples():
        alone = rk.paired_randomization_test(table[row.system_a], table[row.system_b],
                                             n_resamples=4000, seed=0)
        assert row.p_value >= alone.p_value - 4 * alone.standard_error


def test_tukey_is_reproducible_with_a_seed():
    table = pd.DataFrame(np.random.default_rng(9).random((10, 3)), columns=["a", "b", "c"])
    first = rk.randomized_tukey_hsd(table, n_resamples=300, seed=4)
    second = rk.randomized_tukey_hsd(table, n_resamples=300, seed=4)
    pd.testing.assert_frame_equal(first.pairs, second.pairs)


# --- bad input ----------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: rk.holm([]), ValueError, "p_values"),
        (lambda: rk.holm([0.2, 1.5]), ValueError, "p_values"),
        (lambda: rk.randomized_tukey_hsd([[0.1, 0.2]]), TypeError, "scores"),
        (lambda: rk.randomized_tukey_hsd({"A": [0.1, 0.2]}), ValueError, "at least 2 systems"),
        (lambda: rk.randomized_tukey_hsd({"A": [0.1, 0.2], "B": [0.3]}), ValueError, "same length"),
        (lambda: rk.randomized_tukey_hsd({"A": [0.1, float("nan")], "B": [0.3, 0.4]}),
         ValueError, "scores\\['A'\\]"),
        (lambda: rk.randomized_tukey_hsd({"A": [0.1], "B": [0.3]}, seed="x"), TypeError, "seed"),
    ],
)
def test_bad_input_raises_naming_the_argument(call, error, message):
    with pytest.raises(error, match=message):
        call()
