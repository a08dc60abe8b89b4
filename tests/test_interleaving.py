"""Tests of rankedu/online/interleaving.py.

The oracle is an independent brute force written here from the papers: every sequence of
coins (balanced, team-draft) or every ordering and team assignment of the documents
(probabilistic) with its probability, every click pattern, and the credit rules of Chapelle et
al. (2012) and Radlinski et al. (2008) as mpkato/interleaving writes them, all in exact
fractions. mpkato/interleaving itself is not on PyPI (the package of that name there is an
unrelated placeholder), so it cannot be installed as a pinned oracle.
"""

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest

import rankedu as rk
from rankedu.online.interleaving import MAX_ENUMERATED

A, B = ["a", "b", "c"], ["b", "c", "a"]
THIRD = [Fraction(1, 3)] * 3


# --- the independent brute force -------------------------------------------------------------


def brute_balanced(a, b, a_first):
    shown, k_a, k_b = [], 0, 0
    while k_a < len(a) and k_b < len(b):
        take_a = k_a < k_b or (k_a == k_b and a_first)
        document = a[k_a] if take_a else b[k_b]
        k_a, k_b = (k_a + 1, k_b) if take_a else (k_a, k_b + 1)
        if document not in shown:
            shown.append(document)
    return shown


def brute_team_draft(a, b, coins):
    """Team-draft driven by a fixed sequence of coins (True: a picks first in that round)."""
    shown, team_a, team_b, coins = [], [], [], iter(coins)
    while set(a) - set(shown) and set(b) - set(shown):
        if len(team_a) < len(team_b) or (len(team_a) == len(team_b) and next(coins)):
            pick = next(d for d in a if d not in shown)
            team_a.append(pick)
        else:
            pick = next(d for d in b if d not in shown)
            team_b.append(pick)
        shown.append(pick)
    return shown, ["a" if d in team_a else "b" for d in shown]


def brute_lists(a, b, method):
    """{(documents, teams): probability} by brute force."""
    found = {}
    if method == "balanced":
        for a_first in (True, False):
            shown = tuple(brute_balanced(a, b, a_first))
            found[(shown, None)] = found.get((shown, None), 0) + Fraction(1, 2)
        return found
    if method == "team_draft":
        rounds = len(set(a) | set(b))  # more coins than rounds: the unused ones are summed out
        for coins in itertools.product((True, False), repeat=rounds):
            shown, teams = brute_team_draft(a, b, coins)
            key = (tuple(shown), tuple(teams))
            found[key] = found.get(key, 0) + Fraction(1, 2**rounds)
        return found
    # probabilistic, tau = 3: every ordering of every subset of documents and every team
    # assignment, with the product of its draws' probabilities (0 for an impossible one).
    documents = sorted(set(a) | set(b))
    for length in range(1, len(documents) + 1):
        for shown in itertools.permutations(documents, length):
            for teams in itertools.product("ab", repeat=length):
                p = Fraction(1)
                for i, (document, team) in enumerate(zip(shown, teams)):
                    ranking = a if team == "a" else b
                    left_a = [d for d in a if d not in shown[:i]]
                    left_b = [d for d in b if d not in shown[:i]]
                    if not left_a or not left_b or document not in ranking:
                        p = 0
                        break
                    weight = {d: Fraction(1, (ranking.index(d) + 1) ** 3)
                              for d in (left_a if team == "a" else left_b)}
                    p *= Fraction(1, 2) * weight[document] / sum(weight.values())
                # The list must end here: one ranking has nothing left to add.
                done = (not [d for d in a if d not in shown]
                        or not [d for d in b if d not in shown])
                if p and done:
                    found[(shown, teams)] = p
    return found


def brute_winner(a, b, shown, teams, clicked):
    if not clicked:
        return "tie"
    if teams is None:  # balanced, as mpkato/interleaving's Balanced.compute_scores
        lowest = shown[max(clicked)]
        k_a = a.index(lowest) if lowest in a else len(a)
        k_b = b.index(lowest) if lowest in b else len(b)
        k = min(k_a, k_b)
        h_a = len([c for c in clicked if shown[c] in a[:k + 1]])
        h_b = len([c for c in clicked if shown[c] in b[:k + 1]])
    else:
        h_a = len([c for c in clicked if teams[c] == "a"])
        h_b = len([c for c in clicked if teams[c] == "b"])
    return "a" if h_a > h_b else "b" if h_b > h_a else "tie"


def brute_preference(a, b, method, probabilities, single_click=False):
    totals = {"a": Fraction(0), "b": Fraction(0), "tie": Fraction(0)}
    n = len(probabilities)
    for (shown, teams), p_list in brute_lists(a, b, method).items():
        if single_click:
            patterns = [((i,), probabilities[i]) for i in range(n)]
        else:
            patterns = []
            for bits in itertools.product((0, 1), repeat=n):
                p = Fraction(1)
                for bit, q in zip(bits, probabilities):
                    p *= q if bit else 1 - q
                patterns.append((tuple(i for i in range(n) if bits[i]), p))
        for clicked, p_clicks in patterns:
            totals[brute_winner(a, b, shown, teams, clicked)] += p_list * p_clicks
    return totals["a"], totals["b"], totals["tie"]


# --- the example ----------------------------------------------------------------------


def test_balanced_lets_a_uniform_single_clicker_prefer_b_two_times_in_three():
    assert rk.interleaving_preference(A, B, method="balanced", click_probabilities=THIRD,
                                      single_click=True) == (Fraction(1, 3), Fraction(2, 3), 0)


@pytest.mark.parametrize("method", ["team_draft", "probabilistic"])
def test_team_draft_and_probabilistic_give_a_uniform_single_clicker_no_preference(method):
    assert rk.interleaving_preference(A, B, method=method, click_probabilities=THIRD,
                                      single_click=True) == (Fraction(1, 2), Fraction(1, 2), 0)


def test_the_two_balanced_lists_of_the_example_and_their_conditional_outcomes():
    table = rk.explain.interleaving_preference(
        A, B, method="balanced", click_probabilities=THIRD, single_click=True).table
    assert table["list"].tolist() == ["a b c", "b a c"]
    assert table["P(list)"].tolist() == [Fraction(1, 2)] * 2
    assert table["P(b wins | list)"].tolist() == [Fraction(2, 3)] * 2


# --- against the brute force --------------------------------------------------------------------


def random_case(rng, method):
    """Two rankings of a few documents (sometimes different ones) and click probabilities."""
    # The probabilistic brute force tries every ordering and team assignment of the union:
    # five documents at most keep it quick.
    pool = list("defgh" if method == "probabilistic" else "defghijk")
    size = rng.randint(1, 4 if method == "probabilistic" else 5)
    a = rng.sample(pool, size)
    b = rng.sample(a, size) if rng.random() < 0.6 else rng.sample(pool, rng.randint(1, size))
    return a, b


@pytest.mark.parametrize("method", ["balanced", "team_draft", "probabilistic"])
@pytest.mark.parametrize("single_click", [False, True])
@pytest.mark.parametrize("case", range(12))
def test_preference_equals_the_brute_force_exactly(method, single_click, case):
    rng = random.Random(1000 * case + len(method) + single_click)
    a, b = random_case(rng, method)
    lengths = {len(shown) for shown, _ in brute_lists(a, b, method)}
    if len(lengths) > 1:
        with pytest.raises(ValueError, match="click_probabilities"):
            rk.interleaving_preference(a, b, method=method, single_click=single_click,
                                       click_probabilities=[Fraction(1, 2)] * max(lengths))
        return
    n = lengths.pop()
    if single_click:
        weights = [rng.randint(0, 4) for _ in range(n)]
        weights[rng.randrange(n)] += 1
        probabilities = [Fraction(w, sum(weights)) for w in weights]
    else:
        probabilities = [Fraction(rng.randint(0, 6), 6) for _ in range(n)]
    got = rk.interleaving_preference(a, b, method=method, single_click=single_click,
                                     click_probabilities=probabilities)
    assert got == brute_preference(a, b, method, probabilities, single_click)
    assert sum(got) == 1
    assert all(type(p) is Fraction for p in got)


@pytest.mark.parametrize("method", ["balanced", "team_draft", "probabilistic"])
def test_the_enumerated_lists_are_the_brute_forces_with_the_same_probabilities(method):
    a, b = ["d", "e", "f", "g"], ["f", "d", "g", "e"]
    table = rk.explain.interleaving_preference(
        a, b, method=method, click_probabilities=[Fraction(1, 4)] * 4, single_click=True).table
    found = {}
    for shown, teams, p in zip(table["list"], table["teams"], table["P(list)"]):
        key = (tuple(shown.split()), None if method == "balanced" else tuple(teams))
        found[key] = found.get(key, 0) + p
    assert found == brute_lists(a, b, method)


@pytest.mark.parametrize("method", ["team_draft", "probabilistic"])
def test_team_credit_is_unbiased_for_every_rank_only_clicker(method):
    # A click model that ignores the documents cannot prefer either ranking under team credit:
    # every list has a mirror with the teams swapped, equally likely (the coin is fair).
    rng = random.Random(7)
    for _ in range(5):
        a = rng.sample("pqrst", 4)
        b = rng.sample(a, 4)
        probabilities = [Fraction(rng.randint(0, 5), 5) for _ in range(4)]
        p_a, p_b, _ = rk.interleaving_preference(a, b, method=method,
                                                 click_probabilities=probabilities)
        assert p_a == p_b


def test_float_probabilities_give_floats_equal_to_the_exact_values():
    got = rk.interleaving_preference(A, B, method="balanced", click_probabilities=[0.5] * 3)
    exact = rk.interleaving_preference(A, B, method="balanced",
                                       click_probabilities=[Fraction(1, 2)] * 3)
    assert all(type(p) is float for p in got)
    assert got == tuple(float(p) for p in exact)


# --- the samplers --------------------------------------------------------------------------------


@pytest.mark.parametrize("method, interleave", [
    ("team_draft", lambda a, b, seed: rk.team_draft_interleave(a, b, seed=seed)),
    ("probabilistic", lambda a, b, seed: rk.probabilistic_interleave(a, b, seed=seed)),
])
def test_sampled_lists_occur_with_their_enumerated_probabilities(method, interleave):
    a, b = ["d", "e", "f", "g"], ["f", "d", "g", "e"]
    exact = brute_lists(a, b, method)
    n = 4000
    counts = {}
    for seed in range(n):
        result = interleave(a, b, seed)
        key = (result.documents, result.teams)
        counts[key] = counts.get(key, 0) + 1
    assert set(counts) <= set(exact)
    # Lists expected fewer than 5 times are pooled, so that the normal bound below holds.
    rare = [key for key, p in exact.items() if n * p < 5]
    groups = [[key] for key in exact if key not in rare] + [rare]
    for group in groups:
        p = float(sum(exact[key] for key in group))
        seen = sum(counts.get(key, 0) for key in group) / n
        # Within 4 standard errors of the exact probability: a failure is not bad luck.
        assert abs(seen - p) <= 4 * np.sqrt(p * (1 - p) / n), group


def test_balanced_interleave_follows_joachims_loop():
    for a_first in (True, False):
        result = rk.balanced_interleave(A, B, a_first=a_first)
        assert list(result.documents) == brute_balanced(A, B, a_first)
        assert result.method == "balanced" and result.a == tuple(A) and result.b == tuple(B)
    # Every prefix holds the top k_a of a and the top k_b of b with |k_a - k_b| <= 1.
    a, b = list("abcdefgh"), list("hgfedcba")
    shown = rk.balanced_interleave(a, b, a_first=False).documents
    assert shown == tuple("hagbfced")
    for depth in range(1, len(shown) + 1):
        prefix = set(shown[:depth])
        k_a = max(k for k in range(len(a) + 1) if set(a[:k]) <= prefix)
        k_b = max(k for k in range(len(b) + 1) if set(b[:k]) <= prefix)
        assert prefix == set(a[:k_a]) | set(b[:k_b]) and abs(k_a - k_b) <= 1


def test_the_same_seed_gives_the_same_list():
    a, b = list("defghij"), list("jihgfed")
    assert rk.team_draft_interleave(a, b, seed=3) == rk.team_draft_interleave(a, b, seed=3)
    assert rk.probabilistic_interleave(a, b, seed=3) == rk.probabilistic_interleave(a, b, seed=3)


# --- credit -----------------------------------------------------------------------------------------


def test_outcome_of_the_balanced_example_for_each_single_click():
    shown = rk.balanced_interleave(A, B, a_first=True)  # a b c
    assert [rk.interleaving_outcome(shown, row) for row in np.eye(3, dtype=int)] == [
        (1, 0, 0), (0, 1, 0), (0, 1, 0)]
    assert rk.interleaving_outcome(shown, [0, 0, 0]) == (0, 0, 1)


def test_outcome_counts_the_rows_of_a_click_matrix():
    shown = rk.team_draft_interleave(list("defg"), list("gfed"), seed=0)
    rows = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [1, 1, 0, 0], [0, 0, 0, 0], [1, 0, 1, 0]])
    one_by_one = [rk.interleaving_outcome(shown, row) for row in rows]
    assert rk.interleaving_outcome(shown, rows) == tuple(map(sum, zip(*one_by_one)))
    assert sum(rk.interleaving_outcome(shown, rows)) == len(rows)


def test_team_credit_counts_clicks_per_team():
    a, b = ["d", "e", "f", "g"], ["g", "f", "e", "d"]
    shown = rk.team_draft_interleave(a, b, seed=5)
    for clicks in itertools.product((0, 1), repeat=4):
        clicked = [i for i in range(4) if clicks[i]]
        expected = brute_winner(a, b, shown.documents, shown.teams, clicked)
        outcome = rk.interleaving_outcome(shown, list(clicks))
        assert outcome == {"a": (1, 0, 0), "b": (0, 1, 0), "tie": (0, 0, 1)}[expected]


# --- bad input ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("call", [
    lambda a, b: rk.balanced_interleave(a, b, a_first=True),
    lambda a, b: rk.team_draft_interleave(a, b, seed=0),
    lambda a, b: rk.probabilistic_interleave(a, b, seed=0),
    lambda a, b: rk.interleaving_preference(a, b, method="team_draft",
                                            click_probabilities=[0.5] * 3),
])
def test_a_ranking_that_repeats_a_document_raises_naming_it(call):
    with pytest.raises(ValueError, match=r"^a lists 'x' twice"):
        call(["x", "y", "x"], ["x", "y", "z"])
    with pytest.raises(ValueError, match=r"^b lists 'z' twice"):
        call(["x", "y", "z"], ["z", "z", "y"])
    with pytest.raises(ValueError, match=r"^a must hold at least one id"):
        call([], ["x"])
    with pytest.raises(TypeError, match=r"^a must be a list"):
        call("xyz", ["x"])


def test_clicks_of_the_wrong_length_or_values_raise_naming_clicks():
    shown = rk.balanced_interleave(A, B, a_first=True)
    for bad in ([1, 0], [1, 0, 0, 0], [[1, 0, 0], [1, 0]]):
        with pytest.raises(ValueError, match=r"^clicks"):
            rk.interleaving_outcome(shown, bad)
    with pytest.raises(ValueError, match=r"^clicks must hold only 0 and 1"):
        rk.interleaving_outcome(shown, [2, 0, 0])
    with pytest.raises(TypeError, match=r"^result"):
        rk.interleaving_outcome(("a", "b", "c"), [1, 0, 0])


@pytest.mark.parametrize("bad", [[Fraction(1, 2), Fraction(3, 2), 0], [0.5, -0.1, 0.2],
                                 [0.5, float("nan"), 0.2]])
def test_click_probabilities_outside_0_1_raise_naming_them(bad):
    with pytest.raises(ValueError, match=r"^click_probabilities must hold"):
        rk.interleaving_preference(A, B, method="balanced", click_probabilities=bad)


def test_click_probabilities_of_the_wrong_length_or_sum_raise_naming_them():
    with pytest.raises(ValueError, match=r"^click_probabilities must have one entry per rank"):
        rk.interleaving_preference(A, B, method="balanced", click_probabilities=[0.5] * 4)
    with pytest.raises(ValueError, match=r"^click_probabilities must sum to 1"):
        rk.interleaving_preference(A, B, method="balanced", single_click=True,
                                   click_probabilities=[Fraction(1, 3)] * 2 + [Fraction(1, 2)])


@pytest.mark.parametrize("method", ["balanced", "team_draft", "probabilistic"])
def test_lists_too_long_to_enumerate_raise_a_clear_error(method):
    n = MAX_ENUMERATED[method] + 1
    a = [f"d{i}" for i in range(n)]
    with pytest.raises(ValueError, match=rf"^a and b hold {n} documents; .* up to"):
        rk.interleaving_preference(a, a[::-1], method=method, click_probabilities=[0.5] * n)


def test_an_unknown_method_or_a_bad_tau_raises_naming_it():
    with pytest.raises(ValueError, match=r"^method must be one of"):
        rk.interleaving_preference(A, B, method="optimized", click_probabilities=THIRD)
    with pytest.raises(ValueError, match=r"^tau must be > 0"):
        rk.probabilistic_interleave(A, B, tau=0, seed=0)
