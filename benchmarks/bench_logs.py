"""GAUC over a large impression log: rankedu.logs on DuckDB and on Spark against in-memory code.

Issue 14's goals, on this project's machine (2 cores, 24 GiB): a 10M-row log (100,000 users)
in under 3 GiB and at least 50 times faster than ``rk.gauc``; a 100M-row log (1,000,000
users) completes. The script writes a seeded log as Parquet (once; it is reused when its file
exists), then prints one row per method:

    method, rows, seconds, peak GiB, GAUC

- ``logs.gauc (DuckDB)``: ``logs.gauc(path, ...)`` on the Parquet file, DuckDB embedded.
- ``logs.gauc (Spark local[2])``: ``logs.gauc(spark.read.parquet(path), ...)``; the seconds
  exclude the session's start (printed apart), the peak includes the JVM.
- ``rk.gauc``: the book's reference, on columns read into pandas (reading excluded).
- ``pandas groupby + sklearn``: one ``roc_auc_score`` per user, weighted by impressions
  (reading excluded) — what GAUC code copied between teams often looks like.

Each method runs in its own process; the peak is the highest resident set size of that process
and its children (the Spark JVM), sampled every 0.1 s with psutil, so it includes the
interpreter and the data read. A method cut off after ``--cap`` seconds prints "> N s". The
GAUC column shows that all agree. It is a benchmark, not a test: it prints and never fails.

Run with ``make bench-logs`` (10M rows) or
``.venv/bin/python benchmarks/bench_logs.py --rows 100000000 --users 1000000``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

METHODS = ("logs.gauc (DuckDB)", "logs.gauc (Spark local[2])", "rk.gauc",
           "pandas groupby + sklearn")
CHUNK = 5_000_000


def generate(path: Path, rows: int, users: int) -> None:
    """A log of ``rows`` impressions of ``users`` users: a user's click depends on a latent
    interest that the score sees through noise; scores have 2 decimals, so many tie."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(14)
    partial = path.with_suffix(".partial")
    schema = pa.schema([("user", pa.int64()), ("clicked", pa.int8()), ("score", pa.float64())])
    with pq.ParquetWriter(partial, schema) as writer:
        for start in range(0, rows, CHUNK):
            n = min(CHUNK, rows - start)
            interest = rng.normal(size=n)
            clicked = rng.random(n) < 1 / (1 + np.exp(2.5 - 1.5 * interest))
            score = np.round(1 / (1 + np.exp(-(interest + rng.normal(size=n)))), 2)
            writer.write_table(pa.table({"user": rng.integers(0, users, n),
                                         "clicked": clicked.astype(np.int8), "score": score},
                                        schema=schema))
    partial.rename(path)


def child(method: str, path: str) -> dict:
    """Run one method in this process; return its seconds, GAUC and (Spark) start seconds."""
    import warnings

    warnings.simplefilter("ignore")
    result = {}
    if method == "logs.gauc (DuckDB)":
        from rankedu import logs

        start = time.perf_counter()
        value = logs.gauc(path, group="user", label="clicked", score="score")
    elif method == "logs.gauc (Spark local[2])":
        from pyspark.sql import SparkSession

        from rankedu import logs

        begin = time.perf_counter()
        spark = (SparkSession.builder.master("local[2]").appName("bench-logs")
                 .config("spark.driver.memory", "8g")
                 .config("spark.sql.shuffle.partitions", "8")
                 .config("spark.ui.enabled", "false")
                 .config("spark.ui.showConsoleProgress", "false").getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
        result["start seconds"] = time.perf_counter() - begin
        start = time.perf_counter()
        value = logs.gauc(spark.read.parquet(path), group="user", label="clicked",
                          score="score")
    else:
        import pandas as pd

        log = pd.read_parquet(path)
        if method == "rk.gauc":
            import rankedu as rk

            start = time.perf_counter()
            value = rk.gauc(log["user"], log["clicked"], log["score"])
        else:
            from sklearn.metrics import roc_auc_score

            start = time.perf_counter()
            numerator = denominator = 0.0
            for _, rows in log.groupby("user"):
                if rows["clicked"].nunique() == 2:
                    numerator += len(rows) * roc_auc_score(rows["clicked"], rows["score"])
                    denominator += len(rows)
            value = numerator / denominator
    result.update(seconds=time.perf_counter() - start, gauc=value)
    return result


def measure(method: str, path: Path, cap: float) -> dict:
    """Run ``method`` in a child process; its result with the peak GiB, or its being cut off."""
    import psutil

    command = [sys.executable, __file__, "--child", method, "--path", str(path)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    watched, peak, begin = psutil.Process(process.pid), 0, time.perf_counter()
    while process.poll() is None:
        if time.perf_counter() - begin > cap:
            for member in watched.children(recursive=True) + [watched]:
                member.kill()
            process.wait()
            return {"cut off": cap, "peak": peak}
        try:
            members = [watched] + watched.children(recursive=True)
            peak = max(peak, sum(member.memory_info().rss for member in members))
        except psutil.Error:
            pass
        time.sleep(0.1)
    out, err = process.communicate()
    if process.returncode != 0:
        return {"error": (err.strip().splitlines() or ["exit status %d" % process.returncode])[-1],
                "peak": peak}
    return dict(json.loads(out.strip().splitlines()[-1]), peak=peak)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--users", type=int, default=None, help="default: rows / 100")
    parser.add_argument("--dir", default="/tmp/rankedu-bench-logs",
                        help="where the Parquet log is written (and reused)")
    parser.add_argument("--cap", type=float, default=600, help="seconds before a method is cut off")
    parser.add_argument("--only", nargs="*", choices=METHODS, default=list(METHODS))
    parser.add_argument("--child", choices=METHODS, help=argparse.SUPPRESS)
    parser.add_argument("--path", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.path)))
        return
    users = args.users or args.rows // 100
    directory = Path(args.dir)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"log-{args.rows}-{users}.parquet"
    if not path.exists():
        begin = time.perf_counter()
        generate(path, args.rows, users)
        print(f"wrote {path} ({path.stat().st_size / 2**20:.0f} MiB) "
              f"in {time.perf_counter() - begin:.0f} s")
    print(f"GAUC (weight: impressions) of {args.rows:,} rows, {users:,} users; "
          f"{os.cpu_count()} cores; each method in its own process, cut off after {args.cap:.0f} s")
    print()
    print(f"| {'method':<28} | {'rows':>11} | {'seconds':>9} | {'peak GiB':>8} | {'GAUC':<16} |")
    print(f"|{'-' * 30}|{'-' * 12}:|{'-' * 10}:|{'-' * 9}:|{'-' * 18}|")
    for method in args.only:
        result = measure(method, path, args.cap)
        peak = f"{result['peak'] / 2**30:.2f}"
        if "cut off" in result:
            seconds, value = f"> {result['cut off']:.0f}", "(cut off)"
        elif "error" in result:
            seconds, value = "error", result["error"][:60]
        else:
            seconds, value = f"{result['seconds']:.1f}", f"{result['gauc']:.12f}"
        print(f"| {method:<28} | {args.rows:>11,} | {seconds:>9} | {peak:>8} | {value:<16} |",
              flush=True)
        if "start seconds" in result:
            print(f"  (Spark's session took {result['start seconds']:.1f} s to start, not counted)",
                  flush=True)


if __name__ == "__main__":
    main()
