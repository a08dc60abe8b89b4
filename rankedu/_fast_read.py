"""The fast path of ``trec_files``: pyarrow's multithreaded CSV reader, when pyarrow is installed.

pyarrow is an optional extra (``pip install rankedu[fast]``): without it, or when a file is not
in the plain form this reader takes, ``trec_files`` reads with pandas as before, with the same
result. The plain form: fields separated by one space, no empty field, no blank line, every
line with the same number of fields (four for qrels, six for a run), an integer field and a
score that Arrow parses. Anything else (two spaces, a seventh field, a comment, a score Arrow
rejects...) makes :func:`parse` return None, and the exact reader decides.

Docnos stay in Arrow, and no Python string is made per line: the qrels' docnos get codes from
Arrow's hash table; a run's, nearly all distinct, are matched to them by fingerprints
(:func:`codes`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rankedu._trec_lines import integer_values

try:
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pa_csv
except ImportError:  # the package works with numpy and pandas alone
    pa = None

# Text with few distinct values (query ids, Q0, tags, ranks, grades) is dictionary-encoded
# while parsing, block by block on every thread; docnos, nearly all distinct, are plain text.
_REPEATED = pa.dictionary(pa.int32(), pa.string()) if pa is not None else None


def available() -> bool:
    """Whether pyarrow can be imported (the fast path is possible)."""
    return pa is not None


def parse(data, columns: tuple[str, ...], integer_column: str):
    """``(qid, docno, values)`` of a TREC file, or None.

    ``data`` is the text normalised (``_trec_load._normalise``), or the path of a regular file
    that Arrow reads itself, block by block, so that the whole text is never in memory; what
    normalising would change (a tab, a comment, a byte order mark) then makes this reader
    decline. ``qid`` and ``docno`` are Arrow ChunkedArrays, ``values`` the float64 scores of a
    run or grades of qrels. None when pyarrow is absent, the text is empty, or some line is not in the plain form (module
    docstring).
    """
    if pa is None or not data:
        return None
    if not isinstance(data, bytes):
        with open(data, "rb") as file:
            if file.read(3) == b"\xef\xbb\xbf":  # a byte order mark: normalise the text first
                return None
    types = {name: _REPEATED for name in columns}
    types["docno"] = types[integer_column] = pa.string()
    if "score" in columns:
        types["score"] = pa.float64()
    try:
        table = pa_csv.read_csv(
            pa.BufferReader(data) if isinstance(data, bytes) else pa.OSFile(data),
            read_options=pa_csv.ReadOptions(column_names=list(columns), use_threads=True),
            parse_options=pa_csv.ParseOptions(
                delimiter=" ", quote_char=False, double_quote=False, escape_char=False,
                newlines_in_values=False, ignore_empty_lines=False),
            convert_options=pa_csv.ConvertOptions(
                column_types=types, check_utf8=True, null_values=[], true_values=[],
                false_values=[], strings_can_be_null=False, quoted_strings_can_be_null=False),
        )
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    if not table.num_rows:
        return None
    # One space between fields leaves no empty field; anything else (two spaces, a blank at
    # either end of a line) leaves one, and only the exact reader knows what the line means.
    for name in columns:
        texts = table.column(name)
        if texts.type == _REPEATED:
            texts = pa.chunked_array([chunk.dictionary for chunk in texts.chunks], pa.string())
            # A text not normalised may hold a tab, \v or \f (blanks to trec_eval), or be a
            # comment line with as many fields as a record.
            if pc.any(pc.match_substring_regex(texts, "[\t\v\f]|^#" if name == "qid" else
                                               "[\t\v\f]")).as_py():
                return None
        if name != "score" and pc.min(pc.binary_length(texts)).as_py() == 0:
            return None
    if not isinstance(data, bytes) and _has_blanks(table.column("docno")):
        return None
    numbers = table.column(integer_column)
    if pc.all(pc.ascii_is_decimal(numbers)).as_py() and pc.max(
            pc.binary_length(numbers)).as_py() <= 18:  # plain digits: an int64, as Arrow reads it
        integers = numbers.cast(pa.int64()).to_numpy() if "score" not in columns else None
    else:  # few distinct texts (a sign, "1.0"...): each checked as the exact reader checks it
        codes, texts = _encode([numbers])
        integers = integer_values(codes, texts.to_pylist())
        if integers is None:
            return None
    if "score" in columns:
        values = table.column("score").to_numpy()
        if not np.isfinite(values).all():
            return None
    else:
        values = integers.astype(np.float64)
    return table.column("qid"), table.column("docno"), values


def codes(inputs) -> tuple:
    """``(qid_codes, qids, doc_codes, docnos, twice)`` for rows from :func:`parse`.

    Query ids get one vocabulary, sorted as strings. The docnos of every input but the last
    (the qrels) get one too, exactly (Arrow's hash table); a docno of the last input (the
    run) gets the code of the same docno there, or else a code of its own line (``docnos``
    lists those vocabulary entries, then the run's docnos line by line). So equal codes mean
    equal documents, and a run's judged document has its judgment's code, which is what
    joining them needs, without hashing millions of distinct docno strings: the run is
    matched through 64-bit fingerprints, and every match is confirmed by comparing the
    strings. ``twice`` is ``(row, docno)``, the line of the last input that lists a document
    a second time for its query (the one the exact reader would name), False if none does, or
    None if the last input was encoded like the others (``trec_files`` then checks it).
    """
    qid_codes, names = _encode([rows.qid for rows in inputs])
    names = np.asarray(names.to_numpy(zero_copy_only=False), dtype=object)
    order = np.argsort(names, kind="stable")  # few: sorted as the pandas path sorts them
    place = np.empty(len(order), dtype=np.int64)
    place[order] = np.arange(len(order))
    qids, qid_codes = pd.Index(names[order], dtype=str), place[qid_codes]
    *judged, run = inputs
    known, vocabulary = _encode([rows.docno for rows in judged]) if judged else (
        np.zeros(0, dtype=np.int64), pa.array([], pa.string()))
    prints = _fingerprints(run.docno)
    run_codes = _match(vocabulary, run.docno, prints)
    if run_codes is None:  # two docnos of the qrels share a fingerprint: hash them all
        doc_codes, docnos = _encode([rows.docno for rows in inputs])
        return qid_codes, qids, doc_codes, pd.Index(pd.arrays.ArrowStringArray(docnos)), None
    docnos = pa.chunked_array([vocabulary, *run.docno.chunks], pa.string())
    doc_codes = np.concatenate([known, run_codes])
    twice = _twice(qid_codes[len(known):], run_codes, run.docno, prints)
    return qid_codes, qids, doc_codes, pd.Index(pd.arrays.ArrowStringArray(docnos)), twice or False


def _match(vocabulary: pa.Array, docno, prints: np.ndarray) -> np.ndarray | None:
    """Each line's code: ``vocabulary``'s index of its docno, else ``len(vocabulary)`` + its
    line; None if two entries of ``vocabulary`` share a fingerprint (``prints``: the lines')."""
    size = len(vocabulary)
    codes = np.arange(size, size + len(docno), dtype=np.int64)
    known = _fingerprints(pa.chunked_array([vocabulary], pa.string()))
    by_print = np.argsort(known)
    known = known[by_print]
    if (known[1:] == known[:-1]).any():
        return None
    # A table of the top 24 bits of the vocabulary's prints rules out most lines at once.
    seen = np.zeros(1 << 24, dtype=bool)
    seen[known >> np.uint64(40)] = True
    lines = np.flatnonzero(seen[prints >> np.uint64(40)])
    if size and len(lines):
        at = np.minimum(np.searchsorted(known, prints[lines]), size - 1)
        hit = known[at] == prints[lines]
        lines, entries = lines[hit], by_print[at[hit]]
        same = pc.equal(_take(docno, lines), vocabulary.take(entries)).to_numpy(
            zero_copy_only=False)
        codes[lines[same]] = entries[same]
    return codes


def _twice(qid_codes: np.ndarray, codes: np.ndarray, docno, prints: np.ndarray):
    """``(row, docno)``: the line that lists a document a second time for its query, the one
    of the smallest (query code, docno code as the exact reader numbers docnos), or None."""
    bits = np.uint64(max(int(qid_codes.max(initial=0)).bit_length(), 1))

    def keys():  # (query, fingerprint) in one uint64, built in place (a 10M-line run: 80 MB)
        key = qid_codes.astype(np.uint64)
        key <<= np.uint64(64) - bits
        key |= prints >> bits
        return key

    ordered = keys()
    ordered.sort()
    shared = ordered[1:][ordered[1:] == ordered[:-1]]
    del ordered
    if not len(shared):
        return None
    key = keys()
    # Lines whose key another line has: duplicates, or (rarely) a shared fingerprint.
    rows = np.flatnonzero(np.isin(key, shared))
    first, found = {}, {}
    for row, query, name in zip(rows.tolist(), qid_codes[rows].tolist(),
                                _take(docno, rows).to_pylist()):
        if first.setdefault((query, name), row) != row and (query, name) not in found:
            found[query, name] = row
    if not found:
        return None
    # The exact reader numbers a docno the qrels lack by its first line in the whole run.
    names = {name for _, name in found}
    earliest = {}
    candidates = np.flatnonzero(np.isin(prints, prints[list(found.values())]))
    for row, name in zip(candidates.tolist(), _take(docno, candidates).to_pylist()):
        if name in names:
            earliest.setdefault(name, row)
    (query, name), row = min(found.items(),
                             key=lambda item: (item[0][0], codes[earliest[item[0][1]]]))
    return row, name


def _has_blanks(column) -> bool:
    """Whether some string of an Arrow string column holds a tab, \v or \f."""
    for chunk in column.chunks:
        buffers = chunk.buffers()
        if buffers[2] is not None:
            text = np.frombuffer(buffers[2], np.uint8)
            if ((text >= 9) & (text <= 12) & (text != 10)).any():
                return True
    return False


def _take(column, rows: np.ndarray) -> pa.Array:
    """``column.take(rows)`` for increasing ``rows``, chunk by chunk (much faster than Arrow's
    take on a column of hundreds of chunks)."""
    ends = np.cumsum([len(chunk) for chunk in column.chunks])
    cut = np.searchsorted(rows, ends)
    pieces, start = [], 0
    for chunk, end, stop in zip(column.chunks, ends, cut):
        if stop > start:
            pieces.append(chunk.take(rows[start:stop] - (end - len(chunk))))
        start = stop
    return pa.concat_arrays(pieces) if pieces else pa.array([], column.type)


def _fingerprints(column) -> np.ndarray:
    """A 64-bit fingerprint (uint64) of each string of an Arrow string column, computed with
    numpy eight bytes at a time: equal strings have equal prints, and unequal ones rarely do."""
    prints, done = np.empty(len(column), dtype=np.uint64), 0
    for chunk in column.chunks:
        buffers = chunk.buffers()
        offsets = np.frombuffer(buffers[1], np.int32)[chunk.offset:chunk.offset + len(chunk) + 1]
        data = np.zeros(int(offsets[-1]) + 8, dtype=np.uint8)
        if buffers[2] is not None:
            data[:offsets[-1]] = np.frombuffer(buffers[2], np.uint8)[:offsets[-1]]
        # Every byte position as the start of an unaligned little-endian 64-bit word.
        words = np.ndarray((len(data) - 7,), dtype="<u8", buffer=data, strides=(1,))
        start, length = offsets[:-1].astype(np.int64), np.diff(offsets)
        value = length.astype(np.uint64) * _ODD
        shortest = int(length.min(initial=0))
        # A string's print mixes in its own words only, so it does not depend on the others.
        for at in range(0, int(length.max(initial=0)), 8):
            if at + 8 <= shortest:  # every string has these eight bytes
                value ^= words[start + at]
                value *= _ODD
                value ^= value >> np.uint64(29)
            else:  # only the strings not yet ended, their last bytes masked
                live = np.flatnonzero(length > at)
                part = value[live] ^ (words[start[live] + at]
                                      & _LOW_BYTES[np.minimum(length[live] - at, 8)])
                part *= _ODD
                part ^= part >> np.uint64(29)
                value[live] = part
        prints[done:done + len(chunk)] = value
        done += len(chunk)
    return prints


_ODD = np.uint64(0x9E3779B97F4A7C15)
_LOW_BYTES = np.array([(1 << (8 * n)) - 1 for n in range(9)], dtype=np.uint64)


def names(docnos: pd.Index, codes: np.ndarray) -> np.ndarray:
    """``docnos[codes]`` as an object array of str, for increasing ``codes``; an Arrow-backed
    ``docnos`` (from :func:`codes`) is read chunk by chunk."""
    if pa is None or not isinstance(docnos.dtype, pd.ArrowDtype | pd.StringDtype) or not len(
            codes) or not hasattr(docnos.array, "__arrow_array__"):
        return np.asarray(docnos[codes], dtype=object)
    return strings(pa.chunked_array([_take(docnos.array.__arrow_array__(), codes)]))


def strings(column) -> np.ndarray:
    """An Arrow column from :func:`parse` as an object array of Python strings."""
    return np.asarray(column.to_numpy(), dtype=object)


def _encode(columns: list) -> tuple[np.ndarray, pa.Array]:
    """One vocabulary for the rows of ``columns`` (Arrow text, dictionary-encoded or not):
    each row's code (int64, the rows of all columns one after the other) and the distinct
    texts, first seen first."""
    chunks = [chunk for column in columns for chunk in column.chunks]
    joined = pa.chunked_array(chunks)
    if pa.types.is_dictionary(joined.type):
        encoded = pa.table({"text": joined}).unify_dictionaries().column(0)
    else:
        encoded = pc.dictionary_encode(joined)
    dictionary = encoded.chunks[0].dictionary  # every chunk's, as Arrow unifies them
    codes = np.concatenate([chunk.indices.to_numpy() for chunk in encoded.chunks])
    return codes.astype(np.int64), dictionary
