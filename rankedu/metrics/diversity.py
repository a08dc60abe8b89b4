"""Diversity and intent-aware measures: α-nDCG, ERR-IA, NRBP, precision-IA, subtopic recall
and D#-nDCG.

A query has several intents (subtopics) t, and a document is relevant to some of them. The
input ``subtopics`` gives, per rank, the intents the document is relevant to: a sequence of
sets of intent labels (``[{"car"}, {"cat", "car"}, set()]``), or a 2-D numpy 0/1 array of
documents x intents (the intents are then its columns 0, 1, ...). ``intents`` names the
query's intents when some of them are not in the list (an intent no retrieved document
serves still counts in the denominators); by default they are the labels that occur.

Conventions:

- Novelty: c_t(i) is the number of documents above rank i relevant to intent t, and the
  gain of intent t at rank i is J(i, t) (1 - α)^{c_t(i)}: each repetition of an intent is
  worth a factor (1 - α) less (Clarke et al., 2008). α-DCG discounts the summed gain by
  log2(i + 1), as DCG does (:mod:`rankedu.metrics.dcg`'s discount).
- The ideal ranking of α-nDCG is built from ``pool`` (the intents of every judged document of
  the query; ``subtopics`` by default). ``ideal="greedy"`` takes at each rank the document of
  largest gain given the ranks above, the first in ``pool``'s order on a tie (as ndeval does;
  the exact ideal is NP-hard); ``ideal="exact"`` searches every subset of the relevant pool
  documents (at most :data:`EXACT_MOST` of them).
- ERR-IA is Σ_t P(t|q) ERR_t with the cascade's stop probability α for a document relevant
  to t (Chapelle et al., 2009 with binary grades: R = (2^1 - 1)/2^1 = 0.5 = α by default).
  It is not normalised (ndeval's ``ERR-IA`` is: ``rankedu.evaluate``'s ``conventions``).
- NRBP (Clarke et al., 2009) is RBP with novelty: (1 - (1 - α)β) Σ_t P(t|q) Σ_i β^{i-1}
  J(i, t) (1 - α)^{c_t(i)}; uniform weights give ndeval's 1/N.
- Precision-IA@k is Σ_t P(t|q) P_t@k (Agrawal et al., 2009), subtopic recall@k the share of
  the intents covered by the top k (Zhai et al., 2003).
- Every ratio whose denominator is 0 (no intent, an ideal of 0) is 0.0.

The chapter "Diversity and intent-aware evaluation" (``book/diversity.ipynb``) explains them.
"""

from __future__ import annotations

import numpy as np

from rankedu.core.common import last, padded_ranks
from rankedu.core.ranked import safe_divide
from rankedu.core.steps import Steps
from rankedu.core.validation import (
    as_cutoff,
    as_intent_grades,
    as_intent_weights,
    as_probabilities,
    one_of,
)
from rankedu.metrics.dcg import DISCOUNTS, _ndcg_steps

__all__ = ["alpha_ndcg", "d_sharp_ndcg", "err_ia", "nrbp", "precision_ia", "subtopic_recall"]

#: The most relevant pool documents ``ideal="exact"`` searches (2^n subsets of them).
EXACT_MOST = 14

_LOG2 = DISCOUNTS["log2"][1]


def _as_alpha(alpha) -> float:
    alpha = float(as_probabilities([alpha], "alpha")[0])
    if alpha == 0:
        raise ValueError("alpha must be > 0 (alpha = 0 gives no credit for novelty), got 0")
    return alpha


def _matrix(subtopics, k, intents=None, name="subtopics"):
    """The top-k rows of the 0/1 intent matrix, their ranks, and the intents' labels."""
    matrix, labels = as_intent_grades(subtopics, name, intents=intents)
    k = as_cutoff(k)
    matrix = matrix if k is None else matrix[:k]
    return matrix, np.arange(1, len(matrix) + 1), labels


def _described(matrix: np.ndarray, labels: list) -> np.ndarray:
    """Per rank, the intents the document is relevant to, as text ("-" for none)."""
    return np.array([" ".join(str(labels[j]) for j in np.flatnonzero(row)) or "-"
                     for row in matrix], dtype=object)


def _novelty_columns(matrix: np.ndarray, labels: list, alpha: float) -> tuple[dict, np.ndarray]:
    """Per rank: the intents covered and each intent's count above the rank; and the
    novelty-discounted gain J(i, t) (1 - α)^{c_t(i)} of every intent (ranks x intents)."""
    before = np.cumsum(matrix, axis=0) - matrix
    columns = {"intents": _described(matrix, labels)}
    columns.update({f"c[{label}]": before[:, j] for j, label in enumerate(labels)})
    return columns, matrix * (1.0 - alpha) ** before


def _alpha_dcg_columns(matrix, ranks, labels, alpha) -> dict[str, np.ndarray]:
    columns, gains = _novelty_columns(matrix, labels, alpha)
    columns = {"i": ranks, **columns, "gain_i": gains.sum(axis=1), "log2(i+1)": _LOG2(ranks)}
    columns["α-DCG@i"] = np.cumsum(columns["gain_i"] / columns["log2(i+1)"])
    return columns


def _greedy_order(pool: np.ndarray, alpha: float, depth: int) -> list[int]:
    """The greedy ideal: at each rank the pool document of largest novelty gain, the first in
    pool order on a tie."""
    left = list(range(len(pool)))
    counts = np.zeros(pool.shape[1])
    order = []
    for _ in range(min(depth, len(pool))):
        gains = pool[left] @ (1.0 - alpha) ** counts
        chosen = left.pop(int(np.argmax(gains)))
        order.append(chosen)
        counts += pool[chosen]
    return order


def _exact_order(pool: np.ndarray, alpha: float, depth: int) -> list[int]:
    """The ideal by dynamic programming over subsets: the gain of a document depends on the set
    ranked above it, not on their order, so the best α-DCG of each set of the first |S| ranks
    is the best over its last document."""
    relevant = [j for j in range(len(pool)) if pool[j].any()]
    if len(relevant) > EXACT_MOST:
        raise ValueError(
            f"ideal='exact' searches 2^n subsets of the n relevant pool documents and allows "
            f"n <= {EXACT_MOST}; this pool has {len(relevant)}: use ideal='greedy'"
        )
    depth = min(depth, len(relevant))
    weights = 1.0 / _LOG2(np.arange(1, depth + 1))
    best = {0: (0.0, [])}
    for size in range(1, depth + 1):
        layer = {}
        for subset, (value, order) in best.items():
            counts = pool[[relevant[j] for j in order]].sum(axis=0)
            for j in range(len(relevant)):
                if subset >> j & 1:
                    continue
                gain = pool[relevant[j]] @ (1.0 - alpha) ** counts
                candidate = value + gain * weights[size - 1]
                key = subset | 1 << j
                if key not in layer or candidate > layer[key][0] + 1e-15:
                    layer[key] = (candidate, [*order, j])
        best = layer
    order = max(best.values(), key=lambda entry: entry[0])[1]
    return [relevant[j] for j in order]


def _alpha_ndcg_steps(subtopics, alpha=0.5, k=None, pool=None, ideal="greedy",
                      intents=None) -> Steps:
    alpha = _as_alpha(alpha)
    one_of(ideal, "ideal", ("greedy", "exact"))
    if intents is None and pool is not None and not isinstance(pool, np.ndarray):
        # An intent only unretrieved documents serve is still one of the query's.
        intents = as_intent_grades(subtopics, "subtopics")[1]
        intents += [t for t in as_intent_grades(pool, "pool")[1] if t not in intents]
    matrix, ranks, labels = _matrix(subtopics, k, intents)
    pool_matrix, _ = as_intent_grades(subtopics if pool is None else pool, "pool",
                                      intents=labels)
    columns = _alpha_dcg_columns(matrix, ranks, labels, alpha)
    depth = len(pool_matrix) if k is None else as_cutoff(k)
    order = (_greedy_order if ideal == "greedy" else _exact_order)(pool_matrix, alpha, depth)
    ideal_columns = _alpha_dcg_columns(pool_matrix[order], np.arange(1, len(order) + 1),
                                       labels, alpha)
    ideal_columns = {"i": ideal_columns.pop("i"), "pool document": np.array(order),
                     **ideal_columns}
    columns["α-nDCG@i"] = safe_divide(columns["α-DCG@i"], last(ideal_columns["α-DCG@i"]))
    return Steps(last(columns["α-nDCG@i"]),
                 {"α-DCG": columns, f"ideal α-DCG ({ideal})": ideal_columns})


def alpha_ndcg(subtopics, *, alpha=0.5, k=None, pool=None, ideal="greedy",
               intents=None) -> float:
    r"""α-nDCG: DCG whose gain rewards each intent less every time it is served again.

    .. math::

        G_i = \sum_t J(i, t)\,(1 - \alpha)^{c_t(i)}, \qquad
        \alpha\text{-DCG}@k = \sum_{i=1}^{k} \frac{G_i}{\log_2(i + 1)}, \qquad
        \alpha\text{-nDCG}@k = \frac{\alpha\text{-DCG}@k}{\alpha\text{-DCG}^*@k}

    where J(i, t) is 1 when the document at rank i is relevant to intent t, c_t(i) the number
    of documents above rank i relevant to t, and α-DCG* that of the ideal ranking of ``pool``.

    Parameters
    ----------
    subtopics : sequence of sets of intent labels, or 2-D array of 0/1
        Per rank, rank 1 first, the intents the document is relevant to; or a documents x
        intents 0/1 matrix.
    alpha : float in (0, 1], default 0.5
        The redundancy penalty: the chance that a document relevant to an intent already
        served adds nothing (the assessor's error rate in Clarke et al.).
    k : int >= 1 or None, optional
        The cutoff; the whole list by default. The ideal is cut at k too.
    pool : like ``subtopics``, optional
        The intents of every judged document of the query, retrieved or not, in the order that
        breaks ties of the greedy ideal; ``subtopics`` by default.
    ideal : {"greedy", "exact"}, default "greedy"
        How the ideal ranking is found: greedily (ndeval's way; it can fall short of the best
        ranking, so α-nDCG can exceed 1) or exactly, over every subset of the relevant pool
        documents (at most ``EXACT_MOST``).
    intents : sequence, optional
        Labels of the query's intents; by default those in ``subtopics`` and ``pool``.

    Returns
    -------
    float
        0.0 when the ideal α-DCG is 0.

    Notes
    -----
    The chapter :doc:`/book/diversity` explains it.

    References
    ----------
    - ``clarke2008``: Clarke, C. L. A., Kolla, M., Cormack, G. V., Vechtomova, O., Ashkan, A.,
      Büttcher, S. and MacKinnon, I. (2008). Novelty and diversity in information retrieval
      evaluation. SIGIR 2008, 659-666.

    Examples
    --------
    >>> import rankedu as rk
    >>> ranking = [{"a"}, {"a"}, {"a", "b"}, set(), {"c"}, {"b", "c"}]
    >>> round(rk.alpha_ndcg(ranking, k=5), 4)
    0.6633
    >>> round(rk.alpha_ndcg(ranking, k=5, ideal="exact"), 4)
    0.6633
    """
    return _alpha_ndcg_steps(subtopics=subtopics, alpha=alpha, k=k, pool=pool, ideal=ideal,
                             intents=intents).value


def _intent_aware_columns(subtopics, k, intents, weights, alpha):
    matrix, ranks, labels = _matrix(subtopics, k, intents)
    weights = as_intent_weights(weights, labels)
    columns, gains = _novelty_columns(matrix, labels, alpha)
    return {"i": ranks, **columns}, gains @ weights


def _err_ia_steps(subtopics, alpha=0.5, k=None, intents=None, weights=None) -> Steps:
    alpha = _as_alpha(alpha)
    columns, reach = _intent_aware_columns(subtopics, k, intents, weights, alpha)
    columns["Σ_t P(t) α J (1-α)^c"] = alpha * reach
    columns["ERR-IA@i"] = np.cumsum(columns["Σ_t P(t) α J (1-α)^c"] / columns["i"])
    return Steps(last(columns["ERR-IA@i"]), {"ERR-IA": columns})


def err_ia(subtopics, *, alpha=0.5, k=None, intents=None, weights=None) -> float:
    r"""Intent-aware expected reciprocal rank: ERR of each intent, weighted by P(t|q).

    .. math::

        \mathrm{ERR\text{-}IA}@k = \sum_t P(t \mid q) \sum_{i=1}^{k} \frac{1}{i}\,
        \alpha\,J(i, t)\,(1 - \alpha)^{c_t(i)}

    The user with intent t stops at a document relevant to t with probability α, so they
    reach rank i with probability (1 - α)^{c_t(i)}: ERR's cascade (Chapelle et al., 2009)
    with R = α. With α = 0.5 it is Σ_t P(t|q) ``rk.err(J(·, t), max_grade=1)``.

    Parameters
    ----------
    subtopics : sequence of sets of intent labels, or 2-D array of 0/1
        Per rank, the intents the document is relevant to (see :func:`alpha_ndcg`).
    alpha : float in (0, 1], default 0.5
        The probability that a document relevant to the user's intent satisfies them.
    k : int >= 1 or None, optional
        The cutoff; the whole list by default.
    intents : sequence, optional
        Labels of the query's intents; by default those in ``subtopics``.
    weights : dict or sequence of float, optional
        P(t|q) per intent, summing to 1; uniform by default.

    Returns
    -------
    float
        Not normalised: at most Σ_i α(1-α)^{i-1}/i, not 1 (ndeval divides by that
        "ideal ideal"; :func:`rankedu.evaluate` with ``conventions="ndeval"`` does too).

    Notes
    -----
    The chapter :doc:`/book/diversity` explains it.

    References
    ----------
    - ``chapelle2009``: Chapelle, O., Metzler, D., Zhang, Y. and Grinspan, P. (2009). Expected
      reciprocal rank for graded relevance. CIKM 2009, 621-630.
    - ``agrawal2009``: Agrawal, R., Gollapudi, S., Halverson, A. and Ieong, S. (2009).
      Diversifying search results. WSDM 2009, 5-14.

    Examples
    --------
    >>> import rankedu as rk
    >>> ranking = [{"a"}, {"a"}, {"a", "b"}, set(), {"c"}, {"b", "c"}]
    >>> round(rk.err_ia(ranking, k=5), 5)
    0.31111
    """
    return _err_ia_steps(subtopics=subtopics, alpha=alpha, k=k, intents=intents,
                         weights=weights).value


def _nrbp_steps(subtopics, alpha=0.5, beta=0.5, intents=None, weights=None) -> Steps:
    alpha = _as_alpha(alpha)
    beta = float(as_probabilities([beta], "beta")[0])
    columns, novel = _intent_aware_columns(subtopics, None, intents, weights, alpha)
    columns["Σ_t P(t) J (1-α)^c"] = novel
    columns["β^(i-1)"] = beta ** (columns["i"] - 1.0)
    scale = 1.0 - (1.0 - alpha) * beta
    columns["NRBP@i"] = scale * np.cumsum(novel * columns["β^(i-1)"])
    return Steps(last(columns["NRBP@i"]), {"NRBP": columns})


def nrbp(subtopics, *, alpha=0.5, beta=0.5, intents=None, weights=None) -> float:
    r"""Novelty- and rank-biased precision: RBP whose gain rewards novelty (Clarke et al.,
    2009).

    .. math::

        \mathrm{NRBP} = \bigl(1 - (1 - \alpha)\beta\bigr) \sum_t P(t \mid q)
        \sum_{i \ge 1} \beta^{i-1} J(i, t)\,(1 - \alpha)^{c_t(i)}

    The factor 1 - (1 - α)β makes a list of documents each relevant to every intent score 1.
    Uniform weights give Clarke et al.'s (and ndeval's) 1/N over the N intents.

    Parameters
    ----------
    subtopics : sequence of sets of intent labels, or 2-D array of 0/1
        Per rank, the intents the document is relevant to (see :func:`alpha_ndcg`).
    alpha : float in (0, 1], default 0.5
        The redundancy penalty, as for α-nDCG.
    beta : float in [0, 1], default 0.5
        The patience: the probability of reading on to the next rank, as RBP's p.
    intents : sequence, optional
        Labels of the query's intents; by default those in ``subtopics``.
    weights : dict or sequence of float, optional
        P(t|q) per intent, summing to 1; uniform by default.

    Returns
    -------
    float

    Notes
    -----
    The chapter :doc:`/book/diversity` explains it.

    References
    ----------
    - ``clarke2009``: Clarke, C. L. A., Kolla, M. and Vechtomova, O. (2009). An effectiveness
      measure for ambiguous and underspecified queries. ICTIR 2009, 188-199.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.nrbp([{"a", "b"}, {"a", "b"}])
    0.9375
    """
    return _nrbp_steps(subtopics=subtopics, alpha=alpha, beta=beta, intents=intents,
                       weights=weights).value


def _precision_ia_steps(subtopics, k=None, intents=None, weights=None) -> Steps:
    matrix, ranks, labels = _matrix(subtopics, k, intents)
    weights = as_intent_weights(weights, labels)
    # A cutoff past the end counts the missing ranks as non-relevant: they are rows too.
    padding = padded_ranks(len(matrix), len(matrix) if k is None else as_cutoff(k))
    served = np.r_[matrix @ weights, np.zeros(len(padding))]
    ranks = np.r_[ranks, padding]
    columns = {"i": ranks,
               "intents": np.r_[_described(matrix, labels), np.full(len(padding), "-")],
               "Σ_t P(t) J(i,t)": served,
               "Σ_t P(t) P_t@i": np.cumsum(served) / ranks}
    return Steps(last(columns["Σ_t P(t) P_t@i"]), {"precision-IA": columns})


def precision_ia(subtopics, *, k=None, intents=None, weights=None) -> float:
    r"""Intent-aware precision: precision at k for each intent, weighted by P(t|q).

    .. math:: P\text{-}IA@k = \sum_t P(t \mid q) \frac{1}{k} \sum_{i=1}^{k} J(i, t)

    Parameters
    ----------
    subtopics : sequence of sets of intent labels, or 2-D array of 0/1
        Per rank, the intents the document is relevant to (see :func:`alpha_ndcg`).
    k : int >= 1 or None, optional
        The cutoff; the length of the list by default. Ranks past the end count as
        non-relevant.
    intents : sequence, optional
        Labels of the query's intents; by default those in ``subtopics``.
    weights : dict or sequence of float, optional
        P(t|q) per intent, summing to 1; uniform by default (ndeval's P-IA).

    Returns
    -------
    float
        0.0 for an empty list.

    Notes
    -----
    The chapter :doc:`/book/diversity` explains it.

    References
    ----------
    - ``agrawal2009``: Agrawal, R., Gollapudi, S., Halverson, A. and Ieong, S. (2009).
      Diversifying search results. WSDM 2009, 5-14.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.precision_ia([{"a"}, {"a", "b"}, set(), {"b"}], k=4)
    0.5
    """
    return _precision_ia_steps(subtopics=subtopics, k=k, intents=intents,
                               weights=weights).value


def _subtopic_recall_steps(subtopics, k=None, intents=None) -> Steps:
    matrix, ranks, labels = _matrix(subtopics, k, intents)
    covered = np.cumsum(matrix, axis=0) > 0
    columns = {"i": ranks, "intents": _described(matrix, labels),
               "covered": covered.sum(axis=1).astype(float)}
    columns["S-recall@i"] = safe_divide(columns["covered"], len(labels))
    return Steps(last(columns["S-recall@i"]), {"subtopic recall": columns})


def subtopic_recall(subtopics, *, k=None, intents=None) -> float:
    r"""Subtopic recall: the share of the query's intents that the top k cover (Zhai et al.,
    2003).

    .. math:: S\text{-}recall@k = \frac{|\{t : \exists i \le k,\ J(i, t) = 1\}|}{|T|}

    Parameters
    ----------
    subtopics : sequence of sets of intent labels, or 2-D array of 0/1
        Per rank, the intents the document is relevant to (see :func:`alpha_ndcg`).
    k : int >= 1 or None, optional
        The cutoff; the whole list by default.
    intents : sequence, optional
        Labels of the query's intents T; by default those in ``subtopics``.

    Returns
    -------
    float
        0.0 when the query has no intent.

    Notes
    -----
    The chapter :doc:`/book/diversity` explains it.

    References
    ----------
    - ``zhai2003``: Zhai, C., Cohen, W. W. and Lafferty, J. (2003). Beyond independent
      relevance: methods and evaluation metrics for subtopic retrieval. SIGIR 2003, 10-17.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.subtopic_recall([{"a"}, {"a"}, {"b"}], k=2, intents=["a", "b", "c", "d"])
    0.25
    """
    return _subtopic_recall_steps(subtopics=subtopics, k=k, intents=intents).value


def _d_sharp_ndcg_steps(grades, k=None, pool=None, gamma=0.5, intents=None,
                        weights=None) -> Steps:
    gamma = float(as_probabilities([gamma], "gamma")[0])
    matrix, labels = as_intent_grades(grades, "grades", intents=intents, binary=False)
    pool_matrix, _ = as_intent_grades(grades if pool is None else pool, "pool",
                                      intents=labels, binary=False)
    weights = as_intent_weights(weights, labels)
    top = matrix if k is None else matrix[:as_cutoff(k)]
    # D-nDCG is rk.ndcg of the global gains, its ideal the pool's global gains; its table's
    # running column is the DCG so far over the whole ideal DCG (cut at k), ending in D-nDCG.
    d_ndcg = _ndcg_steps(top @ weights, k=k, pool=pool_matrix @ weights)
    # I-rec is subtopic recall: an intent is covered by a grade > 0.
    i_rec = _subtopic_recall_steps((top > 0).astype(float), intents=None)
    columns = {"i": np.arange(1, len(top) + 1), "intents": _described(top, labels),
               "GG_i": top @ weights, "D-nDCG so far": d_ndcg.tables["DCG"]["DCG@i/IDCG"],
               "I-rec@i": i_rec.tables["subtopic recall"]["S-recall@i"]}
    columns["D#-nDCG so far"] = (gamma * columns["I-rec@i"]
                                 + (1 - gamma) * columns["D-nDCG so far"])
    return Steps(gamma * i_rec.value + (1 - gamma) * d_ndcg.value,
                 {"D#-nDCG": columns, **d_ndcg.tables})


def d_sharp_ndcg(grades, *, k=None, pool=None, gamma=0.5, intents=None,
                 weights=None) -> float:
    r"""D#-nDCG: a mix of intent recall and nDCG of the intent-weighted gains (Sakai and Song,
    2011).

    .. math::

        GG(d) = \sum_t P(t \mid q)\, g_t(d), \qquad
        D\#\text{-nDCG}@k = \gamma\, I\text{-rec}@k + (1 - \gamma)\, D\text{-nDCG}@k

    D-nDCG@k is :func:`rankedu.ndcg` of the global gains GG of the list, with the ideal from
    the global gains of ``pool``; I-rec@k is :func:`rankedu.subtopic_recall` of the top k (an
    intent is covered by a grade > 0). The step table shows both per rank: the DCG so far
    over the ideal DCG (``rk.explain.ndcg``'s running share) and I-rec@i.

    Parameters
    ----------
    grades : sequence of dicts or sets, or 2-D array
        Per rank, each intent's grade: a dict from intent to grade, a set of intents (grade 1
        each), or a documents x intents matrix of grades >= 0.
    k : int >= 1 or None, optional
        The cutoff; the whole list by default, and then the ideal is the whole pool's, as
        for :func:`rankedu.ndcg` without ``k``.
    pool : like ``grades``, optional
        Every judged document's grades per intent, for the ideal; ``grades`` by default.
    gamma : float in [0, 1], default 0.5
        The weight of I-rec.
    intents : sequence, optional
        Labels of the query's intents; by default those in ``grades``.
    weights : dict or sequence of float, optional
        P(t|q) per intent, summing to 1; uniform by default.

    Returns
    -------
    float

    Notes
    -----
    The chapter :doc:`/book/diversity` explains it.

    References
    ----------
    - ``sakai2011``: Sakai, T. and Song, R. (2011). Evaluating diversified search results using
      per-intent graded relevance. SIGIR 2011, 1043-1052.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.d_sharp_ndcg([{"a": 2}, {"b": 1}], weights={"a": 0.5, "b": 0.5})
    1.0
    >>> round(rk.d_sharp_ndcg([{"b": 1}, {"a": 2}], weights={"a": 0.5, "b": 0.5}), 4)
    0.9299
    """
    return _d_sharp_ndcg_steps(grades=grades, k=k, pool=pool, gamma=gamma, intents=intents,
                               weights=weights).value
