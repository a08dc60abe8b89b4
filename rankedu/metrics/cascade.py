"""The cascade model, expected reciprocal rank (ERR), and cascade metrics in general.

The cascade user reads the list from the top and stops at rank i, satisfied, with probability
R_i (the book's calligraphic R), so the probability of stopping exactly at i is

    PP_i = R_i * prod_{j<i} (1 - R_j).

ERR (Chapelle et al., 2009) maps a grade g to R(g) = (2^g - 1) / 2^g_max, so R_i = R(rel_i),
and averages 1/i over where the user stops: ERR = sum_i PP_i / i. A *cascade metric* replaces
1/i by any position weight phi(i).

Conventions: ``max_grade`` (g_max) is a property of the grading scale — its top grade, 4 on a
0-4 scale — not the largest grade that happens to occur for one query, so that a query's ERR
does not change when other queries are judged; every grade must lie in [0, max_grade], so that
R(g) is a probability. ``rankedu.evaluate`` defaults it to 4, as gdeval (the TREC Web track's
ERR script) does. R(g) is computed in a form that does not overflow, so any scale works. The
chapter "The cascade model and ERR" (``book/cascade_err.ipynb``) derives them.
"""

from __future__ import annotations

import numbers

import numpy as np

from rankedu.core.common import last, satisfaction, top_k
from rankedu.core.ranked import cumprod_by_query, sum_by_query
from rankedu.core.steps import Steps
from rankedu.core.validation import (
    as_count,
    as_max_grade,
    as_numbers,
    as_probabilities,
)

__all__ = ["cascade_metric", "click_probabilities", "err", "simulate_cascade"]


def _stop_probabilities(rels, k, max_grade) -> dict[str, np.ndarray]:
    """Per rank: grade, R(g), probability of reaching the rank, and of stopping there."""
    grades = as_numbers(rels, "rels")
    max_grade = as_max_grade(max_grade)
    if (grades > max_grade).any():
        raise ValueError(
            f"rels holds a grade of {grades.max():g}, above max_grade={max_grade:g}; "
            "max_grade must be the top of the grading scale"
        )
    if (grades < 0).any():
        raise ValueError(
            f"rels holds a negative grade ({grades.min():g}); ERR needs grades in "
            f"[0, max_grade] so that R(g) is a probability"
        )
    grades, ranks = top_k(grades, k)
    satisfied = satisfaction(grades, max_grade)
    reach, stop = _reach_and_stop(satisfied)
    return {
        "i": ranks,
        "rel_i": grades,
        "R_i": satisfied,
        "P(reach i)": reach,
        "PP_i": stop,
    }


def _reach_and_stop(stop_given_reached: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The cascade itself: P(reach i) = prod_{j<i} (1 - p_j) and P(stop at i) = p_i P(reach i).

    ERR's PP_i (p = R(g)) and the click probabilities P(click at i) (p = attractiveness) are both
    this.
    """
    p = stop_given_reached
    reach = np.cumprod(np.r_[1.0, 1.0 - p[:-1]]) if len(p) else p
    return reach, reach * p


def _cascade_steps(rels, k, max_grade, weight_name: str, weights_of) -> Steps:
    """The cascade's table for position weights ``weights_of(ranks)``, ending in the metric."""
    columns = _stop_probabilities(rels, k, max_grade)
    columns[weight_name] = weights_of(columns["i"])
    columns[f"{weight_name}·PP_i"] = columns[weight_name] * columns["PP_i"]
    columns["metric@i"] = np.cumsum(columns[f"{weight_name}·PP_i"])
    return Steps(last(columns["metric@i"]), {"cascade": columns})


def _cascade_metric_steps(rels, phi, k, max_grade) -> Steps:
    if not callable(phi):
        raise TypeError(f"phi must be a callable taking a rank i >= 1, got {type(phi).__name__}")
    return _cascade_steps(rels, k, max_grade, "φ(i)", lambda ranks: _weights(phi, len(ranks)))


def _weights(phi, n: int) -> np.ndarray:
    """phi(1), ..., phi(n) as floats, or an error naming ``phi`` and the first bad rank."""
    weights = [phi(i) for i in range(1, n + 1)]
    # One check per type returned, not per rank: 10**6 ranks cost one pass in C.
    for kind in set(map(type, weights)):
        if issubclass(kind, (bool, np.bool_)) or not issubclass(kind, numbers.Real):
            i, weight = next((i, w) for i, w in enumerate(weights, start=1) if type(w) is kind)
            raise TypeError(
                f"phi must return a real number for every rank, got {weight!r} "
                f"({kind.__name__}) for i = {i}"
            )
    weights = np.array(weights, dtype=float)
    bad = np.flatnonzero(~np.isfinite(weights))
    if len(bad):
        raise ValueError(
            f"phi must return finite numbers for every rank, got {weights[bad[0]]} for i = {bad[0] + 1}"
        )
    return weights


def cascade_metric(rels, phi, k=None, *, max_grade) -> float:
    r"""A cascade metric: the expected position weight phi(i) at the rank where the user stops.

    .. math::

        M = \sum_{i=1}^{n} \varphi(i)\, PP_i, \qquad
        PP_i = \mathcal{R}_i \prod_{j<i} (1 - \mathcal{R}_j), \qquad
        \mathcal{R}_i = \frac{2^{\mathit{rel}_i} - 1}{2^{g_{\max}}}

    With phi(i) = 1/i it is :func:`err`. With phi(i) = 1/log2(i + 1) it is *not* DCG: the
    stopping probabilities still discount every document below a satisfying one. DCG with gain
    R(g) is sum_i phi(i) R_i, the expected satisfaction under Chapelle et al.'s position-based
    model, where the user examines rank i with probability phi(i) whatever happened above it
    (the R_i are not a stopping distribution: they need not sum to 1). The two agree when every
    R_i is small, since then prod_{j<i} (1 - R_j) is close to 1.

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first, each in [0, max_grade].
    phi : callable
        ``phi(i)`` for a rank ``i >= 1`` returns the weight of stopping at i.
    k : int >= 1 or None, optional
        Only the top ``k`` ranks are looked at.
    max_grade : float
        g_max, the top of the grading scale (a property of the scale, not of one query).

    Returns
    -------
    float

    Notes
    -----
    The chapter :doc:`/book/cascade_err` explains it.

    References
    ----------
    - ``chapelle2009``: Chapelle, O., Metzler, D., Zhang, Y. and Grinspan, P. (2009). Expected
      reciprocal rank for graded relevance. CIKM 2009, 621-630.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.cascade_metric([2, 1, 0], lambda i: 1 / i, max_grade=2) == rk.err([2, 1, 0], max_grade=2)
    True
    """
    return _cascade_metric_steps(rels=rels, phi=phi, k=k, max_grade=max_grade).value


def _err_steps(rels, k, max_grade) -> Steps:
    return _cascade_steps(rels, k, max_grade, "1/i", lambda ranks: 1.0 / ranks)


def _err_by_query(ranked, k=None) -> np.ndarray:
    """ERR (ERR@k) of every query at once, with g_max = ``ranked.max_grade``; the cascade's
    running product is taken within each query (no queries x depth matrix)."""
    top = slice(None) if k is None else ranked.rank <= k
    query, rank = ranked.query[top], ranked.rank[top]
    satisfied = satisfaction(ranked.gain[top], ranked.max_grade)
    not_yet = np.r_[1.0, 1.0 - satisfied[:-1]]
    not_yet[rank == 1] = 1.0  # each query starts afresh: P(reach rank 1) = 1
    reach = cumprod_by_query(query, not_yet)
    return sum_by_query(query, rank, reach * satisfied / rank, ranked.n_queries)


def err(rels, k=None, *, max_grade) -> float:
    r"""Expected reciprocal rank (Chapelle et al., 2009).

    .. math::

        ERR = \sum_{i=1}^{n} \frac{1}{i} \prod_{j<i} (1 - \mathcal{R}_j)\, \mathcal{R}_i, \qquad
        \mathcal{R}_i = \frac{2^{\mathit{rel}_i} - 1}{2^{g_{\max}}}

    The expected reciprocal of the rank at which a cascade user stops, satisfied. A highly
    relevant document near the top makes everything below it count less.

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first, each in [0, max_grade].
    k : int >= 1 or None, optional
        Only the top ``k`` ranks are looked at (``ERR@k``).
    max_grade : float
        g_max, the top of the grading scale (4 on a 0-4 scale): a property of the scale, not
        the largest grade of this query, so that a query's ERR does not change when other
        queries are judged. ``rankedu.evaluate`` defaults it to 4, as gdeval does; here it
        must be given. Any size works: R(g) is computed as 2^(g - g_max) - 2^(-g_max), which
        does not overflow.

    Returns
    -------
    float

    Notes
    -----
    The chapter :doc:`/book/cascade_err` explains it.

    References
    ----------
    - ``chapelle2009``: Chapelle, O., Metzler, D., Zhang, Y. and Grinspan, P. (2009). Expected
      reciprocal rank for graded relevance. CIKM 2009, 621-630.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.err([2, 1, 0], max_grade=2)  # 3/4 + (1/2)(1/4)(1/4)
    0.78125
    """
    return _err_steps(rels=rels, k=k, max_grade=max_grade).value


def _click_probabilities_steps(attractiveness) -> Steps:
    attractiveness = as_probabilities(attractiveness, "attractiveness")
    reach, click = _reach_and_stop(attractiveness)
    columns = {
        "i": np.arange(1, len(attractiveness) + 1),
        "r_i": attractiveness,
        "P(reach i)": reach,
        "P(click at i)": click,
        "P(click by i)": np.cumsum(click),
    }
    return Steps(click, {"clicks": columns})


def click_probabilities(attractiveness) -> np.ndarray:
    r"""The cascade model's probability of a click at each rank (Craswell et al., 2008).

    .. math:: P(\mathrm{click}_i) = r_i \prod_{j=1}^{i-1} (1 - r_j)

    The user reads from the top, clicks the document at rank i with probability r_i (its
    attractiveness) if she gets there, and stops after the first click. The probabilities sum
    to the probability of some click, 1 - prod_j (1 - r_j); the rest is "no click at all".
    ``rk.explain.click_probabilities`` shows the steps, ending in the probability of a click by
    rank i; its ``value`` is this same array. The chapter "The cascade model and ERR" (``book/cascade_err.ipynb``) checks the
    formula against simulated users (:func:`simulate_cascade`).

    Parameters
    ----------
    attractiveness : sequence of float
        r_i for ranks 1, 2, ..., each in [0, 1].

    Returns
    -------
    numpy.ndarray
        P(click at i) for each rank, same length as ``attractiveness``.

    Notes
    -----
    The chapter :doc:`/book/cascade_err` explains it.

    References
    ----------
    - ``craswell2008``: Craswell, N., Zoeter, O., Taylor, M. and Ramsey, B. (2008). An
      experimental comparison of click position-bias models. WSDM 2008, 87-94.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.click_probabilities([0.5, 0.5, 1.0]).tolist()
    [0.5, 0.25, 0.25]
    """
    return _click_probabilities_steps(attractiveness=attractiveness).value


def simulate_cascade(attractiveness, n_users, *, seed) -> np.ndarray:
    """Simulate ``n_users`` independent cascade users; return the rank each one clicked.

    Each user reads from rank 1. At each rank she reaches, a fresh uniform number below
    r_i means a click there, and she stops; otherwise she reads on. The result holds, for
    every user, the clicked rank (1-based) or 0 when she read the whole list without clicking,
    so ``numpy.bincount(clicks, minlength=n + 1)[1:] / n_users`` are the simulated click
    frequencies, to be compared with :func:`click_probabilities`.

    Parameters
    ----------
    attractiveness : sequence of float
        r_i for ranks 1, 2, ..., each in [0, 1].
    n_users : int >= 0
        How many users to simulate.
    seed : int or numpy.random.Generator
        Seed of ``numpy.random.default_rng``; the same seed gives the same clicks.

    Returns
    -------
    numpy.ndarray of int, shape (n_users,)

    Notes
    -----
    The chapter :doc:`/book/cascade_err` explains it.

    References
    ----------
    - ``craswell2008``: Craswell, N., Zoeter, O., Taylor, M. and Ramsey, B. (2008). An
      experimental comparison of click position-bias models. WSDM 2008, 87-94.

    Examples
    --------
    >>> import rankedu as rk
    >>> clicks = rk.simulate_cascade([1.0, 0.5], 4, seed=0)  # everyone clicks rank 1
    >>> clicks.tolist()
    [1, 1, 1, 1]
    """
    attractiveness = as_probabilities(attractiveness, "attractiveness")
    n_users = as_count(n_users, "n_users")
    rng = np.random.default_rng(seed)
    clicks = np.zeros(n_users, dtype=int)
    reading = np.arange(n_users)
    # Draw only for the users still reading, rank by rank, so memory stays O(n_users); stop
    # when none is left (drawing for no user draws nothing, so the clicks are the same).
    for rank, p in enumerate(attractiveness, start=1):
        if not len(reading):
            break
        clicked_here = rng.random(len(reading)) < p
        clicks[reading[clicked_here]] = rank
        reading = reading[~clicked_here]
    return clicks
