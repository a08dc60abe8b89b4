r"""How far two rankings agree, weighting the top: tau_AP and rank-biased overlap.

Kendall's tau (:func:`rankedu.kendall_tau`) counts a swap at the bottom of a ranking as much as
one at the top. Two measures weight the top instead:

- **tau_AP** (:func:`tau_ap`, Yilmaz, Aslam and Robertson, 2008) compares the ordering of the
  same items by a score y with their reference scores x: for each item, the share of the items
  y puts above it that x puts above it too, averaged over the positions as AP averages
  precision. It is not symmetric: x is the reference.
- **Rank-biased overlap** (:func:`rbo`, Webber, Moffat and Zobel, 2010) compares two ranked
  lists of ids that may hold different items and have different lengths: the overlap of their
  top d, as a share of d, averaged over the depths d with weights :math:`(1 - p) p^{d-1}`.
  Lists seen to a finite depth leave the rest unknown: ``kind="min"`` assumes no further
  overlap, ``"res"`` is how much the unknown part could add at most, ``"ext"`` extrapolates
  the agreement seen at the end.

The chapter "Relevance judgments: agreement and LLM judges" (``book/judgments.ipynb``) uses
both to compare orderings of systems under two sets of judgments.
"""

from __future__ import annotations

import math

import numpy as np

from rankedu.core.common import quantities
from rankedu.core.steps import Steps
from rankedu.core.validation import (
    as_numbers, as_open_probability, as_ranked_ids, one_of, same_length,
)

__all__ = ["rbo", "tau_ap"]

KINDS = ("min", "res", "ext")
# Rows of the item-by-item comparison computed at once in tau_ap: memory stays O(n * _BLOCK).
_BLOCK = 1024


def _tau_ap_steps(x, y) -> Steps:
    x, y = as_numbers(x, "x"), as_numbers(y, "y")
    same_length(x=x, y=y)
    n = len(x)
    if n < 2:
        raise ValueError(f"x and y must hold at least two items to order, got {n}")
    order = np.lexsort((np.arange(n), -y))  # y descending; tied items kept in input order
    above = np.empty(n)  # a: items y puts strictly above
    tied = np.empty(n)  # t: items tied with it in y, itself included
    right_above = np.empty(n)  # of the a, those x does not put below it
    right_tied = np.empty(n)  # of the t - 1 others, those x does not put below it
    for start in range(0, n, _BLOCK):
        rows = order[start:start + _BLOCK]
        higher_y = y[None, :] > y[rows, None]
        same_y = y[None, :] == y[rows, None]
        not_below = x[None, :] >= x[rows, None]
        above[start:start + _BLOCK] = higher_y.sum(axis=1)
        tied[start:start + _BLOCK] = same_y.sum(axis=1)
        right_above[start:start + _BLOCK] = (higher_y & not_below).sum(axis=1)
        right_tied[start:start + _BLOCK] = (same_y & not_below).sum(axis=1) - 1
    # An item's position is a + m + 1, m uniform over 0..t-1 (every order of the ties equally
    # likely), with m of its t - 1 tied companions, a random m of them, above it. The expected
    # share of right pairs above it: the mean over m of (c_a + m c_t / (t - 1)) / (a + m),
    # position 1 (a + m = 0) having nothing above it and no term.
    term = np.empty(n)
    for i in range(n):
        a, t = above[i], int(tied[i])
        m = np.arange(t, dtype=float)[a + np.arange(t) > 0]
        share = right_tied[i] / (t - 1) if t > 1 else 0.0
        term[i] = ((right_above[i] + m * share) / (a + m)).sum() / t
    running = 2 * np.cumsum(term) / (n - 1) - 1
    table = {"item": order, "x": x[order], "y": y[order], "above (a)": above,
             "tied in y (t)": tied, "right above": right_above, "right tied": right_tied,
             "expected C(i)/(i-1)": term, "running tau_AP": running}
    return Steps(float(running[-1]), {"items": table})


def tau_ap(x, y) -> float:
    r"""AP correlation: how well the ordering by ``y`` agrees with the reference ``x``, weighting
    the top (Yilmaz, Aslam and Robertson, 2008).

    Order the n items by ``y``, highest first. For the item at position i > 1, let C(i) be how
    many of the i - 1 items above it have a higher reference score ``x``: the share
    C(i)/(i - 1) is the precision of the ordering at that item. Then

    .. math::

        \tau_{AP} = \frac{2}{n - 1} \sum_{i=2}^{n} \frac{C(i)}{i - 1} - 1

    In [-1, 1]: 1 when ``y`` orders the items as ``x`` does, -1 when it reverses them. A swap
    near the top costs more than one near the bottom, because it enters the shares of every
    item below it. It is not symmetric: ``tau_ap(x, y)`` judges ``y`` against ``x``.

    Ties, the rule used here (the paper assumes none):

    - Items tied in ``y`` have no order; the value is the **mean over every order of them**,
      computed exactly (each tied item is equally likely at each of the group's positions, with
      a random subset of its companions above it), not by enumerating the orders.
    - An item above another that ``x`` ties it with is **not an error**: C(i) counts the items
      above with ``x`` at least as high. So tied references cost nothing, ``tau_ap(x, x)`` is
      1 even when ``x`` has ties, and -1 is reached only without ties in ``x``.

    Without ties in either, this is the paper's formula exactly. It differs from Urbano and
    Marrero's (2017) tau_AP,b, which scores a tie in ``y`` as a tie.

    Parameters
    ----------
    x : sequence of float
        Reference scores of the items (higher is better): the ordering treated as true.
    y : sequence of float
        Scores of the same items, in the same order, whose ordering is judged.

    Returns
    -------
    float
        In [-1, 1].

    Raises
    ------
    ValueError
        Naming ``x`` or ``y`` for NaN or infinite scores, lengths that differ, or fewer than
        two items.
    TypeError
        Naming ``x`` or ``y`` for scores that are not numbers.

    See Also
    --------
    kendall_tau, rbo

    Notes
    -----
    The chapter :doc:`/book/judgments` explains it; ``rk.explain.tau_ap`` lists the items in
    the order of ``y`` with each one's expected share of right pairs above it. It compares every
    pair of items, O(n^2) in time (in blocks, O(n) in memory): meant for rankings of systems,
    not of millions of documents.

    References
    ----------
    - ``yilmaz2008``: Yilmaz, E., Aslam, J. A., and Robertson, S. (2008). A new rank correlation
      coefficient for information retrieval. *SIGIR 2008*, 587-594.
    - ``urbano2017``: Urbano, J., and Marrero, M. (2017). The treatment of ties in AP
      correlation. *ICTIR 2017*, 321-324.

    Examples
    --------
    Five systems; ``y`` swaps the two best, or the two worst:

    >>> import rankedu as rk
    >>> x = [5, 4, 3, 2, 1]
    >>> rk.tau_ap(x, [4, 5, 3, 2, 1])
    0.5
    >>> rk.tau_ap(x, [5, 4, 3, 1, 2])
    0.875
    >>> rk.kendall_tau(x, [4, 5, 3, 2, 1]), rk.kendall_tau(x, [5, 4, 3, 1, 2])
    (0.8, 0.8)
    """
    return _tau_ap_steps(x=x, y=y).value


def _overlaps(a: list, b: list) -> tuple[np.ndarray, list, list]:
    """X_d for d = 1..l: the items shared by the shorter list's top min(d, s) and the longer
    list's top d (Webber et al.'s overlap for lists of uneven length), and the shorter and the
    longer list."""
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    place = {item: position for position, item in enumerate(long_)}
    first_shared = [max(position, place[item]) for position, item in enumerate(short)
                    if item in place]
    counts = np.bincount(np.array(first_shared, dtype=np.int64), minlength=len(long_))
    return np.cumsum(counts).astype(float), short, long_


def _log_tail(p: float, weights: np.ndarray) -> float:
    """sum over d > l of p^d / d, ``weights`` the first l terms: -ln(1 - p) less them."""
    return -math.log1p(-p) - float(weights.sum())


def _rbo_steps(a, b, p=0.9, kind="ext") -> Steps:
    a, b = as_ranked_ids(a, "a"), as_ranked_ids(b, "b")
    p = as_open_probability(p, "p")
    one_of(kind, "kind", KINDS)
    overlap, shorter, longer = _overlaps(a, b)
    s, l = len(shorter), len(longer)
    depth = np.arange(1, l + 1, dtype=float)
    power = p ** depth  # p^d
    agreement = overlap / depth
    weight = (1 - p) * power / p  # (1 - p) p^(d-1)
    running = np.cumsum(weight * agreement)
    seen = float(running[-1])
    x_s, x_l = overlap[s - 1], overlap[l - 1]
    tail_minimum = (1 - p) / p * x_l * _log_tail(p, power / depth)
    minimum = seen + tail_minimum
    # The most the unseen items can add: the shorter list's items after depth s all match the
    # longer list's unmatched ones (X_d = X_d + d - s up to depth l); after l both lists
    # match one unmatched item of the other at every depth (X_d grows by 2) until their tops
    # hold the same items, at depth f = s + l - X_l, and agree fully from there on (from
    # l + 1 on when f = l: the shorter list's items all in the longer one).
    f = max(int(round(s + l - x_l)), l + 1)
    beyond_short = (1 - p) / p * float((power[s:] * (depth[s:] - s) / depth[s:]).sum())
    more = np.arange(l + 1, f, dtype=float)
    growing = x_l + (l - s) + 2 * (more - l)
    beyond_long = (1 - p) / p * float((p ** more * growing / more).sum()) + p ** (f - 1)
    maximum = seen + beyond_short + beyond_long
    extrapolated = (seen + (1 - p) / p * x_s * float(
        (power[s:] * (depth[s:] - s) / (s * depth[s:])).sum())
        + ((x_l - x_s) / l + x_s / s) * p ** l)
    value = {"min": minimum, "res": maximum - minimum, "ext": extrapolated}[kind]
    rows = [("s", "length of the shorter list", s), ("l", "length of the longer list", l),
            ("X_s", "overlap at depth s", x_s), ("X_l", "overlap at depth l", x_l),
            ("seen", "(1 - p)/p sum_{d<=l} p^d X_d/d", seen),
            ("RBO_min", "seen + no further overlap past depth l", minimum),
            ("RBO_max", "seen + the most the unseen items can add", maximum),
            ("RBO_res", "RBO_max - RBO_min", maximum - minimum),
            ("RBO_ext", "seen + the agreement at the end, extrapolated", extrapolated),
            ("RBO", f"the value of kind={kind!r}", value)]
    depths = {"d": depth.astype(int),
              "shorter": np.array([*shorter, *[""] * (l - s)], dtype=object),
              "longer": np.array(longer, dtype=object), "X_d": overlap, "A_d = X_d/d": agreement,
              "weight (1-p) p^(d-1)": weight, "running sum": running}
    return Steps(value, {"rbo": quantities(rows), "depths": depths})


def rbo(a, b, *, p=0.9, kind="ext") -> float:
    r"""Rank-biased overlap of two ranked lists of ids (Webber, Moffat and Zobel, 2010).

    With :math:`X_d` the number of ids the two lists share in their top d and
    :math:`A_d = X_d / d` their **agreement** at depth d, the RBO of two infinite rankings is

    .. math::

        \mathrm{RBO} = (1 - p) \sum_{d=1}^{\infty} p^{d-1} A_d

    a weighted mean of the agreements in which depth d weighs :math:`(1 - p) p^{d-1}`: a user
    who looks at the next item with probability p. Lists of finite lengths s <= l leave the
    agreements beyond them unknown; for d > s, :math:`X_d` counts the shorter list's s ids
    found in the longer list's top d. Three values follow (the paper's equations 11, 30 and
    32):

    - ``"min"``: no id beyond the lists is shared, :math:`X_d = X_l` for d > l: a lower bound,
      :math:`\frac{1-p}{p}\bigl(\sum_{d=1}^{l} \frac{X_d}{d} p^d + X_l \sum_{d>l}
      \frac{p^d}{d}\bigr)`.
    - ``"res"``: the residual, the most the unknown part could add to ``"min"``: the shorter
      list's next ids are the longer list's unmatched ones, and after depth l each list's next
      id matches one of the other's until they hold the same ids, at depth
      :math:`f = s + l - X_l`. RBO lies in [min, min + res].
    - ``"ext"``: a point estimate: the shorter list's agreement :math:`X_s / s` is assumed to
      hold for its unseen part, and the agreement at depth l for all depths beyond,
      :math:`\frac{1-p}{p}\bigl(\sum_{d=1}^{l} \frac{X_d}{d} p^d + \sum_{d=s+1}^{l}
      \frac{X_s (d - s)}{s\,d} p^d\bigr) + \bigl(\frac{X_l - X_s}{l} + \frac{X_s}{s}\bigr)
      p^l`. Two equal lists give 1.

    Parameters
    ----------
    a, b : sequence of hashable
        The two rankings, best first: ids (docnos, system names...), each at most once.
    p : float, default 0.9
        Persistence, in (0, 1): the expected depth looked at is 1/(1 - p); at p = 0.9 the top
        10 carry about 86% of the weight.
    kind : {"ext", "min", "res"}, default "ext"
        Which value to return.

    Returns
    -------
    float
        In [0, 1].

    Raises
    ------
    ValueError
        Naming ``a`` or ``b`` when a list is empty, names an id twice or holds a missing id
        (None, NaN); naming ``p`` outside (0, 1) and ``kind`` for an unknown kind.
    TypeError
        Naming ``a`` or ``b`` when it is not a list of hashable ids, ``p`` when it is not a
        number.

    See Also
    --------
    tau_ap, kendall_tau

    Notes
    -----
    The chapter :doc:`/book/judgments` explains it. The package ``rbo`` (0.1.3) gives the same
    ``"ext"`` value with ``RankingSimilarity(a, b).rbo_ext(p)`` for any lengths and with
    ``.rbo(p=p, ext=True)`` only for lists of equal length (it cuts the longer list to the
    shorter one's length); its ``.rbo(p=p)`` without ``ext`` is the sum to depth
    min(s, l), none of the three values here. ``rk.explain.rbo`` shows the overlap and the
    agreement at every depth.

    References
    ----------
    - ``webber2010``: Webber, W., Moffat, A., and Zobel, J. (2010). A similarity measure for
      indefinite rankings. *ACM Transactions on Information Systems*, 28(4), 20.

    Examples
    --------
    >>> import rankedu as rk
    >>> round(rk.rbo([1, 2, 3, 4], [2, 1, 3, 5], p=0.9), 5)
    0.71775
    >>> round(rk.rbo([1, 2, 3, 4], [2, 1, 3, 5], p=0.9, kind="min"), 5)
    0.42253
    >>> rk.rbo(["a", "b", "c"], ["a", "b", "c"])
    1.0
    """
    return _rbo_steps(a=a, b=b, p=p, kind=kind).value
