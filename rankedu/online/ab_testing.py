"""A/B tests: units randomised between a control and a treatment, and what their data can say.

The unit of randomisation (a user, say) is the unit of analysis: every function here takes one
number per unit and treats units as independent, never the queries or sessions inside them.

- :func:`ab_test`: the difference in means with Welch's t-test and confidence interval, which
  does not assume equal variances (Welch, 1947).
- :func:`delta_method_ratio`: a ratio metric, sum of a numerator over sum of a denominator
  (clicks per query), whose numerator and denominator vary together within a user; its
  variance by the delta method (Deng, Knoblich and Lu, 2018).
- :func:`cuped`: a metric adjusted by a pre-experiment covariate, which keeps its mean and
  shrinks its variance by the squared correlation (Deng et al., 2013).
- :func:`sample_ratio_mismatch`: the chi-squared test that the units were split in the
  designed proportion; a mismatch means the assignment or the logging is broken, and the
  test's result cannot be trusted whatever its p-value (Kohavi, Tang and Xu, 2020).
- :func:`minimum_detectable_effect`: the smallest difference in means that a two-sided test
  detects with the given power, from the normal approximation.

The t distribution is computed exactly as in :mod:`rankedu.stats.significance`; the normal
distribution with ``math.erfc`` and ``statistics.NormalDist``, so no scipy is needed. The
chapter "Online evaluation: A/B tests and interleaving" (``book/online_evaluation.ipynb``)
derives each one.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import NamedTuple

import numpy as np

from rankedu.core.common import quantities, two_sided_test
from rankedu.core.steps import Steps
from rankedu.core.validation import (
    as_above,
    as_arm_values,
    as_count,
    as_labels,
    as_numbers,
    as_open_probability,
    same_length,
)
from rankedu.stats.significance import _student_t_two_sided

__all__ = ["ABTestResult", "DeltaMethodResult", "ab_test", "cuped", "delta_method_ratio",
           "minimum_detectable_effect", "sample_ratio_mismatch"]

_NORMAL = NormalDist()


class ABTestResult(NamedTuple):
    """The outcome of :func:`ab_test`."""

    difference: float  #: mean of the treatment minus mean of the control
    standard_error: float  #: sqrt(s_c^2 / n_c + s_t^2 / n_t)
    t: float  #: difference / standard_error
    df: float  #: Welch-Satterthwaite degrees of freedom
    p_value: float  #: two-sided
    ci_low: float  #: lower end of the confidence interval of the difference
    ci_high: float  #: upper end

    @property
    def ci(self) -> tuple[float, float]:
        """The confidence interval ``(ci_low, ci_high)`` of the difference."""
        return self.ci_low, self.ci_high


class DeltaMethodResult(NamedTuple):
    """The outcome of :func:`delta_method_ratio`."""

    control: float  #: the control's ratio, sum of numerators / sum of denominators
    treatment: float  #: the treatment's ratio
    difference: float  #: treatment - control
    standard_error: float  #: of the difference, by the delta method
    z: float  #: difference / standard_error
    p_value: float  #: two-sided, from the normal distribution


def _normal_two_sided(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def _student_t_quantile(p_two_sided: float, df: float) -> float:
    """The t > 0 with P(|T_df| >= t) = p: Newton's method on the exact tail, from the normal
    quantile, kept inside a bracket that bisection shrinks when a step would leave it."""
    low, high = 0.0, math.inf
    t = _NORMAL.inv_cdf(1 - p_two_sided / 2)
    log_density = (math.lgamma((df + 1) / 2) - math.lgamma(df / 2)
                   - 0.5 * math.log(df * math.pi))
    for _ in range(100):
        excess = _student_t_two_sided(t, df) - p_two_sided
        if excess > 0:
            low = t
        else:
            high = t
        slope = -2 * math.exp(log_density - (df + 1) / 2 * math.log1p(t * t / df))
        step = t - excess / slope
        following = step if low < step < high else (
            (low + high) / 2 if math.isfinite(high) else 2 * t)
        if abs(following - t) <= 1e-14 * t:
            return following
        t = following
    return t


def _ab_test_steps(control, treatment, alpha) -> Steps:
    control = as_arm_values(control, "control")
    treatment = as_arm_values(treatment, "treatment")
    alpha = as_open_probability(alpha, "alpha")
    n_c, n_t = len(control), len(treatment)
    mean_c, mean_t = float(control.mean()), float(treatment.mean())
    var_c, var_t = float(control.var(ddof=1)), float(treatment.var(ddof=1))
    share_c, share_t = var_c / n_c, var_t / n_t
    standard_error = math.sqrt(share_c + share_t)
    difference = mean_t - mean_c
    df = ((share_c + share_t) ** 2 / (share_c**2 / (n_c - 1) + share_t**2 / (n_t - 1))
          if standard_error > 0 else math.nan)
    t, p_value = two_sided_test(difference, standard_error,
                                lambda t: _student_t_two_sided(t, df))
    margin = _student_t_quantile(alpha, df) * standard_error if standard_error > 0 else 0.0
    result = ABTestResult(difference, standard_error, t, df, p_value,
                          difference - margin, difference + margin)
    test = quantities([
        ("n_c", "units in control", n_c),
        ("n_t", "units in treatment", n_t),
        ("mean_c", "sum of control / n_c", mean_c),
        ("mean_t", "sum of treatment / n_t", mean_t),
        ("difference", "mean_t - mean_c", difference),
        ("s_c^2", "sample variance of control (n_c - 1)", var_c),
        ("s_t^2", "sample variance of treatment (n_t - 1)", var_t),
        ("SE", "sqrt(s_c^2 / n_c + s_t^2 / n_t)", standard_error),
        ("t", "difference / SE", t),
        ("df", "SE^4 / ((s_c^2/n_c)^2/(n_c-1) + (s_t^2/n_t)^2/(n_t-1))", df),
        ("ci_low", "difference - t_(1-alpha/2, df) SE", result.ci_low),
        ("ci_high", "difference + t_(1-alpha/2, df) SE", result.ci_high),
        ("p-value", "P(|T_df| >= |t|), two-sided", p_value),
    ])
    return Steps(result, {"test": test})


def ab_test(control, treatment, *, alpha=0.05) -> ABTestResult:
    r"""Welch's two-sample t-test of an A/B test: the difference in means, its confidence
    interval and its two-sided p-value.

    .. math::

        \Delta = \bar y_t - \bar y_c, \qquad
        SE = \sqrt{\frac{s_c^2}{n_c} + \frac{s_t^2}{n_t}}, \qquad
        \nu = \frac{SE^4}{\frac{(s_c^2/n_c)^2}{n_c - 1} + \frac{(s_t^2/n_t)^2}{n_t - 1}}

    with t = Δ / SE on ν degrees of freedom (Welch-Satterthwaite) and the interval
    Δ ± t_{1-α/2, ν} SE. The variances are the sample variances (divisor n - 1) of each arm,
    not pooled, so unequal arms and unequal variances are handled. Each value is one unit's
    (a user's) metric: sessions of one user are not independent, so they are summed or averaged
    into the user's value first. When both variances are 0, t is ±inf and p 0.0 for a nonzero
    difference (nan for both when it is 0), and the interval is the single point Δ.

    Parameters
    ----------
    control, treatment : sequence of float
        One value per unit of each arm, at least 2 per arm.
    alpha : float, default 0.05
        1 - the confidence of the interval, strictly between 0 and 1.

    Returns
    -------
    ABTestResult
        A named tuple ``(difference, standard_error, t, df, p_value, ci_low, ci_high)``; its
        ``ci`` is ``(ci_low, ci_high)``.

    Raises
    ------
    ValueError
        Naming ``control`` or ``treatment`` when it holds fewer than 2 units or a non-finite
        value, ``alpha`` when it is not strictly between 0 and 1.

    See Also
    --------
    delta_method_ratio, cuped, minimum_detectable_effect

    Notes
    -----
    The chapter :doc:`/book/online_evaluation` explains it. It equals
    ``scipy.stats.ttest_ind(treatment, control, equal_var=False)`` and that result's
    ``confidence_interval(1 - alpha)``.

    References
    ----------
    - ``welch1947``: Welch, B. L. (1947). The generalization of "Student's" problem when
      several different population variances are involved. Biometrika 34(1-2), 28-35.
    - ``kohavi2020``: Kohavi, R., Tang, D. and Xu, Y. (2020). Trustworthy Online Controlled
      Experiments. Cambridge University Press.

    Examples
    --------
    >>> import rankedu as rk
    >>> result = rk.ab_test([1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0, 8.0])
    >>> result.difference, round(result.df, 4), round(result.p_value, 4)
    (2.5, 4.4118, 0.1516)
    >>> [round(x, 4) for x in result.ci]
    [-1.3642, 6.3642]
    """
    return _ab_test_steps(control=control, treatment=treatment, alpha=alpha).value


def _arm_ratio(numerators: np.ndarray, denominators: np.ndarray, name: str) -> dict:
    """The ratio of one arm and its delta-method variance, as the rows of a table."""
    n = len(numerators)
    if n < 2:
        raise ValueError(f"arm must give each arm at least 2 units, got {n} in the {name}")
    mean_y, mean_x = float(numerators.mean()), float(denominators.mean())
    if mean_x <= 0:
        raise ValueError(f"denominators must have a positive sum in each arm, got 0 in the "
                         f"{name}")
    ratio = mean_y / mean_x
    var_y = float(numerators.var(ddof=1))
    var_x = float(denominators.var(ddof=1))
    cov = float(np.cov(numerators, denominators, ddof=1)[0, 1])
    variance = (var_y - 2 * ratio * cov + ratio**2 * var_x) / (n * mean_x**2)
    return {"n": n, "mean Y": mean_y, "mean X": mean_x, "R": ratio, "s_Y^2": var_y,
            "s_X^2": var_x, "s_XY": cov, "Var(R)": variance}


def _delta_method_ratio_steps(numerators, denominators, arm) -> Steps:
    numerators = as_numbers(numerators, "numerators")
    denominators = as_numbers(denominators, "denominators")
    arm = as_labels(arm, "arm")
    same_length(numerators=numerators, denominators=denominators, arm=arm)
    if (denominators < 0).any():
        position = int(np.flatnonzero(denominators < 0)[0])
        raise ValueError(f"denominators must be >= 0, got {denominators[position]:g} at "
                         f"position {position}")
    arms = {name: _arm_ratio(numerators[arm == label], denominators[arm == label], name)
            for name, label in (("control", 0), ("treatment", 1))}
    difference = arms["treatment"]["R"] - arms["control"]["R"]
    standard_error = math.sqrt(arms["treatment"]["Var(R)"] + arms["control"]["Var(R)"])
    z, p_value = two_sided_test(difference, standard_error, _normal_two_sided)
    result = DeltaMethodResult(arms["control"]["R"], arms["treatment"]["R"], difference,
                               standard_error, z, p_value)
    formulas = {"n": "units", "mean Y": "sum of numerators / n",
                "mean X": "sum of denominators / n", "R": "mean Y / mean X",
                "s_Y^2": "sample variance of the numerators", "s_X^2": "of the denominators",
                "s_XY": "their sample covariance",
                "Var(R)": "(s_Y^2 - 2 R s_XY + R^2 s_X^2) / (n mean X^2)"}
    arm_table = {"quantity": np.array(list(formulas)),
                 "formula": np.array(list(formulas.values())),
                 "control": np.array([arms["control"][q] for q in formulas], dtype=float),
                 "treatment": np.array([arms["treatment"][q] for q in formulas], dtype=float)}
    test = quantities([
        ("difference", "R_t - R_c", difference),
        ("SE", "sqrt(Var(R_t) + Var(R_c))", standard_error),
        ("z", "difference / SE", z),
        ("p-value", "erfc(|z| / sqrt(2)), two-sided", p_value),
    ])
    return Steps(result, {"test": test, "arms": arm_table})


def delta_method_ratio(numerators, denominators, arm) -> DeltaMethodResult:
    r"""Compare a ratio metric between two arms, with the delta method's standard error.

    A ratio metric such as clicks per query is :math:`R = \sum_i Y_i / \sum_i X_i` over the
    users i of an arm (Y: a user's clicks, X: her queries). Users are the independent units,
    and a user's Y and X go up and down together, so R's variance is not that of the
    per-query values. The delta method, to first order in 1/n:

    .. math::

        \operatorname{Var}(R) \approx \frac{1}{n\,\bar X^2}
        \left(s_Y^2 - 2 R\, s_{XY} + R^2 s_X^2\right)

    with the sample (co)variances of the users' (Y, X) (divisor n - 1). The two arms are
    independent, so the difference has variance Var(R_t) + Var(R_c); the test is a z-test.

    Parameters
    ----------
    numerators, denominators : sequence of float
        One value per user, the same length: Y and X (denominators >= 0, with a positive sum
        in each arm).
    arm : sequence of 0/1
        Each user's arm: 0 for control, 1 for treatment (at least 2 users each).

    Returns
    -------
    DeltaMethodResult
        ``(control, treatment, difference, standard_error, z, p_value)``, the two ratios and
        the test of treatment - control.

    Raises
    ------
    ValueError
        Naming the argument: lengths that differ, a non-finite value, a negative denominator,
        a label other than 0/1 in ``arm``, fewer than 2 users in an arm (naming ``arm``), a
        zero sum of ``denominators`` in an arm.

    Notes
    -----
    The chapter :doc:`/book/online_evaluation` explains it and checks it against a bootstrap
    over users.

    References
    ----------
    - ``deng2018``: Deng, A., Knoblich, U. and Lu, J. (2018). Applying the delta method in
      metric analytics: a practical guide with novel ideas. KDD 2018, 233-242.

    Examples
    --------
    >>> import rankedu as rk
    >>> result = rk.delta_method_ratio([2, 0, 3, 1, 4, 2], [4, 2, 3, 2, 5, 2], [0, 0, 0, 1, 1, 1])
    >>> round(result.control, 4), round(result.treatment, 4), round(result.standard_error, 4)
    (0.5556, 0.7778, 0.2575)
    """
    return _delta_method_ratio_steps(numerators=numerators, denominators=denominators,
                                     arm=arm).value


def cuped(y, x) -> np.ndarray:
    r"""CUPED: a metric adjusted by a covariate measured before the experiment (Deng et al., 2013).

    .. math::

        y^{\mathrm{cuped}}_i = y_i - \theta\,(x_i - \bar x), \qquad
        \theta = \frac{\operatorname{cov}(y, x)}{\operatorname{var}(x)}

    The adjusted values have the same mean as ``y`` (the correction averages 0) and the
    variance :math:`\operatorname{var}(y)\,(1 - \rho^2)`, ρ being the correlation of y and x:
    the part of y that x predicts is removed. Because x was measured before the units were
    randomised, it is independent of the arm, and the difference in means stays unbiased.
    Estimate θ once on all units of both arms (pass them together), then split the adjusted
    values by arm and compare them with :func:`ab_test`. θ is the least-squares slope of y on
    x.

    Parameters
    ----------
    y : sequence of float
        The metric, one value per unit.
    x : sequence of float
        The same units' covariate from before the experiment (last month's value of the same
        metric, say); not constant.

    Returns
    -------
    numpy.ndarray
        The adjusted metric, one value per unit.

    Raises
    ------
    ValueError
        Naming ``y`` or ``x`` when the lengths differ, a value is not finite, fewer than 2
        units are given, or (``x``) when x is constant.

    Notes
    -----
    The chapter :doc:`/book/online_evaluation` explains it.

    References
    ----------
    - ``deng2013``: Deng, A., Xu, Y., Kohavi, R. and Walker, T. (2013). Improving the
      sensitivity of online controlled experiments by utilizing pre-experiment data. WSDM
      2013, 123-132.

    Examples
    --------
    >>> import rankedu as rk
    >>> rk.cuped([3.0, 5.0, 4.0, 8.0], [1.0, 2.0, 2.0, 3.0]).tolist()
    [5.5, 5.0, 4.0, 5.5]
    """
    y, x = as_arm_values(y, "y"), as_arm_values(x, "x")
    same_length(y=y, x=x)
    variance = float(x.var(ddof=1))
    if variance == 0:
        raise ValueError("x must vary: a constant covariate predicts nothing")
    theta = float(np.cov(y, x, ddof=1)[0, 1]) / variance
    return y - theta * (x - x.mean())


def _sample_ratio_mismatch_steps(n_control, n_treatment, expected) -> Steps:
    observed = np.array([as_count(n_control, "n_control"), as_count(n_treatment, "n_treatment")],
                        dtype=float)
    expected = as_open_probability(expected, "expected")
    total = observed.sum()
    if total == 0:
        raise ValueError("n_control and n_treatment must not both be 0")
    wanted = total * np.array([expected, 1 - expected])
    contributions = (observed - wanted) ** 2 / wanted
    statistic = float(contributions.sum())
    # The chi-squared distribution with 1 degree of freedom is that of Z^2: its tail is
    # P(|Z| >= sqrt(statistic)).
    p_value = _normal_two_sided(math.sqrt(statistic))
    arms = {"arm": np.array(["control", "treatment"]), "observed": observed,
            "expected": wanted, "(O - E)^2 / E": contributions}
    test = quantities([
        ("chi^2", "sum of (O - E)^2 / E", statistic),
        ("df", "arms - 1", 1),
        ("p-value", "P(chi^2_1 >= chi^2) = erfc(sqrt(chi^2 / 2))", p_value),
    ])
    return Steps(p_value, {"test": test, "arms": arms})


def sample_ratio_mismatch(n_control, n_treatment, expected=0.5) -> float:
    r"""The p-value of the sample-ratio-mismatch check: were the units split as designed?

    Pearson's chi-squared goodness-of-fit test of the observed counts against the design,
    with ``expected`` the share of units the design sends to the control:

    .. math::

        \chi^2 = \sum_{\text{arms}} \frac{(O - E)^2}{E}, \qquad
        E_c = N p,\; E_t = N (1 - p), \qquad
        P = P(\chi^2_1 \ge \chi^2)

    A small p-value (practitioners use thresholds such as 0.001) says the split is not the
    designed one: users were lost or duplicated in one arm, by a bug in the assignment, a
    redirect, a bot filter or the logging. The arms then hold different kinds of users, and
    the experiment's result cannot be trusted whatever its own p-value.

    Parameters
    ----------
    n_control, n_treatment : int >= 0
        Units observed in each arm (not both 0).
    expected : float, default 0.5
        The designed share of the control, strictly between 0 and 1.

    Returns
    -------
    float
        The p-value.

    Raises
    ------
    ValueError
        Naming ``n_control`` or ``n_treatment`` for a negative count (a non-integer is a
        TypeError), both counts 0, ``expected`` outside (0, 1).

    Notes
    -----
    The chapter :doc:`/book/online_evaluation` explains it. It equals
    ``scipy.stats.chisquare([n_control, n_treatment], [N p, N (1 - p)]).pvalue``.

    References
    ----------
    - ``kohavi2020``: Kohavi, R., Tang, D. and Xu, Y. (2020). Trustworthy Online Controlled
      Experiments. Cambridge University Press.
    - ``fabijan2019``: Fabijan, A., Gupchup, J., Gupta, S., Omhover, J., Qin, W., Vermeer, L.
      and Dmitriev, P. (2019). Diagnosing sample ratio mismatch in online controlled
      experiments. KDD 2019, 2156-2164.

    Examples
    --------
    >>> import rankedu as rk
    >>> round(rk.sample_ratio_mismatch(50_000, 50_600), 4)
    0.0585
    >>> rk.sample_ratio_mismatch(100, 100)
    1.0
    """
    return _sample_ratio_mismatch_steps(n_control=n_control, n_treatment=n_treatment,
                                        expected=expected).value


def _normal_power(effect: float, critical: float) -> float:
    """Power of the two-sided z-test when the true difference is ``effect`` standard errors:
    both rejection regions count."""
    return 0.5 * math.erfc((critical - effect) / math.sqrt(2)) + \
        0.5 * math.erfc((critical + effect) / math.sqrt(2))


def _minimum_detectable_effect_steps(sd, n, alpha, power) -> Steps:
    sd = as_above(sd, "sd", 0)
    n = as_count(n, "n")
    if n < 2:
        raise ValueError(f"n must be at least 2 units per arm, got {n}")
    alpha = as_open_probability(alpha, "alpha")
    power = as_open_probability(power, "power")
    if power <= alpha:
        raise ValueError(f"power must exceed alpha ({alpha:g}): a test rejects a true null "
                         f"with probability alpha already, got power={power:g}")
    critical = _NORMAL.inv_cdf(1 - alpha / 2)
    standard_error = sd * math.sqrt(2 / n)
    # The far rejection region adds a little power, so the effect is a shade below the usual
    # (z_{1-alpha/2} + z_power) SE: Newton's method from there (the power is increasing and
    # concave in the effect beyond the critical value, so the steps stay on one side).
    z_power = _NORMAL.inv_cdf(power)
    first_guess = effect = critical + z_power
    for _ in range(50):
        slope = (math.exp(-(effect - critical) ** 2 / 2)
                 - math.exp(-(effect + critical) ** 2 / 2)) / math.sqrt(2 * math.pi)
        step = (_normal_power(effect, critical) - power) / slope
        effect -= step
        if abs(step) <= 1e-15 * effect:
            break
    mde = effect * standard_error
    table = quantities([
        ("z_(1-alpha/2)", "normal quantile of the two-sided test", critical),
        ("z_power", "normal quantile of the power", z_power),
        ("SE", "sd sqrt(2 / n), of a difference of two means", standard_error),
        ("first guess", "(z_(1-alpha/2) + z_power) SE", first_guess * standard_error),
        ("MDE", "the d with Phi(d/SE - z) + Phi(-d/SE - z) = power", mde),
    ])
    return Steps(mde, {"minimum detectable effect": table})


def minimum_detectable_effect(sd, n, *, alpha=0.05, power=0.8) -> float:
    r"""The smallest true difference in means that a two-sided test of n units per arm
    detects with the given power: normal approximation.

    With the standard error of a difference of two means, SE = sd √(2/n), the power of the
    two-sided z-test at level α against a true difference d is

    .. math::

        \Phi\!\left(\frac{d}{SE} - z_{1-\alpha/2}\right)
        + \Phi\!\left(-\frac{d}{SE} - z_{1-\alpha/2}\right)

    and the MDE is the d > 0 that makes it equal to ``power``. Dropping the second term,
    which is tiny, gives the usual :math:`(z_{1-\alpha/2} + z_{\text{power}})\,SE`
    (2.80 SE at α = 0.05 and power 0.8). It is the normal approximation, not the t
    distribution: with n in the thousands, as in online experiments, the two agree to a
    fraction of a percent; with a few dozen units the t-test needs a slightly larger effect.
    Both arms are assumed to share the standard deviation ``sd`` and to hold n units each.

    Parameters
    ----------
    sd : float > 0
        Standard deviation of the metric per unit, in the metric's units.
    n : int >= 2
        Units per arm.
    alpha : float, default 0.05
        Significance level of the two-sided test.
    power : float, default 0.8
        Probability of detecting the effect; must exceed ``alpha``.

    Returns
    -------
    float
        The MDE, in the metric's units.

    Raises
    ------
    ValueError
        Naming ``sd``, ``n``, ``alpha`` or ``power`` when it is out of range.

    Notes
    -----
    The chapter :doc:`/book/online_evaluation` explains it. It equals ``sd`` times
    ``statsmodels.stats.power.NormalIndPower().solve_power(nobs1=n, alpha=alpha,
    power=power, ratio=1)``.

    References
    ----------
    - ``kohavi2020``: Kohavi, R., Tang, D. and Xu, Y. (2020). Trustworthy Online Controlled
      Experiments. Cambridge University Press.

    Examples
    --------
    >>> import rankedu as rk
    >>> round(rk.minimum_detectable_effect(1.0, 1000), 4)  # about 2.80 sqrt(2 / 1000)
    0.1253
    """
    return _minimum_detectable_effect_steps(sd=sd, n=n, alpha=alpha, power=power).value
