"""Tests of rankedu/judgments/qrels.py: qrels_agreement on a hand-checked case, on the TREC
2024 RAG judgments against a perturbed copy (scikit-learn's kappa and sets computed apart), and
on bad input."""

import math

import numpy as np
import pandas as pd
import pytest
import sklearn.metrics as sklearn_metrics

import rankedu as rk

A = {"q1": {"d1": 2, "d2": 0, "d3": 1, "d4": 0}, "q2": {"d5": 1, "d6": 0}, "q3": {"d8": 1}}
B = {"q1": {"d1": 1, "d2": 1, "d3": 0, "d4": 0}, "q2": {"d5": 1, "d7": 1}}


def test_a_small_case_checked_by_hand():
    table = rk.qrels_agreement(A, B)
    assert list(table.index) == ["q1", "q2", "q3", "all"]
    q1 = table.loc["q1"]
    assert (q1["judged in both"], q1["relevant in a"], q1["relevant in b"],
            q1["relevant in both"]) == (4, 2, 2, 1)
    assert q1["overlap"] == pytest.approx(1 / 3) and q1["agreement"] == 0.5
    assert q1["kappa"] == 0.0  # p_o = 1/2, p_e = 1/2
    assert math.isnan(table.loc["q2", "kappa"])  # d5 alone, relevant in both: one category
    assert table.loc["q3", "judged in both"] == 0 and math.isnan(table.loc["q3", "overlap"])
    everything = table.loc["all"]
    assert everything["judged in both"] == 5 and everything["overlap"] == 0.5
    assert everything["kappa"] == pytest.approx(
        sklearn_metrics.cohen_kappa_score([1, 0, 1, 0, 1], [1, 1, 0, 0, 1]), abs=1e-12)


def test_the_threshold_decides_what_is_relevant():
    strict = rk.qrels_agreement(A, B, threshold=2)
    assert strict.loc["q1", "relevant in a"] == 1 and strict.loc["q1", "relevant in b"] == 0


def test_on_the_rag_judgments_against_a_perturbed_copy_it_equals_a_computation_apart():
    qrels, _ = rk.datasets.load("trec_rag_2024")
    rng = np.random.default_rng(25)
    judge = qrels.sample(frac=0.9, random_state=25).copy()  # a tenth left unjudged
    flip = rng.random(len(judge)) < 0.2
    judge.loc[flip, "rel"] = rng.integers(0, 4, size=int(flip.sum()))
    table = rk.qrels_agreement(qrels, judge, threshold=2)
    joined = qrels.merge(judge, on=["qid", "docno"], suffixes=("_a", "_b"))
    assert table.loc["all", "judged in both"] == len(joined) == len(judge)
    for qid, group in list(joined.groupby("qid"))[:10]:
        a, b = (group["rel_a"] >= 2).to_numpy(), (group["rel_b"] >= 2).to_numpy()
        row = table.loc[qid]
        assert row["relevant in both"] == (a & b).sum()
        assert row["overlap"] == pytest.approx((a & b).sum() / (a | b).sum(), abs=1e-12)
        assert row["kappa"] == pytest.approx(
            sklearn_metrics.cohen_kappa_score(a, b), abs=1e-12)


def test_a_path_a_frame_and_a_dict_give_the_same_table():
    path = rk.datasets.path("qrels.test")
    frame = rk.read_qrels(path)
    nested = {qid: dict(zip(g["docno"], g["rel"])) for qid, g in frame.groupby("qid")}
    by_path = rk.qrels_agreement(path, frame)
    pd.testing.assert_frame_equal(by_path, rk.qrels_agreement(nested, frame))
    assert (by_path["kappa"] == 1.0).all() and (by_path["overlap"] == 1.0).all()


def test_bad_input_raises_naming_the_argument():
    with pytest.raises(ValueError, match="^threshold must be > 0"):
        rk.qrels_agreement(A, B, threshold=0)
    with pytest.raises(TypeError, match="^qrels_b must be a path"):
        rk.qrels_agreement(A, 3)
    twice = pd.DataFrame({"qid": ["q1", "q1"], "docno": ["d1", "d1"], "rel": [1, 0]})
    with pytest.raises(ValueError, match="listed twice"):
        rk.qrels_agreement(twice, B)
    with pytest.raises(ValueError, match="qrels_a\\['rel'\\] must hold finite"):
        rk.qrels_agreement(pd.DataFrame({"qid": ["q1"], "docno": ["d1"], "rel": [np.nan]}), B)
