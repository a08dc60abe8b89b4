"""rankedu/recommenders/protocol.py: the expected sampled hit rate against scipy's
hypergeometric distribution, exact enumeration of the samples and a Monte Carlo of the
protocol; the splits against their definitions and the leakage recounted by brute force."""

import itertools
import math

import numpy as np
import pandas as pd
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

import rankedu as rk


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 400).flatmap(lambda n: st.tuples(
    st.just(n), st.integers(1, n), st.integers(0, n - 1), st.integers(1, 30))))
def test_sampled_hit_rate_is_scipy_s_hypergeometric_tail(case):
    # From 2 items: scipy 1.x's hypergeom of an empty population (one item, no other to draw)
    # is nan; the test below checks that case.
    n_items, rank, n_negatives, k = case
    expected = scipy.stats.hypergeom(n_items - 1, rank - 1, n_negatives).cdf(k - 1)
    assert rk.sampled_hit_rate(rank, n_items, n_negatives, k) == pytest.approx(expected,
                                                                               abs=1e-12)


@pytest.mark.parametrize("n_items, n_negatives, k", [(7, 3, 1), (8, 4, 2), (6, 5, 3)])
def test_sampled_hit_rate_is_the_share_of_every_sample_that_hits(n_items, n_negatives, k):
    for rank in range(1, n_items + 1):
        others = [j for j in range(1, n_items + 1) if j != rank]
        samples = list(itertools.combinations(others, n_negatives))
        hits = sum(1 + sum(j < rank for j in sample) <= k for sample in samples)
        assert rk.sampled_hit_rate(rank, n_items, n_negatives, k) == pytest.approx(
            hits / len(samples), abs=1e-12)


@pytest.mark.parametrize("rank", [11, 100, 1_000, 2_000])
def test_sampled_hit_rate_is_what_the_sampling_protocol_gives_on_average(rank):
    n_items, n_negatives, k, runs = 10_000, 100, 10, 4_000
    rng = np.random.default_rng(rank)
    # Items 0 .. rank - 2 are the ones above the held-out item among the other n_items - 1.
    above = np.array([np.sum(rng.choice(n_items - 1, n_negatives, replace=False) < rank - 1)
                      for _ in range(runs)])
    hit_rate = np.mean(above <= k - 1)
    expected = rk.sampled_hit_rate(rank, n_items, n_negatives, k)
    spread = math.sqrt(max(expected * (1 - expected), 1e-4) / runs)
    assert abs(hit_rate - expected) <= 5 * spread


def test_sampled_hit_rate_with_every_negative_is_the_full_hit_rate():
    assert rk.sampled_hit_rate(1, 1, 0, 1) == 1.0
    assert [rk.sampled_hit_rate(r, 50, 49, 10) for r in (1, 10, 11, 50)] == [1.0, 1.0, 0.0, 0.0]


def test_krichene_and_rendle_s_example_a_rank_100_item_hits_where_the_full_hr_is_zero():
    assert rk.sampled_hit_rate(100, 10_000, 100, 10) == pytest.approx(1.0, abs=1e-7)
    assert round(rk.sampled_hit_rate(1_000, 10_000, 100, 10), 4) == 0.4519


@pytest.mark.parametrize("args, argument", [
    ((5, 10, 3, 0), "k"), ((0, 10, 3, 1), "rank"), ((11, 10, 3, 1), "rank"),
    ((5, 10, 10, 1), "n_negatives"), ((1, 0, 0, 1), "n_items"), ((1, 10, -1, 1), "n_negatives"),
])
def test_sampled_hit_rate_bad_input_names_the_argument(args, argument):
    with pytest.raises(ValueError, match=f"^{argument}"):
        rk.sampled_hit_rate(*args)


def generated_log(seed: int, n: int = 200) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"user": rng.integers(0, 25, n), "item": rng.integers(0, 40, n),
                         "timestamp": rng.integers(0, 1_000, n)},
                        index=rng.permutation(n) % 150)  # an index with repeats


def recounted(split, frame) -> rk.Leakage:
    train, test = split.train, split.test
    end = train["timestamp"].max()
    return rk.Leakage(sum(t < end for t in test["timestamp"]),
                      sum(u not in set(train["user"]) for u in test["user"]),
                      sum(i not in set(train["item"]) for i in test["item"]))


@pytest.mark.parametrize("kind", ["random", "temporal", "leave_last_out"])
@pytest.mark.parametrize("seed", range(3))
def test_a_split_partitions_the_log_and_reports_its_leakage(kind, seed):
    frame = generated_log(seed)
    split = rk.split_interactions(frame, kind=kind, test_size=0.25, seed=seed)
    assert len(split.train) + len(split.test) == len(frame)
    together = pd.concat([split.train, split.test]).sort_values(["user", "item", "timestamp"])
    assert together.to_numpy().tolist() == frame.sort_values(
        ["user", "item", "timestamp"]).to_numpy().tolist()
    assert split.leakage == recounted(split, frame)
    if kind != "leave_last_out":
        assert len(split.test) == round(0.25 * len(frame))


@pytest.mark.parametrize("seed", range(3))
def test_a_temporal_split_trains_on_nothing_later_than_its_test(seed):
    split = rk.split_interactions(generated_log(seed), kind="temporal")
    assert split.train["timestamp"].max() <= split.test["timestamp"].min()
    assert split.leakage.test_before_train_end == 0


@pytest.mark.parametrize("seed", range(3))
def test_leave_last_out_tests_each_user_s_latest_interaction(seed):
    frame = generated_log(seed)
    split = rk.split_interactions(frame, kind="leave_last_out")
    counts = frame["user"].value_counts()
    assert sorted(split.test["user"]) == sorted(counts[counts > 1].index)
    latest = frame.groupby("user")["timestamp"].max()
    assert (split.test["timestamp"].to_numpy() == latest[split.test["user"]].to_numpy()).all()
    assert split.leakage.unseen_users == 0


def test_a_random_split_is_seeded():
    frame = generated_log(0)
    first = rk.split_interactions(frame, seed=3).test
    assert first.equals(rk.split_interactions(frame, seed=3).test)
    assert not first.equals(rk.split_interactions(frame, seed=4).test)


@pytest.mark.parametrize("kwargs, argument", [
    ({"kind": "by_user"}, "kind"), ({"test_size": 1.0}, "test_size"),
    ({"time": "when"}, "frame"),
])
def test_split_bad_input_names_the_argument(kwargs, argument):
    with pytest.raises(ValueError, match=f"^{argument}"):
        rk.split_interactions(generated_log(0), **kwargs)
    with pytest.raises(ValueError, match="^frame"):
        rk.split_interactions(generated_log(0).iloc[:0])
