r"""Beyond accuracy: what a recommender's lists do to the catalogue, measured without judgments.

Every function here reads *recommendations*: the ranked lists a recommender gave its users, in
one of two forms (``rankedu.core.validation.as_recommendations``):

- a mapping of user to a ranked sequence of item ids, best first: ``{"u1": ["a", "b"]}``;
- a DataFrame with columns ``user`` and ``item``, and optionally ``rank`` (ints >= 1; without
  it, the order of a user's rows is the rank order). A log of impressions is one: a user per
  impression, ``rank`` its position.

A user's list names each item once. Conventions, stated where tools disagree:

- Catalogue coverage divides by an explicit catalogue, and an item outside it is an error, so
  the value is in [0, 1]. (Microsoft Recommenders 1.2.1 takes the items of the training data as
  the catalogue and counts a recommended item outside it: 1.2 on a small example.)
- Gini is the Lorenz-curve Gini of the n values given, without a finite-sample correction: 0
  for equal values, (n - 1) / n when one value holds everything. All-zero values are equal
  values (0.0). Entropy of all-zero values is 0.0.
- Average popularity and long-tail share are means over users of per-list means
  (Abdollahpouri et al. 2019's ARP and APLT); novelty is the mean over users of the mean
  self-information -log2(pop_i / n_users) of a list's items (Zhou et al. 2010).
- Intra-list diversity is the mean distance over the n (n - 1) / 2 pairs of one list
  (Ziegler et al. 2005); a list of one item has no pair and diversity 0.0.

The chapter "Recommenders: beyond accuracy and the offline protocol"
(``book/recommenders.ipynb``) derives each one.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from rankedu.core.common import running_mean
from rankedu.core.steps import Steps
from rankedu.core.validation import (
    as_above,
    as_catalog,
    as_function,
    as_id_set,
    as_log_base,
    as_nonnegative,
    as_number,
    as_open_probability,
    as_popularity,
    as_ranked_ids,
    as_recommendations,
    one_of,
    popularity_of,
    within,
)

__all__ = ["average_popularity", "catalog_coverage", "entropy", "exposure", "gini",
           "intra_list_diversity", "long_tail_share", "novelty"]


def _catalog_coverage_steps(recommendations, catalog) -> Steps:
    lists = as_recommendations(recommendations)
    catalog = as_catalog(catalog)
    times = dict.fromkeys(catalog, 0)
    for user, (items, _) in lists.items():
        for item in items:
            if item not in times:
                raise ValueError(f"recommendations of user {user!r} hold {item!r}, which is "
                                 f"not in catalog: coverage counts catalogue items only")
            times[item] += 1
    count = np.array(list(times.values()))
    covered = (count > 0).astype(int)
    columns = {"item": np.array(catalog, dtype=object), "times recommended": count,
               "covered": covered, "coverage so far": np.cumsum(covered) / len(catalog)}
    return Steps(columns["coverage so far"][-1], {"catalogue coverage": columns})


def catalog_coverage(recommendations, catalog) -> float:
    r"""Catalogue coverage: the share of the catalogue's items recommended to at least one user.

    .. math:: \mathrm{coverage} = \frac{|\bigcup_u L_u|}{|I|}

    with L_u the list of user u and I the catalogue. The catalogue is given, not inferred from
    the lists or the training data, so the value is in [0, 1]; a recommended item outside it is
    an error. Coverage counts an item once however often it is shown: a recommender that shows
    one item to everyone and every other item once covers the catalogue fully (the exposure
    Gini, :func:`gini` of :func:`exposure`, sees the difference).

    Parameters
    ----------
    recommendations : mapping or DataFrame
        User to ranked item ids, or a DataFrame with columns ``user``, ``item`` (and ``rank``).
    catalog : sequence
        Every item that could be recommended, each once.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Naming the argument: an empty catalogue or list, an item listed twice, a recommended
        item not in ``catalog``.

    Notes
    -----
    The chapter :doc:`/book/recommenders` explains it.

    References
    ----------
    - ``ge2010``: Ge, M., Delgado-Battenfeld, C. and Jannach, D. (2010). Beyond accuracy:
      evaluating recommender systems by coverage and serendipity. RecSys 2010.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.catalog_coverage({"u1": ["a", "b"], "u2": ["a", "c"]}, ["a", "b", "c", "d"])
    0.75
    """
    return _catalog_coverage_steps(recommendations=recommendations, catalog=catalog).value


def exposure(recommendations, *, weight="uniform", p=0.8, catalog=None) -> pd.Series:
    r"""Exposure of each item: the sum over users of the attention its rank receives.

    .. math:: E_i = \sum_u \sum_{r:\ L_u[r] = i} w(r), \qquad w(r) = 1 \text{ (uniform)},\
       \frac{1}{\log_2(r + 1)} \text{ (log)},\ p^{r - 1} \text{ (rbp)}

    ``"uniform"`` counts impressions; ``"log"`` is nDCG's discount; ``"rbp"`` is the
    probability that a user of rank-biased precision's model reaches rank r (Moffat and Zobel
    2008).

    Parameters
    ----------
    recommendations : mapping or DataFrame
        User to ranked item ids, or a DataFrame with columns ``user``, ``item`` (and ``rank``).
    weight : {"uniform", "log", "rbp"}, default "uniform"
    p : float in (0, 1), default 0.8
        The patience of ``weight="rbp"`` (ignored otherwise, but checked).
    catalog : sequence, optional
        When given, the Series has one entry per catalogue item, in its order, 0.0 for an item
        never recommended (what a concentration measure must see); a recommended item outside
        it is an error. Without it, the items recommended, in order of first appearance.

    Returns
    -------
    pandas.Series
        Float exposure indexed by item, named ``"exposure"``.

    Raises
    ------
    ValueError
        Naming the argument: an unknown ``weight``, ``p`` outside (0, 1), a recommended item
        outside ``catalog``, a malformed list.

    Notes
    -----
    The chapter :doc:`/book/recommenders` explains it.

    References
    ----------
    - ``moffat2008``: Moffat, A. and Zobel, J. (2008). Rank-biased precision for measurement
      of retrieval effectiveness. ACM TOIS 27(1).

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.exposure({"u1": ["a", "b"], "u2": ["b", "c"]}).to_dict()
    {'a': 1.0, 'b': 2.0, 'c': 1.0}
    >>> rk.exposure({"u1": ["a", "b"], "u2": ["b", "c"]}, weight="rbp", p=0.5).to_dict()
    {'a': 1.0, 'b': 1.5, 'c': 0.5}
    """
    lists = as_recommendations(recommendations)
    weight = one_of(weight, "weight", ("uniform", "log", "rbp"))
    p = as_open_probability(p, "p")
    discount = {"uniform": lambda ranks: np.ones(len(ranks)),
                "log": lambda ranks: 1 / np.log2(ranks + 1),
                "rbp": lambda ranks: p ** (ranks - 1.0)}[weight]
    total = dict.fromkeys(as_catalog(catalog), 0.0) if catalog is not None else {}
    for user, (items, ranks) in lists.items():
        for item, attention in zip(items, discount(ranks).tolist()):
            if catalog is not None and item not in total:
                raise ValueError(f"recommendations of user {user!r} hold {item!r}, which is "
                                 f"not in catalog")
            total[item] = total.get(item, 0.0) + attention
    return pd.Series(list(total.values()), index=pd.Index(list(total), name="item"),
                     name="exposure", dtype=float)


def _gini_steps(values) -> Steps:
    x = np.sort(as_nonnegative(values, "values"))
    n = len(x)
    total = x.sum()
    # All-zero values are equal values: the Lorenz curve is the diagonal and the Gini is 0.
    lorenz = np.cumsum(x) / total if total > 0 else np.arange(1, n + 1) / n
    before = np.concatenate(([0.0], lorenz[:-1]))
    area = (before + lorenz) / (2 * n)
    rank = np.arange(1, n + 1)
    # The value is the closed form's running sum, not 1 - 2 * (the areas so far): equal values
    # give exactly 0 there, where the areas leave a rounding error of 1e-16.
    # + 0.0: a zero count times a negative weight is -0.0, which the table would show.
    term = (2 * rank - n - 1) * x + 0.0
    columns = {"i": rank, "x_(i)": x, "L_i": lorenz, "area_i": area,
               "1 - 2 * area so far": 1 - 2 * np.cumsum(area), "(2i - n - 1) x_(i)": term,
               "G so far": np.cumsum(term) / (n * total) if total > 0 else np.zeros(n)}
    return Steps(float(columns["G so far"][-1]), {"Gini": columns})


def gini(values) -> float:
    r"""The Gini coefficient of non-negative values: one minus twice the area under the Lorenz
    curve.

    .. math:: G = 1 - 2 \sum_{i=1}^n \frac{L_{i-1} + L_i}{2n}
       = \frac{\sum_{i=1}^n (2i - n - 1)\, x_{(i)}}{n \sum_i x_i},
       \qquad L_i = \frac{\sum_{j \le i} x_{(j)}}{\sum_j x_j}

    with x_(1) <= ... <= x_(n) the values sorted ascending. 0 when every value is equal (all
    zero included); (n - 1) / n, not 1, when one of n values holds everything: the finite-n
    convention of RecBole's GiniIndex, with no n / (n - 1) correction. Pass
    every item of the catalogue, the unexposed ones with 0 (``exposure(..., catalog=...)``):
    items left out are not counted as unequal.

    Parameters
    ----------
    values : sequence of float
        Non-negative values (exposures, counts), at least one.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Naming ``values``: empty, negative, NaN or infinite.

    Notes
    -----
    The chapter :doc:`/book/recommenders` explains it.

    References
    ----------
    - ``kaminskas2016``: Kaminskas, M. and Bridge, D. (2016). Diversity, serendipity, novelty,
      and coverage: a survey and empirical analysis of beyond-accuracy objectives in
      recommender systems. ACM TiiS 7(1).

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.gini([5, 5, 5, 5])
    0.0
    >>> rk.gini([0, 0, 0, 8])  # (n - 1) / n
    0.75
    """
    return _gini_steps(values=values).value


def _entropy_steps(values, base) -> Steps:
    x = as_nonnegative(values, "values")
    base = as_log_base(base)
    total = x.sum()
    share = x / total if total > 0 else np.zeros(len(x))
    positive = share > 0
    term = np.zeros(len(x))
    term[positive] = -share[positive] * np.log(share[positive]) / math.log(base)
    columns = {"i": np.arange(1, len(x) + 1), "x_i": x, "p_i": share, "-p_i log p_i": term,
               "H so far": np.cumsum(term)}
    return Steps(columns["H so far"][-1], {"entropy": columns})


def entropy(values, *, base=2) -> float:
    r"""Shannon entropy of the shares of non-negative values: how evenly they are spread.

    .. math:: H = -\sum_i p_i \log_b p_i, \qquad p_i = \frac{x_i}{\sum_j x_j},
       \quad 0 \log 0 = 0

    log_b n for n equal values, 0 when one value holds everything, and 0.0 when every value is
    0 (no exposure to spread). In bits for ``base=2``, as scipy.stats.entropy with ``base=2``.

    Parameters
    ----------
    values : sequence of float
        Non-negative values (exposures, counts), at least one.
    base : float > 0, not 1, default 2

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Naming the argument: empty, negative or non-finite ``values``; a ``base`` <= 0 or 1.

    Notes
    -----
    The chapter :doc:`/book/recommenders` explains it.

    References
    ----------
    - ``shannon1948``: Shannon, C. E. (1948). A mathematical theory of communication. Bell
      System Technical Journal 27(3), 379-423.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.entropy([1, 1, 1, 1])
    2.0
    >>> rk.entropy([0, 0, 3])
    0.0
    """
    return _entropy_steps(values=values, base=base).value


def _per_list(lists: dict, score, name: str) -> Steps:
    """The mean over users of one number per list: a row per user, ending in the running mean."""
    users = list(lists)
    per_user = np.array([score(lists[user][0]) for user in users], dtype=float)
    columns = {"user": np.array(users, dtype=object),
               "list length": np.array([len(lists[user][0]) for user in users]),
               name: per_user, "mean so far": running_mean(per_user)}
    return Steps(columns["mean so far"][-1], {name: columns})


def _average_popularity_steps(recommendations, popularity) -> Steps:
    lists = as_recommendations(recommendations)
    popularity = as_popularity(popularity)
    return _per_list(lists, lambda items: popularity_of(items, popularity).mean(),
                     "mean popularity")


def average_popularity(recommendations, popularity) -> float:
    r"""Average recommendation popularity (ARP): the mean over users of the mean popularity of
    the items in their list.

    .. math:: \mathrm{ARP} = \frac{1}{|U|} \sum_u \frac{1}{|L_u|} \sum_{i \in L_u} \phi(i)

    with phi(i) the item's popularity in the training data (its number of interactions, or of
    users who rated it). A popularity-biased recommender has a high ARP.

    Parameters
    ----------
    recommendations : mapping or DataFrame
        User to ranked item ids, or a DataFrame with columns ``user``, ``item`` (and ``rank``).
    popularity : mapping or pandas.Series
        Item to its popularity, >= 0, for every recommended item.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Naming the argument: a negative popularity, a recommended item without one.

    Notes
    -----
    The chapter :doc:`/book/recommenders` explains it.

    References
    ----------
    - ``abdollahpouri2019``: Abdollahpouri, H., Burke, R. and Mobasher, B. (2019). Managing
      popularity bias in recommender systems with personalized re-ranking. FLAIRS 2019.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.average_popularity({"u1": ["a", "b"], "u2": ["c"]}, {"a": 10, "b": 2, "c": 1})
    3.5
    """
    return _average_popularity_steps(recommendations=recommendations,
                                     popularity=popularity).value


def _long_tail_share_steps(recommendations, long_tail) -> Steps:
    lists = as_recommendations(recommendations)
    tail = as_id_set(long_tail, "long_tail")
    return _per_list(lists, lambda items: np.mean([item in tail for item in items]),
                     "long-tail share")


def long_tail_share(recommendations, long_tail) -> float:
    r"""Average percentage of long-tail items (APLT): the mean over users of the share of their
    list that is in the long tail.

    .. math:: \mathrm{APLT} = \frac{1}{|U|} \sum_u \frac{|L_u \cap \Gamma|}{|L_u|}

    with Gamma the long tail: the items outside the short head of the most popular ones.
    Where the head ends is a choice, so the long tail is given: state the cut beside the
    number.

    Parameters
    ----------
    recommendations : mapping or DataFrame
        User to ranked item ids, or a DataFrame with columns ``user``, ``item`` (and ``rank``).
    long_tail : collection
        The item ids of the long tail (may be empty).

    Returns
    -------
    float

    Raises
    ------
    TypeError
        Naming ``long_tail`` when it is not a collection.

    Notes
    -----
    The chapter :doc:`/book/recommenders` explains it.

    References
    ----------
    - ``abdollahpouri2019``: Abdollahpouri, H., Burke, R. and Mobasher, B. (2019). Managing
      popularity bias in recommender systems with personalized re-ranking. FLAIRS 2019.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.long_tail_share({"u1": ["a", "b"], "u2": ["c", "d"]}, {"b", "c", "d"})
    0.75
    """
    return _long_tail_share_steps(recommendations=recommendations, long_tail=long_tail).value


def _novelty_steps(recommendations, popularity, n_users) -> Steps:
    lists = as_recommendations(recommendations)
    popularity = as_popularity(popularity)
    n_users = as_above(n_users, "n_users", 0)

    def self_information(items):
        known = popularity_of(items, popularity)
        within(known, items, "popularity", 0, n_users,
               "an item no user has seen has infinite self-information")
        return float(np.mean(-np.log2(known / n_users)))

    return _per_list(lists, self_information, "mean self-information")


def novelty(recommendations, popularity, *, n_users) -> float:
    r"""Novelty as self-information: the mean over users of the mean -log2 of the share of
    users who know each recommended item.

    .. math:: \mathrm{novelty} = \frac{1}{|U|} \sum_u \frac{1}{|L_u|} \sum_{i \in L_u}
       -\log_2 \frac{\phi(i)}{n_\mathrm{users}}

    with phi(i) the number of users who interacted with item i in the training data (Zhou et
    al. 2010's mean self-information; Vargas and Castells 2011 weight it by rank and relevance,
    which this plain version does not). An item every user knows adds 0 bits.

    Parameters
    ----------
    recommendations : mapping or DataFrame
        User to ranked item ids, or a DataFrame with columns ``user``, ``item`` (and ``rank``).
    popularity : mapping or pandas.Series
        Item to the number of users who interacted with it, in (0, n_users].
    n_users : number > 0
        The number of users of the training data.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Naming the argument: a popularity of 0 or above ``n_users``, a recommended item
        without one, ``n_users`` <= 0.

    Notes
    -----
    The chapter :doc:`/book/recommenders` explains it.

    References
    ----------
    - ``zhou2010``: Zhou, T., Kuscsik, Z., Liu, J.-G., Medo, M., Wakeling, J. R. and Zhang,
      Y.-C. (2010). Solving the apparent diversity-accuracy dilemma of recommender systems.
      PNAS 107(10), 4511-4515.
    - ``vargas2011``: Vargas, S. and Castells, P. (2011). Rank and relevance in novelty and
      diversity metrics for recommender systems. RecSys 2011.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.novelty({"u1": ["a", "b"]}, {"a": 8, "b": 2}, n_users=8)  # (0 + 2) / 2
    1.0
    """
    return _novelty_steps(recommendations=recommendations, popularity=popularity,
                          n_users=n_users).value


def _intra_list_diversity_steps(items, distance) -> Steps:
    items = as_ranked_ids(items, "items")
    distance = as_function(distance, "distance", "a function of two items")
    first, second = np.triu_indices(len(items), k=1)
    gaps = np.array([as_number(distance(items[i], items[j]), "distance") for i, j in
                     zip(first.tolist(), second.tolist())], dtype=float)
    if len(gaps):
        as_nonnegative(gaps, "distance")
    columns = {"i": first + 1, "j": second + 1,
               "item i": np.array([items[i] for i in first], dtype=object),
               "item j": np.array([items[j] for j in second], dtype=object),
               "d(i, j)": gaps, "ILD so far": running_mean(gaps)}
    value = columns["ILD so far"][-1] if len(gaps) else 0.0
    return Steps(value, {"intra-list diversity": columns})


def intra_list_diversity(items, distance) -> float:
    r"""Intra-list diversity (ILD): the mean distance between the items of one list, over its
    pairs.

    .. math:: \mathrm{ILD}(L) = \frac{2}{n(n - 1)} \sum_{i < j} d(L_i, L_j)

    Ziegler et al. (2005) define it through a similarity (diversity is its complement); give
    ``distance`` = 1 - similarity for theirs. A list of one item has no pair: 0.0. Rank plays no
    part; average over users for a system's ILD.

    Parameters
    ----------
    items : sequence
        One ranked list of distinct item ids.
    distance : callable
        ``distance(a, b)``, a number >= 0 for two items.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Naming the argument: an empty list, an item listed twice, a negative or non-finite
        distance.

    Notes
    -----
    The chapter :doc:`/book/recommenders` explains it.

    References
    ----------
    - ``ziegler2005``: Ziegler, C.-N., McNee, S. M., Konstan, J. A. and Lausen, G. (2005).
      Improving recommendation lists through topic diversification. WWW 2005.

    Examples
    --------
    >>> import rankedu as rk
    >>> genre = {"a": "jazz", "b": "jazz", "c": "rock"}
    >>> rk.intra_list_diversity(["a", "b", "c"], lambda x, y: float(genre[x] != genre[y]))
    0.6666666666666666
    """
    return _intra_list_diversity_steps(items=items, distance=distance).value
