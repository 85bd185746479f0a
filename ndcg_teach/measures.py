"""Measure names: trec_eval's (``ndcg_cut.10``, ``P.5,10``, ``map``) and ir_measures' (``nDCG@10``, ``AP``) read from the registry.

Every metric module lists the names its metric has in those tools in its
:class:`~ndcg_teach.Metric`'s ``names`` (a pattern with ``{k}`` for the
cut-off, mapped to the keywords that tool's convention implies), so a new
metric module brings its names with it; nothing here lists the metrics.
:func:`parse_measures` turns what a learner types into :class:`Measure`
objects. Lesson 09 uses them through :func:`~ndcg_teach.evaluate`.

>>> [m.name for m in parse_measures(["ndcg_cut.10", "P.5,10", "AP"])]
['ndcg_cut_10', 'P_5', 'P_10', 'AP']
"""

from dataclasses import dataclass, field

from .registry import metrics
from .validation import shown

# The order in which trec_eval prints its measures (its table in measures.c), so our output lines up with
# trec_eval's line for line. It is trec_eval's print order, not a list of our metrics: names it does not
# know come after, in the order they were asked for.
TREC_EVAL_ORDER = (
    "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
    "iprec_at_recall", "P", "relstring", "recall", "infAP", "gm_bpref", "Rprec_mult", "utility", "11pt_avg", "binG",
    "G", "dcg", "ideal_dcg", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success", "set_P",
    "set_relative_P", "set_recall", "set_map", "set_F", "num_nonrel_judged_ret", "rbp", "rbp_resid",
)

# The cut-offs trec_eval uses for a measure named without any (``-m P`` is P_5 ... P_1000), from its measure files
# (m_P.c, m_recall.c, m_ndcg_cut.c, m_map_cut.c, m_success.c). Like TREC_EVAL_ORDER it describes trec_eval, not
# our metrics: a name applies only where a registered metric has the pattern "<name>.{k}".
_LONG_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
TREC_EVAL_CUTOFFS = {"P": _LONG_CUTOFFS, "recall": _LONG_CUTOFFS, "ndcg_cut": _LONG_CUTOFFS, "map_cut": _LONG_CUTOFFS,
                     "success": (1, 5, 10)}


@dataclass(frozen=True)
class Measure:
    """One measure asked for: the registry's metric, its cut-off and the keywords the name implies.

    Attributes
    ----------
    name : str
        How it is printed: trec_eval's ``ndcg_cut_10`` for ``ndcg_cut.10``, else as written (``nDCG@10``).
    spec : Metric
    k : int or None
    keywords : dict
        Implied by the name (from ``spec.names``).
    family : str
        The name before the cut-off (``ndcg_cut``), used to sort as trec_eval does.
    """

    name: str
    spec: object = field(repr=False)
    k: int = None
    keywords: dict = field(default_factory=dict, repr=False)
    family: str = ""

    @property
    def sort_key(self):
        """Where trec_eval prints it: its family's place in trec_eval's table, then the cut-off."""
        rank = TREC_EVAL_ORDER.index(self.family) if self.family in TREC_EVAL_ORDER else len(TREC_EVAL_ORDER)
        return rank, self.k or 0


def _known_names():
    return ", ".join(pattern.format(k=10) for spec in metrics() for pattern in spec.names)


def _cutoffs(text, name):
    cutoffs = []
    for part in text.split(","):
        if not part.isdigit() or int(part) < 1:
            raise ValueError(f"measure {name!r} must end with positive whole cut-offs, e.g. 'P.5' or 'P.5,10'. "
                             f"Got {part!r} instead.")
        cutoffs.append(int(part))
    return sorted(set(cutoffs))


def _match(name):
    """``(spec, pattern, cutoffs)`` of the first registered name that ``name`` fits, or None.

    A trec_eval name without cut-offs (``P``) takes trec_eval's (:data:`TREC_EVAL_CUTOFFS`).
    """
    for spec in metrics():
        for pattern, _ in spec.names.items():
            if "{k}" not in pattern:
                if name == pattern:
                    return spec, pattern, [None]
                continue
            if name in TREC_EVAL_CUTOFFS and pattern == f"{name}.{{k}}":
                return spec, pattern, list(TREC_EVAL_CUTOFFS[name])
            prefix, suffix = pattern.split("{k}")
            middle = name[len(prefix): len(name) - len(suffix) if suffix else None]
            if name.startswith(prefix) and name.endswith(suffix) and middle and middle[0].isdigit():
                if "," in middle and not prefix.endswith("."):
                    raise ValueError(f"measure {name!r}: only trec_eval names such as 'P.5,10' take a list of cut-offs. "
                                     f"Got {middle!r} instead.")
                return spec, pattern, _cutoffs(middle, name)
    return None


def parse_measures(measures):
    """Measures from their trec_eval or ir_measures names, in the order given (lists of cut-offs expanded).

    Parameters
    ----------
    measures : str or list of str
        E.g. ``"ndcg_cut.10"``, ``["P.5,10", "map"]``, ``["nDCG@10", "RR"]``. A
        trec_eval name without cut-offs (``"P"``, ``"recall"``, ``"ndcg_cut"``,
        ``"map_cut"``, ``"success"``) takes trec_eval's: ``"P"`` is P_5 ... P_1000.

    Returns
    -------
    list of Measure

    Examples
    --------
    >>> measure = parse_measures("map_cut.10")[0]
    >>> measure.name, measure.spec.key, measure.k
    ('map_cut_10', 'ap', 10)
    >>> [m.name for m in parse_measures("success")]
    ['success_1', 'success_5', 'success_10']
    """
    if isinstance(measures, str):
        measures = [measures]
    if not isinstance(measures, (list, tuple)) or not measures:
        raise TypeError(f"measures must be a measure name or a non-empty list of them, e.g. ['ndcg_cut.10', 'map']. "
                        f"Got {shown(measures)} instead.")
    parsed, seen = [], set()
    for name in measures:
        if not isinstance(name, str):
            raise TypeError(f"measures must be names (strings) such as 'ndcg_cut.10'. Got {shown(name)} instead.")
        found = _match(name.strip())
        if found is None:
            raise ValueError(f"measure {name!r} is not a name of any registered metric; known names include "
                             f"{_known_names()}. Got {name!r} instead.")
        spec, pattern, cutoffs = found
        family = pattern.split(".{k}")[0] if ".{k}" in pattern else pattern.split("{k}")[0]
        for k in cutoffs:
            printed = pattern.format(k=k).replace(".", "_") if ".{k}" in pattern else name.strip() if k is None \
                else pattern.format(k=k)
            if printed not in seen:
                seen.add(printed)
                parsed.append(Measure(printed, spec, k, dict(spec.names[pattern]), family))
    return parsed
