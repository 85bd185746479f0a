"""Every metric family, one module each: its steps, its plain function and ``explain_*`` twin, its registry entries.

Importing this package imports every module in it, so each registers its
metrics (see :mod:`ndcg_teach.core.registry`) and its public names (the module's
``__all__``) are re-exported here and by ``ndcg_teach``. Adding a metric means
adding one module to this folder; nothing else in the package names it.
"""

import importlib
import pkgutil

__all__ = []
for _module_info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
    _module = importlib.import_module(f"{__name__}.{_module_info.name}")
    for _name in getattr(_module, "__all__", ()):
        globals()[_name] = getattr(_module, _name)
        __all__.append(_name)
