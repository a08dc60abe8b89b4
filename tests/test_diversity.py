"""Tests of rankedu/metrics/diversity.py and rankedu/trec/diversity.py: the worked examples
the chapter prints, independent computations (brute force, rk.err, a hand-written α-DCG) and
pyndeval 0.0.8 (ndeval v4.5) and ir_measures 0.4.3 on generated subtopic qrels and runs."""

import csv
import gzip
import inspect
import io
import itertools
import json
import math
import re
import sys

import numpy as np
import pandas as pd
import pytest

import rankedu as rk
from rankedu.cli import main
from rankedu.trec.diversity import MEASURES as DECLARED

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


def test_d_sharp_ndcg_equals_its_definition_computed_by_hand():
    # Sakai and Song's (2011) definitions, computed here without rankedu: no published worked
    # example with numbers was found to check against, so this is an independent computation
    # of GG(d) = Σ_t P(t|q) g_t(d), D-nDCG@k = Σ_{r<=k} GG(r)/log2(r+1) over the same sum for
    # the pool sorted by GG (cut at k; the whole pool without k), I-rec@k = the share of the
    # intents with a grade > 0 in the top k, and D#-nDCG = γ I-rec + (1 - γ) D-nDCG.
    weights = {"car": 0.6, "cat": 0.3, "os": 0.1}
    ranking = [{"car": 2}, {"car": 1}, {"cat": 2}, {}, {"cat": 1, "car": 1}]
    pool = [*ranking, {"os": 2, "cat": 1}, {"os": 1}]

    def gg(grades):
        return sum(weights[t] * g for t, g in grades.items())

    def by_hand(k, gamma):
        depth = len(ranking) if k is None else k
        dcg = sum(gg(d) / math.log2(r + 2) for r, d in enumerate(ranking[:depth]))
        ideal = sorted(map(gg, pool), reverse=True)[:k]
        idcg = sum(g / math.log2(r + 2) for r, g in enumerate(ideal))
        covered = {t for d in ranking[:depth] for t, g in d.items() if g > 0}
        return gamma * len(covered) / len(weights) + (1 - gamma) * dcg / idcg

    for k in (1, 3, 5, 7, None):
        for gamma in (0.5, 0.2):
            value = rk.d_sharp_ndcg(ranking, k=k, pool=pool, gamma=gamma, weights=weights,
                                    intents=list(weights))
            assert value == pytest.approx(by_hand(k, gamma), abs=1e-12), (k, gamma)
    # The step table's columns are rk.ndcg's running share and subtopic recall.
    table = rk.explain.d_sharp_ndcg(ranking, k=3, pool=pool, weights=weights,
                                    intents=list(weights)).table
    assert table["I-rec@i"].tolist() == [rk.subtopic_recall(
        [set(d) for d in ranking], k=i, intents=list(weights)) for i in (1, 2, 3)]


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


# Every declared measure, at the cutoffs ndeval computes (ERR_IA@1 is its special case), named
# as rk.evaluate and as pyndeval write them: the declarations give both names.
MEASURES = {f"{m.name}@{k}" if m.cutoff else m.name: m.ndeval_name(k if m.cutoff else None)
            for m in DECLARED.values() for k in (1, 5, 20)}


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


def frames(qrels, run):
    return (pd.DataFrame(qrels, columns=["qid", "subtopic", "docno", "rel"]),
            pd.DataFrame(run, columns=["qid", "docno", "score"]))


def independent_lists(qrels, run, qid, descending):
    """One query's intents per rank, its pool and its intents, built from the tuples without
    rankedu: ties by docno descending (trec_eval, textbook) or ascending (ndeval)."""
    relevant = {(d, t) for q, t, d, r in qrels if q == qid and r >= 1}
    intents = sorted({t for _, t in relevant})
    docs = [(d, s) for q, d, s in run if q == qid]
    docs.sort(key=lambda pair: pair[0], reverse=descending)
    docs.sort(key=lambda pair: -pair[1])
    pool_docs = sorted({d for q, _, d, _ in qrels if q == qid}, reverse=True)
    return ([{t for t in intents if (d, t) in relevant} for d, _ in docs],
            [{t for t in intents if (d, t) in relevant} for d in pool_docs], intents)


@pytest.mark.parametrize("conventions", ["textbook", "ndeval"])
def test_every_declared_measure_equals_its_per_list_function_per_query(conventions):
    # The registry's common test for the diversity declarations: rk.evaluate (ties, cutoffs
    # past the end and k = 30 with the textbook's conventions) against the declared per-list
    # function on lists built independently; ndeval's ERR_IA divided by its ideal ideal.
    qrels, run = generated(13, queries=12)
    cutoffs = (1, 3, 30) if conventions == "textbook" else (1, 3, 20)
    names = {f"{m.name}@{k}" if m.cutoff else m.name: (m, k if m.cutoff else None)
             for m in DECLARED.values() for k in cutoffs}
    result = rk.evaluate(*frames(qrels, run), list(names), conventions=conventions)
    assert len(result) == len({q for q, *_ in run} & {q for q, *_ in qrels})
    for qid in result.index:
        listed, pool, intents = independent_lists(qrels, run, qid,
                                                  descending=conventions == "textbook")
        for name, (measure, k) in names.items():
            arguments = {"subtopics": listed, "intents": intents, "k": k, "pool": pool}
            accepted = set(inspect.signature(measure.function).parameters)
            expected = measure.function(**{a: v for a, v in arguments.items()
                                           if a in accepted}) if intents else 0.0
            if measure.name == "ERR_IA" and conventions == "ndeval" and intents:
                # ndeval: Σ_t Σ_i J (1-α)^c / i over S Σ_i (1-α)^(i-1) / i; at k = 1 the
                # sum over the intents, undivided (α = 0.5).
                expected /= (0.5 / len(intents) if k == 1 else
                             0.5 * sum(0.5 ** i / (i + 1) for i in range(k)))
            assert result.loc[qid, name] == pytest.approx(expected, abs=1e-12), (qid, name)


@pytest.mark.parametrize("conventions", [None, "textbook"])
def test_explain_query_gives_evaluates_value_with_its_tables(conventions):
    qrels, run = generated(21, queries=6)
    names = list(MEASURES)
    values = rk.evaluate(*frames(qrels, run), names, conventions=conventions)
    for qid in values.index[:3]:
        explained = rk.explain.query(*frames(qrels, run), qid, names, conventions=conventions)
        for name, explanation in explained.items():
            assert explanation.value == values.loc[qid, name], (qid, name)
            ranking = explanation.tables["ranking"]
            assert list(ranking.columns) == ["rank", "docno", "score", "intents"]
            if name.startswith("ERR_IA") and conventions is None:
                last = explanation.tables["ndeval's normalisation"][name].iloc[-1]
            else:
                table = explanation.table
                last = table[[c for c in table.columns if c.endswith("@i")][-1]].iloc[-1]
            assert last == pytest.approx(explanation.value, abs=1e-12), (qid, name)
    with pytest.raises(ValueError, match="^qid: the qrels have no query 'nope'"):
        rk.explain.query(*frames(qrels, run), "nope", "NRBP")
    with pytest.raises(ValueError, match="^qid: the run has no query 'q1'"):
        rk.explain.query(*frames(qrels, [line for line in run if line[0] != "q1"]), "q1",
                         "NRBP")


def test_options_and_mixing_are_errors_naming_the_argument():
    qrels, run = frames(*generated(3, queries=4))
    with pytest.raises(ValueError, match="^conventions: only the diversity measures"):
        rk.evaluate(qrels, run, ["P@5"], conventions="textbook")
    with pytest.raises(ValueError, match="^conventions: only the diversity measures"):
        rk.explain.query({"q": {"a": 1}}, {"q": {"a": 1.0}}, "q", "P@1",
                         conventions="ndeval")
    with pytest.raises(ValueError, match="^conventions must be one of"):
        rk.evaluate(qrels, run, ["NRBP"], conventions="trec_eval")
    with pytest.raises(ValueError, match="^measures: the diversity measures .* cannot be "
                                         "mixed"):
        rk.evaluate(qrels, run, ["NRBP", "AP"])
    with pytest.raises(ValueError, match=r"^ties='optimistic': not an option of the div"):
        rk.explain.query(qrels, run, "q0", "NRBP", ties="optimistic")
    for written, meant in [("alpha_ndcg@10", "alpha_nDCG@10"), ("ERR-IA@5", "ERR_IA@5"),
                           ("strec@10", "StRecall@10"), ("nrbp", "NRBP")]:
        with pytest.raises(ValueError, match=f"did you mean '{meant}'"):
            rk.evaluate(qrels, run, [written])
    # The functions that take ordinary qrels only say so (they had suggested the very name
    # they refused: "unknown measure 'NRBP'; did you mean 'NRBP'?").
    for refuses in (lambda: rk.compare(qrels, {"a": run, "b": run}, ["NRBP"]),
                    lambda: rk.tie_interval(qrels, run, ["alpha_nDCG@10"])):
        with pytest.raises(ValueError, match="^measures: '[^']+' is a diversity measure, of "
                                             "subtopic qrels: only evaluate and explain"):
            refuses()


def write_files(tmp_path, qrels, run):
    qrels_path, run_path = tmp_path / "subtopics.qrels", tmp_path / "r.run"
    qrels_path.write_text("# subtopic judgments\n" + "".join(
        f"{q} {t} {d} {r}\n" for q, t, d, r in qrels))
    run_path.write_text("".join(f"{q} Q0 {d} {i} {s} tag\n"
                                for i, (q, d, s) in enumerate(run, start=1)))
    return str(qrels_path), str(run_path)


@pytest.mark.parametrize("form", ["csv", "json", "jsonl", "trec_eval"])
def test_the_command_line_prints_evaluates_values_in_every_format(tmp_path, capsys, form):
    qrels, run = generated(4, queries=5)
    paths = write_files(tmp_path, qrels, run)
    names = ["alpha_nDCG@10", "ERR_IA@5", "NRBP", "P_IA@5", "StRecall@10"]
    for conventions in ("ndeval", "textbook"):
        expected = rk.evaluate(*frames(qrels, run), names, conventions=conventions)
        assert main(["evaluate", *paths, "-m", *names, "-q", "--format", form,
                     "--conventions", conventions]) == 0
        out = capsys.readouterr().out
        if form == "csv":
            rows = {row["qid"]: row for row in csv.DictReader(io.StringIO(out))}
            got = {(q, n): float(rows[q][n]) for q in expected.index for n in names}
            means = {n: float(rows["all"][n]) for n in names}
        elif form == "json":
            data = json.loads(out)
            got = {(q, n): data["queries"][q][n] for q in expected.index for n in names}
            means = data["all"]
        elif form == "jsonl":
            rows = {row["qid"]: row for row in map(json.loads, out.splitlines())}
            got = {(q, n): rows[q][n] for q in expected.index for n in names}
            means = rows["all"]
        else:
            lines = [line.split("\t") for line in out.splitlines()]
            printed = {(q, n.strip()): float(v) for n, q, v in lines if n.strip() in names}
            got = {key: printed[key] for key in itertools.product(expected.index, names)}
            means = {n: printed[("all", n)] for n in names}
        tolerance = 0.5e-4 if form == "trec_eval" else 0.0
        for (qid, name), value in got.items():
            assert value == pytest.approx(expected.loc[qid, name], abs=tolerance)
        for name in names:
            assert means[name] == pytest.approx(expected[name].mean(), abs=tolerance)


def test_the_command_line_explains_and_refuses_what_it_cannot_do(tmp_path, capsys):
    qrels, run = generated(4, queries=3)
    paths = write_files(tmp_path, qrels, run)
    value = float(rk.evaluate(*frames(qrels, run), ["ERR_IA@5"]).loc["q0", "ERR_IA@5"])
    assert main(["explain", *paths, "q0", "-m", "ERR_IA@5", "--top", "3"]) == 0
    out = capsys.readouterr().out
    assert "ndeval's normalisation" in out and out.rstrip().endswith(f"= {value!r}")
    for argv, message in [
        (["-m", "ERR_IA@5", "P@5"], "-m: the diversity measures"),
        (["-m", "P@5", "--conventions", "textbook"], "--conventions: only the diversity"),
        (["-m", "NRBP", "--ties", "average"], "--ties average: not an option"),
        (["-m", "ERR_IA@30"], "use --conventions textbook"),
        (["-m", "alpha-nDCG@5"], "did you mean 'alpha_nDCG@5'"),
    ]:
        assert main(["evaluate", *paths, *argv]) == 2
        assert message in capsys.readouterr().err, argv
    assert main(["evaluate", "-m", "NRBP", *paths]) == 0  # -m just before the files
    assert "StRecall@k" in rk.cli._parser().format_help()


def test_read_subtopic_qrels_reads_as_read_qrels_does(tmp_path, monkeypatch):
    text = "# topic 1\nq1 1 d1 1\n\n  # a note\nq1 2 d1 0\nq2 1 d3 2\n"
    path = tmp_path / "s.qrels"
    path.write_text(text)
    expected = pd.DataFrame({"qid": ["q1", "q1", "q2"], "subtopic": ["1", "2", "1"],
                             "docno": ["d1", "d1", "d3"], "rel": [1, 0, 2]})
    pd.testing.assert_frame_equal(rk.read_subtopic_qrels(path), expected)
    zipped = tmp_path / "s.qrels.gz"
    zipped.write_bytes(gzip.compress(text.encode()))
    pd.testing.assert_frame_equal(rk.read_subtopic_qrels(zipped), expected)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    pd.testing.assert_frame_equal(rk.read_subtopic_qrels("-"), expected)
    for content, message in [
        (b"q1 1 d1 1\nq1 1 d1\n", "line 2: malformed line (expected 4 fields"),
        (b"q1 1 d1 1\nq1 1 d1 1.5\n", "line 2: malformed line (the relevance grade"),
        (b"q1 1 d1 1\n# c\nq1 2 d1 1\nq1 1 d1 0\n", "line 4: document 'd1' is judged "
                                                      "twice for query 'q1' and subtopic '1'"),
        (b"\x00\x01", "holds a NUL byte"),
    ]:
        path.write_bytes(content)
        with pytest.raises(ValueError, match=re.escape(f"qrels file {str(path)!r}") + ".*"
                                             + re.escape(message)):
            rk.read_subtopic_qrels(path)
