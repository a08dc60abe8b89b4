"""IPrec@r, IPrecAvg, infAP and Unjudged@k: trec_eval 10's iprec_at_recall, 11pt_avg, infAP
and unj, checked query by query against the trec_eval program
(``rankedu.teaching.trec_eval_program``) at the four decimals it prints, on its own test data and on generated collections, and by hand.

trec_eval's names and rankedu's:

- ``iprec_at_recall`` (levels 0, 0.1, ..., 1; ``iprec_at_recall..10,.25``): ``IPrec@0.1``, ...
  printed ``iprec_at_recall_0.10``;
- ``11pt_avg`` (``11pt_avg..25,.5,.75``): ``IPrecAvg`` (``IPrecAvg(points=0.25;0.5;0.75)``),
  printed ``11pt_avg`` (``11pt_avg_.25,.5,.75``);
- ``infAP``: ``infAP``;
- ``unj`` (cutoffs 5, 10, 20; ``unj.1,3``): ``Unjudged@5``, ..., printed ``unj_5``.
"""

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rankedu as rk
from conftest import TREC_EVAL_DATA
from rankedu.trec.join import _one_query
from rankedu.trec.measures import parse
from rankedu.teaching.trec_eval_program import run as trec_eval

LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)

# (trec_eval's -m, {trec_eval's printed name: rankedu's name}) of each family.
FAMILIES = {
    "iprec": ("iprec_at_recall", {f"iprec_at_recall_{r:.2f}": f"IPrec@{r}" for r in LEVELS}),
    "iprec_params": ("iprec_at_recall..10,.20,.25,.75,.50",
                     {f"iprec_at_recall_{r:.2f}": f"IPrec@{r}"
                      for r in (0.1, 0.2, 0.25, 0.5, 0.75)}),
    "11pt": ("11pt_avg", {"11pt_avg": "IPrecAvg"}),
    "11pt_params": ("11pt_avg..25,.5,.75",
                    {"11pt_avg_.25,.5,.75": "IPrecAvg(points=.25;.5;.75)"}),
    "3pt": ("11pt_avg.0.2,0.5,0.8", {"11pt_avg_0.2,0.5,0.8": "IPrecAvg(points=0.2;0.5;0.8)"}),
    "infAP": ("infAP", {"infAP": "infAP"}),
    "unj": ("unj", {f"unj_{k}": f"Unjudged@{k}" for k in (5, 10, 20)}),
    "unj_params": ("unj.1,3,100", {f"unj_{k}": f"Unjudged@{k}" for k in (1, 3, 100)}),
}


def printed(qrels, run, family, level=1, complete=False):
    """trec_eval's per-query and 'all' lines for ``family``: {(measure, qid): text};
    ``complete``: with -c (a judged query the run misses scores 0)."""
    flags = ["-c"] if complete else []
    done = trec_eval("-q", *flags, f"-l{level}", "-m", FAMILIES[family][0], qrels, run)
    assert done.returncode == 0, done.stderr
    lines = (line.split() for line in done.stdout.splitlines())
    return {(measure, qid): value for measure, qid, value in lines}


def evaluated(qrels, run, names, level=1, complete=False):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", (rk.TieWarning, rk.QueryMismatchWarning))
        return rk.evaluate(str(qrels), str(run), list(names), threshold=level,
                           missing="zero" if complete else "skip")


def assert_prints_as_trec_eval(qrels, run, family, level=1, complete=False) -> int:
    """rk.evaluate's values, printed at trec_eval's 4 decimals, equal trec_eval's for every
    query and for 'all' (the mean); returns how many values were compared."""
    expected = printed(qrels, run, family, level, complete)
    names = FAMILIES[family][1]
    result = evaluated(qrels, run, names.values(), level, complete)
    assert {qid for _, qid in expected if qid != "all"} == set(result.index)
    for trec_name, ours in names.items():
        for qid in result.index:
            assert f"{result.loc[qid, ours]:.4f}" == expected[trec_name, qid], (trec_name, qid)
        assert f"{result[ours].mean():.4f}" == expected[trec_name, "all"], trec_name
    return len(names) * (len(result) + 1)


# --- trec_eval's own test data -------------------------------------------------------------------

# (qrels, run, -l, -c): results.trunc misses query 302 (trec_eval 10 needs -c).
VENDORED = [("qrels.test", "results.test", 1, False), ("qrels.test", "results.trunc", 1, True),
            ("qrels.rel_level", "results.test", 1, False),
            ("qrels.rel_level", "results.test", 2, False)]
NOT_INFAP = [family for family in FAMILIES if family != "infAP"]


@pytest.mark.parametrize("family", NOT_INFAP)
@pytest.mark.parametrize("qrels, run, level, complete", VENDORED,
                         ids=["test", "trunc", "l1", "l2"])
def test_evaluate_prints_as_trec_eval_on_its_test_data(qrels, run, level, complete, family):
    assert assert_prints_as_trec_eval(TREC_EVAL_DATA / qrels, TREC_EVAL_DATA / run, family,
                                      level, complete)


@pytest.mark.parametrize("run, complete", [("results.test", False), ("results.trunc", True)])
def test_infap_of_evaluate_prints_as_trec_eval_where_the_qrels_have_no_negative_grade(
        run, complete):
    assert_prints_as_trec_eval(TREC_EVAL_DATA / "qrels.test", TREC_EVAL_DATA / run, "infAP",
                               complete=complete)


def test_the_values_match_trec_evals_all_trec_output_for_query_303():
    # Numbers read from trec_eval 10.0's out.test.aq and out.test.aql (-l2), query 303.
    data = TREC_EVAL_DATA
    plain = evaluated(data / "qrels.test", data / "results.test",
                      ["IPrec@0.1", "IPrecAvg", "infAP", "Unjudged@20"]).loc["303"]
    assert [f"{v:.4f}" for v in plain] == ["0.1136", "0.1065", "0.0858", "0.0000"]
    graded = evaluated(data / "qrels.rel_level", data / "results.test",
                       ["IPrec@0.1", "IPrecAvg", "Unjudged@5", "Unjudged@10"], 2).loc["303"]
    assert [f"{v:.4f}" for v in graded] == ["0.1136", "0.1076", "0.2000", "0.5000"]


# --- infAP and the pool: negative grades --------------------------------------------------------


def per_list_infap(qrels_path, run_path, level):
    """infAP of every query of the run from rk.inferred_average_precision, the pool told apart
    from the judged documents as trec_eval does: listed in the qrels is pooled, with a grade
    >= 0 judged."""
    qrels, run = {}, {}
    for line in qrels_path.read_text().splitlines():
        qid, _, docno, grade = line.split()
        qrels.setdefault(qid, {})[docno] = int(grade)
    for line in run_path.read_text().splitlines():
        qid, _, docno, _, score, _ = line.split()
        run.setdefault(qid, {})[docno] = float(score)
    values = {}
    for qid in sorted(set(run) & set(qrels)):
        order = sorted(run[qid].items(), key=lambda item: (item[1], item[0]), reverse=True)
        grades = np.array([qrels[qid].get(docno, -2) for docno, _ in order])
        values[qid] = rk.inferred_average_precision(
            np.maximum(grades, 0), judged=grades >= 0, pooled=grades >= -1,
            n_relevant=sum(g >= level for g in qrels[qid].values()), threshold=level)
    return values


@pytest.mark.parametrize("level", [1, 2])
def test_the_per_list_infap_with_the_pool_prints_as_trec_eval_with_negative_grades(level):
    qrels, run = TREC_EVAL_DATA / "qrels.rel_level", TREC_EVAL_DATA / "results.test"
    expected = printed(qrels, run, "infAP", level)
    values = per_list_infap(qrels, run, level)
    assert {qid: f"{v:.4f}" for qid, v in values.items()} == {
        qid: text for (_, qid), text in expected.items() if qid != "all"}
    assert f"{np.mean(list(values.values())):.4f}" == expected["infAP", "all"]


def test_evaluates_infap_reads_a_negative_grade_as_pooled_but_not_judged():
    # Query 303 of qrels.rel_level grades 304 documents -1; trec_eval reads them as pooled
    # and prints 0.1200 (read as outside the pool, they would give 0.0823).
    qrels, run = TREC_EVAL_DATA / "qrels.rel_level", TREC_EVAL_DATA / "results.test"
    ours = evaluated(qrels, run, ["infAP"]).loc["303", "infAP"]
    assert (f"{ours:.4f}", printed(qrels, run, "infAP")["infAP", "303"]) == ("0.1200", "0.1200")
    (_, lists, _) = _one_query(qrels, run, "303")
    outside = rk.inferred_average_precision(lists.rels, lists.judged,
                                            n_relevant=lists.n_relevant)
    assert f"{outside:.4f}" == "0.0823"


# --- generated collections -----------------------------------------------------------------------


def write_collection(directory, seed, negative):
    """Qrels and a run written to files: 60 queries, tied scores, lists of 1..30 documents
    (shorter than unj's cutoffs), queries with nothing relevant, judged documents never
    retrieved, unjudged documents retrieved and, with ``negative``, grades of -1."""
    rng = np.random.default_rng(seed)
    qrels_lines, run_lines = [], []
    for q in range(60):
        docs = [f"d{j}" for j in rng.permutation(40)]
        judged = docs[:int(rng.integers(1, 25))]
        low = -1 if negative else 0
        grades = rng.integers(low, 1 if q % 6 == 0 else 4, size=len(judged))
        qrels_lines += [f"q{q} 0 {d} {g}" for d, g in zip(judged, grades)]
        retrieved = rng.choice(docs, size=int(rng.integers(1, 31)), replace=False)
        scores = rng.integers(0, 6, size=len(retrieved)) / 2
        run_lines += [f"q{q} Q0 {d} 0 {s} run" for d, s in zip(retrieved, scores)]
    qrels, run = directory / f"qrels.{seed}", directory / f"run.{seed}"
    qrels.write_text("\n".join(qrels_lines) + "\n")
    run.write_text("\n".join(run_lines) + "\n")
    return qrels, run


@pytest.mark.parametrize("level", [1, 2])
@pytest.mark.parametrize("seed, negative", [(1, False), (2, True), (3, True)])
def test_evaluate_prints_as_trec_eval_on_generated_collections(tmp_path, seed, negative, level):
    qrels, run = write_collection(tmp_path, seed, negative)
    families = NOT_INFAP if negative else FAMILIES
    compared = sum(assert_prints_as_trec_eval(qrels, run, family, level) for family in families)
    assert compared > 1000
    if negative:
        expected = printed(qrels, run, "infAP", level)
        values = per_list_infap(qrels, run, level)
        assert {qid: f"{v:.4f}" for qid, v in values.items()} == {
            qid: text for (_, qid), text in expected.items() if qid != "all"}


# --- by hand -------------------------------------------------------------------------------------


def test_iprec_rounds_the_level_times_r_as_trec_eval_10():
    rels = [1, 0, 1, 0, 0, 1]  # P@1 = 1, P@3 = 2/3, P@6 = 1/2; R = 3
    values = {r: rk.interpolated_precision(rels, r, convention="trec_eval") for r in LEVELS}
    # round(r * 3): 0 for 0 and 0.1 (the best anywhere), 1 up to 0.4, 2 from 0.5 (1.5 rounds
    # up) to 0.8, 3 from 0.9.
    assert values == {0.0: 1, 0.1: 1, 0.2: 1, 0.3: 1, 0.4: 1, 0.5: 2 / 3, 0.6: 2 / 3,
                      0.7: 2 / 3, 0.8: 2 / 3, 0.9: 0.5, 1.0: 0.5}
    # A fourth relevant document never retrieved: recall 1 is never reached.
    assert rk.interpolated_precision(rels, 1.0, n_relevant=4, convention="trec_eval") == 0
    assert rk.eleven_point_average_precision(rels, convention="trec_eval") == pytest.approx(
        (5 + 4 * 2 / 3 + 2 * 0.5) / 11)


def test_unjudged_is_one_minus_judged_only_when_the_list_reaches_k():
    judged = [True, False]  # 2 documents retrieved, 1 judged
    assert rk.unjudged_at_k(judged, 5) == 0.2
    assert 1 - rk.judged_at_k(judged, 5) == 0.5
    assert rk.unjudged_at_k(judged, 2) == 1 - rk.judged_at_k(judged, 2) == 0.5


def test_infap_of_a_fully_judged_list_is_ap_up_to_epsilon():
    rels = [0, 1, 1, 0, 1]
    # Rank 2: 1/2 + 1/2 * 1 * ε/(1 + 2ε); rank 3: 1/3 + 2/3 * (1 + ε)/(2 + 2ε) = 2/3 exactly
    # up to rounding; rank 5: 1/5 + 4/5 * (2 + ε)/(4 + 2ε).
    eps = 1e-5
    expected = (0.5 + 0.5 * eps / (1 + 2 * eps) + 2 / 3 + 0.2 + 0.8 * (2 + eps) / (4 + 2 * eps))
    assert rk.inferred_average_precision(rels, n_relevant=4) == pytest.approx(expected / 4)
    assert rk.inferred_average_precision(rels, n_relevant=4) == pytest.approx(
        rk.average_precision(rels, n_relevant=4), abs=1e-5)


def test_pooled_must_hold_every_judged_document():
    with pytest.raises(ValueError, match="pooled is False at position 1"):
        rk.inferred_average_precision([1, 0], pooled=[True, False])
    with pytest.raises(ValueError, match="pooled"):
        rk.inferred_average_precision([1, 0], pooled=[True])


# --- parsing -------------------------------------------------------------------------------------


def test_iprec_takes_a_recall_level_as_its_cutoff():
    assert [(m.measure.name, m.k) for m in parse(["IPrec@0.1", "IPrec@0", "IPrec@1", "IPrec@.25"])
            ] == [("IPrec", 0.1), ("IPrec", 0.0), ("IPrec", 1.0), ("IPrec", 0.25)]
    for bad in ("IPrec@1.5", "IPrec@-0.1", "IPrec@nan", "IPrec@0,1"):
        with pytest.raises(ValueError, match=r"^measures: the cutoff of .* recall level in"):
            parse([bad])
    with pytest.raises(ValueError, match="IPrec needs a cutoff"):
        parse(["IPrec"])


def test_iprecavg_points_are_written_with_semicolons_in_increasing_order():
    (spec,) = parse(["IPrecAvg(points=0.2;0.5;.8)"])
    assert spec.params == {"points": (0.2, 0.5, 0.8)}
    assert parse(["IPrecAvg"])[0].params == {"points": LEVELS}
    with pytest.raises(ValueError, match="points of 'IPrecAvg"):
        parse(["IPrecAvg(points=0.2;x)"])
    data = TREC_EVAL_DATA
    for points in ("0.5;0.2", "0.2;1.5"):
        with pytest.raises(ValueError, match="^points must"):
            evaluated(data / "qrels.test", data / "results.test", [f"IPrecAvg(points={points})"])
        with pytest.raises(ValueError, match="^points must"):
            rk.eleven_point_average_precision([1, 0], points=[float(p) for p in
                                                              points.split(";")])


# --- properties ----------------------------------------------------------------------------------

masks = st.lists(st.booleans(), max_size=30)


@given(judged=masks, k=st.integers(1, 40))
def test_unjudged_is_judged_complement_scaled_by_the_share_of_k_retrieved(judged, k):
    shown = min(k, len(judged))
    assert rk.unjudged_at_k(judged, k) == pytest.approx(
        shown / k * (1 - rk.judged_at_k(judged, k)), abs=1e-15)


@given(rels=st.lists(st.integers(0, 2), max_size=30), extra=st.integers(0, 5))
def test_iprec_does_not_grow_with_the_level_and_iprecavg_is_its_mean(rels, extra):
    total = sum(g >= 1 for g in rels) + extra
    values = [rk.interpolated_precision(rels, r, n_relevant=total, convention="trec_eval")
              for r in LEVELS]
    assert all(a >= b for a, b in zip(values, values[1:]))
    assert rk.eleven_point_average_precision(rels, n_relevant=total, convention="trec_eval") \
        == pytest.approx(sum(values) / 11, abs=1e-15)


@given(rels=st.lists(st.integers(0, 2), max_size=30), unjudged=st.lists(st.booleans(),
                                                                       max_size=30))
def test_infap_ignores_pooled_unjudged_documents_only_through_the_pool_share(rels, unjudged):
    # Every document of the list in the pool, some not judged: infAP only counts the judged
    # ones in the relevant share, so judging non-relevant documents that were pooled-unjudged
    # as non-relevant can only lower it.
    unjudged = (unjudged + [False] * len(rels))[:len(rels)]
    judged = [not u for u in unjudged]
    grades = [0 if u else g for g, u in zip(rels, unjudged)]
    total = sum(g >= 1 for g in grades)
    sampled = rk.inferred_average_precision(grades, judged, [True] * len(grades),
                                            n_relevant=total)
    full = rk.inferred_average_precision(grades, n_relevant=total)
    assert full <= sampled + 1e-12
