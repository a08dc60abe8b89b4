"""The disagreement atlas: every tool on every case of ``rankedu/data/atlas``, and why they
differ.

The appendix *The disagreement atlas* (``book/atlas.ipynb``) and its test
(``tests/test_atlas.py``) both import this module; it is kept out of ``import rankedu`` and is
not rankedu's API: it runs other tools (the extra ``rankedu[book]`` installs them; gdeval
needs Perl, trec_eval 10.0's program gcc and make). The tools are imported when a matrix is
computed, never at import time, and nothing is cached between runs, so a new version of a tool
is seen on the next run.

Each tool reads the case's two files the way its users feed it: with its own reader where it
has one (pytrec_eval's ``parse_qrel``/``parse_run``, ir_measures' ``read_trec_*``, ranx's
``from_file``, trectools' ``TrecRun``/``TrecQrel``, rankedu's paths); trec_eval 10.0's program,
built from the source rankedu ships by :mod:`rankedu.teaching.trec_eval_program`, gets the two
paths; scikit-learn has no reader, so it gets, per query, the run's documents with their qrels
grades (0 when unjudged). A cell is the tool's mean over the queries it returns, as its users
read it; a tool that raises (or a program that exits with a non-zero status) gives
``"error: <message>"``; a measure a tool does not offer is left empty (``None``); ``nan`` is a
tool's own value.
"""

from __future__ import annotations

import contextlib
import itertools
import io
import math
import os
import re
import sys
import tempfile
import warnings
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import numpy as np
import pandas as pd

import rankedu as rk
from rankedu import datasets
from rankedu.teaching import trec_eval_program

#: The folder of the cases' files.
DATA = datasets.ATLAS

MEASURES = ["P@k", "R@k", "AP", "RR", "nDCG", "nDCG@k", "ERR@k", "RBP", "Bpref"]
#: RBP's persistence in every column: rankedu's, ir_measures' and trectools' default (trec_eval
#: 10.0's is 0.9, ranx has none); each tool is asked for p = 0.8 explicitly.
RBP_P = 0.8
TIES = ["trec_eval", "average", "optimistic", "pessimistic"]


@dataclass(frozen=True)
class Case:
    name: str
    k: int
    threshold: int
    about: str
    folder: Path = DATA

    @property
    def qrels(self) -> Path:
        return self.folder / f"{self.name}.qrels"

    @property
    def run(self) -> Path:
        return self.folder / f"{self.name}.run"


CASES = [
    Case("tied_cutoff", 2, 1, "two tied documents straddle the cutoff k = 2"),
    Case("constant_scorer", 2, 1, "every document has the same score"),
    Case("duplicate_docnos", 2, 1, "the run lists one document twice"),
    Case("missing_queries", 2, 1,
         "query 2 is judged but not in the run; 3 and 4 are in the run but not judged"),
    Case("no_relevant", 2, 1, "query 2's judgments hold no relevant document"),
    Case("negative_grades", 2, 1, "a document graded -1"),
    Case("grades_above_4", 2, 1, "a document graded 5"),
    Case("unjudged", 2, 1, "the run retrieves documents the qrels do not judge"),
    Case("k_larger", 10, 1, "k = 10 on a list of 3 documents"),
    Case("relevance_level", 2, 2, "relevant means grade >= 2 (trec_eval -l 2)"),
    Case("single_precision", 2, 1, "two scores that differ only beyond float32's precision"),
    Case("no_nonrelevant", 2, 1,
         "no judged non-relevant document; an unjudged one ranked first (bpref's 0/0)"),
]

#: The package each tool is, for its version.
PACKAGES = {
    "trec_eval 9.0.8 (pytrec_eval)": "pytrec_eval-terrier",
    "gdeval": "ir-measures",
    "cwl_eval (ir_measures)": "ir-measures",
    "ranx": "ranx",
    "trectools": "trectools",
    "scikit-learn": "scikit-learn",
    "rankedu": "rankedu",
}


TREC_EVAL_10 = "trec_eval 10.0"


def versions() -> dict:
    """Each tool's package and installed version (gdeval and cwl_eval run inside ir_measures;
    cwl_eval's own package is cwl-eval, whose command line the column does not run); for
    trec_eval 10.0's program, the version its ``-v`` prints (the release's Makefile still says
    ``VERSIONID = 10.0-rc3``)."""
    shown = {tool: f"{package} {version(package)}" for tool, package in PACKAGES.items()}
    shown["cwl_eval (ir_measures)"] += f" (cwl-eval {version('cwl-eval')})"
    done = trec_eval_program.run("-v")
    printed = (done.stderr + done.stdout).strip()
    shown = {TREC_EVAL_10: f"built from rankedu's copy of its source; -v prints '{printed}'", **shown}
    return shown


def _error(exc: BaseException, detail: str = "") -> str:
    """A short, reproducible cell: no temporary file names, no path of this clone."""
    message = (detail or str(exc)).strip()
    message = message.splitlines()[0] if message else type(exc).__name__
    message = re.sub(r"[^\s'\"]*/(?=[\w.]+\.(?:run|qrels)\b)", "", message).replace('"', "")
    message = re.sub(r"\S*/tmp\w*", "<temporary file>", message)
    return f"error: {message}"


@contextlib.contextmanager
def _stderr_of_subprocesses():
    """Collect what child processes (gdeval's Perl) write to file descriptor 2, so that it
    names the error instead of reaching the terminal or the notebook."""
    with tempfile.TemporaryFile(mode="w+b") as captured:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(captured.fileno(), 2)
        text = []
        try:
            yield text
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            captured.seek(0)
            text.append(captured.read().decode(errors="replace"))


def _mean(values) -> float | str:
    values = list(values)
    return float(np.mean(values)) if values else "error: no query evaluated"


def _with_k(measure: str, k: int) -> str:
    return measure.replace("@k", f"@{k}")


# --- the tools -------------------------------------------------------------------------------

def _trec_eval_10(case: Case) -> dict:
    """trec_eval 10.0's program on the case's two files, one measure per run of the program:
    its ``m_rbp.c`` reads two variables it never initialises (``min`` and ``max``), so rbp's
    value can depend on the measures computed before it in the same run (the chapter says
    why). It prints 4 decimals; a non-zero exit status is an error cell with its message."""
    names = {"P@k": f"P.{case.k}", "R@k": f"recall.{case.k}", "AP": "map",
             "RR": "recip_rank", "nDCG": "ndcg", "nDCG@k": f"ndcg_cut.{case.k}",
             "RBP": f"rbp.p={RBP_P}", "Bpref": "bpref"}
    values = {}
    for m, name in names.items():
        done = trec_eval_program.run("-l", case.threshold, "-m", name, case.qrels, case.run)
        if done.returncode != 0:
            values[m] = _error(RuntimeError(done.stderr), f"exit status {done.returncode}: "
                               + done.stderr.strip())
            continue
        (line,) = done.stdout.splitlines()
        _, qid, value = line.split()
        assert qid == "all", line
        values[m] = float(value)
    return values


def _trec_eval(case: Case) -> dict:
    import pytrec_eval

    names = {"P@k": f"P_{case.k}", "R@k": f"recall_{case.k}", "AP": "map", "RR": "recip_rank",
             "nDCG": "ndcg", "nDCG@k": f"ndcg_cut_{case.k}", "Bpref": "bpref"}
    with open(case.qrels) as qrels_file, open(case.run) as run_file:
        qrels, run = pytrec_eval.parse_qrel(qrels_file), pytrec_eval.parse_run(run_file)
    requested = {"P.%d" % case.k, "recall.%d" % case.k, "map", "recip_rank", "ndcg",
                 "ndcg_cut.%d" % case.k, "bpref"}
    result = pytrec_eval.RelevanceEvaluator(qrels, requested,
                                            relevance_level=case.threshold).evaluate(run)
    return {m: _mean(q[name] for q in result.values()) for m, name in names.items()}


def _ir_measures(case: Case, measures: dict, provider_name: str) -> dict:
    import ir_measures

    provider = getattr(ir_measures, provider_name)
    parsed = {m: ir_measures.parse_measure(name) for m, name in measures.items()}
    with _stderr_of_subprocesses() as stderr:
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                qrels = list(ir_measures.read_trec_qrels(str(case.qrels)))
                run = list(ir_measures.read_trec_run(str(case.run)))
                values = provider.calc_aggregate(list(parsed.values()), qrels, run)
        except Exception as exc:  # noqa: BLE001 - an error is the cell's value
            failure = exc
        else:
            failure = None
    if failure is not None:
        return dict.fromkeys(measures, _error(failure, detail="".join(stderr)))
    return {m: float(values[p]) if p in values else None for m, p in parsed.items()}


def _gdeval(case: Case) -> dict:
    return _ir_measures(case, {"nDCG@k": f"nDCG(dcg='exp-log2')@{case.k}",
                               "ERR@k": f"ERR@{case.k}"}, "gdeval")


def _cwl_eval(case: Case) -> dict:
    # ir_measures' provider: it sorts each query by score (stably, ties in file order) and
    # binarises grades at rel; cwl-eval's own command line reads file order and raw gains.
    t = case.threshold
    return _ir_measures(case, {"P@k": f"P(rel={t})@{case.k}", "AP": f"AP(rel={t})",
                               "RR": f"RR(rel={t})", "RBP": f"RBP(p={RBP_P},rel={t})"},
                        "cwl_eval")


def cwl_eval_command_line(case: Case) -> dict:
    """cwl-eval's own command line on a case (not a column of the matrix): P@k, AP and RR as
    the mean of each metric's EU over the topics it prints (it prints no mean), the topics it
    printed under ``"queries"``, or an error cell for each when it refuses the files. It reads
    a query's lines in file order, ignoring scores, and each grade as a gain in [0, 1]."""
    import subprocess

    command = Path(sys.executable).with_name("cwl-eval")
    with tempfile.TemporaryDirectory() as scratch:
        metrics = f"PrecisionCWLMetric({case.k})\nAPCWLMetric()\nRRCWLMetric()\n"
        (Path(scratch) / "metrics.txt").write_text(metrics)
        done = subprocess.run([str(command), str(case.qrels), str(case.run), "-m",
                               "metrics.txt", "-n"], capture_output=True, text=True,
                              cwd=scratch)
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        message = next((line for line in reversed(lines) if "Error" in line), lines[-1])
        return dict.fromkeys(["P@k", "AP", "RR", "queries"], _error(RuntimeError(message)))
    table = pd.read_csv(io.StringIO(done.stdout), sep="\t", dtype={"Topic": str})
    table["Metric"] = table["Metric"].str.strip()
    names = {f"P@{case.k}": "P@k", "AP": "AP", "RR": "RR"}
    values = {names[m]: float(group["EU"].mean()) for m, group in table.groupby("Metric")}
    values["queries"] = " ".join(sorted(table["Topic"].unique()))
    return values


def _ranx(case: Case) -> dict:
    from ranx import Qrels, Run, evaluate

    names = {"P@k": f"precision@{case.k}", "R@k": f"recall@{case.k}", "AP": "map",
             "RR": "mrr", "nDCG": "ndcg", "nDCG@k": f"ndcg@{case.k}",
             "RBP": f"rbp.{round(RBP_P * 10)}", "Bpref": "bpref"}
    if case.threshold != 1:
        names = {m: f"{name}-l{case.threshold}" for m, name in names.items()}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            qrels = Qrels.from_file(str(case.qrels), kind="trec")
            run = Run.from_file(str(case.run), kind="trec")
            values = evaluate(qrels, run, list(names.values()))
    except Exception as exc:  # noqa: BLE001
        return dict.fromkeys(names, _error(exc))
    return {m: float(values[name]) for m, name in names.items()}


def _trectools(case: Case) -> dict:
    from trectools import TrecEval, TrecQrel, TrecRun

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pandas' deprecation of trectools' inplace sort
        evaluation = TrecEval(TrecRun(str(case.run)), TrecQrel(str(case.qrels)))
    calls = {"P@k": lambda: evaluation.get_precision(depth=case.k),
             "R@k": lambda: evaluation.get_recall(depth=case.k),
             "AP": lambda: evaluation.get_map(),
             "RR": lambda: evaluation.get_reciprocal_rank(),
             "nDCG": lambda: evaluation.get_ndcg(),
             "nDCG@k": lambda: evaluation.get_ndcg(depth=case.k),
             "Bpref": lambda: evaluation.get_bpref()}
    values = {}
    for m, call in calls.items():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                values[m] = float(call())
        except Exception as exc:  # noqa: BLE001
            values[m] = _error(exc)
    return values


def _lines(path: Path) -> pd.DataFrame:
    rows = [line.split() for line in path.read_text().splitlines() if line.strip()]
    return pd.DataFrame(rows)


def _scikit_learn(case: Case) -> dict:
    from sklearn.metrics import average_precision_score, ndcg_score

    qrels = _lines(case.qrels)
    grades = {(q, d): float(g) for q, d, g in zip(qrels[0], qrels[2], qrels[3])}
    run = _lines(case.run)
    calls = {"AP": lambda y, s: average_precision_score(y >= case.threshold, s),
             "nDCG": lambda y, s: ndcg_score([y], [s]),
             "nDCG@k": lambda y, s: ndcg_score([y], [s], k=case.k)}
    values = {}
    for m, call in calls.items():
        per_query = []
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for qid, group in run.groupby(0, sort=True):
                    if qid in set(qrels[0]):
                        y = np.array([grades.get((qid, d), 0.0) for d in group[2]])
                        per_query.append(call(y, group[4].astype(float).to_numpy()))
            values[m] = _mean(per_query)
        except Exception as exc:  # noqa: BLE001
            values[m] = _error(exc)
    return values


def _rankedu(case: Case, ties: str) -> dict:
    from rankedu.trec.measures import parse

    values = {}
    for m in MEASURES:
        name = f"RBP(p={RBP_P})" if m == "RBP" else _with_k(m, case.k)
        (spec,) = parse([name])
        if ties == "average" and getattr(spec.measure, "average", True) is None:
            values[m] = None  # no exact mean over the orders of the ties: not offered
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                result = rk.evaluate(str(case.qrels), str(case.run), [name],
                                     threshold=case.threshold, ties=ties)
            values[m] = float(result[name].mean())
        except ValueError as exc:
            values[m] = _error(exc)
    return values


def tools() -> dict:
    """The tools of the atlas, name -> function of a case returning {measure: cell}."""
    found = {TREC_EVAL_10: _trec_eval_10, "trec_eval 9.0.8 (pytrec_eval)": _trec_eval,
             "gdeval": _gdeval, "cwl_eval (ir_measures)": _cwl_eval,
             "ranx": _ranx, "trectools": _trectools, "scikit-learn": _scikit_learn}
    for ties in TIES:
        found[f"rankedu ({ties})"] = lambda case, ties=ties: _rankedu(case, ties)
    return found


def _guarded(run, case: Case) -> dict:
    try:
        return run(case)
    except Exception as exc:  # noqa: BLE001 - a tool that refuses the files: every cell says so
        return dict.fromkeys(MEASURES, _error(exc))


def matrix() -> pd.DataFrame:
    """Every cell: rows (case, measure), one column per tool; None where a tool lacks it."""
    rows = {}
    for case in CASES:
        by_tool = {name: _guarded(run, case) for name, run in tools().items()}
        for m in MEASURES:
            rows[(case.name, m)] = {name: values.get(m) for name, values in by_tool.items()}
    index = pd.MultiIndex.from_tuples(rows, names=["case", "measure"])
    # Column by column, so that a measure a tool lacks stays None, never NaN.
    columns = {tool: pd.Series([row[tool] for row in rows.values()], index=index,
                               dtype=object) for tool in tools()}
    return pd.DataFrame(columns)


def offered(cell) -> bool:
    """Whether a cell holds a value (``nan`` included: ranx's bpref) or an error, not a
    measure the tool lacks (``None``)."""
    return cell is not None


# --- conventions: each difference, reproduced with rankedu by changing one convention --------

#: evaluate's conventions (trec_eval's), the emulator's defaults.
DEFAULTS = {"order": "trec_eval", "duplicates": "error", "single_precision": False,
            "gain": "linear", "ideal": "judgments", "ap_denominator": "judgments",
            "queries": "both", "threshold": "applied to binary measures",
            "grade above 4": "refused by ERR only", "negative": "gain 0",
            "rbp gain": "the grade, refused outside [0, 1]",
            "bpref without non-relevant": "a term of 1"}


@dataclass(frozen=True)
class Convention:
    key: str
    name: str
    ours: str
    theirs: str
    change: dict
    section: str  # a MyST link to the book's section that explains it


CONVENTIONS = [
    Convention("ties-file", "tie order", "score, then docno descending",
               "score, then the order of the file's lines", {"order": "file"},
               "{doc}`user_models`, *Documents in file order*; "
               "{doc}`evaluating_runs`, *Tied scores*"),
    Convention("ties-docno-ascending", "tie order", "score, then docno descending",
               "score, then docno ascending", {"order": "docno ascending"},
               "{doc}`evaluating_runs`, *Tied scores*"),
    Convention("ties-average", "tie order", "score, then docno descending",
               "the mean over every order of the tied documents", {"order": "average"},
               "{doc}`evaluating_runs`, *Tied scores*"),
    Convention("ties-threshold", "tie order", "score, then docno descending",
               "tied documents are one threshold: each relevant one gets the precision at the "
               "end of its tie", {"order": "one threshold"},
               "{doc}`evaluating_runs`, *Tied scores*"),
    Convention("ties-optimistic", "tie order", "score, then docno descending",
               "relevant documents first within a tie", {"order": "optimistic"},
               "{doc}`evaluating_runs`, *Tied scores*"),
    Convention("ties-pessimistic", "tie order", "score, then docno descending",
               "relevant documents last within a tie", {"order": "pessimistic"},
               "{doc}`evaluating_runs`, *Tied scores*"),
    Convention("float32", "score precision", "double precision",
               "single precision: scores equal in float32 tie", {"single_precision": True},
               "{doc}`evaluating_runs`, *Scores in single precision*"),
    Convention("duplicates-all", "duplicate docnos", "an error",
               "every line counts, the document twice", {"duplicates": "all"},
               "{ref}`atlas-duplicates`"),
    Convention("duplicates-one", "duplicate docnos", "an error",
               "one line kept (the last one read)", {"duplicates": "last"},
               "{ref}`atlas-duplicates`"),
    Convention("gain-exponential", "gain", "the grade g", "2^g - 1", {"gain": "exponential"},
               "{doc}`evaluating_runs`, *Linear or exponential gain*"),
    Convention("ideal-candidates", "ideal list", "every judged document of the query",
               "the retrieved documents only", {"ideal": "candidates"},
               "{doc}`evaluating_runs`, "
               "*The ideal ranking: from the judgments or from the candidates*"),
    Convention("ap-retrieved", "AP denominator", "relevant documents in the qrels",
               "relevant documents retrieved", {"ap_denominator": "retrieved"},
               "{doc}`evaluating_runs`, *AP's denominator*"),
    Convention("queries-qrels", "which queries are averaged", "queries in both files",
               "every judged query, 0 when the run lacks it (trec_eval -c)",
               {"queries": "qrels"}, "{doc}`evaluating_runs`, *Queries missing from the run*"),
    Convention("queries-judged-refused", "which queries are averaged", "queries in both files",
               "an error when a judged query has no line in the run (exit status 4)",
               {"queries": "judged or error"},
               "{doc}`evaluating_runs`, *Queries missing from the run*"),
    Convention("queries-run", "which queries are averaged", "queries in both files",
               "every query of the run, 0 when not judged", {"queries": "run"},
               "{doc}`evaluating_runs`, *Queries missing from the run*"),
    Convention("queries-refused", "which queries are averaged", "queries in both files",
               "an error unless both files hold the same queries", {"queries": "same or error"},
               "{doc}`evaluating_runs`, *Queries missing from the run*"),
    Convention("threshold-ignored", "relevance level", "-l applies to the binary measures",
               "no relevance level: every grade above 0 is relevant",
               {"threshold": "ignored"},
               "{doc}`evaluating_runs`, *Relevance thresholds and graded nDCG*"),
    Convention("threshold-grades", "relevance level", "-l applies to the binary measures",
               "-l applies to nDCG and RBP too: grades below it count 0",
               {"threshold": "applied to grades"},
               "{doc}`evaluating_runs`, *Relevance thresholds and graded nDCG*"),
    Convention("rbp-gain-rescaled", "RBP's gain", "the grade, an error outside [0, 1]",
               "the grade over the query's top grade when that is above 1",
               {"rbp gain": "over the top grade"},
               "{doc}`user_models`, *Graded judgments*"),
    Convention("rbp-gain-binary", "RBP's gain", "the grade, an error outside [0, 1]",
               "1 at or above the relevance level, else 0", {"rbp gain": "binary"},
               "{doc}`user_models`, *Graded judgments*"),
    Convention("rbp-gain-raw", "RBP's gain", "the grade, an error outside [0, 1]",
               "the grade, however large", {"rbp gain": "the grade"},
               "{doc}`user_models`, *Graded judgments*"),
    Convention("bpref-nan", "bpref without a judged non-relevant document",
               "a relevant document scores 1", "nan (0/0)",
               {"bpref without non-relevant": "nan"},
               "{doc}`incomplete_judgments`, *bpref: count only what was judged*"),
    Convention("bpref-zero", "bpref without a judged non-relevant document",
               "a relevant document scores 1", "0: each term is 0/0, and the sum skips it",
               {"bpref without non-relevant": "0"},
               "{doc}`incomplete_judgments`, *bpref: count only what was judged*"),
    Convention("negative-judged", "negative grades", "not judged, for bpref",
               "judged non-relevant: bpref counts it", {"negative": "judged non-relevant"},
               "{ref}`sec-ndcg-limits`"),
    Convention("negative-refused", "negative grades", "gain 0, non-relevant",
               "an error", {"negative": "error"}, "{ref}`sec-ndcg-limits`"),
    Convention("max-grade-error", "grades above 4", "an error for ERR only",
               "an error for every measure (gdeval's MAX_JUDGMENT = 4)",
               {"grade above 4": "refused by every measure"},
               "{doc}`evaluating_runs`, *ERR's top grade*"),
]
BY_KEY = {c.key: c for c in CONVENTIONS}

#: Where each tool departs from trec_eval, as far as the atlas shows: the conventions tried for it.
TOOL_CONVENTIONS = {
    TREC_EVAL_10: ["queries-judged-refused", "rbp-gain-rescaled"],
    "trec_eval 9.0.8 (pytrec_eval)": ["float32"],
    "gdeval": ["gain-exponential", "max-grade-error", "duplicates-all",
               "duplicates-one", "queries-qrels", "queries-run"],
    "cwl_eval (ir_measures)": ["ties-file", "duplicates-all", "ap-retrieved", "queries-qrels",
                               "queries-run", "rbp-gain-binary"],
    "ranx": ["ties-file", "duplicates-one", "queries-refused", "threshold-grades",
             "rbp-gain-raw", "bpref-nan", "negative-judged"],
    "trectools": ["ties-docno-ascending", "queries-run", "threshold-ignored", "bpref-zero"],
    "scikit-learn": ["ties-average", "ties-threshold", "duplicates-all", "ideal-candidates",
                     "ap-retrieved", "negative-refused"],
    "rankedu (average)": ["ties-average"],
    "rankedu (optimistic)": ["ties-optimistic"],
    "rankedu (pessimistic)": ["ties-pessimistic"],
}


def _read(case: Case, single_precision: bool):
    grades = {}
    for line in case.qrels.read_text().split("\n"):
        if line.strip():
            qid, _, docno, grade = line.split()
            grades.setdefault(qid, {})[docno] = int(grade)
    lines = []
    for line in case.run.read_text().split("\n"):
        if line.strip():
            qid, _, docno, _, score, _ = line.split()
            value = float(np.float32(score)) if single_precision else float(score)
            lines.append((qid, docno, value))
    return grades, lines


def _ranked(lines, order: str, grades: dict, threshold: float) -> list:
    """One query's lines ranked: by score descending, ties as ``order`` says."""
    if order == "file":
        return sorted(lines, key=lambda line: -line[2])  # sorted() is stable
    if order in ("optimistic", "pessimistic"):
        sign = -1 if order == "optimistic" else 1
        return sorted(lines, key=lambda line: (-line[2],
                                               sign * (grades.get(line[1], 0) >= threshold)))
    by_docno = sorted(lines, key=lambda line: line[1], reverse=order != "docno ascending")
    return sorted(by_docno, key=lambda line: -line[2])


def _orders(lines, order: str, grades: dict, threshold: float) -> list:
    """The rankings to average over: one, or for ``"average"`` every order of every group of
    tied scores (brute force, independent of rankedu's exact formulas; the cases are tiny)."""
    if order != "average":
        return [_ranked(lines, order, grades, threshold)]
    groups = {}
    for line in sorted(lines, key=lambda line: -line[2]):
        groups.setdefault(line[2], []).append(line)
    rankings = [[]]
    for group in groups.values():
        rankings = [ranking + list(p) for ranking in rankings
                    for p in itertools.permutations(group)]
    return rankings


def _tie_ends(ranked) -> list:
    """For each rank, the last rank (from 1) holding the same score."""
    scores = [score for _, _, score in ranked]
    return [max(j for j in range(len(scores)) if scores[j] == s) + 1 for s in scores]


def _rbp_gains(rels, pool, threshold, rule: str) -> list:
    """RBP's gains from the grades (negative ones already 0) under one convention."""
    if rule == "binary":
        return [float(g >= threshold) for g in rels]
    top = max(pool, default=0)
    if rule == "over the top grade" and top > 1:
        return [g / top for g in rels]
    return list(rels)


def _value(measure: str, k: int, rels, pool, threshold, conventions, tie_ends=(),
           judged=(), n_nonrelevant=0) -> float:
    n_relevant = sum(g >= threshold for g in pool)
    if measure == "RBP":
        gains = _rbp_gains(rels, pool, threshold, conventions["rbp gain"])
        # rk.rbp takes gains in [0, 1]; RBP is linear in the gains, so a larger scale is
        # divided out and multiplied back.
        scale = max([1.0, *gains])
        return scale * rk.rbp([g / scale for g in gains], RBP_P, depth=1000)
    if measure == "Bpref":
        rule = conventions["bpref without non-relevant"]
        if rule != DEFAULTS["bpref without non-relevant"] and n_nonrelevant == 0:
            found = any(j and g >= threshold for g, j in zip(rels, judged))
            return math.nan if rule == "nan" and found else 0.0
        return rk.bpref(rels, judged, n_relevant=n_relevant, n_nonrelevant=n_nonrelevant,
                        threshold=threshold)
    if measure == "P@k":
        return rk.precision_at_k(rels, k, threshold=threshold)
    if measure == "R@k":
        return rk.recall_at_k(rels, k, n_relevant=n_relevant, threshold=threshold)
    if measure == "AP":
        retrieved = conventions["ap_denominator"] == "retrieved"
        if conventions["order"] == "one threshold":
            # The precision at the end of each relevant document's tie, summed, over R.
            precisions = [rk.precision_at_k(rels, end, threshold=threshold)
                          for rel, end in zip(rels, tie_ends) if rel >= threshold]
            denominator = len(precisions) if retrieved else n_relevant
            return sum(precisions) / denominator if denominator else 0.0
        return rk.average_precision(rels, n_relevant=None if retrieved else n_relevant,
                                    threshold=threshold)
    if measure == "RR":
        return rk.reciprocal_rank(rels, threshold=threshold)
    ideal = rels if conventions["ideal"] == "candidates" else pool
    if measure in ("nDCG", "nDCG@k"):
        if measure == "nDCG@k":  # the same value; the ranks past k cannot matter
            return rk.ndcg(rels[:k], k, pool=ideal, gain=conventions["gain"])
        return rk.ndcg(rels, pool=ideal, gain=conventions["gain"])
    return rk.err(rels, k, max_grade=4)


def emulate(case: Case, measure: str, **changes) -> float | str:
    """rankedu's value of ``measure`` on ``case`` under evaluate's conventions but ``changes``.

    Built from the per-list functions (not from ``evaluate``), so that with no change it is a
    second computation of evaluate's number; each change is one convention of
    :data:`CONVENTIONS`.
    """
    conventions = {**DEFAULTS, **changes}
    grades, lines = _read(case, conventions["single_precision"])
    threshold = case.threshold
    if conventions["threshold"] == "ignored":
        threshold = 1
    all_grades = [g for by_doc in grades.values() for g in by_doc.values()]
    if conventions["grade above 4"] == "refused by every measure" and max(all_grades) > 4:
        return "error"
    if conventions["negative"] == "error" and min(all_grades) < 0:
        return "error"
    if measure == "ERR@k" and max(all_grades) > 4:
        return "error"
    rbp_refused = conventions["rbp gain"] == DEFAULTS["rbp gain"]
    if measure == "RBP" and rbp_refused and not 0 <= min(all_grades) <= max(all_grades) <= 1:
        return "error"  # evaluate checks every grade of the qrels, as cwl-eval does
    by_query = {}
    for qid, docno, score in lines:
        by_query.setdefault(qid, []).append((qid, docno, score))
    for qid, query_lines in by_query.items():
        docnos = [docno for _, docno, _ in query_lines]
        if len(set(docnos)) < len(docnos):
            if conventions["duplicates"] == "error":
                return "error"
            if conventions["duplicates"] == "last":
                kept = {docno: line for line in query_lines for docno in [line[1]]}
                by_query[qid] = list(kept.values())
    if conventions["queries"] == "same or error" and set(by_query) != set(grades):
        return "error"
    if conventions["queries"] == "judged or error" and set(grades) - set(by_query):
        return "error"
    queries = {"qrels": sorted(grades), "run": sorted(by_query)}.get(
        conventions["queries"], sorted(set(by_query) & set(grades)))
    values = []
    graded = measure.startswith("nDCG") or measure == "RBP"
    # A negative grade is "pooled but not judged" for trec_eval's bpref, unless a tool counts
    # it as a judged non-relevant document.
    negative_judged = conventions["negative"] == "judged non-relevant"
    for qid in queries:
        judged = grades.get(qid, {})
        pool = [max(g, 0) for g in judged.values()]
        n_nonrelevant = sum(g < threshold and (g >= 0 or negative_judged)
                            for g in judged.values())
        if conventions["threshold"] == "applied to grades" and graded:
            pool = [g if g >= threshold else 0 for g in pool]
        orders = _orders(by_query.get(qid, []), conventions["order"], judged, threshold)
        per_order = []
        for ranked in orders:
            rels = [max(judged.get(docno, 0), 0) for _, docno, _ in ranked]
            seen = [docno in judged and (judged[docno] >= 0 or negative_judged)
                    for _, docno, _ in ranked]
            if conventions["threshold"] == "applied to grades" and graded:
                rels = [g if g >= threshold else 0 for g in rels]
            try:
                per_order.append(_value(measure, case.k, rels, pool, threshold, conventions,
                                        _tie_ends(ranked), seen, n_nonrelevant))
            except ValueError:  # a document counted twice: more relevant than the qrels hold
                return "error"
        values.append(sum(per_order) / len(per_order))
    return _mean(values)


#: How far apart two equal numbers may print: gdeval prints each query's value with 5
#: decimals (its printf "%.5f"), and ir_measures averages those; trec_eval 10.0's program
#: prints its mean with 4 ("%6.4f").
TOLERANCE = {"gdeval": 0.5e-5, TREC_EVAL_10: 0.5e-4}


def _same(a, b, tolerance: float = 1e-9) -> bool:
    """Equal cells: both errors, or numbers within ``tolerance``."""
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str)
    return math.isclose(a, b, rel_tol=0, abs_tol=tolerance) or (math.isnan(a) and math.isnan(b))


REFERENCE = "rankedu (trec_eval)"


def _candidates(keys: list) -> list:
    """One convention at a time first, then pairs of conventions that change different things."""
    pairs = [(a, b) for i, a in enumerate(keys) for b in keys[i + 1:]
             if not set(BY_KEY[a].change) & set(BY_KEY[b].change)]
    return [(key,) for key in keys] + pairs


def classify(cells: pd.DataFrame) -> pd.DataFrame:
    """One row per cell where a tool differs from rankedu's default (trec_eval's conventions):
    the tool's value, rankedu's, and the convention that reproduces the tool's value (``None``
    when none of the tool's known conventions does: an unexplained difference)."""
    rows = []
    for case_name, measure in cells.index:
        case = next(c for c in CASES if c.name == case_name)
        # Cell by cell: a row of strings and Nones read as a Series would turn None into NaN.
        row = {tool: cells.at[(case_name, measure), tool] for tool in cells.columns}
        ours = row[REFERENCE]
        for tool, theirs in row.items():
            tolerance = TOLERANCE.get(tool, 1e-9)
            if tool == REFERENCE or not offered(theirs) or _same(theirs, ours, tolerance):
                continue
            found = None
            for keys in _candidates(TOOL_CONVENTIONS.get(tool, [])):
                changes = {k: v for key in keys for k, v in BY_KEY[key].change.items()}
                if _same(theirs, emulate(case, measure, **changes), tolerance):
                    found = " + ".join(keys)
                    break
            rows.append({"case": case_name, "measure": measure, "tool": tool,
                         "tool's value": theirs, "rankedu": ours, "convention": found})
    return pd.DataFrame(rows, columns=["case", "measure", "tool", "tool's value", "rankedu",
                                       "convention"])


# Recommender libraries: their conventions, reproduced from their source on one small case
# (their packages do not install on the book's pins: Microsoft Recommenders 1.2.1 requires
# pandas < 3, RecBole 1.2.1's metrics call the removed ``np.float``). Each function follows the
# lines of the file named beside it; rankedu's column is the package's own function.

#: Four users' top-3 lists, the items each found relevant, a catalogue of eight items and the
#: items of the training data (one recommended item, "z", is not among them).
RECOMMENDER_CASE = {
    "lists": {"u1": ["a", "b", "c"], "u2": ["a", "c", "d"], "u3": ["a", "b", "e"],
              "u4": ["z", "a", "f"]},
    "relevant": {"u1": {"a", "c", "g", "h"}, "u2": {"d"}, "u3": {"b", "e", "f"},
                 "u4": {"g"}},
    "catalog": ["a", "b", "c", "d", "e", "f", "g", "h", "z"],
    "train_items": ["a", "b", "c", "d", "e", "f", "g", "h", "a", "b"],
    "k": 3,
}


def _recbole_map(hits: list, n_relevant: int, k: int) -> float:
    # recbole/evaluator/metrics.py, MAP.metric_info: the running sum of precision at each hit,
    # divided by min(|R(u)|, rank) up to rank k.
    precision_sum = sum(sum(hits[:i + 1]) / (i + 1) for i in range(k) if hits[i])
    return precision_sum / min(n_relevant, k)


def _recbole_gini(counts: list, n_items: int) -> float:
    # recbole/evaluator/metrics.py, GiniIndex.get_gini: the recommended items' counts sorted
    # ascending take the top indices of all n_items; the rest count as zeros.
    ordered = sorted(counts)
    index = range(n_items - len(ordered) + 1, n_items + 1)
    return sum((2 * i - n_items - 1) * c for i, c in zip(index, ordered)) / sum(ordered) / n_items


def _recbole_entropy(counts: list) -> float:
    # recbole/evaluator/metrics.py, ShannonEntropy.get_entropy: natural log, the sum divided by
    # the number of distinct items recommended.
    total = sum(counts)
    return -sum(c / total * math.log(c / total) for c in counts) / len(counts)


def recommender_conventions(case: dict = RECOMMENDER_CASE) -> pd.DataFrame:
    """One row per (measure, tool): the convention, and the value on ``case`` (a mean over
    users where the measure is per user) of rankedu's function or of the tool's convention
    reproduced from its source: RecBole 1.2.1 (``recbole/evaluator/metrics.py``) and
    Microsoft Recommenders 1.2.1 ("MSR", ``recommenders/evaluation/python_evaluation.py``)."""
    lists, relevant, k = case["lists"], case["relevant"], case["k"]
    hits = {u: [int(i in relevant[u]) for i in items[:k]] for u, items in lists.items()}
    counts = pd.Series([i for items in lists.values() for i in items[:k]]).value_counts()
    exposure = rk.exposure(lists, catalog=case["catalog"])

    def mean(values) -> float:
        return float(np.mean(list(values)))

    rows = [
        ("MAP@k", "rankedu, trec_eval", "divides by |R|",
         mean(rk.average_precision(hits[u], k, n_relevant=len(relevant[u])) for u in lists)),
        ("MAP@k", "RecBole MAP", "divides by min(|R|, k)",
         mean(_recbole_map(hits[u], len(relevant[u]), k) for u in lists)),
        ("nDCG@k", "rankedu, trec_eval", "ideal: min(|R|, k) items",
         mean(rk.ndcg(hits[u], k, pool=[1] * len(relevant[u])) for u in lists)),
        ("nDCG@k", "RecBole NDCG", "ideal: min(|R|, k) items",
         mean(rk.ndcg(hits[u], k, pool=[1] * min(len(relevant[u]), k)) for u in lists)),
        ("HR@k", "rankedu success_at_k", "a hit in the top k",
         mean(rk.success_at_k(hits[u], k) for u in lists)),
        ("HR@k", "RecBole Hit", "a hit in the top k", mean(float(any(hits[u])) for u in lists)),
        ("coverage", "rankedu", "/ the catalogue given",
         rk.catalog_coverage(lists, case["catalog"])),
        ("coverage", "RecBole ItemCoverage", "/ number of items",
         len(counts) / len(case["catalog"])),
        ("coverage", "MSR catalog_coverage", "/ distinct training items",
         len(counts) / len(set(case["train_items"]))),
        ("Gini", "rankedu", "catalogue; max (n - 1) / n", rk.gini(exposure)),
        ("Gini", "RecBole GiniIndex", "unshown items as zeros",
         _recbole_gini(counts.tolist(), len(case["catalog"]))),
        ("entropy", "rankedu, base e", "-sum p ln p", rk.entropy(exposure, base=math.e)),
        ("entropy", "RecBole ShannonEntropy", "nats / distinct items",
         _recbole_entropy(counts.tolist())),
    ]
    return pd.DataFrame(rows, columns=["measure", "tool", "convention", "value"])


# ndeval and the diversity measures: subtopic qrels are not the cases' trec qrels, so their
# cases are written here, each a few judgments isolating one of ndeval's conventions
# (rankedu.trec.diversity), and the columns are the tools that compute them.

#: The worked example of the diversity chapter: d1 serves intents 1 and 2, d2 and d4 intent 1,
#: d3 intent 3, d5 intents 2 and 3, d6 is judged relevant to nothing; the run ranks d2 first.
_WORKED = [("q", "1", "d1", 1), ("q", "2", "d1", 1), ("q", "1", "d2", 1), ("q", "3", "d3", 1),
           ("q", "1", "d4", 1), ("q", "2", "d5", 1), ("q", "3", "d5", 1), ("q", "1", "d6", 0)]
_WORKED_RUN = [("q", d, float(6 - i)) for i, d in enumerate(["d2", "d4", "d1", "d6", "d3",
                                                               "d5"])]
_TIED_RUN = [("q", "a", 1.0), ("q", "b", 1.0)]

#: One row per convention: its name, the measure, the subtopic qrels and the run.
DIVERSITY_CASES = [
    ("tie order", "alpha_nDCG@5", [("q", "1", "a", 1), ("q", "2", "b", 0)], _TIED_RUN),
    ("binarised grades", "P_IA@2", [("q", "1", "a", 2), ("q", "2", "b", 1)], _TIED_RUN),
    ("cutoff above 20", "P_IA@30", [("q", "1", "a", 1), ("q", "2", "b", 0)], _TIED_RUN),
    ("ERR-IA normalisation", "ERR_IA@5", _WORKED, _WORKED_RUN),
    ("ERR-IA at k = 1", "ERR_IA@1", _WORKED, _WORKED_RUN),
    ("greedy ideal, ties to the larger docno", "alpha_nDCG@2",
     [("q", t, d, 1) for d, ts in [("x", "bc"), ("y", "bd"), ("z", "ac")] for t in ts],
     [("q", "x", 2.0), ("q", "y", 1.0)]),
]

#: The columns of the diversity rows, and the package each one's version is read from.
DIVERSITY_TOOLS = {"pyndeval": "pyndeval", "ir_measures": "ir-measures",
                   "rankedu (ndeval)": "rankedu", "rankedu (textbook)": "rankedu"}


def _diversity_cell(tool: str, measure: str, qrels: list, run: list) -> float | str:
    """One tool's value of ``measure`` on one query, or an error cell."""
    from rankedu.trec.diversity import MEASURES as declared

    name, _, k = measure.partition("@")
    try:
        if tool == "pyndeval":
            import pyndeval

            written = declared[name].ndeval_name(int(k) if k else None)
            return float(pyndeval.ndeval(qrels, sorted(run), measures=[written])["q"][written])
        if tool == "ir_measures":
            import ir_measures

            parsed = ir_measures.parse_measure(measure)
            values = ir_measures.calc_aggregate(
                [parsed], [ir_measures.Qrel(q, d, r, iteration=s) for q, s, d, r in qrels],
                [ir_measures.ScoredDoc(*line) for line in sorted(run)])
            return float(values[parsed])
        conventions = tool.split("(")[1].rstrip(")")
        frames = (pd.DataFrame(qrels, columns=["qid", "subtopic", "docno", "rel"]),
                  pd.DataFrame(run, columns=["qid", "docno", "score"]))
        return float(rk.evaluate(*frames, [measure], conventions=conventions).iloc[0, 0])
    except Exception as exc:  # noqa: BLE001 - a refusal is the cell's value
        return _error(exc)


def diversity_conventions() -> pd.DataFrame:
    """One row per case of :data:`DIVERSITY_CASES`: the convention, the measure, and each
    tool's value of it (pyndeval 0.0.8 is ndeval v4.5; ir_measures 0.4.3 runs it; rankedu with
    ``conventions="ndeval"`` and ``"textbook"``), or an error cell where a tool refuses."""
    rows = [{"convention": convention, "measure": measure,
             **{tool: _diversity_cell(tool, measure, qrels, run) for tool in DIVERSITY_TOOLS}}
            for convention, measure, qrels, run in DIVERSITY_CASES]
    return pd.DataFrame(rows)
