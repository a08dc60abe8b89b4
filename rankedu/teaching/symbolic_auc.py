"""Exact (sympy) ROC AUC, for the derivations of the chapter "ROC and AUC" (``book/roc_auc.ipynb``).

The two definitions of AUC, written separately and in exact rationals, so that a chapter can
show they are one number, not two floats that happen to agree: the area under the ROC curve,
summed trapezoid by trapezoid (:func:`roc_auc_area` over :func:`roc_points`), and the share of
(positive, negative) pairs in order, a tie counting one half (:func:`roc_auc_pairs` over
:func:`pair_credits`); :func:`roc_step_identity` shows in symbols why one step of the curve
adds what its pairs add. The ROC counts come from ``rk.explain.roc_auc`` (integers, so nothing
is lost turning them into rationals), and the inputs are checked as ``rk.roc_auc`` checks
them: 0/1 labels holding both classes, finite scores of the same length.

Like :mod:`rankedu.teaching.symbolic`, which offers these functions too (``symbolic.roc_auc_pairs``),
it is imported only when used: ``import rankedu`` does not load sympy. Tests
(``tests/test_symbolic_auc.py``) check every function here against the numeric one.
"""

from rankedu.core.extras import require

from rankedu import explain
from rankedu.core.validation import two_classes

sympy = require("sympy", "symbolic")

__all__ = ["roc_points", "roc_auc_area", "pair_credits", "roc_auc_pairs", "roc_step_identity"]


def roc_points(labels, scores):
    """The ROC curve's points (FPR, TPR) as exact rationals, from (0, 0) to (1, 1).

    One point per distinct score, highest first, as in ``rk.roc_curve``.

    References
    ----------
    - ``fawcett2006``: Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition
      Letters 27(8), 861-874.

    Examples
    --------
    >>> roc_points([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    [(0, 0), (0, 1/2), (1/2, 1/2), (1/2, 1), (1, 1)]
    """
    roc = explain.roc_auc(labels, scores).table
    positives, negatives = int(roc["TP"].iloc[-1]), int(roc["FP"].iloc[-1])
    return [
        (sympy.Rational(int(fp), negatives), sympy.Rational(int(tp), positives))
        for tp, fp in zip(roc["TP"], roc["FP"])
    ]


def roc_auc_area(labels, scores):
    """AUC as the exact area under the ROC curve: the sum of its trapezoids.

    References
    ----------
    - ``fawcett2006``: Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition
      Letters 27(8), 861-874.

    Examples
    --------
    >>> roc_auc_area([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    3/4
    """
    points = roc_points(labels, scores)
    return sympy.Add(
        *[(x1 - x0) * (y0 + y1) / 2 for (x0, y0), (x1, y1) in zip(points, points[1:])]
    )


def pair_credits(labels, scores):
    """The credit of every (positive, negative) pair: 1 if the positive scores higher, 1/2 on a
    tie, 0 otherwise.

    Returns
    -------
    list of (int, int, sympy.Rational)
        ``(i, j, credit)`` with ``i`` the position of the positive and ``j`` that of the
        negative in ``labels``, positives in input order, then negatives in input order.

    References
    ----------
    - ``mann1947``: Mann, H. B. and Whitney, D. R. (1947). On a test of whether one of two
      random variables is stochastically larger than the other. Annals of Mathematical
      Statistics 18(1), 50-60.
    - ``hanley1982``: Hanley, J. A. and McNeil, B. J. (1982). The meaning and use of the area
      under a receiver operating characteristic (ROC) curve. Radiology 143(1), 29-36.

    Examples
    --------
    >>> pair_credits([1, 0, 1], [0.4, 0.4, 0.9])
    [(0, 1, 1/2), (2, 1, 1)]
    """
    labels, (scores,), _, _ = two_classes(labels, scores=scores)
    labels, scores = labels.tolist(), scores.tolist()
    half = sympy.Rational(1, 2)
    return [
        (i, j, sympy.Integer(1) if scores[i] > scores[j] else half if scores[i] == scores[j]
         else sympy.Integer(0))
        for i in range(len(labels)) if labels[i] == 1
        for j in range(len(labels)) if labels[j] == 0
    ]


def roc_auc_pairs(labels, scores):
    """AUC as the exact share of (positive, negative) pairs in order, a tie counting 1/2.

    References
    ----------
    - ``mann1947``: Mann, H. B. and Whitney, D. R. (1947). On a test of whether one of two
      random variables is stochastically larger than the other. Annals of Mathematical
      Statistics 18(1), 50-60.
    - ``hanley1982``: Hanley, J. A. and McNeil, B. J. (1982). The meaning and use of the area
      under a receiver operating characteristic (ROC) curve. Radiology 143(1), 29-36.

    Examples
    --------
    >>> roc_auc_pairs([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    3/4
    """
    credits = [credit for _, _, credit in pair_credits(labels, scores)]
    return sympy.Add(*credits) / len(credits)


def roc_step_identity():
    """One step of the ROC curve, as a trapezoid and as pair credits, in symbols.

    With ``n^+`` positives and ``n^-`` negatives in all (the book's n⁺ and n⁻), let the
    threshold come down onto a score held by ``a`` positives and ``b`` negatives, with ``A``
    positives scoring higher. The curve steps from (x, A/n^+) to (x + b/n^-, (A + a)/n^+); its
    trapezoid has area ``b/n^- * (A/n^+ + (A + a)/n^+) / 2``. Those ``b`` negatives are each
    outscored by ``A`` positives (credit 1) and tied with ``a`` (credit 1/2), so their pairs
    add ``b * (A + a/2) / (n^+ * n^-)`` to the pair-counting AUC.

    Returns
    -------
    (trapezoid, pairs) : two sympy expressions, whose difference simplifies to 0

    References
    ----------
    - ``fawcett2006``: Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition
      Letters 27(8), 861-874.
    - ``hanley1982``: Hanley, J. A. and McNeil, B. J. (1982). The meaning and use of the area
      under a receiver operating characteristic (ROC) curve. Radiology 143(1), 29-36.

    Examples
    --------
    >>> trapezoid, pairs = roc_step_identity()
    >>> sympy.simplify(trapezoid - pairs)
    0
    >>> pairs
    b*(A + a/2)/(n^+*n^-)
    """
    n_pos, n_neg, A, a, b = sympy.symbols("n^+ n^- A a b", positive=True)
    trapezoid = (b / n_neg) * (A / n_pos + (A + a) / n_pos) / 2
    pairs = b * (A + a / 2) / (n_pos * n_neg)
    return trapezoid, pairs
