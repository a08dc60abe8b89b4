"""``rk.evaluate`` against trec_eval 10.0's own program, built from the vendored source
(``tools/trec_eval``, ``tests/trec_eval_binary.py``), query by query at trec_eval's four printed
decimals, on generated collections that hit its corner cases: tied scores broken by docno,
lists shorter and longer than the cutoffs, unjudged documents retrieved, judged documents never
retrieved, negative grades ("pooled but not judged"), queries with nothing relevant, queries
the qrels judge but the run lacks (``-c``), relevance levels (``-l``) and condensed lists
(``-J``). trec_eval's own test folder is compared in ``test_evaluate.py``; this file reaches the
cases that folder does not hold.
"""

import warnings

import numpy as np
import pytest

import rankedu as rk
from conftest import assert_as_trec_eval_prints
from trec_eval_binary import run

CUTOFFS = (1, 5, 10, 30)
# trec_eval's measure (as -q prints it) -> rankedu's name.
MEASURES = {"map": "AP", "Rprec": "Rprec", "recip_rank": "RR", "ndcg": "nDCG",
            "bpref": "Bpref",
            **{f"P_{k}": f"P@{k}" for k in CUTOFFS}, **{f"recall_{k}": f"R@{k}" for k in CUTOFFS},
            **{f"ndcg_cut_{k}": f"nDCG@{k}" for k in CUTOFFS},
            **{f"map_cut_{k}": f"AP@{k}" for k in CUTOFFS}}
# Under -J trec_eval condenses every list; rankedu says so per measure.
CONDENSED = {"map": "AP(judged_only=True)", "ndcg": "nDCG(judged_only=True)",
             **{f"ndcg_cut_{k}": f"nDCG(judged_only=True)@{k}" for k in CUTOFFS},
             **{f"map_cut_{k}": f"AP(judged_only=True)@{k}" for k in CUTOFFS}, "bpref": "Bpref"}
TREC_EVAL_MEASURES = ["-m", "map", "-m", "Rprec", "-m", "recip_rank", "-m", "ndcg", "-m", "bpref",
                      *[f"-m{name}.{','.join(map(str, CUTOFFS))}"
                        for name in ("P", "recall", "ndcg_cut", "map_cut")]]


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
        retrieved = rng.choice(docs, size=int(rng.integers(1, 50)), replace=False)
        scores = rng.integers(0, 12, size=len(retrieved)) / 4  # many ties
        run_lines += [f"{qid} Q0 {d} 0 {s} sys" for d, s in zip(retrieved, scores)]
    return "\n".join(qrels) + "\n", "\n".join(run_lines) + "\n"


def trec_eval_values(qrels_path, run_path, *options):
    done = run("-q", *options, *TREC_EVAL_MEASURES, qrels_path, run_path)
    assert done.returncode == 0, done.stderr
    values = {}
    for line in done.stdout.splitlines():
        measure, qid, value = line.split()
        values[measure, qid] = value
    return values


CASES = {
    # case: (generator arguments, trec_eval options, evaluate options)
    "binary": ({"grades": (0, 1)}, [], {}),
    "graded": ({"grades": (-1, 0, 1, 2, 3, 4)}, [], {}),
    "level 2": ({"grades": (-1, 0, 1, 2, 3)}, ["-l2"], {"threshold": 2}),
    "complete (-c)": ({"grades": (0, 1, 2), "missing": 5}, ["-c"], {"missing": "zero"}),
    "condensed (-J)": ({"grades": (-1, 0, 1, 2)}, ["-J"], {}),
}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_query_and_mean_equal_trec_eval_10s_program(case, seed, tmp_path):
    generator, options, evaluate_options = CASES[case]
    qrels_text, run_text = collection(seed, **generator)
    qrels, run_file = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text(qrels_text)
    run_file.write_text(run_text)
    names = CONDENSED if "-J" in options else MEASURES
    expected = trec_eval_values(qrels, run_file, *options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", (rk.TieWarning, rk.QueryMismatchWarning))
        result = rk.evaluate(qrels, run_file, list(names.values()), **evaluate_options)
    compared = assert_as_trec_eval_prints(result, expected, names)
    assert compared == len(names) * len(result) and len(result) == 40


def test_rbp_equals_trec_eval_10s_rbp_on_binary_judgments(tmp_path):
    # trec_eval's rbp reads the list forever and rescales the gains when a min or max lies
    # outside [0, 1]; on 0/1 grades and lists of at most 50 documents that is rk's RBP at
    # depth 1000. Its min and max start uninitialised (m_rbp.c), so rbp is run alone, as the
    # atlas runs it: after another measure the stack they are read from differs.
    qrels_text, run_text = collection(4, grades=(0, 1))
    qrels, run_file = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text(qrels_text)
    run_file.write_text(run_text)
    done = run("-q", "-m", "rbp.p=0.8", qrels, run_file)
    expected = dict(((line.split()[1]), line.split()[2]) for line in done.stdout.splitlines())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rk.TieWarning)
        result = rk.evaluate(qrels, run_file, ["RBP(p=0.8)"])["RBP(p=0.8)"]
    for qid, value in result.items():
        assert f"{value:.4f}" == expected[qid], qid


def test_a_judged_query_missing_from_the_run_stops_trec_eval_10_as_missing_error_does(tmp_path):
    qrels_text, run_text = collection(5, missing=1)
    qrels, run_file = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text(qrels_text)
    run_file.write_text(run_text)
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
