"""What trec_eval prints: the ``rankedu evaluate`` command's default layout.

trec_eval prints one ``measure<TAB>qid<TAB>value`` line per value, the measure name padded to
22 characters: with ``-q`` every query's lines first (query by query, in the order of the query
ids as strings), then the summary over the queries (qid ``all``). :func:`trec_eval_report`
prints the same for any measures, and for trec_eval's own names (``rankedu.trec.names``) it
prints what trec_eval 10.0 prints, line for line, as the tests check on trec_eval's own test
outputs:

- trec_eval's names print in trec_eval's order (its measure table), whatever the order they
  were given in, then rankedu's names in the order given;
- ``runid`` (the run's tag on its last line), ``num_q`` (the queries evaluated) and
  ``relstring`` (a character per document of the top ranks: the grade 0-9, ``>`` above 9,
  ``-`` not in the qrels, ``.`` a grade of -1, ``<`` another negative grade) print when asked
  for, by name or by a set (``official``, ``all_trec``, ``set``); when no measure is named
  trec_eval's way, ``num_q`` opens the summary, as rankedu's layout always had it;
- the counts (``num_ret``, ...) print as integers, their summary a sum; ``gm_map`` and
  ``gm_bpref`` print only in the summary (a geometric mean), ``relstring`` only per query;
- with ``missing="zero"`` (trec_eval ``-c``), ``num_rel``'s summary counts every grade above 0
  in the qrels, as trec_eval's does, whatever the ``threshold`` (``-l``): with ``-l2`` it is
  not the sum of the per-query lines above it.
"""

from __future__ import annotations

import gzip
import inspect
import math
import os
import warnings
from collections.abc import Mapping

import numpy as np
import pandas as pd

from rankedu.core.validation import as_flag, one_of
from rankedu.trec import names as _names
from rankedu.trec.evaluate import (MIN_GEO_MEAN, QueryMismatchWarning, _evaluated,
                                   _summarised, _warn_dropped, evaluate, summaries)
from rankedu.trec.files import read_judgment_groups, read_run
from rankedu.trec.measures import parse
from rankedu.trec.preferences import COUNTS, evaluate_preferences

__all__ = ["trec_eval_report"]

#: What only this layout prints: trec_eval's families that are not a number per query.
LAYOUT_ONLY = ("runid", "num_q", "relstring")


def trec_eval_report(qrels, run, measures=("official",), *, per_query=False, digits=4,
                     runid=None, zscores=None, rel_format="qrels", **options) -> str:
    """The text trec_eval prints for ``measures``: ``measure<TAB>qid<TAB>value`` lines.

    Parameters
    ----------
    qrels, run
        As for :func:`rankedu.evaluate`.
    measures : list of str, default ("official",)
        rankedu's names or trec_eval's (``map``, ``P.5,10``, ``all_trec``; see
        ``rankedu.trec.names``), and trec_eval's ``runid``, ``num_q`` and ``relstring[.N]``,
        which only this layout prints. The default is what trec_eval computes without ``-m``.
    per_query : bool, default False
        Print every query's lines before the summary (trec_eval ``-q``).
    digits : int, default 4
        Decimals of the values that are not counts (trec_eval prints 4).
    runid : str, optional
        The ``runid`` line's value; by default the tag (sixth field) of the run file's last
        line, as trec_eval takes it, or the last ``tag`` of a run frame.
    zscores : str or os.PathLike, optional
        trec_eval's ``-Z``: a file of ``qid measure mean stddev`` lines, each measure's mean
        and standard deviation on each query over reference runs. Every value is then printed
        as its z-score, (value - mean) / stddev, under its name prefixed with ``Z``, and each
        summary is taken over the z-scores (their mean; their sum for the counts; for
        ``gm_map`` and ``gm_bpref``, whose per-query value trec_eval keeps as a logarithm,
        the exponential of their mean). A value whose query and measure the file does not
        list, or whose deviation is 0 while it differs from the mean, is -1000000, trec_eval's
        ``MISSING_ZSCORE_VALUE``.
    rel_format : {"qrels", "qrels_jg", "prefs", "qrels_prefs"}, default "qrels"
        trec_eval's ``-R``. ``"qrels_jg"`` reads ``qrels`` as the judgments of several groups
        (:func:`rankedu.read_judgment_groups`; a frame with a ``group`` column) for trec_eval's
        measures averaged over the groups that judge each query, ``map_avgjg``, ``P_avgjg``
        and ``Rprec_mult_avgjg`` (its set ``qrels_jg``, with ``runid`` and ``num_q``): each is
        the measure of ``map``, ``P`` or ``Rprec_mult`` on each group's judgments alone, added
        in the groups' string order and divided by their number.
        ``"prefs"`` reads ``qrels`` as preference judgments (:func:`rankedu.read_preferences`;
        a frame with its columns) and ``"qrels_prefs"`` reads a qrels file or frame as
        preferences, its second field naming the judgment group, for trec_eval's preference
        measures, the ``prefs_*`` family (its sets ``all_prefs`` and ``prefs``, with ``runid``
        and ``num_q``; ``rankedu.trec.preferences`` says what each computes); of the
        ``options`` they take ``missing`` and ``max_docs``.
    **options
        ``threshold``, ``missing``, ``max_grade``, ``single_precision``, ``ties``,
        ``max_docs``, ``conventions``: as for :func:`rankedu.evaluate` (the diversity
        measures, on subtopic qrels, take ``threshold`` and ``conventions``).

    Returns
    -------
    str
        The lines, each ending in a newline.

    Raises
    ------
    ValueError
        As :func:`rankedu.evaluate` does, and when ``runid`` is asked for but the run (a dict,
        or a frame without a ``tag`` column) has none and ``runid`` is not given.

    Notes
    -----
    The chapter :doc:`/book/evaluating_runs` compares rankedu with trec_eval.

    References
    ----------
    - ``trec_eval``: Buckley, C. trec_eval, the TREC evaluation program, version 10.0.
      National Institute of Standards and Technology (``meas_print_single.c``,
      ``meas_print_final.c``, ``m_relstring.c``).

    Examples
    --------
    >>> import rankedu as rk
    >>> qrels = {"q1": {"d1": 1, "d2": 0}}
    >>> run = {"q1": {"d2": 0.9, "d1": 0.5, "d3": 0.1}}
    >>> print(rk.trec_eval_report(qrels, run, ["num_q", "map", "P.1,2", "relstring"],
    ...                           per_query=True), end="")
    map                   	q1	0.5000
    P_1                   	q1	0.0000
    P_2                   	q1	0.5000
    relstring             	q1	'01-'
    num_q                 	all	1
    map                   	all	0.5000
    P_1                   	all	0.0000
    P_2                   	all	0.5000
    """
    if isinstance(measures, str):
        measures = [measures]
    measures = list(measures)
    as_flag(per_query, "per_query")
    one_of(rel_format, "rel_format", REL_FORMATS)
    written = [name for name in measures
               if isinstance(name, str) and name.partition(".")[0] not in LAYOUT_ONLY]
    trec_eval = [name for name in measures if isinstance(name, str) and _is_trec_eval(name)]
    spelled = _names.trec_eval_spellings(trec_eval) or []
    layout = {s.family: s for s in spelled if s.rankedu is None}
    lengths = [int(s.value) for s in layout.values() if s.family == "relstring"]
    # trec_eval -m runid alone still reads both files and counts the queries: so does this.
    if rel_format == "qrels_jg":
        result, relstrings = _over_groups(qrels, run, written, spelled, options), None
    elif rel_format in ("prefs", "qrels_prefs"):
        _only_families(written, spelled, rel_format)
        result = evaluate_preferences(qrels, run, rel_format, **options)
        result, relstrings = result[[s.column for s in spelled if s.column in result]], None
    else:
        result, relstrings = _evaluate(qrels, run, written or ["num_ret"],
                                       lengths[0] if lengths else None, options)
    order = [s.column if s.rankedu else s.family for s in spelled]
    order += [name for name in result.columns if name not in order]
    if not trec_eval:
        order.insert(0, "num_q")
    if not written:
        result = result.iloc[:, :0]
    kinds = ({} if not written else summaries(result.columns) if rel_format == "qrels" else
             {name: "sum" if name in COUNTS else "mean" for name in result.columns})
    # A z-score prints as a number, not as a count, under its name prefixed with Z.
    prefix, shown = ("Z", dict.fromkeys(kinds, "mean")) if zscores is not None else ("", kinds)
    if zscores is not None:
        result, means = _as_zscores(result, kinds, _read_zscores(zscores))
    else:
        means = _summarised(result, kinds)
        if "num_rel" in kinds and options.get("missing") == "zero":
            # trec_eval -c sums num_rel over the qrels themselves, counting every grade > 0
            # whatever -l says (m_num_rel.c), not over its own per-query lines
            means["num_rel"] = result.attrs["positive_grades"]
    lines = []
    if per_query:
        for at, qid in enumerate(result.index):
            for name in order:
                if name == "relstring":
                    lines.append(_line(layout[name].column, qid, f"'{relstrings[at]}'"))
                elif name in kinds and kinds[name] != "geometric":
                    lines.append(_line(name, qid, _value(result[name].iloc[at],
                                                         shown[name], digits), prefix))
    for name in order:
        if name == "runid":
            lines.append(_line(name, "all", runid if runid is not None else _runid(run)))
        elif name == "num_q":
            lines.append(_line(name, "all", _value(len(result), "mean" if prefix else "sum",
                                                   digits), prefix))
        elif name in kinds:
            lines.append(_line(name, "all", _value(means[name], shown[name], digits), prefix))
    return "".join(lines)


#: trec_eval's value for a z-score it cannot compute (``trec_eval.h``).
MISSING_ZSCORE = -1000000.0


def _read_zscores(path) -> dict[tuple[str, str], tuple[float, float]]:
    """trec_eval's ``-Z`` file: ``(qid, measure) -> (mean, stddev)`` from its ``qid measure
    mean stddev`` lines (blank lines skipped)."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"zscores must be the path of a file, got {type(path).__name__}")
    table, origin = {}, f"zscores file {os.fspath(path)!r}"
    with open(path, encoding="utf-8") as file:
        for number, line in enumerate(file, start=1):
            fields = line.split()
            if not fields:
                continue
            try:
                if len(fields) != 4:
                    raise ValueError
                mean, stddev = float(fields[2]), float(fields[3])
            except ValueError:
                raise ValueError(f"{origin}, line {number}: expected 'qid measure mean "
                                 f"stddev', got {line.strip()!r}") from None
            if (fields[0], fields[1]) in table:
                raise ValueError(f"{origin}, line {number}: query {fields[0]!r} and measure "
                                 f"{fields[1]!r} are listed twice")
            table[fields[0], fields[1]] = mean, stddev
    return table


def _as_zscores(result: pd.DataFrame, kinds: dict, table: dict):
    """Each value of ``result`` as trec_eval's z-score (``convert_zscores.c``), and each
    measure's summary of them (``meas_acc.c``, ``meas_avg.c``, ``m_gm_map.c``)."""
    converted, means = result.copy(), {}
    for name, kind in kinds.items():
        values = result[name].to_numpy(dtype=float)
        if kind == "geometric":  # trec_eval keeps the logarithm as the query's value
            values = np.log(np.maximum(values, MIN_GEO_MEAN))
        z = []
        for qid, value in zip(result.index, values.tolist()):
            mean, stddev = table.get((str(qid), name), (None, None))
            if stddev:
                z.append((value - mean) / stddev)
            else:  # no deviation: the mean itself is 0, any other value unknown
                z.append(0.0 if mean is not None and value == mean else MISSING_ZSCORE)
        converted[name] = z
        total = sum(z)
        means[name] = (total if kind == "sum" else
                       math.exp(total / len(z)) if kind == "geometric" else total / len(z))
    return converted, means


def _is_trec_eval(written: str) -> bool:
    """Whether ``written`` is one of trec_eval's names rather than rankedu's."""
    if written in _names.SETS or written in _names.FAMILIES or \
            written.partition(".")[0] in LAYOUT_ONLY:
        return True  # Rprec is both trec_eval's name and rankedu's
    try:
        return any(spec.trec_eval for spec in parse([written]))
    except ValueError:
        return False


def _evaluate(qrels, run, measures, relstring, options):
    """``rk.evaluate``'s result (its defaults for the options not given), and each query's
    relstring (None when not asked for)."""
    bound = inspect.signature(evaluate).bind(qrels, run, measures, **options)
    bound.apply_defaults()
    result = _evaluated(**bound.arguments, relstring=relstring)
    return result, result.attrs.get("relstring")


#: trec_eval's ``-R`` formats that rankedu reads.
REL_FORMATS = ("qrels", "qrels_jg", "prefs", "qrels_prefs")


def _only_families(written: list, spelled: list, rel_format: str) -> None:
    """Refuse what ``rel_format`` (other than qrels) cannot compute: anything but its own
    families (names.Family.rel_format), runid and num_q."""
    needs = "prefs" if rel_format == "qrels_prefs" else rel_format
    families = [name for name, family in _names.FAMILIES.items() if family.rel_format == needs]
    if not written or _names.trec_eval_spellings(written) is None or any(
            s.family not in ("runid", "num_q") and _names.FAMILIES[s.family].rel_format != needs
            for s in spelled):
        what = ("the measures averaged over judgment groups" if needs == "qrels_jg" else
                "trec_eval's preference measures")
        sets = [name for name, members in _names.SETS.items() if set(members[2:]) <= set(families)]
        raise ValueError(f"measures: with rel_format={rel_format!r} only {what} are computed: "
                         f"{', '.join(families)} (the set{'s' * (len(sets) > 1)} "
                         f"{' and '.join(sets)}), and runid and num_q; got {written!r}")


def _over_groups(qrels, run, written: list, spelled: list, options: dict) -> pd.DataFrame:
    """trec_eval ``-R qrels_jg`` (``m_map_avgjg.c``, ``m_P_avgjg.c``,
    ``m_Rprec_mult_avgjg.c``): each averaged family's measure on each group's judgments, and
    per query the mean over the groups that judge it, as columns named as trec_eval prints
    them."""
    _only_families(written, spelled, "qrels_jg")
    averaged = [s for s in spelled if s.rankedu is not None]
    groups = qrels if isinstance(qrels, pd.DataFrame) else read_judgment_groups(qrels)
    if "group" not in groups.columns:
        raise ValueError("qrels must have a 'group' column with rel_format='qrels_jg'")
    if not isinstance(run, (pd.DataFrame, Mapping)):
        run = read_run(run)  # once, for every group (standard input can be read only once)
    run_qids = set(map(str, run["qid"] if isinstance(run, pd.DataFrame) else run))
    missing = options.get("missing", "skip")
    per_group = []
    for group, judged in groups.astype({"group": str}).groupby("group", sort=True):
        if missing != "zero" and not run_qids & set(judged["qid"].astype(str)):
            continue  # it judges no query of the run
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            per_group.append(evaluate(judged, run, [s.rankedu for s in averaged], **options))
        for warning in caught:  # which queries the groups leave out is said once, below
            if not issubclass(warning.category, QueryMismatchWarning):
                warnings.warn(f"judgment group {group!r}: {warning.message}", warning.category,
                              stacklevel=3)
    qids = sorted({qid for frame in per_group for qid in frame.index})
    judged_qids = set(groups["qid"].astype(str))
    _warn_dropped(sorted(run_qids - judged_qids),
                  [] if missing == "zero" else sorted(judged_qids - run_qids))
    if not qids:
        raise ValueError("run: nothing was evaluated: none of the run's queries is judged")
    result = pd.DataFrame(index=pd.Index(qids, name="qid", dtype=str))
    for s in averaged:
        values = [[frame.at[qid, s.rankedu] for frame in per_group if qid in frame.index]
                  for qid in qids]
        result[s.column] = [sum(group_values) / len(group_values) for group_values in values]
    return result


def _line(name: str, qid: str, value: str, prefix: str = "") -> str:
    return f"{prefix}{name:<22}\t{qid}\t{value}\n"


def _value(value, kind: str, digits: int) -> str:
    """A count (summarised by its ``kind``, "sum") as an integer (trec_eval's ``%ld``), any
    other value with ``digits`` decimals."""
    if kind == "sum":
        return str(int(round(float(value))))
    return f"{float(value):.{digits}f}"


def _runid(run) -> str:
    """The run's tag as trec_eval reads it: the sixth field of the file's last line."""
    if isinstance(run, pd.DataFrame) and "tag" in run.columns and len(run):
        return str(run["tag"].iloc[-1])
    if isinstance(run, (str, os.PathLike)) and os.fspath(run) != "-":
        tag = run_tag(_tail(os.fspath(run)))
        if tag is not None:
            return tag
    raise ValueError("runid: this run has no run id to print (a run file's lines end in one; "
                     "a dict, a frame without a 'tag' column or standard input has none): "
                     "pass runid=")


def run_tag(data: bytes) -> str | None:
    """The sixth field of the last line of ``data`` (a run file's bytes, or its end; gzip
    decompressed) that holds a record, or None."""
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    for line in reversed(data.splitlines()):
        fields = line.split()
        if fields and not fields[0].startswith(b"#"):
            return fields[5].decode("utf-8", errors="replace") if len(fields) >= 6 else None
    return None


def _tail(path: str) -> bytes:
    """The end of ``path`` from the start of its last line that holds a record (all of it
    when gzip-compressed)."""
    with open(path, "rb") as file:
        if file.read(2) == b"\x1f\x8b":
            file.seek(0)
            return file.read()
        size = file.seek(0, os.SEEK_END)
        chunk = 1 << 16
        while True:
            start = max(0, size - chunk)
            file.seek(start)
            data = file.read(size - start)
            # The chunk's first line may be cut: it counts only when the chunk is the file.
            whole = data if start == 0 else data.partition(b"\n")[2]
            if start == 0 or any(line.split() and not line.split()[0].startswith(b"#")
                                 for line in whole.splitlines()):
                return whole
            chunk *= 2
