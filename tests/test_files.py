"""Tests of rankedu/trec/files.py: reading TREC run and qrels files, and turning paths, frames
and dicts of dicts into the integer codes ``evaluate`` works on."""

import importlib
import io
import itertools
import os
import subprocess
import sys
import tempfile
import threading
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rankedu as rk
from conftest import TREC_EVAL_DATA
from rankedu.trec import fast_read as _fast_read
from rankedu.trec.lines import RUN_COLUMNS
from rankedu.trec.load import _read_file

MEASURES = ["P@1", "P@5", "R@10", "AP", "AP@3", "RR", "nDCG", "nDCG@5", "Rprec", "ERR@3"]


# Every test runs on both readers (conftest's ``reader``): pyarrow's and pandas alone.
pytestmark = pytest.mark.usefixtures("reader")


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def file_lines(case) -> tuple[list[str], list[str]]:
    """The qrels lines and the run lines of a ``trec_case`` (ranks in the dict's order)."""
    qrels = [f"{q} 0 {d} {g}\n" for q, docs in case.qrels.items() for d, g in docs.items()]
    run = [f"{q} Q0 {d} {i} {s} tag\n" for q, docs in case.run.items()
           for i, (d, s) in enumerate(docs.items(), start=1)]
    return qrels, run


def reference_run(data: bytes) -> pd.DataFrame:
    """An independent reading of a run, line by line, by the rules read_run documents."""
    rows = []
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    for line in data.splitlines():
        fields = line.split()  # ASCII whitespace: C's isspace, as trec_eval splits
        if not fields or fields[0].startswith(b"#"):
            continue
        qid, q0, docno, rank, score, tag = (f.decode("utf-8") for f in fields[:6])
        rows.append((qid, q0, docno, int(rank.split(".")[0]), float(score), tag))
    frame = pd.DataFrame(rows, columns=["qid", "q0", "docno", "rank", "score", "tag"])
    return frame.astype({"qid": str, "q0": str, "docno": str, "tag": str,
                         "rank": np.int64, "score": np.float64})


# --- what a file holds -------------------------------------------------------------------------


def test_trailing_text_after_the_sixth_field_is_ignored_as_trec_eval_does():
    frame = rk.read_run(TREC_EVAL_DATA / "results.trunc")
    assert list(frame.columns) == ["qid", "q0", "docno", "rank", "score", "tag"]
    assert frame.loc[0, "tag"] == "STANDARD"
    assert len(frame) == 584


def test_read_qrels_and_read_run_return_typed_frames(tmp_path):
    qrels = rk.read_qrels(write(tmp_path, "q", "1 0 a 2\n1\t0\tb\t-1\n"))
    assert list(qrels.columns) == ["qid", "iter", "docno", "rel"]
    assert qrels["rel"].tolist() == [2, -1] and qrels["rel"].dtype == np.int64
    assert qrels["qid"].tolist() == ["1", "1"]
    run = rk.read_run(write(tmp_path, "r", "1 Q0 a 1 0.25 sys\n1 Q0 b 2  -3e-2  sys\n"))
    assert run["score"].tolist() == [0.25, -0.03]
    assert run["rank"].tolist() == [1, 2] and run["rank"].dtype == np.int64


def test_single_spaced_and_irregularly_spaced_files_read_the_same(tmp_path):
    # Single spaces take a faster path; one double space, tab, CR, vertical tab or form feed
    # anywhere must not shift fields (with numeric docnos a shifted line could still parse).
    lines = [f"30{q} Q0 {d} {r} {2.5 - r / 10} tag" for q in range(3) for r, d in
             enumerate([123, 7, 45], start=1)]
    plain = write(tmp_path, "plain", "\n".join(lines) + "\n")
    expected = rk.read_run(plain)
    for i, variant in enumerate([
        lines[:-1] + [lines[-1].replace(" ", "  ", 1)],
        lines[:-1] + [lines[-1].replace(" ", "\t")],
        [line + " " for line in lines],
        [line + "\r" for line in lines],
        [" " + line for line in lines],
        [lines[0].replace(" ", "  ", 2)] + lines[1:],
        lines[:-1] + [lines[-1].replace(" ", "\f")],
        lines[:-1] + [lines[-1].replace(" ", " \v ")],
    ]):
        path = write(tmp_path, f"variant{i}", "\n".join(variant) + "\n")
        pd.testing.assert_frame_equal(rk.read_run(path), expected)
    assert expected["docno"].tolist()[:3] == ["123", "7", "45"]
    assert expected["qid"].tolist()[-1] == "302"


def test_ids_that_look_like_numbers_stay_text(tmp_path):
    # pandas' category dtype would read "0301" and "301" as the same number.
    qrels = write(tmp_path, "qrels", "0301 0 007 1\n301 0 7 1\n")
    run = write(tmp_path, "run", "0301 Q0 007 1 1.0 t\n301 Q0 7 1 1.0 t\n301 Q0 NA 2 0.5 t\n")
    result = rk.evaluate(qrels, run, ["RR"])
    assert result["RR"].to_dict() == {"0301": 1.0, "301": 1.0}
    assert rk.read_run(run)["docno"].tolist() == ["007", "7", "NA"]


def test_quotes_are_part_of_an_id_as_for_trec_eval(tmp_path):
    # pandas' default would strip the quotes of "d1" and read d1.
    run = write(tmp_path, "run", 'q Q0 "d1" 1 2.0 t\nq Q0 d1 2 1.0 t\nq Q0 a"b 3 0.5 t\n')
    assert rk.read_run(run)["docno"].tolist() == ['"d1"', "d1", 'a"b']
    assert rk.evaluate({"q": {'"d1"': 1}}, run, ["RR"]).loc["q", "RR"] == 1.0


def test_an_integral_grade_written_with_a_zero_fraction_is_that_integer(tmp_path):
    qrels = rk.read_qrels(write(tmp_path, "q", "q 0 a 1.0\nq 0 b +2\nq 0 c -0\nq 0 d 3.\n"))
    assert qrels["rel"].tolist() == [1, 2, 0, 3]


# --- comments, byte order mark, encodings ------------------------------------------------------


def with_comments(text: str) -> str:
    """trec_eval 10's qrels.test.with-comments: comment lines between the judgments."""
    lines = text.splitlines(keepends=True)
    return ("# comment here\n" + "".join(lines[:2]) + "# and comment here\n"
            + "".join(lines[2:4]) + "   # an indented comment with four fields\n"
            + "".join(lines[4:]) + "# a last comment without a newline")


def test_comment_lines_are_skipped_as_trec_eval_10_skips_them(tmp_path):
    plain = TREC_EVAL_DATA / "qrels.test"
    commented = write(tmp_path, "qrels.with-comments", with_comments(plain.read_text()))
    pd.testing.assert_frame_equal(rk.read_qrels(commented), rk.read_qrels(plain))
    run = TREC_EVAL_DATA / "results.test"
    pd.testing.assert_frame_equal(rk.evaluate(commented, run, MEASURES),
                                  rk.evaluate(plain, run, MEASURES))


def test_a_comment_with_as_many_fields_as_a_record_is_never_a_query_named_hash(tmp_path):
    qrels = write(tmp_path, "qrels", "# 0 d1 1\nq 0 d1 1\n#q 0 d2 1\n")
    run = write(tmp_path, "run", "# Q0 d1 1 2.0 t\nq Q0 d1 1 1.0 t\n\t# Q0 d2 2 0.5 t\n")
    assert rk.read_qrels(qrels)["qid"].tolist() == ["q"]
    assert rk.read_run(run)["qid"].tolist() == ["q"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no query "#" only in the run or only in the qrels
        result = rk.evaluate(qrels, run, ["AP"])
    assert list(result.index) == ["q"]


def test_a_hash_inside_a_docno_is_text_not_a_comment(tmp_path):
    # trec_eval's qrels.comments.123 judges CR93E-3103#37.
    qrels = rk.read_qrels(write(tmp_path, "qrels", "301 0 CR93E-3103#37 1\n301 0 #x 0\n"))
    assert qrels["docno"].tolist() == ["CR93E-3103#37", "#x"]


def test_a_utf8_byte_order_mark_at_the_start_is_dropped(tmp_path):
    # trec_eval keeps it as part of the first query id ("\ufeffq1"); rankedu documents that
    # it drops it, so q1 is q1.
    qrels = write(tmp_path, "qrels", b"\xef\xbb\xbfq1 0 d1 1\n")
    run = write(tmp_path, "run", b"\xef\xbb\xbfq1 Q0 d1 1 1.0 t\n")
    assert rk.read_qrels(qrels)["qid"].tolist() == ["q1"]
    assert rk.read_run(run)["qid"].tolist() == ["q1"]
    assert rk.evaluate(qrels, run, ["P@1"]).loc["q1", "P@1"] == 1.0
    assert "byte order mark" in rk.read_run.__doc__


def test_utf8_docnos_are_read_and_other_bytes_are_an_error_naming_the_line(tmp_path):
    good = write(tmp_path, "good.run", "q Q0 dé 1 1.0 t\nq Q0 文書 2 0.5 t\n")
    assert rk.read_run(good)["docno"].tolist() == ["dé", "文書"]
    bad = write(tmp_path, "bad.run", b"q Q0 a 1 1.0 t\nq Q0 d\xe9 2 0.5 t\n")
    for read in (rk.read_run, lambda p: rk.evaluate({"q": {"a": 1}}, p, ["AP"])):
        with pytest.raises(ValueError, match=r"bad.run', line 2: not UTF-8 text \(byte 0xe9"):
            read(bad)


# --- one read, from a file, a pipe or standard input -------------------------------------------


def test_a_pipe_is_read_once_so_an_error_names_the_right_line(tmp_path):
    fifo = tmp_path / "run.fifo"
    os.mkfifo(fifo)
    text = b"q Q0 a 1 1.0 t\nq Q0 b 2 0.5 t\nq Q0 a 3 0.2 t\n"

    def feed():
        with open(fifo, "wb") as pipe:
            pipe.write(text)

    writer = threading.Thread(target=feed)
    writer.start()
    try:
        with pytest.raises(ValueError, match=r"run.fifo', line 3: document 'a' is listed twice"):
            rk.read_run(fifo)
    finally:
        writer.join(timeout=10)


def test_a_dash_reads_standard_input(monkeypatch):
    text = b"q Q0 a 1 1.0 t\nq Q0 b 2 0.5 t\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text)))
    assert rk.read_run("-")["docno"].tolist() == ["a", "b"]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"q Q0 a 1 1.0\n")))
    with pytest.raises(ValueError, match=r"run file '-' \(standard input\), line 1: "):
        rk.read_run("-")


def test_the_command_reads_a_run_piped_to_its_standard_input(tmp_path):
    qrels = write(tmp_path, "qrels", "q 0 a 1\nq 0 b 0\n")
    done = subprocess.run(
        [sys.executable, "-m", "rankedu", "evaluate", str(qrels), "-", "-m", "RR", "-q"],
        input=b"q Q0 b 1 2.0 t\nq Q0 a 2 1.0 t\n", capture_output=True, check=True,
    )
    assert "RR" in done.stdout.decode() and "0.5000" in done.stdout.decode()


# --- bad input ---------------------------------------------------------------------------------

BAD_RUNS = {
    "five fields": ("q Q0 a 1 1.0 t\nq Q0 b 2 0.5\n", 2, "expected at least 6 fields"),
    "score not a number": ("q Q0 a 1 1.0 t\nq Q0 b 2 high t\n", 2, "'high' is not a number"),
    "score with an underscore": ("q Q0 a 1 1_0 t\n", 1, "'1_0' is not a number"),
    "NaN score": ("q Q0 a 1 nan t\n", 1, "not a finite number"),
    "infinite score": ("q Q0 a 1 1.0 t\n\nq Q0 b 2 -inf t\n", 3, "not a finite number"),
    "score beyond double precision": ("q Q0 a 1 1e400 t\n", 1, "not a finite number"),
    "rank not an integer": ("q Q0 a first 1.0 t\n", 1, "rank 'first' is not an integer"),
    "rank 2**64": (f"q Q0 a 1 1.0 t\nq Q0 b {2**64} 0.5 t\n", 2, "outside the 64-bit"),
    "rank 2**63": (f"q Q0 a {2**63} 1.0 t\n", 1, "outside the 64-bit"),
    "rank below -2**63": (f"q Q0 a {-(2**63) - 1} 1.0 t\n", 1, "outside the 64-bit"),
    "rank in scientific notation": ("q Q0 a 1e3 1.0 t\n", 1, "rank '1e3' is not an integer"),
    "a double space before the tag": ("q Q0 a 1 1.0 t\nq Q0 b 2 0.5  \n", 2,
                                      "expected at least 6 fields"),
}


@pytest.mark.parametrize("case", sorted(BAD_RUNS))
def test_malformed_run_line_raises_naming_file_and_line(tmp_path, case):
    text, line, problem = BAD_RUNS[case]
    path = write(tmp_path, "bad.run", text)
    for read in (rk.read_run, lambda p: rk.evaluate({"q": {"a": 1}}, p, ["AP"])):
        with pytest.raises(ValueError, match=f"bad.run', line {line}: .*{problem}"):
            read(path)


BAD_QRELS = {
    "three fields": ("q 0 a 1\nq 0 b\n", 2, "expected 4 fields"),
    "five fields": ("q 0 a 1\nq 0 b 1 extra\n", 2, "expected 4 fields"),
    # pandas would take a first line's surplus field for an index, and shift the others.
    "five numeric fields first": ("q 0 1 2 3\nq 0 b 1\n", 1, "expected 4 fields"),
    "grade not an integer": ("q 0 a 1.5\n", 1, "'1.5' is not an integer"),
    "grade below -2**63": (f"q 0 a 1\nq 0 b {-(2**63) - 1}\n", 2, "outside the 64-bit"),
    "grade 2**63": (f"q 0 a {2**63}\n", 1, "outside the 64-bit"),
    "grade 2**64": (f"q 0 a {2**64}\n", 1, "outside the 64-bit"),
}


@pytest.mark.parametrize("case", sorted(BAD_QRELS))
def test_malformed_qrels_line_raises_naming_file_and_line(tmp_path, case):
    text, line, problem = BAD_QRELS[case]
    path = write(tmp_path, "bad.qrels", text)
    for read in (rk.read_qrels, lambda p: rk.evaluate(p, {"q": {"a": 1.0}}, ["AP"])):
        with pytest.raises(ValueError, match=f"bad.qrels', line {line}: .*{problem}"):
            read(path)


def test_the_64_bit_bounds_themselves_are_accepted(tmp_path):
    run = rk.read_run(write(tmp_path, "r", f"q Q0 a {2**63 - 1} 1 t\nq Q0 b {-(2**63)} 0 t\n"))
    assert run["rank"].tolist() == [2**63 - 1, -(2**63)]
    qrels = rk.read_qrels(write(tmp_path, "q", f"q 0 a {2**63 - 1}\nq 0 b {-(2**63)}\n"))
    assert qrels["rel"].tolist() == [2**63 - 1, -(2**63)]


def test_duplicate_document_in_a_run_file_names_query_document_and_line(tmp_path):
    path = write(tmp_path, "dup.run", "q Q0 a 1 1.0 t\nr Q0 a 1 1.0 t\nq Q0 a 2 0.5 t\n")
    with pytest.raises(ValueError, match="dup.run', line 3: document 'a' .* query 'q'"):
        rk.read_run(path)


def test_duplicate_judgment_in_a_qrels_file_names_query_document_and_line(tmp_path):
    path = write(tmp_path, "dup.qrels", "# a comment\nq 0 a 1\nq 0 b 0\nq 0 a 0\n")
    with pytest.raises(ValueError, match="dup.qrels', line 4: document 'a' .* query 'q'"):
        rk.evaluate(path, {"q": {"a": 1.0}}, ["AP"])


@pytest.mark.parametrize("text", [
    "q 0 a 1\n\n  \n# a comment\n\t# another\nq 0 b 1\nq 0 a 0\n",  # blanks, comments
    "\r\nq 0 a 1\r\n\r\n q 0 b 1\r\n\r\n\r\nq 0 a 0",  # CRLF, no final newline
    "# 1\n# 2\nq 0 a 1\nq\t0\tb\t1\n\f\nq 0 a 0\n\n\n",  # \s+ path, a line of blanks
])
def test_the_line_of_a_duplicate_counts_blank_and_comment_lines(tmp_path, text):
    expected = text.replace("\r\n", "\n").split("\n").index("q 0 a 0") + 1
    path = write(tmp_path, "dup.qrels", text)
    with pytest.raises(ValueError, match=f"dup.qrels', line {expected}: document 'a'"):
        rk.read_qrels(path)


def test_duplicate_document_in_a_frame_names_query_and_document():
    run = pd.DataFrame({"qid": ["q", "q"], "docno": ["a", "a"], "score": [1.0, 2.0]})
    with pytest.raises(ValueError, match="run: document 'a' is listed twice for query 'q'"):
        rk.evaluate({"q": {"a": 1}}, run, ["AP"])


def test_frames_without_the_needed_columns_or_with_nan_scores_raise():
    with pytest.raises(ValueError, match="'score'"):
        rk.evaluate({"q": {"a": 1}}, pd.DataFrame({"qid": ["q"], "docno": ["a"]}), ["AP"])
    with pytest.raises(ValueError, match="finite"):
        rk.evaluate({"q": {"a": 1}}, {"q": {"a": float("nan")}}, ["AP"])


def test_wrong_kind_of_input_raises_type_error():
    with pytest.raises(TypeError, match="run must be"):
        rk.evaluate({"q": {"a": 1}}, 42, ["AP"])
    with pytest.raises(TypeError, match="query 'q'"):
        rk.evaluate({"q": [1]}, {"q": {"a": 1.0}}, ["AP"])


# Fields that stress the fast parser and the line scanner: they must agree on every file.
IDS = ["q", "301", "0301", "d1", "é", "文書", "#", "#x", "a#b", '"', "NA", "nan", "\xa0", "٣"]
RANKS = ["1", "-1", "+2", "1.0", "5.", "1.5", "1e3", "1_0", "0x10", str(2**63 - 1),
         str(2**63), str(2**64), "x"]
SCORES = ["1", "-0.5", "+2", ".5", "5.", "1e-3", "1E+3", "1_0", "0x10", "nan", "inf",
          "-Infinity", "1e400", "1,5", "high"]
BLANKS = [" ", " ", " ", "  ", "\t", "\f", "\v", " \t "]


@st.composite
def messy_lines(draw):
    """A run line: usually six fields of the right kinds (some malformed), sometimes not."""
    ids = st.sampled_from(IDS)
    fields = [draw(ids), draw(st.sampled_from(["Q0", "0", "#"])), draw(ids),
              draw(st.sampled_from(RANKS)), draw(st.sampled_from(SCORES)), draw(ids)]
    fields += draw(st.lists(ids, max_size=2))
    shape = draw(st.sampled_from(["record"] * 6 + ["short", "comment", "blank"]))
    if shape == "short":
        fields = fields[:draw(st.integers(1, 5))]
    elif shape == "comment":
        fields = ["#" + fields[0]] + fields[1:]
    elif shape == "blank":
        fields = []
    blanks = draw(st.lists(st.sampled_from(BLANKS), min_size=len(fields), max_size=len(fields)))
    text = "".join(f + b for f, b in zip(fields, blanks))
    if not draw(st.booleans()):  # no blank after the last field
        text = text[: -len(blanks[-1])] if blanks else text
    indent = draw(st.sampled_from(["", " ", "\t"]))
    return indent + text + draw(st.sampled_from(["\n", "\r\n", "\r"]))


@st.composite
def messy_runs(draw):
    text = "".join(draw(st.lists(messy_lines(), min_size=1, max_size=6)))
    if draw(st.booleans()):
        text = text.rstrip("\r\n")
    return (b"\xef\xbb\xbf" if draw(st.booleans()) else b"") + text.encode("utf-8")


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(messy_runs())
def test_every_file_is_either_read_as_documented_or_rejected_naming_a_line(data):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "messy.run"
        path.write_bytes(data)
        try:
            frame = rk.read_run(path)
        except ValueError as error:
            assert "messy.run', line " in str(error), str(error)
            return
    expected = reference_run(data)
    assert (expected.groupby("qid")["docno"].nunique() == expected.groupby("qid").size()).all()
    pd.testing.assert_frame_equal(frame, expected)


def rows_of(path):
    """What evaluate reads of a run file: (qid, docno, values) as lists, or the error."""
    try:
        rows = _read_file(path, "run")[1]
    except ValueError as error:
        return str(error)
    qid, docno = rows.qid, rows.docno
    if not isinstance(qid, np.ndarray):
        qid, docno = _fast_read.strings(qid), _fast_read.strings(docno)
    return list(qid), list(docno), rows.values.tolist()


@st.composite
def plain_runs(draw):
    """Single-spaced lines of six fields (the fast reader's form), from the same odd values."""
    ids = st.sampled_from(IDS)
    lines = draw(st.lists(st.tuples(ids, ids, st.sampled_from(RANKS), st.sampled_from(SCORES)),
                          min_size=1, max_size=6))
    text = "".join(f"{q} Q0 {d} {r} {s} t\n" for q, d, r, s in lines)
    return text.encode("utf-8")


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(messy_runs(), plain_runs()))
def test_the_fast_reader_reads_what_the_exact_reader_reads_or_declines(reader, data):
    if reader == "pandas":
        return  # the comparison itself switches the fast reader off
    with tempfile.TemporaryDirectory() as folder:
        fast, exact = with_and_without_arrow(rows_of, write(Path(folder), "messy.run", data))
    assert exact == fast


def with_and_without_arrow(read, *paths):
    """``read(*paths)`` as it is, then with pyarrow hidden (the exact reader alone)."""
    fast = read(*paths)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_fast_read, "pa", None)
        return fast, read(*paths)


def evaluated_or_error(qrels, run):
    """``rk.evaluate``'s values of a pair of files as a dict, or its error."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return rk.evaluate(qrels, run, ["AP", "P@2", "nDCG"]).to_dict()
    except ValueError as error:
        return str(error)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(messy_runs(), plain_runs()))
def test_the_link_started_as_arrow_reads_a_run_gives_what_the_exact_reader_gives(reader, data):
    # evaluate starts the link to plain qrels as soon as Arrow has read a run, before the run's
    # columns are checked: it is used when the fast reader then takes the file (or its
    # normalised text), dropped when it declines it.
    if reader == "pandas":
        return  # the comparison itself switches the fast reader off
    with tempfile.TemporaryDirectory() as folder:
        plain = [name for name in IDS if not name.startswith("#")]  # no comment lines
        qrels = write(Path(folder), "plain.qrels",
                      "".join(f"{q} 0 {d} {i % 3}\n" for i, (q, d) in enumerate(
                          itertools.product(plain, plain))))
        run = write(Path(folder), "messy.run", data)
        fast, exact = with_and_without_arrow(evaluated_or_error, qrels, run)
    assert exact == fast


def test_the_fast_reader_takes_a_plain_file_and_declines_what_it_cannot_read(reader):
    if reader == "pandas":
        assert _fast_read.parse(b"q1 Q0 d1 1 0.5 t\n", RUN_COLUMNS, "rank") is None
        return
    qid, docno, values, suffixes = _fast_read.parse(
        b"q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 0.25 t\nq1 Q0 doc-00003 3 0 t\n", RUN_COLUMNS, "rank")
    assert qid.to_pylist() == ["q1"] * 3 and docno.to_pylist() == ["d1", "d2", "doc-00003"]
    assert values.tolist() == [0.5, 0.25, 0.0]
    # The docnos' suffix prints, computed meanwhile: equal for equal endings and lengths.
    assert (suffixes.result() == _fast_read.suffix_prints(docno)).all()
    words, lengths = _fast_read.suffix_words(docno, np.array([2, 0, 1, 2]))
    assert [word.to_bytes(8, "little") for word in words.tolist()] == [
        b"oc-00003", b"d1\0\0\0\0\0\0", b"d2\0\0\0\0\0\0", b"oc-00003"]
    assert lengths.tolist() == [9, 2, 2, 9]
    for declined in [b"q1 Q0 d1 1 0.5 t x\n", b"q1  Q0 d1 1 0.5 t\n", b"q1 Q0 d1 1 0.5 \n",
                     b"q1 Q0 d1 0x1 0.5 t\n", b"q1 Q0 d1 1 nan t\n", b"q1 Q0 d1 1 1e999 t\n",
                     b"q1 Q0 d\xff 1 0.5 t\n", b""]:
        assert _fast_read.parse(declined, RUN_COLUMNS, "rank") is None, declined


def string_lengths(column):
    import pyarrow.compute as pc

    """A fingerprint as bad as can be: every string of one length shares it."""
    return pc.binary_length(column).to_numpy().astype(np.uint64)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.text(alphabet="ab\x00é文9", max_size=20), min_size=1, max_size=30),
       st.integers(1, 5))
def test_equal_docnos_have_equal_fingerprints_wherever_they_are(reader, names, cut):
    if reader == "pandas":
        return
    import pyarrow as pa

    whole = pa.chunked_array([pa.array(names)])
    pieces = pa.chunked_array([pa.array(names[i:i + cut]) for i in range(0, len(names), cut)])
    sliced = pa.chunked_array([pa.array(["zz"] + names).slice(1)])
    prints = [_fast_read.fingerprints(column) for column in (whole, pieces, sliced)]
    assert (prints[0] == prints[1]).all() and (prints[0] == prints[2]).all()
    for i, j in zip(*np.nonzero(np.equal.outer(prints[0], prints[0]))):
        assert names[i] == names[j]  # no collision in so few strings
    # The suffix prints, likewise, and the suffix words and lengths of rows in any order: a
    # word and a length are the docno itself up to eight bytes, its last eight bytes beyond.
    suffixes = [_fast_read.suffix_prints(column) for column in (whole, pieces, sliced)]
    assert (suffixes[0] == suffixes[1]).all() and (suffixes[0] == suffixes[2]).all()
    rows = np.arange(len(names))[::-1]
    encoded = [names[row].encode("utf-8") for row in rows]
    for column in (whole, pieces, sliced):
        words, lengths = _fast_read.suffix_words(column, rows)
        assert lengths.tolist() == [len(name) for name in encoded]
        assert [word.to_bytes(8, "little") for word in words.tolist()] == [
            name[-8:].ljust(8, b"\0") for name in encoded]


def test_a_judged_docno_beside_longer_ones_in_the_run_is_still_found(tmp_path):
    qrels = write(tmp_path, "qrels", "q1 0 d1 1\nq1 0 d2 1\n")
    run = write(tmp_path, "run", "q1 Q0 clueweb09-en0000-00-00000 1 3 t\nq1 Q0 d1 2 2 t\n"
                                 "q1 Q0 clueweb09-en0000-00-00000x 3 1 t\nq1 Q0 d2 4 0 t\n")
    assert rk.evaluate(qrels, run, ["AP"])["AP"].tolist() == [(1 / 2 + 2 / 4) / 2]


@pytest.mark.parametrize("prints", ["real", "lengths"])
def test_fingerprints_that_collide_never_match_or_repeat_different_docnos(
        tmp_path, reader, monkeypatch, prints):
    compared = []
    if prints == "lengths":  # the run's c and dd collide with the qrels' a and bb
        def suffix_prints_of_lengths(column, before=0):
            compared.append("suffix")
            return np.concatenate([np.zeros(before, np.uint64), string_lengths(column)])

        monkeypatch.setattr(_fast_read, "suffix_prints", suffix_prints_of_lengths)
        monkeypatch.setattr(_fast_read, "fingerprints", lambda column: (
            compared.append(len(column)) or string_lengths(column)))
    qrels = write(tmp_path, "qrels", "q1 0 a 1\nq1 0 bb 2\nq2 0 eee 1\n")
    run = write(tmp_path, "run", "".join(f"{q} Q0 {d} 1 {s} t\n" for q, d, s in [
        ("q1", "c", 4), ("q1", "a", 3), ("q1", "dd", 2), ("q1", "bb", 1), ("q2", "a", 2),
        ("q2", "eee", 1)]))
    got = rk.evaluate(qrels, run, ["AP", "RR", "nDCG"])
    assert got["AP"].tolist() == [(1 / 2 + 2 / 4) / 2, 1 / 2] and got["RR"].tolist() == [0.5] * 2
    expected = rk.evaluate({"q1": {"a": 1, "bb": 2}, "q2": {"eee": 1}},
                           {"q1": {"c": 4, "a": 3, "dd": 2, "bb": 1}, "q2": {"a": 2, "eee": 1}},
                           ["AP", "RR", "nDCG"])
    pd.testing.assert_frame_equal(got, expected)
    if prints == "lengths" and reader == "arrow":
        # Lengths are small numbers: the top bits of the prints, which make the keys, are all 0,
        # so every line of a query shares one key, with the suffix print (of each file) and
        # again with the full one (all nine lines crowd), and the docnos' exact classes
        # settle it.
        assert compared == ["suffix", "suffix", 9]  # (the dicts of the expected frame are coded)
    twice = write(tmp_path, "twice", "q1 Q0 a 1 3 t\nq1 Q0 c 1 2 t\nq2 Q0 c 1 2 t\n"
                                     "q1 Q0 dd 1 1 t\nq1 Q0 c 1 0 t\n")
    with pytest.raises(ValueError, match="twice', line 5: document 'c' is listed twice for "
                                         "query 'q1'"):
        rk.evaluate(qrels, twice, ["AP"])


def test_without_pyarrow_the_package_reads_with_pandas_and_gives_the_same_values(
        tmp_path, trec_case, monkeypatch):
    qrels_lines, run_lines = file_lines(trec_case)
    qrels_path = write(tmp_path, "qrels.txt", "".join(qrels_lines))
    run_path = write(tmp_path, "run.txt", "".join(run_lines))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = rk.evaluate(qrels_path, run_path, MEASURES)
        monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow now fails
        try:
            importlib.reload(_fast_read)
            assert not _fast_read.available()
            got = rk.evaluate(qrels_path, run_path, MEASURES)
        finally:
            monkeypatch.undo()
            importlib.reload(_fast_read)
    pd.testing.assert_frame_equal(got, expected)


# --- codes -------------------------------------------------------------------------------------


def test_paths_frames_and_dicts_give_the_same_table(tmp_path, trec_case):
    qrels_lines, run_lines = file_lines(trec_case)
    qrels_path = write(tmp_path, "qrels.txt", "".join(qrels_lines))
    run_path = write(tmp_path, "run.txt", "".join(run_lines))
    measures = MEASURES + ["ERR", "RR@2"]
    from_dicts = rk.evaluate(trec_case.qrels, trec_case.run, measures)
    from_paths = rk.evaluate(qrels_path, run_path, measures)
    from_frames = rk.evaluate(rk.read_qrels(qrels_path), rk.read_run(run_path), measures)
    from_str = rk.evaluate(str(qrels_path), str(run_path), measures)
    pd.testing.assert_frame_equal(from_dicts, from_paths)
    pd.testing.assert_frame_equal(from_dicts, from_frames)
    pd.testing.assert_frame_equal(from_dicts, from_str)


def test_any_line_order_of_the_files_gives_the_same_values(tmp_path, trec_case):
    qrels_lines, run_lines = file_lines(trec_case)
    rng = np.random.default_rng(5)
    shuffled = [write(tmp_path, name, "".join(rng.permutation(lines)))
                for name, lines in [("q", qrels_lines), ("r", run_lines)]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tied scores warn, the same in both orders
        expected = rk.evaluate(write(tmp_path, "q0", "".join(qrels_lines)),
                               write(tmp_path, "r0", "".join(run_lines)), MEASURES)
        pd.testing.assert_frame_equal(rk.evaluate(*shuffled, MEASURES), expected)


# --- where rankedu reads what trec_eval 10.0 refuses or misreads (D13) -----------------------


def test_blank_lines_and_comments_anywhere_in_qrels_are_skipped(tmp_path):
    # trec_eval 10.0 stops on the blank line, on the two comments in a row and on the last.
    qrels = tmp_path / "qrels"
    qrels.write_text("q1 0 a 1\n\n# one\n# two\nq1 0 b 0\n  # indented\n# last")
    assert rk.read_qrels(qrels)[["docno", "rel"]].values.tolist() == [["a", 1], ["b", 0]]


def test_a_lone_cr_ends_a_line_where_trec_eval_10_reads_one_line(tmp_path):
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q1 0 d1 1\nq1 0 d2 0\n")
    run.write_bytes(b"q1 Q0 d2 1 0.9 s\rq1 Q0 d1 2 0.5 s\r")
    assert rk.evaluate(qrels, run, ["AP"]).loc["q1", "AP"] == 0.5  # trec_eval 10.0: map 0


def test_every_leniency_towards_trec_eval_10_is_listed_where_users_look():
    listed = importlib.import_module("rankedu.trec.files").__doc__
    for difference in ("**Blank lines in a qrels file**", "**Comment lines in a qrels file**",
                       "**A lone CR**", "**A UTF-8 byte order mark**",
                       "**A judged query that the run lacks**"):
        assert difference in listed, difference
