"""rankedu against trec_eval 10.0's own program, built from the vendored source
(``rankedu/data/trec_eval_source``, by ``rankedu.teaching.trec_eval_program``): every line
``-m all_trec -q`` prints, on
generated collections that hit its corner cases: tied scores broken by docno, lists shorter and
longer than the cutoffs, unjudged documents retrieved, judged documents never retrieved,
negative grades ("pooled but not judged"), queries with nothing relevant, queries the qrels
judge but the run lacks (``-c``), relevance levels (``-l``), lists cut (``-M``) and condensed
lists (``-J``). trec_eval's own test folder is compared in ``test_report.py``; this file
reaches the cases that folder does not hold.
"""

import warnings

import numpy as np
import pytest

import rankedu as rk
from conftest import assert_as_trec_eval_prints
from rankedu.teaching.trec_eval_program import run

CUTOFFS = (1, 5, 10, 30)
# Under -J trec_eval condenses every list; rankedu says so per measure (trec_eval's name as -q
# prints it -> rankedu's).
CONDENSED = {"map": "AP(judged_only=True)", "ndcg": "nDCG(judged_only=True)",
             **{f"ndcg_cut_{k}": f"nDCG(judged_only=True)@{k}" for k in CUTOFFS},
             **{f"map_cut_{k}": f"AP(judged_only=True)@{k}" for k in CUTOFFS}, "bpref": "Bpref"}
CONDENSED_MEASURES = ["-m", "map", "-m", "ndcg", "-m", "bpref",
                      *[f"-m{name}.{','.join(map(str, CUTOFFS))}"
                        for name in ("ndcg_cut", "map_cut")]]


def collection(seed, *, grades=(0, 1), n_queries=40, missing=0):
    """qrels and run lines of a generated collection (``missing`` judged queries the run
    lacks), with docnos whose string order differs from their numeric one."""
    rng = np.random.default_rng(seed)
    qrels, run_lines = [], []
    for q in range(n_queries):
        qid = f"{q}" if q % 3 else f"q{q:03d}"
        docs = [f"D{j}" for j in rng.permutation(60)]
        judged = docs[:int(rng.integers(1, 40))]
        chosen = rng.choice(grades, size=len(judged))
        if q % 7 == 0:
            chosen = np.minimum(chosen, 0)  # nothing relevant
        qrels += [f"{qid} 0 {d} {g}" for d, g in zip(judged, chosen)]
        if q < missing:
            continue
        run_lines += ranked(rng, qid, docs, 50, 12, 4)
    return "\n".join(qrels) + "\n", "\n".join(run_lines) + "\n"


def ranked(rng, qid, docs, most, scores, step):
    """Run lines of 1 to ``most`` - 1 of ``docs``, each scored one of ``scores`` multiples of
    1 / ``step`` (many ties)."""
    retrieved = rng.choice(docs, size=int(rng.integers(1, most)), replace=False)
    values = rng.integers(0, scores, size=len(retrieved)) / step
    return [f"{qid} Q0 {d} 0 {s} sys" for d, s in zip(retrieved, values)]


def written(tmp_path, seed, **generator):
    """A generated collection written to two files: (qrels path, run path)."""
    qrels_text, run_text = collection(seed, **generator)
    qrels, run_file = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text(qrels_text)
    run_file.write_text(run_text)
    return qrels, run_file


CASES = {
    # case: (generator arguments, trec_eval options, evaluate options)
    "binary": ({"grades": (0, 1)}, [], {}),
    "graded": ({"grades": (-1, 0, 1, 2, 3, 4)}, [], {}),
    "level 2": ({"grades": (-1, 0, 1, 2, 3)}, ["-l2"], {"threshold": 2}),
    "complete (-c)": ({"grades": (0, 1, 2), "missing": 5}, ["-c"], {"missing": "zero"}),
    # num_rel's summary then counts every grade > 0 of the qrels, whatever -l says
    "complete at level 2 (-c -l2)": ({"grades": (-1, 0, 1, 2, 3), "missing": 5},
                                     ["-c", "-l2"], {"missing": "zero", "threshold": 2}),
    "at most 20 (-M)": ({"grades": (0, 1, 2)}, ["-M20"], {"max_docs": 20}),
}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_all_trec_prints_what_trec_eval_10s_program_prints(case, seed, tmp_path):
    # Every measure of -m all_trec, every query and every summary line, as printed.
    generator, options, evaluate_options = CASES[case]
    qrels, run_file = written(tmp_path, seed, **generator)
    done = run("-q", *options, "-m", "all_trec", qrels, run_file)
    assert done.returncode == 0, done.stderr
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", (rk.TieWarning, rk.QueryMismatchWarning))
        printed = rk.trec_eval_report(qrels, run_file, ["all_trec"], per_query=True,
                                      **evaluate_options)
    expected = [line.split() for line in done.stdout.splitlines()]
    assert len(expected) == 40 * 96 + 99  # 96 lines a query, 99 in the summary
    assert [line.split() for line in printed.splitlines()] == expected


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_condensed_lists_equal_trec_eval_10s_minus_j(seed, tmp_path):
    qrels, run_file = written(tmp_path, seed, grades=(-1, 0, 1, 2))
    done = run("-q", "-J", *CONDENSED_MEASURES, qrels, run_file)
    assert done.returncode == 0, done.stderr
    expected = {}
    for line in done.stdout.splitlines():
        measure, qid, value = line.split()
        expected[measure, qid] = value
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rk.TieWarning)
        result = rk.evaluate(qrels, run_file, list(CONDENSED.values()))
    compared = assert_as_trec_eval_prints(result, expected, CONDENSED)
    assert compared == len(CONDENSED) * len(result) and len(result) == 40


def test_rbp_equals_trec_eval_10s_rbp_on_binary_judgments(tmp_path):
    # trec_eval's rbp reads the list forever and rescales the gains when a min or max lies
    # outside [0, 1]; on 0/1 grades and lists of at most 50 documents that is rk's RBP at
    # depth 1000. Its min and max start uninitialised (m_rbp.c), so rbp is run alone, as the
    # atlas runs it: after another measure the stack they are read from differs.
    qrels, run_file = written(tmp_path, 4, grades=(0, 1))
    done = run("-q", "-m", "rbp.p=0.8", qrels, run_file)
    expected = dict(((line.split()[1]), line.split()[2]) for line in done.stdout.splitlines())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rk.TieWarning)
        result = rk.evaluate(qrels, run_file, ["RBP(p=0.8)"])["RBP(p=0.8)"]
    for qid, value in result.items():
        assert f"{value:.4f}" == expected[qid], qid


def test_a_judged_query_missing_from_the_run_stops_trec_eval_10_as_missing_error_does(tmp_path):
    qrels, run_file = written(tmp_path, 5, missing=1)
    done = run("-m", "map", qrels, run_file)
    assert done.returncode == 4
    assert done.stderr == "trec_eval: result qid 'q000' not found in qrels\n"
    with pytest.raises(ValueError, match=r"^missing: 1 judged query is missing from the run: "
                                         r"'q000'; missing='error' stops here as trec_eval 10.0"):
        rk.evaluate(qrels, run_file, ["AP"], missing="error")


def test_the_program_reproduces_its_own_test_folder_outputs():
    # The build is trec_eval 10.0: it prints what the release's test folder says it prints.
    data = rk.datasets.DATA
    done = run(data / "qrels.comment.test", data / "results.comment.test")
    assert done.stdout == (data / "out.comment.test").read_text()
    done = run("-m", "all_trec", "-q", data / "qrels.test", data / "results.test")
    assert done.stdout == (data / "out.test.aq").read_text()


@pytest.mark.parametrize("seed", [1, 2])
def test_zscores_equal_trec_eval_10s_minus_z(seed, tmp_path):
    # -Z: every value as a z-score against a file of means and deviations. The file lists
    # some (query, measure) pairs only (the rest are trec_eval's -1000000), some with a
    # deviation of 0 (0 when the value is the mean, else -1000000), and gm_map's, whose
    # per-query value trec_eval keeps as a logarithm.
    qrels, run_file = written(tmp_path, seed, grades=(-1, 0, 1, 2))
    plain = run("-q", "-m", "all_trec", qrels, run_file)
    values = [line.split() for line in plain.stdout.splitlines()]
    rng = np.random.default_rng(seed)
    lines = []
    for name, qid, value in values:
        if qid == "all" or name in ("relstring", "runid") or rng.random() < 0.2:
            continue
        if rng.random() < 0.15:  # no deviation: the value itself, or another one
            mean = value if rng.random() < 0.5 else "0.123"
            lines.append(f"{qid} {name} {mean} 0")
        else:
            lines.append(f"{qid} {name} {rng.normal():.4f} {rng.uniform(0.1, 3):.4f}")
    lines += [f"{qid} gm_map -2.5 1.5" for qid in {qid for _, qid, _ in values} - {"all"}]
    zscores = tmp_path / "zscores"
    zscores.write_text("\n".join(lines) + "\n")
    done = run("-q", "-m", "all_trec", "-Z", zscores, qrels, run_file)
    assert done.returncode == 0, done.stderr
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rk.TieWarning)
        printed = rk.trec_eval_report(qrels, run_file, ["all_trec"], per_query=True,
                                      zscores=zscores)
    assert [line.split() for line in printed.splitlines()] == [
        line.split() for line in done.stdout.splitlines()]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_judgment_groups_equal_trec_eval_10s_minus_r_qrels_jg(seed, tmp_path):
    # -R qrels_jg: map, P and Rprec_mult on each group's judgments, averaged per query over
    # the groups that judge it (one to three of A, B, C, each judging its own documents with
    # its own grades; some judge nothing relevant).
    qrels, run_file = written(tmp_path, seed, grades=(0, 1, 2))
    rng = np.random.default_rng(seed)
    lines = []
    for line in qrels.read_text().splitlines():
        qid, _, docno, _ = line.split()
        for group in "ABC":
            if rng.random() < 0.6:
                lines.append(f"{qid} {group} {docno} {rng.choice([0, 0, 1, 2])}")
    qrels.write_text("\n".join(lines) + "\n")
    done = run("-q", "-R", "qrels_jg", "-m", "qrels_jg", qrels, run_file)
    assert done.returncode == 0, done.stderr
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", (rk.TieWarning, rk.QueryMismatchWarning))
        printed = rk.trec_eval_report(qrels, run_file, ["qrels_jg"], per_query=True,
                                      rel_format="qrels_jg")
    assert [line.split() for line in printed.splitlines()] == [
        line.split() for line in done.stdout.splitlines()]


def preferences(seed, *, n_queries=30, missing=0):
    """A prefs file's and a run's lines: per query one to three judgment groups, each with one
    to three subgroups that judge some of the group's documents on their own scale (the group's
    order kept, 0 kept as 0), tied levels, judged documents never retrieved, unjudged ones
    retrieved, tied scores; the first ``missing`` queries are not in the run."""
    rng = np.random.default_rng(seed)
    prefs, run_lines = [], []
    for q in range(n_queries):
        qid = f"{q}" if q % 3 else f"q{q:03d}"
        docs = [f"D{j}" for j in rng.permutation(30)]
        for group in rng.choice(["A", "B", "C"], size=int(rng.integers(1, 4)), replace=False):
            judged = list(rng.choice(docs[:20], size=int(rng.integers(1, 12)), replace=False))
            truth = dict(zip(judged, rng.choice([0, 0, 1, 2, 3], size=len(judged))))
            for subgroup in range(int(rng.integers(1, 4))):
                scale = float(rng.integers(1, 4))
                chosen = judged if subgroup == 0 and rng.random() < 0.3 else list(
                    rng.choice(judged, size=int(rng.integers(1, len(judged) + 1)),
                               replace=False))
                prefs += [f"{qid} {group} s{subgroup} {d} {truth[d] * scale:g}" for d in chosen]
        if q < missing:
            continue
        run_lines += ranked(rng, qid, docs, 25, 6, 2)
    return "\n".join(prefs) + "\n", "\n".join(run_lines) + "\n"


@pytest.mark.parametrize(("seed", "options", "report_options"), [
    (1, [], {}), (2, [], {}), (3, ["-M5"], {"max_docs": 5}),
    (4, ["-c"], {"missing": "zero"})])
def test_preferences_equal_trec_eval_10s_minus_r_prefs(seed, options, report_options, tmp_path):
    # -R prefs: every prefs_* measure on generated judgments that hit the code's two ways of
    # holding a group (one subgroup; several, completed by transitivity), ties, implied
    # preferences (one document retrieved), unretrieved pairs and groups without relevant
    # documents; -M cuts the lists, -c scores the queries the run lacks.
    prefs_text, run_text = preferences(seed, missing=4 if "-c" in options else 0)
    prefs, run_file = tmp_path / "prefs", tmp_path / "run"
    prefs.write_text(prefs_text)
    run_file.write_text(run_text)
    done = run("-q", "-R", "prefs", "-m", "all_prefs", *options, prefs, run_file)
    assert done.returncode == 0, done.stderr
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rk.QueryMismatchWarning)
        printed = rk.trec_eval_report(prefs, run_file, ["all_prefs"], per_query=True,
                                      rel_format="prefs", **report_options)
    expected = [line.split() for line in done.stdout.splitlines()]
    assert len(expected) == 30 * 14 + 16
    assert [line.split() for line in printed.splitlines()] == expected


def test_qrels_as_preferences_equal_trec_eval_10s_minus_r_qrels_prefs(tmp_path):
    # -R qrels_prefs: a qrels file whose second field names each judgment's group.
    qrels, run_file = written(tmp_path, 6, grades=(0, 1, 2, 3))
    rng = np.random.default_rng(6)
    qrels.write_text("".join(f"{qid} {rng.choice(['0', '1'])} {docno} {rel}\n" for qid, _, docno,
                             rel in map(str.split, qrels.read_text().splitlines())))
    done = run("-q", "-R", "qrels_prefs", "-m", "all_prefs", qrels, run_file)
    assert done.returncode == 0, done.stderr
    printed = rk.trec_eval_report(qrels, run_file, ["all_prefs"], per_query=True,
                                  rel_format="qrels_prefs")
    assert [line.split() for line in printed.splitlines()] == [
        line.split() for line in done.stdout.splitlines()]
