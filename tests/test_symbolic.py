"""Tests of rankedu/teaching/symbolic.py: the exact sympy DCG agrees with rk.dcg and proves what the book says."""

import doctest
import itertools
import math
import subprocess
import sys

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

import rankedu as rk
from rankedu.teaching import symbolic
from rankedu.teaching import symbolic_auc
from rankedu.teaching.symbolic import log2

GAINS = ("linear", "exponential")
DISCOUNTS = ("log2", "jarvelin")

grades = st.lists(st.integers(min_value=-1, max_value=4), min_size=0, max_size=12)
cutoffs = st.one_of(st.none(), st.integers(min_value=1, max_value=15))


def as_float(expr):
    return float(sympy.N(expr, 30))


def test_importing_rankedu_does_not_import_sympy():
    code = "import sys, rankedu; print('sympy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_log2_is_exact_on_powers_of_two_and_stays_unevaluated_otherwise():
    assert log2(1) == 0 and log2(2) == 1 and log2(8) == 3
    assert isinstance(log2(3), log2)
    assert str(1 / log2(6)) == "1/log2(6)"


def test_log2_evaluates_numerically_and_rewrites_to_natural_logs():
    assert as_float(log2(7)) == pytest.approx(math.log2(7), rel=1e-15)
    assert log2(3).rewrite(sympy.log) == sympy.log(3) / sympy.log(2)
    assert log2(3).is_positive and log2(1).is_zero


def test_gain_values_are_exact():
    assert symbolic.gain(3) == 3
    assert symbolic.gain(3, gain="exponential") == 7
    assert symbolic.gain(0.5) == sympy.Rational(1, 2)
    assert symbolic.gain(-1, gain="exponential") == sympy.Rational(-1, 2)


def test_discount_values_follow_both_conventions():
    assert [symbolic.discount(i) for i in (1, 2, 3, 4)] == [1, 1 / log2(3), sympy.Rational(1, 2), 1 / log2(5)]
    assert [symbolic.discount(i, "jarvelin") for i in (1, 2, 3, 4)] == [1, 1, 1 / log2(3), sympy.Rational(1, 2)]


def test_seed_example_dcg_is_the_textbook_sum_of_log_terms():
    expected = sympy.Rational(9, 2) + 2 / log2(3) + 1 / log2(6) + 2 / log2(7)
    assert symbolic.dcg([3, 2, 3, 0, 1, 2]) == expected
    assert symbolic.dcg_terms([3, 2, 3, 0, 1, 2]) == [3, 2 / log2(3), sympy.Rational(3, 2), 0, 1 / log2(6), 2 / log2(7)]


def test_seed_example_ndcg_matches_rk_to_twelve_digits():
    rels, pool = [3, 2, 3, 0, 1, 2], [3, 2, 3, 0, 1, 2, 3, 0]
    exact = symbolic.ndcg(rels, 6, pool=pool)
    assert as_float(exact) == pytest.approx(rk.ndcg(rels, 6, pool=pool), rel=1e-12)
    assert symbolic.idcg(pool, 6) == sympy.Rational(9, 2) + 3 / log2(3) + 2 / log2(5) + 2 / log2(6) + 1 / log2(7)


def test_dcg_of_symbols_keeps_the_grades_as_symbols():
    a, b, c = sympy.symbols("a b c")
    assert symbolic.dcg([a, b, c]) == a + b / log2(3) + c / 2
    assert symbolic.dcg([a, b, c], discount="jarvelin") == a + b + c / log2(3)
    assert symbolic.dcg([a, b], gain="exponential") == 2**a - 1 + (2**b - 1) / log2(3)


@given(rels=grades, k=cutoffs, gain=st.sampled_from(GAINS), discount=st.sampled_from(DISCOUNTS))
def test_dcg_equals_rk_dcg(rels, k, gain, discount):
    exact = symbolic.dcg(rels, k, gain=gain, discount=discount)
    assert as_float(exact) == pytest.approx(rk.dcg(rels, k, gain=gain, discount=discount), rel=1e-12, abs=1e-12)


@given(pool=grades, k=cutoffs, gain=st.sampled_from(GAINS), discount=st.sampled_from(DISCOUNTS))
def test_idcg_equals_rk_idcg(pool, k, gain, discount):
    exact = symbolic.idcg(pool, k, gain=gain, discount=discount)
    assert as_float(exact) == pytest.approx(rk.idcg(pool, k, gain=gain, discount=discount), rel=1e-12, abs=1e-12)


@given(rels=grades, extra=grades, k=cutoffs, gain=st.sampled_from(GAINS), discount=st.sampled_from(DISCOUNTS))
def test_ndcg_equals_rk_ndcg_with_and_without_a_pool(rels, extra, k, gain, discount):
    for pool in (None, rels + extra):
        if rk.idcg(rels if pool is None else pool, k, gain=gain, discount=discount) < 0:
            # Both refuse an ideal DCG below zero rather than reverse the order of rankings.
            with pytest.raises(ValueError, match="pool"):
                symbolic.ndcg(rels, k, pool=pool, gain=gain, discount=discount)
            with pytest.raises(ValueError, match="pool"):
                rk.ndcg(rels, k, pool=pool, gain=gain, discount=discount)
            continue
        exact = symbolic.ndcg(rels, k, pool=pool, gain=gain, discount=discount)
        numeric = rk.ndcg(rels, k, pool=pool, gain=gain, discount=discount)
        assert as_float(exact) == pytest.approx(numeric, rel=1e-10, abs=1e-12)


def test_ndcg_is_zero_when_the_ideal_dcg_is_zero():
    assert symbolic.ndcg([0, 0, 0]) == 0
    assert rk.ndcg([0, 0, 0]) == 0.0


def test_float_grades_become_exact_rationals():
    assert symbolic.dcg([0.5, 0.25], discount="jarvelin") == sympy.Rational(3, 4)


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: symbolic.dcg([1, 2], gain="quadratic"), ValueError, "gain"),
        (lambda: symbolic.dcg([1, 2], discount="log10"), ValueError, "discount"),
        (lambda: symbolic.dcg([1, 2], 0), ValueError, "k"),
        (lambda: symbolic.dcg([1, 2], 1.5), TypeError, "k"),
        (lambda: symbolic.dcg([1, float("nan")]), ValueError, "rels"),
        (lambda: symbolic.dcg([1, "2"]), TypeError, "rels"),
        (lambda: symbolic.discount(0), ValueError, "rank"),
        (lambda: symbolic.idcg(sympy.symbols("a b")), TypeError, "pool"),
        (lambda: symbolic.dcg([1, 2], 2**63), ValueError, "k"),
        (lambda: symbolic.dcg([1, 2], discount="jarvelin", base=1), ValueError, "base"),
        (lambda: symbolic.dcg([1, 2], base=3), ValueError, "base"),
    ],
)
def test_bad_arguments_raise_errors_that_name_the_argument(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_rearrangement_differences_cover_every_order_and_the_sorted_one_is_zero():
    for n in (2, 3, 4):
        diffs = symbolic.rearrangement_differences(n)
        assert sorted(diffs) == sorted(itertools.permutations(range(n)))
        assert diffs[tuple(range(n))] == 0
        assert all(diff != 0 for p, diff in diffs.items() if p != tuple(range(n)))


def test_two_positions_difference_factors_into_gain_gap_times_discount_gap():
    g1, g2, d1, d2 = sympy.symbols("g1 g2 d1 d2")
    assert sympy.factor(symbolic.rearrangement_differences(2)[(1, 0)]) == (g1 - g2) * (d1 - d2)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_difference_is_a_polynomial_in_the_gaps_with_non_negative_coefficients(n):
    for diff in symbolic.rearrangement_differences(n).values():
        gaps = symbolic.in_gaps(diff, n)
        if gaps == 0:
            continue
        names = {s.name[0] for s in gaps.free_symbols}
        assert names <= {"x", "y"}, gaps  # the lowest gain and discount cancel
        assert all(c > 0 for c in sympy.Poly(gaps, *sorted(gaps.free_symbols, key=str)).coeffs())


def test_gap_form_is_the_same_number_as_the_difference():
    n = 3
    g = sympy.symbols("g1:4")
    d = sympy.symbols("d1:4")
    x = sympy.symbols("x1:3", nonnegative=True)
    y = sympy.symbols("y1:3", nonnegative=True)
    values = {g[0]: 7, g[1]: 3, g[2]: 1, d[0]: 1, d[1]: sympy.Rational(2, 3), d[2]: sympy.Rational(1, 2)}
    gap_values = {x[0]: 4, x[1]: 2, y[0]: sympy.Rational(1, 3), y[1]: sympy.Rational(1, 6), g[2]: 1, d[2]: sympy.Rational(1, 2)}
    for diff in symbolic.rearrangement_differences(n).values():
        assert diff.subs(values) == symbolic.in_gaps(diff, n).subs(gap_values)


def test_docstring_examples_hold():
    result = doctest.testmod(symbolic)
    assert result.attempted > 0 and result.failed == 0


def test_the_exact_roc_auc_functions_are_offered_here_as_the_chapters_call_them():
    # The chapters call symbolic.roc_auc_pairs and its siblings; they live in symbolic_auc.
    for name in symbolic_auc.__all__:
        assert name in symbolic.__all__ and getattr(symbolic, name) is getattr(symbolic_auc, name)


def test_k_is_checked_by_the_same_rule_as_rk_dcg():
    # symbolic used to re-implement the check; both now raise the same error for the same k.
    from rankedu.core.validation import NonIntegerCutoffError

    for bad in (1.5, True, "2"):
        with pytest.raises(NonIntegerCutoffError):
            symbolic.dcg([1, 2], bad)
        with pytest.raises(NonIntegerCutoffError):
            rk.dcg([1, 2], bad)


@given(rels=grades, k=cutoffs, base=st.sampled_from([2, 3, 2.5, 10]))
def test_dcg_with_a_jarvelin_base_equals_rk_dcg(rels, k, base):
    exact = symbolic.dcg(rels, k, discount="jarvelin", base=base)
    assert as_float(exact) == pytest.approx(rk.dcg(rels, k, discount="jarvelin", base=base), abs=1e-12)
