"""Tests of rankedu/offpolicy/clicks.py: simulated click rates against each click model's exact
click probabilities (within a tolerance from the binomial variance), and PBM's examination
probabilities recovered from randomised rankings but not from sorted ones."""

import numpy as np
import pytest

import rankedu as rk

RELS = [3, 0, 2, 1, 3]
ATTRACTIVENESS = (2.0 ** np.array(RELS) - 1) / 2**3
SESSIONS = 200_000


def within_binomial_tolerance(clicks, probabilities):
    """Every rank's click rate within 5 binomial standard deviations of its probability."""
    rates = clicks.mean(axis=0)
    tolerance = 5 * np.sqrt(probabilities * (1 - probabilities) / len(clicks)) + 1e-12
    return np.abs(rates - probabilities) <= tolerance


def test_pbm_clicks_at_examination_times_attractiveness():
    examination = np.array([1.0, 0.6, 0.4, 0.3, 0.2])
    clicks = rk.simulate_clicks(RELS, "pbm", seed=1, max_grade=3, n_sessions=SESSIONS,
                                examination=examination)
    assert clicks.shape == (SESSIONS, 5) and set(np.unique(clicks)) <= {0, 1}
    assert within_binomial_tolerance(clicks, examination * ATTRACTIVENESS).all()
    default = rk.simulate_clicks(RELS, seed=1, max_grade=3, n_sessions=SESSIONS)
    assert within_binomial_tolerance(default, ATTRACTIVENESS / np.arange(1, 6)).all()
    # A wrong examination model is told apart: the check can fail.
    assert not within_binomial_tolerance(clicks, ATTRACTIVENESS / np.arange(1, 6)).all()


def test_cascade_clicks_follow_the_books_cascade_model():
    clicks = rk.simulate_clicks(RELS, "cascade", seed=2, max_grade=3, n_sessions=SESSIONS)
    assert clicks.sum(axis=1).max() == 1
    assert within_binomial_tolerance(clicks, rk.click_probabilities(ATTRACTIVENESS)).all()


def dbn_click_probabilities(attractiveness, satisfaction, gamma):
    """Chapelle and Zhang's DBN, exactly: P(E_1) = 1, P(C_i) = P(E_i) a_i and
    P(E_{i+1}) = P(E_i) gamma (1 - a_i s_i) (examined, and not clicked-and-satisfied)."""
    examined, clicks = 1.0, []
    for a, s in zip(attractiveness, satisfaction):
        clicks.append(examined * a)
        examined *= gamma * (1 - a * s)
    return np.array(clicks)


@pytest.mark.parametrize("gamma", [1.0, 0.7])
def test_dbn_clicks_match_the_exact_probabilities(gamma):
    clicks = rk.simulate_clicks(RELS, "dbn", seed=3, max_grade=3, n_sessions=SESSIONS,
                                gamma=gamma)
    exact = dbn_click_probabilities(ATTRACTIVENESS, ATTRACTIVENESS, gamma)
    assert within_binomial_tolerance(clicks, exact).all()
    # Unlike the cascade, a DBN user may click more than once.
    assert clicks.sum(axis=1).max() > 1


def test_the_same_seed_gives_the_same_clicks():
    for model in ("pbm", "cascade", "dbn"):
        first = rk.simulate_clicks(RELS, model, seed=5, max_grade=3, n_sessions=50)
        assert (first == rk.simulate_clicks(RELS, model, seed=5, max_grade=3,
                                            n_sessions=50)).all()


def randomised_log(seed, examination, sort):
    """Impressions of 20 documents shown 5 at a time under PBM; each session's list is drawn
    at random, and then, when ``sort``, put in order of relevance as a ranker would."""
    rng = np.random.default_rng(seed)
    attractiveness = rng.uniform(0.05, 0.9, 20)
    positions, clicks = [], []
    for _ in range(40_000):
        shown = rng.choice(20, size=5, replace=False)
        if sort:
            shown = shown[np.argsort(-attractiveness[shown])]
        clicked = rng.random(5) < examination * attractiveness[shown]
        positions.extend(range(1, 6))
        clicks.extend(clicked.astype(int))
    return positions, clicks


def test_pbm_propensities_recover_examination_from_randomised_rankings_only():
    examination = np.array([1.0, 0.7, 0.5, 0.35, 0.25])
    estimate = rk.pbm_propensities(*randomised_log(0, examination, sort=False))
    assert estimate[0] == 1.0
    assert np.abs(estimate - examination).max() < 0.03
    # Sorted lists put the better documents on top: click rates mix relevance with position.
    sorted_estimate = rk.pbm_propensities(*randomised_log(0, examination, sort=True))
    assert (sorted_estimate[1:] < examination[1:] - 0.05).all()


def test_explain_pbm_propensities_counts_each_position():
    explanation = rk.explain.pbm_propensities([1, 1, 2, 2, 3, 3], [1, 1, 1, 0, 0, 1])
    table = explanation.table
    assert table["impressions"].tolist() == [2, 2, 2]
    assert table["clicks"].tolist() == [2, 1, 1]
    assert table["e_k / e_1"].tolist() == explanation.value.tolist() == [1.0, 0.5, 0.5]


@pytest.mark.parametrize("call, error, message", [
    (lambda: rk.simulate_clicks(RELS, "ubm", seed=0, max_grade=3), ValueError, "^model must"),
    (lambda: rk.simulate_clicks([4, 1], seed=0, max_grade=3), ValueError, "^rels must hold"),
    (lambda: rk.simulate_clicks([1, 1], seed=0, max_grade=3, examination=[1.0]), ValueError,
     "^rels and examination must have the same length"),
    (lambda: rk.simulate_clicks([1, 1], seed=0, max_grade=3, examination=[1.0, 1.2]),
     ValueError, r"^examination must hold probabilities in \[0, 1\]"),
    (lambda: rk.simulate_clicks([1], "cascade", seed=0, max_grade=3, examination=[1.0]),
     ValueError, "^examination is PBM's"),
    (lambda: rk.simulate_clicks([1], "dbn", seed=0, max_grade=3, gamma=1.5), ValueError,
     r"^gamma must lie in \[0, 1\]"),
    (lambda: rk.simulate_clicks([1], "pbm", seed=0, max_grade=3, gamma=0.5), ValueError,
     "^gamma is DBN's"),
    (lambda: rk.simulate_clicks([1], seed=0, max_grade=3, n_sessions=-1), ValueError,
     "^n_sessions must be an int >= 0"),
    (lambda: rk.pbm_propensities([1, 0], [1, 0]), ValueError, "^positions must hold positions"),
    (lambda: rk.pbm_propensities([1, 1.5], [1, 0]), ValueError, "^positions must hold"),
    (lambda: rk.pbm_propensities([1, 3], [1, 0]), ValueError, "^positions must show every"),
    (lambda: rk.pbm_propensities([1, 2], [0, 1]), ValueError, "^clicks must hold a click at"),
    (lambda: rk.pbm_propensities([1, 2], [1, 2]), ValueError, "^clicks must hold only 0 and 1"),
    (lambda: rk.pbm_propensities([1, 2], [1]), ValueError, "^positions and clicks must have"),
    (lambda: rk.pbm_propensities([1, float("nan")], [1, 0]), ValueError,
     "^positions must hold finite"),
])
def test_bad_input_is_refused_naming_the_argument(call, error, message):
    with pytest.raises(error, match=message):
        call()
