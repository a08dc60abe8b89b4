"""Cumulative gain, discounted cumulative gain, ideal DCG and normalised DCG.

Conventions:

- Gain ``"linear"`` is the grade itself, g; ``"exponential"`` is 2^g - 1 (Burges et al., 2005).
  The two agree on binary grades.
- Discount ``"log2"`` divides the gain at rank i by log2(i + 1). ``"jarvelin"`` is the original
  of Järvelin and Kekäläinen (2002) with base 2: no discount at rank 1, then 1/log2(i), so ranks
  1 and 2 both count in full.
- The ideal DCG is the DCG of ``pool`` — the grades of every judged document of the query,
  retrieved or not — sorted by grade, highest first, and cut at ``k`` (trec_eval's ``ndcg`` and
  ``ndcg_cut``). ``pool`` defaults to ``rels``, which is what scikit-learn's ``ndcg_score`` does.
- NDCG is 0.0 when the ideal DCG is 0 (no document with a positive gain). Grades may be
  negative (a penalty for bad documents); NDCG is then no longer confined to [0, 1], and an
  ideal DCG below 0 raises ``ValueError``, since dividing by it would reverse the order of
  rankings.

The book's chapter "From cumulative gain to NDCG" (``book/ndcg.ipynb``) derives them.
"""

from __future__ import annotations

import numpy as np

from rankedu._steps import Steps
from rankedu._validation import as_cutoff, as_numbers, one_of

GAINS = {
    "linear": ("rel_i", lambda grades: grades),
    "exponential": ("2^rel_i - 1", lambda grades: np.exp2(grades) - 1.0),
}
DISCOUNTS = {
    "log2": ("log2(i+1)", lambda ranks: np.log2(ranks + 1.0)),
    "jarvelin": ("max(1, log2 i)", lambda ranks: np.maximum(1.0, np.log2(ranks))),
}


def _cut(grades: np.ndarray, k) -> tuple[np.ndarray, np.ndarray]:
    """The grades of the top ``k`` and their ranks 1..k."""
    k = as_cutoff(k)
    grades = grades if k is None else grades[:k]
    return grades, np.arange(1, len(grades) + 1)


def _cumulative_gain_steps(rels, k=None) -> Steps:
    grades, ranks = _cut(as_numbers(rels, "rels"), k)
    columns = {"i": ranks, "rel_i": grades, "CG@i": np.cumsum(grades)}
    return Steps(columns["CG@i"][-1] if len(grades) else 0.0, {"CG": columns})


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

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.cumulative_gain([3, 2, 3, 0, 1, 2])
    11.0
    >>> rk.cumulative_gain([3, -1, 1]) == rk.cumulative_gain([-1, 1, 3])
    True
    """
    return _cumulative_gain_steps(rels, k).value


def _dcg_columns(grades: np.ndarray, k, gain: str, discount: str) -> dict[str, np.ndarray]:
    gain_name, gain_of = GAINS[one_of(gain, "gain", tuple(GAINS))]
    discount_name, discount_of = DISCOUNTS[one_of(discount, "discount", tuple(DISCOUNTS))]
    grades, ranks = _cut(grades, k)
    columns = {"i": ranks, "rel_i": grades}
    if gain != "linear":
        columns[gain_name] = gain_of(grades)
    columns[discount_name] = discount_of(ranks)
    term = f"{gain_name}/{discount_name}" if gain == "linear" else f"({gain_name})/{discount_name}"
    columns[term] = gain_of(grades) / columns[discount_name]
    columns["DCG@i"] = np.cumsum(columns[term])
    return columns


def _dcg_steps(rels, k=None, gain="linear", discount="log2", *, ideal=False) -> Steps:
    grades = as_numbers(rels, "pool" if ideal else "rels")
    if ideal:
        grades = np.sort(grades)[::-1]
    columns = _dcg_columns(grades, k, gain, discount)
    value = columns["DCG@i"][-1] if len(columns["i"]) else 0.0
    return Steps(value, {"ideal DCG" if ideal else "DCG": columns})


def dcg(rels, k=None, *, gain="linear", discount="log2") -> float:
    r"""Discounted cumulative gain of the top ``k``.

    .. math:: DCG@k = \sum_{i=1}^{k} \frac{\mathrm{gain}(\mathrm{rel}_i)}{\mathrm{discount}(i)}

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    k : int >= 1 or None, optional
        The cutoff; the whole list by default.
    gain : {"linear", "exponential"}, default "linear"
        ``"linear"``: gain = g. ``"exponential"``: gain = 2^g - 1.
    discount : {"log2", "jarvelin"}, default "log2"
        ``"log2"``: divide by log2(i + 1). ``"jarvelin"``: divide by 1 at rank 1 and by
        log2(i) from rank 2 on (Järvelin and Kekäläinen's original, base 2).

    Returns
    -------
    float

    See Also
    --------
    idcg, ndcg, cumulative_gain

    Notes
    -----
    The chapter :doc:`/book/ndcg` explains it.

    Examples
    --------
    The seeds' ranking:

    >>> import rankedu as rk
    >>> round(rk.dcg([3, 2, 3, 0, 1, 2]), 4)
    6.8611
    >>> round(rk.dcg([3, 2, 3, 0, 1, 2], gain="exponential"), 4)
    13.8483
    """
    return _dcg_steps(rels, k, gain, discount).value


def _idcg_steps(pool, k=None, gain="linear", discount="log2") -> Steps:
    return _dcg_steps(pool, k, gain, discount, ideal=True)


def idcg(pool, k=None, *, gain="linear", discount="log2") -> float:
    r"""Ideal DCG: the DCG of ``pool`` sorted by grade, highest first, cut at ``k``.

    .. math:: IDCG@k = DCG@k(\mathrm{sort}_{\downarrow}(\text{pool}))

    ``pool`` holds the grades of every judged document of the query, retrieved or not: the best
    ranking a system could have produced. Using only the retrieved documents instead would let a
    system that misses the best documents still reach NDCG 1.

    Parameters
    ----------
    pool : sequence of float
        Grades of every judged document of the query, in any order.
    k : int >= 1 or None, optional
        The cutoff; the whole pool by default.
    gain, discount : str
        As for :func:`dcg`.

    Returns
    -------
    float

    Notes
    -----
    The chapter :doc:`/book/ndcg` explains it.

    Examples
    --------
    >>> import rankedu as rk
    >>> round(rk.idcg([3, 2, 3, 0, 1, 2, 3, 0], 6), 4)
    8.3841
    """
    return _idcg_steps(pool, k, gain, discount).value


def _ndcg_steps(rels, k=None, pool=None, gain="linear", discount="log2") -> Steps:
    actual = _dcg_steps(rels, k, gain, discount)
    ideal = _idcg_steps(rels if pool is None else pool, k, gain, discount)
    if ideal.value < 0:
        raise ValueError(
            f"pool: the ideal DCG is negative ({ideal.value:.6g}), so DCG / ideal DCG would "
            "reward a worse ranking with a larger NDCG; give negative grades gain 0 (as "
            "trec_eval does) or leave documents with negative grades out of the pool"
        )
    # The DCG table ends in the running NDCG: the DCG so far over the whole ideal DCG@k.
    running = actual.tables["DCG"]["DCG@i"]
    share = running / ideal.value if ideal.value else np.zeros(len(running))
    value = share[-1] if len(share) else 0.0
    return Steps(value, {"DCG": {**actual.tables["DCG"], "DCG@i/IDCG": share}, **ideal.tables})


def ndcg(rels, k=None, *, pool=None, gain="linear", discount="log2") -> float:
    r"""Normalised DCG: the DCG of the ranking divided by the ideal DCG.

    .. math:: NDCG@k = \frac{DCG@k(\text{rels})}{IDCG@k(\text{pool})}

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    k : int >= 1 or None, optional
        The cutoff for both DCG and the ideal DCG; the whole lists by default.
    pool : sequence of float, optional
        Grades of every judged document of the query (trec_eval's ideal). Defaults to ``rels``
        (scikit-learn's ideal: the candidates themselves).
    gain, discount : str
        As for :func:`dcg`.

    Returns
    -------
    float
        In [0, 1] when grades are non-negative and ``pool`` contains the ranked grades;
        0.0 when the ideal DCG is 0.

    Raises
    ------
    ValueError
        When the ideal DCG is negative (every judged grade is 0 or below, some below).

    Notes
    -----
    The chapter :doc:`/book/ndcg` explains it.

    Examples
    --------
    The seeds' example: six ranked documents, and two more judged ones (grades 3 and 0):

    >>> import rankedu as rk
    >>> round(rk.ndcg([3, 2, 3, 0, 1, 2], 6, pool=[3, 2, 3, 0, 1, 2, 3, 0]), 4)
    0.8184
    """
    return _ndcg_steps(rels, k, pool, gain, discount).value
