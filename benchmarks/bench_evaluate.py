"""How fast is ``rankedu.evaluate``, from TREC files on disk to the per-query table?

Generates a run of ``--queries`` queries x ``--docs`` documents (2,000 x 500 = 1,000,000 lines by
default) and qrels with ``--judged`` judged documents per query (half of them retrieved), writes
both as TREC files, and times, side by side in this one process:

- rankedu: ``rk.evaluate(qrels_path, run_path, measures)`` (reading included);
- pytrec_eval: its own ``parse_qrel``/``parse_run`` on the open files, then
  ``RelevanceEvaluator(...).evaluate(run)`` (its per-query dict is its table);
- ranx, when installed: ``Qrels.from_file``, ``Run.from_file`` and ``evaluate(...,
  return_mean=False)``, after a warm-up call that compiles its numba functions.

Each tool runs ``--repeat`` times, interleaved; the best time counts. The per-query values are
checked to agree (scores are distinct and float32-exact, so there are no ties and no
near-ties for the tools to break differently). Peak memory is measured per tool in a fresh
process (peak resident set size, Linux ``VmHWM``, after the imports and after the run), and
in this process with ``tracemalloc`` (Python and numpy allocations only; pytrec_eval's C++
side is invisible to it).

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_evaluate.py``. It is a
benchmark, not a test: timings depend on the machine and its load, so nothing here fails on a
slow run; it prints the ratios and whether the goals (rankedu <= 0.5 x pytrec_eval, and no
slower than warm ranx) were met.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import sys
import tempfile
import time
import tracemalloc

import numpy as np

MEASURES = {
    # rankedu: (pytrec_eval, ranx)
    "AP": ("map", "map"),
    "nDCG@10": ("ndcg_cut_10", "ndcg@10"),
    "nDCG": ("ndcg", "ndcg"),
    "P@10": ("P_10", "precision@10"),
    "R@100": ("recall_100", "recall@100"),
    "RR": ("recip_rank", "mrr"),
}


def generate(directory, n_queries=2000, n_docs=500, n_judged=100, seed=0):
    """Write ``qrels.txt`` and ``run.txt`` into ``directory``; return their paths."""
    rng = np.random.default_rng(seed)
    qrels_path = os.path.join(directory, "qrels.txt")
    run_path = os.path.join(directory, "run.txt")
    collection = 20 * n_docs
    with open(qrels_path, "w") as qrels, open(run_path, "w") as run:
        for q in range(n_queries):
            qid = str(1000 + q)
            docs = rng.choice(collection, size=n_docs + n_judged // 2, replace=False)
            retrieved = docs[:n_docs]
            judged = np.concatenate(
                [rng.choice(retrieved, size=n_judged - n_judged // 2, replace=False),
                 docs[n_docs:]]
            )
            grades = rng.choice([0, 0, 0, 1, 1, 2, 3], size=len(judged))
            qrels.write("".join(f"{qid} 0 D{d:07d} {g}\n" for d, g in zip(judged, grades)))
            # Distinct scores with four decimals below 100: exact enough in float32 that
            # pytrec_eval's single-precision scores keep them apart.
            scores = np.sort(rng.choice(1_000_000, size=n_docs, replace=False))[::-1] / 1e4
            run.write("".join(
                f"{qid} Q0 D{d:07d} {r} {s:.4f} bench\n"
                for r, (d, s) in enumerate(zip(retrieved, scores), start=1)
            ))
    return qrels_path, run_path


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
    names = {"map", "ndcg_cut.10", "ndcg", "P.10", "recall.100", "recip_rank"}
    result = pytrec_eval.RelevanceEvaluator(qrels, names).evaluate(run)
    return {m: {q: v[te] for q, v in result.items()} for m, (te, _) in MEASURES.items()}


def run_ranx(qrels_path, run_path):
    from ranx import Qrels, Run, evaluate

    qrels = Qrels.from_file(qrels_path, kind="trec")
    run = Run.from_file(run_path, kind="trec")
    metrics = [rx for _, rx in MEASURES.values()]
    scores = evaluate(qrels, run, metrics, return_mean=False, make_comparable=True)
    qids = run.get_query_ids()
    return {m: dict(zip(qids, scores[rx])) for m, (_, rx) in MEASURES.items()}


TOOLS = {"rankedu": run_rankedu, "pytrec_eval": run_pytrec_eval, "ranx": run_ranx}


def _has_ranx():
    try:
        import ranx  # noqa: F401
    except ImportError:
        return False
    return True


def _high_water_mb():
    """This process's peak resident set size (Linux VmHWM; reset by exec, unlike ru_maxrss)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _peak_rss_child(tool, qrels_path, run_path, queue):
    import pytrec_eval  # noqa: F401  (imports count toward the baseline, not the tool)

    import rankedu  # noqa: F401

    if tool == "ranx":
        import ranx  # noqa: F401
    before = _high_water_mb()
    TOOLS[tool](qrels_path, run_path)
    queue.put((_high_water_mb(), before))


def peak_rss_mb(tool, qrels_path, run_path):
    """Peak resident memory of a fresh process running ``tool`` once, and of its imports."""
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    process = context.Process(target=_peak_rss_child, args=(tool, qrels_path, run_path, queue))
    process.start()
    peak, baseline = queue.get()
    process.join()
    return peak, baseline


def tracemalloc_peak_mb(tool, qrels_path, run_path):
    tracemalloc.start()
    TOOLS[tool](qrels_path, run_path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def compare(reference, other, name, tol=1e-9):
    worst = 0.0
    for measure, values in reference.items():
        theirs = other[measure]
        if set(values) != set(theirs):
            raise SystemExit(f"{name}: different queries for {measure}")
        diff = max(abs(values[q] - theirs[q]) for q in values)
        worst = max(worst, diff)
        if diff > tol:
            raise SystemExit(f"{name} disagrees with rankedu on {measure}: max |diff| {diff:.3g}")
    return worst


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--docs", type=int, default=500)
    parser.add_argument("--judged", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-memory", action="store_true", help="skip the memory measurements")
    args = parser.parse_args(argv)

    tools = ["rankedu", "pytrec_eval"] + (["ranx"] if _has_ranx() else [])
    with tempfile.TemporaryDirectory() as directory:
        start = time.perf_counter()
        qrels_path, run_path = generate(directory, args.queries, args.docs, args.judged,
                                        args.seed)
        print(f"generated {args.queries} queries x {args.docs} documents "
              f"({args.queries * args.docs:,} run lines, {args.judged} judged per query) "
              f"in {time.perf_counter() - start:.1f} s")
        if "ranx" in tools:
            # Compile ranx's numba functions on a small sample first: "warm" ranx.
            small = os.path.join(directory, "small")
            os.mkdir(small)
            start = time.perf_counter()
            run_ranx(*generate(small, 20, 50, 10, args.seed))
            print(f"ranx warm-up (numba compilation or cache load): "
                  f"{time.perf_counter() - start:.1f} s")
        else:
            print("ranx is not installed: timing rankedu and pytrec_eval only")

        times = {tool: [] for tool in tools}
        results = {}
        for _ in range(args.repeat):
            for tool in tools:
                start = time.perf_counter()
                results[tool] = TOOLS[tool](qrels_path, run_path)
                times[tool].append(time.perf_counter() - start)

        print(f"\nper-query values: {len(results['rankedu']['AP'])} queries x "
              f"{len(MEASURES)} measures ({', '.join(MEASURES)})")
        for tool in tools[1:]:
            worst = compare(results["rankedu"], results[tool], tool)
            print(f"  rankedu agrees with {tool}: max |difference| {worst:.2e}")

        memory = {}
        if not args.no_memory:
            for tool in tools:
                rss, baseline = peak_rss_mb(tool, qrels_path, run_path)
                memory[tool] = (rss, baseline, tracemalloc_peak_mb(tool, qrels_path, run_path))

    best = {tool: min(t) for tool, t in times.items()}
    print(f"\nbest of {args.repeat} (seconds, files on disk -> per-query values):")
    header = f"  {'tool':<12} {'best':>7} {'all runs':<24} {'/ pytrec_eval':>13}"
    if memory:
        header += f" {'peak RSS MB':>12} {'(imports)':>10} {'tracemalloc MB':>15}"
    print(header)
    for tool in tools:
        runs = " ".join(f"{t:.2f}" for t in times[tool])
        line = f"  {tool:<12} {best[tool]:7.2f} {runs:<24} {best[tool] / best['pytrec_eval']:13.2f}"
        if memory:
            rss, baseline, traced = memory[tool]
            line += f" {rss:12.0f} {baseline:10.0f} {traced:15.0f}"
        print(line)

    ratio = best["rankedu"] / best["pytrec_eval"]
    print(f"\ngoal rankedu <= 0.5 x pytrec_eval: {ratio:.2f} -> {'met' if ratio <= 0.5 else 'NOT met'}")
    if "ranx" in best:
        ratio = best["rankedu"] / best["ranx"]
        print(f"goal rankedu <= warm ranx:         {ratio:.2f} -> {'met' if ratio <= 1 else 'NOT met'}")
    print(f"(python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f} at the end)")


if __name__ == "__main__":
    main()
