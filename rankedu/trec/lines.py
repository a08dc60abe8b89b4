"""The lines of a TREC file: the rules a line must follow, and the line a record came from.

``trec_files`` reads a file with a fast parser; only when that fails is the text scanned here
line by line (:func:`raise_bad_line`), to name the culprit and say what is wrong with it.
Before any of that, :func:`binary_problem` says in one line what a file that is not text
looks like (compressed, binary, UTF-16), so that no error quotes kilobytes of its bytes.
"""

from __future__ import annotations

import codecs
import math
import re

import numpy as np

RUN_COLUMNS = ("qid", "q0", "docno", "rank", "score", "tag")
QRELS_COLUMNS = ("qid", "iter", "docno", "rel")

KINDS = {
    # kind: (columns, the column holding the values, the integer column, min fields, max fields)
    "run": (RUN_COLUMNS, "score", "rank", 6, None),
    "qrels": (QRELS_COLUMNS, "rel", "rel", 4, 4),
}

_INT64 = (-(2**63), 2**63 - 1)
# What an integer field may hold: digits, a sign, and at most a zero fraction ("1.0").
_INTEGER = re.compile(r"[+-]?([0-9]+)(?:\.0*)?")
# A decimal number as pandas' C parser reads it (and Python's float does), without Python's
# extras (underscores, surrounding blanks) that pandas rejects.
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_NOT_FINITE = re.compile(r"[+-]?(?:inf|infinity|nan)", re.IGNORECASE)
# A line holding nothing but blanks, from the line ending before it (a literal first makes the
# regex scan fast).
_BLANK_LINE = re.compile(rb"\n *(?=\n)")

#: The first bytes of gzip-compressed data (RFC 1952): the readers decompress such a file.
GZIP_MAGIC = b"\x1f\x8b"
# The first bytes of other formats a TREC file is sometimes mistaken for: what the file is.
_FORMATS = {
    b"BZh": "bzip2-compressed data (bunzip2 it first)",
    b"\xfd7zXZ\x00": "xz-compressed data (unxz it first)",
    b"\x28\xb5\x2f\xfd": "zstd-compressed data (unzstd it first)",
    b"PK\x03\x04": "a zip archive (unzip it first)",
    b"PAR1": "a Parquet file (write its rows as text lines first)",
    b"\xff\xfe": "UTF-16 text (convert it to UTF-8 first)",
    b"\xfe\xff": "UTF-16 text (convert it to UTF-8 first)",
}
# How much of the first line binary_problem decodes: enough for any line of a text file.
_FIRST_LINE = 1 << 16
# The most characters of a bad line that an error message quotes.
_QUOTED = 200


def integer(value: str) -> int | None:
    """The integer a field holds, or None if it holds none or one outside int64's range."""
    match = _INTEGER.fullmatch(value)
    if match is None:
        return None
    number = -int(match.group(1)) if value[0] == "-" else int(match.group(1))
    return number if _INT64[0] <= number <= _INT64[1] else None


def integer_values(codes: np.ndarray, texts) -> np.ndarray | None:
    """An integer column as int64, from its distinct ``texts`` and each row's index into them
    (``codes``), or None if some text is not an integer in int64's range."""
    converted = [integer(text) for text in texts]
    return None if None in converted else np.array(converted, dtype=np.int64)[codes]


def line_problem(fields: list[str], kind: str) -> str | None:
    """What is wrong with one line's fields, or None."""
    columns, _, integer_column, min_fields, max_fields = KINDS[kind]
    if len(fields) < min_fields or (max_fields and len(fields) > max_fields):
        expected = f"{min_fields}" if max_fields == min_fields else f"at least {min_fields}"
        return f"expected {expected} fields ({' '.join(columns)}), got {len(fields)}"
    what, value = {"rel": "relevance grade", "rank": "rank"}[integer_column], fields[3]
    if integer(value) is None:
        if _INTEGER.fullmatch(value):
            return f"the {what} {value!r} is outside the 64-bit integer range [-2**63, 2**63 - 1]"
        return f"the {what} {value!r} is not an integer"
    if kind == "run":
        score = fields[4]
        if not (_DECIMAL.fullmatch(score) or _NOT_FINITE.fullmatch(score)):
            return f"the score {score!r} is not a number"
        if not math.isfinite(float(score)):
            return f"the score {score!r} is not a finite number"
    return None


def binary_problem(data: bytes) -> str | None:
    """What a file's bytes look like when they are not text, in a few words (None for text):
    a known format by its first bytes, a NUL byte anywhere (no text file holds one), or a first
    line that is not UTF-8. gzip is not among them: the readers decompress it first."""
    for magic, what in _FORMATS.items():
        if data.startswith(magic):
            return f"looks like {what}, not a TREC text file"
    nul = data.find(b"\0")
    if nul >= 0:
        return f"holds a NUL byte (byte {nul + 1}): it looks like a binary file, not TREC text"
    first = data[:_FIRST_LINE].split(b"\n", 1)[0]
    try:  # not final: a character cut at _FIRST_LINE is not an error
        codecs.getincrementaldecoder("utf-8")().decode(first, final=False)
    except UnicodeDecodeError as error:
        return (f"is not UTF-8 text: its first line holds byte {first[error.start]:#04x} at "
                f"position {error.start + 1} (a binary file, or text in another encoding)")
    return None


def _quoted(line: bytes) -> str:
    """A line for an error message: its repr, cut after _QUOTED characters."""
    shown = repr(line[:_QUOTED])
    return shown if len(line) <= _QUOTED else f"{shown} (the first {_QUOTED} bytes)"


def raise_bad_line(data: bytes, kind: str, origin: str):
    """Scan the text line by line (only after the fast parser failed) and raise at the culprit."""
    for number, line in enumerate(data.splitlines(), start=1):
        fields = line.split()  # bytes.split splits on ASCII whitespace only, as pandas does
        if not fields:
            continue
        try:
            line.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ValueError(
                f"{origin}, line {number}: not UTF-8 text (byte {line[error.start]:#04x} at "
                f"position {error.start + 1} of the line): {_quoted(line)}"
            ) from None
        problem = line_problem([field.decode("utf-8") for field in fields], kind)
        if problem:
            raise ValueError(
                f"{origin}, line {number}: malformed line ({problem}): "
                f"{line.decode('utf-8').rstrip()!r}"
            )
    # The scan accepts what pandas accepts: reaching this line would be a bug.
    raise ValueError(f"{origin} could not be parsed, though no line of it is malformed")


def skipped_lines(data: bytes, records: int) -> np.ndarray:
    """The lines (from 1) of the normalised text that hold no record: blanks, or a comment."""
    if data.count(b"\n") + (not data.endswith(b"\n")) == records:  # none: a fast count
        return np.zeros(0, dtype=np.int64)
    skipped = [1] if re.match(rb" *\n", data) else []
    line, counted = 1, 0
    for match in _BLANK_LINE.finditer(data):
        line += data.count(b"\n", counted, match.start() + 1)
        counted = match.start() + 1
        skipped.append(line)
    return np.array(skipped, dtype=np.int64)


def line_of_row(row: int, skipped: np.ndarray) -> int:
    """The line (from 1) of the file that holds record ``row`` (from 0)."""
    line = row + 1
    while (moved := row + 1 + int(np.searchsorted(skipped, line, side="right"))) != line:
        line = moved
    return line
