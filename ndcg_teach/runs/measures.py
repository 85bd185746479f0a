"""Measure names: trec_eval's (``ndcg_cut.10``, ``P.5,10``, ``utility.1,-1,0,0``, ``all_trec``) and ir_measures'.

:data:`TREC_EVAL` describes trec_eval's own measures as trec_eval 9.0.8 (and
10.0) defines them in its ``measures.c`` and ``m_*.c`` files: their order of
printing, the kind of parameters each takes after a dot and their defaults,
how a value is printed, and how the ``all`` line sums up the queries. It is a
description of trec_eval, not a list of our metrics: which registered metric
computes a measure is read from each :class:`~ndcg_teach.Metric`'s ``names``
(``"P.{k}"``, ``"map"``, ``"nDCG@{k}"``), so a new metric module brings its
names with it. :func:`parse_measures` turns what a learner types into
:class:`Measure` objects, one per printed column. Lesson 09 uses them through
:func:`~ndcg_teach.evaluate`.

>>> [m.name for m in parse_measures(["ndcg_cut.10", "P.5,10", "AP"])]
['ndcg_cut_10', 'P_5', 'P_10', 'AP']
>>> [m.name for m in parse_measures("official")][:6]
['runid', 'num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'map']
"""

from dataclasses import dataclass, field

from ..core.trec_gains import TrecGains, parse_pairs
from ..core.registry import metrics
from ..core.c_numbers import c_number
from ..core.validation import check_choice, shown
from ..i18n import gettext

VERSIONS = ("9.0.8", "10.0")
_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_RECALL_POINTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


@dataclass(frozen=True)
class TrecMeasure:
    """One of trec_eval's measures, as trec_eval defines it.

    Attributes
    ----------
    name : str
    params : {None, "cutoffs", "levels", "numbers", "pairs"}
        What may follow the dot: whole cut-offs (``P.5,10``), fractional
        cut-offs (``iprec_at_recall.0.1,0.5``), numbers (``utility.1,-1,0,0``) or
        ``name=value`` pairs (``ndcg.1=3,2=9``).
    defaults : tuple
        The parameters used when none are given.
    value : {"float", "long", "string"}
        Printed as ``%6.4f``, ``%ld`` or text.
    summary : {"mean", "sum", "geometric", "count", "none"}
        The ``all`` line: the mean over queries (``-c``: over every judged query),
        the sum, the geometric mean (values below 1e-5 count as 1e-5), the number
        of queries, or no line.
    per_query : bool
        Whether ``-q`` prints a line per query.
    of : str
        For ``gm_map`` and ``gm_bpref``: the measure whose per-query values they sum up.
    since : str
        The first trec_eval version with the measure.
    """

    name: str
    params: str = None
    defaults: tuple = ()
    value: str = "float"
    summary: str = "mean"
    per_query: bool = True
    of: str = ""
    since: str = "9.0.8"


def _m(name, params=None, defaults=(), **keywords):
    return TrecMeasure(name, params, defaults, **keywords)


# trec_eval's table of measures, in its order (the order it prints them); 10.0 adds dcg, ideal_dcg, rbp, rbp_resid, unj.
TREC_EVAL = (
    _m("runid", value="string", per_query=False, summary="none"), _m("num_q", value="long", summary="count",
                                                                      per_query=False),
    _m("num_ret", value="long", summary="sum"), _m("num_rel", value="long", summary="sum"),
    _m("num_rel_ret", value="long", summary="sum"), _m("map"), _m("gm_map", summary="geometric", per_query=False, of="map"),
    _m("Rprec"), _m("bpref"), _m("recip_rank"), _m("iprec_at_recall", "levels", _RECALL_POINTS), _m("P", "cutoffs", _CUTS),
    _m("relstring", "numbers", (10.0,), value="string", summary="none"), _m("recall", "cutoffs", _CUTS), _m("infAP"),
    _m("gm_bpref", summary="geometric", per_query=False, of="bpref"),
    _m("Rprec_mult", "levels", (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)),
    _m("utility", "numbers", (1.0, -1.0, 0.0, 0.0)), _m("11pt_avg", "numbers", _RECALL_POINTS), _m("binG"),
    _m("G", "pairs"), _m("dcg", "pairs", since="10.0"), _m("ideal_dcg", "pairs", since="10.0"), _m("ndcg", "pairs"),
    _m("ndcg_rel", "pairs"), _m("Rndcg", "pairs"), _m("ndcg_cut", "cutoffs", _CUTS), _m("map_cut", "cutoffs", _CUTS),
    _m("relative_P", "cutoffs", _CUTS), _m("success", "cutoffs", (1, 5, 10)), _m("set_P"), _m("set_relative_P"),
    _m("set_recall"), _m("set_map"), _m("set_F", "numbers", (1.0,)), _m("num_nonrel_judged_ret", value="long", summary="sum"),
    _m("rbp", "pairs", since="10.0"), _m("rbp_resid", "pairs", since="10.0"), _m("unj", "cutoffs", (5, 10, 20), since="10.0"),
)
_BY_NAME = {measure.name: measure for measure in TREC_EVAL}
_OFFICIAL = ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
             "iprec_at_recall", "P")
_ALL_TREC = _OFFICIAL + ("relstring", "recall", "infAP", "gm_bpref", "utility", "11pt_avg", "ndcg", "relative_P",
                         "Rprec_mult", "success", "map_cut", "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G", "set_P",
                         "set_recall", "set_relative_P", "set_map", "set_F", "num_nonrel_judged_ret")
NICKNAMES = {  # trec_eval's names for sets of measures (its qrels ones; the preference sets read other files)
    "9.0.8": {"official": _OFFICIAL, "all_trec": _ALL_TREC,
              "set": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall",
                      "set_relative_P", "set_map", "set_F")},
}
NICKNAMES["10.0"] = {**NICKNAMES["9.0.8"], "all_trec": _ALL_TREC + ("unj", "rbp", "rbp_resid")}
# Rules trec_eval 10.0 changed inside a measure: the conventions that give them, for a metric that takes them.
VERSION_CONVENTIONS = {"10.0": {"iprec_at_recall": {"convention": "trec_eval_10"},  # lround(r R), not (long) (r R + 0.9)
                                "11pt_avg": {"convention": "trec_eval_10"}}}
OTHER_FORMATS = ("all_prefs", "prefs", "qrels_jg")  # nicknames for trec_eval's -R prefs / qrels_jg measures
# The cut-offs trec_eval uses for a measure named without any (``-m P`` is P_5 ... P_1000).
TREC_EVAL_CUTOFFS = {measure.name: measure.defaults for measure in TREC_EVAL if measure.params == "cutoffs"}


class MeasureError(ValueError):
    """A measure name or its parameters that cannot be read; ``status`` is trec_eval's exit status for it and
    ``trec_eval`` the line trec_eval prints (for scripts that look for it)."""

    def __init__(self, message, *, status=1, trec_eval=""):
        super().__init__(message)
        self.status, self.trec_eval = status, trec_eval


@dataclass(frozen=True)
class Measure:
    """One printed column of a measure: its metric, its cut-off or parameters and how trec_eval prints it.

    Attributes
    ----------
    name : str
        How it is printed: trec_eval's ``ndcg_cut_10`` for ``ndcg_cut.10``, ``utility_2,-1,0,0``, else as written
        (``nDCG@10``).
    spec : Metric or None
        The registered metric that computes it (None: trec_eval's measure that ndcg_teach does not compute).
    k : int or None
    keywords : dict
        Implied by the name (from ``spec.names``).
    family : str
        The measure before its parameters (``ndcg_cut``), used to sort as trec_eval does.
    trec : TrecMeasure or None
        trec_eval's definition (None for ir_measures names).
    parameter : object
        This column's parameter: a cut-off, a fraction, the tuple of numbers or the dict of pairs.
    """

    name: str
    spec: object = field(default=None, repr=False)
    k: int = None
    keywords: dict = field(default_factory=dict, repr=False)
    family: str = ""
    trec: TrecMeasure = field(default=None, repr=False)
    parameter: object = None

    @property
    def sort_key(self):
        """Where trec_eval prints it: its family's place in trec_eval's table, then its parameter's."""
        families = [measure.name for measure in TREC_EVAL]
        rank = families.index(self.family) if self.family in families else len(families)
        order = self.parameter if isinstance(self.parameter, (int, float)) else 0
        return rank, order


# ---- trec_eval's parameters ------------------------------------------------------------------------------

def _bad(name, message, trec_eval):
    return MeasureError(gettext("measure {name!r}: {message}").format(name=name, message=message), status=2,
                        trec_eval=f"trec_eval: {trec_eval}\ntrec_eval: Cannot initialize measure '{name.split('.')[0]}'")


def _numbers(text, name, integer):
    values = []
    for part in text.split(","):
        value = c_number(part.encode(), integer=integer)
        values.append(0 if value is None else value)  # trec_eval reads a parameter that is not a number as 0
    return values


def _cutoffs(text, name):
    values = sorted(_numbers(text, name, integer=True))
    if values[0] <= 0:
        raise _bad(f"{name}.{text}", gettext("cut-offs must be positive whole numbers, e.g. 'P.5,10'. Got {text!r} "
                                             "instead.").format(text=text), trec_eval="Negative cutoff detected")
    if len(set(values)) < len(values):
        raise _bad(f"{name}.{text}", gettext("cut-offs must differ from each other. Got {text!r} instead.").format(text=text),
                   trec_eval="duplicate cutoffs detected")
    return values


def _levels(text, name):
    values = sorted(_numbers(text, name, integer=False))
    if len(set(values)) < len(values):
        raise _bad(f"{name}.{text}", gettext("parameters must differ from each other. Got {text!r} instead.")
                   .format(text=text), trec_eval="duplicate cutoffs detected")
    return values


def _pairs(text, name):
    """``1=3,2=9`` as trec_eval reads it: names and numbers (a missing ``=`` is an error)."""
    last = ","
    for char in text:
        if char in ",=":
            if char == last:
                last = "," if char == "=" else last
                break
            last = char
    if last != "=":
        raise _bad(f"{name}.{text}", gettext("parameters must be name=value pairs, e.g. 'ndcg.1=3,2=9'. Got {text!r} "
                                             "instead.").format(text=text),
                   trec_eval=f"malformed pair parameters in '{text}'")
    return parse_pairs(text)


def _float_name(name, value):
    """trec_eval's ``%s_%3.2f`` in a buffer of len(name) + 10 (longer numbers are cut, as trec_eval cuts them)."""
    return f"{name}_{value:3.2f}"[: len(name) + 9]


def _columns(measure, text):
    """``[(printed name, parameter)]`` of a trec_eval measure with parameter text ``text`` (None: its defaults)."""
    name = measure.name
    if measure.params == "cutoffs":
        return [(f"{name}_{k}", k) for k in (measure.defaults if text is None else _cutoffs(text, name))]
    if measure.params == "levels":
        return [(_float_name(name, level), level) for level in
                (measure.defaults if text is None else _levels(text, name))]
    if measure.params == "numbers":
        return [(name, measure.defaults)] if text is None else [(f"{name}_{text}", tuple(_numbers(text, name, False)))]
    if measure.params == "pairs":
        return [(name, ())] if text is None else [(f"{name}_{text}", _pairs(text, name))]
    return [(name, None)]


# ---- Binding to the registry -----------------------------------------------------------------------------

def _slot(pattern):
    """What a name's parameters fill: ``"k"`` (``"P.{k}"``), a param of the metric (``"Rprec_mult.{multiple}"``), or
    "" (``"map"``)."""
    tail = pattern.partition(".")[2]
    return tail[1:-1] if tail.startswith("{") and tail.endswith("}") else ""


def _binding(family, parameterised=False):
    """The registered metric whose names hold trec_eval's ``family``: ``"P.{k}"`` for P, ``"map"`` for map,
    ``"iprec_at_recall.{recall_level}"`` for a measure whose parameters fill one of the metric's params (preferred
    when ``parameterised``: parameters other than trec_eval's defaults were given)."""
    found = []
    for spec in metrics():
        for pattern, keywords in spec.names.items():
            if pattern == family or (pattern.startswith(f"{family}.") and _slot(pattern) in ("k", *spec.params)):
                found.append((spec, pattern, keywords))
    found.sort(key=lambda entry: (_slot(entry[1]) in ("", "k")) == parameterised)
    return found[0] if found else (None, None, {})


def _value(trec, parameter, version):
    """A column's trec_eval parameter as the metric's param takes it: a level as a float, numbers as a tuple,
    ``name=value`` pairs as trec_eval's gains (:class:`~ndcg_teach.core.trec_gains.TrecGains`, read as ``version`` reads
    them)."""
    if trec.params == "pairs":
        return TrecGains(parameter, version)
    return tuple(float(value) for value in parameter) if trec.params == "numbers" else float(parameter)


def _trec_measures(trec, texts, merge, version="9.0.8"):
    """The columns of one trec_eval measure given parameter ``texts`` (none: its defaults; several: the first, as
    trec_eval takes it, or all of their cut-offs with ``merge``)."""
    source = _BY_NAME[trec.of] if trec.of else trec
    spec, pattern, keywords = _binding(source.name, bool(texts) and trec.params in ("numbers", "pairs"))
    slot = _slot(pattern or "")
    columns = _columns(trec, texts[0] if texts else None)
    if merge and len(texts) > 1:
        found = {name: parameter for text in texts for name, parameter in _columns(trec, text)}
        columns = sorted(found.items(), key=lambda pair: pair[1])
    parsed = []
    for printed, parameter in columns:
        k = parameter if trec.params == "cutoffs" else None
        given = dict(keywords)
        if spec is not None:
            given.update({name: value for name, value in VERSION_CONVENTIONS.get(version, {}).get(trec.name, {}).items()
                          if name in spec.params})
        if slot not in ("", "k") and trec.params not in (None, "cutoffs"):
            usable = spec is not None
            given[slot] = _value(trec, parameter, version)
        else:
            usable = spec is not None and ((slot == "k") == (k is not None)) and (
                trec.params in (None, "cutoffs") or parameter in (trec.defaults, ()))
        parsed.append(Measure(printed, spec if usable else None, k, given if usable else {}, trec.name, trec,
                              parameter))
    return parsed


def _ir_measures(name):
    """Measures from a name that is not trec_eval's, registered by a metric: ``nDCG@10``, or ``my_metric.5,10``."""
    for spec in metrics():
        for pattern, keywords in spec.names.items():
            if "{k}" not in pattern:
                if name == pattern:
                    return [Measure(name, spec, None, dict(keywords), name)]
                continue
            prefix, suffix = pattern.split("{k}")
            middle = name[len(prefix): len(name) - len(suffix) if suffix else None]
            if not (name.startswith(prefix) and name.endswith(suffix) and middle and middle[0].isdigit()):
                continue
            if prefix.endswith("."):  # a trec_eval-style name: a list of cut-offs, printed as trec_eval prints them
                family = prefix[:-1]
                return [Measure(f"{family}_{k}", spec, k, dict(keywords), family) for k in _cutoffs(middle, family)]
            if not middle.isdigit() or int(middle) < 1:
                raise MeasureError(gettext("measure {name!r} must end with a positive whole cut-off, e.g. "
                                           "{format!r}. Got {middle!r} instead.")
                                          .format(name=name, format=pattern.format(k=10), middle=middle),
                                   trec_eval=f"trec_eval: illegal measure '{name}'")
            return [Measure(name, spec, int(middle), dict(keywords), prefix + suffix)]
    return None


def _known_names(version):
    trec = ", ".join(measure.name for measure in TREC_EVAL if version == "10.0" or measure.since == "9.0.8")
    others = ", ".join(pattern.format(k=10) for spec in metrics() for pattern in spec.names
                       if pattern.split(".")[0] not in _BY_NAME and pattern not in _BY_NAME)
    return trec, others


def _unknown(name, version):
    trec, others = _known_names(version)
    if name.split(".")[0] in OTHER_FORMATS:
        reason = gettext("reads preference or judgement-group files (trec_eval -R prefs, qrels_jg), which ndcg_teach "
                         "does not")
    else:
        reason = gettext("is not a trec_eval measure in {version}").format(version=version) if name in _BY_NAME else \
            gettext("is not a trec_eval measure")
    return MeasureError(gettext("measure {name!r} {reason}. trec_eval's measures: {trec}, and the sets official, "
                                "all_trec, set; ndcg_teach also reads {others}. Got {name!r} instead.")
                        .format(name=name, reason=reason, trec=trec, others=others),
                        trec_eval=f"trec_eval: illegal measure '{name}'")


def parse_measures(measures, *, trec_eval="9.0.8", merge=True):
    """Measures from their trec_eval or ir_measures names, in the order named (a set's in trec_eval's order).

    Parameters
    ----------
    measures : str or list of str
        trec_eval names, with parameters after a dot as trec_eval reads them
        (``"P"`` is P_5 ... P_1000, ``"P.5,10"``, ``"iprec_at_recall.0.25,0.5"``,
        ``"utility.2,-1,0,0"``, ``"ndcg.1=3,2=9"``), trec_eval's sets
        (``"official"``, ``"all_trec"``, ``"set"``), or ir_measures names
        (``"nDCG@10"``, ``"P@5"``, ``"AP"``).
    trec_eval : {"9.0.8", "10.0"}
        Which trec_eval's measures and sets (10.0 adds rbp, rbp_resid, unj, dcg, ideal_dcg).
    merge : bool, default True
        Join the parameters of a measure named twice (``["P.5", "P.10"]`` gives
        P_5 and P_10). False is trec_eval's rule: the first parameters given
        for a measure are the ones it uses (``-m P.5 -m P.10`` prints P_5 only).

    Returns
    -------
    list of Measure
        Each printed column once (:attr:`Measure.sort_key` gives trec_eval's
        order of printing). A trec_eval measure that no registered metric
        computes comes with ``spec=None``.

    Raises
    ------
    MeasureError
        A name that is neither (trec_eval: "illegal measure", exit status 1)
        or parameters trec_eval refuses (exit status 2).

    Examples
    --------
    >>> measure = parse_measures("map_cut.10")[0]
    >>> measure.name, measure.spec.key, measure.k
    ('map_cut_10', 'ap', 10)
    >>> [m.name for m in parse_measures("success")]
    ['success_1', 'success_5', 'success_10']
    >>> [m.name for m in parse_measures(["P.5", "P.10"], merge=False)]
    ['P_5']
    """
    check_choice("trec_eval", trec_eval, VERSIONS)
    if isinstance(measures, str):
        measures = [measures]
    if not isinstance(measures, (list, tuple)) or not measures:
        raise TypeError(gettext("measures must be a measure name or a non-empty list of them, e.g. "
                                "['ndcg_cut.10', 'map']. Got {got} instead.").format(got=shown(measures)))
    texts, entries = {}, []  # entries: trec_eval measure names and ir_measures Measures, in the order first named
    nicknames = NICKNAMES[trec_eval]
    for raw in measures:
        if not isinstance(raw, str):
            raise TypeError(gettext("measures must be names (strings) such as 'ndcg_cut.10'. Got {got} instead.")
                                   .format(got=shown(raw)))
        name = raw.strip()
        base, dot, text = name.partition(".")
        if dot and not text:
            raise MeasureError(gettext("measure {name!r} must have parameters after its dot, e.g. 'P.5'. Got "
                                       "{name!r} instead.").format(name=name), trec_eval=f"trec_eval: improper measure in parameter '{base}'\n"
                                                     f"trec_eval: illegal measure '{base}'")
        trec = _BY_NAME.get(base)
        if base in nicknames or (trec is not None and (trec_eval == "10.0" or trec.since == "9.0.8")):
            for member in nicknames.get(base, (base,)):
                if member not in texts:
                    texts[member] = []
                    entries.append(member)
            if dot and trec is not None and trec.params is not None:
                texts[base].append(text)
            continue
        found = _ir_measures(name)
        if found is None:
            raise _unknown(name, trec_eval)
        entries += found
    parsed = []
    for entry in entries:
        if isinstance(entry, str):
            trec = _BY_NAME[entry]
            parsed += _trec_measures(trec, texts[entry], merge and trec.params in ("cutoffs", "levels"), trec_eval)
        else:
            parsed.append(entry)
    seen, unique = set(), []
    for measure in parsed:
        if measure.name not in seen:
            seen.add(measure.name)
            unique.append(measure)
    return unique
