"""Tests of rankedu/trec/evaluate.py: ``evaluate`` against trec_eval, pytrec_eval and the per-list
functions (the reference each measure of ``rankedu.trec.measures.MEASURES`` declares); reading TREC
files (rankedu/trec/files.py)."""

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rankedu as rk
from conftest import (ALL_MEASURES, TREC_EVAL_DATA, assert_as_trec_eval_prints,
                      trec_ranking)
from rankedu.trec.measures import QueryLists, parse

# trec_eval's measure names (as in its -q output) and ours.
def reference(name):
    return TREC_EVAL_DATA / name


def trec_eval_output(name):
    """{(measure, qid): value as printed} from one of trec_eval's expected outputs."""
    values = {}
    for line in reference(name).read_text().splitlines():
        measure, qid, value = line.split()
        values[measure, qid] = value
    return values


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


# --- trec_eval's own test suite (tests/test_report.py compares every line it prints) ----------

def test_missing_zero_scores_the_query_absent_from_the_run_like_trec_eval_c():
    expected = trec_eval_output("out.test.aqc")
    assert expected["num_ret", "302"] == "0"
    result = rk.evaluate(reference("qrels.test"), reference("results.trunc"), ["AP", "nDCG"],
                         missing="zero")
    assert result.loc["302"].tolist() == [0.0, 0.0]
    assert result.attrs["only_in_qrels"] == ["302"]


def test_without_missing_zero_the_absent_query_is_dropped_and_reported():
    with pytest.warns(rk.QueryMismatchWarning, match="'302'"):
        result = rk.evaluate(reference("qrels.test"), reference("results.trunc"), ["AP"])
    assert list(result.index) == ["301", "303"]
    assert result.attrs["only_in_qrels"] == ["302"]


# --- pytrec_eval, on runs full of ties ---------------------------------------------------------

@pytest.mark.parametrize("threshold", [1, 2, 4])
def test_agrees_with_pytrec_eval_on_generated_runs_with_ties(trec_case, threshold):
    import pytrec_eval

    # The same names for both: rk.evaluate reads trec_eval's, and names its columns so.
    measures = ["map", "P.5,10", "recall.5,10", "Rprec", "recip_rank", "ndcg",
                "ndcg_cut.5,10", "map_cut.5"]
    theirs = pytrec_eval.RelevanceEvaluator(trec_case.qrels, set(measures),
                                            relevance_level=threshold).evaluate(trec_case.run)
    ours = rk.evaluate(trec_case.qrels, trec_case.run, measures, threshold=threshold)
    assert sorted(ours.index) == sorted(theirs)
    assert len(ours.columns) == 11
    for qid, values in theirs.items():
        for name in ours.columns:
            assert ours.loc[qid, name] == pytest.approx(values[name], abs=1e-12), (qid, name)


# --- the per-list functions --------------------------------------------------------------------


def per_list(rels, pool, n_relevant, measure, max_grade=4):
    """One query's value from the per-list reference that ``measure``'s declaration names."""
    lists = QueryLists(rels=np.maximum(rels, 0), pool=np.maximum(pool, 0),
                       n_relevant=n_relevant, max_grade=max_grade)
    return parse([measure])[0].reference(lists)


def test_every_measure_equals_the_per_list_function_on_each_query(trec_case):
    result = rk.evaluate(trec_case.qrels, trec_case.run, ALL_MEASURES)
    assert len(result) == len(trec_case.qrels)
    for qid in result.index:
        rels, pool, n_relevant = trec_case.ranked(qid)
        for measure in ALL_MEASURES:
            expected = per_list(rels, pool, n_relevant, measure)
            assert result.loc[qid, measure] == pytest.approx(expected, abs=1e-12), (qid, measure)


documents = st.sampled_from([f"d{i}" for i in range(12)])


@st.composite
def judged_runs(draw):
    """Small qrels and runs with tied scores, unjudged and unretrieved documents."""
    qrels, run = {}, {}
    for q in range(draw(st.integers(1, 4))):
        judged = draw(st.dictionaries(documents, st.integers(0, 3), min_size=1, max_size=8))
        retrieved = draw(st.dictionaries(documents, st.sampled_from([0.0, 0.5, 1.0, 2.5]),
                                         min_size=1, max_size=10))
        qrels[f"q{q}"], run[f"q{q}"] = judged, retrieved
    return qrels, run


@given(judged_runs())
def test_vectorised_evaluate_equals_per_list_functions_on_random_runs(case):
    qrels, run = case
    result = rk.evaluate(qrels, run, ALL_MEASURES)
    for qid in qrels:
        rels, pool, n_relevant = trec_ranking(qrels[qid], run[qid])
        for measure in ALL_MEASURES:
            expected = per_list(rels, pool, n_relevant, measure)
            assert result.loc[qid, measure] == pytest.approx(expected, abs=1e-12), measure


def test_ranked_list_ranks_a_query_exactly_as_evaluate_does(trec_case):
    for qid in list(trec_case.run)[:40]:
        frame = rk.ranked_list(trec_case.qrels, trec_case.run, qid)
        rels, pool, _ = trec_case.ranked(qid)
        assert frame["grade"].tolist() == rels
        assert sorted(frame.attrs["pool"]) == sorted(pool)
        assert frame["rank"].tolist() == list(range(1, len(rels) + 1))
        assert frame["judged"].tolist() == [d in trec_case.qrels[qid] for d in frame["docno"]]


def test_ranked_list_of_an_unknown_query_raises_naming_it():
    with pytest.raises(ValueError, match="query 'nope' is not in the qrels"):
        rk.ranked_list({"q": {"a": 1}}, {"q": {"a": 1.0}}, "nope")


@given(st.lists(st.lists(st.floats(0.0, 1.0), min_size=1, max_size=40), min_size=1,
                max_size=30))
def test_segment_operations_equal_the_per_list_computation_query_by_query(lists):
    # The kernels' building blocks against one np.cumprod / np.sum per query: the very same
    # floating-point operations, whatever the mix of query lengths.
    from rankedu.core.ranked import cumprod_by_query, first_by_query, ranks_within, sum_by_query

    query = np.repeat(np.arange(len(lists)), [len(x) for x in lists])
    values = np.concatenate([np.asarray(x) for x in lists])
    rank = ranks_within(query)
    assert rank.tolist() == [r for x in lists for r in range(1, len(x) + 1)]
    assert np.array_equal(cumprod_by_query(query, values),
                          np.concatenate([np.cumprod(x) for x in lists]))
    sums = sum_by_query(query, rank, values, len(lists), k=3)
    assert sums == pytest.approx([math.fsum(x[:3]) for x in lists], abs=1e-12)
    first = first_by_query(query, values > 0.5, len(lists))
    expected = [next((i for i, v in enumerate(x) if v > 0.5), None) for x in lists]
    starts = np.r_[0, np.cumsum([len(x) for x in lists])[:-1]]
    assert [None if f < 0 else int(f - s) for f, s in zip(first, starts)] == expected


# --- conventions -------------------------------------------------------------------------------


def test_denominators_come_from_the_qrels_not_from_the_run():
    qrels = {"q": {"a": 1, "b": 1, "c": 1, "d": 1}}  # four relevant, two retrieved
    run = {"q": {"a": 2.0, "x": 1.5, "b": 1.0}}
    result = rk.evaluate(qrels, run, ["AP", "R@3", "Rprec", "AP@2"])
    assert result.loc["q"].tolist() == pytest.approx(
        [(1 + 2 / 3) / 4, 2 / 4, 2 / 4, 1 / 4]
    )


def test_ideal_dcg_uses_every_judged_document_even_unretrieved():
    qrels = {"q": {"a": 1, "b": 3}}
    run = {"q": {"a": 1.0}}
    value = rk.evaluate(qrels, run, ["nDCG"]).loc["q", "nDCG"]
    assert value == pytest.approx(1 / (3 + 1 / math.log2(3)))


def test_negative_grades_are_non_relevant_with_gain_zero_and_not_in_the_ideal():
    qrels = {"q": {"a": -1, "b": 1}}
    run = {"q": {"a": 2.0, "b": 1.0}}
    result = rk.evaluate(qrels, run, ["P@1", "RR", "nDCG", "ERR"])
    # ERR: R(0) = 0 at rank 1, then R(1) = (2 - 1) / 2^4 at rank 2.
    assert result.loc["q"].tolist() == pytest.approx([0.0, 0.5, 1 / math.log2(3), 1 / 32])
    # The per-list functions take the grade at face value instead (the contract's example).
    assert rk.ndcg([1, 1, 1, -1], 4, pool=[1, 1, 1]) == pytest.approx(0.7979, abs=5e-5)
    as_evaluate = rk.evaluate({"q": {"a": 1, "b": 1, "c": 1, "d": -1}},
                              {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}}, ["nDCG@4"])
    assert as_evaluate.loc["q", "nDCG@4"] == 1.0


def test_query_without_relevant_documents_scores_zero_everywhere():
    result = rk.evaluate({"q": {"a": 0}}, {"q": {"a": 1.0}}, ALL_MEASURES)
    assert (result.loc["q"] == 0.0).all()


def test_threshold_makes_low_grades_non_relevant_but_leaves_ndcg_alone():
    qrels = {"q": {"a": 1, "b": 2}}
    run = {"q": {"a": 2.0, "b": 1.0}}
    low = rk.evaluate(qrels, run, ["RR", "nDCG"])
    high = rk.evaluate(qrels, run, ["RR", "nDCG"], threshold=2)
    assert (low.loc["q", "RR"], high.loc["q", "RR"]) == (1.0, 0.5)
    assert low.loc["q", "nDCG"] == high.loc["q", "nDCG"]


def test_err_max_grade_defaults_to_4_as_gdeval_and_ir_measures():
    qrels = {"q1": {"a": 1}, "q2": {"b": 3}}
    run = {"q1": {"a": 1.0}, "q2": {"b": 1.0}}
    result = rk.evaluate(qrels, run, ["ERR@5"])
    assert result.loc["q1", "ERR@5"] == rk.err([1], 5, max_grade=4) == 1 / 16
    assert result.loc["q2", "ERR@5"] == rk.err([3], 5, max_grade=4) == 7 / 16
    told = rk.evaluate(qrels, run, ["ERR@5"], max_grade=3)
    assert told.loc["q1", "ERR@5"] == rk.err([1], 5, max_grade=3)


def test_err_of_a_query_does_not_change_when_an_unrelated_query_with_grade_4_is_added():
    qrels = {"q1": {"a": 2, "b": 1}}
    run = {"q1": {"a": 2.0, "b": 1.0}}
    alone = rk.evaluate(qrels, run, ["ERR@2"]).loc["q1", "ERR@2"]
    qrels["q2"], run["q2"] = {"c": 4}, {"c": 1.0}
    together = rk.evaluate(qrels, run, ["ERR@2"]).loc["q1", "ERR@2"]
    assert alone == together == rk.err([2, 1], 2, max_grade=4)


def test_a_grade_above_the_default_max_grade_is_an_error_naming_max_grade_unless_given():
    qrels, run = {"q": {"a": 5, "b": 1}}, {"q": {"a": 1.0, "b": 2.0}}
    with pytest.raises(ValueError, match=r"max_grade=4 .*below the largest grade in the qrels \(5\)"):
        rk.evaluate(qrels, run, ["ERR@2"])
    assert rk.evaluate(qrels, run, ["ERR@2"], max_grade=5).loc["q", "ERR@2"] == rk.err(
        [1, 5], 2, max_grade=5)
    # Measures that do not map grades through R(g) take any grade.
    assert rk.evaluate(qrels, run, ["nDCG"]).loc["q", "nDCG"] > 0


def test_err_without_a_cutoff_needs_memory_of_the_input_not_queries_times_depth():
    # 2,000 short queries and one of 200,000 documents: a queries x depth matrix would hold
    # 4e8 floats (3 GiB); the segment computation holds a few arrays of 2e5 entries.
    import tracemalloc

    long = {f"d{i}": float(-i) for i in range(200_000)}
    run = {f"s{q}": {"x": 1.0, "y": 0.5} for q in range(2000)} | {"long": long}
    qrels = {q: {"y": 2} for q in run if q != "long"} | {"long": {"d5": 3, "d199999": 1}}
    tracemalloc.start()
    try:
        result = rk.evaluate(qrels, run, ["ERR"])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 300 * 2**20, f"peak {peak / 2**20:.0f} MiB"
    rels = np.zeros(200_000)
    rels[[5, 199_999]] = [3, 1]
    assert result.loc["long", "ERR"] == pytest.approx(rk.err(rels, max_grade=4), abs=1e-15)
    assert result.loc["s0", "ERR"] == pytest.approx(rk.err([0, 2], max_grade=4), abs=1e-15)


def test_result_is_indexed_by_query_id_sorted_as_strings_with_float_columns():
    qrels = {"10": {"a": 1}, "9": {"a": 1}, "100": {"a": 1}}
    run = {q: {"a": 1.0} for q in qrels}
    result = rk.evaluate(qrels, run, ["AP", "P@1"])
    assert list(result.index) == ["10", "100", "9"]
    assert result.index.name == "qid"
    assert list(result.columns) == ["AP", "P@1"]
    assert all(dtype == np.float64 for dtype in result.dtypes)


# --- queries in one input only -----------------------------------------------------------------


def test_query_only_in_the_run_is_warned_about_and_listed():
    with pytest.warns(rk.QueryMismatchWarning, match="'extra'"):
        result = rk.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}, "extra": {"a": 1.0}}, ["AP"])
    assert list(result.index) == ["q"]
    assert result.attrs["only_in_run"] == ["extra"]
    assert result.attrs["only_in_qrels"] == []


def test_missing_zero_includes_judged_queries_the_run_lacks_without_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = rk.evaluate({"q": {"a": 1}, "r": {"a": 1}}, {"q": {"a": 1.0}}, ["AP", "RR"],
                             missing="zero")
    assert result.loc["r"].tolist() == [0.0, 0.0]
    assert result.attrs["only_in_qrels"] == ["r"]


def test_missing_skip_warns_naming_what_each_trec_eval_version_does():
    with pytest.warns(rk.QueryMismatchWarning, match=r"'r'$") as caught:
        result = rk.evaluate({"q": {"a": 1}, "r": {"a": 1}}, {"q": {"a": 1.0}}, ["AP"])
    assert list(result.index) == ["q"]
    message = str(caught[0].message)
    assert "trec_eval 9.x leaves them out too; trec_eval 10.0 stops instead" in message


def test_missing_error_stops_on_a_judged_query_the_run_lacks_as_trec_eval_10_does():
    # trec_eval 10.0 exits with status 4 on qrels.test and results.trunc, which lacks 302.
    with pytest.raises(ValueError, match=r"^missing: 1 judged query is missing from the run: "
                                         r"'302'; missing='error' stops here as trec_eval 10.0"):
        rk.evaluate(reference("qrels.test"), reference("results.trunc"), ["AP"],
                    missing="error")
    with warnings.catch_warnings():
        warnings.simplefilter("error", rk.QueryMismatchWarning)
        strict = rk.evaluate(reference("qrels.test"), reference("results.test"), ["AP"],
                             missing="error")
    assert strict.equals(rk.evaluate(reference("qrels.test"), reference("results.test"),
                                     ["AP"]))


@pytest.mark.parametrize("missing", ["skip", "zero", "error"])
def test_an_empty_run_is_an_error_saying_nothing_was_evaluated(tmp_path, missing):
    # trec_eval exits non-zero too; an empty table (or all zeros) would look like a result.
    qrels, run = write(tmp_path, "qrels", "q 0 a 1\n"), write(tmp_path, "run", "")
    with pytest.raises(ValueError, match="nothing was evaluated: the run is empty"):
        rk.evaluate(qrels, run, ["AP", "RR", "nDCG@2", "ERR@3"], missing=missing)


@pytest.mark.parametrize("missing", ["skip", "zero", "error"])
def test_a_run_whose_queries_are_not_in_the_qrels_is_an_error(missing):
    with pytest.raises(ValueError, match=r"nothing was evaluated: none of the run's 2 queries"):
        rk.evaluate({"q": {"a": 1}}, {"x": {"a": 1.0}, "y": {"a": 1.0}}, ["AP"],
                    missing=missing)
    with pytest.raises(ValueError, match="nothing was evaluated: the qrels are empty"):
        rk.evaluate({}, {"x": {"a": 1.0}}, ["AP"])


# --- bad input ---------------------------------------------------------------------------------

@pytest.mark.parametrize("measure", ["MAPP", "R", "P@0", "Rprec@5", "nDCG@x", "ndcg@10", "P.0"])
def test_unknown_or_incomplete_measure_raises_naming_it(measure):
    with pytest.raises(ValueError, match="measures"):
        rk.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, [measure])


@pytest.mark.parametrize(
    ("options", "argument"),
    [({"threshold": 0}, "threshold"), ({"missing": "drop"}, "missing"),
     ({"max_grade": 2}, "max_grade"), ({"max_grade": -1}, "max_grade")],
)
def test_bad_options_raise_naming_the_option(options, argument):
    with pytest.raises(ValueError, match=argument):
        rk.evaluate({"q": {"a": 3}}, {"q": {"a": 1.0}}, ["ERR@5"], **options)


@pytest.mark.parametrize("flag", ["yes", None, 2])
def test_single_precision_must_be_true_or_false(flag):
    # "yes", None and 2 were read as truth values.
    with pytest.raises(TypeError, match="^single_precision must be True or False"):
        rk.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, ["AP"], single_precision=flag)


def test_a_grade_too_large_for_64_bits_is_named_as_such():
    with pytest.raises(ValueError, match=r"^qrels\['rel'\] must hold numbers that fit in 64 "
                                         r"bits, got 1180591620717411303424 at position 0"):
        rk.evaluate({"q": {"a": 2**70}}, {"q": {"a": 1.0}}, ["AP"])


def test_ranked_list_reads_a_negative_grade_as_pooled_but_not_judged_as_judged_at_k_does():
    qrels, run = {"q": {"a": -1, "b": 1}}, {"q": {"a": 2.0, "b": 1.0, "c": 0.5}}
    table = rk.ranked_list(qrels, run, "q")
    assert table["judged"].tolist() == [False, True, False]
    assert table["grade"].tolist() == [-1, 1, 0]
    assert rk.evaluate(qrels, run, ["Judged@3"])["Judged@3"].iloc[0] == table["judged"].mean()


def test_summary_adds_in_query_order_then_divides_as_trec_eval_does(trec_case):
    result = rk.evaluate(trec_case.qrels, trec_case.run, ["AP", "P@5", "nDCG@10", "NumRet",
                                                          "GMAP"])
    values = {name: result[name].to_numpy() for name in result.columns}
    expected = {name: float(np.cumsum(values[name])[-1] / len(result))
                for name in ["AP", "P@5", "nDCG@10"]}
    expected["NumRet"] = float(values["NumRet"].sum())
    expected["GMAP"] = math.exp(np.cumsum(np.log(np.maximum(values["GMAP"], 1e-5)))[-1]
                                / len(result))
    assert rk.summary(result).to_dict() == expected
    # The mean numpy and pandas take (a pairwise sum) is not always the same double.
    values = pd.DataFrame({"P@5": [0.4, 0.2, 0.0, 0.2, 0.0, 0.2, 0.0, 0.6, 0.0, 0.2, 0.0,
                                   0.0, 0.4, 0.4, 0.2, 0.0]})
    assert rk.summary(values)["P@5"] == sum(values["P@5"].tolist()) / 16


def test_summary_refuses_what_is_not_a_result():
    with pytest.raises(TypeError, match="result must be a DataFrame"):
        rk.summary({"AP": [0.5]})
    with pytest.raises(ValueError, match="result holds no query"):
        rk.summary(pd.DataFrame({"AP": []}))
    with pytest.raises(ValueError, match="unknown measure 'score'"):
        rk.summary(pd.DataFrame({"score": [0.5]}))


def test_warnings_point_at_the_callers_line_whatever_the_path_inside(tmp_path):
    # The same warnings come through evaluate and trec_eval_report at different depths, and
    # trec_eval's 1.5 cutoff warns from the names' parser, deeper still: each points here.
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q1 0 d2 1\nq2 0 d1 1\n")
    run.write_text("q1 Q0 d1 1 3.0 r\nq1 Q0 d2 2 3.0 r\nq3 Q0 d1 1 1.0 r\n")
    for call in (lambda: rk.evaluate(qrels, run, ["P@1"]),
                 lambda: rk.trec_eval_report(qrels, run, ["P.1"]),
                 lambda: rk.evaluate(qrels, run, ["P.1.5"])):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call()
        categories = {type(w.message) for w in caught}
        assert {rk.TieWarning, rk.QueryMismatchWarning} <= categories
        assert {w.filename for w in caught} == {__file__}
