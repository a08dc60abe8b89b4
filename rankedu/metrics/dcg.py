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

import numpy as np

from rankedu.core.common import last, top_k
from rankedu.core.ranked import safe_divide, sum_by_query
from rankedu.core.steps import Steps
from rankedu.core.validation import as_above, as_numbers, one_of

__all__ = ["cumulative_gain", "dcg", "idcg", "ndcg"]

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


def _ndcg_steps(rels, k=None, pool=None, gain="linear", discount="log2", base=2) -> Steps:
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


def _ndcg_by_query(ranked, k=None) -> np.ndarray:
    """nDCG (nDCG@k) of every query at once, as trec_eval computes it: linear gain, log2
    discount, the ideal ranking from every judged document of the query (cut at k)."""
    _, divisor = DISCOUNTS["log2"]

    def dcg_by_query(query, rank, gain):
        top = slice(None) if k is None else rank <= k
        query, rank, gain = query[top], rank[top], gain[top]
        discount = divisor(np.arange(1, int(rank.max(initial=0)) + 1, dtype=float))  # per rank
        return sum_by_query(query, rank, gain / discount[rank - 1], ranked.n_queries)

    return safe_divide(dcg_by_query(ranked.query, ranked.rank, ranked.gain),
                       dcg_by_query(ranked.ideal_query, ranked.ideal_rank, ranked.ideal_gain))


def ndcg(rels, k=None, *, pool=None, gain="linear", discount="log2", base=2) -> float:
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
    """
    return _ndcg_steps(rels=rels, k=k, pool=pool, gain=gain, discount=discount, base=base).value
