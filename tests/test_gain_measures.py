"""trec_eval's gain measures in rankedu: G, BinG, nDCGRel, RnDCG, RBPtrec, RBPtrecResid and
nDCG's gain parameters (``nDCG(gains={1:3,2:9})``, trec_eval's ``ndcg.1=3,2=9``).

Each is compared query by query, at trec_eval's four printed decimals, with trec_eval 10.0's
own program (``rankedu.teaching.trec_eval_program``) on its vendored test data and on generated
collections (tied scores, short lists, queries with nothing relevant, judged documents never
retrieved, negative grades, unjudged documents retrieved). Each trec_eval measure runs alone:
m_rbp.c reads two uninitialised variables, whose values depend on what ran before.
"""

import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rankedu as rk
from rankedu.trec.measures import parse
from test_trec_eval_binary import collection
from rankedu.teaching.trec_eval_program import run

DATA = Path(rk.__file__).parent / "data" / "trec_eval"

# trec_eval's measure (with its parameters) -> rankedu's spelling.
FAMILIES = {"G": "G", "binG": "BinG", "ndcg_rel": "nDCGRel", "Rndcg": "RnDCG",
            "rbp": "RBPtrec", "rbp_resid": "RBPtrecResid", "ndcg": "nDCG"}
# Gains apart by 1 or more: trec_eval sorts the gains with a comparison that truncates their
# difference to an integer (comp_rel_gain), so gains less than 1 apart come out in any order.
WITH_PARAMETERS = {"ndcg.1=3,2=9,4=4.5": "nDCG(gains={1:3,2:9,4:4.5})",
                   "G.1=3,2=9,4=4.5": "G(gains={1:3,2:9,4:4.5})",
                   "ndcg_rel.2=0,3=7": "nDCGRel(gains={2:0,3:7})",
                   "Rndcg.1=2,4=1": "RnDCG(gains={1:2,4:1})",
                   "rbp.p=0.5": "RBPtrec(p=0.5)", "rbp_resid.p=0.95": "RBPtrecResid(p=0.95)"}


def trec_eval(qrels, run_file, measure, *options) -> dict:
    """trec_eval's printed values of one measure, run alone: {qid or "all": text}."""
    done = run("-q", *options, "-m", measure, qrels, run_file)
    assert done.returncode == 0, done.stderr
    return {line.split()[1]: line.split()[2] for line in done.stdout.splitlines()}


def assert_prints_as_trec_eval(qrels, run_file, names, options=(), **evaluate_options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", (rk.TieWarning, rk.QueryMismatchWarning))
        result = rk.evaluate(qrels, run_file, list(names.values()), **evaluate_options)
    for trec_name, ours in names.items():
        expected = trec_eval(qrels, run_file, trec_name, *options)
        assert {**{q: f"{v:.4f}" for q, v in result[ours].items()},
                "all": f"{result[ours].mean():.4f}"} == expected, trec_name
    return result


VENDORED = {
    # case: (qrels, run, trec_eval options, evaluate options)
    "binary": ("qrels.test", "results.test", [], {}),
    "truncated (-c)": ("qrels.test", "results.trunc", ["-c"], {"missing": "zero"}),
    "graded": ("qrels.rel_level", "results.test", [], {}),
    "graded -l2": ("qrels.rel_level", "results.test", ["-l2"], {"threshold": 2}),
    "graded -l2, truncated (-c)": ("qrels.rel_level", "results.trunc", ["-c", "-l2"],
                                   {"threshold": 2, "missing": "zero"}),
}


@pytest.mark.parametrize("case", VENDORED)
def test_every_family_equals_trec_eval_on_its_test_data(case):
    qrels, run_file, options, evaluate_options = VENDORED[case]
    assert_prints_as_trec_eval(DATA / qrels, DATA / run_file, FAMILIES, options,
                               **evaluate_options)


def test_the_parameters_equal_trec_eval_on_graded_test_data():
    assert_prints_as_trec_eval(DATA / "qrels.rel_level", DATA / "results.test", WITH_PARAMETERS)


def test_the_vendored_all_trec_output_holds_the_same_means():
    # out.test.aql: -m all_trec -l2 on qrels.rel_level; its 'all' lines for these families.
    lines = (DATA / "out.test.aql").read_text().splitlines()
    expected = {line.split()[0]: line.split()[2] for line in lines if line.split()[1] == "all"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rk.TieWarning)
        result = rk.evaluate(DATA / "qrels.rel_level", DATA / "results.test",
                             list(FAMILIES.values()), threshold=2)
    assert {t: f"{result[ours].mean():.4f}" for t, ours in FAMILIES.items()} == \
        {t: expected[t] for t in FAMILIES}


GENERATED = {
    # case: (grades, trec_eval options, evaluate options)
    "binary": ((0, 1), [], {}),
    "graded": ((-1, 0, 1, 2, 3, 4), [], {}),
    "graded -l2": ((-1, 0, 1, 2, 3), ["-l2"], {"threshold": 2}),
}


@pytest.mark.parametrize("case", GENERATED)
@pytest.mark.parametrize("seed", [11, 12])
def test_every_family_equals_trec_eval_on_generated_collections(case, seed, tmp_path):
    grades, options, evaluate_options = GENERATED[case]
    qrels_text, run_text = collection(seed, grades=grades)
    qrels, run_file = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text(qrels_text)
    run_file.write_text(run_text)
    names = {**FAMILIES, **(WITH_PARAMETERS if case == "graded" else {})}
    result = assert_prints_as_trec_eval(qrels, run_file, names, options, **evaluate_options)
    assert len(result) == 40


# --- worked cases, by hand ------------------------------------------------------------------


def test_g_discounts_by_the_gain_missed_so_far():
    # ideal 2, 1: costs 2, then 1 (max(1, 1)), then 1; gains 0, 2, 1 so far 0, 2, 3.
    expected = (2 / math.log2(2 + 3 - 2) + 1 / math.log2(2 + 4 - 3)) / 3
    assert rk.g([0, 2, 1], pool=[2, 1]) == pytest.approx(expected, abs=1e-15)
    assert rk.g([0, 0], pool=[0]) == 0.0


def test_bin_g_is_g_with_every_relevant_gain_one():
    assert rk.bin_g([0, 1, 0, 1], n_relevant=3) == pytest.approx(
        (1 / math.log2(3) + 1 / math.log2(4)) / 3, abs=1e-15)
    assert rk.bin_g([0, 2, 1], n_relevant=1, threshold=2) == 1 / math.log2(3)


@given(st.lists(st.integers(0, 1), min_size=1, max_size=15), st.integers(0, 5))
def test_on_binary_grades_g_equals_bin_g(rels, unretrieved):
    pool = rels + [1] * unretrieved
    assert rk.g(rels, pool=pool) == pytest.approx(rk.bin_g(rels, n_relevant=sum(pool)),
                                                  abs=1e-12)


def test_ndcg_rel_averages_ndcg_at_each_relevant_rank_and_the_whole_for_the_missed():
    # pool 2, 1, 1: the 2 at rank 2, a 1 at rank 3, the other 1 missed.
    ideal = [2, 2 + 1 / math.log2(3), 2 + 1 / math.log2(3) + 0.5]
    dcg = [0, 2 / math.log2(3), 2 / math.log2(3) + 0.5]
    expected = (dcg[1] / ideal[1] + dcg[2] / ideal[2] + dcg[2] / ideal[2]) / 3
    assert rk.ndcg_rel([0, 2, 1], pool=[2, 1, 1]) == pytest.approx(expected, abs=1e-15)


def test_rndcg_averages_ndcg_where_the_ideal_gain_drops_and_at_the_lists_end():
    rels, pool = [1, 0, 2, 0, 0], [2, 1]
    at = [rk.ndcg(rels, m, pool=pool) for m in (1, 2, 5)]
    assert rk.rndcg(rels, pool=pool) == pytest.approx(np.mean(at), abs=1e-15)
    # A list of R + 1 documents: trec_eval's loops end before the list's end counts.
    assert rk.rndcg(rels[:3], pool=pool) == pytest.approx(np.mean(at[:2]), abs=1e-15)
    assert rk.rndcg(rels, pool=pool, n_relevant=0) == 0.0


def test_rbp_trec_reads_the_grade_over_the_pools_top_grade_and_the_whole_list():
    assert rk.rbp_trec([3, 0, 1], pool=[3, 1, 0], p=0.5) == 0.5 * (1 + 0.25 / 3)
    assert rk.rbp_trec([1, 1], pool=[1], p=0.5) == rk.rbp([1, 1], p=0.5)  # top grade 1
    with pytest.raises(ValueError, match="rels"):
        rk.rbp_trec([4], pool=[3])


def test_rbp_trec_resid_is_the_unjudged_weight_and_the_tail_or_zero():
    assert rk.rbp_trec_resid([0, 1, 0], p=0.5) == 0.5 + 0.125 + 0.125
    assert rk.rbp_trec_resid([1, 1, 1], p=0.5) == 0.0
    assert rk.rbp_trec_resid([0], p=0.9) == pytest.approx(1.0, abs=1e-15)


# --- nDCG's gains -----------------------------------------------------------------------------


def test_gains_are_written_as_in_ir_measures_and_commas_inside_braces_do_not_split():
    (spec,) = parse(["nDCG(gains={1:3, 2:9,4:4.5},judged_only=True)@10"])
    assert spec.params == {"judged_only": True, "gains": {1: 3.0, 2: 9.0, 4: 4.5}}
    assert spec.k == 10
    for bad in ("nDCG(gains=1:3)", "nDCG(gains={1:3;2:9})", "nDCG(gains={-1:3})",
                "nDCG(gains={1.5:3})"):
        with pytest.raises(ValueError, match=r"^measures: gains of "):
            parse([bad])
    with pytest.raises(ValueError, match="gives a grade twice"):
        parse(["nDCG(gains={1:3,1:4})"])


@pytest.mark.parametrize("gains", [{0: 1}, {1: -1}, {1: math.inf}, {"1": 2}, {True: 2}])
def test_a_gain_rankedu_cannot_follow_is_an_error_naming_gains(gains):
    with pytest.raises(ValueError, match="gains"):
        rk.ndcg([1, 2], gains=gains)
    with pytest.raises(TypeError, match="gains must be a mapping"):
        rk.ndcg([1], gains=[(1, 3)])


def test_a_grade_not_listed_keeps_its_own_gain():
    rels, pool = [3, 1, 2], [3, 2, 1, 1]
    assert rk.ndcg(rels, pool=pool, gains={1: 5}) == rk.ndcg([3, 5, 2], pool=[3, 2, 5, 5])
    assert rk.ndcg(rels, pool=pool, gains={0: 0, 1: 1}) == rk.ndcg(rels, pool=pool)


def test_the_gains_order_and_scale_leave_ndcg_unchanged(tmp_path):
    # trec_eval sorts the gains with a comparison that truncates their difference to an
    # integer (comp_rel_gain), so its ideal follows the parameters' order for gains less
    # than 1 apart, and is 0 when all are below 1; the atlas prints its values.
    qrels, run_file = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q1 0 d1 1\nq1 0 d2 2\nq1 0 d3 3\n")
    run_file.write_text("q1 Q0 d1 1 3 t\nq1 Q0 d2 2 2 t\nq1 Q0 d3 3 1 t\n")
    values = [rk.evaluate(qrels, run_file, [name]).iloc[0, 0] for name in [
        "ndcg.1=2,2=2.5,3=3", "ndcg.3=3,2=2.5,1=2", "ndcg.1=9,2=5,3=7",
        "ndcg.1=0.9,2=0.5,3=0.7"]]  # (trec_eval: 0.9104, 0.9415, 0.9835, 0.0000)
    assert values[0] == values[1] == pytest.approx(rk.dcg([2, 2.5, 3]) / rk.dcg([3, 2.5, 2]))
    assert values[2] == pytest.approx(values[3]) == pytest.approx(
        rk.dcg([9, 5, 7]) / rk.dcg([9, 7, 5]))


def test_the_default_ndcg_is_unchanged_and_mapping_the_grades_to_themselves_changes_nothing(
        tmp_path):
    qrels_text, run_text = collection(13, grades=(-1, 0, 1, 2, 3))
    qrels, run_file = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text(qrels_text)
    run_file.write_text(run_text)
    names = ["nDCG", "nDCG@5", "nDCG(gains={1:1,2:2,3:3})", "nDCG(gains={1:1,2:2,3:3})@5"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rk.TieWarning)
        result = rk.evaluate(qrels, run_file, names)
        average = rk.evaluate(qrels, run_file, names, ties="average")
    assert result[names[0]].equals(result[names[2]]) and result[names[1]].equals(result[names[3]])
    assert average[names[0]].equals(average[names[2]])


def test_ties_average_maps_the_grades_before_averaging_them():
    qrels = {"q": {"a": 2, "b": 0, "c": 1}}
    run_file = {"q": {"a": 1.0, "b": 1.0, "c": 0.5}}
    orders = [rk.ndcg(rels, pool=[9, 0, 1]) for rels in ([9, 0, 1], [0, 9, 1])]
    value = rk.evaluate(qrels, run_file, ["nDCG(gains={2:9})"], ties="average")
    assert value.iloc[0, 0] == pytest.approx(np.mean(orders), abs=1e-15)


def test_the_tie_orders_do_not_bound_g_and_reverse_the_residuals_bounds():
    # The optimistic order (grade descending) puts the 3 before the 2: G falls from 0.75.
    qrels = {"q": {"a": 1, "b": 3, "c": 2, "d": 0}}
    run_file = {"q": {"a": 0.3, "b": 0.2, "c": 0.2, "d": 0.1}}
    values = {ties: rk.evaluate(qrels, run_file, ["G", "RBPtrecResid"], ties=ties).iloc[0]
              for ties in ("trec_eval", "optimistic")}
    assert values["trec_eval"]["G"] == 0.75 > values["optimistic"]["G"]
    qrels = {"q": {"a": 1, "b": 0}}
    run_file = {"q": {"a": 0.3, "b": 0.2, "x": 0.2}}  # x unjudged, tied with b
    values = {ties: rk.evaluate(qrels, run_file, ["RBPtrecResid"], ties=ties).iloc[0, 0]
              for ties in ("optimistic", "trec_eval", "pessimistic")}
    assert values["optimistic"] < values["trec_eval"] == values["pessimistic"]
