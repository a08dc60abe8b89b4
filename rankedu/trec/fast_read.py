"""The fast path of ``trec_files``: pyarrow's multithreaded CSV reader, when pyarrow is installed.

pyarrow is an optional extra (``pip install rankedu[fast]``): without it, or when a file is not
in the plain form this reader takes, ``trec_files`` reads with pandas as before, with the same
result. The plain form: fields separated by one space, no empty field, no blank line, every
line with the same number of fields (four for qrels, six for a run), an integer field and a
score that Arrow parses. Anything else (two spaces, a seventh field, a comment, a score Arrow
rejects...) makes :func:`parse` return None, and the exact reader decides.

Docnos stay in Arrow, and no Python string is made per line: each docno gets a print of its
last eight bytes and its length (:func:`suffix_prints`, on the other core while this one
checks the other columns: :func:`background`), and where those crowd a 64-bit fingerprint of
every byte (:func:`fingerprints`), from which ``rankedu.trec.link`` finds the lines that name
one document, confirming every such pair by the docnos themselves (their last eight bytes and
length, :func:`suffix_words`, which are the docno up to eight bytes; the strings beyond:
:func:`same`).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools

import numpy as np

from rankedu.trec.lines import GZIP_MAGIC, integer_values

try:
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pa_csv
except ImportError:  # the package works with numpy and pandas alone
    pa = None


def available() -> bool:
    """Whether pyarrow can be imported (the fast path is possible)."""
    return pa is not None


def parse(data, columns: tuple[str, ...], integer_column: str, *, before: int = 0,
          on_read=None):
    """``(qid, docno, values, suffixes)`` of a TREC file, or None.

    ``data`` is the text normalised (``rankedu.trec.load._normalise``), or the path of a
    regular file that Arrow reads itself, block by block (decompressing it when its first bytes
    say gzip), so that the whole text is never in memory; what normalising would change (a tab,
    a comment, a byte order mark) then makes this reader decline, and so does a NUL byte (the
    exact reader says what such a file looks like). ``qid`` and ``docno`` are Arrow
    ChunkedArrays, ``values`` the float64 scores of a run or grades of qrels, ``suffixes`` a
    future of the docnos' :func:`suffix_prints` (computed in the background, after ``before``
    slots left for the prints of the inputs read before this one). None when pyarrow
    is absent, the text is empty, or some line is not in the plain form (module docstring).

    ``on_read(qid, docno, suffixes)``, if given, is called as soon as Arrow has read the file,
    before its columns are checked, with the columns this returns: work that needs only them
    starts early. It may return a future, cancelled if the file is then declined.
    """
    if pa is None or not data:
        return None
    if isinstance(data, bytes):
        source = pa.BufferReader(data)
    else:
        # A gzip-compressed file (by its first bytes) is decompressed by Arrow as it reads.
        with open(data, "rb") as file:
            compression = "gzip" if file.read(2) == GZIP_MAGIC else None
        try:
            with pa.input_stream(data, compression=compression) as stream:
                if stream.read(3) == b"\xef\xbb\xbf":  # a byte order mark: normalise first
                    return None
        except OSError:  # a damaged gzip stream: the exact reader says so
            return None
        source = pa.input_stream(data, compression=compression)
    # Every field is read as text but the score. (Arrow's int64 parser would take "0x1", which
    # is no integer to the exact reader.)
    types = {name: pa.string() for name in columns}
    if "score" in columns:
        types["score"] = pa.float64()
    try:
        table = pa_csv.read_csv(
            source,
            read_options=pa_csv.ReadOptions(column_names=list(columns), use_threads=True),
            parse_options=pa_csv.ParseOptions(
                delimiter=" ", quote_char=False, double_quote=False, escape_char=False,
                newlines_in_values=False, ignore_empty_lines=False),
            convert_options=pa_csv.ConvertOptions(
                column_types=types, check_utf8=True, null_values=[], true_values=[],
                false_values=[], strings_can_be_null=False, quoted_strings_can_be_null=False),
            memory_pool=_pool(),
        )
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, OSError):
        return None
    finally:
        source.close()
    if not table.num_rows:
        return None
    # The columns apart, so that each one's memory goes once it is no longer needed.
    fields = {name: table.column(name) for name in columns}
    del table
    # The docnos' suffix prints, on another core, while this one checks the other columns.
    qid, docno = fields["qid"], fields["docno"]
    suffixes = background(suffix_prints, docno, before)
    early = None if on_read is None else on_read(qid, docno, suffixes)

    def declined():
        suffixes.cancel()
        if early is not None:
            early.cancel()

    # The number columns first, each checked and turned into numpy or dropped, and their
    # memory handed back before the link, begun meanwhile, makes its arrays.
    numbers = fields.pop(integer_column)
    if pc.all(pc.ascii_is_decimal(numbers)).as_py() and max(
            (int(np.diff(_offsets(chunk)).max()) for chunk in numbers.chunks if len(chunk)),
            default=0) <= 18:  # plain digits: an int64, as Arrow reads it
        integers = numbers.cast(pa.int64()).to_numpy() if "score" not in columns else None
    else:  # a sign, "1.0"...: each distinct text checked as the exact reader checks it
        encoded = pc.dictionary_encode(numbers).combine_chunks()
        integers = integer_values(encoded.indices.to_numpy(), encoded.dictionary.to_pylist())
        if integers is None:
            declined()
            return None
    del numbers
    if "score" in columns:
        values = fields.pop("score").to_numpy()
        if not np.isfinite(values).all():
            declined()
            return None
    else:
        values = integers.astype(np.float64)
    release()
    # One space between fields leaves no empty field; anything else (two spaces, a blank at
    # either end of a line) leaves one, and only the exact reader knows what the line means.
    # A text not normalised may hold a tab, \v or \f (blanks to trec_eval) in a field, or
    # comment lines with as many fields as a record (a query id starting with #).
    for name in columns:
        if name not in fields:
            continue
        if not _plain(fields[name], raw=not isinstance(data, bytes), query=name == "qid"):
            declined()
            return None
        if name not in ("qid", "docno"):  # the iteration and the tag: read, checked, dropped
            del fields[name]
    release()  # their memory, for the arrays to come
    return qid, docno, values, suffixes


def background(function, *args) -> concurrent.futures.Future:
    """``function(*args)`` started on a thread of its own: numpy and Arrow release the GIL in
    their loops, so it runs on the machine's other core while the caller goes on."""
    return _worker().submit(function, *args)


@functools.cache
def _worker() -> concurrent.futures.ThreadPoolExecutor:
    return concurrent.futures.ThreadPoolExecutor(max_workers=1,
                                                 thread_name_prefix="rankedu")


def release() -> None:
    """Hand the memory Arrow has freed back to the system (its allocator keeps it otherwise),
    so that numpy's arrays can use it."""
    _pool().release_unused()


try:  # numpy's switch (private, but in numpy 1.17 and later)
    from numpy._core.multiarray import _set_madvise_hugepage as _hugepages
except ImportError:  # numpy 1
    try:
        from numpy.core.multiarray import _set_madvise_hugepage as _hugepages
    except ImportError:
        _hugepages = None


@contextlib.contextmanager
def small_pages():
    """New numpy arrays in pages of 4 KiB meanwhile, not huge pages: numpy asks Linux for huge
    pages (of 2 MiB) for any array of 4 MiB or more, and on this project's machine first
    writing them costs more than the small pages' faults. A 10M-line run and its qrels were
    loaded (``_load_pair``) in 2.4-2.9 s and joined in 0.42-0.47 s with small pages, in
    3.0-3.6 s and 0.76-0.82 s with huge ones (four fresh processes each, busy machine). (The
    switch is the process's: two threads evaluating at once may leave it off.)"""
    before = _hugepages(False) if _hugepages else None
    try:
        yield
    finally:
        if _hugepages:
            _hugepages(before)


@functools.cache
def _pool():
    """The memory pool the reader allocates from: Arrow's jemalloc pool where this pyarrow has
    one (Linux and macOS wheels), else the default. On this project's machine a 10M-line run
    was read in 1.12-1.27 s with it and in 1.66-2.36 s with the default (mimalloc) pool, four
    fresh processes each.

    jemalloc hands freed memory back to the system after a delay (pyarrow's: 1 s), and until
    then numpy cannot use it: the reader's temporaries and the columns read, checked and
    dropped (``parse``). With 100 ms (``pyarrow.jemalloc_set_decay_ms``, which applies to the
    pool's arenas made afterwards: those of the first read), evaluate's peak memory on a
    10M-line run was 1019-1051 MiB against 1084-1117 MiB, in the same time (four fresh
    processes each). Arrow's other pools, and its default one, are not jemalloc's."""
    try:
        pool = pa.jemalloc_memory_pool()
    except NotImplementedError:
        return pa.default_memory_pool()
    pa.jemalloc_set_decay_ms(100)
    return pool


def stretches(column) -> tuple[np.ndarray, pa.Array]:
    """The first row of each stretch of equal values down an Arrow string column, and those
    values (a stretch may continue from one chunk into the next)."""
    starts, done = [], 0
    for chunk in column.chunks:
        if len(chunk):
            starts.append(np.array([done], dtype=np.int64))
        if len(chunk) > 1:
            differ = pc.not_equal(chunk.slice(1), chunk.slice(0, len(chunk) - 1))
            starts.append(done + 1 + np.flatnonzero(differ.to_numpy(zero_copy_only=False)))
        done += len(chunk)
    starts = np.concatenate(starts) if starts else np.zeros(0, dtype=np.int64)
    return starts, _take(column, starts)


def string_codes(column) -> tuple[np.ndarray, np.ndarray]:
    """One vocabulary for an Arrow string column whose values come in stretches (query ids):
    each row's code (int32) and the distinct texts in string order (object array of str).
    Only the first row of each stretch is hashed."""
    starts, texts = stretches(column)
    encoded = pc.dictionary_encode(texts)
    names = strings(encoded.dictionary)
    order = np.argsort(names, kind="stable")
    place = np.empty(len(order), dtype=np.int32)
    place[order] = np.arange(len(order))
    lengths = np.diff(np.r_[starts, len(column)])
    return np.repeat(place[encoded.indices.to_numpy()], lengths), names[order]


def _plain(column, raw: bool, query: bool) -> bool:
    """Whether no string of an Arrow string column is empty, and, in a text not normalised
    (``raw``), none holds a tab, \v, \f or NUL, nor (``query``) starts with ``#``: read chunk by
    chunk from its offsets and bytes, in place."""
    for chunk in column.chunks:
        offsets = _offsets(chunk)
        if not len(chunk):
            continue
        if (offsets[1:] == offsets[:-1]).any():
            return False
        if raw:
            first = int(offsets[0])
            text = np.frombuffer(chunk.buffers()[2], np.uint8)[first:int(offsets[-1])]
            # A byte this low is rare: look closer only then (a minimum makes no array).
            if text.min() <= _LAST_BLANK and np.isin(text[text <= _LAST_BLANK], _BLANKS).any():
                return False
            if query and (text == _HASH).any() and (text[offsets[:-1] - first] == _HASH).any():
                return False
    return True


# The bytes a text not normalised may hold that trec_eval reads as blanks, or a NUL.
_BLANKS = np.frombuffer(b"\t\v\f\0", np.uint8)
_LAST_BLANK, _HASH = _BLANKS.max(), np.uint8(ord("#"))


def _offsets(chunk) -> np.ndarray:
    """The offsets (int32) of a chunk of an Arrow string column: string i is the bytes from
    ``offsets[i]`` to ``offsets[i + 1]`` of its data buffer (read in place)."""
    return np.frombuffer(chunk.buffers()[1], np.int32)[chunk.offset:chunk.offset + len(chunk) + 1]


def _take(column, rows: np.ndarray) -> pa.Array:
    """``column.take(rows)`` for increasing ``rows``, chunk by chunk (much faster than Arrow's
    take on a column of hundreds of chunks)."""
    pieces = [chunk.take(local) for chunk, local, _ in _in_chunks(column, rows)]
    return pa.concat_arrays(pieces) if pieces else pa.array([], column.type)


def _in_chunks(column, rows: np.ndarray):
    """For increasing ``rows`` of a chunked Arrow column: each chunk that holds some of them,
    their places in that chunk, and the slice of ``rows`` they are."""
    ends = np.cumsum([len(chunk) for chunk in column.chunks])
    start = 0
    for chunk, end, stop in zip(column.chunks, ends, np.searchsorted(rows, ends)):
        if stop > start:
            yield chunk, rows[start:stop] - (end - len(chunk)), slice(start, stop)
        start = stop


def _take_any(column, rows: np.ndarray) -> pa.Array:
    """``column.take(rows)`` for ``rows`` in any order."""
    order = np.argsort(rows)
    back = np.empty(len(order), dtype=np.int64)
    back[order] = np.arange(len(order))
    return _take(column, rows[order]).take(back)


def same(column, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Whether row ``a[i]`` and row ``b[i]`` of an Arrow string column hold the same string."""
    if not len(a):
        return np.zeros(0, dtype=bool)
    return pc.equal(_take_any(column, a), _take_any(column, b)).to_numpy(zero_copy_only=False)


def texts(column, rows: np.ndarray) -> np.ndarray:
    """Rows ``rows`` (in any order) of an Arrow string column as an object array of str."""
    if not len(rows):
        return np.zeros(0, dtype=object)
    return strings(_take_any(column, rows))


def joined(columns: list):
    """Arrow columns (of one type) as one chunked column, the rows one after the other."""
    return pa.chunked_array([chunk for column in columns for chunk in column.chunks])


def strings(column) -> np.ndarray:
    """An Arrow column from :func:`parse` as an object array of Python strings."""
    return np.asarray(column.to_numpy(zero_copy_only=False), dtype=object)


def rows_of(column, rows: np.ndarray):
    """Rows ``rows`` (in any order) of an Arrow string column, as a column."""
    return pa.chunked_array([_take_any(column, rows)], column.type)


def fingerprints(column) -> np.ndarray:
    """A 64-bit fingerprint (uint64) of each string of an Arrow string column, computed with
    numpy eight bytes at a time: equal strings have equal prints, and unequal ones rarely do.

    A string of n bytes mixes in ceil(n / 8) words of eight bytes (one if it is empty), that
    start at 0, 8, 16, ... but never end after n (the last one starts at n - 8), masked when
    the string is shorter than eight bytes: its own bytes only, wherever it lies in its buffer.
    In batches of chunks (:func:`_batches`).
    """
    prints, done = np.empty(len(column), dtype=np.uint64), 0
    for chunks, rows in _batches(column):
        words, start, length = _words(chunks)
        value = length.astype(np.uint64) * MIX
        mask, last = _LOW_BYTES[np.minimum(length, 8)], np.maximum(length - 8, 0)
        shortest, longest = int(length.min(initial=0)), int(length.max(initial=0))
        for at in range(0, max(longest, 1), 8):
            word = words[start + np.minimum(at, last)]
            word &= mask
            word ^= value
            word *= MIX
            word ^= word >> np.uint64(29)
            if at == 0 or at < shortest:  # every string has bytes from here
                value = word
            else:  # a string mixes in as many words as it has, whatever its neighbours
                np.copyto(value, word, where=length > at)
        prints[done:done + rows] = value
        done += rows
    return prints


def suffix_prints(column, before: int = 0) -> np.ndarray:
    """A print (uint64) of each string's last eight bytes and length (:func:`suffix_words`):
    strings sharing their ending and length share it (a quarter of :func:`fingerprints`' work
    for a ClueWeb docno). Its top bits, which make ``rankedu.trec.link``'s keys, are those of a
    product with an odd constant, which every bit of the word and of the length reaches
    (Fibonacci hashing). In batches of chunks (:func:`_batches`). The first ``before``
    entries are left for the caller (the prints of other strings)."""
    prints, done = np.empty(before + len(column), dtype=np.uint64), before
    for chunks, rows in _batches(column):
        word, length = np.empty(rows, dtype=np.uint64), np.empty(rows, dtype=np.int32)
        at = 0
        for chunk in chunks:
            word[at:at + len(chunk)], length[at:at + len(chunk)] = _last_words(chunk)
            at += len(chunk)
        word ^= length.astype(np.uint64) * _LENGTH_MIX
        np.multiply(word, MIX, out=prints[done:done + rows])
        done += rows
    return prints


def suffix_words(column, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The last eight bytes of the strings ``rows`` (in any order) of an Arrow string column
    (all of them when a string is shorter, the word zero-padded at the top) as little-endian
    uint64, and their lengths in bytes (int32): together the string itself when it is at most
    eight bytes long. Read chunk by chunk from the strings' buffers."""
    order = np.argsort(rows)
    suffixes = np.empty(len(rows), dtype=np.uint64)
    lengths = np.empty(len(rows), dtype=np.int32)
    for chunk, local, part in _in_chunks(column, rows[order]):
        suffixes[order[part]], lengths[order[part]] = _last_words(chunk, local)
    return suffixes, lengths


def _last_words(chunk, rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """:func:`suffix_words` of the strings ``rows`` (increasing) of one chunk (all of them
    by default), read in place from its data buffer, not copied: each string's last eight bytes are the word that ends
    where it ends, shifted down past the bytes before it when it is shorter."""
    offsets = _offsets(chunk)
    start, end = ((offsets[:-1], offsets[1:]) if rows is None else
                  (offsets[rows], offsets[rows + 1]))
    length = end - start
    buffer = chunk.buffers()[2]
    data = np.frombuffer(buffer, np.uint8) if buffer is not None else np.zeros(0, np.uint8)
    # The words that end at bytes 0-8 of the buffer (the first strings: ``end`` increases)
    # begin before it, or at its start: taken from its first bytes with eight zeros in front.
    first = int(np.searchsorted(end, 8, side="right"))
    head = np.zeros(16, dtype=np.uint8)
    head[8:8 + min(len(data), 8)] = data[:8]
    word = np.empty(len(end), dtype=np.uint64)
    word[:first] = _unaligned(head)[end[:first]]
    if first < len(end):
        word[first:] = _unaligned(data)[end[first:] - 8]
    short = np.minimum(length, 8)
    short -= 8
    short *= -8
    word >>= short.astype(np.uint64)  # (a shift of 64, for an empty string, gives 0)
    return word, length


def _unaligned(data: np.ndarray) -> np.ndarray:
    """The little-endian 64-bit word that starts at each byte of ``data`` (a view)."""
    return np.ndarray((len(data) - 7,), dtype="<u8", buffer=data, strides=(1,))


def _words(chunks: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The bytes of chunks of an Arrow string column, one after the other, as unaligned
    little-endian 64-bit words, one starting at every byte (eight zero bytes appended, so that
    a word may start at any of its bytes), and each string's first byte and length."""
    pieces, starts, lengths, at = [], [], [], 0
    for chunk in chunks:
        offsets = _offsets(chunk)
        first, end = int(offsets[0]), int(offsets[-1])
        if chunk.buffers()[2] is not None:
            pieces.append(np.frombuffer(chunk.buffers()[2], np.uint8)[first:end])
        starts.append(offsets[:-1] - (first - at))
        lengths.append(np.diff(offsets))
        at += end - first
    data = np.zeros(at + 8, dtype=np.uint8)
    if pieces:
        np.concatenate(pieces, out=data[:at])
    return _unaligned(data), np.concatenate(starts), np.concatenate(lengths)


def _batches(column):
    """The chunks of an Arrow column in runs of about :data:`_BATCH` rows: numpy's calls on
    a few hundred thousand strings at a time, not on each of Arrow's small chunks (fewer
    calls, each long enough to release the GIL for a while, with the arrays still in cache)."""
    batch, rows = [], 0
    for chunk in column.chunks:
        batch.append(chunk)
        rows += len(chunk)
        if rows >= _BATCH:
            yield batch, rows
            batch, rows = [], 0
    if batch:
        yield batch, rows


_BATCH = 1 << 18


# An odd 64-bit constant: multiplying by it is a bijection of uint64 that spreads the bits.
MIX = np.uint64(0x9E3779B97F4A7C15)
# Another, for a length mixed into a word: a different ending's word is never the length's.
_LENGTH_MIX = np.uint64(0xC2B2AE3D27D4EB4F)
_LOW_BYTES = np.array([(1 << (8 * n)) - 1 for n in range(9)], dtype=np.uint64)
