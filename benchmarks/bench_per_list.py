"""Is every per-list function of rankedu bounded by its input? Time and memory at 10^6 elements.

The goal (issue 16): every public function on one list — and its ``rk.explain`` counterpart —
handles 10^6 elements in under 2 s and 1 GiB on the project's machine, or (an explanation only)
refuses above a documented size with a clear error; a cutoff past the end of a list costs
nothing. This script prints one row per call:

    function, n, seconds (best of 3), peak MiB, within bound (yes / no)

Each call runs in its own process (``--case NAME``), so one call's memory never counts against
another. Its inputs are seeded random data built before the clock starts: grades 0-4 (divided by 4 as
the gains in [0, 1] of RBP and INST), scores and attractiveness uniform, labels 0/1, 100,000 groups (``gauc``); lists of lists are 1,000
queries of 1,000 documents. The time is the best of three calls; the peak is the child's peak
resident set size (``ru_maxrss``), which includes the interpreter, numpy, pandas and the inputs
(the baseline of ``import rankedu`` alone is printed first). A call that fails (a missing
function, an error, more than ``--timeout`` seconds or ``--memory-limit`` MiB of address space)
is reported as such.

It also prints the import time of ``rankedu`` beside that of pandas (best of 3 fresh processes),
which used to be a timing-dependent test.

Run with ``make bench-per-list`` or ``.venv/bin/python benchmarks/bench_per_list.py``
(``--n 100000`` for a quick look, ``--only ndcg`` for some rows). It is a benchmark, not a
test: it prints and never fails.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import time

import numpy as np

TIME_BOUND, MEMORY_BOUND_MIB = 2.0, 1024


def _inputs(n: int) -> dict:
    rng = np.random.default_rng(2024)
    rels = rng.integers(0, 5, n)
    queries = max(1, n // 1000)
    return {
        "rels": rels,
        "pool": np.r_[rels, rng.integers(0, 5, 1000)],
        "scores": rng.random(n),
        "other_scores": rng.random(n),
        "labels": rng.integers(0, 2, n),
        "predicted": rng.integers(0, 2, n),
        "groups": rng.integers(0, 100_000, n),
        "attractiveness": rng.random(n) * 0.01,
        "lists": [rels[i::queries] for i in range(queries)],
    }


def _registry_calls(d: dict) -> dict:
    """name -> call for every measure of the registry, called as ``evaluate`` calls its per-list
    function for one query (at cutoff 10 where a cutoff is required, recall 0.5 where it is a
    recall level; the grades divided by 4 for the measures that read them as gains in [0, 1])."""
    from rankedu.trec.measures import MEASURES, QueryLists, parse

    pool = d["pool"]
    lists = QueryLists(rels=d["rels"], pool=pool, n_relevant=int((pool >= 1).sum()),
                       n_nonrelevant=int((pool == 0).sum()), max_grade=4,
                       judged=np.ones(len(d["rels"]), bool))
    unit = QueryLists(rels=d["rels"] / 4, pool=pool / 4, n_relevant=lists.n_relevant)
    calls = {}
    for measure in MEASURES.values():
        at = "@0.5" if measure.cutoff_type is float else "@10"
        spec = parse([measure.name + (at if measure.cutoff == "required" else "")])[0]
        arguments = spec.arguments(unit if measure.unit_gains else lists)
        calls[measure.function.__name__] = (
            lambda name, arguments: lambda m: getattr(m, name)(**arguments)
        )(measure.function.__name__, arguments)
    return calls


def _cases(rk, d: dict) -> dict:
    """name -> call, for every per-list call the bench covers (plain and explained): every
    measure of the registry, and the per-list functions ``evaluate`` does not call."""
    r, s, y = d["rels"], d["scores"], d["labels"]
    calls = {
        **_registry_calls(d),
        "f_at_k": lambda m: m.f_at_k(r, None),
        "mean_average_precision": lambda m: m.mean_average_precision(d["lists"]),
        "mean_precision_at_ranks": lambda m: m.mean_precision_at_ranks(r),
        "mean_reciprocal_rank": lambda m: m.mean_reciprocal_rank(d["lists"]),
        "cumulative_gain": lambda m: m.cumulative_gain(r),
        "dcg": lambda m: m.dcg(r, gain="exponential"),
        "idcg": lambda m: m.idcg(d["pool"]),
        "cascade_metric": lambda m: m.cascade_metric(r, lambda k: 1 / math.log2(k + 1), max_grade=4),
        "click_probabilities": lambda m: m.click_probabilities(d["attractiveness"]),
        "pair_ratio": lambda m: m.pair_ratio(r, s),
        "kendall_tau": lambda m: m.kendall_tau(r, s),
        "goodman_kruskal_gamma": lambda m: m.goodman_kruskal_gamma(r, s),
        "roc_auc": lambda m: m.roc_auc(y, s),
        "gauc": lambda m: m.gauc(d["groups"], y, s),
        "auc_standard_error": lambda m: m.auc_standard_error(y, s),
        "delong_test": lambda m: m.delong_test(y, s, d["other_scores"]),
        "confusion_matrix": lambda m: m.confusion_matrix(y, d["predicted"]),
        "accuracy": lambda m: m.accuracy(y, d["predicted"]),
        "precision": lambda m: m.precision(y, d["predicted"]),
        "recall": lambda m: m.recall(y, d["predicted"]),
        "true_positive_rate": lambda m: m.true_positive_rate(y, d["predicted"]),
        "false_positive_rate": lambda m: m.false_positive_rate(y, d["predicted"]),
        "f_beta": lambda m: m.f_beta(y, d["predicted"], beta=2.0),
    }
    # Functions without an explain counterpart (curves, a simulation) are timed plainly only.
    plain_only = {
        "roc_curve": lambda m: m.roc_curve(y, s),
        "precision_recall_curve": lambda m: m.precision_recall_curve(r),
        "simulate_cascade": lambda m: m.simulate_cascade(d["attractiveness"], len(r), seed=0),
    }
    # A cutoff far past the end of a three-document list must cost nothing (n is the list's).
    huge_k = {
        "precision_at_k k=10**9": (lambda m: m.precision_at_k([1, 0, 1], 10**9), 3),
        "average_precision k=10**8": (lambda m: m.average_precision([1], 10**8), 1),
        "mean_precision_at_ranks k=10**18": (lambda m: m.mean_precision_at_ranks([1, 0, 1], 10**18), 3),
    }
    n = len(r)
    cases = {}
    for name, (call, size) in {**{k: (c, n) for k, c in calls.items()}, **huge_k}.items():
        cases[name] = (call, "rk", size)
        cases[f"explain.{name}"] = (call, "rk.explain", size)
    for name, call in plain_only.items():
        cases[name] = (call, "rk", n)
    return cases


def run_case(name: str, n: int) -> dict:
    """In the child: build the inputs, then time the call three times."""
    import rankedu as rk

    call, where, _ = _cases(rk, _inputs(n))[name]
    module = rk if where == "rk" else rk.explain
    function = name.split(" ")[0].removeprefix("explain.")
    if not hasattr(module, function):
        return {"status": f"missing: {where}.{function}"}
    best = math.inf
    try:
        for _ in range(3):
            start = time.perf_counter()
            call(module)
            best = min(best, time.perf_counter() - start)
    except MemoryError:
        return {"status": "MemoryError"}
    except ValueError as error:
        # An explanation may refuse an input above a documented size (the pairs of pair_ratio);
        # a plain function may not.
        status = "refused" if where == "rk.explain" else "error"
        return {"status": status, "message": f"ValueError: {str(error)[:70]}"}
    except Exception as error:  # a benchmark reports, it does not fail
        return {"status": "error", "message": f"{type(error).__name__}: {str(error)[:70]}"}
    return {"status": "ok", "seconds": best}


def child(name: str, n: int, timeout: float, memory_limit_mib: int) -> dict:
    """Run one case in a fresh process; its peak RSS comes from os.wait4."""
    command = [sys.executable, __file__, "--case", name, "--n", str(n),
               "--memory-limit", str(memory_limit_mib)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        return {"status": f"timeout > {timeout:g} s"}
    # The child has been reaped by communicate(); its resources are in RUSAGE_CHILDREN, which
    # only grows, so take the peak from the child's own report instead.
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if not lines:
        tail = (err.strip().splitlines() or ["no output"])[-1]
        return {"status": f"crashed: {tail[:70]}"}
    return json.loads(lines[-1])


def import_time(module: str, rounds: int = 3) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    times = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                  check=True).stdout) for _ in range(rounds)]
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="elements per list (10^6)")
    parser.add_argument("--only", nargs="*", help="only the cases whose name contains one of these")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per case")
    parser.add_argument("--memory-limit", type=int, default=4096,
                        help="address-space limit of each child, MiB")
    parser.add_argument("--case", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.case:  # the child
        limit = args.memory_limit * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        result = run_case(args.case, args.n)
        result["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(json.dumps(result))
        return

    pandas_time, rankedu_time = import_time("pandas"), import_time("rankedu")
    print(f"import pandas: {pandas_time:.3f} s; import rankedu: {rankedu_time:.3f} s "
          f"({rankedu_time / pandas_time:.2f} x pandas; best of 3 fresh processes)")
    baseline = subprocess.run(
        [sys.executable, "-c", "import resource, rankedu; "
         "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)"],
        capture_output=True, text=True, check=True).stdout
    print(f"peak RSS of a process that only imports rankedu: {float(baseline):.0f} MiB")
    print(f"bound: under {TIME_BOUND:g} s and {MEMORY_BOUND_MIB} MiB at n = {args.n:,}\n")

    import rankedu as rk

    sizes = {name: size for name, (_, _, size) in _cases(rk, _inputs(args.n)).items()}
    names = list(sizes)
    if args.only:
        names = [name for name in names if any(part in name for part in args.only)]
    width = max(len(name) for name in names)
    print(f"{'function':<{width}} {'n':>9} {'seconds':>8} {'peak MiB':>9}  within bound")
    misses = refused = 0
    for name in names:
        result = child(name, args.n, args.timeout, args.memory_limit)
        n = sizes[name]
        if result["status"] == "refused":
            refused += 1
            print(f"{name:<{width}} {n:>9,} {'-':>8} {result['peak_mib']:>9.0f}  "
                  f"refused ({result['message']})")
            continue
        if result["status"] != "ok":
            misses += 1
            detail = result.get("message", result["status"])
            print(f"{name:<{width}} {n:>9,} {'-':>8} {result.get('peak_mib', 0):>9.0f}  no ({detail})")
            continue
        within = result["seconds"] < TIME_BOUND and result["peak_mib"] < MEMORY_BOUND_MIB
        misses += not within
        print(f"{name:<{width}} {n:>9,} {result['seconds']:>8.3f} {result['peak_mib']:>9.0f}  "
              f"{'yes' if within else 'no'}")
    print(f"\n{len(names) - misses - refused} of {len(names)} calls within the bound, "
          f"{refused} explanations refused with an error, {misses} not within the bound.")


if __name__ == "__main__":
    main()
