"""User models in the C/W/L framework: rank-biased precision (RBP), INST, and the machinery.

A C/W/L metric (Moffat et al., 2013, 2017) is a user who reads rank 1, and after reading rank i
**C**ontinues to rank i+1 with probability C(i). The probability of reaching rank i is
prod_{j<i} C(j); normalised to sum to 1 it is the **W**eight of rank i,

    W(i) = prod_{j<i} C(j) / sum_k prod_{j<k} C(j),

and L(i) = prod_{j<i} C(j) (1 - C(i)) is the probability that rank i is the **L**ast one read.
The metric is the expected rate of gain sum_i W(i) g_i, g_i the gain of the document at rank i.

- RBP (Moffat and Zobel, 2008): C(i) = p, a patience that does not depend on what was read. On a
  list read forever, W(i) = (1 - p) p^(i-1) and RBP = (1 - p) sum_i p^(i-1) g_i. The weight that
  falls past the end of the list, p^n, and on unjudged documents is RBP's *residual*: how much
  the score could still grow if they were relevant.
- INST (Moffat et al., 2015, 2017): C(i) = ((i + T + T_i - 1) / (i + T + T_i))^2, where
  T_i = T - sum_{j<=i} g_j is the gain still wanted after rank i: a user who wants T relevant
  documents reads on patiently while they are missing and leaves sooner once they are found.

Conventions are cwl-eval's (Azzopardi et al., 2019; version 1.0.12): gains lie in [0, 1] (1 a
relevant document, 0 a non-relevant or unjudged one; a graded scale is divided by its top
grade); a list is read to a fixed ``depth`` (1000), truncated there when longer and padded
with zero-gain documents when shorter, and W(i) is normalised over those ``depth`` ranks.
``rbp`` also offers ``depth=None``, the list read forever, which is Moffat and Zobel's RBP.
The chapter "User models" (``book/user_models.ipynb``) derives them and checks them
against cwl-eval.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rankedu.core.common import last
from rankedu.core.steps import Steps
from rankedu.core.validation import (
    as_cutoff,
    as_gains,
    as_labels,
    as_number,
    as_numbers,
    as_open_probability,
    as_probabilities,
    same_length,
)

__all__ = ["inst", "rbp", "rbp_trec", "rbp_trec_resid"]

#: cwl-eval's ``--max_depth``: how many ranks its user may read, the list padded with zero gains.
CWL_DEPTH = 1000

#: The largest ``depth`` accepted: the model computes one value per rank up to ``depth``.
MAX_DEPTH = 10**6

#: INST's target T must lie in [MIN_T, MAX_T]. Below 1/4, C(i) can leave [0, 1] (T = 0.1 gives
#: C(1) = 16): i + T + T_i = i + 2T - sum_{j<=i} g_j >= 2T, and ((x - 1) / x)^2 <= 1 needs
#: x >= 1/2. Above MAX_DEPTH the target exceeds the gain of the deepest list the model reads.
MIN_T, MAX_T = 0.25, float(MAX_DEPTH)

# One chunk of queries in a kernel holds at most this many (query, rank) cells.
_CHUNK_CELLS = 2**22


def _as_depth(depth, *, allow_none: bool) -> int | None:
    if depth is None and allow_none:
        return None
    if depth is None:
        raise ValueError("depth must be an int >= 1 (INST needs a depth to normalise over), got None")
    return as_cutoff(depth, "depth", allow_none=allow_none, most=MAX_DEPTH,
                     why="one value is computed per rank")


def _as_target(T) -> float:
    """INST's T as ``float``, in [MIN_T, MAX_T], or ValueError naming ``T``."""
    T = as_number(T, "T")
    if not MIN_T <= T <= MAX_T:
        raise ValueError(
            f"T must lie in [{MIN_T:g}, {MAX_T:g}] (below 1/4, C(i) is not a probability; "
            f"above, the target exceeds any list the model reads), got {T:g}")
    return T


def _rbp_continuation(gains: np.ndarray, p: float) -> np.ndarray:
    """RBP's C(i) = p at every rank (along the last axis)."""
    return np.full(np.shape(gains), p)


def _inst_continuation(gains: np.ndarray, T: float) -> np.ndarray:
    """INST's C(i) = ((i + T + T_i - 1) / (i + T + T_i))^2, T_i = T - sum_{j<=i} g_j.

    Written with cwl-eval's operations in its order, so that the products match its own.
    """
    rank = np.arange(1, np.shape(gains)[-1] + 1, dtype=float)
    still_wanted = T - np.cumsum(gains, axis=-1)
    return ((rank + T + still_wanted - 1.0) / (rank + T + still_wanted)) ** 2.0


def _cwl(continuation: np.ndarray) -> dict[str, np.ndarray]:
    """W(i) and L(i) from C(i) over the ranks of the last axis, as cwl-eval computes them.

    P(reach i) = prod_{j<i} C(j); W(i) = P(reach i) / sum_k P(reach k); L(i) = P(reach i)(1 - C(i)).
    """
    ones = np.ones(np.shape(continuation)[:-1] + (1,))
    reach = np.cumprod(np.concatenate([ones, continuation[..., :-1]], axis=-1), axis=-1)
    first = 1.0 / np.sum(reach, axis=-1, keepdims=True)
    return {"reach": reach, "W": reach * first, "L": reach * (1.0 - continuation)}


def cwl_weights(continuation):
    r"""W(i) and L(i) of the user model whose continuation probabilities are C(1), ..., C(d).

    .. math::

        W(i) = \frac{\prod_{j<i} C(j)}{\sum_{k=1}^{d} \prod_{j<k} C(j)}, \qquad
        L(i) = \prod_{j<i} C(j)\, (1 - C(i))

    Any C/W/L metric is sum_i W(i) g_i for its C: P@k has C(i) = 1 before rank k and 0 at k;
    RBP has C(i) = p. The model stops at rank d (cwl-eval's depth), so the L(i) sum to
    1 - prod_i C(i): what is missing is the chance of reading on past rank d.

    Parameters
    ----------
    continuation : sequence of float
        C(i) for ranks 1..d, each in [0, 1]; C(d) enters L(d) only.

    Returns
    -------
    pandas.DataFrame
        Columns ``i``, ``C(i)``, ``P(reach i)``, ``W(i)``, ``L(i)``.

    Raises
    ------
    ValueError
        Naming ``continuation`` when it is empty or holds a value outside [0, 1].

    Notes
    -----
    The chapter :doc:`/book/user_models` explains it.

    References
    ----------
    - ``moffat2017``: Moffat, A., Bailey, P., Scholer, F. and Thomas, P. (2017). Incorporating
      user expectations and behavior into the measurement of search effectiveness. ACM TOIS
      35(3), 24:1-24:38.

    Examples
    --------
    >>> from rankedu.metrics.user_models import cwl_weights
    >>> cwl_weights([1, 1, 0])  # P@3: the user reads three documents and stops
       i  C(i)  P(reach i)      W(i)  L(i)
    0  1   1.0         1.0  0.333333   0.0
    1  2   1.0         1.0  0.333333   0.0
    2  3   0.0         1.0  0.333333   1.0
    """
    continuation = as_probabilities(continuation, "continuation")
    if not len(continuation):
        raise ValueError("continuation must hold C(i) for at least one rank")
    model = _cwl(continuation)
    return pd.DataFrame({"i": np.arange(1, len(continuation) + 1), "C(i)": continuation,
                         "P(reach i)": model["reach"], "W(i)": model["W"], "L(i)": model["L"]})


def _padded(gains: np.ndarray, depth: int) -> np.ndarray:
    """The first ``depth`` gains, padded with zero-gain documents to ``depth`` (cwl-eval)."""
    return np.r_[gains[:depth], np.zeros(max(depth - len(gains), 0))]


def _table(name: str, gains, continuation, weight, stop) -> dict[str, np.ndarray]:
    """The per-rank table of a C/W/L metric over the documents of the list."""
    n = len(gains)
    contribution = weight[:n] * gains
    return {
        "i": np.arange(1, n + 1, dtype=np.int64),
        "rel_i": gains,
        "C(i)": continuation[:n],
        "W(i)": weight[:n],
        "L(i)": stop[:n],
        "W(i)·rel_i": contribution,
        f"{name}@i": np.cumsum(contribution),
    }


def _cwl_steps(name: str, gains: np.ndarray, continue_at, depth: int) -> Steps:
    """A C/W/L metric on one list read to ``depth`` ranks, zero-gain padded (cwl-eval's way)."""
    gains = gains[:depth]
    padded = _padded(gains, depth)
    continuation = continue_at(padded)
    model = _cwl(continuation)
    columns = _table(name, gains, continuation, model["W"], model["L"])
    n = len(gains)
    beyond = {
        "ranks": np.array([f"{n + 1}-{depth}" if n < depth else "none"]),
        "W (sum)": np.array([float(np.sum(model["W"][n:]))]),
        "L (sum)": np.array([float(np.sum(model["L"][n:]))]),
    }
    # The value is cwl-eval's own expression, np.dot(W, gains) over the padded ranks (the
    # running column sums the same terms in another order: they agree to within 1e-15).
    value = np.dot(model["W"], padded)
    return Steps(value, {name: columns, "past the end of the list": beyond})


def _rbp_steps(rels, p=0.8, *, depth=None, judged=None) -> Steps:
    gains = as_gains(rels, "rels")
    p = as_open_probability(p, "p", " (the probability of reading on)")
    depth = _as_depth(depth, allow_none=True)
    if judged is not None:
        judged = as_labels(judged, "judged")
        same_length(rels=gains, judged=judged)
    if depth is not None:
        steps = _cwl_steps("RBP", gains, lambda g: _rbp_continuation(g, p), depth)
        past_end = float(steps.tables["past the end of the list"]["W (sum)"][0])
        table = steps.tables["RBP"]
    else:
        # Read forever: sum_k p^(k-1) = 1 / (1 - p), so W(i) = L(i) = (1 - p) p^(i-1), and the
        # ranks after the n-th hold the weight p^n.
        continuation = _rbp_continuation(gains, p)
        reach = np.cumprod(np.r_[1.0, continuation[:-1]]) if len(gains) else gains
        weight = (1.0 - p) * reach
        table = _table("RBP", gains, continuation, weight, weight)
        past_end = p ** len(gains)
    # Past depth the model reads nothing: only the judgments of the ranks it reads count.
    read = judged if judged is None else judged[:len(table["W(i)"])]
    unjudged = 0.0 if read is None else float(np.sum(table["W(i)"][read == 0]))
    residual = {
        "where": np.array(["unjudged documents", "past the end of the list", "residual"]),
        "weight": np.array([unjudged, past_end, unjudged + past_end]),
    }
    # RBP's W(i) do not depend on the gains, so its value is the running sum over the list's
    # own ranks, as the kernel sums them; with a depth, cwl-eval's dot over the padded ranks
    # adds the same terms in another order (they agree to within 1e-16).
    return Steps(last(table["RBP@i"]), {"RBP": table, "residual": residual})


def rbp(rels, p=0.8, *, depth=None, judged=None) -> float:
    r"""Rank-biased precision (Moffat and Zobel, 2008): the expected rate of gain of a user
    who reads on from each rank with probability p.

    .. math::

        \mathrm{RBP} = (1 - p) \sum_{i=1}^{n} p^{\,i-1}\, g_i

    In the C/W/L framework C(i) = p, so W(i) = L(i) = (1 - p) p^(i-1): the user reads about
    1 / (1 - p) documents (5 for p = 0.8). Ranks after the list's last document count as gain 0;
    their weight p^n, and the weight of unjudged documents (``judged``), is RBP's *residual*:
    the most the score could rise if all of them were relevant. ``rk.explain.rbp`` shows the
    C(i), W(i), L(i) table and the residual.

    Parameters
    ----------
    rels : sequence of float
        Gains of the retrieved documents in rank order, each in [0, 1]: 1 for a relevant
        document, 0 for a non-relevant or unjudged one (a graded scale divided by its top grade).
    p : float, default 0.8
        Persistence, the probability of reading on after each document; in (0, 1).
    depth : int >= 1 or None, default None
        None: the list is read forever (Moffat and Zobel's RBP). An int: cwl-eval's convention,
        the user reads ``depth`` ranks at most (1000 in cwl-eval and ``rankedu.evaluate``), the
        list truncated or padded with zero gains to that depth and W(i) normalised over it:
        W(i) = p^(i-1) (1 - p) / (1 - p^depth). This differs from ``depth=None`` by the factor
        1 / (1 - p^depth), 1 + 1.2e-97 for p = 0.8 at depth 1000.
    judged : sequence of bool, optional
        Which documents of ``rels`` were judged; only the residual of ``rk.explain.rbp`` reads
        it (an unjudged document counts gain 0 in the score).

    Returns
    -------
    float
        In [0, 1]; 0.0 for an empty list.

    Raises
    ------
    ValueError
        Naming ``rels`` for a gain outside [0, 1], ``p`` outside (0, 1), ``depth`` < 1, or
        ``judged`` of another length than ``rels``.

    Notes
    -----
    The chapter :doc:`/book/user_models` explains it.

    References
    ----------
    - ``moffat2008``: Moffat, A. and Zobel, J. (2008). Rank-biased precision for measurement of
      retrieval effectiveness. ACM TOIS 27(1), 2:1-2:27.
    - ``moffat2017``: Moffat, A., Bailey, P., Scholer, F. and Thomas, P. (2017). Incorporating
      user expectations and behavior into the measurement of search effectiveness. ACM TOIS
      35(3), 24:1-24:38.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.rbp([1, 0, 1], p=0.5)  # (1 - 0.5) (1 + 0.5^2)
    0.625
    """
    return _rbp_steps(rels=rels, p=p, depth=depth, judged=judged).value


def _rbp_trec_steps(rels, pool=None, p=0.9) -> Steps:
    grades = as_numbers(rels, "rels")
    top = max(1.0, float(np.max(as_numbers(grades if pool is None else pool, "pool"),
                                initial=0.0)))
    steps = _rbp_steps(grades / top, p)
    table = {"i": steps.tables["RBP"]["i"], "grade_i": grades, **steps.tables["RBP"]}
    return Steps(steps.value, {"RBP": table, "gain = grade / max(1, top grade)":
                               {"top grade of the pool": np.array([top])}})


def rbp_trec(rels, pool=None, p=0.9) -> float:
    r"""trec_eval's rbp: rank-biased precision over the whole list, each grade divided by the
    top grade of the query's judgments (when above 1), persistence 0.9 by default.

    .. math::

        \mathrm{rbp} = (1 - p) \sum_{i=1}^{n} p^{\,i-1}\, \frac{g_i}{\max(1, g_{\max})}

    Moffat and Zobel's RBP, :func:`rbp` with ``depth=None``, on trec_eval's gains (m_rbp.c):
    its gain parameters scale the grades into [0, 1] per query, so a query judged 0..4 reads a
    grade 2 as 0.5 and a query judged 0..2 reads it as 1. The list is read to its end, not
    padded to a depth (cwl-eval's convention, the registry's ``RBP``).

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first, each >= 0.
    pool : sequence of float, optional
        Grades of every judged document of the query: its largest is g_max. Defaults to
        ``rels``.
    p : float, default 0.9
        Persistence, the probability of reading on; in (0, 1).

    Returns
    -------
    float
        In [0, 1].

    Raises
    ------
    ValueError
        Naming ``rels`` for a grade below 0 or above the pool's largest one, ``p`` outside
        (0, 1).

    Notes
    -----
    The chapter :doc:`/book/user_models` explains RBP.

    References
    ----------
    - ``moffat2008``: Moffat, A. and Zobel, J. (2008). Rank-biased precision for measurement of
      retrieval effectiveness. ACM TOIS 27(1), 2:1-2:27.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.rbp_trec([2, 0, 4], pool=[4, 2, 0], p=0.5)  # 0.5 (0.5 + 0.25 * 1)
    0.375
    """
    return _rbp_trec_steps(rels=rels, pool=pool, p=p).value


def _rbp_trec_resid_steps(judged, p=0.9) -> Steps:
    judged = as_labels(judged, "judged")
    steps = _rbp_steps(np.zeros(len(judged)), p, judged=judged)
    residual = steps.tables["residual"]
    counted = residual["weight"][-1] if (judged == 0).any() else 0.0
    table = {"where": np.r_[residual["where"][:2], ["rbp_resid (0 when every one is judged)"]],
             "weight": np.r_[residual["weight"][:2], counted]}
    return Steps(counted, {"rbp_resid": table})


def rbp_trec_resid(judged, p=0.9) -> float:
    r"""trec_eval's rbp_resid: RBP's residual, the most RBP could still rise, when the list holds
    an unjudged document; else 0.

    .. math::

        \mathrm{rbp\_resid} = p^{\,n} + (1 - p) \sum_{i:\ 	ext{unjudged}} p^{\,i-1}

    The weight of the unjudged documents plus that of the ranks past the list's end,
    :math:`p^n` (m_rbp_resid.c). trec_eval reports 0, not :math:`p^n`, for a list whose every
    document was judged.

    Parameters
    ----------
    judged : sequence of bool
        Whether each retrieved document, in rank order, was judged (a negative qrels grade is
        "pooled but not judged").
    p : float, default 0.9
        Persistence, in (0, 1).

    Returns
    -------
    float
        In [0, 1].

    Notes
    -----
    The chapter :doc:`/book/user_models` explains RBP's residual.

    References
    ----------
    - ``moffat2008``: Moffat, A. and Zobel, J. (2008). Rank-biased precision for measurement of
      retrieval effectiveness. ACM TOIS 27(1), 2:1-2:27.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.rbp_trec_resid([True, False], p=0.5)  # 0.5^2 + 0.5 * 0.5
    0.5
    >>> rk.rbp_trec_resid([True, True], p=0.5)
    0.0
    """
    return _rbp_trec_resid_steps(judged=judged, p=p).value


def _inst_steps(rels, T=1.0, *, depth=CWL_DEPTH) -> Steps:
    gains = as_gains(rels, "rels")
    T = _as_target(T)
    depth = _as_depth(depth, allow_none=False)
    return _cwl_steps("INST", gains, lambda g: _inst_continuation(g, T), depth)


def inst(rels, T=1.0, *, depth=CWL_DEPTH) -> float:
    r"""INST (Moffat et al., 2015, 2017): the expected rate of gain of a user who wants T units
    of gain and reads on more readily while they are still missing.

    .. math::

        C(i) = \left(\frac{i + T + T_i - 1}{i + T + T_i}\right)^2, \qquad
        T_i = T - \sum_{j \le i} g_j, \qquad
        \mathrm{INST} = \sum_{i=1}^{d} W(i)\, g_i, \qquad
        W(i) = \frac{\prod_{j<i} C(j)}{\sum_{k=1}^{d} \prod_{j<k} C(j)}

    As in cwl-eval (1.0.12), the list is read to depth d = ``depth``: truncated there when
    longer, padded with zero-gain documents when shorter, and W(i) normalised over those d
    ranks. ``rk.explain.inst`` shows the C(i), W(i), L(i) table; a final table gives the weight
    that falls on the padding.

    Parameters
    ----------
    rels : sequence of float
        Gains of the retrieved documents in rank order, each in [0, 1] (1 relevant, 0 not or
        unjudged; divide a graded scale by its top grade).
    T : float in [0.25, 1e6], default 1.0
        The user's target: how much gain (how many relevant documents) is wanted. Below 1/4
        C(i) is not always a probability (cwl-eval 1.0.12 accepts such T and returns C(1) = 16
        for T = 0.1, or NaN for T = 1e-300); above 10^6, the most gain a list of ``depth``
        ranks can hold, nothing changes but the chance of overflow.
    depth : int >= 1, default 1000
        The ranks the model reads (cwl-eval's ``--max_depth``).

    Returns
    -------
    float
        In [0, 1]; 0.0 for an empty list.

    Raises
    ------
    ValueError
        Naming ``rels`` for a gain outside [0, 1], ``T`` outside [0.25, 1e6], ``depth`` for
        depth < 1 or above 10^6.

    Notes
    -----
    The chapter :doc:`/book/user_models` explains it.

    References
    ----------
    - ``moffat2015``: Moffat, A., Bailey, P., Scholer, F. and Thomas, P. (2015). INST: an
      adaptive metric for information retrieval evaluation. ADCS 2015, 5:1-5:4.
    - ``moffat2017``: Moffat, A., Bailey, P., Scholer, F. and Thomas, P. (2017). Incorporating
      user expectations and behavior into the measurement of search effectiveness. ACM TOIS
      35(3), 24:1-24:38.
    - ``azzopardi2019``: Azzopardi, L., Thomas, P. and Moffat, A. (2019). cwl_eval: an
      evaluation tool for information retrieval. SIGIR 2019, 1321-1324.

    Examples
    --------
    >>> import rankedu as rk
    >>> round(rk.inst([1, 0, 1], T=1), 4)
    0.7233
    >>> round(rk.inst([1, 0, 1], T=1, depth=3), 4)  # C(1) = 1/4, C(2) = 4/9: W = 36/49, 9/49, 4/49
    0.8163
    """
    return _inst_steps(rels=rels, T=T, depth=depth).value


def _by_query(ranked, continue_at, depth: int) -> np.ndarray:
    """A C/W/L metric of every query of a ``RankedRun``, each list read to ``depth`` ranks.

    Each query's top ``depth`` gains go into a row of ``depth`` cells, zero-padded as cwl-eval
    pads them, and the rows go through the very functions the per-list metric uses: the values
    equal the per-list ones exactly. Rows are taken a chunk of queries at a time, so memory
    stays bounded whatever the number of queries, but the cost is queries x depth: only a
    metric whose C(i) depends on the gains (INST) needs it. The grades were checked to lie in
    [0, 1] against the whole qrels (``rankedu.trec.join._max_grade``).
    """
    gains = ranked.gain
    top = ranked.rank <= depth
    query, column, gains = ranked.query[top], ranked.rank[top] - 1, gains[top]
    values = np.zeros(ranked.n_queries)
    chunk = max(1, _CHUNK_CELLS // depth)
    bounds = np.searchsorted(query, np.arange(0, ranked.n_queries + chunk, chunk))
    for start, (lo, hi) in zip(range(0, ranked.n_queries, chunk), zip(bounds[:-1], bounds[1:])):
        rows = min(chunk, ranked.n_queries - start)
        block = np.zeros((rows, depth))
        block[query[lo:hi] - start, column[lo:hi]] = gains[lo:hi]
        weight = _cwl(continue_at(block))["W"]
        values[start:start + rows] = [np.dot(w, g) for w, g in zip(weight, block)]
    return values


def _rbp_by_query(ranked, k=None, *, p=0.8, depth=CWL_DEPTH) -> np.ndarray:
    """RBP of every query at once, read to ``depth`` ranks as cwl-eval reads them.

    RBP's W(i) = p^(i-1) (1 - p) / (1 - p^depth) are the same for every list: they are
    computed once, as the per-list function computes them, and each query sums W(i) g_i over
    its own ranks (no padding), so the cost is the run's length, not queries x depth.
    """
    p = as_open_probability(p, "p", " (the probability of reading on)")
    depth = _as_depth(depth, allow_none=False)
    weight = _cwl(_rbp_continuation(np.zeros(depth), p))["W"]
    at = np.minimum(ranked.rank, depth) - 1  # ranks past depth are cut by sum_by_query
    return ranked.sum_by_query(weight[at] * ranked.gain, k=depth)


def _inst_by_query(ranked, k=None, *, T=1.0, depth=CWL_DEPTH) -> np.ndarray:
    """INST of every query at once, read to ``depth`` ranks as cwl-eval reads them."""
    T = _as_target(T)
    depth = _as_depth(depth, allow_none=False)
    return _by_query(ranked, lambda g: _inst_continuation(g, T), depth)


def _rbp_trec_weights(ranked, p: float) -> np.ndarray:
    """(1 - p) p^(i-1) at each retrieved document's rank i."""
    p = as_open_probability(p, "p", " (the probability of reading on)")
    return (1.0 - p) * p ** (ranked.rank - 1.0)


def _rbp_trec_by_query(ranked, k=None, *, p=0.9) -> np.ndarray:
    """trec_eval's rbp of every query at once: each grade over its query's top grade (> 1)."""
    top = np.ones(ranked.n_queries)
    np.maximum.at(top, ranked.ideal_query, ranked.ideal_gain)
    at = np.flatnonzero(ranked.gain)  # the others score 0: the sum is the same double
    query = ranked.query[at]
    score = ranked.once(_rbp_trec_weights, p)[at] * ranked.gain[at] / top[query]
    return np.bincount(query, weights=score, minlength=ranked.n_queries)


def _rbp_trec_resid_by_query(ranked, k=None, *, p=0.9) -> np.ndarray:
    """trec_eval's rbp_resid of every query at once."""
    unjudged = ~ranked.judged
    weight = ranked.sum_by_query(ranked.once(_rbp_trec_weights, p) * unjudged)
    length = ranked.n_retrieved
    some = ranked.top_sum("judged") < length
    return np.where(some, p ** length + weight, 0.0)
