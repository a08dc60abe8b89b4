"""How fast is ``rankedu.evaluate`` on a realistic run, from TREC files on disk to per-query values?

The run looks like a real one (an MS MARCO or TREC submission): ``--queries`` queries, each
retrieving ``--depth`` documents drawn from a collection of ``--collection`` documents (50
million by default), so that nearly every line names a different document; the lines come in
rank order (``--shuffle`` writes them in random order); scores are four-decimal numbers below
100, distinct in single precision unless equal (a few scores tie, so docno tie-breaking is
exercised); the qrels judge ``--judged`` documents per query with grades 0-3, half of them
retrieved and half not. Docnos look like ClueWeb09's (``clueweb09-en0003-47-01234``) or, with
``--docnos numeric``, like MS MARCO's passage ids (``7067032``).

Each tool runs in its own process, ``--rounds`` times, interleaved:

- rankedu: ``rk.evaluate(qrels_path, run_path, measures)`` (reading included);
- pytrec_eval: its own ``parse_qrel`` and ``parse_run`` on the open files, then
  ``RelevanceEvaluator(...).evaluate(run)``;
- ranx, when installed (pinned in ``requirements.txt``): ``Qrels.from_file``, ``Run.from_file``
  and ``evaluate(..., return_mean=False)``, after a warm-up call in the same process that
  compiles its numba functions;
- trec_eval's binary, when one is on PATH: ``trec_eval -q -m ...`` on the two files.

A Python tool's time excludes its imports (and ranx's warm-up); trec_eval's is the wall time
of its process. Peak memory is the child's peak resident set size, imports included: a Python
tool reads its own (``VmHWM``) as it ends, and the import baseline is shown beside it;
trec_eval's is ``ru_maxrss`` from ``os.wait4``. (On Linux a child's ``ru_maxrss`` starts from
its parent's resident size, so the runs are generated in a process of their own, and the parent
stays small.)
The best time of the rounds counts and the largest peak. Values are compared query by query
with rankedu's (trec_eval prints 4 decimals: its values differ only beyond 5e-5); where a
tool's values differ, the benchmark counts how many lie outside ``rk.tie_interval``'s bounds (none, when the
difference is only the order of tied documents, as ranx keeps the file's).

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_evaluate.py --lines 1000000``.
It is a benchmark, not a test: it reports and never fails (a tool that fails is reported as
such). The goals: rankedu at most 0.40 x pytrec_eval's time, and at most 0.60 x its peak
memory (checked at 10M lines).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

MEASURES = {
    # rankedu: (pytrec_eval and trec_eval, ranx)
    "AP": ("map", "map"),
    "nDCG@10": ("ndcg_cut_10", "ndcg@10"),
    "P@10": ("P_10", "precision@10"),
    "RR": ("recip_rank", "mrr"),
}
TREC_EVAL_OPTIONS = ["-m", "map", "-m", "ndcg_cut.10", "-m", "P.10", "-m", "recip_rank"]
GOAL_TIME, GOAL_MEMORY = 0.40, 0.60
GOAL_MEMORY_LINES = 10_000_000  # the memory goal is for runs this long
TOLERANCE = {"trec_eval": 5e-5}  # it prints 4 decimals


# --- the data --------------------------------------------------------------------------------


def docno_names(ids: np.ndarray, style: str) -> list[str]:
    """Document names for integer ids: ClueWeb09-like, or MS MARCO-like plain numbers."""
    if style == "numeric":
        return [str(i) for i in ids.tolist()]
    # ClueWeb09: clueweb09-<segment>-<file>-<record>, about 40,000 records per file.
    return [f"clueweb09-en{i // 4_000_000:04d}-{i // 40_000 % 100:02d}-{i % 40_000:05d}"
            for i in ids.tolist()]


def generate(directory, *, n_queries, depth, n_judged, collection, docnos="clueweb",
             shuffle=False, seed=0):
    """Write ``qrels.txt`` and ``run.txt`` into ``directory``; return their paths."""
    rng = np.random.default_rng(seed)
    qrels_path = os.path.join(directory, "qrels.txt")
    run_path = os.path.join(directory, "run.txt")
    n_unretrieved = n_judged // 2
    run_chunks = []
    with open(qrels_path, "w") as qrels:
        for q in range(n_queries):
            qid = str(100_000 + q)
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
                run_chunks.extend(lines)
            else:
                run_chunks.append("".join(lines))
    with open(run_path, "w") as run:
        if shuffle:
            order = rng.permutation(len(run_chunks))
            run.writelines(run_chunks[i] for i in order)
        else:
            run.writelines(run_chunks)
    return qrels_path, run_path


# --- the tools, each run in a child process (python bench_evaluate.py --child TOOL ...) --------


def prepare(tool, directory):
    """Imports (and ranx's warm-up), done before the clock starts."""
    if tool == "rankedu":
        import rankedu  # noqa: F401
    elif tool == "pytrec_eval":
        import pytrec_eval  # noqa: F401
    elif tool == "ranx":
        small = os.path.join(directory, "warmup")
        os.makedirs(small, exist_ok=True)
        paths = generate(small, n_queries=20, depth=50, n_judged=10, collection=10_000)
        run_ranx(*paths)


def run_rankedu(qrels_path, run_path):
    import rankedu as rk

    table = rk.evaluate(qrels_path, run_path, list(MEASURES))
    return {m: table[m].to_dict() for m in MEASURES}


def run_pytrec_eval(qrels_path, run_path):
    import pytrec_eval

    with open(qrels_path) as f:
        qrels = pytrec_eval.parse_qrel(f)
    with open(run_path) as f:
        run = pytrec_eval.parse_run(f)
    names = {"map", "ndcg_cut.10", "P.10", "recip_rank"}
    result = pytrec_eval.RelevanceEvaluator(qrels, names).evaluate(run)
    return {m: {q: v[te] for q, v in result.items()} for m, (te, _) in MEASURES.items()}


def run_ranx(qrels_path, run_path):
    from ranx import Qrels, Run, evaluate

    qrels = Qrels.from_file(qrels_path, kind="trec")
    run = Run.from_file(run_path, kind="trec")
    metrics = [rx for _, rx in MEASURES.values()]
    scores = evaluate(qrels, run, metrics, return_mean=False, make_comparable=True)
    qids = run.get_query_ids()
    return {m: dict(zip(qids, map(float, scores[rx]))) for m, (_, rx) in MEASURES.items()}


PYTHON_TOOLS = {"rankedu": run_rankedu, "pytrec_eval": run_pytrec_eval, "ranx": run_ranx}


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


def child(tool, qrels_path, run_path, output):
    prepare(tool, os.path.dirname(output))
    baseline = _high_water_mib()
    start = time.perf_counter()
    values = PYTHON_TOOLS[tool](qrels_path, run_path)
    seconds = time.perf_counter() - start
    with open(output, "w") as out:
        json.dump({"seconds": seconds, "baseline": baseline, "peak": _high_water_mib(),
                   "values": values}, out)


def trec_eval_values(text):
    names = {te: m for m, (te, _) in MEASURES.items()}
    values = {m: {} for m in MEASURES}
    for line in text.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[0] in names and fields[1] != "all":
            values[names[fields[0]]][fields[1]] = float(fields[2])
    return values


def measure(tool, qrels_path, run_path, directory):
    """One round of ``tool`` in its own process: (seconds, peak MiB, baseline MiB, values)."""
    if tool == "trec_eval":
        command = [shutil.which("trec_eval"), "-q", *TREC_EVAL_OPTIONS, qrels_path, run_path]
    else:
        output = os.path.join(directory, f"{tool}.json")
        command = [sys.executable, os.path.abspath(__file__), "--child", tool, qrels_path,
                   run_path, output]
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
        return wall, usage.ru_maxrss / 1024, None, trec_eval_values(stdout.decode())  # KiB
    with open(output) as result:
        data = json.load(result)
    return data["seconds"], data["peak"], data["baseline"], data["values"]


def compare(reference, other):
    """Largest |difference| over every (measure, query), or a reason they cannot be compared."""
    worst = 0.0
    for name, values in reference.items():
        theirs = other.get(name, {})
        if set(values) != set(theirs):
            return f"different queries for {name} ({len(values)} vs {len(theirs)})"
        worst = max([worst, *(abs(values[q] - theirs[q]) for q in values)])
    return worst


def tie_bounds(qrels_path, run_path):
    """``{measure: {qid: (pessimistic, optimistic)}}``: rankedu's values with each query's tied
    documents put in the worst and in the best order (``rk.tie_interval``)."""
    import rankedu as rk

    low, high = rk.tie_interval(qrels_path, run_path, list(MEASURES))
    return {m: dict(zip(low.index, zip(low[m].tolist(), high[m].tolist()))) for m in MEASURES}


def outside_ties(reference, other, bounds, tolerance):
    """(values that differ from rankedu's by more than ``tolerance``, how many of them lie
    outside rankedu's tie bounds widened by it)."""
    differ = outside = 0
    for name, values in reference.items():
        for qid, value in values.items():
            if abs(other[name][qid] - value) > tolerance:
                differ += 1
                low, high = bounds[name][qid]
                outside += not low - tolerance <= other[name][qid] <= high + tolerance
    return differ, outside


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000,
                        help="run lines (default 1,000,000): --lines / --depth queries")
    parser.add_argument("--depth", type=int, default=1000, help="documents per query")
    parser.add_argument("--judged", type=int, default=100, help="judgments per query")
    parser.add_argument("--collection", type=int, default=50_000_000,
                        help="documents in the collection the run draws from (default 50M)")
    parser.add_argument("--docnos", choices=["clueweb", "numeric"], default="clueweb")
    parser.add_argument("--shuffle", action="store_true", help="write the run in random order")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tools", nargs="+", default=None,
                        help="tools to time (default: every one available)")
    parser.add_argument("--child", nargs=4, metavar=("TOOL", "QRELS", "RUN", "OUT"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--generate", nargs=8, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(*args.child)
        return
    if args.generate:
        directory, *numbers, docnos, shuffle, seed = args.generate
        generate(directory, **dict(zip(("n_queries", "depth", "n_judged", "collection"),
                                       map(int, numbers))),
                 docnos=docnos, shuffle=bool(int(shuffle)), seed=int(seed))
        return

    tools = ["rankedu", "pytrec_eval"]
    # Looked for, not imported: importing ranx (numba) would make this process 400 MB, and
    # trec_eval's ru_maxrss starts from it.
    if importlib.util.find_spec("ranx") is not None:
        tools.append("ranx")
    else:
        print("ranx is not installed (pinned in requirements.txt): not timed")
    if shutil.which("trec_eval"):
        tools.append("trec_eval")
    else:
        print("no trec_eval binary on PATH: not timed")
    if args.tools:
        tools = [t for t in tools if t in args.tools]

    n_queries = max(args.lines // args.depth, 1)
    with tempfile.TemporaryDirectory() as directory:
        start = time.perf_counter()
        # In a process of its own: the strings it makes would stay in this one's memory.
        subprocess.run([sys.executable, os.path.abspath(__file__), "--generate", directory,
                        str(n_queries), str(args.depth), str(args.judged),
                        str(args.collection), args.docnos, str(int(args.shuffle)),
                        str(args.seed)], check=True)
        qrels_path, run_path = (os.path.join(directory, name) for name in ("qrels.txt",
                                                                          "run.txt"))
        print(f"generated {n_queries:,} queries x {args.depth:,} documents = "
              f"{n_queries * args.depth:,} run lines ({os.path.getsize(run_path) / 2**20:.0f} MiB; "
              f"{args.docnos} docnos from a collection of {args.collection:,}"
              f"{', shuffled' if args.shuffle else ', in rank order'}), {args.judged} judged "
              f"per query, in {time.perf_counter() - start:.0f} s")

        times = {tool: [] for tool in tools}
        peaks = {tool: [] for tool in tools}
        baselines, values, failed = {}, {}, {}
        for _ in range(args.rounds):
            for tool in tools:
                if tool in failed:
                    continue
                try:
                    seconds, peak, baseline, result = measure(tool, qrels_path, run_path,
                                                              directory)
                except Exception as error:  # a benchmark reports, it does not fail
                    failed[tool] = str(error)
                    continue
                times[tool].append(seconds)
                peaks[tool].append(peak)
                baselines[tool], values[tool] = baseline, result
        # After the timing (this process grows): where a tool disagrees with rankedu, is it
        # only in the order of tied documents?
        worst = {tool: compare(values["rankedu"], values[tool]) for tool in values
                 if "rankedu" in values and tool != "rankedu"}
        bounds = None
        if any(not isinstance(w, str) and w > TOLERANCE.get(t, 0.0) for t, w in worst.items()):
            bounds = tie_bounds(qrels_path, run_path)

    print(f"\n{args.rounds} rounds, each tool in its own process; measures "
          f"{', '.join(MEASURES)}; time = best round (imports excluded), memory = peak RSS")
    print(f"  {'tool':<12} {'time s':>7} {'all rounds':<22} {'÷ pytrec_eval':>13} "
          f"{'peak MiB':>9} {'(imports)':>9} {'÷ pytrec_eval':>13}  values vs rankedu")
    best = {t: min(times[t]) for t in tools if times[t]}
    peak = {t: max(peaks[t]) for t in tools if peaks[t]}
    for tool in tools:
        if tool in failed and tool not in best:
            print(f"  {tool:<12} failed: {failed[tool]}")
            continue
        runs = " ".join(f"{t:.2f}" for t in times[tool])
        ratio_t = (f"{best[tool] / best['pytrec_eval']:13.2f}" if "pytrec_eval" in best
                   else f"{'-':>13}")
        ratio_m = (f"{peak[tool] / peak['pytrec_eval']:13.2f}" if "pytrec_eval" in peak
                   else f"{'-':>13}")
        base = f"{baselines[tool]:9.0f}" if baselines.get(tool) else f"{'-':>9}"
        if tool not in worst:
            agreement = "-"
        elif isinstance(worst[tool], str):
            agreement = worst[tool]
        else:
            agreement = f"max |diff| {worst[tool]:.1e}"
            if worst[tool] > TOLERANCE.get(tool, 0.0):
                differ, outside = outside_ties(values["rankedu"], values[tool], bounds,
                                               TOLERANCE.get(tool, 0.0))
                agreement += (f"; {differ} differ, all inside rk.tie_interval" if not outside
                              else f"; {outside} of {differ} differing outside rk.tie_interval")
        print(f"  {tool:<12} {best[tool]:7.2f} {runs:<22} {ratio_t} {peak[tool]:9.0f} {base} "
              f"{ratio_m}  {agreement}")
    if "rankedu" in best and "pytrec_eval" in best:
        time_ratio = best["rankedu"] / best["pytrec_eval"]
        memory_ratio = peak["rankedu"] / peak["pytrec_eval"]
        print(f"\ngoal time   <= {GOAL_TIME:.2f} x pytrec_eval: {time_ratio:.2f} -> "
              f"{'met' if time_ratio <= GOAL_TIME else 'NOT met'}")
        verdict = "met" if memory_ratio <= GOAL_MEMORY else "NOT met"
        if args.lines < GOAL_MEMORY_LINES:
            verdict = f"(the goal is for {GOAL_MEMORY_LINES:,} lines)"
        print(f"goal memory <= {GOAL_MEMORY:.2f} x pytrec_eval: {memory_ratio:.2f} -> {verdict}")
    print(f"(python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f} at the end)")


if __name__ == "__main__":
    main()
