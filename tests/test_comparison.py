"""Tests of rankedu/comparison.py: the table of means, paired tests and markers over several runs,
each number checked against an independent computation (rk.evaluate's per-query values, scipy's
t-test, a hand-written Holm, a randomisation test enumerated with itertools)."""

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import rankedu as rk
from rankedu.comparison import compare

MEASURES = ["AP", "nDCG@5", "P@3"]


def make_case(seed=0, n_queries=10, skills=(0.0, 0.3, 0.8)):
    """Judgments and three runs over the same queries, each run ranking the relevant documents
    higher the larger its skill; continuous scores, so no tie decides a value."""
    rng = np.random.default_rng(seed)
    qrels, runs = {}, {name: {} for name in ["base", "mid", "best"][:len(skills)]}
    for q in range(n_queries):
        qid = f"q{q}"
        docs = [f"d{j}" for j in range(12)]
        grades = rng.integers(0, 3, size=len(docs))
        grades[rng.integers(len(docs))] = 2  # every query has a relevant document
        qrels[qid] = {d: int(g) for d, g in zip(docs, grades)}
        for name, skill in zip(runs, skills):
            noise = rng.random(len(docs))
            runs[name][qid] = {d: float(x + skill * g) for d, x, g in zip(docs, noise, grades)}
    return qrels, runs


def per_query(qrels, runs, measure):
    return {name: rk.evaluate(qrels, run, [measure], missing="zero")[measure].to_numpy()
            for name, run in runs.items()}


def hand_holm(p_values):
    """Holm (1979) written out: step down the sorted p-values, multiplier m - i, running max."""
    m = len(p_values)
    adjusted = [0.0] * m
    running = 0.0
    for i, index in enumerate(sorted(range(m), key=lambda j: p_values[j])):
        running = max(running, (m - i) * p_values[index])
        adjusted[index] = min(1.0, running)
    return adjusted


def enumerated_randomization_p(a, b):
    """Two-sided exact sign-flip p-value on the mean difference, by itertools.product."""
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    observed = abs(d.mean())
    means = [abs(np.dot(signs, d)) / len(d) for signs in itertools.product((-1, 1), repeat=len(d))]
    return sum(m >= observed - 1e-12 for m in means) / len(means)


@pytest.fixture(scope="module")
def case():
    return make_case()


# --- the means -------------------------------------------------------------------------------

def test_means_equal_the_mean_of_evaluate_per_run(case):
    qrels, runs = case
    table = compare(qrels, runs, MEASURES)
    assert list(table.index) == list(runs) and table.index.name == "run"
    for name, run in runs.items():
        expected = rk.evaluate(qrels, run, MEASURES).mean()
        for measure in MEASURES:
            assert table.loc[name, measure] == pytest.approx(expected[measure], abs=1e-15)
            assert table[measure].dtype == np.float64


def test_a_judged_query_a_run_lacks_scores_zero_and_is_listed(case):
    qrels, runs = case
    runs = dict(runs)
    runs["mid"] = {qid: ranking for qid, ranking in runs["mid"].items() if qid != "q3"}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # missing="zero" warns of nothing here
        table = compare(qrels, runs, ["AP"])
    zero = rk.evaluate(qrels, runs["mid"], ["AP"], missing="zero")["AP"]
    assert zero.loc["q3"] == 0.0 and len(zero) == len(qrels)
    assert table.loc["mid", "AP"] == pytest.approx(zero.mean(), abs=1e-15)
    with pytest.warns(rk.QueryMismatchWarning, match="q3"):
        skipped = rk.evaluate(qrels, runs["mid"], ["AP"], missing="skip")["AP"]
    assert table.loc["mid", "AP"] != pytest.approx(skipped.mean())
    assert table.attrs["scored_zero"] == {"base": [], "mid": ["q3"], "best": []}
    assert table.attrs["queries"] == len(qrels)


# --- the t-test ------------------------------------------------------------------------------

def test_t_test_p_values_against_a_baseline_equal_scipys_ttest_rel(case):
    qrels, runs = case
    table = compare(qrels, runs, MEASURES, baseline="base", correction="none")
    for measure in MEASURES:
        scores = per_query(qrels, runs, measure)
        for name in ["mid", "best"]:
            expected = stats.ttest_rel(scores[name], scores["base"]).pvalue
            assert table.loc[name, f"{measure} p"] == pytest.approx(expected, rel=1e-9)
        assert table.loc["base", f"{measure} p"] is pd.NA
        assert table[f"{measure} p"].dtype == "Float64"


def test_holm_corrected_p_values_equal_a_hand_written_holm_over_one_measure(case):
    qrels, runs = case
    table = compare(qrels, runs, MEASURES)  # every pair, Holm by default
    pairs = list(itertools.combinations(runs, 2))
    for measure in MEASURES:
        scores = per_query(qrels, runs, measure)
        raw = [stats.ttest_rel(scores[r], scores[s]).pvalue for r, s in pairs]
        for (r, s), expected in zip(pairs, hand_holm(raw)):
            assert table.loc[r, f"{measure} p vs {s}"] == pytest.approx(expected, rel=1e-9)
            assert table.loc[s, f"{measure} p vs {r}"] == pytest.approx(expected, rel=1e-9)
        for name in runs:
            assert table.loc[name, f"{measure} p vs {name}"] is pd.NA


def test_holm_against_a_baseline_adjusts_the_baselines_comparisons_of_one_measure(case):
    qrels, runs = case
    corrected = compare(qrels, runs, MEASURES, baseline="mid")
    raw = compare(qrels, runs, MEASURES, baseline="mid", correction="none")
    for measure in MEASURES:
        column = f"{measure} p"
        adjusted = hand_holm([raw.loc["base", column], raw.loc["best", column]])
        assert [corrected.loc["base", column], corrected.loc["best", column]] == pytest.approx(
            adjusted, rel=1e-12)


# --- the randomisation test ------------------------------------------------------------------

@pytest.mark.parametrize("n_queries", [6, 12])
def test_randomization_p_values_equal_an_enumeration_of_every_sign_flip(n_queries):
    qrels, runs = make_case(seed=n_queries, n_queries=n_queries)
    table = compare(qrels, runs, MEASURES, test="randomization", correction="none", seed=None)
    for measure in MEASURES:
        scores = per_query(qrels, runs, measure)
        for r, s in itertools.combinations(runs, 2):
            expected = enumerated_randomization_p(scores[r], scores[s])
            assert table.loc[r, f"{measure} p vs {s}"] == pytest.approx(expected, abs=1e-12)
    assert "exact, 2^" in table.attrs["note"]


def test_the_same_seed_gives_the_same_table_when_flips_are_sampled():
    qrels, runs = make_case(seed=4, n_queries=24, skills=(0.0, 0.05, 0.1))
    first = compare(qrels, runs, ["AP"], test="randomization", seed=11)
    second = compare(qrels, runs, ["AP"], test="randomization", seed=11)
    pd.testing.assert_frame_equal(first, second)
    assert first.attrs == second.attrs
    assert "10,000 random sign flips, seed 11" in first.attrs["note"]
    scores = per_query(qrels, runs, "AP")
    against = compare(qrels, runs, ["AP"], baseline="mid", test="randomization",
                      correction="none", seed=11)
    expected = rk.paired_randomization_test(scores["base"], scores["mid"], seed=11).p_value
    assert against.loc["base", "AP p"] == expected


# --- effect sizes ----------------------------------------------------------------------------

def test_effect_size_is_the_mean_difference_over_its_standard_deviation(case):
    qrels, runs = case
    table = compare(qrels, runs, MEASURES)
    for measure in MEASURES:
        scores = per_query(qrels, runs, measure)
        for r, s in itertools.combinations(runs, 2):
            d = scores[r] - scores[s]
            expected = d.mean() / d.std(ddof=1)
            assert table.loc[r, f"{measure} d vs {s}"] == pytest.approx(expected, rel=1e-12)
            assert table.loc[s, f"{measure} d vs {r}"] == pytest.approx(-expected, rel=1e-12)


def test_identical_runs_have_p_one_and_effect_zero_and_a_constant_gain_infinite_effect():
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}}
    hit = {qid: {doc: 1.0 for doc in docs} for qid, docs in qrels.items()}
    miss = {qid: {"x": 1.0} for qid in qrels}
    table = compare(qrels, {"one": hit, "two": hit, "none": miss}, ["P@1"], correction="none")
    assert table.loc["one", "P@1 p vs two"] == 1.0
    assert table.loc["one", "P@1 d vs two"] == 0.0
    assert table.loc["one", "P@1 p vs none"] == 0.0
    assert table.loc["one", "P@1 d vs none"] == np.inf
    assert table.loc["none", "P@1 d vs one"] == -np.inf


# --- markers ---------------------------------------------------------------------------------

@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), alpha=st.floats(0.001, 0.999))
def test_baseline_markers_are_stars_exactly_where_the_p_value_is_below_alpha(seed, alpha):
    qrels, runs = make_case(seed=seed, n_queries=8, skills=(0.0, 0.2, 0.6))
    table = compare(qrels, runs, ["AP", "P@3"], baseline="base", alpha=alpha)
    for measure in ["AP", "P@3"]:
        assert table.loc["base", f"{measure} sig"] == ""
        for name in ["mid", "best"]:
            p = table.loc[name, f"{measure} p"]
            assert table.loc[name, f"{measure} sig"] == ("*" if p < alpha else "")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), alpha=st.floats(0.001, 0.999))
def test_pairwise_markers_letter_the_runs_a_run_is_significantly_better_than(seed, alpha):
    qrels, runs = make_case(seed=seed, n_queries=8, skills=(0.0, 0.2, 0.6))
    table = compare(qrels, runs, ["AP"], alpha=alpha)
    assert table.attrs["letters"] == {"base": "a", "mid": "b", "best": "c"}
    for r in runs:
        expected = "".join(
            letter for s, letter in zip(runs, "abc")
            if s != r and table.loc[r, f"AP p vs {s}"] < alpha
            and table.loc[r, "AP"] > table.loc[s, "AP"])
        assert table.loc[r, "AP sig"] == expected


def test_a_clearly_better_run_is_marked_and_a_worse_one_is_not():
    qrels, runs = make_case(seed=1, n_queries=12, skills=(0.0, 0.0, 5.0))
    table = compare(qrels, runs, ["AP"])
    assert table.loc["best", "AP sig"] == "ab"
    assert table.loc["base", "AP sig"] == "" and table.loc["mid", "AP sig"] == ""
    against = compare(qrels, runs, ["AP"], baseline="base")
    assert list(against["AP sig"]) == ["", "", "*"]


# --- what the table says about itself --------------------------------------------------------

def test_attrs_name_the_test_the_correction_and_alpha(case):
    qrels, runs = case
    table = compare(qrels, runs, ["AP"], alpha=0.01)
    assert (table.attrs["test"], table.attrs["correction"], table.attrs["alpha"]) == (
        "t", "holm", 0.01)
    assert table.attrs["note"] == (
        "paired t-test, Holm-corrected over 3 comparisons per measure, alpha 0.01")
    uncorrected = compare(qrels, runs, ["AP"], baseline="base", correction="none")
    assert uncorrected.attrs["note"] == (
        "paired t-test, uncorrected (2 comparisons per measure), alpha 0.05")
    assert uncorrected.attrs["baseline"] == "base" and uncorrected.attrs["letters"] == {}


def test_columns_come_per_measure_in_the_order_given(case):
    qrels, runs = case
    table = compare(qrels, runs, ["P@3", "AP"], baseline="best")
    assert list(table.columns) == ["P@3", "P@3 p", "P@3 d", "P@3 sig",
                                   "AP", "AP p", "AP d", "AP sig"]


def test_evaluates_warnings_pass_through():
    qrels = {"q1": {"a": 1, "b": 0}, "q2": {"c": 1}}
    tied = {"q1": {"a": 1.0, "b": 1.0}, "q2": {"c": 1.0}, "q9": {"z": 1.0}}
    plain = {"q1": {"a": 2.0, "b": 1.0}, "q2": {"c": 1.0}}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        compare(qrels, {"tied": tied, "plain": plain}, ["P@1"])
    kinds = {(w.category, "q9" in str(w.message)) for w in caught}
    assert kinds == {(rk.TieWarning, False), (rk.QueryMismatchWarning, True)}
    assert all(str(w.message).startswith("run 'tied': ") for w in caught)


# --- bad input -------------------------------------------------------------------------------

@pytest.mark.parametrize("arguments, name", [
    ({"test": "wilcoxon"}, "test"),
    ({"correction": "bonferroni"}, "correction"),
    ({"baseline": "nobody"}, "baseline"),
    ({"alpha": 0.0}, "alpha"),
    ({"alpha": 1.0}, "alpha"),
    ({"alpha": 1.5}, "alpha"),
    ({"measures": []}, "measures"),
    ({"measures": ["NoSuchMeasure"]}, "measures"),
    ({"runs": "one"}, "runs"),
    ({"ties": "random"}, "ties"),
    ({"threshold": 0}, "threshold"),
])
def test_each_bad_argument_is_a_value_error_naming_it(case, arguments, name):
    qrels, runs = case
    call = {"measures": ["AP"], **arguments}
    if "runs" in call:
        runs = {call.pop("runs"): runs["base"]}
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        compare(qrels, runs, **call)


def test_bootstrap_p_values_equal_an_independent_resampling_of_the_centred_differences(case):
    qrels, runs = case
    table = compare(qrels, runs, ["AP"], baseline="base", test="bootstrap", correction="none",
                    seed=3)
    ap = per_query(qrels, runs, "AP")
    for name in ("mid", "best"):
        d = ap[name] - ap["base"]
        picks = np.random.default_rng(3).integers(0, len(d), size=(10_000, len(d)))
        null = (d - d.mean())[picks].mean(axis=1)
        expected = (1 + np.sum(np.abs(null) >= abs(d.mean()) - 1e-12)) / 10_001
        assert table.loc[name, "AP p"] == pytest.approx(expected, abs=1e-12)
    assert "bootstrap" in table.attrs["note"] and "seed 3" in table.attrs["note"]


def test_bootstrap_of_identical_runs_has_p_one():
    qrels, runs = make_case(skills=(0.3, 0.3))
    table = compare(qrels, {"x": runs["base"], "y": runs["base"]}, ["AP"], test="bootstrap")
    assert table.loc["x", "AP p vs y"] == 1.0


@pytest.mark.parametrize("arguments, name", [
    ({"alpha": "0.05"}, "alpha"),
    ({"seed": -1}, "seed"),
    ({"seed": 1.5}, "seed"),
])
def test_bad_kinds_are_errors_naming_the_argument(case, arguments, name):
    qrels, runs = case
    with pytest.raises((TypeError, ValueError), match=rf"^{name}\b"):
        compare(qrels, runs, ["AP"], **arguments)


def test_runs_must_be_a_dict(case):
    qrels, runs = case
    with pytest.raises(TypeError, match="^runs"):
        compare(qrels, list(runs.values()), ["AP"])


def test_a_single_judged_query_is_too_few_to_compare_on():
    qrels = {"q1": {"a": 1}}
    runs = {"x": {"q1": {"a": 1.0}}, "y": {"q1": {"b": 1.0}}}
    with pytest.raises(ValueError, match="^qrels .*at least 2 queries"):
        compare(qrels, runs, ["AP"])
