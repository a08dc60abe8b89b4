"""Tests of rankedu/teaching/plotting.py: the figures draw the values rk computes, on labelled axes."""

import doctest
import math
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import rankedu as rk  # noqa: E402
from rankedu.teaching import plotting  # noqa: E402


# The NDCG chapter's figures, each drawn with its defaults or a small example.
DCG_FIGURES = [
    plotting.plot_discounts,
    plotting.plot_gains,
    lambda ax=None: plotting.plot_dcg_contributions([2, 0, 1], pool=[2, 2, 1], ax=ax),
]
DCG_FIGURE_IDS = ["discounts", "gains", "dcg_contributions"]


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_importing_rankedu_does_not_import_matplotlib():
    code = "import sys, rankedu; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_plot_discounts_draws_one_line_per_discount_with_the_right_weights():
    ax = plotting.plot_discounts(8)
    log2_line, jarvelin_line = ax.get_lines()
    ranks = list(range(1, 9))
    assert list(log2_line.get_xdata()) == ranks
    np.testing.assert_allclose(log2_line.get_ydata(), [1 / math.log2(i + 1) for i in ranks], rtol=1e-12)
    assert list(jarvelin_line.get_xdata()) == ranks
    np.testing.assert_allclose(jarvelin_line.get_ydata(), [1.0] + [1 / math.log2(i) for i in ranks[1:]], rtol=1e-12)
    assert "log2" in log2_line.get_label() and "jarvelin" in jarvelin_line.get_label()


def test_plot_gains_draws_one_line_per_gain_with_the_right_gains():
    ax = plotting.plot_gains(4)
    linear, exponential = ax.get_lines()
    assert list(linear.get_xdata()) == [0, 1, 2, 3, 4]
    assert list(linear.get_ydata()) == [0, 1, 2, 3, 4]
    assert list(exponential.get_ydata()) == [0, 1, 3, 7, 15]
    assert "linear" in linear.get_label() and "exponential" in exponential.get_label()


@pytest.mark.parametrize("draw", DCG_FIGURES, ids=DCG_FIGURE_IDS)
def test_axes_are_labelled_and_carry_a_legend(draw):
    ax = draw()
    assert ax.get_xlabel() and ax.get_ylabel()
    assert ax.get_legend() is not None
    assert ax.get_title() == ""  # captions come from the notebook, not from the plot


@pytest.mark.parametrize("draw", DCG_FIGURES, ids=DCG_FIGURE_IDS)
def test_draws_on_the_given_axes_and_returns_them(draw):
    fig, (left, right) = plt.subplots(1, 2)
    assert draw(ax=right) is right
    assert right.has_data() and not left.has_data()


def test_one_discount_only():
    ax = plotting.plot_discounts(5, discounts=("jarvelin",))
    assert len(ax.get_lines()) == 1


@pytest.mark.parametrize("draw", DCG_FIGURES, ids=DCG_FIGURE_IDS)
def test_never_calls_show(draw, monkeypatch):
    def refuse():
        raise AssertionError("plotting helpers must leave plt.show() to the chapter")

    monkeypatch.setattr(plt, "show", refuse)
    draw()


def test_unknown_names_raise_the_metric_error():
    with pytest.raises(ValueError, match="discount"):
        plotting.plot_discounts(discounts=("log10",))
    with pytest.raises(ValueError, match="gain"):
        plotting.plot_gains(gains=("cubic",))


def test_docstring_examples_hold():
    result = doctest.testmod(plotting)
    assert result.attempted > 0 and result.failed == 0


def test_plot_roc_draws_rk_roc_curve_and_the_chance_diagonal_once():
    import rankedu as rk

    labels, scores = [1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.7, 0.7, 0.2]
    ax = plotting.plot_roc(labels, scores)
    plotting.plot_roc(labels, [-s for s in scores], ax=ax, label="inverted")
    chance, curve, inverted = ax.get_lines()
    fpr, tpr, _ = rk.roc_curve(labels, scores)
    assert list(chance.get_xdata()) == [0, 1] and list(chance.get_ydata()) == [0, 1]
    np.testing.assert_array_equal(curve.get_xdata(), fpr)
    np.testing.assert_array_equal(curve.get_ydata(), tpr)
    assert curve.get_label() == f"AUC = {rk.roc_auc(labels, scores):.3f}"
    assert inverted.get_label() == "inverted"
    assert ax.get_xlabel() and ax.get_ylabel()


def test_plot_roc_never_calls_show(monkeypatch):
    def refuse():
        raise AssertionError("plotting helpers must leave plt.show() to the chapter")

    monkeypatch.setattr(plt, "show", refuse)
    plotting.plot_roc([1, 0], [0.7, 0.2])


@pytest.mark.parametrize(
    "rels, n_relevant",
    [((1, 1, 0, 1, 0, 0, 1), 4), ((1, 0, 1, 0, 1), 5), ((1, 0, 1, 0, 0, 1), None), ((0, 0), 3), ((0,), None)],
)
def test_the_area_under_the_average_precision_steps_is_rk_average_precision(rels, n_relevant):
    import rankedu as rk

    heights, edges = plotting.average_precision_steps(rels, n_relevant=n_relevant)
    assert len(edges) == len(heights) + 1 and edges[0] == 0.0 and edges[-1] == 1.0
    assert np.all(np.diff(edges) > 0)
    area = float(np.sum(heights * np.diff(edges)))
    assert area == pytest.approx(rk.average_precision(rels, n_relevant=n_relevant), abs=1e-12)


def test_average_precision_steps_of_seed_000_query_2_ends_at_recall_3_5_then_drops_to_0():
    heights, edges = plotting.average_precision_steps((1, 0, 1, 0, 1), n_relevant=5)
    np.testing.assert_allclose(heights, [1, 2 / 3, 3 / 5, 0], rtol=1e-12)
    np.testing.assert_allclose(edges, [0, 0.2, 0.4, 0.6, 1.0], rtol=1e-12)


def test_plot_average_precision_area_draws_one_labelled_patch_on_labelled_axes(monkeypatch):
    import rankedu as rk

    monkeypatch.setattr(plt, "show", lambda: (_ for _ in ()).throw(AssertionError("no show")))
    _, given = plt.subplots()
    ax = plotting.plot_average_precision_area((1, 1, 0, 1, 0, 0, 1), n_relevant=4, ax=given)
    assert ax is given
    (patch,) = ax.patches
    assert patch.get_label() == f"area under p(r) = AP = {rk.average_precision((1, 1, 0, 1, 0, 0, 1), n_relevant=4):.4f}"
    assert ax.get_xlabel() == "recall" and ax.get_ylabel() == "precision"


def test_dcg_contributions_are_the_terms_of_dcg_and_of_the_ideal_dcg():
    rels, pool = [3, 2, 3, 0, 1, 2], [3, 2, 3, 0, 1, 2, 3, 0]
    ranking, ideal = plotting.dcg_contributions(rels, 6, pool=pool)
    np.testing.assert_allclose(ranking, [g / math.log2(i + 1) for i, g in enumerate(rels, 1)], rtol=1e-12)
    np.testing.assert_allclose(ideal, [g / math.log2(i + 1) for i, g in enumerate([3, 3, 3, 2, 2, 1], 1)], rtol=1e-12)
    for gain in ("linear", "exponential"):
        for discount in ("log2", "jarvelin"):
            ranking, ideal = plotting.dcg_contributions(rels, 6, pool=pool, gain=gain, discount=discount)
            assert ranking.sum() == pytest.approx(rk.dcg(rels, 6, gain=gain, discount=discount), rel=1e-12)
            assert ideal.sum() == pytest.approx(rk.idcg(pool, 6, gain=gain, discount=discount), rel=1e-12)


def test_ideal_contributions_may_be_longer_than_the_ranking():
    ranking, ideal = plotting.dcg_contributions([1], pool=[1, 1, 1])
    assert len(ranking) == 1 and len(ideal) == 3


def test_plot_dcg_contributions_draws_the_ranking_beside_the_ideal_ranking():
    ax = plotting.plot_dcg_contributions([1, 3], pool=[3, 1, 2])
    ranking_bars, ideal_bars = ax.containers
    assert ranking_bars.get_label() == "ranking" and ideal_bars.get_label() == "ideal ranking"
    np.testing.assert_allclose([b.get_height() for b in ranking_bars], [1, 3 / math.log2(3)], rtol=1e-12)
    np.testing.assert_allclose([b.get_height() for b in ideal_bars], [3, 2 / math.log2(3), 0.5], rtol=1e-12)
    # Each pair of bars straddles its rank: the ranking's on the left, the ideal's on the right.
    centres = [b.get_x() + b.get_width() / 2 for b in ranking_bars]
    assert centres == pytest.approx([0.8, 1.8])
    assert [b.get_x() + b.get_width() / 2 for b in ideal_bars] == pytest.approx([1.2, 2.2, 3.2])
    assert ax.get_xlabel() and ax.get_ylabel() and ax.get_legend() is not None


# --- precision and recall of a ranking (added with book/cutoff.ipynb) -------------------------

RANKING = [1, 0, 1, 1, 0, 0, 1, 0, 0, 0]


def test_plot_precision_recall_at_k_draws_p_at_k_and_r_at_k_against_k():
    ax = plotting.plot_precision_recall_at_k(RANKING, n_relevant=5)
    p_line, r_line = ax.get_lines()
    ks = list(range(1, 11))
    assert list(p_line.get_xdata()) == ks and list(r_line.get_xdata()) == ks
    np.testing.assert_allclose(p_line.get_ydata(), [rk.precision_at_k(RANKING, k) for k in ks], atol=1e-12)
    np.testing.assert_allclose(
        r_line.get_ydata(), [rk.recall_at_k(RANKING, k, n_relevant=5) for k in ks], atol=1e-12
    )
    assert ax.get_xlabel() and ax.get_ylabel()


def test_plot_precision_recall_curve_draws_one_point_per_rank_and_the_interpolated_steps():
    ax = plotting.plot_precision_recall_curve(RANKING, n_relevant=5)
    points, steps = ax.get_lines()
    ks = range(1, 11)
    np.testing.assert_allclose(points.get_xdata(), [rk.recall_at_k(RANKING, k, n_relevant=5) for k in ks])
    np.testing.assert_allclose(points.get_ydata(), [rk.precision_at_k(RANKING, k) for k in ks])
    # The step line: from recall 0, at each recall level the best precision at that recall or
    # beyond (by hand: P@1 = 1 until recall 0.2; then max(P@3, P@4, ...) = 3/4 until 0.6; then 4/7).
    x, y = steps.get_data()
    assert x[0] == 0.0 and y[0] == 1.0
    for level, expected in [(0.2, 1.0), (0.4, 0.75), (0.6, 0.75), (0.8, 4 / 7)]:
        # step "pre": the value on (previous x, x] is the y of the right end.
        assert y[np.flatnonzero(np.isclose(x, level))[0]] == pytest.approx(expected, abs=1e-12)
    assert ax.get_xlabel() == "recall" and ax.get_ylabel() == "precision"


def test_plot_precision_recall_curve_without_interpolation_draws_only_the_points():
    ax = plotting.plot_precision_recall_curve(RANKING, interpolated=False)
    assert len(ax.get_lines()) == 1


@pytest.mark.parametrize("base", [2, 3, 10])
def test_discount_values_with_a_base_are_1_up_to_rank_b_then_1_over_log_b(base):
    weights = plotting.discount_values(15, "jarvelin", base=base)
    expected = [1.0 if i <= base else 1 / math.log(i, base) for i in range(1, 16)]
    assert weights == pytest.approx(expected, rel=1e-12)


def test_discount_values_refuse_a_base_with_the_log2_discount():
    with pytest.raises(ValueError, match="base"):
        plotting.discount_values(3, "log2", base=3)
