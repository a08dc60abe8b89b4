r"""Chance-corrected agreement between raters: kappa, pi, AC1 and alpha.

Two assessors label the same items. Their **observed agreement** :math:`p_o` is the share of
items they label alike; part of it would happen by chance, and every coefficient here has the
form

.. math::

    \frac{p_o - p_e}{1 - p_e} = 1 - \frac{D_o}{D_e},

where :math:`p_e` is the agreement expected by chance and :math:`D_o = 1 - p_o`,
:math:`D_e = 1 - p_e` are the observed and expected *disagreements*. They differ only in the
chance model:

- **Cohen's kappa** (:func:`cohen_kappa`): each rater keeps their own marginal distribution,
  :math:`p_e = \sum_k p_{a,k}\, p_{b,k}`; weighted kappa counts a disagreement by the distance
  between the two labels (linear or quadratic in their values).
- **Scott's pi** (:func:`scott_pi`), and **Fleiss' kappa** (:func:`fleiss_kappa`) for any
  number of raters: the raters share one, pooled, distribution :math:`\pi_k`,
  :math:`p_e = \sum_k \pi_k^2`. This is the kappa IIR computes (Manning et al., 2008, 8.5).
- **Krippendorff's alpha** (:func:`krippendorff_alpha`): the pooled distribution, estimated
  *without replacement* from the n labels (a small-sample correction), any number of raters,
  missing labels, and a distance for nominal, ordinal, interval or ratio labels.
- **Gwet's AC1** (:func:`gwet_ac1`): :math:`p_e = \frac{1}{q-1}\sum_k \pi_k (1 - \pi_k)` over the
  q categories, which stays small when one category dominates: it does not fall into the
  *prevalence paradox* (high agreement, low kappa) that the others share.

The categories are the distinct labels the raters used (for :func:`fleiss_kappa`, the columns
of its table). When the raters used a single category between them, chance agreement is 1 and
every coefficient but AC1 is 0/0; AC1's :math:`q - 1` is 0 too. The functions then return
``math.nan`` (as scikit-learn's ``cohen_kappa_score`` does): the labels say nothing about the
raters' agreement beyond chance, which is neither perfect nor absent. The chapter "Relevance
judgments: agreement and LLM judges" (``book/judgments.ipynb``) derives each one.
"""

from __future__ import annotations

import math

import numpy as np

from rankedu.core.common import quantities
from rankedu.core.steps import Steps
from rankedu.core.validation import (
    as_count_table, as_label_pair, as_rating_matrix, one_of,
)

__all__ = ["cohen_kappa", "fleiss_kappa", "gwet_ac1", "krippendorff_alpha", "scott_pi"]

WEIGHTS = (None, "linear", "quadratic")
LEVELS = ("nominal", "ordinal", "interval", "ratio")


def _label(value: float) -> str:
    return f"{value:g}"


def _matrix(title: str, labels: np.ndarray, matrix: np.ndarray) -> dict[str, np.ndarray]:
    """A square table of the categories, as columns: the row's category, then one column per
    category."""
    names = [_label(v) for v in labels]
    return {title: np.array(names, dtype=object),
            **{name: matrix[:, j] for j, name in enumerate(names)}}


def _ratio(numerator: float, denominator: float) -> float:
    """numerator / denominator, NaN at a zero denominator (a single category: see the module)."""
    return numerator / denominator if denominator else math.nan


def _contingency(a, b) -> tuple[np.ndarray, np.ndarray]:
    """The categories (the distinct labels of a and b, sorted) and the q x q table of counts:
    row i, column j counts the items a labels ``labels[i]`` and b ``labels[j]``."""
    a, b = as_label_pair(a, b)
    labels, codes = np.unique(np.concatenate([a, b]), return_inverse=True)
    q = len(labels)
    table = np.bincount(codes[:len(a)] * q + codes[len(a):], minlength=q * q).reshape(q, q)
    return labels, table.astype(float)


def _two_rater_tables(labels, table, expected, coefficient_rows) -> dict:
    """The tables every two-rater coefficient shows: its quantities, the counts, and the counts
    chance expects (``expected`` holds shares)."""
    n = table.sum()
    return {
        "coefficient": quantities(coefficient_rows),
        "contingency": _matrix("a \\ b", labels, table.astype(np.int64)),
        "expected": _matrix("a \\ b", labels, expected * n),
    }


def _cohen_kappa_steps(a, b, weights=None) -> Steps:
    one_of(weights, "weights", WEIGHTS)
    labels, table = _contingency(a, b)
    n = table.sum()
    observed = table / n
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0))
    distance = np.abs(labels[:, None] - labels[None, :])
    weight = {None: (distance > 0).astype(float), "linear": distance,
              "quadratic": distance ** 2}[weights]
    d_o, d_e = float((weight * observed).sum()), float((weight * expected).sum())
    kappa = 1 - _ratio(d_o, d_e)
    rows = [
        ("n", "items", n),
        ("p_o", "observed agreement: share on the diagonal", np.trace(observed)),
        ("p_e", "chance agreement: sum_k p_a(k) p_b(k)", np.trace(expected)),
        ("D_o", "observed disagreement: sum w_ij O_ij / n", d_o),
        ("D_e", "expected disagreement: sum w_ij E_ij / n", d_e),
        ("kappa", "1 - D_o / D_e", kappa),
    ]
    tables = _two_rater_tables(labels, table, expected, rows)
    if weights is not None:
        tables["weights"] = _matrix("a \\ b", labels, weight)
    return Steps(kappa, tables)


def cohen_kappa(a, b, *, weights=None) -> float:
    r"""Cohen's kappa between two raters' labels of the same items, weighted or not.

    With :math:`O_{ij}` the share of items that rater a labels :math:`c_i` and rater b
    :math:`c_j`, :math:`E_{ij} = p_a(c_i)\, p_b(c_j)` its value if the raters labelled
    independently, each with their own marginal shares, and :math:`w_{ij}` the weight of the
    disagreement:

    .. math::

        \kappa = 1 - \frac{\sum_{ij} w_{ij} O_{ij}}{\sum_{ij} w_{ij} E_{ij}}

    Unweighted, :math:`w_{ij} = [i \ne j]` and :math:`\kappa = (p_o - p_e)/(1 - p_e)`.
    ``"linear"`` weights are :math:`|c_i - c_j|`, ``"quadratic"`` :math:`(c_i - c_j)^2`: the
    distance between the labels' *values*, so grades 1 and 3 are twice as far apart as 1 and 2
    whether or not grade 2 was used. scikit-learn's ``cohen_kappa_score`` gives the same number
    when its ``labels`` list every grade of the scale; without it, it weights by the grades'
    positions among those used, which differs when a grade in between is never used.

    Parameters
    ----------
    a, b : sequence of float
        The two raters' labels (grades, or 0/1), one per item, in the same order.
    weights : {None, "linear", "quadratic"}, default None
        How a disagreement counts: 1 whatever the labels (None), or by their distance.

    Returns
    -------
    float
        In [-1, 1] unweighted (1: perfect agreement, 0: what chance gives); ``math.nan`` when
        both raters used one and the same label for every item (chance agreement 1: 0/0).

    Raises
    ------
    ValueError
        Naming ``a`` or ``b`` for NaN or infinite labels, lengths that differ or no label;
        naming ``weights`` for an unknown weighting.
    TypeError
        Naming ``a`` or ``b`` for labels that are not numbers.

    See Also
    --------
    scott_pi, gwet_ac1, krippendorff_alpha, qrels_agreement

    Notes
    -----
    The chapter :doc:`/book/judgments` explains it; ``rk.explain.cohen_kappa`` shows the
    contingency table, the table chance expects and the two disagreements.

    References
    ----------
    - ``cohen1960``: Cohen, J. (1960). A coefficient of agreement for nominal scales.
      *Educational and Psychological Measurement*, 20(1), 37-46.
    - ``cohen1968``: Cohen, J. (1968). Weighted kappa. *Psychological Bulletin*, 70(4), 213-220.

    Examples
    --------
    IIR's Table 8.2 (Manning et al., 2008): 300 documents both judges call relevant, 20 only
    the first, 10 only the second, 70 neither:

    >>> import rankedu as rk
    >>> a = [1] * 300 + [1] * 20 + [0] * 10 + [0] * 70
    >>> b = [1] * 300 + [0] * 20 + [1] * 10 + [0] * 70
    >>> round(rk.cohen_kappa(a, b), 6)
    0.776119
    >>> round(rk.cohen_kappa([0, 1, 2, 3], [0, 2, 2, 3], weights="quadratic"), 4)
    0.9
    >>> rk.cohen_kappa([1, 1, 1], [1, 1, 1])
    nan
    """
    return _cohen_kappa_steps(a=a, b=b, weights=weights).value


def _pooled(table) -> tuple[np.ndarray, float]:
    """Each category's share of all 2n labels, and the observed agreement."""
    n = table.sum()
    return (table.sum(axis=1) + table.sum(axis=0)) / (2 * n), float(np.trace(table) / n)


def _category_table(labels, share, term_name, term) -> dict[str, np.ndarray]:
    return {"category": np.array([_label(v) for v in labels], dtype=object),
            "pi_k (pooled share)": share, term_name: term}


def _scott_pi_steps(a, b) -> Steps:
    labels, table = _contingency(a, b)
    share, p_o = _pooled(table)
    p_e = float((share ** 2).sum())
    pi = _ratio(p_o - p_e, 1 - p_e)
    rows = [("n", "items", table.sum()),
            ("p_o", "observed agreement: share on the diagonal", p_o),
            ("p_e", "chance agreement: sum_k pi_k^2 (pooled)", p_e),
            ("pi", "(p_o - p_e) / (1 - p_e)", pi)]
    tables = _two_rater_tables(labels, table, np.outer(share, share), rows)
    tables["categories"] = _category_table(labels, share, "pi_k^2", share ** 2)
    return Steps(pi, tables)


def scott_pi(a, b) -> float:
    r"""Scott's pi between two raters' labels: kappa with one pooled distribution.

    Chance agreement uses each category's share :math:`\pi_k` of all :math:`2n` labels, as if
    both raters drew from the same distribution:

    .. math::

        \pi = \frac{p_o - p_e}{1 - p_e}, \quad p_e = \sum_k \pi_k^2, \quad
        \pi_k = \frac{n_{a,k} + n_{b,k}}{2n}

    It is the kappa of IIR (Manning et al., 2008, 8.5) and Fleiss' kappa for two raters
    (:func:`fleiss_kappa`). Pooled shares never give less chance agreement than separate
    ones, so pi is never above Cohen's kappa; the two are equal when the raters' marginal
    shares are.

    Parameters
    ----------
    a, b : sequence of float
        The two raters' labels, one per item, in the same order.

    Returns
    -------
    float
        At most 1; ``math.nan`` when both raters used one and the same label throughout.

    Raises
    ------
    ValueError
        Naming ``a`` or ``b`` for NaN or infinite labels, lengths that differ or no label.
    TypeError
        Naming ``a`` or ``b`` for labels that are not numbers.

    See Also
    --------
    cohen_kappa, fleiss_kappa, gwet_ac1

    Notes
    -----
    The chapter :doc:`/book/judgments` explains it.

    References
    ----------
    - ``scott1955``: Scott, W. A. (1955). Reliability of content analysis: the case of nominal
      scale coding. *Public Opinion Quarterly*, 19(3), 321-325.
    - ``manning2008``: Manning, C. D., Raghavan, P., and Schütze, H. (2008). *Introduction to
      Information Retrieval*, section 8.5.

    Examples
    --------
    >>> import rankedu as rk
    >>> a = [1] * 300 + [1] * 20 + [0] * 10 + [0] * 70
    >>> b = [1] * 300 + [0] * 20 + [1] * 10 + [0] * 70
    >>> round(rk.scott_pi(a, b), 5)
    0.77591
    """
    return _scott_pi_steps(a=a, b=b).value


def _gwet_ac1_steps(a, b) -> Steps:
    labels, table = _contingency(a, b)
    share, p_o = _pooled(table)
    q = len(labels)
    term = share * (1 - share)
    p_e = _ratio(float(term.sum()), q - 1)
    ac1 = _ratio(p_o - p_e, 1 - p_e)
    rows = [("n", "items", table.sum()),
            ("q", "categories", q),
            ("p_o", "observed agreement: share on the diagonal", p_o),
            ("p_e", "chance: sum_k pi_k (1 - pi_k) / (q - 1)", p_e),
            ("AC1", "(p_o - p_e) / (1 - p_e)", ac1)]
    tables = {"coefficient": quantities(rows), "contingency": _matrix("a \\ b", labels, table.astype(np.int64)),
              "categories": _category_table(labels, share, "pi_k (1 - pi_k)", term)}
    return Steps(ac1, tables)


def gwet_ac1(a, b) -> float:
    r"""Gwet's AC1 between two raters' labels: agreement corrected by a chance term that stays
    small when one category dominates.

    .. math::

        \mathrm{AC1} = \frac{p_o - p_e}{1 - p_e}, \quad
        p_e = \frac{1}{q - 1} \sum_{k=1}^{q} \pi_k (1 - \pi_k)

    with :math:`\pi_k` the pooled share of category k (as in :func:`scott_pi`) and q the number
    of categories, here the distinct labels of ``a`` and ``b``. Chance agreement is largest
    when the categories are equally common and vanishes when one takes every label: where
    kappa and pi fall although the raters agree on most items (the *prevalence paradox*), AC1
    does not.

    Parameters
    ----------
    a, b : sequence of float
        The two raters' labels, one per item, in the same order.

    Returns
    -------
    float
        At most 1; ``math.nan`` when both raters used a single label throughout (q = 1).

    Raises
    ------
    ValueError
        Naming ``a`` or ``b`` for NaN or infinite labels, lengths that differ or no label.
    TypeError
        Naming ``a`` or ``b`` for labels that are not numbers.

    See Also
    --------
    scott_pi, cohen_kappa

    Notes
    -----
    The chapter :doc:`/book/judgments` explains it. A category of the scale that neither rater
    used does not count in q; irrCAC's ``CAC(..., categories=...)`` counts the categories it is
    given instead.

    References
    ----------
    - ``gwet2008``: Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the
      presence of high agreement. *British Journal of Mathematical and Statistical Psychology*,
      61(1), 29-48.

    Examples
    --------
    >>> import rankedu as rk
    >>> a = [1] * 300 + [1] * 20 + [0] * 10 + [0] * 70
    >>> b = [1] * 300 + [0] * 20 + [1] * 10 + [0] * 70
    >>> round(rk.gwet_ac1(a, b), 5)
    0.88727
    """
    return _gwet_ac1_steps(a=a, b=b).value


def _fleiss_kappa_steps(counts) -> Steps:
    table = as_count_table(counts, "counts")
    raters = table.sum(axis=1)
    if (raters != raters[0]).any():
        row = int(np.flatnonzero(raters != raters[0])[0])
        raise ValueError(f"counts must give every item the same number of raters: row 0 sums "
                         f"to {raters[0]}, row {row} to {raters[row]}")
    m = int(raters[0])
    if m < 2:
        raise ValueError(f"counts must give every item at least two raters, got {m}")
    n_items = len(table)
    per_item = ((table ** 2).sum(axis=1) - m) / (m * (m - 1))
    share = table.sum(axis=0) / (n_items * m)
    p_bar, p_e = float(per_item.mean()), float((share ** 2).sum())
    kappa = _ratio(p_bar - p_e, 1 - p_e)
    rows = [("N", "items", n_items), ("m", "raters per item", m),
            ("P_bar", "mean over items of P_i", p_bar),
            ("P_e", "sum_j p_j^2", p_e),
            ("kappa", "(P_bar - P_e) / (1 - P_e)", kappa)]
    tables = {
        "coefficient": quantities(rows),
        "items": {"item": np.arange(n_items), **{f"n_{j}": table[:, j]
                                                 for j in range(table.shape[1])},
                  "P_i": per_item},
        "categories": {"category": np.arange(table.shape[1]), "labels": table.sum(axis=0),
                       "p_j": share, "p_j^2": share ** 2},
    }
    return Steps(kappa, tables)


def fleiss_kappa(counts) -> float:
    r"""Fleiss' kappa: the agreement of m raters per item, from a table of counts.

    ``counts[i][j]`` is the number of raters who put item i in category j; every item has the
    same number m of raters (not necessarily the same raters). With :math:`N` items,

    .. math::

        P_i = \frac{\sum_j n_{ij}^2 - m}{m (m - 1)}, \quad
        p_j = \frac{1}{N m} \sum_i n_{ij}, \quad
        \kappa = \frac{\bar P - P_e}{1 - P_e}, \quad \bar P = \frac{1}{N} \sum_i P_i, \quad
        P_e = \sum_j p_j^2

    :math:`P_i` is the share of the pairs of raters of item i who agree. For two raters it is
    Scott's pi (:func:`scott_pi`), not Cohen's kappa. The table is statsmodels' layout
    (``statsmodels.stats.inter_rater.aggregate_raters`` builds it from raw labels).

    Parameters
    ----------
    counts : 2-D sequence of int
        Items x categories; each row sums to m >= 2.

    Returns
    -------
    float
        At most 1; ``math.nan`` when every label falls in one category (:math:`P_e = 1`).

    Raises
    ------
    ValueError
        Naming ``counts`` for a negative or non-integer count, rows with different sums, fewer
        than two raters per item or an empty table.
    TypeError
        Naming ``counts`` when it is not a table of numbers.

    See Also
    --------
    scott_pi, krippendorff_alpha

    Notes
    -----
    The chapter :doc:`/book/judgments` explains it.

    References
    ----------
    - ``fleiss1971``: Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
      *Psychological Bulletin*, 76(5), 378-382.

    Examples
    --------
    IIR's Table 8.2 as counts: for each document, how many of the two judges said
    non-relevant and how many relevant:

    >>> import rankedu as rk
    >>> counts = [[0, 2]] * 300 + [[1, 1]] * 30 + [[2, 0]] * 70
    >>> round(rk.fleiss_kappa(counts), 5)
    0.77591
    """
    return _fleiss_kappa_steps(counts=counts).value


def _distances(level: str, values: np.ndarray, totals: np.ndarray) -> np.ndarray:
    """The squared distance delta^2 between every two values, at the given level."""
    if level == "nominal":
        return (values[:, None] != values[None, :]).astype(float)
    if level == "interval":
        return (values[:, None] - values[None, :]) ** 2
    if level == "ratio":
        total = values[:, None] + values[None, :]
        with np.errstate(invalid="ignore", divide="ignore"):
            # two zeros are the same value: distance 0, not 0/0
            return np.where(total == 0, 0.0, ((values[:, None] - values[None, :]) / total) ** 2)
    # ordinal: the labels from c to k, less half of c's and half of k's, squared
    through = np.cumsum(totals)
    positions = np.arange(len(values))
    low, high = np.minimum.outer(positions, positions), np.maximum.outer(positions, positions)
    between = through[high] - through[low] + totals[low]
    return (between - (totals[:, None] + totals[None, :]) / 2) ** 2


def _krippendorff_alpha_steps(data, level="nominal") -> Steps:
    one_of(level, "level", LEVELS)
    labels = as_rating_matrix(data, "data")
    given = ~np.isnan(labels)
    if level == "ratio" and (labels[given] < 0).any():
        raise ValueError(f"data must hold labels >= 0 at the ratio level, got "
                         f"{labels[given][labels[given] < 0][0]:g}")
    per_item = given.sum(axis=0)
    pairable = per_item >= 2
    if not pairable.any():
        raise ValueError("data must have an item labelled by at least two raters (raters x "
                         "items, NaN for a missing label): alpha compares labels within items")
    values, codes = np.unique(labels[:, pairable][given[:, pairable]], return_inverse=True)
    q = len(values)
    # items x values: how many raters gave each value to each pairable item
    kept = labels[:, pairable]
    item_of = np.broadcast_to(np.arange(kept.shape[1]), kept.shape)[~np.isnan(kept)]
    by_item = np.zeros((kept.shape[1], q))
    np.add.at(by_item, (item_of, codes), 1)
    m = per_item[pairable].astype(float)
    # o_ck = sum over items of (pairs of different raters giving c and k) / (m_u - 1)
    weighted = by_item / (m - 1)[:, None]
    coincidences = weighted.T @ by_item - np.diag(weighted.sum(axis=0))
    totals = coincidences.sum(axis=1)
    n = float(totals.sum())
    expected = (np.outer(totals, totals) - np.diag(totals)) / (n - 1)
    distance = _distances(level, values, totals)
    d_o = float((coincidences * distance).sum() / n)
    d_e = float((expected * distance).sum() / n)
    alpha = 1 - _ratio(d_o, d_e)
    rows = [("items", "items labelled by at least two raters", int(pairable.sum())),
            ("n", "pairable labels: sum of their m_u", n),
            ("D_o", "observed disagreement: sum o_ck delta^2 / n", d_o),
            ("D_e", "expected: sum n_c n_k delta^2 / (n (n - 1))", d_e),
            ("alpha", "1 - D_o / D_e", alpha)]
    tables = {"coefficient": quantities(rows),
              "coincidences": _matrix("c \\ k", values, coincidences),
              "expected": _matrix("c \\ k", values, expected),
              "distances": _matrix("c \\ k", values, distance)}
    return Steps(alpha, tables)


def krippendorff_alpha(data, *, level="nominal") -> float:
    r"""Krippendorff's alpha: agreement of any number of raters, with missing labels, at the
    nominal, ordinal, interval or ratio level.

    ``data`` is raters x items, NaN where a rater gave no label. Items with fewer than two
    labels are left out (they hold no pair). Every item u with :math:`m_u` labels adds, for
    each ordered pair of its labels by different raters, :math:`1/(m_u - 1)` to the
    **coincidence** :math:`o_{ck}` of their values; :math:`n_c = \sum_k o_{ck}` and
    :math:`n = \sum_c n_c` is the number of pairable labels. Then

    .. math::

        \alpha = 1 - \frac{D_o}{D_e}, \quad
        D_o = \frac{1}{n} \sum_{c,k} o_{ck}\, \delta^2_{ck}, \quad
        D_e = \frac{1}{n (n - 1)} \sum_{c,k} n_c\, n_k\, \delta^2_{ck}

    The :math:`n - 1` (values drawn without replacement from the n labels) is the small-sample
    correction that sets alpha apart from Scott's pi: for two raters, nominal labels and no
    missing label, :math:`n = 2N` for N items and :math:`\alpha = 1 - \frac{n-1}{n}(1 - \pi)`,
    slightly above pi. The distance :math:`\delta^2_{ck}` is
    :math:`[c \ne k]` (nominal), :math:`(c - k)^2` (interval),
    :math:`((c - k)/(c + k))^2` (ratio; labels must be >= 0, and two zeros are at distance 0),
    and for ordinal labels :math:`\bigl(\sum_{g=c}^{k} n_g - (n_c + n_k)/2\bigr)^2`, which
    depends on how often each value in between was used, not on the values themselves.

    Parameters
    ----------
    data : 2-D sequence of float
        Raters x items; NaN for a missing label.
    level : {"nominal", "ordinal", "interval", "ratio"}, default "nominal"
        The labels' level of measurement, which chooses the distance.

    Returns
    -------
    float
        At most 1; ``math.nan`` when the pairable labels hold a single value (:math:`D_e = 0`).

    Raises
    ------
    ValueError
        Naming ``data`` when no item has two labels, for an infinite label, a negative label at
        the ratio level, or a table that is not two-dimensional; naming ``level`` for an
        unknown level.
    TypeError
        Naming ``data`` when it is not a table of numbers.

    See Also
    --------
    scott_pi, fleiss_kappa, cohen_kappa

    Notes
    -----
    The chapter :doc:`/book/judgments` explains it; ``rk.explain.krippendorff_alpha`` shows the
    coincidences, the coincidences chance expects and the distances.

    References
    ----------
    - ``krippendorff2011``: Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability.
      Departmental Papers (ASC), University of Pennsylvania.

    Examples
    --------
    >>> import math
    >>> import rankedu as rk
    >>> a = [1] * 300 + [1] * 20 + [0] * 10 + [0] * 70
    >>> b = [1] * 300 + [0] * 20 + [1] * 10 + [0] * 70
    >>> round(rk.krippendorff_alpha([a, b]), 5)
    0.77619
    >>> nan = math.nan
    >>> round(rk.krippendorff_alpha([[1, 2, 3, nan], [1, 2, 2, 3], [nan, 2, 3, 3]],
    ...                             level="interval"), 4)
    0.8393
    """
    return _krippendorff_alpha_steps(data=data, level=level).value
