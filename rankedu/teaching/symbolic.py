"""Exact (sympy) versions of the metrics, for derivations in the book.

The numeric metrics live in :mod:`rankedu.metrics.dcg` and :mod:`rankedu.metrics.cascade`; this module writes
the same definitions as exact sympy expressions so that a chapter can show
``3 + 2/log2(3) + ...`` instead of ``6.8611...`` and prove statements about them (see the
chapter "From cumulative gain to NDCG", ``book/ndcg.ipynb``): the gain-and-discount metrics
and ERR's cascade here, and the exact ROC AUC of :mod:`rankedu.teaching.symbolic_auc`, which this
module offers too (``symbolic.roc_auc_pairs``). It is imported only when used:
``import rankedu`` does not load sympy. Tests (``tests/test_symbolic.py``) check every
function here against the numeric one in ``rankedu``.

Conventions are those of ``rk.dcg`` / ``rk.idcg`` / ``rk.ndcg``:

- gain ``"linear"``: g; ``"exponential"``: 2**g - 1;
- discount ``"log2"``: 1/log2(i + 1); ``"jarvelin"``: 1 at the ranks i <= b, 1/log_b(i) after
  them (Järvelin and Kekäläinen; ``base`` b, default 2);
- the ideal ranking is the pool sorted by grade, highest first; NDCG is 0 when the ideal
  DCG is 0.

Unlike the numeric functions, grades may be sympy symbols (``sympy.symbols("a b c")``) for
``gain``, ``dcg_terms`` and ``dcg``; ``idcg`` and ``ndcg`` need numbers, because they
sort the pool.
"""

import itertools
import math
import numbers

from rankedu.core.extras import require

from rankedu.core.validation import as_above, as_cutoff, one_of
from rankedu.teaching.symbolic_auc import (
    pair_credits,
    roc_auc_area,
    roc_auc_pairs,
    roc_points,
    roc_step_identity,
)

sympy = require("sympy", "symbolic")

__all__ = [
    "log2",
    "gain",
    "discount",
    "dcg_terms",
    "dcg",
    "idcg",
    "ndcg",
    "rearrangement_differences",
    "in_gaps",
    "roc_points",
    "roc_auc_area",
    "pair_credits",
    "roc_auc_pairs",
    "roc_step_identity",
    "satisfaction",
    "stop_probabilities",
    "cascade_metric",
]

_GAINS = ("linear", "exponential")
_DISCOUNTS = ("log2", "jarvelin")


class log2(sympy.Function):
    """The base-2 logarithm, kept as ``log2(x)`` in printed expressions.

    sympy's own ``log(x, 2)`` becomes ``log(x)/log(2)`` and, for ``log(6, 2)``,
    ``1 + log(3)/log(2)``, which hides the textbook formula. This function stays
    ``log2(6)``, evaluates exact powers of two (``log2(8) == 3``), evaluates numerically
    with ``sympy.N`` and rewrites to natural logarithms with ``.rewrite(sympy.log)``.

    Examples
    --------
    >>> log2(8), log2(3)
    (3, log2(3))
    >>> sympy.N(1 / log2(3), 6)
    0.630930
    """

    @classmethod
    def eval(cls, x):
        if x.is_Integer and x > 0 and (int(x) & (int(x) - 1)) == 0:
            return sympy.Integer(int(x).bit_length() - 1)
        return None

    def _eval_rewrite_as_log(self, x, **kwargs):
        return sympy.log(x) / sympy.log(2)

    def _eval_evalf(self, prec):
        return (sympy.log(self.args[0]) / sympy.log(2))._eval_evalf(prec)

    def _eval_is_positive(self):
        return (self.args[0] - 1).is_positive

    def fdiff(self, argindex=1):
        return 1 / (self.args[0] * sympy.log(2))


def _exact(x):
    """A grade as an exact sympy number (a float through its shortest decimal) or a symbol."""
    if isinstance(x, sympy.Basic):
        return x
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise TypeError(f"rels: grades must be real numbers or sympy expressions, got {x!r}")
    if isinstance(x, numbers.Integral):
        return sympy.Integer(int(x))
    if not math.isfinite(float(x)):
        raise ValueError(f"rels: grades must be finite, got {x!r}")
    return sympy.Rational(repr(float(x)))


def _gain(grade, kind):
    one_of(kind, "gain", _GAINS)
    g = _exact(grade)
    return g if kind == "linear" else 2**g - 1


def _discount(rank, kind, base=2):
    one_of(kind, "discount", _DISCOUNTS)
    if isinstance(rank, bool) or not isinstance(rank, numbers.Integral) or rank < 1:
        raise ValueError(f"rank: must be an int >= 1, got {rank!r}")
    as_above(base, "base", 1)  # a finite real number > 1, as rk.dcg requires
    b = _exact(base)
    if kind == "log2" and b != 2:
        raise ValueError(f"base must be 2 with discount='log2', got {base!r}")
    i = sympy.Integer(int(rank))
    if kind == "log2":
        return 1 / log2(i + 1)
    if i <= b:
        return sympy.Integer(1)
    return 1 / log2(i) if b == 2 else 1 / sympy.log(i, b)


def gain(grade, gain="linear"):
    """Exact gain of one grade: ``grade`` (linear) or ``2**grade - 1`` (exponential).

    References
    ----------
    - ``jarvelin2002``: Järvelin, K. and Kekäläinen, J. (2002). Cumulated gain-based evaluation
      of IR techniques. ACM Transactions on Information Systems 20(4), 422-446.
    - ``burges2005``: Burges, C., Shaked, T., Renshaw, E., Lazier, A., Deeds, M., Hamilton, N.
      and Hullender, G. (2005). Learning to rank using gradient descent. ICML 2005, 89-96.

    Examples
    --------
    >>> gain(3), gain(3, gain="exponential")
    (3, 7)
    """
    return _gain(grade, gain)


def discount(rank, discount="log2", base=2):
    """Exact discount of rank ``rank`` (1 = top).

    ``"log2"``: 1/log2(rank + 1); ``"jarvelin"``: 1 at the ranks up to ``base`` (b, default 2),
    1/log_b(rank) after them.

    References
    ----------
    - ``jarvelin2002``: Järvelin, K. and Kekäläinen, J. (2002). Cumulated gain-based evaluation
      of IR techniques. ACM Transactions on Information Systems 20(4), 422-446.

    Examples
    --------
    >>> discount(1), discount(2), discount(3)
    (1, 1/log2(3), 1/2)
    >>> discount(1, "jarvelin"), discount(2, "jarvelin"), discount(3, "jarvelin")
    (1, 1, 1/log2(3))
    >>> discount(3, "jarvelin", base=3), discount(9, "jarvelin", base=3)
    (1, 1/2)
    """
    return _discount(rank, discount, base)


def dcg_terms(rels, k=None, *, gain="linear", discount="log2", base=2):
    """The exact per-rank contributions gain(rel_i) * discount(i) of the top ``k`` ranks.

    References
    ----------
    - ``jarvelin2002``: Järvelin, K. and Kekäläinen, J. (2002). Cumulated gain-based evaluation
      of IR techniques. ACM Transactions on Information Systems 20(4), 422-446.

    Examples
    --------
    >>> dcg_terms([3, 2, 3])
    [3, 2/log2(3), 3/2]
    """
    k = as_cutoff(k)
    top = list(rels)[:k]
    return [
        _gain(rel, gain) * _discount(i, discount, base) for i, rel in enumerate(top, start=1)
    ]


def dcg(rels, k=None, *, gain="linear", discount="log2", base=2):
    """Exact DCG: the sum of :func:`dcg_terms`; 0 for an empty list.

    References
    ----------
    - ``jarvelin2002``: Järvelin, K. and Kekäläinen, J. (2002). Cumulated gain-based evaluation
      of IR techniques. ACM Transactions on Information Systems 20(4), 422-446.

    Examples
    --------
    >>> dcg([3, 2, 3, 0, 1, 2])
    1/log2(6) + 2/log2(7) + 2/log2(3) + 9/2
    """
    return sympy.Add(*dcg_terms(rels, k, gain=gain, discount=discount, base=base))


def _ideal(pool):
    grades = [_exact(g) for g in pool]
    if not all(g.is_number for g in grades):
        raise TypeError("pool: grades must be numbers to sort them into the ideal ranking")
    return sorted(grades, key=lambda g: float(g), reverse=True)


def idcg(pool, k=None, *, gain="linear", discount="log2", base=2):
    """Exact ideal DCG: :func:`dcg` of ``pool`` sorted by grade, highest first.

    References
    ----------
    - ``jarvelin2002``: Järvelin, K. and Kekäläinen, J. (2002). Cumulated gain-based evaluation
      of IR techniques. ACM Transactions on Information Systems 20(4), 422-446.

    Examples
    --------
    >>> idcg([3, 2, 3, 0, 1, 2, 3, 0], 6)
    1/log2(7) + 2/log2(6) + 2/log2(5) + 3/log2(3) + 9/2
    """
    return dcg(_ideal(pool), k, gain=gain, discount=discount, base=base)


def ndcg(rels, k=None, *, pool=None, gain="linear", discount="log2", base=2):
    """Exact NDCG: ``dcg(rels, k) / idcg(pool, k)``; ``pool`` defaults to ``rels``.

    Returns ``sympy.Integer(0)`` when the ideal DCG is 0, as ``rk.ndcg`` returns 0.0, and
    raises ``ValueError`` when it is negative, as ``rk.ndcg`` does.

    References
    ----------
    - ``jarvelin2002``: Järvelin, K. and Kekäläinen, J. (2002). Cumulated gain-based evaluation
      of IR techniques. ACM Transactions on Information Systems 20(4), 422-446.

    Examples
    --------
    >>> sympy.N(ndcg([3, 2, 3, 0, 1, 2], 6, pool=[3, 2, 3, 0, 1, 2, 3, 0]), 4)
    0.8184
    """
    ideal = idcg(rels if pool is None else pool, k, gain=gain, discount=discount, base=base)
    if ideal < 0:
        raise ValueError(f"pool: the ideal DCG is negative ({ideal}); NDCG is undefined")
    if ideal == 0:
        return sympy.Integer(0)
    return dcg(rels, k, gain=gain, discount=discount, base=base) / ideal


def rearrangement_differences(n):
    """DCG of the sorted order minus DCG of every order of ``n`` gains, symbolically.

    The gains are symbols ``g1 >= g2 >= ... >= gn`` (sorted, highest first) and the
    discounts symbols ``d1 >= d2 >= ... >= dn``. For each permutation ``p`` of
    ``(0, ..., n-1)`` the value is ``sum g_i d_i - sum g_{p(i)} d_i``: how much the
    sorted (ideal) order beats the order that puts gain ``g_{p(i)}`` at rank ``i``.

    Returns
    -------
    dict
        ``{p: sympy expression}``, one entry per permutation (``n!`` entries), the
        identity included (its difference is 0).

    References
    ----------
    - ``hardy1934``: Hardy, G. H., Littlewood, J. E. and Pólya, G. (1934). Inequalities, chapter
      X (rearrangements). Cambridge University Press.

    Examples
    --------
    >>> rearrangement_differences(2)[(1, 0)].factor()
    (d1 - d2)*(g1 - g2)
    """
    g = sympy.symbols(f"g1:{n + 1}")
    d = sympy.symbols(f"d1:{n + 1}")
    best = sum(gi * di for gi, di in zip(g, d))
    return {
        p: sympy.expand(best - sum(g[p[i]] * d[i] for i in range(n)))
        for p in itertools.permutations(range(n))
    }


def in_gaps(expr, n):
    """Rewrite ``expr`` in the gaps between consecutive sorted gains and discounts.

    Substitutes ``g_i = g_n + x_i + ... + x_{n-1}`` and ``d_i = d_n + y_i + ... + y_{n-1}``
    with gaps ``x_j = g_j - g_{j+1} >= 0`` and ``y_j = d_j - d_{j+1} >= 0``, then expands.
    A difference from :func:`rearrangement_differences` becomes a polynomial in the gaps
    whose coefficients are all non-negative, which proves it is ``>= 0``.

    References
    ----------
    - ``hardy1934``: Hardy, G. H., Littlewood, J. E. and Pólya, G. (1934). Inequalities, chapter
      X (rearrangements). Cambridge University Press.

    Examples
    --------
    >>> in_gaps(rearrangement_differences(3)[(2, 1, 0)], 3)
    x1*y1 + x1*y2 + x2*y1 + x2*y2
    """
    g = sympy.symbols(f"g1:{n + 1}")
    d = sympy.symbols(f"d1:{n + 1}")
    x = sympy.symbols(f"x1:{n}", nonnegative=True)
    y = sympy.symbols(f"y1:{n}", nonnegative=True)
    subs = {}
    for i in range(n):
        subs[g[i]] = g[n - 1] + sum(x[i:], sympy.Integer(0))
        subs[d[i]] = d[n - 1] + sum(y[i:], sympy.Integer(0))
    return sympy.expand(expr.xreplace(subs))


def satisfaction(grade, max_grade):
    """ERR's stopping probability R(g) = (2^g - 1) / 2^max_grade, exactly.

    The numeric version is the ``R_i`` column of ``rk.explain.err``; here the grade and
    ``max_grade`` may be numbers or sympy symbols.

    References
    ----------
    - ``chapelle2009``: Chapelle, O., Metzler, D., Zhang, Y. and Grinspan, P. (2009). Expected
      reciprocal rank for graded relevance. CIKM 2009, 621-630.

    Examples
    --------
    >>> satisfaction(3, 4)
    7/16
    >>> g, g_max = sympy.symbols("g g_max")
    >>> satisfaction(g, g_max)
    (2**g - 1)/2**g_max
    """
    return (2 ** _exact(grade) - 1) / 2 ** _exact(max_grade)


def stop_probabilities(satisfied):
    """The cascade's PP_i = R_i * prod_{j<i} (1 - R_j) for ranks i = 1, 2, ..., exactly.

    ``satisfied`` holds the per-rank stopping probabilities R_1, R_2, ... (numbers or sympy
    symbols), not grades: pass ``[satisfaction(g, max_grade) for g in rels]`` to get ERR's.
    These are the ``PP_i`` of ``rk.explain.err`` and the click probabilities P(click at i) of
    ``rk.click_probabilities``.

    References
    ----------
    - ``chapelle2009``: Chapelle, O., Metzler, D., Zhang, Y. and Grinspan, P. (2009). Expected
      reciprocal rank for graded relevance. CIKM 2009, 621-630.
    - ``craswell2008``: Craswell, N., Zoeter, O., Taylor, M. and Ramsey, B. (2008). An
      experimental comparison of click position-bias models. WSDM 2008, 87-94.

    Examples
    --------
    >>> R1, R2, R3 = sympy.symbols("R1 R2 R3")
    >>> stop_probabilities([R1, R2, R3])
    [R1, R2*(1 - R1), R3*(1 - R1)*(1 - R2)]
    """
    stops, reach = [], sympy.Integer(1)
    for r in map(_exact, satisfied):
        stops.append(reach * r)
        reach = reach * (1 - r)
    return stops


def cascade_metric(satisfied, phi):
    """sum_i phi(i) * PP_i over the stopping probabilities ``satisfied`` (see :func:`stop_probabilities`).

    ``phi`` is called with each rank as a sympy Integer, 1, 2, ...; ``lambda i: 1 / i`` gives
    ERR, as ``rk.cascade_metric`` with ``phi(i) = 1/i`` is ``rk.err``.

    References
    ----------
    - ``chapelle2009``: Chapelle, O., Metzler, D., Zhang, Y. and Grinspan, P. (2009). Expected
      reciprocal rank for graded relevance. CIKM 2009, 621-630.

    Examples
    --------
    >>> half = sympy.Rational(1, 2)  # R(1) on a 0-1 scale
    >>> cascade_metric([half, half], lambda i: 1 / i)  # ERR of the grades 1, 1
    5/8
    """
    return sympy.Add(
        *(phi(sympy.Integer(r)) * pp for r, pp in enumerate(stop_probabilities(satisfied), start=1))
    )
