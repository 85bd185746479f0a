"""The discount plot of a long list: positions in groups, bars of the group means, split at k, and back to one bar per
position for a short list."""

from io import BytesIO

import numpy as np
import pytest
from PIL import Image

import ndcg_teach as nt
from ndcg_teach.plots.grouped_plot import GROUPS, group_size, grouped
from ndcg_teach.plots import BAR_LIMIT, PNG_SIGNATURE, DiscountPlot


@pytest.mark.parametrize("n", [1, 40, 41, 80, 81, 2_000, 10_001, 100_000, 1_000_000])
def test_the_group_size_is_the_smallest_round_one_that_fits(n):
    size = group_size(n)
    assert -(-n // size) <= GROUPS
    assert size == 1 or -(-n // max(s for s in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000,
                                                   50_000) if s < size)) > GROUPS
    assert int(str(size)[0]) in (1, 2, 5) and set(str(size)[1:]) <= {"0"}


def test_each_bar_is_the_mean_of_its_positions_and_the_areas_add_up_to_the_total():
    values = np.arange(1.0, 11.0)  # 1..10
    starts = np.array([0, 4, 5, 8])  # groups 1-4, 5, 6-8, 9-10
    means = grouped(values, starts)
    assert means.tolist() == [2.5, 5.0, 7.0, 9.5]
    assert float((means * np.diff(np.append(starts, 10))).sum()) == values.sum()


def axes_bars(plot):
    """(left edge, right edge, height, colour) of the drawn steps of the discount plot's main axes."""
    from matplotlib.patches import StepPatch

    found = []
    for patch in plot.axes.patches:
        if isinstance(patch, StepPatch):
            values, edges, _ = patch.get_data()
            found.append((edges.tolist(), values.tolist(), patch.get_facecolor()))
    return found


def test_a_long_list_is_drawn_in_groups_split_at_k_and_a_short_one_item_by_item_again():
    grades = [3, 2, 3, 0, 1] * 400  # 2,000 positions: groups of 50
    plot = DiscountPlot()
    png = plot.draw(nt.explain_dcg(grades, ranking=[f"d{i}" for i in range(2000)]), k=10)
    assert png.startswith(PNG_SIGNATURE) and Image.open(BytesIO(png)).size == (560, 350)
    counted_gain, counted_share, rest_gain, rest_share = axes_bars(plot)
    assert counted_gain[0] == [0.5, 10.5], "positions 1-10, the part of the first group up to k"
    assert rest_gain[0][:3] == [10.5, 50.5, 100.5] and rest_gain[0][-1] == 2000.5
    assert counted_gain[1] == [np.mean(grades[:10])]
    assert rest_gain[1][:2] == [np.mean(grades[10:50]), np.mean(grades[50:100])]
    trace = nt.explain_dcg(grades[:10], ranking=[f"d{i}" for i in range(10)])
    assert counted_share[1] == pytest.approx([np.mean([row.contribution for row in trace.rows])], rel=1e-12)
    short = plot.draw(nt.explain_dcg([3, 2, 3, 0, 1], ranking=list("BADCE")), k=3)
    assert short.startswith(PNG_SIGNATURE) and len(plot.gain_bars) == 5, "one bar per position again"


def test_the_limit_between_the_two_kinds_of_plot():
    plot = DiscountPlot()
    plot.draw(nt.explain_dcg([1] * BAR_LIMIT), k=3)
    assert len(plot.gain_bars) == BAR_LIMIT
    plot.draw(nt.explain_dcg([1] * (BAR_LIMIT + 1)), k=3)
    assert axes_bars(plot), "grouped"


def test_the_grouped_plot_speaks_chinese():
    from ndcg_teach.plots.fonts import labels_language

    with nt.language_set("zh-CN"):
        plot = DiscountPlot()
        plot.draw(nt.explain_dcg([1, 0] * 100), k=5)
        assert labels_language() == "zh-CN", "the premise: the course's Chinese font is installed (requirements.txt)"
        legend = [text.get_text() for text in plot.axes.get_legend().get_texts()]
        assert legend[:2] == ["增益（每 5 个位置的平均值）", "增益 × 折损（每 5 个位置的平均值）"]


@pytest.mark.parametrize("k", [None, 150, 400])
def test_a_long_list_with_no_cut_off_inside_it_is_drawn_in_whole_groups(k):
    # No group is split when k is None or past the end; the starts stayed floats then, and numpy's reduceat refused
    # them, so a long explorer without k failed to display at all.
    grades = [(7 * i) % 5 for i in range(150)]  # groups of 5
    plot = DiscountPlot()
    png = plot.draw(nt.explain_dcg(grades, ranking=[f"doc{i:03d}" for i in range(150)]), k=k)
    assert png.startswith(PNG_SIGNATURE)
    (counted_gain, counted_share) = axes_bars(plot)
    assert counted_gain[0] == [0.5 + 5 * i for i in range(31)], "30 whole groups, all counted"
    assert counted_gain[1] == [np.mean(grades[i:i + 5]) for i in range(0, 150, 5)]
