"""Tests of rankedu/_trec_load.py: the shared vocabulary of a pair of inputs and the docno order
(how files are read is tested through read_run and read_qrels in test_trec_files.py)."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rankedu._trec_load import _docno_order, _load_pair

# Every test runs on both readers (conftest's ``reader``): pyarrow's and pandas alone.
pytestmark = pytest.mark.usefixtures("reader")


def test_qrels_and_run_cannot_both_come_from_standard_input():
    with pytest.raises(ValueError, match="standard input"):
        _load_pair("-", "-")


def test_a_pair_shares_one_vocabulary_so_equal_codes_mean_equal_documents(trec_case):
    judged, ranking = _load_pair(trec_case.qrels, trec_case.run)
    assert judged.docnos is ranking.docnos and judged.qids is ranking.qids
    assert list(judged.qids) == sorted(trec_case.qrels)
    judged_pairs = set(zip(judged.qids[judged.qid_codes], judged.docnos[judged.doc_codes]))
    assert judged_pairs == {(q, d) for q, docs in trec_case.qrels.items() for d in docs}
    ranked = dict(zip(zip(ranking.qids[ranking.qid_codes], ranking.docnos[ranking.doc_codes]),
                      ranking.values))
    assert ranked == {(q, d): s for q, docs in trec_case.run.items() for d, s in docs.items()}


@given(st.lists(st.text(alphabet="ab9Zé文-_.", min_size=1, max_size=4), max_size=40),
       st.data())
def test_docno_order_ranks_docnos_in_string_order_comparing_only_those_asked(names, data):
    docnos = pd.Index(list(dict.fromkeys(names)), dtype=str)
    codes = np.array(data.draw(st.lists(st.integers(0, max(len(docnos) - 1, 0)),
                                        max_size=20 if len(docnos) else 0)), dtype=np.int64)
    order = _docno_order(docnos, codes)
    assert order.dtype == np.int64 and order.shape == codes.shape
    chosen = [docnos[c] for c in codes]
    # trec_eval compares with strcmp, byte by byte: that is the order of the UTF-8 bytes.
    for i in range(len(codes)):
        for j in range(len(codes)):
            a, b = chosen[i].encode("utf-8"), chosen[j].encode("utf-8")
            assert (order[i] < order[j]) == (a < b) and (order[i] == order[j]) == (a == b)
