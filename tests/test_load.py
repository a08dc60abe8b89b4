"""Tests of rankedu/trec/load.py: the shared query ids and the links of a pair of inputs, and
the docno order (how files are read is tested through read_run and read_qrels in
test_files.py)."""

import gzip
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rankedu as rk
from rankedu.trec import fast_read as _fast_read
from rankedu.trec import link as _link
from rankedu.trec.load import _docno_order, _load_pair

# Every test runs on both readers (conftest's ``reader``): pyarrow's and pandas alone.
pytestmark = pytest.mark.usefixtures("reader")


def test_qrels_and_run_cannot_both_come_from_standard_input():
    with pytest.raises(ValueError, match="standard input"):
        _load_pair("-", "-")


@pytest.mark.parametrize("call", ["evaluate", "ranked_list"])
def test_a_document_listed_twice_is_the_error_reported_whatever_else_is_wrong(tmp_path, call):
    # The link is found in the background while the run is ranked and the other checks run:
    # their errors (a grade above max_grade, a judged query missing from the run, a query
    # not in the run) and warnings (a run query without judgments) must not come first.
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("q1 0 d1 5\nq2 0 d1 1\n")
    run.write_text("q1 Q0 d1 1 1 t\nq1 Q0 d2 2 0.5 t\nq1 Q0 d1 3 0.2 t\nq3 Q0 x 1 1 t\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning given first would be raised instead
        with pytest.raises(ValueError, match="line 3: document 'd1' is listed twice"):
            if call == "evaluate":
                rk.evaluate(qrels, run, ["ERR@5"], missing="error")
            else:
                rk.ranked_list(qrels, run, "q2")


def test_a_pair_shares_its_query_ids_and_links_each_run_line_to_its_judgment(trec_case):
    judged, ranking = _load_pair(trec_case.qrels, trec_case.run)
    assert judged.qids is ranking.qids
    assert list(judged.qids) == sorted(trec_case.qrels)
    every = np.arange(len(judged.values))
    judged_pairs = list(zip(judged.qids[judged.qid_codes], judged.docnos(every)))
    assert set(judged_pairs) == {(q, d) for q, docs in trec_case.qrels.items() for d in docs}
    lines = np.arange(len(ranking.values))
    run_pairs = list(zip(ranking.qids[ranking.qid_codes], ranking.docnos(lines)))
    assert dict(zip(run_pairs, ranking.values)) == {
        (q, d): s for q, docs in trec_case.run.items() for d, s in docs.items()}
    # Each run line's judgment is the qrels row of the same query and docno, -1 when none.
    row_of = {pair: row for row, pair in enumerate(judged_pairs)}
    assert ranking.judgment.tolist() == [row_of.get(pair, -1) for pair in run_pairs]


@given(st.lists(st.text(alphabet="ab9Zé文-_.", min_size=1, max_size=4), max_size=40))
def test_docno_order_ranks_docnos_in_string_order(names):
    order = _docno_order(np.array(names, dtype=object))
    assert order.dtype == np.int64 and order.shape == (len(names),)
    # trec_eval compares with strcmp, byte by byte: that is the order of the UTF-8 bytes.
    for i in range(len(names)):
        for j in range(len(names)):
            a, b = names[i].encode("utf-8"), names[j].encode("utf-8")
            assert (order[i] < order[j]) == (a < b) and (order[i] == order[j]) == (a == b)


# Few names, so that lines repeat, and different docnos share a suffix print.
PAIRS = st.tuples(st.sampled_from(["q1", "q2", "q10"]),
                  st.sampled_from(["a", "b", "é", "d1", "d10", "clueweb09-en0000-00-00001",
                                   "clueweb09-en0000-00-00002", "x-0123456789", "y-0123456789",
                                   "z-0123456789"]))  # the last three: one length, one ending


def constant_prints(monkeypatch):
    """Every docno printed 0: every line of a query shares its key at both sorts, and the
    docnos' exact classes decide."""
    monkeypatch.setattr(_link.ArrowDocnos, "suffixes",
                        lambda self: np.zeros(len(self.column), np.uint64))
    monkeypatch.setattr(_link.CodedDocnos, "suffixes",
                        lambda self: np.zeros(len(self.codes), np.uint64))
    for docnos in (_link.ArrowDocnos, _link.CodedDocnos):
        monkeypatch.setattr(docnos, "prints", lambda self, rows: np.zeros(len(rows), np.uint64))


@pytest.mark.parametrize("prints", ["real", "constant"])
@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(PAIRS, min_size=1, max_size=12), st.lists(PAIRS, min_size=1, max_size=12))
def test_links_and_repeats_are_found_as_a_dictionary_finds_them(tmp_path_factory, monkeypatch,
                                                                 prints, qrels, run):
    if prints == "constant":
        constant_prints(monkeypatch)
    folder = tmp_path_factory.mktemp("link")
    (folder / "qrels").write_text("".join(f"{q} 0 {d} {i % 3}\n"
                                          for i, (q, d) in enumerate(qrels)))
    (folder / "run").write_text("".join(f"{q} Q0 {d} 1 {-i} t\n" for i, (q, d) in enumerate(run)))
    # The reference: the first line of a file that repeats an earlier line of the same file.
    for name, pairs in (("qrels", qrels), ("run", run)):
        seen = set()
        for line, pair in enumerate(pairs, start=1):
            if pair in seen:
                with pytest.raises(ValueError, match=(
                        f"{name}', line {line}: document '{pair[1]}' is listed twice for "
                        f"query '{pair[0]}'")):
                    _load_pair(folder / "qrels", folder / "run")[1].judgment  # found meanwhile
                return
            seen.add(pair)
    judged, ranking = _load_pair(folder / "qrels", folder / "run")
    row_of = {pair: row for row, pair in enumerate(qrels)}
    assert ranking.judgment.tolist() == [row_of.get(pair, -1) for pair in run]


def test_a_gzip_file_is_read_as_its_text_on_either_reader(tmp_path, reader):
    # Single-spaced lines: with pyarrow, Arrow reads the compressed file itself.
    qrels = "".join(f"q{q} 0 d{d} {(q + d) % 3}\n" for q in range(5) for d in range(20))
    run = "".join(f"q{q} Q0 d{d} {d} {1 / (d + q + 1)!r} s\n" for q in range(5)
                  for d in range(0, 30, 2))
    for name, text in [("qrels", qrels), ("run", run)]:
        (tmp_path / name).write_text(text)
        (tmp_path / f"{name}.z").write_bytes(gzip.compress(text.encode()))
    measures = ["AP", "nDCG@10", "P@5"]
    plain = rk.evaluate(tmp_path / "qrels", tmp_path / "run", measures)
    pd.testing.assert_frame_equal(rk.evaluate(tmp_path / "qrels.z", tmp_path / "run.z", measures),
                                  plain)


def test_arrow_decompresses_a_gzip_run_itself(tmp_path):
    if not _fast_read.available():
        pytest.skip("pyarrow is not installed")
    path = tmp_path / "run.gz"
    path.write_bytes(gzip.compress(b"q1 Q0 d1 1 0.5 s\nq1 Q0 d2 2 0.25 s\n"))
    qid, docno, values, _ = _fast_read.parse(str(path), rk.trec.lines.RUN_COLUMNS, "rank")
    assert docno.to_pylist() == ["d1", "d2"] and values.tolist() == [0.5, 0.25]
