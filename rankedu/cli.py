"""The ``rankedu`` command line: evaluate a TREC run, explain one query's score step by step,
or compare several runs.

    rankedu evaluate QRELS RUN -m nDCG@10 AP [-q] [-l 2] [-c] [--ties average] [--format csv]
    rankedu evaluate QRELS RUN -m all_trec -q [-M 100] [-Z zscores_file]
    rankedu evaluate QRELS_JG RUN -R qrels_jg -m qrels_jg -q
    rankedu evaluate PREFS RUN -R prefs -m all_prefs -q
    rankedu explain QRELS RUN QID -m nDCG@10 [--ties optimistic] [--top 10]
    rankedu compare QRELS RUN RUN [RUN...] -m nDCG@10 AP [--baseline RUN] [--test t]
    rankedu --version

``evaluate`` prints what trec_eval prints (``--format trec_eval``, the default, through
:func:`rankedu.trec_eval_report`): one ``measure  qid  value`` line per value, for every query
with ``-q``, then each measure over the queries (qid ``all``), rounded to ``--digits``. Measures
may be named as trec_eval names them (``-m map -m P.5,10``, ``-m all_trec``); without ``-m``,
trec_eval's default measures (``official``) are computed, and ``-M`` keeps each query's first
documents, as trec_eval's ``-M`` does, so that trec_eval's own command lines print its output
(``-Z FILE`` prints z-scores, ``-R qrels_jg`` reads judgment groups and ``-R prefs`` or
``-R qrels_prefs`` preference judgments, as trec_eval's ``-Z`` and ``-R`` do). The other formats are for
scripts; each value is printed in full (the shortest text that reads back as the same double),
the queries' rows only with ``-q``, and the ``all`` row is :func:`rankedu.summary` of the
result (a mean, or a sum for the counts), as in the trec_eval layout:

- ``csv``, ``tsv``: a header ``qid,<measure>,...``, one row per query, then the ``all`` row;
- ``json``: one object ``{"measures": [...], "num_q": n, "queries": {qid: {measure: value}},
  "all": {measure: value}}`` (``queries`` only with ``-q``);
- ``jsonl``: one object per row, ``{"qid": ..., "<measure>": value, ...}``, ``all`` last.

``explain`` ranks the query's documents as ``evaluate`` does and prints the book's table for
each measure (through :func:`rankedu.explain.query`), ending in the value ``evaluate`` gives;
``--top N`` cuts every table to its first N rows, with a line ``… M more ranks``.

``compare`` is :func:`rankedu.compare`: the runs, named by their file names (``-`` for standard
input; two runs of one name are an error), are tested pairwise or against ``--baseline`` (a
name or the path as given) with the paired t-test, randomisation or bootstrap test, corrected
by Holm's method. ``--format text`` (the default), ``markdown`` and ``latex`` print the means
with their markers, and under the table the test, the correction and what the markers and
effect sizes mean; ``csv`` and ``json`` carry every number of :func:`rankedu.compare`'s table
(p-values and effect sizes as numbers, a missing one empty or null) for scripts.

The measures, their help and their conventions come from
:data:`rankedu.trec.measures.MEASURES` and ``evaluate`` itself; this module re-derives none of
them. Every command exits with status 2 on bad input (a missing file, a malformed line, a
binary file, an unknown measure, a negative ``--digits`` or ``--top``, a missing option,
nothing to evaluate), with one line on standard error, after any warning; a message of the
library that names a Python keyword (``missing='zero'``) names the command's option instead
(``--missing zero``). ``-m`` may be given several times, as trec_eval's ``-m`` may: the
measures add up; when ``-m`` comes just before the file names (``rankedu evaluate -m AP P@5
QRELS RUN``), its last values that are not measure names are the files. A gzip-compressed file
is read as its text. ``python -m rankedu`` is the same command.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import importlib.metadata
import io
import json
import os
import re
import sys
import warnings

import pandas as pd

from rankedu import explain as _explain
from rankedu.comparison import CORRECTIONS, TESTS, compare
from rankedu.trec.evaluate import DEFAULT_MAX_GRADE, MISSING, evaluate, summary
from rankedu.trec.files import STDIN, read_qrels
from rankedu.trec.measures import MEASURES, parse
from rankedu.trec.report import REL_FORMATS, run_tag, trec_eval_report
from rankedu.trec.diversity import CONVENTIONS
from rankedu.trec.diversity import MEASURES as DIVERSITY
from rankedu.trec.diversity import is_diversity
from rankedu.trec.ties import TIES

__all__ = ["main"]

_MEASURE_HELP = "; ".join(f"{m.usage}: {m.description}" for m in MEASURES.values()) + (
    ". On subtopic qrels (qid subtopic docno rel), the diversity measures, which mix with no "
    "other measure and take -l and --conventions only: " + "; ".join(
        f"{m.usage}: {m.description}" for m in DIVERSITY.values()))
_NOT_AVERAGED = ", ".join(m.name for m in MEASURES.values() if m.average is None)


#: The most decimals ``--digits`` prints: a double holds 17 significant digits.
MAX_DIGITS = 17
#: ``evaluate --format``: trec_eval's layout, or one for scripts (module docstring).
FORMATS = ("trec_eval", "csv", "tsv", "json", "jsonl")
#: ``compare --format``: tables to read (text, markdown, latex) or numbers for scripts.
COMPARE_FORMATS = ("text", "markdown", "csv", "json", "latex")

#: The command's option for each Python keyword that a message of the library may name.
FLAGS = {"missing": "--missing", "ties": "--ties", "max_grade": "--max-grade",
         "threshold": "-l", "measures": "-m", "explain.query": "rankedu explain",
         "baseline": "--baseline", "alpha": "--alpha", "seed": "--seed",
         "conventions": "--conventions", "max_docs": "-M", "single_precision":
         "--single-precision", "rel_format": "-R"}
# A keyword with its value (missing='zero', max_grade=3, max_grade=), or a keyword as the
# subject of a message (threshold must ..., measures: ...); explain.query wherever it stands.
_KEYWORD = re.compile(
    r"(?<![\w.-])(?P<keyword>" + "|".join(map(re.escape, FLAGS)) + r")"
    r"(?:='(?P<quoted>[^']*)'|=(?P<value>[^\s;,)]*)|(?=:| must )|(?<=explain\.query))")

# A function of the library offered beside an option, which the command does not have.
_PYTHON_ONLY = re.compile(r" \(or rk\.[\w.]+\)")


def _at_least_zero(text: str) -> int:
    """An argparse type: an integer >= 0 (checked before anything is printed)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer >= 0, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be an integer >= 0, got {value}")
    return value


def _at_least_one(text: str) -> int:
    """An argparse type: an integer >= 1."""
    value = _at_least_zero(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1, got {value}")
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
            names = message.split(": ", 1)[1].split(", ")
            # compare's RUN takes any number of files: every trailing file may be one.
            many = any(action.nargs == "+" and action.metavar in names
                       for action in self._actions if not action.option_strings)
            raise _Missing(names, many)
        super().error(message)


class _Missing(Exception):
    """Positional arguments argparse found missing (their metavars), and whether one of them
    takes any number of values."""


def _files_after_measures(argv: list[str], missing: list[str], many: bool) -> list[str]:
    """``rankedu evaluate -m AP P@5 QRELS RUN``: argparse gives ``-m`` every value up to the
    next option, so the files seem missing. Hand the last values of the last ``-m`` that are
    not measure names (as many as are missing, at most, unless ``many``) back as positional
    arguments."""
    flags = [i for i, token in enumerate(argv) if token in ("-m", "--measures")]
    if not flags:
        return argv
    start = end = flags[-1] + 1
    while end < len(argv) and not (argv[end].startswith("-") and len(argv[end]) > 1):
        end += 1
    values = argv[start:end]
    moved = 0
    most = len(values) - 1 if many else min(len(missing), len(values) - 1)
    while moved < most and not _is_measure(values[-1 - moved]):
        moved += 1
    if moved == 0:
        return argv
    return [*argv[:end - moved], *argv[end:], "--", *argv[end - moved:end]]


def _is_measure(token: str) -> bool:
    if is_diversity(token):
        return True
    try:
        parse([token])
    except ValueError:
        return False
    return True


def _parser(command_parser=_Parser) -> argparse.ArgumentParser:
    parser = _Parser(
        prog="rankedu",
        description="Evaluate TREC runs with trec_eval's conventions, explain one query's "
        "score step by step, or compare runs with significance tests. Files may be "
        "gzip-compressed.",
        epilog="Measures (ir_measures names): " + _MEASURE_HELP + ".",
    )
    parser.add_argument("--version", action="version", version=f"rankedu {_version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                     parser_class=command_parser)

    def judged(sub, runs="RUN", many=None, measures_required=True):
        sub.add_argument("qrels", metavar="QRELS",
                         help="judgments file: qid iter docno rel (- reads standard input)")
        sub.add_argument("run", metavar=runs, nargs=many,
                         help="run file: qid Q0 docno rank score tag (- reads standard input)")
        sub.add_argument("-m", "--measures", nargs="+", action="extend",
                         required=measures_required, metavar="MEASURE",
                         help="measures to compute, e.g. -m nDCG@10 AP P@5, or as trec_eval "
                         "names them (-m map P.5,10 ndcg_cut.10, -m all_trec); -m may be "
                         "repeated (-m AP -m P@5), as in trec_eval" + (
                             "" if measures_required else
                             "; without -m, trec_eval's default measures (official)"))
        sub.add_argument("-l", "--threshold", type=float, default=1, metavar="LEVEL",
                         help="relevant means grade >= LEVEL (trec_eval -l; default 1)")
        sub.add_argument("--ties", choices=TIES, default="trec_eval",
                         help="order of documents with equal scores: docno descending "
                         "(trec_eval, the default), highest grade first (optimistic), lowest "
                         "first (pessimistic), or the exact mean over every order (average; "
                         "not in explain, and not for " + _NOT_AVERAGED + ")")

    def common(sub, measures_required=True):
        judged(sub, measures_required=measures_required)
        sub.add_argument("--conventions", choices=CONVENTIONS, default=None,
                         help="the diversity measures' conventions: ndeval's (the default; "
                         "what pyndeval 0.0.8 and ir_measures 0.4.3 compute: ties by docno "
                         "ascending, cutoffs up to 20, ERR_IA divided by its ideal ideal) or "
                         "the papers' (textbook); an error with other measures")
        sub.add_argument("--max-grade", type=float, default=None, metavar="G",
                         help=f"ERR's top grade (default {DEFAULT_MAX_GRADE}, as gdeval and "
                         "ir_measures; with ERR, a larger grade in the qrels is an error)")
        sub.add_argument("--single-precision", action="store_true",
                         help="round scores to float32 before ranking, as pytrec_eval does")

    evaluate_cmd = commands.add_parser(
        "evaluate", help="per-query and mean values of measures, like trec_eval",
        description="Evaluate RUN against QRELS and print a trec_eval-like table.",
        epilog="Measures: " + _MEASURE_HELP + ".",
    )
    common(evaluate_cmd, measures_required=False)
    evaluate_cmd.add_argument("-q", "--per-query", action="store_true",
                              help="print every query's values before the mean (trec_eval -q)")
    evaluate_cmd.add_argument("-M", "--max-docs", type=_at_least_one, default=None,
                              metavar="N", help="evaluate only each query's first N documents "
                              "in trec_eval's ranking (trec_eval -M)")
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
                              "trec_eval; the trec_eval format only)")
    evaluate_cmd.add_argument("-R", "--rel-format", choices=REL_FORMATS, default="qrels",
                              help="qrels_jg: QRELS holds judgment groups ('qid group docno "
                              "rel'), for map_avgjg, P_avgjg and Rprec_mult_avgjg, each "
                              "averaged over the groups (-m qrels_jg); prefs: QRELS holds "
                              "preference judgments ('qid group subgroup docno rel'), and "
                              "qrels_prefs reads a qrels file as preferences, for the prefs_* "
                              "measures (-m all_prefs) (trec_eval -R; the trec_eval format "
                              "only)")
    evaluate_cmd.add_argument("-Z", "--zscores", metavar="FILE",
                              help="print each value as a z-score against FILE's 'qid "
                              "measure mean stddev' lines, names prefixed with Z (trec_eval "
                              "-Z; the trec_eval format only)")
    evaluate_cmd.add_argument("--format", choices=FORMATS, default="trec_eval",
                              help="trec_eval's layout (the default), or csv, tsv (a row per "
                              "query with -q, then 'all'), json (one object) or jsonl (one "
                              "object per row), with every value in full precision")

    explain_cmd = commands.add_parser(
        "explain", help="the step-by-step table of one query's measures",
        description="Rank QID's documents as 'evaluate' does and print, for each measure, the "
        "table of intermediate quantities that leads to its value.",
        epilog="Measures: " + _MEASURE_HELP + ".",
    )
    common(explain_cmd)
    explain_cmd.add_argument("qid", metavar="QID", help="the query to explain")
    explain_cmd.add_argument("--top", type=_at_least_zero, default=10, metavar="N",
                             help="rows of every table to list (default 10)")

    compare_cmd = commands.add_parser(
        "compare", help="several runs' means with paired significance tests",
        description="Evaluate every RUN against QRELS (a judged query a run lacks scores 0, "
        "as with -c) and test the runs pairwise, or against --baseline, on their per-query "
        "differences; p-values are corrected for the comparisons of each measure.",
        epilog="Runs are named by their file names. Measures: " + _MEASURE_HELP + ".",
    )
    judged(compare_cmd, runs="RUN", many="+")
    compare_cmd.add_argument("--baseline", metavar="RUN",
                             help="test every run against this one (its file name or path); "
                             "without it, every pair is tested and markers are letters")
    compare_cmd.add_argument("--test", choices=TESTS, default="t",
                             help="paired t-test (t, the default), randomisation test (exact up "
                             "to 20 queries) or bootstrap test of the mean difference")
    compare_cmd.add_argument("--correction", choices=CORRECTIONS, default="holm",
                             help="Holm's correction over each measure's comparisons (the "
                             "default), or none")
    compare_cmd.add_argument("--alpha", type=float, default=0.05,
                             help="significance level of the markers (default 0.05)")
    compare_cmd.add_argument("--seed", type=_at_least_zero, default=0,
                             help="seed of the resampling tests (default 0: reproducible)")
    compare_cmd.add_argument("--format", choices=COMPARE_FORMATS, default="text",
                             help="text (the default), markdown or latex tables, or csv or "
                             "json with every number")
    return parser


def _version() -> str:
    """The installed package's version (from its metadata, as pip sees it)."""
    try:
        return importlib.metadata.version("rankedu")
    except importlib.metadata.PackageNotFoundError:  # run from a source tree, not installed
        return "(not installed)"


def _rows(result, per_query: bool) -> list[tuple[str, dict]]:
    """The rows the formats for scripts print: each query's (with -q), then ``all``, from
    :func:`rankedu.summary` (which knows what is averaged and what summed)."""
    rows = ([(str(qid), row.to_dict()) for qid, row in result.iterrows()] if per_query
            else [])
    return [*rows, ("all", summary(result).to_dict())]


def _print_machine(result, per_query: bool, form: str, out) -> None:
    """``evaluate --format csv|tsv|json|jsonl`` (module docstring); floats print as their
    repr, which reads back as the same double."""
    rows = _rows(result, per_query)
    if form == "json":
        queries = {"queries": dict(rows[:-1])} if per_query else {}
        json.dump({"measures": list(result.columns), "num_q": len(result), **queries,
                   "all": rows[-1][1]}, out, indent=2)
        print(file=out)
    elif form == "jsonl":
        for qid, values in rows:
            print(json.dumps({"qid": qid, **values}), file=out)
    else:
        writer = csv.writer(out, delimiter="," if form == "csv" else "\t", lineterminator="\n")
        writer.writerow(["qid", *result.columns])
        writer.writerows([qid, *map(repr, values.values())] for qid, values in rows)


def _run_names(paths: list[str]) -> dict[str, str]:
    """Each run's name, its file name (``-`` for standard input), by path; two runs of one name
    are an error naming both."""
    names = {}
    for path in paths:
        name = path if path == STDIN else os.path.basename(os.fspath(path)) or path
        if name in names.values():
            other = next(p for p, n in names.items() if n == name)
            raise ValueError(f"runs: {other!r} and {path!r} are both named {name!r} (runs are "
                             f"named by their file names); rename or link one of them")
        names[path] = name
    return names


def _compare(args, out) -> None:
    names = _run_names(args.run)
    baseline = names.get(args.baseline, args.baseline)
    # The qrels are read once: every run is evaluated against them, and "-" reads only once.
    table = compare(read_qrels(args.qrels), {name: path for path, name in names.items()},
                    args.measures, baseline=baseline, test=args.test,
                    correction=args.correction, alpha=args.alpha, seed=args.seed,
                    ties=args.ties, threshold=args.threshold)
    if args.format in ("csv", "json"):
        _print_numbers(table, args.format, out)
    else:
        _print_comparison(table, args.format, out)


def _print_numbers(table, form: str, out) -> None:
    """``compare --format csv|json``: every column of rk.compare's table (and each run's letter
    without a baseline), a missing number empty (csv) or null (json)."""
    letters = table.attrs["letters"]
    frame = table.copy()
    if letters:
        frame.insert(0, "letter", [letters[name] for name in frame.index])
    if form == "csv":
        frame.to_csv(out, lineterminator="\n")
        return
    rows = frame.astype(object).where(frame.notna(), None)
    attrs = {key: table.attrs[key] for key in ("test", "correction", "alpha", "baseline",
                                               "queries", "note", "scored_zero")}
    json.dump({**attrs, "runs": rows.to_dict(orient="index")}, out, indent=2)
    print(file=out)


def _print_comparison(table, form: str, out) -> None:
    """``compare --format text|markdown|latex``: each run's means with their markers (and, with
    a baseline, its p-values and effect sizes), then what the table used and means."""
    measures = [column for column in table.columns if " " not in column]
    letters, baseline = table.attrs["letters"], table.attrs["baseline"]
    header = ["run", *(f"{m} {part}" if part else m
                       for m in measures for part in ("", *(("p", "d") if baseline else ())))]
    rows = []
    for name, row in table.iterrows():
        cells = [f"{letters[name]}  {name}" if letters else name]
        for measure in measures:
            cells.append(f"{row[measure]:.4f}" + _marker(row[f"{measure} sig"], form))
            if baseline:
                cells += ["" if pd.isna(row[f"{measure} {part}"])
                          else f"{row[f'{measure} {part}']:.{digits}f}"
                          for part, digits in (("p", 4), ("d", 2))]
        rows.append(cells)
    notes = [table.attrs["note"] + f"; {table.attrs['queries']} queries."]
    if baseline:
        notes.append(f"* p < {table.attrs['alpha']:g} against the baseline {baseline!r}; p: "
                     f"the p-value after the correction; d: the effect size, Cohen's d_z (mean "
                     f"difference over its standard deviation).")
    else:
        notes.append(f"Letters: the runs a run is better than, p < {table.attrs['alpha']:g} "
                     f"after the correction; csv and json carry every pair's p-value and "
                     f"effect size (Cohen's d_z).")
    notes += [f"{name!r} lacks {len(qids)} judged quer{'y' if len(qids) == 1 else 'ies'}, "
              f"scored 0." for name, qids in table.attrs["scored_zero"].items() if qids]
    print({"text": _text_table, "markdown": _markdown_table,
           "latex": _latex_table}[form](header, rows, notes), file=out)


def _marker(sig: str, form: str) -> str:
    if not sig:
        return ""
    return {"text": f" {sig}", "markdown": f"<sup>{sig}</sup>", "latex": f"$^{{{sig}}}$"}[form]


def _text_table(header, rows, notes) -> str:
    widths = [max(len(line[i]) for line in [header, *rows]) for i in range(len(header))]
    # Left-aligned: a number followed by its marker starts where the numbers above it start.
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip()
             for line in [header, *rows]]
    return "\n".join([*lines, "", *notes])


def _markdown_table(header, rows, notes) -> str:
    lines = ["| " + " | ".join(line) + " |" for line in [header, *rows]]
    lines.insert(1, "|" + "|".join(["---", *["---:"] * (len(header) - 1)]) + "|")
    return "\n".join([*lines, "", *notes])


_LATEX_SPECIAL = re.compile(r"([&%$#_{}])")


def _latex_table(header, rows, notes) -> str:
    def escaped(text):
        return _LATEX_SPECIAL.sub(r"\\\1", text)

    lines = [r"\begin{tabular}{l" + "r" * (len(header) - 1) + "}", r"\hline",
             " & ".join(map(escaped, header)) + r" \\", r"\hline"]
    # A cell's marker ($^{ab}$) is LaTeX already; the number before it needs no escape.
    lines += [" & ".join([escaped(row[0]), *row[1:]]) + r" \\" for row in rows]
    lines += [r"\hline", r"\end{tabular}", "", *(escaped(note) for note in notes)]
    return "\n".join(lines)


def _run(args, out) -> None:
    if args.command == "compare":
        _compare(args, out)
        return
    options = {"threshold": args.threshold, "max_grade": args.max_grade,
               "single_precision": args.single_precision, "ties": args.ties,
               "conventions": args.conventions}
    if args.command == "evaluate":
        options.update(missing=args.missing or "skip", max_docs=args.max_docs)
        measures = args.measures or ["official"]
        if args.format != "trec_eval":
            if args.zscores is not None:
                raise ValueError(f"--zscores: only the trec_eval format prints z-scores, not "
                                 f"--format {args.format}")
            if args.rel_format != "qrels":
                raise ValueError(f"-R: only the trec_eval format reads {args.rel_format}, not "
                                 f"--format {args.format}")
            _print_machine(evaluate(args.qrels, args.run, measures, **options),
                           args.per_query, args.format, out)
            return
        with _run_id(args.run) as runid:
            print(trec_eval_report(args.qrels, args.run, measures, per_query=args.per_query,
                                   digits=args.digits, runid=runid, zscores=args.zscores,
                                   rel_format=args.rel_format, **options), end="", file=out)
        return
    # Every explanation first, from one reading of the files, so that a bad measure or query
    # prints nothing but the error.
    names = list(dict.fromkeys(args.measures))
    explanations = _explain.query(args.qrels, args.run, args.qid, names, **options)
    ranking = explanations[names[0]].tables["ranking"]
    print(f"query {args.qid}: {len(ranking)} documents retrieved, "
          f"{len(ranking.attrs['pool'])} judged", file=out)
    print(_explain._table_text(ranking, args.top), file=out)
    for name, explanation in explanations.items():
        steps = {t: v for t, v in explanation.tables.items() if t != "ranking"}
        print(f"\n{name}\n{'-' * len(name)}", file=out)
        print(_explain.Explanation(explanation.name, explanation.value, steps).to_string(
            args.top), file=out)


@contextlib.contextmanager
def _run_id(run):
    """The run id of standard input (``-``), which trec_eval's layout prints as ``runid``:
    the input is read here, its last line's tag kept, and the bytes handed to the reader as
    standard input still (so that messages name it so). None for a file: the layout reads
    its last line itself."""
    if run != "-":
        yield None
        return
    data, kept = sys.stdin.buffer.read(), sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data))
    try:
        yield run_tag(data)
    finally:
        sys.stdin = kept


def _in_flags(message: str) -> str:
    """A message of the library with each Python keyword it names spelled as the command's
    option (``missing='zero'``: ``--missing zero``; ``max_grade=``: ``--max-grade``), and
    without the hints that only Python can follow (``(or rk.tie_interval)``)."""
    def flag(match):
        value = match.group("quoted") or match.group("value")
        return FLAGS[match.group("keyword")] + (f" {value}" if value else "")
    return _KEYWORD.sub(flag, _PYTHON_ONLY.sub("", message))


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
        args = _parser().parse_args(_files_after_measures(argv, *missing.args))
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
            problem = f"rankedu {args.command}: error: {_in_flags(str(error))}"
        # Warnings go to standard error whatever happened to standard output.
        for warning in caught:
            print(f"rankedu {args.command}: warning: {_in_flags(str(warning.message))}",
                  file=sys.stderr)
    if status == 2:
        print(problem, file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
