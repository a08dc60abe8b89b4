"""Reading TREC files: a run or qrels file, a DataFrame or a dict of dicts becomes a table.

:func:`read_qrels` and :func:`read_run` return pandas frames. The reading is in the private
``rankedu.trec.load``, whose ``_load_pair`` turns the two inputs of ``evaluate`` (each a path,
``"-"`` for standard input, a frame or a dict of dicts) into tables that share one vocabulary
of query ids, and links each line of the run to the judgment of its document, through
fingerprints of the docnos confirmed by comparing the strings: no million docnos are sorted.

How a file is read (trec_eval 10's rules; where rankedu differs, it says so):

- A qrels line is ``qid iter docno rel``, exactly four fields; a run line is ``qid Q0 docno
  rank score tag``, at least six (text after the sixth is ignored, as by trec_eval). Fields
  are separated by runs of ASCII whitespace (space, tab, vertical tab, form feed: C's
  ``isspace``, as trec_eval splits). A line ends at LF, CRLF or a lone CR.
- Blank lines are skipped, and so are comments: lines whose first non-blank character is ``#``
  (trec_eval 10 wants the ``#`` in the first column; rankedu also allows blanks before it, so a
  query id never begins with ``#``). A ``#`` inside a field (``CR93E-3103#37``) is text.
- The text is UTF-8; other bytes are an error naming the line. A UTF-8 byte order mark at the
  start of the file is dropped: trec_eval keeps those three bytes in the first query id, which
  then matches no query of the other file, but the mark says how the file is encoded and is
  part of no id.
- ``rel`` and ``rank`` are decimal integers in [-2**63, 2**63 - 1]; ``1.0`` reads as 1.
  trec_eval ignores the rank and reads ``rel`` with ``atol`` (``1.5`` as 1); rankedu rejects
  what is not an integer rather than guess. ``score`` is a finite decimal number (``1e-3``
  allowed; ``nan``, ``inf`` and ``1e400`` are errors), read in double precision as trec_eval 10.
- A malformed line is a ``ValueError`` naming the file and the line number; so is a document
  listed twice for one query. A file is read once, so a pipe works; ``"-"`` reads standard
  input, as in trec_eval 10.

Where rankedu reads a file that trec_eval 10.0 refuses or reads otherwise (each a leniency: on
a file trec_eval 10.0 reads without complaint, every value is the same):

- **Blank lines in a qrels file** are skipped. trec_eval 10.0 skips them in a run only; in a
  qrels file it stops with "get_qrels: Malformed line".
- **Comment lines in a qrels file** are skipped wherever they are. trec_eval 10.0's
  ``get_qrels.c`` skips one comment line and reads the next line as a judgment, so two comment
  lines in a row make it stop (or, if the second has four fields, read it as a judgment of
  query ``#``), and a comment on the last line makes it read past the end of its buffer. Blanks
  before the ``#`` are allowed here, not there (see above).
- **A lone CR** (the line end of classic Mac OS files) ends a line. trec_eval 10.0 splits lines
  at LF only and reads CR as whitespace, so such a file is one line to it: a run's first six
  fields, the rest ignored (the run ``q1 Q0 d2 1 0.9 s<CR>q1 Q0 d1 2 0.5 s<CR>`` against
  ``q1 0 d1 1`` is map 0 there, AP 0.5 here).
- **A UTF-8 byte order mark** is dropped, and **ranks and grades must be integers** (above).
- **A judged query that the run lacks** is left out by default, as trec_eval 9.x does, where
  trec_eval 10.0 stops with exit status 4: :func:`rankedu.evaluate`'s ``missing`` says which.

With pyarrow installed (``rankedu[fast]``), ``evaluate`` reads a single-spaced file with Arrow's
multithreaded reader and keeps docnos in Arrow (``rankedu.trec.fast_read``). Otherwise, or when that
reader declines a file, pandas' C parser reads it (on one space when the file is single-spaced,
much faster than on ``\\s+``); only when it fails is the file scanned line by line, to name the
culprit. Every path accepts the same files and gives the same values.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rankedu.trec.lines import _DECIMAL, line_of_row
from rankedu.trec.load import STDIN, _encode, _normalise, _read_bytes, _read_file  # noqa

__all__ = ["read_judgment_groups", "read_preferences", "read_qrels", "read_run"]


def read_qrels(path) -> pd.DataFrame:
    """Read a TREC qrels (judgments) file: one ``qid iter docno rel`` line per judgment.

    Fields are separated by any whitespace; ``iter`` is ignored by every measure; ``rel`` is an
    integer grade (negative grades are kept: trec_eval reads them as "in the pool, not judged"
    and ``evaluate`` treats them as non-relevant with gain 0). Blank lines and comment lines
    (first non-blank character ``#``) are skipped wherever they are, where trec_eval 10.0 stops
    on a blank line or on two comment lines in a row; a UTF-8 byte order mark at the start is
    dropped (trec_eval would keep it in the first query id). ``help(rankedu.trec.files)`` lists
    every rule of the format and every difference from trec_eval 10.0.

    Parameters
    ----------
    path : str or os.PathLike
        The qrels file; ``"-"`` reads standard input.

    Returns
    -------
    pandas.DataFrame
        Columns ``qid``, ``iter``, ``docno`` (strings) and ``rel`` (int64), one row per
        judgment, in the file's order.

    Raises
    ------
    ValueError
        Naming the file and the line: a line without exactly four fields, a grade that is not
        an integer between -2**63 and 2**63 - 1, text that is not UTF-8, or a document judged
        twice for one query.

    Notes
    -----
    The chapter :doc:`/book/evaluating_runs` explains it.

    References
    ----------
    - ``trec_eval``: Buckley, C. trec_eval, the TREC evaluation program, version 10.0. National
      Institute of Standards and Technology, https://github.com/usnistgov/trec_eval (its
      qrels format, read by its ``get_qrels.c``).
    - ``voorhees2005``: Voorhees, E. M. and Harman, D. K., eds. (2005). TREC: Experiment and
      Evaluation in Information Retrieval. MIT Press.

    Examples
    --------
    >>> import rankedu as rk, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "qrels.txt")
    >>> _ = open(path, "w").write("# judged by A.\\nq1 0 d1 2\\nq1 0 d2 0\\n")
    >>> rk.read_qrels(path)
      qid iter docno  rel
    0  q1    0    d1    2
    1  q1    0    d2    0
    """
    frame, rows = _read_file(path, "qrels", text=True)
    _encode(rows)  # checks that no document is judged twice for a query
    return frame


def read_run(path) -> pd.DataFrame:
    """Read a TREC run file: one ``qid Q0 docno rank score tag`` line per retrieved document.

    Fields are separated by any whitespace. Text after the sixth field is ignored, as trec_eval
    ignores it. ``rank`` must be an integer but is not used to rank (``evaluate`` ranks by
    score, as trec_eval does); ``score`` must be a finite number. Blank lines and comment lines
    (first non-blank character ``#``) are skipped; a UTF-8 byte order mark at the start is
    dropped (trec_eval would keep it in the first query id). ``help(rankedu.trec.files)`` lists
    every rule of the format.

    Parameters
    ----------
    path : str or os.PathLike
        The run file; ``"-"`` reads standard input.

    Returns
    -------
    pandas.DataFrame
        Columns ``qid``, ``q0``, ``docno``, ``tag`` (strings), ``rank`` (int64) and ``score``
        (float64), one row per retrieved document, in the file's order.

    Raises
    ------
    ValueError
        Naming the file and the line: a line with fewer than six fields, a rank that is not an
        integer between -2**63 and 2**63 - 1, a score that is not a finite number, text that is
        not UTF-8, or a document listed twice for one query.

    Notes
    -----
    The chapter :doc:`/book/evaluating_runs` explains it.

    References
    ----------
    - ``trec_eval``: Buckley, C. trec_eval, the TREC evaluation program, version 10.0. National
      Institute of Standards and Technology, https://github.com/usnistgov/trec_eval (its
      results format, read by its ``get_trec_results.c``).
    - ``voorhees2005``: Voorhees, E. M. and Harman, D. K., eds. (2005). TREC: Experiment and
      Evaluation in Information Retrieval. MIT Press.

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
    frame, rows = _read_file(path, "run", text=True)
    _encode(rows)  # checks that no document is listed twice for a query
    return frame


def read_judgment_groups(path) -> pd.DataFrame:
    """Read qrels of several judgment groups (trec_eval's ``-R qrels_jg``): one ``qid group
    docno rel`` line per judgment, the second field naming the group (an assessor, say) that
    judged the document.

    Read as :func:`read_qrels` reads a qrels file, the group in the place of ``iter``
    (``help(rankedu.trec.files)`` lists the rules). A document may be judged once per group.

    Parameters
    ----------
    path : str or os.PathLike
        The file; ``"-"`` reads standard input.

    Returns
    -------
    pandas.DataFrame
        Columns ``qid``, ``group``, ``docno`` (strings) and ``rel`` (int64), one row per
        judgment, in the file's order.

    Raises
    ------
    ValueError
        Naming the file and the line, as :func:`read_qrels` does; or a (query, group,
        document) judged twice.

    Notes
    -----
    :func:`rankedu.trec_eval_report` with ``rel_format="qrels_jg"`` averages trec_eval's
    ``map_avgjg``, ``P_avgjg`` and ``Rprec_mult_avgjg`` over the groups. The chapter
    :doc:`/book/judgments` measures how far several assessors' judgments agree.

    References
    ----------
    - ``trec_eval``: Buckley, C. trec_eval, the TREC evaluation program, version 10.0 (its
      qrels_jg format, read by its ``get_qrels_jg.c``).

    Examples
    --------
    >>> import rankedu as rk, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "qrels.txt")
    >>> _ = open(path, "w").write("q1 A d1 1\\nq1 B d1 0\\n")
    >>> rk.read_judgment_groups(path)
      qid group docno  rel
    0  q1     A    d1    1
    1  q1     B    d1    0
    """
    return _read_keyed_qrels(path, "group")


def _read_keyed_qrels(path, key: str, *checks) -> pd.DataFrame:
    """A qrels file whose second field is ``key`` (a subtopic, a judgment group), read as
    :func:`read_qrels` reads one; a document judged twice for one query and ``key``, or a
    record that one of ``checks`` refuses (:func:`refused`), is a ValueError naming the line."""
    frame, rows = _read_file(path, "qrels", text=True)
    frame = frame.rename(columns={"iter": key})
    refused(frame, lambda row: f"{rows.origin}, line {line_of_row(row, rows.skipped)}",
            twice(["qid", key]), *checks)
    return frame


def twice(keys: list[str]):
    """A check for :func:`refused`: a document listed twice under the same ``keys``."""
    def check(frame: pd.DataFrame):
        found = frame.duplicated([*keys, "docno"]).to_numpy()
        if not found.any():
            return None
        row = int(found.nonzero()[0][0])
        names = " and ".join(f"{'query' if key == 'qid' else key} {frame.at[row, key]!r}"
                             for key in keys)
        return row, f"document {frame.at[row, 'docno']!r} is judged twice for {names}"
    return check


def refused(frame: pd.DataFrame, where, *checks) -> None:
    """Raise the first problem one of ``checks`` finds (each ``frame -> (row, message)`` or
    None), prefixed by ``where(row)``, the place of the row (a file and line)."""
    for check in checks:
        found = check(frame)
        if found is not None:
            row, message = found
            raise ValueError(f"{where(row)}: {message}")


#: The columns of a preferences frame, in the order of a prefs file's fields.
PREFS_COLUMNS = ("qid", "group", "subgroup", "docno", "rel")


def read_preferences(path) -> pd.DataFrame:
    """Read trec_eval's preference judgments (its ``-R prefs`` format): one ``qid group
    subgroup docno rel`` line per judged document.

    Within one judgment subgroup of one judgment group (a user's judging of a query, say), a
    document with a higher ``rel`` is preferred to one with a lower: the levels only order the
    documents, except that 0 means non-relevant. The subgroups of a group state parts of one
    consistent order, which the preferences they imply complete (A > B in one subgroup and B >
    C in another give A > C); groups may disagree with each other. trec_eval's
    ``get_prefs.c`` describes the format; :func:`rankedu.trec_eval_report` with
    ``rel_format="prefs"`` computes trec_eval's preference measures from it.

    Read as :func:`read_qrels` reads a qrels file (``help(rankedu.trec.files)``: whitespace
    separates fields, blank and comment lines are skipped, UTF-8), with five fields, ``rel``
    a decimal number ``>= 0``. Where trec_eval 10.0 differs: it stops on a blank line, on two
    comment lines in a row or on a line with more than five fields (so does rankedu, but names
    the file's line where trec_eval counts the lines it read); it reads ``rel`` with C's
    ``atof`` (``"x"`` as 0) and takes negative levels, which it confuses with its "not in this
    group" mark (-1) and for which its ``prefs_avgjg_Rnonrel`` reads past its arrays: rankedu
    refuses both; and it accepts a document listed twice in one subgroup, counting its
    preferences twice when the group has one subgroup and once otherwise: rankedu refuses it.

    Parameters
    ----------
    path : str or os.PathLike
        The file; ``"-"`` reads standard input.

    Returns
    -------
    pandas.DataFrame
        Columns ``qid``, ``group``, ``subgroup``, ``docno`` (strings) and ``rel`` (float64),
        one row per line, in the file's order.

    Raises
    ------
    ValueError
        Naming the file and the line: a line without five fields, a level that is not a
        number ``>= 0``, a document listed twice in one subgroup.

    Notes
    -----
    :func:`rankedu.trec_eval_report` with ``rel_format="prefs"`` computes trec_eval's
    ``prefs_*`` measures from them. The chapter :doc:`/book/judgments` measures how far
    several assessors' judgments agree.

    References
    ----------
    - ``trec_eval``: Buckley, C. trec_eval, the TREC evaluation program, version 10.0 (its
      prefs format, read by its ``get_prefs.c``).

    Examples
    --------
    >>> import rankedu as rk, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "prefs.txt")
    >>> _ = open(path, "w").write("q1 user1 s1 d1 2\\nq1 user1 s1 d2 0\\n")
    >>> rk.read_preferences(path)
      qid  group subgroup docno  rel
    0  q1  user1       s1    d1  2.0
    1  q1  user1       s1    d2  0.0
    """
    raw, origin = _read_bytes(path, "prefs")
    records, lines = [], []
    for number, line in enumerate(_normalise(raw).decode("utf-8").split("\n"), start=1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) != len(PREFS_COLUMNS):
            raise ValueError(f"{origin}, line {number}: malformed line (expected 5 fields, "
                             f"{' '.join(PREFS_COLUMNS)}; got {len(fields)}): {line.strip()!r}")
        if not _DECIMAL.fullmatch(fields[4]):
            raise ValueError(f"{origin}, line {number}: malformed line (the relevance level "
                             f"{fields[4]!r} is not a number): {line.strip()!r}")
        records.append(fields)
        lines.append(number)
    frame = pd.DataFrame(records, columns=list(PREFS_COLUMNS), dtype=object)
    frame["rel"] = frame["rel"].astype(np.float64)
    refused(frame, lambda row: f"{origin}, line {lines[row]}",
            twice(["qid", "group", "subgroup"]), negative_level)
    return frame


def negative_level(frame: pd.DataFrame):
    """A check for :func:`refused`: a relevance level below 0 (or not finite), which
    trec_eval's preference measures cannot take."""
    bad = ~(np.isfinite(frame["rel"].to_numpy(float)) & (frame["rel"].to_numpy(float) >= 0))
    if not bad.any():
        return None
    row = int(bad.nonzero()[0][0])
    return row, (f"the relevance level {frame.at[row, 'rel']} of document "
                 f"{frame.at[row, 'docno']!r} is not a number >= 0, which trec_eval's "
                 f"preference measures need")
