"""Tests of trec_eval's counts, set measures and utility (rankedu/metrics/set_based.py) and of
relative precision at k and precision at multiples of R (rankedu/metrics/cutoff.py).

``rk.evaluate`` is compared with trec_eval 10.0 at its printed precision (counts as integers,
the rest at four decimals), query by query and on the summary line (a sum for the counts, a
mean for the rest): with trec_eval's own test outputs (``out.test.aq``, ``.aqc``, ``.aql``), with
its program on the vendored data under other parameters and relevance levels, and on generated
collections (tied scores, short lists, unjudged and negatively graded documents retrieved,
judged documents never retrieved, queries with nothing relevant). The per-list functions are
checked on small cases worked by hand and on identities between them.
"""

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rankedu as rk
from conftest import assert_as_trec_eval_prints
from test_trec_eval_binary import written
from rankedu.teaching.trec_eval_program import run

DATA = rk.datasets.DATA
COUNTS = ("num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret")
# trec_eval's name, as -q prints it -> rankedu's, for all_trec's default parameters.
ALL_TREC = {
    "num_ret": "NumRet", "num_rel": "NumRel", "num_rel_ret": "NumRelRet",
    "num_nonrel_judged_ret": "NumNonRelJudgedRet", "set_P": "SetP", "set_recall": "SetR",
    "set_F": "SetF", "set_map": "SetAP", "set_relative_P": "SetRelP", "utility": "Utility",
    **{f"relative_P_{k}": f"RelP@{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)},
    **{f"Rprec_mult_{m / 10:.2f}": f"RprecMult(mult={m / 10})" for m in range(2, 21, 2)},
}
# Other parameters: trec_eval's -m arguments (two runs: trec_eval reads the parameters of the
# first -m of a measure only), and what they print -> rankedu's names.
PARAMETERS = (["-m", "set_F.0.25", "-m", "Rprec_mult.5.0,0.2,0.35,0.333", "-m",
               "utility.2,-1,0,0", "-m", "relative_P.1,3,7"],
              ["-m", "set_F.4", "-m", "utility.1,-1,-0.5,0.01"])
PARAMETERS_NAMES = {
    "set_F_0.25": "SetF(beta=0.5)", "set_F_4": "SetF(beta=2)",
    "Rprec_mult_5.00": "RprecMult(mult=5.0)", "Rprec_mult_0.20": "RprecMult(mult=0.2)",
    "Rprec_mult_0.35": "RprecMult(mult=0.35)", "Rprec_mult_0.33": "RprecMult(mult=0.333)",
    "utility_2,-1,0,0": "Utility(a=2)",
    "utility_1,-1,-0.5,0.01": "Utility(c=-0.5, d=0.01, n_docs=1000)",
    **{f"relative_P_{k}": f"RelP@{k}" for k in (1, 3, 7)},
}


def printed(trec_name, value):
    """``value`` as trec_eval prints it: a count as an integer, the rest to four decimals."""
    return f"{int(value)}" if trec_name in COUNTS else f"{value:.4f}"


def read_output(text):
    """trec_eval's output lines as {(measure, qid): printed value}."""
    return {(measure, qid): value for measure, qid, value in map(str.split, text.splitlines())}


def evaluated(qrels, run_file, names, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", (rk.TieWarning, rk.QueryMismatchWarning))
        return rk.evaluate(qrels, run_file, list(names.values()), **options)


# --- trec_eval's own test outputs ---------------------------------------------------------------

OUTPUTS = {
    # output file: (qrels, run, evaluate's options)
    "out.test.aq": ("qrels.test", "results.test", {}),
    "out.test.aql": ("qrels.rel_level", "results.test", {"threshold": 2}),
    # results.trunc lacks topic 302: -c scores it on an empty list (NumRel still R = 77).
    "out.test.aqc": ("qrels.test", "results.trunc", {"missing": "zero"}),
}


@pytest.mark.parametrize("output", OUTPUTS)
def test_all_trec_families_equal_trec_evals_test_outputs(output):
    qrels, run_file, options = OUTPUTS[output]
    expected = read_output((DATA / output).read_text())
    result = evaluated(DATA / qrels, DATA / run_file, ALL_TREC, **options)
    assert assert_as_trec_eval_prints(result, expected, ALL_TREC) == 3 * len(ALL_TREC)


def test_the_utility_of_trec_evals_test_output_is_a_sum_not_a_share():
    result = evaluated(DATA / "qrels.test", DATA / "results.test", {"utility": "Utility"})
    assert result.loc["301", "Utility"] == -358.0  # 71 relevant, 429 non-relevant retrieved


# --- trec_eval's program on the vendored data, other parameters and levels -----------------------

PROGRAM_CASES = {
    # case: (qrels, run, trec_eval options, evaluate options)
    "test": ("qrels.test", "results.test", [], {}),
    "rel_level -J": ("qrels.rel_level", "results.test", ["-J"], {}),
    "rel_level -l1": ("qrels.rel_level", "results.test", ["-l1"], {}),
    "rel_level -l2": ("qrels.rel_level", "results.test", ["-l2"], {"threshold": 2}),
    "rel_level -l4": ("qrels.rel_level", "results.test", ["-l4"], {"threshold": 4}),
}


def program_values(qrels, run_file, *options):
    """trec_eval's values of every family, under all_trec's parameters and PARAMETERS'."""
    values = {}
    for measures in (["-m", "set", "-m", "Rprec_mult", "-m", "relative_P", "-m",
                      "num_nonrel_judged_ret"], *PARAMETERS):
        done = run("-q", "-N", "1000", *options, *measures, qrels, run_file)
        assert done.returncode == 0, done.stderr
        values.update(read_output(done.stdout))
    return values


def condensed(name):
    """rankedu's name of a measure on the condensed list (trec_eval's -J)."""
    if "(" in name:
        return name.replace(")", ", judged_only=True)")
    return name.replace("@", "(judged_only=True)@") if "@" in name else f"{name}(judged_only=True)"


def compared_names(expected, options):
    """ALL_TREC and PARAMETERS_NAMES (condensed under -J), checked to be every value trec_eval
    printed."""
    names = {**ALL_TREC, **PARAMETERS_NAMES}
    printed_names = {measure for measure, _ in expected} - {"runid", "num_q"}
    assert printed_names == set(names), printed_names ^ set(names)
    return {trec: condensed(ours) for trec, ours in names.items()} if "-J" in options else names


@pytest.mark.parametrize("case", PROGRAM_CASES)
def test_every_family_and_parameter_equals_trec_evals_program_on_its_data(case):
    qrels, run_file, options, evaluate_options = PROGRAM_CASES[case]
    expected = program_values(DATA / qrels, DATA / run_file, *options)
    names = compared_names(expected, options)
    result = evaluated(DATA / qrels, DATA / run_file, names, **evaluate_options)
    assert assert_as_trec_eval_prints(result, expected, names) == len(result) * len(names)


def test_the_test_output_of_measure_parameters_is_reproduced():
    # out.test.meas_params (trec_eval's test folder): Rprec_mult.5.0,0.2,0.35 and
    # utility.2,-1,0,0 on qrels.test and results.test.
    expected = {"Rprec_mult_0.20": ["0.2211", "0.8125", "0.0000", "0.3445"],
                "Rprec_mult_0.35": ["0.2169", "0.7407", "0.0000", "0.3192"],
                "Rprec_mult_5.00": ["0.0300", "0.1247", "0.1000", "0.0849"],
                "utility_2,-1,0,0": ["-287.0000", "-350.0000", "-470.0000", "-369.0000"]}
    names = {trec: PARAMETERS_NAMES[trec] for trec in expected}
    result = evaluated(DATA / "qrels.test", DATA / "results.test", names)
    for trec_name, ours in names.items():
        values = [*result[ours], np.cumsum(result[ours].to_numpy())[-1] / 3]
        assert [printed(trec_name, v) for v in values] == expected[trec_name], trec_name


# --- generated collections --------------------------------------------------------------------

GENERATED = {
    # case: (generator arguments, trec_eval options, evaluate options)
    "binary": ({"grades": (0, 1)}, [], {}),
    "graded, negative grades": ({"grades": (-1, 0, 1, 2, 3, 4)}, [], {}),
    "level 2": ({"grades": (-1, 0, 1, 2, 3)}, ["-l2"], {"threshold": 2}),
    "condensed (-J)": ({"grades": (-1, 0, 1, 2)}, ["-J"], {}),
}


@pytest.mark.parametrize("case", GENERATED)
@pytest.mark.parametrize("seed", [1, 2])
def test_every_query_equals_trec_evals_program_on_generated_collections(case, seed, tmp_path):
    generator, options, evaluate_options = GENERATED[case]
    qrels, run_file = written(tmp_path, seed, **generator)
    expected = program_values(qrels, run_file, *options)
    names = compared_names(expected, options)
    result = evaluated(qrels, run_file, names, **evaluate_options)
    assert assert_as_trec_eval_prints(result, expected, names) == 40 * len(names)
    # The collection reaches the corner cases: nothing relevant, nothing judged non-relevant
    # retrieved, a depth past the end of the list.
    counts = result[[names[name] for name in COUNTS]].to_numpy()
    assert (counts[:, 1] == 0).any() and (counts[:, 3] == 0).any()
    assert (counts[:, 0] < 5 * counts[:, 1]).any()


def test_a_judged_query_the_run_lacks_scores_0_but_num_rel_under_missing_zero(tmp_path):
    # trec_eval -c evaluates such a query on a bogus list of one unjudged document and zeroes
    # num_ret and utility (under its default parameters only) afterwards: every value is 0 but
    # num_rel, as evaluate's with missing="zero", which evaluates an empty list.
    qrels, run_file = written(tmp_path, 3, grades=(0, 1, 2), missing=4)
    expected = read_output(run("-q", "-c", "-m", "all_trec", qrels, run_file).stdout)
    result = evaluated(qrels, run_file, ALL_TREC, missing="zero")
    assert assert_as_trec_eval_prints(result, expected, ALL_TREC) == 40 * len(ALL_TREC)
    lacking = [qid for qid in result.index if result.loc[qid, "NumRet"] == 0]
    assert len(lacking) == 4 and (result.loc[lacking, "NumRel"] > 0).sum() == 3
    # A difference kept: under other parameters trec_eval leaves utility as its bogus document
    # made it, one non-relevant document retrieved (b = -1); evaluate's list is empty.
    expected = read_output(run("-q", "-c", "-m", "utility.2,-1,0,0", qrels, run_file).stdout)
    utility = evaluated(qrels, run_file, {"u": "Utility(a=2)"}, missing="zero")["Utility(a=2)"]
    for qid, value in utility.items():
        shift = -1 if qid in lacking else 0
        assert f"{value + shift:.4f}" == expected["utility_2,-1,0,0", qid], qid


# --- worked cases -------------------------------------------------------------------------------

# Ten documents retrieved, grades as judged; R = 6 (two relevant never retrieved); d8 unjudged.
RELS = [2, 0, 1, 0, 0, 1, 0, 0, 2, 0]
JUDGED = [1, 1, 1, 1, 1, 1, 1, 0, 1, 1]


def test_the_counts_of_a_worked_list():
    assert rk.num_retrieved(RELS) == 10.0
    assert rk.num_relevant(RELS, n_relevant=6) == 6.0
    assert rk.num_relevant_retrieved(RELS) == 4.0
    assert rk.num_relevant_retrieved(RELS, threshold=2) == 2.0
    assert rk.num_nonrelevant_judged_retrieved(RELS, judged=JUDGED) == 5.0
    assert rk.num_nonrelevant_judged_retrieved(RELS, judged=JUDGED, threshold=2) == 7.0
    assert rk.num_retrieved([]) == rk.num_relevant_retrieved([]) == 0.0


def test_the_set_measures_of_a_worked_list():
    # TP = 4, FP = 6, FN = 2: P = 0.4, R = 2/3.
    assert rk.set_precision(RELS) == 0.4
    assert rk.set_recall(RELS, n_relevant=6) == pytest.approx(2 / 3, abs=1e-15)
    assert rk.set_f(RELS, n_relevant=6) == pytest.approx(2 * 0.4 * (2 / 3) / (0.4 + 2 / 3))
    assert rk.set_average_precision(RELS, n_relevant=6) == pytest.approx(16 / 60, abs=1e-15)
    assert rk.set_relative_precision(RELS, n_relevant=6) == pytest.approx(4 / 6, abs=1e-15)
    assert rk.set_relative_precision(RELS, n_relevant=20) == 0.4  # min(10, 20) = 10
    assert rk.utility(RELS, n_relevant=6) == -2.0  # 4 - 6
    # TN = 100 - 4 - 6 - 2 = 88.
    assert rk.utility(RELS, n_relevant=6, a=3, b=-2, c=-1, d=0.5, n_docs=100) == 12 - 12 - 2 + 44


def test_set_f_takes_beta_and_trec_evals_set_f_takes_beta_squared():
    # trec_eval's set_F.x = (x + 1) P R / (R + x P).
    p, r = 0.4, 2 / 3
    for x in (0.25, 1.0, 4.0, 2.0):
        expected = (x + 1) * p * r / (r + x * p)
        assert rk.set_f(RELS, beta=x**0.5, n_relevant=6) == pytest.approx(expected, abs=1e-15)
    assert rk.set_f(RELS, beta=2, n_relevant=6) != pytest.approx(3 * p * r / (r + 2 * p))


def test_nothing_retrieved_or_nothing_relevant_scores_0():
    for function in (rk.set_precision, rk.set_recall, rk.set_f, rk.set_average_precision,
                     rk.set_relative_precision):
        assert function([]) == 0.0
        assert function([0, 0]) == 0.0
    assert rk.relative_precision_at_k([0, 0], 5) == rk.r_precision_mult([0, 0], mult=2.0) == 0.0
    assert rk.utility([], n_relevant=3) == 0.0  # c = 0: a missed relevant document costs nothing


@pytest.mark.parametrize(("n_relevant", "mult", "depth"), [
    (11, 0.2, 3), (12, 0.2, 3), (10, 0.2, 2), (3, 0.35, 1), (5, 0.35, 2), (3, 0.333, 1),
    (1, 0.05, 0), (0, 2.0, 0), (7, 1.0, 7), (4, 5.0, 20)])
def test_r_precision_mult_measures_at_trec_evals_depth(n_relevant, mult, depth):
    # trec_eval's depth is (long) (mult * R + 0.9): a fraction below 0.1 is dropped, others
    # round up. Seven relevant documents retrieved first, then non-relevant ones.
    rels = [1] * min(n_relevant, 7) + [0] * 30
    table = rk.explain.r_precision_mult(rels, mult=mult, n_relevant=n_relevant).table
    assert len(table) == depth
    expected = min(depth, n_relevant, 7) / depth if depth else 0.0
    assert rk.r_precision_mult(rels, mult=mult, n_relevant=n_relevant) == expected


def test_relative_precision_is_precision_up_to_r_and_recall_after():
    rels, n_relevant = [1, 0, 1, 1, 0, 0, 1, 0], 5
    for k in range(1, 12):
        expected = (rk.precision_at_k(rels, k) if k <= n_relevant
                    else rk.recall_at_k(rels, k, n_relevant=n_relevant))
        assert rk.relative_precision_at_k(rels, k, n_relevant=n_relevant) == pytest.approx(
            expected, abs=1e-15), k


def test_an_ideal_ranking_has_relative_precision_1_at_every_k():
    for k in (1, 3, 4, 9):
        assert rk.relative_precision_at_k([2, 1, 1, 0, 0], k, n_relevant=3) == 1.0


def test_explanations_show_the_confusion_matrix_and_end_in_the_value(running_result):
    table = rk.explain.set_f(RELS, beta=2, n_relevant=6).table
    assert table[["TP", "FP", "FN"]].iloc[0].tolist() == [4, 6, 2]
    assert running_result(table) == rk.set_f(RELS, beta=2, n_relevant=6)
    table = rk.explain.utility(RELS, n_relevant=6, d=1, n_docs=50).table
    assert table[["TP", "FP", "FN", "TN"]].iloc[0].tolist() == [4, 6, 2, 38]
    assert running_result(table) == 4 - 6 + 38
    counted = rk.explain.num_nonrelevant_judged_retrieved(RELS, judged=JUDGED).table
    assert counted["counted"].tolist() == [False, True, False, True, True, False, True, False,
                                           False, True]


@pytest.mark.parametrize(("call", "name"), [
    (lambda: rk.set_f([1, 0], beta=0), "beta"),
    (lambda: rk.r_precision_mult([1, 0], mult=0), "mult"),
    (lambda: rk.r_precision_mult([1, 0], mult=-0.5), "mult"),
    (lambda: rk.utility([1, 0], n_docs=-1), "n_docs"),
    (lambda: rk.utility([1, 0], a=float("nan")), "a"),
    (lambda: rk.set_recall([1, 1, 0], n_relevant=1), "n_relevant"),
    (lambda: rk.num_nonrelevant_judged_retrieved([1, 2], judged=[1, 0]), "judged"),
    (lambda: rk.evaluate({"q": {"d": 1}}, {"q": {"d": 1.0}}, ["RprecMult(mult=0)"]), "mult"),
    (lambda: rk.evaluate({"q": {"d": 1}}, {"q": {"d": 1.0}}, ["SetF(beta=0)"]), "beta"),
])
def test_a_bad_parameter_is_an_error_naming_it(call, name):
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        call()


# --- properties ---------------------------------------------------------------------------------

lists = st.lists(st.integers(0, 3), max_size=20)


@given(rels=lists, missed=st.integers(0, 5), threshold=st.sampled_from([1, 2]))
def test_the_set_measures_are_the_classification_ones_and_agree_with_each_other(
        rels, missed, threshold):
    n_relevant = sum(g >= threshold for g in rels) + missed
    options = {"n_relevant": n_relevant, "threshold": threshold}
    p = rk.set_precision(rels, threshold=threshold)
    r = rk.set_recall(rels, **options)
    assert rk.set_average_precision(rels, **options) == pytest.approx(p * r, abs=1e-15)
    assert rk.set_f(rels, **options) == rk.f_at_k(rels, None, **options) or p + r == 0
    assert p == rk.precision_at_k(rels, None, threshold=threshold)
    assert rk.set_relative_precision(rels, **options) == rk.relative_precision_at_k(
        rels, None, **options)
    assert rk.r_precision_mult(rels, **options) == rk.r_precision(rels, **options)
    hits = rk.num_relevant_retrieved(rels, threshold=threshold)
    assert rk.utility(rels, **options, a=1, b=0) == hits
    assert (rk.utility(rels, **options, a=0, b=0, c=1)
            == rk.num_relevant(rels, **options) - hits == missed)
    assert (hits + rk.num_nonrelevant_judged_retrieved(rels, threshold=threshold)
            == rk.num_retrieved(rels) == len(rels))


@given(rels=lists, k=st.integers(1, 30))
def test_relative_precision_is_at_least_precision_and_at_most_1(rels, k):
    n_relevant = sum(g >= 1 for g in rels) + 2
    relative = rk.relative_precision_at_k(rels, k, n_relevant=n_relevant)
    assert rk.precision_at_k(rels, k) <= relative <= 1.0
    assert np.isclose(relative * min(k, n_relevant), rk.precision_at_k(rels, k) * k)
