"""Interleaving: two rankings merged into one list, and the clicks on it credited to one of them.

An interleaving experiment shows each user one list built from two rankings ``a`` and ``b`` of
the same query, and reads her clicks as a vote: a "win" for the ranking credited with more of
the clicked documents, a tie otherwise. Three ways to merge and credit are implemented:

- **Balanced** (Joachims, 2002): a coin decides which ranking goes first; then the two
  rankings take turns, each adding its next document unless it is already shown, so that at
  every depth the list holds the top k_a of ``a`` and the top k_b of ``b``, with k_a and k_b
  differing by at most one. Credit follows Chapelle et al. (2012): with the lowest click on the
  document d, k is the smallest rank at which d appears in ``a`` or in ``b``, and each ranking
  scores the clicked documents of its own top k.
- **Team-draft** (Radlinski, Kurup and Joachims, 2008): two captains pick players. At each
  round a coin decides which team picks first; each picks its highest-ranked document not yet
  shown. A click counts for the team that picked the document.
- **Probabilistic** (Hofmann, Whiteson and de Rijke, 2011): at each step a fair coin picks a
  ranking, which draws a document not yet shown with probability proportional to
  1 / rank^tau (its rank in that ranking). A click counts for the ranking that drew it.

Conventions: each merge stops as soon as one ranking has no document left to add (the
papers' loops), so two rankings of the same documents give a list of all of them; rankings
of different documents may give lists of different lengths. A ranking must not repeat a
document. :func:`interleaving_preference` computes a method's probabilities of a win, a loss
and a tie exactly, by enumerating every randomisation of the method and every click pattern;
it is what shows that balanced interleaving is biased where team-draft is not. The chapter
"Online evaluation: A/B tests and interleaving" (``book/online_evaluation.ipynb``) derives it.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from rankedu.core.steps import Steps
from rankedu.core.validation import (
    as_above,
    as_exact_probabilities,
    as_flag,
    as_labels,
    as_ranked_ids,
    one_of,
)

__all__ = ["Interleaving", "InterleavingOutcome", "balanced_interleave", "interleaving_outcome",
           "interleaving_preference", "probabilistic_interleave", "team_draft_interleave"]

#: The interleaving methods :func:`rankedu.interleaving_preference` enumerates.
METHODS = ("balanced", "team_draft", "probabilistic")

#: The most documents (of ``a`` and ``b`` together) that :func:`rankedu.interleaving_preference`
#: enumerates for each method: 2^n click patterns for every interleaved list, and the
#: probabilistic method has up to 2^n n! lists.
MAX_ENUMERATED = {"balanced": 10, "team_draft": 10, "probabilistic": 6}


class Interleaving(NamedTuple):
    """An interleaved list: what the user is shown, and where each document came from."""

    documents: tuple  #: the interleaved list, rank 1 first
    teams: tuple  #: which ranking added each document (``"a"`` or ``"b"``)
    a: tuple  #: the first ranking
    b: tuple  #: the second ranking
    method: str  #: "balanced", "team_draft" or "probabilistic"


class InterleavingOutcome(NamedTuple):
    """How many impressions ``a`` won, ``b`` won, and how many were ties."""

    a_wins: int
    b_wins: int
    ties: int


def _balanced(a: tuple, b: tuple, a_first: bool) -> Interleaving:
    """Joachims' loop: the ranking that has added fewer documents (``a`` first on a tie when
    ``a_first``) adds its next one unless it is already shown."""
    documents, teams = [], []
    k_a = k_b = 0
    while k_a < len(a) and k_b < len(b):
        if k_a < k_b or (k_a == k_b and a_first):
            document, team, k_a = a[k_a], "a", k_a + 1
        else:
            document, team, k_b = b[k_b], "b", k_b + 1
        if document not in documents:
            documents.append(document)
            teams.append(team)
    return Interleaving(tuple(documents), tuple(teams), a, b, "balanced")


def _left(ranking: tuple, shown: tuple) -> list:
    return [(rank, document) for rank, document in enumerate(ranking, start=1)
            if document not in shown]


def _team_draft_moves(a: tuple, b: tuple, documents: tuple, teams: tuple, weight) -> list:
    """The next pick of team-draft, as (probability, team, document): the team with fewer
    players picks; on equal teams a coin decides (one coin per round of two picks)."""
    left = {"a": _left(a, documents), "b": _left(b, documents)}
    if not left["a"] or not left["b"]:
        return []
    behind = teams.count("a") - teams.count("b")
    if behind:
        team = "a" if behind < 0 else "b"
        return [(Fraction(1), team, left[team][0][1])]
    return [(Fraction(1, 2), team, left[team][0][1]) for team in ("a", "b")]


def _probabilistic_moves(a: tuple, b: tuple, documents: tuple, teams: tuple, weight) -> list:
    """The next draw of probabilistic interleaving, as (probability, team, document): a fair
    coin picks a ranking, which draws one of its documents not yet shown with probability
    ``weight(rank)`` over the sum of the weights of those documents."""
    left = {"a": _left(a, documents), "b": _left(b, documents)}
    if not left["a"] or not left["b"]:
        return []
    moves = []
    for team in ("a", "b"):
        weights = [(weight(rank), document) for rank, document in left[team]]
        total = sum(w for w, _ in weights)
        moves += [(w / total / 2, team, document) for w, document in weights]
    return moves


_MOVES = {"team_draft": _team_draft_moves, "probabilistic": _probabilistic_moves}


def _rank_weight(tau: float):
    """1 / rank^tau: an exact fraction when tau is a whole number, else the float's fraction."""
    if float(tau).is_integer():
        return lambda rank: Fraction(1, rank ** int(tau))
    return lambda rank: Fraction(rank ** -tau)


def _sample(method: str, a: tuple, b: tuple, weight, seed) -> Interleaving:
    """One interleaved list, drawing each move with ``numpy.random.default_rng(seed)`` (a
    forced move draws nothing)."""
    rng = np.random.default_rng(seed)
    documents, teams = (), ()
    while moves := _MOVES[method](a, b, documents, teams, weight):
        chosen = 0
        if len(moves) > 1:
            p = np.array([float(q) for q, _, _ in moves])
            chosen = int(rng.choice(len(moves), p=p / p.sum()))
        _, team, document = moves[chosen]
        documents, teams = documents + (document,), teams + (team,)
    return Interleaving(documents, teams, a, b, method)


def _enumerate(method: str, a: tuple, b: tuple, weight) -> list[tuple[Fraction, Interleaving]]:
    """Every interleaved list the method can produce, with its exact probability, in the order
    of the moves (``a``'s choices first)."""
    if method == "balanced":
        return [(Fraction(1, 2), _balanced(a, b, a_first)) for a_first in (True, False)]
    lists, stack = [], [((), (), Fraction(1))]
    while stack:
        documents, teams, p = stack.pop()
        moves = _MOVES[method](a, b, documents, teams, weight)
        if not moves:
            lists.append((p, Interleaving(documents, teams, a, b, method)))
        # Pushed in reverse, so that the first move is explored first.
        stack += [(documents + (d,), teams + (t,), p * q) for q, t, d in reversed(moves)]
    return lists


def _winner(result: Interleaving, clicked: tuple[int, ...]) -> str:
    """"a", "b" or "tie" for the clicks at the 0-based ranks ``clicked`` of ``result``."""
    if not clicked:
        return "tie"
    documents = [result.documents[i] for i in clicked]
    if result.method == "balanced":
        lowest = result.documents[max(clicked)]
        depth = min(_rank_in(result.a, lowest), _rank_in(result.b, lowest))
        hits_a = sum(d in result.a[:depth] for d in documents)
        hits_b = sum(d in result.b[:depth] for d in documents)
    else:
        hits_a = sum(result.teams[i] == "a" for i in clicked)
        hits_b = len(clicked) - hits_a
    return "a" if hits_a > hits_b else "b" if hits_b > hits_a else "tie"


def _rank_in(ranking: tuple, document) -> float:
    return ranking.index(document) + 1 if document in ranking else math.inf


def balanced_interleave(a, b, *, a_first) -> Interleaving:
    """Balanced interleaving of two rankings (Joachims, 2002).

    The ranking that has added fewer documents adds its next one, unless it is already in the
    list; when both have added as many, ``a`` goes first if ``a_first``. So every prefix of
    the list holds the top k_a documents of ``a`` and the top k_b of ``b``, with k_a and k_b
    differing by at most one. In an experiment, ``a_first`` is a fair coin, drawn once per
    impression. The list ends when one ranking has no document left to add.

    Parameters
    ----------
    a, b : sequence of hashable
        Two rankings of document ids, best first, each without repeats.
    a_first : bool
        Whether ``a`` adds its document first on a tie (the experiment's coin).

    Returns
    -------
    Interleaving
        ``documents`` (the list shown), ``teams`` (``"a"`` or ``"b"``: which ranking added each
        document), ``a``, ``b`` and ``method="balanced"``.

    Raises
    ------
    ValueError
        Naming ``a`` or ``b`` when a ranking is empty or repeats a document.
    TypeError
        Naming ``a_first`` when it is not True or False.

    See Also
    --------
    interleaving_outcome, interleaving_preference

    Notes
    -----
    The chapter :doc:`/book/online_evaluation` explains it.

    References
    ----------
    - ``joachims2002``: Joachims, T. (2002). Unbiased evaluation of retrieval quality using
      clickthrough data. SIGIR Workshop on Mathematical/Formal Methods in IR.
    - ``chapelle2012``: Chapelle, O., Joachims, T., Radlinski, F. and Yue, Y. (2012).
      Large-scale validation and analysis of interleaved search evaluation. ACM TOIS 30(1).

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.balanced_interleave(["a", "b", "c"], ["b", "c", "a"], a_first=True).documents
    ('a', 'b', 'c')
    >>> rk.balanced_interleave(["a", "b", "c"], ["b", "c", "a"], a_first=False).documents
    ('b', 'a', 'c')
    """
    a, b = tuple(as_ranked_ids(a, "a")), tuple(as_ranked_ids(b, "b"))
    return _balanced(a, b, as_flag(a_first, "a_first"))


def team_draft_interleave(a, b, *, seed) -> Interleaving:
    """Team-draft interleaving of two rankings (Radlinski, Kurup and Joachims, 2008).

    As captains pick teams: at each round a fair coin decides which ranking picks first, and
    each picks its highest-ranked document not yet in the list (the ranking with fewer picks
    always picks next, so every round gives one document to each). The list ends when one
    ranking has no document left to add. A click counts for the ranking that picked the
    document (:func:`interleaving_outcome`).

    Parameters
    ----------
    a, b : sequence of hashable
        Two rankings of document ids, best first, each without repeats.
    seed : int, numpy.random.Generator or None
        Seed of ``numpy.random.default_rng``, which draws the coins; the same seed gives the
        same list.

    Returns
    -------
    Interleaving
        ``documents``, ``teams`` (the ranking that picked each document), ``a``, ``b`` and
        ``method="team_draft"``.

    Raises
    ------
    ValueError
        Naming ``a`` or ``b`` when a ranking is empty or repeats a document.

    See Also
    --------
    interleaving_outcome, interleaving_preference

    Notes
    -----
    The chapter :doc:`/book/online_evaluation` explains it.

    References
    ----------
    - ``radlinski2008``: Radlinski, F., Kurup, M. and Joachims, T. (2008). How does
      clickthrough data reflect retrieval quality? CIKM 2008, 43-52.

    Examples
    --------
    >>> import rankedu as rk
    >>> result = rk.team_draft_interleave(["a", "b", "c"], ["b", "c", "a"], seed=1)
    >>> result.documents, result.teams  # b won the first coin; a's best was then a
    (('b', 'a', 'c'), ('b', 'a', 'b'))
    """
    a, b = tuple(as_ranked_ids(a, "a")), tuple(as_ranked_ids(b, "b"))
    return _sample("team_draft", a, b, None, seed)


def probabilistic_interleave(a, b, *, tau=3.0, seed) -> Interleaving:
    r"""Probabilistic interleaving of two rankings (Hofmann, Whiteson and de Rijke, 2011).

    Each ranking is turned into a distribution over its documents, a softmax of their ranks:

    .. math:: P_a(d) = \frac{1 / r_a(d)^{\tau}}{\sum_{d'} 1 / r_a(d')^{\tau}}

    over the documents d' not yet in the list. At each step a fair coin picks a ranking, which
    draws a document from its distribution; the document is then removed from both. Every
    document of a ranking can land at any rank, so (unlike team-draft) a click can be
    credited to either ranking whatever the two rankings are. The list ends when one ranking
    has no document left to add; a click counts for the ranking that drew the document.

    Parameters
    ----------
    a, b : sequence of hashable
        Two rankings of document ids, best first, each without repeats.
    tau : float > 0, default 3.0
        How strongly a ranking prefers its top documents (Hofmann et al. use 3).
    seed : int, numpy.random.Generator or None
        Seed of ``numpy.random.default_rng``.

    Returns
    -------
    Interleaving
        ``documents``, ``teams`` (the ranking that drew each document), ``a``, ``b`` and
        ``method="probabilistic"``.

    Raises
    ------
    ValueError
        Naming ``a`` or ``b`` when a ranking is empty or repeats a document, ``tau`` when it is
        not > 0.

    See Also
    --------
    interleaving_outcome, interleaving_preference

    Notes
    -----
    The chapter :doc:`/book/online_evaluation` explains it. Hofmann et al. also average the
    outcome over every assignment of the clicked documents to the rankings that could have
    produced the list; here the click counts for the ranking that actually drew the document.

    References
    ----------
    - ``hofmann2011``: Hofmann, K., Whiteson, S. and de Rijke, M. (2011). A probabilistic method
      for inferring preferences from clicks. CIKM 2011, 249-258.

    Examples
    --------
    >>> import rankedu as rk
    >>> result = rk.probabilistic_interleave(["a", "b", "c"], ["b", "c", "a"], seed=0)
    >>> result.documents, result.teams
    (('b', 'a', 'c'), ('b', 'a', 'a'))
    """
    a, b = tuple(as_ranked_ids(a, "a")), tuple(as_ranked_ids(b, "b"))
    tau = as_above(tau, "tau", 0)
    return _sample("probabilistic", a, b, _rank_weight(tau), seed)


def interleaving_outcome(result, clicks) -> InterleavingOutcome:
    """Which ranking the clicks on an interleaved list prefer.

    For team-draft and probabilistic interleaving, each ranking scores the clicked documents it
    added. For balanced interleaving (Chapelle et al., 2012), let d be the lowest clicked
    document and k the smallest rank at which d appears in ``a`` or in ``b``; each ranking
    scores the clicked documents of its own top k. The ranking with the higher score wins the
    impression; equal scores (no click included) are a tie.

    Parameters
    ----------
    result : Interleaving
        What :func:`balanced_interleave`, :func:`team_draft_interleave` or
        :func:`probabilistic_interleave` returned.
    clicks : sequence of 0/1, or a 2-D array of them
        One entry per rank of ``result.documents`` (1: clicked), for one impression; or one
        such row per impression of the same list.

    Returns
    -------
    InterleavingOutcome
        ``(a_wins, b_wins, ties)``: counts of impressions (for one impression, one of them is
        1).

    Raises
    ------
    ValueError
        Naming ``clicks`` when it holds anything but 0 and 1 or not one entry per rank.
    TypeError
        Naming ``result`` when it is not an :class:`Interleaving`.

    Notes
    -----
    The chapter :doc:`/book/online_evaluation` explains it.

    References
    ----------
    - ``chapelle2012``: Chapelle, O., Joachims, T., Radlinski, F. and Yue, Y. (2012).
      Large-scale validation and analysis of interleaved search evaluation. ACM TOIS 30(1).
    - ``radlinski2008``: Radlinski, F., Kurup, M. and Joachims, T. (2008). How does
      clickthrough data reflect retrieval quality? CIKM 2008, 43-52.

    Examples
    --------
    >>> import rankedu as rk
    >>> shown = rk.balanced_interleave(["a", "b", "c"], ["b", "c", "a"], a_first=True)
    >>> rk.interleaving_outcome(shown, [0, 0, 1])  # c is 2nd in b, 3rd in a: b's top 2 wins
    InterleavingOutcome(a_wins=0, b_wins=1, ties=0)
    """
    if not isinstance(result, Interleaving):
        raise TypeError(f"result must be an Interleaving (what an interleave function returns), "
                        f"got {type(result).__name__}")
    rows = _click_rows(clicks, len(result.documents))
    counts = {"a": 0, "b": 0, "tie": 0}
    for row in rows:
        counts[_winner(result, tuple(np.flatnonzero(row).tolist()))] += 1
    return InterleavingOutcome(counts["a"], counts["b"], counts["tie"])


def _click_rows(clicks, n: int) -> np.ndarray:
    """``clicks`` as a 2-D 0/1 array of rows of length n (one row for 1-D input)."""
    if isinstance(clicks, (str, bytes)) or not hasattr(clicks, "__len__"):
        raise TypeError(f"clicks must be a list or array of 0/1, got {type(clicks).__name__}")
    try:
        array = np.asarray(clicks)
    except ValueError:
        raise ValueError("clicks must be one row of 0/1 per impression, all of one length, got "
                         "rows of unequal lengths") from None
    if array.ndim not in (1, 2):
        raise ValueError(f"clicks must be one- or two-dimensional, got shape {array.shape}")
    rows = as_labels(array.ravel(), "clicks").reshape((-1, array.shape[-1]))
    if rows.shape[1] != n:
        raise ValueError(f"clicks must have one entry per rank of the interleaved list ({n}), "
                         f"got {rows.shape[1]}")
    return rows


def _click_patterns(probabilities: list[Fraction], single_click: bool):
    """Every click pattern (the 0-based clicked ranks) with its exact probability."""
    n = len(probabilities)
    if single_click:
        return [((i,), p) for i, p in enumerate(probabilities)]
    patterns = []
    for pattern in itertools.product((0, 1), repeat=n):
        p = Fraction(1)
        for clicked, q in zip(pattern, probabilities):
            p *= q if clicked else 1 - q
        patterns.append((tuple(i for i in range(n) if pattern[i]), p))
    return patterns


def _interleaving_preference_steps(a, b, method, click_probabilities, single_click) -> Steps:
    a, b = tuple(as_ranked_ids(a, "a")), tuple(as_ranked_ids(b, "b"))
    method = one_of(method, "method", METHODS)
    single_click = as_flag(single_click, "single_click")
    probabilities, exact = as_exact_probabilities(click_probabilities, "click_probabilities")
    n_documents = len(set(a) | set(b))
    if n_documents > MAX_ENUMERATED[method]:
        raise ValueError(
            f"a and b hold {n_documents} documents; {method} interleaving is enumerated up to "
            f"{MAX_ENUMERATED[method]} (2^n click patterns for each interleaved list)")
    if single_click and sum(probabilities) != 1 and (exact or not math.isclose(
            float(sum(probabilities)), 1.0, rel_tol=1e-9)):
        raise ValueError(f"click_probabilities must sum to 1 with single_click=True (exactly one "
                         f"rank is clicked), got a sum of {float(sum(probabilities)):g}")
    lists = _enumerate(method, a, b, _rank_weight(3.0))
    lengths = sorted({len(result.documents) for _, result in lists})
    if lengths != [len(probabilities)]:
        raise ValueError(
            f"click_probabilities must have one entry per rank of the interleaved list: "
            f"{method} interleaving of a and b gives lists of {' or '.join(map(str, lengths))} "
            f"documents, got {len(probabilities)}")
    patterns = _click_patterns(probabilities, single_click)
    rows = []
    for p_list, result in lists:
        given = {"a": Fraction(0), "b": Fraction(0), "tie": Fraction(0)}
        for clicked, p_clicks in patterns:
            given[_winner(result, clicked)] += p_clicks
        rows.append((p_list, result, given))
    convert = (lambda x: x) if exact else float
    totals = {key: sum((p * given[key] for p, _, given in rows), Fraction(0))
              for key in ("a", "b", "tie")}
    table = {
        "list": np.array([" ".join(map(str, r.documents)) for _, r, _ in rows], dtype=object),
        "teams": np.array(["".join(r.teams) for _, r, _ in rows], dtype=object),
        "P(list)": np.array([convert(p) for p, _, _ in rows], dtype=object),
        "P(a wins | list)": np.array([convert(g["a"]) for _, _, g in rows], dtype=object),
        "P(b wins | list)": np.array([convert(g["b"]) for _, _, g in rows], dtype=object),
        "P(tie | list)": np.array([convert(g["tie"]) for _, _, g in rows], dtype=object),
    }
    value = tuple(convert(totals[key]) for key in ("a", "b", "tie"))
    return Steps(value, {"interleaved lists": table})


def interleaving_preference(a, b, *, method, click_probabilities, single_click=False) -> tuple:
    r"""The exact probabilities that an impression prefers ``a``, prefers ``b``, or is a tie.

    Every randomisation of the method is enumerated with its probability (balanced: the two
    outcomes of the coin; team-draft: the coin of every round; probabilistic: every draw), and
    for each interleaved list every click pattern:

    .. math::

        P(a \text{ wins}) = \sum_{L} P(L) \sum_{C} P(C)\, [\text{the clicks } C
        \text{ on } L \text{ credit } a \text{ more than } b]

    With ``single_click=False`` the user clicks rank i + 1 of the list with probability
    ``click_probabilities[i]``, independently of the other ranks (2^n patterns, no click
    included); with ``single_click=True`` she clicks exactly one rank, rank i + 1 with
    probability ``click_probabilities[i]``. The clicks depend on the rank only, not on the
    document there: a user who does not care which ranking is better. An unbiased method
    gives such a user P(a wins) = P(b wins) whatever ``a`` and ``b`` are.

    Parameters
    ----------
    a, b : sequence of hashable
        Two rankings of document ids, best first, each without repeats (at most
        :data:`rankedu.online.interleaving.MAX_ENUMERATED` documents together).
    method : {"balanced", "team_draft", "probabilistic"}
        Credit as :func:`interleaving_outcome` assigns it; probabilistic interleaving with
        tau = 3.
    click_probabilities : sequence of fractions.Fraction, int or float
        One per rank of the interleaved list, in [0, 1]; with ``single_click=True`` they must
        sum to 1. Every interleaved list of the method must have this length (two rankings of
        the same documents always give one).
    single_click : bool, default False
        Exactly one click per impression instead of independent clicks.

    Returns
    -------
    tuple
        ``(p_a_wins, p_b_wins, p_tie)``, which sum to 1: ``fractions.Fraction`` when
        ``click_probabilities`` holds only ints and fractions, floats otherwise.
        ``rk.explain.interleaving_preference`` lists every interleaved list with its
        probability and the conditional probabilities of each outcome.

    Raises
    ------
    ValueError
        Naming ``a`` or ``b`` for an empty or repeating ranking, or too many documents to
        enumerate; ``method`` for an unknown method; ``click_probabilities`` for a value
        outside [0, 1], the wrong length, or (single click) a sum other than 1.

    Notes
    -----
    The chapter :doc:`/book/online_evaluation` explains it.

    References
    ----------
    - ``joachims2002``: Joachims, T. (2002). Unbiased evaluation of retrieval quality using
      clickthrough data. SIGIR Workshop on Mathematical/Formal Methods in IR.
    - ``radlinski2008``: Radlinski, F., Kurup, M. and Joachims, T. (2008). How does
      clickthrough data reflect retrieval quality? CIKM 2008, 43-52.
    - ``hofmann2011``: Hofmann, K., Whiteson, S. and de Rijke, M. (2011). A probabilistic method
      for inferring preferences from clicks. CIKM 2011, 249-258.

    Examples
    --------
    A user who clicks one of three ranks uniformly at random prefers b under balanced
    interleaving, but neither ranking under team-draft:

    >>> import rankedu as rk
    >>> from fractions import Fraction
    >>> third = [Fraction(1, 3)] * 3
    >>> rk.interleaving_preference(["a", "b", "c"], ["b", "c", "a"], method="balanced",
    ...                            click_probabilities=third, single_click=True)
    (Fraction(1, 3), Fraction(2, 3), Fraction(0, 1))
    >>> rk.interleaving_preference(["a", "b", "c"], ["b", "c", "a"], method="team_draft",
    ...                            click_probabilities=third, single_click=True)
    (Fraction(1, 2), Fraction(1, 2), Fraction(0, 1))
    """
    return _interleaving_preference_steps(
        a=a, b=b, method=method, click_probabilities=click_probabilities,
        single_click=single_click).value
