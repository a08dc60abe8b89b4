r"""The offline protocol of recommender evaluation: sampled negatives and train/test splits.

Sampled metrics (Krichene and Rendle 2020): instead of ranking the held-out item among all N
items, many papers rank it among m negatives drawn uniformly without replacement from the other
N - 1 items. If r - 1 items score above it in the full ranking, the number X of them among the
m negatives is hypergeometric, and the sampled rank is 1 + X. ``sampled_hit_rate`` is the exact
expectation of the sampled HR@k, P(X <= k - 1), summed in integers.

Splits (Sun 2023; Hidasi and Czapp 2023): ``split_interactions`` makes a random, a global
temporal or a leave-last-out split of an interaction log, and reports the leakage each lets
in: test interactions that happened before the last training interaction (the model is
trained on the future of its test), and test interactions of users or items that training
never saw.

The chapter "Recommenders: beyond accuracy and the offline protocol"
(``book/recommenders.ipynb``) derives both.
"""

from __future__ import annotations

import itertools
import math
from typing import NamedTuple

import numpy as np

# pandas spelled out: Split's field types are shown on the API page as written.
import pandas

from rankedu.core.steps import Steps
from rankedu.core.validation import (
    as_count,
    as_cutoff,
    as_frame_with,
    as_open_probability,
    one_of,
)

__all__ = ["Leakage", "Split", "sampled_hit_rate", "split_interactions"]


def _sampled_hit_rate_steps(rank, n_items, n_negatives, k) -> Steps:
    n_items = as_cutoff(n_items, "n_items", allow_none=False)
    rank = as_cutoff(rank, "rank", allow_none=False, most=n_items,
                     why="the held-out item's rank among n_items")
    n_negatives = as_count(n_negatives, "n_negatives")
    if n_negatives > n_items - 1:
        raise ValueError(f"n_negatives must be at most n_items - 1 = {n_items - 1} (negatives "
                         f"are drawn without replacement from the other items), got "
                         f"{n_negatives}")
    k = as_cutoff(k, "k", allow_none=False)
    above, below = rank - 1, n_items - rank
    # X, the negatives that outrank the held-out item, can be at most min(above, m); the rows
    # stop there or at k - 1, whichever comes first: cost bounded by the input.
    x = np.arange(min(k - 1, above, n_negatives) + 1)
    draws = math.comb(n_items - 1, n_negatives)
    # The numerators are summed as Python integers and each running sum divided once, so the
    # last row is exactly 1.0 when every draw is counted (float sums overshot it by 4e-16).
    ways = [math.comb(above, int(j)) * math.comb(below, n_negatives - int(j)) for j in x]
    columns = {"X (negatives above)": x, "sampled rank": x + 1,
               "P(X)": np.array([w / draws for w in ways]),
               "P(sampled rank <= k) so far": np.array(
                   [total / draws for total in itertools.accumulate(ways)])}
    return Steps(float(columns["P(sampled rank <= k) so far"][-1]), {"sampled HR@k": columns})


def sampled_hit_rate(rank, n_items, n_negatives, k) -> float:
    r"""The expected sampled HR@k of a held-out item at full rank ``rank`` among ``n_items``.

    .. math:: \mathbb{E}[\mathrm{HR@}k] = P(X \le k - 1) = \sum_{x=0}^{k-1}
       \frac{\binom{r-1}{x}\binom{N-r}{m-x}}{\binom{N-1}{m}}

    X ~ Hypergeometric(N - 1 items, r - 1 of them above the held-out item, m draws): the m
    negatives are drawn uniformly without replacement from the N - 1 other items, and the
    held-out item's sampled rank is 1 + X. With m = N - 1 it is the full HR@k (1 if r <= k,
    else 0); with few negatives an item far down the full ranking still hits: N = 10,000,
    m = 100, r = 100 gives 1 - 5e-8 where the full HR@10 is 0. Computed exactly in integers.

    Parameters
    ----------
    rank : int
        The held-out item's rank among all ``n_items`` items, 1 to ``n_items``.
    n_items : int >= 1
        The size N of the catalogue it is ranked in.
    n_negatives : int
        The m sampled negatives, 0 to N - 1.
    k : int >= 1
        The cutoff.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Naming the argument: ``k`` < 1, a ``rank`` outside [1, N], ``n_negatives`` > N - 1.

    Notes
    -----
    The chapter :doc:`/book/recommenders` explains it.

    References
    ----------
    - ``krichene2020``: Krichene, W. and Rendle, S. (2020). On sampled metrics for item
      recommendation. KDD 2020.

    Examples
    --------
    >>> import rankedu as rk
    >>> round(rk.sampled_hit_rate(100, 10_000, 100, 10), 4)  # the full HR@10 is 0
    1.0
    >>> round(rk.sampled_hit_rate(1_000, 10_000, 100, 10), 4)
    0.4519
    """
    return _sampled_hit_rate_steps(rank=rank, n_items=n_items, n_negatives=n_negatives,
                                   k=k).value


class Leakage(NamedTuple):
    """What a split lets through, counted in test interactions."""

    #: test interactions earlier than the last training interaction
    test_before_train_end: int
    #: test interactions of a user with no training interaction
    unseen_users: int
    #: test interactions of an item with no training interaction
    unseen_items: int


class Split(NamedTuple):
    """A train/test split of an interaction log and its leakage report."""

    train: pandas.DataFrame
    test: pandas.DataFrame
    leakage: Leakage


def split_interactions(frame, *, kind="random", test_size=0.2, seed=0, user="user",
                       item="item", time="timestamp") -> Split:
    """Split an interaction log into training and test rows, and report the leakage.

    - ``"random"``: a seeded random ``test_size`` share of the rows (rounded) is the test
      set. Training holds interactions later than test ones.
    - ``"temporal"``: one global cut in time: the latest ``test_size`` share of the rows
      (rows sorted by time, ties kept in row order) is the test set. Nothing in training is
      later than the test set, but test users may be new.
    - ``"leave_last_out"``: each user's last interaction (by time, ties by row order) is
      their test row, for users with at least two. Training then holds other users'
      interactions later than a user's test row: the global timeline leaks (Sun 2023).

    Parameters
    ----------
    frame : pandas.DataFrame
        One row per interaction, with columns ``user``, ``item`` and ``time`` (names set by
        the keywords of the same names); ``time`` is anything that orders.
    kind : {"random", "temporal", "leave_last_out"}, default "random"
    test_size : float in (0, 1), default 0.2
        The test share of ``"random"`` and ``"temporal"`` (checked, unused by
        ``"leave_last_out"``).
    seed : int, default 0
        The seed of ``"random"``.
    user, item, time : str
        The column names.

    Returns
    -------
    Split
        ``train`` and ``test`` (rows of ``frame``, in its order) and ``leakage``: the test
        interactions earlier than the last training one, and those of users and of items
        training never saw.

    Raises
    ------
    ValueError
        Naming the argument: an unknown ``kind``, a missing column, an empty frame, a
        ``test_size`` outside (0, 1).

    Notes
    -----
    The chapter :doc:`/book/recommenders` explains it.

    References
    ----------
    - ``sun2023``: Sun, A. (2023). Take a fresh look at recommender systems from an evaluation
      standpoint. SIGIR 2023.
    - ``hidasi2023``: Hidasi, B. and Czapp, A. T. (2023). Widespread flaws in offline
      evaluation of recommender systems. RecSys 2023.

    Examples
    --------
    >>> import pandas as pd
    >>> import rankedu as rk
    >>> log = pd.DataFrame({"user": ["a", "a", "b", "b"], "item": [1, 2, 1, 3],
    ...                     "timestamp": [1, 2, 3, 4]})
    >>> split = rk.split_interactions(log, kind="leave_last_out")
    >>> split.test["item"].tolist(), split.leakage
    ([2, 3], Leakage(test_before_train_end=1, unseen_users=0, unseen_items=2))
    """
    kind = one_of(kind, "kind", ("random", "temporal", "leave_last_out"))
    test_size = as_open_probability(test_size, "test_size")
    frame = as_frame_with(frame, "frame", (user, item, time))
    order = np.argsort(frame[time].to_numpy(), kind="stable")
    in_test = np.zeros(len(frame), dtype=bool)
    if kind == "random":
        chosen = np.random.default_rng(seed).permutation(len(frame))
        in_test[chosen[:round(test_size * len(frame))]] = True
    elif kind == "temporal":
        in_test[order[len(frame) - round(test_size * len(frame)):]] = True
    else:
        # Positions, not index labels: the frame's index need not be unique.
        users = pandas.Series(order).groupby(frame[user].to_numpy()[order], sort=False)
        last = users.last()
        in_test[last[users.size() > 1].to_numpy()] = True
    train, test = frame[~in_test], frame[in_test]
    train_end = train[time].max() if len(train) else None
    leakage = Leakage(
        test_before_train_end=int((test[time] < train_end).sum()) if len(train) else 0,
        unseen_users=int((~test[user].isin(train[user])).sum()),
        unseen_items=int((~test[item].isin(train[item])).sum()),
    )
    return Split(train, test, leakage)
