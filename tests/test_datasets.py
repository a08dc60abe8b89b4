"""Tests of rankedu/datasets.py: the shipped trec_eval test data, and rankedu on TREC 2024 RAG
against trec_eval 10.0's own output for it (``out.comment.test``)."""

import warnings

import pytest

import rankedu as rk
from rankedu import datasets

# trec_eval's default measures in out.comment.test that rankedu computes, by rankedu's name.
DEFAULT_MEASURES = {"map": "AP", "Rprec": "Rprec", "bpref": "Bpref", "recip_rank": "RR",
                    **{f"P_{k}": f"P@{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)}}


def test_the_rag_judgments_and_run_are_what_the_readme_says():
    qrels, run = datasets.load("trec_rag_2024")
    assert (qrels["qid"].nunique(), len(qrels)) == (31, 5890)
    assert sorted(qrels["rel"].unique()) == [0, 1, 2, 3]
    assert len(run) == 30100
    assert set(qrels["qid"]) <= set(run["qid"])


def test_trec_301_303_binary_and_graded():
    binary, run = datasets.load("trec_301_303")
    graded, same_run = datasets.load("trec_301_303", graded=True)
    assert sorted(binary["rel"].unique()) == [0, 1]
    assert sorted(graded["rel"].unique()) == [-1, 0, 1, 2, 3, 4]
    assert run.equals(same_run) and len(run) == 1500


def test_rankedu_gives_trec_eval_10s_means_on_the_rag_run():
    expected = {}
    for line in datasets.path("out.comment.test").read_text().splitlines():
        measure, _, value = line.split()
        expected[measure] = value
    qrels, run = datasets.load("trec_rag_2024")
    with warnings.catch_warnings():
        # 270 queries of the run are not judged (trec_eval skips them silently); ties decide
        # one AP only beyond the fourth decimal.
        warnings.simplefilter("ignore", rk.QueryMismatchWarning)
        warnings.simplefilter("ignore", rk.TieWarning)
        result = rk.evaluate(qrels, run, list(DEFAULT_MEASURES.values()))
    assert f"{len(result)}" == expected["num_q"]
    for trec_name, ours in DEFAULT_MEASURES.items():
        assert f"{result[ours].mean():.4f}" == expected[trec_name], trec_name


def test_unknown_names_and_a_non_bool_graded_are_refused_naming_the_argument():
    with pytest.raises(ValueError, match="^name must be one of 'trec_301_303', 'trec_rag_2024'"):
        datasets.load("trec_2025")
    with pytest.raises(TypeError, match="^graded must be True or False"):
        datasets.load("trec_301_303", graded="yes")
    with pytest.raises(ValueError, match="^name must be one of .*'qrels.test'"):
        datasets.path("../../setup.py")
