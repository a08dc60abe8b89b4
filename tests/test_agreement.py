"""Tests of rankedu/judgments/agreement.py: each coefficient against an independent tool on
generated labels (2 to 6 categories, skewed prevalence, missing labels for alpha), IIR's Table
8.2, and bad input.

Oracles: scikit-learn's ``cohen_kappa_score`` (weights), statsmodels' ``fleiss_kappa``, irrCAC
(Scott's pi as its Fleiss' kappa of two raters, Gwet's AC1) and the ``krippendorff`` package.
"""

import math
import warnings

import krippendorff
import numpy as np
import pandas as pd
import pytest
import sklearn.metrics as sklearn_metrics
import statsmodels.stats.inter_rater as inter_rater
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from irrCAC import raw as irr_raw

import rankedu as rk

# IIR's Table 8.2 (Manning et al., 2008): yes/yes 300, yes/no 20, no/yes 10, no/no 70.
IIR_A = [1] * 300 + [1] * 20 + [0] * 10 + [0] * 70
IIR_B = [1] * 300 + [0] * 20 + [1] * 10 + [0] * 70
CASES = settings(max_examples=300, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow])


@st.composite
def two_raters(draw, min_items=2):
    """Two raters' integer grades on a scale of 2 to 6 categories, one category made common
    (skewed prevalence), the second rater agreeing with the first on a random share."""
    q = draw(st.integers(2, 6))
    n = draw(st.integers(min_items, 120))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    prevalence = rng.dirichlet(np.full(q, draw(st.sampled_from([0.2, 1.0, 5.0]))))
    a = rng.choice(q, size=n, p=prevalence)
    same = rng.random(n) < draw(st.floats(0, 1))
    b = np.where(same, a, rng.choice(q, size=n, p=prevalence))
    return a, b, q


def test_iir_table_8_2_gives_the_four_numbers_of_the_chapter():
    assert round(rk.scott_pi(IIR_A, IIR_B), 5) == 0.77591
    assert round(rk.fleiss_kappa([[0, 2]] * 300 + [[1, 1]] * 30 + [[2, 0]] * 70), 5) == 0.77591
    assert round(rk.cohen_kappa(IIR_A, IIR_B), 6) == 0.776119
    assert round(rk.krippendorff_alpha([IIR_A, IIR_B]), 5) == 0.77619
    assert round(rk.gwet_ac1(IIR_A, IIR_B), 5) == 0.88727


def test_iir_kappa_is_exactly_its_fractions():
    # P(A) = 370/400, pooled P(relevant) = 630/800: P(E) = (630^2 + 170^2)/800^2.
    p_o, p_e = 370 / 400, (630**2 + 170**2) / 800**2
    assert rk.scott_pi(IIR_A, IIR_B) == pytest.approx((p_o - p_e) / (1 - p_e), abs=1e-15)
    # alpha = 1 - (n - 1)/n (1 - pi), n = 800 labels
    assert rk.krippendorff_alpha([IIR_A, IIR_B]) == pytest.approx(
        1 - 799 / 800 * (1 - rk.scott_pi(IIR_A, IIR_B)), abs=1e-15)


@CASES
@given(two_raters(), st.sampled_from([None, "linear", "quadratic"]))
def test_cohen_kappa_equals_scikit_learn_given_every_grade_of_the_scale(raters, weights):
    a, b, q = raters
    ours = rk.cohen_kappa(a, b, weights=weights)
    with warnings.catch_warnings():
        # scikit-learn warns at 0/0 (a single category) and returns NaN, as rankedu does
        warnings.simplefilter("ignore")
        theirs = sklearn_metrics.cohen_kappa_score(a, b, weights=weights,
                                                   labels=list(range(q)))
    if math.isnan(theirs):
        assert math.isnan(ours)
    else:
        assert ours == pytest.approx(theirs, abs=1e-12)


def test_weights_are_by_value_not_by_position_among_the_grades_used():
    # Grade 2 unused: 1 and 3 are two apart on the scale, one apart among the grades used.
    a, b = [0, 1, 3, 3, 1, 0], [0, 3, 1, 3, 1, 1]
    ours = rk.cohen_kappa(a, b, weights="linear")
    scale = sklearn_metrics.cohen_kappa_score(a, b, weights="linear", labels=[0, 1, 2, 3])
    used = sklearn_metrics.cohen_kappa_score(a, b, weights="linear")
    assert ours == pytest.approx(scale, abs=1e-12)
    assert abs(ours - used) > 0.01


@CASES
@given(two_raters())
def test_scott_pi_and_gwet_ac1_equal_irrcac(raters):
    a, b, _ = raters
    if len(set(a) | set(b)) < 2:
        assert math.isnan(rk.scott_pi(a, b)) and math.isnan(rk.gwet_ac1(a, b))
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cac = irr_raw.CAC(pd.DataFrame({"a": a, "b": b}), digits=15)
        fleiss = cac.fleiss()["est"]["coefficient_value"]
        ac1 = cac.gwet()["est"]["coefficient_value"]
    assert rk.scott_pi(a, b) == pytest.approx(fleiss, abs=1e-12)
    assert rk.gwet_ac1(a, b) == pytest.approx(ac1, abs=1e-12)


@CASES
@given(two_raters())
def test_scott_pi_is_fleiss_kappa_of_two_raters_and_never_above_cohen_kappa(raters):
    a, b, q = raters
    counts = np.zeros((len(a), q), dtype=int)
    np.add.at(counts, (np.arange(len(a)), a), 1)
    np.add.at(counts, (np.arange(len(a)), b), 1)
    pi, kappa = rk.scott_pi(a, b), rk.cohen_kappa(a, b)
    if math.isnan(pi):
        assert math.isnan(rk.fleiss_kappa(counts)) and math.isnan(kappa)
        return
    assert rk.fleiss_kappa(counts) == pytest.approx(pi, abs=1e-12)
    assert pi <= kappa + 1e-12


@CASES
@given(st.integers(1, 40), st.integers(2, 6), st.integers(2, 8), st.integers(0, 2**32 - 1))
def test_fleiss_kappa_equals_statsmodels(items, q, raters, seed):
    rng = np.random.default_rng(seed)
    prevalence = rng.dirichlet(np.full(q, 0.5))
    labels = rng.choice(q, size=(items, raters), p=prevalence)
    counts = np.stack([(labels == j).sum(axis=1) for j in range(q)], axis=1)
    ours = rk.fleiss_kappa(counts)
    with np.errstate(divide="ignore", invalid="ignore"):
        theirs = inter_rater.fleiss_kappa(counts, method="fleiss")
    if np.isnan(theirs) or (counts.sum(axis=0) == counts.sum()).any():
        assert math.isnan(ours)
    else:
        assert ours == pytest.approx(theirs, abs=1e-12)


@st.composite
def reliability_data(draw, level):
    """Raters x items, some labels missing, values on a scale of 2 to 6 (shifted and spaced
    unevenly for the interval and ratio levels, where the values themselves count)."""
    raters = draw(st.integers(2, 5))
    items = draw(st.integers(2, 30))
    q = draw(st.integers(2, 6))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    scale = np.sort(rng.choice(np.arange(0, 20), size=q, replace=False)).astype(float)
    truth = rng.choice(q, size=items, p=rng.dirichlet(np.full(q, 0.7)))
    noise = rng.integers(-1, 2, size=(raters, items)) * (rng.random((raters, items)) < 0.3)
    data = scale[np.clip(truth + noise, 0, q - 1)]
    data[rng.random(data.shape) < draw(st.sampled_from([0.0, 0.2, 0.5]))] = np.nan
    return data


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_krippendorff_alpha_equals_the_krippendorff_package(level):
    @CASES
    @given(reliability_data(level))
    def check(data):
        pairable = (~np.isnan(data)).sum(axis=0) >= 2
        values = np.unique(data[:, pairable][~np.isnan(data[:, pairable])])
        if not pairable.any():
            with pytest.raises(ValueError, match="data"):
                rk.krippendorff_alpha(data, level=level)
            return
        ours = rk.krippendorff_alpha(data, level=level)
        if len(values) < 2:
            assert math.isnan(ours)
            return
        theirs = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
        assert ours == pytest.approx(theirs, abs=1e-12)

    check()


def test_krippendorffs_own_example_with_missing_labels():
    # Krippendorff (2011), the example of four coders and twelve units, nominal: 0.743.
    nan = math.nan
    data = [[1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
            [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
            [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
            [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]]
    assert round(rk.krippendorff_alpha(data), 3) == 0.743
    assert round(rk.krippendorff_alpha(data, level="interval"), 3) == 0.849


def test_the_prevalence_paradox_kappa_falls_while_ac1_does_not():
    # 90% observed agreement both times; balanced categories, then 90% "relevant".
    balanced_a = [1] * 45 + [0] * 45 + [1] * 5 + [0] * 5
    balanced_b = [1] * 45 + [0] * 45 + [0] * 5 + [1] * 5
    skewed_a = [1] * 88 + [0] * 2 + [1] * 5 + [0] * 5
    skewed_b = [1] * 88 + [0] * 2 + [0] * 5 + [1] * 5
    assert rk.cohen_kappa(balanced_a, balanced_b) == pytest.approx(0.8)
    assert rk.cohen_kappa(skewed_a, skewed_b) < 0.3
    assert rk.gwet_ac1(skewed_a, skewed_b) > 0.85


def test_one_category_between_both_raters_is_nan_for_every_coefficient():
    assert math.isnan(rk.cohen_kappa([2, 2, 2], [2, 2, 2]))
    assert math.isnan(rk.cohen_kappa([2, 2, 2], [2, 2, 2], weights="linear"))
    assert math.isnan(rk.scott_pi([0, 0], [0, 0]))
    assert math.isnan(rk.gwet_ac1([0, 0], [0, 0]))
    assert math.isnan(rk.fleiss_kappa([[0, 3], [0, 3]]))
    assert math.isnan(rk.krippendorff_alpha([[1, 1, math.nan], [1, 1, 1]]))


def test_perfect_agreement_is_1_and_values_are_plain_floats():
    for value in (rk.cohen_kappa([0, 1, 2], [0, 1, 2], weights="quadratic"),
                  rk.scott_pi([0, 1], [0, 1]), rk.gwet_ac1([0, 1], [0, 1]),
                  rk.fleiss_kappa([[2, 0], [0, 2]]),
                  rk.krippendorff_alpha([[0, 1], [0, 1]], level="ordinal")):
        assert type(value) is float and value == 1.0


@pytest.mark.parametrize("module", [rk, rk.explain], ids=["function", "explain"])
@pytest.mark.parametrize("name", ["cohen_kappa", "scott_pi", "gwet_ac1"])
def test_two_rater_bad_input_raises_naming_the_argument(module, name):
    function = getattr(module, name)
    with pytest.raises(ValueError, match="a and b must have the same length"):
        function([0, 1, 1], [0, 1])
    with pytest.raises(ValueError, match="^b must hold finite"):
        function([0, 1], [0, math.nan])
    with pytest.raises(ValueError, match="^a must hold finite"):
        function(np.array([math.nan, 1.0]), [0, 1])
    with pytest.raises(TypeError, match="^a must hold real numbers"):
        function(["x", "y"], [0, 1])
    with pytest.raises(ValueError, match="at least one label"):
        function([], [])


@pytest.mark.parametrize("module", [rk, rk.explain], ids=["function", "explain"])
def test_an_unknown_weighting_or_level_raises_naming_it(module):
    with pytest.raises(ValueError, match="^weights must be one of"):
        module.cohen_kappa([0, 1], [0, 1], weights="cubic")
    with pytest.raises(ValueError, match="^level must be one of"):
        module.krippendorff_alpha([[0, 1], [0, 1]], level="binary")


@pytest.mark.parametrize("module", [rk, rk.explain], ids=["function", "explain"])
def test_bad_counts_raise_naming_counts(module):
    for bad, message in [([[1, 1], [2, 1]], "same number of raters"),
                         ([[1, 0], [0, 1]], "at least two raters"),
                         ([[1, -1, 2]], "counts must hold counts"),
                         ([[0.5, 1.5]], "counts must hold counts"),
                         ([[1, 1], [2]], "the same length"),
                         ([], "at least one item")]:
        with pytest.raises(ValueError, match=message):
            module.fleiss_kappa(bad)
    with pytest.raises(ValueError, match="counts row 0 must hold finite"):
        module.fleiss_kappa([[math.nan, 2]])


@pytest.mark.parametrize("module", [rk, rk.explain], ids=["function", "explain"])
def test_bad_reliability_data_raises_naming_data(module):
    nan = math.nan
    with pytest.raises(ValueError, match="^data must have an item labelled by at least two"):
        module.krippendorff_alpha([[1, nan], [nan, 2]])
    with pytest.raises(ValueError, match="^data must be two-dimensional"):
        module.krippendorff_alpha([1, 2, 3])
    with pytest.raises(ValueError, match="^data must hold finite labels"):
        module.krippendorff_alpha([[1, math.inf], [1, 2]])
    with pytest.raises(ValueError, match="^data must be a 2-D table"):
        module.krippendorff_alpha([[1, 2], [1]])
    with pytest.raises(ValueError, match="^data must hold labels >= 0 at the ratio level"):
        module.krippendorff_alpha([[1, -2], [1, 2]], level="ratio")
    with pytest.raises(TypeError, match="^data must"):
        module.krippendorff_alpha("labels")


def test_explain_cohen_kappa_shows_the_contingency_the_expected_table_and_the_disagreements():
    explanation = rk.explain.cohen_kappa(IIR_A, IIR_B)
    contingency = explanation.tables["contingency"].set_index("a \\ b")
    assert contingency.loc["1", "1"] == 300 and contingency.loc["1", "0"] == 20
    assert contingency.loc["0", "1"] == 10 and contingency.loc["0", "0"] == 70
    expected = explanation.tables["expected"].set_index("a \\ b")
    assert expected.loc["1", "1"] == pytest.approx(400 * (320 / 400) * (310 / 400))
    values = explanation.table.set_index("quantity")["value"]
    assert values["p_o"] == pytest.approx(0.925)
    assert values["D_o"] == pytest.approx(0.075)
    assert values["kappa"] == explanation.value


def test_explain_krippendorff_alpha_coincidences_sum_to_the_pairable_labels():
    nan = math.nan
    explanation = rk.explain.krippendorff_alpha([[1, 2, 3, nan], [1, 2, 2, 3], [nan, 2, 3, 3]])
    coincidences = explanation.tables["coincidences"].drop(columns="c \\ k").to_numpy()
    assert coincidences.sum() == explanation.table.set_index("quantity")["value"]["n"] == 10
    assert np.allclose(coincidences, coincidences.T)
