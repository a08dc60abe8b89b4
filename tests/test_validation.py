"""Bad input: every case of CONTRACT.md's "Bad input" for every public function it applies to.

The contract: a bad argument raises ``ValueError`` (or ``TypeError`` for a wrong type) whose
message names the argument. So a wrong *value* (NaN, infinity, ``k < 1``, different lengths, a
grade above ``max_grade``, an unknown option, a single class, a label other than 0/1) must be a
``ValueError``; a wrong *type* (a non-integer ``k``, strings, a 2-D array) may be either. Each
case runs against the function and against its ``rk.explain`` counterpart.
"""

import inspect
import math

import numpy as np
import pytest

import rankedu as rk
from conftest import registry_calls
from rankedu.trec.measures import MEASURES

VALUE = (ValueError,)
EITHER = (ValueError, TypeError)

GOOD = [3, 2, 0, 1]
SCORES = [0.4, 0.3, 0.2, 0.1]
LABELS = [1, 0, 1, 0]
GROUPS = ["a", "a", "b", "b"]
PHI = lambda r: 1 / r  # noqa: E731


# Every metric that takes ranked grades, as call(module, rels): the registry's measures through
# their per-list functions (a measure added to the registry is checked here at once), and the
# per-list functions evaluate does not call.
REGISTRY_CALLS = registry_calls()
REGISTRY = {name: call for name, call in REGISTRY_CALLS.items()
            if "rels" in inspect.signature(getattr(rk, name)).parameters}
RELS_METRICS = {
    **{name: (lambda call: lambda m, rels: call(m, rels))(call) for name, call in REGISTRY.items()},
    "cumulative_gain": lambda m, rels: m.cumulative_gain(rels),
    "dcg": lambda m, rels: m.dcg(rels),
    "cascade_metric": lambda m, rels: m.cascade_metric(rels, PHI, max_grade=3),
    "mean_average_precision": lambda m, rels: m.mean_average_precision([GOOD, rels]),
    "mean_reciprocal_rank": lambda m, rels: m.mean_reciprocal_rank([GOOD, rels]),
}

CUTOFF_METRICS = {
    **{measure.function.__name__: (lambda call: lambda m, k: call(m, GOOD, k))(
        REGISTRY_CALLS[measure.function.__name__])
       for measure in MEASURES.values()
       if measure.cutoff != "none" and measure.cutoff_type is int},  # IPrec's is a recall
    "cumulative_gain": lambda m, k: m.cumulative_gain(GOOD, k),
    "dcg": lambda m, k: m.dcg(GOOD, k),
    "idcg": lambda m, k: m.idcg(GOOD, k),
    "cascade_metric": lambda m, k: m.cascade_metric(GOOD, PHI, k, max_grade=3),
}

# (id, call(module, bad sequence), argument name) for every numeric sequence argument.
SEQUENCE_ARGUMENTS = [
    *[(f"{name}-rels", call, "rels") for name, call in RELS_METRICS.items()],
    ("idcg-pool", lambda m, x: m.idcg(x), "pool"),
    ("ndcg-pool", lambda m, x: m.ndcg(GOOD, pool=x), "pool"),
    ("pair_ratio-grades", lambda m, x: m.pair_ratio(x, SCORES), "grades"),
    ("pair_ratio-scores", lambda m, x: m.pair_ratio(GOOD, x), "scores"),
    ("roc_auc-scores", lambda m, x: m.roc_auc(LABELS, x), "scores"),
    ("gauc-scores", lambda m, x: m.gauc(GROUPS, LABELS, x), "scores"),
]

LABEL_ARGUMENTS = [
    ("roc_auc-labels", lambda m, x: m.roc_auc(x, SCORES), "labels"),
    ("gauc-labels", lambda m, x: m.gauc(GROUPS, x, SCORES), "labels"),
    *[
        (f"{name}-{arg}", (lambda name, arg: lambda m, x: getattr(m, name)(
            x if arg == "y_true" else LABELS, x if arg == "y_pred" else LABELS))(name, arg), arg)
        for name in ("confusion_matrix", "accuracy", "precision", "recall", "true_positive_rate",
                     "false_positive_rate", "f_beta")
        for arg in ("y_true", "y_pred")
    ],
]

MODULES = [pytest.param(rk, id="function"), pytest.param(rk.explain, id="explain")]


def check(call, module, bad, name, allowed):
    with pytest.raises(allowed) as info:
        call(module, bad)
    assert name in str(info.value), f"message {str(info.value)!r} does not name {name!r}"


# --- NaN and infinity ----------------------------------------------------------------------


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("bad_value", [math.nan, math.inf, -math.inf], ids=["nan", "inf", "-inf"])
@pytest.mark.parametrize("case_id, call, name", SEQUENCE_ARGUMENTS, ids=[c[0] for c in SEQUENCE_ARGUMENTS])
def test_nan_or_infinite_grade_or_score_raises_value_error_naming_it(module, bad_value, case_id, call, name):
    bad = [3, bad_value, 0, 1] if name != "scores" else [0.4, bad_value, 0.2, 0.1]
    check(call, module, bad, name, VALUE)


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("case_id, call, name", SEQUENCE_ARGUMENTS, ids=[c[0] for c in SEQUENCE_ARGUMENTS])
def test_nan_in_a_numpy_array_raises_too(module, case_id, call, name):
    check(call, module, np.array([1.0, np.nan, 0.0, 1.0]), name, VALUE)


# --- wrong kinds of sequence -----------------------------------------------------------------


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("case_id, call, name", SEQUENCE_ARGUMENTS + LABEL_ARGUMENTS,
                         ids=[c[0] for c in SEQUENCE_ARGUMENTS + LABEL_ARGUMENTS])
def test_two_dimensional_input_raises_naming_the_argument(module, case_id, call, name):
    check(call, module, np.array([[1, 0], [0, 1]]), name, EITHER)


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("bad", [["3", "2", "0", "1"], ["a", "b", "c", "d"], "3201"],
                         ids=["digit-strings", "letters", "one-string"])
@pytest.mark.parametrize("case_id, call, name", SEQUENCE_ARGUMENTS + LABEL_ARGUMENTS,
                         ids=[c[0] for c in SEQUENCE_ARGUMENTS + LABEL_ARGUMENTS])
def test_strings_as_grades_scores_or_labels_raise_naming_the_argument(module, bad, case_id, call, name):
    check(call, module, bad, name, EITHER)


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("case_id, call, name", SEQUENCE_ARGUMENTS + LABEL_ARGUMENTS,
                         ids=[c[0] for c in SEQUENCE_ARGUMENTS + LABEL_ARGUMENTS])
def test_complex_numbers_raise_rather_than_lose_their_imaginary_part(module, case_id, call, name):
    check(call, module, [1 + 2j, 0, 1, 0], name, EITHER)


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("case_id, call, name", LABEL_ARGUMENTS, ids=[c[0] for c in LABEL_ARGUMENTS])
@pytest.mark.parametrize("bad", [[1, 0, 2, 0], [1, 0, -1, 0], [1, 0, 0.5, 0]], ids=["2", "-1", "0.5"])
def test_labels_other_than_0_and_1_raise_value_error(module, case_id, call, name, bad):
    check(call, module, bad, name, VALUE)


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("case_id, call, name", LABEL_ARGUMENTS, ids=[c[0] for c in LABEL_ARGUMENTS])
def test_nan_labels_raise_value_error(module, case_id, call, name):
    check(call, module, [1, 0, math.nan, 0], name, VALUE)


# --- the cutoff k ------------------------------------------------------------------------------


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("k", [0, -1, -10])
@pytest.mark.parametrize("name, call", CUTOFF_METRICS.items(), ids=list(CUTOFF_METRICS))
def test_k_below_1_raises_value_error_naming_k(module, k, name, call):
    check(call, module, k, "k", VALUE)


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("k", [2.5, "3", True, np.float64(2.5), [3]], ids=["2.5", "'3'", "True", "np2.5", "[3]"])
@pytest.mark.parametrize("name, call", CUTOFF_METRICS.items(), ids=list(CUTOFF_METRICS))
def test_non_integer_k_raises_naming_k(module, k, name, call):
    check(call, module, k, "k", EITHER)


# --- lengths ------------------------------------------------------------------------------------

LENGTH_CASES = [
    ("pair_ratio", lambda m: m.pair_ratio([3, 2, 1], [0.1, 0.2]), ("grades", "scores")),
    ("roc_auc", lambda m: m.roc_auc([1, 0, 1], [0.1, 0.2]), ("labels", "scores")),
    ("gauc-labels", lambda m: m.gauc(["a", "a", "a"], [1, 0], [0.1, 0.2, 0.3]), ("groups", "labels")),
    ("gauc-scores", lambda m: m.gauc(["a", "a"], [1, 0], [0.1, 0.2, 0.3]), ("labels", "scores")),
    *[
        (name, (lambda name: lambda m: getattr(m, name)([1, 0, 1], [1, 0]))(name), ("y_true", "y_pred"))
        for name in ("confusion_matrix", "accuracy", "precision", "recall", "true_positive_rate",
                     "false_positive_rate", "f_beta")
    ],
]


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("case_id, call, names", LENGTH_CASES, ids=[c[0] for c in LENGTH_CASES])
def test_sequences_of_different_lengths_raise_value_error_naming_both(module, case_id, call, names):
    with pytest.raises(ValueError) as info:
        call(module)
    for name in names:
        assert name in str(info.value), f"message {str(info.value)!r} does not name {name!r}"


@pytest.mark.parametrize("module", MODULES)
def test_map_with_one_n_relevant_per_query_of_the_wrong_length_raises(module):
    with pytest.raises(ValueError, match="n_relevant"):
        module.mean_average_precision([GOOD, GOOD], n_relevant=[3])


# --- max_grade ----------------------------------------------------------------------------------


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("name", ["err", "cascade_metric"])
def test_a_grade_above_max_grade_raises_value_error(module, name):
    call = (lambda m: m.err([1, 4, 0], max_grade=3)) if name == "err" else (
        lambda m: m.cascade_metric([1, 4, 0], PHI, max_grade=3))
    with pytest.raises(ValueError, match="max_grade|rels"):
        call(module)


@pytest.mark.parametrize("module", MODULES)
def test_max_grade_is_required(module):
    with pytest.raises(TypeError):
        module.err([1, 0])


# --- unknown options ----------------------------------------------------------------------------

OPTION_CASES = [
    ("dcg-gain", lambda m: m.dcg(GOOD, gain="exp"), "gain"),
    ("dcg-discount", lambda m: m.dcg(GOOD, discount="log"), "discount"),
    ("idcg-gain", lambda m: m.idcg(GOOD, gain="quadratic"), "gain"),
    ("idcg-discount", lambda m: m.idcg(GOOD, discount="ln"), "discount"),
    ("ndcg-gain", lambda m: m.ndcg(GOOD, gain="Linear"), "gain"),
    ("ndcg-discount", lambda m: m.ndcg(GOOD, discount="Jarvelin"), "discount"),
    ("gauc-weight", lambda m: m.gauc(GROUPS, LABELS, SCORES, weight="views"), "weight"),
]


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("case_id, call, name", OPTION_CASES, ids=[c[0] for c in OPTION_CASES])
def test_unknown_option_raises_value_error_naming_it(module, case_id, call, name):
    with pytest.raises(ValueError) as info:
        call(module)
    assert name in str(info.value), f"message {str(info.value)!r} does not name {name!r}"


# --- a single class -----------------------------------------------------------------------------


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("labels", [[1, 1, 1], [0, 0, 0]], ids=["all-positive", "all-negative"])
def test_roc_auc_of_a_single_class_raises_value_error_naming_labels(module, labels):
    with pytest.raises(ValueError, match="labels"):
        module.roc_auc(labels, [0.3, 0.2, 0.1])


@pytest.mark.parametrize("module", MODULES)
def test_gauc_without_any_group_holding_both_classes_raises_value_error(module):
    with pytest.raises(ValueError, match="labels|groups"):
        module.gauc(["a", "a", "b"], [1, 1, 0], [0.3, 0.2, 0.1])


# --- counts -------------------------------------------------------------------------------------

COUNT_CASES = [
    ("recall_at_k", lambda m, n: m.recall_at_k(GOOD, 2, n_relevant=n)),
    ("r_precision", lambda m, n: m.r_precision(GOOD, n_relevant=n)),
    ("average_precision", lambda m, n: m.average_precision(GOOD, n_relevant=n)),
    ("mean_average_precision", lambda m, n: m.mean_average_precision([GOOD], n_relevant=[n])),
]


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("case_id, call", COUNT_CASES, ids=[c[0] for c in COUNT_CASES])
def test_negative_n_relevant_raises_value_error_naming_it(module, case_id, call):
    with pytest.raises(ValueError, match="n_relevant"):
        call(module, -1)


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("case_id, call", COUNT_CASES, ids=[c[0] for c in COUNT_CASES])
@pytest.mark.parametrize("n", [2.5, "3", math.nan], ids=["2.5", "'3'", "nan"])
def test_non_integer_n_relevant_raises_naming_it(module, case_id, call, n):
    with pytest.raises(EITHER, match="n_relevant"):
        call(module, n)


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("threshold", [math.nan, math.inf], ids=["nan", "inf"])
def test_non_finite_threshold_raises_value_error_naming_it(module, threshold):
    with pytest.raises(ValueError, match="threshold"):
        module.precision_at_k(GOOD, 2, threshold=threshold)


def test_nothing_is_silently_dropped_from_a_list_with_a_nan():
    # A NaN grade must not be read as "not relevant" and give a number.
    with pytest.raises(ValueError):
        rk.precision_at_k([1, math.nan], 2)
    with pytest.raises(ValueError):
        rk.roc_auc([1, 0], [0.5, math.nan])


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("groups", [np.array([["a", "a"], ["b", "b"]]), [["a"], ["a"], ["b"], ["b"]], "aabb", None],
                         ids=["2-D-array", "nested-list", "one-string", "None"])
def test_gauc_groups_that_are_not_a_flat_sequence_raise_naming_groups(module, groups):
    with pytest.raises(EITHER, match="groups"):
        module.gauc(groups, LABELS, SCORES)


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("bad", [None, 3, {1, 0}], ids=["None", "int", "set"])
@pytest.mark.parametrize("name, call", RELS_METRICS.items(), ids=list(RELS_METRICS))
def test_rels_that_is_not_a_sequence_raises_naming_rels(module, bad, name, call):
    check(call, module, bad, "rels", EITHER)


# --- the relevance threshold (issue 16: one rule everywhere, as evaluate's) --------------------

THRESHOLD_METRICS = {
    "precision_at_k": lambda m, t: m.precision_at_k([0, 0], 2, threshold=t),
    "recall_at_k": lambda m, t: m.recall_at_k([0, 0], 2, threshold=t),
    "r_precision": lambda m, t: m.r_precision([0, 0], threshold=t),
    "f_at_k": lambda m, t: m.f_at_k([0, 0], 2, threshold=t),
    "average_precision": lambda m, t: m.average_precision([0, 0], threshold=t),
    "mean_average_precision": lambda m, t: m.mean_average_precision([[0, 0]], threshold=t),
    "interpolated_precision": lambda m, t: m.interpolated_precision([0, 0], 0.5, threshold=t),
    "eleven_point_average_precision": lambda m, t: m.eleven_point_average_precision([0, 0], threshold=t),
    "mean_precision_at_ranks": lambda m, t: m.mean_precision_at_ranks([0, 0], threshold=t),
    "reciprocal_rank": lambda m, t: m.reciprocal_rank([0, 0], threshold=t),
    "mean_reciprocal_rank": lambda m, t: m.mean_reciprocal_rank([[0, 0]], threshold=t),
}


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("threshold", [0, -1, 0.0, -0.5], ids=["0", "-1", "0.0", "-0.5"])
@pytest.mark.parametrize("name, call", THRESHOLD_METRICS.items(), ids=list(THRESHOLD_METRICS))
def test_a_threshold_of_0_or_below_raises_value_error_naming_it(module, threshold, name, call):
    # With threshold <= 0 a list of non-relevant documents ([0, 0]) would get AP 1.0.
    check(call, module, threshold, "threshold", VALUE)


def test_a_threshold_of_0_or_below_is_refused_by_precision_recall_curve_too():
    with pytest.raises(ValueError, match="threshold"):
        rk.precision_recall_curve([0, 0], threshold=0)


@pytest.mark.parametrize("threshold", [0.5, 1, 2.5])
def test_a_positive_threshold_still_works(threshold):
    rels = [3, 0, 2, 1, 0.5]
    relevant = [g >= threshold for g in rels]
    assert rk.precision_at_k(rels, 5, threshold=threshold) == sum(relevant) / 5


# --- cutoffs too large for a rank (issue 16) ---------------------------------------------------

BINARY_CUTOFF_METRICS = {
    **CUTOFF_METRICS,
    "f_at_k": lambda m, k: m.f_at_k(GOOD, k),
    "mean_precision_at_ranks": lambda m, k: m.mean_precision_at_ranks(GOOD, k),
}


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("k", [2**63, 10**20], ids=["2**63", "10**20"])
@pytest.mark.parametrize("name, call", BINARY_CUTOFF_METRICS.items(), ids=list(BINARY_CUTOFF_METRICS))
def test_a_cutoff_beyond_int64_raises_value_error_naming_k(module, k, name, call):
    check(call, module, k, "k", VALUE)


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("name, call", BINARY_CUTOFF_METRICS.items(), ids=list(BINARY_CUTOFF_METRICS))
def test_the_largest_cutoff_works(module, name, call):
    value = call(module, 2**63 - 1)
    value = getattr(value, "value", value)
    assert math.isfinite(value) and value >= 0


def test_r_precision_with_a_huge_n_relevant_is_the_relevant_retrieved_over_it():
    assert rk.r_precision([1, 0, 1], n_relevant=10**12) == 2 / 10**12


# --- ragged nested lists (issue 16: an error naming the argument, not numpy's message) ---------


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("bad", [[[1, 2], [3]], [1, [2, 3]], [[1], 2, 3, 4]], ids=["lists", "mixed", "mixed-first"])
@pytest.mark.parametrize("case_id, call, name", SEQUENCE_ARGUMENTS, ids=[c[0] for c in SEQUENCE_ARGUMENTS])
def test_a_ragged_nested_list_raises_naming_the_argument(module, bad, case_id, call, name):
    check(call, module, bad, name, EITHER)


# --- phi of a cascade metric (issue 16) --------------------------------------------------------


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("phi", [lambda r: "1", lambda r: None, lambda r: [1.0], lambda r: 1j, lambda r: True],
                         ids=["str", "None", "list", "complex", "bool"])
def test_a_phi_that_returns_no_real_number_raises_naming_phi(module, phi):
    with pytest.raises(TypeError, match="phi"):
        module.cascade_metric([1, 0, 2], phi, max_grade=2)


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("bad", [math.inf, math.nan])
def test_a_phi_that_returns_a_non_finite_number_raises_naming_phi(module, bad):
    with pytest.raises(ValueError, match="phi"):
        module.cascade_metric([1, 0, 2], lambda r: bad if r == 2 else 1.0, max_grade=2)


def test_phi_may_return_numpy_and_fraction_numbers():
    from fractions import Fraction

    expected = rk.err([1, 0, 2], max_grade=2)
    assert rk.cascade_metric([1, 0, 2], lambda r: np.float32(1) / np.float32(r), max_grade=2) == pytest.approx(expected)
    assert rk.cascade_metric([1, 0, 2], lambda r: Fraction(1, r), max_grade=2) == expected


# --- the log base of Järvelin and Kekäläinen's discount (API decision 6) -----------------------

BASE_METRICS = {
    "dcg": lambda m, **kw: m.dcg(GOOD, **kw),
    "idcg": lambda m, **kw: m.idcg(GOOD, **kw),
    "ndcg": lambda m, **kw: m.ndcg(GOOD, **kw),
}


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("base", [1, 0.5, 0, -2, math.nan, math.inf], ids=["1", "0.5", "0", "-2", "nan", "inf"])
@pytest.mark.parametrize("name, call", BASE_METRICS.items(), ids=list(BASE_METRICS))
def test_a_base_of_1_or_below_or_not_finite_raises_value_error_naming_base(module, base, name, call):
    with pytest.raises(ValueError, match="base"):
        call(module, discount="jarvelin", base=base)


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("base", ["2", None, True], ids=["'2'", "None", "True"])
@pytest.mark.parametrize("name, call", BASE_METRICS.items(), ids=list(BASE_METRICS))
def test_a_base_that_is_not_a_number_raises_type_error_naming_base(module, base, name, call):
    with pytest.raises(TypeError, match="base"):
        call(module, discount="jarvelin", base=base)


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("name, call", BASE_METRICS.items(), ids=list(BASE_METRICS))
def test_a_base_other_than_2_with_the_log2_discount_raises_naming_base(module, name, call):
    with pytest.raises(ValueError, match="base must be 2 with discount='log2'"):
        call(module, base=3)
    same = call(module, base=2.0), call(module)
    assert [getattr(value, "value", value) for value in same] == [same[1] if module is rk else same[1].value] * 2


@pytest.mark.parametrize("module", MODULES)
def test_an_n_relevant_beyond_int64_in_r_precision_raises_naming_n_relevant(module):
    check(lambda m, n: m.r_precision([1, 0, 1], n_relevant=n), module, 2**63, "n_relevant", VALUE)


@pytest.mark.parametrize("bad", [0, 1, -0.5, 1.5])
def test_an_open_probability_refuses_0_1_and_beyond_naming_the_argument_and_why(bad):
    from rankedu.core.validation import as_open_probability

    with pytest.raises(ValueError, match=r"^p must lie in \(0, 1\) \(reading on\), got "):
        as_open_probability(bad, "p", " (reading on)")
    assert as_open_probability(0.25, "p") == 0.25


def test_gains_outside_0_1_raise_naming_the_argument_the_position_and_the_scale():
    from rankedu.core.validation import as_gains

    with pytest.raises(ValueError, match=r"^rels must hold gains in \[0, 1\] \(as cwl-eval .* at position 1$"):
        as_gains([0.5, 2, 0], "rels")
    assert as_gains([0, 0.5, 1], "rels").tolist() == [0.0, 0.5, 1.0]
