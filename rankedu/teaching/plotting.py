"""Matplotlib figures for the chapters.

Imported only when used: ``import rankedu`` does not load matplotlib. Every function draws on
the ``ax`` it is given (a new figure's axes by default), labels the axes, returns the Axes and
never calls ``plt.show()``; the chapter decides when to show, and gives the caption through
the cell's metadata. The values drawn come from the public metric functions, so a figure
cannot disagree with the numbers in the text.
"""

from __future__ import annotations

import numpy as np

import rankedu as rk
from rankedu.core.extras import require

__all__ = [
    "average_precision_steps",
    "dcg_contributions",
    "discount_values",
    "gain_values",
    "plot_discounts",
    "plot_average_precision_area",
    "plot_dcg_contributions",
    "plot_gains",
    "plot_precision_recall_at_k",
    "plot_precision_recall_curve",
    "plot_roc",
]

_DISCOUNT_LABELS = {
    "log2": r"log2: $1/\log_2(i+1)$",
    "jarvelin": r"jarvelin: $1$ at $i=1$, then $1/\log_2 i$",
}
_GAIN_LABELS = {
    "linear": r"linear: $g$",
    "exponential": r"exponential: $2^g - 1$",
}


def _axes(ax):
    if ax is None:
        plt = require("matplotlib.pyplot", "plot")

        _, ax = plt.subplots()
    return ax


def discount_values(n_ranks: int, discount: str = "log2", base=2) -> np.ndarray:
    """The weight ``rk.dcg`` gives to ranks 1..n_ranks: the DCG of a single grade-1 document.

    ``base`` is the log base b of the ``"jarvelin"`` discount, as for ``rk.dcg``.

    References
    ----------
    - ``jarvelin2002``: Järvelin, K. and Kekäläinen, J. (2002). Cumulated gain-based evaluation
      of IR techniques. ACM Transactions on Information Systems 20(4), 422-446.

    Examples
    --------
    >>> [round(float(w), 4) for w in discount_values(3)]
    [1.0, 0.6309, 0.5]
    >>> [round(float(w), 4) for w in discount_values(3, "jarvelin")]
    [1.0, 1.0, 0.6309]
    >>> [round(float(w), 4) for w in discount_values(4, "jarvelin", base=3)]
    [1.0, 1.0, 1.0, 0.7925]
    """
    return np.array(
        [rk.dcg([0] * (i - 1) + [1], discount=discount, base=base) for i in range(1, n_ranks + 1)]
    )


def gain_values(grades, gain: str = "linear") -> np.ndarray:
    """The gain ``rk.dcg`` gives to each grade: the DCG of that grade alone at rank 1.

    References
    ----------
    - ``jarvelin2002``: Järvelin, K. and Kekäläinen, J. (2002). Cumulated gain-based evaluation
      of IR techniques. ACM Transactions on Information Systems 20(4), 422-446.
    - ``burges2005``: Burges, C., Shaked, T., Renshaw, E., Lazier, A., Deeds, M., Hamilton, N.
      and Hullender, G. (2005). Learning to rank using gradient descent. ICML 2005, 89-96.

    Examples
    --------
    >>> gain_values([0, 1, 2, 3], "exponential").tolist()
    [0.0, 1.0, 3.0, 7.0]
    """
    return np.array([rk.dcg([g], gain=gain) for g in grades])


def plot_discounts(n_ranks: int = 10, *, discounts=("log2", "jarvelin"), ax=None):
    """Plot the weight of each rank, 1..n_ranks, under each discount.

    Parameters
    ----------
    n_ranks : int, default 10
        The last rank drawn.
    discounts : sequence of {"log2", "jarvelin"}
        One line per discount, in this order.
    ax : matplotlib Axes, optional
        Where to draw; a new figure's axes by default.

    Returns
    -------
    matplotlib Axes
        One line per discount, x the ranks 1..n_ranks, y the weights (1/discount).

    References
    ----------
    - ``jarvelin2002``: Järvelin, K. and Kekäläinen, J. (2002). Cumulated gain-based evaluation
      of IR techniques. ACM Transactions on Information Systems 20(4), 422-446.

    Examples
    --------
    >>> ax = plot_discounts(3)
    >>> [[round(float(w), 4) for w in line.get_ydata()] for line in ax.get_lines()]
    [[1.0, 0.6309, 0.5], [1.0, 1.0, 0.6309]]
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('rank $i$', 'weight of rank $i$ in DCG')
    """
    ax = _axes(ax)
    ranks = np.arange(1, n_ranks + 1)
    for discount in discounts:
        ax.plot(ranks, discount_values(n_ranks, discount), marker="o",
                label=_DISCOUNT_LABELS.get(discount, discount))
    ax.set_xlabel("rank $i$")
    ax.set_ylabel("weight of rank $i$ in DCG")
    ax.set_xticks(ranks)
    ax.set_ylim(0, 1.05)
    ax.legend()
    return ax


def plot_gains(max_grade: int = 4, *, gains=("linear", "exponential"), ax=None):
    """Plot the gain of each grade 0..max_grade under each gain function.

    Parameters
    ----------
    max_grade : int, default 4
        The highest grade drawn.
    gains : sequence of {"linear", "exponential"}
        One line per gain, in this order.
    ax : matplotlib Axes, optional
        Where to draw; a new figure's axes by default.

    Returns
    -------
    matplotlib Axes
        One line per gain, x the grades 0..max_grade, y the gains.

    References
    ----------
    - ``burges2005``: Burges, C., Shaked, T., Renshaw, E., Lazier, A., Deeds, M., Hamilton, N.
      and Hullender, G. (2005). Learning to rank using gradient descent. ICML 2005, 89-96.

    Examples
    --------
    >>> ax = plot_gains(3)
    >>> [line.get_ydata().tolist() for line in ax.get_lines()]
    [[0.0, 1.0, 2.0, 3.0], [0.0, 1.0, 3.0, 7.0]]
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('grade $g$', 'gain')
    """
    ax = _axes(ax)
    grades = np.arange(0, max_grade + 1)
    for gain in gains:
        ax.plot(grades, gain_values(grades, gain), marker="o",
                label=_GAIN_LABELS.get(gain, gain))
    ax.set_xlabel("grade $g$")
    ax.set_ylabel("gain")
    ax.set_xticks(grades)
    ax.legend()
    return ax


def dcg_contributions(rels, k=None, *, pool=None, gain="linear", discount="log2"):
    """The discounted gain each rank adds, in the ranking and in the ideal ranking.

    Taken from ``rk.explain.ndcg`` (the steps of its DCG and ideal-DCG running sums), so they
    are the terms of the chapter's tables. The ideal ranking comes from ``pool`` (default
    ``rels``), sorted by grade and cut at ``k``; it may be longer than the ranking.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        The ranking's terms and the ideal ranking's terms, rank 1 first.

    References
    ----------
    - ``jarvelin2002``: Järvelin, K. and Kekäläinen, J. (2002). Cumulated gain-based evaluation
      of IR techniques. ACM Transactions on Information Systems 20(4), 422-446.

    Examples
    --------
    >>> ranking, ideal = dcg_contributions([1, 3], pool=[3, 1, 2])
    >>> [round(float(t), 4) for t in ranking], [round(float(t), 4) for t in ideal]
    ([1.0, 1.8928], [3.0, 1.2619, 0.5])
    """
    explanation = rk.explain.ndcg(rels, k, pool=pool, gain=gain, discount=discount)
    running = [table["DCG@i"].to_numpy(dtype=float) for table in explanation.tables.values()]
    ranking, ideal = (np.diff(np.r_[0.0, sums]) for sums in running)
    return ranking, ideal


def plot_dcg_contributions(rels, k=None, *, pool=None, gain="linear", discount="log2", ax=None):
    """Bars of the discounted gain at each rank: the ranking next to the ideal ranking.

    The heights of each series add up to DCG@k and IDCG@k, so the chart shows at which ranks a
    ranking loses against the ideal one.

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    k : int >= 1 or None, optional
        The cutoff; the whole lists by default.
    pool : sequence of float, optional
        Grades of every judged document of the query; defaults to ``rels``.
    gain, discount : str
        As for ``rk.dcg``.
    ax : matplotlib Axes, optional
        Where to draw; a new figure's axes by default.

    Returns
    -------
    matplotlib Axes
        Two bar containers, labelled "ranking" and "ideal ranking", bars at ranks 1, 2, …

    References
    ----------
    - ``jarvelin2002``: Järvelin, K. and Kekäläinen, J. (2002). Cumulated gain-based evaluation
      of IR techniques. ACM Transactions on Information Systems 20(4), 422-446.

    Examples
    --------
    >>> ax = plot_dcg_contributions([1, 3], pool=[3, 1, 2])
    >>> [[round(float(bar.get_height()), 4) for bar in bars] for bars in ax.containers]
    [[1.0, 1.8928], [3.0, 1.2619, 0.5]]
    """
    ax = _axes(ax)
    ranking, ideal = dcg_contributions(rels, k, pool=pool, gain=gain, discount=discount)
    width = 0.4
    ax.bar(np.arange(1, len(ranking) + 1) - width / 2, ranking, width, label="ranking")
    ax.bar(np.arange(1, len(ideal) + 1) + width / 2, ideal, width, label="ideal ranking")
    ax.set_xlabel("rank $i$")
    ax.set_ylabel("discounted gain at rank $i$")
    ax.set_xticks(np.arange(1, max(len(ranking), len(ideal)) + 1))
    ax.legend()
    return ax


def plot_roc(labels, scores, *, label=None, chance=True, ax=None, **line_options):
    """Plot the ROC curve of ``scores`` against ``labels``: TPR against FPR.

    The points are ``rk.roc_curve(labels, scores)``, joined by straight lines (a run of tied
    scores is one diagonal segment), so the area under the drawn line is ``rk.roc_auc``. The
    chapter "ROC curves and AUC" (``book/roc_auc.ipynb``) draws its figures with it.

    Parameters
    ----------
    labels : sequence of {0, 1}
        True classes; both must occur.
    scores : sequence of float
        Scores, higher meaning more likely positive.
    label : str, optional
        The legend entry; ``"AUC = <value>"`` (3 decimals) when not given.
    chance : bool, default True
        Also draw the diagonal TPR = FPR of scores that carry no information.
    ax : matplotlib Axes, optional
        Where to draw; a new figure's axes by default.
    **line_options
        Passed to ``ax.plot`` (colour, line style, ...).

    Returns
    -------
    matplotlib Axes
        The curve is the last line added; x the false positive rates, y the true positive
        rates, both in [0, 1].

    References
    ----------
    - ``fawcett2006``: Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition
      Letters 27(8), 861-874.

    Examples
    --------
    >>> ax = plot_roc([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    >>> curve = ax.get_lines()[-1]
    >>> curve.get_xdata().tolist(), curve.get_ydata().tolist(), curve.get_label()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0], 'AUC = 0.750')
    """
    ax = _axes(ax)
    fpr, tpr, _ = rk.roc_curve(labels, scores)
    if chance and not any(line.get_gid() == "chance" for line in ax.get_lines()):
        ax.plot([0, 1], [0, 1], color="grey", linestyle=":", label="chance (AUC = 0.5)",
                gid="chance")
    if label is None:
        label = f"AUC = {rk.roc_auc(labels, scores):.3f}"
    ax.plot(fpr, tpr, marker="o", markersize=4, label=label, **line_options)
    ax.set_xlabel("false positive rate FPR = FP / (FP + TN)")
    ax.set_ylabel("true positive rate TPR = TP / (TP + FN)")
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_aspect("equal")
    ax.legend(loc="lower right")
    return ax


def plot_precision_recall_at_k(rels, *, n_relevant=None, threshold=1, ax=None):
    """Plot P@k and R@k against the cutoff k = 1..len(rels).

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    n_relevant : int >= 0, optional
        Relevant documents of the query, retrieved or not (the denominator of R@k).
    threshold : float > 0, default 1
        A document is relevant when its grade is at least this (so a grade of 0 never is).
    ax : matplotlib Axes, optional
        Where to draw; a new figure's axes by default.

    Returns
    -------
    matplotlib Axes
        Two lines, "P@k" and "R@k", x the cutoffs 1..len(rels).

    References
    ----------
    - ``manning2008``: Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to
      Information Retrieval, chapter 8. Cambridge University Press.

    Examples
    --------
    >>> ax = plot_precision_recall_at_k([1, 0, 1], n_relevant=4)
    >>> [[round(float(v), 4) for v in line.get_ydata()] for line in ax.get_lines()]
    [[1.0, 0.5, 0.6667], [0.25, 0.25, 0.5]]
    >>> ax.get_xlabel()
    'cutoff $k$'
    """
    ax = _axes(ax)
    precision, recall = rk.precision_recall_curve(rels, n_relevant=n_relevant, threshold=threshold)
    ks = np.arange(1, len(precision) + 1)
    ax.plot(ks, precision, marker=".", label="P@k")
    ax.plot(ks, recall, marker=".", linestyle="--", label="R@k")
    ax.set_xlabel("cutoff $k$")
    ax.set_ylabel("precision or recall of the top $k$")
    ax.set_ylim(0, 1.05)
    ax.legend()
    return ax


def plot_precision_recall_curve(rels, *, n_relevant=None, threshold=1, interpolated=True, ax=None):
    """Plot the precision-recall curve of a ranking: one point (R@k, P@k) per rank k.

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    n_relevant : int >= 0, optional
        Relevant documents of the query, retrieved or not (the denominator of recall).
    threshold : float > 0, default 1
        A document is relevant when its grade is at least this (so a grade of 0 never is).
    interpolated : bool, default True
        Also draw the interpolated precision (the best precision at the same or a higher
        recall) as a step line.
    ax : matplotlib Axes, optional
        Where to draw; a new figure's axes by default.

    Returns
    -------
    matplotlib Axes
        The points joined in rank order ("P@k against R@k") and, if asked, the step line
        ("interpolated precision").

    References
    ----------
    - ``manning2008``: Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to
      Information Retrieval, chapter 8. Cambridge University Press.

    Examples
    --------
    >>> points, steps = plot_precision_recall_curve([1, 0, 1, 0]).get_lines()
    >>> points.get_xdata().tolist(), [round(float(p), 4) for p in points.get_ydata()]
    ([0.5, 0.5, 1.0, 1.0], [1.0, 0.5, 0.6667, 0.5])
    >>> steps.get_xdata().tolist(), [round(float(p), 4) for p in steps.get_ydata()]
    ([0.0, 0.5, 1.0], [1.0, 1.0, 0.6667])
    """
    ax = _axes(ax)
    precision, recall = rk.precision_recall_curve(rels, n_relevant=n_relevant, threshold=threshold)
    ax.plot(recall, precision, marker="o", label="P@k against R@k")
    if interpolated and len(precision):
        best, _ = rk.precision_recall_curve(
            rels, n_relevant=n_relevant, threshold=threshold, interpolate=True
        )
        # For r in (R@(k-1), R@k] the best precision at recall >= r is the one of rank k on;
        # the first rank of each recall value carries it, later ranks at that recall add nothing.
        first = np.r_[True, np.diff(recall) > 0]
        ax.step(np.r_[0.0, recall[first]], np.r_[best[:1], best[first]], where="pre",
                linestyle="--", label="interpolated precision")
    ax.set_xlabel("recall")
    ax.set_ylabel("precision")
    ax.set_xlim(0, 1.02)
    ax.set_ylim(0, 1.05)
    ax.legend()
    return ax


def average_precision_steps(rels, *, n_relevant=None, threshold=1):
    """The step curve p(r) whose area is AP: its heights and the recall edges between them.

    Each relevant document raises recall by 1/R; over the recall interval it opens, p(r) is
    the precision at that document's rank. Past the recall the list reaches, p(r) is 0 (the
    relevant documents never retrieved).

    Returns
    -------
    heights, edges : numpy.ndarray of float
        ``len(edges) == len(heights) + 1``; edges run from 0 to 1.

    References
    ----------
    - ``manning2008``: Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to
      Information Retrieval, chapter 8. Cambridge University Press.

    Examples
    --------
    >>> heights, edges = average_precision_steps([1, 0, 1], n_relevant=4)
    >>> heights.tolist(), edges.tolist()
    ([1.0, 0.6666666666666666, 0.0], [0.0, 0.25, 0.5, 1.0])
    >>> float(np.sum(heights * np.diff(edges)))  # the area: AP = (1 + 2/3) / 4
    0.41666666666666663
    """
    precision, recall = rk.precision_recall_curve(rels, n_relevant=n_relevant, threshold=threshold)
    raised = np.diff(np.r_[0.0, recall]) > 0
    heights, edges = precision[raised], np.r_[0.0, recall[raised]]
    if edges[-1] < 1:
        heights, edges = np.r_[heights, 0.0], np.r_[edges, 1.0]
    return heights, edges


def plot_average_precision_area(rels, *, n_relevant=None, threshold=1, ax=None):
    """Shade the area under the step curve p(r) of a ranking, which is its AP.

    Parameters
    ----------
    rels : sequence of float
        Grades of the retrieved documents in rank order, rank 1 first.
    n_relevant : int >= 0, optional
        R, the relevant documents of the query, retrieved or not.
    threshold : float > 0, default 1
        A document is relevant when its grade is at least this (so a grade of 0 never is).
    ax : matplotlib Axes, optional
        Where to draw (for instance over :func:`plot_precision_recall_curve`); a new figure's
        axes by default.

    Returns
    -------
    matplotlib Axes
        One filled step patch from :func:`average_precision_steps`, labelled with
        ``rk.average_precision`` to 4 decimals.

    References
    ----------
    - ``manning2008``: Manning, C. D., Raghavan, P. and Schütze, H. (2008). Introduction to
      Information Retrieval, chapter 8. Cambridge University Press.
    - ``voorhees2005``: Voorhees, E. M. and Harman, D. K., editors (2005). TREC: Experiment and
      Evaluation in Information Retrieval. MIT Press.

    Examples
    --------
    >>> ax = plot_average_precision_area([1, 0, 1], n_relevant=4)
    >>> [patch.get_label() for patch in ax.patches]
    ['area under p(r) = AP = 0.4167']
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('recall', 'precision')
    """
    ax = _axes(ax)
    heights, edges = average_precision_steps(rels, n_relevant=n_relevant, threshold=threshold)
    value = rk.average_precision(rels, n_relevant=n_relevant, threshold=threshold)
    ax.stairs(heights, edges, fill=True, alpha=0.3, label=f"area under p(r) = AP = {value:.4f}")
    ax.set_xlabel("recall")
    ax.set_ylabel("precision")
    ax.set_xlim(0, 1.02)
    ax.set_ylim(0, 1.05)
    ax.legend()
    return ax
