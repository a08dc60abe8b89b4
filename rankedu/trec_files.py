"""Reading TREC files: a run or qrels file, a DataFrame or a dict of dicts becomes a table of codes.

``read_qrels`` and ``read_run`` return pandas frames; ``_load`` turns any accepted input into a
:class:`_Table` (integer codes of queries and documents, and their values), which
:mod:`rankedu.trec`'s ``evaluate`` works on.
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from rankedu._validation import as_numbers

__all__ = ["read_qrels", "read_run"]

RUN_COLUMNS = ("qid", "q0", "docno", "rank", "score", "tag")
QRELS_COLUMNS = ("qid", "iter", "docno", "rel")


@dataclass
class _Table:
    """One input, as category codes: query and document codes, their names, and the values."""

    qid_codes: np.ndarray  # int64, index into qids
    qids: pd.Index  # query ids (str)
    doc_codes: np.ndarray  # int64, index into docnos
    docnos: pd.Index  # document ids (str)
    values: np.ndarray  # float64: scores of a run, grades of qrels
    origin: str  # the file name, or a description of the object, for error messages
    path: str | None = None  # the file, if read from one (to find a bad line's number)


_KINDS = {
    # kind: (columns read, column holding the values, its dtype, minimum fields, maximum fields)
    "run": (RUN_COLUMNS, "score", np.float64, 6, None),
    "qrels": (QRELS_COLUMNS, "rel", np.int64, 4, 4),
}


def _read_file(path, kind: str, *, text: bool = False) -> tuple[pd.DataFrame, _Table]:
    """Parse a TREC file with pandas' C parser; on any problem, find the bad line and raise.

    ``text=True`` keeps every column as it is written (for :func:`read_run`); otherwise the
    fields no measure uses are read as categories, which is cheaper.
    """
    path = os.fspath(path)
    with open(path, "rb") as file:
        data = file.read()
    # Splitting on one space is much faster than on the regex \s+. Where fields are separated
    # otherwise (two spaces, a leading space) it leaves an empty field, which a check below
    # catches, and the file is read again on \s+; a tab or CR anywhere goes to \s+ directly.
    separators = [r"\s+"] if b"\t" in data or b"\r" in data else [" ", r"\s+"]
    for sep in separators:
        parsed = _parse(io.BytesIO(data), kind, text, sep)
        if parsed is not None:
            break
    else:
        _raise_bad_line(path, kind)
    frame, table = parsed
    table.origin = table.path = path
    _check_unique(table, kind)
    if text:
        frame = frame.astype({"qid": str, "docno": str})
    return frame, table


def _parse(source, kind: str, text: bool, sep: str) -> tuple[pd.DataFrame, _Table] | None:
    """The file as a frame and a table, or None if some line does not parse."""
    columns, value_column, value_dtype, _, max_fields = _KINDS[kind]
    # Ids are read as text and factorised below: pandas' "category" dtype would turn the ids
    # "0301" and "301" into the one number 301.
    unused = str if text else "category"
    dtypes = {name: unused for name in columns}
    dtypes.update(qid=object, docno=object, rank=np.int64)
    dtypes[value_column] = value_dtype
    try:
        # No names: a first line with a surplus field then shows up as a surplus column
        # (with names, pandas would silently take it for an index).
        frame = pd.read_csv(
            source,
            sep=sep,
            header=None,
            usecols=None if max_fields else range(len(columns)),
            dtype={i: dtypes[c] for i, c in enumerate(columns)},
            engine="c",
            keep_default_na=False,
            na_values=[],
        )
    except pd.errors.EmptyDataError:
        frame = pd.DataFrame({name: pd.Series([], dtype=dtypes[name]) for name in columns})
    except (ValueError, pd.errors.ParserError):
        return None
    if frame.shape[1] != len(columns):
        return None
    frame.columns = list(columns)
    # A missing or empty field: an empty integer field (rank, rel) already made the parser
    # fail and an empty score is NaN; an empty text field is "" (or NaN at the end of a line).
    for name in columns:
        field = frame[name]
        if name in ("qid", "docno", value_column, "rank"):
            continue
        empty = ("" in field.cat.categories if isinstance(field.dtype, pd.CategoricalDtype)
                 else bool((field == "").any()))
        if empty or field.isna().any():
            return None
    values = frame[value_column].to_numpy(dtype=np.float64)
    if not np.isfinite(values).all():
        return None
    qid_codes, qids = _factorize(frame["qid"].to_numpy(dtype=object), grouped=True)
    doc_codes, docnos = _factorize(frame["docno"].to_numpy(dtype=object))
    if "" in qids or "" in docnos:
        return None
    return frame, _Table(qid_codes, qids, doc_codes, docnos, values, origin="")


def _factorize(values: np.ndarray, grouped: bool = False) -> tuple[np.ndarray, pd.Index]:
    """Integer codes of ``values`` and the sorted distinct values they index.

    ``grouped``: the values come in runs (a run file lists a query's documents together), so
    only the first value of each run needs hashing.
    """
    if grouped and len(values):
        starts = np.empty(len(values), dtype=bool)
        starts[0] = True
        np.not_equal(values[1:], values[:-1], out=starts[1:])
        codes, uniques = pd.factorize(values[starts], sort=True)
        codes = codes[np.cumsum(starts) - 1]
    else:
        codes, uniques = pd.factorize(values, sort=True)
    return codes.astype(np.int64), pd.Index(uniques, dtype=str)


def _parse_line(fields: list[str], kind: str) -> str | None:
    """What is wrong with one line's fields, or None."""
    _, _, _, min_fields, max_fields = _KINDS[kind]
    if len(fields) < min_fields or (max_fields and len(fields) > max_fields):
        expected = f"{min_fields}" if max_fields == min_fields else f"at least {min_fields}"
        layout = " ".join(_KINDS[kind][0])
        return f"expected {expected} fields ({layout}), got {len(fields)}"
    if kind == "qrels":
        try:
            int(fields[3])
        except ValueError:
            return f"the relevance grade {fields[3]!r} is not an integer"
        return None
    try:
        int(fields[3])
    except ValueError:
        return f"the rank {fields[3]!r} is not an integer"
    try:
        score = float(fields[4])
    except ValueError:
        return f"the score {fields[4]!r} is not a number"
    if not math.isfinite(score):
        return f"the score {fields[4]!r} is not a finite number"
    return None


def _raise_bad_line(path: str, kind: str):
    """Scan the file line by line (only after the fast parser failed) and raise at the culprit."""
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            fields = line.split()
            if not fields:
                continue
            problem = _parse_line(fields, kind)
            if problem:
                raise ValueError(
                    f"{kind} file {path!r}, line {number}: malformed line ({problem}): "
                    f"{line.rstrip()!r}"
                )
    raise ValueError(f"{kind} file {path!r} could not be parsed as a TREC {kind} file")


def _line_of_duplicate(path: str, qid: str, docno: str) -> int:
    seen = 0
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            fields = line.split()
            if len(fields) >= 3 and fields[0] == qid and fields[2] == docno:
                seen += 1
                if seen == 2:
                    return number
    return -1


def _check_unique(table: _Table, kind: str) -> None:
    """A document listed twice for one query is an error (trec_eval stops on it too)."""
    key = table.qid_codes * max(len(table.docnos), 1) + table.doc_codes
    ordered = np.sort(key)
    repeated = np.flatnonzero(ordered[1:] == ordered[:-1])
    if repeated.size:
        q, d = divmod(int(ordered[repeated[0]]), max(len(table.docnos), 1))
        qid, docno = str(table.qids[q]), str(table.docnos[d])
        where = f"{kind} {table.origin}"
        if table.path is not None:
            where = f"{kind} file {table.path!r}, line {_line_of_duplicate(table.path, qid, docno)}"
        raise ValueError(f"{where}: document {docno!r} is listed twice for query {qid!r}")


def read_qrels(path) -> pd.DataFrame:
    """Read a TREC qrels (judgments) file: one ``qid iter docno rel`` line per judgment.

    Fields are separated by any whitespace; ``iter`` is ignored by every measure; ``rel`` is an
    integer grade (negative grades are kept: trec_eval reads them as "in the pool, not judged"
    and ``evaluate`` treats them as non-relevant with gain 0).

    Parameters
    ----------
    path : str or os.PathLike
        The qrels file.

    Returns
    -------
    pandas.DataFrame
        Columns ``qid``, ``iter``, ``docno`` (strings) and ``rel`` (int64), one row per line.

    Raises
    ------
    ValueError
        On a line without exactly four fields or with a non-integer grade (naming the file and
        line number), or on a document judged twice for one query.

    Notes
    -----
    The chapter :doc:`/book/evaluating_runs` explains it.

    Examples
    --------
    >>> import rankedu as rk, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "qrels.txt")
    >>> _ = open(path, "w").write("q1 0 d1 2\\nq1 0 d2 0\\n")
    >>> rk.read_qrels(path)
      qid iter docno  rel
    0  q1    0    d1    2
    1  q1    0    d2    0
    """
    return _read_file(path, "qrels", text=True)[0]


def read_run(path) -> pd.DataFrame:
    """Read a TREC run file: one ``qid Q0 docno rank score tag`` line per retrieved document.

    Fields are separated by any whitespace. Text after the sixth field is ignored, as trec_eval
    ignores it. The ``rank`` field must be an integer but ranks nothing: ``evaluate`` ranks by
    ``score`` (trec_eval does the same).

    Parameters
    ----------
    path : str or os.PathLike
        The run file.

    Returns
    -------
    pandas.DataFrame
        Columns ``qid``, ``q0``, ``docno``, ``rank`` (int64), ``score`` (float64) and ``tag``,
        one row per line, in file order.

    Raises
    ------
    ValueError
        On a line with fewer than six fields, a non-integer rank, or a score that is not a
        finite number (naming the file and line number), or on a document listed twice for one
        query.

    Notes
    -----
    The chapter :doc:`/book/evaluating_runs` explains it.

    Examples
    --------
    >>> import rankedu as rk, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "run.txt")
    >>> _ = open(path, "w").write("q1 Q0 d2 1 0.9 bm25\\nq1 Q0 d1 2 0.5 bm25\\n")
    >>> rk.read_run(path)[["qid", "docno", "score"]]
      qid docno  score
    0  q1    d2    0.9
    1  q1    d1    0.5
    """
    return _read_file(path, "run", text=True)[0]


def _from_frame(frame: pd.DataFrame, kind: str, name: str) -> _Table:
    value_column = _KINDS[kind][1]
    missing = [c for c in ("qid", "docno", value_column) if c not in frame.columns]
    if missing:
        raise ValueError(
            f"{name} must have columns 'qid', 'docno' and {value_column!r}; "
            f"missing {', '.join(map(repr, missing))}"
        )
    values = as_numbers(frame[value_column].to_numpy(), f"{name}[{value_column!r}]")
    for column in ("qid", "docno"):
        if frame[column].isna().any():
            position = int(np.flatnonzero(frame[column].isna().to_numpy())[0])
            raise ValueError(f"{name}[{column!r}] has a missing value at position {position}")
    qid_codes, qids = _factorize(frame["qid"].astype(str).to_numpy(dtype=object), grouped=True)
    doc_codes, docnos = _factorize(frame["docno"].astype(str).to_numpy(dtype=object))
    table = _Table(qid_codes, qids, doc_codes, docnos, values, origin=name)
    _check_unique(table, kind)
    return table


def _from_dict(mapping: Mapping, kind: str, name: str) -> _Table:
    """``{qid: {docno: value}}`` as pytrec_eval takes it (a conversion, not an evaluation)."""
    qids, docnos, values = [], [], []
    for qid, documents in mapping.items():
        if not isinstance(documents, Mapping):
            raise TypeError(
                f"{name} must map each query id to a dict {{docno: value}}; query {qid!r} maps "
                f"to {type(documents).__name__}"
            )
        qids.extend([str(qid)] * len(documents))
        docnos.extend(map(str, documents.keys()))
        values.extend(documents.values())
    value_column = _KINDS[kind][1]
    frame = pd.DataFrame({"qid": qids, "docno": docnos, value_column: values})
    if not len(frame):
        frame[value_column] = frame[value_column].astype(float)
    return _from_frame(frame, kind, name)


def _load(source, kind: str, name: str) -> _Table:
    if isinstance(source, (str, os.PathLike)):
        return _read_file(source, kind)[1]
    if isinstance(source, pd.DataFrame):
        return _from_frame(source, kind, name)
    if isinstance(source, Mapping):
        return _from_dict(source, kind, name)
    raise TypeError(
        f"{name} must be a path, a pandas DataFrame or a dict of dicts, "
        f"got {type(source).__name__}"
    )
