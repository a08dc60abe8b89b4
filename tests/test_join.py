"""Tests of rankedu/trec/join.py: a run is ranked by score descending, ties by docno descending as
strings (trec_eval's order), whatever the order of its lines, in double precision unless told;
each through ``evaluate``."""

import numpy as np
import pandas as pd

import rankedu as rk
from conftest import ALL_MEASURES


def test_tied_scores_are_broken_by_docno_descending_as_strings():
    # "d9" > "d10" as strings: d9 is ranked first although 9 < 10.
    qrels = {"q": {"d9": 1}}
    assert rk.evaluate(qrels, {"q": {"d10": 1.0, "d9": 1.0}}, ["RR"]).loc["q", "RR"] == 1.0
    qrels = {"q": {"d10": 1}}
    assert rk.evaluate(qrels, {"q": {"d10": 1.0, "d9": 1.0}}, ["RR"]).loc["q", "RR"] == 0.5


def test_pytrec_eval_stores_scores_in_single_precision_so_near_ties_become_ties():
    import pytrec_eval

    # In double precision d1 (relevant) is ahead; in float32 the two scores are equal and the
    # tie goes to the larger docno, d2.
    qrels = {"q": {"d1": 1, "d2": 0}}
    run = {"q": {"d1": 1.0 + 5e-8, "d2": 1.0}}
    assert np.float32(run["q"]["d1"]) == np.float32(run["q"]["d2"])
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(run)
    assert theirs["q"]["recip_rank"] == 0.5
    assert rk.evaluate(qrels, run, ["RR"]).loc["q", "RR"] == 1.0
    assert rk.evaluate(qrels, run, ["RR"], single_precision=True).loc["q", "RR"] == 0.5


def test_unsorted_file_order_gives_the_same_values(trec_case):
    frame = pd.DataFrame(
        [(q, d, s) for q, docs in trec_case.run.items() for d, s in docs.items()],
        columns=["qid", "docno", "score"],
    )
    shuffled = frame.sample(frac=1.0, random_state=3)
    a = rk.evaluate(trec_case.qrels, frame, ALL_MEASURES)
    b = rk.evaluate(trec_case.qrels, shuffled, ALL_MEASURES)
    pd.testing.assert_frame_equal(a, b)


def test_a_shuffled_run_file_with_ties_gives_the_same_values(tmp_path):
    # Realistic docnos (a new one on nearly every line) and some tied scores: ranking must not
    # depend on the line order, nor on how the docnos happen to be coded.
    rng = np.random.default_rng(7)
    lines, judgments = [], []
    for q in range(30):
        ids = rng.choice(10**7, size=60, replace=False)
        scores = np.sort(rng.integers(0, 40, size=60))[::-1] / 4
        lines += [f"q{q} Q0 clueweb09-en{d:08d} {r} {s} t\n"
                  for r, (d, s) in enumerate(zip(ids, scores), start=1)]
        judgments += [f"q{q} 0 clueweb09-en{d:08d} {rng.integers(0, 4)}\n"
                      for d in rng.choice(ids, size=20, replace=False)]
    qrels, ordered, shuffled = tmp_path / "qrels", tmp_path / "ordered", tmp_path / "shuffled"
    qrels.write_text("".join(judgments))
    ordered.write_text("".join(lines))
    shuffled.write_text("".join(lines[i] for i in rng.permutation(len(lines))))
    a = rk.evaluate(qrels, ordered, ALL_MEASURES)
    b = rk.evaluate(qrels, shuffled, ALL_MEASURES)
    pd.testing.assert_frame_equal(a, b)
    assert len(a) == 30 and (a["AP"] > 0).any()
