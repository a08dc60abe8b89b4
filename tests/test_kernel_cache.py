"""Tests of the per-run cache of the by-query kernels (``RankedRun.once``, ``running``,
``top_sum`` in rankedu/core/ranked.py).

The kernels share what they compute from a run (each query's bounds, running counts, running
DCG, ...) through a cache on the run: a kernel must give the very same doubles whether the cache
is empty or filled by the others, and a run made from another (cut at -M, condensed, reordered
by the tie orders, any ``dataclasses.replace``) must start with an empty cache.
"""

from dataclasses import fields, replace
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rankedu.core import ranked as ranked_module
from rankedu.core.ranked import (
    RankedRun, condensed_run, cumprod_by_query, cumsum_by_query, ranks_within,
)
from rankedu.trec import ties as _ties
from rankedu.trec.evaluate import _first, _prepare
from test_trec_eval_binary import written

MEASURES = ["all_trec", "nDCG(gains={1:3,2:9})@5", "nDCG(gains={1:3,2:9})@10",
            "G(gains={1:3,2:9})", "nDCGRel(gains={1:3,2:9})", "RelP(judged_only=True)@5",
            "AP@5", "RR@3", "Success@1", "Judged@5", "nDCG", "RR"]


def _prepared(tmp_path, seed, max_docs=None):
    """The parsed ``MEASURES`` and the ranked run of a generated graded collection."""
    qrels, run_file = written(tmp_path, seed, grades=(-1, 0, 1, 2, 3, 4))
    specs, joined, _, _ = _prepare(qrels, run_file, MEASURES, 1, "skip", None, False,
                                   "trec_eval", max_docs)
    return specs, joined.ranked


def _fresh(ranked: RankedRun) -> RankedRun:
    """The same run built anew from its fields: nothing cached."""
    return RankedRun(**{f.name: getattr(ranked, f.name) for f in fields(ranked) if f.init})


def _bits(values) -> bytes:
    """The values' exact doubles (a -0.0 differs from 0.0)."""
    return np.asarray(values, dtype=float).tobytes()


def _values(specs, ranked, ties="trec_eval") -> dict[str, bytes]:
    return {spec.name: _bits(spec.by_query(ranked, ties)) for spec in specs
            if ties != "average" or spec.measure.average is not None}


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("ties", ["trec_eval", "average"])
def test_every_kernel_gives_the_same_doubles_with_an_empty_or_a_filled_cache(tmp_path, seed,
                                                                              ties):
    specs, ranked = _prepared(tmp_path, seed)
    ranked = _ties.reorder(ranked, ties)
    filling = _values(specs, ranked, ties)  # each measure reads what the ones before cached
    filled = _values(specs[::-1], ranked, ties)  # everything cached
    alone = {spec.name: _values([spec], _fresh(ranked), ties) for spec in specs}
    for name, value in filling.items():
        assert value == filled[name] == alone[name][name], name


def test_a_run_made_from_another_does_not_read_its_cache(tmp_path):
    specs, ranked = _prepared(tmp_path, 3)
    _values(specs, ranked)
    assert ranked._cache  # filled
    condensed = replace(condensed_run(ranked), group=ranked.group[ranked.judged])  # as -J does
    made = {"cut (-M)": _first(ranked, 5), "condensed (-J)": condensed,
            "reordered": _ties.reorder(ranked, "optimistic"),
            "odd relevant": replace(ranked, relevant=ranked.relevant & (ranked.rank % 2 > 0))}
    for how, run in made.items():
        assert not run._cache, how
        assert _values(specs, run) == _values(specs, _fresh(run)), how
    assert _values(specs, made["cut (-M)"]) == _values(*_prepared(tmp_path, 3, max_docs=5))


@given(lengths=st.lists(st.integers(0, 12), min_size=1, max_size=8), data=st.data())
def test_top_sums_are_the_doubles_of_a_bincount_sum_of_the_top_k(lengths, data):
    # Counts of flags, and sums of fractions (the mean over tie orders) with -0.0 among them,
    # over the top k of each query: k for all, one per query, or None (every document).
    query = np.repeat(np.arange(len(lengths)), lengths)
    n = len(query)
    flags = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    shares = np.array(data.draw(st.lists(st.sampled_from([0.0, -0.0, 0.1, 1 / 3, 0.5, 0.7]),
                                         min_size=n, max_size=n)), dtype=float)
    k = data.draw(st.one_of(st.none(), st.integers(1, 14),
                            st.lists(st.integers(0, 14), min_size=len(lengths),
                                     max_size=len(lengths)).map(np.array)))
    none = np.zeros(0)
    ranked = RankedRun(n_queries=len(lengths), query=query, rank=ranks_within(query),
                       gain=shares, relevant=shares, judged=flags, n_relevant=none,
                       n_nonrelevant=none, ideal_query=none, ideal_rank=none, ideal_gain=none,
                       max_grade=1.0)
    top = np.ones(n, bool) if k is None else ranked.rank <= np.broadcast_to(k, len(lengths))[query]
    for name in ("judged", "relevant"):
        values = getattr(ranked, name)[top]
        expected = np.bincount(query[top], weights=values.astype(float), minlength=len(lengths))
        assert _bits(ranked.top_sum(name, k)) == _bits(expected), name


@given(lengths=st.lists(st.sampled_from([1, 2, 3, 5]), min_size=1, max_size=12),
       span=st.sampled_from([1, 4, 2**16]), data=st.data())
def test_running_sums_and_products_are_those_of_a_per_list_accumulate(lengths, span, data):
    # Spans of consecutive queries of one length are accumulated in place, the other queries in
    # padded blocks: both give each query's np.cumsum / np.cumprod doubles.
    query = np.repeat(np.arange(len(lengths)), lengths)
    values = np.array(data.draw(st.lists(st.floats(-1e3, 1e3), min_size=len(query),
                                         max_size=len(query))))
    lists = np.split(values, np.cumsum(lengths)[:-1])
    with patch.object(ranked_module, "_SPAN", span):
        assert _bits(cumsum_by_query(query, values)) == _bits(np.concatenate(
            [np.cumsum(x) for x in lists]))
        assert _bits(cumprod_by_query(query, values)) == _bits(np.concatenate(
            [np.cumprod(x) for x in lists]))
