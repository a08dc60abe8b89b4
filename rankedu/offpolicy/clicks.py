r"""Click models: simulated clicks on a ranked list from its relevance grades, and position bias.

Each model turns the grade g of the document at rank i into an attractiveness
a_i = R(g) = (2^g - 1) / 2^g_max (ERR's mapping, ``max_grade`` = g_max, as in the cascade
chapter), and decides which ranks a user examines:

- PBM, the position-based model (Craswell et al. 2008; Joachims et al. 2017): rank i is
  examined with a probability e_i that depends on the rank alone, independently of the rest
  of the list; P(click_i) = e_i a_i.
- The cascade (Craswell et al. 2008; the book's ``rk.simulate_cascade``): read from the top,
  click the first attractive document, stop.
- DBN, the dynamic Bayesian network (Chapelle and Zhang 2009): read from the top; click with
  probability a_i; after a click the user is satisfied with probability s_i = R(g) and stops;
  unsatisfied (or without a click) she reads on with probability gamma. gamma = 1 with every
  satisfaction 1 is the cascade.

``pbm_propensities`` estimates PBM's e_k / e_1 from clicks on randomised rankings. The chapter
"Evaluating a new policy from logs" (``book/off_policy.ipynb``) derives them.
"""

from __future__ import annotations

import numpy as np

from rankedu.core.common import satisfaction
from rankedu.core.steps import Steps
from rankedu.core.validation import (
    as_count,
    as_labels,
    as_max_grade,
    as_number,
    as_numbers,
    as_positions,
    as_probabilities,
    one_of,
    same_length,
)
from rankedu.metrics.cascade import simulate_cascade

__all__ = ["pbm_propensities", "simulate_clicks"]


def _attractiveness(rels, max_grade) -> np.ndarray:
    grades = as_numbers(rels, "rels")
    max_grade = as_max_grade(max_grade)
    if ((grades < 0) | (grades > max_grade)).any():
        raise ValueError(f"rels must hold grades in [0, max_grade={max_grade:g}], got "
                         f"{grades[(grades < 0) | (grades > max_grade)][0]:g}")
    return satisfaction(grades, max_grade)


def simulate_clicks(rels, model="pbm", *, seed, max_grade, n_sessions=1, examination=None,
                    gamma=1.0) -> np.ndarray:
    r"""Simulate the clicks of ``n_sessions`` users on one ranked list under a click model.

    The document at rank i has attractiveness a_i = (2^g_i - 1) / 2^g_max, its grade g_i
    mapped as ERR maps it.

    - ``"pbm"``: rank i is examined with probability ``examination[i]`` (default 1/i) and
      clicked when examined with probability a_i, independently of every other rank.
    - ``"cascade"``: the user reads down and clicks the first document she finds attractive,
      then stops (:func:`rankedu.simulate_cascade`): at most one click per session.
    - ``"dbn"``: she examines rank 1; at an examined rank she clicks with probability a_i; a
      click satisfies her with probability a_i too (the grade's R(g) serves as both), and a
      satisfied user stops; otherwise she examines the next rank with probability ``gamma``.

    Parameters
    ----------
    rels : sequence of float
        Grades of the list, rank 1 first, each in [0, max_grade].
    model : {"pbm", "cascade", "dbn"}, default "pbm"
    seed : int or numpy.random.Generator
        Seed of ``numpy.random.default_rng``; the same seed gives the same clicks.
    max_grade : float
        The top of the grading scale (4 on a 0-4 scale).
    n_sessions : int >= 0, default 1
    examination : sequence of float, optional
        PBM's examination probability of each rank, in [0, 1]; 1/i when None. Only for
        ``"pbm"``.
    gamma : float in [0, 1], default 1.0
        DBN's probability of reading on. Only for ``"dbn"``.

    Returns
    -------
    numpy.ndarray of int, shape (n_sessions, len(rels))
        1 where the session clicked the rank.

    Raises
    ------
    ValueError
        Naming ``model``, ``rels``, ``examination`` (wrong length or outside [0, 1]),
        ``gamma`` or ``n_sessions``.

    Notes
    -----
    The chapter :doc:`/book/off_policy` explains it.

    References
    ----------
    - ``craswell2008``: Craswell, N., Zoeter, O., Taylor, M. and Ramsey, B. (2008). An
      experimental comparison of click position-bias models. WSDM 2008, 87-94.
    - ``chapelle2009dbn``: Chapelle, O. and Zhang, Y. (2009). A dynamic Bayesian network click
      model for web search ranking. WWW 2009, 1-10.
    - ``joachims2017``: Joachims, T., Swaminathan, A. and Schnabel, T. (2017). Unbiased
      learning-to-rank with biased feedback. WSDM 2017, 781-789.

    Examples
    --------
    >>> import rankedu as rk
    >>> clicks = rk.simulate_clicks([1, 0, 1], seed=0, max_grade=1, n_sessions=100_000)
    >>> clicks.mean(axis=0).round(2).tolist()  # e_i a_i: 1/2, 0, (1/3)(1/2)
    [0.5, 0.0, 0.17]
    >>> cascade = rk.simulate_clicks([1, 1], "cascade", seed=0, max_grade=1, n_sessions=1000)
    >>> int(cascade.sum(axis=1).max())  # at most one click per session
    1
    """
    model = one_of(model, "model", ("pbm", "cascade", "dbn"))
    attractiveness = _attractiveness(rels, max_grade)
    n_sessions = as_count(n_sessions, "n_sessions")
    n = len(attractiveness)
    if model != "pbm" and examination is not None:
        raise ValueError(f"examination is PBM's; the {model} model decides what is examined")
    gamma = as_number(gamma, "gamma")
    if not 0 <= gamma <= 1:
        raise ValueError(f"gamma must lie in [0, 1], got {gamma:g}")
    if model != "dbn" and gamma != 1.0:
        raise ValueError(f"gamma is DBN's; the {model} model has no gamma")
    rng = np.random.default_rng(seed)
    if model == "pbm":
        examined = (1 / np.arange(1, n + 1) if examination is None
                    else as_probabilities(examination, "examination"))
        same_length(rels=attractiveness, examination=examined)
        return (rng.random((n_sessions, n)) < examined * attractiveness).astype(int)
    if model == "cascade":
        clicked = simulate_cascade(attractiveness, n_sessions, seed=rng)
        return (clicked[:, None] == np.arange(1, n + 1)).astype(int)
    clicks = np.zeros((n_sessions, n), dtype=int)
    reading = np.ones(n_sessions, dtype=bool)
    for rank in range(n):
        clicked = reading & (rng.random(n_sessions) < attractiveness[rank])
        clicks[clicked, rank] = 1
        satisfied = clicked & (rng.random(n_sessions) < attractiveness[rank])
        reading &= ~satisfied & (rng.random(n_sessions) < gamma)
    return clicks


def _pbm_propensities_steps(positions, clicks) -> Steps:
    positions = as_positions(positions, "positions")
    clicks = as_labels(clicks, "clicks")
    same_length(positions=positions, clicks=clicks)
    if not len(positions):
        raise ValueError("positions must hold at least one impression, got none")
    n_positions = positions.max()
    shown = np.bincount(positions, minlength=n_positions + 1)[1:]
    if (shown == 0).any():
        missing = int(np.flatnonzero(shown == 0)[0]) + 1
        raise ValueError(f"positions must show every position from 1 to {n_positions}; "
                         f"position {missing} was never shown")
    clicked = np.bincount(positions[clicks == 1], minlength=n_positions + 1)[1:]
    rate = clicked / shown
    if rate[0] == 0:
        raise ValueError("clicks must hold a click at position 1: e_k / e_1 divides by its "
                         "click rate")
    columns = {"position": np.arange(1, n_positions + 1), "impressions": shown,
               "clicks": clicked, "CTR": rate, "e_k / e_1": rate / rate[0]}
    return Steps(columns["e_k / e_1"], {"propensities": columns})


def pbm_propensities(positions, clicks) -> np.ndarray:
    r"""PBM's examination probabilities relative to rank 1, from clicks on randomised rankings.

    .. math:: \frac{\hat e_k}{\hat e_1} = \frac{\mathrm{CTR}_k}{\mathrm{CTR}_1}

    Under PBM the click rate at position k is e_k times the mean attractiveness of the
    documents shown there. When the rankings are randomised (every document equally likely at
    every position: result randomisation; or, between ranks 1 and k only, the swap
    intervention of Joachims et al. 2017, when the log holds the swapped pairs' impressions)
    that mean is the same at every position, so the ratio of click rates is the ratio of
    examination probabilities. On a log of unrandomised rankings it is not: better documents
    sit higher, and the ratio mixes position bias with relevance.

    Parameters
    ----------
    positions : sequence of int
        The position (1, 2, ...) of each impression.
    clicks : sequence of 0/1
        Whether it was clicked.

    Returns
    -------
    numpy.ndarray
        e_k / e_1 for k = 1 ... max(positions) (the first is 1.0).

    Raises
    ------
    ValueError
        Naming ``positions`` (a position below 1 or not an integer, a position up to the
        largest never shown) or ``clicks`` (not 0/1, or no click at position 1), or both for
        different lengths.

    Notes
    -----
    The chapter :doc:`/book/off_policy` explains it.

    References
    ----------
    - ``joachims2017``: Joachims, T., Swaminathan, A. and Schnabel, T. (2017). Unbiased
      learning-to-rank with biased feedback. WSDM 2017, 781-789.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.pbm_propensities([1, 1, 2, 2, 3, 3], [1, 1, 1, 0, 0, 1]).tolist()
    [1.0, 0.5, 0.5]
    """
    return _pbm_propensities_steps(positions=positions, clicks=clicks).value
