"""Cumulative gain, discounted cumulative gain, ideal DCG and normalised DCG.

Conventions:

- Gain ``"linear"`` is the grade itself, g; ``"exponential"`` is 2^g - 1 (Burges et al., 2005).
  The two agree on binary grades. A DCG that overflows a float (2^g is infinite from g = 1024
  on) is a ``ValueError`` naming ``rels`` or ``pool``, never ``inf`` or NaN.
- Discount ``"log2"`` divides the gain at rank i by log2(i + 1). ``"jarvelin"`` is the original
  of Järvelin and Kekäläinen (2002) with a log base b (``base``, default 2): no discount at the
  ranks i <= b, then 1/log_b(i). A larger b models a more patient user.
- The ideal DCG is the DCG of ``pool`` — the grades of every judged document of the query,
  retrieved or not — sorted by grade, highest first, and cut at ``k`` (trec_eval's ``ndcg`` and
  ``ndcg_cut``). ``pool`` defaults to ``rels``, which is what scikit-learn's ``ndcg_score`` does.
  A given ``pool`` must hold every positive grade of ``rels`` at least as often as ``rels``
  does (a retrieved relevant document is a judged one); otherwise NDCG could exceed 1, and it
  is a ``ValueError`` naming ``pool``.
- NDCG is 0.0 when the ideal DCG is 0 (no document with a positive gain).
- Grades are taken at face value, negative ones included (a penalty for bad documents); NDCG
  is then no longer confined to [0, 1], and an ideal DCG below 0 raises ``ValueError``, since
  dividing by it would reverse the order of rankings. ``rankedu.evaluate`` differs, as
  trec_eval does: trec_eval reads a negative grade in the qrels as "pooled but not judged"
  (``form_res_rels.c``) and gives it gain 0 in its nDCG.

The book's chapter "From cumulative gain to NDCG" (``book/ndcg.ipynb``) derives them.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from dataclasses import replace

import numpy as np

from rankedu.core.common import last, top_k
from rankedu.core.ranked import at_cut, cumsum_by_query, ranks_within, safe_divide
from rankedu.core.steps import Steps
from rankedu.core.validation import as_above, as_number, as_numbers, one_of

__all__ = ["bin_g", "cumulative_gain", "dcg", "g", "idcg", "ndcg", "ndcg_rel", "rndcg"]

# Each gain and discount: its column title in the explanation, and the function. A discount
# takes the ranks and the log base b (only "jarvelin" has one; "log2" is fixed to base 2).
GAINS = {
    "linear": ("rel_i", lambda grades: grades),
    "exponential": ("2^rel_i - 1", lambda grades: np.exp2(grades) - 1.0),
}
DISCOUNTS = {
    "log2": ("log2(i+1)", lambda ranks, base=2.0: np.log2(ranks + 1.0)),
    "jarvelin": (
        "max(1, log{base} i)",
        lambda ranks, base=2.0: np.maximum(1.0, np.log2(ranks) / np.log2(base)),
    ),
}


def _as_base(base, discount: str) -> float:
    """The log base b of the discount: > 1, and 2 unless the discount is Järvelin's."""
    base = as_above(base, "base", 1)
    if discount == "log2" and base != 2:
        raise ValueError(
            f"base must be 2 with discount='log2' (log2(i + 1) has no other base), got {base:g}; "
            "use discount='jarvelin' for Järvelin and Kekäläinen's discount with base b"
        )
    return base


def _cumulative_gain_steps(rels, k=None) -> Steps:
    grades, ranks = top_k(as_numbers(rels, "rels"), k)
    columns = {"i": ranks, "rel_i": grades, "CG@i": np.cumsum(grades)}
    return Steps(last(columns["CG@i"]), {"CG": columns})


def cumulative_gain(rels, k=None) -> float:
    r"""Cumulative gain: the sum of the grades in the top ``k``.

    .. math:: CG@k = \sum_{i=1}^{k} \mathrm{rel}_i

    It ignores order: any permutation of the top ``k`` has the same CG.

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    k : int >= 1 or None, optional
        The cutoff; the whole list by default.

    Returns
    -------
    float

    Notes
    -----
    The chapter :doc:`/book/ndcg` explains it.

    References
    ----------
    - ``jarvelin2002``: Järvelin, K. and Kekäläinen, J. (2002). Cumulated gain-based evaluation
      of IR techniques. ACM Transactions on Information Systems 20(4), 422-446.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.cumulative_gain([3, 2, 3, 0, 1, 2])
    11.0
    >>> rk.cumulative_gain([3, -1, 1]) == rk.cumulative_gain([-1, 1, 3])
    True
    """
    return _cumulative_gain_steps(rels=rels, k=k).value


def _dcg_columns(grades: np.ndarray, k, gain: str, discount: str, base, name: str) -> dict[str, np.ndarray]:
    gain_name, gain_of = GAINS[one_of(gain, "gain", tuple(GAINS))]
    discount_name, discount_of = DISCOUNTS[one_of(discount, "discount", tuple(DISCOUNTS))]
    base = _as_base(base, discount)
    discount_name = discount_name.format(base=f"{base:g}")
    grades, ranks = top_k(grades, k)
    columns = {"i": ranks, "rel_i": grades}
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported just below
        if gain != "linear":
            columns[gain_name] = gain_of(grades)
        columns[discount_name] = discount_of(ranks, base)
        term = f"{gain_name}/{discount_name}" if gain == "linear" else f"({gain_name})/{discount_name}"
        columns[term] = gain_of(grades) / columns[discount_name]
        columns["DCG@i"] = np.cumsum(columns[term])
    if not np.isfinite(columns["DCG@i"]).all():
        raise ValueError(
            f"{name}: the DCG of these grades overflows a float (largest grade "
            f"{grades.max():g}, gain={gain!r}; 2^g - 1 is infinite from g = 1024 on)"
        )
    return columns


def _dcg_steps(rels, k=None, gain="linear", discount="log2", base=2, *, ideal=False) -> Steps:
    name = "pool" if ideal else "rels"
    grades = as_numbers(rels, name)
    if ideal:
        grades = np.sort(grades)[::-1]
    columns = _dcg_columns(grades, k, gain, discount, base, name)
    return Steps(last(columns["DCG@i"]), {"ideal DCG" if ideal else "DCG": columns})


def dcg(rels, k=None, *, gain="linear", discount="log2", base=2) -> float:
    r"""Discounted cumulative gain of the top ``k``.

    .. math:: DCG@k = \sum_{i=1}^{k} \frac{\mathrm{gain}(\mathrm{rel}_i)}{\mathrm{discount}(i)}

    Why a logarithm: a user reads down the list and is ever less likely to get to the next
    rank, so a document's gain should count less the lower it is ranked; dividing by a
    logarithm of the rank reduces the credit smoothly and slowly, so that documents far down
    the list still count (Järvelin and Kekäläinen, 2002). Their log base b models the user's
    patience: no discount for the first b ranks, and the larger b, the gentler the discount
    after them (b = 2 halves the credit by rank 4; b = 10 leaves the first ten ranks whole and
    halves it only at rank 100).

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first, taken at face value
        (a negative grade lowers the DCG).
    k : int >= 1 or None, optional
        The cutoff; the whole list by default. Ranks past the end of a short list add nothing.
    gain : {"linear", "exponential"}, default "linear"
        ``"linear"``: gain = g. ``"exponential"``: gain = 2^g - 1 (Burges et al., 2005).
    discount : {"log2", "jarvelin"}, default "log2"
        ``"log2"``: divide by log2(i + 1). ``"jarvelin"``: divide by max(1, log_b(i)) —
        1 for the ranks i <= b, log_b(i) after (Järvelin and Kekäläinen's original).
    base : float > 1, default 2
        The log base b of the ``"jarvelin"`` discount; with ``"log2"`` it must be 2.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        When the DCG overflows a float (with exponential gain, from a grade of 1024 on).

    See Also
    --------
    idcg, ndcg, cumulative_gain

    Notes
    -----
    The chapter :doc:`/book/ndcg` explains it.

    References
    ----------
    - ``jarvelin2002``: Järvelin, K. and Kekäläinen, J. (2002). Cumulated gain-based evaluation
      of IR techniques. ACM Transactions on Information Systems 20(4), 422-446.
    - ``burges2005``: Burges, C., Shaked, T., Renshaw, E., Lazier, A., Deeds, M., Hamilton, N.
      and Hullender, G. (2005). Learning to rank using gradient descent. ICML 2005, 89-96.

    Examples
    --------
    Six ranked documents graded 3, 2, 3, 0, 1 and 2:

    >>> import rankedu as rk
    >>> round(rk.dcg([3, 2, 3, 0, 1, 2]), 4)
    6.8611
    >>> round(rk.dcg([3, 2, 3, 0, 1, 2], gain="exponential"), 4)
    13.8483

    A patient user (base 3) discounts neither of the first three ranks:

    >>> rk.dcg([1, 1, 1], discount="jarvelin", base=3)
    3.0
    """
    return _dcg_steps(rels=rels, k=k, gain=gain, discount=discount, base=base).value


def _idcg_steps(pool, k=None, gain="linear", discount="log2", base=2) -> Steps:
    return _dcg_steps(pool, k, gain, discount, base, ideal=True)


def idcg(pool, k=None, *, gain="linear", discount="log2", base=2) -> float:
    r"""Ideal DCG: the DCG of ``pool`` sorted by grade, highest first, cut at ``k``.

    .. math:: IDCG@k = DCG@k(\mathrm{sort}_{\downarrow}(\text{pool}))

    ``pool`` holds the grades of every judged document of the query, retrieved or not: the best
    ranking a system could have produced. Using only the retrieved documents instead would let a
    system that misses the best documents still reach NDCG 1.

    Parameters
    ----------
    pool : sequence of float
        Grades of every judged document of the query, in any order, taken at face value.
    k : int >= 1 or None, optional
        The cutoff; the whole pool by default.
    gain, discount, base
        As for :func:`dcg`.

    Returns
    -------
    float

    Notes
    -----
    The chapter :doc:`/book/ndcg` explains it.

    References
    ----------
    - ``jarvelin2002``: Järvelin, K. and Kekäläinen, J. (2002). Cumulated gain-based evaluation
      of IR techniques. ACM Transactions on Information Systems 20(4), 422-446.

    Examples
    --------
    >>> import rankedu as rk
    >>> round(rk.idcg([3, 2, 3, 0, 1, 2, 3, 0], 6), 4)
    8.3841
    """
    return _idcg_steps(pool=pool, k=k, gain=gain, discount=discount, base=base).value


def _check_pool_holds(rels: np.ndarray, pool: np.ndarray) -> None:
    """Every positive grade of ``rels`` is in ``pool`` at least as often, or raise naming pool."""
    grades, ranked = np.unique(rels[rels > 0], return_counts=True)
    judged, held = np.unique(pool[pool > 0], return_counts=True)
    position = np.searchsorted(judged, grades)
    found = position < len(judged)
    found[found] = judged[position[found]] == grades[found]
    in_pool = np.zeros_like(ranked)
    in_pool[found] = held[position[found]]
    short = np.flatnonzero(ranked > in_pool)
    if len(short):
        first = short[0]
        raise ValueError(
            f"pool holds {int(in_pool[first])} document(s) of grade {grades[first]:g} but rels "
            f"ranks {int(ranked[first])}: pool must hold the grade of every judged document, "
            "retrieved or not, so each positive grade of rels at least as often as rels does"
        )


def _as_level_gains(gains) -> dict[float, float] | None:
    """trec_eval's gain parameters ``{grade: gain}`` checked: integer grades >= 0, gains finite
    and >= 0, grade 0 only with gain 0; None stays None (every grade is its own gain)."""
    if gains is None:
        return None
    if not isinstance(gains, Mapping):
        raise TypeError(f"gains must be a mapping {{grade: gain}}, got {type(gains).__name__}")
    checked = {}
    for grade, gain in gains.items():
        if (isinstance(grade, (bool, np.bool_)) or not isinstance(grade, numbers.Real)
                or grade != int(grade) or grade < 0):
            raise ValueError(f"gains: a grade must be an integer >= 0, got {grade!r}")
        gain = as_number(gain, f"gains[{grade!r}]")
        if gain < 0 or (grade == 0 and gain != 0):
            raise ValueError(
                f"gains[{grade!r}] must be >= 0, and 0 for grade 0, got {gain:g}: a grade-0 or "
                "negative gain would need the non-relevant documents in the ideal ranking, "
                "which rankedu does not model (trec_eval accepts them)")
        checked[float(grade)] = gain
    return checked


def _map_gains(grades: np.ndarray, gains: dict | None) -> np.ndarray:
    """Each grade's gain: ``gains[grade]`` where given, else the grade itself (gain_init.c)."""
    if not gains:
        return grades
    mapped = grades.copy()
    for grade, gain in gains.items():
        mapped[grades == grade] = gain
    return mapped


def _with_gains(ranked, gains: tuple):
    """``ranked`` with its grades mapped through ``gains`` (trec_eval's ``ndcg.1=3,2=9``, as
    ``(grade, gain)`` pairs checked): the retrieved gains, and the ideal ranking re-sorted, its
    zero gains dropped."""
    gains = dict(gains)
    ideal_gain = _map_gains(ranked.ideal_gain, gains)
    order = np.lexsort((-ideal_gain, ranked.ideal_query))
    order = order[ideal_gain[order] > 0]
    ideal_query = ranked.ideal_query[order]
    return replace(ranked, gain=_map_gains(ranked.gain, gains), ideal_query=ideal_query,
                   ideal_rank=ranks_within(ideal_query), ideal_gain=ideal_gain[order])


def _gains_mapped(kernel):
    """``kernel(ranked, k)`` as ``kernel(ranked, k, gains=None)``: the grades mapped first."""

    def mapped(ranked, k=None, gains=None):
        gains = _as_level_gains(gains)
        if gains is not None:  # mapped once for every measure and cutoff with these gains
            ranked = ranked.once(_with_gains, tuple(gains.items()))
        return kernel(ranked, k)

    mapped.__doc__ = f"{kernel.__doc__}\n\nThe grades mapped through ``gains`` first."
    return mapped


def _ndcg_steps(rels, k=None, pool=None, gain="linear", discount="log2", base=2,
                gains=None) -> Steps:
    gains = _as_level_gains(gains)
    if gains is not None:
        rels = _map_gains(as_numbers(rels, "rels"), gains)
        pool = None if pool is None else _map_gains(as_numbers(pool, "pool"), gains)
    actual = _dcg_steps(rels, k, gain, discount, base)
    if pool is not None:
        _check_pool_holds(as_numbers(rels, "rels"), as_numbers(pool, "pool"))
    ideal = _idcg_steps(rels if pool is None else pool, k, gain, discount, base)
    if ideal.value < 0:
        raise ValueError(
            f"pool: the ideal DCG is negative ({ideal.value:.6g}), so DCG / ideal DCG would "
            "reward a worse ranking with a larger NDCG. The per-list functions take grades at "
            "face value; trec_eval (and rankedu.evaluate) read a negative qrels grade as "
            "'pooled but not judged' and give it gain 0: to follow it, replace negative "
            "grades by 0 in pool (and in rels)"
        )
    # The DCG table ends in the running NDCG: the DCG so far over the whole ideal DCG@k.
    running = actual.tables["DCG"]["DCG@i"]
    share = safe_divide(running, ideal.value)
    return Steps(last(share), {"DCG": {**actual.tables["DCG"], "DCG@i/IDCG": share}, **ideal.tables})


def _ndcg_unmapped_by_query(ranked, k=None) -> np.ndarray:
    """nDCG (nDCG@k) of every query at once, as trec_eval computes it: linear gain, log2
    discount, the ideal ranking from every judged document of the query (cut at k)."""
    ideal, queries = ranked.once(_ideal_by_query), np.arange(ranked.n_queries)
    depth = np.iinfo(np.int64).max if k is None else k
    if k is None:  # the running sums' last values: + 0.0 makes them the very doubles of a
        # sum from 0.0 (a -0.0 reads 0.0)
        dcg = _at_depth(ranked.once(_dcg_by_query), ranked.bounds, queries, depth) + 0.0
    else:  # the top k alone, added in list order as the running sum adds them (nDCG@10 of a
        # run 1,000 deep reads 1% of it)
        top = ranked.rank <= k
        dcg = np.bincount(ranked.query[top], minlength=ranked.n_queries,
                          weights=_discounted(ranked.gain[top], ranked.rank[top]))
    return safe_divide(dcg, _at_depth(ideal["IDCG"], ideal["bounds"], queries, depth) + 0.0)


_ndcg_by_query = _gains_mapped(_ndcg_unmapped_by_query)


def ndcg(rels, k=None, *, pool=None, gain="linear", discount="log2", base=2,
         gains=None) -> float:
    r"""Normalised DCG: the DCG of the ranking divided by the ideal DCG.

    .. math:: NDCG@k = \frac{DCG@k(\text{rels})}{IDCG@k(\text{pool})}

    Grades are taken at face value. A negative grade lowers the DCG (and, in the pool, the
    ideal DCG), so NDCG may leave [0, 1]; trec_eval instead reads a negative qrels grade as
    "pooled but not judged" and gives it gain 0, and so does :func:`rankedu.evaluate`:
    ``ndcg([1, 1, 1, -1], 4, pool=[1, 1, 1])`` is 0.7979 here and 1.0 there.

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    k : int >= 1 or None, optional
        The cutoff for both DCG and the ideal DCG; the whole lists by default.
    pool : sequence of float, optional
        Grades of every judged document of the query (trec_eval's ideal); it must hold every
        positive grade of ``rels`` at least as often as ``rels`` does. Defaults to ``rels``
        (scikit-learn's ideal: the candidates themselves).
    gain, discount, base
        As for :func:`dcg`.
    gains : dict {grade: gain}, optional
        trec_eval's gain parameters (``ndcg.1=3,2=9``; ir_measures' ``nDCG(gains={1:3,2:9})``):
        a grade listed is replaced by its gain in ``rels`` and ``pool`` before anything else,
        a grade not listed keeps its own value as its gain (trec_eval's gain_init.c). Grades
        are integers >= 0, gains >= 0, grade 0's gain 0.
        ``evaluate``'s optimistic and pessimistic tie orders sort by grade: they bound nDCG
        when the gains keep the grades' order.

    Returns
    -------
    float
        In [0, 1] when grades are non-negative; 0.0 when the ideal DCG is 0.

    Raises
    ------
    ValueError
        When the ideal DCG is negative (every judged grade is 0 or below, some below), when
        ``pool`` lacks a positive grade of ``rels``, or when a DCG overflows a float.

    Notes
    -----
    The chapter :doc:`/book/ndcg` explains it.

    References
    ----------
    - ``jarvelin2002``: Järvelin, K. and Kekäläinen, J. (2002). Cumulated gain-based evaluation
      of IR techniques. ACM Transactions on Information Systems 20(4), 422-446.
    - ``burges2005``: Burges, C., Shaked, T., Renshaw, E., Lazier, A., Deeds, M., Hamilton, N.
      and Hullender, G. (2005). Learning to rank using gradient descent. ICML 2005, 89-96.

    Examples
    --------
    Six ranked documents, and two more judged ones (grades 3 and 0):

    >>> import rankedu as rk
    >>> round(rk.ndcg([3, 2, 3, 0, 1, 2], 6, pool=[3, 2, 3, 0, 1, 2, 3, 0]), 4)
    0.8184

    A document graded -1 counts at face value:

    >>> round(rk.ndcg([1, 1, 1, -1], 4, pool=[1, 1, 1]), 4)
    0.7979

    Grade 2 worth nine times grade 1 (trec_eval ``-m ndcg.2=9``):

    >>> round(rk.ndcg([1, 2], pool=[1, 2], gains={2: 9}), 4)  # (1 + 9/log2 3) / (9 + 1/log2 3)
    0.6934
    """
    return _ndcg_steps(rels=rels, k=k, pool=pool, gain=gain, discount=discount, base=base,
                       gains=gains).value


# trec_eval's experimental gain measures (m_G.c, m_binG.c, m_ndcg_rel.c, m_Rndcg.c). Their ideal
# ranking is trec_eval's: the positive gains of the pool, highest first.


def _gain_lists(rels, pool, gains) -> tuple[np.ndarray, np.ndarray]:
    """The gains of ``rels`` and the ideal ranking (the positive gains of ``pool``, highest
    first), the grades mapped through ``gains``; ``pool`` defaults to ``rels``."""
    gains = _as_level_gains(gains)
    rels = _map_gains(as_numbers(rels, "rels"), gains)
    pool = rels if pool is None else _map_gains(as_numbers(pool, "pool"), gains)
    _check_pool_holds(rels, pool)
    ideal = np.sort(pool[pool > 0])[::-1]
    return rels, ideal


def _at_depth(running: np.ndarray, bounds: np.ndarray, which: np.ndarray, depth) -> np.ndarray:
    """``running`` (per entry of the queries that ``bounds`` delimit, as ``RankedRun.bounds``) at
    the ``depth``-th entry of query ``which``, or at its last entry when it has fewer; 0.0 at
    depth 0."""
    start = bounds[which]
    return at_cut(running, start, start + np.minimum(depth, bounds[which + 1] - start))


def _ideal_by_query(ranked) -> dict[str, np.ndarray]:
    """Per query: R (the positive gains judged), their sum, and per ideal entry the running
    ideal DCG."""
    ideal_dcg = cumsum_by_query(ranked.ideal_query,
                                  _discounted(ranked.ideal_gain, ranked.ideal_rank))
    count = np.bincount(ranked.ideal_query, minlength=ranked.n_queries)
    return {"R": count, "bounds": np.r_[0, np.cumsum(count)],
            "total": np.bincount(ranked.ideal_query, weights=ranked.ideal_gain,
                                 minlength=ranked.n_queries),
            "IDCG": ideal_dcg}


def _g_steps(rels, pool=None, gains=None) -> Steps:
    rels, ideal = _gain_lists(rels, pool, gains)
    n = len(rels)
    ranks = np.arange(1, n + 1)
    # The ideal's gain at each rank (0 past its end), at least 1: trec_eval's "cost".
    cost = np.maximum(1.0, np.r_[ideal[:n], np.zeros(max(n - len(ideal), 0))])
    columns = {"i": ranks, "gain_i": rels, "Σ gain": np.cumsum(rels),
               "Σ max(1, ideal gain)": np.cumsum(cost)}
    with np.errstate(divide="ignore", invalid="ignore"):
        term = rels / np.log2(2.0 + columns["Σ max(1, ideal gain)"] - columns["Σ gain"])
    columns["gain_i / log2(2 + Σ cost - Σ gain)"] = np.where(rels != 0, term, 0.0)
    total = float(np.sum(ideal))
    columns["G@i"] = safe_divide(np.cumsum(columns["gain_i / log2(2 + Σ cost - Σ gain)"]),
                                 total)
    return Steps(last(columns["G@i"]),
                 {"G": columns, "ideal gains": {"j": np.arange(1, len(ideal) + 1),
                                                "ideal gain_j": ideal,
                                                "Σ ideal gain": np.cumsum(ideal)}})


def g(rels, pool=None, *, gains=None) -> float:
    r"""trec_eval's normalised gain G: a gain discounted by how far the ranking so far falls
    behind the ideal one, divided by the ideal's total gain.

    .. math::

        G = \frac{1}{\sum_j I_j} \sum_{i:\, g_i \neq 0}
            \frac{g_i}{\log_2\left(2 + \sum_{j \le i} \max(1, I_j) - \sum_{j \le i} g_j\right)}

    :math:`I_j` is the ideal ranking's gain at rank j (the positive gains of ``pool``, highest
    first; 0 past its end). A document found while the ranking keeps up with the ideal one
    counts almost fully; one found after much gain was missed counts less. Chris Buckley's
    experimental measure of trec_eval (m_G.c, 2008), between AP and nDCG.
    It is not monotone in the order: moving a higher gain up can lower G (``[1, 3, 2]`` scores
    less than ``[1, 2, 3]`` against the ideal 3, 2, 1), so ``evaluate``'s optimistic and
    pessimistic tie orders do not bound it.

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    pool : sequence of float, optional
        Grades of every judged document of the query (the ideal ranking); it must hold every
        positive grade of ``rels`` at least as often. Defaults to ``rels``.
    gains : dict {grade: gain}, optional
        trec_eval's gain parameters, as for :func:`ndcg`.

    Returns
    -------
    float
        0.0 when the pool has no positive gain.

    Notes
    -----
    The chapter :doc:`/book/ndcg` explains the gains and discounts it builds on.

    References
    ----------
    - ``trec_eval``: Buckley, C. et al. trec_eval 10.0, m_G.c (the measure's definition).

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.g([1, 1], pool=[1, 1])  # keeps up with the ideal: 1/log2(2) each, over 2
    1.0
    >>> rk.g([0, 1], pool=[1])  # cost 1 + 1, gain 1: 1/log2(3)
    0.6309297535714575
    """
    return _g_steps(rels=rels, pool=pool, gains=gains).value


def _g_unmapped_by_query(ranked, k=None) -> np.ndarray:
    """G of every query at once."""
    ideal = ranked.once(_ideal_by_query)
    extra = cumsum_by_query(ranked.ideal_query, np.maximum(ranked.ideal_gain, 1.0) - 1.0)
    so_far = cumsum_by_query(ranked.query, ranked.gain)
    # Only the documents of nonzero gain score: a sum without the zero terms is the same double.
    at = np.flatnonzero(ranked.gain)
    query, rank = ranked.query[at], ranked.rank[at]
    cost = rank + _at_depth(extra, ideal["bounds"], query, np.minimum(rank, ideal["R"][query]))
    term = ranked.gain[at] / np.log2(2.0 + cost - so_far[at])
    return safe_divide(np.bincount(query, weights=term, minlength=ranked.n_queries),
                       ideal["total"])


_g_by_query = _gains_mapped(_g_unmapped_by_query)


def _bin_g_steps(rels, n_relevant, threshold=1) -> Steps:
    rels = as_numbers(rels, "rels")
    threshold = as_above(threshold, "threshold", 0)
    if isinstance(n_relevant, (bool, np.bool_)) or not isinstance(n_relevant, numbers.Integral) \
            or n_relevant < 0:
        raise ValueError(f"n_relevant must be an integer >= 0, got {n_relevant!r}")
    relevant = rels >= threshold
    if relevant.sum() > n_relevant:
        raise ValueError(f"n_relevant ({n_relevant}) is below the relevant documents of rels "
                         f"({int(relevant.sum())})")
    ranks = np.arange(1, len(rels) + 1)
    above = ranks - np.cumsum(relevant)  # non-relevant above (at a relevant rank)
    credit = np.where(relevant, 1.0 / np.log2(2.0 + above), 0.0)
    columns = {"i": ranks, "relevant": relevant, "non-relevant above": above,
               "1/log2(2 + non-relevant above)": credit,
               "binG@i": safe_divide(np.cumsum(credit), n_relevant)}
    return Steps(last(columns["binG@i"]), {"binG": columns})


def bin_g(rels, n_relevant, threshold=1) -> float:
    r"""trec_eval's binary G: each relevant document retrieved scores 1 / log2(2 + m), m the
    non-relevant (or unjudged) documents above it; the sum divided by R.

    .. math:: \mathrm{binG} = \frac{1}{R} \sum_{i:\, \mathrm{rel}_i \ge t}
              \frac{1}{\log_2(2 + m_i)}

    G (:func:`g`) with every relevant document's gain 1 (m_binG.c).

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    n_relevant : int >= 0
        R, the relevant documents judged for the query, retrieved or not.
    threshold : float > 0, default 1
        A document is relevant when its grade is >= threshold (trec_eval ``-l``).

    Returns
    -------
    float
        0.0 when R is 0.

    Notes
    -----
    The chapter :doc:`/book/ndcg` explains the discount it builds on.

    References
    ----------
    - ``trec_eval``: Buckley, C. et al. trec_eval 10.0, m_binG.c (the measure's definition).

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.bin_g([1, 0, 0, 1], n_relevant=2)  # (1/log2(2) + 1/log2(4)) / 2
    0.75
    """
    return _bin_g_steps(rels=rels, n_relevant=n_relevant, threshold=threshold).value


def _bin_g_by_query(ranked, k=None) -> np.ndarray:
    """binG of every query at once."""
    at = np.flatnonzero(ranked.relevant)  # the others score 0: the sum is the same double
    credit = 1.0 / np.log2(2.0 + (ranked.rank[at] - ranked.running("relevant")[at]))
    return safe_divide(np.bincount(ranked.query[at], weights=credit, minlength=ranked.n_queries),
                       ranked.n_relevant)


def _ndcg_at(rels: np.ndarray, ideal: np.ndarray, depths) -> dict[str, np.ndarray]:
    """DCG@m, IDCG@m (the ideal cut at m) and nDCG@m at each of the ``depths`` m."""
    depths = np.asarray(depths, dtype=np.int64)
    dcg_at = np.r_[0.0, np.cumsum(_discounted(rels, np.arange(1, len(rels) + 1)))]
    idcg_at = np.r_[0.0, np.cumsum(_discounted(ideal, np.arange(1, len(ideal) + 1)))]
    dcg_m = dcg_at[np.minimum(depths, len(rels))]
    idcg_m = idcg_at[np.minimum(depths, len(ideal))]
    return {"m": depths, "DCG@m": dcg_m, "IDCG@m": idcg_m, "nDCG@m": safe_divide(dcg_m, idcg_m)}


def _ndcg_rel_steps(rels, pool=None, gains=None) -> Steps:
    rels, ideal = _gain_lists(rels, pool, gains)
    found = np.flatnonzero(rels > 0) + 1
    missed = len(ideal) - len(found)  # scored at the end of the list: DCG / the whole IDCG
    columns = {"document": np.array([f"rank {r}" for r in found] + ["not retrieved"] * missed),
               **_ndcg_at(rels, ideal, np.r_[found, [max(len(rels), len(ideal))] * missed])}
    columns["max(0, Σ nDCG@m) / R"] = safe_divide(np.maximum(np.cumsum(columns["nDCG@m"]), 0),
                                                  len(ideal))
    return Steps(last(columns["max(0, Σ nDCG@m) / R"]), {"ndcg_rel": columns})


def ndcg_rel(rels, pool=None, *, gains=None) -> float:
    r"""trec_eval's ndcg_rel: nDCG averaged over the relevant documents, each scored by the nDCG
    at its rank, or, when it was not retrieved, by the nDCG of the whole list.

    .. math::

        \mathrm{ndcg\_rel} = \frac{1}{R} \Big( \sum_{i:\, g_i > 0} nDCG@i
            + (R - R_{ret})\, nDCG \Big)

    R is the number of judged documents with a positive gain, :math:`R_{ret}` those retrieved,
    nDCG@i uses the ideal ranking cut at i (the positive gains of ``pool``, highest first). A
    sum below 0 (negative grades only) counts 0, as in trec_eval (m_ndcg_rel.c).

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    pool : sequence of float, optional
        Grades of every judged document of the query; defaults to ``rels``.
    gains : dict {grade: gain}, optional
        trec_eval's gain parameters, as for :func:`ndcg`.

    Returns
    -------
    float
        0.0 when the pool has no positive gain.

    Notes
    -----
    The chapter :doc:`/book/ndcg` explains nDCG.

    References
    ----------
    - ``trec_eval``: Buckley, C. et al. trec_eval 10.0, m_ndcg_rel.c (the measure's definition).

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.ndcg_rel([1, 0], pool=[1, 1])  # nDCG@1 = 1, then the missed one: nDCG = 1/1.6309
    0.8065735963827292
    """
    return _ndcg_rel_steps(rels=rels, pool=pool, gains=gains).value


def _discounted(gain: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """DCG's term of each document: its gain over log2(rank + 1)."""
    _, divisor = DISCOUNTS["log2"]
    return gain / divisor(rank.astype(float))


def _dcg_by_query(ranked) -> np.ndarray:
    """The running DCG of every retrieved document, within its query."""
    return cumsum_by_query(ranked.query, _discounted(ranked.gain, ranked.rank))


def _ndcg_rel_unmapped_by_query(ranked, k=None) -> np.ndarray:
    """ndcg_rel of every query at once."""
    ideal, running = ranked.once(_ideal_by_query), ranked.once(_dcg_by_query)
    queries = np.arange(ranked.n_queries)
    found = np.flatnonzero(ranked.gain > 0)
    at_rank = safe_divide(running[found], _at_depth(ideal["IDCG"], ideal["bounds"],
                                                    ranked.query[found], ranked.rank[found]))
    total = np.bincount(ranked.query[found], weights=at_rank, minlength=ranked.n_queries)
    missed = ideal["R"] - np.bincount(ranked.query[found], minlength=ranked.n_queries)
    whole = safe_divide(
        _at_depth(running, ranked.bounds, queries, np.iinfo(np.int64).max),
        _at_depth(ideal["IDCG"], ideal["bounds"], queries, ideal["R"]))
    return safe_divide(np.maximum(total + missed * whole, 0), ideal["R"])


_ndcg_rel_by_query = _gains_mapped(_ndcg_rel_unmapped_by_query)


def _rndcg_steps(rels, pool=None, n_relevant=None, gains=None) -> Steps:
    rels, ideal = _gain_lists(rels, pool, gains)
    # The last rank of each run of equal gains in the ideal ranking, and the list's end when it
    # runs on past R + 1 (trec_eval's loops end there otherwise).
    depths = np.flatnonzero(np.r_[ideal[1:] != ideal[:-1], len(ideal) > 0]) + 1
    if len(rels) > len(ideal) + 1 and len(ideal):
        depths = np.r_[depths, len(rels)]
    if n_relevant is not None and n_relevant == 0:
        depths = depths[:0]  # trec_eval scores 0 a query with nothing relevant (-l)
    columns = _ndcg_at(rels, ideal, depths)
    columns["mean nDCG@m"] = np.cumsum(columns["nDCG@m"]) / np.arange(1, len(depths) + 1)
    return Steps(last(columns["mean nDCG@m"]), {"Rndcg": columns})


def rndcg(rels, pool=None, *, n_relevant=None, gains=None) -> float:
    r"""trec_eval's Rndcg: nDCG averaged at the "R levels", the ranks where the ideal ranking's
    gain drops (and at the end of a list longer than R + 1).

    With 5 judged documents of gain 3, 3 of gain 2 and 10 of gain 1, Rndcg is the mean of
    nDCG@5, nDCG@8, nDCG@18 and, when more than 19 documents were retrieved, nDCG at the
    list's end (m_Rndcg.c; its help text counts the gain-0 documents as a level too, its code
    stops at the last positive gain and adds the list's end instead).

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    pool : sequence of float, optional
        Grades of every judged document of the query; defaults to ``rels``.
    n_relevant : int, optional
        The relevant documents judged (grade >= trec_eval's ``-l``); when it is 0 the value is
        0.0 whatever the gains, as in trec_eval.
    gains : dict {grade: gain}, optional
        trec_eval's gain parameters, as for :func:`ndcg`.

    Returns
    -------
    float
        0.0 when the pool has no positive gain.

    Notes
    -----
    The chapter :doc:`/book/ndcg` explains nDCG.

    References
    ----------
    - ``trec_eval``: Buckley, C. et al. trec_eval 10.0, m_Rndcg.c (the measure's definition).

    Examples
    --------
    >>> import rankedu as rk
    >>> round(rk.rndcg([2, 0, 1], pool=[2, 1]), 4)  # mean of nDCG@1 = 1 and nDCG@2 = 0.7602
    0.8801
    """
    return _rndcg_steps(rels=rels, pool=pool, n_relevant=n_relevant, gains=gains).value


def _rndcg_unmapped_by_query(ranked, k=None) -> np.ndarray:
    """Rndcg of every query at once."""
    ideal, running = ranked.once(_ideal_by_query), ranked.once(_dcg_by_query)
    query, gain = ranked.ideal_query, ranked.ideal_gain
    end = np.r_[(query[1:] != query[:-1]) | (gain[1:] != gain[:-1]), True] if len(query) \
        else np.zeros(0, bool)
    at_level = safe_divide(
        _at_depth(running, ranked.bounds, query[end], ranked.ideal_rank[end]),
        ideal["IDCG"][end])
    total = np.bincount(query[end], weights=at_level, minlength=ranked.n_queries) * 1.0
    count = np.bincount(query[end], minlength=ranked.n_queries)
    retrieved = ranked.n_retrieved
    longer = np.flatnonzero((retrieved > ideal["R"] + 1) & (ideal["R"] > 0))
    total[longer] += safe_divide(
        _at_depth(running, ranked.bounds, longer, retrieved[longer]),
        _at_depth(ideal["IDCG"], ideal["bounds"], longer, ideal["R"][longer]))
    count[longer] += 1
    return np.where(ranked.n_relevant > 0, safe_divide(total, count), 0.0)


_rndcg_by_query = _gains_mapped(_rndcg_unmapped_by_query)
