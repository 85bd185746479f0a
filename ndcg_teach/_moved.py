"""The module paths of ndcg_teach 0.1, from before the package was laid out in rooms, kept for one release.

``import ndcg_teach.trec`` (or ``from ndcg_teach.metrics.dcg import dcg``, ``python -m ndcg_teach.setup``, or
``nt.significance``) still works: it warns with a :class:`DeprecationWarning` that names the new path, and gives the
module found there, the very same object, so no module runs twice under two names (a metric would register twice).
:data:`MOVED` is the whole list of what moved; the next release deletes this module. Nothing in the package, the
lessons or the tests imports an old path (the tests turn such a warning from the package into an error), except
tests/test_unchanged_api.py, which checks that every old path still works.
"""

import importlib
import importlib.abc
import importlib.util
import sys
import types
import warnings

_ROOMS = {
    "core": "binary checks context conventions deprecation discounts explained formulas gains item_checks items mean "
            "metrics registry shown steps subtopics table ties trace trec_gains validation",
    "runs": "cli comparison evaluation exploring ids judging judging_subtopics measures trec trec_files trec_output "
            "trec_reading trec_tables",
    "statistics": "ab_testing agreement many_systems significance significance_results stability",
    "online": "bandit_problem click_models counterfactual counterfactual_rankings interleaving",
    "course": "answers examples glossary glossary_terms rag_data sampled_metrics simulated_judges",
    "jupyter": "server_extension setup",
}
MOVED = {
    **{f"ndcg_teach.{name}": f"ndcg_teach.{room}.{name}" for room, names in _ROOMS.items() for name in names.split()},
    "ndcg_teach.po": "ndcg_teach.i18n.po",
    "ndcg_teach.fonts": "ndcg_teach.plots.fonts",
    "ndcg_teach.grouped_plot": "ndcg_teach.plots.grouped_plot",
}
"""Old module path -> new one. A moved package's modules follow it (``ndcg_teach.metrics.dcg``)."""


def new_path(name):
    """Where the module once at ``name`` is now; None if it did not move."""
    head, _, rest = name.partition(".")
    while head != name:
        if head in MOVED:
            return MOVED[head] + name[len(head):]
        part, _, rest = rest.partition(".")
        head = f"{head}.{part}"
    return MOVED.get(name)


def warn(old, new, stacklevel):
    """The DeprecationWarning of an old path, attributed ``stacklevel`` frames up from the caller (as in
    :func:`warnings.warn`; the import system's own frames are skipped)."""
    warnings.warn(f"{old} is now {new}; its old path stops working in the next release of ndcg_teach.",
                  DeprecationWarning, stacklevel=stacklevel + 1)


# (package, name) pairs where the import system is about to set an old path's module over a name the package defines
_KEPT = set()


class _Package(types.ModuleType):
    """A package an old path goes through. The import system sets each module it imports as an attribute of its
    parent, so an old path would take the place of the name the package defines there: ``import ndcg_teach.mean``
    would turn :func:`ndcg_teach.mean` into a module, ``import ndcg_teach.answers.faithfulness`` the function
    ``faithfulness`` of :mod:`ndcg_teach.course.answers`. Such a name is kept."""

    def __setattr__(self, name, value):
        if (id(self), name) in _KEPT:
            _KEPT.discard((id(self), name))
            return
        super().__setattr__(name, value)


class _Alias(importlib.abc.Loader):
    """Loads an old path as the module at its new path, which runs (once) under its new name."""

    def __init__(self, old, new):
        self.old, self.new = old, new
        self.spec = None

    def create_module(self, spec):
        module = importlib.import_module(self.new)
        self.spec = module.__spec__
        return module

    def exec_module(self, module):
        module.__spec__ = self.spec  # the import system set the old path's spec on it: give it back its own
        parent, _, name = self.old.rpartition(".")
        package = sys.modules[parent]
        if name in vars(package):
            if type(package) is types.ModuleType:
                package.__class__ = _Package
            _KEPT.add((id(package), name))

    def get_code(self, name):
        """The new module's code, for ``python -m OLD.PATH``."""
        return importlib.util.find_spec(self.new).loader.get_code(self.new)


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if not name.startswith("ndcg_teach.") or name in sys.modules:
            return None
        new = new_path(name)
        if new is None:
            return None
        warn(name, new, 2)  # attributed to the module that imports the old path
        spec = importlib.util.find_spec(new)
        return importlib.util.spec_from_loader(name, _Alias(name, new),
                                               is_package=spec.submodule_search_locations is not None)


def install():
    """Put the finder of old paths first in ``sys.meta_path`` (once), so an old path never loads a second copy."""
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
