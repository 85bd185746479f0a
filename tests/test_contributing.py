"""CONTRIBUTING.md's walk-through, followed literally: its metric lands as one module, its strings and its tests.

The blocks the guide marks with a file name (``<!-- file: PATH -->`` before the fence) are what a contributor writes:
the module and the tests are written into a copy of the package, the strings join its catalogue, and there the
registry suites, the new tests and the module's doctests pass, every caller reaches the metric, and nothing but those
files differs from the package. The copy machinery is tests/test_contract.py's (tests/metric_copy.py).
"""

import re

import pytest

import ndcg_teach as nt
from ndcg_teach.i18n.po import read_po
from metric_copy import ROOT, changed_files, collected, package_copy, picked_up, run_suites

GUIDE = ROOT / "CONTRIBUTING.md"
BLOCK = re.compile(r"^<!-- file: (\S+) -->\n```\w+\n(.*?)^```$", re.MULTILINE | re.DOTALL)
MODULE, STRINGS, TESTS = "ndcg_teach/core/metrics/ncg.py", "ndcg_teach/i18n/locales/zh-CN.po", "tests/test_ncg.py"


def blocks():
    """``{path: text}`` of every block the guide marks with a file name, in the guide's order."""
    return dict(BLOCK.findall(GUIDE.read_text(encoding="utf-8")))


def test_the_guide_gives_a_module_its_strings_and_its_tests():
    assert list(blocks()) == [MODULE, STRINGS, TESTS]
    # The example is a metric the package does not have; if it gets one, the guide needs another example.
    assert "ncg" not in [spec.key for spec in nt.metrics()] and not (ROOT / MODULE).exists()


def test_following_the_guide_lands_the_metric_everywhere(tmp_path):
    written = blocks()
    copy = package_copy(tmp_path, files={MODULE: written[MODULE], TESTS: written[TESTS]},
                        strings=read_po(written[STRINGS]))
    assert changed_files(copy) == [MODULE, STRINGS] and changed_files(copy, "tests") == [TESTS]
    assert " passed" in run_suites(copy, TESTS, MODULE)
    assert "ncg" in collected(copy)
    picked_up(copy, "ncg", "nCG")


def test_every_file_and_command_the_guide_names_exists():
    text = GUIDE.read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:ndcg_teach|tests|tools|notebooks|benchmarks)/[\w./-]*|[\w.-]+\.(?:md|txt|toml|yaml))`",
                           text))
    missing = [path for path in sorted(named) if not (ROOT / path).exists() and path not in (MODULE, TESTS)]
    assert not missing and len(named) > 20
    for dots, name in re.findall(r"^from (\.+)(\w+) import", blocks()[MODULE], re.MULTILINE):
        folder = (ROOT / MODULE).parents[len(dots) - 1]  # what the relative import names, from the module's place
        assert (folder / f"{name}.py").exists() or (folder / name).is_dir(), f"{dots}{name}"


@pytest.mark.parametrize("readme", ["README.md", "README.zh-CN.md"])
def test_both_readmes_link_to_the_guide(readme):
    assert "](CONTRIBUTING.md)" in (ROOT / readme).read_text(encoding="utf-8")
