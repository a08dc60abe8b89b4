"""Loading TREC inputs: the reading, the query codes, the links of a run to its judgments, and
the docno order.

``_read_file`` parses a run or qrels file (the rules are in :mod:`rankedu.trec_files`, whose
``read_run`` and ``read_qrels`` call it); ``_load_pair`` turns the two inputs of ``evaluate``
(each a path, ``"-"`` for standard input, a frame or a dict of dicts) into tables that share
one vocabulary of query ids, checks that no input lists a document twice for a query, and
gives each run line the row of its judgment (``_link``: one sort of integer keys, never of
strings); ``_docno_order`` orders docnos only where they break ties (``rankedu._join``).
"""

from __future__ import annotations

import codecs
import csv
import io
import os
import re
import stat
import sys
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from rankedu import _fast_read
from rankedu._trec_lines import (
    KINDS, integer_values, line_of_row, raise_bad_line, skipped_lines,
)
from rankedu._validation import as_numbers

#: The name that reads standard input instead of a file (as trec_eval 10 accepts it).
STDIN = "-"

# A comment line, with the line ending before it (a literal first makes the regex scan fast).
_COMMENT = re.compile(rb"\n[ \t]*#[^\n]*")
# Tab, vertical tab and form feed separate fields as a space does (C's isspace).
_OTHER_BLANKS = bytes.maketrans(b"\t\v\f", b"   ")


@dataclass
class _Table:
    """One input as query codes, its docnos and its values.

    Docnos stay as read (an Arrow column from the fast reader, else an object array of str):
    sorting or hashing millions of them costs more than the rest of an evaluation. They
    matter to find the lines that name one document (:func:`_link`, through fingerprints) and
    to break ties (:func:`_docno_order`, among the tied documents only).
    """

    qid_codes: np.ndarray  # int32, index into qids
    qids: pd.Index  # query ids (str), sorted; shared by both tables of _load_pair
    docno: object  # each line's docno: an Arrow ChunkedArray or an object array of str
    values: np.ndarray  # float64: scores of a run, grades of qrels
    origin: str  # how messages name the input: "run file 'x.run'", "qrels", ...
    skipped: np.ndarray | None = None  # a file's lines (from 1) that hold no record
    # a run's: the row of the qrels table with its query and docno, -1 if none (_load_pair)
    judgment: np.ndarray | None = None

    def docnos(self, rows: np.ndarray) -> np.ndarray:
        """The docnos of ``rows`` (in any order) as an object array of str."""
        if isinstance(self.docno, np.ndarray):
            return self.docno[rows]
        return _fast_read.texts(self.docno, rows)


@dataclass
class _Rows:
    """One input before encoding: its ids as Python strings, and its values."""

    qid: np.ndarray  # object array of str, or an Arrow ChunkedArray from _fast_read
    docno: np.ndarray  # likewise
    values: np.ndarray  # float64
    origin: str
    skipped: np.ndarray | None = None  # a file's lines (from 1) that hold no record


def _read_bytes(path, kind: str) -> tuple[bytes, str]:
    """The whole file (or standard input for ``"-"``), read once, and how messages name it."""
    if isinstance(path, str) and path == STDIN:
        return sys.stdin.buffer.read(), f"{kind} file '-' (standard input)"
    path = os.fspath(path)
    with open(path, "rb") as file:
        return file.read(), f"{kind} file {path!r}"


def _regular_file(path) -> bool:
    """Whether ``path`` names a regular file (which, unlike a pipe, can be read twice)."""
    try:
        return not (isinstance(path, str) and path == STDIN) and stat.S_ISREG(
            os.stat(path).st_mode)
    except (OSError, TypeError, ValueError):
        return False


def _normalise(data: bytes) -> bytes:
    """Drop a leading byte order mark, end lines with LF, blank out comments, and turn tabs, \\v
    and \\f into spaces. Every line keeps its place: its number in the result is the file's."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    if b"\r" in data:
        # CRLF and a lone CR end a line. pandas agrees, except that it keeps a blank line after
        # a lone CR as a row of empty fields; with LF only, CRLF files also take the fast path.
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    if b"\t" in data or b"\v" in data or b"\f" in data:
        data = data.translate(_OTHER_BLANKS)
    if b"#" in data:
        data = _COMMENT.sub(b"\n", b"\n" + data)[1:]
    return data


def _read_file(path, kind: str, *, text: bool = False) -> tuple[pd.DataFrame | None, _Rows]:
    """Parse a TREC file, or find the bad line and raise. ``text=True`` also returns every column
    as a frame (for ``read_run``, ``read_qrels``); else the frame is None."""
    parsed = None
    if not text and _fast_read.available() and _regular_file(path):
        # Arrow reads a file itself, block by block: a 10M-line run's 540 MB of text are never
        # in memory at once. If it declines, the text is read, normalised and offered again.
        parsed = _fast_read.parse(os.fspath(path), *KINDS[kind][:3:2])
    if parsed is None:
        raw, origin = _read_bytes(path, kind)
        data = _normalise(raw)
        del raw
        parsed = None if text else _fast_read.parse(data, *KINDS[kind][:3:2])
    else:
        origin = f"{kind} file {os.fspath(path)!r}"
    if parsed is not None:
        # Arrow took every line (it declines a file with a blank line): none was skipped.
        return None, _Rows(*parsed, origin, np.zeros(0, dtype=np.int64))
    # Splitting on one space is much faster than on the regex \s+. Where fields are separated
    # otherwise (two spaces, a space at the start of a line) it leaves an empty field, which
    # _parse catches, and the text is parsed again on \s+.
    for sep in (" ", r"\s+"):
        parsed = _parse(data, kind, sep, text)
        if parsed is not None:
            break
    else:
        raise_bad_line(data, kind, origin)
    frame, rows = parsed
    # Not the text (a 10M-line run is 360 MB): the skipped lines turn a row into its line.
    rows.origin, rows.skipped = origin, skipped_lines(data, len(rows.values))
    return frame, rows


def _parse(data: bytes, kind: str, sep: str, text: bool):
    """(frame or None, rows) read by pandas' C parser, or None if some line does not parse."""
    columns, value_column, integer_column, _, max_fields = KINDS[kind]
    # Every field is read as text but the score: pandas' integer parser overflows on big
    # numbers and takes "1e3"; ranks and grades have few distinct values, checked one by one.
    dtypes = {i: np.float64 if name == "score" else object for i, name in enumerate(columns)}
    try:
        # No names: a surplus field on the first line is a surplus column, not an index. No
        # quoting: a '"' is text, as for trec_eval.
        frame = pd.read_csv(
            io.BytesIO(data), sep=sep, header=None, engine="c", encoding="utf-8",
            usecols=None if max_fields else range(len(columns)), dtype=dtypes,
            na_filter=False, quoting=csv.QUOTE_NONE,
        )
    except pd.errors.EmptyDataError:
        frame = pd.DataFrame({i: pd.Series([], dtype=dtypes[i]) for i in range(len(columns))})
    except (ValueError, pd.errors.ParserError):  # UnicodeDecodeError is a ValueError
        return None
    if frame.shape[1] != len(columns):
        return None
    frame.columns = list(columns)
    # An empty field (between two spaces, or one a short line lacks: na_filter is off) is "".
    # An empty score does not parse and an empty integer is caught below; the text columns
    # that repeat one value down the file are checked a stretch at a time, the docnos at once.
    for name in ("qid", "q0", "iter", "tag"):
        if name in columns and "" in _distinct(frame[name].to_numpy()):
            return None
    if (frame["docno"].to_numpy() == "").any():
        return None
    integers = integer_values(*pd.factorize(frame[integer_column].to_numpy()))
    if integers is None:
        return None
    if kind == "run":
        values = frame["score"].to_numpy(dtype=np.float64)
        if not np.isfinite(values).all():
            return None
    else:
        values = integers.astype(np.float64)
    rows = _Rows(frame["qid"].to_numpy(), frame["docno"].to_numpy(), values, origin="")
    if not text:
        return None, rows
    frame[integer_column] = integers
    return frame.astype({n: str for n in columns if n not in (integer_column, "score")}), rows


def _distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values of a column, hashing only the first of each stretch of equal values
    (a file repeats one qid, Q0 or tag down many lines)."""
    firsts = np.ones(len(values), dtype=bool)
    np.not_equal(values[1:], values[:-1], out=firsts[1:])
    return pd.unique(values[firsts])


def _from_frame(frame: pd.DataFrame, kind: str, name: str) -> _Rows:
    value_column = KINDS[kind][1]
    missing = [c for c in ("qid", "docno", value_column) if c not in frame.columns]
    if missing:
        raise ValueError(f"{name} must have columns 'qid', 'docno' and {value_column!r}; "
                         f"missing {', '.join(map(repr, missing))}")
    values = as_numbers(frame[value_column].to_numpy(), f"{name}[{value_column!r}]")
    for column in ("qid", "docno"):
        if frame[column].isna().any():
            position = int(np.flatnonzero(frame[column].isna().to_numpy())[0])
            raise ValueError(f"{name}[{column!r}] has a missing value at position {position}")
    return _Rows(frame["qid"].astype(str).to_numpy(dtype=object),
                 frame["docno"].astype(str).to_numpy(dtype=object), values, origin=name)


def _from_dict(mapping: Mapping, kind: str, name: str) -> _Rows:
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
    value_column = KINDS[kind][1]
    frame = pd.DataFrame({"qid": qids, "docno": docnos, value_column: values})
    if not len(frame):
        frame[value_column] = frame[value_column].astype(float)
    return _from_frame(frame, kind, name)


def _rows(source, kind: str, name: str) -> _Rows:
    if isinstance(source, (str, os.PathLike)):
        return _read_file(source, kind)[1]
    if isinstance(source, pd.DataFrame):
        return _from_frame(source, kind, name)
    if isinstance(source, Mapping):
        return _from_dict(source, kind, name)
    raise TypeError(f"{name} must be a path, a pandas DataFrame or a dict of dicts, "
                    f"got {type(source).__name__}")


def _encode(*inputs: _Rows) -> list[_Table]:
    """Each input as a table, with one vocabulary of query ids, checked for a document listed
    twice for a query; with two inputs, the second's ``judgment`` links it to the first."""
    if inputs and not any(isinstance(rows.docno, np.ndarray) for rows in inputs):
        qid_codes, qids = _fast_read.string_codes(_fast_read.joined([rows.qid for rows in inputs]))
        for rows in inputs:  # coded: the query ids' text is no longer needed
            rows.qid = None
        _fast_read.release()
        docno = _fast_read.joined([rows.docno for rows in inputs])

        def prints():
            return _fast_read.fingerprints(docno)

        def same(a, b):
            return _fast_read.same(docno, a, b)
    else:
        for rows in inputs:  # one input from a file, the other not: its columns become strings
            if not isinstance(rows.qid, np.ndarray):
                rows.qid, rows.docno = (_fast_read.strings(rows.qid),
                                        _fast_read.strings(rows.docno))
        qid = np.concatenate([rows.qid for rows in inputs]) if inputs else np.array([], object)
        # Queries are few and a file lists each query's lines together: hash only the first
        # line of each stretch.
        starts = np.ones(len(qid), dtype=bool)
        np.not_equal(qid[1:], qid[:-1], out=starts[1:])
        stretch_codes, qids = pd.factorize(qid[starts], sort=True)  # in string order
        qid_codes = stretch_codes.astype(np.int32)[np.cumsum(starts) - 1]
        codes = pd.factorize(np.concatenate([rows.docno for rows in inputs]) if inputs else qid)[0]

        def prints():  # the codes spread over 64 bits (their top bits make _link's keys)
            return codes.astype(np.uint64) * _fast_read.MIX

        def same(a, b):
            return codes[a] == codes[b]
    qids = pd.Index(qids, dtype=str)
    sizes = np.cumsum([0] + [len(rows.values) for rows in inputs])
    tables = [_Table(qid_codes[start:stop], qids, rows.docno, rows.values, rows.origin,
                     rows.skipped) for rows, start, stop in zip(inputs, sizes[:-1], sizes[1:])]
    judgment = _link(tables, qid_codes, prints, same, len(qids))
    if len(tables) == 2:
        tables[1].judgment = judgment
    return tables


def _link(tables: list[_Table], qid_codes: np.ndarray, prints, same,
          n_qids: int) -> np.ndarray | None:
    """Find the lines (of all tables, one after the other) that name one document for one
    query; raise at the first line of a table that repeats an earlier line of the same table;
    return, for each line of the last table, the line of the first table it repeats (-1: none),
    or None for a single table.

    One sort of 64-bit keys (query, the top bits of the docno's fingerprint, line) brings such
    lines together (``prints()`` makes the fingerprints, uint64, one per line); every pair of
    neighbours whose query and print bits agree is confirmed by ``same(a, b)`` (do lines a and
    b name one docno?), so a shared fingerprint costs a comparison, never a wrong answer.
    """
    n = len(qid_codes)
    line_bits = max(n - 1, 1).bit_length()
    print_bits = 64 - line_bits - max(n_qids - 1, 1).bit_length()
    if print_bits < 8:  # some 2**56 lines and queries together: beyond any machine's memory
        raise ValueError(f"too many lines ({n}) and queries ({n_qids}) to evaluate")
    shift = np.uint64(line_bits)
    key = prints()
    # Built and compared a slice at a time, so that no temporary is as long as the keys.
    slices = [slice(start, min(start + _SLICE, n)) for start in range(0, n, _SLICE)]
    for part in slices:
        piece = key[part]
        piece >>= np.uint64(64 - print_bits)
        piece <<= shift
        piece |= np.arange(part.start, part.stop, dtype=np.uint64)
        piece |= qid_codes[part].astype(np.uint64) << np.uint64(line_bits + print_bits)
    key.sort()
    neighbours = np.concatenate([np.zeros(0, dtype=np.int64)] + [
        part.start + np.flatnonzero(key[part.start + 1:part.stop + 1] >> shift
                                    == key[part.start:part.stop - (part.stop == n)] >> shift)
        for part in slices])
    # Runs of neighbouring pairs: a run of one pair is two lines (nearly always); a longer run
    # is a group of three or more, every pair of which is compared.
    first, last = _runs(neighbours)
    sizes = last - first + 2
    starts = np.cumsum(sizes) - sizes  # of each group in the list of members
    within = np.arange(int(sizes.sum())) - np.repeat(starts, sizes)
    members = (key[np.repeat(neighbours[first], sizes) + within] & np.uint64(
        (1 << line_bits) - 1)).astype(np.int64)
    del key
    pairs = _pairs_within(starts, sizes)
    a, b = members[pairs[0]], members[pairs[1]]
    a, b = np.minimum(a, b), np.maximum(a, b)
    equal = same(a, b)
    a, b = a[equal], b[equal]
    # Each line's earliest equal line, and its earliest equal line of its own table.
    bounds = np.cumsum([0] + [len(table.values) for table in tables])
    table_of = np.searchsorted(bounds, b, side="right") - 1
    own = table_of == np.searchsorted(bounds, a, side="right") - 1
    for index, table in enumerate(tables):
        repeats = b[own & (table_of == index)]
        if len(repeats):
            row = int(repeats.min()) - int(bounds[index])
            _raise_twice(table, row, str(table.docnos(np.array([row]))[0]))
    if len(tables) < 2:
        return None
    judgment = np.full(len(tables[-1].values), -1, dtype=np.int32 if bounds[1] < 2**31 else
                       np.int64)
    linked = (table_of == len(tables) - 1) & (a < bounds[1])
    judgment[b[linked] - bounds[-2]] = a[linked]
    return judgment


_SLICE = 1 << 20  # rows: a few MB of keys


def _runs(positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(first, last) index into ``positions`` of each run of consecutive integers in it."""
    breaks = np.flatnonzero(np.diff(positions) != 1)
    first = np.r_[0, breaks + 1] if len(positions) else np.zeros(0, dtype=np.int64)
    last = np.r_[breaks, len(positions) - 1] if len(positions) else first
    return first.astype(np.int64), last.astype(np.int64)


def _pairs_within(starts: np.ndarray, sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every pair (i, j), i < j, of positions in one group (group g holds the ``sizes[g]``
    positions from ``starts[g]``): a group of two is one pair, the common case, made without a
    loop."""
    two = sizes == 2
    i, j = [starts[two]], [starts[two] + 1]
    for start, size in zip(starts[~two].tolist(), sizes[~two].tolist()):
        upper = np.triu_indices(size, 1)
        i.append(start + upper[0])
        j.append(start + upper[1])
    return np.concatenate(i).astype(np.int64), np.concatenate(j).astype(np.int64)


def _raise_twice(table: _Table, row: int, docno: str):
    where = table.origin + (f", line {line_of_row(row, table.skipped)}"
                            if table.skipped is not None else "")
    raise ValueError(f"{where}: document {docno!r} is listed twice for query "
                     f"{str(table.qids[table.qid_codes[row]])!r}")


def _load_pair(qrels, run) -> tuple[_Table, _Table]:
    """The judgments and the run as tables sharing one vocabulary of query ids (``judged.qids
    is ranking.qids``); ``ranking.judgment`` gives each run line's row of ``judged``."""
    if all(isinstance(source, str) and source == STDIN for source in (qrels, run)):
        raise ValueError("qrels and run cannot both be read from standard input ('-')")
    judged, ranking = _encode(_rows(qrels, "qrels", "qrels"), _rows(run, "run", "run"))
    return judged, ranking


def _docno_order(names: np.ndarray) -> np.ndarray:
    """The place (int64) of each docno of ``names`` in string order among them: equal docnos
    get equal numbers, a later docno a larger one. String order is trec_eval's byte order
    (``strcmp``), as UTF-8 keeps the order of code points. Only the docnos given are compared,
    so breaking a run's ties costs what the tied documents cost."""
    distinct, inverse = np.unique(np.asarray(names, dtype=object), return_inverse=True)
    return inverse.reshape(-1).astype(np.int64)
