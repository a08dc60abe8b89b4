"""The ``rankedu`` command line: evaluate a TREC run, or explain one query's score step by step.

    rankedu evaluate QRELS RUN -m nDCG@10 AP [-q] [-l 2] [-c]
    rankedu explain QRELS RUN QID -m nDCG@10

``evaluate`` prints a table like trec_eval's: one ``measure  qid  value`` line per measure, for
every query with ``-q``, then the mean over the queries (qid ``all``). ``explain`` ranks the
query's documents as ``evaluate`` does and prints the book's table for each measure (through
:mod:`rankedu.explain`). Both exit with status 2 on bad input (a missing file, a malformed
line, an unknown measure), with the reason on standard error. ``python -m rankedu`` is the same
command.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings

import numpy as np

from rankedu import explain as _explain
from rankedu.trec import MEASURES, _parse_measures, evaluate, ranked_list, read_qrels, read_run

_MEASURE_HELP = "; ".join(f"{name}: {meaning}" for name, meaning in MEASURES.items())


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rankedu",
        description="Evaluate TREC runs with trec_eval's conventions, or explain one query's "
        "score step by step.",
        epilog="Measures (ir_measures names): " + _MEASURE_HELP + ".",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def common(sub):
        sub.add_argument("qrels", metavar="QRELS", help="judgments file: qid iter docno rel")
        sub.add_argument("run", metavar="RUN", help="run file: qid Q0 docno rank score tag")
        sub.add_argument("-m", "--measures", nargs="+", required=True, metavar="MEASURE",
                         help="measures to compute, e.g. -m nDCG@10 AP P@5")
        sub.add_argument("-l", "--threshold", type=float, default=1, metavar="LEVEL",
                         help="relevant means grade >= LEVEL (trec_eval -l; default 1)")
        sub.add_argument("--max-grade", type=float, default=None, metavar="G",
                         help="ERR's top grade (default: the largest grade in the qrels)")
        sub.add_argument("--single-precision", action="store_true",
                         help="round scores to float32 before ranking, as pytrec_eval does")

    evaluate_cmd = commands.add_parser(
        "evaluate", help="per-query and mean values of measures, like trec_eval",
        description="Evaluate RUN against QRELS and print a trec_eval-like table.",
        epilog="Measures: " + _MEASURE_HELP + ".",
    )
    common(evaluate_cmd)
    evaluate_cmd.add_argument("-q", "--per-query", action="store_true",
                              help="print every query's values before the mean (trec_eval -q)")
    evaluate_cmd.add_argument("-c", "--complete", action="store_true",
                              help="score judged queries missing from the run as 0 instead of "
                              "skipping them (trec_eval -c)")
    evaluate_cmd.add_argument("--digits", type=int, default=4,
                              help="decimals printed (default 4, as trec_eval)")

    explain_cmd = commands.add_parser(
        "explain", help="the step-by-step table of one query's measures",
        description="Rank QID's documents as 'evaluate' does and print, for each measure, the "
        "table of intermediate quantities that leads to its value.",
        epilog="Measures: " + _MEASURE_HELP + ".",
    )
    common(explain_cmd)
    explain_cmd.add_argument("qid", metavar="QID", help="the query to explain")
    explain_cmd.add_argument("--top", type=int, default=10, metavar="N",
                             help="documents of the ranking to list (default 10)")
    return parser


def _print_table(result, per_query: bool, digits: int, out) -> None:
    width = max(22, *(len(name) for name in result.columns))
    if per_query:
        for qid, row in result.iterrows():
            for name, value in row.items():
                print(f"{name:<{width}}\t{qid}\t{value:.{digits}f}", file=out)
    print(f"{'num_q':<{width}}\tall\t{len(result)}", file=out)
    for name in result.columns:
        mean = float(result[name].mean()) if len(result) else 0.0
        print(f"{name:<{width}}\tall\t{mean:.{digits}f}", file=out)


def _explanation(measure, frame, threshold, max_grade):
    """The rk.explain call that computes ``measure`` for this ranked list."""
    rels = np.maximum(frame["grade"].to_numpy(dtype=float), 0.0)
    pool = np.maximum(np.asarray(frame.attrs["pool"], dtype=float), 0.0)
    n_relevant = int((pool >= threshold).sum())
    k = measure.k
    if measure.family == "P":
        return _explain.precision_at_k(rels, k, threshold=threshold)
    if measure.family == "R":
        return _explain.recall_at_k(rels, k, n_relevant=n_relevant, threshold=threshold)
    if measure.family == "AP":
        return _explain.average_precision(rels, k, n_relevant=n_relevant, threshold=threshold)
    if measure.family == "RR":
        return _explain.reciprocal_rank(rels, k, threshold=threshold)
    if measure.family == "nDCG":
        return _explain.ndcg(rels, k, pool=pool)
    if measure.family == "Rprec":
        return _explain.r_precision(rels, n_relevant=n_relevant, threshold=threshold)
    if measure.family == "ERR":
        return _explain.err(rels, k, max_grade=max_grade)
    raise AssertionError(measure)


def _run(args, out) -> None:
    if args.command == "evaluate":
        result = evaluate(args.qrels, args.run, args.measures, threshold=args.threshold,
                          missing="zero" if args.complete else "skip",
                          max_grade=args.max_grade, single_precision=args.single_precision)
        _print_table(result, args.per_query, args.digits, out)
        return
    measures = _parse_measures(args.measures)
    qrels, run = read_qrels(args.qrels), read_run(args.run)
    frame = ranked_list(qrels, run, args.qid, single_precision=args.single_precision)
    # ERR's default top grade is the largest in the whole qrels, not in this query's.
    max_grade = args.max_grade
    if max_grade is None:
        max_grade = max(float(qrels["rel"].max()), 0.0)
    # The same query through evaluate, whose value each table must end in.
    result = evaluate(qrels[qrels["qid"] == args.qid], run[run["qid"] == args.qid],
                      args.measures, threshold=args.threshold, max_grade=max_grade,
                      single_precision=args.single_precision)
    print(f"query {args.qid}: {len(frame)} documents retrieved, "
          f"{len(frame.attrs['pool'])} judged", file=out)
    print(frame.head(args.top).to_string(index=False), file=out)
    for measure in measures:
        explanation = _explanation(measure, frame, args.threshold, max_grade)
        print(f"\n{measure.name}\n{'-' * len(measure.name)}", file=out)
        print(repr(explanation), file=out)
        print(f"evaluate: {measure.name} = {float(result.loc[args.qid, measure.name])!r}",
              file=out)


def main(argv=None) -> int:
    """Entry point of the ``rankedu`` command; returns the exit status (2 on bad input).

    Parameters
    ----------
    argv : list of str, optional
        The arguments after ``rankedu``; the process's own arguments when None.

    Returns
    -------
    int
        0 on success, 2 when a file is missing or malformed, a measure unknown or an option
        bad (the reason goes to standard error). A usage error exits through argparse, also
        with status 2.

    Examples
    --------
    >>> import os, tempfile
    >>> from rankedu.cli import main
    >>> folder = tempfile.mkdtemp()
    >>> qrels, run = os.path.join(folder, "qrels"), os.path.join(folder, "run")
    >>> _ = open(qrels, "w").write("q1 0 d1 1\\nq1 0 d2 0\\n")
    >>> _ = open(run, "w").write("q1 Q0 d2 1 0.9 sys\\nq1 Q0 d1 2 0.5 sys\\n")
    >>> main(["evaluate", qrels, run, "-m", "RR", "P@1", "-q"])
    RR                    	q1	0.5000
    P@1                   	q1	0.0000
    num_q                 	all	1
    RR                    	all	0.5000
    P@1                   	all	0.0000
    0
    """
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            _run(args, sys.stdout)
    except BrokenPipeError:
        # The reader stopped early (`rankedu evaluate ... | head`): not an error of ours. Point
        # stdout at /dev/null so the interpreter's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except (ValueError, TypeError, OSError) as error:
        print(f"rankedu {args.command}: error: {error}", file=sys.stderr)
        return 2
    for warning in caught:
        print(f"rankedu {args.command}: warning: {warning.message}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
