"""The paired tests of B − A as the widgets show them: lesson 13's explorer of per-query scores, lesson 20's of runs.

Every number comes from :mod:`ndcg_teach.statistics.significance`, given B's scores
first, so that each result is of the difference B − A; this module only
picks the texts a page prints (4 decimals, p as :func:`~ndcg_teach.statistics.significance_results.p_text` words it).
"""

import numpy as np

from ..i18n import gettext, mark
from ..statistics.significance import bootstrap_interval, paired_t_test, randomisation_test
from ..statistics.significance_results import p_text

UNDEFINED_T = mark("undefined: every difference is the same, so their spread is 0")


def paired_tests(a, b, labels, *, resamples, seed, confidence, resampled=True):
    """The t-test (None when every difference is the same), the randomisation test and the bootstrap interval of
    ``b - a``, each saying ``labels[1] - labels[0]``. Without ``resampled`` the last two are None: on 2,000 queries
    they take about a second, the t-test a millisecond."""
    names = tuple(reversed(labels))
    try:
        t_test = paired_t_test(b, a, labels=names)
    except ValueError:  # every difference the same: t is undefined, and the widget says why
        t_test = None
    if not resampled:
        return {"t_test": t_test, "randomisation": None, "bootstrap": None}
    return {
        "t_test": t_test,
        "randomisation": randomisation_test(b, a, n=resamples, seed=seed, labels=names),
        "bootstrap": bootstrap_interval(b, a, confidence=confidence, n=resamples, seed=seed, labels=names),
    }


def summarised_tests(differences, results, language, confidence=0.95):
    """What a page shows of ``results`` (from :func:`paired_tests`) and the ``differences`` they test: texts to 4
    decimals, and the floats it draws. A resampling test not computed yet shows "…", and ``pending`` is True."""
    t_test, randomisation, interval = results["t_test"], results["randomisation"], results["bootstrap"]
    d = np.asarray(differences, dtype=np.float64)
    pending = randomisation is None
    return {
        "mean": f"{float(d.mean()):+.4f}",
        "mean_value": float(d.mean()),
        "wins": [int((d > 0).sum()), int((d < 0).sum())],
        "t": None if t_test is None else {"statistic": f"{t_test.statistic:.4f}", "p": p_text(t_test.p_value),
                                          "text": str(t_test)},
        "t_undefined": gettext(UNDEFINED_T, language),
        "randomisation": {"p": "…", "details": "", "text": "…"} if pending else {
            "p": p_text(randomisation.p_value), "details": randomisation.shown_details, "text": str(randomisation)},
        "bootstrap": {"low": "…", "high": "…", "range": [0.0, 0.0], "excludes_zero": False,
                      "confidence": f"{confidence:.0%}", "text": "…"} if pending else {
            "low": f"{interval.low:+.4f}", "high": f"{interval.high:+.4f}", "range": [interval.low, interval.high],
            "excludes_zero": interval.excludes_zero, "confidence": f"{interval.confidence:.0%}", "text": str(interval)},
        "pending": pending,
    }
