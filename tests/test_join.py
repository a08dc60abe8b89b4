"""Tests of rankedu/trec/join.py: a run is ranked by score descending, ties by docno descending as
strings (trec_eval's order), whatever the order of its lines, in double precision unless told;
each through ``evaluate``."""

import warnings

import numpy as np
import pandas as pd
import pytest

import rankedu as rk
from conftest import ALL_MEASURES
from rankedu.trec import join


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


# --- the fast path: a run grouped by query, in any order of the queries ---------------------

def _grouped_run(seed=11, n_queries=25):
    """Per query ``q0``, ``q1``, ... (numeric order: not the string order of the query codes):
    its run lines best first, with tied scores and realistic docnos, and its judgments
    (negative grades included); a few queries are only in the run or only in the qrels."""
    rng = np.random.default_rng(seed)
    blocks, judgments = [], []
    for q in range(n_queries):
        ids = rng.choice(10**7, size=40, replace=False)
        scores = np.sort(rng.integers(0, 12, size=40))[::-1] / 4
        blocks.append([f"q{q} Q0 clueweb09-en{d:08d} {r} {s} t\n"
                       for r, (d, s) in enumerate(zip(ids, scores), start=1)])
        if q % 7 != 3:  # q3, q10, q17, q24 have no judgment
            judgments += [f"q{q} 0 clueweb09-en{d:08d} {rng.integers(-1, 4)}\n"
                          for d in rng.choice(ids, size=15, replace=False)]
    judgments.append("q999 0 clueweb09-en00000000 1\n")  # judged, never retrieved
    return blocks, "".join(judgments)


def _evaluations(qrels, run):
    """Every result ``evaluate`` gives on the two files (values and query order), warnings
    included, over the options that touch ranking, ties and the queries kept."""
    results = []
    for options in ({}, {"ties": "optimistic"}, {"ties": "pessimistic"},
                    {"ties": "average", "measures": ["P@5", "AP", "nDCG@10", "RR"]},
                    {"single_precision": True}, {"threshold": 2},
                    {"missing": "zero"}):
        options = dict(options)
        measures = options.pop("measures", ALL_MEASURES + ["Bpref", "Judged@10"])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            frame = rk.evaluate(qrels, run, measures, **options)
        results.append((frame, [(w.category, str(w.message)) for w in caught]))
    results.append(rk.tie_interval(qrels, run, ALL_MEASURES))
    return results


# Stretches of lines moved as slices (1), or through an index of every line (10**9).
SHORTEST_MOVES = [1, 10**9]


@pytest.mark.parametrize("shortest", SHORTEST_MOVES)
@pytest.mark.parametrize("arrangement", ["numeric", "reversed", "random", "split"])
def test_a_run_grouped_by_query_in_any_order_equals_the_sorted_run(tmp_path, monkeypatch,
                                                                   arrangement, shortest):
    # The sorted run takes the path that sorts the lines (shuffled); every arrangement of the
    # queries' blocks must give the same values, query order (strings) and warnings.
    monkeypatch.setattr(join, "_SHORTEST_MOVE", shortest)
    blocks, judgments = _grouped_run()
    order = {"numeric": range(len(blocks)), "reversed": range(len(blocks))[::-1],
             "random": np.random.default_rng(5).permutation(len(blocks)),
             "split": range(len(blocks))}[arrangement]
    lines = [line for i in order for line in blocks[i]]
    if arrangement == "split":  # q2 in two stretches, its best ten lines after q20's
        best = blocks[2][:10]
        lines = [line for line in lines if line not in best]
        at = lines.index(blocks[20][-1]) + 1
        lines[at:at] = best
    qrels, grouped, shuffled = tmp_path / "qrels", tmp_path / "grouped", tmp_path / "shuffled"
    qrels.write_text(judgments)
    grouped.write_text("".join(lines))
    shuffled.write_text("".join(lines[i] for i in np.random.default_rng(2).permutation(
        len(lines))))
    expected = _evaluations(qrels, shuffled)
    for got, want in zip(_evaluations(qrels, grouped), expected):
        if isinstance(got, tuple) and isinstance(got[1], list):  # (frame, warnings)
            pd.testing.assert_frame_equal(got[0], want[0])
            assert got[1] == want[1]
        else:
            for a, b in zip(got, want):
                pd.testing.assert_frame_equal(a, b)
    frame = expected[0][0]
    assert list(frame.index) == sorted(frame.index) and "q11" in frame.index
    assert any(w[0] is rk.TieWarning for w in expected[0][1])


@pytest.mark.parametrize("shortest", SHORTEST_MOVES)
@pytest.mark.parametrize("arrangement", ["numeric", "reversed", "random", "split"])
def test_the_line_order_sorts_only_a_query_split_in_two_stretches(monkeypatch, arrangement,
                                                                  shortest):
    # Query codes as the string order gives them: q0 -> 0, q1 -> 1, q10 -> 2, ...
    monkeypatch.setattr(join, "_SHORTEST_MOVE", shortest)
    names = sorted(f"q{q}" for q in range(12))
    rng = np.random.default_rng(1)
    blocks = [(np.full(n, names.index(f"q{q}"), dtype=np.int32),
               np.sort(rng.integers(0, 5, size=n))[::-1].astype(float))
              for q, n in enumerate(rng.integers(1, 9, size=12))]
    order = {"numeric": range(12), "reversed": range(12)[::-1],
             "random": rng.permutation(12), "split": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 3]}
    picked = [blocks[i] for i in order[arrangement]]
    query = np.concatenate([q for q, _ in picked])
    score = np.concatenate([s for _, s in picked])
    lines = np.arange(len(query))
    sorted_order = np.lexsort((-score, query))
    if arrangement == "split":
        assert np.array_equal(join._line_order(query, score).apply(lines), sorted_order)
        return

    def no_sort(*args, **kwargs):
        raise AssertionError("the lines were sorted")

    monkeypatch.setattr(np, "lexsort", no_sort)
    permutation = join._line_order(query, score)
    assert np.array_equal(permutation.apply(lines), sorted_order)
    some = np.sort(rng.choice(len(query), size=10, replace=False))
    assert np.array_equal(permutation.lines(some), sorted_order[some])
    in_order = join._line_order(query[sorted_order], score[sorted_order])
    assert in_order.full is None and in_order.moves is None
