"""Which lines of TREC inputs name one document for one query: a run's links to its judgments,
and a document listed twice, found by sorting integer keys, never strings.

A run names a different document on nearly every line, so hashing or sorting its docnos as
strings costs more than the rest of an evaluation. Instead every line gets a 64-bit key (its
query, the top bits of a print of its docno, the line itself); one sort brings the lines whose
query and print bits agree together, and only those are compared as strings. Equal docnos
always have equal prints, so no pair is missed; a pair that shares a print by chance costs one
comparison, never a wrong answer.

The first print is cheap: a docno's length and its last eight bytes (``suffixes()``), which
tell the documents of a real run apart, and are the docno itself when it has at most eight
bytes (no string is then compared). Lines that crowd one key anyway (three or more: docnos
sharing their ending, or one document listed many times) get a print of every byte
(``prints(rows)``) and a second sort; whatever still crowds is settled by the docnos' exact
classes (``classes(rows)``, equal numbers for equal docnos); a pair is compared by
``same(a, b)``. :class:`ArrowDocnos` and :class:`CodedDocnos` give these four for the two
readers. The answers are chains: each line paired with the previous line (in line order) that
names the same document for the same query.

Private: no one's API.
"""

from __future__ import annotations

from concurrent.futures import Future

import numpy as np
import pandas as pd

from rankedu.trec import fast_read as _fast_read

_SLICE = 1 << 20  # keys built and compared this many at a time: a few MB of temporaries


class CodedDocnos:
    """Docnos as integer codes (from ``pandas.factorize``): equal codes, equal docnos."""

    def __init__(self, codes: np.ndarray):
        self.codes = codes

    def suffixes(self) -> np.ndarray:
        return self.codes.astype(np.uint64) * _fast_read.MIX  # spread over the top bits

    def prints(self, rows: np.ndarray) -> np.ndarray:
        return self.codes[rows].astype(np.uint64) * _fast_read.MIX

    def same(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return self.codes[a] == self.codes[b]

    def classes(self, rows: np.ndarray) -> np.ndarray:
        return self.codes[rows]


class ArrowDocnos:
    """Docnos as an Arrow string column, from the fast reader: a docno of at most eight bytes
    is compared through its last eight bytes and length (``fast_read.suffix_words``), a longer
    one through its string when they agree."""

    def __init__(self, column, parts: list | None = None):
        """``parts``: the suffix prints of the column's parts, one after the other, when
        they are known, or futures of them (``fast_read.parse`` computes them in the
        background; the last one may leave room before its own for the others')."""
        self.column = column
        self._parts = [_fast_read.suffix_prints(column)] if parts is None else list(parts)

    def suffixes(self) -> np.ndarray:
        parts = [part.result() if isinstance(part, Future) else part for part in self._parts]
        self._parts = None  # the caller's to overwrite
        prints, done = parts[-1], 0
        if len(prints) != len(self.column):  # the last part has no room for the others'
            return np.concatenate(parts)
        for part in parts[:-1]:  # into the room left before the last part's own
            prints[done:done + len(part)] = part
            done += len(part)
        return prints

    def prints(self, rows: np.ndarray) -> np.ndarray:
        if len(rows) > len(self.column) // 4:  # many: print the column as it lies, chunk by chunk
            return _fast_read.fingerprints(self.column)[rows]
        return _fast_read.fingerprints(_fast_read.rows_of(self.column, rows))

    def same(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        suffix, length = _fast_read.suffix_words(self.column, np.concatenate([a, b]))
        n = len(a)
        equal = (length[:n] == length[n:]) & (suffix[:n] == suffix[n:])
        longer = np.flatnonzero(equal & (length[:n] > 8))
        equal[longer] = _fast_read.same(self.column, a[longer], b[longer])
        return equal

    def classes(self, rows: np.ndarray) -> np.ndarray:
        return pd.factorize(_fast_read.texts(self.column, rows))[0]


Docnos = CodedDocnos | ArrowDocnos


def link(sizes: list[int], qid_codes: np.ndarray, docnos: Docnos, n_qids: int):
    """``(linked, repeat)`` for inputs of ``sizes`` lines, one after the other in
    ``qid_codes`` and ``docnos``: ``linked`` is ``(lines, rows)``, the lines of the last input
    that name a document of the first for their query and the line of the first each names
    (int32 when the first has fewer than 2**31; None for one input), ``repeat`` the first
    repeated line, ``(input, line)``, of the first input that repeats one of its own lines, or
    None."""
    a, b = _chains(qid_codes, docnos.suffixes(), None, docnos, n_qids, last=False)
    bounds = np.cumsum([0, *sizes])
    input_of = np.searchsorted(bounds, b, side="right") - 1
    own = input_of == np.searchsorted(bounds, a, side="right") - 1
    for index in range(len(sizes)):
        repeats = b[own & (input_of == index)]
        if len(repeats):
            return None, (index, int(repeats.min()) - int(bounds[index]))
    if len(sizes) < 2:
        return None, None
    linked = (input_of == len(sizes) - 1) & (a < bounds[1])
    return (b[linked] - bounds[-2],
            a[linked].astype(np.int32 if bounds[1] < 2**31 else np.int64)), None


def _chains(qid: np.ndarray, prints: np.ndarray, rows: np.ndarray | None, docnos: Docnos,
            n_qids: int, last: bool) -> tuple[np.ndarray, np.ndarray]:
    """Pairs ``(a, b)``, a < b, of lines that name one document for one query, b paired with
    the previous such line. ``qid`` and ``prints`` (uint64, overwritten) are given for
    ``rows`` (increasing; None: every line); ``last``: settle crowded keys by the classes."""
    n = len(qid)
    line_bits = max(n - 1, 1).bit_length()
    print_bits = 64 - line_bits - max(n_qids - 1, 1).bit_length()
    if print_bits < 8:  # some 2**56 lines and queries together: beyond any machine's memory
        raise ValueError(f"too many lines ({n}) and queries ({n_qids}) to evaluate")
    shift = np.uint64(line_bits)
    key = prints
    slices = [slice(start, min(start + _SLICE, n)) for start in range(0, n, _SLICE)]
    for part in slices:
        piece = key[part]
        piece >>= np.uint64(64 - print_bits)
        piece <<= shift
        piece |= np.arange(part.start, part.stop, dtype=np.uint64)
        piece |= qid[part].astype(np.uint64) << np.uint64(line_bits + print_bits)
    key.sort()
    neighbours = np.concatenate([np.zeros(0, dtype=np.int64)] + [
        part.start + np.flatnonzero(key[part.start + 1:part.stop + 1] >> shift
                                    == key[part.start:part.stop - (part.stop == n)] >> shift)
        for part in slices])
    line = np.uint64((1 << line_bits) - 1)
    # A run of one neighbouring pair is a key two lines share (nearly always); a longer run,
    # three or more lines.
    breaks = np.flatnonzero(np.diff(neighbours) != 1)
    first, final = np.r_[0, breaks + 1], np.r_[breaks, len(neighbours) - 1]
    pair = neighbours[first[first == final]]
    a, b = ((key[pair + step] & line).astype(np.int64) for step in (0, 1))
    many = first < final
    sizes = final[many] - first[many] + 2
    within = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    crowded = np.sort((key[np.repeat(neighbours[first[many]], sizes) + within] & line).astype(
        np.int64))
    del key
    if rows is not None:
        a, b, crowded = rows[a], rows[b], rows[crowded]
    equal = docnos.same(a, b)
    a, b = a[equal], b[equal]
    if len(crowded):
        local = crowded if rows is None else np.searchsorted(rows, crowded)
        more = (_settled(crowded, qid[local], docnos) if last else
                _chains(qid[local], docnos.prints(crowded), crowded, docnos, n_qids, last=True))
        a, b = np.concatenate([a, more[0]]), np.concatenate([b, more[1]])
    return a, b


def _settled(rows: np.ndarray, qid: np.ndarray, docnos: Docnos) -> tuple[np.ndarray,
                                                                          np.ndarray]:
    """The chains among ``rows`` (increasing, with their queries ``qid``) from the docnos'
    exact classes."""
    classes = docnos.classes(rows)
    order = np.lexsort((rows, classes, qid))
    rows, qid, classes = rows[order], qid[order], classes[order]
    same = (qid[1:] == qid[:-1]) & (classes[1:] == classes[:-1])
    return rows[:-1][same], rows[1:][same]
