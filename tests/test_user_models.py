"""Tests of rankedu/metrics/user_models.py: RBP, INST and the C/W/L machinery, against their closed
forms, brute force, the other metrics of the book, and cwl-eval 1.0.12 itself."""

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rankedu as rk
from rankedu.metrics.user_models import cwl_weights

gains_lists = st.lists(st.floats(0, 1), max_size=60)
binary_lists = st.lists(st.integers(0, 1), max_size=60)
persistence = st.floats(0.01, 0.99)


# --- RBP ----------------------------------------------------------------------------------------

@given(gains_lists, persistence)
def test_rbp_is_its_closed_form(gains, p):
    expected = (1 - p) * math.fsum(p ** (i - 1) * g for i, g in enumerate(gains, start=1))
    assert rk.rbp(gains, p) == pytest.approx(expected, rel=1e-12, abs=1e-15)


@given(gains_lists, persistence, st.integers(1, 80))
def test_rbp_read_to_a_depth_is_normalised_over_that_depth(gains, p, depth):
    # cwl-eval's convention: W(i) = p^(i-1) / sum_{k<depth} p^k over the first `depth` ranks.
    normaliser = math.fsum(p**k for k in range(depth))
    expected = math.fsum(p ** (i - 1) * g for i, g in enumerate(gains[:depth], start=1)) / normaliser
    assert rk.rbp(gains, p, depth=depth) == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_rbp_worked_example_and_its_table(column_like):
    explanation = rk.explain.rbp([1, 0, 1, 0], p=0.5, judged=[True, True, False, True])
    assert explanation.value == rk.rbp([1, 0, 1, 0], p=0.5) == 0.5 * (1 + 0.25)
    table = explanation.table
    column_like(table, [0.5, 0.25, 0.125, 0.0625])  # W(i) = (1 - p) p^(i-1)
    column_like(table, [0.5, 0.5, 0.625, 0.625])  # the running result
    residual = explanation.tables["residual"].set_index("where")["weight"]
    assert residual["unjudged documents"] == 0.125  # W(3), the unjudged rank
    assert residual["past the end of the list"] == 0.5**4  # p^n
    assert residual["residual"] == 0.125 + 0.0625


@given(binary_lists, persistence)
def test_rbp_residual_is_the_rise_if_everything_unread_or_unjudged_were_relevant(rels, p):
    # Unjudged documents are every other one; the residual is what they and an endless tail of
    # relevant documents would add: RBP(best case) - RBP(as judged).
    judged = [i % 2 == 0 for i in range(len(rels))]
    scored = [g if j else 0 for g, j in zip(rels, judged)]
    best = [g if j else 1 for g, j in zip(rels, judged)]
    tail = p ** len(rels)  # (1 - p) sum_{i > n} p^(i-1)
    residual = rk.explain.rbp(scored, p, judged=judged).tables["residual"]
    assert residual["weight"].iloc[-1] == pytest.approx(rk.rbp(best, p) + tail - rk.rbp(scored, p),
                                                        abs=1e-12)


def test_rbp_rises_with_p_on_a_list_that_finds_everything_late():
    assert rk.rbp([0, 0, 0, 1, 1, 1], 0.5) < rk.rbp([0, 0, 0, 1, 1, 1], 0.9)
    assert rk.rbp([1, 0, 0, 0, 0, 0], 0.5) > rk.rbp([1, 0, 0, 0, 0, 0], 0.9)


# --- INST -----------------------------------------------------------------------------------------

def brute_inst(gains, T, depth):
    """INST straight from its definition, one rank at a time, in exact-ish Python floats."""
    gains = list(gains[:depth]) + [0.0] * max(depth - len(gains), 0)
    reach, reaches, total = 1.0, [], 0.0
    for i, g in enumerate(gains, start=1):
        reaches.append(reach)
        total += g
        still = T - total
        reach *= ((i + T + still - 1) / (i + T + still)) ** 2
    norm = math.fsum(reaches)
    return math.fsum(r / norm * g for r, g in zip(reaches, gains))


@given(gains_lists, st.floats(0.25, 5), st.integers(1, 120))
def test_inst_is_its_definition(gains, T, depth):
    assert rk.inst(gains, T, depth=depth) == pytest.approx(brute_inst(gains, T, depth), rel=1e-9,
                                                           abs=1e-12)


def test_inst_worked_example():
    # C(1) = ((1+1+0-1)/(1+1+0))^2 = 1/4, C(2) = (2/3)^2: reach 1, 1/4, 1/9, sum 49/36.
    explanation = rk.explain.inst([1, 0, 1], T=1, depth=3)
    assert explanation.value == pytest.approx(40 / 49, abs=1e-15)
    assert explanation.table["C(i)"].tolist()[:2] == pytest.approx([1 / 4, 4 / 9])
    assert explanation.table["W(i)"].tolist() == pytest.approx([36 / 49, 9 / 49, 4 / 49])


def test_inst_user_reads_further_when_she_wants_more():
    # The expected depth 1/W(1) grows with T on a list with no relevant document.
    depths = [1 / rk.explain.inst([0] * 10, T=T).table["W(i)"].iloc[0] for T in (1, 2, 3)]
    assert depths[0] < depths[1] < depths[2]


# --- the C/W/L machinery ----------------------------------------------------------------------

def continuation_of(metric, rels, depth):
    """C(i) of the book's metrics, over `depth` ranks (cwl-eval's definitions)."""
    rels = np.r_[np.asarray(rels, float), np.zeros(depth - len(rels))]
    i = np.arange(1, depth + 1)
    if metric == "P@3":
        return (i < 3).astype(float)
    if metric == "DCG@3":  # scaled DCG: C(i) = log2(i+1) / log2(i+2) before k
        return np.where(i < 3, np.log2(i + 1) / np.log2(i + 2), 0.0)
    if metric == "RR":
        found = np.cumsum(rels) > 0
        return (~found).astype(float)
    if metric == "AP":  # C(i) = sum_{j>i} g_j/j / sum_{j>=i} g_j/j
        suffix = np.cumsum((rels / i)[::-1])[::-1]
        after = np.r_[suffix[1:], 0.0]
        return np.divide(after, suffix, out=np.zeros(depth), where=after > 0)
    raise AssertionError(metric)


@given(binary_lists.filter(lambda r: len(r) <= 20), st.sampled_from(["P@3", "DCG@3", "RR", "AP"]))
def test_each_metric_is_a_cwl_metric_whose_weights_sum_to_1(rels, metric):
    depth = 20
    table = cwl_weights(continuation_of(metric, rels, depth))
    assert table["W(i)"].sum() == pytest.approx(1.0, abs=1e-12)
    padded = np.r_[rels, np.zeros(depth - len(rels))]
    expected_rate = float(table["W(i)"] @ padded)
    book = {
        "P@3": rk.precision_at_k(rels, 3),
        "DCG@3": rk.dcg(rels, 3) / sum(1 / math.log2(i + 1) for i in (1, 2, 3)),
        "RR": rk.reciprocal_rank(rels),
        # AP as C/W/L divides by the relevant documents *retrieved* (cwl-eval's AP)
        "AP": rk.average_precision(rels),
    }[metric]
    assert expected_rate == pytest.approx(book, abs=1e-12)


@given(gains_lists, persistence, st.floats(0.25, 5))
def test_rbp_and_inst_weights_sum_to_1_with_the_padding(gains, p, T):
    for explanation in (rk.explain.rbp(gains, p), rk.explain.rbp(gains, p, depth=50),
                        rk.explain.inst(gains, T, depth=50)):
        beyond = explanation.tables.get("residual")
        if explanation.name == "inst":
            past = explanation.tables["past the end of the list"]["W (sum)"].iloc[0]
        else:
            past = beyond.set_index("where")["weight"]["past the end of the list"]
        assert explanation.table["W(i)"].sum() + past == pytest.approx(1.0, abs=1e-12)


def test_cwl_weights_follow_from_continuation():
    table = cwl_weights([0.5, 0.5, 0.0])
    assert table["W(i)"].tolist() == [4 / 7, 2 / 7, 1 / 7]
    assert table["L(i)"].tolist() == [0.5, 0.25, 0.25]


# --- bad input ----------------------------------------------------------------------------------

@pytest.mark.parametrize("p", [0, 1, -0.5, 1.5])
def test_rbp_rejects_p_outside_0_1_naming_p(p):
    with pytest.raises(ValueError, match="^p must lie in"):
        rk.rbp([1, 0], p)


@pytest.mark.parametrize("function", [rk.rbp, rk.inst])
@pytest.mark.parametrize("rels", [[2, 0], [1, -0.5]])
def test_gains_outside_0_1_raise_naming_rels(function, rels):
    with pytest.raises(ValueError, match="^rels must hold gains in"):
        function(rels)


@pytest.mark.parametrize("function", [rk.rbp, rk.inst])
def test_bad_depth_and_types_raise_naming_the_argument(function):
    with pytest.raises(ValueError, match="^depth"):
        function([1], depth=0)
    with pytest.raises(ValueError, match="^depth must be at most"):
        function([1], depth=10**7)
    with pytest.raises(TypeError, match="^rels"):
        function("101")
    with pytest.raises(ValueError, match="^rels must hold finite"):
        function([float("nan")])
    with pytest.raises(ValueError, match="^depth"):
        rk.inst([1], depth=None)


def test_judged_must_match_rels():
    with pytest.raises(ValueError, match="rels and judged must have the same length"):
        rk.rbp([1, 0], judged=[True])
    with pytest.raises(ValueError, match="^judged must hold only 0 and 1"):
        rk.rbp([1, 0], judged=[1, 2])


def test_evaluate_rejects_grades_above_1_and_bad_parameters():
    qrels, run = {"q": {"a": 2}}, {"q": {"a": 1.0}}
    with pytest.raises(ValueError, match="qrels: RBP and INST read a grade as a gain"):
        rk.evaluate(qrels, run, ["RBP(p=0.8)"])
    with pytest.raises(ValueError, match="^p must lie in"):
        rk.evaluate({"q": {"a": 1}}, run, ["RBP(p=1.0)"])
    with pytest.raises(ValueError, match=r"^T must lie in \[0.25, 1e\+06\]"):
        rk.evaluate({"q": {"a": 1}}, run, ["INST(T=0)"])


def test_a_grade_above_1_is_refused_whatever_the_run_retrieves_as_cwl_eval_refuses_it():
    # cwl-eval 1.0.12 checks every qrels gain ("Detected a gain value (2.0) greater than the
    # maximum (1.0)"); the run here retrieves only b, judged 1.
    qrels, run = {"q": {"a": 2, "b": 1}}, {"q": {"b": 1.0}}
    for measure in ("RBP(p=0.8)", "INST(T=1)"):
        with pytest.raises(ValueError, match=r"query 'q' judges 'a' 2: divide the grades"):
            rk.evaluate(qrels, run, [measure])
        with pytest.raises(ValueError, match=r"query 'q' judges 'a' 2"):
            rk.explain.query(qrels, run, "q", measure)
    assert rk.evaluate(qrels, run, ["AP"]).iloc[0, 0] == 0.5  # other measures read grades


@pytest.mark.parametrize("T", [-1, 0, 0.1, 0.2499, 1e-300, 5e-324, 1e6 + 1, 1e308])
def test_inst_refuses_a_target_where_c_is_no_probability_or_overflows(T):
    # cwl-eval 1.0.12 returns C(1) = 16 at T = 0.1 and NaN at T = 1e-300 or 1e308.
    for call in (lambda: rk.inst([1, 0, 1], T), lambda: rk.explain.inst([1, 0, 1], T),
                 lambda: rk.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, [f"INST(T={T!r})"])):
        with pytest.raises(ValueError, match=r"^T must lie in \[0.25, 1e\+06\]"):
            call()


@given(gains_lists, st.floats(0.25, 1e6), st.integers(1, 60))
def test_inst_continuation_is_a_probability_for_every_accepted_target(gains, T, depth):
    table = rk.explain.inst(gains, T, depth=depth).table
    assert ((table["C(i)"] >= 0) & (table["C(i)"] <= 1)).all()
    assert 0 <= rk.inst(gains, T, depth=depth) <= 1


@given(gains_lists, persistence, st.integers(1, 80))
def test_rbp_with_judged_reads_only_the_judgments_of_the_ranks_within_depth(gains, p, depth):
    # A list longer than depth raised an IndexError (the table was cut, the mask was not).
    judged = [i % 3 != 1 for i in range(len(gains))]
    scored = [g if j else 0.0 for g, j in zip(gains, judged)]
    explanation = rk.explain.rbp(scored, p, depth=depth, judged=judged)
    assert explanation.value == rk.rbp(scored, p, depth=depth, judged=judged)
    table = explanation.table
    unjudged = sum(w for w, j in zip(table["W(i)"], judged[:depth]) if not j)
    residual = explanation.tables["residual"].set_index("where")["weight"]
    assert residual["unjudged documents"] == pytest.approx(unjudged, abs=1e-15)


def test_rbp_cut_at_depth_with_judged_is_cwl_evals_value():
    # cwl-eval with max_n=2 gives 0.6666666666666666 and residual 0.3333 for [1, 0, 1], p=0.5.
    assert rk.rbp([1, 0, 1], 0.5, depth=2, judged=[True, True, True]) == 2 / 3
    assert rk.rbp([1] * 1001, 0.8, depth=1000, judged=[1] * 1001) == pytest.approx(1.0)


def test_evaluate_rbp_costs_the_run_not_queries_times_depth():
    # 1,000 ten-document queries at depth 10^6 padded 10^9 cells (10.7 s); RBP's weights are the
    # same for every list, so the kernel reads only the run's own ranks. Measured by memory,
    # which does not depend on the machine's speed: 10^9 cells would be 8 GB at once.
    import tracemalloc

    run = {f"q{i}": {f"d{j}": 10.0 - j for j in range(10)} for i in range(1000)}
    qrels = {f"q{i}": {"d1": 1, "d3": 1} for i in range(1000)}
    tracemalloc.start()
    result = rk.evaluate(qrels, run, ["RBP(p=0.8, depth=1000000)"])
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 100 * 2**20  # one weight vector of 10^6 doubles is 8 MB
    assert result.iloc[:, 0].tolist() == [rk.rbp([0, 1, 0, 1], 0.8, depth=10**6)] * 1000


def test_empty_list_scores_0():
    assert rk.rbp([]) == 0.0 and rk.inst([]) == 0.0


# --- evaluate against cwl-eval 1.0.12 -----------------------------------------------------------

def generated_collection(seed=12, n_queries=150):
    """Binary qrels and a run: lists of 1-300 documents, many of them not in the qrels, written
    best first with distinct scores (so file order, cwl-eval's, is trec_eval's order too)."""
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in range(n_queries):
        qid = f"q{q:03d}"
        judged = [f"d{q}_{j}" for j in range(int(rng.integers(1, 120)))]
        qrels[qid] = {d: int(rng.random() < 0.3) for d in judged}
        n = int(rng.integers(1, 301))
        pool = judged + [f"u{q}_{j}" for j in range(300)]  # unjudged documents
        docs = rng.choice(pool, size=n, replace=False)
        scores = np.sort(rng.choice(10**6, size=n, replace=False))[::-1] / 1000
        run[qid] = dict(zip(docs.tolist(), scores.tolist()))
    return qrels, run


def write_trec(tmp_path, qrels, run):
    qrels_path, run_path = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels_path.write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items()
                                  for d, g in docs.items()))
    run_path.write_text("".join(f"{q} Q0 {d} {r} {s:.3f} sys\n" for q, docs in run.items()
                                for r, (d, s) in enumerate(docs.items(), start=1)))
    return qrels_path, run_path


CWL_MEASURES = {"RBP(p=0.8)": "RBP@0.8", "RBP(p=0.5)": "RBP@0.5", "RBP(p=0.95)": "RBP@0.95",
                "INST(T=1)": "INST-T=1.0", "INST(T=3)": "INST-T=3.0"}
CWL_METRICS_FILE = ("RBPCWLMetric(0.8)\nRBPCWLMetric(0.5)\nRBPCWLMetric(0.95)\n"
                    "INSTCWLMetric(1.0)\nINSTCWLMetric(3.0)\n")


def test_evaluate_prints_what_the_cwl_eval_command_prints(tmp_path):
    qrels, run = generated_collection()
    qrels_path, run_path = write_trec(tmp_path, qrels, run)
    metrics = tmp_path / "metrics.txt"
    metrics.write_text(CWL_METRICS_FILE)
    command = Path(sys.executable).with_name("cwl-eval")
    done = subprocess.run([str(command), str(qrels_path), str(run_path), "-m", str(metrics)],
                          capture_output=True, text=True, check=True, cwd=tmp_path)
    printed = {(line.split("\t")[0], line.split("\t")[1].strip()): line.split("\t")[2]
               for line in done.stdout.splitlines()}
    result = rk.evaluate(qrels_path, run_path, list(CWL_MEASURES))
    assert len(printed) == len(qrels) * len(CWL_MEASURES)
    for (qid, name), value in printed.items():
        ours = {v: k for k, v in CWL_MEASURES.items()}[name]
        assert f"{result.loc[qid, ours]:.4f}" == value, (qid, name)


def test_evaluate_equals_cwl_evals_expected_utility_query_by_query():
    # cwl-eval's Python API gives the unrounded numbers. Both within 1e-15: cwl-eval squares
    # INST's C(i) with C's pow, which can be one unit in the last place off, and it sums RBP's
    # W(i) g_i as a dot product over the padded depth, where rankedu sums the list's own ranks
    # down the list (the same terms in another order, so that a query costs its length).
    from cwl.ruler.measures.cwl_inst import INSTCWLMetric
    from cwl.ruler.measures.cwl_rbp import RBPCWLMetric
    from cwl.ruler.ranking import Ranking

    qrels, run = generated_collection(seed=7)
    result = rk.evaluate(qrels, run, list(CWL_MEASURES))
    for qid, docs in run.items():
        gains = [qrels[qid].get(d, np.nan) for d in docs]  # file order; NaN: unjudged
        ranking = Ranking(qid, gains, [np.nan] * len(gains))
        for name, metric in [("RBP(p=0.8)", RBPCWLMetric(0.8)), ("RBP(p=0.5)", RBPCWLMetric(0.5)),
                             ("RBP(p=0.95)", RBPCWLMetric(0.95)),
                             ("INST(T=1)", INSTCWLMetric(1.0)), ("INST(T=3)", INSTCWLMetric(3.0))]:
            theirs = metric.measure(ranking)
            assert result.loc[qid, name] == pytest.approx(theirs, rel=1e-14, abs=1e-15)


def test_evaluate_equals_the_per_list_functions_exactly():
    qrels, run = generated_collection(seed=3, n_queries=40)
    result = rk.evaluate(qrels, run, ["RBP(p=0.8)", "INST(T=2)", "RBP(p=0.5, depth=10)"])
    for qid in run:
        rels = rk.ranked_list(qrels, run, qid)["grade"].to_numpy()
        assert result.loc[qid, "RBP(p=0.8)"] == rk.rbp(rels, 0.8, depth=1000)
        assert result.loc[qid, "INST(T=2)"] == rk.inst(rels, 2)
        assert result.loc[qid, "RBP(p=0.5, depth=10)"] == rk.rbp(rels, 0.5, depth=10)
        explained = rk.explain.query(qrels, run, qid, "INST(T=2)")
        assert explained.value == result.loc[qid, "INST(T=2)"]


def test_evaluate_reads_past_1000_documents_as_cwl_eval_does():
    # cwl-eval truncates a list at depth 1000: a relevant document at rank 1001 adds nothing.
    run = {"q": {f"d{i}": 2000.0 - i for i in range(1001)}}
    qrels = {"q": {"d1000": 1}}
    result = rk.evaluate(qrels, run, ["RBP(p=0.999)", "INST(T=1)"])
    assert result.loc["q"].tolist() == [0.0, 0.0]
    assert rk.evaluate(qrels, run, ["RBP(p=0.999, depth=1001)"]).iloc[0, 0] > 0
