"""Tests of rankedu/offpolicy/estimators.py: each estimator against its formula on generated
logs, against obp 0.5.7's estimators, against its exact expectation on logs small enough to
enumerate, and IPS's and DR's unbiasedness over many seeds within a tolerance derived from
their exact variance."""

import functools
import itertools
import math

import numpy as np
import pytest

import rankedu as rk
from obp_oracle import ope


def generated_log(seed, n=200, n_actions=5, reward="binary"):
    """A contextual log as the estimators see it: per row a logging policy mu and a target
    policy pi over the actions, the logged action drawn from mu, a reward, and a model q-hat
    of every action's reward (deliberately wrong)."""
    rng = np.random.default_rng(seed)
    mu = rng.dirichlet(np.full(n_actions, 0.7), size=n)
    pi = rng.dirichlet(np.full(n_actions, 0.3), size=n)
    # A target policy that never takes some actions: zero target probabilities happen.
    pi[rng.random((n, n_actions)) < 0.2] = 0.0
    pi[pi.sum(axis=1) == 0, 0] = 1.0
    pi /= pi.sum(axis=1, keepdims=True)
    action = np.array([rng.choice(n_actions, p=row) for row in mu])
    mean = rng.random((n, n_actions))
    rows = np.arange(n)
    if reward == "binary":
        r = (rng.random(n) < mean[rows, action]).astype(float)
    else:
        r = mean[rows, action] + rng.normal(0, 1, n)
    q_hat = np.clip(mean + rng.normal(0, 0.2, mean.shape), 0, 1)
    return {"reward": r, "pscore": mu[rows, action], "target": pi[rows, action],
            "q_logged": q_hat[rows, action], "q_target": (pi * q_hat).sum(axis=1),
            "action": action, "pi": pi, "q_hat": q_hat}


SEEDS = range(8)


def columns(log, *names):
    return [log[name] for name in names]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("reward", ["binary", "real"])
def test_each_estimator_equals_its_formula(seed, reward):
    log = generated_log(seed, reward=reward)
    r, p, pi, q_log, q_tgt = columns(log, "reward", "pscore", "target", "q_logged", "q_target")
    w = pi / p
    tau = float(np.median(w))
    expected = {
        "ips": sum(w_i * r_i for w_i, r_i in zip(w, r)) / len(r),
        "clipped": sum(min(w_i, 2.0) * r_i for w_i, r_i in zip(w, r)) / len(r),
        "snips": sum(w_i * r_i for w_i, r_i in zip(w, r)) / sum(w),
        "dm": sum(q_tgt) / len(r),
        "dr": sum(q_tgt + w * (r - q_log)) / len(r),
        "switch": sum(q_tgt + (w <= tau) * w * (r - q_log)) / len(r),
        "ess": sum(w) ** 2 / sum(w**2),
    }
    ours = {
        "ips": rk.ips(r, p, pi), "clipped": rk.ips(r, p, pi, max_weight=2.0),
        "snips": rk.snips(r, p, pi), "dm": rk.direct_method(q_tgt),
        "dr": rk.doubly_robust(r, p, pi, q_log, q_tgt),
        "switch": rk.switch_dr(r, p, pi, q_log, q_tgt, tau=tau),
        "ess": rk.effective_sample_size(w),
    }
    for name, value in ours.items():
        assert type(value) is float
        assert value == pytest.approx(expected[name], rel=1e-12, abs=1e-12), name


@pytest.fixture(scope="module")
def obp():
    return ope()


def obp_arguments(log):
    """The log as obp's estimators take it: one position, action_dist (n, actions, 1)."""
    n = len(log["reward"])
    return {"reward": log["reward"], "action": log["action"], "position": np.zeros(n, int),
            "pscore": log["pscore"], "action_dist": log["pi"][:, :, None]}


@pytest.mark.parametrize("seed", SEEDS)
def test_the_estimators_equal_obp_0_5_7s(obp, seed):
    log = generated_log(seed, reward="real")
    r, p, pi, q_log, q_tgt = columns(log, "reward", "pscore", "target", "q_logged", "q_target")
    given = obp_arguments(log)
    model = {"estimated_rewards_by_reg_model": log["q_hat"][:, :, None]}
    tau = float(np.quantile(pi / p, 0.7))
    pairs = [
        (obp.InverseProbabilityWeighting().estimate_policy_value(**given), rk.ips(r, p, pi)),
        (obp.InverseProbabilityWeighting(lambda_=1.5).estimate_policy_value(**given),
         rk.ips(r, p, pi, max_weight=1.5)),
        (obp.SelfNormalizedInverseProbabilityWeighting().estimate_policy_value(**given),
         rk.snips(r, p, pi)),
        (obp.DirectMethod().estimate_policy_value(
            position=given["position"], action_dist=given["action_dist"], **model),
         rk.direct_method(q_tgt)),
        (obp.DoublyRobust().estimate_policy_value(**given, **model),
         rk.doubly_robust(r, p, pi, q_log, q_tgt)),
        (obp.SwitchDoublyRobust(lambda_=tau).estimate_policy_value(**given, **model),
         rk.switch_dr(r, p, pi, q_log, q_tgt, tau=tau)),
    ]
    for theirs, ours in pairs:
        assert ours == pytest.approx(float(theirs), rel=1e-12, abs=1e-12)


# An enumerable world: one context, three actions with Bernoulli rewards of these means; a
# logging and a target policy; a model that is wrong on every action.
MEAN = np.array([0.2, 0.5, 0.9])
MU = np.array([0.5, 0.3, 0.2])
PI = np.array([0.1, 0.3, 0.6])
Q_HAT = np.array([0.4, 0.4, 0.4])
TRUE_VALUE = float(PI @ MEAN)


def exact_expectation(estimator, n, pscore_of=MU, q_hat=Q_HAT):
    """E[estimator] over every log of n rows: actions drawn from MU, Bernoulli rewards;
    ``pscore_of`` is the propensity the log records (a wrong one for the misspecified case),
    ``q_hat`` the model."""
    total = 0.0
    rows = list(itertools.product(range(3), (0, 1)))
    for log in itertools.product(rows, repeat=n):
        actions = np.array([a for a, _ in log])
        rewards = np.array([r for _, r in log], float)
        probability = math.prod(MU[a] * (MEAN[a] if r else 1 - MEAN[a]) for a, r in log)
        total += probability * estimator(rewards, pscore_of[actions], PI[actions],
                                         q_hat[actions], np.full(n, PI @ q_hat))
    return total


@pytest.mark.parametrize("n", [1, 2, 3])
def test_ips_and_dr_expectations_are_the_true_value_exactly(n):
    assert exact_expectation(lambda r, p, t, ql, qt: rk.ips(r, p, t), n) == pytest.approx(
        TRUE_VALUE, abs=1e-12)
    assert exact_expectation(rk.doubly_robust, n) == pytest.approx(TRUE_VALUE, abs=1e-12)


def test_dr_stays_unbiased_with_wrong_propensities_when_the_model_is_right():
    wrong = np.array([0.25, 0.25, 0.5])
    assert exact_expectation(rk.doubly_robust, 2, pscore_of=wrong, q_hat=MEAN) == pytest.approx(
        TRUE_VALUE, abs=1e-12)
    # IPS, and DR with the wrong model, are biased under the same wrong propensities: the
    # test can tell.
    biased = exact_expectation(lambda r, p, t, ql, qt: rk.ips(r, p, t), 2, pscore_of=wrong)
    assert abs(biased - TRUE_VALUE) > 0.05
    assert abs(exact_expectation(rk.doubly_robust, 2, pscore_of=wrong) - TRUE_VALUE) > 0.05


def test_clipped_ips_switch_dr_direct_method_and_snips_have_their_exact_expectations():
    w = PI / MU
    clipped = exact_expectation(lambda r, p, t, ql, qt: rk.ips(r, p, t, max_weight=1.5), 2)
    assert clipped == pytest.approx(float(MU @ (np.minimum(w, 1.5) * MEAN)), abs=1e-12)
    assert clipped < TRUE_VALUE - 0.1
    tau = 1.0
    switch = exact_expectation(functools.partial(rk.switch_dr, tau=tau), 2)
    # Wang et al.: the model's value of pi plus the residual on the actions of weight <= tau.
    assert switch == pytest.approx(float(PI @ Q_HAT + PI @ ((w <= tau) * (MEAN - Q_HAT))),
                                   abs=1e-12)
    assert exact_expectation(lambda r, p, t, ql, qt: rk.direct_method(qt), 2) == pytest.approx(
        float(PI @ Q_HAT), abs=1e-12)
    # One row: SNIPS is the row's reward whenever its weight is positive.
    one_row = exact_expectation(lambda r, p, t, ql, qt: rk.snips(r, p, t), 1)
    assert one_row == pytest.approx(float(MU @ MEAN), abs=1e-12)


def row_moments(term):
    """Mean and variance of one row's term under the enumerable world."""
    mean = second = 0.0
    for a, r in itertools.product(range(3), (0, 1)):
        probability = MU[a] * (MEAN[a] if r else 1 - MEAN[a])
        value = term(a, r)
        mean += probability * value
        second += probability * value**2
    return mean, second - mean**2


@pytest.mark.parametrize("name", ["ips", "doubly_robust"])
def test_ips_and_dr_are_unbiased_over_many_seeds_within_four_standard_errors(name):
    w = PI / MU
    terms = {"ips": lambda a, r: w[a] * r,
             "doubly_robust": lambda a, r: PI @ Q_HAT + w[a] * (r - Q_HAT[a])}
    mean, variance = row_moments(terms[name])
    assert mean == pytest.approx(TRUE_VALUE, abs=1e-12)
    n, logs = 100, 2000
    rng = np.random.default_rng(2026)
    estimates = []
    for _ in range(logs):
        actions = rng.choice(3, size=n, p=MU)
        rewards = (rng.random(n) < MEAN[actions]).astype(float)
        arguments = (rewards, MU[actions], PI[actions])
        if name == "doubly_robust":
            arguments += (Q_HAT[actions], np.full(n, PI @ Q_HAT))
        estimates.append(getattr(rk, name)(*arguments))
    # The mean of `logs` estimates, each of variance variance / n: its standard error.
    tolerance = 4 * math.sqrt(variance / n / logs)
    assert abs(np.mean(estimates) - TRUE_VALUE) < tolerance
    # IPS clipped at 1 is biased by more than that tolerance: the check can fail.
    assert abs(float(MU @ (np.minimum(w, 1.0) * MEAN)) - TRUE_VALUE) > tolerance


def test_effective_sample_size_from_equal_to_one_dominant_weight():
    assert rk.effective_sample_size([2.0] * 7) == pytest.approx(7.0, rel=1e-15)
    assert rk.effective_sample_size([0, 0, 5, 0]) == 1.0
    assert rk.effective_sample_size([0, 0]) == 0.0
    assert rk.effective_sample_size([]) == 0.0


def test_snips_of_all_zero_weights_is_zero():
    assert rk.snips([1, 1], [0.5, 0.5], [0.0, 0.0]) == 0.0


def test_normal_interval_is_the_estimate_plus_minus_z_standard_errors():
    log = generated_log(3)
    r, p, pi, q_log, q_tgt = columns(log, "reward", "pscore", "target", "q_logged", "q_target")
    z = 1.959963984540054
    for estimator, arrays, terms in [
        (rk.ips, (r, p, pi), pi / p * r),
        (rk.doubly_robust, (r, p, pi, q_log, q_tgt), q_tgt + pi / p * (r - q_log)),
        (functools.partial(rk.switch_dr, tau=1.0), (r, p, pi, q_log, q_tgt),
         q_tgt + (pi / p <= 1.0) * pi / p * (r - q_log)),
    ]:
        interval = rk.ope_interval(estimator, *arrays, method="normal")
        half = z * terms.std(ddof=1) / math.sqrt(len(r))
        assert interval.estimate == pytest.approx(terms.mean(), rel=1e-12)
        assert interval.low == pytest.approx(terms.mean() - half, rel=1e-9)
        assert interval.high == pytest.approx(terms.mean() + half, rel=1e-9)
    # SNIPS: the delta method's standard error.
    w = pi / p
    value = rk.snips(r, p, pi)
    half = z * (w * (r - value) / w.mean()).std(ddof=1) / math.sqrt(len(r))
    interval = rk.ope_interval(rk.snips, r, p, pi, method="normal")
    assert (interval.low, interval.high) == pytest.approx((value - half, value + half), rel=1e-9)


def test_bootstrap_interval_is_seeded_and_brackets_the_estimate():
    log = generated_log(4)
    arrays = columns(log, "reward", "pscore", "target")
    first = rk.ope_interval(rk.ips, *arrays, n_resamples=300, seed=7)
    assert first == rk.ope_interval(rk.ips, *arrays, n_resamples=300, seed=7)
    assert first != rk.ope_interval(rk.ips, *arrays, n_resamples=300, seed=8)
    assert first.low < first.estimate < first.high
    assert all(type(value) is float for value in first)


def test_normal_interval_covers_the_true_value_about_95_percent_of_the_time():
    covered, logs, n = 0, 400, 400
    rng = np.random.default_rng(11)
    for _ in range(logs):
        actions = rng.choice(3, size=n, p=MU)
        rewards = (rng.random(n) < MEAN[actions]).astype(float)
        interval = rk.ope_interval(rk.ips, rewards, MU[actions], PI[actions], method="normal")
        covered += interval.low <= TRUE_VALUE <= interval.high
    # 95 % of 400 is 380, with a binomial standard deviation of 4.4.
    assert 380 - 4 * 4.4 < covered < 380 + 4 * 4.4, covered


def test_normal_interval_refuses_a_function_it_does_not_know():
    with pytest.raises(ValueError, match="^method='normal' needs one of rankedu's estimators"):
        rk.ope_interval(lambda r: float(np.mean(r)), [1.0, 0.0], method="normal")
    assert rk.ope_interval(lambda r: float(np.mean(r)), [1.0, 0.0], n_resamples=10).estimate == 0.5


LOG = ([1.0, 0.0], [0.5, 0.5], [1.0, 0.0], [0.5, 0.5], [0.5, 0.5])
CALLS = {
    "ips": lambda *log: rk.ips(*log[:3]),
    "snips": lambda *log: rk.snips(*log[:3]),
    "doubly_robust": rk.doubly_robust,
    "switch_dr": functools.partial(rk.switch_dr, tau=2.0),
}


@pytest.mark.parametrize("name", CALLS)
@pytest.mark.parametrize("argument, position, bad, message", [
    ("reward", 0, [1.0, float("nan")], "^reward must hold finite numbers"),
    ("pscore", 1, [0.5, 0.0], r"^pscore must hold probabilities in \(0, 1\]"),
    ("pscore", 1, [-0.5, 0.5], r"^pscore must hold probabilities in \(0, 1\]"),
    ("pscore", 1, [0.5, 1.5], r"^pscore must hold probabilities in \(0, 1\]"),
    ("target", 2, [1.5, 0.0], r"^target must hold probabilities in \[0, 1\]"),
    ("target", 2, [-0.1, 0.0], r"^target must hold probabilities in \[0, 1\]"),
    ("target", 2, [1.0, 0.0, 0.0], "^reward and pscore and target .*must have the same length"),
])
def test_bad_logs_are_refused_naming_the_argument(name, argument, position, bad, message):
    log = list(LOG)
    log[position] = bad
    with pytest.raises(ValueError, match=message):
        CALLS[name](*log)


@pytest.mark.parametrize("call, message", [
    (lambda: rk.doubly_robust(*LOG[:3], [0.5, float("nan")], LOG[4]), "^q_logged must hold"),
    (lambda: rk.doubly_robust(*LOG[:4], [0.5]), "^reward and .* must have the same length"),
    (lambda: rk.direct_method([0.5, float("inf")]), "^q_target must hold finite"),
    (lambda: rk.direct_method([]), "^q_target must hold at least one row"),
    (lambda: rk.ips([], [], []), "^reward must hold at least one logged row"),
    (lambda: rk.ips(*LOG[:3], max_weight=0), "^max_weight must be > 0"),
    (lambda: rk.switch_dr(*LOG, tau=-1), "^tau must be >= 0"),
    (lambda: rk.effective_sample_size([1.0, -1.0]), "^weights must be >= 0"),
    (lambda: rk.ope_interval(rk.ips, *LOG[:3], method="jackknife"), "^method must be one of"),
    (lambda: rk.ope_interval(rk.ips, *LOG[:3], alpha=1.0), r"^alpha must lie in \(0, 1\)"),
    (lambda: rk.ope_interval(rk.ips, *LOG[:3], n_resamples=0), "^n_resamples must be >= 1"),
])
def test_bad_options_are_refused_naming_them(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_explain_ips_shows_the_weights_terms_and_running_estimate():
    table = rk.explain.ips([1, 0, 1], [0.5, 0.5, 0.25], [1.0, 0.0, 0.5], max_weight=1.5).table
    assert table.columns.tolist() == ["i", "r_i", "p_i", "pi_i", "w_i", "min(w_i, M)",
                                      "term_i", "IPS so far"]
    assert table["w_i"].tolist() == [2.0, 0.0, 2.0]
    assert table["term_i"].tolist() == [1.5, 0.0, 1.5]
    assert table["IPS so far"].tolist() == [1.5, 0.75, 1.0]
