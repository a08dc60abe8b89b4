"""The fast path of ``trec_files``: pyarrow's multithreaded CSV reader, when pyarrow is installed.

pyarrow is an optional extra (``pip install rankedu[fast]``): without it, or when a file is not
in the plain form this reader takes, ``trec_files`` reads with pandas as before, with the same
result. The plain form: fields separated by one space, no empty field, every line with the same
number of fields (four for qrels, six for a run), an integer field and a score that Arrow
parses. Anything else (two spaces, a seventh field, a score Arrow rejects...) makes
:func:`parse` return None, and the exact reader decides.

Docnos stay in Arrow: one hash table (``dictionary_encode``) gives every docno of both files its
integer code, and no Python string is made per line.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

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


def parse(data: bytes, columns: tuple[str, ...], integer_column: str, integer):
    """``(qid, docno, values)`` of a normalised TREC file (``trec_files._normalise``), or None.

    ``qid`` and ``docno`` are Arrow ChunkedArrays, ``values`` the float64 scores of a run or
    grades of qrels; ``integer(text)`` is the integer a field holds, or None. None when pyarrow
    is absent, the text is empty, or some line is not in the plain form (module docstring).
    """
    if pa is None or not data:
        return None
    types = {name: _REPEATED for name in columns}
    types["docno"] = pa.string()
    if "score" in columns:
        types["score"] = pa.float64()
    try:
        table = pa_csv.read_csv(
            pa.BufferReader(data),
            read_options=pa_csv.ReadOptions(column_names=list(columns), use_threads=True),
            parse_options=pa_csv.ParseOptions(
                delimiter=" ", quote_char=False, double_quote=False, escape_char=False,
                newlines_in_values=False, ignore_empty_lines=True),
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
        if name == "score":
            continue
        if name == "docno":
            texts = table.column(name)
        else:
            texts = pa.chunked_array([chunk.dictionary for chunk in table.column(name).chunks])
        if pc.min(pc.binary_length(texts)).as_py() == 0:
            return None
    # Ranks and grades have few distinct texts: each is checked as the exact reader checks it.
    codes, texts = _encode([table.column(integer_column)])
    converted = [integer(text) for text in texts.to_pylist()]
    if None in converted:
        return None
    if "score" in columns:
        values = table.column("score").to_numpy()
        if not np.isfinite(values).all():
            return None
    else:
        values = np.array(converted, dtype=np.int64)[codes].astype(np.float64)
    return table.column("qid"), table.column("docno"), values


def codes(inputs) -> tuple[np.ndarray, pd.Index, np.ndarray, pd.Index]:
    """``(qid_codes, qids, doc_codes, docnos)`` for rows from :func:`parse`: one vocabulary of
    query ids (sorted as strings) and one of docnos (first seen first, kept in Arrow)."""
    qid_codes, names = _encode([rows.qid for rows in inputs])
    names = np.asarray(names.to_numpy(zero_copy_only=False), dtype=object)
    order = np.argsort(names, kind="stable")  # few: sorted as the pandas path sorts them
    place = np.empty(len(order), dtype=np.int64)
    place[order] = np.arange(len(order))
    doc_codes, docnos = _encode([rows.docno for rows in inputs])
    return (place[qid_codes], pd.Index(names[order], dtype=str), doc_codes,
            pd.Index(pd.arrays.ArrowStringArray(docnos)))


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
