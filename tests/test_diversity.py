"""Tests of rankedu/metrics/diversity.py and rankedu/trec/diversity.py: the worked examples
the chapter prints, independent computations (brute force, rk.err, a hand-written α-DCG) and
pyndeval 0.0.8 (ndeval v4.5) and ir_measures 0.4.3 on generated subtopic qrels and runs."""

import itertools
import math

import numpy as np
import pandas as pd
import pytest

import rankedu as rk

# The research notes' example: d1 in {1, 2}, d2 {1}, d3 {3}, d4 {1}, d5 {2, 3}, d6 judged 0;
# the run ranks d2 > d4 > d1 > d6 > d3 > d5.
QRELS = [("q", "1", "d1", 1), ("q", "2", "d1", 1), ("q", "1", "d2", 1), ("q", "3", "d3", 1),
         ("q", "1", "d4", 1), ("q", "2", "d5", 1), ("q", "3", "d5", 1), ("q", "1", "d6", 0)]
RUN = [("q", "d2", 6.0), ("q", "d4", 5.0), ("q", "d1", 4.0), ("q", "d6", 3.0),
       ("q", "d3", 2.0), ("q", "d5", 1.0)]
RANKING = [{1}, {1}, {1, 2}, set(), {3}, {2, 3}]


def hand_alpha_dcg(sets, alpha, k):
    seen, total = {}, 0.0
    for i, intents in enumerate(sets[:k], start=1):
        gain = sum((1 - alpha) ** seen.get(t, 0) for t in intents)
        total += gain / math.log2(i + 1)
        for t in intents:
            seen[t] = seen.get(t, 0) + 1
    return total


def brute_ideal(pool, alpha, k):
    return max(hand_alpha_dcg(list(order), alpha, k)
               for order in itertools.permutations(pool, min(k, len(pool))))


def test_alpha_ndcg_of_the_worked_example_matches_a_hand_computation():
    for k in (5, 10):
        expected = hand_alpha_dcg(RANKING, 0.5, k) / brute_ideal(RANKING, 0.5, k)
        assert rk.alpha_ndcg(RANKING, k=k) == pytest.approx(expected, abs=1e-12)
    assert rk.alpha_ndcg(RANKING, k=5) == pytest.approx(0.663347, abs=1e-6)


def test_err_ia_is_the_weighted_mean_of_each_intents_err():
    rng = np.random.default_rng(3)
    for _ in range(30):
        matrix = (rng.random((rng.integers(1, 9), rng.integers(1, 5))) < 0.4).astype(float)
        weights = rng.dirichlet(np.ones(matrix.shape[1]))
        expected = sum(w * rk.err(matrix[:, t], max_grade=1) for t, w in enumerate(weights))
        assert rk.err_ia(matrix, weights=weights) == pytest.approx(expected, abs=1e-12)
    assert rk.err_ia(RANKING, k=5) == pytest.approx(0.31111, abs=1e-5)


def test_exact_ideal_equals_brute_force_and_greedy_never_beats_it():
    rng = np.random.default_rng(7)
    found_gap = False
    for _ in range(60):
        pool = [set(np.flatnonzero(rng.random(4) < 0.45).tolist()) for _ in range(6)]
        if not any(pool):
            continue
        for k in (2, 3, 6):
            exact = rk.explain.alpha_ndcg(pool, k=k, ideal="exact").tables
            ideal = exact["ideal α-DCG (exact)"]["α-DCG@i"].iloc[-1]
            assert ideal == pytest.approx(brute_ideal(pool, 0.5, k), abs=1e-12)
            greedy = rk.explain.alpha_ndcg(pool, k=k).tables["ideal α-DCG (greedy)"]
            assert greedy["α-DCG@i"].iloc[-1] <= ideal + 1e-12
            found_gap |= greedy["α-DCG@i"].iloc[-1] < ideal - 1e-9
    assert found_gap  # the generated pools include one where greedy is not optimal


def test_nrbp_precision_ia_and_subtopic_recall_match_their_formulas():
    rng = np.random.default_rng(11)
    for _ in range(30):
        n, m = rng.integers(1, 9), rng.integers(1, 5)
        matrix = (rng.random((n, m)) < 0.4).astype(float)
        alpha, beta, k = rng.uniform(0.1, 1), rng.uniform(0, 1), int(rng.integers(1, 12))
        counts, total = np.zeros(m), 0.0
        for i, row in enumerate(matrix):
            total += beta**i * np.sum(row * (1 - alpha) ** counts)
            counts += row
        expected = (1 - (1 - alpha) * beta) / m * total
        assert rk.nrbp(matrix, alpha=alpha, beta=beta) == pytest.approx(expected, abs=1e-12)
        assert rk.precision_ia(matrix, k=k) == pytest.approx(
            matrix[:k].sum() / (k * m), abs=1e-12)
        assert rk.subtopic_recall(matrix, k=k) == pytest.approx(
            matrix[:k].any(axis=0).sum() / m, abs=1e-12)


def test_sets_and_matrix_give_the_same_values():
    matrix = np.array([[1, 0, 0], [1, 0, 0], [1, 1, 0], [0, 0, 0], [0, 0, 1], [0, 1, 1]])
    for name in ("alpha_ndcg", "err_ia", "nrbp", "precision_ia", "subtopic_recall"):
        assert getattr(rk, name)(matrix) == pytest.approx(getattr(rk, name)(RANKING))


def test_d_sharp_ndcg_is_gamma_irec_plus_d_ndcg():
    grades = [{"a": 1}, {"b": 2, "a": 1}, {}, {"c": 1}]
    weights = {"a": 0.6, "b": 0.3, "c": 0.1}
    pool = [*grades, {"b": 2, "c": 2}]
    gg = [0.6, 1.2, 0.0, 0.1]
    ideal = sorted([*gg, 0.6 + 0.2], reverse=True)
    dcg = sum(g / math.log2(i + 2) for i, g in enumerate(gg[:3]))
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal[:3]))
    expected = 0.4 * (2 / 3) + 0.6 * dcg / idcg
    value = rk.d_sharp_ndcg(grades, k=3, pool=pool, gamma=0.4, weights=weights)
    assert value == pytest.approx(expected, abs=1e-12)


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="subtopics"):
        rk.alpha_ndcg(np.array([[2, 0]]))
    with pytest.raises(ValueError, match="weights"):
        rk.err_ia([{"a"}, {"b"}], weights={"a": 0.5, "b": 0.6})
    with pytest.raises(ValueError, match="ideal"):
        rk.alpha_ndcg([{"a"}], ideal="best")
    with pytest.raises(TypeError, match="subtopics"):
        rk.subtopic_recall([1, 2])


def generated(seed, queries=40):
    """Subtopic qrels and a run: 1-8 intents, graded judgments, tied scores, unjudged docs."""
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    for q in range(queries):
        qid, n_docs, n_intents = f"q{q}", int(rng.integers(1, 25)), int(rng.integers(1, 9))
        docs = [f"d{j:02d}" for j in rng.permutation(40)[:n_docs]]
        for doc in docs[: max(1, n_docs - 3)]:  # the last few documents stay unjudged
            for t in range(n_intents):
                if rng.random() < 0.5:
                    qrels.append((qid, str(t), doc, int(rng.choice([0, 0, 1, 2]))))
        scores = rng.integers(0, 6, len(docs)).astype(float)  # many ties
        run += [(qid, doc, score) for doc, score in zip(docs, scores)]
    return qrels, run


MEASURES = {"alpha_nDCG@5": "alpha-nDCG@5", "alpha_nDCG@20": "alpha-nDCG@20",
            "ERR_IA@1": "ERR-IA@1", "ERR_IA@10": "ERR-IA@10", "NRBP": "NRBP",
            "P_IA@5": "P-IA@5", "P_IA@20": "P-IA@20", "StRecall@3": "strec@3",
            "StRecall@10": "strec@10"}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_evaluate_diversity_equals_pyndeval_on_every_query(seed):
    pyndeval = pytest.importorskip("pyndeval")
    qrels, run = generated(seed)
    expected = pyndeval.ndeval(qrels, sorted(run), measures=list(MEASURES.values()))
    ours = rk.evaluate_diversity(pd.DataFrame(qrels, columns=["qid", "subtopic", "docno",
                                                              "rel"]),
                                 pd.DataFrame(run, columns=["qid", "docno", "score"]),
                                 list(MEASURES))
    assert sorted(ours.index) == sorted(expected)
    for qid, values in expected.items():
        for name, theirs in MEASURES.items():
            assert ours.loc[qid, name] == pytest.approx(values[theirs], abs=1e-12), (qid, name)


def test_evaluate_diversity_equals_ir_measures():
    ir_measures = pytest.importorskip("ir_measures")
    qrels, run = generated(5, queries=15)
    measures = [ir_measures.parse_measure(name) for name in MEASURES]
    theirs = {(m.query_id, str(m.measure)): m.value for m in ir_measures.iter_calc(
        measures,
        [ir_measures.Qrel(q, d, r, iteration=s) for q, s, d, r in qrels],
        [ir_measures.ScoredDoc(q, d, s) for q, d, s in sorted(run)])}
    ours = rk.evaluate_diversity(pd.DataFrame(qrels, columns=["qid", "subtopic", "docno",
                                                              "rel"]),
                                 pd.DataFrame(run, columns=["qid", "docno", "score"]),
                                 list(MEASURES))
    assert theirs
    for (qid, name), value in theirs.items():
        assert ours.loc[qid, name] == pytest.approx(value, abs=1e-12), (qid, name)


def test_ndeval_ties_and_normalisation_differ_from_the_textbook():
    qrels = pd.DataFrame([("q", "1", "a", 1), ("q", "2", "b", 0)],
                         columns=["qid", "subtopic", "docno", "rel"])
    run = pd.DataFrame({"qid": "q", "docno": ["a", "b"], "score": [1.0, 1.0]})
    ndeval = rk.evaluate_diversity(qrels, run, "alpha_nDCG@5")
    textbook = rk.evaluate_diversity(qrels, run, "alpha_nDCG@5", conventions="textbook")
    assert ndeval.iloc[0, 0] == 1.0  # docno ascending puts a first
    assert textbook.iloc[0, 0] == pytest.approx(1 / math.log2(3))
    with pytest.raises(ValueError, match="20"):
        rk.evaluate_diversity(qrels, run, "P_IA@30")


def test_evaluate_hands_diversity_measures_to_ndevals_conventions():
    qrels, run = generated(8, queries=10)
    frames = (pd.DataFrame(qrels, columns=["qid", "subtopic", "docno", "rel"]),
              pd.DataFrame(run, columns=["qid", "docno", "score"]))
    expected = pytest.importorskip("pyndeval").ndeval(qrels, sorted(run),
                                                     measures=list(MEASURES.values()))
    ours = rk.evaluate(*frames, list(MEASURES))
    for qid, values in expected.items():
        for name, theirs in MEASURES.items():
            assert ours.loc[qid, name] == pytest.approx(values[theirs], abs=1e-12)
    with pytest.raises(ValueError, match="mixed"):
        rk.evaluate(*frames, ["alpha_nDCG@5", "P@5"])
    with pytest.raises(ValueError, match="ties"):
        rk.evaluate(*frames, ["NRBP"], ties="average")
