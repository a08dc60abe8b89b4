"""The ``rankedu`` command line: evaluate a TREC run, or explain one query's score step by step.

    rankedu evaluate QRELS RUN -m nDCG@10 AP [-q] [-l 2] [-c] [--ties average]
    rankedu explain QRELS RUN QID -m nDCG@10 [--ties optimistic]

``evaluate`` prints a table like trec_eval's: one ``measure  qid  value`` line per measure, for
every query with ``-q``, then the mean over the queries (qid ``all``). ``explain`` ranks the
query's documents as ``evaluate`` does and prints the book's table for each measure (through
:func:`rankedu.explain.query`), ending in the value ``evaluate`` gives. The measures, their help
and their conventions come from :data:`rankedu.trec.measures.MEASURES` and ``evaluate``
itself; this module re-derives none of them. Both exit with status 2 on bad input (a missing
file, a malformed line, an unknown measure, a negative ``--digits`` or ``--top``, a missing
option, nothing to evaluate), with one line on standard error, after any warning. ``-m`` may
be given several times, as trec_eval's ``-m`` may: the measures add up; when ``-m`` comes just
before the file names (``rankedu evaluate -m AP P@5 QRELS RUN``), its last values that are not
measure names are the files. ``python -m rankedu`` is the same command.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings

from rankedu import explain as _explain
from rankedu.trec.evaluate import DEFAULT_MAX_GRADE, MISSING, evaluate, summary
from rankedu.trec.measures import MEASURES, parse
from rankedu.trec.ties import TIES

__all__ = ["main"]

_MEASURE_HELP = "; ".join(f"{m.usage}: {m.description}" for m in MEASURES.values())
_NOT_AVERAGED = ", ".join(m.name for m in MEASURES.values() if m.average is None)


#: The most decimals ``--digits`` prints: a double holds 17 significant digits.
MAX_DIGITS = 17


def _at_least_zero(text: str) -> int:
    """An argparse type: an integer >= 0 (checked before anything is printed)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer >= 0, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be an integer >= 0, got {value}")
    return value


def _digits(text: str) -> int:
    """An argparse type: the decimals to print, 0 to MAX_DIGITS."""
    value = _at_least_zero(text)
    if value > MAX_DIGITS:
        raise argparse.ArgumentTypeError(
            f"must be at most {MAX_DIGITS} (a double holds 17 significant digits), got {value}")
    return value


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on standard error (exit status 2), like every
    other error of the command; ``--help`` still prints the usage."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


class _FirstTry(_Parser):
    """A command's parser on the first reading: missing file names are a :class:`_Missing`,
    so that ``main`` can look for them among the values of ``-m``."""

    def error(self, message):
        if message.startswith("the following arguments are required: "):
            raise _Missing(message.split(": ", 1)[1].split(", "))
        super().error(message)


class _Missing(Exception):
    """Positional arguments argparse found missing (their metavars)."""


def _files_after_measures(argv: list[str], missing: list[str]) -> list[str]:
    """``rankedu evaluate -m AP P@5 QRELS RUN``: argparse gives ``-m`` every value up to the
    next option, so the files seem missing. Hand the last values of the last ``-m`` that are
    not measure names (as many as are missing, at most) back as positional arguments."""
    flags = [i for i, token in enumerate(argv) if token in ("-m", "--measures")]
    if not flags:
        return argv
    start = end = flags[-1] + 1
    while end < len(argv) and not (argv[end].startswith("-") and len(argv[end]) > 1):
        end += 1
    values = argv[start:end]
    moved = 0
    while moved < min(len(missing), len(values) - 1) and not _is_measure(values[-1 - moved]):
        moved += 1
    if moved == 0:
        return argv
    return [*argv[:end - moved], *argv[end:], "--", *argv[end - moved:end]]


def _is_measure(token: str) -> bool:
    try:
        parse([token])
    except ValueError:
        return False
    return True


def _parser(command_parser=_Parser) -> argparse.ArgumentParser:
    parser = _Parser(
        prog="rankedu",
        description="Evaluate TREC runs with trec_eval's conventions, or explain one query's "
        "score step by step.",
        epilog="Measures (ir_measures names): " + _MEASURE_HELP + ".",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                     parser_class=command_parser)

    def common(sub):
        sub.add_argument("qrels", metavar="QRELS",
                         help="judgments file: qid iter docno rel (- reads standard input)")
        sub.add_argument("run", metavar="RUN",
                         help="run file: qid Q0 docno rank score tag (- reads standard input)")
        sub.add_argument("-m", "--measures", nargs="+", action="extend", required=True,
                         metavar="MEASURE", help="measures to compute, e.g. -m nDCG@10 AP "
                         "P@5; -m may be repeated (-m AP -m P@5), as in trec_eval")
        sub.add_argument("-l", "--threshold", type=float, default=1, metavar="LEVEL",
                         help="relevant means grade >= LEVEL (trec_eval -l; default 1)")
        sub.add_argument("--max-grade", type=float, default=None, metavar="G",
                         help=f"ERR's top grade (default {DEFAULT_MAX_GRADE}, as gdeval and "
                         "ir_measures; with ERR, a larger grade in the qrels is an error)")
        sub.add_argument("--single-precision", action="store_true",
                         help="round scores to float32 before ranking, as pytrec_eval does")
        sub.add_argument("--ties", choices=TIES, default="trec_eval",
                         help="order of documents with equal scores: docno descending "
                         "(trec_eval, the default), highest grade first (optimistic), lowest "
                         "first (pessimistic), or the exact mean over every order (average; "
                         "evaluate only, and not for " + _NOT_AVERAGED + ")")

    evaluate_cmd = commands.add_parser(
        "evaluate", help="per-query and mean values of measures, like trec_eval",
        description="Evaluate RUN against QRELS and print a trec_eval-like table.",
        epilog="Measures: " + _MEASURE_HELP + ".",
    )
    common(evaluate_cmd)
    evaluate_cmd.add_argument("-q", "--per-query", action="store_true",
                              help="print every query's values before the mean (trec_eval -q)")
    missing = evaluate_cmd.add_mutually_exclusive_group()
    # No default here: argparse would not see "--missing skip" beside -c (a value that is
    # the default counts as not given); _run reads None as evaluate's default, "skip".
    missing.add_argument("--missing", choices=MISSING,
                         help="a judged query missing from the run: skip it with a warning "
                         "(the default, as trec_eval 9.x does), score it 0 (zero, trec_eval -c) "
                         "or stop with exit status 2 (error, as trec_eval 10.0 stops)")
    missing.add_argument("-c", "--complete", dest="missing", action="store_const",
                         const="zero", help="the same as --missing zero (trec_eval -c)")
    evaluate_cmd.add_argument("--digits", type=_digits, default=4, metavar="N",
                              help=f"decimals printed, 0 to {MAX_DIGITS} (default 4, as "
                              "trec_eval)")

    explain_cmd = commands.add_parser(
        "explain", help="the step-by-step table of one query's measures",
        description="Rank QID's documents as 'evaluate' does and print, for each measure, the "
        "table of intermediate quantities that leads to its value.",
        epilog="Measures: " + _MEASURE_HELP + ".",
    )
    common(explain_cmd)
    explain_cmd.add_argument("qid", metavar="QID", help="the query to explain")
    explain_cmd.add_argument("--top", type=_at_least_zero, default=10, metavar="N",
                             help="documents of the ranking to list (default 10)")
    return parser


def _print_table(result, per_query: bool, digits: int, out) -> None:
    width = max(22, *(len(name) for name in result.columns))
    if per_query:
        for qid, row in result.iterrows():
            for name, value in row.items():
                print(f"{name:<{width}}\t{qid}\t{value:.{digits}f}", file=out)
    print(f"{'num_q':<{width}}\tall\t{len(result)}", file=out)
    for name, value in summary(result).items():
        print(f"{name:<{width}}\tall\t{value:.{digits}f}", file=out)


def _run(args, out) -> None:
    options = {"threshold": args.threshold, "max_grade": args.max_grade,
               "single_precision": args.single_precision, "ties": args.ties}
    if args.command == "evaluate":
        result = evaluate(args.qrels, args.run, args.measures,
                          missing=args.missing or "skip", **options)
        _print_table(result, args.per_query, args.digits, out)
        return
    # Every explanation first, from one reading of the files, so that a bad measure or query
    # prints nothing but the error.
    names = list(dict.fromkeys(args.measures))
    explanations = _explain.query(args.qrels, args.run, args.qid, names, **options)
    ranking = explanations[names[0]].tables["ranking"]
    print(f"query {args.qid}: {len(ranking)} documents retrieved, "
          f"{len(ranking.attrs['pool'])} judged", file=out)
    print(ranking.head(args.top).to_string(index=False), file=out)
    for name, explanation in explanations.items():
        steps = {t: v for t, v in explanation.tables.items() if t != "ranking"}
        print(f"\n{name}\n{'-' * len(name)}", file=out)
        print(repr(_explain.Explanation(explanation.name, explanation.value, steps)), file=out)


def main(argv=None) -> int:
    """Entry point of the ``rankedu`` command; returns the exit status (2 on bad input).

    Parameters
    ----------
    argv : list of str, optional
        The arguments after ``rankedu``; the process's own arguments when None.

    Returns
    -------
    int
        0 on success, 2 when a file is missing or malformed, a measure unknown, an option
        bad or missing, or nothing can be evaluated (the reason goes to standard error, one
        line). 1 when the reader of standard output stops early (``| head``); warnings still
        reach standard error.

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
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = _parser(_FirstTry).parse_args(argv)
    except _Missing as missing:
        args = _parser().parse_args(_files_after_measures(argv, missing.args[0]))
    status = 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            _run(args, sys.stdout)
        except BrokenPipeError:
            # The reader stopped early (`rankedu evaluate ... | head`): not an error of ours.
            # Point stdout at /dev/null so the interpreter's final flush does not fail again.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            status = 1
        except (ValueError, TypeError, OSError) as error:
            status = 2
            problem = f"rankedu {args.command}: error: {error}"
        # Warnings go to standard error whatever happened to standard output.
        for warning in caught:
            print(f"rankedu {args.command}: warning: {warning.message}", file=sys.stderr)
    if status == 2:
        print(problem, file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
