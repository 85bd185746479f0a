"""The two explorer plots: persistent figures, artists moved in place, PNG bytes out."""

import subprocess
import sys
from io import BytesIO

import pytest
from matplotlib.colors import to_hex
from PIL import Image

import ndcg_teach as nt
from ndcg_teach.plots import HEADROOM, OKABE_ITO, PNG_SIGNATURE, CumulativePlot, DiscountPlot

ITEMS = ["B", "A", "D", "C", "E"]
GRADES = [4, 5, 2, 3, 1]


def full_trace(grades=GRADES, ranking=ITEMS, **kwargs):
    return nt.explain_dcg(grades, ranking=ranking, **kwargs)


def size(png):
    return Image.open(BytesIO(png)).size


def test_discount_plot_draws_a_png_of_the_figure_size():
    png = DiscountPlot(width=5, height=3, dpi=100).draw(full_trace(), k=3)
    assert png.startswith(PNG_SIGNATURE)
    assert size(png) == (500, 300)


def test_discount_plot_moves_its_artists_in_place():
    plot = DiscountPlot()
    plot.draw(full_trace(), k=3)
    bars, labels, curve = list(plot.share_bars), list(plot.labels), plot.curve
    plot.draw(full_trace([1, 3, 2, 5, 4], ["E", "C", "D", "A", "B"]), k=2)
    assert list(plot.share_bars) == bars and list(plot.labels) == labels and plot.curve is curve
    trace = full_trace([1, 3, 2, 5, 4], ["E", "C", "D", "A", "B"])
    assert [bar.get_height() for bar in plot.share_bars] == [row.contribution for row in trace.rows]
    assert [bar.get_height() for bar in plot.gain_bars] == [row.gain for row in trace.rows]
    assert [label.get_text() for label in plot.labels] == ["E", "C", "D", "A", "B"]
    assert list(plot.curve.get_ydata()) == [row.discount for row in trace.rows]


def test_discount_plot_marks_the_cut_off_and_greys_what_it_leaves_out():
    plot = DiscountPlot()
    plot.draw(full_trace(), k=3)
    assert plot.cutoff.get_visible() and plot.cutoff_label.get_text() == "k = 3"
    assert list(plot.cutoff.get_xdata()) == [3.5, 3.5]
    colours = [to_hex(bar.get_facecolor()).upper() for bar in plot.share_bars]
    assert colours[:3] == [OKABE_ITO["blue"]] * 3
    assert OKABE_ITO["blue"] not in colours[3:]
    plot.draw(full_trace(), k=None)
    assert not plot.cutoff.get_visible()


def test_discount_plot_axes_are_labelled():
    plot = DiscountPlot()
    plot.draw(full_trace(), k=3)
    axes, curve_axes = plot.figure.axes
    assert axes.get_xlabel() == "position i"
    assert axes.get_ylabel() == "gain and gain × discount"
    assert curve_axes.get_ylabel() == "discount"


def test_the_png_changes_with_the_order_and_comes_back_with_it():
    plot = DiscountPlot()
    first = plot.draw(full_trace(), k=3)
    moved = plot.draw(full_trace([5, 4, 2, 3, 1], ["A", "B", "D", "C", "E"]), k=3)
    assert moved != first
    assert plot.draw(full_trace(), k=3) == first


@pytest.mark.parametrize("plot_class", [DiscountPlot, CumulativePlot])
def test_a_cached_background_draws_the_same_pixels_as_a_fresh_figure(plot_class):
    def draw(plot, grades, items):
        if plot_class is DiscountPlot:
            return plot.draw(full_trace(grades, items), k=3)
        return plot.draw([nt.explain_ndcg(grades, k=3, ranking=items)])

    reused = plot_class()
    draw(reused, GRADES, ITEMS)
    again = draw(reused, [3, 4, 2, 5, 1], ["C", "B", "D", "A", "E"])
    fresh = draw(plot_class(), [3, 4, 2, 5, 1], ["C", "B", "D", "A", "E"])
    assert again == fresh


def test_a_new_list_length_rebuilds_the_discount_plot():
    plot = DiscountPlot()
    plot.draw(full_trace(), k=3)
    plot.draw(full_trace([1, 0], ["x", "y"]), k=1)
    assert len(plot.share_bars) == 2


def test_exponential_gains_rescale_the_bars():
    plot = DiscountPlot()
    plot.draw(full_trace(gain="exponential"), k=5)
    assert plot.axes.get_ylim()[1] == pytest.approx(31 * HEADROOM)


@pytest.mark.parametrize("grades", [GRADES, [10, 5, 2, 3, 1]])
def test_the_discount_plot_keeps_both_y_labels_inside_the_figure(grades):
    # Grade 10 with exponential gain puts 4-digit tick labels (up to 1023) left of the axis.
    plot = DiscountPlot()
    plot.draw(full_trace(grades, gain="exponential"), k=3)
    renderer = plot.figure.canvas.get_renderer()
    assert plot.axes.yaxis.get_tightbbox(renderer).x0 >= 0
    assert plot.curve_axes.yaxis.get_tightbbox(renderer).x1 <= plot.figure.bbox.width


def test_cumulative_plot_draws_running_dcg_against_running_idcg():
    plot = CumulativePlot()
    trace = nt.explain_ndcg(GRADES, k=3, ranking=ITEMS)
    png = plot.draw([trace])
    assert png.startswith(PNG_SIGNATURE)
    (line,) = plot.lines
    assert list(line.get_ydata()) == [row.running for row in trace.rows]
    assert list(plot.ideal.get_ydata()) == [row.ideal_running for row in trace.rows]
    assert list(plot.ideal.get_xdata()) == [1, 2, 3]
    assert plot.score.get_text() == "NDCG@3 = 0.9037"
    assert plot.axes.get_xlabel() == "position i"
    assert plot.axes.get_ylabel() == "running total up to i"


def test_cumulative_plot_compares_two_rankings():
    plot = CumulativePlot()
    first, second = nt.explain_ndcg(GRADES, k=3), nt.explain_ndcg([1, 5, 4, 3, 2], k=3)
    plot.draw([first, second], names=("Model A", "Model B"))
    assert [to_hex(line.get_color()).upper() for line in plot.lines] == [OKABE_ITO["blue"], OKABE_ITO["vermillion"]]
    assert [text.get_text() for text in plot.axes.get_legend().get_texts()] == [
        "running DCG, Model A", "running DCG, Model B", "running IDCG (ideal order)",
    ]
    assert plot.score.get_text() == "Model A: NDCG@3 = 0.9037\nModel B: NDCG@3 = 0.6821"


def test_cumulative_plot_follows_k():
    plot = CumulativePlot()
    plot.draw([nt.explain_ndcg(GRADES, k=2)])
    plot.draw([nt.explain_ndcg(GRADES, k=5)])
    assert list(plot.lines[0].get_xdata()) == [1, 2, 3, 4, 5]


def test_the_plots_never_touch_pyplot():
    probe = (
        "import sys; from ndcg_teach.plots import DiscountPlot; import ndcg_teach as nt; "
        "DiscountPlot().draw(nt.explain_dcg([1, 2])); print('matplotlib.pyplot' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
