"""How fast is ``rankedu.evaluate`` on realistic runs, from TREC files on disk to per-query values.

The run looks like a real one (an MS MARCO or TREC submission): ``--queries`` queries named
``q0, q1, ..., q9999`` and written in that numeric order, as most runs are (not the string
order ``q0, q1, q10, ...``; ``--qids padded`` names them ``100000, 100001, ...``, in both
orders at once), each retrieving ``--depth`` documents drawn from a collection of
``--collection`` documents (50 million by default), so that nearly every line names a
different document; each query's lines come best first (``--shuffle`` writes all lines in
random order); scores are four-decimal numbers below 100, distinct in single precision unless
equal (a few scores tie, so docno tie-breaking is exercised); the qrels judge ``--judged``
documents per query with grades 0-3, half of them retrieved and half not. Docnos look like MS
MARCO's passage ids (``7067032``) or, with ``--docnos clueweb``, like ClueWeb09's
(``clueweb09-en0003-47-01234``). The files are written once into ``--cache`` (under /tmp by
default) and reused.

The measures are one set (``--measures``): ``common``, the ones rankedu and trec_eval both
have (AP, nDCG@10, P@10, RR), or ``all_trec``, trec_eval's default set (``rk.evaluate(...,
["all_trec"])``, ``trec_eval -m all_trec``). Each tool runs in its own process, ``--rounds``
times, interleaved:

- rankedu: ``rk.evaluate(qrels_path, run_path, measures)`` (reading included);
- pytrec_eval: its own ``parse_qrel`` and ``parse_run`` on the open files, then
  ``RelevanceEvaluator(...).evaluate(run)``;
- ranx (``common`` only, with ``--tools ... ranx``; pinned in ``requirements.txt``):
  ``Qrels.from_file``, ``Run.from_file`` and ``evaluate(..., return_mean=False)``, after a
  warm-up call in the same process that compiles its numba functions;
- trec_eval: the binary of trec_eval 10.0 built from its source
  (``rankedu/data/trec_eval_source``, with its own Makefile, by
  ``rankedu.teaching.trec_eval_program``) before the rounds, ``trec_eval -q -m ...`` on the
  two files;
- pyarrow-read, a floor: ``pyarrow.csv.read_csv`` of the two files with the options rankedu's
  reader gives it (recorded from ``rankedu.trec.fast_read.parse``), and nothing else.

A Python tool's time excludes its imports (and ranx's warm-up; rankedu's import time is shown
beside its row); trec_eval's is the wall time of its process. Peak memory is the child's peak
resident set size, imports included: a Python tool reads its own (``VmHWM``) as it ends, and
the import baseline is shown beside it; trec_eval's is ``ru_maxrss`` from ``os.wait4``. (On
Linux a child's ``ru_maxrss`` starts from its parent's resident size, so the runs are generated
in a process of their own, and the parent stays small.) The median time of the rounds counts,
and the largest peak. Values are compared query by query with rankedu's, measure by measure
where the two name one alike (trec_eval prints 4 decimals: its values differ only beyond 5e-5);
where a tool's values differ, the benchmark counts how many lie outside ``rk.tie_interval``'s
bounds (none, when the difference is only the order of tied documents, as ranx keeps the
file's).

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_evaluate.py --lines 1000000``.
It is a benchmark, not a test: it reports and never fails (a tool that fails is reported as
such, with its message). The goals (issue 23): rankedu at most 0.30 x pytrec_eval's time,
faster than trec_eval's binary, at most 2.5 x the time pyarrow takes to read the two files, at
most 0.60 x pytrec_eval's peak memory (checked at 10M lines); with ``all_trec``, faster than
trec_eval's binary.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np


@dataclass(frozen=True)
class MeasureSet:
    """The measures of one benchmark run, as each tool names them."""

    rankedu: list[str]  # what rk.evaluate is given
    trec_eval: list[str]  # trec_eval's -m names (pytrec_eval takes them too)
    # rankedu's column -> the name trec_eval prints (and pytrec_eval returns); a column not
    # listed is compared under its own name
    printed: dict[str, str] = field(default_factory=dict)
    ranx: dict[str, str] | None = None  # trec_eval's printed name -> ranx's (None: not timed)


MEASURE_SETS = {
    "common": MeasureSet(
        ["AP", "nDCG@10", "P@10", "RR"], ["map", "ndcg_cut.10", "P.10", "recip_rank"],
        {"AP": "map", "nDCG@10": "ndcg_cut_10", "P@10": "P_10", "RR": "recip_rank"},
        {"map": "map", "ndcg_cut_10": "ndcg@10", "P_10": "precision@10", "recip_rank": "mrr"}),
    "all_trec": MeasureSet(["all_trec"], ["all_trec"]),
}
GOALS = {  # rankedu's time over the tool's at most (the memory goal is pytrec_eval's)
    "common": {"pytrec_eval": 0.30, "trec_eval": 1.0, "pyarrow-read": 2.5},
    "all_trec": {"trec_eval": 1.0},
}
GOAL_MEMORY = 0.60
GOAL_MEMORY_LINES = 10_000_000  # the memory goal is for runs this long
TOLERANCE = {"trec_eval": 5e-5 + 1e-12}  # it prints 4 decimals (a half-way value rounds)
# ranx only when named: a round takes it 44 s at 10M lines (README), and one took 33 s on
# 20,000 lines here (its numba compile, after the warm-up), which makes rounds take minutes.
DEFAULT_TOOLS = ["rankedu", "pytrec_eval", "trec_eval", "pyarrow-read"]


# --- the data --------------------------------------------------------------------------------


def docno_names(ids: np.ndarray, style: str) -> list[str]:
    """Document names for integer ids: MS MARCO-like plain numbers, or ClueWeb09-like."""
    if style == "numeric":
        return [str(i) for i in ids.tolist()]
    # ClueWeb09: clueweb09-<segment>-<file>-<record>, about 40,000 records per file.
    return [f"clueweb09-en{i // 4_000_000:04d}-{i // 40_000 % 100:02d}-{i % 40_000:05d}"
            for i in ids.tolist()]


def generate(directory, *, n_queries, depth, n_judged, collection, docnos="numeric",
             qids="numeric", shuffle=False, seed=0):
    """Write ``qrels.txt`` and ``run.txt`` into ``directory``; return their paths."""
    rng = np.random.default_rng(seed)
    qrels_path = os.path.join(directory, "qrels.txt")
    run_path = os.path.join(directory, "run.txt")
    n_unretrieved = n_judged // 2
    shuffled = []
    with open(qrels_path, "w") as qrels, open(run_path, "w") as run:
        for q in range(n_queries):
            qid = f"q{q}" if qids == "numeric" else str(100_000 + q)
            ids = rng.choice(collection, size=depth + n_unretrieved, replace=False)
            names = docno_names(ids, docnos)
            judged = np.concatenate([rng.choice(depth, size=n_judged - n_unretrieved,
                                                replace=False),
                                     np.arange(depth, depth + n_unretrieved)])
            grades = rng.choice([0, 0, 0, 1, 1, 2, 3], size=len(judged))
            qrels.write("".join(f"{qid} 0 {names[j]} {g}\n" for j, g in zip(judged, grades)))
            # Four decimals below 100, drawn with replacement: a few scores tie, and distinct
            # ones stay distinct in pytrec_eval's single precision.
            scores = np.sort(rng.integers(0, 1_000_000, size=depth))[::-1] / 1e4
            lines = [f"{qid} Q0 {names[r]} {r + 1} {s:.4f} bench\n"
                     for r, s in enumerate(scores.tolist())]
            if shuffle:
                shuffled.extend(lines)
            else:
                run.write("".join(lines))
        run.writelines(shuffled[i] for i in rng.permutation(len(shuffled)))
    return qrels_path, run_path


def cached_files(cache, **parameters):
    """The paths of the two files for ``parameters`` (``generate``'s), written into a folder
    of ``cache`` named after them the first time, in a process of its own: the strings it
    makes would stay in this one's memory."""
    directory = os.path.join(cache, "-".join(f"{k}={v}" for k, v in sorted(parameters.items())))
    paths = tuple(os.path.join(directory, name) for name in ("qrels.txt", "run.txt"))
    if not os.path.isdir(directory):
        os.makedirs(cache, exist_ok=True)
        start = time.perf_counter()
        partial = tempfile.mkdtemp(dir=cache)  # renamed once complete
        subprocess.run([sys.executable, os.path.abspath(__file__), "--generate", partial,
                        json.dumps(parameters)], check=True)
        os.rename(partial, directory)
        print(f"generated into {directory} in {time.perf_counter() - start:.0f} s")
    return paths


# --- the tools, each run in a child process (python bench_evaluate.py --child TOOL ...) --------


def prepare(tool, directory):
    """Imports (and ranx's warm-up), done before the clock starts."""
    if tool == "rankedu":
        import rankedu  # noqa: F401
    elif tool == "pytrec_eval":
        import pytrec_eval  # noqa: F401
    elif tool == "pyarrow-read":
        _arrow_options("qrels"), _arrow_options("run")
    elif tool == "ranx":
        small = os.path.join(directory, "warmup")
        os.makedirs(small, exist_ok=True)
        paths = generate(small, n_queries=20, depth=50, n_judged=10, collection=10_000)
        run_ranx(*paths, MEASURE_SETS["common"])


def run_rankedu(qrels_path, run_path, measures):
    import rankedu as rk

    table = rk.evaluate(qrels_path, run_path, measures.rankedu)
    return {measures.printed.get(m, m): table[m].to_dict() for m in table.columns}


def run_pytrec_eval(qrels_path, run_path, measures):
    import pytrec_eval

    with open(qrels_path) as f:
        qrels = pytrec_eval.parse_qrel(f)
    with open(run_path) as f:
        run = pytrec_eval.parse_run(f)
    result = pytrec_eval.RelevanceEvaluator(qrels, set(measures.trec_eval)).evaluate(run)
    names = next(iter(result.values()), {})
    return {m: {q: v[m] for q, v in result.items()} for m in names}


def run_ranx(qrels_path, run_path, measures):
    from ranx import Qrels, Run, evaluate

    qrels = Qrels.from_file(qrels_path, kind="trec")
    run = Run.from_file(run_path, kind="trec")
    scores = evaluate(qrels, run, list(measures.ranx.values()), return_mean=False,
                      make_comparable=True)
    qids = run.get_query_ids()
    return {m: dict(zip(qids, map(float, scores[rx]))) for m, rx in measures.ranx.items()}


def run_pyarrow_read(qrels_path, run_path, measures):
    """Both files read by ``pyarrow.csv.read_csv`` as rankedu's reader calls it, and nothing
    else: no value."""
    import pyarrow.csv as pa_csv

    for path, kind in ((qrels_path, "qrels"), (run_path, "run")):
        pa_csv.read_csv(path, **_arrow_options(kind))


@functools.cache
def _arrow_options(kind):
    """The options ``rankedu.trec.fast_read.parse`` gives ``pyarrow.csv.read_csv`` for a
    ``kind`` file (delimiter, column types, memory pool...), recorded from its call on one
    line, so that the floor reads as rankedu reads whatever the reader's options become. The
    call is stopped before Arrow reads anything: the floor's first read is as cold as
    rankedu's (after a read of one line, rankedu evaluated the 1M-line run in 0.165-0.175 s
    instead of 0.181-0.195 s, three fresh processes each)."""
    import pyarrow.csv as pa_csv

    from rankedu.trec import fast_read
    from rankedu.trec.lines import KINDS

    read, recorded = pa_csv.read_csv, {}

    class Recorded(Exception):
        pass

    def recording(source, **options):
        recorded.update(options)
        raise Recorded

    pa_csv.read_csv = recording
    try:
        line = {"qrels": b"q 0 d 1\n", "run": b"q Q0 d 1 1.5 t\n"}[kind]
        fast_read.parse(line, *KINDS[kind][:3:2])
    except Recorded:
        pass
    finally:
        pa_csv.read_csv = read
    if not recorded:
        raise RuntimeError("rankedu.trec.fast_read.parse did not call pyarrow.csv.read_csv")
    return recorded


PYTHON_TOOLS = {"rankedu": run_rankedu, "pytrec_eval": run_pytrec_eval, "ranx": run_ranx,
                "pyarrow-read": run_pyarrow_read}


def _high_water_mib():
    """This process's peak resident set size so far (Linux VmHWM)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(tool, measure_set, qrels_path, run_path, output):
    start = time.perf_counter()
    prepare(tool, os.path.dirname(output))
    imports = time.perf_counter() - start
    baseline = _high_water_mib()
    start, cpu = time.perf_counter(), time.process_time()
    values = PYTHON_TOOLS[tool](qrels_path, run_path, MEASURE_SETS[measure_set])
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    with open(output, "w") as out:
        json.dump({"seconds": seconds, "cpu": cpu, "imports": imports, "baseline": baseline,
                   "peak": _high_water_mib(), "values": values}, out)


def trec_eval_values(text):
    """``{measure: {qid: value}}`` from ``trec_eval -q``'s output (numbers only)."""
    values = {}
    for line in text.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] != "all":
            try:
                values.setdefault(fields[0], {})[fields[1]] = float(fields[2])
            except ValueError:  # runid, relstring
                pass
    return values


@dataclass
class Round:
    seconds: float
    cpu: float  # seconds of CPU, every thread's (user and system)
    peak: float  # MiB
    baseline: float | None = None  # MiB after the imports (Python tools)
    imports: float | None = None  # seconds
    values: dict | None = None


def measure(tool, measure_set, qrels_path, run_path, directory, binary) -> Round:
    """One round of ``tool`` in its own process."""
    if tool == "trec_eval":
        options = [a for m in MEASURE_SETS[measure_set].trec_eval for a in ("-m", m)]
        command = [binary, "-q", *options, qrels_path, run_path]
    else:
        output = os.path.join(directory, f"{tool}.json")
        command = [sys.executable, os.path.abspath(__file__), "--child", tool, measure_set,
                   qrels_path, run_path, output]
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # Read the pipes before waiting, so a large output cannot block the child.
    stdout, stderr = process.stdout.read(), process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if process.returncode != 0:
        last = stderr.decode(errors="replace").strip().splitlines()[-1:] or ["(no message)"]
        raise RuntimeError(f"exit status {process.returncode}: {last[0]}")
    if tool == "trec_eval":
        return Round(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
                     values=trec_eval_values(stdout.decode()))
    with open(output) as result:
        data = json.load(result)
    return Round(data["seconds"], data["cpu"], data["peak"], data["baseline"], data["imports"],
                 data["values"])


def compare(reference, other):
    """(largest |difference| over every query of the measures both name, how many measures),
    or a reason they cannot be compared."""
    shared = sorted(set(reference) & set(other))
    if not shared:
        return "no measure named alike"
    worst = 0.0
    for name in shared:
        values, theirs = reference[name], other[name]
        if set(values) != set(theirs):
            return f"different queries for {name} ({len(values)} vs {len(theirs)})"
        worst = max([worst, *(abs(values[q] - theirs[q]) for q in values)])
    return worst, len(shared)


def tie_bounds(qrels_path, run_path, measures):
    """``{measure: {qid: (pessimistic, optimistic)}}``: rankedu's values with each query's tied
    documents put in the worst and in the best order (``rk.tie_interval``), under the names
    trec_eval prints."""
    import rankedu as rk

    low, high = rk.tie_interval(qrels_path, run_path, measures.rankedu)
    return {measures.printed.get(m, m): dict(zip(low.index, zip(low[m].tolist(),
                                                                high[m].tolist())))
            for m in low.columns}


def outside_ties(reference, other, bounds, tolerance):
    """(values that differ from rankedu's by more than ``tolerance``, how many of them lie
    outside rankedu's tie bounds widened by it, the measures of those)."""
    differ = outside = 0
    names = set()
    for name in sorted(set(reference) & set(other)):
        for qid, value in reference[name].items():
            if abs(other[name][qid] - value) > tolerance:
                differ += 1
                low, high = bounds[name][qid]
                if not low - tolerance <= other[name][qid] <= high + tolerance:
                    outside += 1
                    names.add(name)
    return differ, outside, sorted(names)


def agreement(tool, worst, values, bounds):
    """How ``tool``'s values compare with rankedu's, in words."""
    if tool not in worst:
        return "-"
    if isinstance(worst[tool], str):
        return worst[tool]
    largest, shared = worst[tool]
    text = f"{shared} measures: max |diff| {largest:.1e}"
    if largest > TOLERANCE.get(tool, 0.0):
        differ, outside, names = outside_ties(values["rankedu"], values[tool], bounds,
                                              TOLERANCE.get(tool, 0.0))
        text += (f"; {differ} differ, all inside rk.tie_interval" if not outside
                 else f"; {outside} of {differ} differing outside rk.tie_interval, in "
                      f"{', '.join(names)}")
    return text


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000,
                        help="run lines (default 1,000,000): --lines / --depth queries")
    parser.add_argument("--depth", type=int, default=1000, help="documents per query")
    parser.add_argument("--judged", type=int, default=100, help="judgments per query")
    parser.add_argument("--collection", type=int, default=50_000_000,
                        help="documents in the collection the run draws from (default 50M)")
    parser.add_argument("--docnos", choices=["numeric", "clueweb"], default="numeric")
    parser.add_argument("--qids", choices=["numeric", "padded"], default="numeric",
                        help="q0, q1, ... (numeric order, as most runs) or 100000, 100001, ...")
    parser.add_argument("--shuffle", action="store_true", help="write the run in random order")
    parser.add_argument("--measures", choices=list(MEASURE_SETS), default="common")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "rankedu-bench"),
                        help="where the generated files are kept (default: /tmp/rankedu-bench)")
    parser.add_argument("--tools", nargs="+", default=None,
                        help=f"tools to time (default: {' '.join(DEFAULT_TOOLS)}; ranx too "
                             f"when named)")
    parser.add_argument("--child", nargs=5, metavar=("TOOL", "SET", "QRELS", "RUN", "OUT"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--generate", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(*args.child)
        return
    if args.generate:
        generate(args.generate[0], **json.loads(args.generate[1]))
        return

    measures = MEASURE_SETS[args.measures]
    tools = [t for t in ["rankedu", "pytrec_eval", "ranx", "trec_eval", "pyarrow-read"]
             if t in (args.tools or DEFAULT_TOOLS)]
    # Looked for, not imported: importing ranx (numba) would make this process 400 MB, and
    # trec_eval's ru_maxrss starts from it.
    if "ranx" in tools and (measures.ranx is None or importlib.util.find_spec("ranx") is None):
        tools.remove("ranx")
        print("ranx: not timed (not installed, or not with these measures)")
    rounds = {tool: [] for tool in tools}
    failed = {}
    binary = None
    if "trec_eval" in tools:
        # Built in a child process: importing rankedu here would grow this process, and
        # trec_eval's ru_maxrss starts from it.
        build = ("from rankedu.teaching.trec_eval_program import binary; "
                 "print(binary())")
        try:
            binary = subprocess.run([sys.executable, "-c", build], check=True,
                                    capture_output=True, text=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError) as error:
            detail = getattr(error, "stderr", "") or ""
            failed["trec_eval"] = f"building trec_eval 10.0 failed: {error} {detail}".strip()

    n_queries = max(args.lines // args.depth, 1)
    qrels_path, run_path = cached_files(
        args.cache, n_queries=n_queries, depth=args.depth, n_judged=args.judged,
        collection=args.collection, docnos=args.docnos, qids=args.qids,
        shuffle=args.shuffle, seed=args.seed)
    print(f"{n_queries:,} queries x {args.depth:,} documents = {n_queries * args.depth:,} run "
          f"lines ({os.path.getsize(run_path) / 2**20:.0f} MiB; {args.qids} qids, "
          f"{args.docnos} docnos from a collection of {args.collection:,}"
          f"{', shuffled' if args.shuffle else ', each query best first'}), {args.judged} "
          f"judged per query; load average {os.getloadavg()[0]:.1f} at the start")

    with tempfile.TemporaryDirectory() as directory:
        for _ in range(args.rounds):
            for tool in tools:
                if tool in failed:
                    continue
                try:
                    rounds[tool].append(measure(tool, args.measures, qrels_path, run_path,
                                                directory, binary))
                except Exception as error:  # a benchmark reports, it does not fail
                    failed[tool] = str(error)
    values = {t: r[-1].values for t, r in rounds.items() if r and r[-1].values is not None}
    # After the timing (this process grows): where a tool disagrees with rankedu, is it only
    # in the order of tied documents?
    worst = {tool: compare(values["rankedu"], values[tool]) for tool in values
             if "rankedu" in values and tool != "rankedu"}
    bounds = None
    if any(not isinstance(w, str) and w[0] > TOLERANCE.get(t, 0.0) for t, w in worst.items()):
        bounds = tie_bounds(qrels_path, run_path, measures)
    report(args, tools, rounds, failed, worst, values, bounds)


def report(args, tools, rounds, failed, worst, values, bounds):
    """The table of times, memory and ratios, and the goals."""
    names = ", ".join(MEASURE_SETS[args.measures].rankedu)
    print(f"\n{args.rounds} rounds, each tool in its own process; measures {names}; time = "
          f"median of the rounds (imports excluded), CPU = its median CPU time (all threads; "
          f"less sensitive to the machine's load), memory = peak RSS")
    print(f"  {'tool':<12} {'time s':>7} {'all rounds':<22} {'rankedu ÷':>9} {'CPU s':>6} "
          f"{'rankedu ÷':>9} {'peak MiB':>9} {'(imports)':>9}  values vs rankedu")
    median = {t: statistics.median(r.seconds for r in rounds[t]) for t in tools if rounds[t]}
    cpu = {t: statistics.median(r.cpu for r in rounds[t]) for t in tools if rounds[t]}
    peak = {t: max(r.peak for r in rounds[t]) for t in tools if rounds[t]}
    for tool in tools:
        if tool not in median:
            print(f"  {tool:<12} failed: {failed.get(tool, 'no round run')}")
            continue
        runs = " ".join(f"{r.seconds:.2f}" for r in rounds[tool])
        ratio = (f"{median['rankedu'] / median[tool]:9.2f} {cpu[tool]:6.2f} "
                 f"{cpu['rankedu'] / cpu[tool]:9.2f}" if "rankedu" in median
                 else f"{'-':>9} {cpu[tool]:6.2f} {'-':>9}")
        base = rounds[tool][-1].baseline
        base = f"{base:9.0f}" if base else f"{'-':>9}"
        note = agreement(tool, worst, values, bounds)
        if tool == "rankedu":
            note = f"(import {statistics.median(r.imports for r in rounds[tool]):.2f} s)"
        print(f"  {tool:<12} {median[tool]:7.2f} {runs:<22} {ratio} {peak[tool]:9.0f} "
              f"{base}  {note}")
        if tool in failed:
            print(f"  {'':<12} then failed: {failed[tool]}")
    print()
    for tool, goal in GOALS[args.measures].items():
        if "rankedu" in median and tool in median:
            ratio = median["rankedu"] / median[tool]
            verdict = "met" if ratio <= goal else "NOT met"
            print(f"goal time   rankedu <= {goal:.2f} x {tool}: {ratio:.2f} -> {verdict} (CPU "
                  f"time: {cpu['rankedu'] / cpu[tool]:.2f})")
        else:
            missing = "rankedu" if "rankedu" not in median else tool
            why = f"failed: {failed[missing]}" if missing in failed else "not timed"
            print(f"goal time   rankedu <= {goal:.2f} x {tool}: not measured ({missing} {why})")
    if args.measures == "common" and "rankedu" in peak and "pytrec_eval" in peak:
        memory_ratio = peak["rankedu"] / peak["pytrec_eval"]
        verdict = "met" if memory_ratio <= GOAL_MEMORY else "NOT met"
        if args.lines < GOAL_MEMORY_LINES:
            verdict = f"(the goal is for {GOAL_MEMORY_LINES:,} lines)"
        print(f"goal memory rankedu <= {GOAL_MEMORY:.2f} x pytrec_eval: {memory_ratio:.2f} -> "
              f"{verdict}")
    print(f"(python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f} at the end)")


if __name__ == "__main__":
    main()
