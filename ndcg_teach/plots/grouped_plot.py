"""The discount plot of a long list: its positions in groups, one bar per group, and the discount curve over them all.

:class:`~ndcg_teach.plots.DiscountPlot` draws a bar and a label per position
up to :data:`~ndcg_teach.plots.BAR_LIMIT` positions; past that the bars would
be thinner than a pixel and the labels a smear, and drawing them took seconds
(8.5 s for 2,000 items). Here consecutive positions make groups of a round
size (1, 2 or 5 times a power of ten), so that at most :data:`GROUPS` bars
show (one more where the cut-off k splits a group); each bar's height is the
mean gain, and the mean gain × discount, of its positions, so bars of any
width compare, and a bar's area is what its positions add to DCG.

>>> group_size(40), group_size(2_000), group_size(100_000)
(1, 50, 5000)
"""

import numpy as np
from matplotlib.patches import Rectangle
from matplotlib.ticker import MaxNLocator

from .fonts import labels_language
from ..i18n import gettext as _
from . import FONT_SIZE, GREY, HEADROOM, LIGHT_GREY, OKABE_ITO, label_discount_axes

GROUPS = 40
"""The most bars a grouped plot draws."""


def group_size(n, groups=GROUPS):
    """The smallest round group size (1, 2 or 5 times a power of ten) that puts ``n`` positions in at most ``groups`` bars."""
    power = 1
    while True:
        for step in (1, 2, 5):
            if -(-n // (step * power)) <= groups:
                return step * power
        power *= 10


def grouped(values, starts):
    """The mean of ``values`` over each group of positions, the groups beginning at ``starts`` (0-based, increasing)."""
    values = np.asarray(values, dtype=np.float64)
    counts = np.diff(np.append(starts, len(values)))
    return np.add.reduceat(values, starts) / counts


def draw_grouped(plot, gains, discounts, contributions, k=None):
    """Draw a long list's steps on ``plot`` (a DiscountPlot) in groups of positions; the PNG bytes."""
    n, language = len(gains), labels_language()
    size = group_size(n)
    cut = n if k is None else min(k, n)
    # Groups of `size` positions, the one that holds the cut-off split at it: a bar never mixes counted positions
    # with positions past k. Whole numbers even with no cut-off to add (an empty list would make them floats).
    starts = np.union1d(np.arange(0, n, size), np.array([cut] if cut < n else [], dtype=np.intp))
    figure = plot.figure
    figure.clear()
    axes = plot._axes()
    curve_axes = axes.twinx()
    curve_axes.tick_params(labelsize=FONT_SIZE)
    gain_means, share_means = grouped(gains, starts), grouped(contributions, starts)
    # One filled outline per colour, not one patch per bar: the groups up to k in colour, the ones past it in grey.
    edges = np.append(starts, n) + 0.5
    split = int(np.searchsorted(starts, cut))
    for part, (gain_colour, share_colour) in (((0, split), (OKABE_ITO["sky_blue"], OKABE_ITO["blue"])),
                                               ((split, len(starts)), (LIGHT_GREY, GREY))):
        if part[1] > part[0]:
            bounds = edges[part[0]:part[1] + 1]
            axes.stairs(gain_means[part[0]:part[1]], bounds, fill=True, color=gain_colour, alpha=0.45, zorder=2)
            axes.stairs(share_means[part[0]:part[1]], bounds, fill=True, color=share_colour, zorder=3)
    curve_axes.plot(np.arange(1, n + 1), np.asarray(discounts, dtype=np.float64), color=OKABE_ITO["vermillion"],
                    linewidth=2, zorder=6)
    if cut < n:
        axes.add_patch(Rectangle((cut + 0.5, 0), n - cut, 1, transform=axes.get_xaxis_transform(), color=LIGHT_GREY,
                                 alpha=0.45, zorder=1, lw=0))
        axes.axvline(cut + 0.5, color=OKABE_ITO["black"], linestyle="--", linewidth=1.4, zorder=5)
        axes.text(cut + 0.5, 0.985, f"k = {cut}", transform=axes.get_xaxis_transform(), ha="center", va="top",
                  fontsize=FONT_SIZE, zorder=6,
                  bbox={"boxstyle": "round,pad=0.25", "facecolor": "white", "edgecolor": OKABE_ITO["black"], "lw": 1})
    axes.set_xlim(0.5, n + 0.5)
    axes.xaxis.set_major_locator(MaxNLocator(nbins=8, integer=True, min_n_ticks=2))
    axes.yaxis.set_major_locator(MaxNLocator(nbins=5))
    axes.set_ylim(0, max(float(gain_means.max(initial=0.0)), 1.0) * HEADROOM)
    label_discount_axes(axes, curve_axes, language,
                        _("gain, mean of each {size} positions", language).format(size=size),
                        _("gain × discount, mean of each {size} positions", language).format(size=size), marker="", columns=2)
    figure.subplots_adjust(left=0.11, right=0.88, bottom=0.15, top=0.83)
    plot.axes, plot.curve_axes = axes, curve_axes
    plot._fit_margins()
    plot._background = None
    return plot._render(("grouped", n, size, cut), [])
