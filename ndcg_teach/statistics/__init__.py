"""Statistics on per-query scores: is a difference real, do judges agree, do two evaluations rank systems alike.

- ``significance`` and ``significance_results``: paired t, Wilcoxon and randomisation tests, a bootstrap interval
  (lessons 09, 13, 20);
- ``many_systems``: Tukey's HSD, its randomised version and discriminative power, for many systems at once (13, 15);
- ``agreement``: Cohen's and Fleiss' κ, agreement beyond chance (15);
- ``stability``: Kendall's τ, τ_AP and swapped pairs between two rankings of systems (13, 15);
- ``ab_testing``: how many users an A/B test needs (18).

Each result is explained as a metric is (:mod:`ndcg_teach.core.explained`). ``significance`` and ``many_systems``
need SciPy: they load on first use of one of their names.

May import: ``core``, ``i18n``.
"""

from .ab_testing import SampleSize, ab_test_power, ab_test_size, ab_test_size_means
from .agreement import CohenKappa, FleissKappa, cohen_kappa, fleiss_kappa
from .significance_results import BootstrapInterval, SignificanceResult
from .stability import RankCorrelation, SwappedPairs, kendall_tau, swapped_pairs, tau_ap

# The tests of these two modules need SciPy, which `import ndcg_teach` and the other lessons do not: they load, with
# their module, on first use.
_WITH_SCIPY = {
    **dict.fromkeys(("bootstrap_interval", "paired_t_test", "randomisation_test", "wilcoxon_test"), "significance"),
    **dict.fromkeys(("DiscriminativePower", "ManySystems", "discriminative_power", "randomised_tukey_hsd", "tukey_hsd"),
                    "many_systems"),
}


def __getattr__(name):
    if name in _WITH_SCIPY or name in _WITH_SCIPY.values():
        import importlib

        module = importlib.import_module(f"{__name__}.{_WITH_SCIPY.get(name, name)}")
        return module if name in _WITH_SCIPY.values() else getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "BootstrapInterval", "CohenKappa", "DiscriminativePower", "FleissKappa", "ManySystems", "RankCorrelation",
    "SampleSize", "SignificanceResult", "SwappedPairs", "ab_test_power", "ab_test_size", "ab_test_size_means",
    "bootstrap_interval", "cohen_kappa", "discriminative_power", "fleiss_kappa", "kendall_tau", "paired_t_test",
    "randomisation_test", "randomised_tukey_hsd", "swapped_pairs", "tau_ap", "tukey_hsd", "wilcoxon_test",
]
