"""The confusion matrix and the classification metrics read off it.

``y_true`` and ``y_pred`` are equal-length 0/1 sequences (1 = positive). Conventions: a ratio
whose denominator is 0 is 0.0 (scikit-learn's ``zero_division=0``); accuracy is
(TP + TN) / total (TP + FN in the numerator, a slip some tutorials make, is wrong). F-beta weighs
recall beta times as much as precision: F_beta = (1 + beta^2) P R / (beta^2 P + R), the weighted
harmonic mean of P and R with weights 1 and beta^2. The chapter "The confusion matrix"
(``book/confusion_matrix.ipynb``) derives them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rankedu.core.common import f_beta_of
from rankedu.core.steps import Steps
from rankedu.core.validation import as_above, as_labels, same_length

__all__ = [
    "ConfusionMatrix", "accuracy", "confusion_matrix", "f_beta", "false_positive_rate",
    "precision", "recall", "true_positive_rate",
]


@dataclass(frozen=True)
class ConfusionMatrix:
    """Counts of a binary prediction against the truth.

    ``tp``: positives predicted positive; ``fp``: negatives predicted positive; ``fn``:
    positives predicted negative; ``tn``: negatives predicted negative.
    """

    tp: int
    fp: int
    fn: int
    tn: int

    @property
    def total(self) -> int:
        return self.tp + self.fp + self.fn + self.tn


def confusion_matrix(y_true, y_pred) -> ConfusionMatrix:
    """Count true and false positives and negatives.

    Parameters
    ----------
    y_true, y_pred : sequence of {0, 1}
        The true classes and the predicted ones, of equal length.

    Returns
    -------
    ConfusionMatrix
        With integer attributes ``tp``, ``fp``, ``fn``, ``tn``.

    Notes
    -----
    The chapter :doc:`/book/confusion_matrix` explains it.

    References
    ----------
    - ``fawcett2006``: Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition
      Letters 27(8), 861-874.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.confusion_matrix([1, 1, 0, 0, 0], [1, 0, 1, 0, 0])
    ConfusionMatrix(tp=1, fp=1, fn=1, tn=2)
    """
    y_true = as_labels(y_true, "y_true")
    y_pred = as_labels(y_pred, "y_pred")
    same_length(y_true=y_true, y_pred=y_pred)
    return ConfusionMatrix(
        tp=int(np.sum((y_true == 1) & (y_pred == 1))),
        fp=int(np.sum((y_true == 0) & (y_pred == 1))),
        fn=int(np.sum((y_true == 1) & (y_pred == 0))),
        tn=int(np.sum((y_true == 0) & (y_pred == 0))),
    )


def _ratio(numerator: float, denominator: float) -> float:
    return numerator / denominator if denominator else 0.0


def _classification_steps(y_true, y_pred, beta=1.0) -> dict[str, float]:
    """Every quantity of the chapter's formulas, computed once from the confusion matrix."""
    beta = as_above(beta, "beta", 0)
    counts = confusion_matrix(y_true, y_pred)
    precision = _ratio(counts.tp, counts.tp + counts.fp)
    recall = _ratio(counts.tp, counts.tp + counts.fn)
    return {
        "TP": counts.tp,
        "FP": counts.fp,
        "FN": counts.fn,
        "TN": counts.tn,
        "accuracy": _ratio(counts.tp + counts.tn, counts.total),
        "precision": precision,
        "recall": recall,
        "TPR": recall,
        "FPR": _ratio(counts.fp, counts.fp + counts.tn),
        "β": beta,
        "F_β": float(f_beta_of(precision, recall, beta)),
    }


def _metric_steps(y_true, y_pred, result: str, uses: tuple[str, ...], beta=1.0) -> Steps:
    """One row: the counts and ratios ``result`` is computed from, ending in ``result``."""
    quantities = _classification_steps(y_true, y_pred, beta)
    row = {name: np.array([quantities[name]]) for name in (*uses, result)}
    return Steps(quantities[result], {result: row})


def _accuracy_steps(y_true, y_pred) -> Steps:
    return _metric_steps(y_true, y_pred, "accuracy", ("TP", "FP", "FN", "TN"))


def _precision_steps(y_true, y_pred) -> Steps:
    return _metric_steps(y_true, y_pred, "precision", ("TP", "FP"))


def _recall_steps(y_true, y_pred) -> Steps:
    return _metric_steps(y_true, y_pred, "recall", ("TP", "FN"))


def _true_positive_rate_steps(y_true, y_pred) -> Steps:
    return _metric_steps(y_true, y_pred, "TPR", ("TP", "FN"))


def _false_positive_rate_steps(y_true, y_pred) -> Steps:
    return _metric_steps(y_true, y_pred, "FPR", ("FP", "TN"))


def _f_beta_steps(y_true, y_pred, beta=1.0) -> Steps:
    return _metric_steps(y_true, y_pred, "F_β", ("TP", "FP", "FN", "precision", "recall", "β"), beta)


def accuracy(y_true, y_pred) -> float:
    r"""The share of predictions that are right.

    .. math:: \text{accuracy} = \frac{TP + TN}{TP + FP + FN + TN}

    Misleading on imbalanced classes: predicting "no click" for every ad shown scores above
    99 % when fewer than 1 % of ads are clicked.

    Parameters
    ----------
    y_true, y_pred : sequence of {0, 1}
        The true classes and the predicted ones, of equal length.

    Returns
    -------
    float

    Notes
    -----
    The chapter :doc:`/book/confusion_matrix` explains it.

    References
    ----------
    - ``fawcett2006``: Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition
      Letters 27(8), 861-874.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.accuracy([1, 1, 0, 0, 0], [1, 0, 1, 0, 0])  # (1 + 2) / 5
    0.6
    """
    return _accuracy_steps(y_true=y_true, y_pred=y_pred).value


def precision(y_true, y_pred) -> float:
    r"""The share of predicted positives that are positive.

    .. math:: P = \frac{TP}{TP + FP}

    0.0 when nothing is predicted positive.

    Parameters
    ----------
    y_true, y_pred : sequence of {0, 1}
        The true classes and the predicted ones, of equal length.

    Returns
    -------
    float

    Notes
    -----
    The chapter :doc:`/book/confusion_matrix` explains it.

    References
    ----------
    - ``manning2008``: Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to
      Information Retrieval, chapter 8. Cambridge University Press.
    - ``fawcett2006``: Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition
      Letters 27(8), 861-874.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.precision([1, 1, 0, 0, 0], [1, 0, 1, 0, 0])
    0.5
    """
    return _precision_steps(y_true=y_true, y_pred=y_pred).value


def recall(y_true, y_pred) -> float:
    r"""The share of positives predicted positive (also TPR, sensitivity).

    .. math:: R = \frac{TP}{TP + FN}

    0.0 when there is no positive.

    Parameters
    ----------
    y_true, y_pred : sequence of {0, 1}
        The true classes and the predicted ones, of equal length.

    Returns
    -------
    float

    Notes
    -----
    The chapter :doc:`/book/confusion_matrix` explains it.

    References
    ----------
    - ``manning2008``: Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to
      Information Retrieval, chapter 8. Cambridge University Press.
    - ``fawcett2006``: Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition
      Letters 27(8), 861-874.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.recall([1, 1, 0, 0, 0], [1, 0, 1, 0, 0])
    0.5
    """
    return _recall_steps(y_true=y_true, y_pred=y_pred).value


def true_positive_rate(y_true, y_pred) -> float:
    r"""The true positive rate, the y axis of the ROC curve; the same number as recall.

    .. math:: TPR = \frac{TP}{TP + FN}

    Parameters
    ----------
    y_true, y_pred : sequence of {0, 1}
        The true classes and the predicted ones, of equal length.

    Returns
    -------
    float

    Notes
    -----
    The chapter :doc:`/book/confusion_matrix` explains it.

    References
    ----------
    - ``fawcett2006``: Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition
      Letters 27(8), 861-874.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.true_positive_rate([1, 1, 0, 0, 0], [1, 0, 1, 0, 0])
    0.5
    """
    return _true_positive_rate_steps(y_true=y_true, y_pred=y_pred).value


def false_positive_rate(y_true, y_pred) -> float:
    r"""The share of negatives predicted positive, the x axis of the ROC curve.

    .. math:: FPR = \frac{FP}{FP + TN}

    0.0 when there is no negative.

    Parameters
    ----------
    y_true, y_pred : sequence of {0, 1}
        The true classes and the predicted ones, of equal length.

    Returns
    -------
    float

    Notes
    -----
    The chapter :doc:`/book/confusion_matrix` explains it.

    References
    ----------
    - ``fawcett2006``: Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition
      Letters 27(8), 861-874.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.false_positive_rate([1, 1, 0, 0, 0], [1, 0, 1, 0, 0])  # 1 of 3 negatives
    0.3333333333333333
    """
    return _false_positive_rate_steps(y_true=y_true, y_pred=y_pred).value


def f_beta(y_true, y_pred, beta=1.0) -> float:
    r"""The F-beta score: a weighted harmonic mean of precision and recall.

    .. math::

        F_\beta = \frac{(1 + \beta^2)\, P R}{\beta^2 P + R}
                = \frac{(1 + \beta^2)\, TP}{(1 + \beta^2)\, TP + \beta^2 FN + FP}

    beta > 1 weighs recall more (F2: recall "twice as important"), beta < 1 precision more
    (F0.5); F1 = 2TP / (2TP + FP + FN). 0.0 when P + R is 0. trec_eval's ``set_F`` takes
    beta squared as its parameter, not beta.

    Parameters
    ----------
    y_true, y_pred : sequence of {0, 1}
        The true classes and the predicted ones, of equal length.
    beta : float > 0, default 1.0
        How many times as much recall counts as precision.

    Notes
    -----
    The chapter :doc:`/book/confusion_matrix` explains it.

    References
    ----------
    - ``vanrijsbergen1979``: van Rijsbergen, C. J. (1979). Information Retrieval, 2nd edition.
      Butterworths.
    - ``manning2008``: Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to
      Information Retrieval, chapter 8. Cambridge University Press.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.f_beta([1, 1, 1, 0], [1, 0, 0, 0])  # P = 1, R = 1/3
    0.5
    >>> round(rk.f_beta([1, 1, 1, 0], [1, 0, 0, 0], beta=2), 4)
    0.3846
    """
    return _f_beta_steps(y_true=y_true, y_pred=y_pred, beta=beta).value
