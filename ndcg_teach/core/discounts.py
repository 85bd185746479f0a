"""Discount: how much less a position is worth the further down it is.

``"log2"`` is the discount almost everyone uses today: position ``i`` is
multiplied by ``1 / log_b(i + 1)`` (``b = 2`` by default, so position 1 keeps
its whole gain). ``"jarvelin"`` is Järvelin and Kekäläinen's original (2002):
positions before ``b`` are not discounted and position ``i >= b`` is divided by
``log_b(i)``; with ``b = 2`` that is ``rel_1 + sum_{i>=2} rel_i / log2(i)``.

Changing ``b`` in ``"log2"`` multiplies every discount by the same constant
``ln b / ln 2``: DCG changes, NDCG does not. Lesson 02 shows both.
"""

from numbers import Real

import numpy as np

from ..i18n import _, gettext, mark
from .validation import check_choice, shown

DISCOUNT_CHOICES = ("log2", "jarvelin")
# How a control shows each choice.
DISCOUNT_LABELS = {"log2": "1/log2(i+1)", "jarvelin": "Järvelin: 1/log2(i)"}


def check_log_base(log_base):
    """Return the logarithm base as a float > 1."""
    requirement = mark("a finite number greater than 1 (2 is usual)")
    if isinstance(log_base, bool) or not isinstance(log_base, Real):
        raise TypeError(gettext("log_base must be {requirement}. Got {got} instead.")
                               .format(requirement=gettext(requirement), got=shown(log_base)))
    if not np.isfinite(log_base) or log_base <= 1:
        raise ValueError(gettext("log_base must be {requirement}. Got {got} instead.")
                                .format(requirement=gettext(requirement), got=shown(log_base)))
    return float(log_base)


def discount_values(n, discount="log2", log_base=2):
    """Discounts of positions ``1..n``.

    Examples
    --------
    >>> discount_values(3)
    array([1.        , 0.63092975, 0.5       ])
    >>> discount_values(3, "jarvelin")
    array([1.        , 1.        , 0.63092975])
    """
    check_choice("discount", discount, DISCOUNT_CHOICES)
    base = check_log_base(log_base)
    positions = np.arange(1, n + 1, dtype=np.float64)
    if discount == "log2":
        return np.log(base) / np.log(positions + 1.0) if base != 2 else 1.0 / np.log2(positions + 1.0)
    logs = np.log2(positions) if base == 2 else np.log(positions) / np.log(base)
    return np.where(positions < base, 1.0, 1.0 / np.maximum(logs, 1.0))


def discount_symbol(position, discount="log2", log_base=2):
    """How the divisor of ``position`` is written in a formula, or None when it is 1."""
    base = f"{log_base:g}"
    if discount == "log2":
        return f"log{base}({position + 1})"
    return None if position < log_base else f"log{base}({position})"


def discount_name(discount, log_base=2):
    """Short description of a discount for trace headers."""
    base = f"{log_base:g}"
    if discount == "log2":
        return _("discount 1/log{base}(i+1)").format(base=base)
    return _("Järvelin discount: 1 for i < {base}, 1/log{base}(i) after").format(base=base)
