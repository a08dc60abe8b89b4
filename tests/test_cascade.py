"""Tests of rankedu/metrics/cascade.py: the cascade model, ERR and cascade_metric.

Written from CONTRACT.md and the seed posts (000 and 002 state ERR), independently of the
implementation.
"""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rankedu as rk

SEED_RELS = (3, 2, 3, 0, 1, 2)


def stop_probabilities(rels, max_grade):
    """R(g) = (2^g - 1) / 2^max_grade and PP_i = prod_{j<i} (1 - R_j) R_i, written out."""
    satisfied = [(2**g - 1) / 2**max_grade for g in rels]
    stops, reach = [], 1.0
    for r in satisfied:
        stops.append(reach * r)
        reach *= 1 - r
    return satisfied, stops


def direct_err(rels, max_grade, k=None):
    _, stops = stop_probabilities(rels[: k or len(rels)], max_grade)
    return sum(pp / r for r, pp in enumerate(stops, start=1))


@st.composite
def graded_with_max(draw):
    max_grade = draw(st.integers(1, 4))
    rels = draw(st.lists(st.integers(0, max_grade), min_size=1, max_size=12))
    return rels, max_grade


cutoffs = st.one_of(st.none(), st.integers(1, 15))


def test_err_of_two_documents_by_hand():
    # R = 1/4 and 3/4; ERR = 1 * 1/4 + 1/2 * (1 - 1/4) * 3/4.
    assert rk.err((1, 2), max_grade=2) == pytest.approx(0.25 + 0.5 * 0.75 * 0.75, abs=1e-12)


def test_err_of_the_seed_003_list_matches_the_formula():
    assert rk.err(SEED_RELS, max_grade=3) == pytest.approx(direct_err(SEED_RELS, 3), abs=1e-12)
    assert rk.err(SEED_RELS, 3, max_grade=3) == pytest.approx(direct_err(SEED_RELS, 3, 3), abs=1e-12)


def test_err_of_a_perfect_first_document_at_max_grade_4_is_15_16():
    # R(4) = 15/16 with max_grade 4: even a perfect document leaves a chance to go on.
    assert rk.err((4,), max_grade=4) == pytest.approx(15 / 16, abs=1e-12)
    assert rk.err((4, 4), max_grade=4) == pytest.approx(15 / 16 + (1 / 16) * (15 / 16) / 2, abs=1e-12)


def test_err_is_zero_when_nothing_satisfies():
    assert rk.err((0, 0, 0), max_grade=3) == 0.0
    assert type(rk.err((0, 0, 0), max_grade=3)) is float


def test_err_depends_on_max_grade():
    assert rk.err((2,), max_grade=2) == pytest.approx(3 / 4, abs=1e-12)
    assert rk.err((2,), max_grade=4) == pytest.approx(3 / 16, abs=1e-12)


def test_cascade_metric_with_phi_one_is_the_probability_of_stopping_at_all():
    satisfied, _ = stop_probabilities(SEED_RELS, 3)
    expected = 1 - math.prod(1 - r for r in satisfied)
    assert rk.cascade_metric(SEED_RELS, lambda r: 1.0, max_grade=3) == pytest.approx(expected, abs=1e-12)


def test_cascade_metric_calls_phi_with_ranks_from_1():
    seen = []

    def phi(r):
        seen.append(r)
        return 1.0 if r == 3 else 0.0

    _, stops = stop_probabilities(SEED_RELS, 3)
    assert rk.cascade_metric(SEED_RELS, phi, max_grade=3) == pytest.approx(stops[2], abs=1e-12)
    assert sorted(set(int(r) for r in seen)) == [1, 2, 3, 4, 5, 6]


def test_seed_000_phi_log2_discount_does_not_make_err_into_dcg():
    # Seed 000 says phi(r) = 1/log2(r+1) turns the cascade metric into DCG. It does not:
    # the stopping probabilities still weigh each rank.
    phi = lambda r: 1 / math.log2(r + 1)  # noqa: E731
    cascade = rk.cascade_metric(SEED_RELS, phi, max_grade=3)
    _, stops = stop_probabilities(SEED_RELS, 3)
    assert cascade == pytest.approx(sum(pp * phi(r) for r, pp in enumerate(stops, 1)), abs=1e-12)
    assert cascade != pytest.approx(rk.dcg(SEED_RELS))
    assert cascade != pytest.approx(rk.ndcg(SEED_RELS))
    assert 0.0 <= cascade <= 1.0


def test_explain_err_has_one_row_per_rank_in_the_prefaces_notation(column_like, running_result):
    explanation = rk.explain.err(SEED_RELS, max_grade=3)
    table = explanation.table
    satisfied, stops = stop_probabilities(SEED_RELS, 3)
    assert len(table) == 6
    # The preface's notation: rank i, grade rel_i, R_i = R(rel_i), stopping probability PP_i.
    assert list(table.columns) == ["i", "rel_i", "R_i", "P(reach i)", "PP_i", "1/i", "1/i·PP_i", "metric@i"]
    column_like(table, SEED_RELS)
    column_like(table, satisfied)
    column_like(table, stops)
    column_like(table, np.cumsum([pp / r for r, pp in enumerate(stops, 1)]))
    assert running_result(table) == pytest.approx(direct_err(SEED_RELS, 3), abs=1e-12)


def test_explain_cascade_metric_ends_in_the_value(running_result):
    phi = lambda r: 1 / math.log2(r + 1)  # noqa: E731
    explanation = rk.explain.cascade_metric(SEED_RELS, phi, max_grade=3)
    assert explanation.value == pytest.approx(rk.cascade_metric(SEED_RELS, phi, max_grade=3), abs=1e-12)
    assert running_result(explanation.table) == pytest.approx(explanation.value, abs=1e-12)


# --- properties ---------------------------------------------------------------------------


@given(graded_with_max(), cutoffs)
def test_err_equals_cascade_metric_with_phi_one_over_r(case, k):
    rels, max_grade = case
    assert rk.err(rels, k, max_grade=max_grade) == pytest.approx(
        rk.cascade_metric(rels, lambda r: 1 / r, k, max_grade=max_grade), abs=1e-12
    )


@given(graded_with_max(), cutoffs)
def test_err_matches_the_formula_and_lies_in_0_1(case, k):
    rels, max_grade = case
    value = rk.err(rels, k, max_grade=max_grade)
    assert value == pytest.approx(direct_err(rels, max_grade, k), abs=1e-12)
    assert 0.0 <= value <= 1.0


@given(graded_with_max(), cutoffs)
def test_explain_values_equal_the_functions(case, k):
    rels, max_grade = case
    assert abs(rk.explain.err(rels, k, max_grade=max_grade).value - rk.err(rels, k, max_grade=max_grade)) <= 1e-12
    phi = lambda r: 1 / r**2  # noqa: E731
    assert abs(rk.explain.cascade_metric(rels, phi, k, max_grade=max_grade).value
               - rk.cascade_metric(rels, phi, k, max_grade=max_grade)) <= 1e-12


@pytest.mark.parametrize("convert", [list, tuple, np.array, lambda x: np.array(x, dtype=float)],
                         ids=["list", "tuple", "int-array", "float-array"])
def test_lists_tuples_and_arrays_give_the_same_float(convert):
    value = rk.err(convert(list(SEED_RELS)), max_grade=3)
    cascade = rk.cascade_metric(convert(list(SEED_RELS)), lambda r: 1.0, max_grade=3)
    assert type(value) is float and type(cascade) is float
    assert value == rk.err(list(SEED_RELS), max_grade=3)
    assert cascade == rk.cascade_metric(list(SEED_RELS), lambda r: 1.0, max_grade=3)


# --- the cascade model: click probabilities and simulated users (book/cascade_err.ipynb) ---


def test_click_probabilities_follow_r_i_times_the_chance_of_reaching_rank_i():
    r = [0.5, 0.3, 0.6, 0.2, 0.4]
    expected = [0.5, 0.5 * 0.3, 0.5 * 0.7 * 0.6, 0.5 * 0.7 * 0.4 * 0.2, 0.5 * 0.7 * 0.4 * 0.8 * 0.4]
    assert np.allclose(rk.click_probabilities(r), expected, rtol=0, atol=1e-15)


@given(st.lists(st.floats(0, 1), min_size=0, max_size=12))
def test_click_probabilities_and_no_click_add_up_to_one(r):
    clicks = rk.click_probabilities(r)
    assert len(clicks) == len(r)
    assert np.all(clicks >= 0)
    assert math.isclose(float(clicks.sum()) + float(np.prod(1 - np.array(r))), 1.0, abs_tol=1e-12)


def test_click_probabilities_are_errs_stopping_probabilities_when_r_is_R_of_the_grade():
    rels = [3, 2, 3, 0, 1, 2]
    stops = rk.explain.err(rels, max_grade=4).table
    r = (2.0 ** np.array(rels) - 1) / 2**4
    assert np.allclose(rk.click_probabilities(r), stops["PP_i"], rtol=0, atol=1e-15)


def test_explain_click_probabilities_value_is_the_function_and_table_ends_in_the_running_sum(
    column_like, running_result
):
    r = [0.5, 0.3, 0.6]
    explanation = rk.explain.click_probabilities(r)
    assert np.array_equal(explanation.value, rk.click_probabilities(r))
    column_like(explanation.table, [1.0, 0.5, 0.35])  # probability of reaching each rank
    assert math.isclose(running_result(explanation.table), 1 - 0.5 * 0.7 * 0.4, abs_tol=1e-15)


@pytest.mark.parametrize("bad", [[0.5, 1.5], [-0.1], [0.2, float("nan")]])
def test_click_probabilities_reject_attractiveness_outside_0_1_naming_the_argument(bad):
    with pytest.raises(ValueError, match="attractiveness"):
        rk.click_probabilities(bad)


def test_simulate_cascade_is_reproducible_with_a_seed_and_varies_without_it():
    r = [0.3, 0.3, 0.3]
    first = rk.simulate_cascade(r, 1000, seed=1)
    assert np.array_equal(first, rk.simulate_cascade(r, 1000, seed=1))
    assert not np.array_equal(first, rk.simulate_cascade(r, 1000, seed=2))


def test_simulate_cascade_returns_ranks_from_1_and_0_for_users_who_never_click():
    clicks = rk.simulate_cascade([0.0, 1.0, 0.5], 500, seed=3)
    assert set(clicks.tolist()) == {2}  # rank 1 is never clicked, rank 2 always
    assert set(rk.simulate_cascade([0.0, 0.0], 50, seed=3).tolist()) == {0}
    assert rk.simulate_cascade([0.5], 0, seed=3).shape == (0,)


@pytest.mark.parametrize("seed", [0, 2009, 12345])
def test_simulated_click_frequencies_are_within_4_standard_errors_of_the_formula(seed):
    r = [0.5, 0.3, 0.6, 0.2, 0.4]
    n_users = 50_000
    clicks = rk.simulate_cascade(r, n_users, seed=seed)
    frequency = np.bincount(clicks, minlength=len(r) + 1) / n_users
    p = np.r_[np.prod(1 - np.array(r)), rk.click_probabilities(r)]  # no click, then ranks 1..5
    standard_error = np.sqrt(p * (1 - p) / n_users)
    assert np.all(np.abs(frequency - p) < 4 * standard_error)


def test_simulate_cascade_rejects_a_negative_number_of_users():
    with pytest.raises(ValueError, match="n_users"):
        rk.simulate_cascade([0.5], -1, seed=0)


# --- rankedu.teaching.symbolic's exact cascade, against the numeric one ---


@given(st.lists(st.integers(0, 4), min_size=1, max_size=8))
def test_symbolic_cascade_metric_equals_the_numeric_one_for_err_and_the_log_discount(rels):
    import sympy

    from rankedu.teaching import symbolic as rs

    satisfied = [rs.satisfaction(g, 4) for g in rels]
    stops = [float(pp) for pp in rs.stop_probabilities(satisfied)]
    assert np.allclose(stops, rk.explain.err(rels, max_grade=4).table["PP_i"], rtol=0, atol=1e-15)
    exact_err = rs.cascade_metric(satisfied, lambda r: 1 / r)
    assert math.isclose(float(exact_err), rk.err(rels, max_grade=4), rel_tol=1e-12, abs_tol=1e-15)
    exact_log = rs.cascade_metric(satisfied, lambda r: 1 / rs.log2(r + 1))
    numeric_log = rk.cascade_metric(rels, lambda r: 1 / math.log2(r + 1), max_grade=4)
    assert math.isclose(float(sympy.N(exact_log, 30)), numeric_log, rel_tol=1e-12, abs_tol=1e-15)


def test_symbolic_stop_probabilities_with_stops_ignoring_the_documents_above_give_scaled_exponential_dcg():
    import sympy

    from rankedu.teaching import symbolic as rs

    g = sympy.symbols("g1:5", nonnegative=True, integer=True)
    g_max = sympy.Symbol("g_max", positive=True, integer=True)
    independent = sympy.Add(
        *(rs.satisfaction(g[k], g_max) / rs.log2(k + 2) for k in range(4))
    )
    assert sympy.simplify(independent - rs.dcg(g, gain="exponential") / 2**g_max) == 0
    R = sympy.symbols("R1:4", positive=True)
    cascade = rs.cascade_metric(R, lambda r: 1 / rs.log2(r + 1))
    assert sympy.expand(cascade - sum(R[k] / rs.log2(k + 2) for k in range(3))) != 0


# --- large grading scales (issue 16: 2^g overflowed from g = 1024 and ERR was NaN) -------------


def exact_err(rels, max_grade):
    from fractions import Fraction

    total, reach = Fraction(0), Fraction(1)
    for r, g in enumerate(rels, start=1):
        satisfied = Fraction(2**g - 1, 2**max_grade)
        total += reach * satisfied / r
        reach *= 1 - satisfied
    return total


@pytest.mark.parametrize("rels, max_grade", [
    ([1100, 0], 1100), ([1000, 1500, 3], 2000), ([0, 2000, 1999], 2000), ([5, 3, 4], 1024),
    ([2, 1, 0], 2), ([4, 3, 4, 0, 1], 4),
])
def test_err_on_a_large_scale_is_the_exact_value_correctly_rounded(rels, max_grade):
    value = rk.err(rels, max_grade=max_grade)
    assert math.isfinite(value)
    assert value == pytest.approx(float(exact_err(rels, max_grade)), rel=1e-14, abs=1e-300)


@given(graded_with_max())
def test_r_of_g_is_exactly_2_to_the_g_minus_1_over_2_to_g_max_on_small_scales(case):
    rels, max_grade = case
    table = rk.explain.err(rels, max_grade=max_grade).table
    expected = [(2.0**g - 1) / 2.0**max_grade for g in rels]
    assert table.iloc[:, 2].tolist() == expected


def test_err_with_a_float_max_grade_far_above_every_grade_is_near_0_not_nan():
    assert rk.err([3, 2], max_grade=1e6) == 0.0
