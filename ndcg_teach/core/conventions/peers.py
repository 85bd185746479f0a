"""What each peer library computes: the rows of ``peers.json``, read and checked into :class:`~.convention.Convention`\\ s.

Each row records, for one function of one library, the choices that decide
its value and the source file each fact was read from; a field left out takes
the :class:`~.convention.Convention` default. The table is data so that a new
library or a new metric's row is a few lines of JSON, read the same way on
every Python the package supports. The reader refuses a row it cannot trust,
naming the row and the field: a metric the registry does not know, a field
:class:`~.convention.Convention` does not have, a value of the wrong type or
outside the field's choices, a setting the metric does not take, or one its
own checks refuse.

The scikit-learn and trec_eval rows are checked against the real libraries in
``tests/test_conventions.py``; the others against hand-computed cases built
from the formulas in their source. Lesson 08 shows them side by side
(:func:`ndcg_teach.core.conventions.compare`).
"""

import json
from dataclasses import MISSING, fields
from importlib import resources

from ..context import Query
from ..registry import call, metric, metrics
from ..validation import shown
from ...i18n import gettext, mark
from .convention import CHOICES, SETTINGS, Convention, reads_subtopics

DATA = "peers.json"
TOP = ("about", "conventions")
FIELDS = {field.name: field for field in fields(Convention)}
REQUIRED = tuple(name for name, field in FIELDS.items() if field.default is MISSING)
TYPES = {str: mark("a string"), bool: mark("true or false"), float: mark("a number")}


class ConventionError(ValueError):
    """A row of the conventions' data that cannot be read: the message names the row and the field."""


def _is(value, dtype):
    """Whether ``value`` (read from JSON) is a ``dtype``: a whole number is a float, true is not a number."""
    if dtype is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, dtype)


def _check_row(row, where):
    """The Convention of one row (a dict read from JSON); ``where`` names the row in errors."""
    if not isinstance(row, dict):
        raise ConventionError(gettext("{where} must be an object of fields. Got {got} instead.")
                                     .format(where=where, got=shown(row)))
    named = f"{where} ({row.get('library', '?')} {row.get('function', '?')})"
    for name in row:
        if name not in FIELDS:
            raise ConventionError(gettext("{named}: unknown field {name!r}; the fields are {names}.")
                                         .format(named=named, name=name, names=', '.join(FIELDS)))
    for name in REQUIRED:
        if name not in row:
            raise ConventionError(gettext("{named}: field {name!r} is required. Got no {name} instead.")
                                         .format(named=named, name=name))
    keys = [spec.key for spec in metrics()]
    if row["metric"] not in keys:
        raise ConventionError(gettext("{named}: field 'metric' must be a registry key, one of {names}. Got {got} "
                                      "instead.").format(named=named, names=', '.join(map(repr, keys)),
                                                         got=shown(row['metric'])))
    spec = metric(row["metric"])
    for name, value in row.items():
        _check_value(named, spec, name, value)
    convention = Convention(**{**row, **({"depths": tuple(row["depths"])} if row.get("depths") else {})})
    trial = Query.of_subtopics([[1, 0], [0, 1]]) if reads_subtopics(spec) else Query.of([1, 0], n_relevant=1, n_nonrelevant=1)
    try:
        call(spec, trial, None, **convention.settings())
    except (TypeError, ValueError) as error:
        raise ConventionError(gettext("{named}: {key} refuses this row's settings {settings}: {error}")
                                     .format(named=named, key=spec.key, settings=convention.settings(), error=error)) from None
    return convention


def _check_value(named, spec, name, value):
    """Refuse a value of the wrong type, outside the field's choices, or a setting that ``spec`` does not take."""
    if name in SHAPED:
        SHAPED[name](named, spec, value)
        return
    if name in SETTINGS and name not in spec.params:
        raise ConventionError(gettext("{named}: field {name!r} is not a convention of metric {key!r} (its "
                                      "conventions: {value}). Got {name}={got} instead.")
                                     .format(named=named, name=name, key=spec.key,
                                             value=', '.join(spec.params) or 'none', got=shown(value)))
    if name in SETTINGS and value is not None:
        param = spec.params[name]
        dtypes = param.dtype if isinstance(param.dtype, tuple) else (param.dtype,)
        if name == "gain":
            allowed = (*param.choices, "binary")
        elif param.choices and {type(choice) for choice in param.choices} >= set(dtypes):
            allowed = param.choices  # only the named choices are of its type (adaptive_k: False or True)
        else:
            allowed = None
        if allowed is not None and not (param.named(value) or (name == "gain" and value == "binary")):
            raise ConventionError(gettext("{named}: field {name!r} must be one of {names}. Got {got} instead.")
                                         .format(named=named, name=name, names=', '.join(map(repr, allowed)),
                                                 got=shown(value)))
        if not any(_is(value, dtype) for dtype in dtypes):
            raise ConventionError(gettext("{named}: field {name!r} must be a value of {key}'s {name} ({value}). "
                                          "Got {got} instead.").format(named=named, name=name, key=spec.key,
                                                                       value=param.description or name,
                                                                       got=shown(value)))
        return
    if name in CHOICES and value is not None and value not in CHOICES[name]:
        raise ConventionError(gettext("{named}: field {name!r} must be one of {names}. Got {got} instead.")
                                     .format(named=named, name=name, names=', '.join(map(repr, CHOICES[name])),
                                             got=shown(value)))
    dtype = FIELDS[name].type
    if name not in SETTINGS and not (value is None and FIELDS[name].default is None) and not _is(value, dtype):
        raise ConventionError(gettext("{named}: field {name!r} must be {kind}. Got {got} instead.")
                                     .format(named=named, name=name, kind=gettext(TYPES[dtype]), got=shown(value)))


def _check_params(named, spec, value):
    """``params``: an object of the metric's other conventions, each a Param it has (and not a field of its own)."""
    if not isinstance(value, dict):
        raise ConventionError(gettext("{named}: field 'params' must be an object of {key}'s conventions. Got {got} "
                                      "instead.").format(named=named, key=spec.key, got=shown(value)))
    for name, setting in value.items():
        if name in SETTINGS or name not in spec.params:
            others = ", ".join(name for name in spec.params if name not in SETTINGS) or "none"
            raise ConventionError(gettext("{named}: field 'params' may name {key}'s conventions that have no field of "
                                          "their own ({others}). Got {name}={got} instead.")
                                  .format(named=named, key=spec.key, others=others, name=name, got=shown(setting)))
        param = spec.params[name]
        dtypes = param.dtype if isinstance(param.dtype, tuple) else (param.dtype,)
        if not (param.named(setting) or (not param.choices and any(_is(setting, dtype) for dtype in dtypes))):
            allowed = ", ".join(map(repr, param.choices)) if param.choices else f"a value of {param.description or name}"
            raise ConventionError(gettext("{named}: params {name!r} must be {allowed}. Got {got} instead.")
                                  .format(named=named, name=name, allowed=allowed, got=shown(setting)))


def _check_depths(named, spec, value):
    """``depths``: None, or [smallest, largest] cut-off, whole numbers from 1."""
    if value is None:
        return
    if not (isinstance(value, list) and len(value) == 2 and all(_is(depth, float) and depth == int(depth) for depth in value)
            and 1 <= value[0] <= value[1]):
        raise ConventionError(gettext("{named}: field 'depths' must be [smallest, largest] cut-off, whole numbers "
                                      "with 1 <= smallest <= largest. Got {got} instead.").format(named=named, got=shown(value)))


SHAPED = {"params": _check_params, "depths": _check_depths}


def read(data, source=DATA):
    """The conventions of ``data`` (the parsed JSON: ``{"conventions": [row, ...]}``), each row checked.

    Raises
    ------
    ConventionError
        Naming ``source``, the row and the field, when a row cannot be trusted.

    Examples
    --------
    >>> read({"conventions": [{"library": "x", "function": "f", "metric": "ndcg", "source": "x.py", "gain": "cubic"}]})
    Traceback (most recent call last):
    ...
    ndcg_teach.core.conventions.peers.ConventionError: peers.json row 1 (x f): field 'gain' must be one of 'linear', 'exponential', 'binary'. Got 'cubic' instead.
    """
    if not isinstance(data, dict) or set(data) - set(TOP) or "conventions" not in data:
        raise ConventionError(gettext("{source} must be an object with the keys {names}. Got {got} instead.")
                                     .format(source=source, names=', '.join(TOP), got=shown(data)))
    if not isinstance(data["conventions"], list):
        raise ConventionError(gettext("{source}: 'conventions' must be a list of rows. Got {got} instead.")
                                     .format(source=source, got=shown(data['conventions'])))
    conventions = tuple(_check_row(row, gettext("{source} row {i}").format(source=source, i=i)) for i, row in enumerate(data["conventions"], 1))
    names = [convention.name for convention in conventions]
    for i, name in enumerate(names, 1):
        if name in names[:i - 1]:
            raise ConventionError(gettext("{source} row {i}: {name!r} is listed twice (rows {value} and {i}).")
                                         .format(source=source, i=i, name=name, value=names.index(name) + 1))
    return conventions


CONVENTIONS = read(json.loads(resources.files(__package__).joinpath(DATA).read_text(encoding="utf-8")))
CONVENTIONS_BY_NAME = {convention.name: convention for convention in CONVENTIONS}
