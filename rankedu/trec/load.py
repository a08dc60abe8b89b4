"""Loading TREC inputs: the reading, the query codes, the links of a run to its judgments, and
the docno order.

``_read_file`` parses a run or qrels file (the rules are in :mod:`rankedu.trec.files`, whose
``read_run`` and ``read_qrels`` call it); ``_load_pair`` turns the two inputs of ``evaluate``
(each a path, ``"-"`` for standard input, a frame or a dict of dicts) into tables that share
one vocabulary of query ids, checks that no input lists a document twice for a query, and
gives each run line the row of its judgment (``rankedu.trec.link``: sorts of integer keys, never
of strings); ``_docno_order`` orders docnos only where they break ties (``rankedu.trec.join``).
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import gzip
import io
import os
import re
import stat
import sys
import zlib
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass

import numpy as np
import pandas as pd

from rankedu.trec import fast_read as _fast_read

from rankedu.core.validation import as_numbers
from rankedu.trec import link as _link
from rankedu.trec.lines import (
    GZIP_MAGIC, KINDS, binary_problem, integer_values, line_of_row, raise_bad_line,
    skipped_lines,
)

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
    matter to find the lines that name one document (``rankedu.trec.link``, through prints) and
    to break ties (:func:`_docno_order`, among the tied documents only).
    """

    qid_codes: np.ndarray  # int32, index into qids
    qids: pd.Index  # query ids (str), sorted; shared by both tables of _load_pair
    docno: object  # each line's docno: an Arrow ChunkedArray or an object array of str
    values: np.ndarray  # float64: scores of a run, grades of qrels
    origin: str  # how messages name the input: "run file 'x.run'", "qrels", ...
    skipped: np.ndarray | None = None  # a file's lines (from 1) that hold no record
    # a run's: the row of the qrels table with its query and docno, -1 if none (_load_pair);
    # until it is first read, the link's pairs (lines, rows), or their Future while the link
    # is found in the background
    _judgment: np.ndarray | tuple | Future | None = None

    @property
    def judgment(self) -> np.ndarray | None:
        """A run's row of the qrels table for each line (-1: none), once ``_load_pair``'s
        link is found: reading it waits for the link and raises what the link found (a
        document listed twice). The array is made when it is first read, not by the link: in
        the background, it would add to the memory the link's own arrays take."""
        linked = self._judgment
        if isinstance(linked, Future):
            linked = linked.result()
        if isinstance(linked, tuple):
            lines, rows = linked
            linked = np.full(len(self.values), -1, dtype=rows.dtype)
            linked[lines] = rows
        self._judgment = linked
        return linked

    def docnos(self, rows: np.ndarray) -> np.ndarray:
        """The docnos of ``rows`` (in any order) as an object array of str."""
        if isinstance(self.docno, np.ndarray):
            return self.docno[rows]
        return _fast_read.texts(self.docno, rows)


@dataclass
class _Rows:
    """One input before encoding: its ids (Python or Arrow strings), and its values."""

    # object array of str, or an Arrow ChunkedArray from rankedu.trec.fast_read (None once
    # _encode has coded an Arrow column: its text is not kept)
    qid: np.ndarray
    docno: np.ndarray  # likewise
    values: np.ndarray  # float64
    origin: str
    skipped: np.ndarray | None = None  # a file's lines (from 1) that hold no record
    # Arrow docnos: a future of their fast_read.suffix_prints, computed in the background
    suffixes: Future | None = None


def _read_bytes(path, kind: str) -> tuple[bytes, str]:
    """The whole file (or standard input for ``"-"``), read once and decompressed if it is
    gzip-compressed (by its first bytes, whatever its name), and how messages name it. Bytes
    that are not text are a ValueError saying in one line what they look like."""
    if isinstance(path, str) and path == STDIN:
        data, origin = sys.stdin.buffer.read(), f"{kind} file '-' (standard input)"
    else:
        path = os.fspath(path)
        with open(path, "rb") as file:
            data, origin = file.read(), f"{kind} file {path!r}"
    if data.startswith(GZIP_MAGIC):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as error:
            raise ValueError(f"{origin} is gzip-compressed but does not decompress: "
                             f"{error}") from None
    problem = binary_problem(data)
    if problem:
        raise ValueError(f"{origin} {problem}")
    return data, origin


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


def _read_file(path, kind: str, *, text: bool = False, before: int = 0, on_read=None
               ) -> tuple[pd.DataFrame | None, _Rows]:
    """Parse a TREC file, or find the bad line and raise. ``text=True`` also returns every column
    as a frame (for ``read_run``, ``read_qrels``); else the frame is None. ``before``: the lines
    of the inputs read before it (its docnos' prints leave room for theirs); ``on_read``:
    ``fast_read.parse``'s."""
    parsed = None
    if not text and _fast_read.available() and _regular_file(path):
        # Arrow reads a file itself, block by block: a 10M-line run's 540 MB of text are never
        # in memory at once. If it declines, the text is read, normalised and offered again.
        parsed = _fast_read.parse(os.fspath(path), *KINDS[kind][:3:2], before=before,
                                  on_read=on_read)
    if parsed is None:
        raw, origin = _read_bytes(path, kind)
        data = _normalise(raw)
        del raw
        parsed = None if text else _fast_read.parse(data, *KINDS[kind][:3:2], before=before,
                                                    on_read=on_read)
    else:
        origin = f"{kind} file {os.fspath(path)!r}"
    if parsed is not None:
        # Arrow took every line (it declines a file with a blank line): none was skipped.
        qid, docno, values, suffixes = parsed
        return None, _Rows(qid, docno, values, origin, np.zeros(0, dtype=np.int64), suffixes)
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


def _rows(source, kind: str, name: str, before: int = 0, on_read=None) -> _Rows:
    if isinstance(source, (str, os.PathLike)):
        return _read_file(source, kind, before=before, on_read=on_read)[1]
    if isinstance(source, pd.DataFrame):
        return _from_frame(source, kind, name)
    if isinstance(source, Mapping):
        return _from_dict(source, kind, name)
    raise TypeError(f"{name} must be a path, a pandas DataFrame or a dict of dicts, "
                    f"got {type(source).__name__}")


def _encode(*inputs: _Rows, wait: bool = True, early: _EarlyLink | None = None
            ) -> list[_Table]:
    """Each input as a table, with one vocabulary of query ids, checked for a document listed
    twice for a query; with two inputs, the second's ``judgment`` links it to the first.
    ``wait=False``: the link and the check go on in the background, and reading
    ``judgment`` waits for them (and raises what they found). ``early``: the query codes and
    the link, already started when the last input was read (:class:`_EarlyLink`)."""
    linked = None
    arrow = inputs and not any(isinstance(rows.docno, np.ndarray) for rows in inputs)
    if early is not None:
        qid_codes, qids, linked = early.qid_codes, early.qids, early.linked
    elif arrow:
        qid_codes, qids = _fast_read.string_codes(_fast_read.joined([rows.qid for rows in inputs]))
        docnos = _link.ArrowDocnos(_fast_read.joined([rows.docno for rows in inputs]),
                                   [rows.suffixes for rows in inputs])
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
        docnos = _link.CodedDocnos(pd.factorize(
            np.concatenate([rows.docno for rows in inputs]) if inputs else qid)[0])
    if arrow:
        for rows in inputs:  # coded: the query ids' text is no longer needed
            rows.qid = None
        _fast_read.release()
    qids = pd.Index(qids, dtype=str)
    sizes = np.cumsum([0] + [len(rows.values) for rows in inputs])
    tables = [_Table(qid_codes[start:stop], qids, rows.docno, rows.values, rows.origin,
                     rows.skipped) for rows, start, stop in zip(inputs, sizes[:-1], sizes[1:])]
    if linked is None:
        arguments = (list(np.diff(sizes)), qid_codes, docnos, len(qids))
        linked = _link.link(*arguments) if wait else _fast_read.background(_link.link, *arguments)
    judgment = _linked(tables, linked) if wait else _fast_read.background(_linked, tables, linked)
    if len(tables) == 2:
        tables[1]._judgment = judgment
    return tables


class _EarlyLink:
    """``fast_read.parse``'s ``on_read`` for a run whose qrels Arrow read too: as soon as the
    run is read, its query ids are coded with the qrels' and the link is started in the
    background (after the docnos' prints), while the run's columns are checked."""

    def __init__(self, judged: _Rows):
        self.judged, self.docno = judged, None

    def __call__(self, qid, docno, suffixes) -> Future:
        judged = self.judged
        self.qid_codes, self.qids = _fast_read.string_codes(_fast_read.joined([judged.qid, qid]))
        self.docno = docno
        docnos = _link.ArrowDocnos(_fast_read.joined([judged.docno, docno]),
                                   [judged.suffixes, suffixes])
        self.linked = _fast_read.background(_link.link, [len(judged.values), len(qid)],
                                            self.qid_codes, docnos, len(self.qids))
        return self.linked

    def of(self, rows: _Rows) -> _EarlyLink | None:
        """Itself if it started from the columns of ``rows`` (the run as finally read), else
        None (the fast reader declined the file, and the exact reader read it)."""
        return self if self.docno is not None and rows.docno is self.docno else None


def _linked(tables: list[_Table], linked) -> tuple | None:
    """The lines of the last table that name a document of the first, and their rows of it
    (None for one table), after checking that no table lists a document twice for a query:
    ``linked`` is ``rankedu.trec.link.link``'s answer, or a future of it."""
    pairs, repeat = linked.result() if isinstance(linked, Future) else linked
    if repeat is not None:
        table, row = tables[repeat[0]], repeat[1]
        _raise_twice(table, row, str(table.docnos(np.array([row]))[0]))
    return pairs


@contextlib.contextmanager
def link_errors_first(ranking: _Table):
    """For the callers of :func:`_load_pair`: an error of the block is raised after the link's
    own (a document listed twice), which the block's checks did not wait for."""
    try:
        yield
    except ValueError:
        ranking.judgment  # waits for the link, and raises what it found
        raise


def _raise_twice(table: _Table, row: int, docno: str):
    where = table.origin + (f", line {line_of_row(row, table.skipped)}"
                            if table.skipped is not None else "")
    raise ValueError(f"{where}: document {docno!r} is listed twice for query "
                     f"{str(table.qids[table.qid_codes[row]])!r}")


@_fast_read.small_pages()
def _load_pair(qrels, run) -> tuple[_Table, _Table]:
    """The judgments and the run as tables sharing one vocabulary of query ids (``judged.qids
    is ranking.qids``); ``ranking.judgment`` gives each run line's row of ``judged``.

    The link, and the check that neither input lists a document twice for a query, go on in
    the background: the caller ranks the run meanwhile, reads ``ranking.judgment`` when it
    needs it, and runs its own checks under :func:`link_errors_first`."""
    if all(isinstance(source, str) and source == STDIN for source in (qrels, run)):
        raise ValueError("qrels and run cannot both be read from standard input ('-')")
    judged = _rows(qrels, "qrels", "qrels")
    early = _EarlyLink(judged) if judged.suffixes is not None else None
    run_rows = _rows(run, "run", "run", len(judged.values), on_read=early)
    judged, ranking = _encode(judged, run_rows, wait=False,
                              early=early and early.of(run_rows))
    return judged, ranking


def _docno_order(names: np.ndarray) -> np.ndarray:
    """The place (int64) of each docno of ``names`` in string order among them: equal docnos
    get equal numbers, a later docno a larger one. String order is trec_eval's byte order
    (``strcmp``), as UTF-8 keeps the order of code points. Only the docnos given are compared,
    so breaking a run's ties costs what the tied documents cost."""
    distinct, inverse = np.unique(np.asarray(names, dtype=object), return_inverse=True)
    return inverse.reshape(-1).astype(np.int64)
