"""How an error message shows the value it refuses: a short ``repr``, safe for any value (see :func:`shown`)."""

import reprlib
import sys

import numpy as np

from ..i18n import gettext

_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxtuple, _SHORT.maxdict, _SHORT.maxlong = 3, 8, 8, 4, 40


def shown(value, limit=80):
    """Short ``repr`` of a value for an error message; one too deep, too long or too odd to ``repr`` is shortened
    (a list nested 100,000 deep, an int of 5,000 digits, an object whose ``repr`` fails).

    >>> deep = []
    >>> for _ in range(100_000):
    ...     deep = [deep]
    >>> shown(deep), shown(10 ** 5000)
    ('[[[[...]]]]', '<an integer of about 5,000 digits>')
    """
    try:
        text = repr(value)
    except Exception:  # a RecursionError, the int-to-str digit limit, a repr that raises
        try:
            text = _SHORT.repr(value)
        except Exception:
            text = f"<{type(value).__name__} object>"
        if isinstance(value, int):
            text = gettext("<an integer of about {digits:,} digits>").format(digits=int(value.bit_length() * 0.30103))
    if isinstance(value, np.ndarray):
        text = f"array({np.array2string(value, threshold=20, separator=', ', max_line_width=sys.maxsize)})"
    return text if len(text) <= limit else text[: limit - 5] + " ...]"
