"""Numbers as C reads them (``atof``, ``atol``), as trec_eval reads every number of its files and parameters.

The longest leading number of a token counts and the rest is ignored, so ``1_0`` is 1, ``1.5`` read as a whole
number is 1 and ``0x1p-1`` is 0.5. :mod:`ndcg_teach.runs.trec_files` reads qrels and runs with them, and
:mod:`ndcg_teach.core.trec_gains` the gain maps of trec_eval's measure names (``ndcg.1=3.5``).
"""

import re

_LONG = 2 ** 63
_C_FLOAT = re.compile(
    rb"[+-]?(?:0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?"
    rb"|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[iI][nN][fF](?:[iI][nN][iI][tT][yY])?"
    rb"|[nN][aA][nN](?:\([0-9A-Za-z_]*\))?)")
_C_LONG = re.compile(rb"[+-]?[0-9]+")


def c_long(token):
    """What C's ``atol`` reads at the start of ``token`` (bytes): its leading whole number, else 0.

    >>> c_long(b"12abc"), c_long(b"high"), c_long(b"-3.9"), c_long(b"1e3")
    (12, 0, -3, 1)
    """
    whole = _C_LONG.match(token)
    return 0 if whole is None else max(-_LONG, min(_LONG - 1, int(whole.group())))


def c_number(token, integer=False):
    """The number C's ``atof`` (``integer=True``: ``atol``) reads at the start of ``token`` (bytes); None if none.

    ``integer=True`` still needs a number in ``atof``'s sense (so ``.5`` is 0, as ``atol`` reads it, but ``high``
    is None); a value beyond C's ``long`` stops at its limit, as ``strtol`` does.

    >>> c_number(b"0.812345674abc"), c_number(b".5", integer=True), c_number(b"high"), c_number(b"-2.7", integer=True)
    (0.812345674, 0, None, -2)
    """
    found = _C_FLOAT.match(token)
    if found is None:
        return None
    text = found.group()
    value = float.fromhex(text.decode()) if b"x" in text or b"X" in text else float(text.split(b"(")[0])
    if not integer:
        return value
    whole = _C_LONG.match(token)
    return 0 if whole is None else max(-_LONG, min(_LONG - 1, int(whole.group())))
